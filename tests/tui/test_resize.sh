#!/bin/sh
# Screen test: resizing to 80x24 and back redraws without garbage: after
# the resize the screen is identical to a fresh start at that size.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 7

body() { tui_screen | sed '$d' | sed '$d'; }   # all but the status and footer lines

# 120x40 first; the Monte Carlo ranges are in (the header's P10-P90) before
# the resize, so the resized screen is final once drawn
tui_start 120 40
tui_open_plan frontier-2027
tui_wait 'P10-P90' && tui_idle
tmx resize-window -x 80 -y 24
tui_wait '1 Size +2 Topo'; ok $? "80x24 stacks the panes and abbreviates the tabs"
tui_stable
lines=$(tui_screen | wc -l)
[ "$lines" -eq 24 ]; ok $? "the screen has 24 lines"
tui_screen | head -n 1 | grep -Eq '[$][0-9.]+[kMBT]? / [0-9.]+y' && ! tui_screen | grep -q 'Topology'
ok $? "the header keeps the TCO and nothing of the wide layout is left"
body > "$TUI_TMP/resized"
tmx resize-window -x 120 -y 40
tui_wait '1 Sizing +2 Topology'; ok $? "back at 120x40 the full tabs return"
tui_keys q
tui_wait_exit >/dev/null
tui_stop
# a fresh start at 80x24, compared until it has drawn its results (a
# deadline, not a fixed wait: ASan builds are slow)
tui_start 80 24
tui_open_plan frontier-2027
tui_wait '1 Size +2 Topo' && tui_idle
deadline=$(( $(date +%s) + TUI_TIMEOUT ))
until body | cmp -s "$TUI_TMP/resized" - || [ "$(date +%s)" -gt "$deadline" ]; do sleep 0.1; done
body > "$TUI_TMP/fresh"
cmp -s "$TUI_TMP/resized" "$TUI_TMP/fresh"; ok $? "the resized screen equals a fresh start at 80x24"
if ! cmp -s "$TUI_TMP/resized" "$TUI_TMP/fresh"; then
    diff "$TUI_TMP/resized" "$TUI_TMP/fresh" | sed 's/^/# /'
fi
tui_keys q
st=$(tui_wait_exit)
[ "$st" = 0 ]; ok $? "quits cleanly at 80x24"
tui_check_stderr
exit $tap_failed
