/* tests/test_trace.c — the job-trace importer (plans/trace.c).
 *
 * Expected figures were computed outside gpuplan, as noted beside each:
 * awk over the CSV, Python's csv module (for quoted fields) and `date -u -d`
 * for sacct times. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "trace.h"

static char g_path[4096];

/* tests/data/NAME in the source tree ($GPUPLAN_SRCDIR under make check). */
static const char *data_path(const char *name)
{
    const char *src = getenv("GPUPLAN_SRCDIR");
    snprintf(g_path, sizeof g_path, "%s/tests/data/%s", src && *src ? src : GPUPLAN_SRCDIR, name);
    return g_path;
}

/* ../shared/data/traces/NAME beside the source tree: the Alibaba files,
 * whose licence does not clearly allow redistribution (tests/data/README.md),
 * so they are read in place when present and not shipped. */
static const char *shared_trace(const char *name, char *buf, size_t len)
{
    const char *src = getenv("GPUPLAN_SRCDIR");
    snprintf(buf, len, "%s/../shared/data/traces/%s", src && *src ? src : GPUPLAN_SRCDIR, name);
    return access(buf, R_OK) == 0 ? buf : NULL;
}

static double gpu_seconds(const Trace *t)
{
    double s = 0;
    for (size_t i = 0; i < t->n; i++)
        s += t->jobs[i].gpus * t->jobs[i].duration_s;
    return s;
}

static int parse_str(const char *text, TraceFormat fmt, bool strict, Trace *t, Diag *d)
{
    return trace_parse(text, strlen(text), "mem.csv", fmt, strict, t, d);
}

/* ------------------------------------------------------------ Tiresias */

START_TEST(reads_tiresias_60_job_list)
{
    Trace t;
    Diag d = {0};
    ck_assert_int_eq(trace_load(data_path("tiresias_60_job.csv"), TRACE_AUTO, true, &t, &d), 0);
    ck_assert_int_eq(t.format, TRACE_TIRESIAS);
    /* awk -F, 'NR>1{n++; g+=$2; s+=$2*$6} …' tiresias_60_job.csv (CR stripped):
     * 60 jobs, 170 GPUs requested in all, 26,624 GPU-seconds, last submit 1779. */
    ck_assert_uint_eq(t.n, 60);
    double g = 0;
    for (size_t i = 0; i < t.n; i++) {
        g += t.jobs[i].gpus;
        ck_assert_int_eq(t.jobs[i].team, -1);
        ck_assert_int_eq(t.jobs[i].priority, PRIO_NORMAL);
        if (i > 0)
            ck_assert(t.jobs[i].submit_s >= t.jobs[i - 1].submit_s);
    }
    ck_assert_double_eq(g, 170);
    ck_assert_double_eq(gpu_seconds(&t), 26624);
    ck_assert_double_eq(t.jobs[0].submit_s, 0);
    ck_assert_double_eq(t.jobs[59].submit_s, 1779);
    /* first data row: 0,1,0,606,vgg19,164,30 */
    ck_assert_double_eq(t.jobs[0].duration_s, 164);
    ck_assert_double_eq(t.jobs[0].gpus, 1);
    ck_assert_uint_eq(t.n_teams, 0);
    ck_assert_uint_eq(t.skipped + t.non_gpu + t.unfinished + t.steps, 0);
    trace_free(&t);
}
END_TEST

/* --------------------------------------------------------------- openb */

