/* tui/app.c — the dashboard's main loop (tui_run), dispatch, prompts and
 * the services views use (see app.h).  One frame = erase, draw chrome and
 * visible views, one wnoutrefresh + doupdate, only when something is dirty. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "catalog_yaml.h"
#include "datadir.h"
#include "diag.h"
#include "explain.h"
#include "export.h"
#include "tui.h"
#include "yaml_plan.h"

#define CTRL(c) ((c) & 0x1f)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------- services */

void app_status(App *app, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(app->status, sizeof app->status, fmt, ap);
    va_end(ap);
    app->status_error = error;
    app->dirty = true;
}

const PlanResult *app_result(const App *app)
{
    return app->result_gen > 0 && app->result_gen >= app->base_gen ? app->result : NULL;
}

bool app_recomputing(const App *app)
{
    return app->result_gen < app->gen;
}

const SensResult *app_sensitivity(const App *app)
{
    return app->sens && app->ranges_gen > 0 && app->ranges_gen >= app->base_gen ? app->sens : NULL;
}

const McResult *app_monte_carlo(const App *app)
{
    return app_sensitivity(app) ? &app->mc : NULL;
}

bool app_ranges_stale(const App *app)
{
    return app->ranges_gen < app->gen;
}

int app_check(App *app, const Plan *candidate, char *msg, size_t len)
{
    Diag d;
    memset(&d, 0, sizeof d);
    if (plan_validate(candidate, &app->cat, &d) != 0) {
        snprintf(msg, len, "%s", d.msg[0] ? d.msg : "invalid plan");
        return -1;
    }
    return 0;
}

static void submit(App *app)
{
    app->gen++;
    worker_submit(app->worker, &app->plan, app->gen);
    app->dirty = true;
}

static void do_undo(App *app, bool redo);

/* Modified means "differs from the plan as opened or saved": compared as
 * the YAML the store would keep, so undoing every edit (or setting a value
 * back) leaves nothing to save. */
static void update_modified(App *app)
{
    app->modified = true;
    if (!app->clean_yaml)
        return;
    char *now = plan_to_yaml(&app->plan);
    if (now && strcmp(now, app->clean_yaml) == 0)
        app->modified = false;
    free(now);
}

static void set_clean(App *app, char *yaml)
{
    free(app->clean_yaml);
    app->clean_yaml = yaml;
}

int app_commit(App *app, const Plan *candidate, const char *what)
{
    char msg[512];
    if (app_check(app, candidate, msg, sizeof msg) != 0) {
        app_status(app, true, "invalid: %s", msg);
        return -1;
    }
    undo_push(&app->undo, &app->plan);
    undo_set_what(&app->undo, what);
    bool new_trace = strcmp(candidate->tenancy.trace, app->plan.tenancy.trace) != 0;
    app->plan = *candidate;
    if (new_trace && app_attach_trace(app, &app->plan, msg, sizeof msg) != 0) {
        /* a trace that cannot be read is not accepted: back to the plan before */
        undo_undo(&app->undo, &app->plan);
        undo_redo_clear(&app->undo);
        app_status(app, true, "%s", msg);
        return -1;
    }
    update_modified(app);
    submit(app);
    app->key_gen = app->gen;
    if (what)
        app_status(app, false, "%s", what);
    return 0;
}

void app_prompt_text(App *app, const char *title, const char *initial, PromptTextFn done, void *ctx)
{
    Prompt *p = &app->prompt;
    app->completions[0] = '\0';
    memset(p, 0, sizeof *p);
    p->kind = PROMPT_TEXT;
    snprintf(p->title, sizeof p->title, "%s", title);
    input_set(&p->in, initial);
    p->on_text = done;
    p->ctx = ctx;
    app->dirty = true;
}

void app_prompt_key(App *app, const char *question, const char *keys, PromptKeyFn done, void *ctx)
{
    Prompt *p = &app->prompt;
    memset(p, 0, sizeof *p);
    p->kind = PROMPT_KEY;
    snprintf(p->title, sizeof p->title, "%s", question);
    snprintf(p->keys, sizeof p->keys, "%s", keys);
    p->on_key = done;
    p->ctx = ctx;
    app->dirty = true;
}

void app_prompt_pick(App *app, const char *title, const char *const *items, int n, int sel,
                     PromptPickFn done, void *ctx)
{
    Prompt *p = &app->prompt;
    memset(p, 0, sizeof *p);
    p->kind = PROMPT_PICK;
    snprintf(p->title, sizeof p->title, "%s", title);
    if (n > PICK_MAX)
        n = PICK_MAX;
    for (int i = 0; i < n; i++)
        snprintf(p->items[i], sizeof p->items[i], "%s", items[i]);
    p->n_items = n;
    p->pick_sel = sel >= 0 && sel < n ? sel : 0;
    p->on_pick = done;
    p->ctx = ctx;
    app->dirty = true;
}

static void view_show(App *app, int id)
{
    View *v = &app->views[id];
    if (v->ops->show)
        v->ops->show(v, app);
}

void app_show_overlay(App *app, int view)
{
    app->overlay = view;
    view_show(app, view);
    app->dirty = true;
}

void app_close_overlay(App *app)
{
    if (app->overlay == VIEW_PRESENT && app->theme_before_present[0]) {
        char prev[64];
        snprintf(prev, sizeof prev, "%s", app->theme_before_present);
        app->theme_before_present[0] = '\0';
        app_theme_set(app, prev, false);
    }
    app->overlay = -1;
    app->dirty = true;
}

void app_info_show(App *app, const char *title, const char *text)
{
    char *copy = strdup(text ? text : "");
    if (!copy) {
        app_status(app, true, "out of memory");
        return;
    }
    free(app->info_text);
    app->info_text = copy;
    snprintf(app->info_title, sizeof app->info_title, "%s", title);
    app_show_overlay(app, VIEW_INFO);
}

void app_copy(App *app, const char *text, const char *what)
{
    if (term_osc52(text) != 0)
        app_status(app, true, "copy failed: the terminal did not take the text");
    else
        app_status(app, false, "copied to the clipboard, %zu bytes: %s", strlen(text), what);
    if (app->log)
        fprintf(app->log, "copy bytes=%zu\n", strlen(text)), fflush(app->log);
}

/* ---- the meeting: warnings, explain, presenter */

static void show_warnings(App *app)
{
    const PlanResult *r = app_result(app);
    if (!r) {
        app_status(app, false, "no result yet");
        return;
    }
    StrBuf b;
    sb_init(&b);
    if (r->n_warnings == 0)
        sb_puts(&b, "none\n");
    for (int i = 0; i < r->n_warnings; i++)
        sb_printf(&b, "%d. %s\n", i + 1, r->warnings[i]);
    bool head = false;
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *w = &r->workloads[i];
        const char *bind = w->kind == WL_TRAINING ? w->train.binding : w->infer.binding;
        const char *fix = w->kind == WL_TRAINING ? w->train.fix : w->infer.fix;
        if (!bind[0])
            continue;
        if (!head)
            sb_puts(&b, "\n# binding constraints\n");
        head = true;
        sb_printf(&b, "%s: %s%s%s\n", w->name, bind, fix[0] ? "; fix: " : "", fix);
    }
    char *text = sb_finish(&b);
    char title[PLAN_NAME_LEN + 64];
    snprintf(title, sizeof title, "%s: %d warning%s (y copies, q closes)", app->plan.name,
             r->n_warnings, r->n_warnings == 1 ? "" : "s");
    app_info_show(app, title, text ? text : "");
    free(text);
}

static void explain_item(App *app, const ExplainItem *it)
{
    char *text = explain_text(app, it);
    if (!text) {
        app_status(app, true, "explain: the result changed; try again");
        return;
    }
    char title[256];
    snprintf(title, sizeof title, "explain %s (y copies, q closes)", it->label);
    /* the copy carries the number with its explanation */
    char *full = malloc(strlen(text) + strlen(it->label) + 4);
    if (full) {
        sprintf(full, "%s\n\n%s", it->label, text);
        app_info_show(app, title, full);
        free(full);
    }
    free(text);
}

#define EXPLAIN_MAX 64

static void explain_picked(App *app, int index, const char *item, void *ctx)
{
    (void)ctx;
    (void)item;
    if (index < 0)
        return;
    ExplainItem its[EXPLAIN_MAX];
    int n = explain_list(app, its, EXPLAIN_MAX);
    if (index < n)
        explain_item(app, &its[index]);
}

