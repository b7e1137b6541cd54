/* bench/bench_sweep.c — `gpuplan sweep` speed (issue 14: a 10,000-point
 * cost/sizing sweep of frontier-2027 in < 10 s on one core; N array tasks
 * give >= 0.9 N speed-up).
 *
 * The sweep: training tokens (re-sizes the 405B run) x PUE x power price x
 * horizon, 10 x 10 x 10 x 10 = 10,000 points.  Timed as `gpuplan sweep`
 * does it: evaluate, rows to JSON, rows into a fresh store.  CPU time of this
 * process is reported beside wall time, because the machine is shared.
 *
 * Sharding: N shard processes (fork) each evaluate their slice, as N array
 * tasks would on N cores; the speed-up is one process's CPU time over the
 * slowest shard's CPU time (what N tasks on N free cores would take).  Each
 * shard starts with an empty stage cache, like a fresh array task.  The
 * speed-up is the median over rounds that each run one process and every
 * shard (see main). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_tmpstore.h"
#include "bigmem.h"
#include "catalog_yaml.h"
#include "store.h"
#include "sweep.h"
#include "yaml_plan.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char *const vary[] = {
    "workloads.pretrain-405b.tokens=10T..19T/10", "site.pue=1.1..1.5/10",
    "site.power_price_kwh=0.04..0.16/10", "horizon_years=3..6/10"};

/* The same kind of sweep with the axes given so that what the sizing and the
 * scheduler read varies fastest: the training tokens last, and a 100-point
 * sweep whose p95 wait target (the scheduler's capacity search) varies
 * fastest.  A sweep evaluates with those axes outermost (sweep.c), so
 * neither pays a search per point. */
static const char *const vary_rev[] = {
    "horizon_years=3..6/10", "site.pue=1.1..1.5/10", "site.power_price_kwh=0.04..0.16/10",
    "workloads.pretrain-405b.tokens=10T..19T/10"};
static const char *const vary_wait[] = {"site.pue=1.1..1.5/10", "tenancy.wait_p95=2h..8h/10"};

static int spec_of(const Plan *p, const Catalog *c, const char *const *v, int n, SweepSpec *s)
{
    char err[1024];
    memset(s, 0, sizeof *s);
    for (int i = 0; i < n; i++)
        if (sweep_axis_parse(p, c, v[i], &s->axes[s->n_axes++], err, sizeof err) != 0) {
            fprintf(stderr, "bench_sweep: %s\n", err);
            return -1;
        }
    snprintf(s->name, sizeof s->name, "bench");
    if (sweep_spec_finish(s, err, sizeof err) != 0) {
        fprintf(stderr, "bench_sweep: %s\n", err);
        return -1;
    }
    return 0;
}

