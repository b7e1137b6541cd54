/* plans/export_summary.c — see export_summary.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "export_summary.h"
#include "fmt.h"
#include "yaml_plan.h"

void summary_ask(const Plan *p, const PlanResult *r, char *buf, size_t len)
{
    char yb[32];
    char g[32], kw[32], usd[32], n[32], rk[32], split[160];
    if (!r->have_layout || r->cluster.gpus == 0) {
        snprintf(buf, len, "%s needs no GPUs as described: add workloads or teams.", p->name);
        return;
    }
    const ClusterResult *k = &r->cluster;
    if (r->have_cost && r->cost.cloud_only) {
        /* a cloud service: slices, not nodes, racks or power of our own */
        int off = snprintf(buf, len, "%s %s chips rented as %s (%s)",
                           fmt_int(k->gpus, g, sizeof g), k->accelerator,
                           r->cost.service[0] ? r->cost.service : "a cloud service",
                           summary_gpu_split(k, split, sizeof split));
        if (r->cost.cloud >= 0 && off > 0 && (size_t)off < len)
            snprintf(buf + off, len - (size_t)off, ", for %s over %s (%s).",
                     fmt_usd(r->cost.options[r->cost.cloud].tco_usd, usd, sizeof usd),
                     summary_years(p->horizon_years, yb, sizeof yb),
                     r->cost.options[r->cost.cloud].name);
        return;
    }
    int off = snprintf(buf, len, "%s %s GPUs in %s nodes and %s racks (%s)",
                       fmt_int(k->gpus, g, sizeof g), k->accelerator, fmt_int(k->nodes, n, sizeof n),
                       fmt_int(k->racks, rk, sizeof rk), summary_gpu_split(k, split, sizeof split));
    if (r->have_power && off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off, ", drawing %s at the facility",
                        fmt_si(r->power.facility_kw * 1e3, "W", kw, sizeof kw));
    if (r->have_cost && r->cost.onprem_unpriced && off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off,
                        ", on-prem NOT PRICED (no node price for %s: add a quote)",
                        k->accelerator);
    else if (r->have_cost && r->cost.chosen >= 0 && off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off, ", for %s over %s as planned (%s)",
                        fmt_usd(r->cost.options[r->cost.chosen].tco_usd, usd, sizeof usd),
                        summary_years(p->horizon_years, yb, sizeof yb),
                        r->cost.options[r->cost.chosen].name);
    else if (r->have_cost && r->cost.cheapest >= 0 && off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off, ", for %s over %s at the cheapest option",
                        fmt_usd(r->cost.options[r->cost.cheapest].tco_usd, usd, sizeof usd),
                        summary_years(p->horizon_years, yb, sizeof yb));
    if (r->have_cost && !r->cost.storage_priced && k->storage_units > 0 && r->cost.onprem >= 0 &&
        off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off, "; storage NOT PRICED (%d building blocks "
                        "at $0)", k->storage_units);
    if (off > 0 && (size_t)off < len)
        snprintf(buf + off, len - (size_t)off, ".");
}

/* The cheapest option on the plan's own accelerator that does not rest on
 * spot capacity (a reference price for an unpriced on-prem plan). */
static int cheapest_firm_cloud(const CostResult *c, const char *acc)
{
    int best = -1;
    for (int i = 0; i < c->n_options; i++) {
        const CostOption *o = &c->options[i];
        if (o->kind != COST_CLOUD || o->sized || o->pricing == PRICING_SPOT ||
            strcasecmp(o->accelerator, acc) != 0)
            continue;
        if (best < 0 || o->tco_usd < c->options[best].tco_usd)
            best = i;
    }
    return best;
}

