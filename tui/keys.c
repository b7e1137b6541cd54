/* tui/keys.c — the key table (see keys.h). */
#include "config.h"

#include <stdbool.h>

#include <ncursesw/curses.h>

#include "keys.h"

#define CTRL(c) ((c) & 0x1f)
#define F KEYF_FOOTER
#define H KEYF_HIDDEN

static const KeyBinding table[] = {
    {KEY_F(1), CTX_ALL, ACT_HELP, F, "F1", "Help", "show this help (generated from the key table)"},
    {KEY_F(2), CTX_ALL, ACT_SAVE, F, "F2", "Save", "save the plan as a new version (asks for a note)"},
    {KEY_F(3), CTX_ALL, ACT_PLANS, F, "F3", "Plans", "browse saved plans"},
    {KEY_F(4), CTX_ALL, ACT_COMPARE, F, "F4", "Compare", "compare two plans or versions"},
    {KEY_F(5), CTX_ALL, ACT_EXPORT, F, "F5", "Export", "export the plan (or the comparison) to a file"},
    {'\t', CTX_MAIN, ACT_FOCUS_NEXT, F, "Tab", "Pane", "focus the next pane (list, form, results)"},
    {KEY_BTAB, CTX_MAIN, ACT_FOCUS_PREV, 0, "S-Tab", "Pane", "focus the previous pane"},
    {']', CTX_MAIN, ACT_TAB_NEXT, 0, "]", "Next tab", "next result tab"},
    {'[', CTX_MAIN, ACT_TAB_PREV, 0, "[", "Prev tab", "previous result tab"},
    {'1', CTX_MAIN, ACT_TAB_1, 0, "1..7", "Tab", "show Sizing, Topology, Power, Cost, Schedule, Sensitivity, Sweeps (in the form a digit starts editing a number: use ] and [ there)"},
    {'2', CTX_MAIN, ACT_TAB_2, H, "2", "", ""},
    {'3', CTX_MAIN, ACT_TAB_3, H, "3", "", ""},
    {'4', CTX_MAIN, ACT_TAB_4, H, "4", "", ""},
    {'5', CTX_MAIN, ACT_TAB_5, H, "5", "", ""},
    {'6', CTX_MAIN, ACT_TAB_6, H, "6", "", ""},
    {'7', CTX_MAIN, ACT_TAB_7, H, "7", "", ""},
    /* left list */
    {'a', CTX_LIST, ACT_ADD, F, "a", "Add", "add a workload, team or job class (asks which)"},
    {'d', CTX_LIST, ACT_DELETE, F, "d", "Del", "delete the selected workload, team or job class (asks)"},
    {'c', CTX_LIST, ACT_CLONE, F, "c", "Clone", "clone the selected workload, team or job class"},
    /* form */
    {'\r', CTX_FORM, ACT_ENTER, F, "Enter", "Edit", "edit the field (Enter accepts, Esc cancels); pick list for choices"},
    {' ', CTX_FORM, ACT_TOGGLE, F, "Space", "Next", "next value of a choice or toggle"},
    {'p', CTX_FORM, ACT_PICK, F, "p", "Pick", "open the pick list of a choice field"},
    {KEY_LEFT, CTX_FORM, ACT_LEFT, F, "<-/->", "Cycle", "previous / next value of a choice"},
    /* schedule pane toggles edit the plan */
    {'p', CTX_SCHEDULE, ACT_POLICY, F, "p", "Policy", "cycle the scheduling policy (fifo, fair-share, priority)"},
    {'P', CTX_SCHEDULE, ACT_PREEMPT, F, "P", "Preempt", "toggle preemption"},
    {'b', CTX_SCHEDULE, ACT_BACKFILL, F, "b", "Backfill", "toggle backfill"},
    /* sweeps pane: the plan's stored sweeps drawn with axes */
    {'s', CTX_SWEEP, ACT_SWEEP_PICK, F, "s", "Sweep", "pick one of the plan's stored sweeps (gpuplan sweep)"},
    {'m', CTX_SWEEP, ACT_METRIC_NEXT, F, "m", "Output", "next output drawn: TCO, GPUs, days, MW, verdict margin, p95 wait, ... (M: previous)"},
    {'M', CTX_SWEEP, ACT_METRIC_PREV, H, "M", "", ""},
    {'x', CTX_SWEEP, ACT_AXIS_X, F, "x", "X axis", "next varied input on the x axis"},
    {'y', CTX_SWEEP, ACT_AXIS_Y, F, "y", "Y axis", "next varied input on the y axis (none: a curve; two: a heat map)"},
    {'f', CTX_SWEEP, ACT_HOLD_NEXT, 0, "f", "Held", "next value of the inputs held fixed (a sweep of three keys or more)"},
    {'r', CTX_SWEEP, ACT_SWEEP_RELOAD, 0, "r", "Reload", "read the plan's sweeps again (one made in another shell)"},
    /* plan browser */
    {'\r', CTX_PLANS, ACT_ENTER, F, "Enter", "Open", "open the plan (or the version)"},
    {'/', CTX_PLANS, ACT_FILTER, F, "/", "Filter", "filter by regular expression as you type"},
    {'n', CTX_PLANS, ACT_NEW, F, "n", "New", "new plan from a template (the demo plans)"},
    {'r', CTX_PLANS, ACT_RENAME, F, "r", "Rename", "rename the plan"},
    {'c', CTX_PLANS, ACT_DUPLICATE, F, "c", "Copy", "duplicate the plan"},
    {'d', CTX_PLANS, ACT_DELETE, F, "d", "Delete", "delete the plan (asks; recoverable until purged)"},
    {'v', CTX_PLANS, ACT_VERSIONS, F, "v", "Versions", "list the versions of the plan"},
    {'x', CTX_PLANS, ACT_SHOW_DELETED, 0, "x", "Deleted", "show / hide deleted plans"},
    {'U', CTX_PLANS, ACT_UNDELETE, 0, "U", "Undelete", "recover a deleted plan"},
    {'f', CTX_PLANS, ACT_FORK, F, "f", "Fork", "fork the working copy into a live scenario B (asks its name; as :fork NAME)"},
    /* compare */
    {'a', CTX_COMPARE, ACT_PICK_A, F, "a", "Plan A", "pick the left plan or version"},
    {'b', CTX_COMPARE, ACT_PICK_B, F, "b", "Plan B", "pick the right plan or version"},
    {'s', CTX_COMPARE, ACT_SWAP, F, "s", "Swap", "swap A and B"},
    /* finding */
    {'/', CTX_MAIN, ACT_FIND, F, "/", "Find", "find in the focused list"},
    {'n', CTX_MAIN, ACT_FIND_NEXT, 0, "n", "Next", "next match"},
    {'N', CTX_MAIN, ACT_FIND_PREV, 0, "N", "Prev", "previous match"},
    /* the meeting: explain, present, zoom, warnings */
    {'e', CTX_MAIN, ACT_EXPLAIN, F, "e", "Explain", "explain a number: formula, inputs, assumptions, sources (also ?)"},
    {'?', CTX_MAIN, ACT_EXPLAIN, H, "?", "Explain", ""},
    {'P', CTX_LIST | CTX_FORM | CTX_PANE, ACT_PRESENT, F, "P", "Present", "presenter mode: the ask in large type, verdict, top risks (P or Esc leaves)"},
    {'P', CTX_PRESENT, ACT_PRESENT, 0, "P", "Leave", "leave presenter mode"},
    {'z', CTX_MAIN, ACT_ZOOM, 0, "z", "Zoom", "zoom the result pane to the whole screen (z again restores)"},
    {'w', CTX_MAIN, ACT_WARNINGS, 0, "w", "Warnings", "list every warning of the plan"},
    {'y', CTX_INFO, ACT_COPY, F, "y", "Copy", "copy the page to the clipboard (OSC 52) for the notes"},
    {CTRL('z'), CTX_ALL, ACT_SUSPEND, 0, "^Z", "Suspend", "suspend to the shell (fg resumes)"},
    /* session */
    {':', CTX_ALL, ACT_COMMAND, 0, ":", "Cmd", "command line: set, export, theme, w, q (Tab completes)"},
    {'u', CTX_MAIN, ACT_UNDO, F, "u", "Undo", "undo the last edit"},
    {CTRL('r'), CTX_MAIN, ACT_REDO, F, "^R", "Redo", "redo"},
    {'t', CTX_MAIN, ACT_THEME_NEXT, 0, "t", "Theme", "next colour theme (saved as preference)"},
    {CTRL('l'), CTX_ALL, ACT_REDRAW, 0, "^L", "Redraw", "redraw the screen"},
    {'q', CTX_MAIN, ACT_QUIT, F, "q", "Quit", "quit (asks when there are unsaved changes)"},
    {CTRL('c'), CTX_ALL, ACT_QUIT, H, "^C", "Quit", "quit"},
    {'q', CTX_OVERLAY, ACT_CLOSE, F, "q", "Back", "close and go back"},
    {27, CTX_OVERLAY, ACT_CLOSE, H, "Esc", "Back", "close and go back"},
    /* movement (everywhere) */
    {KEY_UP, CTX_ALL, ACT_UP, 0, "Up/k", "", "move up"},
    {'k', CTX_ALL, ACT_UP, H, "k", "", ""},
    {KEY_DOWN, CTX_ALL, ACT_DOWN, 0, "Down/j", "", "move down"},
    {'j', CTX_ALL, ACT_DOWN, H, "j", "", ""},
    {KEY_PPAGE, CTX_ALL, ACT_PGUP, 0, "PgUp", "", "page up"},
    {KEY_NPAGE, CTX_ALL, ACT_PGDN, 0, "PgDn", "", "page down"},
    {KEY_HOME, CTX_ALL, ACT_TOP, 0, "Home/g", "", "first row"},
    {'g', CTX_ALL, ACT_TOP, H, "g", "", ""},
    {KEY_END, CTX_ALL, ACT_BOTTOM, 0, "End/G", "", "last row"},
    {'G', CTX_ALL, ACT_BOTTOM, H, "G", "", ""},
    {KEY_LEFT, CTX_ALL, ACT_LEFT, H, "Left/h", "", "scroll left / previous value"},
    {'h', CTX_ALL, ACT_LEFT, H, "h", "", ""},
    {KEY_RIGHT, CTX_ALL, ACT_RIGHT, H, "Right/l", "", "scroll right / next value"},
    {'l', CTX_ALL, ACT_RIGHT, H, "l", "", ""},
    {'\r', CTX_ALL, ACT_ENTER, 0, "Enter", "", "open / edit the selection"},
    {KEY_ENTER, CTX_ALL, ACT_ENTER, H, "Enter", "", ""},
    {'\n', CTX_ALL, ACT_ENTER, H, "Enter", "", ""},
};

