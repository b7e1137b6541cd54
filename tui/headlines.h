/* tui/headlines.h — the headline numbers of stored plan versions for the
 * plan browser (F3): GPUs, the longest training run's days, facility MW and
 * TCO, so v1 against v3 reads off the list without F4.
 *
 * Each (plan, version, save time) is evaluated once per session on a
 * background thread and kept; the browser asks again as it draws and shows
 * "..." until the numbers arrive (the thread writes a byte to wake_fd and
 * the next frame has them).  The UI thread reads the YAML from the store
 * and hands over a copy: the thread never touches the store.  The numbers
 * are sens_outcome()'s, the ones the scenario strip compares. */
#ifndef GPUPLAN_TUI_HEADLINES_H
#define GPUPLAN_TUI_HEADLINES_H

#include <stdbool.h>
#include <stdint.h>

#include "catalog.h"
#include "plan.h"

typedef struct Headlines Headlines;

typedef enum { HEAD_UNKNOWN = 0, HEAD_PENDING, HEAD_DONE, HEAD_FAILED } HeadState;

typedef struct {
    HeadState state;
    double gpus, days, mw, tco;      /* days 0 = no training run */
    char accelerator[CAT_ID_LEN];    /* the plan's accelerator */
    char error[160];                 /* HEAD_FAILED: why (a plan that no longer parses) */
} HeadNumbers;

/* Start the thread.  cat must stay unchanged and alive until
 * headlines_stop.  NULL on failure. */
Headlines *headlines_start(const Catalog *cat, int wake_fd);
/* Cancel the evaluation in flight, join, free everything.  NULL-safe. */
void headlines_stop(Headlines *h);

/* The numbers known for this version (state HEAD_UNKNOWN: never asked). */
HeadNumbers headlines_get(Headlines *h, const char *plan, int version, int64_t saved);
/* Queue the version's YAML (copied) unless it is known; the latest request
 * is evaluated first (what was just put on screen).  0, or -1 on ENOMEM. */
int headlines_request(Headlines *h, const char *plan, int version, int64_t saved,
                      const char *yaml);
/* Record numbers computed elsewhere: the dashboard's own result of a
 * version just saved or opened unmodified (no second evaluation). */
void headlines_put(Headlines *h, const char *plan, int version, int64_t saved,
                   const PlanResult *r, const Catalog *cat, const char *accelerator);

#endif
