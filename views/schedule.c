/* views/schedule.c — the Schedule pane: the simulated pool, per team wait
 * p50 / p95 bars against the target, utilisation and queue sparklines over
 * the horizon, preemptions, the recommended pool size, and the starving job
 * classes.  Policy, preemption and backfill toggle from here (they edit the
 * plan like any other field). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "tui/app.h"
#include "tui/units.h"
#include "yaml_plan.h"

typedef struct {
    int scroll;
} QState;

static void *q_create(App *app)
{
    (void)app;
    return calloc(1, sizeof(QState));
}

static void q_destroy(View *v)
{
    free(v->state);
}

static void toggles_line(Canvas *c, const App *app)
{
    int y = canvas_next(c);
    if (y < 0)
        return;
    const TenancySpec *t = &app->plan.tenancy;
    int x = c->r.x + 1, w = c->r.w - 1, used = 0;
    used += term_put(y, x + used, w - used, ROLE_LABEL, "policy ");
    used += term_put(y, x + used, w - used, ROLE_VALUE, plan_policy_name(t->policy));
    used += term_put(y, x + used, w - used, ROLE_MUTED, " [p]   preemption ");
    used += term_put(y, x + used, w - used, t->preemption ? ROLE_GOOD : ROLE_MUTED, t->preemption ? "on" : "off");
    used += term_put(y, x + used, w - used, ROLE_MUTED, " [P]   backfill ");
    used += term_put(y, x + used, w - used, t->backfill ? ROLE_GOOD : ROLE_MUTED, t->backfill ? "on" : "off");
    term_put(y, x + used, w - used, ROLE_MUTED, " [b]");
}

/* The MIG profile a job class of the plan asks for, NULL when whole or
 * fractional GPUs. */
static const char *class_mig(const Plan *p, const char *team, const char *job)
{
    for (int t = 0; t < p->tenancy.n_teams; t++) {
        if (strcmp(p->tenancy.teams[t].name, team) != 0)
            continue;
        for (int j = 0; j < p->tenancy.teams[t].n_jobs; j++)
            if (strcmp(p->tenancy.teams[t].jobs[j].name, job) == 0)
                return p->tenancy.teams[t].jobs[j].mig[0] ? p->tenancy.teams[t].jobs[j].mig : NULL;
    }
    return NULL;
}

