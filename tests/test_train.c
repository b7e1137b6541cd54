/* tests/test_train.c — the training sizing model (model/train.c).
 *
 * Exact checks where the math is exact (parameter counts, Megatron's FLOP
 * formula, ZeRO memory, Korthikanti et al. 2022 Table 2 activations, Young's
 * interval), then calibration against published runs on the SHIPPED catalog
 * (data/catalog, incl. efficiency.yaml), each with its source and a stated
 * tolerance, then the layout search, GPU sizing and error paths. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "catalog_yaml.h"
#include "check_main.h"
#include "plan_result.h"
#include "plan.h"
#include "presets.h"
#include "train.h"

#define GIB 1073741824.0

static Catalog cat;
static bool cat_loaded;

static void load_catalog(void)
{
    if (cat_loaded)
        return;
    char dir[4096];
    const char *dd = getenv("GPUPLAN_DATADIR");
    if (dd && *dd)
        snprintf(dir, sizeof dir, "%s/catalog", dd);
    else
        snprintf(dir, sizeof dir, "%s/data/catalog", GPUPLAN_SRCDIR);
    Diag d;
    memset(&d, 0, sizeof d);
    memset(&cat, 0, sizeof cat);
    int rc = catalog_load(&cat, dir, NULL, &d);
    char buf[512];
    ck_assert_msg(rc == 0, "catalog: %s", diag_format(&d, buf, sizeof buf));
    cat_loaded = true;
}

/* mechanism tests: sizing under a changed framework profile (below) */
static const Framework *plain_megatron(void);
static void fw_plain(Framework *f);
static WorkloadResult size_under_on(const Framework *base, void (*change)(Framework *),
                                    Workload *w, const Accelerator *a);

static const Accelerator *acc(const char *id)
{
    load_catalog();
    const Accelerator *a = catalog_find_accelerator(&cat, id);
    ck_assert_msg(a != NULL, "no %s in the shipped catalog", id);
    return a;
}

static double rel(double got, double want) { return fabs(got - want) / fabs(want); }

/* GPT-style shape as in Megatron's papers: F = 4h, GELU, tied embeddings. */
static ModelShape gpt(int layers, int hidden, int heads, int vocab)
{
    ModelShape m;
    memset(&m, 0, sizeof m);
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kv_heads = heads;
    m.ffn_hidden = 4 * hidden;
    m.vocab = vocab;
    m.glu = false;
    m.tied_embeddings = true;
    m.experts = 1;
    m.experts_per_token = 1;
    return m;
}

/* Llama 3.1 405B (Dubey et al. 2024, Table 3; config.json). */
static ModelShape llama405(void)
{
    ModelShape m;
    memset(&m, 0, sizeof m);
    m.layers = 126;
    m.hidden = 16384;
    m.ffn_hidden = 53248;
    m.heads = 128;
    m.kv_heads = 8;
    m.vocab = 128256;
    m.glu = true;
    m.experts = 1;
    m.experts_per_token = 1;
    return m;
}

/* DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json). */
static ModelShape deepseek_v3(void)
{
    ModelShape m;
    memset(&m, 0, sizeof m);
    m.layers = 61;
    m.hidden = 7168;
    m.ffn_hidden = 18432;
    m.heads = 128;
    m.kv_heads = 128;
    m.vocab = 129280;
    m.glu = true;
    m.experts = 256;
    m.experts_per_token = 8;
    m.shared_experts = 1;
    m.expert_ffn_hidden = 2048;
    m.dense_layers = 3;
    m.q_lora_rank = 1536;
    m.kv_lora_rank = 512;
    m.qk_rope_head_dim = 64;
    m.qk_nope_head_dim = 128;
    m.v_head_dim = 128;
    return m;
}

static Workload training(ModelShape m, int seq, int batch, double tokens)
{
    Workload w;
    workload_init(&w, WL_TRAINING);
    snprintf(w.name, sizeof w.name, "t");
    w.model = m;
    w.seq_len = seq;
    w.global_batch = batch;
    w.tokens = tokens;
    return w;
}

/* A preset's training run pinned to one layout: gpus, global batch gbs of
 * seq-token sequences in micro-batches of mb, precision pc, distributed
 * optimizer (ZeRO 1), no recompute. */
static Workload pinned(const char *preset, int seq, int gpus, int gbs, int mb, Precision pc,
                       ParallelSpec ps)
{
    const ModelPreset *pr = preset_find(preset);
    ck_assert_ptr_nonnull(pr);
    Workload w = training(pr->shape, seq, gbs, 1e12);
    w.gpus = gpus;
    w.micro_batch = mb;
    w.precision = pc;
    w.zero = 1;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = ps;
    return w;
}

static bool finite_result(const TrainResult *t)
{
    const double v[] = {t->params, t->active_params, t->flops_per_step, t->flops_total,
                        t->mem.weights, t->mem.gradients, t->mem.optimizer, t->mem.activations,
                        t->mem.other, t->mem.total, t->hbm_bytes, t->step_s, t->step.compute,
                        t->step.tp_comm, t->step.pp_bubble, t->step.dp_comm, t->step.cp_comm,
                        t->step.ep_comm, t->step.other, t->mfu, t->tokens_per_s, t->train_days,
                        t->gpu_hours, t->checkpoint_bytes, t->checkpoint_write_s,
                        t->checkpoint_interval_s, t->job_mtbf_s, t->goodput,
                        t->dataset_read_Bps, t->checkpoint_write_Bps, t->runner_up_step_s};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

/* Runs train_size on a heap PlanResult; the caller frees *out. */
static bool size(const Plan *p, const Workload *w, const Accelerator *a, PlanResult **out)
{
    PlanResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    bool ok = train_size(p, w, a, &cat, &r->workloads[0], r);
    ck_assert_msg(finite_result(&r->workloads[0].train), "non-finite number in TrainResult");
    *out = r;
    return ok;
}

/* The training result of w on part a, which must fit. */
static TrainResult sized(Workload w, const char *a)
{
    Plan p;
    plan_init(&p);
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc(a), &r), "%s: %s", w.name, r->workloads[0].error);
    TrainResult t = r->workloads[0].train;
    free(r);
    return t;
}

/* ------------------------------------------------------------ parameters, FLOPs */

START_TEST(gpt3_params_and_6ND)
{
    /* Brown et al. 2020, Table 2.1: 96 layers, d_model 12288, 96 heads,
     * vocab 50257; 174.6B params; 3.14e23 FLOPs for 300B tokens (Table D.1). */
    ModelShape m = gpt(96, 12288, 96, 50257);
    double total, active;
    train_params(&m, &total, &active);
    ck_assert_msg(rel(total, 174.6e9) < 0.002, "GPT-3 params %.4g", total);
    ck_assert(total == active);
    ck_assert_msg(rel(6.0 * total * 300e9, 3.14e23) < 0.005, "6ND %.4g", 6.0 * total * 300e9);
}
END_TEST

START_TEST(llama405_params_and_flops_per_sequence)
{
    ModelShape m = llama405();
    double total, active;
    train_params(&m, &total, &active);
    ck_assert_msg(rel(total, 405e9) < 0.01, "405B params %.4g", total);
    /* NVIDIA DGX Cloud benchmarking recipe: 2.17e16 FLOPs per 8192-token
     * sequence (SIZING-MODEL.md §1), ±2 %. */
    double f = train_model_flops(&m, 1, 8192);
    ck_assert_msg(rel(f, 2.17e16) < 0.02, "405B flops/seq %.4g", f);
}
END_TEST

START_TEST(deepseek_v3_total_and_active_params)
{
    /* DeepSeek-V3 technical report: 671B total, 37B activated per token
     * (the 14B multi-token-prediction module is not counted there). */
    ModelShape m = deepseek_v3();
    double total, active;
    train_params(&m, &total, &active);
    ck_assert_msg(rel(total, 671e9) < 0.01, "DeepSeek-V3 total %.4g", total);
    ck_assert_msg(rel(active, 37e9) < 0.03, "DeepSeek-V3 active %.4g", active);
}
END_TEST

START_TEST(presets_agree_with_inline_shapes)
{
    const ModelPreset *p = preset_find("deepseek-v3");
    if (p) {
        double a, b, c, d;
        ModelShape m = deepseek_v3();
        train_params(&p->shape, &a, &b);
        train_params(&m, &c, &d);
        ck_assert(rel(a, c) < 1e-9 && rel(b, d) < 1e-9);
    }
    p = preset_find("gpt-3-175b");
    if (p) {
        double a, b;
        train_params(&p->shape, &a, &b);
        ck_assert_msg(rel(a, 174.6e9) < 0.003, "preset gpt-3-175b %.4g", a);
    }
}
END_TEST

START_TEST(gpt_flops_equal_megatron_formula)
{
    /* Narayanan et al. 2021 eq. 3: 72·B·s·L·h²·(1 + s/(6h) + V/(12·L·h)). */
    ModelShape m = gpt(96, 12288, 96, 51200);
    double B = 1536, s = 2048, L = 96, h = 12288, V = 51200;
    double want = 72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * L * h));
    ck_assert(rel(train_model_flops(&m, B, s), want) < 1e-12);
}
END_TEST

START_TEST(gqa_glu_flops_equal_megatron_general_formula)
{
    /* SIZING-MODEL.md §1: 12·B·s·L·h²·[(1 + g/a + s/h)·(a·d/h) + (F/h)·glu + V/(2·L·h)]. */
    ModelShape m = llama405();
    double B = 16, s = 8192, L = 126, h = 16384, a = 128, g = 8, d = 128, F = 53248, V = 128256;
    double want = 12 * B * s * L * h * h *
                  ((1 + g / a + s / h) * (a * d / h) + (F / h) * 1.5 + V / (2 * L * h));
    ck_assert(rel(train_model_flops(&m, B, s), want) < 1e-12);
}
END_TEST

/* ------------------------------------------------------------ memory */

START_TEST(zero_stages_match_zero_paper)
{
    /* Rajbhandari et al. 2020 (ZeRO) Figure 1: 7.5B params, 64 ranks, K=16:
     * 120 / 31.4 / 16.6 / 1.9 GB for stages 0/1/2/3 (model states only). */
    const Accelerator *a = acc("A100-80GB");
    Workload w = training(gpt(32, 4096, 32, 51200), 2048, 64, 1e9);
    w.model.params = 7.5e9;
    w.optimizer_bytes_per_param = 16;
    const double want[4] = {120e9, 31.40625e9, 16.640625e9, 1.875e9};
    for (int z = 0; z <= 3; z++) {
        w.zero = z;
        Layout l = {.tp = 1, .pp = 1, .dp = 64, .cp = 1, .ep = 1, .vpp = 1, .micro_batch = 1,
                    .recompute = RECOMPUTE_FULL, .sp = false};
        TrainMemory mem;
        ck_assert(train_memory(&w, a, &l, &mem));
        double states = mem.weights + mem.gradients + mem.optimizer;
        ck_assert_msg(rel(states, want[z]) < 1e-9, "ZeRO-%d %.6g", z, states);
        ck_assert(mem.total > states);
    }
}
END_TEST

START_TEST(activations_match_korthikanti_table2)
{
    /* Korthikanti et al. 2022 Table 2, per layer, 16-bit: GPT-3 175B shape,
     * s = 2048, b = 1, t = 8. */
    ModelShape m = gpt(96, 12288, 96, 51200);
    double s = 2048, b = 1, h = 12288, a = 96, t = 8, sbh = s * b * h;
    double core = 5 * a * s / h;
    ck_assert(rel(train_activation_bytes(&m, s, b, 1, 1, false, RECOMPUTE_NONE, false),
                  sbh * (34 + core)) < 1e-12);
    ck_assert(rel(train_activation_bytes(&m, s, b, 8, 1, false, RECOMPUTE_NONE, false),
                  sbh * (10 + 24 / t + core / t)) < 1e-12);
    ck_assert(rel(train_activation_bytes(&m, s, b, 8, 1, true, RECOMPUTE_NONE, false),
                  sbh * (34 + core) / t) < 1e-12);
    ck_assert(rel(train_activation_bytes(&m, s, b, 8, 1, true, RECOMPUTE_SELECTIVE, false),
                  34 * sbh / t) < 1e-12);
    ck_assert(rel(train_activation_bytes(&m, s, b, 8, 1, false, RECOMPUTE_SELECTIVE, false),
                  sbh * (10 + 24 / t)) < 1e-12);
    ck_assert(rel(train_activation_bytes(&m, s, b, 1, 1, false, RECOMPUTE_FULL, false),
                  2 * sbh) < 1e-12);
    ck_assert(rel(train_activation_bytes(&m, s, b, 8, 1, true, RECOMPUTE_FULL, false),
                  2 * sbh / t) < 1e-12);
    /* FlashAttention drops the 5as/h term */
    ck_assert(rel(train_activation_bytes(&m, s, b, 8, 1, true, RECOMPUTE_NONE, true),
                  34 * sbh / t) < 1e-12);
    /* context parallel: each rank holds s/c tokens, its scores (s/c)×s */
    ck_assert(rel(train_activation_bytes(&m, s, b, 8, 2, true, RECOMPUTE_NONE, false),
                  (s / 2) * b * h * (34 + core) / t) < 1e-12);
}
END_TEST

START_TEST(activations_scale_for_gqa_and_swiglu)
{
    /* GQA K,V scale by g/a (8 = 4 + 4·g/a), a SwiGLU MLP stores 6·F/h. */
    ModelShape m = llama405();
    double s = 8192, b = 1, h = 16384, t = 8, sbh = s * b * h;
    double want = sbh * (10 + 4 + 4 * 8.0 / 128 + 6 * 53248.0 / h) / t;
    ck_assert(rel(train_activation_bytes(&m, s, b, 8, 1, true, RECOMPUTE_NONE, true), want) <
              1e-12);
    /* selective with FlashAttention: the two norm outputs (4) and the MLP
     * activation output (2·F/h) are recomputed */
    double sel = sbh * (10 - 4 + 4 + 4 * 8.0 / 128 + 6 * 53248.0 / h - 2 * 53248.0 / h) / t;
    ck_assert(rel(train_activation_bytes(&m, s, b, 8, 1, true, RECOMPUTE_SELECTIVE, true), sel) <
              1e-12);
}
END_TEST

START_TEST(pipeline_first_stage_holds_p_microbatches_and_interleave_factor)
{
    const Accelerator *a = acc("A100-80GB");
    Workload w = training(gpt(96, 12288, 96, 51200), 2048, 64, 1e9);
    w.flash_attention = false;
    Layout l = {.tp = 8, .pp = 8, .dp = 1, .cp = 1, .ep = 1, .vpp = 1, .micro_batch = 1,
                .recompute = RECOMPUTE_SELECTIVE, .sp = true};
    TrainMemory m1, m2;
    ck_assert(train_memory(&w, a, &l, &m1));
    double layer = 34.0 * 2048 * 12288 / 8;
    double emb_mask = 2048.0 * 12288 * 8 / 8;      /* embedding dropout mask, p in flight */
    /* 1F1B: p micro-batches of L/p layers = L layers of activations */
    ck_assert(rel(m1.activations, 96 * layer + emb_mask) < 1e-9);
    l.vpp = 4;
    ck_assert(train_memory(&w, a, &l, &m2));
    double f = 1 + 7.0 / (8 * 4);
    ck_assert(rel(m2.activations, (96 * layer + emb_mask) * f) < 1e-9);
}
END_TEST

/* Issue 11: the Megatron-Bridge 25.11 H100 gpt-oss-120b row (64 GPUs, PP4,
 * EP8, GBS 512, recompute layernorm + moe_act) prints MBS 4, but its recipe
 * (tag v0.2.2 GPT_OSS_120B_H100_BF16_BASE_CONFIG) runs micro_batch_size 1.
 * The distributed optimizer shards the dense fp32 states over the 16 dense
 * DP ranks and the expert ones over the 2 expert-DP ranks (64 / (PP4 x
 * EP8)); stage 0 holds 9 layers of PP = 4 micro-batches.  At MBS 1 the stage
 * fits an H100; at the printed MBS 4 its activations alone are ~4x those of
 * MBS 1 and it does not. */
START_TEST(gpt_oss_h100_recipe_fits_at_its_micro_batch_not_the_printed_one)
{
    const Accelerator *a = acc("H100-SXM");
    const ModelPreset *pr = preset_find("gpt-oss-120b");
    ck_assert_ptr_nonnull(pr);
    Workload w = training(pr->shape, 4096, 512, 1e12);
    w.model.window = 128;
    w.model.window_layers = 18;
    w.precision = PREC_BF16;
    w.zero = 1;
    Layout l = {.tp = 1, .pp = 4, .dp = 2, .cp = 1, .ep = 8, .vpp = 1, .micro_batch = 1,
                .recompute = RECOMPUTE_SELECTIVE, .sp = false};
    TrainMemory m1, m4;
    ck_assert(train_memory(&w, a, &l, &m1));
    l.micro_batch = 4;
    ck_assert(train_memory(&w, a, &l, &m4));
    /* expert params of stage 0: 9 layers x 128 experts x 3·h·Fe over EP8 */
    double pe = 9.0 * 128 * 3 * 2880.0 * 2880 / 8;
    double pall = m1.gradients / 2; /* 16-bit gradients, unsharded */
    double want_opt = 12 * ((pall - pe) / 16 + pe / 2);
    ck_assert_msg(rel(m1.optimizer, want_opt) < 1e-9, "optimizer %.4g vs %.4g", m1.optimizer,
                  want_opt);
    double usable = a->hbm_bytes * a->hbm_usable_frac;
    ck_assert_msg(m1.total < usable, "MBS 1 needs %.1f GiB of %.1f", m1.total / GIB, usable / GIB);
    ck_assert_msg(m4.total > usable, "MBS 4 needs %.1f GiB of %.1f", m4.total / GIB, usable / GIB);
    ck_assert(m4.activations > 3.9 * m1.activations);
}
END_TEST

/* Megatron-Core's account_for_embedding/loss_in_pipeline_split (workload
 * pipeline_split_embedding_loss; Megatron-Bridge's Llama 3.1 405B recipe):
 * 126 layers + embedding + loss = 128 slots on PP16, 8 per stage; the first
 * stage holds the embedding and 7 layers of 16 micro-batches, the second 8
 * layers of 15 (1F1B warm-up p − r − 1, plus one), which binds: 120 layers'
 * activations instead of 8 × 16 = 128 (+ the embedding's dropout mask). */
START_TEST(pipeline_split_counting_embedding_and_loss_moves_a_layer_off_stage_0)
{
    const Accelerator *a = acc("GB200");
    Workload w = training(llama405(), 8192, 1536, 1e12);
    w.precision = PREC_FP8;
    Layout l = {.tp = 4, .pp = 16, .dp = 4, .cp = 1, .ep = 1, .vpp = 1, .micro_batch = 1,
                .recompute = RECOMPUTE_NONE, .sp = true};
    TrainMemory plain, split;
    ck_assert(train_memory(&w, a, &l, &plain));
    w.pipeline_split_embedding_loss = true;
    ck_assert(train_memory(&w, a, &l, &split));
    double act = train_activation_bytes(&w.model, 8192, 1, 4, 1, true, RECOMPUTE_NONE, true);
    double emb_mask = 8192.0 * 16384 * 16 / 4;
    ck_assert_msg(rel(plain.activations, 128 * act + emb_mask) < 1e-9,
                  "plain %.4g vs %.4g", plain.activations, 128 * act + emb_mask);
    ck_assert_msg(rel(split.activations, 120 * act) < 1e-9, "split %.4g vs %.4g",
                  split.activations, 120 * act);
    ck_assert(split.total < plain.total);
    /* interleaved: the second stage has two chunks fewer in flight */
    l.vpp = 8;
    ck_assert(train_memory(&w, a, &l, &split));
    double in1 = 16 * (1 + 15.0 / (16 * 8)) - 2.0 / 8;
    ck_assert_msg(rel(split.activations, 8 * in1 * act) < 1e-9, "vp8 %.4g vs %.4g",
                  split.activations, 8 * in1 * act);
}
END_TEST

/* ------------------------------------------------------------ failures */

START_TEST(young_interval_for_5min_checkpoint_and_97h_mtbf)
{
    double tau = train_young_interval_s(300, 97.7 * 3600);
    ck_assert_msg(fabs(tau / 60 - 242) < 1.0, "Young %.2f min", tau / 60);
    double daly = train_daly_interval_s(300, 97.7 * 3600);
    ck_assert(daly < tau && daly > 0.95 * tau);
    ck_assert(train_daly_interval_s(3600, 1000) == 1000);   /* δ ≥ 2M: interval = M */
    ck_assert(train_young_interval_s(0, 100) == 0);
    double g = train_goodput(60, 1200, 600, 10000);
    ck_assert(rel(g, 1 - 60.0 / 1200 - (600 + 600) / 10000.0) < 1e-12);
    ck_assert(train_goodput(600, 100, 600, 100) == 0);    /* clamped, never negative */
}
END_TEST

START_TEST(llama3_interruptions_and_goodput)
{
    /* Dubey et al. 2024 §3.3.4: 419 unexpected interruptions in 54 days on
     * 16,384 H100, > 90 % effective training time.  Plan: 50,000 GPU-h
     * MTBF (the catalog default, derived from that run), 10 min restart,
     * checkpoints written at Tectonic's 2 TB/s (stall = bytes / 2 TB/s). */
    Plan p;
    plan_init(&p);
    Workload w = training(llama405(), 8192, 2048, 15.6e12);
    w.gpus = 16384;
    w.parallel = (ParallelSpec){.tp = 8, .pp = 16, .cp = 1, .sp = 1};
    double params;
    train_params(&w.model, &params, NULL);
    p.storage.checkpoint_stall_s = params * 14 / 2e12;
    p.tenancy.mtbf_gpu_h = 50000;
    p.tenancy.restore_s = 600;
    PlanResult *r;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    const TrainResult *t = &r->workloads[0].train;
    double interruptions = 54 * 86400.0 / t->job_mtbf_s;
    ck_assert_msg(rel(interruptions, 419) < 0.05, "interruptions %.0f", interruptions);
    ck_assert_msg(t->goodput > 0.90 && t->goodput < 0.95, "goodput %.3f", t->goodput);
    ck_assert(rel(t->checkpoint_bytes, params * 14) < 1e-12);
    ck_assert(rel(t->checkpoint_write_Bps, 2e12) < 1e-9);
    free(r);
}
END_TEST

/* ------------------------------------------------------------ calibration */

/* Narayanan et al. 2021 (SC'21) Table 1 / Megatron-LM README: GPT models,
 * s = 2048, V = 51200, on Selene (A100-80GB, 8 × 200 Gb/s HDR per node),
 * full activation recompute, fp32 gradients (18 B/param, no distributed
 * optimizer), DP all-reduce after the backward pass; achieved TFLOP/s per
 * GPU counted with recompute (96·B·s·L·h² form).  Micro-batch and
 * interleaving are searched.  Tolerance 10 %. */
static const struct {
    int heads, hidden, layers, tp, pp, gpus, batch;
    double tflops;
} mlm21[] = {
    {24, 2304, 24, 1, 1, 32, 512, 137},      {32, 3072, 30, 2, 1, 64, 512, 138},
    {32, 4096, 36, 4, 1, 128, 512, 142},     {48, 6144, 40, 8, 1, 256, 1024, 135},
    {64, 8192, 48, 8, 2, 512, 1536, 138},    {80, 10240, 60, 8, 4, 1024, 1792, 140},
    {96, 12288, 80, 8, 8, 1536, 2304, 148},  {128, 16384, 96, 8, 16, 1920, 2160, 155},
    {128, 20480, 105, 8, 35, 2520, 2520, 163}, {160, 25600, 128, 8, 64, 3072, 3072, 163},
};

/* Relative error of Table 1 row i (TFLOP/s per GPU counted with recompute). */
static double mlm21_error(int i, double *hfu_out)
{
    Plan p;
    plan_init(&p);
    p.network.link_bps = 200e9;
    Workload w = training(gpt(mlm21[i].layers, mlm21[i].hidden, mlm21[i].heads, 51200), 2048,
                          mlm21[i].batch, 300e9);
    w.gpus = mlm21[i].gpus;
    w.parallel = (ParallelSpec){.tp = mlm21[i].tp, .pp = mlm21[i].pp, .cp = 1, .sp = 0};
    w.recompute = RECOMPUTE_FULL;
    w.flash_attention = false;
    w.optimizer_bytes_per_param = 18;
    w.zero = 0;
    w.dp_sync_after_backward = true;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("A100-80GB"), &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    double hfu = t->flops_per_step * 4.0 / 3.0 / t->step_s / t->gpus / 1e12;
    free(r);
    if (hfu_out)
        *hfu_out = hfu;
    return rel(hfu, mlm21[i].tflops);
}

START_TEST(megatron_2021_table1_throughput_within_10pct)
{
    double hfu;
    double e = mlm21_error(_i, &hfu);
    ck_assert_msg(e < 0.10, "row %d: %.1f vs %.0f TFLOP/s", _i, hfu, mlm21[_i].tflops);
}
END_TEST

/* Korthikanti et al. 2022, Tables 4–5: GPT 22B/175B/530B/1T on 8/64/280/512
 * A100-80GB, s = 2048, V = 51200, TP8 with SP, batch = GPUs/8 … (4, 64,
 * 280, 512), micro-batch 4/1/1/1, no interleaving; iteration seconds with
 * selective recompute (present work) and with full recompute.  Tol. 10 %. */
static const struct {
    int heads, hidden, layers, pp, gpus, batch, mb;
    double sel_s, full_s;
} k22[] = {
    {64, 6144, 48, 1, 8, 4, 4, 1.10, 1.42},
    {96, 12288, 96, 8, 64, 64, 1, 13.75, 18.13},
    {128, 20480, 105, 35, 280, 280, 1, 37.83, 49.05},
    {160, 25600, 128, 64, 512, 512, 1, 71.49, 94.42},
};

/* Relative error of Table 5 case c (even: selective, odd: full recompute). */
static double k22_error(int c, double *step_out)
{
    int i = c / 2;
    bool full = c % 2;
    Plan p;
    plan_init(&p);
    p.network.link_bps = 200e9;
    Workload w = training(gpt(k22[i].layers, k22[i].hidden, k22[i].heads, 51200), 2048,
                          k22[i].batch, 300e9);
    w.gpus = k22[i].gpus;
    w.micro_batch = k22[i].mb;
    w.parallel = (ParallelSpec){.tp = 8, .pp = k22[i].pp, .vpp = 1, .cp = 1, .sp = 1};
    w.recompute = full ? RECOMPUTE_FULL : RECOMPUTE_SELECTIVE;
    w.flash_attention = false;
    w.optimizer_bytes_per_param = 18;
    w.zero = 0;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("A100-80GB"), &r), "%s", r->workloads[0].error);
    double step = r->workloads[0].train.step_s;
    free(r);
    if (step_out)
        *step_out = step;
    return rel(step, full ? k22[i].full_s : k22[i].sel_s);
}

START_TEST(korthikanti_2022_iteration_time_within_10pct)
{
    double step;
    double e = k22_error(_i, &step);
    ck_assert_msg(e < 0.10, "case %d: %.2f s vs %.2f s", _i, step,
                  _i % 2 ? k22[_i / 2].full_s : k22[_i / 2].sel_s);
}
END_TEST

/* The whole 2021-22 Megatron calibration set (the ten Table 1 rows and the
 * eight Table 5 cases above) stays within 3 % on average: the second-pass
 * mechanisms (framework profiles, FP8 casts, overlap windows, NVL72,
 * folding) must not move the runs the curves were fitted to. */
START_TEST(megatron_2021_22_set_mean_error_within_3pct)
{
    double sum = 0, worst = 0;
    int n = 0;
    for (int i = 0; i < (int)(sizeof mlm21 / sizeof mlm21[0]); i++, n++) {
        double e = mlm21_error(i, NULL);
        sum += e;
        worst = e > worst ? e : worst;
    }
    for (int c = 0; c < 2 * (int)(sizeof k22 / sizeof k22[0]); c++, n++) {
        double e = k22_error(c, NULL);
        sum += e;
        worst = e > worst ? e : worst;
    }
    fprintf(stderr, "Megatron 2021-22 set: %d cases, mean |error| %.1f %%, worst %.1f %%\n", n,
            100 * sum / n, 100 * worst);
    ck_assert_msg(sum / n <= 0.03, "mean %.3f over %d cases", sum / n, n);
}
END_TEST

START_TEST(korthikanti_2022_530b_mfu_is_about_54pct)
{
    /* Korthikanti et al. 2022 abstract: 530B on 2240 A100 at 54.2 % MFU
     * (selective recompute + SP; TP8 PP35 DP8, batch 2240). Tolerance 10 %. */
    Plan p;
    plan_init(&p);
    p.network.link_bps = 200e9;
    Workload w = training(gpt(105, 20480, 128, 51200), 2048, 2240, 300e9);
    w.gpus = 2240;
    w.micro_batch = 1;
    w.parallel = (ParallelSpec){.tp = 8, .pp = 35, .vpp = 1, .cp = 1, .sp = 1};
    w.recompute = RECOMPUTE_SELECTIVE;
    w.flash_attention = false;
    w.optimizer_bytes_per_param = 18;
    w.zero = 0;
    w.dp_sync_after_backward = true;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("A100-80GB"), &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    ck_assert_msg(rel(t->mfu, 0.542) < 0.10, "MFU %.3f", t->mfu);
    free(r);
}
END_TEST

START_TEST(gpt3_175b_on_1024_a100_at_140_tflops_within_10pct)
{
    /* Narayanan et al. 2021 §5.1: GPT-3 175B on 1024 A100 with batch 1536
     * at 140 TFLOP/s per GPU (counted with recompute) — 34 days for 300B
     * tokens by their 8·T·P/(n·X).  The paper does not give this run's
     * layout; TP8 PP8 as in its 145.6B Table 1 row, the rest searched. */
    Plan p;
    plan_init(&p);
    p.network.link_bps = 200e9;
    Workload w = training(gpt(96, 12288, 96, 51200), 2048, 1536, 300e9);
    w.gpus = 1024;
    w.parallel = (ParallelSpec){.tp = 8, .pp = 8, .cp = 1, .sp = 0};
    w.recompute = RECOMPUTE_FULL;
    w.flash_attention = false;
    w.optimizer_bytes_per_param = 18;
    w.zero = 0;
    w.dp_sync_after_backward = true;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("A100-80GB"), &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    double hfu = t->flops_per_step * 4.0 / 3.0 / t->step_s / t->gpus / 1e12;
    ck_assert_msg(rel(hfu, 140) < 0.10, "%.1f TFLOP/s", hfu);
    double days = 300e9 / t->tokens_per_s / 86400;     /* before failures, as the paper */
    ck_assert_msg(rel(days, 34) < 0.10, "%.1f days", days);
    free(r);
}
END_TEST

START_TEST(llama3_405b_tflops_per_gpu_within_10pct)
{
    /* Dubey et al. 2024 Table 4: 405B, TP8 CP1 PP16, 8K context, 16M
     * tokens per batch: 8,192 GPUs at 430 TFLOP/s (43 % BF16 MFU), 16,384 at
     * 400 (41 %).  Interleaving, micro-batch and recompute searched: an
     * un-recomputed 1F1B schedule does not fit 80 GB, selective (norms and
     * MLP activation) does. */
    const int gpus[2] = {8192, 16384};
    const double tf[2] = {430, 400};
    for (int i = 0; i < 2; i++) {
        Plan p;
        plan_init(&p);
        Workload w = training(llama405(), 8192, 2048, 15.6e12);
        w.gpus = gpus[i];
        w.parallel = (ParallelSpec){.tp = 8, .pp = 16, .cp = 1, .sp = 1};
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
        const TrainResult *t = &r->workloads[0].train;
        double got = t->flops_per_step / t->step_s / t->gpus / 1e12;
        ck_assert_msg(rel(got, tf[i]) < 0.10, "%d GPUs: %.0f vs %.0f TFLOP/s", gpus[i], got,
                      tf[i]);
        ck_assert(t->layout.pp == 16 && t->layout.tp == 8 && t->layout.dp == gpus[i] / 128);
        free(r);
    }
}
END_TEST

START_TEST(deepseek_v3_gpu_hours_within_10pct)
{
    /* DeepSeek-V3 technical report §3–4: 14.8T tokens in 2.664M H800
     * GPU-hours (180K per trillion tokens) on 2048 H800: PP16, EP64 over 8
     * nodes, ZeRO-1, no TP, FP8 GEMMs, seq 4096, batch 15360; DualPipe hides
     * the all-to-alls (ep_overlap 1) and DeepEP's kernels permute while they
     * communicate (catalog framework `deepseek`).  H800 = H100 compute with
     * NVLink cut to 400 GB/s bidirectional.  1543 tokens/s per GPU.
     * Tolerance 10 %. */
    Accelerator h800 = *acc("H100-SXM");
    snprintf(h800.id, sizeof h800.id, "H800");
    h800.scaleup_bw = 200e9;
    Plan p;
    plan_init(&p);
    Workload w = training(deepseek_v3(), 4096, 15360, 14.8e12);
    w.gpus = 2048;
    w.precision = PREC_FP8;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 16, .cp = 1, .ep = 64, .sp = 0};
    w.zero = 1;
    w.ep_overlap = 1;
    snprintf(w.framework, sizeof w.framework, "deepseek");
    PlanResult *r;
    ck_assert_msg(size(&p, &w, &h800, &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    double per_gpu = t->tokens_per_s / t->gpus;
    ck_assert_msg(rel(per_gpu, 1543) < 0.10, "%.0f tokens/s/GPU", per_gpu);
    free(r);
}
END_TEST

START_TEST(mosaicml_mpt_h100_mfu_within_10pct)
{
    /* mosaicml/llm-foundry scripts/train/benchmarking/README.md, "H100 80GB
     * BF16": MPT-30B (48 × 7168, 64 heads) on 32 GPUs, s 2048, micro-batch
     * 14, batch 1344, MFU 43.92 %; MPT-70B (80 × 8192, 64 heads) on 64 GPUs,
     * micro-batch 8, batch 2048, MFU 42.57 %.  FSDP full shard (ZeRO-3), no
     * TP/PP, activation checkpointing, FlashAttention, F = 4h, vocab 50432. */
    const struct { int L, h, a, G, mb, B; double mfu; } c[2] = {
        {48, 7168, 64, 32, 14, 1344, 0.4392}, {80, 8192, 64, 64, 8, 2048, 0.4257}};
    for (int i = 0; i < 2; i++) {
        Plan p;
        plan_init(&p);
        Workload w = training(gpt(c[i].L, c[i].h, c[i].a, 50432), 2048, c[i].B, 1e11);
        w.gpus = c[i].G;
        w.micro_batch = c[i].mb;
        w.zero = 3;
        w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
        w.recompute = RECOMPUTE_FULL;
        w.flash_attention_v1 = true; /* flash-attn 1.0.9 (llm-foundry .[gpu]) */
        w.no_dropout = true;
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
        const TrainResult *t = &r->workloads[0].train;
        ck_assert_msg(rel(t->mfu, c[i].mfu) < 0.10, "case %d: MFU %.3f vs %.3f", i, t->mfu,
                      c[i].mfu);
        free(r);
    }
}
END_TEST

/* mosaicml/llm-foundry scripts/train/benchmarking/README.md, "A100 80GB
 * with 1600 Gbps node-node interconnect (RoCE)" (8 × 200 Gb/s per node):
 * MPT models (F = 4h, GELU, vocab 50432, tied), bf16, FSDP FULL_SHARD
 * (ZeRO-3), no TP/PP, FlashAttention, full activation checkpointing, as
 * run: 30B s 2048 mb 3 batch 504 on 8 GPUs MFU 55.30 % (HFU 73.74 %); 7B
 * s 4096 mb 16 batch 256 on 8, 54.84 %; 13B s 4096 mb 10 batch 240 on 8,
 * 57.62 %; 70B s 2048 mb 8 batch 2048 on 64, 53.33 %.  Tolerance 10 %.
 * (The same table's un-checkpointed 1B-13B rows at 59.9-64.2 % are still
 * over-predicted by 7-15 %: see mosaicml_mpt_uncheckpointed_gap_is_bounded.)
 * All these tables ran FlashAttention 1 (llm-foundry '.[gpu]' = flash-attn
 * 1.0.9) and MPT's zero dropout: flash_attention_v1, no_dropout. */
static const struct {
    int L, h, a, G, mb, B, s;
    double mfu;
} mpt_a100[] = {
    {48, 7168, 64, 8, 3, 504, 2048, 0.5530},
    {32, 4096, 32, 8, 16, 256, 4096, 0.5484},
    {40, 5120, 40, 8, 10, 240, 4096, 0.5762},
    {80, 8192, 64, 64, 8, 2048, 2048, 0.5333},
};

START_TEST(mosaicml_mpt_a100_checkpointed_mfu_within_10pct)
{
    int i = _i;
    Plan p;
    plan_init(&p);
    p.network.link_bps = 200e9;
    Workload w = training(gpt(mpt_a100[i].L, mpt_a100[i].h, mpt_a100[i].a, 50432), mpt_a100[i].s,
                          mpt_a100[i].B, 1e11);
    w.gpus = mpt_a100[i].G;
    w.micro_batch = mpt_a100[i].mb;
    w.zero = 3;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    w.recompute = RECOMPUTE_FULL;
    w.flash_attention_v1 = true; /* flash-attn 1.0.9 (llm-foundry .[gpu]) */
    w.no_dropout = true;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("A100-80GB"), &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    ck_assert_msg(rel(t->mfu, mpt_a100[i].mfu) < 0.10, "case %d: MFU %.3f vs %.3f", i, t->mfu,
                  mpt_a100[i].mfu);
    free(r);
}
END_TEST

/* The same README's rows WITHOUT activation checkpointing (FSDP FULL_SHARD,
 * 8 GPUs, s 2048, largest micro-batch that fits, as run):
 *   A100-80GB 1B (24 × 2048, 16 heads) mb 14 batch 448 59.86 %; 3B (32 ×
 *   2560, 32 heads) mb 10 batch 160 62.11 %; 7B mb 6 batch 96 64.23 %; 13B
 *   mb 2 batch 48 59.57 %; H100 7B mb 6 batch 48 46.44 %; 13B mb 2 batch 16
 *   39.79 %.
 * NOT calibrated to 10 %: those runs reach only ~0.83 of the hardware
 * FLOP rate (HFU) of the checkpointed runs of the same models on the same
 * GPUs (7B on A100: 64.2 % vs 73.1-77.4 %), which no hardware term explains
 * (the un-checkpointed run does strictly less work with the same kernels and
 * collectives; the likely cause is allocator pressure at the memory limit).
 * The model over-predicts them by up to 21 % (12-28 % before FlashAttention 1
 * and MPT's zero dropout were declared); this guards that gap so that it
 * can only shrink: over-prediction stays below 17 % on A100 and 23 % on
 * H100, and the model falls at most 5 % below the measurement (the H100 7B
 * row is -2 % since the default framework, megatron, took nemo's H100
 * calibration through calibration_from, 2026-12-03; it was above before). */
static const struct {
    const char *acc;
    int L, h, a, mb, B;
    double mfu, over;
} mpt_nockpt[] = {
    {"A100-80GB", 24, 2048, 16, 14, 448, 0.5986, 0.17},
    {"A100-80GB", 32, 2560, 32, 10, 160, 0.6211, 0.17},
    {"A100-80GB", 32, 4096, 32, 6, 96, 0.6423, 0.17},
    {"A100-80GB", 40, 5120, 40, 2, 48, 0.5957, 0.17},
    {"H100-SXM", 32, 4096, 32, 6, 48, 0.4644, 0.23},
    {"H100-SXM", 40, 5120, 40, 2, 16, 0.3979, 0.23},
};

START_TEST(mosaicml_mpt_uncheckpointed_gap_is_bounded)
{
    int i = _i;
    Plan p;
    plan_init(&p);
    if (mpt_nockpt[i].acc[0] == 'A')
        p.network.link_bps = 200e9;
    Workload w = training(gpt(mpt_nockpt[i].L, mpt_nockpt[i].h, mpt_nockpt[i].a, 50432), 2048,
                          mpt_nockpt[i].B, 1e11);
    w.gpus = 8;
    w.micro_batch = mpt_nockpt[i].mb;
    w.zero = 3;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    w.recompute = RECOMPUTE_NONE;
    w.flash_attention_v1 = true; /* flash-attn 1.0.9 (llm-foundry .[gpu]) */
    w.no_dropout = true;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc(mpt_nockpt[i].acc), &r), "%s", r->workloads[0].error);
    double err = r->workloads[0].train.mfu / mpt_nockpt[i].mfu - 1.0;
    ck_assert_msg(err > -0.05 && err < mpt_nockpt[i].over, "case %d: MFU %.3f vs %.3f (%+.1f %%)", i,
                  r->workloads[0].train.mfu, mpt_nockpt[i].mfu, 100 * err);
    free(r);
}
END_TEST

