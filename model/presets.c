/* model/presets.c — published transformer shapes (`preset: llama-3-70b`).
 *
 * Every row names where its numbers come from: the model's Hugging Face
 * config.json (field names in the comments map: num_hidden_layers → layers,
 * hidden_size → hidden, intermediate_size → ffn_hidden, num_attention_heads →
 * heads, num_key_value_heads → kv_heads, vocab_size → vocab,
 * tie_word_embeddings → tied_embeddings) or the paper. */
#include "config.h"

#include <strings.h>

#include "presets.h"

#define DENSE .experts = 1, .experts_per_token = 1

static const ModelPreset presets[] = {
    {"llama-3-8b",
     "meta-llama/Meta-Llama-3-8B config.json; Llama 3 paper (arXiv:2407.21783) Table 3",
     {.layers = 32, .hidden = 4096, .ffn_hidden = 14336, .heads = 32, .kv_heads = 8,
      .vocab = 128256, .glu = true, .tied_embeddings = false, DENSE}},
    {"llama-3-70b",
     "meta-llama/Meta-Llama-3-70B config.json; Llama 3 paper (arXiv:2407.21783) Table 3",
     {.layers = 80, .hidden = 8192, .ffn_hidden = 28672, .heads = 64, .kv_heads = 8,
      .vocab = 128256, .glu = true, .tied_embeddings = false, DENSE}},
    {"llama-3-405b",
     "meta-llama/Llama-3.1-405B config.json; Llama 3 paper (arXiv:2407.21783) Table 3",
     {.layers = 126, .hidden = 16384, .ffn_hidden = 53248, .heads = 128, .kv_heads = 8,
      .vocab = 128256, .glu = true, .tied_embeddings = false, DENSE}},
    {"llama-3.2-1b", "meta-llama/Llama-3.2-1B config.json (head_dim 64, tied embeddings)",
     {.layers = 16, .hidden = 2048, .ffn_hidden = 8192, .heads = 32, .kv_heads = 8,
      .vocab = 128256, .glu = true, .tied_embeddings = true, DENSE}},
    {"llama-3.2-3b", "meta-llama/Llama-3.2-3B config.json (head_dim 128, tied embeddings)",
     {.layers = 28, .hidden = 3072, .ffn_hidden = 8192, .heads = 24, .kv_heads = 8,
      .vocab = 128256, .glu = true, .tied_embeddings = true, DENSE}},
    {"llama-2-7b", "meta-llama/Llama-2-7b-hf config.json; Llama 2 paper (arXiv:2307.09288)",
     {.layers = 32, .hidden = 4096, .ffn_hidden = 11008, .heads = 32, .kv_heads = 32,
      .vocab = 32000, .glu = true, .tied_embeddings = false, DENSE}},
    {"llama-2-13b", "meta-llama/Llama-2-13b-hf config.json; Llama 2 paper (arXiv:2307.09288)",
     {.layers = 40, .hidden = 5120, .ffn_hidden = 13824, .heads = 40, .kv_heads = 40,
      .vocab = 32000, .glu = true, .tied_embeddings = false, DENSE}},
    {"llama-2-70b",
     "meta-llama/Llama-2-70b-hf config.json; Llama 2 paper (arXiv:2307.09288), GQA 8 groups",
     {.layers = 80, .hidden = 8192, .ffn_hidden = 28672, .heads = 64, .kv_heads = 8,
      .vocab = 32000, .glu = true, .tied_embeddings = false, DENSE}},
    /* Mistral 7B v0.1: sliding_window 4096 on every layer (its
     * config.json; v0.2 and later dropped the window) */
    {"mistral-7b", "mistralai/Mistral-7B-v0.1 config.json",
     {.layers = 32, .hidden = 4096, .ffn_hidden = 14336, .heads = 32, .kv_heads = 8,
      .vocab = 32000, .glu = true, .tied_embeddings = false, .window = 4096, DENSE}},
    {"qwen2.5-7b", "Qwen/Qwen2.5-7B config.json",
     {.layers = 28, .hidden = 3584, .ffn_hidden = 18944, .heads = 28, .kv_heads = 4,
      .vocab = 152064, .glu = true, .tied_embeddings = false, DENSE}},
    {"qwen2.5-72b", "Qwen/Qwen2.5-72B config.json",
     {.layers = 80, .hidden = 8192, .ffn_hidden = 29568, .heads = 64, .kv_heads = 8,
      .vocab = 152064, .glu = true, .tied_embeddings = false, DENSE}},
    /* GPT-3: 4h MLP without gating, learned positions, tied embeddings,
     * GPT-2 BPE vocabulary of 50257. */
    {"gpt-3-175b", "Brown et al., Language Models are Few-Shot Learners (arXiv:2005.14165) Table 2.1",
     {.layers = 96, .hidden = 12288, .ffn_hidden = 49152, .heads = 96, .kv_heads = 96,
      .vocab = 50257, .glu = false, .tied_embeddings = true, DENSE}},
    {"mixtral-8x7b",
     "mistralai/Mixtral-8x7B-v0.1 config.json (num_local_experts 8, num_experts_per_tok 2)",
     {.layers = 32, .hidden = 4096, .ffn_hidden = 14336, .heads = 32, .kv_heads = 8,
      .vocab = 32000, .glu = true, .tied_embeddings = false, .experts = 8,
      .experts_per_token = 2, .expert_ffn_hidden = 14336}},
    /* DeepSeek-V3: MLA attention, 3 leading dense layers (first_k_dense_replace)
     * with intermediate_size 18432, then 256 routed experts (top-8) of
     * moe_intermediate_size 2048 plus 1 shared expert. */
    {"deepseek-v3",
     "deepseek-ai/DeepSeek-V3 config.json; DeepSeek-V3 technical report (arXiv:2412.19437) §4.2",
     {.layers = 61, .hidden = 7168, .ffn_hidden = 18432, .heads = 128, .kv_heads = 128,
      .vocab = 129280, .glu = true, .tied_embeddings = false, .experts = 256,
      .experts_per_token = 8, .shared_experts = 1, .expert_ffn_hidden = 2048,
      .dense_layers = 3, .q_lora_rank = 1536, .kv_lora_rank = 512, .qk_rope_head_dim = 64,
      .qk_nope_head_dim = 128, .v_head_dim = 128, .mtp_layers = 1}},
    /* Kimi K2: DeepSeek-V3's shape with 64 attention heads, 384 routed
     * experts (top-8) and one shared expert of 2048, one leading dense layer
     * of 18432, a 163,840-token vocabulary, no MTP module. */
    {"kimi-k2",
     "Megatron-LM examples/post_training/modelopt/conf/moonshotai/Kimi-K2-Instruct.sh "
     "(0532e92748); Kimi K2 technical report (arXiv:2507.20534)",
     {.layers = 61, .hidden = 7168, .ffn_hidden = 18432, .heads = 64, .kv_heads = 64,
      .vocab = 163840, .glu = true, .tied_embeddings = false, .experts = 384,
      .experts_per_token = 8, .shared_experts = 1, .expert_ffn_hidden = 2048,
      .dense_layers = 1, .q_lora_rank = 1536, .kv_lora_rank = 512, .qk_rope_head_dim = 64,
      .qk_nope_head_dim = 128, .v_head_dim = 128}},
    /* Qwen3-235B-A22B: 94 layers, 64 query heads of head_dim 128 (8192 ≠
     * hidden 4096) and 4 KV heads; 128 routed experts (top-8) of
     * moe_intermediate_size 1536 in every layer, no shared expert. */
    {"qwen3-235b-a22b", "Qwen/Qwen3-235B-A22B config.json",
     {.layers = 94, .hidden = 4096, .ffn_hidden = 12288, .heads = 64, .kv_heads = 4,
      .head_dim = 128, .vocab = 151936, .glu = true, .tied_embeddings = false,
      .experts = 128, .experts_per_token = 8, .expert_ffn_hidden = 1536}},
    /* Qwen3-30B-A3B: the 235B's family at 48 layers of 2048; 32 query heads
     * of 128 (4096 ≠ hidden), 4 KV heads; 128 routed experts (top-8) of
     * moe_intermediate_size 768 in every layer, no shared expert. */
    {"qwen3-30b-a3b", "Qwen/Qwen3-30B-A3B config.json",
     {.layers = 48, .hidden = 2048, .ffn_hidden = 6144, .heads = 32, .kv_heads = 4,
      .head_dim = 128, .vocab = 151936, .glu = true, .tied_embeddings = false,
      .experts = 128, .experts_per_token = 8, .expert_ffn_hidden = 768}},
    /* gpt-oss: head_dim 64 with 64 heads (4096) ≠ hidden 2880, so head_dim
     * is explicit; 128 / 32 experts of 2880, top-4.  swiglu_limit 7.0 (the
     * GLU inputs clamped), attention_bias true and biased experts,
     * rope_scaling {rope_type: yarn, factor: 32} (Megatron-Bridge
     * models/gpt_oss/gpt_oss_bridge.py: activation_func_clamp_value 7.0,
     * add_bias_linear True, position_embedding_type "yarn",
     * yarn_rotary_scaling_factor 32).  sliding_window 128 on every other
     * layer (config.json layer_types alternates sliding_attention and
     * full_attention): 18 of 36, 12 of 24. */
    {"gpt-oss-120b", "openai/gpt-oss-120b config.json; gpt-oss model card (arXiv:2508.10925)",
     {.layers = 36, .hidden = 2880, .ffn_hidden = 2880, .heads = 64, .kv_heads = 8,
      .head_dim = 64, .vocab = 201088, .glu = true, .tied_embeddings = false,
      .experts = 128, .experts_per_token = 4, .expert_ffn_hidden = 2880,
      .glu_clamp = 7.0, .linear_bias = true, .yarn_factor = 32,
      .window = 128, .window_layers = 18}},
    {"gpt-oss-20b", "openai/gpt-oss-20b config.json; gpt-oss model card (arXiv:2508.10925)",
     {.layers = 24, .hidden = 2880, .ffn_hidden = 2880, .heads = 64, .kv_heads = 8,
      .head_dim = 64, .vocab = 201088, .glu = true, .tied_embeddings = false,
      .experts = 32, .experts_per_token = 4, .expert_ffn_hidden = 2880,
      .glu_clamp = 7.0, .linear_bias = true, .yarn_factor = 32,
      .window = 128, .window_layers = 12}},
    /* Nemotron-4: squared-ReLU MLPs (not gated), GQA with 8 KV heads,
     * untied 256K-token vocabulary, no biases. */
    {"nemotron-4-15b", "Nemotron-4 15B Technical Report (arXiv:2402.16819) Table 1",
     {.layers = 32, .hidden = 6144, .ffn_hidden = 24576, .heads = 48, .kv_heads = 8,
      .vocab = 256000, .glu = false, .tied_embeddings = false, DENSE}},
    {"nemotron-4-340b", "Nemotron-4 340B Technical Report (arXiv:2406.11704) Table 1",
     {.layers = 96, .hidden = 18432, .ffn_hidden = 73728, .heads = 96, .kv_heads = 8,
      .vocab = 256000, .glu = false, .tied_embeddings = false, DENSE}},
    /* Hybrid Mamba-2 / attention / MoE (52 layers: 23 Mamba-2, 23 MoE, 6
     * attention).  Squared-ReLU experts (not gated); the one shared expert
     * is 3712 wide, two expert widths (its FLOPs and weights as
     * shared_experts 2); no position embedding; vocabulary as the published
     * rows' FLOP count implies (Megatron-Bridge's tokenizer, 131072). */
    {"nemotron-3-nano",
     "Megatron-Bridge models/nemotronh/nemotron_h_provider.py Nemotron3NanoProvider "
     "(v0.4.0); Megatron-Core MambaMixer defaults (conv 4, chunk 128)",
     {.layers = 52, .hidden = 2688, .ffn_hidden = 1856, .heads = 32, .kv_heads = 2,
      .head_dim = 128, .vocab = 131072, .glu = false, .tied_embeddings = false,
      .experts = 128, .experts_per_token = 6, .shared_experts = 2, .expert_ffn_hidden = 1856,
      .hybrid = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME",
      .mamba_heads = 64, .mamba_head_dim = 64, .mamba_state = 128, .mamba_groups = 8}},
    /* Hybrid Mamba-2 / attention / LatentMoE (88 layers: 40 Mamba-2, 40
     * MoE, 8 attention): 512 squared-ReLU experts, top-22, each 2688 wide
     * at the 1024-wide latent; one 5376-wide shared expert at h (as
     * shared_experts 2 of 2688); two MTP depths of an attention + MoE
     * block (the recipes' mtp_num_layers 2; Super repeats one layer's
     * weights for both, counted here as two); no position embedding. */
    {"nemotron-3-super",
     "Megatron-LM examples/post_training/modelopt/conf/nvidia/"
     "NVIDIA-Nemotron-3-Super-120B-A12B-BF16.sh (83e7466c60); Megatron-Bridge "
     "tests/unit_tests/recipes/nemotronh/test_nemotron_3_super.py and "
     "recipes/nemotronh/h100/nemotron_3_super.py (067f987df)",
     {.layers = 88, .hidden = 4096, .ffn_hidden = 2688, .heads = 32, .kv_heads = 2,
      .head_dim = 128, .vocab = 131072, .glu = false, .tied_embeddings = false,
      .experts = 512, .experts_per_token = 22, .shared_experts = 2, .expert_ffn_hidden = 2688,
      .moe_latent = 1024, .mtp_layers = 2,
      .hybrid = "MEMEMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEM*EMEMEMEME",
      .mamba_heads = 128, .mamba_head_dim = 64, .mamba_state = 128, .mamba_groups = 8}},
    /* Hybrid Mamba-2 / attention / MLP, no MoE: squared-ReLU MLPs (not
     * gated), 8 KV groups of 128, untied embeddings, no position
     * embedding (Megatron-Bridge's MambaModelProvider defaults). */
    {"nemotron-h-8b",
     "Megatron-Bridge models/nemotronh/nemotron_h_provider.py NemotronHModelProvider8B (v0.4.2); "
     "vocab: its nvidia/Nemotron-H-8B-Base-8K config test fixture (v0.2.0)",
     {.layers = 52, .hidden = 4096, .ffn_hidden = 21504, .heads = 32, .kv_heads = 8,
      .head_dim = 128, .vocab = 131072, .glu = false, .tied_embeddings = false, DENSE,
      .hybrid = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-",
      .mamba_heads = 128, .mamba_head_dim = 64, .mamba_state = 128, .mamba_groups = 8}},
    {"nemotron-h-56b",
     "Megatron-Bridge nemotron_h_provider.py NemotronHModelProvider56B (v0.4.2); vocab: the "
     "Nemotron-H tokenizer's 131072 (the 8B's config; the 56B's config not read)",
     {.layers = 118, .hidden = 8192, .ffn_hidden = 32768, .heads = 64, .kv_heads = 8,
      .head_dim = 128, .vocab = 131072, .glu = false, .tied_embeddings = false, DENSE,
      .hybrid = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-",
      .mamba_heads = 256, .mamba_head_dim = 64, .mamba_state = 256, .mamba_groups = 8}},
    {"nemotron-nano-9b-v2",
     "Megatron-Bridge nemotron_h_provider.py NemotronNanoModelProvider9Bv2 (v0.4.2); vocab "
     "131,072: docs/models/nemotron/nemotronh.md",
     {.layers = 56, .hidden = 4480, .ffn_hidden = 15680, .heads = 40, .kv_heads = 8,
      .head_dim = 128, .vocab = 131072, .glu = false, .tied_embeddings = false, DENSE,
      .hybrid = "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-",
      .mamba_heads = 128, .mamba_head_dim = 80, .mamba_state = 128, .mamba_groups = 8}},
    {"nemotron-nano-12b-v2",
     "Megatron-Bridge nemotron_h_provider.py NemotronNanoModelProvider12Bv2 (v0.4.2); vocab "
     "131,072: docs/models/nemotron/nemotronh.md",
     {.layers = 62, .hidden = 5120, .ffn_hidden = 20480, .heads = 40, .kv_heads = 8,
      .head_dim = 128, .vocab = 131072, .glu = false, .tied_embeddings = false, DENSE,
      .hybrid = "M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M-",
      .mamba_heads = 128, .mamba_head_dim = 80, .mamba_state = 128, .mamba_groups = 8}},
};

#define N_PRESETS (sizeof presets / sizeof presets[0])

const ModelPreset *preset_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < N_PRESETS; i++)
        if (strcasecmp(presets[i].name, name) == 0)
            return &presets[i];
    return NULL;
}

const ModelPreset *preset_all(size_t *n)
{
    if (n)
        *n = N_PRESETS;
    return presets;
}
