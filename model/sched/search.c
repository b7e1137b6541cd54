/* model/sched/search.c — the stage entry points: one run on a fixed pool
 * (sched_simulate) and the capacity search (sched_stage). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_int.h"

#define SEARCH_MAX_GPUS (1 << 20) /* give up above a million GPUs */

/* GPUs under one leaf group.  A leaf switch of P ports with oversubscription
 * o (down:up = o:1) has P·o/(1+o) ports down — P/2 when non-blocking, as in
 * NVIDIA's DGX SuperPOD reference architecture (32 down / 32 up on a 64-port
 * QM9700).  Each GPU has one scale-out NIC port (rail-optimised: NIC k of a
 * node goes to rail leaf k).  Fat tree: a leaf serves `down` GPUs.
 * Rail-optimised: the `down` nodes under one set of rail leaves form a
 * scalable unit whose GPUs all reach each other in one switch hop, so the
 * group is down × gpus_per_node GPUs. */
int sched_leaf_gpus(const Plan *p, int gpn)
{
    int ports = p->network.switch_ports > 0 ? p->network.switch_ports : 64;
    double o = p->network.oversubscription >= 1 ? p->network.oversubscription : 1;
    double dn = floor(ports * o / (1 + o) + 1e-9);
    int down = dn < 1 ? 1 : dn > 65536 ? 65536 : (int)dn; /* keeps down × gpn in an int */
    if (gpn < 1)
        gpn = 1;
    return p->network.topology == TOPO_RAIL_OPTIMIZED ? down * gpn : (down > gpn ? down : gpn);
}

typedef struct {
    int gpn, gpd, gpl;
    const Accelerator *a;
} Geometry;

static Geometry geometry(const Plan *p, const Catalog *c)
{
    Geometry g;
    g.a = catalog_find_accelerator(c, p->accelerator);
    /* Unknown accelerator: an 8-GPU HGX node is one NVLink domain. */
    g.gpn = g.a && g.a->gpus_per_node > 0 ? g.a->gpus_per_node : 8;
    if (g.gpn > 64)
        g.gpn = 64;
    g.gpd = g.a && g.a->scaleup_domain > g.gpn ? g.a->scaleup_domain : g.gpn;
    g.gpl = sched_leaf_gpus(p, g.gpn);
    return g;
}

static bool has_tenancy(const Plan *p)
{
    return p->tenancy.n_teams > 0 || (p->tenancy.trace_jobs && p->tenancy.n_trace_jobs > 0);
}

int sched_simulate(const Plan *p, const Catalog *c, const EvalOptions *opt, int gpus,
                   ScheduleResult *out, SchedStats *st)
{
    return sched_simulate_with(p, c, opt, gpus, SCHED_RES_KEPT, out, st);
}

int sched_simulate_with(const Plan *p, const Catalog *c, const EvalOptions *opt, int gpus,
                        int res_mode, ScheduleResult *out, SchedStats *st)
{
    memset(out, 0, sizeof *out);
    if (st)
        memset(st, 0, sizeof *st);
    if (!has_tenancy(p))
        return 0; /* ran = false, everything zero */
    out->policy = p->tenancy.policy;
    if (gpus <= 0)
        gpus = p->tenancy.gpus;
    if (gpus <= 0)
        return 0;
    Geometry g = geometry(p, c);
    SchedWorkload w;
    if (sched_workload_build(p, g.a, opt, 1, &w) < 0) {
        if (w.cancelled) {
            out->cancelled = true;
            return -1;
        }
        return -2;
    }
    int rc = sched_run_with(p, &w, g.a, opt, gpus, g.gpn, g.gpd, g.gpl, res_mode, out, st);
    sched_workload_free(&w);
    return rc;
}

/* The run's wait against the target, s (schedule_wait_score: every
 * team's p95, and a starved class's longest wait); *who = its team, *cls =
 * the starved class setting it or -1. */
static double worst_wait(const ScheduleResult *r, int *who, int *cls)
{
    return schedule_wait_score(r, who, cls) * 3600;
}

static bool meets(const ScheduleResult *r, double target_s)
{
    int who, cls;
    return worst_wait(r, &who, &cls) <= target_s + 1e-6;
}

/* Who misses, for a warning: "team T's p95 wait 3.20 h", or "class T/C,
 * which never runs, waiting up to 65.71 h"; r gives the names (every run
 * of a search has the same teams and classes), `wait` the figure, s. */
