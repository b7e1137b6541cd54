#!/bin/sh
# Screen test (issue 15, "curves with axes in the terminal", for the
# disaggregated service), at 80x24 and 160x45 on moe-gb200's v3-chat
# (prefill and decode pools).  Before, a disaggregated service showed no
# curve and never a binding/fix line; now:
#  - the decode pool: GPUs vs TPOT, one bar per pool size, the TPOT target
#    drawn through the bars, the chosen size marked "plan", a TPOT axis;
#  - the prefill pool: GPUs vs TTFT, the same with the TTFT target;
#  - disaggregated on with a TPOT target no decode degree reaches: what
#    binds ("... one decode step takes on ...") and the fix beside the
#    result; the decode curve shows pool sizes that miss the target or
#    cannot carry the rate.
# The pane is zoomed (z) and scrolled until the chart is on screen.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 16

page_to() { tui_scroll_to NPage 8 "$1"; }
line_to() { tui_scroll_to Down 30 "$1"; }

# the pools the sizing chooses (the model is refitted by others: read
# them from `gpuplan eval`, do not pin them)
pools=$("$GPUPLAN_BIN" --db "$TUI_TMP/cli.db" eval "${GPUPLAN_DATADIR:-data}/examples/moe-gb200.yaml" |
    grep -E '^ +pools +prefill ' | head -n 1)
pre=$(echo "$pools" | sed -n 's/.*prefill [A-Za-z]*[0-9]* x [0-9]* = \([0-9]*\) GPUs.*/\1/p')
dec=$(echo "$pools" | sed -n 's/.*decode [A-Za-z]*[0-9]* x [0-9]* = \([0-9]*\) GPUs.*/\1/p')
[ -n "$pre" ] && [ -n "$dec" ] || echo "# no pools in gpuplan eval: '$pools'"

for size in "80 24" "160 45"; do
    # shellcheck disable=SC2086
    set -- $size
    tag="${1}x${2}"
    tui_start "$1" "$2" moe-gb200
    tui_open_plan moe-gb200
    tui_wait 'v3-chat' && tui_idle
    tui_retry "tui_click_text 'v3-chat '" '▶ v3-chat' && tui_idle
    tui_keys z
    tui_wait 'zoomed: z restores'

    page_to 'decode pool GPUs vs TPOT: (DEP|tp)[0-9]+ replicas sharing 100 req/s' &&
        line_to ' ms TPOT$' && [ -n "$dec" ] &&
        tui_wait "^ +$dec [█#]+.*[│|].* [0-9.]+ ms +plan"
    ok $? "$tag: decode pool GPUs vs TPOT, the chosen $dec GPUs marked, the target line"
    tui_wait '0 ms .* ms TPOT$'
    ok $? "$tag: the TPOT axis under the decode bars"
    line_to ' ms TTFT$' && tui_wait 'prefill pool GPUs vs TTFT: (DEP|tp)[0-9]+ replicas sharing 100 req/s' &&
        [ -n "$pre" ] && tui_wait "^ +$pre [█#]+.*[│|].* [0-9.]+ ms +plan"
    ok $? "$tag: prefill pool GPUs vs TTFT, the chosen $pre GPUs marked, the target line"
    tui_wait '0 ms .* ms TTFT$'
    ok $? "$tag: the TTFT axis under the prefill bars"
    tui_keys z
    tui_wait 'zoom off'

    # disaggregated on, a TPOT target below any decode step: the binding
    # and its fix next to the result
    tui_keys ':'; tui_type 'set v3-chat.disaggregated.mode on'; tui_keys Enter
    tui_wait 'mode = on' && tui_idle
    tui_keys ':'; tui_type 'set v3-chat.tpot_ms 2'; tui_keys Enter
    tui_wait 'tpot_ms = 2' && tui_idle
    tui_keys Home
    tui_wait 'v3-chat .*misses SLO' && tui_wait 'binding +TPOT target 2 ms is below the [0-9.]+ ms' &&
        tui_keys z && tui_wait 'zoomed: z restores' && tui_wait 'one decode step takes on (DEP|tp)[0-9]+'
    ok $? "$tag: the disaggregated service names its binding target (a decode step)"
    tui_wait 'fix +raise tpot_ms to [0-9.]+'
    ok $? "$tag: with the fix (the target its pools were sized for)"
    page_to 'decode pool GPUs vs TPOT' && line_to ' ms TPOT$' &&
        tui_wait ' +[0-9,]+ [█#]+[│|][█#]+ +[0-9.]+ ms +misses' &&
        tui_wait 'saturated: [0-9,]+ GPUs cannot carry 100 req/s'
    ok $? "$tag: smaller decode pools cross the target or cannot carry the rate"
    tui_keys z
    tui_keys ':'; tui_type 'q!'; tui_keys Enter
    tui_wait_exit >/dev/null
    tui_check_stderr
done
exit $tap_failed
