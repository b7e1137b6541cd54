/* model/calib.h — measured training runs against the training model:
 * per-run error, the deterministic fit/held-out split of the validation
 * set, least-squares calibration of a framework profile on one
 * accelerator, and error bands from residuals.  Pure (no I/O); the CLI
 * (`gpuplan calibrate`) and tests/test_validation.c drive it. */
#ifndef GPUPLAN_MODEL_CALIB_H
#define GPUPLAN_MODEL_CALIB_H

#include "catalog.h"
#include "plan.h"

/* One measured run: a training workload of a plan with measured_step or
 * measured_tokens_per_gpu set. */
typedef struct {
    const Plan *plan;
    int wi;                        /* index into plan->workloads */
    const Accelerator *acc;        /* the workload's accelerator */
    double measured_s;             /* measured seconds per step */
    double predicted_s;            /* model's step time (0 when !ok) */
    double predicted_mem_b;        /* model's peak memory per GPU, bytes (0 when !ok) */
    double err;                    /* predicted / measured − 1 */
    bool ok;
    bool held_out;                 /* calib_split: true = held-out half */
    bool band_only;                /* describes the error bands only: never fitted, in no
                                    * half (calibrate --bands-from) */
    char cls[CAT_ID_LEN];          /* band class "hopper/dense/fp8" (train_band_class) */
    char framework[CAT_ID_LEN];    /* as modelled ("megatron" when unset) */
    char why[PLAN_TEXT_LEN];       /* reason when !ok */
} CalibRun;

/* Measured seconds per step of w: measured_step, else global_batch ·
 * seq_len / (measured_tokens_per_gpu · gpus); 0 when it has neither. */
double calib_measured_step_s(const Workload *w);

/* Fill runs[] (capacity cap) with every measured training workload of the
 * plans, in order; returns how many (at most cap).  Runs whose accelerator
 * is unknown are skipped. */
int calib_collect(const Plan *const *plans, int n_plans, const Catalog *cat, CalibRun *runs,
                  int cap);

/* The validation split: within each class, in file order, runs alternate
 * held-out, fit, held-out, … (the first run of a class is held out, so at
 * most half of any class is fitted).  Sets held_out. */
void calib_split(CalibRun *runs, int n);

/* Predict every run's step time on catalog cat (fixed layouts as given),
 * fill predicted_s/err/ok.  Returns the number predicted. */
int calib_predict(CalibRun *runs, int n, const Catalog *cat);

/* Predict every run as a plan whose framework has no calibration on its
 * accelerator is predicted: on cat without the run's framework's
 * "<framework>@<accelerator>" rows for its accelerator and every part on
 * the same silicon (fitted or derived through calibration_from), so the
 * run takes the framework's own profile (catalog_framework_for's last
 * step).  out[i] is runs[i] with predicted_s/err/ok set.  Returns the
 * number predicted, -1 when out of memory. */
int calib_predict_uncalibrated(const CalibRun *runs, int n, const Catalog *cat, CalibRun *out);

/* Mean and worst |err| over runs with ok, held_out == half (half < 0:
 * all); counts them into *count. */
void calib_stats(const CalibRun *runs, int n, int half, double *mean_abs, double *worst_abs,
                 int *count);

/* Repeated measurements: runs whose every setting is the same (the
 * workload's keys but its name, owner and measurement; the same
 * accelerator and framework profile) can differ only by what no setting
 * says — run-to-run noise, software releases, a recipe's unkeyed choices
 * — so their spread is a floor under any fit's residual.  Fills
 * group[i] with the index of the first run with run i's settings (i when
 * it is the first); returns the number of settings held by two or more
 * runs. */
int calib_repeat_groups(const CalibRun *runs, int n, int *group);

/* Spread of the measured step times of the runs in group g (group[] as
 * filled above): max / min − 1, 0 for fewer than two runs; *count = its
 * runs, *lo / *hi = the shortest and longest step (each may be NULL). */
