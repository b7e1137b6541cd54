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
 * shard (see main).  Those shards are forked after the catalog and plan are
 * loaded; real array tasks (the gpuplan program run once per shard: exec,
 * catalog, plan, evaluation, shard file) are timed too, and with the
 * argument `100k` the speed-up of a 100,000-point sweep (points per task). */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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
        big_prefault_heap(SWEEP_TASK_HEAP);
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

/* The speed-up rounds of `ns` shard counts for spec s (see main): medians
 * and ranges printed under `what`. */
static int shard_rounds(const SweepSpec *s, const Plan *p, const Catalog *c, int reps,
                        const int *ns, int nn, const char *what)
{
    enum { MAXR = 16, MAXN = 8, MAXS = 64 };
    double base[MAXR], speedup[MAXN][MAXR], repeat[MAXN][MAXR], spread[MAXN][MAXR];
    /* each shard's least CPU over the rounds: the load's noise mostly gone */
    double least[MAXN][MAXS], base_least = 0;
    if (reps > MAXR || nn > MAXN)
        return -1;
    for (int k = 0; k < nn; k++)
        if (ns[k] > MAXS)
            return -1;
    for (int r = 0; r < reps; r++) {
        if ((base[r] = child_run(s, p, c, 0, 1)) < 0)
            return -1;
        base_least = r == 0 || base[r] < base_least ? base[r] : base_least;
        for (int k = 0; k < nn; k++) {
            double worst = 0, sum = 0;
            for (int i = 0; i < ns[k]; i++) {
                double t = child_run(s, p, c, i, ns[k]);
                if (t < 0)
                    return -1;
                sum += t;
                worst = t > worst ? t : worst;
                least[k][i] = r == 0 || t < least[k][i] ? t : least[k][i];
            }
            speedup[k][r] = base[r] / worst;
            /* total = one process + (n - 1) x what every further shard repeats */
            repeat[k][r] = (sum - base[r]) / (ns[k] - 1);
            /* the slowest shard over the mean shard: what the speed-up
             * loses to shards of unequal CPU time, not to repeated work */
            spread[k][r] = worst / (sum / ns[k]);
        }
    }
    qsort(base, (size_t)reps, sizeof base[0], dcmp);
    printf("sweep: %s: one process, evaluate + JSON only: %.3f s CPU (median of %d; "
           "%.3f-%.3f)\n", what, base[reps / 2], reps, base[0], base[reps - 1]);
    for (int k = 0; k < nn; k++) {
        qsort(speedup[k], (size_t)reps, sizeof speedup[k][0], dcmp);
        qsort(repeat[k], (size_t)reps, sizeof repeat[k][0], dcmp);
        qsort(spread[k], (size_t)reps, sizeof spread[k][0], dcmp);
        double m = speedup[k][reps / 2], worst_least = 0;
        for (int i = 0; i < ns[k]; i++)
            worst_least = least[k][i] > worst_least ? least[k][i] : worst_least;
        printf("sweep: %s: %2d shards (%lld points each): speed-up %.2f = %.2f N (rounds: "
               "%.2f-%.2f N); each shard repeats %.1f ms; slowest / mean shard %.2f; "
               "from each run's least CPU %.2f N (target >= 0.9 N)\n",
               what, ns[k], s->n_points / ns[k], m, m / ns[k], speedup[k][0] / ns[k],
               speedup[k][reps - 1] / ns[k], repeat[k][reps / 2] * 1e3, spread[k][reps / 2],
               base_least / worst_least / ns[k]);
    }
    return 0;
}

/* A real array task: `gpuplan sweep PLAN --vary ... --shard SHARD --out DIR
 * [--stages FILE]` run as its own program (exec, catalog and plan load,
 * evaluation, the shard file written); its CPU seconds (user + system), -1
 * on error.  shard NULL: `--emit slurm --tasks 16 --dir OUT` instead (the
 * one-off cost of writing the script and the shared stage file). */
