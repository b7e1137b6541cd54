/* model/calib.c — measured runs against the training model (calib.h). */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "calib.h"
#include "train.h"

/* Search range of the fitted multipliers: wide enough for any real
 * framework/accelerator pair (0.3–2× the shipped curve), narrow enough that
 * a nonsense run cannot drive the profile to a clamp silently. */
#define FIT_LO 0.3
#define FIT_HI 2.0
#define FP8_LO 0.3
#define FP8_HI 1.0
#define STEP_LO 0.5
#define STEP_HI 2.0
/* Golden-section iterations: (0.618)^40 of the log range, far below 0.1 %. */
#define GOLDEN_ITERS 40
/* per-step host cost search range, seconds (calib_fit_step) */
#define STEP_OH_LO 1e-4
#define STEP_OH_HI 1.0
/* runs per parameter an accelerator's fit needs before it fits more than
 * step_scale (calib_fit): gemm_scale from 4 runs, fp8_gemm_factor from 6
 * with at least 2 on each side of the contrast it measures (FP8/FP4 and
 * 16-bit), the profile's own per-step cost from 8 (twice the four values) */
#define PARAM_RUNS 2
/* a fixed cost per step is told apart from the scales only by runs whose
 * steps differ: the longest at least this many times the shortest */
#define STEP_OH_SPREAD 1.1
/* Coordinate-descent rounds when two parameters are fitted. */
#define FIT_ROUNDS 3

double calib_measured_step_s(const Workload *w)
{
    if (!w)
        return 0;
    if (w->measured_step_s > 0)
        return w->measured_step_s;
    if (w->measured_tokens_per_gpu_s > 0 && w->gpus > 0)
        return (double)w->global_batch * w->seq_len / (w->measured_tokens_per_gpu_s * w->gpus);
    return 0;
}

int calib_collect(const Plan *const *plans, int n_plans, const Catalog *cat, CalibRun *runs,
                  int cap)
{
    int n = 0;
    for (int pi = 0; pi < n_plans; pi++) {
        const Plan *p = plans[pi];
        if (!p)
            continue;
        for (int i = 0; i < p->n_workloads && n < cap; i++) {
            const Workload *w = &p->workloads[i];
            if (w->kind != WL_TRAINING || !(calib_measured_step_s(w) > 0))
                continue;
            const char *aid = w->accelerator[0] ? w->accelerator : p->accelerator;
            const Accelerator *a = catalog_find_accelerator(cat, aid);
            if (!a)
                continue;
            CalibRun *r = &runs[n++];
            memset(r, 0, sizeof *r);
            r->plan = p;
            r->wi = i;
            r->acc = a;
            r->measured_s = calib_measured_step_s(w);
            train_band_class(w, a, r->cls, sizeof r->cls);
            snprintf(r->framework, sizeof r->framework, "%s",
                     w->framework[0] ? w->framework : "megatron");
        }
    }
    return n;
}

/* A string field: what a setting holds is its text, not the bytes after it */
static void text_key(char *s, size_t len)
{
    size_t k = strnlen(s, len);
    if (k < len)
        memset(s + k, 0, len - k);
}

/* Run r's settings: its workload with the fields that do not set the run
 * zeroed (name, owner, the measurement and its source, and the total
 * tokens and target days, which only size a whole training), the
 * accelerator and framework as modelled (ids, lower case) and every text
 * zero-padded, so two runs with the same settings compare equal byte for
 * byte. */
