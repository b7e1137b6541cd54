/* plans/sweep.c — grid and Monte Carlo sweeps over plan keys (see sweep.h). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "diag.h"
#include "evaluate.h"
#include "hash.h"
#include "quantity.h"
#include "sweep.h"
#include "yaml_plan.h"

#define ROW_D(m) offsetof(SweepRow, m)
const SweepMetric sweep_metrics[] = {
    {"gpus", "GPUs", "GPUs", ROW_D(gpus)},
    {"train_days", "Days to train (longest)", "days", ROW_D(train_days)},
    {"facility_mw", "Facility power", "MW", ROW_D(facility_mw)},
    {"it_mw", "IT power", "MW", ROW_D(it_mw)},
    {"tco_usd", "The plan's TCO", "USD", ROW_D(tco_usd)},
    {"cheapest_tco_usd", "Cheapest TCO", "USD", ROW_D(cheapest_tco_usd)},
    {"usd_per_gpu_hour", "$ per GPU-hour", "USD", ROW_D(usd_per_gpu_hour)},
    {"wait_p95_h", "Wait p95 (worst team)", "h", ROW_D(wait_p95_h)},
    {"utilization", "Pool utilisation", "", ROW_D(utilization)},
    {"build_margin_pct", "Verdict margin (+ build, - buy)", "%", ROW_D(build_margin_pct)},
};
const int sweep_n_metrics = (int)(sizeof sweep_metrics / sizeof sweep_metrics[0]);

static int fail(int rc, char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(int rc, char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return rc;
}

/* The unit a bare number of the key stands for, in SI (PLAN-FORMAT.md "a
 * bare number is the key's unit"). */
static double bare_unit(const FieldDef *f)
{
    return f->bare > 0 ? f->bare : 1.0;
}

/* ---------------------------------------------------------------- parsing */

static void trim(char *s)
{
    size_t n = strlen(s), i = 0;
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    while (isspace((unsigned char)s[i]))
        i++;
    memmove(s, s + i, n - i + 1);
}

/* Parse a number of the key's kind into SI. */
static int parse_number(const FieldDef *f, const char *text, double *out, char *err, size_t len)
{
    QuantityKind qk = f->type == FT_REAL ? f->qk : QTY_COUNT;
    return quantity_parse(text, qk, bare_unit(f), out, err, len);
}

/* Unknown key: name the nearest path of this plan. */
static int unknown_key(const Plan *base, const char *key, char *err, size_t len)
{
    enum { MAXP = 4096 };
    char(*paths)[FIELDS_PATH_LEN] = malloc(MAXP * sizeof *paths);
    const char **cands = malloc(MAXP * sizeof *cands);
    const char *near = NULL;
    if (paths && cands) {
        int n = fields_paths(base, paths, MAXP);
        for (int i = 0; i < n; i++)
            cands[i] = paths[i];
        near = diag_nearest(key, cands, (size_t)n);
    }
    char hint[FIELDS_PATH_LEN + 32] = "";
    if (near)
        snprintf(hint, sizeof hint, " (did you mean %s?)", near);
    int rc = fail(-2, err, len,
                  "--vary %s: no such key in plan %s%s; keys are dotted paths such as "
                  "site.pue, tenancy.gpus, workloads.NAME.tokens",
                  key, base->name, hint);
    free(paths);
    free(cands);
    return rc;
}

/* Try value text (or, when text is NULL, the SI number) on a copy of the
 * base plan; on success *si_out holds the field's value in SI. */
static int try_value(const SweepAxis *ax, const Plan *base, const Catalog *cat, const char *text,
                     double si, double *si_out, char *err, size_t len)
{
    Plan *p = malloc(sizeof *p);
    if (!p)
        return fail(-1, err, len, "out of memory");
    *p = *base;
    char e[320];
    int rc = text ? field_set(ax->f, p, ax->t, text, cat, e, sizeof e)
                  : field_set_number(ax->f, p, ax->t, si, e, sizeof e);
    if (rc != 0) {
        rc = fail(-1, err, len, "--vary %s=%s: %s", ax->path, ax->spec, e);
    } else {
        Diag d = {0};
        if (plan_validate(p, cat, &d) != 0)
            rc = fail(-1, err, len, "--vary %s=%s: with %s = %s the plan is invalid: %s",
                      ax->path, ax->spec, ax->path, text ? text : "the range's end", d.msg);
        else if (si_out)
            *si_out = field_number(ax->f, p, ax->t);
    }
    free(p);
    return rc;
}

