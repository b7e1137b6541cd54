/* model/catalog.c — lookups over the catalog (pure; loading is plans/). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog.h"

static const char *const prec_names[PREC_COUNT] = {"fp32", "bf16", "fp16", "fp8", "fp4"};
static const double prec_bytes[PREC_COUNT] = {4, 2, 2, 1, 0.5};

double precision_bytes(Precision p)
{
    return (p >= 0 && p < PREC_COUNT) ? prec_bytes[p] : 2.0;
}

const char *precision_name(Precision p)
{
    return (p >= 0 && p < PREC_COUNT) ? prec_names[p] : NULL;
}

static const char *const range_names[RANGE_COUNT] = {
    [RANGE_RESERVED_DISCOUNT] = "reserved_discount", [RANGE_NODE_PRICE] = "node_price",
    [RANGE_POWER_PRICE] = "power_price",             [RANGE_PUE] = "pue",
    [RANGE_HORIZON] = "horizon",                     [RANGE_MTBF] = "mtbf_gpu",
    [RANGE_TOKENS] = "tokens",                       [RANGE_ARRIVALS] = "arrivals",
    [RANGE_UTILIZATION] = "utilization",             [RANGE_RESALE] = "resale",
    [RANGE_MODEL_BAND] = "model_band",
};

const char *range_knob_name(RangeKnob k)
{
    return (k >= 0 && k < RANGE_COUNT) ? range_names[k] : NULL;
}

int range_knob_find(const char *name)
{
    for (int i = 0; name && i < RANGE_COUNT; i++)
        if (strcasecmp(name, range_names[i]) == 0)
            return i;
    return -1;
}

const char *provider_name(Provider p)
{
    switch (p) {
    case PROVIDER_AWS: return "aws";
    case PROVIDER_GCP: return "gcp";
    case PROVIDER_AZURE: return "azure";
    default: return "other";
    }
}

/* A curve's value at x, held at its end points, interpolated linearly in x
 * or (log_x, positive x) in log2(x). */
static double curve_interp(const Curve *c, double x, bool log_x)
{
    if (x <= c->x[0])
        return c->y[0];
    for (int i = 1; i < c->n; i++) {
        if (x <= c->x[i]) {
            double t = log_x ? log2(x / c->x[i - 1]) / log2(c->x[i] / c->x[i - 1])
                             : (x - c->x[i - 1]) / (c->x[i] - c->x[i - 1]);
            return c->y[i - 1] + t * (c->y[i] - c->y[i - 1]);
        }
    }
    return c->y[c->n - 1];
}

double curve_eval(const Curve *c, double x)
{
    if (!c || c->n <= 0)
        return 1.0;
    return curve_interp(c, x, false);
}

/* A fused (Flash-style) attention kernel gives each thread block a tile of
 * queries and loops over the keys 128 at a time; the block's set-up (loading
 * its queries) and wind-up (the final rescale and the output write) are a
 * fixed cost of about c loop iterations, so with n iterations per block the
 * kernel runs at n / (n + c) of its long-sequence rate.  This form with
 * c = 1.9 reproduces the forward TFLOP/s of FlashAttention-3 and of
 * Triton's FlashAttention-2 on H100 at 512 … 16,384 keys (batch × sequence
 * 16K tokens, 16 heads of 128; 430 … 621 and 329 … 477 TFLOP/s,
 * pytorch/benchmark PR #2391 test plan) within 1.6 %.  A causal block loops
 * over half the sequence on average.  The catalog's attn_*_eff were taken
 * causal at attn_eff_seq (c = attn_cta_blocks): the factor is 1 there. */
double accelerator_attn_seq_factor(const Accelerator *a, double keys)
{
    if (!a || !(a->attn_eff_seq > 0) || !(a->attn_cta_blocks > 0) || !(keys > 0))
        return 1.0;
    double c = a->attn_cta_blocks;
    double n = keys / 128.0, n0 = a->attn_eff_seq / 256.0;
    return n / (n + c) * ((n0 + c) / n0);
}

double accelerator_attn_seq_curve(const Accelerator *a, const Curve *sweep, double keys)
{
    if (!sweep || sweep->n <= 0 || !(sweep->x[0] > 0) || !a || !(a->attn_eff_seq > 0) ||
        !(keys > 0))
        return accelerator_attn_seq_factor(a, keys);
    double ref = curve_interp(sweep, a->attn_eff_seq / 2.0, true);
    if (!(ref > 0))
        return 1.0;
    if (keys >= sweep->x[0])
        return curve_interp(sweep, keys, true) / ref;
    /* below the sweep: its first point carried down by the block-cost law */
    double x0 = sweep->x[0];
    return sweep->y[0] / ref * accelerator_attn_seq_factor(a, keys) /
           accelerator_attn_seq_factor(a, x0);
}

