/* views/scenario.c — live scenarios: `:fork NAME` forks the working copy
 * (with its unsaved edits) into scenario B; the side being edited is the
 * app's plan, the other side is kept here and evaluated on a second worker.
 * Above the selected pane a strip shows A | B | Δ of the headline numbers
 * (GPUs, days, MW, TCO, verdict, worst p95 wait), recomputed live as either
 * side is edited.  `:scenario swap` edits the other side, `:scenario save`
 * (or F2) saves the side being edited as a plan under its name,
 * `:scenario close` drops the other side. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "sensitivity.h"
#include "tui/app.h"

struct Scenario {
    Worker *worker;              /* evaluates the other side */
    Plan *other;
    int other_version;
    bool other_modified;
    PlanResult *other_result;
    uint64_t other_gen, other_result_gen;
    int editing;                 /* 0: A is the app's plan, 1: B is */
    char name[2][PLAN_NAME_LEN]; /* labels of A and B */
};

bool scenario_active(const App *app)
{
    return app->scen != NULL;
}

void scenario_free(App *app)
{
    Scenario *s = app->scen;
    if (!s)
        return;
    worker_stop(s->worker);
    free(s->other);
    free(s->other_result);
    free(s);
    app->scen = NULL;
}

static void submit_other(App *app)
{
    Scenario *s = app->scen;
    s->other_gen++;
    worker_submit(s->worker, s->other, s->other_gen);
    app->dirty = true;
}

void scenario_poll(App *app)
{
    Scenario *s = app->scen;
    if (s && worker_take(s->worker, s->other_result, &s->other_result_gen, NULL))
        app->dirty = true;
}

static int fork_plan(App *app, const char *name)
{
    if (app->scen) {
        app_status(app, true, "fork: already comparing %s | %s (:scenario close first)",
                   app->scen->name[0], app->scen->name[1]);
        return HR_REDRAW;
    }
    if (!name || !*name || !store_name_valid(name)) {
        app_status(app, true, "fork: give the scenario a plan name (letters, digits, . _ - "
                              "space; at most 64)");
        return HR_REDRAW;
    }
    if (strcmp(name, app->plan.name) == 0) {
        app_status(app, true, "fork: '%s' is the working copy's own name", name);
        return HR_REDRAW;
    }
    Scenario *s = calloc(1, sizeof *s);
    Plan *b = malloc(sizeof *b);
    if (s) {
        s->other = malloc(sizeof *s->other);
        s->other_result = calloc(1, sizeof *s->other_result);
    }
    if (!s || !b || !s->other || !s->other_result ||
        !(s->worker = worker_start(&app->cat, app->wake_wr))) {
        if (s) {
            free(s->other);
            free(s->other_result);
        }
        free(s);
        free(b);
        app_status(app, true, "fork: out of memory");
        return HR_REDRAW;
    }
    /* A: the working copy as it is now, unsaved edits included */
    *s->other = app->plan;
    s->other_version = app->version;
    s->other_modified = app->modified;
    snprintf(s->name[0], sizeof s->name[0], "%s", app->plan.name);
    snprintf(s->name[1], sizeof s->name[1], "%s", name);
    s->editing = 1;
    app->scen = s;
    submit_other(app);
    *b = app->plan;
    snprintf(b->name, sizeof b->name, "%s", name);
    app_set_plan(app, b, 0, true);
    free(b);
    app_status(app, false, "forked %s into scenario %s: edit it and watch A | B | delta; "
               ":scenario swap edits A, F2 saves %s as a plan", s->name[0], name, name);
    return HR_REDRAW;
}

static int swap_sides(App *app)
{
    Scenario *s = app->scen;
    Plan *mine = malloc(sizeof *mine);
    if (!mine)
        return HR_REDRAW;
    *mine = app->plan;
    int ver = app->version;
    bool mod = app->modified;
    app_set_plan(app, s->other, s->other_version, s->other_modified);
    *s->other = *mine;
    s->other_version = ver;
    s->other_modified = mod;
    s->editing ^= 1;
    free(mine);
    submit_other(app);
    app_status(app, false, "now editing %s %s (undo history starts here)",
               s->editing ? "B" : "A", s->name[s->editing]);
    return HR_REDRAW;
}

