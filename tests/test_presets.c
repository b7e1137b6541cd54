/* tests/test_presets.c — published model shapes: self-consistent, valid
 * plan models, and matching the published parameter counts. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "presets.h"
#include "yaml_plan.h"

/* Parameter count of a shape, written out here independently of the
 * sizing model: embeddings (+ untied head), attention (GQA or MLA),
 * dense / MoE MLPs with routers, RMSNorm weights; biases are ignored. */
static double count_params(const ModelShape *m)
{
    double h = m->hidden, V = m->vocab, L = m->layers;
    double emb = V * h * (m->tied_embeddings ? 1 : 2);
    double attn;
    if (m->kv_lora_rank > 0) {
        double qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
        double q = m->q_lora_rank > 0 ? h * m->q_lora_rank + m->q_lora_rank * m->heads * qk
                                           + m->q_lora_rank
                                     : h * m->heads * qk;
        double kv = h * (m->kv_lora_rank + m->qk_rope_head_dim) + m->kv_lora_rank
                  + m->kv_lora_rank * m->heads * (m->qk_nope_head_dim + m->v_head_dim);
        double o = m->heads * m->v_head_dim * h;
        attn = q + kv + o;
    } else {
        double hd = m->head_dim ? m->head_dim : h / m->heads;
        double kv = m->kv_heads ? m->kv_heads : m->heads;
        attn = h * m->heads * hd * 2 + 2 * h * kv * hd;
    }
    double mats = m->glu ? 3 : 2;
    double dense_mlp = mats * h * m->ffn_hidden;
    double effn = m->expert_ffn_hidden ? m->expert_ffn_hidden : m->ffn_hidden;
    double moe_mlp = (m->experts + m->shared_experts) * mats * h * effn + h * m->experts;
    if (m->hybrid[0]) {
        /* one block a symbol, each with its norm; a Mamba-2 mixer: in_proj
         * h -> z, x (heads*head_dim each), B, C (groups*state each), dt
         * (heads); conv1d over x, B, C with bias; A, D, dt bias per head; a
         * gated norm over heads*head_dim; out_proj back to h */
        double di = (double)m->mamba_heads * m->mamba_head_dim;
        double bc = 2.0 * m->mamba_groups * m->mamba_state;
        double conv = m->mamba_conv ? m->mamba_conv : 4;
        double mamba = h * (2 * di + bc + m->mamba_heads) + (di + bc) * (conv + 1) +
                       3.0 * m->mamba_heads + di + di * h;
        double total = emb + h;
        for (const char *c = m->hybrid; *c; c++)
            total += h + (*c == 'M' ? mamba : *c == '*' ? attn : *c == '-' ? dense_mlp : moe_mlp);
        return total;
    }
    double n_dense = m->experts > 1 ? m->dense_layers : L;
    double n_moe = L - n_dense;
    return emb + L * (attn + 2 * h) + n_dense * dense_mlp + n_moe * moe_mlp + h;
}

typedef struct {
    const char *name;
    double published; /* total parameters as published (model card / paper) */
} Published;

/* Model cards / papers: Llama 3 (8.03B, 70.6B, 405.9B per HF safetensors
 * totals), Llama 3.2 (1.24B, 3.21B), Llama 2 (6.74B, 13.0B, 69.0B), Mistral
 * 7.24B, Qwen2.5 (7.61B, 72.7B), GPT-3 175B, Mixtral 46.7B, DeepSeek-V3 671B
 * (main model, without the 14B MTP module), gpt-oss 116.8B / 20.9B,
 * Nemotron 3 Nano 31.6B (nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 model
 * card: "31.6B total parameters"), Qwen3-30B-A3B 30.5B (Qwen/Qwen3-30B-A3B
 * model card), Nemotron-4 15B 15.7B ("3.2 billion embedding parameters and
 * 12.5 billion non-embedding parameters", arXiv:2402.16819 §2), Nemotron-4
 * 340B (arXiv:2406.11704). */
static const Published published[] = {
    {"llama-3-8b", 8.03e9},    {"llama-3-70b", 70.6e9},   {"llama-3-405b", 405.9e9},
    {"llama-3.2-1b", 1.24e9},  {"llama-3.2-3b", 3.21e9},  {"llama-2-7b", 6.74e9},
    {"llama-2-13b", 13.0e9},   {"llama-2-70b", 69.0e9},   {"mistral-7b", 7.24e9},
    {"qwen2.5-7b", 7.61e9},    {"qwen2.5-72b", 72.7e9},   {"gpt-3-175b", 175e9},
    {"mixtral-8x7b", 46.7e9},  {"deepseek-v3", 671e9},    {"gpt-oss-120b", 116.8e9},
    {"gpt-oss-20b", 20.9e9},   {"nemotron-3-nano", 31.6e9},  {"qwen3-30b-a3b", 30.5e9},
    {"nemotron-4-15b", 15.7e9}, {"nemotron-4-340b", 340e9},
};

