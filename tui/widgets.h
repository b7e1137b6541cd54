/* tui/widgets.h — drawing widgets shared by the views: box art, bars,
 * stacked bars, sparklines, tables, a line input and a form.  Widgets draw
 * through term.h into a given place and keep no state of their own (the
 * caller owns scroll offsets and input buffers). */
#ifndef GPUPLAN_TUI_WIDGETS_H
#define GPUPLAN_TUI_WIDGETS_H

#include <stdbool.h>
#include <stddef.h>

#include "term.h"

/* ---- w_box.c */
/* A frame around r with an optional title in its top edge. */
void widget_box(Rect r, Role role, const char *title, Role title_role);
void widget_hline(int y, int x, int w, Role role);
void widget_vline(int y, int x, int h, Role role);

/* ---- w_bar.c */
typedef struct {
    double value;
    Role role;
} BarSeg;

/* A horizontal bar of value/max over w cells (eighth-cell resolution in
 * UTF-8).  Values beyond max fill the bar. */
void widget_bar(int y, int x, int w, double value, double max, Role role);
/* Segments laid end to end on a scale of scale_max over w cells; when
 * limit > 0 a marker is drawn at the limit's position (in limit_role when a
 * segment crosses it).  Each segment gets at least one cell when non-zero. */
void widget_stacked_bar(int y, int x, int w, const BarSeg *segs, int n, double scale_max,
                        double limit, Role limit_role);
/* "■ label  ■ label …" on one row; returns columns used. */
int widget_legend(int y, int x, int w, const BarSeg *segs, const char *const *labels, int n);

/* A value formatter for axis ticks (ctx: the caller's, may be NULL). */
typedef const char *(*AxisFmt)(double v, char *buf, size_t len, const void *ctx);

/* ---- w_spark.c */
/* A sparkline of v[0..n) resampled to w cells, scaled to max (≤0 = the
 * series maximum). */
void widget_sparkline(int y, int x, int w, const double *v, int n, double max, Role role);

/* ---- w_table.c */
typedef struct {
    const char *title;
    int width;        /* columns; the last column takes what is left when 0 */
    bool right;       /* right-aligned */
} TableCol;

/* Draw a header row; returns the number of rows used (1). */
int widget_table_header(int y, int x, int w, const TableCol *cols, int n, Role role);
/* One row; cell_roles may be NULL (all in role). */
void widget_table_row(int y, int x, int w, const TableCol *cols, int n,
                      const char *const *cells, Role role, const Role *cell_roles);
/* Keep sel visible in a window of h rows over n rows. */
void widget_scroll(int *top, int sel, int h, int n);

/* A scrolled column of text lines: views lay out content line by line and
 * the canvas maps content lines to screen rows (or -1 when scrolled away). */
typedef struct {
    Rect r;
    int scroll;       /* first content line shown */
    int line;         /* next content line */
} Canvas;

void canvas_begin(Canvas *c, Rect r, int *scroll);
/* Screen row of the next content line, -1 when it is outside the view. */
int canvas_next(Canvas *c);
/* Text wrapped at spaces to the canvas width (minus indent), as many
 * content lines as it needs. */
void canvas_wrap(Canvas *c, int indent, Role role, const char *text);
/* Fields (a phrase each, never split) joined by three spaces on as many
 * content lines as they need: a field that does not fit on the current line
 * starts the next one; one wider than the whole line wraps at its spaces.
 * Empty or NULL fields are skipped.  Returns the content lines used. */
int canvas_fields(Canvas *c, int indent, Role role, const char *const *items, int n);
/* The same with continuation lines indented hang more columns. */
int canvas_fields_hang(Canvas *c, int indent, int hang, Role role, const char *const *items, int n);
/* The same fields on one row of w columns, in order, leaving out those that
 * do not fit (list them by priority).  Returns columns used. */
int widget_fields(int y, int x, int w, Role role, const char *const *items, int n);
/* The value axis under a column of bars (two content lines): a rule over
 * w cells from x with ticks at lo, the middle and hi, their values below
 * (fmt), and the axis name after the rule's end. */
void canvas_bar_axis(Canvas *c, int x, int w, double lo, double hi, const char *name, AxisFmt fmt,
                     const void *ctx);
/* Finish: clamps *scroll to the content drawn (total lines). */
void canvas_end(Canvas *c, int *scroll);
/* True (once) when a canvas_end since the last call pulled a scroll offset
 * back: the frame showed less than it could and is to be drawn again. */
bool canvas_take_clamped(void);
/* Scroll helpers for ACT_UP/DOWN/PGUP/PGDN/TOP/BOTTOM; returns true when a
 * scroll action was applied. */
bool canvas_scroll_key(int *scroll, int action_up, int action_down, int action_pgup,
                       int action_pgdn, int action_top, int action_bottom, int a, int page);

/* ---- w_input.c */
typedef struct {
    char buf[256];
    int len;
    int cur;          /* byte offset of the cursor */
} LineInput;

void input_set(LineInput *in, const char *s);
/* Edit keys (printable, ←/→, Home/End, Backspace/Delete, ^A ^E ^U ^K ^W).
 * Returns 1 when the text changed, 0 when the key moved the cursor only,
 * -1 when the key is not an edit key. */
int input_key(LineInput *in, int ch);
/* Draw the text, scrolled so the cursor is visible; the cursor cell is
 * shown reversed when show_cursor. */
void input_draw(const LineInput *in, int y, int x, int w, Role role, bool show_cursor);

/* ---- w_form.c */
typedef struct {
    const char *label;
    const char *value;
    const char *unit;
    Role value_role;
    bool choice;      /* an enumeration: drawn with ◂ ▸ hints when selected */
    bool heading;     /* a section heading, not a field */
} FormRow;

/* label | value | unit rows with the selected one highlighted; when edit is
 * not NULL the selected row shows the edit buffer (red when invalid). */
void widget_form(Rect r, const FormRow *rows, int n, int sel, int *top, bool focused,
                 const LineInput *edit, bool edit_invalid);

#endif
