/* cli/cmd_sweep.c — `gpuplan sweep`: a grid or Monte Carlo over plan keys,
 * stored under the plan as a named sweep (plans/sweep.h), sharded over Slurm
 * job arrays or Kubernetes Indexed Jobs (doc/plan-format.md "Sweeps").
 *
 *   gpuplan sweep PLAN --vary KEY=SPEC … [--samples N --seed S] [--name NAME]
 *                 [--shard I/N|auto[/N] --out DIR] [--emit slurm|k8s …] [--stages FILE]
 *   gpuplan sweep merge DIR [--strict]
 *   gpuplan sweep show|export|delete PLAN NAME …
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bigmem.h"
#include "cli.h"
#include "datadir.h"
#include "export.h"
#include "safeio.h"
#include "sanitize.h"
#include "strbuf.h"
#include "sweep.h"
#include "yaml_plan.h"

#define SWEEP_USAGE                                                                         \
    "usage: gpuplan sweep PLAN --vary KEY=A..B/N|KEY=v1,v2 … [--samples N] [--seed S] "      \
    "[--name NAME]\n"                                                              \
    "                     [--shard I/N|auto[/N] --out DIR] [--emit slurm|k8s --tasks N "     \
    "[--dir DIR]] [--stages FILE]\n"                                                        \
    "       gpuplan sweep merge DIR [--strict]\n"                                           \
    "       gpuplan sweep show PLAN NAME\n"                                                 \
    "       gpuplan sweep export PLAN NAME --format csv|json [-o FILE]\n"                   \
    "       gpuplan sweep delete PLAN NAME"

/* Rows per store transaction: a run that stops midway keeps what it stored
 * (the sweep then lists as incomplete; running it again completes it). */
#define CHUNK 8192

#define JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(17))

typedef struct {
    const char *plan;
    const char *vary[SWEEP_MAX_AXES + 1];
    int n_vary;
    long long samples;
    uint64_t seed;
    const char *name;
    const char *shard;          /* --shard */
    const char *out;            /* --out DIR for a shard file */
    const char *emit;           /* slurm | k8s */
    const char *dir;            /* --dir for --emit */
    const char *stages;         /* --stages FILE: shared stage results (--emit writes it) */
    int tasks;
    const char *image, *pvc, *partition, *time_limit;
} SweepArgs;

/* The base plan of a sweep: loaded, canonical, and where it is stored. */
typedef struct {
    LoadedPlan lp;
    char *yaml;                 /* canonical YAML (plan_to_yaml) */
    char store_name[PLAN_NAME_LEN];
    int version;                /* stored version, 0 = not stored (a file) */
} Base;

static int usage_error(const char *fmt, const char *arg)
{
    fputs("gpuplan: sweep: ", stderr);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s\n", SWEEP_USAGE);
    return EXIT_USAGE;
}

static int parse_ll(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_args(int argc, char **argv, SweepArgs *a)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        bool has = i + 1 < argc;
        long long v;
        if (cli_is(o, "--vary") && has) {
            if (a->n_vary >= SWEEP_MAX_AXES)
                return usage_error("at most %s --vary keys", "8");
            a->vary[a->n_vary++] = argv[++i];
        } else if (cli_is(o, "--samples") && has) {
            if (parse_ll(argv[++i], 1, SWEEP_MAX_POINTS, &v) != 0)
                return usage_error("--samples takes a whole number from 1 to 10000000, not '%s'",
                                   argv[i]);
            a->samples = v;
        } else if (cli_is(o, "--seed") && has) {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(argv[++i], &end, 10);
            if (!*argv[i] || *end || errno || argv[i][0] == '-')
                return usage_error("--seed takes a whole number, not '%s'", argv[i]);
            a->seed = s;
        } else if (cli_is(o, "--name") && has) {
            a->name = argv[++i];
        } else if (cli_is(o, "--shard") && has) {
            a->shard = argv[++i];
        } else if (cli_is(o, "--out") && has) {
            a->out = argv[++i];
        } else if (cli_is(o, "--emit") && has) {
            a->emit = argv[++i];
        } else if (cli_is(o, "--dir") && has) {
            a->dir = argv[++i];
        } else if (cli_is(o, "--stages") && has) {
            a->stages = argv[++i];
        } else if (cli_is(o, "--tasks") && has) {
            if (parse_ll(argv[++i], 1, 100000, &v) != 0)
                return usage_error("--tasks takes a whole number from 1 to 100000, not '%s'",
                                   argv[i]);
            a->tasks = (int)v;
        } else if (cli_is(o, "--image") && has) {
            a->image = argv[++i];
        } else if (cli_is(o, "--pvc") && has) {
            a->pvc = argv[++i];
        } else if (cli_is(o, "--partition") && has) {
            a->partition = argv[++i];
        } else if (cli_is(o, "--time") && has) {
            a->time_limit = argv[++i];
        } else if (o[0] == '-' || a->plan) {
            return usage_error("unexpected argument '%s'", o);
        } else {
            a->plan = o;
        }
    }
    if (!a->plan)
        return usage_error("which plan?%s", "");
    return EXIT_OK;
}

/* ------------------------------------------------------------ the base plan */

static void base_free(Base *b)
{
    cli_free_plan(&b->lp);
    free(b->yaml);
    b->yaml = NULL;
}

static int base_load(Cli *cli, const char *ref, Base *b)
{
    memset(b, 0, sizeof *b);
    int rc = cli_load_plan(cli, ref, &b->lp);
    if (rc)
        return rc;
    if (!(b->yaml = plan_to_yaml(&b->lp.plan))) {
        cli_error("out of memory");
        return EXIT_IO;
    }
    b->version = b->lp.version;
    if (b->version > 0) { /* "store:NAME@vN": the store's name is authoritative */
        const char *src = b->lp.source + 6;
        const char *at = strrchr(src, '@');
        snprintf(b->store_name, sizeof b->store_name, "%.*s", (int)(at - src), src);
    } else {
        snprintf(b->store_name, sizeof b->store_name, "%s", b->lp.plan.name);
    }
    return EXIT_OK;
}

/* The stored version whose YAML is `yaml` (the latest such), else save it
 * as a new version.  Returns an exit status; *version set. */
static int stored_version(Cli *cli, const char *name, const char *yaml, const char *note,
                          int *version)
{
    int rc = cli_store(cli, true);
    if (rc)
        return rc;
    Diag d = {0};
    StoreVersionInfo *vs = NULL;
    int n = 0;
    *version = 0;
    if (store_exists(cli->store, name) && store_versions(cli->store, name, &vs, &n, &d) == 0) {
        for (int i = n - 1; i >= 0 && !*version; i--) {
            char *text = NULL;
            int got = 0;
            if (store_load(cli->store, name, vs[i].version, &text, &got, &d) == 0 &&
                strcmp(text, yaml) == 0)
                *version = got;
            free(text);
        }
    }
    free(vs);
    if (*version)
        return EXIT_OK;
    if (store_save_version(cli->store, name, yaml, note, version, &d) != 0) {
        cli_diag(&d);
        return EXIT_IO;
    }
    fprintf(stderr, "gpuplan: saved %s as version %d (the plan swept)\n", name, *version);
    return EXIT_OK;
}

/* ------------------------------------------------------------ the spec */

/* Default sweep name: the varied keys' last parts ("pue x gpus"), prefixed
 * "mc " for a Monte Carlo; deterministic, so every shard agrees. */
