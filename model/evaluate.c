/* model/evaluate.c — runs the stages in order (see evaluate.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "cost.h"
#include "evaluate.h"
#include "infer.h"
#include "layout.h"
#include "power.h"
#include "sched/sched.h"
#include "train.h"

EvalOptions eval_options_default(void)
{
    EvalOptions o = {.cancel = NULL, .alternatives = true, .capacity_search = true,
                     .cache = NULL};
    return o;
}

/* ------------------------------------------------------------ stage cache
 *
 * A stage's key is the plan with every field the stage does not read blanked
 * (compared byte for byte, so a hit is exact, never a hash collision), the
 * evaluation options it depends on, and a digest of the catalog with the
 * figures it does not read (prices, sources) blanked.  Which fields a stage
 * reads: sizing (train.c, infer.c, net.c) reads the workloads, the plan's
 * accelerator, the network, the storage, tenancy.restore and
 * tenancy.mtbf_gpu; the scheduler (sched/) reads the tenancy, the
 * accelerator, the network and storage.checkpoint_stall.  Neither reads
 * prices, the site or the horizon.  test_sensitivity proves both ways: a
 * change to a blanked field reuses the stage and gives the uncached result,
 * a change to a read field runs it again. */

#define CACHE_SLOTS 8

typedef struct {
    bool used;
    uint64_t hash, cat_digest, stamp;
    bool alternatives, capacity_search;
    bool imported;                   /* added by eval_cache_import */
    Plan key;
    PlanResult after;                /* the result as stage 1 left it */
} SizingSlot;

typedef struct {
    bool used;
    uint64_t hash, cat_digest, stamp;
    bool capacity_search;
    bool imported;                   /* added by eval_cache_import */
    uint64_t trace_digest;
    Plan key;
    ScheduleResult schedule;
    char warnings[PLAN_MAX_WARNINGS][PLAN_TEXT_LEN];
    int n_warnings;
    Assumption assumptions[PLAN_MAX_ASSUMPTIONS];
    int n_assumptions;
    int warnings_dropped, assumptions_dropped; /* what the stage added past full arrays */
} SchedSlot;

struct EvalCache {
    uint64_t clock;
    EvalCacheStats stats;
    Plan scratch;                    /* the key being built */
    SizingSlot sizing[CACHE_SLOTS];
    SchedSlot sched[CACHE_SLOTS];
};

/* A few MB of which an evaluation touches a few slots: big_zalloc, so a
 * fresh process (a sweep's array task) faults in huge pages rather than
 * hundreds of small ones (bigmem.h). */
EvalCache *eval_cache_new(void)
{
    return big_zalloc(sizeof(EvalCache));
}

void eval_cache_free(EvalCache *cache)
{
    big_free(cache, sizeof(EvalCache));
}

void eval_cache_clear(EvalCache *cache)
{
    if (!cache)
        return;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        cache->sizing[i].used = false;
        cache->sched[i].used = false;
    }
}

EvalCacheStats eval_cache_stats(const EvalCache *cache)
{
    EvalCacheStats s = {0};
    return cache ? cache->stats : s;
}

/* 64-bit multiply-rotate hash over bytes, 8 at a time (the MurmurHash2-64
 * mixing constants, Appleby 2008); only used to pick a slot, a hit is then
 * confirmed with memcmp. */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *b = data;
    const uint64_t m = 0xc6a4a7935bd1e995ULL;
    while (n >= 8) {
        uint64_t k;
        memcpy(&k, b, 8);
        k *= m;
        k ^= k >> 47;
        k *= m;
        h ^= k;
        h *= m;
        b += 8;
        n -= 8;
    }
    while (n--)
        h = (h ^ *b++) * 0x100000001b3ULL;
    h ^= h >> 47;
    return h;
}

/* The catalog as sizing and the scheduler read it: accelerators, storage
 * systems and the cost assumptions they use, without prices or sources.
 * Instances (cloud prices) are not read by either. */
static uint64_t catalog_digest(const Catalog *c)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; c && i < c->n_accelerators; i++) {
        Accelerator a = c->accelerators[i];
        a.node_price_usd = 0;
        memset(a.source, 0, sizeof a.source);
        memset(a.as_of, 0, sizeof a.as_of);
        memset(a.notes, 0, sizeof a.notes);
        h = hash_bytes(h, &a, sizeof a);
    }
    for (size_t i = 0; c && i < c->n_storage; i++) {
        StorageSystem s = c->storage[i];
        s.unit_price_usd = 0;
        memset(s.source, 0, sizeof s.source);
        memset(s.as_of, 0, sizeof s.as_of);
        memset(s.notes, 0, sizeof s.notes);
        h = hash_bytes(h, &s, sizeof s);
    }
    if (c) {
        CostAssumptions k = c->costs;
        k.switch_price_usd = k.link_price_usd = k.facility_usd_per_kw = 0;
        k.maintenance_frac_per_year = k.staff_usd_per_mw_year = 0;
        memset(k.source, 0, sizeof k.source);
        memset(k.as_of, 0, sizeof k.as_of);
        memset(k.notes, 0, sizeof k.notes);
        h = hash_bytes(h, &k, sizeof k);
        h = hash_bytes(h, &c->n_accelerators, sizeof c->n_accelerators);
    }
    return h;
}

