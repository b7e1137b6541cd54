/* model/infer.c — inference sizing (SIZING-MODEL.md §6).
 *
 * One replica = `tp` GPUs holding one copy of the weights, inside one
 * scale-up domain (across nodes only when no single-domain degree fits), in
 * one of two layouts: tensor parallel (TP), or for MoE models attention
 * data-parallel with expert-parallel experts (DEP, see Rep below).  For each
 * candidate degree and layout the model computes
 *
 *   memory   weights/tp + runtime reserve + activation workspace, and the KV
 *            cache of as many sequences as the rest of usable HBM holds, each
 *            reserved for its whole prompt + output (worst case);
 *   prefill  S = GEMM FLOPs / (peak × GEMM eff) + attention FLOPs (quadratic
 *            in the prompt) + element-wise bytes / (HBM bw × eff)
 *            + 2 all-reduces per layer of the iteration's tokens, the
 *            prompt's share of them (a batched iteration pays the
 *            collectives' latency once);
 *   decode   step(B) = max(bytes read / (HBM bw × eff), FLOPs / (peak × eff))
 *            + 2 small all-reduces per layer + a per-layer launch overhead,
 *            bytes read = weights/tp (experts actually touched, for MoE)
 *            + B × KV in use;
 *   MoE/EP   dispatch + combine all-to-alls on the busiest rank (balls into
 *            bins × the engine's ep_skew for real routing), prefill's
 *            node-deduplicated across scale-out (DeepEP normal mode); a
 *            two-batch overlap runs two micro-batches and hides ep_overlap
 *            of the all-to-alls, slowing the compute under them;
 *
 * and then treats the replica as a continuously batched server:
 *
 *   Prefill preempts decode (vLLM's and TensorRT-LLM's schedulers run waiting
 *   prompts in the next iteration), so with per-replica arrival rate λ and
 *   prefill utilisation ρ = λ·S, decoding gets 1 − ρ of the GPU time and
 *   TPOT = step(B) / (1 − ρ).  Little's law gives the sequences in flight,
 *   B = λ · output_tokens · TPOT.  Eliminating λ:
 *
 *       TPOT(B) = step(B) + B · S / output_tokens
 *       λ(B)    = B / (output_tokens · TPOT(B))
 *
 *   both increasing in B, so "the largest batch that meets the TPOT and TTFT
 *   targets" is a one-dimensional bisection per tp.
 *
 *   TTFT = queue wait + S + the rest of the running decode iteration (half a
 *   step when the replica is decoding; with b < 1 sequences in flight it is
 *   idle 1 − b of the time, so min(1, b)·step/2; an engine that holds
 *   waiting prompts for wait_steps steps, TGI, that many times more).  An
 *   engine that launches prefill eagerly (no graphs) takes at least
 *   L × eager_layer_us per prefill pass.  The load balancer is
 *   taken to split Poisson arrivals evenly at random, so each replica's
 *   prefill server is M/D/1 (fixed prompt length → deterministic service):
 *   Pollaczek–Khinchine, Wq = ρ·S / (2·(1 − ρ)).  Targets are compared with
 *   these means (a p99 target needs headroom the caller adds).
 *
 * For DEP a lone prompt's attention runs on one GPU (its latency S_lat) while
 * side-by-side prompts share the replica (S_share = the replica time one
 * prefill takes from decoding); TP has S_lat = S_share = S.
 *
 * The search keeps the degree and layout that need the fewest GPUs for the
 * planned rate (replicas = ceil(rate / per-replica rate at the SLO)); ties go
 * to the lower TPOT.  When no degree can meet the targets the service is
 * sized at INFER_SLO_RELAX × the best achievable latency and reported as
 * missing its SLO (ok, meets_slo = false, a warning).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infer.h"
#include "net.h"
#include "train.h"

/* ------------------------------------------------------------ constants */

/* Share of HBM the serving engine may use when the catalog leaves
 * hbm_usable_frac at 0: vLLM's default gpu_memory_utilization (0.90). */
#define INFER_USABLE_FRAC_DEFAULT 0.90
/* Achieved share of HBM bandwidth when the catalog has no elementwise_eff:
 * STREAM-like copies reach ~80–90 % of peak on H100/MI300X-class parts
 * (Azure ND GB200 v6 measured 92 % of 8 TB/s); 0.80 is the conservative end. */
#define INFER_HBM_EFF_DEFAULT 0.80
/* GEMM efficiency when the catalog has no gemm_eff curve (Calculon-style
 * large-GEMM efficiency on Hopper, ~0.7 of dense peak). */
#define INFER_GEMM_EFF_DEFAULT 0.70
/* Per-step latency of a scale-up (NVLink) collective when the catalog has
 * none: a few µs per NVSwitch hop. */
#define INFER_SCALEUP_LAT_DEFAULT 3e-6
/* Runtime reserve inside the usable HBM: CUDA graphs, NCCL buffers, the
 * allocator's slack.  1 GiB is the order vLLM's profiling run leaves for
 * non-torch allocations on a single GPU. */
#define INFER_RUNTIME_BYTES 1073741824.0
/* Engine defaults when the catalog has no engine row (a test catalog):
 * TensorRT-LLM's, as in data/catalog/engines.yaml (max_num_tokens 8192,
 * max_batch_size 2048, tokens_per_block 32).  The activation workspace is
 * sized for one iteration of chunk_tokens tokens. */
#define INFER_CHUNK_TOKENS 8192.0
#define INFER_BLOCK_TOKENS 32
/* Bytes per activation value (bf16 activations also in FP8-weight engines). */
#define INFER_ACT_BYTES 2.0
/* Cap on sequences in flight per replica: TensorRT-LLM's default
 * max_batch_size (2048). */
#define INFER_MAX_BATCH 2048
/* Fixed cost per transformer layer per forward pass that neither the
 * roofline nor the collectives capture: launch and tail effects of the ~8
 * kernels of a layer (~3 µs each even under CUDA graphs).  The per-engine
 * value is catalog data (data/catalog/engines.yaml layer_overhead_us); this
 * default is TensorRT-LLM's, fitted with the catalog's H100 efficiencies to
 * NVIDIA NIM 1.8.0's single-user inter-token latency for Llama-3.3-70B FP8
 * on 2×H100 (18.58 ms), a fit-half row of tests/data/serve_runs.yaml. */
#define INFER_LAYER_OVERHEAD_S 25e-6
/* The rest of that row (fit half of tests/data/serve_runs.yaml): per
 * iteration, per sequence per iteration, decode attention HBM factor. */
#define INFER_STEP_OVERHEAD_S 500e-6
#define INFER_SEQ_OVERHEAD_S 6e-6 /* refitted 4 -> 6 µs with the 16-bit LM head (engines.yaml) */
#define INFER_ATTN_EFF 0.9 /* refitted 1.0 -> 0.9 with attn_decode_bw_eff (engines.yaml) */
/* Error band when the catalog's engine row has none: the range of
 * true/predicted time over the fit half of tests/data/serve_runs.yaml
 * (the same figures engines.yaml carries; tests/test_infer.c checks they
 * still bound the fit half). */
#define INFER_BAND_LOW 0.87
#define INFER_BAND_HIGH 1.17
/* When a target cannot be met, the service is sized at this multiple of the
 * best achievable TPOT/TTFT (a stated planning choice, not a measurement). */
#define INFER_SLO_RELAX 1.25
/* Largest replica considered when it must span nodes (in scale-up domains):
 * 32 × 8 GPUs covers DeepSeek's EP144 decode and SGLang's EP72/EP32 pools
 * (a wide expert-parallel replica is 9-18 nodes). */
#define INFER_MAX_DOMAINS 32

/* ---------------------------------------------------------------- model */

/* Everything about (plan, workload, accelerator) that does not depend on tp. */
typedef struct {
    const Plan *p;
    const Accelerator *a;
    int L, h, heads, g;
    double La;                       /* layers with attention (all but a hybrid's M, -, E) */
    double blocks;                   /* norm + residual blocks: 2 a plain layer, 1 a hybrid one
                                      * (the engines' per-layer costs stay per layer: a
                                      * hybrid layer runs a layer's norm, residual and
                                      * projections) */
    double d;
    /* Mamba-2 layers (hybrid patterns): recurrent state instead of a KV cache */
    double state_seq;                /* state bytes per sequence, whole model (SSM + conv) */
    double ssd_tok;                  /* SSD FLOPs per prompt token, all Mamba layers */
    double ssd_bytes;                /* its kernels' memory traffic per prompt token */
    double ssm_decode;               /* state-update FLOPs per decoded token, all layers */
    double total, active;            /* parameters */
    double routed_total;             /* routed-expert parameters (MoE), all experts */
    double routed_active;            /* ... those one token passes through */
    double fe;                       /* expert FFN width */
    double he;                       /* the routed experts' input width: h, or the
                                      * LatentMoE width (what the all-to-alls carry) */
    double experts, moe_layers;      /* routed experts per MoE layer; MoE layers */
    double k_over_e;                 /* routed experts per token / experts */
    double lookup_only;              /* input-embedding params never read whole nor multiplied */
    double head;                     /* output-head params (V·h) */
    double wb, kvb;                  /* bytes per weight / per KV value */
    bool mla;
    double kv_tok_full;              /* KV bytes per token, all layers, whole model */
    double kv_tok_per_head;          /* MHA/GQA: KV bytes per token per KV head */
    double attn_prefill_coef;        /* attention FLOPs of a prompt = coef · P² */
    double attn_decode_per_ctx;      /* decode attention FLOPs per token per context token */
    double act_fixed, act_shard;     /* activation values per token: replicated, split over tp */
    double ew_fixed, ew_shard;       /* element-wise values moved per token per layer: same split */
    double vocab;
    double prompt, output, ctx_mean, ctx_reserved;
    double peak, peak16;             /* FLOP/s per GPU: GEMMs at weight precision; 16-bit */
    double head_xb;                  /* LM head bytes beyond wb per weight (kept 16-bit) */
    bool gemm_eff_curve_ok;          /* the catalog has a curve */
    double hbm_bw_eff;               /* bytes/s achieved */
    double wt_bw;                    /* bytes/s a decode step streams its GEMM weights at */
    double attn_bw;                  /* bytes/s the decode attention kernel reads KV at */
    double usable;                   /* usable HBM bytes per GPU */
    double up_bw, up_lat;            /* scale-up collective bandwidth / latency */
    int domain;                      /* GPUs per scale-up domain */
    /* engine (data/catalog/engines.yaml, plan overrides applied) */
    double layer_ovh, step_ovh;      /* s per layer per pass, s per iteration */
    double seq_ovh;                  /* s per sequence per iteration */
    double eager_layer;              /* s of host launch work per layer of an eager prefill pass */
    double wait_steps;               /* decode steps prompts wait to be prefilled together */
    double chunk;                    /* tokens per iteration */
    int cap;                         /* sequences in flight per scheduler */
    int ep_cap;                      /* ... per attention-DP rank of an EP layout; 0 = cap */
    double block;                    /* KV block, tokens */
    double attn_eff;                 /* decode attention HBM efficiency factor */
    bool fused;                      /* chunked prefill rides in the decode iteration */
    /* prefix cache and speculative decoding */
    double p_new;                    /* prompt tokens computed (not prefix-cache hits) */
    double draft;                    /* tokens proposed per decode step */
    double tok_per_step;             /* expected tokens accepted per step, E */
    double out_steps;                /* decode steps per request = output / E */
    /* expert-parallel all-to-alls */
    double disp_b, comb_b;           /* bytes per value dispatched / combined */
    double ep_ov;                    /* share of the all-to-alls hidden under compute */
    double mb;                       /* decode micro-batches per step (two-batch overlap: 2) */
    double skew;                     /* routed load skew beyond uniform routing (>= 1) */
    bool ep_gather;                  /* engine all-gathers / reduce-scatters at EP <= top-k */
    double gather_b;                 /* bytes per value it all-gathers */
} Ctx;

/* Achieved share of peak for GEMMs whose narrowest per-GPU dimension is x.
 * The catalog curve follows the training model's convention
 * (data/catalog/efficiency.yaml): x = min(h/t, tokens in the GEMM), and for
 * routed experts min(h/t, F_expert/t, tokens per expert); y is the share of
 * the dense peak at the workload's precision (so FP8 GEMMs use it against
 * the FP8 peak). */
static double gemm_eff_x(const Ctx *c, double x)
{
    double e = INFER_GEMM_EFF_DEFAULT;
    if (c->gemm_eff_curve_ok) {
        double y = curve_eval(&c->a->gemm_eff, x);
        if (y > 0 && y <= 1)
            e = y;
    }
    return e;
}

/* Time of `tokens` tokens through every weight GEMM of a tp-way replica:
 * the dense part (attention projections, dense/shared MLPs, output head) and
 * the routed experts, each at its own efficiency.  `flops_dense` and
 * `flops_expert` are the FLOPs of the two parts. */
static double gemm_time(const Ctx *c, int tp, double tokens, double flops_dense,
                        double flops_expert)
{
    double x = fmin((double)c->h / tp, tokens);
    double t = flops_dense / (tp * c->peak * gemm_eff_x(c, x));
    if (flops_expert > 0) {
        double xe = fmin(fmin(c->he / tp, c->fe / tp), tokens * c->k_over_e);
        t += flops_expert / (tp * c->peak * gemm_eff_x(c, xe));
    }
    return t;
}

/* The LM head's GEMM for `tokens` tokens: quantised checkpoints keep the
 * output projection in 16-bit (NVIDIA ModelOpt's default quantizer config,
 * modelopt/torch/quantization/config.py, disables "*lm_head*"; the MXFP4
 * gpt-oss checkpoints list lm_head in quantization_config
 * modules_to_not_convert, huggingface.co/openai/gpt-oss-120b config.json),
 * so it runs at the 16-bit peak whatever the weights' precision. */
static double head_time(const Ctx *c, int tp, double tokens)
{
    return 2.0 * c->head * tokens / (tp * fmin(c->peak16, c->peak) * gemm_eff_x(c, INFINITY));
}

