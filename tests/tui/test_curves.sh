#!/bin/sh
# Screen test (issue 15, "curves with axes in the terminal"), at 80x24 and
# 160x45 on frontier-2027.  Before, a service's Sizing pane had no curve
# and the GPUs-vs-days chart had no axis; now:
#  - a service shows replicas vs TPOT: one bar per replica count, the TPOT
#    target drawn through the bars, the chosen count marked "plan", counts
#    that miss the target or cannot carry the rate named, a TPOT axis;
#  - the training run shows GPUs vs days with a days axis;
#  - a service that misses its TPOT target names the binding target and
#    the fix beside its result;
#  - the Schedule pane's utilisation and queue sparklines have a time axis.
# The pane is zoomed (z) and paged until the chart is on screen.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 20

page_to() { tui_scroll_to NPage 8 "$1"; }
line_to() { tui_scroll_to Down 14 "$1"; }

# the replica count the sizing chooses for chat-70b (the model is refitted
# by others: read it from `gpuplan eval`, do not pin it)
reps=$("$GPUPLAN_BIN" --db "$TUI_TMP/cli.db" eval "${GPUPLAN_DATADIR:-data}/examples/frontier-2027.yaml" |
    sed -n 's/.*layout *tp[0-9]* x \([0-9]*\) replicas.*/\1/p' | head -n 1)

for size in "80 24" "160 45"; do
    # shellcheck disable=SC2086
    set -- $size
    tag="${1}x${2}"
    tui_start "$1" "$2" frontier-2027
    tui_open_plan frontier-2027

    # the training run (selected first): GPUs vs days with its axis
    tui_keys z
    tui_wait 'zoomed: z restores'
    page_to 'GPUs vs days' && line_to ' d days$' && tui_wait 'GPUs vs days' && tui_wait '16,384 .*[0-9.]+ d +plan'
    ok $? "$tag: training: GPUs vs days, the plan's count marked, a days axis"
    tui_keys z
    tui_wait 'zoom off'

    # the service: replicas vs TPOT
    tui_wait 'WORKLOADS'
    tui_retry "tui_click_text 'chat-70b '" '▶ chat-70b' && tui_idle
    tui_keys z
    tui_wait 'zoomed: z restores'
    page_to 'replicas vs TPOT: tp[0-9]+ replicas sharing 40 req/s' && line_to ' ms TPOT$' &&
        tui_wait 'replicas vs TPOT' && [ -n "$reps" ] &&
        tui_wait "^ +$reps [█#]+.* [0-9.]+ ms +plan"
    ok $? "$tag: service: replicas vs TPOT with the chosen $reps replicas marked"
    tui_wait ' [0-9]+ [█#]+[│|][█#]+ +[0-9.]+ ms +misses'
    ok $? "$tag: fewer replicas cross the 40 ms target line and are named as misses"
    tui_wait 'saturated: [0-9]+ replicas cannot carry 40 req/s'
    ok $? "$tag: a count that cannot carry the rate is named, not drawn"
    tui_wait '0 ms .* ms TPOT'
    ok $? "$tag: the TPOT axis under the bars"
    tui_keys z
    tui_wait 'zoom off'

    # a TPOT target no layout reaches: what binds it and the fix, next to
    # the result (and in `w`)
    tui_keys ':'; tui_type 'set chat-70b.tpot_ms 5'; tui_keys Enter
    tui_wait 'tpot_ms = 5' && tui_idle; tui_keys Home
    tui_wait 'chat-70b .*misses SLO' && tui_wait 'TPOT target 5 ms is below the [0-9.]+ ms'
    ok $? "$tag: a service's binding target is shown next to its result"
    tui_wait 'raise tpot_ms to [0-9.]+'
    ok $? "$tag: with the fix (the target it was sized for)"

    # the schedule's sparklines: a time axis
    tui_keys 5
    tui_keys z
    tui_wait 'utilisation +[▁▂▃▄▅▆▇█_.:-]+' && tui_wait 'time \(simulated\)' &&
        tui_wait ' 0 +.*d +[0-9]+ d'
    ok $? "$tag: utilisation and queue sparklines over a time axis"
    # the searched pool is the one the teams' quotas need (704 GPUs; the
    # search answered 680 before session 40) and the pane says so
    tui_wait "recommended pool 704 GPUs \\(the teams' quotas\\)"
    ok $? "$tag: the recommended pool says it is the teams' quotas"

    tui_keys z
    tui_keys ':'; tui_type 'q!'; tui_keys Enter
    tui_wait_exit 30 >/dev/null
    tui_check_stderr
done
exit $tap_failed
