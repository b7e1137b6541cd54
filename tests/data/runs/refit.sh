#!/bin/sh
# tests/data/runs/refit.sh — regenerate data/catalog/validation-fit.yaml:
# `gpuplan calibrate` on the FIT HALF of this validation set (split rule:
# model/calib.c calib_split), against the shipped catalog WITHOUT the old
# validation-fit.yaml; error bands from the residuals of all runs (both
# halves: a band is the measured spread, it changes no prediction), each
# run's as fitted and as predicted by the calibration on the half it is not
# in (--cross-validate: a second full calibration, on the held-out half,
# predicts the fit half; its figure is printed and each fitted row keeps
# its cross_validated_residual).  Run after changing a model mechanism,
# then run tests/test_validation for the held-out half and update README.
# Usage: tests/data/runs/refit.sh [path/to/gpuplan]
set -eu
src=$(cd "$(dirname "$0")/../../.." && pwd)
gp=${1:-$src/build/gpuplan}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-refit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/data/catalog"
for f in "$src"/data/catalog/*.yaml; do
    [ "$(basename "$f")" = validation-fit.yaml ] || cp "$f" "$tmp/data/catalog/"
done
# the runs files, in the split's order (fit-set.list)
set --
while read -r f; do
    case $f in '' | '#'*) continue ;; esac
    set -- "$@" "$src/tests/data/runs/$f"
done <"$src/tests/data/runs/fit-set.list"
# runs beside the split that only describe the error bands (not fitted)
GPUPLAN_DATADIR=$tmp/data "$gp" calibrate --half fit --bands-all --cross-validate \
    --bands-from "$src/tests/data/runs/mbridge-nemotron-3-nano.yaml" \
    --bands-from "$src/tests/data/runs/mbridge-nemotron-3-super.yaml" \
    --bands-from "$src/tests/data/runs/mbridge-kimi-k2.yaml" \
    --bands-from "$src/tests/data/runs/mbridge-verification-cards.yaml" \
    --bands-from "$src/tests/data/runs/training-results-v60-moe.yaml" \
    --bands-from "$src/tests/data/runs/training-results-v60-llama.yaml" \
    --bands-from "$src/tests/data/runs/nemo-long-context-b200.yaml" \
    --bands-from "$src/tests/data/runs/nemo-long-context-h100.yaml" \
    --bands-from "$src/tests/data/runs/mbridge-table-2602-01.yaml" \
    --bands-from "$src/tests/data/runs/automodel-h100.yaml" \
    --bands-from "$src/tests/data/runs/torchtitan-op-sac.yaml" \
    --bands-from "$src/tests/data/runs/maxtext-tpu7x-moe.yaml" \
    --bands-from "$src/tests/data/runs/maxtext-tpu-v6e-moe.yaml" \
    --label "published runs, the fit half of gpuplan's validation set" -o "$tmp/out" "$@"
{
    cat <<'HDR'
# gpuplan catalog: the training model's calibration on the FIT HALF of the
# validation set (tests/data/runs, split rule in model/calib.c calib_split),
# written verbatim by tests/data/runs/refit.sh, i.e.
#     gpuplan calibrate --half fit --bands-all --cross-validate \
#         --label "published runs, ..." tests/data/runs/*.yaml -o DIR
# against the catalog without this file.  Loaded after frameworks.yaml (file
# name order), so its rows override those field by field.  Regenerate it
# whenever a model mechanism changes; tests/test_validation.c reports the
# held-out half.  The fitted rows see only the fit half (their
# cross_validated_residual: their runs' error when a calibration on the
# held-out half predicts them); the error_bands rows span the model's
# residuals on every run of the set (both halves), as fitted and as left
# out.
HDR
    cat "$tmp/out/calibrated.yaml"
} >"$src/data/catalog/validation-fit.yaml"
