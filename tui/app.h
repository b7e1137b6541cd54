/* tui/app.h — the dashboard's shared state and the services the shell
 * offers the views: committing an edit (validate → undo → recompute),
 * prompts, the status line.  The shell owns geometry, focus, the single
 * doupdate() per frame, and dispatch; a view owns its private state. */
#ifndef GPUPLAN_TUI_APP_H
#define GPUPLAN_TUI_APP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "catalog.h"
#include "export.h"
#include "fields.h"
#include "keys.h"
#include "plan.h"
#include "store.h"
#include "term.h"
#include "theme.h"
#include "trace.h"
#include "undo.h"
#include "widgets.h"
#include "worker.h"

/* Handler results (htop's HandlerResult): what the loop must do next. */
#define HR_UNHANDLED 0x0
#define HR_HANDLED 0x1
#define HR_REDRAW 0x2
#define HR_RESIZE 0x4
#define HR_QUIT 0x8

typedef struct App App;
typedef struct View View;
typedef struct Scenario Scenario;

/* A pane (tig's view_ops).  draw formats the app's current plan/result into
 * r and must not call refresh/doupdate; key gets the action the key table
 * resolved (ACT_NONE when unbound) and the raw key (KEY_MOUSE with
 * app->mouse_y/x for clicks and the wheel), and returns HR_* bits. */
typedef struct {
    const char *name;        /* "Sizing" */
    const char *abbrev;      /* "Size" (narrow screens) */
    unsigned ctx;            /* key table context when focused */
    void *(*create)(App *app);
    void (*draw)(View *v, App *app, Rect r);
    int (*key)(View *v, App *app, Action a, int ch);
    void (*resize)(View *v, App *app, Rect r);   /* optional */
    void (*destroy)(View *v);                    /* optional */
    void (*show)(View *v, App *app);             /* optional: became visible */
} ViewOps;

struct View {
    const ViewOps *ops;
    void *state;
    Rect rect;               /* where it was last drawn (mouse hit tests) */
};

typedef enum {
    VIEW_WORKLOADS = 0, VIEW_SIZING, VIEW_TOPOLOGY, VIEW_POWER, VIEW_COST, VIEW_SCHEDULE,
    VIEW_SENSITIVITY, VIEW_SWEEPS, VIEW_PLANS, VIEW_COMPARE, VIEW_HELP, VIEW_INFO, VIEW_PRESENT, VIEW_COUNT
} ViewId;

#define TAB_FIRST VIEW_SIZING
#define TAB_COUNT 7

typedef enum { FOCUS_LIST = 0, FOCUS_FORM, FOCUS_PANE } Focus;

/* Screen geometry (layout.c). */
typedef struct {
    int lines, cols;
    bool too_small;          /* below 80×24 */
    bool stacked;            /* narrow: left block above the tabbed pane */
    bool abbrev_tabs;
    Rect header, body, left, list, form, tabs, pane, warn, status, footer;
    int tab_x[TAB_COUNT + 1];/* tab start columns (mouse), tab_x[n] = end */
} Geometry;

typedef void (*PromptTextFn)(App *app, const char *text, void *ctx);
typedef void (*PromptKeyFn)(App *app, int key, void *ctx);     /* key of `keys`, or 27 */
typedef void (*PromptPickFn)(App *app, int index, const char *item, void *ctx); /* -1 = cancelled */
typedef int (*PromptCompleteFn)(App *app, LineInput *in);

typedef enum { PROMPT_NONE = 0, PROMPT_TEXT, PROMPT_KEY, PROMPT_PICK } PromptKind;

#define PICK_MAX 256

typedef struct {
    PromptKind kind;
    char title[512];
    LineInput in;
    char keys[16];           /* PROMPT_KEY: accepted keys */
    PromptTextFn on_text;
    PromptTextFn on_change;  /* PROMPT_TEXT: called as the text changes (find) */
    PromptKeyFn on_key;
    PromptPickFn on_pick;
    PromptCompleteFn complete;
    void *ctx;
    char items[PICK_MAX][96];
    int n_items;
    int pick_sel, pick_top;
} Prompt;

