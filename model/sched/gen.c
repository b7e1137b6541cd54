/* model/sched/gen.c — the job mix: generated from the teams' job classes
 * (Poisson arrivals, lognormal / exponential / fixed run times) or replayed
 * from the borrowed trace.
 *
 * Every job class draws from its own xoshiro256** stream, seeded from
 * (tenancy.seed, team index, class index) through splitmix64, so adding a
 * class or reordering teams leaves the other classes' jobs unchanged, and
 * the capacity search replays exactly the same jobs on every pool size. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stdatomic.h>

#include "sched_int.h"

static int cmp_submit(const void *a, const void *b)
{
    const SchedJobSpec *x = a, *y = b;
    if (x->submit != y->submit)
        return x->submit < y->submit ? -1 : 1;
    if (x->team != y->team)
        return x->team < y->team ? -1 : 1;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    if (x->dur != y->dur) /* trace rows submitted together: any fixed order */
        return x->dur < y->dur ? -1 : 1;
    return (x->gpus > y->gpus) - (x->gpus < y->gpus);
}

/* Plans are validated upstream, but the model takes no chances with what
 * it is handed: GPU counts outside [1, 2^20] (or not numbers) are clamped
 * there, so no float-to-int conversion can overflow. */
#define GEN_MAX_GPUS (1 << 20)
#define GEN_MAX_HORIZON (100 * 365.25 * 86400) /* a century */
#define GEN_MAX_DUR GEN_MAX_HORIZON
static int whole_gpus(double g)
{
    if (!(g > 1))
        return 1;
    if (g > GEN_MAX_GPUS)
        return GEN_MAX_GPUS;
    return (int)ceil(g - 1e-9);
}

static int clamp_count(int g)
{
    return g < 1 ? 1 : g > GEN_MAX_GPUS ? GEN_MAX_GPUS : g;
}

static int push_job(SchedWorkload *w, size_t *cap, const SchedJobSpec *j)
{
    if (w->n >= SCHED_MAX_JOBS) {
        w->too_many = true;
        return -1;
    }
    if (w->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 4096;
        SchedJobSpec *a = realloc(w->jobs, nc * sizeof *a);
        if (!a)
            return -1;
        w->jobs = a;
        *cap = nc;
    }
    w->jobs[w->n++] = *j;
    return 0;
}

/* The request of a job class: elastic range, MIG profile, fraction or whole
 * GPUs.  Returns the GPU-equivalents it holds. */
static double class_request(const JobClass *jc, const Accelerator *a, SchedJobSpec *j,
                            bool *mig_fallback)
{
    *mig_fallback = false;
    j->kind = SJ_WHOLE;
    j->mig = -1;
    if (jc->max_gpus > 0) {
        int lo = clamp_count(jc->min_gpus);
        int hi = clamp_count(jc->max_gpus);
        if (hi < lo)
            hi = lo;
        j->gpus = lo;
        j->max_gpus = hi;
        return lo;
    }
    if (jc->mig[0]) {
        const MigProfile *m = accelerator_find_mig(a, jc->mig);
        if (m) {
            j->kind = SJ_MIG;
            j->mig = (int16_t)(m - a->mig);
            j->gpus = j->max_gpus = 0;
            int c = m->compute_slices > 0 ? m->compute_slices : atoi(m->name);
            return c > 0 ? c / 7.0 : 1.0 / (m->count > 0 ? m->count : 1);
        }
        /* The accelerator has no such profile: time-share the same part of a
         * GPU instead ("3g.40gb" → 3/7 of one), and say so. */
        *mig_fallback = true;
        int c = atoi(jc->mig);
        if (c > 0 && c < 7) {
            j->kind = SJ_FRAC;
            j->gpus = j->max_gpus = (int32_t)lround(c * SCHED_MILLI / 7.0);
            return j->gpus / (double)SCHED_MILLI;
        }
    }
    if (jc->gpus > 0 && jc->gpus < 1) {
        int milli = (int)lround(jc->gpus * SCHED_MILLI);
        if (milli < 1)
            milli = 1;
        if (milli < SCHED_MILLI) {
            j->kind = SJ_FRAC;
            j->gpus = j->max_gpus = milli;
            return milli / (double)SCHED_MILLI;
        }
    }
    int g = whole_gpus(jc->gpus);
    j->gpus = j->max_gpus = g;
    return g;
}

