#!/bin/sh
# Screen test (session 19, the MoE dispatcher line): the bundled moe-gb200
# plan trains a fine-grained MoE over 64-way expert parallelism with the
# framework's all-to-all.  Its explanation says how much lower a
# deduplicating dispatcher would take the step; keyed moe_fused_dispatch,
# the step falls and the line is gone.  Session 20: the same for the launch
# path, full-iteration CUDA graphs (cuda_graph_full), and for the
# all-to-all overlap (ep_overlap), the last line (G scrolls to it).
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 8

tui_start 120 40 moe-gb200
tui_open_plan moe-gb200
tui_wait 'pretrain-v3' && tui_idle

tui_explain 'pretrain-v3 days'
tui_wait 'a deduplicating dispatcher' && tui_wait "take this layout's step [0-9]+% lower"
ok $? "the explanation says what a deduplicating dispatcher would save"
tui_wait 'replayed as' && tui_wait "full-iteration CUDA graphs .cuda_graph_full: true. this layout's step would be [0-9]+% lower"
ok $? "and what full-iteration CUDA graphs would save"
tui_keys G
tui_wait "Megatron-Core's combined 1F1B. this layout's step would be [0-9]+% lower"
ok $? "and what hiding the all-to-alls under another micro-batch would save"
tui_keys q
tui_wait_gone 'a deduplicating dispatcher'

tui_keys ':'; tui_type 'set pretrain-v3.moe_fused_dispatch true'; tui_keys Enter
tui_wait 'moe_fused_dispatch = true' && tui_idle
ok $? "the dispatcher is a plan key the dashboard sets"
tui_explain 'pretrain-v3 days'
tui_wait 'fused with the token permutation' && ! tui_screen | grep -q 'a deduplicating dispatcher'
ok $? "keyed: the plan's fused dispatch is stated and the hint is gone"
tui_keys q

tui_keys ':'; tui_type 'set pretrain-v3.cuda_graph_full true'; tui_keys Enter
tui_wait 'cuda_graph_full = true' && tui_idle
tui_explain 'pretrain-v3 days'
tui_wait 'whole forward-backward replayed as CUDA graphs .plan.' && ! tui_screen | grep -q 'full-iteration CUDA graphs (cuda_graph_full: true)'
ok $? "keyed: the plan's graphs are stated and their hint is gone"
tui_keys q

tui_keys ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null; ok $? "quits"
tui_check_stderr
exit $tap_failed
