/* tui/worker.c — recompute thread (see worker.h). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "evaluate.h"
#include "worker.h"

struct Worker {
    const Catalog *cat;
    int wake_fd;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool quit;
    /* the queued request (newest wins) */
    Plan *pending;
    uint64_t pending_gen;
    bool has_pending;
    /* the last published generation */
    _Atomic uint64_t published_gen;
    atomic_int cancel;
    /* published result, guarded by mu */
    PlanResult *published;
    double published_ms;
    /* ranges: wanted, and the published ones (guarded by mu) */
    atomic_bool ranges_on;
    _Atomic uint64_t ranges_gen;
    SensResult *sens;
    McResult mc;
    double ranges_ms;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Sensitivity and Monte Carlo of the plan just published as gen, unless a
 * newer plan is queued (its submit cancels these runs too). */
static void run_ranges(Worker *w, const Plan *plan, uint64_t gen, EvalCache *cache,
                       SensResult *sens)
{
    if (!atomic_load(&w->ranges_on))
        return;
    pthread_mutex_lock(&w->mu);
    bool newer = w->has_pending || w->quit;
    pthread_mutex_unlock(&w->mu);
    if (newer)
        return;
    EvalOptions opt = eval_options_default();
    opt.cancel = &w->cancel;
    opt.cache = cache;
    McResult mc;
    double t0 = now_ms();
    if (sens_run(plan, w->cat, &opt, sens) != 0 || mc_run(plan, w->cat, &opt, 0, &mc) != 0)
        return;
    double ms = now_ms() - t0;
    pthread_mutex_lock(&w->mu);
    if (!atomic_load(&w->cancel) && gen > atomic_load(&w->ranges_gen)) {
        memcpy(w->sens, sens, sizeof *sens);
        w->mc = mc;
        w->ranges_ms = ms;
        atomic_store(&w->ranges_gen, gen);
        ssize_t wr = write(w->wake_fd, "s", 1);
        (void)wr;
    }
    pthread_mutex_unlock(&w->mu);
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Plan *plan = malloc(sizeof *plan);
    PlanResult *res = calloc(1, sizeof *res);
    SensResult *sens = malloc(sizeof *sens);
    /* the stage cache: an edit of a price reruns neither the training
     * search nor the scheduler (nor do the ranges' price points) */
    EvalCache *cache = eval_cache_new();
    /* the ranges have their own: their dozens of perturbed plans (tokens,
     * MTBF, arrivals) would otherwise evict the edited plan's sizing and
     * schedule from the 8 slots, and the next light edit (a price, PUE)
     * would rerun both (moe-gb200: 71 ms instead of ~2 ms per PUE edit) */
    EvalCache *rcache = eval_cache_new();
    if (!plan || !res || !sens || !cache || !rcache) {
        free(plan);
        free(res);
        free(sens);
        eval_cache_free(cache);
        eval_cache_free(rcache);
        return NULL;
    }
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->quit && !w->has_pending)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->quit)
            break;
        *plan = *w->pending;
        uint64_t gen = w->pending_gen;
        w->has_pending = false;
        /* a newer submit after this point cancels this run */
        atomic_store(&w->cancel, 0);
        pthread_mutex_unlock(&w->mu);

        EvalOptions opt = eval_options_default();
        opt.cancel = &w->cancel;
        opt.cache = cache;
        double t0 = now_ms();
        int rc = plan_evaluate_ex(plan, w->cat, &opt, res);
        double ms = now_ms() - t0;

        pthread_mutex_lock(&w->mu);
        bool published = false;
        if (rc == 0 && !atomic_load(&w->cancel) && gen > atomic_load(&w->published_gen)) {
            memcpy(w->published, res, sizeof *res);
            w->published_ms = ms;
            atomic_store(&w->published_gen, gen);
            ssize_t wr = write(w->wake_fd, "r", 1);
            (void)wr;
            published = true;
        }
        pthread_mutex_unlock(&w->mu);
        if (published)
            run_ranges(w, plan, gen, rcache, sens);
        pthread_mutex_lock(&w->mu);
    }
    pthread_mutex_unlock(&w->mu);
    free(plan);
    free(res);
    free(sens);
    eval_cache_free(cache);
    eval_cache_free(rcache);
    return NULL;
}

Worker *worker_start(const Catalog *cat, int wake_fd)
{
    Worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->cat = cat;
    w->wake_fd = wake_fd;
    w->pending = malloc(sizeof *w->pending);
    w->published = calloc(1, sizeof *w->published);
    w->sens = calloc(1, sizeof *w->sens);
    if (!w->pending || !w->published || !w->sens) {
        free(w->pending);
        free(w->published);
        free(w->sens);
        free(w);
        return NULL;
    }
    atomic_init(&w->ranges_on, false);
    atomic_init(&w->ranges_gen, 0);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    atomic_init(&w->cancel, 0);
    atomic_init(&w->published_gen, 0);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        free(w->pending);
        free(w->published);
        free(w->sens);
        free(w);
        return NULL;
    }
    return w;
}

void worker_stop(Worker *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->quit = true;
    atomic_store(&w->cancel, 1);
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w->pending);
    free(w->published);
    free(w->sens);
    free(w);
}

void worker_set_ranges(Worker *w, bool on)
{
    if (w)
        atomic_store(&w->ranges_on, on);
}

bool worker_take_ranges(Worker *w, SensResult *s, McResult *m, uint64_t *gen, double *ms)
{
    if (!w || atomic_load(&w->ranges_gen) <= *gen)
        return false;
    pthread_mutex_lock(&w->mu);
    memcpy(s, w->sens, sizeof *s);
    *m = w->mc;
    *gen = atomic_load(&w->ranges_gen);
    if (ms)
        *ms = w->ranges_ms;
    pthread_mutex_unlock(&w->mu);
    return true;
}

void worker_submit(Worker *w, const Plan *p, uint64_t gen)
{
    pthread_mutex_lock(&w->mu);
    *w->pending = *p;
    w->pending_gen = gen;
    w->has_pending = true;
    atomic_store(&w->cancel, 1);
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

bool worker_take(Worker *w, PlanResult *dst, uint64_t *gen, double *eval_ms)
{
    if (atomic_load(&w->published_gen) <= *gen)
        return false;
    pthread_mutex_lock(&w->mu);
    memcpy(dst, w->published, sizeof *dst);
    *gen = atomic_load(&w->published_gen);
    if (eval_ms)
        *eval_ms = w->published_ms;
    pthread_mutex_unlock(&w->mu);
    return true;
}
