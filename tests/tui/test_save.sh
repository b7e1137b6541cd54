#!/bin/sh
# Screen test: F2 saves a new version with a note; the store (seen through
# `gpuplan list`, another process) and the plan browser both show it.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 7

tui_start 120 40
tui_open_plan frontier-2027
tui_keys ':'; tui_type 'set site.pue 1.15'; tui_keys Enter
tui_wait 'site.pue = 1.15'; ok $? ":set edits a plan-level field"
tui_keys F2
tui_wait 'Save frontier-2027 v2, note:'; ok $? "F2 asks for a note"
tui_type 'better cooling'
tui_keys Enter
tui_wait 'saved frontier-2027 v2: better cooling'; ok $? "the save is confirmed on the status line"
tui_wait 'frontier-2027 v2' && ! tui_screen | grep -q 'modified'; ok $? "the header shows v2 and no longer modified"
"$GPUPLAN_BIN" --db "$TUI_DB" list 2>/dev/null | grep -Eq '^frontier-2027 +2 .*better cooling'
ok $? "gpuplan list sees 2 versions with the note"
tui_keys F3
tui_wait 'frontier-2027 +2 '; ok $? "the plan browser lists the new version"
tui_keys Escape q
tui_wait_exit_discarding >/dev/null
tui_check_stderr
exit $tap_failed
