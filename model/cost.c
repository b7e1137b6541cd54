/* model/cost.c — what the cluster costs on-prem and in each cloud, on bases
 * a finance reviewer can recompute from `eval --json` (doc/plan-format.md,
 * "Cost bases").
 *
 * Bases (one per column, the same everywhere):
 *   tco_usd                total cash over the horizon, residual value credited
 *   usd_per_gpu_hour_list  LIST: one GPU-hour as billed (cloud: rate after the
 *                          discount; on-prem: TCO / installed GPU-hours)
 *   usd_per_gpu_hour       EFFECTIVE: TCO / GPU-hours used (gpu_hours_used)
 *   usd_per_training_run   run_gpu_hours x effective $/GPU-h
 *   usd_per_million_tokens mtok_gpu_hours x effective $/GPU-h
 *   breakeven_utilization  pay-as-you-go options only: on-prem TCO /
 *                          (effective rate x on-prem GPUs x horizon hours);
 *                          below it this option is cheaper than on-prem.
 *
 * On-prem (site.prices quotes first, else the catalog):
 *   hardware = nodes x node price + switches x switch price + cables x link
 *              price + storage (plan $/PB x capacity, else catalog blocks)
 *   capex    = hardware + facility $/kW x IT kW
 *   residual = hardware x resale (site.prices.resale), else the straight-line
 *              book value hardware x max(0, 1 - horizon / life) (life:
 *              site.prices.depreciation_years, else the catalog's)
 *   opex/yr  = energy (power.c) + maintenance x hardware + staff $/MW-yr x IT MW
 *   TCO      = capex - residual + opex x horizon
 *   leased (site.prices.lease_rate): facility capex, hardware rented at
 *   lease_rate x hardware a year, no residual.
 *
 * Cloud, per instance x pricing:
 *   on-demand, spot: pay-as-you-go, billed for the GPU-hours used (spot
 *     inflated by the work interruptions cost); spot only when every
 *     workload is interruptible (training with checkpoints);
 *   reserved-1y/3y: the installed GPU count in whole instances, 24x7; offered
 *     only where the term fits in the horizon (renewed; a last partial term
 *     prorated); discount from site.prices.discounts, else the catalog's
 *     labelled assumption.
 * Other accelerators appear only sized for the same workloads (the sizing
 * stage's per-accelerator ranking, WorkloadResult.alts): their own GPU count
 * and days; one that cannot run a workload is excluded, never priced.
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
#define HOURS_PER_MONTH (HOURS_PER_YEAR / 12.0)
#define SECONDS_PER_DAY 86400.0
/* Spot is not offered when interruptions would eat this share of a job's
 * time: nothing useful is bought at that point. */
#define COST_SPOT_MAX_LOSS 0.9
#define COST_MAX_ACCS 48

static const char *const pricing_names[] = {"on-demand", "reserved-1y", "reserved-3y", "spot"};

static double nonneg(double v)
{
    return isfinite(v) && v > 0 ? v : 0;
}

static bool same_acc(const char *a, const char *b)
{
    return strcasecmp(a, b) == 0;
}

static void date_span(CostResult *cr, const char *d)
{
    if (!d || !d[0])
        return;
    if (!cr->prices_oldest[0] || strcmp(d, cr->prices_oldest) < 0)
        snprintf(cr->prices_oldest, sizeof cr->prices_oldest, "%s", d);
    if (!cr->prices_newest[0] || strcmp(d, cr->prices_newest) > 0)
        snprintf(cr->prices_newest, sizeof cr->prices_newest, "%s", d);
}

/* ------------------------------------------------------------- prices */

/* A plan quote when given, else the catalog's figure. */
typedef struct {
    double value;
    const char *source;
    const char *date;
    bool quoted;
} Price;

static Price quote_or(const Quote *q, double catalog, const char *src, const char *date)
{
    if (q->source[0])
        return (Price){nonneg(q->value), q->source, q->date, true};
    return (Price){nonneg(catalog), src, date, false};
}

static Price node_price(const Plan *p, const Accelerator *a)
{
    const PriceSpec *ps = &p->site.prices;
    for (int i = 0; i < ps->n_nodes; i++)
        if (same_acc(ps->nodes[i].accelerator, a->id) && ps->nodes[i].source[0])
            return (Price){nonneg(ps->nodes[i].usd), ps->nodes[i].source, ps->nodes[i].date, true};
    return (Price){nonneg(a->node_price_usd), a->source, a->as_of, false};
}

/* The discount off on-demand for instance `in` at pricing `pr`: a plan
 * quote for its provider and term, else the catalog's assumption (on-demand
 * and spot: none). */
static Price discount_for(const Plan *p, const Instance *in, Pricing pr)
{
    const PriceSpec *ps = &p->site.prices;
    for (int i = 0; i < ps->n_discounts; i++) {
        const DiscountQuote *d = &ps->discounts[i];
        if (d->term == pr && d->source[0] && !strcasecmp(d->provider, provider_name(in->provider)))
            return (Price){nonneg(d->discount), d->source, d->date, true};
    }
    double cat = pr == PRICING_RESERVED_1Y   ? in->reserved_1y_discount
                 : pr == PRICING_RESERVED_3Y ? in->reserved_3y_discount
                                             : 0;
    return (Price){nonneg(cat), in->price_notes[0] ? in->price_notes : in->source, in->as_of,
                   false};
}

/* ------------------------------------------------------------- demand */

/* What the plan needs on one accelerator: GPUs installed and busy, and the
 * GPU-hours of a training run and of a million output tokens. */
typedef struct {
    bool ok;                  /* every workload can run on it */
    char why[96];             /* when !ok */
    int gpus;                 /* installed */
    double busy;              /* GPUs in use on average */
    double days;              /* longest training run */
    double run_gpu_hours;     /* 0 = no training */
    double mtok_gpu_hours;    /* 0 = no inference */
    double mtok_low, mtok_high; /* the inference error band (own accelerator), 0 = none */
    int unit;                 /* other accelerators: the largest scale-up-bound unit of
                               * their sizing (AccelOption.scaleup_gpus), 1 = none */
} Need;

/* The plan's own accelerator: the layout's cluster and the scheduler. */
static Need need_own(const Plan *p, const PlanResult *r, int gpus, double busy)
{
    Need n = {.ok = true, .gpus = gpus, .busy = busy};
    double tok = 0, weighted = 0, lo = 0, hi = 0;
    bool band_ok = true;
    for (int i = 0; i < r->n_workloads && i < p->n_workloads; i++) {
        const Workload *w = &p->workloads[i];
        const WorkloadResult *wr = &r->workloads[i];
        if (w->kind == WL_TRAINING) {
            n.run_gpu_hours += nonneg(wr->train.gpu_hours);
            if (wr->train.train_days > n.days)
                n.days = nonneg(wr->train.train_days);
        } else {
            double t = nonneg(w->requests_per_s * w->output_tokens);
            double g = nonneg(wr->infer.gpu_hours_per_mtok);
            tok += t;
            weighted += t * g;
            /* the band: GPU-hours scale with the GPUs sized at each end */
            int gl = wr->infer.gpus_low, gh = wr->infer.gpus_high, g0 = wr->infer.gpus;
            band_ok = band_ok && g0 > 0 && gl > 0 && gh > 0;
            if (band_ok) {
                lo += t * g * gl / g0;
                hi += t * g * gh / g0;
            }
        }
    }
    n.mtok_gpu_hours = tok > 0 ? weighted / tok : 0;
    if (band_ok && tok > 0 && n.mtok_gpu_hours > 0) {
        n.mtok_low = lo / tok;
        n.mtok_high = hi / tok;
    }
    return n;
}

