/* tui/worker.h — the recompute thread (ARCHITECTURE.md "Live recompute").
 * The UI hands it a copy of the plan with a generation number; the worker
 * evaluates the newest one, cancels a stale run through an atomic flag the
 * model polls, and publishes each finished result with its generation.  It
 * wakes the UI by writing one byte to wake_fd.  The UI never waits on it. */
#ifndef GPUPLAN_TUI_WORKER_H
#define GPUPLAN_TUI_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include "catalog.h"
#include "plan.h"
#include "sensitivity.h"

typedef struct Worker Worker;

/* Start the thread.  cat must stay unchanged and alive until worker_stop.
 * Returns NULL on failure. */
Worker *worker_start(const Catalog *cat, int wake_fd);
/* Stop (cancelling any run) and join; frees w.  NULL-safe. */
void worker_stop(Worker *w);
/* Queue a copy of p as generation gen (newer than any before); a run of an
 * older generation is cancelled.  Never blocks on a running evaluation. */
void worker_submit(Worker *w, const Plan *p, uint64_t gen);
/* When a result newer than *gen is published, copy it into *dst, set *gen
 * and *eval_ms (wall time of that evaluation) and return true. */
bool worker_take(Worker *w, PlanResult *dst, uint64_t *gen, double *eval_ms);

/* Ranges (the sensitivity pane, the Monte Carlo ranges): when on, after
 * publishing a result the worker runs sens_run and mc_run on the same plan
 * through a stage cache of their own (so they do not evict the edited
 * plan's stages) — unless a newer plan is queued, which cancels
 * them — and publishes both with the plan's generation.  Off by default. */
void worker_set_ranges(Worker *w, bool on);
/* When ranges newer than *gen are published, copy them and set *gen and
 * *ms (wall time of both runs); true then. */
bool worker_take_ranges(Worker *w, SensResult *s, McResult *m, uint64_t *gen, double *ms);

#endif
