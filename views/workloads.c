/* views/workloads.c — the left pane: the plan's workloads, teams and job
 * classes plus the plan-level sections as a list, and below (or beside) it
 * the form editing the selected one.  Every field of PLAN-FORMAT.md is
 * reachable here (plans/fields.c); edits validate as typed and commit on
 * Enter through app_commit (undo + recompute). */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui/app.h"

#define MAX_ITEMS (PLAN_MAX_WORKLOADS + PLAN_MAX_TEAMS * (PLAN_MAX_JOBS + 1) + 8)
#define MAX_FIELDS 96

typedef struct {
    FieldTarget t;
    char label[96];
    const char *tag;
    int depth;
} Item;

typedef struct {
    Item items[MAX_ITEMS];
    int n_items;
    int list_top;
    int form_sel, form_top;
    FieldTarget form_for;    /* which target form_sel refers to */
    bool editing;
    bool invalid;
    LineInput edit;
    const FieldDef *edit_field;
    const FieldDef *pick_field;  /* the field an open pick list sets */
    char values[MAX_FIELDS][PLAN_TEXT_LEN]; /* the form's formatted values (draw) */
} WState;

static bool same_target(FieldTarget a, FieldTarget b)
{
    if (a.scope != b.scope)
        return false;
    switch (a.scope) {
    case FS_WORKLOAD: return a.wl == b.wl;
    case FS_TEAM: return a.team == b.team;
    case FS_JOB: return a.team == b.team && a.job == b.job;
    default: return true;
    }
}

static void build_items(WState *s, const Plan *p)
{
    int n = 0;
    for (int i = 0; i < p->n_workloads && n < MAX_ITEMS; i++) {
        Item *it = &s->items[n++];
        memset(it, 0, sizeof *it);
        it->t.scope = FS_WORKLOAD;
        it->t.wl = i;
        snprintf(it->label, sizeof it->label, "%s", p->workloads[i].name);
        it->tag = p->workloads[i].kind == WL_TRAINING ? "trn" : "inf";
    }
    for (int t = 0; t < p->tenancy.n_teams && n < MAX_ITEMS; t++) {
        Item *it = &s->items[n++];
        memset(it, 0, sizeof *it);
        it->t.scope = FS_TEAM;
        it->t.team = t;
        snprintf(it->label, sizeof it->label, "%s", p->tenancy.teams[t].name);
        it->tag = "team";
        for (int j = 0; j < p->tenancy.teams[t].n_jobs && n < MAX_ITEMS; j++) {
            Item *jt = &s->items[n++];
            memset(jt, 0, sizeof *jt);
            jt->t.scope = FS_JOB;
            jt->t.team = t;
            jt->t.job = j;
            snprintf(jt->label, sizeof jt->label, "%s", p->tenancy.teams[t].jobs[j].name);
            jt->tag = "job";
            jt->depth = 1;
        }
    }
    static const struct { FieldScope s; const char *label; } sections[] = {
        {FS_PLAN, "plan"}, {FS_SITE, "site"}, {FS_NETWORK, "network"},
        {FS_STORAGE, "storage"}, {FS_TENANCY, "tenancy"},
    };
    for (size_t i = 0; i < sizeof sections / sizeof sections[0] && n < MAX_ITEMS; i++) {
        Item *it = &s->items[n++];
        memset(it, 0, sizeof *it);
        it->t.scope = sections[i].s;
        snprintf(it->label, sizeof it->label, "%s", sections[i].s == FS_PLAN ? p->name : sections[i].label);
        it->tag = sections[i].s == FS_PLAN ? "plan" : "sect";
    }
    s->n_items = n;
}

static int sel_index(const WState *s, FieldTarget t)
{
    for (int i = 0; i < s->n_items; i++)
        if (same_target(s->items[i].t, t))
            return i;
    return 0;
}

static void *w_create(App *app)
{
    (void)app;
    return calloc(1, sizeof(WState));
}

static void w_destroy(View *v)
{
    free(v->state);
    v->state = NULL;
}

static int current_fields(App *app, const FieldDef **defs)
{
    return fields_for(&app->plan, app->sel, defs, MAX_FIELDS);
}

