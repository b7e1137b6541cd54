/* model/plan.h — a plan (what the user describes) and its result (what the
 * model computes).
 *
 * A Plan is flat: fixed arrays, no owned pointers (except the borrowed trace,
 * see TenancySpec), so it can be copied with `=` — the TUI's undo stack and
 * the recompute worker rely on that.  Numeric fields hold SI base units
 * (seconds, bytes, bits/s for links, USD); 0 (or the *_AUTO value) means
 * "auto / not given" wherever the plan format allows "auto".
 *
 * The PlanResult is likewise flat and owned by the caller.
 */
#ifndef GPUPLAN_MODEL_PLAN_H
#define GPUPLAN_MODEL_PLAN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog.h"

#define PLAN_NAME_LEN 65
#define PLAN_TEXT_LEN 256
#define PLAN_MAX_WORKLOADS 32
#define PLAN_MAX_TEAMS 32
#define PLAN_MAX_JOBS 16      /* job classes per team */
#define PLAN_FORMAT_VERSION 1
#define PLAN_HYBRID_LEN 256     /* hybrid pattern symbols + NUL */
#define PLAN_RM_LEN 128         /* recompute_modules, comma-separated + NUL */

/* ---------------------------------------------------------------- inputs */

typedef enum { WL_TRAINING = 0, WL_INFERENCE } WorkloadKind;
typedef enum { RECOMPUTE_AUTO = -1, RECOMPUTE_NONE = 0, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL } Recompute;

/* Megatron-Core's recompute_modules (with recompute: selective; core
 * transformer_config.py): the parts of a layer whose outputs the backward
 * recomputes instead of keeping.  RM_ACT_ALL and RM_NORM_ALL are not
 * Megatron modules: the activation function of every MLP (dense, routed,
 * shared) and every block's norm, fused into the next GEMM or not — what
 * recompute: selective means when no list is given.  Megatron's layernorm
 * re-runs only the norms that are modules of their own (not those Transformer
 * Engine fuses into LayerNormLinear / LayerNormMLP). */
enum {
    RM_CORE_ATTN = 1u << 0,      /* core_attn */
    RM_LAYERNORM = 1u << 1,      /* layernorm: input_layernorm and pre_mlp_layernorm */
    RM_MOE_ACT = 1u << 2,        /* moe_act: the routed experts' activation */
    RM_MLP = 1u << 3,            /* mlp: the dense MLP */
    RM_MOE = 1u << 4,            /* moe: the whole MoE layer */
    RM_SHARED_EXPERTS = 1u << 5, /* shared_experts */
    RM_MLA_UP_PROJ = 1u << 6,    /* mla_up_proj: MLA's Q/K/V up projections and RoPE */
    RM_ACT_ALL = 1u << 7,
    RM_NORM_ALL = 1u << 8,
    RM_EVERY_OTHER_MM = 1u << 9, /* every_other_mm: torchtitan's per-op selective
                                  * checkpointing (selective_ac_option "op"), not a
                                  * Megatron module: a block keeps every other matmul's
                                  * output and the attention's, re-runs the rest */
};
typedef enum { SITE_ONPREM = 0, SITE_CLOUD } SiteKind;
typedef enum { PRICING_ON_DEMAND = 0, PRICING_RESERVED_1Y, PRICING_RESERVED_3Y, PRICING_SPOT } Pricing;
typedef enum { COOLING_AIR = 0, COOLING_LIQUID } Cooling;
typedef enum { FABRIC_INFINIBAND = 0, FABRIC_ROCE } Fabric;
typedef enum { TOPO_RAIL_OPTIMIZED = 0, TOPO_FAT_TREE } Topology;
typedef enum { STORAGE_LUSTRE = 0, STORAGE_GPFS, STORAGE_WEKA, STORAGE_VAST, STORAGE_NFS } StorageKind;
typedef enum { POLICY_FIFO = 0, POLICY_FAIR_SHARE, POLICY_PRIORITY } SchedPolicy;
typedef enum { DUR_LOGNORMAL = 0, DUR_EXPONENTIAL, DUR_FIXED } DurationDist;
typedef enum { PRIO_LOW = 0, PRIO_NORMAL, PRIO_HIGH } JobPriority;

/* A transformer's shape.  Zero in an optional field means its default
 * (kv_heads = heads, expert_ffn_hidden = ffn_hidden, head_dim = hidden/heads). */
typedef struct {
    char preset[32];          /* preset it came from, "" when given as a shape */
    int layers;
    int hidden;
    int ffn_hidden;
    int heads;
    int kv_heads;
    int head_dim;             /* 0 = hidden / heads */
    int vocab;
    bool glu;                 /* 3-matrix (SwiGLU) MLP */
    bool tied_embeddings;     /* input embedding shared with the output head */
    int experts;              /* routed experts; 1 = dense */
    int experts_per_token;
    int shared_experts;
    int expert_ffn_hidden;    /* 0 = ffn_hidden */
    int dense_layers;         /* leading dense (non-MoE) layers, DeepSeek-style */
    /* LatentMoE (Nemotron 3 Super / Ultra; Megatron-Core moe_latent_size):
     * the MoE layer projects its input h -> moe_latent before the dispatch
     * and back after the combine, and the routed experts work, and their
     * tokens travel, at this width; router and shared experts stay at h.
     * 0 = none. */
    int moe_latent;
    /* Multi-head latent attention (DeepSeek-V2/V3); kv_lora_rank 0 = no MLA. */
    int q_lora_rank;
    int kv_lora_rank;
    int qk_rope_head_dim;
    int qk_nope_head_dim;
    int v_head_dim;
    /* Sliding-window (local) attention: each query attends to at most
     * `window` keys on `window_layers` of the layers (0 = all of them);
     * window 0 = full causal attention everywhere (gpt-oss: 128 on every
     * other layer; Mistral 7B: 4096 everywhere). */
    int window;
    int window_layers;
    /* Multi-token prediction modules trained beside the model (DeepSeek-V3
     * report §2.2: each a transformer block, a projection of 2h to h and
     * the shared output head, predicting one more token; Megatron-Core
     * mtp_num_layers), placed on the last pipeline stage; 0 = none. */
    int mtp_layers;
    /* What a model's config adds to its layers' element-wise work (gpt-oss
     * config.json: swiglu_limit 7.0, attention_bias true, rope_scaling yarn
     * factor 32); how much it costs is the framework's (catalog
     * frameworks.yaml unfused_*). */
    double glu_clamp;         /* GLU inputs clamped to ±this (0 = no clamp) */
    bool linear_bias;         /* linear layers (attention, experts) carry biases */
    double yarn_factor;       /* YaRN RoPE context-extension factor (0 or 1 = plain RoPE) */
    /* Hybrid stacks (Megatron-Core hybrid_override_pattern; Nemotron-H,
     * Nemotron 3): one symbol per layer, each layer ONE block with its own
     * norm and residual: M = Mamba-2 mixer, * = self-attention, - = MLP,
     * E = MoE.  "" = a plain transformer (every layer attention + MLP or
     * MoE).  With a pattern, `layers` is its length. */
    char hybrid[PLAN_HYBRID_LEN];
    /* Mamba-2 mixer (Dao & Gu 2024, arXiv:2405.21060; Megatron-Core
     * ssm/mamba_mixer.py); 0 = Megatron-Core's default: heads = 2·hidden /
     * head_dim, head_dim 64, state 128, groups 8, conv 4, chunk 128. */
    int mamba_heads;
    int mamba_head_dim;
    int mamba_state;          /* d_state: state size per head channel */
    int mamba_groups;         /* B/C groups (ngroups) */
    int mamba_conv;           /* causal conv1d kernel width */
    int mamba_chunk;          /* SSD chunk length */
    double params;            /* given total; 0 = derive from the shape */
} ModelShape;

