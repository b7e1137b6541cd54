#!/bin/sh
# Screen test (issue 15): nothing is lost.  Before, SIGTERM or SIGHUP (an
# ssh drop) discarded unsaved edits, Duplicate copied the last saved
# version and there was no "save as".  Now, at 80x24 and 160x45:
#  - SIGTERM and SIGHUP write the working copy as a draft and the process
#    still dies of the signal; the next start offers the draft back;
#  - edits are autosaved as a draft within a second (a SIGKILL keeps them);
#  - n discards a draft for good;
#  - :w NAME saves the working copy as a new plan and edits that;
#  - Duplicate (F3 c) of the open plan copies its working copy.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 30

gpuplan_pid() {
    ps -o pid= --ppid "$(tui_pid)" | tr -d ' ' | head -n 1
}

drafts() {
    sqlite3 "$TUI_DB" 'SELECT count(*) FROM drafts' 2>/dev/null || echo 0
}

for size in "80 24" "160 45"; do
    # shellcheck disable=SC2086
    set -- $size
    tag="${1}x${2}"
    rm -f "$TUI_DB" "$TUI_DB-wal" "$TUI_DB-shm"
    for sig in TERM HUP; do
        tui_start "$1" "$2" frontier-2027
        tui_open_plan frontier-2027
        tui_cmd 'set gpus 8192'
        tui_wait 'target_days cleared' && tui_idle
        kill -s "$sig" "$(gpuplan_pid)"
        st=$(tui_wait_exit)
        want=143; [ "$sig" = HUP ] && want=129
        [ "$st" = "$want" ] && [ "$(drafts)" = 1 ]
        ok $? "$tag: SIG$sig keeps the edits as a draft and the process dies of it ($st)"
        tui_start "$1" "$2" frontier-2027
        tui_wait 'Unsaved edits of frontier-2027 \(v1\) from .* were kept'
        ok $? "$tag: the next start offers them back"
        tui_keys y
        tui_wait 'restored the unsaved edits of frontier-2027' && tui_idle &&
            tui_wait 'modified|●' && tui_wait 'pretrain-405b +train +H100-SXM +8,192'
        ok $? "$tag: y restores them (8,192 GPUs, marked modified)"
        tui_keys ':'; tui_type 'q!'; tui_keys Enter
        tui_wait_exit >/dev/null
        [ "$(drafts)" = 0 ]; ok $? "$tag: :q! discards the draft with the edits"
    done

    # autosave: no signal handler runs on SIGKILL
    tui_start "$1" "$2" frontier-2027
    tui_open_plan frontier-2027
    tui_cmd 'set chat-70b.requests_per_s 60'
    tui_wait 'requests_per_s = 60'
    deadline=$(( $(date +%s) + TUI_TIMEOUT ))
    while [ "$(drafts)" != 1 ] && [ "$(date +%s)" -le "$deadline" ]; do sleep 0.1; done
    [ "$(drafts)" = 1 ]; ok $? "$tag: an edit is autosaved as a draft"
    kill -s KILL "$(gpuplan_pid)"
    tui_wait_exit >/dev/null
    tui_start "$1" "$2" frontier-2027
    tui_wait 'Unsaved edits of frontier-2027' && tui_keys n
    tui_wait 'discarded the draft' && [ "$(drafts)" = 0 ]
    ok $? "$tag: after SIGKILL the draft is offered; n discards it"
    tui_keys q
    tui_wait_exit >/dev/null

    # :w NAME and Duplicate of the working copy
    tui_start "$1" "$2" frontier-2027
    tui_open_plan frontier-2027
    tui_cmd 'set gpus 4096'
    tui_wait 'target_days cleared'
    tui_keys F3
    tui_wait 'PLANS in'
    tui_keys /; tui_type 'frontier'; tui_keys Enter
    tui_keys c
    tui_wait 'Duplicate as: frontier-2027-copy' && tui_keys Enter
    tui_wait 'duplicated the working copy of frontier-2027 \(unsaved edits included\)'
    ok $? "$tag: F3 c duplicates the working copy of the open plan"
    "$GPUPLAN_BIN" --db "$TUI_DB" show frontier-2027-copy | grep -q 'gpus: 4096'
    ok $? "$tag: the copy holds the unsaved edit (gpus 4096)"
    tui_keys Escape
    tui_cmd 'w frontier-4k'
    tui_wait 'saved as frontier-4k v1' && tui_wait 'frontier-4k v1' &&
        ! tui_screen | head -n 1 | grep -q 'modified'
    ok $? "$tag: :w NAME saves the working copy as a new plan and edits it"
    "$GPUPLAN_BIN" --db "$TUI_DB" show frontier-4k | grep -q 'gpus: 4096' &&
        "$GPUPLAN_BIN" --db "$TUI_DB" show frontier-2027 | grep -q 'target_days: 90'
    ok $? "$tag: the new plan has the edit, the old one is as saved"
    tui_keys q
    tui_wait_exit >/dev/null
    tui_check_stderr
done
exit $tap_failed
