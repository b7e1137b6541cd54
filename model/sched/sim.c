/* model/sched/sim.c — the discrete-event loop, the policies (fifo,
 * fair-share, priority), gang starts, EASY backfill, preemption, elastic
 * jobs, failures and the metrics (SCHEDULER.md).
 *
 * Events: job finishes live in one 4-ary heap (heap.c); arrivals are read
 * in order from the pre-generated job array and GPU failures from one
 * exponential clock for the whole pool, so the heap holds only running
 * jobs.  After every event one scheduling pass runs; nothing is time-stepped.
 *
 * Work model: a job's work is GPU-equivalents × run time (GPU-seconds).  It
 * progresses at rate (GPUs held) × f, where f = τ/(τ+δ) spreads the cost δ
 * of a checkpoint every τ (Young) over the run — the fluid form of periodic
 * checkpointing; jobs shorter than τ never checkpoint (f = 1).  A kill
 * (failure, preemption) rolls the job back to its last checkpoint and the
 * restart spends tenancy.restore before progressing again.  Elastic jobs
 * keep their work, so more GPUs finish them sooner.
 */
#include "config.h"

#include <float.h>
#include <stdint.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sched_int.h"

#define EPS 1e-9
/* The backfill scan looks at no more than BF_DEPTH queued jobs per pass,
 * team by team in policy order and at most max(BF_TEAM_MIN, BF_DEPTH /
 * teams waiting) from one team — Slurm's bf_max_job_test plays this role
 * (default 500 there; 64 keeps a pass O(1) for the bench's 100k jobs). */
#define BF_DEPTH 64
#define BF_TEAM_MIN 8
/* The reservation walks finish events in time order (best-first over the
 * heap) and gives up after RES_MAX of them: no backfill that pass. */
#define RES_MAX 8192
/* The cancel flag is polled every POLL_EVERY events.  An event of an
 * overloaded pool with backfill can walk RES_MAX finish events (~0.4 ms
 * measured on the budget plan of bench/bench_cancel), so 1024 events could
 * take 450 ms; 16 keep a cancel under ~10 ms (issue 17 D8: <= 100 ms), and
 * a relaxed atomic load per 16 events costs nothing measurable. */
#define POLL_EVERY 16

enum { JS_PENDING = 0, JS_QUEUED, JS_RUNNING, JS_DONE, JS_NEVER };

/* 96 bytes a job (a million of them in the big runs, read in arrival and
 * finish order, i.e. all over the array; see the assertion below). */
typedef struct {
    double wait;        /* time queued so far (all queueing spells) */
    union {             /* a job is queued, running or done, one at a time */
        double qsince;  /* queued: start of the current queueing spell */
        double seg_start; /* running: wall time the current run segment started */
        double finish;  /* done (JS_DONE): when it completed */
    };
    double prog_from;   /* progress starts here (after the restore) */
    double done0;       /* retained work at segment start, GPU-s (of job_work()) */
    double rate;        /* work per second while progressing */
    double fck;         /* checkpoint efficiency τ/(τ+δ), 1 = none (see ck_plan) */
    union {             /* queued or running, never both */
        double res_s;   /* queued: last reservation as blocked head, < 0 none */
        double start_t; /* running: latest start */
    };
    uint32_t res_irr;   /* irregular-event count when res_s was made (low 32 bits) */
    int32_t alloc;      /* whole GPUs held */
    int32_t sgpu;       /* shared jobs: their GPU */
    int32_t off;        /* GPUs held: gpool[off .. off+alloc) (sched_run checks
                         * that every job's slots fit in 32 bits) */
    int32_t qnext, qprev;
    int32_t ridx, eidx;
    uint32_t evseq;     /* running: its live finish event's sequence (low 32 bits) */
    uint8_t state;
    bool restarted;
} Job;
/* 96 bytes (was 128): the million-job array is 32 MB smaller, fewer fresh
 * pages for the kernel to zero and fewer cache lines per job touched. */
_Static_assert(sizeof(Job) <= 96, "Job: 96 bytes");
/* to_dirty holds one bit per team, the unassigned pseudo-team included */
_Static_assert(PLAN_MAX_TEAMS + 1 <= 64, "to_dirty: a bit per team");

/* A team's backfill scan window, kept between passes (see win_get()): the
 * first `len` queued jobs of the team in scan order (priority high to low,
 * then submit order), passing over `excl` (the blocked head when it is this
 * team's), with prefix summaries of the scan's cheap resource check:
 * pmin_node[i] / pmin_multi[i] = fewest GPUs of a single-node / multi-node
 * whole job among e[0..i] (INT32_MAX none), pshared[i] = a MIG or
 * fractional job among them.  The window ends at scan position
 * (end_prio, end_id); `complete`: it holds every such job of the team.
 * e[i].whole = the whole GPUs job e[i].id would take (a shared job: 1, see
 * bf_candidate); bit i of `late` = job e[i].id was found to run past the
 * reserved start late_S if started (see backfill()). */
/* A window position: the job (id), the whole GPUs it would take (whole),
 * and its own terms of the prefix summaries — gnode / gmulti: its GPUs if a
 * single-node / multi-node whole job, else INT32_MAX; shk: a shared job —
 * and its priority (the updates in place, win_cut and win_put, move
 * positions as one record and recompute the summaries from these). */
typedef struct {
    int32_t id, whole, gnode, gmulti;
    uint8_t shk, prio;
} WinEnt;

typedef struct {
    bool valid, complete;
    int8_t end_prio;
    int32_t end_id;
    int32_t excl;
    int len;
    WinEnt e[BF_DEPTH];
    int32_t pmin_node[BF_DEPTH], pmin_multi[BF_DEPTH];
    uint8_t pshared[BF_DEPTH];
    uint64_t late;
    double late_S;
    int cap;            /* the most positions kept: the length of the last walk */
} TeamWin;
_Static_assert(BF_DEPTH <= 64, "TeamWin.late: a bit per window position");

/* What the last backfill that passed over every team's window saw (see
 * backfill()): the teams, head and per-team length it scanned, at win_gen,
 * how many windows held jobs, their fewest GPUs of a single-node /
 * multi-node gang and whether one holds a shared job. */
typedef struct {
    bool valid, shared;
    int32_t head;
    int per_team, nonempty;
    int32_t min_node, min_multi;
    uint64_t teams, gen;
} BfSummary;

/* A team's place in the policy order, computed once per team and pass:
 * its head, whether the head keeps it within its quota, and its weighted
 * share of what it borrows. */
typedef struct {
    int team, head, prio;
    bool under;
    double share;
} TeamKey;

/* A preemption candidate's sort key (see vk_before). */
typedef struct {
    double start;
    int32_t id;
    int32_t rank;       /* (borrower ? 0 : 3) + priority: lower goes first */
} VKey;

typedef struct {
    const SchedWorkload *w;
    /* w->jobs, read by spec() millions of times a run: one load instead of
     * two (the compiler cannot keep s->w in a register across the stores
     * to the job records) */
    const SchedJobSpec *specs;
    const Plan *p;
    const EvalOptions *opt;
    SchedCluster cl;
    SchedHeap heap;
    Job *jobs;
    int32_t *gpool;
    int32_t *owner;     /* whole GPU → job, -1 */
    int32_t *running;
    int n_running;
    int32_t *elastic;
    int n_elastic;
    int elastic_extra;  /* GPUs held above elastic minimums */
    int team_extra[PLAN_MAX_TEAMS + 1]; /* the same, per team */
    size_t n, next_arrival;
    size_t n_alloc, slots_alloc; /* lengths of the sched_big_calloc arrays */
    double H, now, last_t;
    int nt;
    SchedPolicy policy;
    /* queues: per team, per priority, ordered by job index (= submit order) */
    int32_t qh[PLAN_MAX_TEAMS + 1][3], qt[PLAN_MAX_TEAMS + 1][3];
    int qn[PLAN_MAX_TEAMS + 1];
    int qnp[PLAN_MAX_TEAMS + 1][3]; /* queued per team and priority */
    /* per team: the job it offers next (team_head(), -1 none), that job's
     * priority and GPU-equivalents — kept on every queue change, read by
     * every team order */
    int32_t thead[PLAN_MAX_TEAMS + 1];
    int8_t thead_prio[PLAN_MAX_TEAMS + 1];
    double thead_need[PLAN_MAX_TEAMS + 1];
    int queued, never, running_prio[3];
    double held_prio[3]; /* GPU-equivalents held by running jobs per priority */
    double usage[PLAN_MAX_TEAMS + 1];
    double team_t[PLAN_MAX_TEAMS + 1], team_gpu_s[PLAN_MAX_TEAMS + 1];
    double team_borrow_s[PLAN_MAX_TEAMS + 1], team_lost_s[PLAN_MAX_TEAMS + 1];
    int team_preempt[PLAN_MAX_TEAMS + 1];
    double cls_gpu_s[PLAN_MAX_CLASSES], cls_lost_s[PLAN_MAX_CLASSES];
    int cls_preempt[PLAN_MAX_CLASSES];
    /* failures */
    SchedRng frng;
    double next_fail, fail_mean, ck_cost, restore;
    /* metrics */
    double busy_int, queue_int, frag_int;
    double ser_busy[PLAN_SERIES_LEN], ser_q[PLAN_SERIES_LEN], ser_t[PLAN_SERIES_LEN], bucket_w;
    double last_finish;       /* time of the latest completion */
    bool head_blocked;
    int32_t last_head;
    TeamWin win[PLAN_MAX_TEAMS + 1], win_check; /* win_check: CHECK's fresh walk */
    uint64_t win_gen;         /* bumps whenever a window goes stale or is walked afresh */
    BfSummary bs;
    /* the team order kept between passes (team_order()) and the teams whose
     * key may have changed since (bit t) */
    struct {
        bool valid;
        int n;
        uint64_t teams;       /* bit t: team t is in k[0..n) */
        TeamKey k[PLAN_MAX_TEAMS + 1];
    } to;
    uint64_t to_dirty;
    /* The last pass started nothing and left last_head blocked (quiet), at
     * this epoch, with this many teams in its order: an arrival that cannot
     * change that pass's outcome skips the next one (see arrival_is_quiet). */
    bool quiet;
    uint64_t quiet_epoch;
    int quiet_nteams;
    uint64_t irregular;
    uint64_t epoch;           /* bumps whenever a job starts, stops or resizes */
    uint64_t pf_epoch;        /* the epoch at which preempting for pf_job failed */
    int32_t pf_job;
    /* The blocked head's reservation, kept between passes (see reserve()). */
    struct {
        bool valid;
        int32_t head;
        int mode, node, extra;
        double S;
        SchedEvent hit;     /* the finish event that reaches it */
        int rank;           /* heap entries (live or stale) ordered <= hit */
    } rc;
    int res_mode;             /* SCHED_RES_*: incremental, reference walk, or both */
    int failures, preemptions, submitted, completed;
    uint64_t events;
    int started, started_waited;
    /* sched_run_miss: stop once some team's p95 wait provably exceeds miss_s
     * (waits only grow); miss_left[t] = waits over it still needed */
    double miss_s;
    bool miss_on, missed;
    int miss_left[PLAN_MAX_TEAMS + 1];
    SchedStats st;
    bool digest;              /* st.start_digest wanted (the caller reads st) */
    /* scratch */
    int32_t *cand;
    VKey *vkeys;
    int32_t *stamp_node, *acc_node, *stamp_gpu, *left_gpu;
    int32_t stamp;
    size_t *aux;
    int32_t tmp_gpus[64];
} Sim;

/* ------------------------------------------------------------ helpers */

static void rc_on_start(Sim *s, int j, double finish, uint64_t seq);

static inline const SchedJobSpec *spec(const Sim *s, int j)
{
    return &s->specs[j];
}

/* GPU-equivalents a job holds at its requested size (inline: the backfill
 * scan and the team order ask for it millions of times). */
static inline double job_need(const Sim *s, int j)
{
    const SchedJobSpec *sp = spec(s, j);
    if (sp->kind == SJ_WHOLE)
        return sp->gpus;
    return sched_shared_equiv(&s->cl, sp->kind == SJ_MIG ? 1 : 2,
                              sp->kind == SJ_MIG ? sp->mig : sp->gpus);
}

/* A job's total work, GPU-s: its GPU-equivalents × its run time at that
 * size.  Recomputed from the spec where it is needed (the same double every
 * time: the cluster's geometry is fixed for the run) instead of kept in the
 * job record. */
static inline double job_work(const Sim *s, int j)
{
    return job_need(s, j) * spec(s, j)->dur;
}

static inline double job_held(const Sim *s, int j)
{
    const SchedJobSpec *sp = spec(s, j);
    return sp->kind == SJ_WHOLE ? s->jobs[j].alloc : job_need(s, j);
}

static inline int sh_kind(const SchedJobSpec *sp)
{
    return sp->kind == SJ_MIG ? 1 : 2;
}

static inline int sh_amount(const SchedJobSpec *sp)
{
    return sp->kind == SJ_MIG ? sp->mig : sp->gpus;
}

static void team_touch(Sim *s, int t)
{
    double dt = s->now - s->team_t[t];
    if (dt > 0) {
        const SchedTeamDef *td = &s->w->teams[t];
        s->team_gpu_s[t] += s->usage[t] * dt;
        if (s->usage[t] > td->quota)
            s->team_borrow_s[t] += (s->usage[t] - td->quota) * dt;
    }
    s->team_t[t] = s->now;
}

static inline void usage_add(Sim *s, int t, double d)
{
    s->epoch++; /* every start, stop and resize passes here */
    s->to_dirty |= 1ULL << t;
    team_touch(s, t);
    s->usage[t] += d;
    if (s->usage[t] < 1e-9 && s->usage[t] > -1e-9)
        s->usage[t] = 0;
}