static void set_err(char *err, size_t len, const char *msg)
{
    if (err && len)
        snprintf(err, len, "%s", msg);
}

double infer_kv_bytes_per_token(const ModelShape *m, Precision kv)
{
    if (!m || m->layers <= 0 || m->heads <= 0 || m->hidden <= 0)
        return 0.0;
    double b = precision_bytes(kv);
    /* MLA caches the compressed latent plus the RoPE key (DeepSeek-V2 §2.1) */
    LayerCounts lc;
    model_layer_counts(m, &lc); /* a hybrid's attention layers only */
    if (m->kv_lora_rank > 0)
        return (double)lc.attn * (m->kv_lora_rank + m->qk_rope_head_dim) * b;
    int g = m->kv_heads > 0 ? m->kv_heads : m->heads;
    double d = m->head_dim > 0 ? m->head_dim : (double)m->hidden / m->heads;
    return 2.0 * lc.attn * g * d * b; /* K and V for every KV head of every attention layer */
}

/* Peak FLOP/s for GEMMs with weights at `prec`: the precision's own peak; a
 * precision the part cannot compute in (fp4 on Hopper) runs as weight-only
 * quantisation with 16-bit math. */
static double peak_for(const Accelerator *a, Precision prec)
{
    if (prec >= 0 && prec < PREC_COUNT && a->peak_flops[prec] > 0)
        return a->peak_flops[prec];
    if (a->peak_flops[PREC_BF16] > 0)
        return a->peak_flops[PREC_BF16];
    if (a->peak_flops[PREC_FP16] > 0)
        return a->peak_flops[PREC_FP16];
    return a->peak_flops[PREC_FP32];
}

static bool ctx_init(Ctx *c, const Plan *p, const Workload *w, const Accelerator *a,
                     const Engine *e, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->a = a;
    const ModelShape *m = &w->model;
    if (!a) {
        set_err(err, errlen, "no accelerator");
        return false;
    }
    if (m->layers <= 0 || m->hidden <= 0 || m->heads <= 0) {
        set_err(err, errlen, "model shape needs layers, hidden and heads > 0");
        return false;
    }
    c->L = m->layers;
    LayerCounts lc;
    model_layer_counts(m, &lc);
    if (lc.bad || lc.layers != m->layers) {
        set_err(err, errlen, "the hybrid pattern's symbols must be M, *, - or E, one a layer");
        return false;
    }
    c->La = lc.attn;
    c->blocks = lc.attn + lc.mamba + lc.mlp + lc.moe;
    c->h = m->hidden;
    c->heads = m->heads;
    c->g = m->kv_heads > 0 ? m->kv_heads : m->heads;
    if (c->g > c->heads || c->heads % c->g != 0) {
        set_err(err, errlen, "kv_heads must divide heads");
        return false;
    }
    c->d = m->head_dim > 0 ? m->head_dim : (double)m->hidden / m->heads;
    if (w->prompt_tokens <= 0 || w->output_tokens <= 0) {
        set_err(err, errlen, "prompt_tokens and output_tokens must be > 0");
        return false;
    }
    if (w->precision < 0 || w->precision >= PREC_COUNT || w->kv_precision < 0 ||
        w->kv_precision >= PREC_COUNT) {
        set_err(err, errlen, "unknown precision");
        return false;
    }
    if (!(a->hbm_bytes > 0) || !(a->hbm_bw > 0)) {
        set_err(err, errlen, "accelerator has no HBM capacity or bandwidth in the catalog");
        return false;
    }
    c->peak = peak_for(a, w->precision);
    /* Block-scaled FP4 GEMMs fill less of their doubled rate than FP8/BF16
     * ones fill theirs (catalog fp4_gemm_factor, with its GEMM benchmark
     * source in data/catalog/efficiency.yaml). */
    if (w->precision == PREC_FP4 && a->peak_flops[PREC_FP4] > 0 &&
        accelerator_fp4_gemm_factor(a) > 0)
        c->peak *= accelerator_fp4_gemm_factor(a);
    c->peak16 = a->peak_flops[PREC_BF16] > 0 ? a->peak_flops[PREC_BF16] : c->peak;
    c->peak *= accel_clock_share(a); /* power-limited clock */
    c->peak16 *= accel_clock_share(a);
    if (!(c->peak > 0)) {
        set_err(err, errlen, "accelerator has no peak FLOP/s for this precision");
        return false;
    }

    train_params(m, &c->total, &c->active);
    if (!(c->total > 0) || !(c->active > 0) || !isfinite(c->total)) {
        set_err(err, errlen, "model has no parameters");
        return false;
    }
    if (c->active > c->total)
        c->active = c->total;

    /* MoE: the routed experts of every MoE layer (all resident, only the
     * touched ones read per decode step). */
    if (m->experts > 1 && m->experts_per_token > 0) {
        double fe, he;
        model_expert_dims(m, &fe, &he);
        double per = (m->glu ? 3.0 : 2.0) * he * fe;
        int moe_layers = lc.moe;
        c->routed_total = fmin((double)moe_layers * m->experts * per, c->total);
        c->k_over_e = fmin(1.0, (double)m->experts_per_token / m->experts);
        c->routed_active = c->routed_total * c->k_over_e;
        c->fe = fe;
        c->he = he;
        c->experts = m->experts;
        c->moe_layers = moe_layers;
    }
    c->vocab = m->vocab > 0 ? m->vocab : 0;
    c->head = c->vocab * c->h;
    /* An untied input table is only indexed (no FLOPs, B rows read). */
    c->lookup_only = m->tied_embeddings ? 0.0 : c->head;
    if (c->lookup_only + c->head > c->active) /* params override smaller than the embeddings */
        c->lookup_only = c->head = 0;

    /* block-scaled FP4 weights carry their block scales */
    c->wb = w->precision == PREC_FP4 ? accelerator_fp4_bytes(a) : precision_bytes(w->precision);
    /* the LM head stays 16-bit in quantised checkpoints (head_time): its
     * bytes beyond the other weights' precision */
    c->head_xb = c->head * fmax(0.0, 2.0 - c->wb);
    c->kvb = precision_bytes(w->kv_precision);
    c->mla = m->kv_lora_rank > 0;
    c->kv_tok_full = infer_kv_bytes_per_token(m, w->kv_precision);
    c->kv_tok_per_head = 2.0 * c->La * c->d * c->kvb;
    /* Mamba-2 layers (Megatron-Core hybrid patterns; vLLM MambaMixer2):
     * per sequence, whatever its length, an SSM state of heads × head_dim
     * × state and a conv1d state of conv_dim × (conv − 1) inputs, 16-bit
     * (vLLM's mamba_ssm_cache_dtype "auto" = the model's dtype); a decode
     * step reads and writes it (selective_state_update: h ← exp(dt·A)·h +
     * dt·B·x, y = C·h + D·x, ~6 FLOPs per state element); a prefill runs the
     * chunked SSD (MambaDims ssd_flops, ssd_bytes). */
    MambaDims md;
    model_mamba_dims(m, &md);
    if (lc.mamba > 0) {
        double ssm = md.d_inner * md.state, conv = md.conv_dim * (md.conv - 1.0);
        c->state_seq = lc.mamba * (ssm + conv) * 2.0;
        c->ssd_tok = lc.mamba * md.ssd_flops;
        c->ssd_bytes = lc.mamba * md.ssd_bytes;
        c->ssm_decode = lc.mamba * 6.0 * ssm;
    }

    /* Attention FLOPs.  Prefill (causal, FlashAttention-style, no
     * recompute): QKᵀ and AV each 2·P²·dim per head, halved by the mask →
     * L·a·(d_qk + d_v)·P².  Decode: each new token attends to ctx tokens:
     * 2·ctx·a·(d_qk + d_v) per layer; MLA with absorbed projections works in
     * the latent space (DeepSeek-V2 appendix): 2·ctx·a·(2·d_c + d_rope). */
    double dqk = c->d, dv = c->d;
    if (c->mla) {
        dqk = m->qk_nope_head_dim + m->qk_rope_head_dim;
        dv = m->v_head_dim > 0 ? m->v_head_dim : c->d;
        if (dqk <= 0)
            dqk = c->d;
        c->attn_decode_per_ctx =
            2.0 * c->La * c->heads * (2.0 * m->kv_lora_rank + m->qk_rope_head_dim);
    } else {
        c->attn_decode_per_ctx = 2.0 * c->La * c->heads * (dqk + dv);
    }
    c->attn_prefill_coef = c->La * c->heads * (dqk + dv);

    /* Activation values per token live at once in a layer: residual, normed
     * input, attention output and a spare (4·h, replicated across tp), plus
     * the Q/K/V projections and the MLP intermediate (split across tp). */
    double f_act = m->ffn_hidden;
    if (m->experts > 1) {
        double fe;
        model_expert_dims(m, &fe, NULL);
        f_act = fmax(f_act, fe * (m->experts_per_token + m->shared_experts));
    }
    c->act_fixed = 4.0 * c->h;
    c->act_shard = c->heads * dqk + 2.0 * c->g * c->d + (m->glu ? 2.0 : 1.0) * f_act;
    if (lc.mamba > 0) /* a Mamba-2 layer's in_proj output and SSD output */
        c->act_shard = fmax(c->act_shard, md.in_proj + md.d_inner);
    /* Memory-bound element-wise traffic per token per layer in a prefill
     * (values read + written; SIZING-MODEL.md §3 "element-wise work costs
     * bytes / HBM bandwidth"): two RMSNorms (h in, h out each) and two
     * residual adds (2h in, h out each) on every TP rank = 10·h; RoPE on Q
     * and K, in and out = 2·(a·d_qk + g·d)/tp; the MLP activation (GLU: 2F in,
     * F out; else F in, F out)/tp.  A hybrid pattern's layers hold one block
     * each (one norm, one residual add: 5·h): the average layer's, each kind
     * by its count; a Mamba-2 layer's conv1d and SiLU (conv_dim in and out)
     * and gated norm (y and z in, d_inner out); its SSD: ssd_prefill_s. */
    double L = c->L;
    c->ew_fixed = 5.0 * c->h * c->blocks / L;
    c->ew_shard = (c->La * 2.0 * (c->heads * dqk + c->g * c->d) +
                   (lc.mlp + lc.moe) * (m->glu ? 3.0 : 2.0) * f_act +
                   (lc.mamba > 0 ? lc.mamba * (2.0 * md.conv_dim + 3.0 * md.d_inner) : 0.0)) /
                  L;

    c->prompt = w->prompt_tokens;
    c->output = w->output_tokens;

    /* Engine: its per-pass costs and scheduler limits; the plan's
     * max_batch / chunk_tokens override the defaults. */
    c->layer_ovh = e ? e->layer_overhead_s : INFER_LAYER_OVERHEAD_S;
    c->step_ovh = e ? e->step_overhead_s : INFER_STEP_OVERHEAD_S;
    c->seq_ovh = e ? e->seq_overhead_s : INFER_SEQ_OVERHEAD_S;
    c->eager_layer = e ? e->eager_layer_s : 0.0;
    /* TGI's router holds waiting prompts for up to max_waiting_tokens
     * decode steps (default 20) and prefills them in one pass; vLLM,
     * SGLang and TensorRT-LLM schedule waiting prompts every iteration. */
    c->wait_steps = e && e->prefill_wait_steps > 1 ? e->prefill_wait_steps : 1.0;
    c->chunk = e && e->chunk_tokens > 0 ? e->chunk_tokens : INFER_CHUNK_TOKENS;
    c->cap = e && e->max_batch > 0 ? e->max_batch : INFER_MAX_BATCH;
    c->block = e && e->kv_block_tokens > 0 ? e->kv_block_tokens : INFER_BLOCK_TOKENS;
    c->attn_eff = !e ? INFER_ATTN_EFF
                  : e->attn_hbm_eff > 0 && e->attn_hbm_eff <= 1 ? e->attn_hbm_eff : 1.0;
    c->fused = e ? e->chunked_prefill : true;
    if (w->max_batch < 0 || w->chunk_tokens < 0) {
        set_err(err, errlen, "max_batch and chunk_tokens must be >= 0 (0 = the engine's)");
        return false;
    }
    /* SGLang's DeepEP low-latency decode takes at most this many tokens per
     * rank per dispatch (num_max_dispatch_tokens_per_rank, default 128). */
    c->ep_cap = e && e->ep_rank_batch > 0 ? e->ep_rank_batch : 0;
    /* Real routing is skewed beyond uniform: a few experts are hot, and a
     * balancer (EPLB's redundant experts) narrows but does not close the
     * gap (LMSYS large-scale EP blog: default EPLB runs 1.18x slower than
     * simulated perfectly balanced routing in prefill).  The engine's
     * ep_skew scales the busiest rank's routed load over balls into bins. */
    c->skew = e && e->ep_skew >= 1.0 ? e->ep_skew : 1.0;
    c->ep_gather = e && e->ep_allgather;
    if (w->max_batch > 0)
        c->cap = c->ep_cap = w->max_batch;
    if (w->chunk_tokens > 0)
        c->chunk = w->chunk_tokens;

    /* Prefix cache: a hit share h of the prompt is not recomputed (vLLM
     * automatic prefix caching, SGLang RadixAttention); its KV still
     * occupies the cache, so capacity is unchanged. */
    double h = w->prefix_cache_hit;
    if (!(h >= 0 && h < 1)) {
        set_err(err, errlen, "prefix_cache_hit must be a fraction from 0 to below 1");
        return false;
    }
    c->p_new = fmax(1.0, c->prompt * (1.0 - h));

    /* Speculative decoding: k drafted tokens, each accepted with
     * probability α; expected tokens per verification step
     * E = (1 − α^(k+1)) / (1 − α) (Leviathan et al. 2023, eq. 1). */
    c->draft = 0;
    c->tok_per_step = 1.0;
    if (w->speculative.draft > 0) {
        double al = w->speculative.acceptance;
        if (!(al >= 0 && al <= 1) || w->speculative.draft > 64) {
            set_err(err, errlen, "speculative: draft 1-64 tokens, acceptance a fraction 0-1");
            return false;
        }
        c->draft = w->speculative.draft;
        c->tok_per_step = al >= 1.0 ? c->draft + 1.0
                                    : (1.0 - pow(al, c->draft + 1.0)) / (1.0 - al);
    }
    c->out_steps = fmax(1.0, c->output / c->tok_per_step);

    /* Expert-parallel traffic: with FP8 (or narrower) expert GEMMs the
     * activations are quantised to FP8 before the dispatch and combined in
     * BF16 (DeepSeek-V3 report §3.3.2; DeepEP's FP8 dispatch / BF16
     * combine).  ep_overlap: the share of the all-to-alls a two-batch
     * overlap hides under compute (SGLang --enable-two-batch-overlap,
     * DeepSeek's dual micro-batch serving); 0 = exposed. */
    c->disp_b = w->precision == PREC_FP8 || w->precision == PREC_FP4 ? 1.0 : INFER_ACT_BYTES;
    c->comb_b = INFER_ACT_BYTES;
    /* TensorRT-LLM's all-gather path quantises the inputs first for NVFP4
     * and per-tensor FP8; FP8 with DeepSeek's block scales is quantised
     * inside the fused MoE op, after the gather, so BF16 travels
     * (fused_moe_cutlass.py forward_chunk: only fp8_qdq and nvfp4 take the
     * post-quant all-gather). */
    c->gather_b = w->precision == PREC_FP8 && w->fp8_block_scales ? INFER_ACT_BYTES : c->disp_b;
    c->ep_ov = w->ep_overlap > 0 ? fmin(1.0, w->ep_overlap) : 0.0;
    /* Two-batch overlap splits each step's batch into two micro-batches
     * that run every layer one after the other, so one's all-to-all hides
     * under the other's compute (LMSYS/SGLang large-scale EP blog,
     * 2025-05-05, "Two-batch Overlap"; DeepSeek's profile-data): every
     * layer's weights are read and its kernels launched once per
     * micro-batch, and the all-to-all library's per-dispatch token cap
     * applies to each micro-batch (the LMSYS decode ran 256 sequences per
     * GPU under DeepEP's 128-token low-latency cap). */
    c->mb = c->ep_ov > 0 ? 2.0 : 1.0;
    /* Occupancy.  Capacity is reserved for the worst case: TensorRT-LLM's
     * default GUARANTEED_NO_EVICT scheduler admits a request only when its
     * whole prompt + output KV fits, and vLLM preempts (recomputes) when the
     * paged pool runs dry, so a planner must not count on the average.  The
     * bytes a decode step reads are the KV actually held: sequences in flight
     * are spread uniformly over their generation, a mean context of
     * prompt + output/2. */
    /* in whole paged-KV blocks (the engine allocates blocks, not tokens) */
    c->ctx_reserved = ceil((c->prompt + c->output) / c->block) * c->block;
    c->ctx_mean = c->prompt + c->output / 2.0;

    c->gemm_eff_curve_ok = a->gemm_eff.n > 0;
    double he = a->elementwise_eff > 0 && a->elementwise_eff <= 1 ? a->elementwise_eff
                                                                   : INFER_HBM_EFF_DEFAULT;
    c->hbm_bw_eff = a->hbm_bw * he;
    /* Decode attention streams the paged KV cache: where the catalog has
     * the part's measured streaming share (efficiency.yaml
     * attn_decode_bw_eff: FlashMLA's decode kernel on H800, a STREAM-class
     * read on GB200) it reads at that, else at the element-wise share; the
     * engine's attn_hbm_eff scales either. */
    c->attn_bw = a->hbm_bw * (a->attn_decode_bw_eff > 0 && a->attn_decode_bw_eff <= 1
                                  ? a->attn_decode_bw_eff
                                  : he);
    /* Block-scaled FP8 GEMMs (DeepSeek-V3's 128x128 weight blocks, 1x128
     * activation groups: the deepseek-ai checkpoints) run DeepGEMM-style
     * kernels that promote each 128-deep partial sum on the CUDA cores;
     * at decode sizes they stream weights at the part's measured share
     * (efficiency.yaml fp8_block_gemm_bw_eff: DeepGEMM's masked grouped
     * GEMMs on H800), not at the element-wise share. */
    c->wt_bw = c->hbm_bw_eff;
    if (w->precision == PREC_FP8 && w->fp8_block_scales && a->fp8_block_gemm_bw_eff > 0 &&
        a->fp8_block_gemm_bw_eff <= 1)
        c->wt_bw = a->hbm_bw * a->fp8_block_gemm_bw_eff;
    double uf = a->hbm_usable_frac > 0 && a->hbm_usable_frac <= 1 ? a->hbm_usable_frac
                                                                  : INFER_USABLE_FRAC_DEFAULT;
    /* An engine that sizes its pool by a share of the GPU's memory
     * (vLLM gpu_memory_utilization, default 0.9) takes no more than that
     * share, whatever the part could give. */
    if (e && e->mem_frac > 0 && e->mem_frac < uf)
        uf = e->mem_frac;
    c->usable = a->hbm_bytes * uf;
    c->up_bw = net_scaleup_bw(a);
    c->up_lat = a->scaleup_latency_s > 0 ? a->scaleup_latency_s : INFER_SCALEUP_LAT_DEFAULT;
    c->domain = a->scaleup_domain > 0 ? a->scaleup_domain
                : a->gpus_per_node > 0 ? a->gpus_per_node : 8;
    return true;
}