/* One class's arrival stream. */
typedef struct {
    SchedRng rng;
    SchedJobSpec proto;
    double rate, mean, cv, next, need;
    SchedLognormal ln;  /* DUR_LOGNORMAL with cv > 0 */
    DurationDist dist;
} Stream;

/* The merge's order: a stream's next arrival, or +inf once it is at or past
 * the horizon (finished), then its index.  A strict total order in which
 * every live stream goes before every finished one, and live ones in
 * (next arrival, index) order: the merge's winner, the order's least
 * stream, is the same whatever order finished streams keep among
 * themselves.  The keys sit in one small array of their own, so a replayed
 * match reads two doubles instead of two Stream records and the horizon. */
static inline bool key_before(const double *key, int a, int b)
{
    return key[a] < key[b] || (key[a] == key[b] && a < b);
}

double sched_budget_jobs(int probes)
{
    double by_memory = SCHED_BUDGET_BYTES / SCHED_JOB_BYTES;
    double by_time = SCHED_BUDGET_JOB_RUNS / (probes > 1 ? probes : 1);
    double b = by_memory < by_time ? by_memory : by_time;
    return b < SCHED_MAX_JOBS ? b : SCHED_MAX_JOBS;
}

/* Poll the cancel flag every this many generated jobs (~1 ms of work). */
#define GEN_POLL_EVERY 16384

static bool gen_cancelled(const EvalOptions *opt)
{
    return opt && opt->cancel && atomic_load_explicit(opt->cancel, memory_order_relaxed);
}

