/* views/sensitivity.c — the Sensitivity pane: in words, which assumptions
 * decide the build-vs-buy verdict and where it flips; the Monte Carlo
 * P10/P50/P90 beside the point estimate; a tornado of the plan's TCO over
 * each assumption's range (left of the axis the low end, right the high
 * end; a bar that flips the verdict is marked).  Formats the SensResult /
 * McResult the worker computed in the background (tui/worker.c); never
 * computes one. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "tui/app.h"

typedef struct {
    int scroll;
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

static const char *usd_b(double v, char *buf, size_t len)
{
    return fmt_usd(v, buf, len);
}

/* "GPUs 18,768 / 18,944 / 18,984 (point 18,808)" */
static void pct_line(char *out, size_t len, const char *what, const Percentiles *p, double point,
                     int money, const char *fmt)
{
    char a[32], b[32], c[32], d[32];
    if (money) {
        snprintf(out, len, "%s %s / %s / %s (point %s)", what, usd_b(p->p10, a, sizeof a),
                 usd_b(p->p50, b, sizeof b), usd_b(p->p90, c, sizeof c),
                 usd_b(point, d, sizeof d));
        return;
    }
    snprintf(a, sizeof a, fmt, p->p10);
    snprintf(b, sizeof b, fmt, p->p50);
    snprintf(c, sizeof c, fmt, p->p90);
    snprintf(d, sizeof d, fmt, point);
    snprintf(out, len, "%s %s / %s / %s (point %s)", what, a, b, c, d);
}

