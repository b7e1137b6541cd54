/* views/sizing.c — the Sizing pane: a summary row per workload, then the
 * selected workload in detail: memory per GPU against HBM, the step-time
 * breakdown, MFU / days / GPU-hours, the chosen layout and the runner-up,
 * the same workload on every accelerator (WorkloadResult.alts, ranked by
 * the model) and the assumptions behind it.  Only formats PlanResult. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "train.h"
#include "tui/app.h"
#include "tui/units.h"
#include "yaml_plan.h"

typedef struct {
    int scroll;
    int detail;                      /* workload shown last; another one starts at the top */
} SState;

static void *s_create(App *app)
{
    (void)app;
    return calloc(1, sizeof(SState));
}

static void s_destroy(View *v)
{
    free(v->state);
}

/* The workload shown in detail: the selected one, else the first. */
static int detail_index(const App *app, const PlanResult *r)
{
    if (app->sel.scope == FS_WORKLOAD && app->sel.wl < r->n_workloads)
        return app->sel.wl;
    return r->n_workloads > 0 ? 0 : -1;
}

/* A layout as two phrases: "tp8 pp16 dp128 vpp8 mb1" and "recompute
 * selective, sp on" — with the modules a selective recompute re-runs where
 * the workload w (may be NULL) names them: "recompute selective
 * (core_attn, mlp), sp on". */
static void layout_fields(const Layout *l, const Workload *w, char *dims, size_t dlen,
                          char *opts, size_t olen)
{
    char cp[16] = "", ep[16] = "", vpp[16] = "", mods[PLAN_RM_LEN + 3] = "";
    if (l->cp > 1)
        snprintf(cp, sizeof cp, " cp%d", l->cp);
    if (l->ep > 1)
        snprintf(ep, sizeof ep, " ep%d", l->ep);
    if (l->vpp > 1)
        snprintf(vpp, sizeof vpp, " vpp%d", l->vpp);
    if (w && w->recompute_modules[0] && l->recompute == RECOMPUTE_SELECTIVE)
        snprintf(mods, sizeof mods, " (%s)", w->recompute_modules);
    snprintf(dims, dlen, "tp%d pp%d dp%d%s%s%s mb%d", l->tp, l->pp, l->dp, cp, ep, vpp,
             l->micro_batch);
    snprintf(opts, olen, "recompute %s%s, sp %s",
             l->recompute < 0 ? "auto" : plan_recompute_name(l->recompute), mods,
             l->sp ? "on" : "off");
}

/* The plan's workload of a result row (by name), NULL when gone. */
static const Workload *plan_workload(const App *app, const char *name)
{
    for (int i = 0; i < app->plan.n_workloads; i++)
        if (strcmp(app->plan.workloads[i].name, name) == 0)
            return &app->plan.workloads[i];
    return NULL;
}

/* Prose, wrapped at spaces to the pane's width. */
static void text(Canvas *c, int indent, Role role, const char *s)
{
    canvas_wrap(c, indent, role, s);
}

/* "label [bar] value" with a legend line below. */
static void bar_line(Canvas *c, const char *label, const BarSeg *segs, int n, double scale,
                     double limit, const char *value, const char *const *legend)
{
    int y = canvas_next(c);
    int lw = 12, vw = 22;
    int bw = c->r.w - lw - vw - 3;
    if (bw < 10)
        bw = 10;
    if (y >= 0) {
        term_put(y, c->r.x + 1, lw, ROLE_LABEL, label);
        widget_stacked_bar(y, c->r.x + 1 + lw, bw, segs, n, scale, limit, ROLE_WARNING);
        term_put(y, c->r.x + 2 + lw + bw, vw, ROLE_VALUE, value);
    }
    if (legend) {
        y = canvas_next(c);
        if (y >= 0)
            widget_legend(y, c->r.x + 1 + lw, c->r.w - lw - 1, segs, legend, n);
    }
}

