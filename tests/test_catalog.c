/* tests/test_catalog.c — the shipped catalog's facts, the loader's override
 * and error behaviour, and the data-dir lookup. */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog_yaml.h"
#include "check_main.h"
#include "datadir.h"

/* Relative tolerance for figures keyed as decimals and scaled to SI (the
 * product of two doubles may differ from the literal in the last ulp). */
#define REL_TOL 1e-12

static int close_rel(double a, double b)
{
    return fabs(a - b) <= REL_TOL * fabs(b);
}

/* The shipped catalog directory: $GPUPLAN_DATADIR/catalog, else the source
 * tree's (PREAMBLE: tests fall back to GPUPLAN_SRCDIR). */
static const char *catalog_dir(void)
{
    static char buf[4096];
    const char *d = getenv("GPUPLAN_DATADIR");
    if (d && *d)
        snprintf(buf, sizeof buf, "%s/catalog", d);
    else
        snprintf(buf, sizeof buf, "%s/data/catalog", GPUPLAN_SRCDIR);
    return buf;
}

static void load_shipped(Catalog *c)
{
    Diag d;
    memset(&d, 0, sizeof d);
    char msg[1024];
    int rc = catalog_load(c, catalog_dir(), NULL, &d);
    ck_assert_msg(rc == 0, "shipped catalog failed to load: %s", diag_format(&d, msg, sizeof msg));
}

/* ---- temp directories --------------------------------------------------- */

static void make_tmpdir(char *out, size_t len)
{
    const char *t = getenv("TMPDIR");
    snprintf(out, len, "%s/gpuplan-cat-XXXXXX", t && *t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(out));
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
}

/* Remove a directory tree of plain files and subdirectories. */
static void rm_tree(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_tree(p);
        else
            unlink(p);
    }
    closedir(dp);
    rmdir(dir);
}

/* Load `text` as file "t.yaml" into an empty catalog; the result code, with
 * d filled on failure. */
static int load_text(Catalog *c, const char *text, Diag *d)
{
    memset(c, 0, sizeof *c);
    memset(d, 0, sizeof *d);
    return catalog_load_text(c, text, strlen(text), "t.yaml", d);
}

static void assert_empty(const Catalog *c)
{
    ck_assert_ptr_null(c->accelerators);
    ck_assert_ptr_null(c->instances);
    ck_assert_ptr_null(c->storage);
    ck_assert_uint_eq(c->n_accelerators, 0);
    ck_assert_uint_eq(c->n_instances, 0);
    ck_assert_uint_eq(c->n_storage, 0);
    ck_assert_double_eq(c->costs.switch_price_usd, 0);
}

/* A minimal valid accelerator, for texts that need one. */
#define ACC_OK                                                                          \
    "accelerators:\n"                                                                   \
    "  - id: X1\n"                                                                      \
    "    hbm_gb: 80\n"                                                                  \
    "    peak_tflops: {bf16: 100}\n"                                                    \
    "    source: test\n"                                                                \
    "    as_of: 2026-11-30\n"

/* Expect failure at line:col with `needle` in the message; catalog empty. */
#define EXPECT_ERR(text, line_, col_, needle)                                                   \
    do {                                                                                        \
        Catalog c_;                                                                             \
        Diag d_;                                                                                \
        ck_assert_int_eq(load_text(&c_, (text), &d_), -1);                                      \
        assert_empty(&c_);                                                                      \
        ck_assert_str_eq(d_.file, "t.yaml");                                                    \
        ck_assert_msg(d_.line == (line_) && d_.col == (col_), "at %d:%d, expected %d:%d (%s)", \
                      d_.line, d_.col, (line_), (col_), d_.msg);                                \
        ck_assert_msg(strstr(d_.msg, (needle)) != NULL, "message '%s' lacks '%s'", d_.msg,      \
                      (needle));                                                                \
    } while (0)

/* ---- the shipped catalog -------------------------------------------------- */

START_TEST(shipped_h100_sxm_figures_match_the_datasheet)
{
    Catalog c;
    load_shipped(&c);
    const Accelerator *a = catalog_find_accelerator(&c, "H100-SXM");
    ck_assert_ptr_nonnull(a);
    /* CATALOG-FACTS §1.1: 989.4 dense BF16 TFLOPS, 80 GB, 3.35 TB/s, 700 W. */
    ck_assert(close_rel(a->peak_flops[PREC_BF16], 989.4e12));
    ck_assert(close_rel(a->peak_flops[PREC_FP8], 1978.9e12));
    ck_assert(close_rel(a->peak_flops[PREC_FP32], 494.7e12)); /* TF32 dense */
    ck_assert_double_eq(a->peak_flops[PREC_FP4], 0);
    /* "80 GB" of HBM3 is 80 GiB less the ECC/driver reserve: nvidia-smi
     * reports 81559 MiB on every H100 80GB HBM3, more than 80e9 B. */
    ck_assert(close_rel(a->hbm_bytes, 81559.0 * 1048576.0));
    ck_assert(close_rel(a->hbm_bw, 3.35e12));
    ck_assert_double_eq(a->tdp_w, 700);
    /* NVLink 900 GB/s is bidirectional: stored per direction. */
    ck_assert(close_rel(a->scaleup_bw, 450e9));
    ck_assert_int_eq(a->gpus_per_node, 8);
    ck_assert_int_eq(a->scaleup_domain, 8);
    ck_assert_double_eq(a->node_power_w, 10200);
    ck_assert_double_eq(a->node_price_usd, 270000);
    const MigProfile *m = accelerator_find_mig(a, "3g.40gb");
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->count, 2);
    ck_assert_int_eq(m->compute_slices, 3);
    ck_assert(close_rel(m->mem_bytes, 40e9));
    catalog_free(&c);
}
END_TEST

START_TEST(shipped_h100_nvl_and_pcie_figures_match_the_datasheet)
{
    Catalog c;
    load_shipped(&c);
    /* NVIDIA H100 datasheet, H100 NVL column: TF32 835, BF16/FP16 1,671,
     * FP8 3,341 TFLOPS with sparsity (dense = half); 94 GB, 3.9 TB/s;
     * TDP 350-400 W configurable; NVLink bridge 600 GB/s. */
    const Accelerator *n = catalog_find_accelerator(&c, "H100-NVL");
    ck_assert_ptr_nonnull(n);
    ck_assert(close_rel(n->peak_flops[PREC_BF16], 1671e12 / 2));
    ck_assert(close_rel(n->peak_flops[PREC_FP16], 1671e12 / 2));
    ck_assert(close_rel(n->peak_flops[PREC_FP8], 3341e12 / 2));
    ck_assert(close_rel(n->peak_flops[PREC_FP32], 835e12 / 2)); /* TF32 dense */
    ck_assert_double_eq(n->peak_flops[PREC_FP4], 0);
    ck_assert(close_rel(n->hbm_bytes, 94e9));
    ck_assert(close_rel(n->hbm_bw, 3.9e12));
    ck_assert_double_eq(n->tdp_w, 400);
    ck_assert(close_rel(n->scaleup_bw, 300e9)); /* 600 GB/s bidirectional */
    ck_assert_int_eq(n->scaleup_domain, 2);     /* bridged pairs */
    /* H100 PCIe column (2022 datasheet): TF32 756, BF16/FP16 1,513,
     * FP8 3,026 TFLOPS with sparsity; 2,000 GB/s; 300-350 W. */
    const Accelerator *p = catalog_find_accelerator(&c, "H100-PCIe");
    ck_assert_ptr_nonnull(p);
    ck_assert(close_rel(p->peak_flops[PREC_BF16], 1513e12 / 2));
    ck_assert(close_rel(p->peak_flops[PREC_FP8], 3026e12 / 2));
    ck_assert(close_rel(p->peak_flops[PREC_FP32], 756e12 / 2));
    ck_assert(close_rel(p->hbm_bw, 2000e9));
    ck_assert_double_eq(p->tdp_w, 350);
    /* Same GH100 die as H100-SXM, at lower clocks / fewer SMs: below it. */
    const Accelerator *s = catalog_find_accelerator(&c, "H100-SXM");
    ck_assert(p->peak_flops[PREC_BF16] < n->peak_flops[PREC_BF16]);
    ck_assert(n->peak_flops[PREC_BF16] < s->peak_flops[PREC_BF16]);
    catalog_free(&c);
}
END_TEST

/* A part with no HBM bandwidth or BF16 peak sizes nothing ("does not
 * fit" on every workload): every shipped row carries both. */