/* A replayed trace is borrowed: keyed by its address and length (both in
 * the plan bytes) plus its first and last jobs and up to 256 evenly spaced
 * ones, so a trace reloaded elsewhere or edited at its ends misses. */
static uint64_t trace_digest(const TenancySpec *t)
{
    uint64_t h = 0;
    size_t n = t->trace_jobs ? t->n_trace_jobs : 0;
    if (n == 0)
        return h;
    size_t step = n / 256 + 1;
    for (size_t i = 0; i < n; i += step)
        h = hash_bytes(h, &t->trace_jobs[i], sizeof t->trace_jobs[i]);
    return hash_bytes(h, &t->trace_jobs[n - 1], sizeof t->trace_jobs[n - 1]);
}

/* Blank what neither cached stage reads. */
static void key_common(Plan *k)
{
    memset(k->name, 0, sizeof k->name);
    memset(k->description, 0, sizeof k->description);
    k->horizon_years = 0;
    memset(&k->site, 0, sizeof k->site);
    memset(&k->ranges, 0, sizeof k->ranges);
    k->perturb.utilization = 0; /* read by the cost stage only */
}

static void key_sizing(const Plan *p, Plan *k)
{
    *k = *p;
    key_common(k);
    TenancySpec *t = &k->tenancy;
    double restore = t->restore_s, mtbf = t->mtbf_gpu_h;
    memset(t, 0, sizeof *t);
    t->restore_s = restore;
    t->mtbf_gpu_h = mtbf;
}

static void key_sched(const Plan *p, Plan *k)
{
    *k = *p;
    key_common(k);
    memset(k->workloads, 0, sizeof k->workloads);
    k->n_workloads = 0;
    k->perturb.band = 0; /* moves the workloads' sizing, not the job classes */
    double stall = k->storage.checkpoint_stall_s;
    memset(&k->storage, 0, sizeof k->storage);
    k->storage.checkpoint_stall_s = stall;
    /* teams beyond n_teams and job classes beyond n_jobs are never read */
    TenancySpec *t = &k->tenancy;
    for (int i = 0; i < PLAN_MAX_TEAMS; i++) {
        if (i >= t->n_teams) {
            memset(&t->teams[i], 0, sizeof t->teams[i]);
            continue;
        }
        int nj = t->teams[i].n_jobs > 0 ? t->teams[i].n_jobs : 0;
        if (nj < PLAN_MAX_JOBS)
            memset(&t->teams[i].jobs[nj], 0, (PLAN_MAX_JOBS - nj) * sizeof(JobClass));
    }
}

void eval_stage_keys(const Plan *p, EvalStageKeys *k)
{
    key_sizing(p, &k->sizing);
    key_sched(p, &k->sched);
    k->trace = trace_digest(&p->tenancy);
}

bool eval_stage_keys_equal(const EvalStageKeys *a, const EvalStageKeys *b)
{
    return a->trace == b->trace && memcmp(&a->sizing, &b->sizing, sizeof a->sizing) == 0 &&
           memcmp(&a->sched, &b->sched, sizeof a->sched) == 0;
}

static int slot_oldest(const uint64_t *stamps, const bool *used, int n)
{
    int best = 0;
    for (int i = 0; i < n; i++) {
        if (!used[i])
            return i;
        if (stamps[i] < stamps[best])
            best = i;
    }
    return best;
}

static SizingSlot *sizing_find(EvalCache *k, uint64_t h, uint64_t cd, const EvalOptions *o)
{
    for (int i = 0; i < CACHE_SLOTS; i++) {
        SizingSlot *s = &k->sizing[i];
        if (s->used && s->hash == h && s->cat_digest == cd &&
            s->alternatives == o->alternatives && s->capacity_search == o->capacity_search &&
            memcmp(&s->key, &k->scratch, sizeof s->key) == 0)
            return s;
    }
    return NULL;
}

static SchedSlot *sched_find(EvalCache *k, uint64_t h, uint64_t cd, uint64_t td,
                             const EvalOptions *o)
{
    for (int i = 0; i < CACHE_SLOTS; i++) {
        SchedSlot *s = &k->sched[i];
        if (s->used && s->hash == h && s->cat_digest == cd && s->trace_digest == td &&
            s->capacity_search == o->capacity_search &&
            memcmp(&s->key, &k->scratch, sizeof s->key) == 0)
            return s;
    }
    return NULL;
}

