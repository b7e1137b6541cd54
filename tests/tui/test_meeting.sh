#!/bin/sh
# Screen test (issue 15): a scripted planning meeting on frontier-2027, at
# 80x24 and 160x45, with no error on screen at any step:
#   open -> change the training run's GPUs -> switch the plan to H200 with
#   its MIG jobs -> read the warning -> :fork a live scenario (B: back on
#   H100-SXM) -> compare A | B | delta -> presenter mode (on A, the H200
#   plan) -> explain the TCO -> export (F5).
# Each step waits for its own result on screen (never a fixed sleep).
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 28

ERRORS='invalid:|error|failed|not bound|unknown command|refused|cannot open|cannot write'

# no_error STEP: nothing on the screen reads like an error
no_error() {
    if tui_screen | grep -Eiq "$ERRORS"; then
        echo "# error on screen after: $1" >&2
        tui_screen | grep -Ei "$ERRORS" | sed 's/^/# | /' >&2
        return 1
    fi
    return 0
}

today=$(date +%Y-%m-%d)
mkdir -p "$TUI_TMP/Documents"
TUI_ENV="XDG_DOCUMENTS_DIR='$TUI_TMP/Documents'"
for size in "80 24" "160 45"; do
    # shellcheck disable=SC2086
    set -- $size
    tag="${1}x${2}"
    rm -f "$TUI_DB" "$TUI_DB-wal" "$TUI_DB-shm" "$TUI_TMP"/Documents/*
    tui_start "$1" "$2" frontier-2027
    tui_open_plan frontier-2027
    tui_wait 'pretrain-405b' && no_error open; ok $? "$tag: open frontier-2027"

    tui_keys ':'; tui_type 'set gpus 12288'; tui_keys Enter
    tui_wait 'target_days cleared' && tui_idle &&
        tui_wait 'raise global_batch to 3072'
    ok $? "$tag: 12,288 GPUs do not divide batch 2048: the screen says which batch would"
    tui_keys ':'; tui_type 'set global_batch 3072'; tui_keys Enter
    tui_wait 'global_batch = 3072' && tui_idle &&
        tui_wait 'pretrain-405b +train +H100-SXM +12,288' && no_error gpus
    ok $? "$tag: with it the training run uses 12,288 GPUs"

    tui_keys ':'; tui_type 'set accelerator H200'; tui_keys Enter
    tui_wait 'research/notebooks 3g.40gb → 3g.71gb' && tui_idle &&
        tui_wait 'H200 ×' && no_error accelerator
    ok $? "$tag: the plan moved to H200, the MIG job mapped with a note"

    tui_keys w
    tui_wait 'warnings? \(y copies' && no_error warnings
    ok $? "$tag: w shows the plan's warnings"
    tui_keys q
    tui_wait_gone 'y copies'

    # a live scenario: B is the working copy moved back to H100-SXM, A stays
    # the H200 plan; the strip above the pane shows A | B | delta
    tui_keys ':'; tui_type 'fork h100'; tui_keys Enter
    tui_wait 'forked frontier-2027 into scenario h100' && no_error fork
    ok $? "$tag: :fork h100 forks the working copy into scenario B"
    tui_keys ':'; tui_type 'set accelerator H100-SXM'; tui_keys Enter
    tui_wait 'accelerator = H100-SXM' && tui_idle && no_error scenario-edit
    ok $? "$tag: B's accelerator moved back to H100-SXM (MIG job mapped back)"
    if [ "$1" -ge 120 ]; then
        tui_wait 'Scenario +A frontier-2027 +B h100 \(editing\) +delta B - A' &&
            tui_wait 'TCO +\$[0-9.]+[MB] +\$[0-9.]+[MB] +[-+]\$[0-9.]+[kMB] \([-+][0-9]+%\)' 30 &&
            tui_wait 'days +[0-9.]+ d +[0-9.]+ d +[-+][0-9.]+ d \([-+][0-9]+%\)'
    else
        tui_wait 'Scenario +GPUs +days +MW +TCO' &&
            tui_wait 'A frontier-20[^ ]* +[0-9,]+ +[0-9.]+ d' 30 &&
            tui_wait 'B h100\* +[0-9,]+ +[0-9.]+ d' 30 &&
            tui_wait 'delta B - A +[-+=]' &&
            # no delta cut open in its narrow column: every "(" closed
            tui_screen | grep 'delta B - A' |
                awk '{ if (gsub(/\(/, "(") != gsub(/\)/, ")")) exit 1 }'
    fi
    ok_strip=$?
    no_error compare; ok $((ok_strip + $?)) "$tag: A | B | delta of GPUs, days, MW and TCO, live"
    tui_keys ':'; tui_type 'scenario swap'; tui_keys Enter
    tui_wait 'now editing A frontier-2027' && tui_idle &&
        tui_wait 'gpuplan .* frontier-2027 v1.* H200 ×' && no_error swap
    ok $? "$tag: :scenario swap brings the H200 plan (A) back under the keyboard"

    tui_keys P
    tui_wait 'VERDICT' && tui_wait 'days to train' && no_error presenter
    ok $? "$tag: presenter mode"
    tui_keys P
    tui_wait 'WORKLOADS'

    tui_keys ':'; tui_type 'explain tco'; tui_keys Enter
    tui_wait 'TCO = capex \+ opex per year' && tui_wait 'H200' && no_error explain
    ok $? "$tag: the TCO explained (formula, inputs on H200)"
    tui_keys q
    tui_wait_gone 'TCO = capex'

    tui_keys F5
    tui_wait 'Export the plan as' && tui_type 'html' && tui_keys Enter &&
        tui_wait "Export to: .*frontier-2027-v1\+-$today.html"
    ok $? "$tag: F5 proposes frontier-2027-v1+-$today.html"
    tui_keys Enter
    tui_wait "wrote .*frontier-2027-v1\+-$today.html" &&
        [ -s "$TUI_TMP/Documents/frontier-2027-v1+-$today.html" ] && no_error export
    ok $? "$tag: the HTML export is written where proposed"

    tui_keys ':'; tui_type 'q!'; tui_keys Enter
    tui_wait_exit >/dev/null
    tui_check_stderr
done
exit $tap_failed
