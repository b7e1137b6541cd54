#!/bin/sh
# tests/faults/alloc_loop.sh — allocation-failure loop over `eval`, `save`
# and the dashboard's start (issue 17), the way SQLite tests OOM: run the
# command once to count its allocations T, then again with the Nth one
# failing (tests/faults/failmalloc.so), for N = 1..FAULTS_ALL and then every
# ceil(T / FAULTS_SAMPLES)-th N up to T (FAULTS_FULL=1: every N, ~1 h).
# Each run must exit by itself (no signal), with status 0 or a
# "gpuplan: …" message on stderr, and a failed run must leave the store
# byte-identical.  A few runs also go through valgrind (when installed):
# no definite leak, no invalid access.  TAP output.
set -u
bin=${GPUPLAN_BUILDDIR:-.}/gpuplan
shim=${GPUPLAN_BUILDDIR:-.}/tests/faults/failmalloc.so
src=${GPUPLAN_SRCDIR:-.}
plan=$src/data/examples/startup-h200.yaml
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-faults.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_DATA_HOME="$tmp/xdg" HOME="$tmp/home"
all=${FAULTS_ALL:-60}
samples=${FAULTS_SAMPLES:-120}
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }

if [ ! -f "$shim" ]; then echo "1..0 # SKIP no failmalloc shim (sanitizer build?)"; exit 0; fi
"$bin" --db "$tmp/orig.db" list >/dev/null 2>&1 || { echo "Bail out! cannot create a store"; exit 1; }

# run_one NAME N: one run with allocation N failing; prints a reason on failure
run_one() {
    cp "$tmp/orig.db" "$tmp/s.db"
    rm -f "$tmp/s.db-wal" "$tmp/s.db-shm"
    case $1 in
    eval) set -- "$2" eval "$plan" ;;
    save) set -- "$2" save "$plan" --note "fault test" ;;
    start) set -- "$2" ;;
    esac
    fail=$1; shift
    GPUPLAN_FAILMALLOC=$fail LD_PRELOAD=$shim "$bin" --db "$tmp/s.db" "$@" \
        </dev/null >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ge 128 ]; then echo "N=$fail: killed by signal $((rc - 128))"; return; fi
    if [ "$rc" -ne 0 ] && ! grep -q '^gpuplan: ' "$tmp/err"; then
        echo "N=$fail: exit $rc without a message: $(head -c 200 "$tmp/err")"; return
    fi
    # a failed run leaves the store as it was, or (the dashboard, which
    # stops at "needs a terminal") exactly as a run without a failure does
    if [ "$rc" -ne 0 ] && ! cmp -s "$tmp/s.db" "$tmp/orig.db" && ! cmp -s "$tmp/s.db" "$tmp/base.db"; then
        echo "N=$fail: exit $rc and the store changed"; return
    fi
}

for cmd in eval save start; do
    cp "$tmp/orig.db" "$tmp/s.db"
    case $cmd in
    eval) args="eval $plan" ;; save) args="save $plan" ;; start) args="" ;;
    esac
    # shellcheck disable=SC2086
    GPUPLAN_FAILMALLOC_COUNT=$tmp/count LD_PRELOAD=$shim "$bin" --db "$tmp/s.db" $args \
        </dev/null >/dev/null 2>&1
    total=$(cat "$tmp/count" 2>/dev/null || echo 0)
    cp "$tmp/s.db" "$tmp/base.db"
    if [ "${FAULTS_FULL:-}" ]; then step=1; else step=$(( (total + samples - 1) / samples )); fi
    [ "$step" -ge 1 ] || step=1
    bad="" runs=0 msgs=0
    i=1
    while [ "$i" -le "$total" ]; do
        why=$(run_one "$cmd" "$i")
        runs=$((runs + 1))
        [ -s "$tmp/err" ] && msgs=$((msgs + 1))
        if [ -n "$why" ]; then bad="$bad
$why"; fi
        if [ "$i" -lt "$all" ]; then i=$((i + 1)); else i=$((i + step)); fi
    done
    if [ -z "$bad" ]; then
        ok "$cmd: $runs runs over $total allocations (every N <= $all, then every ${step}th): no crash, a message on every failure, the store unchanged ($msgs runs said why)"
    else
        not_ok "$cmd: allocation failures handled" "$(printf '%s' "$bad" | head -n 8 | tr '\n' '|')"
    fi
done

# leaks and invalid accesses on a few failure points, under valgrind
if command -v valgrind >/dev/null 2>&1; then
    for cmd in eval save start; do
        for frac in 3 2; do
            cp "$tmp/orig.db" "$tmp/s.db"
            case $cmd in
            eval) args="eval $plan" ;; save) args="save $plan" ;; start) args="" ;;
            esac
            # shellcheck disable=SC2086
            GPUPLAN_FAILMALLOC_COUNT=$tmp/count LD_PRELOAD=$shim "$bin" --db "$tmp/s.db" $args \
                </dev/null >/dev/null 2>&1
            total=$(cat "$tmp/count")
            at=$((total / frac))
            cp "$tmp/orig.db" "$tmp/s.db"
            # shellcheck disable=SC2086
            GPUPLAN_FAILMALLOC=$at valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
                --error-exitcode=99 --soname-synonyms=somalloc=NONE \
                env LD_PRELOAD="$shim" "$bin" --db "$tmp/s.db" $args \
                </dev/null >/dev/null 2>"$tmp/vg"
            rc=$?
            if [ "$rc" -ne 99 ] && [ "$rc" -lt 128 ]; then
                ok "$cmd with allocation $at of $total failing: no leak or invalid access (valgrind)"
            else
                not_ok "$cmd with allocation $at failing: valgrind found errors" "$(grep -m5 '==' "$tmp/vg" | tr '\n' '|')"
            fi
        done
    done
fi

echo "1..$n"
[ "$failed" -eq 0 ]
