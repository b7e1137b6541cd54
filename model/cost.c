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
 *              Every cloud option rents the same fleet for the horizon, so
 *              its $/GPU-h is on the same basis (TCO / GPU-hours used):
 *              one column, one meaning, in the same order as TCO.
 *
 * Cloud (per instance x pricing), for the same GPU count rounded up to whole
 * instances and held for the horizon:
 *   on-demand, reserved-1y/3y (on-demand x (1 - the catalog's labelled
 *   discount assumption); a reservation cannot be cut short, so a term
 *   longer than the horizon is paid in full: 3 years of a reserved-3y rate
 *   on a 1-year plan), spot (the catalog's spot price, inflated by the
 *   work an interruption costs: a job spanning n instances is interrupted
 *   n x λ times a day (λ = the catalog's per-instance interruption rate) and
 *   each time loses half a checkpoint interval plus tenancy.restore; a GPU
 *   that loses a fraction f of its time costs 1/(1-f) per useful hour).
 * Per option: cost per training run = the training workloads' GPU-hours on
 * that accelerator x $/GPU-h; per million output tokens = GPU-hours per
 * million tokens x $/GPU-h; break-even utilisation = on-prem TCO / (cloud
 * rent per GPU-hour x on-prem GPUs x horizon hours): above it on-prem is cheaper per
 * GPU-hour used (> 1: never).
 * Options on the plan's accelerator come first, each group sorted by TCO;
 * `cheapest` is the first on the plan's own
 * accelerator (other accelerators' rows rent the same count, not the same
 * speed: shown for comparison, never chosen).
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
/* Distinct accelerators remembered per stage (more are still priced, only
 * not cached / not given a guaranteed row). */
#define COST_MAX_ACCS 48

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
    double busy_gpus;         /* GPUs in use on average (fleet_utilisation) */
    int spot_withdrawn;       /* spot rows not offered (see cloud_option) */
    bool full_warned;
    /* demand per accelerator, computed once per stage */
    struct {
        const char *acc;
        Demand d;
    } demand[COST_MAX_ACCS];
    int n_demand;
} Ctx;

static Demand demand_cached(Ctx *x, const char *acc)
{
    for (int i = 0; i < x->n_demand; i++)
        if (same_acc(x->demand[i].acc, acc))
            return x->demand[i].d;
    Demand d = demand_on(x->p, x->r, acc);
    if (x->n_demand < COST_MAX_ACCS) {
        x->demand[x->n_demand].acc = acc;
        x->demand[x->n_demand++].d = d;
    }
    return d;
}

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

/* Share of the installed GPUs busy on average: dedicated training and
 * inference GPUs busy, the pool as simulated, headroom idle.  Sets
 * CostResult.utilization and x->busy_gpus; every option's $/GPU-hour is per
 * GPU-hour used at this utilisation. */
