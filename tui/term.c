/* tui/term.c — curses start/stop, terminal restore on signals, glyphs and
 * clipped UTF-8 text output. */
#include "config.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include <ncursesw/term.h>

#include "sanitize.h"
#include "term.h"

bool term_utf8 = false;

static const Glyphs glyphs_utf8 = {
    "─", "│", "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼",
    {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"},
    {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"},
    "░", "▒", "█", "▶", "●", "…", "▸", "×",
    {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"}, 8,
};

static const Glyphs glyphs_ascii = {
    "-", "|", "+", "+", "+", "+", "+", "+", "+", "+", "+",
    {"", "#", "#", "#", "#", "#", "#", "#", "#"},
    {".", ".", ":", ":", "=", "=", "#", "#"},
    ".", ":", "#", ">", "*", "...", ">", "x",
    {"|", "/", "-", "\\", "|", "/", "-", "\\"}, 4,
};

const Glyphs *term_glyphs = &glyphs_ascii;

#define TERM_MOUSE_EVENTS \
    (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED)

static int term_active;
static struct termios term_orig;
static int term_orig_ok;
/* The escape sequence that undoes what curses did (alternate screen, hidden
 * cursor, keypad mode, mouse reporting, attributes), computed from terminfo
 * at start so the signal handler only has to write() it. */
static char term_restore_seq[512];
static size_t term_restore_len;

static void seq_add(const char *s)
{
    if (!s || s == (char *)-1)
        return;
    size_t n = strlen(s);
    if (term_restore_len + n >= sizeof term_restore_seq)
        return;
    memcpy(term_restore_seq + term_restore_len, s, n);
    term_restore_len += n;
}

/* SIGTERM / SIGHUP with a wake descriptor set: the main loop saves a draft
 * and then dies of the signal (term_quit_signal); a second one while that
 * runs takes the plain path below. */
static volatile sig_atomic_t quit_sig;
static int quit_wake_fd = -1;

/* Async-signal-safe: write(), tcsetattr(), sigaction(), raise() only. */
static void term_signal_handler(int sig)
{
    if ((sig == SIGTERM || sig == SIGHUP) && quit_wake_fd >= 0 && !quit_sig) {
        quit_sig = sig;
        ssize_t wr = write(quit_wake_fd, "q", 1);
        (void)wr;
        return;
    }
    if (term_active) {
        ssize_t wr = write(STDOUT_FILENO, term_restore_seq, term_restore_len);
        (void)wr;
        if (term_orig_ok)
            tcsetattr(STDIN_FILENO, TCSANOW, &term_orig);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    raise(sig);
}

static void install_handlers(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV,
                               SIGABRT, SIGBUS, SIGFPE, SIGILL};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = term_signal_handler;
    sigemptyset(&sa.sa_mask);
    /* SA_NODEFER so raise() inside the handler is delivered at once with
     * the default action. */
    sa.sa_flags = SA_NODEFER;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

void term_pick_glyphs(void)
{
    const char *cs = nl_langinfo(CODESET);
    const char *force = getenv("GPUPLAN_ASCII");
    term_utf8 = cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0) &&
                !(force && *force && strcmp(force, "0") != 0);
    term_glyphs = term_utf8 ? &glyphs_utf8 : &glyphs_ascii;
}

int term_start(void)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return -1;
    setlocale(LC_ALL, "");
    term_pick_glyphs();
    term_orig_ok = tcgetattr(STDIN_FILENO, &term_orig) == 0;
    /* Short escape delay: a lone ESC cancels prompts promptly. */
    if (!getenv("ESCDELAY"))
        set_escdelay(25);
    if (!initscr())
        return -1;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    leaveok(stdscr, TRUE);
    if (has_colors()) {
        start_color();
        use_default_colors();
    }
    mousemask(TERM_MOUSE_EVENTS, NULL);
    mouseinterval(0);

    term_restore_len = 0;
    seq_add("\033[?1000l\033[?1002l\033[?1003l\033[?1006l");
    seq_add(tigetstr("sgr0"));
    seq_add(tigetstr("cnorm"));
    seq_add(tigetstr("rmkx"));
    seq_add(tigetstr("rmcup"));
    seq_add("\r\n");
    term_active = 1;
    install_handlers();
    return 0;
}

void term_stop(void)
{
    if (!term_active)
        return;
    term_active = 0;
    mousemask(0, NULL);
    curs_set(1);
    endwin();
    fflush(stdout);
}

void term_defer_quit_signals(int wake_fd)
{
    quit_wake_fd = wake_fd;
}

int term_quit_signal(void)
{
    return quit_sig;
}

void term_die_of(int sig)
{
    term_stop();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    raise(sig);
}

void term_suspend(void)
{
    if (!term_active)
        return;
    mousemask(0, NULL);
    curs_set(1);
    endwin();
    fflush(stdout);
    /* stop as ^Z would in cooked mode; the shell's fg (SIGCONT) returns */
    raise(SIGTSTP);
    /* resumed: curses re-enters its mode on the next refresh */
    refresh();
    curs_set(0);
    mousemask(TERM_MOUSE_EVENTS, NULL);
    clearok(curscr, TRUE);
}

int term_osc52(const char *text)
{
    /* OSC 52 (xterm ctlseqs, "Manipulate Selection Data"): ESC ] 52 ; c ;
     * base64 BEL sets the clipboard; tmux passes it on with set-clipboard. */
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = strlen(text);
    size_t out_len = 4 * ((n + 2) / 3);
    char *out = malloc(out_len + 16);
    if (!out)
        return -1;
    size_t o = 0;
    memcpy(out, "\033]52;c;", 7);
    o = 7;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned char)text[i] << 16;
        if (i + 1 < n)
            v |= (unsigned char)text[i + 1] << 8;
        if (i + 2 < n)
            v |= (unsigned char)text[i + 2];
        out[o++] = b64[(v >> 18) & 63];
        out[o++] = b64[(v >> 12) & 63];
        out[o++] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? b64[v & 63] : '=';
    }
    out[o++] = '\a';
    int rc = 0;
    size_t done = 0;
    while (done < o) {
        ssize_t w = write(STDOUT_FILENO, out + done, o - done);
        if (w <= 0) {
            rc = -1;
            break;
        }
        done += (size_t)w;
    }
    free(out);
    return rc;
}

