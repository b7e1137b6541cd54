/* cli/main.c — `gpuplan`: the dashboard with no command, else one of the
 * headless commands of PLAN-FORMAT.md.  Global options may stand before or
 * after the command (`gpuplan --db X list` = `gpuplan list --db X`). */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog_yaml.h"
#include "cli.h"
#include "sanitize.h"
#include "datadir.h"
#include "evaluate.h"
#include "yaml_plan.h"
#include "../tui/tui.h"

typedef struct {
    const char *name;
    CmdFn fn;
    const char *usage;
    const char *help;
} Command;

static const Command commands[] = {
    {"eval", cmd_eval, "eval FILE|NAME[@VERSION] [--json] [--strict] [--ranges]",
     "Evaluate a plan file or a stored plan and print the sized cluster.\n"
     "  --json     print the eval object of PLAN-FORMAT.md\n"
     "  --strict   exit 1 when a workload does not fit or misses its SLO\n"
     "  --ranges   add the sensitivity tornado, the verdict's flip values and\n"
     "             Monte Carlo P10/P50/P90 over the plan's ranges"},
    {"save", cmd_save, "save FILE [--as NAME] [--note TEXT]",
     "Store a plan file as a new version (under its own name, or NAME)."},
    {"list", cmd_list, "list [REGEX] [--deleted]",
     "List stored plans whose name matches REGEX (PCRE2) with versions and last change."},
    {"show", cmd_show, "show NAME [--version N]",
     "Print a stored plan (latest version, or version N) as canonical YAML."},
    {"compare", cmd_compare, "compare A B [--json] [--format md|html|csv|json] [-o FILE]",
     "Two plans (files, stored names, or NAME@VERSION) side by side with deltas.\n"
     "  --json     the comparison as JSON: both eval objects and the deltas\n"
     "  --format F write the comparison as md, html, csv or json\n"
     "  -o FILE    write to FILE (atomically) instead of standard output"},
    {"export", cmd_export, "export FILE|NAME[@VERSION] --format F [-o FILE] [--ranges]",
     "Export a plan: md | html | csv | json | yaml | kueue | volcano | slurm.\n"
     "  -o FILE    write to FILE (atomically) instead of standard output\n"
     "  --ranges   md, html, json: add \"What moves the answer\" (the tornado,\n"
     "             the verdict's flip values, Monte Carlo P10/P50/P90)"},
    {"catalog", cmd_catalog, "catalog [REGEX] [--json]",
     "List catalog accelerators and cloud instances whose id matches REGEX."},
    {"sweep", cmd_sweep,
     "sweep PLAN --vary KEY=A..B/N|KEY=v1,v2 ... [--samples N --seed S] [--name NAME]\n"
     "             [--shard I/N|auto[/N] --out DIR] [--emit slurm|k8s [--tasks N] [--dir DIR]]\n"
     "       gpuplan sweep merge DIR [--strict] | show PLAN NAME | delete PLAN NAME\n"
     "       gpuplan sweep export PLAN NAME --format csv|json [-o FILE]",
     "A grid (KEY=A..B/N, KEY=v1,v2: every combination) or, with --samples N, a seeded\n"
     "Monte Carlo over plan keys; one row per point (inputs and headline outputs:\n"
     "GPUs, days, MW, TCO, verdict, p95 wait), stored under the plan as a named sweep.\n"
     "  --vary KEY=SPEC  a key by dotted path (site.pue, tenancy.gpus,\n"
     "                   workloads.NAME.tokens, tenancy.teams.T.jobs.J.per_day) and\n"
     "                   A..B/N (N values), A..B (Monte Carlo range) or v1,v2,...\n"
     "  --samples N      N random points instead of the grid; --seed S (default 1)\n"
     "  --name NAME      the sweep's name (default: the varied keys)\n"
     "  --shard I/N      evaluate slice I of N into a shard file in --out DIR (auto:\n"
     "                   SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX; auto/N)\n"
     "  --emit slurm|k8s write an sbatch array script or an Indexed Job manifest and\n"
     "                   the plan into --dir DIR (--tasks N, default 4; slurm:\n"
     "                   --partition P --time T; k8s: --image IMG --pvc CLAIM)\n"
     "  merge DIR        fold shard files into the store (idempotent; --strict: exit 1\n"
     "                   while shards are missing)"},
    {"calibrate", cmd_calibrate,
     "calibrate RUNS.yaml... [-o DIR] [--half fit|held-out|all] [--bands] [--bands-all]\n"
     "          [--cross-validate]",
     "Fit the training model's framework profile per accelerator x framework to measured\n"
     "runs (plan files whose training workloads give measured_step or\n"
     "measured_tokens_per_gpu) by least squares; print each run's error before and after.\n"
     "  -o DIR     write DIR/calibrated.yaml, a catalog override for --catalog DIR\n"
     "  --half H   fit only the fit or held-out half of the validation split\n"
     "  --bands    also write error_bands rows from the residuals after the fit\n"
     "  --bands-all  the same, from the residuals of every run given (both halves)\n"
     "  --cross-validate  also predict each run with a fit on the other half of the\n"
     "             split (the runs it left out): per run, overall, per profile"},
    {"simulate", cmd_simulate, "simulate FILE|NAME[@VERSION] [--json] [--gpus N]",
     "Run only the scheduling simulation of a plan's tenancy.\n"
     "  --gpus N   simulate a fixed pool of N GPUs instead of the plan's"},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: gpuplan [OPTIONS] [COMMAND [ARGS]]\n"
               "       gpuplan [OPTIONS] [PLAN.yaml | NAME[@VERSION]]\n\n"
               "With no command, opens the dashboard on the plan store (its newest plan,\n"
               "a plan file, or a stored plan).\n\n"
               "commands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  gpuplan %s\n", commands[i].usage);
    fprintf(f, "\noptions (before or after the command):\n"
               "  --db PATH        plan store (default $XDG_DATA_HOME/gpuplan/plans.db)\n"
               "  --catalog DIR    extra catalog YAML files that add or override entries\n"
               "  --theme NAME     dashboard theme (default, dark, light, high-contrast, mono)\n"
               "  --help           this help, or a command's (gpuplan eval --help)\n"
               "  --version        print the version\n\n"
               "exit status: 0 ok, 1 invalid plan, 2 usage error, 3 store or I/O error\n");
}

