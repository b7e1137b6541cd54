/* model/catalog.h — the hardware, instance, storage and cost catalog as the
 * model sees it.
 *
 * The catalog is plain data: plans/catalog_yaml.c fills it from the YAML files in data/catalog
 * (plus user overrides), the model only reads it.  Every row carries the
 * source and the date of its figures so views and exports can cite them.
 *
 * Units, everywhere in model/: SI base units held in doubles — bytes (1e9 =
 * GB), seconds, FLOP/s, bytes/s, watts, US dollars — unless a field's name
 * says otherwise (e.g. `_gbps` is gigabits per second, `_kw` kilowatts).
 */
#ifndef GPUPLAN_MODEL_CATALOG_H
#define GPUPLAN_MODEL_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#define CAT_ID_LEN 48
#define CAT_TEXT_LEN 256
#define CAT_MAX_MIG 16
#define CAT_MAX_CURVE 8

/* Numeric precisions.  The order is part of the plan-file contract
 * (plans/ maps the names "fp32" … "fp4" onto it). */
typedef enum {
    PREC_FP32 = 0,
    PREC_BF16,
    PREC_FP16,
    PREC_FP8,
    PREC_FP4,
    PREC_COUNT
} Precision;

/* Bytes per value of a precision: 4, 2, 2, 1, 0.5. */
double precision_bytes(Precision p);
/* "fp32", "bf16", … ; NULL for out-of-range. */
const char *precision_name(Precision p);

/* One MIG profile: `count` instances of it fill one GPU. */
typedef struct {
    char name[24];        /* "3g.40gb" */
    int count;            /* max instances per GPU */
    int compute_slices;   /* the "Ng" part: 1..7 */
    double mem_bytes;     /* memory of one instance */
} MigProfile;

/* A piecewise-linear efficiency curve: y(x) interpolated between points,
 * clamped at the ends.  Used for GEMM efficiency against a size measure. */
typedef struct {
    int n;
    double x[CAT_MAX_CURVE];
    double y[CAT_MAX_CURVE];
} Curve;

double curve_eval(const Curve *c, double x);

