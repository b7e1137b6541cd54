#!/bin/sh
# Screen test: SIGTERM, SIGINT and the crash signals SIGSEGV and SIGABRT
# restore the terminal: the alternate screen is left, the cursor is
# visible, mouse reporting is off.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 16

gpuplan_pid() {
    ps -o pid= --ppid "$(tui_pid)" | tr -d ' ' | head -n 1
}

ulimit -c 0 2>/dev/null   # no core files from the crash signals
for sig in TERM INT SEGV ABRT; do
    tui_start 100 30
    tui_open_plan frontier-2027
    [ "$(tmx display -p '#{alternate_on}')" = 1 ]; ok $? "SIG$sig: the dashboard runs on the alternate screen"
    kill -s "$sig" "$(gpuplan_pid)"
    st=$(tui_wait_exit)
    case $sig in TERM) want=143 ;; INT) want=130 ;; SEGV) want=139 ;; ABRT) want=134 ;; esac
    [ "$st" = "$want" ]; ok $? "SIG$sig: the process dies of the signal (status $st)"
    [ "$(tmx display -p '#{alternate_on}')" = 0 ]; ok $? "SIG$sig: the alternate screen is left"
    [ "$(tmx display -p '#{cursor_flag}#{mouse_any_flag}#{mouse_standard_flag}')" = 100 ]
    ok $? "SIG$sig: cursor visible and mouse reporting off"
    tui_stop
done
exit $tap_failed
