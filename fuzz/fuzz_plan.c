/* fuzz/fuzz_plan.c — fuzz target for the plan reader and writer
 * (plans/yaml_plan.c).
 *
 * Built with -DGPUPLAN_LIBFUZZER and -fsanitize=fuzzer it is a libFuzzer
 * target; otherwise fuzz/replay_main.c replays the files named on the command line
 * (e.g. the files of data/examples, or crash reproducers), so it also builds and
 * runs with gcc and the sanitizers.  Each input is parsed without and with a
 * small catalog.  The oracle, beyond "no crash, no leak": a plan that parses
 * is valid, and its canonical YAML parses back to the identical plan and
 * writes the identical text. */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
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

/* ------------------------------------------------------- edit mode
 * An input starting with a NUL byte (never a valid YAML text) is a list of
 * edits applied to a parsed base plan, as the TUI's form would make them,
 * but with any value: 1 byte picks a field, 8 bytes give the value (ints and
 * enums take the low 32 bits, doubles all 64 — NaN, infinities, negatives —
 * strings take up to 8 bytes, possibly unterminated).  plan_validate and
 * plan_to_yaml must survive anything; a plan that validates must write
 * YAML that parses, validates and writes the same text again. */

static const char base_plan[] =
    "name: base\n"
    "workloads:\n"
    "  - {name: t, kind: training, tokens: 1T, gpus: 64, team: a, model: {preset: deepseek-v3},\n"
    "     parallel: {tp: 8, ep: 8}}\n"
    "  - {name: s, kind: inference, model: {preset: llama-3-8b}, tp: 2}\n"
    "tenancy:\n"
    "  gpus: 128\n"
    "  teams:\n"
    "    - {name: a, quota_gpus: 64, jobs: [{name: j, gpus: 4}, {name: m, mig: 3g.40gb}]}\n"
    "    - {name: b, jobs: [{name: e, min_gpus: 2, max_gpus: 8}]}\n";

typedef enum { E_INT, E_DBL, E_STR, E_BOOL, E_U64 } EditType;
typedef struct {
    size_t off;
    EditType type;
    size_t size;
} Edit;

#define EI(m) {offsetof(Plan, m), E_INT, sizeof(int)}
#define ED(m) {offsetof(Plan, m), E_DBL, sizeof(double)}
#define ES(m) {offsetof(Plan, m), E_STR, sizeof(((Plan *)0)->m)}
#define EB(m) {offsetof(Plan, m), E_BOOL, sizeof(bool)}
#define WL(i)                                                                                  \
    ES(workloads[i].name), EI(workloads[i].kind), ES(workloads[i].team),                        \
        ES(workloads[i].accelerator), ES(workloads[i].model.preset),                            \
        EI(workloads[i].model.layers), EI(workloads[i].model.hidden),                           \
        EI(workloads[i].model.ffn_hidden), EI(workloads[i].model.heads),                        \
        EI(workloads[i].model.kv_heads), EI(workloads[i].model.head_dim),                       \
        EI(workloads[i].model.vocab), EB(workloads[i].model.glu),                               \
        EI(workloads[i].model.experts), EI(workloads[i].model.experts_per_token),               \
        EI(workloads[i].model.dense_layers), EI(workloads[i].model.kv_lora_rank),               \
        EI(workloads[i].model.qk_rope_head_dim), ED(workloads[i].model.params),                 \
        EI(workloads[i].precision), EI(workloads[i].seq_len), ED(workloads[i].tokens),          \
        EI(workloads[i].global_batch), EI(workloads[i].micro_batch), EI(workloads[i].zero),     \
        EI(workloads[i].parallel.tp), EI(workloads[i].parallel.pp), EI(workloads[i].parallel.vpp), \
        EI(workloads[i].parallel.ep), EI(workloads[i].parallel.sp), EI(workloads[i].recompute), \
        EI(workloads[i].gpus), ED(workloads[i].target_days), ED(workloads[i].mfu),              \
        ED(workloads[i].checkpoint_interval_s), EI(workloads[i].prompt_tokens),                 \
        ED(workloads[i].requests_per_s), ED(workloads[i].ttft_s), ED(workloads[i].tpot_s),      \
        EI(workloads[i].tp), EI(workloads[i].replicas)