/* A valid tensor-parallel degree: heads split evenly; KV heads split evenly
 * or replicated whole (tp a multiple of kv_heads, as TensorRT-LLM and vLLM do
 * for GQA); across domains, whole domains. */
static bool tp_valid(const Ctx *c, int tp)
{
    if (tp < 1)
        return false;
    if (tp > c->domain) {
        if (tp % c->domain != 0 || tp / c->domain > INFER_MAX_DOMAINS)
            return false;
        if (c->heads % c->domain != 0)
            return false;
    } else if (c->heads % tp != 0) {
        return false;
    }
    return c->mla || c->g % tp == 0 || tp % c->g == 0;
}

/* KV bytes per token on one GPU of a tp-way replica.  MLA's latent is shared
 * by all heads, so every tensor-parallel rank holds all of it. */
static double kv_tok_gpu(const Ctx *c, int tp)
{
    if (c->mla)
        return c->kv_tok_full;
    double heads_per_gpu = c->g >= tp ? (double)c->g / tp : 1.0;
    return c->kv_tok_per_head * heads_per_gpu;
}

/* All-reduce of `bytes` per rank across a tp-way replica: the faster of ring
 * and one-shot inside a scale-up domain; hierarchical (reduce-scatter and
 * all-gather inside each domain, ring across domains over the scale-out
 * fabric) when the replica spans domains. */
static double allreduce(const Ctx *c, double bytes, int tp)
{
    if (tp <= 1 || bytes <= 0)
        return 0.0;
    if (tp <= c->domain) {
        double ring = net_allreduce_s(bytes, tp, c->up_bw, c->up_lat);
        double one = net_allreduce_oneshot_s(bytes, tp, c->up_bw, c->up_lat);
        return fmin(ring, one);
    }
    int k = tp / c->domain;
    double intra = 2.0 * net_allgather_s(bytes, c->domain, c->up_bw, c->up_lat);
    double inter = net_allreduce_s(bytes / c->domain, k, net_scaleout_bw(c->p, c->a, false),
                                   NET_SCALEOUT_LATENCY_S);
    return intra + inter;
}

/* All-to-all in which every rank of an n-way expert-parallel group sends
 * `bytes`: over the scale-up fabric inside a domain, else over scale-out. */
static double alltoall(const Ctx *c, double bytes, int n)
{
    if (n <= 1 || bytes <= 0)
        return 0.0;
    if (n <= c->domain)
        return net_alltoall_s(bytes, n, c->up_bw, c->up_lat);
    return net_alltoall_s(bytes, n, net_scaleout_bw(c->p, c->a, false), NET_SCALEOUT_LATENCY_S);
}

/* Dispatch + combine all-to-alls of `tokens` tokens from one rank of an
 * n-way expert-parallel group, all MoE layers. */
static double ep_comm(const Ctx *c, double tokens, int n)
{
    double vals = tokens * c->k_over_e * c->experts * c->he; /* k copies of He per token */
    return c->moe_layers * (alltoall(c, vals * c->disp_b, n) + alltoall(c, vals * c->comb_b, n));
}

/* Dispatch + combine of `tokens` tokens from one rank in DeepEP's normal
 * (prefill) mode: across nodes a token crosses the scale-out fabric once
 * per remote node that holds one of its experts, then fans out to the
 * experts over NVLink (DeepEP README, normal kernels "forwarding data from
 * NVLink domain to RDMA domain"; DeepSeek-V3 report §2.1.2/§3.2.2: IB then
 * NVLink forwarding, node-limited routing).  With k experts drawn
 * uniformly over N nodes a token reaches each other node with probability
 * 1 − (1 − 1/N)^k.  RDMA and NVLink legs are pipelined: the slower one
 * counts.  Inside one scale-up domain it is the plain all-to-all. */
static double ep_comm_prefill(const Ctx *c, double tokens, int n)
{
    if (n <= c->domain)
        return ep_comm(c, tokens, n);
    double nodes = (double)n / c->domain;
    double k = c->k_over_e * c->experts;
    double remote = (nodes - 1.0) * (1.0 - pow(1.0 - 1.0 / nodes, k));
    double bw = net_scaleout_bw(c->p, c->a, false);
    double per = tokens * c->he * (c->disp_b + c->comb_b);
    double rdma = bw > 0 ? per * remote / bw + 2.0 * NET_SCALEOUT_LATENCY_S : INFINITY;
    double nvl = c->up_bw > 0 ? per * k * (c->domain - 1.0) / c->domain / c->up_bw + 2.0 * c->up_lat
                              : INFINITY;
    return c->moe_layers * fmax(rdma, nvl);
}

/* TensorRT-LLM's attention-DP MoE layers do not use an all-to-all while
 * the EP degree is at most the experts per token: every rank all-gathers
 * all ranks' (quantised) tokens, runs its own experts on them and
 * reduce-scatters the BF16 outputs back (CutlassFusedMoE "allgather +
 * FusedMoe Op + reducescatter, with AttentionDP on";
 * select_alltoall_method_type returns NotEnabled for moe_ep_size <= top_k,
 * and the all-to-all also needs MNNVL; NVIDIA/TensorRT-LLM
 * tensorrt_llm/_torch/modules/fused_moe/fused_moe_cutlass.py).  Each rank
 * receives every other rank's tokens once, whatever the routing, so the
 * volume is (n − 1) × tokens per rank × h, not k copies scaled by the
 * busiest rank's skew. */
static bool ep_gathers(const Ctx *c, int n)
{
    return c->ep_gather && n <= c->k_over_e * c->experts + 1e-9;
}

/* All-gather + reduce-scatter of `tokens` tokens per rank, all MoE layers
 * (a reduce-scatter moves what the matching all-gather does). */
static double ep_gather_comm(const Ctx *c, double tokens, int n)
{
    if (n <= 1 || !(tokens > 0))
        return 0.0;
    double bw = n <= c->domain ? c->up_bw : net_scaleout_bw(c->p, c->a, false);
    double lat = n <= c->domain ? c->up_lat : NET_SCALEOUT_LATENCY_S;
    double all = n * tokens * c->he; /* values gathered on every rank */
    return c->moe_layers * (net_allgather_s(all * c->gather_b, n, bw, lat) +
                            net_allgather_s(all * c->comb_b, n, bw, lat));
}

/* On the all-gather path the fused MoE op runs on every rank's gathered
 * tokens, and its finalize kernel writes a 16-bit output row for each of
 * them (zero where none of the token's experts is local), the tensor the
 * reduce-scatter then sums across ranks (fused_moe_cutlass.py: allgather
 * -> torch.ops.trtllm.fused_moe -> reducescatter(dim=0), the op's output
 * has the gathered row count).  A rank thus writes n x its own tokens x h
 * values per MoE layer, HBM traffic that grows with the EP width, not
 * with the routing.  `tokens` per rank, all MoE layers. */
static double ep_gather_out_s(const Ctx *c, double tokens, int n)
{
    if (n <= 1 || !(tokens > 0))
        return 0.0;
    return c->moe_layers * n * tokens * c->he * c->comb_b / c->hbm_bw_eff;
}

/* Busiest / mean load when m routed token-slots fall uniformly at random
 * on n GPUs: m/n + sqrt(2 (m/n) ln n) over m/n (balls into bins, Raab &
 * Steger, RANDOM 1998, m >= n ln n); at least one whole token. */
static double ep_imbalance(double m, int n)
{
    if (n <= 1 || !(m > 0))
        return 1.0;
    double mu = m / n;
    double mx = mu + sqrt(2.0 * mu * log((double)n));
    return fmax(mx, fmin(1.0, m)) / mu;
}

/* Compute that runs under an in-flight all-to-all is slower: the
 * communication kernels hold SMs and share HBM bandwidth (DeepEP's kernels
 * take 20-24 of 132 SMs; DeepSeek-V3 report §3.2.2).  Lee et al. 2025,
 * arXiv 2507.03114, measured an average 18.9 % compute slowdown during
 * overlap on A100/H100 — the figure the training model uses
 * (model/train.c OVERLAP_SLOWDOWN): the hidden part of an all-to-all still
 * costs this share of its duration. */
#define INFER_OVERLAP_SLOWDOWN 0.189

/* The all-to-all time left exposed when a share ep_ov of it hides under
 * `compute`, plus the slowdown of the compute it hides under. */
static double ep_exposed(const Ctx *c, double comm, double compute)
{
    double hidden = fmin(comm * c->ep_ov, compute);
    return comm - hidden * (1.0 - INFER_OVERLAP_SLOWDOWN);
}

