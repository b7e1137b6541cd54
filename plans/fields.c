/* plans/fields.c — the table of editable plan fields (see fields.h). */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <strings.h>

#include "diag.h"
#include "fields.h"
#include "presets.h"
#include "yaml_plan.h"

#define OFF(T, m) offsetof(T, m), sizeof(((T *)0)->m)

/* Units of bare numbers for durations (PLAN-FORMAT.md: "a bare number is
 * the key's unit"). */
#define MS 1e-3
#define MIN 60.0
#define HOUR 3600.0
#define DAY 86400.0

static const FieldDef field_table[] = {
    /* plan */
    {"name", "name", FS_PLAN, FT_STR, FF_NAME, OFF(Plan, name), QTY_NUMBER, 0, 1, "", EN_NONE, "unique in the store; [A-Za-z0-9._ -]{1,64}"},
    {"description", "description", FS_PLAN, FT_STR, 0, OFF(Plan, description), QTY_NUMBER, 0, 1, "", EN_NONE, "free text"},
    {"accelerator", "accelerator", FS_PLAN, FT_STR, FF_ACCEL, OFF(Plan, accelerator), QTY_NUMBER, 0, 1, "", EN_NONE, "catalog id; default for every workload"},
    {"horizon_years", "horizon", FS_PLAN, FT_REAL, 0, OFF(Plan, horizon_years), QTY_NUMBER, 0, 1, "years", EN_NONE, "TCO horizon"},
    /* site */
    {"kind", "kind", FS_SITE, FT_ENUM, 0, OFF(SiteSpec, kind), QTY_NUMBER, 0, 1, "", EN_SITE, "on-prem | cloud"},
    {"instance", "instance", FS_SITE, FT_STR, FF_INSTANCE, OFF(SiteSpec, instance), QTY_NUMBER, 0, 1, "", EN_NONE, "cloud instance (catalog id)"},
    {"pricing", "pricing", FS_SITE, FT_ENUM, 0, OFF(SiteSpec, pricing), QTY_NUMBER, 0, 1, "", EN_PRICING, "on-demand | reserved-1y | reserved-3y | spot"},
    {"rack_power_kw", "rack_power", FS_SITE, FT_REAL, 0, OFF(SiteSpec, rack_power_kw), QTY_NUMBER, 0, 1, "kW", EN_NONE, "power limit of one rack"},
    {"cooling", "cooling", FS_SITE, FT_ENUM, 0, OFF(SiteSpec, cooling), QTY_NUMBER, 0, 1, "", EN_COOLING, "air | liquid"},
    {"pue", "pue", FS_SITE, FT_REAL, 0, OFF(SiteSpec, pue), QTY_NUMBER, 0, 1, "", EN_NONE, "power usage effectiveness"},
    {"power_price_kwh", "power_price", FS_SITE, FT_REAL, 0, OFF(SiteSpec, power_price_kwh), QTY_MONEY, 0, 1, "$/kWh", EN_NONE, "electricity price"},
    {"headroom", "headroom", FS_SITE, FT_REAL, 0, OFF(SiteSpec, headroom), QTY_FRACTION, 0, 1, "", EN_NONE, "spare capacity on top of the sized need"},
    {"prices.node_usd", "node quote", FS_SITE, FT_REAL, FF_QUOTE | FF_NODEQ, OFF(NodeQuote, usd), QTY_MONEY, 0, 1, "$/node", EN_NONE, "your price for one node of the plan's accelerator (site.prices.nodes); none removes it"},
    {"prices.node_source", "node source", FS_SITE, FT_STR, FF_QUOTE | FF_NODEQ, OFF(NodeQuote, source), QTY_NUMBER, 0, 1, "", EN_NONE, "where the node price comes from (vendor, quote number)"},
    {"prices.node_date", "node date", FS_SITE, FT_STR, FF_QUOTE | FF_NODEQ, OFF(NodeQuote, date), QTY_NUMBER, 0, 1, "", EN_NONE, "date of the quote, YYYY-MM-DD"},
    {"prices.resale", "resale", FS_SITE, FT_REAL, FF_QUOTE, OFF(SiteSpec, prices.resale.value), QTY_FRACTION, 0, 1, "", EN_NONE, "share of the hardware price recovered at the horizon"},
    {"prices.resale_source", "resale source", FS_SITE, FT_STR, FF_QUOTE, OFF(SiteSpec, prices.resale.source), QTY_NUMBER, 0, 1, "", EN_NONE, "where the resale figure comes from"},
    /* network */
    {"fabric", "fabric", FS_NETWORK, FT_ENUM, 0, OFF(NetworkSpec, fabric), QTY_NUMBER, 0, 1, "", EN_FABRIC, "infiniband | roce"},
    {"link", "link", FS_NETWORK, FT_REAL, 0, OFF(NetworkSpec, link_bps), QTY_RATE, 0, 1, "", EN_NONE, "per GPU, e.g. 400Gb/s"},
    {"topology", "topology", FS_NETWORK, FT_ENUM, 0, OFF(NetworkSpec, topology), QTY_NUMBER, 0, 1, "", EN_TOPOLOGY, "rail-optimized | fat-tree"},
    {"oversubscription", "oversub", FS_NETWORK, FT_REAL, 0, OFF(NetworkSpec, oversubscription), QTY_NUMBER, 0, 1, ":1", EN_NONE, "1 = non-blocking"},
    {"switch_ports", "switch_ports", FS_NETWORK, FT_INT, 0, OFF(NetworkSpec, switch_ports), QTY_COUNT, 0, 1, "ports", EN_NONE, "ports per switch"},
    /* storage */
    {"system", "system", FS_STORAGE, FT_ENUM, 0, OFF(StorageSpec, system), QTY_NUMBER, 0, 1, "", EN_STORAGE, "lustre | gpfs | weka | vast | nfs"},
    {"dataset", "dataset", FS_STORAGE, FT_REAL, 0, OFF(StorageSpec, dataset_bytes), QTY_BYTES, 0, 1, "", EN_NONE, "e.g. 2PB"},
    {"checkpoints_kept", "ckpts_kept", FS_STORAGE, FT_INT, 0, OFF(StorageSpec, checkpoints_kept), QTY_COUNT, 0, 1, "", EN_NONE, "checkpoints retained"},
    {"checkpoint_stall", "ckpt_stall", FS_STORAGE, FT_REAL, 0, OFF(StorageSpec, checkpoint_stall_s), QTY_DURATION, 1, 1, "s", EN_NONE, "longest acceptable blocking write"},
    /* tenancy */
    {"gpus", "pool gpus", FS_TENANCY, FT_INT, FF_AUTO0, OFF(TenancySpec, gpus), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "pool size; auto = smallest meeting the target"},
    {"policy", "policy", FS_TENANCY, FT_ENUM, 0, OFF(TenancySpec, policy), QTY_NUMBER, 0, 1, "", EN_POLICY, "fifo | fair-share | priority"},
    {"preemption", "preemption", FS_TENANCY, FT_BOOL, 0, OFF(TenancySpec, preemption), QTY_NUMBER, 0, 1, "", EN_NONE, ""},
    {"backfill", "backfill", FS_TENANCY, FT_BOOL, 0, OFF(TenancySpec, backfill), QTY_NUMBER, 0, 1, "", EN_NONE, ""},
    {"restore", "restore", FS_TENANCY, FT_REAL, 0, OFF(TenancySpec, restore_s), QTY_DURATION, MIN, 1, "min", EN_NONE, "lost work + restart per preemption"},
    {"horizon", "sim horizon", FS_TENANCY, FT_REAL, 0, OFF(TenancySpec, horizon_s), QTY_DURATION, DAY, 1, "days", EN_NONE, "simulated time"},
    {"wait_p95", "wait_p95", FS_TENANCY, FT_REAL, 0, OFF(TenancySpec, wait_p95_s), QTY_DURATION, HOUR, 1, "h", EN_NONE, "queueing target that sizes the pool"},
    {"mtbf_gpu", "mtbf_gpu", FS_TENANCY, FT_REAL, 0, OFF(TenancySpec, mtbf_gpu_h), QTY_DURATION, HOUR, HOUR, "h", EN_NONE, "mean time between failures of one GPU"},
    {"seed", "seed", FS_TENANCY, FT_U64, 0, OFF(TenancySpec, seed), QTY_COUNT, 0, 1, "", EN_NONE, "simulation seed"},
    {"trace", "trace", FS_TENANCY, FT_STR, 0, OFF(TenancySpec, trace), QTY_NUMBER, 0, 1, "", EN_NONE, "job trace to replay (path)"},
    /* workload: common */
    {"name", "name", FS_WORKLOAD, FT_STR, FF_NAME, OFF(Workload, name), QTY_NUMBER, 0, 1, "", EN_NONE, "unique in the plan"},
    {"kind", "kind", FS_WORKLOAD, FT_ENUM, 0, OFF(Workload, kind), QTY_NUMBER, 0, 1, "", EN_KIND, "training | inference"},
    {"team", "team", FS_WORKLOAD, FT_STR, 0, OFF(Workload, team), QTY_NUMBER, 0, 1, "", EN_NONE, "owner (a tenancy team), optional"},
    {"accelerator", "accelerator", FS_WORKLOAD, FT_STR, FF_ACCEL | FF_PLANDEF, OFF(Workload, accelerator), QTY_NUMBER, 0, 1, "", EN_NONE, "override of the plan's"},
    {"precision", "precision", FS_WORKLOAD, FT_ENUM, 0, OFF(Workload, precision), QTY_NUMBER, 0, 1, "", EN_PRECISION, "fp32 | bf16 | fp16 | fp8 | fp4"},
    /* training */
    {"seq_len", "seq_len", FS_WORKLOAD, FT_INT, FF_TRAIN, OFF(Workload, seq_len), QTY_COUNT, 0, 1, "tok", EN_NONE, "sequence length"},
    {"tokens", "tokens", FS_WORKLOAD, FT_REAL, FF_TRAIN, OFF(Workload, tokens), QTY_COUNT, 0, 1, "tok", EN_NONE, "total training tokens"},
    {"global_batch", "global_batch", FS_WORKLOAD, FT_INT, FF_TRAIN, OFF(Workload, global_batch), QTY_COUNT, 0, 1, "seq", EN_NONE, "sequences per step"},
    {"micro_batch", "micro_batch", FS_WORKLOAD, FT_INT, FF_TRAIN | FF_AUTO0, OFF(Workload, micro_batch), QTY_COUNT, 0, 1, "seq", EN_NONE, "auto = searched"},
    {"gpus", "gpus", FS_WORKLOAD, FT_INT, FF_TRAIN | FF_AUTO0, OFF(Workload, gpus), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "fixed size; auto = size for target_days"},
    {"target_days", "target_days", FS_WORKLOAD, FT_REAL, FF_TRAIN, OFF(Workload, target_days), QTY_DURATION, DAY, DAY, "days", EN_NONE, "finish within"},
    {"mfu", "mfu", FS_WORKLOAD, FT_REAL, FF_TRAIN | FF_AUTO0, OFF(Workload, mfu), QTY_FRACTION, 0, 1, "", EN_NONE, "auto (modelled) or a fixed 0-1"},
    {"optimizer_bytes_per_param", "opt_bytes", FS_WORKLOAD, FT_REAL, FF_TRAIN, OFF(Workload, optimizer_bytes_per_param), QTY_NUMBER, 0, 1, "B/param", EN_NONE, "weights+grads+optimizer state"},
    {"zero", "zero", FS_WORKLOAD, FT_INT, FF_TRAIN | FF_AUTONEG, OFF(Workload, zero), QTY_COUNT, 0, 1, "", EN_NONE, "0-3 sharding over data parallel; auto = the framework's"},
    {"recompute", "recompute", FS_WORKLOAD, FT_ENUM, FF_TRAIN | FF_AUTO0, OFF(Workload, recompute), QTY_NUMBER, 0, 1, "", EN_RECOMPUTE, "auto | none | selective | full"},
    {"recompute_modules", "  modules", FS_WORKLOAD, FT_STR, FF_TRAIN, OFF(Workload, recompute_modules), QTY_NUMBER, 0, 1, "", EN_NONE, "with selective: core_attn,layernorm,moe_act,mlp,moe,shared_experts,mla_up_proj; or every_other_mm"},
    {"offload_layers", "offload", FS_WORKLOAD, FT_INT, FF_TRAIN | FF_AUTO0, OFF(Workload, offload_layers), QTY_COUNT, 0, 1, "", EN_NONE, "layers per stage with activations in host memory; auto = none, or the search's where nothing fits"},
    {"flash_attention", "flash_attn", FS_WORKLOAD, FT_BOOL, FF_TRAIN, OFF(Workload, flash_attention), QTY_NUMBER, 0, 1, "", EN_NONE, ""},
    {"dp_sync_after_backward", "dp_sync_late", FS_WORKLOAD, FT_BOOL, FF_TRAIN, OFF(Workload, dp_sync_after_backward), QTY_NUMBER, 0, 1, "", EN_NONE, "DP all-reduce after the backward pass (not overlapped)"},
    {"ep_overlap", "ep_overlap", FS_WORKLOAD, FT_REAL, FF_TRAIN, OFF(Workload, ep_overlap), QTY_FRACTION, 0, 1, "", EN_NONE, "share of MoE all-to-alls hidden under compute, 0-1"},
    {"moe_fused_dispatch", "fused_a2a", FS_WORKLOAD, FT_TRI, FF_TRAIN, OFF(Workload, moe_fused_dispatch), QTY_NUMBER, 0, 1, "", EN_NONE, "MoE tokens sent once per rank and node (DeepEP / HybridEP): auto = the framework's choice | on | off = all-to-all"},
    {"moe_round_robin", "moe_rr", FS_WORKLOAD, FT_BOOL, FF_TRAIN, OFF(Workload, moe_round_robin), QTY_NUMBER, 0, 1, "", EN_NONE, "benchmark routing: expert (t*k+j) mod E, balanced and contiguous"},
    {"cuda_graph_full", "cuda_graphs", FS_WORKLOAD, FT_BOOL, FF_TRAIN, OFF(Workload, cuda_graph_full), QTY_NUMBER, 0, 1, "", EN_NONE, "whole forward-backward replayed as CUDA graphs: no per-layer host cost"},
    {"framework", "framework", FS_WORKLOAD, FT_STR, FF_TRAIN | FF_FRAMEWORK, OFF(Workload, framework), QTY_NUMBER, 0, 1, "", EN_NONE, "catalog profile: megatron | nemo | deepspeed | fsdp | maxtext …"},
    {"checkpoint_interval", "ckpt_every", FS_WORKLOAD, FT_REAL, FF_TRAIN | FF_AUTO0, OFF(Workload, checkpoint_interval_s), QTY_DURATION, MIN, 1, "min", EN_NONE, "auto = Young/Daly optimum"},
    {"parallel", "parallel", FS_WORKLOAD, FT_HEADING, FF_TRAIN, 0, 0, QTY_NUMBER, 0, 1, "", EN_NONE, ""},
    {"parallel.tp", "  tp", FS_WORKLOAD, FT_INT, FF_TRAIN | FF_AUTO0, OFF(Workload, parallel.tp), QTY_COUNT, 0, 1, "", EN_NONE, "tensor parallel; auto = searched"},
    {"parallel.pp", "  pp", FS_WORKLOAD, FT_INT, FF_TRAIN | FF_AUTO0, OFF(Workload, parallel.pp), QTY_COUNT, 0, 1, "", EN_NONE, "pipeline parallel"},
    {"parallel.vpp", "  vpp", FS_WORKLOAD, FT_INT, FF_TRAIN | FF_AUTO0, OFF(Workload, parallel.vpp), QTY_COUNT, 0, 1, "", EN_NONE, "virtual pipeline stages"},
    {"parallel.cp", "  cp", FS_WORKLOAD, FT_INT, FF_TRAIN | FF_AUTO0, OFF(Workload, parallel.cp), QTY_COUNT, 0, 1, "", EN_NONE, "context parallel"},
    {"parallel.ep", "  ep", FS_WORKLOAD, FT_INT, FF_TRAIN | FF_AUTO0, OFF(Workload, parallel.ep), QTY_COUNT, 0, 1, "", EN_NONE, "expert parallel"},
    {"parallel.sp", "  sp", FS_WORKLOAD, FT_TRI, FF_TRAIN, OFF(Workload, parallel.sp), QTY_NUMBER, 0, 1, "", EN_NONE, "sequence parallel: auto | on | off"},
    {"parallel.etp", "  etp", FS_WORKLOAD, FT_INT, FF_TRAIN | FF_AUTO0, OFF(Workload, parallel.etp), QTY_COUNT, 0, 1, "", EN_NONE, "expert TP; set = ep drawn from tp x dp"},
    /* inference */
    {"kv_precision", "kv_precision", FS_WORKLOAD, FT_ENUM, FF_INFER, OFF(Workload, kv_precision), QTY_NUMBER, 0, 1, "", EN_PRECISION, "KV cache precision"},
    {"prompt_tokens", "prompt_tokens", FS_WORKLOAD, FT_INT, FF_INFER, OFF(Workload, prompt_tokens), QTY_COUNT, 0, 1, "tok", EN_NONE, "mean prompt length"},
    {"output_tokens", "output_tokens", FS_WORKLOAD, FT_INT, FF_INFER, OFF(Workload, output_tokens), QTY_COUNT, 0, 1, "tok", EN_NONE, "mean generated length"},
    {"requests_per_s", "requests", FS_WORKLOAD, FT_REAL, FF_INFER, OFF(Workload, requests_per_s), QTY_NUMBER, 0, 1, "req/s", EN_NONE, "sustained peak arrival rate"},
    {"ttft_ms", "ttft", FS_WORKLOAD, FT_REAL, FF_INFER, OFF(Workload, ttft_s), QTY_DURATION, MS, 1, "ms", EN_NONE, "time-to-first-token target"},
    {"tpot_ms", "tpot", FS_WORKLOAD, FT_REAL, FF_INFER, OFF(Workload, tpot_s), QTY_DURATION, MS, 1, "ms", EN_NONE, "time-per-output-token target"},
    {"tp", "tp", FS_WORKLOAD, FT_INT, FF_INFER | FF_AUTO0, OFF(Workload, tp), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "GPUs per replica; auto = searched"},
    {"replicas", "replicas", FS_WORKLOAD, FT_INT, FF_INFER | FF_AUTO0, OFF(Workload, replicas), QTY_COUNT, 0, 1, "", EN_NONE, "auto = enough for the rate"},
    {"engine", "engine", FS_WORKLOAD, FT_STR, FF_INFER | FF_ENGINE, OFF(Workload, engine), QTY_NUMBER, 0, 1, "", EN_NONE, "catalog engine: vllm | sglang | trtllm | tgi …"},
    {"max_batch", "max_batch", FS_WORKLOAD, FT_INT, FF_INFER | FF_AUTO0, OFF(Workload, max_batch), QTY_COUNT, 0, 1, "seqs", EN_NONE, "sequences in flight; auto = the engine's"},
    {"chunk_tokens", "chunk_tokens", FS_WORKLOAD, FT_INT, FF_INFER | FF_AUTO0, OFF(Workload, chunk_tokens), QTY_COUNT, 0, 1, "tok", EN_NONE, "tokens per iteration; auto = the engine's"},
    {"prefix_cache_hit", "prefix_hit", FS_WORKLOAD, FT_REAL, FF_INFER, OFF(Workload, prefix_cache_hit), QTY_FRACTION, 0, 1, "", EN_NONE, "share of prompt tokens from a prefix cache, 0-0.99"},
    {"fp8_block_scales", "fp8_blocks", FS_WORKLOAD, FT_BOOL, FF_INFER, OFF(Workload, fp8_block_scales), QTY_NUMBER, 0, 1, "", EN_NONE, "FP8 with 128x128 block scales (DeepSeek-V3): MoE gathers move BF16"},
    {"speculative", "speculative", FS_WORKLOAD, FT_HEADING, FF_INFER, 0, 0, QTY_NUMBER, 0, 1, "", EN_NONE, ""},
    {"speculative.draft", "  draft", FS_WORKLOAD, FT_INT, FF_INFER, OFF(Workload, speculative.draft), QTY_COUNT, 0, 1, "tok", EN_NONE, "tokens drafted per step; 0 = off"},
    {"speculative.acceptance", "  acceptance", FS_WORKLOAD, FT_REAL, FF_INFER, OFF(Workload, speculative.acceptance), QTY_FRACTION, 0, 1, "", EN_NONE, "acceptance rate of one drafted token"},
    {"disaggregated", "disaggregated", FS_WORKLOAD, FT_HEADING, FF_INFER, 0, 0, QTY_NUMBER, 0, 1, "", EN_NONE, ""},
    {"disaggregated.mode", "  on", FS_WORKLOAD, FT_TRI, FF_INFER, OFF(Workload, disaggregated.mode), QTY_NUMBER, 0, 1, "", EN_NONE, "separate prefill/decode pools: auto | on | off"},
    {"disaggregated.prefill_gpus", "  prefill_gpus", FS_WORKLOAD, FT_INT, FF_INFER | FF_AUTO0, OFF(Workload, disaggregated.prefill_gpus), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "auto = sized for TTFT"},
    {"disaggregated.decode_gpus", "  decode_gpus", FS_WORKLOAD, FT_INT, FF_INFER | FF_AUTO0, OFF(Workload, disaggregated.decode_gpus), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "auto = sized for TPOT"},
    {"disaggregated.prefill_tp", "  prefill_tp", FS_WORKLOAD, FT_INT, FF_INFER | FF_AUTO0, OFF(Workload, disaggregated.prefill_tp), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "GPUs per prefill replica"},
    {"disaggregated.decode_tp", "  decode_tp", FS_WORKLOAD, FT_INT, FF_INFER | FF_AUTO0, OFF(Workload, disaggregated.decode_tp), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "GPUs per decode replica"},
    /* model shape */
    {"model", "model", FS_WORKLOAD, FT_HEADING, 0, 0, 0, QTY_NUMBER, 0, 1, "", EN_NONE, ""},
    {"model.preset", "  preset", FS_WORKLOAD, FT_STR, FF_PRESET, OFF(Workload, model.preset), QTY_NUMBER, 0, 1, "", EN_NONE, "published shape, e.g. llama-3-70b"},
    {"model.params", "  params", FS_WORKLOAD, FT_REAL, FF_SHAPE | FF_AUTO0, OFF(Workload, model.params), QTY_COUNT, 0, 1, "", EN_NONE, "auto = derived from the shape"},
    {"model.layers", "  layers", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.layers), QTY_COUNT, 0, 1, "", EN_NONE, ""},
    {"model.hidden", "  hidden", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.hidden), QTY_COUNT, 0, 1, "", EN_NONE, ""},
    {"model.ffn_hidden", "  ffn_hidden", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.ffn_hidden), QTY_COUNT, 0, 1, "", EN_NONE, ""},
    {"model.heads", "  heads", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.heads), QTY_COUNT, 0, 1, "", EN_NONE, ""},
    {"model.kv_heads", "  kv_heads", FS_WORKLOAD, FT_INT, FF_SHAPE | FF_AUTO0, OFF(Workload, model.kv_heads), QTY_COUNT, 0, 1, "", EN_NONE, "auto = heads (no GQA)"},
    {"model.head_dim", "  head_dim", FS_WORKLOAD, FT_INT, FF_SHAPE | FF_AUTO0, OFF(Workload, model.head_dim), QTY_COUNT, 0, 1, "", EN_NONE, "auto = hidden / heads"},
    {"model.vocab", "  vocab", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.vocab), QTY_COUNT, 0, 1, "", EN_NONE, ""},
    {"model.glu", "  glu", FS_WORKLOAD, FT_BOOL, FF_SHAPE, OFF(Workload, model.glu), QTY_NUMBER, 0, 1, "", EN_NONE, "3-matrix (SwiGLU) MLP"},
    {"model.tied_embeddings", "  tied_emb", FS_WORKLOAD, FT_BOOL, FF_SHAPE, OFF(Workload, model.tied_embeddings), QTY_NUMBER, 0, 1, "", EN_NONE, ""},
    {"model.experts", "  experts", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.experts), QTY_COUNT, 0, 1, "", EN_NONE, "routed experts; 1 = dense"},
    {"model.experts_per_token", "  experts/tok", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.experts_per_token), QTY_COUNT, 0, 1, "", EN_NONE, ""},
    {"model.shared_experts", "  shared_exp", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.shared_experts), QTY_COUNT, 0, 1, "", EN_NONE, ""},
    {"model.expert_ffn_hidden", "  expert_ffn", FS_WORKLOAD, FT_INT, FF_SHAPE | FF_AUTO0, OFF(Workload, model.expert_ffn_hidden), QTY_COUNT, 0, 1, "", EN_NONE, "auto = ffn_hidden"},
    {"model.moe_latent", "  moe_latent", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.moe_latent), QTY_COUNT, 0, 1, "", EN_NONE, "LatentMoE width; 0 = none"},
    {"model.dense_layers", "  dense_layers", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.dense_layers), QTY_COUNT, 0, 1, "", EN_NONE, "leading dense layers (MoE)"},
    {"model.q_lora_rank", "  q_lora_rank", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.q_lora_rank), QTY_COUNT, 0, 1, "", EN_NONE, "MLA"},
    {"model.kv_lora_rank", "  kv_lora_rank", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.kv_lora_rank), QTY_COUNT, 0, 1, "", EN_NONE, "MLA; 0 = none"},
    {"model.qk_rope_head_dim", "  qk_rope_dim", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.qk_rope_head_dim), QTY_COUNT, 0, 1, "", EN_NONE, "MLA"},
    {"model.qk_nope_head_dim", "  qk_nope_dim", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.qk_nope_head_dim), QTY_COUNT, 0, 1, "", EN_NONE, "MLA"},
    {"model.v_head_dim", "  v_head_dim", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.v_head_dim), QTY_COUNT, 0, 1, "", EN_NONE, "MLA"},
    {"model.mtp_layers", "  mtp_layers", FS_WORKLOAD, FT_INT, FF_SHAPE, OFF(Workload, model.mtp_layers), QTY_COUNT, 0, 1, "", EN_NONE, "multi-token prediction modules (training, last stage)"},
    {"model.hybrid", "  hybrid", FS_WORKLOAD, FT_STR, FF_SHAPE, OFF(Workload, model.hybrid), QTY_NUMBER, 0, 1, "", EN_NONE, "a symbol a layer: M Mamba-2, * attention, - MLP, E MoE; sets layers"},
    {"model.mamba_heads", "  mamba_heads", FS_WORKLOAD, FT_INT, FF_SHAPE | FF_AUTO0, OFF(Workload, model.mamba_heads), QTY_COUNT, 0, 1, "", EN_NONE, "auto = 2 x hidden / mamba_head_dim"},
    {"model.mamba_head_dim", "  mamba_hdim", FS_WORKLOAD, FT_INT, FF_SHAPE | FF_AUTO0, OFF(Workload, model.mamba_head_dim), QTY_COUNT, 0, 1, "", EN_NONE, "auto = 64"},
    {"model.mamba_state", "  mamba_state", FS_WORKLOAD, FT_INT, FF_SHAPE | FF_AUTO0, OFF(Workload, model.mamba_state), QTY_COUNT, 0, 1, "", EN_NONE, "SSM state size; auto = 128"},
    {"model.mamba_groups", "  mamba_groups", FS_WORKLOAD, FT_INT, FF_SHAPE | FF_AUTO0, OFF(Workload, model.mamba_groups), QTY_COUNT, 0, 1, "", EN_NONE, "B/C groups; auto = 8"},
    /* team */
    {"name", "name", FS_TEAM, FT_STR, FF_NAME, OFF(Team, name), QTY_NUMBER, 0, 1, "", EN_NONE, "team name"},
    {"weight", "weight", FS_TEAM, FT_REAL, 0, OFF(Team, weight), QTY_NUMBER, 0, 1, "", EN_NONE, "fair-share weight"},
    {"quota_gpus", "quota", FS_TEAM, FT_INT, 0, OFF(Team, quota_gpus), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "guaranteed share"},
    {"borrow_gpus", "borrow", FS_TEAM, FT_INT, FF_UNLIMITED, OFF(Team, borrow_gpus), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "beyond quota when others idle; unlimited"},
    /* job class */
    {"name", "name", FS_JOB, FT_STR, FF_NAME, OFF(JobClass, name), QTY_NUMBER, 0, 1, "", EN_NONE, "job class name"},
    {"per_day", "per_day", FS_JOB, FT_REAL, 0, OFF(JobClass, per_day), QTY_NUMBER, 0, 1, "/day", EN_NONE, "Poisson arrival rate"},
    {"gpus", "gpus", FS_JOB, FT_REAL, 0, OFF(JobClass, gpus), QTY_NUMBER, 0, 1, "GPUs", EN_NONE, "whole GPUs or a fraction < 1"},
    {"min_gpus", "min_gpus", FS_JOB, FT_INT, 0, OFF(JobClass, min_gpus), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "elastic minimum"},
    {"max_gpus", "max_gpus", FS_JOB, FT_INT, 0, OFF(JobClass, max_gpus), QTY_COUNT, 0, 1, "GPUs", EN_NONE, "elastic maximum; 0 = not elastic"},
    {"mig", "mig", FS_JOB, FT_STR, 0, OFF(JobClass, mig), QTY_NUMBER, 0, 1, "", EN_NONE, "MIG profile, e.g. 3g.40gb"},
    {"hours", "hours", FS_JOB, FT_REAL, 0, OFF(JobClass, hours), QTY_DURATION, HOUR, HOUR, "h", EN_NONE, "mean duration"},
    {"duration", "duration", FS_JOB, FT_ENUM, 0, OFF(JobClass, duration), QTY_NUMBER, 0, 1, "", EN_DURATION, "lognormal | exponential | fixed"},
    {"cv", "cv", FS_JOB, FT_REAL, 0, OFF(JobClass, cv), QTY_NUMBER, 0, 1, "", EN_NONE, "coefficient of variation"},
    {"priority", "priority", FS_JOB, FT_ENUM, 0, OFF(JobClass, priority), QTY_NUMBER, 0, 1, "", EN_PRIORITY, "low | normal | high"},
};
#define N_FIELDS (sizeof field_table / sizeof field_table[0])