/* Decode one UTF-8 character; returns bytes consumed (>=1) and its width. */
static size_t next_char(const char *s, int *width)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    wchar_t wc;
    size_t n = mbrtowc(&wc, s, MB_CUR_MAX, &st);
    if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
        *width = 1;
        return 1;
    }
    int w = wcwidth(wc);
    *width = w < 0 ? 1 : w;
    return n;
}

FILE *term_clip_log;

int term_strwidth(const char *s)
{
    int total = 0;
    while (s && *s) {
        int w;
        s += next_char(s, &w);
        total += w;
    }
    return total;
}

int term_put(int y, int x, int maxw, Role role, const char *s)
{
    if (!s || y < 0 || y >= LINES || maxw <= 0)
        return 0;
    if (x < 0) {
        maxw += x;
        x = 0;
    }
    if (x + maxw > COLS)
        maxw = COLS - x;
    if (maxw <= 0)
        return 0;
    /* Text from a plan, trace or the store may hold control characters:
     * they are drawn as visible escapes (\x1b), never sent (issue 17 D3). */
    char clean[1024];
    if (!sanitize_is_clean(s, SANITIZE_LINE))
        s = sanitize_text(s, SANITIZE_LINE, clean, sizeof clean);
    int used = 0;
    size_t bytes = 0;
    while (s[bytes]) {
        int w;
        size_t n = next_char(s + bytes, &w);
        if (used + w > maxw) {
            /* a view that lets text run past its room cuts a word or a
             * number: record it so the screen tests can find it */
            if (term_clip_log)
                fprintf(term_clip_log, "clip y=%d x=%d w=%d \"%s\"\n", y, x, maxw, s);
            break;
        }
        used += w;
        bytes += n;
    }
    attrset((attr_t)theme_attr(role));
    mvaddnstr(y, x, s, (int)bytes);
    attrset(A_NORMAL);
    return used;
}

int term_put_ellipsis(int y, int x, int maxw, Role role, const char *s)
{
    if (!s || maxw <= 0)
        return 0;
    char clean[1024];
    if (!sanitize_is_clean(s, SANITIZE_LINE))
        s = sanitize_text(s, SANITIZE_LINE, clean, sizeof clean);
    if (term_strwidth(s) <= maxw)
        return term_put(y, x, maxw, role, s);
    /* keep whole characters in the columns the ellipsis leaves */
    int mw = term_strwidth(term_glyphs->more);
    if (mw >= maxw)
        return term_put(y, x, maxw, role, term_glyphs->more);
    char buf[1024];
    int used = 0;
    size_t bytes = 0;
    while (s[bytes] && bytes < sizeof buf - 8) {
        int w;
        size_t n = next_char(s + bytes, &w);
        if (used + w > maxw - mw)
            break;
        used += w;
        bytes += n;
    }
    memcpy(buf, s, bytes);
    snprintf(buf + bytes, sizeof buf - bytes, "%s", term_glyphs->more);
    return term_put(y, x, maxw, role, buf);
}

int term_printf(int y, int x, int maxw, Role role, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return term_put(y, x, maxw, role, buf);
}

int term_put_right(int y, int x, int w, Role role, const char *s)
{
    int sw = term_strwidth(s);
    if (sw > w)
        return term_put(y, x, w, role, s);
    return term_put(y, x + w - sw, sw, role, s);
}

void term_fill(int y, int x, int w, Role role, const char *g)
{
    if (y < 0 || y >= LINES)
        return;
    if (x < 0) {
        w += x;
        x = 0;
    }
    if (x + w > COLS)
        w = COLS - x;
    if (w <= 0)
        return;
    attrset((attr_t)theme_attr(role));
    move(y, x);
    for (int i = 0; i < w; i++)
        addstr(g);
    attrset(A_NORMAL);
}

void term_clear_rect(Rect r, Role role)
{
    for (int i = 0; i < r.h; i++)
        term_fill(r.y + i, r.x, r.w, role, " ");
}
