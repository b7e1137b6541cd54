# tests/tui/lib.sh — helpers for the dashboard's screen tests (sourced).
# Each test drives the real binary in a private tmux server of a fixed size
# (tmux's regress/ style), polls capture-pane until the expected text
# appears (bounded by a deadline, never a fixed sleep) and prints TAP.
#
# Environment (set by `make check`): GPUPLAN_BUILDDIR, GPUPLAN_DATADIR,
# GPUPLAN_THEMES, TMUX_BIN.  GPUPLAN_BIN overrides the binary.

TMUX_BIN=${TMUX_BIN:-$(command -v tmux 2>/dev/null)}
GPUPLAN_BIN=${GPUPLAN_BIN:-${GPUPLAN_BUILDDIR:-.}/gpuplan}
TUI_TIMEOUT=${TUI_TIMEOUT:-30}      # seconds per wait (ASan builds are slow)
TUI_SOCK_BASE="gpuplan-test-$$-$(date +%s)"
TUI_SOCK="$TUI_SOCK_BASE-0"
tui_starts=0
TUI_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-tui.XXXXXX")
TUI_DB="$TUI_TMP/plans.db"
tap_n=0
tap_failed=0

tui_require_tmux() {
    if [ -z "$TMUX_BIN" ] || [ ! -x "$TMUX_BIN" ]; then
        echo "1..0 # SKIP tmux not found"
        exit 0
    fi
}

tmx() {
    "$TMUX_BIN" -L "$TUI_SOCK" -f /dev/null "$@"
}

# tui_start COLS LINES [gpuplan args…]: start the dashboard on a fresh store.
# The process's exit status lands in $TUI_TMP/status.
tui_start() {
    cols=$1; lines=$2; shift 2
    # a fresh server (socket) per start: a killed one may still be exiting
    tui_starts=$((tui_starts + 1))
    TUI_SOCK="$TUI_SOCK_BASE-$tui_starts"
    : > "$TUI_TMP/stderr"
    rm -f "$TUI_TMP/status"
    args=""
    for a in "$@"; do args="$args '$a'"; done
    tmx new-session -d -x "$cols" -y "$lines" \
        "cd '$TUI_TMP' && TERM=xterm-256color $TUI_ENV GPUPLAN_TUI_LOG='$TUI_TMP/latency.log' '$GPUPLAN_BIN' --db '$TUI_DB' $args 2>'$TUI_TMP/stderr'; echo \$? > '$TUI_TMP/status'; sleep 600"
}

# Extra environment for the program (e.g. TUI_ENV="NO_COLOR=1").
TUI_ENV=${TUI_ENV:-}

tui_screen() {
    tmx capture-pane -p 2>/dev/null
}

# tui_wait REGEX [SECONDS]: poll the screen until grep -E matches.
tui_wait() {
    pat=$1; limit=${2:-$TUI_TIMEOUT}
    deadline=$(( $(date +%s) + limit ))
    while [ "$(date +%s)" -le "$deadline" ]; do
        if tui_screen | grep -Eq -- "$pat"; then
            return 0
        fi
        sleep 0.05
    done
    echo "# timed out waiting for: $pat" >&2
    tui_screen | sed 's/^/# | /' >&2
    return 1
}

# tui_wait_gone REGEX [SECONDS]: poll until the pattern is no longer shown.
tui_wait_gone() {
    pat=$1; limit=${2:-$TUI_TIMEOUT}
    deadline=$(( $(date +%s) + limit ))
    while [ "$(date +%s)" -le "$deadline" ]; do
        if ! tui_screen | grep -Eq -- "$pat"; then
            return 0
        fi
        sleep 0.05
    done
    echo "# still shown: $pat" >&2
    return 1
}

# tui_wait_exit [SECONDS]: wait until the program has exited; prints its status.
tui_wait_exit() {
    limit=${1:-$TUI_TIMEOUT}
    deadline=$(( $(date +%s) + limit ))
    while [ "$(date +%s)" -le "$deadline" ]; do
        if [ -s "$TUI_TMP/status" ]; then
            cat "$TUI_TMP/status"
            return 0
        fi
        sleep 0.05
    done
    return 1
}

