/* model/cost.c — what the cluster costs on-prem and in each cloud.
 *
 * On-prem (one option):
 *   hardware = compute nodes x node price (catalog, per accelerator of each
 *              compute rack group) + switches x switch price + cables x link
 *              price + storage units x unit price
 *   capex    = hardware + facility build-out $/kW x IT kW
 *   opex/yr  = energy (power.c) + maintenance fraction x hardware
 *              + staff $/MW-year x IT MW                (CostAssumptions)
 *   TCO      = capex + opex x horizon_years
 *   $/GPU-h  = TCO / (GPUs x horizon hours x utilisation): the cost of a
 *              GPU-hour actually used.  Utilisation = dedicated training and
 *              inference GPUs (busy) + the pool at the scheduler's simulated
 *              utilisation, over every installed GPU (headroom is idle).
 *
 * Cloud (per instance x pricing), for the same GPU count rounded up to whole
 * instances and held for the horizon:
 *   on-demand, reserved-1y/3y (on-demand x (1 - the catalog's labelled
 *   discount assumption)), spot (the catalog's spot price, inflated by the
 *   work an interruption costs: a job spanning n instances is interrupted
 *   n x λ times a day (λ = the catalog's per-instance interruption rate) and
 *   each time loses half a checkpoint interval plus tenancy.restore; a GPU
 *   that loses a fraction f of its time costs 1/(1-f) per useful hour).
 * Per option: cost per training run = the training workloads' GPU-hours on
 * that accelerator x $/GPU-h; per million output tokens = GPU-hours per
 * million tokens x $/GPU-h; break-even utilisation = on-prem TCO / (cloud
 * $/GPU-h x on-prem GPUs x horizon hours): above it on-prem is cheaper per
 * GPU-hour used (> 1: never).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cost.h"
#include "layout.h"

#define HOURS_PER_YEAR 8760.0
#define SECONDS_PER_DAY 86400.0
/* Spot is not offered when interruptions would eat this share of a job's
 * time: nothing useful is bought at that point. */
#define COST_SPOT_MAX_LOSS 0.9

static const char *const pricing_names[] = {"on-demand", "reserved-1y", "reserved-3y", "spot"};

/* snprintf that truncates silently: catalog sources can be long, and a
 * cut-off citation is better than none. */
static void textf(char *dst, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void textf(char *dst, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, n, fmt, ap);
    va_end(ap);
}

static double nonneg(double v)
{
    return isfinite(v) && v > 0 ? v : 0;
}

static const char *older(const char *a, const char *b)
{
    if (!a[0])
        return b;
    if (!b[0])
        return a;
    return strcmp(a, b) <= 0 ? a : b;
}

/* What the workloads need on one accelerator, for the per-run and
 * per-token figures. */
typedef struct {
    double run_gpu_hours;     /* all training workloads, 0 = none or unknown */
    bool run_known;
    double mtok_gpu_hours;    /* per million output tokens, token-weighted */
    bool mtok_known;
} Demand;

static bool same_acc(const char *a, const char *b)
{
    return strcasecmp(a, b) == 0;
}

static Demand demand_on(const Plan *p, const PlanResult *r, const char *acc)
{
    Demand d = {0, true, 0, true};
    double tok_sum = 0, weighted = 0;
    int n_train = 0, n_inf = 0;
    for (int i = 0; i < r->n_workloads && i < p->n_workloads; i++) {
        const Workload *w = &p->workloads[i];
        const WorkloadResult *wr = &r->workloads[i];
        const char *own = wr->accelerator[0] ? wr->accelerator : workload_accelerator(p, w);
        const AccelOption *alt = NULL;
        if (!same_acc(own, acc))
            for (int j = 0; j < wr->n_alts; j++)
                if (same_acc(wr->alts[j].accelerator, acc) && wr->alts[j].ok)
                    alt = &wr->alts[j];
        if (w->kind == WL_TRAINING) {
            n_train++;
            double gh = same_acc(own, acc) ? nonneg(wr->train.gpu_hours)
                        : alt                ? nonneg(alt->gpus * alt->days * 24.0)
                                             : 0;
            if (gh <= 0)
                d.run_known = false;
            d.run_gpu_hours += gh;
        } else {
            n_inf++;
            double tok = nonneg(w->requests_per_s * w->output_tokens);
            double gh = 0;
            if (same_acc(own, acc))
                gh = nonneg(wr->infer.gpu_hours_per_mtok);
            else if (alt && tok > 0)
                gh = alt->gpus * 1e6 / (3600.0 * tok);
            if (gh <= 0 || tok <= 0)
                d.mtok_known = false;
            tok_sum += tok;
            weighted += gh * tok;
        }
    }
    if (n_train == 0 || !d.run_known) {
        d.run_known = false;
        d.run_gpu_hours = 0;
    }
    d.mtok_known = d.mtok_known && n_inf > 0 && tok_sum > 0;
    d.mtok_gpu_hours = d.mtok_known ? weighted / tok_sum : 0;
    return d;
}

