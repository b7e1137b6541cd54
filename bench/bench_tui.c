/* bench/bench_tui.c — the dashboard's recompute path without a terminal:
 * for every demo plan, the time from handing an edited copy of the plan to
 * the worker thread (tui/worker.c) until its result is published and the
 * UI is woken through the pipe — the model part of keystroke-to-screen
 * latency (the screen tests' GPUPLAN_TUI_LOG adds the drawing).  Also
 * checks that a burst of edits publishes only the newest generation. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog_yaml.h"
#include "datadir.h"
#include "tui/worker.h"
#include "yaml_plan.h"

#define EDITS 20

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Wait until the worker publishes a generation >= want; returns ms waited. */
static double wait_for(Worker *w, int rd, PlanResult *res, uint64_t *have, uint64_t want)
{
    double t0 = now_ms();
    while (*have < want) {
        struct pollfd pfd = {rd, POLLIN, 0};
        poll(&pfd, 1, 1000);
        char buf[64];
        while (read(rd, buf, sizeof buf) > 0)
            ;
        worker_take(w, res, have, NULL);
    }
    return now_ms() - t0;
}

int main(void)
{
    Catalog cat;
    Diag d;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/catalog", datadir_get());
    if (catalog_load(&cat, dir, NULL, &d) != 0) {
        char buf[800];
        fprintf(stderr, "bench_tui: %s\n", diag_format(&d, buf, sizeof buf));
        return 1;
    }
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    Worker *w = worker_start(&cat, fds[1]);
    Plan *p = malloc(sizeof *p);
    PlanResult *res = calloc(1, sizeof *res);
    if (!w || !p || !res)
        return 1;
    snprintf(dir, sizeof dir, "%s/examples", datadir_get());
    DIR *dd = opendir(dir);
    if (!dd)
        return 1;
    struct dirent *e;
    uint64_t gen = 0, have = 0;
    int status = 0;
    printf("%-28s %10s %10s %10s\n", "plan (edit -> result)", "median ms", "p90 ms", "max ms");
    while ((e = readdir(dd))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (plan_load_file(path, &cat, p, &d) != 0 || p->tenancy.trace[0])
            continue;
        double ms[EDITS];
        for (int i = 0; i < EDITS; i++) {
            p->site.pue = 1.1 + 0.01 * i; /* an edit, as :set site.pue would make */
            double t0 = now_ms();
            worker_submit(w, p, ++gen);
            wait_for(w, fds[0], res, &have, gen);
            ms[i] = now_ms() - t0;
        }
        qsort(ms, EDITS, sizeof ms[0], cmp_double);
        printf("%-28s %10.2f %10.2f %10.2f\n", p->name, ms[EDITS / 2], ms[EDITS * 9 / 10], ms[EDITS - 1]);

        /* a burst: only the newest generation may be published */
        uint64_t first = gen + 1;
        double t0 = now_ms();
        for (int i = 0; i < 10; i++) {
            p->site.pue = 1.2 + 0.01 * i;
            worker_submit(w, p, ++gen);
        }
        wait_for(w, fds[0], res, &have, gen);
        double burst = now_ms() - t0;
        bool newest = have == gen && res->power.facility_kw > 0;
        printf("%-28s burst of 10 edits: newest (gen %llu of %llu..%llu) after %.2f ms%s\n", "",
               (unsigned long long)have, (unsigned long long)first, (unsigned long long)gen, burst,
               newest ? "" : "  (power not computed)");
        if (have != gen)
            status = 1;
    }
    closedir(dd);
    worker_stop(w);
    catalog_free(&cat);
    free(p);
    free(res);
    close(fds[0]);
    close(fds[1]);
    return status;
}
