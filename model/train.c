/* model/train.c — training sizing: parameters, FLOPs, memory, step time,
 * layout search, GPU count, checkpoints and goodput (SIZING-MODEL.md §1–5).
 *
 * Notation (SIZING-MODEL.md): B global batch (sequences), b micro-batch, s
 * sequence length, L layers, h hidden, a heads, g KV heads, F FFN hidden, V
 * vocab; t/p/d/c/e tensor, pipeline, data, context, expert parallel degrees;
 * v interleaved chunks per pipeline rank; m = B/(b·d·e) micro-batches.
 *
 * GPUs = t·p·c·e·d.  Expert parallelism is carved out of data parallelism as
 * in Megatron-Core: dense layers are replicated over d·e·c ranks (their
 * gradients and ZeRO shards span that group), routed experts over d·c.
 *
 * Efficiency curve (catalog `gemm_eff`, data/catalog/efficiency.yaml): its x
 * is the narrowest side of a GEMM, looked up per GEMM of the layer (QKV,
 * attention output, MLP fc1/fc2, router, logits: layer_dense_gemm_s,
 * gemm_s) with M = tokens per micro-batch and CP rank b·s/c and N, K the
 * per-GPU weight sides; the attention core uses min(h/t, b·s/c) (or, for
 * FlashAttention on parts whose catalog row measures its kernels, their
 * attn_fwd_eff / attn_bwd_eff on the causal half: layer_cost); routed
 * experts min(h/t, F_expert/t, tokens per local expert).  y is the achieved share
 * of the precision's dense peak for the layer GEMMs and the attention core
 * (Calculon, Isaev et al. SC'23, models matmul efficiency as a function of
 * the matrix size in the same way).  Memory-bound element-wise work (norms,
 * residual adds, dropout, activation functions, softmax without
 * FlashAttention, MoE token permutation) is costed separately as bytes at
 * hbm_bw × elementwise_eff.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "net.h"
#include "train.h"

/* ------------------------------------------------------------ constants */

#define GIB 1073741824.0

/* Memory allowance beyond weights/grads/optimizer/activations: CUDA context,
 * cuBLAS/NCCL workspaces and the caching allocator's fragmentation.
 * SIZING-MODEL.md §2: "~5 % plus a fixed GiB is common". */
#define MEM_FIXED_BYTES (1.0 * GIB)
#define MEM_FRAG_FRAC 0.05
/* Used when the catalog row has no hbm_usable_frac. */
#define HBM_USABLE_DEFAULT 0.95

/* Share of data-parallel gradient reduce-scatter / parameter all-gather
 * hidden under the last micro-batch's backward / first forward: Megatron's
 * bucketed overlap_grad_reduce / overlap_param_gather leave the last bucket
 * exposed (Megatron-Core distributed optimizer docs). */
#define DP_OVERLAP 0.8
/* Megatron-Core's default DDP bucket: max(40M, 1M × DP size) parameters
 * (DistributedDataParallelConfig.bucket_size docstring). */
#define DP_BUCKET_MIN 40e6
#define DP_BUCKET_PER_RANK 1e6
/* Compute that runs while a collective is in flight is slower: NCCL's
 * kernels hold SMs (a GEMM sized to one wave of all SMs spills into a
 * second, tail-heavy wave) and share HBM bandwidth.  Lee et al. 2025,
 * "Characterizing Compute-Communication Overlap in GPU-Accelerated
 * Distributed Deep Learning" (arXiv 2507.03114), measured an average 18.9 %
 * (max 40 %) compute slowdown during overlap on A100/H100 GPT and LLaMA
 * training; the hidden part of a collective therefore still costs
 * OVERLAP_SLOWDOWN × its duration of extra compute time. */
#define OVERLAP_SLOWDOWN 0.189
/* Ring attention overlaps the K/V exchange with the attention core of the
 * previous chunk (Liu et al. 2023 "Ring Attention"; Megatron CP). */
#define CP_OVERLAP 0.8
/* Tensor-parallel collectives are on the critical path (Megatron-LM 2021/22
 * and Calculon's baseline do not overlap them). */
#define TP_OVERLAP 0.0
/* Expert all-to-alls are exposed unless the workload says how much of them
 * its schedule hides (Workload.ep_overlap: DeepSeek-V3's DualPipe, Megatron's
 * EP-overlap); plain Megatron MoE does not overlap them. */
#define EP_OVERLAP 0.0
/* FP8 GEMMs reach a lower share of their (2×) peak than BF16 ones: on an
 * H200, cuBLASLt FP8 runs 8192³ at 1300.6 and 16384³ at 1366.3 TFLOP/s,
 * 0.66–0.69 of the 1979 FP8 peak (Azure/AI-benchmarking-guide,
 * Azure_Results/ND_H200_v5_results.md), against ~0.75–0.8 for large BF16
 * GEMMs (A100: 0.81 at 8192³, same guide) — ~0.85–0.9 relative.  The
 * casts and amax of the FP8 recipe and the BF16 attention core are costed
 * separately (FP8_CAST_BYTES, peak16).  Frameworks override it
 * (frameworks.yaml fp8_gemm_factor). */
#define FP8_GEMM_FACTOR 0.85
/* Profile used when the catalog has no frameworks: section (unit tests'
 * hand-made catalogs): Megatron-LM as the 2021-22 calibration ran it —
 * TP_OVERLAP, DP_OVERLAP, EP_OVERLAP and FP8_GEMM_FACTOR above, no extra
 * per-layer or MoE costs (data/catalog/frameworks.yaml `megatron`). */
static const Framework FW_BUILTIN = {
    .id = "megatron", .gemm_scale = 1.0, .tp_overlap = TP_OVERLAP, .dp_overlap = DP_OVERLAP,
    .ep_overlap = EP_OVERLAP, .fp8_gemm_factor = FP8_GEMM_FACTOR,
};
/* FP8 recipes cast every GEMM input to FP8 (Transformer Engine); the
 * backward casts the output gradients the same way.  With current scaling
 * (NeMo's recipes: "scaling factors computed in the current step",
 * performance summary) the tensor's amax must be known before the cast:
 * one 16-bit read for the amax, one more for the cast and a 1-byte write,
 * 5 bytes per element.  Weights are cast once per step and cached across
 * micro-batches (TE fp8 weight caching), so only activations count per
 * micro-batch.  Attention's softmax·V and QK^T stay BF16 (NeMo/Megatron
 * FP8 recipes do not quantise the core attention). */
#define FP8_CAST_BYTES 5.0
/* The QKV and fc1 inputs are the outputs of the two norms, which Transformer
 * Engine's LayerNormLinear runs itself: with current scaling the norm kernel
 * computes the output's amax as it writes it (pytorch/csrc/extensions/
 * normalization.cpp, Impl::FUSED_NORM_AMAX_FP8), so the cast reads the
 * 16-bit output once and writes 1 byte, 3 bytes per element; with delayed
 * scaling the norm writes FP8 itself (Impl::FULLY_FUSED), less still.  In
 * the forward only: the backward casts output gradients, which no norm
 * produced. */
#define FP8_NORM_CAST_BYTES 3.0
/* FlashAttention's backward runs five matmuls where its forward runs two
 * (S = QK^T is recomputed; dV, dP, dQ, dK; Dao 2023, FlashAttention-2
 * §3.1), and its benchmarks count the backward's FLOPs as 2.5x the
 * forward's (Dao-AILab/flash-attention benchmarks/benchmark_flash_attention.py
 * flops()); the catalog's attn_bwd_eff is measured on that count. */
#define FLASH_BWD_FLOP_RATIO 2.5
/* Attention core's share of the model FLOPs from which the assumptions say
 * that the MFU counts it whole (the causal half is what runs): at a quarter,
 * an eighth of the FLOPs the MFU counts never run. */
#define MFU_NOTE_ATTN_SHARE 0.25
/* FlashAttention 1's time over FlashAttention-2's (Dao 2023, arXiv:2307.08691) */
#define FLASH_V1_SLOWDOWN 2.0
/* Head dim at which the catalog's cuDNN fused-attention efficiencies were
 * measured (attn_cudnn_fwd_eff / attn_cudnn_bwd_eff: FlashAttention-3 paper,
 * cuDNN bars at head dim 128: 529 causal forward, 518 backward TFLOP/s). */
#define CUDNN_ATTN_HEAD_DIM 128.0
/* GPU <-> host link per direction when the catalog gives none: PCIe Gen5
 * x16, 32 GT/s × 16 lanes with 128b/130b coding ≈ 63 GB/s (PCI-SIG PCIe
 * 5.0 specification). */
#define HOST_BW_DEFAULT 63e9
/* A recipe choice a MoE plan leaves out (the dispatcher, full-iteration
 * CUDA graphs, the all-to-all overlap) is mentioned when making it would
 * take the step down by at least this share (train_size's assumption
 * lines, recipe_saving). */
#define RECIPE_NOTE_SHARE 0.05
/* Layers' worth of activations an offloading stage keeps on the GPU while
 * copying: the layer being copied out (forward) or prefetched (backward)
 * and the one computing (Megatron-Core cpu_offload double buffering). */
#define OFFLOAD_BUFFER_LAYERS 2.0
/* A cross-entropy run as eager PyTorch ops on the logits cast to fp32
 * (torchtitan's loss_fn, cross_entropy(pred.flatten(0, 1).float(), labels)
 * uncompiled: train.py at 9dec370, "compiling loss function causes CUDA
 * errors, turning off for now"; compiled with the model since bbb1b616e,
 * 2025-04-02, torchtitan/components/loss.py), per logit:
 *  - memory: the forward holds the 16-bit logits (2), their fp32 copy (4)
 *    and log_softmax's fp32 output (4), which it saves; the backward's
 *    log_softmax_backward holds that output, the dense fp32 gradient
 *    nll_loss_backward wrote (4) and the one it writes (4): 12 bytes, with
 *    every saved activation of the step still live and no layer being
 *    recomputed (the layers' backward comes after).  A fused loss keeps
 *    logits_bytes (framework) through the same moment.
 *  - passes: the cast (read 2, write 4), log_softmax (rows of V fp32
 *    values, too long for shared memory: a max pass and a sum pass read
 *    the row, a third reads it and writes the output, 16), nll_loss's
 *    zero-filled gradient (write 4), log_softmax_backward (a sum pass over
 *    the gradient, then gradient and output read, the result written, 16),
 *    the cast back (read 4, write 2): 48 bytes, against the 12 of one
 *    fused fp32 cross-entropy's three passes.
 * With tensor parallelism torchtitan shards the logits over the vocabulary
 * and computes the loss under torch's loss_parallel (its default; torch
 * distributed/tensor/parallel/loss.py, Dec 2024): log_softmax as
 * decomposed ops with two all-reduces — amax, x − max, exp, sum, shifted −
 * log(sum) — and the NLL and log-softmax backward fused into
 * (zeros + exp(output)) · grad.  Per local logit:
 *  - memory: the forward holds the 16-bit logits, their fp32 copy, the
 *    shifted values and their exponentials (14); the backward the saved
 *    output, the zero-filled gradient, exp(output), their sum and its
 *    product with the incoming gradient (20), of which the exponentials
 *    die at the sum: 16.
 *  - passes: cast 6, amax 4, shift 8, exp 8, sum 4, result 8 (38);
 *    zeros 4, exp 8, add 12, product 8, the cast back 6 (38): 76. */
#define EAGER_CE_PEAK_BYTES 12.0
#define EAGER_CE_PASS_BYTES 48.0
#define LOSS_PARALLEL_PEAK_BYTES 16.0
#define LOSS_PARALLEL_PASS_BYTES 76.0
#define FUSED_CE_PASS_BYTES 12.0
/* Fallbacks when the catalog leaves an efficiency field empty. */
#define GEMM_EFF_DEFAULT 0.6
#define EW_EFF_DEFAULT 0.7
#define SCALEUP_LAT_DEFAULT 5e-6
/* Peak FLOP/s per HBM byte/s used when a catalog row lacks hbm_bw: H100
 * SXM bf16, 989.4e12 / 3.35e12 ≈ 295 (SIZING-MODEL.md §6). */
#define HBM_FLOP_PER_BYTE_DEFAULT 295.0
/* Default per-GPU MTBF when neither the plan nor the catalog gives one:
 * Llama 3 saw 419 unexpected interruptions in 54 days on 16,384 H100
 * (Dubey et al. 2024, §3.3.4): 54·24·16384/419 ≈ 50,700 GPU-hours. */
#define MTBF_GPU_H_DEFAULT 50000.0
/* Checkpoint bytes per parameter: fp32 master + Adam m, v (12) + 16-bit
 * weights (2) (SIZING-MODEL.md §5, CATALOG-FACTS.md §4.3). */
#define CKPT_BYTES_PER_PARAM 14.0
/* Per-GPU storage write rate when the plan sets no stall target: NVIDIA
 * DGX SuperPOD storage guidance of 1 GB/s per GPU read and write
 * (CATALOG-FACTS.md §4.1), used unless the catalog's costs give one. */
#define STORAGE_BW_PER_GPU_DEFAULT 1e9
/* Bytes per token id read from the dataset (16-bit token ids, §5). */
#define TOKEN_BYTES 2.0
/* Largest GPU count the target_days sizing considers. */
#define MAX_GPUS (1 << 21)

/* Search candidate limits. */
#define MAX_CAND 160
/* A sized run finishing before this share of its target_days is reported
 * as over-sized (a reporting threshold, not a fitted constant: 15 % of the
 * deadline left unused is worth a sentence in a planning meeting). */
#define OVERSIZE_FRAC 0.85

/* ------------------------------------------------------------ shape */

/* What a layer holds (LayerKind.mask).  A plain transformer's layers are
 * K_ATTN | K_MLP or K_ATTN | K_MOE; a hybrid pattern's hold one block
 * each (ModelShape.hybrid). */
enum { K_ATTN = 1, K_MAMBA = 2, K_MLP = 4, K_MOE = 8 };

typedef struct {
    int mask;
    double share;           /* of the L layers */
} LayerKind;

/* Blocks (a norm and a residual each) in a layer of this kind: 2 in a
 * plain transformer layer, 1 in a hybrid one. */
static double kind_blocks(int kind)
{
    return ((kind & K_ATTN) ? 1.0 : 0.0) + ((kind & (K_MLP | K_MOE)) ? 1.0 : 0.0) +
           ((kind & K_MAMBA) ? 1.0 : 0.0);
}

typedef struct {
    double L, h, a, g, dh, F, V;
    double Ld, Lm;          /* layers with a dense MLP, with a MoE */
    double La, Lmb;         /* layers with attention, with a Mamba-2 mixer */
    LayerKind kinds[4];     /* the kinds of layer present, shares summing to 1 */
    int nkinds;
    MambaDims md;
    double mamba_w;         /* a Mamba-2 mixer's GEMM weights: in_proj, out_proj */
    double mamba_small;     /* its conv1d (+bias), A, D, dt bias and gated-norm weights */
    double layer_dense_w;   /* the average layer's weights but the routed experts' */
    double E, k, S, Fe;     /* routed experts, per token, shared, expert FFN */
    double He;              /* the routed experts' input width: h, or LatentMoE's latent */
    double lat_w;           /* LatentMoE's two projections h <-> He per MoE layer (0: none) */
    bool glu, mla, moe, tied;
    double dqk, dv;         /* per-head q/k and v widths of the attention core */
    double attn_w;          /* attention GEMM weights per layer */
    double norm_w;          /* norm weights per layer */
    double mlp_w;           /* dense MLP weights per layer */
    double expert_w;        /* one routed expert */
    double shared_w;        /* all shared experts of one MoE layer */
    double router_w;
    double emb_w, head_w;   /* input embedding; output head (0 when tied) */
    double total, active;
    double wscale;          /* given params / derived (memory, traffic); 1 if not given */
    double core_coef;       /* attention-core forward FLOPs per (query, key) */
    double ew_attn_extra;   /* MLA: latent activations per token, in units of h */
    double win, win_L;      /* sliding window (tokens, 0 = none) and the layers using it */
    double drop_masks;      /* 1: dropout masks kept (Korthikanti Table 2); 0: dropout p = 0 */
    double saved_q;         /* bytes per element of the low-precision GEMM inputs the
                             * layers save for the backward (FP8: 1, framework
                             * fp8_saved_inputs; NVFP4: the part's FP4 bytes);
                             * 0 = 16-bit (shape_act_layer) */
    double saved_qe;        /* the same for the routed experts' grouped GEMMs (framework
                             * fp8_saved_expert_inputs; NVFP4: the part's FP4 bytes) */
    bool kv_rep;            /* grouped-query K/V copied out to the query heads before
                             * the attention call (framework attn_repeat_kv) */
    double q_lora, kv_lora, nope; /* MLA: latent ranks, per-head no-RoPE q/k width */
    double mtp;             /* multi-token prediction modules (last stage) */
    int mtp_kind;           /* the layer kind of an MTP module's block */
    double mtp_w, mtp_we;   /* one MTP module's weights: all but the routed experts; those */
    double mtp_gemm;        /* GEMM weights one token touches in an MTP module */
    unsigned rm;            /* recompute: selective's RM_* modules (0 = sel_modules' default) */
} Shape;

static bool shape_derive(const ModelShape *m, Shape *sh)
{
    memset(sh, 0, sizeof *sh);
    if (!m || m->layers <= 0 || m->hidden <= 0 || m->heads <= 0)
        return false;
    sh->drop_masks = 1.0;
    sh->L = m->layers;
    LayerCounts lc;
    model_layer_counts(m, &lc);
    bool hybrid = m->hybrid[0] != '\0';
    if (hybrid && (lc.bad || lc.layers != m->layers))
        return false;
    sh->h = m->hidden;
    sh->a = m->heads;
    sh->g = m->kv_heads > 0 ? m->kv_heads : m->heads;
    sh->dh = m->head_dim > 0 ? m->head_dim : (double)m->hidden / m->heads;
    sh->F = m->ffn_hidden > 0 ? m->ffn_hidden : 4.0 * m->hidden;
    sh->V = m->vocab > 0 ? m->vocab : 0;
    sh->glu = m->glu;
    sh->tied = m->tied_embeddings;
    sh->moe = m->experts > 1;
    sh->E = sh->moe ? m->experts : 1;
    sh->k = sh->moe ? (m->experts_per_token > 0 ? m->experts_per_token : 1) : 1;
    if (sh->k > sh->E)
        sh->k = sh->E;
    sh->S = sh->moe && m->shared_experts > 0 ? m->shared_experts : 0;
    /* LatentMoE (Megatron-Core moe_layer.py: fc1_latent_proj h -> latent
     * before dispatch_preprocess, fc2_latent_proj back after the combine,
     * both TELinear parallel_mode "duplicated"; the router and the shared
     * experts see the full h): the routed experts' GEMMs, the permutation
     * and the all-to-alls work at the latent width. */
    model_expert_dims(m, &sh->Fe, &sh->He);
    if (!(sh->Fe > 0))
        sh->Fe = sh->F;
    if (!sh->moe)
        sh->He = m->hidden;
    sh->lat_w = sh->moe && m->moe_latent > 0 ? 2.0 * m->hidden * sh->He : 0.0;
    sh->Ld = lc.mlp;
    sh->Lm = lc.moe;
    sh->La = lc.attn;
    sh->Lmb = lc.mamba;
    if (sh->Lm > 0 && !sh->moe)
        return false;
    if (hybrid) {
        const int masks[4] = {K_ATTN, K_MAMBA, K_MLP, K_MOE};
        const double n[4] = {sh->La, sh->Lmb, sh->Ld, sh->Lm};
        for (int i = 0; i < 4; i++)
            if (n[i] > 0)
                sh->kinds[sh->nkinds++] = (LayerKind){masks[i], n[i] / sh->L};
    } else {
        if (sh->Ld > 0)
            sh->kinds[sh->nkinds++] = (LayerKind){K_ATTN | K_MLP, sh->Ld / sh->L};
        if (sh->Lm > 0)
            sh->kinds[sh->nkinds++] = (LayerKind){K_ATTN | K_MOE, sh->Lm / sh->L};
    }
    double h = sh->h, a = sh->a;
    double mats = sh->glu ? 3.0 : 2.0;      /* SwiGLU: gate, up, down */

    sh->mla = m->kv_lora_rank > 0;
    if (sh->mla) {
        /* DeepSeek-V2/V3 multi-head latent attention (DeepSeek-V3 config.json
         * / modeling_deepseek.py): q_a h×q_lora (+norm), q_b q_lora×a·(nope+rope)
         * (or h×a·(nope+rope) without q_lora), kv_a h×(kv_lora+rope) (+norm),
         * kv_b kv_lora×a·(nope+v), o a·v×h. */
        double rope = m->qk_rope_head_dim > 0 ? m->qk_rope_head_dim : 0;
        double nope = m->qk_nope_head_dim > 0 ? m->qk_nope_head_dim : sh->dh;
        double v = m->v_head_dim > 0 ? m->v_head_dim : sh->dh;
        double ql = m->q_lora_rank > 0 ? m->q_lora_rank : 0;
        double kl = m->kv_lora_rank;
        double q = ql > 0 ? h * ql + ql * a * (nope + rope) : h * a * (nope + rope);
        double kv = h * (kl + rope) + kl * a * (nope + v);
        sh->attn_w = q + kv + a * v * h;
        sh->norm_w = 2 * h + (ql > 0 ? ql : 0) + kl;
        sh->dqk = nope + rope;
        sh->dv = v;
        sh->ew_attn_extra = ((ql > 0 ? ql : 0) + kl + rope) / h;
        sh->q_lora = ql;
        sh->kv_lora = kl;
        sh->nope = nope;
    } else {
        /* Q (a·dh), K and V (g·dh each), output projection (a·dh → h). */
        sh->attn_w = h * a * sh->dh + 2 * h * sh->g * sh->dh + a * sh->dh * h;
        sh->norm_w = 2 * h;
        sh->dqk = sh->dh;
        sh->dv = sh->dh;
    }
    /* QK^T and (softmax)·V over the full s×s score matrix, as Megatron's
     * num_floating_point_operations counts it: 2·a·(dqk + dv) per pair. */
    sh->core_coef = 2 * a * (sh->dqk + sh->dv);
    sh->mlp_w = mats * h * sh->F;
    sh->expert_w = sh->moe ? mats * sh->He * sh->Fe : 0;
    sh->shared_w = sh->moe ? sh->S * mats * h * sh->Fe : 0;
    sh->router_w = sh->moe ? h * sh->E : 0;
    sh->win = m->window > 0 ? m->window : 0;
    sh->win_L = model_window_layers(m, sh->La); /* read only where win > 0 */
    sh->emb_w = sh->V * h;
    sh->head_w = sh->tied ? 0 : sh->V * h;
    if (sh->Lmb > 0) {
        /* Mamba-2 mixer (Megatron-Core ssm/mamba_mixer.py MambaMixer; Dao &
         * Gu 2024 §7): in_proj h → z, x (d_inner each), B, C (groups·state
         * each), dt (heads); a depthwise causal conv1d of width `conv` over
         * x, B, C with a bias; per head A, D and a dt bias; a gated RMSNorm
         * over d_inner; out_proj d_inner → h. */
        model_mamba_dims(m, &sh->md);
        sh->mamba_w = h * sh->md.in_proj + sh->md.d_inner * h;
        sh->mamba_small = sh->md.conv_dim * (sh->md.conv + 1.0) + 3.0 * sh->md.heads +
                          sh->md.d_inner;
    }

    /* Every layer's weights but the routed experts', by block, each block
     * with its pre-norm (a plain layer's attention block carries norm_w
     * less the MLP block's norm) */
    double blocks = sh->La * (sh->attn_w + sh->norm_w - h) + sh->Ld * (sh->mlp_w + h) +
                    sh->Lm * (sh->shared_w + sh->router_w + sh->lat_w + h) +
                    sh->Lmb * (sh->mamba_w + sh->mamba_small + h);
    sh->layer_dense_w = blocks / sh->L;
    /* Multi-token prediction (DeepSeek-V3 report §2.2, Fig. 3; Megatron-
     * Core transformer/multi_token_prediction.py): per module, norms of the
     * previous depth's hidden state and of the next token's embedding
     * (h each), their concatenation projected 2h -> h, one transformer
     * block of the model's last kind (a MoE layer in DeepSeek-V3), a final
     * norm, and the shared embedding and output head (no weights of their
     * own).  Not part of the model's parameter count (DeepSeek-V3's 671 B
     * are the main model's; its 14 B MTP module comes on top).  A hybrid
     * pattern's MTP block is attention then the model's MoE (else MLP)
     * block, two blocks as in a plain layer: Nemotron 3 Super's
     * mtp_hybrid_override_pattern "*E" (Megatron-Bridge hybrid_provider.py;
     * its functional test config). */
    sh->mtp = m->mtp_layers > 0 ? m->mtp_layers : 0;
    if (sh->mtp > 0) {
        bool mo = sh->Lm > 0;
        double ffn_w = mo ? sh->shared_w + sh->router_w + sh->lat_w : sh->mlp_w;
        sh->mtp_kind = K_ATTN | (mo ? K_MOE : K_MLP); /* a plain layer's kind */
        sh->mtp_w = sh->attn_w + sh->norm_w + ffn_w + 2.0 * h * h + 3.0 * h;
        sh->mtp_we = mo ? sh->E * sh->expert_w : 0.0;
        sh->mtp_gemm = sh->attn_w + 2.0 * h * h +
                       (mo ? sh->k * sh->expert_w + sh->shared_w + sh->router_w + sh->lat_w
                           : sh->mlp_w);
    }
    double common = blocks + sh->emb_w + sh->head_w + h;
    double total = common + sh->Lm * sh->E * sh->expert_w;
    double active = common + sh->Lm * sh->k * sh->expert_w;
    sh->wscale = 1.0;
    if (m->params > 0) {
        /* Keep the derived active ratio for a given total; memory and
         * gradient traffic scale to the given total, FLOPs stay those of
         * the shape (Megatron's formula). */
        double ratio = total > 0 ? active / total : 1.0;
        sh->wscale = total > 0 ? m->params / total : 1.0;
        total = m->params;
        active = m->params * ratio;
    }
    sh->total = total;
    sh->active = active;
    return true;
}

void train_params(const ModelShape *m, double *total, double *active)
{
    Shape sh;
    bool ok = shape_derive(m, &sh);
    if (total)
        *total = ok ? sh.total : 0;
    if (active)
        *active = ok ? sh.active : 0;
}

/* Share of the full-count attention core left by sliding windows: a query
 * sees at most `win` keys, so the convention of counting all s² pairs
 * (twice the causal work) becomes 2·s·W pairs, a factor min(1, 2W/s), on
 * win_L of the L layers (Beltagy et al. 2020 Longformer §3; Mistral 7B,
 * Jiang et al. 2023 §2; gpt-oss model card: 128-token bands on alternate
 * layers). */
static double shape_core_frac(const Shape *sh, double s)
{
    if (!(sh->win > 0) || !(s > 0) || !(sh->La > 0))
        return 1.0;
    double f = 2.0 * sh->win / s;
    if (f >= 1)
        return 1.0;
    return 1.0 - sh->win_L / sh->La * (1.0 - f);
}

/* The attention core's model FLOPs for B sequences of length s: 3·B·s²·
 * core_coef per attention layer (forward 1, backward 2), a sliding window's
 * layers their share of the square (shape_core_frac). */
static double shape_core_flops(const Shape *sh, double B, double s)
{
    return 3.0 * B * s * s * sh->La * sh->core_coef * shape_core_frac(sh, s);
}

/* Model FLOPs (no recompute) for B sequences of length s: 6 FLOPs per
 * weight per token for every GEMM weight a token touches (forward 2,
 * backward 4), the attention core 3·B·s²·core_coef, and the logits
 * 6·B·s·h·V.  For a dense model with a·dh = h this is exactly Megatron's
 * 12·B·s·L·h²·[(1 + g/a + s/h)·(a·dh/h) + (F/h)·glu + V/(2·L·h)]
 * (megatron/training/training.py num_floating_point_operations; Narayanan
 * et al. 2021 eq. 3 for GPT: 72·B·s·L·h²·(1 + s/(6h) + V/(12·L·h))).
 * The core counts attention layers only; a Mamba-2 layer adds its SSD
 * (MambaDims ssd_flops, 3× with the backward). */
static double shape_flops(const Shape *sh, double B, double s)
{
    double tok = B * s;
    double gemm = sh->La * sh->attn_w + sh->Ld * sh->mlp_w + sh->Lmb * sh->mamba_w +
                  sh->Lm * (sh->k * sh->expert_w + sh->shared_w + sh->router_w + sh->lat_w);
    /* each MTP module: its block and projection, a full causal core, and
     * its own pass through the output head (Megatron-Core counts them the
     * same way: training.py num_floating_point_operations, mtp_num_layers) */
    double mtp = sh->mtp * (6.0 * tok * sh->mtp_gemm + 3.0 * B * s * s * sh->core_coef +
                            6.0 * tok * sh->h * sh->V);
    return 6.0 * tok * gemm + shape_core_flops(sh, B, s) + 3.0 * tok * sh->Lmb * sh->md.ssd_flops +
           6.0 * tok * sh->h * sh->V + mtp;
}

double train_model_flops(const ModelShape *m, double B, double s)
{
    Shape sh;
    if (!shape_derive(m, &sh) || !(B > 0) || !(s > 0))
        return 0;
    return shape_flops(&sh, B, s);
}

/* The attention core's share of a derived shape's model FLOPs at s. */
static double shape_attn_share(const Shape *sh, double s)
{
    double all = s > 0 ? shape_flops(sh, 1, s) : 0;
    return all > 0 ? shape_core_flops(sh, 1, s) / all : 0;
}

double train_attn_flop_share(const ModelShape *m, double s)
{
    Shape sh;
    return shape_derive(m, &sh) ? shape_attn_share(&sh, s) : 0;
}

/* train_band_class with the precision half of the class and whether the
 * step is attention-bound given */
static void band_class_of(const Workload *w, const Accelerator *a, bool lowp, double attn_share,
                          char *out, size_t len)
{
    const char *fam = a && a->family[0] ? a->family : (a ? a->id : "?");
    snprintf(out, len, "%.32s/%s/%s%s", fam, model_arch_class(&w->model), lowp ? "fp8" : "bf16",
             attn_share >= TRAIN_ATTN_BOUND ? TRAIN_BAND_LONG : "");
}

void train_band_class(const Workload *w, const Accelerator *a, char *out, size_t len)
{
    band_class_of(w, a, w->precision == PREC_FP8 || w->precision == PREC_FP4,
                  train_attn_flop_share(&w->model, w->seq_len), out, len);
}

size_t train_band_class_base(const char *cls)
{
    size_t n = strlen(cls), nl = strlen(TRAIN_BAND_LONG);
    return n > nl && strcmp(cls + n - nl, TRAIN_BAND_LONG) == 0 ? n - nl : n;
}