typedef struct {
    const Plan *p;
    const Catalog *c;
    PlanResult *r;
    double years, hours;
    int gpus;                 /* the cluster's installed GPUs (all islands) */
    double onprem_tco;        /* 0 = no on-prem option */
    int onprem_gpus;
    bool full_warned;
} Ctx;

static CostOption *new_option(Ctx *x)
{
    CostResult *cr = &x->r->cost;
    if (cr->n_options >= PLAN_MAX_COST_OPTIONS) {
        if (!x->full_warned)
            result_assume(x->r, "cost", "only the first %d cost options are listed",
                          PLAN_MAX_COST_OPTIONS);
        x->full_warned = true;
        return NULL;
    }
    CostOption *o = &cr->options[cr->n_options++];
    memset(o, 0, sizeof *o);
    return o;
}

/* Installed GPUs (the plan's accelerator plus other islands' compute
 * racks) and the price of their nodes; *priced is false when the plan's
 * accelerator has no on-prem node price. */
static void compute_racks(const Catalog *c, const ClusterResult *k, int *gpus, double *price,
                          bool *priced)
{
    const Accelerator *m = catalog_find_accelerator(c, k->accelerator);
    *gpus = k->gpus;
    *price = m ? k->nodes * nonneg(m->node_price_usd) : 0;
    *priced = m && nonneg(m->node_price_usd) > 0;
    for (int i = 0; i < k->n_rack_groups; i++) {
        const RackGroup *g = &k->rack_groups[i];
        if (strcmp(g->role, "compute") != 0 || same_acc(g->accelerator, k->accelerator))
            continue;
        const Accelerator *a = catalog_find_accelerator(c, g->accelerator);
        if (!a)
            continue;
        double nodes = (double)g->count * g->nodes;
        *gpus += (int)(nodes * (a->gpus_per_node > 0 ? a->gpus_per_node : 1));
        *price += nodes * nonneg(a->node_price_usd);
    }
}