static void fleet_utilisation(Ctx *x, int gpus)
{
    PlanResult *r = x->r;
    const ClusterResult *k = &r->cluster;
    double pool_util = 1.0;
    if (k->gpus_pool > 0) {
        if (r->schedule.ran && isfinite(r->schedule.utilization)) {
            pool_util = r->schedule.utilization < 0   ? 0
                        : r->schedule.utilization > 1 ? 1
                                                      : r->schedule.utilization;
        } else {
            result_assume(r, "cost",
                          "utilisation: the tenancy pool was not simulated and counts as busy "
                          "(every $/GPU-hour is then a lower bound)");
        }
    }
    int other = gpus - k->gpus; /* other accelerators' islands, dedicated */
    double busy = k->gpus_training + k->gpus_inference + k->gpus_pool * pool_util +
                  (other > 0 ? other : 0);
    double util = gpus > 0 ? busy / gpus : 0;
    if (util > 1)
        util = 1;
    r->cost.utilization = util;
    x->busy_gpus = util * gpus;
    result_assume(r, "cost",
                  "utilisation %.0f%%: training and inference GPUs busy, pool at %.0f%%, "
                  "headroom idle; every option's $/GPU-h is per GPU-hour used (TCO / used "
                  "GPU-hours), cloud rent included",
                  util * 100, pool_util * 100);
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

    double util = r->cost.utilization;

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
    Demand d = demand_cached(x, k->accelerator);
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
                  "on-prem: capex amortised over the %.1f-year horizon with no resale value; "
                  "hardware $%.0f, facility $%.0f/kW, maintenance %.0f%%/yr, staff $%.0f per "
                  "MW-year (%s)",
                  x->years, hw, nonneg(ca->facility_usd_per_kw),
                  nonneg(ca->maintenance_frac_per_year) * 100, nonneg(ca->staff_usd_per_mw_year),
                  ca->source);
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
    if (r->cost.n_options >= PLAN_MAX_COST_OPTIONS) {
        new_option(x); /* notes once that the list is full */
        return;
    }
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
    /* A reservation is paid for its whole term even when the plan ends
     * first (AWS, Azure and GCP commitments cannot be cancelled); beyond one
     * term it is assumed renewed for as long as the horizon runs.  The
     * effective rate over the horizon is the rate x billed / horizon years. */
    double term = pr == PRICING_RESERVED_1Y ? 1 : pr == PRICING_RESERVED_3Y ? 3 : 0;
    double billed_years = term > x->years ? term : x->years;
    double gpu_rate = price / per * (x->years > 0 ? billed_years / x->years : 1);

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
                if (x->spot_withdrawn++ == 0)
                    result_assume(r, "cost",
                                  "no spot option where interruptions eat >= %.0f%% of a job's "
                                  "time: e.g. %s, %s on %d GPUs, %.0f interruptions a day",
                                  COST_SPOT_MAX_LOSS * 100, in->id, p->workloads[i].name,
                                  t->gpus,
                                  ceil((double)t->gpus / per) *
                                      nonneg(in->spot_interruptions_per_day));
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
    /* rent per rented GPU-hour, then per GPU-hour used (header) */
    double rent = gpu_rate * gpu_hours_per_h / gpus;
    double used = x->busy_gpus * x->hours;
    o->usd_per_gpu_hour = used > 0 ? o->tco_usd / used : rent;
    Demand d = demand_cached(x, in->accelerator);
    o->usd_per_training_run = d.run_gpu_hours * gpu_rate * run_infl;
    o->usd_per_million_tokens = d.mtok_gpu_hours * gpu_rate * tok_infl;
    double cloud_cost_at_full = rent * x->onprem_gpus * x->hours;
    o->breakeven_utilization = x->onprem_tco > 0 && cloud_cost_at_full > 0
                                   ? x->onprem_tco / cloud_cost_at_full
                                   : 0;
    double discount = pr == PRICING_RESERVED_1Y   ? in->reserved_1y_discount
                      : pr == PRICING_RESERVED_3Y ? in->reserved_3y_discount
                                                  : 0;
    if (discount > 0 && billed_years > x->years)
        textf(o->source, sizeof o->source,
              "%s; %.0f%% off on-demand is an assumption; the %.0f-year term is paid in full "
              "on a %.3g-year horizon: %s",
              in->source, discount * 100, term, x->years, in->price_notes);
    else if (discount > 0)
        textf(o->source, sizeof o->source, "%s; %.0f%% off on-demand is an assumption: %s",
              in->source, discount * 100, in->price_notes);
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

/* Every accelerator other than the plan's, in catalog order, with its
 * cheapest instance per accelerator-hour on demand (NULL: none priced). */
typedef struct {
    const char *acc;
    const Instance *best;
} Other;

static int other_accelerators(const Catalog *c, const char *plan_acc, Other *o, int max)
{
    int n = 0;
    for (size_t i = 0; i < c->n_instances; i++) {
        const Instance *in = &c->instances[i];
        if (same_acc(in->accelerator, plan_acc))
            continue;
        int k = 0;
        while (k < n && !same_acc(o[k].acc, in->accelerator))
            k++;
        if (k == n) {
            if (n >= max)
                continue;
            o[n].acc = in->accelerator;
            o[n++].best = NULL;
        }
        if (in->accel_count <= 0 || !(nonneg(in->on_demand_usd_h) > 0))
            continue;
        const Instance *b = o[k].best;
        if (!b || in->on_demand_usd_h / in->accel_count < b->on_demand_usd_h / b->accel_count)
            o[k].best = in;
    }
    return n;
}

/* Options on the plan's accelerator first (they deliver the plan's
 * capacity), then the comparison rows of other accelerators; each group by
 * TCO, then name, for a deterministic order. */
static bool option_before(const CostOption *a, const CostOption *b, const char *acc)
{
    bool ma = same_acc(a->accelerator, acc), mb = same_acc(b->accelerator, acc);
    if (ma != mb)
        return ma;
    return a->tco_usd < b->tco_usd || (a->tco_usd == b->tco_usd && strcmp(a->name, b->name) < 0);
}

/* The options are large, so an index is sorted and the array permuted once,
 * cycle by cycle. */
