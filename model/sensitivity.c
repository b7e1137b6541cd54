/* model/sensitivity.c — tornado, verdict flips and Monte Carlo ranges (see
 * sensitivity.h).  Every number here comes from plan_evaluate_ex() on a
 * perturbed copy of the plan and catalog; nothing is extrapolated. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sched/sched_int.h"
#include "cost.h"
#include "sensitivity.h"

/* Bisection steps for a flip value: 2^-16 of the distance from the nominal
 * to the flipping end, far below what any range is known to. */
#define FLIP_STEPS 16

const char *verdict_name(Verdict v)
{
    return v == VERDICT_ONPREM ? "on-prem" : v == VERDICT_CLOUD ? "cloud" : "none";
}

static const char *const knob_labels[RANGE_COUNT] = {
    [RANGE_RESERVED_DISCOUNT] = "3-year discount", [RANGE_NODE_PRICE] = "node price",
    [RANGE_POWER_PRICE] = "power price",           [RANGE_PUE] = "PUE",
    [RANGE_HORIZON] = "horizon",                   [RANGE_MTBF] = "GPU MTBF",
    [RANGE_TOKENS] = "training tokens",            [RANGE_ARRIVALS] = "job arrivals",
    [RANGE_UTILIZATION] = "utilisation",           [RANGE_RESALE] = "resale value",
    [RANGE_MODEL_BAND] = "model error band",
};

const char *sens_knob_label(RangeKnob k)
{
    return (k >= 0 && k < RANGE_COUNT) ? knob_labels[k] : "?";
}

void sens_format_value(RangeKnob k, double v, char *buf, size_t len)
{
    switch (k) {
    case RANGE_RESERVED_DISCOUNT: snprintf(buf, len, "%.0f %%", v * 100); break;
    case RANGE_POWER_PRICE: snprintf(buf, len, "$%.3f/kWh", v); break;
    case RANGE_PUE: snprintf(buf, len, "%.2f", v); break;
    case RANGE_HORIZON: snprintf(buf, len, "%.1f years", v); break;
    case RANGE_MTBF: snprintf(buf, len, "%.0f h", v); break;
    case RANGE_NODE_PRICE: snprintf(buf, len, "%.2fx the catalog", v); break;
    case RANGE_TOKENS:
    case RANGE_ARRIVALS: snprintf(buf, len, "%.2fx the plan", v); break;
    case RANGE_UTILIZATION: snprintf(buf, len, "%.2fx the modelled", v); break;
    case RANGE_RESALE: snprintf(buf, len, "%.0f %% of the hardware", v * 100); break;
    case RANGE_MODEL_BAND:
        if (v == 0)
            snprintf(buf, len, "the point estimate");
        else
            snprintf(buf, len, "%+.2f of the band", v);
        break;
    default: snprintf(buf, len, "%g", v); break;
    }
}

void sens_format_short(RangeKnob k, double v, char *buf, size_t len)
{
    switch (k) {
    case RANGE_RESERVED_DISCOUNT: snprintf(buf, len, "%.0f%%", v * 100); break;
    case RANGE_POWER_PRICE: snprintf(buf, len, "$%.3f", v); break;
    case RANGE_PUE: snprintf(buf, len, "%.2f", v); break;
    case RANGE_HORIZON: snprintf(buf, len, "%.1f y", v); break;
    case RANGE_MTBF: snprintf(buf, len, "%.0fk h", v / 1000); break;
    case RANGE_NODE_PRICE:
    case RANGE_TOKENS:
    case RANGE_UTILIZATION:
    case RANGE_ARRIVALS: snprintf(buf, len, "x%.2f", v); break;
    case RANGE_RESALE: snprintf(buf, len, "%.0f%%", v * 100); break;
    case RANGE_MODEL_BAND: snprintf(buf, len, "%+.2f", v); break;
    default: snprintf(buf, len, "%.3g", v); break;
    }
}

/* Assumptions that rerun the training search or the scheduler. */
static bool knob_expensive(RangeKnob k)
{
    return k == RANGE_MTBF || k == RANGE_TOKENS || k == RANGE_ARRIVALS || k == RANGE_MODEL_BAND;
}

