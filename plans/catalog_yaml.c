/* plans/catalog_yaml.c — the YAML catalog (data/catalog/<name>.yaml) into a Catalog.
 *
 * File format.  Every file is one YAML mapping whose keys are any of the
 * sections below (a file may hold several sections; file names do not
 * matter):
 *
 *   accelerators: [ {id: H100-SXM, hbm_gb: 80, peak_tflops: {bf16: 989.4}, ...}, ... ]
 *   instances:    [ {id: p5.48xlarge, provider: aws, accelerator: H100-SXM, accel_count: 8, ...} ]
 *   storage:      [ {id: lustre, unit_name: ..., unit_read_gb_s: ..., ...} ]
 *   engines:      [ {id: vllm, layer_overhead_us: ..., max_batch: ..., ...} ]
 *   costs:        {switch_price_usd: ..., ...}            (one mapping, not a list)
 *   efficiency:   [ {accelerator: H100-SXM, gemm_eff: [[x, y], ...], elementwise_eff: ...} ]
 *   uncertainty:  {pue: {low: 1.1, high: 1.5, source: ..., as_of: ...}, ...}
 *                 (one mapping keyed by range_knob_name(); each entry needs
 *                 low <= high and a source; overridden field by field)
 *   frameworks:   [ {id: nemo, gemm_scale: 1.0, tp_overlap: 0.6, ...} ]  (training profiles)
 *   error_bands:  [ {id: hopper/dense/fp8, low: -0.05, high: 0.08, runs: 6, ...} ]
 *
 * The accepted keys, their units and ranges are the schema tables below
 * (libcyaml style: the tables drive the parser, there are no per-key ifs).
 * A key's unit is in its name and is converted to the SI units of
 * model/catalog.h on load: `_gb` = 1e9 bytes, `_gib` = 2^30 bytes, `_tb_s` =
 * 1e12 bytes/s, `_gb_s_bidir` = a bidirectional GB/s figure (as NVIDIA and
 * Google quote NVLink/ICI) halved to one direction, `_gbps` = gigabits/s,
 * `peak_tflops` = 1e12 FLOP/s, `sms` = streaming multiprocessors (a count;
 * absent = 0, no GEMM wave term).  Several spellings of one quantity (hbm_gb,
 * hbm_gib) share one slot: giving two of them in one entry is an error.
 *
 * Loading order and overrides: catalog_load() reads every *.yaml of `dir`
 * in name order, then every *.yaml of `user_dir`.  A list entry whose id
 * already exists (case-insensitively) overrides it FIELD BY FIELD: only the
 * keys it gives change, so a user file may say just
 * `{id: p5.48xlarge, on_demand_usd_h: 50}`.  A list-valued key (mig,
 * gemm_eff) is replaced whole.  A new id adds a row; a new row must give
 * the keys marked required (always id, source and as_of, so every row is
 * traceable).  The same id twice in one file is an error.  `costs:` is
 * overridden field by field the same way.
 *
 * `efficiency:` entries name an existing accelerator with `accelerator:`
 * and set gemm_eff, elementwise_eff, scaleup_eff and scaleup_latency_s on
 * it.  They are applied after every file has been read (so file order does
 * not matter), in load order (a user file's entry wins).  Their `source`,
 * `as_of` and `notes` keys document the curve in the file and are not
 * stored (the accelerator row keeps its own source).  An entry for an
 * unknown accelerator is an error, as is an instance whose accelerator
 * does not exist once everything is loaded.
 *
 * Errors are reported as FILE:LINE:COL with the offending text and what was
 * expected; an unknown key names the nearest known key.  On any error the
 * Catalog is freed and left empty: a catalog is never half loaded.
 */
#include "config.h"

#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "catalog_yaml.h"
#include "hash.h"
#include "safeio.h"
#include "ydepth.h"

/* Largest catalog file accepted: far above any real catalog, bounds memory
 * for hostile input. */
#define CATY_MAX_FILE (16u * 1024u * 1024u)
/* Most rows one list section (or efficiency entries one load) may hold: a
 * real catalog has hundreds; the cap keeps the id lookups, which are
 * linear, from turning hostile input into a hang. */
#define CATY_MAX_ROWS 10000

typedef enum {
    FT_STR,       /* char[size]; longer text is an error, never truncated */
    FT_DATE,      /* char[size] holding YYYY-MM or YYYY-MM-DD */
    FT_NUM,       /* double = value * scale; value within [lo, hi] */
    FT_INT,       /* int within [lo, hi] */
    FT_BOOL,      /* true | false */
    FT_PROVIDER,  /* aws | gcp | azure | other */
    FT_MAP,       /* a nested mapping of `sub` fields on the same row */
    FT_MIG,       /* a list of MIG profiles (sub = element schema) */
    FT_CURVE      /* [[x, y], ...], x strictly increasing, at most CAT_MAX_CURVE */
} FieldType;

/* Field flags. */
enum {
    F_REQ = 1u << 0,     /* must be given when the entry adds a new row */
    F_ALT = 1u << 1,     /* another spelling of the previous field (same slot) */
    F_KEY = 1u << 2,     /* the row's id: handled by the row logic */
    F_NOAPPLY = 1u << 3, /* efficiency entries: documentation, not applied */
    F_ACCREF = 1u << 4,  /* an accelerator id checked once all files are read */
    F_FWREF = 1u << 5,   /* a framework id checked once all files are read */
    F_ACCLIST = 1u << 6  /* space-separated accelerator ids, checked the same way */
};

/* record_ref's section tag of a framework's F_ACCLIST field */
#define REF_FW_ACCLIST (-1)

typedef struct Field Field;
struct Field {
    const char *key;
    FieldType type;
    size_t off;       /* offset in the row struct */
    size_t size;      /* bytes at off (strings: buffer size) */
    double scale;     /* FT_NUM: multiplier to SI */
    double lo, hi;    /* FT_NUM/FT_INT: accepted range of the value as written */
    const Field *sub; /* FT_MAP, FT_MIG */
    size_t n_sub;
    unsigned flags;
};

#define NFIELDS(a) (sizeof(a) / sizeof((a)[0]))
#define FSTR(k, T, m, fl) {k, FT_STR, offsetof(T, m), sizeof(((T *)0)->m), 0, 0, 0, NULL, 0, fl}
#define FDATE(k, T, m, fl) {k, FT_DATE, offsetof(T, m), sizeof(((T *)0)->m), 0, 0, 0, NULL, 0, fl}
#define FNUM(k, T, m, sc, lo, hi, fl) {k, FT_NUM, offsetof(T, m), sizeof(double), sc, lo, hi, NULL, 0, fl}
#define FINT(k, T, m, lo, hi, fl) {k, FT_INT, offsetof(T, m), sizeof(int), 1, lo, hi, NULL, 0, fl}
#define FBOOL(k, T, m, fl) {k, FT_BOOL, offsetof(T, m), sizeof(bool), 0, 0, 0, NULL, 0, fl}

/* Generous plausibility bounds: they catch unit slips (TFLOPS written as
 * FLOP/s), not real hardware. */
#define MAX_TFLOPS 1e6
#define GIB 1073741824.0

/* ---- schemas ------------------------------------------------------------ */

static const Field accel_tflops_fields[] = {
    /* "fp32" holds what frameworks run FP32 matmuls on: TF32 tensor cores
     * where the device has them (the catalog rows say so in notes). */
    FNUM("fp32", Accelerator, peak_flops[PREC_FP32], 1e12, 0, MAX_TFLOPS, 0),
    FNUM("bf16", Accelerator, peak_flops[PREC_BF16], 1e12, 0, MAX_TFLOPS, 0),
    FNUM("fp16", Accelerator, peak_flops[PREC_FP16], 1e12, 0, MAX_TFLOPS, 0),
    FNUM("fp8", Accelerator, peak_flops[PREC_FP8], 1e12, 0, MAX_TFLOPS, 0),
    FNUM("fp4", Accelerator, peak_flops[PREC_FP4], 1e12, 0, MAX_TFLOPS, 0),
};

static const Field mig_fields[] = {
    FSTR("name", MigProfile, name, F_REQ),
    FINT("count", MigProfile, count, 1, 7, F_REQ), /* at most 7 slices per GPU (MIG1) */
    FNUM("mem_gb", MigProfile, mem_bytes, 1e9, 0.5, 1e4, F_REQ),
};

