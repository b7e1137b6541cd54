/* cli/cmd_calibrate.c — `gpuplan calibrate RUNS.yaml… [-o DIR] [--half H] [--bands]
 * [--bands-all]`.
 *
 * RUNS.yaml are plan files whose training workloads carry a measured step
 * time (measured_step or measured_tokens_per_gpu) for exactly the layout
 * they give.  For every accelerator × framework among them, the profile's
 * efficiency parameters are fitted by least squares (model/calib.c); the
 * command prints each run's error before and after, and with -o writes
 * DIR/calibrated.yaml: `frameworks:` rows "<framework>@<accelerator>" that
 * `--catalog DIR` (and the dashboard started with it) load over the
 * shipped catalog, so every later plan on that accelerator and framework
 * uses them and says "calibrated on N of your runs, residual R %".
 * --half fit|held-out restricts the fit (and the bands) to that half of the
 * validation split (calib_split); --bands also writes `error_bands:` rows
 * from the residuals after the fit, per class, and "uncalibrated/<class>"
 * rows from the runs predicted as a plan whose framework has no
 * calibration on its accelerator would be (calib_predict_uncalibrated;
 * printed as "without calibration:"); --bands-all takes those
 * residuals from every run given, both halves (a band states the model's
 * measured error on all published runs of its class; it changes no
 * prediction, so the held-out step-time error stays a held-out figure).
 * --cross-validate also predicts every run of the split with a fit that did
 * not see it — each half by the fit on the other half — prints that error
 * per run and overall, writes it with each profile
 * (cross_validated_residual) and, with --bands, lets each run's band entry
 * span both its errors, as fitted and as left out. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "calib.h"
#include "cli.h"
#include "sensitivity.h"
#include "strbuf.h"

#define MAX_FILES 64
#define MAX_RUNS 1024
#define MAX_FITS 64
#define GIB (1024.0 * 1024.0 * 1024.0)
/* A band never claims more certainty than this (a class with one or two
 * runs says little about the next one). */
#define BAND_FLOOR 0.02
#define BAND_PAD 0.01
/* Classes with fewer runs get at least the range of all runs. */
#define BAND_MIN_RUNS 3

static const char *usage_text =
    "usage: gpuplan calibrate RUNS.yaml... [-o DIR] [--half fit|held-out|all] [--bands] "
    "[--bands-all] [--bands-from RUNS.yaml]... [--label TEXT] [--cross-validate]";

static void today(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(buf, n, "%Y-%m-%d", &tm);
    else
        snprintf(buf, n, "2026-01-01");
}

/* Room for the runs files' names in a profile's or a band's source (its
 * CAT_TEXT_LEN holds this beside the rest of the sentence; put_framework's
 * %.150s keeps to it too). */
#define SRC_NAMES_LEN 150

/* The base names of the runs files whose `use` flag is set, as many as fit
 * in out (a catalog source, CAT_TEXT_LEN), the rest counted, never cut
 * mid-name. */
static void list_files(char *out, size_t len, const char *const *files, const bool *use, int nf)
{
    out[0] = '\0';
    int listed = 0, total = 0;
    for (int i = 0; i < nf; i++) {
        if (!use[i])
            continue;
        total++;
        const char *base = strrchr(files[i], '/');
        base = base ? base + 1 : files[i];
        size_t used = strlen(out);
        if (listed == total - 1 && used + strlen(base) + 2 + 20 < len) {
            snprintf(out + used, len - used, "%s%s", listed ? ", " : "", base);
            listed++;
        }
    }
    if (listed < total) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, " and %d more", total - listed);
    }
}