static const char *const scope_prefix[FS_COUNT] = {"", "site", "network", "storage", "tenancy", "", "", ""};

const char *fields_scope_prefix(FieldScope s)
{
    return (s >= 0 && s < FS_COUNT) ? scope_prefix[s] : "";
}

/* ---- enumerations */

static void enum_range(FieldEnum e, int *lo, int *hi)
{
    *lo = 0;
    switch (e) {
    case EN_KIND: *hi = WL_INFERENCE; break;
    case EN_PRECISION: *hi = PREC_COUNT - 1; break;
    case EN_RECOMPUTE: *lo = RECOMPUTE_AUTO; *hi = RECOMPUTE_FULL; break;
    case EN_SITE: *hi = SITE_CLOUD; break;
    case EN_PRICING: *hi = PRICING_SPOT; break;
    case EN_COOLING: *hi = COOLING_LIQUID; break;
    case EN_FABRIC: *hi = FABRIC_ROCE; break;
    case EN_TOPOLOGY: *hi = TOPO_FAT_TREE; break;
    case EN_STORAGE: *hi = STORAGE_NFS; break;
    case EN_POLICY: *hi = POLICY_PRIORITY; break;
    case EN_DURATION: *hi = DUR_FIXED; break;
    case EN_PRIORITY: *hi = PRIO_HIGH; break;
    default: *hi = -1; break;
    }
}