typedef struct {
    int tp, pp, vpp, cp, ep;  /* 0 = search */
    int sp;                   /* -1 = search, 0 = off, 1 = on */
    /* Expert tensor parallelism (Megatron-Core expert_tensor_parallel_size,
     * "MoE parallel folding"): > 0 = the expert layers are laid out as
     * etp × ep × expert-DP over the same t·c·d GPUs the dense layers use, so
     * ep is drawn from TP×CP×DP (TP2 PP8 EP32 on 256 GPUs); 0 = ep is a
     * dimension of its own next to tp (GPUs = t·p·c·e·d, expert TP = t). */
    int etp;
} ParallelSpec;

/* Speculative decoding (draft model, EAGLE or MTP heads): `draft` tokens
 * proposed per decode step, each accepted with probability `acceptance`
 * (independently, the usual analysis: Leviathan et al. 2023, §3.1). */
typedef struct {
    int draft;                       /* tokens proposed per step; 0 = off */
    double acceptance;               /* 0..1 */
} SpeculativeSpec;

/* Prefill/decode disaggregation (DistServe, Dynamo, SGLang PD, DeepSeek's
 * serving system): a prefill pool and a decode pool, the KV cache moved
 * between them over the scale-out fabric. */
typedef struct {
    int mode;                        /* 0 = aggregated, 1 = disaggregated, -1 = auto (the
                                      * cheaper of the two) */
    int prefill_gpus, decode_gpus;   /* 0 = sized */
    int prefill_tp, decode_tp;       /* GPUs per replica of each pool; 0 = searched */
} DisaggSpec;