static int gen_classes(const Plan *p, const Accelerator *a, const EvalOptions *opt, int probes,
                       SchedWorkload *w, size_t *cap)
{
    const TenancySpec *t = &p->tenancy;
    Stream *st = malloc((size_t)PLAN_MAX_TEAMS * PLAN_MAX_JOBS * sizeof *st);
    /* the merge's tournament tree: losers, each stream's leaf, winners */
    int *hp = malloc(4 * (size_t)PLAN_MAX_TEAMS * PLAN_MAX_JOBS * sizeof *hp);
    double *key = malloc((size_t)PLAN_MAX_TEAMS * PLAN_MAX_JOBS * sizeof *key);
    if (!st || !hp || !key) {
        free(st);
        free(hp);
        free(key);
        return -1;
    }
    int ns = 0;
    double expect = 0, longest_mean = 0;
    for (int ti = 0; ti < t->n_teams && ti < PLAN_MAX_TEAMS; ti++) {
        const Team *tm = &t->teams[ti];
        for (int ci = 0; ci < tm->n_jobs && ci < PLAN_MAX_JOBS; ci++) {
            const JobClass *jc = &tm->jobs[ci];
            Stream *sm = &st[ns];
            memset(&sm->proto, 0, sizeof sm->proto);
            bool fb;
            double need = class_request(jc, a, &sm->proto, &fb);
            if (fb)
                w->mig_fallbacks++;
            sm->proto.team = ti;
            sm->proto.prio = (uint8_t)(jc->priority >= PRIO_LOW && jc->priority <= PRIO_HIGH
                                           ? jc->priority : PRIO_NORMAL);
            sm->proto.cls = -1;
            if (w->n_classes < PLAN_MAX_CLASSES) {
                SchedClassDef *cd = &w->classes[w->n_classes];
                memcpy(cd->name, jc->name, sizeof cd->name);
                cd->team = ti;
                cd->gpus = jc->max_gpus > 0 ? sm->proto.gpus : (jc->mig[0] ? need : jc->gpus);
                sm->proto.cls = w->n_classes++;
            } else {
                w->classes_dropped++;
            }
            if (sm->proto.kind == SJ_WHOLE && sm->proto.gpus > w->max_whole)
                w->max_whole = sm->proto.gpus;
            sm->rate = jc->per_day / 86400.0;
            sm->mean = jc->hours * 3600.0;
            /* a cv that is not a finite positive number means no spread;
             * above 100 the lognormal's moments overflow doubles */
            sm->cv = isfinite(jc->cv) && jc->cv > 0 ? (jc->cv < 100 ? jc->cv : 100) : 0;
            sm->dist = jc->duration;
            if (sm->cv > 0 && sm->mean > 0)
                sm->ln = sched_lognormal_params(sm->mean, sm->cv);
            sm->need = need;
            if (!(sm->rate > 0) || !(sm->mean > 0) || !(w->horizon > 0))
                continue;
            uint64_t x = t->seed ^ ((uint64_t)(ti + 1) << 40) ^ ((uint64_t)(ci + 1) << 20);
            sched_rng_seed(&sm->rng, sched_splitmix64(&x));
            /* Poisson arrivals: exponential gaps of mean 1/rate. */
            sm->next = sched_rng_exp(&sm->rng, 1.0 / sm->rate);
            expect += sm->rate * w->horizon;
            if (sm->mean > longest_mean)
                longest_mean = sm->mean;
            ns++;
        }
    }
    w->expected_jobs = expect;
    double budget = sched_budget_jobs(probes);
    if (expect > budget) {
        /* sample: the window of the same arrival process that fits */
        double window = w->horizon * budget / expect;
        double min_window = 10 * longest_mean > SCHED_MIN_WINDOW_S ? 10 * longest_mean
                                                                   : SCHED_MIN_WINDOW_S;
        if (window < min_window) {
            w->too_many = true;
            free(st);
            free(hp);
            free(key);
            return -1;
        }
        w->sampled_from = w->horizon;
        w->horizon = window;
        expect = budget;
    }
    /* room for the expected count plus 5 sigma */
    size_t want = (size_t)(expect + 5 * sqrt(expect) + 16);
    if (want > *cap) {
        bool fresh = w->n == 0;
        SchedJobSpec *arr = realloc(w->jobs, want * sizeof *arr);
        if (arr) {
            w->jobs = arr;
            *cap = want;
            if (fresh) /* 40 MB for a million jobs, written once in order */
                sched_big_advise(arr, want * sizeof *arr);
        }
    }
    /* merge the class streams through a tournament tree of losers on the
     * next arrival (Knuth, TAOCP vol. 3, 5.4.1): the jobs come out sorted by
     * submit time (ties: team, then class order).  The winner's next
     * arrival replays only the matches on its path to the root, one
     * comparison a level (a binary heap's sift-down makes two); a finished
     * stream loses to every live one.  m live streams: internal nodes
     * 1..m-1 hold losers (lt[0] the winner), stream i's leaf is node
     * leaf[i] in m..2m-1. */
    size_t S = (size_t)PLAN_MAX_TEAMS * PLAN_MAX_JOBS;
    int *lt = hp, *leaf = hp + S, *win = hp + 2 * S;
    int m = 0;
    for (int i = 0; i < ns; i++) {
        key[i] = st[i].next < w->horizon ? st[i].next : INFINITY;
        m += st[i].next < w->horizon;
    }
    for (int i = 0, q = 0; i < ns; i++)
        if (st[i].next < w->horizon) {
            leaf[i] = m + q;
            win[m + q] = i;
            q++;
        }
    for (int k = m - 1; k >= 1; k--) {
        int l = win[2 * k], r = win[2 * k + 1];
        bool lr = key_before(key, l, r);
        win[k] = lr ? l : r;
        lt[k] = lr ? r : l;
    }
    if (m > 0)
        lt[0] = win[1];
    int rc = 0;
    while (m > 0) {
        int i = lt[0];
        Stream *sm = &st[i];
        if (!(key[i] < INFINITY))
            break; /* the first stream has finished: so have all */
        SchedJobSpec j = sm->proto;
        j.submit = sm->next;
        switch (sm->dist) {
        case DUR_EXPONENTIAL: j.dur = sched_rng_exp(&sm->rng, sm->mean); break;
        case DUR_FIXED: j.dur = sm->mean; break;
        default:
            j.dur = sm->cv > 0 ? sched_rng_lognormal_p(&sm->rng, &sm->ln) : sm->mean;
            break;
        }
        if (!(j.dur >= 1e-3))
            j.dur = 1e-3; /* a run takes some time; keeps rates finite */
        if (j.dur > GEN_MAX_DUR)
            j.dur = GEN_MAX_DUR;
        w->offered_gpu_s += sm->need * j.dur;
        if (j.submit < w->horizon)
            w->team_load_gpu_s[j.team] += sm->need * fmin(j.dur, w->horizon - j.submit);
        if (w->n < *cap && w->n < SCHED_MAX_JOBS) /* room reserved above: the common case */
            w->jobs[w->n++] = j;
        else if (push_job(w, cap, &j) < 0) {
            rc = -1;
            break;
        }
        if (w->n % GEN_POLL_EVERY == 0 && gen_cancelled(opt)) {
            w->cancelled = true;
            rc = -1;
            break;
        }
        sm->next += sched_rng_exp(&sm->rng, 1.0 / sm->rate);
        key[i] = sm->next < w->horizon ? sm->next : INFINITY;
        int cur = i;
        for (int k = leaf[i] / 2; k >= 1; k /= 2)
            if (key_before(key, lt[k], cur)) {
                int x = lt[k];
                lt[k] = cur;
                cur = x;
            }
        lt[0] = cur;
    }
    free(st);
    free(hp);
    free(key);
    return rc;
}