typedef struct {
    char id[CAT_ID_LEN];          /* "H100-SXM" (matched case-insensitively) */
    char name[CAT_TEXT_LEN];      /* "NVIDIA H100 SXM5 80GB" */
    char aliases[CAT_TEXT_LEN];   /* other names it goes by, space-separated ("Ironwood
                                   * TPU-v7"): a plan may use any, matched as the id is,
                                   * and is rewritten to the id */
    char vendor[24];              /* "NVIDIA", "AMD", "Google", "AWS" */
    char family[CAT_ID_LEN];      /* architecture family for error bands ("hopper",
                                   * "blackwell", "ampere", "cdna3", "tpu", "trainium");
                                   * "" = the id */
    char silicon[CAT_ID_LEN];     /* the die, when other rows share it (MI350X and
                                   * MI355X: one MI350 chip, clock and power differ);
                                   * an accelerator with no "<framework>@<id>"
                                   * calibration borrows a sibling's; "" = none */
    double hbm_bytes;             /* device memory, bytes */
    double hbm_usable_frac;       /* share of HBM usable by the framework */
    double hbm_bw;                /* bytes/s */
    double peak_flops[PREC_COUNT];/* dense peak per precision, FLOP/s; 0 = unsupported */
    double scaleup_bw;            /* per-device scale-up bandwidth, bytes/s, one direction */
    double scaleup_eff;           /* achievable busbw / scaleup_bw for large collectives */
    double scaleup_latency_s;     /* per collective step */
    double host_bw;               /* GPU <-> host memory, bytes/s, one direction
                                   * (PCIe or NVLink-C2C); 0 = PCIe Gen5 x16 */
    int gpus_per_node;
    int sms;                      /* streaming multiprocessors (GEMM tiles run in waves of this
                                   * many, model/train.c train_gemm_wave); 0 = unknown: no wave term */
    int scaleup_domain;           /* GPUs in one NVLink / scale-up domain (8, 72, …) */
    double tdp_w;                 /* per device */
    double node_power_w;          /* whole node (or tray) at load, incl. CPUs, NICs, fans */
    double node_price_usd;        /* on-prem purchase price of one node, 0 = unknown */
    int node_rack_units;          /* height of one node in rack units (DGX H100: 8U);
                                   * 0 = unknown: racks are then filled by power only */
    int node_cpus;                /* host CPU cores of one node (or tray), 0 = unknown */
    double node_memory_bytes;     /* host memory of one node, bytes, 0 = unknown */
    char nvml_name[CAT_ID_LEN];   /* device name NVML reports ("NVIDIA H100 80GB HBM3"),
                                   * "" = unknown: Slurm's autodetected GRES type */
    char node_label[CAT_TEXT_LEN];/* "key=value": the label the platform itself puts on
                                   * the nodes that carry this part (GKE:
                                   * cloud.google.com/gke-tpu-accelerator=tpu7x), which
                                   * the Kueue flavour selects on; "" = none known */
    bool liquid_cooled;           /* requires liquid cooling */
    bool unlisted;                /* not offered on its own (a part some published run
                                   * used): sized when a plan names it, left out of the
                                   * other-accelerator ranking and cost comparison */
    int nics_per_node;
    double nic_gbps;              /* per NIC, gigabits/s */
    Curve gemm_eff;               /* GEMM efficiency vs per-GPU GEMM dimension */
    double elementwise_eff;       /* achieved / peak HBM bandwidth for memory-bound kernels */
    double fp4_gemm_factor;       /* FP4 GEMMs reach this share of what gemm_eff gives at the
                                   * FP4 peak (block-scaled MMA kernels fill less of their 2x
                                   * rate); 0 = 1.  Read by the training and inference
                                   * models */
    int fp4_scale_block;          /* FP4 weights carry one 8-bit scale per this many values
                                   * (NVFP4 16, OCP MXFP4 32); 0 = no block scales */
    double sustained_clock_frac;  /* compute-bound clock the part holds at its power /
                                   * thermal limit, as a share of the clock its peaks are
                                   * quoted at: × every tensor peak (training and serving);
                                   * 0 = 1 (the peaks hold).  Set where a source says the
                                   * part runs below its sibling by more than the peaks do */
    double attn_fwd_eff;          /* fused (Flash-style) attention: share of the 16-bit peak
                                   * its forward kernel reaches on the work it executes (the
                                   * causal half), head dim 128, long sequences; 0 = the core
                                   * is priced at gemm_eff on the full s x s count instead */
    double attn_bwd_eff;          /* the same for its backward (FLOPs counted as FlashAttention
                                   * counts them: 2.5x the forward's, S = QK^T recomputed) */
    double attn_decode_bw_eff;    /* decode attention over a paged KV cache: achieved share of
                                   * peak HBM bandwidth (a streaming read); 0 = elementwise_eff */
    double fp8_block_gemm_bw_eff; /* block-scaled FP8 GEMMs (DeepSeek-V3's 128x128 recipe) at
                                   * decode sizes: achieved share of peak HBM bandwidth
                                   * streaming their weights; 0 = elementwise_eff */
    double attn_cudnn_fwd_eff;    /* cuDNN's fused attention (Transformer Engine's
                                   * FusedAttention backend): the same shares as
                                   * attn_fwd_eff for that kernel, head dim 128, read by
                                   * frameworks with cudnn_attention; 0 = not measured */
    double attn_cudnn_bwd_eff;    /* its backward, counted as attn_bwd_eff */
    double attn_fa2_fwd_eff;      /* FlashAttention-2 (PyTorch SDPA's flash backend,
                                   * flash-attn 2.x), the same shares, where the part's
                                   * attn_fwd_eff is a newer kernel or absent: what the
                                   * training frameworks without cudnn_attention run;
                                   * 0 = attn_fwd_eff */
    double attn_fa2_bwd_eff;      /* its backward, counted as attn_bwd_eff */
    double attn_eff_seq;          /* the causal sequence length at which attn_*_eff (and
                                   * attn_cudnn_*, attn_fa2_*) were measured; 0 = no correction
                                   * for sequence length (accelerator_attn_seq_factor) */
    double attn_cta_blocks;       /* the fused attention kernel's fixed cost per thread
                                   * block, in iterations of its 128-key loop; 0 = none */
    double ssd_eff;               /* Mamba-2's SSD (chunked scan) kernels: share of the 16-bit
                                   * peak they reach on their FLOPs (MambaDims ssd_flops);
                                   * 0 = the measured Hopper share (catalog.c SSD_EFF_DEFAULT) */
    Curve attn_fwd_head_dim;      /* factor on attn_fwd_eff by the Q/K head dim (x), from the
                                   * same kernel benchmarked at both dims (clamped at the
                                   * ends); no points = 1 at every head dim */
    Curve attn_cudnn_fwd_seq;     /* cuDNN's fused attention forward measured across sequence
                                   * lengths on the part: x = the keys a thread block loops
                                   * over, y = the share of the 16-bit peak (counted as
                                   * attn_fwd_eff); no points = accelerator_attn_seq_factor's
                                   * law (accelerator_attn_seq_curve) */
    Curve attn_cudnn_bwd_seq;     /* the same for its backward */
    MigProfile mig[CAT_MAX_MIG];
    int n_mig;
    char source[CAT_TEXT_LEN];
    char as_of[16];               /* "2026-11-09" */
    char notes[CAT_TEXT_LEN];     /* unverified figures, caveats */
} Accelerator;

