#!/bin/sh
# Screen test: F4 compares the plan being edited with another saved plan:
# every headline number side by side with delta and percent.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 8

tui_start 120 40
tui_open_plan frontier-2027
tui_keys F4
tui_wait 'COMPARE +A: frontier-2027 \(current\)' 10; ok $? "F4 opens compare with the current plan as A"
tui_keys b
tui_wait 'Compare: plan B' 5; ok $? "b opens a pick list of plans and versions"
tui_type 'startup'
tui_keys Enter
tui_wait 'B: startup-h200 v1' 10; ok $? "the picked plan becomes B"
tui_wait 'metric +A +B +delta +%' 30; ok $? "the headline table has A, B, delta and %"
tui_wait '(Cheapest TCO|Pool GPUs|GPUs).*[-+][0-9.]+%' 30; ok $? "rows show a signed percent change"
tui_keys F5
tui_wait 'Export the comparison as' 5 && ! tui_screen | grep -q 'slurm'; ok $? "F5 while comparing offers the comparison formats"
tui_type 'csv'; tui_keys Enter
tui_wait "wrote $TUI_TMP/frontier-2027-vs-startup-h200.csv" 10 && [ -s "$TUI_TMP/frontier-2027-vs-startup-h200.csv" ]
ok $? "the comparison is written to a file in the current directory"
tui_keys q q
tui_wait_exit 10 >/dev/null || { tui_keys n; tui_wait_exit 10 >/dev/null; }
tui_check_stderr
exit $tap_failed
