/* plans/sweep.h — `gpuplan sweep`: a grid or a seeded Monte Carlo over plan
 * keys (doc/plan-format.md "Sweeps").
 *
 * A sweep is a base plan, up to SWEEP_MAX_AXES varied keys and a point
 * count.  Point i is a pure function of (spec, i): a grid decodes i in mixed
 * radix (the last --vary fastest); a Monte Carlo draws each key from a
 * counter-based generator keyed by (seed, i, axis).  So any slice of the
 * points (a shard) is evaluated exactly as one process would, in any order.
 *
 * Each point's row holds its inputs and the headline outputs (GPUs, days,
 * MW, TCO, verdict, p95 wait …; sweep_metrics).  Rows travel as JSON text
 * (jansson, 17 significant digits: numbers round-trip exactly), in the store
 * and in shard files. */
#ifndef GPUPLAN_PLANS_SWEEP_H
#define GPUPLAN_PLANS_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "evaluate.h"
#include "fields.h"
#include "plan.h"

#define SWEEP_MAX_AXES 8
#define SWEEP_MAX_VALUES 64         /* values of one listed key */
#define SWEEP_VALUE_LEN 64
#define SWEEP_MAX_POINTS 10000000LL
#define SWEEP_NAME_LEN 65           /* a sweep name: [A-Za-z0-9._ -]{1,64} like a plan's */
#define SWEEP_FORMAT 1              /* shard file format */
/* The heap a sweep process grows to before its first row is written
 * (catalog and plan loaded, the first point evaluated with its scheduler
 * capacity search): brk grew 1.0-1.8 MB in one-point tasks of four of the
 * five example plans, 3.4 MB in research-a100's.  `gpuplan sweep` makes
 * that much resident in one call at its start (model/bigmem.h
 * big_prefault_heap): page faults of those tasks 543 -> 195 (frontier-2027),
 * 388-471 -> 195-199 (three more), 897 -> 395 (research-a100).  Too large
 * costs ~0.9 us per unused 4 KiB page (0.5 ms for 2 MiB), too small only
 * part of the gain. */
#define SWEEP_TASK_HEAP ((size_t)2 << 20)

typedef struct {
    char path[FIELDS_PATH_LEN];     /* canonical key path (fields_path_of) */
    char spec[256];                 /* the text after '=' as given */
    const FieldDef *f;              /* the field (static table) */
    FieldTarget t;                  /* where it lives in the base plan */
    bool numeric;                   /* FT_INT / FT_U64 / FT_REAL */
    bool range;                     /* A..B[/N]; else a list */
    double lo, hi;                  /* range ends, SI */
    int steps;                      /* grid points of a range, 0 = not given */
    int n_values;                   /* list: the values as given … */
    char values[SWEEP_MAX_VALUES][SWEEP_VALUE_LEN];
    double numbers[SWEEP_MAX_VALUES]; /* … and, for a numeric key, in SI */
} SweepAxis;

typedef struct {
    char name[SWEEP_NAME_LEN];
    SweepAxis axes[SWEEP_MAX_AXES];
    int n_axes;
    long long samples;              /* Monte Carlo points; 0 = grid */
    uint64_t seed;
    long long n_points;             /* set by sweep_spec_finish */
} SweepSpec;

/* One point's value of one key: a number (SI) for numeric keys, else the
 * index of a listed value. */
typedef struct {
    double num;
    int choice;                     /* -1 for a number */
} SweepValue;

/* The headline outputs of one point (NAN where a stage did not apply). */
typedef struct {
    long long idx;
    SweepValue in[SWEEP_MAX_AXES];
    char error[PLAN_TEXT_LEN];      /* "" = evaluated; else why the point has no outputs */
    bool fits;                      /* every workload fits and meets its target / SLO */
    double gpus, train_days, it_mw, facility_mw, tco_usd, cheapest_tco_usd,
        usd_per_gpu_hour, wait_p95_h, utilization,
        build_margin_pct;           /* the verdict's margin, signed: + on-prem cheaper than the
                                     * cloud by that % of the dearer, - the cloud cheaper */
    char verdict[16];               /* cost.verdict.kind of eval --json: build | buy |
                                     * unpriced | cloud-only | none */
    char cheapest[PLAN_NAME_LEN];   /* the cheapest option's name */
} SweepRow;

/* The numeric outputs, in the order of CSV columns and the dashboard's
 * metric cycle. */
typedef struct {
    const char *key;                /* JSON / CSV name */
    const char *label;
    const char *unit;
    size_t off;                     /* double within SweepRow */
} SweepMetric;
extern const SweepMetric sweep_metrics[];
extern const int sweep_n_metrics;