static void put_framework(StrBuf *b, const Framework *f, const char *date, const char *files,
                          const char *label)
{
    sb_printf(b, "  - id: ");
    sb_yaml(b, f->id);
    sb_printf(b, "\n    name: ");
    sb_yaml(b, f->name[0] ? f->name : f->id);
    sb_printf(b, "\n    gemm_scale: %.4f\n    tp_overlap: %.3f\n    dp_overlap: %.3f\n"
                 "    ep_overlap: %.3f\n    fp8_gemm_factor: %.4f\n    layer_overhead_us: %.1f\n"
                 "    step_overhead_ms: %.2f\n"
                 "    moe_overhead: %.3f\n    moe_layer_overhead_us: %.1f\n"
                 "    moe_expert_overhead_us: %.2f\n    moe_attn_launch_us: %.1f\n"
                 "    moe_graph_residual: %.3f\n",
              f->gemm_scale, f->tp_overlap, f->dp_overlap, f->ep_overlap, f->fp8_gemm_factor,
              f->layer_overhead_s * 1e6, f->step_overhead_s * 1e3, f->moe_overhead,
              f->moe_layer_overhead_s * 1e6, f->moe_expert_overhead_s * 1e6,
              f->moe_attn_launch_s * 1e6, f->moe_graph_residual);
    if (f->logits_bytes > 0)
        sb_printf(b, "    logits_bytes: %g\n", f->logits_bytes);
    /* the profile's switches, written when on (the catalog's default is off) */
    static const struct {
        const char *key;
        size_t off;
    } switches[] = {
        {"moe_fused_dispatch", offsetof(Framework, moe_fused_dispatch)},
        {"whole_program_buffers", offsetof(Framework, whole_program_buffers)},
        {"remat_dce", offsetof(Framework, remat_dce)},
        {"selective_reruns_attention", offsetof(Framework, selective_reruns_attention)},
        {"full_recompute_only", offsetof(Framework, full_recompute_only)},
        {"fp8_param_gather", offsetof(Framework, fp8_param_gather)},
        {"unfused_glu_clamp", offsetof(Framework, unfused_glu_clamp)},
        {"unfused_expert_bias", offsetof(Framework, unfused_expert_bias)},
        {"unfused_yarn_rope", offsetof(Framework, unfused_yarn_rope)},
        {"fp8_tp_gather", offsetof(Framework, fp8_tp_gather)},
        {"fp8_dispatch", offsetof(Framework, fp8_dispatch)},
        {"fp8_saved_inputs", offsetof(Framework, fp8_saved_inputs)},
        {"fp8_saved_expert_inputs", offsetof(Framework, fp8_saved_expert_inputs)},
        {"cudnn_attention", offsetof(Framework, cudnn_attention)},
        {"unit_collectives", offsetof(Framework, unit_collectives)},
        {"pp_fsdp_unsharded", offsetof(Framework, pp_fsdp_unsharded)},
        {"tp_overlap_forward_only", offsetof(Framework, tp_overlap_forward_only)},
        {"cp_torch_ring", offsetof(Framework, cp_torch_ring)},
        {"eager_rope", offsetof(Framework, eager_rope)},
        {"eager_glu", offsetof(Framework, eager_glu)},
        {"attn_repeat_kv", offsetof(Framework, attn_repeat_kv)},
        {"grad_reduce_fp32", offsetof(Framework, grad_reduce_fp32)},
        {"eager_loss", offsetof(Framework, eager_loss)},
        {"activation_offload", offsetof(Framework, activation_offload)},
        {"fp4_tp_exposed", offsetof(Framework, fp4_tp_exposed)},
    };
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++)
        if (*(const bool *)((const char *)f + switches[i].off))
            sb_printf(b, "    %s: true\n", switches[i].key);
    sb_printf(b, "    step_scale: %.4f\n    calibrated_runs: %d\n    calibrated_residual: %.4f\n",
              f->step_scale > 0 ? f->step_scale : 1.0, f->calibrated_runs, f->calibrated_residual);
    /* The row states its whole calibration, these two keys even when they
     * say nothing: a catalog loaded over another overrides field by field
     * (plans/catalog_yaml.c), so a key left out would keep what the other's
     * row of the same id says — the shipped calibration's label or its
     * cross-validated residual on a user's own fit. */
    sb_printf(b, "    cross_validated_residual: %.4f\n", f->cv_residual);
    sb_printf(b, "    calibrated_on: "); /* what the runs were, said with the calibration */
    sb_yaml(b, label && *label ? label : "");
    sb_printf(b, "\n");
    char src[CAT_TEXT_LEN];
    if (strchr(f->id, '@'))
        snprintf(src, sizeof src, "gpuplan calibrate: least squares on %d measured runs (%.150s)",
                 f->calibrated_runs, files);
    else
        snprintf(src, sizeof src, "gpuplan calibrate: MoE host costs by least squares on "
                 "the MoE runs of %.150s", files);
    sb_printf(b, "    source: ");
    sb_yaml(b, src);
    sb_printf(b, "\n    as_of: \"%s\"\n\n", date);
}

/* fits[] holds each fitted profile once: f replaces the entry with its id
 * (a per-step fit includes that framework's MoE fit) or is appended. */
static void keep_fit(Framework *fits, int *nfit, const Framework *f)
{
    for (int k = 0; k < *nfit; k++)
        if (strcasecmp(fits[k].id, f->id) == 0) {
            fits[k] = *f;
            return;
        }
    fits[(*nfit)++] = *f;
}

/* Whether selected run i is the first selected run of its framework (and,
 * by_acc, of its accelerator): each fit runs once per such group. */
static bool first_of_its_kind(const CalibRun *sel, const CalibRun *runs, int i, bool by_acc)
{
    if (sel[i].held_out)
        return false;
    for (int k = 0; k < i; k++)
        if (!sel[k].held_out && strcasecmp(runs[k].framework, runs[i].framework) == 0 &&
            (!by_acc || strcasecmp(runs[k].acc->id, runs[i].acc->id) == 0))
            return false;
    return true;
}

/* Per framework among the selected runs, its fixed cost per step and its
 * pooled FP8 factor over the runs of every accelerator (calib_fit_step),
 * installed in cal. */
static void fit_step_costs(const CalibRun *sel, const CalibRun *runs, int n, Catalog *cal,
                           Framework *calfw, Framework *fits, int *nfit)
{
    for (int i = 0; i < n && *nfit < MAX_FITS; i++) {
        if (!first_of_its_kind(sel, runs, i, false))
            continue;
        Framework f;
        int share = 0;
        if (calib_fit_step(sel, n, cal, runs[i].framework, true, &f, &share) > 0) {
            calib_install_profile(calfw, cal->n_frameworks, &f, share);
            keep_fit(fits, nfit, &f);
        }
    }
}

/* One fit per accelerator × framework among the selected runs (calib_fit):
 * its "<fw>@<accelerator>" row in cal is replaced or added. */