static const Field accel_fields[] = {
    FSTR("id", Accelerator, id, F_REQ | F_KEY),
    FSTR("name", Accelerator, name, 0),
    FSTR("aliases", Accelerator, aliases, 0),
    FSTR("vendor", Accelerator, vendor, 0),
    FSTR("family", Accelerator, family, 0),
    FSTR("silicon", Accelerator, silicon, 0),
    FNUM("hbm_gb", Accelerator, hbm_bytes, 1e9, 0, 1e5, F_REQ),
    FNUM("hbm_gib", Accelerator, hbm_bytes, GIB, 0, 1e5, F_REQ | F_ALT),
    FNUM("hbm_usable_frac", Accelerator, hbm_usable_frac, 1, 0, 1, 0),
    FNUM("hbm_bw_tb_s", Accelerator, hbm_bw, 1e12, 0, 1e3, 0),
    FNUM("hbm_bw_gb_s", Accelerator, hbm_bw, 1e9, 0, 1e6, F_ALT),
    FNUM("hbm_bw_gib_s", Accelerator, hbm_bw, GIB, 0, 1e6, F_ALT),
    {"peak_tflops", FT_MAP, 0, 0, 0, 0, 0, accel_tflops_fields, NFIELDS(accel_tflops_fields), 0},
    /* Scale-up bandwidth is stored per direction (catalog.h). */
    FNUM("scaleup_gb_s", Accelerator, scaleup_bw, 1e9, 0, 1e6, 0),
    FNUM("scaleup_gb_s_bidir", Accelerator, scaleup_bw, 0.5e9, 0, 1e6, F_ALT),
    FNUM("scaleup_gbps_bidir", Accelerator, scaleup_bw, 1e9 / 8 / 2, 0, 1e7, F_ALT),
    FNUM("scaleup_eff", Accelerator, scaleup_eff, 1, 0, 1, 0),
    FNUM("scaleup_latency_s", Accelerator, scaleup_latency_s, 1, 0, 1, 0),
    /* GPU <-> host memory, stored per direction like scale-up. */
    FNUM("host_gb_s_bidir", Accelerator, host_bw, 0.5e9, 0, 1e6, 0),
    FINT("gpus_per_node", Accelerator, gpus_per_node, 0, 1024, 0),
    FINT("sms", Accelerator, sms, 0, 100000, 0),
    FINT("scaleup_domain", Accelerator, scaleup_domain, 0, 1000000, 0),
    FNUM("tdp_w", Accelerator, tdp_w, 1, 0, 1e5, 0),
    FNUM("node_power_w", Accelerator, node_power_w, 1, 0, 1e7, 0),
    FNUM("node_price_usd", Accelerator, node_price_usd, 1, 0, 1e9, 0),
    FINT("node_rack_units", Accelerator, node_rack_units, 0, 100, 0),
    FINT("node_cpus", Accelerator, node_cpus, 0, 100000, 0),
    FNUM("node_memory_gb", Accelerator, node_memory_bytes, 1e9, 0, 1e6, 0),
    FSTR("nvml_name", Accelerator, nvml_name, 0),
    FSTR("node_label", Accelerator, node_label, 0),
    FBOOL("liquid_cooled", Accelerator, liquid_cooled, 0),
    FBOOL("unlisted", Accelerator, unlisted, 0),
    FINT("nics_per_node", Accelerator, nics_per_node, 0, 256, 0),
    FNUM("nic_gbps", Accelerator, nic_gbps, 1, 0, 1e5, 0),
    {"gemm_eff", FT_CURVE, offsetof(Accelerator, gemm_eff), sizeof(Curve), 0, 0, 0, NULL, 0, 0},
    FNUM("elementwise_eff", Accelerator, elementwise_eff, 1, 0, 1, 0),
    FNUM("fp4_gemm_factor", Accelerator, fp4_gemm_factor, 1, 0, 1, 0),
    FINT("fp4_scale_block", Accelerator, fp4_scale_block, 0, 1024, 0),
    FNUM("attn_fwd_eff", Accelerator, attn_fwd_eff, 1, 0, 1, 0),
    FNUM("attn_bwd_eff", Accelerator, attn_bwd_eff, 1, 0, 1, 0),
    FNUM("attn_cudnn_fwd_eff", Accelerator, attn_cudnn_fwd_eff, 1, 0, 1, 0),
    FNUM("attn_cudnn_bwd_eff", Accelerator, attn_cudnn_bwd_eff, 1, 0, 1, 0),
    FNUM("attn_fa2_fwd_eff", Accelerator, attn_fa2_fwd_eff, 1, 0, 1, 0),
    FNUM("attn_fa2_bwd_eff", Accelerator, attn_fa2_bwd_eff, 1, 0, 1, 0),
    FNUM("attn_eff_seq", Accelerator, attn_eff_seq, 1, 0, 1e7, 0),
    FNUM("attn_cta_blocks", Accelerator, attn_cta_blocks, 1, 0, 64, 0),
    FNUM("ssd_eff", Accelerator, ssd_eff, 1, 0, 1, 0),
    FNUM("attn_decode_bw_eff", Accelerator, attn_decode_bw_eff, 1, 0, 1, 0),
    FNUM("fp8_block_gemm_bw_eff", Accelerator, fp8_block_gemm_bw_eff, 1, 0, 1, 0),
    {"attn_fwd_head_dim", FT_CURVE, offsetof(Accelerator, attn_fwd_head_dim), sizeof(Curve), 0, 0, 0,
     NULL, 0, 0},
    {"attn_cudnn_fwd_seq", FT_CURVE, offsetof(Accelerator, attn_cudnn_fwd_seq), sizeof(Curve), 0, 0,
     0, NULL, 0, 0},
    {"attn_cudnn_bwd_seq", FT_CURVE, offsetof(Accelerator, attn_cudnn_bwd_seq), sizeof(Curve), 0, 0,
     0, NULL, 0, 0},
    FNUM("sustained_clock_frac", Accelerator, sustained_clock_frac, 1, 0, 1, 0),
    {"mig", FT_MIG, 0, 0, 0, 0, 0, mig_fields, NFIELDS(mig_fields), 0},
    FSTR("source", Accelerator, source, F_REQ),
    FDATE("as_of", Accelerator, as_of, F_REQ),
    FSTR("notes", Accelerator, notes, 0),
};

static const Field inst_fields[] = {
    FSTR("id", Instance, id, F_REQ | F_KEY),
    {"provider", FT_PROVIDER, offsetof(Instance, provider), sizeof(Provider), 0, 0, 0, NULL, 0, F_REQ},
    FSTR("family", Instance, family, 0),
    FSTR("accelerator", Instance, accelerator, F_REQ | F_ACCREF),
    FINT("accel_count", Instance, accel_count, 1, 100000, F_REQ),
    FINT("scaleup_accels", Instance, scaleup_accels, 0, 100000, 0),
    FNUM("network_gbps", Instance, network_gbps, 1, 0, 1e6, 0),
    FSTR("region", Instance, region, 0),
    FNUM("on_demand_usd_h", Instance, on_demand_usd_h, 1, 0, 1e6, 0),
    FNUM("spot_usd_h", Instance, spot_usd_h, 1, 0, 1e6, 0),
    /* A discount of 1 would make capacity free: reject it. */
    FNUM("reserved_1y_discount", Instance, reserved_1y_discount, 1, 0, 0.99, 0),
    FNUM("reserved_3y_discount", Instance, reserved_3y_discount, 1, 0, 0.99, 0),
    FNUM("spot_interruptions_per_day", Instance, spot_interruptions_per_day, 1, 0, 1000, 0),
    FSTR("source", Instance, source, F_REQ),
    FDATE("as_of", Instance, as_of, F_REQ),
    FSTR("price_notes", Instance, price_notes, 0),
    FSTR("price_source", Instance, price_source, 0),
};

static const Field storage_fields[] = {
    FSTR("id", StorageSystem, id, F_REQ | F_KEY),
    FSTR("unit_name", StorageSystem, unit_name, 0),
    FNUM("unit_read_gb_s", StorageSystem, unit_read_bw, 1e9, 0, 1e6, 0),
    FNUM("unit_read_gib_s", StorageSystem, unit_read_bw, GIB, 0, 1e6, F_ALT),
    FNUM("unit_write_gb_s", StorageSystem, unit_write_bw, 1e9, 0, 1e6, 0),
    FNUM("unit_write_gib_s", StorageSystem, unit_write_bw, GIB, 0, 1e6, F_ALT),
    FNUM("unit_capacity_tb", StorageSystem, unit_capacity_bytes, 1e12, 0, 1e9, 0),
    FNUM("unit_power_w", StorageSystem, unit_power_w, 1, 0, 1e7, 0),
    FNUM("unit_price_usd", StorageSystem, unit_price_usd, 1, 0, 1e9, 0),
    FSTR("source", StorageSystem, source, F_REQ),
    FDATE("as_of", StorageSystem, as_of, F_REQ),
    FSTR("notes", StorageSystem, notes, 0),
};

static const Field engine_fields[] = {
    FSTR("id", Engine, id, F_REQ | F_KEY),
    FSTR("name", Engine, name, 0),
    FNUM("layer_overhead_us", Engine, layer_overhead_s, 1e-6, 0, 1e4, F_REQ),
    FNUM("step_overhead_us", Engine, step_overhead_s, 1e-6, 0, 1e6, 0),
    FNUM("seq_overhead_us", Engine, seq_overhead_s, 1e-6, 0, 1e4, 0),
    FNUM("eager_layer_us", Engine, eager_layer_s, 1e-6, 0, 1e5, 0),
    FNUM("mem_frac", Engine, mem_frac, 1, 0, 1, 0),
    FINT("max_batch", Engine, max_batch, 1, 1 << 20, F_REQ),
    FINT("prefill_wait_steps", Engine, prefill_wait_steps, 0, 1 << 16, 0),
    FINT("chunk_tokens", Engine, chunk_tokens, 1, 1 << 24, F_REQ),
    FINT("kv_block_tokens", Engine, kv_block_tokens, 1, 1 << 16, 0),
    FNUM("attn_hbm_eff", Engine, attn_hbm_eff, 1, 0, 1, 0),
    FBOOL("chunked_prefill", Engine, chunked_prefill, 0),
    FINT("ep_rank_batch", Engine, ep_rank_batch, 0, 1 << 20, 0),
    FNUM("ep_skew", Engine, ep_skew, 1, 0, 16, 0),
    FBOOL("ep_allgather", Engine, ep_allgather, 0),
    FNUM("band_low", Engine, band_low, 1, 0, 1, 0),
    FNUM("band_high", Engine, band_high, 1, 1, 100, 0),
    FNUM("band_moe_low", Engine, band_moe_low, 1, 0, 1, 0),
    FNUM("band_moe_high", Engine, band_moe_high, 1, 1, 100, 0),
    FSTR("source", Engine, source, F_REQ),
    FDATE("as_of", Engine, as_of, F_REQ),
    FSTR("notes", Engine, notes, 0),
};

static const Field cost_fields[] = {
    FNUM("switch_price_usd", CostAssumptions, switch_price_usd, 1, 0, 1e8, 0),
    FNUM("switch_power_w", CostAssumptions, switch_power_w, 1, 0, 1e6, 0),
    FNUM("link_price_usd", CostAssumptions, link_price_usd, 1, 0, 1e7, 0),
    FNUM("facility_usd_per_kw", CostAssumptions, facility_usd_per_kw, 1, 0, 1e8, 0),
    FNUM("maintenance_frac_per_year", CostAssumptions, maintenance_frac_per_year, 1, 0, 1, 0),
    FNUM("staff_usd_per_mw_year", CostAssumptions, staff_usd_per_mw_year, 1, 0, 1e10, 0),
    FNUM("depreciation_years", CostAssumptions, depreciation_years, 1, 0, 50, 0),
    FNUM("gpudirect_read_gb_s_per_gpu", CostAssumptions, gpudirect_read_bw_per_gpu, 1e9, 0, 1e4, 0),
    FNUM("mtbf_gpu_hours_default", CostAssumptions, mtbf_gpu_hours_default, 1, 0, 1e9, 0),
    FINT("rack_units", CostAssumptions, rack_units, 0, 100, 0),
    FSTR("facility_source", CostAssumptions, facility_source, 0),
    FSTR("staff_source", CostAssumptions, staff_source, 0),
    FSTR("depreciation_source", CostAssumptions, depreciation_source, 0),
    FSTR("source", CostAssumptions, source, 0),
    FDATE("as_of", CostAssumptions, as_of, 0),
    FSTR("notes", CostAssumptions, notes, 0),
};