static void default_name(const SweepSpec *s, char *out, size_t len)
{
    StrBuf b;
    sb_init(&b);
    if (s->samples > 0)
        sb_puts(&b, "mc ");
    for (int k = 0; k < s->n_axes; k++) {
        const char *dot = strrchr(s->axes[k].path, '.');
        const char *last = dot ? dot + 1 : s->axes[k].path;
        sb_printf(&b, "%s%s", k ? " x " : "", last);
    }
    char *t = sb_finish(&b);
    size_t o = 0;
    for (const char *p = t ? t : "sweep"; *p && o + 1 < len && o < 64; p++) {
        char c = *p;
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == ' ' || c == '-';
        out[o++] = ok ? c : '_';
    }
    while (o > 0 && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
    free(t);
}

static int build_spec(Cli *cli, const SweepArgs *a, const Plan *base, SweepSpec *s)
{
    memset(s, 0, sizeof *s);
    s->samples = a->samples;
    s->seed = a->seed;
    char err[1024];
    for (int i = 0; i < a->n_vary; i++) {
        int r = sweep_axis_parse(base, &cli->catalog, a->vary[i], &s->axes[s->n_axes], err,
                                 sizeof err);
        if (r != 0) {
            cli_error("sweep: %s", err);
            return r == -2 ? EXIT_USAGE : EXIT_INVALID;
        }
        s->n_axes++;
    }
    if (sweep_spec_finish(s, err, sizeof err) != 0) {
        cli_error("sweep: %s", err);
        return EXIT_USAGE;
    }
    if (a->name) {
        if (!store_name_valid(a->name)) {
            cli_error("sweep: --name '%s': expected 1-64 characters from A-Z a-z 0-9 . _ - and "
                      "space", a->name);
            return EXIT_USAGE;
        }
        snprintf(s->name, sizeof s->name, "%s", a->name);
    } else {
        default_name(s, s->name, sizeof s->name);
    }
    return EXIT_OK;
}

/* ------------------------------------------------------------ rows */

/* Rows [lo, hi) evaluated and turned into store rows (texts malloc'd). */
typedef struct {
    StoreSweepRow *rows;
    long long n;
} RowTexts;

static void texts_free(RowTexts *t)
{
    for (long long i = 0; i < t->n; i++) {
        free((char *)t->rows[i].inputs);
        free((char *)t->rows[i].outputs);
        free((char *)t->rows[i].error);
    }
    free(t->rows);
    t->rows = NULL;
    t->n = 0;
}

static int eval_texts(Cli *cli, const SweepSpec *s, const Plan *base, long long lo, long long hi,
                      EvalCache *cache, RowTexts *t)
{
    long long n = hi - lo;
    t->n = 0;
    t->rows = calloc((size_t)(n > 0 ? n : 1), sizeof *t->rows);
    SweepRow *rows = calloc((size_t)(n > 0 ? n : 1), sizeof *rows);
    if (!t->rows || !rows || sweep_evaluate_with(s, base, &cli->catalog, lo, hi, rows, cache) != 0) {
        free(rows);
        cli_error("sweep: out of memory");
        return EXIT_IO;
    }
    for (long long i = 0; i < n; i++) {
        StoreSweepRow *r = &t->rows[t->n++];
        r->idx = rows[i].idx;
        r->inputs = sweep_inputs_json(s, &rows[i]);
        r->outputs = sweep_outputs_json(&rows[i]);
        r->error = strdup(rows[i].error);
        if (!r->inputs || !r->outputs || !r->error) {
            free(rows);
            cli_error("sweep: out of memory");
            return EXIT_IO;
        }
    }
    free(rows);
    return EXIT_OK;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ shared stages */

/* The stage file `--emit` writes beside the script: what the array tasks
 * would otherwise each compute again (the scheduler's capacity search of a
 * sweep no --vary key of the tenancy touches, the sizing of one that varies
 * only prices or the site).  At most this many bytes are read. */
#define STAGES_FILE "stages.bin"
#define STAGES_MAX_BYTES (64L << 20)

/* --stages FILE as read, before the plan: a file that is missing,
 * unreadable or too large leaves why set (stages_load reports it). */
typedef struct {
    unsigned char *data;
    size_t n;
    char why[256];
} StageFile;

/* Read --stages FILE; when the catalog files this task would parse are the
 * ones the file's catalog was parsed from (cli_catalog_source), take that
 * catalog and skip the YAML parse.  Anything else leaves the catalog to
 * cli_catalog (and the file's stages to eval_cache_import's checks). */
static void stages_read(Cli *cli, const char *path, StageFile *sf)
{
    memset(sf, 0, sizeof *sf);
    FILE *f = safeio_fopen_read(path, sf->why, sizeof sf->why);
    if (!f)
        return;
    long n = -1;
    sf->data = malloc(STAGES_MAX_BYTES + 1);
    n = sf->data ? (long)fread(sf->data, 1, STAGES_MAX_BYTES + 1, f) : -1;
    if (!sf->data)
        snprintf(sf->why, sizeof sf->why, "out of memory");
    else if (ferror(f))
        snprintf(sf->why, sizeof sf->why, "cannot read: %s", strerror(errno));
    else if (n > STAGES_MAX_BYTES)
        snprintf(sf->why, sizeof sf->why, "larger than %ld MiB", STAGES_MAX_BYTES >> 20);
    fclose(f);
    if (sf->why[0])
        return;
    sf->n = (size_t)n;
    uint64_t src;
    char why[256];
    Catalog cat;
    if (cli->catalog_loaded || cli_catalog_source(cli, &src) != 0 ||
        eval_stage_catalog(sf->data, sf->n, src, &cat, why, sizeof why) != 1)
        return;
    cli->catalog = cat;
    cli->catalog_loaded = true;
}

/* Load the stages of --stages FILE (stages_read) into cache.  A file that
 * is missing, unreadable, stale or corrupt is never trusted: the task says
 * so on stderr and computes the stages itself (the rows are identical
 * either way). */
static bool stages_load(Cli *cli, const char *path, const StageFile *sf, EvalCache *cache)
{
    char why[256];
    snprintf(why, sizeof why, "%s", sf->why);
    int got = -1;
    if (!why[0] &&
        (got = eval_cache_import(cache, &cli->catalog, sf->data, sf->n, why, sizeof why)) >= 0)
        return got > 0;
    fprintf(stderr, "gpuplan: sweep: --stages %s: %s; not used, this task computes the stages "
            "itself\n", path, why);
    return false;
}

/* Evaluate the sweep's first point with a fresh stage cache and write what
 * it remembered to DIR/stages.bin.  *abs set to its absolute path. */
static int stages_write(Cli *cli, const Base *b, const SweepSpec *s, const char *dir,
                        char *abs, size_t abslen, unsigned char **bytes, size_t *nbytes)
{
    double t0 = now_s();
    EvalCache *cache = eval_cache_new();
    SweepRow *row = calloc(1, sizeof *row);
    int n = -1;
    *bytes = NULL;
    *nbytes = 0;
    uint64_t src = 0; /* 0: files unreadable now, no task takes the catalog */
    if (cli_catalog_source(cli, &src) != 0)
        src = 0;
    if (cache && row && sweep_evaluate_with(s, &b->lp.plan, &cli->catalog, 0, 1, row, cache) == 0)
        n = eval_cache_export(cache, &cli->catalog, src, bytes, nbytes);
    eval_cache_free(cache);
    free(row);
    if (n < 0) {
        cli_error("sweep: out of memory");
        return EXIT_IO;
    }
    char path[4200], why[256];
    snprintf(path, sizeof path, "%s/" STAGES_FILE, dir);
    if (safeio_write_file(path, *bytes, *nbytes, 0644, why, sizeof why) != 0) {
        cli_error("sweep: %s: %s", path, why);
        return EXIT_IO;
    }
    if (!realpath(path, abs))
        snprintf(abs, abslen, "%s", path);
    printf("wrote %s (%d stage results of point 0, %.0f KB, computed in %.2f s; every task "
           "reads it with --stages)\n", path, n, *nbytes / 1024.0, now_s() - t0);
    return EXIT_OK;
}

/* ------------------------------------------------------------ one process */

static int run_local(Cli *cli, Base *b, const SweepSpec *s)
{
    char *spec = sweep_spec_json(s);
    if (!spec) {
        cli_error("out of memory");
        return EXIT_IO;
    }
    char fp[17];
    sweep_fingerprint(b->yaml, spec, fp);
    char note[128];
    snprintf(note, sizeof note, "swept: %s", s->name);
    int version = 0;
    int rc = stored_version(cli, b->store_name, b->yaml, note, &version);
    double t0 = now_s();
    long long added = 0, same = 0, conflicts = 0;
    /* one stage cache for every chunk: a chunk does not rerun the searches
     * of the one before */
    EvalCache *cache = eval_cache_new();
    if (!cache && rc == EXIT_OK) {
        cli_error("sweep: out of memory");
        rc = EXIT_IO;
    }
    for (long long lo = 0; rc == EXIT_OK && lo < s->n_points; lo += CHUNK) {
        long long hi = lo + CHUNK < s->n_points ? lo + CHUNK : s->n_points;
        RowTexts t = {0};
        if ((rc = eval_texts(cli, s, &b->lp.plan, lo, hi, cache, &t)) == EXIT_OK) {
            StoreSweepPut res;
            Diag d = {0};
            if (store_sweep_put(cli->store, b->store_name, s->name, version, fp, spec, s->n_points,
                                t.rows, t.n, &res, &d) != 0) {
                cli_diag(&d);
                rc = EXIT_IO;
            }
            added += res.added;
            same += res.same;
            conflicts += res.conflicts;
        }
        texts_free(&t);
    }
    eval_cache_free(cache);
    double dt = now_s() - t0;
    if (rc == EXIT_OK && conflicts > 0) {
        cli_error("sweep '%s': %lld points differ from the rows already stored under this name "
                  "(the stored rows were kept)", s->name, conflicts);
        rc = EXIT_INVALID;
    }
    if (rc == EXIT_OK) {
        printf("sweep '%s' of %s@v%d: %lld points (%s) in %.2f s; %lld stored%s\n", s->name,
               b->store_name, version, s->n_points, s->samples ? "Monte Carlo" : "grid", dt,
               added, same ? " (the rest were already stored)" : "");
        printf("  gpuplan sweep show '%s' '%s'   |   gpuplan sweep export '%s' '%s' --format "
               "csv\n", b->store_name, s->name, b->store_name, s->name);
    }
    free(spec);
    return rc;
}

/* ------------------------------------------------------------ shards */

static int env_ll(const char *name, long long *out)
{
    const char *v = getenv(name);
    return v && parse_ll(v, 0, INT_MAX, out) == 0 ? 1 : 0;
}

/* --shard I/N, or auto[/N]: Slurm's array variables (index relative to
 * SLURM_ARRAY_TASK_MIN in steps of SLURM_ARRAY_TASK_STEP) or Kubernetes'
 * JOB_COMPLETION_INDEX.  With an explicit N, Slurm's task id is the shard
 * itself, so a single failed task can be resubmitted (sbatch --array=2). */
static int shard_parse(const char *arg, int *index, int *count)
{
    long long i = -1, n = 0;
    const char *slash = strchr(arg, '/');
    bool is_auto = strncmp(arg, "auto", 4) == 0 && (arg[4] == '\0' || arg[4] == '/');
    if (slash && parse_ll(slash + 1, 1, 100000, &n) != 0)
        return usage_error("--shard %s: the count after '/' must be a whole number from 1 to "
                           "100000", arg);
    if (!is_auto) {
        char head[32];
        snprintf(head, sizeof head, "%.*s", slash ? (int)(slash - arg) : (int)strlen(arg), arg);
        if (!slash || parse_ll(head, 0, INT_MAX, &i) != 0)
            return usage_error("--shard '%s': expected I/N (0 <= I < N), or auto[/N]", arg);
    } else {
        long long id, min = 0, step = 1, cnt;
        if (env_ll("SLURM_ARRAY_TASK_ID", &id)) {
            if (n > 0) {
                i = id;
            } else {
                env_ll("SLURM_ARRAY_TASK_MIN", &min);
                if (!env_ll("SLURM_ARRAY_TASK_STEP", &step) || step < 1)
                    step = 1;
                if (!env_ll("SLURM_ARRAY_TASK_COUNT", &cnt) || cnt < 1 || id < min ||
                    (id - min) % step)
                    return usage_error("--shard %s: SLURM_ARRAY_TASK_COUNT is missing or the "
                                       "task id is not on the array's grid; give --shard auto/N",
                                       arg);
                i = (id - min) / step;
                n = cnt;
            }
        } else if (env_ll("JOB_COMPLETION_INDEX", &id)) {
            i = id;
            if (n == 0 && !env_ll("GPUPLAN_SHARDS", &n))
                return usage_error("--shard %s: JOB_COMPLETION_INDEX gives the index but not the "
                                   "count: give --shard auto/N (or set GPUPLAN_SHARDS)", arg);
        } else {
            return usage_error("--shard %s: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX "
                               "is set", arg);
        }
    }
    if (i < 0 || i >= n) {
        char msg[96];
        snprintf(msg, sizeof msg, "%lld/%lld", i, n);
        return usage_error("--shard %s: the index must lie from 0 to N-1", msg);
    }
    *index = (int)i;
    *count = (int)n;
    return EXIT_OK;
}

/* File names keep [A-Za-z0-9._-]; anything else becomes '_'. */
static void file_part(const char *s, char *out, size_t len)
{
    size_t o = 0;
    for (; *s && o + 1 < len; s++) {
        char c = *s;
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == '-';
        out[o++] = ok ? c : '_';
    }
    out[o] = '\0';
}

static int run_shard(Cli *cli, const SweepArgs *a, Base *b, const SweepSpec *s,
                     const StageFile *sf)
{
    int index, count;
    int rc = shard_parse(a->shard, &index, &count);
    if (rc)
        return rc;
    if (!a->out)
        return usage_error("--shard %s needs --out DIR (where the shard's result file goes)",
                           a->shard);
    long long lo, hi;
    sweep_shard_range(s->n_points, index, count, &lo, &hi);
    char *spec = sweep_spec_json(s);
    if (!spec)
        return EXIT_IO;
    char fp[17];
    sweep_fingerprint(b->yaml, spec, fp);
    double t0 = now_s();
    RowTexts t = {0};
    EvalCache *cache = eval_cache_new();
    if (!cache) {
        free(spec);
        cli_error("sweep: out of memory");
        return EXIT_IO;
    }
    bool loaded = a->stages && stages_load(cli, a->stages, sf, cache);
    rc = eval_texts(cli, s, &b->lp.plan, lo, hi, cache, &t);
    EvalCacheStats cs = eval_cache_stats(cache);
    if (loaded && rc == EXIT_OK && cs.imported_hits == 0)
        /* the file verified, but it holds another plan's (or sweep's) stages */
        fprintf(stderr, "gpuplan: sweep: --stages %s: no point of this task has the stage "
                "inputs of the file's (another plan or sweep?); this task computed the stages "
                "itself\n", a->stages);
    eval_cache_free(cache);
    json_t *o = json_object(), *rows = json_array();
    json_error_t je;
    json_t *spec_j = json_loads(spec, 0, &je);
    for (long long i = 0; rc == EXIT_OK && i < t.n; i++) {
        json_t *r = json_object();
        json_object_set_new(r, "idx", json_integer(t.rows[i].idx));
        json_object_set_new(r, "inputs", json_loads(t.rows[i].inputs, 0, &je));
        json_object_set_new(r, "outputs", json_loads(t.rows[i].outputs, 0, &je));
        json_object_set_new(r, "error", json_string(t.rows[i].error));
        json_array_append_new(rows, r);
    }
    double dt = now_s() - t0;
    char *text = NULL;
    if (rc == EXIT_OK) {
        json_object_set_new(o, "format", json_integer(SWEEP_FORMAT));
        json_object_set_new(o, "gpuplan", json_string(PACKAGE_STRING));
        json_object_set_new(o, "plan", json_string(b->store_name));
        json_object_set_new(o, "plan_yaml", json_string(b->yaml));
        json_object_set_new(o, "sweep", json_string(s->name));
        json_object_set_new(o, "fingerprint", json_string(fp));
        json_object_set_new(o, "spec", spec_j);
        spec_j = NULL;
        json_object_set_new(o, "shard", json_integer(index));
        json_object_set_new(o, "shards", json_integer(count));
        json_object_set_new(o, "first", json_integer(lo));
        json_object_set_new(o, "end", json_integer(hi));
        json_object_set_new(o, "seconds", json_real(dt));
        json_object_set_new(o, "rows", rows);
        rows = NULL;
        text = json_dumps(o, JSON_FLAGS);
        if (!text) {
            cli_error("out of memory");
            rc = EXIT_IO;
        }
    }
    if (rc == EXIT_OK) {
        if (mkdir(a->out, 0777) != 0 && errno != EEXIST) {
            cli_error("sweep: cannot create %s: %s", a->out, strerror(errno));
            rc = EXIT_IO;
        } else {
            char pn[PLAN_NAME_LEN], sn[PLAN_NAME_LEN];
            file_part(b->store_name, pn, sizeof pn);
            file_part(s->name, sn, sizeof sn);
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.%s.%s.shard-%d-of-%d.json", a->out, pn, sn, fp,
                     index, count);
            char err[1024];
            if (export_write_file(path, text, err, sizeof err) != 0) {
                cli_error("sweep: %s", err);
                rc = EXIT_IO;
            } else {
                printf("shard %d/%d of sweep '%s' (points %lld-%lld of %lld) in %.2f s: %s\n",
                       index, count, s->name, lo, hi - 1, s->n_points, dt, path);
            }
        }
    }
    free(text);
    json_decref(o);
    json_decref(rows);
    json_decref(spec_j);
    texts_free(&t);
    free(spec);
    return rc;
}

/* ------------------------------------------------------------ emit */

/* A POSIX shell word: single-quoted, ' as '\''. */
static void sh_word(StrBuf *b, const char *s)
{
    sb_putn(b, "'", 1);
    for (; *s; s++) {
        if (*s == '\'')
            sb_puts(b, "'\\''");
        else
            sb_putn(b, s, 1);
    }
    sb_putn(b, "'", 1);
}

/* The absolute path of the running gpuplan, so the script runs this build. */
static void self_path(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        snprintf(buf, len, "gpuplan");
    else
        buf[n] = '\0';
}

/* The sweep's own arguments (plan path given), as shell words or YAML list items. */
static void sweep_words(StrBuf *b, const SweepSpec *s, const char *plan_path, bool yaml,
                        const char *shard)
{
    const char *words[4 + 2 * SWEEP_MAX_AXES + 8];
    char vary[SWEEP_MAX_AXES][FIELDS_PATH_LEN + 260];
    char samples[32], seed[32];
    int n = 0;
    words[n++] = "sweep";
    words[n++] = plan_path;
    for (int k = 0; k < s->n_axes; k++) {
        snprintf(vary[k], sizeof vary[k], "%s=%s", s->axes[k].path, s->axes[k].spec);
        words[n++] = "--vary";
        words[n++] = vary[k];
    }
    if (s->samples > 0) {
        snprintf(samples, sizeof samples, "%lld", s->samples);
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->seed);
        words[n++] = "--samples";
        words[n++] = samples;
        words[n++] = "--seed";
        words[n++] = seed;
    }
    words[n++] = "--name";
    words[n++] = s->name;
    words[n++] = "--shard";
    words[n++] = shard;
    for (int i = 0; i < n; i++) {
        if (yaml) {
            sb_puts(b, "            - ");
            sb_yaml(b, words[i]);
            sb_puts(b, "\n");
        } else {
            sb_puts(b, " ");
            sh_word(b, words[i]);
        }
    }
}

