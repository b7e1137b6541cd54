/* model/evaluate.c — runs the stages in order (see evaluate.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "evaluate.h"
#include "infer.h"
#include "layout.h"
#include "power.h"
#include "sched/sched.h"
#include "train.h"

EvalOptions eval_options_default(void)
{
    EvalOptions o = {.cancel = NULL, .alternatives = true, .capacity_search = true};
    return o;
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
 * fewest GPUs first (Sizing pane's ranking). */
static void size_alternatives(const Plan *p, const Workload *w, const Catalog *c,
                              WorkloadResult *wr, const EvalOptions *opt)
{
    wr->n_alts = 0;
    for (size_t i = 0; i < c->n_accelerators && wr->n_alts < PLAN_MAX_ALTS; i++) {
        if (eval_cancelled(opt))
            return;
        const Accelerator *a = &c->accelerators[i];
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
}

int plan_evaluate_ex(const Plan *p, const Catalog *c, const EvalOptions *opt, PlanResult *r)
{
    memset(r, 0, sizeof *r);
    r->cost.cheapest = -1;

    /* 1. per-workload sizing */
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
        if (opt && opt->alternatives)
            size_alternatives(p, w, c, wr, opt);
        if (eval_cancelled(opt))
            return -1;
    }
    r->have_sizing = true;

    /* 2. the tenancy pool (sizes it when auto) */
    sched_stage(p, c, opt, r);
    if (eval_cancelled(opt))
        return -1;

    /* 3–5. the physical cluster, its power, its cost */
    layout_stage(p, c, r);
    power_stage(p, c, r);
    cost_stage(p, c, r);
    return eval_cancelled(opt) ? -1 : 0;
}

int plan_evaluate(const Plan *p, const Catalog *c, PlanResult *r)
{
    EvalOptions o = eval_options_default();
    return plan_evaluate_ex(p, c, &o, r);
}
