/* tests/test_sensitivity.c — the stage cache (reuse and invalidation), the
 * tornado and its verdict flips, Monte Carlo ranges, the catalog's stated
 * uncertainty and the plan's `ranges:` section. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_yaml.h"
#include "check_main.h"
#include "evaluate.h"
#include "headline.h"
#include "sensitivity.h"
#include "yaml_plan.h"

static Catalog cat;
static Plan plan;
static PlanResult want, got;

static const char *datadir(void)
{
    const char *dd = getenv("GPUPLAN_DATADIR");
    return dd ? dd : GPUPLAN_SRCDIR "/data";
}

static void setup(void)
{
    char dir[1024], file[1100];
    snprintf(dir, sizeof dir, "%s/catalog", datadir());
    Diag d;
    memset(&d, 0, sizeof d);
    memset(&cat, 0, sizeof cat);
    ck_assert_msg(catalog_load(&cat, dir, NULL, &d) == 0, "catalog: %s", d.msg);
    snprintf(file, sizeof file, "%s/examples/frontier-2027.yaml", datadir());
    ck_assert_msg(plan_load_file(file, &cat, &plan, &d) == 0, "plan: %s", d.msg);
}

static void teardown(void)
{
    catalog_free(&cat);
}

/* Two results are the same when every headline number, warning,
 * assumption and cost option is (struct padding may differ between runs,
 * so bytes are not compared). */
static void assert_same_result(const Plan *p, const PlanResult *a, const PlanResult *b)
{
    static Headline ha[HEADLINE_MAX], hb[HEADLINE_MAX];
    int na = headline_collect(p, a, ha, HEADLINE_MAX);
    int nb = headline_collect(p, b, hb, HEADLINE_MAX);
    ck_assert_int_eq(na, nb);
    ck_assert_int_gt(na, 10);
    for (int i = 0; i < na; i++) {
        ck_assert_str_eq(ha[i].metric, hb[i].metric);
        ck_assert_str_eq(ha[i].subject, hb[i].subject);
        ck_assert_msg(ha[i].value == hb[i].value || (isnan(ha[i].value) && isnan(hb[i].value)),
                      "%s %s: %g vs %g", ha[i].subject, ha[i].metric, ha[i].value, hb[i].value);
    }
    ck_assert_int_eq(a->n_warnings, b->n_warnings);
    for (int i = 0; i < a->n_warnings; i++)
        ck_assert_str_eq(a->warnings[i], b->warnings[i]);
    ck_assert_int_eq(a->n_assumptions, b->n_assumptions);
    for (int i = 0; i < a->n_assumptions; i++) {
        ck_assert_str_eq(a->assumptions[i].scope, b->assumptions[i].scope);
        ck_assert_str_eq(a->assumptions[i].text, b->assumptions[i].text);
    }
    ck_assert_int_eq(a->cost.n_options, b->cost.n_options);
    for (int i = 0; i < a->cost.n_options; i++) {
        ck_assert_str_eq(a->cost.options[i].name, b->cost.options[i].name);
        ck_assert(a->cost.options[i].tco_usd == b->cost.options[i].tco_usd);
        ck_assert(a->cost.options[i].usd_per_gpu_hour == b->cost.options[i].usd_per_gpu_hour);
    }
    ck_assert_int_eq(a->n_workloads, b->n_workloads);
    for (int i = 0; i < a->n_workloads; i++) {
        const WorkloadResult *x = &a->workloads[i], *y = &b->workloads[i];
        ck_assert(x->train.step_s == y->train.step_s && x->train.gpus == y->train.gpus);
        ck_assert(x->infer.gpus == y->infer.gpus && x->infer.tpot_s == y->infer.tpot_s);
        ck_assert_int_eq(x->n_alts, y->n_alts);
        for (int j = 0; j < x->n_alts; j++)
            ck_assert(x->alts[j].usd == y->alts[j].usd && x->alts[j].gpus == y->alts[j].gpus);
    }
    ck_assert(memcmp(a->schedule.util_series, b->schedule.util_series,
                     sizeof a->schedule.util_series) == 0);
    ck_assert(a->schedule.events == b->schedule.events);
    ck_assert_int_eq(a->schedule.recommended_gpus, b->schedule.recommended_gpus);
}

/* Evaluate p with the cache and without; the results must be the same. */
static void assert_cached_equals_uncached(const Plan *p, const Catalog *c, EvalCache *k)
{
    EvalOptions o = eval_options_default();
    ck_assert_int_eq(plan_evaluate_ex(p, c, &o, &want), 0);
    o.cache = k;
    ck_assert_int_eq(plan_evaluate_ex(p, c, &o, &got), 0);
    assert_same_result(p, &want, &got);
}

/* ------------------------------------------------------------ stage cache */