int summary_verdict(const Plan *p, const PlanResult *r, char *buf, size_t len)
{
    char yb[32], a[32], b[32];
    const CostResult *c = &r->cost;
    size_t off = 0;
#define PUT(...)                                                                               \
    do {                                                                                       \
        if (off < len) {                                                                       \
            int w_ = snprintf(buf + off, len - off, __VA_ARGS__);                              \
            off = w_ < 0 ? len : off + (size_t)w_;                                             \
        }                                                                                      \
    } while (0)
    buf[0] = '\0';
    if (!r->have_cost)
        return 0;
    const char *years = summary_years(p->horizon_years, yb, sizeof yb);
    const CostOption *on = c->onprem >= 0 ? &c->options[c->onprem] : NULL;
    const CostOption *cl = c->cloud >= 0 ? &c->options[c->cloud] : NULL;
    const CostOption *od = c->ondemand >= 0 ? &c->options[c->ondemand] : NULL;
    switch (c->verdict) {
    case COST_VERDICT_NONE:
        PUT("No cost option could be priced for this plan.");
        return (int)off;
    case COST_VERDICT_UNPRICED: {
        int ref = cheapest_firm_cloud(c, r->cluster.accelerator);
        PUT("On-prem is not priced: %s has no node price in the catalog and the plan gives no "
            "quote (site.prices.nodes), so build or buy cannot be decided.",
            r->cluster.accelerator);
        if (ref >= 0)
            PUT(" For reference only, renting it as %s would cost %s over %s.",
                c->options[ref].name, fmt_usd(c->options[ref].tco_usd, a, sizeof a), years);
        return (int)off;
    }
    case COST_VERDICT_CLOUD_ONLY:
        PUT("Cloud: %s costs %s over %s, the cheapest way to rent the plan's %s (no on-prem "
            "option to compare).",
            cl->name, fmt_usd(cl->tco_usd, a, sizeof a), years, r->cluster.accelerator);
        break;
    case COST_VERDICT_BUILD:
        if (cl)
            PUT("Build: %s costs %s over %s, %.0f %% less than the cheapest cloud option (%s, "
                "%s).",
                on->name, fmt_usd(on->tco_usd, a, sizeof a), years, c->margin_pct, cl->name,
                fmt_usd(cl->tco_usd, b, sizeof b));
        else
            PUT("Build: %s costs %s over %s; the catalog prices no cloud option for %s.",
                on->name, fmt_usd(on->tco_usd, a, sizeof a), years, r->cluster.accelerator);
        break;
    case COST_VERDICT_BUY:
        PUT("Buy: %s costs %s over %s, %.0f %% less than building (%s, %s).", cl->name,
            fmt_usd(cl->tco_usd, a, sizeof a), years, c->margin_pct, on->name,
            fmt_usd(on->tco_usd, b, sizeof b));
        break;
    }
    if (on && od && od->breakeven_utilization > 0) {
        if (od->breakeven_utilization >= 1)
            PUT(" Cloud on-demand (%s) is cheaper than on-prem at any utilisation.", od->instance);
        else
            PUT(" Cloud on-demand (%s) is cheaper below %.0f %% utilisation; the plan runs at "
                "%.0f %%.",
                od->instance, od->breakeven_utilization * 100, c->utilization * 100);
    }
    if (on && cl && c->verdict == COST_VERDICT_BUILD && c->crossover_month > 0)
        PUT(" On-prem's cumulative cost drops below %s's in month %d.", cl->name,
            c->crossover_month);
    if (c->alternative >= 0) {
        const CostOption *x = &c->options[c->alternative];
        PUT(" Sized for the same workloads, %s would need %d %s (%s over %s).", x->name, x->gpus,
            x->accelerator, fmt_usd(x->tco_usd, a, sizeof a), years);
    }
    return (int)off;
#undef PUT
}

void summary_recommendation(const Plan *p, const PlanResult *r, char *buf, size_t len)
{
    int unmet = 0;
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *w = &r->workloads[i];
        unmet += !w->ok || (w->kind == WL_TRAINING && (!w->train.fits || !w->train.meets_target)) ||
                 (w->kind == WL_INFERENCE && !w->infer.meets_slo);
    }
    if (!r->have_cost || r->cost.verdict == COST_VERDICT_NONE) {
        snprintf(buf, len, "No cost options could be computed for this plan.");
        return;
    }
    int off = summary_verdict(p, r, buf, len);
    if (unmet && off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off,
                        " %d workload%s cannot be met as specified (see the risks).", unmet,
                        unmet == 1 ? "" : "s");
    const ScheduleResult *s = &r->schedule;
    if (!r->have_schedule || !s->ran || s->meets_target || s->n_teams <= 0 || off <= 0 ||
        (size_t)off >= len)
        return;
    if (s->recommended_gpus) {
        snprintf(buf + off, len - (size_t)off,
                 " No pool size searched keeps every team's p95 queue wait under %.1f h.",
                 p->tenancy.wait_p95_s / 3600);
        return;
    }
    int who, cls;
    double wait = schedule_wait_score(s, &who, &cls);
    if (cls >= 0)
        snprintf(buf + off, len - (size_t)off,
                 " On the plan's pool of %d GPUs, team %s's %s jobs never run (they wait up to "
                 "%.1f h, over the %.1f h target).", s->gpus, s->teams[who].name,
                 s->classes[cls].name, wait, p->tenancy.wait_p95_s / 3600);
    else
        snprintf(buf + off, len - (size_t)off,
                 " On the plan's pool of %d GPUs, team %s waits %.1f h at p95, over the %.1f h "
                 "target.", s->gpus, s->teams[who].name, wait, p->tenancy.wait_p95_s / 3600);
}

