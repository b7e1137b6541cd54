/* tests/test_cost.c — on-prem and cloud cost options: TCO arithmetic,
 * spot pricing, break-even, ordering, monotonicity, error paths. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ctype.h>
#include <jansson.h>

#include "catalog_yaml.h"
#include "evaluate.h"
#include "export.h"
#include "export_summary.h"
#include "trace.h"
#include "yaml_plan.h"
#include "check_main.h"
#include "plan_result.h"
#include "cost.h"
#include "layout.h"
#include "plan.h"
#include "power.h"

/* ------------------------------------------------ hand-written catalog */

static Accelerator hand_acc[2];
static Instance hand_inst[2];
static StorageSystem hand_sto;
static Catalog hand;

static void hand_catalog(void)
{
    memset(hand_acc, 0, sizeof hand_acc);
    strcpy(hand_acc[0].id, "TESTGPU");
    strcpy(hand_acc[0].source, "test accelerator");
    strcpy(hand_acc[0].as_of, "2026-01-01");
    hand_acc[0].gpus_per_node = 8;
    hand_acc[0].scaleup_domain = 8;
    hand_acc[0].node_power_w = 10000;
    hand_acc[0].node_price_usd = 200000;
    hand_acc[0].nics_per_node = 8;
    strcpy(hand_acc[1].id, "OTHERGPU");
    hand_acc[1].gpus_per_node = 4;
    memset(hand_inst, 0, sizeof hand_inst);
    strcpy(hand_inst[0].id, "test.8x");
    strcpy(hand_inst[0].accelerator, "TESTGPU");
    strcpy(hand_inst[0].source, "test price list");
    strcpy(hand_inst[0].price_notes, "discounts assumed");
    strcpy(hand_inst[0].as_of, "2026-11-09");
    hand_inst[0].accel_count = 8;
    hand_inst[0].on_demand_usd_h = 40;
    hand_inst[0].spot_usd_h = 12;
    hand_inst[0].reserved_1y_discount = 0.3;
    hand_inst[0].reserved_3y_discount = 0.5;
    hand_inst[0].spot_interruptions_per_day = 1.0;
    strcpy(hand_inst[1].id, "other.4x");
    strcpy(hand_inst[1].accelerator, "OTHERGPU");
    strcpy(hand_inst[1].as_of, "2026-11-09");
    hand_inst[1].accel_count = 4;
    hand_inst[1].on_demand_usd_h = 8;
    memset(&hand_sto, 0, sizeof hand_sto);
    strcpy(hand_sto.id, "lustre");
    hand_sto.unit_read_bw = 20e9;
    hand_sto.unit_write_bw = 10e9;
    hand_sto.unit_capacity_bytes = 1e15;
    hand_sto.unit_power_w = 2000;
    hand_sto.unit_price_usd = 100000;
    memset(&hand, 0, sizeof hand);
    hand.accelerators = hand_acc;
    hand.n_accelerators = 2;
    hand.instances = hand_inst;
    hand.n_instances = 2;
    hand.storage = &hand_sto;
    hand.n_storage = 1;
    hand.costs.switch_power_w = 1500;
    hand.costs.switch_price_usd = 30000;
    hand.costs.link_price_usd = 1000;
    hand.costs.facility_usd_per_kw = 10000;
    hand.costs.maintenance_frac_per_year = 0.05;
    hand.costs.staff_usd_per_mw_year = 200000;
    hand.costs.gpudirect_read_bw_per_gpu = 1e9;
    strcpy(hand.costs.source, "test costs");
    strcpy(hand.costs.as_of, "2026-06-01");
}

/* ------------------------------------------------------------- helpers */

static PlanResult *new_result(void)
{
    PlanResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    r->cost.cheapest = -1;
    return r;
}

static WorkloadResult *add_training(Plan *p, PlanResult *r, int g)
{
    int i = p->n_workloads++;
    workload_init(&p->workloads[i], WL_TRAINING);
    snprintf(p->workloads[i].name, sizeof p->workloads[i].name, "train%d", i);
    r->n_workloads = p->n_workloads;
    WorkloadResult *wr = &r->workloads[i];
    snprintf(wr->accelerator, sizeof wr->accelerator, "%s", p->accelerator);
    wr->kind = WL_TRAINING;
    wr->ok = true;
    wr->train.gpus = g;
    return wr;
}

static void run_stages(const Plan *p, const Catalog *c, PlanResult *r)
{
    layout_stage(p, c, r);
    power_stage(p, c, r);
    cost_stage(p, c, r);
}

static const CostOption *find_option(const PlanResult *r, const char *name)
{
    for (int i = 0; i < r->cost.n_options; i++)
        if (strcmp(r->cost.options[i].name, name) == 0)
            return &r->cost.options[i];
    return NULL;
}

static void hand_plan(Plan *p)
{
    plan_init(p);
    strcpy(p->accelerator, "TESTGPU");
    p->site.headroom = 0;
    p->site.pue = 1.25;
    p->site.power_price_kwh = 0.10;
    p->horizon_years = 3;
}

/* ---------------------------------------------------------------- tests */

START_TEST(tco_of_a_small_hand_computed_cluster)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    WorkloadResult *wr = add_training(&p, r, 64);
    wr->train.gpu_hours = 10000;
    wr->train.checkpoint_interval_s = 3600;
    run_stages(&p, &hand, r);
    /* Hand computation (cluster and power as in test_power.c):
     *   8 nodes, 1 switch, 64 cables, 4 storage units, IT 89.5 kW,
     *   energy $98,002.50 per year
     * On-prem:
     *   hardware = 8 x 200,000 + 1 x 30,000 + 64 x 1,000 + 4 x 100,000
     *            = 1,600,000 + 30,000 + 64,000 + 400,000 = 2,094,000
     *   facility = 89.5 kW x 10,000 = 895,000;  capex = 2,989,000
     *   opex/yr  = 98,002.5 + 5% x 2,094,000 + 200,000 x 0.0895 MW
     *            = 98,002.5 + 104,700 + 17,900 = 220,602.5
     *   TCO(3 y) = 2,989,000 + 3 x 220,602.5 = 3,650,807.5
     *   utilisation 1 (all 64 GPUs are the training workload's)
     *   $/GPU-h  = 3,650,807.5 / (64 x 3 x 8760) = 3,650,807.5 / 1,681,920
     *   per run  = 10,000 GPU-h x that
     * test.8x (8 GPUs, $40/h) x 8 instances:
     *   on-demand  $5.00/GPU-h, TCO = 5 x 64 x 26,280 = 8,409,600
     *   reserved-1y $3.50, TCO 5,886,720;  reserved-3y $2.50, TCO 4,204,800
     *   spot $1.50; the job spans 8 instances at 1 interruption per
     *     instance-day: 8/day, each losing 1800 s (half the hour between
     *     checkpoints) + 600 s restore: f = 8 x 2400 / 86400 = 2/9
     *     $/GPU-h = 1.5 / (1 - 2/9) = 1.928571...; TCO = that x 64 x 26,280
     *     = 3,243,702.86
     *   break-even (on-demand) = 3,650,807.5 / 8,409,600 = 0.43412...
     * Sorted: spot, on-prem, reserved-3y, reserved-1y, on-demand. */
    const CostOption *op = find_option(r, "on-prem TESTGPU");
    ck_assert_ptr_nonnull(op);
    ck_assert_int_eq(op->kind, COST_ONPREM);
    ck_assert_int_eq(op->gpus, 64);
    ck_assert_double_eq_tol(op->capex_usd, 2989000, 1e-6);
    ck_assert_double_eq_tol(op->opex_usd_per_year, 220602.5, 1e-6);
    ck_assert_double_eq_tol(op->tco_usd, 3650807.5, 1e-6);
    ck_assert_double_eq_tol(r->cost.utilization, 1, 1e-12);
    ck_assert_double_eq_tol(op->usd_per_gpu_hour, 3650807.5 / 1681920.0, 1e-9);
    ck_assert_double_eq_tol(op->usd_per_training_run, 10000 * 3650807.5 / 1681920.0, 1e-6);
    ck_assert_double_eq(op->usd_per_million_tokens, 0);
    ck_assert_str_eq(op->as_of, "2026-01-01");

    const CostOption *od = find_option(r, "test.8x on-demand");
    ck_assert_ptr_nonnull(od);
    ck_assert_int_eq(od->gpus, 64);
    ck_assert_double_eq(od->capex_usd, 0);
    ck_assert_double_eq_tol(od->usd_per_gpu_hour, 5, 1e-12);
    ck_assert_double_eq_tol(od->tco_usd, 8409600, 1e-6);
    ck_assert_double_eq_tol(od->usd_per_training_run, 50000, 1e-6);
    ck_assert_double_eq_tol(od->breakeven_utilization, 3650807.5 / 8409600.0, 1e-12);
    ck_assert_str_eq(od->source, "test price list");
    ck_assert_str_eq(od->as_of, "2026-11-09");
    ck_assert_str_eq(od->provider, "aws");

    const CostOption *r1 = find_option(r, "test.8x reserved-1y");
    const CostOption *r3 = find_option(r, "test.8x reserved-3y");
    ck_assert_ptr_nonnull(r1);
    ck_assert_ptr_nonnull(r3);
    ck_assert_double_eq_tol(r1->tco_usd, 5886720, 1e-6);
    ck_assert_double_eq_tol(r3->tco_usd, 4204800, 1e-6);
    ck_assert_ptr_nonnull(strstr(r3->source, "50 % reserved-3y discount assumed"));

    const CostOption *sp = find_option(r, "test.8x spot");
    ck_assert_ptr_nonnull(sp);
    ck_assert_double_eq_tol(sp->usd_per_gpu_hour, 1.5 / (1 - 2.0 / 9), 1e-12);
    ck_assert_double_eq_tol(sp->tco_usd, 1.5 / (1 - 2.0 / 9) * 64 * 26280, 1e-6);
    ck_assert_double_eq_tol(sp->usd_per_training_run, 10000 * 1.5 / (1 - 2.0 / 9), 1e-6);

    /* the other accelerator was not sized for the workload: no row, only
     * the reason it is left out (never the same count substituted) */
    ck_assert_int_eq(r->cost.n_options, 5);
    ck_assert_int_eq(r->cost.n_excluded, 1);
    ck_assert_str_eq(r->cost.excluded[0].accelerator, "OTHERGPU");
    ck_assert_str_eq(r->cost.excluded[0].why, "train0: not sized on it");
    ck_assert_int_eq(r->cost.cheapest, 0);
    /* the plan's accelerator first (by TCO), then the comparison rows */
    ck_assert_str_eq(r->cost.options[0].name, "test.8x spot");
    ck_assert_str_eq(r->cost.options[1].name, "on-prem TESTGPU");
    ck_assert_str_eq(r->cost.options[2].name, "test.8x reserved-3y");
    ck_assert_str_eq(r->cost.options[3].name, "test.8x reserved-1y");
    ck_assert_str_eq(r->cost.options[4].name, "test.8x on-demand");
    ck_assert_ptr_null(find_option(r, "other.4x on-demand"));
    /* the verdict: spot is allowed (training only) but on-prem is dearer */
    ck_assert_int_eq(r->cost.verdict, COST_VERDICT_BUY);
    ck_assert_str_eq(r->cost.options[r->cost.cloud].name, "test.8x spot");
    free(r);
}
END_TEST