/* Efficiency entries are parsed into a scratch Accelerator, then the fields
 * they set are copied onto the named accelerator. */
static const Field eff_fields[] = {
    FSTR("accelerator", Accelerator, id, F_REQ),
    {"gemm_eff", FT_CURVE, offsetof(Accelerator, gemm_eff), sizeof(Curve), 0, 0, 0, NULL, 0, 0},
    FNUM("elementwise_eff", Accelerator, elementwise_eff, 1, 0, 1, 0),
    FNUM("fp4_gemm_factor", Accelerator, fp4_gemm_factor, 1, 0, 1, 0),
    FINT("fp4_scale_block", Accelerator, fp4_scale_block, 0, 1024, 0),
    FNUM("attn_fwd_eff", Accelerator, attn_fwd_eff, 1, 0, 1, 0),
    FNUM("attn_bwd_eff", Accelerator, attn_bwd_eff, 1, 0, 1, 0),
    FNUM("attn_cudnn_fwd_eff", Accelerator, attn_cudnn_fwd_eff, 1, 0, 1, 0),
    FNUM("attn_cudnn_bwd_eff", Accelerator, attn_cudnn_bwd_eff, 1, 0, 1, 0),
    FNUM("attn_fa2_fwd_eff", Accelerator, attn_fa2_fwd_eff, 1, 0, 1, 0),
    FNUM("attn_fa2_bwd_eff", Accelerator, attn_fa2_bwd_eff, 1, 0, 1, 0),
    FNUM("attn_eff_seq", Accelerator, attn_eff_seq, 1, 0, 1e7, 0),
    FNUM("attn_cta_blocks", Accelerator, attn_cta_blocks, 1, 0, 64, 0),
    FNUM("ssd_eff", Accelerator, ssd_eff, 1, 0, 1, 0),
    FNUM("attn_decode_bw_eff", Accelerator, attn_decode_bw_eff, 1, 0, 1, 0),
    FNUM("fp8_block_gemm_bw_eff", Accelerator, fp8_block_gemm_bw_eff, 1, 0, 1, 0),
    {"attn_fwd_head_dim", FT_CURVE, offsetof(Accelerator, attn_fwd_head_dim), sizeof(Curve), 0, 0, 0,
     NULL, 0, 0},
    {"attn_cudnn_fwd_seq", FT_CURVE, offsetof(Accelerator, attn_cudnn_fwd_seq), sizeof(Curve), 0, 0,
     0, NULL, 0, 0},
    {"attn_cudnn_bwd_seq", FT_CURVE, offsetof(Accelerator, attn_cudnn_bwd_seq), sizeof(Curve), 0, 0,
     0, NULL, 0, 0},
    FNUM("scaleup_eff", Accelerator, scaleup_eff, 1, 0, 1, 0),
    FNUM("scaleup_latency_s", Accelerator, scaleup_latency_s, 1, 0, 1, 0),
    FSTR("source", Accelerator, source, F_NOAPPLY),
    FDATE("as_of", Accelerator, as_of, F_NOAPPLY),
    FSTR("notes", Accelerator, notes, F_NOAPPLY),
};

/* The stated uncertainty of one assumption (a plan's default range).
 * Bounds are generous: each knob has its own unit (model/catalog.h). */
static const Field range_fields[] = {
    FNUM("low", CatalogRange, low, 1, -1e9, 1e9, 0),
    FNUM("high", CatalogRange, high, 1, -1e9, 1e9, 0),
    FSTR("source", CatalogRange, source, 0),
    FDATE("as_of", CatalogRange, as_of, 0),
    FSTR("notes", CatalogRange, notes, 0),
};


/* Training framework profiles (model/catalog.h Framework). */
static const Field fw_fields[] = {
    FSTR("id", Framework, id, F_REQ | F_KEY),
    FSTR("name", Framework, name, 0),
    FNUM("gemm_scale", Framework, gemm_scale, 1, 0.1, 2, F_REQ),
    FNUM("tp_overlap", Framework, tp_overlap, 1, 0, 1, F_REQ),
    FNUM("dp_overlap", Framework, dp_overlap, 1, 0, 1, F_REQ),
    FNUM("ep_overlap", Framework, ep_overlap, 1, 0, 1, 0),
    FNUM("fp8_gemm_factor", Framework, fp8_gemm_factor, 1, 0.1, 1, F_REQ),
    FNUM("layer_overhead_us", Framework, layer_overhead_s, 1e-6, 0, 1e5, 0),
    FNUM("step_overhead_ms", Framework, step_overhead_s, 1e-3, 0, 1e4, 0),
    FNUM("moe_overhead", Framework, moe_overhead, 1, 0, 1e3, 0),
    FNUM("moe_layer_overhead_us", Framework, moe_layer_overhead_s, 1e-6, 0, 1e6, 0),
    FNUM("moe_expert_overhead_us", Framework, moe_expert_overhead_s, 1e-6, 0, 1e6, 0),
    FNUM("moe_attn_launch_us", Framework, moe_attn_launch_s, 1e-6, 0, 1e6, 0),
    FNUM("moe_graph_residual", Framework, moe_graph_residual, 1, 0, 1, 0),
    FBOOL("moe_fused_dispatch", Framework, moe_fused_dispatch, 0),
    FBOOL("whole_program_buffers", Framework, whole_program_buffers, 0),
    FBOOL("remat_dce", Framework, remat_dce, 0),
    FBOOL("fp8_param_gather", Framework, fp8_param_gather, 0),
    FBOOL("fp8_tp_gather", Framework, fp8_tp_gather, 0),
    FBOOL("fp8_dispatch", Framework, fp8_dispatch, 0),
    FSTR("dp_sharding", Framework, dp_sharding, 0),
    FSTR("dp_sharding_fallback", Framework, dp_sharding_fallback, 0),
    FBOOL("fp8_saved_inputs", Framework, fp8_saved_inputs, 0),
    FBOOL("fp8_saved_expert_inputs", Framework, fp8_saved_expert_inputs, 0),
    FBOOL("cudnn_attention", Framework, cudnn_attention, 0),
    FBOOL("unit_collectives", Framework, unit_collectives, 0),
    FBOOL("pp_fsdp_unsharded", Framework, pp_fsdp_unsharded, 0),
    FBOOL("tp_overlap_forward_only", Framework, tp_overlap_forward_only, 0),
    FBOOL("cp_torch_ring", Framework, cp_torch_ring, 0),
    FBOOL("eager_rope", Framework, eager_rope, 0),
    FBOOL("eager_glu", Framework, eager_glu, 0),
    FBOOL("attn_repeat_kv", Framework, attn_repeat_kv, 0),
    FNUM("logits_bytes", Framework, logits_bytes, 1, 1, 8, 0),
    FBOOL("selective_reruns_attention", Framework, selective_reruns_attention, 0),
    FBOOL("full_recompute_only", Framework, full_recompute_only, 0),
    FBOOL("grad_reduce_fp32", Framework, grad_reduce_fp32, 0),
    FBOOL("eager_loss", Framework, eager_loss, 0),
    FBOOL("activation_offload", Framework, activation_offload, 0),
    FBOOL("fp4_tp_exposed", Framework, fp4_tp_exposed, 0),
    FSTR("recompute_default", Framework, recompute_default, 0),
    FSTR("calibration_from", Framework, calibration_from, F_FWREF),
    FSTR("curves_calibrated_on", Framework, curves_calibrated_on, F_ACCLIST),
    FBOOL("unfused_glu_clamp", Framework, unfused_glu_clamp, 0),
    FBOOL("unfused_expert_bias", Framework, unfused_expert_bias, 0),
    FBOOL("unfused_yarn_rope", Framework, unfused_yarn_rope, 0),
    FNUM("step_scale", Framework, step_scale, 1, 0.1, 10, 0),
    FINT("calibrated_runs", Framework, calibrated_runs, 0, 1000000, 0),
    FSTR("calibrated_on", Framework, calibrated_on, 0),
    FNUM("calibrated_residual", Framework, calibrated_residual, 1, 0, 10, 0),
    FNUM("cross_validated_residual", Framework, cv_residual, 1, 0, 10, 0),
    FSTR("source", Framework, source, F_REQ),
    FDATE("as_of", Framework, as_of, F_REQ),
    FSTR("notes", Framework, notes, 0),
};

/* Measured error bands of the training model (model/catalog.h ErrorBand). */
static const Field band_fields[] = {
    FSTR("id", ErrorBand, id, F_REQ | F_KEY),
    FNUM("low", ErrorBand, low, 1, -0.99, 0, F_REQ),
    FNUM("high", ErrorBand, high, 1, 0, 100, F_REQ),
    FINT("runs", ErrorBand, runs, 0, 1000000, 0),
    FSTR("source", ErrorBand, source, F_REQ),
    FDATE("as_of", ErrorBand, as_of, F_REQ),
    FSTR("notes", ErrorBand, notes, 0),
};

enum {
    SEC_ACCEL = 0, SEC_INST, SEC_STORAGE, SEC_ENGINE, SEC_COSTS, SEC_EFF, SEC_UNC, SEC_FW,
    SEC_BAND, SEC_COUNT
};

typedef struct {
    const char *name;
    const Field *fields;
    size_t n_fields;
    size_t row_size;
} Section;

static const Section sections[SEC_COUNT] = {
    [SEC_ACCEL] = {"accelerators", accel_fields, NFIELDS(accel_fields), sizeof(Accelerator)},
    [SEC_INST] = {"instances", inst_fields, NFIELDS(inst_fields), sizeof(Instance)},
    [SEC_STORAGE] = {"storage", storage_fields, NFIELDS(storage_fields), sizeof(StorageSystem)},
    [SEC_ENGINE] = {"engines", engine_fields, NFIELDS(engine_fields), sizeof(Engine)},
    [SEC_COSTS] = {"costs", cost_fields, NFIELDS(cost_fields), sizeof(CostAssumptions)},
    [SEC_EFF] = {"efficiency", eff_fields, NFIELDS(eff_fields), sizeof(Accelerator)},
    [SEC_UNC] = {"uncertainty", range_fields, NFIELDS(range_fields), sizeof(CatalogRange)},
    [SEC_FW] = {"frameworks", fw_fields, NFIELDS(fw_fields), sizeof(Framework)},
    [SEC_BAND] = {"error_bands", band_fields, NFIELDS(band_fields), sizeof(ErrorBand)},
};