static void fix_form_sel(WState *s, App *app)
{
    const FieldDef *defs[MAX_FIELDS];
    int n = current_fields(app, defs);
    if (!same_target(s->form_for, app->sel)) {
        s->form_for = app->sel;
        s->form_sel = 0;
        s->form_top = 0;
    }
    if (s->form_sel >= n)
        s->form_sel = n - 1;
    if (s->form_sel < 0)
        s->form_sel = 0;
    while (s->form_sel < n - 1 && defs[s->form_sel]->type == FT_HEADING)
        s->form_sel++;
}

/* ---- drawing */

static void draw_list(WState *s, App *app, Rect r)
{
    bool focused = app->focus == FOCUS_LIST && app->overlay < 0;
    term_fill(r.y, r.x, r.w, ROLE_NORMAL, " ");
    term_put(r.y, r.x + 1, r.w - 1, ROLE_TITLE, "WORKLOADS & TEAMS");
    int h = r.h - 1;
    int sel = sel_index(s, app->sel);
    widget_scroll(&s->list_top, sel, h, s->n_items);
    const PlanResult *res = app_result(app);
    for (int i = 0; i < h; i++) {
        int k = s->list_top + i, y = r.y + 1 + i;
        term_fill(y, r.x, r.w, ROLE_NORMAL, " ");
        if (k >= s->n_items)
            continue;
        const Item *it = &s->items[k];
        bool is_sel = k == sel;
        Role role = is_sel ? (focused ? ROLE_SELECTION : ROLE_SELECTION_DIM) : ROLE_NORMAL;
        if (!is_sel && (it->t.scope == FS_PLAN || it->tag[0] == 's'))
            role = ROLE_MUTED;
        /* a workload that does not fit / misses its SLO is flagged */
        if (!is_sel && it->t.scope == FS_WORKLOAD && res && res->have_sizing &&
            it->t.wl < res->n_workloads && !res->workloads[it->t.wl].ok)
            role = ROLE_BAD;
        term_fill(y, r.x, r.w, role, " ");
        int x = r.x;
        x += term_put(y, x, 2, role, is_sel ? term_glyphs->sel : " ");
        x += term_put(y, x, 1, role, " ");
        int tagw = 5;
        int indent = it->depth * 2;
        term_put(y, x + indent, r.w - (x - r.x) - indent - tagw, role, it->label);
        term_put_right(y, r.x + r.w - tagw, tagw - 1, is_sel ? role : ROLE_MUTED, it->tag);
    }
}

static void draw_form(WState *s, App *app, Rect r)
{
    bool focused = app->focus == FOCUS_FORM && app->overlay < 0;
    fix_form_sel(s, app);
    const FieldDef *defs[MAX_FIELDS];
    int n = current_fields(app, defs);
    char (*values)[PLAN_TEXT_LEN] = s->values;
    FormRow rows[MAX_FIELDS];
    for (int i = 0; i < n; i++) {
        field_format(defs[i], &app->plan, app->sel, values[i], sizeof s->values[i]);
        rows[i].label = defs[i]->label;
        rows[i].value = values[i];
        rows[i].unit = defs[i]->unit;
        rows[i].value_role = ROLE_VALUE;
        if (strcmp(values[i], "auto") == 0 || strncmp(values[i], "(plan", 5) == 0)
            rows[i].value_role = ROLE_MUTED;
        rows[i].choice = field_is_choice(defs[i]);
        rows[i].heading = defs[i]->type == FT_HEADING;
    }
    /* title: what is being edited */
    char title[160];
    const int si = sel_index(s, app->sel);
    snprintf(title, sizeof title, "%s%s%s", s->n_items ? s->items[si].label : "",
             app->sel.scope == FS_WORKLOAD ? (app->plan.workloads[app->sel.wl].kind == WL_TRAINING ? "  (training)" : "  (inference)") : "",
             app->sel.scope == FS_JOB ? "  (job class)" : app->sel.scope == FS_TEAM ? "  (team)" : "");
    term_fill(r.y, r.x, r.w, ROLE_NORMAL, " ");
    term_put(r.y, r.x + 1, r.w - 1, ROLE_TITLE, title);
    Rect fr = {r.y + 1, r.x + 1, r.h - 1, r.w - 1};
    widget_form(fr, rows, n, s->form_sel, &s->form_top, focused, s->editing ? &s->edit : NULL,
                s->invalid);
}