static void draw_summary(Canvas *c, const App *app, const PlanResult *r, int detail)
{
    static const TableCol cols[] = {
        {"workload", 18, false}, {"kind", 6, false}, {"accel", 15, false}, {"GPUs", 8, true},
        {"days/TPOT", 11, true}, {"MFU", 7, true}, {"", 0, false},
    };
    int y = canvas_next(c);
    if (y >= 0)
        widget_table_header(y, c->r.x + 1, c->r.w - 1, cols, 7, ROLE_TITLE);
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *w = &r->workloads[i];
        char gpus[32], dt[32], mfu[16], verdict[PLAN_TEXT_LEN + 8];
        if (!w->ok && (w->kind == WL_TRAINING || w->infer.gpus == 0)) {
            snprintf(gpus, sizeof gpus, "-");
            snprintf(dt, sizeof dt, "-");
            snprintf(mfu, sizeof mfu, "-");
        } else if (w->kind == WL_TRAINING) {
            fmt_int(w->train.gpus, gpus, sizeof gpus);
            units_days(w->train.train_days, dt, sizeof dt);
            units_pct(w->train.mfu, mfu, sizeof mfu);
        } else {
            fmt_int(w->infer.gpus, gpus, sizeof gpus);
            units_secs(w->infer.tpot_s, dt, sizeof dt);
            snprintf(mfu, sizeof mfu, "-");
        }
        const Workload *pw = plan_workload(app, w->name);
        bool late = w->ok && w->kind == WL_TRAINING && pw && pw->gpus == 0 && pw->target_days > 0 &&
                    w->train.train_days > pw->target_days;
        if (!w->ok)
            snprintf(verdict, sizeof verdict, "%s", w->kind == WL_TRAINING ? "not met" : "no fit");
        else if (w->kind == WL_INFERENCE && !w->infer.meets_slo)
            snprintf(verdict, sizeof verdict, "misses SLO");
        else if (late)
            snprintf(verdict, sizeof verdict, "> %g d target", pw->target_days);
        else
            snprintf(verdict, sizeof verdict, "ok");
        const char *cells[7] = {w->name, w->kind == WL_TRAINING ? "train" : "infer", w->accelerator,
                                gpus, dt, mfu, verdict};
        Role roles[7] = {ROLE_NORMAL, ROLE_MUTED, ROLE_NORMAL, ROLE_VALUE, ROLE_VALUE, ROLE_VALUE,
                         late ? ROLE_WARNING
                              : (w->ok && (w->kind == WL_TRAINING || w->infer.meets_slo)) ? ROLE_GOOD : ROLE_BAD};
        if (i == detail)
            roles[0] = ROLE_TITLE;
        y = canvas_next(c);
        if (y >= 0)
            widget_table_row(y, c->r.x + 1, c->r.w - 1, cols, 7, cells, ROLE_NORMAL, roles);
        /* the binding constraint next to the result, with its fix */
        const char *bind = w->kind == WL_TRAINING ? w->train.binding : w->infer.binding;
        const char *fix = w->kind == WL_TRAINING ? w->train.fix : w->infer.fix;
        if (w->ok && bind[0]) {
            char why[2 * PLAN_TEXT_LEN + 16];
            snprintf(why, sizeof why, "%s %s%s%s", term_utf8 ? "↳" : "->", bind,
                     fix[0] ? (term_utf8 ? " → " : " -> ") : "", fix);
            canvas_wrap(c, 3, ROLE_WARNING, why);
        }
    }
    (void)app;
}

