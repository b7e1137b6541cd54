/* plans/trace.c — job-trace import: Alibaba openb pod lists, the Tiresias job
 * list and Slurm `sacct --parsable2` output, turned into TraceJobs for the
 * scheduler to replay (SCHEDULER.md "Real traces").
 *
 * The whole file is read into memory and tokenised as RFC 4180 CSV (quoted
 * fields with "" escapes and embedded separators/newlines; CRLF or LF; a
 * leading UTF-8 BOM is ignored).  sacct output is '|'-separated and never
 * quoted, so quotes are plain text there.  Columns are found by header name.
 * Every row is either a job, a counted non-job (non-GPU, job step,
 * unfinished), or malformed: an error in strict mode, else skipped and counted.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "datadir.h"
#include "hash.h"
#include "safeio.h"
#include "trace.h"

/* Larger files are refused rather than read: the biggest public trace we
 * replay (openb default, 8,152 pods) is 0.6 MB; 1 GiB is far beyond any
 * trace the simulator can replay interactively. */
#define TRACE_MAX_BYTES ((size_t)1 << 30)
/* A record with more fields than this is malformed (no supported format has
 * more than a few dozen columns); the cap bounds memory on hostile input. */
#define TRACE_MAX_FIELDS 1024

/* ------------------------------------------------------------ tokenizer */

typedef struct {
    size_t off;              /* into Record.buf: unescaped, NUL-terminated */
    int line, col;           /* where the field starts (1-based) */
} Field;

typedef struct {
    Field *f;
    size_t n, cap;
    char *buf;
    size_t len, cap_buf;
    int line;                /* line of the record's first character */
    int end_line, end_col;   /* just past the last field (for "too few fields") */
    bool bad;                /* lexing problem: unterminated quote, … */
    int bad_line, bad_col;
    char bad_msg[160];
    bool oom;
} Record;

typedef struct {
    const char *p, *end;
    char sep;
    bool quotes;             /* honour "…" quoting (CSV, not sacct) */
    int line;
    const char *line_start;
    bool stop[256];          /* bytes that end a plain run: sep, '\n', '\r' */
} Lexer;

static int lex_col(const Lexer *lx)
{
    ptrdiff_t c = lx->p - lx->line_start + 1;
    return c > INT32_MAX ? INT32_MAX : (int)c;
}

/* Append n bytes at once (the lexer copies whole runs of plain field text:
 * byte by byte it was most of an import's time). */
static void rec_append(Record *r, const char *src, size_t n)
{
    if (r->oom || n == 0)
        return;
    if (r->len + n + 1 > r->cap_buf) {
        size_t nc = r->cap_buf ? r->cap_buf : 256;
        while (nc < r->len + n + 1)
            nc *= 2;
        char *nb = realloc(r->buf, nc);
        if (!nb) {
            r->oom = true;
            return;
        }
        r->buf = nb;
        r->cap_buf = nc;
    }
    memcpy(r->buf + r->len, src, n);
    r->len += n;
}

static void rec_push(Record *r, char ch)
{
    rec_append(r, &ch, 1);
}

static void rec_bad(Record *r, int line, int col, const char *msg)
{
    if (r->bad)
        return;
    r->bad = true;
    r->bad_line = line;
    r->bad_col = col;
    snprintf(r->bad_msg, sizeof r->bad_msg, "%s", msg);
}

static void rec_add_field(Record *r, size_t off, int line, int col)
{
    rec_push(r, '\0');
    if (r->oom)
        return;
    if (r->n >= TRACE_MAX_FIELDS) {
        rec_bad(r, line, col, "too many fields in one row");
        return;
    }
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 16;
        Field *nf = realloc(r->f, nc * sizeof *nf);
        if (!nf) {
            r->oom = true;
            return;
        }
        r->f = nf;
        r->cap = nc;
    }
    r->f[r->n++] = (Field){off, line, col};
}

/* True at a line end: "\n", "\r\n", or "\r" as the last byte. */
static bool lex_at_eol(const Lexer *lx)
{
    if (lx->p >= lx->end)
        return true;
    if (*lx->p == '\n')
        return true;
    return *lx->p == '\r' && (lx->p + 1 == lx->end || lx->p[1] == '\n');
}

static void lex_eat_eol(Lexer *lx)
{
    if (lx->p < lx->end && *lx->p == '\r')
        lx->p++;
    if (lx->p < lx->end && *lx->p == '\n') {
        lx->p++;
        lx->line++;
        lx->line_start = lx->p;
    }
}