static SizingSlot *sizing_victim(EvalCache *k)
{
    uint64_t st[CACHE_SLOTS];
    bool used[CACHE_SLOTS];
    for (int i = 0; i < CACHE_SLOTS; i++) {
        st[i] = k->sizing[i].stamp;
        used[i] = k->sizing[i].used;
    }
    return &k->sizing[slot_oldest(st, used, CACHE_SLOTS)];
}

static SchedSlot *sched_victim(EvalCache *k)
{
    uint64_t st[CACHE_SLOTS];
    bool used[CACHE_SLOTS];
    for (int i = 0; i < CACHE_SLOTS; i++) {
        st[i] = k->sched[i].stamp;
        used[i] = k->sched[i].used;
    }
    return &k->sched[slot_oldest(st, used, CACHE_SLOTS)];
}

bool eval_cancelled(const EvalOptions *opt)
{
    return opt && opt->cancel && atomic_load_explicit(opt->cancel, memory_order_relaxed);
}

static bool size_workload(const Plan *p, const Workload *w, const Accelerator *a,
                          const Catalog *c, WorkloadResult *wr, PlanResult *r)
{
    return w->kind == WL_TRAINING ? train_size(p, w, a, c, wr, r)
                                  : infer_size(p, w, a, c, wr, r);
}

/* The same workload on every other accelerator of the catalog, fastest /
 * fewest GPUs first (Sizing pane's ranking).  Returns how many listed
 * accelerators did not fit in the ranking (PLAN_MAX_ALTS). */
static int size_alternatives(const Plan *p, const Workload *w, const Catalog *c,
                             WorkloadResult *wr, const EvalOptions *opt)
{
    wr->n_alts = 0;
    int left = 0;
    for (size_t i = 0; i < c->n_accelerators; i++) {
        if (eval_cancelled(opt))
            return 0;
        const Accelerator *a = &c->accelerators[i];
        if (a->unlisted)
            continue;
        if (wr->n_alts == PLAN_MAX_ALTS) {
            left++;
            continue;
        }
        WorkloadResult tmp;
        memset(&tmp, 0, sizeof tmp);
        bool ok = size_workload(p, w, a, c, &tmp, NULL);
        AccelOption *o = &wr->alts[wr->n_alts++];
        memset(o, 0, sizeof *o);
        snprintf(o->accelerator, sizeof o->accelerator, "%s", a->id);
        o->ok = ok;
        if (w->kind == WL_TRAINING) {
            o->gpus = tmp.train.gpus;
            o->days = tmp.train.train_days;
            o->ok = ok && tmp.train.meets_target;
            if (ok && !o->ok)
                snprintf(o->why, sizeof o->why, "misses the %.4g-day target", w->target_days);
        } else {
            o->gpus = tmp.infer.gpus;
            o->tpot_s = tmp.infer.tpot_s;
            o->ok = ok && tmp.infer.meets_slo;
            if (ok && !o->ok)
                snprintf(o->why, sizeof o->why, "misses the latency SLO");
        }
        if (ok) {
            tmp.ok = true;
            o->scaleup_gpus = cost_scaleup_unit(w, &tmp, a, NULL, 0);
        }
        if (!ok)
            snprintf(o->why, sizeof o->why, "%.47s",
                     strstr(tmp.error, "fit") ? "does not fit" : tmp.error);
    }
    /* rank: feasible first; training by days, then GPUs; inference by GPUs */
    for (int i = 1; i < wr->n_alts; i++) {
        AccelOption key = wr->alts[i];
        int j = i - 1;
        while (j >= 0) {
            const AccelOption *o = &wr->alts[j];
            bool after;
            if (o->ok != key.ok)
                after = !o->ok;
            else if (w->kind == WL_TRAINING)
                after = o->days > key.days || (o->days == key.days && o->gpus > key.gpus);
            else
                after = o->gpus > key.gpus || (o->gpus == key.gpus && o->tpot_s > key.tpot_s);
            if (!after)
                break;
            wr->alts[j + 1] = wr->alts[j];
            j--;
        }
        wr->alts[j + 1] = key;
    }
    return left;
}

