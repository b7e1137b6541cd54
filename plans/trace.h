/* plans/trace.h — job traces to replay in the simulator: Alibaba openb pod
 * lists, the Tiresias job list, and Slurm `sacct --parsable2` output. */
#ifndef GPUPLAN_PLANS_TRACE_H
#define GPUPLAN_PLANS_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "plan.h"

typedef enum { TRACE_AUTO = 0, TRACE_OPENB, TRACE_TIRESIAS, TRACE_SACCT } TraceFormat;

typedef struct {
    TraceJob *jobs;          /* malloc'd */
    size_t n;
    char (*teams)[PLAN_NAME_LEN]; /* team names found (Account/qos …), malloc'd */
    size_t n_teams;
    size_t skipped;          /* malformed rows skipped (strict = false) */
    Diag first_skip;         /* where the first skipped row was */
} Trace;

/* Load a trace.  strict: the first malformed row is an error (file:line);
 * otherwise malformed rows are skipped, counted, and the first reported. */
int trace_load(const char *path, TraceFormat fmt, bool strict, Trace *out, Diag *d);
void trace_free(Trace *t);

#endif