START_TEST(price_change_reuses_sizing_and_scheduler)
{
    EvalCache *k = eval_cache_new();
    ck_assert_ptr_nonnull(k);
    assert_cached_equals_uncached(&plan, &cat, k);
    EvalCacheStats s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_runs, 1);
    ck_assert_uint_eq(s.sched_runs, 1);
    ck_assert_uint_eq(s.sizing_hits, 0);

    Plan q = plan;
    q.site.power_price_kwh = 0.13;
    q.site.pue = 1.45;
    q.horizon_years = 5;
    q.site.pricing = PRICING_RESERVED_3Y;
    snprintf(q.name, sizeof q.name, "renamed");
    assert_cached_equals_uncached(&q, &cat, k);
    s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_runs, 1);
    ck_assert_uint_eq(s.sched_runs, 1);
    ck_assert_uint_eq(s.sizing_hits, 1);
    ck_assert_uint_eq(s.sched_hits, 1);
    /* and the price did move the cost */
    ck_assert(got.power.energy_usd_per_year > 0);
    eval_cache_free(k);
}
END_TEST

START_TEST(catalog_price_change_reuses_stages)
{
    EvalCache *k = eval_cache_new();
    assert_cached_equals_uncached(&plan, &cat, k);
    Catalog c2 = cat;
    Accelerator *acc = malloc(cat.n_accelerators * sizeof *acc);
    Instance *inst = malloc(cat.n_instances * sizeof *inst);
    memcpy(acc, cat.accelerators, cat.n_accelerators * sizeof *acc);
    memcpy(inst, cat.instances, cat.n_instances * sizeof *inst);
    for (size_t i = 0; i < cat.n_accelerators; i++)
        acc[i].node_price_usd *= 1.2;
    for (size_t i = 0; i < cat.n_instances; i++)
        inst[i].on_demand_usd_h *= 0.9;
    c2.accelerators = acc;
    c2.instances = inst;
    assert_cached_equals_uncached(&plan, &c2, k);
    EvalCacheStats s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_runs, 1);
    ck_assert_uint_eq(s.sched_runs, 1);
    /* a figure the training search reads invalidates it (and the scheduler,
     * which reads the accelerators too) */
    for (size_t i = 0; i < cat.n_accelerators; i++)
        acc[i].peak_flops[PREC_BF16] *= 1.1;
    assert_cached_equals_uncached(&plan, &c2, k);
    s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_runs, 2);
    ck_assert_uint_eq(s.sched_runs, 2);
    free(acc);
    free(inst);
    eval_cache_free(k);
}
END_TEST

START_TEST(tokens_change_reruns_sizing_only)
{
    EvalCache *k = eval_cache_new();
    assert_cached_equals_uncached(&plan, &cat, k);
    Plan q = plan;
    q.workloads[0].tokens *= 1.3;
    assert_cached_equals_uncached(&q, &cat, k);
    EvalCacheStats s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_runs, 2);
    ck_assert_uint_eq(s.sched_runs, 1);
    ck_assert_uint_eq(s.sched_hits, 1);
    ck_assert(got.workloads[0].train.train_days != 0);
    eval_cache_free(k);
}
END_TEST

START_TEST(arrival_change_reruns_scheduler_only)
{
    EvalCache *k = eval_cache_new();
    assert_cached_equals_uncached(&plan, &cat, k);
    Plan q = plan;
    q.tenancy.teams[0].jobs[0].per_day *= 1.5;
    assert_cached_equals_uncached(&q, &cat, k);
    EvalCacheStats s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_runs, 1);
    ck_assert_uint_eq(s.sizing_hits, 1);
    ck_assert_uint_eq(s.sched_runs, 2);
    /* MTBF is read by both */
    q.tenancy.mtbf_gpu_h = 20000;
    assert_cached_equals_uncached(&q, &cat, k);
    s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_runs, 2);
    ck_assert_uint_eq(s.sched_runs, 3);
    /* back to an earlier plan: both remembered */
    assert_cached_equals_uncached(&plan, &cat, k);
    s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_runs, 2);
    ck_assert_uint_eq(s.sched_runs, 3);
    eval_cache_free(k);
}
END_TEST

START_TEST(cache_keys_on_options_and_clears)
{
    EvalCache *k = eval_cache_new();
    EvalOptions o = eval_options_default();
    o.cache = k;
    ck_assert_int_eq(plan_evaluate_ex(&plan, &cat, &o, &got), 0);
    o.alternatives = false;
    ck_assert_int_eq(plan_evaluate_ex(&plan, &cat, &o, &got), 0);
    ck_assert_int_eq(got.workloads[0].n_alts, 0);
    EvalCacheStats s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_runs, 2);
    eval_cache_clear(k);
    ck_assert_int_eq(plan_evaluate_ex(&plan, &cat, &o, &got), 0);
    s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_runs, 3);
    eval_cache_free(k);
}
END_TEST