START_TEST(reads_openb_pods_with_fractions_priorities_and_quotes)
{
    Trace t;
    Diag d = {0};
    ck_assert_int_eq(trace_load(data_path("openb_sample.csv"), TRACE_AUTO, true, &t, &d), 0);
    ck_assert_int_eq(t.format, TRACE_OPENB);
    /* Python csv.DictReader over openb_sample.csv: 4 replayable pods
     * (pod-c asks for no GPU, pod-e was never scheduled); sorted by
     * creation_time with file order for the tie at 50, rebased to 50. */
    ck_assert_uint_eq(t.n, 4);
    ck_assert_uint_eq(t.non_gpu, 1);
    ck_assert_uint_eq(t.unfinished, 1);
    ck_assert_int_eq(t.first_unfinished.line, 6);
    ck_assert_ptr_nonnull(strstr(t.first_unfinished.msg, "never scheduled"));
    ck_assert_uint_eq(t.skipped, 0);
    const struct { double submit, dur, gpus; JobPriority prio; } want[] = {
        {0, 1600, 0.46, PRIO_LOW},     /* pod-b: BE, gpu_milli 460, 1850 − 250 */
        {0, 870, 2, PRIO_HIGH},        /* pod-f: Guaranteed, quoted fields */
        {50, 3600, 1, PRIO_HIGH},      /* pod-a: LS */
        {350, 7200, 8, PRIO_NORMAL},   /* pod-d: Burstable, "V100M16,V100M32" */
    };
    for (size_t i = 0; i < 4; i++) {
        ck_assert_double_eq(t.jobs[i].submit_s, want[i].submit);
        ck_assert_double_eq(t.jobs[i].duration_s, want[i].dur);
        ck_assert_double_eq(t.jobs[i].gpus, want[i].gpus);
        ck_assert_int_eq(t.jobs[i].priority, want[i].prio);
        ck_assert_int_eq(t.jobs[i].team, -1);
    }
    /* Python: sum(gpus × (deletion − scheduled)) = 63,676 GPU-seconds. */
    ck_assert_double_eq_tol(gpu_seconds(&t), 63676, 1e-6);
    trace_free(&t);
}
END_TEST

START_TEST(reads_the_published_openb_default_pod_list)
{
    char buf[4096];
    const char *p = shared_trace("openb_pod_list_default.csv", buf, sizeof buf);
    ck_assert_ptr_nonnull(p); /* the test is only registered when it exists */
    Trace t;
    Diag d = {0};
    ck_assert_int_eq(trace_load(p, TRACE_AUTO, true, &t, &d), 0);
    /* awk -F, 'NR>1{ if($4==0){ng++;next} if($11==""){pend++;next}
     *   g=($4==1&&$5<1000)?$5/1000:$4; if($4==1&&$5<1000)frac++; jobs++;
     *   gh+=g*($10-$11)/3600 }' openb_pod_list_default.csv
     * → 1,088 non-GPU pods, 861 GPU pods never scheduled, 6,203 jobs of which
     *   2,573 fractional, 51,470.674158 GPU-hours, submits 0 … 12,901,761 s. */
    ck_assert_uint_eq(t.n, 6203);
    ck_assert_uint_eq(t.n + t.unfinished, 7064); /* GPU pods: awk NR>1 && $4>0 */
    ck_assert_uint_eq(t.non_gpu, 1088);
    ck_assert_uint_eq(t.unfinished, 861);
    ck_assert_uint_eq(t.skipped, 0);
    size_t frac = 0;
    for (size_t i = 0; i < t.n; i++)
        frac += t.jobs[i].gpus < 1;
    ck_assert_uint_eq(frac, 2573);
    ck_assert_double_eq_tol(gpu_seconds(&t) / 3600, 51470.674158, 1e-5);
    ck_assert_double_eq(t.jobs[0].submit_s, 0);
    ck_assert_double_eq(t.jobs[t.n - 1].submit_s, 12901761);
    trace_free(&t);
}
END_TEST

START_TEST(refuses_openb_lists_without_time_columns)
{
    /* The header of openb_pod_list_multigpu50.csv: resource columns only. */
    Trace t;
    Diag d = {0};
    const char *text = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
                       "openb-pod-0000,12000,16384,1,1000\n";
    ck_assert_int_eq(parse_str(text, TRACE_AUTO, false, &t, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "no timing columns"));
    ck_assert_int_eq(d.line, 1);
    ck_assert_ptr_null(t.jobs);
    char buf[4096];
    const char *p = shared_trace("openb_pod_list_multigpu50.csv", buf, sizeof buf);
    if (p) {
        ck_assert_int_eq(trace_load(p, TRACE_AUTO, false, &t, &d), -1);
        ck_assert_ptr_nonnull(strstr(d.msg, "no timing columns"));
        ck_assert_str_eq(d.file, p);
    }
}
END_TEST