/* GPU-time a job lost (work since its checkpoint, restores): its team's
 * and its class's. */
static void lost_add(Sim *s, int j, double gpu_s)
{
    const SchedJobSpec *sp = spec(s, j);
    s->team_lost_s[sp->team] += gpu_s;
    if (sp->cls >= 0)
        s->cls_lost_s[sp->cls] += gpu_s;
}

/* Integrate busy GPUs, queue length and fragmentation up to `t`. */
static inline void advance(Sim *s, double t)
{
    if (t > s->H)
        t = s->H;
    double busy = sched_cluster_busy(&s->cl);
    double q = s->queued + s->never;
    double freeq = s->head_blocked ? (double)s->cl.G - busy : 0;
    double a = s->last_t;
    if (t <= a)
        return;
    s->busy_int += busy * (t - a);
    s->queue_int += q * (t - a);
    s->frag_int += freeq * (t - a);
    while (a < t) {
        int b = (int)(a / s->bucket_w);
        if ((b + 1) * s->bucket_w <= a)
            b++; /* a sits on a bucket edge that the division rounded down */
        if (b >= PLAN_SERIES_LEN)
            b = PLAN_SERIES_LEN - 1;
        double end = (b + 1) * s->bucket_w;
        if (end > t || b == PLAN_SERIES_LEN - 1)
            end = t;
        s->ser_busy[b] += busy * (end - a);
        s->ser_q[b] += q * (end - a);
        s->ser_t[b] += end - a;
        a = end;
    }
    s->last_t = t;
}

/* ------------------------------------------------------------ queues */

static void head_update(Sim *s, int t);

/* A kept window is updated in place when a job leaves its team's queue and
 * when the job it passes over changes (it was walked afresh after every
 * queue change that reached it: 0.6 M of the 0.8 M walks of the 1M-job
 * bench, ~350 instructions each, reading queue links and specs all over
 * the job arrays).  An arrival or requeue that reaches a window still
 * makes it stale (win_on_insert; in place they cost more than the walks
 * they saved: most such windows change again before they are read).  A
 * valid window is always the first len jobs of its team's scan order
 * passing over w->excl (a job id; it may have left the queue since),
 * complete only when no other job follows; every update keeps that, so
 * the window equals a fresh walk's first len positions (SCHED_RES_CHECK
 * compares them on every use).  `late` bits follow their jobs; bits at
 * and past len are 0. */

/* Position k of w holds job c (its terms read from its spec). */
static inline void win_ent(const Sim *s, TeamWin *w, int k, int c)
{
    const SchedJobSpec *sp = spec(s, c);
    bool whole = sp->kind == SJ_WHOLE;
    w->e[k] = (WinEnt){.id = c, .whole = whole ? sp->gpus : 1,
                       .gnode = whole && sp->gpus <= s->cl.gpn ? sp->gpus : INT32_MAX,
                       .gmulti = whole && sp->gpus > s->cl.gpn ? sp->gpus : INT32_MAX,
                       .shk = !whole, .prio = sp->prio};
}

/* The prefix summaries of w from position k on. */
static inline void win_prefix(TeamWin *w, int k)
{
    int32_t mn = k > 0 ? w->pmin_node[k - 1] : INT32_MAX;
    int32_t mm = k > 0 ? w->pmin_multi[k - 1] : INT32_MAX;
    uint8_t sh = k > 0 ? w->pshared[k - 1] : 0;
    for (; k < w->len; k++) {
        mn = w->e[k].gnode < mn ? w->e[k].gnode : mn;
        mm = w->e[k].gmulti < mm ? w->e[k].gmulti : mm;
        sh |= w->e[k].shk;
        w->pmin_node[k] = mn;
        w->pmin_multi[k] = mm;
        w->pshared[k] = sh;
    }
}

/* Move positions [from, len) of w by d (-1 or +1; a window is a few
 * positions: a loop, not memmove's call). */
static inline void win_shift(TeamWin *w, int from, int d)
{
    if (d < 0)
        for (int i = from; i < w->len; i++)
            w->e[i - 1] = w->e[i];
    else
        for (int i = w->len - 1; i >= from; i--)
            w->e[i + 1] = w->e[i];
}

/* The window's end: the scan position of its last job, (2, -1) when empty. */
static inline void win_set_end(TeamWin *w)
{
    if (w->len > 0) {
        w->end_id = w->e[w->len - 1].id;
        w->end_prio = (int8_t)w->e[w->len - 1].prio;
    } else {
        w->end_prio = 2;
        w->end_id = -1;
    }
}

/* Does scan position (pr, j) come after the window's end? */
static inline bool win_after_end(const TeamWin *w, int pr, int j)
{
    return pr < w->end_prio || (pr == w->end_prio && j > w->end_id);
}

/* Take position k out of w (its job left the queue or is now passed over)
 * and, if jobs follow, append the next one in scan order: nx is the job
 * after the old end in its priority list (-1: none). */
__attribute__((noinline)) static void win_cut(Sim *s, int t, TeamWin *w, int k, int nx)
{
    int pr = w->end_prio;
    win_shift(w, k + 1, -1);
    uint64_t low = (1ULL << k) - 1; /* k < 64 */
    w->late = (w->late & low) | ((w->late >> 1) & ~low);
    w->len--;
    if (!w->complete) {
        for (;;) {
            while (nx < 0 && pr > 0)
                nx = s->qh[t][--pr];
            if (nx != w->excl || nx < 0)
                break;
            nx = s->jobs[nx].qnext;
        }
        if (nx >= 0)
            win_ent(s, w, w->len++, nx);
        else
            w->complete = true; /* nothing follows */
    }
    win_set_end(w);
    win_prefix(w, k);
    s->win_gen++;
    s->st.windows_updated++;
}

/* Put job j in at position k (every job before k precedes it in scan
 * order, every one from k on follows it; win_reexcl puts the old head back
 * first).  A window at its cap drops its last job instead of growing (or
 * leaves j out when it would be last). */
__attribute__((noinline)) static void win_put(Sim *s, TeamWin *w, int k, int j)
{
    if (w->len >= w->cap) {
        /* no longer complete: a scan asking for more than len jobs walks
         * afresh (and a backfill summary that counted on it is stale) */
        s->win_gen += w->complete;
        w->complete = false;
        if (k >= w->len)
            return;
        w->len--;
        w->late &= ~(1ULL << w->len);
    }
    win_shift(w, k, +1);
    uint64_t low = (1ULL << k) - 1;
    w->late = (w->late & low) | ((w->late & ~low) << 1);
    w->len++;
    win_ent(s, w, k, j);
    win_set_end(w);
    win_prefix(w, k);
    s->win_gen++;
    s->st.windows_updated++;
}

/* Job j of priority pr joined team t's queue. */
static inline void win_on_insert(Sim *s, int t, int pr, int j)
{
    TeamWin *w = &s->win[t];
    if (w->valid && j != w->excl && (w->complete || !win_after_end(w, pr, j))) {
        w->valid = false;
        s->win_gen++;
    }
}

/* Job j of priority pr left team t's queue (its links still name its old
 * neighbours). */
static inline void win_on_remove(Sim *s, int t, int pr, int j)
{
    TeamWin *w = &s->win[t];
    if (!w->valid || j == w->excl || win_after_end(w, pr, j))
        return;
    int k = 0;
    while (k < w->len && w->e[k].id != j)
        k++;
    if (k == w->len) { /* cannot happen: walk afresh */
        w->valid = false;
        s->win_gen++;
        return;
    }
    int e = w->end_id;
    win_cut(s, t, w, k, e == j ? s->jobs[j].qnext : s->jobs[e].qnext);
}

/* The window of team t now passes over excl instead of w->excl: the old
 * one goes back in if it is still queued (only as the team's first job in
 * scan order, its place as head; otherwise the window is walked afresh),
 * the new one comes out. */
__attribute__((noinline)) static void win_reexcl(Sim *s, int t, TeamWin *w, int excl)
{
    int a = w->excl;
    w->excl = -1;
    if (a >= 0 && s->jobs[a].state == JS_QUEUED && spec(s, a)->team == t) {
        int pa = spec(s, a)->prio;
        bool first = s->qh[t][pa] == a;
        for (int pr = pa + 1; pr < 3 && first; pr++)
            first = s->qh[t][pr] < 0;
        if (!first) {
            w->valid = false;
            s->win_gen++;
            return;
        }
        win_put(s, w, 0, a);
    }
    if (excl >= 0) {
        int k = 0;
        while (k < w->len && w->e[k].id != excl)
            k++;
        w->excl = excl;
        if (k < w->len) {
            int e = w->end_id;
            win_cut(s, t, w, k, e == excl ? s->jobs[excl].qnext : s->jobs[e].qnext);
        }
    }
}

/* Team t's backfill window of at least L jobs (or all it has), passing over
 * excl: the kept one (updated in place, or stale after an arrival that
 * reached it: win_on_insert()), else
 * walked afresh from the queue lists.  SCHED_RES_CHECK walks anyway and
 * counts in SchedStats.window_mismatches a kept window that differs. */
static TeamWin *win_walk(Sim *s, int t, int excl, int L, bool kept);

static inline TeamWin *win_get(Sim *s, int t, int excl, int L)
{
    TeamWin *w = &s->win[t];
    if (w->valid && w->excl != excl)
        win_reexcl(s, t, w, excl);
    bool kept = w->valid && w->excl == excl && (w->len >= L || w->complete);
    if (kept && s->res_mode != SCHED_RES_CHECK)
        return w;
    return win_walk(s, t, excl, L, kept);
}

/* win_get()'s walk, out of line: the kept window (inline above) is the
 * common case (2.8 M of 3.6 M calls in the 1M-job bench), and GCC's
 * inlining of the whole function into backfill() came and went with
 * unrelated edits (+50 M instructions when it did not). */
__attribute__((noinline)) static TeamWin *win_walk(Sim *s, int t, int excl, int L, bool kept)
{
    TeamWin *w = &s->win[t];
    TeamWin *b = kept ? &s->win_check : w;
    int len = 0;
    bool complete = true;
    b->end_prio = 2;
    b->end_id = -1;
    for (int pr = 2; pr >= 0 && complete; pr--)
        for (int c = s->qh[t][pr]; c >= 0; c = s->jobs[c].qnext) {
            if (c == excl)
                continue;
            if (len == L) {
                complete = false;
                break;
            }
            win_ent(s, b, len++, c);
            b->end_prio = (int8_t)pr;
            b->end_id = c;
        }
    b->len = len;
    b->cap = L;
    win_prefix(b, 0);
    b->complete = complete;
    b->excl = excl;
    b->valid = b == w;
    b->late = 0;
    s->win_gen += b == w; /* a window kept before now holds other jobs */
    if (kept) {
        /* the kept window must agree on the positions a scan of L reads */
        int n = w->len < L ? w->len : L;
        bool same = (b->len < L ? b->len : L) == n &&
                    memcmp(b->pmin_node, w->pmin_node, (size_t)n * sizeof *w->pmin_node) == 0 &&
                    memcmp(b->pmin_multi, w->pmin_multi, (size_t)n * sizeof *w->pmin_multi) == 0 &&
                    memcmp(b->pshared, w->pshared, (size_t)n) == 0;
        for (int i = 0; i < n && same; i++)
            same = b->e[i].id == w->e[i].id && b->e[i].whole == w->e[i].whole &&
                   b->e[i].gnode == w->e[i].gnode && b->e[i].gmulti == w->e[i].gmulti &&
                   b->e[i].shk == w->e[i].shk && b->e[i].prio == w->e[i].prio;
        if (!same)
            s->st.window_mismatches++;
    }
    return w;
}

__attribute__((always_inline)) static inline void q_insert(Sim *s, int j)
{
    const SchedJobSpec *sp = spec(s, j);
    int t = sp->team, pr = sp->prio;
    Job *J = &s->jobs[j];
    /* ordered by index: arrivals append; a requeued job goes back in its
     * original place (Kueue orders by creation time) — usually at or near
     * the head, so the walk starts there. */
    int after;
    if (s->qt[t][pr] < 0 || s->qt[t][pr] < j)
        after = s->qt[t][pr];
    else if (s->qh[t][pr] > j)
        after = -1;
    else {
        after = s->qh[t][pr];
        while (s->jobs[after].qnext >= 0 && s->jobs[after].qnext < j)
            after = s->jobs[after].qnext;
    }
    J->qprev = after;
    J->qnext = after >= 0 ? s->jobs[after].qnext : s->qh[t][pr];
    if (J->qnext >= 0)
        s->jobs[J->qnext].qprev = j;
    else
        s->qt[t][pr] = j;
    if (after >= 0)
        s->jobs[after].qnext = j;
    else
        s->qh[t][pr] = j;
    s->qn[t]++;
    s->qnp[t][pr]++;
    s->queued++;
    J->state = JS_QUEUED;
    J->qsince = s->now;
    win_on_insert(s, t, pr, j);
    head_update(s, t);
}

static void q_remove(Sim *s, int j)
{
    const SchedJobSpec *sp = spec(s, j);
    int t = sp->team, pr = sp->prio;
    Job *J = &s->jobs[j];
    if (J->qprev >= 0)
        s->jobs[J->qprev].qnext = J->qnext;
    else
        s->qh[t][pr] = J->qnext;
    if (J->qnext >= 0)
        s->jobs[J->qnext].qprev = J->qprev;
    else
        s->qt[t][pr] = J->qprev;
    s->qn[t]--;
    s->qnp[t][pr]--;
    s->queued--;
    double w0 = J->wait;
    J->wait += s->now - J->qsince;
    if (s->miss_on && !(w0 / 3600 * 3600 > s->miss_s) && J->wait / 3600 * 3600 > s->miss_s &&
        --s->miss_left[t] <= 0)
        s->missed = true;
    win_on_remove(s, t, pr, j);
    head_update(s, t);
}

