/* plans/store.c — the SQLite plan store (ARCHITECTURE.md "Persistence").
 *
 * Schema (user_version 3):
 *   plans(id, name UNIQUE, created, deleted, deleted_at)
 *   versions(plan_id → plans.id ON DELETE CASCADE, version, created, note, yaml)
 *   prefs(key PRIMARY KEY, value)
 *   drafts(name PRIMARY KEY, base_version, saved, yaml)   (since 2: the
 *     dashboard's autosaved working copy, not a version; see store_draft_save)
 *   sweeps(id, plan_id → plans.id ON DELETE CASCADE, name, plan_version,
 *          fingerprint, spec, points, created; UNIQUE (plan_id, name))     [v3]
 *   sweep_points(sweep_id → sweeps.id ON DELETE CASCADE, idx, inputs,
 *          outputs, error; PRIMARY KEY (sweep_id, idx))                    [v3]
 * Every mutating call is one BEGIN IMMEDIATE transaction, so concurrent
 * gpuplan processes serialise on SQLite's write lock (waiting busy_timeout)
 * and version numbers, allocated inside the transaction, never collide.
 * Timestamps are unix seconds; a plan's version timestamps never decrease
 * (a clock stepped back reuses the previous version's time).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <sqlite3.h>

#include "safeio.h"
#include "sanitize.h"
#include "store.h"
#include "yaml_plan.h"

/* PRAGMA application_id marks the file as ours: "GPLN" in ASCII
 * (sqlite.org/fileformat.html §1.3.23: a 32-bit id at header offset 68). */
#define STORE_APP_ID 0x47504C4E

#define STORE_PATH_LEN 4096

struct Store {
    sqlite3 *db;
    char path[STORE_PATH_LEN];
    bool readonly;
    int schema;                /* user_version as opened (a read-only store may be older) */
    int busy_ms;
    struct timespec op_t0;   /* start of the operation that may wait on a lock */
    Diag *warnings;
    size_t n_warnings;
};

/* Migration k takes the schema from version k to k+1; append, never edit. */
static const char *const store_migrations[STORE_SCHEMA_VERSION] = {
    /* 0 → 1 */
    "CREATE TABLE plans ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE,"
    "  created INTEGER NOT NULL,"
    "  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),"
    "  deleted_at INTEGER);"
    "CREATE TABLE versions ("
    "  plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE,"
    "  version INTEGER NOT NULL CHECK (version >= 1),"
    "  created INTEGER NOT NULL,"
    "  note TEXT NOT NULL DEFAULT '',"
    "  yaml TEXT NOT NULL,"
    "  PRIMARY KEY (plan_id, version));"
    "CREATE TABLE prefs ("
    "  key TEXT PRIMARY KEY,"
    "  value TEXT NOT NULL);",
    /* 1 → 2: the dashboard's unsaved working copies (issue 15) */
    "CREATE TABLE drafts ("
    "  name TEXT PRIMARY KEY,"
    "  base_version INTEGER NOT NULL DEFAULT 0 CHECK (base_version >= 0),"
    "  saved INTEGER NOT NULL,"
    "  yaml TEXT NOT NULL);",
    /* 2 → 3: sweeps (plans/sweep.h); only adds tables, so an older store
     * keeps every plan as it was */
    "CREATE TABLE sweeps ("
    "  id INTEGER PRIMARY KEY,"
    "  plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE,"
    "  name TEXT NOT NULL,"
    "  plan_version INTEGER NOT NULL CHECK (plan_version >= 1),"
    "  fingerprint TEXT NOT NULL,"
    "  spec TEXT NOT NULL,"
    "  points INTEGER NOT NULL CHECK (points >= 1),"
    "  created INTEGER NOT NULL,"
    "  UNIQUE (plan_id, name));"
    "CREATE TABLE sweep_points ("
    "  sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,"
    "  idx INTEGER NOT NULL CHECK (idx >= 0),"
    "  inputs TEXT NOT NULL,"
    "  outputs TEXT NOT NULL,"
    "  error TEXT NOT NULL DEFAULT '',"
    "  PRIMARY KEY (sweep_id, idx)) WITHOUT ROWID;",
};

/* ------------------------------------------------------------ helpers */

const char *store_path(const Store *s) { return s->path; }

void store_set_busy_timeout(Store *s, int ms)
{
    s->busy_ms = ms < 0 ? 0 : ms;
    sqlite3_busy_timeout(s->db, s->busy_ms);
}

size_t store_warnings(const Store *s, const Diag **out)
{
    if (out)
        *out = s->warnings;
    return s->n_warnings;
}

bool store_name_valid(const char *name)
{
    size_t n = 0;
    for (const char *p = name; *p; p++, n++) {
        char c = *p;
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == ' ' || c == '-';
        if (!ok || n >= 64)
            return false;
    }
    return n >= 1;
}

static int check_name(const Store *s, const char *name, Diag *d)
{
    if (name && store_name_valid(name))
        return 0;
    diag_set(d, s->path, 0, 0,
             "invalid plan name '%s': expected 1-64 characters from A-Z a-z 0-9 . _ - and space",
             name ? name : "(null)");
    return -1;
}

/* What db_fail says for SQLITE_BUSY / SQLITE_LOCKED (see store_open's retry). */
#define BUSY_TEXT "the store is locked by another writer"

static void op_start(Store *s) { clock_gettime(CLOCK_MONOTONIC, &s->op_t0); }

/* Milliseconds since op_start: what a lock wait really took (an open waits
 * in more than one step; issue 17 D10). */
static int op_elapsed_ms(const Store *s)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (now.tv_sec - s->op_t0.tv_sec) * 1e3 + (now.tv_nsec - s->op_t0.tv_nsec) / 1e6;
    return ms < 0 ? 0 : ms > 1e9 ? 1000000000 : (int)(ms + 0.5);
}

/* What is left of the busy timeout for this operation, in ms (>= 0). */
static int op_remaining_ms(const Store *s)
{
    int left = s->busy_ms - op_elapsed_ms(s);
    return left > 0 ? left : 0;
}

bool store_diag_busy(const Diag *d)
{
    return d && strstr(d->msg, BUSY_TEXT) != NULL;
}

/* An error from SQLite, said in the store's terms. */
static int db_fail(const Store *s, int rc, Diag *d, const char *what)
{
    const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        diag_set(d, s->path, 0, 0,
                 "%s: " BUSY_TEXT " (gave up after %d ms, lock timeout %d ms); nothing was "
                 "changed", what, op_elapsed_ms(s), s->busy_ms);
        break;
    case SQLITE_READONLY:
        diag_set(d, s->path, 0, 0, "%s: the store is read-only (%s)", what, msg);
        break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        diag_set(d, s->path, 0, 0, "%s: the store is corrupt (%s)", what, msg);
        break;
    case SQLITE_FULL:
        diag_set(d, s->path, 0, 0, "%s: the disk is full; nothing was changed", what);
        break;
    case SQLITE_IOERR:
        /* a full disk met while growing the -shm or the journal reports an
         * I/O error; the errno tells (issue 17 D9) */
        if (s->db && (sqlite3_system_errno(s->db) == ENOSPC ||
                      sqlite3_system_errno(s->db) == EDQUOT ||
                      sqlite3_system_errno(s->db) == EFBIG)) {
            diag_set(d, s->path, 0, 0, "%s: the disk is full (%s); nothing was changed", what,
                     strerror(sqlite3_system_errno(s->db)));
            break;
        }
        diag_set(d, s->path, 0, 0, "%s: %s", what, msg);
        break;
    default:
        diag_set(d, s->path, 0, 0, "%s: %s", what, msg);
        break;
    }
    return -1;
}

static int exec_sql(Store *s, const char *sql, Diag *d, const char *what)
{
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : db_fail(s, rc, d, what);
}

static int prep(Store *s, const char *sql, sqlite3_stmt **st, Diag *d, const char *what)
{
    int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
    return rc == SQLITE_OK ? 0 : db_fail(s, rc, d, what);
}