static void fit_accelerators(const CalibRun *sel, const CalibRun *runs, int n, Catalog *cal,
                             Framework *calfw, Framework *fits, int *nfit)
{
    for (int i = 0; i < n && *nfit < MAX_FITS; i++) {
        if (!first_of_its_kind(sel, runs, i, true))
            continue;
        Framework f;
        if (calib_fit(sel, n, cal, runs[i].framework, runs[i].acc->id, true, &f) > 0) {
            size_t at = cal->n_frameworks;
            for (size_t j = 0; j < cal->n_frameworks; j++)
                if (strcasecmp(calfw[j].id, f.id) == 0)
                    at = j;
            calfw[at] = f;
            if (at == cal->n_frameworks)
                cal->n_frameworks++;
            fits[(*nfit)++] = f;
        }
    }
}

/* The rows a working catalog's frameworks array has room for, from the
 * ncf base ones: those, the fits, and the rows calibration_from derives —
 * one per profile naming a source and accelerator of a calibrated row. */
static size_t work_room(const Framework *base, size_t ncf)
{
    size_t nfrom = 0;
    for (size_t i = 0; i < ncf; i++)
        nfrom += base[i].calibration_from[0] != '\0';
    return (ncf + MAX_FITS + 1) * (1 + nfrom);
}

/* Room for one more row in a working catalog's array (ctx: its room). */
static Framework *work_grow(Catalog *c, void *ctx)
{
    return c->n_frameworks < *(const size_t *)ctx ? &c->frameworks[c->n_frameworks++] : NULL;
}

/* Steps 1-3 of the calibration on the working catalog, from the base
 * frameworks (ncf of them, calfw work_room's size) each time: the MoE host
 * costs, then the per-step cost and the accelerator fits, alternating
 * twice; then the rows calibration_from derives from the fitted ones, as
 * the catalog the fits are written to would derive them.  Returns the
 * fits. */
static int calibrate_once(const CalibRun *sel, const CalibRun *runs, int n, Catalog *cal,
                          Framework *calfw, const Framework *base, size_t ncf, Framework *fits)
{
    if (ncf)
        memcpy(calfw, base, ncf * sizeof *calfw);
    cal->frameworks = calfw;
    cal->n_frameworks = ncf;
    int nfit = 0;
    /* 1. per framework, its MoE layer overhead over the MoE runs of every
     *    accelerator (a host/launch cost, not an accelerator's) */
    for (int i = 0; i < n && nfit < MAX_FITS; i++) {
        if (sel[i].held_out || !(sel[i].plan->workloads[sel[i].wi].model.experts > 1))
            continue;
        bool seen = false;
        for (int k = 0; k < nfit; k++)
            seen |= strcasecmp(fits[k].id, runs[i].framework) == 0;
        if (seen)
            continue;
        Framework f;
        if (calib_fit_moe(sel, n, cal, runs[i].framework, true, &f) > 0) {
            calib_install_profile(calfw, cal->n_frameworks, &f, CALIB_SHARE_MOE);
            fits[nfit++] = f;
        }
    }
    /* 2. per framework, its fixed cost per step over the runs of every
     *    accelerator (host work after the optimizer's grad-norm sync) and
     *    its FP8 factor pooled over them (what a part whose runs do not
     *    measure its own keeps), then
     * 3. one fit per accelerator × framework among the selected runs; the
     *    two alternate twice, since the scales and the per-step cost trade
     *    off against each other. */
    int nfit0 = nfit;
    for (int round = 0; round < 2; round++) {
        nfit = nfit0;
        fit_step_costs(sel, runs, n, cal, calfw, fits, &nfit);
        fit_accelerators(sel, runs, n, cal, calfw, fits, &nfit);
    }
    catalog_drop_derived_calibrations(cal);
    size_t room = work_room(base, ncf);
    catalog_derive_calibrations(cal, work_grow, &room); /* never short of room */
    return nfit;
}

/* Σ log²(predicted / measured) over the selected runs after a calibration
 * (scratch: n runs' room) */
static double selected_cost(const CalibRun *sel, int n, const Catalog *cal, CalibRun *scratch)
{
    for (int k = 0; k < n; k++)
        scratch[k] = sel[k];
    calib_predict(scratch, n, cal);
    double c = 0;
    for (int k = 0; k < n; k++)
        if (!sel[k].held_out && scratch[k].ok)
            c += log1p(scratch[k].err) * log1p(scratch[k].err);
    return c;
}

/* What one trial value of a parameter fitted around the calibration is
 * judged by: the whole calibration from the base frameworks, then the
 * selected runs' cost. */
typedef struct {
    const CalibRun *sel, *runs;
    int n;
    Catalog *cal;
    Framework *calfw, *base, *fits;
    size_t ncf;
    CalibRun *scratch;
} AroundFit;

static double whole_calibration_cost(void *ctx)
{
    AroundFit *x = ctx;
    calibrate_once(x->sel, x->runs, x->n, x->cal, x->calfw, x->base, x->ncf, x->fits);
    return selected_cost(x->sel, x->n, x->cal, x->scratch);
}

/* The runs measured more than once with the same settings
 * (calib_repeat_groups): each setting's runs and spread, then the largest
 * and the median spread — the floor under the residual of any fit. */