static void settings_key(const CalibRun *r, Workload *k)
{
    *k = r->plan->workloads[r->wi];
    memset(k->name, 0, sizeof k->name);
    memset(k->team, 0, sizeof k->team);
    memset(k->measured_source, 0, sizeof k->measured_source);
    k->measured_step_s = 0;
    k->measured_tokens_per_gpu_s = 0;
    k->measured_memory_bytes = 0;
    k->tokens = 0;
    k->target_days = 0;
    memset(k->accelerator, 0, sizeof k->accelerator);
    memset(k->framework, 0, sizeof k->framework);
    snprintf(k->accelerator, sizeof k->accelerator, "%s", r->acc ? r->acc->id : "");
    snprintf(k->framework, sizeof k->framework, "%s", r->framework);
    for (char *c = k->accelerator; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    for (char *c = k->framework; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    text_key(k->model.preset, sizeof k->model.preset);
    text_key(k->model.hybrid, sizeof k->model.hybrid);
    text_key(k->recompute_modules, sizeof k->recompute_modules);
    text_key(k->engine, sizeof k->engine);
}

int calib_repeat_groups(const CalibRun *runs, int n, int *group)
{
    if (!runs || !group || n <= 0)
        return 0;
    Workload *key = malloc((size_t)n * sizeof *key);
    for (int i = 0; i < n; i++) {
        group[i] = i;
        if (key)
            settings_key(&runs[i], &key[i]);
    }
    if (!key)
        return 0; /* out of memory: every run its own setting */
    int groups = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            /* the first run of each setting stands for it */
            if (group[j] == j && memcmp(&key[i], &key[j], sizeof key[i]) == 0) {
                group[i] = j;
                break;
            }
        }
    }
    free(key);
    for (int g = 0; g < n; g++) {
        if (group[g] != g)
            continue;
        for (int i = g + 1; i < n; i++)
            if (group[i] == g) {
                groups++;
                break;
            }
    }
    return groups;
}

double calib_repeat_spread(const CalibRun *runs, int n, const int *group, int g, int *count,
                           double *lo_out, double *hi_out)
{
    double lo = 0, hi = 0;
    int c = 0;
    for (int i = 0; runs && group && i < n; i++) {
        if (group[i] != g || !(runs[i].measured_s > 0))
            continue;
        lo = c ? fmin(lo, runs[i].measured_s) : runs[i].measured_s;
        hi = c ? fmax(hi, runs[i].measured_s) : runs[i].measured_s;
        c++;
    }
    if (count)
        *count = c;
    if (lo_out)
        *lo_out = lo;
    if (hi_out)
        *hi_out = hi;
    return c >= 2 ? hi / lo - 1.0 : 0.0;
}

/* The split alternates within each class of accelerator family ×
 * dense/MoE × bf16/fp8; an attention-bound run's band class ("/long")
 * splits with its class, so the halves do not depend on the bands. */
void calib_split(CalibRun *runs, int n)
{
    for (int i = 0; i < n; i++) {
        int before = 0;
        size_t ni = train_band_class_base(runs[i].cls);
        for (int k = 0; k < i; k++)
            if (train_band_class_base(runs[k].cls) == ni &&
                strncmp(runs[k].cls, runs[i].cls, ni) == 0)
                before++;
        runs[i].held_out = (before % 2) == 0;
    }
}

static bool predict_one(CalibRun *r, const Catalog *cat)
{
    WorkloadResult *wr = calloc(1, sizeof *wr);
    if (!wr) {
        r->ok = false;
        snprintf(r->why, sizeof r->why, "out of memory");
        return false;
    }
    const Workload *w = &r->plan->workloads[r->wi];
    bool ok = train_size(r->plan, w, r->acc, cat, wr, NULL);
    r->ok = ok && wr->train.step_s > 0;
    r->predicted_s = r->ok ? wr->train.step_s : 0;
    r->predicted_mem_b = r->ok ? wr->train.mem.total : 0;
    r->err = r->ok ? r->predicted_s / r->measured_s - 1.0 : 0;
    if (!r->ok)
        snprintf(r->why, sizeof r->why, "%s", wr->error[0] ? wr->error : "no step time");
    else
        r->why[0] = '\0';
    free(wr);
    return r->ok;
}

int calib_predict(CalibRun *runs, int n, const Catalog *cat)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += predict_one(&runs[i], cat) ? 1 : 0;
    return k;
}

/* Whether profile id is "<fw>@<part>" with part a or a part on a's silicon:
 * a row catalog_framework_for(cat, fw, a->id) may return. */
