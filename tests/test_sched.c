/* tests/test_sched.c — the scheduling simulator against the oracles of
 * SCHEDULER.md (queueing theory, fair shares, Young) and its own contracts
 * (backfill, preemption, determinism, capacity search, MIG, cancel,
 * invariants).  Statistical tolerances are justified next to each test. */
#include "config.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "plan.h"
#include "sched/sched.h"
#include "sched/sched_int.h"

/* ------------------------------------------------------------ fixtures */

/* An H100-SXM as the catalog describes it (CATALOG-FACTS 1.2): 8 GPUs per
 * node, one NVLink domain per node, the A100-80GB/H100-80GB MIG profiles. */
static Accelerator g_acc[3];
static Catalog g_cat;

static void add_mig(Accelerator *a, const char *name, int count, int slices, double gb)
{
    MigProfile *m = &a->mig[a->n_mig++];
    strcpy(m->name, name);
    m->count = count;
    m->compute_slices = slices;
    m->mem_bytes = gb * 1e9;
}

static void setup_catalog(void)
{
    memset(g_acc, 0, sizeof g_acc);
    Accelerator *h = &g_acc[0];
    strcpy(h->id, "H100-SXM");
    h->gpus_per_node = 8;
    h->scaleup_domain = 8;
    h->hbm_bytes = 80e9;
    add_mig(h, "1g.10gb", 7, 1, 10);
    add_mig(h, "1g.10gb+me", 1, 1, 10);
    add_mig(h, "1g.20gb", 4, 1, 20);
    add_mig(h, "2g.20gb", 3, 2, 20);
    add_mig(h, "3g.40gb", 2, 3, 40);
    add_mig(h, "4g.40gb", 1, 4, 40);
    add_mig(h, "7g.80gb", 1, 7, 80);
    /* GB200 NVL72: 4-GPU trays, 72-GPU NVLink domain, no MIG listed here */
    Accelerator *g = &g_acc[1];
    strcpy(g->id, "GB200");
    g->gpus_per_node = 4;
    g->scaleup_domain = 72;
    /* a part with no MIG at all */
    Accelerator *m = &g_acc[2];
    strcpy(m->id, "MI300X");
    m->gpus_per_node = 8;
    m->scaleup_domain = 8;
    g_cat.accelerators = g_acc;
    g_cat.n_accelerators = 3;
}

static Plan *new_plan(SchedPolicy pol, int gpus, double horizon_h)
{
    Plan *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    plan_init(p);
    p->tenancy.gpus = gpus;
    p->tenancy.policy = pol;
    p->tenancy.preemption = false;
    p->tenancy.backfill = false;
    p->tenancy.mtbf_gpu_h = 0; /* no failures unless a test asks */
    p->tenancy.horizon_s = horizon_h * 3600;
    p->tenancy.seed = 1;
    return p;
}

static Team *add_team(Plan *p, const char *name, double weight, int quota, int borrow)
{
    Team *t = &p->tenancy.teams[p->tenancy.n_teams++];
    team_init(t);
    strcpy(t->name, name);
    t->weight = weight;
    t->quota_gpus = quota;
    t->borrow_gpus = borrow;
    return t;
}

static JobClass *add_class(Team *t, const char *name, double per_hour, double gpus, double hours,
                           DurationDist d)
{
    JobClass *j = &t->jobs[t->n_jobs++];
    jobclass_init(j);
    strcpy(j->name, name);
    j->per_day = per_hour * 24;
    j->gpus = gpus;
    j->hours = hours;
    j->duration = d;
    return j;
}

static ScheduleResult *run(const Plan *p, int gpus, SchedStats *st)
{
    ScheduleResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    int rc = sched_simulate(p, &g_cat, NULL, gpus, r, st);
    ck_assert_int_eq(rc, 0);
    ck_assert(r->ran);
    if (st)
        ck_assert_msg(st->invariant_violations == 0,
                      "invariants: double-booked %llu, partial gangs %llu, below quota %llu, "
                      "preemption cycles %llu, unaccounted %llu, backfill delays %llu",
                      (unsigned long long)st->double_booked, (unsigned long long)st->partial_gangs,
                      (unsigned long long)st->below_quota, (unsigned long long)st->preempt_cycles,
                      (unsigned long long)st->unaccounted, (unsigned long long)st->backfill_delays);
    return r;
}

/* One team per trace job group; the trace is borrowed. */
static Plan *trace_plan(SchedPolicy pol, int gpus, TraceJob *jobs, size_t n, int teams)
{
    Plan *p = new_plan(pol, gpus, 1000);
    for (int i = 0; i < teams; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%d", i);
        add_team(p, name, 1, 0, -1);
    }
    p->tenancy.trace_jobs = jobs;
    p->tenancy.n_trace_jobs = n;
    return p;
}

/* Erlang C: probability that an arrival waits in M/M/c (A = λ/μ). */
static double erlang_c(int c, double A)
{
    double term = 1, sum = 1; /* Σ_{k<c} A^k/k! */
    for (int k = 1; k < c; k++) {
        term *= A / k;
        sum += term;
    }
    double top = term * A / c * c / (c - A); /* A^c/c! · c/(c−A) */
    return top / (sum + top);
}

/* ------------------------------------------------------------ oracles */

/* M/M/8, μ = 1/h, λ = 6/h (ρ = 0.75): Erlang C gives P(wait) = 0.3565 and
 * Wq = C/(cμ − λ) = 0.178 h = 10.7 min.  20,000 h per seed ≈ 120,000
 * jobs; the relaxation time of this queue is a few hours, so the batch-means
 * standard error of the mean wait is ≈ 1.5 % per seed (measured spread of
 * five seeds: 0.4–2 %).  Averaging 3 seeds, 6 % on the mean wait and 0.015
 * on P(wait) are > 4 standard errors. */
START_TEST(erlang_c_mm8_matches_theory)
{
    double C = erlang_c(8, 6.0);
    ck_assert_double_eq_tol(C, 0.357, 0.001);
    double wq_min = C / (8 * 1.0 - 6.0) * 60;
    ck_assert_double_eq_tol(wq_min, 10.7, 0.05);
    double pw = 0, wq = 0;
    for (int seed = 1; seed <= 3; seed++) {
        Plan *p = new_plan(POLICY_FIFO, 8, 20000);
        p->tenancy.seed = (uint64_t)seed;
        Team *t = add_team(p, "a", 1, 0, -1);
        add_class(t, "mm1", 6, 1, 1, DUR_EXPONENTIAL);
        SchedStats st;
        ScheduleResult *r = run(p, 0, &st);
        pw += st.p_wait / 3;
        wq += st.mean_wait_s / 60 / 3;
        ck_assert_double_eq_tol(r->utilization, 0.75, 0.02);
        free(r);
        free(p);
    }
    ck_assert_double_eq_tol(pw, C, 0.015);
    ck_assert_double_eq_tol(wq, wq_min, 0.06 * wq_min);
}
END_TEST

/* Little's law L = λW.  Over a finite window the identity ∫Q dt = Σ waits
 * is exact when waits still open at the end count up to it, so with the
 * measured arrival rate it holds to rounding (1e-6) for any policy, with
 * preemption, backfill, failures and elastic jobs on.  Against the nominal
 * rate it holds within the Poisson error of the count: ~25,000 jobs → 0.6 %
 * standard error; 4 % covers it with margin. */
START_TEST(littles_law_holds_for_every_policy)
{
    SchedPolicy pols[] = {POLICY_FIFO, POLICY_PRIORITY, POLICY_FAIR_SHARE};
    for (int i = 0; i < 3; i++) {
        Plan *p = new_plan(pols[i], 96, 2000); /* offered load 72 GPUs: 75 % */
        p->tenancy.preemption = true;
        p->tenancy.backfill = true;
        p->tenancy.mtbf_gpu_h = 2000;
        p->tenancy.wait_p95_s = 3600;
        Team *a = add_team(p, "a", 1, 32, -1);
        Team *b = add_team(p, "b", 2, 16, 32);
        add_class(a, "small", 6, 1, 2, DUR_EXPONENTIAL);
        JobClass *big = add_class(a, "big", 0.5, 16, 4, DUR_LOGNORMAL);
        big->priority = PRIO_HIGH;
        JobClass *lo = add_class(b, "wide", 2, 4, 3, DUR_LOGNORMAL);
        lo->priority = PRIO_LOW;
        JobClass *el = add_class(b, "elastic", 0.5, 0, 2, DUR_FIXED);
        el->min_gpus = 2;
        el->max_gpus = 8;
        add_class(b, "frac", 4, 0.5, 1, DUR_EXPONENTIAL);
        SchedStats st;
        ScheduleResult *r = run(p, 0, &st);
        double lam_emp = r->jobs_submitted / st.horizon_s;
        ck_assert_double_eq_tol(st.mean_queue_len, lam_emp * st.mean_wait_s,
                                1e-6 * (1 + st.mean_queue_len));
        double lam_nom = (6 + 0.5 + 2 + 0.5 + 4) / 3600.0;
        ck_assert_double_eq_tol(st.mean_queue_len, lam_nom * st.mean_wait_s,
                                0.04 * st.mean_queue_len + 1e-9);
        ck_assert(st.mean_queue_len > 0.1); /* the test means something */
        free(r);
        free(p);
    }
}
END_TEST

/* Gang FIFO on 2 GPUs, 1- or 2-GPU jobs with equal probability, equal
 * exponential run times, saturated, no backfill: a Markov chain over
 * {one 2-GPU job, two 1-GPU jobs, one 1-GPU job + blocked 2-GPU head} gives
 * utilisation exactly 6/7 = 0.857.  10,000 h at ~1.5 jobs/h served ≈ 15,000
 * renewal cycles: standard error ≈ 0.3 %; tolerance 1.5 % below, and the
 * bound itself (+0.5 % for noise) above. */
START_TEST(gang_fifo_utilisation_is_six_sevenths)
{
    Plan *p = new_plan(POLICY_FIFO, 2, 10000);
    Team *t = add_team(p, "a", 1, 0, -1);
    add_class(t, "one", 2, 1, 1, DUR_EXPONENTIAL);
    add_class(t, "two", 2, 2, 1, DUR_EXPONENTIAL);
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert(r->utilization <= 6.0 / 7 + 0.005);
    ck_assert_double_eq_tol(r->utilization, 6.0 / 7, 0.015);
    /* blocked with a GPU idle 0.5/1.75 of the time, one of two GPUs free:
     * fragmentation = (0.5/1.75)·(1/2) = 1/7 */
    ck_assert_double_eq_tol(r->fragmentation, 1.0 / 7, 0.015);
    /* backfill lets a 1-GPU job use the idle GPU: utilisation goes up */
    p->tenancy.backfill = true;
    SchedStats st2;
    ScheduleResult *r2 = run(p, 0, &st2);
    ck_assert(r2->utilization > r->utilization + 0.02);
    ck_assert_uint_gt(st2.backfilled, 0);
    ck_assert_uint_eq(st2.backfill_delays, 0);
    free(r);
    free(r2);
    free(p);
}
END_TEST

/* Kueue KEP-1714: 300 GPUs in two equal cohorts get 150/150; inside one,
 * weights 1:1:3 under full demand get 30/30/90.  One cohort is a team with
 * quota 150 that may not borrow; the other is three quota-less teams
 * sharing what is left by weighted share.  1-GPU, 1-hour jobs at 4× the
 * capacity keep every queue full; over 200 h the allocation tracks the
 * share within ±1 GPU at every instant, so ±3 % on the time average. */
