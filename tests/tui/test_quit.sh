#!/bin/sh
# Screen test: quitting with unsaved changes asks; c cancels, n quits
# without saving (the store keeps one version).
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 9

tui_start 120 40
tui_open_plan frontier-2027
tui_keys ':'; tui_type 'set horizon_years 5'; tui_keys Enter
tui_wait 'modified' 5
tui_keys q
tui_wait 'Unsaved changes to frontier-2027' 5; ok $? "q with unsaved changes asks"
tui_keys c
tui_wait 'quit cancelled' 5; ok $? "c cancels the quit"
[ ! -s "$TUI_TMP/status" ]; ok $? "the program is still running"
tui_keys q
tui_wait 'Unsaved changes' 5
tui_keys n
st=$(tui_wait_exit 10)
[ "$st" = 0 ]; ok $? "n quits without saving, status 0"
"$GPUPLAN_BIN" --db "$TUI_DB" list 2>/dev/null | grep -Eq '^frontier-2027 +1 '
ok $? "nothing was saved"
tui_check_stderr
tui_stop

# y saves (asking for the note) and then quits
tui_start 120 40
tui_open_plan frontier-2027
tui_keys ':'; tui_type 'set horizon_years 5'; tui_keys Enter
tui_wait 'modified' 5
tui_keys q
tui_wait 'Unsaved changes' 5
tui_keys y
tui_wait 'Save frontier-2027 v2, note:' 5; ok $? "y asks for the note of the save"
tui_type 'five years'; tui_keys Enter
st=$(tui_wait_exit 10)
[ "$st" = 0 ]; ok $? "the program quits after saving"
"$GPUPLAN_BIN" --db "$TUI_DB" list 2>/dev/null | grep -Eq '^frontier-2027 +2 .*five years'
ok $? "the save happened before the quit"
exit $tap_failed
