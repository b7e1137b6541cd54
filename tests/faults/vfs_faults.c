/* tests/faults/vfs_faults.c — I/O errors during a save, the way SQLite's
 * own tests inject them (sqlite.org/testing.html §3.2 "I/O Error Testing"):
 * a shim VFS wraps the default one and fails the Nth read, write, sync or
 * truncate of any file (the store, its WAL and shared memory aside), for
 * every N until a save runs through without reaching the fault.  After
 * every attempt the store is reopened without faults: it must pass
 * PRAGMA integrity_check and hold exactly the versions it had (a failed
 * save) or one more (a save that succeeded); nothing else may change.
 * TAP output; a run of make check-faults. */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"

enum { OP_READ, OP_WRITE, OP_SYNC, OP_TRUNCATE, OP_COUNT };
static const char *const op_name[OP_COUNT] = {"read", "write", "sync", "truncate"};

static sqlite3_vfs *base;
static int fault_op = -1;
static long fault_at, op_calls;
static int faults_hit;

typedef struct {
    sqlite3_file f;           /* must be first: our io methods */
    sqlite3_file *real;       /* the base VFS's file, allocated after us */
} ShimFile;

static int hit(int op)
{
    if (op != fault_op)
        return 0;
    if (++op_calls == fault_at) {
        faults_hit++;
        return 1;
    }
    return 0;
}

#define REAL(p) (((ShimFile *)(p))->real)
static int x_close(sqlite3_file *p)
{
    int rc = REAL(p)->pMethods ? REAL(p)->pMethods->xClose(REAL(p)) : SQLITE_OK;
    return rc;
}
static int x_read(sqlite3_file *p, void *b, int n, sqlite3_int64 o)
{
    return hit(OP_READ) ? SQLITE_IOERR_READ : REAL(p)->pMethods->xRead(REAL(p), b, n, o);
}
static int x_write(sqlite3_file *p, const void *b, int n, sqlite3_int64 o)
{
    return hit(OP_WRITE) ? SQLITE_IOERR_WRITE : REAL(p)->pMethods->xWrite(REAL(p), b, n, o);
}
static int x_truncate(sqlite3_file *p, sqlite3_int64 s)
{
    return hit(OP_TRUNCATE) ? SQLITE_IOERR_TRUNCATE : REAL(p)->pMethods->xTruncate(REAL(p), s);
}
static int x_sync(sqlite3_file *p, int fl)
{
    return hit(OP_SYNC) ? SQLITE_IOERR_FSYNC : REAL(p)->pMethods->xSync(REAL(p), fl);
}
static int x_size(sqlite3_file *p, sqlite3_int64 *s) { return REAL(p)->pMethods->xFileSize(REAL(p), s); }
static int x_lock(sqlite3_file *p, int l) { return REAL(p)->pMethods->xLock(REAL(p), l); }
static int x_unlock(sqlite3_file *p, int l) { return REAL(p)->pMethods->xUnlock(REAL(p), l); }
static int x_check(sqlite3_file *p, int *r) { return REAL(p)->pMethods->xCheckReservedLock(REAL(p), r); }
static int x_fctl(sqlite3_file *p, int op, void *a) { return REAL(p)->pMethods->xFileControl(REAL(p), op, a); }
static int x_sector(sqlite3_file *p) { return REAL(p)->pMethods->xSectorSize(REAL(p)); }
static int x_dev(sqlite3_file *p) { return REAL(p)->pMethods->xDeviceCharacteristics(REAL(p)); }
static int x_shmmap(sqlite3_file *p, int i, int sz, int ext, void volatile **pp)
{
    return REAL(p)->pMethods->xShmMap(REAL(p), i, sz, ext, pp);
}
static int x_shmlock(sqlite3_file *p, int o, int n, int fl) { return REAL(p)->pMethods->xShmLock(REAL(p), o, n, fl); }
static void x_shmbarrier(sqlite3_file *p) { REAL(p)->pMethods->xShmBarrier(REAL(p)); }
static int x_shmunmap(sqlite3_file *p, int del) { return REAL(p)->pMethods->xShmUnmap(REAL(p), del); }
static int x_fetch(sqlite3_file *p, sqlite3_int64 o, int n, void **pp)
{
    return REAL(p)->pMethods->xFetch(REAL(p), o, n, pp);
}
static int x_unfetch(sqlite3_file *p, sqlite3_int64 o, void *q) { return REAL(p)->pMethods->xUnfetch(REAL(p), o, q); }

