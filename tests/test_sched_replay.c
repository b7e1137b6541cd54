/* tests/test_sched_replay.c — the simulator on real inputs: the shipped
 * catalog's MIG profiles and node shapes, and job traces replayed through
 * plans/trace.c (the Tiresias sample in tests/data, the Alibaba openb pod
 * list where ../shared/data/traces sits beside the source tree). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog_yaml.h"
#include "check_main.h"
#include "plan.h"
#include "sched/sched.h"
#include "trace.h"

static Catalog g_cat;
static bool g_have_cat;

static void load_catalog(void)
{
    char dir[1024];
    const char *dd = getenv("GPUPLAN_DATADIR");
    if (dd && *dd)
        snprintf(dir, sizeof dir, "%s/catalog", dd);
    else
        snprintf(dir, sizeof dir, "%s/data/catalog", GPUPLAN_SRCDIR);
    Diag d;
    memset(&d, 0, sizeof d);
    g_have_cat = catalog_load(&g_cat, dir, NULL, &d) == 0;
}

static Plan *new_plan(const char *acc, int gpus, double horizon_h)
{
    Plan *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    plan_init(p);
    strcpy(p->accelerator, acc);
    p->tenancy.gpus = gpus;
    p->tenancy.policy = POLICY_FIFO;
    p->tenancy.preemption = false;
    p->tenancy.backfill = true;
    p->tenancy.mtbf_gpu_h = 0;
    p->tenancy.horizon_s = horizon_h * 3600;
    return p;
}

static ScheduleResult *run(const Plan *p, SchedStats *st)
{
    ScheduleResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(sched_simulate(p, &g_cat, NULL, 0, r, st), 0);
    ck_assert(r->ran);
    ck_assert_uint_eq(st->invariant_violations, 0);
    return r;
}

/* The catalog's MIG tables (CATALOG-FACTS 1.2): seven 1g.10gb fill an
 * H100-SXM; on an A100-40GB seven 1g.5gb fit but only four 1g.10gb (the
 * memory runs out first). */
