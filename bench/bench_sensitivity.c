/* bench/bench_sensitivity.c — the sensitivity pane's work on frontier-2027:
 * the tornado with its verdict flips (bisection) plus a 1,000-sample Monte
 * Carlo, through one stage cache, as the dashboard's worker runs them after
 * an edit.  Target (issue 14): about 1 s on one core.  Also an uncached
 * evaluation and a cached price-only evaluation, for the cache's effect. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog_yaml.h"
#include "evaluate.h"
#include "sensitivity.h"
#include "yaml_plan.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of this process: on a shared machine the figure that says what
 * one core needs (wall time is printed too). */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    const char *dd = getenv("GPUPLAN_DATADIR");
    char dir[1024], file[1100];
    snprintf(dir, sizeof dir, "%s/catalog", dd ? dd : GPUPLAN_SRCDIR "/data");
    snprintf(file, sizeof file, "%s/examples/frontier-2027.yaml", dd ? dd : GPUPLAN_SRCDIR "/data");
    static Catalog cat;
    static Plan plan;
    static PlanResult r;
    Diag d;
    memset(&d, 0, sizeof d);
    if (catalog_load(&cat, dir, NULL, &d) != 0 || plan_load_file(file, &cat, &plan, &d) != 0) {
        fprintf(stderr, "bench_sensitivity: %s\n", d.msg);
        return 1;
    }
    EvalOptions o = eval_options_default();
    double t0 = now_s();
    plan_evaluate_ex(&plan, &cat, &o, &r);
    double t_full = now_s() - t0;

    EvalCache *k = eval_cache_new();
    o.cache = k;
    plan_evaluate_ex(&plan, &cat, &o, &r);
    Plan q = plan;
    int n = 200;
    t0 = now_s();
    for (int i = 0; i < n; i++) {
        q.site.power_price_kwh = 0.05 + 0.0005 * i;
        plan_evaluate_ex(&q, &cat, &o, &r);
    }
    double t_price = (now_s() - t0) / n;
    eval_cache_free(k);

    /* the pane: a fresh cache, as after an edit that changed the plan */
    k = eval_cache_new();
    o.cache = k;
    static SensResult s;
    McResult m;
    double c0 = cpu_s();
    t0 = now_s();
    int rc = sens_run(&plan, &cat, &o, &s);
    double t_sens = now_s() - t0;
    t0 = now_s();
    int rc2 = mc_run(&plan, &cat, &o, 1000, &m);
    double t_mc = now_s() - t0;
    double cpu = cpu_s() - c0;
    EvalCacheStats st = eval_cache_stats(k);
    eval_cache_free(k);
    if (rc != 0 || rc2 != 0) {
        fprintf(stderr, "bench_sensitivity: run failed\n");
        return 1;
    }
    printf("frontier-2027: full evaluation %.1f ms; cached, price changed %.3f ms\n",
           t_full * 1e3, t_price * 1e3);
    printf("sensitivity: %d bars, %d evaluations, %.0f ms; \"%s\"\n", s.n_bars, s.evaluations,
           t_sens * 1e3, s.sentence);
    printf("monte carlo: %d samples, %d assumptions, %.0f ms; TCO P10/P50/P90 $%.3gB/$%.3gB/$%.3gB\n",
           m.samples, m.n_knobs, t_mc * 1e3, m.tco.p10 / 1e9, m.tco.p50 / 1e9, m.tco.p90 / 1e9);
    printf("sensitivity + monte carlo: %.2f s cpu, %.2f s wall (target ~1 s); stage runs: sizing "
           "%llu (%llu reused), scheduler %llu (%llu reused)\n",
           cpu, t_sens + t_mc, (unsigned long long)st.sizing_runs, (unsigned long long)st.sizing_hits,
           (unsigned long long)st.sched_runs, (unsigned long long)st.sched_hits);
    catalog_free(&cat);
    return 0;
}