const char *summary_price_dates(const CostResult *cr, char *buf, size_t len)
{
    const char *lo = cr->prices_oldest, *hi = cr->prices_newest;
    if (!lo[0]) {
        for (int i = 0; i < cr->n_options; i++) {
            const char *d = cr->options[i].as_of;
            if (!d[0])
                continue;
            if (!lo[0] || strcmp(d, lo) < 0)
                lo = d;
            if (!hi[0] || strcmp(d, hi) > 0)
                hi = d;
        }
    }
    if (!lo[0])
        snprintf(buf, len, "%s", "");
    else if (strcmp(lo, hi) != 0)
        snprintf(buf, len, "%s to %s", lo, hi);
    else
        snprintf(buf, len, "%s", lo);
    return buf;
}

void summary_mc_sentence(const Plan *p, const McResult *m, char *buf, size_t len)
{
    char yb[32];
    snprintf(buf, len,
             "Monte Carlo over the ranges: %d samples, %d assumptions varied (the horizon held "
             "at the plan's %s), seed %llu; %.0f %% of the samples give another verdict.",
             m->samples, m->n_knobs, summary_years(p->horizon_years, yb, sizeof yb),
             (unsigned long long)m->seed, m->share_other_verdict * 100);
}

const char *summary_gpu_split(const ClusterResult *k, char *buf, size_t len)
{
    char t[32], i[32], po[32], h[32];
    snprintf(buf, len, "training %s, inference %s, shared pool %s, headroom %s",
             fmt_int(k->gpus_training, t, sizeof t), fmt_int(k->gpus_inference, i, sizeof i),
             fmt_int(k->gpus_pool, po, sizeof po), fmt_int(k->gpus_headroom, h, sizeof h));
    return buf;
}

const char *summary_pool_basis(const ScheduleResult *s)
{
    if (!s->recommended_gpus)
        return NULL;
    if (s->pool_from_quotas)
        return "the pool the teams' quotas need, which meets the target";
    return s->meets_target ? "the smallest pool meeting the target"
                           : "where more GPUs stop helping; no pool meets the target";
}

const CostColumn summary_cost_columns[] = {
    [COL_TCO] = {"TCO", "total cash over the horizon: capex - residual value + running costs "
                        "(cloud: rent)"},
    [COL_LIST] = {"List $/GPU-h", "one GPU-hour as billed: cloud rate after discount; on-prem "
                                  "TCO / installed GPU-hours"},
    [COL_EFF] = {"Effective $/GPU-h used", "TCO / GPU-hours used at the plan's utilisation"},
    [COL_RUN] = {"$ per training run", "the run's GPU-hours x effective $/GPU-h"},
    [COL_MTOK] = {"$ per M output tokens", "GPU-hours per million tokens x effective $/GPU-h"},
    [COL_BE] = {"Break-even utilisation", "pay-as-you-go options only: below it this option is "
                                          "cheaper than on-prem"},
};

const char *summary_usd_band(const CostOption *o, char *buf, size_t len)
{
    char a[32], b[32], c[32];
    fmt_usd(o->usd_per_million_tokens, a, sizeof a);
    if (o->usd_per_million_tokens_low > 0 && o->usd_per_million_tokens_high > 0)
        snprintf(buf, len, "%s (%s–%s)", a, fmt_usd(o->usd_per_million_tokens_low, b, sizeof b),
                 fmt_usd(o->usd_per_million_tokens_high, c, sizeof c));
    else
        snprintf(buf, len, "%s", a);
    return buf;
}

void summary_power(const Plan *p, const PlanResult *r, char *buf, size_t len)
{
    if (r->have_cost && r->cost.cloud_only) {
        snprintf(buf, len, "%s is a cloud service: the provider powers and cools it; no "
                           "on-prem power, racks or energy bill is modelled.",
                 r->cluster.accelerator);
        return;
    }
    const PowerResult *w = &r->power;
    char it[32], fac[32], e[32], mwh[32];
    snprintf(buf, len,
             "IT load %s, facility %s at PUE %.2f; the hottest rack draws %.1f kW against a "
             "%.1f kW limit (%s cooling: %s); %s MWh a year costing %s.",
             fmt_si(w->it_kw * 1e3, "W", it, sizeof it),
             fmt_si(w->facility_kw * 1e3, "W", fac, sizeof fac), p->site.pue, w->rack_kw,
             w->rack_limit_kw, plan_cooling_name(w->cooling), w->verdict,
             fmt_int(llround(w->energy_mwh_per_year), mwh, sizeof mwh),
             fmt_usd(w->energy_usd_per_year, e, sizeof e));
}