START_TEST(cancelled_run_is_not_remembered)
{
    EvalCache *k = eval_cache_new();
    atomic_int stop = 1;
    EvalOptions o = eval_options_default();
    o.cache = k;
    o.cancel = &stop;
    ck_assert_int_eq(plan_evaluate_ex(&plan, &cat, &o, &got), -1);
    o.cancel = NULL;
    ck_assert_int_eq(plan_evaluate_ex(&plan, &cat, &o, &got), 0);
    EvalCacheStats s = eval_cache_stats(k);
    ck_assert_uint_eq(s.sizing_hits, 0);
    EvalOptions u = eval_options_default();
    ck_assert_int_eq(plan_evaluate_ex(&plan, &cat, &u, &want), 0);
    assert_same_result(&plan, &want, &got);
    eval_cache_free(k);
}
END_TEST

/* -------------------------------------------------------- distributions */

START_TEST(triangular_inverse_cdf_exact)
{
    /* (0, 1, 2): F(1) = 0.5; F^-1(0.125) = sqrt(0.125*2*1) = 0.5 */
    ck_assert_double_eq_tol(mc_triangular(0, 1, 2, 0.5), 1.0, 1e-12);
    ck_assert_double_eq_tol(mc_triangular(0, 1, 2, 0.125), 0.5, 1e-12);
    ck_assert_double_eq_tol(mc_triangular(0, 1, 2, 0.875), 1.5, 1e-12);
    ck_assert_double_eq_tol(mc_triangular(0, 1, 2, 0), 0.0, 1e-12);
    ck_assert_double_eq_tol(mc_triangular(0, 1, 2, 1), 2.0, 1e-12);
    /* a mode outside the range is clamped to it */
    ck_assert_double_eq_tol(mc_triangular(1, 5, 3, 1), 3.0, 1e-12);
    ck_assert_double_eq_tol(mc_triangular(2, 2, 2, 0.3), 2.0, 1e-12);
}
END_TEST

START_TEST(quantile_interpolates_type7)
{
    double x[] = {1, 2, 3, 4, 5};
    ck_assert_double_eq_tol(mc_quantile(x, 5, 0.5), 3, 1e-12);
    ck_assert_double_eq_tol(mc_quantile(x, 5, 0.1), 1.4, 1e-12);
    ck_assert_double_eq_tol(mc_quantile(x, 5, 0.9), 4.6, 1e-12);
    ck_assert_double_eq_tol(mc_quantile(x, 1, 0.9), 1, 1e-12);
}
END_TEST

/* -------------------------------------------------------------- tornado */

START_TEST(tornado_flip_value_separates_the_verdicts)
{
    SensResult *s = malloc(sizeof *s);
    ck_assert_int_eq(sens_run(&plan, &cat, NULL, s), 0);
    ck_assert_int_eq(s->base.verdict, VERDICT_ONPREM);
    ck_assert_int_ge(s->n_bars, 7);
    for (int i = 1; i < s->n_bars; i++)
        ck_assert(s->bars[i - 1].swing_tco >= s->bars[i].swing_tco);
    ck_assert_int_ge(s->n_deciders, 1);
    ck_assert_msg(strncmp(s->sentence, "cloud wins if ", 14) == 0, "%s", s->sentence);
    /* each flip value, checked on the real evaluation: a step towards the
     * nominal keeps on-prem, the flip value itself gives cloud */
    for (int i = 0; i < s->n_bars; i++) {
        const SensBar *b = &s->bars[i];
        if (!b->flips)
            continue;
        ck_assert(b->flip_side == -1 || b->flip_side == 1);
        double end = b->flip_side < 0 ? b->low : b->high;
        double step = fabs(end - b->nominal) / 1000;
        Plan q = plan;
        Catalog c2 = cat;
        Instance *inst = malloc(cat.n_instances * sizeof *inst);
        memcpy(inst, cat.instances, cat.n_instances * sizeof *inst);
        c2.instances = inst;
        double at[2] = {b->flip_value, b->flip_value - b->flip_side * step};
        Verdict v[2];
        for (int j = 0; j < 2; j++) {
            q = plan;
            memcpy(inst, cat.instances, cat.n_instances * sizeof *inst);
            switch (b->knob) {
            case RANGE_POWER_PRICE: q.site.power_price_kwh = at[j]; break;
            case RANGE_PUE: q.site.pue = at[j]; break;
            case RANGE_HORIZON: q.horizon_years = at[j]; break;
            case RANGE_RESERVED_DISCOUNT:
                for (size_t n = 0; n < cat.n_instances; n++)
                    if (inst[n].reserved_3y_discount > 0)
                        inst[n].reserved_3y_discount += at[j] - b->nominal;
                break;
            default: continue;
            }
            ck_assert_int_eq(plan_evaluate(&q, &c2, &got), 0);
            SensOutcome o;
            sens_outcome(&got, &cat, &o);
            v[j] = o.verdict;
        }
        if (b->knob == RANGE_POWER_PRICE || b->knob == RANGE_PUE || b->knob == RANGE_HORIZON ||
            b->knob == RANGE_RESERVED_DISCOUNT) {
            ck_assert_msg(v[0] == VERDICT_CLOUD && v[1] == VERDICT_ONPREM,
                          "%s flip at %g: %d / %d", sens_knob_label(b->knob), b->flip_value,
                          v[0], v[1]);
        }
        free(inst);
    }
    free(s);
}
END_TEST