/* Stage 1: per-workload sizing.  Returns -1 when cancelled. */
static int sizing_stage(const Plan *p, const Catalog *c, const EvalOptions *opt, PlanResult *r)
{
    r->n_workloads = p->n_workloads;
    for (int i = 0; i < p->n_workloads; i++) {
        const Workload *w = &p->workloads[i];
        WorkloadResult *wr = &r->workloads[i];
        snprintf(wr->name, sizeof wr->name, "%s", w->name);
        wr->kind = w->kind;
        const char *acc_id = workload_accelerator(p, w);
        snprintf(wr->accelerator, sizeof wr->accelerator, "%s", acc_id);
        const Accelerator *a = catalog_find_accelerator(c, acc_id);
        if (!a) {
            wr->ok = false;
            snprintf(wr->error, sizeof wr->error, "unknown accelerator '%s'", acc_id);
            result_warn(r, "%s: unknown accelerator '%s'", w->name, acc_id);
            continue;
        }
        if (!size_workload(p, w, a, c, wr, r))
            result_warn(r, "%s: %s", w->name, wr->error);
        if (opt && opt->alternatives) {
            int left = size_alternatives(p, w, c, wr, opt);
            if (left > 0)
                result_warn(r, "%s: %d catalog accelerators beyond the first %d were not sized "
                            "for the ranking", w->name, left, PLAN_MAX_ALTS);
        }
        if (eval_cancelled(opt))
            return -1;
    }
    r->have_sizing = true;
    return 0;
}

/* Stage 1 through the cache: reuse a remembered result or run and remember. */
static int sizing_cached(const Plan *p, const Catalog *c, const EvalOptions *opt,
                         uint64_t cd, PlanResult *r)
{
    EvalCache *k = opt->cache;
    key_sizing(p, &k->scratch);
    uint64_t h = hash_bytes(1, &k->scratch, sizeof k->scratch);
    SizingSlot *s = sizing_find(k, h, cd, opt);
    if (s) {
        *r = s->after;
        s->stamp = ++k->clock;
        k->stats.sizing_hits++;
        k->stats.imported_hits += s->imported;
        return 0;
    }
    k->stats.sizing_runs++;
    if (sizing_stage(p, c, opt, r) < 0)
        return -1;
    s = sizing_victim(k);
    s->used = true;
    s->hash = h;
    s->cat_digest = cd;
    s->stamp = ++k->clock;
    s->alternatives = opt->alternatives;
    s->capacity_search = opt->capacity_search;
    s->imported = false;
    s->key = k->scratch;
    s->after = *r;
    return 0;
}

/* Stage 2 through the cache.  The scheduler reads nothing of stage 1, so
 * its slot holds the ScheduleResult and the warnings and assumptions it
 * appended, replayed in order on a hit. */
static int sched_cached(const Plan *p, const Catalog *c, const EvalOptions *opt,
                        uint64_t cd, PlanResult *r)
{
    EvalCache *k = opt->cache;
    key_sched(p, &k->scratch);
    uint64_t h = hash_bytes(2, &k->scratch, sizeof k->scratch);
    uint64_t td = trace_digest(&p->tenancy);
    SchedSlot *s = sched_find(k, h, cd, td, opt);
    if (s) {
        r->schedule = s->schedule;
        r->have_schedule = true;
        for (int i = 0; i < s->n_warnings; i++)
            result_warn(r, "%s", s->warnings[i]);
        for (int i = 0; i < s->n_assumptions; i++)
            result_assume(r, s->assumptions[i].scope, "%s", s->assumptions[i].text);
        r->warnings_dropped += s->warnings_dropped;
        r->assumptions_dropped += s->assumptions_dropped;
        s->stamp = ++k->clock;
        k->stats.sched_hits++;
        k->stats.imported_hits += s->imported;
        return 0;
    }
    k->stats.sched_runs++;
    int w0 = r->n_warnings, a0 = r->n_assumptions;
    int wd0 = r->warnings_dropped, ad0 = r->assumptions_dropped;
    sched_stage(p, c, opt, r);
    if (eval_cancelled(opt) || r->schedule.cancelled)
        return -1;
    s = sched_victim(k);
    s->used = true;
    s->hash = h;
    s->cat_digest = cd;
    s->trace_digest = td;
    s->imported = false;
    s->stamp = ++k->clock;
    s->capacity_search = opt->capacity_search;
    s->key = k->scratch;
    s->schedule = r->schedule;
    s->n_warnings = r->n_warnings - w0;
    for (int i = 0; i < s->n_warnings; i++)
        memcpy(s->warnings[i], r->warnings[w0 + i], PLAN_TEXT_LEN);
    s->n_assumptions = r->n_assumptions - a0;
    for (int i = 0; i < s->n_assumptions; i++)
        s->assumptions[i] = r->assumptions[a0 + i];
    s->warnings_dropped = r->warnings_dropped - wd0;
    s->assumptions_dropped = r->assumptions_dropped - ad0;
    return 0;
}