struct App {
    /* data */
    Catalog cat;
    Store *store;
    char db_path[1024];
    char themes_dir[1024];
    Theme theme;
    Plan plan;               /* being edited; always valid */
    int version;             /* stored version it came from, 0 = never saved */
    bool modified;
    char *clean_yaml;        /* the plan as opened or last saved (heap), NULL = none:
                              * an edit or undo that returns to it clears modified */
    Undo undo;
    /* recompute */
    Worker *worker;
    uint64_t gen;            /* of app.plan */
    PlanResult *result;      /* newest published (heap) */
    uint64_t result_gen;     /* 0 = none yet */
    uint64_t base_gen;       /* first generation of the plan now open: older results belong to another plan */
    double last_eval_ms;
    /* sensitivity and Monte Carlo of app.plan, computed by the worker after
     * each result (views/sensitivity.c) */
    SensResult *sens;
    McResult mc;
    uint64_t ranges_gen;     /* generation they belong to, 0 = none yet */
    /* the other side of a live scenario (views/scenario.c), NULL = none */
    Scenario *scen;
    int wake_rd, wake_wr;
    /* traces borrowed by plans (kept for the session) */
    Trace *traces;
    int n_traces;
    /* selection of the left list: which object the form edits */
    FieldTarget sel;
    /* screen */
    View views[VIEW_COUNT];
    int tab;                 /* VIEW_SIZING … VIEW_SCHEDULE */
    int overlay;             /* VIEW_PLANS/COMPARE/HELP, or -1 */
    Focus focus;
    Geometry geo;
    bool dirty;
    bool resized;
    int spinner;
    int mouse_y, mouse_x;
    unsigned mouse_bstate;
    char status[512];
    bool status_error;
    Prompt prompt;
    char find[128];          /* last find text */
    char completions[600];   /* Tab's candidates, shown above the command line */
    /* the text page (VIEW_INFO): warnings, explanations */
    char info_title[200];
    char *info_text;         /* heap, "# heading" and plain lines */
    bool zoom;               /* the result pane over the whole body */
    char theme_before_present[64]; /* restored when presenter mode ends */
    char *export_text;       /* waiting for the export dialog's path (heap) */
    ExportFile export_bundle[4]; /* the Slurm bundle waiting for its directory */
    int export_bundle_n;     /* 0 = none */
    char plan_dir[900];      /* directory of the plan file opened, "" = from the store */
    /* drafts: the working copy autosaved to the store (issue 15) */
    char draft_name[PLAN_NAME_LEN]; /* the name it is kept under (the plan as opened) */
    uint64_t draft_gen;      /* generation last written as a draft, 0 = none */
    bool draft_kept;         /* a draft row exists for draft_name */
    double draft_t;          /* when it was last written (ms) */
    bool quit;
    bool quit_after_save;    /* the pending save was asked for by quit */
    char open_name[PLAN_NAME_LEN]; /* plan to open once unsaved changes are discarded */
    int open_version;
    /* latency log (GPUPLAN_TUI_LOG=path) */
    FILE *log;
    double key_t0;           /* when the last key that changed the plan arrived */
    uint64_t key_gen;        /* the generation that key produced */
    bool key_echo_pending;
};