static bool row_for(const Catalog *cat, const char *id, const char *fw, const Accelerator *a)
{
    const char *at = strchr(id, '@');
    size_t len = strlen(fw);
    if (!at || (size_t)(at - id) != len || strncasecmp(id, fw, len) != 0)
        return false;
    return strcasecmp(at + 1, a->id) == 0 ||
           accelerator_same_silicon(a, catalog_find_accelerator(cat, at + 1));
}

int calib_predict_uncalibrated(const CalibRun *runs, int n, const Catalog *cat, CalibRun *out)
{
    Framework *v = malloc((cat->n_frameworks + 1) * sizeof *v);
    if (!v)
        return -1;
    Catalog tmp = *cat;
    tmp.frameworks = v;
    tmp.n_frameworks = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        /* the catalog without the run's rows: the previous run's, where it
         * has the same framework and accelerator (runs come file by file) */
        if (i == 0 || runs[i].acc != runs[i - 1].acc ||
            strcasecmp(runs[i].framework, runs[i - 1].framework) != 0) {
            size_t m = 0;
            for (size_t j = 0; j < cat->n_frameworks; j++)
                if (!row_for(cat, cat->frameworks[j].id, runs[i].framework, runs[i].acc))
                    v[m++] = cat->frameworks[j];
            tmp.n_frameworks = m;
        }
        out[i] = runs[i];
        const Framework *f = catalog_framework_for(&tmp, runs[i].framework, runs[i].acc->id);
        if (f && framework_calibrated_on(f, runs[i].acc)) {
            /* its profile's own curves were calibrated on this part */
            out[i].ok = false;
            snprintf(out[i].why, sizeof out[i].why, "%s is calibrated on %s without a row",
                     f->id, runs[i].acc->id);
            continue;
        }
        k += predict_one(&out[i], &tmp) ? 1 : 0;
    }
    free(v);
    return k;
}

void calib_stats(const CalibRun *runs, int n, int half, double *mean_abs, double *worst_abs,
                 int *count)
{
    double sum = 0, worst = 0;
    int c = 0;
    for (int i = 0; i < n; i++) {
        const CalibRun *r = &runs[i];
        if (!r->ok || r->band_only || (half >= 0 && r->held_out != (half == 1)))
            continue;
        double a = fabs(r->err);
        sum += a;
        if (a > worst)
            worst = a;
        c++;
    }
    if (mean_abs)
        *mean_abs = c ? sum / c : 0;
    if (worst_abs)
        *worst_abs = worst;
    if (count)
        *count = c;
}

bool calib_catalog_with(const Catalog *base, const Framework *f, Catalog *tmp)
{
    *tmp = *base;
    size_t n = base->n_frameworks;
    Framework *v = malloc((n + 1) * sizeof *v);
    if (!v) {
        tmp->frameworks = NULL;
        tmp->n_frameworks = 0;
        return false;
    }
    if (n)
        memcpy(v, base->frameworks, n * sizeof *v);
    size_t at = n;
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(v[i].id, f->id) == 0)
            at = i;
    v[at] = *f;
    tmp->frameworks = v;
    tmp->n_frameworks = at == n ? n + 1 : n;
    return true;
}

void calib_catalog_free(Catalog *tmp)
{
    if (tmp) {
        free(tmp->frameworks);
        tmp->frameworks = NULL;
        tmp->n_frameworks = 0;
    }
}

typedef struct {
    const CalibRun *runs;
    int n;
    const Catalog *cat;
    const char *fw, *acc;
    bool fit_only;
    bool moe_only;         /* MoE runs of any accelerator (acc NULL) */
    bool step_only;        /* step_overhead_s and the pooled fp8_gemm_factor over
                            * every accelerator (acc NULL) */
    bool pool_fp8;         /* the pooled fp8_gemm_factor is searched or was kept:
                            * every "<fw>@" row takes it */
    Framework prof;
} FitCtx;

/* A run the catalog could not size (calib_predict: no layout fits, a
 * setting it cannot express; ok false) tells a fit nothing — its cost is
 * flat in every parameter — so no fit selects or counts it. */
