#!/bin/sh
# Screen test (issue 15): F5 asks where to export, proposing
# <plan>-v<N>-<date>.<ext> in $XDG_DOCUMENTS_DIR, else beside the plan
# store — before, it wrote silently into the directory the dashboard was
# started from.  :export FORMAT PATH writes to the path given.  The Slurm
# bundle is a directory holding the files `gpuplan export --format slurm -o
# DIR` writes (issue 16), not one text.  At 80x24 and 160x45.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 22

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
    tui_wait 'Export the plan as'; ok $? "$tag: F5 asks for a format"
    tui_type 'md'; tui_keys Enter
    tui_wait "Export to: .*Documents/frontier-2027-v1-$today.md" ||
        tui_wait "Export to: .*frontier-2027-v1-$today.md"
    ok $? "$tag: then for the path, proposing plan, version and date in \$XDG_DOCUMENTS_DIR"
    tui_keys Enter
    tui_wait "wrote $docs/frontier-2027-v1-$today.md" &&
        grep -q 'frontier-2027' "$docs/frontier-2027-v1-$today.md" &&
        ! ls "$TUI_TMP"/*.md >/dev/null 2>&1
    ok $? "$tag: the file is there, not in the start directory"
    tui_keys ':'; tui_type "export json $TUI_TMP/out.json"; tui_keys Enter
    tui_wait "wrote $TUI_TMP/out.json" && grep -q '"plan"' "$TUI_TMP/out.json"
    ok $? "$tag: :export json PATH writes the eval JSON to the path given"
    # the Slurm bundle: a directory, the same files as the command line's -o DIR
    rm -rf "$docs/frontier-2027-v1-$today-slurm" "$TUI_TMP/cli-slurm" "$TUI_TMP/colon-slurm"
    tui_keys F5
    tui_wait 'Export the plan as' && tui_type 'slurm' && tui_keys Enter &&
        tui_wait "Slurm bundle directory: .*frontier-2027-v1-$today-slurm"
    ok $? "$tag: F5 slurm proposes a directory for the bundle"
    tui_keys Enter
    bundle=$docs/frontier-2027-v1-$today-slurm
    deadline=$(( $(date +%s) + TUI_TIMEOUT ))
    while [ ! -f "$bundle/accounts.sh" ] && [ "$(date +%s)" -le "$deadline" ]; do sleep 0.1; done
    tui_wait "wrote .*slurm" && [ -f "$bundle/slurm.conf" ] && [ -f "$bundle/gres.conf" ] &&
        [ -f "$bundle/topology.conf" ] && [ -x "$bundle/accounts.sh" ] &&
        ! grep -q '^# ==> ' "$bundle/slurm.conf"
    ok $? "$tag: it writes slurm.conf, gres.conf, topology.conf and an executable accounts.sh"
    "$GPUPLAN_BIN" --db "$TUI_DB" export frontier-2027 --format slurm -o "$TUI_TMP/cli-slurm" 2>/dev/null
    r=0
    for f in slurm.conf gres.conf topology.conf accounts.sh; do
        cmp -s "$bundle/$f" "$TUI_TMP/cli-slurm/$f" || r=1
    done
    ok $r "$tag: the same four files as gpuplan export --format slurm -o DIR"
    tui_keys ':'; tui_type "export slurm $TUI_TMP/colon-slurm"; tui_keys Enter
    tui_wait "wrote $TUI_TMP/colon-slurm/" && [ -x "$TUI_TMP/colon-slurm/accounts.sh" ]
    ok $? "$tag: :export slurm DIR writes the bundle into DIR"
    tui_keys ':'; tui_type 'export csv'; tui_keys Enter
    tui_wait 'Export to: ' && tui_keys Escape && tui_wait 'cancelled' &&
        ! ls "$docs"/*.csv >/dev/null 2>&1
    ok $? "$tag: Esc in the dialog writes nothing"
    tui_keys q
    tui_wait_exit >/dev/null

    # without XDG_DOCUMENTS_DIR: beside the plan store
    TUI_ENV="XDG_DOCUMENTS_DIR="
    save_db=$TUI_DB
    TUI_DB="$TUI_TMP/store/plans.db"
    tui_start "$1" "$2"
    tui_open_plan frontier-2027
    tui_keys ':'; tui_type 'export md'; tui_keys Enter
    tui_wait "Export to: .*store/frontier-2027-v1-$today.md"
    ok $? "$tag: without it, the plan store's directory"
    tui_keys Enter
    tui_wait "wrote $TUI_TMP/store/frontier-2027-v1-$today.md"
    ok $? "$tag: and writes there"
    tui_keys q
    tui_wait_exit >/dev/null
    TUI_DB=$save_db
done
exit $tap_failed
