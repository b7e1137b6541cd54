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

/* A training GEMM's wave-quantisation efficiency on `sms` SMs: forward,
 * dgrad and wgrad output grids (M x N, M x K, N x K), each at its best of
 * 128x256 / 256x128 / 128x128 tiles, combined harmonically; in (0, 1],
 * 1 when sms = 0 (unknown).  model/train.c, the comment above it. */
double train_gemm_wave(int sms, double M, double N, double K);
/* The same for `groups` GEMMs of that shape whose tiles one grouped GEMM
 * schedules together (a rank's local experts). */
double train_gemm_wave_grouped(int sms, double M, double N, double K, long groups);

/* Total and active parameter counts of a shape (SIZING-MODEL.md §1). */
void train_params(const ModelShape *m, double *total, double *active);

/* Model FLOPs for one step of B sequences of length s (Megatron's
 * num_floating_point_operations, no recompute). */
double train_model_flops(const ModelShape *m, double B, double s);

/* The attention core's share (0..1) of those FLOPs at sequence length s. */
double train_attn_flop_share(const ModelShape *m, double s);

/* The error-band class of training workload w on accelerator a:
 * "<family>/<dense|moe|hybrid>/<bf16|fp8>" (family = the accelerator's
 * `family`, else its id), with TRAIN_BAND_LONG appended where the step is
 * attention-bound (train_attn_flop_share ≥ TRAIN_ATTN_BOUND: long
 * sequences). */
#define TRAIN_BAND_LONG "/long"
#define TRAIN_ATTN_BOUND 0.5
void train_band_class(const Workload *w, const Accelerator *a, char *out, size_t len);

/* The length of band class cls without its TRAIN_BAND_LONG suffix. */
size_t train_band_class_base(const char *cls);

/* Activation bytes of ONE transformer layer for one micro-batch of b
 * sequences of length s, on one GPU of a layout with tensor parallel t,
 * context parallel c, sequence parallel sp, recompute r (Korthikanti et al.
 * 2022, Table 2, generalised for GQA/GLU/MoE as documented in train.c).
 * flash drops the 5·a·s/h attention-core term.  Returns 0 for bad input. */
double train_activation_bytes(const ModelShape *m, double s, double b, int t, int c, bool sp,
                              Recompute r, bool flash);

/* Per-GPU memory of workload w on layout l (l->dp etc. filled; gpus implied
 * by the layout) on accelerator a, the larger of the first and the last
 * pipeline stage.  Returns false (and zeroes *out) for an invalid layout. */
bool train_memory(const Workload *w, const Accelerator *a, const Layout *l, TrainMemory *out);

/* Checkpoint interval optima (SIZING-MODEL.md §5) for checkpoint write time
 * delta and job MTBF M, seconds.  Young 1974: sqrt(2·δ·M).  Daly 2006
 * higher-order: sqrt(2δM)·[1 + ⅓·sqrt(δ/2M) + ⅑·(δ/2M)] − δ for δ < 2M,
 * else M.  0 for non-positive input. */
double train_young_interval_s(double delta_s, double mtbf_s);
double train_daly_interval_s(double delta_s, double mtbf_s);
/* Share of wall-clock time that is useful training:
 * 1 − δ/τ − (τ/2 + restart)/M, clamped to [0, 1]. */
double train_goodput(double delta_s, double interval_s, double restart_s, double mtbf_s);

#endif