/* Published MPT runs that fit (mosaicml/llm-foundry scripts/train/
 * benchmarking/README.md at 495218376; tests/data/runs/mosaicml-*.yaml):
 *   H100 80GB BF16: MPT-1B (24 x 2048, 16 heads) on 32 GPUs, seq 2048,
 *     micro-batch 20, FSDP FULL_SHARD, no activation checkpointing: 45,130
 *     tokens/s/GPU.  MPT's dropout probabilities are all 0 (MPTConfig
 *     resid_pdrop / emb_pdrop, attn_config attn_pdrop), and PyTorch's
 *     dropout keeps no mask at p = 0, so the layer keeps 32 s·b·h, not
 *     Korthikanti's 34: 72.9 GiB of 75.7 usable; with the masks 76.9.
 *   A100 80GB: MPT-30B (48 x 7168, 56 heads) on 8 GPUs, seq 8192, micro-
 *     batch 1, full activation checkpointing: 574 tokens/s/GPU.  70.9 GiB:
 *     it fits in the A100's 80 GiB (nvidia-smi 81252-81920 MiB), not in
 *     80e9 bytes (70.8 GiB usable).
 *   A100 40GB: MPT-760M (24 x 1536, 12 heads) on 8 GPUs, seq 2048, micro-
 *     batch 12, no activation checkpointing: 30,173 tokens/s/GPU.  35.8 GiB:
 *     it fits in the 42,298,834,944 B deviceQuery reports (37.4 GiB
 *     usable), not in 40e9 B (35.4). */
START_TEST(mpt_runs_fit_without_dropout_masks_in_80_and_40_gib)
{
    const struct { const char *acc; int L, h, a, s, mb, B, G; Recompute rc; } c[3] = {
        {"H100-SXM", 24, 2048, 16, 2048, 20, 640, 32, RECOMPUTE_NONE},
        {"A100-80GB", 48, 7168, 56, 8192, 1, 168, 8, RECOMPUTE_FULL},
        {"A100-40GB", 24, 1536, 12, 2048, 12, 384, 8, RECOMPUTE_NONE}};
    for (int i = 0; i < 3; i++) {
        for (int masks = 0; masks < 2; masks++) {
            Plan p;
            plan_init(&p);
            Workload w = training(gpt(c[i].L, c[i].h, c[i].a, 50368), c[i].s, c[i].B, 1e11);
            w.gpus = c[i].G;
            w.micro_batch = c[i].mb;
            w.zero = 3;
            w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
            w.recompute = c[i].rc;
            w.no_dropout = masks == 0;
            snprintf(w.framework, sizeof w.framework, "fsdp");
            PlanResult *r;
            bool ok = size(&p, &w, acc(c[i].acc), &r);
            if (masks == 0)
                ck_assert_msg(ok, "case %d: %s", i, r->workloads[0].error);
            else if (i == 0) /* the masks alone push the 1B run over */
                ck_assert_msg(!ok, "case 0 fits with dropout masks");
            free(r);
        }
    }
}
END_TEST

/* Long context with FlashAttention 1: MosaicML's MPT-1B (24 x 2048, 16 heads
 * of 128) on 8 GPUs, FSDP, no activation checkpointing, flash-attn 1.0.9
 * (llm-foundry '.[gpu]' at b2a43a147; tests/data/runs/mosaicml-*.yaml),
 * tokens/s/GPU at seq 4,096 (micro-batch 7) and 32,768 (micro-batch 1):
 * H100 38,535 / 12,025 (3.20x), A100-80GB 17,807 / 6,275 (2.84x).  The
 * drop is the attention core: FlashAttention-2 is about twice as fast as
 * FlashAttention 1 (Dao 2023), and on A100 FlashAttention-2 reaches 73 % /
 * 63 % of peak forward / backward (efficiency.yaml attn_*_eff).  Each
 * ratio within 5 %; priced as FlashAttention-2 they are 2.33x / 2.04x. */
START_TEST(flash_attention_v1_long_context_within_5pct)
{
    const struct { const char *acc; double pub; } c[2] = {{"H100-SXM", 38535.0 / 12025.0},
                                                           {"A100-80GB", 17807.0 / 6275.0}};
    const struct { int s, mb, B; } run[2] = {{4096, 7, 224}, {32768, 1, 32}};
    for (int i = 0; i < 2; i++) {
        double tps[2];
        for (int k = 0; k < 2; k++) {
            Plan p;
            plan_init(&p);
            if (c[i].acc[0] == 'A')
                p.network.link_bps = 200e9;
            Workload w = training(gpt(24, 2048, 16, 50368), run[k].s, run[k].B, 1e11);
            w.gpus = 8;
            w.micro_batch = run[k].mb;
            w.zero = 3;
            w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
            w.recompute = RECOMPUTE_NONE;
            w.no_dropout = true;
            w.flash_attention_v1 = true;
            snprintf(w.framework, sizeof w.framework, "fsdp");
            PlanResult *r;
            ck_assert_msg(size(&p, &w, acc(c[i].acc), &r), "%s", r->workloads[0].error);
            tps[k] = r->workloads[0].train.tokens_per_s / 8;
            free(r);
        }
        double ratio = tps[0] / tps[1];
        ck_assert_msg(rel(ratio, c[i].pub) < 0.05, "%s: %.2fx vs %.2fx published", c[i].acc,
                      ratio, c[i].pub);
    }
}
END_TEST

START_TEST(zero3_gathers_cost_more_with_more_micro_batches)
{
    /* ZeRO-3 gathers the weights for every micro-batch's forward and
     * backward and reduce-scatters every micro-batch's gradients, so at a
     * fixed global batch smaller micro-batches cost more DP time, and the
     * hidden part of it still slows compute: MFU falls. */
    double mfu[2], dp[2];
    const int mb[2] = {16, 2};
    for (int i = 0; i < 2; i++) {
        Plan p;
        plan_init(&p);
        p.network.link_bps = 200e9;
        Workload w = training(gpt(40, 5120, 40, 50432), 2048, 256, 1e11);
        w.gpus = 16;
        w.micro_batch = mb[i];
        w.zero = 3;
        w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
        w.recompute = RECOMPUTE_FULL;
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("A100-80GB"), &r), "%s", r->workloads[0].error);
        mfu[i] = r->workloads[0].train.mfu;
        dp[i] = r->workloads[0].train.step.dp_comm;
        free(r);
    }
    ck_assert_msg(dp[1] > 4.0 * dp[0] && dp[0] > 0, "dp %.3f s vs %.3f s", dp[1], dp[0]);
    ck_assert_msg(mfu[1] < mfu[0], "MFU %.3f (mb 2) vs %.3f (mb 16)", mfu[1], mfu[0]);
}
END_TEST

/* An MPT run of llm-foundry's H100 tables: `layers` x `h` (`heads`, vocab
 * 50368, tied), s 2048, `mb` sequences per GPU x `accum`, ZeRO `zero`
 * under `framework`, no dropout, no activation checkpointing, on `gpus`
 * GPUs; callers set what their row adds (FlashAttention 1, prefetch, AC). */
static Workload mpt_workload(int layers, int h, int heads, int mb, int accum, int zero,
                             const char *framework, int gpus)
{
    Workload w = training(gpt(layers, h, heads, 50368), 2048, mb * accum * gpus, 1e11);
    w.model.tied_embeddings = true;
    w.gpus = gpus;
    w.micro_batch = mb;
    w.zero = zero;
    w.no_dropout = true;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    w.recompute = RECOMPUTE_NONE;
    snprintf(w.framework, sizeof w.framework, "%s", framework);
    return w;
}

/* Step seconds of workload w on H100. */
static double h100_step(Workload *w)
{
    Plan p;
    plan_init(&p);
    PlanResult *r;
    ck_assert_msg(size(&p, w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
    double s = r->workloads[0].train.step_s;
    free(r);
    return s;
}

/* The large-scale table's rows: accum 1. */
static double mpt_h100_step(int layers, int h, int heads, int mb, int zero, const char *framework,
                            int gpus)
{
    Workload w = mpt_workload(layers, h, heads, mb, 1, zero, framework, gpus);
    return h100_step(&w);
}

START_TEST(fsdp_unit_collective_latency_grows_with_ranks)
{
    /* mosaicml/llm-foundry scripts/train/benchmarking/README.md, "H100 80GB
     * BF16 (Large Scale, >= 128 GPUs)": MPT-7B (32 x 4096, 32 heads, vocab
     * 50368, tied), s 2048, micro-batch 6 x accum 1, FSDP FULL_SHARD, no
     * activation checkpointing, FlashAttention 2: 10,475 T/s/GPU on 128
     * GPUs, 9,670 on 512, the same work per GPU 1.083x slower.  FSDP
     * gathers and reduce-scatters each MPTBlock (fsdp_wrap_fn) with its own
     * NCCL ring, each paying n - 1 step latencies: the 512-GPU step must
     * be at least 2 % longer (1.001x when the whole model was priced as one
     * collective). */
    double s128 = mpt_h100_step(32, 4096, 32, 6, 3, "fsdp", 128);
    double s512 = mpt_h100_step(32, 4096, 32, 6, 3, "fsdp", 512);
    ck_assert_msg(s512 > 1.02 * s128, "512 / 128 GPUs step %.4f / %.4f s = %.3fx (published 1.083x)",
                  s512, s128, s512 / s128);
}
END_TEST

START_TEST(fsdp_shard_grad_op_unit_latency_grows_with_ranks)
{
    /* The same table, MPT-1B (24 x 2048, 16 heads), s 2048, micro-batch 12
     * x accum 1, FSDP SHARD_GRAD_OP (zero 2), no activation checkpointing:
     * 44,123 T/s/GPU on 128 GPUs, 39,837 on 512 (1.108x the step).  Each
     * block's gather and reduce-scatter is its own ring: the 512-GPU step
     * must be at least 4 % longer (1.016x with one collective per step).
     * DeepSpeed's ZeRO-2 buckets its collectives (framework without
     * unit_collectives): its 512-GPU step pays no per-block ring latency,
     * so it grows less than FSDP's. */
    double f = mpt_h100_step(24, 2048, 16, 12, 2, "fsdp", 512) /
               mpt_h100_step(24, 2048, 16, 12, 2, "fsdp", 128);
    double d = mpt_h100_step(24, 2048, 16, 12, 2, "deepspeed", 512) /
               mpt_h100_step(24, 2048, 16, 12, 2, "deepspeed", 128);
    ck_assert_msg(f > 1.04, "fsdp 512 / 128 GPUs step %.3fx (published 1.108x)", f);
    ck_assert_msg(d < f - 0.02, "deepspeed zero 2 grows %.3fx, fsdp %.3fx", d, f);
}
END_TEST

/* Step seconds of MPT-70B (80 x 8192, 64 heads, vocab 50368, tied) in
 * llm-foundry's "H100 80GB BF16" table: s 2048, `mb` sequences per GPU x
 * `accum`, FSDP FULL_SHARD, activation checkpointing, FlashAttention 1,
 * on `gpus` H100; `post` = Composer's BACKWARD_POST prefetch. */
static double mpt70_h100_step(int gpus, int mb, int accum, bool post)
{
    Workload w = mpt_workload(80, 8192, 64, mb, accum, 3, "fsdp", gpus);
    w.flash_attention_v1 = true;
    w.fsdp_backward_post = post;
    w.recompute = RECOMPUTE_FULL;
    return h100_step(&w);
}

START_TEST(fsdp_backward_post_exposes_the_backward_gathers)
{
    /* mosaicml/llm-foundry scripts/train/benchmarking/README.md, "H100 80GB
     * BF16": MPT-70B, s 2048, FULL_SHARD, AC, micro-batch 2 x accum 16 on
     * 32 GPUs: 882 T/s/GPU; micro-batch 8 x accum 4 on 64 GPUs: 1039
     * T/s/GPU, 1.178x.  Composer prefetches BACKWARD_POST: each block's
     * backward all-gather waits, under no compute, for the previous
     * block's gradients, once per micro-batch, so 16 micro-batches of 2
     * pay 4x the exposed gathers of 4 micro-batches of 8 for the same
     * tokens per GPU.  Without it the model gives about 1.04x; with it the
     * ratio must exceed 1.06x, and the key must cost the small micro-batch
     * at least 3 % of its step. */
    double post = mpt70_h100_step(32, 2, 16, true) / mpt70_h100_step(64, 8, 4, true);
    double pre = mpt70_h100_step(32, 2, 16, false) / mpt70_h100_step(64, 8, 4, false);
    ck_assert_msg(post > 1.06, "T/s/GPU 64 / 32 GPUs %.3fx with BACKWARD_POST (published 1.178x)",
                  post);
    ck_assert_msg(post > pre + 0.02, "BACKWARD_POST %.3fx, prefetched %.3fx", post, pre);
    double s_post = mpt70_h100_step(32, 2, 16, true), s_pre = mpt70_h100_step(32, 2, 16, false);
    ck_assert_msg(s_post > 1.03 * s_pre, "mb 2 step %.2f s vs %.2f s", s_post, s_pre);
}
END_TEST

START_TEST(fsdp_fp32_gradient_reduction_is_priced)
{
    /* llm-foundry "H100 80GB BF16": MPT-13B (40 x 5120, 40 heads), s 2048,
     * micro-batch 2 x accum 1 on 8 GPUs, FULL_SHARD, no AC, MP Mode
     * DEFAULT: 4,792 T/s/GPU, a 0.855 s step.  Composer 0.16's DEFAULT
     * reduces gradients in fp32 (MixedPrecision reduce_dtype float32,
     * composer/trainer/mosaic_fsdp.py get_mixed_precision at v0.16.4):
     * each micro-batch's reduce-scatter moves 4 bytes a parameter, not 2.
     * The step must grow by at least 0.5 % and come closer to the
     * published one (the model is fast on this row). */
    double published = 16.0 * 2048 / (8 * 4792.0);
    double st[2];
    for (int i = 0; i < 2; i++) {
        Workload w = mpt_workload(40, 5120, 40, 2, 1, 3, "fsdp", 8);
        w.flash_attention_v1 = true;
        w.fsdp_backward_post = true;
        w.grad_reduce_fp32 = i == 1;
        st[i] = h100_step(&w);
    }
    ck_assert_msg(st[1] > 1.005 * st[0], "fp32 reduction %.4f s vs bf16 %.4f s", st[1], st[0]);
    ck_assert_msg(fabs(st[1] / published - 1) < fabs(st[0] / published - 1),
                  "published %.3f s: fp32 %.3f s, bf16 %.3f s", published, st[1], st[0]);
}
END_TEST

/* torchtitan reduces gradients in fp32 whatever the plan says (its
 * mixed_precision_reduce's default and only choice "float32"; frameworks.yaml
 * grad_reduce_fp32): a torchtitan workload without the key is priced as
 * with it, and as the fsdp profile with it, slower than fsdp without. */
/* The H100 step of MPT-13B on 8 GPUs (fsdp_fp32_gradient_reduction_is_
 * priced's row) under framework fws[f] with the workload's bool at key_off
 * false (st[f][0]) and true (st[f][1]). */
static void steps_with_key(const char *const fws[2], size_t key_off, double st[2][2])
{
    for (int f = 0; f < 2; f++)
        for (int i = 0; i < 2; i++) {
            Workload w = mpt_workload(40, 5120, 40, 2, 1, 3, fws[f], 8);
            *(bool *)((char *)&w + key_off) = i == 1;
            st[f][i] = h100_step(&w);
        }
}

START_TEST(torchtitan_always_reduces_gradients_in_fp32)
{
    ck_assert_ptr_nonnull(acc("H100-SXM")); /* loads the catalog */
    const Framework *tt = catalog_find_framework(&cat, "torchtitan-compile");
    ck_assert(tt && tt->grad_reduce_fp32);
    double st[2][2];
    static const char *const fws[] = {"fsdp", "torchtitan-compile"};
    steps_with_key(fws, offsetof(Workload, grad_reduce_fp32), st);
    ck_assert_msg(st[0][1] > 1.005 * st[0][0], "fsdp: fp32 %.4f s, bf16 %.4f s", st[0][1],
                  st[0][0]);
    ck_assert_msg(st[1][0] == st[1][1], "torchtitan: without the key %.4f s, with it %.4f s",
                  st[1][0], st[1][1]);
}
END_TEST

/* Eager torchtitan has no compiler, so its loss is always eager PyTorch on
 * fp32 logits (frameworks.yaml eager_loss): without the key it is priced
 * as with it; compiled torchtitan's depends on the key (its loss was left
 * eager before 2025-04). */
START_TEST(eager_torchtitan_always_runs_an_eager_loss)
{
    ck_assert_ptr_nonnull(acc("H100-SXM")); /* loads the catalog */
    const Framework *tt = catalog_find_framework(&cat, "torchtitan");
    ck_assert(tt && tt->eager_loss);
    double st[2][2];
    static const char *const fws[] = {"torchtitan-compile", "torchtitan"};
    steps_with_key(fws, offsetof(Workload, eager_loss), st);
    ck_assert_msg(st[0][1] > st[0][0], "compiled: eager loss %.4f s, fused %.4f s", st[0][1],
                  st[0][0]);
    ck_assert_msg(st[1][0] == st[1][1], "eager torchtitan: without the key %.4f s, with it %.4f s",
                  st[1][0], st[1][1]);
}
END_TEST

START_TEST(llama2_gpu_hours_not_below_60pct_of_published)
{
    /* Touvron et al. 2023 (Llama 2) Table 2: 184,320 / 368,640 /
     * 1,720,320 A100-80GB GPU-hours for 7B / 13B / 70B on 2T tokens, s
     * 4096, 4M-token batches (1024 sequences).  Those are whole production
     * runs on Meta's RSC/cloud clusters with their own inefficiencies, so
     * this is a loose bound: the model (layout searched on 512 / 1024 /
     * 2048 GPUs, 8 × 200 Gb/s per node, after goodput) must land between
     * 60 % and 100 % of them. */
    const struct { int L, h, a, g, F, G; double gh; } c[3] = {
        {32, 4096, 32, 32, 11008, 512, 184320},
        {40, 5120, 40, 40, 13824, 1024, 368640},
        {80, 8192, 64, 8, 28672, 2048, 1720320}};
    for (int i = 0; i < 3; i++) {
        ModelShape m;
        memset(&m, 0, sizeof m);
        m.layers = c[i].L;
        m.hidden = c[i].h;
        m.heads = c[i].a;
        m.kv_heads = c[i].g;
        m.ffn_hidden = c[i].F;
        m.vocab = 32000;
        m.glu = true;
        m.experts = 1;
        m.experts_per_token = 1;
        Plan p;
        plan_init(&p);
        p.network.link_bps = 200e9;
        Workload w = training(m, 4096, 1024, 2e12);
        w.gpus = c[i].G;
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("A100-80GB"), &r), "%s", r->workloads[0].error);
        double gh = r->workloads[0].train.gpu_hours;
        ck_assert_msg(gh >= 0.60 * c[i].gh && gh <= c[i].gh, "case %d: %.0f GPU-h vs %.0f", i,
                      gh, c[i].gh);
        free(r);
    }
}
END_TEST

/* ------------------------------------------------------------ search, sizing */

START_TEST(searched_layout_is_valid_fits_and_beats_fixed_ones)
{
    Plan p;
    plan_init(&p);
    const Accelerator *a = acc("H100-SXM");
    Workload w = training(llama405(), 8192, 2048, 15.6e12);
    w.gpus = 16384;
    PlanResult *r;
    ck_assert(size(&p, &w, a, &r));
    const TrainResult *t = &r->workloads[0].train;
    const Layout *l = &t->layout;
    ck_assert_int_eq(128 % l->tp, 0);
    ck_assert(l->tp <= a->scaleup_domain);
    ck_assert_int_eq(l->tp * l->pp * l->cp * l->ep * l->dp, 16384);
    ck_assert_int_eq(2048 % (l->micro_batch * l->dp * l->ep), 0);
    ck_assert(2048 / (l->micro_batch * l->dp * l->ep) >= l->pp);
    ck_assert(t->fits && t->mem.total <= t->hbm_bytes);
    ck_assert(t->has_runner_up && t->runner_up_step_s >= t->step_s);
    ck_assert(t->layouts_tried > 0 && t->rejected_indivisible > 0);
    double sum = t->step.compute + t->step.tp_comm + t->step.pp_bubble + t->step.dp_comm +
                 t->step.cp_comm + t->step.ep_comm + t->step.other;
    ck_assert(rel(sum, t->step_s) < 1e-9);
    double best = t->step_s;
    free(r);
    const int fixed[][3] = {{8, 16, 1}, {8, 8, 2}, {4, 16, 4}, {8, 16, 2}, {8, 14, 1}, {2, 32, 2}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        Workload f = w;
        f.parallel = (ParallelSpec){.tp = fixed[i][0], .pp = fixed[i][1], .cp = fixed[i][2],
                                    .sp = -1};
        if (size(&p, &f, a, &r))
            ck_assert_msg(r->workloads[0].train.step_s >= best * (1 - 1e-12),
                          "fixed tp%d pp%d cp%d %.3f s beats the search %.3f s", fixed[i][0],
                          fixed[i][1], fixed[i][2], r->workloads[0].train.step_s, best);
        free(r);
    }
}
END_TEST

START_TEST(target_days_sizing_returns_whole_nodes_meeting_target)
{
    Plan p;
    plan_init(&p);
    const Accelerator *a = acc("H100-SXM");
    Workload w = training(llama405(), 8192, 2048, 15.6e12);
    w.target_days = 60;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, a, &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    int G = t->gpus;
    ck_assert(G > 0 && G % a->gpus_per_node == 0);
    ck_assert_msg(t->train_days <= 60, "%.1f days", t->train_days);
    ck_assert(rel(t->gpu_hours, G * t->train_days * 24) < 1e-12);
    free(r);
    /* the same count, given as fixed, reproduces the days */
    w.target_days = 0;
    w.gpus = G;
    ck_assert(size(&p, &w, a, &r));
    ck_assert(r->workloads[0].train.train_days <= 60);
    free(r);
    /* a longer target never needs more GPUs */
    w.gpus = 0;
    w.target_days = 120;
    ck_assert(size(&p, &w, a, &r));
    ck_assert(r->workloads[0].train.gpus <= G);
    free(r);
}
END_TEST

START_TEST(moe_model_sizes_with_expert_parallel_search)
{
    Plan p;
    plan_init(&p);
    Workload w = training(deepseek_v3(), 4096, 15360, 14.8e12);
    w.gpus = 2048;
    w.precision = PREC_FP8;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    ck_assert(t->layout.ep >= 1 && 256 % t->layout.ep == 0);
    ck_assert(t->active_params < 0.1 * t->params);
    ck_assert(t->mfu > 0 && t->mfu < 1);
    free(r);
}
END_TEST

/* ------------------------------------------------------------ hybrid (Mamba-2) stacks */

/* `reps` copies of `unit` as a hybrid pattern */
static void pattern(ModelShape *m, const char *unit, int reps)
{
    m->hybrid[0] = '\0';
    for (int i = 0; i < reps; i++)
        strncat(m->hybrid, unit, sizeof m->hybrid - strlen(m->hybrid) - 1);
    m->layers = (int)strlen(m->hybrid);
}

/* Nemotron 3 Nano's Mamba-2 mixer, attention and widths without its
 * experts, as `reps` copies of `unit` */
static ModelShape nano_dense(const char *unit, int reps)
{
    ModelShape m = preset_find("nemotron-3-nano")->shape;
    m.experts = 1;
    m.experts_per_token = 1;
    m.shared_experts = 0;
    pattern(&m, unit, reps);
    return m;
}

/* A hybrid pattern of attention and MLP (or MoE) blocks is the plain
 * transformer cut into its two blocks a layer: the same parameters, FLOPs,
 * activations (but under full recompute, which keeps every layer's input)
 * and TP and EP traffic. */
START_TEST(hybrid_pattern_of_plain_blocks_is_the_plain_transformer)
{
    const char *presets[] = {"llama-3-8b", "mixtral-8x7b"};
    const char *units[] = {"*-", "*E"};
    for (int k = 0; k < 2; k++) {
        const ModelShape plain = preset_find(presets[k])->shape;
        ModelShape hy = plain;
        pattern(&hy, units[k], plain.layers);
        double t0, a0, t1, a1;
        train_params(&plain, &t0, &a0);
        train_params(&hy, &t1, &a1);
        ck_assert_msg(rel(t1, t0) < 1e-12 && rel(a1, a0) < 1e-12, "%s params %g vs %g",
                      presets[k], t1, t0);
        ck_assert(rel(train_model_flops(&hy, 8, 4096), train_model_flops(&plain, 8, 4096)) <
                  1e-12);
        for (int r = RECOMPUTE_NONE; r <= RECOMPUTE_FULL; r++)
            for (int sp = 0; sp < 2; sp++) {
                double p = plain.layers * train_activation_bytes(&plain, 4096, 2, 2, 1, sp,
                                                                 (Recompute)r, true);
                double h = hy.layers * train_activation_bytes(&hy, 4096, 2, 2, 1, sp,
                                                              (Recompute)r, true);
                /* full recompute keeps each layer's input: a block's, twice as many */
                double want = r == RECOMPUTE_FULL ? 2.0 * p : p;
                ck_assert_msg(rel(h, want) < 1e-9, "%s recompute %d sp %d: %g vs %g",
                              presets[k], r, sp, h, want);
            }
        ParallelSpec ps = {.tp = 2, .pp = 1, .cp = 1, .ep = k ? 8 : 1, .sp = 1};
        Workload wp = pinned(presets[k], 4096, 16, 64, 1, PREC_BF16, ps);
        Workload wh = wp;
        wh.model = hy;
        TrainResult a = sized(wp, "H100-SXM"), b = sized(wh, "H100-SXM");
        ck_assert_msg(rel(b.step.tp_comm, a.step.tp_comm) < 1e-9, "%s TP %g vs %g",
                      presets[k], b.step.tp_comm, a.step.tp_comm);
        ck_assert(rel(b.step.ep_comm + 1e-30, a.step.ep_comm + 1e-30) < 1e-9);
        ck_assert(rel(b.mem.weights, a.mem.weights) < 1e-9);
    }
}
END_TEST

/* A Mamba-2 layer's weights and FLOPs from its projections (Megatron-Core
 * MambaMixer), Nemotron 3 Nano's mixer: hidden 2688, 64 heads x 64, state
 * 128, 8 groups, conv 4, chunk 128. */
START_TEST(mamba_layer_params_and_flops_from_its_projections)
{
    ModelShape m = nano_dense("M", 4);
    double h = 2688, V = 131072, L = 4;
    /* in_proj 2688 x (2*4096 + 2*8*128 + 64) = 2688 x 10304; out_proj 4096 x 2688 */
    double gemm = 2688.0 * 10304 + 4096.0 * 2688;
    ck_assert(gemm == 38707200.0);
    /* conv1d over 6144 channels, width 4, with bias; A, D, dt bias per
     * head; the gated norm over 4096; the block's norm */
    double small = 6144.0 * 5 + 3 * 64 + 4096 + h;
    double total, active;
    train_params(&m, &total, &active);
    ck_assert_msg(rel(total, L * (gemm + small) + 2 * V * h + h) < 1e-12, "params %g", total);
    /* SSD per token: C.B^T causal 8*128*128/2*2, (L o CB^T).X causal
     * 64*128*64/2*2, B^T.X and C.h 2 x 2*64*128*64 */
    double ssd = 131072.0 + 524288.0 + 2097152.0;
    double tok = 4.0 * 8192;
    double want = 6 * tok * L * gemm + 3 * tok * L * ssd + 6 * tok * h * V;
    ck_assert_msg(rel(train_model_flops(&m, 4, 8192), want) < 1e-12, "flops %g vs %g",
                  train_model_flops(&m, 4, 8192), want);
}
END_TEST

/* The model card's totals: "31.6B total parameters, ... approximately 3.2B
 * active (3.6B including embeddings)" (nvidia/NVIDIA-Nemotron-3-Nano-30B-
 * A3B-BF16). */
START_TEST(nemotron_3_nano_total_and_active_params)
{
    double total, active;
    train_params(&preset_find("nemotron-3-nano")->shape, &total, &active);
    ck_assert_msg(rel(total, 31.6e9) < 0.005, "total %g", total);
    ck_assert_msg(rel(active, 3.6e9) < 0.02, "active %g", active);
}
END_TEST

/* Nemotron 3 Super: "12B active parameters and 120B parameters in total"
 * (Megatron-Bridge docs/models/nemotron/nemotron3-super.md); its model
 * verification card counts 123,611,033,088 elements in the BF16 checkpoint,
 * which also holds the one (repeated) MTP layer — attention 35.7 M, 512
 * latent experts 2.82 B, the shared expert 44 M, router, latent and 2h -> h
 * projections, norms: 2.94 B — so 120.67 B for the model itself. */
START_TEST(nemotron_3_super_total_and_active_params)
{
    double total, active;
    train_params(&preset_find("nemotron-3-super")->shape, &total, &active);
    ck_assert_msg(rel(total, 123.611e9 - 2.94e9) < 0.002, "total %g", total);
    ck_assert_msg(active > 12e9 && active < 13e9, "active %g", active);
}
END_TEST

/* Its FLOPs a token against the published Model TFLOP/s over tokens/s
 * (Megatron-Bridge 26.08 table: GB300 831 / 9856, GB200 600 / 7040 = 84.3
 * and 85.2 GFLOP): within 4 % (the model counts the SSD scan and both
 * MTP depths); without the two MTP depths 12 % fewer. */
START_TEST(nemotron_3_super_flops_match_the_published_rate)
{
    ModelShape m = preset_find("nemotron-3-super")->shape;
    double f = train_model_flops(&m, 1, 8192) / 8192;
    ck_assert_msg(f > 84.3e9 && f < 85.2e9 * 1.04, "%.4g FLOP a token", f);
    m.mtp_layers = 0;
    double f0 = train_model_flops(&m, 1, 8192) / 8192;
    ck_assert_msg(f0 < 0.9 * f, "without MTP %.4g", f0);
}
END_TEST

/* LatentMoE (Megatron-Core moe_latent_size): the routed experts' GEMMs, and
 * the dispatch and combine, work at the latent width; the two projections
 * h <-> latent are added per MoE layer.  Super as published (latent 1024)
 * against the same model with its experts at h = 4096: FLOPs a token lower
 * by exactly 6 x (40 MoE layers + 2 MTP blocks) x (22 x 2 x 3072 x 2688 -
 * 2 x 4096 x 1024), and the all-to-all time on 64 GB300 (EP 64, full
 * recompute) about a quarter. */
START_TEST(latent_moe_runs_its_experts_and_all_to_alls_at_the_latent_width)
{
    ModelShape m = preset_find("nemotron-3-super")->shape;
    ModelShape full = m;
    full.moe_latent = 0;
    double d = (train_model_flops(&full, 1, 8192) - train_model_flops(&m, 1, 8192)) / 8192;
    double want = 6.0 * 42 * (22.0 * 2 * 3072 * 2688 - 2.0 * 4096 * 1024);
    ck_assert_msg(rel(d, want) < 1e-9, "%.6g vs %.6g", d, want);
    ParallelSpec ps = {.tp = 1, .pp = 1, .cp = 1, .ep = 64, .sp = 0};
    Workload w = pinned("nemotron-3-super", 8192, 64, 512, 1, PREC_FP8, ps);
    w.recompute = RECOMPUTE_FULL; /* h-wide experts do not fit otherwise */
    double lat = sized(w, "GB300").step.ep_comm;
    w.model.moe_latent = 0;
    double wide = sized(w, "GB300").step.ep_comm;
    ck_assert_msg(lat > 0 && lat / wide > 0.2 && lat / wide < 0.3, "EP %.4f s vs %.4f s", lat,
                  wide);
}
END_TEST

/* A hybrid pattern's MTP modules are an attention + MoE block pair (Super's
 * mtp_hybrid_override_pattern "*E"): they lengthen the step on the last
 * stage and hold their weights there. */
START_TEST(hybrid_mtp_blocks_cost_time_and_last_stage_memory)
{
    ParallelSpec ps = {.tp = 1, .pp = 1, .cp = 1, .ep = 64, .sp = 0};
    Workload w = pinned("nemotron-3-super", 8192, 64, 512, 1, PREC_FP8, ps);
    TrainResult with = sized(w, "GB300");
    w.model.mtp_layers = 0;
    TrainResult without = sized(w, "GB300");
    ck_assert_msg(with.step_s > 1.05 * without.step_s, "%.4f s vs %.4f s", with.step_s,
                  without.step_s);
    ck_assert_msg(with.mem.weights > without.mem.weights, "%g vs %g", with.mem.weights,
                  without.mem.weights);
    /* and the plan says what it priced */
    Plan pl;
    plan_init(&pl);
    w.model.mtp_layers = 2;
    PlanResult *r;
    ck_assert_msg(size(&pl, &w, acc("GB300"), &r), "%s", r->workloads[0].error);
    ck_assert(has_assumption(r, "2 multi-token prediction modules on the last pipeline stage: "
                                "each an attention + MoE block pair"));
    ck_assert(has_assumption(r, "LatentMoE: the routed experts, their token permutation and "
                                "all-to-alls at 1024 of 4096 wide (moe_latent); the two "
                                "projections (8.4 M weights a MoE layer)"));
    free(r);
}
END_TEST

/* Megatron-Core's MambaMixer splits heads and B/C groups over the tensor
 * ranks (ngroups % tp == 0): Nano's 8 groups allow tp <= 8, and a
 * searched layout never goes past that. */
START_TEST(mamba_tp_divides_its_heads_and_groups)
{
    Plan pl;
    plan_init(&pl);
    ParallelSpec ps = {.tp = 16, .pp = 1, .cp = 1, .ep = 8, .sp = 1};
    Workload w = pinned("nemotron-3-nano", 8192, 64, 512, 1, PREC_BF16, ps);
    PlanResult *r;
    ck_assert(!size(&pl, &w, acc("GB200"), &r));
    ck_assert_msg(strstr(r->workloads[0].error, "Mamba-2"), "%s", r->workloads[0].error);
    free(r);
    w.parallel = (ParallelSpec){.sp = -1};
    int tp = sized(w, "GB200").layout.tp;
    ck_assert_msg(tp >= 1 && 8 % tp == 0, "tp %d", tp);
}
END_TEST

/* Context parallelism on Mamba-2 layers: two all-to-alls a layer and pass
 * (megatron/core/ssm/mamba_context_parallel.py), so a model without
 * attention still pays CP traffic, growing with the Mamba-2 width. */
START_TEST(mamba_context_parallel_pays_its_all_to_alls)
{
    ModelShape m = nano_dense("M-", 8);
    double cp[2];
    for (int i = 0; i < 2; i++) {
        Workload w = training(m, 16384, 64, 1e12);
        w.gpus = 16;
        w.micro_batch = 1;
        w.recompute = RECOMPUTE_NONE;
        w.zero = 1;
        w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 2, .ep = 1, .sp = 0};
        if (i)
            w.model.mamba_heads = 128;
        cp[i] = sized(w, "H100-SXM").step.cp_comm;
    }
    ck_assert_msg(cp[0] > 0 && cp[1] > 1.5 * cp[0], "cp %g then %g", cp[0], cp[1]);
}
END_TEST

/* A hybrid plan says how its Mamba-2 layers were priced, and where the
 * SSD rate is not measured on the part. */
