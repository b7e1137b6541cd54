/* tui/undo.c — undo/redo stacks of Plans (see undo.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "undo.h"

int undo_init(Undo *u)
{
    memset(u, 0, sizeof *u);
    u->undo = malloc(UNDO_DEPTH * sizeof *u->undo);
    u->redo = malloc(UNDO_DEPTH * sizeof *u->redo);
    u->undo_what = calloc(UNDO_DEPTH, sizeof *u->undo_what);
    u->redo_what = calloc(UNDO_DEPTH, sizeof *u->redo_what);
    if (!u->undo || !u->redo || !u->undo_what || !u->redo_what) {
        undo_free(u);
        return -1;
    }
    return 0;
}

void undo_free(Undo *u)
{
    free(u->undo);
    free(u->redo);
    free(u->undo_what);
    free(u->redo_what);
    memset(u, 0, sizeof *u);
}

void undo_clear(Undo *u)
{
    u->n_undo = 0;
    u->n_redo = 0;
}

static void push(Plan *stack, char (*what)[UNDO_WHAT_LEN], int *n, const Plan *p, const char *w)
{
    if (*n == UNDO_DEPTH) {
        memmove(stack, stack + 1, (UNDO_DEPTH - 1) * sizeof *stack);
        memmove(what, what + 1, (UNDO_DEPTH - 1) * sizeof *what);
        (*n)--;
    }
    snprintf(what[*n], UNDO_WHAT_LEN, "%s", w ? w : "");
    stack[(*n)++] = *p;
}

void undo_set_what(Undo *u, const char *what)
{
    if (u->undo && u->n_undo > 0)
        snprintf(u->undo_what[u->n_undo - 1], UNDO_WHAT_LEN, "%s", what ? what : "");
}

const char *undo_next_undo_what(const Undo *u)
{
    return u->undo && u->n_undo > 0 ? u->undo_what[u->n_undo - 1] : "";
}

const char *undo_next_redo_what(const Undo *u)
{
    return u->redo && u->n_redo > 0 ? u->redo_what[u->n_redo - 1] : "";
}

void undo_push(Undo *u, const Plan *before)
{
    if (!u->undo)
        return;
    push(u->undo, u->undo_what, &u->n_undo, before, "");
    u->n_redo = 0;
}

bool undo_undo(Undo *u, Plan *cur)
{
    if (!u->undo || u->n_undo == 0)
        return false;
    /* the step keeps its name on its way to the other stack */
    push(u->redo, u->redo_what, &u->n_redo, cur, u->undo_what[u->n_undo - 1]);
    *cur = u->undo[--u->n_undo];
    return true;
}

bool undo_redo(Undo *u, Plan *cur)
{
    if (!u->redo || u->n_redo == 0)
        return false;
    push(u->undo, u->undo_what, &u->n_undo, cur, u->redo_what[u->n_redo - 1]);
    *cur = u->redo[--u->n_redo];
    return true;
}

void undo_redo_clear(Undo *u)
{
    u->n_redo = 0;
}
