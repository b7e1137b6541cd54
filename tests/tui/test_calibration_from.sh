#!/bin/sh
# Screen test (issue 11, calibration_from): the bundled frontier-2027 plan
# trains on H100 with the default framework (megatron, Megatron-LM's own
# defaults).  Its explanation says that the H100 multipliers it runs on are
# those fitted for nemo (the same Megatron-Core), not its own runs, and
# names the framework's overlaps; keyed nemo, the run speeds up (the
# recipes' TP overlap) and the explanation names nemo's own calibration and
# what it is worth cross-validated.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 5

tui_start 120 40 frontier-2027
tui_open_plan frontier-2027
tui_wait 'pretrain-405b' && tui_idle

tui_explain 'pretrain-405b days'
tui_wait 'takes its calibration' && tui_wait 'calibration_from'
ok $? "the default framework's H100 calibration is nemo's, and says so"
tui_wait 'megatron: TP comm 0%'; ok $? "with megatron's own overlaps (TP not overlapped)"
tui_keys q
tui_wait_gone 'takes its calibration'

tui_keys ':'; tui_type 'set pretrain-405b.framework nemo'; tui_keys Enter
tui_wait 'framework = nemo' && tui_idle
tui_explain 'pretrain-405b days'
# (at 120 columns the profile's id wraps onto the next line)
tui_wait 'nemo: TP comm 80%' &&
    tui_wait 'calibrated on [0-9]+ published runs, the fit half of gpuplan.s validation set, residual [0-9.]+%, cross-validated [0-9.]+%' &&
    tui_wait '\(nemo@H100-SXM\)'
ok $? "keyed nemo: the recipes' TP overlap and nemo's own H100 calibration"
tui_keys q

tui_keys ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null; ok $? "quits"
tui_check_stderr
exit $tap_failed
