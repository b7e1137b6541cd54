/* model/sched/sched.h — the multi-tenant scheduling simulator and capacity
 * search (SCHEDULER.md; fills PlanResult.schedule).
 *
 * Files: rng.c (xoshiro256** + splitmix64), heap.c (4-ary event heap),
 * gen.c (job mix: Poisson classes or the trace), place.c (free capacity,
 * topology-aware placement, MIG / fractional packing), sim.c (event loop,
 * policies, backfill, preemption, elastic, failures, metrics), search.c
 * (stage entry points, capacity search, leaf-group rule).
 *
 * Model choices a reader of the results should know:
 *  - A job of <= gpus_per_node GPUs runs on one node; larger gangs prefer
 *    one NVLink domain, then one leaf group, then the fewest leaf groups,
 *    and start whenever enough GPUs are free.  Best fit throughout.
 *  - The run ends at the horizon: jobs still queued count with the wait
 *    they have had so far (so p95 wait never hides starvation); jobs
 *    larger than the pool wait for ever.  wait = all time spent queued,
 *    including after a preemption or failure.  Percentiles are exact
 *    (nearest rank over all of a team's / class's jobs).
 *  - EASY backfill with exact run times (the best case of user estimates);
 *    the scan looks at <= 64 queued jobs per pass.
 *  - Preemption: priority (lower-priority jobs of the same team or of a
 *    borrowing team) and quota reclaim (an under-quota team takes back from
 *    borrowers); a victim team is never taken below its quota.
 *  - Elastic jobs: `hours` is the run time at min_gpus; work (GPU-hours)
 *    is conserved; they grow only when no queued job is waiting and shrink
 *    (most recent first) before anything is preempted.
 *  - Fractional GPUs hold a fixed share (sum <= 1 per GPU, openb gpu_milli);
 *    MIG slices pack by compute slices / memory units / per-profile count.
 *  - Failures: the pool fails as a Poisson process of rate GPUs / mtbf_gpu;
 *    `failures` counts GPU failures, each killing the jobs on that GPU,
 *    which restart from the last Young checkpoint (δ = storage
 *    checkpoint_stall) after tenancy.restore.
 *  - utilization counts GPU-equivalents allocated (a MIG slice as its
 *    compute fraction); fragmentation is the time-average of idle
 *    GPU-equivalents while the head job is blocked, over the pool. */
#ifndef GPUPLAN_MODEL_SCHED_H
#define GPUPLAN_MODEL_SCHED_H

#include <stdint.h>

#include "../catalog.h"
#include "../evaluate.h"
#include "../plan.h"

/* Simulate the plan's tenancy (generated job mix or the borrowed trace) on
 * tenancy.gpus GPUs, or — when that is auto and opt->capacity_search — find
 * the smallest pool whose p95 wait meets the target for every team and
 * report its run.  Polls opt->cancel.  Writes r->schedule, sets
 * r->have_schedule. */
void sched_stage(const Plan *p, const Catalog *c, const EvalOptions *opt, PlanResult *r);

/* What a run saw beyond ScheduleResult: the debug invariants (each counter
 * must stay 0; model/ reports, it never aborts) and the raw figures the
 * oracle tests compare with queueing theory. */