/* The Monte Carlo holds the horizon at the plan's: the TCO is cash over
 * the horizon, so a sample at another horizon measures another quantity
 * (a 1-year plan's samples at 1-5 years put its own TCO below its P10),
 * and how long the hardware is kept is the plan's decision, its value at
 * the end the resale knob's.  The tornado and the flips still vary it:
 * where the verdict turns with the horizon is what a decision needs. */
static bool knob_in_monte_carlo(RangeKnob k)
{
    return k != RANGE_HORIZON;
}

static bool same_acc(const char *a, const char *b)
{
    return strcasecmp(a, b) == 0;
}

void sens_outcome(const PlanResult *r, const Catalog *cat, SensOutcome *o)
{
    memset(o, 0, sizeof *o);
    o->gpus = r->cluster.gpus;
    /* compute racks of other accelerators (a workload on its own one) */
    for (int i = 0; i < r->cluster.n_rack_groups; i++) {
        const RackGroup *g = &r->cluster.rack_groups[i];
        if (strcmp(g->role, "compute") != 0 || !g->accelerator[0] ||
            same_acc(g->accelerator, r->cluster.accelerator))
            continue;
        const Accelerator *a = catalog_find_accelerator(cat, g->accelerator);
        if (a)
            o->gpus += (double)g->count * g->nodes * (a->gpus_per_node > 0 ? a->gpus_per_node : 1);
    }
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *w = &r->workloads[i];
        if (w->kind == WL_TRAINING && w->ok && w->train.train_days > o->days)
            o->days = w->train.train_days;
    }
    o->mw = r->power.facility_kw / 1000.0;
    const CostResult *c = &r->cost;
    o->utilization = c->utilization;
    int pick = c->chosen >= 0 ? c->chosen : c->cheapest;
    if (pick >= 0 && pick < c->n_options)
        o->tco = c->options[pick].tco_usd;
    for (int t = 0; t < r->schedule.n_teams; t++)
        if (r->schedule.teams[t].wait_hours_p95 > o->wait_p95_h)
            o->wait_p95_h = r->schedule.teams[t].wait_hours_p95;
    int best_on = -1, best_cl = -1;
    for (int i = 0; i < c->n_options; i++) {
        const CostOption *x = &c->options[i];
        if (!same_acc(x->accelerator, r->cluster.accelerator) || !(x->tco_usd > 0))
            continue;
        int *best = x->kind == COST_ONPREM ? &best_on : &best_cl;
        if (*best < 0 || x->tco_usd < c->options[*best].tco_usd)
            *best = i;
    }
    if (best_on >= 0)
        o->onprem_tco = c->options[best_on].tco_usd;
    if (best_cl >= 0) {
        o->cloud_tco = c->options[best_cl].tco_usd;
        snprintf(o->cloud, sizeof o->cloud, "%s", c->options[best_cl].name);
    }
    if (best_on >= 0 && best_cl >= 0)
        o->verdict = o->onprem_tco <= o->cloud_tco ? VERDICT_ONPREM : VERDICT_CLOUD;
}

/* ------------------------------------------------------------- workspace */

typedef struct {
    const Plan *plan;
    const Catalog *cat;
    EvalOptions opt;
    EvalCache *own_cache;
    Plan work;
    PlanResult res;
    Catalog wcat;
    Instance *inst;
    Accelerator *acc;
    bool active[RANGE_COUNT];
    bool from_plan[RANGE_COUNT];
    double nominal[RANGE_COUNT], low[RANGE_COUNT], high[RANGE_COUNT];
    int evaluations;
} Ws;

static void ws_free(Ws *w)
{
    if (!w)
        return;
    eval_cache_free(w->own_cache);
    free(w->inst);
    free(w->acc);
    free(w);
}