static int tx_begin(Store *s, Diag *d, const char *what)
{
    if (s->readonly) {
        diag_set(d, s->path, 0, 0, "%s: the store was opened read-only", what);
        return -1;
    }
    op_start(s);
    return exec_sql(s, "BEGIN IMMEDIATE", d, what);
}

static int tx_commit(Store *s, Diag *d, const char *what)
{
    int rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        return 0;
    db_fail(s, rc, d, what);
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

static int tx_abort(Store *s)
{
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/* One integer from a single-value query, or -1 with d set. */
static int query_int(Store *s, const char *sql, long long *out, Diag *d, const char *what)
{
    sqlite3_stmt *st;
    if (prep(s, sql, &st, d, what) < 0)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return 0;
    }
    sqlite3_finalize(st);
    return db_fail(s, rc == SQLITE_DONE ? SQLITE_ERROR : rc, d, what);
}

static int64_t now_s(void) { return (int64_t)time(NULL); }

static void add_warning(Store *s, const Diag *w)
{
    Diag *nw = realloc(s->warnings, (s->n_warnings + 1) * sizeof *nw);
    if (!nw)
        return; /* a lost warning is not worth failing the open for */
    s->warnings = nw;
    s->warnings[s->n_warnings++] = *w;
}

/* Plan id and deleted flag by name: 1 found, 0 absent, -1 error. */
static int plan_lookup(Store *s, const char *name, long long *id, bool *deleted, Diag *d)
{
    sqlite3_stmt *st;
    if (prep(s, "SELECT id, deleted FROM plans WHERE name = ?1", &st, d, "looking up a plan") < 0)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        if (deleted)
            *deleted = sqlite3_column_int(st, 1) != 0;
        sqlite3_finalize(st);
        return 1;
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return 0;
    return db_fail(s, rc, d, "looking up a plan");
}

/* "no plan named X" plus the nearest stored name, when one is close. */
static int no_such_plan(Store *s, const char *name, Diag *d)
{
    sqlite3_stmt *st;
    const char **names = NULL;
    size_t n = 0, cap = 0;
    const char *near = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT name FROM plans WHERE deleted = 0", -1, &st, NULL) ==
        SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 16;
                const char **nn = realloc(names, nc * sizeof *nn);
                if (!nn)
                    break;
                names = nn;
                cap = nc;
            }
            char *copy = strdup((const char *)sqlite3_column_text(st, 0));
            if (!copy)
                break;
            names[n++] = copy;
        }
        sqlite3_finalize(st);
        near = diag_nearest(name, names, n);
    }
    if (near)
        diag_set(d, s->path, 0, 0, "no plan named '%s' (did you mean '%s'?)", name, near);
    else
        diag_set(d, s->path, 0, 0, "no plan named '%s'", name);
    for (size_t i = 0; i < n; i++)
        free((void *)names[i]);
    free(names);
    return -1;
}

/* A live (not deleted) plan's id, or -1 with d set. */
static int live_plan(Store *s, const char *name, long long *id, Diag *d)
{
    bool deleted = false;
    int r = plan_lookup(s, name, id, &deleted, d);
    if (r < 0)
        return -1;
    if (r == 0)
        return no_such_plan(s, name, d);
    if (deleted) {
        diag_set(d, s->path, 0, 0, "plan '%s' is deleted (undelete it first)", name);
        return -1;
    }
    return 0;
}

/* The target of a rename/duplicate must be free. */
static int name_free(Store *s, const char *name, Diag *d)
{
    long long id;
    bool deleted = false;
    int r = plan_lookup(s, name, &id, &deleted, d);
    if (r < 0)
        return -1;
    if (r == 0)
        return 0;
    if (deleted)
        diag_set(d, s->path, 0, 0,
                 "a deleted plan is named '%s' (undelete or purge it first)", name);
    else
        diag_set(d, s->path, 0, 0, "a plan named '%s' already exists", name);
    return -1;
}

/* Append version (latest + 1) of plan id; its time never goes below the
 * previous version's. */
static int insert_version(Store *s, long long id, const char *yaml, const char *note, int *ver,
                          Diag *d)
{
    sqlite3_stmt *st;
    if (prep(s,
             "SELECT coalesce(max(version), 0), coalesce(max(created), 0) FROM versions "
             "WHERE plan_id = ?1",
             &st, d, "saving a version") < 0)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        return db_fail(s, rc, d, "saving a version");
    }
    long long latest = sqlite3_column_int64(st, 0);
    int64_t last_t = sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    if (latest >= INT32_MAX) {
        diag_set(d, s->path, 0, 0, "plan has too many versions");
        return -1;
    }
    int64_t t = now_s();
    if (t < last_t)
        t = last_t;
    if (prep(s,
             "INSERT INTO versions (plan_id, version, created, note, yaml) "
             "VALUES (?1, ?2, ?3, ?4, ?5)",
             &st, d, "saving a version") < 0)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, latest + 1);
    sqlite3_bind_int64(st, 3, t);
    sqlite3_bind_text(st, 4, note ? note : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, yaml, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(s, rc, d, "saving a version");
    if (ver)
        *ver = (int)(latest + 1);
    return 0;
}

static int insert_plan(Store *s, const char *name, long long *id, Diag *d)
{
    sqlite3_stmt *st;
    if (prep(s, "INSERT INTO plans (name, created) VALUES (?1, ?2)", &st, d, "adding a plan") < 0)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, now_s());
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(s, rc, d, "adding a plan");
    *id = sqlite3_last_insert_rowid(s->db);
    return 0;
}

