/* tests/test_sched_search.c — the capacity search's probes that stop at a
 * certain miss (sched_run_miss, search.c) change no answer: a stopped run
 * is always one whose whole run misses, a run that does not stop is the
 * whole run, and the search gives what the search before them gave (every
 * probe a whole run, kept here as the reference) on random plans and on
 * the demo plans. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_yaml.h"
#include "check_main.h"
#include "plan.h"
#include "sched/sched.h"
#include "sched/sched_int.h"
#include "trace.h"
#include "yaml_plan.h"

static Accelerator g_acc[2];
static Catalog g_cat;

static void setup_catalog(void)
{
    memset(g_acc, 0, sizeof g_acc);
    strcpy(g_acc[0].id, "H100-SXM");
    g_acc[0].gpus_per_node = 8;
    g_acc[0].scaleup_domain = 8;
    strcpy(g_acc[1].id, "GB200");
    g_acc[1].gpus_per_node = 4;
    g_acc[1].scaleup_domain = 72;
    g_cat.accelerators = g_acc;
    g_cat.n_accelerators = 2;
}

typedef struct {
    int gpn, gpd, gpl;
    const Accelerator *a;
} Geo;

/* search.c's geometry() */
static Geo geo(const Plan *p, const Catalog *c)
{
    Geo g;
    g.a = catalog_find_accelerator(c, p->accelerator);
    g.gpn = g.a && g.a->gpus_per_node > 0 ? g.a->gpus_per_node : 8;
    if (g.gpn > 64)
        g.gpn = 64;
    g.gpd = g.a && g.a->scaleup_domain > g.gpn ? g.a->scaleup_domain : g.gpn;
    g.gpl = sched_leaf_gpus(p, g.gpn);
    return g;
}

/* The target and the floor are the search's (schedule_wait_score,
 * sched_search_floor_nodes); what the reference keeps is its probing. */
static bool meets(const ScheduleResult *r, double target_s)
{
    return schedule_wait_score(r, NULL, NULL) * 3600 <= target_s + 1e-6;
}

static double worst_p95(const ScheduleResult *r, int *who)
{
    return schedule_wait_score(r, who, NULL) * 3600;
}

/* ------------------------------------------------ the reference search */

/* The capacity search as it was before its probes could stop at a certain
 * miss (search.c up to session 6): every probe a whole run.  Returns the
 * number of probes, -1 on an error. */
static int ref_probe(const Plan *p, const SchedWorkload *w, const Geo *g, int nodes,
                     double target_s, ScheduleResult *tmp, ScheduleResult *keep)
{
    int rc = sched_run(p, w, g->a, NULL, nodes * g->gpn, g->gpn, g->gpd, g->gpl, tmp, NULL);
    if (rc < 0)
        return rc;
    if (!meets(tmp, target_s))
        return 0;
    *keep = *tmp;
    return 1;
}

static int ref_bisect(const Plan *p, const SchedWorkload *w, const Geo *g, int miss, int *hi,
                      double target_s, ScheduleResult *tmp, ScheduleResult *keep)
{
    while (*hi - miss > 1) {
        int mid = miss + (*hi - miss) / 2;
        int rc = ref_probe(p, w, g, mid, target_s, tmp, keep);
        if (rc < 0)
            return rc;
        if (rc == 1)
            *hi = mid;
        else
            miss = mid;
    }
    return 0;
}