static void w_draw(View *v, App *app, Rect r)
{
    (void)r;
    WState *s = v->state;
    build_items(s, &app->plan);
    draw_list(s, app, app->geo.list);
    draw_form(s, app, app->geo.form);
}

/* ---- editing */

/* Live validation of the edit buffer: sets s->invalid and the status. */
static void validate_edit(WState *s, App *app)
{
    Plan *cand = malloc(sizeof *cand);
    if (!cand)
        return;
    *cand = app->plan;
    char err[512];
    if (field_set(s->edit_field, cand, app->sel, s->edit.buf, &app->cat, err, sizeof err) != 0 ||
        app_check(app, cand, err, sizeof err) != 0) {
        s->invalid = true;
        app_status(app, true, "%s: %s", s->edit_field->key, err);
    } else {
        s->invalid = false;
        app_status(app, false, "%s: Enter applies, Esc cancels", s->edit_field->key);
    }
    free(cand);
}

static void start_edit(WState *s, App *app, const FieldDef *f, const char *initial)
{
    s->editing = true;
    s->edit_field = f;
    char cur[PLAN_TEXT_LEN];
    if (initial) {
        input_set(&s->edit, initial);
    } else {
        field_format(f, &app->plan, app->sel, cur, sizeof cur);
        if (field_is_inherited(f, &app->plan, app->sel))
            cur[0] = '\0';
        input_set(&s->edit, cur);
    }
    validate_edit(s, app);
}

static void stop_edit(WState *s)
{
    s->editing = false;
    s->invalid = false;
}

static void commit_edit(WState *s, App *app)
{
    Plan *cand = malloc(sizeof *cand);
    if (!cand)
        return;
    *cand = app->plan;
    char err[512], what[1100], note[480];
    if (field_edit(s->edit_field, cand, app->sel, s->edit.buf, &app->cat, note, sizeof note, err,
                  sizeof err) != 0) {
        s->invalid = true;
        app_status(app, true, "%s: %s", s->edit_field->key, err);
    } else {
        char shown[PLAN_TEXT_LEN];
        field_format(s->edit_field, cand, app->sel, shown, sizeof shown);
        snprintf(what, sizeof what, "%s = %s %s%s%s", s->edit_field->key, shown,
                 s->edit_field->unit, note[0] ? "; " : "", note);
        if (app_commit(app, cand, what) == 0)
            stop_edit(s);
        else
            s->invalid = true;
    }
    free(cand);
}

static void cycle(WState *s, App *app, int dir)
{
    const FieldDef *defs[MAX_FIELDS];
    int n = current_fields(app, defs);
    if (s->form_sel >= n)
        return;
    const FieldDef *f = defs[s->form_sel];
    Plan *cand = malloc(sizeof *cand);
    if (!cand)
        return;
    *cand = app->plan;
    char note[480];
    if (field_step(f, cand, app->sel, dir, &app->cat, note, sizeof note) == 0) {
        char shown[PLAN_TEXT_LEN], what[900];
        field_format(f, cand, app->sel, shown, sizeof shown);
        snprintf(what, sizeof what, "%s = %s%s%s", f->key, shown, note[0] ? "; " : "", note);
        app_commit(app, cand, what);
    } else {
        app_status(app, false, "%s: Enter to edit (%s)", f->key, f->help);
    }
    free(cand);
}

static void picked(App *app, int index, const char *item, void *ctx)
{
    WState *s = ctx;
    const FieldDef *pick_field = s->pick_field;
    if (index < 0 || !item || !pick_field)
        return;
    Plan *cand = malloc(sizeof *cand);
    if (!cand)
        return;
    *cand = app->plan;
    char err[512], what[900], note[480];
    if (field_edit(pick_field, cand, app->sel, item, &app->cat, note, sizeof note, err,
                  sizeof err) != 0) {
        app_status(app, true, "%s: %s", pick_field->key, err);
    } else {
        snprintf(what, sizeof what, "%s = %s%s%s", pick_field->key, item, note[0] ? "; " : "", note);
        app_commit(app, cand, what);
    }
    free(cand);
}

