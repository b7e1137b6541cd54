/* tui/undo.h — undo/redo of every edit of the session: two stacks of whole
 * Plans (a Plan is flat and copied with `=`).  The oldest entries are
 * dropped beyond UNDO_DEPTH. */
#ifndef GPUPLAN_TUI_UNDO_H
#define GPUPLAN_TUI_UNDO_H

#include <stdbool.h>

#include "plan.h"

#define UNDO_DEPTH 100

typedef struct {
    Plan *undo;       /* heap arrays of UNDO_DEPTH */
    int n_undo;
    Plan *redo;
    int n_redo;
} Undo;

/* Returns 0, -1 on ENOMEM. */
int undo_init(Undo *u);
void undo_free(Undo *u);
/* Forget everything (a different plan was opened). */
void undo_clear(Undo *u);
/* Record the state before an edit; clears the redo stack. */
void undo_push(Undo *u, const Plan *before);
/* Step back: *cur becomes the previous state (cur is kept for redo).
 * Returns false when there is nothing to undo (cur unchanged). */
bool undo_undo(Undo *u, Plan *cur);
/* Step forward again; false when there is nothing to redo. */
bool undo_redo(Undo *u, Plan *cur);
/* Forget the redo branch (an undone step that must not come back). */
void undo_redo_clear(Undo *u);

#endif