int scenario_command(App *app, const char *cmd, const char *rest)
{
    if (strcmp(cmd, "fork") == 0)
        return fork_plan(app, rest);
    if (strcmp(cmd, "scenario") != 0 && strcmp(cmd, "unfork") != 0)
        return -1;
    char sub[32] = "";
    const char *arg = NULL;
    if (strcmp(cmd, "unfork") == 0) {
        snprintf(sub, sizeof sub, "close");
    } else if (rest && *rest) {
        size_t n = strcspn(rest, " \t");
        snprintf(sub, sizeof sub, "%.*s", (int)(n < sizeof sub ? n : sizeof sub - 1), rest);
        arg = rest + n + strspn(rest + n, " \t");
    }
    if (!app->scen) {
        app_status(app, true, "scenario: none (:fork NAME forks the working copy)");
        return HR_REDRAW;
    }
    if (strcmp(sub, "swap") == 0 || strcmp(sub, "a") == 0 || strcmp(sub, "b") == 0) {
        int want = sub[0] == 'a' ? 0 : sub[0] == 'b' ? 1 : !app->scen->editing;
        return want == app->scen->editing ? HR_REDRAW : swap_sides(app);
    }
    if (strcmp(sub, "save") == 0) {
        char line[320];
        snprintf(line, sizeof line, "w %s", arg ? arg : "");
        return app_command(app, line);
    }
    if (strcmp(sub, "close") == 0) {
        char keep[PLAN_NAME_LEN];
        snprintf(keep, sizeof keep, "%s", app->plan.name);
        scenario_free(app);
        app_status(app, false, "scenario closed; editing %s", keep);
        return HR_REDRAW;
    }
    app_status(app, true, "scenario: swap, a, b, save [NOTE] or close");
    return HR_REDRAW;
}

/* ---------------------------------------------------------------- strip */

typedef struct {
    const char *label;
    double a, b;
    int kind;                    /* 0 count, 1 days, 2 MW, 3 USD, 4 hours */
} Row;

static void value_text(int kind, double v, char *buf, size_t len)
{
    switch (kind) {
    case 0: fmt_int((long long)llround(v), buf, len); break;
    case 1: snprintf(buf, len, "%.1f d", v); break;
    case 2: snprintf(buf, len, "%.1f MW", v); break;
    case 3: fmt_usd(v, buf, len); break;
    default: snprintf(buf, len, "%.1f h", v); break;
    }
}

static void delta_text(int kind, double a, double b, char *buf, size_t len)
{
    double d = b - a;
    char ta[48], tb[48];
    value_text(kind, a, ta, sizeof ta);
    value_text(kind, b, tb, sizeof tb);
    if (strcmp(ta, tb) == 0) {
        snprintf(buf, len, "=");
        return;
    }
    char v[48];
    value_text(kind, fabs(d), v, sizeof v);
    if (a != 0)
        snprintf(buf, len, "%s%s (%+.0f%%)", d > 0 ? "+" : "-", v, d / fabs(a) * 100);
    else
        snprintf(buf, len, "%s%s", d > 0 ? "+" : "-", v);
}