static void draw_training(Canvas *c, const App *app, const WorkloadResult *w)
{
    const TrainResult *t = &w->train;
    char a[64], b[64], line[512];
    BarSeg mem[5] = {
        {t->mem.weights, ROLE_SERIES1}, {t->mem.gradients, ROLE_SERIES2},
        {t->mem.optimizer, ROLE_SERIES3}, {t->mem.activations, ROLE_SERIES4},
        {t->mem.other, ROLE_SERIES5},
    };
    static const char *const mem_legend[5] = {"weights", "grads", "optimizer", "activations", "other"};
    double scale = t->hbm_bytes > t->mem.total ? t->hbm_bytes : t->mem.total;
    snprintf(line, sizeof line, "%s / %s", units_gib(t->mem.total, a, sizeof a),
             units_gib(t->hbm_bytes, b, sizeof b));
    bar_line(c, "memory/GPU", mem, 5, scale, t->hbm_bytes, line, mem_legend);

    BarSeg step[6] = {
        {t->step.compute, ROLE_SERIES1}, {t->step.tp_comm, ROLE_SERIES2},
        {t->step.pp_bubble, ROLE_SERIES3}, {t->step.dp_comm, ROLE_SERIES4},
        {t->step.cp_comm + t->step.ep_comm, ROLE_SERIES5}, {t->step.other, ROLE_SERIES6},
    };
    static const char *const step_legend[6] = {"compute", "TP", "PP bubble", "DP", "CP+EP", "other"};
    double sum = 0;
    for (int i = 0; i < 6; i++)
        sum += step[i].value;
    units_secs(t->step_s, a, sizeof a);
    bar_line(c, "step time", step, 6, sum > 0 ? sum : 1, 0, a, step_legend);

    char gh[32], tps[32], days[32], mfu[16], gp[16];
    {
        char f0[48], f1[48], f2[48], f3[48], f4[48];
        snprintf(f0, sizeof f0, "MFU %s", units_pct(t->mfu, mfu, sizeof mfu));
        if (t->step_s > 0 && t->step_s_high > t->step_s_low)
            /* the model's error band (catalog error_bands, TrainResult);
             * an attention-bound step's is its class's long-sequence one,
             * said, since editing seq_len past the bound moves it */
            snprintf(f1, sizeof f1, "%s %+.0f/%+.0f%%%s",
                     units_days(t->train_days, days, sizeof days),
                     100 * (t->step_s_low / t->step_s - 1), 100 * (t->step_s_high / t->step_s - 1),
                     train_band_class_base(t->band_class) < strlen(t->band_class) ? " long-seq"
                                                                                 : "");
        else
            snprintf(f1, sizeof f1, "%s", units_days(t->train_days, days, sizeof days));
        snprintf(f2, sizeof f2, "GPU-hours %s", fmt_si(t->gpu_hours, "", gh, sizeof gh));
        snprintf(f3, sizeof f3, "tokens/s %s", fmt_si(t->tokens_per_s, "", tps, sizeof tps));
        snprintf(f4, sizeof f4, "goodput %s", units_pct(t->goodput, gp, sizeof gp));
        const char *items[] = {f0, f1, f2, f3, f4};
        canvas_fields(c, 1, ROLE_VALUE, items, 5);
    }
    {
        char ck[32], ci[32], f0[64], f1[48], f2[48];
        snprintf(f0, sizeof f0, "checkpoint %s", fmt_si(t->checkpoint_bytes, "B", a, sizeof a));
        snprintf(f1, sizeof f1, "every %s", units_secs(t->checkpoint_interval_s, ci, sizeof ci));
        snprintf(f2, sizeof f2, "(write %s)", units_secs(t->checkpoint_write_s, ck, sizeof ck));
        const char *items[] = {f0, f1, f2};
        canvas_fields(c, 1, ROLE_NORMAL, items, 3);
    }
    /* a layout: "layout  6.57 s" then its parts, continuation lines hang
     * under the parts */
    char f0[64], f1[200], f2[200];
    const Workload *rw = plan_workload(app, w->name);
    layout_fields(&t->layout, rw, f1, sizeof f1, f2, sizeof f2);
    {
        /* the stage sized: the workload's zero, or its framework's */
        size_t n = strlen(f2);
        snprintf(f2 + n, sizeof f2 - n, ", ZeRO-%d%s", t->zero,
                 t->zero_fallback ? " (searched)" : "");
        /* activations in host memory: the plan's, or the search's where
         * nothing fit without or it beat recomputing */
        n = strlen(f2);
        if (t->offload_layers > 0)
            snprintf(f2 + n, sizeof f2 - n, ", offload %d layers%s", t->offload_layers,
                     t->offload_auto ? " (searched)" : "");
    }
    snprintf(f0, sizeof f0, "layout     %s", units_secs(t->step_s, a, sizeof a));
    {
        const char *items[] = {f0, f1, f2};
        canvas_fields_hang(c, 1, 11, ROLE_NORMAL, items, 3);
    }
    if (t->has_runner_up) {
        double pct = t->step_s > 0 ? (t->runner_up_step_s / t->step_s - 1) * 100 : 0;
        snprintf(f0, sizeof f0, "runner-up  %s (%+.1f%%)", units_secs(t->runner_up_step_s, a, sizeof a), pct);
        layout_fields(&t->runner_up, rw, f1, sizeof f1, f2, sizeof f2);
        const char *items[] = {f0, f1, f2};
        canvas_fields_hang(c, 1, 11, ROLE_MUTED, items, 3);
    } else {
        text(c, 1, ROLE_MUTED, "runner-up  none (only one layout fits)");
    }
    snprintf(line, sizeof line, "layouts tried %d: %d did not fit, %d indivisible, %d too few micro-batches",
             t->layouts_tried, t->rejected_no_fit, t->rejected_indivisible, t->rejected_microbatches);
    text(c, 1, ROLE_MUTED, line);
    (void)app;
}