/* The same run on other accelerators is priced at each one's cheapest
 * on-demand $/GPU-hour, or on-prem hardware + power when no cloud sells it. */
START_TEST(alternatives_are_priced_per_run_and_per_year)
{
    hand_catalog();
    hand_acc[1].node_price_usd = 0;
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    WorkloadResult *wr = add_training(&p, r, 64);
    wr->n_alts = 2;
    snprintf(wr->alts[0].accelerator, CAT_ID_LEN, "OTHERGPU");
    wr->alts[0].gpus = 100;
    wr->alts[0].days = 10;
    wr->alts[0].ok = true;
    wr->alts[1].ok = true;
    snprintf(wr->alts[1].accelerator, CAT_ID_LEN, "TESTGPU");
    wr->alts[1].gpus = 64;
    wr->alts[1].days = 5;
    run_stages(&p, &hand, r);
    /* an on-prem plan prices on-prem where the catalog can (TESTGPU), else
     * on-demand (OTHERGPU: $8 / 4 GPUs = $2 per GPU-hour; 100 GPUs × 240 h) */
    ck_assert_double_eq_tol(wr->alts[0].usd, 100 * 240 * 2.0, 1e-6);
    ck_assert_str_eq(wr->alts[0].price_basis, "other.4x on-demand");
    /* TESTGPU: the on-prem TCO per GPU-hour at full use, per GPU (see
     * tco_of_a_small_hand_computed_cluster: the cluster here is the same
     * 64 GPUs, 1 switch, 64 cables, 4 storage units):
     *   hardware $25,000 node share + (30,000 + 64,000 + 400,000) / 64
     *            = 32,718.75;  kW 1.25 + (1.5 + 8) / 64 = 1.3984375
     *   capex 32,718.75 + 10,000 x 1.3984375 = 46,703.125
     *   opex/yr 5% x 32,718.75 + 200,000 x 0.0013984375
     *           + 1.3984375 x 1.25 x 8760 x $0.10 = 3,446.9140625
     *   (46,703.125 + 3 x 3,446.9140625) / 26,280 per GPU-hour
     *   = 3,650,807.5 / (64 x 26,280), the on-prem option's own rate
     *   64 GPUs × 120 h */
    double rate = (46703.125 + 3 * 3446.9140625) / 26280;
    ck_assert_double_eq_tol(rate, 3650807.5 / (64 * 26280.0), 1e-9);
    ck_assert_double_eq_tol(wr->alts[1].usd, 64 * 120 * rate, 1e-6);
    ck_assert_ptr_nonnull(strstr(wr->alts[1].price_basis, "on-prem estimate"));
    free(r);
    /* a cloud plan prices on-demand first */
    p.site.kind = SITE_CLOUD;
    r = new_result();
    wr = add_training(&p, r, 64);
    wr->n_alts = 1;
    snprintf(wr->alts[0].accelerator, CAT_ID_LEN, "TESTGPU");
    wr->alts[0].gpus = 64;
    wr->alts[0].days = 5;
    wr->alts[0].ok = true;
    run_stages(&p, &hand, r);
    ck_assert_double_eq_tol(wr->alts[0].usd, 64 * 120 * 40.0 / 8, 1e-6);
    ck_assert_str_eq(wr->alts[0].price_basis, "test.8x on-demand");
    free(r);
}
END_TEST

/* The run priced beside the sizing (WorkloadResult.alts) and in the bill
 * (CostOption.usd_per_training_run) is one run on one cluster: at full use
 * they must agree.  The alternatives used node price and power only, so
 * frontier-2027's 405B run on its own H100s was $46.5M beside the sizing
 * and $117M in the cost table. */
START_TEST(the_plans_own_accelerator_alternative_costs_what_the_bill_says)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    WorkloadResult *wr = add_training(&p, r, 64);
    wr->train.gpu_hours = 64 * 120;
    wr->n_alts = 1;
    snprintf(wr->alts[0].accelerator, CAT_ID_LEN, "TESTGPU");
    wr->alts[0].gpus = 64;
    wr->alts[0].days = 5;
    wr->alts[0].ok = true;
    run_stages(&p, &hand, r);
    const CostOption *op = find_option(r, "on-prem TESTGPU");
    ck_assert_ptr_nonnull(op);
    ck_assert_double_eq_tol(r->cost.utilization, 1, 1e-12);
    ck_assert_double_eq_tol(wr->alts[0].usd, op->usd_per_training_run, 1e-6);
    free(r);
}
END_TEST

/* site.kind / site.instance / site.pricing name the plan's own option. */
START_TEST(the_plans_own_site_is_the_chosen_option)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    add_training(&p, r, 64);
    run_stages(&p, &hand, r);
    ck_assert_int_ge(r->cost.chosen, 0);
    ck_assert_str_eq(r->cost.options[r->cost.chosen].name, "on-prem TESTGPU");
    free(r);
    p.site.kind = SITE_CLOUD;
    strcpy(p.site.instance, "test.8x");
    p.site.pricing = PRICING_RESERVED_1Y;
    r = new_result();
    add_training(&p, r, 64);
    run_stages(&p, &hand, r);
    ck_assert_int_ge(r->cost.chosen, 0);
    ck_assert_str_eq(r->cost.options[r->cost.chosen].name, "test.8x reserved-1y");
    free(r);
    hand_inst[0].spot_usd_h = 0; /* no spot offer: the plan's option cannot be priced */
    p.site.pricing = PRICING_SPOT;
    r = new_result();
    add_training(&p, r, 64);
    run_stages(&p, &hand, r);
    ck_assert_int_eq(r->cost.chosen, -1);
    ck_assert(has_warning(r, "test.8x spot is not offered for this plan"));
    free(r);
}
END_TEST