static bool fit_selects(const FitCtx *x, const CalibRun *r)
{
    if (!r->ok)
        return false;
    const char *rf = r->framework[0] ? r->framework : "megatron";
    const char *want = x->fw && x->fw[0] ? x->fw : "megatron";
    if (x->moe_only && !(r->plan->workloads[r->wi].model.experts > 1))
        return false;
    return strcasecmp(rf, want) == 0 && (!x->acc || strcasecmp(r->acc->id, x->acc) == 0) &&
           !(x->fit_only && r->held_out);
}

void calib_install_profile(Framework *fws, size_t n, const Framework *f, int share)
{
    size_t pl = strlen(f->id);
    for (size_t j = 0; j < n; j++) {
        if (strcasecmp(fws[j].id, f->id) == 0) {
            fws[j] = *f;
        } else if (strncasecmp(fws[j].id, f->id, pl) == 0 && fws[j].id[pl] == '@') {
            if (share & CALIB_SHARE_MOE) {
                fws[j].moe_layer_overhead_s = f->moe_layer_overhead_s;
                fws[j].moe_expert_overhead_s = f->moe_expert_overhead_s;
                fws[j].moe_attn_launch_s = f->moe_attn_launch_s;
                fws[j].moe_graph_residual = f->moe_graph_residual;
            }
            if (share & CALIB_SHARE_STEP)
                fws[j].step_overhead_s = f->step_overhead_s;
            if (share & CALIB_SHARE_FP8)
                fws[j].fp8_gemm_factor = f->fp8_gemm_factor;
        }
    }
}

/* Σ (l − its accelerator's mean l)² over n log errors l with their
 * accelerators: what per-accelerator scales fitted afterwards leave. */
static double demeaned_by_accelerator(const double *l, const Accelerator *const *acc, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++) {
        double m = 0;
        int c = 0;
        for (int j = 0; j < n; j++)
            if (acc[j] == acc[i]) {
                m += l[j];
                c++;
            }
        double d = l[i] - m / c;
        sum += d * d;
    }
    return sum;
}

/* Σ log²(predicted/measured) over the selected runs with profile x->prof;
 * a run the model cannot size counts as a large miss.  For the per-step
 * cost over every accelerator (step_only) each accelerator's mean log
 * error is taken out first: the accelerator fits that follow
 * (calib_fit) set the scales, so a fixed cost is judged only on the
 * spread of one accelerator's runs a uniform scale cannot match. */
static double fit_cost(FitCtx *x)
{
    Catalog tmp;
    if (!calib_catalog_with(x->cat, &x->prof, &tmp))
        return INFINITY;
    /* the MoE and per-step costs (and the pooled FP8 factor) are the
     * framework's: its calibrated "<fw>@<accelerator>" rows take them too */
    int share = (x->moe_only ? CALIB_SHARE_MOE : 0) | (x->step_only ? CALIB_SHARE_STEP : 0) |
                (x->pool_fp8 ? CALIB_SHARE_FP8 : 0);
    if (share)
        calib_install_profile(tmp.frameworks, tmp.n_frameworks, &x->prof, share);
    double sum = 0;
    double *ls = x->step_only ? malloc((size_t)x->n * sizeof *ls) : NULL;
    const Accelerator **accs = x->step_only ? malloc((size_t)x->n * sizeof *accs) : NULL;
    int m = 0;
    for (int i = 0; i < x->n; i++) {
        if (!fit_selects(x, &x->runs[i]))
            continue;
        CalibRun r = x->runs[i];
        if (predict_one(&r, &tmp)) {
            double l = log(r.predicted_s / r.measured_s);
            sum += l * l;
            if (ls && accs) {
                ls[m] = l;
                accs[m++] = r.acc;
            }
        } else {
            sum += 4.0;
        }
    }
    calib_catalog_free(&tmp);
    if (x->step_only && ls && accs) {
        double misses = sum;
        for (int i = 0; i < m; i++)
            misses -= ls[i] * ls[i];
        sum = misses + demeaned_by_accelerator(ls, accs, m);
    }
    free(ls);
    free(accs);
    return sum;
}

