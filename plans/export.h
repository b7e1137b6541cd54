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
/* The same with a "What moves the answer" section from the sensitivity and
 * Monte Carlo results (md, html: a section; json: the keys `sensitivity`
 * and `monte_carlo`; the other formats ignore them).  Either may be NULL. */
char *export_plan_ranges(ExportFormat f, const Plan *p, const PlanResult *r, const Catalog *c,
                         int version, const SensResult *sens, const McResult *mc);
/* Formats export_plan_ranges() adds the section to. */
bool export_ranges_supported(ExportFormat f);
/* Two plans as one JSON object {a, b, deltas[]} (`compare --json`). */
char *export_compare_json(const Plan *a, const PlanResult *ra, const Plan *b,
                          const PlanResult *rb);
/* Two plans side by side (md, html, csv, json). */
char *export_compare(ExportFormat f, const Plan *a, const PlanResult *ra, const Plan *b,
                     const PlanResult *rb);

/* A multi-file export (the Slurm bundle): name inside the directory, text
 * (malloc'd), permissions of a new file. */
typedef struct {
    const char *name;
    char *text;
    int mode;
} ExportFile;

/* The Slurm bundle: slurm.conf, gres.conf, topology.conf, accounts.sh in
 * files[0..3].  Returns 4, or -1 on ENOMEM (nothing to free). */
int export_slurm_files(const Plan *p, const PlanResult *r, const Catalog *c, ExportFile *files);
/* The files as one text, each after a "# ==> NAME <==" line; NULL on ENOMEM. */
char *export_files_join(const ExportFile *files, int n);
void export_files_free(ExportFile *files, int n);
/* Write the files into dir (created 0755 if missing), each atomically
 * (safeio_write_file).  Returns 0, or -1 with a message in err (the files
 * written before the failure stay, each whole). */
int export_write_dir(const char *dir, const ExportFile *files, int n, char *err, size_t errlen);

/* The Kueue objects for one API version: "v1beta2" (Kueue >= 0.15, what
 * export_plan writes) or "v1beta1" (older clusters).  NULL on ENOMEM or an
 * unknown version. */
char *export_kueue_api(const Plan *p, const PlanResult *r, const Catalog *c, const char *api);
bool export_kueue_api_supported(const char *api);

/* Formats export_compare() can write. */
bool export_compare_supported(ExportFormat f);

/* Write data to path atomically (temp file, fsync, rename): an existing file
 * is intact on any failure.  Returns 0, or -1 with a message in err. */
int export_write_file(const char *path, const char *data, char *err, size_t errlen);

#endif
