#!/bin/sh
# Screen test: the mouse clicks tabs and list rows; the wheel scrolls.
# (The test types plain-ASCII screens: column = character index.)
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
TUI_ENV="LC_ALL=C LANG=C GPUPLAN_ASCII=1"
tap_plan 5

tui_start 120 40
tui_open_plan frontier-2027
set -- $(tui_find '3 Power')
tui_click "$1" "$2"
tui_wait 'kW per rack against the rack limit'; ok $? "clicking a tab shows its pane"
set -- $(tui_find 'chat-70b')
tui_click "$1" "$2"
tui_wait 'chat-70b +\(inference\)'; ok $? "clicking a list row selects it"
set -- $(tui_find '4 Cost')
tui_click "$1" "$2"
tui_wait 'cheapest first' && tui_wait ': capex ' && tui_idle
detail() { tui_screen | grep -E ': capex ' | sed 's/: capex.*//'; }
first=$(detail)
set -- $(tui_find 'cheapest first')
tui_mouse 65 "$1" $(( $2 + 3 ))
deadline=$(( $(date +%s) + TUI_TIMEOUT ))
while [ "$(detail)" = "$first" ] && [ "$(date +%s)" -le "$deadline" ]; do sleep 0.05; done
[ -n "$first" ] && [ "$(detail)" != "$first" ]
ok $? "the wheel scrolls the option table"
tui_keys q
st=$(tui_wait_exit)
[ "$st" = 0 ]; ok $? "quits after mouse use"
tui_check_stderr
exit $tap_failed
