/* model/headline.h — the headline numbers of a plan, one flat list that the
 * CSV export, `gpuplan compare`, the TUI's compare view and the summary all
 * share, so they never disagree about what a number is called or which way
 * is better. */
#ifndef GPUPLAN_MODEL_HEADLINE_H
#define GPUPLAN_MODEL_HEADLINE_H

#include <stdbool.h>

#include "plan.h"

typedef enum { BETTER_LOWER = 0, BETTER_HIGHER, BETTER_NEITHER } Better;

typedef struct {
    char section[24];        /* "workload", "cluster", "power", "cost", "schedule" */
    char subject[PLAN_NAME_LEN]; /* workload or team name, "" for plan-wide */
    char metric[40];         /* "gpus", "train_days", "tco_usd" … (snake case) */
    char label[48];          /* "Days to train" */
    double value;
    char unit[16];           /* "GPUs", "days", "USD", "kW", "h", "" */
    Better better;
    bool fraction;           /* a dimensionless share 0–1 (MFU, goodput, utilisation),
                              * shown as a percentage; "" without it is a count */
} Headline;

#define HEADLINE_MAX 512

/* Fill out[0..max) and return how many.  Only stages that ran contribute. */
int headline_collect(const Plan *p, const PlanResult *r, Headline *out, int max);

/* One row of a comparison: the same (section, subject, metric) in A and B. */
typedef struct {
    Headline h;              /* names, unit, direction; h.value is A's value */
    bool in_a, in_b;
    double a, b;
    double delta;            /* b - a */
    double pct;              /* delta / |a| * 100; 0 when a == 0 */
    int verdict;             /* +1 B is better, -1 B is worse, 0 same or neutral */
} HeadlineDelta;

/* Pair A's and B's headlines by (section, subject, metric), A's order first,
 * then rows only in B.  Returns the number of rows written (≤ max). */
int headline_compare(const Headline *a, int na, const Headline *b, int nb, HeadlineDelta *out,
                     int max);

/* Both steps for two evaluated plans: a malloc'd array of *n rows (caller
 * frees), NULL on ENOMEM. */
HeadlineDelta *headline_compare_plans(const Plan *a, const PlanResult *ra, const Plan *b,
                                      const PlanResult *rb, int *n);

#endif
