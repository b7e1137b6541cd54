#!/bin/sh
# Screen test: editing a field in the form recomputes and the numbers move;
# invalid input is refused with its reason and the last valid plan stays;
# u undoes the edit.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 9

gpus_of_chat() {
    tui_screen | sed -n 's/.*chat-70b  *infer  *[^ ]*  *\([0-9,-][0-9,]*\) .*/\1/p' | head -n 1
}

tui_start 120 40
tui_open_plan frontier-2027
tui_wait 'chat-70b +infer' && tui_idle
before=$(gpus_of_chat)
[ -n "$before" ] && [ "$before" != "-" ]; ok $? "chat-70b is sized before the edit ($before GPUs)"

# select chat-70b (second row), go to the form, down to `requests`
tui_keys Down Tab
tui_wait 'chat-70b +\(inference\)'
tui_keys Down Down Down Down Down Down Down Down
tui_wait 'requests_per_s: sustained peak'; ok $? "moving in the form shows the field's help"
tui_keys Enter C-u
tui_type 'abc'
tui_wait 'requests_per_s: .*abc'; ok $? "invalid input is shown with the reason on the status line"
[ "$(gpus_of_chat)" = "$before" ] && ! tui_screen | grep -q modified
ok $? "the last valid plan and result stay while the input is invalid"
tui_keys C-u
tui_type '400'
tui_keys Enter
tui_wait 'requests_per_s = 400'; ok $? "a valid value is applied on Enter"
tui_idle
after=$(gpus_of_chat)
[ -n "$after" ] && [ "$after" != "$before" ]; ok $? "the numbers change after the edit ($before -> $after GPUs)"
tui_wait 'modified'; ok $? "the header marks the plan modified"
tui_keys Escape u
tui_wait 'undone' && tui_idle
again=$(gpus_of_chat)
[ "$again" = "$before" ]; ok $? "u undoes the edit ($again GPUs)"
tui_keys ':' ; tui_type 'q!'; tui_keys Enter
tui_wait_exit_discarding >/dev/null
tui_check_stderr
exit $tap_failed