START_TEST(shipped_accelerators_all_have_bandwidth_and_bf16_peak)
{
    Catalog c;
    load_shipped(&c);
    for (size_t i = 0; i < c.n_accelerators; i++) {
        const Accelerator *a = &c.accelerators[i];
        ck_assert_msg(a->hbm_bw > 0, "%s: no HBM bandwidth", a->id);
        ck_assert_msg(a->peak_flops[PREC_BF16] > 0, "%s: no BF16 peak", a->id);
        ck_assert_msg(a->hbm_bytes > 0, "%s: no HBM", a->id);
    }
    catalog_free(&c);
}
END_TEST

START_TEST(shipped_b200_has_180_gb_and_gb200_a_72_gpu_domain)
{
    Catalog c;
    load_shipped(&c);
    const Accelerator *b = catalog_find_accelerator(&c, "b200"); /* case-insensitive */
    ck_assert_ptr_nonnull(b);
    ck_assert(close_rel(b->hbm_bytes, 180e9));
    ck_assert(close_rel(b->peak_flops[PREC_FP4], 9000e12));
    const Accelerator *g = catalog_find_accelerator(&c, "GB200");
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(g->scaleup_domain, 72);
    ck_assert_int_eq(g->gpus_per_node, 4);
    ck_assert(g->liquid_cooled);
    const Accelerator *t = catalog_find_accelerator(&c, "Trainium");
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->gpus_per_node, 16);
    ck_assert(close_rel(t->hbm_bytes, 32.0 * 1073741824.0)); /* 32 GiB */
    catalog_free(&c);
}
END_TEST

/* Blackwell Ultra (HGX B300 / GB300 NVL72 datasheet figures, NVIDIA's MLPerf
 * Inference v6.1 systems; accelerators.yaml [BU-*]): dense FP4 raised to
 * 13.125 PF (105 PF per 8) and 15 PF (1,080 PF per 72), 1.46x / 1.5x the
 * B200's / GB200's, FP8 and BF16 unchanged; 270 / 288 GB, TGP 1100 / 1400 W,
 * one ConnectX-8 800 Gb/s per GPU; GB300 a liquid-cooled 4-GPU tray in a
 * 72-GPU NVLink domain; both one die (silicon). */
START_TEST(shipped_b300_and_gb300_are_blackwell_ultra)
{
    Catalog c;
    load_shipped(&c);
    const Accelerator *b2 = catalog_find_accelerator(&c, "B200");
    const Accelerator *g2 = catalog_find_accelerator(&c, "GB200");
    const Accelerator *b = catalog_find_accelerator(&c, "B300");
    const Accelerator *g = catalog_find_accelerator(&c, "GB300");
    ck_assert_ptr_nonnull(b2);
    ck_assert_ptr_nonnull(g2);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(g);
    ck_assert(close_rel(b->peak_flops[PREC_FP4], 105e15 / 8));
    ck_assert(close_rel(g->peak_flops[PREC_FP4], 1080e15 / 72));
    ck_assert(close_rel(g->peak_flops[PREC_FP4], 1.5 * g2->peak_flops[PREC_FP4]));
    ck_assert(close_rel(b->peak_flops[PREC_FP8], b2->peak_flops[PREC_FP8]));
    ck_assert(close_rel(b->peak_flops[PREC_BF16], b2->peak_flops[PREC_BF16]));
    ck_assert(close_rel(g->peak_flops[PREC_FP8], g2->peak_flops[PREC_FP8]));
    /* DGX B300: 72 PF FP8 sparse per 8 GPUs (CATALOG-FACTS 3.1) */
    ck_assert(close_rel(8 * 2 * b->peak_flops[PREC_FP8], 72e15));
    ck_assert(close_rel(b->hbm_bytes, 270e9));
    ck_assert(close_rel(g->hbm_bytes, 288e9));
    ck_assert(close_rel(b->hbm_bw, 8e12) && close_rel(g->hbm_bw, 8e12));
    ck_assert_double_eq(b->tdp_w, 1100);
    ck_assert_double_eq(g->tdp_w, 1400);
    ck_assert_double_eq(b->nic_gbps, 800);
    ck_assert_double_eq(g->nic_gbps, 800);
    ck_assert_int_eq(b->nics_per_node, b->gpus_per_node);
    ck_assert_int_eq(g->nics_per_node, g->gpus_per_node);
    ck_assert(!b->liquid_cooled);
    ck_assert(g->liquid_cooled);
    ck_assert_int_eq(b->scaleup_domain, 8);
    ck_assert_int_eq(g->scaleup_domain, 72);
    ck_assert_int_eq(g->gpus_per_node, 4);
    ck_assert_str_eq(b->silicon, g->silicon);
    /* four DGX B300 per ~56 kW rack (DGX SuperPOD B300-XDR, CATALOG-FACTS 3.2) */
    ck_assert(close_rel(4 * b->node_power_w, 56e3));
    /* MIG (GPU Operator 25.10.0 release notes: HGX B300 profiles) */
    const MigProfile *m = accelerator_find_mig(b, "1g.34gb");
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->count, 7);
    ck_assert_ptr_nonnull(accelerator_find_mig(b, "7g.269gb"));
    ck_assert_ptr_nonnull(accelerator_find_mig(g, "7g.278gb"));
    /* efficiency: GEMM shares of the same FP8/BF16 peaks as B200 / GB200;
     * the fused attention faster, by cuDNN's measured GB300 / GB200 ratio
     * (test_train blackwell_ultra_attention_is_cudnns_measured_ratio_faster) */
    ck_assert(close_rel(curve_eval(&b->gemm_eff, 4096), curve_eval(&b2->gemm_eff, 4096)));
    ck_assert(b->attn_fwd_eff > b2->attn_fwd_eff && g->attn_bwd_eff > g2->attn_bwd_eff);
    ck_assert(close_rel(g->scaleup_latency_s, g2->scaleup_latency_s));
    catalog_free(&c);
}
END_TEST

START_TEST(shipped_has_every_plan_format_accelerator_id)
{
    static const char *const ids[] = {"A100-40GB", "A100-80GB", "H100-SXM", "H100-PCIe", "H200",
                                      "B200",      "GB200",     "MI300X",   "MI325X",    "MI350X",
                                      "MI355X",    "TPU-v4",    "TPU-v5e",  "TPU-v5p",   "TPU-v6e",
                                      "TPU7x",     "Trainium",  "Trainium2", "B300",     "GB300"};
    Catalog c;
    load_shipped(&c);
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        ck_assert_msg(catalog_find_accelerator(&c, ids[i]) != NULL, "missing %s", ids[i]);
    catalog_free(&c);
}
END_TEST

/* MI325X: the MI300X's 8-GPU UBB 2.0 full mesh, 7 Infinity Fabric links a
 * GPU (CATALOG-FACTS M4), so the MI300X row's 896 GB/s; it was 0 (every
 * FSDP / TP collective on 8 MI325X priced off the scale-up fabric). */
START_TEST(shipped_mi325x_has_the_mi300x_infinity_fabric)
{
    Catalog c;
    load_shipped(&c);
    const Accelerator *a = catalog_find_accelerator(&c, "MI300X");
    const Accelerator *b = catalog_find_accelerator(&c, "MI325X");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert(a->scaleup_bw > 0);
    ck_assert(close_rel(b->scaleup_bw, a->scaleup_bw));
    ck_assert_int_eq(b->scaleup_domain, 8);
    catalog_free(&c);
}
END_TEST

START_TEST(shipped_nd96isr_h100_v5_has_8_gpus)
{
    Catalog c;
    load_shipped(&c);
    const Instance *in = catalog_find_instance(&c, "Standard_ND96isr_H100_v5");
    ck_assert_ptr_nonnull(in);
    ck_assert_int_eq(in->accel_count, 8);
    ck_assert_str_eq(in->accelerator, "H100-SXM");
    ck_assert_int_eq(in->provider, PROVIDER_AZURE);
    /* p5 uses the post-cut [DR] price, not SkyPilot's pre-cut 98.32. */
    const Instance *p5 = catalog_find_instance(&c, "p5.48xlarge");
    ck_assert_ptr_nonnull(p5);
    ck_assert_double_eq(p5->on_demand_usd_h, 55.04);
    ck_assert_double_eq(p5->network_gbps, 3200);
    catalog_free(&c);
}
END_TEST