static void open_pick(WState *s, App *app)
{
    const FieldDef *defs[MAX_FIELDS];
    int n = current_fields(app, defs);
    if (s->form_sel >= n)
        return;
    const FieldDef *f = defs[s->form_sel];
    if (!field_is_choice(f)) {
        app_status(app, false, "%s is typed, not picked: Enter to edit", f->key);
        return;
    }
    const char *ch[PICK_MAX];
    int k = field_choices(f, &app->plan, &app->cat, ch, PICK_MAX);
    int sel = field_choice_index(f, &app->plan, app->sel, ch, k);
    if (sel < 0)
        sel = 0;
    s->pick_field = f;
    char title[96];
    snprintf(title, sizeof title, "%s", f->key);
    app_prompt_pick(app, title, ch, k, sel, picked, s);
}

/* ---- add / delete / clone */

static bool wl_exists(const Plan *p, const char *n)
{
    for (int i = 0; i < p->n_workloads; i++)
        if (strcmp(p->workloads[i].name, n) == 0)
            return true;
    return false;
}

static bool team_exists(const Plan *p, const char *n)
{
    for (int i = 0; i < p->tenancy.n_teams; i++)
        if (strcmp(p->tenancy.teams[i].name, n) == 0)
            return true;
    return false;
}

static bool job_exists(const Team *t, const char *n)
{
    for (int i = 0; i < t->n_jobs; i++)
        if (strcmp(t->jobs[i].name, n) == 0)
            return true;
    return false;
}

/* base, base-2, base-3 … the first that `exists` rejects. */
static void unique(char *out, size_t len, const char *base, bool (*exists)(const void *, const char *),
                   const void *ctx)
{
    snprintf(out, len, "%.50s", base);
    for (int i = 2; exists(ctx, out) && i < 1000; i++)
        snprintf(out, len, "%.50s-%d", base, i);
}

static bool wl_exists_v(const void *p, const char *n) { return wl_exists(p, n); }
static bool team_exists_v(const void *p, const char *n) { return team_exists(p, n); }
static bool job_exists_v(const void *t, const char *n) { return job_exists(t, n); }

enum { ADD_TRAIN = 0, ADD_INFER, ADD_TEAM, ADD_JOB };

