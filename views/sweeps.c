/* views/sweeps.c — the Sweeps tab: the stored sweeps of the plan now open
 * (`gpuplan sweep`, plans/sweep.h) drawn with axes.  One varied input is a
 * curve (one bar per input value against the chosen output, the value axis
 * with ticks below: the Sizing pane's GPUs-vs-days drawing); two are a heat
 * map (rows one input, columns the other, a shade per cell with its value
 * when it fits, a scale legend, a cursor naming the cell's inputs and
 * value); a Monte Carlo is a histogram of the output with P10/P50/P90
 * marked.  Inputs beyond the two drawn are held at one value each (f steps
 * through them).
 *
 * Rows are read on a thread of their own with its own store connection and
 * parsed there (a 10,000-row sweep takes tens of milliseconds of JSON), so a
 * keystroke never waits for a load; the thread wakes the main loop when the
 * rows are in. */
#include "config.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "fmt.h"
#include "sensitivity.h"
#include "sweep.h"
#include "tui/app.h"

#define LOAD_MAX_ROWS 2000000LL      /* rows drawn at most (the rest are counted) */
#define HEAT_LEVELS 5
#define HIST_BINS_MAX 24

/* The outputs in the order m cycles them (the issue's headline numbers
 * first); keys of sweep_metrics. */
static const char *const metric_order[] = {
    "tco_usd", "gpus", "train_days", "facility_mw", "build_margin_pct", "wait_p95_h",
    "it_mw", "cheapest_tco_usd", "usd_per_gpu_hour", "utilization",
};
#define N_ORDER ((int)(sizeof metric_order / sizeof metric_order[0]))

typedef struct {
    char key[FIELDS_PATH_LEN];       /* the key path as --vary gave it */
    bool numeric;
    int n;                           /* distinct values (grid) or choices seen */
    double *vals;                    /* numeric: distinct values, ascending */
    char (*names)[SWEEP_VALUE_LEN];  /* choices: the names, in first-seen order */
    int n_names, cap_names;
} LAxis;

/* One loaded sweep: what the thread hands to the view. */
typedef struct {
    char plan[PLAN_NAME_LEN], name[PLAN_NAME_LEN];
    int plan_version;
    long long points, stored;
    long long samples;               /* > 0: Monte Carlo */
    uint64_t seed;
    int n_axes;
    LAxis ax[SWEEP_MAX_AXES];
    long long n, cap;                /* rows loaded */
    long long *idx;
    double *in;                      /* n × n_axes: a number, or a choice's index */
    int *pos;                        /* n × n_axes: index in ax[k] (grid) */
    double *out;                     /* n × sweep_n_metrics, NAN = none */
    long long n_errors, skipped;
    char err[600];
    double load_ms;
} Loaded;

typedef struct {
    /* the sweeps of plan */
    char plan[PLAN_NAME_LEN];
    bool listed;
    StoreSweepInfo *list;
    int n_list;
    int sel;                         /* in list, -1 = none */
    /* the loader */
    pthread_t th;
    bool running;
    atomic_int done, cancel;
    Loaded *pending;                 /* the thread's, until done */
    char db_path[1024];
    int wake_fd;
    char want_plan[PLAN_NAME_LEN], want_name[PLAN_NAME_LEN];
    /* what is drawn */
    Loaded *cur;
    int metric;                      /* in metric_order */
    int xa, ya;                      /* axes drawn; ya -1 = a curve */
    int hold[SWEEP_MAX_AXES];        /* held value of the other axes */
    int cx, cy, xoff;                /* heat map cursor, first column shown */
    int scroll;
    /* the histogram's sorted values, per metric */
    double *sorted;
    long long n_sorted;
    int sorted_metric;
    const Loaded *sorted_of;
} SwState;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int metric_index(const char *key)
{
    for (int m = 0; m < sweep_n_metrics; m++)
        if (strcmp(sweep_metrics[m].key, key) == 0)
            return m;
    return 0;
}

static void loaded_free(Loaded *l)
{
    if (!l)
        return;
    for (int k = 0; k < l->n_axes; k++) {
        free(l->ax[k].vals);
        free(l->ax[k].names);
    }
    free(l->idx);
    free(l->in);
    free(l->pos);
    free(l->out);
    free(l);
}

/* ---------------------------------------------------------------- loading */

static int choice_of(LAxis *a, const char *s)
{
    for (int i = 0; i < a->n_names; i++)
        if (strcmp(a->names[i], s) == 0)
            return i;
    if (a->n_names == a->cap_names) {
        int cap = a->cap_names ? 2 * a->cap_names : 8;
        void *g = realloc(a->names, (size_t)cap * sizeof *a->names);
        if (!g)
            return -1;
        a->names = g;
        a->cap_names = cap;
    }
    snprintf(a->names[a->n_names], SWEEP_VALUE_LEN, "%s", s);
    return a->n_names++;
}

typedef struct {
    Loaded *l;
    atomic_int *cancel;
} LoadCtx;

