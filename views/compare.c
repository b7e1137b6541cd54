/* views/compare.c — F4: two plans (or two versions) side by side.  Every
 * headline number (model/headline.h, the same list `gpuplan compare` and
 * the CSV export use) with the delta and percent, coloured better / worse
 * by the metric's direction.  Side A defaults to the plan being edited
 * (live); the other side is evaluated on its own worker thread. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "export.h"
#include "fmt.h"
#include "headline.h"
#include "tui/app.h"
#include "yaml_plan.h"

typedef struct {
    bool current;            /* the plan being edited (live) */
    char ref[PLAN_NAME_LEN + 16];
    Plan *plan;
    PlanResult *res;
    uint64_t gen, res_gen;
    Worker *worker;
    bool set;
} Side;

typedef struct {
    Side side[2];
    int scroll;
    Headline *ha, *hb;
    char pick_items[PICK_MAX][96];   /* the open pick list's refs */
    int pick_side;                   /* which side it sets */
} KState;

static void *k_create(App *app)
{
    (void)app;
    KState *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    for (int i = 0; i < 2; i++) {
        s->side[i].plan = malloc(sizeof(Plan));
        s->side[i].res = calloc(1, sizeof(PlanResult));
    }
    s->ha = calloc(HEADLINE_MAX, sizeof(Headline));
    s->hb = calloc(HEADLINE_MAX, sizeof(Headline));
    return s;
}

static void k_destroy(View *v)
{
    KState *s = v->state;
    if (!s)
        return;
    for (int i = 0; i < 2; i++) {
        worker_stop(s->side[i].worker);
        free(s->side[i].plan);
        free(s->side[i].res);
    }
    free(s->ha);
    free(s->hb);
    free(s);
}

static const Plan *side_plan(const Side *sd, const App *app)
{
    return sd->current ? &app->plan : sd->plan;
}

/* A side's name as shown and exported: the plan being edited is named
 * when drawn (it may have been switched since the side was picked: never
 * "moe-gb200 (current)" over frontier-2027's numbers), with its version and
 * whether it has unsaved edits. */
static const char *side_label(const Side *sd, const App *app, char *buf, size_t len)
{
    if (!sd->current)
        snprintf(buf, len, "%s", sd->ref);
    else if (app->version > 0)
        snprintf(buf, len, "%s v%d%s (current)", app->plan.name, app->version,
                 app->modified ? "+edits" : "");
    else
        snprintf(buf, len, "%s (current, unsaved)", app->plan.name);
    return buf;
}

static const PlanResult *side_result(Side *sd, const App *app)
{
    if (sd->current)
        return app_result(app);
    if (sd->worker)
        worker_take(sd->worker, sd->res, &sd->res_gen, NULL);
    return sd->res_gen > 0 && sd->res_gen == sd->gen ? sd->res : NULL;
}

/* ref: "(current)", "NAME" (latest) or "NAME@N". */
static int side_set(Side *sd, App *app, const char *ref)
{
    if (strcmp(ref, "(current)") == 0) {
        sd->current = true;
        sd->set = true;
        snprintf(sd->ref, sizeof sd->ref, "%s (current)", app->plan.name);
        return 0;
    }
    char name[PLAN_NAME_LEN];
    snprintf(name, sizeof name, "%s", ref);
    int ver = 0;
    char *at = strrchr(name, '@');
    if (at) {
        ver = atoi(at + 1);
        *at = '\0';
    }
    char *yaml = NULL;
    Diag d;
    memset(&d, 0, sizeof d);
    int got = 0;
    char buf[700];
    if (!app->store || store_load(app->store, name, ver, &yaml, &got, &d) != 0) {
        app_status(app, true, "compare: %s", diag_format(&d, buf, sizeof buf));
        return -1;
    }
    int rc = plan_parse(yaml, strlen(yaml), name, &app->cat, sd->plan, &d);
    free(yaml);
    if (rc != 0) {
        app_status(app, true, "compare: %s", diag_format(&d, buf, sizeof buf));
        return -1;
    }
    char terr[512];
    if (app_attach_trace(app, sd->plan, terr, sizeof terr) != 0)
        app_status(app, true, "%s", terr);
    if (!sd->worker)
        sd->worker = worker_start(&app->cat, app->wake_wr);
    if (!sd->worker) {
        app_status(app, true, "compare: cannot start a worker");
        return -1;
    }
    sd->current = false;
    sd->set = true;
    snprintf(sd->ref, sizeof sd->ref, "%s v%d", name, got);
    sd->gen++;
    worker_submit(sd->worker, sd->plan, sd->gen);
    return 0;
}

