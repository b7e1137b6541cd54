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

/* Open (creating if needed) the store at path.  A new store is seeded with
 * every plan in seed_dir (may be NULL).  Checks integrity and schema; a
 * corrupt or newer-schema file is reported and never modified.  readonly
 * opens without writing (list/show/eval). */
Store *store_open(const char *path, const char *seed_dir, bool readonly, Diag *d);
void store_close(Store *s);

/* Save yaml (canonical plan text) as a new version of plan `name`.  Sets
 * *version_out when not NULL.  Un-deletes a soft-deleted plan. */
int store_save_version(Store *s, const char *name, const char *yaml, const char *note,
                       int *version_out, Diag *d);
/* Load a version (0 = latest) as malloc'd YAML text (caller frees). */
int store_load(Store *s, const char *name, int version, char **yaml_out, int *version_out,
               Diag *d);
/* List plans whose name matches regex (PCRE2; NULL or "" = all).  include_deleted
 * lists soft-deleted ones too.  *out is malloc'd (caller frees). */
int store_list(Store *s, const char *regex, bool include_deleted, StorePlanInfo **out,
               int *n, Diag *d);
int store_versions(Store *s, const char *name, StoreVersionInfo **out, int *n, Diag *d);
int store_rename(Store *s, const char *from, const char *to, Diag *d);
int store_duplicate(Store *s, const char *from, const char *to, Diag *d);
int store_delete(Store *s, const char *name, Diag *d);   /* soft */
int store_undelete(Store *s, const char *name, Diag *d);
int store_purge(Store *s, const char *name, Diag *d);    /* for good */
bool store_exists(Store *s, const char *name);
/* A small key/value table for preferences (theme, last plan). */
int store_pref_get(Store *s, const char *key, char *buf, size_t len);
int store_pref_set(Store *s, const char *key, const char *value, Diag *d);

#endif