static void explain_menu(App *app)
{
    ExplainItem its[EXPLAIN_MAX];
    int n = explain_list(app, its, EXPLAIN_MAX);
    if (n == 0) {
        app_status(app, false, "explain: no result yet");
        return;
    }
    const char *items[EXPLAIN_MAX];
    int sel = 0;
    for (int i = 0; i < n; i++) {
        items[i] = its[i].label;
        /* start on the selected workload's first number */
        if (!sel && its[i].wl >= 0 && app->sel.scope == FS_WORKLOAD && its[i].wl == app->sel.wl)
            sel = i;
    }
    app_prompt_pick(app, "Explain which number?", items, n, sel, explain_picked, NULL);
}

static void present_toggle(App *app)
{
    if (app->overlay == VIEW_PRESENT) {
        app_close_overlay(app);
        return;
    }
    /* a projector wants the high-contrast theme; the user's comes back */
    snprintf(app->theme_before_present, sizeof app->theme_before_present, "%s", app->theme.name);
    if (strcmp(app->theme.name, "high-contrast") != 0 &&
        app_theme_set(app, "high-contrast", false) != 0)
        app->theme_before_present[0] = '\0';
    app_show_overlay(app, VIEW_PRESENT);
    app_status(app, false, "presenter mode: P or Esc leaves");
}

/* ---- traces */

int app_attach_trace(App *app, Plan *p, char *err, size_t len)
{
    p->tenancy.trace_jobs = NULL;
    p->tenancy.n_trace_jobs = 0;
    if (!p->tenancy.trace[0])
        return 0;
    Trace *grown = realloc(app->traces, (size_t)(app->n_traces + 1) * sizeof *grown);
    if (!grown) {
        snprintf(err, len, "out of memory loading %s", p->tenancy.trace);
        return -1;
    }
    app->traces = grown;
    Trace *t = &app->traces[app->n_traces];
    Diag d;
    memset(&d, 0, sizeof d);
    /* the same lookup and team matching as the command line */
    if (trace_attach(p, NULL, t, &d) != 0) {
        char buf[700];
        snprintf(err, len, "trace not loaded: %s", diag_format(&d, buf, sizeof buf));
        return -1;
    }
    app->n_traces++;
    return 0;
}

/* ---- opening */

void app_set_plan(App *app, const Plan *p, int version, bool modified)
{
    app->plan = *p;
    app->version = version;
    app->modified = modified;
    set_clean(app, modified ? NULL : plan_to_yaml(&app->plan));
    undo_clear(&app->undo);
    snprintf(app->draft_name, sizeof app->draft_name, "%s", app->plan.name);
    app->draft_gen = 0;
    app->draft_kept = false;
    memset(&app->sel, 0, sizeof app->sel);
    app->sel.scope = app->plan.n_workloads > 0 ? FS_WORKLOAD : FS_PLAN;
    submit(app);
    app->base_gen = app->gen; /* results before this belong to another plan */
    app->key_gen = app->gen;
    if (app->store && version > 0)
        store_pref_set(app->store, "last_plan", app->plan.name, NULL);
    for (int i = 0; i < VIEW_COUNT; i++)
        view_show(app, i);
}

static int load_stored(App *app, const char *name, int version, Plan *out, int *ver_out,
                       char *err, size_t errlen)
{
    Diag d;
    memset(&d, 0, sizeof d);
    char *yaml = NULL;
    char buf[800];
    if (!app->store || store_load(app->store, name, version, &yaml, ver_out, &d) != 0) {
        snprintf(err, errlen, "%s", app->store ? diag_format(&d, buf, sizeof buf) : "no store");
        return -1;
    }
    char file[128];
    snprintf(file, sizeof file, "store:%s", name);
    int rc = plan_parse(yaml, strlen(yaml), file, &app->cat, out, &d);
    free(yaml);
    if (rc != 0) {
        snprintf(err, errlen, "%s", diag_format(&d, buf, sizeof buf));
        return -1;
    }
    char terr[512];
    if (app_attach_trace(app, out, terr, sizeof terr) != 0)
        app_status(app, true, "%s", terr);
    return 0;
}

static void do_open(App *app, const char *name, int version)
{
    Plan *p = malloc(sizeof *p);
    if (!p)
        return;
    int ver = 0;
    char err[900];
    if (load_stored(app, name, version, p, &ver, err, sizeof err) != 0) {
        app_status(app, true, "cannot open %s: %s", name, err);
    } else {
        app_set_plan(app, p, ver, false);
        app_close_overlay(app);
        app_status(app, false, "opened %s v%d", app->plan.name, ver);
    }
    free(p);
}

static void open_confirmed(App *app, int key, void *ctx)
{
    (void)ctx;
    if (key == 'y') {
        app_draft_drop(app);
        do_open(app, app->open_name, app->open_version);
    }
    else
        app_status(app, false, "kept the current plan");
}

int app_open_stored(App *app, const char *name, int version)
{
    if (app->modified) {
        snprintf(app->open_name, sizeof app->open_name, "%s", name);
        app->open_version = version;
        char q[256];
        snprintf(q, sizeof q, "Discard unsaved changes to %s and open %s? (y/n)", app->plan.name, name);
        app_prompt_key(app, q, "yn", open_confirmed, NULL);
        return -1;
    }
    do_open(app, name, version);
    return 0;
}

/* ---- saving */

static void save_with_note(App *app, const char *note, void *ctx)
{
    (void)ctx;
    if (!app->store) {
        app_status(app, true, "no plan store open");
        return;
    }
    char *yaml = plan_to_yaml(&app->plan);
    if (!yaml) {
        app_status(app, true, "out of memory writing the plan");
        return;
    }
    Diag d;
    memset(&d, 0, sizeof d);
    int ver = 0;
    if (store_save_version(app->store, app->plan.name, yaml, note, &ver, &d) != 0) {
        char buf[800];
        app_status(app, true, "save failed: %s", diag_format(&d, buf, sizeof buf));
        app->quit_after_save = false;
    } else {
        app->version = ver;
        app->modified = false;
        set_clean(app, plan_to_yaml(&app->plan));
        app_draft_drop(app);
        snprintf(app->draft_name, sizeof app->draft_name, "%s", app->plan.name);
        store_pref_set(app->store, "last_plan", app->plan.name, NULL);
        app_status(app, false, "saved %s v%d%s%s", app->plan.name, ver, note[0] ? ": " : "", note);
        if (app->quit_after_save)
            app->quit = true;
        view_show(app, VIEW_PLANS);
    }
    free(yaml);
}

/* The working copy, edits included, stored as a new plan `name` (v1);
 * open_it makes it the plan being edited (:w NAME), else the open plan
 * stays as it is (Duplicate in F3).  Returns 0, or -1 with the status set. */
static int save_copy(App *app, const char *name, bool open_it)
{
    if (!app->store) {
        app_status(app, true, "no plan store open");
        return -1;
    }
    if (!store_name_valid(name)) {
        app_status(app, true, "'%s' is not a plan name ([A-Za-z0-9._ -], 1-64)", name);
        return -1;
    }
    if (store_exists(app->store, name)) {
        app_status(app, true, "a plan '%s' exists already (F2 saves a version of the plan open)",
                   name);
        return -1;
    }
    Plan *p = malloc(sizeof *p);
    if (!p)
        return -1;
    *p = app->plan;
    snprintf(p->name, sizeof p->name, "%s", name);
    char *yaml = plan_to_yaml(p);
    Diag d;
    memset(&d, 0, sizeof d);
    int ver = 0, rc = -1;
    char note[200];
    if (app->version > 0)
        snprintf(note, sizeof note, "copy of %s v%d%s", app->plan.name, app->version,
                 app->modified ? " with unsaved edits" : "");
    else
        snprintf(note, sizeof note, "copy of %s (never saved)", app->plan.name);
    if (!yaml || store_save_version(app->store, name, yaml, note, &ver, &d) != 0) {
        char buf[800];
        app_status(app, true, "save failed: %s", yaml ? diag_format(&d, buf, sizeof buf)
                                                      : "out of memory");
    } else if (open_it) {
        /* the edits now live in the new plan: the old one's draft goes */
        app_draft_drop(app);
        app->plan = *p;
        app->version = ver;
        app->modified = false;
        set_clean(app, plan_to_yaml(&app->plan));
        snprintf(app->draft_name, sizeof app->draft_name, "%s", name);
        store_pref_set(app->store, "last_plan", name, NULL);
        app_status(app, false, "saved as %s v%d (a new plan; F3 lists it)", name, ver);
        view_show(app, VIEW_PLANS);
        rc = 0;
    } else {
        app_status(app, false, "duplicated the working copy of %s%s as %s", app->plan.name,
                   app->modified ? " (unsaved edits included)" : "", name);
        rc = 0;
    }
    free(yaml);
    free(p);
    return rc;
}

