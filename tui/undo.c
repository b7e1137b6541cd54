/* tui/undo.c — undo/redo stacks of Plans (see undo.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "undo.h"

int undo_init(Undo *u)
{
    memset(u, 0, sizeof *u);
    u->undo = malloc(UNDO_DEPTH * sizeof *u->undo);
    u->redo = malloc(UNDO_DEPTH * sizeof *u->redo);
    if (!u->undo || !u->redo) {
        undo_free(u);
        return -1;
    }
    return 0;
}

void undo_free(Undo *u)
{
    free(u->undo);
    free(u->redo);
    memset(u, 0, sizeof *u);
}

void undo_clear(Undo *u)
{
    u->n_undo = 0;
    u->n_redo = 0;
}

static void push(Plan *stack, int *n, const Plan *p)
{
    if (*n == UNDO_DEPTH) {
        memmove(stack, stack + 1, (UNDO_DEPTH - 1) * sizeof *stack);
        (*n)--;
    }
    stack[(*n)++] = *p;
}

void undo_push(Undo *u, const Plan *before)
{
    if (!u->undo)
        return;
    push(u->undo, &u->n_undo, before);
    u->n_redo = 0;
}

bool undo_undo(Undo *u, Plan *cur)
{
    if (!u->undo || u->n_undo == 0)
        return false;
    push(u->redo, &u->n_redo, cur);
    *cur = u->undo[--u->n_undo];
    return true;
}

bool undo_redo(Undo *u, Plan *cur)
{
    if (!u->redo || u->n_redo == 0)
        return false;
    push(u->undo, &u->n_undo, cur);
    *cur = u->redo[--u->n_redo];
    return true;
}

void undo_redo_clear(Undo *u)
{
    u->n_redo = 0;
}