/* Replica layouts.  TP: every layer tensor-parallel over the n GPUs
 * (Megatron-style, 2 all-reduces per layer).  DEP (MoE only): attention and
 * dense layers data-parallel — every GPU holds them whole and serves its own
 * sequences with their own KV cache — and the routed experts split
 * expert-parallel with a dispatch and a combine all-to-all per MoE layer
 * (DeepSeek-V3 report §3.4 serving layout; TensorRT-LLM's and SGLang's
 * attention-DP + EP).  The degree need not divide the expert count: each
 * GPU holds ceil(E/n) expert slots and the n·ceil(E/n) − E spare slots hold
 * redundant copies of the busiest experts (DeepSeek EPLB; SGLang runs
 * DeepSeek-V3 on EP72 as 288 slots = 256 + 32 redundant). */
typedef struct {
    int tp;                          /* GPUs in the replica */
    bool dep;                        /* DEP layout (else TP) */
    bool fits;
    int max_batch;
    int slots;                       /* DEP: expert slots per GPU */
    int redundant;                   /* DEP: spare slots, all GPUs */
    double weights, other;
    double kv_seq;                   /* KV bytes per sequence on its GPU(s), mean context */
    double kv_seq_reserved;          /* ... reserved (prompt + output, whole blocks) */
    double S_lat;                    /* prefill of one prompt alone */
} Rep;

static double other_bytes(const Ctx *c, int split)
{
    double act = c->chunk * (c->act_fixed + c->act_shard / split) * INFER_ACT_BYTES;
    double logits = fmin((double)c->cap, INFER_MAX_BATCH) * c->vocab / split * 4.0; /* fp32 */
    return INFER_RUNTIME_BYTES + act + logits;
}

/* GEMM FLOPs of one prompt's computed tokens: every weight multiplies every
 * new token, except the output head (last position only) and an untied
 * input table (lookup only). */
static double prefill_dense_flops(const Ctx *c)
{
    return 2.0 * (c->active - c->lookup_only - c->head - c->routed_active) * c->p_new +
           2.0 * c->head;
}

/* Attention FLOPs of the new tokens against the whole prompt (causal):
 * coef·(P² − cached²). */
static double prefill_attn_flops(const Ctx *c)
{
    double cached = c->prompt - c->p_new;
    return c->attn_prefill_coef * (c->prompt * c->prompt - cached * cached);
}

/* A prompt's SSD (Mamba-2 layers) on a tp-way replica, priced as the
 * training model prices it: its FLOPs in 16-bit at the part's measured
 * SSD share of the peak (accelerator_ssd_eff), or its kernels' memory
 * traffic, whichever is longer. */
static double ssd_prefill_s(const Ctx *c, int tp)
{
    if (!(c->ssd_tok > 0))
        return 0.0;
    return c->p_new / tp * fmax(c->ssd_tok / (c->peak16 * accelerator_ssd_eff(c->a)),
                                c->ssd_bytes / c->hbm_bw_eff);
}

/* Efficiency of the prefill attention core (a fused Flash-style kernel on
 * the causal half, the count prefill_attn_flops makes): the part's measured
 * forward kernel efficiency when the catalog has one (efficiency.yaml
 * attn_fwd_eff, the figure the training model prices its forward core
 * with: B200/GB200 0.63 from FlashAttention-4's published benchmark), else
 * the GEMM curve at size x as before. */
static double attn_prefill_eff(const Ctx *c, double x)
{
    double f = c->a->attn_fwd_eff;
    if (!(f > 0 && f <= 1))
        return gemm_eff_x(c, x);
    /* at the keys a thread block loops over: the cached prefix and, on
     * average, half the new tokens (catalog.c accelerator_attn_seq_factor) */
    return fmin(1.0, f * accelerator_attn_seq_factor(c->a, c->prompt - c->p_new / 2.0));
}

/* An engine that launches its prefill passes eagerly (no CUDA/HIP graph:
 * TGI captures graphs for decode batch sizes only, text-generation-launcher
 * --cuda-graphs) issues every kernel and collective from the host, one
 * Python/PyTorch call at a time.  The launches run ahead of the GPU, so an
 * eager pass takes the longer of its GPU work and its host work: L layers ×
 * the engine's eager_layer_us, plus the iteration's fixed cost.  Long
 * prompts hide the host under the GEMMs; short ones are host-bound.  `t` is
 * the prompt's share p_new/xt of an iteration of xt tokens; so is the
 * floor. */
static double eager_floor(const Ctx *c, double t, double xt)
{
    if (!(c->eager_layer > 0))
        return t;
    return fmax(t, (c->L * c->eager_layer + c->step_ovh) * c->p_new / xt);
}

/* Replica time of one prompt's prefill on a TP replica when its tokens
 * share the GEMMs of an iteration of `xt` tokens: the GEMMs run at the
 * efficiency of that size (batched / chunked prefill: engines pack queued
 * prompts, and with chunked prefill the running decode tokens, into one
 * iteration of up to chunk_tokens), and the prompt pays its share p_new/xt
 * of the iteration's fixed per-pass costs. */
static double prefill_tp(const Ctx *c, int tp, double xt)
{
    double t = gemm_time(c, tp, xt, prefill_dense_flops(c), 2.0 * c->routed_active * c->p_new);
    /* The attention core runs in 16-bit (FlashAttention-style kernels). */
    t += prefill_attn_flops(c) / (tp * c->peak16 * attn_prefill_eff(c, fmin((double)c->h / tp, xt)));
    t += ssd_prefill_s(c, tp);
    t += c->p_new * c->L * (c->ew_fixed + c->ew_shard / tp) * INFER_ACT_BYTES / c->hbm_bw_eff;
    /* Megatron-style TP: an all-reduce per block (2 a plain layer) of the
     * iteration's activations (all xt tokens in one collective, so its
     * latency is paid once per iteration, not once per prompt), the
     * prompt's share p_new/xt. */
    t += c->blocks * allreduce(c, xt * c->h * INFER_ACT_BYTES, tp) * c->p_new / xt;
    t += (c->L * c->layer_ovh + c->step_ovh) * c->p_new / xt;
    return eager_floor(c, t, xt);
}

/* Prefill on a DEP replica: attention and dense layers on the prompt's own
 * GPU (`xt` tokens per GPU per iteration) and its tokens' dispatch/combine
 * all-to-alls from that GPU (n prompts side by side send theirs at once);
 * its expert GEMMs spread over all n (n·xt tokens routed per iteration).
 * *own: the part on its GPU; *spread: the expert GEMMs, replica-wide. */
static void prefill_dep(const Ctx *c, int n, double xt, double *own, double *spread)
{
    double o = gemm_time(c, 1, xt, prefill_dense_flops(c), 0.0);
    o += prefill_attn_flops(c) / (c->peak16 * attn_prefill_eff(c, fmin((double)c->h, xt)));
    o += ssd_prefill_s(c, 1);
    o += c->p_new * c->L * (c->ew_fixed + c->ew_shard) * INFER_ACT_BYTES / c->hbm_bw_eff;
    o += (c->L * c->layer_ovh + c->step_ovh) * c->p_new / xt;
    o = eager_floor(c, o, xt);
    /* the busiest GPU's expert share of an iteration of n·xt tokens */
    double imb = c->skew * ep_imbalance(xt * n * c->experts * c->k_over_e, n);
    double ex = imb * gemm_time(c, 1, xt * n, 0.0, 2.0 * c->routed_active * c->p_new / n);
    /* the iteration's xt tokens go in one dispatch/combine per layer; the
     * prompt's share p_new/xt.  It hides under the GPU's whole compute per
     * prompt of its own: that prompt's attention/dense work and the expert
     * work of the n prompts in flight (n·ex). */
    double comm = ep_gathers(c, n) ? ep_gather_comm(c, xt, n) : ep_comm_prefill(c, imb * xt, n);
    if (ep_gathers(c, n))
        o += ep_gather_out_s(c, c->p_new, n); /* the prompt's rows of the MoE outputs */
    o += ep_exposed(c, comm * c->p_new / xt, o + n * ex);
    *own = o;
    *spread = ex;
}

/* Tokens in the iteration a prompt's prefill shares, at `b` sequences in
 * flight.  In steady state b/out_steps prompts arrive per decode step (an
 * engine that holds waiting prompts for wait_steps steps prefills that many
 * steps' arrivals at once); a fused (chunked-prefill) engine runs them with
 * the b decode tokens; either way at most chunk_tokens, and a lone prompt
 * fills at least its own. */
static double iter_tokens(const Ctx *c, double b, double scheds)
{
    double per = b / scheds; /* per scheduler (DEP: per attention rank) */
    double prompts = per / c->out_steps * c->wait_steps;
    double t = c->p_new * fmax(1.0, prompts) + (c->fused ? per : 0.0);
    return fmin(c->chunk, fmax(t, fmin(c->p_new, c->chunk)));
}

/* Replica time one prefill takes from decoding, at b sequences in flight. */
static double prefill_share(const Ctx *c, const Rep *r, double b)
{
    if (!r->dep)
        return prefill_tp(c, r->tp, iter_tokens(c, b, 1));
    double own, spread;
    prefill_dep(c, r->tp, iter_tokens(c, b, r->tp), &own, &spread);
    return own / r->tp + spread;
}

/* Prefill of one prompt on an otherwise idle replica (its TTFT part). */
static double prefill_alone(const Ctx *c, const Rep *r)
{
    double xt = fmin(c->p_new, c->chunk);
    if (!r->dep)
        return prefill_tp(c, r->tp, xt);
    double own, spread;
    prefill_dep(c, r->tp, xt, &own, &spread);
    return own + spread;
}

/* Cost of drafting k tokens: an EAGLE / MTP head is one transformer layer,
 * so each drafted token costs 1/L of a decode step's weight and compute
 * time plus one layer's overhead (DeepSeek-V3 §2.2 MTP module: one layer). */
static double draft_s(const Ctx *c, double core)
{
    return c->draft * (core / c->L + c->layer_ovh);
}

static double step_tp(const Ctx *c, int tp, double b)
{
    double q = 1.0 + c->draft; /* tokens per sequence verified per step */
    /* Routed experts touched by b·q tokens: 1 − (1 − k/E)^(bq) (uniform routing). */
    double frac = 1.0;
    if (c->routed_total > 0 && c->k_over_e < 1.0)
        frac = 1.0 - exp(b * q * log1p(-c->k_over_e));
    double weights = ((c->total - c->lookup_only - c->routed_total * (1.0 - frac)) * c->wb +
                      c->head_xb) / tp;
    /* the KV cache and the Mamba-2 states (read and written) */
    double kv = b * (kv_tok_gpu(c, tp) * c->ctx_mean + 2.0 * c->state_seq / tp);
    double dense = b * q * 2.0 * (c->active - c->lookup_only - c->head - c->routed_active);
    /* Skinny decode GEMMs are memory-bound; the memory term carries that,
     * so the compute term uses the large-GEMM efficiency (no token cap on
     * x) rather than counting the small-M penalty twice. */
    double gemm = fmax(weights / c->wt_bw,
                       gemm_time(c, tp, INFINITY, dense, b * q * 2.0 * c->routed_active) +
                           head_time(c, tp, b * q));
    /* The attention kernel reads the KV cache after the QKV GEMM and before
     * the output projection: a separate kernel with its own roofline, so
     * its time adds to the GEMMs' rather than hiding under them. */
    double attn = fmax(kv / (c->attn_eff * c->attn_bw),
                       b * q * (c->attn_decode_per_ctx * c->ctx_mean + c->ssm_decode) /
                           (tp * c->peak16 * gemm_eff_x(c, INFINITY)));
    double comm = c->blocks * allreduce(c, b * q * c->h * INFER_ACT_BYTES, tp);
    double core = gemm + attn;
    return core + comm + c->L * c->layer_ovh + c->step_ovh + b * c->seq_ovh +
           draft_s(c, core + comm);
}

static double step_dep(const Ctx *c, const Rep *r, double b)
{
    int n = r->tp;
    double q = 1.0 + c->draft;
    double bg = fmax(b / n, 1.0); /* sequences on the busiest GPU */
    /* Slots touched on one GPU: each holds an expert (or a replica of one)
     * that b·q tokens reach with probability 1 − (1 − k/E)^(bq/copies);
     * spare copies split their expert's tokens. */
    double frac = 1.0;
    if (c->k_over_e < 1.0)
        frac = 1.0 - exp(b * q * (double)c->experts / ((double)n * r->slots) *
                         log1p(-c->k_over_e));
    double per_expert = c->routed_total / c->experts;
    double weights = (c->total - c->lookup_only - c->routed_total) * c->wb + c->head_xb +
                     per_expert * r->slots * c->wb * frac;
    /* weights read once per micro-batch, KV once per sequence */
    double dense = bg * q * 2.0 * (c->active - c->lookup_only - c->head - c->routed_active);
    /* the busiest GPU's routed tokens (uniform routing, balls into bins) */
    double imb = c->skew * ep_imbalance(b * q * c->experts * c->k_over_e, n);
    double gemm = fmax(c->mb * weights / c->wt_bw,
                       gemm_time(c, 1, INFINITY, dense, imb * b * q * 2.0 * c->routed_active / n) +
                           head_time(c, 1, bg * q));
    /* its attention kernel on its own roofline, as in step_tp */
    double attn = fmax(bg * (c->kv_tok_full * c->ctx_mean + 2.0 * c->state_seq) /
                           (c->attn_eff * c->attn_bw),
                       bg * q * (c->attn_decode_per_ctx * c->ctx_mean + c->ssm_decode) /
                           (c->peak16 * gemm_eff_x(c, INFINITY)));
    /* The busiest rank moves the larger of what it sends (its own
     * sequences' tokens) and what it receives (imb × the mean): the load
     * scales the bytes, not the collective's latency. */
    double load = fmax(bg, imb * b / n) * q;
    double comm = ep_gathers(c, n) ? c->mb * ep_gather_comm(c, bg * q / c->mb, n)
                                   : c->mb * ep_comm(c, load / c->mb, n);
    double core = gemm + attn;
    if (ep_gathers(c, n))
        core += ep_gather_out_s(c, bg * q, n);
    return core + ep_exposed(c, comm, core) + c->mb * c->L * c->layer_ovh + c->step_ovh +
           bg * c->seq_ovh + draft_s(c, core);
}

