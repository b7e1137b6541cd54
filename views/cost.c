/* views/cost.c — the Cost pane: every option (on-prem, each cloud
 * instance × pricing) in the model's order (cheapest TCO first) as a table
 * with a bar of its TCO, $/GPU-hour, cost per training run, per million
 * output tokens and the build-vs-buy break-even utilisation. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "export_summary.h"
#include "fmt.h"
#include "tui/app.h"
#include "tui/units.h"
#include "yaml_plan.h"

typedef struct {
    int sel, top;
} CState;

static void *c_create(App *app)
{
    (void)app;
    return calloc(1, sizeof(CState));
}

static void c_destroy(View *v)
{
    free(v->state);
}

/* The first option of another accelerator: the options list the plan's
 * accelerator first, then the others for comparison (CostResult). */
static int c_boundary(const CostResult *cr)
{
    for (int i = 1; i < cr->n_options; i++)
        if (strcmp(cr->options[i].accelerator, cr->options[0].accelerator) != 0)
            return i;
    return cr->n_options;
}

/* Display rows: the options with one heading row before the comparison
 * group.  Row → option index, -1 for the heading. */
static int c_rows(const CostResult *cr, int *boundary)
{
    *boundary = c_boundary(cr);
    return cr->n_options + (*boundary < cr->n_options ? 1 : 0);
}

static int c_row_option(int row, int boundary)
{
    if (row < boundary)
        return row;
    if (row == boundary)
        return -1;
    return row - 1;
}

static int c_option_row(int k, int boundary)
{
    return k < boundary ? k : k + 1;
}

/* The instance part of an option's name, fitted to w columns: Azure's
 * common "Standard_" prefix goes first, then the tail behind an ellipsis. */
static void c_option_label(const CostOption *o, int w, char *buf, size_t len)
{
    /* on-prem: the accelerator (the pricing column says "on-prem") */
    const char *n = o->kind == COST_ONPREM ? o->accelerator : o->instance[0] ? o->instance : o->name;
    if (o->kind == COST_CLOUD && strncmp(n, "Standard_", 9) == 0 && term_strwidth(n) > w)
        n += 9;
    snprintf(buf, len, "%s", n);
    int bw = term_strwidth(buf);
    if (bw <= w || w < 2)
        return;
    /* ASCII instance names: keep what the ellipsis leaves room for */
    int mw = term_strwidth(term_glyphs->more);
    size_t keep = w > mw ? (size_t)(w - mw) : 0;
    if (keep > len - 1)
        keep = len - 1;
    snprintf(buf + keep, len - keep, "%s", term_glyphs->more);
}

static const char *c_pricing_label(const CostOption *o, bool brief)
{
    if (o->kind == COST_ONPREM)
        return "on-prem";
    if (!brief)
        return plan_pricing_name(o->pricing);
    switch (o->pricing) {
    case PRICING_ON_DEMAND: return "on-dem";
    case PRICING_RESERVED_1Y: return "res-1y";
    case PRICING_RESERVED_3Y: return "res-3y";
    default: return plan_pricing_name(o->pricing);
    }
}

enum { C_MARK, C_OPT, C_PRICE, C_TCO, C_BAR, C_GH, C_LIST, C_RUN, C_MTOK, C_BE, C_N };

