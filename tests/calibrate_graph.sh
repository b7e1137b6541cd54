#!/bin/sh
# gpuplan calibrate recovers a known moe_graph_residual (the share of the
# fitted MoE per-layer costs a run replaying the whole forward-backward as
# CUDA graphs still pays, model/train.c): the MoE runs of the 26.08 table
# (graphed) and of the 26.04.01 one (not), "measured" as the shipped model
# predicts them under a catalog whose nemo profiles have the share 0.3, are
# calibrated from the shipped catalog (data/catalog/validation-fit.yaml's
# share) and the fit lands within 0.05 of 0.3 and predicts the runs within
# 2 % on average.  TAP.
set -u
src=${GPUPLAN_SRCDIR:-$(dirname "$0")/..}
bin=${GPUPLAN_BUILDDIR:-.}/gpuplan
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || echo python3)
if ! "$py" -c 'import yaml' 2>/dev/null; then
    echo "1..0 # SKIP python3 with yaml not found (Debian: python3-yaml)"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-calgraph.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }

mkdir -p "$tmp/truth" "$tmp/runs"
{
    echo "frameworks:"
    for id in nemo nemo@GB200 nemo@GB300 nemo@B200 nemo@B300 nemo@H100-SXM; do
        printf '  - id: "%s"\n    moe_graph_residual: 0.3\n' "$id"
    done
} >"$tmp/truth/zz-truth.yaml"
"$py" "$src/tests/calibrate_graph.py" "$bin" "$tmp/truth" "$tmp/runs" \
    "$src/tests/data/runs/mbridge-table-2608.yaml" "$src/tests/data/runs/mbridge-table-2604-01.yaml"
ok $? "synthetic runs written from the truth catalog"
[ "$(grep -c 'cuda_graph_full: true' "$tmp/runs/mbridge-table-2608.yaml")" -ge 4 ] &&
    [ "$(grep -c 'measured_step' "$tmp/runs/mbridge-table-2604-01.yaml")" -ge 4 ]
ok $? "graphed and eager MoE runs both present"
"$bin" calibrate --half all -o "$tmp/out" "$tmp/runs"/*.yaml >"$tmp/log" 2>&1
r=$?; [ $r -eq 0 ] || sed 's/^/# /' "$tmp/log"
ok $r "calibrate exits 0"
got=$(awk '/id: "nemo"$/ {f = 1} f && /moe_graph_residual:/ {print $2; exit}' "$tmp/out/calibrated.yaml")
shipped=$(awk '/id: "nemo"$/ {f = 1} f && /moe_graph_residual:/ {print $2; exit}' \
    "$src/data/catalog/validation-fit.yaml")
echo "# fitted moe_graph_residual: ${got:-none} (truth 0.3, shipped ${shipped:-none})"
awk -v g="${got:-9}" 'BEGIN {exit !(g > 0.25 && g < 0.35)}'
ok $? "the fitted share is within 0.05 of the truth"
after=$(sed -n 's/^all runs: .* -> \([0-9.]*\) %, worst.*/\1/p' "$tmp/log")
echo "# mean |error| after: ${after:-none} %"
awk -v a="${after:-99}" 'BEGIN {exit !(a <= 2.0)}'
ok $? "the calibrated profile predicts the runs within 2 % on average"
echo "1..$n"
