/* tui/undo.h — undo/redo of every edit of the session: two stacks of whole
 * Plans (a Plan is flat and copied with `=`).  The oldest entries are
 * dropped beyond UNDO_DEPTH. */
#ifndef GPUPLAN_TUI_UNDO_H
#define GPUPLAN_TUI_UNDO_H

#include <stdbool.h>

#include "plan.h"

#define UNDO_DEPTH 100
#define UNDO_WHAT_LEN 128

typedef struct {
    Plan *undo;       /* heap arrays of UNDO_DEPTH */
    int n_undo;
    Plan *redo;
    int n_redo;
    /* what each step did ("workloads[0].gpus = 512"), parallel to the
     * stacks, for the status line */
    char (*undo_what)[UNDO_WHAT_LEN];
    char (*redo_what)[UNDO_WHAT_LEN];
} Undo;

/* Returns 0, -1 on ENOMEM. */
int undo_init(Undo *u);
void undo_free(Undo *u);
/* Forget everything (a different plan was opened). */
void undo_clear(Undo *u);
/* Record the state before an edit; clears the redo stack. */
void undo_push(Undo *u, const Plan *before);
/* Name the step recorded by the last undo_push. */
void undo_set_what(Undo *u, const char *what);
/* What the next undo / redo would revert or repeat ("" when unnamed or
 * nothing). */
const char *undo_next_undo_what(const Undo *u);
const char *undo_next_redo_what(const Undo *u);
/* Step back: *cur becomes the previous state (cur is kept for redo).
 * Returns false when there is nothing to undo (cur unchanged). */
bool undo_undo(Undo *u, Plan *cur);
/* Step forward again; false when there is nothing to redo. */
bool undo_redo(Undo *u, Plan *cur);
/* Forget the redo branch (an undone step that must not come back). */
void undo_redo_clear(Undo *u);

#endif