/* ------------------------------------------------------------ seeding */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *read_file(const char *path, size_t *len, Diag *d)
{
    char why[128];
    FILE *f = safeio_fopen_read(path, why, sizeof why);
    if (!f) {
        diag_set(d, path, 0, 0, "cannot read: %s", why);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
        n += got;
        if (n == cap - 1) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    bool err = ferror(f);
    fclose(f);
    if (!buf || err) {
        diag_set(d, path, 0, 0, "cannot read: %s", buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Store plan_to_yaml(plan_parse(file)) of one seed file as version 1. */
static int seed_one(Store *s, const char *path, Diag *w, Diag *d)
{
    size_t len;
    char *text = read_file(path, &len, w);
    if (!text)
        return 0;
    Plan *p = calloc(1, sizeof *p);
    if (!p) {
        free(text);
        diag_set(w, path, 0, 0, "out of memory");
        return 0;
    }
    int rc = 0;
    if (plan_parse(text, len, path, NULL, p, w) == 0) {
        char *yaml = plan_to_yaml(p);
        long long id;
        if (!yaml) {
            diag_set(w, path, 0, 0, "out of memory writing the plan");
        } else if (!store_name_valid(p->name)) {
            diag_set(w, path, 0, 0, "invalid plan name '%s'", p->name);
        } else {
            int r = plan_lookup(s, p->name, &id, NULL, d);
            if (r < 0)
                rc = -1;
            else if (r > 0)
                diag_set(w, path, 0, 0, "a seed plan named '%s' was already stored; skipped",
                         p->name);
            else if (insert_plan(s, p->name, &id, d) < 0 ||
                     insert_version(s, id, yaml, "demo plan", NULL, d) < 0)
                rc = -1;
            else
                w->msg[0] = '\0'; /* stored: nothing to warn about */
        }
        free(yaml);
    }
    free(p);
    free(text);
    return rc;
}

/* Seed a new store from seed_dir/ *.yaml, in name order.  Returns -1 only on
 * a database error (the caller rolls back); file problems are warnings. */
static int seed(Store *s, const char *seed_dir, Diag *d)
{
    if (!seed_dir || !*seed_dir)
        return 0;
    DIR *dir = opendir(seed_dir);
    if (!dir) {
        Diag w = {0};
        diag_set(&w, seed_dir, 0, 0, "no demo plans seeded: %s", strerror(errno));
        add_warning(s, &w);
        return 0;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= 5 || strcmp(e->d_name + l - 5, ".yaml") != 0 || e->d_name[0] == '.')
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            char **nn = realloc(names, nc * sizeof *nn);
            if (!nn)
                break;
            names = nn;
            cap = nc;
        }
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(dir);
    if (n > 1) /* qsort(NULL, 0, …) is undefined: an empty seed folder */
        qsort(names, n, sizeof *names, cmp_str);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        char path[STORE_PATH_LEN];
        snprintf(path, sizeof path, "%s/%s", seed_dir, names[i]);
        Diag w = {0};
        rc = seed_one(s, path, &w, d);
        if (rc == 0 && w.msg[0])
            add_warning(s, &w);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* ------------------------------------------------------------ opening */

/* Bring the schema to STORE_SCHEMA_VERSION in one transaction; seed when it
 * started from nothing.  Re-reads the version under the write lock, so two
 * processes creating the same store migrate and seed it once. */
static int migrate(Store *s, const char *seed_dir, Diag *d);

/* Pragmas, then the schema migration (seeding a new store).  Returns 0 or -1
 * with d set; safe to repeat after a failure. */
static int setup_connection(Store *s, const char *seed_dir, Diag *d)
{
    /* foreign_keys for ON DELETE CASCADE; WAL so readers never block the
     * writer; synchronous=NORMAL is durable enough in WAL mode
     * (sqlite.org/pragma.html#pragma_synchronous: a commit may roll back on
     * power loss but the database stays consistent).  A file system without
     * shared memory keeps the old journal mode; the store still works, only
     * readers then wait for writers. */
    if (exec_sql(s, "PRAGMA foreign_keys = ON", d, "opening the store") < 0 ||
        exec_sql(s, "PRAGMA journal_mode = WAL", d, "opening the store") < 0 ||
        exec_sql(s, "PRAGMA synchronous = NORMAL", d, "opening the store") < 0)
        return -1;
    return migrate(s, seed_dir, d);
}

static int migrate(Store *s, const char *seed_dir, Diag *d)
{
    long long v;
    if (query_int(s, "PRAGMA user_version", &v, d, "reading the schema version") < 0)
        return -1;
    if (v == STORE_SCHEMA_VERSION)
        return 0;
    if (tx_begin(s, d, "upgrading the store") < 0)
        return -1;
    if (query_int(s, "PRAGMA user_version", &v, d, "reading the schema version") < 0)
        return tx_abort(s);
    if (v > STORE_SCHEMA_VERSION || v < 0) {
        diag_set(d, s->path, 0, 0,
                 "store schema version %lld is newer than this gpuplan supports (%d)", v,
                 STORE_SCHEMA_VERSION);
        return tx_abort(s);
    }
    if (v == STORE_SCHEMA_VERSION) /* another process got here first */
        return tx_commit(s, d, "upgrading the store");
    long long from = v;
    for (; v < STORE_SCHEMA_VERSION; v++)
        if (exec_sql(s, store_migrations[v], d, "upgrading the store") < 0)
            return tx_abort(s);
    if (from == 0 && seed(s, seed_dir, d) < 0)
        return tx_abort(s);
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
             STORE_APP_ID, STORE_SCHEMA_VERSION);
    if (exec_sql(s, sql, d, "upgrading the store") < 0)
        return tx_abort(s);
    return tx_commit(s, d, "upgrading the store");
}

typedef struct {
    long long user_version, app_id, objects;
} Inspect;

/* Percent-encode path into a `file:` URI with the given query. */
static void file_uri(const char *path, const char *query, char *out, size_t len)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    int w = snprintf(out, len, "file:");
    o = w > 0 ? (size_t)w : 0;
    for (const unsigned char *p = (const unsigned char *)path; *p && o + 4 < len; p++) {
        bool plain = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
                     (*p >= '0' && *p <= '9') || strchr("/._-~", *p);
        if (plain) {
            out[o++] = (char)*p;
        } else {
            out[o++] = '%';
            out[o++] = hex[*p >> 4];
            out[o++] = hex[*p & 15];
        }
    }
    out[o] = '\0';
    if (o + strlen(query) + 1 < len)
        strcat(out, query);
}

static bool file_exists(const char *path);
static off_t file_size(const char *path);
static void drop_stray_sidecars(const Store *s, bool had_wal, bool had_shm);

/* Open path read-only and run probe; when a WAL database cannot be read
 * because its -shm cannot be created (read-only directory), retry with
 * immutable=1: nobody can be writing through a WAL in such a directory.
 * The same when the disk is too full for the 32 KiB -shm (issue 17 D9) and
 * there is no WAL content the main file lacks (no -wal, or an empty one):
 * then the main file alone is the whole store.  The -wal/-shm the failed
 * attempt left are removed.  Lock waits use what is left of the operation's
 * busy timeout.  Returns 0, -2 when the file is not SQLite or is corrupt,
 * else -1. */
static int open_ro(Store *s, const char *probe, Diag *d)
{
    char side[STORE_PATH_LEN + 8];
    snprintf(side, sizeof side, "%s-wal", s->path);
    bool had_wal = file_exists(side), wal_empty = !had_wal || file_size(side) == 0;
    snprintf(side, sizeof side, "%s-shm", s->path);
    bool had_shm = file_exists(side);
    for (int attempt = 0; attempt < 2; attempt++) {
        int rc;
        if (attempt == 0) {
            rc = sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READONLY, NULL);
        } else {
            char uri[STORE_PATH_LEN * 3 + 32];
            file_uri(s->path, "?immutable=1", uri, sizeof uri);
            rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
        }
        if (rc == SQLITE_OK) {
            sqlite3_extended_result_codes(s->db, 1);
            sqlite3_busy_timeout(s->db, op_remaining_ms(s));
            rc = sqlite3_exec(s->db, probe, NULL, NULL, NULL);
            if (rc == SQLITE_OK)
                return 0;
        }
        int primary = rc & 0xff;
        if (attempt == 0 && (primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY)) {
            sqlite3_close_v2(s->db);
            s->db = NULL;
            continue;
        }
        if (attempt == 0 && (primary == SQLITE_IOERR || primary == SQLITE_FULL) && wal_empty) {
            sqlite3_close_v2(s->db);
            s->db = NULL;
            drop_stray_sidecars(s, had_wal, had_shm);
            continue;
        }
        int ret = -2;
        if (primary == SQLITE_NOTADB)
            diag_set(d, s->path, 0, 0, "not a SQLite database (the file was left untouched)");
        else if (primary == SQLITE_CORRUPT)
            diag_set(d, s->path, 0, 0, "the store is corrupt: %s (the file was left untouched)",
                     s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
        else
            ret = db_fail(s, rc, d, "opening the store");
        sqlite3_close_v2(s->db);
        s->db = NULL;
        return ret;
    }
    return -1;
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static off_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size : -1;
}

/* A connection that failed to set up WAL shared memory (disk full) leaves
 * an empty -wal and a few bytes of -shm.  When neither existed before and
 * they are still that (a -shm in use is at least 32 KiB: sqlite.org/
 * walformat.html §2), nobody else uses them: remove them. */
static void drop_stray_sidecars(const Store *s, bool had_wal, bool had_shm)
{
    char wal[STORE_PATH_LEN + 8], shm[STORE_PATH_LEN + 8];
    snprintf(wal, sizeof wal, "%s-wal", s->path);
    snprintf(shm, sizeof shm, "%s-shm", s->path);
    off_t shm_size = file_size(shm);
    if (!had_shm && shm_size >= 0 && shm_size < 32768 && (had_wal || file_size(wal) <= 0)) {
        unlink(shm);
        if (!had_wal)
            unlink(wal);
    }
}

/* A read-only connection to a WAL-mode file creates empty -wal and -shm
 * files beside it and, not being a writer, leaves them.  For a corrupt file
 * (which no gpuplan is writing) remove the ones this check created, so a
 * refused file is left exactly as found. */
static void drop_sidecars(const Store *s, bool had_wal, bool had_shm)
{
    char wal[STORE_PATH_LEN + 8], shm[STORE_PATH_LEN + 8];
    snprintf(wal, sizeof wal, "%s-wal", s->path);
    snprintf(shm, sizeof shm, "%s-shm", s->path);
    struct stat st;
    if (had_wal || had_shm || (stat(wal, &st) == 0 && st.st_size != 0))
        return;
    unlink(wal);
    unlink(shm);
}

/* Read-only look at an existing file: integrity, owner, schema version. */
static int inspect(Store *s, Inspect *in, Diag *d)
{
    char side[STORE_PATH_LEN + 8];
    snprintf(side, sizeof side, "%s-wal", s->path);
    bool had_wal = file_exists(side);
    snprintf(side, sizeof side, "%s-shm", s->path);
    bool had_shm = file_exists(side);
    bool corrupt = false;
    int r = open_ro(s, "SELECT count(*) FROM sqlite_master", d);
    if (r < 0) {
        if (r == -2)
            drop_sidecars(s, had_wal, had_shm);
        return -1;
    }
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const char *res = (const char *)sqlite3_column_text(st, 0);
            if (!res || strcmp(res, "ok") != 0) {
                diag_set(d, s->path, 0, 0,
                         "the store failed its integrity check (%s); the file was left untouched",
                         res ? res : "no result");
                sqlite3_finalize(st);
                corrupt = true;
                goto fail;
            }
            rc = SQLITE_OK;
        }
        sqlite3_finalize(st);
    }
    if (rc != SQLITE_OK) {
        int primary = rc & 0xff;
        corrupt = primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB;
        if (corrupt)
            diag_set(d, s->path, 0, 0, "the store is corrupt (%s); the file was left untouched",
                     sqlite3_errmsg(s->db));
        else
            db_fail(s, rc, d, "checking the store");
        goto fail;
    }
    if (query_int(s, "PRAGMA user_version", &in->user_version, d, "reading the schema version") <
            0 ||
        query_int(s, "PRAGMA application_id", &in->app_id, d, "reading the application id") < 0 ||
        query_int(s, "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'",
                  &in->objects, d, "reading the schema") < 0)
        goto fail;
    sqlite3_close_v2(s->db);
    s->db = NULL;
    return 0;
fail:
    sqlite3_close_v2(s->db);
    s->db = NULL;
    if (corrupt)
        drop_sidecars(s, had_wal, had_shm);
    return -1;
}

