#!/bin/sh
# Screen test: :theme switches themes (with completion) and is saved as a
# preference for the next start; NO_COLOR gives a screen without colours.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 14

tui_start 120 40
tui_open_plan frontier-2027
tui_keys ':'; tui_type 'th'; tui_keys Tab
tui_wait '^:theme *$'; ok $? "Tab completes the command name"
tui_type 'dark'; tui_keys Enter
tui_wait 'theme dark'; ok $? ":theme dark switches the theme"
tui_keys q
tui_wait_exit >/dev/null
tui_stop
tui_start 120 40
tui_open_plan frontier-2027
# the dark theme's background is colour 234 (themes/dark.yaml)
tmx capture-pane -p -e | grep -q '48;5;234'; ok $? "the saved theme preference is used at the next start"
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
tui_stop
TUI_ENV="NO_COLOR=1"
tui_start 120 40
tui_open_plan frontier-2027
! tmx capture-pane -p -e | grep -Eq '\[([0-9;]*;)?(3[0-7]|4[0-7]|38;5|48;5)[;m]'; ok $? "NO_COLOR draws without any colour"
tmx capture-pane -p -e | grep -q '\[[0-9;]*7m'; ok $? "NO_COLOR keeps the selection visible (reverse video)"
tui_wait '█ weights  ▒ grads  ░ optimizer  ▓ activations'
ok $? "NO_COLOR: bar series differ by texture (legend)"

tui_keys q
tui_wait_exit >/dev/null
tui_stop

# an 8-colour terminal gets the 256-colour theme reduced to 8 colours
TUI_ENV="TERM=xterm"
tui_start 120 40 --theme dark
tui_open_plan frontier-2027
! tmx capture-pane -p -e | grep -Eq '(38|48);5;'; ok $? "8 colours: no 256-colour codes are sent"
tmx capture-pane -p -e | grep -Eq '\[([0-9;]*;)?(3[0-7]|4[0-7])[;m]'; ok $? "8 colours: the theme still has colours"
tui_wait 'memory/GPU +█+[│ ]' && tui_wait '█ weights  █ grads'
ok $? "a colour theme keeps solid bars told apart by colour"
tui_keys ':'; tui_type 'theme mono'; tui_keys Enter
tui_wait 'theme mono' && tui_wait 'memory/GPU +█+▒+░*▓+'
ok $? ":theme mono on a colour terminal: the memory bar's segments differ by texture"
tui_keys q
tui_wait_exit >/dev/null
tui_stop

# messages: an unknown theme lists the themes; a message longer than the
# status line ends in an ellipsis instead of being cut
CLIP="$TUI_TMP/clip.log"
TUI_ENV="GPUPLAN_TUI_CLIPLOG='$CLIP'"
tui_start 80 24
tui_open_plan frontier-2027
tui_keys ':'; tui_type 'theme nosuch'; tui_keys Enter
tui_wait "no theme 'nosuch' \\(themes: .*mono"; ok $? "an unknown theme names the themes there are"
tui_keys ':'; tui_type 'set accelerator NO-SUCH-ACCELERATOR-WITH-A-VERY-LONG-NAME-INDEED-TO-OVERFLOW-THE-LINE'; tui_keys Enter
tui_wait "NO-SUCH-ACCEL.*…$"; ok $? "a long message ends in an ellipsis"
! grep -q 'NO-SUCH' "$CLIP" 2>/dev/null; ok $? "the status line is not cut"
tui_keys q
tui_wait_exit_discarding >/dev/null
exit $tap_failed
