#!/bin/sh
# Screen test (issue 15, items 1-3): the edits a planning meeting makes
# first are accepted, at 80x24 and 160x45.
#  - A training run's GPU count: `:set gpus 8192` on pretrain-405b (which
#    has target_days) and `:set target_days 1` on finetune-8b (which has
#    gpus) were refused ("give gpus or target_days, not both"); now the
#    other one is cleared with a note.
#  - The accelerator with MIG jobs: `:set accelerator H200` on
#    frontier-2027 was refused ("H200 has no MIG profile '3g.40gb'"); now
#    the profile is mapped to the new part's nearest one (or a fraction of a
#    GPU on parts without MIG), with a note; B200, GB200, MI300X and TPU too.
#  - The binding constraint and its fix are on screen, not only in `eval`:
#    a warnings strip, and "global batch 2048 caps data parallelism …
#    raise global_batch to …" under the late run.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 24

for size in "80 24" "160 45"; do
    # shellcheck disable=SC2086
    set -- $size
    tag="${1}x${2}"
    tui_start "$1" "$2" frontier-2027
    tui_open_plan frontier-2027
    tui_wait 'pretrain-405b' && tui_idle

    tui_cmd 'set gpus 8192'
    tui_wait 'target_days cleared'; ok $? "$tag: :set gpus 8192 on a run with target_days is accepted, target_days cleared with a note"
    ! tui_screen | grep -q 'invalid'; ok $? "$tag: no refusal on screen"
    tui_idle
    tui_wait 'pretrain-405b +train +H100-SXM +8,192'; ok $? "$tag: the run is sized at 8,192 GPUs"

    tui_cmd 'set target_days 60'
    tui_wait 'gpus now auto'; ok $? "$tag: :set target_days 60 makes gpus auto again with a note"
    tui_idle
    tui_wait 'global batch 2048 caps data parallelism'
    ok $? "$tag: the binding constraint shows next to the late run"
    tui_wait 'raise global_batch to [0-9]+'; ok $? "$tag: with its fix"
    tui_wait '1 warning|[0-9]+ warnings'; ok $? "$tag: the warnings strip counts the plan's warnings"

    tui_cmd 'set accelerator H200'
    tui_wait 'research/notebooks 3g.40gb → 3g.71gb'
    ok $? "$tag: :set accelerator H200 maps the MIG job to H200's 3g.71gb with a note"
    tui_idle
    fail=0
    for acc in B200 GB200 TPU-v5p MI300X; do
        tui_cmd "set accelerator $acc"
        tui_wait "accelerator = $acc" || fail=1
        tui_screen | grep -q 'invalid' && fail=1
        tui_idle
    done
    [ $fail -eq 0 ]; ok $? "$tag: B200, GB200, TPU-v5p and MI300X are accepted too"
    tui_keys Escape ':'; tui_type 'q!'; tui_keys Enter
    tui_wait_exit >/dev/null; ok $? "$tag: quits"

    tui_start "$1" "$2" startup-h200
    tui_open_plan startup-h200
    tui_wait 'finetune-8b' && tui_idle
    tui_cmd 'set finetune-8b.target_days 1'
    tui_wait 'gpus now auto'; ok $? "$tag: :set target_days 1 on finetune-8b (gpus 64) is accepted"
    tui_keys Escape ':'; tui_type 'q!'; tui_keys Enter
    tui_wait_exit >/dev/null
    tui_check_stderr
done
exit $tap_failed