static int write_text(const char *path, const char *text)
{
    char err[1024];
    if (!text || export_write_file(path, text, err, sizeof err) != 0) {
        cli_error("sweep: %s", text ? err : "out of memory");
        return EXIT_IO;
    }
    return EXIT_OK;
}

static int emit_slurm(Cli *cli, const SweepArgs *a, const SweepSpec *s, const char *dir,
                      const char *plan_path, int tasks, const char *stages)
{
    char exe[4096], abs_dir[4096];
    self_path(exe, sizeof exe);
    if (!realpath(dir, abs_dir))
        snprintf(abs_dir, sizeof abs_dir, "%s", dir);
    StrBuf b;
    sb_init(&b);
    char jn[PLAN_NAME_LEN];
    file_part(s->name, jn, sizeof jn);
    sb_printf(&b,
              "#!/bin/bash\n"
              "# gpuplan sweep '%s': %lld points in %d array tasks (written by %s).\n"
              "# Submit: sbatch %s/sweep.sbatch\n"
              "# Then:   gpuplan sweep merge %s/shards\n"
              "#SBATCH --job-name=gpuplan-sweep-%s\n"
              "#SBATCH --array=0-%d\n"
              "#SBATCH --ntasks=1\n"
              "#SBATCH --cpus-per-task=1\n"
              "#SBATCH --output=%s/logs/%%A_%%a.out\n",
              s->name, s->n_points, tasks, PACKAGE_STRING, abs_dir, abs_dir, jn, tasks - 1,
              abs_dir);
    if (a->partition)
        sb_printf(&b, "#SBATCH --partition=%s\n", a->partition);
    if (a->time_limit)
        sb_printf(&b, "#SBATCH --time=%s\n", a->time_limit);
    sb_puts(&b, "set -eu\n");
    const char *dd = getenv("GPUPLAN_DATADIR");
    if (dd && *dd) {
        sb_puts(&b, "export GPUPLAN_DATADIR=");
        sh_word(&b, dd);
        sb_puts(&b, "\n");
    }
    char shard[32];
    snprintf(shard, sizeof shard, "auto/%d", tasks);
    sb_puts(&b, "exec ");
    sh_word(&b, exe);
    if (cli->catalog_dir) {
        char cat[4096];
        sb_puts(&b, " --catalog ");
        sh_word(&b, realpath(cli->catalog_dir, cat) ? cat : cli->catalog_dir);
    }
    sweep_words(&b, s, plan_path, false, shard);
    char shards[4200];
    snprintf(shards, sizeof shards, "%s/shards", abs_dir);
    sb_puts(&b, " --stages ");
    sh_word(&b, stages);
    sb_puts(&b, " --out ");
    sh_word(&b, shards);
    sb_puts(&b, "\n");
    char logs[4200], path[4200];
    snprintf(logs, sizeof logs, "%s/logs", abs_dir);
    if ((mkdir(logs, 0777) != 0 && errno != EEXIST) || (mkdir(shards, 0777) != 0 && errno != EEXIST)) {
        cli_error("sweep: cannot create %s: %s", logs, strerror(errno));
        sb_free(&b);
        return EXIT_IO;
    }
    snprintf(path, sizeof path, "%s/sweep.sbatch", abs_dir);
    char *text = sb_finish(&b);
    int rc = write_text(path, text);
    free(text);
    if (rc == EXIT_OK) {
        chmod(path, 0755);
        printf("wrote %s (%d array tasks, %lld points)\n  sbatch %s && gpuplan sweep merge "
               "%s\n", path, tasks, s->n_points, path, shards);
    }
    return rc;
}

