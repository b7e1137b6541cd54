#!/bin/sh
# Screen test (issue 11, framework defaults): where no layout fits with the
# framework's default sharding, a framework that can shard further over
# data parallel (frameworks.yaml dp_sharding_fallback) does, instead of
# answering that nothing fits.
#  - Megatron-Bridge's Llama 3 70B FP8 recipe as its table prints it: 64
#    GB200 at TP1 PP1, micro-batch 2, zero and offload left auto: the
#    Sizing pane's layout line says ZeRO-3 and offload, each chosen by
#    the search;
#  - zero 1 (the plan's own, nemo's default): no layout fits.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 6

cat > "$TUI_TMP/gb200.yaml" <<'YAML'
name: gb200-70b
accelerator: GB200
workloads:
  - {name: llama3-70b, kind: training, framework: nemo, precision: fp8,
     model: {preset: llama-3-70b}, seq_len: 8192, global_batch: 256, micro_batch: 2,
     tokens: 1T, gpus: 64, parallel: {tp: 1, pp: 1, cp: 1}}
YAML

tui_start 120 40 "$TUI_TMP/gb200.yaml"
tui_wait 'llama3-70b' && tui_idle
tui_wait 'ZeRO-3 .searched.'; ok $? "the search shards fully, and says it chose to"
tui_screen | grep -q 'ZeRO-3 (searched), offload 40 layers'; ok $? "and offloads 40 layers a stage"

tui_cmd 'set zero 1'
tui_idle
tui_wait 'no layout fits'; ok $? "the plan's own ZeRO-1: no layout fits"
! tui_screen | grep -q 'ZeRO-3 (searched)'; ok $? "the search's note is gone"

tui_keys Escape ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null; ok $? "quits"
tui_check_stderr
exit $tap_failed
