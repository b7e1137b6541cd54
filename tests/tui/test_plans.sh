#!/bin/sh
# Screen test: the F3 plan browser filters by regular expression as you
# type (an invalid one is shown, not fatal), deletes softly with a
# confirmation, recovers, and opens a plan.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 14

tui_start 120 40
tui_open_plan frontier-2027
tui_keys F3
tui_wait 'PLANS in'; ok $? "F3 opens the plan browser"
tui_keys /
tui_type '^res'
tui_wait 'research-a100' && tui_wait_gone 'moe-gb200'; ok $? "the list filters as the regex is typed"
tui_type '(['
tui_wait 'no plan matches'; ok $? "an invalid regex empties the list"
[ ! -s "$TUI_TMP/status" ]; ok $? "an invalid regex is not fatal"
tui_keys C-u
tui_type 'moe'
tui_keys Enter
tui_wait 'moe-gb200'
tui_keys d
tui_wait 'Delete plan moe-gb200\?'; ok $? "d asks before deleting"
tui_keys y
tui_wait 'deleted moe-gb200' && tui_wait 'no plan matches'; ok $? "the deleted plan leaves the list"
tui_keys x
tui_wait 'moe-gb200 .*\(deleted\)'; ok $? "x shows deleted plans"
tui_keys U
tui_wait 'recovered moe-gb200'; ok $? "U recovers a deleted plan"
tui_keys c
tui_wait 'Duplicate as: moe-gb200-copy' && tui_keys Enter
tui_wait 'duplicated moe-gb200 as moe-gb200-copy'; ok $? "c duplicates a plan under a new name"
tui_keys / C-u
tui_type 'copy'; tui_keys Enter
tui_wait 'moe-gb200-copy'
tui_keys r
tui_wait 'Rename to: moe-gb200-copy'
tui_keys C-u; tui_type 'moe-variant'; tui_keys Enter
tui_wait 'renamed moe-gb200-copy to moe-variant'; ok $? "r renames a plan"
tui_keys / C-u
tui_type 'variant'; tui_keys Enter
tui_keys v
tui_wait 'VERSIONS of moe-variant' && tui_wait ' v1 '; ok $? "v lists the versions"
tui_keys Escape
tui_wait 'PLANS in' && tui_wait 'moe-variant'; ok $? "Esc goes back from the versions to the plans"
tui_keys / C-u
tui_type 'moe-gb'; tui_keys Enter
tui_wait 'moe-gb200 +1 '
tui_keys Enter
tui_wait 'gpuplan .* moe-gb200 v1'; ok $? "Enter opens the plan"
tui_keys q
tui_wait_exit_discarding >/dev/null
tui_check_stderr
exit $tap_failed
