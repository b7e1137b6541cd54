#!/bin/sh
# Screen test: F4 compares the plan being edited with another saved plan:
# every headline number side by side with delta and percent.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
CLIP="$TUI_TMP/clip.log"
TUI_ENV="GPUPLAN_TUI_CLIPLOG='$CLIP'"
trap tui_cleanup EXIT
tap_plan 11

tui_start 120 40
tui_open_plan frontier-2027
tui_keys F4
tui_wait 'COMPARE +A: frontier-2027 v1 \(current\)'; ok $? "F4 opens compare with the current plan as A"
tui_keys b
tui_wait 'Compare: plan B'; ok $? "b opens a pick list of plans and versions"
tui_type 'startup'
tui_keys Enter
tui_wait 'B: startup-h200 v1'; ok $? "the picked plan becomes B"
tui_wait 'metric +A +B +delta +%' 30; ok $? "the headline table has A, B, delta and %"
tui_wait '(Cheapest TCO|Pool GPUs|GPUs).*[-+][0-9.]+%' 30; ok $? "rows show a signed percent change"
tui_wait 'MFU +[0-9.]+% '; ok $? "a unitless fraction (MFU) reads as a percentage"
tui_screen | grep -E '^ +(Nodes|Racks|GPUs) ' | grep -Eq '(^|[^0-9,])[0-9]{4,}([^0-9,]|$)'
[ $? -ne 0 ]; ok $? "counts from 1,000 up have thousands separators in every column"
tmx resize-window -x 80 -y 24
tui_wait 'metric +A +B' && tui_wait 'MFU'
! [ -s "$CLIP" ]; ok $? "no value is cut at 120 or 80 columns"
if [ -s "$CLIP" ]; then sort -u "$CLIP" | head -n 10 | sed 's/^/# /'; fi
tmx resize-window -x 120 -y 40
tui_wait 'metric +A +B +delta'
tui_keys F5
tui_wait 'Export the comparison as' && ! tui_screen | grep -q 'slurm'; ok $? "F5 while comparing offers the comparison formats"
tui_type 'csv'; tui_keys Enter
tui_wait 'Export to: .*frontier-2027-vs-startup-h200-[0-9-]+.csv' && tui_keys C-u &&
    tui_type "$TUI_TMP/cmp.csv" && tui_keys Enter
tui_wait "wrote $TUI_TMP/cmp.csv" && [ -s "$TUI_TMP/cmp.csv" ]
ok $? "the comparison is written to the path given in the export dialog"
tui_keys q q
tui_wait_exit_discarding >/dev/null
tui_check_stderr
exit $tap_failed