START_TEST(mamba_pricing_is_stated_with_the_plan)
{
    Plan pl;
    plan_init(&pl);
    ParallelSpec ps = {.tp = 1, .pp = 1, .cp = 1, .ep = 8, .sp = 0};
    Workload w = pinned("nemotron-3-nano", 8192, 8, 512, 2, PREC_FP8, ps);
    PlanResult *r;
    ck_assert_msg(size(&pl, &w, acc("GB200"), &r), "%s", r->workloads[0].error);
    ck_assert(has_assumption(r, "23 Mamba-2 layers: the SSD scan at 0.015 of the BF16 peak "
                                "(catalog ssd_eff)"));
    free(r);
    ck_assert_msg(size(&pl, &w, acc("MI300X"), &r), "%s", r->workloads[0].error);
    ck_assert(has_assumption(r, "not measured on this part"));
    free(r);
}
END_TEST

START_TEST(fixed_mfu_replaces_modelled_efficiency)
{
    Plan p;
    plan_init(&p);
    const Accelerator *a = acc("H100-SXM");
    Workload w = training(llama405(), 8192, 2048, 15.6e12);
    w.gpus = 16384;
    w.mfu = 0.40;
    PlanResult *r;
    ck_assert(size(&p, &w, a, &r));
    const TrainResult *t = &r->workloads[0].train;
    ck_assert(rel(t->mfu, 0.40) < 1e-12);
    ck_assert(rel(t->step_s, t->flops_per_step / (16384 * a->peak_flops[PREC_BF16] * 0.40)) <
              1e-12);
    ck_assert(has_assumption(r, "MFU fixed"));
    free(r);
}
END_TEST

START_TEST(reports_assumptions_beside_the_numbers)
{
    Plan p;
    plan_init(&p);
    Workload w = training(llama405(), 8192, 2048, 15.6e12);
    w.gpus = 16384;
    PlanResult *r;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    const char *want[] = {"GEMM efficiency", "element-wise", "CUDA context", "NVLink", "MTBF",
                          "re-read factor"};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        ck_assert_msg(has_assumption(r, want[k]), "no assumption mentions '%s'", want[k]);
    const TrainResult *t = &r->workloads[0].train;
    ck_assert(rel(t->dataset_read_Bps, t->tokens_per_s * 2 * (t->layout.pp > 1 ? 2 : 1)) < 1e-12);
    free(r);
}
END_TEST

/* ------------------------------------------------------------ errors */

/* Qwen3-235B-A22B (Qwen/Qwen3-235B-A22B config.json): 94 layers, 128
 * experts of 1536, top-8, 64 query / 4 KV heads of 128. */
static ModelShape qwen3_235b(void)
{
    ModelShape m;
    memset(&m, 0, sizeof m);
    m.layers = 94;
    m.hidden = 4096;
    m.ffn_hidden = 12288;
    m.heads = 64;
    m.kv_heads = 4;
    m.head_dim = 128;
    m.vocab = 151936;
    m.glu = true;
    m.experts = 128;
    m.experts_per_token = 8;
    m.expert_ffn_hidden = 1536;
    return m;
}

/* Qwen3-30B-A3B (Qwen/Qwen3-30B-A3B config.json): 48 layers, 128 experts
 * of 768, top-8, 32 query / 4 KV heads of 128. */
static ModelShape qwen3_30b(void)
{
    ModelShape m = qwen3_235b();
    m.layers = 48;
    m.hidden = 2048;
    m.ffn_hidden = 6144;
    m.heads = 32;
    m.expert_ffn_hidden = 768;
    return m;
}

/* The exposed EP all-to-all time of one layout with and without the
 * recipe's EP overlap (ep_overlap 1 over 0). */
static double ep_overlap_ratio(ModelShape m, int gpus, int batch, ParallelSpec ps)
{
    double ep[2];
    for (int k = 0; k < 2; k++) {
        Plan p;
        plan_init(&p);
        Workload w = training(m, 4096, batch, 1e12);
        w.gpus = gpus;
        w.micro_batch = 1;
        w.precision = PREC_FP8;
        w.parallel = ps;
        w.ep_overlap = k;
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
        ep[k] = r->workloads[0].train.step.ep_comm;
        free(r);
    }
    ck_assert(ep[0] > 0);
    return ep[1] / ep[0];
}

START_TEST(ep_overlap_leaves_the_unpaired_micro_batches_exposed)
{
    /* Megatron-Core's combined 1F1B (core_v0.15.0 pipeline_parallel/
     * combined_1f1b.py): without pipelining, "the forward step for the first
     * microbatch is executed alone, no a2a overlapping", and so is the last
     * one's backward; every other forward runs with another micro-batch's
     * backward.  Of m micro-batches the hidden share of the all-to-alls is
     * (m − 1)/m: with one micro-batch the overlap hides nothing, and the
     * exposed share falls as 1/m (S + (1 − S)/m, S the slowdown the hidden
     * part still costs).  Interleaved (schedules.py), the first stage's
     * 2(p − 1) + (v − 1)·p warm-up virtual micro-batches, plus one, run
     * alone: TP2 PP8 VP4 EP32 (the Qwen3-235B H100 recipe), 39 of 4m. */
    ParallelSpec pp1 = {.tp = 1, .pp = 1, .cp = 1, .ep = 16, .sp = -1, .etp = 1};
    double r1 = ep_overlap_ratio(qwen3_30b(), 16, 16, pp1);
    double r8 = ep_overlap_ratio(qwen3_30b(), 16, 128, pp1);
    double r16 = ep_overlap_ratio(qwen3_30b(), 16, 256, pp1);
    ck_assert_msg(fabs(r1 - 1.0) < 1e-9, "one micro-batch: %.4f of the all-to-alls exposed", r1);
    double hid = 16.0 * (r8 - r16); /* 1 − S */
    ck_assert_msg(hid > 0.5 && hid < 1.0, "hidden share per paired micro-batch %.3f", hid);
    ck_assert_msg(fabs(r8 - (1.0 - hid * 7.0 / 8.0)) < 1e-6, "8 micro-batches: %.4f", r8);
    ParallelSpec il = {.tp = 2, .pp = 8, .vpp = 4, .cp = 1, .ep = 32, .sp = -1, .etp = 1};
    double ri = ep_overlap_ratio(qwen3_235b(), 256, 2048, il); /* m = 2048 / 16 = 128 */
    ck_assert_msg(fabs(ri - (1.0 - hid * (1.0 - 39.0 / 512.0))) < 1e-6,
                  "TP2 PP8 VP4, 128 micro-batches: %.4f vs %.4f", ri,
                  1.0 - hid * (1.0 - 39.0 / 512.0));
}
END_TEST

START_TEST(folded_experts_allow_tp2_pp8_ep32_on_256_gpus)
{
    /* Megatron-Bridge 25.11 Qwen3_235B_a22B on 256 H100: TP2 PP8 VP4 EP32
     * (expert TP 1): EP drawn from TP x DP.  Unfolded, tp x pp x ep = 512
     * GPUs cannot be laid out on 256. */
    Plan p;
    plan_init(&p);
    Workload w = training(qwen3_235b(), 4096, 2048, 1e12);
    w.gpus = 256;
    w.micro_batch = 1;
    w.precision = PREC_FP8;
    w.parallel = (ParallelSpec){.tp = 2, .pp = 8, .vpp = 4, .cp = 1, .ep = 32, .sp = -1, .etp = 1};
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
    const Layout *l = &r->workloads[0].train.layout;
    ck_assert_int_eq(l->tp, 2);
    ck_assert_int_eq(l->pp, 8);
    ck_assert_int_eq(l->ep, 32);
    ck_assert_int_eq(l->etp, 1);
    ck_assert_int_eq(l->dp, 16); /* 256 / (2 x 8) */
    free(r);
    w.parallel.etp = 0;
    ck_assert(!size(&p, &w, acc("H100-SXM"), &r));
    free(r);
}
END_TEST

/* The DP sync of a tp-strided training layout on `gpus` GB200, all of it
 * exposed, in the real NVL72 (*nvl) and with the node cut to a 4-GPU
 * NVLink domain (*tray: groups leave a tray through its own NICs only). */
static void dp_sync_nvl72_vs_tray(ModelShape m, int seq, int gbs, int gpus, int tp, double *nvl,
                                  double *tray_s)
{
    Plan p;
    plan_init(&p);
    Workload w = training(m, seq, gbs, 1e12);
    w.gpus = gpus;
    w.micro_batch = 1;
    w.parallel = (ParallelSpec){.tp = tp, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 1};
    w.zero = 1;
    w.dp_sync_after_backward = true; /* all of the sync exposed */
    PlanResult *r;
    ck_assert(size(&p, &w, acc("GB200"), &r));
    *nvl = r->workloads[0].train.step.dp_comm;
    free(r);
    Accelerator tray = *acc("GB200");
    tray.scaleup_domain = tray.gpus_per_node;
    ck_assert(size(&p, &w, &tray, &r));
    *tray_s = r->workloads[0].train.step.dp_comm;
    free(r);
}

/* A part with a sustained clock below its quoted one (catalog
 * sustained_clock_frac: MI350X) computes slower, but its MFU is still
 * against the quoted peak, as every published MFU is: the same run on the
 * part without the factor takes less time and shows a higher MFU, and
 * both MFUs are FLOPs / (step × GPUs × quoted peak). */
START_TEST(mfu_is_against_the_quoted_peak_under_a_sustained_clock)
{
    const Accelerator *mi = acc("MI350X");
    ck_assert(mi->sustained_clock_frac > 0 && mi->sustained_clock_frac < 1);
    Accelerator quoted = *mi;
    quoted.sustained_clock_frac = 0;
    Plan p;
    plan_init(&p);
    Workload w = training(gpt(32, 4096, 32, 128256), 8192, 64, 1e12);
    w.gpus = 8;
    w.micro_batch = 1;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
    double step[2], mfu[2];
    const Accelerator *parts[2] = {mi, &quoted};
    for (int k = 0; k < 2; k++) {
        PlanResult *r;
        ck_assert_msg(size(&p, &w, parts[k], &r), "%s", r->workloads[0].error);
        const TrainResult *t = &r->workloads[0].train;
        step[k] = t->step_s;
        mfu[k] = t->mfu;
        ck_assert_msg(rel(t->mfu, t->flops_per_step / (t->step_s * 8 * mi->peak_flops[PREC_BF16])) <
                          1e-9,
                      "MFU %.4f", t->mfu);
        free(r);
    }
    ck_assert_msg(step[0] > step[1] && mfu[0] < mfu[1], "steps %.3f / %.3f s, MFU %.3f / %.3f",
                  step[0], step[1], mfu[0], mfu[1]);
}
END_TEST

START_TEST(nvl72_keeps_strided_groups_on_nvlink)
{
    /* GB200 NVL72: a DP group of stride 4 (tp 4) spanning 64 GPUs lies in
     * one 72-GPU NVLink domain; the same node cut to a 4-GPU domain sends
     * it over the 400G NICs (issue 11: env_link sent every stride >= 4
     * group to the scale-out fabric). */
    double nvl, ib;
    dp_sync_nvl72_vs_tray(gpt(48, 6144, 48, 51200), 4096, 64, 64, 4, &nvl, &ib);
    ck_assert_msg(nvl > 0 && nvl * 3 < ib, "DP sync %.3f s in NVL72 vs %.3f s over IB", nvl, ib);
}
END_TEST

START_TEST(nvl72_dp_ring_across_domains_uses_every_members_nic)
{
    /* A DP group of 128 ranks at stride 2 (tp 2) on 256 GB200 spans four
     * NVL72 domains.  NCCL's ring leaves each domain through the NICs of
     * all its members (36 here), not of one 4-GPU tray's 2 (NVIDIA/nccl#1801:
     * busbw 196.7 / 393.7 GB/s with 4 / 8 GPUs per NVL partition), so the
     * sync runs at the NVLink rate, several times faster than at two NICs
     * (the same tray with a 4-GPU domain). */
    double nvl, ib;
    dp_sync_nvl72_vs_tray(gpt(32, 4096, 32, 128256), 8192, 128, 256, 2, &nvl, &ib);
    ck_assert_msg(nvl > 0 && nvl * 3 < ib, "DP sync %.3f s across NVL72 domains vs %.3f s at 2 NICs",
                  nvl, ib);
}
END_TEST

START_TEST(sliding_window_cuts_the_attention_core_exactly)
{
    /* gpt-oss: 128-token bands on 18 of 36 layers.  Only the core term of
     * the FLOPs changes: 3·B·s²·L·2a(dqk+dv) × (18/36)(1 − 2·128/s). */
    const ModelPreset *pr = preset_find("gpt-oss-120b");
    ck_assert_ptr_nonnull(pr);
    ModelShape full = pr->shape, win = pr->shape;
    full.window = 0;
    win.window = 128;
    win.window_layers = 18;
    double s = 8192, B = 4;
    double got = train_model_flops(&full, B, s) - train_model_flops(&win, B, s);
    double core = 3.0 * B * s * s * 36 * 2.0 * 64 * (64 + 64);
    double want = core * (18.0 / 36.0) * (1.0 - 2.0 * 128 / s);
    ck_assert_msg(rel(got, want) < 1e-9, "%.6g vs %.6g", got, want);
    /* a window as long as the sequence changes nothing */
    win.window = 8192;
    ck_assert(train_model_flops(&win, B, s) == train_model_flops(&full, B, s));
}
END_TEST

/* The shipped calibration (validation-fit.yaml, calibrate --label) says
 * whose runs it was fitted on in all three of its forms: a profile's own
 * row, a row borrowed through calibration_from, a row of the same silicon;
 * and, since refit.sh cross-validates, what it is worth on runs its fit did
 * not see.  A user's own calibration (no label) is "of your runs"
 * (tests/cli.sh). */
START_TEST(shipped_calibration_names_its_runs)
{
    const char *pub = "published runs, the fit half of gpuplan's validation set";
    static const struct {
        const char *fw, *acc, *line;
    } cases[] = {
        {"nemo", "H100-SXM", "% (nemo@H100-SXM)"},
        {"megatron", "H100-SXM",
         "calibrated as nemo@H100-SXM, the profile megatron@H100-SXM takes its calibration "
         "from (calibration_from): "},
        {"nemo", "MI350X", "calibrated on MI355X, the same silicon (nemo@MI355X): "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Workload w = training(preset_find("llama-3-8b")->shape, 8192, 64, 1e12);
        w.gpus = 8;
        snprintf(w.framework, sizeof w.framework, "%s", cases[i].fw);
        Plan pl;
        plan_init(&pl);
        PlanResult *r;
        ck_assert_msg(size(&pl, &w, acc(cases[i].acc), &r), "%s", r->workloads[0].error);
        ck_assert_msg(has_assumption(r, cases[i].line) && has_assumption(r, pub) &&
                          has_assumption(r, "%, cross-validated "),
                      "%s on %s: no '%s' / '%s' / cross-validated", cases[i].fw, cases[i].acc,
                      cases[i].line, pub);
        ck_assert(!has_assumption(r, "of your runs"));
        free(r);
    }
}
END_TEST

/* The gpt-oss preset carries its configs' window (128 tokens on 18 of 36
 * layers): a plan naming only the preset trains faster at long sequences
 * than the same plan with `window: 0`, and says what it priced; a window
 * no shorter than the sequence is not mentioned. */
START_TEST(preset_window_is_priced_and_said)
{
    ParallelSpec ps = {.tp = 2, .pp = 2, .cp = 2, .ep = 16, .sp = 1};
    Workload w = pinned("gpt-oss-120b", 32768, 128, 64, 1, PREC_FP8, ps);
    w.parallel.etp = 1;
    w.recompute = RECOMPUTE_AUTO;
    TrainResult win = sized(w, "H100-SXM");
    Workload full = w;
    full.model.window = 0;
    TrainResult all = sized(full, "H100-SXM");
    ck_assert_msg(win.step_s < 0.85 * all.step_s, "%.3f s vs %.3f s", win.step_s, all.step_s);
    Plan pl;
    plan_init(&pl);
    PlanResult *r;
    ck_assert_msg(size(&pl, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
    ck_assert(has_assumption(r, "sliding-window attention: a 128-token window on 18 of 36 "
                                "attention layers (model window)"));
    free(r);
    w.seq_len = 128;
    w.global_batch = 1024;
    ck_assert(size(&pl, &w, acc("H100-SXM"), &r));
    ck_assert(!has_assumption(r, "sliding-window attention"));
    free(r);
}
END_TEST

/* Wave quantisation (NVIDIA "Matrix Multiplication Background User's
 * Guide" §3.2): on A100's 108 SMs a 1792 x 1792 output in 256x128 tiles is
 * 7 x 14 = 98 tiles, one wave at 98/108 of the SMs.  A 1920 x 1920 output
 * is just over a wave in every tile shape: 8 x 15 = 120 tiles of 256x128
 * (two waves, 120/216), 15 x 15 = 225 of 128x128 (three, 225/324, the
 * best), so ~7 % more rows per side cost 1.6x the time, not 1.23x.  H100
 * SXM's 132 SMs fit the same 98 tiles in 98/132 of one wave.  A square GEMM
 * has the same grid for forward, dgrad and wgrad. */
START_TEST(gemm_waves_follow_the_sm_count)
{
    const Accelerator *a100 = acc("A100-80GB"), *h100 = acc("H100-SXM");
    ck_assert_int_eq(a100->sms, 108);
    ck_assert_int_eq(h100->sms, 132);
    double q0 = train_gemm_wave(a100->sms, 1792, 1792, 1792);
    double q1 = train_gemm_wave(a100->sms, 1920, 1920, 1920);
    ck_assert_msg(rel(q0, 98.0 / 108) < 1e-12, "%g", q0);
    ck_assert_msg(rel(q1, 225.0 / 324) < 1e-12, "%g", q1);
    double ratio = pow(1920.0 / 1792, 3) * q0 / q1;
    ck_assert_msg(ratio > 1.55 && ratio < 1.65, "%g", ratio);
    ck_assert_msg(rel(train_gemm_wave(h100->sms, 1792, 1792, 1792), 98.0 / 132) < 1e-12, "H100");
    /* a tall GEMM: forward 16384 x 1792 is 896 tiles of 256x128 (8.3
     * waves, 0.92) or 128 x 14 = 1,792 of 128x128 (16.6 waves, 0.976, the
     * best), dgrad the same, wgrad 1792 x 1792 the 98 of one partial wave:
     * the harmonic mean of their efficiencies */
    double qf = 1792.0 / 108 / 17, qw = 98.0 / 108;
    double want = 3.0 / (2.0 / qf + 1.0 / qw);
    ck_assert_msg(rel(train_gemm_wave(a100->sms, 16384, 1792, 1792), want) < 1e-12, "tall");
    /* no SM count in the catalog: no wave term */
    ck_assert(train_gemm_wave(0, 1920, 1920, 1920) == 1.0);
    /* A rank's 16 local experts (Qwen3-30B-A3B at EP 8: fc1 N = 2 x 768,
     * K = 2048) with 128 tokens each.  Alone, one expert's forward grid is
     * 12 tiles of 128x128 on H100's 132 SMs, its dgrad 16, its wgrad 192
     * (1.45 waves); grouped, the 16 grids' 192, 256 and 3,072 tiles fill
     * 2, 2 and 24 waves. */
    double one = 3.0 / (132.0 / 12 + 132.0 / 16 + 264.0 / 192);
    ck_assert(rel(train_gemm_wave(h100->sms, 128, 1536, 2048), one) < 1e-12);
    ck_assert(train_gemm_wave_grouped(h100->sms, 128, 1536, 2048, 1) ==
              train_gemm_wave(h100->sms, 128, 1536, 2048));
    double grouped = 3.0 / (264.0 / 192 + 264.0 / 256 + 3168.0 / 3072);
    ck_assert_msg(rel(train_gemm_wave_grouped(h100->sms, 128, 1536, 2048, 16), grouped) < 1e-12,
                  "%g", train_gemm_wave_grouped(h100->sms, 128, 1536, 2048, 16));
    /* counts past the integer tiles (hostile shapes) and no groups: no term */
    ck_assert(train_gemm_wave_grouped(h100->sms, 1e9, 1e9, 1e9, 1000000) == 1.0);
    ck_assert(train_gemm_wave_grouped(h100->sms, 4e8, 1e6, 1e6, 100000000L) == 1.0);
    ck_assert(train_gemm_wave_grouped(h100->sms, 128, 1536, 2048, 0) == 1.0);
}
END_TEST

/* Each GEMM of a layer is looked up on the efficiency curve by its own
 * narrowest side, not the layer's h/t.  TP8, h = 8192, 2048 tokens: the
 * MLP GEMMs of an F = 4h model (fc1 N = F/t = 4096, fc2 K = 4096) sit at
 * x = 2048 (the tokens), those of an F = h model at x = F/t = 1024; the
 * compute difference is exactly m·L·3 passes of those four GEMMs plus the
 * activation function's bytes (GELU: read and write F/t per token). */
START_TEST(each_gemm_is_timed_at_its_own_narrowest_side)
{
    const Accelerator *a = acc("H100-SXM");
    double c[2];
    const double h = 8192, t = 8, T = 2048, L = 4, m = 8, F[2] = {4 * 8192.0, 8192.0};
    for (int k = 0; k < 2; k++) {
        ModelShape ms = gpt((int)L, (int)h, 64, 32000);
        ms.ffn_hidden = (int)F[k];
        Workload w = training(ms, (int)T, (int)m, 1e12);
        w.gpus = 8;
        w.micro_batch = 1;
        w.recompute = RECOMPUTE_NONE;
        w.parallel = (ParallelSpec){.tp = 8, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 1};
        WorkloadResult r = size_under_on(plain_megatron(), fw_plain, &w, a);
        ck_assert_msg(r.ok, "%s", r.error);
        c[k] = r.train.step.compute;
    }
    double pk = a->peak_flops[PREC_BF16];
    /* each GEMM also at its wave-quantisation efficiency (fc1 and fc2 have
     * the same three output grids) */
    double g0 = 2 * (2 * T * (F[0] / t) * h) /
                (pk * curve_eval(&a->gemm_eff, 2048) * train_gemm_wave(a->sms, T, F[0] / t, h));
    double g1 = 2 * (2 * T * (F[1] / t) * h) /
                (pk * curve_eval(&a->gemm_eff, 1024) * train_gemm_wave(a->sms, T, F[1] / t, h));
    double ew = 2 * T * 2 * (F[0] - F[1]) / t / (a->hbm_bw * a->elementwise_eff);
    double want = m * L * 3 * (g0 - g1 + ew);
    ck_assert_msg(rel(c[0] - c[1], want) < 1e-9, "%.6g vs %.6g s", c[0] - c[1], want);
}
END_TEST

/* The routed experts' two GEMMs are looked up on the curve by their own
 * narrowest sides too: with a gated MLP the grouped fc1 computes gate and
 * up projections as one GEMM N = 2·Fe wide (Megatron-Core TEGroupedMLP:
 * linear_fc1 of width 2·Fe when gated_linear_unit), fc2 has K = Fe.
 * Published: DeepGEMM's grouped contiguous GEMMs on H800 at DeepSeek-V3's
 * expert shapes, 4 groups of 8192 rows: fc1 N 4096 K 7168 at 1346 TFLOP/s,
 * fc2 N 7168 K 2048 at 1214 (deepseek-ai/DeepGEMM README at 55ab91f,
 * 2025-03-25): fc1 runs 1.109x fc2's rate, where one lookup at Fe for
 * both gave 1.000x.  One H800, two MoE layers of 4 experts (h 7168, top-1,
 * 32,768 tokens per micro-batch: 8192 per expert, the table's row), 2
 * micro-batches, BF16: the compute difference between Fe 2048 and 1024 is
 * exactly m·L·3 passes of the expert GEMMs at those sides (and the waves of
 * the 4 experts' grids together) plus the SwiGLU bytes (read 2Fe, write Fe
 * per routed token). */
static double expert_gemm_s(const Accelerator *a, double T, double h, double Fe, double tok_e)
{
    double pk = a->peak_flops[PREC_BF16], f = 2.0 * T * 3.0 * h * Fe;
    double x1 = fmin(fmin(2.0 * Fe, h), tok_e), x2 = fmin(fmin(Fe, h), tok_e);
    double n = T / tok_e; /* experts, one grouped GEMM (train_gemm_wave_grouped) */
    return f * 2.0 / 3.0 /
               (pk * curve_eval(&a->gemm_eff, x1) *
                train_gemm_wave_grouped(a->sms, tok_e, 2.0 * Fe, h, (long)n)) +
           f / 3.0 /
               (pk * curve_eval(&a->gemm_eff, x2) *
                train_gemm_wave_grouped(a->sms, tok_e, h, Fe, (long)n));
}

START_TEST(expert_fc1_is_timed_at_its_gated_width)
{
    const Accelerator *a = acc("H800");
    Plan p;
    plan_init(&p);
    const double h = 7168, T = 32768, L = 2, m = 2, Fe[2] = {2048, 1024};
    double c[2];
    for (int k = 0; k < 2; k++) {
        ModelShape ms = gpt((int)L, (int)h, 56, 32000);
        ms.glu = true;
        ms.experts = 4;
        ms.experts_per_token = 1;
        ms.expert_ffn_hidden = (int)Fe[k];
        Workload w = training(ms, 8192, (int)(4 * m), 1e12);
        w.gpus = 1;
        w.micro_batch = 4;
        w.recompute = RECOMPUTE_NONE;
        w.flash_attention = true;
        w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
        PlanResult *r;
        ck_assert_msg(size(&p, &w, a, &r), "%s", r->workloads[0].error);
        c[k] = r->workloads[0].train.step.compute;
        free(r);
    }
    double tok_e = T / 4;
    double g = expert_gemm_s(a, T, h, Fe[0], tok_e) - expert_gemm_s(a, T, h, Fe[1], tok_e);
    double ew = 2.0 * T * 3.0 * (Fe[0] - Fe[1]) / (a->hbm_bw * a->elementwise_eff);
    double want = m * L * 3 * (g + ew);
    ck_assert_msg(rel(c[0] - c[1], want) < 1e-9, "%.6g vs %.6g s", c[0] - c[1], want);
    /* DeepSeek-V3's shapes (the first run): fc1 at x 4096, fc2 at 2048 */
    double ratio = curve_eval(&a->gemm_eff, 4096) / curve_eval(&a->gemm_eff, 2048);
    ck_assert_msg(ratio > 1.02 && ratio <= 1346.0 / 1214.0, "fc1 / fc2 rate %.3fx, published 1.109x",
                  ratio);
}
END_TEST

/* compute seconds of 4 flash-attention layers (h 4096, `heads` heads,
 * 8192-token micro-batches, 2 per step, no recompute) on one GPU `a` */
static double attn_layers_compute(const Accelerator *a, int heads)
{
    Workload w = training(gpt(4, 4096, heads, 32000), 8192, 2, 1e12);
    w.gpus = 1;
    w.micro_batch = 1;
    w.flash_attention = true;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
    WorkloadResult r = size_under_on(plain_megatron(), fw_plain, &w, a);
    ck_assert_msg(r.ok, "%s", r.error);
    return r.train.step.compute;
}

/* Time of a fused attention core (FlashAttention's count: the causal half
 * of the full-count forward FLOPs f forward, 2.5x that backward) at
 * forward / backward rates in FLOP/s. */
static double fused_core_s(double f, double fwd_flops, double bwd_flops)
{
    return 0.5 * f / fwd_flops + 2.5 * 0.5 * f / bwd_flops;
}

/* Where the catalog measures the part's fused attention kernels (B200:
 * attn_fwd_eff, attn_bwd_eff from FlashAttention-4 benchmarks), a
 * FlashAttention core is priced on the causal half of the s x s count at
 * those efficiencies, the backward's FLOPs 2.5x the forward's; without
 * them, on the full count at the GEMM curve for min(h/t, T), three passes.
 * One B200, 4 layers, h 4096, 32 heads of 128, 8192 tokens per
 * micro-batch: the compute difference of the two is exactly that. */
START_TEST(fused_attention_core_uses_the_catalog_kernel_efficiencies)
{
    const Accelerator *b200 = acc("B200");
    ck_assert(b200->attn_fwd_eff > 0 && b200->attn_bwd_eff > 0);
    Accelerator none = *b200;
    none.attn_fwd_eff = 0;
    none.attn_bwd_eff = 0;
    const double L = 4, h = 4096, a = 32, s = 8192, m = 2;
    double c[2] = {attn_layers_compute(b200, (int)a), attn_layers_compute(&none, (int)a)};
    double pk = b200->peak_flops[PREC_BF16];
    double f = s * s * 2 * a * (128 + 128); /* full-count core FLOPs, one layer, forward */
    double curve = 3 * f / (pk * curve_eval(&b200->gemm_eff, h));
    double fused = fused_core_s(f, pk * b200->attn_fwd_eff, pk * b200->attn_bwd_eff);
    double want = m * L * (curve - fused);
    ck_assert_msg(rel(c[1] - c[0], want) < 1e-9, "%.6g vs %.6g s", c[1] - c[0], want);
    ck_assert(c[0] < c[1]);
}
END_TEST

/* The fused attention forward's share of the peak depends on the Q/K head
 * dim (catalog attn_fwd_head_dim; B200: 0.640 at 64 of the head-dim-128
 * rate, FlashAttention-4 benchmarks): at head dim 64 the forward core costs
 * 1/0.640 of what attn_fwd_eff alone gives, the backward is unchanged, and
 * at head dim 128 nothing changes.  One B200, 4 layers, h 4096, 8192 tokens
 * per micro-batch, 64 heads of 64 vs 32 heads of 128. */
START_TEST(fused_attention_forward_scales_with_head_dim)
{
    const Accelerator *b200 = acc("B200");
    ck_assert(b200->attn_fwd_head_dim.n > 0);
    double k64 = curve_eval(&b200->attn_fwd_head_dim, 64);
    ck_assert(k64 > 0 && k64 < 1);
    ck_assert(curve_eval(&b200->attn_fwd_head_dim, 128) == 1.0);
    Accelerator flat = *b200;
    flat.attn_fwd_head_dim.n = 0;
    const double L = 4, h = 4096, s = 8192, m = 2;
    for (int heads = 32; heads <= 64; heads += 32) {
        double c[2] = {attn_layers_compute(b200, heads), attn_layers_compute(&flat, heads)};
        double pk = b200->peak_flops[PREC_BF16];
        double d = h / heads;
        double f = s * s * 2 * heads * (d + d); /* full-count core FLOPs, one layer, forward */
        double fwd = 0.5 * f / (pk * b200->attn_fwd_eff);
        /* one forward core per layer and micro-batch (no recompute) */
        double want = heads == 64 ? m * L * fwd * (1.0 / k64 - 1.0) : 0.0;
        ck_assert_msg(fabs((c[0] - c[1]) - want) <= 1e-9 * c[1], "heads %d: %.6g vs %.6g s", heads,
                      c[0] - c[1], want);
    }
}
END_TEST

/* Blackwell Ultra's fused attention (GB300, B300) runs at the B200 / GB200
 * shares times what cuDNN measured GB300 faster than GB200 at the same
 * BF16 peak, the same cuDNN (9.22), the same day and shapes
 * (NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/results/
 * llama3.1/gb300 and /gb200, 2026-04-24: Llama 3.1 heads, head dim 128,
 * causal, 8192 tokens: forward 1856 vs 1574, backward 1435 vs 1332 TFLOP/s),
 * and the step prices the core at those rates: 4 layers of 32 heads of 128
 * at 8192 tokens on a GB300 against the same part at GB200's shares. */
START_TEST(blackwell_ultra_attention_is_cudnns_measured_ratio_faster)
{
    const Accelerator *gb200 = acc("GB200"), *gb300 = acc("GB300"), *b300 = acc("B300");
    ck_assert(gb300->peak_flops[PREC_BF16] == gb200->peak_flops[PREC_BF16]);
    ck_assert_msg(rel(gb300->attn_fwd_eff / gb200->attn_fwd_eff, 1856.0 / 1574.0) < 2e-3,
                  "forward %.4f", gb300->attn_fwd_eff / gb200->attn_fwd_eff);
    ck_assert_msg(rel(gb300->attn_bwd_eff / gb200->attn_bwd_eff, 1435.0 / 1332.0) < 2e-3,
                  "backward %.4f", gb300->attn_bwd_eff / gb200->attn_bwd_eff);
    ck_assert(b300->attn_fwd_eff == gb300->attn_fwd_eff && b300->attn_bwd_eff == gb300->attn_bwd_eff);
    Accelerator slow = *gb300;
    slow.attn_fwd_eff = gb200->attn_fwd_eff;
    slow.attn_bwd_eff = gb200->attn_bwd_eff;
    const double L = 4, a = 32, s = 8192, m = 2;
    double pk = gb300->peak_flops[PREC_BF16];
    double f = s * s * 2 * a * (128 + 128); /* full-count core FLOPs, one layer, forward */
    double want = m * L *
                  (fused_core_s(f, pk * slow.attn_fwd_eff, pk * slow.attn_bwd_eff) -
                   fused_core_s(f, pk * gb300->attn_fwd_eff, pk * gb300->attn_bwd_eff));
    double got = attn_layers_compute(&slow, (int)a) - attn_layers_compute(gb300, (int)a);
    ck_assert_msg(rel(got, want) < 1e-9, "%.6g vs %.6g s", got, want);
}
END_TEST

/* With interleaved stages a chunk's gradients are final after the last
 * group of p micro-batches has run its backward, chunk by chunk, so the
 * data-parallel reduce-scatter (and the next step's all-gather) hide under
 * about p·(v−1)/v micro-batches of the stage's backward (forward), not
 * just the last one.  Nemotron-4 340B TP8 PP4 on 128 B200 (NeMo's recipe:
 * VP12, GBS 32, DP 4 over InfiniBand): the exposed DP time with VP12 is
 * well under that of the same layout without interleaving. */
START_TEST(interleaving_widens_the_dp_overlap_window)
{
    ModelShape m = gpt(96, 18432, 96, 256000);
    m.kv_heads = 8;
    m.ffn_hidden = 73728;
    m.tied_embeddings = false;
    Plan p;
    plan_init(&p);
    double dp[2];
    for (int k = 0; k < 2; k++) {
        Workload w = training(m, 4096, 32, 1e12);
        w.gpus = 128;
        w.micro_batch = 1;
        w.precision = PREC_FP8;
        w.recompute = RECOMPUTE_NONE;
        snprintf(w.framework, sizeof w.framework, "nemo");
        w.parallel = (ParallelSpec){.tp = 8, .pp = 4, .vpp = k ? 1 : 12, .cp = 1, .ep = 1, .sp = 1};
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("B200"), &r), "%s", r->workloads[0].error);
        dp[k] = r->workloads[0].train.step.dp_comm;
        free(r);
    }
    ck_assert_msg(dp[0] > 0 && dp[0] < 0.6 * dp[1], "DP exposed %.3f s (VP12) vs %.3f s (no VP)",
                  dp[0], dp[1]);
}
END_TEST

/* Interleaved, Megatron-Core dispatches the DP sync per model chunk
 * (grad_sync_func after the chunk's last micro-batch backward, param_sync_func
 * for chunks 0 and 1 at the step's start; schedules.py, align_grad_reduce,
 * align_param_gather), not bucket by bucket, and chunk 0 is last to finish
 * its backward and first to run its forward: its whole reduce-scatter
 * follows the backward and its whole all-gather precedes the first
 * forward.  MLPerf Training v3.1 GPT-3 175B layout on 10,240 H100 (NVIDIA
 * config_DGXH100_1280x8x8x4x8_mbs1.sh: TP4 PP8, VP 12 from custom.yaml,
 * MBS 1, GBS 2560, DP 320 over 400 Gb/s NICs, two DP ranks per node): with
 * VP 3 chunk 0 holds 4 layers instead of 1, so 3 more layers' bf16
 * gradients and weights (3 × 12·h²/4 parameters each) are synchronised
 * outside the overlap windows; the rest of the DP sync hides in both.  A
 * model that exposed only the first bucket (the embedding, 157 M
 * parameters, both times) shows no difference. */
START_TEST(interleaved_dp_sync_of_chunk_0_is_exposed)
{
    const ModelPreset *pr = preset_find("gpt-3-175b");
    ck_assert_ptr_nonnull(pr);
    Plan p;
    plan_init(&p);
    p.network.link_bps = 400e9;
    double dp[2];
    const int vp[2] = {12, 3};
    for (int k = 0; k < 2; k++) {
        Workload w = training(pr->shape, 2048, 2560, 1e12);
        w.gpus = 10240;
        w.micro_batch = 1;
        w.precision = PREC_FP8;
        w.recompute = RECOMPUTE_SELECTIVE;
        w.zero = 1;
        snprintf(w.framework, sizeof w.framework, "nemo");
        w.parallel = (ParallelSpec){.tp = 4, .pp = 8, .vpp = vp[k], .cp = 1, .ep = 1, .sp = 1};
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
        dp[k] = r->workloads[0].train.step.dp_comm;
        free(r);
    }
    double h = pr->shape.hidden, layer = (12.0 * h * h + 13.0 * h) / 4;
    double bw = 2 * 400e9 / 8 * 0.94; /* two ranks' NICs per node (NCCL rings) */
    double rs3 = (320 - 1.0) / 320 * 2.0 * 3 * layer / bw; /* = the all-gather's */
    ck_assert_msg(dp[1] - dp[0] > 0.5 * 2 * rs3,
                  "DP exposed %.4f s (VP3) vs %.4f s (VP12); 3 layers' RS + AG %.4f s", dp[1], dp[0],
                  2 * rs3);
}
END_TEST

/* GPT-3 175B ties its output head to the input embedding (Brown et al.
 * 2020; vocabulary 50257, h 12288).  With pipeline stages the first stage
 * holds the embedding and the last the head, and after the DP gradient
 * sync the two all-reduce the tied weight's gradient (Megatron-Core
 * finalize_model_grads.py _allreduce_word_embedding_grads; NeMo 1
 * allreduce_first_last_embeddings) before the optimizer can step: one
 * exposed all-reduce of V/t × h 16-bit gradients between two ranks on
 * different nodes, over one 400 Gb/s NIC each (× 0.94 NCCL efficiency).
 * The MLPerf v3.1 layout (TP4 PP8 VP12, 10,240 H100): the same model
 * untied has the same stage weights and DP traffic, so the exposed DP time
 * differs by that all-reduce alone, 6.6 ms (× the calibrated step_scale);
 * without it, by nothing. */
START_TEST(tied_embedding_gradients_are_all_reduced_between_first_and_last_stage)
{
    const ModelPreset *pr = preset_find("gpt-3-175b");
    ck_assert_ptr_nonnull(pr);
    ck_assert(pr->shape.tied_embeddings);
    Plan p;
    plan_init(&p);
    p.network.link_bps = 400e9;
    double dp[2];
    for (int k = 0; k < 2; k++) {
        ModelShape m = pr->shape;
        m.tied_embeddings = k == 0;
        Workload w = training(m, 2048, 2560, 1e12);
        w.gpus = 10240;
        w.micro_batch = 1;
        w.precision = PREC_FP8;
        w.recompute = RECOMPUTE_SELECTIVE;
        w.zero = 1;
        snprintf(w.framework, sizeof w.framework, "megatron");
        w.parallel = (ParallelSpec){.tp = 4, .pp = 8, .vpp = 12, .cp = 1, .ep = 1, .sp = 1};
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
        dp[k] = r->workloads[0].train.step.dp_comm;
        free(r);
    }
    double bytes = 2.0 * 50257 * 12288 / 4;
    /* two ranks: (n-1)/n x 2 = 1; × the step_scale megatron takes from
     * nemo's H100 calibration (calibration_from), which scales the step's
     * every part */
    const Framework *f = catalog_framework_for(&cat, "megatron", "H100-SXM");
    ck_assert_ptr_nonnull(f);
    double want = (bytes / (400e9 / 8 * 0.94) + 2 * 8e-6) * (f->step_scale > 0 ? f->step_scale : 1.0);
    ck_assert_msg(fabs((dp[0] - dp[1]) - want) < 0.02 * want,
                  "tied - untied exposed DP %.5f s, all-reduce of the tied gradient %.5f s",
                  dp[0] - dp[1], want);
}
END_TEST

/* Without interleaving, Megatron-Core's overlap_grad_reduce can hide the
 * gradient reduce-scatter only under the last micro-batch's backward, and
 * overlap_param_gather the parameter all-gather only under the next step's
 * first forward.  Full recomputation lengthens the backward (the forward
 * runs again inside it) but not the forward, so on a fabric where the
 * reduce-scatter already hides and the all-gather does not, recomputing
 * must leave the exposed DP time as it is: a model that let the all-gather
 * use the backward window would expose less with recompute.  Llama 3 8B,
 * one micro-batch on 64 H100 (the Cisco MLPerf v5.1 layout), 50 Gb/s
 * per GPU. */
START_TEST(dp_all_gather_hides_under_the_forward_not_the_backward)
{
    const ModelPreset *pr = preset_find("llama-3-8b");
    ck_assert_ptr_nonnull(pr);
    Plan p;
    plan_init(&p);
    p.network.link_bps = 50e9;
    double dp[2], comp[2], raw = 0;
    for (int k = 0; k < 3; k++) {
        Workload w = training(pr->shape, 8192, 64, 1e12);
        w.gpus = 64;
        w.micro_batch = 1;
        w.recompute = k == 1 ? RECOMPUTE_FULL : RECOMPUTE_SELECTIVE;
        w.dp_sync_after_backward = k == 2;
        w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
        if (k < 2) {
            dp[k] = r->workloads[0].train.step.dp_comm;
            comp[k] = r->workloads[0].train.step.compute;
        } else {
            raw = r->workloads[0].train.step.dp_comm;
        }
        free(r);
    }
    /* the regime: the traffic exceeds the forward, not the backward */
    ck_assert_msg(raw > 0.5 * comp[0] && raw < comp[0], "DP %.3f s vs compute %.3f s", raw, comp[0]);
    ck_assert_msg(comp[1] > 1.15 * comp[0], "recompute %.3f vs %.3f s", comp[1], comp[0]);
    ck_assert_msg(dp[0] > 0.2 * raw, "exposed %.3f of %.3f s", dp[0], raw);
    ck_assert_msg(fabs(dp[1] - dp[0]) < 0.02 * dp[0], "DP %.4f s (full recompute) vs %.4f s", dp[1],
                  dp[0]);
}
END_TEST

/* Megatron cpu_offloading_num_layers (Megatron-Bridge's GB200 Llama 3 70B
 * FSDP recipe offloads 40 layers): k offloaded layers leave HBM except a
 * two-layer copy buffer, exactly (k − 2) layers' activations less; over
 * GB200's NVLink-C2C the copies hide under the other layers' compute, over
 * a 1 GB/s link they do not. */
START_TEST(activation_offload_frees_hbm_and_hides_under_compute_on_c2c)
{
    const ModelPreset *pr = preset_find("llama-3-70b");
    ck_assert_ptr_nonnull(pr);
    Plan p;
    plan_init(&p);
    Workload w = training(pr->shape, 8192, 256, 1e12);
    w.gpus = 64;
    w.micro_batch = 2;
    w.zero = 3;
    w.precision = PREC_FP8;
    w.recompute = RECOMPUTE_SELECTIVE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
    Accelerator big = *acc("GB200");
    big.hbm_bytes = 4e12; /* both variants fit */
    PlanResult *r;
    ck_assert(size(&p, &w, &big, &r));
    TrainResult t0 = r->workloads[0].train;
    free(r);
    w.offload_layers = 40;
    ck_assert(size(&p, &w, &big, &r));
    TrainResult t1 = r->workloads[0].train;
    free(r);
    double act = train_activation_bytes(&w.model, 8192, 2, 1, 1, false, RECOMPUTE_SELECTIVE,
                                        w.flash_attention);
    ck_assert_msg(rel(t0.mem.activations - t1.mem.activations, 38.0 * act) < 1e-9,
                  "freed %.4g B, want %.4g", t0.mem.activations - t1.mem.activations, 38.0 * act);
    ck_assert_msg(rel(t1.step_s, t0.step_s) < 1e-12, "C2C: %.4f vs %.4f s", t1.step_s, t0.step_s);
    big.host_bw = 1e9;
    ck_assert(size(&p, &w, &big, &r));
    ck_assert_msg(r->workloads[0].train.step_s > t0.step_s + 1.0, "1 GB/s: %.3f vs %.3f s",
                  r->workloads[0].train.step_s, t0.step_s);
    free(r);
}
END_TEST

/* Recompute on some layers only (torchtitan's layer-wise selective AC,
 * every 2nd block checkpointed; Megatron --recompute-method block
 * --recompute-num-layers): with 16 of Llama 3 8B's 32 layers recomputing,
 * the compute is the mean of no recompute and full recompute, and the
 * activations are 16 layers' worth of the full-recompute input only plus
 * 16 layers of everything. */
START_TEST(recompute_layers_recompute_that_many_layers_per_stage)
{
    const ModelPreset *pr = preset_find("llama-3-8b");
    ck_assert_ptr_nonnull(pr);
    Plan p;
    plan_init(&p);
    Workload w = training(pr->shape, 8192, 64, 1e12);
    w.gpus = 64;
    w.micro_batch = 1;
    w.zero = 3;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
    const Recompute rc[3] = {RECOMPUTE_NONE, RECOMPUTE_FULL, RECOMPUTE_FULL};
    const int rl[3] = {0, 0, 16};
    TrainResult t[3];
    for (int i = 0; i < 3; i++) {
        w.recompute = rc[i];
        w.recompute_layers = rl[i];
        PlanResult *r;
        ck_assert(size(&p, &w, acc("A100-80GB"), &r));
        t[i] = r->workloads[0].train;
        free(r);
    }
    ck_assert_msg(t[1].step.compute > 1.2 * t[0].step.compute, "full %.3f vs none %.3f s",
                  t[1].step.compute, t[0].step.compute);
    ck_assert_msg(rel(t[2].step.compute, 0.5 * (t[0].step.compute + t[1].step.compute)) < 1e-9,
                  "half %.4f s, none %.4f, full %.4f", t[2].step.compute, t[0].step.compute,
                  t[1].step.compute);
    double a_none = train_activation_bytes(&w.model, 8192, 1, 1, 1, false, RECOMPUTE_NONE,
                                           w.flash_attention);
    double a_full = train_activation_bytes(&w.model, 8192, 1, 1, 1, false, RECOMPUTE_FULL,
                                           w.flash_attention);
    double want = 16.0 * (a_none - a_full);
    ck_assert_msg(rel(t[2].mem.activations - t[1].mem.activations, want) < 1e-9,
                  "kept %.4g B more, want %.4g", t[2].mem.activations - t[1].mem.activations, want);
}
END_TEST

/* A power-limited part (catalog sustained_clock_frac: MI350X at 1 kW holds
 * ~0.91 of the clock its peaks are quoted at) runs its GEMMs and attention
 * that much slower; HBM-bound element-wise work is unchanged, so the
 * compute time grows by less than 1/frac but by most of it. */
START_TEST(sustained_clock_frac_slows_tensor_work)
{
    const Accelerator *mi350 = acc("MI350X");
    ck_assert_ptr_nonnull(mi350);
    ck_assert(mi350->sustained_clock_frac > 0.8 && mi350->sustained_clock_frac < 1);
    const ModelPreset *pr = preset_find("llama-3-8b");
    ck_assert_ptr_nonnull(pr);
    Plan p;
    plan_init(&p);
    Workload w = training(pr->shape, 8192, 32, 1e12);
    w.gpus = 8;
    w.micro_batch = 2;
    w.precision = PREC_FP8;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
    Accelerator a = *mi350;
    double c[2];
    for (int i = 0; i < 2; i++) {
        a.sustained_clock_frac = i == 0 ? 0.0 : 0.5;
        PlanResult *r;
        ck_assert(size(&p, &w, &a, &r));
        c[i] = r->workloads[0].train.step.compute;
        free(r);
    }
    ck_assert_msg(c[1] > 1.6 * c[0] && c[1] < 2.0 * c[0], "half clock: %.4f s vs %.4f s", c[1],
                  c[0]);
}
END_TEST

/* MI325X and MI300X quote the same CDNA3 peaks, but at 1,000 W the MI325X
 * holds a higher clock under dense GEMMs: AMD's max-achievable FLOPs are
 * 843 vs 708 TFLOP/s BF16 (1447 vs 1207 MHz; ROCm blog "Measuring
 * Max-Achievable FLOPs - Part 2", Table 1).  AMD's PyTorch training
 * container tables give Llama 3.1 8B BF16, batch 3, seq 8192, FSDP on 8
 * GPUs at 643.01 (MI325X) and 542.94 (MI300X) TFLOPS/s/GPU, 1.184x.  The
 * modelled compute of that step (a framework with no calibrated profile
 * for either part) is faster on the MI325X by that ratio within 5 %; with
 * the MI300X's curve on both it would be ~1.0x. */
START_TEST(mi325x_computes_faster_than_mi300x_at_its_sustained_gemm_clock)
{
    const ModelPreset *pr = preset_find("llama-3-8b");
    ck_assert_ptr_nonnull(pr);
    Plan p;
    plan_init(&p);
    Workload w = training(pr->shape, 8192, 192, 1e12);
    snprintf(w.framework, sizeof w.framework, "megatron");
    w.gpus = 8;
    w.micro_batch = 3;
    w.zero = 3;
    w.precision = PREC_BF16;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
    const char *ids[2] = {"MI300X", "MI325X"};
    double c[2];
    for (int i = 0; i < 2; i++) {
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc(ids[i]), &r), "%s: %s", ids[i], r->workloads[0].error);
        c[i] = r->workloads[0].train.step.compute;
        free(r);
    }
    double published = 643.01 / 542.94;
    ck_assert_msg(rel(c[0] / c[1], published) < 0.05, "MI300X / MI325X compute %.3fx, published %.3fx",
                  c[0] / c[1], published);
}
END_TEST