void view_compare_set(View *v, App *app, const char *a, const char *b)
{
    KState *s = v->state;
    if (a)
        side_set(&s->side[0], app, a);
    if (b)
        side_set(&s->side[1], app, b);
    app->dirty = true;
}

static void k_show(View *v, App *app)
{
    KState *s = v->state;
    if (!s || !stdscr)
        return; /* before the screen exists (startup): nothing to pick yet */
    if (!s->side[0].set)
        side_set(&s->side[0], app, "(current)");
    if (s->side[1].set)
        return;
    /* B: the previous version of this plan, else another saved plan */
    char ref[PLAN_NAME_LEN + 16];
    if (app->version > 1) {
        snprintf(ref, sizeof ref, "%s@%d", app->plan.name, app->version - (app->modified ? 0 : 1));
        side_set(&s->side[1], app, ref);
        return;
    }
    if (app->version == 1 && app->modified) {
        snprintf(ref, sizeof ref, "%s@1", app->plan.name);
        side_set(&s->side[1], app, ref);
        return;
    }
    StorePlanInfo *list = NULL;
    int n = 0;
    if (app->store && store_list(app->store, NULL, false, &list, &n, NULL) == 0)
        for (int i = 0; i < n; i++)
            if (strcmp(list[i].name, app->plan.name) != 0) {
                side_set(&s->side[1], app, list[i].name);
                break;
            }
    free(list);
}

static bool same_metric(const Headline *a, const Headline *b)
{
    return strcmp(a->section, b->section) == 0 && strcmp(a->subject, b->subject) == 0 &&
           strcmp(a->metric, b->metric) == 0;
}

/* A headline value for a column of w cells: money as money, a unitless
 * fraction as a percentage (like the exports' summary_value), counts with
 * thousands separators from 1,000 up; too wide for the column, it is
 * SI-scaled ("33.1 M GPU-h") rather than cut. */
static void fmt_value(const Headline *h, int w, char *buf, size_t len)
{
    double v = h->value;
    if (strcmp(h->unit, "USD") == 0) {
        fmt_usd(v, buf, len);
        return;
    }
    if (h->fraction) {
        snprintf(buf, len, "%.1f%%", v * 100);
        return;
    }
    /* a prefixed unit is rescaled, never prefixed twice ("25.8 MW", not
     * "25.8 kkW") */
    if (h->unit[0] && isupper((unsigned char)h->unit[1]) && fabs(v) >= 1e3) {
        fmt_quantity(v, h->unit, buf, len);
        return;
    }
    if (fabs(v) >= 1e3 && fabs(v) < 9e15)
        fmt_int(llround(v), buf, len);
    else
        snprintf(buf, len, "%.4g", v);
    if (h->unit[0]) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, " %s", h->unit);
    }
    if (term_strwidth(buf) > w && isfinite(v))
        fmt_quantity(v, h->unit, buf, len);
}