double calib_golden_log(double (*cost)(void *ctx), void *ctx, double *param, double lo,
                        double hi, int iters)
{
    const double g = 0.6180339887498949;
    double a = log(lo), b = log(hi);
    double c = b - g * (b - a), d = a + g * (b - a);
    *param = exp(c);
    double fc = cost(ctx);
    *param = exp(d);
    double fd = cost(ctx);
    for (int it = 0; it < iters; it++) {
        if (fc <= fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            *param = exp(c);
            fc = cost(ctx);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            *param = exp(d);
            fd = cost(ctx);
        }
    }
    *param = exp(fc <= fd ? c : d);
    return fc <= fd ? fc : fd;
}

static double fit_cost_cb(void *ctx)
{
    return fit_cost(ctx);
}

/* Golden-section search of one profile parameter against fit_cost. */
static void golden(FitCtx *x, double *param, double lo, double hi)
{
    calib_golden_log(fit_cost_cb, x, param, lo, hi, GOLDEN_ITERS);
}

/* The small-sample Akaike criterion of a fit of k parameters to n runs
 * whose cost (fit_cost) is rss, Σ log² errors taken as Gaussian (Hurvich &
 * Tsai 1989, AICc = n·ln(RSS/n) + 2k + 2k(k+1)/(n − k − 1)): a parameter
 * is kept when it lowers it, i.e. when the runs support it.  The RSS has
 * a floor of 1e-4 in log error per run, the search's own precision, so
 * a fit already exact gains nothing from one more parameter; with
 * n ≤ k + 1 runs the criterion is infinite (no parameter more). */
static double fit_aicc(double rss, int n, int k)
{
    if (n - k - 1 <= 0)
        return INFINITY;
    double floor = 1e-8 * n;
    return n * log(fmax(rss, floor) / n) + 2.0 * k + 2.0 * k * (k + 1.0) / (n - k - 1.0);
}

/* Golden-section search of one more parameter beside k fitted ones over n
 * runs, kept only where it lowers the small-sample AICc (true); else *param
 * keeps its value (false). */
static bool golden_if_supported(FitCtx *x, double *param, double lo, double hi, int n, int k)
{
    double before = fit_aicc(fit_cost(x), n, k);
    double was = *param;
    golden(x, param, lo, hi);
    if (fit_aicc(fit_cost(x), n, k + 1) < before)
        return true;
    *param = was;
    return false;
}

