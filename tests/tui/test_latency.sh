#!/bin/sh
# Keystroke-to-updated-screen latency on every demo plan, measured by the
# dashboard itself (GPUPLAN_TUI_LOG): for each edit, the time from the key
# that committed it to the first frame drawn with its result, and to the
# next frame at all (the echo).  Figures are reported as TAP diagnostics;
# the assertions only check that every edit produced a result frame (no
# timing thresholds: tests must not depend on the machine's speed).
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
EDITS=${EDITS:-5}
tap_plan 8

summ() {   # median and max of the numbers on stdin
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "n=0"; exit }
        printf "n=%d median=%.1f ms max=%.1f ms", NR, v[int((NR + 1) / 2)], v[NR] }'
}

tui_start 120 40
tui_open_plan frontier-2027
for plan in frontier-2027 moe-gb200 research-a100 startup-h200; do
    tui_keys ':'; tui_type "open $plan"; tui_keys Enter
    tui_wait "gpuplan .* $plan v" 30 && tui_idle 60
    : > "$TUI_TMP/latency.log"
    i=1
    while [ $i -le "$EDITS" ]; do
        tui_keys ':'; tui_type "set site.pue 1.2$i"; tui_keys Enter
        tui_wait "site.pue = 1.2$i" 10 && tui_idle 60
        i=$((i + 1))
    done
    n=$(grep -c '^result ' "$TUI_TMP/latency.log")
    [ "$n" -ge "$EDITS" ]; ok $? "$plan: every edit reached the screen with its result ($n/$EDITS)"
    res=$(sed -n 's/^result key_to_result_frame_ms=\([0-9.]*\).*/\1/p' "$TUI_TMP/latency.log" | summ)
    ev=$(sed -n 's/^result .*eval_ms=\([0-9.]*\).*/\1/p' "$TUI_TMP/latency.log" | summ)
    echo=$(sed -n 's/^frame key_to_frame_ms=\([0-9.]*\).*/\1/p' "$TUI_TMP/latency.log" | summ)
    echo "# $plan key->result frame: $res"
    echo "# $plan evaluation (worker): $ev"
    echo "# $plan key->next frame (echo): $echo"
    ne=$(grep -c '^frame ' "$TUI_TMP/latency.log")
    [ "$ne" -ge "$EDITS" ]; ok $? "$plan: keystrokes were answered by a frame ($ne frames logged)"
    # leave the plan unmodified so :open does not ask
    tui_keys ':'; tui_type 'w'; tui_keys Enter
    tui_wait 'saved' 10
done
tui_keys q
exit $tap_failed
