/* model/evaluate.h — the single entry point of the model.
 *
 * plan_evaluate() runs every stage in order and fills a PlanResult:
 *   per-workload sizing (train.c, infer.c)
 *   → scheduling simulation of the tenancy pool (sched/; sizes the pool)
 *   → cluster layout: nodes, NVLink domains, racks, fabric, storage (layout.c)
 *   → power budget (power.c)
 *   → cost options (cost.c)
 * Each stage reads the plan and the earlier stages' parts of the result and
 * writes its own part; no stage reaches back.  Pure, deterministic (seeded),
 * reentrant: safe on any thread.
 */
#ifndef GPUPLAN_MODEL_EVALUATE_H
#define GPUPLAN_MODEL_EVALUATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "catalog.h"
#include "plan.h"

/* A stage cache (caller-owned; see eval_cache_new): remembers the results of
 * the expensive stages — per-workload sizing (the training layout search,
 * the inference search, the alternatives) and the scheduler — keyed on
 * exactly the inputs each stage reads, so an evaluation that changes only
 * what later stages read (a price, PUE, the horizon, the site) reuses them.
 * One cache serves one thread at a time. */
typedef struct EvalCache EvalCache;

typedef struct {
    /* Polled by long stages (the simulator's event loop, layout searches);
     * when it becomes non-zero the stage stops early and marks its result
     * cancelled.  NULL = never cancelled. */
    const atomic_int *cancel;
    /* Size every workload on every catalog accelerator too (Sizing pane's
     * ranking, WorkloadResult.alts). */
    bool alternatives;
    /* Run the scheduler's capacity search when tenancy.gpus is auto. */
    bool capacity_search;
    /* Reuse / remember stage results here; NULL = no cache. */
    EvalCache *cache;
} EvalOptions;

/* Default options: alternatives and capacity search on, no cancel flag. */
EvalOptions eval_options_default(void);

/* Evaluate with default options.  Always fills *out completely (it is zeroed
 * first); problems of the plan are reported inside it (WorkloadResult.ok and
 * .error, warnings[]).  Returns 0, or -1 when the evaluation was cancelled. */
int plan_evaluate(const Plan *plan, const Catalog *cat, PlanResult *out);
int plan_evaluate_ex(const Plan *plan, const Catalog *cat, const EvalOptions *opt,
                     PlanResult *out);

/* A new, empty stage cache (a few MB at most once full); NULL on ENOMEM.
 * Freed by eval_cache_free (NULL is fine).  The cache keys a replayed trace
 * by its address, length and a sample of its jobs: a caller that rewrites a
 * trace in place must eval_cache_clear() first. */
EvalCache *eval_cache_new(void);
void eval_cache_free(EvalCache *cache);
void eval_cache_clear(EvalCache *cache);

/* The cache's remembered stage results as bytes, to be shared by processes
 * that evaluate points with the same stage inputs (a sweep's array tasks:
 * `gpuplan sweep --emit` writes them once, each `--shard` task reads them).
 * The bytes carry a format version, the gpuplan version and the struct
 * sizes they were written by, the digest of the catalog as the stages read
 * it (prices and sources blanked, as the in-process key), each slot's exact
 * key (the plan with every field its stage does not read blanked: compared
 * byte for byte on use, as in-process) and a checksum of the whole.  Slots
 * keyed on a replayed trace (a process's own address) are left out.  Zero
 * runs are stored as counts (the structs are mostly zeros).  The bytes also
 * carry the parsed catalog itself (its flat row arrays, costs and ranges)
 * keyed by cat_source, the caller's digest of the files it was parsed from
 * (plans/catalog_yaml.h catalog_source_digest), so a task whose catalog
 * files are the same takes it instead of parsing the YAML
 * (eval_stage_catalog).  eval_cache_export: *out malloc'd; returns the number of slots written, or
 * -1 on ENOMEM. */
int eval_cache_export(const EvalCache *cache, const Catalog *cat, uint64_t cat_source,
                      unsigned char **out, size_t *len);
/* Add the slots of bytes written by eval_cache_export to cache.  Anything
 * that does not verify — truncated, corrupted, another format, another
 * gpuplan version or build layout, another catalog — is refused whole:
 * returns -1 with the reason in why and the cache unchanged (the stages
 * are then computed as usual; results are identical either way).  Returns
 * the number of slots added. */
int eval_cache_import(EvalCache *cache, const Catalog *cat, const unsigned char *data,
                      size_t len, char *why, size_t whylen);

/* The catalog bytes from eval_cache_export carry, when the file verifies
 * (as eval_cache_import checks it, less the catalog digest) and was written
 * with the same cat_source: returns 1 with *out filled (malloc'd arrays, free
 * with catalog_free; byte for byte the catalog the writer parsed: its digest
 * is checked), 0 when cat_source differs (*out empty: parse the files),
 * -1 with the reason in why when the file does not verify (*out empty). */
int eval_stage_catalog(const unsigned char *data, size_t len, uint64_t cat_source, Catalog *out,
                       char *why, size_t whylen);

/* How often each cached stage was reused or run since eval_cache_new(). */
typedef struct {
    uint64_t sizing_hits, sizing_runs;
    uint64_t sched_hits, sched_runs;
    uint64_t imported_hits;          /* hits on slots eval_cache_import added */
} EvalCacheStats;
EvalCacheStats eval_cache_stats(const EvalCache *cache);

/* What the cached stages key on: the plan with every field the sizing,
 * resp. the scheduler, does not read blanked, and a replayed trace's
 * digest.  Equal keys: a stage cache gives both plans the same sizing and
 * scheduler results.  A sweep orders its points by this (plans/sweep.c). */
typedef struct {
    Plan sizing, sched;
    uint64_t trace;
} EvalStageKeys;
void eval_stage_keys(const Plan *p, EvalStageKeys *k);
bool eval_stage_keys_equal(const EvalStageKeys *a, const EvalStageKeys *b);

/* True when the cancel flag of opt is set. */
bool eval_cancelled(const EvalOptions *opt);

#endif