const char *summary_value(const Headline *h, double v, char *buf, size_t len)
{
    const char *unit = h->unit;
    if (!strcmp(unit, "USD"))
        return fmt_usd(v, buf, len);
    if (h->fraction)
        snprintf(buf, len, "%.1f %%", v * 100);
    else
        fmt_quantity(v, unit, buf, len); /* never "25.8 kkW" (issue 15) */
    return buf;
}

const char *summary_breakeven(double u, char *buf, size_t len)
{
    if (!(u > 0))
        snprintf(buf, len, "—");
    else if (u > 1)
        snprintf(buf, len, "never");
    else
        snprintf(buf, len, "%.0f %%", u * 100);
    return buf;
}

const char *summary_years(double y, char *buf, size_t len)
{
    snprintf(buf, len, "%.4g year%s", y, y == 1 ? "" : "s");
    return buf;
}

void summary_assumption_groups(const PlanResult *r, void *ctx,
                               void (*begin)(void *ctx, const char *scope),
                               void (*item)(void *ctx, const char *text),
                               void (*end)(void *ctx))
{
    for (int i = 0; i < r->n_assumptions; i++) {
        const char *scope = r->assumptions[i].scope;
        bool first = true;
        for (int j = 0; j < i && first; j++)
            first = strcmp(r->assumptions[j].scope, scope) != 0;
        if (!first)
            continue;
        begin(ctx, scope[0] ? scope : "plan");
        for (int j = i; j < r->n_assumptions; j++)
            if (strcmp(r->assumptions[j].scope, scope) == 0)
                item(ctx, r->assumptions[j].text);
        end(ctx);
    }
}

/* One Monte Carlo row; digits < 0: money. */
static void mc_row(SummaryMcRow *r, const char *label, const Percentiles *q, const double *point,
                   int digits)
{
    const double v[4] = {q->p10, q->p50, q->p90, point ? *point : 0};
    char *out[4] = {r->p10, r->p50, r->p90, r->point};
    r->label = label;
    for (int k = 0; k < 4; k++) {
        if (k == 3 && !point)
            out[k][0] = '\0';
        else if (digits < 0)
            fmt_usd(v[k], out[k], sizeof r->p10);
        else
            snprintf(out[k], sizeof r->p10, "%.*f", digits, v[k]);
    }
}

int summary_mc_rows(const SensResult *s, const McResult *m, SummaryMcRow rows[4])
{
    const SensOutcome *o = s ? &s->base : NULL;
    int n = 0;
    mc_row(&rows[n++], "GPUs", &m->gpus, o ? &o->gpus : NULL, 0);
    if (m->days.p90 > 0)
        mc_row(&rows[n++], "Days to train", &m->days, o ? &o->days : NULL, 1);
    mc_row(&rows[n++], "Facility MW", &m->mw, o ? &o->mw : NULL, 1);
    mc_row(&rows[n++], "TCO", &m->tco, o ? &o->tco : NULL, -1);
    return n;
}

void summary_tornado_row(const SensResult *s, int i, SummaryTornadoRow *row)
{
    const SensBar *bar = &s->bars[i];
    char lo[48], hi[48];
    row->label = sens_knob_label(bar->knob);
    sens_format_value(bar->knob, bar->low, lo, sizeof lo);
    sens_format_value(bar->knob, bar->high, hi, sizeof hi);
    snprintf(row->range, sizeof row->range, "%s – %s", lo, hi);
    sens_format_value(bar->knob, bar->nominal, row->nominal, sizeof row->nominal);
    row->from = bar->from_plan ? "plan" : "catalog";
    fmt_usd(bar->at_low.tco, row->tco_low, sizeof row->tco_low);
    fmt_usd(bar->at_high.tco, row->tco_high, sizeof row->tco_high);
    row->verdict_low = verdict_name(bar->at_low.verdict);
    row->verdict_high = verdict_name(bar->at_high.verdict);
    if (bar->flips)
        sens_format_flip(s, bar, row->flip, sizeof row->flip);
    else
        snprintf(row->flip, sizeof row->flip, "—");
}
