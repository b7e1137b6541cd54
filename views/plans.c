/* views/plans.c — the F3 plan browser: saved plans with their versions,
 * last change and headline numbers (GPUs, days, MW, TCO of the latest
 * version; per version in the versions list, so v1 against v3 reads off
 * the screen; tui/headlines.c evaluates them in the background), filtered by a regular expression as you type (an invalid one
 * is shown, not fatal); Enter opens, n new from a template (the demo plans
 * of data/examples), r rename, c duplicate, d delete (soft, asks),
 * U undelete, x show deleted, v versions. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datadir.h"
#include "diag.h"
#include "fmt.h"
#include "tui/app.h"
#include "tui/headlines.h"
#include "yaml_plan.h"

typedef struct {
    StorePlanInfo *plans;
    int n;
    int sel, top;
    LineInput filter;
    bool filtering;
    char filter_error[300];
    bool show_deleted;
    /* versions mode */
    bool versions;
    char vplan[PLAN_NAME_LEN];
    StoreVersionInfo *vers;
    int n_vers;
    int vsel, vtop;
    /* pending actions (prompt callbacks) */
    char target[PLAN_NAME_LEN];      /* plan being renamed / copied / deleted */
    char templates[64][256];         /* the YAML files of data/examples */
    Plan *template_plan;             /* new plan from a template, before it opens */
    Headlines *heads;                /* headline numbers per version (started on first show) */
} BState;

static void *b_create(App *app)
{
    (void)app;
    return calloc(1, sizeof(BState));
}

static void b_destroy(View *v)
{
    BState *s = v->state;
    if (s) {
        headlines_stop(s->heads);
        free(s->plans);
        free(s->vers);
        free(s->template_plan);
    }
    free(s);
}

static void reload(BState *s, App *app)
{
    free(s->plans);
    s->plans = NULL;
    s->n = 0;
    s->filter_error[0] = '\0';
    if (!app->store)
        return;
    Diag d;
    memset(&d, 0, sizeof d);
    if (store_list(app->store, s->filter.buf[0] ? s->filter.buf : NULL, s->show_deleted, &s->plans, &s->n, &d) != 0) {
        char buf[600];
        snprintf(s->filter_error, sizeof s->filter_error, "%s", diag_format(&d, buf, sizeof buf));
        s->plans = NULL;
        s->n = 0;
    }
    if (s->sel >= s->n)
        s->sel = s->n ? s->n - 1 : 0;
}

static void reload_versions(BState *s, App *app)
{
    free(s->vers);
    s->vers = NULL;
    s->n_vers = 0;
    Diag d;
    memset(&d, 0, sizeof d);
    if (store_versions(app->store, s->vplan, &s->vers, &s->n_vers, &d) != 0) {
        char buf[600];
        app_status(app, true, "%s", diag_format(&d, buf, sizeof buf));
        s->versions = false;
    }
    /* newest first */
    for (int i = 0; i < s->n_vers / 2; i++) {
        StoreVersionInfo t = s->vers[i];
        s->vers[i] = s->vers[s->n_vers - 1 - i];
        s->vers[s->n_vers - 1 - i] = t;
    }
    if (s->vsel >= s->n_vers)
        s->vsel = 0;
}

static void b_show(View *v, App *app)
{
    BState *s = v->state;
    s->filtering = false;
    if (!s->heads)
        s->heads = headlines_start(&app->cat, app->wake_wr);
    reload(s, app);
    if (s->versions)
        reload_versions(s, app);
}

static const char *when(int64_t t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!localtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
        snprintf(buf, len, "-");
    return buf;
}

/* The headline numbers of one stored version as table cells (GPUs, days,
 * MW, TCO): the dashboard's own result when it is that version unmodified,
 * else the background evaluation, asked for here the first time the row is
 * drawn ("..." until it arrives). */