static int load_row(const StoreSweepRow *r, void *ctx)
{
    LoadCtx *lc = ctx;
    Loaded *l = lc->l;
    if (atomic_load(lc->cancel))
        return 1;
    if (r->error[0]) {
        l->n_errors++;
        return 0;
    }
    if (l->n >= LOAD_MAX_ROWS) {
        l->skipped++;
        return 0;
    }
    if (l->n == l->cap) {
        long long cap = l->cap ? 2 * l->cap : 1024;
        long long *idx = realloc(l->idx, (size_t)cap * sizeof *idx);
        if (idx)
            l->idx = idx;
        double *in = realloc(l->in, (size_t)(cap * (l->n_axes ? l->n_axes : 1)) * sizeof *in);
        if (in)
            l->in = in;
        double *out = realloc(l->out, (size_t)(cap * sweep_n_metrics) * sizeof *out);
        if (out)
            l->out = out;
        if (!idx || !in || !out)
            return -2;
        l->cap = cap;
    }
    json_error_t je;
    json_t *in = json_loads(r->inputs, JSON_DECODE_ANY, &je);
    json_t *out = json_loads(r->outputs, 0, &je);
    if (!json_is_array(in) || !json_is_object(out)) {
        json_decref(in);
        json_decref(out);
        l->n_errors++;
        return 0;
    }
    long long i = l->n;
    l->idx[i] = r->idx;
    for (int k = 0; k < l->n_axes; k++) {
        json_t *v = json_array_get(in, (size_t)k);
        double x = NAN;
        if (json_is_number(v)) {
            x = json_number_value(v);
        } else if (json_is_string(v)) {
            l->ax[k].numeric = false;
            int c = choice_of(&l->ax[k], json_string_value(v));
            x = c;
        }
        l->in[i * l->n_axes + k] = x;
    }
    for (int m = 0; m < sweep_n_metrics; m++) {
        json_t *v = json_object_get(out, sweep_metrics[m].key);
        l->out[i * sweep_n_metrics + m] = json_is_number(v) ? json_number_value(v) : NAN;
    }
    json_decref(in);
    json_decref(out);
    l->n++;
    return 0;
}

/* A grid's axes: the distinct values of each numeric input, and every row's
 * position on each axis. */
static int index_axes(Loaded *l)
{
    if (l->samples > 0 || l->n == 0 || l->n_axes == 0)
        return 0;
    l->pos = malloc((size_t)(l->n * l->n_axes) * sizeof *l->pos);
    if (!l->pos)
        return -1;
    for (int k = 0; k < l->n_axes; k++) {
        LAxis *a = &l->ax[k];
        if (!a->numeric) {
            a->n = a->n_names;
            for (long long i = 0; i < l->n; i++)
                l->pos[i * l->n_axes + k] = (int)l->in[i * l->n_axes + k];
            continue;
        }
        double *v = malloc((size_t)l->n * sizeof *v);
        if (!v)
            return -1;
        long long nv = 0;
        for (long long i = 0; i < l->n; i++)
            if (isfinite(l->in[i * l->n_axes + k]))
                v[nv++] = l->in[i * l->n_axes + k];
        mc_sort(v, (size_t)nv);
        long long d = 0;
        for (long long i = 0; i < nv; i++)
            if (d == 0 || v[i] != v[d - 1])
                v[d++] = v[i];
        a->vals = v;
        a->n = (int)d;
        for (long long i = 0; i < l->n; i++) {
            double x = l->in[i * l->n_axes + k];
            long long lo = 0, hi = d - 1, at = -1;
            while (lo <= hi) {
                long long mid = (lo + hi) / 2;
                if (v[mid] == x) {
                    at = mid;
                    break;
                }
                if (v[mid] < x)
                    lo = mid + 1;
                else
                    hi = mid - 1;
            }
            l->pos[i * l->n_axes + k] = (int)at;
        }
    }
    return 0;
}

static void *load_main(void *arg)
{
    SwState *st = arg;
    Loaded *l = st->pending;
    double t0 = now_ms();
    Diag d = {0};
    Store *s = store_open(st->db_path, NULL, true, &d);
    char *spec = NULL;
    StoreSweepInfo info;
    if (!s) {
        snprintf(l->err, sizeof l->err, "cannot open the store: %s", d.msg);
        goto out;
    }
    if (store_sweep_get(s, st->want_plan, st->want_name, &info, &spec, &d) != 0) {
        snprintf(l->err, sizeof l->err, "%s", d.msg[0] ? d.msg : "cannot read the sweep");
        goto out;
    }
    snprintf(l->plan, sizeof l->plan, "%s", info.plan);
    snprintf(l->name, sizeof l->name, "%s", info.name);
    l->plan_version = info.plan_version;
    l->points = info.points;
    l->stored = info.stored;
    char *vary[SWEEP_MAX_AXES];
    int nv = sweep_spec_vary(spec, vary, SWEEP_MAX_AXES, &l->samples, &l->seed);
    if (nv < 0) {
        snprintf(l->err, sizeof l->err, "sweep '%s' has no readable spec", info.name);
        goto out;
    }
    for (int k = 0; k < nv; k++) {
        char *eq = strchr(vary[k], '=');
        size_t len = eq ? (size_t)(eq - vary[k]) : strlen(vary[k]);
        if (len >= sizeof l->ax[k].key)
            len = sizeof l->ax[k].key - 1;
        memcpy(l->ax[k].key, vary[k], len);
        l->ax[k].key[len] = '\0';
        l->ax[k].numeric = true;
        free(vary[k]);
    }
    l->n_axes = nv;
    LoadCtx lc = {l, &st->cancel};
    int rc = store_sweep_rows(s, st->want_plan, st->want_name, load_row, &lc, &d);
    if (rc == -2 || (rc == 0 && index_axes(l) != 0))
        snprintf(l->err, sizeof l->err, "out of memory reading sweep '%s'", info.name);
    else if (rc < 0)
        snprintf(l->err, sizeof l->err, "%s", d.msg[0] ? d.msg : "cannot read the rows");
out:
    free(spec);
    store_close(s);
    l->load_ms = now_ms() - t0;
    atomic_store(&st->done, 1);
    if (write(st->wake_fd, "s", 1) < 0) {
        /* the main loop polls again within a second */
    }
    return NULL;
}