/* Another accelerator: every workload's own sizing on it (alts), the same
 * headroom share as the plan's cluster; NULL-safe for plans with a pool
 * (the pool's jobs are sized in the plan's GPUs: not compared). */
static Need need_alt(const Plan *p, const PlanResult *r, const char *acc)
{
    Need n = {.ok = true, .unit = 1};
    if (r->cluster.gpus_pool > 0) {
        n.ok = false;
        snprintf(n.why, sizeof n.why, "the shared pool's jobs are sized in %s GPUs only",
                 r->cluster.accelerator);
        return n;
    }
    if (r->n_workloads == 0) {
        n.ok = false;
        snprintf(n.why, sizeof n.why, "no workloads to size");
        return n;
    }
    double tok = 0, weighted = 0, need = 0;
    for (int i = 0; i < r->n_workloads && i < p->n_workloads; i++) {
        const Workload *w = &p->workloads[i];
        const WorkloadResult *wr = &r->workloads[i];
        const AccelOption *alt = NULL;
        for (int j = 0; j < wr->n_alts && !alt; j++)
            if (same_acc(wr->alts[j].accelerator, acc))
                alt = &wr->alts[j];
        if (!alt) {
            n.ok = false;
            snprintf(n.why, sizeof n.why, "%.40s: not sized on it", w->name);
            return n;
        }
        if (!alt->ok || alt->gpus <= 0) {
            n.ok = false;
            snprintf(n.why, sizeof n.why, "%.40s: %.48s", w->name,
                     alt->why[0] ? alt->why : "cannot run");
            return n;
        }
        need += alt->gpus;
        if (alt->scaleup_gpus > n.unit)
            n.unit = alt->scaleup_gpus;
        if (w->kind == WL_TRAINING) {
            n.run_gpu_hours += alt->gpus * nonneg(alt->days) * 24.0;
            if (alt->days > n.days)
                n.days = alt->days;
        } else {
            double t = nonneg(w->requests_per_s * w->output_tokens);
            tok += t;
            weighted += t > 0 ? alt->gpus * 1e6 / (3600.0 * t) * t : 0;
        }
    }
    n.mtok_gpu_hours = tok > 0 ? weighted / tok : 0;
    n.gpus = (int)ceil(need * (1 + nonneg(p->site.headroom)) - 1e-9);
    /* busy: what the workloads need; a sensitivity point moves the share
     * used on every accelerator alike */
    double scale = p->perturb.utilization > 0 ? p->perturb.utilization : 1;
    n.busy = fmin(need * scale, (double)n.gpus);
    return n;
}

/* ------------------------------------------------------------- context */

typedef struct {
    const Plan *p;
    const Catalog *c;
    PlanResult *r;
    double years, hours;
    Need own;                 /* the plan's accelerator */
    double onprem_tco;        /* 0 = no on-prem option */
    int onprem_gpus;
    bool full_warned;
    int spot_withdrawn;
    /* on-prem parts, for the cash flow and the levers */
    double hw, nodes_usd, facility, maint_staff, energy, residual, resid_frac, lease_per_year;
    Price node, resale, life, lease, fac, staff;
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

static void exclude(CostResult *cr, const char *acc, const char *why)
{
    for (int i = 0; i < cr->n_excluded; i++)
        if (same_acc(cr->excluded[i].accelerator, acc))
            return;
    if (cr->n_excluded >= PLAN_MAX_EXCLUDED)
        return;
    CostExcluded *e = &cr->excluded[cr->n_excluded++];
    snprintf(e->accelerator, sizeof e->accelerator, "%s", acc);
    snprintf(e->why, sizeof e->why, "%s", why);
}

/* Installed GPUs (the plan's accelerator plus other islands' compute
 * racks) and the price of their nodes; *priced is false when some island's
 * accelerator has no node price (catalog or quote). */
static void compute_racks(const Plan *p, const Catalog *c, const ClusterResult *k, int *gpus,
                          double *price, bool *priced)
{
    const Accelerator *m = catalog_find_accelerator(c, k->accelerator);
    *gpus = k->gpus;
    double np = m ? node_price(p, m).value : 0;
    *price = k->nodes * np;
    *priced = np > 0;
    for (int i = 0; i < k->n_rack_groups; i++) {
        const RackGroup *g = &k->rack_groups[i];
        if (strcmp(g->role, "compute") != 0 || same_acc(g->accelerator, k->accelerator))
            continue;
        const Accelerator *a = catalog_find_accelerator(c, g->accelerator);
        if (!a)
            continue;
        double nodes = (double)g->count * g->nodes;
        *gpus += (int)(nodes * (a->gpus_per_node > 0 ? a->gpus_per_node : 1));
        double ap = node_price(p, a).value;
        *price += nodes * ap;
        if (!(ap > 0))
            *priced = false;
    }
}

/* Share of the installed GPUs busy on average: dedicated training and
 * inference GPUs busy, the pool as simulated, headroom idle. */
static double fleet_busy(Ctx *x, int gpus)
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
                          "(every effective $/GPU-hour is then a lower bound)");
        }
    }
    int other = gpus - k->gpus; /* other accelerators' islands, dedicated */
    double busy = k->gpus_training + k->gpus_inference + k->gpus_pool * pool_util +
                  (other > 0 ? other : 0);
    double util = gpus > 0 ? busy / gpus : 0;
    if (util > 1)
        util = 1;
    double scale = x->p->perturb.utilization;
    if (scale > 0) { /* a sensitivity point: x the modelled share */
        util *= scale;
        if (util > 1)
            util = 1;
        result_assume(r, "cost", "utilisation moved to %.2fx the modelled share (a sensitivity "
                                 "point)",
                      scale);
    }
    r->cost.utilization = util;
    result_assume(r, "cost",
                  "utilisation %.1f %%: training and inference GPUs busy, pool at %.0f %%, "
                  "headroom idle; effective $/GPU-h = TCO / GPU-hours used",
                  util * 100, pool_util * 100);
    return util * gpus;
}

/* Spot is for interruptible work only: training checkpoints and restarts;
 * a service with TTFT/TPOT targets or a pool with a queue-wait target cannot
 * wait for reclaimed capacity. */
static void spot_rule(const Plan *p, const PlanResult *r, CostResult *cr)
{
    cr->spot_allowed = true;
    for (int i = 0; i < p->n_workloads; i++)
        if (p->workloads[i].kind == WL_INFERENCE) {
            cr->spot_allowed = false;
            text_fit(cr->spot_why, sizeof cr->spot_why,
                     "no spot: %s is a service with TTFT/TPOT targets, which reclaimed capacity "
                     "would break",
                     p->workloads[i].name);
            return;
        }
    if (r->cluster.gpus_pool > 0) {
        cr->spot_allowed = false;
        text_fit(cr->spot_why, sizeof cr->spot_why,
                 "no spot: the shared pool is sized for a p95 queue wait, which reclaimed capacity "
                 "would break, and its jobs are not known to checkpoint");
    }
}