START_TEST(plan_range_overrides_the_catalog)
{
    SensResult *s = malloc(sizeof *s);
    Plan q = plan;
    q.ranges.knobs[RANGE_PUE] = (RangeSpec){.low = 1.15, .high = 1.25};
    ck_assert_int_eq(sens_run(&q, &cat, NULL, s), 0);
    int found = 0;
    for (int i = 0; i < s->n_bars; i++)
        if (s->bars[i].knob == RANGE_PUE) {
            found = 1;
            ck_assert(s->bars[i].from_plan);
            ck_assert_double_eq(s->bars[i].low, 1.15);
            ck_assert_double_eq(s->bars[i].high, 1.25);
            ck_assert(s->bars[i].at_low.mw < s->base.mw && s->base.mw < s->bars[i].at_high.mw);
        }
    ck_assert(found);
    free(s);
}
END_TEST

START_TEST(no_cloud_rival_gives_no_discount_bar)
{
    SensResult *s = malloc(sizeof *s);
    Catalog c2 = cat;
    c2.n_instances = 0;
    ck_assert_int_eq(sens_run(&plan, &c2, NULL, s), 0);
    ck_assert_int_eq(s->base.verdict, VERDICT_NONE);
    for (int i = 0; i < s->n_bars; i++)
        ck_assert_int_ne(s->bars[i].knob, RANGE_RESERVED_DISCOUNT);
    ck_assert_msg(strncmp(s->sentence, "no verdict", 10) == 0, "%s", s->sentence);
    free(s);
}
END_TEST

static const SensBar *find_bar(const SensResult *s, RangeKnob k)
{
    for (int i = 0; i < s->n_bars; i++)
        if (s->bars[i].knob == k)
            return &s->bars[i];
    return NULL;
}

/* Utilisation moves what pay-per-use cloud bills, never the on-prem cash;
 * the verdict flips where the cheapest on-demand option's break-even
 * utilisation (on-prem TCO / (rate x on-prem GPUs x horizon hours), cost.c)
 * lies, recomputed here from the plain evaluation. */
START_TEST(utilisation_flips_at_the_break_even_by_hand)
{
    SensResult *s = malloc(sizeof *s);
    Plan q = plan;
    q.ranges.knobs[RANGE_UTILIZATION] = (RangeSpec){.low = 0.2, .high = 1.0};
    ck_assert_int_eq(sens_run(&q, &cat, NULL, s), 0);
    const SensBar *b = find_bar(s, RANGE_UTILIZATION);
    ck_assert_ptr_nonnull(b);
    ck_assert(b->from_plan);
    ck_assert_double_eq(b->nominal, 1);
    /* lower utilisation: cheaper cloud, the same on-prem cash */
    ck_assert(b->at_low.cloud_tco < s->base.cloud_tco);
    ck_assert_double_eq_tol(b->at_high.cloud_tco, s->base.cloud_tco, 1e-6 * s->base.cloud_tco);
    ck_assert_double_eq(b->at_low.onprem_tco, s->base.onprem_tco);
    ck_assert_double_eq(b->at_high.onprem_tco, s->base.onprem_tco);
    ck_assert_double_eq_tol(b->at_low.utilization, 0.2 * s->base.utilization, 1e-12);
    /* by hand */
    ck_assert_int_eq(plan_evaluate(&plan, &cat, &got), 0);
    double u0 = got.cost.utilization, best = 0, hours = plan.horizon_years * 8760.0;
    const CostOption *on = NULL;
    for (int i = 0; i < got.cost.n_options; i++) {
        const CostOption *o = &got.cost.options[i];
        if (o->kind == COST_ONPREM && (!on || o->tco_usd < on->tco_usd))
            on = o;
    }
    ck_assert_ptr_nonnull(on);
    for (int i = 0; i < got.cost.n_options; i++) {
        const CostOption *o = &got.cost.options[i];
        if (o->kind != COST_CLOUD || !o->pay_as_you_go || o->sized)
            continue;
        double rate = o->tco_usd / o->gpu_hours_billed; /* list $/GPU-h */
        double be = on->tco_usd / (rate * on->gpus * hours);
        best = be > best ? be : best;
    }
    ck_assert(best > 0.2 * u0 && best < u0);
    ck_assert(b->flips);
    ck_assert_int_eq(b->flip_side, -1);
    ck_assert_msg(fabs(b->flip_value * u0 - best) < 1e-4, "flip %g x %g vs break-even %g",
                  b->flip_value, u0, best);
    /* said as the share itself */
    char want_s[64];
    snprintf(want_s, sizeof want_s, "utilisation < %.0f %%", best * 100);
    ck_assert_msg(strstr(s->sentence, want_s) != NULL, "%s (want %s)", s->sentence, want_s);
    free(s);
}
END_TEST

