/* tui/term.h — the one wrapper around ncursesw (htop's CRT.h idea): every
 * other tui/ and views/ file draws through these helpers, never through raw
 * curses calls, so clipping, wide characters and the ASCII fallback live in
 * one place. */
#ifndef GPUPLAN_TUI_TERM_H
#define GPUPLAN_TUI_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <ncursesw/curses.h>

#include "theme.h"

/* A rectangle of the screen: top row, left column, height, width. */
typedef struct {
    int y, x, h, w;
} Rect;

/* The glyphs in use: UTF-8 box drawing and block elements when the locale
 * is UTF-8, ASCII otherwise. */
typedef struct {
    const char *h, *v, *tl, *tr, *bl, *br, *lt, *rt, *tt, *bt, *cross;
    const char *eighths[9];   /* "" … "█": i/8 of a cell filled */
    const char *spark[8];     /* ▁ … █ */
    const char *shade_light, *shade_mid, *shade_full;
    const char *sel;          /* ▶ */
    const char *dot;          /* ● */
    const char *more;         /* … */
    const char *arrow_r;      /* ▸ */
    const char *times;        /* × */
    const char *spinner[8];
    int n_spinner;
} Glyphs;

extern bool term_utf8;
extern const Glyphs *term_glyphs;

/* Start curses (locale, raw keys, mouse, colours) and install the signal
 * handlers that restore the terminal on SIGINT/SIGTERM/SIGHUP and crash
 * signals.  Returns 0, or -1 when stdin/stdout is not a terminal. */
int term_start(void);
/* Leave curses and restore the terminal; safe to call twice. */
void term_stop(void);
/* From now on SIGTERM and SIGHUP (an ssh drop) do not kill at once: the
 * handler notes the signal and writes a byte to wake_fd, so the main loop
 * can save the working copy first, then term_die_of() it.  A second signal
 * before that restores the terminal and dies as before. */
void term_defer_quit_signals(int wake_fd);
/* The deferred signal, 0 = none. */
int term_quit_signal(void);
/* Restore the terminal and die of sig (default action). */
void term_die_of(int sig);
/* ^Z: leave curses, stop the process (SIGTSTP) and, once continued,
 * return to the full-screen mode (the caller redraws). */
void term_suspend(void);
/* Put text on the terminal's clipboard with OSC 52.  Returns 0 or -1. */
int term_osc52(const char *text);
/* Pick glyphs for the current locale (called by term_start; exposed so the
 * ASCII fallback can be forced with GPUPLAN_ASCII=1). */
void term_pick_glyphs(void);

/* When set, term_put writes a "clip y= x= w= \"text\"" line here for every
 * text it had to cut at its maximum width (GPUPLAN_TUI_LOG; screen tests
 * use it to find views that do not fit their width). */
extern FILE *term_clip_log;

/* Display width of a UTF-8 string (columns). */
int term_strwidth(const char *s);
/* Draw s at (y, x) in role, clipped to maxw columns; returns columns used. */
int term_put(int y, int x, int maxw, Role role, const char *s);
/* Draw s, abbreviated with a trailing ellipsis when wider than maxw (for
 * free text such as names and descriptions; not logged as a cut). */
int term_put_ellipsis(int y, int x, int maxw, Role role, const char *s);
/* Same with printf formatting. */
int term_printf(int y, int x, int maxw, Role role, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Right-aligned in a field of width w ending at column x + w. */
int term_put_right(int y, int x, int w, Role role, const char *s);
/* Fill w cells of row y from x with glyph g (one column wide) in role. */
void term_fill(int y, int x, int w, Role role, const char *g);
/* Blank a rectangle in role. */
void term_clear_rect(Rect r, Role role);

#endif