static int gen_trace(const Plan *p, SchedWorkload *w, size_t *cap)
{
    const TenancySpec *t = &p->tenancy;
    int deflt = -1;
    double last = 0;
    for (size_t i = 0; i < t->n_trace_jobs; i++) {
        const TraceJob *tj = &t->trace_jobs[i];
        SchedJobSpec j;
        memset(&j, 0, sizeof j);
        j.submit = tj->submit_s > 0 ? (tj->submit_s < GEN_MAX_HORIZON ? tj->submit_s : GEN_MAX_HORIZON)
                                    : 0;
        j.dur = tj->duration_s > 1e-3 ? (tj->duration_s < GEN_MAX_DUR ? tj->duration_s
                                                                    : GEN_MAX_DUR)
                                       : 1e-3;
        j.prio = (uint8_t)(tj->priority >= PRIO_LOW && tj->priority <= PRIO_HIGH ? tj->priority
                                                                                  : PRIO_NORMAL);
        int team = tj->team;
        if (team < 0 || team >= t->n_teams || team >= PLAN_MAX_TEAMS) {
            if (deflt < 0) {
                deflt = w->n_teams++;
                SchedTeamDef *td = &w->teams[deflt];
                memset(td, 0, sizeof *td);
                strcpy(td->name, t->n_teams ? "default" : "trace");
                td->weight = 1;
                td->borrow = -1;
            }
            team = deflt;
        }
        j.team = team;
        j.cls = -1;
        j.mig = -1;
        double need;
        if (tj->gpus > 0 && tj->gpus < 1) {
            int milli = (int)lround(tj->gpus * SCHED_MILLI);
            j.kind = SJ_FRAC;
            j.gpus = j.max_gpus = milli < 1 ? 1 : (milli >= SCHED_MILLI ? SCHED_MILLI - 1 : milli);
            need = j.gpus / (double)SCHED_MILLI;
        } else {
            j.kind = SJ_WHOLE;
            j.gpus = j.max_gpus = whole_gpus(tj->gpus);
            need = j.gpus;
            if (j.gpus > w->max_whole)
                w->max_whole = j.gpus;
        }
        if (j.submit > last)
            last = j.submit;
        w->offered_gpu_s += need * j.dur;
        if (push_job(w, cap, &j) < 0)
            return -1;
    }
    /* Replay every job: the horizon reaches at least the last submission. */
    if (last >= w->horizon)
        w->horizon = last * (1 + 1e-9) + 1;
    for (size_t i = 0; i < w->n; i++) {
        const SchedJobSpec *j = &w->jobs[i];
        double need = j->kind == SJ_FRAC ? j->gpus / (double)SCHED_MILLI : j->gpus;
        w->team_load_gpu_s[j->team] += need * fmin(j->dur, w->horizon - j->submit);
    }
    /* The sparklines follow the trace, not an idle month after it: its last
     * submission plus its longest run, with a quarter more to drain. */
    double longest = 0;
    for (size_t i = 0; i < w->n; i++)
        if (w->jobs[i].dur > longest)
            longest = w->jobs[i].dur;
    w->series_span = (last + longest) * 1.25;
    /* One reported class per team: "trace", its GPUs the mean a job asks
     * for (GPU-equivalents: a fraction of a GPU as its share). */
    for (int ti = 0; ti < w->n_teams && w->n_classes < PLAN_MAX_CLASSES; ti++) {
        SchedClassDef *cd = &w->classes[w->n_classes++];
        memset(cd, 0, sizeof *cd);
        strcpy(cd->name, "trace");
        cd->team = ti;
    }
    double need_sum[PLAN_MAX_CLASSES] = {0};
    size_t count[PLAN_MAX_CLASSES] = {0};
    for (size_t i = 0; i < w->n; i++) {
        SchedJobSpec *j = &w->jobs[i];
        j->cls = j->team < w->n_classes ? j->team : -1;
        if (j->cls >= 0) {
            need_sum[j->cls] += j->kind == SJ_FRAC ? j->gpus / (double)SCHED_MILLI : j->gpus;
            count[j->cls]++;
        }
    }
    for (int c = 0; c < w->n_classes; c++)
        w->classes[c].gpus = count[c] ? need_sum[c] / (double)count[c] : 0;
    return 0;
}

