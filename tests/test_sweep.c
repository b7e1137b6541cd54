/* tests/test_sweep.c — sweeps over plan keys (plans/sweep.c), plan keys by
 * dotted path (plans/fields.c) and the store's sweep tables (plans/store.c),
 * including the upgrade of a version-1 store. */
#include "config.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bigmem.h"
#include "catalog_yaml.h"
#include "check_main.h"
#include "evaluate.h"
#include "fields.h"
#include "store.h"
#include "sweep.h"
#include "yaml_plan.h"

static Catalog g_cat;
static Plan *g_plan;
static char g_catdir[4096];  /* the catalog files g_cat was parsed from */
static uint64_t g_src;       /* their catalog_source_digest */

/* Small and quick to evaluate; names with dots, as a plan may have them. */
static const char plan_text[] =
    "format: 1\n"
    "name: sweep-test\n"
    "accelerator: H100-SXM\n"
    "horizon_years: 3\n"
    "workloads:\n"
    "  - name: pre.train\n"
    "    kind: training\n"
    "    model: {preset: llama-3-8b}\n"
    "    seq_len: 4096\n"
    "    tokens: 100B\n"
    "    global_batch: 512\n"
    "    gpus: 64\n"
    "    parallel: {tp: 1, pp: 1, cp: 1, ep: 1}\n"
    "  - name: chat\n"
    "    kind: inference\n"
    "    model: {preset: llama-3-8b}\n"
    "    requests_per_s: 5\n"
    "site: {kind: on-prem, pue: 1.2, power_price_kwh: $0.08}\n"
    "tenancy:\n"
    "  gpus: 32\n"
    "  horizon: 2d\n"
    "  teams:\n"
    "    - name: core.llm\n"
    "      jobs:\n"
    "        - {name: a.b, per_day: 10, gpus: 4, hours: 2}\n";

static void setup(void)
{
    char *dir = g_catdir;
    const char *src = getenv("GPUPLAN_SRCDIR");
    snprintf(dir, sizeof g_catdir, "%s/data/catalog", src && *src ? src : GPUPLAN_SRCDIR);
    Diag d = {0};
    ck_assert_msg(catalog_load(&g_cat, dir, NULL, &d) == 0, "%s", d.msg);
    ck_assert_int_eq(catalog_source_digest(dir, NULL, &g_src), 0);
    g_plan = malloc(sizeof *g_plan);
    ck_assert_msg(plan_parse(plan_text, strlen(plan_text), "t.yaml", &g_cat, g_plan, &d) == 0,
                  "%s", d.msg);
}

static void teardown(void)
{
    free(g_plan);
    catalog_free(&g_cat);
}

/* A spec from --vary strings; asserts they parse. */
static SweepSpec *spec_of(long long samples, uint64_t seed, int n, const char *const *vary)
{
    SweepSpec *s = calloc(1, sizeof *s);
    char err[1024];
    for (int i = 0; i < n; i++)
        ck_assert_msg(sweep_axis_parse(g_plan, &g_cat, vary[i], &s->axes[s->n_axes++], err,
                                       sizeof err) == 0,
                      "%s: %s", vary[i], err);
    s->samples = samples;
    s->seed = seed;
    snprintf(s->name, sizeof s->name, "t");
    ck_assert_msg(sweep_spec_finish(s, err, sizeof err) == 0, "%s", err);
    return s;
}

static int axis_rc(const char *vary, char *err, size_t len)
{
    SweepAxis *ax = malloc(sizeof *ax);
    int rc = sweep_axis_parse(g_plan, &g_cat, vary, ax, err, len);
    free(ax);
    return rc;
}

/* ------------------------------------------------------------ key paths */

START_TEST(finds_keys_by_dotted_path_through_dotted_names)
{
    FieldTarget t;
    const FieldDef *f = fields_path_find(g_plan, "workloads.pre.train.parallel.tp", &t);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(t.scope, FS_WORKLOAD);
    ck_assert_int_eq(t.wl, 0);
    ck_assert_str_eq(f->key, "parallel.tp");
    f = fields_path_find(g_plan, "tenancy.teams.core.llm.jobs.a.b.per_day", &t);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(t.scope, FS_JOB);
    ck_assert_int_eq(t.team, 0);
    ck_assert_int_eq(t.job, 0);
    ck_assert_ptr_nonnull(fields_path_find(g_plan, "tenancy.teams.core.llm.weight", &t));
    ck_assert_int_eq(t.scope, FS_TEAM);
    ck_assert_ptr_nonnull(fields_path_find(g_plan, "site.pue", &t));
    ck_assert_int_eq(t.scope, FS_SITE);
    ck_assert_ptr_nonnull(fields_path_find(g_plan, "horizon_years", &t));
    ck_assert_int_eq(t.scope, FS_PLAN);
    /* an inference key on a training workload, an unknown item or key */
    ck_assert_ptr_null(fields_path_find(g_plan, "workloads.pre.train.replicas", &t));
    ck_assert_ptr_null(fields_path_find(g_plan, "workloads.nope.gpus", &t));
    ck_assert_ptr_null(fields_path_find(g_plan, "site.peu", &t));
    ck_assert_ptr_null(fields_path_find(g_plan, "pue", &t));
}
END_TEST

START_TEST(every_listed_path_resolves_to_itself)
{
    char(*paths)[FIELDS_PATH_LEN] = malloc(1024 * sizeof *paths);
    int n = fields_paths(g_plan, paths, 1024);
    ck_assert_int_gt(n, 60);
    for (int i = 0; i < n; i++) {
        FieldTarget t;
        const FieldDef *f = fields_path_find(g_plan, paths[i], &t);
        ck_assert_msg(f != NULL, "%s", paths[i]);
        char back[FIELDS_PATH_LEN];
        ck_assert_str_eq(fields_path_of(f, g_plan, t, back, sizeof back), paths[i]);
    }
    free(paths);
}
END_TEST

