/* tui/w_table.c — column tables. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "widgets.h"

static void row(int y, int x, int w, const TableCol *cols, int n, const char *const *cells,
                Role role, const Role *cell_roles)
{
    term_fill(y, x, w, role, " ");
    int col = 0;
    for (int i = 0; i < n && col < w; i++) {
        int cw = cols[i].width;
        if (cw <= 0 || col + cw > w || i == n - 1)
            cw = cols[i].width > 0 && col + cols[i].width <= w ? cols[i].width : w - col;
        Role r = cell_roles ? cell_roles[i] : role;
        const char *s = cells[i] ? cells[i] : "";
        if (cols[i].right)
            term_put_right(y, x + col, cw - 1, r, s);
        else
            term_put_ellipsis(y, x + col, cw - 1, r, s); /* names: abbreviated, never silently cut */
        col += cw;
    }
}

int widget_table_header(int y, int x, int w, const TableCol *cols, int n, Role role)
{
    const char *titles[32];
    for (int i = 0; i < n && i < 32; i++)
        titles[i] = cols[i].title;
    row(y, x, w, cols, n < 32 ? n : 32, titles, role, NULL);
    return 1;
}

void widget_table_row(int y, int x, int w, const TableCol *cols, int n,
                      const char *const *cells, Role role, const Role *cell_roles)
{
    row(y, x, w, cols, n, cells, role, cell_roles);
}

void widget_scroll(int *top, int sel, int h, int n)
{
    if (h <= 0) {
        *top = 0;
        return;
    }
    if (sel < *top)
        *top = sel;
    if (sel >= *top + h)
        *top = sel - h + 1;
    if (*top > n - h)
        *top = n - h;
    if (*top < 0)
        *top = 0;
}

void canvas_begin(Canvas *c, Rect r, int *scroll)
{
    c->r = r;
    c->scroll = *scroll < 0 ? 0 : *scroll;
    c->line = 0;
}

int canvas_next(Canvas *c)
{
    int l = c->line++;
    if (l < c->scroll || l >= c->scroll + c->r.h)
        return -1;
    return c->r.y + (l - c->scroll);
}

void canvas_wrap(Canvas *c, int indent, Role role, const char *text)
{
    int w = c->r.w - indent - 1;
    if (w < 8)
        w = 8;
    const char *p = text;
    while (*p) {
        /* take as many bytes as fit in w columns, backing off to a space */
        char line[512];
        int n = 0, last_space = -1;
        while (p[n] && n < (int)sizeof line - 1) {
            line[n] = p[n];
            line[n + 1] = '\0';
            if (term_strwidth(line) > w)
                break;
            if (p[n] == ' ')
                last_space = n;
            n++;
        }
        if (p[n] && last_space > 0)
            n = last_space;
        if (n == 0)
            n = 1;
        memcpy(line, p, (size_t)n);
        line[n] = '\0';
        int y = canvas_next(c);
        if (y >= 0)
            term_put(y, c->r.x + indent, c->r.w - indent, role, line);
        p += n;
        while (*p == ' ')
            p++;
    }
}

int canvas_fields(Canvas *c, int indent, Role role, const char *const *items, int n)
{
    return canvas_fields_hang(c, indent, 0, role, items, n);
}

int canvas_fields_hang(Canvas *c, int indent0, int hang, Role role, const char *const *items, int n)
{
    int indent = indent0;
    int w = c->r.w - indent - 1;
    if (w < 8)
        w = 8;
    const char *sep = "   ";
    int lines = 0;
    char line[1024];
    int used = 0;
    line[0] = '\0';
    for (int i = 0; i <= n; i++) {
        const char *it = i < n ? (items[i] ? items[i] : "") : NULL;
        if (it && !*it)
            continue;
        int iw = it ? term_strwidth(it) : 0;
        bool flush = !it || (used > 0 && used + 3 + iw > w);
        if (flush && used > 0) {
            int y = canvas_next(c);
            if (y >= 0)
                term_put(y, c->r.x + indent, c->r.w - indent, role, line);
            lines++;
            used = 0;
            line[0] = '\0';
            if (indent == indent0 && hang > 0 && c->r.w - indent0 - hang - 1 >= 8) {
                indent = indent0 + hang;
                w = c->r.w - indent - 1;
            }
        }
        if (!it)
            break;
        if (iw > w) {
            /* a field wider than the whole line: wrap it at its spaces */
            int before = c->line;
            canvas_wrap(c, indent, role, it);
            lines += c->line - before;
            continue;
        }
        size_t len = strlen(line);
        snprintf(line + len, sizeof line - len, "%s%s", used > 0 ? sep : "", it);
        used += (used > 0 ? 3 : 0) + iw;
    }
    return lines;
}

int widget_fields(int y, int x, int w, Role role, const char *const *items, int n)
{
    char line[1024];
    int used = 0;
    line[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (!items[i] || !*items[i])
            continue;
        int iw = term_strwidth(items[i]);
        if (used + (used > 0 ? 3 : 0) + iw > w)
            continue;
        size_t len = strlen(line);
        snprintf(line + len, sizeof line - len, "%s%s", used > 0 ? "   " : "", items[i]);
        used += (used > 0 ? 3 : 0) + iw;
    }
    term_put(y, x, w, role, line);
    return used;
}

/* Set when a canvas had to pull its scroll offset back (End/G asks for
 * "as far as it goes" before the content's length is known): what was drawn
 * was past the end, so the frame is drawn again (canvas_take_clamped). */
static bool canvas_clamped;

void canvas_end(Canvas *c, int *scroll)
{
    int max = c->line - c->r.h;
    if (max < 0)
        max = 0;
    if (*scroll > max) {
        *scroll = max;
        canvas_clamped = true;
    }
    if (*scroll < 0)
        *scroll = 0;
}

bool canvas_take_clamped(void)
{
    bool was = canvas_clamped;
    canvas_clamped = false;
    return was;
}

bool canvas_scroll_key(int *scroll, int up, int down, int pgup, int pgdn, int top, int bottom,
                       int a, int page)
{
    if (a == up) *scroll -= 1;
    else if (a == down) *scroll += 1;
    else if (a == pgup) *scroll -= page;
    else if (a == pgdn) *scroll += page;
    else if (a == top) *scroll = 0;
    else if (a == bottom) *scroll = 1 << 20;
    else return false;
    if (*scroll < 0)
        *scroll = 0;
    return true;
}
