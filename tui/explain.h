/* tui/explain.h — "explain this number": formula, inputs with their values,
 * assumptions and sources of a headline number (see explain.c). */
#ifndef GPUPLAN_TUI_EXPLAIN_H
#define GPUPLAN_TUI_EXPLAIN_H

#include "strbuf.h"

struct App;

typedef struct {
    int explainer;           /* row of the explainer table */
    int wl;                  /* workload index, -1 for plan numbers */
    char label[160];         /* "TCO: $1.57B / 3y", "pretrain-405b days: 84.5 d" */
} ExplainItem;

/* The numbers of the current result that can be explained, plan numbers
 * first; returns the count (0 before the first result). */
int explain_list(const struct App *app, ExplainItem *out, int max);
/* One by name: "tco", "gpus", "power", "WORKLOAD.days", "WORKLOAD.gpus".
 * Returns 0, or -1 when unknown or not computed. */
int explain_find(const struct App *app, const char *what, ExplainItem *out);
/* The explanation as text ("# heading" lines, then lines); caller frees;
 * NULL when the result changed under it or out of memory. */
char *explain_text(const struct App *app, const ExplainItem *it);

#endif