/* The job a team offers next: its highest priority first (fifo: oldest). */
static int team_head(const Sim *s, int t)
{
    if (s->policy == POLICY_FIFO) {
        int best = -1;
        for (int pr = 0; pr < 3; pr++) {
            int h = s->qh[t][pr];
            if (h >= 0 && (best < 0 || h < best))
                best = h;
        }
        return best;
    }
    for (int pr = 2; pr >= 0; pr--)
        if (s->qh[t][pr] >= 0)
            return s->qh[t][pr];
    return -1;
}

static inline void head_update(Sim *s, int t)
{
    int h = team_head(s, t);
    if (h == s->thead[t])
        return; /* the same job: the same priority and need */
    s->to_dirty |= 1ULL << t;
    s->thead[t] = h;
    s->thead_prio[t] = (int8_t)(h >= 0 ? spec(s, h)->prio : 0);
    s->thead_need[t] = h >= 0 ? job_need(s, h) : 0;
}

static bool borrow_ok(const Sim *s, int t, double need)
{
    const SchedTeamDef *td = &s->w->teams[t];
    return td->borrow < 0 || s->usage[t] + need <= td->quota + td->borrow + EPS;
}

static bool under_quota(const Sim *s, int t, double need)
{
    return s->usage[t] + need <= s->w->teams[t].quota + EPS;
}

/* A team's weighted share of what it borrows when it holds `usage`:
 * (usage − quota) / weight — negative while under quota (Kueue's
 * dominant resource share for one resource, KEP-1714). */
static double share_of(const Sim *s, int t, double usage)
{
    return (usage - s->w->teams[t].quota) / s->w->teams[t].weight;
}


/* Does team a go before team b?  fifo: older head; priority: higher class,
 * then older; fair-share: a team whose head keeps it within its quota before
 * any borrower, then the lower weighted share of the GPUs it borrows (Kueue
 * fair sharing, KEP-1714, one resource: GPUs are the dominant resource;
 * dividing by the cohort's lendable capacity, the same for every team, would
 * not change the order), then priority and age. */
static inline bool team_before(const Sim *s, const TeamKey *a, const TeamKey *b)
{
    if (s->policy == POLICY_FAIR_SHARE) {
        if (a->under != b->under)
            return a->under;
        if (!a->under) {
            double sa = a->share, sb = b->share;
            if (sa < sb - EPS || sa > sb + EPS)
                return sa < sb;
        }
    }
    if (s->policy != POLICY_FIFO && a->prio != b->prio)
        return a->prio > b->prio;
    return a->head < b->head;
}

/* Team t's key, false when its head is not eligible (over its borrowing
 * limit even with its own elastic jobs shrunk to their minimums: what they
 * grew into is the team's to take back, shrink_team_for) or it has none. */
static inline bool team_key(const Sim *s, int t, TeamKey *x)
{
    int h = s->thead[t];
    if (h < 0)
        return false;
    double need = s->thead_need[t];
    if (!borrow_ok(s, t, need - s->team_extra[t]))
        return false;
    *x = (TeamKey){.team = t, .head = h, .prio = s->thead_prio[t]};
    if (s->policy == POLICY_FAIR_SHARE) {
        x->under = under_quota(s, t, need);
        x->share = share_of(s, t, s->usage[t]);
    }
    return true;
}

/* The policy order as it always was: every team's key, inserted in team
 * order (insertion sort with team_before). */
static int team_order_full(const Sim *s, TeamKey *k)
{
    int n = 0;
    for (int t = 0; t < s->nt; t++) {
        TeamKey x;
        if (!team_key(s, t, &x))
            continue;
        int i = n++;
        while (i > 0 && team_before(s, &x, &k[i - 1])) {
            k[i] = k[i - 1];
            i--;
        }
        k[i] = x;
    }
    return n;
}

/* Two borrowing teams whose shares differ, but by no more than EPS:
 * team_before() calls them equal, and with a third team it may then not be
 * transitive (a ~ b, b ~ c, a < c), so the order depends on the insertion
 * sequence. */
static inline bool near_tie(const TeamKey *a, const TeamKey *b)
{
    /* the range test first: it is what fails for almost every pair */
    return a->share >= b->share - EPS && a->share <= b->share + EPS && a->share != b->share &&
           !a->under && !b->under;
}

/* Does the key set k[0..n) hold a near tie?  (Fair-share only: the other
 * policies compare priorities and job indices, a strict total order.) */
static bool any_near_tie(const Sim *s, const TeamKey *k, int n)
{
    if (s->policy != POLICY_FAIR_SHARE)
        return false;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (near_tie(&k[i], &k[j]))
                return true;
    return false;
}

/* Teams with an eligible head (within their borrowing limit), in policy
 * order, in s->to.k (valid until the next call); returns how many.
 *
 * A team's key is a function of its own usage and head only, so the order
 * is kept between calls (s->to) and only the teams whose usage or head
 * changed since (s->to_dirty, set by usage_add and head_update) are taken
 * out and put back in.  Without near ties team_before is a strict total
 * order on the keys, whose sorted sequence is unique: the kept order is
 * then exactly what the insertion sort of all teams gives.  With a near
 * tie, in reference mode, or with many teams changed, the full insertion
 * sort runs as before; SCHED_RES_CHECK runs it always and counts in
 * SchedStats.order_mismatches a kept order that differs. */
static int team_order(Sim *s)
{
    TeamKey *k = s->to.k;
    uint64_t dirty = s->to_dirty;
    s->to_dirty = 0;
    uint64_t third = dirty & (dirty - 1);
    third &= third - 1; /* non-zero: more than two teams changed */
    bool full = !s->to.valid || s->res_mode == SCHED_RES_REFERENCE || third != 0;
    int n = s->to.n;
    if (!full) {
        while (dirty) {
            int t = __builtin_ctzll(dirty);
            dirty &= dirty - 1;
            int at = -1; /* t's slot in the kept order, -1 none */
            if ((s->to.teams >> t) & 1)
                for (int i = 0; i < n; i++)
                    if (k[i].team == t) {
                        at = i;
                        break;
                    }
            TeamKey x;
            if (!team_key(s, t, &x)) {
                if (at >= 0) {
                    for (n--; at < n; at++)
                        k[at] = k[at + 1];
                    s->to.teams &= ~(1ULL << t);
                }
                continue;
            }
            /* The others stay sorted, and without near ties team_before is
             * a strict total order: x's place among them is unique.  A key
             * that changed mostly keeps its place, so it moves from its old
             * slot (the same order as taking it out and inserting it from
             * the end, without the two shifts). */
            int i = at;
            if (i < 0) {
                i = n++;
                s->to.teams |= 1ULL << t;
            }
            while (i > 0 && team_before(s, &x, &k[i - 1])) {
                k[i] = k[i - 1];
                i--;
            }
            if (i == at)
                while (i + 1 < n && team_before(s, &k[i + 1], &x)) {
                    k[i] = k[i + 1];
                    i++;
                }
            k[i] = x;
            /* A near tie of x makes the order depend on the insertion
             * sequence: sort afresh.  The keys x could tie sit next to its
             * place: the others have no near tie among them, so they are
             * in share order and every key between x and one within EPS of
             * its share is within EPS too (and under-quota keys all come
             * first).  The scan stops beyond 4 EPS, clear of rounding. */
            if (s->policy == POLICY_FAIR_SHARE && !x.under) {
                bool tie = false;
                for (int j = i - 1; j >= 0 && !tie && !k[j].under &&
                                    fabs(k[j].share - x.share) <= 4 * EPS; j--)
                    tie = near_tie(&x, &k[j]);
                for (int j = i + 1; j < n && !tie && fabs(k[j].share - x.share) <= 4 * EPS; j++)
                    tie = near_tie(&x, &k[j]);
                if (tie) {
                    full = true;
                    break;
                }
            }
        }
    }
    if (full) {
        n = team_order_full(s, k);
        s->to.teams = 0;
        for (int i = 0; i < n; i++)
            s->to.teams |= 1ULL << k[i].team;
        /* keep it only when the incremental update will be exact */
        s->to.valid = s->res_mode != SCHED_RES_REFERENCE && !any_near_tie(s, k, n);
    } else {
        s->st.orders_kept++;
    }
    if (!full && s->res_mode == SCHED_RES_CHECK) {
        TeamKey f[PLAN_MAX_TEAMS + 1];
        int nf = team_order_full(s, f);
        bool same = nf == n;
        for (int i = 0; i < n && same; i++)
            same = f[i].team == k[i].team && f[i].head == k[i].head;
        if (!same)
            s->st.order_mismatches++;
    }
    s->to.n = n;
    return n;
}

/* ------------------------------------------------------------ run segments */

static inline void seg_begin(Sim *s, int j)
{
    Job *J = &s->jobs[j];
    J->seg_start = s->now;
    if (J->prog_from < s->now)
        J->prog_from = s->now;
    J->rate = job_held(s, j) * J->fck;
    double finish = J->prog_from + (job_work(s, j) - J->done0) / J->rate;
    uint64_t seq = s->heap.seq;
    J->evseq = (uint32_t)seq; /* an event of j with another sequence is stale */
    if (sched_heap_push(&s->heap, finish, (uint32_t)j) < 0)
        s->st.unaccounted++; /* out of memory mid-run: the job is lost; reported */
    if (s->rc.valid)
        rc_on_start(s, j, finish, seq);
}

/* Work retained so far in the current segment. */
static inline double seg_done(const Sim *s, int j)
{
    const Job *J = &s->jobs[j];
    double d = J->done0;
    if (s->now > J->prog_from)
        d += (s->now - J->prog_from) * J->rate;
    double work = job_work(s, j);
    return d < work ? d : work;
}

/* Close the segment: retained work and the restore time spent (lost). */
__attribute__((always_inline)) static inline void seg_end(Sim *s, int j)
{
    Job *J = &s->jobs[j];
    double rest_end = J->prog_from < s->now ? J->prog_from : s->now;
    if (rest_end > J->seg_start)
        lost_add(s, j, (rest_end - J->seg_start) * job_held(s, j));
    if (spec(s, j)->cls >= 0)
        s->cls_gpu_s[spec(s, j)->cls] += (s->now - J->seg_start) * job_held(s, j);
    J->done0 = seg_done(s, j);
}

static void running_add(Sim *s, int j)
{
    s->jobs[j].ridx = s->n_running;
    s->running[s->n_running++] = j;
    if (s->n_running > s->st.peak_running)
        s->st.peak_running = s->n_running;
    s->running_prio[spec(s, j)->prio]++;
    s->held_prio[spec(s, j)->prio] += job_held(s, j);
    if (spec(s, j)->max_gpus > spec(s, j)->gpus && spec(s, j)->kind == SJ_WHOLE) {
        s->jobs[j].eidx = s->n_elastic;
        s->elastic[s->n_elastic++] = j;
    }
}

static inline void running_remove(Sim *s, int j)
{
    Job *J = &s->jobs[j];
    int last = s->running[--s->n_running];
    s->running[J->ridx] = last;
    s->jobs[last].ridx = J->ridx;
    J->ridx = -1;
    s->running_prio[spec(s, j)->prio]--;
    s->held_prio[spec(s, j)->prio] -= job_held(s, j);
    if (J->eidx >= 0) {
        int le = s->elastic[--s->n_elastic];
        s->elastic[J->eidx] = le;
        s->jobs[le].eidx = J->eidx;
        J->eidx = -1;
        s->elastic_extra -= J->alloc - spec(s, j)->gpus;
        s->team_extra[spec(s, j)->team] -= J->alloc - spec(s, j)->gpus;
    }
}

/* Give back what a job holds (cluster side only). */
static inline void release_res(Sim *s, int j)
{
    Job *J = &s->jobs[j];
    const SchedJobSpec *sp = spec(s, j);
    if (sp->kind == SJ_WHOLE) {
        sched_release_gpus(&s->cl, s->gpool + J->off, J->alloc, s->owner);
    } else {
        sched_shared_release(&s->cl, J->sgpu, sh_kind(sp), sh_amount(sp));
    }
}

static void retake_res(Sim *s, int j)
{
    Job *J = &s->jobs[j];
    const SchedJobSpec *sp = spec(s, j);
    if (sp->kind == SJ_WHOLE) {
        sched_take_gpus(&s->cl, s->gpool + J->off, J->alloc, s->owner, j);
    } else {
        sched_shared_add(&s->cl, J->sgpu, sh_kind(sp), sh_amount(sp));
    }
}

/* Placement without starting: GPUs go to gpool / sgpu.  exclude = a node
 * the job may not use (a backfill reservation), -1 none. */
static inline bool place(Sim *s, int j, int exclude)
{
    Job *J = &s->jobs[j];
    const SchedJobSpec *sp = spec(s, j);
    if (sp->kind == SJ_WHOLE) {
        if (!sched_place_whole(&s->cl, sp->gpus, exclude, s->gpool + J->off))
            return false;
        J->alloc = sp->gpus;
        return true;
    }
    int g = sched_place_shared(&s->cl, sh_kind(sp), sh_amount(sp), exclude);
    if (g < 0)
        return false;
    J->sgpu = g;
    return true;
}

/* Fold a start into st.start_digest (splitmix64's finaliser as the mixer:
 * Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014). */