/* Resale credits fraction x hardware: the swing is (high - low) x the
 * hardware price, read back from the point estimate's residual. */
START_TEST(resale_moves_the_onprem_tco_by_the_hardware_price)
{
    SensResult *s = malloc(sizeof *s);
    ck_assert_int_eq(sens_run(&plan, &cat, NULL, s), 0);
    const SensBar *b = find_bar(s, RANGE_RESALE);
    ck_assert_ptr_nonnull(b);
    ck_assert(!b->from_plan);
    /* no quote: the book value, 1 - 3 / 5 years */
    ck_assert_double_eq_tol(b->nominal, 1 - 3.0 / 5.0, 1e-12);
    ck_assert_double_eq(b->low, cat.ranges[RANGE_RESALE].low);
    ck_assert_double_eq(b->high, cat.ranges[RANGE_RESALE].high);
    ck_assert(b->at_low.onprem_tco > s->base.onprem_tco);
    ck_assert(s->base.onprem_tco > b->at_high.onprem_tco);
    ck_assert_int_eq(plan_evaluate(&plan, &cat, &got), 0);
    double hw = got.cost.options[got.cost.onprem].residual_usd / b->nominal;
    ck_assert_double_eq_tol(b->at_low.onprem_tco - b->at_high.onprem_tco,
                            (b->high - b->low) * hw, 1e-6 * hw);
    /* the cloud side does not move */
    ck_assert_double_eq(b->at_low.cloud_tco, s->base.cloud_tco);
    /* a quoted resale is the nominal */
    Plan q = plan;
    q.site.prices.resale = (Quote){.value = 0.25, .source = "broker quote", .date = "2026-11-01"};
    ck_assert_int_eq(sens_run(&q, &cat, NULL, s), 0);
    b = find_bar(s, RANGE_RESALE);
    ck_assert_ptr_nonnull(b);
    ck_assert_double_eq(b->nominal, 0.25);
    free(s);
}
END_TEST

/* The model band at its ends reproduces the band the evaluation reports:
 * the 405B run's step at +1 takes train_days_high (the step scales, the
 * layout and the count the batch allows stay), at -1 train_days_low; the
 * service is sized again, so the GPUs follow. */
START_TEST(model_band_ends_are_the_reported_band)
{
    SensResult *s = malloc(sizeof *s);
    ck_assert_int_eq(sens_run(&plan, &cat, NULL, s), 0);
    const SensBar *b = find_bar(s, RANGE_MODEL_BAND);
    ck_assert_ptr_nonnull(b);
    ck_assert_double_eq(b->nominal, 0);
    ck_assert_double_eq(b->low, -1);
    ck_assert_double_eq(b->high, 1);
    ck_assert_int_eq(plan_evaluate(&plan, &cat, &got), 0);
    double lo = 0, hi = 0;
    int inf_hi = 0, inf_lo = 0, inf = 0;
    for (int i = 0; i < got.n_workloads; i++) {
        const WorkloadResult *w = &got.workloads[i];
        if (w->kind == WL_TRAINING) {
            lo = fmax(lo, w->train.train_days_low);
            hi = fmax(hi, w->train.train_days_high);
        } else {
            inf += w->infer.gpus;
            inf_lo += w->infer.gpus_low;
            inf_hi += w->infer.gpus_high;
        }
    }
    ck_assert(lo < s->base.days && s->base.days < hi);
    ck_assert_double_eq_tol(b->at_low.days, lo, 1e-9 * lo);
    ck_assert_double_eq_tol(b->at_high.days, hi, 1e-9 * hi);
    ck_assert(inf_lo < inf && inf < inf_hi);
    ck_assert(b->at_low.gpus < s->base.gpus && s->base.gpus < b->at_high.gpus);
    ck_assert(b->at_low.tco < s->base.tco && s->base.tco < b->at_high.tco);
    /* half-way: between the point and the end */
    Plan q = plan;
    q.perturb.band = 0.5;
    ck_assert_int_eq(plan_evaluate(&q, &cat, &want), 0);
    SensOutcome o;
    sens_outcome(&want, &cat, &o);
    ck_assert(s->base.days < o.days && o.days < hi);
    free(s);
}
END_TEST

/* ----------------------------------------------------------- Monte Carlo */

