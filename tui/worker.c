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
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Plan *plan = malloc(sizeof *plan);
    PlanResult *res = calloc(1, sizeof *res);
    if (!plan || !res) {
        free(plan);
        free(res);
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
        double t0 = now_ms();
        int rc = plan_evaluate_ex(plan, w->cat, &opt, res);
        double ms = now_ms() - t0;

        pthread_mutex_lock(&w->mu);
        if (rc == 0 && !atomic_load(&w->cancel) && gen > atomic_load(&w->published_gen)) {
            memcpy(w->published, res, sizeof *res);
            w->published_ms = ms;
            atomic_store(&w->published_gen, gen);
            ssize_t wr = write(w->wake_fd, "r", 1);
            (void)wr;
        }
    }
    pthread_mutex_unlock(&w->mu);
    free(plan);
    free(res);
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
    if (!w->pending || !w->published) {
        free(w->pending);
        free(w->published);
        free(w);
        return NULL;
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    atomic_init(&w->cancel, 0);
    atomic_init(&w->published_gen, 0);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        free(w->pending);
        free(w->published);
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
    free(w);
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