/* Block-scaled FP4 stores one 8-bit scale per fp4_scale_block values beside
 * the 4-bit ones: NVFP4 (16, E4M3) 4.5 bits per value, OCP MXFP4 (32, E8M0)
 * 4.25 (NVIDIA, "Introducing NVFP4", 2025; OCP MX spec v1.0); 0 = no
 * block scales. */
double accelerator_fp4_bytes(const Accelerator *a)
{
    double b = precision_bytes(PREC_FP4);
    return a && a->fp4_scale_block > 0 ? b + 1.0 / a->fp4_scale_block : b;
}

double accelerator_fp4_gemm_factor(const Accelerator *a)
{
    return a && a->fp4_gemm_factor > 0 && a->fp4_gemm_factor <= 1 ? a->fp4_gemm_factor : 0.0;
}

/* TileLang's tuned Mamba-2 chunk_scan forward on H800 SXM (the H100-SXM's
 * GH100 compute), 134.4 TFLOP/s at sequence 8192, head_dim 64, state 128,
 * chunk 256 (tile-ai/tilelang benchmark/mamba2/README.md), over 989.4
 * dense BF16: 0.136.  mamba_ssm's Triton kernels, which Megatron-Core and
 * vLLM run, were slower there, so it bounds their speed; no other part's
 * SSD kernels were found measured. */
#define SSD_EFF_DEFAULT 0.136

double accelerator_ssd_eff(const Accelerator *a)
{
    return a && a->ssd_eff > 0 && a->ssd_eff <= 1 ? a->ssd_eff : SSD_EFF_DEFAULT;
}

const Accelerator *catalog_find_accelerator(const Catalog *c, const char *id)
{
    if (!c || !id)
        return NULL;
    for (size_t i = 0; i < c->n_accelerators; i++)
        if (strcasecmp(c->accelerators[i].id, id) == 0)
            return &c->accelerators[i];
    return catalog_find_accelerator_alias(c, id);
}

const Accelerator *catalog_find_accelerator_alias(const Catalog *c, const char *name)
{
    size_t n = name ? strlen(name) : 0, len;
    for (size_t i = 0; c && n && i < c->n_accelerators; i++)
        for (const char *p = c->accelerators[i].aliases; (p = catalog_list_next(p, &len)) != NULL;
             p += len)
            if (len == n && strncasecmp(p, name, n) == 0)
                return &c->accelerators[i];
    return NULL;
}

const Instance *catalog_find_instance(const Catalog *c, const char *id)
{
    if (!c || !id)
        return NULL;
    for (size_t i = 0; i < c->n_instances; i++)
        if (strcasecmp(c->instances[i].id, id) == 0)
            return &c->instances[i];
    return NULL;
}

const StorageSystem *catalog_find_storage(const Catalog *c, const char *id)
{
    if (!c || !id)
        return NULL;
    for (size_t i = 0; i < c->n_storage; i++)
        if (strcasecmp(c->storage[i].id, id) == 0)
            return &c->storage[i];
    return NULL;
}

const Engine *catalog_find_engine(const Catalog *c, const char *id)
{
    if (!c || !id)
        return NULL;
    for (size_t i = 0; i < c->n_engines; i++)
        if (strcasecmp(c->engines[i].id, id) == 0)
            return &c->engines[i];
    return NULL;
}

const Framework *catalog_find_framework(const Catalog *c, const char *id)
{
    if (!c || !id)
        return NULL;
    for (size_t i = 0; i < c->n_frameworks; i++)
        if (strcasecmp(c->frameworks[i].id, id) == 0)
            return &c->frameworks[i];
    return NULL;
}

int dp_sharding_zero(const char *word, int *pipelined)
{
    static const struct {
        const char *word;
        int zero, pipelined;
    } words[] = {{"none", 0, 0}, {"optimizer", 1, 1}, {"gradients", 2, 2}, {"full", 3, 3},
                 {"fsdp", 3, 2}};
    for (size_t i = 0; word && i < sizeof words / sizeof words[0]; i++)
        if (strcasecmp(word, words[i].word) == 0) {
            if (pipelined)
                *pipelined = words[i].pipelined;
            return words[i].zero;
        }
    return -1;
}