START_TEST(sets_a_number_in_si_units_with_the_checks_of_typed_text)
{
    Plan *p = malloc(sizeof *p);
    *p = *g_plan;
    FieldTarget t;
    char err[256];
    const FieldDef *f = fields_path_find(p, "tenancy.mtbf_gpu", &t);
    ck_assert_int_eq(field_set_number(f, p, t, 3600.0 * 20000, err, sizeof err), 0);
    ck_assert_double_eq(p->tenancy.mtbf_gpu_h, 20000); /* stored in hours */
    ck_assert_double_eq(field_number(f, p, t), 3600.0 * 20000);
    f = fields_path_find(p, "tenancy.gpus", &t);
    ck_assert_int_eq(field_set_number(f, p, t, 2.5, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "not a whole number"));
    ck_assert_int_eq(p->tenancy.gpus, 32); /* unchanged */
    ck_assert_int_eq(field_set_number(f, p, t, 4096, err, sizeof err), 0);
    ck_assert_int_eq(p->tenancy.gpus, 4096);
    free(p);
}
END_TEST

/* ------------------------------------------------------------ --vary */

START_TEST(an_unknown_key_names_the_nearest_one)
{
    char err[1024];
    ck_assert_int_eq(axis_rc("site.peu=1..2/3", err, sizeof err), -2);
    ck_assert_ptr_nonnull(strstr(err, "did you mean site.pue?"));
    ck_assert_int_eq(axis_rc("workloads.chatt.replicas=1,2", err, sizeof err), -2);
    ck_assert_ptr_nonnull(strstr(err, "did you mean workloads.chat.replicas?"));
}
END_TEST

START_TEST(rejects_bad_ranges_and_lists_as_usage_errors)
{
    char err[1024];
    ck_assert_int_eq(axis_rc("site.pue=1.4..1.1/4", err, sizeof err), -2);
    ck_assert_ptr_nonnull(strstr(err, "needs A < B"));
    ck_assert_int_eq(axis_rc("site.cooling=1..2/2", err, sizeof err), -2);
    ck_assert_ptr_nonnull(strstr(err, "listed values"));
    ck_assert_int_eq(axis_rc("site.pue=1.1..1.3/1", err, sizeof err), -2);
    ck_assert_int_eq(axis_rc("tenancy.gpus=1..3/5", err, sizeof err), -2);
    ck_assert_ptr_nonnull(strstr(err, "only 3 whole numbers"));
    ck_assert_int_eq(axis_rc("site.pue=1.1,,1.2", err, sizeof err), -2);
    ck_assert_int_eq(axis_rc("site.pue=1.1,1.1", err, sizeof err), -2);
    ck_assert_int_eq(axis_rc("site.pue", err, sizeof err), -2);
    ck_assert_int_eq(axis_rc("name=a,b", err, sizeof err), -2);
    ck_assert_int_eq(axis_rc("site.pue=x..2/3", err, sizeof err), -2);
}
END_TEST

START_TEST(a_value_that_makes_the_plan_invalid_is_an_invalid_plan)
{
    char err[1024];
    ck_assert_int_eq(axis_rc("site.pue=0.5,1.2", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "site.pue = 0.5"));
    ck_assert_int_eq(axis_rc("site.cooling=air,water", err, sizeof err), -1);
    ck_assert_int_eq(axis_rc("accelerator=H100-SXM,H900", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "H900"));
}
END_TEST

START_TEST(a_grid_needs_steps_and_a_key_only_once)
{
    SweepSpec *s = calloc(1, sizeof *s);
    char err[1024];
    ck_assert_int_eq(sweep_axis_parse(g_plan, &g_cat, "site.pue=1.1..1.3", &s->axes[0], err,
                                      sizeof err), 0);
    s->n_axes = 1;
    ck_assert_int_eq(sweep_spec_finish(s, err, sizeof err), -2);
    ck_assert_ptr_nonnull(strstr(err, "--samples"));
    s->samples = 10;
    ck_assert_int_eq(sweep_spec_finish(s, err, sizeof err), 0);
    ck_assert_int_eq(s->n_points, 10);
    ck_assert_int_eq(sweep_axis_parse(g_plan, &g_cat, "site.pue=1.5", &s->axes[1], err,
                                      sizeof err), 0);
    s->n_axes = 2;
    ck_assert_int_eq(sweep_spec_finish(s, err, sizeof err), -2);
    ck_assert_ptr_nonnull(strstr(err, "given twice"));
    free(s);
}
END_TEST

/* ------------------------------------------------------------ points */

START_TEST(a_grid_is_the_cartesian_product_with_the_last_key_fastest)
{
    const char *v[] = {"tenancy.gpus=2048..8192/7", "site.cooling=air,liquid"};
    SweepSpec *s = spec_of(0, 1, 2, v);
    ck_assert_int_eq(s->n_points, 14);
    SweepValue x[SWEEP_MAX_AXES];
    for (long long i = 0; i < 14; i++) {
        sweep_point(s, i, x);
        ck_assert_double_eq(x[0].num, 2048 + 1024 * (double)(i / 2)); /* exact steps */
        ck_assert_int_eq(x[1].choice, (int)(i % 2));
    }
    Plan *p = malloc(sizeof *p);
    char err[256];
    ck_assert_int_eq(sweep_point_plan(s, g_plan, &g_cat, 13, p, err, sizeof err), 0);
    ck_assert_int_eq(p->tenancy.gpus, 8192);
    ck_assert_int_eq(p->site.cooling, COOLING_LIQUID);
    free(p);
    free(s);
}
END_TEST

START_TEST(range_ends_take_the_keys_units)
{
    const char *v[] = {"tenancy.horizon=7d..28d/4", "network.link=100Gb/s..400Gb/s/4",
                       "site.headroom=5%..20%/4"};
    SweepSpec *s = spec_of(0, 1, 3, v);
    ck_assert_int_eq(s->axes[0].steps, 4);
    ck_assert_double_eq(s->axes[0].lo, 7 * 86400.0);
    ck_assert_double_eq(s->axes[0].hi, 28 * 86400.0);
    ck_assert_double_eq(s->axes[1].hi, 400e9);
    ck_assert_double_eq_tol(s->axes[2].lo, 0.05, 1e-15);
    SweepValue x[SWEEP_MAX_AXES];
    sweep_point(s, 63, x);
    char buf[64];
    ck_assert_str_eq(sweep_value_text(&s->axes[0], &x[0], buf, sizeof buf), "28"); /* days */
    free(s);
}
END_TEST