typedef struct {
    char name[PLAN_NAME_LEN];
    WorkloadKind kind;
    char team[PLAN_NAME_LEN];        /* optional owner */
    char accelerator[CAT_ID_LEN];    /* "" = the plan's */
    ModelShape model;
    Precision precision;

    /* training */
    int seq_len;
    double tokens;                   /* total training tokens */
    int global_batch;                /* sequences per step */
    int micro_batch;                 /* 0 = search */
    double optimizer_bytes_per_param;
    int zero;                        /* 0..3; -1 = auto: the framework's dp_sharding
                                      * (framework_zero) */
    ParallelSpec parallel;
    Recompute recompute;
    char recompute_modules[PLAN_RM_LEN]; /* with recompute selective: Megatron-Core module
                                      * names, comma-separated ("" = the selective default;
                                      * recompute_modules_mask) */
    int recompute_layers;            /* with recompute full: layers per pipeline stage that
                                      * recompute (Megatron --recompute-method block
                                      * --recompute-num-layers; torchtitan layer-wise
                                      * selective AC), the others keep all activations;
                                      * 0 = every layer */
    int offload_layers;              /* per pipeline stage, layers whose activations wait
                                      * in host memory between forward and backward
                                      * (Megatron cpu_offloading_num_layers); 0 = none */
    bool flash_attention;
    int gpus;                        /* fixed size; 0 = size for target_days */
    double target_days;
    double mfu;                      /* 0 = auto (modelled), else a fixed 0..1 */
    double checkpoint_interval_s;    /* 0 = auto (Young/Daly) */
    bool dp_sync_after_backward;     /* DP gradient all-reduce not overlapped with the
                                      * backward pass (Megatron-LM ≤ 2022); false = overlapped */
    bool pipeline_split_embedding_loss; /* the pipeline split counts the embedding and the
                                      * loss as one layer slot each (Megatron-Core
                                      * account_for_embedding_in_pipeline_split +
                                      * account_for_loss_in_pipeline_split): pp·vpp may
                                      * reach layers + 2, first and last stage one layer
                                      * fewer */
    bool no_dropout;                 /* dropout probability 0 everywhere (MPT's resid_pdrop,
                                      * attn_pdrop, emb_pdrop 0; Llama has none): no dropout
                                      * masks are kept for the backward; false = the
                                      * Korthikanti et al. 2022 Table 2 masks */
    bool flash_attention_v1;         /* the attention core runs FlashAttention 1 (flash-attn
                                      * 1.x), about half the speed of FlashAttention-2
                                      * (Dao 2023, arXiv:2307.08691) */
    bool eager_loss;                 /* the cross-entropy runs as eager PyTorch ops on the
                                      * logits cast to fp32 (torchtitan without
                                      * torch.compile, or before 2025-04 when it left the
                                      * loss uncompiled): its peak and passes
                                      * (model/train.c EAGER_CE_*) */
    bool eager_norm;                 /* the norms run as eager PyTorch ops in fp32 (cast,
                                      * square, mean, rsqrt, scale, cast back, weight:
                                      * torchtitan norm_type rmsnorm without
                                      * torch.compile), not one fused kernel */
    bool flash_attention_2;          /* the attention core runs FlashAttention-2 where the
                                      * framework profile runs cuDNN's kernel
                                      * (cudnn_attention): Transformer Engine before 1.2
                                      * kept FlashAttention on Hopper; NVTE_FUSED_ATTN=0
                                      * switches cuDNN's off */
    bool fsdp_backward_post;         /* FSDP1 BackwardPrefetch.BACKWARD_POST (Composer's
                                      * default): each unit's backward all-gather is
                                      * issued after the previous unit's gradient
                                      * computation, not under it; false = prefetched
                                      * under the backward (BACKWARD_PRE, FSDP2) */
    bool grad_reduce_fp32;           /* the DP gradient reduce-scatter / all-reduce runs in
                                      * fp32 (FSDP MixedPrecision reduce_dtype float32,
                                      * Composer's DEFAULT since 0.16); false = the
                                      * gradients' own bytes */
    bool tp_comm_exposed;            /* the recipe turns TP communication overlap off
                                      * (Megatron-Bridge CommOverlapConfig(tp_comm_overlap=
                                      * False)): TP collectives exposed; false = the
                                      * framework profile's tp_overlap */
    bool cp_comm_exposed;            /* context parallelism gathers K/V before the attention
                                      * and waits for it (Llama 3's all-gather CP: "the
                                      * all-gather communication latency is exposed in the
                                      * critical path"): nothing of the CP traffic hidden;
                                      * false = the ring's / framework's overlap */
    double ep_overlap;               /* share 0..1 of the MoE all-to-alls hidden under compute
                                      * (DeepSeek-V3 DualPipe ≈ 1); 0 = exposed */
    bool delay_wgrad_compute;        /* with EP overlap, the experts' weight-gradient GEMMs
                                      * are deferred out of the MLP backward (Megatron
                                      * --delay-wgrad-compute; Megatron-Bridge's perf
                                      * recipes set it with moe_a2a_overlap) */
    bool cuda_graph_attn;            /* the recipe captures each layer's attention in a
                                      * CUDA graph (Megatron-Core cuda_graph_impl
                                      * transformer_engine, cuda_graph_scope "attn") */
    bool cuda_graph_full;            /* the recipe captures the whole forward-backward of
                                      * the step in CUDA graphs (Megatron-Core
                                      * cuda_graph_impl full_iteration): no per-layer host
                                      * cost, no dropless token-count sync */
    int moe_fused_dispatch;          /* 1: the MoE dispatch/combine kernels permute tokens
                                      * while they communicate (DeepEP, HybridEP); 0: the
                                      * all-to-all with separate permutes; -1 (auto) = the
                                      * framework profile's choice */
    bool moe_round_robin;            /* benchmark routing: token t's j-th expert is
                                      * (t·k + j) mod E (NeMo AutoModel's
                                      * fake_balanced_gate): every expert the same load,
                                      * a token's experts contiguous, no router logits
                                      * (the gate's small GEMM is still priced) */
    double moe_capacity_factor;      /* > 0: token-dropping MoE, every expert padded to
                                      * this × its even share of the routed tokens
                                      * (Megatron-Core --moe-expert-capacity-factor with
                                      * --moe-pad-expert-input-to-capacity); 0 = dropless */
    char framework[CAT_ID_LEN];      /* training framework profile (catalog frameworks:);
                                      * "" = megatron */
    /* A measured run (calibration input, validation rows): the step time or
     * the per-GPU token rate that was observed for exactly this workload;
     * 0 = none.  `gpuplan calibrate` fits the catalog to them. */
    double measured_step_s;
    double measured_tokens_per_gpu_s;
    char measured_source[PLAN_TEXT_LEN];
    /* the observed peak memory per GPU of that run, bytes (the framework's
     * reading, e.g. PyTorch's max reserved); 0 = none.  Validation only: no
     * parameter is fitted to it. */
    double measured_memory_bytes;

    /* inference */
    Precision kv_precision;
    int prompt_tokens;
    int output_tokens;
    double requests_per_s;
    double ttft_s;
    double tpot_s;
    int tp;                          /* 0 = search */
    int replicas;                    /* 0 = enough for the rate */
    char engine[CAT_ID_LEN];         /* serving engine (catalog id); "" = trtllm */
    int max_batch;                   /* sequences in flight per replica; 0 = engine default */
    int chunk_tokens;                /* tokens per engine iteration; 0 = engine default */
    double prefix_cache_hit;         /* share 0..1 of prompt tokens served from a prefix cache */
    bool fp8_block_scales;           /* FP8 weights in 128x128 blocks, activations scaled per
                                      * 1x128 group inside the GEMM (DeepSeek-V3's recipe, the
                                      * deepseek-ai checkpoints): a MoE layer that all-gathers
                                      * its inputs moves them unquantised (BF16) */
    SpeculativeSpec speculative;     /* draft 0 = off */
    DisaggSpec disaggregated;        /* separate prefill and decode pools */
} Workload;

typedef struct {
    char name[PLAN_NAME_LEN];
    double per_day;                  /* Poisson arrival rate */
    double gpus;                     /* whole GPUs, or a fraction < 1 (time-shared) */
    int min_gpus, max_gpus;          /* elastic when max_gpus > 0 */
    char mig[24];                    /* MIG profile instead of whole GPUs, "" = none */
    double hours;                    /* mean duration */
    DurationDist duration;
    double cv;                       /* coefficient of variation (lognormal) */
    JobPriority priority;
} JobClass;

typedef struct {
    char name[PLAN_NAME_LEN];
    double weight;
    int quota_gpus;
    int borrow_gpus;                 /* -1 = unlimited */
    JobClass jobs[PLAN_MAX_JOBS];
    int n_jobs;
} Team;

/* One replayed job (from plans/trace.c). */
typedef struct {
    double submit_s;
    double duration_s;
    double gpus;                     /* may be fractional (openb gpu_milli) */
    int team;                        /* index into TenancySpec.teams, or -1 */
    JobPriority priority;
} TraceJob;

