/* model/evaluate.h — the single entry point of the model.
 *
 * plan_evaluate() runs every stage in order and fills a PlanResult:
 *   per-workload sizing (train.c, infer.c)
 *   → scheduling simulation of the tenancy pool (sched/; sizes the pool)
 *   → cluster layout: nodes, NVLink domains, racks, fabric, storage (layout.c)
 *   → power budget (power.c)
 *   → cost options (cost.c)
 * Each stage reads the plan and the earlier stages' parts of the result and
 * writes its own part; no stage reaches back.  Pure, deterministic (seeded),
 * reentrant: safe on any thread.
 */
#ifndef GPUPLAN_MODEL_EVALUATE_H
#define GPUPLAN_MODEL_EVALUATE_H

#include <stdatomic.h>
#include <stdbool.h>

#include "catalog.h"
#include "plan.h"

typedef struct {
    /* Polled by long stages (the simulator's event loop, layout searches);
     * when it becomes non-zero the stage stops early and marks its result
     * cancelled.  NULL = never cancelled. */
    const atomic_int *cancel;
    /* Size every workload on every catalog accelerator too (Sizing pane's
     * ranking, WorkloadResult.alts). */
    bool alternatives;
    /* Run the scheduler's capacity search when tenancy.gpus is auto. */
    bool capacity_search;
} EvalOptions;

/* Default options: alternatives and capacity search on, no cancel flag. */
EvalOptions eval_options_default(void);

/* Evaluate with default options.  Always fills *out completely (it is zeroed
 * first); problems of the plan are reported inside it (WorkloadResult.ok and
 * .error, warnings[]).  Returns 0, or -1 when the evaluation was cancelled. */
int plan_evaluate(const Plan *plan, const Catalog *cat, PlanResult *out);
int plan_evaluate_ex(const Plan *plan, const Catalog *cat, const EvalOptions *opt,
                     PlanResult *out);

/* True when the cancel flag of opt is set. */
bool eval_cancelled(const EvalOptions *opt);

#endif
