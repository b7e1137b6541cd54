/* tui/layout.c — screen geometry and the chrome around the views: header,
 * tabs, separators, status line and footer.  Side by side from 100
 * columns; below that the left block (list | form) sits above the tabbed
 * pane and the tabs abbreviate. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app.h"
#include "fmt.h"

#define MIN_LINES 24
#define MIN_COLS 80

static Rect rect(int y, int x, int h, int w)
{
    Rect r = {y, x, h < 0 ? 0 : h, w < 0 ? 0 : w};
    return r;
}

bool layout_in(Rect r, int y, int x)
{
    return y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w;
}

void layout_compute(Geometry *g, int lines, int cols)
{
    memset(g, 0, sizeof *g);
    g->lines = lines;
    g->cols = cols;
    g->too_small = lines < MIN_LINES || cols < MIN_COLS;
    g->header = rect(0, 0, 1, cols);
    g->footer = rect(lines - 1, 0, 1, cols);
    g->status = rect(lines - 2, 0, 1, cols);
    /* the warnings strip: the plan's warnings are never only in `eval` */
    g->warn = rect(lines - 3, 0, 1, cols);
    g->body = rect(1, 0, lines - 4, cols);
    g->stacked = cols < 100;
    g->abbrev_tabs = cols < 90;
    if (!g->stacked) {
        int lw = cols * 34 / 100;
        if (lw < 34) lw = 34;
        if (lw > 56) lw = 56;
        g->left = rect(g->body.y, 0, g->body.h, lw);
        int list_h = g->body.h * 2 / 5;
        if (list_h < 5) list_h = 5;
        g->list = rect(g->left.y, 0, list_h, lw);
        g->form = rect(g->left.y + list_h + 1, 0, g->left.h - list_h - 1, lw);
        g->tabs = rect(g->body.y, lw + 1, 1, cols - lw - 1);
        g->pane = rect(g->body.y + 1, lw + 1, g->body.h - 1, cols - lw - 1);
    } else {
        int top = g->body.h * 2 / 5;
        if (top < 7) top = 7;
        if (top > 12) top = 12;
        int lw = cols * 2 / 5;
        g->left = rect(g->body.y, 0, top, cols);
        g->list = rect(g->body.y, 0, top, lw);
        g->form = rect(g->body.y, lw + 1, top, cols - lw - 1);
        g->tabs = rect(g->body.y + top + 1, 0, 1, cols);
        g->pane = rect(g->body.y + top + 2, 0, g->body.h - top - 2, cols);
    }
}

int layout_tab_at(const Geometry *g, int y, int x)
{
    if (y != g->tabs.y)
        return -1;
    for (int i = 0; i < TAB_COUNT; i++)
        if (x >= g->tab_x[i] && x < g->tab_x[i + 1] - 1)
            return i;
    return -1;
}