/* Stop a load under way (its rows are dropped). */
static void load_stop(SwState *st)
{
    if (!st->running)
        return;
    atomic_store(&st->cancel, 1);
    pthread_join(st->th, NULL);
    st->running = false;
    loaded_free(st->pending);
    st->pending = NULL;
}

static void load_start(SwState *st, App *app, const char *plan, const char *name)
{
    load_stop(st);
    Loaded *l = calloc(1, sizeof *l);
    if (!l) {
        app_status(app, true, "out of memory");
        return;
    }
    snprintf(st->db_path, sizeof st->db_path, "%s", app->db_path);
    snprintf(st->want_plan, sizeof st->want_plan, "%s", plan);
    snprintf(st->want_name, sizeof st->want_name, "%s", name);
    st->wake_fd = app->wake_wr;
    st->pending = l;
    atomic_store(&st->done, 0);
    atomic_store(&st->cancel, 0);
    if (pthread_create(&st->th, NULL, load_main, st) != 0) {
        loaded_free(l);
        st->pending = NULL;
        app_status(app, true, "cannot start the sweep loader");
        return;
    }
    st->running = true;
}

/* Take a finished load (called from draw and keys, on the UI thread). */
static void load_take(SwState *st, App *app)
{
    if (!st->running || !atomic_load(&st->done))
        return;
    pthread_join(st->th, NULL);
    st->running = false;
    Loaded *l = st->pending;
    st->pending = NULL;
    if (l->err[0]) {
        app_status(app, true, "sweep: %s", l->err);
        loaded_free(l);
        return;
    }
    bool same = st->cur && strcmp(st->cur->plan, l->plan) == 0 &&
                strcmp(st->cur->name, l->name) == 0 && st->cur->n_axes == l->n_axes;
    loaded_free(st->cur);
    st->cur = l;
    st->sorted_of = NULL;
    if (!same) {
        /* a new sweep: its first two inputs, the others at their first value */
        st->xa = 0;
        st->ya = l->n_axes >= 2 && l->samples == 0 ? 1 : -1;
        memset(st->hold, 0, sizeof st->hold);
        st->cx = st->cy = st->xoff = 0;
        st->scroll = 0;
    }
    for (int k = 0; k < l->n_axes; k++)
        if (st->hold[k] >= l->ax[k].n)
            st->hold[k] = 0;
    if (app->log)
        fprintf(app->log, "sweep load rows=%lld load_ms=%.3f\n", l->n, l->load_ms), fflush(app->log);
}

static void relist(SwState *st, App *app)
{
    free(st->list);
    st->list = NULL;
    st->n_list = 0;
    snprintf(st->plan, sizeof st->plan, "%s", app->plan.name);
    st->listed = true;
    Diag d = {0};
    if (!app->store || store_sweep_list(app->store, app->plan.name, &st->list, &st->n_list, &d) != 0) {
        st->n_list = 0;
        if (d.msg[0])
            app_status(app, true, "sweeps: %s", d.msg);
    }
    /* keep the sweep shown when it is still there, else the newest */
    int keep = -1, newest = -1;
    for (int i = 0; i < st->n_list; i++) {
        if (st->cur && strcmp(st->list[i].name, st->cur->name) == 0 &&
            strcmp(st->list[i].plan, st->cur->plan) == 0)
            keep = i;
        if (newest < 0 || st->list[i].created >= st->list[newest].created)
            newest = i;
    }
    st->sel = keep >= 0 ? keep : newest;
    if (st->sel < 0) {
        load_stop(st);
        loaded_free(st->cur);
        st->cur = NULL;
        return;
    }
    load_start(st, app, st->list[st->sel].plan, st->list[st->sel].name);
}

/* ---------------------------------------------------------------- formats */

/* A value of output m, short (cells, ticks, bars). */
static const char *mval(int m, double v, char *buf, size_t len)
{
    const char *u = sweep_metrics[m].unit;
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else if (strcmp(u, "USD") == 0)
        fmt_usd(v, buf, len);
    else if (strcmp(u, "GPUs") == 0)
        fmt_int(llround(v), buf, len);
    else if (strcmp(u, "%") == 0)
        snprintf(buf, len, "%+.1f%%", v);
    else if (u[0] == '\0')
        snprintf(buf, len, "%.0f%%", v * 100);
    else if (fabs(v) >= 100)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.3g", v);
    return buf;
}

/* The same, with enough decimals that values res apart read apart (bin
 * edges, scale steps, cells); res <= 0 is mval. */
static const char *mval_res(int m, double v, double res, char *buf, size_t len)
{
    const char *u = sweep_metrics[m].unit;
    if (!(res > 0) || !isfinite(v))
        return mval(m, v, buf, len);
    bool share = u[0] == '\0';
    if (share) {
        v *= 100;
        res *= 100;
    }
    double div = 1;
    const char *suf = "";
    if (strcmp(u, "USD") == 0) {
        static const char *const sufs[] = {"", "k", "M", "B", "T"};
        int k = 0;
        for (double a = fabs(v); a >= 1000 && k < 4; a /= 1000)
            k++;
        div = pow(1000, k);
        suf = sufs[k];
    }
    int dec = (int)ceil(-log10(res / div));
    dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
    if (strcmp(u, "USD") == 0) {
        /* never coarser than fmt_usd */
        double sv = fabs(v / div);
        int base = div == 1 ? 2 : sv >= 100 ? 0 : sv >= 10 ? 1 : 2;
        dec = dec > base ? dec : base;
        snprintf(buf, len, "%s$%.*f%s", v < 0 ? "-" : "", dec, fabs(v / div), suf);
    } else if (strcmp(u, "GPUs") == 0 && dec == 0) {
        fmt_int(llround(v), buf, len);
    } else if (strcmp(u, "%") == 0) {
        snprintf(buf, len, "%+.*f%%", dec, v);
    } else {
        snprintf(buf, len, "%.*f%s", dec, v, share ? "%" : "");
    }
    return buf;
}