int plan_evaluate_ex(const Plan *p, const Catalog *c, const EvalOptions *opt, PlanResult *r)
{
    memset(r, 0, sizeof *r);
    r->cost.cheapest = -1;
    bool cached = opt && opt->cache;
    uint64_t cd = cached ? catalog_digest(c) : 0;

    /* 1. per-workload sizing */
    if ((cached ? sizing_cached(p, c, opt, cd, r) : sizing_stage(p, c, opt, r)) < 0)
        return -1;

    /* 2. the tenancy pool (sizes it when auto) */
    if (cached) {
        if (sched_cached(p, c, opt, cd, r) < 0)
            return -1;
    } else {
        sched_stage(p, c, opt, r);
    }
    if (eval_cancelled(opt))
        return -1;

    /* 3–5. the physical cluster, its power, its cost */
    layout_stage(p, c, r);
    power_stage(p, c, r);
    cost_stage(p, c, r);
    result_note_dropped(r);
    return eval_cancelled(opt) ? -1 : 0;
}

int plan_evaluate(const Plan *p, const Catalog *c, PlanResult *r)
{
    EvalOptions o = eval_options_default();
    return plan_evaluate_ex(p, c, &o, r);
}

/* ------------------------------------------------------------ shared stages
 *
 * eval_cache_export / eval_cache_import (evaluate.h).  Layout, native byte
 * order (a file is read by the build that wrote it, on the same kind of
 * machine: the endianness mark and the struct sizes refuse anything else):
 *   StageHeader, then enc_len bytes of the parsed catalog (cat_len bytes:
 *   its parts in stage_cat_parts order) and the slots (SizingSlot ×
 *   n_sizing, SchedSlot × n_sched; raw_len bytes in all once decoded) as records
 *   {u32 zero bytes, u32 literal bytes, the literal bytes}, then a u64
 *   checksum (hash_bytes) of everything before it. */

#define STAGE_MAGIC "GPSTAGES"
#define STAGE_FORMAT 2u              /* 2: the parsed catalog leads the raw bytes */
#define STAGE_ENDIAN 0x01020304u
#define STAGE_ZERO_RUN 16            /* a literal ends at a zero run this long */
#define STAGE_MAX_CAT ((uint64_t)64 << 20) /* bytes of parsed catalog at most */
#define STAGE_MAX_RAW                                                                      \
    ((uint64_t)(2 * CACHE_SLOTS) * (sizeof(SizingSlot) + sizeof(SchedSlot)) + STAGE_MAX_CAT)

/* The parsed catalog's parts as stored: the six row arrays, the costs and
 * the ranges, each a flat struct (no pointer in any row: Accelerator,
 * Instance, StorageSystem, Engine, Framework, ErrorBand, CostAssumptions
 * and CatalogRange hold numbers, enums, bools and fixed char arrays). */
#define STAGE_CAT_PARTS 8
static const uint64_t stage_cat_size[STAGE_CAT_PARTS] = {
    sizeof(Accelerator), sizeof(Instance),  sizeof(StorageSystem),   sizeof(Engine),
    sizeof(Framework),   sizeof(ErrorBand), sizeof(CostAssumptions), sizeof(CatalogRange)};

typedef struct {
    char magic[8];
    uint32_t format, endian;
    char build[64];                  /* PACKAGE_STRING */
    uint64_t size_plan, size_sizing, size_sched;
    uint64_t cat_digest;
    uint32_t n_sizing, n_sched;
    uint64_t raw_len, enc_len;
    uint64_t cat_source;             /* the writer's digest of the catalog's source files */
    uint64_t cat_size[STAGE_CAT_PARTS];  /* sizeof each part's element */
    uint64_t cat_n[STAGE_CAT_PARTS];     /* elements of each part (costs 1, ranges RANGE_COUNT) */
    uint64_t cat_len;                /* raw bytes of the catalog, before the slots */
} StageHeader;

/* The catalog's parts: addresses (of the arrays) and element counts. */
static void stage_cat_parts(const Catalog *c, const void *p[STAGE_CAT_PARTS],
                            uint64_t n[STAGE_CAT_PARTS])
{
    const void *pp[STAGE_CAT_PARTS] = {c->accelerators, c->instances,  c->storage,
                                       c->engines,      c->frameworks, c->bands,
                                       &c->costs,       c->ranges};
    uint64_t nn[STAGE_CAT_PARTS] = {c->n_accelerators, c->n_instances, c->n_storage,
                                    c->n_engines,      c->n_frameworks, c->n_bands,
                                    1,                 RANGE_COUNT};
    memcpy(p, pp, sizeof pp);
    memcpy(n, nn, sizeof nn);
}

/* Everything the catalog holds (a file outlives the process: the engines,
 * frameworks and error bands sizing reads are in it too, and prices and
 * sources as well, so any catalog edit makes a file stale). */