static const char *fmt_days_axis(double v, char *buf, size_t len, const void *ctx)
{
    (void)ctx;
    return units_days(v, buf, len);
}

static const char *fmt_ms_axis(double v, char *buf, size_t len, const void *ctx)
{
    (void)ctx;
    snprintf(buf, len, "%.0f ms", v * 1e3);
    return buf;
}

/* GPUs vs days at the counts the batch divides: one bar per count (the
 * y axis, GPUs) against days (the x axis), the plan's count marked, the
 * target drawn as a line through the bars. */
static void draw_curve(Canvas *c, const App *app, const WorkloadResult *w)
{
    const TrainResult *t = &w->train;
    if (t->n_curve < 2)
        return;
    const Workload *pw = plan_workload(app, w->name);
    double target = pw && pw->gpus == 0 ? pw->target_days : 0;
    double max = target;
    for (int i = 0; i < t->n_curve; i++)
        if (t->curve_days[i] > max)
            max = t->curve_days[i];
    char line[300];
    snprintf(line, sizeof line, "GPUs vs days: the counts global batch %d divides for tp%d pp%d%s",
             pw ? pw->global_batch : 0, t->layout.tp, t->layout.pp,
             target > 0 ? " (| = target)" : "");
    canvas_next(c);
    canvas_wrap(c, 1, ROLE_TITLE, line);
    int lw = 9, vw = 16, bw = c->r.w - lw - vw - 3;
    if (bw < 10)
        bw = 10;
    int y = canvas_next(c);
    if (y >= 0)
        term_put_right(y, c->r.x + 1, lw - 1, ROLE_LABEL, "GPUs");
    for (int i = 0; i < t->n_curve; i++) {
        y = canvas_next(c);
        if (y < 0)
            continue;
        char g[32], d[32];
        fmt_int(t->curve_gpus[i], g, sizeof g);
        bool plan = t->curve_gpus[i] == t->gpus;
        bool late = target > 0 && t->curve_days[i] > target;
        term_put_right(y, c->r.x + 1, lw - 1, plan ? ROLE_TITLE : ROLE_LABEL, g);
        BarSeg seg = {t->curve_days[i], late ? ROLE_BAD : plan ? ROLE_GOOD : ROLE_SERIES1};
        widget_stacked_bar(y, c->r.x + 1 + lw, bw, &seg, 1, max > 0 ? max * 1.05 : 1, target,
                           ROLE_WARNING);
        snprintf(line, sizeof line, "%s%s", units_days(t->curve_days[i], d, sizeof d),
                 plan ? "  plan" : "");
        term_put(y, c->r.x + 2 + lw + bw, vw, plan ? ROLE_TITLE : ROLE_VALUE, line);
    }
    canvas_bar_axis(c, c->r.x + 1 + lw, bw, 0, max * 1.05, "days", fmt_days_axis, NULL);
}

/* A latency curve of a service (model/infer.c computes the points): one
 * bar per count (the y axis: replicas, or a pool's GPUs) against the
 * latency (the x axis), the target as a line through the bars, the
 * chosen count marked "plan", counts that cannot carry the rate (latency
 * 0) named instead of drawn. */
typedef struct {
    const char *ylabel;              /* "replicas", "GPUs" */
    const int *count;
    const double *lat_s;
    int n;
    int chosen;
    double target_s;                 /* 0 = none */
    double rate;
    const char *axis;                /* "TPOT", "TTFT" */
} LatCurve;