START_TEST(whole_instances_and_the_pool_utilisation)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    add_training(&p, r, 60);
    p.tenancy.n_teams = 1;
    team_init(&p.tenancy.teams[0]);
    r->schedule.ran = true;
    r->schedule.recommended_gpus = 36;
    r->schedule.utilization = 0.5;
    run_stages(&p, &hand, r);
    /* 60 + 36 = 96 GPUs = 12 nodes; busy 60 + 36 x 0.5 = 78 of 96 */
    ck_assert_int_eq(r->cluster.gpus, 96);
    ck_assert_double_eq_tol(r->cost.utilization, 78.0 / 96, 1e-12);
    const CostOption *op = find_option(r, "on-prem TESTGPU");
    ck_assert_double_eq_tol(op->usd_per_gpu_hour, op->tco_usd / (96 * 26280 * (78.0 / 96)),
                            1e-9);
    /* the pool's jobs are sized in TESTGPU GPUs: no other accelerator */
    ck_assert_ptr_null(find_option(r, "other.4x on-demand"));
    ck_assert_ptr_nonnull(strstr(r->cost.excluded[0].why, "shared pool"));
    free(r);
}
END_TEST

/* Cloud reservations cannot be cancelled (AWS RI / Savings Plans, Azure
 * reservations, GCP CUDs are billed for the full term), so a term longer
 * than the horizon is not offered at all: startup-h200 (horizon 1 y) showed
 * "p5en reserved-3y" at more than on-demand.  Hand plan, 64 GPUs of test.8x
 * ($40/h, 8 GPUs):
 *   reserved-1y  $3.50/GPU-h x 64 x 8760       = 1,962,240
 *   on-demand    $5.00/GPU-h x 64 x 8760       = 2,803,200
 *   5 years: reserved-3y renewed, the last 2 years prorated:
 *                $2.50 x 64 x 43,800 = 7,008,000 */
START_TEST(a_reservation_longer_than_the_horizon_is_not_offered)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    p.horizon_years = 1;
    PlanResult *r = new_result();
    add_training(&p, r, 64);
    run_stages(&p, &hand, r);
    const CostOption *r1 = find_option(r, "test.8x reserved-1y");
    const CostOption *od = find_option(r, "test.8x on-demand");
    ck_assert_ptr_nonnull(r1);
    ck_assert_ptr_null(find_option(r, "test.8x reserved-3y"));
    ck_assert_ptr_nonnull(od);
    ck_assert_double_eq_tol(r1->tco_usd, 1962240, 1e-6);
    ck_assert_double_eq_tol(od->tco_usd, 2803200, 1e-6);
    bool said = false;
    for (int i = 0; i < r->n_assumptions; i++)
        said |= strstr(r->assumptions[i].text, "no reserved-3y option") != NULL;
    ck_assert(said);
    free(r);
    p.horizon_years = 5;
    r = new_result();
    add_training(&p, r, 64);
    run_stages(&p, &hand, r);
    ck_assert_double_eq_tol(find_option(r, "test.8x reserved-3y")->tco_usd, 7008000, 1e-6);
    free(r);
}
END_TEST

/* One column, one meaning: on-prem $/GPU-h was TCO per GPU-hour *used*
 * while cloud $/GPU-h was the rent per GPU-hour *rented*, so with idle
 * headroom the table said on-prem was dearer per GPU-hour while its TCO was
 * lower (frontier-2027: on-prem $1.57B at $3.55 vs p5 reserved-3y $1.70B at
 * $3.44).  The cloud options rent the same fleet for the horizon, so their
 * $/GPU-h is TCO / GPU-hours used too, and $/GPU-h orders like TCO. */
START_TEST(every_option_prices_a_gpu_hour_used_on_one_basis)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    add_training(&p, r, 60);
    p.tenancy.n_teams = 1;
    team_init(&p.tenancy.teams[0]);
    r->schedule.ran = true;
    r->schedule.recommended_gpus = 36;
    r->schedule.utilization = 0.5;
    run_stages(&p, &hand, r);
    /* busy 60 + 36 x 0.5 = 78 GPUs of 96, over 26,280 h */
    double used = 78.0 * 26280;
    const CostOption *od = find_option(r, "test.8x on-demand");
    ck_assert_ptr_nonnull(od);
    /* on-demand is pay-as-you-go: billed for the GPU-hours used at list */
    ck_assert(od->pay_as_you_go);
    ck_assert_double_eq_tol(od->tco_usd, 5.0 * used, 1e-6);
    ck_assert_double_eq_tol(od->usd_per_gpu_hour, 5, 1e-9);
    ck_assert_double_eq_tol(od->usd_per_gpu_hour_list, 5, 1e-12);
    /* reserved pays the whole fleet 24x7: list $2.50, effective per used */
    const CostOption *r3 = find_option(r, "test.8x reserved-3y");
    ck_assert(!r3->pay_as_you_go);
    ck_assert_double_eq_tol(r3->tco_usd, 2.5 * 96 * 26280, 1e-6);
    ck_assert_double_eq_tol(r3->usd_per_gpu_hour, r3->tco_usd / used, 1e-9);
    ck_assert_double_eq(r3->breakeven_utilization, 0);
    /* break-even: on-prem TCO / (5 x 96 x 26,280); at the plan's own
     * utilisation on-demand costs exactly that fraction of the full fleet */
    const CostOption *op = find_option(r, "on-prem TESTGPU");
    ck_assert_double_eq_tol(od->breakeven_utilization, op->tco_usd / (5.0 * 96 * 26280), 1e-12);
    ck_assert_double_eq_tol(op->usd_per_gpu_hour_list, op->tco_usd / (96 * 26280.0), 1e-9);
    /* same work, same basis: effective $/GPU-h ranks the options like TCO */
    for (int i = 0; i < r->cost.n_options; i++)
        for (int j = 0; j < r->cost.n_options; j++) {
            const CostOption *a = &r->cost.options[i], *b = &r->cost.options[j];
            if (a->gpu_hours_used == b->gpu_hours_used && a->tco_usd < b->tco_usd)
                ck_assert_msg(a->usd_per_gpu_hour < b->usd_per_gpu_hour, "%s vs %s", a->name,
                              b->name);
        }
    free(r);
}
END_TEST

START_TEST(spot_is_withdrawn_when_interruptions_eat_the_job)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    WorkloadResult *wr = add_training(&p, r, 1024);
    /* 128 instances -> 128 interruptions a day, each losing 1800 + 600 s:
     * 3.6 days lost per day */
    wr->train.checkpoint_interval_s = 3600;
    run_stages(&p, &hand, r);
    ck_assert_ptr_null(find_option(r, "test.8x spot"));
    ck_assert_ptr_nonnull(find_option(r, "test.8x on-demand"));
    free(r);
}
END_TEST

START_TEST(inference_cost_per_million_tokens)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    int i = p.n_workloads++;
    workload_init(&p.workloads[i], WL_INFERENCE);
    p.workloads[i].requests_per_s = 10;
    p.workloads[i].output_tokens = 100;
    r->n_workloads = 1;
    strcpy(r->workloads[0].accelerator, "TESTGPU");
    r->workloads[0].kind = WL_INFERENCE;
    r->workloads[0].ok = true;
    r->workloads[0].infer.gpus = 16;
    r->workloads[0].infer.gpu_hours_per_mtok = 4.0;
    run_stages(&p, &hand, r);
    /* on-demand $5/GPU-h x 4 GPU-h per million tokens = $20 */
    ck_assert_double_eq_tol(find_option(r, "test.8x on-demand")->usd_per_million_tokens, 20,
                            1e-9);
    ck_assert_double_eq(find_option(r, "test.8x on-demand")->usd_per_training_run, 0);
    free(r);
}
END_TEST

START_TEST(unknown_site_instance_is_reported)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    p.site.kind = SITE_CLOUD;
    strcpy(p.site.instance, "p9.huge");
    PlanResult *r = new_result();
    add_training(&p, r, 64);
    run_stages(&p, &hand, r);
    ck_assert(has_warning(r, "site.instance 'p9.huge' is not in the catalog"));
    ck_assert_int_gt(r->cost.n_options, 0);
    /* an on-prem site does not look at site.instance */
    Plan q;
    hand_plan(&q);
    strcpy(q.site.instance, "p9.huge");
    PlanResult *s = new_result();
    add_training(&q, s, 64);
    run_stages(&q, &hand, s);
    ck_assert(!has_warning(s, "p9.huge"));
    free(r);
    free(s);
}
END_TEST