START_TEST(fair_share_splits_by_quota_and_weight)
{
    Plan *p = new_plan(POLICY_FAIR_SHARE, 300, 200);
    Team *c1 = add_team(p, "cohort1", 1, 150, 0);
    Team *x = add_team(p, "x", 1, 0, -1);
    Team *y = add_team(p, "y", 1, 0, -1);
    Team *z = add_team(p, "z", 3, 0, -1);
    add_class(c1, "j", 600, 1, 1, DUR_EXPONENTIAL);
    add_class(x, "j", 200, 1, 1, DUR_EXPONENTIAL);
    add_class(y, "j", 200, 1, 1, DUR_EXPONENTIAL);
    add_class(z, "j", 400, 1, 1, DUR_EXPONENTIAL);
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_double_eq_tol(st.team_mean_gpus[0], 150, 150 * 0.03);
    ck_assert_double_eq_tol(st.team_mean_gpus[1], 30, 30 * 0.03);
    ck_assert_double_eq_tol(st.team_mean_gpus[2], 30, 30 * 0.03);
    ck_assert_double_eq_tol(st.team_mean_gpus[3], 90, 90 * 0.03);
    ck_assert_double_eq_tol(r->teams[0].borrowed_gpu_hours, 0, 1e-9);
    free(r);
    free(p);

    /* two equal cohorts: 150 / 150 */
    p = new_plan(POLICY_FAIR_SHARE, 300, 200);
    add_class(add_team(p, "a", 1, 150, -1), "j", 600, 1, 1, DUR_EXPONENTIAL);
    add_class(add_team(p, "b", 1, 150, -1), "j", 600, 1, 1, DUR_EXPONENTIAL);
    r = run(p, 0, &st);
    ck_assert_double_eq_tol(st.team_mean_gpus[0], 150, 150 * 0.03);
    ck_assert_double_eq_tol(st.team_mean_gpus[1], 150, 150 * 0.03);
    free(r);
    free(p);
}
END_TEST

/* Young: δ = 5 min, M = 97.7 h → sqrt(2·5·5862) = 242.1 min. */
START_TEST(young_interval_is_242_minutes)
{
    double tau = sched_young_interval(300, 97.7 * 3600);
    ck_assert_double_eq_tol(tau / 60, 242.1, 0.1);
    ck_assert_double_eq(sched_young_interval(0, 3600), 0);
    ck_assert_double_eq(sched_young_interval(60, 0), 0);
}
END_TEST

/* The simulator checkpoints at Young's interval: an 8-GPU job on a pool of
 * 8 with per-GPU MTBF 781.6 h has job MTBF 97.7 h; with δ = 5 min
 * (storage.checkpoint_stall) τ = 242 min, and a failure, memoryless, lands
 * uniformly within an interval: it loses τ/2 = 121 min × 8 GPUs on
 * average.  20,000 h → ~200 failures; the mean of 200 uniforms has sd
 * τ/√(12·200) = 2 %, so ±8 % is 4 sd. */
START_TEST(failures_lose_half_a_young_interval_on_average)
{
    TraceJob tj[] = {{.submit_s = 0, .duration_s = 1e9, .gpus = 8, .team = 0}};
    Plan *p = trace_plan(POLICY_FIFO, 8, tj, 1, 1);
    p->tenancy.horizon_s = 20000 * 3600.0;
    p->tenancy.mtbf_gpu_h = 97.7 * 8;
    p->tenancy.restore_s = 0;
    p->storage.checkpoint_stall_s = 300;
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_uint_gt(st.failure_kills, 150);
    double tau_h = sched_young_interval(300, 97.7 * 3600) / 3600;
    double per_kill = r->teams[0].lost_gpu_hours / (double)st.failure_kills;
    ck_assert_double_eq_tol(per_kill, 8 * tau_h / 2, 0.08 * 8 * tau_h / 2);
    /* checkpoints cost δ per τ: goodput ≈ τ/(τ+δ) less the lost work */
    double expect = tau_h / (tau_h + 300.0 / 3600) * (1 - (tau_h / 2) / 97.7);
    ck_assert_double_eq_tol(r->goodput, expect, 0.01);
    free(r);
    free(p);
}
END_TEST

/* Failures: the pool fails at G / MTBF.  100 GPUs, MTBF 1,000 h, 5,000 h →
 * 500 expected (Poisson sd 22); ±15 % is > 3 sd.  Killed jobs lose work,
 * so goodput drops below 1 and lost GPU-hours appear. */
START_TEST(gpu_failures_follow_mtbf_and_cost_goodput)
{
    Plan *p = new_plan(POLICY_FIFO, 100, 5000);
    p->tenancy.mtbf_gpu_h = 1000;
    Team *t = add_team(p, "a", 1, 0, -1);
    add_class(t, "long", 2, 8, 30, DUR_LOGNORMAL);
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_double_eq_tol(r->failures, 500, 75);
    ck_assert_uint_gt(st.failure_kills, 0);
    ck_assert(r->goodput < 0.999 && r->goodput > 0.5);
    ck_assert(r->teams[0].lost_gpu_hours > 0);
    free(r);
    p->tenancy.mtbf_gpu_h = 0;
    r = run(p, 0, &st);
    ck_assert_int_eq(r->failures, 0);
    ck_assert_double_eq_tol(r->goodput, 1, 1e-9);
    free(r);
    free(p);
}
END_TEST

/* ------------------------------------------------------------ contracts */


/* EASY backfill on 4 GPUs: A (3 GPUs, 0–10 h) runs; head B wants 4 and is
 * reserved for t = 10; C (1 GPU, 20 h) would overrun the reservation and
 * must wait; D (1 GPU, 5 h) ends before it and starts at once.  One job
 * per team, so a team's max wait is that job's wait. */
START_TEST(backfill_never_delays_the_reserved_head)
{
    TraceJob tj[] = {
        {.submit_s = 0, .duration_s = 10 * 3600.0, .gpus = 3, .team = 0},
        {.submit_s = 1 * 3600.0, .duration_s = 2 * 3600.0, .gpus = 4, .team = 1},
        {.submit_s = 2 * 3600.0, .duration_s = 20 * 3600.0, .gpus = 1, .team = 2},
        {.submit_s = 3 * 3600.0, .duration_s = 5 * 3600.0, .gpus = 1, .team = 3},
    };
    Plan *p = trace_plan(POLICY_FIFO, 4, tj, 4, 4);
    p->tenancy.backfill = true;
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_double_eq_tol(r->teams[0].wait_hours_max, 0, 1e-9);
    ck_assert_double_eq_tol(r->teams[1].wait_hours_max, 9, 1e-9);  /* starts at 10 */
    ck_assert_double_eq_tol(r->teams[2].wait_hours_max, 10, 1e-9); /* after B: 12 */
    ck_assert_double_eq_tol(r->teams[3].wait_hours_max, 0, 1e-9);  /* backfilled */
    ck_assert_uint_eq(st.backfilled, 1);
    free(r);
    /* without backfill D waits behind B and C */
    p->tenancy.backfill = false;
    r = run(p, 0, &st);
    ck_assert_double_eq_tol(r->teams[1].wait_hours_max, 9, 1e-9);
    ck_assert_double_eq_tol(r->teams[3].wait_hours_max, 9, 1e-9);
    ck_assert_uint_eq(st.backfilled, 0);
    free(r);
    free(p);
}
END_TEST

/* A single-node head reserves a node: on 2 nodes of 8, J0 holds node A
 * (8 GPUs, 10 h) and J1 six GPUs of node B (4 h); the 8-GPU head J2 is
 * reserved node B at t = 4.  J3 (2 GPUs, 20 h) would fit B's two free GPUs
 * now but overrun the reservation, so it waits; J4 (2 GPUs, 2 h) ends by
 * t = 4 and is backfilled there. */
START_TEST(backfill_reserves_a_node_for_a_single_node_head)
{
    TraceJob tj[] = {
        {.submit_s = 0, .duration_s = 10 * 3600.0, .gpus = 8, .team = 0},
        {.submit_s = 0, .duration_s = 4 * 3600.0, .gpus = 6, .team = 1},
        {.submit_s = 0.5 * 3600, .duration_s = 1 * 3600.0, .gpus = 8, .team = 2},
        {.submit_s = 1 * 3600.0, .duration_s = 20 * 3600.0, .gpus = 2, .team = 3},
        {.submit_s = 1.5 * 3600, .duration_s = 2 * 3600.0, .gpus = 2, .team = 4},
    };
    Plan *p = trace_plan(POLICY_FIFO, 16, tj, 5, 5);
    p->tenancy.backfill = true;
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_double_eq_tol(r->teams[2].wait_hours_max, 3.5, 1e-9); /* starts at 4 */
    ck_assert_double_eq_tol(r->teams[3].wait_hours_max, 4, 1e-9);   /* after J2, at 5 */
    ck_assert_double_eq_tol(r->teams[4].wait_hours_max, 0, 1e-9);   /* backfilled */
    ck_assert_uint_eq(st.backfilled, 1);
    free(r);
    free(p);
}
END_TEST

/* A reservation holds the head's borrowing headroom too: team A may hold
 * 12 GPUs; it has 2, its 10-GPU head waits for B's node (t = 5).  A 2-GPU
 * job of A's running past t = 5 would fit the spare GPUs but leave the head
 * over A's limit, so it waits until the head is done (t = 6): A's longest
 * wait is 4 h, not the 9 h the head would wait for J0 to end. */
START_TEST(backfill_keeps_the_heads_borrowing_headroom)
{
    TraceJob tj[] = {
        {.submit_s = 0, .duration_s = 5 * 3600.0, .gpus = 8, .team = 1},
        {.submit_s = 0, .duration_s = 10 * 3600.0, .gpus = 2, .team = 0},
        {.submit_s = 1 * 3600.0, .duration_s = 1 * 3600.0, .gpus = 10, .team = 0},
        {.submit_s = 2 * 3600.0, .duration_s = 20 * 3600.0, .gpus = 2, .team = 0},
    };
    Plan *p = trace_plan(POLICY_FIFO, 16, tj, 4, 2);
    p->tenancy.backfill = true;
    p->tenancy.teams[0].borrow_gpus = 12;
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_double_eq_tol(r->teams[0].wait_hours_max, 4, 1e-9);
    ck_assert_uint_eq(st.backfill_delays, 0);
    free(r);
    free(p);
}
END_TEST

/* Across random loads (single-node, two-node and fractional heads) the
 * simulator's own reservation audit stays 0: every reserved head starts by
 * its reservation and no reservation moves later without an outside
 * cause. */
START_TEST(backfill_keeps_reservations_under_random_load)
{
    for (int seed = 1; seed <= 4; seed++) {
        Plan *p = new_plan(POLICY_FIFO, 64, 3000);
        p->tenancy.seed = (uint64_t)seed;
        p->tenancy.backfill = true;
        Team *t = add_team(p, "a", 1, 0, -1);
        add_class(t, "one", 8, 1, 2, DUR_LOGNORMAL);
        add_class(t, "node", 2, 8, 4, DUR_LOGNORMAL);
        add_class(t, "two-node", 0.3, 16, 8, DUR_EXPONENTIAL);
        add_class(t, "frac", 2, 0.25, 1, DUR_EXPONENTIAL);
        SchedStats st;
        ScheduleResult *r = run(p, 0, &st);
        ck_assert_uint_gt(st.reservations, 100);
        ck_assert_uint_gt(st.backfilled, 100);
        ck_assert_uint_eq(st.backfill_delays, 0);
        free(r);
        free(p);
    }
}
END_TEST

/* Priority preemption on 8 GPUs: eight 1-GPU low jobs fill the pool at
 * t=0; a high 4-GPU job at t=1 h evicts four of them and starts at once.
 * No failures → no checkpoints, so each victim loses its 1 h of work, plus
 * the 10-minute restore when it restarts: 4 × (1 + 1/6) GPU-h lost. */