/* Read the next non-blank record into r.  Returns false at the end. */
static bool lex_record(Lexer *lx, Record *r)
{
    while (lx->p < lx->end && lex_at_eol(lx))
        lex_eat_eol(lx);
    if (lx->p >= lx->end)
        return false;
    r->n = 0;
    r->len = 0;
    r->bad = false;
    r->line = lx->line;
    for (;;) {
        size_t off = r->len;
        int fline = lx->line, fcol = lex_col(lx);
        if (lx->quotes && lx->p < lx->end && *lx->p == '"') {
            lx->p++;
            bool closed = false;
            while (lx->p < lx->end) {
                /* the run up to the next quote or newline, in one copy */
                const char *q = lx->p;
                while (q < lx->end && *q != '"' && *q != '\n')
                    q++;
                rec_append(r, lx->p, (size_t)(q - lx->p));
                lx->p = q;
                if (lx->p >= lx->end)
                    break;
                char c = *lx->p++;
                if (c == '"') {
                    if (lx->p < lx->end && *lx->p == '"') {
                        rec_push(r, '"');
                        lx->p++;
                        continue;
                    }
                    closed = true;
                    break;
                }
                if (c == '\n') {
                    lx->line++;
                    lx->line_start = lx->p;
                }
                rec_push(r, c);
            }
            if (!closed)
                rec_bad(r, fline, fcol, "unterminated quoted field (expected a closing '\"')");
            else if (!lex_at_eol(lx) && *lx->p != lx->sep) {
                rec_bad(r, lx->line, lex_col(lx),
                        "expected a separator or the end of the line after a closing quote");
                while (!lex_at_eol(lx) && *lx->p != lx->sep)
                    rec_push(r, *lx->p++);
            }
        } else {
            /* up to the separator or the line end ("\n", "\r\n", a final
             * "\r"; a lone "\r" inside a line is text), in one copy */
            const char *q = lx->p;
            for (;;) {
                while (q < lx->end && !lx->stop[(unsigned char)*q])
                    q++;
                if (q < lx->end && *q == '\r' && q + 1 < lx->end && q[1] != '\n') {
                    q++;
                    continue;
                }
                break;
            }
            rec_append(r, lx->p, (size_t)(q - lx->p));
            lx->p = q;
        }
        rec_add_field(r, off, fline, fcol);
        if (lx->p < lx->end && *lx->p == lx->sep) {
            lx->p++;
            continue;
        }
        r->end_line = lx->line;
        r->end_col = lex_col(lx);
        lex_eat_eol(lx);
        return true;
    }
}

/* ------------------------------------------------------------- fields */

static const char *rec_text(const Record *r, int idx)
{
    if (idx < 0 || (size_t)idx >= r->n)
        return NULL;
    return r->buf + r->f[idx].off;
}

/* Copy s without surrounding blanks into buf (truncating). */
static const char *trimmed(const char *s, char *buf, size_t len)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n >= len)
        n = len - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return buf;
}

static bool is_blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t')
            return false;
    return true;
}

/* A plain non-negative decimal: digits [. digits] [e|E [+|-] digits], blanks
 * around it allowed.  Written here rather than with strtod (which follows
 * LC_NUMERIC, and the TUI sets the locale) or quantity_parse (which accepts
 * unit suffixes such as "8k" that are not valid in a trace). */
static bool parse_real(const char *s, double *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '+')
        s++;
    double m = 0;
    int scale = 0, digits = 0;
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
        if (m < 1e17)
            m = m * 10 + (*s - '0');
        else
            scale++;
    }
    if (*s == '.') {
        s++;
        for (; *s >= '0' && *s <= '9'; s++, digits++) {
            if (m < 1e17) {
                m = m * 10 + (*s - '0');
                scale--;
            }
        }
    }
    if (digits == 0)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        int sign = 1, e = 0, ed = 0;
        if (*s == '+' || *s == '-')
            sign = *s++ == '-' ? -1 : 1;
        for (; *s >= '0' && *s <= '9'; s++, ed++)
            if (e < 10000)
                e = e * 10 + (*s - '0');
        if (ed == 0)
            return false;
        scale += sign * e;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s != '\0')
        return false;
    /* Divide by an exact power of ten (exact up to 1e22) so "0.46" gives the
     * double nearest 0.46, as strtod would. */
    static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    int as = scale < 0 ? -scale : scale; /* 10^0..10^22 are exact doubles: the table is pow's value */
    double pw = as <= 22 ? p10[as] : pow(10, as);
    double v = scale < 0 ? m / pw : m * pw;
    if (!isfinite(v))
        return false;
    *out = v;
    return true;
}

/* A whole number 0..max, blanks around it allowed. */
static bool parse_count(const char *s, long long max, long long *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '+')
        s++;
    if (!(*s >= '0' && *s <= '9'))
        return false;
    long long v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (*s - '0');
        if (v > max)
            return false;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s != '\0')
        return false;
    *out = v;
    return true;
}

/* Days since 1970-01-01 of a proleptic Gregorian date: Howard Hinnant,
 * "chrono-Compatible Low-Level Date Algorithms", days_from_civil. */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

static bool digits_at(const char *s, int n, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return true;
}

/* sacct's ISO 8601 `YYYY-MM-DDTHH:MM:SS` (local time, no zone: only
 * differences are used, so a job spanning a DST change is off by the shift)
 * as seconds since 1970 counted as if UTC. */
static bool parse_iso8601(const char *text, double *out)
{
    char s[32];
    trimmed(text, s, sizeof s);
    if (strlen(s) != 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') ||
        s[13] != ':' || s[16] != ':')
        return false;
    unsigned y, mo, d, h, mi, se;
    if (!digits_at(s, 4, &y) || !digits_at(s + 5, 2, &mo) || !digits_at(s + 8, 2, &d) ||
        !digits_at(s + 11, 2, &h) || !digits_at(s + 14, 2, &mi) || !digits_at(s + 17, 2, &se))
        return false;
    static const unsigned mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || se > 60)
        return false;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo == 2 && d == 29 && !leap)
        return false;
    *out = (double)days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + se;
    return true;
}