START_TEST(no_on_prem_option_without_a_node_price)
{
    hand_catalog();
    hand_acc[0].node_price_usd = 0;
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    add_training(&p, r, 64);
    run_stages(&p, &hand, r);
    ck_assert_ptr_null(find_option(r, "on-prem TESTGPU"));
    ck_assert_double_eq(find_option(r, "test.8x on-demand")->breakeven_utilization, 0);
    free(r);
}
END_TEST

START_TEST(zero_gpus_is_a_valid_empty_result)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    run_stages(&p, &hand, r);
    ck_assert(r->have_cost);
    ck_assert_int_eq(r->cost.n_options, 0);
    ck_assert_int_eq(r->cost.cheapest, -1);
    ck_assert(isfinite(r->cost.utilization));
    free(r);
}
END_TEST

START_TEST(zero_horizon_is_capex_only)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    p.horizon_years = 0;
    PlanResult *r = new_result();
    add_training(&p, r, 64);
    run_stages(&p, &hand, r);
    const CostOption *op = find_option(r, "on-prem TESTGPU");
    ck_assert_double_eq_tol(op->tco_usd, op->capex_usd, 1e-9);
    ck_assert_double_eq(op->usd_per_gpu_hour, 0);
    ck_assert(has_warning(r, "horizon_years is 0"));
    free(r);
}
END_TEST

START_TEST(cheapest_stays_on_the_plans_accelerator)
{
    hand_catalog();
    hand_inst[1].on_demand_usd_h = 1; /* OTHERGPU at $0.25 per GPU-hour */
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    WorkloadResult *wr = add_training(&p, r, 64);
    wr->train.gpu_hours = 64 * 240;
    wr->train.train_days = 10;
    wr->n_alts = 1;
    snprintf(wr->alts[0].accelerator, CAT_ID_LEN, "OTHERGPU");
    wr->alts[0].gpus = 96;
    wr->alts[0].days = 12;
    wr->alts[0].ok = true;
    run_stages(&p, &hand, r);
    /* cheaper per GPU-hour, but it is another accelerator: listed after,
     * with its own sizing (96 GPUs, 12 days), never the plan's count */
    ck_assert_int_eq(r->cost.cheapest, 0);
    ck_assert_str_eq(r->cost.options[0].accelerator, "TESTGPU");
    const CostOption *o = &r->cost.options[r->cost.n_options - 1];
    ck_assert_str_eq(o->name, "other.4x on-demand");
    ck_assert(o->sized);
    ck_assert_int_eq(o->gpus, 96);
    ck_assert_double_eq_tol(o->run_gpu_hours, 96 * 12 * 24.0, 1e-9);
    ck_assert_double_eq_tol(o->tco_usd, 0.25 * 96 * 26280, 1e-6);
    ck_assert_int_eq(r->cost.options[r->cost.alternative].gpus, 96);
    free(r);
    /* the same accelerator that cannot run the workload is never priced */
    hand_plan(&p);
    r = new_result();
    wr = add_training(&p, r, 64);
    wr->n_alts = 1;
    snprintf(wr->alts[0].accelerator, CAT_ID_LEN, "OTHERGPU");
    wr->alts[0].gpus = 96;
    wr->alts[0].ok = false;
    snprintf(wr->alts[0].why, sizeof wr->alts[0].why, "does not fit");
    run_stages(&p, &hand, r);
    ck_assert_ptr_null(find_option(r, "other.4x on-demand"));
    ck_assert_str_eq(r->cost.excluded[0].why, "train0: does not fit");
    ck_assert_int_eq(r->cost.alternative, -1);
    free(r);
}
END_TEST

START_TEST(a_cloud_site_of_another_accelerator_is_listed_once)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    p.site.kind = SITE_CLOUD;
    strcpy(p.site.instance, "other.4x");
    PlanResult *r = new_result();
    add_training(&p, r, 64);
    run_stages(&p, &hand, r);
    ck_assert(has_warning(r, "carries OTHERGPU, not the plan's TESTGPU"));
    /* not sized on OTHERGPU: never priced, as the site or otherwise */
    int n = 0;
    for (int i = 0; i < r->cost.n_options; i++)
        n += strcmp(r->cost.options[i].name, "other.4x on-demand") == 0;
    ck_assert_int_eq(n, 0);
    free(r);
}
END_TEST

/* ------------------------------------------------------ shipped catalog */

static Catalog cat;

static void load_catalog(void)
{
    char dir[1024];
    const char *dd = getenv("GPUPLAN_DATADIR");
    snprintf(dir, sizeof dir, "%s/catalog", dd ? dd : GPUPLAN_SRCDIR "/data");
    Diag d;
    memset(&d, 0, sizeof d);
    memset(&cat, 0, sizeof cat);
    ck_assert_msg(catalog_load(&cat, dir, NULL, &d) == 0, "catalog: %s", d.msg);
}

static void free_catalog(void)
{
    catalog_free(&cat);
}

static void assert_finite_options(const PlanResult *r)
{
    for (int i = 0; i < r->cost.n_options; i++) {
        const CostOption *o = &r->cost.options[i];
        ck_assert_msg(isfinite(o->capex_usd) && isfinite(o->opex_usd_per_year) &&
                          isfinite(o->tco_usd) && isfinite(o->usd_per_gpu_hour) &&
                          isfinite(o->usd_per_training_run) &&
                          isfinite(o->usd_per_million_tokens) &&
                          isfinite(o->breakeven_utilization),
                      "%s has a non-finite figure", o->name);
        ck_assert_msg(o->tco_usd >= 0 && o->usd_per_gpu_hour >= 0, "%s is negative", o->name);
        ck_assert_msg(o->source[0] && o->as_of[0], "%s lacks source or as_of", o->name);
        /* sorted by TCO within each group: the plan's accelerator, then others */
        if (i > 0) {
            const CostOption *q = &r->cost.options[i - 1];
            bool q_own = !strcasecmp(q->accelerator, r->cluster.accelerator);
            bool o_own = !strcasecmp(o->accelerator, r->cluster.accelerator);
            ck_assert(q_own || !o_own);
            if (q_own == o_own)
                ck_assert(q->tco_usd <= o->tco_usd);
        }
    }
    ck_assert(isfinite(r->power.it_kw) && isfinite(r->power.energy_usd_per_year));
}

static void assert_all_finite(const PlanResult *r)
{
    const ClusterResult *k = &r->cluster;
    ck_assert(isfinite(k->scaleout_bw_per_gpu) && isfinite(k->storage_read_Bps) &&
              isfinite(k->storage_write_Bps) && isfinite(k->storage_capacity_bytes));
    ck_assert(k->gpus >= 0 && k->nodes >= 0 && k->racks >= 0 && k->links >= 0);
    for (int i = 0; i < k->n_rack_groups; i++)
        ck_assert(isfinite(k->rack_groups[i].kw));
    const PowerResult *w = &r->power;
    ck_assert(isfinite(w->it_kw) && isfinite(w->facility_kw) && isfinite(w->rack_kw) &&
              isfinite(w->rack_limit_kw) && isfinite(w->energy_mwh_per_year) &&
              isfinite(w->energy_usd_per_year) && isfinite(w->gpu_nodes_kw) &&
              isfinite(w->network_kw) && isfinite(w->storage_kw));
    ck_assert(isfinite(r->cost.utilization));
    assert_finite_options(r);
}

START_TEST(hostile_numbers_never_give_nan_or_inf)
{
    Plan p;
    plan_init(&p);
    p.site.headroom = NAN;
    p.site.pue = INFINITY;
    p.site.power_price_kwh = -1;
    p.site.rack_power_kw = NAN;
    p.network.link_bps = NAN;
    p.network.oversubscription = -3;
    p.horizon_years = NAN;
    p.storage.dataset_bytes = INFINITY;
    p.tenancy.restore_s = NAN;
    PlanResult *r = new_result();
    WorkloadResult *wr = add_training(&p, r, 64);
    wr->train.gpu_hours = NAN;
    wr->train.checkpoint_interval_s = INFINITY;
    wr->train.dataset_read_Bps = NAN;
    wr->train.checkpoint_bytes = -5;
    run_stages(&p, &cat, r);
    assert_all_finite(r);
    ck_assert_int_eq(r->cluster.gpus, 64);

    /* absurd sizes are capped, not overflowed */
    Plan q;
    plan_init(&q);
    q.network.switch_ports = 0;
    PlanResult *s = new_result();
    add_training(&q, s, 2000000000);
    add_training(&q, s, 2000000000);
    run_stages(&q, &cat, s);
    assert_all_finite(s);
    ck_assert(has_warning(s, "beyond what gpuplan models"));
    ck_assert(has_warning(s, "cannot build a fabric"));
    free(r);
    free(s);
}
END_TEST