static const char *const action_names[ACT_COUNT] = {
    "none", "help", "save", "plans", "compare", "export", "command", "quit", "close",
    "undo", "redo", "focus-next", "focus-prev", "tab-next", "tab-prev", "tab-1", "tab-2",
    "tab-3", "tab-4", "tab-5", "tab-6", "tab-7", "find", "find-next", "find-prev", "redraw", "theme-next",
    "up", "down", "page-up", "page-down", "top", "bottom", "left", "right", "enter",
    "toggle", "pick", "add", "delete", "clone", "new", "rename", "duplicate", "versions",
    "show-deleted", "undelete", "filter", "pick-a", "pick-b", "swap", "policy",
    "preemption", "backfill", "fork", "find-apply", "explain", "copy", "present", "warnings",
    "zoom", "suspend", "sweep-pick", "sweep-reload", "metric-next", "metric-prev", "axis-x",
    "axis-y", "hold-next",
};

Action keys_lookup(int key, unsigned ctx)
{
    Action general = ACT_NONE;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].key != key || !(table[i].ctx & ctx))
            continue;
        /* a binding made for fewer contexts is the more specific one */
        if (table[i].ctx != CTX_ALL)
            return table[i].action;
        if (general == ACT_NONE)
            general = table[i].action;
    }
    return general;
}