/* ----------------------------------------------------------- the loader */

typedef struct {
    TraceJob job;
    size_t seq;              /* file order, for a stable sort */
} Pending;

typedef struct {
    const char *file;
    bool strict;
    Trace *t;
    Diag *d;
    Pending *rows;
    size_t n_rows, cap_rows;
    size_t *team_hash;       /* open addressing: team index + 1, 0 = empty */
    size_t hash_cap;
    size_t cap_teams;
    bool oom;
} Ctx;

/* A malformed row: in strict mode the error (returns -1), else counted and
 * the first remembered (returns 0: go on with the next row). */
static int row_bad(Ctx *c, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int row_bad(Ctx *c, int line, int col, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->strict) {
        diag_set(c->d, c->file, line, col, "%s", msg);
        return -1;
    }
    if (c->t->skipped++ == 0)
        diag_set(&c->t->first_skip, c->file, line, col, "%s", msg);
    return 0;
}

static void row_unfinished(Ctx *c, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void row_unfinished(Ctx *c, int line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->t->unfinished++ == 0)
        diag_set(&c->t->first_unfinished, c->file, line, 0, "%s", msg);
}

static void add_job(Ctx *c, double submit, double duration, double gpus, int team,
                    JobPriority prio)
{
    if (c->n_rows == c->cap_rows) {
        size_t nc = c->cap_rows ? c->cap_rows * 2 : 256;
        Pending *nr = realloc(c->rows, nc * sizeof *nr);
        if (!nr) {
            c->oom = true;
            return;
        }
        c->rows = nr;
        c->cap_rows = nc;
    }
    c->rows[c->n_rows] = (Pending){{submit, duration, gpus, team, prio}, c->n_rows};
    c->n_rows++;
}


/* Index of team `name` (trimmed, truncated to PLAN_NAME_LEN-1), adding it
 * on first sight; -1 for an empty name or on ENOMEM (c->oom set). */
static int team_index(Ctx *c, const char *raw)
{
    char name[PLAN_NAME_LEN];
    trimmed(raw, name, sizeof name);
    if (name[0] == '\0')
        return -1;
    Trace *t = c->t;
    if ((t->n_teams + 1) * 2 > c->hash_cap) {
        size_t nc = c->hash_cap ? c->hash_cap * 2 : 64;
        size_t *nh = calloc(nc, sizeof *nh);
        if (!nh) {
            c->oom = true;
            return -1;
        }
        for (size_t i = 0; i < t->n_teams; i++) {
            size_t h = (size_t)hash_fnv1a64(HASH_FNV1A64_BASIS, t->teams[i]) & (nc - 1);
            while (nh[h])
                h = (h + 1) & (nc - 1);
            nh[h] = i + 1;
        }
        free(c->team_hash);
        c->team_hash = nh;
        c->hash_cap = nc;
    }
    size_t h = (size_t)hash_fnv1a64(HASH_FNV1A64_BASIS, name) & (c->hash_cap - 1);
    while (c->team_hash[h]) {
        size_t i = c->team_hash[h] - 1;
        if (strcmp(t->teams[i], name) == 0)
            return i > INT32_MAX ? -1 : (int)i;
        h = (h + 1) & (c->hash_cap - 1);
    }
    if (t->n_teams >= INT32_MAX)
        return -1;
    if (t->n_teams == c->cap_teams) {
        size_t nc = c->cap_teams ? c->cap_teams * 2 : 8;
        char(*nt)[PLAN_NAME_LEN] = realloc(t->teams, nc * sizeof *nt);
        if (!nt) {
            c->oom = true;
            return -1;
        }
        t->teams = nt;
        c->cap_teams = nc;
    }
    memcpy(t->teams[t->n_teams], name, sizeof name);
    c->team_hash[h] = t->n_teams + 1;
    return (int)t->n_teams++;
}

/* Column index of `name` in the header (case-insensitive, blanks ignored),
 * -1 when absent. */
static int col_find(const Record *h, const char *name)
{
    for (size_t i = 0; i < h->n; i++) {
        char buf[128];
        if (strcasecmp(trimmed(rec_text(h, (int)i), buf, sizeof buf), name) == 0)
            return (int)i;
    }
    return -1;
}

/* Field count check shared by every format: too few fields, or extra
 * fields that are not empty (sacct --parsable ends rows with '|'). */
static int row_shape(Ctx *c, const Record *h, const Record *r, bool *ok)
{
    *ok = false;
    if (r->bad)
        return row_bad(c, r->bad_line, r->bad_col, "%s", r->bad_msg);
    if (r->n < h->n)
        return row_bad(c, r->end_line, r->end_col, "expected %zu fields as in the header, found %zu",
                       h->n, r->n);
    for (size_t i = h->n; i < r->n; i++)
        if (!is_blank(rec_text(r, (int)i)))
            return row_bad(c, r->f[i].line, r->f[i].col,
                           "expected %zu fields as in the header, found %zu", h->n, r->n);
    *ok = true;
    return 0;
}

