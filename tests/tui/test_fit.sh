#!/bin/sh
# Screen test: every tab of every demo plan fits its pane at 80x24, 120x40
# and 200x60 — no text is cut at a pane edge (term_put logs every cut to
# GPUPLAN_TUI_CLIPLOG) — and the Topology, Cost and Sizing panes show what
# a planning meeting needs: switch tiers as counts with the
# oversubscription, the pricing of each option, the comparison group
# apart, "never" for an unreachable break-even, memory in GiB.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 17

CLIP="$TUI_TMP/clip.log"
TUI_ENV="GPUPLAN_TUI_CLIPLOG='$CLIP'"

# visit W H: resize, then show every tab and wait for its own text
visit() {
    tmx resize-window -x "$1" -y "$2"
    if [ "$1" -lt 100 ]; then tui_wait '1 Size +2 Topo' || return 1
    else tui_wait '1 Sizing +2 Topology' || return 1; fi
    tui_keys 1; tui_wait 'workload +kind +accel|no workloads in this plan' || return 1
    tui_keys 2; tui_wait 'GPUs +[0-9,]+ nodes' || return 1
    tui_keys 3; tui_wait 'kW per rack' || return 1
    tui_keys 4; tui_wait 'option +pricing +TCO' || return 1
    tui_keys 5; tui_wait 'policy [a-z-]+ \[p\]' || return 1
    tui_keys 1; tui_wait 'workload +kind +accel|no workloads in this plan'
}

for plan in frontier-2027 moe-gb200 research-a100 startup-h200 tiresias-replay; do
    tui_start 120 40 "$plan"
    tui_wait "gpuplan .* $plan v[0-9]" && tui_idle
    fail=0
    for size in "80 24" "120 40" "200 60"; do
        # shellcheck disable=SC2086
        visit $size || fail=1
    done
    [ $fail -eq 0 ] && [ -f "$CLIP" ] && ! [ -s "$CLIP" ]
    ok $? "$plan: every tab fits at 80x24, 120x40 and 200x60 (nothing cut)"
    if [ -s "$CLIP" ]; then sort -u "$CLIP" | head -n 20 | sed 's/^/# /'; fi
    tui_keys q
    tui_wait_exit >/dev/null
    tui_stop
    rm -f "$CLIP"
done

tui_start 120 40 frontier-2027
tui_wait "gpuplan .* frontier-2027 v[0-9]" && tui_idle
tui_keys 2
tui_wait '(spine|leaf) +[0-9,]+ switches'; ok $? "Topology: switch tiers as counts"
tui_wait 'leaf +[0-9,]+ switches .*oversubscription [0-9.]+:1'; ok $? "Topology: the leaf tier carries the oversubscription"
! tui_screen | grep -Eq '(core|spine|leaf) +(█|#){8,}'; ok $? "Topology: no full-width tier bars"
tui_keys 4
tui_wait 'res-3y|reserved-3y' && tui_wait 'res-1y|reserved-1y' && tui_wait 'on-dem|on-demand'
ok $? "Cost: the pricing of each option is shown"
tui_wait 'eff/GPU-h' && tui_wait 'prices as of 20[0-9][0-9]-'; ok $? "Cost: the basis of each column and the prices' date are named"
tui_wait 'Build: on-prem H100-SXM costs'; ok $? "Cost: the verdict is shown beside the options"
tui_screen | grep -Eq '^.*│ ●\$? +H100-SXM +on-prem'; ok $? "Cost: the plan's site is marked"
tui_keys 1
tui_wait 'memory/GPU .* [0-9.]+ GiB / [0-9.]+ GiB'; ok $? "Sizing: memory in GiB like the CLI"
tmx resize-window -x 80 -y 24
tui_wait '1 Size +2 Topo'
tui_keys 4
tui_wait 'option +pricing +TCO'
# the header's cost is the plan's own site (the ● row), not the cheapest
chosen=$(tui_screen | grep -E '^ ●' | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[$][0-9.]+[kMBT]?$/) { print $i; exit } }')
# (the Monte Carlo P10-P90 may follow the TCO once the ranges are computed)
[ -n "$chosen" ] && tui_screen | head -n 1 | grep -Fq -e "$chosen / 3y" -e "$chosen (P10-P90 "; ok $? "the header shows the plan's TCO ($chosen)"
tui_keys ':'; tui_type 'set pue 1.3'; tui_keys Enter
tui_wait 'site.pue = 1.3' && tui_idle
tui_wait '^ gpuplan .*frontier-2027 v1 ● .*×[0-9,]+ │ [0-9.]+ [kM]W │ [$][0-9.]+[kMBT]? / 3y'
ok $? "80 columns: the header keeps plan, modified marker, GPUs, MW and cost"
tui_screen | head -n 1 | sed 's/^/# /'
tui_keys q
tui_wait 'Unsaved changes' && tui_keys n
st=$(tui_wait_exit)
[ "$st" = 0 ]; ok $? "quits cleanly"
tui_stop
tui_start 120 40 startup-h200
tui_wait "gpuplan .* startup-h200 v[0-9]" && tui_idle
tui_keys 4
tui_wait 'option +pricing +TCO'
chosen=$(tui_screen | grep -E '│ ●' | sed 's/.*│ ●//' | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[$][0-9.]+[kMBT]?$/) { print $i; exit } }')
# (the Monte Carlo P10-P90 may follow the TCO once the ranges are computed)
[ -n "$chosen" ] && tui_screen | head -n 1 | grep -F "│ $chosen " | grep -Eq "(│ [$][0-9.]+[kMBT]? |[)] )/ 1y"
ok $? "a cloud plan's header shows its own site's TCO ($chosen), not the cheapest option's"
exit $tap_failed