/* Share of the fused attention kernel's measured efficiency (attn_*_eff,
 * taken at attn_eff_seq) it reaches when each thread block's loop runs over
 * `keys` keys on average (model/catalog.c). */
double accelerator_attn_seq_factor(const Accelerator *a, double keys);

/* The same share read off a measured sweep of the kernel (catalog
 * attn_cudnn_*_seq: x = keys, y = share of the peak): its value at `keys`
 * over its value at attn_eff_seq's keys, interpolated linearly in
 * log2(keys), held at its last point above the sweep and carried below its
 * first by accelerator_attn_seq_factor's law; without points (or
 * attn_eff_seq), that law. */
double accelerator_attn_seq_curve(const Accelerator *a, const Curve *sweep, double keys);

/* Bytes a block-scaled FP4 value takes on the part, its share of the block
 * scale included (catalog fp4_scale_block; model/catalog.c). */
double accelerator_fp4_bytes(const Accelerator *a);

/* The part's measured share of what gemm_eff gives at its FP4 peak (catalog
 * fp4_gemm_factor), 0 where the catalog has none: the training and the
 * inference models price FP4 GEMMs at it. */
double accelerator_fp4_gemm_factor(const Accelerator *a);

/* Share of the 16-bit peak Mamba-2's SSD kernels reach on their FLOPs
 * (catalog ssd_eff), else the one measured share (Hopper, model/catalog.c
 * SSD_EFF_DEFAULT): the training and the inference models price the SSD
 * at it. */
double accelerator_ssd_eff(const Accelerator *a);

/* The share of its quoted peaks a part's tensor cores hold (catalog
 * sustained_clock_frac; 1 where unset): the training and the inference
 * model price compute at it, MFU stays against the quoted peak. */
static inline double accel_clock_share(const Accelerator *a)
{
    double f = a->sustained_clock_frac;
    return f > 0 && f < 1 ? f : 1.0;
}

/* GPUs per node (8 where unset) and the scale-up (NVLink) domain (the node
 * where unset; 72 on a GB200 NVL72 rack of 4-GPU trays). */
static inline int accel_gpus_per_node(const Accelerator *a)
{
    return a && a->gpus_per_node > 0 ? a->gpus_per_node : 8;
}

static inline int accel_scaleup_domain(const Accelerator *a)
{
    return a && a->scaleup_domain > 0 ? a->scaleup_domain : accel_gpus_per_node(a);
}

/* Whether a group of `span` consecutive GPUs stays on the scale-up fabric:
 * inside one node's NVLink, or inside a multi-node NVLink domain.  The
 * training model prices such a group at the scale-up bandwidth (train.c
 * env_link), and the cost model rents only instances that hold it. */
static inline bool accel_on_scaleup(const Accelerator *a, long long span)
{
    int gpn = accel_gpus_per_node(a), dom = accel_scaleup_domain(a);
    return (span <= gpn && span <= dom) || (dom > gpn && span <= dom);
}

/* A training framework profile (data/catalog/frameworks.yaml): how a
 * framework's kernels and schedules change what the model's terms cost.
 * Every field is a multiplier or a share so the same accelerator curve
 * serves all frameworks; `gpuplan calibrate` fits gemm_scale per
 * accelerator × framework and writes it as an override row whose id is
 * "<framework>@<accelerator>" (looked up before the plain id). */