/* RFC 4648 base64 (a ConfigMap's binaryData). */
static void sb_base64(StrBuf *b, const unsigned char *d, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)d[i] << 16 | (i + 1 < n ? (unsigned)d[i + 1] << 8 : 0) |
                     (i + 2 < n ? d[i + 2] : 0);
        char q[4] = {t[v >> 18 & 63], t[v >> 12 & 63], i + 1 < n ? t[v >> 6 & 63] : '=',
                     i + 2 < n ? t[v & 63] : '='};
        sb_putn(b, q, 4);
    }
}

/* A ConfigMap holds at most 1 MiB (etcd's object limit); the stage file
 * travels in it, base64, when it leaves room for the plan. */
#define K8S_STAGES_MAX (640L << 10)

static int emit_k8s(const SweepArgs *a, const SweepSpec *s, const char *dir, const Base *b,
                    int tasks, const unsigned char *stages, size_t n_stages)
{
    bool ship = stages && n_stages <= (size_t)K8S_STAGES_MAX;
    if (stages && !ship)
        fprintf(stderr, "gpuplan: sweep: %s/" STAGES_FILE " (%zu KB) does not fit the plan's "
                "ConfigMap: the tasks compute the stages themselves\n", dir, n_stages >> 10);
    StrBuf y;
    sb_init(&y);
    StrBuf nm;
    sb_init(&nm);
    sb_puts(&nm, "gpuplan-sweep-");
    sb_puts(&nm, s->name);
    char *raw = sb_finish(&nm);
    StrBuf kn;
    sb_init(&kn);
    sb_k8s_name(&kn, raw ? raw : "gpuplan-sweep");
    free(raw);
    char *name = sb_finish(&kn);
    if (!name)
        return EXIT_IO;
    char image[256];
    snprintf(image, sizeof image, "%s", a->image ? a->image : "gpuplan:" PACKAGE_VERSION);
    const char *claim = a->pvc ? a->pvc : name;
    /* the plan travels in a ConfigMap; shard files land on a shared volume
     * that `gpuplan sweep merge` reads (kubectl cp, or mount it) */
    sb_printf(&y,
              "# gpuplan sweep '%s': %lld points in %d indexed completions (written by %s).\n"
              "# kubectl apply -f sweep-job.yaml; when complete, copy the shard files off\n"
              "# the volume and run: gpuplan sweep merge DIR\n"
              "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s-plan\n"
              "data:\n  plan.yaml: ",
              s->name, s->n_points, tasks, PACKAGE_STRING, name);
    sb_yaml(&y, b->yaml);
    sb_puts(&y, "\n");
    if (ship) {
        sb_puts(&y, "binaryData:\n  " STAGES_FILE ": ");
        sb_base64(&y, stages, n_stages);
        sb_puts(&y, "\n");
    }
    if (!a->pvc)
        sb_printf(&y,
                  "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: %s\n"
                  "spec:\n  accessModes: [ReadWriteMany]\n  resources:\n"
                  "    requests:\n      storage: 1Gi\n",
                  claim);
    sb_printf(&y,
              "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: %s\n"
              "  labels:\n    app.kubernetes.io/name: gpuplan-sweep\n"
              "spec:\n  completionMode: Indexed\n  completions: %d\n  parallelism: %d\n"
              "  backoffLimit: %d\n"
              "  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: "
              "gpuplan-sweep\n"
              "    spec:\n      restartPolicy: Never\n      containers:\n"
              "        - name: sweep\n          image: ",
              name, tasks, tasks, tasks);
    sb_yaml(&y, image);
    sb_puts(&y, "\n          command:\n            - gpuplan\n");
    char shard[32];
    snprintf(shard, sizeof shard, "auto/%d", tasks);
    sweep_words(&y, s, "/sweep/plan/plan.yaml", true, shard);
    if (ship)
        sb_puts(&y, "            - --stages\n            - /sweep/plan/" STAGES_FILE "\n");
    sb_puts(&y, "            - --out\n            - /sweep/shards\n");
    sb_printf(&y,
              "          resources:\n            requests:\n              cpu: \"1\"\n"
              "              memory: 256Mi\n"
              "          volumeMounts:\n            - name: plan\n              mountPath: "
              "/sweep/plan\n              readOnly: true\n"
              "            - name: shards\n              mountPath: /sweep/shards\n"
              "      volumes:\n        - name: plan\n          configMap:\n            name: "
              "%s-plan\n        - name: shards\n          persistentVolumeClaim:\n"
              "            claimName: %s\n",
              name, claim);
    free(name);
    char path[4200];
    snprintf(path, sizeof path, "%s/sweep-job.yaml", dir);
    char *text = sb_finish(&y);
    int rc = write_text(path, text);
    free(text);
    if (rc == EXIT_OK)
        printf("wrote %s (Indexed Job, %d completions, %lld points)\n  kubectl apply -f %s\n",
               path, tasks, s->n_points, path);
    return rc;
}