static int ref_search(const Plan *p, const Catalog *c, ScheduleResult *out)
{
    Geo gg = geo(p, c), *g = &gg;
    EvalOptions o = {.capacity_search = true};
    SchedWorkload w;
    memset(out, 0, sizeof *out);
    if (sched_workload_build(p, g->a, &o, SCHED_SEARCH_PROBES, &w) < 0)
        return -1;
    ScheduleResult *tmp = malloc(sizeof *tmp), *keep = malloc(sizeof *keep);
    ck_assert_ptr_nonnull(tmp);
    ck_assert_ptr_nonnull(keep);
    int gpn = g->gpn;
    int lo_nodes = sched_search_floor_nodes(p, &w, gpn);
    double load = w.horizon > 0 ? w.offered_gpu_s / w.horizon : 0;
    int hi = (int)ceil(load / 0.85 / gpn);
    if (hi < lo_nodes)
        hi = lo_nodes;
    int max_nodes = (1 << 20) / gpn;
    double target = p->tenancy.wait_p95_s;
    int miss = lo_nodes - 1, rc, stall = 0;
    int hist_nodes[64];
    double hist_worst[64];
    int nh = 0;
    for (;;) {
        rc = ref_probe(p, &w, g, hi, target, tmp, keep);
        ck_assert_int_ge(rc, 0);
        if (rc == 1)
            break;
        int who;
        double worst = worst_p95(tmp, &who);
        if (nh > 0 && worst >= hist_worst[nh - 1] * 0.99 - 1e-6)
            stall++;
        else
            stall = 0;
        if (nh < 64) {
            hist_nodes[nh] = hi;
            hist_worst[nh++] = worst;
        }
        if (stall >= 2 || hi >= max_nodes) {
            double thr = worst * 1.01 + 1e-6;
            int k = 0;
            while (k < nh - 1 && hist_worst[k] > thr)
                k++;
            int lo_miss = k > 0 ? hist_nodes[k - 1] : lo_nodes - 1;
            int top = hist_nodes[k];
            rc = ref_probe(p, &w, g, top, thr, tmp, keep);
            if (rc == 1)
                rc = ref_bisect(p, &w, g, lo_miss, &top, thr, tmp, keep);
            else if (rc == 0)
                *keep = *tmp;
            ck_assert_int_ge(rc, 0);
            *out = *keep;
            out->recommended_gpus = top * gpn;
            out->meets_target = meets(out, target); /* a smaller pool may meet (session 40) */
            goto done;
        }
        miss = hi;
        hi = hi * 2 < max_nodes ? hi * 2 : max_nodes;
    }
    ck_assert_int_ge(ref_bisect(p, &w, g, miss, &hi, target, tmp, keep), 0);
    *out = *keep;
    out->recommended_gpus = hi * gpn;
    out->meets_target = true;
done:
    free(tmp);
    free(keep);
    sched_workload_free(&w);
    return 0;
}

/* Every figure a schedule reports, exactly (doubles compared with ==). */
static void assert_same_result(const ScheduleResult *a, const ScheduleResult *b, const char *what)
{
    ck_assert_msg(a->ran == b->ran && a->gpus == b->gpus &&
                      a->recommended_gpus == b->recommended_gpus &&
                      a->meets_target == b->meets_target,
                  "%s: pool %d / %d, recommended %d / %d, meets %d / %d", what, a->gpus, b->gpus,
                  a->recommended_gpus, b->recommended_gpus, a->meets_target, b->meets_target);
    ck_assert_msg(a->utilization == b->utilization && a->fragmentation == b->fragmentation &&
                      a->goodput == b->goodput && a->jobs_submitted == b->jobs_submitted &&
                      a->jobs_completed == b->jobs_completed && a->failures == b->failures &&
                      a->preemptions == b->preemptions && a->events == b->events,
                  "%s: run figures differ", what);
    ck_assert_int_eq(a->n_teams, b->n_teams);
    for (int t = 0; t < a->n_teams; t++) {
        const TeamSchedResult *x = &a->teams[t], *y = &b->teams[t];
        ck_assert_msg(x->jobs == y->jobs && x->wait_hours_p95 == y->wait_hours_p95 &&
                          x->wait_hours_p50 == y->wait_hours_p50 &&
                          x->wait_hours_mean == y->wait_hours_mean &&
                          x->wait_hours_max == y->wait_hours_max &&
                          x->jct_hours_mean == y->jct_hours_mean && x->gpu_hours == y->gpu_hours &&
                          x->borrowed_gpu_hours == y->borrowed_gpu_hours &&
                          x->preemptions == y->preemptions && !strcmp(x->name, y->name),
                      "%s: team %d differs", what, t);
    }
    ck_assert_int_eq(a->n_classes, b->n_classes);
    for (int k = 0; k < a->n_classes; k++)
        ck_assert_msg(a->classes[k].jobs == b->classes[k].jobs &&
                          a->classes[k].wait_hours_p95 == b->classes[k].wait_hours_p95 &&
                          a->classes[k].gpu_hours == b->classes[k].gpu_hours,
                      "%s: class %d differs", what, k);
    for (int i = 0; i < PLAN_SERIES_LEN; i++)
        ck_assert_msg(a->util_series[i] == b->util_series[i] &&
                          a->queue_series[i] == b->queue_series[i],
                      "%s: series differ at %d", what, i);
}

/* ------------------------------------------------------ random plans */