START_TEST(monte_carlo_is_seeded_and_reproducible)
{
    McResult a, b, c;
    ck_assert_int_eq(mc_run(&plan, &cat, NULL, 200, &a), 0);
    ck_assert_int_eq(mc_run(&plan, &cat, NULL, 200, &b), 0);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    ck_assert_int_eq(a.samples, 200);
    ck_assert_int_ge(a.n_knobs, 7);
    ck_assert(a.tco.p10 < a.tco.p50 && a.tco.p50 < a.tco.p90);
    ck_assert(a.days.p10 < a.days.p90);
    ck_assert(a.gpus.p10 <= a.gpus.p50 && a.gpus.p50 <= a.gpus.p90);
    ck_assert(a.mw.p10 < a.mw.p90);
    Plan q = plan;
    q.ranges.seed = 7;
    ck_assert_int_eq(mc_run(&q, &cat, NULL, 200, &c), 0);
    ck_assert(c.tco.p50 != a.tco.p50);
}
END_TEST

/* A Monte Carlo of q that varies nothing: every percentile is the point. */
static void assert_monte_carlo_is_the_point(const Plan *q, const Catalog *c2)
{
    McResult m;
    ck_assert_int_eq(mc_run(q, c2, NULL, 50, &m), 0);
    ck_assert_int_eq(m.n_knobs, 0);
    ck_assert_int_eq(plan_evaluate(q, c2, &want), 0);
    SensOutcome o;
    sens_outcome(&want, c2, &o);
    ck_assert_double_eq(m.tco.p10, o.tco);
    ck_assert_double_eq(m.tco.p90, o.tco);
    ck_assert_double_eq(m.gpus.p50, o.gpus);
    ck_assert_double_eq(m.share_other_verdict, 0);
}

START_TEST(monte_carlo_without_ranges_is_the_point_estimate)
{
    Catalog c2 = cat;
    memset(c2.ranges, 0, sizeof c2.ranges);
    assert_monte_carlo_is_the_point(&plan, &c2);
}
END_TEST

/* A plan value outside the stated range widens the range rather than being
 * clamped to its end: frontier's $0.08/kWh against a $0.10-0.15 range draws
 * from (0.08, 0.08, 0.15), so TCO's P10 lies between the TCO at $0.08 and
 * at $0.10 (clamped, every sample would be at $0.10 or more). */
START_TEST(monte_carlo_widens_a_range_to_the_plans_value)
{
    Catalog c2 = cat;
    memset(c2.ranges, 0, sizeof c2.ranges);
    Plan q = plan;
    ck_assert_double_eq_tol(q.site.power_price_kwh, 0.08, 1e-12);
    q.ranges.knobs[RANGE_POWER_PRICE] = (RangeSpec){.low = 0.10, .high = 0.15};
    McResult m;
    ck_assert_int_eq(mc_run(&q, &c2, NULL, 200, &m), 0);
    ck_assert_int_eq(m.n_knobs, 1);
    SensOutcome at8, at10;
    ck_assert_int_eq(plan_evaluate(&q, &c2, &want), 0);
    sens_outcome(&want, &c2, &at8);
    Plan q10 = q;
    q10.site.power_price_kwh = 0.10;
    ck_assert_int_eq(plan_evaluate(&q10, &c2, &want), 0);
    sens_outcome(&want, &c2, &at10);
    ck_assert(at8.tco < at10.tco);
    ck_assert_msg(m.tco.p10 > at8.tco && m.tco.p10 < at10.tco, "P10 %g outside (%g, %g)",
                  m.tco.p10, at8.tco, at10.tco);
}
END_TEST

/* The TCO is cash over the horizon, and how long the hardware is kept is
 * the plan's decision: the Monte Carlo holds the horizon at the plan's,
 * the tornado still varies it.  A 1-year plan against the catalog's 2-5
 * year range drew its samples at 1-5 years, and its own TCO lay below
 * their P10 (startup-h200: $9.9M point, P10 $12.2M). */
START_TEST(monte_carlo_holds_the_horizon_at_the_plans)
{
    Catalog c2 = cat;
    memset(c2.ranges, 0, sizeof c2.ranges);
    Plan q = plan;
    q.horizon_years = 1;
    q.ranges.knobs[RANGE_HORIZON] = (RangeSpec){.low = 2, .high = 5};
    assert_monte_carlo_is_the_point(&q, &c2);
    SensResult *s = malloc(sizeof *s);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(sens_run(&q, &c2, NULL, s), 0);
    bool bar = false;
    for (int i = 0; i < s->n_bars; i++)
        bar |= s->bars[i].knob == RANGE_HORIZON && s->bars[i].swing_tco > 0;
    ck_assert_msg(bar, "the tornado has no horizon bar");
    free(s);
}
END_TEST

