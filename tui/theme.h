/* tui/theme.h — colour roles (htop's ColorElements) and themes loaded from
 * themes/NAME.yaml, where each role maps to a tmux-style style string:
 *     roles:
 *       header: "fg=black,bg=cyan,bold"
 * Colours: default, black … white, bright<colour>, colourN (0–255),
 * #rrggbb.  Attributes: bold, dim, underline, reverse, italics, blink.
 * 256-colour values are reduced to 16/8 colours on smaller terminals;
 * NO_COLOR (or a terminal without colours) uses attributes only. */
#ifndef GPUPLAN_TUI_THEME_H
#define GPUPLAN_TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    ROLE_NORMAL = 0,
    ROLE_HEADER,
    ROLE_HEADER_ACCENT,
    ROLE_FOOTER,
    ROLE_FOOTER_KEY,
    ROLE_STATUS,
    ROLE_ERROR,
    ROLE_BORDER,
    ROLE_TITLE,
    ROLE_TAB,
    ROLE_TAB_ACTIVE,
    ROLE_SELECTION,
    ROLE_SELECTION_DIM,
    ROLE_LABEL,
    ROLE_VALUE,
    ROLE_UNIT,
    ROLE_INVALID,
    ROLE_EDIT,
    ROLE_MUTED,
    ROLE_GOOD,
    ROLE_BAD,
    ROLE_WARNING,
    ROLE_CRITICAL,
    ROLE_MODIFIED,
    ROLE_SERIES1,
    ROLE_SERIES2,
    ROLE_SERIES3,
    ROLE_SERIES4,
    ROLE_SERIES5,
    ROLE_SERIES6,
    ROLE_DOMAIN_A,
    ROLE_DOMAIN_B,
    ROLE_COUNT
} Role;

#define THEME_ATTR_BOLD 0x1u
#define THEME_ATTR_DIM 0x2u
#define THEME_ATTR_UNDERLINE 0x4u
#define THEME_ATTR_REVERSE 0x8u
#define THEME_ATTR_ITALICS 0x10u
#define THEME_ATTR_BLINK 0x20u

typedef struct {
    short fg, bg;          /* -1 = terminal default, else 0..255 */
    unsigned attrs;        /* THEME_ATTR_* */
} Style;

typedef struct {
    char name[64];
    Style roles[ROLE_COUNT];
} Theme;

/* The role names as written in theme files ("header", "series1", …). */
const char *theme_role_name(Role r);
/* Parse a tmux-style string into *st (starting from its current value).
 * Returns 0, or -1 with a message in cause (may be NULL). */
int theme_parse_style(const char *s, Style *st, char *cause, size_t causelen);
/* The built-in default theme (used when no file is found and as the base
 * every file starts from, so a file may name only some roles). */
void theme_builtin(Theme *t);
/* Load themes/<name>.yaml from dir.  Returns 0, or -1 with cause set
 * ("FILE:LINE:COL: message"); *t is then the built-in default. */
int theme_load(const char *dir, const char *name, Theme *t, char *cause, size_t causelen);
/* List theme names in dir (sorted); returns how many were written. */
int theme_list(const char *dir, char names[][64], int max);
/* Install t as the current curses colour pairs (after initscr).  Uses
 * attributes only when NO_COLOR is set or the terminal has no colours. */
void theme_apply(const Theme *t);
/* The curses attributes (colour pair | A_*) of a role of the applied theme. */
unsigned long theme_attr(Role r);
/* True when colours are in use (not NO_COLOR / mono terminal). */
bool theme_has_color(void);
/* True when the chart series roles differ in colour; otherwise bars and
 * legends tell series apart by texture (w_bar.c). */
bool theme_series_color(void);

#endif