static Plan *random_plan(SchedRng *g, int it)
{
    Plan *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    plan_init(p);
    p->tenancy.gpus = 0; /* auto: the capacity search */
    p->tenancy.policy = (SchedPolicy)sched_rng_below(g, 3);
    p->tenancy.horizon_s = (20 + 200 * sched_rng_uniform(g)) * 3600;
    p->tenancy.wait_p95_s = (0.05 + 6 * sched_rng_uniform(g)) * 3600;
    p->tenancy.seed = (uint64_t)it + 1;
    strcpy(p->accelerator, sched_rng_uniform(g) < 0.6 ? "H100-SXM" : "GB200");
    p->tenancy.preemption = sched_rng_uniform(g) < 0.5;
    p->tenancy.backfill = sched_rng_uniform(g) < 0.7;
    p->tenancy.mtbf_gpu_h = sched_rng_uniform(g) < 0.5 ? 0 : 300 + 5000 * sched_rng_uniform(g);
    p->tenancy.restore_s = 1800 * sched_rng_uniform(g);
    p->network.topology = sched_rng_uniform(g) < 0.5 ? TOPO_FAT_TREE : TOPO_RAIL_OPTIMIZED;
    p->network.switch_ports = 8 + (int)sched_rng_below(g, 60);
    int nt = 1 + (int)sched_rng_below(g, 4);
    for (int k = 0; k < nt; k++) {
        Team *t = &p->tenancy.teams[p->tenancy.n_teams++];
        team_init(t);
        snprintf(t->name, sizeof t->name, "t%d", k);
        t->weight = 0.5 + 3 * sched_rng_uniform(g);
        t->quota_gpus = (int)sched_rng_below(g, 64);
        /* a small borrowing limit can hold a team's waits up however large
         * the pool: the search's plateau case */
        t->borrow_gpus = sched_rng_uniform(g) < 0.7 ? -1 : (int)sched_rng_below(g, 40);
        int nc = 1 + (int)sched_rng_below(g, 3);
        for (int c = 0; c < nc; c++) {
            JobClass *j = &t->jobs[t->n_jobs++];
            jobclass_init(j);
            snprintf(j->name, sizeof j->name, "c%d", c);
            j->per_day = 24 * 3 * sched_rng_uniform(g);
            j->hours = 0.2 + 12 * sched_rng_uniform(g);
            j->duration = (DurationDist)sched_rng_below(g, 3);
            j->cv = 2 * sched_rng_uniform(g);
            j->priority = (JobPriority)sched_rng_below(g, 3);
            double kind = sched_rng_uniform(g);
            if (kind < 0.55) {
                j->gpus = 1 + (int)sched_rng_below(g, 8);
            } else if (kind < 0.75) {
                j->gpus = 8 + (int)sched_rng_below(g, 56);
            } else if (kind < 0.9) {
                j->gpus = 0;
                j->min_gpus = 1 + (int)sched_rng_below(g, 4);
                j->max_gpus = j->min_gpus + (int)sched_rng_below(g, 16);
            } else {
                j->gpus = 0.1 + 0.8 * sched_rng_uniform(g);
            }
        }
    }
    return p;
}

/* A run that stops reports a miss only when the whole run misses, and a
 * run that does not stop is the whole run, figure for figure: over random
 * plans, pool sizes from far too small to ample and targets from tight to
 * loose.  Fails if the stop counted a wait below the target, counted a job
 * twice or used the wrong rank. */
START_TEST(a_stopped_run_is_a_miss_and_an_unstopped_one_the_whole_run)
{
    SchedRng g;
    sched_rng_seed(&g, 20261202);
    ScheduleResult *full = malloc(sizeof *full), *part = malloc(sizeof *part);
    ck_assert_ptr_nonnull(full);
    ck_assert_ptr_nonnull(part);
    EvalOptions o = {.capacity_search = true};
    int stopped = 0, whole = 0, misses_run_whole = 0;
    for (int it = 0; it < 120; it++) {
        Plan *p = random_plan(&g, it);
        Geo gg = geo(p, &g_cat);
        SchedWorkload w;
        ck_assert_int_eq(sched_workload_build(p, gg.a, &o, SCHED_SEARCH_PROBES, &w), 0);
        double load = w.horizon > 0 ? w.offered_gpu_s / w.horizon : 0;
        int base = (int)ceil(load / gg.gpn);
        int lo = (w.max_whole + gg.gpn - 1) / gg.gpn;
        for (int k = 0; k < 4; k++) {
            int nodes = (int)(base * (0.5 + sched_rng_uniform(&g)));
            if (nodes < lo)
                nodes = lo;
            if (nodes < 1)
                nodes = 1;
            int gpus = nodes * gg.gpn;
            double target = p->tenancy.wait_p95_s * (0.25 + 2 * sched_rng_uniform(&g));
            ck_assert_int_eq(sched_run(p, &w, gg.a, NULL, gpus, gg.gpn, gg.gpd, gg.gpl, full,
                                       NULL), 0);
            int rc = sched_run_miss(p, &w, gg.a, NULL, gpus, gg.gpn, gg.gpd, gg.gpl,
                                    target + 1e-6, part);
            ck_assert_int_ge(rc, 0);
            ck_assert_int_le(rc, 1);
            if (rc == 1) {
                stopped++;
                ck_assert(!part->ran);
                ck_assert_msg(!meets(full, target), "plan %d on %d GPUs stopped but meets", it,
                              gpus);
            } else {
                whole++;
                misses_run_whole += !meets(full, target);
                assert_same_result(full, part, "unstopped run");
            }
        }
        sched_workload_free(&w);
        free(p);
    }
    /* the test exercises both outcomes */
    ck_assert_int_ge(stopped, 50);
    ck_assert_int_ge(whole, 50);
    ck_assert_int_ge(misses_run_whole, 1);
    free(full);
    free(part);
}
END_TEST