typedef struct {
    char id[CAT_ID_LEN];          /* "megatron", "nemo", "deepspeed", "fsdp", "maxtext",
                                   * or "nemo@H100-SXM" (a calibrated override) */
    char name[CAT_TEXT_LEN];
    double gemm_scale;            /* × the accelerator's GEMM efficiency curve */
    double tp_overlap;            /* share of TP collectives hidden under GEMMs */
    double dp_overlap;            /* share of the DP gradient sync that can hide under the
                                   * backward pass (and param gather under the forward) */
    double ep_overlap;            /* default share of the MoE all-to-alls hidden */
    double fp8_gemm_factor;       /* FP8 GEMMs reach this share of their 2× peak */
    double layer_overhead_s;      /* fixed host/launch cost per layer per micro-batch pass */
    double step_overhead_s;       /* fixed cost per training step the GPUs wait for:
                                   * the optimizer step's host work after the grad-norm
                                   * sync (fitted by gpuplan calibrate) */
    double moe_overhead;          /* MoE router + permute/unpermute + grouped-GEMM padding
                                   * cost per routed token copy, in units of one h-wide
                                   * element-wise pass (≥ 0) */
    double moe_layer_overhead_s;  /* per MoE layer and pass: dropless routing's
                                   * device-to-host sync of the per-expert token counts
                                   * before the all-to-all, and the per-expert kernel
                                   * launches of the grouped GEMM */
    double moe_expert_overhead_s; /* per local expert, MoE layer and pass: the kernels a
                                   * grouped GEMM issues per expert (per-expert FP8
                                   * quantisation with its amax, per-expert GEMM launches
                                   * of Transformer Engine's GroupedLinear) */
    double moe_attn_launch_s;     /* per MoE layer and pass of a dropless run: the host time
                                   * of launching the attention sub-layer's kernels one by
                                   * one after the token-count sync drained the queue; not
                                   * paid where the recipe graphs the attention
                                   * (workload cuda_graph_attn) */
    double moe_graph_residual;    /* share of moe_layer_overhead_s and moe_expert_overhead_s
                                   * still paid by a recipe that replays the whole
                                   * forward-backward as CUDA graphs (workload
                                   * cuda_graph_full): the GPU-side part of what those
                                   * fitted per-layer costs stand for; 0-1, fitted by
                                   * gpuplan calibrate where a framework has MoE runs with
                                   * and without such graphs */
    bool moe_fused_dispatch;      /* dispatch/combine kernels permute tokens while they
                                   * communicate (DeepEP): no separate permute, un-permute
                                   * or chunk-sort passes */
    bool whole_program_buffers;   /* the whole training step is one compiled program
                                   * whose buffers the compiler assigns by live range
                                   * against the runtime's HBM limit (XLA): no allocator
                                   * allowance, and the loss's logits are freed before
                                   * the backward recomputes a layer (model/train.c
                                   * mem_stage) */
    double logits_bytes;          /* bytes per logit the loss keeps for its backward
                                   * on the last stage: 4 = an fp32 softmax (Megatron-Core's
                                   * native vocab-parallel cross-entropy, MaxText's fp32
                                   * logits), 2 = the 16-bit logits reused in place
                                   * (Transformer Engine parallel_cross_entropy); 0 = 4 */
    bool remat_dce;               /* full recompute re-runs only what the backward
                                   * consumes (JAX jax.checkpoint inside one XLA
                                   * program): not the MLP's down projection, whose
                                   * output only feeds the residual stream */
    bool fp8_param_gather;        /* FP8 runs keep their weights in FP8 for the DP
                                   * all-gather (Megatron-Core fp8_param_gather): 1 byte
                                   * per parameter gathered, not 2 */
    bool unfused_glu_clamp;       /* a GLU clamp (model glu_clamp) runs as eager clamp and
                                   * concatenation passes outside the fused activation */
    bool unfused_expert_bias;     /* routed experts' output bias added per expert by eager
                                   * ops (model linear_bias) */
    bool unfused_yarn_rope;       /* YaRN RoPE (model yarn_factor > 1) applied by eager ops,
                                   * not a fused RoPE kernel */
    bool eager_rope;              /* RoPE applied by eager PyTorch ops on complex fp32 views
                                   * of q and k (torchtitan's apply_rotary_emb without
                                   * torch.compile), not a fused kernel */
    bool eager_glu;               /* the GLU's activation and product as two eager ops
                                   * (F.silu(w1(x)) * w3(x)), not one fused kernel */
    bool tp_overlap_forward_only; /* tp_overlap hides only the forward-direction TP
                                   * collectives (the forward and its re-run): the
                                   * backward's stay exposed (torch's async TP) */
    bool cp_torch_ring;           /* context parallelism runs PyTorch's ring attention
                                   * (torch.distributed.tensor.experimental context_parallel):
                                   * eager fp32 merges / gradient sums per ring step */
    bool attn_repeat_kv;          /* grouped-query K/V are copied out to one head per query
                                   * head before the attention call (torchtitan repeat_kv):
                                   * the copy, and CP rings the expanded K/V */
    bool unit_collectives;        /* ZeRO-2 shards are reduced / gathered one collective
                                   * per wrapped unit (FSDP SHARD_GRAD_OP), not in
                                   * buckets (DeepSpeed ZeRO-2) */
    bool pp_fsdp_unsharded;       /* under pipeline parallelism the FSDP units stay gathered
                                   * and their gradients accumulate unsharded in the
                                   * reduce dtype from a stage's first forward to its
                                   * last backward (torch.distributed.pipelining with
                                   * FSDP2): ZeRO-1's memory and one gather and one
                                   * reduce-scatter a step, for zero 2 and 3 */
    bool fp8_tp_gather;           /* FP8 runs all-gather the sequence-parallel GEMM
                                   * inputs (and the backward's output gradients) in
                                   * FP8 (Transformer Engine userbuffers / TE
                                   * gather_along_first_dim): 1 byte per element, the
                                   * reduce-scatters stay 16-bit */
    bool fp8_dispatch;            /* 8-bit runs send the MoE dispatch all-to-all in the
                                   * GEMM precision (DeepSeek-V3 §3.3.2); false: 16-bit,
                                   * the experts quantise after it (Megatron-Core) */
    bool cudnn_attention;         /* the attention core runs cuDNN's fused kernel where the
                                   * part has a measured one (attn_cudnn_*; Transformer
                                   * Engine >= 1.2 prefers FusedAttention on Hopper) */
    char dp_sharding[16];         /* what the framework shards over data parallel when a
                                   * workload does not say (`zero: auto`): "none" (ZeRO-0,
                                   * DDP), "optimizer" (1), "gradients" (2), "full" (3),
                                   * "fsdp" (3, 2 pipelined: FSDP2's defaults); "" = not
                                   * stated (ZeRO-1) */
    char dp_sharding_fallback[16]; /* what the framework can shard instead where no layout
                                   * fits with dp_sharding (same words; Megatron FSDP,
                                   * DeepSpeed ZeRO-3): the search's fallback for a
                                   * workload that leaves zero auto, on unpipelined
                                   * layouts; "" = none */
    bool fp8_saved_inputs;        /* FP8 runs save their GEMMs' FP8-cast inputs for the
                                   * backward (Transformer Engine modules): norm outputs
                                   * and the MLP activation output kept in 1 byte */
    bool fp8_saved_expert_inputs; /* FP8 runs' routed-expert grouped GEMMs save their
                                   * inputs FP8-cast for the weight gradient (Transformer
                                   * Engine GroupedLinear): the permuted tokens and the
                                   * activation output kept in 1 byte */
    bool full_recompute_only;     /* the framework's activation checkpointing re-runs
                                   * whole layers only: no selective recompute
                                   * (Megatron-DeepSpeed with DeepSpeed's activation
                                   * checkpointing); recompute auto chooses between
                                   * none and full */
    bool fp4_tp_exposed;          /* FP4 runs leave the tensor-parallel collectives
                                   * exposed whatever tp_overlap says (Megatron-Bridge's
                                   * and NVIDIA's MLPerf NVFP4 recipes turn TE's TP
                                   * communication overlap off) */
    bool activation_offload;      /* the framework can keep activations in host memory
                                   * between forward and backward (MaxText's offloaded
                                   * remat policies, Megatron-Core cpu_offloading): where
                                   * no layout fits on the GPU and the workload does not
                                   * say offload_layers, the search offloads some */
    bool eager_loss;              /* the cross-entropy always runs as eager PyTorch ops
                                   * on fp32 logits (a framework without torch.compile:
                                   * eager torchtitan); false = the workload's
                                   * eager_loss */
    bool grad_reduce_fp32;        /* the framework reduces data-parallel gradients in
                                   * fp32 whatever the plan says (torchtitan's
                                   * mixed_precision_reduce: "float32", its only
                                   * choice); false = the workload's grad_reduce_fp32 */
    char recompute_default[16];   /* what the framework's recipes recompute when a
                                   * workload leaves recompute auto: "none",
                                   * "selective" or "full"; "" = searched (the fastest
                                   * that fits) */
    bool selective_reruns_attention; /* selective recompute saves only weight-GEMM
                                   * outputs (MaxText remat_policy minimal): the
                                   * FlashAttention core is re-run in the backward */
    char calibration_from[CAT_ID_LEN]; /* another profile whose fitted multipliers this one
                                   * takes, one running the same code (Megatron-LM and
                                   * NeMo both run Megatron-Core) or sharing its kernels
                                   * (AutoModel's Transformer Engine and DeepEP path,
                                   * nemo's): where this profile
                                   * has no "<id>@<accelerator>" row of its own, the
                                   * loader derives one from that profile's (fitted or
                                   * itself derived: calibration_from may chain, never
                                   * in a cycle), taking its
                                   * fitted fields (gemm_scale, fp8_gemm_factor,
                                   * step_scale, step_overhead_s and the MoE host costs);
                                   * a zero MoE host cost of this row takes the other's
                                   * too (plans/catalog_yaml.c borrow_calibration) */
    double step_scale;            /* × the whole modelled step (0 = 1): what a site does
                                   * that the model does not itemise (power caps, clocks,
                                   * stragglers, jitter); fitted by gpuplan calibrate */
    int calibrated_runs;          /* > 0: fitted by gpuplan calibrate on this many runs */
    double calibrated_residual;   /* their mean |error| after the fit, 0..1 */
    double cv_residual;           /* their mean |error| when each is predicted by a fit
                                   * that did not see it (calibrate --cross-validate:
                                   * the runs split in two halves, each half predicted
                                   * by the fit on the other), 0..1; 0 = not measured */
    char calibrated_on[CAT_TEXT_LEN]; /* what those runs were (calibrate --label), said with
                                   * the calibration; "" = the user's own runs */
    char curves_calibrated_on[CAT_TEXT_LEN]; /* accelerator ids, space-separated, whose
                                   * efficiency.yaml curves were calibrated with this
                                   * profile (megatron: the A100 curves on Narayanan 2021
                                   * and Korthikanti 2022): calibrated there without an
                                   * "@<accelerator>" row (framework_calibrated_on) */
    char calibrated_as[CAT_ID_LEN]; /* a row derived through calibration_from: the
                                   * "<source>@<accelerator>" row it took its fitted
                                   * fields from; "" = its own (set by the loader) */
    char source[CAT_TEXT_LEN];
    char as_of[16];
    char notes[CAT_TEXT_LEN];
} Framework;