static void print_repeats(const CalibRun *runs, int n)
{
    int *group = malloc((size_t)n * sizeof *group);
    double *spread = malloc((size_t)n * sizeof *spread);
    int ng = group && spread ? calib_repeat_groups(runs, n, group) : 0;
    if (ng > 0) {
        printf("repeated settings (runs that differ only in what no setting says; their "
               "spread is a floor under any fit):\n");
        int k = 0, nruns = 0;
        for (int g = 0; g < n; g++) {
            int c = 0;
            double lo = 0, hi = 0;
            double s = group[g] == g ? calib_repeat_spread(runs, n, group, g, &c, &lo, &hi) : 0;
            if (c < 2)
                continue;
            printf("  %-12s %2d runs %9.3f-%.3f s, spread %4.1f %%: %s + %d more\n",
                   runs[g].acc->id, c, lo, hi, 100 * s, runs[g].plan->workloads[runs[g].wi].name,
                   c - 1);
            spread[k++] = s;
            nruns += c;
        }
        if (k > 0) {
            mc_sort(spread, (size_t)k);
            printf("repeated settings: %d, %d runs; spread up to %.1f %%, median %.1f %%\n", k,
                   nruns, 100 * spread[k - 1], 100 * mc_quantile(spread, k, 0.5));
        }
    }
    free(group);
    free(spread);
}

/* Runs that state their peak memory (measured_memory): the model's memory
 * beside it, and the mean and worst error.  Nothing is fitted to memory, so
 * the calibration does not move it. */
static void print_memory(const CalibRun *runs, int n)
{
    double sum = 0, worst = 0;
    int c = 0;
    for (int i = 0; i < n; i++) {
        const Workload *w = &runs[i].plan->workloads[runs[i].wi];
        if (!(w->measured_memory_bytes > 0) || !runs[i].ok)
            continue;
        if (c == 0)
            printf("memory (runs that state measured_memory; nothing is fitted to it):\n");
        double e = runs[i].predicted_mem_b / w->measured_memory_bytes - 1.0;
        printf("  %-32.32s %-10s measured %6.1f GiB, model %6.1f GiB, %+6.1f %%\n", w->name,
               runs[i].acc->id, w->measured_memory_bytes / GIB, runs[i].predicted_mem_b / GIB,
               100 * e);
        sum += fabs(e);
        if (fabs(e) > worst)
            worst = fabs(e);
        c++;
    }
    if (c > 0)
        printf("memory: %d runs, mean |error| %.1f %%, worst %.1f %%\n", c, 100 * sum / c,
               100 * worst);
}

/* Which kind of dropless MoE run `w` is for a parameter fitted around the
 * calibration: 1 the kind that does not pay the cost in full, 0 the kind
 * that does, -1 neither (left out of the test for both kinds). */
typedef int (*RunKind)(const Workload *w);

/* The eager-attention launch cost (model/train.c, moe_attn_launch_us):
 * paid per MoE layer and pass by dropless runs whose recipe does not graph
 * the attention; a run that graphs the whole iteration pays no host cost. */
static int attn_graphed(const Workload *w)
{
    return w->cuda_graph_full ? -1 : w->cuda_graph_attn ? 1 : 0;
}

/* The share of the MoE per-layer costs a run replaying the whole
 * forward-backward as CUDA graphs still pays (moe_graph_residual). */
static int iteration_graphed(const Workload *w)
{
    return w->cuda_graph_full ? 1 : 0;
}

/* A framework parameter (the double at byte offset `off` of Framework) that
 * only dropless MoE runs of both kinds tell apart from the per-layer host
 * costs, and that trades off against the accelerators' scales as well: it
 * is fitted around the whole calibration (golden section on its logarithm
 * over [lo, hi], 30 narrowings, the selected runs' cost after each full
 * calibration), where the host costs are fitted against uncalibrated
 * accelerators.  Frameworks without both kinds of MoE runs in the fit half
 * keep their value. */
static void fit_around(const CalibRun *sel, const CalibRun *runs, int n, Catalog *cal,
                       Framework *calfw, Framework *base, size_t ncf, Framework *fits,
                       CalibRun *scratch, RunKind kind, size_t off, double lo, double hi)
{
    AroundFit x = {sel, runs, n, cal, calfw, base, fits, ncf, scratch};
    for (size_t fi = 0; fi < ncf; fi++) {
        bool seen[2] = {false, false};
        for (int i = 0; i < n; i++) {
            const Workload *w = &sel[i].plan->workloads[sel[i].wi];
            if (sel[i].held_out || !(w->model.experts > 1) || w->moe_capacity_factor > 0 ||
                strcasecmp(runs[i].framework, base[fi].id) != 0)
                continue;
            int k = kind(w);
            if (k >= 0)
                seen[k] = true;
        }
        if (seen[0] && seen[1])
            calib_golden_log(whole_calibration_cost, &x, (double *)((char *)&base[fi] + off), lo,
                             hi, 30);
    }
}

/* The whole calibration of the runs fit[] selects, from the catalog cat's
 * frameworks: the eager-attention launch cost and the graphed runs'
 * residual share fitted around it (fit_around), then calibrate_once.  The
 * working catalog cal (frameworks in calfw) holds the result; sel gets the
 * runs with the others marked held out; basefw and scratch are work room. */