/* The base profile a workload's framework word names ("" = megatron). */
static const Framework *base_framework(const Catalog *c, const char *fw)
{
    return catalog_find_framework(c, fw && fw[0] ? fw : CATALOG_DEFAULT_FRAMEWORK);
}

int recompute_word(const char *word)
{
    static const char *const words[] = {"none", "selective", "full"};
    if (!word || !*word)
        return -1;
    for (int i = 0; i < 3; i++)
        if (strcasecmp(word, words[i]) == 0)
            return i;
    return -2;
}

int framework_recompute(const Catalog *c, const char *fw)
{
    const Framework *f = base_framework(c, fw);
    int r = f ? recompute_word(f->recompute_default) : -1;
    return r < -1 ? -1 : r;
}

int framework_zero(const Catalog *c, const char *fw, int *pipelined)
{
    const Framework *f = base_framework(c, fw);
    int pp = 1, z = f ? dp_sharding_zero(f->dp_sharding, &pp) : -1;
    if (z < 0)
        z = pp = 1;
    if (pipelined)
        *pipelined = pp;
    return z;
}

int framework_zero_fallback(const Catalog *c, const char *fw)
{
    const Framework *f = base_framework(c, fw);
    int z = f ? dp_sharding_zero(f->dp_sharding_fallback, NULL) : -1;
    return z > framework_zero(c, fw, NULL) ? z : -1;
}

const char *catalog_list_next(const char *p, size_t *len)
{
    while (p && *p == ' ')
        p++;
    if (!p || !*p)
        return NULL;
    *len = strcspn(p, " ");
    return p;
}

bool framework_calibrated_on(const Framework *f, const Accelerator *a)
{
    if (!f || strchr(f->id, '@'))
        return f != NULL;
    size_t n = a ? strlen(a->id) : 0, len;
    for (const char *p = f->curves_calibrated_on; n && (p = catalog_list_next(p, &len)) != NULL;
         p += len)
        if (len == n && strncasecmp(p, a->id, n) == 0)
            return true;
    return false;
}

bool accelerator_same_silicon(const Accelerator *a, const Accelerator *b)
{
    return a && b && a->silicon[0] && strcasecmp(a->silicon, b->silicon) == 0;
}

/* Copy the fields `gpuplan calibrate` fits (model/calib.c) from src. */
static void take_fitted(Framework *f, const Framework *src)
{
    f->gemm_scale = src->gemm_scale;
    f->fp8_gemm_factor = src->fp8_gemm_factor;
    f->step_scale = src->step_scale;
    f->step_overhead_s = src->step_overhead_s;
    f->moe_layer_overhead_s = src->moe_layer_overhead_s;
    f->moe_expert_overhead_s = src->moe_expert_overhead_s;
    f->moe_attn_launch_s = src->moe_attn_launch_s;
    f->moe_graph_residual = src->moe_graph_residual;
    f->calibrated_runs = src->calibrated_runs;
    f->calibrated_residual = src->calibrated_residual;
    f->cv_residual = src->cv_residual;
    memcpy(f->calibrated_on, src->calibrated_on, sizeof f->calibrated_on);
}

int catalog_derive_calibrations(Catalog *c, Framework *(*grow)(Catalog *c, void *ctx), void *ctx)
{
    size_t n0 = c->n_frameworks;
    for (bool added = true; added;) {
        added = false;
        for (size_t i = 0; i < n0; i++) {
            if (!c->frameworks[i].calibration_from[0])
                continue;
            char from[CAT_ID_LEN];
            snprintf(from, sizeof from, "%s", c->frameworks[i].calibration_from);
            size_t fl = strlen(from);
            for (size_t k = 0; k < c->n_frameworks; k++) {
                const char *id = c->frameworks[k].id;
                if (strncasecmp(id, from, fl) != 0 || id[fl] != '@')
                    continue;
                char key[CAT_ID_LEN];
                int w = snprintf(key, sizeof key, "%s@%s", c->frameworks[i].id, id + fl + 1);
                if (w < 0 || (size_t)w >= sizeof key || catalog_find_framework(c, key))
                    continue;
                Framework row = c->frameworks[i];
                const Framework *src = &c->frameworks[k];
                snprintf(row.id, sizeof row.id, "%s", key);
                row.calibration_from[0] = '\0';
                take_fitted(&row, src);
                /* the fitted row it comes from, however many links up */
                memcpy(row.calibrated_as, src->calibrated_as[0] ? src->calibrated_as : src->id,
                       sizeof row.calibrated_as);
                /* the source row's source, cut to fit behind the prefix */
                int p = snprintf(row.source, sizeof row.source,
                                 "calibration_from %s: the fitted fields of %s: ", from, src->id);
                if (p > 0 && (size_t)p < sizeof row.source)
                    memcpy(row.source + p, src->source,
                           strnlen(src->source, sizeof row.source - (size_t)p - 1) + 1);
                row.source[sizeof row.source - 1] = '\0';
                memcpy(row.as_of, src->as_of, sizeof row.as_of);
                Framework *nf = grow(c, ctx); /* may move the array */
                if (!nf)
                    return -1;
                *nf = row;
                added = true;
            }
        }
    }
    return 0;
}

