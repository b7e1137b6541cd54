/* cli/cli.h — shared state and helpers of the headless commands. */
#ifndef GPUPLAN_CLI_H
#define GPUPLAN_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "catalog.h"
#include "diag.h"
#include "fmt.h"
#include "plan.h"
#include "sensitivity.h"
#include "store.h"
#include "trace.h"

/* Exit statuses (PLAN-FORMAT.md "The command line"). */
enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

typedef struct {
    const char *db_path;       /* --db, NULL = default */
    const char *catalog_dir;   /* --catalog: user overrides, NULL = none */
    const char *theme;         /* --theme */
    Catalog catalog;
    bool catalog_loaded;
    Store *store;
} Cli;

/* One loaded plan and what it borrows (the trace). */
typedef struct {
    Plan plan;
    Trace trace;
    bool has_trace;
    char source[512];          /* file path or "store:NAME@vN" */
    int version;               /* stored version, 0 for a file */
} LoadedPlan;

typedef int (*CmdFn)(Cli *cli, int argc, char **argv);

/* Print "gpuplan: <msg>" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a Diag as "gpuplan: FILE:LINE:COL: message". */
void cli_diag(const Diag *d);

/* Load the catalog (data dir + --catalog) once. Returns an exit status. */
int cli_catalog(Cli *cli);
/* The digest of the catalog files cli_catalog reads (data dir + --catalog):
 * catalog_source_digest.  0, or -1 when they cannot be read. */
int cli_catalog_source(const Cli *cli, uint64_t *digest);
/* Open the store (creating and seeding it on first use); when !write, a store
 * that cannot be written is opened read-only.  Returns an exit status. */
int cli_store(Cli *cli, bool write);
/* Load a plan from a file path or a stored name ("NAME" or "NAME@N" for
 * version N), with its trace when the plan names one.  Returns an exit status. */
int cli_load_plan(Cli *cli, const char *ref, LoadedPlan *out);
void cli_free_plan(LoadedPlan *lp);
/* Evaluate (heap result, caller frees).  NULL on ENOMEM. */
PlanResult *cli_evaluate(Cli *cli, const Plan *p);
/* --ranges: the tornado and the Monte Carlo of p over its ranges (one stage
 * cache); 0, or -1 after printing the error (*sens, *mc NULL).  The caller
 * frees both. */
int cli_ranges(Cli *cli, const Plan *p, SensResult **sens, McResult **mc);

/* Write text to path atomically, or to stdout when path is NULL or "-". */
int cli_write_output(const char *path, const char *text);

/* Option helpers: true when argv[i] is `name`. */
bool cli_is(const char *arg, const char *name);


int cmd_eval(Cli *cli, int argc, char **argv);
int cmd_simulate(Cli *cli, int argc, char **argv);
int cmd_save(Cli *cli, int argc, char **argv);
int cmd_list(Cli *cli, int argc, char **argv);
int cmd_show(Cli *cli, int argc, char **argv);
int cmd_compare(Cli *cli, int argc, char **argv);
int cmd_export(Cli *cli, int argc, char **argv);
int cmd_catalog(Cli *cli, int argc, char **argv);
int cmd_sweep(Cli *cli, int argc, char **argv);
int cmd_calibrate(Cli *cli, int argc, char **argv);

#endif
