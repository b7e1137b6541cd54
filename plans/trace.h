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
    char (*teams)[PLAN_NAME_LEN]; /* sacct Account (else Partition) names, malloc'd; none for openb/Tiresias */
    size_t n_teams;
    size_t skipped;          /* malformed rows skipped (strict = false) */
    Diag first_skip;         /* where the first skipped row was */
    /* Well-formed rows that are not replayable GPU jobs; never an error,
     * in strict mode too. */
    size_t non_gpu;          /* openb num_gpu 0, Tiresias num_gpu 0, sacct without gres/gpu */
    size_t steps;            /* sacct job steps (JobID "123.batch"): the job row counts */
    size_t unfinished;       /* never scheduled (openb Pending) or no End (sacct RUNNING …) */
    Diag first_unfinished;   /* where the first unfinished row was, and why */
    TraceFormat format;      /* the format read (resolved when TRACE_AUTO) */
} Trace;

/* Load a trace.  strict: the first malformed row is an error (file:line:col,
 * the offending text and what was expected); otherwise malformed rows are
 * skipped, counted, and the first reported in first_skip.  Columns are found
 * by header name (case-insensitive), so their order does not matter.  Jobs
 * come out sorted by submit time, rebased so the first is at 0 (stable for
 * equal times).  Team indices (sacct Account, else Partition; -1 for openb and
 * Tiresias) index out->teams in order of first appearance; there may be more
 * than PLAN_MAX_TEAMS.  An openb file without the time columns (the
 * multigpu50 sample) and a file with no replayable GPU job are errors.  On
 * failure returns -1 with d set and *out zeroed (nothing to free). */
int trace_load(const char *path, TraceFormat fmt, bool strict, Trace *out, Diag *d);
/* The same from memory (len bytes, need not be NUL-terminated); `file`
 * names it in diagnostics.  Used by trace_load and the fuzz target. */
int trace_parse(const char *text, size_t len, const char *file, TraceFormat fmt, bool strict,
                Trace *out, Diag *d);
void trace_free(Trace *t);   /* frees the arrays, zeroes *t; NULL-safe */

/* Load the trace a plan names (tenancy.trace) and lend it to the plan.  A
 * relative path is looked up beside the plan file (plan_path, may be NULL
 * for a stored plan), then in the current directory, then among the demo
 * plans (data dir's examples/).  Trace teams are matched to the plan's teams
 * by name; jobs of other teams replay as one default team.  Malformed rows
 * are skipped and counted (out->skipped, out->first_skip).  On success the
 * plan's trace_jobs point into *out, which must outlive every evaluation of
 * the plan.  A plan without a trace gets 0 and an empty *out.  Failure:
 * -1 when the trace's content is unusable (d names the trace file), -2 when
 * the file cannot be read at all (missing, a directory, a device; d names
 * the plan file and the trace as written). */
int trace_attach(Plan *p, const char *plan_path, Trace *out, Diag *d);
/* "openb", "tiresias", "sacct" ("auto" for TRACE_AUTO). */
const char *trace_format_name(TraceFormat f);

#endif