static void c_draw(View *v, App *app, Rect r)
{
    CState *s = v->state;
    term_clear_rect(r, ROLE_NORMAL);
    const PlanResult *res = app_result(app);
    if (!res || !res->have_cost) {
        term_put(r.y + 1, r.x + 2, r.w - 2, ROLE_MUTED, res ? "cost: not computed" : "computing the first result...");
        return;
    }
    const CostResult *cr = &res->cost;
    if (cr->n_options == 0) {
        term_put(r.y + 1, r.x + 2, r.w - 2, ROLE_MUTED, "no cost options (prices missing from the catalog?)");
        return;
    }
    if (s->sel >= cr->n_options)
        s->sel = cr->n_options - 1;
    char line[400], a[32], yb[32];
    {
        char f0[96], f2[64], f3[64];
        snprintf(f0, sizeof f0, "TCO over %s, cheapest first", summary_years(app->plan.horizon_years, yb, sizeof yb));
        snprintf(f2, sizeof f2, "utilisation %s", units_pct(cr->utilization, a, sizeof a));
        char dates[48];
        if (summary_price_dates(cr, dates, sizeof dates)[0])
            snprintf(f3, sizeof f3, "prices as of %s", dates);
        else
            snprintf(f3, sizeof f3, "no price is dated");
        const char *items[] = {f0, f3, f2};
        widget_fields(r.y, r.x + 1, r.w - 2, ROLE_TITLE, items, 3);
    }
    /* columns by priority: option, pricing, TCO, $/GPU-h, per run, per
     * Mtok, break-even, then the bar takes what is left (dropped when it
     * would be too short to read) */
    int avail = r.w - 2;
    bool brief = avail < 100;
    TableCol cols[C_N] = {
        [C_MARK] = {"", 3, false}, [C_OPT] = {"option", 14, false},
        [C_PRICE] = {"pricing", brief ? 8 : 12, false}, [C_TCO] = {"TCO", 8, true},
        [C_BAR] = {"", 0, false}, [C_GH] = {"eff/GPU-h", 10, true},
        [C_LIST] = {"list/GPU-h", 11, true}, [C_RUN] = {"per run", 8, true},
        [C_MTOK] = {"per Mtok", 9, true}, [C_BE] = {"break-even", 11, true},
    };
    bool on[C_N] = {true, true, true, true, false, false, false, false, false, false};
    int used = cols[C_MARK].width + cols[C_OPT].width + cols[C_PRICE].width + cols[C_TCO].width;
    const int prio[] = {C_GH, C_BE, C_LIST, C_RUN, C_MTOK};
    for (int i = 0; i < 5; i++)
        if (used + cols[prio[i]].width <= avail) {
            on[prio[i]] = true;
            used += cols[prio[i]].width;
        }
    /* the option column grows to 24 before the bar gets room */
    int grow = avail - used - 10;
    if (grow > 10)
        grow = 10;
    if (grow > 0) {
        cols[C_OPT].width += grow;
        used += grow;
    }
    int bar_w = avail - used;
    if (bar_w > 50)
        bar_w = 50;
    if (bar_w >= 8) {
        on[C_BAR] = true;
        cols[C_BAR].width = bar_w;
    }
    TableCol vc[C_N];
    int map[C_N], nv = 0;
    for (int i = 0; i < C_N; i++)
        if (on[i]) {
            map[nv] = i;
            vc[nv++] = cols[i];
        }
    if (nv > 0 && !on[C_BAR])
        vc[nv - 1].width = 0; /* the last column takes the rest */
    widget_table_header(r.y + 1, r.x + 1, r.w - 2, vc, nv, ROLE_MUTED);
    double max_tco = 0;
    for (int i = 0; i < cr->n_options; i++)
        if (cr->options[i].tco_usd > max_tco)
            max_tco = cr->options[i].tco_usd;
    int detail_rows = r.h >= 24 ? 7 : r.h >= 16 ? 4 : 3;
    int h = r.h - 2 - detail_rows;
    if (h < 1)
        h = 1;
    int boundary, nrows = c_rows(cr, &boundary);
    widget_scroll(&s->top, c_option_row(s->sel, boundary), h, nrows);
    bool focused = app->focus == FOCUS_PANE && app->overlay < 0;
    for (int i = 0; i < h && s->top + i < nrows; i++) {
        int y = r.y + 2 + i;
        int k = c_row_option(s->top + i, boundary);
        if (k < 0) {
            snprintf(line, sizeof line, "other accelerators, each sized for the same workloads");
            if (term_strwidth(line) > r.w - 2)
                snprintf(line, sizeof line, "other accelerators");
            term_put(y, r.x + 1, r.w - 2, ROLE_TITLE, line);
            continue;
        }
        const CostOption *o = &cr->options[k];
        char mark[16], opt[96], tco[32], gh[32], lg[32], run[32], mt[32], be[32];
        fmt_usd(o->usd_per_gpu_hour_list, lg, sizeof lg);
        snprintf(mark, sizeof mark, "%s%s", k == cr->chosen ? term_glyphs->dot : "", k == cr->cheapest ? "$" : "");
        c_option_label(o, cols[C_OPT].width - 1, opt, sizeof opt);
        fmt_usd(o->tco_usd, tco, sizeof tco);
        fmt_usd(o->usd_per_gpu_hour, gh, sizeof gh);
        if (o->usd_per_training_run > 0) fmt_usd(o->usd_per_training_run, run, sizeof run); else snprintf(run, sizeof run, "-");
        if (o->usd_per_million_tokens > 0) fmt_usd(o->usd_per_million_tokens, mt, sizeof mt); else snprintf(mt, sizeof mt, "-");
        if (o->kind == COST_ONPREM)
            snprintf(be, sizeof be, "-");
        else
            summary_breakeven(o->breakeven_utilization, be, sizeof be);
        const char *all[C_N] = {mark, opt, c_pricing_label(o, brief), tco, "", gh, lg, run, mt, be};
        Role rowrole = k == s->sel ? (focused ? ROLE_SELECTION : ROLE_SELECTION_DIM) : ROLE_NORMAL;
        const char *cells[C_N];
        Role roles[C_N];
        for (int j = 0; j < nv; j++) {
            cells[j] = all[map[j]];
            roles[j] = rowrole;
            if (k != s->sel && (map[j] == C_MARK || map[j] == C_OPT) && (k == cr->chosen || k == cr->cheapest))
                roles[j] = k == cr->cheapest ? ROLE_GOOD : ROLE_VALUE;
        }
        widget_table_row(y, r.x + 1, r.w - 2, vc, nv, cells, rowrole, roles);
        if (on[C_BAR]) {
            int bx = r.x + 1;
            for (int j = 0; j < nv && map[j] != C_BAR; j++)
                bx += vc[j].width;
            widget_bar(y, bx, bar_w - 1, o->tco_usd, max_tco,
                       k == cr->cheapest ? ROLE_GOOD : o->kind == COST_ONPREM ? ROLE_SERIES1 : ROLE_SERIES2);
        }
    }
    /* detail of the selected option, as whole phrases over its rows */
    const CostOption *o = &cr->options[s->sel];
    Rect dr = {r.y + r.h - detail_rows, r.x, detail_rows, r.w};
    Canvas c;
    int dscroll = 0;
    canvas_begin(&c, dr, &dscroll);
    {
        char f0[160], f1[48], f2[48], f3[48], f4[48], f5[48], f6[48], f7[96], capex[32], opex[32], gh[32], run[32], mt[32];
        if (o->capex_usd > 0)
            snprintf(f1, sizeof f1, "capex %s", fmt_usd(o->capex_usd, capex, sizeof capex));
        else
            snprintf(f1, sizeof f1, "no capex");
        snprintf(f0, sizeof f0, "%s: %s", o->name, f1);
        f1[0] = '\0';
        snprintf(f2, sizeof f2, "opex %s/year", fmt_usd(o->opex_usd_per_year, opex, sizeof opex));
        units_n(o->gpus, "GPU", "GPUs", f3, sizeof f3);
        snprintf(f4, sizeof f4, "%s per GPU-hour used", fmt_usd(o->usd_per_gpu_hour, gh, sizeof gh));
        snprintf(f5, sizeof f5, "%s per run", o->usd_per_training_run > 0 ? fmt_usd(o->usd_per_training_run, run, sizeof run) : "-");
        snprintf(f6, sizeof f6, "%s per Mtok", o->usd_per_million_tokens > 0 ? fmt_usd(o->usd_per_million_tokens, mt, sizeof mt) : "-");
        if (o->breakeven_utilization >= 1)
            snprintf(f7, sizeof f7, "cheaper than on-prem at any utilisation");
        else if (o->breakeven_utilization > 0)
            snprintf(f7, sizeof f7, "cheaper than on-prem below %s utilisation",
                     summary_breakeven(o->breakeven_utilization, line, sizeof line));
        else
            f7[0] = '\0';
        const char *items[] = {f0, f1, f2, f3, f4, f5, f6, f7};
        canvas_fields(&c, 1, ROLE_VALUE, items, 8);
    }
    {
        char f0[96], f1[96];
        if (cr->chosen >= 0)
            snprintf(f0, sizeof f0, "%s plan's site", term_glyphs->dot);
        else
            snprintf(f0, sizeof f0, "the plan's site has no price in the catalog");
        snprintf(f1, sizeof f1, "$ cheapest on %s", cr->options[0].accelerator);
        const char *items[] = {f0, f1};
        canvas_fields(&c, 1, ROLE_MUTED, items, 2);
    }
    if (detail_rows >= 7) {
        /* the verdict, then what each team's share costs */
        char verdict[1024];
        summary_verdict(&app->plan, res, verdict, sizeof verdict);
        canvas_wrap(&c, 1, ROLE_VALUE, verdict);
        if (cr->n_showback) {
            char sb[400];
            size_t off = (size_t)snprintf(sb, sizeof sb, "showback per month:");
            for (int i = 0; i < cr->n_showback && off < sizeof sb; i++) {
                char u[32];
                int w = snprintf(sb + off, sizeof sb - off, "%s %s %s", i ? "," : "",
                                 cr->showback[i].team,
                                 fmt_usd(cr->showback[i].usd_per_month, u, sizeof u));
                off = w < 0 ? sizeof sb : off + (size_t)w;
            }
            canvas_wrap(&c, 1, ROLE_MUTED, sb);
        }
    }
    snprintf(line, sizeof line, "source: %s%s%s", o->source[0] ? o->source : "catalog", o->as_of[0] ? ", as of " : "", o->as_of);
    canvas_wrap(&c, 1, ROLE_MUTED, line);

}

