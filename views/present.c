/* views/present.c — presenter mode (P): the plan for a projector.  The ask
 * in one sentence, four numbers in large type (GPUs, training days, facility
 * MW, TCO), the verdict and the top three risks, in the high-contrast roles
 * of the theme.  The sentences are the exports' own (export_summary.h) so
 * the room hears what the report says.  Only formats the PlanResult. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_summary.h"
#include "fmt.h"
#include "tui/app.h"
#include "tui/units.h"

/* A 5-row block font: '#' is a filled cell.  Glyphs are 3 columns wide
 * except the narrow punctuation and the wide M and W. */
typedef struct {
    char ch;
    const char *rows[5];
} BigGlyph;

static const BigGlyph font[] = {
    {'0', {"###", "# #", "# #", "# #", "###"}}, {'1', {" # ", "## ", " # ", " # ", "###"}},
    {'2', {"###", "  #", "###", "#  ", "###"}}, {'3', {"###", "  #", " ##", "  #", "###"}},
    {'4', {"# #", "# #", "###", "  #", "  #"}}, {'5', {"###", "#  ", "###", "  #", "###"}},
    {'6', {"###", "#  ", "###", "# #", "###"}}, {'7', {"###", "  #", "  #", "  #", "  #"}},
    {'8', {"###", "# #", "###", "# #", "###"}}, {'9', {"###", "# #", "###", "  #", "###"}},
    {'.', {" ", " ", " ", " ", "#"}},           {',', {" ", " ", " ", "#", "#"}},
    {'$', {" ##", "## ", " # ", " ##", "## "}}, {'%', {"# #", "  #", " # ", "#  ", "# #"}},
    {'-', {"   ", "   ", "###", "   ", "   "}}, {'/', {"  #", "  #", " # ", "#  ", "#  "}},
    {'B', {"## ", "# #", "## ", "# #", "## "}}, {'k', {"#  ", "# #", "## ", "# #", "# #"}},
    {'G', {"###", "#  ", "# #", "# #", "###"}}, {'T', {"###", " # ", " # ", " # ", " # "}},
    {'d', {"  #", "  #", "###", "# #", "###"}}, {'y', {"# #", "# #", "###", "  #", "###"}},
    {'M', {"#   #", "## ##", "# # #", "#   #", "#   #"}},
    {'W', {"#   #", "#   #", "# # #", "## ##", "#   #"}},
    {' ', {"  ", "  ", "  ", "  ", "  "}},
};

static const BigGlyph *glyph(char c)
{
    for (size_t i = 0; i < sizeof font / sizeof font[0]; i++)
        if (font[i].ch == c)
            return &font[i];
    return NULL;
}

/* Columns text takes in large type at horizontal scale sx (1 or 2). */
static int big_width(const char *s, int sx)
{
    int w = 0;
    for (; *s; s++) {
        const BigGlyph *g = glyph(*s);
        w += (g ? (int)strlen(g->rows[0]) : 1) * sx + 1;
    }
    return w > 0 ? w - 1 : 0;
}

/* Draw s in large type, 5 rows from (y, x); characters without a glyph are
 * written small on the middle row. */
static void big_text(int y, int x, int maxw, int sx, Role role, const char *s)
{
    const char *cell = term_utf8 ? "█" : "#";
    int cx = 0;
    for (; *s; s++) {
        const BigGlyph *g = glyph(*s);
        int gw = g ? (int)strlen(g->rows[0]) * sx : 1;
        if (cx + gw > maxw)
            break;
        for (int row = 0; row < 5; row++) {
            if (!g) {
                if (row == 2) {
                    char one[2] = {*s, 0};
                    term_put(y + row, x + cx, 1, role, one);
                }
                continue;
            }
            for (int k = 0; g->rows[row][k]; k++)
                if (g->rows[row][k] == '#')
                    for (int d = 0; d < sx; d++)
                        term_put(y + row, x + cx + k * sx + d, 1, role, cell);
        }
        cx += gw + 1;
    }
}

#define TILE_ROWS 6

typedef struct {
    char label[48];
    char value[32];
    char sub[96];
    Role role;               /* of the value: missed targets in the bad role */
} Tile;

/* One number: its label with the line about it, then the value in large
 * type (small when it does not fit).  Returns rows used. */
static int draw_tile(int y, int x, int w, const Tile *t)
{
    int used = term_put_ellipsis(y, x, w, ROLE_TITLE, t->label);
    if (w - used > 4)
        term_put_ellipsis(y, x + used + 2, w - used - 2, ROLE_MUTED, t->sub);
    int sx = big_width(t->value, 2) <= w ? 2 : 1;
    if (big_width(t->value, sx) <= w)
        big_text(y + 1, x, w, sx, t->role, t->value);
    else
        term_put_ellipsis(y + 3, x, w, t->role, t->value);
    return TILE_ROWS;
}