static void add_picked(App *app, int index, const char *item, void *ctx)
{
    (void)item;
    (void)ctx;
    if (index < 0)
        return;
    Plan *c = malloc(sizeof *c);
    if (!c)
        return;
    *c = app->plan;
    FieldTarget nt = app->sel;
    char what[200] = "";
    if (index == ADD_TRAIN || index == ADD_INFER) {
        if (c->n_workloads >= PLAN_MAX_WORKLOADS) {
            app_status(app, true, "a plan holds at most %d workloads", PLAN_MAX_WORKLOADS);
            free(c);
            return;
        }
        Workload *w = &c->workloads[c->n_workloads];
        workload_init(w, index == ADD_TRAIN ? WL_TRAINING : WL_INFERENCE);
        const char *preset = index == ADD_TRAIN ? "llama-3-8b" : "llama-3-8b";
        char err[256];
        c->n_workloads++;
        FieldTarget t = {FS_WORKLOAD, c->n_workloads - 1, 0, 0};
        FieldTarget dummy;
        const FieldDef *pf = fields_find(c, t, "model.preset", &dummy);
        if (!pf || field_set(pf, c, t, preset, &app->cat, err, sizeof err) != 0) {
            /* no preset table: a small explicit shape (Llama-3-8B config.json) */
            w->model.layers = 32; w->model.hidden = 4096; w->model.ffn_hidden = 14336;
            w->model.heads = 32; w->model.kv_heads = 8; w->model.vocab = 128256;
        }
        if (index == ADD_TRAIN) {
            w->tokens = 1e12;
            w->target_days = 30;
        }
        unique(w->name, sizeof w->name, index == ADD_TRAIN ? "training" : "inference", wl_exists_v, c);
        nt = t;
        snprintf(what, sizeof what, "added workload %s", w->name);
    } else if (index == ADD_TEAM) {
        if (c->tenancy.n_teams >= PLAN_MAX_TEAMS) {
            app_status(app, true, "a plan holds at most %d teams", PLAN_MAX_TEAMS);
            free(c);
            return;
        }
        Team *t = &c->tenancy.teams[c->tenancy.n_teams];
        team_init(t);
        unique(t->name, sizeof t->name, "team", team_exists_v, c);
        jobclass_init(&t->jobs[0]);
        snprintf(t->jobs[0].name, sizeof t->jobs[0].name, "jobs");
        t->n_jobs = 1;
        nt.scope = FS_TEAM;
        nt.team = c->tenancy.n_teams++;
        snprintf(what, sizeof what, "added team %s", t->name);
    } else {
        int ti = (app->sel.scope == FS_TEAM || app->sel.scope == FS_JOB) ? app->sel.team : -1;
        if (ti < 0) {
            app_status(app, true, "select a team first: job classes belong to a team");
            free(c);
            return;
        }
        Team *t = &c->tenancy.teams[ti];
        if (t->n_jobs >= PLAN_MAX_JOBS) {
            app_status(app, true, "a team holds at most %d job classes", PLAN_MAX_JOBS);
            free(c);
            return;
        }
        JobClass *j = &t->jobs[t->n_jobs];
        jobclass_init(j);
        unique(j->name, sizeof j->name, "jobs", job_exists_v, t);
        nt.scope = FS_JOB;
        nt.team = ti;
        nt.job = t->n_jobs++;
        snprintf(what, sizeof what, "added job class %s to %s", j->name, t->name);
    }
    FieldTarget before = app->sel;
    app->sel = nt;
    if (app_commit(app, c, what) != 0)
        app->sel = before;
    free(c);
}

static void delete_answer(App *app, int key, void *ctx)
{
    (void)ctx;
    if (key != 'y') {
        app_status(app, false, "kept");
        return;
    }
    Plan *c = malloc(sizeof *c);
    if (!c)
        return;
    *c = app->plan;
    FieldTarget t = app->sel, nt = t;
    char what[200];
    if (t.scope == FS_WORKLOAD) {
        snprintf(what, sizeof what, "deleted workload %s", c->workloads[t.wl].name);
        memmove(&c->workloads[t.wl], &c->workloads[t.wl + 1],
                (size_t)(c->n_workloads - t.wl - 1) * sizeof c->workloads[0]);
        c->n_workloads--;
        if (nt.wl >= c->n_workloads)
            nt.wl = c->n_workloads - 1;
        if (nt.wl < 0)
            nt.scope = FS_PLAN;
    } else if (t.scope == FS_TEAM) {
        snprintf(what, sizeof what, "deleted team %s", c->tenancy.teams[t.team].name);
        for (int i = 0; i < c->n_workloads; i++)
            if (strcmp(c->workloads[i].team, c->tenancy.teams[t.team].name) == 0)
                c->workloads[i].team[0] = '\0';
        memmove(&c->tenancy.teams[t.team], &c->tenancy.teams[t.team + 1],
                (size_t)(c->tenancy.n_teams - t.team - 1) * sizeof c->tenancy.teams[0]);
        c->tenancy.n_teams--;
        if (nt.team >= c->tenancy.n_teams)
            nt.team = c->tenancy.n_teams - 1;
        if (nt.team < 0)
            nt.scope = FS_TENANCY;
    } else if (t.scope == FS_JOB) {
        Team *tm = &c->tenancy.teams[t.team];
        snprintf(what, sizeof what, "deleted job class %s", tm->jobs[t.job].name);
        memmove(&tm->jobs[t.job], &tm->jobs[t.job + 1], (size_t)(tm->n_jobs - t.job - 1) * sizeof tm->jobs[0]);
        tm->n_jobs--;
        nt.scope = FS_TEAM;
    } else {
        free(c);
        return;
    }
    FieldTarget before = app->sel;
    app->sel = nt;
    if (app_commit(app, c, what) != 0)
        app->sel = before;
    free(c);
}