START_TEST(priority_preemption_evicts_lowest_and_charges_lost_work)
{
    TraceJob tj[9];
    for (int i = 0; i < 8; i++)
        tj[i] = (TraceJob){.submit_s = 0, .duration_s = 100 * 3600.0, .gpus = 1, .team = 0,
                           .priority = PRIO_LOW};
    tj[8] = (TraceJob){.submit_s = 3600, .duration_s = 3600, .gpus = 4, .team = 1,
                       .priority = PRIO_HIGH};
    Plan *p = trace_plan(POLICY_PRIORITY, 8, tj, 9, 2);
    p->tenancy.preemption = true;
    p->tenancy.restore_s = 600;
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_double_eq_tol(r->teams[1].wait_hours_max, 0, 1e-9);
    ck_assert_int_eq(r->preemptions, 4);
    ck_assert_int_eq(r->teams[0].preemptions, 4);
    ck_assert_double_eq_tol(r->teams[0].lost_gpu_hours, 4 * (1 + 600.0 / 3600), 1e-6);
    ck_assert_int_eq(r->teams[1].preemptions, 0);
    free(r);
    /* without preemption it waits for the low jobs */
    p->tenancy.preemption = false;
    r = run(p, 0, &st);
    ck_assert_double_eq_tol(r->teams[1].wait_hours_max, 99, 1e-9);
    ck_assert_int_eq(r->preemptions, 0);
    free(r);
    free(p);
}
END_TEST

/* Quota reclaim: B (quota 4) borrows all 8 GPUs; A (quota 4) arrives with
 * four 1-GPU jobs and takes its quota back — B is cut to exactly its quota,
 * never below, and cannot preempt back (no loop). */
START_TEST(under_quota_team_reclaims_from_borrower_down_to_its_quota)
{
    TraceJob tj[12];
    for (int i = 0; i < 8; i++)
        tj[i] = (TraceJob){.submit_s = 0, .duration_s = 50 * 3600.0, .gpus = 1, .team = 1};
    for (int i = 8; i < 12; i++)
        tj[i] = (TraceJob){.submit_s = 3600, .duration_s = 10 * 3600.0, .gpus = 1, .team = 0};
    Plan *p = trace_plan(POLICY_FAIR_SHARE, 8, tj, 12, 2);
    p->tenancy.teams[0].quota_gpus = 4;
    p->tenancy.teams[1].quota_gpus = 4;
    p->tenancy.preemption = true;
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_int_eq(r->teams[1].preemptions, 4);
    ck_assert_int_eq(r->teams[0].preemptions, 0);
    ck_assert_int_eq(r->preemptions, 4);
    ck_assert_double_eq_tol(r->teams[0].wait_hours_max, 0, 1e-9);
    ck_assert_uint_eq(st.below_quota, 0);
    ck_assert_uint_eq(st.preempt_cycles, 0);
    free(r);
    free(p);
}
END_TEST

/* No loops under fair sharing: A (6 GPUs) may not take B's last 2 GPUs
 * for a higher-priority job — B would end below A's share and could then
 * claim them back — so A preempts two of its own normal jobs instead.
 * Under strict priority B's low jobs go first. */
START_TEST(fair_share_preemption_never_leaves_victim_below_preemptor)
{
    TraceJob tj[9];
    for (int i = 0; i < 6; i++)
        tj[i] = (TraceJob){.submit_s = 0, .duration_s = 100 * 3600.0, .gpus = 1, .team = 0};
    for (int i = 6; i < 8; i++)
        tj[i] = (TraceJob){.submit_s = 0, .duration_s = 100 * 3600.0, .gpus = 1, .team = 1,
                           .priority = PRIO_LOW};
    tj[8] = (TraceJob){.submit_s = 3600, .duration_s = 3600, .gpus = 2, .team = 0,
                       .priority = PRIO_HIGH};
    Plan *p = trace_plan(POLICY_FAIR_SHARE, 8, tj, 9, 2);
    p->tenancy.preemption = true;
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_int_eq(r->teams[1].preemptions, 0);
    ck_assert_int_eq(r->teams[0].preemptions, 2);
    ck_assert_uint_eq(st.preempt_cycles, 0);
    free(r);
    p->tenancy.policy = POLICY_PRIORITY;
    r = run(p, 0, &st);
    ck_assert_int_eq(r->preemptions, 2);
    ck_assert_int_eq(r->teams[1].preemptions, 2);
    ck_assert_int_eq(r->teams[0].preemptions, 0);
    free(r);
    free(p);
}
END_TEST

/* Same seed, same plan → byte-identical result; another seed differs. */
START_TEST(same_seed_gives_identical_results)
{
    Plan *p = new_plan(POLICY_FAIR_SHARE, 96, 500);
    p->tenancy.preemption = true;
    p->tenancy.backfill = true;
    p->tenancy.mtbf_gpu_h = 5000;
    Team *a = add_team(p, "a", 1, 48, -1);
    Team *b = add_team(p, "b", 2, 24, -1);
    add_class(a, "x", 10, 1, 2, DUR_LOGNORMAL);
    add_class(b, "y", 2, 8, 3, DUR_EXPONENTIAL)->priority = PRIO_HIGH;
    add_class(b, "m", 4, 1, 1, DUR_LOGNORMAL);
    strcpy(b->jobs[1].mig, "3g.40gb");
    ScheduleResult *r1 = run(p, 0, NULL), *r2 = run(p, 0, NULL);
    ck_assert_mem_eq(r1, r2, sizeof *r1);
    p->tenancy.seed = 2;
    ScheduleResult *r3 = run(p, 0, NULL);
    ck_assert(memcmp(r1, r3, sizeof *r1) != 0);
    free(r1);
    free(r2);
    free(r3);
    free(p);
}
END_TEST

static PlanResult *stage(const Plan *p, const EvalOptions *o)
{
    PlanResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    sched_stage(p, &g_cat, o, r);
    ck_assert(r->have_schedule);
    return r;
}

static Plan *search_plan(double per_hour, double wait_h)
{
    Plan *p = new_plan(POLICY_FAIR_SHARE, 0, 1000);
    p->tenancy.backfill = true;
    p->tenancy.wait_p95_s = wait_h * 3600;
    Team *a = add_team(p, "a", 1, 0, -1);
    Team *b = add_team(p, "b", 1, 0, -1);
    add_class(a, "one", per_hour, 1, 2, DUR_LOGNORMAL);
    add_class(b, "node", per_hour / 4, 8, 3, DUR_LOGNORMAL);
    return p;
}

/* The search returns the smallest whole-node pool meeting the target: its
 * run meets it, one node less does not; a looser target never needs more
 * GPUs and a heavier load never needs fewer. */
START_TEST(capacity_search_is_minimal_and_monotonic)
{
    EvalOptions o = {.cancel = NULL, .alternatives = false, .capacity_search = true};
    Plan *p = search_plan(20, 1);
    PlanResult *r = stage(p, &o);
    ScheduleResult *s = &r->schedule;
    ck_assert(s->ran && s->meets_target);
    int rec = s->recommended_gpus;
    ck_assert_int_gt(rec, 0);
    ck_assert_int_eq(rec % 8, 0);
    ck_assert_int_eq(s->gpus, rec);
    for (int t = 0; t < s->n_teams; t++)
        ck_assert(s->teams[t].wait_hours_p95 <= 1 + 1e-9);
    ScheduleResult *less = run(p, rec - 8, NULL);
    bool missed = false;
    for (int t = 0; t < less->n_teams; t++)
        missed = missed || less->teams[t].wait_hours_p95 > 1;
    ck_assert(missed);
    free(less);

    Plan *loose = search_plan(20, 8);
    PlanResult *rl = stage(loose, &o);
    ck_assert_int_le(rl->schedule.recommended_gpus, rec);
    Plan *heavy = search_plan(40, 1);
    PlanResult *rh = stage(heavy, &o);
    ck_assert_int_ge(rh->schedule.recommended_gpus, rec);
    free(r);
    free(rl);
    free(rh);
    free(p);
    free(loose);
    free(heavy);
}
END_TEST

/* A team capped by its borrowing limit waits however large the pool: the
 * search stops once more GPUs stop helping instead of growing to a
 * million, says so, and reports the smallest pool on that plateau. */
START_TEST(capacity_search_stops_when_more_gpus_do_not_help)
{
    EvalOptions o = {.cancel = NULL, .alternatives = false, .capacity_search = true};
    Plan *p = search_plan(20, 1);
    Team *c = add_team(p, "capped", 1, 8, 0);
    add_class(c, "over", 6, 1, 2, DUR_EXPONENTIAL); /* 12 GPUs of work, 8 allowed */
    PlanResult *r = stage(p, &o);
    ck_assert(r->schedule.ran);
    ck_assert(!r->schedule.meets_target);
    ck_assert_int_gt(r->schedule.recommended_gpus, 0);
    ck_assert_int_lt(r->schedule.recommended_gpus, 1024);
    ck_assert_int_ge(r->n_warnings, 1);
    ck_assert_ptr_nonnull(strstr(r->warnings[r->n_warnings - 1], "capped"));
    free(r);
    free(p);
}
END_TEST

/* A pool holds every team's guaranteed quota, as a fixed one must: the
 * search starts there, and says so when that pool is its answer.  Light
 * load under 80 GPUs of quotas was sized at 8 GPUs (and frontier-2027 at
 * 680 GPUs under 704 of quotas), whose Kueue export then promised the
 * teams more GPUs than the pool has (session 40). */
START_TEST(capacity_search_holds_the_teams_quotas)
{
    EvalOptions o = {.cancel = NULL, .alternatives = false, .capacity_search = true};
    Plan *p = new_plan(POLICY_FAIR_SHARE, 0, 72);
    p->tenancy.wait_p95_s = 24 * 3600;
    add_class(add_team(p, "a", 1, 48, 8), "rare", 0.5 / 24, 1, 7, DUR_EXPONENTIAL);
    add_class(add_team(p, "b", 1, 30, -1), "rare", 1.0 / 24, 1, 2, DUR_EXPONENTIAL);
    PlanResult *r = stage(p, &o);
    ck_assert(r->schedule.meets_target);
    ck_assert_int_eq(r->schedule.recommended_gpus, 80); /* 78 GPUs of quotas, whole nodes */
    ck_assert_int_eq(r->schedule.gpus, 80);
    ck_assert(r->schedule.pool_from_quotas);
    free(r);
    /* heavier load needs more than the quotas: the answer is the search's */
    p->tenancy.teams[1].jobs[0].per_day = 24 * 60;
    r = stage(p, &o);
    ck_assert(r->schedule.meets_target);
    ck_assert_int_gt(r->schedule.recommended_gpus, 80);
    ck_assert(!r->schedule.pool_from_quotas);
    free(r);
    /* without the search, the pool sized from the load holds them too */
    o.capacity_search = false;
    p->tenancy.teams[1].jobs[0].per_day = 1;
    r = stage(p, &o);
    ck_assert_int_eq(r->schedule.gpus, 80);
    free(r);
    free(p);
}
END_TEST

/* Under strict priority a stream of high-priority slices keeps a pool of
 * exactly one 64-GPU gang from ever freeing it: the gangs never run, and
 * being under 5 % of their team's jobs, the team's p95 wait is 0.  The
 * search recommended that pool as meeting a 1 h target (seeds 1 and 2
 * here), and a fixed pool of 64 GPUs met it too.  A class none of whose
 * jobs runs now counts with its longest wait (schedule_wait_score): the
 * pool misses, the warning names the class, and the search goes on to
 * pools that run the gangs, where the team's long jobs queue behind them
 * within its borrowing limit (session 40). */
static Plan *starving_gang_plan(uint64_t seed)
{
    Plan *p = new_plan(POLICY_PRIORITY, 0, 72);
    p->tenancy.backfill = true;
    p->tenancy.wait_p95_s = 3600;
    p->tenancy.seed = seed;
    Team *t = add_team(p, "t0", 3, 8, 64);
    add_class(t, "long", 16.0 / 24, 0.25, 70, DUR_EXPONENTIAL);
    add_class(t, "quick", 72.0 / 24, 0.5, 0.47, DUR_EXPONENTIAL)->priority = PRIO_HIGH;
    add_class(t, "gang", 1.5 / 24, 64, 25.7, DUR_EXPONENTIAL);
    return p;
}

