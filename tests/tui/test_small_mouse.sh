#!/bin/sh
# Screen test (issue 17 D13): in the "needs at least 80x24" state the
# layout is hidden, so mouse clicks must not act on it — no tab switch, no
# list selection, no field change behind the message.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
TUI_ENV="LC_ALL=C LANG=C GPUPLAN_ASCII=1"
tap_plan 4

tui_start 120 40
tui_open_plan frontier-2027
# all but the header (its TCO gains the Monte Carlo P10-P90 whenever the
# background ranges finish), the status and the footer lines
body() { tui_screen | sed '1d' | sed '$d' | sed '$d'; }
set -- $(tui_find '3 Power'); power_x=$1 power_y=$2
set -- $(tui_find 'chat-70b'); row_x=$1 row_y=$2
tui_idle
before=$(body)
tmx resize-window -x 60 -y 20
tui_wait 'needs at least 80x24'; ok $? "a 60x20 terminal shows the size message"
# click where the Power tab and a workload row were, and into the form area
tui_click "$power_x" "$power_y"
tui_click "$row_x" "$row_y"
tui_click 30 10
tui_click 5 5
tui_idle
tmx resize-window -x 120 -y 40
tui_wait '1 Sizing +2 Topology'; ok $? "back at 120x40 the dashboard returns"
tui_idle
! tui_screen | grep -q 'kW per rack against the rack limit'; ok $? "the hidden Power tab was not clicked"
# polled (a deadline): the redraw after the resize may still be arriving
deadline=$(( $(date +%s) + TUI_TIMEOUT ))
until [ "$(body)" = "$before" ] || [ "$(date +%s)" -gt "$deadline" ]; do sleep 0.1; done
[ "$(body)" = "$before" ]; ok $? "the screen is as it was before the clicks"
tui_keys q
tui_wait_exit_discarding >/dev/null
exit $tap_failed
