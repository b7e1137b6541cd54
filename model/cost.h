/* model/cost.h — on-prem and cloud cost options (fills PlanResult.cost). */
#ifndef GPUPLAN_MODEL_COST_H
#define GPUPLAN_MODEL_COST_H

#include "catalog.h"
#include "plan.h"

void cost_stage(const Plan *p, const Catalog *c, PlanResult *r);

#endif