/* The bands of a prediction whose framework has no calibration on its
 * accelerator (framework_calibrated_on false): "uncalibrated/<class>",
 * else "uncalibrated", from the runs of the set each predicted without its
 * own framework's calibration on its silicon (gpuplan calibrate --bands,
 * calib_predict_uncalibrated). */
#define BAND_UNCALIBRATED "uncalibrated"

/* Measured model error of one class of training runs (data/catalog/
 * error_bands.yaml): measured / predicted step time − 1 of the runs of the
 * validation set's fit half in that class. */
typedef struct {
    char id[CAT_ID_LEN];          /* "hopper/dense/fp8"; "default" = any class without runs;
                                   * "uncalibrated/hopper/dense/fp8", "uncalibrated" */
    double low, high;             /* relative step-time error range, e.g. -0.06, +0.09 */
    int runs;
    char source[CAT_TEXT_LEN];
    char as_of[16];
    char notes[CAT_TEXT_LEN];
} ErrorBand;

typedef enum { PROVIDER_AWS = 0, PROVIDER_GCP, PROVIDER_AZURE, PROVIDER_OTHER } Provider;
const char *provider_name(Provider p);

typedef struct {
    char id[CAT_ID_LEN];          /* provider's own name: "p5.48xlarge" */
    Provider provider;
    char family[CAT_ID_LEN];      /* "p5", "a3", "ND H100 v5" */
    char accelerator[CAT_ID_LEN]; /* catalog id */
    int accel_count;
    double network_gbps;          /* scale-out per instance, gigabits/s */
    char region[32];
    double on_demand_usd_h;       /* per instance-hour */
    double spot_usd_h;            /* 0 = no spot offer */
    double reserved_1y_discount;  /* fraction off on-demand: an assumption */
    double reserved_3y_discount;
    double spot_interruptions_per_day; /* assumption used to price spot */
    char source[CAT_TEXT_LEN];
    char as_of[16];
    char price_notes[CAT_TEXT_LEN]; /* where the reserved discount came from … */
    char price_source[CAT_TEXT_LEN]; /* where the prices come from, in plain words with a link */
    int scaleup_accels;           /* accelerators one billed unit's scale-up reaches when more
                                   * than accel_count (a per-chip price of a TPU slice: the
                                   * slice's ICI); 0 = accel_count */
} Instance;