START_TEST(monte_carlo_reuses_the_expensive_stages)
{
    EvalCache *k = eval_cache_new();
    EvalOptions o = eval_options_default();
    o.cache = k;
    McResult m;
    ck_assert_int_eq(mc_run(&plan, &cat, &o, 400, &m), 0);
    EvalCacheStats s = eval_cache_stats(k);
    /* MTBF x tokens x model band strata for sizing, MTBF x arrivals for
     * the scheduler, plus the point estimate */
    ck_assert_uint_le(s.sizing_runs, MC_STRATA * MC_STRATA * MC_STRATA + 1);
    ck_assert_uint_le(s.sched_runs, MC_STRATA * MC_STRATA + 1);
    ck_assert_uint_eq(s.sizing_runs + s.sizing_hits, 401);
    eval_cache_free(k);
}
END_TEST

START_TEST(cancelled_sensitivity_reports_it)
{
    atomic_int stop = 1;
    EvalOptions o = eval_options_default();
    o.cancel = &stop;
    SensResult *s = malloc(sizeof *s);
    ck_assert_int_eq(sens_run(&plan, &cat, &o, s), -1);
    ck_assert(s->cancelled);
    McResult m;
    ck_assert_int_eq(mc_run(&plan, &cat, &o, 10, &m), -1);
    ck_assert(m.cancelled);
    free(s);
}
END_TEST

/* ------------------------------------------------- catalog uncertainty */

START_TEST(shipped_catalog_states_every_range)
{
    for (int k = 0; k < RANGE_COUNT; k++) {
        ck_assert_msg(cat.ranges[k].given, "%s has no range", range_knob_name(k));
        ck_assert(cat.ranges[k].low <= cat.ranges[k].high);
        ck_assert(cat.ranges[k].source[0]);
        ck_assert_int_eq(range_knob_find(range_knob_name(k)), k);
    }
    ck_assert_int_eq(range_knob_find("nope"), -1);
}
END_TEST

START_TEST(catalog_range_low_above_high_is_refused_with_position)
{
    const char *t = "uncertainty:\n  pue: {low: 1.5, high: 1.2, source: x}\n";
    Catalog c;
    memset(&c, 0, sizeof c);
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_int_ne(catalog_load_text(&c, t, strlen(t), "u.yaml", &d), 0);
    ck_assert_msg(strstr(d.msg, "above high") != NULL, "%s", d.msg);
    ck_assert_int_eq(d.line, 2);
    const char *t2 = "uncertainty:\n  pues: {low: 1.1, high: 1.2, source: x}\n";
    memset(&d, 0, sizeof d);
    ck_assert_int_ne(catalog_load_text(&c, t2, strlen(t2), "u.yaml", &d), 0);
    ck_assert_msg(strstr(d.msg, "did you mean 'pue'") != NULL, "%s", d.msg);
    const char *t3 = "uncertainty:\n  pue: {low: 1.1, source: x}\n";
    memset(&d, 0, sizeof d);
    ck_assert_int_ne(catalog_load_text(&c, t3, strlen(t3), "u.yaml", &d), 0);
    ck_assert_msg(strstr(d.msg, "both low and high") != NULL, "%s", d.msg);
}
END_TEST

/* ---------------------------------------------------------- plan ranges */

