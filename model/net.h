/* model/net.h — communication costs shared by the training and inference
 * models: link bandwidths as achieved by NCCL-style collectives, and the
 * time of ring collectives.
 *
 * Sources (CATALOG-FACTS.md §5.2): NCCL maintainers quote 46–48 GB/s busBw
 * per 400 Gb/s NDR NIC between nodes (nccl-tests #290), i.e. 92–96 % of the
 * 50 GB/s line rate; inside an 8×H100 node ~370 GB/s of the 450 GB/s line rate
 * for ring collectives (nccl-tests #212), i.e. ~82 %.  The per-accelerator
 * scale-up efficiency lives in the catalog (Accelerator.scaleup_eff).
 */
#ifndef GPUPLAN_MODEL_NET_H
#define GPUPLAN_MODEL_NET_H

#include "catalog.h"
#include "plan.h"

/* Achieved share of a scale-out NIC's line rate for large collectives. */
#define NET_SCALEOUT_EFF 0.94
/* Per-step latency of a collective over the scale-out fabric, seconds
 * (a few µs per hop through NIC + switches). */
#define NET_SCALEOUT_LATENCY_S 8e-6

/* Per-GPU scale-out bandwidth a collective achieves, bytes/s: the plan's
 * per-GPU link at NET_SCALEOUT_EFF.  `crosses_leaf` divides by the leaf's
 * oversubscription (traffic that must go above the leaf).  Rail-optimized
 * fabrics keep same-rank (DP/PP) traffic on one rail, so callers pass
 * crosses_leaf = false for it when the group fits in one scalable unit. */
double net_scaleout_bw(const Plan *p, const Accelerator *a, bool crosses_leaf);

/* Achieved per-GPU scale-up (NVLink) bandwidth for collectives, bytes/s. */
double net_scaleup_bw(const Accelerator *a);

/* Ring all-reduce of `bytes` per rank over n ranks at per-rank bandwidth bw
 * (bytes/s) and per-step latency lat: 2(n-1)/n·bytes/bw + 2(n-1)·lat.
 * 0 when n <= 1. */
double net_allreduce_s(double bytes, int n, double bw, double lat);
/* One-shot all-reduce for small messages on a switched scale-up fabric: every
 * rank reads the n-1 peer buffers directly and reduces locally, two
 * synchronisation steps: (n-1)·bytes/bw + 2·lat.  0 when n <= 1.  This is the
 * latency-bound regime TensorRT-LLM's custom all-reduce (ONESHOT) and NCCL's
 * NVLS/LL protocols serve; callers take the min with net_allreduce_s. */
double net_allreduce_oneshot_s(double bytes, int n, double bw, double lat);
/* Reduce-scatter or all-gather (half an all-reduce): (n-1)/n·bytes/bw + (n-1)·lat. */
double net_allgather_s(double bytes, int n, double bw, double lat);
/* All-to-all where each rank sends `bytes` in total, (n-1)/n of it off-rank. */
double net_alltoall_s(double bytes, int n, double bw, double lat);
/* Point-to-point transfer. */
double net_p2p_s(double bytes, double bw, double lat);

#endif