/* An input value on axis k (what a bare number means in the plan file). */
static const char *aval(const Loaded *l, int k, int at, char *buf, size_t len)
{
    const LAxis *a = &l->ax[k];
    if (at < 0 || at >= a->n)
        snprintf(buf, len, "?");
    else if (!a->numeric)
        snprintf(buf, len, "%s", a->names[at]);
    else
        snprintf(buf, len, "%.6g", a->vals[at]);
    return buf;
}

static const char *axis_metric(double v, char *buf, size_t len, const void *ctx)
{
    return mval(*(const int *)ctx, v, buf, len);
}

static const char *axis_count(double v, char *buf, size_t len, const void *ctx)
{
    (void)ctx;
    return fmt_int(llround(v), buf, len);
}

/* A metric's label for the middle of a sentence ("scale of the plan's
 * TCO"): a capitalised first word is lowered, an acronym ("GPUs", "IT
 * power") or a symbol ("$ per GPU-hour") is kept. */
static const char *metric_label_mid(int m, char *buf, size_t len)
{
    const char *l = sweep_metrics[m].label;
    snprintf(buf, len, "%s", l);
    if (isupper((unsigned char)l[0]) && islower((unsigned char)l[1]))
        buf[0] = (char)tolower((unsigned char)l[0]);
    return buf;
}

/* The label with its unit; mid: for the middle of a sentence. */
static const char *metric_name(int m, bool mid, char *buf, size_t len)
{
    char lb[64];
    const char *l = mid ? metric_label_mid(m, lb, sizeof lb) : sweep_metrics[m].label;
    const char *u = sweep_metrics[m].unit;
    if (u[0] && strcmp(u, "GPUs") != 0)
        snprintf(buf, len, "%s (%s)", l, u);
    else
        snprintf(buf, len, "%s", l);
    return buf;
}

/* Does row i sit on the held values of every axis but the drawn ones? */
static bool held(const SwState *st, const Loaded *l, long long i)
{
    for (int k = 0; k < l->n_axes; k++)
        if (k != st->xa && k != st->ya && l->pos[i * l->n_axes + k] != st->hold[k])
            return false;
    return true;
}

/* ---------------------------------------------------------------- drawing */

static void draw_curve(Canvas *c, SwState *st, const Loaded *l, int m)
{
    int nx = l->ax[st->xa].n;
    double *v = malloc((size_t)(nx > 0 ? nx : 1) * sizeof *v);
    if (!v)
        return;
    for (int i = 0; i < nx; i++)
        v[i] = NAN;
    for (long long i = 0; i < l->n; i++)
        if (held(st, l, i)) {
            int p = l->pos[i * l->n_axes + st->xa];
            if (p >= 0 && p < nx)
                v[p] = l->out[i * sweep_n_metrics + m];
        }
    double lo = 0, hi = 0;
    for (int i = 0; i < nx; i++)
        if (isfinite(v[i])) {
            lo = fmin(lo, v[i]);
            hi = fmax(hi, v[i]);
        }
    if (hi > 0)
        hi *= 1.05;
    if (lo < 0)
        lo *= 1.05;
    if (!(hi > lo))
        hi = lo + 1;
    char buf[64], line[300];
    int lw = 0;
    for (int i = 0; i < nx; i++)
        lw = fmax(lw, (int)strlen(aval(l, st->xa, i, buf, sizeof buf)));
    lw = lw < 6 ? 7 : lw > 14 ? 15 : lw + 1;
    int vw = 12, bw = c->r.w - lw - vw - 3;
    if (bw < 10)
        bw = 10;
    int y = canvas_next(c);
    if (y >= 0)
        term_put_ellipsis(y, c->r.x + 1, c->r.w - 2, ROLE_LABEL, l->ax[st->xa].key);
    int zero = (int)lround((0 - lo) / (hi - lo) * bw);
    for (int i = 0; i < nx; i++) {
        y = canvas_next(c);
        if (y < 0)
            continue;
        term_put_right(y, c->r.x + 1, lw - 1, ROLE_LABEL, aval(l, st->xa, i, buf, sizeof buf));
        int x = c->r.x + 1 + lw;
        if (!isfinite(v[i])) {
            term_put_ellipsis(y, x, bw, ROLE_MUTED, "no value at this point");
            continue;
        }
        if (lo >= 0) {
            BarSeg seg = {v[i], ROLE_SERIES1};
            widget_stacked_bar(y, x, bw, &seg, 1, hi, 0, ROLE_WARNING);
        } else {
            /* a signed output: bars grow from the zero tick either way */
            int e = (int)lround((v[i] - lo) / (hi - lo) * bw);
            int a = e < zero ? e : zero, b = e < zero ? zero : e;
            if (b == a)
                b = a + 1;
            term_fill(y, x + a, b - a, v[i] < 0 ? ROLE_BAD : ROLE_GOOD, term_glyphs->eighths[8]);
            term_put(y, x + zero, 1, ROLE_BORDER, term_glyphs->v);
        }
        term_put(y, x + bw + 1, vw, ROLE_VALUE, mval(m, v[i], line, sizeof line));
    }
    char an[64];
    snprintf(an, sizeof an, "%s", sweep_metrics[m].unit[0] ? sweep_metrics[m].unit : "share");
    canvas_bar_axis(c, c->r.x + 1 + lw, bw, lo, hi, an, axis_metric, &m);
    free(v);
}

