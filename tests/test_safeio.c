/* tests/test_safeio.c — the output sanitiser and the safe read/write
 * routines (issue 17 D2, D3, D4, D7, D14, D15). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "diag.h"
#include "export.h"
#include "export_summary.h"
#include "headline.h"
#include "safeio.h"
#include "sanitize.h"

/* ------------------------------------------------------------ sanitiser */

START_TEST(clean_text_passes_unchanged)
{
    char out[64];
    ck_assert(sanitize_is_clean("plan v2 — 8×H100 ü 日本", SANITIZE_LINE));
    ck_assert_str_eq(sanitize_text("plan v2 — 8×H100 ü 日本", SANITIZE_LINE, out, sizeof out),
                     "plan v2 — 8×H100 ü 日本");
    ck_assert_str_eq(sanitize_text(NULL, SANITIZE_LINE, out, sizeof out), "");
}
END_TEST

START_TEST(escape_sequences_become_visible)
{
    char out[128];
    /* the note of the audit: OSC 52 clipboard write, then clear screen */
    const char *hostile = "hi\033]52;c;cHduZWQ=\007\033[2J";
    ck_assert(!sanitize_is_clean(hostile, SANITIZE_LINE));
    ck_assert_str_eq(sanitize_text(hostile, SANITIZE_LINE, out, sizeof out),
                     "hi\\x1b]52;c;cHduZWQ=\\x07\\x1b[2J");
    ck_assert_str_eq(sanitize_text("a\177b\rc", SANITIZE_LINE, out, sizeof out),
                     "a\\x7fb\\x0dc");
}
END_TEST

START_TEST(newlines_are_kept_only_when_asked)
{
    char out[64];
    ck_assert_str_eq(sanitize_text("a\nb\tc", SANITIZE_LINE, out, sizeof out), "a\\x0ab\\x09c");
    ck_assert_str_eq(sanitize_text("a\nb\tc\033", SANITIZE_KEEP_NEWLINES, out, sizeof out),
                     "a\nb\tc\\x1b");
}
END_TEST

START_TEST(c1_controls_bidi_overrides_and_bad_utf8_are_escaped)
{
    char out[64];
    /* U+009B is CSI in C1 form; U+202E reverses the text that follows */
    ck_assert_str_eq(sanitize_text("a\xc2\x9b" "2Jb", SANITIZE_LINE, out, sizeof out),
                     "a\\u009b2Jb");
    ck_assert_str_eq(sanitize_text("x\xe2\x80\xaeyz", SANITIZE_LINE, out, sizeof out),
                     "x\\u202eyz");
    ck_assert_str_eq(sanitize_text("\xff\xc0\x80!", SANITIZE_LINE, out, sizeof out),
                     "\\xff\\xc0\\x80!");
    /* a surrogate encoded in UTF-8 is not UTF-8 */
    ck_assert_str_eq(sanitize_text("\xed\xa0\x80", SANITIZE_LINE, out, sizeof out),
                     "\\xed\\xa0\\x80");
}
END_TEST

START_TEST(truncation_never_cuts_an_escape_or_a_character)
{
    char out[8];
    ck_assert_str_eq(sanitize_text("ab\033cd", SANITIZE_LINE, out, sizeof out), "ab\\x1bc");
    ck_assert_str_eq(sanitize_text("abcde\033", SANITIZE_LINE, out, sizeof out), "abcde");
    ck_assert_str_eq(sanitize_text("abcdeü", SANITIZE_LINE, out, sizeof out), "abcdeü");
    ck_assert_str_eq(sanitize_text("abcdef日", SANITIZE_LINE, out, sizeof out), "abcdef");
    char *dup = sanitize_dup("\033[2J", SANITIZE_LINE);
    ck_assert_str_eq(dup, "\\x1b[2J");
    free(dup);
}
END_TEST

START_TEST(notes_are_validated_like_names)
{
    char why[128];
    ck_assert(sanitize_note_valid("better cooling, 5 years — ok", 255, why, sizeof why));
    ck_assert(sanitize_note_valid("", 255, why, sizeof why));
    ck_assert(!sanitize_note_valid("hi\033[2J", 255, why, sizeof why));
    ck_assert_str_eq(why, "control character \\x1b at byte 3");
    ck_assert(!sanitize_note_valid("two\nlines", 255, why, sizeof why));
    ck_assert(!sanitize_note_valid("abc\xe2\x80\xae", 255, why, sizeof why));
    ck_assert_str_eq(why, "bidi or line control \\u202e at byte 4");
    ck_assert(!sanitize_note_valid("\xff", 255, why, sizeof why));
    char big[300];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ck_assert(!sanitize_note_valid(big, 255, why, sizeof why));
    ck_assert_str_eq(why, "299 bytes, at most 255 allowed");
}
END_TEST