static int parse_range(SweepAxis *ax, const Plan *base, const Catalog *cat, char *spec,
                       char *dots, char *err, size_t len)
{
    if (!ax->numeric)
        return fail(-2, err, len,
                    "--vary %s=%s: %s is not a number, so it takes listed values "
                    "(%s=a,b,…), not a range",
                    ax->path, ax->spec, ax->path, ax->path);
    *dots = '\0';
    char *a = spec, *b = dots + 2;
    /* "/N" ends the range when only digits follow the last slash (a rate's
     * "Gb/s" is a unit, not a step count) */
    char *slash = strrchr(b, '/');
    if (slash && slash[1] && strspn(slash + 1, "0123456789 ") == strlen(slash + 1)) {
        *slash = '\0';
        char *end;
        errno = 0;
        long n = strtol(slash + 1, &end, 10);
        while (isspace((unsigned char)*end))
            end++;
        if (*end || errno || n < 2 || n > 1000000)
            return fail(-2, err, len,
                        "--vary %s=%s: the step count after '/' must be a whole number from 2 "
                        "to 1000000",
                        ax->path, ax->spec);
        ax->steps = (int)n;
    }
    trim(a);
    trim(b);
    char qerr[256];
    if (parse_number(ax->f, a, &ax->lo, qerr, sizeof qerr) != 0)
        return fail(-2, err, len, "--vary %s=%s: range start: %s", ax->path, ax->spec, qerr);
    if (parse_number(ax->f, b, &ax->hi, qerr, sizeof qerr) != 0)
        return fail(-2, err, len, "--vary %s=%s: range end: %s", ax->path, ax->spec, qerr);
    if (!(ax->lo < ax->hi))
        return fail(-2, err, len,
                    "--vary %s=%s: a range A..B needs A < B (for one value write %s=%s)",
                    ax->path, ax->spec, ax->path, a);
    bool whole = ax->f->type != FT_REAL;
    if (whole && (ax->lo != floor(ax->lo) || ax->hi != floor(ax->hi)))
        return fail(-2, err, len, "--vary %s=%s: %s takes whole numbers", ax->path, ax->spec,
                    ax->path);
    if (whole && ax->steps > 0 && ax->hi - ax->lo + 1 < ax->steps)
        return fail(-2, err, len,
                    "--vary %s=%s: only %.0f whole numbers lie from %s to %s, not %d distinct "
                    "steps",
                    ax->path, ax->spec, ax->hi - ax->lo + 1, a, b, ax->steps);
    double got;
    if (try_value(ax, base, cat, NULL, ax->lo, &got, err, len) != 0 ||
        try_value(ax, base, cat, NULL, ax->hi, &got, err, len) != 0)
        return -1;
    ax->range = true;
    return 0;
}