typedef struct {
    int gpus;                        /* 0 = auto (capacity search) */
    SchedPolicy policy;
    bool preemption;
    bool backfill;
    double restore_s;
    double horizon_s;
    double wait_p95_s;
    double mtbf_gpu_h;
    uint64_t seed;
    Team teams[PLAN_MAX_TEAMS];
    int n_teams;
    char trace[PLAN_TEXT_LEN];       /* path as written in the plan, "" = none */
    /* Borrowed, not owned: the caller that loaded the trace keeps it alive
     * for as long as any copy of the plan is evaluated. */
    const TraceJob *trace_jobs;
    size_t n_trace_jobs;
    /* Set with them (trace_attach): what the replay leaves out or moves
     * (rows not replayed, the first of each kind; jobs of accounts with no
     * team), which the schedule warns of; "" = nothing. */
    char trace_note[480];
} TenancySpec;

/* A price the plan states itself (`site.prices:`): a vendor quote, a
 * negotiated discount, an accounting rule.  Given when `source` is not empty
 * (every quote must say where it came from); `date` is YYYY-MM-DD. */
#define PLAN_QUOTE_SOURCE_LEN 128
typedef struct {
    double value;
    char source[PLAN_QUOTE_SOURCE_LEN];
    char date[16];
} Quote;

typedef struct {
    char accelerator[CAT_ID_LEN];    /* catalog id */
    double usd;                      /* one node (8 GPUs, a GB200 tray, …) */
    char source[PLAN_QUOTE_SOURCE_LEN];
    char date[16];
} NodeQuote;

typedef struct {
    char provider[16];               /* aws | gcp | azure (any instance of it) */
    Pricing term;                    /* on-demand | reserved-1y | reserved-3y | spot */
    double discount;                 /* fraction off the catalog's on-demand price */
    char source[PLAN_QUOTE_SOURCE_LEN];
    char date[16];
} DiscountQuote;

#define PLAN_MAX_QUOTES 12

typedef struct {
    NodeQuote nodes[PLAN_MAX_QUOTES];
    int n_nodes;
    DiscountQuote discounts[PLAN_MAX_QUOTES];
    int n_discounts;
    Quote storage_usd_per_pb;        /* installed shared storage, USD per PB usable */
    Quote storage_w_per_pb;          /* its power, W per PB */
    Quote facility_usd_per_kw;       /* build-out capex per kW of IT load */
    Quote staff_usd_per_mw_year;
    Quote depreciation_years;        /* straight-line life of the hardware */
    Quote resale;                    /* fraction of the hardware price recovered at the horizon */
    Quote lease_rate;                /* fraction of the hardware price paid per year to lease it */
} PriceSpec;

typedef struct {
    SiteKind kind;
    char instance[CAT_ID_LEN];
    Pricing pricing;
    double rack_power_kw;
    Cooling cooling;
    double pue;
    double power_price_kwh;          /* USD per kWh */
    double headroom;                 /* fraction */
    PriceSpec prices;                /* the plan's own quotes; empty = catalog figures */
} SiteSpec;

typedef struct {
    Fabric fabric;
    double link_bps;                 /* per GPU, bits/s */
    Topology topology;
    double oversubscription;         /* 1 = non-blocking */
    int switch_ports;
} NetworkSpec;

typedef struct {
    StorageKind system;
    double dataset_bytes;
    int checkpoints_kept;
    double checkpoint_stall_s;
} StorageSpec;

/* One assumption's range in the plan (`ranges:`), in the unit of its
 * RangeKnob; 0..0 (not given): the catalog's stated uncertainty. */
typedef struct {
    double low, high;
} RangeSpec;

typedef struct {
    RangeSpec knobs[RANGE_COUNT];
    int samples;                     /* Monte Carlo samples; 0 = default (1000) */
    uint64_t seed;                   /* Monte Carlo seed */
} RangesSpec;

/* What a sensitivity or Monte Carlo point perturbs that no plan key states
 * (model/sensitivity.c sets it on its working copy; never read from or
 * written to a plan file; all 0 in a loaded plan = the model as it is). */
typedef struct {
    double utilization;              /* > 0: x the modelled share of installed GPU-hours
                                      * used (cost.c; capped at 1) */
    double band;                     /* -1..+1 (0 = the point estimate): each workload's
                                      * modelled time moved to this position in its measured
                                      * error band, -1 its low end, +1 its high end (train.c
                                      * error_bands, infer.c engine bands) */
} PlanPerturb;

typedef struct {
    int format;
    char name[PLAN_NAME_LEN];
    char description[PLAN_TEXT_LEN];
    char accelerator[CAT_ID_LEN];
    double horizon_years;
    Workload workloads[PLAN_MAX_WORKLOADS];
    int n_workloads;
    SiteSpec site;
    NetworkSpec network;
    StorageSpec storage;
    TenancySpec tenancy;
    RangesSpec ranges;
    PlanPerturb perturb;
} Plan;

/* Fill *p with every default of PLAN-FORMAT.md (no workloads, no teams). */
void plan_init(Plan *p);
/* Defaults for one workload / team / job class of the given kind. */
void workload_init(Workload *w, WorkloadKind kind);
/* Layer slots a pipeline of pp stages splits: the model's layers, plus the
 * embedding and the loss when the workload counts them
 * (pipeline_split_embedding_loss; only with pp > 1). */
int workload_pipeline_slots(const Workload *w, int layers, int pp);
void team_init(Team *t);
void jobclass_init(JobClass *j);

/* A model's layers by kind of block.  A plain transformer's every layer
 * holds attention and an MLP (dense) or MoE; a hybrid pattern's layers
 * hold one block each. */
typedef struct {
    int layers;       /* layers (pattern symbols) */
    int attn;         /* layers with self-attention */
    int mamba;        /* layers with a Mamba-2 mixer */
    int mlp;          /* layers with a dense MLP */
    int moe;          /* layers with a MoE */
    int bad;          /* 0, or the first symbol that is none of M * - E */
    int bad_at;       /* its 0-based position */
} LayerCounts;
/* Counts of m's layers by kind; a pattern's symbols that are not M, *, -
 * or E are skipped and the first one reported in bad / bad_at. */
void model_layer_counts(const ModelShape *m, LayerCounts *lc);
/* Mamba-2 dimensions with Megatron-Core's defaults filled in (MambaMixer:
 * head_dim 64, d_state 128, ngroups 8, d_conv 4, chunk_size 128, heads =
 * expand 2 × hidden / head_dim). */