START_TEST(more_gpus_never_cost_less)
{
    static const int sizes[] = {8, 12, 64, 250, 256, 257, 1000, 2048, 2049, 4096, 9000, 20000};
    enum { N = sizeof sizes / sizeof sizes[0] };
    PlanResult *prev = NULL;
    for (int s = 0; s < N; s++) {
        Plan p;
        plan_init(&p);
        PlanResult *r = new_result();
        WorkloadResult *wr = add_training(&p, r, sizes[s]);
        wr->train.gpu_hours = 1000.0 * sizes[s];
        wr->train.checkpoint_interval_s = 1800;
        run_stages(&p, &cat, r);
        assert_finite_options(r);
        ck_assert_int_gt(r->cost.n_options, 1);
        if (prev) {
            const CostOption *a = &prev->cost.options[prev->cost.cheapest];
            const CostOption *b = &r->cost.options[r->cost.cheapest];
            ck_assert_msg(b->tco_usd >= a->tco_usd, "cheapest: %d GPUs $%.0f < %d GPUs $%.0f",
                          sizes[s], b->tco_usd, sizes[s - 1], a->tco_usd);
            for (int i = 0; i < prev->cost.n_options; i++) {
                const CostOption *o = &prev->cost.options[i];
                const CostOption *q = find_option(r, o->name);
                if (q)
                    ck_assert_msg(q->tco_usd >= o->tco_usd, "%s: %d GPUs $%.0f < %d GPUs $%.0f",
                                  o->name, sizes[s], q->tco_usd, sizes[s - 1], o->tco_usd);
            }
            ck_assert(r->power.it_kw >= prev->power.it_kw);
        }
        free(prev);
        prev = r;
    }
    free(prev);
}
END_TEST

START_TEST(every_instance_of_the_plans_accelerator_has_a_row)
{
    Plan p;
    plan_init(&p);
    PlanResult *r = new_result();
    add_training(&p, r, 512);
    run_stages(&p, &cat, r);
    assert_finite_options(r);
    /* every other accelerator with a cloud price is either priced with its
     * own sizing or listed as excluded with the reason */
    for (size_t i = 0; i < cat.n_instances; i++) {
        if (!(cat.instances[i].on_demand_usd_h > 0) ||
            !strcmp(cat.instances[i].accelerator, "H100-SXM"))
            continue;
        bool found = false;
        for (int j = 0; j < r->cost.n_excluded && !found; j++)
            found = strcmp(r->cost.excluded[j].accelerator, cat.instances[i].accelerator) == 0;
        ck_assert_msg(found, "%s neither sized nor excluded", cat.instances[i].accelerator);
    }
    /* every H100-SXM instance at every pricing the catalog can price */
    for (size_t i = 0; i < cat.n_instances; i++) {
        const Instance *in = &cat.instances[i];
        if (strcmp(in->accelerator, "H100-SXM") != 0)
            continue;
        char name[128];
        snprintf(name, sizeof name, "%s on-demand", in->id);
        ck_assert_msg(find_option(r, name), "missing %s", name);
        if (in->reserved_3y_discount > 0) {
            snprintf(name, sizeof name, "%s reserved-3y", in->id);
            ck_assert_msg(find_option(r, name), "missing %s", name);
        }
    }
    ck_assert_ptr_nonnull(find_option(r, "on-prem H100-SXM"));
    free(r);
}
END_TEST

START_TEST(a_cloud_site_lists_its_instance_first_among_equals)
{
    Plan p;
    plan_init(&p);
    p.site.kind = SITE_CLOUD;
    strcpy(p.site.instance, "p5.48xlarge");
    PlanResult *r = new_result();
    add_training(&p, r, 64);
    run_stages(&p, &cat, r);
    ck_assert_ptr_nonnull(find_option(r, "p5.48xlarge on-demand"));
    ck_assert_msg(strstr(r->power.verdict, "cloud site"), "%s", r->power.verdict);
    for (int i = 0; i < r->n_warnings; i++)
        ck_assert_msg(!strstr(r->warnings[i], "cost:") || strstr(r->warnings[i], "storage not priced") ||
                          strstr(r->warnings[i], "rests on"),
                      "%s", r->warnings[i]);
    free(r);
}
END_TEST

/* A 70B serving plan on H100 NVL (Llama 3 70B BF16 sizes to TP2, the
 * NVLink-bridged pair): one replica needs both GPUs of a bridge, which
 * Azure sells only as Standard_NC80adis_H100_v5 (2 GPUs); two 1-GPU
 * Standard_NC40ads_H100_v5 VMs are cheaper per GPU (6.98 vs 8.82 $/h) but
 * share no NVLink (CATALOG-FACTS §2.4). */
static PlanResult *nvl_serving(Plan *p, int tp, const char *site)
{
    plan_init(p);
    strcpy(p->accelerator, "H100-NVL");
    if (site) {
        p->site.kind = SITE_CLOUD;
        snprintf(p->site.instance, sizeof p->site.instance, "%s", site);
    }
    PlanResult *r = new_result();
    workload_init(&p->workloads[0], WL_INFERENCE);
    strcpy(p->workloads[0].name, "chat70b");
    p->workloads[0].requests_per_s = 10;
    p->workloads[0].output_tokens = 200;
    p->n_workloads = 1;
    r->n_workloads = 1;
    strcpy(r->workloads[0].accelerator, "H100-NVL");
    r->workloads[0].kind = WL_INFERENCE;
    r->workloads[0].ok = true;
    r->workloads[0].infer.tp = tp;
    r->workloads[0].infer.replicas = 4;
    r->workloads[0].infer.gpus = 4 * tp;
    r->workloads[0].infer.gpu_hours_per_mtok = 2.0;
    run_stages(p, &cat, r);
    return r;
}

START_TEST(a_tp2_replica_is_priced_on_the_bridged_pair)
{
    Plan p;
    PlanResult *r = nvl_serving(&p, 2, NULL);
    assert_finite_options(r);
    ck_assert_ptr_null(find_option(r, "Standard_NC40ads_H100_v5 on-demand"));
    ck_assert_ptr_nonnull(find_option(r, "Standard_NC80adis_H100_v5 on-demand"));
    ck_assert_int_ge(r->cost.cheapest, 0);
    ck_assert_str_eq(r->cost.options[r->cost.cheapest].instance, "Standard_NC80adis_H100_v5");
    ck_assert_double_eq_tol(find_option(r, "Standard_NC80adis_H100_v5 on-demand")
                                ->usd_per_gpu_hour_list,
                            17.64 / 2, 1e-9);
    ck_assert(has_assumption(r, "Standard_NC40ads_H100_v5 not offered: 1 GPU cannot hold a tp2 "
                                "replica of chat70b"));
    free(r);
    /* a TP1 replica fits one GPU: the cheaper 1-GPU VM stays */
    r = nvl_serving(&p, 1, NULL);
    ck_assert_ptr_nonnull(find_option(r, "Standard_NC40ads_H100_v5 on-demand"));
    ck_assert_str_eq(r->cost.options[r->cost.cheapest].instance, "Standard_NC40ads_H100_v5");
    ck_assert(!has_assumption(r, "cannot hold"));
    free(r);
    /* the plan's own site too small: not priced, and said why */
    r = nvl_serving(&p, 2, "Standard_NC40ads_H100_v5");
    ck_assert(has_warning(r, "site.instance Standard_NC40ads_H100_v5: 1 GPU cannot hold a tp2"));
    ck_assert_ptr_null(find_option(r, "Standard_NC40ads_H100_v5 on-demand"));
    free(r);
}
END_TEST

/* Training: the TP group the layout keeps on the NVLink bridge binds the
 * same way; a TP group wider than the scale-up domain (priced on the
 * network by the layout) binds nothing. */
START_TEST(a_training_tp_group_on_the_bridge_needs_the_pair)
{
    Plan p;
    plan_init(&p);
    strcpy(p.accelerator, "H100-NVL");
    PlanResult *r = new_result();
    WorkloadResult *wr = add_training(&p, r, 16);
    wr->train.layout.tp = 2;
    wr->train.layout.dp = 8;
    run_stages(&p, &cat, r);
    ck_assert_ptr_null(find_option(r, "Standard_NC40ads_H100_v5 on-demand"));
    ck_assert_ptr_nonnull(find_option(r, "Standard_NC80adis_H100_v5 on-demand"));
    ck_assert(has_assumption(r, "1 GPU cannot hold a 2-GPU tp group of train0"));
    free(r);
    /* a TPU slice is billed per chip: a TP8 group fits the slice's ICI */
    plan_init(&p);
    strcpy(p.accelerator, "TPU-v5p");
    r = new_result();
    wr = add_training(&p, r, 64);
    wr->train.layout.tp = 8;
    wr->train.layout.dp = 8;
    run_stages(&p, &cat, r);
    ck_assert_ptr_nonnull(find_option(r, "tpu-v5p-8 on-demand"));
    ck_assert(!has_assumption(r, "cannot hold"));
    free(r);
}
END_TEST