static void clone_selected(App *app)
{
    Plan *c = malloc(sizeof *c);
    if (!c)
        return;
    *c = app->plan;
    FieldTarget t = app->sel, nt = t;
    char what[200] = "";
    if (t.scope == FS_WORKLOAD && c->n_workloads < PLAN_MAX_WORKLOADS) {
        Workload w = c->workloads[t.wl];
        char base[PLAN_NAME_LEN];
        snprintf(base, sizeof base, "%.50s-copy", w.name);
        unique(w.name, sizeof w.name, base, wl_exists_v, c);
        c->workloads[c->n_workloads] = w;
        nt.wl = c->n_workloads++;
        snprintf(what, sizeof what, "cloned as %s", w.name);
    } else if (t.scope == FS_TEAM && c->tenancy.n_teams < PLAN_MAX_TEAMS) {
        Team tm = c->tenancy.teams[t.team];
        char base[PLAN_NAME_LEN];
        snprintf(base, sizeof base, "%.50s-copy", tm.name);
        unique(tm.name, sizeof tm.name, base, team_exists_v, c);
        c->tenancy.teams[c->tenancy.n_teams] = tm;
        nt.team = c->tenancy.n_teams++;
        snprintf(what, sizeof what, "cloned as %s", tm.name);
    } else if (t.scope == FS_JOB && c->tenancy.teams[t.team].n_jobs < PLAN_MAX_JOBS) {
        Team *tm = &c->tenancy.teams[t.team];
        JobClass j = tm->jobs[t.job];
        char base[PLAN_NAME_LEN];
        snprintf(base, sizeof base, "%.50s-copy", j.name);
        unique(j.name, sizeof j.name, base, job_exists_v, tm);
        tm->jobs[tm->n_jobs] = j;
        nt.job = tm->n_jobs++;
        snprintf(what, sizeof what, "cloned as %s", j.name);
    } else {
        app_status(app, true, t.scope <= FS_TENANCY ? "select a workload, team or job class to clone"
                                                   : "no room for another one");
        free(c);
        return;
    }
    FieldTarget before = app->sel;
    app->sel = nt;
    if (app_commit(app, c, what) != 0)
        app->sel = before;
    free(c);
}

/* ---- keys */

static int find_item(WState *s, App *app, int from, int dir)
{
    if (!app->find[0] || s->n_items == 0)
        return -1;
    for (int k = 0; k < s->n_items; k++) {
        int i = ((from + dir * k) % s->n_items + s->n_items) % s->n_items;
        const char *l = s->items[i].label;
        size_t n = strlen(app->find);
        for (const char *c = l; *c; c++)
            if (strncasecmp(c, app->find, n) == 0)
                return i;
    }
    return -1;
}

static void select_item(WState *s, App *app, int i)
{
    if (i < 0 || i >= s->n_items)
        return;
    app->sel = s->items[i].t;
    (void)s;
}

