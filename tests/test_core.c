/* tests/test_core.c — plan defaults, catalog lookups, curves, collective
 * costs, headline comparison (model core). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "headline.h"
#include "net.h"
#include "plan.h"

START_TEST(plan_init_applies_plan_format_defaults)
{
    Plan p;
    plan_init(&p);
    ck_assert_int_eq(p.format, 1);
    ck_assert_str_eq(p.accelerator, "H100-SXM");
    ck_assert_double_eq(p.horizon_years, 3);
    ck_assert_double_eq(p.site.rack_power_kw, 40);
    ck_assert_double_eq_tol(p.site.pue, 1.3, 1e-12);
    ck_assert_double_eq_tol(p.site.headroom, 0.10, 1e-12);
    ck_assert_double_eq(p.network.link_bps, 400e9);
    ck_assert_int_eq(p.network.switch_ports, 64);
    ck_assert_int_eq(p.storage.checkpoints_kept, 5);
    ck_assert_double_eq(p.storage.checkpoint_stall_s, 60);
    ck_assert_int_eq(p.tenancy.policy, POLICY_FAIR_SHARE);
    ck_assert(p.tenancy.preemption && p.tenancy.backfill);
    ck_assert_double_eq(p.tenancy.restore_s, 600);
    ck_assert_double_eq(p.tenancy.horizon_s, 30 * 86400.0);
    ck_assert_double_eq(p.tenancy.wait_p95_s, 4 * 3600.0);
    ck_assert_double_eq(p.tenancy.mtbf_gpu_h, 50000);
    ck_assert_int_eq(p.n_workloads, 0);
}
END_TEST

START_TEST(workload_defaults_mean_auto)
{
    Workload w;
    workload_init(&w, WL_TRAINING);
    ck_assert_int_eq(w.parallel.tp, 0);
    ck_assert_int_eq(w.parallel.sp, -1);
    ck_assert_int_eq(w.recompute, RECOMPUTE_AUTO);
    ck_assert_int_eq(w.micro_batch, 0);
    ck_assert(w.model.glu);
    ck_assert_int_eq(w.model.experts, 1);
    ck_assert_double_eq(w.optimizer_bytes_per_param, 16);
    ck_assert_int_eq(w.zero, -1); /* auto: the framework's dp_sharding */
    Plan p;
    plan_init(&p);
    ck_assert_str_eq(workload_accelerator(&p, &w), "H100-SXM");
    strcpy(w.accelerator, "B200");
    ck_assert_str_eq(workload_accelerator(&p, &w), "B200");
}
END_TEST

START_TEST(precision_bytes_and_names)
{
    ck_assert_double_eq(precision_bytes(PREC_FP32), 4);
    ck_assert_double_eq(precision_bytes(PREC_BF16), 2);
    ck_assert_double_eq(precision_bytes(PREC_FP8), 1);
    ck_assert_double_eq(precision_bytes(PREC_FP4), 0.5);
    ck_assert_str_eq(precision_name(PREC_FP16), "fp16");
    ck_assert_ptr_null(precision_name(PREC_COUNT));
}
END_TEST

START_TEST(curve_interpolates_and_clamps)
{
    Curve c = {.n = 3, .x = {100, 1000, 10000}, .y = {0.2, 0.6, 0.8}};
    ck_assert_double_eq_tol(curve_eval(&c, 10), 0.2, 1e-12);
    ck_assert_double_eq_tol(curve_eval(&c, 550), 0.4, 1e-12);
    ck_assert_double_eq_tol(curve_eval(&c, 5500), 0.7, 1e-12);
    ck_assert_double_eq_tol(curve_eval(&c, 1e9), 0.8, 1e-12);
    Curve empty = {0};
    ck_assert_double_eq(curve_eval(&empty, 5), 1.0);
}
END_TEST

START_TEST(catalog_lookups_ignore_case)
{
    Accelerator acc[2] = {{.id = "H100-SXM"}, {.id = "A100-80GB"}};
    acc[0].n_mig = 1;
    strcpy(acc[0].mig[0].name, "3g.40gb");
    acc[0].mig[0].count = 2;
    Instance ins[1] = {{.id = "p5.48xlarge"}};
    Catalog c = {.accelerators = acc, .n_accelerators = 2, .instances = ins, .n_instances = 1};
    ck_assert_ptr_eq(catalog_find_accelerator(&c, "h100-sxm"), &acc[0]);
    ck_assert_ptr_eq(catalog_find_accelerator(&c, "A100-80GB"), &acc[1]);
    ck_assert_ptr_null(catalog_find_accelerator(&c, "H300"));
    ck_assert_ptr_eq(catalog_find_instance(&c, "P5.48XLARGE"), &ins[0]);
    ck_assert_ptr_null(catalog_find_storage(&c, "lustre"));
    ck_assert_int_eq(accelerator_find_mig(&acc[0], "3G.40GB")->count, 2);
    ck_assert_ptr_null(accelerator_find_mig(&acc[1], "3g.40gb"));
}
END_TEST

