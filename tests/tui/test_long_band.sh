#!/bin/sh
# Screen test (issue 11, error bands): a planning meeting stretches a run's
# sequence and the Sizing pane says why its band moved.
#  - At 8K tokens Llama 3 8B's step is GEMM-bound: its class's band, no
#    mark.
#  - At 64K its attention core is most of the model FLOPs: the band is the
#    class's long-sequence one (`<class>/long`, catalog error_bands), marked
#    "long-seq" beside the days.
#  - Back at 8K the mark goes.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 6

cat > "$TUI_TMP/long.yaml" <<'YAML'
name: long-context-8b
accelerator: H100-SXM
workloads:
  - {name: pretrain-8b, kind: training, framework: nemo, precision: fp8,
     model: {preset: llama-3-8b}, seq_len: 8192, global_batch: 64, tokens: 100B, gpus: 64}
YAML

tui_start 120 40 "$TUI_TMP/long.yaml"
tui_wait 'pretrain-8b' && tui_idle
tui_wait ' d [-+][0-9]+/[-+][0-9]+%'; ok $? "at 8K the run carries its class's band"
! tui_screen | grep -q 'long-seq'; ok $? "with no long-sequence mark"

tui_cmd 'set seq_len 65536'
tui_idle
tui_wait ' d [-+][0-9]+/[-+][0-9]+% long-seq'; ok $? "at 64K the band is the long-sequence one, marked"

tui_cmd 'set seq_len 8192'
tui_idle
tui_wait_gone 'long-seq'; ok $? "back at 8K the mark goes"

tui_keys Escape ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null; ok $? "quits"
tui_check_stderr
exit $tap_failed