static Ws *ws_new(const Plan *p, const Catalog *c, const EvalOptions *opt)
{
    Ws *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->plan = p;
    w->cat = c;
    w->opt = opt ? *opt : eval_options_default();
    w->opt.alternatives = false;
    if (!w->opt.cache) {
        w->own_cache = eval_cache_new();
        if (!w->own_cache) {
            ws_free(w);
            return NULL;
        }
        w->opt.cache = w->own_cache;
    }
    w->wcat = *c;
    if (c->n_instances) {
        w->inst = malloc(c->n_instances * sizeof *w->inst);
        if (!w->inst) {
            ws_free(w);
            return NULL;
        }
    }
    if (c->n_accelerators) {
        w->acc = malloc(c->n_accelerators * sizeof *w->acc);
        if (!w->acc) {
            ws_free(w);
            return NULL;
        }
    }
    w->wcat.instances = w->inst;
    w->wcat.accelerators = w->acc;
    return w;
}

/* Set the perturbed plan and catalog to the given knob values (inactive
 * knobs stay as the plan has them).  At the nominal values the copies are
 * byte-identical to the originals. */
static void ws_apply(Ws *w, const double *v)
{
    const Plan *p = w->plan;
    const Catalog *c = w->cat;
    w->work = *p;
    if (c->n_instances)
        memcpy(w->inst, c->instances, c->n_instances * sizeof *w->inst);
    if (c->n_accelerators)
        memcpy(w->acc, c->accelerators, c->n_accelerators * sizeof *w->acc);
    for (int k = 0; k < RANGE_COUNT; k++) {
        if (!w->active[k] || v[k] == w->nominal[k])
            continue;
        double x = v[k];
        switch ((RangeKnob)k) {
        case RANGE_RESERVED_DISCOUNT:
            for (size_t i = 0; i < c->n_instances; i++) {
                double d = c->instances[i].reserved_3y_discount;
                if (d > 0) {
                    d += x - w->nominal[k];
                    w->inst[i].reserved_3y_discount = d < 0 ? 0 : d > 0.95 ? 0.95 : d;
                }
            }
            break;
        case RANGE_NODE_PRICE:
            for (size_t i = 0; i < c->n_accelerators; i++)
                w->acc[i].node_price_usd = c->accelerators[i].node_price_usd * x;
            break;
        case RANGE_POWER_PRICE: w->work.site.power_price_kwh = x; break;
        case RANGE_PUE: w->work.site.pue = x; break;
        case RANGE_HORIZON: w->work.horizon_years = x; break;
        case RANGE_MTBF: w->work.tenancy.mtbf_gpu_h = x; break;
        case RANGE_TOKENS:
            for (int i = 0; i < w->work.n_workloads; i++)
                if (w->work.workloads[i].kind == WL_TRAINING)
                    w->work.workloads[i].tokens = p->workloads[i].tokens * x;
            break;
        case RANGE_ARRIVALS:
            for (int t = 0; t < w->work.tenancy.n_teams; t++)
                for (int j = 0; j < w->work.tenancy.teams[t].n_jobs; j++)
                    w->work.tenancy.teams[t].jobs[j].per_day =
                        p->tenancy.teams[t].jobs[j].per_day * x;
            break;
        case RANGE_UTILIZATION: w->work.perturb.utilization = x > 0 ? x : 1e-6; break;
        case RANGE_RESALE: {
            /* the residual fraction, as if quoted (cost.c credits it) */
            Quote *q = &w->work.site.prices.resale;
            q->value = x;
            snprintf(q->source, sizeof q->source, "sensitivity range (ranges.resale)");
            q->date[0] = '\0';
            break;
        }
        case RANGE_MODEL_BAND: w->work.perturb.band = x; break;
        default: break;
        }
    }
}

/* Evaluate at knob values v; 0, or -1 when cancelled. */
static int ws_eval(Ws *w, const double *v, SensOutcome *o)
{
    ws_apply(w, v);
    w->evaluations++;
    if (plan_evaluate_ex(&w->work, &w->wcat, &w->opt, &w->res) < 0)
        return -1;
    sens_outcome(&w->res, &w->wcat, o);
    return 0;
}

