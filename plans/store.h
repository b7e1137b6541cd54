/* plans/store.h — the SQLite plan store (ARCHITECTURE.md "Persistence").
 * A plan is stored as canonical YAML; every save is a new version with a
 * timestamp and a note; deletes are soft until purged.  All functions return
 * 0 on success, -1 with d set on failure, and leave the store unchanged on
 * failure (one transaction each). */
#ifndef GPUPLAN_PLANS_STORE_H
#define GPUPLAN_PLANS_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "plan.h"

typedef struct Store Store;

typedef struct {
    char name[PLAN_NAME_LEN];
    int versions;            /* number of versions */
    int latest;              /* latest version number */
    int64_t updated;         /* unix seconds of the latest version */
    char note[256];          /* note of the latest version */
    bool deleted;
} StorePlanInfo;

typedef struct {
    int version;
    int64_t created;
    char note[256];
} StoreVersionInfo;

typedef struct {
    char name[PLAN_NAME_LEN];
    int base_version;        /* the stored version it was edited from, 0 = none */
    int64_t saved;           /* unix seconds */
} StoreDraftInfo;

/* Open (creating if needed) the store at path.  A new store is seeded with
 * every plan in seed_dir (may be NULL).  Checks integrity and schema; a
 * corrupt or newer-schema file is reported and never modified.  readonly
 * opens without writing (list/show/eval). */
Store *store_open(const char *path, const char *seed_dir, bool readonly, Diag *d);
void store_close(Store *s);

/* The schema this build writes (PRAGMA user_version); older stores are
 * migrated on a read-write open, newer ones refused. */
#define STORE_SCHEMA_VERSION 3
/* How long a call waits for another process's write transaction. */
#define STORE_BUSY_TIMEOUT_MS 5000

/* store_open with the lock wait given in milliseconds (store_open uses
 * STORE_BUSY_TIMEOUT_MS).
 *
 * What it does, in order: an existing non-empty file is first opened
 * read-only and checked (PRAGMA quick_check, application_id, user_version);
 * a file that is not SQLite, is corrupt, belongs to another program, has a
 * newer schema, or stays locked beyond busy_ms is reported (d names the path)
 * and never written.  A read-write open then also refuses a file or directory
 * without write permission (mode bits are honoured even for root).  Only then
 * is the file opened for writing: WAL journal, foreign keys, migrations in one
 * BEGIN IMMEDIATE transaction; a store created here (file absent or empty,
 * or a schema-less version-0 database) is seeded in that same transaction
 * with plan_to_yaml(plan_parse(F)) of every seed_dir/ *.yaml F, in name
 * order, as version 1 with note "demo plan".  A seed file that fails does not
 * stop the others: it becomes a warning (store_warnings).  A readonly open of
 * an absent, empty or version-0 store is an error (nothing to read); an
 * older schema is read as it is (what it lacks, drafts before 2 and sweeps before 3,
 * reads as empty). */
Store *store_open_ex(const char *path, const char *seed_dir, bool readonly, int busy_ms,
                     Diag *d);
void store_set_busy_timeout(Store *s, int ms);
const char *store_path(const Store *s);
/* Problems store_open met that did not stop it (seed files that failed to
 * read or parse, duplicate seed names): *out points into the store, valid
 * until store_close.  Returns the count. */
size_t store_warnings(const Store *s, const Diag **out);
/* True when d reports that another process held the lock past the busy
 * timeout (a second attempt would only wait again). */
bool store_diag_busy(const Diag *d);
/* A plan name is [A-Za-z0-9._ -]{1,64} (PLAN-FORMAT.md). */
bool store_name_valid(const char *name);

/* Save yaml (canonical plan text) as a new version of plan `name`.  Sets
 * *version_out when not NULL.  Un-deletes a soft-deleted plan. */
int store_save_version(Store *s, const char *name, const char *yaml, const char *note,
                       int *version_out, Diag *d);
/* Load a version (0 = latest) as malloc'd YAML text (caller frees; NULL on
 * failure).  A soft-deleted plan does not load (undelete it first). */
int store_load(Store *s, const char *name, int version, char **yaml_out, int *version_out,
               Diag *d);
/* List plans whose name matches regex (PCRE2; NULL or "" = all).  include_deleted
 * lists soft-deleted ones too.  *out is malloc'd (caller frees). */
int store_list(Store *s, const char *regex, bool include_deleted, StorePlanInfo **out,
               int *n, Diag *d);
