/* views/cost.c — the Cost pane: every option (on-prem, each cloud
 * instance × pricing) in the model's order (cheapest TCO first) as a table
 * with a bar of its TCO, $/GPU-hour, cost per training run, per million
 * output tokens and the build-vs-buy break-even utilisation. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    char line[400], a[32];
    snprintf(line, sizeof line, "total cost of ownership over %g years, cheapest first; on-prem utilisation %s",
             app->plan.horizon_years, units_pct(cr->utilization, a, sizeof a));
    term_put(r.y, r.x + 1, r.w - 1, ROLE_TITLE, line);
    /* option, TCO, bar, then as many of the numeric columns as fit */
    TableCol cols[8] = {
        {"option", 24, false}, {"TCO", 9, true}, {"", 0, false}, {"$/GPU-h", 9, true},
        {"per run", 9, true}, {"per Mtok", 9, true}, {"break-even", 11, true}, {"", 0, false},
    };
    int avail = r.w - 2, ncols = 3, fixed = 24 + 9;
    while (ncols < 7 && fixed + cols[ncols].width + 10 <= avail) {
        fixed += cols[ncols].width;
        ncols++;
    }
    int bar_w = avail - fixed;
    if (bar_w > 30) {
        cols[0].width += bar_w - 30 < 16 ? bar_w - 30 : 16;
        bar_w = avail - fixed - (cols[0].width - 24);
        if (bar_w > 30)
            bar_w = 30;
    }
    cols[2].width = bar_w;
    widget_table_header(r.y + 1, r.x + 1, r.w - 1, cols, ncols, ROLE_MUTED);
    double max_tco = 0;
    for (int i = 0; i < cr->n_options; i++)
        if (cr->options[i].tco_usd > max_tco)
            max_tco = cr->options[i].tco_usd;
    int detail_rows = 3;
    int h = r.h - 2 - detail_rows;
    if (h < 1)
        h = 1;
    widget_scroll(&s->top, s->sel, h, cr->n_options);
    bool focused = app->focus == FOCUS_PANE && app->overlay < 0;
    for (int i = 0; i < h && s->top + i < cr->n_options; i++) {
        int k = s->top + i;
        const CostOption *o = &cr->options[k];
        int y = r.y + 2 + i;
        char tco[32], gh[32], run[32], mt[32], be[32];
        fmt_usd(o->tco_usd, tco, sizeof tco);
        fmt_usd(o->usd_per_gpu_hour, gh, sizeof gh);
        if (o->usd_per_training_run > 0) fmt_usd(o->usd_per_training_run, run, sizeof run); else snprintf(run, sizeof run, "-");
        if (o->usd_per_million_tokens > 0) fmt_usd(o->usd_per_million_tokens, mt, sizeof mt); else snprintf(mt, sizeof mt, "-");
        if (o->breakeven_utilization > 0) units_pct(o->breakeven_utilization, be, sizeof be); else snprintf(be, sizeof be, "-");
        const char *cells[7] = {o->name, tco, "", gh, run, mt, be};
        Role rowrole = k == s->sel ? (focused ? ROLE_SELECTION : ROLE_SELECTION_DIM) : ROLE_NORMAL;
        Role roles[7];
        for (int j = 0; j < 7; j++)
            roles[j] = rowrole;
        if (k == cr->cheapest && k != s->sel)
            roles[0] = ROLE_GOOD;
        widget_table_row(y, r.x + 1, r.w - 1, cols, ncols, cells, rowrole, roles);
        int bx = r.x + 1 + cols[0].width + cols[1].width;
        widget_bar(y, bx, bar_w - 1, o->tco_usd, max_tco,
                   k == cr->cheapest ? ROLE_GOOD : o->kind == COST_ONPREM ? ROLE_SERIES1 : ROLE_SERIES2);
    }
    /* detail of the selected option */
    const CostOption *o = &cr->options[s->sel];
    int y = r.y + r.h - detail_rows;
    char capex[32], opex[32], gh[32], run[32], mt[32];
    snprintf(line, sizeof line, "%s: capex %s, opex %s/year, %s GPUs, %s/GPU-h, run %s, %s/Mtok",
             o->name, fmt_usd(o->capex_usd, capex, sizeof capex), fmt_usd(o->opex_usd_per_year, opex, sizeof opex),
             fmt_int(o->gpus, a, sizeof a), fmt_usd(o->usd_per_gpu_hour, gh, sizeof gh),
             o->usd_per_training_run > 0 ? fmt_usd(o->usd_per_training_run, run, sizeof run) : "-",
             o->usd_per_million_tokens > 0 ? fmt_usd(o->usd_per_million_tokens, mt, sizeof mt) : "-");
    term_put(y, r.x + 1, r.w - 1, ROLE_VALUE, line);
    if (o->breakeven_utilization > 1) {
        char be[32];
        snprintf(line, sizeof line, "on-prem never beats this option (break-even at %s utilisation)",
                 units_pct(o->breakeven_utilization, be, sizeof be));
        term_put(y + 1, r.x + 1, r.w - 1, ROLE_MUTED, line);
    } else if (o->breakeven_utilization > 0) {
        char be[32];
        snprintf(line, sizeof line, "on-prem is cheaper than this option above %s utilisation (plan: %s)",
                 units_pct(o->breakeven_utilization, be, sizeof be), units_pct(cr->utilization, a, sizeof a));
        term_put(y + 1, r.x + 1, r.w - 1, cr->utilization > o->breakeven_utilization ? ROLE_GOOD : ROLE_NORMAL, line);
    }
    snprintf(line, sizeof line, "source: %s%s%s", o->source[0] ? o->source : "catalog", o->as_of[0] ? ", as of " : "", o->as_of);
    term_put(y + 2, r.x + 1, r.w - 1, ROLE_MUTED, line);
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
        if (row >= 0 && row < n)
            s->sel = row;
        return HR_HANDLED | HR_REDRAW;
    }
    return HR_UNHANDLED;
}

const ViewOps view_cost_ops = {
    .name = "Cost", .abbrev = "Cost", .ctx = CTX_PANE,
    .create = c_create, .draw = c_draw, .key = c_key, .destroy = c_destroy,
};