static void numbers(BState *s, App *app, const char *plan, int version, int64_t saved,
                    char cells[4][32])
{
    HeadNumbers n = headlines_get(s->heads, plan, version, saved);
    if (n.state != HEAD_DONE && strcmp(plan, app->plan.name) == 0 && version == app->version &&
        !app->modified && !app_recomputing(app) && app_result(app)) {
        headlines_put(s->heads, plan, version, saved, app_result(app), &app->cat,
                      app->plan.accelerator);
        n = headlines_get(s->heads, plan, version, saved);
    }
    if (n.state == HEAD_UNKNOWN && s->heads && app->store) {
        char *yaml = NULL;
        int ver = 0;
        Diag d;
        memset(&d, 0, sizeof d);
        if (store_load(app->store, plan, version, &yaml, &ver, &d) == 0)
            headlines_request(s->heads, plan, version, saved, yaml);
        free(yaml);
        n = headlines_get(s->heads, plan, version, saved);
    }
    for (int i = 0; i < 4; i++)
        snprintf(cells[i], 32, "%s", n.state == HEAD_FAILED ? (i ? "" : "invalid") : term_glyphs->more);
    if (n.state != HEAD_DONE)
        return;
    fmt_int((long long)n.gpus, cells[0], 32);
    if (n.days > 0)
        snprintf(cells[1], 32, "%.1f d", n.days);
    else
        snprintf(cells[1], 32, "-");
    fmt_si(n.mw * 1e6, "W", cells[2], 32);
    fmt_usd(n.tco, cells[3], 32);
}

static void b_draw(View *v, App *app, Rect r)
{
    BState *s = v->state;
    term_clear_rect(r, ROLE_NORMAL);
    char line[1200];
    /* narrow screens drop the times and the days, never the numbers */
    bool wide = r.w >= 110;
    if (s->versions) {
        snprintf(line, sizeof line, "VERSIONS of %s  (Enter opens, Esc back to plans)", s->vplan);
        term_put(r.y, r.x + 1, r.w - 1, ROLE_TITLE, line);
        static const TableCol wcols[] = {{"version", 9, true}, {"saved", 18, false}, {"GPUs", 9, true},
                                         {"days", 8, true}, {"power", 8, true}, {"TCO", 9, true},
                                         {"note", 0, false}};
        static const TableCol ncols[] = {{"ver", 4, true}, {"GPUs", 8, true}, {"power", 8, true},
                                         {"TCO", 8, true}, {"note", 0, false}};
        const TableCol *cols = wide ? wcols : ncols;
        int nc = wide ? 7 : 5;
        widget_table_header(r.y + 1, r.x + 2, r.w - 2, cols, nc, ROLE_MUTED);
        int h = r.h - 2;
        widget_scroll(&s->vtop, s->vsel, h, s->n_vers);
        for (int i = 0; i < h && s->vtop + i < s->n_vers; i++) {
            int k = s->vtop + i;
            char ver[16], t[32], num[4][32];
            snprintf(ver, sizeof ver, "v%d", s->vers[k].version);
            numbers(s, app, s->vplan, s->vers[k].version, s->vers[k].created, num);
            const char *wc[7] = {ver, when(s->vers[k].created, t, sizeof t), num[0], num[1], num[2],
                                 num[3], s->vers[k].note};
            const char *nc5[5] = {ver, num[0], num[2], num[3], s->vers[k].note};
            widget_table_row(r.y + 2 + i, r.x + 2, r.w - 2, cols, nc, wide ? wc : nc5,
                             k == s->vsel ? ROLE_SELECTION : ROLE_NORMAL, NULL);
        }
        return;
    }
    snprintf(line, sizeof line, "PLANS in %s", app->db_path);
    term_put(r.y, r.x + 1, r.w - 1, ROLE_TITLE, line);
    int used = term_put(r.y + 1, r.x + 1, r.w - 1, ROLE_LABEL, "filter /");
    if (s->filtering)
        input_draw(&s->filter, r.y + 1, r.x + 2 + used, 30, s->filter_error[0] ? ROLE_INVALID : ROLE_EDIT, true);
    else
        term_put(r.y + 1, r.x + 2 + used, 30, s->filter_error[0] ? ROLE_INVALID : ROLE_VALUE,
                 s->filter.buf[0] ? s->filter.buf : "(none; / types a regex)");
    if (s->filter_error[0])
        term_put(r.y + 1, r.x + 34 + used, r.w - 34 - used, ROLE_ERROR, s->filter_error);
    static const TableCol wcols[] = {{"plan", 30, false}, {"versions", 9, true}, {"updated", 18, true},
                                     {"GPUs", 9, true}, {"days", 8, true}, {"power", 8, true},
                                     {"TCO", 9, true}, {"", 1, false}, {"last note", 0, false}};
    static const TableCol ncols[] = {{"plan", 18, false}, {"vers", 4, true}, {"GPUs", 8, true},
                                     {"power", 8, true}, {"TCO", 8, true}, {"last note", 0, false}};
    const TableCol *cols = wide ? wcols : ncols;
    int nc = wide ? 9 : 6;
    widget_table_header(r.y + 2, r.x + 2, r.w - 2, cols, nc, ROLE_MUTED);
    int h = r.h - 3;
    widget_scroll(&s->top, s->sel, h, s->n);
    for (int i = 0; i < h && s->top + i < s->n; i++) {
        int k = s->top + i;
        const StorePlanInfo *p = &s->plans[k];
        char vers[16], t[32], name[PLAN_NAME_LEN + 16], num[4][32];
        snprintf(vers, sizeof vers, "%d", p->versions);
        snprintf(name, sizeof name, "%s%s%s", strcmp(p->name, app->plan.name) == 0 ? term_glyphs->dot : " ", " ", p->name);
        if (p->deleted)
            for (int j = 0; j < 4; j++)
                snprintf(num[j], sizeof num[j], "%s", "");
        else
            numbers(s, app, p->name, p->latest, p->updated, num);
        const char *note = p->deleted ? "(deleted)" : p->note;
        const char *wc[9] = {name, vers, when(p->updated, t, sizeof t), num[0], num[1], num[2],
                             num[3], "", note};
        const char *nc6[6] = {name, vers, num[0], num[2], num[3], note};
        Role role = k == s->sel ? ROLE_SELECTION : p->deleted ? ROLE_MUTED : ROLE_NORMAL;
        widget_table_row(r.y + 3 + i, r.x + 2, r.w - 2, cols, nc, wide ? wc : nc6, role, NULL);
    }
    if (s->n == 0)
        term_put(r.y + 3, r.x + 2, r.w - 2, ROLE_MUTED, s->filter.buf[0] ? "no plan matches" : "no saved plans: n for a new one from a template");
}