typedef struct {
    char id[CAT_ID_LEN];          /* "lustre", "gpfs", "weka", "vast", "nfs" */
    char unit_name[CAT_TEXT_LEN]; /* building block: "DDN AI400X2-Turbo" */
    double unit_read_bw;          /* bytes/s per building block */
    double unit_write_bw;
    double unit_capacity_bytes;
    double unit_power_w;
    double unit_price_usd;
    char source[CAT_TEXT_LEN];
    char as_of[16];
    char notes[CAT_TEXT_LEN];
} StorageSystem;

/* A serving engine as the inference model sees it (data/catalog/engines.yaml):
 * its fixed costs per forward pass and its scheduler's limits.  Every figure
 * is the engine's documented default or a fitted constant; the row says
 * which. */
typedef struct {
    char id[CAT_ID_LEN];          /* "vllm", "sglang", "trtllm", "tgi" */
    char name[CAT_TEXT_LEN];
    double layer_overhead_s;      /* per transformer layer per forward pass (launch/tails) */
    double step_overhead_s;       /* per engine iteration: scheduling, sampling, host sync */
    double eager_layer_s;         /* host time per layer of a forward pass launched eagerly
                                   * (no CUDA/HIP graph): a prefill pass takes at least
                                   * layers x this; 0 = prefill is graph-launched or its
                                   * launches hide under the GPU work */
    double seq_overhead_s;        /* per sequence per iteration (request bookkeeping, sampling) */
    double mem_frac;              /* share of each GPU's HBM the engine takes for weights,
                                   * activations and KV (vLLM gpu_memory_utilization);
                                   * 0 = the accelerator's hbm_usable_frac */
    int max_batch;                /* default cap on sequences in flight (max_num_seqs, …) */
    int prefill_wait_steps;       /* decode steps waiting prompts are held before a prefill
                                   * pass takes them all (TGI max_waiting_tokens); 0 = 1 */
    int chunk_tokens;             /* default tokens per iteration (max_num_batched_tokens) */
    int kv_block_tokens;          /* paged-KV block (page) size, tokens */
    double attn_hbm_eff;          /* decode attention: share of the HBM efficiency its
                                   * kernel reaches reading KV (1 = as fast as GEMV) */
    bool chunked_prefill;         /* prefill chunks ride in the decode iteration */
    int ep_rank_batch;            /* expert-parallel decode: tokens per rank per dispatch the
                                   * all-to-all library takes (DeepEP low-latency); 0 = none */
    double ep_skew;               /* busiest expert-parallel rank's routed load over uniform
                                   * random routing, after the engine's balancer; 0 = 1 */
    bool ep_allgather;            /* attention-DP MoE layers all-gather every rank's tokens
                                   * and reduce-scatter the outputs (no all-to-all) while the
                                   * EP degree <= experts per token (TensorRT-LLM) */
    double band_low, band_high;   /* measured true/predicted time range (fit half of
                                   * tests/data/serve_runs.yaml); 0 = model default */
    double band_moe_low, band_moe_high; /* the same for MoE models when their fit-half
                                   * residual is wider; 0 = band_low/high */
    char source[CAT_TEXT_LEN];
    char as_of[16];
    char notes[CAT_TEXT_LEN];
} Engine;