/* ------------------------------------------------------------ activations */

/* The modules a selective recompute re-runs (RM_*): the workload's
 * recompute_modules, else the default — with FlashAttention the norms and
 * every MLP's activation function (Megatron-Core recompute_modules
 * [layernorm, moe_act] as the performance recipes set it, TorchTitan's
 * selective AC), without it the attention core (Korthikanti et al. 2022
 * §5, Megatron-Core's default ["core_attn"]).  0 unless r is selective. */
static unsigned sel_modules(const Shape *sh, Recompute r, bool flash)
{
    if (r != RECOMPUTE_SELECTIVE)
        return 0;
    /* torchtitan's per-op policy re-runs every op it does not save: the
     * norms and the activation function among them */
    if (sh->rm & RM_EVERY_OTHER_MM)
        return RM_EVERY_OTHER_MM | RM_NORM_ALL | RM_ACT_ALL;
    if (sh->rm)
        return sh->rm;
    return flash ? RM_NORM_ALL | RM_ACT_ALL : RM_CORE_ATTN;
}

/* Norms a selective recompute re-runs in a layer of this kind: every
 * block's (RM_NORM_ALL), or Megatron-Core's layernorm module, which re-runs
 * the norms that are modules of their own in its Transformer Engine layer
 * spec (transformer_layer.py: not an IdentityOp) — MLA's input norm (its
 * down projections are plain linears) and a MoE layer's pre-MLP norm;
 * a standard attention block's norm is fused into the QKV LayerNormLinear
 * and a dense MLP's into LayerNormMLP (gpt_layer_specs.py). */
static double sel_norms(const Shape *sh, unsigned rm, int kind)
{
    bool at = kind & K_ATTN, ffn = kind & (K_MLP | K_MOE);
    if (rm & RM_NORM_ALL)
        return (at ? 1.0 : 0.0) + (ffn ? 1.0 : 0.0);
    if (rm & RM_LAYERNORM)
        return (at && sh->mla ? 1.0 : 0.0) + (kind & K_MOE ? 1.0 : 0.0);
    return 0.0;
}

/* Activation bytes of one dense layer (attention + MLP) per micro-batch
 * per GPU under torchtitan's per-op selective checkpointing (recompute_modules
 * every_other_mm; torchtitan 9dec370 / 820504e parallelize_llama.py
 * _apply_ac_to_transformer_block, selective_ac_option "op"): the policy
 * saves the outputs of aten.mm except every second one a block runs, of
 * the SDPA kernel and of the TP reduce-scatters, and re-runs every other
 * op.  A Llama block's matmuls in forward order are wq, wk, wv, wo (the
 * attention's) and w1, w3, w2 (SwiGLU; fc1, fc2 without a GLU), so it
 * keeps wq's Q (2·a·dqk/h), wv's V (2·g·dv/h: before repeat_kv), the
 * attention output (2·a·dv/h) with its fp32 log-sum-exp (4·a/h), w1's
 * output (2·F/h) and, with a GLU, w2's (the 7th: [s, h], partial sums
 * on every TP rank before the reduce-scatter, not split by t), besides
 * the layer input the checkpoint holds (2); with TP each reduce-scatter's
 * output too (wo's and the MLP's, 2 each, [s/t, h]).  wk, wo and w3 (fc2)
 * are re-run, and so are the norms, RoPE, the activation function and
 * the TP all-gathers.  Units and splitting as shape_act_layer's;
 * torchtitan runs TP with sequence parallelism. */
static double shape_act_every_other_mm(const Shape *sh, double s, double b, int t, int c,
                                       bool sp, int kind)
{
    double sbh = s / c * b * sh->h;
    bool at = kind & K_ATTN, mlp = kind & K_MLP;
    double split = (at ? (2.0 * (sh->a * sh->dqk + sh->g * sh->dv + sh->a * sh->dv) +
                          4.0 * sh->a) / sh->h
                       : 0.0) +
                   (mlp ? 2.0 * sh->F / sh->h : 0.0);
    double rep = 2.0 + (t > 1 && sp ? 2.0 * ((at ? 1.0 : 0.0) + (mlp ? 1.0 : 0.0)) : 0.0);
    double whole = mlp && sh->glu ? 2.0 : 0.0; /* w2's output */
    if (sp)
        return sbh * ((rep + split) / t + whole);
    return sbh * (rep + split / t + whole);
}

/* Activation bytes of one layer per micro-batch per GPU.  Korthikanti et
 * al. 2022 Table 2, term by term (per layer, s·b·h units, 16-bit):
 *   attention block 11·sbh + 5·a·s²·b: QKV input 2, Q and K 4, V 2,
 *     output-projection input 2, dropout mask 1; softmax 2·as²b, its dropout
 *     mask as²b, dropout output 2·as²b;
 *   MLP 19·sbh: input 2, first linear output 8 (=2·F/h), activation output
 *     8 (=2·F/h), dropout mask 1;
 *   two norm inputs 4.
 * Replicated across TP ranks without SP: both block inputs, both dropout
 * masks and the norm inputs = 10; everything else is split by t.
 * Generalised: K and V scale by g/a (GQA); a GLU MLP stores its 2F-wide first
 * linear output and F-wide activation output, 6·F/h instead of 4·F/h
 * (Megatron's report_theoretical_memory uses 18 + 4·F/h for every MLP, which
 * understates SwiGLU); a MoE layer stores that for k routed experts plus the
 * shared ones, plus the k permuted copies of its input (2k; 2k·He/h with
 * LatentMoE, whose combined output, the up projection's input, adds
 * 2·He/h); MLA adds its latent vectors.  FlashAttention keeps no s²
 * tensors (Dao et al. 2022).  Context parallelism splits s over c (each
 * rank's scores are (s/c)×s).
 * With dropout probability 0 (workload no_dropout) no mask is kept: PyTorch's
 * dropout returns its input unchanged when p = 0 (ATen native/Dropout.cpp
 * _dropout_impl), so the two 1-byte masks (and the softmax's as²b one) go.
 * Per block (a hybrid layer holds one): its input, its norm's input and
 * dropout mask are the replicated 4 + 1.  A Mamba-2 block keeps, split by
 * t, its in_proj output (z, x, B, C, dt: 2·in_proj/h), the SSD output and
 * the gated norm's output (out_proj's input, 2·d_inner/h each) and dt and
 * its cumulative decay in fp32 (2 × 4·heads/h): what mamba_ssm's
 * MambaSplitConv1dScanCombinedFn saves, the conv1d and the chunk states
 * being recomputed in its backward (ops/triton/ssd_combined.py). */
static double shape_act_layer(const Shape *sh, double s, double b, int t, int c, bool sp,
                              Recompute r, bool flash, int kind)
{
    double sl = s / c;
    double sbh = sl * b * sh->h;
    bool at = kind & K_ATTN, moe = kind & K_MOE, ffn = kind & (K_MLP | K_MOE);
    bool mb = kind & K_MAMBA;
    /* the attention call saves its K/V inputs: copied out to the query
     * heads (kv_rep), a heads wide */
    double kvr = sh->mla || sh->kv_rep ? 1.0 : sh->g / sh->a;
    double attn_split = at ? 4.0 + 4.0 * kvr + 2.0 * sh->ew_attn_extra : 0.0;
    double actw = sh->glu ? 6.0 : 4.0;
    double mlp_split = !ffn ? 0.0
                       : moe ? sh->k * actw * sh->Fe / sh->h + 2.0 * sh->k * sh->He / sh->h +
                                   sh->S * actw * sh->Fe / sh->h +
                                   (sh->lat_w > 0 ? 2.0 * sh->He / sh->h : 0.0)
                             : actw * sh->F / sh->h;
    double mamba_split = mb ? (2.0 * sh->md.in_proj + 4.0 * sh->md.d_inner +
                               8.0 * sh->md.heads) / sh->h
                            : 0.0;
    double rep = kind_blocks(kind) * (4.0 + sh->drop_masks);
    double core = flash || !at ? 0.0 : (4.0 + sh->drop_masks) * sh->a * s / sh->h;
    if (r == RECOMPUTE_FULL)
        return 2.0 * sbh / (sp ? t : 1);     /* only the layer input is kept */
    /* Selective recompute drops what its modules re-run (sel_modules):
     *  - core_attn: the s² scores, softmax and mask of an unfused core
     *    (FlashAttention keeps none; its Q/K/V inputs and output stay, held
     *    by the projections around it);
     *  - norms (sel_norms): their outputs, the QKV and MLP inputs (2 each;
     *    a Mamba block's norm is not one of the modules);
     *  - the activation function's output, 2·F/h per MLP (RM_ACT_ALL: the
     *    dense, routed and shared ones; moe_act: the routed experts');
     *  - mlp: the dense MLP's whole split part and its norm output (Transformer
     *    Engine's LayerNormMLP holds the norm inside the checkpointed module);
     *  - moe: everything the MoE layer keeps (its experts, permuted copies);
     *  - shared_experts: the shared experts' part;
     *  - mla_up_proj: MLA's up-projected Q, K and V (the latents stay). */
    unsigned rm = sel_modules(sh, r, flash);
    if (rm & RM_EVERY_OTHER_MM)
        return shape_act_every_other_mm(sh, s, b, t, c, sp, kind);
    bool dense = ffn && !moe;
    bool mlp_re = dense && (rm & RM_MLP);
    bool dense_act_re = dense && (rm & (RM_ACT_ALL | RM_MLP));
    /* the QKV input's norm, the MLP input's (or the dense MLP recomputed) */
    bool qkv_norm_re = at && ((rm & RM_NORM_ALL) || (sh->mla && (rm & RM_LAYERNORM)));
    bool mlp_norm_re = ffn && ((rm & RM_NORM_ALL) || (moe && (rm & RM_LAYERNORM)) || mlp_re);
    if (rm & RM_CORE_ATTN)
        core = 0.0;
    rep -= 2.0 * ((qkv_norm_re ? 1.0 : 0.0) + (mlp_norm_re ? 1.0 : 0.0));
    if (mlp_re)
        mlp_split = 0.0;
    else if (dense && (rm & RM_ACT_ALL))
        mlp_split -= 2.0 * sh->F / sh->h;
    if (moe && (rm & RM_MOE)) {
        mlp_split = 0.0;
    } else if (moe) {
        if (rm & (RM_ACT_ALL | RM_MOE_ACT))
            mlp_split -= sh->k * 2.0 * sh->Fe / sh->h;
        if (rm & RM_SHARED_EXPERTS)
            mlp_split -= sh->S * actw * sh->Fe / sh->h;
        else if (rm & RM_ACT_ALL)
            mlp_split -= sh->S * 2.0 * sh->Fe / sh->h;
    }
    if (at && sh->mla && (rm & RM_MLA_UP_PROJ))
        attn_split -= 2.0 + 4.0 * kvr;
    /* Transformer Engine's GroupedLinear, the routed experts' fc1 and fc2
     * (Megatron-Core TEGroupedMLP), keeps only the column-wise quantised
     * copy of its input for the weight gradient ("Wgrad only consumes the
     * columnwise representation": pytorch/module/grouped_linear.py, TE
     * 2026-03 … d0067d0da, inputmat.update_usage(rowwise_usage=False,
     * columnwise_usage=True)): the k permuted copies (fc1's input) and the
     * activation output (fc2's) at saved_qe bytes.  Under moe_act
     * recompute Megatron-Core has fc2 save its original input, which the
     * recompute then discards (moe/experts.py set_save_original_input):
     * nothing of it is kept either way. */
    if (moe && sh->saved_qe > 0 && !(rm & RM_MOE)) {
        double d = 2.0 - sh->saved_qe;
        mlp_split -= d * sh->k * sh->He / sh->h;
        if (!(rm & (RM_ACT_ALL | RM_MOE_ACT)))
            mlp_split -= d * sh->k * sh->Fe / sh->h;
    }
    if (sh->saved_q > 0) {
        /* Transformer Engine's FP8 modules save the FP8-cast GEMM input for
         * the backward, not the 16-bit tensor (TE v1.11, also ROCm/
         * TransformerEngine ifu_release_v1.11, pytorch/module/):
         * LayerNormLinear and LayerNormMLP write the norm output as uint8
         * (ln_out_dtype = torch.uint8 when fp8) and save that ln_out;
         * LayerNormMLP's activation writes its output in FP8 (GEMM2_INPUT)
         * and saves gelu_out beside the 16-bit fc1_out; Linear saves the
         * FP8 input (or only its FP8 transpose, fp8_cast_transpose_fused)
         * as saved_inputmat(_t).  So the two norm outputs (QKV and MLP
         * inputs) and the dense MLP's activation output are kept in 1 byte,
         * unless selective recompute already dropped them.  The attention
         * projection's input is the attention core's output: a fused
         * (Flash) attention kernel saves it in 16 bits for its own backward
         * and the projection adds its 1-byte copy (+1); unfused, only the
         * projection keeps it (2 -> 1).  MoE layers: only the QKV input
         * (the expert GEMMs' saved inputs were not checked); Mamba-2 blocks:
         * the in_proj input (a LayerNormLinear too).  NVFP4: the same
         * tensors at saved_q bytes (0.5 + a scale per block). */
        double d = 2.0 - sh->saved_q;
        rep -= d * ((at && !qkv_norm_re ? 1.0 : 0.0) + (dense && !mlp_norm_re ? 1.0 : 0.0));
        if (dense && !dense_act_re)
            mlp_split -= d * sh->F / sh->h;
        if (mb)
            rep -= d;
        if (at)
            attn_split += flash ? sh->saved_q : -d;
    }
    double split = attn_split + mlp_split + mamba_split + core;
    if (sp)
        return sbh * (rep + split) / t;
    return sbh * (rep + split / t);
}

/* Activation bytes of one layer when only the weight GEMMs' outputs are
 * saved (MaxText remat_policy minimal = jax.checkpoint_policies.
 * checkpoint_dots_with_no_batch_dims; frameworks.yaml
 * selective_reruns_attention), per micro-batch per GPU, in s·b·h units of
 * 16-bit values as above: the layer input (2, the scan carry), Q, K and V
 * (2·a·dqk/h, 2·g·dqk/h, 2·g·dv/h), the attention output projection's
 * output (2) and the MLP's first GEMM output (2·F/h, 4·F/h with GLU; a MoE
 * layer's for its k routed and S shared experts, and its k permuted input
 * copies, He wide, after LatentMoE's down projection, whose output is one
 * more).  Norm outputs, the attention core (a Pallas kernel, or a batched
 * dot), its output and the activation function are recomputed, and the
 * MLP's last GEMM output only feeds the residual stream, so it is not a
 * residual.  The input and the projection output are [b, s, h]: split by
 * t with sequence parallelism (MaxText shards activation_embed over the
 * tensor axis, base.yml), replicated without. */
static double shape_act_dots(const Shape *sh, double s, double b, int t, int c, bool sp,
                             int kind)
{
    double sl = s / c;
    double sbh = sl * b * sh->h;
    bool at = kind & K_ATTN, ffn = kind & (K_MLP | K_MOE), mb = kind & K_MAMBA;
    double qkv = at ? 2.0 * (sh->a * sh->dqk + sh->g * sh->dqk + sh->g * sh->dv) / sh->h : 0.0;
    double w1 = sh->glu ? 4.0 : 2.0;
    double mlp = !ffn ? 0.0
                 : kind & K_MOE ? (sh->k + sh->S) * w1 * sh->Fe / sh->h +
                                      (2.0 * sh->k + (sh->lat_w > 0 ? 2.0 : 0.0)) * sh->He / sh->h
                                : w1 * sh->F / sh->h;
    /* a Mamba-2 block: the in_proj output and out_proj's */
    double mam = mb ? 2.0 * sh->md.in_proj / sh->h : 0.0;
    double rep = 2.0 + (at ? 2.0 : 0.0) + (mb ? 2.0 : 0.0);
    if (sp)
        return sbh * (rep + qkv + mlp + mam) / t;
    return sbh * (rep + (qkv + mlp + mam) / t);
}

/* The average layer's activations: each kind of layer by its share. */
static double shape_act_avg(const Shape *sh, double s, double b, int t, int c, bool sp,
                            Recompute r, bool flash)
{
    double a = 0;
    for (int i = 0; i < sh->nkinds; i++)
        a += sh->kinds[i].share *
             shape_act_layer(sh, s, b, t, c, sp, r, flash, sh->kinds[i].mask);
    return a;
}

static double shape_dots_avg(const Shape *sh, double s, double b, int t, int c, bool sp)
{
    double a = 0;
    for (int i = 0; i < sh->nkinds; i++)
        a += sh->kinds[i].share * shape_act_dots(sh, s, b, t, c, sp, sh->kinds[i].mask);
    return a;
}

double train_activation_bytes(const ModelShape *m, double s, double b, int t, int c, bool sp,
                              Recompute r, bool flash)
{
    Shape sh;
    if (!shape_derive(m, &sh) || !(s > 0) || !(b > 0) || t < 1 || c < 1)
        return 0;
    return shape_act_avg(&sh, s, b, t, c, sp, r, flash);
}

/* ------------------------------------------------------------ environment */

typedef struct {
    const Plan *p;
    const Workload *w;
    const Accelerator *a;
    Shape sh;
    double s, B;
    double peak;           /* dense peak at the workload's precision, at the sustained clock */
    double peak_quoted;    /* the same at the quoted clock: MFU's denominator */
    double peak16;         /* bf16 peak: attention core */
    double gemm_scale;     /* FP8_GEMM_FACTOR for fp8/fp4, else 1 */
    bool lowp;             /* GEMMs at the fp8/fp4 peak (casts costed, fp8 class): not
                            * gemm_scale < 1, which a fitted fp8_gemm_factor of 1 defeats */
    double hbm_cap;        /* usable bytes */
    double hbm_bw;         /* catalog, or estimated from the peak when absent */
    double ew_bw;          /* hbm_bw × elementwise_eff */
    double host_bw;        /* GPU <-> host, one direction (activation offload) */
    int offload_auto;      /* layers per stage the search offloads where nothing fits
                            * without (offload_fallback); 0 = the workload's */
    double wb, gb, ob;     /* bytes/param: weights, grads, optimizer */
    int zero;
    int zero_pp;             /* the stage under pipeline parallelism: zero, or with zero
                              * auto the framework's there (env_zero) */
    bool zero_fb;          /* zero is the framework's dp_sharding_fallback: nothing fit
                            * with its default (shard_fallback) */
    int zero_fb_stage;     /* that stage where the search may take it (zero auto, no
                            * fixed MFU); -1 none */
    bool offload_search;   /* the search may offload activations (activation_offload,
                            * offload_layers unset, no fixed MFU) */
    bool flash;
    int gpn;               /* GPUs per node */
    int domain;            /* scale-up domain */
    double su_bw, su_lat;
    double so_bw, so_bw_x, so_lat; /* scale-out: within a leaf, crossing it */
    double leaf_nodes;     /* nodes whose same-rail traffic stays under one leaf */
    /* candidates */
    int tc[16], nt;
    int cc[16], nc;
    int ec[16], ne;
    int pc[MAX_CAND], np;  /* sizing: divisors of L, powers of two, 3·2^k */
    int pa[MAX_CAND], npa; /* fixed GPU count: every depth up to 128 stages */
    int bc[8], nb;
    int vfix;              /* 0 = search */
    int rc[3], nr;
    bool rc_default;       /* rc is the framework's recompute_default (recompute auto) */
    int spfix;             /* -1 search */
    double mtbf_gpu_s;
    double restart_s;
    /* framework profile (catalog frameworks:, "<fw>@<accelerator>" first) */
    const Framework *fw;
    char fw_id[CAT_ID_LEN];
    double fw_gemm;        /* × the GEMM efficiency curve */
    double tp_ov;          /* share of TP collectives hidden under GEMMs */
    bool tp_fwd_only;      /* ... of the forward-direction ones only (tp_overlap_forward_only) */
    double dp_ov;          /* share of the DP sync that can hide under compute */
    double ep_ov;          /* default share of EP all-to-alls hidden */
    double layer_oh;       /* seconds per layer per pass */
    double step_oh;        /* seconds per step (framework step_overhead_ms) */
    double moe_oh;         /* MoE overhead per routed token copy, h-wide passes */
    double moe_layer_oh;   /* seconds per MoE layer per pass */
    double moe_expert_oh;  /* seconds per local expert per MoE layer per pass */
    double moe_attn_oh;    /* seconds per MoE layer per pass: eager attention launches */
    bool moe_fused;        /* permutation fused into dispatch/combine (DeepEP) */
    double disp_b;         /* bytes per element of the MoE dispatch all-to-all */
    double moe_cf;         /* > 0: token drop, experts padded to capacity (workload) */
    bool moe_rr;           /* round-robin benchmark routing (workload moe_round_robin) */
    bool whole_program;    /* compiler-assigned buffers (XLA): framework profile */
    bool remat_dce;        /* full recompute skips what the backward does not consume */
    bool unit_coll;        /* ZeRO-2 collectives per wrapped unit (framework) */
    bool pp_unshard;       /* FSDP units kept gathered under PP (framework pp_fsdp_unsharded) */
    bool cp_torch;         /* CP by PyTorch's ring attention (framework cp_torch_ring) */
    double cp_ov;          /* share of the attention core the CP traffic may hide under:
                            * CP_OVERLAP, 0 with workload cp_comm_exposed */
    double logit_b;        /* bytes per logit kept for the loss's backward (profile) */
    bool sel_core;         /* selective recompute re-runs the FlashAttention core */
    double ag_b;           /* bytes per parameter of the DP all-gather (ZeRO 1-2) */
    double rs_b;           /* bytes per gradient of the DP reduction */
    double tp_ag_b;        /* bytes per element of the SP all-gathers (TP) */
    double step_scale;     /* × the whole step (calibrated site factor) */
    double band_scale;     /* × the step and its per-step host cost: a sensitivity
                            * point's position in the class's error band */
    int etp;               /* > 0: MoE parallel folding with this expert TP */
    double win_frac;       /* attention-core share left by sliding windows (1 = none) */
    double attn_fwd, attn_bwd; /* fused attention efficiencies (catalog), 0 = none */
    const Curve *attn_fwd_seq, *attn_bwd_seq; /* that kernel's measured sweep over sequence
                                               * lengths (catalog attn_cudnn_*_seq), NULL =
                                               * accelerator_attn_seq_factor's law */
    const char *attn_src;  /* which catalog figures those are, for the assumptions */
    bool uf_clamp;         /* GLU clamp as eager passes (model glu_clamp, framework) */
    bool uf_bias;          /* expert output bias by eager per-expert ops (linear_bias) */
    bool uf_rope;          /* YaRN RoPE by eager ops (model yarn_factor, framework) */
    bool eg_rope;          /* plain RoPE by eager complex ops (framework eager_rope) */
    bool eg_glu;           /* the GLU as two eager ops (framework eager_glu) */
    bool eg_norm;          /* the norms as eager fp32 ops (workload eager_norm) */
    bool eg_loss;          /* the loss as eager ops on fp32 logits (workload eager_loss) */
    bool tp_fp4_off;       /* tp_ov is 0 for this FP4 run by the profile's fp4_tp_exposed */
} Env;

static bool is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

/* Price the attention core at a fused kernel's measured shares of the peak
 * (forward, backward) when the catalog gives both; src names them in the
 * assumptions.  False, and e unchanged, when they are missing. */
static bool env_take_attn(Env *e, double fwd, double bwd, const char *src)
{
    if (!(fwd > 0 && fwd <= 1 && bwd > 0 && bwd <= 1))
        return false;
    e->attn_fwd = fwd;
    e->attn_bwd = bwd;
    e->attn_src = src;
    e->attn_fwd_seq = NULL;
    e->attn_bwd_seq = NULL;
    return true;
}

/* The forward's share of the peak depends on the Q/K head dim: per score
 * element it runs 4·d tensor-core FLOPs (QK^T and PV) and one exponential,
 * and Blackwell's exponential units match its tensor cores near d = 128, so
 * at d = 64 the forward is bound by the exponentials (FlashAttention-4
 * paper, Zadouri et al., §2-3: "asymmetric hardware scaling").  The catalog
 * gives the factor of one kernel measured at both dims (attn_fwd_head_dim);
 * the backward (five matmuls per exponential) keeps its share. */
static void env_attn_head_dim(Env *e, const Accelerator *a)
{
    if (a->attn_fwd_head_dim.n > 0) {
        double k = curve_eval(&a->attn_fwd_head_dim, e->sh.dqk);
        if (k > 0)
            e->attn_fwd *= k;
    }
}

static double env_curve(const Env *e, double x)
{
    double y = e->a->gemm_eff.n > 0 ? curve_eval(&e->a->gemm_eff, x) : GEMM_EFF_DEFAULT;
    y *= e->fw_gemm; /* the framework's kernels (catalog frameworks: gemm_scale) */
    if (!(y > 0.01))
        y = 0.01;
    if (y > 1)
        y = 1;
    return y;
}

/* Micro-batches per step: B over micro-batch × the data-parallel replicas
 * of the dense layers (d·e without folding, d with it). */
static double layout_micro(double B, const Layout *l)
{
    return B / ((double)l->micro_batch * l->dp * (l->etp > 0 ? 1 : l->ep));
}

/* Data-parallel groups: dense weights replicate over d·c (·e unfolded),
 * routed experts over the expert-DP ranks, d·c unfolded or t·c·d/(etp·ep)
 * folded (Megatron-Core MoE parallel folding, Liu et al. 2025). */
static int layout_dense_dp(const Layout *l)
{
    return l->dp * l->cp * (l->etp > 0 ? 1 : l->ep);
}

static int layout_expert_dp(const Layout *l)
{
    if (l->etp > 0) {
        long long n = (long long)l->tp * l->cp * l->dp / ((long long)l->etp * l->ep);
        return n > 0 ? (int)n : 1;
    }
    return l->dp * l->cp;
}

static double layout_eshard(const Layout *l)
{
    return (double)(l->etp > 0 ? l->etp : l->tp) * l->ep;
}

/* The factor ep contributes to the GPU count: none when folded. */
static int ep_dim(const Env *e, int ep)
{
    return e->etp > 0 ? 1 : ep;
}

/* Bandwidth and latency of a collective among `n` ranks spaced `stride`
 * apart in the rank order (TP fastest, then CP, EP, DP, PP — Megatron's
 * default order) of layout l: NVLink when the group lies inside one
 * scale-up domain, else the scale-out fabric, crossing a leaf when the
 * group's nodes outnumber those under one leaf.  A scale-up domain may
 * span nodes (GB200 NVL72: 18 trays of 4 GPUs on one NVLink switch
 * fabric; CATALOG-FACTS §3.1/§5.1): a group whose span (n × stride
 * consecutive ranks) fits the domain is placed inside one — Slurm's
 * topology/block plugin allocates NVL72 racks as blocks and `--segment`
 * keeps each segment of a job (e.g. 16 trays = 64 GPUs) inside one rack,
 * so power-of-two groups never straddle two racks. */
static void env_link(const Env *e, const Layout *l, int n, long long stride, bool rail, double *bw,
                     double *lat)
{
    (void)l; /* placement is per group; the layout is kept for callers' symmetry */
    long long span = (long long)n * stride;
    if (accel_on_scaleup(e->a, span)) { /* the node's NVLink, or a multi-node domain (NVL72) */
        *bw = e->su_bw;
        *lat = e->su_lat;
        return;
    }
    double nodes = (double)span / e->gpn;
    bool crosses = !rail || nodes > e->leaf_nodes;
    /* With r group members per NVLink domain NCCL runs r rings, one per
     * NIC, each threading the domain's members over NVLink and leaving it
     * through one NIC, so the domain's r NICs carry the inter-domain
     * traffic together, pipelined with the NVLink hops: per-rank bandwidth
     * r × NIC, at most the NVLink rate (nccl-tests #290: 46–48 GB/s per NDR
     * NIC, ~370–385 GB/s per 8-NIC node, CATALOG-FACTS §5.2).  The unit is
     * the NVLink domain, not the node (on a multi-node NVLink system NCCL
     * logs each GPU's MNNVL clique, NVIDIA/nccl#1769): on GB200 NVL72
     * partitions in three racks (IB between them, NCCL 2.27.3) the ring
     * all-reduce busbw is 196.7 GB/s with 4 GPUs per partition and 393.7
     * GB/s with 8 — 49.2 GB/s per member's NIC, r × NIC with r the members
     * per domain, not per 4-GPU tray (NVIDIA/nccl#1801).  Phases adding
     * instead (NVLink, then 1/r of the volume per NIC) would give 155 / 257
     * GB/s there with the NVLink ring at 740 GB/s (900 GB/s × the 370/450
     * ring efficiency of CATALOG-FACTS §5.2).  On 8-GPU nodes domain =
     * node: unchanged. */
    long long unit = e->domain > e->gpn ? e->domain : e->gpn;
    double r = stride < unit ? (double)(unit / stride) : 1.0;
    if (r > n)
        r = n;
    double bw_net = r * (crosses ? e->so_bw_x : e->so_bw);
    *bw = bw_net < e->su_bw ? bw_net : e->su_bw;
    *lat = e->so_lat;
}

/* ------------------------------------------------------------ memory */

typedef struct {
    double pd, pe;         /* dense / expert params held by one GPU (first stage) */
    double pd_last, pe_last;
    double pd_mid, pe_mid; /* a stage of `lps` layers without embedding or head */
} StageParams;

static int stage_layers(const Shape *sh, int p)
{
    int L = (int)sh->L;
    return (L + p - 1) / p;
}

/* Layer slots of the fullest pipeline stage.  With the workload's
 * pipeline_split_embedding_loss (Megatron-Core
 * account_for_embedding_in_pipeline_split + account_for_loss_in_pipeline_split,
 * which Megatron-Bridge's Llama 3.1 405B recipe sets: recipes/llama/llama3.py
 * llama31_405b_pretrain_config) the split counts L + 2 slots, the embedding
 * taking the first stage's first slot and the loss the last stage's last
 * (megatron/core/transformer/transformer_block.py get_num_layers_to_build):
 * 126 layers on PP16 × VP8 is one slot per chunk, the first and last stage
 * holding 7 layers, the others 8. */
static int env_stage_slots(const Env *e, int p)
{
    int L = workload_pipeline_slots(e->w, (int)e->sh.L, p);
    return (L + p - 1) / p;
}

/* Parameters of one GPU's stage of `lps` layers; experts are sharded over
 * `eshard` GPUs of the layer (expert TP × EP). */
