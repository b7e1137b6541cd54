/* fuzz/fuzz_plan.c — fuzz target for the plan reader and writer
 * (plans/yaml_plan.c).
 *
 * Built with -DGPUPLAN_LIBFUZZER and -fsanitize=fuzzer it is a libFuzzer
 * target; otherwise main() replays the files named on the command line
 * (e.g. the files of data/examples, or crash reproducers), so it also builds and
 * runs with gcc and the sanitizers.  Each input is parsed without and with a
 * small catalog.  The oracle, beyond "no crash, no leak": a plan that parses
 * is valid, and its canonical YAML parses back to the identical plan and
 * writes the identical text. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yaml_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static Accelerator accs[2];
static Instance insts[1];

static const Catalog *small_catalog(void)
{
    static Catalog cat;
    if (!cat.accelerators) {
        snprintf(accs[0].id, sizeof accs[0].id, "H100-SXM");
        snprintf(accs[0].mig[0].name, sizeof accs[0].mig[0].name, "3g.40gb");
        accs[0].mig[0].count = 2;
        accs[0].n_mig = 1;
        snprintf(accs[1].id, sizeof accs[1].id, "A100-80GB");
        snprintf(insts[0].id, sizeof insts[0].id, "p5.48xlarge");
        cat.accelerators = accs;
        cat.n_accelerators = 2;
        cat.instances = insts;
        cat.n_instances = 1;
    }
    return &cat;
}

static void check_round_trip(const Plan *p, const Catalog *cat)
{
    Diag d;
    if (plan_validate(p, cat, &d) != 0)
        abort(); /* the parser accepted what the validator rejects */
    char *y = plan_to_yaml(p);
    if (!y)
        abort();
    Plan *q = calloc(1, sizeof *q);
    if (!q)
        abort();
    if (plan_parse(y, strlen(y), "canonical", cat, q, &d) != 0) {
        char buf[800];
        fprintf(stderr, "canonical YAML does not parse: %s\n%s\n", diag_format(&d, buf, sizeof buf), y);
        abort();
    }
    if (memcmp(p, q, sizeof *p) != 0) {
        fprintf(stderr, "round trip changed the plan:\n%s\n", y);
        abort();
    }
    char *y2 = plan_to_yaml(q);
    if (!y2 || strcmp(y, y2) != 0)
        abort();
    free(y2);
    free(y);
    free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Plan *p = calloc(1, sizeof *p);
    if (!p)
        return 0;
    Diag d;
    const Catalog *cats[2] = {NULL, small_catalog()};
    for (int i = 0; i < 2; i++) {
        memset(&d, 0xa5, sizeof d);
        if (plan_parse((const char *)data, size, "fuzz.yaml", cats[i], p, &d) == 0) {
            check_round_trip(p, cats[i]);
        } else {
            /* a failure always says something, NUL-terminated */
            if (!memchr(d.msg, '\0', sizeof d.msg) || !d.msg[0] || !memchr(d.file, '\0', sizeof d.file))
                abort();
            char buf[900];
            diag_format(&d, buf, sizeof buf);
        }
    }
    free(p);
    return 0;
}

#ifndef GPUPLAN_LIBFUZZER
int main(int argc, char **argv)
{
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            failed = 1;
            continue;
        }
        size_t cap = 1 << 16, n = 0;
        uint8_t *buf = malloc(cap);
        size_t got;
        while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
            n += got;
            if (n == cap) {
                uint8_t *nb = realloc(buf, cap * 2);
                if (!nb)
                    break;
                buf = nb;
                cap *= 2;
            }
        }
        fclose(f);
        if (buf)
            LLVMFuzzerTestOneInput(buf, n);
        free(buf);
        printf("%s: ok\n", argv[i]);
    }
    return failed;
}
#endif
