/* views/power.c — the Power pane: kW per rack against the rack limit
 * (warning above 90 %, critical above the limit), the IT load split, the
 * facility load with its PUE, yearly energy and the air vs liquid verdict. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "tui/app.h"
#include "yaml_plan.h"

typedef struct {
    int scroll;
} PState;

static void *p_create(App *app)
{
    (void)app;
    return calloc(1, sizeof(PState));
}

static void p_destroy(View *v)
{
    free(v->state);
}

/* Share of the rack limit above which a rack is shown as a warning. */
#define WARN_FRACTION 0.9

/* A power in kW for display: "0 W" for none rather than "0.00 W". */
static const char *p_watts(double kw, char *buf, size_t len)
{
    if (kw == 0) {
        snprintf(buf, len, "0 W");
        return buf;
    }
    return fmt_si(kw * 1e3, "W", buf, len);
}

static void p_draw(View *v, App *app, Rect r)
{
    PState *s = v->state;
    term_clear_rect(r, ROLE_NORMAL);
    const PlanResult *res = app_result(app);
    if (!res || !res->have_power) {
        term_put(r.y + 1, r.x + 2, r.w - 2, ROLE_MUTED, res ? "power: not computed" : "computing the first result...");
        return;
    }
    const PowerResult *pw = &res->power;
    Canvas c;
    canvas_begin(&c, r, &s->scroll);
    char line[400], a[32], b[32], d[32];
    int y;
    int lw = 20, vw = 20, bw = r.w - lw - vw - 4;
    if (bw < 10)
        bw = 10;
    y = canvas_next(&c);
    if (y >= 0)
        term_put(y, r.x + 1, r.w - 1, ROLE_TITLE, "kW per rack against the rack limit");
    double limit = pw->rack_limit_kw;
    for (int g = 0; g < res->cluster.n_rack_groups; g++) {
        const RackGroup *rg = &res->cluster.rack_groups[g];
        y = canvas_next(&c);
        if (y < 0)
            continue;
        snprintf(line, sizeof line, "%s %s%d", rg->role, term_glyphs->times, rg->count);
        term_put(y, r.x + 1, lw, ROLE_LABEL, line);
        Role role = rg->kw > limit ? ROLE_CRITICAL : rg->kw > WARN_FRACTION * limit ? ROLE_WARNING : ROLE_GOOD;
        double scale = rg->kw > limit ? rg->kw : limit;
        BarSeg seg = {rg->kw, role};
        widget_stacked_bar(y, r.x + 1 + lw, bw, &seg, 1, scale > 0 ? scale : 1, limit, ROLE_MUTED);
        snprintf(line, sizeof line, "%.1f / %.0f kW", rg->kw, limit);
        /* right-aligned so the limits line up whatever the rack's load */
        term_put_right(y, r.x + 2 + lw + bw, 14, role, line);
    }
    if (res->cluster.n_rack_groups == 0) {
        y = canvas_next(&c);
        if (y >= 0) {
            snprintf(line, sizeof line, "hottest rack %.1f kW of %.0f kW", pw->rack_kw, limit);
            term_put(y, r.x + 1, r.w - 1, pw->rack_kw > limit ? ROLE_CRITICAL : ROLE_NORMAL, line);
        }
    }
    canvas_next(&c);
    y = canvas_next(&c);
    if (y >= 0)
        term_put(y, r.x + 1, r.w - 1, ROLE_TITLE, "load");
    BarSeg it[4] = {{pw->gpu_nodes_kw, ROLE_SERIES1}, {pw->network_kw, ROLE_SERIES2},
                    {pw->storage_kw, ROLE_SERIES3}, {pw->facility_kw - pw->it_kw, ROLE_SERIES6}};
    static const char *const legend[4] = {"GPU nodes", "network", "storage", "cooling & losses"};
    y = canvas_next(&c);
    if (y >= 0) {
        term_put(y, r.x + 1, lw, ROLE_LABEL, "facility");
        widget_stacked_bar(y, r.x + 1 + lw, bw, it, 4, pw->facility_kw > 0 ? pw->facility_kw : 1, 0, ROLE_MUTED);
        term_put(y, r.x + 2 + lw + bw, vw, ROLE_VALUE, fmt_si(pw->facility_kw * 1e3, "W", a, sizeof a));
    }
    y = canvas_next(&c);
    if (y >= 0)
        widget_legend(y, r.x + 1 + lw, r.w - lw - 1, it, legend, 4);
    {
        char f0[64], f1[64], f2[64], f3[64], st[32];
        snprintf(f0, sizeof f0, "IT load %s", p_watts(pw->it_kw, a, sizeof a));
        snprintf(f1, sizeof f1, "GPU nodes %s", p_watts(pw->gpu_nodes_kw, b, sizeof b));
        snprintf(f2, sizeof f2, "network %s", p_watts(pw->network_kw, d, sizeof d));
        snprintf(f3, sizeof f3, "storage %s", p_watts(pw->storage_kw, st, sizeof st));
        const char *items[] = {f0, f1, f2, f3};
        canvas_fields(&c, 1, ROLE_NORMAL, items, 4);
    }
    {
        char f0[64], f1[64];
        snprintf(f0, sizeof f0, "facility %s", p_watts(pw->facility_kw, a, sizeof a));
        snprintf(f1, sizeof f1, "at PUE %.2f", app->plan.site.pue);
        const char *items[] = {f0, f1};
        canvas_fields(&c, 1, ROLE_VALUE, items, 2);
    }
    {
        char f0[128], f2[64];
        snprintf(f0, sizeof f0, "energy %s MWh/year = %s/year", fmt_int((long long)(pw->energy_mwh_per_year + 0.5), a, sizeof a),
                 fmt_usd(pw->energy_usd_per_year, b, sizeof b));
        snprintf(f2, sizeof f2, "at %s/kWh", fmt_usd(app->plan.site.power_price_kwh, d, sizeof d));
        const char *items[] = {f0, f2};
        canvas_fields(&c, 1, ROLE_NORMAL, items, 2);
    }
    canvas_next(&c);
    /* the verdict names the planned cooling itself ("…; liquid as planned") */
    if (pw->verdict[0])
        snprintf(line, sizeof line, "cooling: %s", pw->verdict);
    else
        snprintf(line, sizeof line, "cooling: %s", plan_cooling_name(pw->cooling));
    canvas_wrap(&c, 1, pw->cooling_ok ? ROLE_GOOD : ROLE_CRITICAL, line);
    if (res->cluster.liquid_required)
        canvas_wrap(&c, 1, ROLE_WARNING, "the accelerator requires liquid cooling");
    int shown = 0;
    for (int i = 0; i < res->n_assumptions; i++)
        if (strcmp(res->assumptions[i].scope, "power") == 0) {
            if (!shown++) {
                canvas_next(&c);
                y = canvas_next(&c);
                if (y >= 0)
                    term_put(y, r.x + 1, r.w - 1, ROLE_TITLE, "assumptions");
            }
            canvas_wrap(&c, 2, ROLE_MUTED, res->assumptions[i].text);
        }
    canvas_end(&c, &s->scroll);
}

static int p_key(View *v, App *app, Action a, int ch)
{
    PState *s = v->state;
    (void)ch;
    return app_scroll(&s->scroll, a, app->geo.pane.h - 1);
}

/* A tab shown again, or another plan: from the top, not where an earlier
 * content left the offsets (stale scroll; issue 15). */
static void p_show(View *v, App *app)
{
    (void)app;
    if (v->state)
        memset(v->state, 0, sizeof(PState));
}

const ViewOps view_power_ops = {
    .name = "Power", .abbrev = "Pwr", .ctx = CTX_PANE,
    .create = p_create, .draw = p_draw, .key = p_key, .destroy = p_destroy,
    .show = p_show,
};