static int run_emit(Cli *cli, const SweepArgs *a, const Base *b, const SweepSpec *s)
{
    bool slurm = cli_is(a->emit, "slurm"), k8s = cli_is(a->emit, "k8s");
    if (!slurm && !k8s)
        return usage_error("--emit '%s': expected slurm or k8s", a->emit);
    int tasks = a->tasks ? a->tasks : 4;
    if (tasks > s->n_points)
        tasks = (int)s->n_points;
    char dir[4096];
    if (a->dir) {
        snprintf(dir, sizeof dir, "%s", a->dir);
    } else {
        char sn[PLAN_NAME_LEN];
        file_part(s->name, sn, sizeof sn);
        snprintf(dir, sizeof dir, "sweep-%s", sn);
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error("sweep: cannot create %s: %s", dir, strerror(errno));
        return EXIT_IO;
    }
    /* the exact plan swept, beside the script: every task reads the same text */
    char plan_path[4200], abs_plan[4200];
    snprintf(plan_path, sizeof plan_path, "%s/plan.yaml", dir);
    int rc = write_text(plan_path, b->yaml);
    if (rc)
        return rc;
    if (!realpath(plan_path, abs_plan))
        snprintf(abs_plan, sizeof abs_plan, "%s", plan_path);
    /* the stages no task's points change, computed once here */
    char abs_stages[4200];
    unsigned char *stages = NULL;
    size_t n_stages = 0;
    rc = stages_write(cli, b, s, dir, abs_stages, sizeof abs_stages, &stages, &n_stages);
    if (rc == EXIT_OK)
        rc = slurm ? emit_slurm(cli, a, s, dir, abs_plan, tasks, abs_stages)
                   : emit_k8s(a, s, dir, b, tasks, stages, n_stages);
    free(stages);
    return rc;
}

/* ------------------------------------------------------------ merge */

typedef struct {
    char fp[17];
    char plan[PLAN_NAME_LEN], name[SWEEP_NAME_LEN];
    char *plan_yaml, *spec;
    long long points;
    int shards;
    unsigned char *seen;        /* per shard index */
    StoreSweepRow *rows;
    long long n_rows, cap;
    int files;
    bool bad;
} MergeGroup;

