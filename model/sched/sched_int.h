/* model/sched/sched_int.h — the simulator's internal pieces, shared by the
 * files of model/sched/ only (not part of the model's public surface). */
#ifndef GPUPLAN_MODEL_SCHED_INT_H
#define GPUPLAN_MODEL_SCHED_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include "sched.h"

/* ---------------------------------------------------------------- rng.c */
typedef struct {
    uint64_t s[4];
} SchedRng;

uint64_t sched_splitmix64(uint64_t *x);
void sched_rng_seed(SchedRng *r, uint64_t seed);
double sched_rng_lognormal(SchedRng *r, double mean, double cv);
/* The lognormal's mu and sigma for a mean and cv > 0, computed once for a
 * stream of draws (the logarithms were half the generator's time). */
typedef struct {
    double mu, sigma;
} SchedLognormal;
SchedLognormal sched_lognormal_params(double mean, double cv);
uint64_t sched_rng_below(SchedRng *r, uint64_t n); /* in [0,n) */

/* The draws, inline: the generator makes five to seven calls a job (a
 * million-job mix: ~7 M calls, their call overhead ~0.03 G instructions).
 * xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number
 * generators", ACM TOMS 2021; reference code at prng.di.unimi.it). */
static inline uint64_t sched_rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t sched_rng_next(SchedRng *r)
{
    uint64_t *s = r->s;
    uint64_t result = sched_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = sched_rng_rotl(s[3], 45);
    return result;
}

/* in (0,1): 53 random bits, shifted by half an ulp so that log() of it is
 * always finite */