/* GB200 NVL72: a 4-GPU VM whose NVLink domain is the 72-GPU rack
 * (CoreWeave bills the NVL72 per 4-GPU node, $42.00/h = $10.50/GPU-h,
 * coreweave.com/pricing as transcribed 2026-09-20; Azure ND GB200 v6 is
 * likewise 18 VMs of 4 GPUs per rack).  A training run whose EP group
 * spans the 72 GPUs of one NVLink domain is priced on that instance
 * because its scale-up reaches the rack (scaleup_accels 72), not its 4
 * GPUs; without that reach the 4-GPU VM cannot hold the group. */
/* Costs of a training run of `gpus` on accelerator acc whose layout is
 * tp x ep (expert TP 1) x the rest in DP. */
static PlanResult *priced_layout(const char *acc, int gpus, int tp, int ep)
{
    Plan p;
    plan_init(&p);
    snprintf(p.accelerator, sizeof p.accelerator, "%s", acc);
    PlanResult *r = new_result();
    WorkloadResult *wr = add_training(&p, r, gpus);
    wr->train.layout.tp = tp;
    wr->train.layout.ep = ep;
    wr->train.layout.etp = 1;
    wr->train.layout.dp = gpus / tp;
    run_stages(&p, &cat, r);
    return r;
}

START_TEST(an_nvl72_ep_group_is_priced_on_the_rack_instance)
{
    PlanResult *r = priced_layout("GB200", 576, 1, 72);
    assert_finite_options(r);
    const CostOption *o = find_option(r, "coreweave-gb200-nvl72 on-demand");
    ck_assert_ptr_nonnull(o);
    ck_assert_double_eq_tol(o->usd_per_gpu_hour_list, 42.00 / 4, 1e-9);
    ck_assert(!has_assumption(r, "cannot hold"));
    free(r);

    /* the same VM with no reach beyond its own 4 GPUs is not offered */
    Instance *nvl = NULL;
    for (size_t i = 0; i < cat.n_instances; i++)
        if (!strcmp(cat.instances[i].id, "coreweave-gb200-nvl72"))
            nvl = &cat.instances[i];
    ck_assert_ptr_nonnull(nvl);
    ck_assert_int_eq(nvl->accel_count, 4);
    ck_assert_int_eq(nvl->scaleup_accels, 72);
    nvl->scaleup_accels = 0;
    r = priced_layout("GB200", 576, 1, 72);
    nvl->scaleup_accels = 72;
    ck_assert_ptr_null(find_option(r, "coreweave-gb200-nvl72 on-demand"));
    ck_assert(has_assumption(r, "coreweave-gb200-nvl72 not offered: 4 GPUs cannot hold a 72-GPU "
                                "ep group of train0"));
    free(r);

    /* a B200 EP8 group fits the 8-GPU HGX node: every B200 instance
     * (p6-b200.48xlarge, a4-highgpu-8g, coreweave-hgx-b200) is offered */
    r = priced_layout("B200", 64, 1, 8);
    ck_assert_ptr_nonnull(find_option(r, "p6-b200.48xlarge on-demand"));
    ck_assert_ptr_nonnull(find_option(r, "a4-highgpu-8g on-demand"));
    ck_assert_ptr_nonnull(find_option(r, "coreweave-hgx-b200 on-demand"));
    ck_assert(!has_assumption(r, "cannot hold"));
    free(r);
    /* B300 (HGX, 8 per node) on p6-b300.48xlarge: $142.416 / 8 per GPU-h */
    r = priced_layout("B300", 64, 8, 1);
    o = find_option(r, "p6-b300.48xlarge on-demand");
    ck_assert_ptr_nonnull(o);
    ck_assert_double_eq_tol(o->usd_per_gpu_hour_list, 142.416 / 8, 1e-9);
    free(r);
}
END_TEST

static bool on_prem_beats(const CostResult *c)
{
    return c->options[c->onprem].tco_usd <= c->options[c->ondemand].tco_usd;
}

/* ------------------------------------------------ the demo plans, audited */

static const char *const demo_plans[] = {"frontier-2027", "moe-gb200", "research-a100",
                                         "startup-h200", "tiresias-replay"};

/* Load demo plan `name` (its trace lent into *t), or fail the test. */
static void load_demo(const char *name, Plan *p, Trace *t)
{
    char path[1024];
    const char *dd = getenv("GPUPLAN_DATADIR");
    snprintf(path, sizeof path, "%s/examples/%s.yaml", dd ? dd : GPUPLAN_SRCDIR "/data", name);
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_msg(plan_load_file(path, &cat, p, &d) == 0, "%s: %s", path, d.msg);
    memset(t, 0, sizeof *t);
    ck_assert_msg(trace_attach(p, path, t, &d) == 0, "%s: %s", path, d.msg);
}

static double jnum(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_number(v), "key %s is not a number", key);
    return json_number_value(v);
}

