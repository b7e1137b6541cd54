/* bench/bench_train.c — speed of the training model (ARCHITECTURE.md "live
 * recompute": every keystroke re-sizes each training workload on every
 * catalog accelerator).  Targets: a 405B workload with every layout
 * parameter searched on 16,384 GPUs, and sizing the GPU count for a 60-day
 * target, each well under 5 ms on one core at -O2.  Prints ms per call. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog_yaml.h"
#include "plan.h"
#include "train.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void llama405(Workload *w)
{
    workload_init(w, WL_TRAINING);
    snprintf(w->name, sizeof w->name, "pretrain-405b");
    /* Llama 3.1 405B (Dubey et al. 2024, Table 3) */
    w->model.layers = 126;
    w->model.hidden = 16384;
    w->model.ffn_hidden = 53248;
    w->model.heads = 128;
    w->model.kv_heads = 8;
    w->model.vocab = 128256;
    w->model.glu = true;
    w->seq_len = 8192;
    w->global_batch = 2048;
    w->tokens = 15.6e12;
}

/* Runs f until at least min_s elapsed; returns ms per call. */
static double time_it(const Plan *p, const Workload *w, const Accelerator *a, const Catalog *c,
                      WorkloadResult *wr, int *calls, bool *ok)
{
    int n = 0;
    double t0 = now_s(), t;
    do {
        *ok = train_size(p, w, a, c, wr, NULL);
        n++;
        t = now_s() - t0;
    } while (t < 0.5 && n < 100000);
    *calls = n;
    return 1e3 * t / n;
}

int main(void)
{
    const char *dd = getenv("GPUPLAN_DATADIR");
    char dir[4096];
    if (dd && *dd)
        snprintf(dir, sizeof dir, "%s/catalog", dd);
    else
        snprintf(dir, sizeof dir, "%s/data/catalog", GPUPLAN_SRCDIR);
    Catalog cat;
    memset(&cat, 0, sizeof cat);
    Diag d;
    memset(&d, 0, sizeof d);
    if (catalog_load(&cat, dir, NULL, &d) != 0) {
        char buf[512];
        fprintf(stderr, "bench_train: %s\n", diag_format(&d, buf, sizeof buf));
        return 1;
    }
    const Accelerator *h100 = catalog_find_accelerator(&cat, "H100-SXM");
    if (!h100) {
        fprintf(stderr, "bench_train: no H100-SXM in %s\n", dir);
        return 1;
    }
    Plan p;
    plan_init(&p);
    Workload w;
    llama405(&w);
    WorkloadResult *wr = calloc(1, sizeof *wr);
    if (!wr)
        return 1;
    int calls;
    bool ok;

    w.gpus = 16384;
    double ms = time_it(&p, &w, h100, &cat, wr, &calls, &ok);
    printf("405B, 16384 H100, full layout search: %.3f ms/eval (%d calls, ok=%d, %d layouts "
           "timed, step %.2f s, MFU %.1f%%)\n", ms, calls, ok, wr->train.layouts_tried,
           wr->train.step_s, 100 * wr->train.mfu);

    w.gpus = 0;
    w.target_days = 60;
    ms = time_it(&p, &w, h100, &cat, wr, &calls, &ok);
    printf("405B, size H100 count for 60 days: %.3f ms/eval (%d calls, ok=%d, %d GPUs, "
           "%.1f days)\n", ms, calls, ok, wr->train.gpus, wr->train.train_days);

    /* the evaluate.c alternatives loop: every accelerator of the catalog */
    double t0 = now_s();
    int rounds = 0;
    do {
        for (size_t i = 0; i < cat.n_accelerators; i++)
            train_size(&p, &w, &cat.accelerators[i], &cat, wr, NULL);
        rounds++;
    } while (now_s() - t0 < 0.5 && rounds < 10000);
    printf("405B, 60-day sizing on all %zu catalog accelerators: %.3f ms per round\n",
           cat.n_accelerators, 1e3 * (now_s() - t0) / rounds);
    free(wr);
    catalog_free(&cat);
    return 0;
}
