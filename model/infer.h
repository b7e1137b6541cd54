/* model/infer.h — inference sizing (SIZING-MODEL.md §6). */
#ifndef GPUPLAN_MODEL_INFER_H
#define GPUPLAN_MODEL_INFER_H

#include "catalog.h"
#include "plan.h"

/* Size one inference workload on accelerator `a`: KV cache, weights per GPU,
 * prefill/decode roofline, queueing, tp and batch search, replicas.  Fills
 * wr->infer, wr->ok and wr->error.  Appends assumptions and warnings to r
 * when r is not NULL.  Returns wr->ok (a service that misses its SLO is still
 * ok, with meets_slo false). */
bool infer_size(const Plan *p, const Workload *w, const Accelerator *a, const Catalog *c,
                WorkloadResult *wr, PlanResult *r);

/* KV-cache bytes per token (K and V, all layers) at precision kv. */
double infer_kv_bytes_per_token(const ModelShape *m, Precision kv);

#endif
