#!/bin/sh
# Screen test (issue 11, recompute_modules): a planning meeting keys a
# Megatron recipe's selective recompute modules on a training workload.
#  - The modules need recompute: selective: asked first, they are refused
#    with the plan's message and the plan keeps its recompute.
#  - With selective, a recipe's list is accepted, the run is sized and
#    the Sizing pane's layout line names the modules.
#  - An unknown module name is refused with the list of the known ones.
#  - Saved, the plan writes the list back as a YAML list.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 9

tui_start 120 40 frontier-2027
tui_open_plan frontier-2027
tui_wait 'pretrain-405b' && tui_idle

tui_cmd 'set pretrain-405b.recompute full'
tui_idle
tui_cmd 'set pretrain-405b.recompute_modules core_attn,mlp'
tui_wait 'needs recompute: selective'; ok $? "modules without selective recompute are refused"
tui_idle

tui_cmd 'set pretrain-405b.recompute selective'
tui_idle
tui_cmd 'set pretrain-405b.recompute_modules core_attn, mlp'
tui_wait 'recompute_modules = core_attn, mlp'; ok $? "a recipe's module list is accepted"
tui_idle
tui_wait 'pretrain-405b +train'; ok $? "the run is sized with it"
tui_wait 'recompute selective \(core_attn, mlp\)'; ok $? "the Sizing pane's layout names the modules"

tui_cmd 'set pretrain-405b.recompute_modules core_attn,attn'
tui_wait "'attn' is not a module"; ok $? "an unknown module is refused, naming it"
tui_idle

tui_cmd 'w'
tui_wait 'frontier-2027 v2'; tui_idle
"$GPUPLAN_BIN" --db "$TUI_DB" show frontier-2027 > "$TUI_TMP/rm.yaml" 2>/dev/null
grep -q 'recompute_modules: \[core_attn, mlp\]' "$TUI_TMP/rm.yaml"; ok $? "the saved plan lists the modules"
"$GPUPLAN_BIN" --db "$TUI_DB" eval frontier-2027 >/dev/null 2>&1; ok $? "the saved plan evaluates"

tui_keys Escape ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null; ok $? "quits"
tui_check_stderr
exit $tap_failed
