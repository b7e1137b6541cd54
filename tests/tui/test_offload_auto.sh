#!/bin/sh
# Screen test (issue 11, framework defaults): where no layout fits on the
# accelerator, a framework that can keep activations in host memory
# (frameworks.yaml activation_offload) offloads some instead of answering
# that nothing fits.
#  - MaxText's Llama 3.1 8B on 8 TPU v6e at 3 sequences a chip, no
#    offload_layers: the Sizing pane's layout line says how many layers a
#    stage offloads and that the search chose them, the form shows
#    offload as auto;
#  - offload_layers 32 (every layer, as the recipe runs): the plan's own,
#    said without the note;
#  - framework torchtitan-compile, which cannot offload: the pane says no
#    layout fits.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 7

cat > "$TUI_TMP/v6e.yaml" <<'YAML'
name: v6e-8b
accelerator: TPU-v6e
workloads:
  - {name: maxtext-8b, kind: training, framework: maxtext, precision: bf16,
     model: {preset: llama-3-8b}, seq_len: 8192, global_batch: 24, micro_batch: 3,
     tokens: 1T, gpus: 8, parallel: {tp: 1, pp: 1, cp: 1}}
YAML

tui_start 120 40 "$TUI_TMP/v6e.yaml"
tui_wait 'maxtext-8b' && tui_idle
tui_wait 'ZeRO-3, offload 16 layers .searched.'; ok $? "the search offloads 16 layers a stage, and says it chose them"
tui_screen | grep -q 'offload  *auto'; ok $? "the form shows offload as auto"

tui_cmd 'set offload_layers 32'
tui_idle
tui_wait 'ZeRO-3, offload 32 layers'; ok $? "offload_layers 32 is the plan's"
! tui_screen | grep -q 'layers (searched)'; ok $? "said without the search's note"

tui_cmd 'set offload_layers 0'
tui_idle
tui_cmd 'set framework torchtitan-compile'
tui_idle
tui_wait 'no layout fits'; ok $? "a framework that cannot offload: no layout fits"

tui_keys Escape ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null; ok $? "quits"
tui_check_stderr
exit $tap_failed
