#!/bin/sh
# Screen test (session 37, catalog aliases): a part named by another name
# its catalog row gives is the part itself, on screen as in the plan.
#  - a plan file saying `accelerator: ironwood` opens sized on TPU7x;
#  - `:set accelerator trillium` moves it to TPU-v6e, and the status line
#    says the id it stored, not the word typed;
#  - a name no row gives is refused with the catalog's error, the plan
#    unchanged.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 7

cat > "$TUI_TMP/aliased.yaml" <<'YAML'
name: aliased
accelerator: ironwood
workloads:
  - {name: pretrain-70b, kind: training, framework: maxtext, precision: bf16,
     model: {preset: llama-3-70b}, seq_len: 8192, global_batch: 256, tokens: 1T, gpus: 64}
YAML

tui_start 120 40 "$TUI_TMP/aliased.yaml"
tui_wait 'pretrain-70b' && tui_idle
tui_wait 'train TPU7x'; ok $? "accelerator: ironwood is sized on TPU7x"

tui_cmd 'set accelerator trillium'
tui_idle
tui_wait 'accelerator = TPU-v6e'; ok $? "the status line names the id it stored"
tui_wait 'train TPU-v6e'; ok $? "and the workload is sized on TPU-v6e"

tui_cmd 'set accelerator tpu-v9'
tui_idle
tui_wait "'tpu-v9' is not an accelerator of the catalog"; ok $? "an unknown name is refused"
tui_screen | grep -q 'train TPU-v6e'; ok $? "the plan unchanged"

tui_keys Escape ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null; ok $? "quits"
tui_check_stderr
exit $tap_failed
