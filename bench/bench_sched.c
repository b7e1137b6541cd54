/* bench/bench_sched.c — speed of the scheduling simulator (SCHEDULER.md:
 * "runs inside a keystroke").  Targets: 100,000 jobs on 4,096 GPUs with
 * fair-share, gang, EASY backfill and topology-aware placement in under
 * 100 ms on one core; one million jobs on 100,000 GPUs in under 5 s, and
 * at 100 % load under 1 s (issue 14; CPU time: the machine is shared).
 * Prints the measured figures; not a unit test (timing is the output). */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/catalog.h"
#include "model/plan.h"
#include "model/sched/sched.h"
#include "model/sched/sched_int.h"

/* CPU time of this process: the machine may be shared, and the target is
 * "on one core"; wall time is printed beside it. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A mixed multi-team load: per team, 1-, 2-, 8-GPU and multi-node gangs;
 * rates scaled so `jobs` arrive over 30 days and the offered load is
 * `load` of the pool. */
static void build_plan(Plan *p, int gpus, double jobs, double load, int teams, bool preempt)
{
    plan_init(p);
    TenancySpec *t = &p->tenancy;
    t->gpus = gpus;
    t->policy = POLICY_FAIR_SHARE;
    t->preemption = preempt;
    t->backfill = true;
    t->horizon_s = 30 * 86400.0;
    t->mtbf_gpu_h = 50000;
    t->seed = 42;
    static const double share[] = {0.45, 0.25, 0.25, 0.05};   /* of the jobs */
    static const double g[] = {1, 2, 8, 32};
    static const double h[] = {1, 2, 4, 12};                 /* relative hours */
    double per_day = jobs / 30.0 / teams;
    double gh = 0;
    for (int k = 0; k < 4; k++)
        gh += share[k] * per_day * teams * g[k] * h[k];
    /* hours scale so that Σ rate·gpus·hours = load · gpus · 24 */
    double scale = load * gpus * 24.0 / gh;
    t->n_teams = teams;
    for (int i = 0; i < teams; i++) {
        Team *tm = &t->teams[i];
        team_init(tm);
        snprintf(tm->name, sizeof tm->name, "team%d", i);
        tm->weight = 1 + i % 3;
        tm->quota_gpus = gpus / teams;
        tm->borrow_gpus = -1;
        tm->n_jobs = 4;
        for (int k = 0; k < 4; k++) {
            JobClass *jc = &tm->jobs[k];
            jobclass_init(jc);
            snprintf(jc->name, sizeof jc->name, "c%d", k);
            jc->per_day = share[k] * per_day;
            jc->gpus = g[k];
            jc->hours = h[k] * scale;
            jc->duration = DUR_LOGNORMAL;
            jc->cv = 1.0;
            jc->priority = k == 3 ? PRIO_HIGH : PRIO_NORMAL;
        }
    }
}

/* Best of `reps` runs (the first one also faults the pages in). */
/* res_mode: SCHED_RES_KEPT (the default) or SCHED_RES_REFERENCE (the
 * reservation walked afresh on every pass, as before issue 14).  Returns
 * the schedule's start digest. */
static uint64_t run(const char *label, int gpus, double jobs, double load, bool preempt, int reps,
                    double target_ms, Catalog *cat, int res_mode)
{
    Plan *p = malloc(sizeof *p);
    ScheduleResult *r = malloc(sizeof *r);
    SchedStats st;
    if (!p || !r) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    build_plan(p, gpus, jobs, load, 8, preempt);
    double best = 1e300, best_wall = 1e300;
    int rc = 0;
    for (int i = 0; i < reps; i++) {
        double c0 = cpu_ms(), w0 = wall_ms();
        rc = sched_simulate_with(p, cat, NULL, 0, res_mode, r, &st);
        double c = cpu_ms() - c0, w = wall_ms() - w0;
        if (c < best)
            best = c;
        if (w < best_wall)
            best_wall = w;
    }
    printf("%-30s jobs %8d  GPUs %6d  %7.1f ms cpu (%7.1f wall)  events %8llu  %5.2f M events/s"
           "  util %.3f  mean wait %.2f h  backfilled %llu  passes skipped %llu"
           "  backfills passed over %llu  team windows passed over %llu"
           "  late candidates passed over %llu  orders kept %llu"
           "  violations %llu"
           "  digest %016llx  rc %d"
           "  target %.0f ms: %s\n",
           label, r->jobs_submitted, r->gpus, best, best_wall, (unsigned long long)r->events,
           r->events / (best / 1e3) / 1e6, r->utilization, st.mean_wait_s / 3600,
           (unsigned long long)st.backfilled, (unsigned long long)st.passes_skipped,
           (unsigned long long)st.backfills_skipped, (unsigned long long)st.windows_skipped,
           (unsigned long long)st.late_skipped,
           (unsigned long long)st.orders_kept,
           (unsigned long long)st.invariant_violations,
           (unsigned long long)st.start_digest, rc,
           target_ms,
           target_ms <= 0 ? "none" : best < target_ms ? "met" : "MISSED");
    free(p);
    free(r);
    return st.start_digest;
}

/* `bench_sched [N]` runs only case N (1-5), e.g. under a profiler. */
int main(int argc, char **argv)
{
    int only = argc > 1 ? atoi(argv[1]) : 0;
    Accelerator acc[2];
    memset(acc, 0, sizeof acc);
    strcpy(acc[0].id, "H100-SXM");
    acc[0].gpus_per_node = 8;
    acc[0].scaleup_domain = 8;
    Catalog cat = {.accelerators = acc, .n_accelerators = 1};
    if (only == 0 || only == 1)
        run("100k jobs / 4,096 GPUs", 4096, 100000, 0.9, false, 5, 100, &cat, SCHED_RES_KEPT);
    if (only == 0 || only == 2)
        run("1M jobs / 100,000 GPUs", 100000, 1000000, 0.9, false, 2, 5000, &cat, SCHED_RES_KEPT);
    /* at 90 % a 100k-GPU pool hardly queues (Erlang); at 100 % the queue
     * holds thousands and backfill works on every pass: the hard case */
    /* issue 14: from 2.1 s to under 1 s, with the same schedule as the
     * reservation walked on every pass (case 5 runs that reference) */
    uint64_t kept = 0, walked = 0;
    if (only == 0 || only == 3)
        kept = run("1M jobs / 100,000 GPUs, 100 %", 100000, 1000000, 1.0, false, 1, 1000, &cat,
                   SCHED_RES_KEPT);
    if (only == 0 || only == 5)
        walked = run("  the same, reservation walked", 100000, 1000000, 1.0, false, 1, 0, &cat,
                     SCHED_RES_REFERENCE);
    if (only == 0)
        printf("1M jobs at 100 %%: kept and walked reservations give %s schedules\n",
               kept == walked ? "the same" : "DIFFERENT");
    /* the 100k case with quota reclaim and priority preemption on */
    if (only == 0 || only == 4)
        run("100k jobs + preemption", 4096, 100000, 0.9, true, 3, 0, &cat, SCHED_RES_KEPT);
    return 0;
}