# tui_wait_exit_discarding [SECONDS]: after a quit, wait until the program
# has exited, answering n (discard) if it asks about unsaved changes;
# prints its status.  (Not "wait for the exit, and on a timeout press n":
# that spends a whole timeout whenever the question comes.)
tui_wait_exit_discarding() {
    limit=${1:-$TUI_TIMEOUT}
    deadline=$(( $(date +%s) + limit ))
    answered=0
    while [ "$(date +%s)" -le "$deadline" ]; do
        if [ -s "$TUI_TMP/status" ]; then
            cat "$TUI_TMP/status"
            return 0
        fi
        if [ $answered = 0 ] && tui_screen | grep -q 'Unsaved changes'; then
            tui_keys n
            answered=1
        fi
        sleep 0.05
    done
    return 1
}

# tui_stable [SECONDS]: wait until no recompute is in flight and two
# captures 0.2 s apart are the same (a frame is not still arriving).
tui_stable() {
    limit=${1:-$TUI_TIMEOUT}
    deadline=$(( $(date +%s) + limit ))
    prev=""
    while [ "$(date +%s)" -le "$deadline" ]; do
        if ! tui_busy; then
            cur=$(tui_screen | cksum)
            [ "$cur" = "$prev" ] && return 0
            prev=$cur
        else
            prev=""
        fi
        sleep 0.2
    done
    echo "# screen still changing after ${limit} s" >&2
    return 1
}

# tui_keys_redrawn KEY...: send keys, then wait (at most 5 s: a key that
# changes nothing, such as G on the last page, is not an error) for the
# screen to change, so that a check after it reads the new screen.
tui_keys_redrawn() {
    before=$(tui_screen | cksum)
    tui_keys "$@"
    pace=$(( $(date +%s) + 5 ))
    while [ "$(tui_screen | cksum)" = "$before" ] && [ "$(date +%s)" -le "$pace" ]; do
        sleep 0.05
    done
}

# tui_scroll_to KEY TIMES REGEX: press KEY (NPage, Down, ...) at most TIMES
# times until REGEX is on screen, after each key waiting for the redraw
# (the screen changes; a key at the end of the content changes nothing,
# hence the pacing bound, which only slows the loop), then wait for REGEX.
tui_scroll_to() {
    i=0
    while [ $i -lt "$2" ]; do
        tui_screen | grep -Eq -- "$3" && return 0
        tui_keys_redrawn "$1"
        i=$((i + 1))
    done
    tui_wait "$3"
}

# tui_open_plan NAME: after a start, make sure NAME (a demo plan) is the
# plan on screen — a new store opens its most recently updated plan, and
# the seeded demo plans may differ in their timestamps — then wait idle.
tui_open_plan() {
    tui_wait 'gpuplan .* v[0-9]' || return 1
    if ! tui_screen | head -n 1 | grep -Eq "gpuplan .* $1 v[0-9]"; then
        tui_keys ':'; tui_type "open $1"; tui_keys Enter
        tui_wait "gpuplan .* $1 v[0-9]" || return 1
    fi
    tui_idle
}

# tui_busy: a recompute is in flight.  The header's last glyph is the
# spinner while one is (the tab line's "recomputing" is drawn only when the
# tabs leave room for it, so it alone cannot tell).
tui_busy() {
    tui_screen | head -n 1 | sed 's/ *$//' | grep -Eq '(⠋|⠙|⠹|⠸|⠼|⠴|⠦|⠧|[|/\\-])$' ||
        tui_screen | grep -q 'recomputing'
}

# tui_idle [SECONDS]: wait until no recompute is in flight.
tui_idle() {
    limit=${1:-$TUI_TIMEOUT}
    deadline=$(( $(date +%s) + limit ))
    while [ "$(date +%s)" -le "$deadline" ]; do
        tui_busy || return 0
        sleep 0.05
    done
    echo "# still recomputing after ${limit} s" >&2
    tui_screen | sed 's/^/# | /' >&2
    return 1
}

