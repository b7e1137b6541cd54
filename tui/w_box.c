/* tui/w_box.c — frames and lines. */
#include "config.h"

#include "widgets.h"

void widget_hline(int y, int x, int w, Role role)
{
    term_fill(y, x, w, role, term_glyphs->h);
}

void widget_vline(int y, int x, int h, Role role)
{
    for (int i = 0; i < h; i++)
        term_put(y + i, x, 1, role, term_glyphs->v);
}

void widget_box(Rect r, Role role, const char *title, Role title_role)
{
    if (r.w < 2 || r.h < 2)
        return;
    const Glyphs *g = term_glyphs;
    term_put(r.y, r.x, 1, role, g->tl);
    widget_hline(r.y, r.x + 1, r.w - 2, role);
    term_put(r.y, r.x + r.w - 1, 1, role, g->tr);
    widget_vline(r.y + 1, r.x, r.h - 2, role);
    widget_vline(r.y + 1, r.x + r.w - 1, r.h - 2, role);
    term_put(r.y + r.h - 1, r.x, 1, role, g->bl);
    widget_hline(r.y + r.h - 1, r.x + 1, r.w - 2, role);
    term_put(r.y + r.h - 1, r.x + r.w - 1, 1, role, g->br);
    if (title && *title && r.w > 4) {
        int used = term_put(r.y, r.x + 2, r.w - 4, title_role, " ");
        used += term_put(r.y, r.x + 2 + used, r.w - 4 - used, title_role, title);
        term_put(r.y, r.x + 2 + used, r.w - 4 - used, title_role, " ");
    }
}
