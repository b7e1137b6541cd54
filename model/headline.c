/* model/headline.c — the flat list of headline numbers (see headline.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headline.h"

typedef struct {
    Headline *out;
    int max;
    int n;
} Collector;

static void add(Collector *c, const char *section, const char *subject, const char *metric,
                const char *label, double value, const char *unit, Better better)
{
    if (c->n >= c->max)
        return;
    Headline *h = &c->out[c->n++];
    memset(h, 0, sizeof *h);
    snprintf(h->section, sizeof h->section, "%s", section);
    snprintf(h->subject, sizeof h->subject, "%s", subject ? subject : "");
    snprintf(h->metric, sizeof h->metric, "%s", metric);
    snprintf(h->label, sizeof h->label, "%s", label);
    h->value = value;
    snprintf(h->unit, sizeof h->unit, "%s", unit);
    h->better = better;
}

/* A dimensionless share 0–1: unit "" like a count, but shown as a
 * percentage (a count of 1 is not "100 %": issue 17 D16). */
static void add_fraction(Collector *c, const char *section, const char *subject,
                         const char *metric, const char *label, double value, Better better)
{
    int n = c->n;
    add(c, section, subject, metric, label, value, "", better);
    if (c->n > n)
        c->out[n].fraction = true;
}

static void collect_workload(Collector *c, const WorkloadResult *w)
{
    const char *n = w->name;
    if (!w->ok)
        return;
    if (w->kind == WL_TRAINING) {
        const TrainResult *t = &w->train;
        add(c, "workload", n, "gpus", "GPUs", t->gpus, "GPUs", BETTER_LOWER);
        add(c, "workload", n, "train_days", "Days to train", t->train_days, "days", BETTER_LOWER);
        add(c, "workload", n, "step_seconds", "Step time", t->step_s, "s", BETTER_LOWER);
        /* MFU is against the peak of the run's own precision, so FP8 lowers it
         * while the run gets faster: days and dollars carry the verdict, MFU
         * is shown without one (issue 15) */
        add_fraction(c, "workload", n, "mfu", "MFU", t->mfu, BETTER_NEITHER);
        add(c, "workload", n, "tokens_per_second", "Tokens per second", t->tokens_per_s,
            "tok/s", BETTER_HIGHER);
        add(c, "workload", n, "gpu_hours", "GPU-hours", t->gpu_hours, "GPU-h", BETTER_LOWER);
        add(c, "workload", n, "memory_gib_per_gpu", "Memory per GPU",
            t->mem.total / (1024.0 * 1024 * 1024), "GiB", BETTER_LOWER);
        add_fraction(c, "workload", n, "goodput", "Goodput", t->goodput, BETTER_HIGHER);
    } else {
        const InferResult *i = &w->infer;
        add(c, "workload", n, "gpus", "GPUs", i->gpus, "GPUs", BETTER_LOWER);
        add(c, "workload", n, "replicas", "Replicas", i->replicas, "", BETTER_LOWER);
        add(c, "workload", n, "ttft_ms", "TTFT", i->ttft_s * 1e3, "ms", BETTER_LOWER);
        add(c, "workload", n, "tpot_ms", "TPOT", i->tpot_s * 1e3, "ms", BETTER_LOWER);
        add(c, "workload", n, "output_tokens_per_second", "Output tokens per second",
            i->output_tokens_per_s, "tok/s", BETTER_HIGHER);
        add(c, "workload", n, "gpu_hours_per_million_tokens", "GPU-hours per M tokens",
            i->gpu_hours_per_mtok, "GPU-h", BETTER_LOWER);
    }
}