typedef struct {
    int heads, head_dim, state, groups, conv, chunk;
    double d_inner;   /* heads × head_dim */
    double in_proj;   /* in_proj output width: z, x, B, C, dt = 2·d_inner + 2·groups·state + heads */
    double conv_dim;  /* conv1d channels: x, B, C = d_inner + 2·groups·state */
    double ssd_flops; /* SSD (chunked scan) forward FLOPs per token, all heads */
    double ssd_bytes; /* its kernels' forward memory traffic per token, all heads */
} MambaDims;
void model_mamba_dims(const ModelShape *m, MambaDims *d);
/* A routed expert's widths: its FFN (expert_ffn_hidden, else ffn_hidden)
 * and its input (moe_latent, else hidden: LatentMoE's experts work at the
 * latent width).  Either pointer may be NULL. */
void model_expert_dims(const ModelShape *m, double *ffn, double *in);
/* Attention layers that use the sliding window, of the model's
 * `attn_layers`: window_layers (0 = all of them); 0 without a window. */
double model_window_layers(const ModelShape *m, double attn_layers);
/* The model's architecture as the error bands class it: "hybrid" (a
 * hybrid pattern), "moe" (experts > 1) or "dense". */
const char *model_arch_class(const ModelShape *m);

/* The next name of a comma-separated recompute_modules list at *p, trimmed
 * of spaces (its start and length; it may be empty); *p moves past it, to
 * NULL after the last.  false once *p is NULL. */
bool recompute_modules_next(const char **p, const char **name, size_t *len);
/* The RM_* mask of a comma-separated recompute_modules list ("" = none).
 * On an unknown or empty name returns false and, when bad is given, copies
 * that name there. */
bool recompute_modules_mask(const char *text, unsigned *mask, char *bad, size_t bad_len);

/* The accelerator a workload runs on: its own, else the plan's. */
const char *workload_accelerator(const Plan *p, const Workload *w);
/* After the plan's accelerator changed from `from` to `to`: every job class
 * whose MIG profile `to` lacks gets the nearest profile of `to`
 * (accelerator_nearest_mig), or, when `to` has no MIG at all, the same
 * share of one GPU as a fraction (max of compute slices / 7 and memory /
 * HBM; whole GPU when that reaches 1).  note (may be NULL) lists what
 * changed ("research/notebook 3g.40gb → 3g.71gb").  Returns the number of
 * job classes changed. */
int plan_remap_mig(Plan *p, const Accelerator *from, const Accelerator *to, char *note,
                   size_t len);

/* ---------------------------------------------------------------- results */

/* An assumption a number rests on, shown beside it in the TUI and exports.
 * Longer than other texts: it may quote a catalog source (up to 255 bytes)
 * after what it explains. */
#define PLAN_ASSUME_LEN 512
typedef struct {
    char scope[PLAN_NAME_LEN];       /* "pretrain-405b", "cluster", "cost", … */
    char text[PLAN_ASSUME_LEN];      /* "GEMM efficiency 0.71 at h/t=2048 (Calculon-style curve, catalog)" */
} Assumption;

typedef struct {
    int tp, pp, dp, cp, ep, vpp;
    int micro_batch;
    Recompute recompute;
    bool sp;
    int etp;                         /* > 0: MoE parallel folding, experts laid out as
                                      * etp × ep × expert-DP over tp·cp·dp GPUs (GPUs =
                                      * tp·pp·cp·dp); 0: GPUs = tp·pp·cp·ep·dp */
} Layout;

typedef struct {
    double weights, gradients, optimizer, activations, other, total; /* bytes per GPU */
} TrainMemory;

typedef struct {
    double compute, tp_comm, pp_bubble, dp_comm, cp_comm, ep_comm, other; /* seconds */
} StepBreakdown;

#define TRAIN_CURVE_MAX 10
#define INFER_CURVE_MAX 8

typedef struct {
    int gpus;
    Layout layout;
    int zero;                        /* the ZeRO stage sized: the workload's, or (zero auto)
                                      * its framework's dp_sharding, or its
                                      * dp_sharding_fallback where nothing fit with that */
    bool zero_fallback;              /* zero is the framework's dp_sharding_fallback */
    int offload_layers;              /* layers per pipeline stage whose activations wait in
                                      * host memory: the workload's offload_layers, or what
                                      * the search offloaded where nothing fit without or
                                      * it beat the recompute it chose
                                      * (offload_auto); 0 = none */
    bool offload_auto;               /* offload_layers chosen by the search */
    double params, active_params;
    double flops_per_step;           /* model FLOPs (no recompute) */
    double flops_total;              /* model FLOPs for all tokens */
    TrainMemory mem;
    double hbm_bytes;                /* usable HBM of the accelerator */
    bool fits;
    double step_s;
    StepBreakdown step;
    double mfu;
    double tokens_per_s;
    double train_days;               /* wall clock, after goodput */
    bool meets_target;               /* false: target_days cannot be met; gpus is then the
                                      * fastest size found (a warning says so) */
    char binding[PLAN_TEXT_LEN];     /* what limits a run sized for target_days ("global
                                      * batch 2048 caps data parallelism: …"), "" = nothing */
    char fix[PLAN_TEXT_LEN];         /* the edit that lifts it ("raise global_batch to 3072
                                      * to use 12,288 GPUs (84.1 d)"), "" = none found */
    /* GPUs vs days for the chosen model-parallel shape at each count the
     * global batch divides near the chosen one: the divisibility steps
     * (8,192 → 16,384 with nothing between for batch 2048) */
    int curve_gpus[TRAIN_CURVE_MAX];
    double curve_days[TRAIN_CURVE_MAX];
    int n_curve;
    double gpu_hours;
    /* Error band (model error, not input uncertainty): the range the
     * published runs of this workload's class (dense/MoE × bf16/fp8 ×
     * accelerator family; catalog error_bands:) fell in around the model's
     * prediction, applied to this prediction.  step_s_low ≤ step_s ≤
     * step_s_high; days, GPU-hours and the GPUs a target needs move with
     * the step time.  band_class names the class ("hopper/dense/fp8"),
     * band_runs how many runs it rests on (0 = no runs: the catalog's
     * default band). */
    double step_s_low, step_s_high;
    double train_days_low, train_days_high;
    double gpu_hours_low, gpu_hours_high;
    int gpus_low, gpus_high;         /* target_days sizing: GPUs if the step lands at the
                                      * band's low / high end; = gpus for a fixed size */
    char band_class[CAT_ID_LEN];
    int band_runs;
    char framework[CAT_ID_LEN];      /* profile the step time was modelled with */
    double checkpoint_bytes;
    double checkpoint_write_s;
    double checkpoint_interval_s;
    double job_mtbf_s;
    double goodput;                  /* 0..1 */
    double dataset_read_Bps;         /* bytes/s the storage must deliver */
    double checkpoint_write_Bps;
    /* layout search */
    bool has_runner_up;
    Layout runner_up;
    double runner_up_step_s;
    int layouts_tried;
    int rejected_no_fit;
    int rejected_indivisible;
    int rejected_microbatches;
} TrainResult;