static const char *who_waits(const ScheduleResult *r, int who, int cls, double wait, char *buf,
                             size_t len)
{
    if (cls >= 0)
        snprintf(buf, len, "class %s/%s, which never runs, waiting up to %.2f h",
                 r->classes[cls].team, r->classes[cls].name, wait / 3600);
    else
        snprintf(buf, len, "team %s's p95 wait %.2f h", r->teams[who].name, wait / 3600);
    return buf;
}

/* Whole nodes holding the sum of the teams' guaranteed quotas. */
static int quota_pool_nodes(const Plan *p, int gpn)
{
    long long q = 0;
    for (int i = 0; i < p->tenancy.n_teams; i++)
        q += p->tenancy.teams[i].quota_gpus > 0 ? p->tenancy.teams[i].quota_gpus : 0;
    long long n = (q + gpn - 1) / gpn;
    return n > SEARCH_MAX_GPUS / gpn ? SEARCH_MAX_GPUS / gpn : (int)n;
}

/* GPUs the work arriving within the horizon keeps busy on average: each
 * team's GPU-equivalents × the part of each run before the horizon, over
 * the horizon, no more than the team's quota and borrowing limit let it
 * hold.  A pool below it cannot carry that work: its queue grows until
 * the horizon ends, and any wait it "meets" is the horizon's. */
static double load_gpus(const SchedWorkload *w)
{
    double g = 0;
    for (int t = 0; t < w->n_teams && w->horizon > 0; t++) {
        double l = w->team_load_gpu_s[t] / w->horizon;
        if (w->teams[t].borrow >= 0 && l > w->teams[t].quota + w->teams[t].borrow)
            l = w->teams[t].quota + w->teams[t].borrow;
        g += l;
    }
    return g;
}

static int load_pool_nodes(const SchedWorkload *w, int gpn)
{
    double n = ceil(load_gpus(w) / gpn - 1e-9);
    return n > SEARCH_MAX_GPUS / gpn ? SEARCH_MAX_GPUS / gpn : (int)n;
}

int sched_search_floor_nodes(const Plan *p, const SchedWorkload *w, int gpn)
{
    int lo = (w->max_whole + gpn - 1) / gpn; /* the largest gang */
    /* every team's guaranteed quota, as a fixed pool must hold them
     * (plan-format: gpus >= the sum of quota_gpus); the exports promise
     * those quotas to the teams */
    if (lo < quota_pool_nodes(p, gpn))
        lo = quota_pool_nodes(p, gpn);
    /* the work that arrives within the horizon */
    if (lo < load_pool_nodes(w, gpn))
        lo = load_pool_nodes(w, gpn);
    return lo < 1 ? 1 : lo;
}

/* Run on `nodes` nodes against a p95 target; 1 = meets, 0 = misses, -1
 * cancelled, -2 OOM.  The run's result is kept in *keep when it meets
 * (the smallest so far).  A probe whose miss needs no result beyond "it
 * misses" (`decide`) stops as soon as the miss is certain: the simulator
 * counts, per team, the jobs whose wait (which only grows) has passed the
 * target, and enough of them put the team's p95 over it whatever the rest
 * of the run does (sched_run_miss).  The answer is the same as the whole
 * run's meets(); *tmp is then zeroed (tmp->ran false). */
static int probe_as(const Plan *p, const SchedWorkload *w, const Geometry *g,
                    const EvalOptions *opt, int nodes, double target_s, bool decide,
                    ScheduleResult *tmp, ScheduleResult *keep)
{
    int gpus = nodes * g->gpn;
    int rc = decide ? sched_run_miss(p, w, g->a, opt, gpus, g->gpn, g->gpd, g->gpl,
                                     target_s + 1e-6, tmp)
                    : sched_run(p, w, g->a, opt, gpus, g->gpn, g->gpd, g->gpl, tmp, NULL);
    if (rc < 0)
        return rc;
    if (rc == 1 || !meets(tmp, target_s))
        return 0;
    *keep = *tmp;
    return 1;
}

static int probe(const Plan *p, const SchedWorkload *w, const Geometry *g, const EvalOptions *opt,
                 int nodes, double target_s, ScheduleResult *tmp, ScheduleResult *keep)
{
    return probe_as(p, w, g, opt, nodes, target_s, false, tmp, keep);
}

/* Smallest pool in (miss, hi] nodes meeting target_s, hi known to meet;
 * *keep holds hi's run on entry and the answer's on return. */