void cli_error(const char *fmt, ...)
{
    /* A message may quote argv or input: control characters become visible
     * escapes (sanitize.h), never terminal commands. */
    char raw[2048], out[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gpuplan: %s\n", sanitize_text(raw, SANITIZE_LINE, out, sizeof out));
}

void cli_diag(const Diag *d)
{
    char buf[1024];
    fprintf(stderr, "gpuplan: %s\n", diag_format(d, buf, sizeof buf));
}

bool cli_is(const char *arg, const char *name)
{
    return arg && strcmp(arg, name) == 0;
}

int cli_catalog(Cli *cli)
{
    if (cli->catalog_loaded)
        return EXIT_OK;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/catalog", datadir_get());
    Diag d = {0};
    if (catalog_load(&cli->catalog, dir, cli->catalog_dir, &d) != 0) {
        cli_diag(&d);
        return EXIT_IO;
    }
    cli->catalog_loaded = true;
    return EXIT_OK;
}

int cli_catalog_source(const Cli *cli, uint64_t *digest)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/catalog", datadir_get());
    return catalog_source_digest(dir, cli->catalog_dir, digest);
}

/* Open the store at path: read-write, or for a command that only reads, a
 * store that cannot be written (read-only file or directory) read-only. */
static Store *open_store(const char *path, const char *seed, bool write, Diag *d)
{
    Store *s = store_open(path, seed, false, d);
    if (s || write || store_diag_busy(d)) /* a lock held past the timeout: do not wait twice */
        return s;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
        return NULL;
    Diag ro = {0}; /* on failure d keeps the read-write reason, the more telling one */
    return store_open(path, seed, true, &ro);
}