/* Evaluate [lo, hi) and turn the rows into JSON; returns CPU seconds. */
static double run(const SweepSpec *s, const Plan *p, const Catalog *c, long long lo, long long hi,
                  Store *st)
{
    double t0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    long long n = hi - lo;
    SweepRow *rows = calloc((size_t)n, sizeof *rows);
    StoreSweepRow *sr = calloc((size_t)n, sizeof *sr);
    if (!rows || !sr || sweep_evaluate(s, p, c, lo, hi, rows) != 0) {
        fprintf(stderr, "bench_sweep: out of memory\n");
        exit(1);
    }
    for (long long i = 0; i < n; i++) {
        sr[i].idx = rows[i].idx;
        sr[i].inputs = sweep_inputs_json(s, &rows[i]);
        sr[i].outputs = sweep_outputs_json(&rows[i]);
        sr[i].error = rows[i].error;
    }
    if (st) {
        StoreSweepPut res;
        Diag d = {0};
        char *spec = sweep_spec_json(s);
        if (store_sweep_put(st, "frontier-2027", s->name, 1, "0123456789abcdef", spec,
                            s->n_points, sr, n, &res, &d) != 0 || res.added != n) {
            fprintf(stderr, "bench_sweep: %s\n", d.msg);
            exit(1);
        }
        free(spec);
    }
    for (long long i = 0; i < n; i++) {
        free((char *)sr[i].inputs);
        free((char *)sr[i].outputs);
    }
    free(sr);
    free(rows);
    return clock_s(CLOCK_PROCESS_CPUTIME_ID) - t0;
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Shard i of n (n = 1: the whole sweep) in a forked child, one at a time so
 * each gets a core to itself, as on N nodes; its CPU seconds, -1 on error. */
static double child_run(const SweepSpec *s, const Plan *p, const Catalog *c, int i, int n)
{
    int fd[2];
    pid_t kid;
    if (pipe(fd) != 0 || (kid = fork()) < 0)
        return -1;
    if (kid == 0) {
        close(fd[0]);
        big_keep_freed_memory(); /* as `gpuplan sweep` does */
        long long lo, hi;
        sweep_shard_range(s->n_points, i, n, &lo, &hi);
        double t = run(s, p, c, lo, hi, NULL);
        ssize_t w = write(fd[1], &t, sizeof t);
        _exit(w == (ssize_t)sizeof t ? 0 : 1);
    }
    close(fd[1]);
    double t = 0;
    int status;
    ssize_t got = read(fd[0], &t, sizeof t);
    close(fd[0]);
    waitpid(kid, &status, 0);
    if (got != (ssize_t)sizeof t || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return t;
}

int main(void)
{
    const char *src = getenv("GPUPLAN_SRCDIR");
    char dir[4096], file[4096];
    snprintf(dir, sizeof dir, "%s/data/catalog", src && *src ? src : GPUPLAN_SRCDIR);
    snprintf(file, sizeof file, "%s/data/examples/frontier-2027.yaml",
             src && *src ? src : GPUPLAN_SRCDIR);
    Catalog cat;
    Diag d = {0};
    Plan *p = malloc(sizeof *p);
    SweepSpec *s = calloc(1, sizeof *s);
    if (!p || !s || catalog_load(&cat, dir, NULL, &d) != 0 ||
        plan_load_file(file, &cat, p, &d) != 0) {
        fprintf(stderr, "bench_sweep: %s\n", d.msg);
        return 1;
    }
    if (spec_of(p, &cat, vary, 4, s) != 0)
        return 1;

    /* The same points in one process and as N shards.  Each run is a child
     * forked before this process has evaluated anything, so it starts as
     * an array task does after loading the catalog and the plan: a cold
     * stage cache and a heap that has not yet served an evaluation.  The
     * machine is shared: a round runs the one process and then every shard
     * of every N, one at a time, so both sides of a round's speed-up (one
     * process's CPU over the slowest shard's) meet much the same load; the
     * figures are the median over REPS rounds, with the range. */
    enum { REPS = 7, NN = 4 };
    static const int ns[NN] = {2, 4, 8, 16};
    double base[REPS], speedup[NN][REPS], repeat[NN][REPS];
    for (int r = 0; r < REPS; r++) {
        if ((base[r] = child_run(s, p, &cat, 0, 1)) < 0)
            return 1;
        for (int k = 0; k < NN; k++) {
            double worst = 0, sum = 0;
            for (int i = 0; i < ns[k]; i++) {
                double t = child_run(s, p, &cat, i, ns[k]);
                if (t < 0)
                    return 1;
                sum += t;
                worst = t > worst ? t : worst;
            }
            speedup[k][r] = base[r] / worst;
            /* total = one process + (n - 1) x what every further shard repeats */
            repeat[k][r] = (sum - base[r]) / (ns[k] - 1);
        }
    }
    qsort(base, REPS, sizeof base[0], dcmp);
    printf("sweep: one process, evaluate + JSON only: %.3f s CPU (median of %d; %.3f-%.3f)\n",
           base[REPS / 2], REPS, base[0], base[REPS - 1]);
    for (int k = 0; k < NN; k++) {
        qsort(speedup[k], REPS, sizeof speedup[k][0], dcmp);
        qsort(repeat[k], REPS, sizeof repeat[k][0], dcmp);
        double m = speedup[k][REPS / 2];
        printf("sweep: %2d shards: speed-up %.2f = %.2f N (rounds: %.2f-%.2f N); each shard "
               "repeats %.1f ms (target >= 0.9 N)\n",
               ns[k], m, m / ns[k], speedup[k][0] / ns[k], speedup[k][REPS - 1] / ns[k],
               repeat[k][REPS / 2] * 1e3);
    }

    /* the axes in an order that puts a stage's input fastest */
    SweepSpec *o = calloc(1, sizeof *o);
    static const struct {
        const char *const *vary;
        int n;
        const char *what;
    } orders[] = {{vary_rev, 4, "the same 10,000 points, training tokens varied fastest"},
                  {vary_wait, 2, "100 points, p95 wait target (capacity search) varied fastest"}};
    for (int k = 0; k < 2; k++) {
        if (!o || spec_of(p, &cat, orders[k].vary, orders[k].n, o) != 0)
            return 1;
        double best = 0;
        for (int r = 0; r < 3; r++) {
            double t = child_run(o, p, &cat, 0, 1);
            if (t < 0)
                return 1;
            if (r == 0 || t < best)
                best = t;
        }
        printf("sweep: %s, one process: %.3f s CPU\n", orders[k].what, best);
    }
    free(o);

    BenchTmpStore tmp;
    if (bench_tmpstore_make(&tmp, "bench-sweep") != 0)
        return 1;
    Store *st = store_open(tmp.db, NULL, false, &d);
    if (!st || store_save_version(st, "frontier-2027", "format: 1\nname: frontier-2027\n", "",
                                  NULL, &d) != 0) {
        fprintf(stderr, "bench_sweep: %s\n", d.msg);
        store_close(st);
        bench_tmpstore_remove(&tmp);
        return 1;
    }
    /* the whole sweep once more, stored */
    double w0 = clock_s(CLOCK_MONOTONIC);
    double one = run(s, p, &cat, 0, s->n_points, st);
    double wall = clock_s(CLOCK_MONOTONIC) - w0;
    printf("sweep: %lld points of frontier-2027 (tokens x PUE x power price x horizon), "
           "evaluated, JSON, stored: %.2f s CPU (%.1f us/point), %.2f s wall\n",
           s->n_points, one, one / s->n_points * 1e6, wall);
    store_close(st);
    bench_tmpstore_remove(&tmp);

    free(s);
    free(p);
    catalog_free(&cat);
    return 0;
}