START_TEST(catalog_mig_profiles_pack_as_documented)
{
    ck_assert_msg(g_have_cat, "catalog did not load");
    struct {
        const char *acc, *prof;
        int fit;
    } cases[] = {
        {"H100-SXM", "1g.10gb", 7}, {"H100-SXM", "3g.40gb", 2}, {"H100-SXM", "1g.20gb", 4},
        {"A100-40GB", "1g.5gb", 7}, {"A100-40GB", "1g.10gb", 4}, {"A100-80GB", "2g.20gb", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Accelerator *a = catalog_find_accelerator(&g_cat, cases[i].acc);
        if (!a || !accelerator_find_mig(a, cases[i].prof))
            continue; /* the catalog may drop a part; the fixture test covers the rule */
        Plan *p = new_plan(cases[i].acc, 1, 24);
        Team *t = &p->tenancy.teams[p->tenancy.n_teams++];
        team_init(t);
        strcpy(t->name, "notebooks");
        JobClass *j = &t->jobs[t->n_jobs++];
        jobclass_init(j);
        strcpy(j->name, "nb");
        strcpy(j->mig, cases[i].prof);
        j->per_day = 1000;
        j->hours = 100;
        j->duration = DUR_FIXED;
        SchedStats st;
        ScheduleResult *r = run(p, &st);
        ck_assert_msg(st.peak_running == cases[i].fit, "%s %s: %d fit, expected %d",
                      cases[i].acc, cases[i].prof, st.peak_running, cases[i].fit);
        free(r);
        free(p);
    }
}
END_TEST

/* The Tiresias sample: 60 jobs replayed on a 64-GPU pool all finish, on a
 * pool that cannot hold its largest job that job waits for ever. */
START_TEST(tiresias_trace_replays_to_completion)
{
    char path[1024];
    const char *src = getenv("GPUPLAN_SRCDIR");
    snprintf(path, sizeof path, "%s/tests/data/tiresias_60_job.csv",
             src && *src ? src : GPUPLAN_SRCDIR);
    Trace t;
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(trace_load(path, TRACE_AUTO, true, &t, &d), 0);
    int largest = 0;
    double last = 0, total = 0;
    for (size_t i = 0; i < t.n; i++) {
        if (t.jobs[i].gpus > largest)
            largest = (int)t.jobs[i].gpus;
        if (t.jobs[i].submit_s > last)
            last = t.jobs[i].submit_s;
        total += t.jobs[i].duration_s;
    }
    Plan *p = new_plan("H100-SXM", 64, (last + total) / 3600 + 1);
    p->tenancy.trace_jobs = t.jobs;
    p->tenancy.n_trace_jobs = t.n;
    SchedStats st;
    ScheduleResult *r = run(p, &st);
    ck_assert_int_eq(r->jobs_submitted, (int)t.n);
    ck_assert_int_eq(r->jobs_completed, (int)t.n);
    ck_assert_int_eq(r->n_teams, 1);
    ck_assert_str_eq(r->teams[0].name, "trace");
    /* Utilisation is over the replayed span, not the idle time after it:
     * busy GPU-seconds / (64 GPUs × time to the last completion) — so it
     * is well above the Σ GPU·duration / (64 × horizon) an idle tail gives. */
    double gpu_s = 0;
    for (size_t i = 0; i < t.n; i++)
        gpu_s += t.jobs[i].gpus * t.jobs[i].duration_s;
    double horizon_s = p->tenancy.horizon_s;
    ck_assert(r->utilization > 2 * gpu_s / (64 * horizon_s));
    ck_assert(r->utilization <= 1.0);
    /* the sparkline shows the trace: work in more than a few buckets */
    int busy_buckets = 0;
    for (int b = 0; b < PLAN_SERIES_LEN; b++)
        busy_buckets += r->util_series[b] > 0;
    ck_assert_int_gt(busy_buckets, PLAN_SERIES_LEN / 4);
    free(r);
    if (largest > 1) {
        p->tenancy.gpus = largest - 1;
        r = run(p, &st);
        ck_assert_int_gt(st.jobs_unplaceable, 0);
        ck_assert_int_eq(r->jobs_completed + st.jobs_queued + st.jobs_running, (int)t.n);
        free(r);
    }
    free(p);
    trace_free(&t);
}
END_TEST

/* Alibaba openb (2023): 8,152 pods, many asking for a fraction of a GPU,
 * on the trace's own 6,212 GPUs.  Fractions share GPUs without ever
 * over-committing one (the audit counts that), every pod is accounted
 * for, and the allocation stays within the pool. */
START_TEST(openb_trace_replays_with_fractional_gpus)
{
    char path[1024];
    const char *src = getenv("GPUPLAN_SRCDIR");
    snprintf(path, sizeof path, "%s/../shared/data/traces/openb_pod_list_default.csv",
             src && *src ? src : GPUPLAN_SRCDIR);
    if (access(path, R_OK) != 0) {
        snprintf(path, sizeof path, "%s/tests/data/openb_sample.csv",
                 src && *src ? src : GPUPLAN_SRCDIR);
    }
    Trace t;
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(trace_load(path, TRACE_OPENB, false, &t, &d), 0);
    int frac = 0;
    for (size_t i = 0; i < t.n; i++)
        frac += t.jobs[i].gpus > 0 && t.jobs[i].gpus < 1;
    Plan *p = new_plan("H100-SXM", 6212, 24);
    p->tenancy.trace_jobs = t.jobs;
    p->tenancy.n_trace_jobs = t.n;
    SchedStats st;
    ScheduleResult *r = run(p, &st);
    ck_assert_int_eq(r->jobs_submitted, (int)t.n);
    ck_assert_int_eq(r->jobs_completed + st.jobs_running + st.jobs_queued, (int)t.n);
    ck_assert(r->utilization > 0 && r->utilization <= 1 + 1e-9);
    ck_assert_int_gt(frac, 0);
    free(r);
    free(p);
    trace_free(&t);
}
END_TEST

Suite *test_suite(void)
{
    load_catalog();
    Suite *s = suite_create("sched_replay");
    TCase *c = tcase_create("replay");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, catalog_mig_profiles_pack_as_documented);
    tcase_add_test(c, tiresias_trace_replays_to_completion);
    tcase_add_test(c, openb_trace_replays_with_fractional_gpus);
    suite_add_tcase(s, c);
    return s;
}