/* ---- actions */

static void renamed(App *app, const char *text, void *ctx)
{
    BState *s = ctx;
    Diag d;
    memset(&d, 0, sizeof d);
    if (!*text)
        return;
    if (store_rename(app->store, s->target, text, &d) != 0) {
        char buf[600];
        app_status(app, true, "rename: %s", diag_format(&d, buf, sizeof buf));
        return;
    }
    if (strcmp(app->plan.name, s->target) == 0)
        snprintf(app->plan.name, sizeof app->plan.name, "%s", text);
    app_status(app, false, "renamed %s to %s", s->target, text);
    reload(s, app);
}

static void duplicated(App *app, const char *text, void *ctx)
{
    BState *s = ctx;
    Diag d;
    memset(&d, 0, sizeof d);
    if (!*text)
        return;
    /* the plan being edited: its working copy, not its last saved version */
    if (strcmp(s->target, app->draft_name) == 0 && app->modified) {
        if (app_duplicate_working(app, text) == 0)
            reload(s, app);
        return;
    }
    if (store_duplicate(app->store, s->target, text, &d) != 0) {
        char buf[600];
        app_status(app, true, "duplicate: %s", diag_format(&d, buf, sizeof buf));
        return;
    }
    app_status(app, false, "duplicated %s as %s", s->target, text);
    reload(s, app);
}

static void delete_answer(App *app, int key, void *ctx)
{
    BState *s = ctx;
    if (key != 'y') {
        app_status(app, false, "kept %s", s->target);
        return;
    }
    Diag d;
    memset(&d, 0, sizeof d);
    if (store_delete(app->store, s->target, &d) != 0) {
        char buf[600];
        app_status(app, true, "delete: %s", diag_format(&d, buf, sizeof buf));
        return;
    }
    app_status(app, false, "deleted %s (recoverable: x shows deleted plans, U undeletes)", s->target);
    reload(s, app);
}

/* New from a template: pick a demo plan file, then name it. */
static void template_confirmed(App *app, int key, void *ctx)
{
    BState *s = ctx;
    Plan *template_plan = s->template_plan;
    if (key != 'y' || !template_plan) {
        app_status(app, false, "kept %s", app->plan.name);
        return;
    }
    Plan *p = template_plan;
    char terr[512];
    if (app_attach_trace(app, p, terr, sizeof terr) != 0)
        app_status(app, true, "%s", terr);
    app_set_plan(app, p, 0, true);
    app_close_overlay(app);
    app_status(app, false, "new plan %s (unsaved: F2 saves it)", p->name);
}