static void draw_header(App *app)
{
    const Geometry *g = &app->geo;
    const PlanResult *r = app_result(app);
    int y = g->header.y, w = g->header.w;
    term_fill(y, 0, w, ROLE_HEADER, " ");
    char buf[256], ver[64], mod[64];
    if (app->version > 0)
        snprintf(ver, sizeof ver, " v%d", app->version);
    else
        snprintf(ver, sizeof ver, " (unsaved)");

    /* right side: accelerator × count │ facility │ the plan's TCO / horizon,
     * spinner */
    char right[400], a[160], b[64], c[160];
    if (r && r->have_layout && r->cluster.n_islands > 1) {
        /* every part installed, not only the plan's (a workload moved to
         * H200 is counted as H200) */
        a[0] = '\0';
        for (int i = 0; i < r->cluster.n_islands; i++) {
            size_t l = strlen(a);
            snprintf(a + l, sizeof a - l, "%s%s %s%s", i ? " + " : "", r->cluster.islands[i].accelerator,
                     term_glyphs->times, fmt_int(r->cluster.islands[i].gpus, buf, sizeof buf));
        }
    } else if (r && r->have_layout)
        snprintf(a, sizeof a, "%s %s%s", r->cluster.accelerator[0] ? r->cluster.accelerator
                                                                    : app->plan.accelerator,
                 term_glyphs->times, fmt_int(r->cluster.gpus, buf, sizeof buf));
    else
        snprintf(a, sizeof a, "%s %s-", app->plan.accelerator, term_glyphs->times);
    if (r && r->have_power)
        fmt_si(r->power.facility_kw * 1e3, "W", b, sizeof b);
    else
        snprintf(b, sizeof b, "- MW");
    /* the plan's own site when priced (CostResult.chosen), else the
     * cheapest option */
    int k = -1;
    if (r && r->have_cost)
        k = r->cost.chosen >= 0 && r->cost.chosen < r->cost.n_options ? r->cost.chosen
            : r->cost.cheapest >= 0 && r->cost.cheapest < r->cost.n_options ? r->cost.cheapest : -1;
    /* the Monte Carlo P10-P90 of the TCO beside it, when there is room */
    char crange[160] = "";
    if (k >= 0) {
        char usd[32];
        fmt_usd(r->cost.options[k].tco_usd, usd, sizeof usd);
        /* say so when the plan's own site has no price */
        snprintf(c, sizeof c, "%s%s / %gy", k == r->cost.chosen ? "" : "cheapest ", usd, app->plan.horizon_years);
        const McResult *mc = app_monte_carlo(app);
        if (mc && k == r->cost.chosen) {
            char lo[32], hi[32];
            snprintf(crange, sizeof crange, "%s (P10-P90 %s-%s) / %gy", usd,
                     fmt_usd(mc->tco.p10, lo, sizeof lo), fmt_usd(mc->tco.p90, hi, sizeof hi),
                     app->plan.horizon_years);
        }
    } else {
        snprintf(c, sizeof c, "cost not computed");
    }
    const char *spin = app_recomputing(app) ? term_glyphs->spinner[app->spinner % term_glyphs->n_spinner] : " ";

    /* Narrower and narrower until it fits: the plan, its modified marker,
     * GPUs, MW and $ are the essentials; the rule after "gpuplan" and the
     * word "modified" go first, then the facility load. */
    char plain[sizeof c];
    snprintf(plain, sizeof plain, "%s", c);
    for (int level = crange[0] ? -1 : 0; level < 4; level++) {
        bool compact = level >= 1, no_mw = level >= 2;
        snprintf(c, sizeof c, "%s", level < 0 ? crange : plain);
        if (app->modified)
            snprintf(mod, sizeof mod, compact ? " %s" : " %s modified", term_glyphs->dot);
        else
            mod[0] = '\0';
        if (no_mw)
            snprintf(right, sizeof right, " %s %s %s %s ", a, term_glyphs->v, c, spin);
        else
            snprintf(right, sizeof right, " %s %s %s %s %s %s ", a, term_glyphs->v, b, term_glyphs->v, c, spin);
        int lw = term_strwidth(compact ? " gpuplan " : " gpuplan  ") + 1 + term_strwidth(app->plan.name) +
                 term_strwidth(ver) + term_strwidth(mod) + 1;
        int rw = term_strwidth(right);
        if (lw + rw + 2 <= w || level == 3) {
            int x = 0;
            x += term_put(y, x, w - x, ROLE_HEADER_ACCENT, " gpuplan ");
            if (!compact) {
                x += term_put(y, x, w - x, ROLE_HEADER, term_glyphs->h);
                x += term_put(y, x, w - x, ROLE_HEADER_ACCENT, " ");
            }
            /* a plan name too long for what is left is abbreviated */
            int name_room = w - rw - x - term_strwidth(ver) - term_strwidth(mod) - 1;
            x += term_put_ellipsis(y, x, name_room > 4 ? name_room : 4, ROLE_HEADER_ACCENT, app->plan.name);
            x += term_put(y, x, w - x, ROLE_HEADER, ver);
            if (mod[0])
                x += term_put(y, x, w - x, ROLE_MODIFIED, mod);
            x += term_put(y, x, w - x, ROLE_HEADER, " ");
            if (rw < w - x) {
                term_fill(y, x, w - rw - x, ROLE_HEADER, term_glyphs->h);
                term_put(y, w - rw, rw, ROLE_HEADER_ACCENT, right);
            } else {
                term_put_right(y, x, w - x, ROLE_HEADER_ACCENT, right);
            }
            break;
        }
    }
}

static void draw_tabs(App *app)
{
    Geometry *g = &app->geo;
    int y = g->tabs.y, x = g->tabs.x, w = g->tabs.w;
    term_fill(y, x, w, ROLE_TAB, " ");
    /* Full names where they fit: while the line is too narrow, the longest
     * full name gives way to its abbreviation (narrow screens: all of them). */
    bool abbrev[TAB_COUNT];
    int total = 1;
    for (int i = 0; i < TAB_COUNT; i++) {
        const ViewOps *ops = app->views[TAB_FIRST + i].ops;
        abbrev[i] = g->abbrev_tabs;
        total += term_strwidth(abbrev[i] ? ops->abbrev : ops->name) + 5; /* " N name " + " " */
    }
    while (total > w) {
        int longest = -1, lw = 0;
        for (int i = 0; i < TAB_COUNT; i++) {
            const ViewOps *ops = app->views[TAB_FIRST + i].ops;
            int saves = term_strwidth(ops->name) - term_strwidth(ops->abbrev);
            if (!abbrev[i] && saves > 0 && term_strwidth(ops->name) > lw) {
                longest = i;
                lw = term_strwidth(ops->name);
            }
        }
        if (longest < 0)
            break;
        const ViewOps *ops = app->views[TAB_FIRST + longest].ops;
        total -= term_strwidth(ops->name) - term_strwidth(ops->abbrev);
        abbrev[longest] = true;
    }
    int used = 1;
    for (int i = 0; i < TAB_COUNT; i++) {
        const ViewOps *ops = app->views[TAB_FIRST + i].ops;
        const char *name = abbrev[i] ? ops->abbrev : ops->name;
        char label[48];
        snprintf(label, sizeof label, " %d %s ", i + 1, name);
        g->tab_x[i] = x + used;
        bool active = app->tab == TAB_FIRST + i;
        used += term_put(y, x + used, w - used, active ? ROLE_TAB_ACTIVE : ROLE_TAB, label);
        used += term_put(y, x + used, w - used, ROLE_TAB, " ");
    }
    g->tab_x[TAB_COUNT] = x + used;
    if (app_recomputing(app)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s recomputing%s ", term_glyphs->spinner[app->spinner % term_glyphs->n_spinner],
                 term_utf8 ? "…" : "...");
        if (w - used > term_strwidth(buf))
            term_put_right(y, x + used, w - used, ROLE_WARNING, buf);
    }
}