/* On-prem cost and facility assumptions (one set; the plan may override the
 * ones it has keys for: PUE, power price). */
typedef struct {
    double switch_price_usd;      /* one leaf/spine/core switch */
    double switch_power_w;
    double link_price_usd;        /* one cable incl. two transceivers */
    double facility_usd_per_kw;   /* build-out capex per kW of IT load */
    double maintenance_frac_per_year; /* of hardware capex */
    double staff_usd_per_mw_year;     /* operations staff per MW of IT */
    double depreciation_years;        /* straight-line life of the hardware; 0 = none */
    /* each figure's source in plain words, for the exports */
    char facility_source[CAT_TEXT_LEN];
    char staff_source[CAT_TEXT_LEN];
    char depreciation_source[CAT_TEXT_LEN];
    double gpudirect_read_bw_per_gpu; /* bytes/s; storage read rule of thumb */
    double mtbf_gpu_hours_default;
    int rack_units;               /* rack units a compute rack offers its nodes; 0 = not limited */
    char source[CAT_TEXT_LEN];
    char as_of[16];
    char notes[CAT_TEXT_LEN];     /* which figures are assumptions */
} CostAssumptions;

/* The assumptions a plan's ranges (sensitivity, Monte Carlo) vary, and the
 * unit each range is written in.  The order is part of the plan-file
 * contract only through the names of range_knob_name(). */
typedef enum {
    RANGE_RESERVED_DISCOUNT = 0, /* reserved-3y discount, fraction 0..1 (of the cloud rival) */
    RANGE_NODE_PRICE,            /* multiplier on every node price */
    RANGE_POWER_PRICE,           /* USD per kWh */
    RANGE_PUE,                   /* facility / IT power */
    RANGE_HORIZON,               /* years */
    RANGE_MTBF,                  /* per-GPU MTBF, hours */
    RANGE_TOKENS,                /* multiplier on every training workload's tokens */
    RANGE_ARRIVALS,              /* multiplier on every job class's arrival rate */
    RANGE_UTILIZATION,           /* multiplier on the modelled share of installed GPU-hours
                                  * used (capped at 1): what pay-per-use cloud bills */
    RANGE_RESALE,                /* fraction of the hardware price recovered at the horizon */
    RANGE_MODEL_BAND,            /* where each workload's modelled time lands in its measured
                                  * error band: -1 the low end, 0 the point, +1 the high end */
    RANGE_COUNT
} RangeKnob;

/* "reserved_discount", "node_price", … (the plan and catalog key); NULL
 * out of range.  range_knob_find: the knob of a name, -1 when unknown. */
const char *range_knob_name(RangeKnob k);
int range_knob_find(const char *name);

/* The catalog's stated uncertainty of one assumption (uncertainty.yaml). */
typedef struct {
    bool given;
    double low, high;             /* in the knob's unit (see RangeKnob) */
    char source[CAT_TEXT_LEN];
    char as_of[16];
    char notes[CAT_TEXT_LEN];
} CatalogRange;