static inline double sched_rng_uniform(SchedRng *r)
{
    return ((double)(sched_rng_next(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* inversion: -mean·ln U is exponential with that mean */
static inline double sched_rng_exp(SchedRng *r, double mean)
{
    return -mean * log(sched_rng_uniform(r));
}

/* Box–Muller (one of the pair; the generator is cheap) */
static inline double sched_rng_normal(SchedRng *r)
{
    double u1 = sched_rng_uniform(r), u2 = sched_rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* the same operations in the same order as sched_rng_lognormal() from mean
 * and cv: the same doubles (C11 without FP contraction) */
static inline double sched_rng_lognormal_p(SchedRng *r, const SchedLognormal *p)
{
    return exp(p->mu + p->sigma * sched_rng_normal(r));
}

/* --------------------------------------------------------------- heap.c */
/* A finish event in 16 bytes: four heap children fill one 64-byte line.
 * key: the finish time's bits mapped so that unsigned order is the
 * doubles' order (sched_time_key); id: the insertion sequence (which breaks
 * ties in time deterministically) above the job index.  (time, insertion)
 * order is then (key, id) order. */
typedef struct {
    uint64_t key;
    uint64_t id;        /* seq << SCHED_EV_JOB_BITS | job */
} SchedEvent;

#define SCHED_EV_JOB_BITS 25 /* job indices below 2^25 (SCHED_MAX_JOBS: 20 M) */
#define SCHED_EV_SEQ_MAX (1ULL << (64 - SCHED_EV_JOB_BITS)) /* pushes per run: 5.5e11 */

/* t's bits as an unsigned integer in the doubles' order (negatives
 * complemented, non-negatives with the sign bit set); -0 is read as +0, so
 * equal doubles map to equal keys.  Not for NaN (finish times are finite). */
static inline uint64_t sched_time_key(double t)
{
    t += 0.0; /* -0 + 0 = +0 (round to nearest) */
    uint64_t b;
    __builtin_memcpy(&b, &t, sizeof b);
    return (b >> 63) ? ~b : b | (1ULL << 63);
}

static inline double sched_key_time(uint64_t k)
{
    uint64_t b = (k >> 63) ? k & ~(1ULL << 63) : ~k;
    double t;
    __builtin_memcpy(&t, &b, sizeof t);
    return t;
}

static inline double sched_ev_time(const SchedEvent *e)
{
    return sched_key_time(e->key);
}

static inline uint64_t sched_ev_seq(const SchedEvent *e)
{
    return e->id >> SCHED_EV_JOB_BITS;
}

static inline uint32_t sched_ev_job(const SchedEvent *e)
{
    return (uint32_t)(e->id & ((1ULL << SCHED_EV_JOB_BITS) - 1));
}

/* (time, insertion) order: a before b */
static inline bool sched_ev_less(const SchedEvent *a, const SchedEvent *b)
{
    return a->key < b->key || (a->key == b->key && a->id < b->id);
}

#define SCHED_HEAP_D 4   /* children per heap node: a[D·i+1 .. D·i+D] */

typedef struct {
    SchedEvent *a;      /* a[1 .. 4] (every node's children) start a 64-byte line */
    void *mem;          /* the allocation a lies in */
    size_t n, cap;
    uint64_t seq;       /* the next push's insertion sequence */
} SchedHeap;

/* -1 = out of memory, or job >= 2^SCHED_EV_JOB_BITS, or SCHED_EV_SEQ_MAX
 * pushes reached */
int sched_heap_push(SchedHeap *h, double t, uint32_t job);
SchedEvent sched_heap_pop(SchedHeap *h);  /* h->n must be > 0 */
void sched_heap_free(SchedHeap *h);

/* ---------------------------------------------------------------- gen.c */
typedef enum { SJ_WHOLE = 0, SJ_MIG, SJ_FRAC } SchedJobKind;

/* One job as generated or replayed; immutable during a run. */
typedef struct {
    double submit;      /* s from the start of the horizon */
    double dur;         /* run time at the requested size (min_gpus if elastic), s */
    int32_t team;       /* index into SchedWorkload.teams */
    int32_t cls;        /* index into SchedWorkload.classes, -1 = not reported */
    uint8_t kind;       /* SchedJobKind */
    uint8_t prio;       /* JobPriority */
    int16_t mig;        /* SJ_MIG: profile index in the accelerator */
    int32_t gpus;       /* SJ_WHOLE: GPUs (the minimum if elastic); SJ_FRAC: milli-GPU */
    int32_t max_gpus;   /* SJ_WHOLE: elastic upper bound (== gpus when rigid) */
} SchedJobSpec;

typedef struct {
    char name[PLAN_NAME_LEN];
    double weight;
    double quota;       /* GPUs */
    double borrow;      /* GPUs above quota, < 0 = unlimited */
} SchedTeamDef;

typedef struct {
    char name[PLAN_NAME_LEN];
    int team;
    double gpus;        /* as requested, for display */
} SchedClassDef;

/* The job mix of a plan, built once and replayed on every pool size the
 * capacity search tries (same seed → same jobs). */
typedef struct {
    SchedJobSpec *jobs; /* sorted by submit time */
    size_t n;
    SchedTeamDef teams[PLAN_MAX_TEAMS + 1];
    int n_teams;
    SchedClassDef classes[PLAN_MAX_CLASSES];
    int n_classes;
    double horizon;            /* s */
    double series_span;        /* span the time series cover, 0 = the horizon (a trace's
                                * last submission + longest run, with room to drain) */
    int max_whole;             /* largest whole-GPU request (elastic: its minimum) */
    double offered_gpu_s;      /* Σ GPU-equivalents × run time */
    double team_load_gpu_s[PLAN_MAX_TEAMS + 1]; /* per team: Σ GPU-equivalents × the part
                                * of the run before the horizon (the work arriving in it) */
    int mig_fallbacks;         /* classes whose MIG profile the accelerator lacks */
    int classes_dropped;       /* classes beyond PLAN_MAX_CLASSES (simulated, not reported) */
    bool too_many;             /* over the budget even when sampled: not built */
    bool cancelled;            /* opt->cancel was set while building: not built */
    double expected_jobs;      /* Σ rate × horizon asked for (generated mixes) */
    double sampled_from;       /* the horizon asked for when the budget shortened
                                * w->horizon to a sample window (s), else 0 */
} SchedWorkload;

/* A run holds ~200 bytes per job: 20 million jobs is ~4 GB, past what a
 * planning tool should take from a desktop. */
#define SCHED_MAX_JOBS 20000000
_Static_assert(SCHED_MAX_JOBS <= (1L << SCHED_EV_JOB_BITS), "SchedEvent.id: a job index");

/* Resource budget (issue 17 D8), checked before a job is generated.
 * Memory: a run holds about SCHED_JOB_BYTES per job (the job spec, the
 * simulator's job record, queue links, GPU slots: 19.8 M one-GPU jobs
 * peaked at 3.8 GB RSS, 192 B/job, measured on this code).  Time: the
 * capacity search replays the mix on about SCHED_SEARCH_PROBES pool sizes
 * (a doubling or two, then a bisection over ~2^10 node counts), so its work
 * is jobs × probes job-runs.  Measured here (-O2, one core): 2.68 M jobs on
 * 2,232 GPUs near saturation, 5.3 M events, took 10 s (~3.7 µs per
 * job-run); light load runs ~6x faster.  SCHED_BUDGET_JOB_RUNS = 3 M keeps
 * the worst case near 10 s and a run's memory near 256 MB (the dashboard
 * cancels a stale run within one poll).  A generated mix expected to exceed
 * either is SAMPLED: simulated over the first part of the horizon that fits
 * (arrivals are stationary Poisson, so a window of the same process is a
 * fair sample of waits and utilisation), with a warning.  A window shorter
 * than SCHED_MIN_WINDOW_S or ten mean run times of the longest class could
 * not show a steady state: the mix is then refused (too_many). */
#define SCHED_JOB_BYTES 200
#define SCHED_BUDGET_BYTES (256.0 * 1024 * 1024)
#define SCHED_BUDGET_JOB_RUNS 3e6
#define SCHED_SEARCH_PROBES 12
#define SCHED_MIN_WINDOW_S 86400.0

/* The smallest pool, in whole nodes of gpn GPUs, the capacity search
 * tries (search.c): one that runs the largest gang, holds every team's
 * quota and carries the work arriving within the horizon (as far as the
 * teams' quotas and borrowing limits let them take it). */
int sched_search_floor_nodes(const Plan *p, const SchedWorkload *w, int gpn);

/* The largest job count the budget allows for a mix replayed `probes` times. */
double sched_budget_jobs(int probes);

/* Build the job mix, sampled to fit the budget for `probes` replays (1 for
 * one run, SCHED_SEARCH_PROBES for the capacity search).  Polls opt->cancel.
 * 0, or -1 when out of memory, too_many or cancelled (w is then empty but
 * for those flags and expected_jobs).  a and opt may be NULL. */
int sched_workload_build(const Plan *p, const Accelerator *a, const EvalOptions *opt, int probes,
                         SchedWorkload *w);
void sched_workload_free(SchedWorkload *w);

/* -------------------------------------------------------------- place.c */
#define SCHED_SH_NB 17        /* shared-GPU buckets (free MIG slices 0..16, or tenths) */
#define SCHED_MILLI 1000      /* a fractional GPU is held in thousandths */

typedef struct {
    int G;                    /* GPUs */
    int gpn;                  /* GPUs per (full) node */
    int n_nodes;
    int nodes_per_dom, n_dom, gpd;   /* NVLink domains */
    int nodes_per_leaf, n_leaf, gpl; /* leaf switches */
    int32_t *node_cap, *node_free;
    uint64_t *node_mask;      /* bit i set = GPU i of the node is free (whole) */
    int32_t *bk_head;         /* [gpn+1] nodes by free count, for best fit */
    uint64_t bk_mask;         /* bit k-1: bk_head[k] is not empty (k >= 1) */
    int32_t *bk_next, *bk_prev;
    int32_t *dom_free, *leaf_free;
    int32_t *dom_full, *leaf_full; /* nodes with every GPU free, per domain / leaf */
                                   /* (dom_*: kept only when a domain spans nodes) */
    /* leaf_free as a max tree (leaf_tree[1] the largest, leaves at
     * leaf_tsz + l, padding -1): the multi-leaf placement asks for the
     * fullest leaf in O(log leaves) instead of scanning every leaf */
    int32_t *leaf_tree;
    int leaf_tsz;
    int32_t *scratch;         /* [n_nodes]: take_range's list of nodes with free GPUs */
    uint64_t *node_any;       /* bit n: node n has a free GPU (take_range lists them) */
    int total_free;           /* whole free GPUs */
    /* shared GPUs (MIG slices or time-shared fractions) */
    uint8_t *mode;            /* per GPU: 0 whole, 1 MIG, 2 fractional */
    int16_t *sh_used;         /* MIG compute slices / milli-GPU in use */
    int16_t *sh_mem;          /* MIG memory units in use */
    int16_t *sh_n;            /* sharers */
    uint8_t *sh_cnt;          /* [G × CAT_MAX_MIG] instances per profile */
    int32_t *sh_next, *sh_prev;
    int32_t sh_head[2][SCHED_SH_NB];
    double shared_use;        /* GPU-equivalents in use on shared GPUs */
    int n_shared;             /* GPUs in a shared mode */
    /* MIG geometry of the accelerator (CATALOG-FACTS 1.2) */
    int mig_c, mig_m, n_prof;
    int prof_c[CAT_MAX_MIG], prof_m[CAT_MAX_MIG], prof_max[CAT_MAX_MIG];
    uint64_t double_booked;   /* invariant violations seen by take/release */
} SchedCluster;

int sched_cluster_init(SchedCluster *cl, int gpus, int gpn, int gpd, int gpl,
                       const Accelerator *a);
void sched_cluster_free(SchedCluster *cl);
static inline int sched_node_of(const SchedCluster *cl, int gpu)
{
    return gpu / cl->gpn;
}
void sched_take_gpu(SchedCluster *cl, int gpu);
void sched_release_gpu(SchedCluster *cl, int gpu);
/* Release n GPUs at once (runs of one node cost one bucket move); owner
 * (GPU -> job, may be NULL): their entries set to -1 in the same pass. */
void sched_release_gpus(SchedCluster *cl, const int32_t *gpus, int n, int32_t *owner);
/* Take n GPUs at once (the state n sched_take_gpu calls leave); owner (may
 * be NULL): their entries set to job j in the same pass. */
void sched_take_gpus(SchedCluster *cl, const int32_t *gpus, int n, int32_t *owner, int32_t j);
/* All n GPUs taken (whole)? */
bool sched_gpus_taken(const SchedCluster *cl, const int32_t *gpus, int n);
/* The bucket order a release and retake of these taken GPUs leaves, with
 * no count changed (see preempt_for). */
void sched_relink_gpus(SchedCluster *cl, const int32_t *gpus, int n);
/* Gang placement of g whole GPUs (all or none) avoiding node `exclude`
 * (-1 = none); writes the GPUs to out[0..g). */
bool sched_place_whole(SchedCluster *cl, int g, int exclude, int32_t *out);
/* The most whole GPUs free on any one node (0 when none): a single-node gang
 * of more cannot be placed, whatever node a reservation excludes. */
static inline int sched_max_node_free(const SchedCluster *cl)
{
    return cl->bk_mask ? 64 - __builtin_clzll(cl->bk_mask) : 0;
}
/* Up to k more whole GPUs, near the node `near` first; returns how many. */
int sched_grow_whole(SchedCluster *cl, int k, int near, int32_t *out);
/* A MIG instance (kind 1, amount = profile) or a fraction (kind 2, amount =
 * milli-GPU) on a shared GPU; returns the GPU or -1. */
int sched_place_shared(SchedCluster *cl, int kind, int amount, int exclude);
void sched_shared_add(SchedCluster *cl, int gpu, int kind, int amount);
void sched_shared_release(SchedCluster *cl, int gpu, int kind, int amount);
/* GPU-equivalents of a MIG instance or fraction (inline: job_need reads it
 * on every team-order key of a shared job). */
static inline double sched_shared_equiv(const SchedCluster *cl, int kind, int amount)
{
    if (kind == 1)
        return cl->mig_c > 0 ? (double)cl->prof_c[amount] / cl->mig_c : 1.0;
    return amount / (double)SCHED_MILLI;
}
/* GPU-equivalents in use. */
static inline double sched_cluster_busy(const SchedCluster *cl)
{
    return (double)(cl->G - cl->total_free - cl->n_shared) + cl->shared_use;
}

/* ---------------------------------------------------------------- mem.c */
/* calloc(n, size) for the simulator's large arrays (2 MB pages where the
 * system offers them); free with sched_big_free and the same n, size. */
void *sched_big_calloc(size_t n, size_t size);
void sched_big_free(void *p, size_t n, size_t size);
/* Advise 2 MB pages for the whole 2 MB blocks inside [p, p+bytes) of a
 * large malloc'd array not yet touched (a hint; nothing where unsupported). */
void sched_big_advise(void *p, size_t bytes);

/* ---------------------------------------------------------------- sim.c */
/* One run of workload w on `gpus` GPUs in nodes of gpn, NVLink domains of
 * gpd and leaf groups of gpl GPUs.  Same contract as sched_simulate(). */
int sched_run(const Plan *p, const SchedWorkload *w, const Accelerator *a, const EvalOptions *opt,
              int gpus, int gpn, int gpd, int gpl, ScheduleResult *out, SchedStats *st);
/* How much a run may reuse between scheduling passes.  The default keeps
 * a blocked head's backfill reservation between passes (updated on starts
 * and finishes) and skips the pass after an arrival that provably starts
 * nothing (SchedStats.passes_skipped); the reference runs a pass after
 * every event and walks the reservation afresh over the finish events each
 * time (the simulator before issue 14); CHECK is the default plus a walk on
 * every pass, counting in SchedStats.reservation_mismatches every pass
 * where the kept reservation disagrees. */
enum { SCHED_RES_KEPT = 0, SCHED_RES_REFERENCE, SCHED_RES_CHECK };
int sched_run_with(const Plan *p, const SchedWorkload *w, const Accelerator *a,
                   const EvalOptions *opt, int gpus, int gpn, int gpd, int gpl, int res_mode,
                   ScheduleResult *out, SchedStats *st);
/* sched_run() that stops as soon as some team's p95 wait provably exceeds
 * miss_s (enough of its jobs have waited longer): returns 1 then, with *out
 * zeroed (out->ran false); otherwise as sched_run(). */
int sched_run_miss(const Plan *p, const SchedWorkload *w, const Accelerator *a,
                   const EvalOptions *opt, int gpus, int gpn, int gpd, int gpl, double miss_s,
                   ScheduleResult *out);
/* sched_simulate() with the reservation computed as res_mode says. */
int sched_simulate_with(const Plan *p, const Catalog *c, const EvalOptions *opt, int gpus,
                        int res_mode, ScheduleResult *out, SchedStats *st);

#endif