/* The four numbers of the ask. */
static int tiles(const App *app, const PlanResult *r, Tile *t)
{
    int n = 0;
    char buf[64];
    memset(t, 0, 4 * sizeof *t);
    for (int i = 0; i < 4; i++)
        t[i].role = ROLE_HEADER_ACCENT;
    if (r->have_layout) {
        snprintf(t[n].label, sizeof t[n].label, "GPUs");
        fmt_int(r->cluster.gpus, t[n].value, sizeof t[n].value);
        snprintf(t[n].sub, sizeof t[n].sub, "%s, %s", r->cluster.accelerator, units_n(r->cluster.racks, "rack", "racks", buf, sizeof buf));
        n++;
    }
    /* the longest training run sets the calendar */
    int longest = -1;
    for (int i = 0; i < r->n_workloads; i++)
        if (r->workloads[i].kind == WL_TRAINING && r->workloads[i].ok &&
            (longest < 0 || r->workloads[i].train.train_days > r->workloads[longest].train.train_days))
            longest = i;
    if (longest >= 0) {
        const WorkloadResult *w = &r->workloads[longest];
        snprintf(t[n].label, sizeof t[n].label, "days to train");
        snprintf(t[n].value, sizeof t[n].value, "%.1f", w->train.train_days);
        double target = 0;
        for (int i = 0; i < app->plan.n_workloads; i++)
            if (strcmp(app->plan.workloads[i].name, w->name) == 0)
                target = app->plan.workloads[i].target_days;
        if (target > 0)
            snprintf(t[n].sub, sizeof t[n].sub, "%s, target %g d%s", w->name, target,
                     w->train.meets_target ? "" : " MISSED");
        if (!w->train.meets_target)
            t[n].role = ROLE_BAD;
        else
            snprintf(t[n].sub, sizeof t[n].sub, "%s on %s GPUs", w->name,
                     fmt_int(w->train.gpus, buf, sizeof buf));
        n++;
    }
    if (r->have_power) {
        snprintf(t[n].label, sizeof t[n].label, "facility power");
        fmt_si(r->power.facility_kw * 1e3, "W", t[n].value, sizeof t[n].value);
        snprintf(t[n].sub, sizeof t[n].sub, "IT %s, PUE %.2f",
                 fmt_si(r->power.it_kw * 1e3, "W", buf, sizeof buf), app->plan.site.pue);
        n++;
    }
    if (r->have_cost) {
        int k = r->cost.chosen >= 0 ? r->cost.chosen : r->cost.cheapest;
        if (k >= 0 && k < r->cost.n_options) {
            const CostOption *o = &r->cost.options[k];
            char yrs[32];
            snprintf(t[n].label, sizeof t[n].label, "TCO");
            fmt_usd(o->tco_usd, t[n].value, sizeof t[n].value);
            /* the range first (it is what a finance partner asks): the
             * Monte Carlo P10-P90 over the plan's / catalog's ranges, the
             * same figures as the header and the Sensitivity tab */
            const McResult *mc = app_monte_carlo(app);
            char range[64];
            if (mc && mc->samples > 0 && mc->tco.p90 > 0) {
                char lo[24], hi[24];
                snprintf(range, sizeof range, "P10-P90 %s-%s, ", fmt_usd(mc->tco.p10, lo, sizeof lo),
                         fmt_usd(mc->tco.p90, hi, sizeof hi));
            } else {
                snprintf(range, sizeof range, "%s", app_ranges_stale(app) ? "range computing, " : "");
            }
            snprintf(t[n].sub, sizeof t[n].sub, "%s%s, %s", range, o->name,
                     summary_years(app->plan.horizon_years, yrs, sizeof yrs));
            n++;
        }
    }
    return n;
}

/* The top three risks: the plan's warnings (a late run, a missed SLO,
 * an unpriced part: what is wrong now) in the model's order, then what
 * would flip the build-vs-buy verdict, then the assumption that swings the
 * TCO most (the Sensitivity tab's tornado), until there are three. */