/* Ring all-reduce: 2(n-1)/n · S / bw (nccl-tests busbw definition). */
START_TEST(ring_collectives_follow_the_nccl_formulas)
{
    ck_assert_double_eq_tol(net_allreduce_s(1e9, 8, 1e11, 0), 2.0 * 7 / 8 * 1e9 / 1e11, 1e-15);
    ck_assert_double_eq_tol(net_allreduce_s(1e9, 8, 1e11, 1e-6), 0.0175 + 14e-6, 1e-12);
    ck_assert_double_eq_tol(net_allgather_s(1e9, 4, 1e11, 0), 0.75e-2, 1e-15);
    ck_assert_double_eq(net_allreduce_s(1e9, 1, 1e11, 1e-6), 0);
    ck_assert_double_eq(net_allreduce_s(1e9, 8, 0, 1e-6), 0);
    ck_assert_double_eq_tol(net_p2p_s(1e6, 1e9, 1e-6), 1e-3 + 1e-6, 1e-15);
}
END_TEST

/* 400 Gb/s NDR → 46–48 GB/s busbw per NIC (nccl-tests #290). */
START_TEST(scaleout_bandwidth_matches_measured_ndr_busbw)
{
    Plan p;
    plan_init(&p);
    Accelerator a = {.id = "H100-SXM"};
    double bw = net_scaleout_bw(&p, &a, false);
    ck_assert(bw >= 46e9 && bw <= 48e9);
    p.network.oversubscription = 2;
    ck_assert_double_eq_tol(net_scaleout_bw(&p, &a, true), bw / 2, 1);
    ck_assert_double_eq_tol(net_scaleout_bw(&p, &a, false), bw, 1);
}
END_TEST

START_TEST(result_helpers_append_and_stop_when_full)
{
    PlanResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    result_warn(r, "warning %d", 0);
    result_assume(r, "cost", "PUE %.1f", 1.3);
    ck_assert_str_eq(r->assumptions[0].scope, "cost");
    ck_assert_str_eq(r->assumptions[0].text, "PUE 1.3");
    /* nothing dropped: nothing replaced */
    result_note_dropped(r);
    ck_assert_int_eq(r->n_warnings, 1);
    ck_assert_str_eq(r->warnings[0], "warning 0");
    ck_assert_int_eq(r->n_assumptions, 1);
    ck_assert_str_eq(r->assumptions[0].text, "PUE 1.3");
    /* full: counted, and the last entry says how many were not kept,
     * counting the one it replaces */
    for (int i = 1; i < PLAN_MAX_WARNINGS + 5; i++)
        result_warn(r, "warning %d", i);
    ck_assert_int_eq(r->n_warnings, PLAN_MAX_WARNINGS);
    ck_assert_str_eq(r->warnings[3], "warning 3");
    ck_assert_int_eq(r->warnings_dropped, 5);
    for (int i = 1; i < PLAN_MAX_ASSUMPTIONS + 2; i++)
        result_assume(r, "w", "assumption %d", i);
    ck_assert_int_eq(r->n_assumptions, PLAN_MAX_ASSUMPTIONS);
    ck_assert_int_eq(r->assumptions_dropped, 2);
    result_note_dropped(r);
    char want[PLAN_TEXT_LEN];
    snprintf(want, sizeof want, "6 further warnings were not kept (a result holds at most %d)",
             PLAN_MAX_WARNINGS - 1);
    ck_assert_str_eq(r->warnings[PLAN_MAX_WARNINGS - 1], want);
    snprintf(want, sizeof want, "warning %d", PLAN_MAX_WARNINGS - 2);
    ck_assert_str_eq(r->warnings[PLAN_MAX_WARNINGS - 2], want);
    snprintf(want, sizeof want,
             "3 further assumptions were not kept (a result holds at most %d)",
             PLAN_MAX_ASSUMPTIONS - 1);
    ck_assert_str_eq(r->assumptions[PLAN_MAX_ASSUMPTIONS - 1].scope, "plan");
    ck_assert_str_eq(r->assumptions[PLAN_MAX_ASSUMPTIONS - 1].text, want);
    free(r);
}
END_TEST

/* A text longer than its buffer is cut at its last space, else (one long
 * word) at the start of a character — never inside a multi-byte one, which
 * JSON and the terminal reject — and ends in "…" (text_fit, which the
 * result helpers and the cost stage use). */