typedef struct {
    double weights, kv_cache, other, total; /* bytes per GPU */
} InferMemory;

typedef struct {
    int tp;
    int replicas;
    int gpus;
    int batch_per_replica;
    double kv_bytes_per_token;
    double state_bytes_per_sequence; /* Mamba-2 layers' SSM + conv state, whole model */
    InferMemory mem;
    double prefill_s;
    double queue_s;
    double ttft_s;
    double tpot_s;
    double best_tpot_s;              /* fastest achievable, when the target is missed */
    char binding[PLAN_TEXT_LEN];     /* why the targets are missed ("TPOT target 5 ms is
                                      * below the 7.3 ms one request takes on tp8"), "" = met */
    char fix[PLAN_TEXT_LEN];         /* the edit that meets them ("raise tpot_ms to 9.2 …"),
                                      * "" = none found */
    double output_tokens_per_s;      /* whole service */
    double output_tokens_per_s_per_gpu;
    double output_tokens_per_s_per_replica;
    double gpu_hours_per_mtok;       /* GPU-hours per million output tokens */
    bool meets_slo;
    int ep;                          /* MoE: > 0 = attention data-parallel with the experts
                                      * expert-parallel over ep (= tp) GPUs; 0 = tensor parallel */
    char engine[CAT_ID_LEN];         /* the engine the numbers are for */
    int max_batch;                   /* the cap on sequences in flight that applied */
    int redundant_experts;           /* expert slots beyond the model's experts (wide EP) */
    /* Error bands: the model's measured residuals on the fit half of
     * tests/data/serve_runs.yaml (model/infer.c INFER_BAND_*), applied to
     * the latencies and to the GPU count (sized again at the band ends). */
    double ttft_s_low, ttft_s_high;
    double tpot_s_low, tpot_s_high;
    int gpus_low, gpus_high;
    /* Disaggregation.  disaggregated: the result above is the two pools
     * together (gpus = prefill_gpus + decode_gpus, tp = decode_tp);
     * aggregated_gpus / disaggregated_gpus: what each arrangement needs
     * (0 = not evaluated or not feasible), so the choice can be explained. */
    bool disaggregated;
    int prefill_tp, prefill_replicas, prefill_gpus, prefill_ep;
    int decode_tp, decode_replicas, decode_gpus, decode_ep;
    double kv_transfer_s;            /* moving one prompt's KV from prefill to decode */
    int aggregated_gpus, disaggregated_gpus;
    /* Replicas vs TPOT (aggregated services): the chosen layout at other
     * replica counts with the rate split evenly, ascending; the chosen
     * count is among them.  curve_tpot_s 0 = that count cannot carry the
     * rate (every replica saturated at its batch cap).  n_curve 0 = none
     * (disaggregated: the pool curves below). */
    int curve_replicas[INFER_CURVE_MAX];
    double curve_tpot_s[INFER_CURVE_MAX];
    double curve_ttft_s[INFER_CURVE_MAX];
    int n_curve;
    /* Disaggregated: each pool's layout at other replica counts, the rate
     * split evenly, ascending, the chosen count among them (its point is
     * the result's own).  Decode pool: GPUs vs TPOT (the decode batch that
     * carries the share); prefill pool: GPUs vs TTFT (M/D/1 wait + lone
     * prefill + KV transfer + half the chosen decode pool's step).  0 s =
     * that many replicas cannot carry the rate.  n_* 0 = aggregated. */
    int decode_curve_replicas[INFER_CURVE_MAX], decode_curve_gpus[INFER_CURVE_MAX];
    double decode_curve_tpot_s[INFER_CURVE_MAX];
    int n_decode_curve;
    int prefill_curve_replicas[INFER_CURVE_MAX], prefill_curve_gpus[INFER_CURVE_MAX];
    double prefill_curve_ttft_s[INFER_CURVE_MAX];
    int n_prefill_curve;
} InferResult;

/* The same workload on another accelerator (Sizing pane ranking). */
typedef struct {
    char accelerator[CAT_ID_LEN];
    bool ok;
    int gpus;
    double days;                     /* training */
    double tpot_s;                   /* inference */
    double usd;                      /* training: the run; inference: a year; 0 = unknown */
    char why[48];                    /* when !ok: "misses target", "does not fit", … */
    char price_basis[64];            /* what usd rests on: "p5.48xlarge on-demand", … */
    int scaleup_gpus;                /* GPUs one instance must join by scale-up for this
                                      * sizing (cost_scaleup_unit), 0/1 = any */
} AccelOption;

#define PLAN_MAX_ALTS 40 /* the shipped catalog lists 23; more are left unsized, with a warning */

typedef struct {
    char name[PLAN_NAME_LEN];
    WorkloadKind kind;
    char accelerator[CAT_ID_LEN];
    bool ok;                         /* false: error says why (no layout fits, …) */
    char error[PLAN_TEXT_LEN];
    TrainResult train;
    InferResult infer;
    AccelOption alts[PLAN_MAX_ALTS];
    int n_alts;
} WorkloadResult;

#define PLAN_MAX_RACK_GROUPS 8

typedef struct {
    int count;                       /* racks of this kind */
    int nodes;                       /* nodes in each */
    double kw;                       /* IT kW of each */
    char role[24];                   /* "compute", "network", "storage" */
    char accelerator[CAT_ID_LEN];    /* compute racks: their nodes' accelerator; "" otherwise */
} RackGroup;