static int list_key(WState *s, App *app, Action a, int ch)
{
    int sel = sel_index(s, app->sel);
    int page = app->geo.list.h - 2 > 1 ? app->geo.list.h - 2 : 1;
    switch (a) {
    case ACT_UP: select_item(s, app, sel > 0 ? sel - 1 : 0); return HR_HANDLED | HR_REDRAW;
    case ACT_DOWN: select_item(s, app, sel + 1 < s->n_items ? sel + 1 : sel); return HR_HANDLED | HR_REDRAW;
    case ACT_PGUP: select_item(s, app, sel > page ? sel - page : 0); return HR_HANDLED | HR_REDRAW;
    case ACT_PGDN: select_item(s, app, sel + page < s->n_items ? sel + page : s->n_items - 1); return HR_HANDLED | HR_REDRAW;
    case ACT_TOP: select_item(s, app, 0); return HR_HANDLED | HR_REDRAW;
    case ACT_BOTTOM: select_item(s, app, s->n_items - 1); return HR_HANDLED | HR_REDRAW;
    case ACT_ENTER: case ACT_RIGHT:
        app->focus = FOCUS_FORM;
        return HR_HANDLED | HR_REDRAW;
    case ACT_ADD: {
        static const char *const kinds[] = {"training workload", "inference workload", "team",
                                            "job class (in the selected team)"};
        app_prompt_pick(app, "Add", kinds, 4, 0, add_picked, NULL);
        return HR_HANDLED | HR_REDRAW;
    }
    case ACT_DELETE: {
        if (app->sel.scope <= FS_TENANCY) {
            app_status(app, true, "plan sections cannot be deleted; select a workload, team or job class");
            return HR_HANDLED | HR_REDRAW;
        }
        char q[200];
        snprintf(q, sizeof q, "Delete %s %s? (y/n)",
                 app->sel.scope == FS_WORKLOAD ? "workload" : app->sel.scope == FS_TEAM ? "team" : "job class",
                 s->items[sel].label);
        app_prompt_key(app, q, "yn", delete_answer, NULL);
        return HR_HANDLED | HR_REDRAW;
    }
    case ACT_CLONE: clone_selected(app); return HR_HANDLED | HR_REDRAW;
    case ACT_FIND_APPLY: case ACT_FIND_NEXT: case ACT_FIND_PREV: {
        int dir = a == ACT_FIND_PREV ? -1 : 1;
        int from = a == ACT_FIND_APPLY ? sel : sel + dir;
        int i = find_item(s, app, from, dir);
        if (i < 0)
            app_status(app, true, "not found: %s", app->find);
        else
            select_item(s, app, i);
        return HR_HANDLED | HR_REDRAW;
    }
    default:
        break;
    }
    if (ch == KEY_MOUSE) {
        int row = app->mouse_y - app->geo.list.y - 1 + s->list_top;
        if (row >= 0 && row < s->n_items)
            select_item(s, app, row);
        return HR_HANDLED | HR_REDRAW;
    }
    return HR_UNHANDLED;
}

static void move_field(WState *s, App *app, int dir, int steps)
{
    const FieldDef *defs[MAX_FIELDS];
    int n = current_fields(app, defs);
    int i = s->form_sel;
    for (int k = 0; k < steps; k++) {
        int j = i + dir;
        while (j >= 0 && j < n && defs[j]->type == FT_HEADING)
            j += dir;
        if (j < 0 || j >= n)
            break;
        i = j;
    }
    s->form_sel = i;
    if (i < n && defs[i]->help && defs[i]->help[0])
        app_status(app, false, "%s: %s", defs[i]->key, defs[i]->help);
}