START_TEST(plan_ranges_round_trip_and_validate)
{
    const char *text = "format: 1\nname: r\naccelerator: H100-SXM\n"
                       "tenancy:\n  teams:\n    - name: a\n      jobs:\n"
                       "        - {name: j, per_day: 10, gpus: 8, hours: 2}\n"
                       "ranges:\n  samples: 300\n  seed: 9\n"
                       "  reserved_discount: {low: 40%, high: 65%}\n"
                       "  power_price: {low: $0.05, high: $0.12}\n"
                       "  mtbf_gpu: {low: 20000h, high: 80000}\n";
    Diag d;
    memset(&d, 0, sizeof d);
    static Plan a, b;
    ck_assert_msg(plan_parse(text, strlen(text), "r.yaml", &cat, &a, &d) == 0, "%s", d.msg);
    ck_assert_int_eq(a.ranges.samples, 300);
    ck_assert_uint_eq(a.ranges.seed, 9);
    ck_assert_double_eq_tol(a.ranges.knobs[RANGE_RESERVED_DISCOUNT].low, 0.40, 1e-12);
    ck_assert_double_eq_tol(a.ranges.knobs[RANGE_POWER_PRICE].high, 0.12, 1e-12);
    ck_assert_double_eq(a.ranges.knobs[RANGE_MTBF].low, 20000);
    ck_assert_double_eq(a.ranges.knobs[RANGE_MTBF].high, 80000);
    char *y = plan_to_yaml(&a);
    ck_assert_ptr_nonnull(y);
    ck_assert_msg(plan_parse(y, strlen(y), "r2.yaml", &cat, &b, &d) == 0, "%s", d.msg);
    ck_assert(memcmp(&a.ranges, &b.ranges, sizeof a.ranges) == 0);
    free(y);
    /* a plan without ranges writes none */
    y = plan_to_yaml(&plan);
    ck_assert_ptr_null(strstr(y, "ranges:"));
    free(y);
    const char *bad = "format: 1\nname: r\naccelerator: H100-SXM\n"
                      "tenancy:\n  teams:\n    - name: a\n      jobs:\n"
                      "        - {name: j, per_day: 10, gpus: 8, hours: 2}\n"
                      "ranges:\n  pue: {low: 1.4, high: 1.2}\n";
    memset(&d, 0, sizeof d);
    ck_assert_int_ne(plan_parse(bad, strlen(bad), "bad.yaml", &cat, &a, &d), 0);
    ck_assert_msg(strstr(d.msg, "low 1.4 is above high 1.2") != NULL, "%s", d.msg);
    ck_assert_int_eq(d.line, 10);
    /* the three knobs beyond the catalog's prices: parsed in their units,
     * written back, and refused out of range at their position */
    const char *more = "format: 1\nname: r\naccelerator: H100-SXM\n"
                       "tenancy:\n  teams:\n    - name: a\n      jobs:\n"
                       "        - {name: j, per_day: 10, gpus: 8, hours: 2}\n"
                       "ranges:\n  utilization: {low: 0.5, high: 1.05}\n"
                       "  resale: {low: 10%, high: 30%}\n"
                       "  model_band: {low: -1, high: 0.5}\n";
    memset(&d, 0, sizeof d);
    ck_assert_msg(plan_parse(more, strlen(more), "m.yaml", &cat, &a, &d) == 0, "%s", d.msg);
    ck_assert_double_eq(a.ranges.knobs[RANGE_UTILIZATION].high, 1.05);
    ck_assert_double_eq_tol(a.ranges.knobs[RANGE_RESALE].low, 0.10, 1e-12);
    ck_assert_double_eq(a.ranges.knobs[RANGE_MODEL_BAND].low, -1);
    y = plan_to_yaml(&a);
    ck_assert_msg(plan_parse(y, strlen(y), "m2.yaml", &cat, &b, &d) == 0, "%s", d.msg);
    ck_assert(memcmp(&a.ranges, &b.ranges, sizeof a.ranges) == 0);
    free(y);
    const char *bad2 = "format: 1\nname: r\naccelerator: H100-SXM\n"
                       "tenancy:\n  teams:\n    - name: a\n      jobs:\n"
                       "        - {name: j, per_day: 10, gpus: 8, hours: 2}\n"
                       "ranges:\n  resale: {low: 10%, high: 30%}\n"
                       "  model_band: {low: -4, high: 1}\n";
    memset(&d, 0, sizeof d);
    ck_assert_int_ne(plan_parse(bad2, strlen(bad2), "bad2.yaml", &cat, &a, &d), 0);
    ck_assert_msg(strstr(d.msg, "model_band low must be between -3 and 3") != NULL, "%s", d.msg);
    ck_assert_int_eq(d.line, 11);
    ck_assert_int_gt(d.col, 1);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("sensitivity");
    TCase *tc = tcase_create("cache");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, price_change_reuses_sizing_and_scheduler);
    tcase_add_test(tc, catalog_price_change_reuses_stages);
    tcase_add_test(tc, tokens_change_reruns_sizing_only);
    tcase_add_test(tc, arrival_change_reruns_scheduler_only);
    tcase_add_test(tc, cache_keys_on_options_and_clears);
    tcase_add_test(tc, cancelled_run_is_not_remembered);
    suite_add_tcase(s, tc);
    tc = tcase_create("distributions");
    tcase_add_test(tc, triangular_inverse_cdf_exact);
    tcase_add_test(tc, quantile_interpolates_type7);
    suite_add_tcase(s, tc);
    tc = tcase_create("tornado");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, tornado_flip_value_separates_the_verdicts);
    tcase_add_test(tc, plan_range_overrides_the_catalog);
    tcase_add_test(tc, no_cloud_rival_gives_no_discount_bar);
    tcase_add_test(tc, utilisation_flips_at_the_break_even_by_hand);
    tcase_add_test(tc, resale_moves_the_onprem_tco_by_the_hardware_price);
    tcase_add_test(tc, model_band_ends_are_the_reported_band);
    tcase_add_test(tc, monte_carlo_is_seeded_and_reproducible);
    tcase_add_test(tc, monte_carlo_without_ranges_is_the_point_estimate);
    tcase_add_test(tc, monte_carlo_reuses_the_expensive_stages);
    tcase_add_test(tc, monte_carlo_widens_a_range_to_the_plans_value);
    tcase_add_test(tc, monte_carlo_holds_the_horizon_at_the_plans);
    tcase_add_test(tc, cancelled_sensitivity_reports_it);
    tcase_add_test(tc, shipped_catalog_states_every_range);
    tcase_add_test(tc, catalog_range_low_above_high_is_refused_with_position);
    tcase_add_test(tc, plan_ranges_round_trip_and_validate);
    suite_add_tcase(s, tc);
    return s;
}