static int field_line(const Record *r, int idx) { return r->f[idx].line; }
static int field_col(const Record *r, int idx) { return r->f[idx].col; }

/* A required non-negative number of seconds in column idx named `what`.
 * Returns 1 with *out set, else what row_bad returns (0 skipped, -1 error). */
static int need_real(Ctx *c, const Record *r, int idx, const char *what, double *out)
{
    if (parse_real(rec_text(r, idx), out))
        return 1;
    char shown[48];
    return row_bad(c, field_line(r, idx), field_col(r, idx),
                   "%s: expected a non-negative number of seconds, found '%s'", what,
                   trimmed(rec_text(r, idx), shown, sizeof shown));
}

/* ---- Alibaba openb pod list (alibaba/clusterdata cluster-trace-gpu-v2023):
 * num_gpu whole GPUs; gpu_milli the share of one GPU for GPU-sharing pods
 * (num_gpu == 1, per that trace's README; gpu_milli 0, which the trace does
 * not contain, is read as the whole GPU); submit = creation_time, run time =
 * deletion_time − scheduled_time (seconds).  Every pod_phase that was
 * scheduled is a job: Failed pods held their GPUs too, and Running pods end
 * at the snapshot (their deletion_time), so long runs are cut short there.
 * Pods never scheduled (Pending, no scheduled_time) are counted unfinished. */

typedef struct { int num_gpu, gpu_milli, qos, created, scheduled, deleted; } OpenbCols;

/* Kubernetes QoS classes plus openb's LS (latency-sensitive) and BE (best
 * effort) labels, from the trace README: latency-sensitive and guaranteed
 * pods are the ones an operator protects, best effort the ones it evicts. */
static bool openb_priority(const char *qos, JobPriority *out)
{
    static const struct { const char *name; JobPriority prio; } map[] = {
        {"LS", PRIO_HIGH},     {"Guaranteed", PRIO_HIGH}, {"Burstable", PRIO_NORMAL},
        {"BE", PRIO_LOW},      {"BestEffort", PRIO_LOW},  {"", PRIO_NORMAL},
    };
    char q[32];
    trimmed(qos, q, sizeof q);
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcasecmp(q, map[i].name) == 0) {
            *out = map[i].prio;
            return true;
        }
    return false;
}

static int openb_row(Ctx *c, const OpenbCols *k, const Record *r)
{
    char shown[48];
    long long ngpu, milli;
    if (!parse_count(rec_text(r, k->num_gpu), 1000000, &ngpu))
        return row_bad(c, field_line(r, k->num_gpu), field_col(r, k->num_gpu),
                       "num_gpu: expected a whole number of GPUs, found '%s'",
                       trimmed(rec_text(r, k->num_gpu), shown, sizeof shown));
    if (ngpu == 0) {
        c->t->non_gpu++;
        return 0;
    }
    if (!parse_count(rec_text(r, k->gpu_milli), 1000, &milli))
        return row_bad(c, field_line(r, k->gpu_milli), field_col(r, k->gpu_milli),
                       "gpu_milli: expected thousandths of one GPU (0-1000), found '%s'",
                       trimmed(rec_text(r, k->gpu_milli), shown, sizeof shown));
    double gpus = (ngpu == 1 && milli > 0 && milli < 1000) ? (double)milli / 1000.0 : (double)ngpu;
    JobPriority prio = PRIO_NORMAL;
    if (k->qos >= 0 && !openb_priority(rec_text(r, k->qos), &prio))
        return row_bad(c, field_line(r, k->qos), field_col(r, k->qos),
                       "qos: expected LS, Guaranteed, Burstable or BE, found '%s'",
                       trimmed(rec_text(r, k->qos), shown, sizeof shown));
    double created, scheduled, deleted;
    int rc;
    if ((rc = need_real(c, r, k->created, "creation_time", &created)) != 1)
        return rc;
    if (is_blank(rec_text(r, k->scheduled))) {
        row_unfinished(c, r->line, "pod never scheduled (no scheduled_time)");
        return 0;
    }
    if (is_blank(rec_text(r, k->deleted))) {
        row_unfinished(c, r->line, "pod has no deletion_time");
        return 0;
    }
    if ((rc = need_real(c, r, k->scheduled, "scheduled_time", &scheduled)) != 1)
        return rc;
    if ((rc = need_real(c, r, k->deleted, "deletion_time", &deleted)) != 1)
        return rc;
    if (scheduled < created)
        return row_bad(c, field_line(r, k->scheduled), field_col(r, k->scheduled),
                       "scheduled_time %.0f is before creation_time %.0f", scheduled, created);
    if (deleted < scheduled)
        return row_bad(c, field_line(r, k->deleted), field_col(r, k->deleted),
                       "deletion_time %.0f is before scheduled_time %.0f", deleted, scheduled);
    add_job(c, created, deleted - scheduled, gpus, -1, prio);
    return 0;
}

/* ---- Tiresias job list (SymbioticLab/Tiresias, simulator/60_job.csv and
 * its siblings):
 * submit_time and duration in seconds, num_gpu whole GPUs. */

typedef struct { int submit, num_gpu, duration; } TiresiasCols;

