#!/bin/sh
# Screen test: F5 exports the plan to a file in the current directory and
# says where; :export picks the format by name.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 5

tui_start 120 40
tui_open_plan frontier-2027
tui_keys F5
tui_wait 'Export the plan as' 5; ok $? "F5 asks for a format"
tui_type 'md'; tui_keys Enter
tui_wait "wrote $TUI_TMP/frontier-2027.md" 10; ok $? "the status line says where the file went"
[ -s "$TUI_TMP/frontier-2027.md" ] && grep -q 'frontier-2027' "$TUI_TMP/frontier-2027.md"; ok $? "the Markdown file holds the plan"
tui_keys ':'; tui_type 'export json'; tui_keys Enter
tui_wait "wrote $TUI_TMP/frontier-2027.json" 10 && grep -q '"plan"' "$TUI_TMP/frontier-2027.json"
ok $? ":export json writes the eval JSON"
tui_keys q
tui_wait_exit 10 >/dev/null
tui_check_stderr
exit $tap_failed