START_TEST(rejects_unknown_qos_naming_line_and_column)
{
    Trace t;
    Diag d = {0};
    const char *text = "num_gpu,gpu_milli,qos,creation_time,scheduled_time,deletion_time\n"
                       "1,1000,LS,0,0,10\n"
                       "1,1000,Gold,5,5,10\n";
    ck_assert_int_eq(parse_str(text, TRACE_OPENB, true, &t, &d), -1);
    ck_assert_str_eq(d.file, "mem.csv");
    ck_assert_int_eq(d.line, 3);
    ck_assert_int_eq(d.col, 8);
    ck_assert_ptr_nonnull(strstr(d.msg, "'Gold'"));
    ck_assert_ptr_nonnull(strstr(d.msg, "expected LS, Guaranteed, Burstable or BE"));
}
END_TEST

START_TEST(rejects_deletion_before_scheduling)
{
    Trace t;
    Diag d = {0};
    const char *text = "num_gpu,gpu_milli,creation_time,scheduled_time,deletion_time\n"
                       "1,500,0,100,50\n";
    ck_assert_int_eq(parse_str(text, TRACE_AUTO, true, &t, &d), -1);
    ck_assert_int_eq(d.line, 2);
    ck_assert_int_eq(d.col, 13);
    ck_assert_ptr_nonnull(strstr(d.msg, "before scheduled_time"));
}
END_TEST

/* --------------------------------------------------------------- sacct */

START_TEST(reads_sacct_parsable2_with_teams_steps_and_running_jobs)
{
    Trace t;
    Diag d = {0};
    ck_assert_int_eq(trace_load(data_path("sacct_sample.txt"), TRACE_AUTO, true, &t, &d), 0);
    ck_assert_int_eq(t.format, TRACE_SACCT);
    /* Jobs 1001 1002 1006 1007; 1001.batch and 1001.0 are steps, 1003 has
     * no GPU, 1004 (RUNNING) and 1005 (PENDING) have no End. */
    ck_assert_uint_eq(t.n, 4);
    ck_assert_uint_eq(t.steps, 2);
    ck_assert_uint_eq(t.non_gpu, 1);
    ck_assert_uint_eq(t.unfinished, 2);
    ck_assert_int_eq(t.first_unfinished.line, 7);
    ck_assert_ptr_nonnull(strstr(t.first_unfinished.msg, "RUNNING"));
    /* Teams in order of first appearance among jobs; 1006 has no Account
     * and falls back to its Partition. */
    ck_assert_uint_eq(t.n_teams, 4);
    ck_assert_str_eq(t.teams[0], "llm");
    ck_assert_str_eq(t.teams[1], "vision");
    ck_assert_str_eq(t.teams[2], "gpu");
    ck_assert_str_eq(t.teams[3], "speech");
    /* date -u -d …  +%s: Submit 1007 1709251140 (leap day 23:59), 1002
     * 1709292600, 1001 1709294400, 1006 1709337600; run = End − Start. */
    const struct { double submit, dur, gpus; int team; } want[] = {
        {0, 21600, 4, 3},          /* 1007 */
        {41460, 3600, 1, 1},       /* 1002: gres/gpu:a100=1 */
        {43260, 7200, 8, 0},       /* 1001 */
        {86460, 3600, 2, 2},       /* 1006 */
    };
    for (size_t i = 0; i < 4; i++) {
        ck_assert_double_eq(t.jobs[i].submit_s, want[i].submit);
        ck_assert_double_eq(t.jobs[i].duration_s, want[i].dur);
        ck_assert_double_eq(t.jobs[i].gpus, want[i].gpus);
        ck_assert_int_eq(t.jobs[i].team, want[i].team);
    }
    /* 8·7200 + 1·3600 + 2·3600 + 4·21600 = 154,800 GPU-seconds = 43 GPU-hours */
    ck_assert_double_eq(gpu_seconds(&t), 154800);
    trace_free(&t);
}
END_TEST

START_TEST(accepts_sacct_parsable_trailing_separator)
{
    Trace t;
    Diag d = {0};
    const char *text = "Submit|Start|End|AllocTRES|Account|\n"
                       "2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:10:00|gres/gpu=1|a|\n";
    ck_assert_int_eq(parse_str(text, TRACE_AUTO, true, &t, &d), 0);
    ck_assert_uint_eq(t.n, 1);
    ck_assert_double_eq(t.jobs[0].duration_s, 600);
    trace_free(&t);
}
END_TEST

