/* tui/keys.h — the one key table (tig's request table): key → named action,
 * the contexts (focus) it works in, and help text.  It drives dispatch, the
 * footer of each pane and the F1 help screen. */
#ifndef GPUPLAN_TUI_KEYS_H
#define GPUPLAN_TUI_KEYS_H

#include <stddef.h>

/* Contexts: where a binding applies (the focused pane's context). */
#define CTX_LIST 0x01u       /* left: workloads/teams list */
#define CTX_FORM 0x02u       /* left: the field form */
#define CTX_PANE 0x04u       /* right: a result pane */
#define CTX_SCHEDULE 0x08u   /* right: the Schedule pane (policy toggles) */
#define CTX_PLANS 0x10u      /* F3 plan browser */
#define CTX_COMPARE 0x20u    /* F4 compare */
#define CTX_HELP 0x40u       /* F1 help */
#define CTX_INFO 0x80u       /* a text page: warnings (w), an explanation (e) */
#define CTX_PRESENT 0x100u   /* presenter mode (P) */
#define CTX_SWEEP 0x200u     /* right: the Sweeps pane (sweep, output, axes) */
#define CTX_MAIN (CTX_LIST | CTX_FORM | CTX_PANE | CTX_SCHEDULE | CTX_SWEEP)
#define CTX_OVERLAY (CTX_PLANS | CTX_COMPARE | CTX_HELP | CTX_INFO | CTX_PRESENT)
#define CTX_ALL (CTX_MAIN | CTX_OVERLAY)

typedef enum {
    ACT_NONE = 0,
    ACT_HELP, ACT_SAVE, ACT_PLANS, ACT_COMPARE, ACT_EXPORT, ACT_COMMAND, ACT_QUIT,
    ACT_CLOSE, ACT_UNDO, ACT_REDO, ACT_FOCUS_NEXT, ACT_FOCUS_PREV, ACT_TAB_NEXT,
    ACT_TAB_PREV, ACT_TAB_1, ACT_TAB_2, ACT_TAB_3, ACT_TAB_4, ACT_TAB_5, ACT_TAB_6, ACT_TAB_7,
    ACT_FIND,
    ACT_FIND_NEXT, ACT_FIND_PREV, ACT_REDRAW, ACT_THEME_NEXT,
    ACT_UP, ACT_DOWN, ACT_PGUP, ACT_PGDN, ACT_TOP, ACT_BOTTOM, ACT_LEFT, ACT_RIGHT,
    ACT_ENTER, ACT_TOGGLE, ACT_PICK,
    ACT_ADD, ACT_DELETE, ACT_CLONE,
    ACT_NEW, ACT_RENAME, ACT_DUPLICATE, ACT_VERSIONS, ACT_SHOW_DELETED, ACT_UNDELETE,
    ACT_FILTER,
    ACT_PICK_A, ACT_PICK_B, ACT_SWAP,
    ACT_POLICY, ACT_PREEMPT, ACT_BACKFILL,
    ACT_FORK,
    ACT_FIND_APPLY,          /* not a key: the find text changed, select the first match */
    ACT_EXPLAIN, ACT_COPY, ACT_PRESENT, ACT_WARNINGS, ACT_ZOOM, ACT_SUSPEND,
    ACT_SWEEP_PICK, ACT_SWEEP_RELOAD, ACT_METRIC_NEXT, ACT_METRIC_PREV, ACT_AXIS_X, ACT_AXIS_Y,
    ACT_HOLD_NEXT,
    ACT_COUNT
} Action;

#define KEYF_FOOTER 0x1u     /* shown in the footer of its contexts */
#define KEYF_HIDDEN 0x2u     /* an alias: not listed separately in help */

typedef struct {
    int key;                 /* curses key code */
    unsigned ctx;            /* CTX_* where it applies */
    Action action;
    unsigned flags;
    const char *label;       /* "F2", "^R", "Enter" */
    const char *short_help;  /* footer: "Save" */
    const char *help;        /* help screen */
} KeyBinding;

/* The action bound to key in ctx (context-specific bindings win over
 * CTX_ALL ones), ACT_NONE when unbound. */
Action keys_lookup(int key, unsigned ctx);
/* The whole table (help screen). */
const KeyBinding *keys_table(size_t *n);
/* Footer bindings for ctx, most specific first; returns count. */
int keys_footer(unsigned ctx, const KeyBinding **out, int max);
/* The name of an action ("save", "undo", …). */
const char *keys_action_name(Action a);
/* Context names for the help screen ("list", "form", …). */
const char *keys_ctx_name(unsigned ctx_bit);

#endif