/* ---- load context ------------------------------------------------------- */

typedef struct {
    Accelerator a;   /* scratch: id = target accelerator, plus the fields set */
    uint64_t set;    /* slot mask of the keys given */
    size_t file;     /* index into Ctx.files */
    int line, col;
} EffEntry;

/* Where a row names a row of another section (an instance's accelerator, a
 * framework's calibration_from), for the error once all files are read. */
typedef struct {
    int sec;               /* the naming row's section */
    char row[CAT_ID_LEN];  /* the naming row's id */
    size_t file;
    int line, col;
} AccRef;

typedef struct {
    int sec;
    char id[CAT_ID_LEN];
    int line;
} SeenId;

typedef struct {
    Catalog *c;
    Diag *d;
    char **files;
    size_t n_files;
    size_t cur;            /* index of the file being parsed */
    EffEntry *eff;
    size_t n_eff, cap_eff;
    AccRef *refs;
    size_t n_refs, cap_refs;
    SeenId *seen;          /* ids defined in the current file */
    size_t n_seen, cap_seen;
    yaml_document_t *doc;
} Ctx;

static const char *ctx_file(const Ctx *x)
{
    return x->n_files ? x->files[x->cur] : "";
}

static int node_line(const yaml_node_t *n)
{
    return n ? (int)n->start_mark.line + 1 : 0;
}

static int node_col(const yaml_node_t *n)
{
    return n ? (int)n->start_mark.column + 1 : 0;
}

/* Grow *arr (of elem bytes each) so that index `need` fits; 0 or -1. */
static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 8;
    while (ncap <= need)
        ncap *= 2;
    void *p = realloc(*arr, ncap * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = ncap;
    return 0;
}

static int err_at(Ctx *x, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int err_at(Ctx *x, const yaml_node_t *n, const char *fmt, ...)
{
    char msg[sizeof x->d->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_set(x->d, ctx_file(x), node_line(n), node_col(n), "%s", msg);
    return -1;
}

static int err_oom(Ctx *x)
{
    diag_set(x->d, ctx_file(x), 0, 0, "out of memory");
    return -1;
}

static const char *node_kind(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE: return "a scalar";
    case YAML_SEQUENCE_NODE: return "a list";
    case YAML_MAPPING_NODE: return "a mapping";
    default: return "nothing";
    }
}

/* The scalar text of n (NUL-terminated by libyaml), or NULL. */
static const char *scalar(const yaml_node_t *n)
{
    return (n && n->type == YAML_SCALAR_NODE) ? (const char *)n->data.scalar.value : NULL;
}

/* A plain `~`/`null`/empty scalar: an empty section. */
static bool is_null(const yaml_node_t *n)
{
    const char *s = scalar(n);
    if (!s || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    return s[0] == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
           strcmp(s, "NULL") == 0;
}

/* ---- scalars ------------------------------------------------------------ */

/* Strict decimal: [+-]digits[.digits][e[+-]digits]; no hex, inf, nan. */
static int parse_real(const char *s, double *out)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    bool digits = false;
    while (*p >= '0' && *p <= '9') {
        p++;
        digits = true;
    }
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') {
            p++;
            digits = true;
        }
    }
    if (!digits)
        return -1;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return -1;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p != '\0')
        return -1;
    errno = 0;
    double v = strtod(s, NULL);
    if (errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static bool valid_date(const char *s)
{
    /* YYYY-MM or YYYY-MM-DD with plausible month/day. */
    size_t n = strlen(s);
    if (n != 7 && n != 10)
        return false;
    for (size_t i = 0; i < n; i++) {
        bool dash = (i == 4 || i == 7);
        if (dash ? s[i] != '-' : !(s[i] >= '0' && s[i] <= '9'))
            return false;
    }
    int month = (s[5] - '0') * 10 + (s[6] - '0');
    if (month < 1 || month > 12)
        return false;
    if (n == 10) {
        int day = (s[8] - '0') * 10 + (s[9] - '0');
        if (day < 1 || day > 31)
            return false;
    }
    return true;
}

/* Catalog ids: letters, digits and . _ + - (provider names included). */
static bool valid_id(const char *s)
{
    if (!*s)
        return false;
    for (const char *p = s; *p; p++) {
        char ch = *p;
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                  ch == '.' || ch == '_' || ch == '+' || ch == '-';
        if (!ok)
            return false;
    }
    return true;
}

/* ---- fields ------------------------------------------------------------- */

/* Slot of fields[i]: alternative spellings share their primary's slot. */
static unsigned field_slot(const Field *fields, size_t i)
{
    unsigned slot = 0;
    for (size_t k = 1; k <= i; k++)
        if (!(fields[k].flags & F_ALT))
            slot++;
    return slot;
}

static int field_find(const Field *fields, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(fields[i].key, key) == 0)
            return (int)i;
    return -1;
}

static int err_unknown_key(Ctx *x, const yaml_node_t *k, const char *where, const Field *fields,
                           size_t n)
{
    const char *cands[64];
    size_t nc = 0;
    for (size_t i = 0; i < n && nc < 64; i++)
        cands[nc++] = fields[i].key;
    const char *near = diag_nearest(scalar(k), cands, nc);
    if (near)
        return err_at(x, k, "unknown key '%s' in %s (did you mean '%s'?)", scalar(k), where, near);
    return err_at(x, k, "unknown key '%s' in %s", scalar(k), where);
}

static int parse_number(Ctx *x, const yaml_node_t *v, const Field *f, double *out)
{
    const char *s = scalar(v);
    double val;
    if (!s)
        return err_at(x, v, "'%s': expected a number, got %s", f->key, node_kind(v));
    if (parse_real(s, &val) != 0)
        return err_at(x, v, "'%s': expected a number, got '%s'", f->key, s);
    if (val < f->lo || val > f->hi)
        return err_at(x, v, "'%s': %s is out of range [%g, %g]", f->key, s, f->lo, f->hi);
    *out = val;
    return 0;
}

static int parse_curve(Ctx *x, const yaml_node_t *v, const Field *f, Curve *out)
{
    yaml_document_t *doc = x->doc;
    if (v->type != YAML_SEQUENCE_NODE)
        return err_at(x, v, "'%s': expected a list of [x, y] points, got %s", f->key, node_kind(v));
    Curve c;
    memset(&c, 0, sizeof c);
    yaml_node_item_t *it = v->data.sequence.items.start;
    yaml_node_item_t *end = v->data.sequence.items.top;
    if (it == end)
        return err_at(x, v, "'%s': a curve needs at least one [x, y] point", f->key);
    for (; it < end; it++) {
        yaml_node_t *pt = yaml_document_get_node(doc, *it);
        if (!pt)
            return err_at(x, v, "'%s': malformed point", f->key);
        if (c.n >= CAT_MAX_CURVE)
            return err_at(x, pt, "'%s': more than %d points", f->key, CAT_MAX_CURVE);
        if (pt->type != YAML_SEQUENCE_NODE ||
            pt->data.sequence.items.top - pt->data.sequence.items.start != 2)
            return err_at(x, pt, "'%s': each point must be [x, y]", f->key);
        double xy[2];
        for (int k = 0; k < 2; k++) {
            yaml_node_t *e = yaml_document_get_node(doc, pt->data.sequence.items.start[k]);
            const char *s = scalar(e);
            if (!s || parse_real(s, &xy[k]) != 0)
                return err_at(x, e ? e : pt, "'%s': expected a number, got '%s'", f->key,
                              s ? s : "a non-scalar");
        }
        if (xy[0] < 0)
            return err_at(x, pt, "'%s': x must be >= 0, got %g", f->key, xy[0]);
        if (xy[1] < 0 || xy[1] > 1)
            return err_at(x, pt, "'%s': efficiency y must be within [0, 1], got %g", f->key, xy[1]);
        if (c.n > 0 && !(xy[0] > c.x[c.n - 1]))
            return err_at(x, pt, "'%s': x must increase (%g after %g)", f->key, xy[0], c.x[c.n - 1]);
        c.x[c.n] = xy[0];
        c.y[c.n] = xy[1];
        c.n++;
    }
    *out = c;
    return 0;
}

static int parse_mapping(Ctx *x, const yaml_node_t *map, const Field *fields, size_t n, void *row,
                         const char *where, uint64_t *mask);

/* MIG profile names are "<slices>g.<mem>gb", optionally "+me" (MIG1). */
static int mig_check(Ctx *x, const yaml_node_t *el, MigProfile *m)
{
    const char *s = m->name;
    if (!(s[0] >= '1' && s[0] <= '7') || s[1] != 'g' || s[2] != '.')
        return err_at(x, el, "MIG profile name '%s': expected '<1-7>g.<N>gb'", s);
    char *endp;
    long gb = strtol(s + 3, &endp, 10);
    if (endp == s + 3 || strncmp(endp, "gb", 2) != 0 || (endp[2] != '\0' && strcmp(endp + 2, "+me") != 0))
        return err_at(x, el, "MIG profile name '%s': expected '<1-7>g.<N>gb'", s);
    m->compute_slices = s[0] - '0';
    /* The name carries the memory rounded to whole GB: a larger gap is a typo. */
    if (fabs(m->mem_bytes / 1e9 - (double)gb) > 1.0)
        return err_at(x, el, "MIG profile '%s': mem_gb %g does not match the name", s, m->mem_bytes / 1e9);
    return 0;
}

