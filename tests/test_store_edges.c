/* tests/test_store_edges.c — the plan store at its edges (issue 17): a full
 * disk (D9), an EXCLUSIVE-mode lock holder (D10), misleading messages for a
 * missing directory and odd schema versions (D11). */
#include "config.h"

#include <dirent.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "store.h"

static char g_dir[512], g_db[600];

static void setup(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/gpuplan-edges-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(g_dir));
    snprintf(g_db, sizeof g_db, "%s/plans.db", g_dir);
}

static void teardown(void)
{
    DIR *d = opendir(g_dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            char p[1200];
            snprintf(p, sizeof p, "%s/%s", g_dir, e->d_name);
            if (e->d_name[0] != '.')
                unlink(p);
        }
        closedir(d);
    }
    rmdir(g_dir);
}

/* A store with one plan, closed again (no -wal/-shm left). */
static void make_store(void)
{
    Diag d;
    Store *s = store_open(g_db, NULL, false, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    ck_assert_int_eq(store_save_version(s, "alpha", "format: 1\nname: alpha\n", "", NULL, &d), 0);
    store_close(s);
}

static bool exists(const char *suffix)
{
    char p[700];
    snprintf(p, sizeof p, "%s%s", g_db, suffix);
    struct stat st;
    return stat(p, &st) == 0;
}

static void exec_raw(const char *sql)
{
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(g_db, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* D9: with no room for the 32 KiB -shm (here: a file size limit below it,
 * as a nearly full disk gives), reading still works — the read-write open
 * fails cleanly, the read-only one reads the main file — and neither leaves
 * a stray -wal or -shm. */
START_TEST(a_full_disk_still_reads_and_leaves_no_sidecars)
{
    make_store();
    ck_assert(!exists("-wal") && !exists("-shm"));
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN); /* writes past the limit fail with EFBIG */
        struct rlimit rl = {16384, 16384};
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(10);
        Diag d;
        Store *s = store_open(g_db, NULL, false, &d); /* what `list` tries first */
        if (s)
            _exit(11); /* could not have set up WAL */
        if (!strstr(d.msg, "disk is full"))
            _exit(12);
        s = store_open(g_db, NULL, true, &d);
        if (!s)
            _exit(13);
        StorePlanInfo *info = NULL;
        int n = 0;
        int rc = store_list(s, NULL, false, &info, &n, &d);
        store_close(s);
        free(info);
        _exit(rc == 0 && n == 1 ? 0 : 14);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    ck_assert(!exists("-wal"));
    ck_assert(!exists("-shm"));
}
END_TEST

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* D10: under an EXCLUSIVE-mode holder an open waits once, for the busy
 * timeout in all, and says how long it really waited (it used to wait
 * twice and report one timeout). */
START_TEST(an_exclusive_holder_is_reported_with_the_real_wait)
{
    make_store();
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(g_db, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; "
                                      "UPDATE plans SET created = created; COMMIT",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    const int busy = 400;
    Diag d;
    double t0 = now_ms();
    Store *s = store_open_ex(g_db, NULL, true, busy, &d);
    double waited = now_ms() - t0;
    ck_assert_ptr_null(s);
    const char *at = strstr(d.msg, "gave up after ");
    ck_assert_msg(at != NULL, "%s", d.msg);
    int said = atoi(at + strlen("gave up after "));
    ck_assert_int_ge(said, busy - 5);
    ck_assert_msg(said <= waited + 5, "said %d ms, waited %.0f ms", said, waited);
    ck_assert_msg(waited < 1.6 * busy, "waited %.0f ms for a %d ms timeout", waited, busy);
    sqlite3_close(db);
}
END_TEST

/* D11: a missing directory is called missing, not "not writable". */
START_TEST(a_missing_directory_is_called_missing)
{
    char path[700];
    snprintf(path, sizeof path, "%s/no/such/plans.db", g_dir);
    Diag d;
    ck_assert_ptr_null(store_open(path, NULL, false, &d));
    ck_assert_msg(strstr(d.msg, "does not exist") != NULL, "%s", d.msg);
    ck_assert_ptr_null(strstr(d.msg, "not writable"));
}
END_TEST

/* D11: user_version = -1 is not "newer"; the file is left as it was. */
START_TEST(a_negative_schema_version_is_not_called_newer)
{
    make_store();
    exec_raw("PRAGMA user_version = -1");
    Diag d;
    ck_assert_ptr_null(store_open(g_db, NULL, false, &d));
    ck_assert_msg(strstr(d.msg, "schema version -1 is not one gpuplan ever wrote") != NULL, "%s",
                  d.msg);
    ck_assert_ptr_null(strstr(d.msg, "newer"));
    ck_assert_ptr_null(store_open(g_db, NULL, true, &d));
    ck_assert_ptr_null(strstr(d.msg, "newer"));
}
END_TEST

/* D11: user_version = 0 with tables is said plainly, never "table plans
 * already exists". */
START_TEST(schema_version_zero_with_tables_is_reported_plainly)
{
    make_store();
    exec_raw("PRAGMA user_version = 0");
    Diag d;
    ck_assert_ptr_null(store_open(g_db, NULL, false, &d));
    ck_assert_msg(strstr(d.msg, "schema version 0") != NULL, "%s", d.msg);
    ck_assert_ptr_null(strstr(d.msg, "already exists"));
    /* untouched: still version 0 with its plan */
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(g_db, &db), SQLITE_OK);
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM plans", -1, &st, NULL),
                     SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(st, 0), 1);
    sqlite3_finalize(st);
    sqlite3_close(db);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("store edges");
    TCase *t = tcase_create("edges");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 30);
    tcase_add_test(t, a_full_disk_still_reads_and_leaves_no_sidecars);
    tcase_add_test(t, an_exclusive_holder_is_reported_with_the_real_wait);
    tcase_add_test(t, a_missing_directory_is_called_missing);
    tcase_add_test(t, a_negative_schema_version_is_not_called_newer);
    tcase_add_test(t, schema_version_zero_with_tables_is_reported_plainly);
    suite_add_tcase(s, t);
    return s;
}
