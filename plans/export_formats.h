/* plans/export_formats.h — the per-format writers behind export_plan() and
 * export_compare() (plans/export.c dispatches).  Same ownership rule as
 * export.h: each returns a malloc'd string, NULL only on ENOMEM. */
#ifndef GPUPLAN_PLANS_EXPORT_FORMATS_H
#define GPUPLAN_PLANS_EXPORT_FORMATS_H

#include "catalog.h"
#include "plan.h"
#include "sensitivity.h"

/* sens, mc: the "What moves the answer" section (tornado rows, the flip
 * sentence, Monte Carlo P10/P50/P90); NULL = left out. */
char *export_md(const Plan *p, const PlanResult *r, const Catalog *c, int version,
                const SensResult *sens, const McResult *mc);
char *export_html(const Plan *p, const PlanResult *r, const Catalog *c, int version,
                  const SensResult *sens, const McResult *mc);
char *export_csv(const Plan *p, const PlanResult *r);
char *export_kueue(const Plan *p, const PlanResult *r, const Catalog *c);
char *export_volcano(const Plan *p, const PlanResult *r, const Catalog *c);
char *export_slurm(const Plan *p, const PlanResult *r, const Catalog *c);

char *export_compare_md(const Plan *a, const PlanResult *ra, const Plan *b, const PlanResult *rb);
char *export_compare_html(const Plan *a, const PlanResult *ra, const Plan *b,
                          const PlanResult *rb);
char *export_compare_csv(const Plan *a, const PlanResult *ra, const Plan *b, const PlanResult *rb);

#endif