START_TEST(shapes_are_self_consistent)
{
    size_t n;
    const ModelPreset *all = preset_all(&n);
    ck_assert_uint_ge(n, 8);
    for (size_t i = 0; i < n; i++) {
        const ModelShape *m = &all[i].shape;
        const char *nm = all[i].name;
        ck_assert_msg(all[i].source && strlen(all[i].source) > 10, "%s has no source", nm);
        ck_assert_msg(m->layers > 0 && m->hidden > 0 && m->ffn_hidden > 0 && m->vocab > 0, "%s", nm);
        ck_assert_msg(m->head_dim > 0 || m->hidden % m->heads == 0, "%s: heads | hidden", nm);
        ck_assert_msg(m->kv_heads > 0 && m->heads % m->kv_heads == 0, "%s: kv_heads | heads", nm);
        ck_assert_msg(m->experts >= 1 && m->experts_per_token >= 1 &&
                          m->experts_per_token <= m->experts, "%s: experts", nm);
        ck_assert_msg(m->dense_layers < m->layers, "%s: dense_layers", nm);
        ck_assert_msg(m->preset[0] == '\0', "%s: table rows leave preset empty", nm);
        for (size_t k = 0; k < i; k++)
            ck_assert_msg(strcmp(all[k].name, nm) != 0, "duplicate preset %s", nm);
    }
}
END_TEST

START_TEST(parameter_counts_match_published_totals)
{
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        const ModelPreset *p = preset_find(published[i].name);
        ck_assert_msg(p != NULL, "missing preset %s", published[i].name);
        double got = count_params(&p->shape);
        double rel = fabs(got - published[i].published) / published[i].published;
        /* 0.5%: biases, attention sinks and rounding of the published figure */
        ck_assert_msg(rel < 0.005, "%s: %.4gB from the shape vs %.4gB published (%.2f%%)",
                      p->name, got / 1e9, published[i].published / 1e9, rel * 100);
    }
}
END_TEST

START_TEST(every_preset_is_a_valid_plan_model)
{
    size_t n;
    const ModelPreset *all = preset_all(&n);
    Plan *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    for (size_t i = 0; i < n; i++) {
        plan_init(p);
        snprintf(p->name, sizeof p->name, "preset-check");
        p->n_workloads = 1;
        Workload *w = &p->workloads[0];
        workload_init(w, WL_INFERENCE);
        snprintf(w->name, sizeof w->name, "serve");
        w->model = all[i].shape;
        snprintf(w->model.preset, sizeof w->model.preset, "%s", all[i].name);
        Diag d;
        ck_assert_msg(plan_validate(p, NULL, &d) == 0, "%s: %s", all[i].name, d.msg);
    }
    free(p);
}
END_TEST

START_TEST(lookup_is_case_insensitive)
{
    const ModelPreset *a = preset_find("Llama-3-70B");
    ck_assert_ptr_nonnull(a);
    ck_assert_str_eq(a->name, "llama-3-70b");
    ck_assert_int_eq(a->shape.layers, 80);
    ck_assert_ptr_null(preset_find("llama-3-7b"));
    ck_assert_ptr_null(preset_find(""));
    ck_assert_ptr_null(preset_find(NULL));
}
END_TEST

START_TEST(published_shapes_exact)
{
    const ModelShape *m = &preset_find("llama-3-405b")->shape;
    ck_assert_int_eq(m->layers, 126);
    ck_assert_int_eq(m->hidden, 16384);
    ck_assert_int_eq(m->ffn_hidden, 53248);
    ck_assert_int_eq(m->heads, 128);
    ck_assert_int_eq(m->kv_heads, 8);
    ck_assert_int_eq(m->vocab, 128256);
    ck_assert(!m->tied_embeddings);
    m = &preset_find("gpt-3-175b")->shape;
    ck_assert_int_eq(m->ffn_hidden, 4 * m->hidden);
    ck_assert(!m->glu);
    ck_assert(m->tied_embeddings);
    ck_assert_int_eq(m->vocab, 50257);
    m = &preset_find("mixtral-8x7b")->shape;
    ck_assert_int_eq(m->experts, 8);
    ck_assert_int_eq(m->experts_per_token, 2);
    m = &preset_find("deepseek-v3")->shape;
    ck_assert_int_eq(m->layers, 61);
    ck_assert_int_eq(m->dense_layers, 3);
    ck_assert_int_eq(m->ffn_hidden, 18432);
    ck_assert_int_eq(m->expert_ffn_hidden, 2048);
    ck_assert_int_eq(m->experts, 256);
    ck_assert_int_eq(m->experts_per_token, 8);
    ck_assert_int_eq(m->shared_experts, 1);
    ck_assert_int_eq(m->q_lora_rank, 1536);
    ck_assert_int_eq(m->kv_lora_rank, 512);
    ck_assert_int_eq(m->qk_rope_head_dim, 64);
    ck_assert_int_eq(m->qk_nope_head_dim, 128);
    ck_assert_int_eq(m->v_head_dim, 128);
    ck_assert_int_eq(m->vocab, 129280);
    /* sliding windows as the configs give them: gpt-oss 128 tokens on every
     * other layer, Mistral 7B v0.1 4,096 on all */
    static const struct {
        const char *name;
        int window, layers;
    } win[] = {{"gpt-oss-120b", 128, 18}, {"gpt-oss-20b", 128, 12}, {"mistral-7b", 4096, 0}};
    for (size_t i = 0; i < sizeof win / sizeof win[0]; i++) {
        m = &preset_find(win[i].name)->shape;
        ck_assert_int_eq(m->window, win[i].window);
        ck_assert_int_eq(m->window_layers, win[i].layers);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("presets");
    TCase *tc = tcase_create("presets");
    tcase_add_test(tc, shapes_are_self_consistent);
    tcase_add_test(tc, parameter_counts_match_published_totals);
    tcase_add_test(tc, every_preset_is_a_valid_plan_model);
    tcase_add_test(tc, lookup_is_case_insensitive);
    tcase_add_test(tc, published_shapes_exact);
    suite_add_tcase(s, tc);
    return s;
}