static int read_all(const char *path, char **out)
{
    *out = NULL;
    char why[128];
    FILE *f = safeio_fopen_read(path, why, sizeof why);
    if (!f)
        return -1;
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        fclose(f);
        return -1;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (!buf || n != (size_t)st.st_size) {
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *out = buf;
    return 0;
}

static MergeGroup *group_for(MergeGroup **gs, int *ng, json_t *o)
{
    const char *fp = json_string_value(json_object_get(o, "fingerprint"));
    for (int i = 0; i < *ng; i++)
        if (strcmp((*gs)[i].fp, fp) == 0)
            return &(*gs)[i];
    MergeGroup *n = realloc(*gs, (size_t)(*ng + 1) * sizeof **gs);
    if (!n)
        return NULL;
    *gs = n;
    MergeGroup *g = &n[(*ng)++];
    memset(g, 0, sizeof *g);
    snprintf(g->fp, sizeof g->fp, "%s", fp);
    snprintf(g->plan, sizeof g->plan, "%s", json_string_value(json_object_get(o, "plan")));
    snprintf(g->name, sizeof g->name, "%s", json_string_value(json_object_get(o, "sweep")));
    g->plan_yaml = strdup(json_string_value(json_object_get(o, "plan_yaml")));
    g->spec = json_dumps(json_object_get(o, "spec"), JSON_FLAGS);
    g->points = json_integer_value(json_object_get(json_object_get(o, "spec"), "points"));
    g->shards = (int)json_integer_value(json_object_get(o, "shards"));
    g->seen = calloc((size_t)g->shards, 1);
    if (!g->plan_yaml || !g->spec || !g->seen)
        g->bad = true;
    return g;
}

/* Read one shard file into its group.  Returns 0, or -1 after a message. */
static int merge_file(const char *path, MergeGroup **gs, int *ng)
{
    char *text;
    if (read_all(path, &text) != 0) {
        cli_error("sweep merge: %s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    json_error_t je;
    json_t *o = json_loads(text, 0, &je);
    free(text);
    json_t *rows = o ? json_object_get(o, "rows") : NULL;
    const char *fp = o ? json_string_value(json_object_get(o, "fingerprint")) : NULL;
    long long shard = json_integer_value(json_object_get(o, "shard"));
    long long shards = json_integer_value(json_object_get(o, "shards"));
    long long first = json_integer_value(json_object_get(o, "first"));
    long long end = json_integer_value(json_object_get(o, "end"));
    long long points = json_integer_value(json_object_get(json_object_get(o, "spec"), "points"));
    if (!o) {
        cli_error("sweep merge: %s:%d:%d: not a shard file: %s", path, je.line, je.column,
                  je.text);
        return -1;
    }
    if (json_integer_value(json_object_get(o, "format")) != SWEEP_FORMAT || !fp ||
        strlen(fp) != 16 || !json_is_array(rows) || shards < 1 || shards > 100000 || shard < 0 ||
        shard >= shards || points < 1 || !json_is_string(json_object_get(o, "plan_yaml")) ||
        !json_is_string(json_object_get(o, "plan")) || !json_is_string(json_object_get(o, "sweep"))) {
        cli_error("sweep merge: %s: not a gpuplan shard file of format %d", path, SWEEP_FORMAT);
        json_decref(o);
        return -1;
    }
    long long lo, hi;
    sweep_shard_range(points, (int)shard, (int)shards, &lo, &hi);
    if (first != lo || end != hi || (long long)json_array_size(rows) != hi - lo) {
        cli_error("sweep merge: %s: shard %lld/%lld should hold points %lld-%lld, it holds %zu "
                  "rows (a truncated or edited file?)", path, shard, shards, lo, hi - 1,
                  json_array_size(rows));
        json_decref(o);
        return -1;
    }
    MergeGroup *g = group_for(gs, ng, o);
    if (!g || g->bad || g->shards != shards) {
        cli_error("sweep merge: %s: %s", path,
                  g && !g->bad ? "another shard count than the other files of this sweep"
                               : "out of memory");
        json_decref(o);
        return -1;
    }
    g->files++;
    g->seen[shard] = 1;
    if (g->n_rows + (long long)json_array_size(rows) > g->cap) {
        long long nc = (g->cap ? g->cap * 2 : 1024) + (long long)json_array_size(rows);
        StoreSweepRow *nr = realloc(g->rows, (size_t)nc * sizeof *nr);
        if (!nr) {
            json_decref(o);
            return -1;
        }
        g->rows = nr;
        g->cap = nc;
    }
    size_t i;
    json_t *r;
    int rc = 0;
    json_array_foreach(rows, i, r)
    {
        long long idx = json_integer_value(json_object_get(r, "idx"));
        json_t *in = json_object_get(r, "inputs"), *out = json_object_get(r, "outputs");
        const char *err = json_string_value(json_object_get(r, "error"));
        if (idx != lo + (long long)i || !json_is_array(in) || !json_is_object(out) || !err) {
            cli_error("sweep merge: %s: row %zu is not point %lld of the shard", path, i,
                      lo + (long long)i);
            rc = -1;
            break;
        }
        StoreSweepRow *sr = &g->rows[g->n_rows++];
        sr->idx = idx;
        sr->inputs = json_dumps(in, JSON_FLAGS | JSON_ENCODE_ANY);
        sr->outputs = json_dumps(out, JSON_FLAGS);
        sr->error = strdup(err);
        if (!sr->inputs || !sr->outputs || !sr->error) {
            rc = -1;
            break;
        }
    }
    json_decref(o);
    return rc;
}

static void group_free(MergeGroup *g)
{
    for (long long i = 0; i < g->n_rows; i++) {
        free((char *)g->rows[i].inputs);
        free((char *)g->rows[i].outputs);
        free((char *)g->rows[i].error);
    }
    free(g->rows);
    free(g->plan_yaml);
    free(g->spec);
    free(g->seen);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fold one group (one sweep) into the store; report what happened. */
static int merge_group(Cli *cli, MergeGroup *g, bool strict)
{
    char note[128];
    snprintf(note, sizeof note, "swept: %s (merged shards)", g->name);
    int version = 0;
    int rc = stored_version(cli, g->plan, g->plan_yaml, note, &version);
    if (rc)
        return rc;
    StoreSweepPut res;
    Diag d = {0};
    if (store_sweep_put(cli->store, g->plan, g->name, version, g->fp, g->spec, g->points, g->rows,
                        g->n_rows, &res, &d) != 0) {
        cli_diag(&d);
        return EXIT_IO;
    }
    StoreSweepInfo info;
    if (store_sweep_get(cli->store, g->plan, g->name, &info, NULL, &d) != 0) {
        cli_diag(&d);
        return EXIT_IO;
    }
    int present = 0;
    for (int i = 0; i < g->shards; i++)
        present += g->seen[i];
    printf("sweep '%s' of %s@v%d: %d of %d shards in %d files: %lld rows added, %lld already "
           "merged (not counted twice); %lld of %lld points stored\n",
           g->name, g->plan, version, present, g->shards, g->files, res.added, res.same,
           info.stored, info.points);
    if (present < g->shards) {
        printf("  missing shards:");
        for (int i = 0; i < g->shards; i++) {
            if (g->seen[i])
                continue;
            long long lo, hi;
            sweep_shard_range(g->points, i, g->shards, &lo, &hi);
            printf(" %d/%d (points %lld-%lld)", i, g->shards, lo, hi - 1);
        }
        printf("\n");
    }
    if (res.conflicts > 0) {
        cli_error("sweep merge: sweep '%s': %lld rows differ from the rows already stored "
                  "(first: point %lld); the stored rows were kept", g->name, res.conflicts,
                  res.first_conflict);
        return EXIT_INVALID;
    }
    if (strict && info.stored < info.points) {
        cli_error("sweep merge: sweep '%s' is incomplete (%lld of %lld points)", g->name,
                  info.stored, info.points);
        return EXIT_INVALID;
    }
    return EXIT_OK;
}

static int cmd_merge(Cli *cli, int argc, char **argv)
{
    const char *dir = NULL;
    bool strict = false;
    for (int i = 0; i < argc; i++) {
        if (cli_is(argv[i], "--strict"))
            strict = true;
        else if (argv[i][0] == '-' || dir)
            return usage_error("merge: unexpected argument '%s'", argv[i]);
        else
            dir = argv[i];
    }
    if (!dir)
        return usage_error("merge: which directory?%s", "");
    DIR *dh = opendir(dir);
    if (!dh) {
        cli_error("sweep merge: %s: %s", dir, strerror(errno));
        return EXIT_IO;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".json") != 0 || !strstr(e->d_name, ".shard-"))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn)
                break;
            names = nn;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(dh);
    if (n == 0) {
        free(names);
        cli_error("sweep merge: %s holds no shard files (*.shard-I-of-N.json)", dir);
        return EXIT_IO;
    }
    qsort(names, n, sizeof *names, name_cmp);
    int rc = cli_catalog(cli);
    MergeGroup *gs = NULL;
    int ng = 0, first_rc = EXIT_OK;
    for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i] ? names[i] : "");
        if (!names[i] || merge_file(path, &gs, &ng) != 0)
            rc = EXIT_INVALID;
    }
    /* every sweep is merged even when an earlier one reports a problem */
    for (int i = 0; i < ng && rc == EXIT_OK; i++) {
        int grc = merge_group(cli, &gs[i], strict);
        if (grc == EXIT_IO)
            rc = grc;
        else if (grc && !first_rc)
            first_rc = grc;
    }
    if (rc == EXIT_OK)
        rc = first_rc;
    for (int i = 0; i < ng; i++)
        group_free(&gs[i]);
    free(gs);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* ------------------------------------------------------------ show / export */