int store_versions(Store *s, const char *name, StoreVersionInfo **out, int *n, Diag *d);
/* The store's name is authoritative: rename does not rewrite history, so
 * the `name:` inside stored YAML is the name the plan had when saved, and a
 * duplicate's version 1 is the source's latest YAML unchanged.  Rename and
 * duplicate refuse a target name that is taken, by a live or a deleted plan
 * (purge the deleted one first); neither works on a deleted source. */
int store_rename(Store *s, const char *from, const char *to, Diag *d);
int store_duplicate(Store *s, const char *from, const char *to, Diag *d);
int store_delete(Store *s, const char *name, Diag *d);   /* soft */
int store_undelete(Store *s, const char *name, Diag *d);
int store_purge(Store *s, const char *name, Diag *d);    /* for good; deleted or not */
/* True when a plan that is not deleted has this name. */
bool store_exists(Store *s, const char *name);
/* A small key/value table for preferences (theme, last plan).  get: 0 with
 * the value in buf (truncated to len-1 bytes, NUL-terminated), -1 when the
 * key is absent or on error. */
/* Drafts: the dashboard's unsaved working copy of a plan, one per plan
 * name, kept apart from the versions (a draft is never a version; saving
 * one is the user's choice).  save replaces the plan's draft; load returns
 * 0 with the text (caller frees), 1 when there is none, -1 on error; list
 * is newest first (caller frees *out); drop removes it (none is fine).
 * A store still at schema 1 opened read-only has no drafts. */
int store_draft_save(Store *s, const char *name, int base_version, const char *yaml, Diag *d);
int store_draft_load(Store *s, const char *name, char **yaml_out, int *base_version,
                     int64_t *saved, Diag *d);
int store_draft_list(Store *s, StoreDraftInfo **out, int *n, Diag *d);
int store_draft_drop(Store *s, const char *name, Diag *d);

int store_pref_get(Store *s, const char *key, char *buf, size_t len);
int store_pref_set(Store *s, const char *key, const char *value, Diag *d);

/* ---- sweeps (plans/sweep.h): named, under a plan, one row per point */

typedef struct {
    char plan[PLAN_NAME_LEN];
    char name[PLAN_NAME_LEN];
    int plan_version;           /* the version swept */
    char fingerprint[17];
    long long points;           /* points of the sweep */
    long long stored;           /* rows stored so far (< points: shards missing) */
    int64_t created;
} StoreSweepInfo;

typedef struct {
    long long idx;
    const char *inputs;         /* JSON array */
    const char *outputs;        /* JSON object */
    const char *error;          /* "" = evaluated */
} StoreSweepRow;

/* Rows offered by store_sweep_put and what became of them. */
typedef struct {
    long long added;            /* new rows */
    long long same;             /* already stored with identical text: not counted twice */
    long long conflicts;        /* already stored with different text: left as stored */
    long long first_conflict;   /* idx of the first conflict, -1 = none */
} StoreSweepPut;

/* Store rows of sweep `name` of plan `plan` (a live plan) in one
 * transaction, creating the sweep when absent.  A sweep of that name with
 * another fingerprint is refused (d says so; nothing changes).  Rows are
 * keyed by idx: offering a stored idx again never adds a row (*res counts
 * it as same or conflict).  rows may be empty (n = 0). */
int store_sweep_put(Store *s, const char *plan, const char *name, int plan_version,
                    const char *fingerprint, const char *spec_json, long long points,
                    const StoreSweepRow *rows, long long n, StoreSweepPut *res, Diag *d);
/* Sweeps of the live plan `plan` (NULL = of every live plan), by plan then
 * name; *out malloc'd (caller frees; NULL when none). */
int store_sweep_list(Store *s, const char *plan, StoreSweepInfo **out, int *n, Diag *d);
/* One sweep's info and spec (malloc'd JSON text, caller frees). */
int store_sweep_get(Store *s, const char *plan, const char *name, StoreSweepInfo *info,
                    char **spec_json, Diag *d);
/* Call fn for every stored row of the sweep in idx order (one read
 * snapshot); fn returning non-zero stops with that value.  Returns 0, -1 with
 * d set, or fn's value. */
int store_sweep_rows(Store *s, const char *plan, const char *name,
                     int (*fn)(const StoreSweepRow *row, void *ctx), void *ctx, Diag *d);
/* Delete a sweep and its rows. */
int store_sweep_delete(Store *s, const char *plan, const char *name, Diag *d);

#endif