static const char *enum_name(FieldEnum e, int v)
{
    const char *n = NULL;
    switch (e) {
    case EN_KIND: n = plan_kind_name((WorkloadKind)v); break;
    case EN_PRECISION: n = precision_name((Precision)v); break;
    case EN_RECOMPUTE: n = v < 0 ? "auto" : plan_recompute_name((Recompute)v); break;
    case EN_SITE: n = plan_site_kind_name((SiteKind)v); break;
    case EN_PRICING: n = plan_pricing_name((Pricing)v); break;
    case EN_COOLING: n = plan_cooling_name((Cooling)v); break;
    case EN_FABRIC: n = plan_fabric_name((Fabric)v); break;
    case EN_TOPOLOGY: n = plan_topology_name((Topology)v); break;
    case EN_STORAGE: n = plan_storage_name((StorageKind)v); break;
    case EN_POLICY: n = plan_policy_name((SchedPolicy)v); break;
    case EN_DURATION: n = plan_duration_name((DurationDist)v); break;
    case EN_PRIORITY: n = plan_priority_name((JobPriority)v); break;
    default: break;
    }
    return n ? n : "?";
}

/* ---- access */

static void *base_of(Plan *p, FieldScope s, FieldTarget t)
{
    switch (s) {
    case FS_PLAN: return p;
    case FS_SITE: return &p->site;
    case FS_NETWORK: return &p->network;
    case FS_STORAGE: return &p->storage;
    case FS_TENANCY: return &p->tenancy;
    case FS_WORKLOAD:
        return (t.wl >= 0 && t.wl < p->n_workloads) ? &p->workloads[t.wl] : NULL;
    case FS_TEAM:
        return (t.team >= 0 && t.team < p->tenancy.n_teams) ? &p->tenancy.teams[t.team] : NULL;
    case FS_JOB:
        if (t.team < 0 || t.team >= p->tenancy.n_teams)
            return NULL;
        return (t.job >= 0 && t.job < p->tenancy.teams[t.team].n_jobs)
                   ? &p->tenancy.teams[t.team].jobs[t.job] : NULL;
    default: return NULL;
    }
}