static double step_s(const Ctx *c, const Rep *r, double batch)
{
    double b = batch < 1.0 ? 1.0 : batch;
    return r->dep ? step_dep(c, r, b) : step_tp(c, r->tp, b);
}

static void rep_init(const Ctx *c, int n, bool dep, Rep *r)
{
    memset(r, 0, sizeof *r);
    r->tp = n;
    r->dep = dep;
    int scheds = 1;
    if (dep) {
        r->slots = (int)ceil(c->experts / n);
        r->redundant = r->slots * n - (int)c->experts;
        double per_expert = c->routed_total / c->experts;
        r->weights = (c->total - c->routed_total) * c->wb + c->head_xb + per_expert * r->slots * c->wb;
        r->other = other_bytes(c, 1);
        r->kv_seq = c->kv_tok_full * c->ctx_mean + c->state_seq;
        r->kv_seq_reserved = c->kv_tok_full * c->ctx_reserved + c->state_seq;
        scheds = n; /* every attention-DP rank runs its own scheduler */
    } else {
        r->weights = (c->total * c->wb + c->head_xb) / n;
        r->other = other_bytes(c, n);
        r->kv_seq = kv_tok_gpu(c, n) * c->ctx_mean + c->state_seq / n;
        r->kv_seq_reserved = kv_tok_gpu(c, n) * c->ctx_reserved + c->state_seq / n;
    }
    r->S_lat = prefill_alone(c, r);
    double room = c->usable - r->weights - r->other;
    if (room >= r->kv_seq_reserved && room > 0) {
        /* TP: every GPU holds a slice of every sequence; DEP: each GPU its
         * own sequences.  The engine's cap applies per scheduler (alone
         * where a sequence holds no KV and no state: a hybrid pattern of
         * MLP layers only). */
        double cap = dep && c->ep_cap > 0 ? fmin(c->cap, c->ep_cap * c->mb) : c->cap;
        double per = r->kv_seq_reserved > 0 ? fmin(floor(room / r->kv_seq_reserved), cap) : cap;
        r->max_batch = (int)fmin(per * scheds, 1e8);
        r->fits = true;
    }
}

/* The operating point of a replica running `b` sequences in flight. */
typedef struct {
    double b, step, S, tpot, lambda, rho, wq, residual, ttft;
} Op;

/* Continuous batching with prefill preempting (or riding in) decode: per
 * decode step each sequence advances E tokens; b sequences need out_steps
 * steps each, so b/out_steps prompts arrive per step and their prefill
 * share S(b) stretches the step: t(b) = step(b) + b·S(b)/out_steps,
 * TPOT = t/E, λ = b/(out_steps·t). */
static Op op_at(const Ctx *c, const Rep *r, double b)
{
    Op o;
    o.b = b;
    o.step = step_s(c, r, b);
    o.S = prefill_share(c, r, b);
    double t = o.step + b * o.S / c->out_steps;
    o.tpot = t / c->tok_per_step;
    o.lambda = b / (c->out_steps * t);
    o.rho = o.lambda * o.S; /* < 1 by construction */
    o.wq = o.rho * o.S / (2.0 * (1.0 - o.rho));
    /* the rest of the running step; an engine that holds waiting prompts
     * for wait_steps steps adds half that window when it is decoding */
    o.residual = fmin(1.0, b) * o.step * c->wait_steps / 2.0;
    o.ttft = o.wq + o.residual + r->S_lat;
    return o;
}

static bool op_meets(const Op *o, double tpot_t, double ttft_t)
{
    return o->tpot <= tpot_t && o->ttft <= ttft_t;
}

/* Largest batch in (0, max_batch] meeting both targets; <= 0 when even a
 * lone request misses them. */