/* ---- app.c services for views */
void app_status(App *app, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Validate candidate, and when valid make it the plan: push undo, mark
 * modified, bump the generation and hand a copy to the worker.  what names
 * the edit on the status line.  Returns 0, or -1 (status shows why; the
 * plan is unchanged). */
int app_commit(App *app, const Plan *candidate, const char *what);
/* Validate without committing; returns 0 or -1 with msg. */
int app_check(App *app, const Plan *candidate, char *msg, size_t len);
const PlanResult *app_result(const App *app);
bool app_recomputing(const App *app);
/* The newest sensitivity / Monte Carlo of the plan now open, NULL = none
 * yet; stale when they belong to an older generation than the plan's. */
const SensResult *app_sensitivity(const App *app);
const McResult *app_monte_carlo(const App *app);
bool app_ranges_stale(const App *app);
void app_prompt_text(App *app, const char *title, const char *initial, PromptTextFn done,
                     void *ctx);
void app_prompt_key(App *app, const char *question, const char *keys, PromptKeyFn done, void *ctx);
void app_prompt_pick(App *app, const char *title, const char *const *items, int n, int sel,
                     PromptPickFn done, void *ctx);
/* Open a stored plan (version 0 = latest) or a plan file; asks first when
 * there are unsaved changes.  Returns 0 when opened now. */
int app_open_stored(App *app, const char *name, int version);
/* Replace the plan being edited (new from template, opened version). */
void app_set_plan(App *app, const Plan *p, int version, bool modified);
void app_show_overlay(App *app, int view);
void app_close_overlay(App *app);
/* Show a text page (VIEW_INFO) with title and text (copied). */
void app_info_show(App *app, const char *title, const char *text);
/* Copy text to the clipboard (OSC 52); what names it on the status line. */
void app_copy(App *app, const char *text, const char *what);
/* Run a `:` command line ("set pue 1.2", "export html", "theme dark", "w",
 * "q"); returns HR_* bits. */
int app_command(App *app, const char *line);
int app_theme_set(App *app, const char *name, bool save_pref);
void app_save(App *app);
/* Save the working copy as a new plan `name` (v1) and edit that: `:w NAME`. */
void app_save_as(App *app, const char *name);
/* Store the working copy, edits included, as a new plan `name`; the open
 * plan stays (F3 Duplicate of the open plan).  Returns 0 or -1 (status). */
int app_duplicate_working(App *app, const char *name);
/* Write the working copy as the plan's draft now (when modified); drop the
 * draft when there is nothing unsaved.  Returns 0 or -1. */
int app_draft_sync(App *app);
/* Forget the plan's draft (the user discarded the edits). */
void app_draft_drop(App *app);
/* Export the plan in format; path NULL or "" opens the export dialog with a
 * proposed path (see app_export_text).  The Slurm bundle is a directory
 * (slurm.conf, gres.conf, topology.conf, accounts.sh — the files of
 * `gpuplan export --format slurm -o DIR`), proposed as <dir>/<stem>-<date>-slurm. */
void app_export(App *app, int format, const char *path);
/* Write text (taken over, freed) to path, or when path is NULL/"" ask for
 * the path, proposing <dir>/<stem>-<date>.<ext> where dir is the plan
 * file's directory, else $XDG_DOCUMENTS_DIR, else the plan store's. */
void app_export_text(App *app, const char *stem, const char *ext, char *text, const char *path);
/* Write text to path atomically (temp file + rename): an old file is intact
 * on failure.  Returns 0, or -1 with a message in err. */
int app_write_file(const char *path, const char *text, char *err, size_t len);
void app_request_quit(App *app, bool force);
/* Load the trace a plan names (kept for the session) and attach it. */
int app_attach_trace(App *app, Plan *p, char *err, size_t len);

/* Apply a scrolling action (up/down/page/top/bottom) to *scroll; returns
 * HR_HANDLED|HR_REDRAW when a was one, HR_UNHANDLED otherwise. */
int app_scroll(int *scroll, Action a, int page);

/* ---- layout.c */
void layout_compute(Geometry *g, int lines, int cols);
void layout_draw_chrome(App *app);
/* Which tab (0..TAB_COUNT-1) is at (y, x), -1 if none. */
int layout_tab_at(const Geometry *g, int y, int x);
bool layout_in(Rect r, int y, int x);

/* ---- palette.c */
/* Complete the command line in place (Tab).  Returns 1 when changed. */
int palette_complete(App *app, LineInput *in);

/* ---- views: one file each under views/ */
extern const ViewOps view_workloads_ops, view_sizing_ops, view_topology_ops, view_power_ops,
    view_cost_ops, view_schedule_ops, view_sensitivity_ops, view_sweeps_ops, view_plans_ops, view_compare_ops,
    view_help_ops, view_info_ops, view_present_ops;
/* Live scenarios (views/scenario.c): `fork NAME` and `scenario swap|a|b|save|close`
 * commands (returns HR_* bits, -1 when cmd is not one of them); take the
 * other side's result; draw the A | B | delta strip at the top of r
 * (returns the rows used, 0 without a scenario); free it. */
int scenario_command(App *app, const char *cmd, const char *rest);
void scenario_poll(App *app);
int scenario_draw_strip(App *app, Rect r);
bool scenario_active(const App *app);
void scenario_free(App *app);
/* F5 while comparing: export the comparison (views/compare.c). */
void view_compare_export(View *v, App *app, int format, const char *path);
/* The compare view's two sides, set from outside (e.g. `:compare A B`). */
void view_compare_set(View *v, App *app, const char *a, const char *b);

#endif