static void fw_fp8_saved_off(Framework *f) { f->fp8_saved_inputs = false; }
static void fw_fp8_saved_on(Framework *f) { f->fp8_saved_inputs = true; }

/* Megatron-LM's profile as the mechanism tests below build on: its base
 * row with nothing borrowed from nemo (calibration_from: MoE host costs)
 * and none of Megatron-Core's later kernel flags (cuDNN attention, FP8 TP
 * gathers, the eager clamp / bias / YaRN passes); each test turns on what
 * it tests, and size_under_on runs it in place of any "megatron@<part>"
 * row. */
static const Framework *plain_megatron(void)
{
    static Framework f;
    load_catalog();
    const Framework *m = catalog_find_framework(&cat, "megatron");
    ck_assert_ptr_nonnull(m);
    f = *m;
    f.calibration_from[0] = '\0';
    f.moe_layer_overhead_s = f.moe_expert_overhead_s = f.moe_attn_launch_s = 0;
    f.moe_graph_residual = 0;
    f.cudnn_attention = f.fp8_tp_gather = false;
    f.unfused_glu_clamp = f.unfused_expert_bias = f.unfused_yarn_rope = false;
    return &f;
}

/* Sizing of w on accelerator a under the framework profile base changed by
 * `change`: its result (with the error when train_size rejects it). */
static WorkloadResult size_under_on(const Framework *base, void (*change)(Framework *),
                                    Workload *w, const Accelerator *a)
{
    ck_assert_ptr_nonnull(base);
    Framework f = *base;
    change(&f);
    Catalog tmp;
    ck_assert(calib_catalog_with(&cat, &f, &tmp));
    /* the changed profile is what this part runs, not a "<id>@<part>" row
     * the catalog has for it (a calibration, or one derived through
     * calibration_from) */
    const Framework *on = catalog_framework_for(&tmp, f.id, a->id);
    if (on && strcasecmp(on->id, f.id) != 0) {
        Framework *row = &tmp.frameworks[on - tmp.frameworks];
        char id[CAT_ID_LEN];
        memcpy(id, row->id, sizeof id);
        *row = f;
        memcpy(row->id, id, sizeof id);
    }
    Plan p;
    plan_init(&p);
    PlanResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    if (!train_size(&p, w, a, &tmp, &r->workloads[0], r))
        r->workloads[0].ok = false;
    WorkloadResult out = r->workloads[0];
    free(r);
    calib_catalog_free(&tmp);
    return out;
}

/* the same on the catalog's part named a */
static WorkloadResult size_under(const Framework *base, void (*change)(Framework *), Workload *w,
                                 const char *a)
{
    return size_under_on(base, change, w, acc(a));
}

/* Transformer Engine runs cuDNN's fused attention on Hopper (framework
 * cudnn_attention), which the FlashAttention-3 paper measures on H100 SXM5
 * at head dim 128, 8K tokens: 529 TFLOP/s causal forward, 518 backward,
 * where FlashAttention-2 (the rate the GEMM curve gives this core) reaches
 * 333 / 318.  Megatron profile on one H100, 4 layers, h 4096, 32 heads of 128,
 * 8192 tokens per micro-batch: the compute the cuDNN pricing saves is the
 * curve's three full-count passes less the causal half at the published
 * cuDNN rates (backward FLOPs 2.5x the forward's); a recipe pinned to
 * FlashAttention-2 (flash_attention_2) and 64-wide heads keep the curve. */
static void fw_attn_plain(Framework *f)
{
    f->gemm_scale = 1.0;
    f->step_scale = 1.0;
    f->cudnn_attention = false;
}
static void fw_attn_cudnn(Framework *f)
{
    fw_attn_plain(f);
    f->cudnn_attention = true;
}
START_TEST(te_attention_runs_cudnn_at_its_published_h100_rates)
{
    load_catalog();
    const Accelerator *h100 = acc("H100-SXM");
    ck_assert(h100->attn_cudnn_fwd_eff > 0 && h100->attn_cudnn_bwd_eff > 0);
    const Framework *meg = plain_megatron();
    const double L = 4, h = 4096, s = 8192, m = 2;
    for (int heads = 32; heads <= 64; heads += 32) {
        for (int pinned = 0; pinned <= 1; pinned++) {
            Workload w = training(gpt((int)L, (int)h, heads, 32000), (int)s, 2, 1e12);
            w.gpus = 1;
            w.micro_batch = 1;
            w.flash_attention = true;
            w.flash_attention_2 = pinned;
            w.recompute = RECOMPUTE_NONE;
            w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
            WorkloadResult off = size_under(meg, fw_attn_plain, &w, "H100-SXM");
            WorkloadResult on = size_under(meg, fw_attn_cudnn, &w, "H100-SXM");
            ck_assert_msg(off.ok && on.ok, "%s %s", off.error, on.error);
            double saved = off.train.step.compute - on.train.step.compute;
            double want = 0;
            if (heads == 32 && !pinned) {
                /* without cuDNN the core runs FlashAttention-2 at its
                 * measured H100 shares (efficiency.yaml attn_fa2_*: 333 /
                 * 318 TFLOP/s causal at 8K); at 8K both kernels sit at
                 * their measured sequence (factor 1) */
                double pk = h100->peak_flops[PREC_BF16];
                double f = s * s * 2 * heads * (128 + 128); /* full count, one layer, forward */
                ck_assert(fabs(h100->attn_fa2_fwd_eff * pk - 333e12) < 1e12 &&
                          fabs(h100->attn_fa2_bwd_eff * pk - 318e12) < 1e12);
                double fa2 = fused_core_s(f, pk * h100->attn_fa2_fwd_eff,
                                          pk * h100->attn_fa2_bwd_eff);
                double cudnn = fused_core_s(f, 529e12, 518e12);
                want = m * L * (fa2 - cudnn);
                ck_assert(want > 0);
            }
            ck_assert_msg(fabs(saved - want) <= 2e-3 * (want > 0 ? want : off.train.step.compute),
                          "heads %d pinned %d: saved %.6g s, want %.6g s", heads, pinned, saved,
                          want);
        }
    }
}
END_TEST

/* A fused attention kernel's thread block pays a fixed cost of about c
 * iterations of its 128-key loop (catalog.c accelerator_attn_seq_factor).
 * The source sweep: FlashAttention-3 and Triton's FlashAttention-2 forward
 * on H100, 16 heads of 128, batch x sequence 16K, at 512 ... 16,384 keys
 * (pytorch/benchmark PR #2391): n / (n + 1.9) scaled from the 16K point
 * meets all twelve within 1.6 %.  B200's catalog row reproduces FA4's
 * causal 4096 / 8192 ratio, 1381 / 1418 (flash-attention PRs #2605,
 * #2280), and the factor is 1 at the row's attn_eff_seq. */
START_TEST(fused_attention_block_cost_matches_published_sweeps)
{
    static const double keys[6] = {512, 1024, 2048, 4096, 8192, 16384};
    static const double fa3[6] = {430.32, 517.099, 565.544, 590.233, 614.234, 620.73};
    static const double tri[6] = {328.882, 389.723, 433.721, 458.359, 470.732, 476.753};
    Accelerator a = {0};
    a.attn_cta_blocks = 1.9;
    a.attn_eff_seq = 2.0 * 16384; /* causal at 32K = blocks looping over 16K keys */
    for (int i = 0; i < 6; i++) {
        double k = accelerator_attn_seq_factor(&a, keys[i]);
        ck_assert_msg(rel(k * fa3[5], fa3[i]) < 0.016, "FA3 at %g: %g", keys[i], k * fa3[5]);
        ck_assert_msg(rel(k * tri[5], tri[i]) < 0.016, "Triton at %g: %g", keys[i], k * tri[5]);
    }
    const Accelerator *b200 = acc("B200"), *h100 = acc("H100-SXM");
    ck_assert_msg(rel(accelerator_attn_seq_factor(b200, 4096 / 2.0), 1381.0 / 1418.0) < 2e-3,
                  "B200 4096/8192: %g", accelerator_attn_seq_factor(b200, 2048));
    ck_assert(fabs(accelerator_attn_seq_factor(h100, h100->attn_eff_seq / 2) - 1.0) < 1e-12);
    a.attn_cta_blocks = 0; /* no block cost given: no correction */
    ck_assert(accelerator_attn_seq_factor(&a, 512) == 1.0);
}
END_TEST

/* The training core takes the kernel's sequence factor at s / 2 keys.
 * Megatron with cuDNN attention on one H100 (as te_attention_runs_cudnn_at_
 * its_published_h100_rates), 2,048-token sequences: cuDNN's own sweep
 * (efficiency.yaml attn_cudnn_*_seq, cuDNN 9.19 on H200, the same GH100
 * die) has it at 484 / 644 of its 8K-token forward rate and 370 / 541 of
 * its backward's at 1,024 keys, so the core costs 1/k - 1 more than at the
 * 8K rates, forward and backward apart; with context parallelism 2 each
 * ring block holds s/2 tokens (512 keys, below the sweep), its first point
 * carried down by the block-cost law (n / (n + 1.9), n = 4 against 8 key
 * tiles); a FlashAttention 1 recipe is not this kernel and does not change.
 * Without the sweep and the block cost the core runs at the 8K rates. */
/* size_under on a catalog whose accelerators are all changed by edit (the
 * shipped catalog but for its own copy of the accelerators). */
static WorkloadResult size_under_edited(void (*edit)(Accelerator *), const Framework *base,
                                        void (*change)(Framework *), Workload *w, const char *a)
{
    Catalog saved = cat;
    Accelerator *v = malloc(cat.n_accelerators * sizeof *v);
    ck_assert_ptr_nonnull(v);
    memcpy(v, cat.accelerators, cat.n_accelerators * sizeof *v);
    for (size_t i = 0; i < cat.n_accelerators; i++)
        edit(&v[i]);
    cat.accelerators = v;
    WorkloadResult r = size_under(base, change, w, a);
    cat = saved;
    free(v);
    return r;
}
static void no_seq_correction(Accelerator *a)
{
    a->attn_cta_blocks = 0;
    a->attn_cudnn_fwd_seq.n = 0;
    a->attn_cudnn_bwd_seq.n = 0;
}
START_TEST(short_sequences_slow_the_fused_attention_core)
{
    load_catalog();
    const Accelerator *h100 = acc("H100-SXM");
    const Framework *meg = plain_megatron();
    const double L = 4, h = 4096, heads = 32, s = 2048;
    for (int cp = 1; cp <= 2; cp++) {
        for (int v1 = 0; v1 <= 1; v1++) {
            Workload w = training(gpt((int)L, (int)h, (int)heads, 32000), (int)s, 2 * cp, 1e12);
            w.gpus = cp;
            w.micro_batch = 1;
            w.flash_attention = true;
            w.flash_attention_v1 = v1;
            w.recompute = RECOMPUTE_NONE;
            w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = cp, .ep = 1, .sp = 0};
            WorkloadResult with = size_under(meg, fw_attn_cudnn, &w, "H100-SXM");
            WorkloadResult without =
                size_under_edited(no_seq_correction, meg, fw_attn_cudnn, &w, "H100-SXM");
            ck_assert_msg(with.ok && without.ok, "%s %s", with.error, without.error);
            double extra = with.train.step.compute - without.train.step.compute;
            double want = 0;
            if (!v1) {
                double kf = 484.0 / 644, kb = 370.0 / 541;
                if (cp == 2) {
                    double law = 4 / (4 + 1.9) / (8 / (8 + 1.9));
                    kf *= law;
                    kb *= law;
                }
                double pk = h100->peak_flops[PREC_BF16];
                double f = s * (s / cp) * 2 * heads * (128 + 128); /* full count per rank */
                double fwd = fused_core_s(f, pk * 0.535, INFINITY);
                double bwd = fused_core_s(f, INFINITY, pk * 0.524);
                /* 2·cp micro-batches */
                want = 2 * cp * L * (fwd * (1 / kf - 1) + bwd * (1 / kb - 1));
            }
            ck_assert_msg(fabs(extra - want) <= 4e-3 * (want > 0 ? want : with.train.step.compute),
                          "cp %d v1 %d: extra %.6g s, want %.6g s", cp, v1, extra, want);
        }
    }
}
END_TEST

/* cuDNN's measured sweep read back (catalog.c accelerator_attn_seq_curve):
 * on GB200 (cudnn-frontend's results at 3929da2, cuDNN 9.22, head dim 128,
 * causal) the forward at 2K tokens (1,024 keys a block) ran 1097 TFLOP/s
 * against 1574 at 8K, the backward 885 against 1332; between two measured
 * points the share is interpolated in log2(keys); past the longest it is
 * held.  Its 128-key point is the sliding-window run (gpt_oss/gb200, head
 * dim 64, a 128-token window, 8K tokens: 165 forward, 187 backward): with
 * the forward's head-dim factor the modelled forward comes back to that
 * measurement. */
START_TEST(cudnn_sweep_gives_the_measured_rates_at_its_points)
{
    load_catalog();
    const Accelerator *gb = acc("GB200");
    ck_assert(gb->attn_cudnn_fwd_seq.n > 0 && gb->attn_cudnn_bwd_seq.n > 0);
    const Curve *fs = &gb->attn_cudnn_fwd_seq, *bs = &gb->attn_cudnn_bwd_seq;
    ck_assert_msg(rel(accelerator_attn_seq_curve(gb, fs, 1024), 1097.0 / 1574) < 3e-3, "fwd 2K");
    ck_assert_msg(rel(accelerator_attn_seq_curve(gb, bs, 1024), 885.0 / 1332) < 3e-3, "bwd 2K");
    ck_assert(fabs(accelerator_attn_seq_curve(gb, fs, gb->attn_eff_seq / 2) - 1) < 1e-12);
    double mid = accelerator_attn_seq_curve(gb, fs, 1448.15); /* 2^10.5 */
    ck_assert_msg(rel(mid, 0.5 * (1097.0 + 1408.0) / 1574) < 3e-3, "log2 midpoint %g", mid);
    ck_assert(accelerator_attn_seq_curve(gb, fs, 1e6) == accelerator_attn_seq_curve(gb, fs, 16384));
    double pk = gb->peak_flops[PREC_BF16] / 1e12;
    double fwd64 = pk * gb->attn_cudnn_fwd_eff * curve_eval(&gb->attn_fwd_head_dim, 64) *
                   accelerator_attn_seq_curve(gb, fs, 128);
    double bwd = pk * gb->attn_cudnn_bwd_eff * accelerator_attn_seq_curve(gb, bs, 128);
    ck_assert_msg(rel(fwd64, 165.5) < 0.02 && rel(bwd, 187.5) < 0.02, "window %g / %g", fwd64,
                  bwd);
    /* without a sweep: the block-cost law */
    Accelerator a = *gb;
    a.attn_cudnn_fwd_seq.n = 0;
    ck_assert(accelerator_attn_seq_curve(&a, &a.attn_cudnn_fwd_seq, 1024) ==
              accelerator_attn_seq_factor(&a, 1024));
}
END_TEST

/* A sliding-window layer under a framework that runs cuDNN (nemo; here
 * Megatron's profile with cudnn_attention, unscaled) on GB200 is priced at cuDNN's measured window rate, not at FlashAttention-4's
 * block-cost law, which put a 128-key block at about half the 8K rate
 * where cuDNN ran a sixth of it.  gpt-oss-120b's 18 window layers of 36
 * (64 heads of 64, 128 keys), one GB200, 4,096-token sequences, 2
 * micro-batches: the step's compute grows by exactly the window cores'
 * difference between the two pricings, and a model without windows does
 * not move. */
static void no_cudnn_sweep(Accelerator *a)
{
    a->attn_cudnn_fwd_seq.n = 0;
    a->attn_cudnn_bwd_seq.n = 0;
}
START_TEST(sliding_window_runs_at_cudnns_measured_window_rate)
{
    load_catalog();
    const Accelerator *gb = acc("GB200");
    const Framework *nemo = catalog_find_framework(&cat, "nemo");
    ck_assert(nemo && nemo->cudnn_attention);
    const Framework *meg = plain_megatron();
    for (int win = 0; win <= 1; win++) {
        Workload w = training(gpt(4, 2880, 64, 32000), 4096, 2, 1e12);
        w.model.head_dim = 64;
        w.model.kv_heads = 8;
        if (win) {
            w.model.window = 128;
            w.model.window_layers = 2;
        }
        w.gpus = 1;
        w.micro_batch = 1;
        w.flash_attention = true;
        w.recompute = RECOMPUTE_NONE;
        w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
        WorkloadResult with = size_under(meg, fw_attn_cudnn, &w, "GB200");
        WorkloadResult law = size_under_edited(no_cudnn_sweep, meg, fw_attn_cudnn, &w, "GB200");
        ck_assert_msg(with.ok && law.ok, "%s %s", with.error, law.error);
        double extra = with.train.step.compute - law.train.step.compute;
        if (!win) {
            /* a 2K-key causal block: the sweep and the law differ little */
            ck_assert_msg(fabs(extra) < 0.03 * with.train.step.compute, "no window: %g", extra);
            continue;
        }
        double pk = gb->peak_flops[PREC_BF16];
        double d64 = curve_eval(&gb->attn_fwd_head_dim, 64);
        double f = 4096.0 * 2 * 128 * 2 * 64 * (64 + 64); /* the window's full count */
        double sw_f = accelerator_attn_seq_curve(gb, &gb->attn_cudnn_fwd_seq, 128);
        double sw_b = accelerator_attn_seq_curve(gb, &gb->attn_cudnn_bwd_seq, 128);
        double lw = accelerator_attn_seq_factor(gb, 128);
        double fwd = fused_core_s(f, pk * gb->attn_cudnn_fwd_eff * d64, INFINITY);
        double bwd = fused_core_s(f, INFINITY, pk * gb->attn_cudnn_bwd_eff);
        double full_f = accelerator_attn_seq_curve(gb, &gb->attn_cudnn_fwd_seq, 2048);
        double full_b = accelerator_attn_seq_curve(gb, &gb->attn_cudnn_bwd_seq, 2048);
        double lf = accelerator_attn_seq_factor(gb, 2048);
        double fcausal = 4096.0 * 4096 * 2 * 64 * (64 + 64); /* a full layer's count */
        double ffwd = fused_core_s(fcausal, pk * gb->attn_cudnn_fwd_eff * d64, INFINITY);
        double fbwd = fused_core_s(fcausal, INFINITY, pk * gb->attn_cudnn_bwd_eff);
        /* 2 micro-batches; 2 window layers and 2 full ones */
        double want = 2 * 2 * (fwd * (1 / sw_f - 1 / lw) + bwd * (1 / sw_b - 1 / lw)) +
                      2 * 2 * (ffwd * (1 / full_f - 1 / lf) + fbwd * (1 / full_b - 1 / lf));
        ck_assert_msg(want > 0 && rel(extra, want) < 0.02, "extra %.6g s, want %.6g s", extra,
                      want);
        ck_assert_msg(1 / sw_f > 3 * (1 / lw), "the window 3x slower than the law says: %g vs %g",
                      sw_f, lw);
    }
}
END_TEST

/* FlashAttention-2, what frameworks without cuDNN attention run on Hopper
 * (PyTorch SDPA's flash backend, flash-attn 2.x), is priced at its
 * measured H100 shares (efficiency.yaml attn_fa2_*: 333 / 318 TFLOP/s
 * causal at 8K, FlashAttention-3 paper charts), its rate independent of
 * the heads a GPU holds.  Before, the core was priced on the GEMM curve at
 * x = min(h/t, T), the full s x s count forward and twice that backward:
 * 6.6 % faster than FA2 at TP1 (x = 4,096), 9.8 % slower at TP4 (the
 * curve at 1,024) and 38 % at TP8.  One H100 and four
 * (TP4), 8K tokens (the rates' own sequence: factor 1), two micro-batches;
 * the difference to a catalog without attn_fa2 is the core alone. */
static void no_fa2(Accelerator *a) { a->attn_fa2_fwd_eff = a->attn_fa2_bwd_eff = 0; }
START_TEST(flash_attention_2_core_runs_at_its_measured_h100_rate_at_any_tp)
{
    load_catalog();
    const Accelerator *h100 = acc("H100-SXM");
    ck_assert(h100->attn_fa2_fwd_eff > 0 && h100->attn_fa2_bwd_eff > 0);
    const Framework *meg = plain_megatron();
    const double L = 4, h = 4096, heads = 32, s = 8192, m = 2;
    for (int tp = 1; tp <= 4; tp *= 4) {
        Workload w = training(gpt((int)L, (int)h, (int)heads, 32000), (int)s, (int)m, 1e12);
        w.gpus = tp;
        w.micro_batch = 1;
        w.flash_attention = true;
        w.recompute = RECOMPUTE_NONE;
        w.parallel = (ParallelSpec){.tp = tp, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = tp > 1};
        WorkloadResult fa2 = size_under(meg, fw_attn_plain, &w, "H100-SXM");
        WorkloadResult curve = size_under_edited(no_fa2, meg, fw_attn_plain, &w, "H100-SXM");
        ck_assert_msg(fa2.ok && curve.ok, "%s %s", fa2.error, curve.error);
        double pk = h100->peak_flops[PREC_BF16];
        double f = s * s * 2 * (heads / tp) * (128 + 128); /* full count per rank, forward */
        double old = 3 * f / (pk * curve_eval(&h100->gemm_eff, h / tp));
        double now = fused_core_s(f, pk * h100->attn_fa2_fwd_eff, pk * h100->attn_fa2_bwd_eff);
        double want = m * L * (old - now), got = curve.train.step.compute - fa2.train.step.compute;
        ck_assert_msg(rel(got, want) < 2e-3, "tp %d: %.6g s, want %.6g s", tp, got, want);
        /* the curve's core was 6.6 % faster than FA2 at TP1, 9.8 % slower
         * at TP4 (38 % at TP8) */
        ck_assert(tp == 1 ? want < -0.05 * m * L * now : want > 0.08 * m * L * now);
    }
}
END_TEST

/* Sizing of w on accelerator a under the fsdp profile (its calibrated
 * "fsdp@<accelerator>" row, if any) changed by f; the fits says whether
 * train_size accepted it. */
static TrainResult fsdp_size(Workload *w, const char *a, void (*change)(Framework *),
                             bool *fits)
{
    load_catalog();
    char id[64];
    snprintf(id, sizeof id, "fsdp@%s", a);
    const Framework *base = catalog_find_framework(&cat, id);
    if (!base)
        base = catalog_find_framework(&cat, "fsdp");
    WorkloadResult r = size_under(base, change, w, a);
    *fits = r.ok;
    return r.train;
}

/* Transformer Engine's FP8 modules save the FP8-cast GEMM inputs for the
 * backward (TE 1.11 LayerNormLinear / LayerNormMLP ln_out and gelu_out in
 * uint8, Linear saved_inputmat(_t)): per layer the two norm outputs and the
 * SwiGLU output drop from 2 to 1 byte, the projection adds a 1-byte copy of
 * the flash attention's output: (2 + F/h - 1)·s·b·h fewer bytes, for Llama
 * 3 8B at 8,192 tokens 4.5·s·b·h a layer.  AMD ran Mistral 7B FP8 at batch 6
 * on 8 MI325X (ROCm PyTorch training container v25.2 table, 860.39
 * TFLOPS/s/GPU, te.TransformerLayer under TE 1.11): with 16-bit saved
 * activations the model says it does not fit (249 GiB), with the FP8 ones
 * it does; BF16 runs do not change. */
static void fw_ring_off(Framework *f) { f->cp_torch_ring = false; }
static void fw_ring_on(Framework *f) { f->cp_torch_ring = true; }
static void fw_repkv_off(Framework *f) { f->attn_repeat_kv = false; }
static void fw_repkv_on(Framework *f) { f->attn_repeat_kv = true; }

/* A torchtitan profile as the H100 runs are priced with it (refit or
 * shipped). */
static const Framework *titan_profile_of(const char *fw)
{
    load_catalog();
    char id[64];
    snprintf(id, sizeof id, "%s@H100-GT-96GB", fw);
    const Framework *base = catalog_find_framework(&cat, id);
    if (!base)
        base = catalog_find_framework(&cat, fw);
    ck_assert_ptr_nonnull(base);
    return base;
}

static const Framework *titan_profile(void) { return titan_profile_of("torchtitan-compile"); }

/* One torchtitan benchmark run (pytorch/torchtitan benchmarks/
 * llama3_h100_202412_torchtitan.md: Float8, full AC, FSDP over the rest,
 * one sequence per micro-batch) on the Grand Teton H100, with the profile
 * changed by change. */
static WorkloadResult titan_run(const char *fw, const char *preset, double seq, double batch,
                                int gpus, ParallelSpec par, void (*change)(Framework *))
{
    const ModelPreset *pr = preset_find(preset);
    ck_assert_ptr_nonnull(pr);
    Workload w = training(pr->shape, seq, batch, 1e12);
    snprintf(w.framework, sizeof w.framework, "%s", fw);
    w.gpus = gpus;
    w.micro_batch = 1;
    w.zero = 3;
    w.precision = PREC_FP8;
    w.recompute = RECOMPUTE_FULL;
    w.parallel = par;
    WorkloadResult r = size_under(titan_profile_of(fw), change, &w, "H100-GT-96GB");
    ck_assert_msg(r.ok, "%s", r.error);
    return r;
}

static void fw_tp_exposed(Framework *f) { f->tp_overlap = 0.0; }
static void fw_tp_all_passes(Framework *f) { f->tp_overlap_forward_only = false; }
static void fw_tp_fwd_only(Framework *f) { f->tp_overlap_forward_only = true; }

/* torch's async TP (tp_overlap_forward_only) hides the forward-direction TP
 * collectives, not the backward's: the torchtitan post's "~29 % forward
 * pass speedup and ~8 % E2E speedup in Llama3 7B".  Llama 3.1 70B on 256
 * Grand Teton H100s, FSDP 32 x TP 8 (Table 4), full recompute: of the three
 * passes' collectives (forward, backward, re-run forward) the forward-only
 * overlap hides two, so it saves 2/3 of what hiding every pass saves; with
 * selective recompute (no re-run; one sequence a micro-batch to fit) 1/2.  torchtitan-compile ships it on. */
START_TEST(async_tp_hides_the_forward_collectives_only)
{
    ck_assert(titan_profile()->tp_overlap_forward_only);
    ParallelSpec par = {.tp = 8, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 1};
    double want[2] = {2.0 / 3.0, 1.0 / 2.0};
    for (int k = 0; k < 2; k++) {
        const ModelPreset *pr = preset_find("llama-3-70b");
        Workload w = training(pr->shape, 8192, 512, 1e12);
        snprintf(w.framework, sizeof w.framework, "torchtitan-compile");
        w.gpus = 256;
        w.micro_batch = k == 0 ? 16 : 1;
        w.zero = 3;
        w.recompute = k == 0 ? RECOMPUTE_FULL : RECOMPUTE_SELECTIVE;
        w.parallel = par;
        const Framework *f = titan_profile();
        WorkloadResult v = size_under(f, fw_tp_exposed, &w, "H100-GT-96GB");
        WorkloadResult all = size_under(f, fw_tp_all_passes, &w, "H100-GT-96GB");
        WorkloadResult fwd = size_under(f, fw_tp_fwd_only, &w, "H100-GT-96GB");
        ck_assert_msg(v.ok && all.ok && fwd.ok, "%s%s%s", v.error, all.error, fwd.error);
        double saved_all = v.train.step.tp_comm - all.train.step.tp_comm;
        double saved_fwd = v.train.step.tp_comm - fwd.train.step.tp_comm;
        ck_assert_msg(saved_all > 0 && rel(saved_fwd / saved_all, want[k]) < 1e-9,
                      "%s recompute: forward-only saves %.4f s, every pass %.4f s (x%.4f)",
                      k == 0 ? "full" : "selective", saved_fwd, saved_all, saved_fwd / saved_all);
    }
}
END_TEST