/* The nominal value of each knob, and which knobs apply with which range. */
static void ws_ranges(Ws *w, const SensOutcome *base)
{
    const Plan *p = w->plan;
    const Catalog *c = w->cat;
    bool training = false, classes = false;
    for (int i = 0; i < p->n_workloads; i++)
        training |= p->workloads[i].kind == WL_TRAINING && p->workloads[i].tokens > 0;
    for (int t = 0; t < p->tenancy.n_teams; t++)
        classes |= p->tenancy.teams[t].n_jobs > 0;
    double rival_discount = 0;
    if (base->cloud[0]) {
        for (int i = 0; i < w->res.cost.n_options; i++) {
            const CostOption *x = &w->res.cost.options[i];
            if (strcmp(x->name, base->cloud) == 0) {
                const Instance *in = catalog_find_instance(c, x->instance);
                rival_discount = in ? in->reserved_3y_discount : 0;
                break;
            }
        }
    }
    bool payg = false; /* a pay-per-use cloud option on the plan's accelerator */
    for (int i = 0; i < w->res.cost.n_options; i++) {
        const CostOption *x = &w->res.cost.options[i];
        payg |= x->pay_as_you_go && !x->sized && x->tco_usd > 0;
    }
    double mtbf = p->tenancy.mtbf_gpu_h > 0                 ? p->tenancy.mtbf_gpu_h
                  : c->costs.mtbf_gpu_hours_default > 0 ? c->costs.mtbf_gpu_hours_default
                                                        : 50000;
    bool applies[RANGE_COUNT] = {
        [RANGE_RESERVED_DISCOUNT] = rival_discount > 0,
        [RANGE_NODE_PRICE] = base->onprem_tco > 0,
        [RANGE_POWER_PRICE] = true,
        [RANGE_PUE] = true,
        [RANGE_HORIZON] = true,
        [RANGE_MTBF] = true,
        [RANGE_TOKENS] = training,
        [RANGE_ARRIVALS] = classes,
        [RANGE_UTILIZATION] = payg && base->utilization > 0,
        [RANGE_RESALE] = base->onprem_tco > 0,
        [RANGE_MODEL_BAND] = p->n_workloads > 0,
    };
    double nominal[RANGE_COUNT] = {
        [RANGE_RESERVED_DISCOUNT] = rival_discount,
        [RANGE_NODE_PRICE] = 1,
        [RANGE_POWER_PRICE] = p->site.power_price_kwh,
        [RANGE_PUE] = p->site.pue,
        [RANGE_HORIZON] = p->horizon_years,
        [RANGE_MTBF] = mtbf,
        [RANGE_TOKENS] = 1,
        [RANGE_ARRIVALS] = 1,
        [RANGE_UTILIZATION] = 1,
        [RANGE_RESALE] = cost_resale_fraction(p, c),
        [RANGE_MODEL_BAND] = 0,
    };
    for (int k = 0; k < RANGE_COUNT; k++) {
        w->nominal[k] = nominal[k];
        const RangeSpec *ps = &p->ranges.knobs[k];
        const CatalogRange *cr = &c->ranges[k];
        w->active[k] = false;
        if (!applies[k])
            continue;
        if (ps->low != 0 || ps->high != 0) {
            w->low[k] = ps->low;
            w->high[k] = ps->high;
            w->from_plan[k] = true;
        } else if (cr->given) {
            w->low[k] = cr->low;
            w->high[k] = cr->high;
        } else {
            continue;
        }
        w->active[k] = isfinite(w->low[k]) && isfinite(w->high[k]) && w->low[k] <= w->high[k] &&
                       !(w->low[k] == w->high[k] && w->low[k] == nominal[k]);
    }
}

/* Evaluate the unperturbed plan, then set up the ranges. */
static int ws_base(Ws *w, SensOutcome *base)
{
    double v[RANGE_COUNT] = {0};
    for (int k = 0; k < RANGE_COUNT; k++)
        w->active[k] = false;
    if (ws_eval(w, v, base) < 0)
        return -1;
    ws_ranges(w, base);
    return 0;
}

/* ------------------------------------------------------------- tornado */

/* Bisection between the nominal (verdict as the base) and `end` (verdict
 * differs) on knob k; the first value at which the verdict differs. */