int scenario_draw_strip(App *app, Rect r)
{
    Scenario *s = app->scen;
    if (!s || r.h < 8)
        return 0;
    const PlanResult *mine = app_result(app);
    const PlanResult *other = s->other_result_gen > 0 ? s->other_result : NULL;
    const PlanResult *res[2];
    res[s->editing] = mine;
    res[!s->editing] = other;
    SensOutcome o[2];
    memset(o, 0, sizeof o);
    for (int i = 0; i < 2; i++)
        if (res[i])
            sens_outcome(res[i], &app->cat, &o[i]);
    bool stale[2];
    stale[s->editing] = app_recomputing(app) || !mine;
    stale[!s->editing] = s->other_result_gen < s->other_gen;
    Row rows[] = {
        {"GPUs", o[0].gpus, o[1].gpus, 0},          {"days", o[0].days, o[1].days, 1},
        {"MW", o[0].mw, o[1].mw, 2},                {"TCO", o[0].tco, o[1].tco, 3},
        {"p95 wait", o[0].wait_p95_h, o[1].wait_p95_h, 4},
    };
    int nrows = (int)(sizeof rows / sizeof rows[0]);
    char ha[96], hb[96], a[64], b[64], d[64];
    for (int i = 0; i < 2; i++)
        snprintf(i ? hb : ha, sizeof ha, "%s %s%s%s", i ? "B" : "A", s->name[i],
                 s->editing == i ? " (editing)" : "", stale[i] ? " ..." : "");
    int y = r.y;
    bool tall = r.h >= 20;
    if (tall) {
        /* rows per metric: label | A | B | delta */
        int lw = 10, cw = (r.w - lw - 2) / 3;
        term_clear_rect((Rect){r.y, r.x, nrows + 3, r.w}, ROLE_NORMAL);
        term_put(y, r.x + 1, lw, ROLE_TITLE, "Scenario");
        term_put_ellipsis(y, r.x + 1 + lw, cw - 1, ROLE_TITLE, ha);
        term_put_ellipsis(y, r.x + 1 + lw + cw, cw - 1, ROLE_TITLE, hb);
        term_put(y, r.x + 1 + lw + 2 * cw, cw - 1, ROLE_TITLE, "delta B - A");
        y++;
        for (int i = 0; i <= nrows; i++, y++) {
            if (i == nrows) {
                term_put(y, r.x + 1, lw, ROLE_LABEL, "verdict");
                term_put(y, r.x + 1 + lw, cw - 1, ROLE_VALUE, verdict_name(o[0].verdict));
                term_put(y, r.x + 1 + lw + cw, cw - 1, ROLE_VALUE, verdict_name(o[1].verdict));
                bool flip = o[0].verdict != o[1].verdict;
                term_put(y, r.x + 1 + lw + 2 * cw, cw - 1, flip ? ROLE_WARNING : ROLE_MUTED,
                         flip ? "flips" : "=");
                continue;
            }
            const Row *w = &rows[i];
            value_text(w->kind, w->a, a, sizeof a);
            value_text(w->kind, w->b, b, sizeof b);
            delta_text(w->kind, w->a, w->b, d, sizeof d);
            term_put(y, r.x + 1, lw, ROLE_LABEL, w->label);
            term_put_ellipsis(y, r.x + 1 + lw, cw - 1, ROLE_VALUE, a);
            term_put_ellipsis(y, r.x + 1 + lw + cw, cw - 1, ROLE_VALUE, b);
            /* every headline here is better lower */
            Role role = strcmp(d, "=") == 0 ? ROLE_MUTED : w->b < w->a ? ROLE_GOOD : ROLE_BAD;
            term_put_ellipsis(y, r.x + 1 + lw + 2 * cw, cw - 1, role, d);
        }
        widget_hline(y, r.x, r.w, ROLE_BORDER);
        return y - r.y + 1;
    }
    /* compact: one row per side, metrics in columns */
    static const int colw[] = {10, 9, 10, 11, 9};
    term_clear_rect((Rect){r.y, r.x, 5, r.w}, ROLE_NORMAL);
    /* name | five metrics (a space after each) | verdict (8) */
    int nw = r.w - 2 - (colw[0] + colw[1] + colw[2] + colw[3] + colw[4]) - 5 - 9;
    if (nw < 8)
        nw = 8;
    /* short labels: * marks the side being edited */
    char sa[96], sb[96];
    for (int i = 0; i < 2; i++)
        snprintf(i ? sb : sa, sizeof sa, "%s %s%s%s", i ? "B" : "A", s->name[i],
                 s->editing == i ? "*" : "", stale[i] ? " ..." : "");
    const char *labels[2] = {sa, sb};
    {
        int x = r.x + 1;
        term_put(y, x, nw, ROLE_TITLE, "Scenario");
        x += nw + 1;
        for (int i = 0; i < nrows; i++) {
            term_put_right(y, x, colw[i], ROLE_LABEL, rows[i].label);
            x += colw[i] + 1;
        }
        term_put(y, x, r.x + r.w - x, ROLE_LABEL, "verdict");
        y++;
    }
    for (int line = 0; line < 3; line++, y++) {
        int x = r.x + 1;
        term_put_ellipsis(y, x, nw, line < 2 ? ROLE_TITLE : ROLE_LABEL,
                          line < 2 ? labels[line] : "delta B - A");
        x += nw + 1;
        for (int i = 0; i < nrows; i++) {
            const Row *w = &rows[i];
            char t[64];
            Role role = ROLE_VALUE;
            if (line < 2) {
                value_text(w->kind, line ? w->b : w->a, t, sizeof t);
            } else {
                delta_text(w->kind, w->a, w->b, t, sizeof t);
                role = strcmp(t, "=") == 0 ? ROLE_MUTED : w->b < w->a ? ROLE_GOOD : ROLE_BAD;
                /* a narrow column keeps the difference, not a cut "(+" */
                char *pct = strstr(t, " (");
                if (pct && (int)strlen(t) > colw[i])
                    *pct = '\0';
            }
            term_put_right(y, x, colw[i], role, t);
            x += colw[i] + 1;
        }
        const char *v = line < 2 ? verdict_name(o[line].verdict)
                        : o[0].verdict != o[1].verdict ? "flips" : "=";
        term_put_ellipsis(y, x, r.x + r.w - x, line == 2 && o[0].verdict != o[1].verdict
                                                    ? ROLE_WARNING : ROLE_VALUE, v);
    }
    widget_hline(y, r.x, r.w, ROLE_BORDER);
    return y - r.y + 1;
}