START_TEST(monte_carlo_points_are_seeded_reproducible_and_in_range)
{
    const char *v[] = {"site.pue=1.1..1.5", "tenancy.gpus=10..12", "site.cooling=air,liquid"};
    SweepSpec *a = spec_of(3000, 7, 3, v), *b = spec_of(3000, 7, 3, v), *c = spec_of(3000, 8, 3, v);
    int ends[3] = {0, 0, 0}, liquid = 0, differ = 0;
    double sum = 0;
    for (long long i = 0; i < 3000; i++) {
        SweepValue x[SWEEP_MAX_AXES], y[SWEEP_MAX_AXES], z[SWEEP_MAX_AXES];
        sweep_point(a, i, x);
        sweep_point(b, i, y);
        sweep_point(c, i, z);
        for (int k = 0; k < 3; k++)
            ck_assert((x[k].num == y[k].num || (isnan(x[k].num) && isnan(y[k].num))) &&
                      x[k].choice == y[k].choice);
        differ += x[0].num != z[0].num;
        ck_assert(x[0].num >= 1.1 && x[0].num <= 1.5);
        sum += x[0].num;
        ck_assert(x[1].num == 10 || x[1].num == 11 || x[1].num == 12);
        ends[(int)x[1].num - 10]++;
        liquid += x[2].choice;
    }
    ck_assert_int_eq(differ, 3000);
    /* uniform: mean 1.3 (sd of the mean 0.0021), each whole number and choice near 1/3, 1/2 */
    ck_assert_double_eq_tol(sum / 3000, 1.3, 0.01);
    for (int k = 0; k < 3; k++)
        ck_assert_int_gt(ends[k], 850);
    ck_assert_int_gt(liquid, 1350);
    ck_assert_int_lt(liquid, 1650);
    free(a);
    free(b);
    free(c);
}
END_TEST

START_TEST(shards_tile_the_points_exactly)
{
    for (long long n = 1; n < 40; n++)
        for (int k = 1; k <= 9; k++) {
            long long next = 0;
            for (int i = 0; i < k; i++) {
                long long lo, hi;
                sweep_shard_range(n, i, k, &lo, &hi);
                ck_assert_int_eq(lo, next);
                ck_assert(hi - lo == n / k || hi - lo == n / k + 1);
                next = hi;
            }
            ck_assert_int_eq(next, n);
        }
}
END_TEST

/* A row as one text line (index, inputs, outputs, error) appended at out + *len. */
static void row_line(const SweepSpec *s, const SweepRow *row, char *out, size_t cap, size_t *len)
{
    char *in = sweep_inputs_json(s, row), *o = sweep_outputs_json(row);
    int n = snprintf(out + *len, cap - *len, "%lld %s %s %s\n", row->idx, in, o, row->error);
    ck_assert(n > 0 && (size_t)n < cap - *len);
    *len += (size_t)n;
    free(in);
    free(o);
}

/* Rows of [lo, hi) as JSON text lines. */
static char *rows_text(const SweepSpec *s, long long lo, long long hi)
{
    SweepRow *rows = calloc((size_t)(hi - lo), sizeof *rows);
    ck_assert_int_eq(sweep_evaluate(s, g_plan, &g_cat, lo, hi, rows), 0);
    size_t cap = 1 << 16, len = 0;
    char *out = calloc(cap, 1);
    for (long long i = 0; i < hi - lo; i++)
        row_line(s, &rows[i], out, cap, &len);
    free(rows);
    return out;
}

START_TEST(shards_give_the_same_rows_as_one_process)
{
    const char *v[] = {"site.pue=1.1..1.4/4", "workloads.chat.requests_per_s=2,8"};
    SweepSpec *s = spec_of(0, 1, 2, v);
    char *whole = rows_text(s, 0, s->n_points);
    char joined[1 << 16] = "";
    for (int i = 0; i < 3; i++) {
        long long lo, hi;
        sweep_shard_range(s->n_points, i, 3, &lo, &hi);
        char *part = rows_text(s, lo, hi);
        strncat(joined, part, sizeof joined - strlen(joined) - 1);
        free(part);
    }
    ck_assert_str_eq(joined, whole);
    free(whole);
    free(s);
}
END_TEST

/* Rows of [lo, hi) as JSON text lines, evaluated with the caller's
 * catalog and cache. */
static char *rows_text_cat(const SweepSpec *s, const Catalog *cat, long long lo, long long hi,
                           EvalCache *cache)
{
    SweepRow *rows = calloc((size_t)(hi - lo), sizeof *rows);
    ck_assert_int_eq(sweep_evaluate_with(s, g_plan, cat, lo, hi, rows, cache), 0);
    size_t cap = 1 << 16, len = 0;
    char *out = calloc(cap, 1);
    for (long long i = 0; i < hi - lo; i++)
        row_line(s, &rows[i], out, cap, &len);
    free(rows);
    return out;
}

static char *rows_text_with(const SweepSpec *s, long long lo, long long hi, EvalCache *cache)
{
    return rows_text_cat(s, &g_cat, lo, hi, cache);
}

/* What `gpuplan sweep --emit` writes: the stage results of point 0 and the
 * catalog, keyed by the digest of the files it was parsed from. */
static unsigned char *emitted_stages(const SweepSpec *s, size_t *len)
{
    EvalCache *c = eval_cache_new();
    SweepRow row;
    ck_assert_int_eq(sweep_evaluate_with(s, g_plan, &g_cat, 0, 1, &row, c), 0);
    unsigned char *bytes = NULL;
    ck_assert_int_eq(eval_cache_export(c, &g_cat, g_src, &bytes, len), 2); /* sizing, scheduler */
    eval_cache_free(c);
    return bytes;
}