static void q_draw(View *v, App *app, Rect r)
{
    QState *s = v->state;
    term_clear_rect(r, ROLE_NORMAL);
    const PlanResult *res = app_result(app);
    Canvas c;
    canvas_begin(&c, r, &s->scroll);
    toggles_line(&c, app);
    if (!res || !res->have_schedule || !res->schedule.ran) {
        int y = canvas_next(&c);
        if (y >= 0)
            term_put(y, r.x + 2, r.w - 2, ROLE_MUTED,
                     !res ? "computing the first result..."
                          : app->plan.tenancy.n_teams == 0 && !app->plan.tenancy.trace[0]
                                ? "schedule: no tenancy teams in this plan (a on the list adds one)"
                                : "schedule: not computed");
        canvas_end(&c, &s->scroll);
        return;
    }
    const ScheduleResult *q = &res->schedule;
    char line[400], a[32], b[32], d[32], e[32];
    int y;
    {
        char pre[32], fl[32], f0[64], f1[64], f2[64], f3[64], f4[64];
        snprintf(f0, sizeof f0, "pool %s", units_n(q->gpus, "GPU", "GPUs", a, sizeof a));
        snprintf(f1, sizeof f1, "utilisation %s", units_pct(q->utilization, b, sizeof b));
        snprintf(f2, sizeof f2, "jobs %s / %s done", fmt_int(q->jobs_completed, d, sizeof d),
                 fmt_int(q->jobs_submitted, e, sizeof e));
        snprintf(f3, sizeof f3, "preemptions %s", fmt_int(q->preemptions, pre, sizeof pre));
        snprintf(f4, sizeof f4, "failures %s", fmt_int(q->failures, fl, sizeof fl));
        const char *items[] = {f0, f1, f2, f3, f4};
        canvas_fields(&c, 1, ROLE_VALUE, items, 5);
    }
    {
        char rec[64], f1[64], f2[64], f3[64];
        if (q->recommended_gpus > 0)
            snprintf(rec, sizeof rec,
                     q->pool_from_quotas ? "recommended pool %s (the teams' quotas)"
                     : q->meets_target   ? "recommended pool %s"
                                         : "pool %s: more GPUs stop helping",
                     units_n(q->recommended_gpus, "GPU", "GPUs", a, sizeof a));
        else
            snprintf(rec, sizeof rec, "pool size fixed by the plan");
        snprintf(f1, sizeof f1, "target p95 wait %s: %s", units_secs(app->plan.tenancy.wait_p95_s, b, sizeof b),
                 q->meets_target ? "met" : "missed");
        snprintf(f2, sizeof f2, "goodput %s", units_pct(q->goodput, d, sizeof d));
        snprintf(f3, sizeof f3, "fragmentation %s", units_pct(q->fragmentation, e, sizeof e));
        const char *items[] = {rec, f1, f2, f3};
        canvas_fields(&c, 1, q->meets_target ? ROLE_GOOD : ROLE_BAD, items, 4);
    }
    if (q->cancelled) {
        y = canvas_next(&c);
        if (y >= 0)
            term_put(y, r.x + 1, r.w - 1, ROLE_WARNING, "simulation was cancelled: partial result");
    }
    /* label, bar, then the values: the bar gives way to them on narrow panes */
    int lw = 16, vw = r.w >= 100 ? 42 : r.w >= 76 ? 36 : 26, bw = r.w - lw - vw - 3;
    if (bw < 10) {
        bw = 10;
        vw = r.w - lw - bw - 3;
    }
    y = canvas_next(&c);
    if (y >= 0) {
        term_put(y, r.x + 1, lw, ROLE_LABEL, "utilisation");
        widget_sparkline(y, r.x + 1 + lw, bw, q->util_series, PLAN_SERIES_LEN, 1.0, ROLE_SERIES4);
        term_put(y, r.x + 2 + lw + bw, vw, ROLE_MUTED, "0..100% over the horizon");
    }
    y = canvas_next(&c);
    if (y >= 0) {
        double qmax = 0;
        for (int i = 0; i < PLAN_SERIES_LEN; i++)
            if (q->queue_series[i] > qmax)
                qmax = q->queue_series[i];
        term_put(y, r.x + 1, lw, ROLE_LABEL, "queue length");
        widget_sparkline(y, r.x + 1 + lw, bw, q->queue_series, PLAN_SERIES_LEN, 0, ROLE_SERIES3);
        snprintf(line, sizeof line, "peak %.0f jobs", qmax);
        term_put(y, r.x + 2 + lw + bw, vw, ROLE_MUTED, line);
    }
    /* the time axis under both: start, middle and end of the simulated horizon */
    y = canvas_next(&c);
    if (y >= 0) {
        double days = app->plan.tenancy.horizon_s / 86400.0;
        char t0[16], t1[16], t2[24];
        snprintf(t0, sizeof t0, "0");
        snprintf(t1, sizeof t1, "%.3g d", days / 2);
        snprintf(t2, sizeof t2, "%.3g d", days);
        term_fill(y, r.x + 1 + lw, bw, ROLE_MUTED, term_utf8 ? "─" : "-");
        term_put(y, r.x + 1 + lw, bw, ROLE_MUTED, term_utf8 ? "└" : "+");
        term_put(y, r.x + lw + bw, 1, ROLE_MUTED, term_utf8 ? "┘" : "+");
        term_put(y, r.x + 2 + lw + bw, vw, ROLE_MUTED, "time (simulated)");
        y = canvas_next(&c);
        if (y >= 0) {
            term_put(y, r.x + 1 + lw, bw, ROLE_MUTED, t0);
            int mid = r.x + 1 + lw + bw / 2 - term_strwidth(t1) / 2;
            if (bw > term_strwidth(t1) + term_strwidth(t2) + 4)
                term_put(y, mid, term_strwidth(t1), ROLE_MUTED, t1);
            term_put_right(y, r.x + 1 + lw, bw, ROLE_MUTED, t2);
        }
    }
    canvas_next(&c);
    y = canvas_next(&c);
    double target_h = app->plan.tenancy.wait_p95_s / 3600.0;
    if (y >= 0) {
        snprintf(line, sizeof line, "wait per team: p50 / p95 against the %.1f h target", target_h);
        term_put(y, r.x + 1, r.w - 1, ROLE_TITLE, line);
    }
    double scale = target_h;
    for (int i = 0; i < q->n_teams; i++)
        if (q->teams[i].wait_hours_p95 > scale)
            scale = q->teams[i].wait_hours_p95;
    scale *= 1.1;
    for (int i = 0; i < q->n_teams; i++) {
        const TeamSchedResult *t = &q->teams[i];
        y = canvas_next(&c);
        if (y < 0)
            continue;
        term_put_ellipsis(y, r.x + 1, lw - 1, ROLE_LABEL, t->name);
        bool bad = t->wait_hours_p95 > target_h;
        BarSeg segs[2] = {{t->wait_hours_p50, ROLE_SERIES1},
                          {t->wait_hours_p95 - t->wait_hours_p50, bad ? ROLE_BAD : ROLE_SERIES5}};
        widget_stacked_bar(y, r.x + 1 + lw, bw, segs, 2, scale > 0 ? scale : 1, target_h, ROLE_WARNING);
        char f0[64], f1[48], f2[48];
        snprintf(f0, sizeof f0, "%.1f / %.1f h", t->wait_hours_p50, t->wait_hours_p95);
        snprintf(f1, sizeof f1, "%s jobs", fmt_int(t->jobs, a, sizeof a));
        snprintf(f2, sizeof f2, "%s preempted", fmt_int(t->preemptions, b, sizeof b));
        /* showback: the team's GPU-hours a month at the plan's effective rate */
        char f3[48] = "";
        if (res && res->have_cost && i < res->cost.n_showback)
            snprintf(f3, sizeof f3, "%s/month", fmt_usd(res->cost.showback[i].usd_per_month, b, sizeof b));
        const char *items[] = {f0, f1, f2, f3};
        widget_fields(y, r.x + 2 + lw + bw, vw, bad ? ROLE_BAD : ROLE_VALUE, items, f3[0] ? 4 : 3);
    }
    if (q->n_classes > 0) {
        canvas_next(&c);
        TableCol cols[] = {{"team", 16, false}, {"job class", 16, false}, {"jobs", 8, true},
                           {"GPUs", 9, true}, {"p95 wait", 10, true}, {"slowdown", 9, true}, {"", 0, false}};
        /* names get the room they need when the pane has it */
        int tw = 5, kw = 10;
        for (int i = 0; i < q->n_classes; i++) {
            int n1 = term_strwidth(q->classes[i].team) + 1, n2 = term_strwidth(q->classes[i].name) + 1;
            tw = n1 > tw ? n1 : tw;
            kw = n2 > kw ? n2 : kw;
        }
        int room = r.w - 1 - (8 + 9 + 10 + 9 + 9);
        if (tw + kw > room && room >= 20) {
            /* too long for both: share the room, names get an ellipsis */
            if (tw > room / 2 && kw > room / 2)
                tw = room / 2;
            else if (tw > room / 2)
                tw = room - kw;
            kw = room - tw;
        }
        if (tw + kw <= room) {
            cols[0].width = tw;
            cols[1].width = kw;
        }
        y = canvas_next(&c);
        if (y >= 0)
            widget_table_header(y, r.x + 1, r.w - 1, cols, 7, ROLE_TITLE);
        for (int i = 0; i < q->n_classes; i++) {
            const ClassSchedResult *k = &q->classes[i];
            char jobs[16], gpus[16], p95[32], sl[16];
            fmt_int(k->jobs, jobs, sizeof jobs);
            /* a MIG class asks for a slice, not "0.429" of a GPU */
            const char *mig = class_mig(&app->plan, k->team, k->name);
            if (mig)
                snprintf(gpus, sizeof gpus, "%s", mig);
            else
                snprintf(gpus, sizeof gpus, "%.3g", k->gpus);
            snprintf(p95, sizeof p95, "%.1f h", k->wait_hours_p95);
            snprintf(sl, sizeof sl, "%.2fx", k->slowdown_mean);
            const char *cells[7] = {k->team, k->name, jobs, gpus, p95, sl, k->wait_hours_p95 > target_h ? "starving" : ""};
            Role roles[7] = {ROLE_NORMAL, ROLE_NORMAL, ROLE_VALUE, ROLE_VALUE,
                             k->wait_hours_p95 > target_h ? ROLE_BAD : ROLE_VALUE, ROLE_VALUE, ROLE_BAD};
            y = canvas_next(&c);
            if (y >= 0)
                widget_table_row(y, r.x + 1, r.w - 1, cols, 7, cells, ROLE_NORMAL, roles);
        }
    }
    canvas_end(&c, &s->scroll);
}