int headline_collect(const Plan *p, const PlanResult *r, Headline *out, int max)
{
    Collector c = {.out = out, .max = max, .n = 0};
    (void)p;
    if (r->have_sizing)
        for (int i = 0; i < r->n_workloads; i++)
            collect_workload(&c, &r->workloads[i]);
    if (r->have_layout) {
        const ClusterResult *k = &r->cluster;
        add(&c, "cluster", "", "gpus", "GPUs", k->gpus, "GPUs", BETTER_LOWER);
        add(&c, "cluster", "", "nodes", "Nodes", k->nodes, "", BETTER_LOWER);
        add(&c, "cluster", "", "racks", "Racks", k->racks, "", BETTER_LOWER);
        add(&c, "cluster", "", "switches", "Switches",
            k->leaf_switches + k->spine_switches + k->core_switches, "", BETTER_LOWER);
        add(&c, "cluster", "", "links", "Links", k->links, "", BETTER_LOWER);
        add(&c, "cluster", "", "storage_read_gbps", "Storage read", k->storage_read_Bps / 1e9,
            "GB/s", BETTER_NEITHER);
        add(&c, "cluster", "", "storage_capacity_tb", "Storage capacity",
            k->storage_capacity_bytes / 1e12, "TB", BETTER_NEITHER);
    }
    if (r->have_power) {
        const PowerResult *w = &r->power;
        add(&c, "power", "", "it_kw", "IT load", w->it_kw, "kW", BETTER_LOWER);
        add(&c, "power", "", "facility_kw", "Facility load", w->facility_kw, "kW", BETTER_LOWER);
        add(&c, "power", "", "rack_kw", "Hottest rack", w->rack_kw, "kW", BETTER_LOWER);
        add(&c, "power", "", "energy_mwh_per_year", "Energy per year", w->energy_mwh_per_year,
            "MWh", BETTER_LOWER);
    }
    if (r->have_cost && r->cost.cheapest >= 0 && r->cost.cheapest < r->cost.n_options) {
        const CostOption *o = &r->cost.options[r->cost.cheapest];
        add(&c, "cost", o->name, "tco_usd", "Cheapest TCO", o->tco_usd, "USD", BETTER_LOWER);
        add(&c, "cost", o->name, "usd_per_gpu_hour", "Effective $ per GPU-hour used",
            o->usd_per_gpu_hour, "USD", BETTER_LOWER);
        add(&c, "cost", o->name, "usd_per_gpu_hour_list", "List $ per GPU-hour",
            o->usd_per_gpu_hour_list, "USD", BETTER_LOWER);
        if (r->cost.chosen >= 0 && r->cost.chosen < r->cost.n_options) {
            const CostOption *m = &r->cost.options[r->cost.chosen];
            add(&c, "cost", "", "plan_tco_usd", "The plan's TCO", m->tco_usd, "USD",
                BETTER_LOWER);
        }
        if (r->cost.onprem >= 0 && r->cost.cloud >= 0)
            add(&c, "cost", "", "verdict_margin_pct", "Verdict margin", r->cost.margin_pct, "%",
                BETTER_NEITHER);
        if (r->cost.ondemand >= 0 && r->cost.options[r->cost.ondemand].breakeven_utilization > 0)
            add(&c, "cost", r->cost.options[r->cost.ondemand].name, "breakeven_utilization",
                "On-demand cheaper below", r->cost.options[r->cost.ondemand].breakeven_utilization,
                "", BETTER_NEITHER);
        for (int i = 0; i < r->cost.n_options; i++) {
            const CostOption *x = &r->cost.options[i];
            if (x->kind == COST_ONPREM) {
                add(&c, "cost", x->name, "onprem_tco_usd", "On-prem TCO", x->tco_usd, "USD",
                    BETTER_LOWER);
                add(&c, "cost", x->name, "onprem_capex_usd", "On-prem capex", x->capex_usd,
                    "USD", BETTER_LOWER);
                break;
            }
        }
    }
    if (r->have_schedule && r->schedule.ran) {
        const ScheduleResult *s = &r->schedule;
        add(&c, "schedule", "", "gpus", "Pool GPUs", s->gpus, "GPUs", BETTER_LOWER);
        add_fraction(&c, "schedule", "", "utilization", "Utilisation", s->utilization,
                     BETTER_HIGHER);
        for (int i = 0; i < s->n_teams; i++) {
            const TeamSchedResult *t = &s->teams[i];
            add(&c, "schedule", t->name, "wait_hours_p95", "Wait p95", t->wait_hours_p95, "h",
                BETTER_LOWER);
            add(&c, "schedule", t->name, "wait_hours_p50", "Wait p50", t->wait_hours_p50, "h",
                BETTER_LOWER);
        }
    }
    return c.n;
}

static bool same_key(const Headline *x, const Headline *y)
{
    return strcmp(x->section, y->section) == 0 && strcmp(x->subject, y->subject) == 0 &&
           strcmp(x->metric, y->metric) == 0;
}

static void fill_delta(HeadlineDelta *d)
{
    if (!(d->in_a && d->in_b))
        return;
    d->delta = d->b - d->a;
    d->pct = d->a != 0 ? d->delta / fabs(d->a) * 100.0 : 0.0;
    /* differences below 0.05 % are noise from formatting, not a verdict */
    double rel = fabs(d->delta) / fmax(fabs(d->a), fabs(d->b));
    if (d->delta == 0 || rel < 5e-4 || d->h.better == BETTER_NEITHER)
        d->verdict = 0;
    else if (d->h.better == BETTER_LOWER)
        d->verdict = d->delta < 0 ? 1 : -1;
    else
        d->verdict = d->delta > 0 ? 1 : -1;
}

int headline_compare(const Headline *a, int na, const Headline *b, int nb, HeadlineDelta *out,
                     int max)
{
    int n = 0;
    for (int i = 0; i < na && n < max; i++) {
        HeadlineDelta *d = &out[n++];
        memset(d, 0, sizeof *d);
        d->h = a[i];
        d->in_a = true;
        d->a = a[i].value;
        for (int j = 0; j < nb; j++) {
            if (same_key(&a[i], &b[j])) {
                d->in_b = true;
                d->b = b[j].value;
                break;
            }
        }
        fill_delta(d);
    }
    for (int j = 0; j < nb && n < max; j++) {
        bool seen = false;
        for (int i = 0; i < na && !seen; i++)
            seen = same_key(&a[i], &b[j]);
        if (seen)
            continue;
        HeadlineDelta *d = &out[n++];
        memset(d, 0, sizeof *d);
        d->h = b[j];
        d->in_b = true;
        d->b = b[j].value;
    }
    return n;
}

HeadlineDelta *headline_compare_plans(const Plan *a, const PlanResult *ra, const Plan *b,
                                      const PlanResult *rb, int *n)
{
    Headline *ha = calloc(HEADLINE_MAX, sizeof *ha), *hb = calloc(HEADLINE_MAX, sizeof *hb);
    HeadlineDelta *d = calloc(2 * HEADLINE_MAX, sizeof *d);
    *n = 0;
    if (ha && hb && d)
        *n = headline_compare(ha, headline_collect(a, ra, ha, HEADLINE_MAX), hb,
                              headline_collect(b, rb, hb, HEADLINE_MAX), d, 2 * HEADLINE_MAX);
    free(ha);
    free(hb);
    if (!(ha && hb)) {
        free(d);
        return NULL;
    }
    return d;
}