void app_save_as(App *app, const char *name)
{
    save_copy(app, name, true);
}

int app_duplicate_working(App *app, const char *name)
{
    return save_copy(app, name, false);
}

/* ---- drafts */

void app_draft_drop(App *app)
{
    if (app->store && app->draft_kept)
        store_draft_drop(app->store, app->draft_name, NULL);
    app->draft_kept = false;
    app->draft_gen = 0;
}

int app_draft_sync(App *app)
{
    if (!app->store || !app->draft_name[0])
        return 0;
    if (!app->modified) {
        app_draft_drop(app);
        return 0;
    }
    if (app->draft_gen == app->gen)
        return 0;
    char *yaml = plan_to_yaml(&app->plan);
    if (!yaml)
        return -1;
    Diag d;
    memset(&d, 0, sizeof d);
    int rc = store_draft_save(app->store, app->draft_name, app->version, yaml, &d);
    free(yaml);
    if (rc == 0) {
        app->draft_gen = app->gen;
        app->draft_kept = true;
        app->draft_t = now_ms();
    }
    return rc;
}

/* Autosave: a second after an edit, at most once a second, so a kill or a
 * dropped connection loses at most the last second of work (SIGTERM and
 * SIGHUP write the latest first, see main_loop). */
#define DRAFT_EVERY_MS 1000.0

static void draft_tick(App *app)
{
    if (app->quit)
        return; /* quitting: a discarded draft stays discarded */
    if (app->modified ? app->draft_gen != app->gen && now_ms() - app->draft_t >= DRAFT_EVERY_MS
                      : app->draft_kept)
        app_draft_sync(app);
}

static void draft_answer(App *app, int key, void *ctx)
{
    (void)ctx;
    if (key == 'y') {
        char *yaml = NULL;
        int base = 0;
        Diag d;
        memset(&d, 0, sizeof d);
        char name[PLAN_NAME_LEN];
        snprintf(name, sizeof name, "%s", app->open_name);
        if (store_draft_load(app->store, name, &yaml, &base, NULL, &d) != 0) {
            app_status(app, true, "the draft of %s is gone", name);
            return;
        }
        Plan *p = malloc(sizeof *p);
        char file[PLAN_NAME_LEN + 16];
        snprintf(file, sizeof file, "draft:%s", name);
        if (p && plan_parse(yaml, strlen(yaml), file, &app->cat, p, &d) == 0) {
            char terr[512];
            if (app_attach_trace(app, p, terr, sizeof terr) != 0)
                app_status(app, true, "%s", terr);
            app_set_plan(app, p, base, true);
            snprintf(app->draft_name, sizeof app->draft_name, "%s", name);
            app->draft_kept = true;
            app->draft_gen = app->gen;
            app_status(app, false, "restored the unsaved edits of %s (based on v%d): F2 saves "
                       "them, u has no history before this", name, base);
        } else {
            char buf[800];
            app_status(app, true, "the draft of %s does not load: %s", name,
                       diag_format(&d, buf, sizeof buf));
        }
        free(p);
        free(yaml);
    } else if (key == 'n') {
        if (app->store)
            store_draft_drop(app->store, app->open_name, NULL);
        app_status(app, false, "discarded the draft of %s", app->open_name);
    } else {
        app_status(app, false, "kept the draft of %s for later", app->open_name);
    }
}

/* At start: edits a crash, a kill or a dropped connection left unsaved are
 * offered back, the open plan's first, else the newest. */
static void draft_offer(App *app)
{
    StoreDraftInfo *list = NULL;
    int n = 0;
    if (!app->store || store_draft_list(app->store, &list, &n, NULL) != 0 || n == 0) {
        free(list);
        return;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].name, app->plan.name) == 0)
            k = i;
    snprintf(app->open_name, sizeof app->open_name, "%s", list[k].name);
    char when[32] = "";
    time_t t = (time_t)list[k].saved;
    struct tm tm;
    if (localtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
    char q[400];
    snprintf(q, sizeof q, "Unsaved edits of %s (v%d) from %s were kept. Restore them? y = "
             "restore, n = discard, Esc = later", list[k].name, list[k].base_version, when);
    free(list);
    app_prompt_key(app, q, "yn", draft_answer, NULL);
}

void app_save(App *app)
{
    char title[160];
    snprintf(title, sizeof title, "Save %s v%d, note: ", app->plan.name, app->version + 1);
    app_prompt_text(app, title, "", save_with_note, NULL);
}

/* ---- export */

int app_write_file(const char *path, const char *text, char *err, size_t len)
{
    return export_write_file(path, text, err, len);
}

/* Where exports are proposed: the plan file's directory when the plan came
 * from a file, else $XDG_DOCUMENTS_DIR, else the plan store's directory —
 * never silently the directory the dashboard was started from. */