typedef struct {
    SweepSpec *spec;            /* re-parsed from the stored spec (keys, units) */
    char **keys;                /* key paths */
    int n_keys;
    StrBuf out;
    int format;                 /* 0 text, 1 csv, 2 json */
    long long rows;
} Reader;

/* Shortest text that reads back as the same double. */
static const char *num_text(double v, char *buf, size_t len)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

static void json_cell(StrBuf *b, json_t *v, bool csv)
{
    char buf[64];
    if (json_is_number(v))
        sb_puts(b, num_text(json_number_value(v), buf, sizeof buf));
    else if (json_is_string(v) && csv)
        sb_csv(b, json_string_value(v));
    else if (json_is_string(v)) { /* to a terminal: text from a shard file is not trusted */
        char *t = sanitize_dup(json_string_value(v), SANITIZE_LINE);
        sb_puts(b, t ? t : "");
        free(t);
    }
    else if (json_is_true(v))
        sb_puts(b, "true");
    else if (json_is_false(v))
        sb_puts(b, "false");
}

static int row_csv(const StoreSweepRow *r, Reader *rd)
{
    json_error_t je;
    json_t *in = json_loads(r->inputs, JSON_DECODE_ANY, &je), *out = json_loads(r->outputs, 0, &je);
    sb_printf(&rd->out, "%lld", r->idx);
    for (int k = 0; k < rd->n_keys; k++) {
        sb_puts(&rd->out, ",");
        json_cell(&rd->out, json_array_get(in, (size_t)k), true);
    }
    sb_puts(&rd->out, ",");
    json_cell(&rd->out, json_object_get(out, "fits"), true);
    for (int m = 0; m < sweep_n_metrics; m++) {
        sb_puts(&rd->out, ",");
        json_cell(&rd->out, json_object_get(out, sweep_metrics[m].key), true);
    }
    sb_puts(&rd->out, ",");
    json_cell(&rd->out, json_object_get(out, "verdict"), true);
    sb_puts(&rd->out, ",");
    json_cell(&rd->out, json_object_get(out, "cheapest"), true);
    sb_puts(&rd->out, ",");
    sb_csv(&rd->out, r->error);
    sb_puts(&rd->out, "\n");
    json_decref(in);
    json_decref(out);
    rd->rows++;
    return rd->out.failed ? -1 : 0;
}

static int row_json(const StoreSweepRow *r, Reader *rd)
{
    sb_printf(&rd->out, "%s    {\"idx\": %lld, \"inputs\": {", rd->rows ? ",\n" : "", r->idx);
    json_error_t je;
    json_t *in = json_loads(r->inputs, JSON_DECODE_ANY, &je);
    for (int k = 0; k < rd->n_keys; k++) {
        json_t *key = json_string(rd->keys[k]);
        char *ks = json_dumps(key, JSON_ENCODE_ANY);
        char *vs = json_dumps(json_array_get(in, (size_t)k), JSON_ENCODE_ANY | JSON_FLAGS);
        sb_printf(&rd->out, "%s%s: %s", k ? ", " : "", ks ? ks : "\"\"", vs ? vs : "null");
        free(ks);
        free(vs);
        json_decref(key);
    }
    json_decref(in);
    json_t *err = json_string(r->error);
    char *es = json_dumps(err, JSON_ENCODE_ANY);
    sb_printf(&rd->out, "}, \"outputs\": %s, \"error\": %s}", r->outputs, es ? es : "\"\"");
    free(es);
    json_decref(err);
    rd->rows++;
    return rd->out.failed ? -1 : 0;
}

static int row_text(const StoreSweepRow *r, Reader *rd)
{
    json_error_t je;
    json_t *in = json_loads(r->inputs, JSON_DECODE_ANY, &je), *out = json_loads(r->outputs, 0, &je);
    sb_printf(&rd->out, "%6lld", r->idx);
    for (int k = 0; k < rd->n_keys; k++) {
        StrBuf c;
        sb_init(&c);
        json_cell(&c, json_array_get(in, (size_t)k), false);
        char *t = sb_finish(&c);
        sb_printf(&rd->out, "  %14.14s", t ? t : "");
        free(t);
    }
    if (r->error[0]) {
        char *t = sanitize_dup(r->error, SANITIZE_LINE);
        sb_printf(&rd->out, "  invalid: %s\n", t ? t : "");
        free(t);
    } else {
        double g = json_number_value(json_object_get(out, "gpus"));
        json_t *days = json_object_get(out, "train_days"), *wait = json_object_get(out, "wait_p95_h");
        char usd[32], tco[32] = "-";
        json_t *t = json_object_get(out, "tco_usd");
        if (json_is_number(t))
            fmt_usd(json_number_value(t), tco, sizeof tco);
        snprintf(usd, sizeof usd, "%s", tco);
        char dbuf[16] = "-", wbuf[16] = "-";
        if (json_is_number(days))
            snprintf(dbuf, sizeof dbuf, "%.1f", json_number_value(days));
        if (json_is_number(wait))
            snprintf(wbuf, sizeof wbuf, "%.2f", json_number_value(wait));
        sb_printf(&rd->out, "  %8.0f  %7s  %7.2f  %9s  %-10.10s  %7s  %s\n", g, dbuf,
                  json_number_value(json_object_get(out, "facility_mw")), usd,
                  json_is_string(json_object_get(out, "verdict"))
                      ? json_string_value(json_object_get(out, "verdict")) : "",
                  wbuf,
                  json_is_true(json_object_get(out, "fits")) ? "yes" : "no");
    }
    json_decref(in);
    json_decref(out);
    rd->rows++;
    return rd->out.failed ? -1 : 0;
}

static int row_cb(const StoreSweepRow *r, void *ctx)
{
    Reader *rd = ctx;
    return rd->format == 1 ? row_csv(r, rd) : rd->format == 2 ? row_json(r, rd) : row_text(r, rd);
}