typedef struct {
    char accelerator[CAT_ID_LEN];
    int gpus;                        /* total */
    int gpus_training, gpus_inference, gpus_pool, gpus_headroom;
    int gpus_per_node;
    int nodes;
    int gpus_per_domain;
    int nvlink_domains;
    int racks;                       /* compute racks */
    int nodes_per_rack;
    int scalable_units;
    int leaf_switches, spine_switches, core_switches;
    int links;                       /* all */
    int links_node_leaf, links_leaf_spine, links_spine_core;
    double scaleout_bw_per_gpu;      /* bytes/s above the leaf after oversubscription */
    double storage_read_Bps;
    double storage_write_Bps;
    double storage_capacity_bytes;
    int storage_units;
    bool liquid_required;
    RackGroup rack_groups[PLAN_MAX_RACK_GROUPS];
    int n_rack_groups;
    /* every accelerator installed, the plan's first: a workload on its own
     * part forms an island (accelerator, gpus above describe the first) */
    struct {
        char accelerator[CAT_ID_LEN];
        int gpus;
    } islands[PLAN_MAX_RACK_GROUPS];
    int n_islands;
} ClusterResult;

typedef struct {
    double it_kw;
    double gpu_nodes_kw, network_kw, storage_kw;
    double facility_kw;
    double rack_kw;                  /* hottest compute rack */
    double rack_limit_kw;
    Cooling cooling;
    bool cooling_ok;                 /* the plan's cooling can take the racks */
    char verdict[PLAN_TEXT_LEN];     /* "air is enough" / "liquid required: …" */
    double energy_mwh_per_year;
    double energy_usd_per_year;
} PowerResult;

typedef enum { COST_ONPREM = 0, COST_CLOUD } CostKind;

#define PLAN_MAX_COST_OPTIONS 64

typedef struct {
    char name[96];                   /* "on-prem H100-SXM", "p5.48xlarge reserved-3y" */
    CostKind kind;
    char provider[16];
    char instance[CAT_ID_LEN];
    char accelerator[CAT_ID_LEN];
    Pricing pricing;
    int gpus;
    double capex_usd;
    double opex_usd_per_year;
    double tco_usd;                  /* over the plan's horizon, residual value credited */
    double residual_usd;             /* hardware value credited at the horizon (on-prem) */
    double usd_per_gpu_hour_list;    /* LIST basis: the price of one GPU-hour as billed
                                      * (cloud: catalog or quoted rate after discount;
                                      * on-prem: TCO / installed GPU-hours) */
    double usd_per_gpu_hour;         /* EFFECTIVE basis: TCO / GPU-hours used */
    double gpu_hours_used;           /* over the horizon: the denominator above */
    double gpu_hours_billed;         /* over the horizon: what the TCO pays for */
    bool pay_as_you_go;              /* billed per hour used (on-demand, spot) */
    bool sized;                      /* another accelerator, sized for the same workloads */
    double days;                     /* sized alternative: longest training run, days */
    double run_gpu_hours;            /* training workloads on this accelerator, 0 = none */
    double mtok_gpu_hours;           /* GPU-hours per million output tokens, 0 = none */
    double usd_per_training_run;     /* run_gpu_hours x effective $/GPU-h, 0 = none */
    double usd_per_million_tokens;   /* mtok_gpu_hours x effective $/GPU-h, 0 = none */
    double usd_per_million_tokens_low, usd_per_million_tokens_high; /* the inference model's
                                      * error band (InferResult.gpus_low/high) carried through;
                                      * 0 = no band */
    double breakeven_utilization;    /* pay-as-you-go only: this option is cheaper than
                                      * on-prem below it; 0 = n/a */
    char source[PLAN_TEXT_LEN];
    char as_of[16];
} CostOption;

#define PLAN_MAX_YEARS 30

/* Cash out per year of one option (year 0 = the first twelve months). */
typedef struct {
    int option;                      /* index into options, -1 = none */
    int years;                       /* ceil(horizon) */
    double capex[PLAN_MAX_YEARS];
    double opex[PLAN_MAX_YEARS];     /* maintenance + staff (on-prem) */
    double energy[PLAN_MAX_YEARS];
    double rent[PLAN_MAX_YEARS];     /* cloud rent or hardware lease */
    double residual[PLAN_MAX_YEARS]; /* value recovered (negative cash out), last year */
} CashFlow;

/* An accelerator left out of the comparison, and why. */
typedef struct {
    char accelerator[CAT_ID_LEN];
    char why[96];
} CostExcluded;

#define PLAN_MAX_EXCLUDED 24

/* One assumption that moves the answer: its value, where it came from, and
 * what a stated change of it does to the margin between the two options of
 * the verdict (USD, + = the margin grows in favour of the verdict). */
typedef struct {
    char name[48];
    char value[64];
    char change[48];                 /* "+20 %", "0 -> 20 %", … */
    char source[PLAN_TEXT_LEN];
    char date[16];
    double tco_delta_usd;            /* on the option it applies to */
    char applies_to[96];             /* option name */
} CostLever;

#define PLAN_MAX_LEVERS 12

/* Cost per team per month (showback): the team's GPU-hours in the
 * simulated schedule at the effective $/GPU-hour of the plan's option. */
typedef struct {
    char team[PLAN_NAME_LEN];
    double gpu_hours_per_month;      /* quota and borrowed */
    double borrowed_gpu_hours_per_month;
    double usd_per_month;
} Showback;

typedef enum {
    COST_VERDICT_NONE = 0,                /* nothing priced */
    COST_VERDICT_BUILD,                   /* on-prem cheapest */
    COST_VERDICT_BUY,                     /* a cloud option cheapest */
    COST_VERDICT_UNPRICED,                /* on-prem plan without a node price */
    COST_VERDICT_CLOUD_ONLY               /* no on-prem option exists (cloud plan, cloud-only chip) */
} VerdictKind;