static void export_dir(const App *app, char *buf, size_t len)
{
    struct stat st;
    const char *docs = getenv("XDG_DOCUMENTS_DIR");
    if (app->plan_dir[0]) {
        snprintf(buf, len, "%s", app->plan_dir);
    } else if (docs && *docs && stat(docs, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(buf, len, "%s", docs);
    } else {
        snprintf(buf, len, "%s", app->db_path);
        char *slash = strrchr(buf, '/');
        if (slash && slash != buf)
            *slash = '\0';
        else
            snprintf(buf, len, "%s", slash ? "/" : ".");
    }
}

static void export_write(App *app, const char *path, void *ctx)
{
    (void)ctx;
    char *text = app->export_text;
    app->export_text = NULL;
    if (!text)
        return;
    char err[1200];
    if (!*path)
        app_status(app, false, "export cancelled");
    else if (app_write_file(path, text, err, sizeof err) != 0)
        app_status(app, true, "export failed: %s", err);
    else
        app_status(app, false, "wrote %s", path);
    free(text);
}

/* <dir>/<stem>-<date><suffix>: the path the export dialog proposes */
static void export_proposal(const App *app, const char *stem, const char *suffix, char *out,
                            size_t len)
{
    char dir[1100], base[PLAN_NAME_LEN * 2 + 8], date[16] = "";
    export_dir(app, dir, sizeof dir);
    snprintf(base, sizeof base, "%s", stem);
    for (char *c = base; *c; c++)
        if (*c == ' ' || *c == '/')
            *c = '_';
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%d", &tm);
    snprintf(out, len, "%s/%s-%s%s", strcmp(dir, "/") ? dir : "", base, date, suffix);
}

void app_export_text(App *app, const char *stem, const char *ext, char *text, const char *path)
{
    if (path && *path) {
        app->export_text = text;
        export_write(app, path, NULL);
        return;
    }
    free(app->export_text);
    app->export_text = text;
    char proposal[1400], suffix[40];
    snprintf(suffix, sizeof suffix, ".%s", ext);
    export_proposal(app, stem, suffix, proposal, sizeof proposal);
    app_prompt_text(app, "Export to: ", proposal, export_write, NULL);
}

static void export_bundle_drop(App *app)
{
    export_files_free(app->export_bundle, app->export_bundle_n);
    app->export_bundle_n = 0;
}

/* The Slurm bundle into the directory at path (created when missing). */
static void export_write_bundle(App *app, const char *path, void *ctx)
{
    (void)ctx;
    if (app->export_bundle_n <= 0)
        return;
    char err[1200];
    if (!*path)
        app_status(app, false, "export cancelled");
    else if (export_write_dir(path, app->export_bundle, app->export_bundle_n, err, sizeof err) != 0)
        app_status(app, true, "export failed: %s", err);
    else
        app_status(app, false, "wrote %s/{slurm.conf,gres.conf,topology.conf,accounts.sh}", path);
    export_bundle_drop(app);
}

void app_export(App *app, int format, const char *path)
{
    if (format < 0 || format >= EXPORT_COUNT)
        return;
    const PlanResult *r = app_result(app);
    if (!r || app_recomputing(app)) {
        app_status(app, true, "export: the result is still being computed; try again in a moment");
        return;
    }
    /* the plan, its version (+ when edited since) and the date */
    char stem[PLAN_NAME_LEN + 32];
    if (app->version > 0)
        snprintf(stem, sizeof stem, "%s-v%d%s", app->plan.name, app->version,
                 app->modified ? "+" : "");
    else
        snprintf(stem, sizeof stem, "%s-unsaved", app->plan.name);
    if (format == EXPORT_SLURM) {
        export_bundle_drop(app);
        int n = export_slurm_files(&app->plan, r, &app->cat, app->export_bundle);
        if (n < 0) {
            app_status(app, true, "export failed (out of memory)");
            return;
        }
        app->export_bundle_n = n;
        if (path && *path) {
            export_write_bundle(app, path, NULL);
            return;
        }
        char proposal[1400];
        export_proposal(app, stem, "-slurm", proposal, sizeof proposal);
        app_prompt_text(app, "Slurm bundle directory: ", proposal,
                        export_write_bundle, NULL);
        return;
    }
    /* the Sensitivity pane's ranges go with the export when they are of
     * the plan as it is now (never a stale one) */
    bool fresh = !app_ranges_stale(app);
    const SensResult *sens = fresh ? app_sensitivity(app) : NULL;
    const McResult *mc = fresh ? app_monte_carlo(app) : NULL;
    char *text = export_plan_ranges((ExportFormat)format, &app->plan, r, &app->cat,
                                    app->version, sens, mc);
    if (!text) {
        app_status(app, true, "export failed (out of memory)");
        return;
    }
    app_export_text(app, stem, export_format_extension((ExportFormat)format), text, path);
}

static void export_picked(App *app, int index, const char *item, void *ctx)
{
    (void)ctx;
    if (index < 0 || !item)
        return;
    int f = export_format_from_name(item);
    if (app->overlay == VIEW_COMPARE)
        view_compare_export(&app->views[VIEW_COMPARE], app, f, NULL);
    else
        app_export(app, f, NULL);
}

static void export_menu(App *app)
{
    const char *items[EXPORT_COUNT];
    int n = 0;
    bool cmp = app->overlay == VIEW_COMPARE;
    for (int f = 0; f < EXPORT_COUNT; f++) {
        if (cmp && f != EXPORT_MD && f != EXPORT_HTML && f != EXPORT_CSV && f != EXPORT_JSON)
            continue;
        items[n++] = export_format_name((ExportFormat)f);
    }
    app_prompt_pick(app, cmp ? "Export the comparison as" : "Export the plan as", items, n, 0,
                    export_picked, NULL);
}

/* ---- quitting */

static void quit_answer(App *app, int key, void *ctx)
{
    (void)ctx;
    if (key == 'n') {
        app_draft_drop(app);
        app->quit = true;
    } else if (key == 'y') {
        app->quit_after_save = true;
        app_save(app);
    } else {
        app_status(app, false, "quit cancelled");
    }
}

void app_request_quit(App *app, bool force)
{
    if (!app->modified || force) {
        app->quit = true;
        return;
    }
    char q[256];
    snprintf(q, sizeof q, "Unsaved changes to %s. Save them? y = save and quit, n = quit without saving, c = cancel",
             app->plan.name);
    app_prompt_key(app, q, "ync", quit_answer, NULL);
}

/* ---- themes */

int app_theme_set(App *app, const char *name, bool save_pref)
{
    Theme t;
    char cause[600];
    if (theme_load(app->themes_dir, name, &t, cause, sizeof cause) != 0) {
        /* an unknown name lists the themes there are; a broken file says why */
        char names[32][64], list[32 * 66] = "";
        int n = theme_list(app->themes_dir, names, 32);
        bool known = false;
        for (int i = 0; i < n; i++) {
            known = known || strcmp(names[i], name) == 0;
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%.63s", i ? ", " : "", names[i]);
        }
        if (!known && n > 0)
            app_status(app, true, "no theme '%s' (themes: %s)", name, list);
        else
            app_status(app, true, "theme: %s", cause);
        return -1;
    }
    app->theme = t;
    theme_apply(&app->theme);
    bkgdset((chtype)(' ' | theme_attr(ROLE_NORMAL)));
    if (save_pref && app->store)
        store_pref_set(app->store, "theme", name, NULL);
    app->dirty = true;
    clearok(curscr, TRUE);
    return 0;
}

static void theme_next(App *app)
{
    char names[32][64];
    int n = theme_list(app->themes_dir, names, 32);
    if (n == 0) {
        app_status(app, true, "no themes in %s", app->themes_dir);
        return;
    }
    int cur = -1;
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], app->theme.name) == 0)
            cur = i;
    const char *next = names[(cur + 1) % n];
    if (app_theme_set(app, next, true) == 0)
        app_status(app, false, "theme %s", next);
}

/* ---- commands */

static void command_entered(App *app, const char *text, void *ctx)
{
    (void)ctx;
    int r = app_command(app, text);
    if (r & HR_QUIT)
        app->quit = true;
}

static void fork_entered(App *app, const char *text, void *ctx)
{
    (void)ctx;
    if (app->overlay == VIEW_PLANS)
        app_close_overlay(app);
    scenario_command(app, "fork", text);
}

static int palette_complete_cb(App *app, LineInput *in)
{
    return palette_complete(app, in);
}

int app_command(App *app, const char *line)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", line);
    char *save = NULL;
    char *cmd = strtok_r(buf, " \t", &save);
    if (!cmd)
        return HR_HANDLED;
    char *rest = save ? save + strspn(save, " \t") : NULL;
    if (strcmp(cmd, "set") == 0) {
        char *key = strtok_r(NULL, " \t", &save);
        char *value = save ? save + strspn(save, " \t") : NULL;
        if (!key || !value || !*value) {
            app_status(app, true, "usage: set <field> <value>");
            return HR_REDRAW;
        }
        FieldTarget t;
        const FieldDef *f = fields_find(&app->plan, app->sel, key, &t);
        if (!f) {
            app_status(app, true, "set: no field '%s' here (Tab completes field names)", key);
            return HR_REDRAW;
        }
        Plan *cand = malloc(sizeof *cand);
        if (!cand)
            return HR_REDRAW;
        *cand = app->plan;
        char err[400], what[1000], note[480];
        if (field_edit(f, cand, t, value, &app->cat, note, sizeof note, err, sizeof err) != 0) {
            app_status(app, true, "%s: %s", f->key, err);
        } else {
            /* as typed when it names its workload or team ("chat-70b.tp") */
            bool named = (t.scope == FS_WORKLOAD || t.scope == FS_TEAM) && strchr(key, '.') &&
                         strcasecmp(key, f->key) != 0;
            /* a catalog id as the catalog spells it (an alias, "ironwood", is
             * stored as its id, TPU7x); other values as typed */
            char id[PLAN_TEXT_LEN];
            const char *shown = (f->flags & (FF_ACCEL | FF_INSTANCE))
                                    ? field_format(f, cand, t, id, sizeof id)
                                    : value;
            snprintf(what, sizeof what, "%s%s%s = %s%s%s", named ? "" : fields_scope_prefix(f->scope),
                     !named && fields_scope_prefix(f->scope)[0] ? "." : "", named ? key : f->key,
                     shown, note[0] ? "; " : "", note);
            app_commit(app, cand, what);
        }
        free(cand);
        return HR_REDRAW;
    }
    if (strcmp(cmd, "export") == 0) {
        if (!rest || !*rest) {
            export_menu(app);
            return HR_REDRAW;
        }
        /* :export FORMAT [PATH]: without a path the dialog proposes one */
        char fmt[32];
        snprintf(fmt, sizeof fmt, "%.*s", (int)strcspn(rest, " \t"), rest);
        const char *path = rest + strcspn(rest, " \t");
        path += strspn(path, " \t");
        int f = export_format_from_name(fmt);
        if (f < 0) {
            app_status(app, true, "export: unknown format '%s' (md html csv json yaml kueue volcano slurm)", fmt);
            return HR_REDRAW;
        }
        if (app->overlay == VIEW_COMPARE)
            view_compare_export(&app->views[VIEW_COMPARE], app, f, path);
        else
            app_export(app, f, path);
        return HR_REDRAW;
    }
    if (strcmp(cmd, "theme") == 0) {
        if (!rest || !*rest) {
            app_status(app, false, "theme %s", app->theme.name);
            return HR_REDRAW;
        }
        if (app_theme_set(app, rest, true) == 0)
            app_status(app, false, "theme %s", rest);
        return HR_REDRAW;
    }
    if (strcmp(cmd, "w") == 0 || strcmp(cmd, "write") == 0) {
        /* vi's :w FILE: the working copy goes to a new plan of that name */
        if (rest && *rest)
            app_save_as(app, rest);
        else
            save_with_note(app, "", NULL);
        return HR_REDRAW;
    }
    if (strcmp(cmd, "wq") == 0) {
        save_with_note(app, rest ? rest : "", NULL);
        return app->modified ? HR_REDRAW : HR_QUIT;
    }
    if (strcmp(cmd, "q") == 0 || strcmp(cmd, "quit") == 0) {
        app_request_quit(app, false);
        return HR_REDRAW;
    }
    if (strcmp(cmd, "q!") == 0) {
        app_draft_drop(app);
        app->quit = true;
        return HR_REDRAW;
    }
    if (strcmp(cmd, "open") == 0 || strcmp(cmd, "e") == 0) {
        if (!rest || !*rest) {
            app_show_overlay(app, VIEW_PLANS);
        } else {
            char name[PLAN_NAME_LEN];
            snprintf(name, sizeof name, "%s", rest);
            int ver = 0;
            char *at = strrchr(name, '@');
            if (at) {
                ver = atoi(at + 1);
                *at = '\0';
            }
            app_open_stored(app, name, ver);
        }
        return HR_REDRAW;
    }
    if (strcmp(cmd, "compare") == 0) {
        char *a = strtok_r(NULL, " \t", &save);
        char *b = strtok_r(NULL, " \t", &save);
        app_show_overlay(app, VIEW_COMPARE);
        if (a)
            view_compare_set(&app->views[VIEW_COMPARE], app, a, b);
        return HR_REDRAW;
    }
    if (strcmp(cmd, "undo") == 0 || strcmp(cmd, "redo") == 0) {
        /* the same as u / ^R, selection checks included */
        do_undo(app, cmd[0] == 'r');
        return HR_REDRAW;
    }
    if (strcmp(cmd, "help") == 0) {
        app_show_overlay(app, VIEW_HELP);
        return HR_REDRAW;
    }
    if (strcmp(cmd, "explain") == 0) {
        ExplainItem it;
        if (!rest || !*rest)
            explain_menu(app);
        else if (explain_find(app, rest, &it) == 0)
            explain_item(app, &it);
        else
            app_status(app, true, "explain: nothing called '%s' (tco, gpus, power, WORKLOAD.days, "
                       "WORKLOAD.gpus)", rest);
        return HR_REDRAW;
    }
    if (strcmp(cmd, "present") == 0) {
        present_toggle(app);
        return HR_REDRAW;
    }
    if (strcmp(cmd, "warnings") == 0) {
        show_warnings(app);
        return HR_REDRAW;
    }
    int hr = scenario_command(app, cmd, rest);
    if (hr >= 0)
        return hr;
    app_status(app, true, "unknown command '%s' (set, export, theme, open, compare, explain, present, "
               "warnings, fork, scenario, w, wq, q, q!, undo, redo, help)", cmd);
    return HR_REDRAW;
}