static int find_flip(Ws *w, int k, double end, Verdict base, double *flip)
{
    double v[RANGE_COUNT];
    memcpy(v, w->nominal, sizeof v);
    double keep = w->nominal[k], turn = end;
    for (int i = 0; i < FLIP_STEPS; i++) {
        double mid = 0.5 * (keep + turn);
        v[k] = mid;
        SensOutcome o;
        if (ws_eval(w, v, &o) < 0)
            return -1;
        if (o.verdict == base)
            keep = mid;
        else
            turn = mid;
    }
    *flip = turn;
    return 0;
}

static const char *knob_phrase(RangeKnob k)
{
    switch (k) {
    case RANGE_RESERVED_DISCOUNT: return "the 3-year discount";
    case RANGE_NODE_PRICE: return "node prices";
    case RANGE_POWER_PRICE: return "power";
    case RANGE_PUE: return "PUE";
    case RANGE_HORIZON: return "the horizon";
    case RANGE_MTBF: return "GPU MTBF";
    case RANGE_TOKENS: return "training tokens";
    case RANGE_ARRIVALS: return "job arrivals";
    case RANGE_UTILIZATION: return "utilisation";
    case RANGE_RESALE: return "the resale value";
    case RANGE_MODEL_BAND: return "the model's error";
    default: return "?";
    }
}

void sens_format_flip(const SensResult *s, const SensBar *bar, char *buf, size_t len)
{
    if (!bar->flips) {
        snprintf(buf, len, "%s", "");
        return;
    }
    char val[64];
    if (bar->knob == RANGE_UTILIZATION && s->base.utilization > 0)
        /* said as the share itself: "utilisation < 71 %" */
        snprintf(val, sizeof val, "%.0f %%", fmin(1, bar->flip_value * s->base.utilization) * 100);
    else
        sens_format_value(bar->knob, bar->flip_value, val, sizeof val);
    snprintf(buf, len, "%s %s %s", knob_phrase(bar->knob), bar->flip_side < 0 ? "<" : ">", val);
}

static void write_sentence(SensResult *s)
{
    char *b = s->sentence;
    size_t n = sizeof s->sentence;
    if (s->base.verdict == VERDICT_NONE) {
        snprintf(b, n, "no verdict: the plan has no priced on-prem option and cloud rival "
                       "on its accelerator");
        return;
    }
    const char *other = s->base.verdict == VERDICT_ONPREM ? "cloud" : "on-prem";
    if (s->n_deciders == 0) {
        /* nearest: the bar whose end brings the two sides closest */
        int best = -1;
        double best_gap = 0;
        for (int i = 0; i < s->n_bars; i++) {
            const SensBar *bar = &s->bars[i];
            const SensOutcome *ends[2] = {&bar->at_low, &bar->at_high};
            for (int e = 0; e < 2; e++) {
                if (ends[e]->verdict == VERDICT_NONE)
                    continue;
                double gap = fabs(ends[e]->cloud_tco - ends[e]->onprem_tco);
                if (best < 0 || gap < best_gap) {
                    best = i;
                    best_gap = gap;
                }
            }
        }
        if (best < 0)
            snprintf(b, n, "%s holds: no assumption has a range", verdict_name(s->base.verdict));
        else
            snprintf(b, n, "%s holds over every range; nearest to flipping: %s (margin $%.3gM "
                           "at one end)",
                     verdict_name(s->base.verdict), sens_knob_label(s->bars[best].knob),
                     best_gap / 1e6);
        return;
    }
    size_t at = (size_t)snprintf(b, n, "%s wins if ", other);
    for (int i = 0; i < s->n_deciders && at < n; i++) {
        char cond[96];
        sens_format_flip(s, &s->bars[s->deciders[i]], cond, sizeof cond);
        at += (size_t)snprintf(b + at, n - at, "%s%s", i ? " or " : "", cond);
    }
}