static const sqlite3_io_methods shim_io = {
    3, x_close, x_read, x_write, x_truncate, x_sync, x_size, x_lock, x_unlock, x_check,
    x_fctl, x_sector, x_dev, x_shmmap, x_shmlock, x_shmbarrier, x_shmunmap, x_fetch, x_unfetch,
};

static int v_open(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags, int *out)
{
    (void)v;
    ShimFile *s = (ShimFile *)f;
    s->real = (sqlite3_file *)((char *)f + sizeof(ShimFile));
    memset(s->real, 0, (size_t)base->szOsFile);
    int rc = base->xOpen(base, name, s->real, flags, out);
    f->pMethods = rc == SQLITE_OK ? &shim_io : NULL;
    return rc;
}
static int v_delete(sqlite3_vfs *v, const char *n, int s) { (void)v; return base->xDelete(base, n, s); }
static int v_access(sqlite3_vfs *v, const char *n, int fl, int *r) { (void)v; return base->xAccess(base, n, fl, r); }
static int v_full(sqlite3_vfs *v, const char *n, int len, char *out) { (void)v; return base->xFullPathname(base, n, len, out); }
static void *v_dlopen(sqlite3_vfs *v, const char *n) { (void)v; return base->xDlOpen(base, n); }
static void v_dlerror(sqlite3_vfs *v, int n, char *m) { (void)v; base->xDlError(base, n, m); }
static void (*v_dlsym(sqlite3_vfs *v, void *h, const char *s))(void) { (void)v; return base->xDlSym(base, h, s); }
static void v_dlclose(sqlite3_vfs *v, void *h) { (void)v; base->xDlClose(base, h); }
static int v_random(sqlite3_vfs *v, int n, char *o) { (void)v; return base->xRandomness(base, n, o); }
static int v_sleep(sqlite3_vfs *v, int us) { (void)v; return base->xSleep(base, us); }
static int v_time(sqlite3_vfs *v, double *t) { (void)v; return base->xCurrentTime(base, t); }
static int v_lasterr(sqlite3_vfs *v, int n, char *m) { (void)v; return base->xGetLastError(base, n, m); }
static int v_time64(sqlite3_vfs *v, sqlite3_int64 *t) { (void)v; return base->xCurrentTimeInt64(base, t); }

static sqlite3_vfs shim_vfs = {
    2, 0, 1024, NULL, "gpuplan-faults", NULL, v_open, v_delete, v_access, v_full, v_dlopen,
    v_dlerror, v_dlsym, v_dlclose, v_random, v_sleep, v_time, v_lasterr, v_time64,
    NULL, NULL, NULL,
};

/* A fingerprint of the store: integrity, then every (plan, version, yaml)
 * as text.  NULL when the store is not intact. */
static char *fingerprint(const char *path, int *versions)
{
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, "unix") != SQLITE_OK) {
        sqlite3_close(db);
        return NULL;
    }
    char *out = NULL;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW ||
        strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0) {
        sqlite3_finalize(st);
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_finalize(st);
    size_t cap = 1 << 16, len = 0;
    out = malloc(cap);
    *versions = 0;
    if (out && sqlite3_prepare_v2(db, "SELECT p.name, v.version, v.note, v.yaml FROM versions v "
                                      "JOIN plans p ON p.id = v.plan_id ORDER BY 1, 2",
                                  -1, &st, NULL) == SQLITE_OK) {
        out[0] = '\0';
        while (sqlite3_step(st) == SQLITE_ROW) {
            (*versions)++;
            for (int c = 0; c < 4; c++) {
                const char *t = (const char *)sqlite3_column_text(st, c);
                size_t n = strlen(t ? t : "") + 2;
                while (len + n + 1 > cap) {
                    char *nb = realloc(out, cap *= 2);
                    if (!nb) {
                        free(out);
                        sqlite3_finalize(st);
                        sqlite3_close(db);
                        return NULL;
                    }
                    out = nb;
                }
                len += (size_t)sprintf(out + len, "%s\x1f", t ? t : "");
            }
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return out;
}

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    if (!a || !b) {
        if (a)
            fclose(a);
        if (b)
            fclose(b);
        return -1;
    }
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, a)) > 0)
        fwrite(buf, 1, n, b);
    fclose(a);
    return fclose(b);
}