static int toggle(App *app, const char *key)
{
    FieldTarget t = app->sel, res;
    const FieldDef *f = fields_find(&app->plan, t, key, &res);
    if (!f)
        return HR_HANDLED;
    Plan *cand = malloc(sizeof *cand);
    if (!cand)
        return HR_HANDLED;
    *cand = app->plan;
    if (field_cycle(f, cand, res, 1, &app->cat) == 0) {
        char shown[64], what[128];
        field_format(f, cand, res, shown, sizeof shown);
        snprintf(what, sizeof what, "tenancy.%s = %s", f->key, shown);
        app_commit(app, cand, what);
    }
    free(cand);
    return HR_HANDLED | HR_REDRAW;
}

static int q_key(View *v, App *app, Action a, int ch)
{
    QState *s = v->state;
    (void)ch;
    switch (a) {
    case ACT_POLICY: return toggle(app, "tenancy.policy");
    case ACT_PREEMPT: return toggle(app, "tenancy.preemption");
    case ACT_BACKFILL: return toggle(app, "tenancy.backfill");
    default: return app_scroll(&s->scroll, a, app->geo.pane.h - 1);
    }
}

/* A tab shown again, or another plan: from the top, not where an earlier
 * content left the offsets (stale scroll; issue 15). */
static void q_show(View *v, App *app)
{
    (void)app;
    if (v->state)
        memset(v->state, 0, sizeof(QState));
}

const ViewOps view_schedule_ops = {
    .name = "Schedule", .abbrev = "Sched", .ctx = CTX_PANE | CTX_SCHEDULE,
    .create = q_create, .draw = q_draw, .key = q_key, .destroy = q_destroy,
    .show = q_show,
};