/* Write permission as the user meant it: no write bit at all counts as
 * read-only even for root, who access(2) would let through. */
static bool writable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0)
        return false;
    return access(path, W_OK) == 0;
}

static void parent_dir(const char *path, char *out, size_t len)
{
    snprintf(out, len, "%s", path);
    char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(out, len, ".");
    else if (slash == out)
        out[1] = '\0';
    else
        *slash = '\0';
}

Store *store_open(const char *path, const char *seed_dir, bool readonly, Diag *d)
{
    return store_open_ex(path, seed_dir, readonly, STORE_BUSY_TIMEOUT_MS, d);
}

Store *store_open_ex(const char *path, const char *seed_dir, bool readonly, int busy_ms,
                     Diag *d)
{
    if (!path || !*path) {
        diag_set(d, "", 0, 0, "no plan store path given");
        return NULL;
    }
    if (strlen(path) >= STORE_PATH_LEN) {
        diag_set(d, "", 0, 0, "plan store path is too long");
        return NULL;
    }
    Store *s = calloc(1, sizeof *s);
    if (!s) {
        diag_set(d, path, 0, 0, "out of memory");
        return NULL;
    }
    snprintf(s->path, sizeof s->path, "%s", path);
    s->readonly = readonly;
    s->busy_ms = busy_ms < 0 ? 0 : busy_ms;
    op_start(s); /* every lock wait of the open shares one busy timeout */

    struct stat st;
    bool exists = false, empty = true, had_wal = true, had_shm = true;
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            diag_set(d, path, 0, 0, "the plan store is not a regular file");
            goto fail;
        }
        exists = true;
        empty = st.st_size == 0;
    } else if (errno != ENOENT) {
        diag_set(d, path, 0, 0, "cannot open the plan store: %s", strerror(errno));
        goto fail;
    }

    Inspect in = {0};
    if (exists && !empty) {
        if (inspect(s, &in, d) < 0)
            goto fail;
        bool ours = in.app_id == STORE_APP_ID ||
                    (in.app_id == 0 && in.user_version == 0 && in.objects == 0);
        if (!ours) {
            diag_set(d, path, 0, 0,
                     "not a gpuplan plan store (application_id %#llx, %lld schema objects); "
                     "the file was left untouched",
                     (unsigned long long)in.app_id, in.objects);
            goto fail;
        }
        if (in.user_version < 0) {
            diag_set(d, path, 0, 0,
                     "store schema version %lld is not one gpuplan ever wrote (PRAGMA "
                     "user_version was changed by another program, or the file is damaged); "
                     "the file was left untouched", in.user_version);
            goto fail;
        }
        if (in.user_version > STORE_SCHEMA_VERSION) {
            diag_set(d, path, 0, 0,
                     "store schema version %lld is newer than this gpuplan supports (%d): use a "
                     "newer gpuplan; the file was left untouched",
                     in.user_version, STORE_SCHEMA_VERSION);
            goto fail;
        }
        if (in.user_version == 0 && in.objects > 0) {
            diag_set(d, path, 0, 0,
                     "the store has %lld schema objects but schema version 0 (PRAGMA "
                     "user_version was reset, or another program made the tables); the file "
                     "was left untouched", in.objects);
            goto fail;
        }
    }

    if (readonly) {
        /* schema 1 has every table a read needs (drafts, since 2, and sweeps,
         * since 3, are then simply absent): an old store stays readable
         * without a write */
        if (!exists || empty || in.user_version < 1) {
            diag_set(d, path, 0, 0,
                     "%s: open it read-write once (e.g. gpuplan save) to %s it",
                     !exists ? "no plan store here yet" : "the plan store is not set up",
                     !exists ? "create" : "upgrade");
            goto fail;
        }
        if (open_ro(s, "SELECT count(*) FROM plans", d) < 0)
            goto fail;
        sqlite3_busy_timeout(s->db, s->busy_ms); /* each later call waits its own */
        s->schema = (int)in.user_version;
        return s;
    }

    char dir[STORE_PATH_LEN];
    parent_dir(path, dir, sizeof dir);
    if (exists && !writable(path)) {
        diag_set(d, path, 0, 0,
                 "the plan store is read-only (no write permission); the file was left "
                 "untouched (open it read-only, or pass --db PATH)");
        goto fail;
    }
    struct stat dst;
    if (stat(dir, &dst) != 0 || !S_ISDIR(dst.st_mode)) {
        diag_set(d, path, 0, 0, "the directory %s %s; the store was not created", dir,
                 errno == ENOENT ? "does not exist" : "is not a directory");
        goto fail;
    }
    if (!writable(dir)) {
        diag_set(d, path, 0, 0,
                 "the directory %s is not writable (SQLite needs its journal there); the "
                 "store was not %s", dir, exists ? "modified" : "created");
        goto fail;
    }
    char side[STORE_PATH_LEN + 8];
    snprintf(side, sizeof side, "%s-wal", path);
    had_wal = file_exists(side);
    snprintf(side, sizeof side, "%s-shm", path);
    had_shm = file_exists(side);
    int flags = SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE);
    int rc = sqlite3_open_v2(path, &s->db, flags, NULL);
    if (rc != SQLITE_OK) {
        db_fail(s, rc, d, "opening the store");
        goto fail;
    }
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, op_remaining_ms(s));
    /* Two processes setting up one new store at once can meet a lock that
     * SQLite reports at once instead of waiting (switching to WAL needs an
     * exclusive lock; a reader upgrading to a writer may not wait, to avoid
     * a deadlock).  Nothing was changed then, so try again until the busy
     * timeout has passed. */
    for (;;) {
        if (setup_connection(s, seed_dir, d) == 0) {
            sqlite3_busy_timeout(s->db, s->busy_ms); /* each later call waits its own */
            s->schema = STORE_SCHEMA_VERSION;
            return s;
        }
        if (!strstr(d ? d->msg : "", BUSY_TEXT) || op_remaining_ms(s) <= 0)
            goto fail;
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
        sqlite3_busy_timeout(s->db, op_remaining_ms(s));
    }