/* Table 2: Llama 3.1 8B on 8 GPUs, 32K tokens per GPU: the CP 1 run at 32K
 * and the CP 8 one at 256K. */
static WorkloadResult titan_8b(int cp, void (*change)(Framework *))
{
    return titan_run("torchtitan-compile", "llama-3-8b", 32768.0 * cp, 8 / cp, 8,
                     (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = cp, .ep = 1, .sp = 0},
                     change);
}

/* step[0] the CP 1 step, step[1] the CP 8 one, with the profile changed by
 * change.  The table runs 3,890 and 548 tokens/s per GPU: CP 8 is 7.10x
 * CP 1. */
#define TITAN_CP8_OVER_CP1 (3890.0 / 548)
static void titan_8b_cp_steps(void (*change)(Framework *), double step[2])
{
    step[0] = titan_8b(1, change).train.step_s;
    step[1] = titan_8b(8, change).train.step_s;
}

/* PyTorch's ring attention (framework cp_torch_ring) merges the outputs and
 * sums dQ / dK / dV in fp32 with eager ops per ring step: the CP8/CP1 ratio
 * moves toward the published 7.10x (with the K/V head copy: without the
 * ring costs 4.86x, with them 5.27x; before the copy was modelled 4.87x /
 * 5.13x); CP 1 has no ring. */
START_TEST(torch_ring_attention_pays_its_fp32_merges_per_ring_step)
{
    double off[2], on[2];
    titan_8b_cp_steps(fw_ring_off, off);
    titan_8b_cp_steps(fw_ring_on, on);
    ck_assert_msg(off[0] == on[0], "CP 1: %.4f vs %.4f s", off[0], on[0]);
    double r_off = off[1] / off[0], r_on = on[1] / on[0];
    fprintf(stderr, "ring merges: CP8/CP1 %.3fx without, %.3fx with (published %.2fx)\n", r_off,
            r_on, TITAN_CP8_OVER_CP1);
    ck_assert_msg(r_on > r_off + 0.15 && r_on < TITAN_CP8_OVER_CP1,
                  "CP8/CP1 %.3fx without, %.3fx with (published %.2fx)", r_off, r_on,
                  TITAN_CP8_OVER_CP1);
}
END_TEST

/* torchtitan's ring gathers the whole K/V after the first ring step's
 * attention (context_parallel_rotate_method "allgather", its default at
 * 9dec370): nothing else to hide under.  Llama 3.1 405B on 512 H100 (TP 8
 * inside the node, so the CP ranks sit on different hosts and gather over
 * the 400 Gb/s NICs), Table 6: CP 8 at 256K runs 16 and CP 4 at 128K 31
 * tokens/s per GPU, a 1.94x step.  The exposed gather gives the CP 8 step
 * over 5 % of CP time and moves the ratio toward the published one (1.69x
 * when the gather hid under all the attention, as Megatron's ring does);
 * the 8B's CP 8 inside one node gathers over NVLink under the first step,
 * about 1 % of its step. */
START_TEST(torch_ring_waits_for_its_kv_gather_after_the_first_step)
{
    WorkloadResult r[2];
    for (int k = 0; k < 2; k++) {
        int cp = k == 0 ? 4 : 8;
        r[k] = titan_run("torchtitan-compile-f8ag", "llama-3-405b", 32768.0 * cp, 64 / cp, 512,
                         (ParallelSpec){.tp = 8, .pp = 8, .vpp = 1, .cp = cp, .ep = 1, .sp = 1},
                         fw_repkv_on);
    }
    double ratio = r[1].train.step_s / r[0].train.step_s, published = 31.0 / 16.0;
    double share = r[1].train.step.cp_comm / r[1].train.step_s;
    fprintf(stderr, "405B CP8/CP4 %.3fx (published %.2fx), CP 8 comm %.1f %% of the step\n", ratio,
            published, 100 * share);
    ck_assert_msg(share > 0.05, "405B CP 8: CP %.1f %% of the step", 100 * share);
    ck_assert_msg(ratio > 1.72 && ratio < published, "405B CP8/CP4 %.3fx (published %.2fx)", ratio,
                  published);
    WorkloadResult small = titan_8b(8, fw_repkv_on);
    double s8 = small.train.step.cp_comm / small.train.step_s;
    ck_assert_msg(s8 < 0.02, "8B CP 8 in one node: CP %.1f %% of the step", 100 * s8);
}
END_TEST

/* Llama 3's context parallelism gathers K and V whole before the attention
 * and reduce-scatters their gradients after it, "the all-gather
 * communication latency is exposed in the critical path" (Dubey et al. 2024
 * §3.3.2; workload cp_comm_exposed).  Its Table 4 run at 131K, TP 8 CP 16
 * PP 16 on 16,384 H100: Megatron's ring would hide the gather under the
 * attention and pay only OVERLAP_SLOWDOWN of it; exposed, the whole of it,
 * which the paper calls negligible beside the attention (GQA's K/V are
 * small): a few per cent of the step.  Nothing else moves, and a run
 * without CP is the same either way. */
/* zero auto (a workload's default) runs what its framework shards by
 * default, the profile's dp_sharding (frameworks.yaml): PyTorch FSDP's
 * FULL_SHARD (ZeRO-3) for fsdp and torchtitan, Megatron-Bridge's
 * distributed optimizer (ZeRO-1) for nemo, ZeRO-1 for a profile that states
 * none (megatron, the default framework).  Llama 3 8B at 2,048 tokens on 64
 * H100: auto sizes exactly as the stage it names, and a stated zero wins —
 * under fsdp, ZeRO-1 keeps the whole weights and gradients on every GPU.
 * Under pipelining FSDP2's default keeps the units gathered from the forward
 * to the backward (torchtitan get_fsdp_reshard_after_forward_policy
 * "default": not pp_enabled), so fsdp's auto (dp_sharding fsdp) is ZeRO-2
 * there; MaxText's (full) stays ZeRO-3. */
START_TEST(zero_auto_shards_as_the_framework_does)
{
    ParallelSpec ps = {.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = -1};
    Workload w = pinned("llama-3-8b", 2048, 64, 256, 2, PREC_BF16, ps);
    static const struct {
        const char *fw;
        int zero;
    } want[] = {{"fsdp", 3}, {"torchtitan", 3}, {"maxtext", 3}, {"nemo", 1}, {"", 1}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        snprintf(w.framework, sizeof w.framework, "%s", want[i].fw);
        w.zero = -1;
        TrainResult a = sized(w, "H100-SXM");
        w.zero = want[i].zero;
        TrainResult b = sized(w, "H100-SXM");
        ck_assert_msg(a.zero == want[i].zero && b.zero == want[i].zero, "%s: auto %d, stated %d",
                      want[i].fw, a.zero, b.zero);
        ck_assert_msg(a.step_s == b.step_s && a.mem.total == b.mem.total,
                      "%s: auto %.4f s %.2f GiB, zero %d %.4f s %.2f GiB", want[i].fw, a.step_s,
                      a.mem.total / GIB, want[i].zero, b.step_s, b.mem.total / GIB);
    }
    snprintf(w.framework, sizeof w.framework, "fsdp");
    w.zero = -1;
    TrainResult full = sized(w, "H100-SXM");
    w.zero = 1;
    TrainResult one = sized(w, "H100-SXM");
    ck_assert_int_eq(one.zero, 1);
    ck_assert_msg(one.mem.weights > 30 * full.mem.weights, "ZeRO-1 weights %.2f GiB, auto %.2f",
                  one.mem.weights / GIB, full.mem.weights / GIB);
    w.parallel.pp = 2;
    w.zero = -1;
    TrainResult pp_auto = sized(w, "H100-SXM");
    w.zero = 2;
    TrainResult pp_two = sized(w, "H100-SXM");
    ck_assert_int_eq(pp_auto.zero, 2);
    ck_assert(pp_auto.step_s == pp_two.step_s && pp_auto.mem.total == pp_two.mem.total);
    /* MaxText gathers its weights per pipeline iteration (pipeline_fsdp_ag_once
     * off by default): dp_sharding full, ZeRO-3 pipelined too */
    snprintf(w.framework, sizeof w.framework, "maxtext");
    w.zero = -1;
    ck_assert_int_eq(sized(w, "H100-SXM").zero, 3);
    snprintf(w.framework, sizeof w.framework, "fsdp");
    /* the assumptions say which stage auto took, and why */
    Plan p;
    plan_init(&p);
    PlanResult *r;
    w.zero = -1;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    ck_assert(has_assumption(r, "ZeRO-2: the plan leaves zero auto, and fsdp shards weights, "
                                "gradients and optimizer state by default"));
    ck_assert(has_assumption(r, "pipelined, its units stay gathered from forward to backward"));
    free(r);
    w.parallel.pp = 1;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    ck_assert(has_assumption(r, "ZeRO-3: the plan leaves zero auto"));
    ck_assert(!has_assumption(r, "pipelined, its units stay gathered"));
    free(r);
    w.zero = 3;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    ck_assert(!has_assumption(r, "the plan leaves zero auto"));
    free(r);
}
END_TEST

/* model/train.c OVERLAP_SLOWDOWN: the compute slowdown a hidden collective
 * still costs (Lee et al. 2025, arXiv 2507.03114, 18.9 % on average) */
#define HIDDEN_COLLECTIVE_COST 0.189
START_TEST(all_gather_cp_waits_for_its_kv)
{
    ParallelSpec ps = {.tp = 8, .pp = 16, .vpp = 8, .cp = 16, .ep = 1, .sp = 1};
    Workload w = pinned("llama-3-405b", 131072, 16384, 128, 1, PREC_BF16, ps);
    w.zero = 2;
    w.recompute = RECOMPUTE_AUTO; /* the paper states none: searched */
    snprintf(w.framework, sizeof w.framework, "fsdp");
    TrainResult hid = sized(w, "H100-SXM");
    w.cp_comm_exposed = true;
    TrainResult exp = sized(w, "H100-SXM");
    double ratio = exp.step.cp_comm / hid.step.cp_comm, share = exp.step.cp_comm / exp.step_s;
    fprintf(stderr, "all-gather CP: %.3f s exposed vs %.3f s hidden, %.1f %% of the step\n",
            exp.step.cp_comm, hid.step.cp_comm, 100 * share);
    ck_assert_msg(rel(ratio, 1.0 / HIDDEN_COLLECTIVE_COST) < 1e-6, "exposed / hidden CP %.4f", ratio);
    ck_assert_msg(share > 0.01 && share < 0.06, "exposed CP %.2f %% of the step", 100 * share);
    ck_assert(exp.step.compute == hid.step.compute && exp.step.tp_comm == hid.step.tp_comm &&
              exp.step.dp_comm == hid.step.dp_comm);
    Plan p;
    plan_init(&p);
    PlanResult *r;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    ck_assert(has_assumption(r, "context parallelism gathers the whole K/V before the attention"));
    ck_assert(has_assumption(r, ", CP 0%, EP "));
    free(r);
    w.parallel.cp = 1;
    w.seq_len = 8192;
    w.global_batch = 2048;
    double on = sized(w, "H100-SXM").step_s;
    w.cp_comm_exposed = false;
    ck_assert(sized(w, "H100-SXM").step_s == on);
}
END_TEST

/* torchtitan copies Llama's 8 K/V heads out to the 32 query heads before
 * F.scaled_dot_product_attention (repeat_kv, torchtitan/models/llama/
 * model.py): the attention call, and under context parallelism PyTorch's
 * ring, see K/V four times as wide (framework attn_repeat_kv).  On the
 * Table 2 runs above the copy moves the CP8/CP1 ratio further toward the
 * published one; without CP it costs only the copy itself (well under
 * 2 %); the saved activations grow by the wider K and V (no recompute);
 * a model whose K/V heads are its query heads does not change. */
START_TEST(repeat_kv_widens_the_ring_and_the_saved_kv)
{
    double off[2], on[2];
    titan_8b_cp_steps(fw_repkv_off, off);
    titan_8b_cp_steps(fw_repkv_on, on);
    double r_off = off[1] / off[0], r_on = on[1] / on[0];
    fprintf(stderr, "repeat_kv: CP 1 %.3f -> %.3f s; CP8/CP1 %.3fx -> %.3fx (published %.2fx)\n",
            off[0], on[0], r_off, r_on, TITAN_CP8_OVER_CP1);
    ck_assert_msg(on[0] > off[0] && on[0] < 1.02 * off[0],
                  "CP 1: %.4f s with the copy, %.4f s without", on[0], off[0]);
    ck_assert_msg(r_on > r_off + 0.05 && r_on < TITAN_CP8_OVER_CP1,
                  "CP8/CP1 %.3fx without, %.3fx with (published %.2fx)", r_off, r_on,
                  TITAN_CP8_OVER_CP1);
    const ModelPreset *pr = preset_find("llama-3-8b");
    ck_assert_ptr_nonnull(pr);
    for (int mha = 0; mha < 2; mha++) {
        ModelShape m = pr->shape;
        if (mha)
            m.kv_heads = m.heads;
        Workload w = training(m, 8192, 8, 1e12);
        snprintf(w.framework, sizeof w.framework, "torchtitan-compile");
        w.gpus = 8;
        w.micro_batch = 1;
        w.zero = 3;
        w.recompute = RECOMPUTE_NONE;
        w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
        WorkloadResult a = size_under(titan_profile(), fw_repkv_off, &w, "H100-GT-96GB");
        WorkloadResult b = size_under(titan_profile(), fw_repkv_on, &w, "H100-GT-96GB");
        ck_assert_msg(a.ok && b.ok, "%s %s", a.error, b.error);
        /* per layer K and V at 32 instead of 8 heads of 128: 2·2·(32 − 8)·128
         * bytes per token more, over the 32 layers and 8192 tokens */
        double more = mha ? 0.0 : 32.0 * 8192 * 4.0 * 24 * 128;
        ck_assert_msg(fabs(b.train.mem.activations - a.train.mem.activations - more) < 0.01 * more + 1,
                      "%s: activations %.0f -> %.0f bytes, expected +%.0f", mha ? "MHA" : "GQA",
                      a.train.mem.activations, b.train.mem.activations, more);
        if (mha)
            ck_assert(a.train.step_s == b.train.step_s);
    }
}
END_TEST

/* Llama 3 8B at 8,192 tokens, FSDP over 8 GPUs, no recompute */
static Workload fsdp_llama3_8b(Precision prec)
{
    const ModelPreset *pr = preset_find("llama-3-8b");
    ck_assert_ptr_nonnull(pr);
    Workload w = training(pr->shape, 8192, 64, 1e12);
    snprintf(w.framework, sizeof w.framework, "fsdp");
    w.gpus = 8;
    w.micro_batch = 1;
    w.zero = 3;
    w.precision = prec;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
    return w;
}

START_TEST(te_fp8_saves_its_gemm_inputs_in_one_byte)
{
    Workload w = fsdp_llama3_8b(PREC_FP8);
    bool f0, f1;
    TrainResult t0 = fsdp_size(&w, "MI325X", fw_fp8_saved_off, &f0);
    TrainResult t1 = fsdp_size(&w, "MI325X", fw_fp8_saved_on, &f1);
    ck_assert(f0 && f1);
    double sbh = 8192.0 * 4096;
    double want = 32 * sbh * (2.0 + 14336.0 / 4096 - 1.0);
    ck_assert_msg(rel(t0.mem.activations - t1.mem.activations, want) < 1e-9,
                  "saved %.4g B, want %.4g", t0.mem.activations - t1.mem.activations, want);
    w.precision = PREC_BF16;
    t0 = fsdp_size(&w, "MI325X", fw_fp8_saved_off, &f0);
    t1 = fsdp_size(&w, "MI325X", fw_fp8_saved_on, &f1);
    ck_assert_msg(t0.mem.activations == t1.mem.activations, "BF16 %.6g vs %.6g B",
                  t0.mem.activations, t1.mem.activations);

    const ModelPreset *mi = preset_find("mistral-7b");
    ck_assert_ptr_nonnull(mi);
    Workload m = training(mi->shape, 8192, 384, 1e12);
    m.model.window = 1024;
    snprintf(m.framework, sizeof m.framework, "fsdp");
    m.gpus = 8;
    m.micro_batch = 6;
    m.zero = 3;
    m.precision = PREC_FP8;
    m.recompute = RECOMPUTE_NONE;
    m.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
    fsdp_size(&m, "MI325X", fw_fp8_saved_off, &f0);
    TrainResult tm = fsdp_size(&m, "MI325X", fw_fp8_saved_on, &f1);
    ck_assert_msg(!f0, "16-bit saved activations: fits");
    ck_assert_msg(f1, "FP8 saved inputs: does not fit");
    ck_assert_msg(tm.mem.total <= tm.hbm_bytes, "%.1f of %.1f GiB", tm.mem.total / 1073741824.0,
                  tm.hbm_bytes / 1073741824.0);
}
END_TEST

static void fw_expert_saved_off(Framework *f) { f->fp8_saved_expert_inputs = false; }
static void fw_expert_saved_on(Framework *f) { f->fp8_saved_expert_inputs = true; }

/* Transformer Engine's GroupedLinear keeps only the column-wise FP8 copy of
 * its input for the weight gradient (pytorch/module/grouped_linear.py), so
 * an FP8 MoE layer's routed experts hold their k permuted token copies
 * (fc1's input, He wide) and activation outputs (fc2's, Fe wide) in one
 * byte (frameworks.yaml fp8_saved_expert_inputs).  Nemotron 3 Super on 64
 * GB300 (EP 64, one 8,192-token micro-batch in flight, no recompute): 40
 * MoE layers and 2 MTP blocks x 8,192 x 22 copies x (1024 + 2688) bytes
 * less; with moe_act recompute the activation output is not kept either
 * way and only fc1's inputs differ; BF16 runs do not change. */
/* Activation bytes the flag takes off w's plan (megatron profile). */
static double expert_saved_bytes(Workload *w)
{
    const Framework *meg = plain_megatron();
    WorkloadResult off = size_under(meg, fw_expert_saved_off, w, "GB300");
    WorkloadResult on = size_under(meg, fw_expert_saved_on, w, "GB300");
    ck_assert_msg(off.ok && on.ok, "%s%s", off.error, on.error);
    return off.train.mem.activations - on.train.mem.activations;
}

START_TEST(te_grouped_experts_save_their_inputs_in_fp8)
{
    ParallelSpec ps = {.tp = 1, .pp = 1, .cp = 1, .ep = 64, .sp = 0};
    Workload w = pinned("nemotron-3-super", 8192, 64, 512, 1, PREC_FP8, ps);
    double d = expert_saved_bytes(&w), want = 42.0 * 8192 * 22 * (1024 + 2688);
    ck_assert_msg(rel(d, want) < 1e-6, "%.6g B less, want %.6g", d, want);
    w.recompute = RECOMPUTE_SELECTIVE;
    snprintf(w.recompute_modules, sizeof w.recompute_modules, "moe_act");
    d = expert_saved_bytes(&w);
    ck_assert_msg(rel(d, 42.0 * 8192 * 22 * 1024) < 1e-6, "moe_act: %.6g B less", d);
    w.precision = PREC_BF16;
    ck_assert(expert_saved_bytes(&w) == 0);
}
END_TEST

/* NVFP4 is Transformer Engine's alone (NVFP4BlockScaling), and its Linear
 * keeps the quantised input for the backward (pytorch/module/linear.py
 * saved_inputmat): the same tensors as FP8's at 0.5 + 1/16 bytes (an E4M3
 * scale per 16 values), whatever the profile's fp8_saved_inputs.  Llama 3
 * 8B: (2 + F/h)·(2 - 0.5625) - 0.5625 = 7.98·s·b·h fewer bytes a layer.
 * Megatron-Bridge's GB200 NVFP4 recipe for Llama 3.1 405B (v0.4.2
 * LLAMA31_405B_PRETRAIN_CONFIG_GB200_NVFP4_V2: TP4 PP16 VP8, recompute_
 * num_layers None; 1184 tokens/s/GPU in the 26.04.01 table) runs without
 * recompute: with 16-bit saved inputs the model would need 201 GiB of the
 * part's 170 usable. */
START_TEST(te_nvfp4_saves_its_gemm_inputs_in_fp4)
{
    Workload w = fsdp_llama3_8b(PREC_FP4);
    bool f0, f1;
    TrainResult t4 = fsdp_size(&w, "GB200", fw_fp8_saved_off, &f0);
    TrainResult t4on = fsdp_size(&w, "GB200", fw_fp8_saved_on, &f1);
    ck_assert(f0 && f1);
    ck_assert_msg(t4.mem.activations == t4on.mem.activations, "NVFP4 %.6g vs %.6g B",
                  t4.mem.activations, t4on.mem.activations);
    w.precision = PREC_FP8;
    TrainResult t16 = fsdp_size(&w, "GB200", fw_fp8_saved_off, &f0);
    ck_assert(f0);
    double sbh = 8192.0 * 4096, q = 0.5 + 1.0 / 16;
    double want = 32 * sbh * ((2.0 + 14336.0 / 4096) * (2.0 - q) - q);
    ck_assert_msg(rel(t16.mem.activations - t4.mem.activations, want) < 1e-9,
                  "saved %.4g B, want %.4g", t16.mem.activations - t4.mem.activations, want);

    load_catalog();
    Plan p;
    plan_init(&p);
    PlanResult *r;
    const ModelPreset *big = preset_find("llama-3-405b");
    ck_assert_ptr_nonnull(big);
    Workload b = training(big->shape, 8192, 1536, 1e12);
    snprintf(b.framework, sizeof b.framework, "nemo");
    b.gpus = 256;
    b.micro_batch = 1;
    b.precision = PREC_FP4;
    b.recompute = RECOMPUTE_NONE;
    b.pipeline_split_embedding_loss = true;
    b.parallel = (ParallelSpec){.tp = 4, .pp = 16, .vpp = 8, .cp = 1, .ep = 1, .sp = 1};
    bool ok = size(&p, &b, acc("GB200"), &r);
    ck_assert_msg(ok, "the published layout does not fit: %s", r->workloads[0].train.binding);
    free(r);
}
END_TEST

/* A plan without `framework:` runs the default profile, megatron; on H100
 * the catalog calibrates it with a "megatron@H100-SXM" row (derived from
 * nemo's, calibration_from), which the result does not report as the
 * framework: eval --json `framework` says what the plan says, megatron,
 * or the framework the plan names. */
START_TEST(the_result_names_the_plans_framework_not_its_calibration_row)
{
    load_catalog();
    ck_assert_str_eq(catalog_framework_for(&cat, "", "H100-SXM")->id, "megatron@H100-SXM");
    Plan p;
    plan_init(&p);
    Workload w = training(gpt(4, 4096, 32, 32000), 4096, 16, 1e12);
    w.gpus = 8;
    for (int k = 0; k < 2; k++) {
        snprintf(w.framework, sizeof w.framework, "%s", k ? "nemo" : "");
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
        ck_assert_str_eq(r->workloads[0].train.framework, k ? "nemo" : "megatron");
        free(r);
    }
}
END_TEST

/* Megatron-Core builds the output layer as a plain ColumnParallelLinear,
 * outside Transformer Engine's fp8_autocast: the logits GEMM and its
 * cross-entropy cost the same in FP8 and BF16 runs.  With pp = 1 a larger
 * vocabulary adds exactly m × [6·T·h·ΔV / (bf16 peak × curve(min(T, h,
 * V/t))) + 12·T·ΔV / elementwise bandwidth] of compute. */
START_TEST(output_layer_runs_in_bf16_in_fp8_recipes)
{
    ModelShape m = gpt(16, 4096, 32, 128000);
    m.glu = true;
    m.ffn_hidden = 14336;
    m.tied_embeddings = false;
    const Accelerator *a = acc("H100-SXM");
    double d[2];
    for (int prec = 0; prec < 2; prec++) {
        double c[2];
        for (int k = 0; k < 2; k++) {
            Workload w = training(m, 8192, 64, 1e12);
            w.model.vocab = k ? 256000 : 128000;
            w.gpus = 8;
            w.micro_batch = 1;
            w.zero = 1;
            w.recompute = RECOMPUTE_NONE;
            w.precision = prec ? PREC_FP8 : PREC_BF16;
            w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
            WorkloadResult r = size_under_on(plain_megatron(), fw_plain, &w, a);
            ck_assert_msg(r.ok, "%s", r.error);
            c[k] = r.train.step.compute;
        }
        d[prec] = c[1] - c[0];
    }
    double T = 8192, h = 4096, dV = 128000, mb = 64.0 / 8;
    double eff = curve_eval(&a->gemm_eff, 4096);
    double want = mb * (6.0 * T * h * dV / (a->peak_flops[PREC_BF16] * eff) +
                        12.0 * T * dV / (a->hbm_bw * a->elementwise_eff));
    ck_assert_msg(rel(d[0], want) < 1e-9, "bf16: %.6g vs %.6g s", d[0], want);
    ck_assert_msg(rel(d[1], want) < 1e-9, "fp8: %.6g vs %.6g s", d[1], want);
}
END_TEST

/* 61 layers on 16 stages cannot be split evenly, so the planner gives the
 * last stage (output layer + loss) fewer layers: a larger vocabulary then
 * costs nothing while the logits fit in the freed layers' time.  With 64
 * layers (even split, Megatron's default) it lengthens the last stage. */
START_TEST(uneven_stages_give_the_last_stage_fewer_layers)
{
    const Accelerator *a = acc("H100-SXM");
    Plan p;
    plan_init(&p);
    double c[2][2];
    for (int even = 0; even < 2; even++)
        for (int k = 0; k < 2; k++) {
            ModelShape m = gpt(even ? 64 : 61, 8192, 64, k ? 256000 : 32000);
            Workload w = training(m, 4096, 256, 1e12);
            w.gpus = 128;
            w.micro_batch = 1;
            w.recompute = RECOMPUTE_SELECTIVE;
            w.parallel = (ParallelSpec){.tp = 8, .pp = 16, .vpp = 1, .cp = 1, .ep = 1, .sp = 1};
            PlanResult *r;
            ck_assert_msg(size(&p, &w, a, &r), "%s", r->workloads[0].error);
            c[even][k] = r->workloads[0].train.step.compute;
            free(r);
        }
    ck_assert_msg(c[0][1] == c[0][0], "61 layers: %.4f vs %.4f s", c[0][1], c[0][0]);
    ck_assert_msg(c[1][1] > c[1][0] * 1.01, "64 layers: %.4f vs %.4f s", c[1][1], c[1][0]);
}
END_TEST

START_TEST(framework_profiles_change_the_modelled_step)
{
    /* nemo overlaps TP collectives (TE userbuffers), megatron (2021-22) does
     * not; an unknown framework is an error, not a silent default. */
    Plan p;
    plan_init(&p);
    Workload w = training(llama405(), 8192, 512, 1e12);
    w.gpus = 1024;
    w.micro_batch = 1;
    w.parallel = (ParallelSpec){.tp = 8, .pp = 8, .vpp = 8, .cp = 2, .ep = 1, .sp = 1};
    PlanResult *r;
    snprintf(w.framework, sizeof w.framework, "megatron");
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    double tp_meg = r->workloads[0].train.step.tp_comm;
    ck_assert_str_eq(r->workloads[0].train.framework, "megatron");
    free(r);
    snprintf(w.framework, sizeof w.framework, "nemo");
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    double tp_nemo = r->workloads[0].train.step.tp_comm;
    ck_assert_str_eq(r->workloads[0].train.framework, "nemo");
    free(r);
    ck_assert_msg(tp_nemo < 0.6 * tp_meg, "TP exposed %.3f (nemo) vs %.3f (megatron)", tp_nemo,
                  tp_meg);
    /* a recipe that turns TP overlap off (tp_comm_exposed) under nemo pays
     * about the collectives megatron's profile pays (both tp_overlap 0
     * then; the profiles still differ in their other terms) */
    w.tp_comm_exposed = true;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    double tp_off = r->workloads[0].train.step.tp_comm;
    free(r);
    ck_assert_msg(tp_off > 2 * tp_nemo && fabs(tp_off / tp_meg - 1) < 0.05,
                  "TP off %.4f vs on %.4f (nemo), %.4f (megatron)", tp_off, tp_nemo, tp_meg);
    w.tp_comm_exposed = false;
    snprintf(w.framework, sizeof w.framework, "jax-on-abacus");
    ck_assert(!size(&p, &w, acc("H100-SXM"), &r));
    ck_assert_msg(strstr(r->workloads[0].error, "unknown framework") != NULL, "%s",
                  r->workloads[0].error);
    free(r);
}
END_TEST

/* A GPT-style MoE shape with SwiGLU experts: L layers of width h with
 * `heads` heads, dense FFN `ffn`, E experts of `fe`, top-k, vocabulary
 * 32000. */
static ModelShape glu_moe(int L, int h, int heads, int ffn, int E, int k, int fe)
{
    ModelShape m = gpt(L, h, heads, 32000);
    m.glu = true;
    m.ffn_hidden = ffn;
    m.experts = E;
    m.experts_per_token = k;
    m.expert_ffn_hidden = fe;
    return m;
}

/* A small fine-grained MoE (16 experts of 512, top-2) on H100. */
static Workload small_moe(int gpus, int ep)
{
    Workload w = training(glu_moe(4, 1024, 8, 2816, 16, 2, 512), 2048, 64, 1e9);
    w.gpus = gpus;
    w.micro_batch = 1;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = ep, .sp = 0};
    return w;
}

/* A recipe choice train_size weighs (recipe_saving): w on part a with the
 * choice made (choose(w, true)) is at least 5 % faster and says nothing of
 * it (no assumption holding line); without it the line gives the saving,
 * formatted by saving_fmt from the two sizings. */
static void recipe_line_is_the_saving(Workload w, const char *a, void (*choose)(Workload *, bool),
                                      const char *line, const char *saving_fmt)
{
    load_catalog();
    Plan p;
    plan_init(&p);
    PlanResult *r;
    choose(&w, true);
    ck_assert(size(&p, &w, acc(a), &r));
    double with = r->workloads[0].train.step_s;
    ck_assert_msg(!has_assumption(r, line), "made, yet the line '%s'", line);
    free(r);
    choose(&w, false);
    ck_assert(size(&p, &w, acc(a), &r));
    double without = r->workloads[0].train.step_s;
    ck_assert_msg(with < 0.95 * without, "%s: %.3f s made vs %.3f s", line, with, without);
    char want[160];
    snprintf(want, sizeof want, saving_fmt, 100 * (1 - with / without));
    ck_assert_msg(has_assumption(r, want), "no assumption says '%s'", want);
    free(r);
}

static void choose_fused(Workload *w, bool on) { w->moe_fused_dispatch = on ? 1 : 0; }
static void choose_graphs(Workload *w, bool on) { w->cuda_graph_full = on; }
static void choose_overlap(Workload *w, bool on)
{
    w->ep_overlap = on ? 1 : 0;
    w->delay_wgrad_compute = on;
}

/* w on H100 under the catalog's megatron profile changed by `change`:
 * the step's parts (TrainResult.step) and, returned, its seconds */
static double fw_step(Workload *w, void (*change)(Framework *), StepBreakdown *parts)
{
    load_catalog();
    WorkloadResult r = size_under(plain_megatron(), change, w, "H100-SXM");
    ck_assert_msg(r.ok, "%s", r.error);
    if (parts)
        *parts = r.train.step;
    return r.train.step_s;
}

/* the same: the step's seconds, and its compute and "other" parts (either
 * may be NULL) */
static double fw_run(Workload *w, void (*change)(Framework *), double *compute, double *other)
{
    StepBreakdown b;
    double s = fw_step(w, change, &b);
    if (compute)
        *compute = b.compute;
    if (other)
        *other = b.other;
    return s;
}

/* compute seconds of w under the megatron profile changed by f */
static double moe_compute_s(Workload *w, void (*change)(Framework *))
{
    double c;
    fw_run(w, change, &c, NULL);
    return c;
}

static void fw_plain(Framework *f) { (void)f; }
static void fw_expert_100us(Framework *f) { f->moe_expert_overhead_s = 100e-6; }
static void fw_layer_1ms(Framework *f) { f->moe_layer_overhead_s = 1e-3; }
static void fw_fused(Framework *f) { f->moe_fused_dispatch = true; }

/* An eager PyTorch loss on fp32-cast logits (workload eager_loss:
 * torchtitan's cross_entropy(pred.float(), labels) uncompiled): at its
 * backward 12 bytes a logit are live beside the saved activations, not the
 * logits_bytes a fused loss keeps, and its kernels move 48 bytes a logit,
 * not 12 (model/train.c EAGER_CE_*).  Llama 3 8B on 8 H200, two sequences
 * of 8192 a GPU, selective recompute (no layer working set beside the
 * loss): the activations grow by exactly (12 - logits_bytes) bytes a logit
 * and the step by 36 bytes a logit at the element-wise bandwidth; on 16
 * with TP 2, under torch's loss_parallel, by (16 - logits_bytes) and 64
 * bytes a local logit. */
START_TEST(eager_loss_holds_twelve_bytes_a_logit_and_moves_forty_eight)
{
    const ModelPreset *pr = preset_find("llama-3-8b");
    ck_assert_ptr_nonnull(pr);
    Workload w = training(pr->shape, 8192, 16, 1e12);
    w.gpus = 8;
    w.micro_batch = 2;
    w.zero = 3;
    w.recompute = RECOMPUTE_SELECTIVE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
    const Accelerator *a = acc("H200");
    WorkloadResult fused = size_under_on(plain_megatron(), fw_plain, &w, a);
    w.eager_loss = true;
    WorkloadResult eager = size_under_on(plain_megatron(), fw_plain, &w, a);
    ck_assert_msg(fused.ok && eager.ok, "%s %s", fused.error, eager.error);
    ck_assert_int_eq(eager.train.layout.pp, 1);
    double n = 2.0 * 8192 * pr->shape.vocab; /* logits of the one micro-batch */
    double kept = plain_megatron()->logits_bytes > 0 ? plain_megatron()->logits_bytes : 4.0;
    double da = eager.train.mem.activations - fused.train.mem.activations;
    ck_assert_msg(rel(da, (12.0 - kept) * n) < 1e-9, "activations +%.6g B, want %.6g", da,
                  (12.0 - kept) * n);
    double ew = a->hbm_bw * a->elementwise_eff;
    double dt = eager.train.step.compute - fused.train.step.compute;
    ck_assert_msg(rel(dt, 36.0 * n / ew) < 1e-6, "step +%.6g s, want %.6g", dt, 36.0 * n / ew);
    /* with TP 2, torch's loss_parallel over the vocabulary shards: 16
     * bytes a local logit at the backward, 76 moved */
    w.gpus = 16;
    w.parallel.tp = 2;
    w.eager_loss = false;
    fused = size_under_on(plain_megatron(), fw_plain, &w, a);
    w.eager_loss = true;
    eager = size_under_on(plain_megatron(), fw_plain, &w, a);
    ck_assert_msg(fused.ok && eager.ok, "%s %s", fused.error, eager.error);
    da = eager.train.mem.activations - fused.train.mem.activations;
    ck_assert_msg(rel(da, (16.0 - kept) * n / 2) < 1e-9, "TP 2: activations +%.6g B, want %.6g",
                  da, (16.0 - kept) * n / 2);
    dt = eager.train.step.compute - fused.train.step.compute;
    ck_assert_msg(rel(dt, 64.0 * n / 2 / ew) < 1e-6, "TP 2: step +%.6g s, want %.6g", dt,
                  64.0 * n / 2 / ew);
}
END_TEST

/* FSDP2 under torch.distributed.pipelining (framework pp_fsdp_unsharded):
 * the stage's units stay gathered and its gradients accumulate unsharded
 * in the reduce dtype until the last micro-batch's backward, so a zero 3
 * run with pp > 1 holds ZeRO-1's memory — the weights and the optimizer
 * state as a zero 1 run keys them, the gradients at the reduce precision
 * (fp32 with grad_reduce_fp32: twice zero 1's 16-bit ones) — and gathers
 * and reduce-scatters once a step (its DP time ZeRO-1's, plus one ring's
 * latencies per unit, under ZeRO-3's per-micro-batch gathers).  Without
 * pipeline parallelism the switch changes nothing.  A 32-layer 4096-wide
 * GPT on 16 H100, PP 2, DP 8, 16 micro-batches. */
static void fw_pp_unsharded(Framework *f)
{
    f->unit_collectives = true;
    f->pp_fsdp_unsharded = true;
}
static void fw_units(Framework *f) { f->unit_collectives = true; }

