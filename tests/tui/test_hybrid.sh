#!/bin/sh
# Screen test (issue 11, hybrid Mamba-2 stacks): a planning meeting turns a
# workload into Nemotron 3 Nano and edits its layer pattern.
#  - `:set pretrain-405b.model.preset nemotron-3-nano` sizes the hybrid run.
#  - A pattern symbol the model does not price ('G', gated DeltaNet) is
#    refused with the parser's message, and the plan keeps its pattern.
#  - A new pattern sets layers to its length, with a note, and is sized.
#  - The serving workload shows the Mamba-2 state per sequence.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 8

tui_start 120 40 frontier-2027
tui_open_plan frontier-2027
tui_wait 'pretrain-405b' && tui_idle

tui_cmd 'set pretrain-405b.model.preset nemotron-3-nano'
tui_wait 'model.preset = nemotron-3-nano'; ok $? "the preset is accepted"
tui_idle
tui_wait 'pretrain-405b +train'; ok $? "the hybrid run is sized"

tui_cmd 'set pretrain-405b.model.hybrid MGM*E'
tui_wait 'gated DeltaNet'; ok $? "a gated DeltaNet symbol is refused with the parser's message"
tui_idle

tui_cmd 'set pretrain-405b.model.hybrid MEM*EMEM*EMEM*EMEM*E'
tui_wait 'layers now 20'; ok $? "a new pattern sets layers to its length, with a note"
tui_idle
! tui_screen | grep -q 'invalid'; ok $? "no refusal on screen"

tui_cmd 'set chat-70b.model.preset nemotron-3-nano'
tui_idle
tui_keys Down
tui_wait 'state/sequence'; ok $? "the serving workload shows its Mamba-2 state per sequence"

tui_keys Escape ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null; ok $? "quits"
tui_check_stderr
exit $tap_failed