int calib_fit(const CalibRun *runs, int n, const Catalog *cat, const char *fw, const char *acc,
              bool fit_only, Framework *out)
{
    if (!runs || n <= 0 || !cat || !acc || !out)
        return 0;
    FitCtx x = {.runs = runs, .n = n, .cat = cat, .fw = fw, .acc = acc, .fit_only = fit_only};
    int used = 0, n8 = 0, n16 = 0;
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        if (!fit_selects(&x, &runs[i]))
            continue;
        lo = used ? fmin(lo, runs[i].measured_s) : runs[i].measured_s;
        hi = used ? fmax(hi, runs[i].measured_s) : runs[i].measured_s;
        used++;
        const Workload *w = &runs[i].plan->workloads[runs[i].wi];
        if (w->precision == PREC_FP8 || w->precision == PREC_FP4)
            n8++;
        else
            n16++;
    }
    if (used == 0)
        return 0;
    const char *fwid = fw && fw[0] ? fw : "megatron";
    const Framework *base = catalog_framework_for(cat, fwid, acc);
    memset(&x.prof, 0, sizeof x.prof);
    if (base) {
        x.prof = *base;
    } else {
        snprintf(x.prof.name, sizeof x.prof.name, "%s", fwid);
        x.prof.gemm_scale = 1.0;
        x.prof.fp8_gemm_factor = 0.75;
        x.prof.dp_overlap = 0.8;
    }
    snprintf(x.prof.id, sizeof x.prof.id, "%.23s@%.23s", fwid, acc);
    x.prof.calibrated_as[0] = '\0'; /* its own, where it started from a derived row */
    /* With only FP8 runs the two multipliers are not separable: fit
     * gemm_scale alone (it then carries the FP8 recipe's departure from
     * the framework's pooled fp8_gemm_factor too).
     * gemm_scale moves the GEMM share of each step, step_scale all of it:
     * with runs of different GEMM shares the two are separable, and a
     * cluster that is uniformly slower (power-capped, throttled) is
     * recovered by step_scale.  Each parameter beyond step_scale needs
     * PARAM_RUNS runs per parameter then fitted: a handful of runs sets
     * step_scale alone, as they can support. */
    if (!(x.prof.step_scale > 0))
        x.prof.step_scale = 1.0;
    bool gemm_fit = used >= PARAM_RUNS * 2;
    /* fp8_gemm_factor is the FP8 (and FP4) runs' GEMM rate against the
     * 16-bit runs' on this part: a contrast between two groups, measured
     * only with PARAM_RUNS runs on each side — one run would set it alone,
     * with its every unmodelled particularity.  Otherwise the profile keeps
     * the framework's, pooled over every part's runs (calib_fit_step). */
    bool fp8_fit = n8 >= PARAM_RUNS && n16 >= PARAM_RUNS && used >= PARAM_RUNS * 3;
    /* The fixed cost per step (step_overhead_s: host work the GPUs wait for
     * once a step) is the framework's (calib_fit_step, over every
     * accelerator), but the host that runs it is the system's: a DGX H100's
     * Xeons and a GB200's Grace, and the software generation each system's
     * published runs come from.  A profile with enough runs of spread step
     * times to tell a fixed cost from the two scales (twice the four values
     * then fitted, steps at least 10 % apart) fits its own; the others keep
     * the framework's. */
    bool oh_fit = used >= PARAM_RUNS * 4 && hi > STEP_OH_SPREAD * lo;
    int rounds = gemm_fit ? FIT_ROUNDS + 1 : 1;
    for (int k = 0; k < rounds; k++) {
        golden(&x, &x.prof.step_scale, STEP_LO, STEP_HI);
        if (oh_fit)
            golden(&x, &x.prof.step_overhead_s, STEP_OH_LO, STEP_OH_HI);
        if (gemm_fit)
            golden(&x, &x.prof.gemm_scale, FIT_LO, FIT_HI);
        if (fp8_fit)
            golden(&x, &x.prof.fp8_gemm_factor, FP8_LO, FP8_HI);
    }
    golden(&x, &x.prof.step_scale, STEP_LO, STEP_HI);
    /* residual after the fit */
    Catalog tmp;
    double sum = 0;
    int c = 0;
    if (calib_catalog_with(cat, &x.prof, &tmp)) {
        for (int i = 0; i < n; i++) {
            if (!fit_selects(&x, &runs[i]))
                continue;
            CalibRun r = runs[i];
            if (predict_one(&r, &tmp)) {
                sum += fabs(r.err);
                c++;
            }
        }
        calib_catalog_free(&tmp);
    }
    x.prof.calibrated_runs = used;
    x.prof.calibrated_residual = c ? sum / c : 0;
    x.prof.cv_residual = 0; /* not measured by this fit (calibrate --cross-validate) */
    *out = x.prof;
    return used;
}

int calib_fit_moe(const CalibRun *runs, int n, const Catalog *cat, const char *fw,
                  bool fit_only, Framework *out)
{
    if (!runs || n <= 0 || !cat || !out)
        return 0;
    FitCtx x = {.runs = runs, .n = n, .cat = cat, .fw = fw, .acc = NULL, .fit_only = fit_only,
                .moe_only = true};
    int used = 0;
    for (int i = 0; i < n; i++)
        used += fit_selects(&x, &runs[i]) ? 1 : 0;
    if (used == 0)
        return 0;
    const char *fwid = fw && fw[0] ? fw : "megatron";
    const Framework *base = catalog_find_framework(cat, fwid);
    if (!base)
        return 0;
    x.prof = *base;
    /* Two host costs per MoE layer and pass (model/train.c layer_cost): a
     * fixed one (dropless sync, dispatcher launches; 1 µs – 20 ms) and one
     * per local expert (0.1 µs – 1 ms); runs with different E/ep separate
     * them.  Coordinate descent from the profile's values. */
    if (!(x.prof.moe_layer_overhead_s > 1e-6))
        x.prof.moe_layer_overhead_s = 1e-4;
    if (!(x.prof.moe_expert_overhead_s > 1e-7))
        x.prof.moe_expert_overhead_s = 1e-5;
    for (int k = 0; k < FIT_ROUNDS; k++) {
        golden(&x, &x.prof.moe_layer_overhead_s, 1e-6, 2e-2);
        golden(&x, &x.prof.moe_expert_overhead_s, 1e-7, 1e-3);
    }
    *out = x.prof;
    return used;
}

