/* plans/yaml_plan.h — the YAML plan file (PLAN-FORMAT.md) in and out,
 * through schema tables. */
#ifndef GPUPLAN_PLANS_YAML_PLAN_H
#define GPUPLAN_PLANS_YAML_PLAN_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"
#include "plan.h"

/* Parse a plan from memory.  `file` names it in diagnostics.  On success
 * returns 0 with every default applied and the plan validated (names,
 * ranges, divisibility, catalog ids when cat is not NULL).  On failure
 * returns -1, fills *d, and leaves *out in an unspecified but safe state. */
int plan_parse(const char *text, size_t len, const char *file, const Catalog *cat, Plan *out,
               Diag *d);
/* Read and parse a file.  Returns -1 with d set when the text is not a
 * valid plan, -2 when the file cannot be read (missing, unreadable, not a
 * regular file: a directory, a device or a FIFO, which is never waited on). */
int plan_load_file(const char *path, const Catalog *cat, Plan *out, Diag *d);

/* Check a plan held in memory (as edited in the TUI) against the same rules
 * the parser applies.  Returns 0, or -1 with d set (line/col 0). */
int plan_validate(const Plan *p, const Catalog *cat, Diag *d);

/* Canonical YAML: stable key order, every key written, unit comments.
 * Returns a malloc'd NUL-terminated string (caller frees), NULL on ENOMEM.
 * plan_parse(plan_to_yaml(p)) == p for every valid plan. */
char *plan_to_yaml(const Plan *p);

/* Write canonical YAML to path atomically (temp file + rename): the old file
 * is intact on any failure.  Returns 0 or -1 with d set. */
int plan_save_file(const Plan *p, const char *path, Diag *d);

/* Names of the enumerations, shared by the writer, the TUI and exports. */
const char *plan_kind_name(WorkloadKind k);
const char *plan_recompute_name(Recompute r);
const char *plan_site_kind_name(SiteKind k);
const char *plan_pricing_name(Pricing p);
const char *plan_cooling_name(Cooling c);
const char *plan_fabric_name(Fabric f);
const char *plan_topology_name(Topology t);
const char *plan_storage_name(StorageKind s);
const char *plan_policy_name(SchedPolicy p);
const char *plan_duration_name(DurationDist d);
const char *plan_priority_name(JobPriority p);

#endif