typedef struct {
    uint64_t invariant_violations;   /* sum of the six below */
    uint64_t double_booked;          /* a GPU given twice / a shared GPU over-committed */
    uint64_t partial_gangs;          /* a job started with fewer GPUs than its gang */
    uint64_t below_quota;            /* a team preempted below its quota by another team */
    uint64_t preempt_cycles;         /* a preemption that could be answered by one back */
    uint64_t unaccounted;            /* submitted != completed + running + queued */
    uint64_t backfill_delays;        /* a backfilled job delayed the reserved head */
    int jobs_running;                /* at the end of the horizon */
    int jobs_queued;                 /* at the end, including never-placeable ones */
    int jobs_unplaceable;            /* larger than the pool: queued for ever */
    int peak_running;
    double horizon_s;
    double mean_queue_len;           /* time-averaged jobs waiting */
    double mean_wait_s;              /* all submitted jobs; waits still open at the end count up to it */
    double p_wait;                   /* share of started jobs that waited at all */
    double mean_busy_gpus;           /* time-averaged GPU-equivalents allocated */
    double team_mean_gpus[PLAN_MAX_TEAMS + 1]; /* time-averaged allocation per team */
    uint64_t reservations;           /* backfill reservations computed */
    uint64_t reservations_kept;      /* of which kept from an earlier pass, not walked */
    uint64_t backfilled;             /* jobs started by backfill */
    uint64_t passes_skipped;         /* arrivals that provably start nothing: no pass */
    uint64_t elastic_resizes;
    uint64_t failure_kills;          /* jobs killed by GPU failures */
    uint64_t preempted;              /* preemption victims */
    /* Preemption attempts that failed without a trial: a whole head that
     * all its eligible victims together leave short of GPUs (default runs;
     * REFERENCE runs release and retake the victims every time). */
    uint64_t preempt_trials_skipped;
    double checkpoint_cost_s;        /* δ of Young's interval */
    /* Fingerprint of the schedule: every start (job index, time, first GPU
     * and count held) folded in order.  Two runs with the same digest
     * started the same jobs at the same times on the same GPUs; the
     * differential tests and bench/bench_sched compare it. */
    uint64_t start_digest;
    /* SCHED_RES_CHECK runs only (sched_int.h): passes where the kept backfill
     * reservation differed from a fresh walk; must stay 0. */
    uint64_t reservation_mismatches;
    /* Backfill: team windows whose jobs the free GPUs could not take, passed
     * over at once; CHECK runs: kept windows that differed from a fresh
     * walk of the queue (must stay 0). */
    uint64_t windows_skipped;
    uint64_t window_mismatches;
    /* Kept team windows updated in place (a job left the queue, or the
     * job passed over changed) instead of walked afresh. */
    uint64_t windows_updated;
    /* Backfill candidates passed over without a look: found late for the
     * same reserved start before and larger than the spare GPUs (CHECK
     * runs look anyway and count a disagreement as a window mismatch). */
    uint64_t late_skipped;
    /* Backfills that passed over every team's window at once: the same
     * windows as a backfill that passed over them all before, and the free
     * GPUs fit none of their jobs (CHECK runs scan them anyway). */
    uint64_t backfills_skipped;
    /* Team orders kept between passes (updated for the teams that
     * changed, not sorted afresh); CHECK runs: kept ones that differed
     * from a full sort (must stay 0). */
    uint64_t orders_kept;
    uint64_t order_mismatches;
} SchedStats;

/* One run on a fixed pool of `gpus` GPUs (the CLI's `gpuplan simulate`, the
 * tests).  gpus <= 0 means tenancy.gpus.  Fills *out completely (zeroed
 * first; out->recommended_gpus stays 0) and *st when not NULL.  The
 * accelerator (gpus_per_node, scaleup_domain, MIG profiles) is the plan's,
 * looked up in c (NULL or unknown: 8-GPU nodes, NVLink domain = node, no
 * MIG).  Returns 0, -1 when cancelled (out->cancelled set), -2 out of
 * memory (out->ran false). */
int sched_simulate(const Plan *p, const Catalog *c, const EvalOptions *opt, int gpus,
                   ScheduleResult *out, SchedStats *st);

/* Young's checkpoint interval sqrt(2·δ·M) for checkpoint cost δ and job MTBF
 * M, seconds (J. W. Young, "A first order approximation to the optimum
 * checkpoint interval", CACM 17(9), 1974). */
double sched_young_interval(double checkpoint_cost_s, double mtbf_s);

/* GPUs under one leaf switch group for the plan's network (see search.c). */
int sched_leaf_gpus(const Plan *p, int gpus_per_node);

#endif