const KeyBinding *keys_table(size_t *n)
{
    *n = sizeof table / sizeof table[0];
    return table;
}

int keys_footer(unsigned ctx, const KeyBinding **out, int max)
{
    int n = 0;
    /* pass 0: bindings specific to ctx; pass 1: the global ones */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < sizeof table / sizeof table[0] && n < max; i++) {
            const KeyBinding *b = &table[i];
            if (!(b->flags & KEYF_FOOTER) || !(b->ctx & ctx))
                continue;
            bool global = b->ctx == CTX_ALL || b->ctx == CTX_MAIN || b->ctx == CTX_OVERLAY;
            if ((pass == 0) == global)
                continue;
            /* the same key may have been listed already (e.g. Enter) */
            bool dup = false;
            for (int j = 0; j < n; j++)
                if (out[j]->key == b->key)
                    dup = true;
            if (!dup)
                out[n++] = b;
        }
    return n;
}

const char *keys_action_name(Action a)
{
    return (a >= 0 && a < ACT_COUNT) ? action_names[a] : "?";
}

const char *keys_ctx_name(unsigned bit)
{
    switch (bit) {
    case CTX_LIST: return "list";
    case CTX_FORM: return "form";
    case CTX_PANE: return "results";
    case CTX_SCHEDULE: return "schedule";
    case CTX_SWEEP: return "sweeps";
    case CTX_PLANS: return "plans";
    case CTX_COMPARE: return "compare";
    case CTX_HELP: return "help";
    case CTX_INFO: return "page";
    case CTX_PRESENT: return "presenter";
    default: return "all";
    }
}
