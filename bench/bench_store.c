/* bench/bench_store.c — speed of the plan store and the trace importer.
 * Prints ms per operation; no targets are asserted (figures for reports).
 * Uses a temporary store under $TMPDIR (default /tmp), removed afterwards. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_tmpstore.h"
#include "store.h"
#include "trace.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The mean wall time per load, and the fastest single load in CPU time
 * (the machine may be shared: the best of `reps` is the steadier figure). */
static int bench_trace(const char *path, int reps)
{
    double t0 = now_ms(), best = 1e300;
    size_t n = 0;
    for (int i = 0; i < reps; i++) {
        Trace t;
        Diag d = {0};
        double c0 = cpu_ms();
        if (trace_load(path, TRACE_AUTO, false, &t, &d) != 0) {
            fprintf(stderr, "%s: %s\n", path, d.msg);
            return -1;
        }
        double c = cpu_ms() - c0;
        if (c < best)
            best = c;
        n = t.n;
        trace_free(&t);
    }
    double ms = (now_ms() - t0) / reps;
    printf("trace_load %s: %.2f ms per load (%zu jobs, %.3f us per job); best %.2f ms cpu\n", path,
           ms, n, ms * 1e3 / (double)(n ? n : 1), best);
    return 0;
}

int main(void)
{
    const char *src = getenv("GPUPLAN_SRCDIR");
    if (!src || !*src)
        src = GPUPLAN_SRCDIR;
    char path[4096];
    snprintf(path, sizeof path, "%s/../shared/data/traces/openb_pod_list_default.csv", src);
    if (access(path, R_OK) != 0)
        snprintf(path, sizeof path, "%s/tests/data/tiresias_60_job.csv", src);
    if (bench_trace(path, 20) < 0)
        return 1;

    BenchTmpStore tmp;
    if (bench_tmpstore_make(&tmp, "bench") != 0)
        return 1;
    const char *db = tmp.db;
    Diag d = {0};
    double t0 = now_ms();
    Store *s = store_open(db, NULL, false, &d);
    if (!s) {
        fprintf(stderr, "%s\n", d.msg);
        return 1;
    }
    printf("store_open (create): %.2f ms\n", now_ms() - t0);
    char *yaml = malloc(8192);
    if (!yaml)
        return 1;
    memset(yaml, 'x', 8191); /* about the size of a canonical plan */
    yaml[8191] = '\0';
    const int saves = 500;
    t0 = now_ms();
    for (int i = 0; i < saves; i++) {
        char name[32];
        snprintf(name, sizeof name, "plan-%d", i % 10);
        if (store_save_version(s, name, yaml, "bench", NULL, &d) != 0) {
            fprintf(stderr, "%s\n", d.msg);
            return 1;
        }
    }
    printf("store_save_version (8 KB, WAL, synchronous=NORMAL): %.3f ms per save\n",
           (now_ms() - t0) / saves);
    t0 = now_ms();
    for (int i = 0; i < saves; i++) {
        char *y;
        if (store_load(s, "plan-3", 1 + i % 50, &y, NULL, &d) != 0) {
            fprintf(stderr, "%s\n", d.msg);
            return 1;
        }
        free(y);
    }
    printf("store_load: %.3f ms per load\n", (now_ms() - t0) / saves);
    t0 = now_ms();
    for (int i = 0; i < 100; i++) {
        StorePlanInfo *pi;
        int n;
        if (store_list(s, "plan-[0-4]", false, &pi, &n, &d) != 0 || n != 5) {
            fprintf(stderr, "list: %s\n", d.msg);
            return 1;
        }
        free(pi);
    }
    printf("store_list (10 plans x 50 versions, regex): %.3f ms per list\n", (now_ms() - t0) / 100);
    store_close(s);
    t0 = now_ms();
    s = store_open(db, NULL, false, &d);
    if (!s) {
        fprintf(stderr, "%s\n", d.msg);
        return 1;
    }
    printf("store_open (existing, quick_check of %d versions): %.2f ms\n", saves, now_ms() - t0);
    store_close(s);
    free(yaml);
    bench_tmpstore_remove(&tmp);
    return 0;
}