static int c_key(View *v, App *app, Action a, int ch)
{
    CState *s = v->state;
    const PlanResult *res = app_result(app);
    int n = res && res->have_cost ? res->cost.n_options : 0;
    int page = app->geo.pane.h - 5 > 1 ? app->geo.pane.h - 5 : 1;
    switch (a) {
    case ACT_UP: if (s->sel > 0) s->sel--; return HR_HANDLED | HR_REDRAW;
    case ACT_DOWN: if (s->sel < n - 1) s->sel++; return HR_HANDLED | HR_REDRAW;
    case ACT_PGUP: s->sel = s->sel > page ? s->sel - page : 0; return HR_HANDLED | HR_REDRAW;
    case ACT_PGDN: s->sel = s->sel + page < n ? s->sel + page : (n ? n - 1 : 0); return HR_HANDLED | HR_REDRAW;
    case ACT_TOP: s->sel = 0; return HR_HANDLED | HR_REDRAW;
    case ACT_BOTTOM: s->sel = n ? n - 1 : 0; return HR_HANDLED | HR_REDRAW;
    case ACT_FIND_APPLY: case ACT_FIND_NEXT: case ACT_FIND_PREV: {
        int dir = a == ACT_FIND_PREV ? -1 : 1;
        size_t fl = strlen(app->find);
        for (int k = a == ACT_FIND_APPLY ? 0 : 1; k <= n && n > 0 && fl; k++) {
            int i = ((s->sel + dir * k) % n + n) % n;
            for (const char *c = res->cost.options[i].name; *c; c++)
                if (strncasecmp(c, app->find, fl) == 0) {
                    s->sel = i;
                    return HR_HANDLED | HR_REDRAW;
                }
        }
        app_status(app, true, "not found: %s", app->find);
        return HR_HANDLED | HR_REDRAW;
    }
    default:
        break;
    }
    if (ch == KEY_MOUSE) {
        int row = app->mouse_y - app->geo.pane.y - 2 + s->top;
        int boundary = 0, nrows = n ? c_rows(&res->cost, &boundary) : 0;
        int k = row >= 0 && row < nrows ? c_row_option(row, boundary) : -1;
        if (k >= 0)
            s->sel = k;
        return HR_HANDLED | HR_REDRAW;
    }
    return HR_UNHANDLED;
}

/* A tab shown again, or another plan: from the top, not where an earlier
 * content left the offsets (stale scroll; issue 15). */
static void c_show(View *v, App *app)
{
    (void)app;
    if (v->state)
        memset(v->state, 0, sizeof(CState));
}

const ViewOps view_cost_ops = {
    .name = "Cost", .abbrev = "Cost", .ctx = CTX_PANE,
    .create = c_create, .draw = c_draw, .key = c_key, .destroy = c_destroy,
    .show = c_show,
};