static void template_named(App *app, const char *text, void *ctx)
{
    BState *s = ctx;
    Plan *template_plan = s->template_plan;
    if (!template_plan || !*text)
        return;
    if (app->store && store_exists(app->store, text)) {
        app_status(app, true, "a plan named %s exists already; pick another name", text);
        return;
    }
    Plan *p = template_plan;
    snprintf(p->name, sizeof p->name, "%s", text);
    char msg[512];
    if (app_check(app, p, msg, sizeof msg) != 0) {
        app_status(app, true, "invalid: %s", msg);
        return;
    }
    if (app->modified) {
        char q[300];
        snprintf(q, sizeof q, "Discard unsaved changes to %s and start %s? (y/n)", app->plan.name, text);
        app_prompt_key(app, q, "yn", template_confirmed, ctx);
        return;
    }
    template_confirmed(app, 'y', ctx);
}

static void template_picked(App *app, int index, const char *item, void *ctx)
{
    BState *s = ctx;
    if (index < 0 || !item)
        return;
    if (!s->template_plan)
        s->template_plan = malloc(sizeof *s->template_plan);
    Plan *template_plan = s->template_plan;
    if (!template_plan)
        return;
    char path[1400];
    snprintf(path, sizeof path, "%s/examples/%s", datadir_get(), item);
    Diag d;
    memset(&d, 0, sizeof d);
    if (plan_load_file(path, &app->cat, template_plan, &d) != 0) {
        char buf[600];
        app_status(app, true, "%s", diag_format(&d, buf, sizeof buf));
        return;
    }
    char name[PLAN_NAME_LEN];
    snprintf(name, sizeof name, "%.56s-new", template_plan->name);
    app_prompt_text(app, "Name of the new plan: ", name, template_named, ctx);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void new_from_template(App *app, BState *s)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/examples", datadir_get());
    DIR *d = opendir(dir);
    int n = 0;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) && n < 64) {
            size_t len = strlen(e->d_name);
            if (len > 5 && len < 250 && strcmp(e->d_name + len - 5, ".yaml") == 0)
                snprintf(s->templates[n++], sizeof s->templates[0], "%s", e->d_name);
        }
        closedir(d);
    }
    if (n == 0) {
        app_status(app, true, "no templates in %s", dir);
        return;
    }
    qsort(s->templates, (size_t)n, sizeof s->templates[0], cmp_str);
    const char *items[64];
    for (int i = 0; i < n; i++)
        items[i] = s->templates[i];
    app_prompt_pick(app, "New plan from template", items, n, 0, template_picked, s);
}