#define JOB(t, j)                                                                              \
    ES(tenancy.teams[t].jobs[j].name), ED(tenancy.teams[t].jobs[j].per_day),                   \
        ED(tenancy.teams[t].jobs[j].gpus), EI(tenancy.teams[t].jobs[j].min_gpus),               \
        EI(tenancy.teams[t].jobs[j].max_gpus), ES(tenancy.teams[t].jobs[j].mig),                \
        ED(tenancy.teams[t].jobs[j].hours), EI(tenancy.teams[t].jobs[j].duration),              \
        ED(tenancy.teams[t].jobs[j].cv), EI(tenancy.teams[t].jobs[j].priority)

static const Edit edits[] = {
    EI(format), ES(name), ES(description), ES(accelerator), ED(horizon_years), EI(n_workloads),
    WL(0), WL(1),
    EI(site.kind), ES(site.instance), EI(site.pricing), ED(site.rack_power_kw), EI(site.cooling),
    ED(site.pue), ED(site.power_price_kwh), ED(site.headroom),
    EI(network.fabric), ED(network.link_bps), EI(network.topology), ED(network.oversubscription),
    EI(network.switch_ports),
    EI(storage.system), ED(storage.dataset_bytes), EI(storage.checkpoints_kept),
    ED(storage.checkpoint_stall_s),
    EI(tenancy.gpus), EI(tenancy.policy), EB(tenancy.preemption), ED(tenancy.restore_s),
    ED(tenancy.horizon_s), ED(tenancy.wait_p95_s), ED(tenancy.mtbf_gpu_h),
    {offsetof(Plan, tenancy.seed), E_U64, sizeof(uint64_t)}, EI(tenancy.n_teams),
    ES(tenancy.trace),
    ES(tenancy.teams[0].name), ED(tenancy.teams[0].weight), EI(tenancy.teams[0].quota_gpus),
    EI(tenancy.teams[0].borrow_gpus), EI(tenancy.teams[0].n_jobs), EI(tenancy.teams[1].n_jobs),
    ES(tenancy.teams[1].name),
    JOB(0, 0), JOB(0, 1), JOB(1, 0),
};

static void edit_mode(const uint8_t *data, size_t size, const Catalog *cat)
{
    Plan *p = calloc(1, sizeof *p);
    if (!p)
        return;
    Diag d;
    if (plan_parse(base_plan, strlen(base_plan), "base", cat, p, &d) != 0)
        abort();
    for (size_t i = 1; i + 9 <= size; i += 9) {
        const Edit *e = &edits[data[i] % (sizeof edits / sizeof edits[0])];
        char *at = (char *)p + e->off;
        const uint8_t *v = data + i + 1;
        switch (e->type) {
        case E_INT: {
            int32_t x;
            memcpy(&x, v, sizeof x);
            memcpy(at, &x, sizeof x);
            break;
        }
        case E_DBL:
        case E_U64:
            memcpy(at, v, 8);
            break;
        case E_BOOL:
            *(bool *)at = v[0] & 1;
            break;
        case E_STR: {
            /* bytes at the end of the field, terminated only if one is 0 */
            size_t n = e->size < 8 ? e->size : 8;
            memset(at, 'x', e->size - n);
            memcpy(at + e->size - n, v, n);
            if (v[0] == 0xff)
                memset(at + 1, 0, e->size - 1); /* a one-byte name */
            break;
        }
        }
    }
    int valid = plan_validate(p, cat, &d) == 0;
    char *y = plan_to_yaml(p);
    if (!y)
        abort();
    if (valid) {
        Plan *q = calloc(1, sizeof *q);
        if (!q)
            abort();
        if (plan_parse(y, strlen(y), "edited", cat, q, &d) != 0) {
            char buf[800];
            fprintf(stderr, "YAML of a valid edited plan does not parse: %s\n%s\n",
                    diag_format(&d, buf, sizeof buf), y);
            abort();
        }
        char *y2 = plan_to_yaml(q);
        if (!y2 || strcmp(y, y2) != 0) {
            fprintf(stderr, "YAML of a valid edited plan changes on a round trip:\n%s\n----\n%s\n", y,
                    y2 ? y2 : "(null)");
            abort();
        }
        free(y2);
        free(q);
    }
    free(y);
    free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 0 && data[0] == 0) {
        edit_mode(data, size, (size > 1 && (data[1] & 1)) ? small_catalog() : NULL);
        return 0;
    }
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