START_TEST(fsdp_under_pipelining_holds_zero1_memory_and_syncs_once)
{
    Workload w = training(gpt(32, 4096, 32, 50257), 4096, 128, 1e12);
    w.gpus = 16;
    w.micro_batch = 1;
    w.grad_reduce_fp32 = true;
    w.recompute = RECOMPUTE_FULL;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 2, .vpp = 1, .cp = 1, .ep = 1, .sp = 0};
    const Accelerator *a = acc("H100-SXM");
    w.zero = 3;
    WorkloadResult un = size_under_on(plain_megatron(), fw_pp_unsharded, &w, a);
    WorkloadResult z3 = size_under_on(plain_megatron(), fw_units, &w, a);
    w.zero = 1;
    WorkloadResult z1 = size_under_on(plain_megatron(), fw_units, &w, a);
    ck_assert_msg(un.ok && z3.ok && z1.ok, "%s %s %s", un.error, z3.error, z1.error);
    const TrainMemory *mu = &un.train.mem, *m1 = &z1.train.mem;
    ck_assert(rel(mu->weights, m1->weights) < 1e-12);
    ck_assert(rel(mu->optimizer, m1->optimizer) < 1e-12);
    ck_assert_msg(rel(mu->gradients, 2.0 * m1->gradients) < 1e-12, "%.6g vs 2 x %.6g",
                  mu->gradients, m1->gradients);
    ck_assert(mu->weights > 4.0 * z3.train.mem.weights);
    ck_assert_msg(un.train.step.dp_comm > z1.train.step.dp_comm &&
                      un.train.step.dp_comm < z3.train.step.dp_comm,
                  "DP %.4f s: zero 1 %.4f, zero 3 %.4f", un.train.step.dp_comm,
                  z1.train.step.dp_comm, z3.train.step.dp_comm);
    /* no pipeline: FSDP as keyed */
    w.zero = 3;
    w.gpus = 8;
    w.global_batch = 64;
    w.parallel.pp = 1;
    WorkloadResult un1 = size_under_on(plain_megatron(), fw_pp_unsharded, &w, a);
    WorkloadResult z31 = size_under_on(plain_megatron(), fw_units, &w, a);
    ck_assert(un1.ok && z31.ok);
    ck_assert(un1.train.mem.total == z31.train.mem.total);
    ck_assert(un1.train.step_s == z31.train.step_s);
}
END_TEST

START_TEST(moe_host_costs_are_paid_per_layer_pass_and_per_local_expert)
{
    /* One GPU holds all 16 experts: 64 micro-batches × 4 MoE layers × 3
     * passes (forward, 2× backward) of the profile's host costs. */
    Workload w = small_moe(1, 1);
    double c0 = moe_compute_s(&w, fw_plain);
    double ce = moe_compute_s(&w, fw_expert_100us);
    double cl = moe_compute_s(&w, fw_layer_1ms);
    ck_assert_msg(fabs((ce - c0) - 64 * 4 * 3 * 16 * 100e-6) < 1e-9, "per expert: %.6f s",
                  ce - c0);
    ck_assert_msg(fabs((cl - c0) - 64 * 4 * 3 * 1e-3) < 1e-9, "per layer: %.6f s", cl - c0);
    /* EP8: 2 local experts per GPU, 8 micro-batches per step */
    Workload w8 = small_moe(8, 8);
    double d0 = moe_compute_s(&w8, fw_plain);
    double de = moe_compute_s(&w8, fw_expert_100us);
    ck_assert_msg(fabs((de - d0) - 8 * 4 * 3 * 2 * 100e-6) < 1e-9, "EP8 per expert: %.6f s",
                  de - d0);
}
END_TEST

static void fw_attn_1ms(Framework *f) { f->moe_attn_launch_s = 1e-3; }

START_TEST(eager_attention_launches_are_paid_after_the_dropless_sync_unless_graphed)
{
    /* 64 micro-batches × 4 MoE layers × 3 passes of the profile's eager
     * attention cost on one GPU; none where the recipe graphs the attention
     * (cuda_graph_attn) and none without the dropless sync (token drop,
     * capacity factor 1). */
    Workload w = small_moe(1, 1);
    double c0 = moe_compute_s(&w, fw_plain);
    double ca = moe_compute_s(&w, fw_attn_1ms);
    ck_assert_msg(fabs((ca - c0) - 64 * 4 * 3 * 1e-3) < 1e-9, "eager: %.6f s", ca - c0);
    w.cuda_graph_attn = true;
    double g0 = moe_compute_s(&w, fw_plain), ga = moe_compute_s(&w, fw_attn_1ms);
    ck_assert_msg(fabs(ga - g0) < 1e-12 && fabs(g0 - c0) < 1e-12, "graphed: %.6f s", ga - g0);
    w.cuda_graph_attn = false;
    w.moe_capacity_factor = 1;
    double d0 = moe_compute_s(&w, fw_plain), da = moe_compute_s(&w, fw_attn_1ms);
    ck_assert_msg(fabs(da - d0) < 1e-12, "token drop: %.6f s", da - d0);
}
END_TEST

static void fw_all_host(Framework *f)
{
    f->layer_overhead_s = 5e-4;
    f->moe_layer_overhead_s = 1e-3;
    f->moe_expert_overhead_s = 100e-6;
    f->moe_attn_launch_s = 1e-3;
    f->step_overhead_s = 0.05;
    f->moe_graph_residual = 0;
}

static void fw_all_host_quarter(Framework *f)
{
    fw_all_host(f);
    f->moe_graph_residual = 0.25;
}

START_TEST(a_full_iteration_graph_pays_no_per_layer_host_cost)
{
    /* cuda_graph_full (Megatron-Core cuda_graph_impl "full_iteration"):
     * the host launches nothing inside the forward-backward, so with a
     * residual share of 0 none of the profile's per-layer, per-MoE-layer,
     * per-expert or eager-attention costs is paid, while the once-a-step
     * cost (the optimizer, outside the graph) still is.  Without the key the same profile costs
     * 64 x 4 x 3 x (1 ms + 16 x 100 us + 1 ms) on the MoE layers alone. */
    Workload w = small_moe(1, 1);
    double o0, oh;
    double c0 = moe_compute_s(&w, fw_plain), ch = moe_compute_s(&w, fw_all_host);
    ck_assert_msg(ch - c0 > 64 * 4 * 3 * (1e-3 + 16 * 100e-6 + 1e-3) - 1e-9, "eager: %.6f s",
                  ch - c0);
    w.cuda_graph_full = true;
    double g0 = moe_compute_s(&w, fw_plain), gh = moe_compute_s(&w, fw_all_host);
    ck_assert_msg(fabs(gh - g0) < 1e-12 && fabs(g0 - c0) < 1e-12, "graphed: %.6f s", gh - g0);
    double s0 = fw_run(&w, fw_plain, NULL, &o0), sh = fw_run(&w, fw_all_host, NULL, &oh);
    ck_assert_msg(fabs((sh - s0) - 0.05) < 1e-9 && fabs((oh - o0) - 0.05) < 1e-9,
                  "step cost: %.6f s", sh - s0);
    /* the profile's moe_graph_residual: that share of the MoE layer and
     * per-expert costs stays (not the eager attention's, not the per-layer
     * launch cost) */
    double gq = moe_compute_s(&w, fw_all_host_quarter);
    ck_assert_msg(fabs((gq - g0) - 0.25 * 64 * 4 * 3 * (1e-3 + 16 * 100e-6)) < 1e-9,
                  "residual: %.6f s", gq - g0);
    /* with EP overlap and deferred wgrad, the paired layers' exposed host
     * work (the partner's wgrad issued after the sync) goes too */
    Workload p = small_moe(8, 8);
    p.ep_overlap = 1;
    p.delay_wgrad_compute = true;
    double pe = fw_run(&p, fw_all_host, NULL, NULL), pp = fw_run(&p, fw_plain, NULL, NULL);
    p.cuda_graph_full = true;
    double qe = fw_run(&p, fw_all_host, NULL, NULL), qp = fw_run(&p, fw_plain, NULL, NULL);
    ck_assert_msg(pe - pp > 0.05 + 1e-3 && fabs((qe - qp) - 0.05) < 1e-9,
                  "overlapped: eager +%.6f s, graphed +%.6f s", pe - pp, qe - qp);
    /* nor with a residual share: that share of the MoE costs (8 micro-
     * batches x 4 layers x 3 passes x (1 ms + 2 local experts x 100 us))
     * and the step cost, no exposed wgrad issue (there is no sync) */
    double qq = fw_run(&p, fw_all_host_quarter, NULL, NULL);
    ck_assert_msg(fabs((qq - qp) - (0.05 + 0.25 * 8 * 4 * 3 * (1e-3 + 2 * 100e-6))) < 1e-9,
                  "overlapped, residual 0.25: +%.6f s", qq - qp);
    /* and the plan's assumptions say so */
    Plan pl;
    plan_init(&pl);
    PlanResult *r;
    ck_assert(size(&pl, &w, acc("H100-SXM"), &r));
    ck_assert(has_assumption(r, "replayed as CUDA graphs"));
    free(r);
}
END_TEST

/* step seconds and its "other" part of w under the megatron profile changed by f */
static double fw_step_s(Workload *w, void (*change)(Framework *), double *other)
{
    return fw_run(w, change, NULL, other);
}

static void fw_step_50ms(Framework *f) { f->step_overhead_s = 0.05; }
static void fw_step_50ms_slow(Framework *f)
{
    f->step_overhead_s = 0.05;
    f->step_scale = 2.0;
}
static void fw_slow(Framework *f) { f->step_scale = 2.0; }

START_TEST(step_overhead_is_paid_once_per_step_unscaled)
{
    /* The optimizer's grad-norm read-back (Megatron-Core clip_grads.py,
     * total_norm.item()) costs host time once per step: the same 50 ms on
     * a step of 64 micro-batches as on one of 8, in `other`, and not
     * multiplied by the site's step_scale (GPU speed). */
    for (int gb = 8; gb <= 64; gb *= 8) {
        Workload w = small_moe(1, 1);
        w.model.experts = 0;
        w.model.experts_per_token = 0;
        w.model.expert_ffn_hidden = 0;
        w.global_batch = gb;
        double o0, o1, o2, o3;
        double s0 = fw_step_s(&w, fw_plain, &o0);
        double s1 = fw_step_s(&w, fw_step_50ms, &o1);
        double s2 = fw_step_s(&w, fw_slow, &o2);
        double s3 = fw_step_s(&w, fw_step_50ms_slow, &o3);
        ck_assert_msg(fabs((s1 - s0) - 0.05) < 1e-9, "GBS %d: +%.6f s", gb, s1 - s0);
        ck_assert_msg(fabs((o1 - o0) - 0.05) < 1e-9, "GBS %d other: +%.6f s", gb, o1 - o0);
        ck_assert_msg(fabs((s3 - s2) - 0.05) < 1e-9, "GBS %d scaled: +%.6f s", gb, s3 - s2);
        (void)o2;
        (void)o3;
    }
}
END_TEST

static void fw_fp8_factor_1(Framework *f) { f->fp8_gemm_factor = 1.0; }
static void fw_fp8_factor_0999(Framework *f) { f->fp8_gemm_factor = 0.999; }

START_TEST(fp8_run_stays_fp8_at_a_fitted_fp8_gemm_factor_of_one)
{
    /* gpuplan calibrate may fit fp8_gemm_factor at its bound, 1.0 (it did
     * for nemo@B200 once the 26.04.01 Megatron-Bridge table was added).  An
     * FP8 run is still FP8: its casts are costed and its class is fp8, so
     * the step moves by the GEMMs' 0.1 % only.  Until 2026-12-02 "FP8" was
     * read as gemm_scale < 1, and at 1.0 the casts vanished (the written
     * 1.0000 and calibrate's in-memory 0.99999 predicted the B200 FP8 rows
     * 5-7 points apart). */
    Workload w = small_moe(1, 1);
    w.model.experts = 0;
    w.model.experts_per_token = 0;
    w.model.expert_ffn_hidden = 0;
    w.precision = PREC_FP8;
    double s1 = fw_step_s(&w, fw_fp8_factor_1, NULL);
    double s0 = fw_step_s(&w, fw_fp8_factor_0999, NULL);
    ck_assert_msg(s1 < s0 && s1 > s0 * 0.998, "factor 1.0: %.6f s, 0.999: %.6f s", s1, s0);
}
END_TEST

static void fw_fp8_param_gather(Framework *f) { f->fp8_param_gather = true; }

/* NeMo's and Megatron-Bridge's FP8 recipes gather the weights in FP8
 * (fp8_param_gather True in NeMo 2 bf16_with_fp8_mixed and Megatron-Bridge
 * bf16_with_fp8_current_scaling_mixed / bf16_with_mxfp8_mixed; frameworks.yaml
 * nemo): the distributed optimizer's all-gather moves 1 byte per parameter.
 * Llama 3 8B, one micro-batch of 8,192 tokens per GPU on 64 H100 (DP 64,
 * ZeRO 1): the FP8 step gets shorter by at most the 16-bit all-gather's
 * half, (n-1)/n x 8.03e9 B over the eight NICs' ring rate; a BF16 run and
 * an FP4 run (fp4_param_gather "not supported") do not change. */
START_TEST(fp8_param_gather_halves_the_dp_all_gather)
{
    const ModelPreset *pr = preset_find("llama-3-8b");
    ck_assert_ptr_nonnull(pr);
    double d[3];
    const Precision pc[3] = {PREC_FP8, PREC_BF16, PREC_FP4};
    for (int k = 0; k < 3; k++) {
        Workload w = training(pr->shape, 8192, 64, 1e12);
        w.gpus = 64;
        w.micro_batch = 1;
        w.precision = pc[k];
        w.zero = 1;
        w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
        double off = fw_step_s(&w, fw_plain, NULL);
        double on = fw_step_s(&w, fw_fp8_param_gather, NULL);
        d[k] = off - on;
    }
    double half_ag = 63.0 / 64 * 8.03e9 / (8 * 400e9 / 8 * 0.5);
    ck_assert_msg(d[0] > 1e-4 && d[0] < half_ag, "FP8: %.5f s shorter (bound %.4f s)", d[0],
                  half_ag);
    ck_assert_msg(d[1] == 0 && d[2] == 0, "BF16 %.6f s, FP4 %.6f s", d[1], d[2]);
}
END_TEST

static void fw_fp8_tp_gather(Framework *f) { f->fp8_tp_gather = true; }

/* The TP time of the DGX Cloud Llama 3.1 405B recipe's layout (TP8 PP9
 * VP7 CP2, SP, 576 GPUs, GBS 252, 8,192 tokens; published FP8/BF16
 * speed-up 1.591x on H100) in precision pc on part a, under the megatron
 * profile (TP collectives exposed) with fp8_tp_gather over without it */
static double sp_gather_ratio(Precision pc, const char *a)
{
    load_catalog();
    const Framework *meg = plain_megatron();
    Workload w = pinned("llama-3-405b", 8192, 576, 252, 1, pc,
                        (ParallelSpec){.tp = 8, .pp = 9, .vpp = 7, .cp = 2, .ep = 1, .sp = 1});
    WorkloadResult off = size_under(meg, fw_plain, &w, a);
    WorkloadResult on = size_under(meg, fw_fp8_tp_gather, &w, a);
    ck_assert_msg(off.ok && on.ok, "%s%s", off.error, on.error);
    ck_assert_msg(off.train.step.tp_comm > 0.1, "%s %d: TP %.4f s", a, (int)pc,
                  off.train.step.tp_comm);
    return on.train.step.tp_comm / off.train.step.tp_comm;
}

/* Transformer Engine quantises a sequence-parallel GEMM input before the
 * tensor-parallel all-gather ("AllGather buffers use fp8 when using fp8
 * recipe", TE pytorch/module/base.py initialize_ub), the reduce-scatters
 * stay 16-bit.  With the gather in FP8 the layout's TP time on H100 is
 * (1 + 2) / (2 + 2) of the 16-bit one (bandwidth-bound, a little more for
 * the per-hop latency); a BF16 run, and an FP4 one on a part without an
 * FP4 peak, do not change. */
START_TEST(fp8_tp_gather_moves_the_sp_all_gathers_in_one_byte)
{
    double r8 = sp_gather_ratio(PREC_FP8, "H100-SXM");
    double r16 = sp_gather_ratio(PREC_BF16, "H100-SXM");
    double r4 = sp_gather_ratio(PREC_FP4, "H100-SXM");
    ck_assert_msg(r8 > 0.75 && r8 < 0.80, "FP8: TP x%.4f", r8);
    ck_assert_msg(r16 == 1.0 && r4 == 1.0, "BF16 x%.4f, FP4 x%.4f", r16, r4);
}
END_TEST

static void fw_fp8_factor_half(Framework *f) { f->fp8_gemm_factor = 0.5; }

/* NVFP4 is gathered quantised too, but with its row-wise and column-wise
 * copies, each 4-bit data plus an E4M3 scale per 16 values (TE
 * pytorch/distributed.py _all_gather_nvfp4, v2.8-v2.12): 1.125 bytes an
 * element, so on B200 the layout's TP time is (0.5625 + 1) / (1 + 1) of the
 * 16-bit one, FP8's (0.5 + 1) / (1 + 1) (bandwidth-bound, a little more
 * for the per-hop latency). */
START_TEST(nvfp4_tp_gather_moves_both_copies_with_their_scales)
{
    double r8 = sp_gather_ratio(PREC_FP8, "B200");
    double r4 = sp_gather_ratio(PREC_FP4, "B200");
    ck_assert_msg(r8 >= 0.75 && r8 < 0.82, "FP8: TP x%.4f", r8);
    ck_assert_msg(r4 >= 0.78125 && r4 < 0.85 && r4 - r8 > 0.02 && r4 - r8 <= 0.03125,
                  "NVFP4: TP x%.4f (FP8 x%.4f)", r4, r8);
}
END_TEST

/* Megatron-Bridge's and NVIDIA's MLPerf NVFP4 recipes turn Transformer
 * Engine's TP communication overlap off (frameworks.yaml nemo
 * fp4_tp_exposed).  The 26.04.01 table's Llama 3 70B NVFP4 row (64 GB200,
 * TP2 PP4 VP5): under nemo the FP4 run is priced as with tp_comm_exposed
 * whether or not the plan says it, and an assumption says why; its FP8
 * twin keeps the overlap (the key still moves it). */
START_TEST(nemo_nvfp4_runs_leave_tp_collectives_exposed)
{
    Plan p;
    plan_init(&p);
    Workload w = pinned("llama-3-70b", 8192, 64, 256, 1, PREC_FP4,
                        (ParallelSpec){.tp = 2, .pp = 4, .vpp = 5, .cp = 1, .sp = 1});
    snprintf(w.framework, sizeof w.framework, "nemo");
    const Accelerator *gb200 = acc("GB200");
    ck_assert(catalog_find_framework(&cat, "nemo")->fp4_tp_exposed);
    double st[2][2];
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < 2; k++) {
            w.precision = f ? PREC_FP8 : PREC_FP4;
            w.tp_comm_exposed = k == 1;
            PlanResult *r;
            ck_assert_msg(size(&p, &w, gb200, &r), "%s", r->workloads[0].error);
            st[f][k] = r->workloads[0].train.step.tp_comm;
            ck_assert(has_assumption(r, "NVFP4 recipes turn the TP communication overlap off") ==
                      (f == 0 && k == 0));
            free(r);
        }
    ck_assert_msg(st[0][0] == st[0][1], "NVFP4: TP %.4f s without the key, %.4f s with it",
                  st[0][0], st[0][1]);
    ck_assert_msg(st[1][1] > 1.5 * st[1][0], "FP8: TP %.4f s overlapped, %.4f s exposed",
                  st[1][0], st[1][1]);
}
END_TEST

/* compute seconds of w on a copy of part `name` whose fp4_gemm_factor is
 * f, under the megatron profile changed by change */
static double fp4_compute_s(Workload *w, const char *name, double f, void (*change)(Framework *))
{
    load_catalog();
    Accelerator a = *acc(name);
    a.fp4_gemm_factor = f;
    WorkloadResult r = size_under_on(plain_megatron(), change, w, &a);
    ck_assert_msg(r.ok, "%s", r.error);
    return r.train.step.compute;
}

/* NVFP4 training GEMMs run at the part's measured share of its FP4 peak
 * (catalog fp4_gemm_factor, vLLM PR #20646's NVFP4-vs-BF16 benchmark on
 * B200), the share the inference model prices them at, not at the
 * framework's fitted FP8 factor.  Llama 3 8B on 8 B200, TP1: the GEMM time
 * goes as 1 / factor (halving it twice adds twice what halving it once
 * added), and the FP8 factor moves an FP8 run but not an FP4 one. */
START_TEST(nvfp4_gemms_run_at_the_parts_fp4_gemm_factor)
{
    Workload w = pinned("llama-3-8b", 4096, 8, 8, 1, PREC_FP4,
                        (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0});
    double c1 = fp4_compute_s(&w, "B200", 0.6, fw_plain);
    double c2 = fp4_compute_s(&w, "B200", 0.3, fw_plain);
    double c4 = fp4_compute_s(&w, "B200", 0.15, fw_plain);
    ck_assert_msg(c2 > c1 && fabs((c4 - c2) / (c2 - c1) - 2.0) < 1e-6,
                  "compute %.6f / %.6f / %.6f s at 0.6 / 0.3 / 0.15", c1, c2, c4);
    ck_assert_msg(fp4_compute_s(&w, "B200", 0.6, fw_fp8_factor_half) == c1,
                  "the FP8 factor moved an FP4 run");
    w.precision = PREC_FP8;
    ck_assert_msg(fp4_compute_s(&w, "B200", 0.6, fw_fp8_factor_half) >
                      fp4_compute_s(&w, "B200", 0.6, fw_plain),
                  "the FP8 factor did not move an FP8 run");
}
END_TEST


/* The QKV and fc1 inputs of an FP8 layer are its norms' outputs, and
 * Transformer Engine's LayerNormLinear computes their amax inside the norm
 * kernel (current scaling: pytorch/csrc/extensions/normalization.cpp
 * Impl::FUSED_NORM_AMAX_FP8; delayed: the norm writes FP8 itself), so the
 * forward cast of those two inputs reads 2 bytes and writes 1, not the 5 of
 * a cast with its own amax pass; the backward casts output gradients (5).
 * Llama 3 8B at TP1 on 8 H100, one 4,096-token micro-batch per GPU, with the
 * FP8 GEMMs at half their 2x peak (= the BF16 GEMM time): the FP8 run's
 * compute exceeds the BF16 run's by the casts alone, per token and layer
 * 3 x 2h + 5 (a dh + F) forward and 2 x 5 (2h + a dh + F) backward bytes
 * at the H100's elementwise rate (3.35 TB/s x 0.70). */
START_TEST(fp8_norm_outputs_cast_without_an_amax_pass)
{
    double c[2];
    const Precision pc[2] = {PREC_FP8, PREC_BF16};
    for (int k = 0; k < 2; k++) {
        Workload w = pinned("llama-3-8b", 4096, 8, 8, 1, pc[k],
                            (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1, .sp = 0});
        fw_run(&w, fw_fp8_factor_half, &c[k], NULL);
    }
    double h = 4096, adh = 32 * 128, F = 14336, T = 4096, L = 32;
    double bytes = 3 * 2 * h + 5 * (adh + F) + 2 * 5 * (2 * h + adh + F);
    double want = L * T * bytes / (3.35e12 * 0.70);
    ck_assert_msg(fabs((c[0] - c[1]) / want - 1) < 0.01, "FP8 - BF16 compute %.5f s, casts %.5f s",
                  c[0] - c[1], want);
}
END_TEST

/* A small MoE model (4 layers, h 1024, 64 experts of 512, top-2) on 64
 * GPUs, one expert each (EP64), no recompute. */
static Workload moe_ep64(void)
{
    Workload w = training(glu_moe(4, 1024, 8, 2816, 64, 2, 512), 2048, 64, 1e9);
    w.gpus = 64;
    w.micro_batch = 1;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 64, .sp = 0};
    return w;
}

START_TEST(ep_alltoall_across_nodes_runs_at_the_nic_rate)
{
    /* An expert all-to-all over 8 H100 nodes (EP64, one rank per GPU) is
     * bound by each GPU's own 400 Gb/s NIC: DeepEP, built for exactly this
     * traffic, measures 43-58 GB/s "RDMA bottleneck bandwidth" for
     * internode EP16-EP64 on H800 + CX7 400G (deepseek-ai/DeepEP
     * docs/legacy.md) and 61 GB/s for EP 8x4 on H100 (README, V2).  The
     * ring trick of all-reduce (8 NICs per node carry one group's traffic
     * together) does not apply: until 2026-12-01 this group ran at the
     * NVLink rate (~330 GB/s implied) because 8 x 48 GB/s reaches it. */
    Workload w = moe_ep64();
    Plan p;
    plan_init(&p);
    PlanResult *r;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    double ep_s = r->workloads[0].train.step.ep_comm;
    free(r);
    /* one micro-batch per GPU (64 sequences over 64 GPUs), 4 MoE layers,
     * dispatch + combine forward and again backward, 16-bit both ways, on
     * the busiest rank's 1 + sqrt(2 ln 64 / C) share; 56 of every 64
     * bytes leave the node */
    double C = 2048.0 * 2, h = 1024, imb = 1 + sqrt(2 * log(64.0) / C);
    double out = 4 * 2 * imb * (2 + 2) * C * h * 56.0 / 64.0;
    double gbps = out / ep_s / 1e9;
    ck_assert_msg(gbps > 35 && gbps < 62, "implied RDMA rate %.1f GB/s per GPU", gbps);
    /* the same per-GPU load inside one node stays on NVLink */
    w.gpus = 8;
    w.global_batch = 8;
    w.parallel.ep = 8;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    double ep8 = r->workloads[0].train.step.ep_comm;
    free(r);
    ck_assert_msg(ep_s / ep8 > 5, "EP64 over IB %.4f s vs EP8 on NVLink %.4f s", ep_s, ep8);
}
END_TEST

static void fw_fp8_dispatch(Framework *f) { f->fp8_dispatch = true; }

/* The expert all-to-all time of a 64-expert top-2 model on 64 H100 (EP64)
 * in precision pc under the megatron profile (nothing hidden), with the
 * framework's fp8_dispatch over without it */
static double dispatch_ratio(Precision pc)
{
    load_catalog();
    const Framework *meg = plain_megatron();
    Workload w = moe_ep64();
    w.precision = pc;
    WorkloadResult off = size_under(meg, fw_plain, &w, "H100-SXM");
    WorkloadResult on = size_under(meg, fw_fp8_dispatch, &w, "H100-SXM");
    ck_assert_msg(off.ok && on.ok, "%s%s", off.error, on.error);
    ck_assert_msg(off.train.step.ep_comm > 1e-3, "EP %.5f s", off.train.step.ep_comm);
    return on.train.step.ep_comm / off.train.step.ep_comm;
}

/* Megatron-Core sends the dispatch in 16-bit and the experts quantise what
 * arrives (its DeepEP path passes fp8_dispatch False, HybridEP asserts
 * against it); DeepSeek-V3 quantises first (report §3.3.2).  With
 * fp8_dispatch an FP8 run's all-to-all time is (1 + 2) / (2 + 2) of the
 * 16-bit one (bandwidth-bound, the latency a little more); BF16 does not
 * change, and the catalog's Megatron-family profiles keep 16-bit. */
START_TEST(fp8_dispatch_sends_the_dispatch_in_one_byte)
{
    double r8 = dispatch_ratio(PREC_FP8);
    double r16 = dispatch_ratio(PREC_BF16);
    ck_assert_msg(r8 > 0.74 && r8 < 0.80, "FP8: EP x%.4f", r8);
    ck_assert_msg(r16 == 1.0, "BF16: EP x%.4f", r16);
    load_catalog();
    ck_assert(catalog_find_framework(&cat, "deepseek")->fp8_dispatch);
    ck_assert(!catalog_find_framework(&cat, "megatron")->fp8_dispatch);
    ck_assert(!catalog_find_framework(&cat, "nemo")->fp8_dispatch);
}
END_TEST

/* One layout of w with recompute r and the modules mods on part a. */
static TrainResult rm_size(Workload w, Recompute r, const char *mods, const char *a)
{
    w.recompute = r;
    snprintf(w.recompute_modules, sizeof w.recompute_modules, "%s", mods);
    snprintf(w.name, sizeof w.name, "recompute %.40s", mods);
    return sized(w, a);
}

/* Megatron-Core's recompute_modules (transformer_config.py, with
 * recompute_granularity selective): each module drops what it names and
 * re-runs it in the backward.  Dense Llama 3 8B on 8 H100 (FlashAttention,
 * TE layer spec): core_attn keeps every activation (the fused core keeps
 * none of its own) and adds its forward; layernorm changes nothing, both
 * norms being fused into LayerNormLinear / LayerNormMLP (no separate norm
 * module, transformer_layer.py); mlp drops the MLP's activations and
 * re-runs its GEMMs, less than full recompute on both counts.  A MoE
 * layer's moe module re-runs the dispatch and combine too: its all-to-all
 * time is 3/2 of moe_act's (forward, backward, forward again; nothing
 * hidden under the megatron profile).  MLA's mla_up_proj drops Q, K and V
 * and re-runs the two up projections. */
START_TEST(recompute_modules_drop_and_rerun_what_they_name)
{
    load_catalog();
    const ModelPreset *pr = preset_find("llama-3-8b");
    Workload w = training(pr->shape, 4096, 64, 1e12);
    w.gpus = 8;
    w.micro_batch = 1;
    w.zero = 1;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    TrainResult none = rm_size(w, RECOMPUTE_NONE, "", "H100-SXM");
    TrainResult core = rm_size(w, RECOMPUTE_SELECTIVE, "core_attn", "H100-SXM");
    TrainResult norm = rm_size(w, RECOMPUTE_SELECTIVE, "layernorm", "H100-SXM");
    TrainResult mlp = rm_size(w, RECOMPUTE_SELECTIVE, "mlp", "H100-SXM");
    TrainResult full = rm_size(w, RECOMPUTE_FULL, "", "H100-SXM");
    ck_assert(core.mem.activations == none.mem.activations);
    ck_assert(core.step.compute > none.step.compute);
    ck_assert(norm.mem.activations == none.mem.activations && norm.step.compute == none.step.compute);
    ck_assert(full.mem.activations < mlp.mem.activations && mlp.mem.activations < none.mem.activations);
    ck_assert(none.step.compute < mlp.step.compute && mlp.step.compute < full.step.compute);
    /* the MLP's forward: at least its FLOPs at the dense peak, at most the
     * whole layer's forward (full recompute's addition) */
    double tok = 4096.0 * 64 / 8, mlp_flops = 2.0 * tok * 32 * 3 * 4096.0 * 14336;
    double d_mlp = mlp.step.compute - none.step.compute;
    ck_assert_msg(d_mlp > mlp_flops / acc("H100-SXM")->peak_flops[PREC_BF16] &&
                      d_mlp < full.step.compute - none.step.compute,
                  "mlp +%.3f s, full +%.3f s", d_mlp, full.step.compute - none.step.compute);

    ModelShape m = glu_moe(4, 2048, 16, 6144, 64, 4, 768);
    m.shared_experts = 1;
    Workload e = training(m, 4096, 64, 1e9);
    e.gpus = 8;
    e.micro_batch = 1;
    e.zero = 1;
    e.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 8, .sp = 0};
    TrainResult act = rm_size(e, RECOMPUTE_SELECTIVE, "moe_act", "H100-SXM");
    TrainResult moe = rm_size(e, RECOMPUTE_SELECTIVE, "moe", "H100-SXM");
    TrainResult shr = rm_size(e, RECOMPUTE_SELECTIVE, "moe_act,shared_experts", "H100-SXM");
    TrainResult lnm = rm_size(e, RECOMPUTE_SELECTIVE, "moe_act,layernorm", "H100-SXM");
    ck_assert_msg(fabs(moe.step.ep_comm / act.step.ep_comm - 1.5) < 1e-9, "EP x%.6f",
                  moe.step.ep_comm / act.step.ep_comm);
    ck_assert(moe.step.compute > shr.step.compute && shr.step.compute > act.step.compute);
    ck_assert(moe.mem.activations < shr.mem.activations &&
              shr.mem.activations < act.mem.activations);
    /* a MoE layer's pre-MLP norm is a module of its own: layernorm drops it */
    ck_assert(lnm.mem.activations < act.mem.activations && lnm.step.compute > act.step.compute);

    ModelShape d = deepseek_v3();
    d.layers = 4;
    d.dense_layers = 1;
    d.experts = 64;
    Workload v = training(d, 4096, 64, 1e9);
    v.gpus = 8;
    v.micro_batch = 1;
    v.zero = 1;
    v.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 8, .sp = 0};
    TrainResult vn = rm_size(v, RECOMPUTE_NONE, "", "H100-SXM");
    TrainResult vu = rm_size(v, RECOMPUTE_SELECTIVE, "mla_up_proj", "H100-SXM");
    double up = 2.0 * tok * 4 * 128 * (1536.0 * 192 + 512.0 * 256);
    double d_up = vu.step.compute - vn.step.compute;
    ck_assert(vu.mem.activations < vn.mem.activations);
    ck_assert_msg(d_up > up / acc("H100-SXM")->peak_flops[PREC_BF16] &&
                      d_up < 4 * up / acc("H100-SXM")->peak_flops[PREC_BF16],
                  "mla_up_proj +%.4f s for %.3g FLOPs", d_up, up);
}
END_TEST

/* torchtitan's per-op selective checkpointing (recompute_modules
 * every_other_mm; parallelize_llama.py at 9dec370: aten.mm outputs saved
 * but every second one a block runs, the SDPA's and the reduce-scatters'
 * saved, every other op re-run).  Llama 3 8B on 8 H100, 4K tokens a
 * micro-batch, TP 1:
 *  - memory: of the MLP only w1's output (2·F bytes a token) and w2's
 *    (2·h) stay, so activations grow 2 bytes a token and layer per unit of
 *    F, where keeping everything (recompute none) grows 6 (w1, w3 and the
 *    SwiGLU output) and the default selective 4;
 *  - compute: beyond the default selective (norms and activation re-run)
 *    it re-runs wk, wo and w3, 2·T·h·(g·dh + a·dh + F) FLOPs a layer: at
 *    least that at the dense peak, less than full recompute adds;
 *  - a MoE model is refused with a reason (the policy's mm count is that
 *    of a dense block).
 * Then a published figure: torchtitan's 8B on 32 H200 (benchmarks/
 * llama3-8b_h200_202506_trainy-whitefiber.md: compile, Float8 with FP8
 * all-gather, local batch 2, per-op SAC) reports 47.96 GiB; the model
 * within 6 %. */
START_TEST(every_other_mm_keeps_every_other_matmul_and_reruns_the_rest)
{
    load_catalog();
    const ModelPreset *pr = preset_find("llama-3-8b");
    ModelShape m = pr->shape, m2 = pr->shape;
    m2.ffn_hidden += 1024;
    const double tok = 4096.0, L = m.layers;
    Workload w = training(m, 4096, 16, 1e12), w2 = training(m2, 4096, 16, 1e12);
    Workload *ws[2] = {&w, &w2};
    for (int i = 0; i < 2; i++) {
        ws[i]->gpus = 8;
        ws[i]->micro_batch = 1;
        ws[i]->zero = 3;
        ws[i]->parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
        snprintf(ws[i]->framework, sizeof ws[i]->framework, "torchtitan-compile");
    }
    TrainResult eo = rm_size(w, RECOMPUTE_SELECTIVE, "every_other_mm", "H100-SXM");
    TrainResult eo2 = rm_size(w2, RECOMPUTE_SELECTIVE, "every_other_mm", "H100-SXM");
    TrainResult no = rm_size(w, RECOMPUTE_NONE, "", "H100-SXM");
    TrainResult no2 = rm_size(w2, RECOMPUTE_NONE, "", "H100-SXM");
    TrainResult se = rm_size(w, RECOMPUTE_SELECTIVE, "", "H100-SXM");
    TrainResult fu = rm_size(w, RECOMPUTE_FULL, "", "H100-SXM");
    double per_f = L * tok * 1024.0;
    ck_assert_msg(rel(eo2.mem.activations - eo.mem.activations, 2.0 * per_f) < 1e-9,
                  "every_other_mm: +%.4g B for 1024 more F, want %.4g",
                  eo2.mem.activations - eo.mem.activations, 2.0 * per_f);
    ck_assert_msg(rel(no2.mem.activations - no.mem.activations, 6.0 * per_f) < 1e-9,
                  "none: +%.4g B", no2.mem.activations - no.mem.activations);
    ck_assert(fu.mem.activations < eo.mem.activations && eo.mem.activations < se.mem.activations);
    double h = m.hidden, dh = h / m.heads;
    double re = 2.0 * tok * L * h * (m.kv_heads * dh + m.heads * dh + m.ffn_hidden);
    double d = eo.step.compute - se.step.compute;
    ck_assert_msg(d > re / acc("H100-SXM")->peak_flops[PREC_BF16] &&
                      d < fu.step.compute - se.step.compute,
                  "every_other_mm +%.3f s over selective for %.3g FLOPs; full +%.3f s", d, re,
                  fu.step.compute - se.step.compute);

    ModelShape moe = glu_moe(4, 2048, 16, 6144, 64, 4, 768);
    Workload e = training(moe, 4096, 64, 1e9);
    e.gpus = 8;
    e.recompute = RECOMPUTE_SELECTIVE;
    snprintf(e.recompute_modules, sizeof e.recompute_modules, "every_other_mm");
    Plan p;
    plan_init(&p);
    PlanResult *r;
    ck_assert(!size(&p, &e, acc("H100-SXM"), &r));
    ck_assert_msg(strstr(r->workloads[0].error, "every_other_mm") &&
                      strstr(r->workloads[0].error, "MoE"),
                  "%s", r->workloads[0].error);
    free(r);

    Workload t = training(m, 8192, 64, 1e12);
    t.gpus = 32;
    t.micro_batch = 2;
    t.zero = 3;
    t.precision = PREC_FP8;
    t.grad_reduce_fp32 = true;
    t.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    snprintf(t.framework, sizeof t.framework, "torchtitan-compile-f8ag");
    TrainResult h200 = rm_size(t, RECOMPUTE_SELECTIVE, "every_other_mm", "H200");
    double gib = h200.mem.total / (1024.0 * 1024 * 1024);
    ck_assert_msg(fabs(gib / 47.96 - 1) < 0.06, "8B on 32 H200: %.2f GiB, published 47.96", gib);
}
END_TEST

/* Multi-token prediction (DeepSeek-V3 report §2.2; Megatron-Core
 * mtp_num_layers, which Megatron-Bridge's DeepSeek-V3 recipes set to 1).
 * Its FLOPs on top of the model's: Megatron-Bridge's performance summary
 * (v0.3.0 docs/performance-summary.md) prints model TFLOP/s beside tokens/s,
 * 782 / 3,139 = 249.1 GFLOP a token for "DeepSeekV3 (w/o MTP)" on GB200
 * (25.11) and 557 / 2,139 = 260.4 for "(w/ MTP)" on B200, 1,028 / 3,955 =
 * 259.9 for 26.02's GB200 row: 1.043x.  The modules sit on the last
 * pipeline stage: on one stage the step grows by about one MoE layer and an
 * output-layer pass; on PP4 the last stage's memory holds their weights. */
