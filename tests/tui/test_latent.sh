#!/bin/sh
# Screen test (issue 11, LatentMoE): a planning meeting turns the 405B
# pre-training workload into Nemotron 3 Super (LatentMoE experts, MTP
# blocks on a hybrid pattern) and edits the latent width.
#  - `:set pretrain-405b.model.preset nemotron-3-super` sizes the run.
#  - A latent wider than the model is refused with the parser's message and
#    the plan keeps its width.
#  - A new width is set, the run re-sized, and the form row shows it.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 7

tui_start 120 40 frontier-2027
tui_open_plan frontier-2027
tui_wait 'pretrain-405b' && tui_idle

tui_cmd 'set pretrain-405b.model.preset nemotron-3-super'
tui_wait 'model.preset = nemotron-3-super'; ok $? "the preset is accepted"
tui_idle
tui_wait 'pretrain-405b +train'; ok $? "the LatentMoE run is sized"

tui_cmd 'set pretrain-405b.model.moe_latent 8192'
tui_wait 'moe_latent must be between 0 .no latent projection. and hidden .4096., got 8192'
ok $? "a latent wider than the model is refused with the parser's message"
tui_idle

tui_cmd 'set pretrain-405b.model.moe_latent 2048'
tui_wait 'model.moe_latent = 2048'; ok $? "a new latent width is accepted"
tui_idle
! tui_screen | grep -q 'invalid'; ok $? "no refusal on screen"

tui_keys Escape ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null; ok $? "quits"
tui_check_stderr
exit $tap_failed