int sens_run(const Plan *p, const Catalog *c, const EvalOptions *opt, SensResult *out)
{
    memset(out, 0, sizeof *out);
    Ws *w = ws_new(p, c, opt);
    if (!w)
        return -2;
    int rc = -1;
    if (ws_base(w, &out->base) < 0)
        goto done;
    for (int k = 0; k < RANGE_COUNT; k++) {
        if (!w->active[k])
            continue;
        SensBar *bar = &out->bars[out->n_bars];
        memset(bar, 0, sizeof *bar);
        bar->knob = (RangeKnob)k;
        bar->nominal = w->nominal[k];
        bar->low = w->low[k];
        bar->high = w->high[k];
        bar->from_plan = w->from_plan[k];
        double v[RANGE_COUNT];
        memcpy(v, w->nominal, sizeof v);
        v[k] = bar->low;
        if (ws_eval(w, v, &bar->at_low) < 0)
            goto done;
        v[k] = bar->high;
        if (ws_eval(w, v, &bar->at_high) < 0)
            goto done;
        bar->swing_tco = fabs(bar->at_high.tco - bar->at_low.tco);
        Verdict bv = out->base.verdict;
        if (bv != VERDICT_NONE) {
            /* the end nearer to the nominal first: that flip is the fragile one */
            double ends[2] = {bar->low, bar->high};
            const SensOutcome *eo[2] = {&bar->at_low, &bar->at_high};
            for (int e = 0; e < 2 && !bar->flips; e++) {
                if (eo[e]->verdict == VERDICT_NONE || eo[e]->verdict == bv ||
                    ends[e] == bar->nominal)
                    continue;
                if (find_flip(w, k, ends[e], bv, &bar->flip_value) < 0)
                    goto done;
                bar->flips = true;
                bar->flip_side = e == 0 ? -1 : 1;
                bar->closeness = fabs(bar->flip_value - bar->nominal) /
                                 fabs(ends[e] - bar->nominal);
            }
        }
        out->n_bars++;
    }
    /* tornado order: largest TCO swing first (stable by knob order) */
    for (int i = 1; i < out->n_bars; i++) {
        SensBar key = out->bars[i];
        int j = i - 1;
        while (j >= 0 && out->bars[j].swing_tco < key.swing_tco) {
            out->bars[j + 1] = out->bars[j];
            j--;
        }
        out->bars[j + 1] = key;
    }
    for (int i = 0; i < out->n_bars; i++) {
        if (!out->bars[i].flips)
            continue;
        if (out->n_deciders < 2) {
            out->deciders[out->n_deciders++] = i;
        } else {
            int worst = out->bars[out->deciders[0]].closeness >
                                out->bars[out->deciders[1]].closeness
                            ? 0 : 1;
            if (out->bars[i].closeness < out->bars[out->deciders[worst]].closeness)
                out->deciders[worst] = i;
        }
    }
    if (out->n_deciders == 2 &&
        out->bars[out->deciders[1]].closeness < out->bars[out->deciders[0]].closeness) {
        int t = out->deciders[0];
        out->deciders[0] = out->deciders[1];
        out->deciders[1] = t;
    }
    write_sentence(out);
    rc = 0;
done:
    out->evaluations = w->evaluations;
    out->cancelled = rc == -1;
    ws_free(w);
    return rc;
}

/* ----------------------------------------------------------- Monte Carlo */

double mc_triangular(double lo, double mode, double hi, double u)
{
    if (!(hi > lo))
        return lo;
    if (mode < lo)
        mode = lo;
    if (mode > hi)
        mode = hi;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    double fc = (mode - lo) / (hi - lo);
    if (u < fc)
        return lo + sqrt(u * (hi - lo) * (mode - lo));
    return hi - sqrt((1 - u) * (hi - lo) * (hi - mode));
}