int cli_store(Cli *cli, bool write)
{
    if (cli->store)
        return EXIT_OK;
    char path[4096];
    if (cli->db_path) {
        snprintf(path, sizeof path, "%s", cli->db_path);
    } else if (datadir_default_db(path, sizeof path) != 0) {
        cli_error("cannot find a place for the plan store (set XDG_DATA_HOME or HOME, or "
                  "pass --db PATH)");
        return EXIT_IO;
    }
    char seed[4096];
    snprintf(seed, sizeof seed, "%s/examples", datadir_get());
    Diag d = {0};
    cli->store = open_store(path, seed, write, &d);
    if (!cli->store) {
        cli_diag(&d);
        return EXIT_IO;
    }
    const Diag *warn = NULL;
    size_t nwarn = store_warnings(cli->store, &warn);
    for (size_t i = 0; i < nwarn; i++) {
        char buf[1024];
        cli_error("warning: %s", diag_format(&warn[i], buf, sizeof buf));
    }
    return EXIT_OK;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Load and lend the plan's trace (trace_attach). */
static int load_trace(const char *plan_path, LoadedPlan *lp)
{
    Diag d = {0};
    int rc = trace_attach(&lp->plan, plan_path, &lp->trace, &d);
    if (rc != 0) {
        cli_diag(&d);
        /* a malformed trace is an invalid input; one that cannot be read, I/O */
        return rc == -2 ? EXIT_IO : EXIT_INVALID;
    }
    lp->has_trace = lp->plan.tenancy.trace_jobs != NULL;
    return EXIT_OK; /* rows not replayed: the schedule's warnings */
}

int cli_load_plan(Cli *cli, const char *ref, LoadedPlan *lp)
{
    memset(lp, 0, sizeof *lp);
    int rc = cli_catalog(cli);
    if (rc)
        return rc;
    Diag d = {0};
    if (is_file(ref)) {
        int lrc = plan_load_file(ref, &cli->catalog, &lp->plan, &d);
        if (lrc != 0) {
            cli_diag(&d);
            return lrc == -2 ? EXIT_IO : EXIT_INVALID;
        }
        snprintf(lp->source, sizeof lp->source, "%s", ref);
        return load_trace(ref, lp);
    }
    /* a stored plan: NAME or NAME@VERSION */
    char name[PLAN_NAME_LEN + 16];
    snprintf(name, sizeof name, "%s", ref);
    int version = 0;
    char *at = strrchr(name, '@');
    if (at) {
        char *end;
        errno = 0;
        long v = strtol(at + 1, &end, 10);
        if (*end == '\0' && at[1] && v > 0 && errno == 0) {
            *at = '\0';
            version = (int)v;
        }
    }
    if ((rc = cli_store(cli, false)))
        return rc;
    char *yaml = NULL;
    int got = 0;
    if (store_load(cli->store, name, version, &yaml, &got, &d) != 0) {
        struct stat st;
        if (stat(ref, &st) == 0) {
            cli_error("%s: not a regular file%s", ref, S_ISDIR(st.st_mode) ? " (a directory)" : "");
        } else if (!strchr(ref, '/') && !strstr(ref, ".yaml") && !strstr(ref, ".yml")) {
            cli_diag(&d);
        } else {
            cli_error("%s: no such file, and no stored plan of that name", ref);
        }
        return EXIT_IO;
    }
    char src[160];
    snprintf(src, sizeof src, "store:%s@v%d", name, got);
    rc = plan_parse(yaml, strlen(yaml), src, &cli->catalog, &lp->plan, &d);
    free(yaml);
    if (rc != 0) {
        cli_diag(&d);
        return EXIT_INVALID;
    }
    snprintf(lp->source, sizeof lp->source, "%s", src);
    lp->version = got;
    return load_trace(NULL, lp);
}

void cli_free_plan(LoadedPlan *lp)
{
    if (lp->has_trace)
        trace_free(&lp->trace);
    lp->has_trace = false;
}

PlanResult *cli_evaluate(Cli *cli, const Plan *p)
{
    PlanResult *r = calloc(1, sizeof *r);
    if (!r) {
        cli_error("out of memory");
        return NULL;
    }
    plan_evaluate(p, &cli->catalog, r);
    return r;
}

/* Is ref ("NAME" or "NAME@N") a plan in the store? */
static bool stored_plan(Cli *cli, const char *ref)
{
    char name[PLAN_NAME_LEN + 16];
    snprintf(name, sizeof name, "%s", ref);
    char *at = strrchr(name, '@');
    if (at)
        *at = '\0';
    if (!store_name_valid(name))
        return false;
    /* quietly: an unusable store is reported by whatever runs next */
    if (!cli->store) {
        char path[4096], seed[4096];
        if (cli->db_path)
            snprintf(path, sizeof path, "%s", cli->db_path);
        else if (datadir_default_db(path, sizeof path) != 0)
            return false;
        snprintf(seed, sizeof seed, "%s/examples", datadir_get());
        Diag d = {0};
        cli->store = open_store(path, seed, false, &d);
    }
    return cli->store && store_exists(cli->store, name);
}

static const Command *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    Cli cli = {0};
    bool help = false, version = false;
    const Command *cmd = NULL;
    /* Pull global options out wherever they stand; keep the rest in order. */
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest)
        return EXIT_IO;
    int nrest = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is(a, "--db") || cli_is(a, "--catalog") || cli_is(a, "--theme")) {
            if (i + 1 >= argc) {
                cli_error("%s needs an argument", a);
                free(rest);
                return EXIT_USAGE;
            }
            const char **slot = cli_is(a, "--db")        ? &cli.db_path
                                : cli_is(a, "--catalog") ? &cli.catalog_dir
                                                         : &cli.theme;
            *slot = argv[++i];
        } else if (!strncmp(a, "--db=", 5)) {
            cli.db_path = a + 5;
        } else if (!strncmp(a, "--catalog=", 10)) {
            cli.catalog_dir = a + 10;
        } else if (!strncmp(a, "--theme=", 8)) {
            cli.theme = a + 8;
        } else if (cli_is(a, "--help") || cli_is(a, "-h")) {
            help = true;
        } else if (cli_is(a, "--version") && !(cmd && !strcmp(cmd->name, "show"))) {
            version = true;
        } else {
            if (!cmd && a[0] != '-' && (cmd = find_command(a)) != NULL) {
                continue;
            }
            rest[nrest++] = argv[i];
        }
    }
    int rc;
    if (version) {
        printf("%s\n", PACKAGE_STRING);
        rc = EXIT_OK;
    } else if (help) {
        if (cmd)
            printf("usage: gpuplan %s\n\n%s\n", cmd->usage, cmd->help);
        else
            usage(stdout);
        rc = EXIT_OK;
    } else if (!cmd && (nrest == 0 || (nrest == 1 && (is_file(rest[0]) ||
                                                        stored_plan(&cli, rest[0]))))) {
        /* the dashboard: on the store's newest plan, a plan file, or NAME[@N] */
        if (cli.store) {
            store_close(cli.store);
            cli.store = NULL;
        }
        rc = tui_run(cli.db_path, cli.catalog_dir, cli.theme, nrest ? rest[0] : NULL);
    } else if (!cmd) {
        cli_error("unknown command '%s' (try gpuplan --help)", rest[0]);
        rc = EXIT_USAGE;
    } else {
        rc = cmd->fn(&cli, nrest, rest);
    }
    /* Output that did not all reach stdout (a full disk, a closed pipe) is
     * an I/O error, not a success a script would trust. */
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == EXIT_OK) {
        cli_error("cannot write to standard output%s%s", errno ? ": " : "",
                  errno ? strerror(errno) : "");
        rc = EXIT_IO;
    }
    if (cli.store)
        store_close(cli.store);
    if (cli.catalog_loaded)
        catalog_free(&cli.catalog);
    free(rest);
    return rc;
}
