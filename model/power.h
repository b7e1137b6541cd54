/* model/power.h — the power budget (fills PlanResult.power). */
#ifndef GPUPLAN_MODEL_POWER_H
#define GPUPLAN_MODEL_POWER_H

#include "catalog.h"
#include "plan.h"

void power_stage(const Plan *p, const Catalog *c, PlanResult *r);

#endif