static int form_key(WState *s, App *app, Action a, int ch)
{
    const FieldDef *defs[MAX_FIELDS];
    fix_form_sel(s, app);
    int n = current_fields(app, defs);
    if (s->editing) {
        if (ch == 27) {
            stop_edit(s);
            app_status(app, false, "edit cancelled");
            return HR_HANDLED | HR_REDRAW;
        }
        if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
            commit_edit(s, app);
            return HR_HANDLED | HR_REDRAW;
        }
        if (ch == KEY_UP || ch == KEY_DOWN || ch == '\t') {
            /* leaving the field applies it when valid */
            commit_edit(s, app);
            if (!s->editing && ch != '\t')
                move_field(s, app, ch == KEY_UP ? -1 : 1, 1);
            return HR_HANDLED | HR_REDRAW;
        }
        if (ch == KEY_MOUSE)
            return HR_HANDLED;
        if (input_key(&s->edit, ch) == 1)
            validate_edit(s, app);
        return HR_HANDLED | HR_REDRAW;
    }
    if (n == 0)
        return HR_UNHANDLED;
    const FieldDef *f = defs[s->form_sel];
    switch (a) {
    case ACT_UP: move_field(s, app, -1, 1); return HR_HANDLED | HR_REDRAW;
    case ACT_DOWN: move_field(s, app, 1, 1); return HR_HANDLED | HR_REDRAW;
    case ACT_PGUP: move_field(s, app, -1, 10); return HR_HANDLED | HR_REDRAW;
    case ACT_PGDN: move_field(s, app, 1, 10); return HR_HANDLED | HR_REDRAW;
    case ACT_TOP: s->form_sel = 0; move_field(s, app, 1, 0); return HR_HANDLED | HR_REDRAW;
    case ACT_BOTTOM: s->form_sel = n - 1; return HR_HANDLED | HR_REDRAW;
    case ACT_ENTER:
        if (field_is_choice(f) && f->type != FT_BOOL && f->type != FT_TRI)
            open_pick(s, app);
        else if (f->type == FT_BOOL || f->type == FT_TRI)
            cycle(s, app, 1);
        else
            start_edit(s, app, f, NULL);
        return HR_HANDLED | HR_REDRAW;
    case ACT_LEFT:
        if (field_is_choice(f))
            cycle(s, app, -1);
        else
            app->focus = FOCUS_LIST;
        return HR_HANDLED | HR_REDRAW;
    case ACT_RIGHT:
        if (field_is_choice(f))
            cycle(s, app, 1);
        else
            start_edit(s, app, f, NULL);
        return HR_HANDLED | HR_REDRAW;
    case ACT_TOGGLE: cycle(s, app, 1); return HR_HANDLED | HR_REDRAW;
    case ACT_PICK: open_pick(s, app); return HR_HANDLED | HR_REDRAW;
    case ACT_FIND_APPLY: case ACT_FIND_NEXT: case ACT_FIND_PREV: {
        /* find a field by its key */
        int dir = a == ACT_FIND_PREV ? -1 : 1;
        size_t fl = strlen(app->find);
        for (int k = a == ACT_FIND_APPLY ? 0 : 1; k <= n && fl; k++) {
            int i = ((s->form_sel + dir * k) % n + n) % n;
            if (defs[i]->type == FT_HEADING)
                continue;
            for (const char *c = defs[i]->key; *c; c++)
                if (strncasecmp(c, app->find, fl) == 0) {
                    s->form_sel = i;
                    return HR_HANDLED | HR_REDRAW;
                }
        }
        app_status(app, true, "no field matches %s", app->find);
        return HR_HANDLED | HR_REDRAW;
    }
    case ACT_CLOSE: app->focus = FOCUS_LIST; return HR_HANDLED | HR_REDRAW;
    default:
        break;
    }
    if (ch == 27) {
        app->focus = FOCUS_LIST;
        return HR_HANDLED | HR_REDRAW;
    }
    if (ch == KEY_MOUSE) {
        int row = app->mouse_y - app->geo.form.y - 1 + s->form_top;
        if (row >= 0 && row < n && defs[row]->type != FT_HEADING) {
            bool again = row == s->form_sel;
            s->form_sel = row;
            if (again && !field_is_choice(defs[row]))
                start_edit(s, app, defs[row], NULL);
            else if (again)
                cycle(s, app, 1);
        }
        return HR_HANDLED | HR_REDRAW;
    }
    /* typing a number on a numeric field starts editing with it */
    if ((isdigit(ch) || ch == '.') && (f->type == FT_INT || f->type == FT_REAL || f->type == FT_U64)) {
        char init[2] = {(char)ch, 0};
        start_edit(s, app, f, init);
        return HR_HANDLED | HR_REDRAW;
    }
    return HR_UNHANDLED;
}

static int w_key(View *v, App *app, Action a, int ch)
{
    WState *s = v->state;
    build_items(s, &app->plan);
    if (ch == KEY_MOUSE) {
        if (layout_in(app->geo.list, app->mouse_y, app->mouse_x))
            return list_key(s, app, ACT_NONE, ch);
        return form_key(s, app, ACT_NONE, ch);
    }
    if (app->focus == FOCUS_FORM || s->editing)
        return form_key(s, app, a, ch);
    return list_key(s, app, a, ch);
}

static void w_show(View *v, App *app)
{
    (void)app;
    WState *s = v->state;
    if (s->editing)
        stop_edit(s);
}

const ViewOps view_workloads_ops = {
    .name = "Workloads",
    .abbrev = "Work",
    .ctx = CTX_LIST,
    .create = w_create,
    .draw = w_draw,
    .key = w_key,
    .destroy = w_destroy,
    .show = w_show,
};
