#!/bin/sh
# Screen test: quitting with unsaved changes asks; c cancels, n quits
# without saving (the store keeps one version).
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 13

tui_start 120 40
tui_open_plan frontier-2027
tui_keys ':'; tui_type 'set horizon_years 5'; tui_keys Enter
tui_wait 'modified'
tui_keys q
tui_wait 'Unsaved changes to frontier-2027'; ok $? "q with unsaved changes asks"
tui_keys c
tui_wait 'quit cancelled'; ok $? "c cancels the quit"
[ ! -s "$TUI_TMP/status" ]; ok $? "the program is still running"
tui_keys q
tui_wait 'Unsaved changes'
tui_keys n
st=$(tui_wait_exit)
[ "$st" = 0 ]; ok $? "n quits without saving, status 0"
"$GPUPLAN_BIN" --db "$TUI_DB" list 2>/dev/null | grep -Eq '^frontier-2027 +1 '
ok $? "nothing was saved"
tui_check_stderr
tui_stop

# y saves (asking for the note) and then quits
tui_start 120 40
tui_open_plan frontier-2027
tui_keys ':'; tui_type 'set horizon_years 5'; tui_keys Enter
tui_wait 'modified'
tui_keys q
tui_wait 'Unsaved changes'
tui_keys y
tui_wait 'Save frontier-2027 v2, note:'; ok $? "y asks for the note of the save"
tui_type 'five years'; tui_keys Enter
st=$(tui_wait_exit)
[ "$st" = 0 ]; ok $? "the program quits after saving"
"$GPUPLAN_BIN" --db "$TUI_DB" list 2>/dev/null | grep -Eq '^frontier-2027 +2 .*five years'
ok $? "the save happened before the quit"
tui_stop

# undoing every edit, or setting a value back, leaves nothing to save
tui_start 120 40
tui_open_plan frontier-2027
tui_keys ':'; tui_type 'set horizon_years 7'; tui_keys Enter
tui_wait 'v2 ● modified'
tui_keys ':'; tui_type 'set site.pue 1.5'; tui_keys Enter
tui_wait 'site.pue = 1.5'
tui_keys u; tui_wait 'undone: site.pue = 1.5'
tui_keys u; tui_wait 'undone: horizon_years'
tui_wait_gone 'modified'; ok $? "undoing every edit clears the modified marker"
tui_keys C-r; tui_wait 'modified'
tui_keys ':'; tui_type 'set horizon_years 5'; tui_keys Enter
tui_wait_gone 'modified'; ok $? "setting the value back clears it too"
tui_keys q
st=$(tui_wait_exit)
[ "$st" = 0 ]; ok $? "q then quits without asking"
"$GPUPLAN_BIN" --db "$TUI_DB" list 2>/dev/null | grep -Eq '^frontier-2027 +2 '
ok $? "and nothing more was saved"
exit $tap_failed