START_TEST(shared_stages_give_a_shard_the_same_rows_without_running_them)
{
    /* no key the sizing or the scheduler reads is varied: a shard that
     * imports point 0's stages runs neither, and its rows are the rows of
     * a shard that computes them */
    const char *v[] = {"site.pue=1.1..1.4/4", "site.power_price_kwh=0.05,0.09"};
    SweepSpec *s = spec_of(0, 1, 2, v);
    size_t len;
    unsigned char *bytes = emitted_stages(s, &len);
    for (int i = 0; i < 3; i++) {
        long long lo, hi;
        sweep_shard_range(s->n_points, i, 3, &lo, &hi);
        EvalCache *cold = eval_cache_new(), *shared = eval_cache_new();
        char why[256] = "";
        ck_assert_msg(eval_cache_import(shared, &g_cat, bytes, len, why, sizeof why) == 2, "%s",
                      why);
        char *a = rows_text_with(s, lo, hi, cold), *b = rows_text_with(s, lo, hi, shared);
        ck_assert_str_eq(a, b);
        EvalCacheStats st = eval_cache_stats(shared), sc = eval_cache_stats(cold);
        ck_assert_uint_eq(sc.sched_runs, 1);
        ck_assert_uint_eq(sc.sizing_runs, 1);
        ck_assert_uint_eq(st.sched_runs, 0);
        ck_assert_uint_eq(st.sizing_runs, 0);
        ck_assert_uint_eq(st.sched_hits, (uint64_t)(hi - lo));
        ck_assert_uint_eq(st.imported_hits, 2 * (uint64_t)(hi - lo));
        ck_assert_uint_eq(sc.imported_hits, 0);
        free(a);
        free(b);
        eval_cache_free(cold);
        eval_cache_free(shared);
    }
    /* a varied key the sizing reads: only the points of point 0's tokens
     * reuse the file's sizing; the scheduler is still shared; same rows */
    const char *v2[] = {"workloads.pre.train.tokens=100B,200B", "site.pue=1.1,1.3"};
    SweepSpec *s2 = spec_of(0, 1, 2, v2);
    size_t len2;
    unsigned char *b2 = emitted_stages(s2, &len2);
    EvalCache *cold = eval_cache_new(), *shared = eval_cache_new();
    ck_assert_int_eq(eval_cache_import(shared, &g_cat, b2, len2, NULL, 0), 2);
    char *a = rows_text_with(s2, 0, s2->n_points, cold);
    char *b = rows_text_with(s2, 0, s2->n_points, shared);
    ck_assert_str_eq(a, b);
    ck_assert_uint_eq(eval_cache_stats(shared).sizing_runs, 1);
    ck_assert_uint_eq(eval_cache_stats(shared).sched_runs, 0);
    free(a);
    free(b);
    eval_cache_free(cold);
    eval_cache_free(shared);
    free(b2);
    free(bytes);
    free(s);
    free(s2);
}
END_TEST

/* xorshift64 for the corruption loop (Marsaglia 2003). */
static uint64_t xs(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

START_TEST(a_corrupt_truncated_stale_or_foreign_stage_file_is_refused_whole)
{
    const char *v[] = {"site.pue=1.1..1.4/4"};
    SweepSpec *s = spec_of(0, 1, 1, v);
    size_t len;
    unsigned char *bytes = emitted_stages(s, &len);
    char *want = rows_text(s, 0, s->n_points);
    unsigned char *bad = malloc(len + 64);
    char why[256];
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    /* every truncation, then random damage: flipped bits, bytes set, a
     * range zeroed, bytes appended.  The truncations share one cache (a
     * refused import leaves it as it was, checked below on fresh ones): a
     * few MB mapped and unmapped per byte of the file cost minutes under
     * ASan. */
    EvalCache *tc = eval_cache_new();
    for (size_t n = 0; n < len; n++) {
        why[0] = '\0';
        ck_assert_int_eq(eval_cache_import(tc, &g_cat, bytes, n, why, sizeof why), -1);
        ck_assert_msg(strstr(why, "truncated") || strstr(why, "not a gpuplan stage file"),
                      "%zu: %s", n, why);
        Catalog got;
        ck_assert_int_eq(eval_stage_catalog(bytes, n, g_src, &got, why, sizeof why), -1);
        ck_assert_uint_eq(got.n_accelerators, 0);
    }
    eval_cache_free(tc);
    int refused = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(bad, bytes, len);
        size_t n = len;
        switch (it % 4) {
        case 0: bad[xs(&x) % len] ^= (unsigned char)(1u << (xs(&x) % 8)); break;
        case 1: {
            size_t at = xs(&x) % len;
            unsigned char v2 = (unsigned char)(xs(&x) % 255 + 1);
            bad[at] = bad[at] == v2 ? (unsigned char)(v2 ^ 0x80) : v2;
            break;
        }
        case 2: {
            size_t at = xs(&x) % len, k = 1 + xs(&x) % 64;
            bool any = false;
            for (size_t j = at; j < at + k && j < len; j++) {
                any = any || bad[j] != 0;
                bad[j] = 0;
            }
            if (!any)
                bad[at] ^= 1;
            break;
        }
        default:
            n = len + 1 + xs(&x) % 64;
            for (size_t j = len; j < n; j++)
                bad[j] = (unsigned char)xs(&x);
        }
        EvalCache *c = eval_cache_new();
        why[0] = '\0';
        int r = eval_cache_import(c, &g_cat, bad, n, why, sizeof why);
        ck_assert_msg(r == -1 && why[0], "damage %d accepted", it);
        /* the catalog it carries is refused with it */
        Catalog taken;
        why[0] = '\0';
        r = eval_stage_catalog(bad, n, g_src, &taken, why, sizeof why);
        ck_assert_msg(r == -1 && why[0] && !taken.accelerators, "damage %d: catalog taken", it);
        refused++;
        /* the cache is unchanged: the stages are computed, same rows */
        if (it < 8) {
            char *got = rows_text_with(s, 0, s->n_points, c);
            ck_assert_str_eq(got, want);
            ck_assert_uint_eq(eval_cache_stats(c).sched_runs, 1);
            free(got);
        }
        eval_cache_free(c);
    }
    ck_assert_int_eq(refused, 3000);
    /* another gpuplan build: the version text in the header */
    memcpy(bad, bytes, len);
    bad[8 + 4 + 4 + 1] ^= 0x20;
    EvalCache *c = eval_cache_new();
    ck_assert_int_eq(eval_cache_import(c, &g_cat, bad, len, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "another gpuplan version"), "%s", why);
    /* not a stage file at all */
    const char text[] = "format: 1\nname: plan\n";
    ck_assert_int_eq(eval_cache_import(c, &g_cat, (const unsigned char *)text, sizeof text, why,
                                       sizeof why), -1);
    ck_assert_msg(strstr(why, "not a gpuplan stage file"), "%s", why);
    /* another catalog: a figure the sizing reads, and a price it does not */
    double keep = g_cat.accelerators[0].hbm_bytes;
    g_cat.accelerators[0].hbm_bytes += 1;
    ck_assert_int_eq(eval_cache_import(c, &g_cat, bytes, len, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "stale"), "%s", why);
    g_cat.accelerators[0].hbm_bytes = keep;
    ck_assert_int_eq(eval_cache_import(c, &g_cat, bytes, len, why, sizeof why), 2);
    eval_cache_free(c);
    free(bad);
    free(want);
    free(bytes);
    free(s);
}
END_TEST

