/* model/sensitivity.h — what moves the answer: a tornado of the headline
 * results over every assumption that has a range, the values at which the
 * build-vs-buy verdict flips (found by bisection on the real evaluation),
 * and Monte Carlo P10/P50/P90 ranges of days, GPUs, MW and TCO.
 *
 * The ranges are the plan's `ranges:` section, else the catalog's stated
 * uncertainty (data/catalog/uncertainty.yaml); an assumption with neither,
 * or that does not apply to the plan (no training workload for tokens, no
 * job classes for arrivals, no cloud rival for the discount), is left out.
 *
 * Every point is a full plan_evaluate_ex() of a perturbed copy of the plan
 * and catalog (sizing alternatives off: they feed no headline).  Pass a
 * stage cache in opt->cache (or none: one is made for the call) so price
 * assumptions reuse the training search and the scheduler.  Pure,
 * deterministic for a plan and seed, cancellable through opt->cancel. */
#ifndef GPUPLAN_MODEL_SENSITIVITY_H
#define GPUPLAN_MODEL_SENSITIVITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "evaluate.h"
#include "plan.h"

typedef enum { VERDICT_NONE = 0, VERDICT_ONPREM, VERDICT_CLOUD } Verdict;

/* "on-prem", "cloud", "none". */
const char *verdict_name(Verdict v);

/* The headline numbers one evaluation gives. */
typedef struct {
    double gpus;                     /* every installed GPU, other accelerators' islands too */
    double days;                     /* the longest training run, 0 = none */
    double mw;                       /* facility MW */
    double tco;                      /* the plan's own site option (else the cheapest) */
    double wait_p95_h;               /* the worst team's p95 wait, 0 = no tenancy */
    double utilization;              /* share of installed GPU-hours used (cost stage) */
    Verdict verdict;                 /* cheaper of the best on-prem / best cloud option
                                      * on the plan's accelerator */
    double onprem_tco, cloud_tco;    /* the two sides of the verdict, 0 = absent */
    char cloud[96];                  /* the best cloud option's name */
} SensOutcome;

/* Fill *o from an evaluated plan (c: for other accelerators' GPUs per node). */
void sens_outcome(const PlanResult *r, const Catalog *c, SensOutcome *o);

/* The label, the phrase used in the flip sentence, and the value of a knob
 * as text ("58 %", "$0.130/kWh", "1.18x the catalog"). */
const char *sens_knob_label(RangeKnob k);
void sens_format_value(RangeKnob k, double v, char *buf, size_t len);
/* The same in at most 9 columns for tables: "58%", "$0.130", "x1.18", "2.0 y". */
void sens_format_short(RangeKnob k, double v, char *buf, size_t len);

typedef struct {
    RangeKnob knob;
    double nominal, low, high;       /* in the knob's unit */
    bool from_plan;                  /* the plan's range, else the catalog's */
    SensOutcome at_low, at_high;
    double swing_tco;                /* |tco(high) - tco(low)| */
    /* Verdict flip inside the range: at flip_value (bisection between the
     * nominal and the end where the verdict differs; one crossing assumed). */
    bool flips;
    double flip_value;
    int flip_side;                   /* -1: flips below the nominal, +1 above */
    double closeness;                /* |flip - nominal| / |end - nominal|: small = fragile */
} SensBar;

#define SENS_SENTENCE_LEN 320

typedef struct {
    SensOutcome base;                /* the point estimate */
    SensBar bars[RANGE_COUNT];       /* by swing of TCO, largest first */
    int n_bars;
    int deciders[2];                 /* bars that flip the verdict, most fragile first */
    int n_deciders;
    char sentence[SENS_SENTENCE_LEN];/* "cloud wins if the 3-year discount > 58 % or …" */
    int evaluations;
    bool cancelled;
} SensResult;

/* Where bar flips the verdict, in words: "the 3-year discount > 66 %",
 * "utilisation < 34 %" (utilisation as the share itself); "" when it does
 * not flip. */
void sens_format_flip(const SensResult *s, const SensBar *bar, char *buf, size_t len);

/* Tornado and flips.  Returns 0, -1 when cancelled (out->cancelled), -2 on
 * ENOMEM.  *out is always filled as far as it got. */
int sens_run(const Plan *p, const Catalog *c, const EvalOptions *opt, SensResult *out);

#define MC_DEFAULT_SAMPLES 1000
#define MC_MAX_SAMPLES 100000
/* Assumptions that rerun the training search or the scheduler (MTBF,
 * tokens, arrivals) are drawn from this many equiprobable strata, at each
 * stratum's median, so the stage cache can reuse runs; the others are
 * drawn continuously. */
#define MC_STRATA 5

typedef struct {
    double p10, p50, p90;
} Percentiles;

typedef struct {
    int samples;
    uint64_t seed;
    Percentiles days, gpus, mw, tco;
    double share_other_verdict;      /* samples whose verdict differs from the point estimate */
    int n_knobs;                     /* assumptions varied */
    int evaluations;
    bool cancelled;
} McResult;

/* Monte Carlo over the ranges: each assumption from a triangular
 * distribution (low, nominal, high; a nominal outside the range widens it
 * to include it) — the three-point estimate of PERT / cost-risk practice
 * (AACE RP 41R-08) — independently, seeded by
 * plan.ranges.seed; percentiles interpolate linearly between order
 * statistics (Hyndman & Fan 1996, type 7).  samples <= 0: the plan's
 * ranges.samples (default MC_DEFAULT_SAMPLES).  Returns 0, -1 cancelled,
 * -2 ENOMEM. */
int mc_run(const Plan *p, const Catalog *c, const EvalOptions *opt, int samples, McResult *out);

/* The p-quantile (0..1) of sorted values x[0..n), type 7. */
double mc_quantile(const double *sorted, int n, double p);

/* Sorts x[0..n) ascending (the order mc_quantile takes). */
void mc_sort(double *x, size_t n);

/* A value of the triangular distribution (lo, mode, hi) at cumulative
 * probability u in [0,1] (inverse CDF). */
double mc_triangular(double lo, double mode, double hi, double u);

#endif
