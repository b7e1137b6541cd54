#!/bin/sh
# Screen test (issue 15): F5 asks where to export, proposing
# <plan>-v<N>-<date>.<ext> in $XDG_DOCUMENTS_DIR, else beside the plan
# store — before, it wrote silently into the directory the dashboard was
# started from.  :export FORMAT PATH writes to the path given.  At 80x24
# and 160x45.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 14

today=$(date +%Y-%m-%d)
docs="$TUI_TMP/Documents"
mkdir -p "$docs" "$TUI_TMP/store"
for size in "80 24" "160 45"; do
    # shellcheck disable=SC2086
    set -- $size
    tag="${1}x${2}"
    rm -f "$docs"/* "$TUI_TMP"/*.md "$TUI_TMP"/*.json
    TUI_ENV="XDG_DOCUMENTS_DIR='$docs'"
    tui_start "$1" "$2"
    tui_open_plan frontier-2027
    tui_keys F5
    tui_wait 'Export the plan as' 5; ok $? "$tag: F5 asks for a format"
    tui_type 'md'; tui_keys Enter
    tui_wait "Export to: .*Documents/frontier-2027-v1-$today.md" 5 ||
        tui_wait "Export to: .*frontier-2027-v1-$today.md" 5
    ok $? "$tag: then for the path, proposing plan, version and date in \$XDG_DOCUMENTS_DIR"
    tui_keys Enter
    tui_wait "wrote $docs/frontier-2027-v1-$today.md" 10 &&
        grep -q 'frontier-2027' "$docs/frontier-2027-v1-$today.md" &&
        ! ls "$TUI_TMP"/*.md >/dev/null 2>&1
    ok $? "$tag: the file is there, not in the start directory"
    tui_keys ':'; tui_type "export json $TUI_TMP/out.json"; tui_keys Enter
    tui_wait "wrote $TUI_TMP/out.json" 10 && grep -q '"plan"' "$TUI_TMP/out.json"
    ok $? "$tag: :export json PATH writes the eval JSON to the path given"
    tui_keys ':'; tui_type 'export csv'; tui_keys Enter
    tui_wait 'Export to: ' 5 && tui_keys Escape && tui_wait 'cancelled' 5 &&
        ! ls "$docs"/*.csv >/dev/null 2>&1
    ok $? "$tag: Esc in the dialog writes nothing"
    tui_keys q
    tui_wait_exit 10 >/dev/null

    # without XDG_DOCUMENTS_DIR: beside the plan store
    TUI_ENV="XDG_DOCUMENTS_DIR="
    save_db=$TUI_DB
    TUI_DB="$TUI_TMP/store/plans.db"
    tui_start "$1" "$2"
    tui_open_plan frontier-2027
    tui_keys ':'; tui_type 'export md'; tui_keys Enter
    tui_wait "Export to: .*store/frontier-2027-v1-$today.md" 5
    ok $? "$tag: without it, the plan store's directory"
    tui_keys Enter
    tui_wait "wrote $TUI_TMP/store/frontier-2027-v1-$today.md" 10
    ok $? "$tag: and writes there"
    tui_keys q
    tui_wait_exit 10 >/dev/null
    TUI_DB=$save_db
done
exit $tap_failed
