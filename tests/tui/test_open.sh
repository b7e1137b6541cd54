#!/bin/sh
# Screen test: `gpuplan` on a fresh store opens the seeded demo plans, shows
# the chrome (header, tabs, footer keys), a result, and the generated help.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 8

# the seeded plans are the data folder's examples: which one is newest
# depends on the clock ticking during the seeding (tiresias-replay, last by
# name, under the sanitizers), so any of them is right
seeded=$(ls "${GPUPLAN_DATADIR:-data}"/examples/*.yaml | sed 's|.*/||; s|\.yaml$||' | paste -sd'|' -)
tui_start 120 40
tui_wait "gpuplan .* ($seeded) v1" ; ok $? "a new store opens one of the seeded demo plans ($seeded)"
tui_open_plan frontier-2027
tui_wait 'F1 Help F2 Save F3 Plans F4 Compare F5 Export'; ok $? "footer lists the keys of the focused pane"
tui_wait '1 Sizing +2 Topology +3 Power +4 Cost +5 Schedule'; ok $? "tabs are shown at 120 columns"
tui_wait 'chat-70b +infer' && tui_idle; ok $? "the Sizing pane shows a computed result per workload"
tui_keys F1
tui_wait 'save the plan as a new version'; ok $? "F1 shows help generated from the key table"
tui_keys q
tui_wait_gone 'save the plan as a new version'; ok $? "q closes the help"
tui_keys q
st=$(tui_wait_exit)
[ "$st" = 0 ]; ok $? "q quits with status 0 when nothing changed"
tui_check_stderr
exit $tap_failed