static void k_draw(View *v, App *app, Rect r)
{
    KState *s = v->state;
    term_clear_rect(r, ROLE_NORMAL);
    if (!s || !s->ha || !s->hb)
        return;
    Side *A = &s->side[0], *B = &s->side[1];
    char line[400], la[PLAN_NAME_LEN + 48], lb[PLAN_NAME_LEN + 48];
    side_label(A, app, la, sizeof la);
    side_label(B, app, lb, sizeof lb);
    snprintf(line, sizeof line, "COMPARE   A: %s   B: %s", A->set ? la : "(a to pick)",
             B->set ? lb : "(b to pick)");
    term_put_ellipsis(r.y, r.x + 1, r.w - 1, ROLE_TITLE, line);
    const PlanResult *ra = A->set ? side_result(A, app) : NULL;
    const PlanResult *rb = B->set ? side_result(B, app) : NULL;
    if (!A->set || !B->set) {
        term_put(r.y + 2, r.x + 2, r.w - 2, ROLE_MUTED, "pick two plans or versions: a for A, b for B");
        return;
    }
    if (!ra || !rb) {
        char spin[200];
        snprintf(spin, sizeof spin, "%s evaluating %s...", term_glyphs->spinner[app->spinner % term_glyphs->n_spinner],
                 !ra ? A->ref : B->ref);
        term_put(r.y + 2, r.x + 2, r.w - 2, ROLE_WARNING, spin);
        return;
    }
    int na = headline_collect(side_plan(A, app), ra, s->ha, HEADLINE_MAX);
    int nb = headline_collect(side_plan(B, app), rb, s->hb, HEADLINE_MAX);
    TableCol cols[6] = {{"metric", 34, false}, {"A", 16, true}, {"B", 16, true}, {"delta", 16, true},
                        {"%", 9, true}, {"", 0, false}};
    cols[0].width = r.w - 16 * 3 - 9 - 3;
    if (cols[0].width < 16)
        cols[0].width = 16;
    widget_table_header(r.y + 1, r.x + 1, r.w - 1, cols, 5, ROLE_MUTED);
    Canvas c;
    Rect body = {r.y + 2, r.x, r.h - 2, r.w};
    canvas_begin(&c, body, &s->scroll);
    bool used_b[HEADLINE_MAX] = {false};
    char last_section[24] = "";
    for (int pass = 0; pass < 2; pass++) {
        int n = pass == 0 ? na : nb;
        for (int i = 0; i < n; i++) {
            const Headline *ha = NULL, *hb = NULL;
            if (pass == 0) {
                ha = &s->ha[i];
                for (int j = 0; j < nb; j++)
                    if (!used_b[j] && same_metric(ha, &s->hb[j])) {
                        hb = &s->hb[j];
                        used_b[j] = true;
                        break;
                    }
            } else {
                if (used_b[i])
                    continue;
                hb = &s->hb[i];
            }
            const Headline *h = ha ? ha : hb;
            if (strcmp(last_section, h->section) != 0) {
                snprintf(last_section, sizeof last_section, "%s", h->section);
                int y = canvas_next(&c);
                if (y >= 0)
                    term_put(y, r.x + 1, r.w - 1, ROLE_TITLE, h->section);
            }
            char label[160], va[48], vb[48], dl[48], pc[24];
            snprintf(label, sizeof label, "%s%s%s", h->subject[0] ? h->subject : "", h->subject[0] ? ": " : "", h->label);
            if (ha) fmt_value(ha, cols[1].width - 1, va, sizeof va); else snprintf(va, sizeof va, "-");
            if (hb) fmt_value(hb, cols[2].width - 1, vb, sizeof vb); else snprintf(vb, sizeof vb, "-");
            Role dr = ROLE_MUTED;
            if (ha && hb) {
                Headline dh = *ha;
                double delta = hb->value - ha->value;
                dh.value = delta;
                /* the difference of two shares is in percentage points */
                bool share = !ha->unit[0] && fabs(ha->value) <= 1 && fabs(hb->value) <= 1;
                if (share)
                    snprintf(dl, sizeof dl, "%.1f pp", delta * 100);
                else
                    fmt_value(&dh, cols[3].width - 2, dl, sizeof dl);
                if (delta > 0 && dl[0] != '-' && dl[0] != '+') {
                    char tmp[64];
                    snprintf(tmp, sizeof tmp, "+%s", dl);
                    snprintf(dl, sizeof dl, "%.46s", tmp);
                }
                if (ha->value != 0)
                    snprintf(pc, sizeof pc, "%+.1f%%", delta / fabs(ha->value) * 100);
                else
                    snprintf(pc, sizeof pc, delta == 0 ? "0%%" : "new");
                if (delta == 0 || h->better == BETTER_NEITHER)
                    dr = ROLE_NORMAL;
                else if ((delta < 0) == (h->better == BETTER_LOWER))
                    dr = ROLE_GOOD;
                else
                    dr = ROLE_BAD;
                if (delta == 0) {
                    snprintf(dl, sizeof dl, "=");
                    snprintf(pc, sizeof pc, "0%%");
                    dr = ROLE_MUTED;
                }
            } else {
                snprintf(dl, sizeof dl, ha ? "only in A" : "only in B");
                snprintf(pc, sizeof pc, " ");
            }
            const char *cells[5] = {label, va, vb, dl, pc};
            Role roles[5] = {ROLE_LABEL, ROLE_VALUE, ROLE_VALUE, dr, dr};
            int y = canvas_next(&c);
            if (y >= 0)
                widget_table_row(y, r.x + 1, r.w - 1, cols, 5, cells, ROLE_NORMAL, roles);
        }
    }
    if (na == 0 && nb == 0) {
        int y = canvas_next(&c);
        if (y >= 0)
            term_put(y, r.x + 2, r.w - 2, ROLE_MUTED, "no headline numbers (no stage computed)");
    }
    canvas_end(&c, &s->scroll);
}