static const char *const heat_utf8[HEAT_LEVELS] = {"·", "░", "▒", "▓", "█"};
static const char *const heat_ascii[HEAT_LEVELS] = {".", ":", "+", "#", "@"};

static int heat_level(double v, double lo, double hi)
{
    if (!(hi > lo))
        return HEAT_LEVELS / 2;
    int k = (int)floor((v - lo) / (hi - lo) * HEAT_LEVELS);
    return k < 0 ? 0 : k >= HEAT_LEVELS ? HEAT_LEVELS - 1 : k;
}

static void draw_heat(Canvas *c, SwState *st, const Loaded *l, int m)
{
    int nx = l->ax[st->xa].n, ny = l->ax[st->ya].n;
    if (nx <= 0 || ny <= 0)
        return;
    double *v = malloc((size_t)nx * ny * sizeof *v);
    if (!v)
        return;
    for (int i = 0; i < nx * ny; i++)
        v[i] = NAN;
    for (long long i = 0; i < l->n; i++)
        if (held(st, l, i)) {
            int px = l->pos[i * l->n_axes + st->xa], py = l->pos[i * l->n_axes + st->ya];
            if (px >= 0 && py >= 0)
                v[py * nx + px] = l->out[i * sweep_n_metrics + m];
        }
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < nx * ny; i++)
        if (isfinite(v[i])) {
            lo = fmin(lo, v[i]);
            hi = fmax(hi, v[i]);
        }
    const char *const *ramp = term_utf8 ? heat_utf8 : heat_ascii;
    char buf[64], line[400];
    /* cell width: a shade, the value, a gap; shades only when that is too wide */
    int vw = 1, xlw = 1, lw = 1;
    double res = hi > lo ? (hi - lo) / 20 : 0;
    for (int i = 0; i < nx * ny; i++)
        vw = fmax(vw, (int)strlen(mval_res(m, v[i], res, buf, sizeof buf)));
    for (int i = 0; i < nx; i++)
        xlw = fmax(xlw, (int)strlen(aval(l, st->xa, i, buf, sizeof buf)));
    for (int i = 0; i < ny; i++)
        lw = fmax(lw, (int)strlen(aval(l, st->ya, i, buf, sizeof buf)));
    lw = lw > 12 ? 13 : lw + 1;
    int room = c->r.w - 2 - lw - 1;
    int cw = (vw > xlw ? vw : xlw) + 3; /* a shade, a space, the value, a gap */
    bool values = cw * nx <= room;
    if (!values)
        cw = 2;
    int ncols = room / cw;
    if (ncols < 1)
        ncols = 1;
    if (ncols > nx)
        ncols = nx;
    if (st->cx >= nx)
        st->cx = nx - 1;
    if (st->cy >= ny)
        st->cy = ny - 1;
    if (st->cx < st->xoff)
        st->xoff = st->cx;
    if (st->cx >= st->xoff + ncols)
        st->xoff = st->cx - ncols + 1;
    int x0 = c->r.x + 1 + lw + 1;
    int y = canvas_next(c);
    if (y >= 0) {
        snprintf(line, sizeof line, "%s (rows) by %s (columns)", l->ax[st->ya].key,
                 l->ax[st->xa].key);
        term_put_ellipsis(y, c->r.x + 1, c->r.w - 2, ROLE_LABEL, line);
    }
    /* rows: the y axis upwards, its largest value on top */
    for (int r = ny - 1; r >= 0; r--) {
        y = canvas_next(c);
        if (y < 0)
            continue;
        term_put_right(y, c->r.x + 1, lw - 1, r == st->cy ? ROLE_TITLE : ROLE_LABEL,
                       aval(l, st->ya, r, buf, sizeof buf));
        term_put(y, c->r.x + 1 + lw, 1, ROLE_MUTED, term_glyphs->v);
        for (int j = 0; j < ncols; j++) {
            int col = st->xoff + j;
            double x = v[r * nx + col];
            int cx = x0 + j * cw;
            bool cur = col == st->cx && r == st->cy;
            if (!isfinite(x)) {
                term_put(y, cx, cw - 1, cur ? ROLE_SELECTION : ROLE_MUTED, " ");
                continue;
            }
            const char *g = ramp[heat_level(x, lo, hi)];
            if (values) {
                term_put(y, cx, 1, cur ? ROLE_SELECTION : ROLE_SERIES1, g);
                term_put_right(y, cx + 1, cw - 2, cur ? ROLE_SELECTION : ROLE_VALUE,
                               mval_res(m, x, res, buf, sizeof buf));
            } else {
                term_fill(y, cx, cw - 1, cur ? ROLE_SELECTION : ROLE_SERIES1, g);
            }
        }
    }
    /* the x axis: a rule with a tick under each labelled column, the labels */
    int step = values ? 1 : (xlw + 1 + cw - 1) / cw;
    y = canvas_next(c);
    if (y >= 0) {
        term_put(y, c->r.x + 1 + lw, 1, ROLE_MUTED, term_glyphs->bl);
        for (int j = 0; j < ncols * cw - 1; j++)
            term_put(y, x0 + j, 1, ROLE_MUTED, term_glyphs->h);
        for (int j = 0; j < ncols; j += step)
            term_put(y, values ? x0 + j * cw + cw - 2 : x0 + j * cw, 1, ROLE_MUTED,
                     term_utf8 ? "┬" : "+");
    }
    y = canvas_next(c);
    if (y >= 0)
        for (int j = 0; j < ncols; j += step) {
            aval(l, st->xa, st->xoff + j, buf, sizeof buf);
            if (values)
                term_put_right(y, x0 + j * cw, cw - 1, st->xoff + j == st->cx ? ROLE_TITLE : ROLE_LABEL, buf);
            else
                term_put(y, x0 + j * cw, step * cw, st->xoff + j == st->cx ? ROLE_TITLE : ROLE_LABEL, buf);
        }
    y = canvas_next(c);
    if (y >= 0) {
        snprintf(line, sizeof line, "%s %s%s", term_glyphs->arrow_r, l->ax[st->xa].key,
                 ncols < nx ? "  (columns scroll with <- ->)" : "");
        term_put_ellipsis(y, x0, c->r.x + c->r.w - x0 - 1, ROLE_LABEL, line);
    }
    /* the scale: each shade and the range of values it stands for */
    const char *items[HEAT_LEVELS + 1];
    char leg[HEAT_LEVELS][96], head[120], a[96], b[32];
    snprintf(head, sizeof head, "scale of %s:", metric_name(m, true, a, sizeof a));
    items[0] = head;
    int n = 1;
    if (isfinite(lo))
        for (int k = 0; k < HEAT_LEVELS; k++) {
            double e0 = lo + (hi - lo) * k / HEAT_LEVELS, e1 = lo + (hi - lo) * (k + 1) / HEAT_LEVELS;
            snprintf(leg[k], sizeof leg[k], "%s %s..%s", ramp[k],
                     mval_res(m, e0, (hi - lo) / HEAT_LEVELS, a, sizeof a),
                     mval_res(m, e1, (hi - lo) / HEAT_LEVELS, b, sizeof b));
            items[n++] = leg[k];
            if (!(hi > lo))
                break;
        }
    canvas_fields(c, 1, ROLE_LABEL, items, n);
    /* the cell under the cursor */
    double x = v[st->cy * nx + st->cx];
    char xa[64], ya[64], ml[64];
    snprintf(line, sizeof line, "cell: %s = %s, %s = %s: %s %s", l->ax[st->xa].key,
             aval(l, st->xa, st->cx, xa, sizeof xa), l->ax[st->ya].key,
             aval(l, st->ya, st->cy, ya, sizeof ya), metric_label_mid(m, ml, sizeof ml),
             isfinite(x) ? mval_res(m, x, res, buf, sizeof buf) : "no value (not stored or not evaluated)");
    canvas_wrap(c, 1, ROLE_VALUE, line);
    free(v);
}

