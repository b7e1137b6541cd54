/* plans/export_summary.c — see export_summary.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export_summary.h"
#include "fmt.h"
#include "yaml_plan.h"

static int cheapest_of_kind(const CostResult *c, CostKind k)
{
    for (int i = 0; i < c->n_options; i++)
        if (c->options[i].kind == k)
            return i;
    return -1;
}

void summary_ask(const Plan *p, const PlanResult *r, char *buf, size_t len)
{
    char yb[32];
    char g[32], kw[32], usd[32], t[32], i[32], po[32], h[32];
    if (!r->have_layout || r->cluster.gpus == 0) {
        snprintf(buf, len, "%s needs no GPUs as described: add workloads or teams.", p->name);
        return;
    }
    const ClusterResult *k = &r->cluster;
    int off = snprintf(buf, len, "%s %s GPUs in %d nodes and %d racks (training %s, inference %s, "
                                 "shared pool %s, headroom %s)",
                       fmt_int(k->gpus, g, sizeof g), k->accelerator, k->nodes, k->racks,
                       fmt_int(k->gpus_training, t, sizeof t), fmt_int(k->gpus_inference, i, sizeof i),
                       fmt_int(k->gpus_pool, po, sizeof po), fmt_int(k->gpus_headroom, h, sizeof h));
    if (r->have_power && off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off, ", drawing %s at the facility",
                        fmt_si(r->power.facility_kw * 1e3, "W", kw, sizeof kw));
    if (r->have_cost && r->cost.chosen >= 0 && off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off, ", for %s over %s as planned (%s)",
                        fmt_usd(r->cost.options[r->cost.chosen].tco_usd, usd, sizeof usd),
                        summary_years(p->horizon_years, yb, sizeof yb),
                        r->cost.options[r->cost.chosen].name);
    else if (r->have_cost && r->cost.cheapest >= 0 && off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off, ", for %s over %s at the cheapest option",
                        fmt_usd(r->cost.options[r->cost.cheapest].tco_usd, usd, sizeof usd),
                        summary_years(p->horizon_years, yb, sizeof yb));
    if (off > 0 && (size_t)off < len)
        snprintf(buf + off, len - (size_t)off, ".");
}

void summary_recommendation(const Plan *p, const PlanResult *r, char *buf, size_t len)
{
    char yb[32];
    char a[32], b[32];
    int unmet = 0;
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *w = &r->workloads[i];
        unmet += !w->ok || (w->kind == WL_TRAINING && (!w->train.fits || !w->train.meets_target)) ||
                 (w->kind == WL_INFERENCE && !w->infer.meets_slo);
    }
    if (!r->have_cost || r->cost.cheapest < 0) {
        snprintf(buf, len, "No cost options could be computed for this plan.");
        return;
    }
    const CostOption *best = &r->cost.options[r->cost.cheapest];
    int on = cheapest_of_kind(&r->cost, COST_ONPREM);
    int cl = cheapest_of_kind(&r->cost, COST_CLOUD);
    int off;
    if (best->kind == COST_ONPREM && cl >= 0) {
        const CostOption *c = &r->cost.options[cl];
        off = snprintf(buf, len,
                       "Build: on-prem costs %s over %s against %s for the cheapest cloud "
                       "option (%s), %.0f %% less",
                       fmt_usd(best->tco_usd, a, sizeof a),
                       summary_years(p->horizon_years, yb, sizeof yb),
                       fmt_usd(c->tco_usd, b, sizeof b), c->name,
                       c->tco_usd > 0 ? (1 - best->tco_usd / c->tco_usd) * 100 : 0);
        if (c->breakeven_utilization > 0 && c->breakeven_utilization <= 1 && off > 0 &&
            (size_t)off < len)
            off += snprintf(buf + off, len - (size_t)off,
                            "; on-prem stays cheaper while utilisation stays above %.0f %%",
                            c->breakeven_utilization * 100);
    } else if (best->kind == COST_CLOUD && on >= 0) {
        const CostOption *o = &r->cost.options[on];
        off = snprintf(buf, len,
                       "Buy: %s costs %s over %s against %s to build on-prem",
                       best->name, fmt_usd(best->tco_usd, a, sizeof a),
                       summary_years(p->horizon_years, yb, sizeof yb),
                       fmt_usd(o->tco_usd, b, sizeof b));
        if (best->breakeven_utilization > 1 && off > 0 && (size_t)off < len)
            off += snprintf(buf + off, len - (size_t)off,
                            "; building would not pay off even at full utilisation");
        else if (best->breakeven_utilization > 0 && off > 0 && (size_t)off < len)
            off += snprintf(buf + off, len - (size_t)off,
                            "; building would pay off only above %.0f %% utilisation",
                            best->breakeven_utilization * 100);
    } else {
        off = snprintf(buf, len, "The cheapest option is %s at %s over %s", best->name,
                       fmt_usd(best->tco_usd, a, sizeof a), summary_years(p->horizon_years, yb, sizeof yb));
    }
    if (off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off, ".");
    if (unmet && off > 0 && (size_t)off < len)
        off += snprintf(buf + off, len - (size_t)off,
                        " %d workload%s cannot be met as specified (see the risks).", unmet,
                        unmet == 1 ? "" : "s");
    if (r->have_schedule && r->schedule.ran && r->schedule.recommended_gpus &&
        !r->schedule.meets_target && off > 0 && (size_t)off < len)
        snprintf(buf + off, len - (size_t)off,
                 " No pool size searched keeps every team's p95 queue wait under %.1f h.",
                 p->tenancy.wait_p95_s / 3600);
}

void summary_power(const Plan *p, const PlanResult *r, char *buf, size_t len)
{
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

const char *summary_value(const char *unit, double v, char *buf, size_t len)
{
    if (!strcmp(unit, "USD"))
        return fmt_usd(v, buf, len);
    if (!unit[0] && fabs(v) <= 1.0 && v != 0)
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