int calib_fit_step(const CalibRun *runs, int n, const Catalog *cat, const char *fw,
                   bool fit_only, Framework *out, int *share)
{
    if (!runs || n <= 0 || !cat || !out)
        return 0;
    FitCtx x = {.runs = runs, .n = n, .cat = cat, .fw = fw, .acc = NULL, .fit_only = fit_only,
                .step_only = true};
    /* A fixed cost per step is told apart from the accelerator's
     * step_scale and gemm_scale (fitted after it) only by more runs of one
     * accelerator than those two can match exactly: at least three, with
     * steps at least 10 % apart.  The FP8 factor is told apart from them
     * only by an accelerator with PARAM_RUNS runs of each precision (the
     * contrast calib_fit measures per part).  Otherwise the profile keeps
     * its value. */
    int used = 0, enough = 0, contrast = 0;
    for (int i = 0; i < n; i++) {
        if (!fit_selects(&x, &runs[i]))
            continue;
        used++;
        int same = 0, lowp = 0;
        double lo = runs[i].measured_s, hi = lo;
        for (int k = 0; k < n; k++)
            if (fit_selects(&x, &runs[k]) && runs[k].acc == runs[i].acc) {
                same++;
                lo = fmin(lo, runs[k].measured_s);
                hi = fmax(hi, runs[k].measured_s);
                Precision p = runs[k].plan->workloads[runs[k].wi].precision;
                lowp += p == PREC_FP8 || p == PREC_FP4;
            }
        if (same >= 3 && hi > STEP_OH_SPREAD * lo)
            enough = 1;
        if (lowp >= PARAM_RUNS && same - lowp >= PARAM_RUNS)
            contrast = 1;
    }
    if (used == 0 || (!enough && !contrast))
        return 0;
    const char *fwid = fw && fw[0] ? fw : "megatron";
    const Framework *base = catalog_find_framework(cat, fwid);
    if (!base)
        return 0;
    x.prof = *base;
    /* Each value is kept only where the runs support it beside one scale
     * per accelerator (fit_aicc with k = the accelerators, + 1); else the
     * profile's. */
    int groups = 0;
    for (int i = 0; i < n; i++) {
        if (!fit_selects(&x, &runs[i]))
            continue;
        bool seen = false;
        for (int k = 0; k < i && !seen; k++)
            seen = fit_selects(&x, &runs[k]) && runs[k].acc == runs[i].acc;
        groups += seen ? 0 : 1;
    }
    /* The FP8 (and FP4) GEMM factor pooled over every part: what a part
     * whose own runs do not measure it (calib_fit) takes — partial
     * pooling, the typical part's value rather than the shipped prior;
     * a part that measures it refits its own. */
    if (contrast) {
        x.pool_fp8 = true;
        x.pool_fp8 = golden_if_supported(&x, &x.prof.fp8_gemm_factor, FP8_LO, FP8_HI, used,
                                         groups);
    }
    /* One host cost per step (model/train.c env_step): 0.1 ms – 1 s. */
    if (enough)
        golden_if_supported(&x, &x.prof.step_overhead_s, STEP_OH_LO, STEP_OH_HI, used, groups);
    *out = x.prof;
    if (share)
        *share = (enough ? CALIB_SHARE_STEP : 0) | (x.pool_fp8 ? CALIB_SHARE_FP8 : 0);
    return used;
}