static void draw_latency_curve(Canvas *c, const char *title, const LatCurve *lc)
{
    if (lc->n < 2)
        return;
    double max = lc->target_s;
    for (int i = 0; i < lc->n; i++)
        if (lc->lat_s[i] > max)
            max = lc->lat_s[i];
    canvas_next(c);
    canvas_wrap(c, 1, ROLE_TITLE, title);
    int lw = 9, vw = 22, bw = c->r.w - lw - vw - 3;
    if (bw < 10)
        bw = 10;
    int y = canvas_next(c);
    if (y >= 0)
        term_put_right(y, c->r.x + 1, lw - 1, ROLE_LABEL, lc->ylabel);
    char line[300];
    for (int i = 0; i < lc->n; i++) {
        y = canvas_next(c);
        if (y < 0)
            continue;
        char n[32], v[32];
        fmt_int(lc->count[i], n, sizeof n);
        bool plan = lc->count[i] == lc->chosen;
        double t = lc->lat_s[i];
        term_put_right(y, c->r.x + 1, lw - 1, plan ? ROLE_TITLE : ROLE_LABEL, n);
        if (t <= 0) {
            snprintf(line, sizeof line, "saturated: %s %s cannot carry %g req/s", n, lc->ylabel,
                     lc->rate);
            term_put_ellipsis(y, c->r.x + 1 + lw, c->r.w - lw - 1, ROLE_BAD, line);
            continue;
        }
        bool miss = lc->target_s > 0 && t > lc->target_s;
        BarSeg seg = {t, miss ? ROLE_BAD : plan ? ROLE_GOOD : ROLE_SERIES1};
        widget_stacked_bar(y, c->r.x + 1 + lw, bw, &seg, 1, max > 0 ? max * 1.05 : 1,
                           lc->target_s, ROLE_WARNING);
        snprintf(line, sizeof line, "%s%s", units_secs(t, v, sizeof v),
                 plan ? "  plan" : miss ? "  misses" : "");
        term_put(y, c->r.x + 2 + lw + bw, vw, plan ? ROLE_TITLE : miss ? ROLE_BAD : ROLE_VALUE,
                 line);
    }
    canvas_bar_axis(c, c->r.x + 1 + lw, bw, 0, max * 1.05, lc->axis, fmt_ms_axis, NULL);
}

/* Replicas vs TPOT for an aggregated service (InferResult.curve_*); for a
 * disaggregated one, decode GPUs vs TPOT and prefill GPUs vs TTFT
 * (InferResult.decode_curve_* / prefill_curve_*). */
static void draw_tpot_curve(Canvas *c, const App *app, const WorkloadResult *w)
{
    const InferResult *in = &w->infer;
    const Workload *pw = plan_workload(app, w->name);
    double rate = pw ? pw->requests_per_s : 0;
    double tpot_t = pw && pw->tpot_s > 0 ? pw->tpot_s : 0;
    double ttft_t = pw && pw->ttft_s > 0 ? pw->ttft_s : 0;
    char title[300];
    if (!in->disaggregated) {
        snprintf(title, sizeof title, "replicas vs TPOT: tp%d replicas sharing %g req/s%s", in->tp,
                 rate, tpot_t > 0 ? " (| = TPOT target)" : "");
        LatCurve lc = {"replicas", in->curve_replicas, in->curve_tpot_s, in->n_curve,
                       in->replicas, tpot_t, rate, "TPOT"};
        draw_latency_curve(c, title, &lc);
        return;
    }
    snprintf(title, sizeof title, "decode pool GPUs vs TPOT: %s%d replicas sharing %g req/s%s",
             in->decode_ep ? "DEP" : "tp", in->decode_tp, rate,
             tpot_t > 0 ? " (| = TPOT target)" : "");
    LatCurve dc = {"GPUs", in->decode_curve_gpus, in->decode_curve_tpot_s, in->n_decode_curve,
                   in->decode_gpus, tpot_t, rate, "TPOT"};
    draw_latency_curve(c, title, &dc);
    snprintf(title, sizeof title, "prefill pool GPUs vs TTFT: %s%d replicas sharing %g req/s%s",
             in->prefill_ep ? "DEP" : "tp", in->prefill_tp, rate,
             ttft_t > 0 ? " (| = TTFT target)" : "");
    LatCurve pc = {"GPUs", in->prefill_curve_gpus, in->prefill_curve_ttft_s, in->n_prefill_curve,
                   in->prefill_gpus, ttft_t, rate, "TTFT"};
    draw_latency_curve(c, title, &pc);
}