static int parse_mig(Ctx *x, const yaml_node_t *v, const Field *f, Accelerator *a)
{
    if (v->type != YAML_SEQUENCE_NODE)
        return err_at(x, v, "'%s': expected a list of profiles, got %s", f->key, node_kind(v));
    MigProfile mig[CAT_MAX_MIG];
    int n = 0;
    memset(mig, 0, sizeof mig);
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        yaml_node_t *el = yaml_document_get_node(x->doc, *it);
        if (!el)
            return err_at(x, v, "'%s': malformed entry", f->key);
        if (n >= CAT_MAX_MIG)
            return err_at(x, el, "'%s': more than %d profiles", f->key, CAT_MAX_MIG);
        if (el->type != YAML_MAPPING_NODE)
            return err_at(x, el, "'%s': expected a mapping {name, count, mem_gb}, got %s", f->key,
                          node_kind(el));
        uint64_t mask = 0;
        if (parse_mapping(x, el, f->sub, f->n_sub, &mig[n], "a MIG profile", &mask) != 0)
            return -1;
        for (size_t i = 0; i < f->n_sub; i++)
            if ((f->sub[i].flags & F_REQ) && !(mask & (UINT64_C(1) << field_slot(f->sub, i))))
                return err_at(x, el, "MIG profile is missing '%s'", f->sub[i].key);
        if (mig_check(x, el, &mig[n]) != 0)
            return -1;
        for (int k = 0; k < n; k++)
            if (strcmp(mig[k].name, mig[n].name) == 0)
                return err_at(x, el, "MIG profile '%s' listed twice", mig[n].name);
        n++;
    }
    memcpy(a->mig, mig, sizeof mig);
    a->n_mig = n;
    return 0;
}

static int parse_value(Ctx *x, const yaml_node_t *v, const Field *f, void *row)
{
    char *dst = (char *)row + f->off;
    const char *s = scalar(v);
    switch (f->type) {
    case FT_STR:
    case FT_DATE:
        if (!s)
            return err_at(x, v, "'%s': expected text, got %s", f->key, node_kind(v));
        if (strlen(s) >= f->size)
            return err_at(x, v, "'%s': text longer than %zu characters", f->key, f->size - 1);
        if (f->type == FT_DATE && !valid_date(s))
            return err_at(x, v, "'%s': expected a date YYYY-MM-DD or YYYY-MM, got '%s'", f->key, s);
        memcpy(dst, s, strlen(s) + 1);
        return 0;
    case FT_NUM: {
        double val;
        if (parse_number(x, v, f, &val) != 0)
            return -1;
        double si = val * f->scale;
        memcpy(dst, &si, sizeof si);
        return 0;
    }
    case FT_INT: {
        double val;
        if (parse_number(x, v, f, &val) != 0)
            return -1;
        if (val != floor(val))
            return err_at(x, v, "'%s': expected a whole number, got '%s'", f->key, s);
        int iv = (int)val;
        memcpy(dst, &iv, sizeof iv);
        return 0;
    }
    case FT_BOOL: {
        bool b;
        if (s && strcasecmp(s, "true") == 0)
            b = true;
        else if (s && strcasecmp(s, "false") == 0)
            b = false;
        else
            return err_at(x, v, "'%s': expected true or false, got '%s'", f->key, s ? s : node_kind(v));
        memcpy(dst, &b, sizeof b);
        return 0;
    }
    case FT_PROVIDER: {
        static const char *const names[] = {"aws", "gcp", "azure", "other"};
        for (int p = 0; s && p < 4; p++) {
            if (strcasecmp(s, names[p]) == 0) {
                Provider pv = (Provider)p;
                memcpy(dst, &pv, sizeof pv);
                return 0;
            }
        }
        const char *near = s ? diag_nearest(s, names, 4) : NULL;
        return err_at(x, v, "'%s': expected aws, gcp, azure or other, got '%s'%s%s%s", f->key,
                      s ? s : node_kind(v), near ? " (did you mean '" : "", near ? near : "",
                      near ? "'?)" : "");
    }
    case FT_MAP: {
        if (v->type != YAML_MAPPING_NODE)
            return err_at(x, v, "'%s': expected a mapping, got %s", f->key, node_kind(v));
        uint64_t mask = 0;
        return parse_mapping(x, v, f->sub, f->n_sub, row, f->key, &mask);
    }
    case FT_MIG:
        return parse_mig(x, v, f, (Accelerator *)row);
    case FT_CURVE:
        return parse_curve(x, v, f, (Curve *)(void *)dst);
    }
    return err_at(x, v, "'%s': unsupported field type", f->key);
}

static int record_ref(Ctx *x, int sec, const char *row_id, const yaml_node_t *v)
{
    if (grow((void **)&x->refs, &x->cap_refs, x->n_refs, sizeof *x->refs) != 0)
        return err_oom(x);
    AccRef *r = &x->refs[x->n_refs++];
    r->sec = sec;
    snprintf(r->row, sizeof r->row, "%s", row_id);
    r->file = x->cur;
    r->line = node_line(v);
    r->col = node_col(v);
    return 0;
}

/* Apply every key of `map` to row through the schema.  F_KEY fields are
 * checked by the caller and skipped here.  *mask gets the slots given. */
static int parse_mapping(Ctx *x, const yaml_node_t *map, const Field *fields, size_t n, void *row,
                         const char *where, uint64_t *mask)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(x->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(x->doc, p->value);
        if (!k || !v)
            return err_at(x, map, "malformed mapping in %s", where);
        if (!scalar(k))
            return err_at(x, k, "keys in %s must be plain names, got %s", where, node_kind(k));
        int i = field_find(fields, n, scalar(k));
        if (i < 0)
            return err_unknown_key(x, k, where, fields, n);
        const Field *f = &fields[i];
        uint64_t bit = UINT64_C(1) << field_slot(fields, (size_t)i);
        if (*mask & bit)
            return err_at(x, k, "'%s' given twice in %s (or together with another spelling of it)",
                          f->key, where);
        *mask |= bit;
        if (f->flags & F_KEY)
            continue;
        if (parse_value(x, v, f, row) != 0)
            return -1;
        if ((f->flags & F_ACCREF) && record_ref(x, SEC_INST, ((const Instance *)row)->id, v) != 0)
            return -1;
        if ((f->flags & F_FWREF) && record_ref(x, SEC_FW, ((const Framework *)row)->id, v) != 0)
            return -1;
        if ((f->flags & F_ACCLIST) &&
            record_ref(x, REF_FW_ACCLIST, ((const Framework *)row)->id, v) != 0)
            return -1;
    }
    return 0;
}

static int check_required(Ctx *x, const yaml_node_t *map, const Section *s, uint64_t mask,
                          const char *id)
{
    for (size_t i = 0; i < s->n_fields; i++) {
        const Field *f = &s->fields[i];
        if (!(f->flags & F_REQ) || (f->flags & F_ALT))
            continue;
        if (!(mask & (UINT64_C(1) << field_slot(s->fields, i)))) {
            /* Name every spelling of the missing quantity. */
            char keys[160];
            size_t len = (size_t)snprintf(keys, sizeof keys, "'%s'", f->key);
            for (size_t k = i + 1; k < s->n_fields && (s->fields[k].flags & F_ALT) && len < sizeof keys; k++)
                len += (size_t)snprintf(keys + len, sizeof keys - len, " or '%s'", s->fields[k].key);
            return err_at(x, map, "new %s entry '%s' is missing %s", s->name, id, keys);
        }
    }
    return 0;
}

/* ---- sections ----------------------------------------------------------- */

/* The rows of a list section and their count (id is the first member of
 * every row type, so a row's address is also its id's). */
_Static_assert(offsetof(Accelerator, id) == 0, "id first");
_Static_assert(offsetof(Instance, id) == 0, "id first");
_Static_assert(offsetof(StorageSystem, id) == 0, "id first");
_Static_assert(offsetof(Engine, id) == 0, "id first");

static char *sec_rows(const Catalog *c, int sec, size_t *n)
{
    switch (sec) {
    case SEC_ACCEL: *n = c->n_accelerators; return (char *)c->accelerators;
    case SEC_INST: *n = c->n_instances; return (char *)c->instances;
    case SEC_STORAGE: *n = c->n_storage; return (char *)c->storage;
    case SEC_ENGINE: *n = c->n_engines; return (char *)c->engines;
    case SEC_FW: *n = c->n_frameworks; return (char *)c->frameworks;
    case SEC_BAND: *n = c->n_bands; return (char *)c->bands;
    default: *n = 0; return NULL;
    }
}

/* Grow the row array `arr` (of `n` rows) by one zeroed row and return its
 * address from the enclosing function, or NULL when out of memory (the
 * array is then unchanged).  A macro so each section keeps its own type. */
#define APPEND_ROW(arr, n)                                                  \
    do {                                                                    \
        void *grown_ = realloc((arr), ((n) + 1) * sizeof *(arr));           \
        if (!grown_)                                                        \
            return NULL;                                                    \
        (arr) = grown_;                                                     \
        memset(&(arr)[(n)], 0, sizeof *(arr));                              \
        return &(arr)[(n)++];                                               \
    } while (0)

/* Append one zeroed row; its address, or NULL when out of memory. */
static void *sec_append(Catalog *c, int sec)
{
    switch (sec) {
    case SEC_ACCEL:
        APPEND_ROW(c->accelerators, c->n_accelerators);
    case SEC_INST:
        APPEND_ROW(c->instances, c->n_instances);
    case SEC_STORAGE:
        APPEND_ROW(c->storage, c->n_storage);
    case SEC_ENGINE:
        APPEND_ROW(c->engines, c->n_engines);
    case SEC_FW:
        APPEND_ROW(c->frameworks, c->n_frameworks);
    case SEC_BAND:
        APPEND_ROW(c->bands, c->n_bands);
    default:
        return NULL;
    }
}

/* The row with `id` in a list section, or NULL. */
static void *row_find(const Catalog *c, int sec, const char *id)
{
    size_t n;
    char *rows = sec_rows(c, sec, &n);
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(rows + i * sections[sec].row_size, id) == 0)
            return rows + i * sections[sec].row_size;
    return NULL;
}

/* The scalar value of `key` in map, its node in *at; NULL when absent. */
static const yaml_node_t *map_get(Ctx *x, const yaml_node_t *map, const char *key)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(x->doc, p->key);
        if (k && scalar(k) && strcmp(scalar(k), key) == 0)
            return yaml_document_get_node(x->doc, p->value);
    }
    return NULL;
}