int app_scroll(int *scroll, Action a, int page)
{
    if (!canvas_scroll_key(scroll, ACT_UP, ACT_DOWN, ACT_PGUP, ACT_PGDN, ACT_TOP, ACT_BOTTOM, a,
                           page > 1 ? page : 1))
        return HR_UNHANDLED;
    return HR_HANDLED | HR_REDRAW;
}

/* ---------------------------------------------------------------- prompts */

/* Case-insensitive substring test (strcasestr is a GNU extension). */
static bool contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return true;
    return n == 0;
}

static void prompt_draw(App *app)
{
    Prompt *p = &app->prompt;
    const Geometry *g = &app->geo;
    int y = g->status.y, w = g->status.w;
    term_fill(y, 0, w, ROLE_STATUS, " ");
    if (p->kind == PROMPT_TEXT) {
        int used = term_put(y, 0, w, ROLE_TITLE, p->title);
        input_draw(&p->in, y, used, w - used, ROLE_EDIT, true);
    } else if (p->kind == PROMPT_KEY) {
        term_put(y, 0, w, ROLE_WARNING, p->title);
    } else if (p->kind == PROMPT_PICK) {
        /* filtered list in a centred box */
        int idx[PICK_MAX], n = 0;
        for (int i = 0; i < p->n_items; i++)
            if (!p->in.len || contains_ci(p->items[i], p->in.buf))
                idx[n++] = i;
        int bw = 24;
        for (int i = 0; i < p->n_items; i++) {
            int iw = term_strwidth(p->items[i]) + 4;
            if (iw > bw)
                bw = iw;
        }
        int tw = term_strwidth(p->title) + 6;
        if (tw > bw)
            bw = tw;
        if (bw > g->cols - 4)
            bw = g->cols - 4;
        int bh = n + 3;
        if (bh > g->body.h)
            bh = g->body.h;
        if (bh < 4)
            bh = 4;
        Rect box = {g->body.y + (g->body.h - bh) / 2, (g->cols - bw) / 2, bh, bw};
        term_clear_rect(box, ROLE_NORMAL);
        widget_box(box, ROLE_TITLE, p->title, ROLE_TITLE);
        int rows = bh - 3;
        if (p->pick_sel >= n)
            p->pick_sel = n ? n - 1 : 0;
        widget_scroll(&p->pick_top, p->pick_sel, rows, n);
        for (int i = 0; i < rows && p->pick_top + i < n; i++) {
            int k = p->pick_top + i;
            Role role = k == p->pick_sel ? ROLE_SELECTION : ROLE_NORMAL;
            term_fill(box.y + 1 + i, box.x + 1, bw - 2, role, " ");
            term_put(box.y + 1 + i, box.x + 2, bw - 4, role, p->items[idx[k]]);
        }
        char f[300];
        snprintf(f, sizeof f, "filter: %s", p->in.buf);
        term_put(box.y + bh - 2, box.x + 2, bw - 4, ROLE_MUTED, f);
        term_put(y, 0, w, ROLE_STATUS, "Up/Down choose (j/k too), Enter accept, Esc cancel, type to filter");
    }
}

/* Picks the filtered item under the selection. */
static int pick_current(const Prompt *p)
{
    int n = 0;
    for (int i = 0; i < p->n_items; i++)
        if (!p->in.len || contains_ci(p->items[i], p->in.buf)) {
            if (n == p->pick_sel)
                return i;
            n++;
        }
    return -1;
}

static int pick_count(const Prompt *p)
{
    int n = 0;
    for (int i = 0; i < p->n_items; i++)
        if (!p->in.len || contains_ci(p->items[i], p->in.buf))
            n++;
    return n;
}

static void prompt_key(App *app, int ch)
{
    Prompt *p = &app->prompt;
    Prompt done = *p; /* callbacks may open a new prompt */
    app->dirty = true;
    if (p->kind == PROMPT_KEY) {
        if (ch == 27 || ch == CTRL('c') || (ch > 0 && ch < 128 && strchr(p->keys, ch))) {
            p->kind = PROMPT_NONE;
            if (done.on_key)
                done.on_key(app, ch == CTRL('c') ? 27 : ch, done.ctx);
        }
        return;
    }
    if (p->kind == PROMPT_TEXT) {
        if (ch == 27 || ch == CTRL('c')) {
            p->kind = PROMPT_NONE;
            app->quit_after_save = false;
            app_status(app, false, "cancelled");
            return;
        }
        if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
            p->kind = PROMPT_NONE;
            if (done.on_text)
                done.on_text(app, done.in.buf, done.ctx);
            return;
        }
        if (ch == '\t' && p->complete) {
            p->complete(app, &p->in);
            return;
        }
        app->completions[0] = '\0';
        if (input_key(&p->in, ch) == 1 && p->on_change)
            p->on_change(app, p->in.buf, p->ctx);
        return;
    }
    if (p->kind == PROMPT_PICK) {
        int n = pick_count(p);
        switch (ch) {
        case 27: case CTRL('c'):
            p->kind = PROMPT_NONE;
            if (done.on_pick)
                done.on_pick(app, -1, NULL, done.ctx);
            return;
        case '\r': case '\n': case KEY_ENTER: {
            int i = pick_current(p);
            if (i < 0)
                return;
            p->kind = PROMPT_NONE;
            if (done.on_pick)
                done.on_pick(app, i, done.items[i], done.ctx);
            return;
        }
        case KEY_UP: if (p->pick_sel > 0) p->pick_sel--; return;
        case KEY_DOWN: if (p->pick_sel < n - 1) p->pick_sel++; return;
        case KEY_PPAGE: p->pick_sel = p->pick_sel > 10 ? p->pick_sel - 10 : 0; return;
        case KEY_NPAGE: p->pick_sel = p->pick_sel + 10 < n ? p->pick_sel + 10 : (n ? n - 1 : 0); return;
        case KEY_HOME: p->pick_sel = 0; return;
        case KEY_END: p->pick_sel = n ? n - 1 : 0; return;
        case KEY_MOUSE: return;
        default:
            /* j / k move until a filter is typed (then they are text) */
            if ((ch == 'j' || ch == 'k') && p->in.len == 0) {
                if (ch == 'k' && p->pick_sel > 0)
                    p->pick_sel--;
                else if (ch == 'j' && p->pick_sel < n - 1)
                    p->pick_sel++;
                return;
            }
            if (input_key(&p->in, ch) == 1)
                p->pick_sel = 0;
            return;
        }
    }
}

