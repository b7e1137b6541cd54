/* plans/export.h — a plan and its result in the forms its audiences use
 * (PLAN-FORMAT.md `gpuplan export`).  Every exporter writes a malloc'd
 * NUL-terminated string (caller frees) and returns NULL only on ENOMEM. */
#ifndef GPUPLAN_PLANS_EXPORT_H
#define GPUPLAN_PLANS_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "plan.h"
#include "sensitivity.h"

typedef enum {
    EXPORT_MD = 0, EXPORT_HTML, EXPORT_CSV, EXPORT_JSON, EXPORT_YAML,
    EXPORT_KUEUE, EXPORT_VOLCANO, EXPORT_SLURM, EXPORT_COUNT
} ExportFormat;

/* "md" … "slurm" → format; -1 when unknown. */
int export_format_from_name(const char *name);
const char *export_format_name(ExportFormat f);
const char *export_format_extension(ExportFormat f);

/* The `eval --json` object (PLAN-FORMAT.md). pretty: indented. */
char *export_json(const Plan *p, const PlanResult *r, int pretty);
/* The same with the sensitivity and Monte Carlo ranges added as the keys
 * `sensitivity` and `monte_carlo` (either may be NULL: key left out). */
char *export_json_ranges(const Plan *p, const PlanResult *r, const SensResult *s,
                         const McResult *m, int pretty);
/* One plan in format f. version: stored version (0 = unsaved). */
char *export_plan(ExportFormat f, const Plan *p, const PlanResult *r, const Catalog *c,
                  int version);
/* Two plans as one JSON object {a, b, deltas[]} (`compare --json`). */
char *export_compare_json(const Plan *a, const PlanResult *ra, const Plan *b,
                          const PlanResult *rb);
/* Two plans side by side (md, html, csv, json). */
char *export_compare(ExportFormat f, const Plan *a, const PlanResult *ra, const Plan *b,
                     const PlanResult *rb);

/* Formats export_compare() can write. */
bool export_compare_supported(ExportFormat f);

/* Write data to path atomically (temp file, fsync, rename): an existing file
 * is intact on any failure.  Returns 0, or -1 with a message in err. */
int export_write_file(const char *path, const char *data, char *err, size_t errlen);

#endif