START_TEST(mtp_modules_add_their_flops_time_and_last_stage_memory)
{
    load_catalog();
    const ModelPreset *pr = preset_find("deepseek-v3");
    ck_assert_int_eq(pr->shape.mtp_layers, 1);
    ModelShape m0 = pr->shape;
    m0.mtp_layers = 0;
    double r = train_model_flops(&pr->shape, 1, 4096) / train_model_flops(&m0, 1, 4096);
    ck_assert_msg(fabs(r / (260.2 / 249.1) - 1) < 0.01, "MTP FLOPs x%.4f vs published 1.045", r);
    double t0, t1;
    train_params(&m0, &t0, NULL);
    train_params(&pr->shape, &t1, NULL);
    ck_assert(t0 == t1); /* 671 B: the main model's */

    /* One stage, a small vocabulary (the output layer negligible): an MTP
     * module costs one more MoE layer and its 2h -> h projection, 2·h²
     * weights a token against the layer's ~585 M (attention 187 M, 8 routed
     * + 1 shared experts of 44 M): 4 layers + MTP = 5 layers + ~18 %. */
    ModelShape d = deepseek_v3();
    d.layers = 4;
    d.dense_layers = 1;
    d.experts = 64;
    d.vocab = 1024;
    Workload w = training(d, 4096, 64, 1e9);
    w.gpus = 8;
    w.micro_batch = 1;
    w.zero = 1;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 8, .sp = 0};
    TrainResult a = sized(w, "H100-SXM");
    Workload w5 = w;
    w5.model.layers = 5;
    TrainResult c = sized(w5, "H100-SXM");
    w.model.mtp_layers = 1;
    TrainResult b = sized(w, "H100-SXM");
    double layer = c.step.compute - a.step.compute, extra = b.step.compute - c.step.compute;
    ck_assert_msg(extra > 0.08 * layer && extra < 0.30 * layer,
                  "MTP module beyond a layer: %.4f s, a layer %.4f s", extra, layer);
    fprintf(stderr, "MTP: FLOPs x%.4f (published 1.045); module beyond a layer %.1f %% of one\n",
            r, 100 * extra / layer);
    ck_assert(b.mem.weights > a.mem.weights && b.mem.activations > a.mem.activations);
    /* On PP4 the modules live on the last stage: its memory grows, the
     * first stage's does not (the reported memory is the larger) */
    w.parallel.pp = 4;
    w.gpus = 32;
    w.global_batch = 256;
    w.model.layers = 8;
    w.model.mtp_layers = 0;
    TrainResult p0 = sized(w, "H100-SXM");
    w.model.mtp_layers = 1;
    TrainResult p1 = sized(w, "H100-SXM");
    ck_assert(p1.mem.total >= p0.mem.total && p1.step_s > p0.step_s);
}
END_TEST

START_TEST(fused_dispatch_drops_permute_and_chunk_sort_bytes)
{
    /* EP8, 2 local experts: per micro-batch and layer forward the Megatron
     * all-to-all dispatcher permutes (read T·h, write C·h), un-permutes
     * (read C·h + fp32 probabilities, write T·h) and sorts the received
     * chunks by local expert twice (read + write C·h each) on the busiest
     * rank's 1 + sqrt(2·ln 8 / C) share (balls into bins), all 16-bit;
     * DeepEP-style fused kernels move none of it outside the all-to-all. */
    Workload w8 = small_moe(8, 8);
    double plain = moe_compute_s(&w8, fw_plain);
    double fused = moe_compute_s(&w8, fw_fused);
    double T = 2048, k = 2, h = 1024, C = T * k;
    double imb = 1 + sqrt(2 * log(8.0) / C);
    double bytes = 2 * (T + C) * h * 2 + 4 * C + 8 * imb * C * h;
    double ew_bw = 3.35e12 * 0.70; /* H100 hbm_bw × elementwise_eff (catalog) */
    double want = 8 * 4 * 3 * bytes / ew_bw;
    ck_assert_msg(fabs((plain - fused) / want - 1) < 1e-6, "saved %.6f s, expected %.6f s",
                  plain - fused, want);
}
END_TEST

static void fw_unfused_extras(Framework *f)
{
    f->unfused_glu_clamp = true;
    f->unfused_expert_bias = true;
    f->unfused_yarn_rope = true;
}

START_TEST(unfused_clamp_bias_and_yarn_rope_cost_their_eager_bytes)
{
    /* gpt-oss's config (swiglu_limit, biased experts, YaRN RoPE) run as
     * Megatron-Core runs it (fusions/fused_bias_geglu.py: clamp + concat
     * outside the fused GLU; moe/experts.py _apply_bias: bias x prob per
     * expert; rope_utils.py: YaRN's mscale 0.1 ln 32 + 1 != 1 takes the
     * unfused RoPE).  Per micro-batch and layer, 16-bit bytes: RoPE 24
     * forward + 34 backward per element of q and k (T (a + g) dh), clamp
     * 16 Fe + 20 Fe per routed copy, bias 12 h + 16 h, the copies on the
     * busiest of 8 EP ranks (1 + sqrt(2 ln 8 / C)).  EP8, 8 micro-batches
     * of 2,048 tokens, 4 MoE layers, no recompute. */
    Workload w8 = small_moe(8, 8);
    double plain_keys = moe_compute_s(&w8, fw_plain);
    double flags_no_keys = moe_compute_s(&w8, fw_unfused_extras);
    ck_assert_msg(flags_no_keys == plain_keys, "no model keys: %.6f vs %.6f s", flags_no_keys,
                  plain_keys);
    w8.model.glu_clamp = 7.0;
    w8.model.linear_bias = true;
    w8.model.yarn_factor = 32;
    double plain = moe_compute_s(&w8, fw_plain);
    ck_assert_msg(plain == plain_keys, "keys without the framework flags: %.6f vs %.6f s",
                  plain, plain_keys);
    double eager = moe_compute_s(&w8, fw_unfused_extras);
    double T = 2048, k = 2, h = 1024, Fe = 512, C = T * k, qk = T * (8 + 8) * 128;
    double imb = 1 + sqrt(2 * log(8.0) / C);
    double bytes = (24 + 34) * qk + (16 + 20) * Fe * imb * C + (12 + 16) * h * imb * C;
    double ew_bw = 3.35e12 * 0.70; /* H100 hbm_bw × elementwise_eff (catalog) */
    double want = 8 * 4 * bytes / ew_bw;
    ck_assert_msg(fabs((eager - plain) / want - 1) < 1e-6, "added %.6f s, expected %.6f s",
                  eager - plain, want);
    /* moe_act recompute (selective) re-runs the clamp's forward 16 Fe */
    w8.recompute = RECOMPUTE_SELECTIVE;
    double sp = moe_compute_s(&w8, fw_plain);
    double se = moe_compute_s(&w8, fw_unfused_extras);
    double want_sel = want + 8 * 4 * 16 * Fe * imb * C / ew_bw;
    ck_assert_msg(fabs((se - sp) / want_sel - 1) < 1e-6, "selective: added %.6f s, expected %.6f s",
                  se - sp, want_sel);
}
END_TEST

static void fw_eager_rope_glu(Framework *f)
{
    f->eager_rope = true;
    f->eager_glu = true;
}

START_TEST(eager_rope_glu_and_norm_cost_their_bytes)
{
    /* A Llama-style dense layer run without torch.compile (torchtitan's
     * model.py): RoPE on complex fp32 views 20 + 20 bytes per element of q
     * and k, SwiGLU as silu then product 4·F + 6·F more than the fused
     * kernel, RMSNorm as eager fp32 ops (workload eager_norm) 32·h + 54·h
     * more per norm, two norms a layer.  8 micro-batches of 2,048 tokens,
     * 4 layers, H100, no recompute; full recompute re-runs the forward. */
    ModelShape m = gpt(4, 1024, 8, 32000);
    m.glu = true;
    m.ffn_hidden = 2816;
    Workload w = training(m, 2048, 64, 1e9);
    w.gpus = 8;
    w.micro_batch = 1;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    double T = 2048, qk = T * (8 + 8) * 128, F = T * 2816, hn = T * 2 * 1024;
    double ew_bw = 3.35e12 * 0.70; /* H100 hbm_bw × elementwise_eff (catalog) */
    double plain = moe_compute_s(&w, fw_plain);
    double eager = moe_compute_s(&w, fw_eager_rope_glu);
    double want = 8 * 4 * ((20 + 20) * qk + (4 + 6) * F) / ew_bw;
    ck_assert_msg(fabs((eager - plain) / want - 1) < 1e-6, "rope + glu: added %.6f s, expected %.6f s",
                  eager - plain, want);
    w.eager_norm = true;
    double normed = moe_compute_s(&w, fw_plain);
    double want_n = 8 * 4 * (32 + 54) * hn / ew_bw;
    ck_assert_msg(fabs((normed - plain) / want_n - 1) < 1e-6, "norm: added %.6f s, expected %.6f s",
                  normed - plain, want_n);
    w.eager_norm = false;
    w.recompute = RECOMPUTE_FULL;
    double fp = moe_compute_s(&w, fw_plain), fe = moe_compute_s(&w, fw_eager_rope_glu);
    double want_f = want + 8 * 4 * (20 * qk + 4 * F) / ew_bw;
    ck_assert_msg(fabs((fe - fp) / want_f - 1) < 1e-6, "full recompute: added %.6f s, expected %.6f s",
                  fe - fp, want_f);
}
END_TEST

START_TEST(workload_fused_dispatch_key_is_the_framework_flag)
{
    /* A recipe that picks DeepEP/HybridEP (Megatron-Core flex dispatcher)
     * under a framework whose profile does not: the workload key has the
     * profile flag's effect, on the permute bytes and on the all-to-all
     * (EP64 over 8 nodes: a token crosses the fabric once per remote node
     * holding one of its experts).  A recipe that keeps the all-to-all
     * under a profile that fuses (moe_fused_dispatch: false) pays the
     * separate permutes; unset (auto) is the profile's choice. */
    Workload w = small_moe(64, 64);
    w.model.experts = 64;
    ck_assert_int_eq(w.moe_fused_dispatch, -1);
    double plain = moe_compute_s(&w, fw_plain);
    double by_fw = moe_compute_s(&w, fw_fused);
    w.moe_fused_dispatch = 1;
    double by_key = moe_compute_s(&w, fw_plain);
    ck_assert_msg(by_fw < plain, "fused %.6f s vs plain %.6f s", by_fw, plain);
    ck_assert_msg(fabs(by_key - by_fw) < 1e-12, "key %.9f s vs profile %.9f s", by_key, by_fw);
    w.moe_fused_dispatch = 0;
    double key_off = moe_compute_s(&w, fw_fused);
    ck_assert_msg(fabs(key_off - plain) < 1e-12, "key off %.9f s vs plain %.9f s", key_off, plain);
    load_catalog();
    Plan p;
    plan_init(&p);
    PlanResult *r;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    double a2a_plain = r->workloads[0].train.step.ep_comm;
    free(r);
    w.moe_fused_dispatch = 1;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    double a2a_fused = r->workloads[0].train.step.ep_comm;
    free(r);
    /* k = 2 of 64 experts over U = 8 nodes: 7·(1 − (7/8)²) = 1.6875 remote
     * nodes reached per token instead of 2·7/8 = 1.75 copies sent */
    ck_assert_msg(a2a_fused < a2a_plain, "EP a2a fused %.6f s vs %.6f s", a2a_fused, a2a_plain);
}
END_TEST

/* The expert all-to-all seconds of a 16-expert top-3 model on one node of
 * 4 H100 (EP4, 4 local experts a rank) under the megatron profile, with
 * the dispatch fused (DeepEP) or not and the routing learned or
 * round-robin (workload moe_round_robin). */
static double ep4_a2a(bool fused, bool round_robin)
{
    load_catalog();
    Workload w = training(glu_moe(4, 1024, 8, 2816, 16, 3, 512), 2048, 64, 1e9);
    w.gpus = 4;
    w.micro_batch = 1;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 4, .sp = 0};
    w.moe_fused_dispatch = fused ? 1 : 0;
    w.moe_round_robin = round_robin;
    WorkloadResult r = size_under(plain_megatron(), fw_plain, &w, "H100-SXM");
    ck_assert_msg(r.ok, "%s", r.error);
    return r.train.step.ep_comm;
}

/* A fused dispatch sends a token once to each rank holding one of its
 * experts and the combine returns one reduced row per rank (DeepEP's
 * is_token_in_rank layout), the all-to-all one copy per routed expert.
 * k = 3 of 16 experts on 4 ranks of 4: a token misses a rank with
 * probability C(12,3)/C(16,3) = 220/560, so it reaches 4·(1 − 220/560) =
 * 2.4286 ranks, not 3.  Round-robin routing (AutoModel's
 * fake_balanced_gate: token t's experts t·k … t·k + 2 mod 16) spans
 * 1 + (k − 1)/4 = 1.5 ranks on average over its 16 starts and loads every
 * rank evenly (imbalance 1, against 1 + sqrt(2 ln 4 / C) learned, C =
 * 2048·3 copies; the busiest rank waits for its share, latency included).
 * So the unfused run is imb × its round-robin twin, and what fusing
 * saves, per unit of imbalance, stands to what fusing saves under
 * round-robin routing as (3 − 2.4286) to (3 − 1.5): per-message latency
 * cancels in both differences. */
START_TEST(fused_dispatch_sends_a_token_once_per_rank_holding_its_experts)
{
    double imb = 1 + sqrt(2 * log(4.0) / (2048.0 * 3));
    double plain = ep4_a2a(false, false), fused = ep4_a2a(true, false);
    double rr_plain = ep4_a2a(false, true), rr = ep4_a2a(true, true);
    ck_assert_msg(fabs(plain / rr_plain / imb - 1) < 1e-9, "imbalance x%.6f, want %.6f",
                  plain / rr_plain, imb);
    double hit = 4 * (1 - 220.0 / 560.0);
    double got = (plain - fused) / (imb * (rr_plain - rr)), want = (3 - hit) / 1.5;
    ck_assert_msg(fabs(got / want - 1) < 1e-9, "fused saving learned / round-robin %.6f, want %.6f",
                  got, want);
    ck_assert_msg(fused < 0.9 * plain && rr < 0.75 * fused, "a2a %.6f / %.6f / %.6f s", plain,
                  fused, rr);
}
END_TEST

/* A fine-grained MoE (128 experts, 8 routed, Qwen3-30B-A3B's widths on 4
 * layers) on gpus GPUs with EP ep under framework fw ("" = megatron),
 * one micro-batch, no recompute: most of a token's copies leave its node
 * once ep spans nodes. */
static Workload fine_moe(int gpus, int ep, const char *fw)
{
    Workload w = training(glu_moe(4, 2048, 16, 6144, 128, 8, 768), 4096, 64, 1e9);
    snprintf(w.framework, sizeof w.framework, "%s", fw);
    w.gpus = gpus;
    w.micro_batch = 1;
    w.recompute = RECOMPUTE_NONE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = ep, .sp = 0};
    return w;
}

/* Which dispatcher a plan uses is worth the most of any MoE key across
 * nodes: a plan that leaves the framework's all-to-all is told what a
 * deduplicating one would take off this layout's step, the share its own
 * sizing with the key gives; a plan that sets it, or whose saving is under
 * 5 %, is not. */
START_TEST(unfused_dispatch_across_nodes_says_what_the_fused_one_saves)
{
    recipe_line_is_the_saving(fine_moe(16, 16, ""), "H100-SXM", choose_fused,
                              "deduplicating dispatcher",
                              "would take this layout's step %.0f%% lower");
    Plan p;
    plan_init(&p);
    PlanResult *r;
    /* one node, 2 of 16 experts: the fused path saves only the permute
     * passes, under 5 % of the step */
    Workload s = small_moe(8, 8);
    ck_assert(size(&p, &s, acc("H100-SXM"), &r));
    double plain = r->workloads[0].train.step_s;
    free(r);
    s.moe_fused_dispatch = 1;
    ck_assert(size(&p, &s, acc("H100-SXM"), &r));
    double fused = r->workloads[0].train.step_s;
    free(r);
    s.moe_fused_dispatch = 0;
    ck_assert(size(&p, &s, acc("H100-SXM"), &r));
    ck_assert_msg(fused >= 0.95 * plain, "fused %.4f s vs %.4f s", fused, plain);
    ck_assert(!has_assumption(r, "deduplicating dispatcher"));
    free(r);
}
END_TEST

/* The nemo profile dispatches by the flex dispatcher (DeepEP / HybridEP),
 * as today's Megatron-Bridge MoE recipes do (catalog frameworks.yaml): a
 * plan that names no dispatcher is sized with it and says so; one whose
 * recipe keeps the all-to-all (moe_fused_dispatch: false) pays the copies
 * and is told what the other would save. */
START_TEST(nemo_plans_dispatch_by_the_flex_dispatcher_unless_they_say_otherwise)
{
    load_catalog();
    Plan p;
    plan_init(&p);
    PlanResult *r;
    Workload w = fine_moe(16, 16, "nemo");
    double step[3];
    for (int v = -1; v <= 1; v++) {
        w.moe_fused_dispatch = v;
        ck_assert(size(&p, &w, acc("H100-SXM"), &r));
        step[v + 1] = r->workloads[0].train.step_s;
        ck_assert_msg(has_assumption(r, v < 0 ? "(DeepEP/HybridEP; nemo)" : v ? "(DeepEP/HybridEP; plan)"
                                                                       : "deduplicating dispatcher"),
                      "moe_fused_dispatch %d: no dispatcher line", v);
        free(r);
    }
    ck_assert_msg(step[0] == step[2], "auto %.4f s vs fused %.4f s", step[0], step[2]);
    ck_assert_msg(step[1] > 1.05 * step[2], "all-to-all %.4f s vs fused %.4f s", step[1], step[2]);
}
END_TEST

/* How a MoE run launches its kernels is a recipe choice as weighty as the
 * dispatcher: a dropless run launched from the host pays the profile's
 * fitted host costs every layer and micro-batch, a run replayed as
 * full-iteration CUDA graphs (cuda_graph_full) only their residual.  A plan
 * that leaves the graphs out is told what they would take off its step,
 * the share its own sizing with the key gives; one that sets them, or a
 * token-dropping run (no device-to-host sync, nothing to capture around),
 * is not. */
START_TEST(eager_moe_says_what_full_iteration_graphs_save)
{
    Workload w = fine_moe(8, 8, "nemo");
    recipe_line_is_the_saving(w, "GB200", choose_graphs, "replayed as full-iteration CUDA graphs",
                              "(cuda_graph_full: true) this layout's step would be %.0f%% lower");
    Plan p;
    plan_init(&p);
    PlanResult *r;
    w.moe_capacity_factor = 1.0;
    ck_assert(size(&p, &w, acc("GB200"), &r));
    ck_assert(!has_assumption(r, "replayed as full-iteration CUDA graphs"));
    free(r);
}
END_TEST

/* The third recipe choice a MoE plan is told about: all-to-alls left
 * exposed, where Megatron-Core's combined 1F1B (ep_overlap: 1 with the
 * experts' weight gradients deferred, as Megatron-Bridge's moe_a2a_overlap
 * sets them) would hide them under another micro-batch's compute; the
 * share is the plan's own sizing with those keys.  A plan that sets them,
 * or a framework whose schedule hides them (deepseek's DualPipe,
 * ep_overlap 1), is not told. */
START_TEST(exposed_all_to_alls_say_what_the_combined_1f1b_saves)
{
    Workload w = fine_moe(16, 16, "");
    recipe_line_is_the_saving(w, "H100-SXM", choose_overlap,
                              "Megatron-Core's combined 1F1B) this layout's step",
                              "combined 1F1B) this layout's step would be %.0f%% lower");
    Plan p;
    plan_init(&p);
    PlanResult *r;
    snprintf(w.framework, sizeof w.framework, "deepseek");
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    ck_assert(!has_assumption(r, "Megatron-Core's combined 1F1B) this layout's step"));
    free(r);
}
END_TEST

START_TEST(capacity_padded_moe_has_no_dropless_sync_and_pads_to_capacity)
{
    /* moe_capacity_factor (Megatron-Core --moe-expert-capacity-factor with
     * --moe-pad-expert-input-to-capacity): the split sizes are the capacity,
     * so the dropless per-layer host cost is not paid (the per-expert one
     * is), and every rank processes exactly cf x its even share instead of
     * the busiest rank's balls-into-bins maximum. */
    Workload w = small_moe(8, 8);
    double drop0 = moe_compute_s(&w, fw_plain);
    double dropl = moe_compute_s(&w, fw_layer_1ms);
    ck_assert_msg(fabs((dropl - drop0) - 8 * 4 * 3 * 1e-3) < 1e-9, "dropless sync %.6f s",
                  dropl - drop0);
    w.moe_capacity_factor = 1.0;
    double cap0 = moe_compute_s(&w, fw_plain);
    double capl = moe_compute_s(&w, fw_layer_1ms);
    double cape = moe_compute_s(&w, fw_expert_100us);
    ck_assert_msg(fabs(capl - cap0) < 1e-12, "padded run pays the sync: %.9f s", capl - cap0);
    ck_assert_msg(fabs((cape - cap0) - 8 * 4 * 3 * 2 * 100e-6) < 1e-9, "per expert: %.6f s",
                  cape - cap0);
    /* cf 1 with forced-balanced routing: no straggler rank, less than dropless */
    ck_assert_msg(cap0 < drop0, "cf 1 %.6f s vs dropless %.6f s", cap0, drop0);
    /* cf 2 pads every expert to twice its share: slower than cf 1 and than
     * dropless (whose busiest rank holds 1 + sqrt(2 ln 8 / 4096) ~ 1.03) */
    w.moe_capacity_factor = 2.0;
    double cap2 = moe_compute_s(&w, fw_plain);
    ck_assert_msg(cap2 > drop0 && cap2 > cap0, "cf 2 %.6f s vs dropless %.6f s, cf 1 %.6f s",
                  cap2, drop0, cap0);
    /* a dense model ignores the key */
    Workload d = small_moe(8, 1);
    d.model.experts = 1;
    d.model.experts_per_token = 1;
    double dense = moe_compute_s(&d, fw_plain);
    d.moe_capacity_factor = 2.0;
    ck_assert_msg(fabs(moe_compute_s(&d, fw_plain) - dense) < 1e-12, "dense model changed");
}
END_TEST

START_TEST(combined_1f1b_exposes_the_partners_deferred_wgrad_host_work)
{
    /* EP overlap (Megatron-Core combined 1F1B) with deferred weight
     * gradients (--delay-wgrad-compute) issues the partner micro-batch's
     * expert weight-gradient GEMMs after the forward's dropless sync, with
     * only the partner's MLP dgrad queued on the GPU
     * (TransformerLayerSchedulePlan.run, core_v0.15.0): one more
     * pass of the per-layer host cost, less that dgrad, on every micro-batch
     * the schedule pairs (without pipelining all but the first forward and
     * the last backward: 8 - 1 of 8), 4 MoE layers each. */
    Workload w = small_moe(8, 8);
    double c0 = moe_compute_s(&w, fw_plain);
    double cl = moe_compute_s(&w, fw_layer_1ms);
    ck_assert_msg(fabs((cl - c0) - 8 * 4 * 3 * 1e-3) < 1e-9, "no overlap %.6f s", cl - c0);
    w.ep_overlap = 1;
    /* weight gradients inside the MLP backward: issued before the wait */
    double n0 = moe_compute_s(&w, fw_plain);
    double nl = moe_compute_s(&w, fw_layer_1ms);
    ck_assert_msg(fabs((nl - n0) - 8 * 4 * 3 * 1e-3) < 1e-9, "undelayed wgrad %.6f s", nl - n0);
    w.delay_wgrad_compute = true;
    double o0 = moe_compute_s(&w, fw_plain);
    double ol = moe_compute_s(&w, fw_layer_1ms);
    double pair = (ol - o0) - 8 * 4 * 3 * 1e-3;
    /* this model's expert dgrad (2,048 tokens x 2 experts, h 1,024, Fe 512)
     * takes tens of microseconds on an H100: most of the 1 ms is exposed */
    ck_assert_msg(pair > 7 * 4 * 0.9e-3 && pair < 7 * 4 * 1e-3, "paired host work %.6f s", pair);
    /* no host cost, nothing to expose */
    ck_assert_msg(o0 >= c0 - 1e-12, "overlap without host cost %.6f vs %.6f s", o0, c0);
    /* token drop padded to capacity: no sync, no pairing cost */
    w.moe_capacity_factor = 1.0;
    ck_assert_msg(fabs(moe_compute_s(&w, fw_layer_1ms) - moe_compute_s(&w, fw_plain)) < 1e-12,
                  "padded run pays the sync");
}
END_TEST

/* memory of w on `acc_id` under the catalog's megatron profile changed by f */
static TrainMemory memory_under(Workload *w, const char *acc_id, void (*change)(Framework *))
{
    load_catalog();
    WorkloadResult r = size_under(plain_megatron(), change, w, acc_id);
    ck_assert_msg(r.ok, "%s", r.error);
    return r.train.mem;
}

static void fw_whole_program(Framework *f) { f->whole_program_buffers = true; }

START_TEST(whole_program_buffers_free_logits_before_recompute_and_skip_allocator_slack)
{
    /* One XLA program (MaxText): the fp32 logits are dead before the
     * backward recomputes a layer, so the peak holds the larger of the
     * two, not both; and no CUDA context / caching-allocator allowance
     * (1 GiB + 5 %) sits beside the compiler-placed buffers.  Full
     * recompute, ZeRO-1 (no gathered-weight prefetch in `other`), one
     * stage, on a TPU v6e. */
    ModelShape m = gpt(8, 2048, 16, 128000);
    Workload w = training(m, 4096, 16, 1e9);
    w.gpus = 8;
    w.micro_batch = 2;
    w.zero = 1;
    w.recompute = RECOMPUTE_FULL;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    TrainMemory plain = memory_under(&w, "TPU-v6e", fw_plain);
    TrainMemory whole = memory_under(&w, "TPU-v6e", fw_whole_program);
    double logits = 4.0 * 4096 * 2 * 128000;
    double work = train_activation_bytes(&w.model, 4096, 2, 1, 1, false, RECOMPUTE_NONE,
                                         w.flash_attention);
    ck_assert(work > 0 && logits > work); /* the logits phase is the peak here */
    ck_assert_msg(rel(plain.activations - whole.activations, work) < 1e-9,
                  "held apart %.3f GiB, recompute working set %.3f GiB",
                  (plain.activations - whole.activations) / 1073741824.0, work / 1073741824.0);
    ck_assert_msg(whole.other == 0, "other %.3f GiB", whole.other / 1073741824.0);
    double states = plain.weights + plain.gradients + plain.optimizer;
    ck_assert(rel(plain.other, 1073741824.0 + 0.05 * (states + plain.activations)) < 1e-9);
    ck_assert(rel(whole.total, states + whole.activations) < 1e-9);
}
END_TEST

static void fw_logits_2(Framework *f) { f->logits_bytes = 2; }

/* Transformer Engine's parallel_cross_entropy (Megatron-Bridge's performance
 * recipes: cross_entropy_fusion_impl "te") keeps the 16-bit logits and writes
 * the gradient into them: 2 bytes per logit instead of an fp32 softmax.
 * One stage (it is the last), 8 K tokens × 2 sequences × 128 K vocab. */
START_TEST(fused_cross_entropy_keeps_16_bit_logits_instead_of_fp32)
{
    ModelShape m = gpt(8, 2048, 16, 128000);
    Workload w = training(m, 4096, 16, 1e9);
    w.gpus = 8;
    w.micro_batch = 2;
    w.zero = 1;
    w.recompute = RECOMPUTE_SELECTIVE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    TrainMemory plain = memory_under(&w, "H100-SXM", fw_plain);
    TrainMemory te = memory_under(&w, "H100-SXM", fw_logits_2);
    double saved = 2.0 * 4096 * 2 * 128000;
    ck_assert_msg(rel(plain.activations - te.activations, saved) < 1e-9, "%.4g vs %.4g",
                  plain.activations - te.activations, saved);
}
END_TEST

static void fw_remat_dce(Framework *f) { f->remat_dce = true; }

START_TEST(remat_dce_skips_the_mlp_down_projection_in_full_recompute)
{
    /* JAX's jax.checkpoint re-computes only what the backward consumes: the
     * MLP's fc2, whose output only feeds the residual stream, is not re-run.
     * GPT shape (F = 4h, no GLU), TP1, every GEMM's narrowest side h: fc2 is
     * 4 of the layer's 12 h² GEMM FLOPs, so the re-run forward loses a
     * third of its GEMM time — a bit less than a third of the whole forward
     * (the attention core and element-wise work stay). */
    ModelShape m = gpt(8, 4096, 32, 32000);
    Workload w = training(m, 2048, 16, 1e9);
    w.gpus = 8;
    w.micro_batch = 2;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    w.recompute = RECOMPUTE_NONE;
    double none = moe_compute_s(&w, fw_plain);
    ck_assert(fabs(moe_compute_s(&w, fw_remat_dce) - none) < 1e-12);
    w.recompute = RECOMPUTE_SELECTIVE;
    double sel = moe_compute_s(&w, fw_plain);
    ck_assert(fabs(moe_compute_s(&w, fw_remat_dce) - sel) < 1e-12);
    w.recompute = RECOMPUTE_FULL;
    double full = moe_compute_s(&w, fw_plain);
    double dce = moe_compute_s(&w, fw_remat_dce);
    double saved = 1.0 - (dce - none) / (full - none); /* share of the re-run forward */
    ck_assert_msg(saved > 0.25 && saved <= 1.0 / 3.0 + 1e-9, "re-run forward %.4f shorter",
                  saved);
}
END_TEST

static void fw_sel_core(Framework *f) { f->selective_reruns_attention = true; }

START_TEST(selective_reruns_attention_adds_one_flash_core_forward)
{
    /* MaxText's remat_policy minimal keeps only weight-GEMM outputs: the
     * flash kernel's forward is re-run in the backward.  Per layer and
     * micro-batch that is one more attention core, its causal half of
     * T·s·core_coef FLOPs at FlashAttention-2's measured forward share on
     * H100 (attn_fa2_fwd_eff), slowed to its rate at 1,024 keys a block
     * (model/train.c layer_cost); GPT shape on one H100, 8 layers, 8
     * micro-batches of 2 × 2048. */
    ModelShape m = gpt(8, 4096, 32, 32000);
    Workload w = training(m, 2048, 16, 1e9);
    w.gpus = 1;
    w.micro_batch = 2;
    w.flash_attention = true;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    w.recompute = RECOMPUTE_FULL;
    ck_assert(fabs(moe_compute_s(&w, fw_sel_core) - moe_compute_s(&w, fw_plain)) < 1e-12);
    w.recompute = RECOMPUTE_SELECTIVE;
    double plain = moe_compute_s(&w, fw_plain);
    double rerun = moe_compute_s(&w, fw_sel_core);
    const Accelerator *a = acc("H100-SXM");
    double T = 2.0 * 2048, coef = 2.0 * 32 * (128 + 128);
    double core = 0.5 * T * 2048 * coef / (a->peak_flops[PREC_BF16] * a->attn_fa2_fwd_eff) /
                  accelerator_attn_seq_factor(a, 1024);
    ck_assert_msg(rel(rerun - plain, 8 * 8 * core) < 1e-6, "re-run %.6f s, one core pass %.6f s",
                  rerun - plain, 8 * 8 * core);
}
END_TEST

START_TEST(selective_reruns_attention_keeps_only_weight_gemm_outputs)
{
    /* MaxText's remat minimal keeps per layer the input (2), Q, K, V (2
     * each), the attention projection's output (2) and the MLP's first GEMM
     * output (2·F/h = 8): 18 s·b·h bytes for a GPT layer (a·dh = h, F = 4h),
     * where Megatron-Core's selective with FlashAttention keeps 22 (block
     * inputs and dropout masks 6, Q, K, V and the projection input 8, fc1
     * output 8).  One stage, TP1, ZeRO-1; the last stage's fp32 logits
     * 4·s·b·V on top. */
    ModelShape m = gpt(8, 2048, 16, 32000);
    Workload w = training(m, 2048, 16, 1e9);
    w.gpus = 8;
    w.micro_batch = 2;
    w.zero = 1;
    w.flash_attention = true;
    w.recompute = RECOMPUTE_SELECTIVE;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .ep = 1, .sp = 0};
    TrainMemory dots = memory_under(&w, "TPU-v5p", fw_sel_core);
    TrainMemory plain = memory_under(&w, "TPU-v5p", fw_plain);
    double sbh = 2048.0 * 2 * 2048, logits = 4.0 * 2048 * 2 * 32000;
    ck_assert_msg(rel(dots.activations, 8 * 18 * sbh + logits) < 1e-9, "dots-only %.4f GiB",
                  dots.activations / 1073741824.0);
    ck_assert_msg(rel(plain.activations, 8 * 22 * sbh + logits) < 1e-9, "selective %.4f GiB",
                  plain.activations / 1073741824.0);
}
END_TEST

/* Llama 3 70B at 8K tokens under the nemo profile, 16-bit (the tests
 * below set the precision and layout they compare). */
static Workload llama70b_nemo(Plan *p, int global_batch, double tokens)
{
    plan_init(p);
    const ModelPreset *pr = preset_find("llama-3-70b");
    ck_assert_ptr_nonnull(pr);
    Workload w = training(pr->shape, 8192, global_batch, tokens);
    snprintf(w.framework, sizeof w.framework, "nemo");
    return w;
}

START_TEST(fp8_speedup_over_bf16_is_between_published_ratios)
{
    /* Published FP8/BF16 step ratios of tuned NeMo recipes: 1.25-1.53x
     * (issue 11); FP8 casts and the BF16 attention core keep it well below
     * the 2x of the peaks. */
    Plan p;
    Workload w = llama70b_nemo(&p, 128, 1e12);
    w.gpus = 64;
    w.micro_batch = 1;
    w.parallel = (ParallelSpec){.tp = 4, .pp = 8, .vpp = 5, .cp = 1, .ep = 1, .sp = 1};
    w.recompute = RECOMPUTE_SELECTIVE;
    PlanResult *r;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    double bf16 = r->workloads[0].train.step_s;
    free(r);
    w.precision = PREC_FP8;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    double fp8 = r->workloads[0].train.step_s;
    free(r);
    ck_assert_msg(bf16 / fp8 > 1.2 && bf16 / fp8 < 1.6, "FP8 speed-up %.2fx", bf16 / fp8);
}
END_TEST

START_TEST(error_band_brackets_step_days_hours_and_gpus)
{
    Plan p;
    Workload w = llama70b_nemo(&p, 1024, 2e12);
    w.precision = PREC_FP8;
    w.target_days = 30;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    ck_assert_str_eq(t->band_class, "hopper/dense/fp8");
    ck_assert_int_gt(t->band_runs, 0);
    ck_assert(t->step_s_low < t->step_s && t->step_s < t->step_s_high);
    ck_assert(t->train_days_low < t->train_days && t->train_days < t->train_days_high);
    ck_assert(t->gpu_hours_low < t->gpu_hours && t->gpu_hours < t->gpu_hours_high);
    ck_assert(rel(t->train_days_high / t->train_days, t->step_s_high / t->step_s) < 1e-9);
    ck_assert_int_le(t->gpus_low, t->gpus);
    ck_assert_int_ge(t->gpus_high, t->gpus);
    ck_assert_int_eq(t->gpus_high % 8, 0);
    free(r);
}
END_TEST

/* A step that is mostly attention (a long sequence: the attention core at
 * least half the model FLOPs, train_attn_flop_share) takes its class's
 * "/long" band, the error of the validation set's attention-bound runs,
 * which the GEMM-bound runs of the class do not describe (its long-context
 * CP runs are modelled up to 26 % too fast, and set the class's slow end
 * for every plan while they shared its band);
 * a catalog whose bands do not separate them gives the class's own. */
START_TEST(attention_bound_step_takes_its_classs_long_band)
{
    Plan p;
    Workload w = fsdp_llama3_8b(PREC_FP8);
    plan_init(&p);
    snprintf(w.framework, sizeof w.framework, "nemo");
    w.zero = 1;
    w.recompute = RECOMPUTE_FULL;
    w.global_batch = 8;
    ck_assert(train_attn_flop_share(&w.model, 8192) < TRAIN_ATTN_BOUND);
    ck_assert(train_attn_flop_share(&w.model, 131072) >= TRAIN_ATTN_BOUND);
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
    ck_assert_str_eq(r->workloads[0].train.band_class, "hopper/dense/fp8");
    free(r);
    w.seq_len = 131072;
    w.parallel.cp = 4;
    ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
    TrainResult t = r->workloads[0].train;
    free(r);
    ck_assert_str_eq(t.band_class, "hopper/dense/fp8/long");
    const ErrorBand *lb = catalog_find_band(&cat, "hopper/dense/fp8/long");
    const ErrorBand *cb = catalog_find_band(&cat, "hopper/dense/fp8");
    ck_assert_ptr_nonnull(lb);
    ck_assert_ptr_nonnull(cb);
    ck_assert_int_eq(t.band_runs, lb->runs);
    ck_assert(rel(t.step_s_high, t.step_s * (1 + lb->high)) < 1e-12);
    ck_assert_msg(lb->high > cb->high, "long %+.3f, class %+.3f", lb->high, cb->high);
    /* a catalog without the "/long" row */
    Catalog tmp;
    ck_assert(calib_catalog_with(&cat, catalog_find_framework(&cat, "nemo"), &tmp));
    for (size_t i = 0; i < tmp.n_bands; i++)
        if (strcmp(tmp.bands[i].id, "hopper/dense/fp8/long") == 0)
            snprintf(tmp.bands[i].id, sizeof tmp.bands[i].id, "gone");
    r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    ck_assert(train_size(&p, &w, acc("H100-SXM"), &tmp, &r->workloads[0], r));
    ck_assert_str_eq(r->workloads[0].train.band_class, "hopper/dense/fp8");
    ck_assert_int_eq(r->workloads[0].train.band_runs, cb->runs);
    free(r);
    calib_catalog_free(&tmp);
}
END_TEST

/* The hardware FLOP utilisation printed in the assumptions, in percent
 * (-1 if none). */
