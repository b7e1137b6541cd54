/* bench/bench_cancel.c — how fast a running evaluation stops when the
 * dashboard cancels it (issue 17 D8: the worker must never run an
 * evaluation it cannot cancel within 100 ms).  For every demo plan, and for
 * a plan at the scheduler's budget (54,000 jobs a day over 366 days), the
 * evaluation runs on a thread; the cancel flag is set after 1, 3, 10, 30,
 * 100, 300 and 1000 ms (while it still runs) and the time until
 * plan_evaluate_ex returns is measured.  Exits 1 when the worst case is over
 * 100 ms.  Latency is the evaluating thread's CPU time from the cancel to
 * the return (on a shared machine wall time adds the wait for a core). */
#include "config.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog_yaml.h"
#include "datadir.h"
#include "evaluate.h"
#include "yaml_plan.h"

#define LIMIT_MS 100.0

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct {
    const Plan *p;
    const Catalog *c;
    PlanResult *r;
    atomic_int cancel;
    atomic_int done;
    double end_ms;
    double end_cpu_ms;   /* the thread's CPU time when it returned */
} Run;

static double cpu_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *run_eval(void *arg)
{
    Run *x = arg;
    EvalOptions o = eval_options_default();
    o.cancel = &x->cancel;
    plan_evaluate_ex(x->p, x->c, &o, x->r);
    x->end_ms = now_ms();
    x->end_cpu_ms = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
    atomic_store(&x->done, 1);
    return NULL;
}

static void sleep_ms(double ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)((ms - 1000 * (time_t)(ms / 1000)) * 1e6)};
    nanosleep(&ts, NULL);
}

/* Worst cancel latency for plan p over the delays; prints one row. */
static double bench_plan(const Plan *p, const Catalog *c, PlanResult *r)
{
    static const double delays[] = {1, 3, 10, 30, 100, 300, 1000};
    double worst = 0, full = 0;
    int tried = 0;
    for (size_t i = 0; i < sizeof delays / sizeof delays[0]; i++) {
        Run x = {.p = p, .c = c, .r = r};
        atomic_init(&x.cancel, 0);
        atomic_init(&x.done, 0);
        pthread_t th;
        double t0 = now_ms();
        if (pthread_create(&th, NULL, run_eval, &x) != 0)
            return 1e9;
        sleep_ms(delays[i]);
        clockid_t cid;
        double set_cpu = pthread_getcpuclockid(th, &cid) == 0 ? cpu_ms(cid) : 0;
        double set = now_ms();
        atomic_store(&x.cancel, 1);
        if (getenv("BENCH_CANCEL_VERBOSE"))
            fprintf(stderr, "CANCEL at %.1f\n", set);
        pthread_join(th, NULL);
        if (x.end_ms <= set) { /* finished before the cancel: nothing to measure */
            full = x.end_ms - t0;
            break;
        }
        /* CPU time of the evaluating thread: on a loaded machine the wall
         * time adds however long the thread waited for a core */
        double lat = x.end_cpu_ms - set_cpu, wall = x.end_ms - set;
        if (getenv("BENCH_CANCEL_VERBOSE"))
            fprintf(stderr, "  %s: cancel at %.0f ms: %.2f ms CPU, %.2f ms wall\n", p->name,
                    delays[i], lat, wall);
        if (lat > worst)
            worst = lat;
        tried++;
    }
    printf("%-28s %8d %14.2f %14s\n", p->name, tried, worst,
           full > 0 ? "" : "(> 1 s)");
    if (full > 0)
        printf("%-28s %8s %14s %11.0f ms\n", "", "", "full run", full);
    return worst;
}

int main(void)
{
    Catalog cat;
    Diag d;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/catalog", datadir_get());
    if (catalog_load(&cat, dir, NULL, &d) != 0) {
        char buf[800];
        fprintf(stderr, "bench_cancel: %s\n", diag_format(&d, buf, sizeof buf));
        return 1;
    }
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    if (!p || !r)
        return 1;
    printf("%-28s %8s %14s\n", "plan", "cancels", "worst ms");
    double worst = 0;
    snprintf(dir, sizeof dir, "%s/examples", datadir_get());
    DIR *dd = opendir(dir);
    struct dirent *e;
    while (dd && (e = readdir(dd))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (plan_load_file(path, &cat, p, &d) != 0 || p->tenancy.trace[0])
            continue;
        double w = bench_plan(p, &cat, r);
        if (w > worst)
            worst = w;
    }
    if (dd)
        closedir(dd);
    /* the audit's D8 plan: at the budget, the longest evaluation there is */
    static const char d8[] = "format: 1\nname: budget-d8\naccelerator: H100-SXM\n"
                             "tenancy:\n  gpus: auto\n  horizon: 366d\n  teams:\n"
                             "    - name: a\n      jobs:\n"
                             "        - {name: j, per_day: 54000, gpus: 1, hours: 1}\n";
    if (plan_parse(d8, sizeof d8 - 1, "budget-d8", &cat, p, &d) == 0) {
        double w = bench_plan(p, &cat, r);
        if (w > worst)
            worst = w;
    }
    printf("worst cancel latency %.2f ms (limit %.0f ms)\n", worst, LIMIT_MS);
    catalog_free(&cat);
    free(p);
    free(r);
    return worst > LIMIT_MS ? 1 : 0;
}