static int calibrate_selection(CalibRun *sel, const CalibRun *runs, int n, const bool *fit,
                               Catalog *cal, Framework *calfw, const Catalog *cat,
                               Framework *basefw, Framework *fits, CalibRun *scratch)
{
    size_t ncf = cat->n_frameworks;
    for (int k = 0; k < n; k++) {
        sel[k] = runs[k];
        sel[k].held_out = !fit[k];
    }
    if (ncf)
        memcpy(basefw, cat->frameworks, ncf * sizeof *basefw);
    fit_around(sel, runs, n, cal, calfw, basefw, ncf, fits, scratch, attn_graphed,
               offsetof(Framework, moe_attn_launch_s), 1e-6, 5e-3);
    fit_around(sel, runs, n, cal, calfw, basefw, ncf, fits, scratch, iteration_graphed,
               offsetof(Framework, moe_graph_residual), 0.01, 1.0);
    return calibrate_once(sel, runs, n, cal, calfw, basefw, ncf, fits);
}

/* The deviations (measured / model - 1) run i gives the error bands: the
 * fit's (after), and with --cross-validate (oos non-NULL) the one of the
 * fit that did not see it too; *lo / *hi their range.  False where neither
 * was predicted. */
static bool band_devs(const CalibRun *after, const CalibRun *oos, int i, double *lo,
                      double *hi)
{
    bool any = false;
    const CalibRun *src[2] = {&after[i], oos ? &oos[i] : NULL};
    for (int k = 0; k < 2; k++) {
        if (!src[k] || !src[k]->ok)
            continue;
        double d = src[k]->measured_s / src[k]->predicted_s - 1.0;
        *lo = any ? fmin(*lo, d) : d;
        *hi = any ? fmax(*hi, d) : d;
        any = true;
    }
    return any;
}

/* The error_bands rows of the runs with has[i], run i's deviation range
 * lo[i]..hi[i]: "<prefix><class>" per class, padded, a class of fewer than
 * BAND_MIN_RUNS runs at least the range of all of them, and `all` over
 * every run; `how` says how the deviations were taken. */
static void put_bands(StrBuf *sb, const CalibRun *runs, int n, const bool *has,
                      const double *lo, const double *hi, const char *prefix, const char *all,
                      const char *how, const char *const *files, const Plan *const *pp, int nall,
                      const char *names, const char *date)
{
    double glo = 0, ghi = 0;
    int gn = 0;
    for (int i = 0; i < n; i++)
        if (has[i]) {
            glo = gn ? fmin(glo, lo[i]) : lo[i];
            ghi = gn ? fmax(ghi, hi[i]) : hi[i];
            gn++;
        }
    if (gn == 0)
        return;
    bool use[MAX_FILES];
    for (int i = 0; i < n; i++) {
        if (!has[i])
            continue;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = has[j] && strcmp(runs[j].cls, runs[i].cls) == 0;
        if (seen)
            continue;
        double l = lo[i], h = hi[i];
        int c = 0;
        for (int j = i; j < n; j++)
            if (has[j] && strcmp(runs[j].cls, runs[i].cls) == 0) {
                l = fmin(l, lo[j]);
                h = fmax(h, hi[j]);
                c++;
            }
        /* the files this class's runs came from */
        char cls_names[SRC_NAMES_LEN];
        for (int f = 0; f < nall; f++) {
            use[f] = false;
            for (int j = i; j < n && !use[f]; j++)
                use[f] = has[j] && runs[j].plan == pp[f] && strcmp(runs[j].cls, runs[i].cls) == 0;
        }
        list_files(cls_names, sizeof cls_names, files, use, nall);
        l = fmin(l - BAND_PAD, -BAND_FLOOR);
        h = fmax(h + BAND_PAD, BAND_FLOOR);
        if (c < BAND_MIN_RUNS) {
            /* too few runs to trust their in-sample residuals (a profile
             * fitted to one run reproduces it exactly): at least the
             * range of all runs */
            l = fmin(l, glo - BAND_PAD);
            h = fmax(h, ghi + BAND_PAD);
        }
        sb_printf(sb, "  - {id: %s%s, low: %.3f, high: %.3f, runs: %d, source: "
                      "\"gpuplan calibrate %s: measured/model - 1 of %d runs (%s)\", "
                      "as_of: \"%s\"}\n",
                  prefix, runs[i].cls, fmax(l, -0.99), h, c, how, c, cls_names, date);
    }
    sb_printf(sb, "  - {id: %s, low: %.3f, high: %.3f, runs: 0, source: "
                  "\"gpuplan calibrate %s: range of all %d runs (%s)\", as_of: \"%s\"}\n",
              all, fmax(fmin(glo - BAND_PAD, -BAND_FLOOR), -0.99), fmax(ghi + BAND_PAD, BAND_FLOOR),
              how, gn, names, date);
}

/* Whether run r describes the error bands of the runs in half bhalf (-1 =
 * all): --bands-from runs always do. */
static bool in_bands(const CalibRun *r, int bhalf)
{
    return r->band_only || bhalf < 0 || r->held_out == (bhalf == 1);
}