double cost_resale_fraction(const Plan *p, const Catalog *c)
{
    const PriceSpec *ps = &p->site.prices;
    if (ps->resale.source[0])
        return ps->resale.value > 1 ? 1 : nonneg(ps->resale.value);
    double life = ps->depreciation_years.source[0] ? ps->depreciation_years.value
                                                   : c->costs.depreciation_years;
    double years = nonneg(p->horizon_years);
    return life > 0 && years < life ? 1 - years / life : 0;
}

static void onprem_option(Ctx *x)
{
    const Catalog *c = x->c;
    const Plan *p = x->p;
    PlanResult *r = x->r;
    CostResult *cr = &r->cost;
    const ClusterResult *k = &r->cluster;
    const CostAssumptions *ca = &c->costs;
    int gpus;
    double nodes_usd;
    bool priced;
    compute_racks(p, c, k, &gpus, &nodes_usd, &priced);
    const Accelerator *a = catalog_find_accelerator(c, k->accelerator);
    if (gpus <= 0 || !a)
        return;
    if (!priced) {
        cr->onprem_unpriced = p->site.kind == SITE_ONPREM;
        bool cloud_only = !(nonneg(a->node_power_w) > 0);
        cr->cloud_only = cloud_only;
        if (cloud_only)
            result_assume(r, "cost", "%s is sold as a cloud service only: no on-prem option, "
                                     "and the racks, fabric and power are the provider's",
                          k->accelerator);
        else
            result_assume(r, "cost",
                          "on-prem not priced: no node price for %s in the catalog and no "
                          "quote in site.prices.nodes",
                          k->accelerator);
        if (cr->onprem_unpriced)
            result_warn(r, "cost: on-prem not priced: %s has no node price; add a vendor quote "
                           "under site.prices.nodes",
                        k->accelerator);
        return;
    }
    x->node = node_price(p, a);
    const PriceSpec *ps = &p->site.prices;
    /* storage: the plan's $/PB over the installed capacity, else blocks */
    const StorageSystem *s = catalog_find_storage(c, layout_storage_id(p->storage.system));
    double storage_usd = 0;
    if (ps->storage_usd_per_pb.source[0]) {
        storage_usd = nonneg(k->storage_capacity_bytes) / 1e15 * nonneg(ps->storage_usd_per_pb.value);
        cr->storage_priced = true;
    } else if (s && nonneg(s->unit_price_usd) > 0) {
        storage_usd = k->storage_units * s->unit_price_usd;
        cr->storage_priced = true;
    }
    if (!cr->storage_priced && k->storage_units > 0)
        result_warn(r, "cost: storage not priced: %d %s building block%s (%.0f TB) cost $0 and "
                       "draw %s; add site.prices.storage_usd_per_pb and storage_w_per_pb",
                    k->storage_units, s ? s->id : "storage", k->storage_units == 1 ? "" : "s",
                    k->storage_capacity_bytes / 1e12,
                    r->power.storage_kw > 0 ? "the catalog's power" : "0 W");
    double switches = (double)k->leaf_switches + k->spine_switches + k->core_switches;
    double hw = nodes_usd + switches * nonneg(ca->switch_price_usd) +
                (double)k->links * nonneg(ca->link_price_usd) + storage_usd;
    x->fac = quote_or(&ps->facility_usd_per_kw, ca->facility_usd_per_kw,
                      ca->facility_source[0] ? ca->facility_source : ca->source, ca->as_of);
    x->staff = quote_or(&ps->staff_usd_per_mw_year, ca->staff_usd_per_mw_year,
                        ca->staff_source[0] ? ca->staff_source : ca->source, ca->as_of);
    x->life = quote_or(&ps->depreciation_years, ca->depreciation_years,
                       ca->depreciation_source[0] ? ca->depreciation_source : ca->source,
                       ca->as_of);
    x->resale = quote_or(&ps->resale, 0, "no resale value assumed (no quote)", "");
    x->lease = quote_or(&ps->lease_rate, 0, "", "");
    double facility = x->fac.value * nonneg(r->power.it_kw);
    double maint_staff = nonneg(ca->maintenance_frac_per_year) * hw +
                         x->staff.value * nonneg(r->power.it_kw) / 1000.0;
    double energy = nonneg(r->power.energy_usd_per_year);
    /* residual value at the horizon: the quoted resale, else the
     * straight-line book value of what is left of the hardware's life */
    double frac = cost_resale_fraction(p, c);
    x->hw = hw;
    x->nodes_usd = nodes_usd;
    x->facility = facility;
    x->maint_staff = maint_staff;
    x->energy = energy;
    x->resid_frac = frac;
    x->residual = frac * hw;
    x->onprem_gpus = gpus;

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
    o->opex_usd_per_year = maint_staff + energy;
    o->residual_usd = x->residual;
    o->tco_usd = o->capex_usd - o->residual_usd + o->opex_usd_per_year * x->years;
    o->gpu_hours_billed = gpus * x->hours;
    o->gpu_hours_used = x->own.busy * x->hours;
    o->usd_per_gpu_hour_list = o->gpu_hours_billed > 0 ? o->tco_usd / o->gpu_hours_billed : 0;
    o->usd_per_gpu_hour = o->gpu_hours_used > 0 ? o->tco_usd / o->gpu_hours_used : 0;
    o->days = x->own.days;
    o->run_gpu_hours = x->own.run_gpu_hours;
    o->mtok_gpu_hours = x->own.mtok_gpu_hours;
    o->usd_per_training_run = o->run_gpu_hours * o->usd_per_gpu_hour;
    o->usd_per_million_tokens = o->mtok_gpu_hours * o->usd_per_gpu_hour;
    o->usd_per_million_tokens_low = x->own.mtok_low * o->usd_per_gpu_hour;
    o->usd_per_million_tokens_high = x->own.mtok_high * o->usd_per_gpu_hour;
    text_fit(o->source, sizeof o->source, "node price: %s, %s; facility: %s; network and staff: "
                                          "catalog assumptions (data/catalog/costs.yaml)",
             x->node.quoted ? x->node.source : "catalog estimate, not a quote", x->node.date,
             x->fac.source);
    snprintf(o->as_of, sizeof o->as_of, "%s", x->node.date);
    x->onprem_tco = o->tco_usd;
    if (x->resale.quoted)
        result_assume(r, "cost", "on-prem: %.0f %% of the hardware recovered at the horizon "
                                 "(site.prices.resale: %s, %s)",
                      frac * 100, x->resale.source, x->resale.date);
    else
        result_assume(r, "cost",
                      "on-prem: hardware depreciated straight-line over %.3g years; the book "
                      "value left at the %.3g-year horizon (%.0f %%) is credited, no resale "
                      "quote; facility build-out charged in full",
                      x->life.value, x->years, frac * 100);

    /* leased: the same cluster, hardware rented instead of bought */
    if (x->lease.quoted && x->lease.value > 0) {
        CostOption *l = new_option(x);
        if (!l)
            return;
        *l = *o;
        snprintf(l->name, sizeof l->name, "on-prem %s leased", k->accelerator);
        x->lease_per_year = x->lease.value * hw;
        l->capex_usd = facility;
        l->residual_usd = 0;
        l->opex_usd_per_year = maint_staff + energy + x->lease_per_year;
        l->tco_usd = l->capex_usd + l->opex_usd_per_year * x->years;
        l->usd_per_gpu_hour_list = l->gpu_hours_billed > 0 ? l->tco_usd / l->gpu_hours_billed : 0;
        l->usd_per_gpu_hour = l->gpu_hours_used > 0 ? l->tco_usd / l->gpu_hours_used : 0;
        l->usd_per_training_run = l->run_gpu_hours * l->usd_per_gpu_hour;
        l->usd_per_million_tokens = l->mtok_gpu_hours * l->usd_per_gpu_hour;
        text_fit(l->source, sizeof l->source, "lease %.1f %% of the hardware a year: %s (%s)",
                 x->lease.value * 100, x->lease.source, x->lease.date);
        snprintf(l->as_of, sizeof l->as_of, "%s", x->lease.date);
        if (l->tco_usd < x->onprem_tco)
            x->onprem_tco = l->tco_usd;
    }
}