/* D3: a message quotes what it refuses; the quote is escaped. */
START_TEST(diagnostics_escape_what_they_quote)
{
    Diag d;
    diag_set(&d, "plan\033.yaml", 3, 5, "unknown key '%s'", "\033[2Jx");
    char buf[256];
    ck_assert_str_eq(diag_format(&d, buf, sizeof buf),
                     "plan\\x1b.yaml:3:5: unknown key '\\x1b[2Jx'");
}
END_TEST

/* ------------------------------------------------------------ compare */

/* D16: a count of 1 (replicas, nodes, switches) is "1", not "100.0 %";
 * a fraction is still a percentage. */
START_TEST(compare_shows_a_count_of_one_as_one)
{
    Plan *p = calloc(1, sizeof *p);
    PlanResult *r = calloc(1, sizeof *r);
    plan_init(p);
    r->have_layout = true;
    r->cluster.gpus = 8;
    r->cluster.nodes = 1;
    r->cluster.racks = 1;
    r->cluster.leaf_switches = 1;
    r->have_schedule = true;
    r->schedule.ran = true;
    r->schedule.gpus = 8;
    r->schedule.utilization = 1.0;
    Headline *h = calloc(HEADLINE_MAX, sizeof *h);
    int n = headline_collect(p, r, h, HEADLINE_MAX);
    int seen = 0;
    for (int i = 0; i < n; i++) {
        char buf[40];
        summary_value(&h[i], h[i].value, buf, sizeof buf);
        if (!strcmp(h[i].metric, "nodes") || !strcmp(h[i].metric, "racks") ||
            !strcmp(h[i].metric, "switches")) {
            ck_assert_msg(!strcmp(buf, "1"), "%s shown as '%s'", h[i].metric, buf);
            seen++;
        }
        if (!strcmp(h[i].metric, "utilization")) {
            ck_assert_str_eq(buf, "100.0 %");
            seen++;
        }
    }
    ck_assert_int_eq(seen, 4);
    free(h);
    free(r);
    free(p);
}
END_TEST

/* ------------------------------------------------------------ files */