/* The node quote of the plan's accelerator in site.prices.nodes; create:
 * add one (empty) when there is none and room.  NULL when absent. */
static NodeQuote *node_quote_of(Plan *p, bool create)
{
    PriceSpec *ps = &p->site.prices;
    for (int i = 0; i < ps->n_nodes; i++)
        if (strcasecmp(ps->nodes[i].accelerator, p->accelerator) == 0)
            return &ps->nodes[i];
    if (!create || ps->n_nodes >= PLAN_MAX_QUOTES)
        return NULL;
    NodeQuote *q = &ps->nodes[ps->n_nodes++];
    memset(q, 0, sizeof *q);
    snprintf(q->accelerator, sizeof q->accelerator, "%s", p->accelerator);
    return q;
}

/* The struct a field's offset is in. */
/* The catalog default an empty framework / engine falls back to, else NULL. */
static const char *field_default_id(const FieldDef *f)
{
    return (f->flags & FF_FRAMEWORK) ? CATALOG_DEFAULT_FRAMEWORK
           : (f->flags & FF_ENGINE)  ? CATALOG_DEFAULT_ENGINE
                                     : NULL;
}

static void *field_base(Plan *p, const FieldDef *f, FieldTarget t, bool create)
{
    if (f->flags & FF_NODEQ)
        return node_quote_of(p, create);
    return base_of(p, f->scope, t);
}