/* Fraction of time a spot GPU of instance `in` loses, for a job of `gpus`
 * GPUs that checkpoints every `interval_s` (0: only the restart is lost):
 * a job spanning n instances is interrupted n x λ times a day and each
 * time loses half a checkpoint interval plus the restore. */
static double spot_loss(const Instance *in, double gpus, double interval_s, double restore_s)
{
    int per = in->accel_count > 0 ? in->accel_count : 1;
    double instances = ceil(gpus / per - 1e-9);
    if (instances < 1)
        instances = 1;
    double per_s = instances * nonneg(in->spot_interruptions_per_day) / SECONDS_PER_DAY;
    return per_s * (nonneg(interval_s) / 2.0 + restore_s);
}

/* Spot inflation of GPU-hours bought per GPU-hour of work, for the plan's
 * own training workloads (their GPUs and checkpoint intervals); 0 = spot
 * not worth offering. */
static double spot_inflation(Ctx *x, const Instance *in, bool own)
{
    const Plan *p = x->p;
    PlanResult *r = x->r;
    double restore = nonneg(p->tenancy.restore_s);
    double gpus = 0, weighted = 0;
    for (int i = 0; i < r->n_workloads && i < p->n_workloads; i++) {
        const TrainResult *t = &r->workloads[i].train;
        if (p->workloads[i].kind != WL_TRAINING || t->gpus <= 0)
            continue;
        double f = spot_loss(in, t->gpus, t->checkpoint_interval_s, restore);
        if (f >= COST_SPOT_MAX_LOSS) {
            if (x->spot_withdrawn++ == 0)
                result_assume(r, "cost",
                              "no spot option where interruptions eat >= %.0f %% of a job's "
                              "time: e.g. %s, %s on %d GPUs",
                              COST_SPOT_MAX_LOSS * 100, in->id, p->workloads[i].name, t->gpus);
            return 0;
        }
        gpus += t->gpus;
        weighted += t->gpus / (1 - f);
    }
    (void)own;
    return gpus > 0 ? weighted / gpus : 1 / (1 - spot_loss(in, in->accel_count, 0, restore));
}

