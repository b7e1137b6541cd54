/* tui/w_bar.c — bars and stacked bars with eighth-cell resolution. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "widgets.h"

/* Draw `eighths` eighths of cells starting at x (whole cells, then one
 * partial cell); returns cells touched. */
/* The fill of a segment: a full block in colour themes; without colours
 * a texture per series (█ ▒ ░ ▓ ▒ ▓) so that the segments the views put
 * side by side differ (memory 1-5, step 1-6, power 1,2,3,6). */
static const char *seg_glyph(Role role)
{
    if (theme_series_color() || role < ROLE_SERIES1 || role > ROLE_SERIES6)
        return term_glyphs->eighths[8];
    const char *dark = term_utf8 ? "▓" : "%";
    switch (role - ROLE_SERIES1) {
    case 1: case 4: return term_glyphs->shade_mid;
    case 2: return term_glyphs->shade_light;
    case 3: case 5: return dark;
    default: return term_glyphs->shade_full;
    }
}

static int draw_eighths(int y, int x, int maxw, long eighths, Role role)
{
    if (eighths <= 0 || maxw <= 0)
        return 0;
    int full = (int)(eighths / 8), part = (int)(eighths % 8);
    if (full > maxw) {
        full = maxw;
        part = 0;
    }
    term_fill(y, x, full, role, term_glyphs->eighths[8]);
    if (part && full < maxw) {
        term_put(y, x + full, 1, role, term_glyphs->eighths[part]);
        return full + 1;
    }
    return full;
}

void widget_bar(int y, int x, int w, double value, double max, Role role)
{
    if (w <= 0 || !(max > 0) || !isfinite(value) || value <= 0)
        return;
    double frac = value >= max ? 1.0 : value / max;
    draw_eighths(y, x, w, lround(frac * w * 8), role);
}

void widget_stacked_bar(int y, int x, int w, const BarSeg *segs, int n, double scale_max,
                        double limit, Role limit_role)
{
    if (w <= 0 || !(scale_max > 0))
        return;
    int col = 0;
    double acc = 0;
    for (int i = 0; i < n && col < w; i++) {
        double v = segs[i].value;
        if (!(v > 0) || !isfinite(v))
            continue;
        acc += v;
        /* cells end where the cumulative value ends, so rounding never drifts */
        int end = (int)lround(acc / scale_max * w);
        if (end <= col)
            end = col + 1;
        if (end > w)
            end = w;
        term_fill(y, x + col, end - col, segs[i].role, seg_glyph(segs[i].role));
        col = end;
    }
    if (limit > 0 && limit <= scale_max) {
        int lc = (int)lround(limit / scale_max * w);
        if (lc >= w)
            lc = w - 1;
        if (lc < 0)
            lc = 0;
        term_put(y, x + lc, 1, acc > limit ? ROLE_CRITICAL : limit_role, term_glyphs->v);
    }
}

int widget_legend(int y, int x, int w, const BarSeg *segs, const char *const *labels, int n)
{
    int used = 0;
    for (int i = 0; i < n && used < w; i++) {
        /* whole entries only: a cut label would name the wrong thing */
        if (used + (i ? 2 : 0) + 2 + term_strwidth(labels[i]) > w)
            break;
        if (i)
            used += term_put(y, x + used, w - used, ROLE_NORMAL, "  ");
        used += term_put(y, x + used, w - used, segs[i].role, seg_glyph(segs[i].role));
        used += term_put(y, x + used, w - used, ROLE_NORMAL, " ");
        used += term_put(y, x + used, w - used, ROLE_LABEL, labels[i]);
    }
    return used;
}

void canvas_bar_axis(Canvas *c, int x, int w, double lo, double hi, const char *name, AxisFmt fmt,
                     const void *ctx)
{
    int y = canvas_next(c);
    if (y >= 0) {
        for (int i = 0; i < w; i++)
            term_put(y, x + i, 1, ROLE_MUTED,
                     i == 0 || i == w / 2 || i == w - 1 ? (term_utf8 ? "┬" : "+")
                                                        : (term_utf8 ? "─" : "-"));
    }
    y = canvas_next(c);
    if (y < 0)
        return;
    char a[32], b[32], d[32];
    fmt(lo, a, sizeof a, ctx);
    fmt((lo + hi) / 2, b, sizeof b, ctx);
    fmt(hi, d, sizeof d, ctx);
    term_put(y, x, w, ROLE_MUTED, a);
    int bl = (int)strlen(b);
    if (w / 2 - bl / 2 > (int)strlen(a) + 1)
        term_put(y, x + w / 2 - bl / 2, bl, ROLE_MUTED, b);
    term_put_right(y, x, w, ROLE_MUTED, d);
    term_put(y, x + w + 1, 12, ROLE_LABEL, name);
}
