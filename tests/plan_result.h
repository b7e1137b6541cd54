/* tests/plan_result.h — what the suites ask of a PlanResult's notes. */
#ifndef GPUPLAN_TESTS_PLAN_RESULT_H
#define GPUPLAN_TESTS_PLAN_RESULT_H
#include <stdbool.h>
#include <string.h>

#include "plan.h"

/* Whether one of the plan's assumptions mentions `needle`. */
static inline bool has_assumption(const PlanResult *r, const char *needle)
{
    for (int i = 0; i < r->n_assumptions; i++)
        if (strstr(r->assumptions[i].text, needle))
            return true;
    return false;
}

/* Whether one of the plan's warnings mentions `needle`. */
static inline bool has_warning(const PlanResult *r, const char *needle)
{
    for (int i = 0; i < r->n_warnings; i++)
        if (strstr(r->warnings[i], needle))
            return true;
    return false;
}
#endif
