#!/bin/sh
# Screen test (issue 15): what a planning meeting reads off the screen, at
# 80x24 and 160x45.  Before, the warnings were only in `gpuplan eval`, a
# number could not be explained and there was no presenter mode:
#  - w lists every warning and the binding constraints;
#  - e opens "Explain which number?"; TCO shows its formula, inputs,
#    assumptions and sources; y puts the text on the clipboard (OSC 52,
#    read back from the tmux buffer);
#  - P shows the ask, GPUs / days / MW / TCO in large type (the TCO with
#    its Monte Carlo P10-P90), the verdict and the top three risks
#    (warnings, then what flips the verdict, then the largest TCO swing),
#    and P again returns;
#  - z zooms the result pane over the whole body and back.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 26

for size in "80 24" "160 45"; do
    # shellcheck disable=SC2086
    set -- $size
    tag="${1}x${2}"
    tui_start "$1" "$2" frontier-2027
    tmx set-option -g set-clipboard on
    tui_open_plan frontier-2027
    tui_keys ':'; tui_type 'set target_days 60'; tui_keys Enter
    tui_wait 'target_days = 60' && tui_idle

    tui_keys w
    tui_wait 'warnings? \(y copies' && tui_wait 'binding constraints' &&
        tui_wait 'pretrain-405b: global batch 2048 caps'
    ok $? "$tag: w lists the warnings and the binding constraint with its fix"
    tui_keys q
    tui_wait_gone 'binding constraints'

    tui_keys e
    tui_wait 'Explain which number'; ok $? "$tag: e asks which number to explain"
    tui_type 'TCO'; tui_keys Enter
    tui_wait 'explain TCO' && tui_wait 'TCO = capex \+ opex per year' &&
        tui_wait '\$/GPU-hour'
    ok $? "$tag: the TCO's formula and inputs with their values"
    tui_keys G
    tui_wait 'sources' && tui_wait 'as of 20[0-9][0-9]'
    ok $? "$tag: its sources with their dates (End/G reaches them)"
    tui_keys y
    tui_wait 'copied to the clipboard' &&
        tmx show-buffer 2>/dev/null | grep -q 'TCO = capex + opex per year'
    ok $? "$tag: y copies the number and its explanation (OSC 52)"
    tui_keys q
    tui_wait_gone 'explain TCO'

    tui_keys P
    tui_wait 'VERDICT' && tui_wait 'TOP RISKS' && tui_wait 'days to train' &&
        tui_wait '██|##'
    ok $? "$tag: P shows the ask in large type with the verdict and the risks"
    tui_wait '1\. pretrain-405b: cannot finish'; ok $? "$tag: the first risk is the late run"
    # the range arrives from the worker's Monte Carlo after the result
    tui_wait 'TCO +P10-P90 \$[0-9.]+[kMB]-\$[0-9.]+[kMB], on-prem' 60
    ok $? "$tag: the TCO tile shows its Monte Carlo P10-P90 range"
    tui_wait '^ +3\. ' && tui_wait '^ +2\. '
    ok $? "$tag: three risks, all on screen"
    tui_keys P
    tui_wait 'WORKLOADS' && tui_wait_gone 'VERDICT'; ok $? "$tag: P again returns to the dashboard"

    tui_keys Tab Tab z
    tui_wait 'zoomed' && tui_wait_gone 'WORKLOADS' && tui_wait 'Sizing|Size'
    ok $? "$tag: z zooms the result pane over the whole body"
    tui_keys z
    tui_wait 'WORKLOADS'; ok $? "$tag: z again restores the panes"
    tui_keys ':'; tui_type 'q!'; tui_keys Enter
    tui_wait_exit >/dev/null
    tui_check_stderr
done
exit $tap_failed