static uint64_t catalog_full_digest(const Catalog *c)
{
    uint64_t h = catalog_digest(c);
    if (!c)
        return h;
    h = hash_bytes(h, c->accelerators, c->n_accelerators * sizeof *c->accelerators);
    h = hash_bytes(h, c->instances, c->n_instances * sizeof *c->instances);
    h = hash_bytes(h, c->storage, c->n_storage * sizeof *c->storage);
    h = hash_bytes(h, c->engines, c->n_engines * sizeof *c->engines);
    h = hash_bytes(h, c->frameworks, c->n_frameworks * sizeof *c->frameworks);
    h = hash_bytes(h, c->bands, c->n_bands * sizeof *c->bands);
    h = hash_bytes(h, &c->costs, sizeof c->costs);
    h = hash_bytes(h, c->ranges, sizeof c->ranges);
    size_t n[6] = {c->n_accelerators, c->n_instances, c->n_storage,
                   c->n_engines,      c->n_frameworks, c->n_bands};
    return hash_bytes(h, n, sizeof n);
}

/* The header's fixed part: what this build writes and reads. */
static void stage_header(StageHeader *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, STAGE_MAGIC, 8);
    h->format = STAGE_FORMAT;
    h->endian = STAGE_ENDIAN;
    snprintf(h->build, sizeof h->build, "%s", PACKAGE_STRING);
    h->size_plan = sizeof(Plan);
    h->size_sizing = sizeof(SizingSlot);
    h->size_sched = sizeof(SchedSlot);
    memcpy(h->cat_size, stage_cat_size, sizeof h->cat_size);
}

static bool stage_sched_portable(const SchedSlot *s)
{
    return s->used && s->trace_digest == 0 && !s->key.tenancy.trace_jobs;
}

/* Append raw[0..n) to out (capacity enough: n + 8 per literal run). */
static size_t stage_encode(const unsigned char *raw, size_t n, unsigned char *out)
{
    size_t i = 0, o = 0;
    while (i < n) {
        size_t z = i;
        while (z < n && raw[z] == 0)
            z++;
        size_t l = z, zeros = 0;
        while (l < n) {
            if (raw[l] == 0) {
                if (++zeros >= STAGE_ZERO_RUN)
                    break;
            } else {
                zeros = 0;
            }
            l++;
        }
        if (l < n) /* ended on a zero run: leave it to the next record */
            l -= zeros - 1;
        else
            l -= zeros;
        uint32_t zc = (uint32_t)(z - i), lc = (uint32_t)(l > z ? l - z : 0);
        memcpy(out + o, &zc, 4);
        memcpy(out + o + 4, &lc, 4);
        memcpy(out + o + 8, raw + z, lc);
        o += 8 + lc;
        i = z + lc;
        if (lc == 0 && l >= n)
            i = n;
    }
    return o;
}

static bool stage_decode(const unsigned char *enc, size_t n, unsigned char *raw, size_t raw_len)
{
    size_t i = 0, o = 0;
    while (i < n) {
        uint32_t zc, lc;
        if (n - i < 8)
            return false;
        memcpy(&zc, enc + i, 4);
        memcpy(&lc, enc + i + 4, 4);
        i += 8;
        if (zc > raw_len - o || lc > n - i || lc > raw_len - o - zc)
            return false;
        memset(raw + o, 0, zc);
        o += zc;
        memcpy(raw + o, enc + i, lc);
        o += lc;
        i += lc;
    }
    return o == raw_len;
}