static void onprem_option(Ctx *x)
{
    const Catalog *c = x->c;
    PlanResult *r = x->r;
    const ClusterResult *k = &r->cluster;
    const CostAssumptions *ca = &c->costs;
    int gpus;
    double nodes_usd;
    bool priced;
    compute_racks(c, k, &gpus, &nodes_usd, &priced);
    if (gpus <= 0)
        return;
    if (!priced) {
        result_assume(r, "cost", "no on-prem option: the catalog has no node price for %s",
                      k->accelerator);
        return;
    }
    const StorageSystem *s = catalog_find_storage(c, layout_storage_id(x->p->storage.system));
    double switches = (double)k->leaf_switches + k->spine_switches + k->core_switches;
    double hw = nodes_usd + switches * nonneg(ca->switch_price_usd) +
                (double)k->links * nonneg(ca->link_price_usd) +
                (s ? k->storage_units * nonneg(s->unit_price_usd) : 0);
    double facility = nonneg(ca->facility_usd_per_kw) * nonneg(r->power.it_kw);
    double opex = nonneg(r->power.energy_usd_per_year) +
                  nonneg(ca->maintenance_frac_per_year) * hw +
                  nonneg(ca->staff_usd_per_mw_year) * nonneg(r->power.it_kw) / 1000.0;

    /* utilisation: dedicated capacity busy, the pool as simulated */
    double pool_util = 1.0;
    if (k->gpus_pool > 0) {
        if (r->schedule.ran && isfinite(r->schedule.utilization)) {
            pool_util = r->schedule.utilization < 0   ? 0
                        : r->schedule.utilization > 1 ? 1
                                                      : r->schedule.utilization;
        } else {
            result_assume(r, "cost",
                          "utilisation: the tenancy pool was not simulated and counts as busy "
                          "(the on-prem $/GPU-hour is then a lower bound)");
        }
    }
    int other = gpus - k->gpus; /* other accelerators' islands, dedicated */
    double busy = k->gpus_training + k->gpus_inference + k->gpus_pool * pool_util +
                  (other > 0 ? other : 0);
    double util = busy / gpus;
    if (util > 1)
        util = 1;
    r->cost.utilization = util;
    result_assume(r, "cost",
                  "on-prem utilisation %.0f%%: training and inference GPUs busy, pool at %.0f%%, "
                  "headroom idle",
                  util * 100, pool_util * 100);

    CostOption *o = new_option(x);
    if (!o)
        return;
    snprintf(o->name, sizeof o->name, "on-prem %s", k->accelerator);
    o->kind = COST_ONPREM;
    snprintf(o->provider, sizeof o->provider, "on-prem");
    snprintf(o->accelerator, sizeof o->accelerator, "%s", k->accelerator);
    o->pricing = PRICING_ON_DEMAND;
    o->gpus = gpus;
    o->capex_usd = hw + facility;
    o->opex_usd_per_year = opex;
    o->tco_usd = o->capex_usd + opex * x->years;
    double used = gpus * x->hours * util;
    o->usd_per_gpu_hour = used > 0 ? o->tco_usd / used : 0;
    Demand d = demand_on(x->p, r, k->accelerator);
    o->usd_per_training_run = d.run_gpu_hours * o->usd_per_gpu_hour;
    o->usd_per_million_tokens = d.mtok_gpu_hours * o->usd_per_gpu_hour;
    o->breakeven_utilization = 0;
    const Accelerator *a = catalog_find_accelerator(c, k->accelerator);
    textf(o->source, sizeof o->source, "node: %s; switches, links, facility, staff: %s",
             a ? a->source : "?", ca->source);
    snprintf(o->as_of, sizeof o->as_of, "%s", older(a ? a->as_of : "", ca->as_of));
    x->onprem_tco = o->tco_usd;
    x->onprem_gpus = gpus;
    result_assume(r, "cost",
                  "on-prem: hardware $%.0f, facility $%.0f/kW, maintenance %.0f%%/yr, staff "
                  "$%.0f per MW-year (%s)",
                  hw, nonneg(ca->facility_usd_per_kw), nonneg(ca->maintenance_frac_per_year) * 100,
                  nonneg(ca->staff_usd_per_mw_year), ca->source);
}

/* Fraction of time a spot GPU of instance `in` loses, for a job of `gpus`
 * GPUs that checkpoints every `interval_s` (0: no checkpoint, only the
 * restart is lost). */
static double spot_loss(const Instance *in, double gpus, double interval_s, double restore_s)
{
    int per = in->accel_count > 0 ? in->accel_count : 1;
    double instances = ceil(gpus / per - 1e-9);
    if (instances < 1)
        instances = 1;
    double per_s = instances * nonneg(in->spot_interruptions_per_day) / SECONDS_PER_DAY;
    return per_s * (nonneg(interval_s) / 2.0 + restore_s);
}