static double hfu_of(const PlanResult *r)
{
    static const char key[] = "hardware FLOP utilisation ";
    for (int i = 0; i < r->n_assumptions; i++) {
        const char *p = strstr(r->assumptions[i].text, key);
        if (p)
            return strtod(p + sizeof key - 1, NULL);
    }
    return -1;
}

/* A preset's training run of `batch` sequences of `seq` tokens under a
 * framework, everything else the plan's defaults. */
static Workload preset_run(const char *preset, int seq, int batch, double tokens,
                           const char *framework)
{
    const ModelPreset *pr = preset_find(preset);
    ck_assert_ptr_nonnull(pr);
    Workload w = training(pr->shape, seq, batch, tokens);
    snprintf(w.framework, sizeof w.framework, "%s", framework);
    return w;
}

/* The MFU follows Megatron's FLOP count, whose attention core is the whole
 * s×s square; the fused kernels run its causal half.  At 128K tokens a
 * sequence the core is most of a 1B model's FLOPs on A100: the MFU reads
 * near or past 1 and the assumptions say why, while the hardware FLOP
 * utilisation (what the kernels execute, recompute included) stays below
 * the peak — it read 105 % when it counted the whole square. */
START_TEST(long_sequence_mfu_says_it_counts_the_whole_attention_square)
{
    Plan p;
    plan_init(&p);
    Workload w = preset_run("llama-3.2-1b", 131072, 2048, 1e12, "megatron");
    w.zero = 1;
    w.recompute = RECOMPUTE_NONE;
    w.gpus = 96;
    w.micro_batch = 1;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 3, .vpp = 1, .cp = 4, .ep = 1};
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("A100-80GB"), &r), "%s", r->workloads[0].error);
    double mfu = r->workloads[0].train.mfu, hfu = hfu_of(r);
    ck_assert_msg(mfu > 0.9, "MFU %.3f", mfu);
    ck_assert_msg(hfu > 40 && hfu < 80, "HFU %.1f %%", hfu);
    ck_assert(has_assumption(r, "counts the attention core's whole s×s score matrix"));
    free(r);
    /* at 2K the core is a small share: no such line, and the executed
     * FLOPs (no recompute) are the model's but half the core's */
    w.seq_len = 2048;
    w.gpus = 64;
    ck_assert(train_attn_flop_share(&w.model, 2048) < 0.25);
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1};
    ck_assert_msg(size(&p, &w, acc("A100-80GB"), &r), "%s", r->workloads[0].error);
    mfu = r->workloads[0].train.mfu;
    hfu = hfu_of(r);
    ck_assert(!has_assumption(r, "whole s×s score matrix"));
    ck_assert_msg(hfu < 100 * mfu && hfu > 100 * mfu * 0.85, "MFU %.3f, HFU %.1f %%", mfu, hfu);
    free(r);
}
END_TEST

/* Where nothing fits on the GPU, a framework that can keep activations in
 * host memory (frameworks.yaml activation_offload) offloads some rather
 * than answer "no layout fits": MaxText's Llama 3.1 8B on 8 TPU v6e at
 * 3 sequences a chip (tpu-recipes: step 3.443 s, every decoder layer's
 * input offloaded) keyed without offload_layers is sized with the
 * offload, within 5 % of the published step, and says so; torchtitan,
 * which cannot, still says nothing fits; a plan's own offload_layers is
 * left as it is. */
START_TEST(nothing_fits_so_a_framework_that_can_offloads)
{
    Plan p;
    plan_init(&p);
    Workload w = training(preset_find("llama-3-8b")->shape, 8192, 24, 1e12);
    snprintf(w.framework, sizeof w.framework, "maxtext");
    w.gpus = 8;
    w.micro_batch = 3;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1};
    const Accelerator *v6e = acc("TPU-v6e");
    PlanResult *r;
    ck_assert_msg(size(&p, &w, v6e, &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    ck_assert_int_gt(t->offload_layers, 0);
    ck_assert(t->offload_auto);
    ck_assert_msg(fabs(t->step_s / 3.443 - 1) < 0.05, "%.3f s", t->step_s);
    ck_assert(t->mem.total <= t->hbm_bytes);
    ck_assert(has_assumption(r, "no layout fits on the GPU without, and the plan leaves "
                                "offload_layers unset"));
    int chosen = t->offload_layers;
    free(r);
    /* the plan's own count: kept, and no claim that the search chose it */
    w.offload_layers = 32;
    ck_assert_msg(size(&p, &w, v6e, &r), "%s", r->workloads[0].error);
    ck_assert_int_eq(r->workloads[0].train.offload_layers, 32);
    ck_assert(!r->workloads[0].train.offload_auto);
    ck_assert(!has_assumption(r, "offload_layers unset"));
    ck_assert(chosen <= 32);
    free(r);
    /* a framework that cannot offload: nothing fits */
    w.offload_layers = 0;
    snprintf(w.framework, sizeof w.framework, "torchtitan-compile");
    ck_assert(!catalog_find_framework(&cat, "torchtitan-compile")->activation_offload);
    ck_assert(!size(&p, &w, v6e, &r));
    ck_assert_msg(strstr(r->workloads[0].error, "no layout fits") &&
                      !strstr(r->workloads[0].error, "offloaded"),
                  "%s", r->workloads[0].error);
    free(r);
    /* where even the weights do not fit, the error says offload was tried */
    Workload big = w;
    big.model = preset_find("llama-3-70b")->shape;
    snprintf(big.framework, sizeof big.framework, "maxtext");
    ck_assert(!size(&p, &big, v6e, &r));
    ck_assert_msg(strstr(r->workloads[0].error, "no layout fits") &&
                      strstr(r->workloads[0].error, ", nor with activations offloaded to host "
                                                    "memory"),
                  "%s", r->workloads[0].error);
    free(r);
    /* sized for a target instead of a count: the same fallback (24
     * sequences of 3 a chip on an unsharded-model layout: at most 8 chips,
     * none of which fits without the offload) */
    snprintf(w.framework, sizeof w.framework, "maxtext");
    w.gpus = 0;
    w.target_days = 3650;
    ck_assert_msg(size(&p, &w, v6e, &r), "%s", r->workloads[0].error);
    ck_assert_int_le(r->workloads[0].train.gpus, 8);
    ck_assert(r->workloads[0].train.offload_auto);
    free(r);
}
END_TEST

/* Megatron-Bridge's Llama 3 70B FP8 recipe on 64 GB200 (26.04.01 table:
 * 4,224 tokens/s/GPU, a 7.757 s step) runs Megatron FSDP at TP1 PP1 with
 * 40 of 80 layers' activations offloaded.  Keyed as the table prints it
 * (the layout, micro-batch 2, zero and offload left auto), nemo's default
 * distributed optimizer fits nowhere (its fp32 gradients alone are 280
 * GB), so the search shards fully (frameworks.yaml dp_sharding_fallback)
 * and weighs offload against recompute: within 5 % of the published
 * step, and it says so.  Pipelined, the same plan keeps ZeRO-1; a plan's
 * own zero is left as it is; a framework without the fallback (megatron's
 * profile has it, torchtitan shards fully already, nxd has none) says no
 * layout fits; a target instead of a count takes the same fallback. */
START_TEST(nothing_fits_with_the_default_sharding_so_the_framework_shards_further)
{
    Plan p;
    plan_init(&p);
    Workload w = training(preset_find("llama-3-70b")->shape, 8192, 256, 1e12);
    snprintf(w.framework, sizeof w.framework, "nemo");
    w.precision = PREC_FP8;
    w.gpus = 64;
    w.micro_batch = 2;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1};
    const Accelerator *gb200 = acc("GB200");
    ck_assert_int_eq(framework_zero(&cat, "nemo", NULL), 1);
    ck_assert_int_eq(framework_zero_fallback(&cat, "nemo"), 3);
    PlanResult *r;
    ck_assert_msg(size(&p, &w, gb200, &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    ck_assert_int_eq(t->zero, 3);
    ck_assert(t->zero_fallback);
    ck_assert_int_gt(t->offload_layers, 0);
    ck_assert(t->offload_auto);
    ck_assert_msg(fabs(t->step_s / 7.757 - 1) < 0.05, "%.3f s", t->step_s);
    ck_assert(t->mem.total <= t->hbm_bytes);
    ck_assert(has_assumption(r, "no layout fits with nemo's default (ZeRO-1"));
    ck_assert(has_assumption(r, "weighs offloading"));
    free(r);
    /* the plan's own stage: kept, nothing fits */
    Workload z1 = w;
    z1.zero = 1;
    ck_assert(!size(&p, &z1, gb200, &r));
    ck_assert_msg(strstr(r->workloads[0].error, "no layout fits") &&
                      !strstr(r->workloads[0].error, "ZeRO-3"),
                  "%s", r->workloads[0].error);
    free(r);
    /* pipelined: the default's stage (DeepSpeed refuses ZeRO-2/3 with a
     * pipeline; Megatron-Bridge runs Megatron FSDP unpipelined only): 405B
     * at TP1 PP2 fits keyed zero 3, not left to the fallback */
    Workload pp = w;
    pp.model = preset_find("llama-3-405b")->shape;
    pp.parallel.pp = 2;
    pp.micro_batch = 1;
    ck_assert(!size(&p, &pp, gb200, &r));
    ck_assert_msg(strstr(r->workloads[0].error, ", nor with ZeRO-3"), "%s",
                  r->workloads[0].error);
    free(r);
    pp.zero = 3;
    ck_assert_msg(size(&p, &pp, gb200, &r), "%s", r->workloads[0].error);
    ck_assert(!r->workloads[0].train.zero_fallback);
    free(r);
    /* a framework with no fallback: nothing fits, said without one */
    Workload nx = w;
    snprintf(nx.framework, sizeof nx.framework, "nxd");
    ck_assert_int_lt(framework_zero_fallback(&cat, "nxd"), 0);
    ck_assert(!size(&p, &nx, gb200, &r));
    ck_assert_msg(strstr(r->workloads[0].error, "no layout fits") &&
                      !strstr(r->workloads[0].error, "ZeRO-"),
                  "%s", r->workloads[0].error);
    free(r);
    /* sized for a target instead of a count: the same fallback */
    Workload tg = w;
    tg.gpus = 0;
    tg.target_days = 3650;
    ck_assert_msg(size(&p, &tg, gb200, &r), "%s", r->workloads[0].error);
    ck_assert_int_eq(r->workloads[0].train.zero, 3);
    ck_assert(r->workloads[0].train.zero_fallback);
    free(r);
}
END_TEST

/* Megatron-DeepSpeed's recipes checkpoint whole layers (frameworks.yaml
 * recompute_default full; full_recompute_only).  MT-NLG's layout at
 * micro-batch 1 fits without recompute, yet left to choose it runs full,
 * as the paper's run did (within 5 % of its 60.1 s; without the default
 * the model kept every activation and was 23 % fast) and says why.  With
 * no default, the search still has no selective: at micro-batch 4, where
 * keeping everything does not fit, it recomputes full layers where
 * Megatron-LM recomputes selectively.  Asking for selective is refused. */
START_TEST(deepspeed_left_to_choose_recomputes_whole_layers)
{
    Plan p;
    plan_init(&p);
    ModelShape m = {.layers = 105, .hidden = 20480, .ffn_hidden = 81920, .heads = 128,
                    .kv_heads = 128, .vocab = 50272, .tied_embeddings = true, .experts = 1,
                    .experts_per_token = 1};
    Workload w = training(m, 2048, 1920, 270e9);
    snprintf(w.framework, sizeof w.framework, "deepspeed");
    w.gpus = 2240;
    w.micro_batch = 1;
    w.zero = 1;
    w.parallel = (ParallelSpec){.tp = 8, .pp = 35, .cp = 1, .sp = 1};
    const Accelerator *a100 = acc("A100-80GB");
    Framework *ds = (Framework *)catalog_find_framework(&cat, "deepspeed");
    ck_assert(ds && ds->full_recompute_only);
    ck_assert_str_eq(ds->recompute_default, "full");
    PlanResult *r;
    ck_assert_msg(size(&p, &w, a100, &r), "%s", r->workloads[0].error);
    ck_assert_int_eq(r->workloads[0].train.layout.recompute, RECOMPUTE_FULL);
    ck_assert_msg(fabs(r->workloads[0].train.step_s / 60.1 - 1) < 0.05, "%.2f s",
                  r->workloads[0].train.step_s);
    ck_assert(has_assumption(r, "recompute full: the plan leaves recompute auto, and "
                                "deepspeed's recipes run it (frameworks.yaml recompute_default)"));
    free(r);
    /* a recompute key chooses another: none fits at micro-batch 1 */
    w.recompute = RECOMPUTE_NONE;
    ck_assert_msg(size(&p, &w, a100, &r), "%s", r->workloads[0].error);
    ck_assert(!has_assumption(r, "recompute_default"));
    free(r);

    /* the profile without its default: the search has no selective */
    char saved[sizeof ds->recompute_default];
    memcpy(saved, ds->recompute_default, sizeof saved);
    ds->recompute_default[0] = '\0';
    w.recompute = RECOMPUTE_AUTO;
    w.micro_batch = 4;
    bool ok = size(&p, &w, a100, &r);
    Recompute got = r->workloads[0].train.layout.recompute;
    free(r);
    memcpy(ds->recompute_default, saved, sizeof saved);
    ck_assert(ok);
    ck_assert_int_eq(got, RECOMPUTE_FULL);
    /* the same layout under Megatron-LM, which can, recomputes selectively */
    snprintf(w.framework, sizeof w.framework, "megatron");
    ck_assert_msg(size(&p, &w, a100, &r), "%s", r->workloads[0].error);
    ck_assert_int_eq(r->workloads[0].train.layout.recompute, RECOMPUTE_SELECTIVE);
    free(r);
    snprintf(w.framework, sizeof w.framework, "deepspeed");
    w.recompute = RECOMPUTE_SELECTIVE;
    ck_assert(!size(&p, &w, a100, &r));
    ck_assert_msg(strstr(r->workloads[0].error, "framework 'deepspeed' has no selective "
                                                "recompute"), "%s", r->workloads[0].error);
    free(r);
}
END_TEST

/* A framework with no calibration on the accelerator (no
 * "deepspeed@H100-SXM" row, nor one on the same silicon) is predicted on
 * its profile's multipliers as given; its band is the one the set's runs
 * give when each is predicted without its own calibration, and the plan
 * says so.  The validation set measures that band wider than the class's
 * calibrated one (gpuplan calibrate --bands). */
START_TEST(uncalibrated_framework_takes_the_uncalibrated_band)
{
    Plan p;
    Workload w = llama70b_nemo(&p, 1024, 2e12);
    w.gpus = 512;
    w.precision = PREC_FP8;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
    TrainResult cal = r->workloads[0].train;
    ck_assert(!has_assumption(r, "has no calibration"));
    free(r);
    ck_assert_str_eq(cal.band_class, "hopper/dense/fp8");

    snprintf(w.framework, sizeof w.framework, "deepspeed");
    ck_assert_ptr_null(catalog_find_framework(&cat, "deepspeed@H100-SXM"));
    ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
    const TrainResult *t = &r->workloads[0].train;
    ck_assert_str_eq(t->band_class, "uncalibrated/hopper/dense/fp8");
    const ErrorBand *u = catalog_find_band(&cat, "uncalibrated/hopper/dense/fp8");
    const ErrorBand *c = catalog_find_band(&cat, "hopper/dense/fp8");
    ck_assert_ptr_nonnull(u);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(t->band_runs, u->runs);
    ck_assert(rel(t->step_s_low, t->step_s * (1 + u->low)) < 1e-12);
    ck_assert(rel(t->step_s_high, t->step_s * (1 + u->high)) < 1e-12);
    ck_assert_msg(u->high - u->low > c->high - c->low, "uncalibrated %.3f..%.3f, class %.3f..%.3f",
                  u->low, u->high, c->low, c->high);
    ck_assert(has_assumption(r, "deepspeed has no calibration on H100-SXM: its profile's "
                                "multipliers as given; the band is the set's runs each "
                                "predicted without its own calibration"));
    free(r);

    /* the default profile on A100: its curves were calibrated with it
     * (frameworks.yaml curves_calibrated_on), no row needed */
    w.framework[0] = '\0';
    w.precision = PREC_BF16;
    ck_assert_msg(size(&p, &w, acc("A100-80GB"), &r), "%s", r->workloads[0].error);
    ck_assert_str_eq(r->workloads[0].train.band_class, "ampere/dense/bf16");
    ck_assert(!has_assumption(r, "has no calibration"));
    free(r);
    w.precision = PREC_FP8;

    /* a class the uncalibrated runs do not cover takes their whole range */
    snprintf(w.framework, sizeof w.framework, "fsdp");
    ck_assert_ptr_null(catalog_find_band(&cat, "uncalibrated/trainium/dense/fp8"));
    ck_assert_msg(size(&p, &w, acc("Trainium"), &r), "%s", r->workloads[0].error);
    ck_assert_str_eq(r->workloads[0].train.band_class, "uncalibrated");
    free(r);
}
END_TEST

START_TEST(rejects_zero_tokens)
{
    Plan p;
    plan_init(&p);
    Workload w = training(llama405(), 8192, 2048, 0);
    w.gpus = 1024;
    PlanResult *r;
    ck_assert(!size(&p, &w, acc("H100-SXM"), &r));
    ck_assert(strstr(r->workloads[0].error, "tokens") != NULL);
    free(r);
}
END_TEST

START_TEST(rejects_batch_that_no_layout_divides)
{
    Plan p;
    plan_init(&p);
    Workload w = training(gpt(24, 2048, 16, 51200), 2048, 7, 1e9);
    w.gpus = 16;
    w.parallel = (ParallelSpec){.tp = 1, .pp = 1, .cp = 1, .sp = 0};
    PlanResult *r;
    ck_assert(!size(&p, &w, acc("H100-SXM"), &r));
    ck_assert_msg(strstr(r->workloads[0].error, "divide") != NULL, "%s", r->workloads[0].error);
    ck_assert(r->workloads[0].train.rejected_indivisible > 0);
    free(r);
}
END_TEST

START_TEST(rejects_model_that_fits_no_layout_with_best_memory)
{
    Plan p;
    plan_init(&p);
    Workload w = training(llama405(), 8192, 64, 1e12);
    w.gpus = 8;
    PlanResult *r;
    ck_assert(!size(&p, &w, acc("A100-40GB"), &r));
    const char *e = r->workloads[0].error;
    ck_assert_msg(strstr(e, "fits") != NULL && strstr(e, "GiB") != NULL, "%s", e);
    ck_assert(r->workloads[0].train.rejected_no_fit > 0);
    free(r);
}
END_TEST

/* A fixed count puts every GPU in the layout, so a count the global batch
 * does not split over can be slower than a smaller one: Llama 3 70B, seq
 * 8192, batch 2048 runs 25.0 days on 8,192 H100 and 26.2 on 10,240
 * (tp4 pp5 cp4 with 128-way DP against tp4 pp2 with 1024-way).  The result
 * must say so rather than let more GPUs silently mean a slower run; a count
 * that is the fastest at its size (8,192) gets no such warning. */
START_TEST(warns_when_fewer_gpus_would_train_faster)
{
    const ModelPreset *m = preset_find("llama-3-70b");
    ck_assert_ptr_nonnull(m);
    const int gpus[2] = {10240, 8192};
    for (int i = 0; i < 2; i++) {
        Plan p;
        plan_init(&p);
        Workload w = training(m->shape, 8192, 2048, 15e12);
        w.gpus = gpus[i];
        PlanResult *r;
        ck_assert_msg(size(&p, &w, acc("H100-SXM"), &r), "%s", r->workloads[0].error);
        bool warned = false;
        for (int k = 0; k < r->n_warnings; k++)
            warned = warned || strstr(r->warnings[k], "would finish sooner") != NULL;
        if (i == 0) {
            ck_assert_msg(warned, "10240 GPUs: no warning (%.1f days)",
                          r->workloads[0].train.train_days);
            /* the named count is not larger and really is faster */
            for (int k = 0; k < r->n_warnings; k++) {
                int g2 = 0;
                double d2 = 0;
                const char *t = strstr(r->warnings[k], ": ");
                if (t && sscanf(t, ": %d GPUs would finish sooner (%lf days)", &g2, &d2) == 2) {
                    ck_assert_int_lt(g2, 10240);
                    ck_assert(d2 < r->workloads[0].train.train_days);
                }
            }
        } else {
            ck_assert_msg(!warned, "8192 GPUs warned");
        }
        free(r);
    }
}
END_TEST

START_TEST(rejects_missing_size)
{
    Plan p;
    plan_init(&p);
    Workload w = training(llama405(), 8192, 2048, 15.6e12);
    PlanResult *r;
    ck_assert(!size(&p, &w, acc("H100-SXM"), &r));     /* neither gpus nor target_days */
    ck_assert(r->workloads[0].error[0] != '\0');
    free(r);
}
END_TEST

/* An unreachable target is still a plan: the fastest size found, flagged,
 * with a warning that names it — so the cluster, power and cost carry it. */
START_TEST(unreachable_target_plans_the_fastest_size_and_says_so)
{
    Plan p;
    plan_init(&p);
    Workload w = training(llama405(), 8192, 2048, 15.6e12);
    w.target_days = 1; /* 405B in one day: impossible */
    PlanResult *r;
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    const TrainResult *t = &r->workloads[0].train;
    ck_assert(!t->meets_target);
    ck_assert_int_gt(t->gpus, 0);
    ck_assert(t->train_days > 1 && isfinite(t->train_days));
    ck_assert_int_eq(r->n_warnings, 1);
    ck_assert_msg(strstr(r->warnings[0], "fastest") != NULL, "%s", r->warnings[0]);
    free(r);
    w.target_days = 365; /* comfortably reachable */
    ck_assert(size(&p, &w, acc("H100-SXM"), &r));
    ck_assert(r->workloads[0].train.meets_target);
    free(r);
}
END_TEST

/* Past some size a shape gets slower as it grows: the job's MTBF, and its
 * goodput with it, fall with its chip count.  Llama 3 405B at 2K tokens a
 * sequence, 8,192 sequences a step, FP8, MaxText on TPU7x: 32,768 chips
 * finish 15T tokens in under 14 days, 65,536 do not.  The sizing searched
 * each shape at its largest count only, planned 65,536 and said the
 * target was missed.  And where no size meets a target, the binding
 * quotes the days of the size it plans (it quoted a shape's largest count,
 * 35.0 d against 32.3 d planned for Llama 3 70B on Trainium2). */
START_TEST(target_sizing_searches_below_a_shapes_slowing_largest_count)
{
    Plan p;
    plan_init(&p);
    Workload w = preset_run("llama-3-405b", 2048, 8192, 15e12, "maxtext");
    w.precision = PREC_FP8;
    w.target_days = 14;
    PlanResult *r;
    ck_assert_msg(size(&p, &w, acc("TPU7x"), &r), "%s", r->workloads[0].error);
    TrainResult t = r->workloads[0].train;
    free(r);
    ck_assert_msg(t.meets_target && t.gpus <= 32768 && t.train_days <= 14,
                  "%d chips, %.1f d: %s", t.gpus, t.train_days, t.binding);
    Workload w2 = w;
    w2.target_days = 0;
    w2.gpus = 2 * t.gpus;
    ck_assert(size(&p, &w2, acc("TPU7x"), &r));
    ck_assert_msg(r->workloads[0].train.train_days > 14, "%.1f d on %d chips",
                  r->workloads[0].train.train_days, w2.gpus);
    free(r);

    w = preset_run("llama-3-70b", 2048, 2048, 15e12, "maxtext");
    w.target_days = 14;
    ck_assert_msg(size(&p, &w, acc("Trainium2"), &r), "%s", r->workloads[0].error);
    t = r->workloads[0].train;
    free(r);
    ck_assert(!t.meets_target);
    char want[64];
    snprintf(want, sizeof want, "fastest %.1f d on ", t.train_days);
    ck_assert_msg(strstr(t.binding, want) != NULL, "%s (planned %.2f d)", t.binding,
                  t.train_days);
}
END_TEST

START_TEST(rejects_tp_that_does_not_divide_heads)
{
    Plan p;
    plan_init(&p);
    Workload w = training(llama405(), 8192, 2048, 15.6e12);
    w.gpus = 1536;
    w.parallel.tp = 3;
    PlanResult *r;
    ck_assert(!size(&p, &w, acc("H100-SXM"), &r));
    ck_assert(strstr(r->workloads[0].error, "tp=3") != NULL);
    free(r);
}
END_TEST

START_TEST(every_catalog_accelerator_gives_finite_answer_or_reason)
{
    load_catalog();
    Plan p;
    plan_init(&p);
    Workload w = training(llama405(), 8192, 2048, 15.6e12);
    w.target_days = 90;
    for (size_t i = 0; i < cat.n_accelerators; i++) {
        PlanResult *r;
        bool ok = size(&p, &w, &cat.accelerators[i], &r);
        const TrainResult *t = &r->workloads[0].train;
        if (ok)
            ck_assert(t->gpus > 0 && isfinite(t->train_days) &&
                      (t->meets_target ? t->train_days <= 90 : r->n_warnings > 0));
        else
            ck_assert_msg(r->workloads[0].error[0] != '\0', "%s: no reason",
                          cat.accelerators[i].id);
        free(r);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("train");
    TCase *tc = tcase_create("formulas");
    tcase_add_test(tc, gpt3_params_and_6ND);
    tcase_add_test(tc, llama405_params_and_flops_per_sequence);
    tcase_add_test(tc, deepseek_v3_total_and_active_params);
    tcase_add_test(tc, presets_agree_with_inline_shapes);
    tcase_add_test(tc, gpt_flops_equal_megatron_formula);
    tcase_add_test(tc, gqa_glu_flops_equal_megatron_general_formula);
    tcase_add_test(tc, zero_stages_match_zero_paper);
    tcase_add_test(tc, activations_match_korthikanti_table2);
    tcase_add_test(tc, activations_scale_for_gqa_and_swiglu);
    tcase_add_test(tc, pipeline_first_stage_holds_p_microbatches_and_interleave_factor);
    tcase_add_test(tc, young_interval_for_5min_checkpoint_and_97h_mtbf);
    suite_add_tcase(s, tc);

    tc = tcase_create("calibration");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, megatron_2021_table1_throughput_within_10pct, 0,
                        (int)(sizeof mlm21 / sizeof mlm21[0]));
    tcase_add_loop_test(tc, korthikanti_2022_iteration_time_within_10pct, 0,
                        2 * (int)(sizeof k22 / sizeof k22[0]));
    tcase_add_test(tc, megatron_2021_22_set_mean_error_within_3pct);
    tcase_add_test(tc, korthikanti_2022_530b_mfu_is_about_54pct);
    tcase_add_test(tc, gpt3_175b_on_1024_a100_at_140_tflops_within_10pct);
    tcase_add_test(tc, llama3_405b_tflops_per_gpu_within_10pct);
    tcase_add_test(tc, llama3_interruptions_and_goodput);
    tcase_add_test(tc, deepseek_v3_gpu_hours_within_10pct);
    tcase_add_test(tc, mosaicml_mpt_h100_mfu_within_10pct);
    tcase_add_loop_test(tc, mosaicml_mpt_a100_checkpointed_mfu_within_10pct, 0,
                        (int)(sizeof mpt_a100 / sizeof mpt_a100[0]));
    tcase_add_loop_test(tc, mosaicml_mpt_uncheckpointed_gap_is_bounded, 0,
                        (int)(sizeof mpt_nockpt / sizeof mpt_nockpt[0]));
    tcase_add_test(tc, mpt_runs_fit_without_dropout_masks_in_80_and_40_gib);
    tcase_add_test(tc, flash_attention_v1_long_context_within_5pct);
    tcase_add_test(tc, zero3_gathers_cost_more_with_more_micro_batches);
    tcase_add_test(tc, fsdp_unit_collective_latency_grows_with_ranks);
    tcase_add_test(tc, fsdp_backward_post_exposes_the_backward_gathers);
    tcase_add_test(tc, fsdp_fp32_gradient_reduction_is_priced);
    tcase_add_test(tc, torchtitan_always_reduces_gradients_in_fp32);
    tcase_add_test(tc, eager_torchtitan_always_runs_an_eager_loss);
    tcase_add_test(tc, fsdp_shard_grad_op_unit_latency_grows_with_ranks);
    tcase_add_test(tc, llama2_gpu_hours_not_below_60pct_of_published);
    suite_add_tcase(s, tc);

    tc = tcase_create("search");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, searched_layout_is_valid_fits_and_beats_fixed_ones);
    tcase_add_test(tc, target_days_sizing_returns_whole_nodes_meeting_target);
    tcase_add_test(tc, unreachable_target_plans_the_fastest_size_and_says_so);
    tcase_add_test(tc, target_sizing_searches_below_a_shapes_slowing_largest_count);
    tcase_add_test(tc, moe_model_sizes_with_expert_parallel_search);
    tcase_add_test(tc, hybrid_pattern_of_plain_blocks_is_the_plain_transformer);
    tcase_add_test(tc, mamba_layer_params_and_flops_from_its_projections);
    tcase_add_test(tc, nemotron_3_nano_total_and_active_params);
    tcase_add_test(tc, mamba_tp_divides_its_heads_and_groups);
    tcase_add_test(tc, mamba_context_parallel_pays_its_all_to_alls);
    tcase_add_test(tc, mamba_pricing_is_stated_with_the_plan);
    tcase_add_test(tc, fixed_mfu_replaces_modelled_efficiency);
    tcase_add_test(tc, reports_assumptions_beside_the_numbers);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, folded_experts_allow_tp2_pp8_ep32_on_256_gpus);
    tcase_add_test(tc, ep_overlap_leaves_the_unpaired_micro_batches_exposed);
    tcase_add_test(tc, mfu_is_against_the_quoted_peak_under_a_sustained_clock);
    tcase_add_test(tc, nvl72_keeps_strided_groups_on_nvlink);
    tcase_add_test(tc, nvl72_dp_ring_across_domains_uses_every_members_nic);
    tcase_add_test(tc, sliding_window_cuts_the_attention_core_exactly);
    tcase_add_test(tc, preset_window_is_priced_and_said);
    tcase_add_test(tc, shipped_calibration_names_its_runs);
    tcase_add_test(tc, each_gemm_is_timed_at_its_own_narrowest_side);
    tcase_add_test(tc, gemm_waves_follow_the_sm_count);
    tcase_add_test(tc, expert_fc1_is_timed_at_its_gated_width);
    tcase_add_test(tc, fused_attention_core_uses_the_catalog_kernel_efficiencies);
    tcase_add_test(tc, fused_attention_forward_scales_with_head_dim);
    tcase_add_test(tc, blackwell_ultra_attention_is_cudnns_measured_ratio_faster);
    tcase_add_test(tc, eager_loss_holds_twelve_bytes_a_logit_and_moves_forty_eight);
    tcase_add_test(tc, fsdp_under_pipelining_holds_zero1_memory_and_syncs_once);
    tcase_add_test(tc, te_attention_runs_cudnn_at_its_published_h100_rates);
    tcase_add_test(tc, fused_attention_block_cost_matches_published_sweeps);
    tcase_add_test(tc, short_sequences_slow_the_fused_attention_core);
    tcase_add_test(tc, cudnn_sweep_gives_the_measured_rates_at_its_points);
    tcase_add_test(tc, sliding_window_runs_at_cudnns_measured_window_rate);
    tcase_add_test(tc, flash_attention_2_core_runs_at_its_measured_h100_rate_at_any_tp);
    tcase_add_test(tc, interleaving_widens_the_dp_overlap_window);
    tcase_add_test(tc, interleaved_dp_sync_of_chunk_0_is_exposed);
    tcase_add_test(tc, tied_embedding_gradients_are_all_reduced_between_first_and_last_stage);
    tcase_add_test(tc, fp8_param_gather_halves_the_dp_all_gather);
    tcase_add_test(tc, unfused_clamp_bias_and_yarn_rope_cost_their_eager_bytes);
    tcase_add_test(tc, eager_rope_glu_and_norm_cost_their_bytes);
    tcase_add_test(tc, fp8_tp_gather_moves_the_sp_all_gathers_in_one_byte);
    tcase_add_test(tc, te_fp8_saves_its_gemm_inputs_in_one_byte);
    tcase_add_test(tc, te_nvfp4_saves_its_gemm_inputs_in_fp4);
    tcase_add_test(tc, te_grouped_experts_save_their_inputs_in_fp8);
    tcase_add_test(tc, torch_ring_attention_pays_its_fp32_merges_per_ring_step);
    tcase_add_test(tc, repeat_kv_widens_the_ring_and_the_saved_kv);
    tcase_add_test(tc, torch_ring_waits_for_its_kv_gather_after_the_first_step);
    tcase_add_test(tc, all_gather_cp_waits_for_its_kv);
    tcase_add_test(tc, zero_auto_shards_as_the_framework_does);
    tcase_add_test(tc, fp8_norm_outputs_cast_without_an_amax_pass);
    tcase_add_test(tc, dp_all_gather_hides_under_the_forward_not_the_backward);
    tcase_add_test(tc, activation_offload_frees_hbm_and_hides_under_compute_on_c2c);
    tcase_add_test(tc, output_layer_runs_in_bf16_in_fp8_recipes);
    tcase_add_test(tc, the_result_names_the_plans_framework_not_its_calibration_row);
    tcase_add_test(tc, uneven_stages_give_the_last_stage_fewer_layers);
    tcase_add_test(tc, framework_profiles_change_the_modelled_step);
    tcase_add_test(tc, moe_host_costs_are_paid_per_layer_pass_and_per_local_expert);
    tcase_add_test(tc, eager_attention_launches_are_paid_after_the_dropless_sync_unless_graphed);
    tcase_add_test(tc, a_full_iteration_graph_pays_no_per_layer_host_cost);
    tcase_add_test(tc, step_overhead_is_paid_once_per_step_unscaled);
    tcase_add_test(tc, ep_alltoall_across_nodes_runs_at_the_nic_rate);
    tcase_add_test(tc, fused_dispatch_drops_permute_and_chunk_sort_bytes);
    tcase_add_test(tc, mtp_modules_add_their_flops_time_and_last_stage_memory);
    tcase_add_test(tc, nemotron_3_super_total_and_active_params);
    tcase_add_test(tc, nemotron_3_super_flops_match_the_published_rate);
    tcase_add_test(tc, latent_moe_runs_its_experts_and_all_to_alls_at_the_latent_width);
    tcase_add_test(tc, hybrid_mtp_blocks_cost_time_and_last_stage_memory);
    tcase_add_test(tc, recompute_modules_drop_and_rerun_what_they_name);
    tcase_add_test(tc, every_other_mm_keeps_every_other_matmul_and_reruns_the_rest);
    tcase_add_test(tc, async_tp_hides_the_forward_collectives_only);
    tcase_add_test(tc, fp8_dispatch_sends_the_dispatch_in_one_byte);
    tcase_add_test(tc, fused_dispatch_sends_a_token_once_per_rank_holding_its_experts);
    tcase_add_test(tc, workload_fused_dispatch_key_is_the_framework_flag);
    tcase_add_test(tc, unfused_dispatch_across_nodes_says_what_the_fused_one_saves);
    tcase_add_test(tc, nemo_plans_dispatch_by_the_flex_dispatcher_unless_they_say_otherwise);
    tcase_add_test(tc, eager_moe_says_what_full_iteration_graphs_save);
    tcase_add_test(tc, exposed_all_to_alls_say_what_the_combined_1f1b_saves);
    tcase_add_test(tc, capacity_padded_moe_has_no_dropless_sync_and_pads_to_capacity);
    tcase_add_test(tc, combined_1f1b_exposes_the_partners_deferred_wgrad_host_work);
    tcase_add_test(tc, whole_program_buffers_free_logits_before_recompute_and_skip_allocator_slack);
    tcase_add_test(tc, remat_dce_skips_the_mlp_down_projection_in_full_recompute);
    tcase_add_test(tc, fused_cross_entropy_keeps_16_bit_logits_instead_of_fp32);
    tcase_add_test(tc, selective_reruns_attention_adds_one_flash_core_forward);
    tcase_add_test(tc, selective_reruns_attention_keeps_only_weight_gemm_outputs);
    tcase_add_test(tc, fp8_speedup_over_bf16_is_between_published_ratios);
    tcase_add_test(tc, error_band_brackets_step_days_hours_and_gpus);
    tcase_add_test(tc, attention_bound_step_takes_its_classs_long_band);
    tcase_add_test(tc, long_sequence_mfu_says_it_counts_the_whole_attention_square);
    tcase_add_test(tc, uncalibrated_framework_takes_the_uncalibrated_band);
    tcase_add_test(tc, deepspeed_left_to_choose_recomputes_whole_layers);
    tcase_add_test(tc, nothing_fits_so_a_framework_that_can_offloads);
    tcase_add_test(tc, nothing_fits_with_the_default_sharding_so_the_framework_shards_further);
    tcase_add_test(tc, rejects_zero_tokens);
    tcase_add_test(tc, rejects_batch_that_no_layout_divides);
    tcase_add_test(tc, rejects_model_that_fits_no_layout_with_best_memory);
    tcase_add_test(tc, gpt_oss_h100_recipe_fits_at_its_micro_batch_not_the_printed_one);
    tcase_add_test(tc, pipeline_split_counting_embedding_and_loss_moves_a_layer_off_stage_0);
    tcase_add_test(tc, warns_when_fewer_gpus_would_train_faster);
    tcase_add_test(tc, recompute_layers_recompute_that_many_layers_per_stage);
    tcase_add_test(tc, sustained_clock_frac_slows_tensor_work);
    tcase_add_test(tc, mi325x_computes_faster_than_mi300x_at_its_sustained_gemm_clock);
    tcase_add_test(tc, fp8_run_stays_fp8_at_a_fitted_fp8_gemm_factor_of_one);
    tcase_add_test(tc, nvfp4_tp_gather_moves_both_copies_with_their_scales);
    tcase_add_test(tc, nvfp4_gemms_run_at_the_parts_fp4_gemm_factor);
    tcase_add_test(tc, nemo_nvfp4_runs_leave_tp_collectives_exposed);
    tcase_add_test(tc, rejects_missing_size);
    tcase_add_test(tc, rejects_tp_that_does_not_divide_heads);
    tcase_add_test(tc, every_catalog_accelerator_gives_finite_answer_or_reason);
    suite_add_tcase(s, tc);
    return s;
}
