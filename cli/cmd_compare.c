/* cli/cmd_compare.c — `gpuplan compare A B [--json] [--format F] [-o FILE]`:
 * every headline number of two plans (files, stored plans or NAME@VERSION)
 * side by side with its delta, better/worse by the metric's direction. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"
#include "export_summary.h"
#include "headline.h"

static void print_table(const char *na, const char *nb, const HeadlineDelta *d, int n)
{
    bool color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    printf("%-9s %-24s %-24s %16.16s %16.16s %9s\n", "SECTION", "SUBJECT", "METRIC", na, nb,
           "DELTA");
    for (int i = 0; i < n; i++) {
        char a[40] = "—", b[40] = "—", pct[24] = "";
        if (d[i].in_a)
            summary_value(&d[i].h, d[i].a, a, sizeof a);
        if (d[i].in_b)
            summary_value(&d[i].h, d[i].b, b, sizeof b);
        if (d[i].in_a && d[i].in_b)
            snprintf(pct, sizeof pct, "%+.1f%%", d[i].pct);
        const char *on = "", *off = "";
        if (color && d[i].verdict) {
            on = d[i].verdict > 0 ? "\033[32m" : "\033[31m";
            off = "\033[0m";
        }
        const char *mark = d[i].verdict > 0 ? " better" : d[i].verdict < 0 ? " worse" : "";
        printf("%-9s %-24.24s %-24.24s %16s %16s %s%9s%s%s\n", d[i].h.section, d[i].h.subject,
               d[i].h.label, a, b, on, pct, mark, off);
    }
}

int cmd_compare(Cli *cli, int argc, char **argv)
{
    const char *ref[2] = {NULL, NULL}, *fmt = NULL, *out = NULL;
    int nref = 0;
    for (int i = 0; i < argc; i++) {
        if (cli_is(argv[i], "--json"))
            fmt = "json";
        else if ((cli_is(argv[i], "--format") || cli_is(argv[i], "-f")) && i + 1 < argc)
            fmt = argv[++i];
        else if ((cli_is(argv[i], "-o") || cli_is(argv[i], "--output")) && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' || nref == 2) {
            cli_error("compare: unexpected argument '%s' (usage: gpuplan compare A B [--json] "
                      "[--format md|html|csv|json] [-o FILE])", argv[i]);
            return EXIT_USAGE;
        } else
            ref[nref++] = argv[i];
    }
    if (nref != 2) {
        cli_error("compare: needs two plans (usage: gpuplan compare A B [--json])");
        return EXIT_USAGE;
    }
    int f = -1;
    if (fmt && ((f = export_format_from_name(fmt)) < 0 || !export_compare_supported(f))) {
        cli_error("compare: cannot write a comparison as '%s' (expected md, html, csv or json)",
                  fmt);
        return EXIT_USAGE;
    }
    LoadedPlan *lp[2] = {calloc(1, sizeof(LoadedPlan)), calloc(1, sizeof(LoadedPlan))};
    PlanResult *r[2] = {NULL, NULL};
    int rc = EXIT_OK;
    if (!lp[0] || !lp[1])
        rc = EXIT_IO;
    for (int k = 0; k < 2 && rc == EXIT_OK; k++) {
        rc = cli_load_plan(cli, ref[k], lp[k]);
        if (rc == EXIT_OK && !(r[k] = cli_evaluate(cli, &lp[k]->plan)))
            rc = EXIT_IO;
    }
    if (rc == EXIT_OK) {
        if (f >= 0) {
            char *text = export_compare((ExportFormat)f, &lp[0]->plan, r[0], &lp[1]->plan, r[1]);
            rc = text ? cli_write_output(out, text) : EXIT_IO;
            free(text);
        } else {
            int n;
            HeadlineDelta *d = headline_compare_plans(&lp[0]->plan, r[0], &lp[1]->plan, r[1], &n);
            if (d) {
                printf("A = %s (%s)\nB = %s (%s)\n\n", lp[0]->plan.name, lp[0]->source,
                       lp[1]->plan.name, lp[1]->source);
                print_table("A", "B", d, n);
            } else {
                rc = EXIT_IO;
            }
            free(d);
        }
    }
    for (int k = 0; k < 2; k++) {
        if (lp[k])
            cli_free_plan(lp[k]);
        free(lp[k]);
        free(r[k]);
    }
    return rc;
}
