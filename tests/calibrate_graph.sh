#!/bin/sh
# gpuplan calibrate recovers a known moe_graph_residual (the share of the
# fitted MoE per-layer costs a run replaying the whole forward-backward as
# CUDA graphs still pays, model/train.c): the MoE runs of the 26.08 table
# (graphed) and of the 26.04.01 one (not), "measured" as the shipped model
# predicts them under a catalog whose nemo profiles have the share 0.3, are
# calibrated from the shipped catalog (data/catalog/validation-fit.yaml's
# share) and the fit lands within 0.05 of 0.3 and predicts the runs within
# 2 % on average.  TAP output for make check.
set -u
bin=${GPUPLAN_BUILDDIR:-.}/gpuplan
src=${GPUPLAN_SRCDIR:-.}
py=$(command -v python3 || echo /usr/bin/python3)
if ! "$py" -c 'import yaml' 2>/dev/null; then
    echo "1..0 # SKIP python3 with yaml not found (Debian: python3-yaml)"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-calgraph.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0 failed=0

. "$src/tests/tap.sh"
# the nemo profile's moe_graph_residual in a catalog file
share() { awk '/id: "nemo"$/ {f = 1} f && /moe_graph_residual:/ {print $2; exit}' "$1"; }

mkdir -p "$tmp/truth" "$tmp/runs"
{
    echo "frameworks:"
    for id in nemo nemo@GB200 nemo@GB300 nemo@B200 nemo@B300 nemo@H100-SXM; do
        printf '  - id: "%s"\n    moe_graph_residual: 0.3\n' "$id"
    done
} >"$tmp/truth/zz-truth.yaml"
check "synthetic runs written from the truth catalog" 0 "$py" "$src/tests/calibrate_graph.py" \
    "$bin" "$tmp/truth" "$tmp/runs" "$src/tests/data/runs/mbridge-table-2608.yaml" \
    "$src/tests/data/runs/mbridge-table-2604-01.yaml"
has "graphed MoE runs present" "$tmp/runs/mbridge-table-2608.yaml" "cuda_graph_full: true"
has "eager MoE runs present" "$tmp/runs/mbridge-table-2604-01.yaml" "measured_step"
check "calibrate exits 0" 0 "$bin" calibrate --half all -o "$tmp/cal" \
    "$tmp/runs/mbridge-table-2608.yaml" "$tmp/runs/mbridge-table-2604-01.yaml"
got=$(share "$tmp/cal/calibrated.yaml")
echo "# fitted moe_graph_residual: ${got:-none} (truth 0.3, shipped $(share "$src/data/catalog/validation-fit.yaml"))"
if awk -v g="${got:-9}" 'BEGIN {exit !(g > 0.25 && g < 0.35)}'; then
    ok "the fitted share is within 0.05 of the truth"
else
    not_ok "the fitted share is within 0.05 of the truth" "got ${got:-none}"
fi
after=$(sed -n 's/^all runs: .* -> \([0-9.]*\) %, worst.*/\1/p' "$tmp/out") # calibrate's stdout
echo "# mean |error| after: ${after:-none} %"
if awk -v a="${after:-99}" 'BEGIN {exit !(a <= 2.0)}'; then
    ok "the calibrated profile predicts the runs within 2 % on average"
else
    not_ok "the calibrated profile predicts the runs within 2 % on average" "got ${after:-none} %"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