static int parse_list(SweepAxis *ax, const Plan *base, const Catalog *cat, char *spec,
                      char *err, size_t len)
{
    ax->n_values = 0;
    for (char *next = spec, *tok; (tok = strsep(&next, ",")) != NULL;) {
        trim(tok);
        if (!*tok)
            return fail(-2, err, len, "--vary %s=%s: an empty value in the list", ax->path,
                        ax->spec);
        if (ax->n_values >= SWEEP_MAX_VALUES)
            return fail(-2, err, len, "--vary %s=%s: more than %d listed values", ax->path,
                        ax->spec, SWEEP_MAX_VALUES);
        if (strlen(tok) >= SWEEP_VALUE_LEN)
            return fail(-2, err, len, "--vary %s=%s: value '%.20s…' is too long", ax->path,
                        ax->spec, tok);
        for (int i = 0; i < ax->n_values; i++)
            if (strcmp(ax->values[i], tok) == 0)
                return fail(-2, err, len, "--vary %s=%s: '%s' is listed twice", ax->path,
                            ax->spec, tok);
        double si = NAN;
        if (try_value(ax, base, cat, tok, 0, &si, err, len) != 0)
            return -1;
        snprintf(ax->values[ax->n_values], SWEEP_VALUE_LEN, "%s", tok);
        ax->numbers[ax->n_values++] = ax->numeric ? si : NAN;
    }
    if (ax->n_values == 0)
        return fail(-2, err, len, "--vary %s=: which values? (KEY=A..B/N or KEY=v1,v2)",
                    ax->path);
    return 0;
}

int sweep_axis_parse(const Plan *base, const Catalog *cat, const char *arg, SweepAxis *ax,
                     char *err, size_t errlen)
{
    memset(ax, 0, sizeof *ax);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return fail(-2, err, errlen,
                    "--vary '%s': expected KEY=A..B/N, KEY=A..B or KEY=v1,v2,…", arg);
    char key[FIELDS_PATH_LEN];
    size_t kl = (size_t)(eq - arg);
    if (kl >= sizeof key)
        return fail(-2, err, errlen, "--vary: key '%.40s…' is too long", arg);
    memcpy(key, arg, kl);
    key[kl] = '\0';
    trim(key);
    if (strlen(eq + 1) >= sizeof ax->spec)
        return fail(-2, err, errlen, "--vary %s: the values are too long", key);
    snprintf(ax->spec, sizeof ax->spec, "%s", eq + 1);
    ax->f = fields_path_find(base, key, &ax->t);
    if (!ax->f)
        return unknown_key(base, key, err, errlen);
    if (ax->f->flags & FF_NAME)
        return fail(-2, err, errlen, "--vary %s: a name cannot be varied", key);
    fields_path_of(ax->f, base, ax->t, ax->path, sizeof ax->path);
    ax->numeric = field_is_number(ax->f);
    char spec[sizeof ax->spec];
    snprintf(spec, sizeof spec, "%s", ax->spec);
    char *dots = strstr(spec, "..");
    return dots ? parse_range(ax, base, cat, spec, dots, err, errlen)
                : parse_list(ax, base, cat, spec, err, errlen);
}

/* Values an axis contributes to a grid. */
static long long axis_count(const SweepAxis *ax)
{
    return ax->range ? ax->steps : ax->n_values;
}

int sweep_spec_finish(SweepSpec *s, char *err, size_t errlen)
{
    if (s->n_axes == 0)
        return fail(-2, err, errlen, "which keys? give at least one --vary KEY=…");
    for (int i = 0; i < s->n_axes; i++)
        for (int j = 0; j < i; j++)
            if (s->axes[i].f == s->axes[j].f && s->axes[i].t.scope == s->axes[j].t.scope &&
                s->axes[i].t.wl == s->axes[j].t.wl && s->axes[i].t.team == s->axes[j].t.team &&
                s->axes[i].t.job == s->axes[j].t.job)
                return fail(-2, err, errlen, "--vary %s is given twice", s->axes[i].path);
    if (s->samples > 0) {
        if (s->samples > SWEEP_MAX_POINTS)
            return fail(-2, err, errlen, "--samples %lld: at most %lld points", s->samples,
                        SWEEP_MAX_POINTS);
        s->n_points = s->samples;
        return 0;
    }
    long long n = 1;
    for (int i = 0; i < s->n_axes; i++) {
        const SweepAxis *ax = &s->axes[i];
        if (ax->range && ax->steps == 0)
            return fail(-2, err, errlen,
                        "--vary %s=%s: a grid needs the number of steps (%s=%s/N), or sample "
                        "the range with --samples N",
                        ax->path, ax->spec, ax->path, ax->spec);
        n *= axis_count(ax);
        if (n > SWEEP_MAX_POINTS)
            return fail(-2, err, errlen, "the grid has more than %lld points; use fewer steps "
                        "or --samples N", SWEEP_MAX_POINTS);
    }
    s->n_points = n;
    return 0;
}