/* ---------------------------------------------------------------- dispatch */

static View *focused_view(App *app)
{
    if (app->overlay >= 0)
        return &app->views[app->overlay];
    if (app->focus == FOCUS_PANE)
        return &app->views[app->tab];
    return &app->views[VIEW_WORKLOADS];
}

static unsigned focused_ctx(App *app)
{
    if (app->overlay >= 0)
        return app->views[app->overlay].ops->ctx;
    if (app->focus == FOCUS_PANE)
        return app->views[app->tab].ops->ctx;
    return app->focus == FOCUS_LIST ? CTX_LIST : CTX_FORM;
}

static void apply(App *app, int r)
{
    if (r & HR_REDRAW)
        app->dirty = true;
    if (r & HR_RESIZE)
        app->resized = true;
    if (r & HR_QUIT)
        app_request_quit(app, false);
}

static void find_changed(App *app, const char *text, void *ctx)
{
    (void)ctx;
    snprintf(app->find, sizeof app->find, "%s", text);
    /* "not found: c" from an earlier keystroke is not about this text */
    app->status[0] = '\0';
    app->status_error = false;
    View *v = focused_view(app);
    apply(app, v->ops->key(v, app, ACT_FIND_APPLY, 0));
}

static void find_done(App *app, const char *text, void *ctx)
{
    find_changed(app, text, ctx);
}

static void do_undo(App *app, bool redo)
{
    char what[UNDO_WHAT_LEN];
    snprintf(what, sizeof what, "%s", redo ? undo_next_redo_what(&app->undo) : undo_next_undo_what(&app->undo));
    bool ok = redo ? undo_redo(&app->undo, &app->plan) : undo_undo(&app->undo, &app->plan);
    if (!ok) {
        app_status(app, false, "nothing to %s", redo ? "redo" : "undo");
        return;
    }
    update_modified(app);
    submit(app);
    app->key_gen = app->gen;
    /* the selection may point past the end now */
    if (app->sel.scope == FS_WORKLOAD && app->sel.wl >= app->plan.n_workloads)
        app->sel.scope = FS_PLAN;
    if ((app->sel.scope == FS_TEAM || app->sel.scope == FS_JOB) && app->sel.team >= app->plan.tenancy.n_teams)
        app->sel.scope = FS_PLAN;
    if (app->sel.scope == FS_JOB && app->sel.job >= app->plan.tenancy.teams[app->sel.team].n_jobs)
        app->sel.scope = FS_TEAM;
    if (what[0])
        app_status(app, false, "%s: %s", redo ? "redone" : "undone", what);
    else
        app_status(app, false, "%s", redo ? "redone" : "undone");
}

static int handle_global(App *app, Action a)
{
    switch (a) {
    case ACT_HELP:
        if (app->overlay == VIEW_HELP)
            app_close_overlay(app);
        else
            app_show_overlay(app, VIEW_HELP);
        return HR_REDRAW;
    case ACT_SAVE: app_save(app); return HR_REDRAW;
    case ACT_PLANS:
        if (app->overlay == VIEW_PLANS)
            app_close_overlay(app);
        else
            app_show_overlay(app, VIEW_PLANS);
        return HR_REDRAW;
    case ACT_COMPARE:
        if (app->overlay == VIEW_COMPARE)
            app_close_overlay(app);
        else
            app_show_overlay(app, VIEW_COMPARE);
        return HR_REDRAW;
    case ACT_EXPORT: export_menu(app); return HR_REDRAW;
    case ACT_FORK:
        app_prompt_text(app, "Fork the working copy as scenario: ", "", fork_entered, NULL);
        return HR_REDRAW;
    case ACT_COMMAND: {
        app_prompt_text(app, ":", "", command_entered, NULL);
        app->prompt.complete = palette_complete_cb;
        return HR_REDRAW;
    }
    case ACT_QUIT: app_request_quit(app, false); return HR_REDRAW;
    case ACT_CLOSE: app_close_overlay(app); return HR_REDRAW;
    case ACT_UNDO: do_undo(app, false); return HR_REDRAW;
    case ACT_REDO: do_undo(app, true); return HR_REDRAW;
    case ACT_FOCUS_NEXT: app->focus = (Focus)((app->focus + 1) % 3); return HR_REDRAW;
    case ACT_FOCUS_PREV: app->focus = (Focus)((app->focus + 2) % 3); return HR_REDRAW;
    case ACT_TAB_NEXT:
        app->tab = TAB_FIRST + (app->tab - TAB_FIRST + 1) % TAB_COUNT;
        view_show(app, app->tab);
        return HR_REDRAW;
    case ACT_TAB_PREV:
        app->tab = TAB_FIRST + (app->tab - TAB_FIRST + TAB_COUNT - 1) % TAB_COUNT;
        view_show(app, app->tab);
        return HR_REDRAW;
    case ACT_TAB_1: case ACT_TAB_2: case ACT_TAB_3: case ACT_TAB_4: case ACT_TAB_5:
    case ACT_TAB_6: case ACT_TAB_7:
        app->tab = TAB_FIRST + (a - ACT_TAB_1);
        view_show(app, app->tab);
        return HR_REDRAW;
    case ACT_THEME_NEXT: theme_next(app); return HR_REDRAW;
    case ACT_EXPLAIN: explain_menu(app); return HR_REDRAW;
    case ACT_PRESENT: present_toggle(app); return HR_REDRAW;
    case ACT_WARNINGS: show_warnings(app); return HR_REDRAW;
    case ACT_ZOOM:
        app->zoom = !app->zoom;
        if (app->zoom)
            app->focus = FOCUS_PANE;
        app_status(app, false, app->zoom ? "zoomed: z restores" : "zoom off");
        return HR_REDRAW | HR_RESIZE;
    case ACT_SUSPEND:
        term_suspend();
        app->resized = true;
        return HR_REDRAW;
    case ACT_REDRAW: clearok(curscr, TRUE); return HR_REDRAW;
    case ACT_FIND:
        /* a new search starts empty (n / N repeat the last one) */
        app_prompt_text(app, "/", "", find_done, NULL);
        app->prompt.on_change = find_changed;
        return HR_REDRAW;
    default:
        return HR_UNHANDLED;
    }
}

static void handle_mouse(App *app)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    app->mouse_y = ev.y;
    app->mouse_x = ev.x;
    app->mouse_bstate = (unsigned)ev.bstate;
    if (app->log)
        fprintf(app->log, "mouse y=%d x=%d bstate=%#lx\n", ev.y, ev.x, (unsigned long)ev.bstate), fflush(app->log);
    const Geometry *g = &app->geo;
    /* "needs at least 80x24": the layout is hidden, so nothing under the
     * pointer may act (issue 17 D13) */
    if (g->too_small)
        return;
    bool wheel = ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED);
    if (app->prompt.kind == PROMPT_PICK) {
        if (ev.bstate & BUTTON4_PRESSED)
            prompt_key(app, KEY_UP);
        else if (ev.bstate & BUTTON5_PRESSED)
            prompt_key(app, KEY_DOWN);
        return;
    }
    if (app->prompt.kind != PROMPT_NONE)
        return;
    View *target = NULL;
    if (app->overlay >= 0) {
        target = &app->views[app->overlay];
    } else {
        int tab = layout_tab_at(g, ev.y, ev.x);
        if (tab >= 0 && !wheel) {
            app->tab = TAB_FIRST + tab;
            app->focus = FOCUS_PANE;
            view_show(app, app->tab);
            app->dirty = true;
            return;
        }
        /* a click or the wheel focuses the pane under the pointer */
        if (layout_in(g->list, ev.y, ev.x)) {
            app->focus = FOCUS_LIST;
            target = &app->views[VIEW_WORKLOADS];
        } else if (layout_in(g->form, ev.y, ev.x)) {
            app->focus = FOCUS_FORM;
            target = &app->views[VIEW_WORKLOADS];
        } else if (layout_in(g->pane, ev.y, ev.x)) {
            app->focus = FOCUS_PANE;
            target = &app->views[app->tab];
        }
    }
    if (!target)
        return;
    if (wheel) {
        Action a = (ev.bstate & BUTTON4_PRESSED) ? ACT_UP : ACT_DOWN;
        for (int i = 0; i < 3; i++)
            apply(app, target->ops->key(target, app, a, 0));
    } else {
        apply(app, target->ops->key(target, app, ACT_NONE, KEY_MOUSE));
    }
    app->dirty = true;
}