/* A quote edited in the dashboard says so, and when, unless told. */
static void quote_defaults(Plan *p, const FieldDef *f)
{
    char *src = NULL, *date = NULL;
    size_t srclen = 0, datelen = 0;
    if (f->flags & FF_NODEQ) {
        NodeQuote *q = node_quote_of(p, false);
        if (!q)
            return;
        src = q->source, srclen = sizeof q->source;
        date = q->date, datelen = sizeof q->date;
    } else if (!strncmp(f->key, "prices.resale", 13)) {
        src = p->site.prices.resale.source, srclen = sizeof p->site.prices.resale.source;
        date = p->site.prices.resale.date, datelen = sizeof p->site.prices.resale.date;
    }
    if (!src)
        return;
    if (!src[0])
        snprintf(src, srclen, "entered in the dashboard");
    if (!date[0]) {
        time_t now = time(NULL);
        struct tm tm;
        if (gmtime_r(&now, &tm))
            strftime(date, datelen, "%Y-%m-%d", &tm);
    }
}

static int get_int(const void *b, const FieldDef *f)
{
    int v;
    memcpy(&v, (const char *)b + f->off, sizeof v);
    return v;
}

static void put_int(void *b, const FieldDef *f, int v)
{
    memcpy((char *)b + f->off, &v, sizeof v);
}

static bool applies(const FieldDef *f, const Plan *p, FieldTarget t)
{
    if (f->scope != t.scope)
        return false;
    if (f->scope == FS_WORKLOAD) {
        if (t.wl < 0 || t.wl >= p->n_workloads)
            return false;
        WorkloadKind k = p->workloads[t.wl].kind;
        if ((f->flags & FF_TRAIN) && k != WL_TRAINING)
            return false;
        if ((f->flags & FF_INFER) && k != WL_INFERENCE)
            return false;
    }
    return true;
}

int fields_for(const Plan *p, FieldTarget t, const FieldDef **out, int max)
{
    int n = 0;
    for (size_t i = 0; i < N_FIELDS && n < max; i++)
        if (applies(&field_table[i], p, t))
            out[n++] = &field_table[i];
    return n;
}

static const FieldDef *find_in(const Plan *p, FieldTarget t, const char *key)
{
    for (size_t i = 0; i < N_FIELDS; i++)
        if (field_table[i].type != FT_HEADING && applies(&field_table[i], p, t) &&
            strcasecmp(field_table[i].key, key) == 0)
            return &field_table[i];
    return NULL;
}

const FieldDef *fields_find(const Plan *p, FieldTarget sel, const char *key, FieldTarget *resolved)
{
    FieldTarget t = sel;
    /* "site.pue" etc. */
    for (int s = FS_SITE; s <= FS_TENANCY; s++) {
        size_t pl = strlen(scope_prefix[s]);
        if (strncasecmp(key, scope_prefix[s], pl) == 0 && key[pl] == '.') {
            t.scope = (FieldScope)s;
            const FieldDef *f = find_in(p, t, key + pl + 1);
            if (f && resolved)
                *resolved = t;
            return f;
        }
    }
    FieldTarget order[6];
    int n = 0;
    order[n] = sel; order[n++].scope = FS_PLAN;
    if (sel.scope != FS_PLAN)
        order[n++] = sel;
    for (int s = FS_SITE; s <= FS_TENANCY; s++)
        if (s != (int)sel.scope) {
            order[n] = sel;
            order[n++].scope = (FieldScope)s;
        }
    for (int i = 0; i < n; i++) {
        const FieldDef *f = find_in(p, order[i], key);
        if (f) {
            if (resolved)
                *resolved = order[i];
            return f;
        }
    }
    /* "chat-70b.requests_per_s", "research.quota_gpus": a field of a named
     * workload or team, whatever is selected */
    const char *dot = strchr(key, '.');
    for (; dot; dot = strchr(dot + 1, '.')) {
        size_t nl = (size_t)(dot - key);
        FieldTarget named = {FS_WORKLOAD, 0, 0, 0};
        for (int i = 0; i < p->n_workloads; i++)
            if (strlen(p->workloads[i].name) == nl && strncmp(p->workloads[i].name, key, nl) == 0) {
                named.wl = i;
                const FieldDef *f = find_in(p, named, dot + 1);
                if (f && resolved)
                    *resolved = named;
                if (f)
                    return f;
            }
        named.scope = FS_TEAM;
        for (int i = 0; i < p->tenancy.n_teams; i++)
            if (strlen(p->tenancy.teams[i].name) == nl &&
                strncmp(p->tenancy.teams[i].name, key, nl) == 0) {
                named.team = i;
                const FieldDef *f = find_in(p, named, dot + 1);
                if (f && resolved)
                    *resolved = named;
                if (f)
                    return f;
            }
    }
    return NULL;
}

int fields_keys(const Plan *p, FieldTarget sel, const char **out, int max)
{
    /* "site.pue" etc.: built from constant tables, the same on every call */
    static char qualified[N_FIELDS][64];
    int n = 0;
    for (size_t i = 0; i < N_FIELDS && n < max; i++) {
        const FieldDef *f = &field_table[i];
        if (f->type == FT_HEADING)
            continue;
        if (f->scope == FS_PLAN || applies(f, p, sel)) {
            out[n++] = f->key;
        } else if (f->scope >= FS_SITE && f->scope <= FS_TENANCY) {
            snprintf(qualified[i], sizeof qualified[i], "%s.%s", scope_prefix[f->scope], f->key);
            out[n++] = qualified[i];
        }
    }
    return n;
}

/* ---- formatting */