tui_keys() {
    tmx send-keys "$@"
}

# Literal text (no key-name lookup).
tui_type() {
    tmx send-keys -l -- "$1"
}

# tui_cmd TEXT: run the `:` command TEXT ("set seq_len 65536").
tui_cmd() {
    tui_keys ':'; tui_type "$1"; tui_keys Enter
}

# tui_explain NUMBER: open the Explain view (e) on the number the picker
# filter NUMBER selects ("pretrain-405b days", "TCO", …).
tui_explain() {
    tui_keys e
    tui_wait 'Explain which number'
    tui_type "$1"; tui_keys Enter
}

# ok-line: the program wrote nothing to stderr (no sanitizer or leak
# reports, no warnings) — call after it has exited.
tui_check_stderr() {
    if [ -s "$TUI_TMP/stderr" ]; then
        sed 's/^/# stderr: /' "$TUI_TMP/stderr" | head -n 40
        ok 1 "nothing on stderr"
    else
        ok 0 "nothing on stderr"
    fi
}

# tui_mouse BUTTON X Y [m]: an xterm SGR (1006) mouse report at the 0-based
# screen cell (X, Y) sent as input: button 0 = left, 64/65 = wheel up/down;
# a final "m" makes it a release.  xterm-256color's terminfo (kmous=\E[<)
# selects this encoding in ncurses.
tui_mouse() {
    tmx send-keys -l "$(printf '\033[<%d;%d;%d%s' "$1" $(($2 + 1)) $(($3 + 1)) "${4:-M}")"
}

# tui_click_text TEXT: a left click on the first cell showing TEXT; nothing
# when no cell shows it.
tui_click_text() {
    set -- $(tui_find "$1")
    [ -n "$1" ] && tui_click "$1" "$2"
}

# tui_retry 'COMMAND' REGEX: run COMMAND (a mouse event, its target found
# afresh), poll a second for REGEX, and again until it shows or TUI_TIMEOUT
# passes.  On a loaded machine an event that lands while the screen is being
# redrawn can be lost; one that does nothing still fails.
tui_retry() {
    # its own name: tui_wait sets `deadline`
    retry_deadline=$(( $(date +%s) + TUI_TIMEOUT ))
    while [ "$(date +%s)" -le "$retry_deadline" ]; do
        eval "$1"
        tui_wait "$2" 1 2>/dev/null && return 0
    done
    echo "# timed out waiting for: $2" >&2
    tui_screen | sed 's/^/# | /' >&2
    return 1
}

# tui_click X Y: left press and release.
tui_click() {
    tui_mouse 0 "$1" "$2"
    tui_mouse 0 "$1" "$2" m
}

# tui_find TEXT: "X Y" of the first cell showing TEXT (0-based), or nothing.
tui_find() {
    tui_screen | awk -v t="$1" '{ i = index($0, t); if (i) { print i - 1, NR - 1; exit } }'
}

tui_pid() {
    tmx list-panes -F '#{pane_pid}' | head -n 1
}

tui_stop() {
    tmx kill-server 2>/dev/null || true
}

tui_cleanup() {
    # every server this test started, not only the last one: an earlier
    # start's pane would otherwise outlive the test by its sleep 600
    i=1
    while [ "$i" -le "$tui_starts" ]; do
        "$TMUX_BIN" -L "$TUI_SOCK_BASE-$i" kill-server 2>/dev/null || true
        i=$((i + 1))
    done
    # the servers are gone; remove their socket files too
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TUI_SOCK_BASE"-*
    rm -rf "$TUI_TMP"
}

# TAP
tap_plan() { echo "1..$1"; }
ok() {
    tap_n=$((tap_n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $tap_n - $2"
    else
        echo "not ok $tap_n - $2"
        tap_failed=1
    fi
}
