/* fuzz/fuzz_catalog.c — fuzz target for the catalog loader (plans/catalog_yaml.c).
 *
 * Built with -DGPUPLAN_LIBFUZZER and -fsanitize=fuzzer it is a libFuzzer
 * target; otherwise fuzz/replay_main.c replays the files named on the command line (a
 * corpus such as the files of data/catalog, or crash reproducers), so the target
 * also builds and runs under plain `make` with the sanitizers.  Each input
 * is loaded into an empty catalog and into one seeded with a valid entry (so
 * the override paths run too); the checks below are the loader's contract. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char seed[] = "accelerators:\n"
                           "  - {id: S1, hbm_gb: 80, source: seed, as_of: 2026-11-30}\n"
                           "instances:\n"
                           "  - {id: s1.x, provider: aws, accelerator: S1, accel_count: 8,"
                           " source: seed, as_of: 2026-11-30}\n";

static int terminated(const char *s, size_t n)
{
    return memchr(s, '\0', n) != NULL;
}

/* A loaded catalog must satisfy everything the loader validates. */
static void check_loaded(const Catalog *c)
{
    for (size_t i = 0; i < c->n_accelerators; i++) {
        const Accelerator *a = &c->accelerators[i];
        if (!terminated(a->id, sizeof a->id) || !a->id[0] || !terminated(a->source, sizeof a->source) ||
            !terminated(a->notes, sizeof a->notes) || a->n_mig < 0 || a->n_mig > CAT_MAX_MIG ||
            a->gemm_eff.n < 0 || a->gemm_eff.n > CAT_MAX_CURVE || !(a->hbm_bytes >= 0))
            abort();
        for (int k = 0; k < PREC_COUNT; k++)
            if (!(a->peak_flops[k] >= 0))
                abort();
        for (int k = 1; k < a->gemm_eff.n; k++)
            if (!(a->gemm_eff.x[k] > a->gemm_eff.x[k - 1]))
                abort();
        for (int k = 0; k < a->n_mig; k++)
            if (a->mig[k].count < 1 || a->mig[k].compute_slices < 1 || a->mig[k].compute_slices > 7)
                abort();
        if (catalog_find_accelerator(c, a->id) != a) /* ids are unique */
            abort();
    }
    for (size_t i = 0; i < c->n_instances; i++) {
        const Instance *in = &c->instances[i];
        if (!terminated(in->id, sizeof in->id) || in->accel_count < 1 ||
            !catalog_find_accelerator(c, in->accelerator))
            abort();
    }
    for (size_t i = 0; i < c->n_storage; i++)
        if (!terminated(c->storage[i].id, sizeof c->storage[i].id) || !(c->storage[i].unit_read_bw >= 0))
            abort();
}

static void one(Catalog *c, const uint8_t *data, size_t size)
{
    Diag d;
    memset(&d, 0, sizeof d);
    int rc = catalog_load_text(c, (const char *)data, size, "fuzz.yaml", &d);
    if (rc == 0) {
        check_loaded(c);
    } else if (rc != -1 || d.msg[0] == '\0' || c->accelerators || c->instances || c->storage ||
               c->n_accelerators || c->n_instances || c->n_storage) {
        abort(); /* a failure names a reason and leaves the catalog empty */
    }
    catalog_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Catalog c;
    memset(&c, 0, sizeof c);
    one(&c, data, size);

    Diag d;
    memset(&d, 0, sizeof d);
    if (catalog_load_text(&c, seed, strlen(seed), "seed.yaml", &d) != 0)
        abort();
    one(&c, data, size);
    return 0;
}
