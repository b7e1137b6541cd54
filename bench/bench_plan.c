/* bench/bench_plan.c — speed of a whole-plan evaluation (ARCHITECTURE.md
 * "live recompute": every accepted edit re-evaluates the plan).  Target: a
 * 20,000-GPU plan under 5 ms per plan_evaluate() at -O2.  plan_evaluate runs
 * the training, inference and scheduler stages too, so the layout + power +
 * cost stages are also timed alone on the same sized result.  Prints µs per
 * evaluation. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog_yaml.h"
#include "cost.h"
#include "evaluate.h"
#include "layout.h"
#include "plan.h"
#include "power.h"
#include "presets.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* 405B pre-training on 16,384 H100 (fixed layout: Llama 3's 8 x 16 x 128,
 * Dubey et al. 2024 §3.3, with full recompute so it fits in 80 GB), a 70B chat service, three teams on a fixed
 * 2,000-GPU pool, 10 % headroom: about 20,000 GPUs. */
static void build_plan(Plan *p)
{
    plan_init(p);
    snprintf(p->name, sizeof p->name, "bench-20k");
    p->storage.dataset_bytes = 2e15;

    Workload *w = &p->workloads[p->n_workloads++];
    workload_init(w, WL_TRAINING);
    snprintf(w->name, sizeof w->name, "pretrain-405b");
    w->model.layers = 126;
    w->model.hidden = 16384;
    w->model.ffn_hidden = 53248;
    w->model.heads = 128;
    w->model.kv_heads = 8;
    w->model.vocab = 128256;
    w->seq_len = 8192;
    w->global_batch = 2048;
    w->tokens = 15.6e12;
    w->gpus = 16384;
    w->micro_batch = 1;
    w->parallel = (ParallelSpec){.tp = 8, .pp = 16, .vpp = 1, .cp = 1, .ep = 1, .sp = 1};
    w->recompute = RECOMPUTE_FULL;

    w = &p->workloads[p->n_workloads++];
    workload_init(w, WL_INFERENCE);
    snprintf(w->name, sizeof w->name, "chat-70b");
    const ModelPreset *mp = preset_find("llama-3-70b");
    if (mp)
        w->model = mp->shape;
    w->precision = PREC_FP8;
    w->kv_precision = PREC_FP8;
    w->requests_per_s = 40;
    w->tp = 4;

    p->tenancy.gpus = 2000;
    p->tenancy.horizon_s = 7 * 86400.0;
    static const char *const teams[] = {"research", "product", "infra"};
    for (int i = 0; i < 3; i++) {
        Team *t = &p->tenancy.teams[p->tenancy.n_teams++];
        team_init(t);
        snprintf(t->name, sizeof t->name, "%s", teams[i]);
        t->quota_gpus = 600;
        JobClass *j = &t->jobs[t->n_jobs++];
        jobclass_init(j);
        snprintf(j->name, sizeof j->name, "ablations");
        j->per_day = 40;
        j->gpus = 8;
        j->hours = 6;
        j = &t->jobs[t->n_jobs++];
        jobclass_init(j);
        snprintf(j->name, sizeof j->name, "scale-runs");
        j->per_day = 1;
        j->gpus = 256;
        j->hours = 24;
    }
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
        fprintf(stderr, "bench_plan: %s\n", diag_format(&d, buf, sizeof buf));
        return 1;
    }
    Plan *p = calloc(1, sizeof *p);
    PlanResult *r = calloc(1, sizeof *r);
    if (!p || !r)
        return 1;
    build_plan(p);

    /* whole plan, default options (alternatives on every accelerator) */
    int n = 0;
    double t0 = now_s(), t;
    do {
        plan_evaluate(p, &cat, r);
        n++;
        t = now_s() - t0;
    } while (t < 1.0 && n < 100000);
    double whole_us = 1e6 * t / n;
    printf("plan_evaluate, %d GPUs (%d nodes, %d leaf / %d spine / %d core switches, %d options): "
           "%.1f us per evaluation (%d runs)\n",
           r->cluster.gpus, r->cluster.nodes, r->cluster.leaf_switches, r->cluster.spine_switches,
           r->cluster.core_switches, r->cost.n_options, whole_us, n);

    /* layout + power + cost alone on that sized result */
    n = 0;
    t0 = now_s();
    do {
        r->n_warnings = 0;
        r->n_assumptions = 0;
        layout_stage(p, &cat, r);
        power_stage(p, &cat, r);
        cost_stage(p, &cat, r);
        n++;
        t = now_s() - t0;
    } while (t < 1.0 && n < 1000000);
    double own_us = 1e6 * t / n;
    printf("layout + power + cost stages alone: %.2f us per evaluation (%d runs)\n", own_us, n);
    printf("target: whole plan < 5000 us: %s\n", whole_us < 5000 ? "met" : "NOT met");
    free(p);
    free(r);
    catalog_free(&cat);
    return 0;
}
