#!/bin/sh
# Screen test (issue 12): the Sizing pane says what the inference model
# decided for a disaggregated DeepSeek-V3 service — both pools, the
# aggregated-vs-disaggregated GPU counts behind the choice, the KV transfer
# and the model's error band; its Explain pane adds the two pools up
# (session 21: it printed "tp × replicas", the decode pool's alone).
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 7

tui_start 160 45 moe-gb200
tui_open_plan moe-gb200
tui_wait 'v3-chat +infer' && tui_idle
# v3-chat is the third workload in the list
tui_keys Down Down
tui_wait 'v3-chat on GB200'; ok $? "selecting v3-chat shows its sizing"
tui_wait 'prefill pool: DEP [0-9]+ .* = [0-9]+ GPUs'; ok $? "the prefill pool is shown"
tui_wait 'decode pool: DEP [0-9]+ .* = [0-9]+ GPUs'; ok $? "the decode pool is shown"
tui_wait 'aggregated [0-9]+ GPUs vs disaggregated [0-9]+ GPUs: runs disaggregated'
ok $? "the choice is explained by both GPU counts"
tui_wait 'GPUs [0-9]+-[0-9]+ \(model error band, engine sglang\)'; ok $? "the error band and engine are shown"
tui_explain 'v3-chat GPUs'
# wait for the line before reading it: under the sanitizers the pane can
# still be drawing when the keys have been sent (CI, session 22)
tui_wait 'GPUs = prefill pool \+ decode pool = [0-9]+ × [0-9]+ \+ [0-9]+ × [0-9]+ = [0-9]+' &&
tui_screen | grep -E 'GPUs = prefill pool \+ decode pool = [0-9]+ × [0-9]+ \+ [0-9]+ × [0-9]+ = [0-9]+' |
    awk '{ split($0, t, "= "); split(t[3], a, " "); good = a[1] * a[3] + a[5] * a[7] == t[4] + 0 }
         END { exit !good }'
ok $? "its explanation adds the two pools up to the GPU count"
tui_keys q
tui_keys q
st=$(tui_wait_exit); [ "$st" = 0 ] || echo "# exit status $st"
tui_check_stderr