static bool close_to(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* A finance reviewer's recomputation: every cost column of `eval --json`
 * from the other columns and the stated basis (cost.bases), on every demo
 * plan.  Cloud TCO = list $/GPU-h x GPU-hours billed; effective = TCO /
 * GPU-hours used; per run and per million tokens = their GPU-hours x
 * effective; break-even = on-prem TCO / (effective x on-prem GPUs x
 * horizon hours), pay-as-you-go only; on-prem TCO = capex - residual +
 * opex x years = the sum of its cash flow; the verdict's margin from the
 * two TCOs it names. */
START_TEST(a_finance_reviewer_recomputes_every_column_from_eval_json)
{
    const char *name = demo_plans[_i];
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    ck_assert(p && r);
    Trace t;
    load_demo(name, p, &t);
    ck_assert_int_eq(plan_evaluate(p, &cat, r), 0);
    char *text = export_json(p, r, 0);
    ck_assert_ptr_nonnull(text);
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    ck_assert_msg(root, "%s: %s", name, err.text);
    const json_t *cost = json_object_get(root, "cost");
    const json_t *opts = json_object_get(cost, "options");
    const json_t *bases = json_object_get(cost, "bases");
    ck_assert(json_is_object(bases) && json_object_size(bases) == 6);
    double years = jnum(root, "horizon_years"), hours = years * 8760;
    const json_t *verdict = json_object_get(cost, "verdict");
    double onprem_tco = 0, onprem_gpus = 0;
    size_t i;
    const json_t *o;
    json_array_foreach(opts, i, o)
    {
        if (!strcmp(json_string_value(json_object_get(o, "kind")), "on-prem") &&
            !strstr(json_string_value(json_object_get(o, "name")), "leased")) {
            onprem_tco = jnum(o, "tco_usd");
            onprem_gpus = jnum(o, "gpus");
        }
    }
    json_array_foreach(opts, i, o)
    {
        const char *on = json_string_value(json_object_get(o, "name"));
        double tco = jnum(o, "tco_usd"), used = jnum(o, "gpu_hours_used");
        double billed = jnum(o, "gpu_hours_billed"), list = jnum(o, "usd_per_gpu_hour_list");
        double eff = jnum(o, "usd_per_gpu_hour");
        bool cloud = !strcmp(json_string_value(json_object_get(o, "kind")), "cloud");
        ck_assert_msg(tco > 0 && used > 0 && billed > 0, "%s %s: empty", name, on);
        ck_assert_msg(close_to(eff, tco / used, 1e-9), "%s %s: effective %g != %g", name, on,
                      eff, tco / used);
        ck_assert_msg(close_to(list, tco / billed, 1e-9), "%s %s: list %g != TCO/billed %g", name,
                      on, list, tco / billed);
        if (cloud) {
            ck_assert_msg(close_to(jnum(o, "capex_usd"), 0, 1e-12), "%s %s capex", name, on);
            ck_assert_msg(close_to(jnum(o, "opex_usd_per_year") * years, tco, 1e-9), "%s %s", name,
                          on);
        } else {
            ck_assert_msg(close_to(jnum(o, "capex_usd") - jnum(o, "residual_usd") +
                                       jnum(o, "opex_usd_per_year") * years,
                                   tco, 1e-9),
                          "%s %s: on-prem TCO", name, on);
        }
        ck_assert_msg(close_to(jnum(o, "usd_per_training_run"), jnum(o, "run_gpu_hours") * eff,
                               1e-9),
                      "%s %s: per run", name, on);
        ck_assert_msg(close_to(jnum(o, "usd_per_million_tokens"),
                               jnum(o, "gpu_hours_per_million_tokens") * eff, 1e-9),
                      "%s %s: per Mtok", name, on);
        double mt = jnum(o, "usd_per_million_tokens"), mlo = jnum(o, "usd_per_million_tokens_low"),
               mhi = jnum(o, "usd_per_million_tokens_high");
        if (mlo > 0 || mhi > 0)
            ck_assert_msg(mlo <= mt * (1 + 1e-12) && mt <= mhi * (1 + 1e-12),
                          "%s %s: band %g %g %g", name, on, mlo, mt, mhi);
        double be = jnum(o, "breakeven_utilization");
        bool payg = json_is_true(json_object_get(o, "pay_as_you_go"));
        bool sized = json_is_true(json_object_get(o, "sized_alternative"));
        if (payg && !sized && onprem_tco > 0)
            ck_assert_msg(close_to(be, onprem_tco / (eff * onprem_gpus * hours), 1e-9),
                          "%s %s: break-even %g", name, on, be);
        else
            ck_assert_msg(be == 0, "%s %s: break-even %g on a committed option", name, on, be);
        /* a pay-as-you-go option at the plan's own utilisation costs what the
         * break-even says: cheaper than on-prem exactly when u < break-even */
        if (payg && !sized && onprem_tco > 0 && be > 0)
            ck_assert_msg((tco < onprem_tco) == (jnum(cost, "utilization") < be) ||
                              close_to(tco, onprem_tco, 1e-9),
                          "%s %s: TCO and break-even disagree", name, on);
    }
    /* the cash flow sums to the TCO it stands for */
    const json_t *cf;
    json_array_foreach(json_object_get(cost, "cash_flow"), i, cf)
    {
        const char *on = json_string_value(json_object_get(cf, "option"));
        double sum = 0;
        size_t y;
        const json_t *row;
        json_array_foreach(json_object_get(cf, "years"), y, row)
            sum += jnum(row, "capex_usd") + jnum(row, "opex_usd") + jnum(row, "energy_usd") +
                   jnum(row, "rent_usd") + jnum(row, "residual_usd");
        const json_t *x;
        size_t k;
        json_array_foreach(opts, k, x)
            if (!strcmp(json_string_value(json_object_get(x, "name")), on))
                ck_assert_msg(close_to(sum, jnum(x, "tco_usd"), 1e-9), "%s %s: cash %g != TCO %g",
                              name, on, sum, jnum(x, "tco_usd"));
    }
    /* the margin the verdict cites, from the two TCOs it names */
    const json_t *von = json_object_get(verdict, "onprem"), *vcl = json_object_get(verdict, "cloud");
    if (json_is_string(von) && json_is_string(vcl)) {
        double a = 0, b = 0;
        json_array_foreach(opts, i, o)
        {
            const char *on = json_string_value(json_object_get(o, "name"));
            if (!strcmp(on, json_string_value(von)))
                a = jnum(o, "tco_usd");
            if (!strcmp(on, json_string_value(vcl)))
                b = jnum(o, "tco_usd");
        }
        ck_assert(close_to(jnum(verdict, "margin_pct"), fabs(a - b) / fmax(a, b) * 100, 1e-9));
    }
    json_decref(root);
    free(text);
    trace_free(&t);
    free(p);
    free(r);
}
END_TEST

/* Parse "N %" numbers and "$X" amounts from the verdict sentence. */
static int sentence_percents(const char *s, double *out, int max)
{
    int n = 0;
    for (const char *c = s; *c && n < max; c++) {
        if (!isdigit((unsigned char)*c) || (c > s && (isalnum((unsigned char)c[-1]) ||
                                                      c[-1] == '.' || c[-1] == '-' || c[-1] == '$')))
            continue;
        char *end;
        double v = strtod(c, &end);
        if (strncmp(end, " %", 2) == 0)
            out[n++] = v;
        c = end - 1;
    }
    return n;
}

/* Every demo plan on every catalog accelerator: the verdict sentence says
 * only what the numbers beside it say.  No negative or > 100 % margin, the
 * margin it cites is the margin of the two options it names, the
 * break-even and utilisation it cites are the on-demand option's and the
 * plan's, the options it names are priced (never an accelerator whose own
 * sizing failed), spot is never the verdict where it is not allowed, and an
 * unpriced on-prem plan never headlines a cloud price as its cost. */
/* Another accelerator's sizing carries its unit too (size_alternatives):
 * H100 NVL sized at TP2 for a plan on H100-SXM is priced on the bridged
 * pair, at TP1 on the 1-GPU VM. */
START_TEST(another_accelerators_unit_picks_its_instance)
{
    for (int unit = 1; unit <= 2; unit++) {
        Plan p;
        plan_init(&p);
        strcpy(p.accelerator, "H100-SXM");
        PlanResult *r = new_result();
        workload_init(&p.workloads[0], WL_INFERENCE);
        strcpy(p.workloads[0].name, "chat70b");
        p.workloads[0].requests_per_s = 10;
        p.workloads[0].output_tokens = 200;
        p.n_workloads = r->n_workloads = 1;
        WorkloadResult *wr = &r->workloads[0];
        strcpy(wr->accelerator, "H100-SXM");
        wr->kind = WL_INFERENCE;
        wr->ok = true;
        wr->infer.tp = 4;
        wr->infer.gpus = 8;
        wr->infer.gpu_hours_per_mtok = 2.0;
        wr->n_alts = 1;
        snprintf(wr->alts[0].accelerator, CAT_ID_LEN, "H100-NVL");
        wr->alts[0].ok = true;
        wr->alts[0].gpus = 8;
        wr->alts[0].scaleup_gpus = unit;
        run_stages(&p, &cat, r);
        const char *fit = unit == 2 ? "Standard_NC80adis_H100_v5 on-demand"
                                    : "Standard_NC40ads_H100_v5 on-demand";
        const char *not = unit == 2 ? "Standard_NC40ads_H100_v5 on-demand"
                                    : "Standard_NC80adis_H100_v5 on-demand";
        ck_assert_msg(find_option(r, fit), "unit %d: %s missing", unit, fit);
        ck_assert_msg(!find_option(r, not), "unit %d: %s priced", unit, not);
        ck_assert(strstr(wr->alts[0].price_basis, unit == 2 ? "NC80adis" : "NC40ads"));
        free(r);
    }
    /* the sizing stage fills it: startup-h200's serve-70b is pinned to TP4 */
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    ck_assert(p && r);
    Trace t;
    load_demo("startup-h200", p, &t);
    ck_assert_int_eq(plan_evaluate(p, &cat, r), 0);
    int seen = 0;
    for (int i = 0; i < r->n_workloads; i++) {
        if (strcmp(p->workloads[i].name, "serve-70b") != 0)
            continue;
        for (int k = 0; k < r->workloads[i].n_alts; k++)
            if (r->workloads[i].alts[k].ok) {
                ck_assert_int_eq(r->workloads[i].alts[k].scaleup_gpus, 4);
                seen++;
            }
    }
    ck_assert_int_gt(seen, 0);
    trace_free(&t);
    free(p);
    free(r);
}
END_TEST

/* The Sizing pane's ranking ("the same workload on every accelerator") and
 * the cost comparison built on it size every listed accelerator of the
 * shipped catalog and none marked unlisted (Meta's Grand Teton H100, in the
 * catalog for the torchtitan runs).  It once stopped at 20 of 24 without a
 * word: TPU v6e and Trainium went unsized.  A catalog larger than the
 * ranking holds is sized as far as it fits and says how many were left. */
START_TEST(the_ranking_sizes_every_listed_accelerator)
{
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    ck_assert(p && r);
    Trace t;
    load_demo("startup-h200", p, &t);
    ck_assert_int_eq(plan_evaluate(p, &cat, r), 0);
    int listed = 0;
    for (size_t a = 0; a < cat.n_accelerators; a++)
        listed += !cat.accelerators[a].unlisted;
    ck_assert_int_lt(listed, (int)cat.n_accelerators); /* the shipped catalog has one */
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *wr = &r->workloads[i];
        ck_assert_int_eq(wr->n_alts, listed);
        for (int k = 0; k < wr->n_alts; k++) {
            const Accelerator *a = catalog_find_accelerator(&cat, wr->alts[k].accelerator);
            ck_assert_ptr_nonnull(a);
            ck_assert_msg(!a->unlisted, "%s ranked", a->id);
        }
    }
    for (int k = 0; k < r->n_warnings; k++)
        ck_assert_msg(!strstr(r->warnings[k], "not sized"), "%s", r->warnings[k]);

    /* a catalog of PLAN_MAX_ALTS + 5 listed parts: the ranking is full and
     * the 5 left over are named as a count in a warning */
    Catalog big = cat;
    int n = PLAN_MAX_ALTS + 5;
    big.accelerators = calloc((size_t)n, sizeof *big.accelerators);
    ck_assert_ptr_nonnull(big.accelerators);
    big.n_accelerators = (size_t)n;
    const Accelerator *h200 = catalog_find_accelerator(&cat, "H200");
    ck_assert_ptr_nonnull(h200);
    for (int k = 0; k < n; k++) {
        big.accelerators[k] = *h200;
        if (k > 0)
            snprintf(big.accelerators[k].id, sizeof big.accelerators[k].id, "H200-copy-%d", k);
    }
    ck_assert_int_eq(plan_evaluate(p, &big, r), 0);
    ck_assert_int_eq(r->workloads[0].n_alts, PLAN_MAX_ALTS);
    bool said = false;
    for (int k = 0; k < r->n_warnings; k++)
        said |= strstr(r->warnings[k], "5 catalog accelerators beyond the first") != NULL;
    ck_assert_msg(said, "no warning for the 5 unsized accelerators");
    free(big.accelerators);
    trace_free(&t);
    free(p);
    free(r);
}
END_TEST