static void handle_key(App *app, int ch)
{
    if (ch == KEY_RESIZE) {
        app->resized = true;
        return;
    }
    if (app->prompt.kind != PROMPT_NONE) {
        if (ch == KEY_MOUSE)
            handle_mouse(app);
        else
            prompt_key(app, ch);
        return;
    }
    if (ch == KEY_MOUSE) {
        handle_mouse(app);
        return;
    }
    if (app->geo.too_small) {
        if (ch == 'q' || ch == CTRL('c'))
            app_request_quit(app, false);
        return;
    }
    /* a message is about the last key: the next one clears it */
    app->status[0] = '\0';
    app->status_error = false;
    View *v = focused_view(app);
    Action a = keys_lookup(ch, focused_ctx(app));
    /* the focused view first (it may be editing text), then the shell */
    int r = v->ops->key(v, app, a, ch);
    if (r & HR_HANDLED) {
        apply(app, r);
        return;
    }
    r = handle_global(app, a);
    if (r == HR_UNHANDLED && a == ACT_NONE && ch != ERR) {
        const char *kn = keyname(ch);
        app_status(app, false, "%s: not bound here (F1 for help)", kn ? kn : "key");
    }
    apply(app, r);
}

/* ---------------------------------------------------------------- frame */

static void draw_frame_once(App *app);

/* A view scrolled past its end (End/G) is drawn again at its last page
 * before the frame reaches the terminal. */
static void draw_frame(App *app)
{
    canvas_take_clamped();
    draw_frame_once(app);
    if (canvas_take_clamped())
        draw_frame_once(app);
    wnoutrefresh(stdscr);
    doupdate();
}

static void draw_frame_once(App *app)
{
    erase();
    const Geometry *g = &app->geo;
    if (g->too_small) {
        char msg[128];
        snprintf(msg, sizeof msg, "gpuplan needs at least 80x24 (now %dx%d)", g->cols, g->lines);
        term_put(g->lines / 2, 0, g->cols, ROLE_WARNING, msg);
    } else if (app->overlay == VIEW_PRESENT) {
        /* presenter mode owns the whole screen but the status line */
        Rect all = {0, 0, g->lines - 1, g->cols};
        View *v = &app->views[VIEW_PRESENT];
        v->rect = all;
        v->ops->draw(v, app, all);
        if (app->prompt.kind != PROMPT_NONE)
            prompt_draw(app);
        else
            term_put_ellipsis(g->lines - 1, 0, g->cols, app->status_error ? ROLE_ERROR : ROLE_STATUS,
                              app->status);
    } else {
        layout_draw_chrome(app);
        if (app->overlay >= 0) {
            View *v = &app->views[app->overlay];
            v->rect = g->body;
            v->ops->draw(v, app, g->body);
        } else if (app->zoom) {
            View *p = &app->views[app->tab];
            p->rect = g->pane;
            p->ops->draw(p, app, g->pane);
        } else {
            View *w = &app->views[VIEW_WORKLOADS];
            w->rect = g->left;
            w->ops->draw(w, app, g->left);
            View *p = &app->views[app->tab];
            Rect pr = g->pane;
            int strip = scenario_draw_strip(app, pr);
            pr.y += strip;
            pr.h -= strip;
            p->rect = pr;
            p->ops->draw(p, app, pr);
        }
        if (app->prompt.kind != PROMPT_NONE)
            prompt_draw(app);
        else
            term_put_ellipsis(g->status.y, 0, g->status.w, app->status_error ? ROLE_ERROR : ROLE_STATUS,
                              app->status);
        if (app->prompt.kind == PROMPT_TEXT && app->completions[0]) {
            term_fill(g->warn.y, 0, g->warn.w, ROLE_STATUS, " ");
            term_put_ellipsis(g->warn.y, 1, g->warn.w - 1, ROLE_STATUS, app->completions);
        }
    }
}

static void do_resize(App *app)
{
    layout_compute(&app->geo, LINES, COLS);
    if (app->zoom) {
        /* the result pane takes the left block's room too */
        Geometry *g = &app->geo;
        Rect t = {g->body.y, 0, 1, g->cols}, p = {g->body.y + 1, 0, g->body.h - 1, g->cols};
        Rect none = {0, 0, 0, 0};
        g->tabs = t;
        g->pane = p;
        g->left = g->list = g->form = none;
    }
    for (int i = 0; i < VIEW_COUNT; i++) {
        View *v = &app->views[i];
        if (v->ops->resize)
            v->ops->resize(v, app, i == VIEW_WORKLOADS ? app->geo.left
                                   : i >= VIEW_PLANS ? app->geo.body : app->geo.pane);
    }
    app->resized = false;
    app->dirty = true;
}

static void main_loop(App *app)
{
    double last_spin = now_ms();
    do_resize(app);
    while (!app->quit) {
        if (app->resized)
            do_resize(app);
        double eval_ms = 0;
        if (worker_take(app->worker, app->result, &app->result_gen, &eval_ms)) {
            app->last_eval_ms = eval_ms;
            app->dirty = true;
        }
        if (worker_take_ranges(app->worker, app->sens, &app->mc, &app->ranges_gen, NULL))
            app->dirty = true;
        scenario_poll(app);
        if (app->dirty) {
            draw_frame(app);
            app->dirty = false;
            double t = now_ms();
            if (app->log && app->key_echo_pending) {
                fprintf(app->log, "frame key_to_frame_ms=%.3f gen=%llu result_gen=%llu\n",
                        t - app->key_t0, (unsigned long long)app->gen,
                        (unsigned long long)app->result_gen);
                app->key_echo_pending = false;
            }
            if (app->log && app->key_gen && app->key_t0 > 0 && app->result_gen >= app->key_gen) {
                fprintf(app->log, "result key_to_result_frame_ms=%.3f eval_ms=%.3f gen=%llu\n",
                        t - app->key_t0, app->last_eval_ms, (unsigned long long)app->key_gen);
                fflush(app->log);
                app->key_gen = 0;
            }
        }
        struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {app->wake_rd, POLLIN, 0}};
        bool busy = app_recomputing(app);
        int timeout = busy ? 100 : 1000;
        int n = poll(fds, 2, timeout);
        if (n < 0 && errno != EINTR)
            break;
        if (n > 0 && (fds[1].revents & POLLIN)) {
            char drain[64];
            while (read(app->wake_rd, drain, sizeof drain) > 0)
                ;
            app->dirty = true;
        }
        int ch;
        while ((ch = getch()) != ERR) {
            app->key_t0 = now_ms();
            app->key_echo_pending = app->log != NULL;
            handle_key(app, ch);
            app->dirty = true;
            if (app->quit)
                break;
        }
        if (term_quit_signal()) {
            /* SIGTERM / SIGHUP: keep the edits, then die of the signal */
            app_draft_sync(app);
            if (app->log)
                fprintf(app->log, "quit signal %d: draft %s\n", term_quit_signal(),
                        app->draft_kept ? "saved" : "not needed"), fflush(app->log);
            return;
        }
        draft_tick(app);
        if (busy && now_ms() - last_spin >= 100) {
            app->spinner++;
            last_spin = now_ms();
            app->dirty = true;
        }
    }
}

/* ---------------------------------------------------------------- setup */