double mc_quantile(const double *x, int n, double p)
{
    if (n <= 0)
        return 0;
    double h = (n - 1) * p;
    int i = (int)floor(h);
    if (i >= n - 1)
        return x[n - 1];
    if (i < 0)
        return x[0];
    return x[i] + (h - i) * (x[i + 1] - x[i]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void mc_sort(double *x, size_t n)
{
    if (x && n > 1)
        qsort(x, n, sizeof *x, cmp_double);
}

static Percentiles percentiles(double *x, int n)
{
    mc_sort(x, (size_t)n);
    Percentiles p = {mc_quantile(x, n, 0.10), mc_quantile(x, n, 0.50), mc_quantile(x, n, 0.90)};
    return p;
}

typedef struct {
    int index;
    int strata[RANGE_COUNT];     /* expensive knobs' stratum, -1 for cheap knobs */
} McOrder;

static int cmp_order(const void *a, const void *b)
{
    const McOrder *x = a, *y = b;
    for (int k = 0; k < RANGE_COUNT; k++)
        if (x->strata[k] != y->strata[k])
            return x->strata[k] - y->strata[k];
    return x->index - y->index;
}

int mc_run(const Plan *p, const Catalog *c, const EvalOptions *opt, int samples, McResult *out)
{
    memset(out, 0, sizeof *out);
    if (samples <= 0)
        samples = p->ranges.samples > 0 ? p->ranges.samples : MC_DEFAULT_SAMPLES;
    if (samples > MC_MAX_SAMPLES)
        samples = MC_MAX_SAMPLES;
    out->samples = samples;
    out->seed = p->ranges.seed;
    Ws *w = ws_new(p, c, opt);
    double *vals = calloc((size_t)samples * RANGE_COUNT, sizeof *vals);
    double *days = calloc((size_t)samples, sizeof *days);
    double *gpus = calloc((size_t)samples, sizeof *gpus);
    double *mw = calloc((size_t)samples, sizeof *mw);
    double *tco = calloc((size_t)samples, sizeof *tco);
    McOrder *order = calloc((size_t)samples, sizeof *order);
    int rc = -2;
    if (!w || !vals || !days || !gpus || !mw || !tco || !order)
        goto done;
    rc = -1;
    SensOutcome base;
    if (ws_base(w, &base) < 0)
        goto done;
    for (int k = 0; k < RANGE_COUNT; k++)
        out->n_knobs += w->active[k] && knob_in_monte_carlo((RangeKnob)k);
    /* Draw every sample first (one stream, knob by knob, in sample order),
     * then evaluate grouped by the expensive knobs' strata so each
     * combination runs the search and the scheduler once. */
    SchedRng rng;
    sched_rng_seed(&rng, p->ranges.seed);
    for (int s = 0; s < samples; s++) {
        order[s].index = s;
        for (int k = 0; k < RANGE_COUNT; k++) {
            double u = sched_rng_uniform(&rng);
            order[s].strata[k] = -1;
            double *v = &vals[(size_t)s * RANGE_COUNT + k];
            if (!w->active[k] || !knob_in_monte_carlo((RangeKnob)k)) {
                *v = w->nominal[k];
                continue;
            }
            if (knob_expensive((RangeKnob)k)) {
                int st = (int)floor(u * MC_STRATA);
                st = st < 0 ? 0 : st >= MC_STRATA ? MC_STRATA - 1 : st;
                order[s].strata[k] = st;
                u = (st + 0.5) / MC_STRATA;
            }
            /* a plan value outside the stated range widens it: the
             * three-point estimate's mode is the plan's value, never
             * clamped to an end (a 1-year horizon against the catalog's
             * 2-5 years drew every sample at 2 years or more) */
            double lo = fmin(w->low[k], w->nominal[k]), hi = fmax(w->high[k], w->nominal[k]);
            *v = mc_triangular(lo, w->nominal[k], hi, u);
        }
    }
    qsort(order, (size_t)samples, sizeof *order, cmp_order);
    int other = 0;
    for (int i = 0; i < samples; i++) {
        int s = order[i].index;
        SensOutcome o;
        if (ws_eval(w, &vals[(size_t)s * RANGE_COUNT], &o) < 0)
            goto done;
        days[s] = o.days;
        gpus[s] = o.gpus;
        mw[s] = o.mw;
        tco[s] = o.tco;
        other += o.verdict != base.verdict;
    }
    out->days = percentiles(days, samples);
    out->gpus = percentiles(gpus, samples);
    out->mw = percentiles(mw, samples);
    out->tco = percentiles(tco, samples);
    out->share_other_verdict = (double)other / samples;
    rc = 0;
done:
    out->evaluations = w ? w->evaluations : 0;
    out->cancelled = rc == -1;
    ws_free(w);
    free(vals);
    free(days);
    free(gpus);
    free(mw);
    free(tco);
    free(order);
    return rc;
}
