/* fuzz/fuzz_eval.c — fuzz target for the whole path a plan file takes:
 * parse (plans/yaml_plan.c) against the shipped catalog, evaluate (model/),
 * write `eval --json` (plans/export_json.c).
 *
 * Built with -DGPUPLAN_LIBFUZZER and -fsanitize=fuzzer it is a libFuzzer
 * target; otherwise fuzz/replay_main.c replays the files named on the
 * command line.  The catalog is read once from $GPUPLAN_DATADIR/catalog
 * (else the source tree's).  The oracle, beyond "no crash, no leak, no
 * hang": PLAN-FORMAT.md's "Every number is finite" for every plan the
 * parser accepts.  A tenancy trace is not loaded (no file access). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog_yaml.h"
#include "evaluate.h"
#include "export.h"
#include "yaml_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const Catalog *shipped_catalog(void)
{
    static Catalog cat;
    static int loaded;
    if (!loaded) {
        char dir[4096];
        const char *dd = getenv("GPUPLAN_DATADIR");
        snprintf(dir, sizeof dir, "%s/catalog", dd && *dd ? dd : GPUPLAN_SRCDIR "/data");
        Diag d;
        if (catalog_load(&cat, dir, NULL, &d) != 0) {
            fprintf(stderr, "fuzz_eval: cannot load the catalog %s: %s\n", dir, d.msg);
            abort();
        }
        loaded = 1;
    }
    return &cat;
}

/* A JSON number token that is not finite: nan, inf, infinity, any case. */
static int has_non_finite(const char *json)
{
    int in_string = 0;
    for (const char *p = json; *p; p++) {
        if (in_string) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_string = 0;
            continue;
        }
        if (*p == '"')
            in_string = 1;
        else if ((*p == 'n' || *p == 'N' || *p == 'i' || *p == 'I') &&
                 (!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3)))
            return 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Catalog *cat = shipped_catalog();
    Plan *p = calloc(1, sizeof *p);
    PlanResult *r = calloc(1, sizeof *r);
    if (!p || !r) {
        free(p);
        free(r);
        return 0;
    }
    Diag d;
    if (plan_parse((const char *)data, size, "fuzz.yaml", cat, p, &d) == 0 && !p->tenancy.trace[0]) {
        plan_evaluate(p, cat, r);
        char *json = export_json(p, r, 0);
        if (!json)
            abort();
        if (has_non_finite(json)) {
            fprintf(stderr, "eval --json of an accepted plan has a non-finite number:\n%s\n", json);
            abort();
        }
        free(json);
    }
    free(r);
    free(p);
    return 0;
}