static int tiresias_row(Ctx *c, const TiresiasCols *k, const Record *r)
{
    char shown[48];
    long long ngpu;
    if (!parse_count(rec_text(r, k->num_gpu), 1000000, &ngpu))
        return row_bad(c, field_line(r, k->num_gpu), field_col(r, k->num_gpu),
                       "num_gpu: expected a whole number of GPUs, found '%s'",
                       trimmed(rec_text(r, k->num_gpu), shown, sizeof shown));
    if (ngpu == 0) {
        c->t->non_gpu++;
        return 0;
    }
    double submit, duration;
    int rc;
    if ((rc = need_real(c, r, k->submit, "submit_time", &submit)) != 1)
        return rc;
    if ((rc = need_real(c, r, k->duration, "duration", &duration)) != 1)
        return rc;
    add_job(c, submit, duration, (double)ngpu, -1, PRIO_NORMAL);
    return 0;
}

/* ---- Slurm `sacct --parsable2` (slurm.schedmd.com/sacct.html): Submit,
 * Start, End as ISO 8601; AllocTRES "billing=8,cpu=8,gres/gpu=2,mem=64G,
 * node=1"; Account (else Partition) as the team. */

typedef struct { int submit, start, end, tres, account, partition, state, jobid; } SacctCols;

/* GPUs in an AllocTRES list: the `gres/gpu=N` total, else the sum of the
 * typed `gres/gpu:TYPE=N` entries (older Slurm lists only those).  Returns
 * 1 with *out, 0 when the list names no GPU, -1 when a GPU count is not a
 * whole number. */
static int tres_gpus(const char *tres, long long *out)
{
    long long total = -1, typed = 0;
    bool any_typed = false;
    const char *p = tres;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char item[128];
        if (n >= sizeof item)
            n = sizeof item - 1;
        memcpy(item, p, n);
        item[n] = '\0';
        char key[128];
        char *eq = strchr(item, '=');
        if (eq) {
            *eq = '\0';
            trimmed(item, key, sizeof key);
            long long v;
            if (strcasecmp(key, "gres/gpu") == 0) {
                if (!parse_count(eq + 1, 1000000, &v))
                    return -1;
                total = v;
            } else if (strncasecmp(key, "gres/gpu:", 9) == 0) {
                if (!parse_count(eq + 1, 1000000, &v))
                    return -1;
                typed += v;
                any_typed = true;
            }
        }
        p += n;
        if (e)
            p = e + 1;
        else
            break;
    }
    if (total >= 0) {
        *out = total;
        return 1;
    }
    if (any_typed) {
        *out = typed;
        return 1;
    }
    return 0;
}

/* Slurm prints these instead of a time when there is none. */
static bool sacct_no_time(const char *s)
{
    char b[16];
    trimmed(s, b, sizeof b);
    return b[0] == '\0' || strcasecmp(b, "Unknown") == 0 || strcasecmp(b, "None") == 0;
}

static int sacct_row(Ctx *c, const SacctCols *k, const Record *r)
{
    char shown[64], state[32] = "";
    if (k->jobid >= 0 && strchr(rec_text(r, k->jobid), '.')) {
        c->t->steps++;
        return 0;
    }
    if (k->state >= 0)
        trimmed(rec_text(r, k->state), state, sizeof state);
    double submit, start, end;
    if (!parse_iso8601(rec_text(r, k->submit), &submit))
        return row_bad(c, field_line(r, k->submit), field_col(r, k->submit),
                       "Submit: expected a time like 2024-03-01T12:00:00, found '%s'",
                       trimmed(rec_text(r, k->submit), shown, sizeof shown));
    if (sacct_no_time(rec_text(r, k->start))) {
        row_unfinished(c, r->line, "job never started (Start %s, State %s)",
                       trimmed(rec_text(r, k->start), shown, sizeof shown),
                       state[0] ? state : "not given");
        return 0;
    }
    if (sacct_no_time(rec_text(r, k->end))) {
        row_unfinished(c, r->line, "job has not ended (End %s, State %s)",
                       trimmed(rec_text(r, k->end), shown, sizeof shown),
                       state[0] ? state : "not given");
        return 0;
    }
    if (!parse_iso8601(rec_text(r, k->start), &start))
        return row_bad(c, field_line(r, k->start), field_col(r, k->start),
                       "Start: expected a time like 2024-03-01T12:00:00, found '%s'",
                       trimmed(rec_text(r, k->start), shown, sizeof shown));
    if (!parse_iso8601(rec_text(r, k->end), &end))
        return row_bad(c, field_line(r, k->end), field_col(r, k->end),
                       "End: expected a time like 2024-03-01T12:00:00, found '%s'",
                       trimmed(rec_text(r, k->end), shown, sizeof shown));
    if (end < start)
        return row_bad(c, field_line(r, k->end), field_col(r, k->end),
                       "End is before Start");
    long long ngpu = 0;
    int g = tres_gpus(rec_text(r, k->tres), &ngpu);
    if (g < 0)
        return row_bad(c, field_line(r, k->tres), field_col(r, k->tres),
                       "AllocTRES: expected gres/gpu=N with a whole number N, found '%s'",
                       trimmed(rec_text(r, k->tres), shown, sizeof shown));
    if (g == 0 || ngpu == 0) {
        c->t->non_gpu++;
        return 0;
    }
    int team = -1;
    if (k->account >= 0)
        team = team_index(c, rec_text(r, k->account));
    if (team < 0 && k->partition >= 0 && !c->oom)
        team = team_index(c, rec_text(r, k->partition));
    add_job(c, submit, end - start, (double)ngpu, team, PRIO_NORMAL);
    return 0;
}

