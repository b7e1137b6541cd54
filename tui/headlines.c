/* tui/headlines.c — the plan browser's headline numbers per stored version,
 * evaluated on one background thread and cached for the session (see
 * headlines.h).  Entries live in a growing array under one mutex; the
 * thread takes the newest pending one, parses and evaluates it without the
 * lock, and publishes the numbers. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "evaluate.h"
#include "headlines.h"
#include "sensitivity.h"
#include "trace.h"
#include "yaml_plan.h"

typedef struct {
    char plan[PLAN_NAME_LEN];
    int version;
    int64_t saved;
    uint64_t asked;                  /* request order: the newest is evaluated first */
    char *yaml;                      /* pending: the text to evaluate; NULL once taken */
    HeadNumbers n;
} Entry;

struct Headlines {
    const Catalog *cat;
    int wake_fd;
    pthread_t thread;
    bool started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool quit;
    atomic_int cancel;
    Entry *e;
    int n, cap;
    uint64_t asked;
};

/* The entry of (plan, version, saved), or NULL.  Caller holds mu. */
static Entry *find(Headlines *h, const char *plan, int version, int64_t saved)
{
    for (int i = 0; i < h->n; i++)
        if (h->e[i].version == version && h->e[i].saved == saved &&
            strcmp(h->e[i].plan, plan) == 0)
            return &h->e[i];
    return NULL;
}

/* A new entry (zeroed, keyed); NULL on ENOMEM.  Caller holds mu. */
static Entry *add(Headlines *h, const char *plan, int version, int64_t saved)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 32;
        Entry *grown = realloc(h->e, (size_t)cap * sizeof *grown);
        if (!grown)
            return NULL;
        h->e = grown;
        h->cap = cap;
    }
    Entry *e = &h->e[h->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->plan, sizeof e->plan, "%s", plan);
    e->version = version;
    e->saved = saved;
    return e;
}

static void fill(HeadNumbers *n, const PlanResult *r, const Catalog *cat, const char *accel)
{
    SensOutcome o;
    sens_outcome(r, cat, &o);
    n->gpus = o.gpus;
    n->days = o.days;
    n->mw = o.mw;
    n->tco = o.tco;
    snprintf(n->accelerator, sizeof n->accelerator, "%s", accel);
    n->state = HEAD_DONE;
}

/* Parse and evaluate one version; fills *n (HEAD_DONE or HEAD_FAILED).
 * Returns -1 when cancelled (n untouched). */
static int evaluate(Headlines *h, const Entry *key, const char *yaml, Plan *p, PlanResult *r,
                    HeadNumbers *n)
{
    Diag d;
    memset(&d, 0, sizeof d);
    char file[PLAN_NAME_LEN + 16], buf[600];
    snprintf(file, sizeof file, "store:%s", key->plan);
    memset(n, 0, sizeof *n);
    if (plan_parse(yaml, strlen(yaml), file, h->cat, p, &d) != 0) {
        snprintf(n->error, sizeof n->error, "%s", diag_format(&d, buf, sizeof buf));
        n->state = HEAD_FAILED;
        return 0;
    }
    /* a replayed trace is read here, as the dashboard reads it on open */
    Trace t;
    memset(&t, 0, sizeof t);
    if (trace_attach(p, NULL, &t, &d) != 0) {
        snprintf(n->error, sizeof n->error, "%s", diag_format(&d, buf, sizeof buf));
        n->state = HEAD_FAILED;
        trace_free(&t);
        return 0;
    }
    EvalOptions opt = eval_options_default();
    opt.alternatives = false;        /* no headline reads them */
    opt.cancel = &h->cancel;
    int rc = plan_evaluate_ex(p, h->cat, &opt, r);
    if (rc == 0)
        fill(n, r, h->cat, p->accelerator);
    trace_free(&t);
    return rc == 0 ? 0 : -1;
}

static void *headlines_main(void *arg)
{
    Headlines *h = arg;
    Plan *p = malloc(sizeof *p);
    PlanResult *r = calloc(1, sizeof *r);
    if (!p || !r) {
        free(p);
        free(r);
        return NULL;
    }
    pthread_mutex_lock(&h->mu);
    for (;;) {
        Entry *next = NULL;
        while (!h->quit) {
            next = NULL;
            for (int i = 0; i < h->n; i++)
                if (h->e[i].yaml && (!next || h->e[i].asked > next->asked))
                    next = &h->e[i];
            if (next)
                break;
            pthread_cond_wait(&h->cv, &h->mu);
        }
        if (h->quit)
            break;
        Entry key = *next;           /* the array may move while unlocked */
        char *yaml = next->yaml;
        next->yaml = NULL;
        pthread_mutex_unlock(&h->mu);

        HeadNumbers n;
        int rc = evaluate(h, &key, yaml, p, r, &n);
        free(yaml);

        pthread_mutex_lock(&h->mu);
        Entry *e = find(h, key.plan, key.version, key.saved);
        if (rc == 0 && e && e->n.state == HEAD_PENDING) {
            e->n = n;
            ssize_t wr = write(h->wake_fd, "h", 1);
            (void)wr;
        }
    }
    pthread_mutex_unlock(&h->mu);
    free(p);
    free(r);
    return NULL;
}

Headlines *headlines_start(const Catalog *cat, int wake_fd)
{
    Headlines *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->cat = cat;
    h->wake_fd = wake_fd;
    atomic_init(&h->cancel, 0);
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    if (pthread_create(&h->thread, NULL, headlines_main, h) != 0) {
        pthread_mutex_destroy(&h->mu);
        pthread_cond_destroy(&h->cv);
        free(h);
        return NULL;
    }
    h->started = true;
    return h;
}

void headlines_stop(Headlines *h)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->mu);
    h->quit = true;
    atomic_store(&h->cancel, 1);
    pthread_cond_signal(&h->cv);
    pthread_mutex_unlock(&h->mu);
    if (h->started)
        pthread_join(h->thread, NULL);
    for (int i = 0; i < h->n; i++)
        free(h->e[i].yaml);
    free(h->e);
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->cv);
    free(h);
}

HeadNumbers headlines_get(Headlines *h, const char *plan, int version, int64_t saved)
{
    HeadNumbers n;
    memset(&n, 0, sizeof n);
    if (!h)
        return n;
    pthread_mutex_lock(&h->mu);
    const Entry *e = find(h, plan, version, saved);
    if (e)
        n = e->n;
    pthread_mutex_unlock(&h->mu);
    return n;
}

int headlines_request(Headlines *h, const char *plan, int version, int64_t saved,
                      const char *yaml)
{
    if (!h)
        return -1;
    int rc = 0;
    pthread_mutex_lock(&h->mu);
    Entry *e = find(h, plan, version, saved);
    if (!e) {
        char *copy = strdup(yaml);
        e = copy ? add(h, plan, version, saved) : NULL;
        if (!e) {
            free(copy);
            rc = -1;
        } else {
            e->yaml = copy;
            e->n.state = HEAD_PENDING;
        }
    }
    if (e && e->yaml) {
        e->asked = ++h->asked;
        pthread_cond_signal(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
    return rc;
}

void headlines_put(Headlines *h, const char *plan, int version, int64_t saved,
                   const PlanResult *r, const Catalog *cat, const char *accelerator)
{
    if (!h || !r)
        return;
    pthread_mutex_lock(&h->mu);
    Entry *e = find(h, plan, version, saved);
    if (!e)
        e = add(h, plan, version, saved);
    if (e) {
        free(e->yaml);
        e->yaml = NULL;
        fill(&e->n, r, cat, accelerator);
    }
    pthread_mutex_unlock(&h->mu);
}