static int take_id(Ctx *x, const yaml_node_t *map, const char *key, const char *what, char *out)
{
    const yaml_node_t *v = map_get(x, map, key);
    if (!v)
        return err_at(x, map, "%s entry has no '%s'", what, key);
    const char *s = scalar(v);
    if (!s)
        return err_at(x, v, "'%s': expected an id, got %s", key, node_kind(v));
    if (strlen(s) >= CAT_ID_LEN)
        return err_at(x, v, "'%s': id longer than %d characters", key, CAT_ID_LEN - 1);
    if (!valid_id(s))
        return err_at(x, v, "'%s': '%s' is not a valid id (letters, digits, . _ + -)", key, s);
    memcpy(out, s, strlen(s) + 1);
    return 0;
}

/* An accelerator's id and aliases each name it alone: lookups match either,
 * case-insensitively, so an alias may not be an id or another accelerator's
 * alias, and a new id may not be an alias already given. */
static int check_accel_names(Ctx *x, const Accelerator *a, const yaml_node_t *el)
{
    const yaml_node_t *an = map_get(x, el, "aliases");
    if (!an) /* an override entry that leaves the aliases as they were */
        an = el;
    size_t len;
    for (const char *p = a->aliases; (p = catalog_list_next(p, &len)) != NULL; p += len) {
        char al[CAT_ID_LEN];
        if (len >= sizeof al)
            return err_at(x, an, "accelerator '%s': alias '%.*s' is longer than %d characters",
                          a->id, (int)len, p, (int)sizeof al - 1);
        memcpy(al, p, len);
        al[len] = '\0';
        if (!valid_id(al))
            return err_at(x, an, "accelerator '%s': alias '%s' is not a valid id (letters, "
                                 "digits, . _ + -)", a->id, al);
        /* the lookup a plan makes: ids first, then aliases */
        const Accelerator *o = catalog_find_accelerator(x->c, al);
        if (o && strcasecmp(o->id, al) == 0)
            return err_at(x, an, "accelerator '%s': alias '%s' is the id of %s", a->id, al,
                          o == a ? "this accelerator" : "another accelerator");
        if (o && o != a)
            return err_at(x, an, "accelerator '%s': alias '%s' already names accelerator '%s'",
                          a->id, al, o->id);
    }
    const Accelerator *o = catalog_find_accelerator_alias(x->c, a->id);
    if (o && o != a)
        return err_at(x, map_get(x, el, "id"), "accelerator '%s': that name is an alias of "
                                               "accelerator '%s'", a->id, o->id);
    return 0;
}

/* node_label is one Kubernetes label, key=value: a key of an optional DNS
 * prefix and '/' then a name, a value of at most 63 letters, digits, - _ .
 * (kubernetes.io "Labels and Selectors", syntax and character set; checked
 * loosely: the characters and the lengths, not every rule on where they go). */
static int check_node_label(Ctx *x, const Accelerator *a, const yaml_node_t *el)
{
    const char *l = a->node_label, *eq = strchr(l, '=');
    if (!*l)
        return 0;
    const yaml_node_t *at = map_get(x, el, "node_label");
    if (!at)
        at = el;
    size_t klen = eq ? (size_t)(eq - l) : 0, vlen = eq ? strlen(eq + 1) : 0;
    bool ok = eq && klen > 0 && klen <= 253 && vlen > 0 && vlen <= 63 && !strchr(eq + 1, '=');
    for (const char *p = l; ok && *p; p++)
        ok = isalnum((unsigned char)*p) || strchr("-_./=", *p);
    if (!ok)
        return err_at(x, at, "accelerator '%s': node_label must be one Kubernetes label, "
                             "key=value (letters, digits, - _ . /; a value of 1-63), got '%s'",
                      a->id, l);
    return 0;
}

static int load_list_entry(Ctx *x, int sec, const yaml_node_t *el)
{
    const Section *s = &sections[sec];
    if (el->type != YAML_MAPPING_NODE)
        return err_at(x, el, "%s: each entry must be a mapping, got %s", s->name, node_kind(el));
    /* zeroed: the whole array is copied into the row, so the bytes after
     * the id are zeros rather than stack contents (a loaded catalog is then
     * the same bytes in every process: the stage file's digest, evaluate.c) */
    char id[CAT_ID_LEN] = {0};
    if (sec == SEC_FW || sec == SEC_BAND) {
        /* compound ids: "nemo@H100-SXM" (a calibrated override),
         * "hopper/dense/fp8" (a band class); each part a valid id */
        const yaml_node_t *v = map_get(x, el, "id");
        const char *raw = v ? scalar(v) : NULL;
        char part[CAT_ID_LEN];
        size_t len = raw ? strlen(raw) : 0;
        if (raw && len < CAT_ID_LEN) {
            size_t a = 0;
            for (size_t i = 0; i <= len; i++) {
                if (raw[i] != '\0' && raw[i] != '@' && raw[i] != '/')
                    continue;
                memcpy(part, raw + a, i - a);
                part[i - a] = '\0';
                if (!valid_id(part))
                    return err_at(x, v, "'id': '%s' is not a valid id (parts of letters, digits, "
                                        ". _ + - joined by @ or /)", raw);
                a = i + 1;
            }
            memcpy(id, raw, len + 1);
        } else if (take_id(x, el, "id", s->name, id) != 0) {
            return -1;
        }
    } else if (take_id(x, el, "id", s->name, id) != 0) {
        return -1;
    }
    for (size_t i = 0; i < x->n_seen; i++)
        if (x->seen[i].sec == sec && strcasecmp(x->seen[i].id, id) == 0)
            return err_at(x, map_get(x, el, "id"), "%s: id '%s' already defined in this file at line %d",
                          s->name, id, x->seen[i].line);
    if (grow((void **)&x->seen, &x->cap_seen, x->n_seen, sizeof *x->seen) != 0)
        return err_oom(x);
    SeenId *sid = &x->seen[x->n_seen++];
    sid->sec = sec;
    memcpy(sid->id, id, sizeof id);
    sid->line = node_line(el);

    void *row = row_find(x->c, sec, id);
    bool is_new = row == NULL;
    if (is_new) {
        size_t have;
        sec_rows(x->c, sec, &have);
        if (have >= CATY_MAX_ROWS)
            return err_at(x, el, "%s: more than %d entries", s->name, CATY_MAX_ROWS);
        row = sec_append(x->c, sec);
        if (!row)
            return err_oom(x);
        memcpy(row, id, sizeof id);
    }
    char where[CAT_ID_LEN + 32];
    snprintf(where, sizeof where, "%s entry '%s'", s->name, id);
    uint64_t mask = 0;
    if (parse_mapping(x, el, s->fields, s->n_fields, row, where, &mask) != 0)
        return -1;
    if (sec == SEC_ACCEL && check_accel_names(x, row, el) != 0)
        return -1;
    if (sec == SEC_ACCEL && check_node_label(x, row, el) != 0)
        return -1;
    if (sec == SEC_FW) {
        const Framework *fw = row;
        const yaml_node_t *ds = map_get(x, el, "dp_sharding");
        if (ds && dp_sharding_zero(fw->dp_sharding, NULL) < 0)
            return err_at(x, ds, "%s: dp_sharding must be none, optimizer, gradients, full or "
                          "fsdp, got '%s'", where, fw->dp_sharding);
        const yaml_node_t *df = map_get(x, el, "dp_sharding_fallback");
        if (df && dp_sharding_zero(fw->dp_sharding_fallback, NULL) < 0)
            return err_at(x, df, "%s: dp_sharding_fallback must be none, optimizer, gradients, "
                          "full or fsdp, got '%s'", where, fw->dp_sharding_fallback);
        const yaml_node_t *rd = map_get(x, el, "recompute_default");
        if (rd && recompute_word(fw->recompute_default) < 0)
            return err_at(x, rd, "%s: recompute_default must be none, selective or full, got "
                          "'%s'", where, fw->recompute_default);
        if (rd && fw->full_recompute_only && recompute_word(fw->recompute_default) == 1)
            return err_at(x, rd, "%s: recompute_default selective, but the profile is "
                          "full_recompute_only", where);
    }
    if (is_new && check_required(x, el, s, mask, id) != 0)
        return -1;
    return 0;
}

static int load_eff_entry(Ctx *x, const yaml_node_t *el)
{
    const Section *s = &sections[SEC_EFF];
    if (el->type != YAML_MAPPING_NODE)
        return err_at(x, el, "efficiency: each entry must be a mapping, got %s", node_kind(el));
    if (x->n_eff >= CATY_MAX_ROWS)
        return err_at(x, el, "efficiency: more than %d entries", CATY_MAX_ROWS);
    if (grow((void **)&x->eff, &x->cap_eff, x->n_eff, sizeof *x->eff) != 0)
        return err_oom(x);
    EffEntry *e = &x->eff[x->n_eff];
    memset(e, 0, sizeof *e);
    if (parse_mapping(x, el, s->fields, s->n_fields, &e->a, "an efficiency entry", &e->set) != 0)
        return -1;
    if (!(e->set & 1u))
        return err_at(x, el, "efficiency entry has no 'accelerator'");
    const yaml_node_t *acc = map_get(x, el, "accelerator");
    e->file = x->cur;
    e->line = node_line(acc);
    e->col = node_col(acc);
    x->n_eff++;
    return 0;
}

/* uncertainty: a mapping of range knob names to {low, high, source, …}. */
static int load_uncertainty(Ctx *x, const yaml_node_t *v)
{
    if (v->type != YAML_MAPPING_NODE)
        return err_at(x, v, "uncertainty: expected a mapping of assumption names, got %s",
                      node_kind(v));
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(x->doc, p->key);
        yaml_node_t *e = yaml_document_get_node(x->doc, p->value);
        if (!k || !e || !scalar(k))
            return err_at(x, k ? k : v, "uncertainty: names must be plain text");
        int knob = range_knob_find(scalar(k));
        if (knob < 0) {
            const char *names[RANGE_COUNT];
            for (int i = 0; i < RANGE_COUNT; i++)
                names[i] = range_knob_name(i);
            const char *near = diag_nearest(scalar(k), names, RANGE_COUNT);
            return err_at(x, k, "uncertainty: unknown assumption '%s'%s%s%s", scalar(k),
                          near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
        }
        if (e->type != YAML_MAPPING_NODE)
            return err_at(x, e, "uncertainty '%s': expected a mapping {low, high, source}, got %s",
                          scalar(k), node_kind(e));
        CatalogRange *r = &x->c->ranges[knob];
        uint64_t mask = 0;
        char where[64];
        snprintf(where, sizeof where, "uncertainty '%s'", scalar(k));
        if (parse_mapping(x, e, range_fields, NFIELDS(range_fields), r, where, &mask) != 0)
            return -1;
        if (!r->given && (mask & 3u) != 3u)
            return err_at(x, e, "uncertainty '%s': needs both low and high", scalar(k));
        if (!r->given && !r->source[0])
            return err_at(x, e, "uncertainty '%s': needs a source", scalar(k));
        if (r->low > r->high)
            return err_at(x, e, "uncertainty '%s': low %g is above high %g", scalar(k), r->low,
                          r->high);
        r->given = true;
    }
    return 0;
}