int sched_workload_build(const Plan *p, const Accelerator *a, const EvalOptions *opt, int probes,
                         SchedWorkload *w)
{
    memset(w, 0, sizeof *w);
    const TenancySpec *t = &p->tenancy;
    w->horizon = t->horizon_s > 0 ? t->horizon_s : 30 * 86400.0; /* PLAN-FORMAT default */
    if (w->horizon > GEN_MAX_HORIZON)
        w->horizon = GEN_MAX_HORIZON;
    for (int ti = 0; ti < t->n_teams && ti < PLAN_MAX_TEAMS; ti++) {
        SchedTeamDef *td = &w->teams[w->n_teams++];
        memcpy(td->name, t->teams[ti].name, sizeof td->name);
        td->weight = t->teams[ti].weight > 0 ? t->teams[ti].weight : 1;
        td->quota = t->teams[ti].quota_gpus > 0 ? t->teams[ti].quota_gpus : 0;
        td->borrow = t->teams[ti].borrow_gpus;
    }
    size_t cap = 0;
    bool trace = t->trace_jobs && t->n_trace_jobs > 0;
    int rc = trace ? gen_trace(p, w, &cap) : gen_classes(p, a, opt, probes, w, &cap);
    if (rc < 0) {
        bool many = w->too_many, cancelled = w->cancelled;
        sched_workload_free(w);
        w->too_many = many;
        w->cancelled = cancelled;
        return -1;
    }
    if (trace && w->n > 1) /* generated jobs come out of the merge sorted */
        qsort(w->jobs, w->n, sizeof *w->jobs, cmp_submit);
    return 0;
}

void sched_workload_free(SchedWorkload *w)
{
    free(w->jobs);
    w->jobs = NULL;
    w->n = 0;
}