static void sort_options(CostResult *cr, const char *acc)
{
    int n = cr->n_options, idx[PLAN_MAX_COST_OPTIONS];
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && option_before(&cr->options[i], &cr->options[idx[j - 1]], acc)) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    /* position k must receive options[idx[k]] */
    for (int k = 0; k < n; k++) {
        if (idx[k] == k || idx[k] < 0)
            continue;
        CostOption tmp = cr->options[k];
        int dst = k;
        for (;;) {
            int src = idx[dst];
            idx[dst] = -1;
            if (src == k) {
                cr->options[dst] = tmp;
                break;
            }
            cr->options[dst] = cr->options[src];
            dst = src;
        }
    }
}

/* What the plan's cluster adds to each GPU's own node on-prem: its share of
 * the switches, cables and storage units (USD) and of their IT power (kW).
 * Carried over to other accelerators as the same per-GPU share. */
typedef struct {
    double usd_per_gpu, kw_per_gpu;
} Overhead;

static Overhead cluster_overhead(const Plan *p, const Catalog *c, const PlanResult *r)
{
    Overhead o = {0, 0};
    const ClusterResult *k = &r->cluster;
    int gpus;
    double nodes_usd;
    bool priced;
    compute_racks(c, k, &gpus, &nodes_usd, &priced);
    if (gpus <= 0)
        return o;
    const CostAssumptions *ca = &c->costs;
    const StorageSystem *s = catalog_find_storage(c, layout_storage_id(p->storage.system));
    double switches = (double)k->leaf_switches + k->spine_switches + k->core_switches;
    o.usd_per_gpu = (switches * nonneg(ca->switch_price_usd) +
                     (double)k->links * nonneg(ca->link_price_usd) +
                     (s ? k->storage_units * nonneg(s->unit_price_usd) : 0)) /
                    gpus;
    o.kw_per_gpu = (nonneg(r->power.network_kw) + nonneg(r->power.storage_kw)) / gpus;
    return o;
}

/* $/GPU-hour of an accelerator for ranking the same workload across the
 * catalog, on one basis for every accelerator as far as the catalog allows:
 * for an on-prem plan the on-prem estimate, for a cloud plan the cheapest
 * on-demand price per accelerator-hour; each falls back to the other;
 * 0 = unknown.  The on-prem estimate is onprem_option's TCO per GPU-hour
 * at full use, per GPU: node price + the cluster's network and storage
 * share, facility $/kW, maintenance, staff $/MW-year and energy at the
 * plan's PUE and price, over the horizon.  (Node price and power alone
 * priced the plan's own H100s at $1.41/GPU-h against $3.18 in the cost
 * table: the same run cost 2.5x less beside the sizing than in the bill.) */
static double onprem_rate(const Plan *p, const Catalog *c, const Overhead *ov,
                          const Accelerator *a, char *basis, size_t len)
{
    double years = nonneg(p->horizon_years);
    if (!(nonneg(a->node_price_usd) > 0) || a->gpus_per_node <= 0 || !(years > 0))
        return 0;
    snprintf(basis, len, "on-prem estimate: full TCO over %.3g y at full use", years);
    const CostAssumptions *ca = &c->costs;
    double hw = a->node_price_usd / a->gpus_per_node + ov->usd_per_gpu;
    double kw = nonneg(a->node_power_w) / a->gpus_per_node / 1000.0 + ov->kw_per_gpu;
    double capex = hw + nonneg(ca->facility_usd_per_kw) * kw;
    double opex = nonneg(ca->maintenance_frac_per_year) * hw +
                  nonneg(ca->staff_usd_per_mw_year) * kw / 1000.0 +
                  kw * (p->site.pue > 0 ? p->site.pue : 1) * HOURS_PER_YEAR *
                      nonneg(p->site.power_price_kwh);
    return (capex + opex * years) / (years * HOURS_PER_YEAR);
}

static double accelerator_rate(const Plan *p, const Catalog *c, const Overhead *ov,
                               const Accelerator *a, char *basis, size_t len)
{
    if (p->site.kind == SITE_ONPREM) {
        double r = onprem_rate(p, c, ov, a, basis, len);
        if (r > 0)
            return r;
    }
    const Instance *best = NULL;
    for (size_t i = 0; i < c->n_instances; i++) {
        const Instance *in = &c->instances[i];
        if (!same_acc(in->accelerator, a->id) || in->accel_count <= 0 ||
            !(nonneg(in->on_demand_usd_h) > 0))
            continue;
        if (!best || in->on_demand_usd_h / in->accel_count <
                         best->on_demand_usd_h / best->accel_count)
            best = in;
    }
    if (best) {
        snprintf(basis, len, "%s on-demand", best->id);
        return best->on_demand_usd_h / best->accel_count;
    }
    double r = onprem_rate(p, c, ov, a, basis, len);
    if (r > 0)
        return r;
    snprintf(basis, len, "no price in the catalog");
    return 0;
}