fail:
    if (s->db) {
        /* a failed read-write open (a full disk) leaves no -wal/-shm it made */
        sqlite3_close_v2(s->db);
        s->db = NULL;
        drop_stray_sidecars(s, had_wal, had_shm);
    }
    store_close(s);
    return NULL;
}

void store_close(Store *s)
{
    if (!s)
        return;
    sqlite3_close_v2(s->db);
    free(s->warnings);
    free(s);
}

/* ------------------------------------------------------------ plans */

int store_save_version(Store *s, const char *name, const char *yaml, const char *note,
                       int *version_out, Diag *d)
{
    if (check_name(s, name, d) < 0)
        return -1;
    if (!yaml) {
        diag_set(d, s->path, 0, 0, "no plan text to save");
        return -1;
    }
    /* A note is validated like a name: one line of printable text that
     * fits StorePlanInfo.note (issue 17 D2). */
    char why[128];
    if (!sanitize_note_valid(note, sizeof ((StorePlanInfo *)0)->note - 1, why, sizeof why)) {
        diag_set(d, s->path, 0, 0, "invalid note: %s; a note is one line of printable text, "
                                   "at most 255 bytes", why);
        return -1;
    }
    if (tx_begin(s, d, "saving a plan") < 0)
        return -1;
    long long id;
    bool deleted = false;
    int r = plan_lookup(s, name, &id, &deleted, d);
    if (r < 0)
        return tx_abort(s);
    if (r == 0 && insert_plan(s, name, &id, d) < 0)
        return tx_abort(s);
    if (deleted) {
        sqlite3_stmt *st;
        if (prep(s, "UPDATE plans SET deleted = 0, deleted_at = NULL WHERE id = ?1", &st, d,
                 "saving a plan") < 0)
            return tx_abort(s);
        sqlite3_bind_int64(st, 1, id);
        int rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) {
            db_fail(s, rc, d, "saving a plan");
            return tx_abort(s);
        }
    }
    int ver;
    if (insert_version(s, id, yaml, note, &ver, d) < 0)
        return tx_abort(s);
    if (tx_commit(s, d, "saving a plan") < 0)
        return -1;
    if (version_out)
        *version_out = ver;
    return 0;
}

/* ------------------------------------------------------------ drafts */

/* A store opened read-only at schema 1 has no drafts table: no drafts. */
static bool have_drafts(Store *s)
{
    long long n = 0;
    Diag ignore;
    memset(&ignore, 0, sizeof ignore);
    return query_int(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
                        "'drafts'", &n, &ignore, "reading the store") == 0 && n > 0;
}

int store_draft_save(Store *s, const char *name, int base_version, const char *yaml, Diag *d)
{
    if (check_name(s, name, d) < 0)
        return -1;
    if (!yaml || base_version < 0) {
        diag_set(d, s->path, 0, 0, "no draft text to save");
        return -1;
    }
    if (tx_begin(s, d, "saving a draft") < 0)
        return -1;
    sqlite3_stmt *st;
    if (prep(s, "INSERT INTO drafts (name, base_version, saved, yaml) VALUES (?1, ?2, ?3, ?4) "
                "ON CONFLICT (name) DO UPDATE SET base_version = ?2, saved = ?3, yaml = ?4",
             &st, d, "saving a draft") < 0)
        return tx_abort(s);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, base_version);
    sqlite3_bind_int64(st, 3, now_s());
    sqlite3_bind_text(st, 4, yaml, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_fail(s, rc, d, "saving a draft");
        return tx_abort(s);
    }
    return tx_commit(s, d, "saving a draft");
}

int store_draft_load(Store *s, const char *name, char **yaml_out, int *base_version,
                     int64_t *saved, Diag *d)
{
    *yaml_out = NULL;
    if (check_name(s, name, d) < 0)
        return -1;
    if (!have_drafts(s))
        return 1;
    sqlite3_stmt *st;
    if (prep(s, "SELECT yaml, base_version, saved FROM drafts WHERE name = ?1", &st, d,
             "reading a draft") < 0)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(st, 0);
        char *copy = strdup(text ? text : "");
        if (base_version)
            *base_version = sqlite3_column_int(st, 1);
        if (saved)
            *saved = sqlite3_column_int64(st, 2);
        sqlite3_finalize(st);
        if (!copy) {
            diag_set(d, s->path, 0, 0, "out of memory");
            return -1;
        }
        *yaml_out = copy;
        return 0;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(s, rc, d, "reading a draft");
    return 1;
}

int store_draft_list(Store *s, StoreDraftInfo **out, int *n, Diag *d)
{
    *out = NULL;
    *n = 0;
    if (!have_drafts(s))
        return 0;
    sqlite3_stmt *st;
    if (prep(s, "SELECT name, base_version, saved FROM drafts ORDER BY saved DESC, name", &st, d,
             "listing drafts") < 0)
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        StoreDraftInfo *grown = realloc(*out, (size_t)(*n + 1) * sizeof **out);
        if (!grown) {
            sqlite3_finalize(st);
            free(*out);
            *out = NULL;
            *n = 0;
            diag_set(d, s->path, 0, 0, "out of memory");
            return -1;
        }
        *out = grown;
        StoreDraftInfo *di = &(*out)[(*n)++];
        memset(di, 0, sizeof *di);
        const char *nm = (const char *)sqlite3_column_text(st, 0);
        snprintf(di->name, sizeof di->name, "%s", nm ? nm : "");
        di->base_version = sqlite3_column_int(st, 1);
        di->saved = sqlite3_column_int64(st, 2);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(*out);
        *out = NULL;
        *n = 0;
        return db_fail(s, rc, d, "listing drafts");
    }
    return 0;
}

int store_draft_drop(Store *s, const char *name, Diag *d)
{
    if (check_name(s, name, d) < 0)
        return -1;
    if (!have_drafts(s))
        return 0;
    if (tx_begin(s, d, "dropping a draft") < 0)
        return -1;
    sqlite3_stmt *st;
    if (prep(s, "DELETE FROM drafts WHERE name = ?1", &st, d, "dropping a draft") < 0)
        return tx_abort(s);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_fail(s, rc, d, "dropping a draft");
        return tx_abort(s);
    }
    return tx_commit(s, d, "dropping a draft");
}

/* Reads that take more than one statement run in one read transaction, so
 * they see one snapshot even while another process writes (WAL). */
static int read_begin(Store *s, Diag *d)
{
    op_start(s);
    return exec_sql(s, "BEGIN", d, "reading the store");
}

static int read_end(Store *s, int ret)
{
    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    return ret;
}

static int load_snapshot(Store *s, const char *name, int version, char **yaml_out,
                         int *version_out, Diag *d);

int store_load(Store *s, const char *name, int version, char **yaml_out, int *version_out,
               Diag *d)
{
    *yaml_out = NULL;
    if (read_begin(s, d) < 0)
        return -1;
    return read_end(s, load_snapshot(s, name, version, yaml_out, version_out, d));
}