static int load_section(Ctx *x, int sec, const yaml_node_t *v)
{
    const Section *s = &sections[sec];
    if (is_null(v))
        return 0;
    if (sec == SEC_UNC)
        return load_uncertainty(x, v);
    if (sec == SEC_COSTS) {
        if (v->type != YAML_MAPPING_NODE)
            return err_at(x, v, "costs: expected a mapping, got %s", node_kind(v));
        uint64_t mask = 0;
        return parse_mapping(x, v, s->fields, s->n_fields, &x->c->costs, "costs", &mask);
    }
    if (v->type != YAML_SEQUENCE_NODE)
        return err_at(x, v, "%s: expected a list of entries, got %s", s->name, node_kind(v));
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        yaml_node_t *el = yaml_document_get_node(x->doc, *it);
        if (!el)
            return err_at(x, v, "%s: malformed entry", s->name);
        int rc = sec == SEC_EFF ? load_eff_entry(x, el) : load_list_entry(x, sec, el);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static int load_root(Ctx *x, const yaml_node_t *root)
{
    if (is_null(root))
        return 0;
    if (root->type != YAML_MAPPING_NODE)
        return err_at(x, root, "a catalog file must be a mapping of sections, got %s", node_kind(root));
    const char *names[SEC_COUNT];
    for (int i = 0; i < SEC_COUNT; i++)
        names[i] = sections[i].name;
    bool seen[SEC_COUNT] = {false};
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(x->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(x->doc, p->value);
        if (!k || !v || !scalar(k))
            return err_at(x, k ? k : root, "section names must be plain text");
        int sec = -1;
        for (int i = 0; i < SEC_COUNT; i++)
            if (strcmp(scalar(k), names[i]) == 0)
                sec = i;
        if (sec < 0) {
            const char *near = diag_nearest(scalar(k), names, SEC_COUNT);
            if (near)
                return err_at(x, k, "unknown section '%s' (did you mean '%s'?)", scalar(k), near);
            return err_at(x, k, "unknown section '%s' (expected accelerators, instances, storage, "
                                "engines, costs, efficiency, uncertainty, frameworks or "
                                "error_bands)", scalar(k));
        }
        if (seen[sec])
            return err_at(x, k, "section '%s' given twice in one file", names[sec]);
        seen[sec] = true;
        if (load_section(x, sec, v) != 0)
            return -1;
    }
    return 0;
}

/* A collection that opens deeper than YDEPTH_MAX (ydepth_load stopped there). */
static int err_deep(Ctx *x, const yaml_mark_t *at)
{
    diag_set(x->d, ctx_file(x), (int)at->line + 1, (int)at->column + 1,
             "nested more than %d levels deep", YDEPTH_MAX);
    return -1;
}

/* Parse one text as file number x->cur. */
static int load_text(Ctx *x, const char *text, size_t len)
{
    yaml_mark_t deep;
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser))
        return err_oom(x);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    x->n_seen = 0;
    int rc = ydepth_load(&parser, &doc, YDEPTH_MAX, &deep);
    if (rc < 0) {
        yaml_parser_delete(&parser);
        return err_deep(x, &deep);
    }
    if (!rc) {
        if (parser.error == YAML_MEMORY_ERROR) { /* libyaml ran out of memory */
            yaml_parser_delete(&parser);
            return err_oom(x);
        }
        int line = (int)parser.problem_mark.line + 1, col = (int)parser.problem_mark.column + 1;
        if (parser.error == YAML_READER_ERROR) /* it gives only a byte offset */
            ydepth_locate(text, len, parser.problem_offset, &line, &col);
        diag_set(x->d, ctx_file(x), line, col, "%s: %s%s%s",
                 parser.error == YAML_READER_ERROR ? "invalid text" : "YAML syntax error",
                 parser.problem ? parser.problem : "unknown",
                 parser.context ? " " : "", parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        return -1;
    }
    rc = 0;
    x->doc = &doc;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root)
        rc = load_root(x, root);
    x->doc = NULL;
    yaml_document_delete(&doc);
    if (rc == 0 && root) {
        /* A second document in the stream is refused rather than ignored. */
        yaml_document_t more;
        int more_rc = ydepth_load(&parser, &more, YDEPTH_MAX, &deep);
        if (more_rc < 0) {
            rc = err_deep(x, &deep);
        } else if (!more_rc && parser.error == YAML_MEMORY_ERROR) {
            rc = err_oom(x);
        } else if (parser.error != YAML_NO_ERROR) {
            diag_set(x->d, ctx_file(x), (int)parser.problem_mark.line + 1,
                     (int)parser.problem_mark.column + 1, "YAML syntax error: %s",
                     parser.problem ? parser.problem : "unknown");
            rc = -1;
        } else {
            yaml_node_t *r2 = yaml_document_get_root_node(&more);
            if (r2) {
                diag_set(x->d, ctx_file(x), node_line(r2), node_col(r2),
                         "a catalog file holds one YAML document; found a second one");
                rc = -1;
            }
            yaml_document_delete(&more);
        }
    }
    yaml_parser_delete(&parser);
    return rc;
}

static int ctx_add_file(Ctx *x, const char *name)
{
    char **p = realloc(x->files, (x->n_files + 1) * sizeof *p);
    if (!p)
        return err_oom(x);
    x->files = p;
    p[x->n_files] = strdup(name ? name : "");
    if (!p[x->n_files])
        return err_oom(x);
    x->cur = x->n_files++;
    return 0;
}

/* The place a framework row gave its calibration_from, for errors. */
static void fw_ref_at(const Ctx *x, const char *id, const char **file, int *line, int *col)
{
    *file = "";
    *line = *col = 0;
    for (size_t k = 0; k < x->n_refs; k++)
        if (x->refs[k].sec == SEC_FW && strcasecmp(x->refs[k].row, id) == 0) {
            *file = x->files[x->refs[k].file];
            *line = x->refs[k].line;
            *col = x->refs[k].col;
        }
}

/* The last place row `row` gave a reference of section tag `sec`
 * (record_ref), NULL when none was recorded. */
static const AccRef *last_ref(const Ctx *x, int sec, const char *row)
{
    const AccRef *r = NULL;
    for (size_t k = 0; k < x->n_refs; k++)
        if (x->refs[k].sec == sec && strcasecmp(x->refs[k].row, row) == 0)
            r = &x->refs[k];
    return r;
}

/* "<what>unknown accelerator '<id>'", with the nearest catalog id, at
 * file:line:col; returns -1.  err_unknown_accel_at: at reference r (NULL:
 * no place). */