static int bisect(const Plan *p, const SchedWorkload *w, const Geometry *g, const EvalOptions *opt,
                  int miss, int *hi, double target_s, ScheduleResult *tmp, ScheduleResult *keep)
{
    while (*hi - miss > 1) {
        int mid = miss + (*hi - miss) / 2;
        int rc = probe_as(p, w, g, opt, mid, target_s, true, tmp, keep);
        if (rc < 0)
            return rc;
        if (rc == 1)
            *hi = mid;
        else
            miss = mid;
    }
    return 0;
}

/* Smallest whole-node pool whose p95 wait meets the target for every team:
 * start at the offered load over 85 % utilisation (at least the largest
 * gang), double until a pool meets the target, then bisect between the
 * last miss and the first hit.  Every probe replays the same jobs and the
 * same failure seed.  Assumes a bigger pool never waits longer (true of the
 * policies in expectation; a probe that breaks it only makes the answer
 * the smallest meeting pool above a missing one).
 *
 * A team held back by its borrowing limit, or a job mix whose waits come
 * from the jobs themselves, never meets the target however large the pool:
 * when two doublings in a row leave the worst p95 within 1 %, the search
 * stops and reports the smallest pool that reaches that plateau (1 % above
 * it), with meets_target false and a warning naming the team. */
static int capacity_search(const Plan *p, const SchedWorkload *w, const Geometry *g,
                           const EvalOptions *opt, ScheduleResult *out, PlanResult *r)
{
    ScheduleResult *tmp = malloc(sizeof *tmp), *keep = malloc(sizeof *keep);
    if (!tmp || !keep) {
        free(tmp);
        free(keep);
        return -2;
    }
    int gpn = g->gpn;
    int lo_nodes = sched_search_floor_nodes(p, w, gpn);
    /* the floor the quotas set, when the load does not set a higher one:
     * an answer there is "the pool the teams' quotas need" */
    int quota_floor = quota_pool_nodes(p, gpn);
    if (quota_floor < load_pool_nodes(w, gpn))
        quota_floor = 0;
    double load = w->horizon > 0 ? w->offered_gpu_s / w->horizon : 0;
    int hi = (int)ceil(load / 0.85 / gpn);
    if (hi < lo_nodes)
        hi = lo_nodes;
    int max_nodes = SEARCH_MAX_GPUS / gpn;
    double target = p->tenancy.wait_p95_s;
    int miss = lo_nodes - 1, rc, stall = 0;
    /* the doubling's history, for the plateau case, with the runs of its
     * misses (hres[i] is hist i's; the plateau probes one of them again) */
    int hist_nodes[64];
    double hist_worst[64];
    int nh = 0;
    ScheduleResult *hres = NULL;
    /* The first pool's worst wait is needed only when the next pool misses
     * too (the plateau test); most searches double once, so the first probe
     * may stop at a certain miss and is rerun whole if that case comes. */
    bool first_open = false;
    for (;;) {
        rc = probe_as(p, w, g, opt, hi, target, nh == 0 && hi < max_nodes, tmp, keep);
        if (rc < 0)
            goto done;
        if (rc == 1)
            break;
        if (!tmp->ran) { /* the first probe, stopped at its miss */
            hist_nodes[nh++] = hi;
            first_open = true;
            miss = hi;
            hi = hi * 2 < max_nodes ? hi * 2 : max_nodes;
            continue;
        }
        int who, cls;
        double worst = worst_wait(tmp, &who, &cls);
        if (nh < 64) {
            if (!hres && !(hres = malloc(64 * sizeof *hres))) {
                rc = -2;
                goto done;
            }
            hres[nh] = *tmp;
        }
        if (first_open) {
            int who0, cls0;
            rc = probe(p, w, g, opt, hist_nodes[0], target, tmp, keep);
            if (rc < 0)
                goto done;
            hist_worst[0] = worst_wait(tmp, &who0, &cls0);
            hres[0] = *tmp;
            first_open = false;
        }
        if (nh > 0 && worst >= hist_worst[nh - 1] * 0.99 - 1e-6)
            stall++;
        else
            stall = 0;
        if (nh < 64) {
            hist_nodes[nh] = hi;
            hist_worst[nh++] = worst;
        }
        if (stall >= 2 || hi >= max_nodes) {
            /* waits stopped shrinking: the smallest pool on the plateau */
            double thr = worst * 1.01 + 1e-6;
            int k = 0;
            while (k < nh - 1 && hist_worst[k] > thr)
                k++;
            int lo_miss = k > 0 ? hist_nodes[k - 1] : lo_nodes - 1;
            int top = hist_nodes[k];
            /* top's run, kept (a probe again would be the same run: the same
             * pool, jobs and failure seed), meets thr: it reached the plateau
             * (were it not, it would be the answer) */
            *keep = hres[k];
            rc = meets(keep, thr) ? bisect(p, w, g, opt, lo_miss, &top, thr, tmp, keep) : 0;
            if (rc < 0)
                goto done;
            *out = *keep;
            out->recommended_gpus = top * gpn;
            out->meets_target = meets(out, target);
            out->pool_from_quotas = out->meets_target && quota_floor > 0 && top == quota_floor;
            char a[200];
            /* who, cls and worst are the last doubling probe's (hi GPUs) */
            if (out->meets_target) /* waits not monotone in the pool size */
                result_warn(r, "schedule: %d GPUs meet the %.2f h wait target but the larger "
                            "pools searched do not (%s on %d GPUs): waits are not monotone in "
                            "the pool's size for this job mix", top * gpn, target / 3600,
                            who_waits(out, who, cls, worst, a, sizeof a), hi * gpn);
            else if (cls >= 0)
                result_warn(r, "schedule: class %s/%s never runs however many GPUs are added "
                            "(its jobs wait up to %.2f h; its team's borrowing limit or quota, "
                            "or the policy); target %.2f h not met — %d GPUs is where more stop "
                            "helping", out->classes[cls].team, out->classes[cls].name,
                            worst / 3600, target / 3600, top * gpn);
            else
                result_warn(r, "schedule: team %s's p95 wait stays near %.2f h however many "
                            "GPUs are added (borrowing limit, quota or job sizes); target %.2f "
                            "h not met — %d GPUs is where more stop helping",
                            out->teams[who].name, worst / 3600, target / 3600, top * gpn);
            rc = 0;
            goto done;
        }
        miss = hi;
        hi = hi * 2 < max_nodes ? hi * 2 : max_nodes;
    }
    rc = bisect(p, w, g, opt, miss, &hi, target, tmp, keep);
    if (rc < 0)
        goto done;
    *out = *keep;
    out->recommended_gpus = hi * gpn;
    out->meets_target = true;
    out->pool_from_quotas = quota_floor > 0 && hi == quota_floor;
    rc = 0;
done:
    if (rc == -1) {
        memset(out, 0, sizeof *out);
        out->cancelled = true;
        out->policy = p->tenancy.policy;
    }
    free(hres);
    free(tmp);
    free(keep);
    return rc;
}

