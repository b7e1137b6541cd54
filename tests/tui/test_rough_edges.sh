#!/bin/sh
# Screen test (issue 15, items 5-7): the rough edges a TUI user notices,
# each as it was reported and as it is now, at 80x24 and 160x45.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 26

for size in "80 24" "160 45"; do
    # shellcheck disable=SC2086
    set -- $size
    tag="${1}x${2}"
    rm -f "$TUI_DB" "$TUI_DB-wal" "$TUI_DB-shm"
    tui_start "$1" "$2" frontier-2027
    tui_open_plan frontier-2027

    # `/` appended to the previous query and said "not found" after a hit
    tui_keys /; tui_type 'chat'; tui_keys Enter
    tui_wait 'chat-70b +\(inference\)'
    tui_keys /
    tui_wait '^/ *$' && tui_type 'research' && tui_keys Enter &&
        tui_wait 'research +\(team\)' && ! tui_screen | grep -q 'not found'
    ok $? "$tag: / starts a new search, and a hit leaves no 'not found'"

    # :set on a named workload was refused unless it was selected
    tui_keys Up
    tui_cmd 'set chat-70b.requests_per_s 60'
    tui_wait 'chat-70b.requests_per_s = 60'; ok $? "$tag: :set chat-70b.requests_per_s 60 from another selection"

    # a status message outlived the next key
    tui_keys Down
    tui_wait_gone 'requests_per_s = 60'; ok $? "$tag: the next key clears the last message"

    # Tab completion of site.* showed nothing
    tui_keys ':'; tui_type 'set site.p'; tui_keys Tab
    tui_wait 'site.pricing +site.pue +site.power_price_kwh'; ok $? "$tag: Tab lists the site.* candidates"
    tui_keys Escape

    # j / k were typed into pick lists
    tui_keys F5
    tui_wait 'Export the plan as' && tui_keys j j
    tui_wait 'filter: *$|filter: *│' && ! tui_screen | grep -q 'filter: j'
    ok $? "$tag: j moves in a pick list instead of filtering"
    tui_keys Escape

    # End/G scrolled to a blank page; panes kept stale offsets
    tui_keys Tab Tab 1 G
    tui_wait 'assumptions|GEMM efficiency|sized to'; ok $? "$tag: G shows the last page of the pane, not a blank one"
    tui_keys 2 1
    tui_wait 'workload +kind +accel'; ok $? "$tag: a tab shown again starts from the top"

    # MIG slices read as "GPUs 0.429"
    tui_keys 5 G
    tui_wait 'notebooks +[0-9,]+ +3g\.40gb'; ok $? "$tag: a MIG class shows its slice (3g.40gb)"

    # a workload on its own accelerator vanished from the header
    tui_cmd 'set pretrain-405b.accelerator H200'
    tui_wait 'accelerator = H200' && tui_idle
    tui_wait 'H100-SXM ×[0-9,]+ \+ H200 ×[0-9,]+'; ok $? "$tag: the header lists both accelerators"

    # compare: double prefixes, % for percentage points
    tui_keys F4
    tui_wait 'metric +A +B' && tui_idle
    tui_keys_redrawn G
    ! tui_screen | grep -Eq 'kkW|MGPU|kGPU'; ok $? "$tag: no double SI prefix in the comparison"
    tui_keys g
    tui_wait 'MFU .* pp'; ok $? "$tag: a difference of two shares reads in pp"
    tui_keys q

    tui_keys ':'; tui_type 'q!'; tui_keys Enter
    tui_wait_exit >/dev/null; ok $? "$tag: quits"
    tui_check_stderr
done
exit $tap_failed