START_TEST(result_texts_that_do_not_fit_end_in_an_ellipsis_on_a_character)
{
    PlanResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    char longer[2 * PLAN_ASSUME_LEN] = "";
    for (int shift = 0; shift < 3; shift++) {
        /* one long word: "×" is 2 bytes, and shifting by a byte moves the
         * cut through it */
        memset(longer, 'a', (size_t)shift);
        longer[shift] = '\0';
        while (strlen(longer) + 2 < sizeof longer)
            strcat(longer, "×");
        r->n_assumptions = 0;
        result_assume(r, "w", "%s", longer);
        const char *t = r->assumptions[0].text;
        size_t n = strlen(t);
        ck_assert_uint_le(n, PLAN_ASSUME_LEN - 1);
        ck_assert_uint_ge(n, PLAN_ASSUME_LEN - 6);
        ck_assert_str_eq(t + n - 3, "…");
        /* every byte before the ellipsis is the prefix, whole characters */
        ck_assert_int_eq(strncmp(t, longer, n - 3), 0);
        ck_assert_int_ne((unsigned char)longer[n - 3] & 0xC0, 0x80);
    }
    result_warn(r, "%s", longer);
    ck_assert_uint_le(strlen(r->warnings[0]), PLAN_TEXT_LEN - 1);
    ck_assert_str_eq(r->warnings[0] + strlen(r->warnings[0]) - 3, "…");
    /* words: cut after the last whole one */
    char words[64], out[24];
    snprintf(words, sizeof words, "alpha beta gamma delta epsilon");
    text_fit(out, sizeof out, "%s", words);
    ck_assert_str_eq(out, "alpha beta gamma …");
    /* a space far back (more than 64 bytes) is not where it cuts: the
     * last whole character is */
    char far[400] = "far ";
    while (strlen(far) + 2 < sizeof far)
        strcat(far, "×");
    char cut[200];
    text_fit(cut, sizeof cut, "%s", far);
    size_t nc = strlen(cut);
    ck_assert_uint_ge(nc, sizeof cut - 6);
    ck_assert_str_eq(cut + nc - 3, "…");
    ck_assert_int_eq(strncmp(cut, far, nc - 3), 0);
    /* a text that fits is kept as written */
    result_warn(r, "short %s", "×");
    ck_assert_str_eq(r->warnings[1], "short ×");
    text_fit(out, sizeof out, "%s", "short ×");
    ck_assert_str_eq(out, "short ×");
    free(r);
}
END_TEST

START_TEST(headline_compare_pairs_metrics_and_judges_direction)
{
    Headline a[3], b[3];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    strcpy(a[0].section, "cluster");
    strcpy(a[0].metric, "gpus");
    a[0].value = 100;
    a[0].better = BETTER_LOWER;
    strcpy(a[1].section, "workload");
    strcpy(a[1].subject, "x");
    strcpy(a[1].metric, "mfu");
    a[1].value = 0.40;
    a[1].better = BETTER_HIGHER;
    b[0] = a[1];
    b[0].value = 0.30;
    b[1] = a[0];
    b[1].value = 80;
    strcpy(b[2].section, "power");
    strcpy(b[2].metric, "it_kw");
    b[2].value = 5;
    HeadlineDelta d[6];
    int n = headline_compare(a, 2, b, 3, d, 6);
    ck_assert_int_eq(n, 3);
    ck_assert(d[0].in_a && d[0].in_b);
    ck_assert_double_eq_tol(d[0].delta, -20, 1e-12);
    ck_assert_double_eq_tol(d[0].pct, -20, 1e-12);
    ck_assert_int_eq(d[0].verdict, 1); /* fewer GPUs is better */
    ck_assert_int_eq(d[1].verdict, -1); /* lower MFU is worse */
    ck_assert(!d[2].in_a && d[2].in_b);
    ck_assert_str_eq(d[2].h.metric, "it_kw");
}
END_TEST

START_TEST(headline_collect_skips_stages_that_did_not_run)
{
    Plan p;
    plan_init(&p);
    PlanResult *r = calloc(1, sizeof *r);
    Headline h[HEADLINE_MAX];
    ck_assert_int_eq(headline_collect(&p, r, h, HEADLINE_MAX), 0);
    r->have_power = true;
    r->power.it_kw = 12;
    int n = headline_collect(&p, r, h, HEADLINE_MAX);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(h[0].metric, "it_kw");
    ck_assert_double_eq(h[0].value, 12);
    ck_assert_int_eq(headline_collect(&p, r, h, 2), 2);
    free(r);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("core");
    TCase *t = tcase_create("core");
    tcase_add_test(t, plan_init_applies_plan_format_defaults);
    tcase_add_test(t, workload_defaults_mean_auto);
    tcase_add_test(t, precision_bytes_and_names);
    tcase_add_test(t, curve_interpolates_and_clamps);
    tcase_add_test(t, catalog_lookups_ignore_case);
    tcase_add_test(t, ring_collectives_follow_the_nccl_formulas);
    tcase_add_test(t, scaleout_bandwidth_matches_measured_ndr_busbw);
    tcase_add_test(t, result_helpers_append_and_stop_when_full);
    tcase_add_test(t, result_texts_that_do_not_fit_end_in_an_ellipsis_on_a_character);
    tcase_add_test(t, headline_compare_pairs_metrics_and_judges_direction);
    tcase_add_test(t, headline_collect_skips_stages_that_did_not_run);
    suite_add_tcase(s, t);
    return s;
}
