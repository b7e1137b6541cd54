/* bench/bench_tmpstore.h — a plan store in a private temporary directory
 * for the benchmarks (bench_store, bench_sweep): created with mkdtemp under
 * $TMPDIR (else /tmp), removed with SQLite's -wal/-shm side files. */
#ifndef GPUPLAN_BENCH_TMPSTORE_H
#define GPUPLAN_BENCH_TMPSTORE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
    char dir[1024];
    char db[1100];
} BenchTmpStore;

/* Creates the directory and names the database inside it; -1 (with a
 * message on stderr) when the directory cannot be made. */
static inline int bench_tmpstore_make(BenchTmpStore *t, const char *who)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(t->dir, sizeof t->dir, "%s/gpuplan-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", who);
    if (!mkdtemp(t->dir)) {
        perror("mkdtemp");
        return -1;
    }
    snprintf(t->db, sizeof t->db, "%s/plans.db", t->dir);
    return 0;
}

static inline void bench_tmpstore_remove(const BenchTmpStore *t)
{
    char side[1200];
    unlink(t->db);
    snprintf(side, sizeof side, "%s-wal", t->db);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", t->db);
    unlink(side);
    rmdir(t->dir);
}

#endif