static const ViewOps *const view_table[VIEW_COUNT] = {
    &view_workloads_ops, &view_sizing_ops, &view_topology_ops, &view_power_ops,
    &view_cost_ops, &view_schedule_ops, &view_sensitivity_ops, &view_sweeps_ops, &view_plans_ops,
    &view_compare_ops, &view_help_ops, &view_info_ops, &view_present_ops,
};

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Pick the plan to show first.  Returns 0 or -1 with err. */
static int initial_plan(App *app, const char *ref, char *err, size_t errlen)
{
    Plan *p = malloc(sizeof *p);
    if (!p)
        return -1;
    int rc = 0, ver = 0;
    Diag d;
    memset(&d, 0, sizeof d);
    if (ref && is_file(ref)) {
        if (plan_load_file(ref, &app->cat, p, &d) != 0) {
            char buf[800];
            snprintf(err, errlen, "%s", diag_format(&d, buf, sizeof buf));
            rc = -1;
        } else {
            char terr[512];
            if (app_attach_trace(app, p, terr, sizeof terr) != 0)
                app_status(app, true, "%s", terr);
            app_set_plan(app, p, 0, false);
            /* exports of a plan file are proposed beside it */
            char *rp = realpath(ref, NULL);
            if (rp) {
                char *slash = strrchr(rp, '/');
                if (slash)
                    *slash = '\0';
                snprintf(app->plan_dir, sizeof app->plan_dir, "%s", rp[0] ? rp : "/");
                free(rp);
            }
        }
    } else if (ref) {
        char name[PLAN_NAME_LEN];
        snprintf(name, sizeof name, "%s", ref);
        char *at = strrchr(name, '@');
        if (at && at[1]) {
            ver = atoi(at + 1);
            *at = '\0';
        }
        if (load_stored(app, name, ver, p, &ver, err, errlen) != 0)
            rc = -1;
        else
            app_set_plan(app, p, ver, false);
    } else {
        StorePlanInfo *list = NULL;
        int n = 0;
        int best = -1;
        if (app->store && store_list(app->store, NULL, false, &list, &n, &d) == 0) {
            for (int i = 0; i < n; i++)
                if (best < 0 || list[i].updated > list[best].updated ||
                    (list[i].updated == list[best].updated && strcmp(list[i].name, list[best].name) < 0))
                    best = i;
        }
        if (best >= 0 && load_stored(app, list[best].name, 0, p, &ver, err, errlen) == 0) {
            app_set_plan(app, p, ver, false);
        } else {
            plan_init(p);
            snprintf(p->name, sizeof p->name, "untitled");
            workload_init(&p->workloads[0], WL_TRAINING);
            snprintf(p->workloads[0].name, sizeof p->workloads[0].name, "training-1");
            p->workloads[0].model.layers = 32;
            p->workloads[0].model.hidden = 4096;
            p->workloads[0].model.ffn_hidden = 14336;
            p->workloads[0].model.heads = 32;
            p->workloads[0].model.kv_heads = 8;
            p->workloads[0].model.vocab = 128256;
            p->workloads[0].tokens = 1e12;
            p->workloads[0].target_days = 30;
            p->n_workloads = 1;
            app_set_plan(app, p, 0, true);
        }
        free(list);
    }
    free(p);
    return rc;
}

int tui_run(const char *db_path, const char *catalog_dir_override, const char *theme,
            const char *plan_name_or_file)
{
    App *app = calloc(1, sizeof *app);
    if (!app)
        return 3;
    app->overlay = -1;
    app->tab = VIEW_SIZING;
    app->focus = FOCUS_LIST;
    int status = 0;
    Diag d;
    memset(&d, 0, sizeof d);
    char buf[1024];

    const char *log = getenv("GPUPLAN_TUI_LOG");
    if (log && *log)
        app->log = fopen(log, "a");
    const char *cliplog = getenv("GPUPLAN_TUI_CLIPLOG");
    if (cliplog && *cliplog) {
        term_clip_log = fopen(cliplog, "w");
        if (term_clip_log)
            setvbuf(term_clip_log, NULL, _IOLBF, 0);
    }

    char catdir[1100];
    snprintf(catdir, sizeof catdir, "%s/catalog", datadir_get());
    if (catalog_load(&app->cat, catdir, catalog_dir_override, &d) != 0) {
        fprintf(stderr, "gpuplan: %s\n", diag_format(&d, buf, sizeof buf));
        status = 1;
        goto out_nocat;
    }
    if (db_path && *db_path)
        snprintf(app->db_path, sizeof app->db_path, "%s", db_path);
    else if (datadir_default_db(app->db_path, sizeof app->db_path) != 0) {
        fprintf(stderr, "gpuplan: cannot find a place for the plan store\n");
        status = 3;
        goto out;
    }
    char seed[1100];
    snprintf(seed, sizeof seed, "%s/examples", datadir_get());
    app->store = store_open(app->db_path, seed, false, &d);
    if (!app->store) {
        fprintf(stderr, "gpuplan: %s\n", diag_format(&d, buf, sizeof buf));
        status = 3;
        goto out;
    }
    const char *tdir = getenv("GPUPLAN_THEMES");
    snprintf(app->themes_dir, sizeof app->themes_dir, "%s", tdir && *tdir ? tdir : datadir_themes());

    app->result = calloc(1, sizeof *app->result);
    app->sens = calloc(1, sizeof *app->sens);
    int pfd[2];
    if (!app->result || !app->sens || undo_init(&app->undo) != 0 || pipe(pfd) != 0) {
        fprintf(stderr, "gpuplan: out of memory\n");
        status = 3;
        goto out;
    }
    app->wake_rd = pfd[0];
    app->wake_wr = pfd[1];
    fcntl(app->wake_rd, F_SETFL, O_NONBLOCK);
    fcntl(app->wake_wr, F_SETFL, O_NONBLOCK);
    app->worker = worker_start(&app->cat, app->wake_wr);
    if (!app->worker) {
        fprintf(stderr, "gpuplan: cannot start the recompute thread\n");
        status = 3;
        goto out;
    }
    worker_set_ranges(app->worker, true);
    for (int i = 0; i < VIEW_COUNT; i++) {
        app->views[i].ops = view_table[i];
        app->views[i].state = view_table[i]->create ? view_table[i]->create(app) : NULL;
        if (view_table[i]->create && !app->views[i].state) {
            fprintf(stderr, "gpuplan: out of memory starting the dashboard\n");
            status = 3;
            goto out;
        }
    }
    char err[1024];
    if (initial_plan(app, plan_name_or_file, err, sizeof err) != 0) {
        fprintf(stderr, "gpuplan: %s\n", err);
        status = 1;
        goto out;
    }

    if (term_start() != 0) {
        fprintf(stderr, "gpuplan: the dashboard needs a terminal (try `gpuplan --help`)\n");
        status = 2;
        goto out;
    }
    /* theme: --theme, else the saved preference, else default */
    char pref[64] = "";
    const char *tname = theme && *theme ? theme : NULL;
    if (!tname && store_pref_get(app->store, "theme", pref, sizeof pref) == 0 && pref[0])
        tname = pref;
    /* --theme is for this run; :theme and t save the preference */
    if (app_theme_set(app, tname ? tname : "default", false) != 0) {
        char keep[512];
        snprintf(keep, sizeof keep, "%s", app->status);
        Theme t;
        theme_builtin(&t);
        app->theme = t;
        theme_apply(&app->theme);
        app_status(app, true, "%s (using the built-in theme)", keep);
    }
    if (!app->status[0])
        app_status(app, false, "%s: F1 help, Tab moves between panes, Enter edits a field",
                   app->plan.name);
    term_defer_quit_signals(app->wake_wr);
    draft_offer(app);
    main_loop(app);
    if (term_quit_signal())
        term_die_of(term_quit_signal());
    term_stop();

out:
    scenario_free(app);
    worker_stop(app->worker);
    for (int i = 0; i < VIEW_COUNT; i++)
        if (app->views[i].ops && app->views[i].ops->destroy &&
            (app->views[i].state || !app->views[i].ops->create)) /* made, or stateless */
            app->views[i].ops->destroy(&app->views[i]);
    if (app->store)
        store_close(app->store);
    catalog_free(&app->cat);
out_nocat:
    for (int i = 0; i < app->n_traces; i++)
        trace_free(&app->traces[i]);
    free(app->traces);
    undo_free(&app->undo);
    if (app->wake_rd)
        close(app->wake_rd);
    if (app->wake_wr)
        close(app->wake_wr);
    if (app->log)
        fclose(app->log);
    if (term_clip_log) {
        fclose(term_clip_log);
        term_clip_log = NULL;
    }
    free(app->result);
    free(app->sens);
    free(app->clean_yaml);
    free(app->info_text);
    free(app->export_text);
    export_files_free(app->export_bundle, app->export_bundle_n);
    free(app);
    return status;
}