START_TEST(the_verdict_cites_the_numbers_beside_it_on_every_plan_and_accelerator)
{
    const char *name = demo_plans[_i];
    Plan *base = malloc(sizeof *base), *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    ck_assert(base && p && r);
    Trace t;
    load_demo(name, base, &t);
    for (size_t a = 0; a < cat.n_accelerators; a++) {
        *p = *base;
        snprintf(p->accelerator, sizeof p->accelerator, "%s", cat.accelerators[a].id);
        for (int w = 0; w < p->n_workloads; w++)
            p->workloads[w].accelerator[0] = '\0';
        ck_assert_int_eq(plan_evaluate(p, &cat, r), 0);
        const CostResult *c = &r->cost;
        char v[1024];
        summary_verdict(p, r, v, sizeof v);
        const char *acc = cat.accelerators[a].id;
        for (const char *m = strchr(v, '-'); m; m = strchr(m + 1, '-'))
            ck_assert_msg(!(m[1] == '$' || isdigit((unsigned char)m[1])) || (m > v && isalnum((unsigned char)m[-1])),
                          "%s on %s: a negative number in '%s'", name, acc, v);
        double pct[8];
        int np = sentence_percents(v, pct, 8);
        for (int k = 0; k < np; k++)
            ck_assert_msg(pct[k] >= 0 && pct[k] <= 100, "%s on %s: %g %% in '%s'", name, acc,
                          pct[k], v);
        if (c->verdict == COST_VERDICT_BUILD || c->verdict == COST_VERDICT_BUY) {
            ck_assert(c->onprem >= 0);
            if (c->cloud >= 0) {
                ck_assert_msg(np >= 1, "%s on %s: '%s'", name, acc, v);
                ck_assert_msg(fabs(pct[0] - c->margin_pct) <= 0.5, "%s on %s: cites %g %%, margin "
                                                                  "%g",
                              name, acc, pct[0], c->margin_pct);
                const CostOption *on = &c->options[c->onprem], *cl = &c->options[c->cloud];
                ck_assert_msg((c->verdict == COST_VERDICT_BUILD) == (on->tco_usd <= cl->tco_usd),
                              "%s on %s: verdict against its TCOs", name, acc);
                ck_assert_msg(strstr(v, on->name) && strstr(v, cl->name), "%s on %s: '%s'", name,
                              acc, v);
                ck_assert_msg(c->spot_allowed || cl->pricing != PRICING_SPOT, "%s on %s: spot",
                              name, acc);
            }
            if (c->ondemand >= 0 && c->options[c->ondemand].breakeven_utilization > 0 &&
                c->options[c->ondemand].breakeven_utilization < 1) {
                ck_assert_msg(np >= 3, "%s on %s: '%s'", name, acc, v);
                ck_assert(fabs(pct[1] - c->options[c->ondemand].breakeven_utilization * 100) <= 0.5);
                ck_assert(fabs(pct[2] - c->utilization * 100) <= 0.5);
                /* the sentence and the numbers agree: planned use above the
                 * break-even means on-prem beats on-demand */
                ck_assert((c->utilization >= c->options[c->ondemand].breakeven_utilization) ==
                          (on_prem_beats(c)));
            }
        }
        if (c->verdict == COST_VERDICT_UNPRICED)
            ck_assert_msg(strstr(v, "not priced") && !strstr(v, "spot"), "%s on %s: '%s'", name,
                          acc, v);
        /* nothing named in the sentence is an option that cannot run the plan */
        for (int e = 0; e < c->n_excluded; e++)
            for (int k = 0; k < c->n_options; k++)
                ck_assert_msg(strcasecmp(c->options[k].accelerator, c->excluded[e].accelerator),
                              "%s on %s: excluded %s is priced", name, acc,
                              c->excluded[e].accelerator);
        /* a cloud-only accelerator has no on-prem option */
        if (!(cat.accelerators[a].node_power_w > 0))
            ck_assert_int_eq(c->onprem, -1);
        /* one row per price: no two options of one accelerator and pricing
         * with the same list $/GPU-hour and provider */
        for (int x = 0; x < c->n_options; x++)
            for (int y = x + 1; y < c->n_options; y++) {
                const CostOption *ox = &c->options[x], *oy = &c->options[y];
                ck_assert_msg(!(ox->kind == COST_CLOUD && oy->kind == COST_CLOUD &&
                                !strcmp(ox->provider, oy->provider) &&
                                !strcmp(ox->accelerator, oy->accelerator) &&
                                ox->pricing == oy->pricing &&
                                ox->usd_per_gpu_hour_list == oy->usd_per_gpu_hour_list),
                              "%s on %s: %s duplicates %s", name, acc, oy->name, ox->name);
            }
    }
    trace_free(&t);
    free(base);
    free(p);
    free(r);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("cost");
    TCase *t = tcase_create("hand");
    tcase_add_test(t, tco_of_a_small_hand_computed_cluster);
    tcase_add_test(t, a_reservation_longer_than_the_horizon_is_not_offered);
    tcase_add_test(t, every_option_prices_a_gpu_hour_used_on_one_basis);
    tcase_add_test(t, alternatives_are_priced_per_run_and_per_year);
    tcase_add_test(t, the_plans_own_accelerator_alternative_costs_what_the_bill_says);
    tcase_add_test(t, the_plans_own_site_is_the_chosen_option);
    tcase_add_test(t, whole_instances_and_the_pool_utilisation);
    tcase_add_test(t, spot_is_withdrawn_when_interruptions_eat_the_job);
    tcase_add_test(t, inference_cost_per_million_tokens);
    tcase_add_test(t, unknown_site_instance_is_reported);
    tcase_add_test(t, no_on_prem_option_without_a_node_price);
    tcase_add_test(t, zero_gpus_is_a_valid_empty_result);
    tcase_add_test(t, zero_horizon_is_capex_only);
    tcase_add_test(t, cheapest_stays_on_the_plans_accelerator);
    tcase_add_test(t, a_cloud_site_of_another_accelerator_is_listed_once);
    suite_add_tcase(s, t);
    TCase *c = tcase_create("catalog");
    tcase_set_timeout(c, 600);
    tcase_add_unchecked_fixture(c, load_catalog, free_catalog);
    tcase_add_test(c, more_gpus_never_cost_less);
    tcase_add_test(c, hostile_numbers_never_give_nan_or_inf);
    tcase_add_test(c, every_instance_of_the_plans_accelerator_has_a_row);
    tcase_add_loop_test(c, a_finance_reviewer_recomputes_every_column_from_eval_json, 0, 5);
    tcase_add_loop_test(c, the_verdict_cites_the_numbers_beside_it_on_every_plan_and_accelerator, 0,
                        5);
    tcase_add_test(c, a_cloud_site_lists_its_instance_first_among_equals);
    tcase_add_test(c, a_tp2_replica_is_priced_on_the_bridged_pair);
    tcase_add_test(c, a_training_tp_group_on_the_bridge_needs_the_pair);
    tcase_add_test(c, an_nvl72_ep_group_is_priced_on_the_rack_instance);
    tcase_add_test(c, another_accelerators_unit_picks_its_instance);
    tcase_add_test(c, the_ranking_sizes_every_listed_accelerator);
    suite_add_tcase(s, c);
    return s;
}