static const char *fmt_real(const FieldDef *f, double v, char *buf, size_t len)
{
    if ((f->flags & FF_AUTO0) && v == 0) {
        snprintf(buf, len, "auto");
    } else if ((f->flags & FF_UNLIMITED) && v < 0) {
        snprintf(buf, len, "unlimited");
    } else if (f->qk == QTY_DURATION) {
        snprintf(buf, len, "%.6g", v * f->sdiv / f->bare);
    } else if (f->qk == QTY_NUMBER) {
        snprintf(buf, len, "%.6g", v);
    } else {
        quantity_format(v, f->qk, false, buf, len);
    }
    return buf;
}

const char *field_format(const FieldDef *f, const Plan *p, FieldTarget t, char *buf, size_t len)
{
    buf[0] = '\0';
    void *b = field_base((Plan *)p, f, t, false);
    if (!b && (f->flags & FF_NODEQ)) {
        snprintf(buf, len, "none");
        return buf;
    }
    if (!b || f->type == FT_HEADING)
        return buf;
    const char *at = (const char *)b + f->off;
    switch (f->type) {
    case FT_STR:
        if ((f->flags & FF_PLANDEF) && !*at)
            snprintf(buf, len, "(plan)");
        else if (field_default_id(f) && !*at)
            snprintf(buf, len, "%s (default)", field_default_id(f));
        else
            snprintf(buf, len, "%s", at);
        break;
    case FT_INT: {
        int v = get_int(b, f);
        if (((f->flags & FF_AUTO0) && v == 0) || ((f->flags & FF_AUTONEG) && v < 0))
            snprintf(buf, len, "auto");
        else if ((f->flags & FF_UNLIMITED) && v < 0)
            snprintf(buf, len, "unlimited");
        else
            snprintf(buf, len, "%d", v);
        break;
    }
    case FT_U64: {
        uint64_t v;
        memcpy(&v, at, sizeof v);
        snprintf(buf, len, "%llu", (unsigned long long)v);
        break;
    }
    case FT_REAL: {
        double v;
        memcpy(&v, at, sizeof v);
        fmt_real(f, v, buf, len);
        break;
    }
    case FT_ENUM:
        snprintf(buf, len, "%s", enum_name(f->en, get_int(b, f)));
        break;
    case FT_BOOL: {
        bool v;
        memcpy(&v, at, sizeof v);
        snprintf(buf, len, "%s", v ? "true" : "false");
        break;
    }
    case FT_TRI: {
        int v = get_int(b, f);
        snprintf(buf, len, "%s", v < 0 ? "auto" : v ? "on" : "off");
        break;
    }
    default:
        break;
    }
    return buf;
}

/* ---- parsing */

static int parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(s, yes[i]) == 0) { *out = true; return 0; }
        if (strcasecmp(s, no[i]) == 0) { *out = false; return 0; }
    }
    return -1;
}

/* Bounded copy; the caller has checked the length already. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static int fail(char *err, size_t len, const char *fmt, const char *a, const char *b)
{
    snprintf(err, len, fmt, a, b);
    return -1;
}

static const char *trimmed(const char *text, char *buf, size_t len)
{
    while (isspace((unsigned char)*text))
        text++;
    snprintf(buf, len, "%s", text);
    size_t n = strlen(buf);
    while (n && isspace((unsigned char)buf[n - 1]))
        buf[--n] = '\0';
    return buf;
}

static int set_catalog_id(const FieldDef *f, char *dst, const char *s, const Catalog *cat,
                          char *err, size_t errlen)
{
    if ((f->flags & FF_PLANDEF) && (!*s || strcasecmp(s, "plan") == 0 || strncmp(s, "(plan", 5) == 0)) {
        dst[0] = '\0';
        return 0;
    }
    if (field_default_id(f) && !*s) {
        dst[0] = '\0';
        return 0;
    }
    const char *id = NULL;
    if (f->flags & FF_ACCEL) {
        const Accelerator *a = cat ? catalog_find_accelerator(cat, s) : NULL;
        if (a)
            id = a->id;
    } else if (f->flags & FF_INSTANCE) {
        const Instance *in = cat ? catalog_find_instance(cat, s) : NULL;
        if (in)
            id = in->id;
    }
    const char *cands[256];
    int n = field_choices(f, NULL, cat, cands, 256);
    for (int i = 0; !id && i < n; i++)
        if (strcasecmp(cands[i], s) == 0)
            id = cands[i];
    if (!id || strcmp(id, "(plan)") == 0) {
        const char *near = n ? diag_nearest(s, cands, (size_t)n) : NULL;
        char hint[96] = "";
        if (near)
            snprintf(hint, sizeof hint, " (did you mean %s?)", near);
        const char *fmt = (f->flags & FF_ACCEL)      ? "'%s' is not an accelerator of the catalog%s"
                          : (f->flags & FF_INSTANCE)   ? "'%s' is not an instance of the catalog%s"
                          : (f->flags & FF_FRAMEWORK) ? "'%s' is not a training framework of the catalog%s"
                                                       : "'%s' is not a serving engine of the catalog%s";
        return fail(err, errlen, fmt, s, hint);
    }
    snprintf(dst, f->size, "%s", id);
    return 0;
}

/* The edits a field implies elsewhere, so that no single edit is refused
 * for the state another field is in (issue 15): a training run is sized by
 * a fixed gpus count or by target_days, so setting one clears the other;
 * a new plan accelerator maps the job classes' MIG profiles onto its own.
 * `before` is the plan as it was, `after` the edited copy and b the edited
 * object in it.  Returns 0 (note says what else changed) or -1 with err. */
static int reconcile(const FieldDef *f, const Plan *before, Plan *after, void *b,
                     const Catalog *cat, char *note, size_t notelen, char *err, size_t errlen)
{
    if (f->scope == FS_WORKLOAD && (f->flags & FF_TRAIN) &&
        (strcmp(f->key, "gpus") == 0 || strcmp(f->key, "target_days") == 0)) {
        Workload *w = b;
        bool set_gpus = f->key[0] == 'g';
        if (set_gpus && w->gpus > 0 && w->target_days > 0) {
            w->target_days = 0;
            snprintf(note, notelen, "size by GPUs: target_days cleared (set target_days to size "
                     "by deadline)");
        } else if (!set_gpus && w->target_days > 0 && w->gpus > 0) {
            w->gpus = 0;
            snprintf(note, notelen, "size by deadline: gpus now auto (set gpus to fix the size)");
        } else if (w->gpus <= 0 && !(w->target_days > 0)) {
            snprintf(err, errlen, set_gpus ? "gpus auto sizes the run by its deadline: set "
                                             "target_days instead (it makes gpus auto)"
                                           : "without target_days the run needs a size: set "
                                             "gpus instead (it clears target_days)");
            return -1;
        }
    }
    if (f->scope == FS_WORKLOAD && strcmp(f->key, "model.hybrid") == 0) {
        /* a hybrid model's layers are its pattern's symbols */
        Workload *w = b;
        int n = (int)strlen(w->model.hybrid);
        if (n > 0 && n != w->model.layers) {
            w->model.layers = n;
            snprintf(note, notelen, "layers now %d (the pattern's length)", n);
        }
    }
    if (f->scope == FS_PLAN && (f->flags & FF_ACCEL) && cat &&
        strcasecmp(before->accelerator, after->accelerator) != 0) {
        const Accelerator *to = catalog_find_accelerator(cat, after->accelerator);
        char list[400];
        if (plan_remap_mig(after, catalog_find_accelerator(cat, before->accelerator), to, list,
                           sizeof list) > 0)
            snprintf(note, notelen, "MIG jobs moved to %s: %s", to ? to->id : after->accelerator,
                     list);
    }
    return 0;
}

/* Store v (the field's stored unit: SI / sdiv for reals) into the numeric
 * field f of object b; shown is the value as the user gave it, for messages. */
static int put_number(const FieldDef *f, void *b, double v, const char *shown, char *err,
                      size_t errlen)
{
    char *at = (char *)b + f->off;
    if (f->type == FT_REAL) {
        memcpy(at, &v, sizeof v);
        return 0;
    }
    if (v != floor(v))
        return fail(err, errlen, "'%s' is not a whole number (%s)", shown, f->key);
    if (f->type == FT_INT) {
        if (v > INT_MAX || v < INT_MIN)
            return fail(err, errlen, "'%s' is too large for %s", shown, f->key);
        put_int(b, f, (int)v);
    } else {
        if (v > 18446744073709549568.0) /* the largest double below 2^64 */
            return fail(err, errlen, "'%s' is too large for %s", shown, f->key);
        uint64_t u = (uint64_t)(v < 0 ? 0 : v);
        memcpy(at, &u, sizeof u);
    }
    return 0;
}