void sched_stage(const Plan *p, const Catalog *c, const EvalOptions *opt, PlanResult *r)
{
    ScheduleResult *out = &r->schedule;
    memset(out, 0, sizeof *out);
    r->have_schedule = true;
    if (!has_tenancy(p))
        return; /* ran = false, everything zero */
    out->policy = p->tenancy.policy;
    Geometry g = geometry(p, c);
    if (!g.a)
        result_assume(r, "schedule", "accelerator '%s' not in the catalog: 8-GPU nodes, "
                      "one NVLink domain per node, no MIG", p->accelerator);
    SchedWorkload w;
    bool search = p->tenancy.gpus <= 0 && opt && opt->capacity_search;
    if (sched_workload_build(p, g.a, opt, search ? SCHED_SEARCH_PROBES : 1, &w) < 0) {
        if (w.cancelled)
            out->cancelled = true;
        else if (w.too_many)
            result_warn(r, "schedule: about %.0f jobs over the horizon, more than the "
                        "simulation budget allows (%.0f jobs, ~%.0f MB) even over a sample "
                        "window of one day or ten run times; not simulated (lower the rates)",
                        w.expected_jobs, sched_budget_jobs(search ? SCHED_SEARCH_PROBES : 1),
                        sched_budget_jobs(1) * SCHED_JOB_BYTES / 1e6);
        else
            result_warn(r, "schedule: out of memory generating the job mix");
        return;
    }
    if (w.sampled_from > 0)
        result_warn(r, "schedule: about %.0f jobs over %.1f days exceed the simulation budget "
                    "(%.0f jobs: ~%.0f MB, %s); simulated the first %.1f days (%zu jobs) — "
                    "waits and utilisation are from that window",
                    w.expected_jobs, w.sampled_from / 86400,
                    sched_budget_jobs(search ? SCHED_SEARCH_PROBES : 1),
                    sched_budget_jobs(search ? SCHED_SEARCH_PROBES : 1) * SCHED_JOB_BYTES / 1e6,
                    search ? "capacity search time" : "memory", w.horizon / 86400, w.n);
    if (p->tenancy.trace_jobs && p->tenancy.trace_note[0])
        result_warn(r, "schedule: the trace: %s", p->tenancy.trace_note);
    if (w.mig_fallbacks > 0)
        result_warn(r, "schedule: %d job class(es) ask for a MIG profile %s lacks; "
                    "simulated as the same fraction of a time-shared GPU",
                    w.mig_fallbacks, p->accelerator);
    if (w.classes_dropped > 0)
        result_warn(r, "schedule: %d job classes beyond %d are simulated but not reported",
                    w.classes_dropped, PLAN_MAX_CLASSES);
    result_assume(r, "schedule", "leaf group %d GPUs (switch ports %d, oversubscription %g), "
                  "NVLink domain %d GPUs, %d GPUs per node", g.gpl,
                  p->network.switch_ports, p->network.oversubscription, g.gpd, g.gpn);
    result_assume(r, "schedule", "checkpoint every Young interval sqrt(2*delta*MTBF), "
                  "delta = storage checkpoint stall %.0f s; backfill uses exact run times",
                  p->storage.checkpoint_stall_s > 0 ? p->storage.checkpoint_stall_s : 60);
    int rc;
    if (p->tenancy.gpus > 0) {
        SchedStats st;
        rc = sched_run(p, &w, g.a, opt, p->tenancy.gpus, g.gpn, g.gpd, g.gpl, out, &st);
        if (rc == 0 && st.jobs_unplaceable > 0)
            result_warn(r, "schedule: %d jobs can never start on %d GPUs (larger than the pool "
                        "or a MIG profile the GPU cannot hold); they wait to the horizon",
                        st.jobs_unplaceable, p->tenancy.gpus);
        double load = load_gpus(&w);
        if (rc == 0 && load > p->tenancy.gpus * 1.001)
            result_warn(r, "schedule: the jobs arriving within the horizon keep %.0f GPUs busy "
                        "on average (as their teams' quotas and borrowing limits allow), more "
                        "than the pool's %d: its queue grows until the %.1f-day horizon ends, "
                        "so a longer horizon waits longer", load, p->tenancy.gpus,
                        w.horizon / 86400);
    } else if (opt && opt->capacity_search) {
        rc = capacity_search(p, &w, &g, opt, out, r);
    } else {
        /* auto without the search: the offered load at 85 % utilisation,
         * whole nodes, at least the search's floor (the largest gang, the
         * teams' quotas; its load term is below the 85 % one) */
        double load = w.horizon > 0 ? w.offered_gpu_s / w.horizon : 0;
        int nodes = (int)ceil(load / 0.85 / g.gpn);
        int lo = sched_search_floor_nodes(p, &w, g.gpn);
        if (nodes < lo)
            nodes = lo;
        result_assume(r, "schedule", "pool sized from the offered load at 85%% utilisation, "
                      "at least the teams' quotas (capacity search off): %d GPUs", nodes * g.gpn);
        rc = sched_run(p, &w, g.a, opt, nodes * g.gpn, g.gpn, g.gpd, g.gpl, out, NULL);
    }
    if (rc == -2)
        result_warn(r, "schedule: out of memory in the simulation");
    else if (rc == 0 && out->n_teams > 0 && p->tenancy.gpus > 0) {
        out->meets_target = meets(out, p->tenancy.wait_p95_s);
        /* a pool the plan fixes is held to the target too: say who waits */
        int who, cls;
        if (!out->meets_target) {
            double worst = worst_wait(out, &who, &cls);
            if (cls >= 0)
                result_warn(r, "schedule: class %s/%s never runs on the plan's %d GPUs: its "
                            "jobs wait up to %.2f h, over the %.2f h target; tenancy.gpus: auto "
                            "sizes the smallest pool that meets it", out->classes[cls].team,
                            out->classes[cls].name, p->tenancy.gpus, worst / 3600,
                            p->tenancy.wait_p95_s / 3600);
            else
                result_warn(r, "schedule: team %s's p95 wait %.2f h misses the %.2f h target "
                            "on the plan's %d GPUs; tenancy.gpus: auto sizes the smallest pool "
                            "that meets it", out->teams[who].name, worst / 3600,
                            p->tenancy.wait_p95_s / 3600, p->tenancy.gpus);
        }
    }
    sched_workload_free(&w);
}