static int cmd_read(Cli *cli, int argc, char **argv, const char *verb)
{
    const char *plan = NULL, *name = NULL, *fmt = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if ((cli_is(argv[i], "--format") || cli_is(argv[i], "-f")) && i + 1 < argc)
            fmt = argv[++i];
        else if ((cli_is(argv[i], "-o") || cli_is(argv[i], "--output")) && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' || (plan && name))
            return usage_error("unexpected argument '%s'", argv[i]);
        else if (!plan)
            plan = argv[i];
        else
            name = argv[i];
    }
    bool is_export = strcmp(verb, "export") == 0, is_delete = strcmp(verb, "delete") == 0;
    if (!plan || !name)
        return usage_error("%s: which plan and sweep? (gpuplan sweep ... PLAN NAME)", verb);
    if (is_export && !fmt)
        return usage_error("export needs --format csv|json%s", "");
    if (fmt && !cli_is(fmt, "csv") && !cli_is(fmt, "json"))
        return usage_error("--format '%s': expected csv or json", fmt);
    if (!is_export && (fmt || out))
        return usage_error("%s takes no --format or -o", verb);
    int rc = cli_store(cli, is_delete);
    if (rc)
        return rc;
    Diag d = {0};
    if (is_delete) {
        if (store_sweep_delete(cli->store, plan, name, &d) != 0) {
            cli_diag(&d);
            return EXIT_IO;
        }
        printf("deleted sweep '%s' of %s\n", name, plan);
        return EXIT_OK;
    }
    StoreSweepInfo info;
    char *spec = NULL;
    if (store_sweep_get(cli->store, plan, name, &info, &spec, &d) != 0) {
        cli_diag(&d);
        return EXIT_IO;
    }
    Reader rd = {0};
    rd.format = !fmt ? 0 : cli_is(fmt, "csv") ? 1 : 2;
    char *vary[SWEEP_MAX_AXES];
    long long samples = 0;
    uint64_t seed = 0;
    int nv = sweep_spec_vary(spec, vary, SWEEP_MAX_AXES, &samples, &seed);
    rd.keys = calloc(SWEEP_MAX_AXES, sizeof *rd.keys);
    for (int k = 0; k < nv && rd.keys; k++) {
        char *eq = strchr(vary[k], '=');
        rd.keys[rd.n_keys++] = strndup(vary[k], eq ? (size_t)(eq - vary[k]) : strlen(vary[k]));
    }
    sb_init(&rd.out);
    if (rd.format == 1) {
        sb_puts(&rd.out, "idx");
        for (int k = 0; k < rd.n_keys; k++) {
            sb_puts(&rd.out, ",");
            sb_csv(&rd.out, rd.keys[k]);
        }
        sb_puts(&rd.out, ",fits");
        for (int m = 0; m < sweep_n_metrics; m++)
            sb_printf(&rd.out, ",%s", sweep_metrics[m].key);
        sb_puts(&rd.out, ",verdict,cheapest,error\n");
    } else if (rd.format == 2) {
        json_t *h = json_object();
        json_object_set_new(h, "plan", json_string(info.plan));
        json_object_set_new(h, "plan_version", json_integer(info.plan_version));
        json_object_set_new(h, "sweep", json_string(info.name));
        json_object_set_new(h, "fingerprint", json_string(info.fingerprint));
        json_object_set_new(h, "points", json_integer(info.points));
        json_object_set_new(h, "stored", json_integer(info.stored));
        json_error_t je;
        json_object_set_new(h, "spec", json_loads(spec, 0, &je));
        char *hs = json_dumps(h, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
        json_decref(h);
        /* the header object, with "rows" appended before its closing brace */
        size_t hl = hs ? strlen(hs) : 0;
        while (hl && hs[hl - 1] != '}')
            hl--;
        if (hl)
            sb_putn(&rd.out, hs, hl - 1);
        sb_puts(&rd.out, ",\n  \"rows\": [\n");
        free(hs);
    } else {
        sb_printf(&rd.out, "sweep '%s' of %s@v%d: %lld of %lld points%s\n", info.name, info.plan,
                  info.plan_version, info.stored, info.points,
                  info.stored < info.points ? " (incomplete: shards missing)" : "");
        for (int k = 0; k < nv; k++)
            sb_printf(&rd.out, "  --vary %s\n", vary[k]);
        if (samples > 0)
            sb_printf(&rd.out, "  --samples %lld --seed %llu\n", samples,
                      (unsigned long long)seed);
        sb_printf(&rd.out, "%6s", "point");
        for (int k = 0; k < rd.n_keys; k++) {
            const char *dot = strrchr(rd.keys[k], '.');
            sb_printf(&rd.out, "  %14.14s", dot ? dot + 1 : rd.keys[k]);
        }
        sb_printf(&rd.out, "  %8s  %7s  %7s  %9s  %-10s  %7s  %s\n", "GPUs", "days", "MW", "TCO",
                  "verdict", "p95 h", "fits");
    }
    int r = store_sweep_rows(cli->store, plan, name, row_cb, &rd, &d);
    if (r != 0) {
        if (r < 0 && d.msg[0])
            cli_diag(&d);
        else
            cli_error("out of memory");
        rc = EXIT_IO;
    }
    if (rd.format == 2)
        sb_puts(&rd.out, "\n  ]\n}\n");
    char *text = sb_finish(&rd.out);
    if (rc == EXIT_OK)
        rc = text ? cli_write_output(out, text) : EXIT_IO;
    free(text);
    for (int k = 0; k < nv; k++)
        free(vary[k]);
    for (int k = 0; k < rd.n_keys; k++)
        free(rd.keys[k]);
    free(rd.keys);
    free(spec);
    return rc;
}

/* ------------------------------------------------------------ the command */

int cmd_sweep(Cli *cli, int argc, char **argv)
{
    if (argc > 0 && cli_is(argv[0], "merge"))
        return cmd_merge(cli, argc - 1, argv + 1);
    if (argc > 0 && (cli_is(argv[0], "show") || cli_is(argv[0], "export") ||
                     cli_is(argv[0], "delete")))
        return cmd_read(cli, argc - 1, argv + 1, argv[0]);
    SweepArgs a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    if (a.shard && a.emit)
        return usage_error("--shard and --emit do not go together%s", "");
    if (!a.shard && a.out)
        return usage_error("--out DIR goes with --shard%s", "");
    if (!a.shard && a.stages)
        return usage_error("--stages FILE goes with --shard (--emit writes it)%s", "");
    if (!a.emit && (a.dir || a.tasks || a.image || a.pvc || a.partition || a.time_limit))
        return usage_error("--dir, --tasks, --image, --pvc, --partition and --time go with "
                           "--emit%s", "");
    if (!a.emit) { /* evaluating thousands of plans in a row */
        big_keep_freed_memory();
        big_prefault_heap(SWEEP_TASK_HEAP);
    }
    Base *b = calloc(1, sizeof *b);
    SweepSpec *s = calloc(1, sizeof *s);
    if (!b || !s) {
        free(b);
        free(s);
        return EXIT_IO;
    }
    StageFile sf = {0};
    if (a.shard && a.stages) /* before the plan: the file may carry its catalog */
        stages_read(cli, a.stages, &sf);
    rc = base_load(cli, a.plan, b);
    if (rc == EXIT_OK)
        rc = build_spec(cli, &a, &b->lp.plan, s);
    if (rc == EXIT_OK) {
        if (a.emit)
            rc = run_emit(cli, &a, b, s);
        else if (a.shard)
            rc = run_shard(cli, &a, b, s, &sf);
        else
            rc = run_local(cli, b, s);
    }
    base_free(b);
    free(b);
    free(s);
    free(sf.data);
    return rc;
}