static void draw_histogram(Canvas *c, SwState *st, const Loaded *l, int m)
{
    if (st->sorted_of != l || st->sorted_metric != m) {
        free(st->sorted);
        st->sorted = malloc((size_t)(l->n > 0 ? l->n : 1) * sizeof *st->sorted);
        st->n_sorted = 0;
        for (long long i = 0; st->sorted && i < l->n; i++)
            if (isfinite(l->out[i * sweep_n_metrics + m]))
                st->sorted[st->n_sorted++] = l->out[i * sweep_n_metrics + m];
        if (st->sorted)
            mc_sort(st->sorted, (size_t)st->n_sorted);
        st->sorted_of = l;
        st->sorted_metric = m;
    }
    char line[300], a[96], b[32], d[32], mn[32], mx[32];
    if (st->n_sorted == 0) {
        canvas_wrap(c, 1, ROLE_MUTED, "no sample has this output");
        return;
    }
    const double *s = st->sorted;
    int n = (int)(st->n_sorted > 0x7fffffff ? 0x7fffffff : st->n_sorted);
    double p10 = mc_quantile(s, n, 0.10), p50 = mc_quantile(s, n, 0.50),
           p90 = mc_quantile(s, n, 0.90);
    double lo = s[0], hi = s[n - 1];
    char ns[32];
    double pres = (hi - lo) / 100;
    snprintf(line, sizeof line, "P10 %s   P50 %s   P90 %s   (%s samples with a value; min %s, max %s)",
             mval_res(m, p10, pres, a, sizeof a), mval_res(m, p50, pres, b, sizeof b),
             mval_res(m, p90, pres, d, sizeof d), fmt_int(st->n_sorted, ns, sizeof ns),
             mval_res(m, lo, pres, mn, sizeof mn), mval_res(m, hi, pres, mx, sizeof mx));
    canvas_wrap(c, 1, ROLE_TITLE, line);
    /* as many bins as the pane has rows for, below the title and above the axis */
    int bins = c->r.h - c->line - 4;
    bins = bins < 6 ? 6 : bins > 20 ? 20 : bins;
    if (!(hi > lo))
        bins = 1;
    long long count[HIST_BINS_MAX] = {0};
    for (int i = 0; i < n; i++) {
        int k = hi > lo ? (int)floor((s[i] - lo) / (hi - lo) * bins) : 0;
        count[k < 0 ? 0 : k >= bins ? bins - 1 : k]++;
    }
    long long maxc = 1;
    for (int k = 0; k < bins; k++)
        if (count[k] > maxc)
            maxc = count[k];
    int lw = 0;
    char lab[HIST_BINS_MAX][48];
    for (int k = 0; k < bins; k++) {
        double e0 = lo + (hi - lo) * k / bins;
        snprintf(lab[k], sizeof lab[k], "%s", mval_res(m, e0, (hi - lo) / bins, a, sizeof a));
        lw = fmax(lw, (int)strlen(lab[k]));
    }
    lw += 2;
    int vw = 22, bw = c->r.w - lw - vw - 3;
    if (bw < 10)
        bw = 10;
    int y = canvas_next(c);
    if (y >= 0) {
        snprintf(line, sizeof line, "from %s", metric_name(m, true, a, sizeof a));
        term_put_ellipsis(y, c->r.x + 1, c->r.w - 2, ROLE_LABEL, line);
    }
    for (int k = 0; k < bins; k++) {
        y = canvas_next(c);
        if (y < 0)
            continue;
        double e0 = lo + (hi - lo) * k / bins, e1 = lo + (hi - lo) * (k + 1) / bins;
        char marks[64] = "";
        const struct { double v; const char *n; } ps[3] = {{p10, "P10"}, {p50, "P50"}, {p90, "P90"}};
        for (int j = 0; j < 3; j++)
            if ((ps[j].v >= e0 && ps[j].v < e1) || (k == bins - 1 && ps[j].v >= e0)) {
                size_t ml = strlen(marks);
                snprintf(marks + ml, sizeof marks - ml, " %s %s", term_glyphs->sel, ps[j].n);
            }
        bool marked = marks[0] != '\0';
        term_put_right(y, c->r.x + 1, lw - 1, marked ? ROLE_TITLE : ROLE_LABEL, lab[k]);
        BarSeg seg = {(double)count[k], marked ? ROLE_GOOD : ROLE_SERIES1};
        widget_stacked_bar(y, c->r.x + 1 + lw, bw, &seg, 1, (double)maxc * 1.05, 0, ROLE_WARNING);
        char cs[32];
        snprintf(line, sizeof line, "%s%s", fmt_int(count[k], cs, sizeof cs), marks);
        term_put_ellipsis(y, c->r.x + 2 + lw + bw, vw, marked ? ROLE_TITLE : ROLE_VALUE, line);
    }
    canvas_bar_axis(c, c->r.x + 1 + lw, bw, 0, (double)maxc * 1.05, "samples", axis_count, NULL);
}