START_TEST(a_class_that_never_runs_misses_the_wait_target)
{
    EvalOptions o = {.cancel = NULL, .alternatives = false, .capacity_search = true};
    int starved = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        Plan *p = starving_gang_plan(seed);
        PlanResult *r = stage(p, &o);
        const ScheduleResult *s = &r->schedule;
        ck_assert(s->ran);
        int team, cls;
        double score = schedule_wait_score(s, &team, &cls);
        ck_assert_msg(s->meets_target == (score <= 1 + 1e-9), "seed %d: meets %d, score %.2f h",
                      (int)seed, s->meets_target, score);
        for (int c = 0; c < s->n_classes && s->meets_target; c++)
            ck_assert_msg(s->classes[c].jobs == 0 || s->classes[c].gpu_hours > 0,
                          "seed %d: %d GPUs meet the target while class %s never runs",
                          (int)seed, s->gpus, s->classes[c].name);
        ck_assert_int_gt(s->recommended_gpus, 64);
        free(r);
        /* the fixed pool of one gang: the gangs never run, and it says so */
        p->tenancy.gpus = 64;
        r = stage(p, &o);
        s = &r->schedule;
        schedule_wait_score(s, &team, &cls);
        if (cls >= 0) {
            starved++;
            ck_assert(!s->meets_target);
            ck_assert_str_eq(s->classes[cls].name, "gang");
            ck_assert_double_eq(s->classes[cls].gpu_hours, 0);
            ck_assert_ptr_nonnull(strstr(r->warnings[r->n_warnings - 1],
                                         "class t0/gang"));
            ck_assert_ptr_nonnull(strstr(r->warnings[r->n_warnings - 1],
                                         "never runs on the plan's 64 GPUs"));
        }
        free(r);
        free(p);
    }
    ck_assert_int_ge(starved, 2);
}
END_TEST

/* A fixed pool is simulated as given; auto without the search is sized
 * from the load, with recommended_gpus left 0. */
START_TEST(fixed_pool_runs_as_given_and_auto_without_search_is_sized_by_load)
{
    EvalOptions o = {.cancel = NULL, .alternatives = false, .capacity_search = false};
    Plan *p = search_plan(20, 1);
    PlanResult *r = stage(p, &o);
    ck_assert(r->schedule.ran);
    ck_assert_int_eq(r->schedule.recommended_gpus, 0);
    /* offered load 20·1·2 + 5·8·3 = 160 GPUs; at 85 %: 189 → 24 nodes */
    ck_assert_int_eq(r->schedule.gpus, 192);
    free(r);
    p->tenancy.gpus = 100;
    r = stage(p, &o);
    ck_assert_int_eq(r->schedule.gpus, 100);
    ck_assert_int_eq(r->schedule.recommended_gpus, 0);
    free(r);
    free(p);
}
END_TEST

START_TEST(no_teams_and_no_trace_means_not_ran_and_all_zero)
{
    Plan *p = new_plan(POLICY_FAIR_SHARE, 0, 100);
    EvalOptions o = {.capacity_search = true};
    PlanResult *r = stage(p, &o);
    ScheduleResult zero;
    memset(&zero, 0, sizeof zero);
    ck_assert(!r->schedule.ran);
    ck_assert_mem_eq(&r->schedule, &zero, sizeof zero);
    free(r);
    free(p);
}
END_TEST

/* Values no validated plan holds still give a run, never a crash or an
 * undefined conversion (UBSan watches this test). */
START_TEST(non_finite_and_huge_inputs_are_survived)
{
    Plan *p = new_plan(POLICY_FAIR_SHARE, 64, 200);
    p->tenancy.restore_s = NAN;
    p->tenancy.mtbf_gpu_h = NAN;
    p->storage.checkpoint_stall_s = INFINITY;
    p->network.switch_ports = 1 << 30;
    p->network.oversubscription = NAN;
    Team *t = add_team(p, "odd", NAN, -5, -1);
    add_class(t, "nan-gpus", 1, NAN, 1, DUR_LOGNORMAL);
    add_class(t, "huge-gpus", 0.01, 1e300, 1, DUR_LOGNORMAL);
    add_class(t, "nan-cv", 1, 2, 1, DUR_LOGNORMAL)->cv = NAN;
    add_class(t, "huge-cv", 1, 1, 1, DUR_LOGNORMAL)->cv = 1e300;
    add_class(t, "inf-hours", 0.1, 1, INFINITY, DUR_FIXED);
    JobClass *e = add_class(t, "el", 0.1, 0, 1, DUR_FIXED);
    e->min_gpus = -3;
    e->max_gpus = 1 << 30;
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_int_gt(r->jobs_submitted, 0);
    ck_assert(isfinite(r->utilization) && isfinite(r->goodput) && isfinite(r->fragmentation));
    for (int k = 0; k < r->n_classes; k++)
        ck_assert(isfinite(r->classes[k].wait_hours_p95));
    free(r);
    free(p);
}
END_TEST

/* A job mix past SCHED_MAX_JOBS is refused with a warning, not attempted. */
START_TEST(absurd_job_rates_are_refused_with_a_warning)
{
    Plan *p = new_plan(POLICY_FIFO, 8, 24 * 365);
    add_class(add_team(p, "a", 1, 0, -1), "flood", 1e7, 1, 1, DUR_FIXED);
    EvalOptions o = {.capacity_search = true};
    PlanResult *r = stage(p, &o);
    ck_assert(!r->schedule.ran);
    ck_assert_int_eq(r->n_warnings, 1);
    ck_assert_ptr_nonnull(strstr(r->warnings[0], "jobs over the horizon"));
    free(r);
    free(p);
}
END_TEST

/* Issue 17 D8: 54,000 one-hour jobs a day over 366 days (19.8 M jobs, 83 s
 * and 3.8 GB before) is sampled: the first window of the horizon that fits
 * the budget for the capacity search's replays, with a warning. */
START_TEST(a_job_mix_over_the_budget_is_sampled_to_a_window)
{
    Plan *p = new_plan(POLICY_FIFO, 0, 366 * 24);
    add_class(add_team(p, "a", 1, 0, -1), "j", 54000 / 24.0, 1, 1, DUR_FIXED);
    SchedWorkload w;
    ck_assert_int_eq(sched_workload_build(p, &g_acc[0], NULL, SCHED_SEARCH_PROBES, &w), 0);
    double budget = sched_budget_jobs(SCHED_SEARCH_PROBES);
    ck_assert_double_eq_tol(budget, SCHED_BUDGET_JOB_RUNS / SCHED_SEARCH_PROBES, 1e-6);
    ck_assert_double_eq_tol(w.expected_jobs, 54000.0 * 366, 1e-3);
    ck_assert_double_eq_tol(w.sampled_from, 366 * 86400.0, 1e-6);
    ck_assert_double_eq_tol(w.horizon, 366 * 86400.0 * budget / (54000.0 * 366), 1e-6);
    ck_assert_double_eq_tol((double)w.n, budget, 5 * sqrt(budget)); /* Poisson count */
    ck_assert(w.jobs[w.n - 1].submit < w.horizon);
    sched_workload_free(&w);
    /* one run (a fixed pool) may hold more: the memory budget */
    ck_assert_int_eq(sched_workload_build(p, &g_acc[0], NULL, 1, &w), 0);
    ck_assert_double_eq_tol(w.horizon,
                            366 * 86400.0 * (SCHED_BUDGET_BYTES / SCHED_JOB_BYTES) / (54000.0 * 366),
                            1e-6);
    sched_workload_free(&w);
    /* within the budget nothing is sampled */
    p->tenancy.horizon_s = 2 * 86400.0;
    ck_assert_int_eq(sched_workload_build(p, &g_acc[0], NULL, 1, &w), 0);
    ck_assert_double_eq(w.sampled_from, 0);
    ck_assert_double_eq(w.horizon, 2 * 86400.0);
    sched_workload_free(&w);
    free(p);
}
END_TEST

/* The dashboard cancels a stale evaluation: a cancel flag already set stops
 * the job generator within one poll, before the run. */
START_TEST(a_cancel_flag_stops_the_job_generator)
{
    Plan *p = new_plan(POLICY_FIFO, 0, 366 * 24);
    add_class(add_team(p, "a", 1, 0, -1), "j", 54000 / 24.0, 1, 1, DUR_FIXED);
    atomic_int cancel = 1;
    EvalOptions o = {.cancel = &cancel, .capacity_search = true};
    SchedWorkload w;
    ck_assert_int_eq(sched_workload_build(p, &g_acc[0], &o, SCHED_SEARCH_PROBES, &w), -1);
    ck_assert(w.cancelled);
    ck_assert_ptr_null(w.jobs);
    PlanResult *r = stage(p, &o);
    ck_assert(r->schedule.cancelled);
    ck_assert_int_eq(r->n_warnings, 0);
    free(r);
    free(p);
}
END_TEST

/* MIG on an 80 GB part (CATALOG-FACTS 1.2): seven 1g.10gb per GPU by
 * compute slices, four 1g.20gb and two 3g.40gb by memory; the rest wait. */
START_TEST(mig_slices_pack_per_catalog_profile)
{
    const char *prof[] = {"1g.10gb", "1g.20gb", "3g.40gb", "7g.80gb", "1g.10gb+me"};
    int fit[] = {7, 4, 2, 1, 1};
    for (int i = 0; i < 5; i++) {
        Plan *p = new_plan(POLICY_FIFO, 1, 24);
        Team *t = add_team(p, "nb", 1, 0, -1);
        JobClass *j = add_class(t, "n", 40, 1, 1000, DUR_FIXED);
        strcpy(j->mig, prof[i]);
        SchedStats st;
        ScheduleResult *r = run(p, 0, &st);
        ck_assert_int_eq(st.peak_running, fit[i]);
        ck_assert_int_eq(st.jobs_running, fit[i]);
        ck_assert_int_gt(st.jobs_queued, 100);
        free(r);
        free(p);
    }
    /* a mix: 3g.40gb + 2g.20gb + 2 × 1g.10gb fill 7 slices on one GPU */
    Plan *p = new_plan(POLICY_FIFO, 1, 24);
    Team *t = add_team(p, "nb", 1, 0, -1);
    strcpy(add_class(t, "a", 1, 1, 1000, DUR_FIXED)->mig, "3g.40gb");
    strcpy(add_class(t, "b", 1, 1, 1000, DUR_FIXED)->mig, "2g.20gb");
    strcpy(add_class(t, "c", 2, 1, 1000, DUR_FIXED)->mig, "1g.10gb");
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert(r->utilization <= 1 + 1e-9);
    ck_assert_uint_eq(st.double_booked, 0);
    free(r);
    free(p);
}
END_TEST

/* A profile the accelerator lacks is time-shared instead, and said so. */
START_TEST(missing_mig_profile_falls_back_to_a_fraction_with_a_warning)
{
    Plan *p = new_plan(POLICY_FIFO, 1, 24);
    strcpy(p->accelerator, "MI300X");
    Team *t = add_team(p, "nb", 1, 0, -1);
    strcpy(add_class(t, "n", 40, 1, 1000, DUR_FIXED)->mig, "3g.40gb");
    EvalOptions o = {.capacity_search = false};
    PlanResult *r = stage(p, &o);
    ck_assert(r->schedule.ran);
    ck_assert_int_ge(r->n_warnings, 1);
    ck_assert_ptr_nonnull(strstr(r->warnings[0], "MIG"));
    /* 3/7 of a GPU each: two fit (6/7) */
    ck_assert_double_eq_tol(r->schedule.utilization, 6.0 / 7, 0.01);
    free(r);
    free(p);
}
END_TEST