static int load_snapshot(Store *s, const char *name, int version, char **yaml_out,
                         int *version_out, Diag *d)
{
    if (check_name(s, name, d) < 0)
        return -1;
    if (version < 0) {
        diag_set(d, s->path, 0, 0, "invalid version %d (0 = latest)", version);
        return -1;
    }
    long long id;
    if (live_plan(s, name, &id, d) < 0)
        return -1;
    sqlite3_stmt *st;
    if (prep(s,
             "SELECT yaml, version FROM versions WHERE plan_id = ?1 AND (?2 = 0 OR version = ?2) "
             "ORDER BY version DESC LIMIT 1",
             &st, d, "loading a plan") < 0)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, version);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(st, 0);
        int got = sqlite3_column_int(st, 1);
        char *copy = strdup(text ? text : "");
        sqlite3_finalize(st);
        if (!copy) {
            diag_set(d, s->path, 0, 0, "out of memory");
            return -1;
        }
        *yaml_out = copy;
        if (version_out)
            *version_out = got;
        return 0;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(s, rc, d, "loading a plan");
    diag_set(d, s->path, 0, 0, "plan '%s' has no version %d", name, version);
    return -1;
}

int store_list(Store *s, const char *regex, bool include_deleted, StorePlanInfo **out, int *n,
               Diag *d)
{
    *out = NULL;
    *n = 0;
    pcre2_code *re = NULL;
    pcre2_match_data *md = NULL;
    if (regex && *regex) {
        int err;
        PCRE2_SIZE off;
        re = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
        if (!re) {
            PCRE2_UCHAR msg[160];
            pcre2_get_error_message(err, msg, sizeof msg);
            diag_set(d, "", 0, 0, "invalid regular expression '%s' at offset %zu: %s", regex,
                     (size_t)off, (const char *)msg);
            return -1;
        }
        md = pcre2_match_data_create_from_pattern(re, NULL);
        if (!md) {
            pcre2_code_free(re);
            diag_set(d, s->path, 0, 0, "out of memory");
            return -1;
        }
    }
    sqlite3_stmt *st;
    int ret = -1;
    StorePlanInfo *v = NULL;
    size_t cnt = 0, cap = 0;
    if (prep(s,
             "SELECT p.name, p.deleted, "
             "  (SELECT count(*) FROM versions c WHERE c.plan_id = p.id), "
             "  l.version, l.created, l.note "
             "FROM plans p JOIN versions l ON l.plan_id = p.id "
             "  AND l.version = (SELECT max(version) FROM versions m WHERE m.plan_id = p.id) "
             "WHERE ?1 OR p.deleted = 0 ORDER BY p.name",
             &st, d, "listing plans") < 0)
        goto done;
    sqlite3_bind_int(st, 1, include_deleted);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        if (!name)
            continue;
        if (re) {
            int m = pcre2_match(re, (PCRE2_SPTR)name, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL);
            if (m == PCRE2_ERROR_NOMATCH)
                continue;
            if (m < 0) {
                PCRE2_UCHAR msg[160];
                pcre2_get_error_message(m, msg, sizeof msg);
                diag_set(d, "", 0, 0, "regular expression '%s' failed on '%s': %s", regex,
                         name, (const char *)msg);
                sqlite3_finalize(st);
                goto done;
            }
        }
        if (cnt == cap) {
            size_t nc = cap ? cap * 2 : 16;
            StorePlanInfo *nv = realloc(v, nc * sizeof *nv);
            if (!nv) {
                diag_set(d, s->path, 0, 0, "out of memory");
                sqlite3_finalize(st);
                goto done;
            }
            v = nv;
            cap = nc;
        }
        StorePlanInfo *pi = &v[cnt++];
        memset(pi, 0, sizeof *pi);
        snprintf(pi->name, sizeof pi->name, "%s", name);
        pi->deleted = sqlite3_column_int(st, 1) != 0;
        pi->versions = sqlite3_column_int(st, 2);
        pi->latest = sqlite3_column_int(st, 3);
        pi->updated = sqlite3_column_int64(st, 4);
        const char *note = (const char *)sqlite3_column_text(st, 5);
        snprintf(pi->note, sizeof pi->note, "%s", note ? note : "");
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_fail(s, rc, d, "listing plans");
        goto done;
    }
    *out = v;
    *n = (int)cnt;
    v = NULL;
    ret = 0;
done:
    free(v);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return ret;
}

static int versions_snapshot(Store *s, const char *name, StoreVersionInfo **out, int *n,
                             Diag *d);

int store_versions(Store *s, const char *name, StoreVersionInfo **out, int *n, Diag *d)
{
    *out = NULL;
    *n = 0;
    if (read_begin(s, d) < 0)
        return -1;
    return read_end(s, versions_snapshot(s, name, out, n, d));
}

static int versions_snapshot(Store *s, const char *name, StoreVersionInfo **out, int *n,
                             Diag *d)
{
    if (check_name(s, name, d) < 0)
        return -1;
    long long id;
    int r = plan_lookup(s, name, &id, NULL, d);
    if (r < 0)
        return -1;
    if (r == 0)
        return no_such_plan(s, name, d);
    sqlite3_stmt *st;
    if (prep(s, "SELECT version, created, note FROM versions WHERE plan_id = ?1 ORDER BY version",
             &st, d, "listing versions") < 0)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    StoreVersionInfo *v = NULL;
    size_t cnt = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (cnt == cap) {
            size_t nc = cap ? cap * 2 : 16;
            StoreVersionInfo *nv = realloc(v, nc * sizeof *nv);
            if (!nv) {
                free(v);
                sqlite3_finalize(st);
                diag_set(d, s->path, 0, 0, "out of memory");
                return -1;
            }
            v = nv;
            cap = nc;
        }
        StoreVersionInfo *vi = &v[cnt++];
        memset(vi, 0, sizeof *vi);
        vi->version = sqlite3_column_int(st, 0);
        vi->created = sqlite3_column_int64(st, 1);
        const char *note = (const char *)sqlite3_column_text(st, 2);
        snprintf(vi->note, sizeof vi->note, "%s", note ? note : "");
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(v);
        return db_fail(s, rc, d, "listing versions");
    }
    *out = v;
    *n = (int)cnt;
    return 0;
}

/* Run one UPDATE/DELETE on plan ?1 = id inside the open transaction; ?2,
 * when the statement has it, is `text`, or the time now when text is NULL. */
static int plan_stmt(Store *s, const char *sql, long long id, const char *text, Diag *d,
                     const char *what)
{
    sqlite3_stmt *st;
    if (prep(s, sql, &st, d, what) < 0)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_bind_parameter_count(st) >= 2) {
        if (text)
            sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
        else
            sqlite3_bind_int64(st, 2, now_s());
    }
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : db_fail(s, rc, d, what);
}

int store_rename(Store *s, const char *from, const char *to, Diag *d)
{
    if (check_name(s, from, d) < 0 || check_name(s, to, d) < 0)
        return -1;
    if (tx_begin(s, d, "renaming a plan") < 0)
        return -1;
    long long id;
    if (live_plan(s, from, &id, d) < 0)
        return tx_abort(s);
    if (strcmp(from, to) != 0) {
        if (name_free(s, to, d) < 0 ||
            plan_stmt(s, "UPDATE plans SET name = ?2 WHERE id = ?1", id, to, d,
                      "renaming a plan") < 0)
            return tx_abort(s);
    }
    return tx_commit(s, d, "renaming a plan");
}

int store_duplicate(Store *s, const char *from, const char *to, Diag *d)
{
    if (check_name(s, from, d) < 0 || check_name(s, to, d) < 0)
        return -1;
    if (tx_begin(s, d, "duplicating a plan") < 0)
        return -1;
    long long id, nid;
    if (live_plan(s, from, &id, d) < 0 || name_free(s, to, d) < 0)
        return tx_abort(s);
    sqlite3_stmt *st;
    if (prep(s, "SELECT yaml, version FROM versions WHERE plan_id = ?1 "
                "ORDER BY version DESC LIMIT 1",
             &st, d, "duplicating a plan") < 0)
        return tx_abort(s);
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        db_fail(s, rc == SQLITE_DONE ? SQLITE_CORRUPT : rc, d, "duplicating a plan");
        return tx_abort(s);
    }
    char *yaml = strdup((const char *)sqlite3_column_text(st, 0));
    int ver = sqlite3_column_int(st, 1);
    sqlite3_finalize(st);
    if (!yaml) {
        diag_set(d, s->path, 0, 0, "out of memory");
        return tx_abort(s);
    }
    char note[PLAN_NAME_LEN + 48];
    snprintf(note, sizeof note, "duplicate of %s v%d", from, ver);
    int r = insert_plan(s, to, &nid, d) < 0 || insert_version(s, nid, yaml, note, NULL, d) < 0;
    free(yaml);
    if (r)
        return tx_abort(s);
    return tx_commit(s, d, "duplicating a plan");
}