static void s_draw(View *v, App *app, Rect r)
{
    SState *st = v->state;
    term_clear_rect(r, ROLE_NORMAL);
    const SensResult *s = app_sensitivity(app);
    const McResult *m = app_monte_carlo(app);
    if (!s || !m) {
        term_put(r.y + 1, r.x + 2, r.w - 2, ROLE_MUTED,
                 "computing the sensitivity and Monte Carlo ranges in the background...");
        return;
    }
    Canvas c;
    canvas_begin(&c, r, &st->scroll);
    char line[512], a[48], b[48];
    int y = canvas_next(&c);
    if (y >= 0) {
        snprintf(line, sizeof line, "Verdict: %s%s%s%s", verdict_name(s->base.verdict),
                 s->base.cloud[0] ? " (cloud rival " : "", s->base.cloud,
                 s->base.cloud[0] ? ")" : "");
        term_put_ellipsis(y, r.x + 1, r.w - 2, ROLE_TITLE, line);
        if (app_ranges_stale(app))
            term_put_right(y, r.x, r.w - 1, ROLE_WARNING, "updating");
    }
    canvas_wrap(&c, 1, s->n_deciders ? ROLE_WARNING : ROLE_GOOD, s->sentence);
    y = canvas_next(&c);
    y = canvas_next(&c);
    if (y >= 0) {
        snprintf(line, sizeof line, "Monte Carlo P10 / P50 / P90, %d samples of %d assumptions "
                 "(seed %llu); %.0f%% give the other verdict",
                 m->samples, m->n_knobs, (unsigned long long)m->seed,
                 m->share_other_verdict * 100);
        term_put_ellipsis(y, r.x + 1, r.w - 2, ROLE_LABEL, line);
    }
    const char *items[4];
    char l1[160], l2[160], l3[160], l4[160];
    pct_line(l1, sizeof l1, "GPUs", &m->gpus, s->base.gpus, 0, "%.0f");
    pct_line(l2, sizeof l2, "days", &m->days, s->base.days, 0, "%.1f");
    pct_line(l3, sizeof l3, "MW", &m->mw, s->base.mw, 0, "%.1f");
    pct_line(l4, sizeof l4, "TCO", &m->tco, s->base.tco, 1, NULL);
    int n = 0;
    items[n++] = l4;
    items[n++] = l1;
    if (s->base.days > 0)
        items[n++] = l2;
    items[n++] = l3;
    canvas_fields(&c, 3, ROLE_VALUE, items, n);
    y = canvas_next(&c);
    y = canvas_next(&c);
    if (y >= 0)
        term_put_ellipsis(y, r.x + 1, r.w - 2, ROLE_LABEL,
                          "Tornado: the plan's TCO with each assumption at its low | high end");
    /* label | low value | bar left | bar right | high value | flag */
    int lw = 16, vw = 8, trail = r.w >= 100 ? 24 : 16;
    int bw = (r.w - 2 - lw - 2 * vw - 4 - trail) / 2;
    if (bw < 4)
        bw = 4;
    double maxd = 0;
    for (int i = 0; i < s->n_bars; i++) {
        double dl = fabs(s->bars[i].at_low.tco - s->base.tco);
        double dh = fabs(s->bars[i].at_high.tco - s->base.tco);
        maxd = fmax(maxd, fmax(dl, dh));
    }
    for (int i = 0; i < s->n_bars; i++) {
        const SensBar *bar = &s->bars[i];
        y = canvas_next(&c);
        if (y < 0)
            continue;
        int x = r.x + 1;
        term_put_ellipsis(y, x, lw, bar->flips ? ROLE_WARNING : ROLE_LABEL,
                          sens_knob_label(bar->knob));
        x += lw + 1;
        sens_format_short(bar->knob, bar->low, a, sizeof a);
        term_put_right(y, x, vw, ROLE_MUTED, a);
        x += vw + 1;
        /* left half grows leftwards from the axis: draw as a right-aligned
         * run of full cells; the right half as a normal bar */
        double dl = bar->at_low.tco - s->base.tco, dh = bar->at_high.tco - s->base.tco;
        int cl = maxd > 0 ? (int)lround(fabs(dl) / maxd * bw) : 0;
        int ch = maxd > 0 ? (int)lround(fabs(dh) / maxd * bw) : 0;
        for (int k = 0; k < cl && k < bw; k++)
            term_put(y, x + bw - 1 - k, 1, dl > 0 ? ROLE_BAD : ROLE_GOOD, term_glyphs->eighths[8]);
        term_put(y, x + bw, 1, ROLE_BORDER, term_glyphs->v);
        for (int k = 0; k < ch && k < bw; k++)
            term_put(y, x + bw + 1 + k, 1, dh > 0 ? ROLE_BAD : ROLE_GOOD, term_glyphs->eighths[8]);
        x += 2 * bw + 2;
        sens_format_short(bar->knob, bar->high, b, sizeof b);
        term_put_ellipsis(y, x, vw, ROLE_MUTED, b);
        x += vw + 1;
        if (bar->flips) {
            char f[48];
            sens_format_short(bar->knob, bar->flip_value, f, sizeof f);
            snprintf(line, sizeof line, "%s at %s", r.w >= 100 ? "verdict flips" : "flips", f);
            term_put_ellipsis(y, x, r.x + r.w - x - 1, ROLE_WARNING, line);
        } else {
            snprintf(line, sizeof line, "%s%s", usd_b(bar->swing_tco, a, sizeof a),
                     bar->from_plan ? " (plan)" : "");
            term_put_ellipsis(y, x, r.x + r.w - x - 1, ROLE_MUTED, line);
        }
    }
    y = canvas_next(&c);
    y = canvas_next(&c);
    if (y >= 0) {
        snprintf(line, sizeof line, "%d evaluations; ranges from the plan's ranges: or the "
                 "catalog's uncertainty.yaml", s->evaluations + m->evaluations);
        term_put_ellipsis(y, r.x + 1, r.w - 2, ROLE_MUTED, line);
    }
    canvas_end(&c, &st->scroll);
}

static int s_key(View *v, App *app, Action a, int ch)
{
    (void)ch;
    SState *st = v->state;
    return app_scroll(&st->scroll, a, app->geo.pane.h - 1);
}

const ViewOps view_sensitivity_ops = {
    .name = "Sensitivity",
    .abbrev = "Sens",
    .ctx = CTX_PANE,
    .create = s_create,
    .draw = s_draw,
    .key = s_key,
    .destroy = s_destroy,
};