int field_set(const FieldDef *f, Plan *p, FieldTarget t, const char *text, const Catalog *cat,
              char *err, size_t errlen)
{
    return field_edit(f, p, t, text, cat, NULL, 0, err, errlen);
}

int field_edit(const FieldDef *f, Plan *p, FieldTarget t, const char *text, const Catalog *cat,
               char *note, size_t notelen, char *err, size_t errlen)
{
    char nbuf[8];
    if (!note || notelen == 0) {
        note = nbuf;
        notelen = sizeof nbuf;
    }
    note[0] = '\0';
    char sbuf[PLAN_TEXT_LEN];
    const char *s = trimmed(text ? text : "", sbuf, sizeof sbuf);
    Plan *tmp = malloc(sizeof *tmp);
    if (!tmp)
        return fail(err, errlen, "out of memory%s%s", "", "");
    *tmp = *p;
    if ((f->flags & FF_NODEQ) && (!strcasecmp(s, "none") || !*s)) {
        /* remove the plan accelerator's node quote */
        NodeQuote *q = node_quote_of(tmp, false);
        if (q) {
            PriceSpec *ps = &tmp->site.prices;
            int k = (int)(q - ps->nodes);
            memmove(&ps->nodes[k], &ps->nodes[k + 1], (size_t)(ps->n_nodes - k - 1) * sizeof *q);
            ps->n_nodes--;
            snprintf(note, notelen, "node quote removed: the catalog's price applies");
        }
        *p = *tmp;
        free(tmp);
        return 0;
    }
    void *b = field_base(tmp, f, t, true);
    if (!b || f->type == FT_HEADING) {
        free(tmp);
        return fail(err, errlen, "nothing to edit here%s%s", "", "");
    }
    char *at = (char *)b + f->off;
    int rc = 0;
    char qerr[256];
    switch (f->type) {
    case FT_STR:
        if ((f->flags & FF_NAME) && !*s) {
            rc = fail(err, errlen, "%s must not be empty%s", f->key, "");
        } else if (strlen(s) >= f->size) {
            rc = fail(err, errlen, "'%s' is too long for %s", s, f->key);
        } else if (f->flags & (FF_ACCEL | FF_INSTANCE | FF_FRAMEWORK | FF_ENGINE)) {
            rc = set_catalog_id(f, at, s, cat, err, errlen);
        } else if (f->flags & FF_PRESET) {
            Workload *w = (Workload *)b;
            if (!*s) {
                w->model.preset[0] = '\0';
            } else {
                const ModelPreset *mp = preset_find(s);
                if (!mp) {
                    size_t n = 0;
                    const ModelPreset *all = preset_all(&n);
                    const char *cands[128];
                    size_t k = 0;
                    for (size_t i = 0; i < n && k < 128; i++)
                        cands[k++] = all[i].name;
                    const char *near = diag_nearest(s, cands, k);
                    char hint[96] = "";
                    if (near)
                        snprintf(hint, sizeof hint, " (did you mean %s?)", near);
                    rc = fail(err, errlen, "unknown model preset '%s'%s", s, hint);
                } else {
                    w->model = mp->shape;
                    snprintf(w->model.preset, sizeof w->model.preset, "%s", mp->name);
                }
            }
        } else {
            if (f->scope == FS_TEAM && strcmp(f->key, "name") == 0) {
                /* a renamed team keeps its workloads */
                for (int i = 0; i < tmp->n_workloads; i++)
                    if (strcmp(tmp->workloads[i].team, at) == 0)
                        copy_str(tmp->workloads[i].team, sizeof tmp->workloads[i].team, s);
            }
            snprintf(at, f->size, "%s", s);
        }
        break;
    case FT_INT:
    case FT_U64: {
        double v;
        if ((f->flags & FF_AUTO0) && strcasecmp(s, "auto") == 0) {
            v = 0;
        } else if ((f->flags & FF_AUTONEG) && strcasecmp(s, "auto") == 0) {
            v = -1;
        } else if ((f->flags & FF_UNLIMITED) && (strcasecmp(s, "unlimited") == 0 || strcmp(s, "-1") == 0)) {
            v = -1;
        } else if (quantity_parse(s, QTY_COUNT, 1, &v, qerr, sizeof qerr) != 0) {
            rc = fail(err, errlen, "%s%s", qerr, "");
            break;
        }
        rc = put_number(f, b, v, s, err, errlen);
        break;
    }
    case FT_REAL: {
        double v;
        if ((f->flags & FF_AUTO0) && strcasecmp(s, "auto") == 0) {
            v = 0;
        } else if ((f->flags & FF_UNLIMITED) && strcasecmp(s, "unlimited") == 0) {
            v = -1;
        } else if (quantity_parse(s, f->qk, f->bare > 0 ? f->bare : 1, &v, qerr, sizeof qerr) != 0) {
            rc = fail(err, errlen, "%s%s", qerr, "");
            break;
        } else {
            v /= f->sdiv;
        }
        rc = put_number(f, b, v, s, err, errlen);
        break;
    }
    case FT_ENUM: {
        int lo, hi, found = 0;
        enum_range(f->en, &lo, &hi);
        for (int v = lo; v <= hi; v++)
            if (strcasecmp(s, enum_name(f->en, v)) == 0) {
                put_int(b, f, v);
                found = 1;
                break;
            }
        if (!found) {
            char names[200] = "";
            for (int v = lo; v <= hi; v++) {
                strncat(names, enum_name(f->en, v), sizeof names - strlen(names) - 1);
                if (v < hi)
                    strncat(names, " | ", sizeof names - strlen(names) - 1);
            }
            rc = fail(err, errlen, "'%s' is not one of %s", s, names);
        }
        break;
    }
    case FT_BOOL: {
        bool v;
        if (parse_bool(s, &v) != 0)
            rc = fail(err, errlen, "'%s' is not true or false%s", s, "");
        else
            memcpy(at, &v, sizeof v);
        break;
    }
    case FT_TRI: {
        bool v;
        if (strcasecmp(s, "auto") == 0)
            put_int(b, f, -1);
        else if (parse_bool(s, &v) == 0)
            put_int(b, f, v ? 1 : 0);
        else
            rc = fail(err, errlen, "'%s' is not auto, on or off%s", s, "");
        break;
    }
    default:
        rc = -1;
        break;
    }
    if (rc == 0 && (f->flags & FF_QUOTE))
        quote_defaults(tmp, f);
    if (rc == 0) {
        if ((f->flags & FF_SHAPE) && f->scope == FS_WORKLOAD)
            ((Workload *)b)->model.preset[0] = '\0'; /* no longer the published shape */
        rc = reconcile(f, p, tmp, b, cat, note, notelen, err, errlen);
    }
    if (rc == 0)
        *p = *tmp;
    free(tmp);
    return rc;
}

bool field_is_choice(const FieldDef *f)
{
    return f->type == FT_ENUM || f->type == FT_BOOL || f->type == FT_TRI ||
           (f->flags & (FF_ACCEL | FF_INSTANCE | FF_PRESET | FF_FRAMEWORK | FF_ENGINE));
}

bool field_is_inherited(const FieldDef *f, const Plan *p, FieldTarget t)
{
    if (f->type != FT_STR || !(f->flags & FF_PLANDEF || field_default_id(f)))
        return false;
    const void *b = field_base((Plan *)p, f, t, false);
    return b && !*((const char *)b + f->off);
}

int field_choice_index(const FieldDef *f, const Plan *p, FieldTarget t, const char *const *ch, int n)
{
    char cur[PLAN_TEXT_LEN];
    if (field_is_inherited(f, p, t))
        snprintf(cur, sizeof cur, "%s", (f->flags & FF_PLANDEF) ? "(plan)" : field_default_id(f));
    else
        field_format(f, p, t, cur, sizeof cur);
    for (int i = 0; i < n; i++)
        if (strcasecmp(ch[i], cur) == 0)
            return i;
    return -1;
}