int store_delete(Store *s, const char *name, Diag *d)
{
    if (check_name(s, name, d) < 0)
        return -1;
    if (tx_begin(s, d, "deleting a plan") < 0)
        return -1;
    long long id;
    if (live_plan(s, name, &id, d) < 0 ||
        plan_stmt(s, "UPDATE plans SET deleted = 1, deleted_at = ?2 WHERE id = ?1", id, NULL, d,
                  "deleting a plan") < 0)
        return tx_abort(s);
    return tx_commit(s, d, "deleting a plan");
}

int store_undelete(Store *s, const char *name, Diag *d)
{
    if (check_name(s, name, d) < 0)
        return -1;
    if (tx_begin(s, d, "undeleting a plan") < 0)
        return -1;
    long long id;
    bool deleted = false;
    int r = plan_lookup(s, name, &id, &deleted, d);
    if (r < 0)
        return tx_abort(s);
    if (r == 0) {
        no_such_plan(s, name, d);
        return tx_abort(s);
    }
    if (!deleted) {
        diag_set(d, s->path, 0, 0, "plan '%s' is not deleted", name);
        return tx_abort(s);
    }
    if (plan_stmt(s, "UPDATE plans SET deleted = 0, deleted_at = NULL WHERE id = ?1", id, NULL,
                  d, "undeleting a plan") < 0)
        return tx_abort(s);
    return tx_commit(s, d, "undeleting a plan");
}

int store_purge(Store *s, const char *name, Diag *d)
{
    if (check_name(s, name, d) < 0)
        return -1;
    if (tx_begin(s, d, "purging a plan") < 0)
        return -1;
    long long id;
    int r = plan_lookup(s, name, &id, NULL, d);
    if (r < 0)
        return tx_abort(s);
    if (r == 0) {
        no_such_plan(s, name, d);
        return tx_abort(s);
    }
    /* versions go with it: ON DELETE CASCADE (foreign_keys is on) */
    if (plan_stmt(s, "DELETE FROM plans WHERE id = ?1", id, NULL, d, "purging a plan") < 0)
        return tx_abort(s);
    return tx_commit(s, d, "purging a plan");
}

bool store_exists(Store *s, const char *name)
{
    if (!name || !store_name_valid(name))
        return false;
    long long id;
    bool deleted = false;
    return plan_lookup(s, name, &id, &deleted, NULL) == 1 && !deleted;
}

/* ------------------------------------------------------------ prefs */

int store_pref_get(Store *s, const char *key, char *buf, size_t len)
{
    if (!key || !buf || len == 0)
        return -1;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM prefs WHERE key = ?1", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int ret = -1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        snprintf(buf, len, "%s", v ? v : "");
        ret = 0;
    }
    sqlite3_finalize(st);
    return ret;
}

int store_pref_set(Store *s, const char *key, const char *value, Diag *d)
{
    if (!key || !*key || !value) {
        diag_set(d, s->path, 0, 0, "a preference needs a key and a value");
        return -1;
    }
    if (tx_begin(s, d, "saving a preference") < 0)
        return -1;
    sqlite3_stmt *st;
    if (prep(s, "INSERT OR REPLACE INTO prefs (key, value) VALUES (?1, ?2)",
             &st, d, "saving a preference") < 0)
        return tx_abort(s);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_fail(s, rc, d, "saving a preference");
        return tx_abort(s);
    }
    return tx_commit(s, d, "saving a preference");
}

/* ------------------------------------------------------------ sweeps */

/* A store opened read-only at an older schema has no sweep tables. */
static bool has_sweeps(const Store *s)
{
    return s->schema >= 3;
}

static int check_sweep_name(const Store *s, const char *name, Diag *d)
{
    if (name && store_name_valid(name))
        return 0;
    diag_set(d, s->path, 0, 0,
             "invalid sweep name '%s': expected 1-64 characters from A-Z a-z 0-9 . _ - and "
             "space",
             name ? name : "(null)");
    return -1;
}

/* The sweep's id: 1 found (fingerprint copied to fp when not NULL), 0 absent,
 * -1 error. */
