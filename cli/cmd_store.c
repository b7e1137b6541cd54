/* cli/cmd_store.c — `gpuplan save`, `list`, `show`. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "sanitize.h"
#include "yaml_plan.h"

int cmd_save(Cli *cli, int argc, char **argv)
{
    const char *file = NULL, *as = NULL, *note = "";
    for (int i = 0; i < argc; i++) {
        if (cli_is(argv[i], "--as") && i + 1 < argc)
            as = argv[++i];
        else if (cli_is(argv[i], "--note") && i + 1 < argc)
            note = argv[++i];
        else if (argv[i][0] == '-' || file) {
            cli_error("save: unexpected argument '%s' (usage: gpuplan save FILE [--as NAME] "
                      "[--note TEXT])", argv[i]);
            return EXIT_USAGE;
        } else
            file = argv[i];
    }
    if (!file) {
        cli_error("save: which file? (usage: gpuplan save FILE [--as NAME] [--note TEXT])");
        return EXIT_USAGE;
    }
    char why[128];
    if (!sanitize_note_valid(note, sizeof ((StorePlanInfo *)0)->note - 1, why, sizeof why)) {
        cli_error("save: --note: %s; a note is one line of printable text, at most 255 bytes",
                  why);
        return EXIT_INVALID;
    }
    int rc = cli_catalog(cli);
    if (rc)
        return rc;
    Plan *p = calloc(1, sizeof *p);
    if (!p)
        return EXIT_IO;
    Diag d = {0};
    int lrc = plan_load_file(file, &cli->catalog, p, &d);
    if (lrc != 0) {
        cli_diag(&d);
        free(p);
        return lrc == -2 ? EXIT_IO : EXIT_INVALID;
    }
    if (as) {
        snprintf(p->name, sizeof p->name, "%s", as);
        if (strlen(as) >= sizeof p->name || plan_validate(p, &cli->catalog, &d) != 0) {
            if (strlen(as) >= sizeof p->name)
                cli_error("save: --as '%s': a plan name has at most 64 characters", as);
            else
                cli_diag(&d);
            free(p);
            return EXIT_INVALID;
        }
    }
    char *yaml = plan_to_yaml(p);
    if (!yaml) {
        free(p);
        cli_error("out of memory");
        return EXIT_IO;
    }
    int version = 0;
    if ((rc = cli_store(cli, true)) == EXIT_OK) {
        if (store_save_version(cli->store, p->name, yaml, note, &version, &d) != 0) {
            cli_diag(&d);
            rc = EXIT_IO;
        } else {
            printf("saved %s as version %d\n", p->name, version);
        }
    }
    free(yaml);
    free(p);
    return rc;
}

static const char *fmt_time(long long t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!localtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
        snprintf(buf, len, "?");
    return buf;
}

int cmd_list(Cli *cli, int argc, char **argv)
{
    const char *regex = NULL;
    bool deleted = false;
    for (int i = 0; i < argc; i++) {
        if (cli_is(argv[i], "--deleted"))
            deleted = true;
        else if (regex || argv[i][0] == '-') { /* a mistyped option is not a regex */
            cli_error("list: unexpected argument '%s' (usage: gpuplan list [REGEX] [--deleted])",
                      argv[i]);
            return EXIT_USAGE;
        } else
            regex = argv[i];
    }
    int rc = cli_store(cli, false);
    if (rc)
        return rc;
    StorePlanInfo *info = NULL;
    int n = 0;
    Diag d = {0};
    if (store_list(cli->store, regex, deleted, &info, &n, &d) != 0) {
        cli_diag(&d);
        /* a bad REGEX has no file; a store failure names the store */
        return d.file[0] ? EXIT_IO : EXIT_USAGE;
    }
    printf("%-32s %8s  %-16s  %s\n", "NAME", "VERSIONS", "UPDATED", "NOTE");
    for (int i = 0; i < n; i++) {
        /* names and notes as stored, which another program may have
         * written: escapes shown, never sent (issue 17 D2, D14) */
        char t[32], name[4 * sizeof info[i].name], note[4 * sizeof info[i].note];
        printf("%-32s %8d  %-16s  %s%s\n",
               sanitize_text(info[i].name, SANITIZE_LINE, name, sizeof name), info[i].versions,
               fmt_time(info[i].updated, t, sizeof t), info[i].deleted ? "(deleted) " : "",
               sanitize_text(info[i].note, SANITIZE_LINE, note, sizeof note));
    }
    /* the listed plans' sweeps (gpuplan sweep), when there are any */
    StoreSweepInfo *sw = NULL;
    int nsw = 0;
    if (store_sweep_list(cli->store, NULL, &sw, &nsw, &d) != 0) {
        cli_diag(&d);
        free(info);
        return EXIT_IO;
    }
    bool header = false;
    for (int k = 0; k < nsw; k++) {
        bool listed = false;
        for (int i = 0; i < n && !listed; i++)
            listed = !info[i].deleted && strcmp(info[i].name, sw[k].plan) == 0;
        if (!listed)
            continue;
        if (!header)
            printf("\n%-32s %-32s %15s  %s\n", "SWEEP", "PLAN", "POINTS", "CREATED");
        header = true;
        char t[32], plan[PLAN_NAME_LEN + 16], pts[48];
        snprintf(plan, sizeof plan, "%s@v%d", sw[k].plan, sw[k].plan_version);
        if (sw[k].stored < sw[k].points)
            snprintf(pts, sizeof pts, "%lld/%lld", sw[k].stored, sw[k].points);
        else
            snprintf(pts, sizeof pts, "%lld", sw[k].points);
        printf("%-32s %-32s %15s  %s\n", sw[k].name, plan, pts,
               fmt_time(sw[k].created, t, sizeof t));
    }
    free(sw);
    free(info);
    return EXIT_OK;
}

int cmd_show(Cli *cli, int argc, char **argv)
{
    const char *name = NULL;
    int version = 0;
    for (int i = 0; i < argc; i++) {
        if (cli_is(argv[i], "--version") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v <= 0 || v > 1000000000) {
                cli_error("show: --version takes a version number, got '%s'", argv[i]);
                return EXIT_USAGE;
            }
            version = (int)v;
        } else if (argv[i][0] == '-' || name) {
            cli_error("show: unexpected argument '%s' (usage: gpuplan show NAME [--version N])",
                      argv[i]);
            return EXIT_USAGE;
        } else {
            name = argv[i];
        }
    }
    if (!name) {
        cli_error("show: which plan? (usage: gpuplan show NAME [--version N])");
        return EXIT_USAGE;
    }
    int rc = cli_store(cli, false);
    if (rc)
        return rc;
    char *yaml = NULL;
    int got = 0;
    Diag d = {0};
    if (store_load(cli->store, name, version, &yaml, &got, &d) != 0) {
        cli_diag(&d);
        return EXIT_IO;
    }
    /* stored text is shown with control characters escaped (D14) */
    char *shown = sanitize_dup(yaml, SANITIZE_KEEP_NEWLINES);
    free(yaml);
    if (!shown) {
        cli_error("show: out of memory");
        return EXIT_IO;
    }
    fputs(shown, stdout);
    free(shown);
    return EXIT_OK;
}