START_TEST(rejects_bad_sacct_time_with_expectation)
{
    Trace t;
    Diag d = {0};
    const char *text = "Submit|Start|End|AllocTRES\n"
                       "2024-02-30T00:00:00|2024-03-01T00:00:00|2024-03-01T00:10:00|gres/gpu=1\n";
    ck_assert_int_eq(parse_str(text, TRACE_SACCT, true, &t, &d), -1);
    ck_assert_int_eq(d.line, 2);
    ck_assert_int_eq(d.col, 1);
    ck_assert_ptr_nonnull(strstr(d.msg, "Submit: expected a time like 2024-03-01T12:00:00"));
    ck_assert_ptr_nonnull(strstr(d.msg, "'2024-02-30T00:00:00'"));
}
END_TEST

START_TEST(rejects_non_numeric_gpu_count_in_tres)
{
    Trace t;
    Diag d = {0};
    const char *text = "Submit|Start|End|AllocTRES\n"
                       "2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T00:10:00|cpu=2,gres/gpu=two\n";
    ck_assert_int_eq(parse_str(text, TRACE_AUTO, true, &t, &d), -1);
    ck_assert_int_eq(d.line, 2);
    ck_assert_int_eq(d.col, 61);
    ck_assert_ptr_nonnull(strstr(d.msg, "AllocTRES"));
}
END_TEST

START_TEST(counts_many_distinct_accounts)
{
    /* 300 jobs over 150 accounts (each twice): indices follow first sight. */
    size_t cap = 64 * 1024, len = 0;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    len += (size_t)snprintf(text + len, cap - len, "Account|Submit|Start|End|AllocTRES\n");
    for (int i = 0; i < 300; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "acct%03d|2024-03-01T00:00:%02d|2024-03-01T01:00:00|"
                                "2024-03-01T02:00:00|gres/gpu=1\n",
                                i % 150, i % 60);
    Trace t;
    Diag d = {0};
    ck_assert_int_eq(trace_parse(text, len, "many", TRACE_AUTO, true, &t, &d), 0);
    ck_assert_uint_eq(t.n, 300);
    ck_assert_uint_eq(t.n_teams, 150);
    for (size_t i = 0; i < t.n_teams; i++) {
        char want[32];
        snprintf(want, sizeof want, "acct%03zu", i);
        ck_assert_str_eq(t.teams[i], want);
    }
    int seen[150] = {0};
    for (size_t i = 0; i < t.n; i++) {
        ck_assert(t.jobs[i].team >= 0 && t.jobs[i].team < 150);
        seen[t.jobs[i].team]++;
    }
    for (int i = 0; i < 150; i++)
        ck_assert_int_eq(seen[i], 2);
    trace_free(&t);
    free(text);
}
END_TEST

/* ------------------------------------------------------ CSV and errors */

START_TEST(tracks_lines_across_quoted_newlines)
{
    Trace t;
    Diag d = {0};
    const char *text = "job_id,num_gpu,submit_time,model_name,duration\r\n"
                       "0,1,0,\"two\r\nline, \"\"name\"\"\",10\r\n"
                       "1,2,5,resnet,-3\r\n";
    ck_assert_int_eq(parse_str(text, TRACE_AUTO, true, &t, &d), -1);
    ck_assert_int_eq(d.line, 4);
    ck_assert_int_eq(d.col, 14);
    ck_assert_ptr_nonnull(strstr(d.msg, "duration: expected a non-negative number"));
    ck_assert_ptr_nonnull(strstr(d.msg, "'-3'"));
}
END_TEST