static int sweep_lookup(Store *s, long long plan_id, const char *name, long long *id,
                        char fp[17], Diag *d)
{
    sqlite3_stmt *st;
    if (prep(s, "SELECT id, fingerprint FROM sweeps WHERE plan_id = ?1 AND name = ?2", &st, d,
             "looking up a sweep") < 0)
        return -1;
    sqlite3_bind_int64(st, 1, plan_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        if (fp) {
            const char *f = (const char *)sqlite3_column_text(st, 1);
            snprintf(fp, 17, "%s", f ? f : "");
        }
        sqlite3_finalize(st);
        return 1;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : db_fail(s, rc, d, "looking up a sweep");
}

/* A live plan's sweep id, or -1 with d set ("no sweep named …"). */
static int find_sweep(Store *s, const char *plan, const char *name, long long *id, Diag *d)
{
    long long pid;
    if (!has_sweeps(s)) {
        diag_set(d, s->path, 0, 0, "no sweep named '%s' of plan '%s' (the store predates sweeps)",
                 name, plan);
        return -1;
    }
    if (check_name(s, plan, d) < 0 || live_plan(s, plan, &pid, d) < 0)
        return -1;
    int r = sweep_lookup(s, pid, name, id, NULL, d);
    if (r == 0)
        diag_set(d, s->path, 0, 0, "plan '%s' has no sweep named '%s'", plan, name);
    return r == 1 ? 0 : -1;
}

static int put_rows(Store *s, long long sid, const StoreSweepRow *rows, long long n,
                    StoreSweepPut *res, Diag *d)
{
    sqlite3_stmt *ins = NULL, *get = NULL;
    int ret = -1;
    if (prep(s,
             "INSERT INTO sweep_points (sweep_id, idx, inputs, outputs, error) "
             "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (sweep_id, idx) DO NOTHING",
             &ins, d, "storing sweep points") < 0 ||
        prep(s, "SELECT inputs, outputs, error FROM sweep_points WHERE sweep_id = ?1 AND idx = ?2",
             &get, d, "storing sweep points") < 0)
        goto done;
    for (long long i = 0; i < n; i++) {
        const StoreSweepRow *r = &rows[i];
        sqlite3_reset(ins);
        sqlite3_bind_int64(ins, 1, sid);
        sqlite3_bind_int64(ins, 2, r->idx);
        sqlite3_bind_text(ins, 3, r->inputs, -1, SQLITE_STATIC);
        sqlite3_bind_text(ins, 4, r->outputs, -1, SQLITE_STATIC);
        sqlite3_bind_text(ins, 5, r->error ? r->error : "", -1, SQLITE_STATIC);
        int rc = sqlite3_step(ins);
        if (rc != SQLITE_DONE) {
            db_fail(s, rc, d, "storing sweep points");
            goto done;
        }
        if (sqlite3_changes(s->db) == 1) {
            res->added++;
            continue;
        }
        /* already there: the same row again, or a different one */
        sqlite3_reset(get);
        sqlite3_bind_int64(get, 1, sid);
        sqlite3_bind_int64(get, 2, r->idx);
        if ((rc = sqlite3_step(get)) != SQLITE_ROW) {
            db_fail(s, rc == SQLITE_DONE ? SQLITE_ERROR : rc, d, "storing sweep points");
            goto done;
        }
        const char *in = (const char *)sqlite3_column_text(get, 0);
        const char *out = (const char *)sqlite3_column_text(get, 1);
        const char *err = (const char *)sqlite3_column_text(get, 2);
        if (in && out && err && strcmp(in, r->inputs) == 0 && strcmp(out, r->outputs) == 0 &&
            strcmp(err, r->error ? r->error : "") == 0) {
            res->same++;
        } else {
            if (res->conflicts++ == 0)
                res->first_conflict = r->idx;
        }
    }
    ret = 0;
done:
    sqlite3_finalize(ins);
    sqlite3_finalize(get);
    return ret;
}

int store_sweep_put(Store *s, const char *plan, const char *name, int plan_version,
                    const char *fingerprint, const char *spec_json, long long points,
                    const StoreSweepRow *rows, long long n, StoreSweepPut *res, Diag *d)
{
    memset(res, 0, sizeof *res);
    res->first_conflict = -1;
    if (check_name(s, plan, d) < 0 || check_sweep_name(s, name, d) < 0)
        return -1;
    if (tx_begin(s, d, "storing a sweep") < 0)
        return -1;
    long long pid, sid;
    if (live_plan(s, plan, &pid, d) < 0)
        return tx_abort(s);
    char fp[17];
    int r = sweep_lookup(s, pid, name, &sid, fp, d);
    if (r < 0)
        return tx_abort(s);
    if (r == 1 && strcmp(fp, fingerprint) != 0) {
        diag_set(d, s->path, 0, 0,
                 "plan '%s' already has a sweep named '%s' of another plan version or other keys "
                 "(fingerprint %s, not %s): give another --name, or delete it first "
                 "(gpuplan sweep delete '%s' '%s'); nothing was changed",
                 plan, name, fp, fingerprint, plan, name);
        return tx_abort(s);
    }
    if (r == 0) {
        sqlite3_stmt *st;
        if (prep(s,
                 "INSERT INTO sweeps (plan_id, name, plan_version, fingerprint, spec, points, "
                 "created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                 &st, d, "storing a sweep") < 0)
            return tx_abort(s);
        sqlite3_bind_int64(st, 1, pid);
        sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 3, plan_version);
        sqlite3_bind_text(st, 4, fingerprint, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, spec_json, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 6, points);
        sqlite3_bind_int64(st, 7, now_s());
        int rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) {
            db_fail(s, rc, d, "storing a sweep");
            return tx_abort(s);
        }
        sid = sqlite3_last_insert_rowid(s->db);
    }
    if (put_rows(s, sid, rows, n, res, d) < 0)
        return tx_abort(s);
    return tx_commit(s, d, "storing a sweep");
}

static void sweep_info_row(sqlite3_stmt *st, StoreSweepInfo *x)
{
    memset(x, 0, sizeof *x);
    const char *t;
    snprintf(x->plan, sizeof x->plan, "%s", (t = (const char *)sqlite3_column_text(st, 0)) ? t : "");
    snprintf(x->name, sizeof x->name, "%s", (t = (const char *)sqlite3_column_text(st, 1)) ? t : "");
    x->plan_version = sqlite3_column_int(st, 2);
    snprintf(x->fingerprint, sizeof x->fingerprint, "%s",
             (t = (const char *)sqlite3_column_text(st, 3)) ? t : "");
    x->points = sqlite3_column_int64(st, 4);
    x->stored = sqlite3_column_int64(st, 5);
    x->created = sqlite3_column_int64(st, 6);
}

#define SWEEP_INFO_SQL                                                                        \
    "SELECT p.name, w.name, w.plan_version, w.fingerprint, w.points, "                         \
    "  (SELECT count(*) FROM sweep_points q WHERE q.sweep_id = w.id), w.created, w.spec "      \
    "FROM sweeps w JOIN plans p ON p.id = w.plan_id WHERE p.deleted = 0 "

int store_sweep_list(Store *s, const char *plan, StoreSweepInfo **out, int *n, Diag *d)
{
    *out = NULL;
    *n = 0;
    if (!has_sweeps(s))
        return 0;
    sqlite3_stmt *st;
    if (prep(s, SWEEP_INFO_SQL "AND (?1 IS NULL OR p.name = ?1) ORDER BY p.name, w.name", &st,
             d, "listing sweeps") < 0)
        return -1;
    if (plan)
        sqlite3_bind_text(st, 1, plan, -1, SQLITE_STATIC);
    StoreSweepInfo *v = NULL;
    size_t cnt = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (cnt == cap) {
            size_t nc = cap ? cap * 2 : 8;
            StoreSweepInfo *nv = realloc(v, nc * sizeof *nv);
            if (!nv) {
                rc = SQLITE_NOMEM;
                break;
            }
            v = nv;
            cap = nc;
        }
        sweep_info_row(st, &v[cnt++]);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(v);
        return db_fail(s, rc, d, "listing sweeps");
    }
    *out = v;
    *n = (int)cnt;
    return 0;
}

int store_sweep_get(Store *s, const char *plan, const char *name, StoreSweepInfo *info,
                    char **spec_json, Diag *d)
{
    long long id;
    if (spec_json)
        *spec_json = NULL;
    if (read_begin(s, d) < 0)
        return -1;
    if (find_sweep(s, plan, name, &id, d) < 0)
        return read_end(s, -1);
    sqlite3_stmt *st;
    if (prep(s, SWEEP_INFO_SQL "AND w.id = ?1", &st, d, "reading a sweep") < 0)
        return read_end(s, -1);
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st), ret = 0;
    if (rc == SQLITE_ROW) {
        sweep_info_row(st, info);
        const char *spec = (const char *)sqlite3_column_text(st, 7);
        if (spec_json && !(*spec_json = strdup(spec ? spec : "")))
            rc = SQLITE_NOMEM;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        ret = db_fail(s, rc == SQLITE_DONE ? SQLITE_ERROR : rc, d, "reading a sweep");
    return read_end(s, ret);
}

int store_sweep_rows(Store *s, const char *plan, const char *name,
                     int (*fn)(const StoreSweepRow *row, void *ctx), void *ctx, Diag *d)
{
    long long id;
    if (read_begin(s, d) < 0)
        return -1;
    if (find_sweep(s, plan, name, &id, d) < 0)
        return read_end(s, -1);
    sqlite3_stmt *st;
    if (prep(s,
             "SELECT idx, inputs, outputs, error FROM sweep_points WHERE sweep_id = ?1 "
             "ORDER BY idx",
             &st, d, "reading sweep points") < 0)
        return read_end(s, -1);
    sqlite3_bind_int64(st, 1, id);
    int rc, ret = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        StoreSweepRow r = {
            .idx = sqlite3_column_int64(st, 0),
            .inputs = (const char *)sqlite3_column_text(st, 1),
            .outputs = (const char *)sqlite3_column_text(st, 2),
            .error = (const char *)sqlite3_column_text(st, 3),
        };
        if (!r.inputs || !r.outputs || !r.error)
            continue;
        if ((ret = fn(&r, ctx)) != 0)
            break;
    }
    if (ret == 0 && rc != SQLITE_DONE)
        ret = db_fail(s, rc, d, "reading sweep points");
    sqlite3_finalize(st);
    return read_end(s, ret);
}

int store_sweep_delete(Store *s, const char *plan, const char *name, Diag *d)
{
    if (tx_begin(s, d, "deleting a sweep") < 0)
        return -1;
    long long id;
    if (find_sweep(s, plan, name, &id, d) < 0)
        return tx_abort(s);
    sqlite3_stmt *st;
    if (prep(s, "DELETE FROM sweeps WHERE id = ?1", &st, d, "deleting a sweep") < 0)
        return tx_abort(s);
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_fail(s, rc, d, "deleting a sweep");
        return tx_abort(s);
    }
    return tx_commit(s, d, "deleting a sweep");
}
