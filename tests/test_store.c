/* tests/test_store.c — the SQLite plan store (plans/store.c). */
#include "config.h"

#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "store.h"
#include "yaml_plan.h"

/* ------------------------------------------------------------ helpers */

static char g_tmp[1024];

static void make_tmp(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(g_tmp, sizeof g_tmp, "%s/gpuplan-store-XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(g_tmp));
}

/* Remove a tree, restoring write permission first (tests chmod things). */
static void rm_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        chmod(path, 0755);
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char sub[4200];
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                rm_tree(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void rm_tmp(void) { rm_tree(g_tmp); }

static const char *tmp_path(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", g_tmp, name);
    return buf;
}

static const char *srcdir(void)
{
    const char *s = getenv("GPUPLAN_SRCDIR");
    return s && *s ? s : GPUPLAN_SRCDIR;
}

static const char *seed_dir(char *buf, size_t len)
{
    snprintf(buf, len, "%s/tests/data/seed", srcdir());
    return buf;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    char *err = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
    ck_assert_msg(rc == SQLITE_OK, "%s: %s", sql, err ? err : "?");
    sqlite3_free(err);
    ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
}

static long long raw_int(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    long long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* A closed store at `path` holding plan "p" with `n` versions. */
static void make_store(const char *path, int n)
{
    Diag d = {0};
    Store *s = store_open(path, NULL, false, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(store_save_version(s, "p", "format: 1\nname: p\n", "v", NULL, &d), 0);
    store_close(s);
}

/* The file's bytes must not change across `call`. */
#define ASSERT_UNTOUCHED(path, call)                                                               \
    do {                                                                                           \
        size_t len0_, len1_;                                                                       \
        char *b0_ = slurp(path, &len0_);                                                           \
        call;                                                                                      \
        char *b1_ = slurp(path, &len1_);                                                           \
        ck_assert_uint_eq(len0_, len1_);                                                           \
        ck_assert_msg(memcmp(b0_, b1_, len0_) == 0, "%s was modified", path);                      \
        free(b0_);                                                                                 \
        free(b1_);                                                                                 \
    } while (0)

static int count_yaml(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        n += l > 5 && e->d_name[0] != '.' && strcmp(e->d_name + l - 5, ".yaml") == 0;
    }
    closedir(d);
    return n;
}

/* -------------------------------------------------------------- seeding */

START_TEST(seeds_a_new_store_and_reports_bad_seed_files)
{
    make_tmp();
    char db[4096], seed[4096];
    Diag d = {0};
    Store *s = store_open(tmp_path("plans.db", db, sizeof db), seed_dir(seed, sizeof seed), false,
                          &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    StorePlanInfo *pi;
    int n;
    ck_assert_int_eq(store_list(s, NULL, true, &pi, &n, &d), 0);
    ck_assert_int_eq(n, 2); /* alpha-pool.yaml, beta-fifo.yaml; broken.yaml fails */
    ck_assert_str_eq(pi[0].name, "alpha-pool");
    ck_assert_str_eq(pi[1].name, "beta fifo");
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(pi[i].versions, 1);
        ck_assert_int_eq(pi[i].latest, 1);
        ck_assert_str_eq(pi[i].note, "demo plan");
        ck_assert(!pi[i].deleted);
    }
    free(pi);
    const Diag *w;
    ck_assert_uint_eq(store_warnings(s, &w), 1);
    ck_assert_ptr_nonnull(strstr(w[0].file, "broken.yaml"));
    ck_assert_ptr_nonnull(strstr(w[0].msg, "no_such_key"));

    /* stored text = plan_to_yaml(plan_parse(file)) */
    char path[4200];
    snprintf(path, sizeof path, "%s/alpha-pool.yaml", seed);
    Plan *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(plan_load_file(path, NULL, p, &d), 0);
    char *want = plan_to_yaml(p);
    char *got;
    int ver;
    ck_assert_int_eq(store_load(s, "alpha-pool", 0, &got, &ver, &d), 0);
    ck_assert_int_eq(ver, 1);
    ck_assert_str_eq(got, want);
    free(got);
    free(want);
    free(p);
    store_close(s);

    /* reopening does not seed again */
    s = store_open(db, seed, false, &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(store_warnings(s, NULL), 0);
    ck_assert_int_eq(store_list(s, NULL, true, &pi, &n, &d), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(pi[0].versions, 1);
    free(pi);
    store_close(s);
    rm_tmp();
}
END_TEST

START_TEST(seeds_every_shipped_example)
{
    char ex[4096];
    const char *dd = getenv("GPUPLAN_DATADIR");
    snprintf(ex, sizeof ex, "%s/examples", dd && *dd ? dd : GPUPLAN_SRCDIR "/data");
    int files = count_yaml(ex);
    ck_assert_int_gt(files, 0); /* registered only when there are examples */
    make_tmp();
    char db[4096];
    Diag d = {0};
    Store *s = store_open(tmp_path("plans.db", db, sizeof db), ex, false, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    const Diag *w;
    size_t nw = store_warnings(s, &w);
    ck_assert_msg(nw == 0, "%s: %s", nw ? w[0].file : "", nw ? w[0].msg : "");
    StorePlanInfo *pi;
    int n;
    ck_assert_int_eq(store_list(s, "", false, &pi, &n, &d), 0);
    ck_assert_int_eq(n, files);
    free(pi);
    store_close(s);
    rm_tmp();
}
END_TEST

/* Under UBSan this caught qsort(NULL, 0, ...) on a folder with no plans. */
START_TEST(an_empty_seed_folder_makes_an_empty_store)
{
    make_tmp();
    char db[4096], seed[4096];
    tmp_path("seed", seed, sizeof seed);
    ck_assert_int_eq(mkdir(seed, 0755), 0);
    Diag d = {0};
    Store *s = store_open(tmp_path("plans.db", db, sizeof db), seed, false, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    StorePlanInfo *pi;
    int n = -1;
    ck_assert_int_eq(store_list(s, NULL, false, &pi, &n, &d), 0);
    ck_assert_int_eq(n, 0);
    free(pi);
    store_close(s);
    rm_tmp();
}
END_TEST

/* ------------------------------------------------------------- versions */

START_TEST(saves_every_version_with_note_and_monotone_time)
{
    make_tmp();
    char db[4096];
    Diag d = {0};
    Store *s = store_open(tmp_path("plans.db", db, sizeof db), NULL, false, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    int64_t t0 = (int64_t)time(NULL);
    const char *texts[] = {"format: 1\nname: a\n", "format: 1\nname: a\n# two\n",
                           "format: 1\nname: a\n"};
    for (int i = 0; i < 3; i++) {
        char note[32];
        snprintf(note, sizeof note, "note %d", i + 1);
        int v = 0;
        ck_assert_int_eq(store_save_version(s, "a", texts[i], note, &v, &d), 0);
        ck_assert_int_eq(v, i + 1);
    }
    int64_t t1 = (int64_t)time(NULL);
    StoreVersionInfo *vi;
    int n;
    ck_assert_int_eq(store_versions(s, "a", &vi, &n, &d), 0);
    ck_assert_int_eq(n, 3);
    for (int i = 0; i < 3; i++) {
        char note[32];
        snprintf(note, sizeof note, "note %d", i + 1);
        ck_assert_int_eq(vi[i].version, i + 1);
        ck_assert_str_eq(vi[i].note, note);
        ck_assert(vi[i].created >= t0 && vi[i].created <= t1);
        if (i > 0)
            ck_assert(vi[i].created >= vi[i - 1].created);
    }
    free(vi);
    /* nothing overwritten: every version loads as saved */
    for (int i = 0; i < 3; i++) {
        char *y;
        int got;
        ck_assert_int_eq(store_load(s, "a", i + 1, &y, &got, &d), 0);
        ck_assert_int_eq(got, i + 1);
        ck_assert_str_eq(y, texts[i]);
        free(y);
    }
    char *y;
    int got = 0;
    ck_assert_int_eq(store_load(s, "a", 0, &y, &got, &d), 0);
    ck_assert_int_eq(got, 3);
    free(y);
    StorePlanInfo *pi;
    ck_assert_int_eq(store_list(s, NULL, false, &pi, &n, &d), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(pi[0].versions, 3);
    ck_assert_int_eq(pi[0].latest, 3);
    ck_assert_str_eq(pi[0].note, "note 3");
    ck_assert(pi[0].updated >= t0 && pi[0].updated <= t1);
    free(pi);
    store_close(s);

    /* a clock stepped back (here: the latest version dated a day ahead)
     * does not make the next version older than the last */
    raw_exec(db, "UPDATE versions SET created = created + 86400 WHERE version = 3");
    s = store_open(db, NULL, false, &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(store_save_version(s, "a", "x\n", "after", NULL, &d), 0);
    ck_assert_int_eq(store_versions(s, "a", &vi, &n, &d), 0);
    ck_assert_int_eq(n, 4);
    ck_assert(vi[2].created >= t0 + 86400);
    ck_assert_int_eq(vi[3].created, vi[2].created);
    free(vi);
    store_close(s);
    rm_tmp();
}
END_TEST

START_TEST(explains_missing_plans_versions_and_bad_names)
{
    make_tmp();
    char db[4096];
    Diag d = {0};
    Store *s = store_open(tmp_path("plans.db", db, sizeof db), NULL, false, &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(store_save_version(s, "frontier-2027", "x: 1\n", "", NULL, &d), 0);
    char *y = (char *)1;
    ck_assert_int_eq(store_load(s, "frontier-2072", 0, &y, NULL, &d), -1);
    ck_assert_ptr_null(y);
    ck_assert_str_eq(d.file, db);
    ck_assert_ptr_nonnull(strstr(d.msg, "no plan named 'frontier-2072'"));
    ck_assert_ptr_nonnull(strstr(d.msg, "did you mean 'frontier-2027'"));
    ck_assert_int_eq(store_load(s, "frontier-2027", 7, &y, NULL, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "has no version 7"));

    char long_name[80];
    memset(long_name, 'x', 65);
    long_name[65] = '\0';
    const char *bad[] = {"", "a/b", "tab\tname", long_name, "ünï"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(store_save_version(s, bad[i], "x: 1\n", "", NULL, &d), -1);
        ck_assert_ptr_nonnull(strstr(d.msg, "invalid plan name"));
        ck_assert(!store_name_valid(bad[i]));
    }
    long_name[64] = '\0';
    ck_assert(store_name_valid(long_name));
    ck_assert(store_name_valid("A-z 0.9_"));
    ck_assert_int_eq(store_save_version(s, long_name, "x: 1\n", "", NULL, &d), 0);
    StorePlanInfo *pi;
    int n;
    ck_assert_int_eq(store_list(s, NULL, true, &pi, &n, &d), 0);
    ck_assert_int_eq(n, 2);
    free(pi);
    store_close(s);
    rm_tmp();
}
END_TEST

/* ----------------------------------------------- rename … purge, list */

START_TEST(renames_duplicates_deletes_undeletes_and_purges)
{
    make_tmp();
    char db[4096];
    Diag d = {0};
    Store *s = store_open(tmp_path("plans.db", db, sizeof db), NULL, false, &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(store_save_version(s, "a", "v1\n", "first", NULL, &d), 0);
    ck_assert_int_eq(store_save_version(s, "a", "v2\n", "second", NULL, &d), 0);
    ck_assert_int_eq(store_save_version(s, "b", "b1\n", "", NULL, &d), 0);

    /* rename keeps every version; the old name is gone */
    ck_assert_int_eq(store_rename(s, "a", "b", &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "already exists"));
    ck_assert_int_eq(store_rename(s, "a", "alpha", &d), 0);
    ck_assert(!store_exists(s, "a"));
    ck_assert(store_exists(s, "alpha"));
    StoreVersionInfo *vi;
    int n;
    ck_assert_int_eq(store_versions(s, "alpha", &vi, &n, &d), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(vi[1].note, "second");
    free(vi);

    /* duplicate: the latest version becomes version 1 of the copy */
    ck_assert_int_eq(store_duplicate(s, "alpha", "alpha-copy", &d), 0);
    char *y;
    int v;
    ck_assert_int_eq(store_load(s, "alpha-copy", 0, &y, &v, &d), 0);
    ck_assert_int_eq(v, 1);
    ck_assert_str_eq(y, "v2\n");
    free(y);
    ck_assert_int_eq(store_versions(s, "alpha-copy", &vi, &n, &d), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(vi[0].note, "duplicate of alpha v2");
    free(vi);
    ck_assert_int_eq(store_duplicate(s, "alpha", "b", &d), -1);
    ck_assert_int_eq(store_duplicate(s, "nope", "c", &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "no plan named 'nope'"));

    /* soft delete hides the plan but keeps it */
    ck_assert_int_eq(store_delete(s, "alpha", &d), 0);
    ck_assert(!store_exists(s, "alpha"));
    ck_assert_int_eq(store_load(s, "alpha", 0, &y, &v, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "is deleted"));
    ck_assert_int_eq(store_delete(s, "alpha", &d), -1);
    StorePlanInfo *pi;
    ck_assert_int_eq(store_list(s, NULL, false, &pi, &n, &d), 0);
    ck_assert_int_eq(n, 2); /* alpha-copy, b */
    ck_assert_str_eq(pi[0].name, "alpha-copy");
    free(pi);
    ck_assert_int_eq(store_list(s, NULL, true, &pi, &n, &d), 0);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(pi[0].name, "alpha");
    ck_assert(pi[0].deleted);
    ck_assert_int_eq(pi[0].versions, 2);
    free(pi);
    /* a deleted name is still taken, and cannot be renamed or copied */
    ck_assert_int_eq(store_rename(s, "b", "alpha", &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "deleted plan is named 'alpha'"));
    ck_assert_int_eq(store_rename(s, "alpha", "gamma", &d), -1);
    ck_assert_int_eq(store_duplicate(s, "alpha", "gamma", &d), -1);

    /* undelete brings it back whole */
    ck_assert_int_eq(store_undelete(s, "alpha", &d), 0);
    ck_assert_int_eq(store_undelete(s, "alpha", &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "not deleted"));
    ck_assert_int_eq(store_load(s, "alpha", 1, &y, &v, &d), 0);
    ck_assert_str_eq(y, "v1\n");
    free(y);

    /* saving to a deleted plan un-deletes it with a new version */
    ck_assert_int_eq(store_delete(s, "b", &d), 0);
    ck_assert_int_eq(store_save_version(s, "b", "b2\n", "back", &v, &d), 0);
    ck_assert_int_eq(v, 2);
    ck_assert(store_exists(s, "b"));

    /* purge removes the plan and its versions for good */
    ck_assert_int_eq(store_purge(s, "alpha", &d), 0);
    ck_assert_int_eq(store_undelete(s, "alpha", &d), -1);
    ck_assert_int_eq(store_versions(s, "alpha", &vi, &n, &d), -1);
    ck_assert_int_eq(store_purge(s, "alpha", &d), -1);
    ck_assert_int_eq(store_save_version(s, "alpha", "new\n", "", &v, &d), 0);
    ck_assert_int_eq(v, 1);
    store_close(s);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM versions"), 1 + 1 + 2);
    rm_tmp();
}
END_TEST

START_TEST(lists_by_regex_and_rejects_an_invalid_one)
{
    make_tmp();
    char db[4096];
    Diag d = {0};
    Store *s = store_open(tmp_path("plans.db", db, sizeof db), NULL, false, &d);
    ck_assert_ptr_nonnull(s);
    const char *names[] = {"frontier-2027", "frontier-2028", "moe-gb200", "research a100"};
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(store_save_version(s, names[i], "x\n", "", NULL, &d), 0);
    StorePlanInfo *pi;
    int n;
    ck_assert_int_eq(store_list(s, "^frontier-20(27|28)$", false, &pi, &n, &d), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(pi[1].name, "frontier-2028");
    free(pi);
    ck_assert_int_eq(store_list(s, "00", false, &pi, &n, &d), 0); /* unanchored */
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(pi[0].name, "moe-gb200");
    ck_assert_str_eq(pi[1].name, "research a100");
    free(pi);
    ck_assert_int_eq(store_list(s, "zzz", false, &pi, &n, &d), 0);
    ck_assert_int_eq(n, 0);
    free(pi);
    pi = (StorePlanInfo *)1;
    ck_assert_int_eq(store_list(s, "frontier-(", false, &pi, &n, &d), -1);
    ck_assert_ptr_null(pi);
    ck_assert_ptr_nonnull(strstr(d.msg, "invalid regular expression 'frontier-('"));
    ck_assert_ptr_nonnull(strstr(d.msg, "at offset 10"));
    ck_assert_ptr_nonnull(strstr(d.msg, "missing closing parenthesis"));
    store_close(s);
    rm_tmp();
}
END_TEST

START_TEST(keeps_preferences)
{
    make_tmp();
    char db[4096];
    Diag d = {0};
    Store *s = store_open(tmp_path("plans.db", db, sizeof db), NULL, false, &d);
    ck_assert_ptr_nonnull(s);
    char buf[8];
    ck_assert_int_eq(store_pref_get(s, "theme", buf, sizeof buf), -1);
    ck_assert_int_eq(store_pref_set(s, "theme", "dark", &d), 0);
    ck_assert_int_eq(store_pref_set(s, "theme", "solarized", &d), 0);
    ck_assert_int_eq(store_pref_get(s, "theme", buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "solariz"); /* truncated to the buffer */
    ck_assert_int_eq(store_pref_set(s, "", "x", &d), -1);
    store_close(s);
    s = store_open(db, NULL, true, &d);
    ck_assert_ptr_nonnull(s);
    char big[32];
    ck_assert_int_eq(store_pref_get(s, "theme", big, sizeof big), 0);
    ck_assert_str_eq(big, "solarized");
    ck_assert_int_eq(store_pref_set(s, "theme", "x", &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "read-only"));
    store_close(s);
    rm_tmp();
}
END_TEST

/* ----------------------------------------------------------- concurrency */

/* Child: save 50 versions of `shared` and 50 of `own`; exit status 0 only
 * when every call succeeded. */
static void child_saves(const char *db, const char *own)
{
    Diag d = {0};
    Store *s = store_open(db, NULL, false, &d);
    if (!s)
        _exit(2);
    for (int i = 0; i < 50; i++) {
        char yaml[64];
        snprintf(yaml, sizeof yaml, "by: %s\ni: %d\n", own, i);
        if (store_save_version(s, "shared", yaml, own, NULL, &d) != 0 ||
            store_save_version(s, own, yaml, "", NULL, &d) != 0) {
            fprintf(stderr, "%s: %s\n", own, d.msg);
            _exit(3);
        }
    }
    store_close(s);
    _exit(0);
}

static void assert_consecutive(Store *s, const char *name, int want)
{
    Diag d = {0};
    StoreVersionInfo *vi;
    int n;
    ck_assert_int_eq(store_versions(s, name, &vi, &n, &d), 0);
    ck_assert_int_eq(n, want);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(vi[i].version, i + 1);
    free(vi);
}

START_TEST(two_processes_save_at_once)
{
    make_tmp();
    char db[4096];
    make_store(tmp_path("plans.db", db, sizeof db), 0);
    pid_t a = fork();
    ck_assert_int_ge(a, 0);
    if (a == 0)
        child_saves(db, "one");
    pid_t b = fork();
    ck_assert_int_ge(b, 0);
    if (b == 0)
        child_saves(db, "two");
    int sa, sb;
    ck_assert_int_eq(waitpid(a, &sa, 0), a);
    ck_assert_int_eq(waitpid(b, &sb, 0), b);
    ck_assert(WIFEXITED(sa) && WEXITSTATUS(sa) == 0);
    ck_assert(WIFEXITED(sb) && WEXITSTATUS(sb) == 0);
    Diag d = {0};
    Store *s = store_open(db, NULL, true, &d);
    ck_assert_ptr_nonnull(s);
    assert_consecutive(s, "shared", 100);
    assert_consecutive(s, "one", 50);
    assert_consecutive(s, "two", 50);
    store_close(s);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM versions WHERE note = 'one'"), 50);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM versions WHERE note = 'two'"), 50);
    rm_tmp();
}
END_TEST

START_TEST(two_processes_creating_one_store_seed_it_once)
{
    make_tmp();
    char db[4096], seed[4096];
    tmp_path("new.db", db, sizeof db);
    seed_dir(seed, sizeof seed);
    pid_t kids[2];
    for (int k = 0; k < 2; k++) {
        kids[k] = fork();
        ck_assert_int_ge(kids[k], 0);
        if (kids[k] == 0) {
            Diag d = {0};
            Store *s = store_open(db, seed, false, &d);
            if (!s) {
                fprintf(stderr, "%s\n", d.msg);
                _exit(2);
            }
            store_close(s);
            _exit(0);
        }
    }
    for (int k = 0; k < 2; k++) {
        int st;
        ck_assert_int_eq(waitpid(kids[k], &st, 0), kids[k]);
        ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM plans"), 2);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM versions"), 2);
    ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    rm_tmp();
}
END_TEST

START_TEST(keeps_one_draft_per_plan_apart_from_its_versions)
{
    make_tmp();
    char db[4096];
    make_store(tmp_path("plans.db", db, sizeof db), 2);
    Diag d = {0};
    Store *s = store_open(db, NULL, false, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    char *yaml = NULL;
    int base = -1;
    int64_t saved = 0;
    ck_assert_int_eq(store_draft_load(s, "p", &yaml, &base, &saved, &d), 1);
    ck_assert_int_eq(store_draft_save(s, "p", 2, "format: 1\nname: p\n# edited\n", &d), 0);
    ck_assert_int_eq(store_draft_save(s, "p", 2, "format: 1\nname: p\n# edited again\n", &d), 0);
    ck_assert_int_eq(store_draft_load(s, "p", &yaml, &base, &saved, &d), 0);
    ck_assert_str_eq(yaml, "format: 1\nname: p\n# edited again\n");
    ck_assert_int_eq(base, 2);
    ck_assert_int_gt(saved, 0);
    free(yaml);
    StoreDraftInfo *list = NULL;
    int n = 0;
    ck_assert_int_eq(store_draft_list(s, &list, &n, &d), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(list[0].name, "p");
    free(list);
    /* a draft is not a version */
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM versions"), 2);
    ck_assert_int_eq(store_draft_drop(s, "p", &d), 0);
    ck_assert_int_eq(store_draft_drop(s, "p", &d), 0);
    ck_assert_int_eq(store_draft_load(s, "p", &yaml, &base, &saved, &d), 1);
    ck_assert_int_eq(store_draft_save(s, "no/slash", 0, "x", &d), -1);
    store_close(s);
    rm_tmp();
}
END_TEST

START_TEST(a_schema_1_store_gains_drafts_and_stays_readable_read_only)
{
    make_tmp();
    char db[4096];
    tmp_path("old.db", db, sizeof db);
    /* the schema-1 layout as gpuplan wrote it before drafts */
    raw_exec(db, "CREATE TABLE plans (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
                 " created INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN"
                 " (0, 1)), deleted_at INTEGER);"
                 "CREATE TABLE versions (plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE"
                 " CASCADE, version INTEGER NOT NULL CHECK (version >= 1), created INTEGER NOT"
                 " NULL, note TEXT NOT NULL DEFAULT '', yaml TEXT NOT NULL, PRIMARY KEY (plan_id,"
                 " version));"
                 "CREATE TABLE prefs (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                 "INSERT INTO plans VALUES (1, 'p', 1, 0, NULL);"
                 "INSERT INTO versions VALUES (1, 1, 1, 'old', 'format: 1\nname: p\n');"
                 "PRAGMA application_id = 1196444750; PRAGMA user_version = 1;");
    Diag d = {0};
    /* read-only: readable as it is, no drafts, the file untouched */
    Store *ro = NULL;
    ASSERT_UNTOUCHED(db, ro = store_open(db, NULL, true, &d));
    ck_assert_msg(ro != NULL, "%s", d.msg);
    char *yaml = NULL;
    ck_assert_int_eq(store_load(ro, "p", 0, &yaml, NULL, &d), 0);
    free(yaml);
    StoreDraftInfo *list = NULL;
    int n = -1;
    ck_assert_int_eq(store_draft_list(ro, &list, &n, &d), 0);
    ck_assert_int_eq(n, 0);
    store_close(ro);
    /* read-write: migrated to the current schema, the plan kept */
    Store *s = store_open(db, NULL, false, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    ck_assert_int_eq(store_draft_save(s, "p", 1, "format: 1\nname: p\n", &d), 0);
    store_close(s);
    ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM versions"), 1);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM drafts"), 1);
    rm_tmp();
}
END_TEST

START_TEST(gives_up_on_a_store_locked_by_another_writer)
{
    make_tmp();
    char db[4096];
    make_store(tmp_path("plans.db", db, sizeof db), 2);
    sqlite3 *other;
    ck_assert_int_eq(sqlite3_open(db, &other), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(other, "BEGIN IMMEDIATE; INSERT INTO prefs VALUES ('k', 'v')",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    Diag d = {0};
    Store *s = store_open_ex(db, NULL, false, 50, &d);
    ck_assert_msg(s != NULL, "%s", d.msg); /* reading is not blocked (WAL) */
    int v = 0;
    ck_assert_int_eq(store_save_version(s, "p", "x\n", "", &v, &d), -1);
    ck_assert_str_eq(d.file, db);
    ck_assert_ptr_nonnull(strstr(d.msg, "locked by another writer"));
    ck_assert_ptr_nonnull(strstr(d.msg, "50 ms"));
    ck_assert_int_eq(store_pref_set(s, "theme", "x", &d), -1);
    ck_assert_int_eq(store_rename(s, "p", "q", &d), -1);
    /* reads go on */
    StoreVersionInfo *vi;
    int n;
    ck_assert_int_eq(store_versions(s, "p", &vi, &n, &d), 0);
    ck_assert_int_eq(n, 2);
    free(vi);
    ck_assert_int_eq(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
    ck_assert_int_eq(store_save_version(s, "p", "x\n", "", &v, &d), 0);
    ck_assert_int_eq(v, 3);
    store_close(s);
    rm_tmp();
}
END_TEST

START_TEST(gives_up_on_opening_a_store_locked_in_rollback_mode)
{
    make_tmp();
    char db[4096];
    make_store(tmp_path("plans.db", db, sizeof db), 1);
    raw_exec(db, "PRAGMA journal_mode = DELETE");
    sqlite3 *other;
    ck_assert_int_eq(sqlite3_open(db, &other), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(other, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    Diag d = {0};
    ck_assert_ptr_null(store_open_ex(db, NULL, false, 30, &d));
    ck_assert_str_eq(d.file, db);
    ck_assert_ptr_nonnull(strstr(d.msg, "locked"));
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    rm_tmp();
}
END_TEST

/* --------------------------------------------------- files left untouched */

START_TEST(leaves_a_non_database_file_untouched)
{
    make_tmp();
    char db[4096];
    tmp_path("random.db", db, sizeof db);
    unsigned char junk[8192];
    uint32_t x = 12345; /* LCG, Numerical Recipes constants */
    for (size_t i = 0; i < sizeof junk; i++) {
        x = x * 1664525u + 1013904223u;
        junk[i] = (unsigned char)(x >> 24);
    }
    write_bytes(db, junk, sizeof junk);
    Diag d = {0};
    ASSERT_UNTOUCHED(db, ck_assert_ptr_null(store_open(db, NULL, false, &d)));
    ck_assert_str_eq(d.file, db);
    ck_assert_ptr_nonnull(strstr(d.msg, "not a SQLite database"));
    ASSERT_UNTOUCHED(db, ck_assert_ptr_null(store_open(db, NULL, true, &d)));
    rm_tmp();
}
END_TEST

START_TEST(leaves_a_truncated_store_untouched)
{
    make_tmp();
    char db[4096], cut[4096];
    make_store(tmp_path("plans.db", db, sizeof db), 40);
    Diag d = {0};
    /* bigger versions so the table spans many pages */
    Store *s = store_open(db, NULL, false, &d);
    ck_assert_ptr_nonnull(s);
    char *big = malloc(3000);
    ck_assert_ptr_nonnull(big);
    memset(big, 'y', 2999);
    big[2999] = '\0';
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(store_save_version(s, "big", big, "", NULL, &d), 0);
    free(big);
    store_close(s);
    size_t len;
    char *bytes = slurp(db, &len);
    ck_assert_uint_gt(len, 16384);
    write_bytes(tmp_path("cut.db", cut, sizeof cut), bytes, len / 2);
    free(bytes);
    ASSERT_UNTOUCHED(cut, ck_assert_ptr_null(store_open(cut, NULL, false, &d)));
    ck_assert_str_eq(d.file, cut);
    ck_assert_ptr_nonnull(strstr(d.msg, "corrupt"));
    ck_assert_ptr_nonnull(strstr(d.msg, "left untouched"));
    /* and nothing was added beside it */
    char side[4200];
    snprintf(side, sizeof side, "%s-wal", cut);
    ck_assert_int_ne(access(side, F_OK), 0);
    snprintf(side, sizeof side, "%s-shm", cut);
    ck_assert_int_ne(access(side, F_OK), 0);
    rm_tmp();
}
END_TEST

START_TEST(leaves_a_newer_schema_untouched)
{
    make_tmp();
    char db[4096];
    make_store(tmp_path("plans.db", db, sizeof db), 1);
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION + 1);
    raw_exec(db, sql);
    Diag d = {0};
    ASSERT_UNTOUCHED(db, ck_assert_ptr_null(store_open(db, NULL, false, &d)));
    ck_assert_str_eq(d.file, db);
    ck_assert_ptr_nonnull(strstr(d.msg, "newer than this gpuplan"));
    ASSERT_UNTOUCHED(db, ck_assert_ptr_null(store_open(db, NULL, true, &d)));
    ck_assert_ptr_nonnull(strstr(d.msg, "newer than this gpuplan"));
    rm_tmp();
}
END_TEST

START_TEST(leaves_another_programs_database_untouched)
{
    make_tmp();
    char db[4096];
    tmp_path("other.db", db, sizeof db);
    raw_exec(db, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT);"
                 "INSERT INTO accounts (owner) VALUES ('someone')");
    Diag d = {0};
    ASSERT_UNTOUCHED(db, ck_assert_ptr_null(store_open(db, NULL, false, &d)));
    ck_assert_ptr_nonnull(strstr(d.msg, "not a gpuplan plan store"));
    rm_tmp();
}
END_TEST

START_TEST(refuses_to_write_a_read_only_file_but_reads_it)
{
    make_tmp();
    char db[4096];
    make_store(tmp_path("plans.db", db, sizeof db), 3);
    ck_assert_int_eq(chmod(db, 0444), 0);
    Diag d = {0};
    ASSERT_UNTOUCHED(db, ck_assert_ptr_null(store_open(db, NULL, false, &d)));
    ck_assert_str_eq(d.file, db);
    ck_assert_ptr_nonnull(strstr(d.msg, "read-only"));
    Store *s = store_open(db, NULL, true, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    char *y;
    int v;
    ck_assert_int_eq(store_load(s, "p", 0, &y, &v, &d), 0);
    ck_assert_int_eq(v, 3);
    free(y);
    ck_assert_int_eq(store_save_version(s, "p", "x\n", "", NULL, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "read-only"));
    store_close(s);
    rm_tmp();
}
END_TEST

START_TEST(refuses_a_read_only_directory)
{
    make_tmp();
    char dir[2048], db[4096], fresh[4096];
    tmp_path("ro", dir, sizeof dir);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    snprintf(db, sizeof db, "%s/plans.db", dir);
    snprintf(fresh, sizeof fresh, "%s/new.db", dir);
    make_store(db, 2);
    ck_assert_int_eq(chmod(dir, 0555), 0);
    Diag d = {0};
    ASSERT_UNTOUCHED(db, ck_assert_ptr_null(store_open(db, NULL, false, &d)));
    ck_assert_str_eq(d.file, db);
    ck_assert_ptr_nonnull(strstr(d.msg, "is not writable"));
    ck_assert_ptr_null(store_open(fresh, NULL, false, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "was not created"));
    ck_assert_int_ne(access(fresh, F_OK), 0);
    Store *s = store_open(db, NULL, true, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    ck_assert(store_exists(s, "p"));
    store_close(s);
    rm_tmp();
}
END_TEST

/* ------------------------------------------------------------ migration */

START_TEST(migrates_an_empty_file_and_a_version_0_database)
{
    make_tmp();
    char empty[4096], v0[4096], seed[4096];
    seed_dir(seed, sizeof seed);
    write_bytes(tmp_path("empty.db", empty, sizeof empty), "", 0);
    tmp_path("v0.db", v0, sizeof v0);
    raw_exec(v0, "CREATE TABLE t (x); DROP TABLE t"); /* a SQLite file with no schema */
    ck_assert_int_eq(raw_int(v0, "PRAGMA user_version"), 0);
    const char *paths[] = {empty, v0};
    for (int i = 0; i < 2; i++) {
        Diag d = {0};
        Store *s = store_open(paths[i], seed, false, &d);
        ck_assert_msg(s != NULL, "%s", d.msg);
        ck_assert(store_exists(s, "alpha-pool"));
        store_close(s);
        ck_assert_int_eq(raw_int(paths[i], "PRAGMA user_version"), STORE_SCHEMA_VERSION);
        ck_assert_int_eq(raw_int(paths[i], "PRAGMA application_id"), 0x47504C4E);
        ck_assert_int_eq(raw_int(paths[i], "SELECT count(*) FROM plans"), 2);
        ck_assert_str_eq(d.msg, "");
    }
    rm_tmp();
}
END_TEST

START_TEST(read_only_open_needs_an_existing_store)
{
    make_tmp();
    char db[4096];
    tmp_path("absent.db", db, sizeof db);
    Diag d = {0};
    ck_assert_ptr_null(store_open(db, NULL, true, &d));
    ck_assert_str_eq(d.file, db);
    ck_assert_ptr_nonnull(strstr(d.msg, "no plan store here yet"));
    ck_assert_int_ne(access(db, F_OK), 0);
    ck_assert_ptr_null(store_open(g_tmp, NULL, false, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "not a regular file"));
    rm_tmp();
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("store");
    TCase *tc = tcase_create("plans");
    tcase_add_test(tc, seeds_a_new_store_and_reports_bad_seed_files);
    tcase_add_test(tc, an_empty_seed_folder_makes_an_empty_store);
    tcase_add_test(tc, saves_every_version_with_note_and_monotone_time);
    tcase_add_test(tc, explains_missing_plans_versions_and_bad_names);
    tcase_add_test(tc, renames_duplicates_deletes_undeletes_and_purges);
    tcase_add_test(tc, lists_by_regex_and_rejects_an_invalid_one);
    tcase_add_test(tc, keeps_preferences);
    tcase_add_test(tc, keeps_one_draft_per_plan_apart_from_its_versions);
    tcase_add_test(tc, a_schema_1_store_gains_drafts_and_stays_readable_read_only);
    tcase_add_test(tc, migrates_an_empty_file_and_a_version_0_database);
    tcase_add_test(tc, read_only_open_needs_an_existing_store);
    suite_add_tcase(s, tc);

    char ex[4096];
    const char *dd = getenv("GPUPLAN_DATADIR");
    snprintf(ex, sizeof ex, "%s/examples", dd && *dd ? dd : GPUPLAN_SRCDIR "/data");
    if (count_yaml(ex) > 0) {
        TCase *tx = tcase_create("examples");
        tcase_add_test(tx, seeds_every_shipped_example);
        suite_add_tcase(s, tx);
    }

    TCase *cc = tcase_create("concurrency");
    tcase_add_test(cc, two_processes_save_at_once);
    tcase_add_test(cc, two_processes_creating_one_store_seed_it_once);
    tcase_add_test(cc, gives_up_on_a_store_locked_by_another_writer);
    tcase_add_test(cc, gives_up_on_opening_a_store_locked_in_rollback_mode);
    tcase_set_timeout(cc, 120);
    suite_add_tcase(s, cc);

    TCase *bad = tcase_create("untouched");
    tcase_add_test(bad, leaves_a_non_database_file_untouched);
    tcase_add_test(bad, leaves_a_truncated_store_untouched);
    tcase_add_test(bad, leaves_a_newer_schema_untouched);
    tcase_add_test(bad, leaves_another_programs_database_untouched);
    tcase_add_test(bad, refuses_to_write_a_read_only_file_but_reads_it);
    tcase_add_test(bad, refuses_a_read_only_directory);
    suite_add_tcase(s, bad);
    return s;
}