static char *scratch_dir(void)
{
    char *dir = strdup("/tmp/gpuplan-safeio-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    return dir;
}

static int entries(const char *dir)
{
    DIR *dh = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dh)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(dh);
    return n;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static const char *slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* D4: a FIFO without a writer is refused at once, not waited on. */
START_TEST(reading_a_fifo_is_refused_without_blocking)
{
    char *dir = scratch_dir(), path[512], why[128] = "";
    snprintf(path, sizeof path, "%s/f.yaml", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    ck_assert_int_eq(safeio_open_read(path, why, sizeof why), -1);
    ck_assert_str_eq(why, "not a regular file");
    ck_assert_ptr_null(safeio_fopen_read(dir, why, sizeof why));
    ck_assert_str_eq(why, "a directory");
    ck_assert_int_eq(errno, EISDIR);
    unlink(path);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(reading_a_regular_file_gives_a_blocking_descriptor)
{
    char *dir = scratch_dir(), path[512], why[128] = "";
    snprintf(path, sizeof path, "%s/a.yaml", dir);
    put(path, "x: 1\n");
    int fd = safeio_open_read(path, why, sizeof why);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
    ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
    close(fd);
    snprintf(path, sizeof path, "%s/missing", dir);
    ck_assert_int_eq(safeio_open_read(path, why, sizeof why), -1);
    ck_assert_str_eq(why, strerror(ENOENT));
    snprintf(path, sizeof path, "%s/a.yaml", dir);
    unlink(path);
    rmdir(dir);
    free(dir);
}
END_TEST

/* D15: `export -o` onto the store's own file (or its WAL) is refused. */
START_TEST(writing_over_an_sqlite_database_or_its_wal_is_refused)
{
    char *dir = scratch_dir(), db[512], wal[520], why[256] = "", buf[64];
    snprintf(db, sizeof db, "%s/plans.db", dir);
    FILE *f = fopen(db, "wb");
    ck_assert_ptr_nonnull(f);
    fwrite("SQLite format 3\0rest-of-page", 1, 28, f);
    fclose(f);
    ck_assert_int_eq(safeio_write_file(db, "# report\n", 9, 0644, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "SQLite database"));
    slurp(db, buf, sizeof buf);
    ck_assert_str_eq(buf, "SQLite format 3");
    snprintf(wal, sizeof wal, "%s-wal", db);
    ck_assert_int_eq(safeio_write_file(wal, "x", 1, 0644, why, sizeof why), -1);
    ck_assert_int_eq(access(wal, F_OK), -1);
    ck_assert_int_eq(entries(dir), 1);
    unlink(db);
    rmdir(dir);
    free(dir);
}
END_TEST

/* D7: the temporary file is created exclusively, never through a name
 * someone planted: whatever sits at the old predictable names is left. */
START_TEST(a_planted_symlink_at_a_temp_name_is_never_followed)
{
    char *dir = scratch_dir(), out[512], victim[512], trap[600], why[256] = "", buf[64];
    snprintf(out, sizeof out, "%s/plan.md", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    put(victim, "precious");
    /* the dashboard's old temp name was <path>.tmp<PID> */
    snprintf(trap, sizeof trap, "%s.tmp%ld", out, (long)getpid());
    ck_assert_int_eq(symlink(victim, trap), 0);
    ck_assert_int_eq(export_write_file(out, "report", why, sizeof why), 0);
    ck_assert_str_eq(slurp(victim, buf, sizeof buf), "precious");
    ck_assert_str_eq(slurp(out, buf, sizeof buf), "report");
    ck_assert_int_eq(entries(dir), 3);
    unlink(trap);
    unlink(victim);
    unlink(out);
    rmdir(dir);
    free(dir);
}
END_TEST

/* A link another user planted in a sticky shared directory (/tmp) is not
 * followed (needs root to plant it as another user; CI runs as root). */
START_TEST(a_link_planted_by_another_user_in_a_sticky_directory_is_refused)
{
    if (geteuid() != 0)
        return; /* cannot make a link owned by someone else */
    char *dir = scratch_dir(), out[512], victim[512], why[256] = "", buf[64];
    ck_assert_int_eq(chmod(dir, 01777), 0);
    snprintf(out, sizeof out, "%s/plan.md", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    put(victim, "precious");
    ck_assert_int_eq(symlink(victim, out), 0);
    ck_assert_int_eq(lchown(out, 65534, 65534), 0);
    ck_assert_int_eq(safeio_write_file(out, "report", 6, 0644, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "symbolic link owned by another user"));
    ck_assert_str_eq(slurp(victim, buf, sizeof buf), "precious");
    ck_assert_int_eq(entries(dir), 2);
    unlink(out);
    unlink(victim);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(a_fifo_without_a_reader_fails_at_once)
{
    char *dir = scratch_dir(), path[512], why[256] = "";
    snprintf(path, sizeof path, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    ck_assert_int_eq(safeio_write_file(path, "x", 1, 0644, why, sizeof why), -1);
    ck_assert_str_eq(why, "cannot open: a named pipe with no reader");
    ck_assert_int_eq(entries(dir), 1);
    unlink(path);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(a_new_file_gets_the_mode_asked_for)
{
    char *dir = scratch_dir(), path[512], why[256] = "", buf[64];
    snprintf(path, sizeof path, "%s/new.yaml", dir);
    ck_assert_int_eq(safeio_write_file(path, "abc", 3, 0640, why, sizeof why), 0);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0640);
    ck_assert_str_eq(slurp(path, buf, sizeof buf), "abc");
    ck_assert_int_eq(entries(dir), 1);
    unlink(path);
    rmdir(dir);
    free(dir);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("safeio");
    TCase *t = tcase_create("sanitize");
    tcase_add_test(t, clean_text_passes_unchanged);
    tcase_add_test(t, escape_sequences_become_visible);
    tcase_add_test(t, newlines_are_kept_only_when_asked);
    tcase_add_test(t, c1_controls_bidi_overrides_and_bad_utf8_are_escaped);
    tcase_add_test(t, truncation_never_cuts_an_escape_or_a_character);
    tcase_add_test(t, notes_are_validated_like_names);
    tcase_add_test(t, diagnostics_escape_what_they_quote);
    tcase_add_test(t, compare_shows_a_count_of_one_as_one);
    suite_add_tcase(s, t);
    TCase *f = tcase_create("files");
    tcase_add_test(f, reading_a_fifo_is_refused_without_blocking);
    tcase_add_test(f, reading_a_regular_file_gives_a_blocking_descriptor);
    tcase_add_test(f, writing_over_an_sqlite_database_or_its_wal_is_refused);
    tcase_add_test(f, a_planted_symlink_at_a_temp_name_is_never_followed);
    tcase_add_test(f, a_link_planted_by_another_user_in_a_sticky_directory_is_refused);
    tcase_add_test(f, a_fifo_without_a_reader_fails_at_once);
    tcase_add_test(f, a_new_file_gets_the_mode_asked_for);
    suite_add_tcase(s, f);
    return s;
}