void catalog_drop_derived_calibrations(Catalog *c)
{
    size_t m = 0;
    for (size_t i = 0; i < c->n_frameworks; i++)
        if (!c->frameworks[i].calibrated_as[0])
            c->frameworks[m++] = c->frameworks[i];
    c->n_frameworks = m;
}

const Framework *catalog_framework_for(const Catalog *c, const char *fw, const char *acc)
{
    if (!fw || !*fw)
        fw = CATALOG_DEFAULT_FRAMEWORK;
    if (acc && *acc) {
        char key[2 * 48 + 2];
        snprintf(key, sizeof key, "%s@%s", fw, acc);
        const Framework *f = catalog_find_framework(c, key);
        if (f)
            return f;
        /* No calibration for this accelerator: a sibling on the same
         * silicon (catalog `silicon:`), first in catalog order, lends its
         * own.  Its fitted multipliers describe the die and the software
         * on it; the clock and power limits that differ are the rows'
         * peaks and bandwidths, which the model uses as given. */
        const Accelerator *a = catalog_find_accelerator(c, acc);
        if (a && a->silicon[0]) {
            for (size_t i = 0; i < c->n_accelerators; i++) {
                const Accelerator *s = &c->accelerators[i];
                if (s == a || !accelerator_same_silicon(s, a))
                    continue;
                snprintf(key, sizeof key, "%s@%s", fw, s->id);
                if ((f = catalog_find_framework(c, key)) != NULL)
                    return f;
            }
        }
    }
    return catalog_find_framework(c, fw);
}

const ErrorBand *catalog_find_band(const Catalog *c, const char *id)
{
    if (!c || !id)
        return NULL;
    for (size_t i = 0; i < c->n_bands; i++)
        if (strcasecmp(c->bands[i].id, id) == 0)
            return &c->bands[i];
    return NULL;
}

const MigProfile *accelerator_find_mig(const Accelerator *a, const char *profile)
{
    if (!a || !profile)
        return NULL;
    for (int i = 0; i < a->n_mig; i++)
        if (strcasecmp(a->mig[i].name, profile) == 0)
            return &a->mig[i];
    return NULL;
}

/* Compute slices of a profile: its field, else the "Ng" prefix of its name
 * (NVIDIA MIG user guide naming: <compute>g.<memory>gb). */
static int mig_slices(const MigProfile *m)
{
    if (m->compute_slices > 0)
        return m->compute_slices;
    int c = atoi(m->name);
    return c > 0 ? c : 1;
}

const MigProfile *accelerator_nearest_mig(const Accelerator *to, const MigProfile *from)
{
    if (!to || !from || to->n_mig <= 0)
        return NULL;
    bool from_me = strstr(from->name, "+me") != NULL;
    int fs = mig_slices(from);
    const MigProfile *best = NULL, *largest = NULL;
    for (int i = 0; i < to->n_mig; i++) {
        const MigProfile *m = &to->mig[i];
        if ((strstr(m->name, "+me") != NULL) != from_me)
            continue;
        int ms = mig_slices(m);
        if (!largest || ms > mig_slices(largest) ||
            (ms == mig_slices(largest) && m->mem_bytes > largest->mem_bytes))
            largest = m;
        if (ms < fs || m->mem_bytes < from->mem_bytes)
            continue;
        if (!best || ms < mig_slices(best) ||
            (ms == mig_slices(best) && m->mem_bytes < best->mem_bytes))
            best = m;
    }
    return best ? best : largest;
}
