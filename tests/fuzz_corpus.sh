#!/bin/sh
# tests/fuzz_corpus.sh — every fuzz/ harness replays its corpus kept in
# fuzz/corpus/<harness>/ (seeds and past findings, e.g. the quantity round
# trip of issue 17 D12) through the plain replay main: a finding fixed once
# stays fixed in make check, without clang.  TAP output.
set -u
b=${GPUPLAN_BUILDDIR:-.}
src=${GPUPLAN_SRCDIR:-.}
n=0 failed=0
# the replay's output goes to a private temporary file, not the build tree
# (make distcheck refuses files distclean does not know)
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
for h in plan quantity catalog trace eval; do
    n=$((n + 1))
    prog=$b/fuzz/fuzz_$h
    if [ ! -x "$prog" ]; then
        failed=$((failed + 1)); echo "not ok $n - fuzz_$h is built"; continue
    fi
    if "$prog" "$src"/fuzz/corpus/$h/* >"$log" 2>&1; then
        echo "ok $n - fuzz_$h replays its corpus ($(ls "$src"/fuzz/corpus/$h | wc -l) inputs)"
    else
        failed=$((failed + 1))
        echo "not ok $n - fuzz_$h replays its corpus"; tail -n 5 "$log" | sed 's/^/# /'
    fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