typedef struct {
    Accelerator *accelerators;
    size_t n_accelerators;
    Instance *instances;
    size_t n_instances;
    StorageSystem *storage;
    size_t n_storage;
    Engine *engines;
    size_t n_engines;
    Framework *frameworks;
    size_t n_frameworks;
    ErrorBand *bands;
    size_t n_bands;
    CostAssumptions costs;
    CatalogRange ranges[RANGE_COUNT];
} Catalog;

/* Case-insensitive lookups; NULL when absent.  An accelerator is found by
 * its id or, failing every id, one of its aliases. */
const Accelerator *catalog_find_accelerator(const Catalog *c, const char *id);
/* The accelerator one of whose aliases is `name` (ids not looked at). */
const Accelerator *catalog_find_accelerator_alias(const Catalog *c, const char *name);
const Instance *catalog_find_instance(const Catalog *c, const char *id);
const StorageSystem *catalog_find_storage(const Catalog *c, const char *id);
const Engine *catalog_find_engine(const Catalog *c, const char *id);
const Framework *catalog_find_framework(const Catalog *c, const char *id);
/* What an empty `framework:` / `engine:` means. */
#define CATALOG_DEFAULT_FRAMEWORK "megatron"
#define CATALOG_DEFAULT_ENGINE "trtllm"

/* Whether profile f, as catalog_framework_for returned it for accelerator
 * a, is calibrated there: a "<framework>@<accelerator>" row (fitted, on the
 * same silicon or derived through calibration_from), or a base profile
 * whose curves_calibrated_on names a.  Else its multipliers are the
 * profile's as given, and its error band the uncalibrated one. */
bool framework_calibrated_on(const Framework *f, const Accelerator *a);
/* The ZeRO stage (0-3) a dp_sharding word names, and in *pipelined (may be
 * NULL) the stage on a pipelined layout: "fsdp" is 3, and 2 there (FSDP2's
 * default keeps the units gathered from forward to backward under
 * pipelining); -1 for "" or an unknown word.  framework_zero: the stages a
 * workload of framework `fw` ("" = megatron) runs when its `zero` is auto —
 * its base profile's dp_sharding, else 1 (the distributed optimizer). */
int dp_sharding_zero(const char *word, int *pipelined);
int framework_zero(const Catalog *c, const char *fw, int *pipelined);
/* The ZeRO stage framework `fw` ("" = megatron) can fall back to where none
 * of its default's layouts fits (Framework dp_sharding_fallback), -1 when it
 * has none or it shards no more than its default. */
int framework_zero_fallback(const Catalog *c, const char *fw);
/* The recompute a framework word names (Framework recompute_default): 0
 * none, 1 selective, 2 full (RECOMPUTE_*); -1 for "" (searched); -2 for
 * anything else. */
int recompute_word(const char *word);
/* The recompute a workload with recompute auto runs under framework fw
 * (its base profile's recompute_default; "" = megatron): as recompute_word,
 * -1 = searched. */
int framework_recompute(const Catalog *c, const char *fw);
/* The next id of a space-separated list from p (spaces skipped), its length
 * in *len; NULL at the list's end. */
const char *catalog_list_next(const char *p, size_t *len);
/* Whether a and b are rows of one die (both name the same non-empty
 * `silicon`: the same chip at another clock, power or package). */
bool accelerator_same_silicon(const Accelerator *a, const Accelerator *b);
/* The profile of framework `fw` ("" = megatron) on accelerator `acc`: a
 * calibrated "fw@acc" row when the catalog has one, else "fw"; NULL when
 * neither exists. */
const Framework *catalog_framework_for(const Catalog *c, const char *fw, const char *acc);
/* The "<id>@<accelerator>" rows calibration_from asks for and the
 * catalog lacks: for a profile naming a source and each "<source>@<acc>"
 * row (fitted or itself derived) without an "<id>@<acc>" one, the
 * profile's row with that row's fitted fields (calibrated_as: the fitted
 * row they come from) is appended in the room grow(c, ctx) returns (NULL:
 * none, -1 returned), until no chain adds one.  The loader does this once
 * every file is read; `gpuplan calibrate`, whose fits replace the rows the
 * derived ones come from, drops those first
 * (catalog_drop_derived_calibrations) and derives them again. */
int catalog_derive_calibrations(Catalog *c, Framework *(*grow)(Catalog *c, void *ctx), void *ctx);
void catalog_drop_derived_calibrations(Catalog *c);
const ErrorBand *catalog_find_band(const Catalog *c, const char *id);
const MigProfile *accelerator_find_mig(const Accelerator *a, const char *profile);
/* The profile of `to` closest to `from` (a profile of another part): the
 * smallest one with at least from's compute slices and memory, else the
 * largest there is.  NULL when `to` has no MIG profiles.  Media-extension
 * ("+me") profiles are only matched by another "+me" profile. */
const MigProfile *accelerator_nearest_mig(const Accelerator *to, const MigProfile *from);

#endif