double calib_repeat_spread(const CalibRun *runs, int n, const int *group, int g, int *count,
                           double *lo, double *hi);

/* Golden-section search of *param over [lo, hi] on a log scale, `iters`
 * narrowings: *param is set before each cost(ctx) call and left at the
 * better end point; returns its cost. */
double calib_golden_log(double (*cost)(void *ctx), void *ctx, double *param, double lo,
                        double hi, int iters);

/* Least-squares fit of framework `fw` ("" = megatron) on accelerator `acc`:
 * the profile's gemm_scale (and fp8_gemm_factor when the runs include both
 * FP8 and 16-bit ones) minimising Σ log²(predicted/measured) over the runs
 * with that accelerator and framework (and held_out false when fit_only)
 * that calib_predict sized (ok): a run it could not size is not fitted.
 * Writes the fitted profile to *out (id "fw@acc", calibrated_runs,
 * calibrated_residual set).  Returns the number of runs used (0 = none;
 * *out untouched). */
int calib_fit(const CalibRun *runs, int n, const Catalog *cat, const char *fw,
              const char *acc, bool fit_only, Framework *out);

/* Least-squares fit of the base profile `fw`'s MoE host costs per layer
 * and pass (moe_layer_overhead_s, and moe_expert_overhead_s per local
 * expert) over the MoE runs of that framework on every
 * accelerator (held_out excluded when fit_only).  *out = the base profile
 * with the fitted value.  Returns the runs used. */
int calib_fit_moe(const CalibRun *runs, int n, const Catalog *cat, const char *fw,
                  bool fit_only, Framework *out);

/* Least-squares fit of the base profile `fw`'s fixed cost per training
 * step (step_overhead_s, model/train.c env_step) and of its FP8 GEMM
 * factor pooled over every part (fp8_gemm_factor: what a part whose own
 * runs do not measure it keeps, calib_fit) over that framework's runs on
 * every accelerator (held_out excluded when fit_only), the calibrated
 * "fw@acc" rows of cat taking the same values.  Each accelerator's mean
 * log error is taken out first (its scales are fitted after); the step
 * cost is fitted when one accelerator has three runs with steps ≥ 10 %
 * apart, the FP8 factor when one has PARAM_RUNS (2) runs of each
 * precision, and each is kept only where the small-sample Akaike
 * criterion says the runs support it; else the profile's value stays.
 * *out = the base profile with the result; *share (may be NULL) = what
 * the framework's rows are to take of it: CALIB_SHARE_STEP when the step
 * cost could be fitted, CALIB_SHARE_FP8 when a pooled factor was kept (a
 * row's own factor, measured on its part, is not replaced by an unfitted
 * one).  Returns the runs used (0: neither value can be fitted, *out
 * untouched). */
int calib_fit_step(const CalibRun *runs, int n, const Catalog *cat, const char *fw,
                   bool fit_only, Framework *out, int *share);

/* Costs that are a framework's, not an accelerator's: its calibrated
 * "<fw>@<accelerator>" rows take the base profile's values (CALIB_SHARE_FP8:
 * the pooled FP8 factor, which a part's own fit may then refit). */
enum { CALIB_SHARE_MOE = 1, CALIB_SHARE_STEP = 2, CALIB_SHARE_FP8 = 4 };

/* fws[] (n rows): the row with f's id becomes f, and the rows
 * "<f.id>@..." take f's costs named by `share` (CALIB_SHARE_*). */
void calib_install_profile(Framework *fws, size_t n, const Framework *f, int share);

/* A catalog equal to base plus (or with a replaced) framework row f.  The
 * frameworks array is newly allocated in *tmp (free with calib_catalog_free);
 * everything else is shared with base. */
bool calib_catalog_with(const Catalog *base, const Framework *f, Catalog *tmp);
void calib_catalog_free(Catalog *tmp);

#endif