int cmd_calibrate(Cli *cli, int argc, char **argv)
{
    const char *files[MAX_FILES], *band_files[MAX_FILES], *outdir = NULL, *label = NULL;
    int nf = 0, nbf = 0, half = -1;
    bool bands = false, bands_all = false, cv = false;
    for (int i = 0; i < argc; i++) {
        if ((cli_is(argv[i], "-o") || cli_is(argv[i], "--output")) && i + 1 < argc) {
            outdir = argv[++i];
        } else if (cli_is(argv[i], "--half") && i + 1 < argc) {
            const char *h = argv[++i];
            if (cli_is(h, "fit"))
                half = 0;
            else if (cli_is(h, "held-out"))
                half = 1;
            else if (cli_is(h, "all"))
                half = -1;
            else {
                cli_error("calibrate: --half takes fit, held-out or all, not '%s'", h);
                return EXIT_USAGE;
            }
        } else if (cli_is(argv[i], "--cross-validate")) {
            cv = true;
        } else if (cli_is(argv[i], "--bands")) {
            bands = true;
        } else if (cli_is(argv[i], "--bands-all")) {
            bands = bands_all = true;
        } else if (cli_is(argv[i], "--bands-from") && i + 1 < argc) {
            if (nbf >= MAX_FILES) {
                cli_error("calibrate: at most %d --bands-from files", MAX_FILES);
                return EXIT_USAGE;
            }
            band_files[nbf++] = argv[++i];
        } else if (cli_is(argv[i], "--label") && i + 1 < argc) {
            label = argv[++i];
            if (!*label || strlen(label) >= CAT_TEXT_LEN || strpbrk(label, "\n\r")) {
                cli_error("calibrate: --label takes one line of 1 to %d characters",
                          CAT_TEXT_LEN - 1);
                return EXIT_USAGE;
            }
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_error("calibrate: unexpected argument '%s' (%s)", argv[i], usage_text);
            return EXIT_USAGE;
        } else if (nf < MAX_FILES) {
            files[nf++] = argv[i];
        } else {
            cli_error("calibrate: at most %d run files", MAX_FILES);
            return EXIT_USAGE;
        }
    }
    if (nf == 0) {
        cli_error("calibrate: no runs file given (%s)", usage_text);
        return EXIT_USAGE;
    }
    if (nbf > 0 && !bands) {
        cli_error("calibrate: --bands-from adds runs to the error bands; give --bands or "
                  "--bands-all too");
        return EXIT_USAGE;
    }
    if (nf + nbf > MAX_FILES) {
        cli_error("calibrate: at most %d run files in all", MAX_FILES);
        return EXIT_USAGE;
    }
    /* the band-only files follow the fitted ones: files[nf .. nf + nbf) */
    for (int i = 0; i < nbf; i++)
        files[nf + i] = band_files[i];
    int rc = cli_catalog(cli);
    if (rc != EXIT_OK)
        return rc;
    int nall = nf + nbf;
    LoadedPlan *lps = calloc((size_t)nall, sizeof *lps);
    CalibRun *runs = calloc(MAX_RUNS, sizeof *runs);
    CalibRun *after = calloc(MAX_RUNS, sizeof *after);
    Framework *fits = calloc(MAX_FITS, sizeof *fits);
    const Plan **pp = calloc((size_t)nall, sizeof *pp);
    Catalog cal = cli->catalog;
    Framework *calfw = NULL, *basefw = NULL, *calfw2 = NULL, *fits2 = NULL;
    CalibRun *scratch = NULL, *oos = NULL, *sel2 = NULL, *unc = NULL;
    bool *fit = NULL, *fold = NULL, *has = NULL;
    double *blo = NULL, *bhi = NULL;
    char *text = NULL;
    if (!lps || !runs || !after || !fits || !pp) {
        cli_error("out of memory");
        rc = EXIT_IO;
        goto done;
    }
    int loaded = 0;
    for (int i = 0; i < nall; i++) {
        rc = cli_load_plan(cli, files[i], &lps[i]);
        if (rc != EXIT_OK)
            goto done;
        loaded = i + 1;
        pp[i] = &lps[i].plan;
    }
    int n = calib_collect(pp, nf, &cli->catalog, runs, MAX_RUNS);
    /* --bands-from runs: predicted and banded, never fitted, in no half */
    int nfit_runs = n;
    n += calib_collect(pp + nf, nbf, &cli->catalog, runs + n, MAX_RUNS - n);
    if (n == 0) {
        cli_error("calibrate: no training workload with measured_step or "
                  "measured_tokens_per_gpu in %s%s", files[0], nf > 1 ? " …" : "");
        rc = EXIT_INVALID;
        goto done;
    }
    calib_split(runs, nfit_runs);
    for (int k = nfit_runs; k < n; k++)
        runs[k].band_only = true;
    calib_predict(runs, n, &cli->catalog);

    /* the working catalog: the loaded one with a frameworks array of its own */
    size_t ncf = cli->catalog.n_frameworks;
    calfw = malloc(work_room(cli->catalog.frameworks, ncf) * sizeof *calfw);
    if (!calfw) {
        cli_error("out of memory");
        rc = EXIT_IO;
        goto done;
    }
    if (ncf)
        memcpy(calfw, cli->catalog.frameworks, ncf * sizeof *calfw);
    cal.frameworks = calfw;
    cal.n_frameworks = ncf;
    /* the fit sees only the selected half: the others are marked held out */
    CalibRun *sel = after;
    basefw = malloc((ncf + 1) * sizeof *basefw);
    scratch = calloc(MAX_RUNS, sizeof *scratch);
    fit = calloc(MAX_RUNS, sizeof *fit);
    if (!basefw || !scratch || !fit) {
        cli_error("out of memory");
        rc = EXIT_IO;
        goto done;
    }
    for (int k = 0; k < n; k++)
        fit[k] = !runs[k].band_only && (half < 0 || runs[k].held_out == (half == 1));
    int nfit = calibrate_selection(sel, runs, n, fit, &cal, calfw, &cli->catalog, basefw, fits,
                                   scratch);
    for (int k = 0; k < n; k++)
        after[k] = runs[k];
    calib_predict(after, n, &cal);
    /* every run as a plan whose framework has no calibration on its
     * accelerator would be predicted (the uncalibrated bands) */
    unc = calloc(MAX_RUNS, sizeof *unc);
    has = calloc(MAX_RUNS, sizeof *has);
    blo = calloc(MAX_RUNS, sizeof *blo);
    bhi = calloc(MAX_RUNS, sizeof *bhi);
    if (!unc || !has || !blo || !bhi || calib_predict_uncalibrated(after, n, &cal, unc) < 0) {
        cli_error("out of memory");
        rc = EXIT_IO;
        goto done;
    }

    /* --cross-validate: each run of the split predicted by the fit on the
     * half it is not in (the selected half's own fit where it is that
     * one); the --bands-from runs, never fitted, keep the main fit's */
    int ncv = 0;
    double cv_mean = 0, cv_worst = 0;
    if (cv) {
        oos = calloc(MAX_RUNS, sizeof *oos);
        sel2 = calloc(MAX_RUNS, sizeof *sel2);
        calfw2 = malloc(work_room(cli->catalog.frameworks, ncf) * sizeof *calfw2);
        fits2 = calloc(MAX_FITS, sizeof *fits2);
        fold = calloc(MAX_RUNS, sizeof *fold);
        if (!oos || !sel2 || !calfw2 || !fits2 || !fold) {
            cli_error("out of memory");
            rc = EXIT_IO;
            goto done;
        }
        for (int k = 0; k < n; k++)
            oos[k] = after[k];
        for (int h = 0; h < 2; h++) {
            /* the fit on half h predicts the other half */
            if (half != h) {
                for (int k = 0; k < n; k++)
                    fold[k] = !runs[k].band_only && runs[k].held_out == (h == 1);
                Catalog cal2 = cli->catalog;
                calibrate_selection(sel2, runs, n, fold, &cal2, calfw2, &cli->catalog, basefw,
                                    fits2, scratch);
                for (int k = 0; k < n; k++)
                    scratch[k] = runs[k];
                calib_predict(scratch, n, &cal2);
            }
            for (int k = 0; k < n; k++)
                if (!runs[k].band_only && runs[k].held_out != (h == 1))
                    oos[k] = half == h ? after[k] : scratch[k];
        }
        calib_stats(oos, n, -1, &cv_mean, &cv_worst, &ncv);
        /* each "<framework>@<accelerator>" profile: its runs' error when
         * predicted by the fit on the other half */
        for (int f = 0; f < nfit; f++) {
            if (!strchr(fits[f].id, '@'))
                continue;
            double sum = 0;
            int c = 0;
            for (int k = 0; k < n; k++) {
                char id[2 * CAT_ID_LEN];
                snprintf(id, sizeof id, "%.23s@%.23s", runs[k].framework, runs[k].acc->id);
                if (fit[k] && oos[k].ok && strcasecmp(id, fits[f].id) == 0) {
                    sum += fabs(oos[k].err);
                    c++;
                }
            }
            fits[f].cv_residual = c ? sum / c : 0;
        }
    }

    printf("%-32s %-10s %-10s %-8s %10s %9s %9s%s\n", "run", "accel", "framework", "half",
           "measured", "before", "after", cv ? "  left out" : "");
    for (int i = 0; i < n; i++) {
        const Workload *w = &runs[i].plan->workloads[runs[i].wi];
        char b[32], a[32];
        snprintf(b, sizeof b, runs[i].ok ? "%+.1f%%" : "failed", 100 * runs[i].err);
        snprintf(a, sizeof a, after[i].ok ? "%+.1f%%" : "failed", 100 * after[i].err);
        /* --cross-validate: the error of the fit that did not see the run */
        char o[32] = "", t[24];
        if (cv) {
            if (runs[i].band_only)
                snprintf(t, sizeof t, "-");
            else
                snprintf(t, sizeof t, oos[i].ok ? "%+.1f%%" : "failed", 100 * oos[i].err);
            snprintf(o, sizeof o, " %9s", t);
        }
        printf("%-32.32s %-10s %-10s %-8s %9.3fs %9s %9s%s\n", w->name, runs[i].acc->id,
               runs[i].framework,
               runs[i].band_only ? "band" : half < 0 ? "-" : (runs[i].held_out ? "held-out" : "fit"),
               runs[i].measured_s, b, a, o);
    }
    for (int hh = half >= 0 ? 0 : -1; hh < (half >= 0 ? 2 : 0); hh++) {
        double m0, w0, m1, w1;
        int c0, c1;
        calib_stats(runs, n, hh, &m0, &w0, &c0);
        calib_stats(after, n, hh, &m1, &w1, &c1);
        printf("%s: %d runs, mean |error| %.1f %% -> %.1f %%, worst %.1f %% -> %.1f %%\n",
               hh < 0 ? "all runs" : (hh ? "held-out half" : "fit half"), c1, 100 * m0,
               100 * m1, 100 * w0, 100 * w1);
    }
    if (cv)
        printf("cross-validated: %d runs, each predicted by the fit on the half it is not in: "
               "mean |error| %.1f %%, worst %.1f %%\n", ncv, 100 * cv_mean, 100 * cv_worst);
    {
        double um, uw;
        int uc;
        calib_stats(unc, n, -1, &um, &uw, &uc);
        printf("without calibration: %d runs, each predicted without its framework's "
               "calibration on its silicon: mean |error| %.1f %%, worst %.1f %%\n", uc,
               100 * um, 100 * uw);
    }
    print_repeats(runs, n);
    print_memory(runs, n);
    for (int k = 0; k < nfit; k++) {
        if (!strchr(fits[k].id, '@')) {
            printf("%s: MoE host cost per layer and pass %.0f us + %.1f us per local expert "
                   "+ %.0f us eager attention; per step %.1f ms\n",
                   fits[k].id, fits[k].moe_layer_overhead_s * 1e6,
                   fits[k].moe_expert_overhead_s * 1e6, fits[k].moe_attn_launch_s * 1e6,
                   fits[k].step_overhead_s * 1e3);
            continue;
        }
        char cvs[48] = "";
        if (fits[k].cv_residual > 0)
            snprintf(cvs, sizeof cvs, ", cross-validated %.1f %%", 100 * fits[k].cv_residual);
        printf("%s: gemm_scale %.3f, fp8_gemm_factor %.3f, step_scale %.3f — calibrated on %d "
               "%s, residual %.1f %%%s\n", fits[k].id, fits[k].gemm_scale,
               fits[k].fp8_gemm_factor, fits[k].step_scale, fits[k].calibrated_runs,
               label ? label : "of your runs", 100 * fits[k].calibrated_residual, cvs);
    }

    if (outdir) {
        if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
            cli_error("calibrate: cannot create %s: %s", outdir, strerror(errno));
            rc = EXIT_IO;
            goto done;
        }
        /* the runs files by base name: all of them in the header comment,
         * as many as fit in each profile's source (CAT_TEXT_LEN), the rest
         * counted, never cut mid-name */
        char date[16], names[SRC_NAMES_LEN] = "";
        bool use[MAX_FILES];
        today(date, sizeof date);
        StrBuf sb;
        sb_init(&sb);
        sb_puts(&sb, "# written by gpuplan calibrate from ");
        for (int i = 0; i < nf; i++) {
            const char *base = strrchr(files[i], '/');
            sb_printf(&sb, "%s%s", i ? ", " : "", base ? base + 1 : files[i]);
            use[i] = true;
        }
        for (int i = nf; i < nall; i++) {
            const char *base = strrchr(files[i], '/');
            sb_printf(&sb, "%s%s", i == nf ? "; error bands also from " : ", ",
                      base ? base + 1 : files[i]);
            use[i] = false;
        }
        list_files(names, sizeof names, files, use, nf);
        sb_puts(&sb, "; load with --catalog DIR\n");
        sb_puts(&sb, "frameworks:\n");
        for (int k = 0; k < nfit; k++)
            put_framework(&sb, &fits[k], date, names, label);
        if (bands) {
            /* the runs the bands describe: the fitted half, or all of them,
             * and the --bands-from runs; with --cross-validate a run's band
             * entry spans both its errors: as fitted, and as predicted by
             * the fit that did not see it */
            int bhalf = bands_all ? -1 : half;
            const CalibRun *cvres = cv ? oos : NULL;
            for (int i = 0; i < n; i++)
                has[i] = in_bands(&runs[i], bhalf) && band_devs(after, cvres, i, &blo[i], &bhi[i]);
            sb_puts(&sb, "error_bands:\n");
            put_bands(&sb, runs, n, has, blo, bhi, "", "default",
                      cv ? "--bands --cross-validate" : "--bands", files, pp, nall, names, date);
            /* the same runs as a plan whose framework has no calibration
             * on its accelerator sees them (calib_predict_uncalibrated),
             * each run's entry spanning that error and the ones above: an
             * uncalibrated band never claims more than the calibrated one */
            for (int i = 0; i < n; i++) {
                if (!in_bands(&runs[i], bhalf) || !unc[i].ok)
                    continue;
                double d = unc[i].measured_s / unc[i].predicted_s - 1.0;
                blo[i] = has[i] ? fmin(blo[i], d) : d;
                bhi[i] = has[i] ? fmax(bhi[i], d) : d;
                has[i] = true;
            }
            put_bands(&sb, runs, n, has, blo, bhi, BAND_UNCALIBRATED "/", BAND_UNCALIBRATED,
                      "--bands, uncalibrated", files, pp, nall, names, date);
        }
        text = sb_finish(&sb);
        if (!text) {
            cli_error("out of memory");
            rc = EXIT_IO;
            goto done;
        }
        size_t plen = strlen(outdir) + 32;
        char *path = malloc(plen);
        if (!path) {
            rc = EXIT_IO;
            goto done;
        }
        snprintf(path, plen, "%s/calibrated.yaml", outdir);
        rc = cli_write_output(path, text);
        free(path);
    }
    (void)loaded;
done:
    for (int i = 0; lps && i < nf; i++)
        if (pp && pp[i])
            cli_free_plan(&lps[i]);
    free(text);
    free(calfw);
    free(calfw2);
    free(fits2);
    free(basefw);
    free(scratch);
    free(oos);
    free(sel2);
    free(unc);
    free(has);
    free(blo);
    free(bhi);
    free(fit);
    free(fold);
    free(pp);
    free(fits);
    free(after);
    free(runs);
    free(lps);
    return rc;
}
