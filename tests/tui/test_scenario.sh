#!/bin/sh
# Screen test: live scenarios and the sensitivity pane (issue 14).  `:fork
# h200` forks the working copy into scenario B; switching B's training run
# to H200 shows A | B | delta live; the Sensitivity tab names the
# assumptions that flip the build-vs-buy verdict and the Monte Carlo
# P10/P50/P90; the header carries the TCO's P10-P90.  At 160x45 and 80x24.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 14
# the sensitivity and 1,000-sample Monte Carlo run in the background; under
# the sanitizers they take several times longer
SLOW=${TUI_SLOW:-120}

tui_start 160 45
tui_open_plan frontier-2027
tui_keys 6
tui_wait 'Verdict: on-prem \(cloud rival' "$SLOW"; ok $? "the Sensitivity tab shows the verdict and its cloud rival"
tui_wait 'cloud wins if .* > [0-9]'; ok $? "it says in words which assumptions flip the verdict and where"
tui_wait 'TCO \$[0-9.]+[MB] / \$[0-9.]+[MB] / \$[0-9.]+[MB] \(point \$'
ok $? "Monte Carlo P10 / P50 / P90 of the TCO beside the point estimate"
tui_wait 'P10-P90 \$[0-9.]+[MB]-\$[0-9.]+[MB]'; ok $? "the header carries the TCO's P10-P90"
# an export while the ranges are of the plan as shown carries them
tui_keys ':'; tui_type "export md $TUI_TMP/ranges.md"; tui_keys Enter
tui_wait "wrote $TUI_TMP/ranges.md" && grep -q '^## What moves the answer$' "$TUI_TMP/ranges.md" &&
    grep -q '^| utilisation | 0.60x the modelled' "$TUI_TMP/ranges.md"
ok $? ":export md carries What moves the answer once the ranges are current"
tui_keys ':'; tui_type 'fork h200'; tui_keys Enter
tui_wait 'Scenario +A frontier-2027 +B h200 \(editing\) +delta B - A'
ok $? ":fork h200 shows A | B | delta with B being edited"
tui_wait 'gpuplan .* h200 \(unsaved\)'; ok $? "the working copy is now scenario h200, unsaved"
# B's training run on H200: the form's accelerator field (4th row)
tui_keys Tab; tui_keys Down Down Down; tui_keys Enter
tui_wait 'Up/Down choose' && tui_type 'H200' && tui_keys Enter
tui_wait 'days +[0-9.]+ d +[0-9.]+ d +[-+][0-9.]+ d \([-+][0-9]+%\)' "$SLOW"
ok $? "switching B's accelerator changes B's days, delta shown live"
tui_wait 'TCO +\$[0-9.]+B +\$[0-9.]+B +[-+]\$[0-9.]+[MB] \([-+][0-9]+%\)'; ok $? "TCO of A and B with its delta"
tui_keys ':'; tui_type 'scenario swap'; tui_keys Enter
tui_wait 'A frontier-2027 \(editing\)' && tui_wait 'gpuplan .* frontier-2027 v1'
ok $? ":scenario swap edits A, B kept"
tui_keys ':'; tui_type 'scenario b'; tui_keys Enter
tui_wait 'B h200 \(editing\)'
tui_keys ':'; tui_type 'scenario save'; tui_keys Enter
tui_wait 'saved h200 v1'; ok $? ":scenario save stores B as the plan h200"
tmx resize-window -x 80 -y 24
tui_wait 'Scenario +GPUs +days +MW +TCO' && tui_wait 'B h200\* +[0-9,]+ ' && tui_wait 'delta B - A'
ok $? "at 80x24 the strip is compact: one row per side"
tui_keys Escape; tui_keys 6
tui_wait 'cloud wins|holds over' "$SLOW"; ok $? "at 80x24 the sensitivity sentence still shows below the strip"
tui_keys ':'; tui_type 'scenario close'; tui_keys Enter
tui_keys q
tui_wait_exit_discarding >/dev/null
tui_check_stderr
exit $tap_failed