/* Fractional GPUs share by time-slicing: four 0.25 jobs on one GPU. */
START_TEST(fractional_jobs_share_one_gpu)
{
    Plan *p = new_plan(POLICY_FIFO, 1, 24);
    Team *t = add_team(p, "inf", 1, 0, -1);
    add_class(t, "q", 40, 0.25, 1000, DUR_FIXED);
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_int_eq(st.jobs_running, 4);
    ck_assert_double_eq_tol(r->utilization, 1, 0.02);
    free(r);
    free(p);
}
END_TEST

/* Elastic: 8 GPU-hours of work at min 2, max 8, alone on 8 GPUs → grows
 * to 8 at once and finishes in 1 h.  When a rigid job arrives it shrinks
 * instead of anyone being preempted. */
START_TEST(elastic_jobs_grow_into_idle_gpus_and_shrink_before_preemption)
{
    Plan *p = new_plan(POLICY_FIFO, 8, 2000);
    Team *t = add_team(p, "el", 1, 0, -1);
    JobClass *e = add_class(t, "e", 0.1, 0, 4, DUR_FIXED);
    e->min_gpus = 2;
    e->max_gpus = 8;
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_int_gt(r->jobs_completed, 100);
    /* alone, a job runs 4·2/8 = 1 h; an overlap shares the GPUs, and it is
     * never slower than at its minimum (4 h) */
    ck_assert(r->teams[0].jct_hours_mean >= 1 - 1e-9);
    ck_assert(r->teams[0].jct_hours_mean < 1.5);
    ck_assert(r->classes[0].slowdown_mean < 0.5); /* vs 4 h at the minimum */
    ck_assert_uint_gt(st.elastic_resizes, 0);
    free(r);
    free(p);

    /* high-priority rigid 4-GPU jobs arrive while low elastic jobs (min 1)
     * hold GPUs beyond their minimum: the elastic ones shrink, nobody is
     * preempted (that would need two rigid jobs at once, or five elastic
     * ones), the rigid jobs never wait */
    p = new_plan(POLICY_PRIORITY, 8, 5000);
    p->tenancy.preemption = true;
    Team *te = add_team(p, "el", 1, 0, -1);
    Team *tr = add_team(p, "rigid", 1, 0, -1);
    JobClass *ee = add_class(te, "e", 0.05, 0, 20, DUR_FIXED);
    ee->min_gpus = 1;
    ee->max_gpus = 8;
    ee->priority = PRIO_LOW;
    JobClass *rr = add_class(tr, "r", 0.02, 4, 0.05, DUR_FIXED); /* 3-min runs: no overlap */
    rr->priority = PRIO_HIGH;
    r = run(p, 0, &st);
    ck_assert_int_gt(r->teams[1].jobs, 50);
    ck_assert_int_eq(r->preemptions, 0);
    ck_assert_uint_eq(st.preempted, 0);
    ck_assert_double_eq_tol(r->teams[1].wait_hours_max, 0, 1e-9);
    ck_assert_uint_gt(st.elastic_resizes, 50);
    free(r);
    free(p);
}
END_TEST

/* What an elastic job grew into is its team's to take back: a team of
 * quota 8, borrowing 8, whose long elastic job (min 8, max 32) has grown
 * to the team's limit of 16 on an idle pool, still starts its own rigid
 * 2-GPU jobs, by shrinking that job.  The team used to count as over its
 * limit, so its queued jobs were never the head that shrinks it: on 40
 * GPUs they waited 34 h at p95 where 32 GPUs (no room to grow) gave 2.7 h
 * (session 40, found by a random plan whose search answered the smaller
 * pool). */
START_TEST(a_teams_elastic_growth_is_given_back_to_its_own_jobs)
{
    double p95[2];
    for (int k = 0; k < 2; k++) {
        Plan *p = new_plan(POLICY_PRIORITY, k ? 64 : 16, 72);
        p->tenancy.backfill = true;
        Team *t = add_team(p, "t0", 1, 8, 8);
        JobClass *e = add_class(t, "elastic", 1.0 / 72, 0, 60, DUR_FIXED);
        e->min_gpus = 8;
        e->max_gpus = 32;
        add_class(t, "rigid", 15.0 / 24, 2, 1.6, DUR_FIXED);
        SchedStats st;
        ScheduleResult *r = run(p, 0, &st);
        ck_assert_int_gt(r->classes[1].jobs, 30);
        p95[k] = r->classes[1].wait_hours_p95;
        ck_assert_uint_gt(st.elastic_resizes, 0);
        free(r);
        free(p);
    }
    /* 16 GPUs: the elastic job cannot grow past the team's 16 anyway */
    ck_assert_msg(p95[1] <= p95[0] + 0.5, "rigid p95 %.2f h on 64 GPUs, %.2f h on 16", p95[1],
                  p95[0]);
    ck_assert_msg(p95[1] < 2, "rigid p95 %.2f h on 64 GPUs", p95[1]);
}
END_TEST

/* The cancel flag stops the event loop within one polling period. */
START_TEST(cancel_flag_stops_the_run)
{
    Plan *p = new_plan(POLICY_FIFO, 64, 20000);
    add_class(add_team(p, "a", 1, 0, -1), "j", 40, 1, 1, DUR_EXPONENTIAL);
    atomic_int flag = 1;
    EvalOptions o = {.cancel = &flag, .capacity_search = true};
    ScheduleResult *r = calloc(1, sizeof *r);
    int rc = sched_simulate(p, &g_cat, &o, 0, r, NULL);
    ck_assert_int_eq(rc, -1);
    ck_assert(r->cancelled);
    free(r);
    p->tenancy.gpus = 0;
    PlanResult *pr = stage(p, &o);
    ck_assert(pr->schedule.cancelled);
    ck_assert_int_eq(pr->schedule.recommended_gpus, 0);
    free(pr);
    free(p);
}
END_TEST

/* Everything at once on a random load: every debug invariant stays 0 and
 * every job is accounted for, under each policy. */
START_TEST(invariants_hold_on_a_big_random_run)
{
    SchedPolicy pols[] = {POLICY_FIFO, POLICY_PRIORITY, POLICY_FAIR_SHARE};
    for (int i = 0; i < 3; i++) {
        Plan *p = new_plan(pols[i], 256, 1500);
        p->tenancy.preemption = true;
        p->tenancy.backfill = true;
        p->tenancy.mtbf_gpu_h = 3000;
        p->tenancy.seed = 7 + (uint64_t)i;
        for (int k = 0; k < 5; k++) {
            char name[16];
            snprintf(name, sizeof name, "team%d", k);
            Team *t = add_team(p, name, 1 + k % 3, 40, k % 2 ? 60 : -1);
            add_class(t, "one", 6, 1, 2, DUR_LOGNORMAL)->priority = PRIO_LOW;
            add_class(t, "node", 1, 8, 4, DUR_EXPONENTIAL);
            add_class(t, "gang", 0.1, 32, 10, DUR_LOGNORMAL)->priority = PRIO_HIGH;
            strcpy(add_class(t, "mig", 3, 1, 3, DUR_EXPONENTIAL)->mig, "2g.20gb");
            add_class(t, "frac", 3, 0.3, 2, DUR_EXPONENTIAL);
            JobClass *e = add_class(t, "el", 0.3, 0, 6, DUR_LOGNORMAL);
            e->min_gpus = 4;
            e->max_gpus = 16;
        }
        SchedStats st;
        ScheduleResult *r = run(p, 0, &st); /* asserts invariant_violations == 0 */
        ck_assert_uint_eq(st.double_booked, 0);
        ck_assert_uint_eq(st.partial_gangs, 0);
        ck_assert_uint_eq(st.below_quota, 0);
        ck_assert_uint_eq(st.preempt_cycles, 0);
        ck_assert_uint_eq(st.unaccounted, 0);
        ck_assert_int_eq(r->jobs_submitted, r->jobs_completed + st.jobs_running + st.jobs_queued);
        ck_assert_int_gt(r->jobs_submitted, 50000);
        ck_assert(r->utilization > 0.3 && r->utilization <= 1 + 1e-9);
        ck_assert(r->goodput > 0 && r->goodput <= 1);
        ck_assert_uint_gt(r->events, (uint64_t)r->jobs_submitted);
        /* the sparkline averages to the utilisation (equal buckets) */
        double mean = 0;
        for (int b = 0; b < PLAN_SERIES_LEN; b++)
            mean += r->util_series[b] / PLAN_SERIES_LEN;
        ck_assert_double_eq_tol(mean, r->utilization, 1e-9);
        double q = 0;
        for (int b = 0; b < PLAN_SERIES_LEN; b++)
            q += r->queue_series[b] / PLAN_SERIES_LEN;
        ck_assert_double_eq_tol(q, st.mean_queue_len, 1e-6 * (1 + q));
        ck_assert_int_eq(r->n_classes, 30);
        /* the per-class figures add up to the team ones */
        for (int k = 0; k < r->n_teams; k++) {
            double gh = 0, lost = 0;
            int pre = 0, jobs = 0;
            for (int c = 0; c < r->n_classes; c++)
                if (strcmp(r->classes[c].team, r->teams[k].name) == 0) {
                    gh += r->classes[c].gpu_hours;
                    lost += r->classes[c].lost_gpu_hours;
                    pre += r->classes[c].preemptions;
                    jobs += r->classes[c].jobs;
                    ck_assert(r->classes[c].wait_hours_p50 <= r->classes[c].wait_hours_p95);
                    ck_assert(r->classes[c].wait_hours_p95 <= r->classes[c].wait_hours_max);
                }
            ck_assert_double_eq_tol(gh, r->teams[k].gpu_hours, 1e-6 * (1 + gh));
            ck_assert_double_eq_tol(lost, r->teams[k].lost_gpu_hours, 1e-6 * (1 + lost));
            ck_assert_int_eq(pre, r->teams[k].preemptions);
            ck_assert_int_eq(jobs, r->teams[k].jobs);
        }
        free(r);
        free(p);
    }
}
END_TEST

/* Property run: 400 random small plans (pool 1–200 GPUs, H100 or NVL72
 * geometry, every policy, preemption / backfill / failures on or off,
 * quotas, borrowing limits, gangs, elastic, MIG, fractional) — every
 * invariant holds and every job is accounted for.  Fixed seed: the same
 * 400 plans every time. */