/* ---------------------------------------------------------------- points */

/* splitmix64's output function (Steele, Lea & Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014; constants of Vigna's
 * splitmix64.c): a bijective 64-bit mix, used here as a counter-based
 * generator so point i's draws need no earlier point. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in (0,1) for (seed, point, axis). */
static double draw(uint64_t seed, long long idx, int axis)
{
    uint64_t h = mix64(seed + 0x9E3779B97F4A7C15ULL * ((uint64_t)idx + 1));
    h = mix64(h ^ (0xD1B54A32D192ED03ULL * (uint64_t)(axis + 1)));
    return ((double)(h >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Grid value k of a range's steps (whole numbers rounded for integer keys). */
static double range_step(const SweepAxis *ax, long long k)
{
    double v = k == ax->steps - 1 ? ax->hi
                                  : ax->lo + (ax->hi - ax->lo) * (double)k / (ax->steps - 1);
    return ax->f->type == FT_REAL ? v : floor(v + 0.5);
}

static void set_index(const SweepAxis *ax, long long k, SweepValue *v)
{
    if (ax->range) {
        v->num = range_step(ax, k);
        v->choice = -1;
    } else {
        v->choice = (int)k;
        v->num = ax->numbers[k];
    }
}

void sweep_point(const SweepSpec *s, long long idx, SweepValue out[SWEEP_MAX_AXES])
{
    if (s->samples > 0) {
        for (int k = 0; k < s->n_axes; k++) {
            const SweepAxis *ax = &s->axes[k];
            double u = draw(s->seed, idx, k);
            if (ax->range && ax->steps == 0) {
                if (ax->f->type == FT_REAL) {
                    out[k].num = ax->lo + u * (ax->hi - ax->lo);
                } else { /* whole numbers equally likely, ends included */
                    double v = floor(ax->lo + u * (ax->hi - ax->lo + 1));
                    out[k].num = v > ax->hi ? ax->hi : v;
                }
                out[k].choice = -1;
            } else {
                long long n = axis_count(ax);
                long long c = (long long)(u * (double)n);
                set_index(ax, c >= n ? n - 1 : c, &out[k]);
            }
        }
        return;
    }
    for (int k = s->n_axes - 1; k >= 0; k--) {
        long long n = axis_count(&s->axes[k]);
        set_index(&s->axes[k], idx % n, &out[k]);
        idx /= n;
    }
}

/* Set axis k of the plan to value v. */
static int apply_value(const SweepAxis *ax, const SweepValue *v, const Catalog *cat, Plan *out,
                       char *err, size_t errlen)
{
    char e[320];
    int rc = v->choice >= 0 ? field_set(ax->f, out, ax->t, ax->values[v->choice], cat, e, sizeof e)
                            : field_set_number(ax->f, out, ax->t, v->num, e, sizeof e);
    return rc != 0 ? fail(-1, err, errlen, "%s: %s", ax->path, e) : 0;
}

int sweep_point_plan(const SweepSpec *s, const Plan *base, const Catalog *cat, long long idx,
                     Plan *out, char *err, size_t errlen)
{
    SweepValue v[SWEEP_MAX_AXES];
    sweep_point(s, idx, v);
    *out = *base;
    for (int k = 0; k < s->n_axes; k++)
        if (apply_value(&s->axes[k], &v[k], cat, out, err, errlen) != 0)
            return -1;
    Diag d = {0};
    if (plan_validate(out, cat, &d) != 0)
        return fail(-1, err, errlen, "%s", d.msg);
    return 0;
}

void sweep_row_outputs(const PlanResult *r, SweepRow *row)
{
    row->error[0] = '\0';
    row->gpus = r->have_layout ? r->cluster.gpus : NAN;
    row->train_days = NAN;
    row->fits = true;
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *w = &r->workloads[i];
        if (!w->ok) {
            row->fits = false;
            continue;
        }
        if (w->kind == WL_TRAINING) {
            row->fits = row->fits && w->train.meets_target;
            if (isnan(row->train_days) || w->train.train_days > row->train_days)
                row->train_days = w->train.train_days;
        } else {
            row->fits = row->fits && w->infer.meets_slo;
        }
    }
    row->it_mw = r->have_power ? r->power.it_kw / 1e3 : NAN;
    row->facility_mw = r->have_power ? r->power.facility_kw / 1e3 : NAN;
    const CostResult *c = &r->cost;
    bool priced = r->have_cost && c->chosen >= 0 && c->chosen < c->n_options;
    bool cheap = r->have_cost && c->cheapest >= 0 && c->cheapest < c->n_options;
    row->tco_usd = priced ? c->options[c->chosen].tco_usd : NAN;
    row->usd_per_gpu_hour = priced ? c->options[c->chosen].usd_per_gpu_hour : NAN;
    row->cheapest_tco_usd = cheap ? c->options[c->cheapest].tco_usd : NAN;
    snprintf(row->cheapest, sizeof row->cheapest, "%s", cheap ? c->options[c->cheapest].name : "");
    /* the names of eval --json's cost.verdict.kind */
    static const char *const kinds[] = {"none", "build", "buy", "unpriced", "cloud-only"};
    snprintf(row->verdict, sizeof row->verdict, "%s",
             r->have_cost && c->verdict >= 0 && c->verdict < (int)(sizeof kinds / sizeof *kinds)
                 ? kinds[c->verdict] : "");
    /* signed so a sweep shows where the verdict flips: + build, - buy */
    row->build_margin_pct = !r->have_cost || c->onprem < 0 || c->cloud < 0 ? NAN
                            : c->verdict == COST_VERDICT_BUILD ? c->margin_pct
                            : c->verdict == COST_VERDICT_BUY ? -c->margin_pct : NAN;
    bool sched = r->have_schedule && r->schedule.ran;
    row->utilization = sched ? r->schedule.utilization : NAN;
    row->wait_p95_h = NAN;
    for (int i = 0; sched && i < r->schedule.n_teams; i++)
        if (isnan(row->wait_p95_h) || r->schedule.teams[i].wait_hours_p95 > row->wait_p95_h)
            row->wait_p95_h = r->schedule.teams[i].wait_hours_p95;
}

static void row_failed(SweepRow *row, const char *why)
{
    row->fits = false;
    for (int m = 0; m < sweep_n_metrics; m++) {
        double nan = NAN;
        memcpy((char *)row + sweep_metrics[m].off, &nan, sizeof nan);
    }
    row->verdict[0] = row->cheapest[0] = '\0';
    snprintf(row->error, sizeof row->error, "%s", why);
}

/* Points of a grid between grid steps of axis k. */
static long long axis_stride(const SweepSpec *s, int k)
{
    long long m = 1;
    for (int j = k + 1; j < s->n_axes; j++)
        m *= axis_count(&s->axes[j]);
    return m;
}

int sweep_stage_axes(const SweepSpec *s, const Plan *base, const Catalog *cat,
                     int outer[SWEEP_MAX_AXES])
{
    if (s->samples > 0 || s->n_axes < 2)
        return 0;
    struct Scratch {
        Plan first, other;
        EvalStageKeys a, b;
    } *w = big_zalloc(sizeof *w);
    char err[PLAN_TEXT_LEN];
    int n = 0;
    if (w && sweep_point_plan(s, base, cat, 0, &w->first, err, sizeof err) == 0) {
        eval_stage_keys(&w->first, &w->a);
        for (int k = 0; k < s->n_axes; k++) {
            const SweepAxis *ax = &s->axes[k];
            long long count = axis_count(ax);
            /* the first point with this axis at its second and at its last
             * value: a field a stage reads differs at both (a value that
             * does not set counts as a change: only the order, never a row,
             * depends on this) */
            bool changes = false;
            for (long long j = 1; !changes && j < count; j = j == count - 1 ? count : count - 1) {
                SweepValue v;
                set_index(ax, j, &v);
                w->other = w->first;
                changes = apply_value(ax, &v, cat, &w->other, err, sizeof err) != 0;
                if (!changes) {
                    eval_stage_keys(&w->other, &w->b);
                    changes = !eval_stage_keys_equal(&w->a, &w->b);
                }
            }
            if (changes)
                outer[n++] = k;
        }
    }
    big_free(w, sizeof *w);
    return n;
}

typedef struct {
    long long key, idx;
} OrderKey;

static int order_cmp(const void *a, const void *b)
{
    const OrderKey *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Points [lo, hi) with the stage axes outermost: sorted by their grid steps,
 * then by index; NULL when that is the index order already (the stage
 * axes lead) or on ENOMEM (then the index order is used: same rows). */
static OrderKey *stage_order(const SweepSpec *s, const Plan *base, const Catalog *cat,
                             long long lo, long long hi)
{
    int outer[SWEEP_MAX_AXES];
    int n = sweep_stage_axes(s, base, cat, outer);
    bool leading = true;
    for (int t = 0; t < n; t++)
        leading = leading && outer[t] == t;
    if (leading || hi - lo < 2)
        return NULL;
    OrderKey *o = malloc((size_t)(hi - lo) * sizeof *o);
    if (!o)
        return NULL;
    long long stride[SWEEP_MAX_AXES], count[SWEEP_MAX_AXES];
    for (int t = 0; t < n; t++) {
        stride[t] = axis_stride(s, outer[t]);
        count[t] = axis_count(&s->axes[outer[t]]);
    }
    for (long long i = lo; i < hi; i++) {
        long long key = 0;
        for (int t = 0; t < n; t++)
            key = key * count[t] + i / stride[t] % count[t];
        o[i - lo] = (OrderKey){key, i};
    }
    qsort(o, (size_t)(hi - lo), sizeof *o, order_cmp);
    return o;
}

int sweep_evaluate(const SweepSpec *s, const Plan *base, const Catalog *cat, long long lo,
                   long long hi, SweepRow *rows)
{
    return sweep_evaluate_with(s, base, cat, lo, hi, rows, NULL);
}

int sweep_evaluate_with(const SweepSpec *s, const Plan *base, const Catalog *cat, long long lo,
                        long long hi, SweepRow *rows, EvalCache *cache)
{
    /* the point's plan and result, touched on every point: one block */
    struct Work {
        Plan p;
        PlanResult r;
    } *w = big_zalloc(sizeof *w);
    if (!w)
        return -1;
    Plan *p = &w->p;
    PlanResult *r = &w->r;
    EvalOptions opt = eval_options_default();
    opt.alternatives = false; /* the Sizing pane's ranking: not a sweep output */
    /* points that change only prices, PUE, the horizon or the site reuse the
     * sizing and the scheduler run of an earlier point (evaluate.h) */
    opt.cache = cache ? cache : eval_cache_new();
    if (!opt.cache) {
        big_free(w, sizeof *w);
        return -1;
    }
    OrderKey *order = stage_order(s, base, cat, lo, hi);
    for (long long k = lo; k < hi; k++) {
        long long i = order ? order[k - lo].idx : k;
        SweepRow *row = &rows[i - lo];
        memset(row, 0, sizeof *row);
        row->idx = i;
        sweep_point(s, i, row->in);
        char err[PLAN_TEXT_LEN];
        if (sweep_point_plan(s, base, cat, i, p, err, sizeof err) != 0) {
            row_failed(row, err);
            continue;
        }
        plan_evaluate_ex(p, cat, &opt, r);
        sweep_row_outputs(r, row);
    }
    free(order);
    if (!cache)
        eval_cache_free(opt.cache);
    big_free(w, sizeof *w);
    return 0;
}

void sweep_shard_range(long long n_points, int i, int n, long long *lo, long long *hi)
{
    *lo = n_points * i / n;
    *hi = n_points * (i + 1) / n;
}

/* ---------------------------------------------------------------- text */

double sweep_value_number(const SweepAxis *ax, const SweepValue *v)
{
    if (ax->numeric)
        return v->num / bare_unit(ax->f);
    return v->choice;
}

const char *sweep_value_text(const SweepAxis *ax, const SweepValue *v, char *buf, size_t len)
{
    if (v->choice >= 0 && !ax->numeric)
        snprintf(buf, len, "%s", ax->values[v->choice]);
    else
        snprintf(buf, len, "%.6g", v->num / bare_unit(ax->f));
    return buf;
}

#define JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(17))

static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static char *dump(json_t *j)
{
    char *s = j ? json_dumps(j, JSON_FLAGS) : NULL;
    json_decref(j);
    return s;
}

char *sweep_spec_json(const SweepSpec *s)
{
    json_t *o = json_object(), *vary = json_array();
    if (!o || !vary) {
        json_decref(o);
        json_decref(vary);
        return NULL;
    }
    for (int k = 0; k < s->n_axes; k++) {
        char buf[FIELDS_PATH_LEN + 260];
        snprintf(buf, sizeof buf, "%s=%s", s->axes[k].path, s->axes[k].spec);
        json_array_append_new(vary, json_string(buf));
    }
    json_object_set_new(o, "name", json_string(s->name));
    json_object_set_new(o, "vary", vary);
    json_object_set_new(o, "samples", json_integer(s->samples));
    /* a seed may exceed 2^63: keep all 64 bits as text */
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->seed);
    json_object_set_new(o, "seed", json_string(seed));
    json_object_set_new(o, "points", json_integer(s->n_points));
    return dump(o);
}

char *sweep_inputs_json(const SweepSpec *s, const SweepRow *row)
{
    json_t *a = json_array();
    for (int k = 0; a && k < s->n_axes; k++) {
        const SweepAxis *ax = &s->axes[k];
        json_array_append_new(a, ax->numeric ? jnum(sweep_value_number(ax, &row->in[k]))
                                             : json_string(ax->values[row->in[k].choice]));
    }
    return dump(a);
}

char *sweep_outputs_json(const SweepRow *row)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "fits", json_boolean(row->fits && !row->error[0]));
    for (int m = 0; m < sweep_n_metrics; m++) {
        double v;
        memcpy(&v, (const char *)row + sweep_metrics[m].off, sizeof v);
        json_object_set_new(o, sweep_metrics[m].key, jnum(v));
    }
    json_object_set_new(o, "verdict", json_string(row->verdict));
    json_object_set_new(o, "cheapest", json_string(row->cheapest));
    return dump(o);
}

