#!/bin/sh
# Screen test: a seeded storm of keys (everything but quitting) through
# every pane, prompt and overlay; the dashboard must stay up, answer, and
# leave nothing on stderr (no sanitizer report, no leak) when it quits.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
SEED=${SEED:-7}
N=${N:-400}
tap_plan 4

tui_start 100 30
tui_open_plan frontier-2027
# tmux key names; no q, no ^C, no ':' (which could type :q)
awk -v seed="$SEED" -v n="$N" 'BEGIN {
    split("Up Down Left Right Tab BTab Enter Escape Space PageUp PageDown Home End F1 F2 F3 F4 F5 " \
          "a d c u C-r y n p P b [ ] 1 2 3 4 5 / j k g G x v r U s 0 7 . % k BSpace DC", keys, " ")
    nk = 0; for (k in keys) nk++
    srand(seed)
    for (i = 0; i < n; i++) print keys[int(rand() * nk) + 1]
}' > "$TUI_TMP/keys"
i=0
while read -r k; do
    tui_keys "$k"
    i=$((i + 1))
    # let the screen catch up now and then, so prompts see their keys
    [ $((i % 25)) -eq 0 ] && tui_wait 'gpuplan' >/dev/null
done < "$TUI_TMP/keys"
[ ! -s "$TUI_TMP/status" ]; ok $? "still running after $N random keys (seed $SEED)"
tui_keys Escape Escape Escape
tui_keys C-l
tui_wait 'gpuplan '; ok $? "the screen still answers"
tui_keys Escape Escape ':'
tui_type 'q!'; tui_keys Enter
st=$(tui_wait_exit)
[ "$st" = 0 ]; ok $? ":q! quits with status 0"
tui_check_stderr
exit $tap_failed