START_TEST(invariants_hold_on_random_small_plans)
{
    SchedRng g;
    sched_rng_seed(&g, 20261130);
    const char *migs[] = {"1g.10gb", "3g.40gb", "7g.80gb", "2g.20gb"};
    for (int it = 0; it < 400; it++) {
        Plan *p = new_plan((SchedPolicy)sched_rng_below(&g, 3), 1 + (int)sched_rng_below(&g, 200),
                           10 + 300 * sched_rng_uniform(&g));
        strcpy(p->accelerator, sched_rng_uniform(&g) < 0.5 ? "H100-SXM" : "GB200");
        p->tenancy.preemption = sched_rng_uniform(&g) < 0.6;
        p->tenancy.backfill = sched_rng_uniform(&g) < 0.7;
        p->tenancy.mtbf_gpu_h = sched_rng_uniform(&g) < 0.5 ? 0 : 200 + 5000 * sched_rng_uniform(&g);
        p->tenancy.restore_s = 1800 * sched_rng_uniform(&g);
        p->tenancy.seed = (uint64_t)it;
        p->network.topology = sched_rng_uniform(&g) < 0.5 ? TOPO_FAT_TREE : TOPO_RAIL_OPTIMIZED;
        p->network.switch_ports = 8 + (int)sched_rng_below(&g, 60);
        int nt = 1 + (int)sched_rng_below(&g, 5);
        for (int k = 0; k < nt; k++) {
            char name[16];
            snprintf(name, sizeof name, "t%d", k);
            Team *t = add_team(p, name, 0.5 + 3 * sched_rng_uniform(&g),
                               (int)sched_rng_below(&g, (uint64_t)(p->tenancy.gpus / nt + 1)),
                               sched_rng_uniform(&g) < 0.5 ? -1 : (int)sched_rng_below(&g, 50));
            int nc = 1 + (int)sched_rng_below(&g, 4);
            for (int c = 0; c < nc; c++) {
                JobClass *j = add_class(t, "c", 2.5 * sched_rng_uniform(&g), 1,
                                        0.1 + 20 * sched_rng_uniform(&g),
                                        (DurationDist)sched_rng_below(&g, 3));
                j->cv = 3 * sched_rng_uniform(&g);
                j->priority = (JobPriority)sched_rng_below(&g, 3);
                double kind = sched_rng_uniform(&g);
                if (kind < 0.4) {
                    j->gpus = 1 + (int)sched_rng_below(&g, 8);
                } else if (kind < 0.55) {
                    j->gpus = 8 + (int)sched_rng_below(&g, 64);
                } else if (kind < 0.7) {
                    j->gpus = 0;
                    j->min_gpus = 1 + (int)sched_rng_below(&g, 4);
                    j->max_gpus = j->min_gpus + (int)sched_rng_below(&g, 16);
                } else if (kind < 0.85) {
                    strcpy(j->mig, migs[sched_rng_below(&g, 4)]);
                } else {
                    j->gpus = 0.05 + 0.9 * sched_rng_uniform(&g);
                }
            }
        }
        SchedStats st;
        ScheduleResult *r = run(p, 0, &st); /* asserts no invariant violation */
        ck_assert_int_eq(r->jobs_submitted, r->jobs_completed + st.jobs_running + st.jobs_queued);
        ck_assert(r->utilization <= 1 + 1e-9 && r->goodput <= 1 + 1e-9);
        free(r);
        free(p);
    }
}
END_TEST

/* ------------------------------------------------------------ kept reservation */

/* Passes the default runs of assert_same_schedule() skipped after arrivals. */
static uint64_t g_skipped;
/* Backfill team windows those runs passed over at once (kept windows). */
static uint64_t g_windows_skipped;
/* Team orders the CHECK runs kept (and compared with a full sort). */
static uint64_t g_orders_kept;
/* Kept windows the default runs updated in place. */
static uint64_t g_windows_updated;
/* Backfill candidates the default runs passed over as late. */
static uint64_t g_late_skipped;
/* Backfills the default runs passed over whole (the same windows again). */
static uint64_t g_backfills_skipped;
/* Preemption attempts the default runs failed without releasing victims. */
static uint64_t g_preempt_skipped;

/* Runs p as the reference (a pass after every event, the backfill
 * reservation walked afresh on every pass) and as the default (reservation
 * kept between passes, checked against a walk on every pass; passes after
 * arrivals that start nothing skipped): the schedules must be identical
 * start for start. */
static void assert_same_schedule(const Plan *p, int gpus, uint64_t *kept)
{
    ScheduleResult *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    SchedStats sa, sb;
    ck_assert_int_eq(sched_simulate_with(p, &g_cat, NULL, gpus, SCHED_RES_REFERENCE, a, &sa), 0);
    ck_assert_int_eq(sched_simulate_with(p, &g_cat, NULL, gpus, SCHED_RES_CHECK, b, &sb), 0);
    ck_assert_uint_eq(sb.reservation_mismatches, 0);
    ck_assert_uint_eq(sb.window_mismatches, 0);
    ck_assert_uint_eq(sb.order_mismatches, 0);
    ck_assert_uint_eq(sa.reservations_kept, 0);
    ck_assert_uint_eq(sa.windows_skipped, 0);
    ck_assert_uint_eq(sa.passes_skipped, 0);
    ck_assert_uint_eq(sa.start_digest, sb.start_digest);
    /* a skipped pass computes no reservation; every other one the same */
    ck_assert_uint_ge(sa.reservations, sb.reservations);
    ck_assert_uint_eq(sa.backfilled, sb.backfilled);
    ck_assert_uint_eq(sa.backfill_delays, sb.backfill_delays);
    ck_assert_double_eq(a->utilization, b->utilization);
    ck_assert_double_eq(sa.mean_wait_s, sb.mean_wait_s);
    ck_assert_int_eq(a->jobs_completed, b->jobs_completed);
    /* and the default run (kept, no checking walk) is the same again */
    ScheduleResult *c = calloc(1, sizeof *c);
    ck_assert_ptr_nonnull(c);
    SchedStats sc;
    ck_assert_int_eq(sched_simulate(p, &g_cat, NULL, gpus, c, &sc), 0);
    ck_assert_uint_eq(sa.start_digest, sc.start_digest);
    *kept += sc.reservations_kept;
    ck_assert_uint_eq(sc.passes_skipped, sb.passes_skipped);
    ck_assert_uint_eq(sc.windows_skipped, sb.windows_skipped);
    ck_assert_uint_eq(sc.late_skipped, sb.late_skipped);
    ck_assert_uint_eq(sa.late_skipped, 0);
    ck_assert_uint_eq(sc.backfills_skipped, sb.backfills_skipped);
    ck_assert_uint_eq(sa.backfills_skipped, 0);
    g_skipped += sc.passes_skipped;
    g_late_skipped += sc.late_skipped;
    g_backfills_skipped += sc.backfills_skipped;
    ck_assert_uint_eq(sa.preempt_trials_skipped, 0);
    ck_assert_uint_eq(sc.preempt_trials_skipped, sb.preempt_trials_skipped);
    g_preempt_skipped += sc.preempt_trials_skipped;
    g_windows_skipped += sc.windows_skipped;
    ck_assert_uint_eq(sa.windows_updated, 0);
    g_windows_updated += sc.windows_updated;
    g_orders_kept += sb.orders_kept;
    ck_assert_uint_eq(sa.orders_kept, 0);
    free(a);
    free(b);
    free(c);
}

/* Random queues: policies, team quotas and borrowing, gangs of 1-64 GPUs
 * on 8- and 4-GPU nodes, priorities, preemption, failures, elastic, MIG
 * and fractional jobs, loads from light to overloaded. */
START_TEST(kept_reservation_schedules_exactly_like_the_walk_on_random_queues)
{
    SchedRng g;
    sched_rng_seed(&g, 1414);
    const char *migs[] = {"1g.10gb", "3g.40gb", "7g.80gb", "2g.20gb"};
    uint64_t kept = 0;
    g_skipped = 0;
    g_windows_skipped = 0;
    g_windows_updated = 0;
    g_orders_kept = 0;
    g_late_skipped = 0;
    g_backfills_skipped = 0;
    g_preempt_skipped = 0;
    for (int it = 0; it < 150; it++) {
        Plan *p = new_plan((SchedPolicy)sched_rng_below(&g, 3), 8 + (int)sched_rng_below(&g, 400),
                           50 + 400 * sched_rng_uniform(&g));
        strcpy(p->accelerator, sched_rng_uniform(&g) < 0.6 ? "H100-SXM" : "GB200");
        p->tenancy.backfill = true;
        p->tenancy.preemption = sched_rng_uniform(&g) < 0.3;
        p->tenancy.mtbf_gpu_h = sched_rng_uniform(&g) < 0.6 ? 0 : 500 + 5000 * sched_rng_uniform(&g);
        p->tenancy.seed = (uint64_t)it;
        p->network.switch_ports = 8 + (int)sched_rng_below(&g, 60);
        bool shared = sched_rng_uniform(&g) < 0.2, elastic = sched_rng_uniform(&g) < 0.2;
        int nt = 1 + (int)sched_rng_below(&g, 6);
        double load = 0.7 + 0.6 * sched_rng_uniform(&g); /* offered / pool */
        for (int k = 0; k < nt; k++) {
            char name[16];
            snprintf(name, sizeof name, "t%d", k);
            Team *t = add_team(p, name, 0.5 + 3 * sched_rng_uniform(&g),
                               (int)sched_rng_below(&g, (uint64_t)(p->tenancy.gpus / nt + 1)),
                               sched_rng_uniform(&g) < 0.6 ? -1 : (int)sched_rng_below(&g, 200));
            int nc = 1 + (int)sched_rng_below(&g, 4);
            for (int c = 0; c < nc; c++) {
                static const double sizes[] = {1, 1, 2, 4, 8, 8, 16, 32, 64};
                double gp = sizes[sched_rng_below(&g, 9)];
                double hours = 0.2 + 10 * sched_rng_uniform(&g);
                /* rate so the classes together offer `load` of the pool */
                double rate = load * p->tenancy.gpus / (nt * nc) / (gp * hours);
                JobClass *j = add_class(t, "c", rate, gp, hours,
                                        (DurationDist)sched_rng_below(&g, 3));
                j->cv = 2 * sched_rng_uniform(&g);
                j->priority = (JobPriority)sched_rng_below(&g, 3);
                double kind = sched_rng_uniform(&g);
                if (shared && kind < 0.3) {
                    strcpy(j->mig, migs[sched_rng_below(&g, 4)]);
                } else if (shared && kind < 0.5) {
                    j->gpus = 0.05 + 0.9 * sched_rng_uniform(&g);
                } else if (elastic && kind < 0.3) {
                    j->gpus = 0;
                    j->min_gpus = 1 + (int)sched_rng_below(&g, 4);
                    j->max_gpus = j->min_gpus + (int)sched_rng_below(&g, 16);
                }
            }
        }
        assert_same_schedule(p, 0, &kept);
        free(p);
    }
    ck_assert_uint_gt(kept, 10000); /* the kept path did the work */
    ck_assert_uint_gt(g_skipped, 10000); /* and arrivals skipped passes */
    ck_assert_uint_gt(g_windows_skipped, 10000); /* and backfill passed over kept windows */
    ck_assert_uint_gt(g_windows_updated, 10000); /* updated in place, CHECK-compared on use */
    ck_assert_uint_gt(g_orders_kept, 10000); /* and passes kept the team order */
    ck_assert_uint_gt(g_late_skipped, 1000); /* and backfill passed over late candidates */
    ck_assert_uint_gt(g_backfills_skipped, 1000); /* and whole backfills seen before */
    /* and preemption failed short heads without a trial (the bucket order
     * the trial leaves reproduced: the digests above agree) */
    ck_assert_uint_gt(g_preempt_skipped, 100);
}
END_TEST

/* Random traces replayed on small pools: bursts, heavy-tailed run times and
 * gangs up to 32 GPUs, fifo and fair-share. */
START_TEST(kept_reservation_schedules_exactly_like_the_walk_on_random_traces)
{
    SchedRng g;
    sched_rng_seed(&g, 99);
    uint64_t kept = 0;
    for (int it = 0; it < 40; it++) {
        size_t n = 500 + sched_rng_below(&g, 3000);
        TraceJob *jobs = calloc(n, sizeof *jobs);
        ck_assert_ptr_nonnull(jobs);
        double t = 0;
        int teams = 1 + (int)sched_rng_below(&g, 4);
        for (size_t i = 0; i < n; i++) {
            static const double sizes[] = {1, 1, 1, 2, 4, 8, 8, 16, 32};
            t += sched_rng_uniform(&g) < 0.1 ? 0 : sched_rng_exp(&g, 120);
            jobs[i].submit_s = t;
            jobs[i].duration_s = sched_rng_lognormal(&g, 3600, 3);
            jobs[i].gpus = sizes[sched_rng_below(&g, 9)];
            jobs[i].team = (int)sched_rng_below(&g, (uint64_t)teams);
            jobs[i].priority = PRIO_NORMAL;
        }
        Plan *p = trace_plan(it % 2 ? POLICY_FAIR_SHARE : POLICY_FIFO, 32 + (int)sched_rng_below(&g, 96),
                             jobs, n, teams);
        p->tenancy.backfill = true;
        assert_same_schedule(p, 0, &kept);
        free(p);
        free(jobs);
    }
    ck_assert_uint_gt(kept, 1000);
}
END_TEST