/* One cloud option of instance `in` at pricing `pr` for need `n`. */
static void cloud_option(Ctx *x, const Instance *in, Pricing pr, const Need *n, bool own)
{
    PlanResult *r = x->r;
    CostResult *cr = &r->cost;
    int per = in->accel_count;
    double od = nonneg(in->on_demand_usd_h);
    if (per <= 0 || n->gpus <= 0)
        return;
    if (pr == PRICING_SPOT && !cr->spot_allowed)
        return;
    double term = pr == PRICING_RESERVED_1Y ? 1 : pr == PRICING_RESERVED_3Y ? 3 : 0;
    if (term > 0 && term > x->years + 1e-9)
        return; /* the term does not fit in the horizon (stated once by the caller) */
    Price disc = discount_for(x->p, in, pr);
    double price = 0;
    switch (pr) {
    case PRICING_ON_DEMAND: price = od * (1 - (disc.value < 1 ? disc.value : 0)); break;
    case PRICING_RESERVED_1Y:
    case PRICING_RESERVED_3Y: price = disc.value > 0 && disc.value < 1 ? od * (1 - disc.value) : 0; break;
    case PRICING_SPOT:
        price = nonneg(in->spot_usd_h) * (1 - (disc.value < 1 ? disc.value : 0));
        break;
    }
    if (!(price > 0))
        return; /* not offered, or the catalog has no figure */
    double rate = price / per; /* list $/GPU-hour */
    double infl = 1;
    if (pr == PRICING_SPOT) {
        infl = spot_inflation(x, in, own);
        if (!(infl > 0))
            return;
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
    o->sized = !own;
    o->days = n->days;
    o->pay_as_you_go = pr == PRICING_ON_DEMAND || pr == PRICING_SPOT;
    o->gpu_hours_used = n->busy * x->hours;
    if (o->pay_as_you_go) {
        /* billed for the GPU-hours used (whole GPUs of whole instances at
         * any moment is a detail below the model's precision) */
        o->gpus = (int)(ceil(n->busy / per - 1e-9) * per);
        o->gpu_hours_billed = o->gpu_hours_used * infl;
    } else {
        o->gpus = (int)(ceil((double)n->gpus / per - 1e-9) * per);
        o->gpu_hours_billed = o->gpus * x->hours;
    }
    o->usd_per_gpu_hour_list = rate;
    o->tco_usd = rate * o->gpu_hours_billed;
    o->capex_usd = 0;
    o->opex_usd_per_year = x->years > 0 ? o->tco_usd / x->years : 0;
    o->usd_per_gpu_hour = o->gpu_hours_used > 0 ? o->tco_usd / o->gpu_hours_used : rate;
    o->run_gpu_hours = n->run_gpu_hours;
    o->mtok_gpu_hours = n->mtok_gpu_hours;
    o->usd_per_training_run = o->run_gpu_hours * o->usd_per_gpu_hour;
    o->usd_per_million_tokens = o->mtok_gpu_hours * o->usd_per_gpu_hour;
    o->usd_per_million_tokens_low = n->mtok_low * o->usd_per_gpu_hour;
    o->usd_per_million_tokens_high = n->mtok_high * o->usd_per_gpu_hour;
    /* break-even: only where cloud is paid per hour used, against the
     * on-prem option on the same GPUs */
    double full = o->usd_per_gpu_hour * x->onprem_gpus * x->hours;
    o->breakeven_utilization = own && o->pay_as_you_go && x->onprem_tco > 0 && full > 0
                                   ? x->onprem_tco / full
                                   : 0;
    /* the part of the plain-words price source this pricing rests on:
     * "on-demand: A; spot: B" */
    char where[CAT_TEXT_LEN];
    snprintf(where, sizeof where, "%s", in->price_source[0] ? in->price_source : in->source);
    char *sp = strstr(where, "; spot: ");
    if (sp && pr == PRICING_SPOT)
        memmove(where, sp + 8, strlen(sp + 8) + 1);
    else if (sp) {
        *sp = '\0';
        if (!strncmp(where, "on-demand: ", 11))
            memmove(where, where + 11, strlen(where + 11) + 1);
    }
    if (term > 0 && disc.quoted)
        text_fit(o->source, sizeof o->source, "%.0f %% %s discount quoted: %s, %s; list price: %s",
                 disc.value * 100, pricing_names[pr], disc.source, disc.date, where);
    else if (term > 0)
        text_fit(o->source, sizeof o->source,
                 "%.0f %% %s discount assumed (AWS, Azure: up to 72 %%); list price: %s",
                 disc.value * 100, pricing_names[pr], where);
    else if (pr == PRICING_SPOT)
        text_fit(o->source, sizeof o->source,
                 "%s; %.2f interruptions per instance a day assumed", where,
                 nonneg(in->spot_interruptions_per_day));
    else if (disc.quoted)
        text_fit(o->source, sizeof o->source,
                 "list price less %.0f %% quoted: %s, %s; list price: %s", disc.value * 100,
                 disc.source, disc.date, where);
    else
        text_fit(o->source, sizeof o->source, "%s", where);
    snprintf(o->as_of, sizeof o->as_of, "%s", disc.quoted && disc.date[0] ? disc.date : in->as_of);
}

/* Two instances of one accelerator and provider that price an
 * accelerator-hour the same on demand (to 0.1 %: a 256-chip slice's price
 * is rounded to the cent) are one offer: tpu-v5p-8 and tpu-v5p-chip,
 * trn1.2xlarge and trn1.32xlarge. */
static bool same_offer(const Instance *a, const Instance *b)
{
    if (a->accel_count <= 0 || b->accel_count <= 0 || a->provider != b->provider ||
        !same_acc(a->accelerator, b->accelerator))
        return false;
    double x = a->on_demand_usd_h / a->accel_count, y = b->on_demand_usd_h / b->accel_count;
    return fabs(x - y) <= 1e-3 * fmax(fabs(x), fabs(y));
}

/* The instance that stands for its offer: the plan's own site, else the
 * one with the most accelerators (a cluster buys the largest shape, with
 * its scale-out network), else the first in the catalog. */
static bool offer_representative(const Catalog *c, const Instance *in, const Instance *site)
{
    if (in == site)
        return true;
    if (site && same_offer(site, in))
        return false;
    for (size_t j = 0; j < c->n_instances; j++) {
        const Instance *o = &c->instances[j];
        if (o == in || !same_offer(o, in))
            continue;
        if (o->accel_count > in->accel_count || (o->accel_count == in->accel_count && o < in))
            return false;
    }
    return true;
}

static void cloud_all_pricings(Ctx *x, const Instance *in, const Need *n, bool own)
{
    for (int pr = PRICING_ON_DEMAND; pr <= PRICING_SPOT; pr++)
        cloud_option(x, in, (Pricing)pr, n, own);
}

/* ------------------------------------------- what one instance must hold */

/* The plan's scale-up-bound unit: the most GPUs one indivisible piece of a
 * workload needs joined by the accelerator's scale-up (or node) fabric, as
 * the sizing stage placed it.  A cloud instance is billed whole and its
 * GPUs reach each other only inside it (two 1-GPU Standard_NC40ads_H100_v5
 * VMs share no NVLink bridge: the bridged pair is Standard_NC80adis_H100_v5,
 * CATALOG-FACTS §2.4), so an instance whose reach is below the unit cannot
 * run the plan whatever its price per GPU.
 *   inference: a replica's tensor-parallel group (vLLM / SGLang run TP over
 *     NVLink inside one node; disaggregated pools: the larger of the two);
 *   training: the largest of the TP, TP×CP and EP groups that the layout
 *     prices on the scale-up fabric (model/train.c env_link: a group whose
 *     span fits the node's scale-up, or a multi-node NVLink domain); groups
 *     priced on the network already cross nodes and bind nothing.
 * what: "a tp2 replica of chat" for the assumption line. */
typedef struct {
    int gpus;
    char what[PLAN_NAME_LEN + 48];
} Unit;

int cost_scaleup_unit(const Workload *w, const WorkloadResult *wr, const Accelerator *a,
                      char *what, size_t len)
{
    int best = 1;
    if (what && len)
        what[0] = '\0';
    if (!wr->ok)
        return best;
    if (w->kind == WL_INFERENCE) {
        const InferResult *f = &wr->infer;
        int tp = f->tp;
        if (f->disaggregated)
            tp = f->prefill_tp > f->decode_tp ? f->prefill_tp : f->decode_tp;
        if (tp > best) {
            best = tp;
            if (what)
                snprintf(what, len, "tp%d replica of %s", tp, w->name);
        }
        return best;
    }
    const Layout *l = &wr->train.layout;
    long long tp = l->tp > 0 ? l->tp : 1, cp = l->cp > 0 ? l->cp : 1;
    long long ep = l->ep > 0 ? l->ep : 1;
    long long ep_span = ep * (l->etp > 0 ? l->etp : tp * cp);
    long long spans[3] = {tp, tp * cp, ep_span};
    for (int k = 0; k < 3; k++)
        if (spans[k] > best && accel_on_scaleup(a, spans[k])) {
            best = (int)spans[k];
            if (what)
                snprintf(what, len, "%lld-GPU %s group of %s", spans[k],
                         k == 0 ? "tp" : k == 1 ? "tp x cp" : "ep", w->name);
        }
    return best;
}

static Unit scaleup_unit(const Plan *p, const Catalog *c, const PlanResult *r)
{
    Unit u = {.gpus = 1};
    const Accelerator *a = catalog_find_accelerator(c, r->cluster.accelerator);
    for (int i = 0; i < r->n_workloads && i < p->n_workloads; i++) {
        char what[sizeof u.what];
        int g = cost_scaleup_unit(&p->workloads[i], &r->workloads[i], a, what, sizeof what);
        if (g > u.gpus) {
            u.gpus = g;
            snprintf(u.what, sizeof u.what, "%s", what);
        }
    }
    return u;
}

/* GPUs one instance's scale-up reaches: its own, or (scaleup_accels) the
 * slice a per-chip price stands for. */
static int instance_reach(const Instance *in)
{
    return in->scaleup_accels > in->accel_count ? in->scaleup_accels : in->accel_count;
}

/* The cheapest instance per accelerator-hour on demand of accelerator acc
 * whose scale-up reaches `unit` GPUs (NULL: none priced). */
static const Instance *best_instance(const Catalog *c, const char *acc, int unit)
{
    const Instance *b = NULL;
    for (size_t i = 0; i < c->n_instances; i++) {
        const Instance *in = &c->instances[i];
        if (!same_acc(in->accelerator, acc) || in->accel_count <= 0 ||
            !(nonneg(in->on_demand_usd_h) > 0) || instance_reach(in) < unit)
            continue;
        if (!b || in->on_demand_usd_h / in->accel_count < b->on_demand_usd_h / b->accel_count)
            b = in;
    }
    return b;
}

/* Options on the plan's accelerator first (they deliver the plan's
 * capacity), then the sized alternatives; each group by TCO, then name. */
static bool option_before(const CostOption *a, const CostOption *b, const char *acc)
{
    bool ma = same_acc(a->accelerator, acc), mb = same_acc(b->accelerator, acc);
    if (ma != mb)
        return ma;
    return a->tco_usd < b->tco_usd || (a->tco_usd == b->tco_usd && strcmp(a->name, b->name) < 0);
}

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

/* ------------------------------------------------- per-workload ranking */

/* What the plan's cluster adds to each GPU's own node on-prem: its share of
 * the switches, cables and storage (USD) and of their IT power (kW). */
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
    compute_racks(p, c, k, &gpus, &nodes_usd, &priced);
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

/* $/GPU-hour of an accelerator for the Sizing pane's ranking of one
 * workload across the catalog: for an on-prem plan the on-prem estimate
 * (onprem_option's TCO per GPU-hour at full use), for a cloud plan the
 * cheapest on-demand price per accelerator-hour; each falls back to the
 * other; 0 = unknown. */
static double onprem_rate(const Plan *p, const Catalog *c, const Overhead *ov,
                          const Accelerator *a, char *basis, size_t len)
{
    double years = nonneg(p->horizon_years);
    double np = node_price(p, a).value;
    if (!(np > 0) || a->gpus_per_node <= 0 || !(years > 0))
        return 0;
    snprintf(basis, len, "on-prem estimate: full TCO over %.3g y at full use", years);
    const CostAssumptions *ca = &c->costs;
    double hw = np / a->gpus_per_node + ov->usd_per_gpu;
    double kw = nonneg(a->node_power_w) / a->gpus_per_node / 1000.0 + ov->kw_per_gpu;
    double capex = hw + nonneg(ca->facility_usd_per_kw) * kw;
    double opex = nonneg(ca->maintenance_frac_per_year) * hw +
                  nonneg(ca->staff_usd_per_mw_year) * kw / 1000.0 +
                  kw * (p->site.pue > 0 ? p->site.pue : 1) * HOURS_PER_YEAR *
                      nonneg(p->site.power_price_kwh);
    return (capex + opex * years) / (years * HOURS_PER_YEAR);
}

static double accelerator_rate(const Plan *p, const Catalog *c, const Overhead *ov,
                               const Accelerator *a, int unit, char *basis, size_t len)
{
    if (p->site.kind == SITE_ONPREM) {
        double r = onprem_rate(p, c, ov, a, basis, len);
        if (r > 0)
            return r;
    }
    const Instance *best = best_instance(c, a->id, unit);
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

static void price_alternatives(const Plan *p, const Catalog *c, PlanResult *r)
{
    Overhead ov = cluster_overhead(p, c, r);
    for (int i = 0; i < r->n_workloads; i++) {
        WorkloadResult *w = &r->workloads[i];
        for (int k = 0; k < w->n_alts; k++) {
            AccelOption *o = &w->alts[k];
            const Accelerator *a = catalog_find_accelerator(c, o->accelerator);
            if (!a || o->gpus <= 0 || !o->ok)
                continue; /* a size that cannot run the workload is not priced */
            double rate = accelerator_rate(p, c, &ov, a, o->scaleup_gpus, o->price_basis,
                                           sizeof o->price_basis);
            double hours = w->kind == WL_TRAINING ? nonneg(o->days) * 24.0 : HOURS_PER_YEAR;
            o->usd = o->gpus * hours * rate;
        }
    }
}

/* --------------------------------------------------------- the verdict */

static int cheapest_where(const CostResult *cr, const char *acc, int kind, int pricing)
{
    int best = -1;
    for (int i = 0; i < cr->n_options; i++) {
        const CostOption *o = &cr->options[i];
        if (!same_acc(o->accelerator, acc) || o->sized)
            continue;
        if (kind >= 0 && (int)o->kind != kind)
            continue;
        if (pricing >= 0 && (o->kind != COST_CLOUD || (int)o->pricing != pricing))
            continue;
        if (best < 0 || o->tco_usd < cr->options[best].tco_usd)
            best = i;
    }
    return best;
}

static void fill_cash(Ctx *x, CashFlow *f, int idx)
{
    CostResult *cr = &x->r->cost;
    memset(f, 0, sizeof *f);
    f->option = idx;
    if (idx < 0)
        return;
    const CostOption *o = &cr->options[idx];
    int n = (int)ceil(x->years - 1e-9);
    if (n > PLAN_MAX_YEARS)
        n = PLAN_MAX_YEARS;
    if (n < 1)
        n = 1;
    f->years = n;
    bool leased = o->kind == COST_ONPREM && strstr(o->name, " leased") != NULL;
    for (int y = 0; y < n; y++) {
        double share = x->years - y >= 1 ? 1 : x->years - y; /* a last partial year */
        if (o->kind == COST_ONPREM) {
            f->capex[y] = y == 0 ? o->capex_usd : 0;
            f->opex[y] = x->maint_staff * share;
            f->energy[y] = x->energy * share;
            f->rent[y] = leased ? x->lease_per_year * share : 0;
            f->residual[y] = y == n - 1 ? -o->residual_usd : 0;
        } else {
            f->rent[y] = o->opex_usd_per_year * share;
        }
    }
}

/* The first month in which the on-prem option's cumulative cash (capex up
 * front, running costs monthly, residual at the horizon) is at or below the
 * cloud option's; 0 = never within the horizon. */
static int crossover(const Ctx *x, const CostOption *on, const CostOption *cl)
{
    int months = (int)ceil(x->years * 12 - 1e-9);
    for (int m = 1; m <= months; m++) {
        double t = m / 12.0 > x->years ? x->years : m / 12.0;
        double a = on->capex_usd + on->opex_usd_per_year * t - (m == months ? on->residual_usd : 0);
        double b = cl->opex_usd_per_year * t;
        if (a <= b)
            return m;
    }
    return 0;
}

static void add_lever(CostResult *cr, const char *name, const char *value, const char *change,
                      const char *source, const char *date, double delta, const char *applies)
{
    if (cr->n_levers >= PLAN_MAX_LEVERS)
        return;
    CostLever *l = &cr->levers[cr->n_levers++];
    snprintf(l->name, sizeof l->name, "%s", name);
    snprintf(l->value, sizeof l->value, "%s", value);
    snprintf(l->change, sizeof l->change, "%s", change);
    text_fit(l->source, sizeof l->source, "%s", source ? source : "");
    snprintf(l->date, sizeof l->date, "%s", date ? date : "");
    l->tco_delta_usd = delta;
    snprintf(l->applies_to, sizeof l->applies_to, "%s", applies);
}

/* The assumptions that move the answer, each with what a stated change of
 * it does to the TCO of the option it applies to (exact: TCO is linear in
 * each of them). */
static void levers(Ctx *x)
{
    CostResult *cr = &x->r->cost;
    const Plan *p = x->p;
    char v[64];
    if (cr->onprem >= 0) {
        const CostOption *on = &cr->options[cr->onprem];
        double per_hw = 1 - x->resid_frac + nonneg(x->c->costs.maintenance_frac_per_year) * x->years;
        snprintf(v, sizeof v, "$%.0f per node", x->node.value);
        add_lever(cr, "node price", v, "+20 %", x->node.quoted ? x->node.source : "catalog estimate",
                  x->node.date, 0.2 * x->nodes_usd * per_hw, on->name);
        snprintf(v, sizeof v, "%.0f %% of hardware", x->resid_frac * 100);
        add_lever(cr, x->resale.quoted ? "resale at the horizon" : "book value at the horizon", v,
                  "-20 points", x->resale.quoted ? x->resale.source : x->life.source,
                  x->resale.quoted ? x->resale.date : x->life.date, 0.2 * x->hw * (x->resid_frac >= 0.2 ? 1 : x->resid_frac / 0.2),
                  on->name);
        snprintf(v, sizeof v, "$%.3f/kWh, PUE %.2f", p->site.power_price_kwh, p->site.pue);
        add_lever(cr, "power price", v, "+25 %", "the plan (site.power_price_kwh)", "",
                  0.25 * x->energy * x->years, on->name);
        snprintf(v, sizeof v, "$%.0f/kW", x->fac.value);
        add_lever(cr, "facility build-out", v, "+50 %", x->fac.source, x->fac.date,
                  0.5 * x->facility, on->name);
        snprintf(v, sizeof v, "$%.0f per MW-year", x->staff.value);
        add_lever(cr, "operations staff", v, "+50 %", x->staff.source, x->staff.date,
                  0.5 * nonneg(x->staff.value) * nonneg(x->r->power.it_kw) / 1000.0 * x->years,
                  on->name);
    }
    if (cr->cloud >= 0) {
        const CostOption *cl = &cr->options[cr->cloud];
        const Instance *in = catalog_find_instance(x->c, cl->instance);
        if (in && (cl->pricing == PRICING_RESERVED_1Y || cl->pricing == PRICING_RESERVED_3Y)) {
            Price d = discount_for(p, in, cl->pricing);
            snprintf(v, sizeof v, "%.0f %% off on-demand", d.value * 100);
            double od_rate = nonneg(in->on_demand_usd_h) / in->accel_count;
            add_lever(cr, "reserved discount", v, "+10 points",
                      d.quoted ? d.source : "catalog assumption (no published GPU reserved price)",
                      d.date, -0.1 * od_rate * cl->gpu_hours_billed, cl->name);
        }
    }
    if (cr->ondemand >= 0) {
        const CostOption *od = &cr->options[cr->ondemand];
        snprintf(v, sizeof v, "%.1f %% of installed GPU-hours", cr->utilization * 100);
        add_lever(cr, "utilisation", v, "-10 points", "the schedule simulation and sizing", "",
                  -od->usd_per_gpu_hour_list * x->onprem_gpus * x->hours * 0.1 *
                      (od->gpu_hours_used > 0 ? od->gpu_hours_billed / od->gpu_hours_used : 1),
                  od->name);
    }
}

static void showback(Ctx *x)
{
    PlanResult *r = x->r;
    CostResult *cr = &r->cost;
    const ScheduleResult *s = &r->schedule;
    int at = cr->chosen >= 0 ? cr->chosen : cr->cheapest;
    if (!r->have_schedule || !s->ran || at < 0)
        return;
    double horizon_h = nonneg(x->p->tenancy.horizon_s) / 3600.0;
    if (!(horizon_h > 0))
        return;
    double rate = cr->options[at].usd_per_gpu_hour;
    for (int i = 0; i < s->n_teams && i < PLAN_MAX_TEAMS; i++) {
        Showback *b = &cr->showback[cr->n_showback++];
        snprintf(b->team, sizeof b->team, "%s", s->teams[i].name);
        b->gpu_hours_per_month = nonneg(s->teams[i].gpu_hours) * HOURS_PER_MONTH / horizon_h;
        b->borrowed_gpu_hours_per_month =
            nonneg(s->teams[i].borrowed_gpu_hours) * HOURS_PER_MONTH / horizon_h;
        b->usd_per_month = b->gpu_hours_per_month * rate;
    }
    if (cr->n_showback)
        result_assume(r, "cost",
                      "showback: each team's simulated GPU-hours (quota and borrowed) scaled "
                      "to a month, at the effective $%.2f/GPU-hour of %s",
                      rate, cr->options[at].name);
}

static void verdict(Ctx *x)
{
    const Plan *p = x->p;
    PlanResult *r = x->r;
    CostResult *cr = &r->cost;
    const char *acc = r->cluster.accelerator;
    cr->onprem = cheapest_where(cr, acc, COST_ONPREM, -1);
    cr->cloud = cheapest_where(cr, acc, COST_CLOUD, -1);
    cr->ondemand = cheapest_where(cr, acc, COST_CLOUD, PRICING_ON_DEMAND);
    cr->alternative = -1;
    for (int i = 0; i < cr->n_options; i++)
        if (cr->options[i].sized &&
            (cr->alternative < 0 || cr->options[i].tco_usd < cr->options[cr->alternative].tco_usd))
            cr->alternative = i;
    if (cr->onprem_unpriced)
        cr->verdict = COST_VERDICT_UNPRICED;
    else if (cr->onprem >= 0 && cr->cloud >= 0)
        cr->verdict = cr->options[cr->onprem].tco_usd <= cr->options[cr->cloud].tco_usd
                          ? COST_VERDICT_BUILD
                          : COST_VERDICT_BUY;
    else if (cr->onprem >= 0)
        cr->verdict = COST_VERDICT_BUILD;
    else if (cr->cloud >= 0)
        cr->verdict = COST_VERDICT_CLOUD_ONLY;
    else
        cr->verdict = COST_VERDICT_NONE;
    if (cr->onprem >= 0 && cr->cloud >= 0) {
        double a = cr->options[cr->onprem].tco_usd, b = cr->options[cr->cloud].tco_usd;
        double dear = a > b ? a : b, cheap = a > b ? b : a;
        cr->margin_pct = dear > 0 ? (dear - cheap) / dear * 100 : 0;
        cr->crossover_month = crossover(x, &cr->options[cr->onprem], &cr->options[cr->cloud]);
    }
    if (cr->cloud_only && cr->cloud >= 0) {
        const CostOption *cl = &cr->options[cr->cloud];
        const Instance *in = catalog_find_instance(x->c, cl->instance);
        int per = in && in->accel_count > 0 ? in->accel_count : 1;
        text_fit(cr->service, sizeof cr->service, "%d %s %s of %d %s each (%s)", cl->gpus / per,
                 cl->instance, per > 1 ? "slices" : "units", per, per > 1 ? "chips" : "chip",
                 cl->provider);
    }
    fill_cash(x, &cr->cash[0], cr->onprem);
    fill_cash(x, &cr->cash[1], cr->cloud);
    /* the dates the verdict rests on */
    if (cr->onprem >= 0)
        date_span(cr, cr->options[cr->onprem].as_of);
    if (cr->cloud >= 0)
        date_span(cr, cr->options[cr->cloud].as_of);
    if (cr->ondemand >= 0)
        date_span(cr, cr->options[cr->ondemand].as_of);

    /* risks: the assumptions that decide the verdict */
    if (cr->cloud >= 0 && (cr->verdict == COST_VERDICT_BUY || cr->verdict == COST_VERDICT_BUILD)) {
        const CostOption *cl = &cr->options[cr->cloud];
        const Instance *in = catalog_find_instance(x->c, cl->instance);
        if (cl->pricing == PRICING_SPOT && in)
            result_warn(r, "cost: the verdict rests on spot capacity for %s (%.2f interruptions "
                           "per instance a day assumed, capacity not guaranteed)",
                        cl->name, nonneg(in->spot_interruptions_per_day));
        if ((cl->pricing == PRICING_RESERVED_1Y || cl->pricing == PRICING_RESERVED_3Y) && in) {
            Price d = discount_for(p, in, cl->pricing);
            if (!d.quoted)
                result_warn(r, "cost: the verdict rests on a %.0f %% %s discount that is an "
                               "assumption, not a quote (no provider publishes GPU reserved "
                               "prices); add site.prices.discounts",
                            d.value * 100, pricing_names[cl->pricing]);
        }
    }
    if (cr->verdict == COST_VERDICT_BUILD && cr->cloud >= 0 && !x->resale.quoted &&
        cr->options[cr->onprem].tco_usd + cr->options[cr->onprem].residual_usd >
            cr->options[cr->cloud].tco_usd)
        result_warn(r, "cost: building wins only by crediting the hardware's book value at the "
                       "horizon (%.0f %% of it); a resale quote under site.prices.resale would "
                       "confirm it",
                    x->resid_frac * 100);
    if (cr->onprem >= 0 && cr->cloud >= 0 && !x->node.quoted && cr->margin_pct < 25)
        result_warn(r, "cost: the verdict's %.0f %% margin rests on a catalog node price "
                       "estimate for %s, not a quote",
                    cr->margin_pct, acc);
}

void cost_stage(const Plan *p, const Catalog *c, PlanResult *r)
{
    CostResult *cr = &r->cost;
    memset(cr, 0, sizeof *cr);
    cr->cheapest = cr->chosen = cr->onprem = cr->cloud = cr->ondemand = cr->alternative = -1;
    r->have_cost = true;
    price_alternatives(p, c, r);

    Ctx x = {.p = p, .c = c, .r = r};
    x.years = nonneg(p->horizon_years);
    if (x.years <= 0)
        result_warn(r, "cost: horizon_years is 0; TCO is the capex alone");
    x.hours = x.years * HOURS_PER_YEAR;
    int gpus;
    bool priced;
    double unused;
    compute_racks(p, c, &r->cluster, &gpus, &unused, &priced);

    const Instance *site = NULL;
    if (p->site.kind == SITE_CLOUD) {
        site = catalog_find_instance(c, p->site.instance);
        if (!site)
            result_warn(r, "cost: site.instance '%s' is not in the catalog", p->site.instance);
        else if (!same_acc(site->accelerator, p->accelerator))
            result_warn(r, "cost: site.instance %s carries %s, not the plan's %s", site->id,
                        site->accelerator, p->accelerator);
    }
    if (gpus <= 0)
        return; /* nothing to price: a valid, empty result */

    double busy = fleet_busy(&x, gpus);
    x.own = need_own(p, r, gpus, busy);
    spot_rule(p, r, cr);
    if (!cr->spot_allowed)
        result_assume(r, "cost", "%s", cr->spot_why);
    for (int t = 1; t <= 3; t += 2)
        if (t > x.years + 1e-9)
            result_assume(r, "cost", "no reserved-%dy option: a %d-year term does not fit the "
                                     "%.3g-year horizon",
                          t, t, x.years);
    onprem_option(&x);

    /* the plan's own instance first, then every instance of the plan's
     * accelerator (one per set of identical prices) */
    const char *acc = r->cluster.accelerator;
    Unit unit = scaleup_unit(p, c, r);
    bool site_too_small = false;
    if (site && same_acc(site->accelerator, acc)) {
        if (instance_reach(site) >= unit.gpus)
            cloud_all_pricings(&x, site, &x.own, true);
        else {
            site_too_small = true;
            result_warn(r, "cost: site.instance %s: %d GPU%s cannot hold a %s", site->id,
                        instance_reach(site), instance_reach(site) == 1 ? "" : "s", unit.what);
        }
    }
    for (size_t i = 0; i < c->n_instances; i++) {
        const Instance *in = &c->instances[i];
        if (in == site || !same_acc(in->accelerator, acc) || !offer_representative(c, in, site))
            continue;
        if (instance_reach(in) < unit.gpus) {
            if (nonneg(in->on_demand_usd_h) > 0)
                result_assume(r, "cost", "%s not offered: %d GPU%s cannot hold a %s", in->id,
                              instance_reach(in), instance_reach(in) == 1 ? "" : "s", unit.what);
            continue;
        }
        cloud_all_pricings(&x, in, &x.own, true);
    }
    /* every other accelerator, sized for the same workloads */
    for (size_t i = 0; i < c->n_accelerators; i++) {
        const Accelerator *a = &c->accelerators[i];
        if (same_acc(a->id, acc) || a->unlisted)
            continue;
        if (!best_instance(c, a->id, 1)) {
            exclude(cr, a->id, "no cloud price in the catalog");
            continue;
        }
        Need n = need_alt(p, r, a->id);
        if (!n.ok) {
            exclude(cr, a->id, n.why);
            continue;
        }
        const Instance *best = best_instance(c, a->id, n.unit);
        if (!best) {
            char why[96];
            snprintf(why, sizeof why, "no priced instance holds its %d-GPU scale-up unit",
                     n.unit);
            exclude(cr, a->id, why);
            continue;
        }
        cloud_all_pricings(&x, best, &n, false);
    }
    if (cr->n_excluded)
        result_assume(r, "cost",
                      "other accelerators appear only sized for the same workloads; %d left "
                      "out (cannot run a workload, or no price): e.g. %s, %s",
                      cr->n_excluded, cr->excluded[0].accelerator, cr->excluded[0].why);
    if (x.spot_withdrawn > 1)
        result_assume(r, "cost", "spot withdrawn for %d instance types in all", x.spot_withdrawn);

    sort_options(cr, acc);
    for (int i = 0; i < cr->n_options && cr->cheapest < 0; i++)
        if (same_acc(cr->options[i].accelerator, acc) && !cr->options[i].sized)
            cr->cheapest = i;
    for (int i = 0; i < cr->n_options && cr->chosen < 0; i++) {
        const CostOption *o = &cr->options[i];
        bool mine = p->site.kind == SITE_ONPREM
                        ? o->kind == COST_ONPREM && same_acc(o->accelerator, acc)
                        : o->kind == COST_CLOUD && site && o->pricing == p->site.pricing &&
                              !strcasecmp(o->instance, site->id);
        if (mine)
            cr->chosen = i;
    }
    if (cr->chosen < 0 && p->site.kind == SITE_CLOUD && site)
        result_warn(r, "cost: %s %s is not offered for this plan (%s); the plan's own option is "
                       "not priced",
                    site->id, pricing_names[p->site.pricing],
                    site_too_small ? "its GPUs cannot hold the scale-up unit"
                    : p->site.pricing == PRICING_SPOT ? cr->spot_why
                    : (p->site.pricing == PRICING_RESERVED_3Y && x.years < 3) ||
                            (p->site.pricing == PRICING_RESERVED_1Y && x.years < 1)
                        ? "the term does not fit the horizon"
                        : "no price in the catalog");
    verdict(&x);
    levers(&x);
    showback(&x);
}