START_TEST(skips_and_counts_malformed_rows_when_not_strict)
{
    Trace t;
    Diag d = {0};
    const char *text = "submit_time,num_gpu,duration\n"
                       "0,1,10\n"
                       "5,x,10\n"
                       "6,1\n"
                       "7,1,\"10\"oops\n"
                       "8,1,20,9\n"
                       "9,4,30,\n";
    ck_assert_int_eq(parse_str(text, TRACE_TIRESIAS, false, &t, &d), 0);
    ck_assert_uint_eq(t.n, 2);
    ck_assert_uint_eq(t.skipped, 4);
    ck_assert_int_eq(t.first_skip.line, 3);
    ck_assert_int_eq(t.first_skip.col, 3);
    ck_assert_ptr_nonnull(strstr(t.first_skip.msg, "num_gpu"));
    ck_assert_double_eq(t.jobs[1].submit_s, 9);
    ck_assert_double_eq(t.jobs[1].gpus, 4);
    trace_free(&t);

    /* strict: the same input stops at the first bad row */
    ck_assert_int_eq(parse_str(text, TRACE_TIRESIAS, true, &t, &d), -1);
    ck_assert_int_eq(d.line, 3);
    ck_assert_int_eq(d.col, 3);
}
END_TEST

START_TEST(reports_too_few_fields_and_stray_quote_text)
{
    Trace t;
    Diag d = {0};
    ck_assert_int_eq(parse_str("submit_time,num_gpu,duration\n6,1\n", TRACE_AUTO, true, &t, &d), -1);
    ck_assert_int_eq(d.line, 2);
    ck_assert_ptr_nonnull(strstr(d.msg, "expected 3 fields as in the header, found 2"));
    ck_assert_int_eq(
        parse_str("submit_time,num_gpu,duration\n7,1,\"10\"oops\n", TRACE_AUTO, true, &t, &d), -1);
    ck_assert_int_eq(d.line, 2);
    ck_assert_int_eq(d.col, 9);
    ck_assert_ptr_nonnull(strstr(d.msg, "after a closing quote"));
    ck_assert_int_eq(parse_str("submit_time,num_gpu,duration\n7,1,\"10\n", TRACE_AUTO, true, &t, &d),
                     -1);
    ck_assert_int_eq(d.line, 2);
    ck_assert_int_eq(d.col, 5);
    ck_assert_ptr_nonnull(strstr(d.msg, "unterminated quoted field"));
}
END_TEST

START_TEST(rejects_unknown_header_empty_input_and_no_jobs)
{
    Trace t;
    Diag d = {0};
    ck_assert_int_eq(parse_str("a,b,c\n1,2,3\n", TRACE_AUTO, true, &t, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "unrecognised trace header"));
    ck_assert_int_eq(parse_str("", TRACE_AUTO, true, &t, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "empty trace"));
    ck_assert_int_eq(parse_str("\r\n\n", TRACE_AUTO, true, &t, &d), -1);
    ck_assert_int_eq(parse_str("submit_time,num_gpu,duration\n1,0,5\n", TRACE_AUTO, true, &t, &d),
                     -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "no replayable GPU job"));
    ck_assert_ptr_nonnull(strstr(d.msg, "1 non-GPU"));
    /* an explicit format names the missing column */
    ck_assert_int_eq(parse_str("submit_time,num_gpu,duration\n1,1,5\n", TRACE_SACCT, true, &t, &d),
                     -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "missing column 'Submit'"));
    ck_assert_ptr_null(t.jobs);
    ck_assert_uint_eq(t.n, 0);
}
END_TEST

START_TEST(reports_missing_file_with_its_path)
{
    Trace t;
    Diag d = {0};
    ck_assert_int_eq(trace_load("/nonexistent/gpuplan/trace.csv", TRACE_AUTO, true, &t, &d), -1);
    ck_assert_str_eq(d.file, "/nonexistent/gpuplan/trace.csv");
    ck_assert_ptr_nonnull(strstr(d.msg, "No such file"));
    ck_assert_int_eq(trace_load(data_path(""), TRACE_AUTO, true, &t, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "not a regular file"));
}
END_TEST

/* A plan's trace that cannot be used is reported against the plan that
 * names it, with the name as written and, when it was not found, where it
 * was sought. */