static void cloud_option(Ctx *x, const Instance *in, Pricing pr)
{
    const Plan *p = x->p;
    PlanResult *r = x->r;
    int per = in->accel_count;
    double od = nonneg(in->on_demand_usd_h);
    if (per <= 0 || x->gpus <= 0)
        return;
    double price = 0;
    switch (pr) {
    case PRICING_ON_DEMAND: price = od; break;
    case PRICING_RESERVED_1Y:
        price = nonneg(in->reserved_1y_discount) > 0 ? od * (1 - in->reserved_1y_discount) : 0;
        break;
    case PRICING_RESERVED_3Y:
        price = nonneg(in->reserved_3y_discount) > 0 ? od * (1 - in->reserved_3y_discount) : 0;
        break;
    case PRICING_SPOT: price = nonneg(in->spot_usd_h); break;
    }
    if (!(price > 0))
        return; /* not offered, or the catalog has no figure */
    double instances = ceil((double)x->gpus / per - 1e-9);
    int gpus = (int)(instances * per);
    double gpu_rate = price / per;

    /* spot: each training workload loses its own share, every other GPU
     * (inference, pool, headroom) loses a restart per interruption */
    double restore = nonneg(p->tenancy.restore_s);
    double run_infl = 1, tok_infl = 1, gpu_hours_per_h = gpus;
    if (pr == PRICING_SPOT) {
        double f0 = spot_loss(in, per, 0, restore);
        double train_gpus = 0, weighted = 0, run_w = 0, run_gh = 0;
        for (int i = 0; i < r->n_workloads && i < p->n_workloads; i++) {
            const TrainResult *t = &r->workloads[i].train;
            if (p->workloads[i].kind != WL_TRAINING || t->gpus <= 0)
                continue;
            double f = spot_loss(in, t->gpus, t->checkpoint_interval_s, restore);
            if (f >= COST_SPOT_MAX_LOSS) {
                result_assume(r, "cost",
                              "no %s spot option: %s on %d GPUs would be interrupted %.1f times "
                              "a day and lose %.0f%% of its time",
                              in->id, p->workloads[i].name, t->gpus,
                              ceil((double)t->gpus / per) * nonneg(in->spot_interruptions_per_day),
                              f > 1 ? 100.0 : f * 100);
                return;
            }
            train_gpus += t->gpus;
            weighted += t->gpus / (1 - f);
            run_gh += nonneg(t->gpu_hours);
            run_w += nonneg(t->gpu_hours) / (1 - f);
        }
        if (f0 >= COST_SPOT_MAX_LOSS)
            return;
        double rest = gpus - train_gpus;
        gpu_hours_per_h = weighted + (rest > 0 ? rest : 0) / (1 - f0);
        run_infl = run_gh > 0 ? run_w / run_gh : 1;
        tok_infl = 1 / (1 - f0);
    }

    CostOption *o = new_option(x);
    if (!o)
        return;
    snprintf(o->name, sizeof o->name, "%s %s", in->id, pricing_names[pr]);
    o->kind = COST_CLOUD;
    snprintf(o->provider, sizeof o->provider, "%s", provider_name(in->provider));
    snprintf(o->instance, sizeof o->instance, "%s", in->id);
    snprintf(o->accelerator, sizeof o->accelerator, "%s", in->accelerator);
    o->pricing = pr;
    o->gpus = gpus;
    o->capex_usd = 0;
    o->opex_usd_per_year = gpu_rate * gpu_hours_per_h * HOURS_PER_YEAR;
    o->tco_usd = o->opex_usd_per_year * x->years;
    o->usd_per_gpu_hour = gpu_rate * gpu_hours_per_h / gpus;
    Demand d = demand_on(p, r, in->accelerator);
    o->usd_per_training_run = d.run_gpu_hours * gpu_rate * run_infl;
    o->usd_per_million_tokens = d.mtok_gpu_hours * gpu_rate * tok_infl;
    double cloud_cost_at_full = o->usd_per_gpu_hour * x->onprem_gpus * x->hours;
    o->breakeven_utilization = x->onprem_tco > 0 && cloud_cost_at_full > 0
                                   ? x->onprem_tco / cloud_cost_at_full
                                   : 0;
    if (pr == PRICING_RESERVED_1Y || pr == PRICING_RESERVED_3Y)
        textf(o->source, sizeof o->source, "%s; %.0f%% off on-demand is an assumption: %s",
                 in->source,
                 (pr == PRICING_RESERVED_1Y ? in->reserved_1y_discount : in->reserved_3y_discount) *
                     100,
                 in->price_notes);
    else if (pr == PRICING_SPOT)
        textf(o->source, sizeof o->source,
                 "%s; %.2f interruptions/instance/day assumed, lost work + %.0f s restore",
                 in->source, nonneg(in->spot_interruptions_per_day), restore);
    else
        textf(o->source, sizeof o->source, "%s", in->source);
    snprintf(o->as_of, sizeof o->as_of, "%s", in->as_of);
}

static void cloud_all_pricings(Ctx *x, const Instance *in)
{
    for (int pr = PRICING_ON_DEMAND; pr <= PRICING_SPOT; pr++)
        cloud_option(x, in, (Pricing)pr);
}