int eval_cache_export(const EvalCache *cache, const Catalog *cat, uint64_t cat_source,
                      unsigned char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    StageHeader h;
    stage_header(&h);
    h.cat_digest = catalog_full_digest(cat);
    h.cat_source = cat_source;
    const void *part[STAGE_CAT_PARTS];
    Catalog none = {0};
    stage_cat_parts(cat ? cat : &none, part, h.cat_n);
    for (int k = 0; k < STAGE_CAT_PARTS; k++)
        h.cat_len += h.cat_n[k] * h.cat_size[k];
    for (int i = 0; cache && i < CACHE_SLOTS; i++) {
        h.n_sizing += cache->sizing[i].used;
        h.n_sched += stage_sched_portable(&cache->sched[i]);
    }
    h.raw_len = h.cat_len + h.n_sizing * sizeof(SizingSlot) + h.n_sched * sizeof(SchedSlot);
    if (h.cat_len > STAGE_MAX_CAT)
        return -1;
    unsigned char *raw = big_zalloc(h.raw_len ? h.raw_len : 1);
    /* worst case: a record per STAGE_ZERO_RUN + 1 bytes */
    size_t cap = sizeof h + h.raw_len + 8 * (h.raw_len / STAGE_ZERO_RUN + 2) + 8;
    unsigned char *buf = malloc(cap);
    if (!raw || !buf) {
        big_free(raw, h.raw_len ? h.raw_len : 1);
        free(buf);
        return -1;
    }
    size_t o = 0;
    for (int k = 0; k < STAGE_CAT_PARTS; k++) {
        size_t n = (size_t)(h.cat_n[k] * h.cat_size[k]);
        if (n)
            memcpy(raw + o, part[k], n);
        o += n;
    }
    for (int i = 0; cache && i < CACHE_SLOTS; i++)
        if (cache->sizing[i].used) {
            memcpy(raw + o, &cache->sizing[i], sizeof(SizingSlot));
            o += sizeof(SizingSlot);
        }
    for (int i = 0; cache && i < CACHE_SLOTS; i++)
        if (stage_sched_portable(&cache->sched[i])) {
            memcpy(raw + o, &cache->sched[i], sizeof(SchedSlot));
            o += sizeof(SchedSlot);
        }
    h.enc_len = stage_encode(raw, h.raw_len, buf + sizeof h);
    memcpy(buf, &h, sizeof h);
    size_t n = sizeof h + h.enc_len;
    uint64_t sum = hash_bytes(0x5354414745ULL, buf, n);
    memcpy(buf + n, &sum, 8);
    big_free(raw, h.raw_len ? h.raw_len : 1);
    *out = buf;
    *len = n + 8;
    return (int)(h.n_sizing + h.n_sched);
}

static int stage_refuse(char *why, size_t len, const char *msg)
{
    if (why && len)
        snprintf(why, len, "%s", msg);
    return -1;
}

static void *stage_fail(char *why, size_t len, const char *msg)
{
    stage_refuse(why, len, msg);
    return NULL;
}

/* Verify data (the cheap checks first: magic, format, build, length, then
 * the checksum; with cat, its digest against the file's) and decode it:
 * the raw bytes (big_zalloc'd, h->raw_len; at least 1) or NULL with the
 * reason in why. */
static unsigned char *stage_open(const unsigned char *data, size_t len, const Catalog *cat,
                                 StageHeader *h, char *why, size_t whylen)
{
    StageHeader want;
    if (!data || len < sizeof *h + 8 || memcmp(data, STAGE_MAGIC, 8) != 0)
        return stage_fail(why, whylen, len < sizeof *h + 8 && data &&
                                               memcmp(data, STAGE_MAGIC, len < 8 ? len : 8) == 0
                                           ? "truncated"
                                           : "not a gpuplan stage file");
    memcpy(h, data, sizeof *h);
    stage_header(&want);
    if (h->format != want.format || h->endian != want.endian)
        return stage_fail(why, whylen, "another stage file format or byte order");
    if (memcmp(h->build, want.build, sizeof h->build) != 0 || h->size_plan != want.size_plan ||
        h->size_sizing != want.size_sizing || h->size_sched != want.size_sched ||
        memcmp(h->cat_size, want.cat_size, sizeof h->cat_size) != 0)
        return stage_fail(why, whylen, "written by another gpuplan version or build");
    if (h->enc_len != len - sizeof *h - 8)
        return stage_fail(why, whylen, "truncated or extended (length does not match)");
    uint64_t sum;
    memcpy(&sum, data + len - 8, 8);
    if (sum != hash_bytes(0x5354414745ULL, data, len - 8))
        return stage_fail(why, whylen, "corrupt (checksum does not match)");
    if (cat && h->cat_digest != catalog_full_digest(cat))
        return stage_fail(why, whylen, "stale: written with another catalog");
    uint64_t cat_len = 0;
    bool ok = h->cat_n[6] == 1 && h->cat_n[7] == RANGE_COUNT;
    for (int k = 0; ok && k < STAGE_CAT_PARTS; k++) {
        ok = h->cat_n[k] <= STAGE_MAX_CAT / h->cat_size[k];
        cat_len += h->cat_n[k] * h->cat_size[k];
    }
    if (!ok || cat_len != h->cat_len || cat_len > STAGE_MAX_CAT || h->n_sizing > CACHE_SLOTS ||
        h->n_sched > CACHE_SLOTS ||
        h->raw_len != cat_len + h->n_sizing * sizeof(SizingSlot) + h->n_sched * sizeof(SchedSlot) ||
        h->raw_len > STAGE_MAX_RAW)
        return stage_fail(why, whylen, "corrupt (slot or row counts)");
    unsigned char *raw = big_zalloc(h->raw_len ? h->raw_len : 1);
    if (!raw)
        return stage_fail(why, whylen, "out of memory");
    if (!stage_decode(data + sizeof *h, h->enc_len, raw, h->raw_len)) {
        big_free(raw, h->raw_len ? h->raw_len : 1);
        return stage_fail(why, whylen, "corrupt (does not decode)");
    }
    return raw;
}

