/* model/cost.h — on-prem and cloud cost options (fills PlanResult.cost). */
#ifndef GPUPLAN_MODEL_COST_H
#define GPUPLAN_MODEL_COST_H

#include "catalog.h"
#include "plan.h"

void cost_stage(const Plan *p, const Catalog *c, PlanResult *r);

/* The fraction of the on-prem hardware price credited at the horizon: the
 * quoted site.prices.resale, else the straight-line book value left
 * (site.prices.depreciation_years, else the catalog's life). */
double cost_resale_fraction(const Plan *p, const Catalog *c);

/* GPUs the workload's smallest indivisible piece needs joined by the
 * scale-up (or node) fabric as it was sized on accelerator a: an inference
 * replica's TP, a training TP / TPxCP / EP group the layout keeps on
 * scale-up; 1 = none.  what (may be NULL): "tp2 replica of chat". */
int cost_scaleup_unit(const Workload *w, const WorkloadResult *wr, const Accelerator *a,
                      char *what, size_t len);

#endif