static void digest_start(Sim *s, int j)
{
    const Job *J = &s->jobs[j];
    double t = s->now;
    uint64_t tb;
    memcpy(&tb, &t, sizeof tb);
    int where = spec(s, j)->kind == SJ_WHOLE ? (J->alloc > 0 ? s->gpool[J->off] : -1) : J->sgpu;
    uint64_t v[3] = {(uint64_t)j, tb, ((uint64_t)(uint32_t)where << 32) | (uint32_t)J->alloc};
    uint64_t d = s->st.start_digest;
    for (int i = 0; i < 3; i++) {
        /* sched_splitmix64 of d ^ v[i], written out: three calls a start */
        uint64_t z = (d ^ v[i]) + 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        d = z ^ (z >> 31);
    }
    s->st.start_digest = d;
}

/* Start a queued job whose placement is done. */
static void start_placed(Sim *s, int j)
{
    Job *J = &s->jobs[j];
    const SchedJobSpec *sp = spec(s, j);
    q_remove(s, j);
    if (sp->kind == SJ_WHOLE) {
        if (J->alloc != sp->gpus)
            s->st.partial_gangs++; /* invariant: all or nothing */
        for (int i = 0; i < J->alloc; i++) {
            int g = s->gpool[J->off + i];
            if (s->owner[g] >= 0)
                s->st.double_booked++;
            s->owner[g] = j;
        }
    }
    if (J->res_s >= 0 && J->res_irr == (uint32_t)s->irregular && s->now > J->res_s + 1e-6)
        s->st.backfill_delays++; /* the reserved head started after its reservation */
    J->res_s = -1;
    J->state = JS_RUNNING;
    J->start_t = s->now;
    if (s->digest)
        digest_start(s, j);
    if (!J->restarted) {
        s->started++;
        if (J->wait > 0)
            s->started_waited++;
    }
    J->prog_from = s->now + (J->restarted ? s->restore : 0);
    usage_add(s, sp->team, job_held(s, j));
    running_add(s, j);
    seg_begin(s, j);
}

static inline bool try_start(Sim *s, int j, int exclude)
{
    if (!place(s, j, exclude))
        return false;
    start_placed(s, j);
    return true;
}

/* Checkpointing of job j: Young's interval τ for its GPUs (per-GPU MTBF /
 * GPUs held); *fck (when not NULL) = τ/(τ+δ), 1 when the job is shorter than
 * τ.  Returns the work between checkpoints, 0 none — recomputed on a kill
 * rather than kept per job (the same doubles from the same inputs). */
static inline double ck_plan(const Sim *s, int j, double *fck)
{
    const SchedJobSpec *sp = spec(s, j);
    double need = job_need(s, j);
    double mtbf = s->fail_mean > 0 ? s->fail_mean * s->cl.G / (need > 1 ? need : 1) : 0;
    double tau = sched_young_interval(s->ck_cost, mtbf);
    if (tau > 0 && sp->dur > tau) {
        double f = tau / (tau + s->ck_cost);
        if (fck)
            *fck = f;
        return tau * need * f;
    }
    if (fck)
        *fck = 1;
    return 0;
}

/* Kill a running job (failure or preemption): roll back to its last
 * checkpoint and requeue it.  `released`: its GPUs were already returned. */
static void kill_job(Sim *s, int j, bool released)
{
    Job *J = &s->jobs[j];
    const SchedJobSpec *sp = spec(s, j);
    s->rc.valid = false; /* a kill changes what the kept reservation counted on */
    seg_end(s, j);
    double ck_work = ck_plan(s, j, NULL);
    double ck = ck_work > 0 ? floor(J->done0 / ck_work) * ck_work : 0;
    if (ck > J->done0)
        ck = J->done0;
    /* lost: work since the last checkpoint, in GPU-time */
    lost_add(s, j, (J->done0 - ck) / J->fck);
    J->done0 = ck;
    usage_add(s, sp->team, -job_held(s, j));
    if (!released)
        release_res(s, j);
    running_remove(s, j);
    if (sp->kind == SJ_WHOLE) {
        if (released)
            for (int i = 0; i < J->alloc; i++)
                s->owner[s->gpool[J->off + i]] = -1;
        J->alloc = 0;
    }
    /* its finish event is stale now: j is queued, and a restart pushes a
     * new event with a new sequence */
    J->restarted = true;
    J->prog_from = 0;
    J->res_s = -1; /* queued again with no reservation (start_t shared its place) */
    q_insert(s, j);
    s->irregular++;
}

static void finish_job(Sim *s, int j)
{
    Job *J = &s->jobs[j];
    const SchedJobSpec *sp = spec(s, j);
    seg_end(s, j);
    J->done0 = job_work(s, j);
    usage_add(s, sp->team, -job_held(s, j));
    release_res(s, j);
    running_remove(s, j);
    if (sp->kind == SJ_WHOLE)
        J->alloc = 0;
    J->state = JS_DONE;
    J->finish = s->now;
    if (s->now > s->last_finish)
        s->last_finish = s->now;
    s->completed++;
}

/* ------------------------------------------------------------ elastic */

static void resize(Sim *s, int j, int new_alloc)
{
    Job *J = &s->jobs[j];
    const SchedJobSpec *sp = spec(s, j);
    s->rc.valid = false; /* so does a resize */
    seg_end(s, j);
    int d = new_alloc - J->alloc;
    if (d < 0)
        for (int i = new_alloc; i < J->alloc; i++) {
            int g = s->gpool[J->off + i];
            sched_release_gpu(&s->cl, g);
            s->owner[g] = -1;
        }
    else
        for (int i = J->alloc; i < new_alloc; i++)
            s->owner[s->gpool[J->off + i]] = j;
    s->elastic_extra += d;
    s->team_extra[sp->team] += d;
    s->held_prio[sp->prio] += d;
    usage_add(s, sp->team, d);
    J->alloc = new_alloc;
    seg_begin(s, j);
    s->st.elastic_resizes++;
    s->irregular++;
}

/* The most recently started elastic job holding GPUs above its minimum,
 * of team t (-1: any team); -1 when none. */
static int latest_grown(const Sim *s, int t)
{
    int best = -1;
    for (int i = 0; i < s->n_elastic; i++) {
        int e = s->elastic[i];
        if ((t < 0 || spec(s, e)->team == t) && s->jobs[e].alloc > spec(s, e)->gpus &&
            (best < 0 || s->jobs[e].start_t > s->jobs[best].start_t ||
             (s->jobs[e].start_t == s->jobs[best].start_t && e > best)))
            best = e;
    }
    return best;
}

/* Shrink elastic jobs to their minimum, most recently started first,
 * until j fits.  True when j started. */
static bool shrink_for(Sim *s, int j)
{
    while (s->elastic_extra > 0) {
        int best = latest_grown(s, -1);
        if (best < 0)
            break;
        resize(s, best, spec(s, best)->gpus);
        if (try_start(s, j, -1))
            return true;
    }
    return false;
}

/* Team t's head needs `need` GPUs more than its borrowing limit leaves
 * while its elastic jobs hold GPUs above their minimums (team_key counts
 * it eligible): shrink them to their minimums, most recently started
 * first, until it fits within the limit. */
static void shrink_team_for(Sim *s, int t, double need)
{
    while (s->team_extra[t] > 0 && !borrow_ok(s, t, need)) {
        int best = latest_grown(s, t);
        if (best < 0)
            break;
        resize(s, best, spec(s, best)->gpus);
    }
}

/* Idle GPUs nobody queued can use go to elastic jobs, oldest first, within
 * their team's borrowing limit. */
static void grow_elastic(Sim *s)
{
    for (int i = 0; i < s->n_elastic && s->cl.total_free > 0; i++) {
        int e = s->elastic[i];
        const SchedJobSpec *sp = spec(s, e);
        const SchedTeamDef *td = &s->w->teams[sp->team];
        int k = sp->max_gpus - s->jobs[e].alloc;
        if (td->borrow >= 0) {
            int room = (int)floor(td->quota + td->borrow - s->usage[sp->team] + EPS);
            if (room < k)
                k = room;
        }
        if (k > s->cl.total_free)
            k = s->cl.total_free;
        if (k <= 0)
            continue;
        Job *J = &s->jobs[e];
        int near = sched_node_of(&s->cl, s->gpool[J->off]);
        int got = sched_grow_whole(&s->cl, k, near, s->gpool + J->off + J->alloc);
        if (got > 0)
            resize(s, e, J->alloc + got);
    }
}

/* ------------------------------------------------------------ preemption */

/* Victim order (Kueue): borrowers first, then lowest priority, then the
 * most recently started; index breaks ties.  Keys are copied out once and
 * kept in a binary heap, so an attempt costs O(R) to build plus O(log R)
 * per victim actually taken, not a full sort of the running jobs. */
static inline bool vk_before(const VKey *a, const VKey *b)
{
    if (a->rank != b->rank)
        return a->rank < b->rank;
    if (a->start != b->start)
        return a->start > b->start;
    return a->id > b->id;
}

