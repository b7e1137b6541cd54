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
tui_retry "tui_click_text '3 Power'" 'kW per rack against the rack limit'
ok $? "clicking a tab shows its pane"
tui_retry "tui_click_text chat-70b" 'chat-70b +\(inference\)'
ok $? "clicking a list row selects it"
tui_retry "tui_click_text '4 Cost'" 'cheapest first' && tui_wait ': capex ' && tui_idle
detail() { tui_screen | grep -E ': capex ' | sed 's/: capex.*//'; }
first=$(detail)
# One wheel notch, found afresh and sent again each second until the
# selection moves: on a loaded machine (CI runs the screen tests beside a
# build) a notch that lands while the pane is being redrawn can be lost.  A
# wheel that scrolls nothing still fails after TUI_TIMEOUT.
deadline=$(( $(date +%s) + TUI_TIMEOUT ))
while [ "$(detail)" = "$first" ] && [ "$(date +%s)" -le "$deadline" ]; do
    set -- $(tui_find 'cheapest first')
    if [ -n "$1" ]; then tui_mouse 65 "$1" $(( $2 + 3 )); else tui_click_text '4 Cost'; fi
    again=$(( $(date +%s) + 1 ))
    while [ "$(detail)" = "$first" ] && [ "$(date +%s)" -le "$again" ]; do sleep 0.05; done
done
[ -n "$first" ] && [ "$(detail)" != "$first" ]
ok $? "the wheel scrolls the option table"
tui_keys q
st=$(tui_wait_exit)
[ "$st" = 0 ]; ok $? "quits after mouse use"
tui_check_stderr
exit $tap_failed
