/* model/layout.h — from GPUs to nodes, NVLink domains, racks, the scale-out
 * fabric and storage (fills PlanResult.cluster). */
#ifndef GPUPLAN_MODEL_LAYOUT_H
#define GPUPLAN_MODEL_LAYOUT_H

#include "catalog.h"
#include "plan.h"

/* Reads the sized workloads and schedule.recommended_gpus / tenancy.gpus;
 * writes r->cluster and sets r->have_layout. */
void layout_stage(const Plan *p, const Catalog *c, PlanResult *r);

#endif