int field_choices(const FieldDef *f, const Plan *p, const Catalog *cat, const char **out, int max)
{
    (void)p;
    int n = 0;
    if (f->type == FT_ENUM) {
        int lo, hi;
        enum_range(f->en, &lo, &hi);
        for (int v = lo; v <= hi && n < max; v++)
            out[n++] = enum_name(f->en, v);
    } else if (f->type == FT_BOOL) {
        out[n++] = "false";
        out[n++] = "true";
    } else if (f->type == FT_TRI) {
        out[n++] = "auto";
        out[n++] = "off";
        out[n++] = "on";
    } else if (f->flags & FF_ACCEL) {
        if (f->flags & FF_PLANDEF)
            out[n++] = "(plan)";
        for (size_t i = 0; cat && i < cat->n_accelerators && n < max; i++)
            out[n++] = cat->accelerators[i].id;
    } else if (f->flags & FF_INSTANCE) {
        for (size_t i = 0; cat && i < cat->n_instances && n < max; i++)
            out[n++] = cat->instances[i].id;
    } else if (f->flags & FF_FRAMEWORK) {
        /* profiles only: "megatron@GB200" rows are calibrations of one */
        for (size_t i = 0; cat && i < cat->n_frameworks && n < max; i++)
            if (!strchr(cat->frameworks[i].id, '@'))
                out[n++] = cat->frameworks[i].id;
    } else if (f->flags & FF_ENGINE) {
        for (size_t i = 0; cat && i < cat->n_engines && n < max; i++)
            out[n++] = cat->engines[i].id;
    } else if (f->flags & FF_PRESET) {
        size_t np = 0;
        const ModelPreset *all = preset_all(&np);
        for (size_t i = 0; i < np && n < max; i++)
            out[n++] = all[i].name;
    }
    return n;
}

int field_cycle(const FieldDef *f, Plan *p, FieldTarget t, int dir, const Catalog *cat)
{
    return field_step(f, p, t, dir, cat, NULL, 0);
}

int field_step(const FieldDef *f, Plan *p, FieldTarget t, int dir, const Catalog *cat, char *note,
               size_t notelen)
{
    if (!field_is_choice(f))
        return -1;
    const char *ch[256];
    int n = field_choices(f, p, cat, ch, 256);
    if (n == 0)
        return -1;
    int idx = field_choice_index(f, p, t, ch, n);
    idx = idx < 0 ? 0 : ((idx + dir) % n + n) % n;
    char err[256];
    return field_edit(f, p, t, ch[idx], cat, note, notelen, err, sizeof err);
}

bool field_is_number(const FieldDef *f)
{
    return f->type == FT_INT || f->type == FT_U64 || f->type == FT_REAL;
}

int field_set_number(const FieldDef *f, Plan *p, FieldTarget t, double si, char *err,
                     size_t errlen)
{
    void *b = base_of(p, f->scope, t);
    if (!b || !field_is_number(f))
        return fail(err, errlen, "%s is not a number%s", f->key, "");
    if (!isfinite(si))
        return fail(err, errlen, "%s: the value is not a finite number%s", f->key, "");
    char shown[64];
    snprintf(shown, sizeof shown, "%.17g", si);
    /* work on the field alone: put_number writes only on success */
    return put_number(f, b, f->type == FT_REAL ? si / f->sdiv : si, shown, err, errlen);
}

double field_number(const FieldDef *f, const Plan *p, FieldTarget t)
{
    const void *b = base_of((Plan *)p, f->scope, t);
    if (!b || !field_is_number(f))
        return NAN;
    const char *at = (const char *)b + f->off;
    if (f->type == FT_INT)
        return get_int(b, f);
    if (f->type == FT_U64) {
        uint64_t u;
        memcpy(&u, at, sizeof u);
        return (double)u;
    }
    double v;
    memcpy(&v, at, sizeof v);
    return v * f->sdiv;
}

/* ---- paths over the whole plan */

/* The index of the item whose name followed by '.' starts s, the longest
 * such name (names may hold dots), or -1.  *rest points after the dot. */
static int match_name(const char *s, const char *names, size_t stride, int n, const char **rest)
{
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; i < n; i++) {
        const char *nm = names + (size_t)i * stride;
        size_t l = strlen(nm);
        if (l > best_len && strncmp(s, nm, l) == 0 && s[l] == '.') {
            best = i;
            best_len = l;
        }
    }
    if (best >= 0)
        *rest = s + best_len + 1;
    return best;
}

const FieldDef *fields_path_find(const Plan *p, const char *path, FieldTarget *resolved)
{
    FieldTarget t = {FS_PLAN, -1, -1, -1};
    const char *key = path;
    const char *rest;
    if (strncmp(path, "workloads.", 10) == 0) {
        t.scope = FS_WORKLOAD;
        t.wl = match_name(path + 10, p->workloads[0].name, sizeof p->workloads[0],
                          p->n_workloads, &rest);
        if (t.wl < 0)
            return NULL;
        key = rest;
    } else if (strncmp(path, "tenancy.teams.", 14) == 0) {
        t.scope = FS_TEAM;
        t.team = match_name(path + 14, p->tenancy.teams[0].name, sizeof p->tenancy.teams[0],
                            p->tenancy.n_teams, &rest);
        if (t.team < 0)
            return NULL;
        key = rest;
        const Team *tm = &p->tenancy.teams[t.team];
        if (strncmp(key, "jobs.", 5) == 0) {
            t.scope = FS_JOB;
            t.job = match_name(key + 5, tm->jobs[0].name, sizeof tm->jobs[0], tm->n_jobs, &rest);
            if (t.job < 0)
                return NULL;
            key = rest;
        }
    } else {
        for (int s = FS_SITE; s <= FS_TENANCY; s++) {
            size_t pl = strlen(scope_prefix[s]);
            if (strncmp(path, scope_prefix[s], pl) == 0 && path[pl] == '.') {
                t.scope = (FieldScope)s;
                key = path + pl + 1;
                break;
            }
        }
    }
    const FieldDef *f = find_in(p, t, key);
    if (f && resolved)
        *resolved = t;
    return f;
}

const char *fields_path_of(const FieldDef *f, const Plan *p, FieldTarget t, char *buf, size_t len)
{
    switch (f->scope) {
    case FS_WORKLOAD:
        snprintf(buf, len, "workloads.%s.%s", p->workloads[t.wl].name, f->key);
        break;
    case FS_TEAM:
        snprintf(buf, len, "tenancy.teams.%s.%s", p->tenancy.teams[t.team].name, f->key);
        break;
    case FS_JOB:
        snprintf(buf, len, "tenancy.teams.%s.jobs.%s.%s", p->tenancy.teams[t.team].name,
                 p->tenancy.teams[t.team].jobs[t.job].name, f->key);
        break;
    case FS_PLAN:
        snprintf(buf, len, "%s", f->key);
        break;
    default:
        snprintf(buf, len, "%s.%s", scope_prefix[f->scope], f->key);
        break;
    }
    return buf;
}

/* Append the paths of every field of target t to out[*n..max). */
static void paths_of(const Plan *p, FieldTarget t, char (*out)[FIELDS_PATH_LEN], int *n, int max)
{
    for (size_t i = 0; i < N_FIELDS && *n < max; i++)
        if (field_table[i].type != FT_HEADING && applies(&field_table[i], p, t))
            fields_path_of(&field_table[i], p, t, out[(*n)++], FIELDS_PATH_LEN);
}

int fields_paths(const Plan *p, char (*out)[FIELDS_PATH_LEN], int max)
{
    int n = 0;
    for (int s = FS_PLAN; s <= FS_TENANCY; s++)
        paths_of(p, (FieldTarget){(FieldScope)s, -1, -1, -1}, out, &n, max);
    for (int w = 0; w < p->n_workloads; w++)
        paths_of(p, (FieldTarget){FS_WORKLOAD, w, -1, -1}, out, &n, max);
    for (int tm = 0; tm < p->tenancy.n_teams; tm++) {
        paths_of(p, (FieldTarget){FS_TEAM, -1, tm, -1}, out, &n, max);
        for (int j = 0; j < p->tenancy.teams[tm].n_jobs; j++)
            paths_of(p, (FieldTarget){FS_JOB, -1, tm, j}, out, &n, max);
    }
    return n;
}
