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

/* One replica of workload w at `tp` GPUs (tensor parallel), sized by the
 * same model infer_size() uses.  All times in seconds, bytes per GPU. */
typedef struct {
    int tp;
    bool fits;                       /* weights + overhead + one sequence fit HBM */
    int max_batch;                   /* sequences in flight that fit (capped) */
    double weights_per_gpu;
    double other_per_gpu;            /* runtime reserve + activation workspace */
    double kv_per_seq_per_gpu;       /* reserved: prompt + output tokens */
    double prefill_s;                /* one prompt, replica otherwise idle */
    double step1_s;                  /* decode step at batch 1 = best TPOT */
    double max_output_tokens_per_s;  /* saturated: max_batch, prefill share included */
} InferReplica;

/* Fill *out for w on a at tp GPUs per replica.  Returns false (and leaves
 * out->fits false) when the inputs are invalid or tp is not a valid degree
 * for the model's heads; returns true with fits false when it does not fit. */
bool infer_replica(const Plan *p, const Workload *w, const Accelerator *a, int tp,
                   InferReplica *out);

/* Decode-step time of one replica at tp GPUs running `batch` sequences
 * (batch < 1 counts as 1).  Returns -1 for invalid inputs. */
double infer_decode_step_s(const Plan *p, const Workload *w, const Accelerator *a, int tp,
                           double batch);

#endif