static void stage_params_n(const Shape *sh, int t, int p, double lps, double eshard,
                           StageParams *sp)
{
    double dense_layer = sh->layer_dense_w / t;
    double expert_layer = sh->Lm / sh->L * sh->E * sh->expert_w / eshard;
    double pd = lps * dense_layer, pe = lps * expert_layer;
    /* Embedding on the first stage, output head on the last; with tied
     * embeddings Megatron keeps a copy of the embedding on the last stage. */
    double head = sh->tied ? sh->emb_w : sh->head_w;
    double k = sh->wscale;
    sp->pd = k * (pd + sh->emb_w / t);
    sp->pe = k * pe;
    /* the MTP modules sit on the last stage */
    double mtp_d = sh->mtp * sh->mtp_w / t, mtp_e = sh->mtp * sh->mtp_we / eshard;
    sp->pd_last = k * (pd + head / t + sh->h + mtp_d);
    sp->pe_last = k * (pe + mtp_e);
    sp->pd_mid = k * pd;
    sp->pe_mid = k * pe;
    if (p == 1) {
        sp->pd = k * (pd + (sh->emb_w + sh->head_w) / t + sh->h + mtp_d);
        sp->pe = sp->pe_last;
        sp->pd_last = sp->pd;
    }
}

static void stage_params(const Shape *sh, int t, int p, double eshard, StageParams *sp)
{
    stage_params_n(sh, t, p, stage_layers(sh, p), eshard, sp);
}

/* Layers per stage whose activations are offloaded to host memory: the
 * workload's offload_layers (else what the search chose, offload_auto), at
 * most the stage's layers. */
static double env_offload_layers(const Env *e, const Layout *l)
{
    int k = e->w->offload_layers > 0 ? e->w->offload_layers : e->offload_auto;
    int lps = stage_layers(&e->sh, l->pp);
    return k <= 0 ? 0.0 : (double)(k < lps ? k : lps);
}

/* Share of a stage's layers that recompute their forward when the layout
 * says recompute full: the workload's recompute_layers per stage (Megatron
 * --recompute-method block --recompute-num-layers N; torchtitan's layer-wise
 * selective AC, selective_ac_option "k", wraps every k-th transformer block
 * in a full checkpoint and leaves the others un-checkpointed, torchtitan
 * parallelisms/parallelize_llama.py _apply_ac_to_transformer_block), the
 * other layers keeping all their activations; 1 = every layer. */
static double env_recompute_share(const Env *e, const Layout *l)
{
    int k = e->w->recompute_layers;
    if (l->recompute != RECOMPUTE_FULL || k <= 0)
        return 1.0;
    int lps = stage_layers(&e->sh, l->pp);
    return k >= lps ? 1.0 : (double)k / lps;
}

/* True when the layout's FSDP units stay gathered for the whole step
 * (framework pp_fsdp_unsharded: FSDP2 under torch.distributed.pipelining,
 * zero 2 or 3 with pp > 1): the sharding is then ZeRO-1's (env_zero), the
 * gradients held at the reduce precision (env_grad_b). */
static bool env_pp_unsharded(const Env *e, const Layout *l)
{
    return e->pp_unshard && l->pp > 1 && e->zero >= 2;
}

/* The ZeRO stage the layout runs at (env_pp_unsharded: 1; with pp > 1,
 * zero_pp). */
static int env_zero(const Env *e, const Layout *l)
{
    return env_pp_unsharded(e, l) ? 1 : l->pp > 1 ? e->zero_pp : e->zero;
}

/* Bytes per gradient held between micro-batches: FSDP2 accumulates an
 * unsynced gradient in its reduce dtype (env_pp_unsharded). */
static double env_grad_b(const Env *e, const Layout *l)
{
    return env_pp_unsharded(e, l) && e->rs_b > e->gb ? e->rs_b : e->gb;
}

/* An eager loss's bytes a (local) logit: live at its backward's peak and
 * moved by its passes — torch's loss_parallel with TP, the plain ops
 * without (EAGER_CE_*, LOSS_PARALLEL_*). */
static double eager_loss_peak_b(const Layout *l)
{
    return l->tp > 1 ? LOSS_PARALLEL_PEAK_BYTES : EAGER_CE_PEAK_BYTES;
}

static double eager_loss_pass_b(const Layout *l)
{
    return l->tp > 1 ? LOSS_PARALLEL_PASS_BYTES : EAGER_CE_PASS_BYTES;
}

/* Activation bytes of an average layer of the stage per micro-batch, the
 * recomputed and the other layers mixed by env_recompute_share. */
static double env_act_layer(const Env *e, const Layout *l)
{
    const Shape *sh = &e->sh;
    double act = shape_act_avg(sh, e->s, l->micro_batch, l->tp, l->cp, l->sp, l->recompute,
                               e->flash);
    double share = env_recompute_share(e, l);
    if (share < 1.0)
        act = share * act + (1.0 - share) * shape_act_avg(sh, e->s, l->micro_batch, l->tp, l->cp,
                                                           l->sp, RECOMPUTE_NONE, e->flash);
    return act;
}

/* Memory of one stage of `lps` layers. inflight: micro-batches whose
 * activations it keeps; first: it holds the embedding. */
static void mem_stage(const Env *e, const Layout *l, double lps, double pd, double pe,
                      double inflight, bool first, bool last, TrainMemory *m)
{
    const Shape *sh = &e->sh;
    double Dd = layout_dense_dp(l), De = layout_expert_dp(l);
    int z = env_zero(e, l);
    /* kept gathered for the step: at the gathered precision (FP8 with an
     * FP8 weight gather) */
    double wb = env_pp_unsharded(e, l) ? e->ag_b : e->wb;
    m->weights = wb * (pd / (z >= 3 ? Dd : 1) + pe / (z >= 3 ? De : 1));
    m->gradients = env_grad_b(e, l) * (pd / (z >= 2 ? Dd : 1) + pe / (z >= 2 ? De : 1));
    m->optimizer = e->ob * (pd / (z >= 1 ? Dd : 1) + pe / (z >= 1 ? De : 1));
    double act = env_act_layer(e, l);
    if (e->sel_core && l->recompute == RECOMPUTE_SELECTIVE && !sh->mla) {
        /* selective = keep the weight GEMMs' outputs only (MaxText minimal) */
        act = shape_dots_avg(sh, e->s, l->micro_batch, l->tp, l->cp, l->sp);
    }
    /* Activation offloading (Megatron cpu_offloading_num_layers): the
     * offloaded layers' activations of every in-flight micro-batch wait in
     * host memory; the GPU keeps a copy buffer of OFFLOAD_BUFFER_LAYERS. */
    double off = env_offload_layers(e, l);
    if (off > lps)
        off = lps;
    double kept = lps - off + (off > 0 ? (off < OFFLOAD_BUFFER_LAYERS ? off : OFFLOAD_BUFFER_LAYERS) / inflight : 0);
    double acts = act * kept * inflight;
    /* one layer's full working set while recomputing */
    double work = l->recompute == RECOMPUTE_FULL
                      ? shape_act_avg(sh, e->s, l->micro_batch, l->tp, l->cp, l->sp,
                                      RECOMPUTE_NONE, e->flash)
                      : 0.0;
    double sl = e->s / l->cp, bt = l->micro_batch;
    /* the logits the loss keeps for its backward: an fp32 softmax for
     * Megatron-Core's vocab-parallel cross-entropy (Korthikanti §4.3;
     * MaxText casts its logits to fp32 too: cast_logits_to_fp32), the 16-bit
     * logits themselves for Transformer Engine's parallel_cross_entropy,
     * which saves its input and turns it into the gradient in place
     * (transformer_engine/pytorch/cross_entropy.py; framework logits_bytes) */
    double n_logits = last ? sl * bt * sh->V / l->tp : 0.0;
    if (last && sh->mtp > 0) {
        /* the MTP modules: each its block's activations per in-flight
         * micro-batch and its own logits */
        acts += sh->mtp * inflight *
                shape_act_layer(sh, e->s, bt, l->tp, l->cp, l->sp, l->recompute, e->flash,
                                sh->mtp_kind);
        n_logits *= 1.0 + sh->mtp;
    }
    double logits = e->logit_b * n_logits;
    if (e->whole_program)
        /* One compiled program (XLA): the logits and the cross-entropy's
         * residuals die at their last use, the logits GEMM's backward, which
         * produces the cotangent the decoder's backward starts from — so no
         * layer is being recomputed while they live; the peak is the larger
         * of the two phases. */
        acts += work > logits ? work : logits;
    else if (e->eg_loss)
        /* an eager loss's peak comes before any layer is recomputed, at
         * the loss's own backward */
        acts += fmax(work + logits, eager_loss_peak_b(l) * n_logits);
    else
        acts += work + logits;
    if (first && !last) /* embedding dropout mask per in-flight micro-batch */
        acts += sh->drop_masks * sl * bt * sh->h * inflight / (l->sp ? l->tp : 1);
    m->activations = acts;
    /* CUDA context, library workspaces and the caching allocator's slack;
     * a compiled program's buffers are placed by the compiler inside the
     * runtime's limit (the catalog's usable HBM), with nothing beside them. */
    double other = e->whole_program
                       ? 0.0
                       : MEM_FIXED_BYTES +
                             MEM_FRAG_FRAC * (m->weights + m->gradients + m->optimizer + acts);
    if (z >= 3 && lps > 0) /* ZeRO-3 prefetch: two layers' unsharded 16-bit weights */
        other += 2.0 * e->wb * (pd + pe) / lps;
    m->other = other;
    m->total = m->weights + m->gradients + m->optimizer + m->activations + m->other;
}

static void env_memory(const Env *e, const Layout *l, TrainMemory *out)
{
    StageParams sp;
    stage_params(&e->sh, l->tp, l->pp, layout_eshard(l), &sp);
    double m = layout_micro(e->B, l);
    double inflight = l->pp < m ? l->pp : m;
    if (l->vpp > 1) /* interleaved 1F1B: Narayanan et al. 2021 §2.2.2 */
        inflight *= 1.0 + (l->pp - 1.0) / ((double)l->pp * l->vpp);
    TrainMemory first, last;
    double lps = stage_layers(&e->sh, l->pp);
    bool split = e->w->pipeline_split_embedding_loss && l->pp > 1;
    if (split) {
        lps = env_stage_slots(e, l->pp);
        stage_params_n(&e->sh, l->tp, l->pp, lps - 1, layout_eshard(l), &sp);
    }
    mem_stage(e, l, split ? lps - 1 : lps, sp.pd, sp.pe, inflight, true, l->pp == 1, &first);
    if (l->pp == 1) {
        *out = first;
        return;
    }
    /* the last stage runs each micro-batch's backward right after its
     * forward: one micro-batch in flight */
    mem_stage(e, l, split ? lps - 1 : lps, sp.pd_last, sp.pe_last, 1.0, false, true, &last);
    *out = first.total >= last.total ? first : last;
    if (split && l->pp > 2) {
        /* The second stage holds a full stage of layers with one micro-batch
         * fewer in flight (two fewer chunks interleaved: rank r warms up
         * 2(p − r − 1) + (v − 1)p chunks, Megatron-Core
         * pipeline_parallel/schedules.py), which can outweigh the first
         * stage's one layer fewer. */
        StageParams full;
        stage_params_n(&e->sh, l->tp, l->pp, lps, layout_eshard(l), &full);
        double in1 = inflight - (l->vpp > 1 ? 2.0 / l->vpp : 1.0);
        TrainMemory mid;
        mem_stage(e, l, lps, full.pd_mid, full.pe_mid, in1 > 1 ? in1 : 1.0, false, false, &mid);
        if (mid.total > out->total)
            *out = mid;
    }
}

/* ------------------------------------------------------------ step time */

typedef struct {
    StepBreakdown st;
    double step;
    double gemm_eff;       /* efficiency applied to the dense GEMMs */
    double gemm_x;         /* curve abscissa used */
    double flops_exec;     /* FLOPs executed per GPU per step (incl. recompute) */
} StepEval;

static double elementwise_fwd_bytes(const Env *e, const Layout *l, double T, int kind)
{
    const Shape *sh = &e->sh;
    double t = l->tp;
    bool at = kind & K_ATTN, ffn = kind & (K_MLP | K_MOE), mb = kind & K_MAMBA;
    /* Per token, 16-bit elements, per block: its norm (read+write h = 2h),
     * its residual add with fused bias-dropout (read 2h, write h, 1-byte
     * mask ≈ 0.5h = 3.5h) — 5.5h, 11h for a plain layer's two blocks,
     * split by t only with SP (otherwise every TP rank does it on the full
     * sequence); activation function (GELU read/write F; SwiGLU read 2F
     * write F), split by t. */
    double rep = 5.5 * kind_blocks(kind) * sh->h / (l->sp ? t : 1);
    double actw = sh->glu ? 3.0 : 2.0;
    /* (a MoE layer's routing and token permutation: moe_route_bytes) */
    double act = !ffn ? 0.0
                 : kind & K_MOE ? (sh->k + sh->S) * actw * sh->Fe : actw * sh->F;
    /* Mamba-2, split by t with its heads: the causal conv1d and its SiLU
     * over x, B, C (read + write conv_dim), the gated RMSNorm (read y and
     * z, write d_inner) */
    if (mb)
        act += 2.0 * sh->md.conv_dim + 3.0 * sh->md.d_inner;
    double bytes = 2.0 * T * (rep + act / t);
    if (!e->flash && at) /* the (s/c)×s scores in 16-bit: written by QK^T, read and
                          * written by the fused scale-mask-softmax, read and written
                          * by dropout (+1-byte mask), read by the AV GEMM: ~6 passes */
        bytes += 2.0 * 6.0 * sh->a * T * e->s / t;
    return bytes;
}

/* Per micro-batch, per layer (average over dense/MoE layers), one GPU. */
typedef struct {
    double comp;           /* compute incl. recompute, seconds */
    double fwd;            /* one forward pass (for overlap bounds) */
    double core;           /* attention core fwd+bwd(+recompute) */
    double tp;             /* TP collectives */
    double cp;             /* CP K/V exchange, raw */
    double cp_hid;         /* of it hidden under the attention core */
    double ep;             /* EP all-to-alls */
    double ep_hid;         /* of them hidden under another micro-batch (raw) */
    double pair_host;      /* combined 1F1B: host work a paired layer exposes (not in comp) */
    double flops;          /* executed FLOPs */
} LayerCost;

/* *a += w × *b, field by field */
static void layer_cost_add(LayerCost *a, const LayerCost *b, double w)
{
    a->comp += w * b->comp;
    a->fwd += w * b->fwd;
    a->core += w * b->core;
    a->tp += w * b->tp;
    a->cp += w * b->cp;
    a->cp_hid += w * b->cp_hid;
    a->ep += w * b->ep;
    a->ep_hid += w * b->ep_hid;
    a->pair_host += w * b->pair_host;
    a->flops += w * b->flops;
}

/* *a = share × *a + (1 − share) × *b: the average layer when `share` of
 * the layers cost *a and the others *b (recompute_layers) */
static void layer_cost_mix(LayerCost *a, const LayerCost *b, double share)
{
    LayerCost m = {0};
    layer_cost_add(&m, a, share);
    layer_cost_add(&m, b, 1.0 - share);
    *a = m;
}

/* Experts per GPU are sharded over this many tensor ranks: the folded
 * layout's etp, else the dense TP degree (Megatron before parallel folding). */
static int expert_tp(const Layout *l)
{
    return l->etp > 0 ? l->etp : l->tp;
}

/* Tokens of a micro-batch's T one GPU routes: split over the TP ranks
 * with sequence parallelism or a folded expert layout, as the dispatcher
 * sees them. */
static double moe_routed_tokens(const Layout *l, double T)
{
    return T / (l->sp || l->etp > 0 ? l->tp : 1);
}

/* Token copies one GPU dispatches per micro-batch and MoE layer: its
 * routed tokens × k routed experts. */
static double moe_copies(const Env *e, const Layout *l, double T)
{
    return moe_routed_tokens(l, T) * e->sh.k;
}

/* The expected number of groups of `per` experts (an EP rank's local
 * experts, a scale-up domain's) that one token's k routed experts fall
 * in, of the E/per groups: k distinct experts drawn uniformly from E miss
 * a given group with probability C(E − per, k) / C(E, k) (hypergeometric;
 * DeepSeek-V3's node-limited routing would cap it, no key says so).
 * Round-robin routing (workload moe_round_robin) gives token t the k
 * consecutive experts from (t·k) mod E on: the groups that run spans,
 * averaged over the E / gcd(E, k) starts it cycles through (at most 4096
 * of them counted one by one; beyond that, or where groups do not tile
 * the experts evenly, a uniformly placed run's 1 + (k − 1)/per). */
static double moe_groups_hit(const Env *e, double per)
{
    const Shape *sh = &e->sh;
    double E = sh->E, k = sh->k;
    if (!(per > 0) || !(E >= per) || !(k >= 1))
        return 1.0;
    if (e->moe_rr) {
        long long ne = (long long)E, nk = (long long)k, pg = (long long)per;
        long long groups = ne / pg;
        if (nk >= ne || pg < 1 || groups < 1)
            return groups > 0 ? (double)groups : 1.0;
        long long a = ne, b = nk;
        while (b) {
            long long t = a % b;
            a = b;
            b = t;
        }
        long long period = ne / a, sum = 0;
        if (period > 4096 || (double)pg != per || groups * pg != ne)
            return fmin(E / per, 1.0 + (k - 1.0) / per);
        for (long long t = 0; t < period; t++) {
            long long s0 = t * nk % ne, last = s0 + nk - 1;
            long long span = last < ne ? last / pg - s0 / pg + 1
                                       : (groups - s0 / pg) + (last - ne) / pg + 1;
            sum += span < groups ? span : groups;
        }
        return (double)sum / (double)period;
    }
    /* past 4096 draws the with-replacement (1 − per/E)^k, in one step */
    double miss = 1.0;
    if (k > 4096)
        miss = exp(k * log1p(-fmin(per / E, 1.0)));
    for (int i = 0; k <= 4096 && i < (int)k && miss > 0; i++)
        miss *= (E - per - i) > 0 ? (E - per - i) / (E - i) : 0.0;
    return E / per * (1.0 - miss);
}

/* Expert load imbalance: the busiest EP rank's routed token copies over the
 * mean.  Dropless routing makes every rank wait for the busiest one at the
 * combine all-to-all.  With tokens routed independently (what the
 * published Megatron-Bridge MoE rows do: --moe-router-force-load-balancing,
 * random logits) the copies are balls thrown into ep bins: m = C·ep copies,
 * expected maximum m/n + sqrt(2·(m/n)·ln n) for m ≫ n·ln n (Raab & Steger
 * 1998, "Balls into bins — a simple and tight analysis", Thm 1), i.e.
 * 1 + sqrt(2·ln(ep)/C).  A trained router with an auxiliary loss is less
 * even than this (Wang et al. 2024, arXiv 2408.15664, MaxVio); this is the
 * floor every dropless run pays. */
static double moe_imbalance(const Env *e, const Layout *l, double T)
{
    /* Token-dropping runs padded to capacity (workload moe_capacity_factor)
     * give every expert exactly cf × its even share, dropped or padded:
     * every rank computes and sends cf × the mean. */
    if (e->moe_cf > 0)
        return e->moe_cf;
    /* round-robin routing: every expert the same count, to one token */
    if (e->moe_rr)
        return 1.0;
    double C = moe_copies(e, l, T);
    if (l->ep <= 1 || !(C > 1))
        return 1.0;
    return 1.0 + sqrt(2.0 * log((double)l->ep) / C);
}

/* Bytes one GPU moves per micro-batch and MoE layer, forward, for routing
 * and token permutation (Megatron-Core MoEAlltoAllTokenDispatcher and
 * TopKRouter; the backward moves the same again twice, as for all
 * element-wise work here):
 *  - router in fp32 (--moe-router-dtype fp32): the gating GEMM writes T×E
 *    logits, softmax/sigmoid reads and writes them, top-k and the load-
 *    balancing loss read them: 5 passes of 4 bytes per logit, plus the k
 *    probabilities (fp32) and indices (int64) per token;
 *  - permute: read T·He, write the C = T·k copies grouped by expert; un-
 *    permute: read the C copies and their probabilities, write T·He (16-bit;
 *    He = h, or the LatentMoE width: the tokens are projected first);
 *  - with EP and more than one local expert the received chunks are sorted
 *    by local expert after the dispatch and back before the combine
 *    (sort_chunks_by_idxs): read + write C·He twice, on the busiest rank's
 *    `imb` × C copies.  ("If EP size increased to the number of experts,
 *    the local token permutation/un-permutation for experts computation are
 *    omitted" — Megatron-Core MoE README, performance best practice.)
 * Frameworks whose dispatch/combine kernels gather rows straight from the
 * token tensor into expert order and reduce the weighted expert outputs in
 * place (DeepEP, DeepSeek-V3 report §3.2.2; frameworks.yaml
 * moe_fused_dispatch) move only the router's bytes here: the rows travel
 * inside the all-to-all. */
static double moe_route_bytes(const Env *e, const Layout *l, double T, double imb)
{
    const Shape *sh = &e->sh;
    double Tr = moe_routed_tokens(l, T), C = moe_copies(e, l, T);
    /* a round-robin gate computes no logits, only the weights and indices */
    double router = (e->moe_rr ? 0.0 : 4.0 * 5.0 * Tr * sh->E) + (4.0 + 8.0) * C;
    if (e->moe_fused)
        return router;
    double permute = 2.0 * (Tr + C) * sh->He + 2.0 * (C + Tr) * sh->He + 4.0 * C;
    double local = sh->E / (l->ep > 0 ? l->ep : 1);
    double sort = l->ep > 1 && local > 1 ? 2.0 * 2.0 * 2.0 * imb * C * sh->He : 0;
    return router + permute + sort;
}

/* Wave quantisation of one GEMM's output tiles (NVIDIA, "Matrix
 * Multiplication Background User's Guide", DU-09799-001, §3.2): cuBLAS
 * splits the output into thread-block tiles, one tile per SM at a time, so
 * tiles run in waves of #SMs and a last partial wave leaves the other SMs
 * idle; a grid of T tiles on S SMs runs at (T/S) / ceil(T/S) of the full-
 * wave rate.  The guide's example: A100, 108 SMs, 256x128 tiles, one per
 * SM: a 1792 x 1792 output is 7 x 14 = 98 tiles, one wave; a grid just
 * over 108 tiles takes two waves, nearly twice as long for ~1 % more work.
 * cuBLAS's heuristics pick among tile shapes (§2.3: 256x128 and 128x256 are
 * the most efficient, 128x128 next), so each output grid takes the best of
 * those three.  A training GEMM runs as three (forward M x N, dgrad M x K,
 * wgrad N x K output grids) of equal FLOPs: their times add, so the factors
 * combine harmonically.  The SM count is catalog data (accelerators.yaml
 * sms); 0 = no wave term.
 *
 * Normalisation: none.  The gemm_eff curves were calibrated on runs whose
 * GEMMs already paid their waves (A100 Narayanan Table 1 layouts ~0.955 of
 * full waves, H100 Llama 3 405B ~0.985); the per-profile gemm_scale that
 * refit.sh fits absorbs that level (validation-fit.yaml).  Tried and not
 * kept: the factor taken against its mean over where the last wave ends
 * (wave efficiency averaged over one wave around T/S), which cancels the
 * expected loss of grids under a few waves that the small-model rows need
 * (README, issue 11). */
/* Tiles of `tile` rows (a power of two, 1 << sh) over a side of n. */
static long tiles_of(double n, int sh)
{
    long v = (long)n;
    if ((double)v < n)
        v++;
    return (v + (1L << sh) - 1) >> sh;
}

/* g output grids R x C scheduled together on s SMs: 1 / their wave
 * efficiency, s·waves / tiles, at the best of the three tile shapes
 * (integer counts; this runs for every GEMM of every layout the search
 * times). */
static double wave_grid_inv(double R, double C, long g, long s)
{
    long r1 = tiles_of(R, 7), r2 = tiles_of(R, 8), c1 = tiles_of(C, 7), c2 = tiles_of(C, 8);
    long t[3] = {g * r1 * c2, g * r2 * c1, g * r1 * c1}; /* 128x256, 256x128, 128x128 */
    long bt = t[0], bn = (t[0] + s - 1) / s;
    for (int i = 1; i < 3; i++) {
        long n = (t[i] + s - 1) / s;
        if ((double)t[i] * (double)bn > (double)bt * (double)n) { /* t/n above bt/bn: fuller waves */
            bt = t[i];
            bn = n;
        }
    }
    return (double)(bn * s) / (double)bt;
}

double train_gemm_wave_grouped(int sms, double M, double N, double K, long groups)
{
    /* sides past 1e9 (not a GEMM any plan makes) or more tiles than 1e15
     * are left at 1: their tiles would overflow the integer counts, and
     * that many tiles fill their waves anyway */
    if (sms <= 0 || groups < 1 || !(M >= 1 && N >= 1 && K >= 1) || M > 1e9 || N > 1e9 || K > 1e9)
        return 1.0;
    double side = fmax(M, fmax(N, K)) / 128.0 + 1.0;
    if ((double)groups * side * side > 1e15)
        return 1.0;
    long s = sms;
    return 3.0 / (wave_grid_inv(M, N, groups, s) + wave_grid_inv(M, K, groups, s) +
                  wave_grid_inv(N, K, groups, s));
}

double train_gemm_wave(int sms, double M, double N, double K)
{
    return train_gemm_wave_grouped(sms, M, N, K, 1);
}

/* One GEMM of M×N×K (forward; its dgrad and wgrad have the same three
 * sides) at the curve's efficiency for its narrowest side.  Tile and wave
 * quantisation and the roll-off of a GEMM whose M, N or K is small set its
 * efficiency (NVIDIA, "Matrix Multiplication Background User's Guide":
 * tile quantisation, wave quantisation, arithmetic intensity
 * 2·M·N·K / (bytes of A, B, C) falling with the smallest side); Calculon
 * (Isaev et al. SC'23) likewise looks each GEMM of a layer up by its own
 * size. */
/* The narrowest side of an M×N×K GEMM: the curve's x. */
static double gemm_narrowest(double M, double N, double K)
{
    double x = M < N ? M : N;
    return K < x ? K : x;
}

/* FLOP/s of a GEMM looked up at narrowest side x, at `wave` of its waves'
 * efficiency (train_gemm_wave*; 1 = none) and the profile's gemm_scale. */
static double gemm_rate(const Env *e, double x, double wave)
{
    return e->peak * env_curve(e, x) * wave * e->gemm_scale;
}

static double gemm_s(const Env *e, double M, double N, double K)
{
    return 2.0 * M * N * K /
           gemm_rate(e, gemm_narrowest(M, N, K), train_gemm_wave(e->a->sms, M, N, K));
}

/* Forward time of one layer's dense GEMMs on one GPU, each at the
 * efficiency of its own shape (T tokens on the rank, all-gathered under
 * sequence parallelism; Megatron's column/row-parallel split over t):
 *   QKV      M = T, K = h,       N = (a·dqk + 2·g·dh)/t
 *   out      M = T, K = a·dv/t,  N = h
 *   fc1      M = T, K = h,       N = (2 with GLU)·F/t
 *   fc2      M = T, K = F/t,     N = h
 * MoE layers: the shared experts as fc1/fc2 of width S·Fe, the router
 * M = T, K = h, N = E.  MLA attention keeps the layer's narrowest side
 * min(h/t, T) for all of its projections (its down-projections are not
 * split by t, which the FLOP count does not follow either).  Mamba-2:
 *   in_proj  M = T, K = h,         N = in_proj/t (column-parallel)
 *   out_proj M = T, K = d_inner/t, N = h         (row-parallel). */
/* The share 0..1 of the MoE all-to-alls hidden under compute: the plan's
 * ep_overlap where it sets one, else the framework profile's. */
static double env_ep_overlap(const Env *e)
{
    double w = e->w->ep_overlap;
    return w > 0 ? (w < 1 ? w : 1) : e->ep_ov;
}

/* LatentMoE's two projections (h -> He before the dispatch, He -> h after
 * the combine): Transformer Engine Linears in parallel_mode "duplicated",
 * each TP rank holding the whole weight and projecting its own T/t tokens
 * (the MoE layer's sequence-parallel input). */
static double latent_gemm_s(const Env *e, const Layout *l, double T)
{
    const Shape *sh = &e->sh;
    if (!(sh->lat_w > 0))
        return 0.0;
    double Tt = T / l->tp;
    return gemm_s(e, Tt, sh->He, sh->h) + gemm_s(e, Tt, sh->h, sh->He);
}

static double layer_dense_gemm_s(const Env *e, const Layout *l, double T, int kind)
{
    const Shape *sh = &e->sh;
    double t = l->tp, h = sh->h;
    bool moe = kind & K_MOE;
    double s = 0;
    if ((kind & K_ATTN) && sh->mla) {
        double x = h / t < T ? h / t : T;
        s = 2.0 * T * sh->attn_w / t / gemm_rate(e, x, 1.0);
    } else if (kind & K_ATTN) {
        s = gemm_s(e, T, (sh->a * sh->dqk + 2.0 * sh->g * sh->dh) / t, h) +
            gemm_s(e, T, h, sh->a * sh->dv / t);
    }
    if (kind & K_MAMBA)
        s += gemm_s(e, T, sh->md.in_proj / t, h) + gemm_s(e, T, h, sh->md.d_inner / t);
    double glu = sh->glu ? 2.0 : 1.0;
    double F = moe ? sh->S * sh->Fe : kind & K_MLP ? sh->F : 0.0;
    if (F > 0)
        s += gemm_s(e, T, glu * F / t, h) + gemm_s(e, T, h, F / t);
    if (moe && sh->router_w > 0)
        s += gemm_s(e, T, sh->E / t, h);
    if (moe)
        s += latent_gemm_s(e, l, T);
    return s;
}

/* Grouped K/V heads a TP rank holds: g/t, at least one (a head is not
 * split). */
static double kv_heads(const Shape *sh, double t)
{
    return fmax(sh->g / t, 1.0);
}

/* K and V elements per token on a rank as the attention call sees them:
 * MLA's per-head keys and values; grouped-query K/V at their own heads
 * (at least one per TP rank), or, where the framework copies them out to
 * one per query head before the call (attn_repeat_kv: torchtitan's
 * repeat_kv, models/llama/model.py, expand + reshape ahead of
 * F.scaled_dot_product_attention), at the query heads. */
static double attn_kv_width(const Env *e, const Layout *l)
{
    const Shape *sh = &e->sh;
    double t = l->tp;
    if (sh->mla)
        return sh->a * (sh->dqk + sh->dv) / t;
    return 2.0 * sh->dh * (sh->kv_rep ? sh->a / t : kv_heads(sh, t));
}

/* 1 / the fused attention kernel's share of its measured rate at this
 * layout's sequence (catalog.c accelerator_attn_seq_curve: the kernel's
 * measured sweep where the catalog has one, else the block-cost law),
 * averaged over the layers by their share of the core's work; `sweep` is the
 * forward's or the backward's.  A thread block loops over s/(2·cp) keys on
 * average: half the causal sequence, and under context parallelism each
 * ring step's block is one rank's s/cp slice, causal or half of it
 * (load-balanced chunks).  A sliding-window layer's blocks loop over its
 * window.  FlashAttention 1 (one block per batch × head) is not this kernel
 * and keeps its own pricing (FLASH_V1_SLOWDOWN). */