/* Price each workload's alternatives (WorkloadResult.alts): a training run,
 * or a year of serving, at accelerator_rate(). */
static void price_alternatives(const Plan *p, const Catalog *c, PlanResult *r)
{
    Overhead ov = cluster_overhead(p, c, r);
    for (int i = 0; i < r->n_workloads; i++) {
        WorkloadResult *w = &r->workloads[i];
        for (int k = 0; k < w->n_alts; k++) {
            AccelOption *o = &w->alts[k];
            const Accelerator *a = catalog_find_accelerator(c, o->accelerator);
            if (!a || o->gpus <= 0)
                continue;
            double rate = accelerator_rate(p, c, &ov, a, o->price_basis, sizeof o->price_basis);
            double hours = w->kind == WL_TRAINING ? nonneg(o->days) * 24.0 : HOURS_PER_YEAR;
            o->usd = o->gpus * hours * rate;
        }
    }
}

void cost_stage(const Plan *p, const Catalog *c, PlanResult *r)
{
    CostResult *cr = &r->cost;
    memset(cr, 0, sizeof *cr);
    cr->cheapest = -1;
    cr->chosen = -1;
    r->have_cost = true;
    price_alternatives(p, c, r);

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

    fleet_utilisation(&x, x.gpus);
    onprem_option(&x);
    /* the plan's own instance first, then every instance of the plan's
     * accelerator, then the cheapest instance of every other accelerator,
     * then the rest (in this order until the list is full) */
    if (site)
        cloud_all_pricings(&x, site);
    for (size_t i = 0; i < c->n_instances; i++)
        if (&c->instances[i] != site && same_acc(c->instances[i].accelerator, p->accelerator))
            cloud_all_pricings(&x, &c->instances[i]);
    Other others[COST_MAX_ACCS];
    int n_others = other_accelerators(c, p->accelerator, others, COST_MAX_ACCS);
    for (int i = 0; i < n_others; i++)
        if (others[i].best && others[i].best != site)
            cloud_option(&x, others[i].best, PRICING_ON_DEMAND);
    for (int i = 0; i < n_others; i++)
        if (others[i].best && others[i].best != site)
            for (int pr = PRICING_RESERVED_1Y; pr <= PRICING_SPOT; pr++)
                cloud_option(&x, others[i].best, (Pricing)pr);
    for (size_t i = 0; i < c->n_instances && cr->n_options < PLAN_MAX_COST_OPTIONS; i++) {
        const Instance *in = &c->instances[i];
        bool best = false;
        for (int k = 0; k < n_others && !best; k++)
            best = others[k].best == in;
        if (!best && in != site && !same_acc(in->accelerator, p->accelerator))
            cloud_all_pricings(&x, in);
    }
    if (cr->n_options > 0)
        result_assume(r, "cost",
                      "cloud options rent the same %d GPUs (whole instances) for %.1f years; "
                      "other accelerators at the same count, not the same speed",
                      x.gpus, x.years);

    if (x.spot_withdrawn > 1)
        result_assume(r, "cost", "spot withdrawn for %d instance types in all", x.spot_withdrawn);

    sort_options(cr, r->cluster.accelerator);
    /* The cheapest option that delivers the plan's capacity: on the plan's
     * own accelerator.  Other accelerators' rows rent the same count, not the
     * same speed, so they are listed for comparison but never chosen. */
    cr->cheapest = -1;
    for (int i = 0; i < cr->n_options && cr->cheapest < 0; i++)
        if (same_acc(cr->options[i].accelerator, r->cluster.accelerator))
            cr->cheapest = i;
    /* The option the plan itself describes (site.kind, site.instance,
     * site.pricing), so the plan's own bill can be set against the cheapest. */
    for (int i = 0; i < cr->n_options && cr->chosen < 0; i++) {
        const CostOption *o = &cr->options[i];
        bool mine = p->site.kind == SITE_ONPREM
                        ? o->kind == COST_ONPREM && same_acc(o->accelerator, r->cluster.accelerator)
                        : o->kind == COST_CLOUD && site && o->pricing == p->site.pricing &&
                              !strcasecmp(o->instance, site->id);
        if (mine)
            cr->chosen = i;
    }
    if (cr->chosen < 0 && p->site.kind == SITE_CLOUD && site)
        result_warn(r, "cost: %s has no %s price in the catalog; the plan's own option is not "
                       "priced",
                    site->id, pricing_names[p->site.pricing]);
}