static void vk_sift(VKey *h, int n, int i)
{
    VKey x = h[i];
    for (;;) {
        int l = 2 * i + 1;
        if (l >= n)
            break;
        int m = (l + 1 < n && vk_before(&h[l + 1], &h[l])) ? l + 1 : l;
        if (!vk_before(&h[m], &x))
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = x;
}

/* Preempt for the blocked head j: a higher-priority job may evict lower
 * priority jobs of its own team or of a borrowing team; a team under its
 * quota may evict other teams' borrowers.  A victim's team is never taken
 * below its quota, so the victim cannot preempt back (no loops).  Victims
 * are released one by one in Kueue's order until j fits; victims j did not
 * need are put back untouched. */
static bool preempt_for(Sim *s, int j)
{
    const SchedJobSpec *sj = spec(s, j);
    int tj = sj->team, pj = sj->prio;
    double nj = job_need(s, j);
    /* nothing started, stopped or resized since this head last failed to
     * preempt (arrivals and stale events change neither the victims nor
     * the free GPUs): it would fail again */
    if (s->pf_job == j && s->pf_epoch == s->epoch)
        return false;
    bool under = under_quota(s, tj, nj);
    /* Upper bound on what preemption could free, O(teams): lower-priority
     * GPUs, plus what borrowers hold above their quotas.  Most blocked
     * heads stop here without looking at the running jobs. */
    double low = 0, lendable = 0;
    for (int pr = 0; pr < pj; pr++)
        low += s->held_prio[pr];
    if (under)
        for (int t = 0; t < s->nt; t++)
            if (t != tj && s->usage[t] > s->w->teams[t].quota + EPS)
                lendable += s->usage[t] - s->w->teams[t].quota;
    double idle = s->cl.G - sched_cluster_busy(&s->cl);
    if (low + lendable < EPS || idle + low + lendable < nj - EPS)
        return false;

    bool borrowing[PLAN_MAX_TEAMS + 1];
    for (int t = 0; t < s->nt; t++)
        borrowing[t] = s->usage[t] > s->w->teams[t].quota + EPS;
    VKey *hk = s->vkeys;
    int nc = 0;
    for (int i = 0; i < s->n_running; i++) {
        int v = s->running[i];
        const SchedJobSpec *sv = spec(s, v);
        bool borrower = borrowing[sv->team];
        bool by_prio = sv->prio < pj && (sv->team == tj || borrower);
        bool by_quota = under && sv->team != tj && borrower;
        if (by_prio || by_quota)
            hk[nc++] = (VKey){.start = s->jobs[v].start_t, .id = v,
                              .rank = (borrower ? 0 : 3) + sv->prio};
    }
    if (nc == 0)
        return false;
    for (int i = nc / 2 - 1; i >= 0; i--)
        vk_sift(hk, nc, i);

    /* The victims in Kueue's order that pass the quota and share checks
     * (which read the teams' usage, not the free GPUs: the same list
     * whether or not earlier victims were released), at the front of cand. */
    double after[PLAN_MAX_TEAMS + 1];
    memcpy(after, s->usage, sizeof after);
    int na = 0;
    bool all_whole = true;
    long freed = 0;
    while (nc > 0) {
        int v = hk[0].id;
        hk[0] = hk[--nc];
        vk_sift(hk, nc, 0);
        const SchedJobSpec *sv = spec(s, v);
        double hv = job_held(s, v);
        if (sv->team != tj && after[sv->team] - hv < s->w->teams[sv->team].quota - EPS)
            continue; /* would take that team below its quota */
        if (sv->team != tj && s->policy == POLICY_FAIR_SHARE &&
            share_of(s, sv->team, after[sv->team] - hv) <
                share_of(s, tj, s->usage[tj] + nj) - EPS)
            continue; /* the victim's team would end below the preemptor's share */
        if (sv->team == tj && !(sv->prio < pj))
            continue;
        after[sv->team] -= hv;
        s->cand[na++] = v; /* reuse the front of cand for the chosen victims */
        all_whole &= sv->kind == SJ_WHOLE;
        freed += s->jobs[v].alloc;
    }
    /* A whole head that all of them together leave short of GPUs cannot be
     * placed after any of them (a placement needs that many free): the
     * trial below would release and retake them all and fail.  Its only
     * trace is the order of the nodes in the free-count buckets (each
     * touched node back in its bucket, at the head, in the order the
     * retakes last moved them), which sched_relink_gpus reproduces. */
    if (sj->kind == SJ_WHOLE && all_whole && s->cl.total_free + freed < sj->gpus &&
        s->res_mode != SCHED_RES_REFERENCE) {
        bool held = true;
        for (int i = 0; i < na && held; i++)
            held = sched_gpus_taken(&s->cl, s->gpool + s->jobs[s->cand[i]].off,
                                    s->jobs[s->cand[i]].alloc);
        if (held) { /* (else the trial's own double-booking counts run) */
            for (int i = na - 1; i >= 0; i--)
                sched_relink_gpus(&s->cl, s->gpool + s->jobs[s->cand[i]].off,
                                  s->jobs[s->cand[i]].alloc);
            s->pf_job = j;
            s->pf_epoch = s->epoch;
            s->st.preempt_trials_skipped++;
            return false;
        }
    }
    int nv = 0;
    bool ok = false;
    while (nv < na && !ok) {
        release_res(s, s->cand[nv++]);
        ok = place(s, j, -1);
    }
    if (!ok) {
        for (int i = nv - 1; i >= 0; i--)
            retake_res(s, s->cand[i]);
        s->pf_job = j;
        s->pf_epoch = s->epoch;
        return false;
    }
    /* put back the victims j did not need: whole jobs whose GPUs all stayed
     * free, shared ones whose GPU j did not take (Kueue likewise drops
     * candidates the preemptor can do without) */
    int kept = 0;
    for (int i = 0; i < nv; i++) {
        int v = s->cand[i];
        bool unused = true;
        const Job *V = &s->jobs[v];
        if (spec(s, v)->kind == SJ_WHOLE) {
            for (int k = 0; k < V->alloc && unused; k++) {
                int g = s->gpool[V->off + k];
                int n = sched_node_of(&s->cl, g);
                unused = (s->cl.node_mask[n] >> (g - n * s->cl.gpn)) & 1;
            }
        } else if (sj->kind == SJ_WHOLE) {
            for (int k = 0; k < s->jobs[j].alloc && unused; k++)
                unused = s->gpool[s->jobs[j].off + k] != V->sgpu;
        } else {
            unused = s->jobs[j].sgpu != V->sgpu;
        }
        if (unused)
            retake_res(s, v);
        else
            s->cand[kept++] = v;
    }
    for (int i = 0; i < kept; i++) {
        int v = s->cand[i];
        const SchedJobSpec *sv = spec(s, v);
        double hv = job_held(s, v);
        bool cross = sv->team != tj;
        double vt_after = s->usage[sv->team] - hv;
        /* invariants: quota floor, and no answer back possible — a victim
         * of lower priority cannot preempt back; under fair sharing a victim
         * team never ends below the preemptor's share */
        if (cross && vt_after < s->w->teams[sv->team].quota - EPS)
            s->st.below_quota++;
        if (!(sv->prio < pj) &&
            !(under && cross && vt_after >= s->w->teams[sv->team].quota - EPS))
            s->st.preempt_cycles++;
        if (cross && s->policy == POLICY_FAIR_SHARE &&
            share_of(s, sv->team, vt_after) < share_of(s, tj, s->usage[tj] + nj) - EPS)
            s->st.preempt_cycles++;
        s->team_preempt[sv->team]++;
        if (sv->cls >= 0)
            s->cls_preempt[sv->cls]++;
        s->preemptions++;
        s->st.preempted++;
        kill_job(s, v, true);
    }
    start_placed(s, j);
    return true;
}

/* ------------------------------------------------------------ backfill */

typedef struct {
    double S;          /* the head's reserved start */
    int node;          /* single-node head: the node reserved, else -1 */
    int extra;         /* multi-node head: GPUs spare at S */
    int mode;          /* 0 none possible, 1 single node, 2 count, 3 shared head */
} Reservation;

#define ev_less sched_ev_less

/* Is event e stale (its job killed, resized or finished since)?  A job
 * keeps the low 32 bits of its live event's sequence: a stale event of it
 * would share them only after 2^32 pushes while it waits in the heap. */
static inline bool ev_stale(const Sim *s, const SchedEvent *e)
{
    const Job *J = &s->jobs[sched_ev_job(e)];
    return J->state != JS_RUNNING || J->evseq != (uint32_t)sched_ev_seq(e);
}

/* Walk finish events in time order without disturbing the heap: a
 * best-first search over the heap's tree with a small side heap of
 * indices.  Calls visit() on each live event until it returns true. */
__attribute__((always_inline)) static inline double
walk_finishes(Sim *s, bool (*visit)(Sim *, int, void *), void *ctx,
              SchedEvent *hit, int *rank)
{
    const SchedHeap *h = &s->heap;
    size_t *aux = s->aux, na = 0;
    if (h->n == 0)
        return -1;
    aux[na++] = 0;
    int pops = 0;
    while (na > 0 && pops++ < RES_MAX) {
        size_t i = aux[0];
        /* pop aux min */
        size_t last = aux[--na], k = 0;
        for (;;) {
            size_t l = 2 * k + 1;
            if (l >= na)
                break;
            size_t m = (l + 1 < na && ev_less(&h->a[aux[l + 1]], &h->a[aux[l]])) ? l + 1 : l;
            if (!ev_less(&h->a[aux[m]], &h->a[last]))
                break;
            aux[k] = aux[m];
            k = m;
        }
        if (na > 0)
            aux[k] = last;
        for (size_t c = SCHED_HEAP_D * i + 1; c <= SCHED_HEAP_D * i + SCHED_HEAP_D && c < h->n; c++) {
            size_t x = na++;
            while (x > 0 && ev_less(&h->a[c], &h->a[aux[(x - 1) / 2]])) {
                aux[x] = aux[(x - 1) / 2];
                x = (x - 1) / 2;
            }
            aux[x] = c;
        }
        const SchedEvent *e = &h->a[i];
        if (ev_stale(s, e))
            continue;
        if (visit(s, (int)sched_ev_job(e), ctx)) {
            if (hit)
                *hit = *e;
            if (rank)
                *rank = pops;
            return sched_ev_time(e);
        }
    }
    return -1;
}

typedef struct {
    int g;             /* GPUs the head needs */
    int hit_node;      /* single-node: node that reached g */
    int freed;         /* count mode: GPUs freed so far */
    bool single;
} ResCtx;

/* A finishing job frees its whole GPUs, and a shared GPU when its last
 * sharer leaves.  Per-node tallies are lazily reset through a stamp. */
static inline bool res_visit(Sim *s, int j, void *vctx)
{
    ResCtx *c = vctx;
    const SchedJobSpec *sp = spec(s, j);
    const Job *J = &s->jobs[j];
    int32_t one;
    const int32_t *gl;
    int cnt;
    if (sp->kind == SJ_WHOLE) {
        gl = s->gpool + J->off;
        cnt = J->alloc;
    } else {
        int u = J->sgpu;
        if (s->stamp_gpu[u] != s->stamp) {
            s->stamp_gpu[u] = s->stamp;
            s->left_gpu[u] = s->cl.sh_n[u];
        }
        if (--s->left_gpu[u] > 0)
            return false;
        one = u;
        gl = &one;
        cnt = 1;
    }
    if (!c->single) {
        c->freed += cnt;
        return c->freed >= c->g;
    }
    for (int i = 0; i < cnt; i++) {
        int n = sched_node_of(&s->cl, gl[i]);
        if (s->stamp_node[n] != s->stamp) {
            s->stamp_node[n] = s->stamp;
            s->acc_node[n] = s->cl.node_free[n];
        }
        if (++s->acc_node[n] >= c->g) {
            c->hit_node = n;
            return true;
        }
    }
    return false;
}

static bool first_visit(Sim *s, int j, void *ctx)
{
    (void)s;
    (void)j;
    (void)ctx;
    return true;
}

/* The reference computation: walk the finish events in time order from the
 * top of the heap (up to RES_MAX of them).  hit/rank: the event reached and
 * its position among all heap entries, for the kept reservation. */
static Reservation reserve_walk(Sim *s, int h, SchedEvent *hit, int *rank)
{
    Reservation r = {.S = -1, .node = -1, .extra = 0, .mode = 0};
    const SchedJobSpec *sp = spec(s, h);
    s->stamp++;
    if (sp->kind != SJ_WHOLE) {
        r.S = walk_finishes(s, first_visit, NULL, NULL, NULL);
        r.mode = r.S >= 0 ? 3 : 0;
    } else if (sp->gpus <= s->cl.gpn) {
        ResCtx c = {.g = sp->gpus, .hit_node = -1, .single = true};
        r.S = walk_finishes(s, res_visit, &c, hit, rank);
        r.node = c.hit_node;
        r.mode = r.S >= 0 ? 1 : 0;
    } else {
        ResCtx c = {.g = sp->gpus - s->cl.total_free, .single = false};
        r.S = walk_finishes(s, res_visit, &c, hit, rank);
        r.extra = s->cl.total_free + c.freed - sp->gpus;
        r.mode = r.S >= 0 ? 2 : 0;
    }
    return r;
}

static inline bool key_less(double t, uint64_t seq, const SchedEvent *k)
{
    SchedEvent e = {.key = sched_time_key(t), .id = seq << SCHED_EV_JOB_BITS};
    return ev_less(&e, k); /* seq is never k's: its job bits decide nothing */
}

static void rc_drop(Sim *s)
{
    s->rc.valid = false;
}

/* Keeping the reservation of a blocked head between passes (EASY backfill
 * re-walked the finish events on every pass while the head waited).  The
 * walk's answer is a function of the running jobs, the free GPUs and the
 * heap's order; between two passes with the same head it changes only in
 * the ways below, so the kept one is updated exactly instead:
 *  - a finish before the hit event: its GPUs were counted at that event and
 *    are now free from the start; the walk reaches the same event with the
 *    same node / spare GPUs, one heap entry earlier (rank - 1);
 *  - a start whose finish event orders before the hit: its GPUs leave the
 *    free count and come back before the hit (rank + 1);
 *  - a start finishing after the hit: count mode loses that many spare
 *    GPUs (still reached at the same event while extra >= 0); single-node
 *    mode keeps its node unless the job sits on it (a lower count on
 *    another node never makes an earlier hit).
 * Everything else — the head starting or changing, the hit event finishing,
 * a kill, a resize, any shared (MIG / fractional) job, rank past RES_MAX —
 * drops it, and the next pass walks again.  SCHED_RES_CHECK walks anyway
 * and counts disagreements (tests/test_sched: differential test). */
static void rc_on_start(Sim *s, int j, double finish, uint64_t seq)
{
    if (!s->rc.valid)
        return;
    const SchedJobSpec *sp = spec(s, j);
    if (j == s->rc.head || sp->kind != SJ_WHOLE) {
        rc_drop(s);
        return;
    }
    if (key_less(finish, seq, &s->rc.hit)) {
        if (++s->rc.rank > RES_MAX)
            rc_drop(s);
        return;
    }
    const Job *J = &s->jobs[j];
    if (s->rc.mode == 2) {
        s->rc.extra -= J->alloc;
        if (s->rc.extra < 0)
            rc_drop(s);
        return;
    }
    for (int i = 0; i < J->alloc; i++)
        if (sched_node_of(&s->cl, s->gpool[J->off + i]) == s->rc.node) {
            rc_drop(s);
            return;
        }
}

/* A heap entry popped by the event loop (live or stale). */
static void rc_on_pop(Sim *s, const SchedEvent *e)
{
    if (!s->rc.valid)
        return;
    if (e->id == s->rc.hit.id)
        rc_drop(s);
    else
        s->rc.rank--;
}

static Reservation reserve(Sim *s, int h)
{
    Reservation r;
    const SchedJobSpec *sp = spec(s, h);
    bool keepable = sp->kind == SJ_WHOLE && s->cl.n_shared == 0;
    if (s->res_mode != SCHED_RES_REFERENCE && keepable && s->rc.valid && s->rc.head == h) {
        r = (Reservation){.S = s->rc.S, .node = s->rc.node, .extra = s->rc.extra,
                          .mode = s->rc.mode};
        s->st.reservations_kept++;
        if (s->res_mode == SCHED_RES_CHECK) {
            Reservation w = reserve_walk(s, h, NULL, NULL);
            if (w.mode != r.mode || w.S != r.S || w.node != r.node ||
                (r.mode == 2 && w.extra != r.extra))
                s->st.reservation_mismatches++;
        }
    } else {
        SchedEvent hit;
        int rank = 0;
        r = reserve_walk(s, h, &hit, &rank);
        s->rc.valid = s->res_mode != SCHED_RES_REFERENCE && keepable &&
                      (r.mode == 1 || r.mode == 2);
        if (s->rc.valid) {
            s->rc.head = h;
            s->rc.mode = r.mode;
            s->rc.node = r.node;
            s->rc.extra = r.extra;
            s->rc.S = r.S;
            s->rc.hit = hit;
            s->rc.rank = rank;
        }
    }
    if (r.mode == 0)
        return r;
    s->st.reservations++;
    if (r.mode == 3)
        return r; /* a shared head's S is only a lower bound: nothing to audit */
    Job *H = &s->jobs[h];
    /* invariant: with nothing irregular since, a head's reservation only
     * ever moves earlier — a later one means a backfill delayed it. */
    if (H->res_s >= 0 && H->res_irr == (uint32_t)s->irregular && r.S > H->res_s + 1e-6)
        s->st.backfill_delays++;
    H->res_s = r.S;
    H->res_irr = (uint32_t)s->irregular;
    return r;
}

/* Remaining wall time of j if started now (exact: the simulator knows the
 * run times; Slurm uses the user's limit, so this is backfill's best case). */
static double run_estimate(const Sim *s, int j)
{
    const Job *J = &s->jobs[j];
    double rate = job_need(s, j) * J->fck;
    return (J->restarted ? s->restore : 0) + (job_work(s, j) - J->done0) / rate;
}

/* One backfill candidate c of team t: the cheap resource checks first,
 * then (the reservation computed for the first candidate that passes them
 * all) a start before the head's reserved start, or past it without
 * delaying the head.  True when the pass is over (no reservation possible,
 * or nothing left free).  *late: 1 when c would run past the reserved
 * start, 0 when it would end before it, untouched when not asked. */
static inline bool bf_candidate(Sim *s, int c, int t, int head, Reservation *r, int *node_max,
                                int *late)
{
    const SchedJobSpec *sc = spec(s, c);
    if (sc->kind == SJ_WHOLE ? sc->gpus > (sc->gpus <= s->cl.gpn ? *node_max : s->cl.total_free)
                             : s->cl.total_free == 0 && s->cl.n_shared == 0)
        return false;
    double need = job_need(s, c);
    if (!borrow_ok(s, t, need))
        return false;
    if (r->mode < 0)
        *r = reserve(s, head);
    if (r->mode == 0)
        return true;
    bool before = s->now + run_estimate(s, c) <= r->S + 1e-9;
    *late = !before;
    bool started = false;
    /* a job of the head's own team that runs past S must also leave the
     * head its borrowing headroom */
    if (!before && t == spec(s, head)->team && !borrow_ok(s, t, need + job_need(s, head)))
        return false;
    if (before) {
        started = try_start(s, c, -1);
    } else if (r->mode == 1) {
        started = try_start(s, c, r->node);
    } else if (r->mode == 2) {
        /* a shared job past S may keep a GPU shared that the reservation
         * counted as whole again: charge it one */
        int whole = sc->kind == SJ_WHOLE ? sc->gpus : 1;
        if (whole <= r->extra) {
            started = try_start(s, c, -1);
            if (started)
                r->extra -= whole;
        }
    }
    if (started) {
        s->st.backfilled++;
        *node_max = sched_max_node_free(&s->cl);
    }
    return s->cl.total_free == 0 && s->cl.n_shared == 0;
}

/* EASY backfill behind the blocked head: at most BF_DEPTH queued jobs, team
 * by team in policy order and at most per_team (see BF_DEPTH) from one.
 * Most candidates of a saturated pool are single-node gangs larger than any
 * node's free GPUs: sched_place_whole() would fail for them with or without
 * the reserved node excluded, so the cheap checks pass them over without
 * estimating or placing them, and without computing the reservation for
 * them (exact: the pass only takes GPUs, so the bound only falls; it is
 * re-read after each start).  Each team's window is kept between passes
 * (win_get()) with prefix minima of its gangs' sizes, so a team whose
 * window holds nothing the free GPUs could take is passed over at once,
 * and otherwise the scan starts at its first such job.  The reference mode
 * walks the queue lists instead, job by job. */
static void backfill(Sim *s, int head, const TeamKey *order, int nteams)
{
    if (s->cl.total_free == 0 && s->cl.n_shared == 0)
        return;
    Reservation r = {.mode = -1};
    int per_team = BF_DEPTH / (nteams > 0 ? nteams : 1);
    if (per_team < BF_TEAM_MIN)
        per_team = BF_TEAM_MIN;
    int scanned = 0;
    int node_max = sched_max_node_free(&s->cl);
    int head_team = spec(s, head)->team;
    /* With at most BF_DEPTH / BF_TEAM_MIN teams every team's window is
     * per_team long and all are scanned, whatever their order: when no
     * queue change reached any of them since a backfill with the same
     * head passed over them all, they are the same windows, and if the
     * free GPUs still fit none of their jobs this one passes over them
     * all again (SchedStats.backfills_skipped; CHECK scans and compares). */
    bool whole_set = s->res_mode != SCHED_RES_REFERENCE && nteams * per_team <= BF_DEPTH;
    bool fast = whole_set && s->bs.valid && s->bs.gen == s->win_gen && s->bs.head == head &&
                s->bs.per_team == per_team && s->bs.teams == s->to.teams &&
                s->bs.min_node > node_max && s->bs.min_multi > s->cl.total_free && !s->bs.shared;
    if (fast) {
        s->st.backfills_skipped++;
        if (s->res_mode != SCHED_RES_CHECK) {
            s->st.windows_skipped += (uint64_t)s->bs.nonempty;
            return;
        }
    }
    uint64_t epoch0 = s->epoch;
    bool tried = false; /* a window let a candidate through the cheap checks */
    for (int ti = 0; ti < nteams && scanned < BF_DEPTH; ti++) {
        int t = order[ti].team;
        int L = BF_DEPTH - scanned < per_team ? BF_DEPTH - scanned : per_team;
        if (s->res_mode == SCHED_RES_REFERENCE) {
            int from_team = 0;
            for (int pr = 2; pr >= 0 && from_team < L; pr--)
                for (int c = s->qh[t][pr]; c >= 0 && from_team < L;) {
                    int next = s->jobs[c].qnext;
                    if (c != head) {
                        from_team++;
                        int late;
                        if (bf_candidate(s, c, t, head, &r, &node_max, &late))
                            return;
                    }
                    c = next;
                }
            scanned += from_team;
            continue;
        }
        TeamWin *w = win_get(s, t, t == head_team ? head : -1, L);
        int n = w->len < L ? w->len : L;
        /* the first window position the cheap checks let through: the
         * prefix summaries are monotone, so a binary search finds it */
        int lo = 0, hi = n;
        if (n > 0 && w->pmin_node[n - 1] > node_max && w->pmin_multi[n - 1] > s->cl.total_free &&
            !w->pshared[n - 1])
            lo = hi = n; /* nothing in the window: the common case */
        while (lo < hi) {
            int m = (lo + hi) / 2;
            if (w->pmin_node[m] <= node_max || w->pmin_multi[m] <= s->cl.total_free || w->pshared[m])
                hi = m;
            else
                lo = m + 1;
        }
        if (lo == n && n > 0)
            s->st.windows_skipped++;
        tried |= lo < n;
        scanned += n;
        for (int i = lo; i < n; i++) {
            /* A job found late for this reserved start stays late: `now`
             * only grows and a queued job's run estimate is fixed (a queue
             * change in the window re-walks it, clearing `late`).  Past S,
             * count mode starts it only within the spare GPUs, which only
             * shrink: bf_candidate would return false, changing nothing.
             * SCHED_RES_CHECK asks it anyway and counts a disagreement. */
            bool skip = r.mode == 2 && ((w->late >> i) & 1) && w->late_S == r.S &&
                        w->e[i].whole > r.extra;
            s->st.late_skipped += skip;
            if (skip && s->res_mode != SCHED_RES_CHECK)
                continue;
            int late = -1;
            uint64_t started0 = s->st.backfilled;
            int c = w->e[i].id;
            bool over = bf_candidate(s, c, t, head, &r, &node_max, &late);
            if (skip && (over || s->st.backfilled != started0 || late == 0))
                s->st.window_mismatches++;
            if (over) {
                if (fast)
                    s->st.window_mismatches++;
                return;
            }
            if (w->e[i].id != c) {
                /* c started and left the window in place: the positions
                 * after it moved down by one; the scan goes on over the
                 * same jobs */
                i--;
                n--;
                continue;
            }
            if (late == 1) {
                if (w->late_S != r.S) {
                    w->late = 0;
                    w->late_S = r.S;
                }
                w->late |= 1ULL << i;
            }
        }
    }
    if (fast && tried)
        s->st.window_mismatches++; /* CHECK: the summary said every window is passed over */
    /* Every window passed over and nothing started (so no queue changed):
     * the windows scanned are the ones kept; remember what they hold. */
    if (!whole_set || tried || s->epoch != epoch0)
        return;
    int32_t min_node = INT32_MAX, min_multi = INT32_MAX;
    bool shared = false;
    int nonempty = 0;
    for (int ti = 0; ti < nteams; ti++) {
        const TeamWin *w = &s->win[order[ti].team];
        int n = w->len < per_team ? w->len : per_team;
        if (n == 0)
            continue;
        nonempty++;
        min_node = w->pmin_node[n - 1] < min_node ? w->pmin_node[n - 1] : min_node;
        min_multi = w->pmin_multi[n - 1] < min_multi ? w->pmin_multi[n - 1] : min_multi;
        shared |= w->pshared[n - 1];
    }
    s->bs = (BfSummary){.valid = true, .shared = shared, .head = head,
                        .per_team = per_team, .nonempty = nonempty,
                        .min_node = min_node, .min_multi = min_multi,
                        .teams = s->to.teams, .gen = s->win_gen};
}

/* ------------------------------------------------------------ the pass */

static void schedule_pass(Sim *s)
{
    uint64_t epoch0 = s->epoch;
    int nteams = 0;
    s->head_blocked = false;
    for (;;) {
        nteams = team_order(s);
        if (nteams == 0)
            break;
        int h = s->to.k[0].head;
        int ht = s->to.k[0].team;
        if (s->team_extra[ht] > 0)
            shrink_team_for(s, ht, s->thead_need[ht]);
        if (try_start(s, h, -1)) {
            if (s->last_head >= 0 && s->last_head != h &&
                s->jobs[s->last_head].state == JS_QUEUED)
                s->irregular++; /* the policy put a new job before the reserved head */
            continue;
        }
        if (s->elastic_extra > 0 && shrink_for(s, h))
            continue;
        if (s->p->tenancy.preemption && preempt_for(s, h))
            continue;
        s->head_blocked = true;
        if (s->last_head >= 0 && s->last_head != h && s->jobs[s->last_head].state == JS_QUEUED)
            s->irregular++; /* a new job overtook the reserved head */
        s->last_head = h;
        if (s->p->tenancy.backfill)
            backfill(s, h, s->to.k, nteams);
        break;
    }
    if (!s->head_blocked && s->n_elastic > 0 && s->cl.total_free > 0)
        grow_elastic(s);
    s->quiet = s->head_blocked && s->epoch == epoch0;
    s->quiet_epoch = s->epoch;
    s->quiet_nteams = nteams;
}

/* Would a pass after job j's arrival start anything?  Not when the last
 * pass was quiet (it started nothing, its head stayed blocked) and nothing
 * but this arrival happened since — the same state, so the same team order,
 * head, failed start, failed shrink and preemption, the same reservation
 * and the same backfill candidates, each of which failed on these very free
 * GPUs (a later `now` only turns "ends before the reservation" into "runs
 * past it", which places with fewer GPUs) — and j itself changes nothing:
 * it is not its team's head (the order and the head stay), and backfill
 * would not start it (no backfill, no free GPUs, outside its team's scan
 * window, or failing the scan's own resource checks).  Exact: the skipped
 * pass would have started nothing; tests/test_sched compares digests with
 * and without (SchedStats.passes_skipped counts them). */
static bool arrival_is_quiet(Sim *s, int j)
{
    if (!s->quiet || s->epoch != s->quiet_epoch || s->last_head < 0)
        return false;
    const Job *J = &s->jobs[j];
    if (J->state == JS_NEVER)
        return true; /* not queued */
    const SchedJobSpec *sp = spec(s, j);
    int t = sp->team, pr = sp->prio;
    if (s->thead[t] == j)
        return false;
    if (!s->p->tenancy.backfill || (s->cl.total_free == 0 && s->cl.n_shared == 0))
        return true;
    /* j is last of its priority in its team's scan (arrivals are the
     * newest jobs); the blocked head is passed over without counting */
    int ahead = s->qnp[t][pr] - 1;
    for (int p = pr + 1; p < 3; p++)
        ahead += s->qnp[t][p];
    const SchedJobSpec *hs = spec(s, s->last_head);
    if (hs->team == t && hs->prio >= pr)
        ahead--;
    int nt = s->quiet_nteams;
    int per_team = BF_DEPTH / (nt > 0 ? nt : 1);
    if (per_team < BF_TEAM_MIN)
        per_team = BF_TEAM_MIN;
    if (ahead >= per_team)
        return true;
    double need = job_need(s, j);
    if (!borrow_ok(s, t, need))
        return true;
    if (sp->kind == SJ_WHOLE)
        return sp->gpus > s->cl.total_free ||
               (sp->gpus <= s->cl.gpn && sp->gpus > sched_max_node_free(&s->cl));
    return false;
}

/* ------------------------------------------------------------ failures */

static void gpu_failure(Sim *s)
{
    int u = (int)sched_rng_below(&s->frng, (uint64_t)s->cl.G);
    s->failures++;
    if (s->cl.mode[u] == 0) {
        int j = s->owner[u];
        if (j >= 0) {
            s->st.failure_kills++;
            kill_job(s, j, false);
        }
        return;
    }
    /* a shared GPU: every sharer dies (rare: a linear scan is fine) */
    for (int i = s->n_running - 1; i >= 0; i--) {
        int j = s->running[i];
        if (spec(s, j)->kind != SJ_WHOLE && s->jobs[j].sgpu == u) {
            s->st.failure_kills++;
            kill_job(s, j, false); /* swaps an already-visited job into i */
        }
    }
}

/* ------------------------------------------------------------ results */

/* The k-th smallest of v[0..n) (0-based), Hoare's selection with a
 * median-of-three pivot and insertion sort below 16 elements: leaves
 * v[0..k) <= v[k] <= v[k+1..n).  Linear on average — the results need
 * three order statistics per team and class, not the sorted waits (a
 * million waits sorted took ~0.5 G instructions of a 1M-job run).
 * And for a second rank k2 < k (-1: none): v[r2[0]..r2[1]] on return holds
 * the values of ranks r2[0]..r2[1], k2 among them (every value before the
 * range is <= those in it, every one after >=; r2[1] < k), the narrowest
 * such range the partitions toward k made. */
static double select_kth(double *v, int n, int k, int k2, int r2[2])
{
    int lo = 0, hi = n - 1;
    r2[0] = 0;
    r2[1] = n - 1;
    while (hi - lo > 16) {
        int m = lo + (hi - lo) / 2;
        double a = v[lo], b = v[m], c = v[hi];
        double piv = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        int i = lo, j = hi;
        while (i <= j) {
            while (v[i] < piv)
                i++;
            while (v[j] > piv)
                j--;
            if (i <= j) {
                double t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        /* v[lo..j] <= piv, v[j+1..i-1] == piv, v[i..hi] >= piv */
        if (k2 >= lo && k2 <= hi) {
            r2[0] = k2 <= j ? lo : k2 >= i ? i : k2;
            r2[1] = k2 <= j ? j : k2 >= i ? hi : k2;
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    for (int i = lo + 1; i <= hi; i++) {
        double x = v[i];
        int q = i - 1;
        while (q >= lo && v[q] > x) {
            v[q + 1] = v[q];
            q--;
        }
        v[q + 1] = x;
    }
    if (k2 >= lo && k2 <= hi)
        r2[0] = r2[1] = k2; /* sorted in place */
    return v[k];
}

/* Nearest-rank percentile: the 0-based index of rank ⌈q·n⌉ (exact, no
 * interpolation), n > 0. */
static int pct_index(int n, double q)
{
    int k = (int)ceil(q * n - 1e-9);
    if (k < 1)
        k = 1;
    if (k > n)
        k = n;
    return k - 1;
}

/* p50, p95 and the largest of v[0..n) (reordered), 0 when empty: the same
 * values a full sort gives. */
static void wait_stats(double *v, int n, double *p50, double *p95, double *max)
{
    if (n <= 0) {
        *p50 = *p95 = *max = 0;
        return;
    }
    int i95 = pct_index(n, 0.95), i50 = pct_index(n, 0.50);
    /* the partitions toward p95 leave p50 in a range of ranks (the first
     * one's median-of-3 pivot splits near it): p50 is selected there */
    int r[2], r50[2];
    *p95 = select_kth(v, n, i95, i50, r);
    *p50 = i50 < i95 ? select_kth(v + r[0], r[1] - r[0] + 1, i50 - r[0], -1, r50) : *p95;
    double mx = *p95;
    for (int i = i95 + 1; i < n; i++)
        if (v[i] > mx)
            mx = v[i];
    *max = mx;
}

static bool cancelled(const EvalOptions *opt)
{
    return opt && opt->cancel && atomic_load_explicit(opt->cancel, memory_order_relaxed);
}

/* 0, -1 out of memory, 1 cancelled (checked between the sorts). */
static int fill_result(Sim *s, ScheduleResult *out)
{
    const SchedWorkload *w = s->w;
    size_t n = s->next_arrival;
    double H = s->H;
    out->ran = true;
    out->policy = s->policy;
    out->gpus = s->cl.G;
    /* Utilisation over the time there was work: a replayed trace that
     * drains long before the plan's horizon is not "idle" for the rest of
     * it, so its span ends at the last completion once every job is done.
     * A generated mix arrives over the whole horizon: a light one that
     * drains early left the pool idle to the horizon, as its sparkline
     * shows. */
    double span = H;
    if (w->series_span > 0 && s->completed == s->submitted && n > 0 && s->last_finish > 0) {
        double last_submit = w->jobs[n - 1].submit;
        span = s->last_finish > last_submit ? s->last_finish : last_submit;
        if (span > H || span <= 0)
            span = H;
    }
    double cap = (double)s->cl.G * span;
    out->utilization = cap > 0 ? s->busy_int / cap : 0;
    out->fragmentation = cap > 0 ? s->frag_int / cap : 0;
    out->jobs_submitted = s->submitted;
    out->jobs_completed = s->completed;
    out->failures = s->failures;
    out->preemptions = s->preemptions;
    out->events = s->events;
    for (int b = 0; b < PLAN_SERIES_LEN; b++) {
        /* buckets are bucket_w wide but the last one also takes whatever
         * runs past the series span (see sim_run): average over its time */
        double bt = s->ser_t[b] > 0 ? s->ser_t[b] : s->bucket_w;
        out->util_series[b] = s->cl.G > 0 ? s->ser_busy[b] / (bt * s->cl.G) : 0;
        out->queue_series[b] = s->ser_q[b] / bt;
    }

    double *waits = malloc((n ? n : 1) * sizeof *waits);
    int *tcount = calloc((size_t)s->nt + (size_t)w->n_classes + 2, sizeof *tcount);
    if (!waits || !tcount) {
        free(waits);
        free(tcount);
        return -1;
    }
    int *ccount = tcount + s->nt + 1;
    double useful = 0, wait_sum = 0;
    double jct_sum[PLAN_MAX_TEAMS + 1] = {0}, slow_sum[PLAN_MAX_TEAMS + 1] = {0};
    double wait_tsum[PLAN_MAX_TEAMS + 1] = {0};
    int done_n[PLAN_MAX_TEAMS + 1] = {0};
    for (size_t i = 0; i < n; i++) {
        Job *J = &s->jobs[i];
        if (J->state == JS_QUEUED || J->state == JS_NEVER) {
            J->wait += H - J->qsince;
            J->qsince = H;
        }
        if (J->state == JS_RUNNING)
            useful += seg_done(s, (int)i);
        else
            useful += J->done0;
        wait_sum += J->wait;
        int t = w->jobs[i].team;
        tcount[t]++;
        wait_tsum[t] += J->wait;
        if (J->state == JS_DONE) {
            done_n[t]++;
            jct_sum[t] += J->finish - w->jobs[i].submit;
            slow_sum[t] += (J->finish - w->jobs[i].submit) / w->jobs[i].dur;
        }
        if (w->jobs[i].cls >= 0)
            ccount[w->jobs[i].cls]++;
    }
    out->goodput = s->busy_int > 0 ? useful / s->busy_int : 0;
    if (out->goodput > 1)
        out->goodput = 1;

    /* per team and per class: waits bucketed (counting sort by team, then
     * by class), each bucket sorted: exact percentiles */
    int *tpos = malloc(((size_t)s->nt + (size_t)w->n_classes + 2) * sizeof *tpos);
    if (!tpos) {
        free(waits);
        free(tcount);
        return -1;
    }
    int *cpos = tpos + s->nt + 1;
    tpos[0] = 0;
    for (int t = 0; t < s->nt; t++)
        tpos[t + 1] = tpos[t] + tcount[t];
    for (size_t i = 0; i < n; i++)
        waits[tpos[w->jobs[i].team]++] = s->jobs[i].wait;
    out->n_teams = s->nt;
    for (int t = 0, off = 0; t < s->nt; t++) {
        TeamSchedResult *tr = &out->teams[t];
        memcpy(tr->name, w->teams[t].name, sizeof tr->name);
        int k = tcount[t];
        double p50, p95, mx;
        wait_stats(waits + off, k, &p50, &p95, &mx);
        tr->jobs = k;
        tr->wait_hours_mean = k ? wait_tsum[t] / k / 3600 : 0;
        tr->wait_hours_p50 = p50 / 3600;
        tr->wait_hours_p95 = p95 / 3600;
        tr->wait_hours_max = mx / 3600;
        tr->jct_hours_mean = done_n[t] ? jct_sum[t] / done_n[t] / 3600 : 0;
        tr->slowdown_mean = done_n[t] ? slow_sum[t] / done_n[t] : 0;
        tr->gpu_hours = s->team_gpu_s[t] / 3600;
        tr->borrowed_gpu_hours = s->team_borrow_s[t] / 3600;
        tr->preemptions = s->team_preempt[t];
        tr->lost_gpu_hours = s->team_lost_s[t] / 3600;
        s->st.team_mean_gpus[t] = H > 0 ? s->team_gpu_s[t] / H : 0;
        off += k;
    }
    if (cancelled(s->opt)) {
        free(tpos);
        free(waits);
        free(tcount);
        return 1;
    }
    out->n_classes = w->n_classes;
    if (w->n_classes > 0) {
        double *cslow = calloc((size_t)w->n_classes * 3, sizeof *cslow);
        int *cdone = calloc((size_t)w->n_classes, sizeof *cdone);
        if (!cslow || !cdone) {
            free(cslow);
            free(cdone);
            free(tpos);
            free(waits);
            free(tcount);
            return -1;
        }
        double *cwait = cslow + w->n_classes, *cjct = cslow + 2 * w->n_classes;
        cpos[0] = 0;
        for (int c = 0; c < w->n_classes; c++)
            cpos[c + 1] = cpos[c] + ccount[c];
        for (size_t i = 0; i < n; i++) {
            int c = w->jobs[i].cls;
            if (c < 0)
                continue;
            waits[cpos[c]++] = s->jobs[i].wait;
            cwait[c] += s->jobs[i].wait;
            if (s->jobs[i].state == JS_DONE) {
                cdone[c]++;
                cslow[c] += (s->jobs[i].finish - w->jobs[i].submit) / w->jobs[i].dur;
                cjct[c] += s->jobs[i].finish - w->jobs[i].submit;
            }
            if (s->jobs[i].state == JS_RUNNING) /* the open segment, up to the horizon */
                s->cls_gpu_s[c] += (H - s->jobs[i].seg_start) * job_held(s, (int)i);
        }
        for (int c = 0, off = 0; c < w->n_classes; c++) {
            ClassSchedResult *cr = &out->classes[c];
            memcpy(cr->name, w->classes[c].name, sizeof cr->name);
            memcpy(cr->team, w->teams[w->classes[c].team].name, sizeof cr->team);
            cr->gpus = w->classes[c].gpus;
            int k = ccount[c];
            double p50, p95, mx;
            wait_stats(waits + off, k, &p50, &p95, &mx);
            cr->jobs = k;
            cr->wait_hours_p95 = p95 / 3600;
            cr->slowdown_mean = cdone[c] ? cslow[c] / cdone[c] : 0;
            cr->wait_hours_mean = k ? cwait[c] / k / 3600 : 0;
            cr->wait_hours_p50 = p50 / 3600;
            cr->wait_hours_max = mx / 3600;
            cr->jct_hours_mean = cdone[c] ? cjct[c] / cdone[c] / 3600 : 0;
            cr->gpu_hours = s->cls_gpu_s[c] / 3600;
            cr->preemptions = s->cls_preempt[c];
            cr->lost_gpu_hours = s->cls_lost_s[c] / 3600;
            off += k;
        }
        free(cslow);
        free(cdone);
    }
    free(tpos);
    free(waits);
    free(tcount);

    s->st.horizon_s = H;
    s->st.mean_queue_len = H > 0 ? s->queue_int / H : 0;
    s->st.mean_wait_s = n ? wait_sum / (double)n : 0;
    s->st.p_wait = s->started ? (double)s->started_waited / s->started : 0;
    s->st.mean_busy_gpus = H > 0 ? s->busy_int / H : 0;
    s->st.jobs_running = s->n_running;
    s->st.jobs_queued = s->queued + s->never;
    s->st.jobs_unplaceable = s->never;
    s->st.checkpoint_cost_s = s->ck_cost;
    if ((int)n != s->completed + s->n_running + s->queued + s->never)
        s->st.unaccounted++;
    return 0;
}

/* ------------------------------------------------------------ the run */

double sched_young_interval(double checkpoint_cost_s, double mtbf_s)
{
    if (!(checkpoint_cost_s > 0) || !(mtbf_s > 0))
        return 0;
    return sqrt(2.0 * checkpoint_cost_s * mtbf_s);
}

static bool never_fits(const Sim *s, const SchedJobSpec *sp)
{
    if (sp->kind == SJ_WHOLE)
        return sp->gpus > s->cl.G;
    if (sp->kind == SJ_MIG)
        return s->cl.mig_c <= 0 || s->cl.prof_c[sp->mig] > s->cl.mig_c ||
               s->cl.prof_m[sp->mig] > s->cl.mig_m;
    return false;
}

static void arrive(Sim *s, int j)
{
    Job *J = &s->jobs[j];
    const SchedJobSpec *sp = spec(s, j);
    s->submitted++;
    ck_plan(s, j, &J->fck);
    if (never_fits(s, sp)) {
        J->state = JS_NEVER;
        J->qsince = s->now;
        s->never++;
        return;
    }
    q_insert(s, j);
}

#ifdef GPUPLAN_DEBUG_INVARIANTS
/* Nodes with every GPU free in group g of `per` consecutive nodes (a leaf or
 * an NVLink domain), counted afresh. */
static int whole_free_nodes(const SchedCluster *cl, int g, int per)
{
    int full = 0;
    for (int n = g * per; n < (g + 1) * per && n < cl->n_nodes; n++)
        full += cl->node_free[n] == cl->node_cap[n];
    return full;
}

/* The full consistency audit of the debug build, O(GPUs + running jobs):
 * free counts match the bitmasks, every GPU a running job holds is marked
 * taken and owned by it and by nobody else, the teams hold exactly what
 * the cluster lent, and the queues hold what the counters say. */
static void audit(Sim *s)
{
    const SchedCluster *cl = &s->cl;
    int free_sum = 0;
    for (int n = 0; n < cl->n_nodes; n++) {
        if (__builtin_popcountll(cl->node_mask[n]) != cl->node_free[n])
            s->st.double_booked++;
        if (((cl->node_any[n / 64] >> (n % 64)) & 1) != (cl->node_free[n] > 0))
            s->st.unaccounted++; /* take_range's bitmap of nodes with free GPUs */
        free_sum += cl->node_free[n];
    }
    if (free_sum != cl->total_free)
        s->st.double_booked++;
    /* the whole-free node counts per leaf and domain (take_range's bound;
     * a one-node domain keeps none) */
    for (int l = 0; l < cl->n_leaf; l++)
        if (whole_free_nodes(cl, l, cl->nodes_per_leaf) != cl->leaf_full[l])
            s->st.unaccounted++;
    for (int d = 0; d < cl->n_dom && cl->nodes_per_dom > 1; d++)
        if (whole_free_nodes(cl, d, cl->nodes_per_dom) != cl->dom_full[d])
            s->st.unaccounted++;
    /* the leaf max tree: leaves hold the leaves' free counts (-1 past the
     * last), every parent the larger of its children (lt_set's early stops) */
    for (int k = 0; k < cl->leaf_tsz; k++)
        if (cl->leaf_tree[cl->leaf_tsz + k] != (k < cl->n_leaf ? cl->leaf_free[k] : -1))
            s->st.unaccounted++;
    for (int k = cl->leaf_tsz - 1; k >= 1; k--) {
        int32_t a = cl->leaf_tree[2 * k], b = cl->leaf_tree[2 * k + 1];
        if (cl->leaf_tree[k] != (a > b ? a : b))
            s->st.unaccounted++;
    }
    /* the mask of non-empty free-count buckets (best fit's and backfill's bound) */
    for (int k = 1; k <= cl->gpn; k++)
        if ((int)((cl->bk_mask >> (k - 1)) & 1) != (cl->bk_head[k] >= 0))
            s->st.unaccounted++;
    int owned = 0;
    for (int g = 0; g < cl->G; g++)
        owned += s->owner[g] >= 0;
    int held_whole = 0;
    for (int i = 0; i < s->n_running; i++) {
        int j = s->running[i];
        const Job *J = &s->jobs[j];
        if (J->state != JS_RUNNING || J->ridx != i)
            s->st.unaccounted++;
        if (spec(s, j)->kind != SJ_WHOLE) {
            if (cl->mode[J->sgpu] == 0)
                s->st.double_booked++;
            continue;
        }
        held_whole += J->alloc;
        for (int k = 0; k < J->alloc; k++) {
            int g = s->gpool[J->off + k];
            int n = g / cl->gpn;
            if (s->owner[g] != j || ((cl->node_mask[n] >> (g - n * cl->gpn)) & 1))
                s->st.double_booked++;
        }
    }
    if (owned != held_whole)
        s->st.double_booked++;
    double held = 0;
    for (int t = 0; t < s->nt; t++)
        held += s->usage[t];
    if (fabs(held - sched_cluster_busy(cl)) > 1e-6 * (1 + held))
        s->st.unaccounted++;
    int q = 0;
    for (int t = 0; t < s->nt; t++)
        q += s->qn[t];
    if (q != s->queued)
        s->st.unaccounted++;
}
#endif

static void sim_free(Sim *s)
{
    sched_cluster_free(&s->cl);
    sched_heap_free(&s->heap);
    sched_big_free(s->jobs, s->n_alloc, sizeof *s->jobs);
    sched_big_free(s->gpool, s->slots_alloc, sizeof *s->gpool);
    free(s->owner);
    sched_big_free(s->running, s->n_alloc, sizeof *s->running);
    sched_big_free(s->elastic, s->n_alloc, sizeof *s->elastic);
    sched_big_free(s->cand, s->n_alloc, sizeof *s->cand);
    free(s->vkeys);
    free(s->stamp_node);
    free(s->acc_node);
    free(s->stamp_gpu);
    free(s->left_gpu);
    free(s->aux);
}

int sched_run(const Plan *p, const SchedWorkload *w, const Accelerator *a, const EvalOptions *opt,
              int gpus, int gpn, int gpd, int gpl, ScheduleResult *out, SchedStats *st)
{
    return sched_run_with(p, w, a, opt, gpus, gpn, gpd, gpl, SCHED_RES_KEPT, out, st);
}

static int run_sim(const Plan *p, const SchedWorkload *w, const Accelerator *a,
                   const EvalOptions *opt, int gpus, int gpn, int gpd, int gpl, int res_mode,
                   double miss_s, ScheduleResult *out, SchedStats *st);

int sched_run_with(const Plan *p, const SchedWorkload *w, const Accelerator *a,
                   const EvalOptions *opt, int gpus, int gpn, int gpd, int gpl, int res_mode,
                   ScheduleResult *out, SchedStats *st)
{
    return run_sim(p, w, a, opt, gpus, gpn, gpd, gpl, res_mode, -1, out, st);
}

int sched_run_miss(const Plan *p, const SchedWorkload *w, const Accelerator *a,
                   const EvalOptions *opt, int gpus, int gpn, int gpd, int gpl, double miss_s,
                   ScheduleResult *out)
{
    return run_sim(p, w, a, opt, gpus, gpn, gpd, gpl, SCHED_RES_KEPT, miss_s, out, NULL);
}

static int run_sim(const Plan *p, const SchedWorkload *w, const Accelerator *a,
                   const EvalOptions *opt, int gpus, int gpn, int gpd, int gpl, int res_mode,
                   double miss_s, ScheduleResult *out, SchedStats *st)
{
    memset(out, 0, sizeof *out);
    Sim *s = calloc(1, sizeof *s);
    if (!s)
        return -2;
    s->res_mode = res_mode;
    /* the start digest is a check on the schedule for tests and benches,
     * read only through st: a capacity search's probes skip it */
    s->digest = st != NULL;
    if (miss_s >= 0) {
        /* a team's p95 (nearest rank over its jobs submitted before the
         * horizon) exceeds miss_s once n - i95 of its waits do */
        int cnt[PLAN_MAX_TEAMS + 1] = {0};
        for (size_t i = 0; i < w->n && w->jobs[i].submit < w->horizon; i++)
            cnt[w->jobs[i].team]++;
        for (int t = 0; t <= PLAN_MAX_TEAMS; t++)
            s->miss_left[t] = cnt[t] > 0 ? cnt[t] - pct_index(cnt[t], 0.95) : INT32_MAX;
        s->miss_s = miss_s;
        s->miss_on = true;
    }
    s->w = w;
    s->specs = w->jobs;
    s->p = p;
    s->opt = opt;
    s->n = w->n;
    s->H = w->horizon;
    s->nt = w->n_teams;
    s->policy = p->tenancy.policy;
    /* the sparklines cover the horizon, or a replayed trace's active span */
    double series_span = w->series_span > 0 && w->series_span < s->H ? w->series_span : s->H;
    s->bucket_w = series_span / PLAN_SERIES_LEN;
    s->last_head = -1;
    s->pf_job = -1;
    s->restore = p->tenancy.restore_s > 0 ? p->tenancy.restore_s : 0;
    /* δ: the storage's blocking checkpoint write (storage.checkpoint_stall). */
    s->ck_cost = p->storage.checkpoint_stall_s > 0 ? p->storage.checkpoint_stall_s : 60;
    int rc = 0;
    if (gpus < 1 || sched_cluster_init(&s->cl, gpus, gpn, gpd, gpl, a) < 0) {
        free(s);
        return -2;
    }
    /* a job never holds more than the pool: its GPU slots are capped there */
    size_t slots = 0;
    for (size_t i = 0; i < s->n; i++)
        if (w->jobs[i].kind == SJ_WHOLE)
            slots += (size_t)(w->jobs[i].max_gpus < gpus ? w->jobs[i].max_gpus : gpus);
    if (slots > (size_t)INT32_MAX) { /* Job.off is 32 bits: 8 GB of slots is out of memory */
        sched_cluster_free(&s->cl);
        free(s);
        return -2;
    }
    size_t N = s->n ? s->n : 1;
    /* the per-job arrays of a budget-sized run are 100s of MB: big pages */
    s->n_alloc = N;
    s->slots_alloc = slots ? slots : 1;
    s->jobs = sched_big_calloc(N, sizeof *s->jobs);
    s->gpool = sched_big_calloc(s->slots_alloc, sizeof *s->gpool);
    s->owner = malloc((size_t)gpus * sizeof *s->owner);
    s->running = sched_big_calloc(N, sizeof *s->running);
    s->elastic = sched_big_calloc(N, sizeof *s->elastic);
    s->cand = sched_big_calloc(N, sizeof *s->cand);
    s->vkeys = malloc(N * sizeof *s->vkeys);
    s->stamp_node = calloc((size_t)s->cl.n_nodes, sizeof *s->stamp_node);
    s->acc_node = calloc((size_t)s->cl.n_nodes, sizeof *s->acc_node);
    s->stamp_gpu = calloc((size_t)gpus, sizeof *s->stamp_gpu);
    s->left_gpu = calloc((size_t)gpus, sizeof *s->left_gpu);
    s->aux = malloc((SCHED_HEAP_D * RES_MAX + 8) * sizeof *s->aux);
    if (!s->jobs || !s->gpool || !s->owner || !s->running || !s->elastic || !s->cand ||
        !s->vkeys || !s->stamp_node || !s->acc_node || !s->stamp_gpu || !s->left_gpu || !s->aux) {
        sim_free(s);
        free(s);
        return -2;
    }
    for (int g = 0; g < gpus; g++)
        s->owner[g] = -1;
    size_t o = 0;
    for (size_t i = 0; i < s->n; i++) {
        /* first touch of a budget-sized job array faults in tens of MB:
         * ~130 ms of CPU on a loaded VM, so this loop polls too */
        if (i % 16384 == 0 && cancelled(opt)) {
            out->cancelled = true;
            sim_free(s);
            free(s);
            return -1;
        }
        Job *J = &s->jobs[i];
        J->off = (int32_t)o;
        if (w->jobs[i].kind == SJ_WHOLE)
            o += (size_t)(w->jobs[i].max_gpus < gpus ? w->jobs[i].max_gpus : gpus);
        J->ridx = J->eidx = J->qnext = J->qprev = -1;
        J->sgpu = -1;
        J->res_s = -1;
    }
    for (int t = 0; t <= PLAN_MAX_TEAMS; t++) {
        for (int pr = 0; pr < 3; pr++)
            s->qh[t][pr] = s->qt[t][pr] = -1;
        s->thead[t] = -1;
    }
    /* failures: the pool fails as a Poisson process of rate G / MTBF (each
     * GPU exponential with mean mtbf_gpu), hitting a uniform GPU. */
    double mtbf_s = p->tenancy.mtbf_gpu_h * 3600.0;
    s->fail_mean = mtbf_s > 0 ? mtbf_s / gpus : 0;
    uint64_t fx = p->tenancy.seed ^ 0x6661696c75726573ULL; /* "failures" */
    sched_rng_seed(&s->frng, sched_splitmix64(&fx));
    s->next_fail = s->fail_mean > 0 ? sched_rng_exp(&s->frng, s->fail_mean) : DBL_MAX;

    for (;;) {
        bool skip = false;
        double tf = s->heap.n ? sched_ev_time(&s->heap.a[0]) : DBL_MAX;
        double ta = s->next_arrival < s->n ? w->jobs[s->next_arrival].submit : DBL_MAX;
        double tx = s->next_fail;
        double t = tf;
        if (tx < t)
            t = tx;
        if (ta < t)
            t = ta;
        if (t >= s->H)
            break;
        if (tf <= tx && tf <= ta) {
            SchedEvent e = sched_heap_pop(&s->heap);
            rc_on_pop(s, &e);
            if (ev_stale(s, &e))
                continue; /* resized or killed since */
            /* the next finish's job record and spec, random in arrays of
             * 100s of MB: fetched while this event and its pass run */
            if (s->heap.n) {
                uint32_t nj = sched_ev_job(&s->heap.a[0]);
                const Job *nx = &s->jobs[nj];
                __builtin_prefetch(nx);
                __builtin_prefetch((const char *)nx + sizeof *nx - 1);
                __builtin_prefetch(&s->specs[nj]);
            }
            advance(s, t);
            s->now = t;
            finish_job(s, (int)sched_ev_job(&e));
        } else if (tx <= ta) {
            advance(s, t);
            s->now = t;
            gpu_failure(s);
            s->next_fail += sched_rng_exp(&s->frng, s->fail_mean);
        } else {
            advance(s, t);
            s->now = t;
            int j = (int)s->next_arrival++;
            arrive(s, j);
            skip = s->res_mode != SCHED_RES_REFERENCE && arrival_is_quiet(s, j);
        }
        s->events++;
        if (skip)
            s->st.passes_skipped++;
        else
            schedule_pass(s);
        /* and the next finish's GPU list: its job record, prefetched at the
         * pop, has arrived by now (every job's off lies in [0, slots], so
         * the address is the array's or one past it; a prefetch never faults) */
        if (s->heap.n)
            __builtin_prefetch(&s->gpool[s->jobs[sched_ev_job(&s->heap.a[0])].off]);
        if (s->events % POLL_EVERY == 0 && (s->missed || cancelled(opt))) {
            rc = s->missed ? 1 : -1;
            break;
        }
#ifdef GPUPLAN_DEBUG_INVARIANTS
        if (s->events % 4096 == 0)
            audit(s);
#endif
    }
    if (rc == 1) { /* a certain miss: no result (out->ran false) */
        sim_free(s);
        free(s);
        return 1;
    }
    if (rc == 0) {
        advance(s, s->H);
        s->now = s->H;
        for (int t = 0; t < s->nt; t++)
            team_touch(s, t);
    }
    s->st.double_booked += s->cl.double_booked;
    /* the results select order statistics of every job's wait (ms for a budget-sized
     * mix): a run cancelled meanwhile skips them */
    if (rc == 0 && cancelled(opt))
        rc = -1;
    if (rc == 0) {
        int fr = fill_result(s, out);
        rc = fr == -1 ? -2 : fr == 1 ? -1 : 0;
    }
    if (rc == -1) {
        out->cancelled = true;
        out->ran = true;
        out->policy = s->policy;
        out->gpus = gpus;
    }
    s->st.invariant_violations = s->st.double_booked + s->st.partial_gangs + s->st.below_quota +
                                 s->st.preempt_cycles + s->st.unaccounted +
                                 s->st.backfill_delays;
    if (st)
        *st = s->st;
    sim_free(s);
    free(s);
    return rc;
}