static void draw_inference(Canvas *c, const App *app, const WorkloadResult *w)
{
    const InferResult *in = &w->infer;
    char a[64], b[64], line[512];
    const Accelerator *acc = catalog_find_accelerator(&app->cat, w->accelerator);
    double hbm = acc ? acc->hbm_bytes : 0;
    BarSeg mem[3] = {{in->mem.weights, ROLE_SERIES1}, {in->mem.kv_cache, ROLE_SERIES2},
                     {in->mem.other, ROLE_SERIES5}};
    static const char *const legend[3] = {"weights", "KV cache", "other"};
    double scale = hbm > in->mem.total ? hbm : in->mem.total;
    snprintf(line, sizeof line, "%s / %s", units_gib(in->mem.total, a, sizeof a),
             hbm > 0 ? units_gib(hbm, b, sizeof b) : "?");
    bar_line(c, "memory/GPU", mem, 3, scale > 0 ? scale : 1, hbm, line, legend);

    const Workload *pw = plan_workload(app, w->name);
    double ttft_t = pw ? pw->ttft_s : 0, tpot_t = pw ? pw->tpot_s : 0;
    BarSeg ttft[2] = {{in->prefill_s, ROLE_SERIES1}, {in->queue_s, ROLE_SERIES3}};
    static const char *const tl[2] = {"prefill", "queue"};
    double ts = fmax(in->ttft_s, ttft_t) * 1.1;
    snprintf(line, sizeof line, "%s of %s", units_secs(in->ttft_s, a, sizeof a), units_secs(ttft_t, b, sizeof b));
    bar_line(c, "TTFT", ttft, 2, ts > 0 ? ts : 1, ttft_t, line, tl);
    BarSeg tpot[1] = {{in->tpot_s, in->tpot_s <= tpot_t ? ROLE_GOOD : ROLE_BAD}};
    double ps = fmax(in->tpot_s, tpot_t) * 1.1;
    snprintf(line, sizeof line, "%s of %s", units_secs(in->tpot_s, a, sizeof a), units_secs(tpot_t, b, sizeof b));
    bar_line(c, "TPOT", tpot, 1, ps > 0 ? ps : 1, tpot_t, line, NULL);
    if (!in->meets_slo && in->best_tpot_s > 0) {
        snprintf(line, sizeof line, "misses its SLO: the fastest achievable TPOT is %s", units_secs(in->best_tpot_s, a, sizeof a));
        text(c, 1, ROLE_BAD, line);
    }
    char g[32], tps[32], pg[32];
    {
        /* error band: the model's residuals on held-back published runs */
        char lo[32], hi[32], f0[96], f1[96];
        snprintf(f0, sizeof f0, "TTFT %s-%s, TPOT %s-%s", units_secs(in->ttft_s_low, a, sizeof a),
                 units_secs(in->ttft_s_high, b, sizeof b), units_secs(in->tpot_s_low, lo, sizeof lo),
                 units_secs(in->tpot_s_high, hi, sizeof hi));
        if (in->gpus_high > 0)
            snprintf(f1, sizeof f1, "GPUs %d-%d (model error band, engine %s)", in->gpus_low,
                     in->gpus_high, in->engine[0] ? in->engine : "trtllm");
        else
            snprintf(f1, sizeof f1, "GPUs %d-? (targets out of reach at the band's slow end)",
                     in->gpus_low);
        const char *items[] = {f0, f1};
        canvas_fields(c, 1, ROLE_MUTED, items, 2);
    }
    if (in->disaggregated) {
        char pgp[32], dgp[32], f0[128], f1[128], f2[96];
        snprintf(f0, sizeof f0, "prefill pool: %s %d %s %d = %s GPUs", in->prefill_ep ? "DEP" : "tp",
                 in->prefill_tp, term_glyphs->times, in->prefill_replicas,
                 fmt_int(in->prefill_gpus, pgp, sizeof pgp));
        snprintf(f1, sizeof f1, "decode pool: %s %d %s %d = %s GPUs", in->decode_ep ? "DEP" : "tp",
                 in->decode_tp, term_glyphs->times, in->decode_replicas,
                 fmt_int(in->decode_gpus, dgp, sizeof dgp));
        snprintf(f2, sizeof f2, "KV transfer %s per prompt", units_secs(in->kv_transfer_s, a, sizeof a));
        const char *items[] = {f0, f1, f2};
        canvas_fields(c, 1, ROLE_VALUE, items, 3);
    }
    if (in->aggregated_gpus > 0 || in->disaggregated_gpus > 0) {
        char ag[48], dg[48];
        if (in->aggregated_gpus > 0)
            snprintf(ag, sizeof ag, "%d GPUs", in->aggregated_gpus);
        else
            snprintf(ag, sizeof ag, "not evaluated / out of reach");
        if (in->disaggregated_gpus > 0)
            snprintf(dg, sizeof dg, "%d GPUs", in->disaggregated_gpus);
        else
            snprintf(dg, sizeof dg, "out of reach");
        snprintf(line, sizeof line, "aggregated %s vs disaggregated %s: runs %s", ag, dg,
                 in->disaggregated ? "disaggregated" : "aggregated");
        text(c, 1, ROLE_NORMAL, line);
    }
    {
        char f0[96], f1[48], f2[64], f3[64];
        if (in->disaggregated)
            snprintf(f0, sizeof f0, "both pools = %s GPUs", fmt_int(in->gpus, g, sizeof g));
        else if (in->ep > 0)
            snprintf(f0, sizeof f0, "DEP %d %s %d replicas = %s GPUs", in->tp, term_glyphs->times,
                     in->replicas, fmt_int(in->gpus, g, sizeof g));
        else
            snprintf(f0, sizeof f0, "tp %d %s %d replicas = %s GPUs", in->tp, term_glyphs->times,
                     in->replicas, fmt_int(in->gpus, g, sizeof g));
        snprintf(f1, sizeof f1, "batch/replica %d", in->batch_per_replica);
        snprintf(f2, sizeof f2, "%s", fmt_si(in->output_tokens_per_s, "tok/s", tps, sizeof tps));
        snprintf(f3, sizeof f3, "(%s/GPU)",
                 fmt_si(in->output_tokens_per_s_per_gpu, "tok/s", pg, sizeof pg));
        const char *items[] = {f0, f1, f2, f3};
        canvas_fields(c, 1, ROLE_VALUE, items, 4);
    }
    {
        char f0[96], f1[96], s[32];
        if (in->state_bytes_per_sequence > 0)
            snprintf(f0, sizeof f0, "KV cache %s/token + %s state/sequence",
                     fmt_si(in->kv_bytes_per_token, "B", a, sizeof a),
                     fmt_si(in->state_bytes_per_sequence, "B", s, sizeof s));
        else
            snprintf(f0, sizeof f0, "KV cache %s/token", fmt_si(in->kv_bytes_per_token, "B", a, sizeof a));
        snprintf(f1, sizeof f1, "%.3g GPU-hours per million output tokens", in->gpu_hours_per_mtok);
        const char *items[] = {f0, f1};
        canvas_fields(c, 1, ROLE_NORMAL, items, 2);
    }
}

