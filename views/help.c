/* views/help.c — F1: the key bindings, generated from the key table
 * (tui/keys.c) grouped by where they apply, then the `:` commands. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

typedef struct {
    int scroll;
} HState;

static void *h_create(App *app)
{
    (void)app;
    return calloc(1, sizeof(HState));
}

static void h_destroy(View *v)
{
    free(v->state);
}

static const struct { unsigned ctx; const char *title; } groups[] = {
    {CTX_ALL, "everywhere"},
    {CTX_MAIN, "main screen"},
    {CTX_LIST, "workloads list (left)"},
    {CTX_FORM, "field form (left)"},
    {CTX_SCHEDULE, "Schedule pane"},
    {CTX_SWEEP, "Sweeps pane (arrows move the heat map's cell)"},
    {CTX_PLANS, "plan browser (F3)"},
    {CTX_COMPARE, "compare (F4)"},
    {CTX_OVERLAY, "F1 / F3 / F4 screens"},
};

static const char *const commands[][2] = {
    {":set FIELD VALUE", "set a field of the selection or the plan (site.pue, tenancy.policy, ...)"},
    {":set accelerator H200", "switch the plan's accelerator"},
    {":export FORMAT [PATH]", "md html csv json yaml kueue volcano slurm; without PATH asks, proposing PLAN-vN-DATE.EXT"},
    {":theme NAME", "default dark light high-contrast mono (saved as preference)"},
    {":open NAME[@N]", "open a stored plan (or version N)"},
    {":compare A B", "compare two stored plans (NAME or NAME@N, or (current))"},
    {":w  :w NAME", "save a version; save the working copy as a new plan NAME"},
    {":wq  :q  :q!", "save and quit, quit (asks), quit without saving (drops the draft)"},
    {":explain [WHAT]", "tco, gpus, power, WORKLOAD.days, WORKLOAD.gpus: formula, inputs, sources"},
    {":present  :warnings", "presenter mode (P); every warning and binding constraint (w)"},
    {":set WORKLOAD.KEY V", "a field of a named workload or team, whatever is selected"},
    {":undo  :redo  :help", ""},
};

static void h_draw(View *v, App *app, Rect r)
{
    HState *s = v->state;
    (void)app;
    term_clear_rect(r, ROLE_NORMAL);
    Canvas c;
    canvas_begin(&c, r, &s->scroll);
    int y = canvas_next(&c);
    if (y >= 0)
        term_put(y, r.x + 1, r.w - 1, ROLE_TITLE, "gpuplan keys (from the key table; q or Esc closes)");
    size_t n;
    const KeyBinding *t = keys_table(&n);
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            if (t[i].ctx != groups[g].ctx || (t[i].flags & KEYF_HIDDEN) || !t[i].help[0])
                continue;
            if (!any) {
                canvas_next(&c);
                y = canvas_next(&c);
                if (y >= 0)
                    term_put(y, r.x + 1, r.w - 1, ROLE_TITLE, groups[g].title);
                any = true;
            }
            y = canvas_next(&c);
            if (y >= 0) {
                term_put(y, r.x + 3, 10, ROLE_FOOTER_KEY, t[i].label);
                term_put(y, r.x + 14, r.w - 14, ROLE_NORMAL, t[i].help);
            }
        }
    }
    canvas_next(&c);
    y = canvas_next(&c);
    if (y >= 0)
        term_put(y, r.x + 1, r.w - 1, ROLE_TITLE, "commands (: then Tab completes)");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        y = canvas_next(&c);
        if (y >= 0) {
            term_put(y, r.x + 3, 28, ROLE_VALUE, commands[i][0]);
            term_put(y, r.x + 32, r.w - 32, ROLE_NORMAL, commands[i][1]);
        }
    }
    canvas_next(&c);
    y = canvas_next(&c);
    if (y >= 0)
        term_put(y, r.x + 1, r.w - 1, ROLE_MUTED,
                 "Fields accept the plan-file quantity syntax: 405B, 15.6T, 80GB, 2PB, 6h, 30d, 400Gb/s, $2.10, 40%, auto.");
    canvas_end(&c, &s->scroll);
}

static int h_key(View *v, App *app, Action a, int ch)
{
    HState *s = v->state;
    (void)ch;
    return app_scroll(&s->scroll, a, app->geo.body.h - 1);
}

const ViewOps view_help_ops = {
    .name = "Help", .abbrev = "Help", .ctx = CTX_HELP,
    .create = h_create, .draw = h_draw, .key = h_key, .destroy = h_destroy,
};