/* Pick list of refs: the plan being edited, every plan, and its versions. */
static void ref_picked(App *app, int index, const char *item, void *ctx)
{
    View *v = ctx;
    KState *s = v->state;
    if (index < 0 || !item)
        return;
    char ref[96];
    snprintf(ref, sizeof ref, "%s", item);
    char *sp = strstr(ref, "  (");
    if (sp)
        *sp = '\0';
    side_set(&s->side[s->pick_side], app, ref);
    s->scroll = 0;
}

static void pick(View *v, App *app, int side)
{
    KState *s = v->state;
    char (*pick_items)[96] = s->pick_items;
    int n = 0;
    snprintf(pick_items[n++], sizeof pick_items[0], "(current)");
    StorePlanInfo *list = NULL;
    int np = 0;
    if (app->store && store_list(app->store, NULL, false, &list, &np, NULL) == 0) {
        for (int i = 0; i < np && n < PICK_MAX; i++) {
            snprintf(pick_items[n++], sizeof pick_items[0], "%s", list[i].name);
            StoreVersionInfo *vers = NULL;
            int nv = 0;
            if (store_versions(app->store, list[i].name, &vers, &nv, NULL) == 0 && nv > 1)
                for (int k = nv - 1; k >= 0 && n < PICK_MAX; k--) {
                    char when[24] = "";
                    snprintf(when, sizeof when, "%.20s", vers[k].note);
                    snprintf(pick_items[n++], sizeof pick_items[0], "%.56s@%d  (%.20s)", list[i].name, vers[k].version, when);
                }
            free(vers);
        }
    }
    free(list);
    const char *items[PICK_MAX];
    for (int i = 0; i < n; i++)
        items[i] = pick_items[i];
    s->pick_side = side;
    app_prompt_pick(app, side == 0 ? "Compare: plan A" : "Compare: plan B", items, n, 0, ref_picked, v);
}

void view_compare_export(View *v, App *app, int format, const char *path)
{
    KState *s = v->state;
    Side *A = &s->side[0], *B = &s->side[1];
    const PlanResult *ra = A->set ? side_result(A, app) : NULL;
    const PlanResult *rb = B->set ? side_result(B, app) : NULL;
    if (!ra || !rb) {
        app_status(app, true, "export: both sides must be evaluated first");
        return;
    }
    /* the exports name the columns after the plans: two versions of one
     * plan get their labels instead ("frontier-2027 v3" / "frontier-2027
     * v1"), never two columns of the same name */
    const Plan *pa = side_plan(A, app), *pb = side_plan(B, app);
    Plan *ca = NULL, *cb = NULL;
    if (strcmp(pa->name, pb->name) == 0) {
        ca = malloc(sizeof *ca);
        cb = malloc(sizeof *cb);
        if (ca && cb) {
            *ca = *pa;
            *cb = *pb;
            side_label(A, app, ca->name, sizeof ca->name);
            side_label(B, app, cb->name, sizeof cb->name);
            pa = ca;
            pb = cb;
        }
    }
    char *text = export_compare((ExportFormat)format, pa, ra, pb, rb);
    if (!text) {
        free(ca);
        free(cb);
        app_status(app, true, "export: %s is not available for comparisons", export_format_name((ExportFormat)format));
        return;
    }
    char stem[2 * PLAN_NAME_LEN + 8];
    snprintf(stem, sizeof stem, "%s-vs-%s", pa->name, pb->name);
    free(ca);
    free(cb);
    app_export_text(app, stem, export_format_extension((ExportFormat)format), text, path);
}

static int k_key(View *v, App *app, Action a, int ch)
{
    KState *s = v->state;
    (void)ch;
    switch (a) {
    case ACT_PICK_A: pick(v, app, 0); return HR_HANDLED | HR_REDRAW;
    case ACT_PICK_B: pick(v, app, 1); return HR_HANDLED | HR_REDRAW;
    case ACT_SWAP: {
        Side t = s->side[0];
        s->side[0] = s->side[1];
        s->side[1] = t;
        return HR_HANDLED | HR_REDRAW;
    }
    default:
        return app_scroll(&s->scroll, a, app->geo.body.h - 3);
    }
}

const ViewOps view_compare_ops = {
    .name = "Compare", .abbrev = "Cmp", .ctx = CTX_COMPARE,
    .create = k_create, .draw = k_draw, .key = k_key, .destroy = k_destroy, .show = k_show,
};