static void draw_alts(Canvas *c, const WorkloadResult *w)
{
    if (w->n_alts == 0) {
        text(c, 1, ROLE_MUTED, "other accelerators: not computed");
        return;
    }
    text(c, 1, ROLE_TITLE, "the same workload on every accelerator (ranked)");
    static const TableCol cols[] = {{"#", 4, true}, {"accelerator", 16, false}, {"GPUs", 10, true},
                                    {"days / TPOT", 13, true}, {"cost", 10, true}, {"", 0, false}};
    int y = canvas_next(c);
    if (y >= 0)
        widget_table_header(y, c->r.x + 1, c->r.w - 1, cols, 6, ROLE_MUTED);
    for (int i = 0; i < w->n_alts; i++) {
        const AccelOption *o = &w->alts[i];
        char rank[16], g[32], d[32], usd[32];
        snprintf(rank, sizeof rank, "%d", i + 1);
        if (o->gpus > 0)
            fmt_int(o->gpus, g, sizeof g);
        else
            snprintf(g, sizeof g, "-");
        if (w->kind == WL_TRAINING)
        {
            if (o->days > 0)
                units_days(o->days, d, sizeof d);
            else
                snprintf(d, sizeof d, "-");
        }
        else if (o->tpot_s > 0)
            units_secs(o->tpot_s, d, sizeof d);
        else
            snprintf(d, sizeof d, "-"); /* did not fit: no TPOT */
        if (o->usd > 0)
            fmt_usd(o->usd, usd, sizeof usd);
        else
            snprintf(usd, sizeof usd, "-");
        bool current = strcmp(o->accelerator, w->accelerator) == 0;
        const char *cells[6] = {rank, o->accelerator, g, d, usd,
                                o->ok ? (current ? "current" : "") : o->gpus > 0 ? "misses target" : "does not fit"};
        Role roles[6] = {ROLE_MUTED, current ? ROLE_TITLE : ROLE_NORMAL, ROLE_VALUE, ROLE_VALUE, ROLE_NORMAL,
                         o->ok ? ROLE_GOOD : ROLE_BAD};
        y = canvas_next(c);
        if (y >= 0)
            widget_table_row(y, c->r.x + 1, c->r.w - 1, cols, 6, cells, ROLE_NORMAL, roles);
    }
}