/* Copy file from into to (both paths). */
static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    ck_assert_msg(in && out, "%s -> %s", from, to);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
}

/* Copy every regular file of directory from into directory to (made). */
static void copy_dir(const char *from, const char *to)
{
    ck_assert_int_eq(mkdir(to, 0700), 0);
    DIR *dp = opendir(from);
    ck_assert_ptr_nonnull(dp);
    struct dirent *de;
    char a[4096], b[4096];
    while ((de = readdir(dp)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        ck_assert_int_lt(snprintf(a, sizeof a, "%s/%s", from, de->d_name), (int)sizeof a);
        ck_assert_int_lt(snprintf(b, sizeof b, "%s/%s", to, de->d_name), (int)sizeof b);
        copy_file(a, b);
    }
    closedir(dp);
}

/* Remove directory dir and the files in it (one level). */
static void remove_dir(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return;
    struct dirent *de;
    char path[4096];
    while ((de = readdir(dp)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) < (int)sizeof path)
            unlink(path);
    }
    closedir(dp);
    rmdir(dir);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static uint64_t source_of(const char *dir, const char *user)
{
    uint64_t h = 0;
    ck_assert_int_eq(catalog_source_digest(dir, user, &h), 0);
    return h;
}

START_TEST(a_task_takes_the_stored_catalog_only_from_the_same_catalog_files)
{
    const char *v[] = {"site.pue=1.1..1.4/4", "site.power_price_kwh=0.05,0.09"};
    SweepSpec *s = spec_of(0, 1, 2, v);
    size_t len;
    unsigned char *bytes = emitted_stages(s, &len);
    /* the same files elsewhere: the same source, the stored catalog is
     * byte for byte the parsed one and gives the same rows */
    char tmp[] = "/tmp/gpuplan-catsrc-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    char cat[sizeof tmp + 8], user[sizeof tmp + 8], path[sizeof tmp + 32], from[4096];
    snprintf(cat, sizeof cat, "%s/catalog", tmp);
    snprintf(user, sizeof user, "%s/user", tmp);
    copy_dir(g_catdir, cat);
    ck_assert_uint_eq(source_of(cat, NULL), g_src);
    Catalog got;
    char why[256] = "";
    ck_assert_msg(eval_stage_catalog(bytes, len, g_src, &got, why, sizeof why) == 1, "%s", why);
    ck_assert_uint_eq(got.n_accelerators, g_cat.n_accelerators);
    ck_assert_uint_eq(got.n_instances, g_cat.n_instances);
    ck_assert_uint_eq(got.n_storage, g_cat.n_storage);
    ck_assert_uint_eq(got.n_engines, g_cat.n_engines);
    ck_assert_uint_eq(got.n_frameworks, g_cat.n_frameworks);
    ck_assert_uint_eq(got.n_bands, g_cat.n_bands);
    ck_assert(memcmp(got.accelerators, g_cat.accelerators,
                     g_cat.n_accelerators * sizeof *g_cat.accelerators) == 0);
    ck_assert(memcmp(got.instances, g_cat.instances, g_cat.n_instances * sizeof *g_cat.instances) ==
              0);
    ck_assert(memcmp(got.engines, g_cat.engines, g_cat.n_engines * sizeof *g_cat.engines) == 0);
    ck_assert(memcmp(got.frameworks, g_cat.frameworks,
                     g_cat.n_frameworks * sizeof *g_cat.frameworks) == 0);
    ck_assert(memcmp(got.bands, g_cat.bands, g_cat.n_bands * sizeof *g_cat.bands) == 0);
    ck_assert(memcmp(&got.costs, &g_cat.costs, sizeof got.costs) == 0);
    ck_assert(memcmp(got.ranges, g_cat.ranges, sizeof got.ranges) == 0);
    EvalCache *cold = eval_cache_new(), *shared = eval_cache_new();
    ck_assert_int_eq(eval_cache_import(shared, &got, bytes, len, why, sizeof why), 2);
    char *a = rows_text_with(s, 0, s->n_points, cold);
    char *b = rows_text_cat(s, &got, 0, s->n_points, shared);
    ck_assert_str_eq(a, b);
    ck_assert_uint_eq(eval_cache_stats(shared).sched_runs, 0);
    free(a);
    free(b);
    eval_cache_free(cold);
    eval_cache_free(shared);
    catalog_free(&got);
    /* one byte of one file changed (a comment: the parse would not
     * change, the source does): the task parses */
    snprintf(path, sizeof path, "%s/storage.yaml", cat);
    FILE *f = fopen(path, "ab");
    ck_assert_ptr_nonnull(f);
    fputs("#", f);
    fclose(f);
    uint64_t changed = source_of(cat, NULL);
    ck_assert(changed != g_src);
    ck_assert_int_eq(eval_stage_catalog(bytes, len, changed, &got, why, sizeof why), 0);
    ck_assert_ptr_null(got.accelerators);
    ck_assert_int_lt(snprintf(from, sizeof from, "%s/storage.yaml", g_catdir), (int)sizeof from);
    copy_file(from, path);
    ck_assert_uint_eq(source_of(cat, NULL), g_src);
    /* an added override directory: another catalog, the task parses */
    ck_assert_int_eq(mkdir(user, 0700), 0);
    uint64_t h;
    ck_assert_int_eq(catalog_source_digest(cat, user, &h), -1); /* empty: the parse says why */
    snprintf(path, sizeof path, "%s/o.yaml", user);
    write_text(path, "instances:\n  - {id: p5.48xlarge, on_demand_usd_h: 50}\n");
    uint64_t with_user = source_of(cat, user);
    ck_assert(with_user != g_src);
    ck_assert_int_eq(eval_stage_catalog(bytes, len, with_user, &got, why, sizeof why), 0);
    Catalog parsed;
    Diag d = {0};
    ck_assert_msg(catalog_load(&parsed, cat, user, &d) == 0, "%s", d.msg);
    ck_assert(catalog_find_instance(&parsed, "p5.48xlarge")->on_demand_usd_h == 50);
    ck_assert(catalog_find_instance(&g_cat, "p5.48xlarge")->on_demand_usd_h != 50);
    catalog_free(&parsed);
    /* the writer's files unreadable (source 0): never taken */
    ck_assert_int_eq(eval_stage_catalog(bytes, len, 0, &got, why, sizeof why), 0);
    remove_dir(user);
    remove_dir(cat);
    rmdir(tmp);
    free(bytes);
    free(s);
}
END_TEST

START_TEST(stage_axes_are_the_keys_a_cached_stage_reads)
{
    /* tokens re-size the training run, a job rate changes the scheduler's
     * job mix; PUE and the horizon are read by power and cost only */
    const char *v[] = {"site.pue=1.1,1.3", "workloads.pre.train.tokens=100B..200B/3",
                       "horizon_years=3,5", "tenancy.teams.core.llm.jobs.a.b.per_day=5,10"};
    SweepSpec *s = spec_of(0, 1, 4, v);
    int outer[SWEEP_MAX_AXES];
    ck_assert_int_eq(sweep_stage_axes(s, g_plan, &g_cat, outer), 2);
    ck_assert_int_eq(outer[0], 1);
    ck_assert_int_eq(outer[1], 3);
    free(s);
    /* a Monte Carlo sweep keeps its index order */
    s = spec_of(20, 7, 2, v);
    ck_assert_int_eq(sweep_stage_axes(s, g_plan, &g_cat, outer), 0);
    free(s);
}
END_TEST

/* Rows of [lo, hi) evaluated one point at a time without a stage cache. */
static char *rows_uncached(const SweepSpec *s, long long lo, long long hi)
{
    size_t cap = 1 << 16, len = 0;
    char *out = calloc(cap, 1);
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    EvalOptions opt = eval_options_default();
    opt.alternatives = false;
    for (long long i = lo; i < hi; i++) {
        SweepRow row;
        memset(&row, 0, sizeof row);
        row.idx = i;
        sweep_point(s, i, row.in);
        char err[PLAN_TEXT_LEN];
        ck_assert_int_eq(sweep_point_plan(s, g_plan, &g_cat, i, p, err, sizeof err), 0);
        plan_evaluate_ex(p, &g_cat, &opt, r);
        sweep_row_outputs(r, &row);
        row_line(s, &row, out, cap, &len);
    }
    free(p);
    free(r);
    return out;
}

START_TEST(stage_axes_varied_fastest_give_the_rows_of_uncached_points)
{
    /* tokens (read by sizing) vary fastest over more values than the cache
     * has slots, so the evaluation takes the points out of index order */
    const char *v[] = {"site.pue=1.1,1.3", "workloads.pre.train.tokens=100B..300B/10"};
    SweepSpec *s = spec_of(0, 1, 2, v);
    int outer[SWEEP_MAX_AXES];
    ck_assert_int_eq(sweep_stage_axes(s, g_plan, &g_cat, outer), 1);
    ck_assert_int_eq(outer[0], 1);
    const long long ranges[][2] = {{0, 20}, {3, 17}, {9, 11}};
    for (int k = 0; k < 3; k++) {
        char *got = rows_text(s, ranges[k][0], ranges[k][1]);
        char *want = rows_uncached(s, ranges[k][0], ranges[k][1]);
        ck_assert_str_eq(got, want);
        free(got);
        free(want);
    }
    free(s);
}
END_TEST

START_TEST(a_point_has_the_headline_outputs)
{
    const char *v[] = {"site.pue=1.2,1.4"};
    SweepSpec *s = spec_of(0, 1, 1, v);
    SweepRow rows[2];
    ck_assert_int_eq(sweep_evaluate(s, g_plan, &g_cat, 0, 2, rows), 0);
    for (int i = 0; i < 2; i++) {
        ck_assert_str_eq(rows[i].error, "");
        ck_assert(rows[i].gpus >= 64 + 32);
        ck_assert(rows[i].train_days > 0);
        ck_assert(rows[i].tco_usd > 0 && rows[i].cheapest_tco_usd <= rows[i].tco_usd);
        ck_assert(!isnan(rows[i].wait_p95_h));
        ck_assert(strcmp(rows[i].verdict, "build") == 0 || strcmp(rows[i].verdict, "buy") == 0);
    }
    /* facility power is IT power times PUE (PUE's definition, The Green Grid WP#49) */
    ck_assert_double_eq_tol(rows[0].facility_mw, rows[0].it_mw * 1.2, 1e-9);
    ck_assert_double_eq_tol(rows[1].facility_mw, rows[1].it_mw * 1.4, 1e-9);
    ck_assert_double_eq(rows[0].gpus, rows[1].gpus);
    char *o = sweep_outputs_json(&rows[0]);
    ck_assert_ptr_nonnull(strstr(o, "\"fits\":"));
    ck_assert_ptr_nonnull(strstr(o, "\"wait_p95_h\":"));
    free(o);
    free(s);
}
END_TEST

START_TEST(an_invalid_combination_is_a_row_with_its_reason)
{
    /* each value is valid alone; a batch of 500 does not divide into micro-batches of 8 */
    const char *v[] = {"workloads.pre.train.global_batch=512,500",
                       "workloads.pre.train.micro_batch=1,8"};
    SweepSpec *s = spec_of(0, 1, 2, v);
    SweepRow rows[4];
    ck_assert_int_eq(sweep_evaluate(s, g_plan, &g_cat, 0, 4, rows), 0);
    for (int i = 0; i < 3; i++)
        ck_assert_msg(rows[i].error[0] == '\0', "%d: %s", i, rows[i].error);
    ck_assert_ptr_nonnull(strstr(rows[3].error, "not divisible by micro_batch 8"));
    ck_assert(isnan(rows[3].gpus) && !rows[3].fits);
    char *o = sweep_outputs_json(&rows[3]);
    ck_assert_ptr_nonnull(strstr(o, "\"gpus\":null"));
    free(o);
    free(s);
}
END_TEST

/* ------------------------------------------------------------ store */

static char g_dir[1024];

static const char *tmp_db(const char *name, char *buf, size_t len)
{
    if (!g_dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(g_dir, sizeof g_dir, "%s/gpuplan-sweep-XXXXXX", base && *base ? base : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(g_dir));
    }
    snprintf(buf, len, "%s/%s", g_dir, name);
    unlink(buf);
    return buf;
}

static long long raw_int(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    long long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static Store *open_new(const char *path)
{
    Diag d = {0};
    Store *s = store_open(path, NULL, false, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    ck_assert_int_eq(store_save_version(s, "p", "format: 1\nname: p\n", "v", NULL, &d), 0);
    return s;
}

static const StoreSweepRow three[] = {
    {0, "[1.1]", "{\"gpus\":8.0}", ""},
    {1, "[1.2]", "{\"gpus\":9.0}", ""},
    {2, "[1.3]", "{\"gpus\":null}", "bad"},
};

START_TEST(storing_rows_again_never_counts_them_twice)
{
    char db[2048];
    Store *s = open_new(tmp_db("idem.db", db, sizeof db));
    StoreSweepPut r;
    Diag d = {0};
    ck_assert_int_eq(store_sweep_put(s, "p", "w", 1, "00000000000000aa", "{}", 4, three, 2, &r, &d), 0);
    ck_assert_int_eq(r.added, 2);
    ck_assert_int_eq(store_sweep_put(s, "p", "w", 1, "00000000000000aa", "{}", 4, three, 3, &r, &d), 0);
    ck_assert_int_eq(r.added, 1);
    ck_assert_int_eq(r.same, 2);
    ck_assert_int_eq(r.conflicts, 0);
    StoreSweepRow changed = {1, "[1.2]", "{\"gpus\":10.0}", ""};
    ck_assert_int_eq(store_sweep_put(s, "p", "w", 1, "00000000000000aa", "{}", 4, &changed, 1, &r, &d), 0);
    ck_assert_int_eq(r.conflicts, 1);
    ck_assert_int_eq(r.first_conflict, 1);
    StoreSweepInfo info;
    char *spec = NULL;
    ck_assert_int_eq(store_sweep_get(s, "p", "w", &info, &spec, &d), 0);
    ck_assert_int_eq(info.points, 4);
    ck_assert_int_eq(info.stored, 3); /* one point missing: incomplete */
    ck_assert_str_eq(spec, "{}");
    free(spec);
    /* another spec under the same name is refused, nothing changes */
    ck_assert_int_eq(store_sweep_put(s, "p", "w", 1, "00000000000000bb", "{}", 4, three, 3, &r, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "already has a sweep named 'w'"));
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM sweep_points"), 3);
    ck_assert_int_eq(raw_int(db, "SELECT outputs = '{\"gpus\":9.0}' FROM sweep_points WHERE idx = 1"), 1);
    store_close(s);
}
END_TEST

static int count_rows(const StoreSweepRow *row, void *ctx)
{
    long long *n = ctx;
    ck_assert_int_eq(row->idx, *n);
    (*n)++;
    return 0;
}

START_TEST(a_sweep_lists_reads_in_order_and_goes_with_its_plan)
{
    char db[2048];
    Store *s = open_new(tmp_db("list.db", db, sizeof db));
    StoreSweepPut r;
    Diag d = {0};
    ck_assert_int_eq(store_sweep_put(s, "p", "w", 1, "00000000000000aa", "{}", 3, three, 3, &r, &d), 0);
    ck_assert_int_eq(store_sweep_put(s, "nope", "w", 1, "00000000000000aa", "{}", 3, three, 3, &r, &d), -1);
    ck_assert_int_eq(store_sweep_put(s, "p", "bad/name", 1, "00000000000000aa", "{}", 3, three, 3, &r, &d), -1);
    StoreSweepInfo *info;
    int n;
    ck_assert_int_eq(store_sweep_list(s, NULL, &info, &n, &d), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(info[0].plan, "p");
    ck_assert_str_eq(info[0].name, "w");
    ck_assert_int_eq(info[0].stored, 3);
    free(info);
    long long seen = 0;
    ck_assert_int_eq(store_sweep_rows(s, "p", "w", count_rows, &seen, &d), 0);
    ck_assert_int_eq(seen, 3);
    ck_assert_int_eq(store_sweep_rows(s, "p", "x", count_rows, &seen, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.msg, "no sweep named 'x'"));
    /* a purged plan takes its sweeps along */
    ck_assert_int_eq(store_purge(s, "p", &d), 0);
    store_close(s);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM sweeps"), 0);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM sweep_points"), 0);
}
END_TEST

/* The schema of version 1, as a store written before sweeps holds it. */
static const char v1_schema[] =
    "CREATE TABLE plans (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
    "  created INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),"
    "  deleted_at INTEGER);"
    "CREATE TABLE versions (plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE,"
    "  version INTEGER NOT NULL CHECK (version >= 1), created INTEGER NOT NULL,"
    "  note TEXT NOT NULL DEFAULT '', yaml TEXT NOT NULL, PRIMARY KEY (plan_id, version));"
    "CREATE TABLE prefs (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT INTO plans VALUES (1, 'old', 1700000000, 0, NULL);"
    "INSERT INTO versions VALUES (1, 1, 1700000000, 'before sweeps', 'format: 1\nname: old\n');"
    "INSERT INTO prefs VALUES ('theme', 'dark');"
    "PRAGMA application_id = 1196444750; PRAGMA user_version = 1;";

START_TEST(a_version_1_store_upgrades_keeping_its_plans)
{
    char db[2048];
    tmp_db("v1.db", db, sizeof db);
    sqlite3 *raw;
    ck_assert_int_eq(sqlite3_open(db, &raw), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(raw, v1_schema, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    Diag d = {0};
    /* read-only first: readable as it is, no sweeps, nothing written */
    Store *s = store_open(db, NULL, true, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    StoreSweepInfo *info;
    int n = -1;
    ck_assert_int_eq(store_sweep_list(s, NULL, &info, &n, &d), 0);
    ck_assert_int_eq(n, 0);
    ck_assert(store_exists(s, "old"));
    store_close(s);
    ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), 1);
    /* read-write: migrated in place, plans, versions and prefs kept */
    s = store_open(db, NULL, false, &d);
    ck_assert_msg(s != NULL, "%s", d.msg);
    char *yaml = NULL;
    int v = 0;
    ck_assert_int_eq(store_load(s, "old", 0, &yaml, &v, &d), 0);
    ck_assert_str_eq(yaml, "format: 1\nname: old\n");
    free(yaml);
    char theme[16];
    ck_assert_int_eq(store_pref_get(s, "theme", theme, sizeof theme), 0);
    ck_assert_str_eq(theme, "dark");
    StoreSweepPut r;
    ck_assert_int_eq(store_sweep_put(s, "old", "w", 1, "00000000000000aa", "{}", 3, three, 3, &r, &d), 0);
    store_close(s);
    ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM sweep_points"), 3);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM versions"), 1);
}
END_TEST

/* ------------------------------------------------------- a task's heap */

static long minor_faults(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

/* Blocks of 48 KiB (heap, below the mmap threshold) written on every page:
 * the minor page faults that took. */
static long touch_blocks(char **blk, int n)
{
    long f0 = minor_faults();
    for (int i = 0; i < n; i++) {
        blk[i] = malloc(48 << 10);
        ck_assert_ptr_nonnull(blk[i]);
        for (size_t o = 0; o < (48 << 10); o += 4096)
            blk[i][o] = (char)i;
    }
    return minor_faults() - f0;
}

START_TEST(a_sweep_task_heap_is_made_resident_in_one_call)
{
    /* the code touch_blocks runs (malloc's paths, getrusage), paged in
     * first: a forked test child faults on each text page it executes
     * the first time, which is not what is measured here */
    char *warm[1];
    touch_blocks(warm, 1);
    free(warm[0]);
    /* as `gpuplan sweep` starts (cli/cmd_sweep.c) */
    big_keep_freed_memory();
    if (!big_prefault_heap((size_t)4 << 20))
        return; /* a sanitizer build or no MADV_POPULATE_WRITE: nothing changes */
    enum { N = 60 }; /* 2.8 MiB: 720 pages inside the populated 4 MiB */
    static char *inside[N], *beyond[4 * N];
    long f_in = touch_blocks(inside, N);
    /* the heap past the populated part, for comparison: where it faults
     * page by page (transparent huge pages not "always"), the populated
     * part must not: its pages fault at under a quarter of the fresh
     * pages' rate (measured: about a tenth, ~1 fault per block, against
     * ~10 of 12 pages per fresh block; without the populate the rates
     * are equal) */
    long f_out = touch_blocks(beyond, 4 * N);
    if (f_out > 4 * N * 12 / 2)
        ck_assert_msg(f_in * 4 * 4 < f_out, "%ld faults for %d populated pages (%ld for %d fresh)",
                      f_in, N * 12, f_out, 4 * N * 12);
    for (int i = 0; i < N; i++)
        free(inside[i]);
    for (int i = 0; i < 4 * N; i++)
        free(beyond[i]);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("paths");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, finds_keys_by_dotted_path_through_dotted_names);
    tcase_add_test(tc, every_listed_path_resolves_to_itself);
    tcase_add_test(tc, sets_a_number_in_si_units_with_the_checks_of_typed_text);
    tcase_add_test(tc, an_unknown_key_names_the_nearest_one);
    tcase_add_test(tc, rejects_bad_ranges_and_lists_as_usage_errors);
    tcase_add_test(tc, a_value_that_makes_the_plan_invalid_is_an_invalid_plan);
    tcase_add_test(tc, a_grid_needs_steps_and_a_key_only_once);
    tcase_add_test(tc, a_grid_is_the_cartesian_product_with_the_last_key_fastest);
    tcase_add_test(tc, range_ends_take_the_keys_units);
    tcase_add_test(tc, monte_carlo_points_are_seeded_reproducible_and_in_range);
    tcase_add_test(tc, shards_tile_the_points_exactly);
    tcase_add_test(tc, shards_give_the_same_rows_as_one_process);
    tcase_add_test(tc, shared_stages_give_a_shard_the_same_rows_without_running_them);
    tcase_add_test(tc, a_corrupt_truncated_stale_or_foreign_stage_file_is_refused_whole);
    tcase_add_test(tc, a_task_takes_the_stored_catalog_only_from_the_same_catalog_files);
    tcase_add_test(tc, stage_axes_are_the_keys_a_cached_stage_reads);
    tcase_add_test(tc, stage_axes_varied_fastest_give_the_rows_of_uncached_points);
    tcase_add_test(tc, a_point_has_the_headline_outputs);
    tcase_add_test(tc, an_invalid_combination_is_a_row_with_its_reason);
    suite_add_tcase(s, tc);
    TCase *st = tcase_create("store");
    tcase_add_test(st, storing_rows_again_never_counts_them_twice);
    tcase_add_test(st, a_sweep_lists_reads_in_order_and_goes_with_its_plan);
    tcase_add_test(st, a_version_1_store_upgrades_keeping_its_plans);
    suite_add_tcase(s, st);
    TCase *mem = tcase_create("memory");
    tcase_add_test(mem, a_sweep_task_heap_is_made_resident_in_one_call);
    suite_add_tcase(s, mem);
    return s;
}
