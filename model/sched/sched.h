/* model/sched/sched.h — the multi-tenant scheduling simulator and capacity
 * search (SCHEDULER.md; fills PlanResult.schedule). */
#ifndef GPUPLAN_MODEL_SCHED_H
#define GPUPLAN_MODEL_SCHED_H

#include "../catalog.h"
#include "../evaluate.h"
#include "../plan.h"

/* Simulate the plan's tenancy (generated job mix or the borrowed trace) on
 * tenancy.gpus GPUs, or — when that is auto and opt->capacity_search — find
 * the smallest pool whose p95 wait meets the target for every team and
 * report its run.  Polls opt->cancel.  Writes r->schedule, sets
 * r->have_schedule. */
void sched_stage(const Plan *p, const Catalog *c, const EvalOptions *opt, PlanResult *r);

#endif