/* Cheapest instance of an accelerator per accelerator-hour on demand. */
static const Instance *cheapest_of(const Catalog *c, const char *acc)
{
    const Instance *best = NULL;
    for (size_t i = 0; i < c->n_instances; i++) {
        const Instance *in = &c->instances[i];
        if (!same_acc(in->accelerator, acc) || in->accel_count <= 0 || !(nonneg(in->on_demand_usd_h) > 0))
            continue;
        if (!best || in->on_demand_usd_h / in->accel_count < best->on_demand_usd_h / best->accel_count)
            best = in;
    }
    return best;
}

/* True when an earlier instance in the catalog carries the same accelerator
 * (so each accelerator is visited once). */
static bool seen_before(const Catalog *c, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (same_acc(c->instances[j].accelerator, c->instances[i].accelerator))
            return true;
    return false;
}

static void sort_options(CostResult *cr)
{
    for (int i = 1; i < cr->n_options; i++) {
        CostOption key = cr->options[i];
        int j = i - 1;
        while (j >= 0 && (cr->options[j].tco_usd > key.tco_usd ||
                          (cr->options[j].tco_usd == key.tco_usd &&
                           strcmp(cr->options[j].name, key.name) > 0))) {
            cr->options[j + 1] = cr->options[j];
            j--;
        }
        cr->options[j + 1] = key;
    }
}

void cost_stage(const Plan *p, const Catalog *c, PlanResult *r)
{
    CostResult *cr = &r->cost;
    memset(cr, 0, sizeof *cr);
    cr->cheapest = -1;
    r->have_cost = true;

    Ctx x = {.p = p, .c = c, .r = r};
    x.years = nonneg(p->horizon_years);
    if (x.years <= 0)
        result_warn(r, "cost: horizon_years is 0; TCO is the capex alone");
    x.hours = x.years * HOURS_PER_YEAR;
    bool priced;
    double unused;
    compute_racks(c, &r->cluster, &x.gpus, &unused, &priced);

    const Instance *site = NULL;
    if (p->site.kind == SITE_CLOUD) {
        site = catalog_find_instance(c, p->site.instance);
        if (!site)
            result_warn(r, "cost: site.instance '%s' is not in the catalog", p->site.instance);
        else if (!same_acc(site->accelerator, p->accelerator))
            result_warn(r, "cost: site.instance %s carries %s, not the plan's %s", site->id,
                        site->accelerator, p->accelerator);
    }
    if (x.gpus <= 0)
        return; /* nothing to price: a valid, empty result */

    onprem_option(&x);
    /* the plan's own instance first, then every instance of the plan's
     * accelerator, then the cheapest instance of every other accelerator,
     * then the rest (in this order until the list is full) */
    if (site)
        cloud_all_pricings(&x, site);
    for (size_t i = 0; i < c->n_instances; i++)
        if (&c->instances[i] != site && same_acc(c->instances[i].accelerator, p->accelerator))
            cloud_all_pricings(&x, &c->instances[i]);
    for (size_t i = 0; i < c->n_instances; i++) {
        const Instance *in = &c->instances[i];
        if (same_acc(in->accelerator, p->accelerator) || seen_before(c, i))
            continue;
        const Instance *best = cheapest_of(c, in->accelerator);
        if (best)
            cloud_option(&x, best, PRICING_ON_DEMAND);
    }
    for (size_t i = 0; i < c->n_instances; i++) {
        const Instance *in = &c->instances[i];
        if (same_acc(in->accelerator, p->accelerator) || seen_before(c, i))
            continue;
        const Instance *best = cheapest_of(c, in->accelerator);
        if (best)
            for (int pr = PRICING_RESERVED_1Y; pr <= PRICING_SPOT; pr++)
                cloud_option(&x, best, (Pricing)pr);
    }
    for (size_t i = 0; i < c->n_instances; i++) {
        const Instance *in = &c->instances[i];
        if (same_acc(in->accelerator, p->accelerator) || in == cheapest_of(c, in->accelerator))
            continue;
        cloud_all_pricings(&x, in);
    }
    if (cr->n_options > 0)
        result_assume(r, "cost",
                      "cloud options rent the same %d GPUs (whole instances) for %.1f years; "
                      "other accelerators at the same count, not the same speed",
                      x.gpus, x.years);

    sort_options(cr);
    cr->cheapest = cr->n_options > 0 ? 0 : -1;
}
