/* model/train.h — training sizing (SIZING-MODEL.md §1–5).
 * Owned by the training model; see train.c for formulas and sources. */
#ifndef GPUPLAN_MODEL_TRAIN_H
#define GPUPLAN_MODEL_TRAIN_H

#include "catalog.h"
#include "plan.h"

/* Size one training workload on accelerator `a`: parameters, FLOPs, the
 * layout search, memory, step time, GPUs (fixed or for target_days), days,
 * checkpoints and goodput.  Fills wr->train, wr->ok and wr->error (the reason
 * when nothing fits / input is impossible).  Appends assumptions and warnings
 * to r when r is not NULL.  Returns wr->ok. */
bool train_size(const Plan *p, const Workload *w, const Accelerator *a, const Catalog *c,
                WorkloadResult *wr, PlanResult *r);

/* Total and active parameter counts of a shape (SIZING-MODEL.md §1). */
void train_params(const ModelShape *m, double *total, double *active);

/* Model FLOPs for one step of B sequences of length s (Megatron's
 * num_floating_point_operations, no recompute). */
double train_model_flops(const ModelShape *m, double B, double s);

#endif