static double attn_seq_slowdown(const Env *e, const Layout *l, const Curve *sweep)
{
    const Shape *sh = &e->sh;
    double full = 1.0 / accelerator_attn_seq_curve(e->a, sweep, e->s / (2.0 * l->cp));
    double f = sh->win > 0 ? 2.0 * sh->win / e->s : 1.0;
    if (f >= 1.0 || !(sh->La > 0))
        return full;
    double win = 1.0 / accelerator_attn_seq_curve(e->a, sweep, sh->win);
    double lf = sh->La - sh->win_L, lw = sh->win_L * f; /* each kind's share of the work */
    return (lf * full + lw * win) / (lf + lw);
}

static void layer_cost(const Env *e, const Layout *l, int kind, LayerCost *c, double *x_out,
                       double *eff_out)
{
    const Shape *sh = &e->sh;
    double t = l->tp;
    double T = (double)l->micro_batch * e->s / l->cp;    /* tokens on this rank */
    double x = sh->h / t;
    if (T < x)
        x = T;
    double eff = env_curve(e, x);
    bool moe_layer = kind & K_MOE, at = kind & K_ATTN, mb = kind & K_MAMBA;
    bool ffn = kind & (K_MLP | K_MOE);
    double blocks = kind_blocks(kind);
    unsigned sel_rm = sel_modules(sh, l->recompute, e->flash);
    /* blocks a selective recompute re-runs with their collectives (mlp, moe) */
    double re_blocks = ((kind & K_MLP) && (sel_rm & RM_MLP)) || (moe_layer && (sel_rm & RM_MOE))
                           ? 1.0 : 0.0;
    double dense_w = (at ? sh->attn_w : 0.0) + (mb ? sh->mamba_w : 0.0) +
                     (moe_layer ? sh->shared_w + sh->router_w + sh->lat_w
                                : kind & K_MLP ? sh->mlp_w : 0.0);
    double f_dense = 2.0 * T * dense_w / t;
    double t_gemm = layer_dense_gemm_s(e, l, T, kind);
    double eff_dense = t_gemm > 0 ? f_dense / (t_gemm * e->peak * e->gemm_scale) : eff;
    double f_exp = 0, t_exp_fc2 = 0, t_exp_all = 0;
    double fc2_parts = sh->glu ? 3.0 : 2.0; /* fc2: Fe of the 2 (3 with GLU) Fe-wide matrices */
    double imb = moe_layer ? moe_imbalance(e, l, T) : 1.0;
    bool fp8 = e->lowp;
    /* GEMM input elements per token on this rank (FP8 casts): QKV and fc1
     * read h, the output projection a·dh/t, fc2 F/t. */
    double cast_el = 0;
    if (fp8) /* with SP the QKV/fc1/in_proj inputs are cast before their all-gather
              * (FP8 all-gather), on the rank's T/t tokens */
        cast_el = blocks * sh->h / (l->sp ? t : 1) + (at ? sh->a * sh->dqk / t : 0.0) +
                  (kind & K_MLP ? sh->F / t : 0.0) + (mb ? sh->md.d_inner / t : 0.0);
    if (moe_layer) {
        /* Per GPU the routed-expert FLOPs are those of its tokens whatever
         * the expert layout (balanced routing): 2·T·k·W_e/t.  The GEMM
         * shapes differ: each GPU holds E/ep experts of width Fe/etp, fed
         * (T·k/t)·etp·ep/E tokens each (= T·k·ep/E with expert TP = t). */
        f_exp = 2.0 * T * sh->k * sh->expert_w / t;
        double et = expert_tp(l);
        double tok_e = T * sh->k / t * et * l->ep / sh->E;  /* tokens per local expert */
        /* Each expert GEMM at the efficiency of its own narrowest side, as
         * the dense GEMMs (layer_dense_gemm_s): fc1 M = tokens per local
         * expert, K = He (h, or the LatentMoE width), N = (2 with GLU)·Fe/etp
         * — the grouped fc1 computes gate and up projections in one GEMM
         * (Megatron-Core TEGroupedMLP: linear_fc1 of width 2·Fe when
         * gated_linear_unit) — and fc2 K = Fe/etp, N = He.  Until
         * 2026-12-03 both were looked up at Fe/etp, fc1 half as wide as it
         * is. */
        double hb = l->etp <= 0 ? sh->He / t : sh->He;
        double fc1_n = (sh->glu ? 2.0 : 1.0) * sh->Fe / et;
        double x1 = gemm_narrowest(tok_e, fc1_n, hb), x2 = gemm_narrowest(tok_e, hb, sh->Fe / et);
        /* the busiest EP rank computes imb × its share (moe_imbalance).
         * Its E/ep local experts' GEMMs run as one grouped GEMM (Megatron-
         * Core TEGroupedMLP / GroupedMLP: one kernel over every expert's
         * tiles, or Transformer Engine's per-expert GEMMs on several
         * streams at once), so their waves are counted over all the
         * experts' tiles together (train_gemm_wave_grouped): with a few
         * hundred tokens per expert one expert's grid is a fraction of a
         * wave, the rank's E/ep grids fill several. */
        long nloc = (long)(sh->E / l->ep + 0.5);
        double w1 = train_gemm_wave_grouped(e->a->sms, tok_e * imb, fc1_n, hb, nloc);
        double w2 = train_gemm_wave_grouped(e->a->sms, tok_e * imb, hb, sh->Fe / et, nloc);
        double fc2_s = imb * f_exp / fc2_parts / gemm_rate(e, x2, w2);
        double t_exp = fc2_s + imb * f_exp * (fc2_parts - 1.0) / fc2_parts / gemm_rate(e, x1, w1);
        t_gemm += t_exp;
        t_exp_all = t_exp;
        t_exp_fc2 = fc2_s;
        if (fp8) /* expert fc1 inputs He per routed copy, fc2 inputs Fe/etp; the
                  * latent projections' inputs h and He */
            cast_el += sh->k * (sh->He + sh->Fe) / t + sh->S * (sh->h + sh->Fe) / t +
                       (sh->lat_w > 0 ? (sh->h + sh->He) / t : 0.0);
    }
    double f_core = at ? T * e->s * sh->core_coef / t * e->win_frac : 0.0;
    double t_core = f_core / (e->peak16 * eff);
    /* Backward core time: twice the forward's on the GEMM curve.  Where the
     * catalog measures the fused attention kernels of the part (attn_fwd_eff,
     * attn_bwd_eff), the core is priced on what they execute instead: the
     * causal half of the full s x s count (FlashAttention skips the blocks
     * above the diagonal, Dao 2023 FlashAttention-2 §3.1; sliding windows
     * keep the same share of it, win_frac), at the share of the 16-bit peak
     * the kernels reach forward and backward.  On Blackwell attention is not
     * a GEMM at the curve's efficiency: the softmax exponentials and the
     * shared-memory traffic of the backward, not the tensor cores, bound it
     * (Zadouri, Hoehnerbach, Shah, Liu, Thakkar, Dao, "FlashAttention-4:
     * Algorithm and Kernel Pipelining Co-Design for Asymmetric Hardware
     * Scaling"). */
    double t_core_bwd = 2.0 * t_core;
    if (e->flash && e->attn_fwd > 0) {
        double f_causal = 0.5 * f_core;
        t_core = f_causal / (e->peak16 * e->attn_fwd);
        t_core_bwd = FLASH_BWD_FLOP_RATIO * f_causal / (e->peak16 * e->attn_bwd);
        if (!e->w->flash_attention_v1) {
            /* never past the peak, whatever a user catalog's attn_eff_seq;
             * one slowdown for both passes where neither has its own sweep */
            double kf = attn_seq_slowdown(e, l, e->attn_fwd_seq);
            double kb = e->attn_bwd_seq == e->attn_fwd_seq
                            ? kf
                            : attn_seq_slowdown(e, l, e->attn_bwd_seq);
            t_core *= fmax(kf, e->attn_fwd);
            t_core_bwd *= fmax(kb, e->attn_bwd);
        }
    }
    /* FlashAttention 1 (workload flash_attention_v1): FlashAttention-2's
     * work partitioning (parallel over the sequence, split-Q warps, fewer
     * non-matmul FLOPs) gives "around 2x speedup compared to FlashAttention"
     * (Dao 2023, FlashAttention-2, arXiv:2307.08691, abstract and §4.1);
     * the core priced above is the FlashAttention-2-class kernel. */
    if (e->flash && e->w->flash_attention_v1) {
        t_core *= FLASH_V1_SLOWDOWN;
        t_core_bwd *= FLASH_V1_SLOWDOWN;
    }
    double t_ew = elementwise_fwd_bytes(e, l, T, kind) / e->ew_bw;
    /* The SSD kernels (MambaDims ssd_flops, 16-bit) at the share of the peak
     * they are measured to reach (catalog ssd_eff), or their memory traffic
     * (ssd_bytes) at the element-wise rate, whichever is longer; the
     * backward at twice the forward, as every GEMM here. */
    double f_ssd = 0, t_ssd = 0;
    if (mb) {
        f_ssd = T * sh->md.ssd_flops / t;
        t_ssd = fmax(f_ssd / (e->peak16 * accelerator_ssd_eff(e->a)),
                     T * sh->md.ssd_bytes / t / e->ew_bw);
    }
    if (fp8)
        t_ew += FP8_CAST_BYTES * T * cast_el / e->ew_bw;
    double t_moe = 0;
    if (moe_layer) {
        /* routing and permutation bytes; the routed experts' activation
         * function runs on the busiest rank's imb × copies */
        double actw = sh->glu ? 3.0 : 2.0;
        t_ew += (moe_route_bytes(e, l, T, imb) +
                 (imb - 1.0) * 2.0 * T * sh->k * actw * sh->Fe / t) / e->ew_bw;
        /* a framework's extra per-copy passes (frameworks.yaml moe_overhead) */
        if (e->moe_oh > 0)
            t_ew += 2.0 * T * sh->k * sh->He * e->moe_oh / t / e->ew_bw;
        /* Host-side cost per MoE layer and pass (frameworks.yaml, fitted by
         * gpuplan calibrate): dropless routing copies the per-expert token
         * counts to the host before the all-to-all (the split sizes), which
         * drains the launch queue (moe_layer_overhead_us); the grouped GEMM
         * then issues kernels per local expert — Transformer Engine's
         * GroupedLinear splits its input by those counts and quantises each
         * expert's input and weight as separate FP8 tensors (amax + cast per
         * tensor), and on Hopper runs one GEMM per expert on several streams
         * (moe_expert_overhead_us × E/ep local experts). */
        /* Token-dropping runs padded to capacity have no such copy: the
         * split sizes are the capacity, filled on the device (Megatron-Core
         * moe/token_dispatcher.py, MoEAlltoAllTokenDispatcher.preprocess:
         * with moe_pad_expert_input_to_capacity the per-expert counts are
         * torch.full(capacity) and no DtoH copy or cuda_sync_point is set). */
        /* After that sync the host issues the rest of the layer and the
         * next one's attention with an empty queue, so where it launches
         * the attention sub-layer's kernels one by one (norm, QKV, RoPE,
         * core, projection, residual, their FP8 casts) the GPU waits for
         * them (moe_attn_launch_us); recipes that capture the attention in
         * a CUDA graph (Megatron-Core cuda_graph_impl transformer_engine,
         * cuda_graph_scope "attn": "Captures attention layers", core_v0.16.0
         * transformer/enums.py CudaGraphScope; Megatron-Bridge's Blackwell
         * recipes, workload cuda_graph_attn) replay it with one launch.
         * Token-dropping runs have no sync, hence neither cost. */
        double local = sh->E / (l->ep > 0 ? l->ep : 1);
        t_moe = (e->moe_cf > 0 ? 0.0 : e->moe_layer_oh + e->moe_attn_oh) +
                e->moe_expert_oh * local;
    }
    double fwd = t_gemm + t_core + t_ssd + t_ew + e->layer_oh + t_moe;
    double passes = 3.0 + (l->recompute == RECOMPUTE_FULL ? 1.0 : 0.0);
    /* forward passes (not the backward's two): the norm-fed casts' amax
     * read is fused into the norm (FP8_NORM_CAST_BYTES) */
    double norm_fused = fp8 ? (FP8_CAST_BYTES - FP8_NORM_CAST_BYTES) * T * blocks * sh->h /
                                  (l->sp ? t : 1) / e->ew_bw
                            : 0.0;
    c->fwd = fwd - norm_fused;
    c->comp = passes * fwd - (passes - 2.0) * norm_fused + t_core_bwd - 2.0 * t_core;
    /* Combined 1F1B (EP overlap) with deferred expert weight gradients and
     * the dropless sync.  Megatron-Core runs a layer's forward for one
     * micro-batch and its backward for another from one host thread, in
     * the order (core_v0.15.0 models/common/model_chunk_schedule_plan.py,
     * TransformerLayerSchedulePlan.run): combine bwd, attention fwd, MLP
     * backward (partner), dispatch fwd, MLP backward_dw and dispatch bwd
     * (partner), MLP fwd, combine fwd, attention bwd (partner).  The
     * dispatch forward waits for the device-to-host copy of the token
     * counts (token_dispatcher.py cuda_sync_point).  With
     * --delay-wgrad-compute (workload delay_wgrad_compute; Megatron-Bridge's
     * performance scripts set it with every moe_a2a_overlap) the partner's
     * per-expert weight-gradient GEMMs are backward_dw's, so the host
     * issues them only after that wait, while the GPU has only the
     * partner's MLP dgrad queued: one pass of the MoE host cost (t_moe)
     * against the expert dgrad GEMMs and the activation's backward, the
     * excess exposed on top of what a layer pays without the overlap.
     * Without the deferral they run in the MLP backward, before the wait.
     * Token-dropping runs and runs replayed as CUDA graphs
     * (cuda_graph_full: a fixed token budget, no count copy) have no
     * sync. */
    c->pair_host = 0;
    if (moe_layer && l->ep > 1 && e->moe_cf <= 0 && t_moe > 0 && e->w->delay_wgrad_compute &&
        !e->w->cuda_graph_full &&
        env_ep_overlap(e) > 0) {
        double actw = sh->glu ? 3.0 : 2.0;
        double t_act = imb * 2.0 * T * sh->k * actw * sh->Fe / t / e->ew_bw;
        double over = t_moe - (t_exp_all + t_act);
        c->pair_host = over > 0 ? over : 0;
    }
    c->core = t_core + t_core_bwd;
    /* Hardware FLOPs (what the kernels execute, recompute included): the
     * model-FLOP convention counts the attention core's whole s x s square;
     * a fused kernel skips the blocks above the causal diagonal and runs
     * the half, its backward FLASH_BWD_FLOP_RATIO times its forward (S is
     * computed again); an unfused core computes the masked square, its
     * backward twice its forward. */
    double fc_fwd = e->flash ? 0.5 * f_core : f_core;
    double fc_bwd = e->flash ? FLASH_BWD_FLOP_RATIO * fc_fwd : 2.0 * f_core;
    c->flops = passes * (f_dense + f_exp + f_ssd) + (passes - 2.0) * fc_fwd + fc_bwd;
    /* Selective recompute re-runs its modules' forward in the backward
     * (sel_modules; Megatron-Core recompute_modules, transformer_config.py:
     * layernorm, moe_act and mla_up_proj discard their outputs and re-run
     * only themselves, core_attn, mlp, moe and shared_experts checkpoint
     * their sub-module):
     *  - the norms (read h, write h each) and activation functions: memory-
     *    bound, no GEMM FLOPs;
     *  - core_attn: the attention core's forward;
     *  - mlp: the dense MLP's norm, GEMMs, activation and FP8 casts, and its
     *    TP collective pair again;
     *  - moe: the whole MoE layer — router, permutations, every expert's
     *    GEMMs, the dispatch / combine all-to-alls and the host cost of a
     *    pass (t_moe) — and its TP pair;
     *  - shared_experts: their GEMMs and activation;
     *  - mla_up_proj: MLA's Q and KV up projections (the RoPE on them is
     *    element-wise on a/t·rope values a token and is left out). */
    if (sel_rm) {
        double actw = sh->glu ? 3.0 : 2.0;
        double norms = sel_norms(sh, sel_rm, kind);
        double act = 0;
        if ((kind & K_MLP) && (sel_rm & RM_ACT_ALL) && !(sel_rm & RM_MLP))
            act += actw * sh->F;
        if (moe_layer && !(sel_rm & RM_MOE)) {
            if (sel_rm & (RM_ACT_ALL | RM_MOE_ACT))
                act += sh->k * actw * sh->Fe;
            if ((sel_rm & RM_ACT_ALL) && !(sel_rm & RM_SHARED_EXPERTS))
                act += sh->S * actw * sh->Fe;
        }
        c->comp += 2.0 * T * (2.0 * norms * sh->h / (l->sp ? t : 1) + act / t) / e->ew_bw;
        /* MaxText's remat_policy minimal saves only the outputs of dots
         * without batch dimensions (jax.checkpoint_policies.
         * checkpoint_dots_with_no_batch_dims, MaxText layers/models.py): the
         * weight GEMMs.  The flash kernel (a Pallas call, not a dot:
         * layers/attentions.py) is re-run in the backward. */
        if ((sel_rm & RM_CORE_ATTN) || (e->sel_core && e->flash && !sh->rm)) {
            c->comp += t_core;
            c->core += t_core;
            c->flops += fc_fwd;
        }
        double glu = sh->glu ? 2.0 : 1.0;
        if ((kind & K_MLP) && (sel_rm & RM_MLP)) {
            double norm = 2.0 * T * 2.0 * sh->h / (l->sp ? t : 1); /* LayerNormMLP's own */
            double casts = fp8 ? FP8_CAST_BYTES * T * (sh->h / (l->sp ? t : 1) + sh->F / t) : 0.0;
            c->comp += gemm_s(e, T, glu * sh->F / t, sh->h) + gemm_s(e, T, sh->h, sh->F / t) +
                       (norm + 2.0 * T * actw * sh->F / t + casts) / e->ew_bw;
            c->flops += 2.0 * T * sh->mlp_w / t;
        }
        if (moe_layer && (sel_rm & (RM_MOE | RM_SHARED_EXPERTS)) && sh->S > 0) {
            double F = sh->S * sh->Fe;
            c->comp += gemm_s(e, T, glu * F / t, sh->h) + gemm_s(e, T, sh->h, F / t) +
                       2.0 * T * actw * F / t / e->ew_bw;
            c->flops += 2.0 * T * sh->shared_w / t;
        }
        if (moe_layer && (sel_rm & RM_MOE)) {
            c->comp += t_exp_all + t_moe + latent_gemm_s(e, l, T) +
                       (sh->router_w > 0 ? gemm_s(e, T, sh->E / t, sh->h) : 0.0) +
                       (moe_route_bytes(e, l, T, imb) + imb * 2.0 * T * sh->k * actw * sh->Fe / t) /
                           e->ew_bw;
            c->flops += f_exp + 2.0 * T * (sh->router_w + sh->lat_w) / t;
        }
        /* torchtitan's per-op policy (shape_act_every_other_mm) re-runs
         * wk, wo and w3 (fc2 without a GLU), RoPE on Q and K, the two
         * residual adds and, in FP8 runs, every input cast (torchao's
         * casts are not saved; only their amax is) */
        if (sel_rm & RM_EVERY_OTHER_MM) {
            double kn = sh->g * sh->dqk / t, on = sh->a * sh->dv / t, fn = sh->F / t;
            double hs = sh->h / (l->sp ? t : 1);
            if (at) {
                c->comp += gemm_s(e, T, kn, sh->h) + gemm_s(e, T, sh->h, on) +
                           (2.0 * T * 2.0 * (sh->a + sh->g) * sh->dqk / t + 2.0 * T * 3.0 * hs) /
                               e->ew_bw;
                c->flops += 2.0 * T * sh->h * (kn + on);
            }
            if (kind & K_MLP) {
                c->comp += (sh->glu ? gemm_s(e, T, fn, sh->h) : gemm_s(e, T, sh->h, fn)) +
                           2.0 * T * 3.0 * hs / e->ew_bw;
                c->flops += 2.0 * T * sh->h * fn;
            }
            if (fp8)
                c->comp += FP8_CAST_BYTES * T * cast_el / e->ew_bw;
        }
        if (at && sh->mla && (sel_rm & RM_MLA_UP_PROJ)) {
            double qn = sh->a * sh->dqk / t, kvn = sh->a * (sh->nope + sh->dv) / t;
            c->comp += (sh->q_lora > 0 ? gemm_s(e, T, qn, sh->q_lora) : 0.0) +
                       gemm_s(e, T, kvn, sh->kv_lora);
            c->flops += 2.0 * T * ((sh->q_lora > 0 ? qn * sh->q_lora : 0.0) + kvn * sh->kv_lora);
        }
    } else if (l->recompute == RECOMPUTE_FULL) {
        c->core += t_core;
    }
    /* Element-wise passes a model's config adds and a framework runs as
     * eager PyTorch ops, each reading its inputs and writing its output in
     * 16-bit (bytes per element; Megatron-Core at the Megatron-Bridge
     * v0.2.2 / v0.3.0 / v0.4.2 pins cba6b0ed / b0cc2706 / 2edffadb):
     *  - YaRN RoPE: apply_rotary_pos_emb takes TE's fused kernel only when
     *    mscale is 1, and YaRN's is 0.1·ln(factor) + 1 (1.35 at gpt-oss's
     *    32; models/common/embeddings/rope_utils.py, yarn_rotary_pos_
     *    embedding.py; Megatron-Bridge's provider also turns
     *    apply_rope_fusion off for position_embedding_type "yarn"), so
     *    _apply_rotary_pos_emb_bshd runs on q and k: t·cos 4, rotate_half
     *    (negate a half, concatenate) 6, ·sin 4, sum 6, concatenate with
     *    the empty pass-through part 4 — 24 forward; autograd's backward
     *    of the same ops ≈ 34 (two products, the negation, the halves'
     *    concatenation, two accumulations, two slice gradients).
     *  - GLU clamp: weighted_bias_quick_geglu_impl (fusions/fused_bias_
     *    geglu.py) clamps the two halves of the expert fc1 output and
     *    concatenates them before its fused kernel: 16·Fe per routed copy
     *    forward (two clamps read + write Fe, the concatenation 2Fe), 20·Fe
     *    backward (two masked gradients read grad and input, write Fe; the
     *    halves' concatenation); moe_act recompute re-runs the forward.
     *  - expert bias: TEGroupedMLP's fc2 returns its bias (skip_bias_add)
     *    and _apply_bias (transformer/moe/experts.py) adds bias × prob per
     *    expert, t + b·p, then concatenates: 12·h per routed copy forward
     *    (product written, sum read 2 + written, concatenation), 16·h
     *    backward (the split's concatenation, grad·p and grad·b each
     *    written and reduced).
     * The expert passes run on the busiest EP rank's imb × copies. */
    /* A model run without torch.compile as written in plain PyTorch
     * (torchtitan's Llama, models/llama/model.py and models/norms.py at
     * d432a0b90, 2024-04-22, the commit of its A100 table: compile =
     * false in every train_configs toml), bytes per element forward /
     * backward, each eager op reading its inputs and writing its output
     * (backward: autograd's kernels for the same ops):
     *  - RoPE (eager_rope): apply_rotary_emb casts q and k to fp32
     *    (read 2, write 4), multiplies them as complex numbers by the
     *    precomputed frequencies (read 4, write 4) and casts back (read 4,
     *    write 2): 20 forward; backward the cast-back's gradient to fp32,
     *    the product with the conjugate frequencies and the cast to 16 bit,
     *    20.  A fused kernel's is not counted at all (Transformer Engine's
     *    fused RoPE works in place on the QKV GEMM output).
     *  - SwiGLU (eager_glu): F.silu(w1(x)) * w3(x), the activation (read 2,
     *    write 2) and the product (read 4, write 2): 10·F forward against
     *    a fused kernel's 6 (elementwise_fwd_bytes); backward the
     *    product's two gradients (read 4, write 2 each) and SiLU's (read
     *    4, write 2), 18 against 12: 4·F and 6·F more.
     *  - RMSNorm (workload eager_norm, norm_type "rmsnorm"; "fused_rmsnorm"
     *    is one Triton kernel): x.float() (2 + 4), pow(2) (4 + 4), mean
     *    (4), x·rsqrt (4 + 4), type_as (4 + 2), ·weight (2 + 2): 36 per
     *    element of h forward against a fused norm's 4; backward those
     *    ops' gradients, ≈ 62 against 8: 32·h and 54·h more per norm.
     * A full recompute re-runs the forward of all of them. */
    if ((at && (e->uf_rope || e->eg_rope)) || (moe_layer && (e->uf_clamp || e->uf_bias)) ||
        (ffn && e->eg_glu) || e->eg_norm) {
        double Cb = moe_layer ? imb * moe_copies(e, l, T) : 0.0;
        double qk = T * (sh->a + sh->g) * sh->dqk / t; /* elements of q and k */
        double xf = 0, xb = 0;
        if (at && e->uf_rope) {
            xf += 24.0 * qk;
            xb += 34.0 * qk;
        }
        if (moe_layer && e->uf_clamp) {
            double fe = Cb * sh->Fe / expert_tp(l);
            xf += 16.0 * fe;
            xb += 20.0 * fe + (sel_rm & (RM_ACT_ALL | RM_MOE_ACT | RM_MOE) ? 16.0 * fe : 0.0);
        }
        if (moe_layer && e->uf_bias) {
            xf += 12.0 * Cb * sh->He;
            xb += 16.0 * Cb * sh->He;
        }
        if (at && e->eg_rope) {
            xf += 20.0 * qk;
            xb += 20.0 * qk;
        }
        if (ffn && e->eg_glu) {
            double fw_el = moe_layer ? Cb * sh->Fe / expert_tp(l) : T * sh->F / t;
            xf += 4.0 * fw_el;
            xb += 6.0 * fw_el;
        }
        if (e->eg_norm) {
            double hn = T * kind_blocks(kind) * sh->h / (l->sp ? t : 1);
            xf += 32.0 * hn;
            xb += 54.0 * hn;
        }
        if (l->recompute == RECOMPUTE_FULL)
            xb += xf;
        c->fwd += xf / e->ew_bw;
        c->comp += (xf + xb) / e->ew_bw;
    }
    /* The K/V head copy (attn_repeat_kv): forward, the g-wide K and V are
     * read and written out a/t heads wide in 16 bit; backward, autograd
     * sums the expanded gradients back (read a/t, write g heads).  A
     * re-run forward copies again. */
    if (at && sh->kv_rep) {
        double xf = 2.0 * 2.0 * T * sh->dh * (sh->a / t + kv_heads(sh, t));
        c->fwd += xf / e->ew_bw;
        c->comp += ((l->recompute == RECOMPUTE_FULL ? 3.0 : 2.0) * xf) / e->ew_bw;
    }
    /* PyTorch's ring attention (framework cp_torch_ring; torch.distributed.
     * tensor.experimental._attention as read on 2026-12-02, the version
     * torchtitan 9dec370 runs under context_parallel:
     * _templated_ring_attention and its backward, convert_to_f32 and
     * round-robin load balance on by default) runs one SDPA call per ring
     * step and merges the partial outputs with eager ops, not inside a
     * kernel.  Per element of the rank's output (Q = T·a·dv/t) and of its
     * K/V (KV = T·kvw), in bytes:
     *  - forward, each of the c − 1 steps after the first: the step's
     *    output to fp32 (read 2, write 4), then _SDPAMerger._merge_one
     *    out − sigmoid(Δlse)·(out − block_out): a difference (12), the
     *    product (8), the update (12) — 38 on a rank whose steps all use
     *    the whole local query (the last rank; the others merge half the
     *    rows and re-concatenate the output, _partial_update, 27);
     *    torch.cat of K and V into the buffer sent on (4 per KV, c − 1
     *    times); step 0's fp32 copy and the result's cast back (6 + 6);
     *  - backward (grad_query / grad_key / grad_value accumulated in fp32,
     *    the dK/dV buffer rotated in fp32): per step dq += (read 4 + 2,
     *    write 4: 10 per Q), dk, dv += on half the keys and the chunks'
     *    torch.cat (13 per KV), the fp32 dK/dV concatenated to send (8),
     *    K/V concatenated (4); the zero-filled accumulators (4 per Q and
     *    KV) and the final casts (6 each).
     * The log-sum-exp rows (a/t per token) are left out.  A forward that
     * is re-run (full recompute) merges again. */
    if (at && l->cp > 1 && e->cp_torch) {
        double n = l->cp;
        double Q = T * sh->a * sh->dv / t;
        double KV = T * attn_kv_width(e, l);
        double fb = 12.0 * Q + (n - 1.0) * (38.0 * Q + 4.0 * KV);
        double bb = n * (10.0 * Q + 25.0 * KV) + 10.0 * Q + 10.0 * KV;
        double fwd_runs = l->recompute == RECOMPUTE_FULL ? 2.0 : 1.0;
        c->fwd += fb / e->ew_bw;
        c->comp += (fwd_runs * fb + bb) / e->ew_bw;
    }
    /* Full recompute re-runs the layer's forward.  JAX's jax.checkpoint
     * re-computes from the saved input only the residuals the backward
     * consumes ("re-computed from those inputs as needed",
     * docs.jax.dev/en/latest/notebooks/autodiff_remat.html), and XLA drops
     * the rest: the MLP's down projection (fc2), whose output only feeds
     * the residual stream — the next layer's saved input — and its
     * row-parallel reduction, are not re-run.  PyTorch's checkpoint re-runs
     * the module's whole forward. */
    double re_coll = l->recompute == RECOMPUTE_FULL ? 1.0 : 0.0;
    if (l->recompute == RECOMPUTE_FULL && e->remat_dce && ffn) {
        double F = moe_layer ? sh->S * sh->Fe : sh->F;
        double skip = (F > 0 ? gemm_s(e, T, sh->h, F / t) : 0.0) + t_exp_fc2;
        c->comp -= skip;
        c->flops -= 2.0 * T * sh->h * F / t +
                    (moe_layer ? f_exp / fc2_parts : 0.0);
        re_coll = 0.5; /* of the two TP reductions, the attention one only */
    }
    double fwd_coll = 1.0 + 1.0 + re_coll; /* fwd, bwd, re-fwd */
    /* TP: per layer 2 all-reduces of s·b·h 16-bit values forward and 2
     * backward (Megatron-LM, Shoeybi et al. 2019 §3); with SP the same
     * volume as all-gather + reduce-scatter pairs (Korthikanti §4.2.2).
     * Frameworks that overlap them (Transformer Engine userbuffers,
     * Megatron --tp-comm-overlap: the all-gather/reduce-scatter is split
     * into chunks pipelined with the GEMM that consumes/produces them,
     * Wang et al. 2023 "Overlap communication with dependent computation";
     * torchtitan async TP) hide tp_overlap of it, at most the GEMM time it
     * runs under, and the hidden part still slows that GEMM
     * (OVERLAP_SLOWDOWN). */
    c->tp = 0;
    if (l->tp > 1) {
        double bw, lat;
        env_link(e, l, l->tp, 1, false, &bw, &lat);
        double S = 2.0 * T * sh->h;
        /* with SP: an all-gather (FP8 runs of a TE framework: 1-byte
         * elements, tp_ag_b) and a 16-bit reduce-scatter */
        double agb = e->tp_ag_b > 0 ? e->tp_ag_b : 2.0;
        double ag = l->sp ? net_allgather_s(agb / 2.0 * S, l->tp, bw, lat) : 0.0;
        double one = l->sp ? ag + net_allgather_s(S, l->tp, bw, lat)
                           : net_allreduce_s(S, l->tp, bw, lat);
        double raw = (blocks * fwd_coll + re_blocks) * one; /* one pair a block */
        /* torchtitan's per-op policy saves the reduce-scatters' outputs
         * but re-runs the all-gathers (not in its save list) */
        if (sel_rm & RM_EVERY_OTHER_MM)
            raw += blocks * ag;
        /* What the overlap hides, at most the GEMM time it runs under:
         * every pass's pairs under the forward GEMMs and half the backward
         * ones each way; or, for torch's async TP (micro-pipeline TP,
         * torchtitan), the forward-direction pairs only, in the forward
         * and its re-run, under the forward GEMMs, the backward's pair
         * exposed.  The feature's own measurements: "up to ~29 % forward
         * pass speedup and ~8 % E2E speedup in Llama3 7B, ~20 % / ~8 % in
         * 70B" (discuss.pytorch.org, "[Distributed w/ TorchTitan]
         * Introducing Async Tensor Parallelism in PyTorch", 2024): the
         * end-to-end gain is the forward's share of the step, not its
         * rate. */
        double hid = e->tp_ov * (e->tp_fwd_only ? raw - blocks * one : raw);
        double under = e->tp_fwd_only ? (fwd_coll - 1.0) * t_gemm : fwd_coll * 1.5 * t_gemm;
        if (hid > under)
            hid = under;
        c->tp = raw - hid + OVERLAP_SLOWDOWN * hid;
    }
    /* CP: all-gather of K/V forward; all-gather + reduce-scatter of dK/dV
     * backward (Megatron context parallel), CP_OVERLAP of it hidden under
     * the attention core (e->cp_ov; none with cp_comm_exposed): the ring
     * passes each chunk on while the previous one is computed.
     * PyTorch's ring attention (cp_torch) as torchtitan runs it
     * (experimental.context_parallel_rotate_method "allgather", the default
     * of torchtitan 9dec370 config_manager.py: "all-gather all kv shards on
     * ranks after the first sub-SDPA computation"; torch.distributed.tensor.
     * experimental._attention _AllGatherRotater): each forward run gathers
     * the whole K/V once and waits for it after the first ring step's
     * attention, the only compute it hides under; the backward gathers K/V
     * again the same way and passes the fp32 dK/dV partial sums round the
     * ring (_RotateMethod.ALL_TO_ALL: one peer per step), each transfer
     * hidden under the next step's attention backward, the last one waited
     * for in full.  With load balancing every ring step is 1/cp of the
     * rank's attention. */
    c->cp = 0;
    c->cp_hid = 0;
    if (mb && l->cp > 1) {
        /* A Mamba-2 mixer under context parallelism (Megatron-Core
         * ssm/mamba_context_parallel.py): the scan needs the whole sequence,
         * so an all-to-all trades the sequence split for a split of the
         * heads before the conv1d and the SSD (the in_proj output, in_proj/t
         * per token) and back after them (d_inner/t); the backward moves the
         * gradients the same way, a re-run forward again.  Nothing computes
         * while they run. */
        double bw, lat;
        env_link(e, l, l->cp, l->tp, false, &bw, &lat);
        double one = net_alltoall_s(2.0 * T * sh->md.in_proj / t, l->cp, bw, lat) +
                     net_alltoall_s(2.0 * T * sh->md.d_inner / t, l->cp, bw, lat);
        c->cp = one * (2.0 + (l->recompute == RECOMPUTE_FULL ? 1.0 : 0.0));
    }
    if (at && l->cp > 1) {
        double bw, lat;
        env_link(e, l, l->cp, l->tp, false, &bw, &lat);
        double local = 2.0 * T * attn_kv_width(e, l);
        double ag = net_allgather_s(local * l->cp, l->cp, bw, lat);
        double runs = l->recompute == RECOMPUTE_FULL ? 2.0 : 1.0;
        if (e->cp_torch) {
            double n = l->cp, f0 = t_core / n, b0 = t_core_bwd / n;
            double dkv = net_p2p_s(2.0 * local, bw, lat);
            c->cp = (runs + 1.0) * ag + n * dkv;
            if (e->cp_ov > 0)
                c->cp_hid = runs * fmin(ag, f0) + fmin(ag, b0) + (n - 1.0) * fmin(dkv, b0);
        } else {
            c->cp = ag * (2.0 + runs);
            c->cp_hid = fmin(c->cp, e->cp_ov * c->core);
        }
    }
    /* EP: dispatch and combine all-to-alls forward, two more backward
     * (Lepikhin et al. 2020 GShard; Megatron-Core MoE).  Folded layouts
     * place the EP ranks next to the expert-TP ones (Megatron-Core
     * order etp, ep, edp): stride etp; else after TP and CP. */
    c->ep = 0;
    c->ep_hid = 0;
    if (moe_layer && l->ep > 1) {
        double bw, lat;
        /* A fused dispatch sends a token once to each rank that holds one
         * of its experts, with their indices, and the combine reduces a
         * rank's expert outputs for it before sending one row back
         * (DeepEP's dispatch layout: is_token_in_rank per token and rank;
         * HybridEP likewise): ranks_hit rows a token, not k.  The
         * all-to-all dispatcher sends one copy per routed expert. */
        double ranks_hit = e->moe_fused && sh->k > 1 ? moe_groups_hit(e, sh->E / l->ep) : sh->k;
        long long stride = l->etp > 0 ? l->etp : (long long)l->tp * l->cp;
        env_link(e, l, l->ep, stride, false, &bw, &lat);
        long long span = (long long)l->ep * stride;
        /* the scale-up unit: a node, or a multi-node NVLink domain (NVL72) */
        long long unit = e->domain > e->gpn ? e->domain : e->gpn;
        if (span > unit) {
            /* An all-to-all leaving the scale-up domain: of each rank's
             * data the (n − r)/n bound for other domains goes out through
             * its own NIC (one rail per GPU; NCCL's multi-ring trick of
             * env_link does not apply to all-to-all), the rest over
             * NVLink, concurrently (NCCL alltoall = grouped send/recv;
             * DeepEP's internode kernels: NVLink forwarding + RDMA).
             * This holds whatever env_link returned: with 8 NICs of
             * 48 GB/s per H100 node its ring rate (8 × NIC) reaches the
             * NVLink rate, and the group was priced as if it never left
             * the node (until 2026-12-01: DeepSeek-V3 EP64 on 1,024 H100
             * and Qwen3-235B EP32 on 256 H100 ran their all-to-alls at
             * NVLink speed). */
            double r = stride < unit ? (double)(unit / stride) : 1.0;
            if (r > l->ep)
                r = l->ep;
            double out = (l->ep - r) / (double)l->ep, in = (r - 1) / (double)l->ep;
            if (e->moe_fused && sh->k > 1) {
                /* Fused dispatch (DeepEP) sends a token over the fabric
                 * once per remote domain that holds one of its k experts
                 * and forwards it to the experts there over NVLink
                 * (DeepSeek-V3 report §3.2.2: "first transmitted via IB to
                 * the GPUs with the same in-node index on their target
                 * nodes ... then instantly forwarded via NVLink"); the
                 * combine reduces inside the domain before sending back.
                 * With U = ep/r domains a token reaches S·(U − 1)/U remote
                 * ones (S = the domains its experts fall in,
                 * moe_groups_hit), against ranks_hit·(U − 1)/U rank
                 * copies (the a2a volume below). */
                double U = l->ep / r;
                out *= moe_groups_hit(e, sh->E / U) / ranks_hit;
            }
            double so = e->so_bw;
            /* the per-rank NIC rate, expressed as an effective all-to-all bw */
            double t_out = out / so, t_in = in / e->su_bw;
            double per_byte = t_out > t_in ? t_out : t_in;
            bw = per_byte > 0 ? ((l->ep - 1) / (double)l->ep) / per_byte : bw;
        }
        /* the dispatch in disp_b bytes per element, the combine in 16-bit */
        double db = e->disp_b;
        double tok = moe_routed_tokens(l, T) * ranks_hit * sh->He;
        /* the busiest rank receives imb × its share (moe_imbalance) */
        double a2a = imb * (net_alltoall_s(db * tok, l->ep, bw, lat) +
                            net_alltoall_s(2.0 * tok, l->ep, bw, lat));
        double ov = env_ep_overlap(e);
        /* the hidden share still slows the compute it runs under */
        double ep_coll = fwd_coll + (sel_rm & RM_MOE ? 1.0 : 0.0);
        c->ep = (1.0 - ov + OVERLAP_SLOWDOWN * ov) * ep_coll * a2a;
        c->ep_hid = ov * ep_coll * a2a;
    }
    if (x_out)
        *x_out = x;
    if (eff_out)
        *eff_out = eff_dense;
}