typedef struct {
    /* the plan's accelerator first, then other accelerators sized for the
     * same workloads; each group by tco_usd ascending */
    CostOption options[PLAN_MAX_COST_OPTIONS];
    int n_options;
    int cheapest;                    /* index, -1 = none */
    int chosen;                      /* the plan's own site: on-prem, or site.instance at
                                      * site.pricing; -1 = not priced */
    double utilization;              /* on-prem utilisation used for $/GPU-hour */
    /* the verdict: the cheapest on-prem and cloud options on the plan's own
     * accelerator and what separates them */
    VerdictKind verdict;
    int onprem;                      /* index, -1 = none */
    int cloud;                       /* cheapest cloud option allowed for the plan, -1 = none */
    int ondemand;                    /* cheapest pay-as-you-go on-demand option, -1 = none */
    int alternative;                 /* cheapest sized option on another accelerator, -1 */
    double margin_pct;               /* (dearer - cheaper) / dearer x 100, 0..100 */
    int crossover_month;             /* on-prem cumulative cost first below the cloud's; 0 = never */
    bool spot_allowed;               /* every workload is interruptible */
    char spot_why[PLAN_TEXT_LEN];    /* why not, when !spot_allowed */
    bool storage_priced;
    bool onprem_unpriced;            /* on-prem plan whose accelerator has no node price */
    bool cloud_only;                 /* the accelerator is sold only as a cloud service (TPU,
                                      * Trainium): no racks, fabric or power of the plan's own */
    char service[PLAN_TEXT_LEN];     /* cloud_only: "49 tpu-v5p-8 slices of 4 chips (gcp)" */
    CashFlow cash[2];                /* [0] the verdict's on-prem option, [1] its cloud option */
    CostExcluded excluded[PLAN_MAX_EXCLUDED];
    int n_excluded;
    CostLever levers[PLAN_MAX_LEVERS];
    int n_levers;
    Showback showback[PLAN_MAX_TEAMS];
    int n_showback;
    char prices_oldest[16];          /* dates of the prices the verdict uses, YYYY-MM-DD */
    char prices_newest[16];
} CostResult;

#define PLAN_SERIES_LEN 120

typedef struct {
    char name[PLAN_NAME_LEN];
    int jobs;
    double wait_hours_mean, wait_hours_p50, wait_hours_p95, wait_hours_max;
    double jct_hours_mean;
    double slowdown_mean;            /* JCT / run time */
    double gpu_hours;
    double borrowed_gpu_hours;
    int preemptions;
    double lost_gpu_hours;
} TeamSchedResult;

/* Starvation view: per job class (team × class). */
typedef struct {
    char team[PLAN_NAME_LEN];
    char name[PLAN_NAME_LEN];
    int jobs;
    double gpus;
    double wait_hours_p95;
    double slowdown_mean;
    /* added by the scheduler: the team metrics, per class (0 = none) */
    double wait_hours_mean, wait_hours_p50, wait_hours_max;
    double jct_hours_mean;
    double gpu_hours;
    int preemptions;
    double lost_gpu_hours;
} ClassSchedResult;

#define PLAN_MAX_CLASSES (PLAN_MAX_TEAMS * 4)

typedef struct {
    bool ran;                        /* false when the plan has no tenancy */
    SchedPolicy policy;
    int gpus;                        /* pool simulated */
    double utilization;              /* busy GPU-time / capacity */
    int jobs_submitted;
    int jobs_completed;
    double fragmentation;            /* mean free GPUs the head job could not use / pool */
    double goodput;                  /* useful GPU-hours / consumed */
    int failures;
    int preemptions;
    uint64_t events;
    TeamSchedResult teams[PLAN_MAX_TEAMS];
    int n_teams;
    ClassSchedResult classes[PLAN_MAX_CLASSES];
    int n_classes;
    double util_series[PLAN_SERIES_LEN];
    double queue_series[PLAN_SERIES_LEN];
    int recommended_gpus;            /* capacity search result, 0 = not searched */
    bool pool_from_quotas;           /* the search started at the pool the teams' quotas
                                      * need, and that pool is its answer */
    bool meets_target;
    bool cancelled;
} ScheduleResult;

/* A training workload states up to ~16 assumptions (framework, efficiency,
 * overlaps, band, …; the validation plans' most is 16), an inference one
 * fewer; the rest are the plan's own (cluster, power, cost, schedule).
 * What still does not fit is counted, and plan_evaluate_ex turns the last
 * entry into a line that says how many were not kept. */
#define PLAN_MAX_WARNINGS 64
#define PLAN_MAX_ASSUMPTIONS (PLAN_MAX_WORKLOADS * 20 + 64)

typedef struct {
    WorkloadResult workloads[PLAN_MAX_WORKLOADS];
    int n_workloads;
    ClusterResult cluster;
    PowerResult power;
    CostResult cost;
    ScheduleResult schedule;
    char warnings[PLAN_MAX_WARNINGS][PLAN_TEXT_LEN];
    int n_warnings;
    Assumption assumptions[PLAN_MAX_ASSUMPTIONS];
    int n_assumptions;
    int warnings_dropped, assumptions_dropped; /* not kept: the arrays were full */
    /* which stages ran */
    bool have_sizing, have_layout, have_power, have_schedule, have_cost;
} PlanResult;

/* Printf-style helpers for stages: append a warning / an assumption
 * (counted in warnings_dropped / assumptions_dropped when the array is
 * full). */
void result_warn(PlanResult *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The team with jobs whose p95 queue wait is the longest (0 when none
 * waits). */
int schedule_worst_team(const ScheduleResult *r);
/* How a run stands against a wait target, h: the longest of every team's
 * p95 wait and of the longest wait of each starved job class (one with
 * jobs none of which ran: 0 GPU-h, e.g. gangs that never find their GPUs
 * free under strict priority).  A team's p95 alone passes a pool on which
 * a class of under 5 % of its jobs never starts.  *team: that team; *cls:
 * the starved class when it sets the figure, else -1.  The pool meets a
 * target when this is within it. */
double schedule_wait_score(const ScheduleResult *r, int *team, int *cls);
void result_assume(PlanResult *r, const char *scope, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* vsnprintf / snprintf into buf[size]; a text that does not fit is cut at
 * its last space in the final 64 bytes, else at the start of a character
 * (never inside a UTF-8 sequence, which JSON and the terminal reject), and
 * ends in "…".  Shipped texts fit (test_validation checks every assumption
 * and warning of the validation plans); this keeps a long name or catalog
 * source readable. */
void text_vfit(char *buf, size_t size, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
void text_fit(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* When anything was dropped, replace the last warning / assumption with a
 * line saying how many were not kept, so no reader takes a full array for
 * the whole list. */
void result_note_dropped(PlanResult *r);

#endif