START_TEST(attach_names_the_plan_and_the_unusable_trace)
{
    Plan *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    plan_init(p);
    Trace t;
    Diag d = {0};
    snprintf(p->tenancy.trace, sizeof p->tenancy.trace, "/dev/zero");
    ck_assert_int_eq(trace_attach(p, "plans/a.yaml", &t, &d), -2);
    ck_assert_str_eq(d.file, "plans/a.yaml");
    ck_assert_int_eq(d.line, 0);
    ck_assert_str_eq(d.msg, "tenancy trace '/dev/zero': not a regular file");
    ck_assert_ptr_null(p->tenancy.trace_jobs);
    snprintf(p->tenancy.trace, sizeof p->tenancy.trace, "no-such-trace.csv");
    ck_assert_int_eq(trace_attach(p, "plans/a.yaml", &t, &d), -2);
    ck_assert_str_eq(d.file, "plans/a.yaml");
    ck_assert_ptr_nonnull(strstr(d.msg, "tenancy trace 'no-such-trace.csv': cannot open"));
    ck_assert_ptr_nonnull(strstr(d.msg, "(looked beside the plan, in the working directory"));
    free(p);
}
END_TEST

/* The rows a trace does not replay reach the plan, for the schedule's
 * warnings: a sacct snapshot's RUNNING and PENDING jobs (they ask for GPUs
 * the replay leaves out) and, read leniently, malformed rows; a trace
 * whose every row is replayed or no job says nothing.  Before session 40
 * the counts stayed in the Trace: the command line named malformed rows
 * only, the dashboard and the exports nothing. */
/* Attach tests/data/NAME, read leniently, to p (as a plan beside it would
 * name it) and return the note it leaves; the trace is freed. */
static const char *attach_note(Plan *p, const char *name, size_t *jobs)
{
    Trace t;
    Diag d = {0};
    snprintf(p->tenancy.trace, sizeof p->tenancy.trace, "%s", name);
    ck_assert_int_eq(trace_attach(p, data_path("plan.yaml"), &t, &d), 0);
    *jobs = p->tenancy.n_trace_jobs;
    trace_free(&t);
    return p->tenancy.trace_note;
}

START_TEST(attach_notes_the_rows_it_does_not_replay)
{
    Plan *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    plan_init(p);
    size_t jobs;
    ck_assert_str_eq(attach_note(p, "sacct_sample.txt", &jobs),
                     "2 jobs that never started or had not ended, not replayed (first: line 7: "
                     "job has not ended (End Unknown, State RUNNING))");
    ck_assert_uint_eq(jobs, 4);
    /* with teams, the jobs of accounts it has none for are named */
    Team *tm = &p->tenancy.teams[p->tenancy.n_teams++];
    team_init(tm);
    snprintf(tm->name, sizeof tm->name, "llm");
    const char *note = attach_note(p, "sacct_sample.txt", &jobs);
    ck_assert_msg(strstr(note, "; 3 jobs of accounts the plan has no team for (vision, gpu, "
                               "speech) replay as team 'default'"),
                  "%s", note);
    p->tenancy.n_teams = 0;
    ck_assert_str_eq(attach_note(p, "tiresias_60_job.csv", &jobs), "");
    note = attach_note(p, "sacct_partial.txt", &jobs);
    ck_assert_uint_eq(jobs, 1);
    ck_assert_msg(strstr(note, "1 job that never started or had not ended, not replayed (first: "
                               "line 4: job has not ended") &&
                      strstr(note, "; 1 malformed row skipped (first: line 3, column 21: Start: "
                                   "expected a time"),
                  "%s", note);
    free(p);
}
END_TEST

START_TEST(ignores_bom_and_header_case_and_column_order)
{
    Trace t;
    Diag d = {0};
    const char *text = "\xEF\xBB\xBF Duration ,NUM_GPU,Submit_Time\n"
                       "100, 2 ,1.5e3\n"
                       "50,1,1000.25\n";
    ck_assert_int_eq(parse_str(text, TRACE_AUTO, true, &t, &d), 0);
    ck_assert_int_eq(t.format, TRACE_TIRESIAS);
    ck_assert_uint_eq(t.n, 2);
    ck_assert_double_eq(t.jobs[0].submit_s, 0);
    ck_assert_double_eq(t.jobs[0].duration_s, 50);
    ck_assert_double_eq(t.jobs[1].submit_s, 499.75);
    ck_assert_double_eq(t.jobs[1].gpus, 2);
    trace_free(&t);
}
END_TEST