/* 1-GPU jobs only: the head is blocked only when no GPU is free, so the
 * fragmentation (free GPUs the head cannot use) is exactly 0. */
/* A light generated mix drains long before the horizon; the pool stays
 * installed and idle to the horizon, so the utilisation is the GPU-hours
 * used over the pool's GPU-hours (the sparkline's mean), not over the time
 * to the last completion (session 40: 1 job of 0.6 GPU-h on 8 GPUs over
 * 3 days read 4.1 % against a sparkline of 0.1 %). */
START_TEST(a_light_generated_mix_is_idle_to_the_horizon)
{
    Plan *p = new_plan(POLICY_FIFO, 8, 30 * 24);
    Team *t = add_team(p, "a", 1, 0, -1);
    add_class(t, "rare", 0.5 / 24, 1, 2, DUR_FIXED);
    SchedStats st;
    ScheduleResult *r = run(p, 0, &st);
    ck_assert_int_gt(r->jobs_submitted, 5);
    ck_assert_int_eq(r->jobs_completed, r->jobs_submitted); /* drained */
    double used = 0, mean = 0;
    for (int k = 0; k < r->n_teams; k++)
        used += r->teams[k].gpu_hours;
    ck_assert_double_eq_tol(r->utilization, used / (8 * 30 * 24.0), 1e-9);
    for (int b = 0; b < PLAN_SERIES_LEN; b++)
        mean += r->util_series[b] / PLAN_SERIES_LEN;
    ck_assert_double_eq_tol(mean, r->utilization, 1e-9);
    free(r);
    free(p);
}
END_TEST

START_TEST(fragmentation_is_zero_when_every_job_fits_any_gpu)
{
    Plan *p = new_plan(POLICY_FIFO, 16, 500);
    add_class(add_team(p, "a", 1, 0, -1), "j", 20, 1, 1, DUR_EXPONENTIAL);
    ScheduleResult *r = run(p, 0, NULL);
    ck_assert_double_eq(r->fragmentation, 0);
    ck_assert(r->utilization > 0.9);
    free(r);
    free(p);
}
END_TEST

/* The generator draws lognormal run times from mu and sigma computed once
 * per class: the very doubles sched_rng_lognormal() gives from the mean and
 * cv on every draw (the schedules' digests depend on it). */
/* The event heap pops in (time, insertion) order under any interleaving of
 * pushes and pops, ties in time included: checked against a brute-force
 * minimum over the live events.  Times span negative, zero (both signs),
 * subnormal and huge values: the events' integer keys must order as the
 * doubles do and give back the same double. */
START_TEST(event_heap_pops_in_time_then_insertion_order)
{
    enum { N = 20000 };
    static const double odd[] = {-0.0, 0.0, -1e300, 1e300, 4.9e-324, -4.9e-324, 2.2e-308,
                                 1.0, 1.0 + 2.2e-16, 86400.0, 3.5, -3.5};
    typedef struct {
        double t;
        uint64_t seq;
        uint32_t job;
    } Ref;
    SchedHeap h = {0};
    Ref *ref = malloc(N * sizeof *ref);
    ck_assert_ptr_nonnull(ref);
    size_t nref = 0;
    uint64_t seq = 0;
    SchedRng g;
    sched_rng_seed(&g, 7);
    int popped = 0;
    for (int step = 0; step < 3 * N; step++) {
        bool push = nref == 0 || (nref < N && sched_rng_below(&g, 100) < 55);
        if (push) {
            /* few distinct times: many ties, ordered by insertion */
            double t = step % 5 == 0 ? odd[sched_rng_below(&g, sizeof odd / sizeof *odd)]
                                     : (double)sched_rng_below(&g, 64);
            uint32_t job = (uint32_t)step;
            ck_assert_uint_eq(h.seq, seq);
            ck_assert_int_eq(sched_heap_push(&h, t, job), 0);
            ref[nref++] = (Ref){.t = t, .seq = seq++, .job = job};
        } else {
            size_t m = 0;
            for (size_t i = 1; i < nref; i++)
                if (ref[i].t < ref[m].t || (ref[i].t == ref[m].t && ref[i].seq < ref[m].seq))
                    m = i;
            SchedEvent e = sched_heap_pop(&h);
            ck_assert_uint_eq(sched_ev_job(&e), ref[m].job);
            ck_assert_uint_eq(sched_ev_seq(&e), ref[m].seq);
            ck_assert(sched_ev_time(&e) == ref[m].t);
            ref[m] = ref[--nref];
            popped++;
        }
        ck_assert_uint_eq(h.n, nref);
        /* every node's four children share one 64-byte line */
        ck_assert_uint_eq((uintptr_t)&h.a[1] % 64, 0);
    }
    ck_assert_int_gt(popped, N);
    /* the keys order as the doubles (equal doubles: equal keys) */
    for (int i = 0; i < 200000; i++) {
        uint64_t ba = sched_rng_next(&g), bb = i % 3 ? sched_rng_next(&g) : ba ^ (i & 7);
        double a, b;
        memcpy(&a, &ba, sizeof a);
        memcpy(&b, &bb, sizeof b);
        if (a != a || b != b)
            continue; /* NaN: never a finish time */
        uint64_t ka = sched_time_key(a), kb = sched_time_key(b);
        ck_assert_int_eq(ka < kb, a < b);
        ck_assert_int_eq(ka == kb, a == b);
        ck_assert(sched_key_time(ka) == a);
    }
    /* a job index past the id's bits, or the sequence at its limit: refused */
    ck_assert_int_eq(sched_heap_push(&h, 1.0, 1U << SCHED_EV_JOB_BITS), -1);
    h.seq = SCHED_EV_SEQ_MAX;
    ck_assert_int_eq(sched_heap_push(&h, 1.0, 0), -1);
    h.seq = SCHED_EV_SEQ_MAX - 1;
    ck_assert_int_eq(sched_heap_push(&h, 1.0, 0), 0);
    sched_heap_free(&h);
    free(ref);
}
END_TEST

START_TEST(lognormal_from_kept_parameters_is_bit_identical)
{
    static const double means[] = {1.0, 3600.0, 7.3e4, 0.01};
    static const double cvs[] = {0.1, 1.0, 2.5, 40.0};
    for (int m = 0; m < 4; m++)
        for (int c = 0; c < 4; c++) {
            SchedRng a, b;
            sched_rng_seed(&a, (uint64_t)(17 + m * 4 + c));
            sched_rng_seed(&b, (uint64_t)(17 + m * 4 + c));
            SchedLognormal p = sched_lognormal_params(means[m], cvs[c]);
            for (int i = 0; i < 1000; i++) {
                double x = sched_rng_lognormal(&a, means[m], cvs[c]);
                double y = sched_rng_lognormal_p(&b, &p);
                ck_assert(memcmp(&x, &y, sizeof x) == 0);
            }
        }
}
END_TEST

/* The generator: Poisson counts (sd √N), and run times with the class's
 * mean and coefficient of variation.  200,000 draws: the mean's standard
 * error is cv/√N ≈ 0.22 %, the sd's a few times that for a lognormal of
 * cv 1 (its kurtosis is large); tolerances 1.5 % and 6 %. */
START_TEST(generator_matches_rate_mean_and_cv)
{
    DurationDist d[] = {DUR_LOGNORMAL, DUR_EXPONENTIAL, DUR_FIXED};
    double cvs[] = {1.0, 1.0, 0.0};
    for (int k = 0; k < 3; k++) {
        Plan *p = new_plan(POLICY_FIFO, 8, 20000);
        JobClass *j = add_class(add_team(p, "a", 1, 0, -1), "j", 10, 1, 3, d[k]);
        j->cv = 1.0;
        SchedWorkload w;
        ck_assert_int_eq(sched_workload_build(p, &g_acc[0], NULL, 1, &w), 0);
        double n_exp = 10.0 * 20000;
        ck_assert_double_eq_tol((double)w.n, n_exp, 4 * sqrt(n_exp));
        double s = 0, s2 = 0;
        for (size_t i = 0; i < w.n; i++) {
            s += w.jobs[i].dur;
            s2 += w.jobs[i].dur * w.jobs[i].dur;
            if (i > 0)
                ck_assert(w.jobs[i].submit >= w.jobs[i - 1].submit);
        }
        double mean = s / w.n, sd = sqrt(s2 / w.n - mean * mean);
        ck_assert_double_eq_tol(mean, 3 * 3600, 0.015 * 3 * 3600);
        ck_assert_double_eq_tol(sd / mean, cvs[k], 0.06);
        sched_workload_free(&w);
        free(p);
    }
}
END_TEST

/* ------------------------------------------------------------ placement */

static int node_count(const SchedCluster *cl, const int32_t *g, int n)
{
    int seen[4096] = {0}, k = 0;
    for (int i = 0; i < n; i++) {
        int nd = sched_node_of(cl, g[i]);
        if (!seen[nd]++)
            k++;
    }
    return k;
}

START_TEST(placement_is_best_fit_within_one_node)
{
    SchedCluster cl;
    ck_assert_int_eq(sched_cluster_init(&cl, 32, 8, 8, 32, &g_acc[0]), 0);
    int32_t g[16];
    ck_assert(sched_place_whole(&cl, 4, -1, g));
    int n0 = sched_node_of(&cl, g[0]);
    ck_assert_int_eq(node_count(&cl, g, 4), 1);
    /* best fit: the next 4 go into the half-full node, keeping 3 nodes whole */
    ck_assert(sched_place_whole(&cl, 4, -1, g));
    ck_assert_int_eq(sched_node_of(&cl, g[0]), n0);
    ck_assert_int_eq(node_count(&cl, g, 4), 1);
    ck_assert(sched_place_whole(&cl, 1, -1, g));
    ck_assert(sched_place_whole(&cl, 8, -1, g)); /* still a whole node left */
    ck_assert_int_eq(node_count(&cl, g, 8), 1);
    /* 7 free on one node, 8 on another: a 7-GPU job takes the 7 */
    ck_assert(sched_place_whole(&cl, 7, -1, g));
    ck_assert_int_eq(cl.total_free, 8);
    ck_assert(sched_place_whole(&cl, 8, -1, g));
    ck_assert_int_eq(cl.total_free, 0);
    ck_assert(!sched_place_whole(&cl, 1, -1, g));
    ck_assert_uint_eq(cl.double_booked, 0);
    sched_cluster_free(&cl);
}
END_TEST

START_TEST(placement_keeps_gangs_in_one_nvlink_domain_or_fewest_leaves)
{
    /* NVL72: 4-GPU trays, 72-GPU domains; 144 GPUs = 2 domains */
    SchedCluster cl;
    ck_assert_int_eq(sched_cluster_init(&cl, 144, 4, 72, 32, &g_acc[1]), 0);
    int32_t g[72];
    ck_assert(sched_place_whole(&cl, 2, -1, g)); /* dents domain 0 */
    ck_assert(sched_place_whole(&cl, 64, -1, g));
    int d0 = sched_node_of(&cl, g[0]) / cl.nodes_per_dom;
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(sched_node_of(&cl, g[i]) / cl.nodes_per_dom, d0);
    ck_assert_int_eq(node_count(&cl, g, 64), 16);
    sched_cluster_free(&cl);

    /* fat tree: 8-GPU nodes, 32-GPU leaves; a 24-GPU gang lands in one leaf
     * even though it could straddle two */
    ck_assert_int_eq(sched_cluster_init(&cl, 128, 8, 8, 32, &g_acc[0]), 0);
    ck_assert(sched_place_whole(&cl, 8, -1, g));  /* that leaf now has 24 free */
    int l0 = sched_node_of(&cl, g[0]) / cl.nodes_per_leaf;
    ck_assert(sched_place_whole(&cl, 16, -1, g)); /* best-fit leaf: the same */
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(sched_node_of(&cl, g[i]) / cl.nodes_per_leaf, l0);
    ck_assert(sched_place_whole(&cl, 64, -1, g)); /* needs two whole leaves */
    int leaves[8] = {0}, nl = 0;
    for (int i = 0; i < 64; i++) {
        int l = sched_node_of(&cl, g[i]) / cl.nodes_per_leaf;
        if (!leaves[l]++)
            nl++;
    }
    ck_assert_int_eq(nl, 2);
    ck_assert_int_eq(node_count(&cl, g, 64), 8);
    sched_cluster_free(&cl);
}
END_TEST