int sweep_spec_vary(const char *spec_json, char **out, int max, long long *samples,
                    uint64_t *seed)
{
    json_error_t je;
    json_t *o = json_loads(spec_json, 0, &je);
    json_t *vary = o ? json_object_get(o, "vary") : NULL;
    json_t *sd = o ? json_object_get(o, "seed") : NULL;
    if (!json_is_array(vary) || !json_is_string(sd)) {
        json_decref(o);
        return -1;
    }
    int n = 0;
    size_t i;
    json_t *v;
    json_array_foreach(vary, i, v)
    {
        if (n < max && json_is_string(v) && (out[n] = strdup(json_string_value(v))) != NULL)
            n++;
    }
    if (samples)
        *samples = json_integer_value(json_object_get(o, "samples"));
    if (seed)
        *seed = strtoull(json_string_value(sd), NULL, 10);
    json_decref(o);
    return n;
}

void sweep_fingerprint(const char *plan_yaml, const char *spec_json, char out[17])
{
    uint64_t h = HASH_FNV1A64_BASIS;
    h = hash_fnv1a64(h, plan_yaml);
    h = hash_fnv1a64(h, "\n--\n");
    h = hash_fnv1a64(h, spec_json);
    h = hash_fnv1a64(h, "\n--\n" PACKAGE_STRING);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}