/* Every prefix of each fixture, strict and not: parsing never crashes, a
 * success always has jobs, a failure always says something and owns nothing. */
START_TEST(survives_every_truncation_of_the_fixtures)
{
    const char *files[] = {"openb_sample.csv", "sacct_sample.txt", "tiresias_60_job.csv"};
    for (size_t f = 0; f < 3; f++) {
        FILE *fp = fopen(data_path(files[f]), "rb");
        ck_assert_ptr_nonnull(fp);
        char buf[8192];
        size_t len = fread(buf, 1, sizeof buf, fp);
        fclose(fp);
        for (size_t cut = 0; cut <= len; cut++)
            for (int strict = 0; strict < 2; strict++) {
                Trace t;
                Diag d = {0};
                int rc = trace_parse(buf, cut, files[f], TRACE_AUTO, strict, &t, &d);
                if (rc == 0) {
                    ck_assert_uint_gt(t.n, 0);
                    ck_assert_double_eq(t.jobs[0].submit_s, 0);
                } else {
                    ck_assert_int_eq(rc, -1);
                    ck_assert(d.msg[0] != '\0');
                    ck_assert_ptr_null(t.jobs);
                }
                trace_free(&t);
            }
    }
}
END_TEST

START_TEST(free_is_null_safe_and_names_formats)
{
    trace_free(NULL);
    Trace t = {0};
    trace_free(&t);
    ck_assert_str_eq(trace_format_name(TRACE_OPENB), "openb");
    ck_assert_str_eq(trace_format_name(TRACE_TIRESIAS), "tiresias");
    ck_assert_str_eq(trace_format_name(TRACE_SACCT), "sacct");
    ck_assert_str_eq(trace_format_name(TRACE_AUTO), "auto");
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("formats");
    tcase_add_test(tc, reads_tiresias_60_job_list);
    tcase_add_test(tc, reads_openb_pods_with_fractions_priorities_and_quotes);
    tcase_add_test(tc, refuses_openb_lists_without_time_columns);
    tcase_add_test(tc, rejects_unknown_qos_naming_line_and_column);
    tcase_add_test(tc, rejects_deletion_before_scheduling);
    tcase_add_test(tc, reads_sacct_parsable2_with_teams_steps_and_running_jobs);
    tcase_add_test(tc, accepts_sacct_parsable_trailing_separator);
    tcase_add_test(tc, rejects_bad_sacct_time_with_expectation);
    tcase_add_test(tc, rejects_non_numeric_gpu_count_in_tres);
    tcase_add_test(tc, counts_many_distinct_accounts);
    suite_add_tcase(s, tc);

    TCase *csv = tcase_create("csv");
    tcase_add_test(csv, tracks_lines_across_quoted_newlines);
    tcase_add_test(csv, skips_and_counts_malformed_rows_when_not_strict);
    tcase_add_test(csv, reports_too_few_fields_and_stray_quote_text);
    tcase_add_test(csv, rejects_unknown_header_empty_input_and_no_jobs);
    tcase_add_test(csv, reports_missing_file_with_its_path);
    tcase_add_test(csv, ignores_bom_and_header_case_and_column_order);
    tcase_add_test(csv, survives_every_truncation_of_the_fixtures);
    tcase_add_test(csv, free_is_null_safe_and_names_formats);
    tcase_add_test(csv, attach_names_the_plan_and_the_unusable_trace);
    tcase_add_test(csv, attach_notes_the_rows_it_does_not_replay);
    tcase_set_timeout(csv, 60);
    suite_add_tcase(s, csv);

    /* The published openb list is not redistributable (tests/data/README.md):
     * checked only where ../shared/data/traces sits beside the source tree. */
    char buf[4096];
    if (shared_trace("openb_pod_list_default.csv", buf, sizeof buf)) {
        TCase *pub = tcase_create("published");
        tcase_add_test(pub, reads_the_published_openb_default_pod_list);
        tcase_set_timeout(pub, 60);
        suite_add_tcase(s, pub);
    } else {
        fprintf(stderr, "# test_trace: %s absent, published openb check not run\n", buf);
    }
    return s;
}