static void s_draw(View *v, App *app, Rect r)
{
    SState *s = v->state;
    term_clear_rect(r, ROLE_NORMAL);
    const PlanResult *res = app_result(app);
    if (!res || !res->have_sizing) {
        term_put(r.y + 1, r.x + 2, r.w - 2, ROLE_MUTED,
                 res ? "sizing: not computed" : "computing the first result...");
        return;
    }
    if (res->n_workloads == 0) {
        term_put(r.y + 1, r.x + 2, r.w - 2, ROLE_MUTED, "no workloads in this plan (a to add one)");
        return;
    }
    Canvas c;
    int d = detail_index(app, res);
    if (d != s->detail) {
        s->detail = d;
        s->scroll = 0;
    }
    canvas_begin(&c, r, &s->scroll);
    draw_summary(&c, app, res, d);
    canvas_next(&c);
    if (d >= 0) {
        const WorkloadResult *w = &res->workloads[d];
        char head[300];
        snprintf(head, sizeof head, "%s on %s", w->name, w->accelerator);
        text(&c, 1, ROLE_TITLE, head);
        if (!w->ok)
            canvas_wrap(&c, 1, ROLE_BAD, w->error[0] ? w->error : "no layout fits");
        const char *bind = w->kind == WL_TRAINING ? w->train.binding : w->infer.binding;
        const char *fix = w->kind == WL_TRAINING ? w->train.fix : w->infer.fix;
        if (w->ok && bind[0]) {
            char line[PLAN_TEXT_LEN + 16];
            snprintf(line, sizeof line, "binding  %s", bind);
            canvas_wrap(&c, 1, ROLE_WARNING, line);
            if (fix[0]) {
                snprintf(line, sizeof line, "fix      %s", fix);
                canvas_wrap(&c, 1, ROLE_GOOD, line);
            }
        }
        /* a failed sizing has no numbers to show: never draw zeros as results */
        if (w->ok && w->kind == WL_TRAINING) {
            draw_training(&c, app, w);
            draw_curve(&c, app, w);
        }
        else if (w->ok || w->infer.gpus > 0) {
            draw_inference(&c, app, w);
            draw_tpot_curve(&c, app, w);
        }
        canvas_next(&c);
        draw_alts(&c, w);
        int shown = 0;
        for (int i = 0; i < res->n_assumptions; i++)
            if (strcmp(res->assumptions[i].scope, w->name) == 0) {
                if (!shown++) {
                    canvas_next(&c);
                    text(&c, 1, ROLE_TITLE, "assumptions");
                }
                canvas_wrap(&c, 2, ROLE_MUTED, res->assumptions[i].text);
            }
    }
    canvas_end(&c, &s->scroll);
}

static int s_key(View *v, App *app, Action a, int ch)
{
    SState *s = v->state;
    (void)ch;
    return app_scroll(&s->scroll, a, app->geo.pane.h - 1);
}

/* A tab shown again, or another plan: from the top, not where an earlier
 * content left the offsets (stale scroll; issue 15). */
static void s_show(View *v, App *app)
{
    (void)app;
    if (v->state)
        memset(v->state, 0, sizeof(SState));
}

const ViewOps view_sizing_ops = {
    .name = "Sizing", .abbrev = "Size", .ctx = CTX_PANE,
    .create = s_create, .draw = s_draw, .key = s_key, .destroy = s_destroy,
    .show = s_show,
};