static int b_key(View *v, App *app, Action a, int ch)
{
    BState *s = v->state;
    if (s->filtering) {
        if (ch == '\r' || ch == '\n' || ch == KEY_ENTER || ch == 27 || ch == '\t') {
            s->filtering = false;
            return HR_HANDLED | HR_REDRAW;
        }
        if (ch == KEY_UP || ch == KEY_DOWN) {
            s->filtering = false;
        } else {
            if (input_key(&s->filter, ch) == 1) {
                s->sel = 0;
                reload(s, app);
            }
            return HR_HANDLED | HR_REDRAW;
        }
    }
    if (s->versions) {
        switch (a) {
        case ACT_UP: if (s->vsel > 0) s->vsel--; return HR_HANDLED | HR_REDRAW;
        case ACT_DOWN: if (s->vsel < s->n_vers - 1) s->vsel++; return HR_HANDLED | HR_REDRAW;
        case ACT_TOP: s->vsel = 0; return HR_HANDLED | HR_REDRAW;
        case ACT_BOTTOM: s->vsel = s->n_vers ? s->n_vers - 1 : 0; return HR_HANDLED | HR_REDRAW;
        case ACT_ENTER:
            if (s->n_vers > 0)
                app_open_stored(app, s->vplan, s->vers[s->vsel].version);
            return HR_HANDLED | HR_REDRAW;
        case ACT_CLOSE: case ACT_LEFT:
            s->versions = false;
            return HR_HANDLED | HR_REDRAW;
        default:
            return HR_UNHANDLED;
        }
    }
    int page = app->geo.body.h - 4 > 1 ? app->geo.body.h - 4 : 1;
    const StorePlanInfo *cur = s->n > 0 ? &s->plans[s->sel] : NULL;
    switch (a) {
    case ACT_UP: if (s->sel > 0) s->sel--; return HR_HANDLED | HR_REDRAW;
    case ACT_DOWN: if (s->sel < s->n - 1) s->sel++; return HR_HANDLED | HR_REDRAW;
    case ACT_PGUP: s->sel = s->sel > page ? s->sel - page : 0; return HR_HANDLED | HR_REDRAW;
    case ACT_PGDN: s->sel = s->sel + page < s->n ? s->sel + page : (s->n ? s->n - 1 : 0); return HR_HANDLED | HR_REDRAW;
    case ACT_TOP: s->sel = 0; return HR_HANDLED | HR_REDRAW;
    case ACT_BOTTOM: s->sel = s->n ? s->n - 1 : 0; return HR_HANDLED | HR_REDRAW;
    case ACT_FILTER: case ACT_FIND:
        s->filtering = true;
        return HR_HANDLED | HR_REDRAW;
    case ACT_ENTER:
        if (cur && !cur->deleted)
            app_open_stored(app, cur->name, 0);
        else if (cur)
            app_status(app, true, "%s is deleted: U undeletes it", cur->name);
        return HR_HANDLED | HR_REDRAW;
    case ACT_NEW: new_from_template(app, s); return HR_HANDLED | HR_REDRAW;
    case ACT_RENAME:
        if (cur) {
            snprintf(s->target, sizeof s->target, "%s", cur->name);
            app_prompt_text(app, "Rename to: ", cur->name, renamed, s);
        }
        return HR_HANDLED | HR_REDRAW;
    case ACT_DUPLICATE:
        if (cur) {
            snprintf(s->target, sizeof s->target, "%s", cur->name);
            char name[PLAN_NAME_LEN];
            snprintf(name, sizeof name, "%.58s-copy", cur->name);
            app_prompt_text(app, "Duplicate as: ", name, duplicated, s);
        }
        return HR_HANDLED | HR_REDRAW;
    case ACT_DELETE:
        if (cur) {
            snprintf(s->target, sizeof s->target, "%s", cur->name);
            char q[200];
            snprintf(q, sizeof q, "Delete plan %s? It stays recoverable until purged. (y/n)", cur->name);
            app_prompt_key(app, q, "yn", delete_answer, s);
        }
        return HR_HANDLED | HR_REDRAW;
    case ACT_UNDELETE:
        if (cur && cur->deleted) {
            Diag d;
            memset(&d, 0, sizeof d);
            char buf[600];
            if (store_undelete(app->store, cur->name, &d) != 0)
                app_status(app, true, "undelete: %s", diag_format(&d, buf, sizeof buf));
            else
                app_status(app, false, "recovered %s", cur->name);
            reload(s, app);
        }
        return HR_HANDLED | HR_REDRAW;
    case ACT_SHOW_DELETED:
        s->show_deleted = !s->show_deleted;
        reload(s, app);
        app_status(app, false, s->show_deleted ? "showing deleted plans" : "hiding deleted plans");
        return HR_HANDLED | HR_REDRAW;
    case ACT_VERSIONS:
        if (cur) {
            snprintf(s->vplan, sizeof s->vplan, "%s", cur->name);
            s->versions = true;
            s->vsel = 0;
            reload_versions(s, app);
        }
        return HR_HANDLED | HR_REDRAW;
    default:
        break;
    }
    if (ch == KEY_MOUSE) {
        int row = app->mouse_y - app->geo.body.y - 3 + s->top;
        if (row >= 0 && row < s->n) {
            if (row == s->sel && !s->plans[row].deleted)
                app_open_stored(app, s->plans[row].name, 0);
            s->sel = row;
        }
        return HR_HANDLED | HR_REDRAW;
    }
    return HR_UNHANDLED;
}

const ViewOps view_plans_ops = {
    .name = "Plans", .abbrev = "Plans", .ctx = CTX_PLANS,
    .create = b_create, .draw = b_draw, .key = b_key, .destroy = b_destroy, .show = b_show,
};
