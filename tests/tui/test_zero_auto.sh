#!/bin/sh
# Screen test (issue 11, framework defaults): a plan that names its
# framework but not its ZeRO stage is sized as the framework shards.
#  - framework fsdp, zero left out: the Sizing pane's layout says ZeRO-3
#    (PyTorch FSDP's FULL_SHARD, frameworks.yaml dp_sharding) and the
#    workloads form shows zero as auto;
#  - zero 1 keeps the whole weights and gradients on every GPU: ZeRO-1 and
#    more memory per GPU;
#  - zero auto again: back to ZeRO-3 and the memory it had.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 8

cat > "$TUI_TMP/fsdp.yaml" <<'YAML'
name: fsdp-8b
accelerator: H100-SXM
workloads:
  - {name: pretrain-8b, kind: training, framework: fsdp, precision: bf16,
     model: {preset: llama-3-8b}, seq_len: 2048, global_batch: 256, micro_batch: 2,
     tokens: 100B, gpus: 64, parallel: {tp: 1, pp: 1, cp: 1}}
YAML

mem() { tui_screen | sed -n 's/.*memory\/GPU.*│ \([0-9.]*\) GiB.*/\1/p' | head -1; }

tui_start 120 40 "$TUI_TMP/fsdp.yaml"
tui_wait 'pretrain-8b' && tui_idle
tui_wait 'recompute none, sp off, ZeRO-3'; ok $? "fsdp without zero is sized as ZeRO-3"
tui_screen | grep -q 'zero  *auto'; ok $? "the form shows zero as auto"
auto=$(mem)

tui_cmd 'set zero 1'
tui_idle
tui_wait 'sp off, ZeRO-1'; ok $? "zero 1 is sized as ZeRO-1"
one=$(mem)
awk -v a="$auto" -v b="$one" 'BEGIN { exit !(a > 0 && b > a + 20) }'
ok $? "with more memory per GPU ($one GiB against $auto)"

tui_cmd 'set zero auto'
tui_idle
tui_wait 'sp off, ZeRO-3'; ok $? "zero auto is ZeRO-3 again"
[ "$(mem)" = "$auto" ]; ok $? "with the memory it had"

tui_keys Escape ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null; ok $? "quits"
tui_check_stderr
exit $tap_failed