static void sw_draw(View *v, App *app, Rect r)
{
    SwState *st = v->state;
    term_clear_rect(r, ROLE_NORMAL);
    if (!st->listed || strcmp(st->plan, app->plan.name) != 0)
        relist(st, app);
    load_take(st, app);
    Canvas c;
    canvas_begin(&c, r, &st->scroll);
    char line[600], a[64];
    if (st->n_list == 0) {
        canvas_next(&c);
        snprintf(line, sizeof line, "No sweeps stored for %s.  Make one with `gpuplan sweep %s "
                 "--vary KEY=A..B/N [--vary KEY=v1,v2]` (a grid; --samples N for a Monte Carlo), "
                 "then press r here.", app->plan.name, app->plan.name);
        canvas_wrap(&c, 1, ROLE_MUTED, line);
        canvas_end(&c, &st->scroll);
        return;
    }
    const Loaded *l = st->cur;
    if (!l || st->running) {
        int y = canvas_next(&c);
        if (y >= 0) {
            snprintf(line, sizeof line, "reading sweep '%s' in the background...",
                     st->sel >= 0 ? st->list[st->sel].name : "");
            term_put_ellipsis(y, r.x + 1, r.w - 2, ROLE_MUTED, line);
        }
        if (!l) {
            canvas_end(&c, &st->scroll);
            return;
        }
    }
    int m = metric_index(metric_order[st->metric]);
    int y = canvas_next(&c);
    if (y >= 0) {
        snprintf(line, sizeof line, "Sweep '%s' of %s@v%d: %s, %lld of %lld points%s", l->name,
                 l->plan, l->plan_version, l->samples > 0 ? "Monte Carlo" : "grid", l->stored,
                 l->points, l->stored < l->points ? " (shards missing)" : "");
        term_put_ellipsis(y, r.x + 1, r.w - 2, ROLE_TITLE, line);
    }
    const char *items[4];
    char f1[160], f2[200], f3[200], f4[300];
    snprintf(f1, sizeof f1, "m: %s", metric_name(m, false, a, sizeof a));
    items[0] = f1;
    int n = 1;
    if (l->samples == 0 && l->n_axes > 0) {
        snprintf(f2, sizeof f2, "x: %s", l->ax[st->xa].key);
        items[n++] = f2;
        if (l->n_axes >= 2) {
            snprintf(f3, sizeof f3, "y: %s", st->ya >= 0 ? l->ax[st->ya].key : "none (a curve)");
            items[n++] = f3;
        }
        size_t used = 0;
        f4[0] = '\0';
        for (int k = 0; k < l->n_axes; k++) {
            if (k == st->xa || k == st->ya)
                continue;
            char b[64];
            used += (size_t)snprintf(f4 + used, sizeof f4 - used, "%s%s = %s", used ? ", " : "f: held ",
                                     l->ax[k].key, aval(l, k, st->hold[k], b, sizeof b));
            if (used >= sizeof f4)
                break;
        }
        if (f4[0])
            items[n++] = f4;
    } else if (l->samples > 0) {
        char ns[32];
        snprintf(f2, sizeof f2, "%s samples, seed %llu, of %d input%s", fmt_int(l->samples, ns, sizeof ns),
                 (unsigned long long)l->seed, l->n_axes, l->n_axes == 1 ? "" : "s");
        items[n++] = f2;
    }
    canvas_fields(&c, 1, ROLE_LABEL, items, n);
    if (l->n_errors || l->skipped) {
        snprintf(line, sizeof line, "%lld points not evaluated (invalid plans)%s", l->n_errors,
                 l->skipped ? "; rows beyond 2,000,000 not drawn" : "");
        canvas_wrap(&c, 1, ROLE_WARNING, line);
    }
    canvas_next(&c);
    if (l->n == 0)
        canvas_wrap(&c, 1, ROLE_MUTED, "no evaluated rows stored yet");
    else if (l->samples > 0)
        draw_histogram(&c, st, l, m);
    else if (st->ya >= 0)
        draw_heat(&c, st, l, m);
    else
        draw_curve(&c, st, l, m);
    canvas_end(&c, &st->scroll);
}