static int risks(const App *app, const PlanResult *r, char out[3][1024])
{
    int n = 0;
    for (int i = 0; i < r->n_warnings && n < 3; i++)
        snprintf(out[n++], sizeof out[0], "%s", r->warnings[i]);
    const SensResult *s = app_sensitivity(app);
    if (!s)
        return n;
    if (n < 3 && s->n_deciders > 0 && s->sentence[0])
        snprintf(out[n++], sizeof out[0], "the verdict is fragile: %s", s->sentence);
    for (int i = 0; i < s->n_bars && n < 3; i++) {
        const SensBar *b = &s->bars[i];
        if (b->flips || !(b->swing_tco > 0))
            continue;
        char lo[48], hi[48], sw[24];
        sens_format_value(b->knob, b->low, lo, sizeof lo);
        sens_format_value(b->knob, b->high, hi, sizeof hi);
        snprintf(out[n++], sizeof out[0], "TCO moves by %s as %s ranges %s to %s",
                 fmt_usd(b->swing_tco, sw, sizeof sw), sens_knob_label(b->knob), lo, hi);
        break;
    }
    return n;
}

static void p_draw(View *v, App *app, Rect r)
{
    (void)v;
    term_clear_rect(r, ROLE_NORMAL);
    const PlanResult *res = app_result(app);
    int x = r.x + 2, w = r.w - 4, y = r.y;
    char line[1024];
    snprintf(line, sizeof line, "%s%s%s", app->plan.name, app->modified ? " (unsaved edits)" : "",
             app_recomputing(app) ? "  recomputing..." : "");
    term_put_ellipsis(y++, x, w, ROLE_TITLE, line);
    if (!res) {
        term_put(y + 1, x, w, ROLE_MUTED, "computing the first result...");
        return;
    }
    summary_ask(&app->plan, res, line, sizeof line);
    Canvas c;
    int scroll = 0;
    /* a short screen keeps the rows for the numbers and the risks */
    bool tight = r.h < 30;
    int ask_rows = tight ? 1 : 3;
    if (tight) {
        term_put_ellipsis(y++, x, w, ROLE_VALUE, line);
    } else {
        Rect ask = {y, x, ask_rows, w};
        canvas_begin(&c, ask, &scroll);
        canvas_wrap(&c, 0, ROLE_VALUE, line);
        y += c.line < ask_rows ? c.line : ask_rows;
    }
    int gap = tight ? 0 : 1;
    Tile t[4];
    int n = tiles(app, res, t);
    /* two tiles a row, or four when there is room */
    int per_row = w >= 4 * 34 ? 4 : 2;
    int tw = (w - (per_row - 1) * 2) / per_row;
    for (int i = 0; i < n; i++) {
        int row = i / per_row, col = i % per_row;
        if (y + gap + (row + 1) * (TILE_ROWS + gap) > r.y + r.h - 4)
            break;
        draw_tile(y + gap + row * (TILE_ROWS + gap), x + col * (tw + 2), tw, &t[i]);
    }
    y += gap + ((n + per_row - 1) / per_row) * (TILE_ROWS + gap) + (tight ? 1 : 0);
    if (y > r.y + r.h - 4)
        y = r.y + r.h - 4;
    summary_recommendation(&app->plan, res, line, sizeof line);
    Rect rest = {y, x, r.y + r.h - y, w};
    canvas_begin(&c, rest, &scroll);
    char verdict[1100];
    /* a short screen keeps the verdict's first sentence and one line per
     * risk, so all three risks stay on an 80x24 projector */
    char *stop = tight ? strstr(line, ". ") : NULL;
    if (stop)
        stop[1] = '\0';
    snprintf(verdict, sizeof verdict, "VERDICT  %s", line);
    canvas_wrap(&c, 0, ROLE_GOOD, verdict);
    char risk[3][1024];
    int nr = risks(app, res, risk);
    int cy = canvas_next(&c);
    if (cy >= 0)
        term_put(cy, x, w, ROLE_TITLE, nr ? "TOP RISKS" : "TOP RISKS  none flagged");
    for (int i = 0; i < nr; i++) {
        snprintf(line, sizeof line, "%d. %.1000s", i + 1, risk[i]);
        if (tight) {
            cy = canvas_next(&c);
            if (cy >= 0)
                term_put_ellipsis(cy, x, w, ROLE_WARNING, line);
        } else {
            canvas_wrap(&c, 0, ROLE_WARNING, line);
        }
    }
}

static int p_key(View *v, App *app, Action a, int ch)
{
    (void)v;
    (void)ch;
    if (a == ACT_PRESENT) {
        app_close_overlay(app);
        return HR_HANDLED | HR_REDRAW;
    }
    return HR_UNHANDLED;
}

const ViewOps view_present_ops = {
    .name = "Presenter", .abbrev = "Present", .ctx = CTX_PRESENT,
    .create = NULL, .draw = p_draw, .key = p_key,
};