/* Parse one --vary "KEY=SPEC" against the base plan into *ax:
 *   KEY=A..B/N   N evenly spaced values from A to B inclusive (a grid)
 *   KEY=A..B     a range to sample (Monte Carlo only)
 *   KEY=v1,v2,…  listed values (any key: numbers with units, choices)
 * A, B and numbers take the key's units (`site.power_price_kwh=$0.05..$0.12/8`,
 * `tenancy.horizon=7d..30d/4`).  Every value is tried on the base plan
 * (plan_validate).  Returns 0; -2 for a usage error (syntax, unknown key —
 * the message suggests the nearest key —, bad range); -1 when a value makes
 * the plan invalid.  The message is in err. */
int sweep_axis_parse(const Plan *base, const Catalog *cat, const char *arg, SweepAxis *ax,
                     char *err, size_t errlen);
/* After the axes (and samples/seed) are set: check the combination and set
 * n_points.  Returns 0 or -2 with err set. */
int sweep_spec_finish(SweepSpec *s, char *err, size_t errlen);

/* The values of point idx (0 ≤ idx < n_points). */
void sweep_point(const SweepSpec *s, long long idx, SweepValue out[SWEEP_MAX_AXES]);
/* *out = base with point idx applied.  Returns 0, or -1 with err set when the
 * combination is not a valid plan (err says why; *out unspecified). */
int sweep_point_plan(const SweepSpec *s, const Plan *base, const Catalog *cat, long long idx,
                     Plan *out, char *err, size_t errlen);
/* Fill the outputs of row from an evaluated point. */
void sweep_row_outputs(const PlanResult *r, SweepRow *row);

/* Evaluate points [lo, hi) of the sweep into rows[0 .. hi-lo) on this
 * thread, with a stage cache of its own (evaluate.h).  A grid's points are
 * evaluated with the axes that change a cached stage's input outermost
 * (sweep_stage_axes), so each distinct sizing or scheduler input is
 * computed once however the axes were given; rows[k] is point lo + k
 * either way.  Returns 0, -1 on ENOMEM. */
int sweep_evaluate(const SweepSpec *s, const Plan *base, const Catalog *cat, long long lo,
                   long long hi, SweepRow *rows);
/* The same with the caller's stage cache (kept between calls: a sweep
 * evaluated in chunks computes each stage input once); NULL = a cache of
 * its own, as sweep_evaluate. */
int sweep_evaluate_with(const SweepSpec *s, const Plan *base, const Catalog *cat, long long lo,
                        long long hi, SweepRow *rows, EvalCache *cache);

/* The grid axes (by index) whose values change what the stage cache keys
 * on (eval_stage_keys), judged by each axis's second and last value
 * against the first point; returns how many, in axis order, in outer[].
 * 0 for a Monte Carlo sweep or a point that does not build. */
int sweep_stage_axes(const SweepSpec *s, const Plan *base, const Catalog *cat,
                     int outer[SWEEP_MAX_AXES]);

/* The point range of shard i of n: [*lo, *hi), contiguous, sizes differing by
 * at most one. */
void sweep_shard_range(long long n_points, int i, int n, long long *lo, long long *hi);

/* A point's input value as text for display ("1.2", "H200", "30d" → "30"):
 * numbers in the key's bare unit (what a bare number means in a plan file). */
const char *sweep_value_text(const SweepAxis *ax, const SweepValue *v, char *buf, size_t len);
/* The number a value stands for on an axis: numbers in the bare unit, a
 * choice its index. */
double sweep_value_number(const SweepAxis *ax, const SweepValue *v);

/* JSON text (malloc'd, caller frees; NULL on ENOMEM):
 * the spec {"name":…,"vary":["KEY=SPEC",…],"samples":N,"seed":"S","points":N},
 * a row's inputs [v,…] (numbers in the bare unit, choices as text) and its
 * outputs {"fits":…,"gpus":…,…,"verdict":…,"cheapest":…} (null where NAN). */
char *sweep_spec_json(const SweepSpec *s);
char *sweep_inputs_json(const SweepSpec *s, const SweepRow *row);
char *sweep_outputs_json(const SweepRow *row);
/* The vary strings of a stored spec, so a stored sweep can be re-parsed:
 * returns the count (≤ max), out[i] malloc'd; -1 when spec_json is not a
 * sweep spec. */
int sweep_spec_vary(const char *spec_json, char **out, int max, long long *samples,
                    uint64_t *seed);

/* Identity of a sweep: FNV-1a 64 over the canonical plan YAML, the spec JSON
 * and the program version, as 16 hex digits.  Shards merge only into the
 * sweep with the same fingerprint. */
void sweep_fingerprint(const char *plan_yaml, const char *spec_json, char out[17]);

#endif
