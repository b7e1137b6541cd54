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

/* `--format slurm -o DIR`: the bundle's four files into DIR. */
static int write_slurm_bundle(Cli *cli, const Plan *p, const PlanResult *r, const char *dir)
{
    ExportFile files[4];
    if (export_slurm_files(p, r, &cli->catalog, files) < 0) {
        cli_error("export: out of memory");
        return EXIT_IO;
    }
    char err[1024];
    int rc = EXIT_OK;
    if (export_write_dir(dir, files, 4, err, sizeof err) != 0) {
        cli_error("%s", err);
        rc = EXIT_IO;
    } else {
        fprintf(stderr, "gpuplan: wrote %s/{slurm.conf,gres.conf,topology.conf,accounts.sh}\n",
                dir);
    }
    export_files_free(files, 4);
    return rc;
}

int cmd_export(Cli *cli, int argc, char **argv)
{
    const char *ref = NULL, *fmt = NULL, *out = NULL, *kueue_api = NULL;
    bool ranges = false;
    for (int i = 0; i < argc; i++) {
        if ((cli_is(argv[i], "--format") || cli_is(argv[i], "-f")) && i + 1 < argc)
            fmt = argv[++i];
        else if (cli_is(argv[i], "--ranges"))
            ranges = true;
        else if (cli_is(argv[i], "--kueue-version") && i + 1 < argc)
            kueue_api = argv[++i];
        else if (!strncmp(argv[i], "--format=", 9))
            fmt = argv[i] + 9;
        else if ((cli_is(argv[i], "-o") || cli_is(argv[i], "--output")) && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' || ref) {
            cli_error("export: unexpected argument '%s' (usage: gpuplan export FILE|NAME "
                      "--format F [-o FILE|DIR] [--kueue-version V] [--ranges])", argv[i]);
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
    if (kueue_api && (f != EXPORT_KUEUE || !export_kueue_api_supported(kueue_api))) {
        cli_error("export: --kueue-version %s: expected v1beta2 (Kueue >= 0.15) or v1beta1 "
                  "(older clusters), with --format kueue", kueue_api);
        return EXIT_USAGE;
    }
    if (ranges && !export_ranges_supported((ExportFormat)f)) {
        cli_error("export: --ranges adds the \"What moves the answer\" section to md, html "
                  "or json, not %s", fmt);
        return EXIT_USAGE;
    }
    LoadedPlan *lp = calloc(1, sizeof *lp);
    if (!lp)
        return EXIT_IO;
    int rc = cli_load_plan(cli, ref, lp);
    if (rc == EXIT_OK) {
        PlanResult *r = cli_evaluate(cli, &lp->plan);
        char *text = NULL;
        if (r && f == EXPORT_SLURM && out && !cli_is(out, "-")) {
            rc = write_slurm_bundle(cli, &lp->plan, r, out);
            free(r);
            cli_free_plan(lp);
            free(lp);
            return rc;
        }
        SensResult *sens = NULL;
        McResult *mc = NULL;
        if (r && ranges && cli_ranges(cli, &lp->plan, &sens, &mc) != 0) {
            free(r);
            r = NULL;
        }
        if (r && f == EXPORT_KUEUE && kueue_api)
            text = export_kueue_api(&lp->plan, r, &cli->catalog, kueue_api);
        else if (r)
            text = export_plan_ranges((ExportFormat)f, &lp->plan, r, &cli->catalog,
                                      lp->version, sens, mc);
        free(sens);
        free(mc);
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