static int err_unknown_accel(Ctx *x, const char *file, int line, int col, const char *what,
                             const char *id)
{
    const char *cands[256];
    size_t nc = 0;
    for (size_t k = 0; k < x->c->n_accelerators && nc < 256; k++)
        cands[nc++] = x->c->accelerators[k].id;
    const char *near = diag_nearest(id, cands, nc);
    diag_set(x->d, file, line, col, "%sunknown accelerator '%s'%s%s%s", what, id,
             near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    return -1;
}

static int err_unknown_accel_at(Ctx *x, const AccRef *r, const char *what, const char *id)
{
    return err_unknown_accel(x, r ? x->files[r->file] : "", r ? r->line : 0, r ? r->col : 0,
                             what, id);
}

/* Every id a framework's curves_calibrated_on names must be a catalog
 * accelerator; reported at the last place the list was given. */
static int check_curves_calibrated_on(Ctx *x)
{
    for (size_t i = 0; i < x->c->n_frameworks; i++) {
        const Framework *f = &x->c->frameworks[i];
        size_t len;
        for (const char *p = f->curves_calibrated_on; (p = catalog_list_next(p, &len)) != NULL;
             p += len) {
            char id[CAT_ID_LEN], what[CAT_ID_LEN + 64];
            snprintf(id, sizeof id, "%.*s", (int)(len < sizeof id ? len : sizeof id - 1), p);
            if (catalog_find_accelerator(x->c, id))
                continue;
            snprintf(what, sizeof what, "framework '%s': curves_calibrated_on names ", f->id);
            return err_unknown_accel_at(x, last_ref(x, REF_FW_ACCLIST, f->id), what, id);
        }
    }
    return 0;
}

/* Room for one more framework row (catalog_derive_calibrations). */
static Framework *fw_append(Catalog *c, void *ctx)
{
    (void)ctx;
    return sec_append(c, SEC_FW);
}

/* Profiles that name another in calibration_from run the same code under
 * other defaults (Megatron-LM's own scripts and NeMo's performance recipes
 * both run Megatron-Core and Transformer Engine): the accelerator-level
 * multipliers fitted for the other, and its MoE host costs (what Megatron-
 * Core's MoE layer costs the host), describe this one too, while its own
 * overlaps and kernels stay.  The other may name a third (torchtitan ->
 * torchtitan-compile -> fsdp: eager and compiled torchtitan, the compiled
 * one and PyTorch FSDP2), so a profile takes the calibration of the
 * nearest profile up its chain that has one for the accelerator.  Once
 * every file is read:
 *  - a zero MoE host cost of the base row takes the nearest non-zero one
 *    up the chain;
 *  - the "<id>@<acc>" rows it lacks are derived from its source's
 *    (catalog_derive_calibrations; `gpuplan calibrate` derives them again
 *    from the rows it fits).
 * A profile's own "<id>@<accelerator>" row (its own calibration) wins. */
static int borrow_calibration(Ctx *x)
{
    Catalog *c = x->c;
    size_t n0 = c->n_frameworks;
    for (size_t i = 0; i < n0; i++) {
        Framework *f = &c->frameworks[i];
        if (!f->calibration_from[0])
            continue;
        const char *file;
        int line, col;
        fw_ref_at(x, f->id, &file, &line, &col);
        if (strchr(f->id, '@')) {
            diag_set(x->d, file, line, col,
                     "framework '%s': calibration_from belongs on a base profile (an id "
                     "without '@'); a '<id>@<accelerator>' row is a calibration itself", f->id);
            return -1;
        }
        const Framework *src = catalog_find_framework(c, f->calibration_from);
        if (!src || strchr(src->id, '@') || src == f) {
            const char *cands[256];
            size_t nc = 0;
            for (size_t k = 0; k < n0 && nc < 256; k++)
                if (!strchr(c->frameworks[k].id, '@') && k != i)
                    cands[nc++] = c->frameworks[k].id;
            const char *near = diag_nearest(f->calibration_from, cands, nc);
            diag_set(x->d, file, line, col,
                     "framework '%s': calibration_from '%s' is not another base profile%s%s%s",
                     f->id, f->calibration_from, near ? " (did you mean '" : "",
                     near ? near : "", near ? "'?)" : "");
            return -1;
        }
        /* take the MoE host costs the nearest profile up the chain has;
         * the chain must end, not come back */
        const Framework *up = src;
        for (size_t hop = 0; up; hop++) {
            if (!(f->moe_layer_overhead_s > 0))
                f->moe_layer_overhead_s = up->moe_layer_overhead_s;
            if (!(f->moe_expert_overhead_s > 0))
                f->moe_expert_overhead_s = up->moe_expert_overhead_s;
            if (!(f->moe_attn_launch_s > 0))
                f->moe_attn_launch_s = up->moe_attn_launch_s;
            if (!(f->moe_graph_residual > 0))
                f->moe_graph_residual = up->moe_graph_residual;
            if (!up->calibration_from[0])
                break;
            up = catalog_find_framework(c, up->calibration_from);
            if (up == f || hop > n0) {
                diag_set(x->d, file, line, col,
                         "framework '%s': calibration_from '%s' leads back to '%s' (a profile "
                         "takes its calibration from one that has its own, or from a chain "
                         "ending there)", f->id, f->calibration_from, f->id);
                return -1;
            }
        }
    }
    return catalog_derive_calibrations(c, fw_append, NULL) < 0 ? err_oom(x) : 0;
}

/* Apply efficiency entries, check cross references, then derive the rows
 * calibration_from asks for. */
static int resolve(Ctx *x)
{
    const Section *es = &sections[SEC_EFF];
    for (size_t i = 0; i < x->n_eff; i++) {
        EffEntry *e = &x->eff[i];
        Accelerator *a = (Accelerator *)catalog_find_accelerator(x->c, e->a.id);
        if (!a)
            return err_unknown_accel(x, x->files[e->file], e->line, e->col,
                                     "efficiency entry for ", e->a.id);
        for (size_t f = 1; f < es->n_fields; f++) {
            const Field *fd = &es->fields[f];
            if ((fd->flags & F_NOAPPLY) || !(e->set & (UINT64_C(1) << field_slot(es->fields, f))))
                continue;
            memcpy((char *)a + fd->off, (const char *)&e->a + fd->off, fd->size);
        }
    }
    for (size_t i = 0; i < x->c->n_instances; i++) {
        const Instance *in = &x->c->instances[i];
        if (catalog_find_accelerator(x->c, in->accelerator))
            continue;
        /* Report at the last place this instance's accelerator was set. */
        char what[CAT_ID_LEN + 16];
        snprintf(what, sizeof what, "instance '%s': ", in->id);
        return err_unknown_accel_at(x, last_ref(x, SEC_INST, in->id), what, in->accelerator);
    }
    if (check_curves_calibrated_on(x) != 0)
        return -1;
    return borrow_calibration(x);
}

static void ctx_free(Ctx *x)
{
    for (size_t i = 0; i < x->n_files; i++)
        free(x->files[i]);
    free(x->files);
    free(x->eff);
    free(x->refs);
    free(x->seen);
}

/* ---- public ------------------------------------------------------------- */

void catalog_free(Catalog *c)
{
    if (!c)
        return;
    free(c->accelerators);
    free(c->instances);
    free(c->storage);
    free(c->engines);
    free(c->frameworks);
    free(c->bands);
    memset(c, 0, sizeof *c);
}

int catalog_load_text(Catalog *c, const char *text, size_t len, const char *file, Diag *d)
{
    if (!c)
        return -1;
    Ctx x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.d = d;
    int rc = ctx_add_file(&x, file);
    if (rc == 0 && !text && len > 0)
        rc = err_at(&x, NULL, "no text");
    if (rc == 0)
        rc = load_text(&x, text ? text : "", text ? len : 0);
    if (rc == 0)
        rc = resolve(&x);
    ctx_free(&x);
    if (rc != 0)
        catalog_free(c);
    return rc;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* catalog_yaml.h: every "*.yaml" (hidden files, e.g. editor backups, skipped). */
static bool is_yaml_name(const char *n)
{
    size_t len = strlen(n);
    return n[0] != '.' && len > 5 && strcmp(n + len - 5, ".yaml") == 0;
}

/* Read a whole file into a NUL-terminated malloc'd buffer. */
static char *read_file(Ctx *x, const char *path, size_t *len)
{
    char why[128];
    FILE *f = safeio_fopen_read(path, why, sizeof why);
    if (!f) {
        diag_set(x->d, path, 0, 0, "cannot open: %s", why);
        return NULL;
    }
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            if (cap >= CATY_MAX_FILE) {
                diag_set(x->d, path, 0, 0, "file larger than %u bytes", CATY_MAX_FILE);
                free(buf);
                fclose(f);
                return NULL;
            }
            char *p = realloc(buf, cap * 2);
            if (!p)
                break;
            buf = p;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (!buf) {
        fclose(f);
        err_oom(x);
        return NULL;
    }
    if (ferror(f)) {
        diag_set(x->d, path, 0, 0, "read error: %s", strerror(errno));
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* The *.yaml file names of dir, sorted (the order the catalog loads them
 * in, which catalog_source_digest hashes them in too): 0 with *names (n
 * strdup'ed names, free with free_names) — n may be 0 —, -1 when dir cannot
 * be opened (errno set), -2 when out of memory. */
static int yaml_names(const char *dir, char ***names, size_t *n)
{
    *names = NULL;
    *n = 0;
    DIR *dp = opendir(dir);
    if (!dp)
        return -1;
    size_t cap = 0;
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(dp)) != NULL) {
        if (!is_yaml_name(de->d_name))
            continue;
        if (grow((void **)names, &cap, *n, sizeof **names) != 0 ||
            !((*names)[*n] = strdup(de->d_name)))
            rc = -2;
        else
            (*n)++;
    }
    closedir(dp);
    if (*names)
        qsort(*names, *n, sizeof **names, name_cmp);
    return rc;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Load every .yaml file of dir, in name order. */
static int load_dir(Ctx *x, const char *dir)
{
    char **names;
    size_t n;
    int rc = yaml_names(dir, &names, &n);
    if (rc == -1) {
        diag_set(x->d, dir, 0, 0, "cannot open catalog directory: %s", strerror(errno));
        return -1;
    }
    if (rc != 0)
        rc = err_oom(x);
    else if (n == 0) {
        diag_set(x->d, dir, 0, 0, "no *.yaml catalog files in this directory");
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        size_t plen = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(plen);
        if (!path) {
            rc = err_oom(x);
            break;
        }
        snprintf(path, plen, "%s/%s", dir, names[i]);
        size_t len = 0;
        char *text = read_file(x, path, &len);
        if (!text)
            rc = -1;
        else if (ctx_add_file(x, path) != 0)
            rc = -1;
        else
            rc = load_text(x, text, len);
        free(text);
        free(path);
    }
    free_names(names, n);
    return rc;
}

int catalog_load(Catalog *c, const char *dir, const char *user_dir, Diag *d)
{
    if (!c)
        return -1;
    memset(c, 0, sizeof *c);
    Ctx x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.d = d;
    int rc;
    if (!dir) {
        diag_set(d, "", 0, 0, "no catalog directory given");
        rc = -1;
    } else {
        rc = load_dir(&x, dir);
    }
    if (rc == 0 && user_dir)
        rc = load_dir(&x, user_dir);
    if (rc == 0)
        rc = resolve(&x);
    ctx_free(&x);
    if (rc != 0)
        catalog_free(c);
    return rc;
}

/* The *.yaml files of one directory in the order load_dir reads them,
 * each as its name, its length and its bytes; -1 when the directory or a
 * file cannot be read or there is none. */
static int source_dir(uint64_t *h, const char *dir)
{
    char **names;
    size_t n;
    int rc = yaml_names(dir, &names, &n) == 0 && n > 0 ? 0 : -1;
    char *buf = rc == 0 ? malloc(65536) : NULL;
    if (rc == 0 && !buf)
        rc = -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        size_t plen = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(plen), why[128];
        FILE *f = NULL;
        if (path) {
            snprintf(path, plen, "%s/%s", dir, names[i]);
            f = safeio_fopen_read(path, why, sizeof why);
        }
        free(path);
        if (!f) {
            rc = -1;
            break;
        }
        *h = hash_fnv1a64_bytes(*h, names[i], strlen(names[i]) + 1);
        uint64_t len = 0;
        size_t got;
        while ((got = fread(buf, 1, 65536, f)) > 0) {
            *h = hash_fnv1a64_bytes(*h, buf, got);
            len += got;
        }
        if (ferror(f))
            rc = -1;
        fclose(f);
        *h = hash_fnv1a64_bytes(*h, &len, sizeof len);
    }
    free(buf);
    free_names(names, n);
    return rc;
}

int catalog_source_digest(const char *dir, const char *user_dir, uint64_t *out)
{
    uint64_t h = HASH_FNV1A64_BASIS;
    if (!dir || source_dir(&h, dir) != 0)
        return -1;
    h = hash_fnv1a64_bytes(h, user_dir ? "\1user" : "\0none", 5);
    if (user_dir && source_dir(&h, user_dir) != 0)
        return -1;
    *out = h;
    return 0;
}
