/* plans/export_summary.h — the sentences of the leadership summary, shared
 * by the Markdown and HTML exports so both say exactly the same thing.
 * Each writes plain text (the caller escapes it for its format). */
#ifndef GPUPLAN_PLANS_EXPORT_SUMMARY_H
#define GPUPLAN_PLANS_EXPORT_SUMMARY_H

#include <stddef.h>

#include "headline.h"
#include "plan.h"
#include "sensitivity.h"

/* What is being asked for: GPUs, racks, power, money. */
void summary_ask(const Plan *p, const PlanResult *r, char *buf, size_t len);
/* Build or buy, and why (cheapest option, break-even, unmet targets). */
void summary_recommendation(const Plan *p, const PlanResult *r, char *buf, size_t len);
/* The dates of the prices behind the cost table, "A" or "A to B": those the
 * verdict uses, else (no verdict: the plan's accelerator unpriced) every
 * option's; "" when none is dated. */
const char *summary_price_dates(const CostResult *cr, char *buf, size_t len);
/* The Monte Carlo's line: samples, assumptions varied (the horizon held at
 * the plan's), seed, and the share of samples with another verdict. */
void summary_mc_sentence(const Plan *p, const McResult *m, char *buf, size_t len);
/* What the schedule's pool is when the plan leaves it to the search: the
 * pool the teams' quotas need (which meets the wait target), the smallest
 * pool meeting it, or, where none does, the one past which more GPUs stop
 * helping; NULL for a pool the plan fixes. */
const char *summary_pool_basis(const ScheduleResult *s);
/* "training 16,384, inference 28, shared pool 704, headroom 1,712": what
 * the cluster's GPUs are for, in the summaries' number format. */
const char *summary_gpu_split(const ClusterResult *k, char *buf, size_t len);
/* The build-or-buy verdict alone, from CostResult's verdict fields and
 * only the numbers it cites; returns its length. */
int summary_verdict(const Plan *p, const PlanResult *r, char *buf, size_t len);
/* The cost columns: one basis each, named the same in every view and
 * export (header, and the sentence that defines it). */
typedef enum { COL_TCO = 0, COL_LIST, COL_EFF, COL_RUN, COL_MTOK, COL_BE, COL_COUNT } CostColumnId;
typedef struct {
    const char *header;
    const char *basis;
} CostColumn;
extern const CostColumn summary_cost_columns[COL_COUNT];
/* An option's $ per million output tokens with the inference model's error
 * band when it has one: "$2.13 ($1.42-$5.10)". */
const char *summary_usd_band(const CostOption *o, char *buf, size_t len);
/* Power in one sentence. */
void summary_power(const Plan *p, const PlanResult *r, char *buf, size_t len);
/* Break-even utilisation: "—" when not applicable, "never" when on-prem
 * cannot beat the option even at full use (> 100 %), else "NN %". */
const char *summary_breakeven(double u, char *buf, size_t len);
/* Walk the assumptions grouped by scope, scopes in the order the model
 * first stated them: begin(ctx, scope) once per scope ("plan" for an empty
 * one), item(ctx, text) for each of its assumptions, end(ctx). */
void summary_assumption_groups(const PlanResult *r, void *ctx,
                               void (*begin)(void *ctx, const char *scope),
                               void (*item)(void *ctx, const char *text),
                               void (*end)(void *ctx));
/* A duration in years for prose: "1 year", "3 years", "2.5 years". */
const char *summary_years(double y, char *buf, size_t len);
/* A headline value (v: h's value in A or B) formatted by its unit: "USD" →
 * money, a fraction → %, a count as a number. */
const char *summary_value(const Headline *h, double v, char *buf, size_t len);

/* "What moves the answer", the same cells in every export (plain text; the
 * caller escapes them).  A Monte Carlo row: GPUs, days to train (only when
 * a training run is sized), facility MW, TCO, each P10 / P50 / P90 and the
 * point estimate ("" without a sensitivity result). */
typedef struct {
    const char *label;
    char p10[48], p50[48], p90[48], point[48];
} SummaryMcRow;
/* Fills rows[0..3]; returns how many there are. */
int summary_mc_rows(const SensResult *s, const McResult *m, SummaryMcRow rows[4]);
/* A tornado row: the assumption at the ends of its range. */
typedef struct {
    const char *label;
    char range[104], nominal[48];
    const char *from;                /* "plan" or "catalog" */
    char tco_low[48], tco_high[48];
    const char *verdict_low, *verdict_high;
    char flip[96];                   /* where the verdict flips, "—" when it does not */
} SummaryTornadoRow;
void summary_tornado_row(const SensResult *s, int i, SummaryTornadoRow *row);

#endif
