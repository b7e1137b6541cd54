#!/bin/sh
# Keystroke-to-updated-screen latency on every demo plan, measured by the
# dashboard itself (GPUPLAN_TUI_LOG): for each edit, the time from the key
# that committed it to the first frame drawn with its result, and to the
# next frame at all (the echo).  Two kinds of edit per plan:
#  - light: site.pue (the stage cache reuses sizing and the scheduler: only
#    layout, power and cost rerun);
#  - heavy: the plan's accelerator, a different catalog part each time (every
#    workload's sizing search, the scheduler and its capacity search rerun;
#    no cache slot can hold the answer).
# Figures are reported as TAP diagnostics; the assertions only check that
# every edit produced a result frame (no timing thresholds: tests must not
# depend on the machine's speed).
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
EDITS=${EDITS:-5}
tap_plan 16

summ() {   # median and max of the numbers on stdin
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "n=0"; exit }
        printf "n=%d median=%.1f ms max=%.1f ms", NR, v[int((NR + 1) / 2)], v[NR] }'
}

# report PLAN KIND: the figures of the edits logged since the log was cleared
report() {
    n=$(grep -c '^result ' "$TUI_TMP/latency.log")
    [ "$2" = heavy ] || { [ "$n" -ge "$EDITS" ]; ok $? "$1: every $2 edit reached the screen with its result ($n/$EDITS)"; }
    res=$(sed -n 's/^result key_to_result_frame_ms=\([0-9.]*\).*/\1/p' "$TUI_TMP/latency.log" | summ)
    ev=$(sed -n 's/^result .*eval_ms=\([0-9.]*\).*/\1/p' "$TUI_TMP/latency.log" | summ)
    echo=$(sed -n 's/^frame key_to_frame_ms=\([0-9.]*\).*/\1/p' "$TUI_TMP/latency.log" | summ)
    echo "# $1 $2 key->result frame: $res"
    echo "# $1 $2 evaluation (worker): $ev"
    echo "# $1 $2 key->next frame (echo): $echo"
    ne=$(grep -c '^frame ' "$TUI_TMP/latency.log")
    [ "$ne" -ge "$EDITS" ]; ok $? "$1: $2 keystrokes were answered by a frame ($ne frames logged)"
}

# wait_results N: wait (bounded) until the log holds N results.  A slow
# build (sanitizers, a loaded machine) may still be evaluating an edit when
# the screen echoes it; the next edit would supersede that evaluation (the
# dashboard drops a stale one, as it should) and the edit would log no result.
wait_results() {
    deadline=$(( $(date +%s) + 120 ))
    while [ "$(grep -c '^result ' "$TUI_TMP/latency.log")" -lt "$1" ] && [ "$(date +%s)" -le "$deadline" ]; do
        sleep 0.1
    done
}

tui_start 120 40
tui_open_plan frontier-2027
for plan in frontier-2027 moe-gb200 research-a100 startup-h200; do
    tui_keys ':'; tui_type "open $plan"; tui_keys Enter
    # the previous plan's edits are dropped, not saved
    tui_wait "Discard unsaved changes|gpuplan .* $plan v" 30
    tui_screen | grep -q 'Discard unsaved changes' && tui_keys y
    tui_wait "gpuplan .* $plan v" 30 && tui_idle 60
    : > "$TUI_TMP/latency.log"
    i=1
    while [ $i -le "$EDITS" ]; do
        tui_keys ':'; tui_type "set site.pue 1.2$i"; tui_keys Enter
        tui_wait "site.pue = 1.2$i" && tui_idle 60
        wait_results $i
        i=$((i + 1))
    done
    report "$plan" light
    # heavy: five accelerators other than the plan's own
    : > "$TUI_TMP/latency.log"
    own=$(sed -n 's/^accelerator: *\([^ #]*\).*/\1/p' "${GPUPLAN_DATADIR:-data}/examples/$plan.yaml")
    i=0
    for acc in H200 B200 H100-SXM GB200 MI300X A100-80GB; do
        [ "$acc" = "$own" ] && continue
        [ $i -ge "$EDITS" ] && break
        tui_keys ':'; tui_type "set accelerator $acc"; tui_keys Enter
        tui_wait "accelerator = $acc" && tui_idle 120
        i=$((i + 1))
        wait_results $i
    done
    n=$(grep -c '^result ' "$TUI_TMP/latency.log")
    [ "$n" -ge "$i" ] && [ "$i" -ge "$EDITS" ]
    ok $? "$plan: every accelerator change reached the screen with its result ($n/$i)"
    report "$plan" heavy
done
tui_keys ':'; tui_type 'q!'; tui_keys Enter
exit $tap_failed