START_TEST(shipped_instances_name_existing_accelerators)
{
    Catalog c;
    load_shipped(&c);
    ck_assert_uint_gt(c.n_instances, 20);
    for (size_t i = 0; i < c.n_instances; i++) {
        const Instance *in = &c.instances[i];
        ck_assert_msg(catalog_find_accelerator(&c, in->accelerator) != NULL, "%s -> %s", in->id,
                      in->accelerator);
        ck_assert_int_ge(in->accel_count, 1);
        ck_assert_msg(in->reserved_3y_discount >= in->reserved_1y_discount, "%s", in->id);
    }
    catalog_free(&c);
}
END_TEST

START_TEST(shipped_rows_all_carry_source_and_as_of)
{
    Catalog c;
    load_shipped(&c);
    for (size_t i = 0; i < c.n_accelerators; i++)
        ck_assert_msg(c.accelerators[i].source[0] && c.accelerators[i].as_of[0], "%s",
                      c.accelerators[i].id);
    for (size_t i = 0; i < c.n_instances; i++)
        ck_assert_msg(c.instances[i].source[0] && c.instances[i].as_of[0], "%s", c.instances[i].id);
    for (size_t i = 0; i < c.n_storage; i++)
        ck_assert_msg(c.storage[i].source[0] && c.storage[i].as_of[0], "%s", c.storage[i].id);
    ck_assert(c.costs.source[0] && c.costs.as_of[0]);
    static const char *const st[] = {"lustre", "gpfs", "weka", "vast", "nfs"};
    for (size_t i = 0; i < 5; i++)
        ck_assert_msg(catalog_find_storage(&c, st[i]) != NULL, "storage %s", st[i]);
    /* CATALOG-FACTS §4.1: DDN's 1 GB/s/GPU minimum is the default. */
    ck_assert(close_rel(c.costs.gpudirect_read_bw_per_gpu, 1e9));
    catalog_free(&c);
}
END_TEST

/* ---- overrides ------------------------------------------------------------- */

/* An accelerator with no "<framework>@<id>" calibration uses the one of a
 * row on the same silicon (MI350X from MI355X); a row of the same family
 * but no shared silicon (TPU generations) does not, nor does a row that
 * has its own. */
#define FW_ROW(id_, k_)                                                                     \
    "  - {id: " id_ ", gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.85," \
    " step_scale: " k_ ", source: t, as_of: 2026-12-02}\n"
START_TEST(framework_calibration_is_borrowed_only_from_the_same_silicon)
{
    static const char text[] =
        "accelerators:\n"
        "  - {id: A1, family: f, silicon: s, hbm_gb: 80, peak_tflops: {bf16: 100}, source: t, as_of: 2026-12-02}\n"
        "  - {id: A2, family: f, silicon: s, hbm_gb: 80, peak_tflops: {bf16: 120}, source: t, as_of: 2026-12-02}\n"
        "  - {id: A3, family: f, hbm_gb: 80, peak_tflops: {bf16: 100}, source: t, as_of: 2026-12-02}\n"
        "  - {id: A4, family: f, silicon: s, hbm_gb: 80, peak_tflops: {bf16: 90}, source: t, as_of: 2026-12-02}\n"
        "frameworks:\n" FW_ROW("nemo", "1.0") FW_ROW("nemo@A2", "0.7") FW_ROW("nemo@A4", "0.9");
    Catalog c;
    Diag d;
    char msg[1024];
    ck_assert_msg(load_text(&c, text, &d) == 0, "%s", diag_format(&d, msg, sizeof msg));
    ck_assert_str_eq(catalog_find_accelerator(&c, "A1")->silicon, "s");
    ck_assert_str_eq(catalog_framework_for(&c, "nemo", "A1")->id, "nemo@A2"); /* first sibling */
    ck_assert_str_eq(catalog_framework_for(&c, "nemo", "A4")->id, "nemo@A4"); /* its own */
    ck_assert_str_eq(catalog_framework_for(&c, "nemo", "A3")->id, "nemo");    /* family only */
    ck_assert_str_eq(catalog_framework_for(&c, "nemo", "A9")->id, "nemo");    /* unknown id */
    ck_assert_ptr_null(catalog_framework_for(&c, "fsdp", "A1"));             /* no such framework */
    catalog_free(&c);
}
END_TEST

/* calibration_from: a profile without its own "<id>@<acc>" row gets one
 * built from the named profile's: that row's fitted fields (gemm_scale,
 * fp8_gemm_factor, step_scale, step overhead, MoE host costs), its own
 * overlaps; its own row wins; a zero base MoE host cost takes the other's. */
