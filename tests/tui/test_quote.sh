#!/bin/sh
# Screen test (issue 13): a vendor quote entered in the dashboard changes
# the build-vs-buy verdict live and reaches the export with its source and
# date.  research-a100 has no A100-80GB node price in the catalog, so the
# Cost pane says on-prem is not priced; `:set prices.node_usd` adds a quote
# for the plan's accelerator (site.prices.nodes), the verdict becomes Build
# or Buy with the on-prem TCO, and after F2 the Markdown export lists the
# quote ("entered in the dashboard", today's date) among the assumptions
# that move the answer.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 7

today=$(date -u +%Y-%m-%d)
tui_start 120 40
tui_open_plan research-a100
tui_keys 4
tui_wait 'On-prem is not priced: A100-80GB has no node price'
ok $? "before: the Cost pane says on-prem is not priced"
tui_keys ':'; tui_type 'set prices.node_usd 150000'; tui_keys Enter
tui_wait 'site.prices.node_usd = 150000'; ok $? ":set takes the quote"
tui_idle
tui_wait '(Build|Buy): .*on-prem A100-80GB|on-prem A100-80GB costs'
ok $? "after: the verdict compares on-prem A100-80GB against the cloud"
! tui_screen | grep -q 'On-prem is not priced'; ok $? "the unpriced notice is gone"
tui_keys F2
tui_wait 'Save research-a100 v2, note:' && tui_type 'Dell quote' && tui_keys Enter
tui_wait 'saved research-a100 v2'; ok $? "the quoted plan is saved"
md=$("$GPUPLAN_BIN" --db "$TUI_DB" export research-a100 --format md 2>/dev/null)
printf '%s\n' "$md" | grep -q "| node price | \$150000 per node | entered in the dashboard, $today |"
ok $? "the export lists the quote with its source and date"
printf '%s\n' "$md" | grep -Eq '^(Build|Buy): '
ok $? "the export's recommendation is a verdict, not 'not priced'"
tui_keys q
tui_wait_exit_discarding >/dev/null
exit $tap_failed