int main(void)
{
    char dir[] = "/tmp/gpuplan-vfs-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char orig[256], db[256], side[300];
    snprintf(orig, sizeof orig, "%s/orig.db", dir);
    snprintf(db, sizeof db, "%s/s.db", dir);
    Diag d;
    Store *s = store_open(orig, NULL, false, &d);
    if (!s || store_save_version(s, "alpha", "format: 1\nname: alpha\n", "one", NULL, &d) != 0 ||
        store_save_version(s, "beta", "format: 1\nname: beta\n", "two", NULL, &d) != 0) {
        printf("Bail out! cannot make the store: %s\n", d.msg);
        return 1;
    }
    store_close(s);
    int v0;
    char *fp0 = fingerprint(orig, &v0);
    base = sqlite3_vfs_find(NULL);
    shim_vfs.szOsFile = (int)sizeof(ShimFile) + base->szOsFile;
    shim_vfs.mxPathname = base->mxPathname;
    if (!fp0 || sqlite3_vfs_register(&shim_vfs, 1) != SQLITE_OK) {
        printf("Bail out! no shim VFS\n");
        return 1;
    }
    int failed = 0, t = 0;
    for (int op = 0; op < OP_COUNT; op++) {
        int attempts = 0, failures = 0, successes = 0;
        char bad[512] = "";
        for (long n = 1; n < 100000; n++) {
            copy_file(orig, db);
            snprintf(side, sizeof side, "%s-wal", db);
            unlink(side);
            snprintf(side, sizeof side, "%s-shm", db);
            unlink(side);
            fault_op = op;
            fault_at = n;
            op_calls = 0;
            faults_hit = 0;
            Store *st = store_open(db, NULL, false, &d);
            int rc = -1;
            if (st) {
                rc = store_save_version(st, "alpha", "format: 1\nname: alpha\n# v2\n", "fault", NULL,
                                        &d);
                store_close(st);
            }
            int hitn = faults_hit;
            fault_op = -1;
            attempts++;
            int v;
            char *fp = fingerprint(db, &v);
            if (!fp) {
                snprintf(bad, sizeof bad, "%s %ld: the store failed its integrity check", op_name[op], n);
            } else if (rc != 0 && (v != v0 || strcmp(fp, fp0) != 0)) {
                snprintf(bad, sizeof bad, "%s %ld: a failed save changed the store (%d versions)",
                         op_name[op], n, v);
            } else if (rc == 0 && v != v0 + 1) {
                snprintf(bad, sizeof bad, "%s %ld: a save that succeeded left %d versions", op_name[op], n, v);
            } else if (rc != 0 && !d.msg[0]) {
                snprintf(bad, sizeof bad, "%s %ld: a failed save said nothing", op_name[op], n);
            }
            free(fp);
            if (rc == 0)
                successes++;
            else
                failures++;
            if (bad[0] || !hitn)
                break; /* the save ran through without reaching fault n: every n tried */
        }
        t++;
        if (bad[0]) {
            printf("not ok %d - I/O error in %s during a save: %s\n", t, op_name[op], bad);
            failed++;
        } else {
            printf("ok %d - I/O error in each %s during a save (%d points, %d saves failed cleanly, "
                   "%d succeeded): store intact every time\n",
                   t, op_name[op], attempts - 1, failures, successes - 1);
        }
    }
    free(fp0);
    printf("1..%d\n", t);
    unlink(db);
    unlink(orig);
    snprintf(side, sizeof side, "%s-wal", db);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", db);
    unlink(side);
    rmdir(dir);
    return failed ? 1 : 0;
}