/* Every part of a step breakdown × k. */
static void step_parts_scale(StepBreakdown *st, double k)
{
    if (k == 1.0)
        return;
    st->compute *= k;
    st->tp_comm *= k;
    st->pp_bubble *= k;
    st->dp_comm *= k;
    st->cp_comm *= k;
    st->ep_comm *= k;
    st->other *= k;
}

static void env_step(const Env *e, const Layout *l, int G, StepEval *out)
{
    const Shape *sh = &e->sh;
    memset(out, 0, sizeof *out);
    double x = 0, eff = 0;
    double rshare = env_recompute_share(e, l);
    /* the average layer: each kind of layer by its share */
    LayerCost lc = {0}, mk = {0}; /* mk: a layer of the MTP modules' kind */
    bool mk_set = false;
    for (int i = 0; i < sh->nkinds; i++) {
        LayerCost k = {0};
        layer_cost(e, l, sh->kinds[i].mask, &k, &x, &eff);
        if (sh->mtp > 0 && sh->kinds[i].mask == sh->mtp_kind) {
            mk = k;
            mk_set = true;
        }
        if (rshare < 1.0) {
            /* recompute on some layers of the stage only: the others run
             * without it (env_recompute_share) */
            Layout ln = *l;
            ln.recompute = RECOMPUTE_NONE;
            LayerCost kn = {0};
            double xn = 0, effn = 0;
            layer_cost(e, &ln, sh->kinds[i].mask, &kn, &xn, &effn);
            layer_cost_mix(&k, &kn, rshare);
        }
        layer_cost_add(&lc, &k, sh->kinds[i].share);
    }
    /* a hybrid pattern's layers hold one block each: its MTP block pair is
     * not one of them */
    if (sh->mtp > 0 && !mk_set)
        layer_cost(e, l, sh->mtp_kind, &mk, NULL, NULL);
    double p = l->pp, v = l->vpp > 0 ? l->vpp : 1;
    double m = layout_micro(e->B, l);
    double T = (double)l->micro_batch * e->s / l->cp;

    /* Logits on the last stage: 2·T·h·V/t forward, ×3 with backward, plus
     * the fp32 cross-entropy over T×V/t (read/write ≈ 3 passes of 4 bytes;
     * an eager one, eager_loss_pass_b).
     * The output layer is its own GEMM, M = T tokens, K = h (all-gathered
     * with SP), N = V/t: its narrowest side is min(T, h, V/t), not the
     * layer's h/t.  It runs in BF16 even in FP8 recipes: Megatron-Core's
     * GPTModel builds output_layer as tensor_parallel.ColumnParallelLinear,
     * not a Transformer Engine module, so TE's fp8_autocast does not reach
     * it (megatron/core/models/gpt/gpt_model.py). */
    double f_log = 2.0 * T * sh->h * sh->V / l->tp;
    double x_log = gemm_narrowest(T, sh->h, sh->V / l->tp);
    double t_log = 3.0 * f_log / (e->peak16 * env_curve(e, x_log)) +
                   (e->eg_loss ? eager_loss_pass_b(l) : FUSED_CE_PASS_BYTES) * T * sh->V /
                       l->tp / e->ew_bw;

    /* Heaviest stage.  Layers that divide evenly are split evenly
     * (Megatron's default), the last stage adding the output layer and
     * loss.  When they do not, the planner must place the remainder and
     * gives the last stage n ≤ floor(L/p) layers, the other L − n spread
     * over p − 1 stages (ceil((L − n)/(p − 1)) on the fullest), with n
     * chosen so the slowest stage is fastest: Llama 3 ran 126 layers on
     * 16 stages with one fewer on the last (Dubey et al. 2024 §3.3.2);
     * Megatron-Core takes the count (--decoder-last-pipeline-num-layers);
     * DeepSeek-V3's 61 layers on 16 stages carry a BF16 129K × 7168
     * output head worth several layers. */
    int L = (int)sh->L, lo = L / l->pp;
    double per_layer = lc.comp + lc.tp + lc.ep;
    /* The last stage's tail: the output layer, and the MTP modules after
     * it, each a block of its kind, the 2h -> h projection (forward and two
     * backward GEMMs) and another pass through the output layer. */
    double tail_comp = t_log, tail_tp = 0, tail_ep = 0, tail_flops = 3.0 * f_log;
    if (sh->mtp > 0) {
        double f_proj = 2.0 * T * 2.0 * sh->h * sh->h / l->tp;
        double t_proj = 3.0 * gemm_s(e, T, sh->h / l->tp, 2.0 * sh->h);
        tail_comp += sh->mtp * (mk.comp + t_proj + t_log);
        tail_tp += sh->mtp * mk.tp;
        tail_ep += sh->mtp * mk.ep;
        tail_flops += sh->mtp * (mk.flops + 3.0 * f_proj + 3.0 * f_log);
    }
    double tail_all = tail_comp + tail_tp + tail_ep;
    double layers_h = 0, heavy = INFINITY;
    bool tail = false;
    int n_min = L % l->pp == 0 ? lo : 1;
    for (int n = lo; n >= n_min && l->pp > 1; n--) {
        int others = (L - n + l->pp - 2) / (l->pp - 1);
        double so = others * per_layer, sl = n * per_layer + tail_all;
        double hv = so >= sl ? so : sl;
        if (hv < heavy) {
            heavy = hv;
            layers_h = so >= sl ? others : n;
            tail = so < sl;
        }
    }
    if (l->pp == 1) {
        layers_h = L;
        tail = true;
    }
    double mb_comp = layers_h * lc.comp + (tail ? tail_comp : 0.0);
    /* Offloaded activations go to host memory during the forward and come
     * back during the backward over the host link (DMA copy engines, no
     * SMs), each direction hidden under that pass's compute of the stage;
     * what does not fit under it is exposed. */
    double off = env_offload_layers(e, l);
    if (off > 0) {
        double act = env_act_layer(e, l);
        double cp = off * act / e->host_bw;
        double fwd_s = layers_h * lc.fwd, bwd_s = layers_h * (lc.comp - lc.fwd);
        mb_comp += (cp > fwd_s ? cp - fwd_s : 0) + (cp > bwd_s ? cp - bwd_s : 0);
    }
    double mb_tp = layers_h * lc.tp + (tail ? tail_tp : 0.0);
    double mb_ep = layers_h * lc.ep + (tail ? tail_ep : 0.0);
    double mb_cp = layers_h * (lc.cp - lc.cp_hid + OVERLAP_SLOWDOWN * lc.cp_hid);

    StepBreakdown *st = &out->st;
    st->compute = m * mb_comp;
    st->tp_comm = m * mb_tp;
    st->ep_comm = m * mb_ep;
    /* A micro-batch's all-to-alls hide only under another micro-batch's
     * compute: Megatron-Core's combined 1F1B runs the forward of one with the
     * backward of another, layer by layer, and the chunks its schedule runs
     * alone keep theirs exposed (core_v0.15.0 pipeline_parallel/
     * combined_1f1b.py): without pipelining the first micro-batch's forward
     * and the last one's backward ("executed alone, no a2a overlapping",
     * combined_1f1b_schedule_for_no_pipelining); interleaved, the first
     * stage's warm-up forwards and cool-down backwards, 2(p − 1) + (v − 1)·p
     * virtual micro-batches plus the one more warm-up micro-batch the
     * overlap adds (schedules.py get_pp_rank_microbatches).  Megatron-Core
     * runs the overlap only in those two schedules; a pipeline without
     * interleaving that hides the all-to-alls is DeepSeek's DualPipe, whose
     * own schedule is not modelled here (its hidden share stays whole). */
    if (lc.ep_hid > 0 && (l->pp == 1 || v > 1)) {
        double alone = l->pp == 1 ? 1.0 : 2.0 * (p - 1.0) + (v - 1.0) * p + 1.0;
        if (alone > m * v)
            alone = m * v;
        st->ep_comm += alone / v * layers_h * lc.ep_hid * (1.0 - OVERLAP_SLOWDOWN);
    }
    /* the paired (not alone) virtual micro-batches pay the combined
     * schedule's exposed host work (layer_cost pair_host) */
    if (lc.pair_host > 0 && (l->pp == 1 || v > 1)) {
        double alone = l->pp == 1 ? 1.0 : 2.0 * (p - 1.0) + (v - 1.0) * p + 1.0;
        double paired = m * v - alone;
        if (paired > 0)
            st->compute += paired / v * layers_h * lc.pair_host;
    }
    st->cp_comm = m * mb_cp;
    out->flops_exec = m * (layers_h * lc.flops + (tail ? tail_flops : 0.0));

    /* Pipeline: bubble (p−1)/(v·m) of the steady-state time (Narayanan et
     * al. 2021 §2.2), plus point-to-point sends of s·b·h/t (scatter-gather
     * with SP) forward and backward per chunk boundary. */
    double bubble_comp = 0;
    if (l->pp > 1) {
        double mb = mb_comp + mb_tp + mb_ep + mb_cp;
        bubble_comp = (p - 1.0) / v * mb;
        double bw, lat;
        env_link(e, l, 2, (long long)G / l->pp, true, &bw, &lat);
        double bytes = 2.0 * T * sh->h / (l->sp ? l->tp : 1);
        double p2p = net_p2p_s(bytes, bw, lat);
        st->pp_bubble = (p - 1.0) / v * mb + 2.0 * (v * m + p - 1.0) * p2p;
    }

    /* Data parallel: gradient reduce-scatter + parameter all-gather
     * (ZeRO ≥ 1, distributed optimizer) or all-reduce (ZeRO 0) over the
     * dense DP group (d·e·c ranks, d·c folded) for dense weights, the expert
     * DP group for experts.  Megatron-Core's overlap_grad_reduce issues the
     * reduce-scatter bucket by bucket during the last micro-batch's backward
     * and, with interleaved stages, through the cool-down phase as each
     * chunk finishes; overlap_param_gather issues the all-gathers under the
     * next step's first forward and the warm-up phase (Megatron-Core
     * distributed optimizer docs).  The framework's dp_overlap is the share
     * of those windows the traffic can use (the last bucket stays exposed).
     * ZeRO-3 gathers weights for every micro-batch forward and backward
     * (Rajbhandari et al. 2020 §5: 1.5× the all-reduce volume), overlapped
     * with compute. */
    StageParams sp;
    stage_params(sh, l->tp, l->pp, layout_eshard(l), &sp);
    int Dd = layout_dense_dp(l), De = layout_expert_dp(l);
    double dp_rs = 0, dp_ag = 0, dp_z3 = 0, z3_edge = 0, z3_bwd_ag = 0;
    /* The edge buckets: the gradients of the last bucket to fill (the
     * first layers, ending with the input embedding) are reduce-scattered
     * after the backward has nothing left to run, and the first bucket's
     * all-gather (embedding first) precedes any forward work, so one
     * bucket's collective of each kind is always exposed.  Megatron-Core
     * builds buckets in reverse parameter order of at least bucket_size
     * parameters each, default max(40M, 1M × DP size) ("larger DP sizes
     * need larger buckets to ensure collectives do not become
     * latency-bound", megatron/core/distributed/
     * distributed_data_parallel_config.py), and a tensor larger than that
     * (the h × V embedding) is a bucket on its own
     * (param_and_grad_buffer.py). */
    double rs_edge = 0, ag_edge = 0;
    int zs = env_zero(e, l);
    for (int part = 0; part < 2; part++) {
        int n = part == 0 ? Dd : De;
        double P = part == 0 ? sp.pd : sp.pe;
        if (n <= 1 || P <= 0)
            continue;
        double bw, lat;
        long long stride = part == 0 ? (long long)l->tp
                           : (l->etp > 0 ? (long long)l->etp * l->ep
                                         : (long long)l->tp * l->cp * l->ep);
        env_link(e, l, n, stride, true, &bw, &lat);
        double edge = DP_BUCKET_MIN > DP_BUCKET_PER_RANK * n ? DP_BUCKET_MIN
                                                              : DP_BUCKET_PER_RANK * n;
        if (part == 0 && sh->emb_w * sh->wscale / l->tp > edge)
            edge = sh->emb_w * sh->wscale / l->tp;
        if (edge > P)
            edge = P;
        /* Interleaved, the DP sync is dispatched per model chunk, not per
         * bucket: the schedule keeps the DDP in no_sync and calls a
         * chunk's grad_sync_func (start_grad_sync over all its buckets)
         * once the chunk's last micro-batch backward is done, aligned
         * across the pipeline ranks (Megatron-Core schedules.py
         * backward_step_helper_postprocess; align_grad_reduce, the default
         * of Megatron-LM's training.py; NeMo 1 gave Apex
         * DistributedFusedAdam one bucket per virtual stage), and chunk 0
         * finishes last, so its whole reduce-scatter — its layers and, on
         * the first stage, the embedding — follows the backward.  At the
         * step's start param_sync_func dispatches chunks 0 and 1's
         * all-gathers together (start_param_sync, every bucket) and chunk
         * 0's first forward waits on them bucket by bucket (the forward
         * pre-hook), in parameter order, the embedding first: chunk 0's
         * all-gather precedes its first layer's forward. */
        double edge_c0 = edge;
        if (v > 1 && !e->w->dp_sync_after_backward) {
            double c0 = part == 0 ? (sp.pd - sp.pd_mid) + sp.pd_mid / v : P / v;
            if (c0 > edge_c0)
                edge_c0 = c0 < P ? c0 : P;
        }
        if (zs == 0) {
            dp_rs += net_allreduce_s(e->rs_b * P, n, bw, lat);
            rs_edge += net_allreduce_s(e->rs_b * edge_c0, n, bw, lat);
        } else if (zs <= 2) {
            dp_rs += net_allgather_s(e->rs_b * P, n, bw, lat);
            dp_ag += net_allgather_s(e->ag_b * P, n, bw, lat);
            if ((zs == 2 || env_pp_unsharded(e, l)) && e->unit_coll) {
                /* FSDP SHARD_GRAD_OP (framework unit_collectives): as for
                 * ZeRO-3 below, one ring per sharded unit (each block plus
                 * the root), each paying its n − 1 step latencies.
                 * DeepSpeed's ZeRO-2 reduces and gathers in buckets
                 * (reduce_bucket_size / allgather_bucket_size) and
                 * Megatron's distributed optimizer (ZeRO-1) in its own:
                 * their collectives keep the bucketed form above. */
                dp_rs += layers_h * (n - 1.0) * lat;
                dp_ag += layers_h * (n - 1.0) * lat;
            }
            rs_edge += net_allgather_s(e->rs_b * edge_c0, n, bw, lat);
            ag_edge += net_allgather_s(e->ag_b * edge_c0, n, bw, lat);
        } else {
            /* ZeRO-3 / FSDP FULL_SHARD: every micro-batch gathers the
             * weights for its forward and again for its backward, and
             * reduce-scatters its gradients into the owner's shard as
             * they are produced (Rajbhandari et al. 2020 §5.2; PyTorch
             * FSDP accumulates sharded gradients unless no_sync keeps
             * full ones, which FULL_SHARD's memory saving rules out). */
            double ag = net_allgather_s(e->wb * P, n, bw, lat);
            double rs = net_allgather_s(e->rs_b * P, n, bw, lat); /* RS = AG time */
            /* One collective per sharded unit, not one for the whole
             * model: FSDP flattens each wrapped module's parameters into
             * one FlatParameter and all-gathers / reduce-scatters it with
             * its own collective (Zhao et al. 2023, PyTorch FSDP, VLDB
             * §3.2); llm-foundry wraps every transformer block
             * (MPTForCausalLM.fsdp_wrap_fn: isinstance(module, MPTBlock)),
             * torchtitan shards each TransformerBlock (fully_shard in
             * apply_fsdp), the root holding the embedding.  A gather or
             * reduce-scatter is then layers + 1 rings, each paying its
             * n − 1 step latencies (NCCL runs all-gather and
             * reduce-scatter as rings). */
            double unit_lat = layers_h * (n - 1.0) * lat;
            ag += unit_lat;
            rs += unit_lat;
            if (e->w->fsdp_backward_post) {
                /* FSDP1's BackwardPrefetch.BACKWARD_POST (Composer's
                 * default: composer/trainer/dist_strategy.py
                 * fsdp_config.setdefault('backward_prefetch',
                 * 'BACKWARD_POST') at v0.16.4 / v0.17.2, the same default
                 * at v0.14.1, the versions llm-foundry pinned; the
                 * llm-foundry MPT yamls and submit_benchmarks.py set no
                 * backward_prefetch) "prefetches the next set of
                 * parameters after the current set of parameter's
                 * gradient computation ... the next all-gather is
                 * reordered to be before the current reduce-scatter"
                 * (torch.distributed.fsdp.BackwardPrefetch docstring,
                 * pytorch/pytorch#87917): a block's backward gather runs
                 * between the previous block's gradient computation and
                 * its own, under no compute; only the reduce-scatter
                 * overlaps the next block's gradients.  Every micro-batch
                 * (Composer syncs each one, no no_sync) then waits for
                 * the blocks' gathers once; the root (embedding) is not
                 * resharded after the forward and is not gathered again.
                 * BACKWARD_PRE (FSDP1's own default) and FSDP2's
                 * explicit prefetch keep the gather under the previous
                 * block's backward. */
                double Pb = P;
                if (part == 0)
                    Pb -= sh->emb_w * sh->wscale / l->tp;
                if (Pb < 0)
                    Pb = 0;
                double ag_bwd = net_allgather_s(e->wb * Pb, n, bw, lat) + unit_lat;
                z3_bwd_ag += m * ag_bwd;
                dp_z3 += m * (2.0 * ag + rs - ag_bwd);
            } else {
                dp_z3 += m * (2.0 * ag + rs);
            }
            /* Nothing precedes the first layer's gather in a forward and
             * nothing follows the first layer's reduce-scatter in a
             * backward: one layer's share of each is exposed per
             * micro-batch (FSDP prefetches only the next unit). */
            z3_edge += m * (ag + rs) / (double)layers_h;
        }
    }
    double bwd_last = layers_h * (lc.comp - lc.fwd);
    double fwd_first = layers_h * lc.fwd;
    double ov = e->w->dp_sync_after_backward ? 0.0 : e->dp_ov;
    double dp_raw = dp_rs + dp_ag;
    double dp_exp;
    if (v > 1 && !e->w->dp_sync_after_backward) {
        /* Interleaved: a chunk's gradients are final once its backward
         * has run for the last group of p micro-batches, and the schedule
         * runs that group chunk by chunk (v−1 first, 0 last; Narayanan et
         * al. 2021 §2.2, Megatron-Core schedules.py), so the reduce-scatter
         * of chunks v−1 … 1 hides under the later chunks' backward of that
         * group, p·(v−1)/v of one micro-batch's stage backward, plus chunk
         * 0's last backward (1/v), which the earlier chunks' traffic can
         * still use; chunk 0's own reduce-scatter starts only after it and
         * is the exposed edge (rs_edge above; Megatron-Core distributed
         * optimizer: "the reduction for a model chunk starts when its last
         * micro-batch's backward is done"), as chunk 0's all-gather is at
         * the step's start (ag_edge).  Mirror-wise the
         * next step's parameter all-gather of chunk c hides under the
         * first group's forward of chunks < c.  The cool-down/warm-up idle
         * time (half the bubble) is an alternative window; the larger one
         * counts. */
        double grp = (p * (v - 1.0) + 1.0) / v;
        double rs_win = bwd_last * grp, ag_win = fwd_first * grp;
        if (rs_win < bwd_last + 0.5 * bubble_comp)
            rs_win = bwd_last + 0.5 * bubble_comp;
        if (ag_win < fwd_first + 0.5 * bubble_comp)
            ag_win = fwd_first + 0.5 * bubble_comp;
        double rs_exp = dp_rs - ov * rs_win;
        double ag_exp = dp_ag - ov * ag_win;
        dp_exp = (rs_exp > rs_edge ? rs_exp : rs_edge) + (ag_exp > ag_edge ? ag_exp : ag_edge);
    } else if (!e->w->dp_sync_after_backward) {
        /* One stage chunk: the reduce-scatter can only use the last
         * micro-batch's backward (overlap_grad_reduce skips the sync on the
         * others, Megatron-Core DistributedDataParallel no_sync), the
         * all-gather only the next step's first forward (overlap_param_gather:
         * each bucket's all-gather is dispatched when the forward reaches
         * the bucket before it and waited on by its first layer's forward
         * pre-hook; Megatron-Core distributed optimizer docs and
         * distributed_data_parallel.py _make_forward_pre_hook).  Buckets
         * stream through the window, so the exposed part of each is the
         * larger of what exceeds the window and the edge bucket.  With few
         * micro-batches per step this window is the whole step's backward
         * resp. forward; the all-gather's is half the backward's. */
        double rs_exp = dp_rs - ov * bwd_last;
        double ag_exp = dp_ag - ov * fwd_first;
        dp_exp = (rs_exp > rs_edge ? rs_exp : rs_edge) + (ag_exp > ag_edge ? ag_exp : ag_edge);
    } else {
        dp_exp = dp_raw;
    }
    if (dp_exp > dp_raw)
        dp_exp = dp_raw;
    double hidden = dp_raw - dp_exp;
    if (dp_z3 > 0) {
        double z = dp_z3 - z3_edge - ov * st->compute;
        if (z < 0)
            z = 0;
        dp_exp += z3_edge + z;
        hidden += dp_z3 - z3_edge - z;
    }
    dp_exp += z3_bwd_ag; /* FSDP BACKWARD_POST: the backward gathers, exposed */
    /* the compute under the hidden part runs OVERLAP_SLOWDOWN slower */
    st->dp_comm = dp_exp + OVERLAP_SLOWDOWN * hidden;
    /* Tied embeddings across pipeline stages: the first stage holds the
     * input embedding and the last the output head, one V/t × h weight, so
     * once the DP gradient sync is done the two all-reduce its gradient
     * (Megatron-Core finalize_model_grads.py _allreduce_word_embedding_grads
     * over the embedding group; NeMo 1 megatron_gpt_model.py training_step
     * allreduce_first_last_embeddings, "the first and last stage must keep
     * embeddings in sync"), blocking, before the grad norm and the
     * optimizer step: exposed once a step, between two ranks p − 1 stages
     * apart (another node unless the pipeline fits in one domain). */
    if (sh->tied && l->pp > 1) {
        double bw, lat;
        env_link(e, l, 2, (long long)G / l->pp * (l->pp - 1), true, &bw, &lat);
        st->dp_comm += net_allreduce_s(e->gb * sh->emb_w / l->tp, 2, bw, lat);
    }

    /* Optimizer step: read and write the local shard's weights, grads and
     * optimizer state once (memory-bound). */
    double Dd1 = e->zero >= 1 ? Dd : 1, De1 = e->zero >= 1 ? De : 1;
    double shard = sp.pd / (Dd1 > 0 ? Dd1 : 1) + sp.pe / (De1 > 0 ? De1 : 1);
    st->other = 2.0 * (e->wb + e->gb + e->ob) * shard / e->ew_bw;

    step_parts_scale(st, e->step_scale); /* the site's own factor (calibrated profiles) */
    /* Per-step fixed cost the GPUs wait for, whatever the step's size:
     * Megatron-Core's optimizer step reads the gradient norm back to the
     * host (megatron/core/optimizer/clip_grads.py get_grad_norm_fp32:
     * all-reduce, then total_norm.item()), so the host launches the clip,
     * the optimizer kernels, the parameter casts and the first parameter
     * all-gather only after the device has drained; the GPUs idle for that
     * host time once per step (a full-iteration CUDA graph covers the
     * forward/backward, not the optimizer).  Host time, so not scaled with
     * the GPU's step_scale.  Its size is the framework's, fitted by
     * gpuplan calibrate on the fit half (frameworks.yaml
     * step_overhead_ms): one value over every accelerator's runs. */
    st->other += e->step_oh;
    step_parts_scale(st, e->band_scale);
    out->step = st->compute + st->tp_comm + st->pp_bubble + st->dp_comm + st->cp_comm +
                st->ep_comm + st->other;
    out->gemm_eff = eff;
    out->gemm_x = x;
}