START_TEST(leaf_group_follows_switch_ports_and_topology)
{
    Plan *p = new_plan(POLICY_FIFO, 8, 1);
    p->network.switch_ports = 64;
    p->network.oversubscription = 1;
    p->network.topology = TOPO_FAT_TREE;
    ck_assert_int_eq(sched_leaf_gpus(p, 8), 32);   /* 32 down ports */
    p->network.oversubscription = 3;
    ck_assert_int_eq(sched_leaf_gpus(p, 8), 48);   /* 3:1 → 48 down */
    p->network.oversubscription = 1;
    p->network.topology = TOPO_RAIL_OPTIMIZED;
    ck_assert_int_eq(sched_leaf_gpus(p, 8), 256);  /* 32 nodes per rail group */
    free(p);
}
END_TEST

/* Two clusters hold the same state: every count, mask, the max tree and
 * the free-count buckets' lists node for node (best fit breaks ties by
 * list order, so the order is part of the schedule). */
static void assert_same_cluster(const SchedCluster *a, const SchedCluster *b)
{
    ck_assert_int_eq(a->total_free, b->total_free);
    ck_assert_uint_eq(a->double_booked, b->double_booked);
    ck_assert_uint_eq(a->bk_mask, b->bk_mask);
    for (int n = 0; n < a->n_nodes; n++) {
        ck_assert_int_eq(a->node_free[n], b->node_free[n]);
        ck_assert_uint_eq(a->node_mask[n], b->node_mask[n]);
        ck_assert_int_eq(a->bk_next[n], b->bk_next[n]);
        ck_assert_int_eq(a->bk_prev[n], b->bk_prev[n]);
    }
    for (int k = 0; k <= a->gpn; k++)
        ck_assert_int_eq(a->bk_head[k], b->bk_head[k]);
    for (int n = 0; n < (a->n_nodes + 63) / 64; n++)
        ck_assert_uint_eq(a->node_any[n], b->node_any[n]);
    for (int l = 0; l < a->n_leaf; l++) {
        ck_assert_int_eq(a->leaf_free[l], b->leaf_free[l]);
        ck_assert_int_eq(a->leaf_full[l], b->leaf_full[l]);
    }
    for (int d = 0; d < a->n_dom; d++) {
        ck_assert_int_eq(a->dom_free[d], b->dom_free[d]);
        ck_assert_int_eq(a->dom_full[d], b->dom_full[d]);
    }
    for (int k = 1; k < 2 * a->leaf_tsz; k++)
        ck_assert_int_eq(a->leaf_tree[k], b->leaf_tree[k]);
}

/* sched_take_gpus (a node run at a time) leaves what one sched_take_gpu per
 * GPU leaves, double-booked GPUs included; sched_relink_gpus what a release
 * and retake of taken GPUs leave (preempt_for's trial without the trial).
 * Random gangs placed and released on 8-GPU nodes in NVL72-style domains
 * and 4-node leaves, the GPU lists as placement writes them (runs of a
 * node) and shuffled. */
START_TEST(batched_take_and_relink_leave_the_per_gpu_state)
{
    SchedRng g;
    sched_rng_seed(&g, 2026);
    for (int it = 0; it < 200; it++) {
        SchedCluster a, b;
        int gpn = it % 2 ? 8 : 4, G = gpn * (8 + (int)sched_rng_below(&g, 40));
        int gpd = it % 3 ? gpn : 72, gpl = gpn * 4;
        ck_assert_int_eq(sched_cluster_init(&a, G, gpn, gpd, gpl, &g_acc[0]), 0);
        ck_assert_int_eq(sched_cluster_init(&b, G, gpn, gpd, gpl, &g_acc[0]), 0);
        int32_t *own_a = malloc((size_t)G * sizeof *own_a), *own_b = malloc((size_t)G * sizeof *own_b);
        int32_t held[64][64];
        int nh[64] = {0}, nj = 0;
        ck_assert_ptr_nonnull(own_a);
        ck_assert_ptr_nonnull(own_b);
        for (int i = 0; i < G; i++)
            own_a[i] = own_b[i] = -1;
        for (int step = 0; step < 60; step++) {
            int op = (int)sched_rng_below(&g, 4);
            if (op <= 1 && nj < 64) { /* place a gang on a, take the same GPUs on b */
                int k = 1 + (int)sched_rng_below(&g, 40);
                if (!sched_place_whole(&a, k, -1, held[nj]))
                    continue;
                for (int i = 0; i < k; i++)
                    own_a[held[nj][i]] = nj;
                if (op == 1) /* not in node runs */
                    for (int i = k - 1; i > 0; i--) {
                        int r = (int)sched_rng_below(&g, (uint64_t)i + 1);
                        int32_t t = held[nj][i];
                        held[nj][i] = held[nj][r];
                        held[nj][r] = t;
                    }
                sched_take_gpus(&b, held[nj], k, own_b, nj);
                /* a's per-GPU equivalent: release the placement, retake GPU by GPU */
                sched_release_gpus(&a, held[nj], k, NULL);
                for (int i = 0; i < k; i++)
                    sched_take_gpu(&a, held[nj][i]);
                nh[nj++] = k;
            } else if (op == 2 && nj > 0) { /* relink vs release + retake */
                int v = (int)sched_rng_below(&g, (uint64_t)nj);
                sched_release_gpus(&a, held[v], nh[v], own_a);
                sched_take_gpus(&a, held[v], nh[v], own_a, v);
                ck_assert(sched_gpus_taken(&b, held[v], nh[v]));
                sched_relink_gpus(&b, held[v], nh[v]);
            } else if (op == 3 && nj > 0) { /* a job ends */
                int v = (int)sched_rng_below(&g, (uint64_t)nj);
                sched_release_gpus(&a, held[v], nh[v], own_a);
                sched_release_gpus(&b, held[v], nh[v], own_b);
                ck_assert(!sched_gpus_taken(&b, held[v], 1));
                memcpy(held[v], held[nj - 1], sizeof held[v]);
                nh[v] = nh[--nj];
                for (int i = 0; i < nh[v] && v < nj; i++)
                    own_a[held[v][i]] = own_b[held[v][i]] = v;
            }
            assert_same_cluster(&a, &b);
            ck_assert_int_eq(memcmp(own_a, own_b, (size_t)G * sizeof *own_a), 0);
        }
        /* a GPU taken twice counts as double-booked, like sched_take_gpu */
        if (nj > 0) {
            sched_take_gpus(&b, held[0], nh[0], NULL, 0);
            for (int i = 0; i < nh[0]; i++)
                sched_take_gpu(&a, held[0][i]);
            ck_assert_uint_eq(b.double_booked, (uint64_t)nh[0]);
            assert_same_cluster(&a, &b);
        }
        free(own_a);
        free(own_b);
        sched_cluster_free(&a);
        sched_cluster_free(&b);
    }
}
END_TEST

Suite *test_suite(void)
{
    setup_catalog();
    Suite *s = suite_create("sched");
    TCase *o = tcase_create("oracles");
    tcase_set_timeout(o, 120);
    tcase_add_test(o, erlang_c_mm8_matches_theory);
    tcase_add_test(o, littles_law_holds_for_every_policy);
    tcase_add_test(o, gang_fifo_utilisation_is_six_sevenths);
    tcase_add_test(o, fair_share_splits_by_quota_and_weight);
    tcase_add_test(o, young_interval_is_242_minutes);
    tcase_add_test(o, gpu_failures_follow_mtbf_and_cost_goodput);
    tcase_add_test(o, failures_lose_half_a_young_interval_on_average);
    suite_add_tcase(s, o);
    TCase *c = tcase_create("contracts");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, backfill_never_delays_the_reserved_head);
    tcase_add_test(c, backfill_reserves_a_node_for_a_single_node_head);
    tcase_add_test(c, backfill_keeps_the_heads_borrowing_headroom);
    tcase_add_test(c, backfill_keeps_reservations_under_random_load);
    tcase_add_test(c, priority_preemption_evicts_lowest_and_charges_lost_work);
    tcase_add_test(c, under_quota_team_reclaims_from_borrower_down_to_its_quota);
    tcase_add_test(c, fair_share_preemption_never_leaves_victim_below_preemptor);
    tcase_add_test(c, same_seed_gives_identical_results);
    tcase_add_test(c, capacity_search_is_minimal_and_monotonic);
    tcase_add_test(c, capacity_search_stops_when_more_gpus_do_not_help);
    tcase_add_test(c, a_class_that_never_runs_misses_the_wait_target);
    tcase_add_test(c, capacity_search_holds_the_teams_quotas);
    tcase_add_test(c, fixed_pool_runs_as_given_and_auto_without_search_is_sized_by_load);
    tcase_add_test(c, no_teams_and_no_trace_means_not_ran_and_all_zero);
    tcase_add_test(c, absurd_job_rates_are_refused_with_a_warning);
    tcase_add_test(c, a_job_mix_over_the_budget_is_sampled_to_a_window);
    tcase_add_test(c, a_cancel_flag_stops_the_job_generator);
    tcase_add_test(c, non_finite_and_huge_inputs_are_survived);
    tcase_add_test(c, mig_slices_pack_per_catalog_profile);
    tcase_add_test(c, missing_mig_profile_falls_back_to_a_fraction_with_a_warning);
    tcase_add_test(c, fractional_jobs_share_one_gpu);
    tcase_add_test(c, elastic_jobs_grow_into_idle_gpus_and_shrink_before_preemption);
    tcase_add_test(c, a_teams_elastic_growth_is_given_back_to_its_own_jobs);
    tcase_add_test(c, cancel_flag_stops_the_run);
    tcase_add_test(c, invariants_hold_on_a_big_random_run);
    tcase_add_test(c, invariants_hold_on_random_small_plans);
    tcase_add_test(c, kept_reservation_schedules_exactly_like_the_walk_on_random_queues);
    tcase_add_test(c, kept_reservation_schedules_exactly_like_the_walk_on_random_traces);
    tcase_add_test(c, fragmentation_is_zero_when_every_job_fits_any_gpu);
    tcase_add_test(c, a_light_generated_mix_is_idle_to_the_horizon);
    tcase_add_test(c, generator_matches_rate_mean_and_cv);
    tcase_add_test(c, lognormal_from_kept_parameters_is_bit_identical);
    tcase_add_test(c, event_heap_pops_in_time_then_insertion_order);
    suite_add_tcase(s, c);
    TCase *pl = tcase_create("placement");
    /* the batched take / relink differential test builds 200 random clusters
     * (about 4 s on a loaded 2-core machine, Check's default limit) */
    tcase_set_timeout(pl, 120);
    tcase_add_test(pl, placement_is_best_fit_within_one_node);
    tcase_add_test(pl, placement_keeps_gangs_in_one_nvlink_domain_or_fewest_leaves);
    tcase_add_test(pl, leaf_group_follows_switch_ports_and_topology);
    tcase_add_test(pl, batched_take_and_relink_leave_the_per_gpu_state);
    suite_add_tcase(s, pl);
    return s;
}
