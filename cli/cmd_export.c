/* cli/cmd_export.c — `gpuplan export FILE|NAME --format F [-o FILE]`. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"

/* Write text to `out` (atomically) or stdout; shared with compare. */
int cli_write_output(const char *out, const char *text)
{
    if (!out || cli_is(out, "-")) {
        if (fputs(text, stdout) == EOF || fflush(stdout) != 0) {
            cli_error("cannot write to standard output");
            return EXIT_IO;
        }
        return EXIT_OK;
    }
    char err[1024];
    if (export_write_file(out, text, err, sizeof err) != 0) {
        cli_error("%s", err);
        return EXIT_IO;
    }
    fprintf(stderr, "gpuplan: wrote %s\n", out);
    return EXIT_OK;
}

int cmd_export(Cli *cli, int argc, char **argv)
{
    const char *ref = NULL, *fmt = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if ((cli_is(argv[i], "--format") || cli_is(argv[i], "-f")) && i + 1 < argc)
            fmt = argv[++i];
        else if (!strncmp(argv[i], "--format=", 9))
            fmt = argv[i] + 9;
        else if ((cli_is(argv[i], "-o") || cli_is(argv[i], "--output")) && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' || ref) {
            cli_error("export: unexpected argument '%s' (usage: gpuplan export FILE|NAME "
                      "--format F [-o FILE])", argv[i]);
            return EXIT_USAGE;
        } else
            ref = argv[i];
    }
    if (!ref || !fmt) {
        cli_error("export: usage: gpuplan export FILE|NAME --format "
                  "md|html|csv|json|yaml|kueue|volcano|slurm [-o FILE]");
        return EXIT_USAGE;
    }
    int f = export_format_from_name(fmt);
    if (f < 0) {
        cli_error("export: unknown format '%s' (expected md, html, csv, json, yaml, kueue, "
                  "volcano or slurm)", fmt);
        return EXIT_USAGE;
    }
    LoadedPlan *lp = calloc(1, sizeof *lp);
    if (!lp)
        return EXIT_IO;
    int rc = cli_load_plan(cli, ref, lp);
    if (rc == EXIT_OK) {
        PlanResult *r = cli_evaluate(cli, &lp->plan);
        char *text = r ? export_plan((ExportFormat)f, &lp->plan, r, &cli->catalog, lp->version)
                       : NULL;
        if (!text) {
            cli_error("export: out of memory");
            rc = EXIT_IO;
        } else {
            rc = cli_write_output(out, text);
        }
        free(text);
        free(r);
    }
    cli_free_plan(lp);
    free(lp);
    return rc;
}