/* ------------------------------------------------------------ search */

typedef struct {
    bool have;
    Layout best;
    double best_s;
    StepEval best_ev;
    TrainMemory best_mem;
    bool have2;
    Layout second;
    double second_s;
    int tried, no_fit, indiv, nmb;
    bool any_mem;
    double min_mem;
    Layout min_mem_layout;
} Search;

static void search_init(Search *S)
{
    memset(S, 0, sizeof *S);
    S->min_mem = INFINITY;
}

static void search_offer(Search *S, const Layout *l, const StepEval *ev, const TrainMemory *mem)
{
    if (!S->have || ev->step < S->best_s) {
        if (S->have) {
            S->have2 = true;
            S->second = S->best;
            S->second_s = S->best_s;
        }
        S->have = true;
        S->best = *l;
        S->best_s = ev->step;
        S->best_ev = *ev;
        S->best_mem = *mem;
    } else if (!S->have2 || ev->step < S->second_s) {
        S->have2 = true;
        S->second = *l;
        S->second_s = ev->step;
    }
}

/* Every (v, b, recompute, sp) for one model-parallel shape on G GPUs.
 * Pruning, each exact: SP is taken when t > 1 unless fixed (same
 * communication volume as TP all-reduces, less memory and element-wise
 * work — Korthikanti §4.2.2); for each (v, b) the least recompute that fits
 * is the fastest, so heavier recompute is not timed; activation memory
 * grows with b, so once full recompute does not fit, larger b are skipped. */
static void search_shape(const Env *e, int G, int t, int c, int ep, int p, Search *S)
{
    long long mp = (long long)t * c * ep_dim(e, ep) * p;
    int d = (int)(G / mp);
    int vlist[8], nv = 0;
    int lps = env_stage_slots(e, p);
    if (e->vfix > 0) {
        vlist[nv++] = e->vfix;
    } else if (p == 1) {
        vlist[nv++] = 1;
    } else {
        /* Megatron needs (L/p) % v == 0; uneven stages (L % p != 0) are
         * already hand-balanced, so any v up to the stage's layers. */
        bool even = lps * p == workload_pipeline_slots(e->w, (int)e->sh.L, p);
        for (int v = 1; v <= 8 && v <= lps && nv < 8; v++)
            if (!even || (lps % v) == 0)
                vlist[nv++] = v;
    }
    bool sp = e->spfix >= 0 ? e->spfix == 1 : t > 1;
    if (t == 1)
        sp = false;
    for (int iv = 0; iv < nv; iv++) {
        int v = vlist[iv];
        if (v > 1 && (p == 1 || v > lps)) {
            S->indiv++;
            continue;
        }
        for (int ib = 0; ib < e->nb; ib++) {
            int b = e->bc[ib];
            double per = (double)b * d * ep_dim(e, ep);
            double mq = e->B / per;
            if (fabs(mq - floor(mq + 0.5)) > 1e-9 || mq < 1) {
                S->indiv++;
                continue;
            }
            int m = (int)floor(mq + 0.5);
            if (m < p || (v > 1 && m % p != 0)) {
                S->nmb++;
                continue;
            }
            bool fitted = false;
            for (int ir = 0; ir < e->nr; ir++) {
                Layout l = {.tp = t, .pp = p, .dp = d, .cp = c, .ep = ep, .vpp = v,
                            .micro_batch = b, .recompute = (Recompute)e->rc[ir], .sp = sp,
                            .etp = e->etp};
                S->tried++;
                TrainMemory mem;
                env_memory(e, &l, &mem);
                if (!(mem.total <= e->hbm_cap)) {
                    S->no_fit++;
                    if (mem.total < S->min_mem) {
                        S->min_mem = mem.total;
                        S->min_mem_layout = l;
                        S->any_mem = true;
                    }
                    continue;
                }
                StepEval ev;
                env_step(e, &l, G, &ev);
                search_offer(S, &l, &ev, &mem);
                fitted = true;
                break;
            }
            if (!fitted && e->bc[e->nb - 1] != b)
                break; /* larger micro-batches need more memory still */
        }
    }
}

static bool shape_ok(const Env *e, int G, int t, int c, int ep, int p, Search *S)
{
    long long mp = (long long)t * c * ep_dim(e, ep) * p;
    bool ok = mp <= G && G % mp == 0;
    /* folded: the expert layout etp × ep must tile the t·c·d GPUs of a stage */
    if (ok && e->etp > 0)
        ok = ((long long)G / p) % ((long long)e->etp * ep) == 0;
    if (!ok) {
        if (S)
            S->indiv++;
        return false;
    }
    return true;
}

static void search_gpus(const Env *e, int G, Search *S)
{
    for (int it = 0; it < e->nt; it++)
        for (int ic = 0; ic < e->nc; ic++)
            for (int ie = 0; ie < e->ne; ie++)
                for (int ip = 0; ip < e->npa; ip++) {
                    int t = e->tc[it], c = e->cc[ic], ep = e->ec[ie], p = e->pa[ip];
                    if (!shape_ok(e, G, t, c, ep, p, S))
                        continue;
                    search_shape(e, G, t, c, ep, p, S);
                }
}

/* ------------------------------------------------------------ failures */

double train_young_interval_s(double delta_s, double mtbf_s)
{
    if (!(delta_s > 0) || !(mtbf_s > 0))
        return 0;
    return sqrt(2.0 * delta_s * mtbf_s); /* Young 1974 */
}

double train_daly_interval_s(double delta_s, double mtbf_s)
{
    if (!(delta_s > 0) || !(mtbf_s > 0))
        return 0;
    if (delta_s >= 2.0 * mtbf_s)
        return mtbf_s; /* Daly 2006 eq. 37 */
    double r = delta_s / (2.0 * mtbf_s);
    return sqrt(2.0 * delta_s * mtbf_s) * (1.0 + sqrt(r) / 3.0 + r / 9.0) - delta_s;
}

double train_goodput(double delta_s, double interval_s, double restart_s, double mtbf_s)
{
    if (!(interval_s > 0) || !(mtbf_s > 0))
        return 0;
    double g = 1.0 - delta_s / interval_s - (interval_s / 2.0 + restart_s) / mtbf_s;
    if (!(g > 0))
        return 0;
    return g > 1 ? 1 : g;
}

typedef struct {
    double bytes, write_s, write_Bps, interval_s, mtbf_s, goodput;
    bool daly;
} Ckpt;

static void env_checkpoint(const Env *e, const Catalog *cat, int G, Ckpt *k)
{
    const Plan *p = e->p;
    memset(k, 0, sizeof *k);
    k->bytes = e->sh.total * CKPT_BYTES_PER_PARAM;
    if (p->storage.checkpoint_stall_s > 0) {
        k->write_s = p->storage.checkpoint_stall_s;
    } else {
        double per = cat && cat->costs.gpudirect_read_bw_per_gpu > 0
                         ? cat->costs.gpudirect_read_bw_per_gpu
                         : STORAGE_BW_PER_GPU_DEFAULT;
        k->write_s = k->bytes / (per * G);
    }
    k->write_Bps = k->write_s > 0 ? k->bytes / k->write_s : 0;
    k->mtbf_s = e->mtbf_gpu_s / G;
    if (e->w->checkpoint_interval_s > 0) {
        k->interval_s = e->w->checkpoint_interval_s;
    } else if (k->write_s < 0.01 * k->mtbf_s) {
        k->interval_s = train_young_interval_s(k->write_s, k->mtbf_s);
    } else {
        k->interval_s = train_daly_interval_s(k->write_s, k->mtbf_s);
        k->daly = true;
    }
    k->goodput = train_goodput(k->write_s, k->interval_s, e->restart_s, k->mtbf_s);
}

/* ------------------------------------------------------------ set-up */

/* A run replayed as full-iteration CUDA graphs (workload cuda_graph_full;
 * see env_init): no per-layer launch cost.  What the fitted MoE costs
 * stand for is not all host time: the share a graphed run still pays (the
 * router's and the dispatch set-up's own kernels, whose time does not
 * scale with the tokens) is the profile's moe_graph_residual, fitted by
 * calibrate on runs with and without such graphs. */
static void env_full_graphs(Env *e, const Framework *fw)
{
    e->layer_oh = 0;
    e->moe_layer_oh *= fw->moe_graph_residual;
    e->moe_expert_oh *= fw->moe_graph_residual;
    e->moe_attn_oh = 0;
}

/* Recipe choices train_size's assumption lines weigh for a MoE plan that
 * leaves them out. */
typedef enum { RECIPE_FUSED_DISPATCH, RECIPE_FULL_GRAPHS, RECIPE_EP_OVERLAP } RecipeChoice;

/* The share of this layout's step (step) that making recipe choice c would
 * take off: the layout re-timed with it; 0 where the plan already makes it
 * (or it does not apply: no EP for the dispatcher and the overlap, a
 * token-dropping run for the graphs) or it saves less than
 * RECIPE_NOTE_SHARE. */
static double recipe_saving(const Env *e, const Layout *l, int G, double step, RecipeChoice c)
{
    Workload w = *e->w;
    Env x = *e;
    x.w = &w;
    switch (c) {
    case RECIPE_FUSED_DISPATCH:
        if (l->ep <= 1 || e->moe_fused)
            return 0.0;
        x.moe_fused = true;
        break;
    case RECIPE_FULL_GRAPHS:
        if (e->moe_cf > 0 || w.cuda_graph_full)
            return 0.0;
        w.cuda_graph_full = true;
        env_full_graphs(&x, e->fw);
        break;
    case RECIPE_EP_OVERLAP:
        if (l->ep <= 1 || env_ep_overlap(e) > 0)
            return 0.0;
        w.ep_overlap = 1;
        w.delay_wgrad_compute = true;
        break;
    }
    StepEval ev;
    env_step(&x, l, G, &ev);
    double save = step > 0 ? 1.0 - ev.step / step : 0.0;
    return save >= RECIPE_NOTE_SHARE ? save : 0.0;
}

/* The catalog's error_bands row of this workload's class (band_class_of:
 * "<family>/<dense|moe|hybrid>/<bf16|fp8>", "/long" appended for an
 * attention-bound step), else — for an attention-bound one — the class
 * without "/long" (a catalog whose runs did not separate them), else the
 * "default" row, else NULL; *cls gets the class ("default", "" = none). */
static const ErrorBand *class_band(const Env *e, const Catalog *cat, char *cls, size_t len)
{
    char full[CAT_ID_LEN], base[CAT_ID_LEN];
    band_class_of(e->w, e->a, e->lowp, shape_attn_share(&e->sh, e->s), full, sizeof full);
    snprintf(base, sizeof base, "%.*s", (int)train_band_class_base(full), full);
    const char *try[2] = {full, base};
    int ntry = strcmp(full, base) != 0 ? 2 : 1;
    /* a framework with no calibration on this accelerator
     * (framework_calibrated_on): the error of the set's runs each
     * predicted without its own calibration (BAND_UNCALIBRATED) */
    if (cat && e->fw && !framework_calibrated_on(e->fw, e->a)) {
        char u[CAT_ID_LEN];
        const ErrorBand *ub = NULL;
        for (int k = 0; k < ntry && !ub; k++) {
            snprintf(u, sizeof u, BAND_UNCALIBRATED "/%.34s", try[k]);
            ub = catalog_find_band(cat, u);
        }
        if (!ub && (ub = catalog_find_band(cat, BAND_UNCALIBRATED)) != NULL)
            snprintf(u, sizeof u, BAND_UNCALIBRATED);
        if (ub) {
            snprintf(cls, len, "%s", u);
            return ub;
        }
    }
    const ErrorBand *b = NULL;
    for (int k = 0; k < ntry && cat && !b; k++)
        if ((b = catalog_find_band(cat, try[k])) != NULL)
            snprintf(cls, len, "%s", try[k]);
    if (!b && cat) {
        b = catalog_find_band(cat, "default");
        if (b)
            snprintf(cls, len, "default");
    }
    if (!b)
        cls[0] = '\0';
    return b;
}

static bool env_init(Env *e, const Plan *p, const Workload *w, const Accelerator *a,
                     const Catalog *cat, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->p = p;
    e->w = w;
    e->a = a;
    if (!shape_derive(&w->model, &e->sh)) {
        snprintf(err, errlen, "model shape needs layers, hidden and heads > 0");
        return false;
    }
    if (w->no_dropout)
        e->sh.drop_masks = 0.0;
    const Shape *sh = &e->sh;
    e->s = w->seq_len;
    e->B = w->global_batch;
    int prec = (w->precision >= 0 && w->precision < PREC_COUNT) ? (int)w->precision : PREC_BF16;
    e->peak16 = a->peak_flops[PREC_BF16] > 0 ? a->peak_flops[PREC_BF16] : a->peak_flops[PREC_FP16];
    e->peak = a->peak_flops[prec];
    if (!(e->peak > 0))
        e->peak = e->peak16;
    if (!(e->peak16 > 0))
        e->peak16 = e->peak;
    if (!(e->peak > 0)) {
        snprintf(err, errlen, "%s has no peak FLOP/s in the catalog", a->id);
        return false;
    }
    /* MFU and a declared mfu are against the quoted peak; a power- or
     * thermal-limited part computes at its sustained share of it */
    e->peak_quoted = e->peak;
    e->peak *= accel_clock_share(a);
    e->peak16 *= accel_clock_share(a);
    e->lowp = (prec == PREC_FP8 || prec == PREC_FP4) && a->peak_flops[prec] > 0;
    e->gemm_scale = e->lowp ? FP8_GEMM_FACTOR : 1.0;
    double usable = a->hbm_usable_frac > 0 ? a->hbm_usable_frac : HBM_USABLE_DEFAULT;
    e->hbm_cap = a->hbm_bytes * usable;
    double ew = a->elementwise_eff > 0 ? a->elementwise_eff : EW_EFF_DEFAULT;
    e->hbm_bw = a->hbm_bw;
    if (!(e->hbm_bw > 0)) /* not in the catalog: H100's FLOP:byte ratio, ≈295 (§6) */
        e->hbm_bw = e->peak16 / HBM_FLOP_PER_BYTE_DEFAULT;
    e->ew_bw = e->hbm_bw * ew;
    e->host_bw = a->host_bw > 0 ? a->host_bw : HOST_BW_DEFAULT;
    if (!(e->ew_bw > 0) || !(e->hbm_cap > 0)) {
        snprintf(err, errlen, "%s has no HBM size or bandwidth in the catalog", a->id);
        return false;
    }
    double K = w->optimizer_bytes_per_param > 0 ? w->optimizer_bytes_per_param : 16;
    /* 16-bit weights and grads + fp32 optimizer state; K ≥ 18 means fp32
     * gradient accumulation (Megatron main_grad), fp32 training 4-byte
     * weights and grads. */
    if (prec == PREC_FP32) {
        e->wb = 4;
        e->gb = 4;
    } else {
        e->wb = 2;
        e->gb = K >= 18 ? 4 : 2;
    }
    e->ob = K - e->wb - e->gb;
    if (e->ob < 0) {
        e->ob = 0;
        e->gb = K - e->wb > 0 ? K - e->wb : 0;
    }
    /* zero auto: what the framework shards by default (frameworks.yaml
     * dp_sharding: PyTorch FSDP's FULL_SHARD, the distributed optimizer of
     * Megatron-Core recipes), and on a pipelined layout: FSDP2's default
     * reshard policy keeps the units gathered from the forward to the
     * backward under pipelining, "to avoid per-microbatch all-gathers"
     * (torchtitan distributed/fsdp.py get_fsdp_reshard_after_forward_policy
     * "default": not pp_enabled, at b5bcd76c6; NeMo AutoModel's apply_fsdp
     * the same): dp_sharding fsdp is ZeRO-2's there */
    int zpp = 1;
    e->zero = w->zero < 0 ? framework_zero(cat, w->framework, &zpp)
                          : (w->zero > 3 ? 3 : w->zero);
    e->zero_pp = w->zero < 0 ? zpp : e->zero;
    e->zero_fb_stage = w->zero < 0 && !(w->mfu > 0) ? framework_zero_fallback(cat, w->framework)
                                                    : -1;
    e->flash = w->flash_attention;
    if (env_take_attn(e, a->attn_fwd_eff, a->attn_bwd_eff, "FlashAttention, attn_fwd_eff"))
        env_attn_head_dim(e, a);
    /* FlashAttention-2 where the part's FlashAttention figure is a newer
     * kernel or missing: the training frameworks without cuDNN attention
     * call FA2 (PyTorch SDPA's flash backend in torchtitan and FSDP
     * scripts, flash-attn 2.x in llm-foundry), on Hopper too, where
     * FlashAttention-3 is a separate package the inference engines run.
     * Priced at its measured shares (attn_fa2_*; the head-dim factor is the
     * newer kernel's and not applied), not on the GEMM curve at h/t, which
     * made the core 10 % slower than that at TP4 and 38 % at TP8 (7 %
     * faster at TP1) though the kernel's rate does not follow the heads a
     * GPU holds.  A cuDNN framework overrides this below; one pinned to
     * FA2 (flash_attention_2) keeps it. */
    env_take_attn(e, a->attn_fa2_fwd_eff, a->attn_fa2_bwd_eff, "FlashAttention-2, attn_fa2_*");
    e->gpn = accel_gpus_per_node(a);
    e->domain = accel_scaleup_domain(a);
    e->su_bw = net_scaleup_bw(a);
    e->su_lat = a->scaleup_latency_s > 0 ? a->scaleup_latency_s : SCALEUP_LAT_DEFAULT;
    if (!(e->su_bw > 0))
        e->su_bw = net_scaleout_bw(p, a, false);
    e->so_bw = net_scaleout_bw(p, a, false);
    e->so_bw_x = net_scaleout_bw(p, a, true);
    e->so_lat = NET_SCALEOUT_LATENCY_S;
    if (!(e->so_bw > 0)) { /* no NIC figure anywhere: 400 Gb/s per GPU */
        e->so_bw = 400e9 / 8 * NET_SCALEOUT_EFF;
        e->so_bw_x = e->so_bw;
    }
    if (!(e->su_bw > 0))
        e->su_bw = e->so_bw;
    /* A leaf has switch_ports/2 downlinks: rail-optimized, one GPU of each of
     * that many nodes; fat-tree, that many GPUs. */
    double down = p->network.switch_ports > 1 ? p->network.switch_ports / 2.0 : 32.0;
    e->leaf_nodes = p->network.topology == TOPO_RAIL_OPTIMIZED ? down : down / e->gpn;
    if (e->leaf_nodes < 1)
        e->leaf_nodes = 1;
    double mtbf_h = p->tenancy.mtbf_gpu_h > 0 ? p->tenancy.mtbf_gpu_h
                    : (cat && cat->costs.mtbf_gpu_hours_default > 0
                           ? cat->costs.mtbf_gpu_hours_default : MTBF_GPU_H_DEFAULT);
    e->mtbf_gpu_s = mtbf_h * 3600.0;
    e->restart_s = p->tenancy.restore_s > 0 ? p->tenancy.restore_s : 0;

    /* candidates */
    const ParallelSpec *ps = &w->parallel;
    int heads = (int)sh->a, kvh = (int)sh->g;
    if (ps->tp > 0) {
        e->tc[e->nt++] = ps->tp;
    } else {
        for (int t = 1; t <= e->domain && t <= heads && e->nt < 16; t *= 2) {
            if (heads % t != 0)
                continue;
            if (!sh->mla && kvh % t != 0 && t % kvh != 0)
                continue;
            /* Megatron-Core's MambaMixer splits its heads and its B/C groups
             * over the tensor ranks (it asserts ngroups % tp == 0) */
            if (sh->Lmb > 0 && (sh->md.heads % t != 0 || sh->md.groups % t != 0))
                continue;
            e->tc[e->nt++] = t;
        }
    }
    if (ps->cp > 0) {
        e->cc[e->nc++] = ps->cp;
    } else {
        e->cc[e->nc++] = 1;
        /* Megatron CP needs s divisible by 2c (load-balanced causal chunks);
         * below ~1K tokens per rank the exchange cannot be hidden. */
        for (int c = 2; c <= 64 && e->nc < 16; c *= 2)
            if (w->seq_len % (2 * c) == 0 && w->seq_len / c >= 1024)
                e->cc[e->nc++] = c;
    }
    if (!sh->moe) {
        e->ec[e->ne++] = 1;
    } else if (ps->ep > 0) {
        e->ec[e->ne++] = ps->ep;
    } else {
        for (int x = 1; x <= (int)sh->E && e->ne < 16; x *= 2)
            if ((int)sh->E % x == 0)
                e->ec[e->ne++] = x;
    }
    int L = (int)sh->L;
    if (ps->pp > 0) {
        e->pc[e->np++] = ps->pp;
        e->pa[e->npa++] = ps->pp;
    } else {
        /* Uneven stages are allowed (Llama 3 ran 126 layers on 16 stages;
         * Megatron-Core takes per-stage layer counts).  A fixed GPU count
         * tries every depth (the ones that do not divide it are rejected at
         * once); sizing, which also picks the count, tries the divisors of L,
         * powers of two and 3·2^k, up to 128 stages. */
        for (int x = 1; x <= L && x <= 128 && e->np < MAX_CAND; x++) {
            e->pa[e->npa++] = x;
            if (L % x == 0 || is_pow2(x) || (x % 3 == 0 && is_pow2(x / 3)))
                e->pc[e->np++] = x;
        }
    }
    if (w->micro_batch > 0) {
        e->bc[e->nb++] = w->micro_batch;
    } else {
        for (int b = 1; b <= 16; b *= 2)
            e->bc[e->nb++] = b;
    }
    e->vfix = ps->vpp > 0 ? ps->vpp : 0;
    e->spfix = ps->sp;

    const Framework *fw = cat ? catalog_framework_for(cat, w->framework, a->id) : NULL;
    if (!fw && cat && w->framework[0] && cat->n_frameworks > 0) {
        snprintf(err, errlen, "unknown framework '%s' (catalog frameworks:)", w->framework);
        return false;
    }
    if (!fw)
        fw = &FW_BUILTIN;
    e->fw = fw;
    e->offload_search = fw->activation_offload && w->offload_layers <= 0 && !(w->mfu > 0);
    /* recompute auto: what the framework's recipes run when they say
     * (recompute_default, on its base profile), else what it can run, the
     * cheapest that fits winning (a framework whose checkpointing re-runs
     * whole layers only, full_recompute_only, has no selective) */
    int rdef = cat && w->recompute == RECOMPUTE_AUTO ? framework_recompute(cat, w->framework) : -1;
    if (rdef >= 0) {
        e->rc[e->nr++] = rdef;
        e->rc_default = true;
    } else if (w->recompute == RECOMPUTE_AUTO) {
        e->rc[e->nr++] = RECOMPUTE_NONE;
        if (!fw->full_recompute_only)
            e->rc[e->nr++] = RECOMPUTE_SELECTIVE;
        e->rc[e->nr++] = RECOMPUTE_FULL;
    } else if (w->recompute == RECOMPUTE_SELECTIVE && fw->full_recompute_only) {
        snprintf(err, errlen, "framework '%s' has no selective recompute (its activation "
                              "checkpointing re-runs whole layers): recompute full, none or auto",
                 w->framework[0] ? w->framework : fw->id);
        return false;
    } else {
        e->rc[e->nr++] = w->recompute;
    }
    /* the profile's name as the plan says it (the default's base id, not the
     * "<id>@<accelerator>" row that calibrates it) */
    snprintf(e->fw_id, sizeof e->fw_id, "%s", w->framework[0] ? w->framework : fw->id);
    e->fw_id[strcspn(e->fw_id, "@")] = '\0';
    e->fw_gemm = fw->gemm_scale > 0 ? fw->gemm_scale : 1.0;
    /* the framework's TP overlap, unless the workload's recipe turns it off
     * (Megatron-Bridge CommOverlapConfig(tp_comm_overlap=False)) */
    e->tp_ov = w->tp_comm_exposed ? 0.0 : fw->tp_overlap;
    /* FP4 runs of a framework whose recipes turn the overlap off for them
     * (fp4_tp_exposed: Megatron-Bridge "tp_comm_overlap = False if
     * precision == 'nvfp4'", NVIDIA's MLPerf config_common_fp4.sh) */
    e->tp_fp4_off = fw->fp4_tp_exposed && w->precision == PREC_FP4 && !w->tp_comm_exposed &&
                    fw->tp_overlap > 0;
    if (e->tp_fp4_off)
        e->tp_ov = 0.0;
    e->tp_fwd_only = fw->tp_overlap_forward_only;
    e->dp_ov = fw->dp_overlap;
    e->ep_ov = fw->ep_overlap;
    e->layer_oh = fw->layer_overhead_s;
    /* Transformer Engine's DotProductAttention runs cuDNN's fused attention
     * (FusedAttention, F16_arbitrary_seqlen) in preference to FlashAttention
     * on Hopper and newer ("Select FusedAttention on sm90 ... for
     * performance", TE v1.2, 2023-12, to "give FusedAttention preference on
     * Hopper+ for performance reasons", TE 1.8+ dot_product_attention
     * get_attention_backend).  Where the catalog measures that kernel on the
     * part (attn_cudnn_fwd_eff / attn_cudnn_bwd_eff, head dim 128) a
     * framework that runs it (cudnn_attention) prices its core at them, as
     * attn_fwd_eff prices FlashAttention's.  Other head dims take them where
     * the part gives the forward's head-dim factor (attn_fwd_head_dim,
     * Blackwell: the exponential units bound the forward at d = 64 whichever
     * kernel runs it; measured on FlashAttention-4, and cuDNN's forward is
     * within ~10 % of FA4's there, flash-attention PR #2605), else keep the
     * part's FlashAttention pricing, as do FlashAttention 1 and recipes
     * pinned to FlashAttention-2 (flash_attention_2: TE < 1.2, or
     * NVTE_FUSED_ATTN=0; attn_fa2_* where measured).  cuDNN's own sweep over
     * sequence lengths (attn_cudnn_*_seq) then says what a shorter block
     * costs: its per-block set-up is several loop iterations (GB200: 0.70
     * of its 8K-token rate at 2K, 0.17 on a 128-token sliding window),
     * where FlashAttention-4's law (attn_cta_blocks) has under one. */
    bool cudnn_dim = fabs(e->sh.dqk - CUDNN_ATTN_HEAD_DIM) < 0.5 || a->attn_fwd_head_dim.n > 0;
    if (fw->cudnn_attention && e->flash && !w->flash_attention_v1 && !w->flash_attention_2 &&
        cudnn_dim &&
        env_take_attn(e, a->attn_cudnn_fwd_eff, a->attn_cudnn_bwd_eff,
                      "cuDNN fused attention, attn_cudnn_*")) {
        env_attn_head_dim(e, a);
        if (a->attn_cudnn_fwd_seq.n > 0 && a->attn_cudnn_bwd_seq.n > 0) {
            e->attn_fwd_seq = &a->attn_cudnn_fwd_seq;
            e->attn_bwd_seq = &a->attn_cudnn_bwd_seq;
        }
    }
    e->step_oh = fw->step_overhead_s;
    e->moe_oh = fw->moe_overhead;
    e->moe_layer_oh = fw->moe_layer_overhead_s;
    e->moe_expert_oh = fw->moe_expert_overhead_s;
    e->moe_attn_oh = w->cuda_graph_attn ? 0.0 : fw->moe_attn_launch_s;
    /* A recipe that captures the whole forward-backward of the step
     * (every micro-batch, every layer) and replays it as CUDA graphs
     * (workload cuda_graph_full: Megatron-Core cuda_graph_impl
     * "full_iteration", Megatron-Bridge's 26.06+ MXFP8 MoE recipes,
     * perf_recipes/qwen/common.py _enable_hybridep_full_iteration_mxfp8 at
     * v0.6.0) launches no kernel from the host inside it: no per-layer
     * launch cost (layer_oh, the eager attention's), and of the fitted MoE
     * per-layer costs only the share below.  A graph needs static shapes:
     * routing runs without its device-to-host token-count sync, into a
     * token budget of fixed size per expert rank
     * (moe_expert_rank_capacity_factor, 1.5 in those recipes: "the
     * per-rank token budget", Megatron-Core
     * transformer_config.py at cd4afff, the commit Megatron-Bridge v0.6.0
     * pins; balanced routing, as the published runs force, drops nothing),
     * and the fused grouped MLP takes the per-expert counts as a device
     * tensor (moe/experts.py _fused_forward), so the experts are priced on
     * the routed tokens, not on the budget.  The optimizer step runs outside
     * the graph: step_overhead_s stays. */
    if (w->cuda_graph_full)
        env_full_graphs(e, fw);
    /* the dispatcher the workload's recipe names (Megatron-Core
     * --moe-token-dispatcher-type flex with the DeepEP or HybridEP backend:
     * Megatron-Core MoE README, "DeepEP/HybridEP"; or alltoall), else the
     * framework profile's */
    e->moe_fused = w->moe_fused_dispatch >= 0 ? w->moe_fused_dispatch > 0 : fw->moe_fused_dispatch;
    e->moe_cf = sh->moe ? w->moe_capacity_factor : 0;
    e->moe_rr = sh->moe && w->moe_round_robin;
    /* The dispatch all-to-all moves the tokens in the GEMM precision where
     * the framework quantises before it (fp8_dispatch: DeepSeek-V3 report
     * §3.3.2, FP8 dispatch and BF16 combine), else in 16-bit and the
     * experts' GEMMs quantise what arrives: Megatron-Core's alltoall
     * dispatcher permutes and sends the 16-bit hidden states, its DeepEP
     * path passes fp8_dispatch False ("we do not support fp8 dispatch")
     * and HybridEP asserts against it (transformer/moe/token_dispatcher.py,
     * fused_a2a.py, core_v0.14.0 through core_v0.16; an MXFP8 wire format
     * for the ncclep dispatcher only came in 2026-08, moe_dispatch_fwd_dtype,
     * default bf16). */
    {
        double pb = precision_bytes(w->precision);
        e->disp_b = fw->fp8_dispatch && e->lowp && pb < 2 ? pb : 2.0;
    }
    e->whole_program = fw->whole_program_buffers;
    e->remat_dce = fw->remat_dce;
    e->unit_coll = fw->unit_collectives;
    e->pp_unshard = fw->pp_fsdp_unsharded;
    e->cp_torch = fw->cp_torch_ring;
    /* An all-gather CP that gathers the whole K/V before it computes and
     * reduce-scatters dK/dV after (workload cp_comm_exposed; Llama 3, Dubey
     * et al. 2024 §3.3.2: "the all-gather communication latency is exposed
     * in the critical path", accepted because GQA's K/V are small beside the
     * attention) hides none of it, ring or not. */
    e->cp_ov = w->cp_comm_exposed ? 0.0 : CP_OVERLAP;
    e->sh.kv_rep = fw->attn_repeat_kv && !sh->mla && sh->g < sh->a;
    e->logit_b = fw->logits_bytes > 0 ? fw->logits_bytes : 4.0;
    e->sel_core = fw->selective_reruns_attention;
    e->uf_clamp = fw->unfused_glu_clamp && w->model.glu_clamp > 0 && sh->glu && sh->moe;
    e->uf_bias = fw->unfused_expert_bias && w->model.linear_bias && sh->moe;
    e->uf_rope = fw->unfused_yarn_rope && w->model.yarn_factor > 1 && !sh->mla;
    e->eg_rope = fw->eager_rope && !sh->mla && !e->uf_rope;
    e->eg_glu = fw->eager_glu && sh->glu;
    e->eg_norm = w->eager_norm;
    e->eg_loss = w->eager_loss || fw->eager_loss;
    /* NeMo's and Megatron-Bridge's FP8 recipes keep the weights in FP8
     * between optimizer steps and gather them in FP8 (fp8_param_gather:
     * NeMo 2 recipes/precision/mixed_precision.py bf16_with_fp8_mixed
     * fp8_params True; Megatron-Bridge training/mixed_precision.py
     * bf16_with_fp8_current_scaling_mixed and bf16_with_mxfp8_mixed
     * fp8_param_gather True): the distributed optimizer's parameter
     * all-gather moves 1 byte per parameter, the gradient reduce-scatter
     * stays 16-bit.  Not the FP4 recipes (fp4_param_gather unsupported,
     * the same file). */
    e->ag_b = fw->fp8_param_gather && prec == PREC_FP8 && e->lowp ? 1.0 : e->wb;
    /* The DP gradient reduction's bytes: the gradients' own, or fp32 where
     * the workload says so (grad_reduce_fp32: FSDP MixedPrecision
     * reduce_dtype float32 casts each unit's 16-bit gradient up before
     * its reduce-scatter, PyTorch FullyShardedDataParallel docs; Composer's
     * mixed_precision DEFAULT sets it since 0.16, get_mixed_precision in
     * composer/trainer/mosaic_fsdp.py at v0.16.4 / v0.17.2, bf16 before,
     * v0.14.1), or where the framework always does (its profile's
     * grad_reduce_fp32: torchtitan). */
    e->rs_b = (w->grad_reduce_fp32 || fw->grad_reduce_fp32) && e->gb < 4 ? 4 : e->gb;
    /* Transformer Engine quantises a sequence-parallel GEMM input before
     * its tensor-parallel all-gather, so FP8 runs gather 1-byte elements:
     * "AllGather buffers use fp8 when using fp8 recipe" (TE
     * pytorch/module/base.py initialize_ub: qkv_fprop, fc1_fprop and the
     * backward's proj_dgrad / fc2_dgrad gathers of the output gradients,
     * v1.x-2.x; without userbuffers gather_along_first_dim quantises first
     * too, with an amax reduction over the group under current scaling,
     * pytorch/distributed.py _all_gather_fp8 / _all_gather_mxfp8).  The
     * reduce-scatters of the GEMM outputs stay 16-bit (their fp8_buf is a
     * per-recipe option the rows do not state).  NVFP4 is gathered the same
     * way, quantised first, but with both its row-wise and column-wise
     * copies (the wgrad GEMM's; NVFP4 has no local transpose, unlike FP8's
     * supports_only_rowwise_all_gather), each with its block scales
     * (TE pytorch/distributed.py _all_gather_nvfp4, module/
     * layernorm_linear.py, v2.8-v2.12). */
    e->tp_ag_b = 2.0;
    if (fw->fp8_tp_gather && e->lowp)
        e->tp_ag_b = prec == PREC_FP4 ? 2.0 * accelerator_fp4_bytes(a) : precision_bytes(prec);
    /* Quantised GEMM inputs saved for the backward (shape_act_layer): FP8
     * where the profile's layers are Transformer Engine modules
     * (fp8_saved_inputs); NVFP4 always, since only Transformer Engine trains
     * in it (NVFP4BlockScaling), and its Linear keeps the quantised input,
     * column-wise or, where sequence parallelism gathers it, row-wise
     * (pytorch/module/linear.py saved_inputmat, "Discard row-wise data
     * since it is not needed in backward pass", at d0067d0da): the part's
     * FP4 bytes with their block scales. */
    double fp4b = accelerator_fp4_bytes(a), fp8b = precision_bytes(PREC_FP8);
    e->sh.saved_q = !e->lowp ? 0.0
                    : prec == PREC_FP4 ? fp4b
                    : prec == PREC_FP8 && fw->fp8_saved_inputs ? fp8b : 0.0;
    /* the routed experts' grouped GEMMs the same way (fp8_saved_expert_inputs) */
    e->sh.saved_qe = !e->lowp ? 0.0
                     : prec == PREC_FP4 ? fp4b
                     : prec == PREC_FP8 && fw->fp8_saved_expert_inputs ? fp8b : 0.0;
    if (w->recompute_modules[0] && !recompute_modules_mask(w->recompute_modules, &e->sh.rm, NULL, 0))
        e->sh.rm = 0; /* the plan's rules reject it before */
    if ((e->sh.rm & RM_EVERY_OTHER_MM) &&
        (e->sh.Lm > 0 || e->sh.Lmb > 0 || e->sh.mla || e->sh.La < e->sh.L || e->sh.Ld < e->sh.L)) {
        snprintf(err, errlen, "recompute_modules every_other_mm (torchtitan's per-op selective "
                 "checkpointing) is modelled for layers of attention + a dense MLP only: this "
                 "model has %s layers", e->sh.Lm > 0 ? "MoE" : e->sh.Lmb > 0 ? "Mamba-2"
                                        : e->sh.mla ? "MLA attention" : "attention-only or MLP-only");
        return false;
    }
    e->step_scale = fw->step_scale > 0 ? fw->step_scale : 1.0;
    e->band_scale = 1.0;
    if (p && p->perturb.band != 0) {
        /* a sensitivity point: the whole step, its per-step host cost too,
         * lands at this position of the class's measured error band, as
         * train_band moves the reported one (the search then sizes for it) */
        char cls[CAT_ID_LEN];
        const ErrorBand *b = class_band(e, cat, cls, sizeof cls);
        double z = p->perturb.band, rel = b ? (z < 0 ? -z * b->low : z * b->high) : 0;
        if (rel > -0.95)
            e->band_scale = 1 + rel;
    }
    if (e->lowp)
        e->gemm_scale = fw->fp8_gemm_factor > 0 ? fw->fp8_gemm_factor : FP8_GEMM_FACTOR;
    /* NVFP4 GEMMs (block-scaled E2M1, an E4M3 scale per 16 values) fill
     * less of their doubled rate than FP8 ones: the part's measured share
     * of what gemm_eff gives at the FP4 peak (catalog fp4_gemm_factor, its
     * GEMM benchmark in data/catalog/efficiency.yaml), the share the
     * inference model prices FP4 GEMMs at.  The fitted FP8 factor is a
     * different kernel's. */
    if (e->lowp && prec == PREC_FP4 && accelerator_fp4_gemm_factor(a) > 0)
        e->gemm_scale = accelerator_fp4_gemm_factor(a);
    e->etp = sh->moe ? ps->etp : 0;
    e->win_frac = shape_core_frac(sh, e->s);
    return true;
}

