/* model/infer.h — inference sizing (SIZING-MODEL.md §6). */
#ifndef GPUPLAN_MODEL_INFER_H
#define GPUPLAN_MODEL_INFER_H

#include "catalog.h"
#include "plan.h"

/* Size one inference workload on accelerator `a`: KV cache, weights per GPU,
 * prefill/decode roofline, queueing, tp and batch search, replicas; with
 * w->disaggregated, separate prefill and decode pools.  The serving engine
 * (w->engine, "" = trtllm) comes from c's engine rows (built-in TensorRT-LLM
 * defaults when c has none).  Fills wr->infer, wr->ok and wr->error.
 * Appends assumptions and warnings to r when r is not NULL.  Returns wr->ok
 * (a service that misses its SLO is still ok, with meets_slo false). */
bool infer_size(const Plan *p, const Workload *w, const Accelerator *a, const Catalog *c,
                WorkloadResult *wr, PlanResult *r);

/* KV-cache bytes per token (K and V, all layers) at precision kv. */
double infer_kv_bytes_per_token(const ModelShape *m, Precision kv);

/* One replica of workload w on `tp` GPUs, sized by the same model
 * infer_size() uses.  Two layouts: tensor parallel over all tp GPUs, or (MoE
 * only, expert_parallel) attention data-parallel with the routed experts
 * expert-parallel over the tp GPUs.  Times in seconds, bytes per GPU. */
typedef struct {
    int tp;                          /* GPUs in the replica */
    bool expert_parallel;            /* attention-DP + EP layout */
    bool fits;                       /* weights + overhead + one sequence fit HBM */
    int max_batch;                   /* sequences in flight that fit (capped) */
    double weights_per_gpu;
    double other_per_gpu;            /* runtime reserve + activation workspace */
    double kv_per_seq_per_gpu;       /* reserved: prompt + output tokens */
    double prefill_s;                /* one prompt, replica otherwise idle */
    double prefill_share_s;          /* replica time one prefill takes from decoding */
    double step1_s;                  /* decode step at batch 1 = best TPOT */
    double max_output_tokens_per_s;  /* saturated: max_batch, prefill share included */
    double decode_max_output_tokens_per_s; /* decode only (a disaggregated decode pool) */
    double prefill_tokens_per_s;     /* prompt tokens/s of a saturated prefill-only replica */
    int redundant_experts;           /* DEP: expert slots beyond the model's experts */
} InferReplica;

/* Fill *out for w on a with `tp` GPUs per replica in the given layout.
 * Returns false (out->fits false) when the inputs are invalid or the degree
 * or layout does not suit the model (tp must split the heads; expert_parallel
 * needs a MoE model whose experts tp divides); returns true with fits false
 * when it does not fit in HBM. */
bool infer_replica(const Plan *p, const Workload *w, const Accelerator *a, const Engine *e,
                   int tp, bool expert_parallel, InferReplica *out);

/* Decode-step time of that replica running `batch` sequences (batch < 1
 * counts as 1).  Returns -1 for invalid inputs.  e NULL = built-in
 * TensorRT-LLM defaults. */
double infer_decode_step_s(const Plan *p, const Workload *w, const Accelerator *a,
                           const Engine *e, int tp, bool expert_parallel, double batch);

/* Inter-token latency with `batch` sequences in flight under continuous
 * batching (the prefill of arriving prompts included). */
double infer_itl_at_batch_s(const Plan *p, const Workload *w, const Accelerator *a,
                            const Engine *e, int tp, bool expert_parallel, double batch);

/* Wall time of `batch` prompts submitted together, prefilled in
 * chunk-sized iterations, then decoded to output_tokens each (vLLM's
 * benchmark_latency). */
double infer_batch_latency_s(const Plan *p, const Workload *w, const Accelerator *a,
                             const Engine *e, int tp, bool expert_parallel, int batch);

#endif