START_TEST(calibration_from_derives_the_missing_accelerator_rows)
{
    static const char text[] =
        "accelerators:\n"
        "  - {id: A1, family: f, hbm_gb: 80, peak_tflops: {bf16: 100}, source: t, as_of: 2026-12-02}\n"
        "  - {id: A2, family: f, hbm_gb: 80, peak_tflops: {bf16: 100}, source: t, as_of: 2026-12-02}\n"
        "frameworks:\n"
        "  - {id: lm, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
        "     moe_attn_launch_us: 7, calibration_from: rec, source: t, as_of: 2026-12-03}\n"
        "  - {id: rec, gemm_scale: 1, tp_overlap: 0.8, dp_overlap: 0.9, fp8_gemm_factor: 0.85,\n"
        "     moe_layer_overhead_us: 600, moe_attn_launch_us: 500, source: t, as_of: 2026-12-03}\n"
        "  - {id: rec@A1, gemm_scale: 1.1, tp_overlap: 0.8, dp_overlap: 0.9, fp8_gemm_factor: 0.9,\n"
        "     step_scale: 1.02, step_overhead_ms: 150, moe_layer_overhead_us: 650,\n"
        "     moe_expert_overhead_us: 20, moe_graph_residual: 0.5, source: fit, as_of: 2026-12-03}\n"
        "  - {id: rec@A2, gemm_scale: 0.9, tp_overlap: 0.8, dp_overlap: 0.9, fp8_gemm_factor: 0.95,\n"
        "     source: fit, as_of: 2026-12-03}\n"
        "  - {id: lm@A2, gemm_scale: 1.3, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.8,\n"
        "     source: own, as_of: 2026-12-03}\n";
    Catalog c;
    Diag d;
    char msg[1024];
    ck_assert_msg(load_text(&c, text, &d) == 0, "%s", diag_format(&d, msg, sizeof msg));
    const Framework *lm = catalog_framework_for(&c, "lm", "A1");
    ck_assert_str_eq(lm->id, "lm@A1");
    ck_assert(close_rel(lm->gemm_scale, 1.1) && close_rel(lm->fp8_gemm_factor, 0.9));
    ck_assert(close_rel(lm->step_scale, 1.02) && close_rel(lm->step_overhead_s, 0.150));
    ck_assert(close_rel(lm->moe_layer_overhead_s, 650e-6));
    ck_assert(close_rel(lm->moe_expert_overhead_s, 20e-6));
    ck_assert(close_rel(lm->moe_graph_residual, 0.5));
    ck_assert(lm->tp_overlap == 0.0 && close_rel(lm->dp_overlap, 0.8)); /* its own */
    ck_assert(strstr(lm->source, "rec@A1") != NULL);
    ck_assert_str_eq(lm->calibrated_as, "rec@A1");
    ck_assert_str_eq(catalog_find_framework(&c, "rec@A1")->calibrated_as, "");
    ck_assert_str_eq(lm->calibration_from, "");
    /* its own calibration wins */
    ck_assert_str_eq(catalog_framework_for(&c, "lm", "A2")->id, "lm@A2");
    ck_assert(close_rel(catalog_framework_for(&c, "lm", "A2")->gemm_scale, 1.3));
    /* the base row: zero MoE host costs borrowed, its own kept */
    const Framework *base = catalog_find_framework(&c, "lm");
    ck_assert(close_rel(base->moe_layer_overhead_s, 600e-6));
    ck_assert(close_rel(base->moe_attn_launch_s, 7e-6));
    ck_assert(close_rel(base->gemm_scale, 1.0) && base->step_scale == 0.0);
    catalog_free(&c);

    /* a chain: up takes lm's calibration, lm takes rec's; on A1 up gets
     * rec@A1's fitted fields (through the derived lm@A1), on A2 lm's own */
    static const char chain[] =
        "accelerators:\n"
        "  - {id: A1, family: f, hbm_gb: 80, peak_tflops: {bf16: 100}, source: t, as_of: 2026-12-02}\n"
        "  - {id: A2, family: f, hbm_gb: 80, peak_tflops: {bf16: 100}, source: t, as_of: 2026-12-02}\n"
        "frameworks:\n"
        "  - {id: up, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.7, fp8_gemm_factor: 0.85,\n"
        "     calibration_from: lm, source: t, as_of: 2026-12-05}\n"
        "  - {id: lm, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
        "     calibration_from: rec, source: t, as_of: 2026-12-03}\n"
        "  - {id: rec, gemm_scale: 1, tp_overlap: 0.8, dp_overlap: 0.9, fp8_gemm_factor: 0.85,\n"
        "     moe_layer_overhead_us: 600, source: t, as_of: 2026-12-03}\n"
        "  - {id: rec@A1, gemm_scale: 1.1, tp_overlap: 0.8, dp_overlap: 0.9, fp8_gemm_factor: 0.9,\n"
        "     step_scale: 1.02, source: fit, as_of: 2026-12-03}\n"
        "  - {id: lm@A2, gemm_scale: 1.3, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.8,\n"
        "     source: own, as_of: 2026-12-03}\n";
    ck_assert_msg(load_text(&c, chain, &d) == 0, "%s", diag_format(&d, msg, sizeof msg));
    const Framework *u1 = catalog_framework_for(&c, "up", "A1");
    const Framework *u2 = catalog_framework_for(&c, "up", "A2");
    ck_assert_str_eq(u1->id, "up@A1");
    ck_assert(close_rel(u1->gemm_scale, 1.1) && close_rel(u1->step_scale, 1.02));
    ck_assert(close_rel(u1->dp_overlap, 0.7)); /* its own */
    ck_assert_str_eq(u1->calibrated_as, "rec@A1");
    ck_assert_str_eq(u2->id, "up@A2");
    ck_assert(close_rel(u2->gemm_scale, 1.3));
    ck_assert_str_eq(u2->calibrated_as, "lm@A2");
    ck_assert(close_rel(catalog_find_framework(&c, "up")->moe_layer_overhead_s, 600e-6));
    catalog_free(&c);

    /* errors name the file, line and column of the key */
    static const char *const bad[][2] = {
        {"frameworks:\n"
         "  - {id: lm, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
         "     calibration_from: recc, source: t, as_of: 2026-12-03}\n"
         "  - {id: rec, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
         "     source: t, as_of: 2026-12-03}\n",
         "t.yaml:3:24: framework 'lm': calibration_from 'recc' is not another base profile "
         "(did you mean 'rec'?)"},
        {"frameworks:\n"
         "  - {id: lm, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
         "     calibration_from: lm, source: t, as_of: 2026-12-03}\n",
         "calibration_from 'lm' is not another base profile"},
        {"frameworks:\n"
         "  - {id: a, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
         "     calibration_from: b, source: t, as_of: 2026-12-03}\n"
         "  - {id: b, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
         "     calibration_from: a, source: t, as_of: 2026-12-03}\n",
         "framework 'a': calibration_from 'b' leads back to 'a'"},
        {"frameworks:\n"
         "  - {id: a, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
         "     source: t, as_of: 2026-12-03}\n"
         "  - {id: b@X, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
         "     calibration_from: a, source: t, as_of: 2026-12-03}\n",
         "t.yaml:5:24: framework 'b@X': calibration_from belongs on a base profile"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_ne(load_text(&c, bad[i][0], &d), 0);
        diag_format(&d, msg, sizeof msg);
        ck_assert_msg(strstr(msg, bad[i][1]) != NULL, "case %zu: %s", i, msg);
        catalog_free(&c);
    }
}
END_TEST

/* Room for one more framework row in a fixed array (ctx: its size). */
static Framework *grow_fixed(Catalog *c, void *ctx)
{
    return c->n_frameworks < *(const size_t *)ctx ? &c->frameworks[c->n_frameworks++] : NULL;
}

/* `gpuplan calibrate` drops the rows calibration_from derived and derives
 * them again from its own fits (cli/cmd_calibrate.c calibrate_once): on
 * the shipped catalog, unchanged, that gives back the loader's rows, in
 * its order, with the same fitted fields and provenance; without room it
 * says so. */
START_TEST(deriving_again_gives_back_the_loaders_rows)
{
    Catalog c;
    load_shipped(&c);
    size_t n = c.n_frameworks, derived = 0;
    for (size_t i = 0; i < n; i++)
        derived += c.frameworks[i].calibrated_as[0] != '\0';
    ck_assert_msg(derived > 0, "the shipped catalog derives no row through calibration_from");
    size_t room = n;
    Framework *fw = malloc(room * sizeof *fw);
    ck_assert_ptr_nonnull(fw);
    memcpy(fw, c.frameworks, n * sizeof *fw);
    Catalog w = c;
    w.frameworks = fw;
    catalog_drop_derived_calibrations(&w);
    ck_assert_uint_eq(w.n_frameworks, n - derived);
    for (size_t i = 0; i < w.n_frameworks; i++)
        ck_assert_str_eq(w.frameworks[i].calibrated_as, "");
    ck_assert_int_eq(catalog_derive_calibrations(&w, grow_fixed, &room), 0);
    ck_assert_uint_eq(w.n_frameworks, n);
    for (size_t i = 0; i < n; i++) {
        const Framework *a = &c.frameworks[i], *b = &w.frameworks[i];
        ck_assert_str_eq(b->id, a->id);
        ck_assert_str_eq(b->calibrated_as, a->calibrated_as);
        ck_assert_str_eq(b->source, a->source);
        ck_assert(b->gemm_scale == a->gemm_scale && b->step_scale == a->step_scale);
        ck_assert(b->fp8_gemm_factor == a->fp8_gemm_factor);
        ck_assert(b->step_overhead_s == a->step_overhead_s);
        ck_assert(b->moe_layer_overhead_s == a->moe_layer_overhead_s);
        ck_assert(b->moe_expert_overhead_s == a->moe_expert_overhead_s);
        ck_assert(b->moe_attn_launch_s == a->moe_attn_launch_s);
        ck_assert(b->moe_graph_residual == a->moe_graph_residual);
        ck_assert(b->tp_overlap == a->tp_overlap && b->dp_overlap == a->dp_overlap);
    }
    /* one row short: the derivation stops and says so */
    catalog_drop_derived_calibrations(&w);
    size_t short_room = n - 1;
    ck_assert_int_eq(catalog_derive_calibrations(&w, grow_fixed, &short_room), -1);
    free(fw);
    catalog_free(&c);
}
END_TEST

START_TEST(user_dir_overrides_field_by_field_and_adds_rows)
{
    char dir[512];
    make_tmpdir(dir, sizeof dir);
    write_file(dir, "mine.yaml",
               "instances:\n"
               "  - id: P5.48XLARGE\n" /* ids match case-insensitively */
               "    on_demand_usd_h: 50\n"
               "  - id: my-box\n"
               "    provider: other\n"
               "    accelerator: my-gpu\n"
               "    accel_count: 4\n"
               "    source: quote\n"
               "    as_of: 2026-11\n"
               "accelerators:\n"
               "  - id: my-gpu\n"
               "    hbm_gib: 64\n"
               "    source: bench\n"
               "    as_of: 2026-11-30\n"
               "costs:\n"
               "  switch_price_usd: 1234\n");
    Catalog c;
    Diag d;
    memset(&d, 0, sizeof d);
    char msg[1024];
    int rc = catalog_load(&c, catalog_dir(), dir, &d);
    rm_tree(dir);
    ck_assert_msg(rc == 0, "%s", diag_format(&d, msg, sizeof msg));
    const Instance *p5 = catalog_find_instance(&c, "p5.48xlarge");
    ck_assert_ptr_nonnull(p5);
    ck_assert_double_eq(p5->on_demand_usd_h, 50);
    /* untouched fields keep the shipped values */
    ck_assert_str_eq(p5->id, "p5.48xlarge");
    ck_assert_str_eq(p5->accelerator, "H100-SXM");
    ck_assert_int_eq(p5->accel_count, 8);
    ck_assert_double_eq(p5->spot_usd_h, 30.33);
    ck_assert(p5->source[0] != '\0');
    const Instance *mine = catalog_find_instance(&c, "my-box");
    ck_assert_ptr_nonnull(mine);
    ck_assert_int_eq(mine->provider, PROVIDER_OTHER);
    const Accelerator *g = catalog_find_accelerator(&c, "my-gpu");
    ck_assert_ptr_nonnull(g);
    ck_assert_double_eq(g->hbm_bytes, 64.0 * 1073741824.0);
    ck_assert_double_eq(c.costs.switch_price_usd, 1234);
    ck_assert(c.costs.link_price_usd > 0); /* the rest of costs stays */
    catalog_free(&c);
}
END_TEST

START_TEST(efficiency_applies_regardless_of_file_order)
{
    char dir[512];
    make_tmpdir(dir, sizeof dir);
    /* "a_" sorts before "b_": the efficiency entry is read first. */
    write_file(dir, "a_eff.yaml",
               "efficiency:\n"
               "  - accelerator: x1\n"
               "    gemm_eff: [[256, 0.4], [1024, 0.7], [4096, 0.8]]\n"
               "    elementwise_eff: 0.75\n"
               "    scaleup_eff: 0.8\n"
               "    scaleup_latency_s: 5e-6\n"
               "    source: fitted\n");
    write_file(dir, "b_acc.yaml", ACC_OK "    notes: row notes\n");
    Catalog c;
    Diag d;
    memset(&d, 0, sizeof d);
    char msg[1024];
    int rc = catalog_load(&c, dir, NULL, &d);
    ck_assert_msg(rc == 0, "%s", diag_format(&d, msg, sizeof msg));
    const Accelerator *a = catalog_find_accelerator(&c, "X1");
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(a->gemm_eff.n, 3);
    ck_assert_double_eq(a->gemm_eff.x[1], 1024);
    ck_assert_double_eq(a->gemm_eff.y[2], 0.8);
    ck_assert_double_eq(a->elementwise_eff, 0.75);
    ck_assert_double_eq(a->scaleup_eff, 0.8);
    ck_assert_double_eq(a->scaleup_latency_s, 5e-6);
    /* The efficiency entry's source documents the curve, not the row. */
    ck_assert_str_eq(a->source, "test");
    ck_assert_str_eq(a->notes, "row notes");
    catalog_free(&c);

    /* A user dir's efficiency entry overrides only the fields it gives. */
    char udir[512];
    make_tmpdir(udir, sizeof udir);
    write_file(udir, "e.yaml", "efficiency:\n  - accelerator: X1\n    scaleup_eff: 0.5\n");
    rc = catalog_load(&c, dir, udir, &d);
    rm_tree(udir);
    rm_tree(dir);
    ck_assert_msg(rc == 0, "%s", diag_format(&d, msg, sizeof msg));
    a = catalog_find_accelerator(&c, "X1");
    ck_assert_double_eq(a->scaleup_eff, 0.5);
    ck_assert_double_eq(a->elementwise_eff, 0.75);
    ck_assert_int_eq(a->gemm_eff.n, 3);
    catalog_free(&c);
}
END_TEST

START_TEST(catalog_load_text_adds_to_an_existing_catalog)
{
    Catalog c;
    Diag d;
    ck_assert_int_eq(load_text(&c, ACC_OK, &d), 0);
    const char *more = "instances:\n"
                       "  - {id: i1, provider: aws, accelerator: X1, accel_count: 2, source: s, "
                       "as_of: 2026-01}\n";
    ck_assert_int_eq(catalog_load_text(&c, more, strlen(more), "u.yaml", &d), 0);
    ck_assert_uint_eq(c.n_accelerators, 1);
    ck_assert_uint_eq(c.n_instances, 1);
    ck_assert_ptr_nonnull(catalog_find_instance(&c, "I1"));
    catalog_free(&c);
    catalog_free(&c); /* freeing twice is safe */
    assert_empty(&c);
}
END_TEST

START_TEST(empty_text_and_empty_sections_load_as_nothing)
{
    Catalog c;
    Diag d;
    ck_assert_int_eq(load_text(&c, "", &d), 0);
    ck_assert_int_eq(load_text(&c, "# only a comment\n", &d), 0);
    ck_assert_int_eq(load_text(&c, "accelerators:\ninstances: []\n", &d), 0);
    assert_empty(&c);
}
END_TEST

/* ---- errors ---------------------------------------------------------------- */

START_TEST(rejects_unknown_key_with_suggestion_and_position)
{
    EXPECT_ERR("accelerators:\n"
               "  - id: X1\n"
               "    hbm_gbb: 80\n",
               3, 5, "unknown key 'hbm_gbb' in accelerators entry 'X1' (did you mean 'hbm_gb'?)");
    EXPECT_ERR("accelerators:\n"
               "  - id: X1\n"
               "    peak_tflops: {bf17: 3}\n",
               3, 19, "did you mean 'bf16'");
    EXPECT_ERR("accelerator:\n  - id: X1\n", 1, 1, "did you mean 'accelerators'");
    EXPECT_ERR("instances:\n  - id: i\n    provider: awz\n", 3, 15, "did you mean 'aws'");
}
END_TEST

START_TEST(rejects_bad_numbers_and_ranges)
{
    EXPECT_ERR("accelerators:\n  - id: X1\n    hbm_gb: eighty\n", 3, 13,
               "'hbm_gb': expected a number, got 'eighty'");
    EXPECT_ERR("accelerators:\n  - id: X1\n    hbm_gb: 0x50\n", 3, 13, "expected a number");
    EXPECT_ERR("accelerators:\n  - id: X1\n    hbm_gb: nan\n", 3, 13, "expected a number");
    EXPECT_ERR("accelerators:\n  - id: X1\n    peak_tflops:\n      bf16: -989.4\n", 4, 13,
               "out of range");
    EXPECT_ERR("accelerators:\n  - id: X1\n    hbm_usable_frac: 1.5\n", 3, 22, "out of range");
    EXPECT_ERR("accelerators:\n  - id: X1\n    gpus_per_node: 2.5\n", 3, 20, "whole number");
    EXPECT_ERR("accelerators:\n  - id: X1\n    liquid_cooled: maybe\n", 3, 20, "true or false");
    EXPECT_ERR(ACC_OK "instances:\n"
                      "  - {id: i, provider: aws, accelerator: X1, accel_count: 0, source: s, "
                      "as_of: 2026-01}\n",
               8, 58, "'accel_count': 0 is out of range");
    EXPECT_ERR("accelerators:\n  - id: X1\n    as_of: 30/11/2026\n", 3, 12, "YYYY-MM-DD");
}
END_TEST

START_TEST(rejects_unknown_accelerator_in_instance)
{
    EXPECT_ERR(ACC_OK "instances:\n"
                      "  - id: i\n"
                      "    provider: aws\n"
                      "    accelerator: X2\n"
                      "    accel_count: 1\n"
                      "    source: s\n"
                      "    as_of: 2026-01\n",
               10, 18, "instance 'i': unknown accelerator 'X2' (did you mean 'X1'?)");
}
END_TEST

/* recompute_default: what a framework's recipes recompute when a workload
 * leaves recompute auto (framework_recompute); one of three words, never
 * selective on a profile that has no selective (full_recompute_only) */
START_TEST(recompute_default_names_a_recompute)
{
    EXPECT_ERR(ACC_OK "frameworks:\n"
                      "  - {id: ds, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.5,\n"
                      "     fp8_gemm_factor: 0.85, recompute_default: layers, source: t,\n"
                      "     as_of: 2026-12-06}\n",
               9, 48, "frameworks entry 'ds': recompute_default must be none, selective or "
                       "full, got 'layers'");
    EXPECT_ERR(ACC_OK "frameworks:\n"
                      "  - {id: ds, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.5,\n"
                      "     fp8_gemm_factor: 0.85, full_recompute_only: true,\n"
                      "     recompute_default: selective, source: t, as_of: 2026-12-06}\n",
               10, 25, "frameworks entry 'ds': recompute_default selective, but the profile "
                       "is full_recompute_only");
    ck_assert_int_eq(recompute_word("none"), 0);
    ck_assert_int_eq(recompute_word("Selective"), 1);
    ck_assert_int_eq(recompute_word("full"), 2);
    ck_assert_int_eq(recompute_word(""), -1);
    ck_assert_int_eq(recompute_word(NULL), -1);
    ck_assert_int_eq(recompute_word("auto"), -2);
    Catalog c;
    Diag d;
    ck_assert_int_eq(load_text(&c, ACC_OK "frameworks:\n"
                                          "  - {id: ds, gemm_scale: 1, tp_overlap: 0, "
                                          "dp_overlap: 0.5, fp8_gemm_factor: 0.85,\n"
                                          "     recompute_default: full, source: t, "
                                          "as_of: 2026-12-06}\n"
                                          "  - {id: megatron, gemm_scale: 1, tp_overlap: 0, "
                                          "dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
                                          "     source: t, as_of: 2026-12-06}\n",
                               &d),
                     0);
    ck_assert_int_eq(framework_recompute(&c, "DS"), 2);
    ck_assert_int_eq(framework_recompute(&c, ""), -1); /* megatron: searched */
    ck_assert_int_eq(framework_recompute(&c, "nosuch"), -1);
    ck_assert_int_eq(framework_recompute(NULL, "ds"), -1);
    catalog_free(&c);
}
END_TEST

/* dp_sharding: what a framework shards over data parallel by default
 * (framework_zero, a workload's zero auto) and on a pipelined layout; one of
 * five words */
START_TEST(dp_sharding_names_a_zero_stage)
{
    EXPECT_ERR(ACC_OK "frameworks:\n"
                      "  - {id: lm, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8,\n"
                      "     fp8_gemm_factor: 0.85, dp_sharding: fully, source: t,\n"
                      "     as_of: 2026-12-05}\n",
               9, 42, "frameworks entry 'lm': dp_sharding must be none, optimizer, gradients, "
                       "full or fsdp, got 'fully'");
    static const char *const words[] = {"none", "optimizer", "gradients", "full"};
    for (int z = 0; z < 4; z++) {
        int pp = -1;
        ck_assert_int_eq(dp_sharding_zero(words[z], &pp), z);
        ck_assert_int_eq(pp, z); /* the same on a pipelined layout */
    }
    int pp = -1;
    ck_assert_int_eq(dp_sharding_zero("FSDP", &pp), 3); /* FSDP's FULL_SHARD, */
    ck_assert_int_eq(pp, 2);                            /* gathered when pipelined */
    ck_assert_int_eq(dp_sharding_zero("full", NULL), 3);
    ck_assert_int_eq(dp_sharding_zero("", NULL), -1);
    ck_assert_int_eq(dp_sharding_zero(NULL, NULL), -1);
    Catalog c;
    Diag d;
    ck_assert_int_eq(load_text(&c, ACC_OK "frameworks:\n"
                                          "  - {id: lm, gemm_scale: 1, tp_overlap: 0, "
                                          "dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
                                          "     dp_sharding: none, source: t, as_of: 2026-12-05}\n"
                                          "  - {id: megatron, gemm_scale: 1, tp_overlap: 0, "
                                          "dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
                                          "     source: t, as_of: 2026-12-05}\n",
                               &d),
                     0);
    ck_assert_int_eq(framework_zero(&c, "LM", &pp), 0); /* stated: ZeRO-0 */
    ck_assert_int_eq(pp, 0);
    ck_assert_int_eq(framework_zero(&c, "", &pp), 1);   /* megatron, stating none */
    ck_assert_int_eq(pp, 1);
    ck_assert_int_eq(framework_zero(&c, "nosuch", NULL), 1);
    ck_assert_int_eq(framework_zero(NULL, "lm", NULL), 1);
    catalog_free(&c);
}
END_TEST

/* dp_sharding_fallback: what a framework can shard instead where nothing
 * fits with dp_sharding (framework_zero_fallback), the same five words; a
 * stage no higher than the default's is no fallback. */
START_TEST(dp_sharding_fallback_names_a_stage_above_the_default)
{
    EXPECT_ERR(ACC_OK "frameworks:\n"
                      "  - {id: lm, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8,\n"
                      "     fp8_gemm_factor: 0.85, dp_sharding_fallback: zero3,\n"
                      "     source: t, as_of: 2026-12-06}\n",
               9, 51, "frameworks entry 'lm': dp_sharding_fallback must be none, optimizer, "
                       "gradients, full or fsdp, got 'zero3'");
    Catalog c;
    Diag d;
    ck_assert_int_eq(load_text(&c, ACC_OK "frameworks:\n"
                                          "  - {id: lm, gemm_scale: 1, tp_overlap: 0, "
                                          "dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
                                          "     dp_sharding_fallback: full, source: t, "
                                          "as_of: 2026-12-06}\n"
                                          "  - {id: fs, gemm_scale: 1, tp_overlap: 0, "
                                          "dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
                                          "     dp_sharding: full, dp_sharding_fallback: "
                                          "gradients, source: t, as_of: 2026-12-06}\n"
                                          "  - {id: megatron, gemm_scale: 1, tp_overlap: 0, "
                                          "dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
                                          "     source: t, as_of: 2026-12-06}\n",
                               &d),
                     0);
    ck_assert_int_eq(framework_zero_fallback(&c, "LM"), 3);
    ck_assert_int_eq(framework_zero_fallback(&c, "fs"), -1); /* below its ZeRO-3 */
    ck_assert_int_eq(framework_zero_fallback(&c, ""), -1);   /* megatron, stating none */
    ck_assert_int_eq(framework_zero_fallback(&c, "nosuch"), -1);
    catalog_free(&c);
    /* the shipped profiles: Megatron FSDP and DeepSpeed ZeRO-3 */
    load_shipped(&c);
    ck_assert_int_eq(framework_zero_fallback(&c, "nemo"), 3);
    ck_assert_int_eq(framework_zero_fallback(&c, "megatron"), 3);
    ck_assert_int_eq(framework_zero_fallback(&c, "deepspeed"), 3);
    ck_assert_int_eq(framework_zero_fallback(&c, "fsdp"), -1);
    catalog_free(&c);
}
END_TEST

/* aliases: other names of a part, found as its id is (case-insensitively,
 * an id first); each names one part only. */
START_TEST(accelerator_aliases_name_one_part)
{
#define ACC_X2(extra)                                                                   \
    ACC_OK "    aliases: Ironwood TPU-v7\n"                                          \
           "  - id: X2\n"                                                          \
           "    hbm_gb: 80\n"                                                      \
           "    peak_tflops: {bf16: 100}\n"                                        \
           "    source: test\n"                                                    \
           "    as_of: 2026-11-30\n" extra
    Catalog c;
    Diag d;
    ck_assert_int_eq(load_text(&c, ACC_X2(""), &d), 0);
    const Accelerator *x1 = catalog_find_accelerator(&c, "X1");
    ck_assert_ptr_nonnull(x1);
    ck_assert_ptr_eq(catalog_find_accelerator(&c, "ironwood"), x1);
    ck_assert_ptr_eq(catalog_find_accelerator(&c, "TPU-V7"), x1);
    ck_assert_ptr_eq(catalog_find_accelerator_alias(&c, "tpu-v7"), x1);
    ck_assert_ptr_null(catalog_find_accelerator_alias(&c, "X1")); /* ids are not aliases */
    ck_assert_ptr_null(catalog_find_accelerator(&c, "TPU-v"));     /* whole names only */
    ck_assert_ptr_null(catalog_find_accelerator(&c, "Ironwood TPU-v7"));
    catalog_free(&c);
    /* an alias that is an id, its own or another part's */
    EXPECT_ERR(ACC_X2("    aliases: x1\n"), 13, 14,
               "accelerator 'X2': alias 'x1' is the id of another accelerator");
    EXPECT_ERR(ACC_OK "    aliases: X1\n", 7, 14,
               "accelerator 'X1': alias 'X1' is the id of this accelerator");
    /* one alias, two parts */
    EXPECT_ERR(ACC_X2("    aliases: Trillium ironwood\n"), 13, 14,
               "accelerator 'X2': alias 'ironwood' already names accelerator 'X1'");
    /* a new part whose id another already goes by */
    EXPECT_ERR(ACC_X2("  - id: Ironwood\n"
                      "    hbm_gb: 80\n"
                      "    peak_tflops: {bf16: 100}\n"
                      "    source: test\n"
                      "    as_of: 2026-11-30\n"),
               13, 9, "accelerator 'Ironwood': that name is an alias of accelerator 'X1'");
    EXPECT_ERR(ACC_OK "    aliases: TPU/v7\n", 7, 14,
               "accelerator 'X1': alias 'TPU/v7' is not a valid id");
#undef ACC_X2
    /* the shipped names of Google's parts */
    load_shipped(&c);
    ck_assert_str_eq(catalog_find_accelerator(&c, "ironwood")->id, "TPU7x");
    ck_assert_str_eq(catalog_find_accelerator(&c, "TPU-v7x")->id, "TPU7x");
    ck_assert_str_eq(catalog_find_accelerator(&c, "Trillium")->id, "TPU-v6e");
    catalog_free(&c);
}
END_TEST

/* node_label: one Kubernetes label, key=value, the one the Kueue export's
 * flavour selects on (GKE's on the shipped TPUs) */
START_TEST(node_label_is_one_kubernetes_label)
{
    EXPECT_ERR(ACC_OK "    node_label: gke-tpu-accelerator\n", 7, 17,
               "accelerator 'X1': node_label must be one Kubernetes label, key=value");
    EXPECT_ERR(ACC_OK "    node_label: a=b=c\n", 7, 17, "got 'a=b=c'");
    EXPECT_ERR(ACC_OK "    node_label: \"a b=c\"\n", 7, 17, "got 'a b=c'");
    EXPECT_ERR(ACC_OK "    node_label: a=\n", 7, 17, "got 'a='");
    Catalog c;
    Diag d;
    ck_assert_int_eq(load_text(&c, ACC_OK "    node_label: example.com/part=x1\n", &d), 0);
    ck_assert_str_eq(catalog_find_accelerator(&c, "X1")->node_label, "example.com/part=x1");
    catalog_free(&c);
    load_shipped(&c);
    ck_assert_str_eq(catalog_find_accelerator(&c, "TPU7x")->node_label,
                     "cloud.google.com/gke-tpu-accelerator=tpu7x");
    ck_assert_str_eq(catalog_find_accelerator(&c, "TPU-v6e")->node_label,
                     "cloud.google.com/gke-tpu-accelerator=tpu-v6e-slice");
    ck_assert_str_eq(catalog_find_accelerator(&c, "H100-SXM")->node_label, "");
    catalog_free(&c);
}
END_TEST

/* curves_calibrated_on: the parts a base profile's curves were calibrated
 * on (framework_calibrated_on); each must be a catalog accelerator */
START_TEST(curves_calibrated_on_names_known_accelerators)
{
    EXPECT_ERR(ACC_OK "frameworks:\n"
                      "  - {id: lm, gemm_scale: 1, tp_overlap: 0, dp_overlap: 0.8,\n"
                      "     fp8_gemm_factor: 0.85, curves_calibrated_on: \"X1 X2\", source: t,\n"
                      "     as_of: 2026-12-05}\n",
               9, 51, "framework 'lm': curves_calibrated_on names unknown accelerator 'X2' "
                       "(did you mean 'X1'?)");
    Catalog c;
    Diag d;
    ck_assert_int_eq(load_text(&c, ACC_OK "frameworks:\n"
                                          "  - {id: lm, gemm_scale: 1, tp_overlap: 0, "
                                          "dp_overlap: 0.8, fp8_gemm_factor: 0.85,\n"
                                          "     curves_calibrated_on: \" x1 \", source: t,\n"
                                          "     as_of: 2026-12-05}\n",
                               &d),
                     0);
    const Framework *f = catalog_find_framework(&c, "lm");
    ck_assert_ptr_nonnull(f);
    ck_assert(framework_calibrated_on(f, catalog_find_accelerator(&c, "X1")));
    Accelerator other = {.id = "X10"};
    ck_assert(!framework_calibrated_on(f, &other));
    catalog_free(&c);
}
END_TEST

START_TEST(rejects_efficiency_for_unknown_accelerator)
{
    EXPECT_ERR(ACC_OK "efficiency:\n  - accelerator: H999\n    elementwise_eff: 0.7\n", 8, 18,
               "efficiency entry for unknown accelerator 'H999'");
    EXPECT_ERR("efficiency:\n  - elementwise_eff: 0.7\n", 2, 5, "has no 'accelerator'");
}
END_TEST

START_TEST(rejects_curves_that_do_not_increase)
{
    EXPECT_ERR(ACC_OK "efficiency:\n"
                      "  - accelerator: X1\n"
                      "    gemm_eff: [[256, 0.4], [1024, 0.7], [1024, 0.8]]\n",
               9, 41, "x must increase (1024 after 1024)");
    EXPECT_ERR(ACC_OK "efficiency:\n"
                      "  - accelerator: X1\n"
                      "    gemm_eff: [[256, 0.4], [128, 0.7]]\n",
               9, 28, "x must increase");
    EXPECT_ERR(ACC_OK "efficiency:\n  - accelerator: X1\n    gemm_eff: [[256, 1.4]]\n", 9, 16,
               "within [0, 1]");
    EXPECT_ERR(ACC_OK "efficiency:\n  - accelerator: X1\n    gemm_eff: [[256]]\n", 9, 16,
               "each point must be [x, y]");
    EXPECT_ERR(ACC_OK "efficiency:\n"
                      "  - accelerator: X1\n"
                      "    gemm_eff: [[1,0.1],[2,0.1],[3,0.1],[4,0.1],[5,0.1],[6,0.1],[7,0.1],"
                      "[8,0.1],[9,0.1]]\n",
               9, 80, "more than 8 points");
}
END_TEST

START_TEST(rejects_structural_mistakes)
{
    /* duplicate id in one file */
    EXPECT_ERR(ACC_OK "  - id: x1\n    hbm_gb: 1\n    source: s\n    as_of: 2026-01\n", 7, 9,
               "id 'x1' already defined in this file at line 2");
    /* a new row without its provenance */
    EXPECT_ERR("accelerators:\n  - id: X1\n    hbm_gb: 80\n    as_of: 2026-11\n", 2, 5,
               "new accelerators entry 'X1' is missing 'source'");
    EXPECT_ERR("accelerators:\n  - id: X1\n    source: s\n    as_of: 2026-11\n", 2, 5,
               "missing 'hbm_gb' or 'hbm_gib'");
    /* two spellings of one quantity */
    EXPECT_ERR("accelerators:\n  - id: X1\n    hbm_gb: 80\n    hbm_gib: 64\n", 4, 5,
               "'hbm_gib' given twice");
    EXPECT_ERR("accelerators:\n  - hbm_gb: 80\n", 2, 5, "accelerators entry has no 'id'");
    EXPECT_ERR("accelerators:\n  - id: 'bad id'\n", 2, 9, "not a valid id");
    EXPECT_ERR("accelerators: {id: X1}\n", 1, 15, "expected a list of entries");
    EXPECT_ERR("- 1\n- 2\n", 1, 1, "must be a mapping of sections");
    EXPECT_ERR("accelerators:\n  - id: X1\n    mig:\n      - {name: 9g.10gb, count: 1, mem_gb: 10}\n",
               4, 9, "MIG profile name '9g.10gb'");
    EXPECT_ERR("accelerators:\n  - id: X1\n    mig:\n      - {name: 1g.10gb, count: 7, mem_gb: 20}\n",
               4, 9, "does not match the name");
    EXPECT_ERR("accelerators:\n  - id: X1\n    mig:\n      - {name: 1g.10gb, count: 7}\n", 4, 9,
               "missing 'mem_gb'");
    /* text that does not fit its field is an error, never truncated */
    char big[1200];
    snprintf(big, sizeof big, "accelerators:\n  - id: X1\n    vendor: %s\n",
             "abcdefghijabcdefghijabcdefghij");
    EXPECT_ERR(big, 3, 13, "longer than 23 characters");
    EXPECT_ERR("accelerators:\n  - id: X1\n    hbm_gb: [80\n", 4, 1, "YAML syntax error");
    EXPECT_ERR("accelerators:\n  - id: X1\n    vendor: caf\xe9\n", 3, 16,
               "invalid text: incomplete UTF-8 octet sequence");
    EXPECT_ERR(ACC_OK "---\n" ACC_OK, 8, 1, "found a second one");
}
END_TEST

START_TEST(rejects_more_entries_than_the_cap)
{
    /* 10,001 efficiency entries: the 10,001st (line 10,002) is refused. */
    const char *head = "efficiency:\n";
    const char *row = "  - {accelerator: X1}\n";
    size_t n = 10001, len = strlen(head) + n * strlen(row) + 1;
    char *text = malloc(len);
    ck_assert_ptr_nonnull(text);
    strcpy(text, head);
    char *p = text + strlen(head);
    for (size_t i = 0; i < n; i++, p += strlen(row))
        memcpy(p, row, strlen(row) + 1);
    Catalog c;
    Diag d;
    int rc = load_text(&c, text, &d);
    free(text);
    ck_assert_int_eq(rc, -1);
    assert_empty(&c);
    ck_assert_int_eq(d.line, 10002);
    ck_assert_ptr_nonnull(strstr(d.msg, "more than 10000 entries"));
}
END_TEST

/* Text nested `depth` flow mappings deep under key `top`, heap-allocated. */
static char *nested_flow(const char *top, int depth)
{
    size_t len = strlen(top) + (size_t)depth * 5 + 8;
    char *t = malloc(len), *p = t;
    ck_assert_ptr_nonnull(t);
    p += sprintf(p, "%s: ", top);
    for (int i = 0; i < depth; i++)
        p += sprintf(p, "{a: ");
    *p++ = '1';
    for (int i = 0; i < depth; i++)
        *p++ = '}';
    strcpy(p, "\n");
    return t;
}

/* libyaml scans nested flow collections in time quadratic in the depth:
 * the nesting is refused before the document is loaded. */
START_TEST(rejects_nesting_deeper_than_32_levels_at_its_position)
{
    char *text = nested_flow("accelerators", 2000);
    Catalog c;
    Diag d;
    int rc = load_text(&c, text, &d);
    free(text);
    ck_assert_int_eq(rc, -1);
    assert_empty(&c);
    ck_assert_int_eq(d.line, 1);
    ck_assert_int_eq(d.col, 15 + 4 * 31); /* the 33rd level, the 32nd `{` */
    ck_assert_str_eq(d.msg, "nested more than 32 levels deep");
}
END_TEST

START_TEST(missing_directory_or_file_is_an_error_and_leaves_catalog_empty)
{
    Catalog c;
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(catalog_load(&c, "/nonexistent/gpuplan/catalog", NULL, &d), -1);
    assert_empty(&c);
    ck_assert_str_eq(d.file, "/nonexistent/gpuplan/catalog");
    ck_assert_ptr_nonnull(strstr(d.msg, "cannot open catalog directory"));

    /* the shipped dir loads, but a missing user dir fails the whole load */
    ck_assert_int_eq(catalog_load(&c, catalog_dir(), "/nonexistent/user", &d), -1);
    assert_empty(&c);

    /* a directory with no catalog files */
    char dir[512];
    make_tmpdir(dir, sizeof dir);
    write_file(dir, "README", "not yaml\n");
    ck_assert_int_eq(catalog_load(&c, dir, NULL, &d), -1);
    assert_empty(&c);
    ck_assert_ptr_nonnull(strstr(d.msg, "no *.yaml catalog files"));

    /* an error in a later file names that file and empties everything */
    write_file(dir, "a.yaml", ACC_OK);
    write_file(dir, "b.yaml", "accelerators:\n  - id: X1\n    tdp_w: -1\n");
    ck_assert_int_eq(catalog_load(&c, dir, NULL, &d), -1);
    assert_empty(&c);
    ck_assert_ptr_nonnull(strstr(d.file, "/b.yaml"));
    ck_assert_int_eq(d.line, 3);
    ck_assert_int_eq(d.col, 12);
    rm_tree(dir);

    ck_assert_int_eq(catalog_load(&c, NULL, NULL, &d), -1);
    assert_empty(&c);
}
END_TEST

/* ---- data dir ------------------------------------------------------------ */

/* Restore an environment variable to a saved value (or unset it). */
static void restore_env(const char *name, const char *saved)
{
    if (saved)
        setenv(name, saved, 1);
    else
        unsetenv(name);
}

START_TEST(datadir_prefers_env_then_finds_a_tree_with_a_catalog)
{
    char *saved = getenv("GPUPLAN_DATADIR") ? strdup(getenv("GPUPLAN_DATADIR")) : NULL;
    setenv("GPUPLAN_DATADIR", "/some/where", 1);
    ck_assert_str_eq(datadir_get(), "/some/where");
    /* Unset: the build tree next to this test binary or the source tree,
     * either way a directory holding the shipped catalog. */
    unsetenv("GPUPLAN_DATADIR");
    const char *dd = datadir_get();
    char cat[4096];
    snprintf(cat, sizeof cat, "%s/catalog/accelerators.yaml", dd);
    ck_assert_msg(access(cat, R_OK) == 0, "no catalog under %s", dd);
    restore_env("GPUPLAN_DATADIR", saved);
    free(saved);

    char *saved_t = getenv("GPUPLAN_THEMES") ? strdup(getenv("GPUPLAN_THEMES")) : NULL;
    setenv("GPUPLAN_THEMES", "/my/themes", 1);
    ck_assert_str_eq(datadir_themes(), "/my/themes");
    unsetenv("GPUPLAN_THEMES");
    ck_assert_ptr_nonnull(strstr(datadir_themes(), "themes"));
    restore_env("GPUPLAN_THEMES", saved_t);
    free(saved_t);
}
END_TEST

START_TEST(default_db_follows_xdg_then_home_and_creates_the_directory)
{
    char *sx = getenv("XDG_DATA_HOME") ? strdup(getenv("XDG_DATA_HOME")) : NULL;
    char *sh = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    char tmp[512], want[1024], path[1024];
    make_tmpdir(tmp, sizeof tmp);

    setenv("XDG_DATA_HOME", tmp, 1);
    ck_assert_int_eq(datadir_default_db(path, sizeof path), 0);
    snprintf(want, sizeof want, "%s/gpuplan/plans.db", tmp);
    ck_assert_str_eq(path, want);
    snprintf(want, sizeof want, "%s/gpuplan", tmp);
    struct stat st;
    ck_assert_int_eq(stat(want, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));

    /* a relative XDG_DATA_HOME is ignored (XDG base directory spec) */
    setenv("XDG_DATA_HOME", "relative/dir", 1);
    setenv("HOME", tmp, 1);
    ck_assert_int_eq(datadir_default_db(path, sizeof path), 0);
    snprintf(want, sizeof want, "%s/.local/share/gpuplan/plans.db", tmp);
    ck_assert_str_eq(path, want);

    unsetenv("XDG_DATA_HOME");
    unsetenv("HOME");
    ck_assert_int_eq(datadir_default_db(path, sizeof path), -1);
    setenv("HOME", tmp, 1);
    ck_assert_int_eq(datadir_default_db(path, 8), -1); /* does not fit */

    rm_tree(tmp);
    restore_env("XDG_DATA_HOME", sx);
    restore_env("HOME", sh);
    free(sx);
    free(sh);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("catalog");
    TCase *t = tcase_create("shipped");
    tcase_add_test(t, shipped_h100_sxm_figures_match_the_datasheet);
    tcase_add_test(t, shipped_h100_nvl_and_pcie_figures_match_the_datasheet);
    tcase_add_test(t, shipped_accelerators_all_have_bandwidth_and_bf16_peak);
    tcase_add_test(t, shipped_b200_has_180_gb_and_gb200_a_72_gpu_domain);
    tcase_add_test(t, shipped_b300_and_gb300_are_blackwell_ultra);
    tcase_add_test(t, shipped_has_every_plan_format_accelerator_id);
    tcase_add_test(t, shipped_mi325x_has_the_mi300x_infinity_fabric);
    tcase_add_test(t, shipped_nd96isr_h100_v5_has_8_gpus);
    tcase_add_test(t, shipped_instances_name_existing_accelerators);
    tcase_add_test(t, shipped_rows_all_carry_source_and_as_of);
    suite_add_tcase(s, t);
    t = tcase_create("overrides");
    tcase_add_test(t, user_dir_overrides_field_by_field_and_adds_rows);
    tcase_add_test(t, framework_calibration_is_borrowed_only_from_the_same_silicon);
    tcase_add_test(t, calibration_from_derives_the_missing_accelerator_rows);
    tcase_add_test(t, deriving_again_gives_back_the_loaders_rows);
    tcase_add_test(t, efficiency_applies_regardless_of_file_order);
    tcase_add_test(t, catalog_load_text_adds_to_an_existing_catalog);
    tcase_add_test(t, rejects_nesting_deeper_than_32_levels_at_its_position);
    tcase_add_test(t, empty_text_and_empty_sections_load_as_nothing);
    suite_add_tcase(s, t);
    t = tcase_create("errors");
    tcase_add_test(t, rejects_unknown_key_with_suggestion_and_position);
    tcase_add_test(t, rejects_bad_numbers_and_ranges);
    tcase_add_test(t, rejects_unknown_accelerator_in_instance);
    tcase_add_test(t, rejects_efficiency_for_unknown_accelerator);
    tcase_add_test(t, curves_calibrated_on_names_known_accelerators);
    tcase_add_test(t, accelerator_aliases_name_one_part);
    tcase_add_test(t, node_label_is_one_kubernetes_label);
    tcase_add_test(t, dp_sharding_names_a_zero_stage);
    tcase_add_test(t, recompute_default_names_a_recompute);
    tcase_add_test(t, dp_sharding_fallback_names_a_stage_above_the_default);
    tcase_add_test(t, rejects_curves_that_do_not_increase);
    tcase_add_test(t, rejects_structural_mistakes);
    tcase_add_test(t, rejects_more_entries_than_the_cap);
    tcase_add_test(t, missing_directory_or_file_is_an_error_and_leaves_catalog_empty);
    suite_add_tcase(s, t);
    t = tcase_create("datadir");
    tcase_add_test(t, datadir_prefers_env_then_finds_a_tree_with_a_catalog);
    tcase_add_test(t, default_db_follows_xdg_then_home_and_creates_the_directory);
    suite_add_tcase(s, t);
    return s;
}