/* Validates the fixed parts of the layout; false with a reason. */
static bool env_check_fixed(const Env *e, char *err, size_t errlen)
{
    const Shape *sh = &e->sh;
    const ParallelSpec *ps = &e->w->parallel;
    int heads = (int)sh->a, kvh = (int)sh->g, L = (int)sh->L;
    if (ps->tp > 0 && (heads % ps->tp != 0 ||
                       (!sh->mla && kvh % ps->tp != 0 && ps->tp % kvh != 0))) {
        snprintf(err, errlen, "tp=%d does not divide %d heads / %d KV heads", ps->tp, heads, kvh);
        return false;
    }
    if (ps->tp > 0 && sh->Lmb > 0 &&
        (sh->md.heads % ps->tp != 0 || sh->md.groups % ps->tp != 0)) {
        snprintf(err, errlen, "tp=%d does not divide the %d Mamba-2 heads / %d groups", ps->tp,
                 sh->md.heads, sh->md.groups);
        return false;
    }
    if (ps->pp > L) {
        snprintf(err, errlen, "pp=%d exceeds the %d layers", ps->pp, L);
        return false;
    }
    if (ps->ep > 1 && (!sh->moe || (int)sh->E % ps->ep != 0)) {
        snprintf(err, errlen, "ep=%d needs a MoE model whose experts it divides", ps->ep);
        return false;
    }
    if (ps->cp > 1 && e->w->seq_len % ps->cp != 0) {
        snprintf(err, errlen, "cp=%d does not divide seq_len %d", ps->cp, e->w->seq_len);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------ results */

typedef struct {
    int G;
    Search S;
    Ckpt ck;
    double tokens_per_s;
    double days;
} Sized;

static void sized_eval(const Env *e, const Catalog *cat, int G, Sized *z)
{
    memset(z, 0, sizeof *z);
    z->G = G;
    search_init(&z->S);
    search_gpus(e, G, &z->S);
    if (!z->S.have)
        return;
    env_checkpoint(e, cat, G, &z->ck);
    double step = z->S.best_s;
    if (e->w->mfu > 0)
        step = shape_flops(&e->sh, e->B, e->s) / (G * e->peak_quoted * e->w->mfu);
    z->tokens_per_s = step > 0 ? e->B * e->s / step : 0;
    double gp = z->ck.goodput;
    z->days = (z->tokens_per_s > 0 && gp > 0) ? e->w->tokens / (z->tokens_per_s * gp) / 86400.0
                                              : INFINITY;
}

/* The best layout of *z recomputes activations although the workload left
 * recompute to the search (and its framework names no recompute of its
 * own, recompute_default): keeping some in host memory may be faster.
 * Weighed only where the framework's default sharding fits nowhere
 * (shard_fallback): there its memory tools are searched together, as
 * Megatron-Bridge's FSDP recipes offload instead of recomputing; elsewhere
 * a plan runs as the framework's recipes do by default, recomputing (on
 * TPU, where MaxText's default remat policy recomputes, letting offload
 * compete everywhere moved PaLM 540B from 0 to -18 %). */
static bool offload_competes(const Env *e, const Sized *z)
{
    return z->S.have && z->S.best.recompute != RECOMPUTE_NONE &&
           e->w->recompute == RECOMPUTE_AUTO && !e->rc_default;
}

/* Where no layout fits on the GPU, where under the sharding fallback the
 * best one recomputes activations the search chose to recompute
 * (offload_competes), or to refine an offload the sizing chose, a
 * framework that can keep activations in host memory (activation_offload)
 * offloads a share of each stage's layers: of L/8, L/4, L/2, 3L/4 and all
 * L, the one whose best layout is fastest, the fewest on a tie — with the
 * offload hidden under compute, fewer layers cost nothing more, and
 * offloading no more than needed keeps the host link's margin
 * (Megatron-Bridge's Llama 3 70B FSDP recipes offload 40 or 20 of 80
 * layers instead of recomputing; MaxText's v6e and Ironwood recipes every
 * decoder layer).  *z keeps its layout when it has one and none is
 * faster; e->offload_auto is left at the choice (0 when nothing fits). */
static void offload_fallback(Env *e, const Catalog *cat, int G, Sized *z)
{
    if (!e->offload_search)
        return;
    static const double share[] = {0.125, 0.25, 0.5, 0.75, 1.0};
    int L = (int)e->sh.L, last = 0, chosen = z->S.have ? e->offload_auto : 0;
    for (size_t i = 0; i < sizeof share / sizeof share[0]; i++) {
        int k = (int)ceil(L * share[i]);
        if (k < 1 || k == last || (z->S.have && k == chosen))
            continue; /* z is that count's evaluation already */
        last = k;
        e->offload_auto = k;
        Sized t;
        sized_eval(e, cat, G, &t);
        if (t.S.have && (!z->S.have || t.S.best_s < z->S.best_s * (1 - 1e-9) ||
                         (k < chosen && !(t.S.best_s > z->S.best_s * (1 + 1e-9))))) {
            *z = t;
            chosen = k;
        }
    }
    e->offload_auto = chosen;
}

/* Where no layout fits with the framework's default sharding, a framework
 * that can shard more over data parallel (dp_sharding_fallback: Megatron
 * FSDP, DeepSpeed ZeRO-3) does, on unpipelined layouts (zero_pp keeps the
 * default's stage: DeepSpeed's pipeline engine refuses ZeRO-2/3, and every
 * Megatron-Bridge recipe that runs Megatron FSDP is unpipelined), with or
 * without activation offload (offload_fallback).  *z is what the default
 * gave (a layout with activations offloaded, or none); the sharded choice
 * replaces it when *z has none or it is faster.  Megatron-Bridge's Llama 3
 * 70B FP8 recipes on 64 GB200 shard fully and offload 40 of 80 layers:
 * their distributed optimizer's fp32 gradients alone (280 GB) overflow
 * the GPU (docs/training/megatron-fsdp.md: "the model is too large for
 * plain DDP or distributed optimizer"). */
static void shard_fallback(Env *e, const Catalog *cat, int G, Sized *z)
{
    if (e->zero_fb_stage < 0)
        return;
    int z0 = e->zero, off0 = e->offload_auto;
    e->zero = e->zero_fb_stage;
    e->zero_fb = true;
    e->offload_auto = 0;
    Sized t;
    sized_eval(e, cat, G, &t);
    if (!t.S.have || offload_competes(e, &t))
        offload_fallback(e, cat, G, &t);
    if (t.S.have && (!z->S.have || t.S.best_s < z->S.best_s * (1 - 1e-9))) {
        *z = t;
        return;
    }
    e->zero = z0;
    e->zero_fb = false;
    e->offload_auto = off0;
}

/* Days of the best (v, b, r) for one shape on G GPUs; INFINITY if none. */
static double shape_days(const Env *e, const Catalog *cat, int G, int t, int c, int ep, int p)
{
    Search S;
    search_init(&S);
    search_shape(e, G, t, c, ep, p, &S);
    if (!S.have)
        return INFINITY;
    Ckpt ck;
    env_checkpoint(e, cat, G, &ck);
    double step = S.best_s;
    if (e->w->mfu > 0)
        step = shape_flops(&e->sh, e->B, e->s) / (G * e->peak_quoted * e->w->mfu);
    double tps = e->B * e->s / step;
    if (!(tps > 0) || !(ck.goodput > 0))
        return INFINITY;
    return e->w->tokens / (tps * ck.goodput) / 86400.0;
}

/* Smallest GPU count (a multiple of a node) whose best layout meets
 * target_days.  For each model-parallel shape (t, c, e, p) the GPU counts
 * it allows are t·c·e·p·d with d dividing B/e; days fall with d for a fixed
 * shape (more replicas, same per-replica work; the bubble share and DP
 * traffic grow slowly), so a binary search over those d finds the shape's
 * smallest count; the answer is the minimum over shapes, and counts at or
 * above the best so far are not searched.  Where the days are not monotone
 * in d (large DP groups crossing leaves, shrinking goodput) the binary
 * search can return a count slightly above the true minimum, never one that
 * misses the target: the final count is re-evaluated with a full search.
 * Past some size a shape gets slower as it grows (DP traffic over more
 * tiers, goodput falling with the job's MTBF), so a shape whose largest
 * count misses the target is walked down from it by halves while it gets
 * faster, and searched below the fastest count found (one evaluation more
 * for a shape that scales to its largest count).  *fastest_G (when not
 * NULL) is the count of the fastest shape found: what a plan that cannot
 * meet the target is sized at. */
static int size_for_target(const Env *e, const Catalog *cat, double target, int *fastest_G)
{
    int best = 0, fast_G = 0;
    double fastest = INFINITY;
    int dl[512];
    for (int ie = 0; ie < e->ne; ie++) {
        int ep = e->ec[ie], ed = ep_dim(e, ep);
        double Be = e->B / ed;
        if (fabs(Be - floor(Be)) > 1e-9 || Be < 1)
            continue;
        long long Bi = (long long)Be;
        /* divisors of B/e, ascending */
        int n = 0, hi[256], nh = 0;
        for (long long x = 1; x * x <= Bi && n < 256; x++) {
            if (Bi % x)
                continue;
            dl[n++] = (int)x;
            if (x * x != Bi && nh < 256)
                hi[nh++] = (int)(Bi / x);
        }
        for (int i = nh - 1; i >= 0 && n < 512; i--)
            dl[n++] = hi[i];
        for (int it = 0; it < e->nt; it++)
            for (int ic = 0; ic < e->nc; ic++)
                for (int ip = 0; ip < e->np; ip++) {
                    int t = e->tc[it], c = e->cc[ic], p = e->pc[ip];
                    long long mp = (long long)t * c * ed * p;
                    /* admissible d: whole nodes, below the best so far */
                    int cand[512], nc = 0;
                    for (int i = 0; i < n; i++) {
                        long long G = mp * dl[i];
                        if (G > MAX_GPUS || (best > 0 && G >= best) ||
                            (long long)dl[i] * ed * p > (long long)e->B)
                            break; /* m = B/(b·d·e) ≥ p needs d·e·p ≤ B */
                        if (e->etp > 0 &&
                            ((long long)t * c * dl[i]) % ((long long)e->etp * ep) != 0)
                            continue; /* folded experts must tile t·c·d */
                        if (G % e->gpn == 0)
                            cand[nc++] = (int)G;
                    }
                    if (nc == 0)
                        continue;
                    double top = shape_days(e, cat, cand[nc - 1], t, c, ep, p);
                    while (!(top <= target) && nc > 1) {
                        int k = nc - 1;
                        while (k > 0 && cand[k] > cand[nc - 1] / 2)
                            k--;
                        double dk = shape_days(e, cat, cand[k], t, c, ep, p);
                        if (!(dk < top))
                            break;
                        top = dk;
                        nc = k + 1;
                    }
                    if (top < fastest) {
                        fastest = top;
                        fast_G = cand[nc - 1];
                    }
                    if (!(top <= target))
                        continue;
                    /* Days scale roughly as 1/G: start at the estimated
                     * count and gallop down to bracket the smallest one
                     * that still meets the target, then bisect. */
                    int lo = 0, hiI = nc - 1;
                    double est = cand[nc - 1] * top / target;
                    int i0 = 0;
                    while (i0 < hiI && cand[i0] < est)
                        i0++;
                    if (i0 < hiI) {
                        if (shape_days(e, cat, cand[i0], t, c, ep, p) <= target) {
                            hiI = i0;
                            for (int step = 1; hiI > lo; step *= 2) {
                                int j = hiI - step < lo ? lo : hiI - step;
                                if (shape_days(e, cat, cand[j], t, c, ep, p) <= target) {
                                    hiI = j;
                                } else {
                                    lo = j + 1;
                                    break;
                                }
                            }
                        } else {
                            lo = i0 + 1;
                        }
                    }
                    while (lo < hiI) {
                        int mid = (lo + hiI) / 2;
                        if (shape_days(e, cat, cand[mid], t, c, ep, p) <= target)
                            hiI = mid;
                        else
                            lo = mid + 1;
                    }
                    if (best == 0 || cand[lo] < best)
                        best = cand[lo];
                }
    }
    if (fastest_G)
        *fastest_G = fast_G;
    return best;
}

/* The larger global batches tried as a fix, 1.25× to 4× of B0 (kept to a
 * multiple of 8 when B0 is one).  Raising the batch changes the
 * optimisation, not the FLOPs: the fix is a proposal to check against the
 * run's critical batch size (McCandlish et al. 2018, "An Empirical Model
 * of Large-Batch Training").  Returns 0 past the last one. */
static const double BATCH_MULT[] = {1.25, 1.5, 2, 3, 4};
#define N_BATCH_MULT (sizeof BATCH_MULT / sizeof BATCH_MULT[0])

static int batch_candidate(int B0, size_t i)
{
    long long B = llround(B0 * BATCH_MULT[i]);
    if (B0 % 8 == 0 && B % 8)
        B += 8 - B % 8;
    return B > B0 && B <= (long long)MAX_GPUS * 64 ? (int)B : 0;
}

/* e's run at global batch B, in *e2 (which points at *w2). */
static bool env_with_batch(const Env *e, const Catalog *c, int B, Workload *w2, Env *e2)
{
    *w2 = *e->w;
    w2->global_batch = B;
    w2->gpus = 0;
    char err[PLAN_TEXT_LEN];
    if (!env_init(e2, e->p, w2, e->a, c, err, sizeof err))
        return false;
    e2->offload_auto = e->offload_auto;
    e2->zero = e->zero;
    e2->zero_fb = e->zero_fb;
    return true;
}

/* A run sized for target_days is held by its global batch: B sequences
 * split over at most B/(b·e·p) data-parallel replicas, and only over
 * counts that divide B/e, so the count jumps (8,192 → 16,384 for B = 2048)
 * and the run either misses the target or finishes well inside it (issue
 * 15).  Returns the smallest larger batch whose sizing meets `target` on
 * fewer GPUs than `than` (0 = any count), with its count and days; 0 when
 * none does. */
static int batch_fix(const Env *e, const Catalog *c, double target, int than, int *G_out,
                     double *days_out)
{
    for (size_t i = 0; i < N_BATCH_MULT; i++) {
        int B = batch_candidate(e->w->global_batch, i);
        Workload w2;
        Env e2;
        if (!B || !env_with_batch(e, c, B, &w2, &e2))
            continue;
        int G = size_for_target(&e2, c, target, NULL);
        if (G <= 0 || (than > 0 && G >= than))
            continue;
        Sized z;
        sized_eval(&e2, c, G, &z);
        if (!z.S.have || !(z.days <= target))
            continue;
        *G_out = G;
        *days_out = z.days;
        return B;
    }
    return 0;
}

/* A fixed count G the global batch does not split over: the smallest of
 * the larger batches that does, with its days; 0 when none does. */
static int batch_for_gpus(const Env *e, const Catalog *c, int G, double *days_out)
{
    for (size_t i = 0; i < N_BATCH_MULT; i++) {
        int B = batch_candidate(e->w->global_batch, i);
        Workload w2;
        Env e2;
        if (!B || !env_with_batch(e, c, B, &w2, &e2))
            continue;
        Sized z;
        sized_eval(&e2, c, G, &z);
        if (!z.S.have || !isfinite(z.days))
            continue;
        *days_out = z.days;
        return B;
    }
    return 0;
}

/* GPUs vs days for the shape of layout l: the counts t·c·e·p·d with d
 * dividing B/e (and d·e·p ≤ B, whole nodes) from G/4 to 4·G, each timed with that
 * shape's best layout (shape_days).  The gaps between them are why a
 * sized run jumps from one count to twice it. */
static void days_curve(const Env *e, const Catalog *c, const Layout *l, int G, TrainResult *tr)
{
    tr->n_curve = 0;
    if (l->ep < 1 || l->tp < 1 || l->pp < 1 || l->cp < 1)
        return;
    double Be = e->B / l->ep;
    if (fabs(Be - floor(Be)) > 1e-9 || Be < 1)
        return;
    long long Bi = (long long)Be, mp = (long long)l->tp * l->cp * l->ep * l->pp;
    int counts[64], n = 0, at = -1;
    for (long long d = 1; d <= Bi && n < 64; d++) {
        long long g = mp * d;
        /* within a factor of 4 of G: the choices a meeting weighs */
        if (Bi % d || g > MAX_GPUS || d * l->ep * l->pp > (long long)e->B || g % e->gpn ||
            g * 4 < G || g > 4LL * G)
            continue;
        if (g == G)
            at = n;
        counts[n++] = (int)g;
    }
    if (at < 0 || n == 0)
        return;
    /* a window of the counts around G: more below (the cheaper options) */
    int lo = at - (TRAIN_CURVE_MAX * 2) / 3, hi;
    if (lo < 0)
        lo = 0;
    hi = lo + TRAIN_CURVE_MAX;
    if (hi > n) {
        hi = n;
        lo = hi - TRAIN_CURVE_MAX > 0 ? hi - TRAIN_CURVE_MAX : 0;
    }
    for (int i = lo; i < hi; i++) {
        double days = counts[i] == G ? tr->train_days
                                     : shape_days(e, c, counts[i], l->tp, l->cp, l->ep, l->pp);
        if (!isfinite(days))
            continue;
        tr->curve_gpus[tr->n_curve] = counts[i];
        tr->curve_days[tr->n_curve++] = days;
    }
}

/* Thousands-grouped count for the binding-constraint texts ("12,288"). */
static const char *group3(int v, char *buf, size_t len)
{
    char d[24];
    snprintf(d, sizeof d, "%d", v < 0 ? -v : v);
    size_t n = strlen(d), o = 0;
    if (v < 0 && o + 1 < len)
        buf[o++] = '-';
    for (size_t i = 0; i < n && o + 2 < len; i++) {
        if (i && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o] = '\0';
    return buf;
}

/* Error band (TrainResult step_s_low …): the catalog's error_bands row of
 * this workload's class "<family>/<dense|moe>/<bf16|fp8>" (family = the
 * accelerator's `family`, else its id), else the "default" row, else none
 * (low = high = the prediction); where the framework has no calibration on
 * the accelerator, "uncalibrated/<class>", else "uncalibrated", first
 * (class_band).  The step time moves by the band's
 * relative ends; days and GPU-hours move with it (goodput does not depend
 * on the step); a size chosen for target_days moves inversely with the
 * speed (days ∝ 1/GPUs, rounded up to whole nodes). */
static void train_band(const Env *e, const Catalog *cat, TrainResult *tr)
{
    const ErrorBand *b = class_band(e, cat, tr->band_class, sizeof tr->band_class);
    double lo = b ? b->low : 0, hi = b ? b->high : 0;
    tr->band_runs = b ? b->runs : 0;
    tr->step_s_low = tr->step_s * (1 + lo);
    tr->step_s_high = tr->step_s * (1 + hi);
    tr->train_days_low = tr->train_days * (1 + lo);
    tr->train_days_high = tr->train_days * (1 + hi);
    tr->gpu_hours_low = tr->gpu_hours * (1 + lo);
    tr->gpu_hours_high = tr->gpu_hours * (1 + hi);
    tr->gpus_low = tr->gpus_high = tr->gpus;
    if (!(e->w->gpus > 0) && e->w->target_days > 0) {
        double n = e->gpn > 0 ? e->gpn : 1;
        tr->gpus_low = (int)(ceil(tr->gpus * (1 + lo) / n - 1e-9) * n);
        tr->gpus_high = (int)(ceil(tr->gpus * (1 + hi) / n - 1e-9) * n);
        if (tr->gpus_low < n)
            tr->gpus_low = (int)n;
    }
}

static const char *recompute_name(Recompute r)
{
    switch (r) {
    case RECOMPUTE_NONE: return "none";
    case RECOMPUTE_SELECTIVE: return "selective";
    case RECOMPUTE_FULL: return "full";
    default: return "auto";
    }
}

static void fail(WorkloadResult *wr, const char *fmt, const char *a, double x, double y)
{
    wr->ok = false;
    snprintf(wr->error, sizeof wr->error, fmt, a, x, y);
}

bool train_size(const Plan *p, const Workload *w, const Accelerator *a, const Catalog *c,
                WorkloadResult *wr, PlanResult *r)
{
    TrainResult *tr = &wr->train;
    memset(tr, 0, sizeof *tr);
    wr->ok = false;
    wr->error[0] = '\0';
    if (!p || !w || !a) {
        snprintf(wr->error, sizeof wr->error, "internal: missing plan, workload or accelerator");
        return false;
    }
    if (!(w->tokens > 0)) {
        snprintf(wr->error, sizeof wr->error, "training tokens must be positive (got %g)",
                 w->tokens);
        return false;
    }
    if (w->seq_len <= 0 || w->global_batch <= 0) {
        snprintf(wr->error, sizeof wr->error,
                 "seq_len and global_batch must be positive (got %d, %d)", w->seq_len,
                 w->global_batch);
        return false;
    }
    if (w->gpus <= 0 && !(w->target_days > 0)) {
        snprintf(wr->error, sizeof wr->error, "give either gpus or target_days");
        return false;
    }
    if (w->gpus < 0 || w->mfu < 0 || w->mfu > 1) {
        snprintf(wr->error, sizeof wr->error, "gpus must be ≥ 0 and mfu within 0–1");
        return false;
    }
    Env e;
    if (!env_init(&e, p, w, a, c, wr->error, sizeof wr->error) ||
        !env_check_fixed(&e, wr->error, sizeof wr->error))
        return false;
    /* named whether or not a layout is found (eval --json's framework) */
    snprintf(tr->framework, sizeof tr->framework, "%s", e.fw_id);
    /* A count's k is 1,000 in a plan (doc/plan-format.md), so "seq_len: 8k"
     * is 8,000 tokens; context lengths are powers of two, "8Ki". */
    if (w->seq_len >= 1000 && w->seq_len % 1000 == 0 && (w->seq_len & (w->seq_len - 1)))
        result_warn(r, "%s: seq_len %d is a round thousand, not a power of two: a plan's k is "
                       "1,000 (8k = 8,000 tokens), Ki is 1,024 (8Ki = 8,192)",
                    w->name, w->seq_len);
    tr->zero = e.zero;
    tr->params = e.sh.total;
    tr->active_params = e.sh.active;
    tr->flops_per_step = shape_flops(&e.sh, e.B, e.s);
    tr->flops_total = tr->flops_per_step / (e.B * e.s) * w->tokens;
    tr->hbm_bytes = e.hbm_cap;

    int G = w->gpus;
    bool sized = false, missed_target = false;
    if (G <= 0) {
        int fastest_G;
        G = size_for_target(&e, c, w->target_days, &fastest_G);
        /* nothing fits at any size: with every layer's activations in host
         * memory (bit 1), sharded as the framework can (bit 2), then both;
         * offload_fallback / shard_fallback then refine the count's choice */
        const int z0 = e.zero;
        for (int tool = 1; tool <= 3 && G <= 0 && fastest_G <= 0; tool++) {
            if (((tool & 1) && !e.offload_search) || ((tool & 2) && e.zero_fb_stage < 0))
                continue;
            e.offload_auto = tool & 1 ? (int)e.sh.L : 0;
            e.zero_fb = tool & 2;
            e.zero = e.zero_fb ? e.zero_fb_stage : z0;
            G = size_for_target(&e, c, w->target_days, &fastest_G);
        }
        if (G <= 0 && fastest_G <= 0) {
            e.offload_auto = 0;
            e.zero_fb = false;
            e.zero = z0;
        }
        sized = true;
        if (G <= 0 && fastest_G > 0) {
            /* The target cannot be met: plan the fastest size found, say so,
             * and let the rest of the plan (cluster, power, cost) carry it. */
            G = fastest_G;
            missed_target = true;
        } else if (G <= 0) {
            snprintf(wr->error, sizeof wr->error,
                     "no layout of %s fits in %.1f GiB of %s or divides global batch %d "
                     "at any size", w->name, e.hbm_cap / GIB, a->id, w->global_batch);
            return false;
        }
    }
    Sized z;
    sized_eval(&e, c, G, &z);
    /* nothing fits, or only with activations offloaded: the framework's
     * further sharding competes (shard_fallback) */
    bool tight = !z.S.have || e.offload_auto > 0;
    if (tight || (e.zero_fb && offload_competes(&e, &z)))
        offload_fallback(&e, c, G, &z);
    if (tight && !e.zero_fb)
        shard_fallback(&e, c, G, &z);
    Search *S = &z.S;
    if (missed_target && S->have) {
        /* the days quoted are those of the size planned, on its best layout
         * of every shape (at least as fast as the shape that found it) */
        const double fastest = z.days;
        result_warn(r, "%s: cannot finish %.3g tokens in %.3g days on %s; planned at the "
                       "fastest found, %.1f days on %d GPUs (batch %d limits data "
                       "parallelism; failures grow with size)",
                    w->name, w->tokens, w->target_days, a->id, fastest, G, w->global_batch);
        char g1[24], g2[24];
        int fG = 0;
        double fdays = 0;
        /* the fix is searched for the plan's own sizing (r given), not
         * for the other accelerators of the ranking */
        int fB = r ? batch_fix(&e, c, w->target_days, 0, &fG, &fdays) : 0;
        if (fB > 0) {
            snprintf(tr->binding, sizeof tr->binding,
                     "global batch %d caps data parallelism: fastest %.1f d on %s GPUs",
                     w->global_batch, fastest, group3(G, g1, sizeof g1));
            snprintf(tr->fix, sizeof tr->fix, "raise global_batch to %d to use %s GPUs (%.1f d)",
                     fB, group3(fG, g2, sizeof g2), fdays);
        } else {
            snprintf(tr->binding, sizeof tr->binding,
                     "scaling: no size finishes in %.3g d (fastest %.1f d on %s GPUs)",
                     w->target_days, fastest, group3(G, g1, sizeof g1));
            snprintf(tr->fix, sizeof tr->fix, "relax target_days to %.0f, or a faster "
                     "accelerator", ceil(fastest));
        }
    }
    tr->gpus = G;
    tr->layouts_tried = S->tried;
    tr->rejected_no_fit = S->no_fit;
    tr->rejected_indivisible = S->indiv;
    tr->rejected_microbatches = S->nmb;
    if (!S->have) {
        if (S->any_mem) {
            const Layout *l = &S->min_mem_layout;
            snprintf(wr->error, sizeof wr->error,
                     "no layout fits on %d × %s: best needs %.1f GiB per GPU "
                     "(tp=%d pp=%d cp=%d ep=%d dp=%d mb=%d recompute=%s) vs %.1f GiB usable%s",
                     G, a->id, S->min_mem / GIB, l->tp, l->pp, l->cp, l->ep, l->dp,
                     l->micro_batch, recompute_name(l->recompute), e.hbm_cap / GIB,
                     e.offload_search ? ", nor with activations offloaded to host memory"
                                      : "");
            /* what shard_fallback tried too */
            size_t n = strlen(wr->error);
            if (e.zero_fb_stage >= 0)
                snprintf(wr->error + n, sizeof wr->error - n, ", nor with ZeRO-%d on layouts "
                         "without pipelining", e.zero_fb_stage);
            tr->hbm_bytes = e.hbm_cap;
        } else {
            snprintf(wr->error, sizeof wr->error,
                     "no layout divides: global batch %d over micro-batch × data parallel "
                     "with ≥ pp micro-batches on %d GPUs (tried %d shapes)",
                     w->global_batch, G, S->indiv + S->nmb);
            /* the binding constraint is the batch: the one that would use
             * these GPUs (searched for the plan's own sizing only) */
            double fdays = 0;
            int fB = r ? batch_for_gpus(&e, c, G, &fdays) : 0;
            char g1[24];
            snprintf(tr->binding, sizeof tr->binding, "global batch %d does not split over %s "
                     "GPUs", w->global_batch, group3(G, g1, sizeof g1));
            if (fB > 0) {
                snprintf(tr->fix, sizeof tr->fix, "raise global_batch to %d to use %s GPUs "
                         "(%.1f d)", fB, g1, fdays);
                size_t n = strlen(wr->error);
                snprintf(wr->error + n, sizeof wr->error - n, "; %s", tr->fix);
            }
        }
        return false;
    }
    tr->layout = S->best;
    tr->zero = env_zero(&e, &tr->layout);
    tr->zero_fallback = e.zero_fb && tr->zero == e.zero;
    tr->offload_layers = (int)env_offload_layers(&e, &tr->layout);
    tr->offload_auto = tr->offload_layers > 0 && w->offload_layers <= 0;
    tr->mem = S->best_mem;
    tr->fits = true;
    tr->step = S->best_ev.st;
    tr->step_s = S->best_s;
    if (S->have2) {
        tr->has_runner_up = true;
        tr->runner_up = S->second;
        tr->runner_up_step_s = S->second_s;
    }
    if (w->mfu > 0) {
        double step = tr->flops_per_step / (G * e.peak_quoted * w->mfu);
        memset(&tr->step, 0, sizeof tr->step);
        tr->step.compute = step;
        tr->step_s = step;
    }
    tr->mfu = tr->flops_per_step / (tr->step_s * G * e.peak_quoted);
    tr->tokens_per_s = z.tokens_per_s;
    tr->checkpoint_bytes = z.ck.bytes;
    tr->checkpoint_write_s = z.ck.write_s;
    tr->checkpoint_interval_s = z.ck.interval_s;
    tr->job_mtbf_s = z.ck.mtbf_s;
    tr->goodput = z.ck.goodput;
    tr->checkpoint_write_Bps = z.ck.write_Bps;
    /* Megatron reads token ids on the first pipeline stage (inputs) and the
     * last (labels), TP/CP rank 0 broadcasting: re-read factor 2 with
     * pipeline parallelism, 1 without. */
    double reread = tr->layout.pp > 1 ? 2.0 : 1.0;
    tr->dataset_read_Bps = tr->tokens_per_s * TOKEN_BYTES * reread;
    if (!(z.ck.goodput > 0.05)) {
        fail(wr, "failures dominate on %s: job MTBF %.2g h leaves goodput %.2g",
             a->id, z.ck.mtbf_s / 3600.0, z.ck.goodput);
        tr->train_days = 0;
        return false;
    }
    tr->train_days = z.days;
    tr->gpu_hours = G * z.days * 24.0;
    train_band(&e, c, tr);
    if (!isfinite(tr->train_days) || !isfinite(tr->step_s) || !(tr->step_s > 0)) {
        snprintf(wr->error, sizeof wr->error, "step time could not be computed");
        return false;
    }
    wr->ok = true;

    if (r) {
        const char *sc = w->name;
        const Layout *l = &tr->layout;
        if (!(w->mfu > 0))
            days_curve(&e, c, l, G, tr);
        char fp8[64] = "";
        if (e.lowp)
            snprintf(fp8, sizeof fp8, "; %s GEMMs at %.2f of that, casts costed",
                     w->precision == PREC_FP4 ? "FP4" : "FP8", e.gemm_scale);
        char core[256];
        if (e.flash && e.attn_fwd > 0 && !w->flash_attention_v1)
            snprintf(core, sizeof core,
                     "attention core at %.2f / %.2f of the 16-bit peak forward / backward (%s) "
                     "at its measured sequence, scaled by the keys a block loops over",
                     e.attn_fwd, e.attn_bwd, e.attn_src);
        else
            snprintf(core, sizeof core, "attention core at x=min(h/t, b·s/c)=%.0f",
                     S->best_ev.gemm_x);
        /* hardware FLOP utilisation: what the kernels execute (layer_cost's
         * flops: recompute, the attention core's causal half) */
        result_assume(r, sc, "GEMM efficiency %.2f on average over the dense GEMMs, each at the "
                      "curve value of its narrowest side (M×N×K; %s) "
                      "(%s curve, catalog efficiency.yaml, x%.2f for %s)%s; hardware FLOP "
                      "utilisation %.1f%% as executed",
                      S->best_ev.gemm_eff, core, a->id, e.fw_gemm, e.fw->id, fp8,
                      100.0 * S->best_ev.flops_exec / (S->best_s * e.peak_quoted));
        /* the model-FLOP convention at long sequences: say what the MFU counts */
        double share = shape_attn_share(&e.sh, e.s);
        if (share >= MFU_NOTE_ATTN_SHARE)
            result_assume(r, sc, "MFU %.1f%% counts the attention core's whole s×s score "
                          "matrix, as Megatron's num_floating_point_operations does: %.0f%% of "
                          "the model FLOPs here, of which causal masking computes half (the "
                          "hardware FLOP utilisation counts that half, and the recompute)",
                          100.0 * tr->mfu, 100.0 * share);
        char cp_ov[64] = "CP under the first ring step";
        if (!e.cp_torch || !(e.cp_ov > 0))
            snprintf(cp_ov, sizeof cp_ov, "CP %.0f%%", 100 * e.cp_ov);
        result_assume(r, sc, "element-wise work at %.0f%% of %.2f TB/s HBM; %s: TP comm %.0f%%, "
                      "DP %.0f%%, %s, EP %.0f%% overlapped",
                      100.0 * e.ew_bw / e.hbm_bw, e.hbm_bw / 1e12, e.fw_id, 100 * e.tp_ov,
                      100 * e.dp_ov, cp_ov,
                      100 * env_ep_overlap(&e));
        if (tr->band_class[0])
            result_assume(r, sc, "model error band %+.0f%% / %+.0f%% on the step time (%s, %d "
                          "published runs; catalog error_bands.yaml)",
                          100 * (tr->step_s_low / tr->step_s - 1),
                          100 * (tr->step_s_high / tr->step_s - 1), tr->band_class,
                          tr->band_runs);
        if (!framework_calibrated_on(e.fw, a))
            result_assume(r, sc, "%s has no calibration on %s: its profile's multipliers "
                          "as given%s", e.fw_id, a->id,
                          strncmp(tr->band_class, BAND_UNCALIBRATED, strlen(BAND_UNCALIBRATED)) == 0
                              ? "; the band is the set's runs each predicted without its own "
                                "calibration"
                              : "");
        if (e.fw->calibrated_runs > 0) {
            const char *at = strchr(e.fw->id, '@');
            /* whose runs: the calibration's label, unnamed for a user's own */
            const char *runs = e.fw->calibrated_on[0] ? e.fw->calibrated_on : "runs";
            /* what the fit is worth on runs it did not see (calibrate
             * --cross-validate), beside its in-sample residual */
            char cv[48] = "";
            if (e.fw->cv_residual > 0)
                snprintf(cv, sizeof cv, ", cross-validated %.1f%%", 100 * e.fw->cv_residual);
            if (e.fw->calibrated_as[0])
                result_assume(r, sc, "calibrated as %s, the profile %s takes its calibration "
                              "from (calibration_from): %d %s, residual %.1f%%%s there",
                              e.fw->calibrated_as, e.fw->id, e.fw->calibrated_runs, runs,
                              100 * e.fw->calibrated_residual, cv);
            else if (at && strcasecmp(at + 1, a->id) != 0)
                result_assume(r, sc, "calibrated on %s, the same silicon (%s): %d %s, residual "
                              "%.1f%%%s; none of %s", at + 1, e.fw->id, e.fw->calibrated_runs,
                              runs, 100 * e.fw->calibrated_residual, cv, a->id);
            else if (e.fw->calibrated_on[0]) /* not the user's: say whose */
                result_assume(r, sc, "calibrated on %d %s, residual %.1f%%%s (%s)",
                              e.fw->calibrated_runs, runs, 100 * e.fw->calibrated_residual, cv,
                              e.fw->id);
            else
                result_assume(r, sc, "calibrated on %d of your runs (%s), residual %.1f%%%s",
                              e.fw->calibrated_runs, e.fw->id, 100 * e.fw->calibrated_residual,
                              cv);
        }
        result_assume(r, sc, "memory: + %.0f GiB CUDA context/workspaces + %.0f%% allocator "
                      "fragmentation; usable HBM %.1f GiB", MEM_FIXED_BYTES / GIB,
                      100 * MEM_FRAG_FRAC, e.hbm_cap / GIB);
        result_assume(r, sc, "links: NVLink %.0f GB/s per GPU achieved, scale-out %.1f GB/s "
                      "(%.0f%% of line rate)", e.su_bw / 1e9, e.so_bw / 1e9,
                      100 * NET_SCALEOUT_EFF);
        result_assume(r, sc, "MTBF %.0f GPU-hours → job MTBF %.2f h; checkpoint %.2f TB "
                      "written in %.0f s every %.0f min (%s); restart %.0f s; goodput %.1f%%",
                      e.mtbf_gpu_s / 3600, z.ck.mtbf_s / 3600, z.ck.bytes / 1e12, z.ck.write_s,
                      z.ck.interval_s / 60,
                      w->checkpoint_interval_s > 0 ? "plan" : (z.ck.daly ? "Daly" : "Young"),
                      e.restart_s, 100 * z.ck.goodput);
        result_assume(r, sc, "dataset read: %.0f bytes per token × re-read factor %.0f "
                      "(first and last pipeline stage read)", TOKEN_BYTES, reread);
        if (tr->zero_fallback)
            result_assume(r, sc, "ZeRO-%d: the plan leaves zero auto, and no layout fits with "
                          "%s's default (ZeRO-%d, frameworks.yaml dp_sharding): sharded as it "
                          "can be instead (dp_sharding_fallback)", e.zero, e.fw_id,
                          framework_zero(c, w->framework, NULL));
        else if (w->zero < 0)
            result_assume(r, sc, "ZeRO-%d: the plan leaves zero auto, and %s shards %s by "
                          "default (frameworks.yaml dp_sharding)%s", env_zero(&e, l), e.fw_id,
                          e.zero == 0   ? "nothing (DDP)"
                          : e.zero == 1 ? "the optimizer state"
                          : e.zero == 2 ? "optimizer state and gradients"
                                        : "weights, gradients and optimizer state",
                          e.zero_pp != e.zero && l->pp > 1
                              ? "; pipelined, its units stay gathered from forward to backward"
                              : "");
        if (e.rc_default)
            result_assume(r, sc, "recompute %s: the plan leaves recompute auto, and %s's "
                          "recipes run it (frameworks.yaml recompute_default); a recompute key "
                          "chooses another", recompute_name(l->recompute), e.fw_id);
        if (w->mfu > 0)
            result_assume(r, sc, "MFU fixed at %.1f%% by the plan (replaces the modelled "
                          "efficiency; layout only checked for memory)", 100 * w->mfu);
        if (l->pp > 1 && (int)e.sh.L % l->pp != 0)
            result_assume(r, sc, "uneven pipeline: %d layers on %d stages (heaviest stage "
                          "%d layers; the last stage, with the output layer, takes fewer "
                          "when that is faster)", (int)e.sh.L, l->pp, stage_layers(&e.sh, l->pp));
        if (env_pp_unsharded(&e, l))
            result_assume(r, sc, "FSDP under pipeline parallelism (%s): each stage keeps its "
                          "weights gathered (%.0f B each) and its gradients unsharded (%.0f B "
                          "each) for the whole step and reduce-scatters once after its "
                          "last backward: ZeRO-1's memory, not zero %d's", e.fw->id, e.ag_b,
                          env_grad_b(&e, l), e.zero);
        if (e.tp_fp4_off && l->tp > 1)
            result_assume(r, sc, "TP collectives exposed: %s's NVFP4 recipes turn the TP "
                          "communication overlap off (frameworks.yaml fp4_tp_exposed); "
                          "tp_comm_exposed says the same for other precisions", e.fw_id);
        if (w->cp_comm_exposed && l->cp > 1)
            result_assume(r, sc, "context parallelism gathers the whole K/V before the attention "
                          "and reduce-scatters dK/dV after it: the CP traffic is not hidden");
        if (e.eg_loss)
            result_assume(r, sc, "loss as eager PyTorch ops on fp32 logits%s: %.0f bytes a logit "
                          "live at its backward, %.0f moved",
                          l->tp > 1 ? " (torch's loss_parallel over the TP ranks)" : "",
                          eager_loss_peak_b(l), eager_loss_pass_b(l));
        if (env_recompute_share(&e, l) < 1.0)
            result_assume(r, sc, "recompute full on %d of %d layers per stage, the others "
                          "keep all their activations", w->recompute_layers,
                          stage_layers(&e.sh, l->pp));
        if (l->recompute == RECOMPUTE_SELECTIVE && (e.sh.rm & RM_EVERY_OTHER_MM))
            result_assume(r, sc, "selective recompute as torchtitan's per-op policy: each layer "
                          "keeps its input and the outputs of wq, wv, the attention and %s "
                          "(every other matmul); wk, wo, %s, the norms, RoPE and the activation "
                          "re-run in the backward", e.sh.glu ? "w1, w2" : "fc1",
                          e.sh.glu ? "w3" : "fc2");
        else if (l->recompute == RECOMPUTE_SELECTIVE && e.sh.rm)
            result_assume(r, sc, "selective recompute re-runs %s (Megatron-Core recompute_modules); "
                          "the rest of each layer keeps its activations", w->recompute_modules);
        if (env_offload_layers(&e, l) > 0)
            result_assume(r, sc, "activations of %.0f layers per stage offloaded to host memory "
                          "over %.0f GB/s each way (%s)%s", env_offload_layers(&e, l),
                          e.host_bw / 1e9, a->host_bw > 0 ? "catalog" : "PCIe Gen5 x16 assumed",
                          w->offload_layers > 0 ? ""
                          : e.zero_fb
                              ? ": no layout fits with the framework's default sharding, and "
                                "the plan leaves offload_layers unset, so the search weighs "
                                "offloading the fewest of L/8, L/4, L/2, 3L/4, L against "
                                "recomputing and keeps the fastest (frameworks.yaml "
                                "activation_offload)"
                              : ": no layout fits on the GPU without, and the plan leaves "
                                "offload_layers unset, so the search offloads the fewest of "
                                "L/8, L/4, L/2, 3L/4, L that give the fastest fit "
                                "(frameworks.yaml activation_offload)");
        if (e.sh.Lmb > 0)
            result_assume(r, sc, "%.0f Mamba-2 layers: the SSD scan at %.3f of the BF16 peak "
                          "(catalog ssd_eff%s) or its kernels' bytes, whichever is longer; the "
                          "hybrid classes' error bands are from Nemotron 3 Nano's and Super's "
                          "published runs only", e.sh.Lmb, accelerator_ssd_eff(a),
                          a->ssd_eff > 0 ? "" : ": not measured on this part, Hopper's share");
        if (w->precision == PREC_FP8 || w->precision == PREC_FP4)
            result_assume(r, sc, "output layer (logits) in BF16: Megatron-Core runs it outside "
                          "Transformer Engine's FP8");
        if (!(a->scaleup_bw > 0) && l->tp > 1)
            result_assume(r, sc, "%s scale-up bandwidth not in the catalog: TP collectives "
                          "timed at the scale-out rate", a->id);
        if (!(a->hbm_bw > 0))
            result_assume(r, sc, "%s HBM bandwidth not in the catalog: estimated %.2f TB/s "
                          "(peak / %.0f)", a->id, e.hbm_bw / 1e12, HBM_FLOP_PER_BYTE_DEFAULT);
        if (w->ep_overlap > 0)
            result_assume(r, sc, "%.0f%% of the MoE all-to-alls hidden under compute (plan)",
                          100 * (w->ep_overlap < 1 ? w->ep_overlap : 1));
        if (w->dp_sync_after_backward)
            result_assume(r, sc, "DP gradient sync after the backward pass (not overlapped)");
        if (e.moe_fused && e.sh.E > 1)
            result_assume(r, sc, "MoE dispatch/combine fused with the token permutation "
                          "(DeepEP/HybridEP; %s)", w->moe_fused_dispatch > 0 ? "plan" : e.fw_id);
        /* Recipe choices a MoE plan can leave out that move its step the
         * most: where making one would take a noticeable share of this
         * layout's step off, a line says how much (recipe_saving).
         *  - the dispatcher: across nodes the framework's all-to-all sends
         *    a token once per routed expert, a deduplicating dispatcher once
         *    per node (validation: with the key removed from the published
         *    runs that set it, Qwen3-30B-A3B on 16 H100 went +3 % -> +61 %;
         *    README, session 19);
         *  - the launch path: a dropless run launched from the host pays the
         *    profile's fitted host costs every layer and micro-batch (the
         *    26.08 table's graphed rows without cuda_graph_full: from within
         *    +10 % to +40 ... +67 %; README, session 20);
         *  - the all-to-all overlap: Megatron-Core's combined 1F1B hides one
         *    micro-batch's all-to-alls under another's compute, with the
         *    experts' weight gradients deferred (Megatron-Bridge
         *    moe_a2a_overlap sets both; without the keys Qwen3-235B-A22B on
         *    256 H100 went +4 % -> +56 %; README, session 20). */
        if (e.sh.E > 1) {
            double save;
            if ((save = recipe_saving(&e, l, G, S->best_ev.step, RECIPE_FUSED_DISPATCH)) > 0)
                result_assume(r, sc, "MoE dispatch by %s's all-to-all, one copy of a token per "
                              "routed expert; a deduplicating dispatcher (moe_fused_dispatch: "
                              "true, DeepEP / HybridEP) would take this layout's step %.0f%% "
                              "lower", e.fw_id, 100 * save);
            if ((save = recipe_saving(&e, l, G, S->best_ev.step, RECIPE_FULL_GRAPHS)) > 0)
                result_assume(r, sc, "MoE kernels launched from the host every layer and "
                              "micro-batch (%s's fitted host cost); replayed as full-iteration "
                              "CUDA graphs (cuda_graph_full: true) this layout's step would be "
                              "%.0f%% lower", e.fw_id, 100 * save);
            if ((save = recipe_saving(&e, l, G, S->best_ev.step, RECIPE_EP_OVERLAP)) > 0)
                result_assume(r, sc, "MoE all-to-alls exposed; hidden under another micro-batch's "
                              "compute (ep_overlap: 1 with delay_wgrad_compute: true, "
                              "Megatron-Core's combined 1F1B) this layout's step would be %.0f%% "
                              "lower", 100 * save);
        }
        if (w->cuda_graph_full) {
            if (e.sh.E > 1 && e.fw && e.fw->moe_graph_residual > 0)
                result_assume(r, sc, "whole forward-backward replayed as CUDA graphs (plan): no "
                              "per-layer launch cost, %.0f%% of the framework's fitted MoE "
                              "per-layer cost stays (moe_graph_residual)",
                              100 * e.fw->moe_graph_residual);
            else
                result_assume(r, sc, "whole forward-backward replayed as CUDA graphs (plan): no "
                              "per-layer host cost");
        }
        /* what the shape adds, after the recipe choices a plan can act on */
        if (e.sh.lat_w > 0)
            result_assume(r, sc, "LatentMoE: the routed experts, their token permutation and "
                          "all-to-alls at %.0f of %.0f wide (moe_latent); the two projections "
                          "(%.1f M weights a MoE layer) whole on every tensor rank",
                          e.sh.He, e.sh.h, e.sh.lat_w / 1e6);
        if (e.sh.win > 0 && e.sh.win < w->seq_len)
            result_assume(r, sc, "sliding-window attention: a %.0f-token window on %.0f of %.0f "
                          "attention layers (model window); their attention core priced on "
                          "the window, not the whole %d-token sequence",
                          e.sh.win, e.sh.win_L, e.sh.La, w->seq_len);
        if (e.sh.mtp > 0)
            result_assume(r, sc, "%.0f multi-token prediction module%s on the last pipeline "
                          "stage: each an attention + %s block pair, a 2h -> h projection and "
                          "another pass through the output layer", e.sh.mtp,
                          e.sh.mtp > 1 ? "s" : "", e.sh.mtp_kind & K_MOE ? "MoE" : "MLP");
        if (e.sh.saved_qe > 0 && e.sh.Lm > 0)
            result_assume(r, sc, "routed experts keep their GEMM inputs for the backward at "
                          "%.2f bytes a value (Transformer Engine GroupedLinear's column-wise "
                          "quantised copy)", e.sh.saved_qe);
        if (w->precision == PREC_FP8 && !(a->peak_flops[PREC_FP8] > 0))
            result_warn(r, "%s: %s has no FP8; timed at BF16", w->name, a->id);
        if (sized && w->target_days > 0 && !missed_target)
            result_assume(r, sc, "sized to %d GPUs for %.3g days (smallest whole-node count "
                          "found)", G, w->target_days);
        /* Over-sizing: the smallest count that meets the target finishes
         * well inside it because the next smaller count the batch divides
         * misses it.  Said, with the batch that would fit the target more
         * tightly. */
        if (sized && !missed_target && w->target_days > 0 &&
            tr->train_days < OVERSIZE_FRAC * w->target_days && !(w->mfu > 0)) {
            char g1[24], g2[24];
            snprintf(tr->binding, sizeof tr->binding,
                     "global batch %d: the next smaller count it divides misses %.3g d, so %s "
                     "GPUs finish in %.1f of %.3g d", w->global_batch, w->target_days,
                     group3(G, g1, sizeof g1), tr->train_days, w->target_days);
            int fG = 0;
            double fdays = 0;
            int fB = batch_fix(&e, c, w->target_days, G, &fG, &fdays);
            if (fB > 0)
                snprintf(tr->fix, sizeof tr->fix, "raise global_batch to %d to use %s GPUs "
                         "(%.1f d)", fB, group3(fG, g2, sizeof g2), fdays);
            result_warn(r, "%s: over-sized: %s GPUs finish in %.1f of %.3g days (global batch "
                        "%d does not divide a count in between)%s%s", w->name,
                        group3(G, g1, sizeof g1), tr->train_days, w->target_days, w->global_batch,
                        tr->fix[0] ? "; " : "", tr->fix);
        }
        if (!sized && w->target_days > 0 && tr->train_days > w->target_days)
            result_warn(r, "%s: %.1f days on %d GPUs misses the %.3g-day target", w->name,
                        tr->train_days, G, w->target_days);
        /* A fixed count puts every GPU in the layout (d = G / (t·p·c·e)), so
         * when the global batch does not split over them a smaller count can
         * be faster (Llama 3 70B, batch 2048: 25.0 days on 8,192 H100 but
         * 26.2 on 10,240).  More GPUs must never silently mean a slower run:
         * the target sizing's own search names the smallest count that beats
         * this one. */
        if (!sized && !(w->mfu > 0)) {
            int G2 = size_for_target(&e, c, tr->train_days * (1 - 1e-6), NULL);
            if (G2 > 0 && G2 < G) {
                Sized z2;
                sized_eval(&e, c, G2, &z2);
                if (z2.S.have && z2.days < tr->train_days)
                    result_warn(r, "%s: %d GPUs would finish sooner (%.1f days) than these %d "
                                "(%.1f days): a layout uses every GPU, and global batch %d "
                                "does not split well over %d",
                                w->name, G2, z2.days, G, tr->train_days, w->global_batch, G);
            }
        }
    }
    tr->meets_target = !missed_target && !(w->target_days > 0 && tr->train_days > w->target_days);
    return true;
}

/* Public memory entry point (tests, views). */
bool train_memory(const Workload *w, const Accelerator *a, const Layout *l, TrainMemory *out)
{
    memset(out, 0, sizeof *out);
    if (!w || !a || !l || l->tp < 1 || l->pp < 1 || l->dp < 1 || l->cp < 1 || l->ep < 1 ||
        l->micro_batch < 1)
        return false;
    Plan p;
    plan_init(&p);
    Env e;
    char err[PLAN_TEXT_LEN];
    if (!env_init(&e, &p, w, a, NULL, err, sizeof err))
        return false;
    Layout ll = *l;
    if (ll.vpp < 1)
        ll.vpp = 1;
    if (ll.recompute == RECOMPUTE_AUTO)
        ll.recompute = RECOMPUTE_NONE;
    env_memory(&e, &ll, out);
    return true;
}