static PlanResult *stage(const Plan *p, const Catalog *c)
{
    PlanResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    EvalOptions o = {.capacity_search = true};
    sched_stage(p, c, &o, r);
    ck_assert(r->have_schedule);
    return r;
}

/* The search on random plans (gpus: auto) answers exactly as the reference
 * search: the same recommended pool, the same target verdict and the same
 * run reported, including the plateau case (a team capped by its
 * borrowing limit). */
START_TEST(the_search_answers_as_the_reference_on_random_plans)
{
    SchedRng g;
    sched_rng_seed(&g, 7);
    ScheduleResult *ref = malloc(sizeof *ref);
    ck_assert_ptr_nonnull(ref);
    int plateaus = 0, met = 0;
    for (int it = 0; it < 80; it++) {
        Plan *p = random_plan(&g, 1000 + it);
        PlanResult *r = stage(p, &g_cat);
        ck_assert_int_eq(ref_search(p, &g_cat, ref), 0);
        char what[32];
        snprintf(what, sizeof what, "random plan %d", it);
        assert_same_result(&r->schedule, ref, what);
        plateaus += !ref->meets_target;
        met += ref->meets_target;
        free(r);
        free(p);
    }
    ck_assert_int_ge(plateaus, 3);
    ck_assert_int_ge(met, 40);
    free(ref);
}
END_TEST

/* The same on the shipped demo plans that search (frontier-2027's
 * p95-wait predicate is not monotone in the pool: 91 nodes miss where 85-90
 * and 92 meet, so a search in another probe order could answer otherwise;
 * this one probes in the same order and only stops certain misses). */
START_TEST(the_search_answers_as_the_reference_on_the_demo_plans)
{
    static const char *const demos[] = {"frontier-2027", "moe-gb200", "tiresias-replay"};
    const char *dd = getenv("GPUPLAN_DATADIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/catalog", dd ? dd : GPUPLAN_SRCDIR "/data");
    Catalog cat;
    Diag d;
    memset(&d, 0, sizeof d);
    memset(&cat, 0, sizeof cat);
    ck_assert_msg(catalog_load(&cat, dir, NULL, &d) == 0, "catalog: %s", d.msg);
    Plan *p = malloc(sizeof *p);
    ScheduleResult *ref = malloc(sizeof *ref);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(ref);
    for (size_t i = 0; i < sizeof demos / sizeof demos[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/examples/%s.yaml", dd ? dd : GPUPLAN_SRCDIR "/data",
                 demos[i]);
        Trace t;
        memset(&t, 0, sizeof t);
        ck_assert_msg(plan_load_file(path, &cat, p, &d) == 0, "%s: %s", path, d.msg);
        ck_assert_msg(trace_attach(p, path, &t, &d) == 0, "%s: %s", path, d.msg);
        ck_assert(p->tenancy.gpus <= 0); /* auto: searched */
        PlanResult *r = stage(p, &cat);
        ck_assert_int_eq(ref_search(p, &cat, ref), 0);
        ck_assert_int_gt(ref->recommended_gpus, 0);
        assert_same_result(&r->schedule, ref, demos[i]);
        free(r);
        trace_free(&t);
    }
    free(ref);
    free(p);
    catalog_free(&cat);
}
END_TEST

Suite *test_suite(void)
{
    setup_catalog();
    Suite *s = suite_create("sched_search");
    TCase *c = tcase_create("search");
    tcase_set_timeout(c, 300);
    tcase_add_test(c, a_stopped_run_is_a_miss_and_an_unstopped_one_the_whole_run);
    tcase_add_test(c, the_search_answers_as_the_reference_on_random_plans);
    tcase_add_test(c, the_search_answers_as_the_reference_on_the_demo_plans);
    suite_add_tcase(s, c);
    return s;
}