/* ---------------------------------------------------------------- keys */

static void sweep_picked(App *app, int index, const char *item, void *ctx)
{
    (void)item;
    View *v = ctx;
    SwState *st = v->state;
    if (index < 0 || index >= st->n_list)
        return;
    st->sel = index;
    load_start(st, app, st->list[index].plan, st->list[index].name);
}

/* The axis after `from` in 0 … n_axes-1 (and -1, none, when allow_none),
 * leaving out `skip` (the other drawn axis). */
static int next_axis(const Loaded *l, int from, int skip, bool allow_none)
{
    int first = allow_none ? -1 : 0, span = l->n_axes - first;
    for (int step = 1; step <= span; step++) {
        int k = first + (from - first + step) % span;
        if (k != skip)
            return k;
    }
    return from;
}

static int sw_key(View *v, App *app, Action a, int ch)
{
    (void)ch;
    SwState *st = v->state;
    load_take(st, app);
    const Loaded *l = st->cur;
    bool grid = l && l->samples == 0 && l->n_axes > 0 && l->pos;
    switch (a) {
    case ACT_SWEEP_PICK: {
        if (!st->listed)
            relist(st, app);
        if (st->n_list == 0) {
            app_status(app, true, "no sweeps stored for %s (gpuplan sweep %s --vary ...)",
                       app->plan.name, app->plan.name);
            return HR_HANDLED | HR_REDRAW;
        }
        const char *items[PICK_MAX];
        char text[PICK_MAX][96];
        int n = st->n_list < PICK_MAX ? st->n_list : PICK_MAX;
        for (int i = 0; i < n; i++) {
            snprintf(text[i], sizeof text[i], "%s  (%lld points, v%d)", st->list[i].name,
                     st->list[i].points, st->list[i].plan_version);
            items[i] = text[i];
        }
        app_prompt_pick(app, "Sweep", items, n, st->sel > 0 ? st->sel : 0, sweep_picked, v);
        return HR_HANDLED | HR_REDRAW;
    }
    case ACT_SWEEP_RELOAD:
        relist(st, app);
        app_status(app, false, "%d sweep%s stored for %s", st->n_list, st->n_list == 1 ? "" : "s",
                   app->plan.name);
        return HR_HANDLED | HR_REDRAW;
    case ACT_METRIC_NEXT:
    case ACT_METRIC_PREV:
        st->metric = (st->metric + (a == ACT_METRIC_NEXT ? 1 : N_ORDER - 1)) % N_ORDER;
        return HR_HANDLED | HR_REDRAW;
    case ACT_AXIS_X:
        if (grid && l->n_axes >= 2) {
            st->xa = next_axis(l, st->xa, st->ya, false);
            st->cx = st->xoff = 0;
        }
        return HR_HANDLED | HR_REDRAW;
    case ACT_AXIS_Y:
        if (grid && l->n_axes >= 2) {
            st->ya = next_axis(l, st->ya, st->xa, true);
            st->cy = 0;
        }
        return HR_HANDLED | HR_REDRAW;
    case ACT_HOLD_NEXT:
        /* the held values, as an odometer (the last held axis fastest) */
        if (grid)
            for (int k = l->n_axes - 1; k >= 0; k--) {
                if (k == st->xa || k == st->ya)
                    continue;
                if (++st->hold[k] < l->ax[k].n)
                    break;
                st->hold[k] = 0;
            }
        return HR_HANDLED | HR_REDRAW;
    default:
        break;
    }
    if (grid && st->ya >= 0) {
        int nx = l->ax[st->xa].n, ny = l->ax[st->ya].n;
        switch (a) {
        case ACT_LEFT:
            st->cx = st->cx > 0 ? st->cx - 1 : 0;
            return HR_HANDLED | HR_REDRAW;
        case ACT_RIGHT:
            st->cx = st->cx + 1 < nx ? st->cx + 1 : st->cx;
            return HR_HANDLED | HR_REDRAW;
        case ACT_UP: /* rows run upwards */
            st->cy = st->cy + 1 < ny ? st->cy + 1 : st->cy;
            return HR_HANDLED | HR_REDRAW;
        case ACT_DOWN:
            st->cy = st->cy > 0 ? st->cy - 1 : 0;
            return HR_HANDLED | HR_REDRAW;
        default:
            break;
        }
    }
    return app_scroll(&st->scroll, a, app->geo.pane.h - 1);
}

static void *sw_create(App *app)
{
    (void)app;
    SwState *st = calloc(1, sizeof *st);
    if (st) {
        st->sel = -1;
        st->ya = -1;
        st->sorted_metric = -1;
    }
    return st;
}

static void sw_show(View *v, App *app)
{
    /* a sweep made in another shell since: list again on every visit */
    SwState *st = v->state;
    if (!st->running)
        relist(st, app);
}

static void sw_destroy(View *v)
{
    SwState *st = v->state;
    load_stop(st);
    loaded_free(st->cur);
    free(st->list);
    free(st->sorted);
    free(st);
}

const ViewOps view_sweeps_ops = {
    .name = "Sweeps",
    .abbrev = "Sweep",
    .ctx = CTX_PANE | CTX_SWEEP,
    .create = sw_create,
    .draw = sw_draw,
    .key = sw_key,
    .show = sw_show,
    .destroy = sw_destroy,
};