int eval_stage_catalog(const unsigned char *data, size_t len, uint64_t cat_source, Catalog *out,
                       char *why, size_t whylen)
{
    StageHeader h;
    memset(out, 0, sizeof *out);
    unsigned char *raw = stage_open(data, len, NULL, &h, why, whylen);
    if (!raw)
        return -1;
    if (h.cat_source != cat_source || cat_source == 0) {
        big_free(raw, h.raw_len ? h.raw_len : 1);
        stage_refuse(why, whylen, "written from other catalog files");
        return 0;
    }
    void *arr[6] = {NULL};
    bool ok = true;
    for (int k = 0; k < 6; k++)
        if (h.cat_n[k] && !(arr[k] = malloc((size_t)(h.cat_n[k] * h.cat_size[k]))))
            ok = false;
    size_t o = 0;
    for (int k = 0; ok && k < 6; k++) {
        size_t n = (size_t)(h.cat_n[k] * h.cat_size[k]);
        if (n)
            memcpy(arr[k], raw + o, n);
        o += n;
    }
    if (ok) {
        out->accelerators = arr[0];
        out->n_accelerators = (size_t)h.cat_n[0];
        out->instances = arr[1];
        out->n_instances = (size_t)h.cat_n[1];
        out->storage = arr[2];
        out->n_storage = (size_t)h.cat_n[2];
        out->engines = arr[3];
        out->n_engines = (size_t)h.cat_n[3];
        out->frameworks = arr[4];
        out->n_frameworks = (size_t)h.cat_n[4];
        out->bands = arr[5];
        out->n_bands = (size_t)h.cat_n[5];
        memcpy(&out->costs, raw + o, sizeof out->costs);
        memcpy(out->ranges, raw + o + sizeof out->costs, sizeof out->ranges);
        /* the rows are the ones the writer digested */
        ok = catalog_full_digest(out) == h.cat_digest;
    }
    big_free(raw, h.raw_len ? h.raw_len : 1);
    if (!ok) {
        for (int k = 0; k < 6; k++)
            free(arr[k]);
        memset(out, 0, sizeof *out);
        return stage_refuse(why, whylen, "corrupt (catalog does not verify)");
    }
    return 1;
}

int eval_cache_import(EvalCache *cache, const Catalog *cat, const unsigned char *data,
                      size_t len, char *why, size_t whylen)
{
    StageHeader h;
    if (!cache)
        return stage_refuse(why, whylen, "no stage cache");
    unsigned char *raw = stage_open(data, len, cat, &h, why, whylen);
    if (!raw)
        return -1;
    uint64_t cd = catalog_digest(cat);
    bool ok = true;
    const unsigned char *sizing0 = raw + h.cat_len;
    /* every slot must verify before any is added */
    for (uint32_t i = 0; ok && i < h.n_sizing; i++) {
        const SizingSlot *s = (const SizingSlot *)(sizing0 + i * sizeof(SizingSlot));
        ok = s->used && s->cat_digest == cd &&
             s->hash == hash_bytes(1, &s->key, sizeof s->key);
    }
    const unsigned char *sched0 = sizing0 + h.n_sizing * sizeof(SizingSlot);
    for (uint32_t i = 0; ok && i < h.n_sched; i++) {
        const SchedSlot *s = (const SchedSlot *)(sched0 + i * sizeof(SchedSlot));
        ok = stage_sched_portable(s) && s->cat_digest == cd &&
             s->hash == hash_bytes(2, &s->key, sizeof s->key) && s->n_warnings >= 0 &&
             s->n_warnings <= PLAN_MAX_WARNINGS && s->n_assumptions >= 0 &&
             s->n_assumptions <= PLAN_MAX_ASSUMPTIONS && s->warnings_dropped >= 0 &&
             s->assumptions_dropped >= 0;
    }
    if (!ok) {
        big_free(raw, h.raw_len ? h.raw_len : 1);
        return stage_refuse(why, whylen, "corrupt (slots do not verify)");
    }
    for (uint32_t i = 0; i < h.n_sizing; i++) {
        SizingSlot *s = sizing_victim(cache);
        memcpy(s, sizing0 + i * sizeof(SizingSlot), sizeof *s);
        s->stamp = ++cache->clock;
        s->imported = true;
    }
    for (uint32_t i = 0; i < h.n_sched; i++) {
        SchedSlot *s = sched_victim(cache);
        memcpy(s, sched0 + i * sizeof(SchedSlot), sizeof *s);
        s->stamp = ++cache->clock;
        s->imported = true;
    }
    big_free(raw, h.raw_len ? h.raw_len : 1);
    return (int)(h.n_sizing + h.n_sched);
}