/* ------------------------------------------------------------- driver */

const char *trace_format_name(TraceFormat f)
{
    switch (f) {
    case TRACE_OPENB: return "openb";
    case TRACE_TIRESIAS: return "tiresias";
    case TRACE_SACCT: return "sacct";
    case TRACE_AUTO: break;
    }
    return "auto";
}

void trace_free(Trace *t)
{
    if (!t)
        return;
    free(t->jobs);
    free(t->teams);
    memset(t, 0, sizeof *t);
}

static int cmp_pending(const void *a, const void *b)
{
    const Pending *x = a, *y = b;
    if (x->job.submit_s != y->job.submit_s)
        return x->job.submit_s < y->job.submit_s ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Missing required columns of `fmt`: error naming the first. */
static int need_cols(const char *file, const Record *h, const char *what,
                     const char *const *names, const int *idx, size_t n, Diag *d)
{
    for (size_t i = 0; i < n; i++)
        if (idx[i] < 0) {
            diag_set(d, file, h->line, 0, "%s header: missing column '%s'", what, names[i]);
            return -1;
        }
    return 0;
}

static int load_rows(Ctx *c, Lexer *lx, Record *h, Record *r, TraceFormat fmt)
{
    Diag *d = c->d;
    OpenbCols ob = {0};
    TiresiasCols tk = {0};
    SacctCols sk = {0};
    if (fmt == TRACE_OPENB) {
        ob = (OpenbCols){col_find(h, "num_gpu"), col_find(h, "gpu_milli"), col_find(h, "qos"),
                          col_find(h, "creation_time"), col_find(h, "scheduled_time"),
                          col_find(h, "deletion_time")};
        static const char *const names[] = {"num_gpu", "gpu_milli"};
        int idx[] = {ob.num_gpu, ob.gpu_milli};
        if (need_cols(c->file, h, "openb pod list", names, idx, 2, d) < 0)
            return -1;
        if (ob.created < 0 && ob.scheduled < 0 && ob.deleted < 0) {
            /* The multigpu/gpushare samples keep only the resource columns:
             * they describe what pods asked for, not when, so there is
             * nothing to replay.  Refuse rather than invent times. */
            diag_set(d, c->file, h->line, 0,
                     "openb pod list has no timing columns (creation_time, scheduled_time, "
                     "deletion_time): it lists resource requests only and cannot be replayed; "
                     "use openb_pod_list_default.csv");
            return -1;
        }
        static const char *const tnames[] = {"creation_time", "scheduled_time", "deletion_time"};
        int tidx[] = {ob.created, ob.scheduled, ob.deleted};
        if (need_cols(c->file, h, "openb pod list", tnames, tidx, 3, d) < 0)
            return -1;
    } else if (fmt == TRACE_TIRESIAS) {
        tk = (TiresiasCols){col_find(h, "submit_time"), col_find(h, "num_gpu"),
                            col_find(h, "duration")};
        static const char *const names[] = {"submit_time", "num_gpu", "duration"};
        int idx[] = {tk.submit, tk.num_gpu, tk.duration};
        if (need_cols(c->file, h, "Tiresias job list", names, idx, 3, d) < 0)
            return -1;
    } else {
        sk = (SacctCols){col_find(h, "Submit"), col_find(h, "Start"), col_find(h, "End"),
                         col_find(h, "AllocTRES"), col_find(h, "Account"),
                         col_find(h, "Partition"), col_find(h, "State"), col_find(h, "JobID")};
        static const char *const names[] = {"Submit", "Start", "End", "AllocTRES"};
        int idx[] = {sk.submit, sk.start, sk.end, sk.tres};
        if (need_cols(c->file, h, "sacct --parsable2", names, idx, 4, d) < 0)
            return -1;
    }
    while (lex_record(lx, r)) {
        if (r->oom) {
            c->oom = true;
            break;
        }
        bool shape_ok;
        int rc = row_shape(c, h, r, &shape_ok);
        if (rc == 0 && shape_ok) {
            if (fmt == TRACE_OPENB)
                rc = openb_row(c, &ob, r);
            else if (fmt == TRACE_TIRESIAS)
                rc = tiresias_row(c, &tk, r);
            else
                rc = sacct_row(c, &sk, r);
        }
        if (rc < 0)
            return -1;
        if (c->oom)
            break;
    }
    if (c->oom || r->oom) {
        diag_set(d, c->file, 0, 0, "out of memory reading the trace");
        return -1;
    }
    return 0;
}

/* The format a header line names, TRACE_AUTO when none. */
static TraceFormat detect(const Record *h, char sep)
{
    if (sep == '|' && col_find(h, "Submit") >= 0 && col_find(h, "End") >= 0)
        return TRACE_SACCT;
    if (col_find(h, "num_gpu") >= 0 && col_find(h, "gpu_milli") >= 0)
        return TRACE_OPENB;
    if (col_find(h, "submit_time") >= 0 && col_find(h, "num_gpu") >= 0 &&
        col_find(h, "duration") >= 0)
        return TRACE_TIRESIAS;
    return TRACE_AUTO;
}

int trace_parse(const char *text, size_t len, const char *file, TraceFormat fmt, bool strict,
                Trace *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    if (!file)
        file = "";
    Lexer lx = {.p = text, .end = text + len, .sep = ',', .quotes = true, .line = 1,
                .line_start = text};
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* UTF-8 BOM */
        lx.p = lx.line_start = text + 3;
    /* The separator: sacct's '|' when asked for, or (auto) when the header
     * line has one; the CSV formats' headers never contain '|'. */
    if (fmt == TRACE_SACCT)
        lx.sep = '|';
    else if (fmt == TRACE_AUTO) {
        const char *nl = memchr(lx.p, '\n', (size_t)(lx.end - lx.p));
        if (memchr(lx.p, '|', (size_t)((nl ? nl : lx.end) - lx.p)))
            lx.sep = '|';
    }
    lx.quotes = lx.sep != '|';
    lx.stop[(unsigned char)lx.sep] = lx.stop['\n'] = lx.stop['\r'] = true;

    Record h = {0}, r = {0};
    Ctx c = {.file = file, .strict = strict, .t = out, .d = d};
    int rc = -1;
    if (!lex_record(&lx, &h)) {
        diag_set(d, file, 0, 0, "empty trace: expected a header line");
        goto done;
    }
    if (h.oom) {
        diag_set(d, file, 0, 0, "out of memory reading the trace");
        goto done;
    }
    if (h.bad) {
        diag_set(d, file, h.bad_line, h.bad_col, "header: %s", h.bad_msg);
        goto done;
    }
    if (fmt == TRACE_AUTO) {
        fmt = detect(&h, lx.sep);
        if (fmt == TRACE_AUTO) {
            diag_set(d, file, h.line, 1,
                     "unrecognised trace header: expected an openb pod list (num_gpu, gpu_milli, "
                     "creation_time, …), a Tiresias job list (submit_time, num_gpu, duration) or "
                     "sacct --parsable2 output (Submit|Start|End|AllocTRES|…)");
            goto done;
        }
    }
    out->format = fmt;
    if (load_rows(&c, &lx, &h, &r, fmt) < 0)
        goto done;
    if (c.n_rows == 0) {
        diag_set(d, file, 0, 0,
                 "no replayable GPU job in the trace (%zu non-GPU rows, %zu job steps, "
                 "%zu unfinished, %zu malformed)",
                 out->non_gpu, out->steps, out->unfinished, out->skipped);
        goto done;
    }
    qsort(c.rows, c.n_rows, sizeof *c.rows, cmp_pending);
    out->jobs = malloc(c.n_rows * sizeof *out->jobs);
    if (!out->jobs) {
        diag_set(d, file, 0, 0, "out of memory reading the trace");
        goto done;
    }
    double t0 = c.rows[0].job.submit_s;
    for (size_t i = 0; i < c.n_rows; i++) {
        out->jobs[i] = c.rows[i].job;
        out->jobs[i].submit_s -= t0;
    }
    out->n = c.n_rows;
    rc = 0;
done:
    free(c.rows);
    free(c.team_hash);
    free(h.f);
    free(h.buf);
    free(r.f);
    free(r.buf);
    if (rc < 0)
        trace_free(out);
    return rc;
}

int trace_load(const char *path, TraceFormat fmt, bool strict, Trace *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    char why[128];
    FILE *f = safeio_fopen_read(path, why, sizeof why);
    if (!f) {
        if (errno == EISDIR || errno == EINVAL)
            diag_set(d, path, 0, 0, "not a regular file");
        else
            diag_set(d, path, 0, 0, "cannot open trace: %s", why);
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        diag_set(d, path, 0, 0, "cannot read trace: %s", strerror(errno));
        fclose(f);
        return -1;
    }
    if ((uintmax_t)st.st_size > TRACE_MAX_BYTES) {
        diag_set(d, path, 0, 0, "trace is larger than %zu MiB", TRACE_MAX_BYTES >> 20);
        fclose(f);
        return -1;
    }
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        diag_set(d, path, 0, 0, "out of memory reading the trace");
        fclose(f);
        return -1;
    }
    for (;;) {
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len < cap) {
            if (ferror(f)) {
                diag_set(d, path, 0, 0, "read error: %s", strerror(errno));
                free(buf);
                fclose(f);
                return -1;
            }
            break;
        }
        /* The file grew while we read it: keep going up to the limit. */
        if (cap > TRACE_MAX_BYTES) {
            diag_set(d, path, 0, 0, "trace is larger than %zu MiB", TRACE_MAX_BYTES >> 20);
            free(buf);
            fclose(f);
            return -1;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            diag_set(d, path, 0, 0, "out of memory reading the trace");
            free(buf);
            fclose(f);
            return -1;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    int rc = trace_parse(buf, len, path, fmt, strict, out, d);
    free(buf);
    return rc;
}

static bool readable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* What the replay of a loaded trace leaves out or moves, in one line
 * ("" when nothing): jobs that never started or had not ended when it was
 * taken (a sacct snapshot's PENDING and RUNNING jobs, openb's
 * never-scheduled pods), which ask for GPUs the replay leaves out;
 * malformed rows; and jobs of accounts the plan has no team for, which
 * replay as one team, "default" (the first few names given: a team name
 * mistyped in the plan shows here).  Rows that are no job (non-GPU, job
 * steps) are not counted.  map: trace team i's plan team or -1. */
static void trace_note(const Trace *t, const int *map, size_t nmap, int plan_teams, char *buf,
                       size_t len)
{
    char a[236] = "", b[236] = "", c[236] = "";
    if (t->unfinished)
        snprintf(a, sizeof a,
                 "%zu job%s that never started or had not ended, not replayed (first: line %d: "
                 "%.120s)",
                 t->unfinished, t->unfinished == 1 ? "" : "s", t->first_unfinished.line,
                 t->first_unfinished.msg);
    if (t->skipped)
        snprintf(b, sizeof b, "%zu malformed row%s skipped (first: line %d, column %d: %.120s)",
                 t->skipped, t->skipped == 1 ? "" : "s", t->first_skip.line, t->first_skip.col,
                 t->first_skip.msg);
    size_t other = 0;
    int named = 0;
    char names[160] = "";
    for (size_t i = 0; plan_teams > 0 && i < t->n; i++) {
        int ti = t->jobs[i].team; /* the trace's team index, before mapping */
        if (ti >= 0 && (size_t)ti < nmap && map[ti] >= 0)
            continue;
        other++;
    }
    for (size_t i = 0; other && i < nmap && i < t->n_teams; i++) {
        if (map[i] >= 0)
            continue;
        size_t used = strlen(names);
        if (named < 3 && used + strlen(t->teams[i]) + 8 < sizeof names)
            snprintf(names + used, sizeof names - used, "%s%s", named ? ", " : "", t->teams[i]);
        else if (named == 3)
            snprintf(names + used, sizeof names - used, ", …");
        named++;
    }
    if (other)
        snprintf(c, sizeof c, "%zu job%s of accounts the plan has no team for (%s) replay as "
                 "team 'default'", other, other == 1 ? "" : "s", named ? names : "no account");
    const char *part[3] = {a, b, c};
    size_t off = 0;
    buf[0] = '\0';
    for (int i = 0; i < 3 && off < len; i++)
        if (part[i][0]) {
            int n = snprintf(buf + off, len - off, "%s%s", off ? "; " : "", part[i]);
            off += n > 0 ? (size_t)n : 0;
        }
}

int trace_attach(Plan *p, const char *plan_path, Trace *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    p->tenancy.trace_jobs = NULL;
    p->tenancy.n_trace_jobs = 0;
    p->tenancy.trace_note[0] = '\0';
    const char *t = p->tenancy.trace;
    if (!t[0])
        return 0;
    char path[4096];
    snprintf(path, sizeof path, "%s", t);
    if (t[0] != '/') {
        char cand[3][4096];
        int n = 0;
        if (plan_path) {
            const char *slash = strrchr(plan_path, '/');
            int dirlen = slash ? (int)(slash - plan_path) : 1;
            snprintf(cand[n++], sizeof cand[0], "%.*s/%s", dirlen, slash ? plan_path : ".", t);
        }
        snprintf(cand[n++], sizeof cand[0], "%s", t);
        snprintf(cand[n++], sizeof cand[0], "%s/examples/%s", datadir_get(), t);
        for (int i = 0; i < n; i++)
            if (readable(cand[i])) {
                memcpy(path, cand[i], sizeof path); /* same size, NUL-terminated */
                break;
            }
    }
    bool usable = readable(path);
    if (trace_load(path, TRACE_AUTO, false, out, d) != 0) {
        if (usable)
            return -1; /* d: the trace file's own line and column */
        if (d) {
            /* The file itself is unusable (missing, a directory, a device):
             * say which plan named it, and where a relative name was sought. */
            char why[sizeof d->msg];
            snprintf(why, sizeof why, "%s", d->msg);
            diag_set(d, plan_path ? plan_path : "", 0, 0, "tenancy trace '%s': %s%s", t, why,
                     t[0] == '/' ? "" : " (looked beside the plan, in the working directory and "
                                        "in the demo folder)");
        }
        return -2;
    }
    int map[PLAN_MAX_TEAMS * 8];
    size_t nmap = out->n_teams < sizeof map / sizeof map[0] ? out->n_teams
                                                               : sizeof map / sizeof map[0];
    for (size_t i = 0; i < nmap; i++) {
        map[i] = -1;
        for (int k = 0; k < p->tenancy.n_teams; k++)
            if (!strcmp(out->teams[i], p->tenancy.teams[k].name))
                map[i] = k;
    }
    trace_note(out, map, nmap, p->tenancy.n_teams, p->tenancy.trace_note,
               sizeof p->tenancy.trace_note);
    for (size_t i = 0; i < out->n; i++) {
        int ti = out->jobs[i].team;
        out->jobs[i].team = (ti >= 0 && (size_t)ti < nmap) ? map[ti] : -1;
    }
    p->tenancy.trace_jobs = out->jobs;
    p->tenancy.n_trace_jobs = out->n;
    return 0;
}