static double max_batch_at_slo(const Ctx *c, const Rep *r, double tpot_t, double ttft_t)
{
    const double b0 = 1e-6;
    Op o = op_at(c, r, b0);
    if (!op_meets(&o, tpot_t, ttft_t))
        return 0.0;
    o = op_at(c, r, r->max_batch);
    if (op_meets(&o, tpot_t, ttft_t))
        return r->max_batch;
    double lo = b0, hi = r->max_batch;
    for (int i = 0; i < 48 && hi - lo > 1e-4 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        o = op_at(c, r, mid);
        if (op_meets(&o, tpot_t, ttft_t))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Batch at which the replica carries `lambda` requests/s (λ(b) is
 * increasing); clamps to b_hi when lambda exceeds λ(b_hi). */
static double batch_for_rate(const Ctx *c, const Rep *r, double lambda, double b_hi)
{
    Op o = op_at(c, r, b_hi);
    if (o.lambda <= lambda)
        return b_hi;
    double lo = 0.0, hi = b_hi;
    for (int i = 0; i < 60 && hi - lo > 1e-5 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        o = op_at(c, r, mid);
        if (o.lambda < lambda)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* ------------------------------------------------------------- public */

/* A valid DEP degree: a MoE model, at least 2 GPUs and at most one GPU per
 * expert; across domains, whole domains. */
static bool dep_valid(const Ctx *c, int n)
{
    if (c->routed_total <= 0 || n < 2 || n > (int)c->experts)
        return false;
    return n <= c->domain || (n % c->domain == 0 && n / c->domain <= INFER_MAX_DOMAINS);
}

static bool layout_valid(const Ctx *c, int n, bool dep)
{
    return dep ? dep_valid(c, n) : tp_valid(c, n);
}

static double prefill_pool_s(const Ctx *c, const Rep *r);

bool infer_replica(const Plan *p, const Workload *w, const Accelerator *a, const Engine *e,
                   int gpus, bool expert_parallel, InferReplica *out)
{
    Ctx c;
    memset(out, 0, sizeof *out);
    out->tp = gpus;
    out->expert_parallel = expert_parallel;
    if (!p || !w || !ctx_init(&c, p, w, a, e, NULL, 0) ||
        !layout_valid(&c, gpus, expert_parallel))
        return false;
    Rep r;
    rep_init(&c, gpus, expert_parallel, &r);
    out->fits = r.fits;
    out->max_batch = r.max_batch;
    out->redundant_experts = r.redundant;
    out->weights_per_gpu = r.weights;
    out->other_per_gpu = r.other;
    out->kv_per_seq_per_gpu = r.kv_seq_reserved;
    out->prefill_s = r.S_lat;
    out->prefill_share_s = prefill_share(&c, &r, 1.0);
    out->step1_s = step_s(&c, &r, 1.0) / c.tok_per_step;
    if (r.fits) {
        Op o = op_at(&c, &r, r.max_batch);
        out->max_output_tokens_per_s = o.lambda * c.output;
        out->decode_max_output_tokens_per_s =
            r.max_batch * c.tok_per_step / step_s(&c, &r, r.max_batch);
        out->prefill_tokens_per_s = c.prompt / prefill_pool_s(&c, &r);
    }
    return true;
}

double infer_decode_step_s(const Plan *p, const Workload *w, const Accelerator *a,
                           const Engine *e, int gpus, bool expert_parallel, double batch)
{
    Ctx c;
    if (!p || !w || !ctx_init(&c, p, w, a, e, NULL, 0) ||
        !layout_valid(&c, gpus, expert_parallel) || !isfinite(batch))
        return -1.0;
    Rep r;
    rep_init(&c, gpus, expert_parallel, &r);
    return step_s(&c, &r, batch);
}

double infer_itl_at_batch_s(const Plan *p, const Workload *w, const Accelerator *a,
                            const Engine *e, int gpus, bool expert_parallel, double batch)
{
    Ctx c;
    if (!p || !w || !ctx_init(&c, p, w, a, e, NULL, 0) ||
        !layout_valid(&c, gpus, expert_parallel) || !isfinite(batch))
        return -1.0;
    Rep r;
    rep_init(&c, gpus, expert_parallel, &r);
    return op_at(&c, &r, batch < 1 ? 1 : batch).tpot;
}

double infer_batch_latency_s(const Plan *p, const Workload *w, const Accelerator *a,
                             const Engine *e, int gpus, bool expert_parallel, int batch)
{
    Ctx c;
    if (!p || !w || !ctx_init(&c, p, w, a, e, NULL, 0) ||
        !layout_valid(&c, gpus, expert_parallel) || batch < 1)
        return -1.0;
    Rep r;
    rep_init(&c, gpus, expert_parallel, &r);
    /* All prompts prefilled together in iterations of up to chunk tokens,
     * then output − 1 decode steps at the whole batch (the first token
     * comes from the prefill). */
    double xt = fmin(c.chunk, c.p_new * batch);
    double pre;
    if (r.dep) {
        double own, spread;
        prefill_dep(&c, r.tp, fmin(c.chunk, xt / r.tp), &own, &spread);
        pre = batch * (own / fmin((double)r.tp, batch) + spread);
    } else {
        pre = batch * prefill_tp(&c, r.tp, xt);
    }
    return pre + (c.output - 1.0) / c.tok_per_step * step_s(&c, &r, batch);
}

static bool fail(WorkloadResult *wr, const char *msg)
{
    wr->ok = false;
    snprintf(wr->error, sizeof wr->error, "%s", msg);
    return false;
}

#define INFER_MAX_CANDIDATES 160

/* Add the layouts of degree n (TP, and DEP for MoE) to reps. */
static int add_degree(const Ctx *c, int n, Rep *reps, int k, bool *any_fit, bool dep_only)
{
    for (int dep = dep_only ? 1 : 0; dep <= 1 && k < INFER_MAX_CANDIDATES; dep++) {
        if (!layout_valid(c, n, dep))
            continue;
        rep_init(c, n, dep, &reps[k]);
        *any_fit |= reps[k].fits;
        k++;
    }
    return k;
}

/* The candidate degrees: every valid degree inside one scale-up domain;
 * whole multiples of the domain for TP only when nothing inside one fits;
 * for MoE, wide expert parallelism over whole domains always (it is how
 * large MoE services run: SGLang EP32/EP72, DeepSeek EP144). */
static int candidates(const Ctx *c, int fixed_tp, Rep *reps)
{
    int n = 0;
    bool any_fit = false;
    if (fixed_tp > 0)
        return add_degree(c, fixed_tp, reps, 0, &any_fit, false);
    for (int t = 1; t <= c->domain && n < INFER_MAX_CANDIDATES; t++)
        n = add_degree(c, t, reps, n, &any_fit, false);
    bool fit_in_domain = any_fit;
    for (int k = 2; k <= INFER_MAX_DOMAINS && n < INFER_MAX_CANDIDATES; k++) {
        if (fit_in_domain && c->routed_total <= 0)
            break;
        /* 2, 3, 4, 6, 9 domains and the multiples of 4 or 6 up to 32
         * (EP16 … EP256 on 8-GPU nodes, SGLang's EP72 and DeepSeek's EP144
         * among them), not every one: the search stays under 1 ms */
        if ((k % 2 && k % 3) || (k > 4 && k % 4 && k % 6 && k != 9))
            continue;
        n = add_degree(c, k * c->domain, reps, n, &any_fit, fit_in_domain);
    }
    return n;
}

/* Pick the degree that carries `rate` on the fewest GPUs at the targets.
 * Returns the index into reps or -1; *out_replicas, *out_bmax set. */
static int choose(const Ctx *c, const Rep *reps, int n, double rate, int fixed_replicas,
                  double tpot_t, double ttft_t, int *out_replicas, double *out_bmax)
{
    int best = -1;
    long best_gpus = 0;
    double best_tpot = 0;
    for (int i = 0; i < n; i++) {
        const Rep *r = &reps[i];
        if (!r->fits)
            continue;
        /* λ(b) rises with b, so λ at the memory cap bounds what this degree
         * can carry: skip it when even that needs more GPUs than the best. */
        if (best >= 0 && fixed_replicas <= 0) {
            double lam_cap = op_at(c, r, r->max_batch).lambda;
            if (fmax(1.0, ceil(rate / lam_cap - 1e-9)) * r->tp > best_gpus)
                continue;
        }
        double bmax = max_batch_at_slo(c, r, tpot_t, ttft_t);
        if (bmax <= 0)
            continue;
        Op top = op_at(c, r, bmax);
        double reps_needed = ceil(rate / top.lambda - 1e-9);
        if (reps_needed < 1)
            reps_needed = 1;
        if (reps_needed > 1e6)
            continue;
        int replicas = (int)reps_needed;
        if (fixed_replicas > 0) {
            if (rate / fixed_replicas > top.lambda * (1 + 1e-9))
                continue;
            replicas = fixed_replicas;
        }
        long gpus = (long)replicas * r->tp;
        if (best >= 0 && gpus > best_gpus)
            continue;
        Op o = op_at(c, r, batch_for_rate(c, r, rate / replicas, bmax));
        if (best < 0 || gpus < best_gpus || (gpus == best_gpus && o.tpot < best_tpot)) {
            best = i;
            best_gpus = gpus;
            best_tpot = o.tpot;
            *out_replicas = replicas;
            *out_bmax = bmax;
        }
    }
    return best;
}

static void fill_result(const Ctx *c, const Rep *r, int replicas, double bmax, double rate,
                        InferResult *ir)
{
    double per = rate / replicas;
    Op cap = op_at(c, r, bmax);
    double carried = per < cap.lambda ? per : cap.lambda;
    double b = batch_for_rate(c, r, carried, bmax);
    Op o = op_at(c, r, b);
    ir->tp = r->tp;
    ir->replicas = replicas;
    ir->gpus = replicas * r->tp;
    ir->batch_per_replica = (int)ceil(o.b - 1e-9);
    if (ir->batch_per_replica < 1)
        ir->batch_per_replica = 1;
    ir->kv_bytes_per_token = c->kv_tok_full;
    ir->state_bytes_per_sequence = c->state_seq;
    ir->mem.weights = r->weights;
    /* per GPU: TP holds a slice of every sequence, DEP whole sequences of
     * its share of the batch */
    double seqs_per_gpu = r->dep ? ceil((double)ir->batch_per_replica / r->tp)
                                 : ir->batch_per_replica;
    ir->mem.kv_cache = seqs_per_gpu * r->kv_seq_reserved;
    ir->mem.other = r->other;
    ir->mem.total = ir->mem.weights + ir->mem.kv_cache + ir->mem.other;
    ir->prefill_s = r->S_lat;
    ir->ep = r->dep ? r->tp : 0;
    ir->redundant_experts = r->dep ? r->redundant : 0;
    ir->max_batch = r->max_batch;
    ir->queue_s = o.wq + o.residual;
    ir->ttft_s = o.ttft;
    ir->tpot_s = o.tpot;
    ir->output_tokens_per_s_per_replica = carried * c->output;
    ir->output_tokens_per_s = ir->output_tokens_per_s_per_replica * replicas;
    ir->output_tokens_per_s_per_gpu = ir->output_tokens_per_s / ir->gpus;
    ir->gpu_hours_per_mtok = ir->output_tokens_per_s > 0
                                 ? ir->gpus / 3600.0 / ir->output_tokens_per_s * 1e6
                                 : 0.0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The replica counts of a curve: from one below `fewest` (the fewest that
 * can carry the rate; the one below shows saturation) to twice `chosen`,
 * geometrically spaced, `chosen` always included; ascending.  Returns how
 * many (0 when chosen < 1). */
static int curve_counts(int chosen, double fewest, int counts[INFER_CURVE_MAX])
{
    if (chosen < 1)
        return 0;
    int lo = (int)fmin(fmax(1.0, fewest - 1), (double)chosen);
    int hi = chosen * 2 > chosen + 3 ? chosen * 2 : chosen + 3;
    int n = 0;
    counts[n++] = chosen;
    const int steps = INFER_CURVE_MAX - 1;
    for (int k = 0; k < steps && n < INFER_CURVE_MAX; k++) {
        int v = (int)lround(lo * pow((double)hi / lo, (double)k / (steps - 1)));
        bool seen = false;
        for (int i = 0; i < n; i++)
            seen |= counts[i] == v;
        if (!seen)
            counts[n++] = v;
    }
    qsort(counts, (size_t)n, sizeof counts[0], cmp_int);
    return n;
}

/* Replicas vs TPOT for the chosen degree r: the rate split evenly over
 * the counts of curve_counts, the chosen count's point the result's own.
 * The same queueing model as the sizing (op_at, batch_for_rate). */
static void replicas_curve(const Ctx *c, const Rep *r, double rate, InferResult *ir)
{
    ir->n_curve = 0;
    int chosen = ir->replicas;
    double cap = op_at(c, r, r->max_batch).lambda;
    if (chosen < 1 || !(cap > 0) || !isfinite(rate / cap))
        return;
    int counts[INFER_CURVE_MAX];
    int n = curve_counts(chosen, fmax(1.0, ceil(rate / cap - 1e-9)), counts);
    for (int i = 0; i < n; i++) {
        int k = ir->n_curve++;
        ir->curve_replicas[k] = counts[i];
        if (counts[i] == chosen) {
            ir->curve_tpot_s[k] = ir->tpot_s;
            ir->curve_ttft_s[k] = ir->ttft_s;
            continue;
        }
        double per = rate / counts[i];
        if (per > cap * (1 + 1e-9)) {
            ir->curve_tpot_s[k] = ir->curve_ttft_s[k] = 0.0;
            continue;
        }
        Op o = op_at(c, r, batch_for_rate(c, r, per, r->max_batch));
        ir->curve_tpot_s[k] = o.tpot;
        ir->curve_ttft_s[k] = o.ttft;
    }
}

/* ------------------------------------------------------ disaggregation
 *
 * Prefill pool: replicas that only prefill, packing queued prompts into
 * iterations of chunk_tokens (per-prompt service time S_pool), each an M/D/1
 * server: the TTFT budget left after the lone-prompt prefill, the KV
 * transfer and half a decode step bounds the utilisation,
 *   Wq = ρ·S/(2(1 − ρ)) ≤ W  ⇒  ρ ≤ 2W/(S + 2W).
 * Decode pool: replicas that only decode, TPOT(b) = step(b)/E with no
 * prefill stalls (the point of disaggregation: DistServe, Zhong et al.
 * OSDI'24 §2), λ(b) = b/(out_steps·step(b)).
 * KV transfer: the prompt's whole KV (all layers) from the prefill GPUs to
 * the decode GPUs over the scale-out fabric, striped over the NICs of the
 * smaller group, not overlapped with the prefill (conservative: Mooncake
 * and SGLang overlap it layer by layer). */

static double prefill_pool_s(const Ctx *c, const Rep *r)
{
    if (!r->dep)
        return prefill_tp(c, r->tp, c->chunk);
    double own, spread;
    prefill_dep(c, r->tp, c->chunk, &own, &spread);
    return own / r->tp + spread;
}

static double kv_transfer_s(const Ctx *c, const Rep *pre, const Rep *dec)
{
    int lanes = pre->tp < dec->tp ? pre->tp : dec->tp;
    if (pre->dep || dec->dep)
        lanes = 1; /* one sequence lives on one attention-DP rank */
    double bw = net_scaleout_bw(c->p, c->a, false);
    if (!(bw > 0))
        return INFINITY;
    return c->kv_tok_full * c->prompt / (lanes * bw) + NET_SCALEOUT_LATENCY_S;
}

typedef struct {
    bool ok;
    int pre, dec;                    /* indexes into reps */
    int pre_replicas, dec_replicas;
    double dec_b;                    /* decode batch per replica at the carried rate */
    double dec_bmax;
    double wq, t_kv, ttft, tpot;
    long gpus;
} Disagg;

/* Largest decode batch with step/E ≤ tpot_t; 0 when a lone sequence misses. */
static double decode_bmax(const Ctx *c, const Rep *r, double tpot_t)
{
    if (step_s(c, r, 1.0) / c->tok_per_step > tpot_t)
        return 0.0;
    if (step_s(c, r, r->max_batch) / c->tok_per_step <= tpot_t)
        return r->max_batch;
    double lo = 1.0, hi = r->max_batch;
    for (int i = 0; i < 48 && hi - lo > 1e-4 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (step_s(c, r, mid) / c->tok_per_step <= tpot_t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static double decode_lambda(const Ctx *c, const Rep *r, double b)
{
    return b / (c->out_steps * step_s(c, r, b));
}

/* Replicas of `tp` GPUs, each carrying at most `lam` requests/s, a pool
 * needs for `rate`; a fixed pool size (`fixed_gpus` > 0) must be whole
 * replicas that carry it.  0 = not possible. */
static int pool_replicas(double rate, double lam, int tp, int fixed_gpus)
{
    if (fixed_gpus > 0) {
        int replicas = fixed_gpus / tp;
        if (replicas < 1 || replicas * tp != fixed_gpus || rate / replicas > lam * (1 + 1e-9))
            return 0;
        return replicas;
    }
    double need = fmax(1.0, ceil(rate / lam - 1e-9));
    return need > 1e6 ? 0 : (int)need;
}

/* Size both pools for `rate` at the targets; fixed sizes from ds honoured. */
static Disagg size_disagg(const Ctx *c, const Rep *reps, int n, double rate, double tpot_t,
                          double ttft_t, const DisaggSpec *ds)
{
    Disagg best = {0};
    /* Decode pool: fewest GPUs, then lowest TPOT. */
    long dbest = -1;
    for (int i = 0; i < n; i++) {
        const Rep *r = &reps[i];
        if (!r->fits || (ds->decode_tp > 0 && r->tp != ds->decode_tp))
            continue;
        if (dbest >= 0 && ds->decode_gpus <= 0 &&
            fmax(1.0, ceil(rate / decode_lambda(c, r, r->max_batch) - 1e-9)) * r->tp > dbest)
            continue; /* cannot beat the best even at its memory cap */
        double bmax = decode_bmax(c, r, tpot_t);
        if (bmax <= 0)
            continue;
        int replicas = pool_replicas(rate, decode_lambda(c, r, bmax), r->tp, ds->decode_gpus);
        if (replicas <= 0)
            continue;
        long g = (long)replicas * r->tp;
        if (dbest < 0 || g < dbest) {
            dbest = g;
            best.dec = i;
            best.dec_replicas = replicas;
            best.dec_bmax = bmax;
        }
    }
    if (dbest < 0)
        return best;
    const Rep *dr = &reps[best.dec];
    double per = rate / best.dec_replicas;
    double lo = 0, hi = best.dec_bmax;
    for (int i = 0; i < 60 && hi - lo > 1e-6 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (decode_lambda(c, dr, mid) < per)
            lo = mid;
        else
            hi = mid;
    }
    best.dec_b = hi;
    double dstep = step_s(c, dr, best.dec_b);
    best.tpot = dstep / c->tok_per_step;
    /* Prefill pool. */
    long pbest = -1;
    for (int i = 0; i < n; i++) {
        const Rep *r = &reps[i];
        if (!r->fits || (ds->prefill_tp > 0 && r->tp != ds->prefill_tp))
            continue;
        double S = prefill_pool_s(c, r);
        double tkv = kv_transfer_s(c, r, dr);
        double W = ttft_t - r->S_lat - tkv - dstep / 2.0;
        if (!(W > 0))
            continue;
        double rho = isfinite(W) ? 2.0 * W / (S + 2.0 * W) : 1.0 - 1e-6;
        rho = fmin(rho, 1.0 - 1e-6);
        int replicas = pool_replicas(rate, rho / S, r->tp, ds->prefill_gpus);
        if (replicas <= 0)
            continue;
        long g = (long)replicas * r->tp;
        double rr = rate / replicas * S;
        double wq = rr * S / (2.0 * (1.0 - rr));
        double ttft = wq + r->S_lat + tkv + dstep / 2.0;
        if (pbest < 0 || g < pbest || (g == pbest && ttft < best.ttft)) {
            pbest = g;
            best.pre = i;
            best.pre_replicas = replicas;
            best.wq = wq;
            best.t_kv = tkv;
            best.ttft = ttft;
        }
    }
    if (pbest < 0)
        return best;
    best.ok = true;
    best.gpus = pbest + dbest;
    return best;
}

static void fill_disagg(const Ctx *c, const Rep *reps, const Disagg *d, double rate,
                        InferResult *ir)
{
    const Rep *pr = &reps[d->pre], *dr = &reps[d->dec];
    ir->disaggregated = true;
    ir->prefill_tp = pr->tp;
    ir->prefill_replicas = d->pre_replicas;
    ir->prefill_gpus = d->pre_replicas * pr->tp;
    ir->prefill_ep = pr->dep ? pr->tp : 0;
    ir->decode_tp = dr->tp;
    ir->decode_replicas = d->dec_replicas;
    ir->decode_gpus = d->dec_replicas * dr->tp;
    ir->decode_ep = dr->dep ? dr->tp : 0;
    ir->kv_transfer_s = d->t_kv;
    ir->tp = dr->tp;
    ir->replicas = d->dec_replicas;
    ir->gpus = ir->prefill_gpus + ir->decode_gpus;
    ir->ep = ir->decode_ep;
    ir->redundant_experts = dr->dep ? dr->redundant : 0;
    ir->max_batch = dr->max_batch;
    ir->batch_per_replica = (int)fmax(1.0, ceil(d->dec_b - 1e-9));
    ir->kv_bytes_per_token = c->kv_tok_full;
    ir->state_bytes_per_sequence = c->state_seq;
    ir->mem.weights = dr->weights;
    double seqs_per_gpu = dr->dep ? ceil((double)ir->batch_per_replica / dr->tp)
                                  : ir->batch_per_replica;
    ir->mem.kv_cache = seqs_per_gpu * dr->kv_seq_reserved;
    ir->mem.other = dr->other;
    ir->mem.total = ir->mem.weights + ir->mem.kv_cache + ir->mem.other;
    ir->prefill_s = pr->S_lat;
    ir->queue_s = d->ttft - pr->S_lat;
    ir->ttft_s = d->ttft;
    ir->tpot_s = d->tpot;
    ir->output_tokens_per_s_per_replica = rate / d->dec_replicas * c->output;
    ir->output_tokens_per_s = rate * c->output;
    ir->output_tokens_per_s_per_gpu = ir->output_tokens_per_s / ir->gpus;
    ir->gpu_hours_per_mtok = ir->gpus / 3600.0 / ir->output_tokens_per_s * 1e6;
}

/* Decode batch per replica that carries `per` requests/s (λ(b) = per),
 * at most the memory/engine cap. */
static double decode_batch_for(const Ctx *c, const Rep *r, double per)
{
    double lo = 0, hi = r->max_batch;
    for (int i = 0; i < 60 && hi - lo > 1e-6 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (decode_lambda(c, r, mid) < per)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* GPUs vs latency for both pools of a disaggregated service (InferResult
 * decode_curve_* / prefill_curve_*): each pool's layout at the counts of
 * curve_counts with the rate split evenly, the other pool as chosen.  The
 * same queueing model as size_disagg: a decode replica carries
 * λ(b) = b/(out_steps·step(b)) at TPOT step(b)/E, its cap at max_batch
 * (not the TPOT target: a curve shows where the target is crossed); a
 * prefill replica is an M/D/1 server of service time S. */
static void pool_curves(const Ctx *c, const Rep *reps, const Disagg *d, double rate,
                        InferResult *ir)
{
    const Rep *pr = &reps[d->pre], *dr = &reps[d->dec];
    int counts[INFER_CURVE_MAX], n;
    ir->n_decode_curve = ir->n_prefill_curve = 0;
    double dcap = decode_lambda(c, dr, dr->max_batch);
    if (dcap > 0 && isfinite(rate / dcap)) {
        n = curve_counts(d->dec_replicas, fmax(1.0, ceil(rate / dcap - 1e-9)), counts);
        for (int i = 0; i < n; i++) {
            int k = ir->n_decode_curve++;
            ir->decode_curve_replicas[k] = counts[i];
            ir->decode_curve_gpus[k] = counts[i] * dr->tp;
            double per = rate / counts[i];
            if (counts[i] == d->dec_replicas)
                ir->decode_curve_tpot_s[k] = ir->tpot_s;
            else if (per > dcap * (1 + 1e-9))
                ir->decode_curve_tpot_s[k] = 0.0;
            else
                ir->decode_curve_tpot_s[k] =
                    step_s(c, dr, decode_batch_for(c, dr, per)) / c->tok_per_step;
        }
    }
    double S = prefill_pool_s(c, pr);
    double dstep = step_s(c, dr, d->dec_b);
    if (S > 0 && isfinite(rate * S)) {
        n = curve_counts(d->pre_replicas, fmax(1.0, floor(rate * S) + 1), counts);
        for (int i = 0; i < n; i++) {
            int k = ir->n_prefill_curve++;
            ir->prefill_curve_replicas[k] = counts[i];
            ir->prefill_curve_gpus[k] = counts[i] * pr->tp;
            double rho = rate / counts[i] * S;
            if (counts[i] == d->pre_replicas)
                ir->prefill_curve_ttft_s[k] = ir->ttft_s;
            else if (rho >= 1.0)
                ir->prefill_curve_ttft_s[k] = 0.0;
            else
                ir->prefill_curve_ttft_s[k] =
                    rho * S / (2.0 * (1.0 - rho)) + pr->S_lat + d->t_kv + dstep / 2.0;
        }
    }
}

/* disaggregated: true and no pool pair meets the targets: name what binds
 * and the edit that meets it (InferResult.binding / fix, as for an
 * aggregated service).  A latency target below what a lone request takes
 * on every degree of its pool: the pools sized at INFER_SLO_RELAX x that
 * latency, reported as missing the SLO (ok, meets_slo false, a warning),
 * the fix the targets they were sized for.  A fixed pool that cannot carry
 * the rate at reachable targets: a failed sizing whose error carries the
 * pool size that would.  *out: the pools filled (for the explanation). */
static bool disagg_missed(const Ctx *c, const Rep *reps, int n, double rate, double tpot_t,
                          double ttft_t, const DisaggSpec *ds, const char *name,
                          WorkloadResult *wr, PlanResult *r, Disagg *out)
{
    static const char generic[] = "disaggregated: no prefill/decode pool pair meets the targets "
                                  "(try disaggregated: auto, or looser ttft_ms / tpot_ms)";
    InferResult *ir = &wr->infer;
    DisaggSpec sized = *ds;          /* the same degrees, both pools sized */
    sized.prefill_gpus = sized.decode_gpus = 0;
    /* decode: the fastest lone-sequence step over the pool's degrees */
    double lone_tpot = INFINITY;
    int lone_dec = -1;
    for (int i = 0; i < n; i++) {
        const Rep *q = &reps[i];
        if (!q->fits || (ds->decode_tp > 0 && q->tp != ds->decode_tp))
            continue;
        double t = step_s(c, q, 1.0) / c->tok_per_step;
        if (t < lone_tpot) {
            lone_tpot = t;
            lone_dec = i;
        }
    }
    if (lone_dec < 0)
        return fail(wr, generic);
    double tpot_r = lone_tpot > tpot_t ? INFER_SLO_RELAX * lone_tpot : tpot_t;
    /* prefill: the fastest lone prompt (prefill, KV transfer, half the
     * decode step) next to the decode pool sized at tpot_r */
    Disagg d0 = size_disagg(c, reps, n, rate, tpot_r, INFINITY, &sized);
    if (!d0.ok)
        return fail(wr, generic);
    const Rep *d0r = &reps[d0.dec];
    double half = step_s(c, d0r, d0.dec_b) / 2.0;
    double lone_ttft = INFINITY;
    int lone_pre = -1;
    for (int i = 0; i < n; i++) {
        const Rep *q = &reps[i];
        if (!q->fits || (ds->prefill_tp > 0 && q->tp != ds->prefill_tp))
            continue;
        double t = q->S_lat + kv_transfer_s(c, q, d0r) + half;
        if (t < lone_ttft) {
            lone_ttft = t;
            lone_pre = i;
        }
    }
    if (lone_pre < 0 || !isfinite(lone_ttft))
        return fail(wr, generic);
    double ttft_r = lone_ttft >= ttft_t ? INFER_SLO_RELAX * lone_ttft : ttft_t;
    bool tpot_binds = tpot_r > tpot_t, ttft_binds = ttft_r > ttft_t;
    if (!tpot_binds && !ttft_binds) {
        /* the targets are reachable: a fixed pool size binds */
        Disagg a = size_disagg(c, reps, n, rate, tpot_t, ttft_t, &sized);
        if (!a.ok)
            return fail(wr, generic);
        DisaggSpec dec_only = *ds;
        dec_only.prefill_gpus = 0;
        bool dec_binds = ds->decode_gpus > 0 &&
                         !size_disagg(c, reps, n, rate, tpot_t, ttft_t, &dec_only).ok;
        int fixed = dec_binds ? ds->decode_gpus : ds->prefill_gpus;
        int need = dec_binds ? a.dec_replicas * reps[a.dec].tp : a.pre_replicas * reps[a.pre].tp;
        snprintf(ir->binding, sizeof ir->binding,
                 "%s_gpus %d cannot carry %g req/s at the %.3g ms %s target in whole replicas",
                 dec_binds ? "decode" : "prefill", fixed, rate,
                 (dec_binds ? tpot_t : ttft_t) * 1e3, dec_binds ? "TPOT" : "TTFT");
        snprintf(ir->fix, sizeof ir->fix, "set %s_gpus to %d (%s%d x %d)",
                 dec_binds ? "decode" : "prefill", need,
                 (dec_binds ? reps[a.dec].dep : reps[a.pre].dep) ? "DEP" : "tp",
                 dec_binds ? reps[a.dec].tp : reps[a.pre].tp,
                 dec_binds ? a.dec_replicas : a.pre_replicas);
        wr->ok = false;
        snprintf(wr->error, sizeof wr->error, "disaggregated: %.120s; %.110s", ir->binding,
                 ir->fix);
        return false;
    }
    Disagg d = size_disagg(c, reps, n, rate, tpot_r, ttft_r, ds);
    if (!d.ok)
        return fail(wr, generic);
    fill_disagg(c, reps, &d, rate, ir);
    pool_curves(c, reps, &d, rate, ir);
    ir->meets_slo = false;
    ir->best_tpot_s = tpot_binds ? lone_tpot : 0.0;
    ir->gpus_low = ir->gpus_high = ir->gpus;
    wr->ok = true;
    const Rep *bq = tpot_binds ? &reps[lone_dec] : &reps[lone_pre];
    snprintf(ir->binding, sizeof ir->binding,
             "%s target %.3g ms is below the %.3g ms %s takes on %s%d",
             tpot_binds ? "TPOT" : "TTFT", (tpot_binds ? tpot_t : ttft_t) * 1e3,
             (tpot_binds ? lone_tpot : lone_ttft) * 1e3,
             tpot_binds ? "one decode step" : "a lone prompt (prefill, KV transfer, half a step)",
             bq->dep ? "DEP" : "tp", bq->tp);
    char both[64] = "";
    if (tpot_binds && ttft_binds)
        snprintf(both, sizeof both, " and ttft_ms to %.3g", ttft_r * 1e3);
    snprintf(ir->fix, sizeof ir->fix, "raise %s_ms to %.3g%s to serve %g req/s on %d GPUs",
             tpot_binds ? "tpot" : "ttft", (tpot_binds ? tpot_r : ttft_r) * 1e3, both, rate,
             ir->gpus);
    if (r)
        result_warn(r, "%s: latency target not met by the disaggregated pools (%s); sized at "
                       "%.2fx the best achievable",
                    name, ir->binding, INFER_SLO_RELAX);
    *out = d;
    return true;
}

/* GPUs an aggregated sizing needs, or 0 when no degree meets the targets. */
static long agg_gpus(const Ctx *c, const Rep *reps, int n, double rate, int fixed_replicas,
                     double tpot_t, double ttft_t)
{
    int replicas = 0;
    double bmax = 0;
    int pick = choose(c, reps, n, rate, fixed_replicas, tpot_t, ttft_t, &replicas, &bmax);
    return pick < 0 ? 0 : (long)replicas * reps[pick].tp;
}

/* The engine a workload names, "" = trtllm; NULL and *unknown set when the
 * catalog lacks a named engine. */
static const Engine *engine_for(const Catalog *cat, const Workload *w, bool *unknown)
{
    *unknown = false;
    const char *id = w->engine[0] ? w->engine : CATALOG_DEFAULT_ENGINE;
    const Engine *e = cat ? catalog_find_engine(cat, id) : NULL;
    if (!e && w->engine[0] && cat && cat->n_engines > 0)
        *unknown = true;
    return e;
}

/* The assumptions behind an inference result, in words, and the numbers
 * that decided between an aggregated and a disaggregated service. */
static void infer_explain(const Ctx *c, const Workload *w, const Accelerator *a,
                          const Engine *eng, const Rep *dreps, const Rep *reps,
                          const Disagg *dg, const Disagg *pools, const InferResult *ir,
                          long agg, double band_lo, double band_hi, PlanResult *r)
{
    const char *sc = w->name;
    const Rep *rep = NULL;
    if (ir->disaggregated) {
        rep = &dreps[pools->dec];
    } else {
        for (int i = 0; i < INFER_MAX_CANDIDATES && !rep; i++)
            if (reps[i].tp == ir->tp && reps[i].dep == (ir->ep > 0))
                rep = &reps[i];
    }
    if (!rep)
        return;
    double x = (double)c->h / rep->tp;
    bool native = a->peak_flops[w->precision] > 0;
    result_assume(r, sc,
                  "GEMM efficiency %.2f at h/tp=%.0f (%s), HBM efficiency %.2f (%s); "
                  "peak %.0f TFLOP/s per GPU (%s%s)",
                  gemm_eff_x(c, x), x, c->gemm_eff_curve_ok ? "catalog curve" : "default",
                  c->hbm_bw_eff / a->hbm_bw,
                  a->elementwise_eff > 0 ? "catalog elementwise_eff" : "default",
                  c->peak / 1e12, native ? precision_name(w->precision) : "16-bit math",
                  native ? "" : ", weight-only quantisation");
    result_assume(r, sc,
                  "engine %s%s: %.0f us per layer + %.0f us per iteration, at most %d "
                  "sequences per scheduler, %.0f-token iterations (prefill batched/chunked at "
                  "that size%s), %.0f-token KV blocks",
                  ir->engine, eng ? "" : " (built-in defaults)", c->layer_ovh * 1e6,
                  c->step_ovh * 1e6, c->cap, c->chunk,
                  c->fused ? ", riding in the decode iteration" : "", c->block);
    if (c->eager_layer > 0)
        result_assume(r, sc,
                      "engine %s launches prefill eagerly (no graphs): a prefill pass takes "
                      "at least %.0f us per layer of host launch work",
                      ir->engine, c->eager_layer * 1e6);
    result_assume(r, sc,
                  "KV reserved for prompt+output (%.0f tokens, worst case) per sequence, "
                  "read at the mean %.0f; %.1f GB/GPU runtime + %.0f-token activation "
                  "workspace; max %d sequences per replica",
                  c->ctx_reserved, c->ctx_mean, rep->other / 1e9, c->chunk, rep->max_batch);
    if (w->model.window > 0 && w->model.window < c->prompt + c->output)
        result_assume(r, sc,
                      "sliding window (%d tokens on %.0f of %.0f attention layers) not "
                      "priced: KV cache and attention at the full context, which the "
                      "published serving runs match better today (README, Inference accuracy)",
                      w->model.window, model_window_layers(&w->model, c->La), c->La);
    if (c->p_new < c->prompt || c->draft > 0)
        result_assume(r, sc,
                      "prefix cache: %.0f of %.0f prompt tokens computed; speculative: %.0f "
                      "drafted, %.2f tokens per step expected (Leviathan et al. 2023)",
                      c->p_new, c->prompt, c->draft, c->tok_per_step);
    result_assume(r, sc,
                  "queueing: prefill preempts decode, TPOT = step/(1-rho); TTFT = M/D/1 "
                  "wait per replica (Pollaczek-Khinchine, even random split) + prefill + "
                  "the rest of the running step; targets met on the mean, not p99");
    const char *span = rep->tp > c->domain ? "over scale-out (spans nodes)" : "over scale-up";
    if (rep->dep)
        result_assume(r, sc,
                      "layout: attention data-parallel + %d-way expert parallel, %d expert "
                      "slots per GPU (%d redundant), 2 all-to-alls per MoE layer %s",
                      rep->tp, rep->slots, rep->redundant, span);
    else if (rep->tp == 1)
        result_assume(r, sc, "layout: one GPU per replica");
    else
        result_assume(r, sc,
                      "layout: %d-way tensor parallel (2 all-reduces per layer, one-shot or "
                      "ring, %s)%s",
                      rep->tp, span, c->mla && rep->tp > 1 ? "; MLA latent KV whole on every rank"
                                                           : "");
    if (c->routed_total > 0)
        result_assume(r, sc,
                      "MoE: all experts resident; a decode step reads the experts its batch "
                      "touches, 1-(1-k/E)^B of them (uniform routing)");
    result_assume(r, sc,
                  "error band: true/predicted time %.2f-%.2f (residuals on the fit half of "
                  "tests/data/serve_runs.yaml) -> %d-%d GPUs",
                  band_lo, band_hi, ir->gpus_low, ir->gpus_high);
    if (w->disaggregated.mode != 0) {
        char ag[48], dg_s[48];
        if (agg > 0)
            snprintf(ag, sizeof ag, "%ld GPUs", agg);
        else
            snprintf(ag, sizeof ag, "cannot meet the targets");
        if (dg->ok)
            snprintf(dg_s, sizeof dg_s, "%ld GPUs", dg->gpus);
        else
            snprintf(dg_s, sizeof dg_s, "cannot meet the targets");
        result_assume(r, sc,
                      "aggregated %s vs disaggregated %s -> %s; KV transfer %.1f ms per prompt "
                      "over scale-out (not overlapped)",
                      ag, dg_s, ir->disaggregated ? "disaggregated" : "aggregated",
                      ir->disaggregated ? pools->t_kv * 1e3 : dg->ok ? dg->t_kv * 1e3 : 0.0);
    }
}

bool infer_size(const Plan *p, const Workload *w, const Accelerator *a, const Catalog *cat,
                WorkloadResult *wr, PlanResult *r)
{
    memset(&wr->infer, 0, sizeof wr->infer);
    wr->ok = false;
    wr->error[0] = '\0';
    if (!p || !w)
        return fail(wr, "no plan or workload");
    bool unknown = false;
    const Engine *eng = engine_for(cat, w, &unknown);
    if (unknown) {
        char msg[PLAN_TEXT_LEN];
        snprintf(msg, sizeof msg, "unknown engine '%.48s' (the catalog has vllm, sglang, trtllm, "
                                  "tgi or a user engine row)", w->engine);
        return fail(wr, msg);
    }
    Ctx c;
    char err[PLAN_TEXT_LEN];
    if (!ctx_init(&c, p, w, a, eng, err, sizeof err))
        return fail(wr, err);
    double rate = w->requests_per_s;
    if (!(rate > 0) || !isfinite(rate))
        return fail(wr, "requests_per_s must be > 0");
    if (w->tp < 0 || w->replicas < 0)
        return fail(wr, "tp and replicas must be >= 0 (0 = auto)");
    const DisaggSpec *ds = &w->disaggregated;
    if (ds->mode < -1 || ds->mode > 1 || ds->prefill_gpus < 0 || ds->decode_gpus < 0 ||
        ds->prefill_tp < 0 || ds->decode_tp < 0)
        return fail(wr, "disaggregated: sizes and tp must be >= 0 (0 = auto)");
    /* 0 (or a negative) target = none given. */
    double tpot_t = w->tpot_s > 0 ? w->tpot_s : INFINITY;
    double ttft_t = w->ttft_s > 0 ? w->ttft_s : INFINITY;
    double band_lo = eng && eng->band_low > 0 ? eng->band_low : INFER_BAND_LOW;
    double band_hi = eng && eng->band_high > 0 ? eng->band_high : INFER_BAND_HIGH;
    /* an MoE model gets the engine's MoE band when it has one */
    if (eng && c.experts > 1 && eng->band_moe_low > 0)
        band_lo = eng->band_moe_low;
    if (eng && c.experts > 1 && eng->band_moe_high > 0)
        band_hi = eng->band_moe_high;
    /* a sensitivity point (Plan.perturb.band): every modelled time q x
     * longer, sized as the band ends are (a replica q x slower carries 1/q
     * of the rate and meets the targets with times q x longer); the
     * reported times and throughputs are scaled back after sizing */
    double z = p->perturb.band;
    double q = z < 0 ? 1 + -z * (band_lo - 1) : 1 + z * (band_hi - 1);
    if (!(q > 0.05))
        q = 1;
    if (q != 1) {
        rate *= q;
        tpot_t /= q;
        ttft_t /= q;
    }

    Rep reps[INFER_MAX_CANDIDATES];
    int n = candidates(&c, w->tp, reps);
    if (n == 0) {
        char msg[PLAN_TEXT_LEN];
        snprintf(msg, sizeof msg, "tp %d is not a valid degree for %d heads / %d KV heads", w->tp,
                 c.heads, c.g);
        return fail(wr, msg);
    }
    bool any_fit = false;
    int widest = 0;
    for (int i = 0; i < n; i++) {
        any_fit |= reps[i].fits;
        if (reps[i].tp > widest)
            widest = reps[i].tp;
    }
    if (!any_fit) {
        char msg[PLAN_TEXT_LEN];
        snprintf(msg, sizeof msg,
                 "model does not fit: %.0f GB of %s weights plus one sequence's KV exceed "
                 "%d × %.0f GB usable HBM",
                 c.total * c.wb / 1e9, precision_name(w->precision), widest, c.usable / 1e9);
        return fail(wr, msg);
    }
    InferResult *ir = &wr->infer;
    snprintf(ir->engine, sizeof ir->engine, "%s", eng ? eng->id : CATALOG_DEFAULT_ENGINE);

    /* Disaggregated candidates (pools searched over the whole degree list;
     * a fixed tp applies to the aggregated layout only). */
    Rep dreps[INFER_MAX_CANDIDATES];
    int dn = 0;
    Disagg dg = {0};
    if (ds->mode != 0) {
        dn = w->tp > 0 ? candidates(&c, 0, dreps) : n;
        const Rep *src = w->tp > 0 ? dreps : reps;
        dg = size_disagg(&c, src, dn, rate, tpot_t, ttft_t, ds);
        if (w->tp == 0)
            memcpy(dreps, reps, sizeof(Rep) * (size_t)n);
        ir->disaggregated_gpus = dg.ok ? (int)fmin(dg.gpus, 1e9) : 0;
    }
    /* the aggregated count is reported beside the disaggregated one even
     * when disaggregation is asked for, so the choice has its numbers */
    long agg = ds->mode == 0 ? 0 : agg_gpus(&c, reps, n, rate, w->replicas, tpot_t, ttft_t);
    ir->aggregated_gpus = (int)fmin(agg, 1e9);
    bool use_disagg = ds->mode == 1 ? dg.ok
                      : ds->mode == -1 ? dg.ok && (agg == 0 || dg.gpus < agg)
                                       : false;
    Disagg pools = dg; /* the pools the result shows */
    if (ds->mode == 1 && !dg.ok) {
        if (!disagg_missed(&c, dreps, dn, rate, tpot_t, ttft_t, ds, w->name, wr, r, &pools))
            return false;
    } else if (use_disagg) {
        fill_disagg(&c, dreps, &dg, rate, ir);
        pool_curves(&c, dreps, &dg, rate, ir);
        ir->meets_slo = true;
        ir->best_tpot_s = 0.0;
        wr->ok = true;
        /* bands: the pools sized again with every time scaled by the band ends */
        Disagg lo = size_disagg(&c, dreps, dn, rate * band_lo, tpot_t / band_lo,
                                ttft_t / band_lo, ds);
        Disagg hi = size_disagg(&c, dreps, dn, rate * band_hi, tpot_t / band_hi,
                                ttft_t / band_hi, ds);
        ir->gpus_low = lo.ok ? (int)fmin(lo.gpus, 1e9) : ir->gpus;
        ir->gpus_high = hi.ok ? (int)fmin(hi.gpus, 1e9) : 0;
    } else {
        int replicas = 0;
        double bmax = 0;
        int pick = choose(&c, reps, n, rate, w->replicas, tpot_t, ttft_t, &replicas, &bmax);
        bool meets = pick >= 0;
        bool latency_ok = meets;
        double best_tpot = INFINITY;
        double tpot_r = tpot_t, ttft_r = ttft_t; /* the targets the service was sized for */
        if (!meets) {
            /* The degree closest to the targets with a lone request. */
            double best_ratio = INFINITY;
            int closest = -1;
            for (int i = 0; i < n; i++) {
                if (!reps[i].fits)
                    continue;
                Op o = op_at(&c, &reps[i], 1e-6);
                if (o.tpot < best_tpot)
                    best_tpot = o.tpot;
                double ratio = fmax(o.tpot / tpot_t, o.ttft / ttft_t);
                if (ratio < best_ratio) {
                    best_ratio = ratio;
                    closest = i;
                }
            }
            /* NaN ratios (targets too small to divide by) leave no candidate */
            if (closest < 0)
                return fail(wr, "no tensor-parallel degree gives a finite latency against these "
                                "targets");
            latency_ok = best_ratio <= 1.0;
            if (latency_ok && w->replicas <= 0) /* only the replica count was out of range */
                return fail(wr, "requests_per_s is beyond any replica count");
            if (latency_ok) {
                /* Only the fixed replica count is short: run the degree that
                 * carries the most per replica at the targets. */
                double most = -1;
                for (int i = 0; i < n; i++) {
                    if (!reps[i].fits)
                        continue;
                    double b = max_batch_at_slo(&c, &reps[i], tpot_t, ttft_t);
                    if (b <= 0)
                        continue;
                    double lam = op_at(&c, &reps[i], b).lambda;
                    if (lam > most) {
                        most = lam;
                        pick = i;
                        bmax = b;
                    }
                }
                replicas = w->replicas;
            } else {
                /* Size at INFER_SLO_RELAX x what the closest degree can do. */
                Op o = op_at(&c, &reps[closest], 1e-6);
                tpot_r = fmax(tpot_t, INFER_SLO_RELAX * o.tpot);
                ttft_r = fmax(ttft_t, INFER_SLO_RELAX * o.ttft);
                if (choose(&c, &reps[closest], 1, rate, 0, tpot_r, ttft_r, &replicas, &bmax) <
                    0)
                    return fail(wr, "requests_per_s is beyond any replica count");
                pick = closest;
                if (w->replicas > 0)
                    replicas = w->replicas;
            }
        }
        const Rep *rep = &reps[pick];
        fill_result(&c, rep, replicas, bmax, rate, ir);
        replicas_curve(&c, rep, rate, ir);
        bool overloaded = ir->output_tokens_per_s < rate * c.output * (1 - 1e-6);
        ir->meets_slo = meets && !overloaded;
        /* best_tpot_s names the latency that can be reached when the latency
         * target cannot; when only a fixed replica count is short (latency_ok)
         * the lone-request TPOT beside "misses SLO" read as if the TPOT target
         * were out of reach (8B, 10 req/s on 1 replica: "best achievable TPOT
         * 7.3 ms" against a 100 ms target the replica meets). */
        ir->best_tpot_s = ir->meets_slo || latency_ok
                              ? 0.0
                              : (isfinite(best_tpot) ? best_tpot : ir->tpot_s);
        wr->ok = true;
        /* what binds a missed service and the edit that meets it (shown next
         * to the result and in eval --json, as for training runs) */
        if (!latency_ok) {
            Op lone = op_at(&c, rep, 1e-6);
            bool tpot_binds = lone.tpot > tpot_t;
            snprintf(ir->binding, sizeof ir->binding,
                     "%s target %.3g ms is below the %.3g ms one request takes on tp%d",
                     tpot_binds ? "TPOT" : "TTFT", (tpot_binds ? tpot_t : ttft_t) * 1e3,
                     (tpot_binds ? lone.tpot : lone.ttft) * 1e3, rep->tp);
            if (w->replicas <= 0) {
                char both[64] = "";
                if (tpot_r > tpot_t && ttft_r > ttft_t)
                    snprintf(both, sizeof both, " and ttft_ms to %.3g", ttft_r * 1e3);
                snprintf(ir->fix, sizeof ir->fix, "raise %s_ms to %.3g%s to serve %g req/s on %d GPUs",
                         tpot_r > tpot_t ? "tpot" : "ttft",
                         (tpot_r > tpot_t ? tpot_r : ttft_r) * 1e3, tpot_r > tpot_t ? both : "",
                         rate, ir->gpus);
            }
        } else if (overloaded) {
            int need = 0;
            double b = 0;
            snprintf(ir->binding, sizeof ir->binding, "%d replicas carry %.3g of %g req/s at the targets",
                     replicas, ir->output_tokens_per_s / c.output, rate);
            if (choose(&c, rep, 1, rate, 0, tpot_t, ttft_t, &need, &b) >= 0)
                snprintf(ir->fix, sizeof ir->fix, "raise replicas to %d (%d GPUs)", need,
                         need * rep->tp);
        }
        /* bands: sized again with every modelled time scaled by the band
         * ends (a replica q× slower carries 1/q of the rate and must meet
         * the targets with times q× longer). */
        if (w->replicas > 0 || !meets) {
            ir->gpus_low = ir->gpus_high = ir->gpus;
        } else {
            long lo = agg_gpus(&c, reps, n, rate * band_lo, 0, tpot_t / band_lo,
                               ttft_t / band_lo);
            long hi = agg_gpus(&c, reps, n, rate * band_hi, 0, tpot_t / band_hi,
                               ttft_t / band_hi);
            ir->gpus_low = lo > 0 ? (int)fmin(lo, 1e9) : ir->gpus;
            ir->gpus_high = hi > 0 ? (int)fmin(hi, 1e9) : 0;
        }
        if (r) {
            if (!latency_ok)
                result_warn(r,
                            "%s: latency target not met (best TPOT %.1f ms, TTFT %.0f ms on %d "
                            "GPUs); sized at %.2fx the best achievable",
                            w->name, best_tpot * 1e3, op_at(&c, rep, 1e-6).ttft * 1e3, rep->tp,
                            INFER_SLO_RELAX);
            else if (overloaded)
                result_warn(r, "%s: %d replicas carry %.1f of %.1f requests/s", w->name,
                            replicas, ir->output_tokens_per_s / c.output, rate);
        }
    }
    if (ir->gpus_low > ir->gpus)
        ir->gpus_low = ir->gpus;
    if (ir->gpus_high && ir->gpus_high < ir->gpus)
        ir->gpus_high = ir->gpus;
    if (q != 1) {
        ir->prefill_s *= q;
        ir->queue_s *= q;
        ir->ttft_s *= q;
        ir->tpot_s *= q;
        ir->output_tokens_per_s /= q;
        ir->output_tokens_per_s_per_gpu /= q;
        ir->output_tokens_per_s_per_replica /= q;
        ir->gpu_hours_per_mtok *= q;
    }
    ir->ttft_s_low = ir->ttft_s * band_lo;
    ir->ttft_s_high = ir->ttft_s * band_hi;
    ir->tpot_s_low = ir->tpot_s * band_lo;
    ir->tpot_s_high = ir->tpot_s * band_hi;

    if (r)
        infer_explain(&c, w, a, eng, dreps, reps, &dg, &pools, ir, agg, band_lo, band_hi, r);
    return true;
}