static double task_run(const char *bin, const char *datadir, const char *plan,
                       const char *const *v, int nv, const char *shard, const char *out,
                       const char *stages)
{
    fflush(stdout); /* else the child's stdio would write this process's buffer again */
    pid_t kid = fork();
    if (kid < 0)
        return -1;
    if (kid == 0) {
        const char *argv[32];
        int n = 0;
        argv[n++] = bin;
        argv[n++] = "sweep";
        argv[n++] = plan;
        for (int i = 0; i < nv; i++) {
            argv[n++] = "--vary";
            argv[n++] = v[i];
        }
        argv[n++] = "--name";
        argv[n++] = "bench";
        if (shard) {
            argv[n++] = "--shard";
            argv[n++] = shard;
            argv[n++] = "--out";
            argv[n++] = out;
        } else {
            argv[n++] = "--emit";
            argv[n++] = "slurm";
            argv[n++] = "--tasks";
            argv[n++] = "16";
            argv[n++] = "--dir";
            argv[n++] = out;
        }
        if (stages) {
            argv[n++] = "--stages";
            argv[n++] = stages;
        }
        argv[n] = NULL;
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
            _exit(127);
        setenv("GPUPLAN_DATADIR", datadir, 1);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    int status;
    struct rusage u;
    if (wait4(kid, &status, 0, &u) != kid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

/* Real tasks: a one-point task's CPU (the fixed cost every array task pays),
 * and the speed-up of N real tasks over one real process (`--shard 0/1`);
 * then the same with the stage file `--emit` writes (`--stages`: the
 * scheduler's capacity search, which no varied key touches, computed once
 * for all tasks; the emit's own CPU reported apart).  Both kinds of task
 * run in each round, alternately. */
static int real_tasks(const char *bin, const char *datadir, const char *plan, const char *out,
                      const char *emit_dir)
{
    enum { ONE = 15, REPS = 3, NN = 2 };
    static const int ns[NN] = {8, 16};
    char stages[2200];
    snprintf(stages, sizeof stages, "%s/stages.bin", emit_dir);
    double emit[3];
    for (int r = 0; r < 3; r++)
        if ((emit[r] = task_run(bin, datadir, plan, vary, 4, NULL, emit_dir, NULL)) < 0)
            return -1;
    qsort(emit, 3, sizeof emit[0], dcmp);
    printf("sweep: --emit slurm --tasks 16 (script, plan, the stage file: point 0 evaluated "
           "once): %.1f ms CPU least of 3\n", emit[0] * 1e3);
    for (int f = 0; f < 2; f++) {
        double one[ONE];
        for (int r = 0; r < ONE; r++)
            if ((one[r] = task_run(bin, datadir, plan, vary, 4, "0/10000", out,
                                   f ? stages : NULL)) < 0)
                return -1;
        qsort(one, ONE, sizeof one[0], dcmp);
        printf("sweep: a real one-point task%s (gpuplan sweep --shard 0/10000: exec, catalog, "
               "plan, first point, shard file): %.1f ms CPU least of %d, median %.1f\n",
               f ? " with --stages" : "", one[0] * 1e3, ONE, one[ONE / 2] * 1e3);
    }
    double speedup[2][NN][REPS], least[2][NN][16], base_least = 0;
    char sh[32];
    for (int r = 0; r < REPS; r++) {
        double base = task_run(bin, datadir, plan, vary, 4, "0/1", out, NULL);
        if (base < 0)
            return -1;
        base_least = r == 0 || base < base_least ? base : base_least;
        for (int k = 0; k < NN; k++)
            for (int f = 0; f < 2; f++) {
                double worst = 0;
                for (int i = 0; i < ns[k]; i++) {
                    snprintf(sh, sizeof sh, "%d/%d", i, ns[k]);
                    double t = task_run(bin, datadir, plan, vary, 4, sh, out, f ? stages : NULL);
                    if (t < 0)
                        return -1;
                    worst = t > worst ? t : worst;
                    least[f][k][i] = r == 0 || t < least[f][k][i] ? t : least[f][k][i];
                }
                speedup[f][k][r] = base / worst;
            }
    }
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < NN; k++) {
            double worst_least = 0;
            for (int i = 0; i < ns[k]; i++)
                worst_least = least[f][k][i] > worst_least ? least[f][k][i] : worst_least;
            qsort(speedup[f][k], REPS, sizeof speedup[f][k][0], dcmp);
            printf("sweep: real tasks%s, 10,000 points: %2d tasks: speed-up %.2f N (rounds: "
                   "%.2f-%.2f N; one process = gpuplan sweep --shard 0/1); from each run's "
                   "least CPU %.2f N\n",
                   f ? " with --stages" : "", ns[k], speedup[f][k][REPS / 2] / ns[k],
                   speedup[f][k][0] / ns[k], speedup[f][k][REPS - 1] / ns[k],
                   base_least / worst_least / ns[k]);
        }
    return 0;
}

int main(int argc, char **argv)
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
    static const int ns[] = {2, 4, 8, 16};
    if (shard_rounds(s, p, &cat, 7, ns, 4, "10,000 points") != 0)
        return 1;

    /* points per task (`bench_sweep 100k`, not in `make bench`: ~1 CPU
     * minute): the same sweep with 100 horizons, 100,000 points, at N = 8
     * and 16, three rounds */
    SweepSpec *big = argc > 1 && strcmp(argv[1], "100k") == 0 ? calloc(1, sizeof *big) : NULL;
    static const char *const vary_big[] = {
        "workloads.pretrain-405b.tokens=10T..19T/10", "site.pue=1.1..1.5/10",
        "site.power_price_kwh=0.04..0.16/10", "horizon_years=3..6/100"};
    if (big && (spec_of(p, &cat, vary_big, 4, big) != 0 ||
                shard_rounds(big, p, &cat, 3, ns + 2, 2, "100,000 points") != 0))
        return 1;
    free(big);

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

    /* real array tasks: the gpuplan program beside this bench's directory */
    char bin[4096], data[4096], out[2100], emit_dir[2100];
    const char *slash = strrchr(argv[0], '/');
    snprintf(bin, sizeof bin, "%.*s/../gpuplan", slash ? (int)(slash - argv[0]) : 1,
             slash ? argv[0] : ".");
    snprintf(data, sizeof data, "%s/data", src && *src ? src : GPUPLAN_SRCDIR);
    snprintf(out, sizeof out, "%s/shards", tmp.dir);
    snprintf(emit_dir, sizeof emit_dir, "%s/emit", tmp.dir);
    if (access(bin, X_OK) != 0) {
        printf("sweep: real tasks: %s not built, skipped\n", bin);
    } else if (real_tasks(bin, data, file, out, emit_dir) != 0) {
        fprintf(stderr, "bench_sweep: a real task (%s sweep ... --shard) failed\n", bin);
        return 1;
    }
    DIR *od = opendir(out);
    for (struct dirent *e; od && (e = readdir(od));) {
        char f[2400];
        snprintf(f, sizeof f, "%s/%s", out, e->d_name);
        if (e->d_name[0] != '.')
            unlink(f);
    }
    if (od)
        closedir(od);
    rmdir(out);
    static const char *const emitted[] = {"stages.bin", "plan.yaml", "sweep.sbatch", "logs",
                                          "shards"};
    for (size_t i = 0; i < sizeof emitted / sizeof emitted[0]; i++) {
        char f[2400];
        snprintf(f, sizeof f, "%s/%s", emit_dir, emitted[i]);
        if (unlink(f) != 0)
            rmdir(f);
    }
    rmdir(emit_dir);
    bench_tmpstore_remove(&tmp);

    free(s);
    free(p);
    catalog_free(&cat);
    return 0;
}