static void draw_footer(App *app)
{
    const Geometry *g = &app->geo;
    int y = g->footer.y, w = g->footer.w;
    term_fill(y, 0, w, ROLE_FOOTER, " ");
    unsigned ctx;
    if (app->overlay >= 0)
        ctx = app->views[app->overlay].ops->ctx;
    else if (app->focus == FOCUS_PANE)
        ctx = app->views[app->tab].ops->ctx;
    else
        ctx = app->focus == FOCUS_LIST ? CTX_LIST : CTX_FORM;
    const KeyBinding *b[40];
    int n = keys_footer(ctx, b, 40);
    /* the way out (q Quit / q Back) always shows, at the right end */
    const KeyBinding *out = NULL;
    for (int i = 0; i < n; i++)
        if (b[i]->action == ACT_QUIT || b[i]->action == ACT_CLOSE) {
            out = b[i];
            memmove(&b[i], &b[i + 1], (size_t)(n - i - 1) * sizeof b[0]);
            n--;
            break;
        }
    int right = w;
    if (out) {
        int ow = term_strwidth(out->label) + term_strwidth(out->short_help) + 2;
        right = w - ow;
        term_put(y, right + 1, ow, ROLE_FOOTER_KEY, out->label);
        term_put(y, right + 2 + term_strwidth(out->label), ow, ROLE_FOOTER, out->short_help);
    }
    int x = 0;
    for (int i = 0; i < n && x < right; i++) {
        int need = term_strwidth(b[i]->label) + term_strwidth(b[i]->short_help) + 2;
        if (x + need > right)
            break;
        x += term_put(y, x, right - x, ROLE_FOOTER, " ");
        x += term_put(y, x, right - x, ROLE_FOOTER_KEY, b[i]->label);
        x += term_put(y, x, right - x, ROLE_FOOTER, " ");
        x += term_put(y, x, right - x, ROLE_FOOTER, b[i]->short_help);
    }
}

static void draw_separators(App *app)
{
    const Geometry *g = &app->geo;
    if (!g->stacked) {
        widget_vline(g->body.y, g->left.w, g->body.h, ROLE_BORDER);
        widget_hline(g->list.y + g->list.h, 0, g->left.w, ROLE_BORDER);
        term_put(g->list.y + g->list.h, g->left.w, 1, ROLE_BORDER, term_glyphs->rt);
    } else {
        widget_vline(g->list.y, g->list.w, g->list.h, ROLE_BORDER);
        widget_hline(g->left.y + g->left.h, 0, g->cols, ROLE_BORDER);
        term_put(g->left.y + g->left.h, g->list.w, 1, ROLE_BORDER, term_glyphs->bt);
    }
}

/* One row above the status line: how many warnings the result has and the
 * first of them (w lists them all), or that there are none. */
static void draw_warnings(App *app)
{
    const Geometry *g = &app->geo;
    const PlanResult *r = app_result(app);
    int y = g->warn.y, w = g->warn.w;
    term_fill(y, 0, w, ROLE_NORMAL, " ");
    if (!r) {
        term_put(y, 1, w - 1, ROLE_MUTED, "warnings: computing…");
        return;
    }
    if (r->n_warnings == 0) {
        term_put(y, 1, w - 1, ROLE_MUTED, "no warnings");
        return;
    }
    char head[64], more[48];
    snprintf(head, sizeof head, "%s %d warning%s ", term_utf8 ? "⚠" : "!", r->n_warnings,
             r->n_warnings == 1 ? "" : "s");
    snprintf(more, sizeof more, r->n_warnings > 1 ? "  w: all %d" : "  w: show", r->n_warnings);
    int x = 1 + term_put(y, 1, w - 1, ROLE_WARNING, head);
    int mw = term_strwidth(more);
    if (w - x - mw > 8) {
        term_put_ellipsis(y, x, w - x - mw - 1, ROLE_WARNING, r->warnings[0]);
        term_put(y, w - mw - 1, mw, ROLE_MUTED, more);
    }
}

void layout_draw_chrome(App *app)
{
    draw_header(app);
    draw_warnings(app);
    if (app->overlay < 0) {
        draw_tabs(app);
        if (!app->zoom)
            draw_separators(app);
    }
    draw_footer(app);
}
