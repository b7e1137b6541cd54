/* tests/test_power.c — the power budget: IT and facility load, the hottest
 * rack, the cooling verdict and the yearly energy. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_yaml.h"
#include "check_main.h"
#include "plan_result.h"
#include "layout.h"
#include "plan.h"
#include "power.h"

/* A hand-written catalog, so the arithmetic below does not move when the
 * shipped catalog's estimates are revised. */
static Accelerator hand_acc;
static StorageSystem hand_sto;
static Catalog hand;

static void hand_catalog(void)
{
    memset(&hand_acc, 0, sizeof hand_acc);
    strcpy(hand_acc.id, "TESTGPU");
    hand_acc.gpus_per_node = 8;
    hand_acc.scaleup_domain = 8;
    hand_acc.node_power_w = 10000;
    hand_acc.node_price_usd = 200000;
    hand_acc.nics_per_node = 8;
    memset(&hand_sto, 0, sizeof hand_sto);
    strcpy(hand_sto.id, "lustre");
    strcpy(hand_sto.unit_name, "test block");
    hand_sto.unit_read_bw = 20e9;
    hand_sto.unit_write_bw = 10e9;
    hand_sto.unit_capacity_bytes = 1e15;
    hand_sto.unit_power_w = 2000;
    hand_sto.unit_price_usd = 100000;
    memset(&hand, 0, sizeof hand);
    hand.accelerators = &hand_acc;
    hand.n_accelerators = 1;
    hand.storage = &hand_sto;
    hand.n_storage = 1;
    hand.costs.switch_power_w = 1500;
    hand.costs.switch_price_usd = 30000;
    hand.costs.link_price_usd = 1000;
    hand.costs.facility_usd_per_kw = 10000;
    hand.costs.maintenance_frac_per_year = 0.05;
    hand.costs.staff_usd_per_mw_year = 200000;
    hand.costs.gpudirect_read_bw_per_gpu = 1e9;
}

static PlanResult *new_result(void)
{
    PlanResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    r->cost.cheapest = -1;
    return r;
}

static void add_training(Plan *p, PlanResult *r, int g)
{
    int i = p->n_workloads++;
    workload_init(&p->workloads[i], WL_TRAINING);
    snprintf(p->workloads[i].name, sizeof p->workloads[i].name, "train%d", i);
    r->n_workloads = p->n_workloads;
    snprintf(r->workloads[i].accelerator, sizeof r->workloads[i].accelerator, "%s",
             p->accelerator);
    r->workloads[i].kind = WL_TRAINING;
    r->workloads[i].ok = true;
    r->workloads[i].train.gpus = g;
}

static void hand_plan(Plan *p)
{
    plan_init(p);
    strcpy(p->accelerator, "TESTGPU");
    p->site.headroom = 0;
    p->site.pue = 1.25;
    p->site.power_price_kwh = 0.10;
}

START_TEST(power_of_a_small_hand_computed_cluster)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    add_training(&p, r, 64);
    layout_stage(&p, &hand, r);
    power_stage(&p, &hand, r);
    /* Hand computation:
     *   64 GPUs = 8 nodes of 8; 40 kW / 10 kW = 4 nodes per rack -> 2 racks
     *   NDR 64-port: the 64 NICs fit one switch (layout.c rule 0) -> 1
     *     switch, 64 node-leaf cables
     *   storage read = 64 GPUs x 1 GB/s = 64 GB/s / 20 GB/s -> 4 units
     *   IT = 8 x 10 kW + 1 x 1.5 kW + 4 x 2 kW = 80 + 1.5 + 8 = 89.5 kW
     *   facility = 89.5 x 1.25 = 111.875 kW
     *   energy = 111.875 kW x 8760 h = 980,025 kWh = 980.025 MWh
     *   at $0.10/kWh = $98,002.50 per year
     *   hottest rack 4 x 10 = 40 kW <= 56 kW air ceiling: air is enough */
    const ClusterResult *k = &r->cluster;
    ck_assert_int_eq(k->nodes, 8);
    ck_assert_int_eq(k->racks, 2);
    ck_assert_int_eq(k->leaf_switches + k->spine_switches + k->core_switches, 1);
    ck_assert_int_eq(k->links, 64);
    ck_assert_int_eq(k->storage_units, 4);
    const PowerResult *w = &r->power;
    ck_assert(r->have_power);
    ck_assert_double_eq_tol(w->gpu_nodes_kw, 80, 1e-9);
    ck_assert_double_eq_tol(w->network_kw, 1.5, 1e-9);
    ck_assert_double_eq_tol(w->storage_kw, 8, 1e-9);
    ck_assert_double_eq_tol(w->it_kw, 89.5, 1e-9);
    ck_assert_double_eq_tol(w->facility_kw, 111.875, 1e-9);
    ck_assert_double_eq_tol(w->rack_kw, 40, 1e-9);
    ck_assert_double_eq_tol(w->rack_limit_kw, 40, 1e-9);
    ck_assert_double_eq_tol(w->energy_mwh_per_year, 980.025, 1e-6);
    ck_assert_double_eq_tol(w->energy_usd_per_year, 98002.5, 1e-4);
    ck_assert(w->cooling_ok);
    ck_assert_int_eq(w->cooling, COOLING_AIR);
    ck_assert_msg(strstr(w->verdict, "air is enough"), "%s", w->verdict);
    /* network and storage racks: 1 switch (1.5 kW) and 4 units (8 kW) */
    int net = -1, sto = -1;
    for (int i = 0; i < k->n_rack_groups; i++) {
        if (strcmp(k->rack_groups[i].role, "network") == 0)
            net = i;
        if (strcmp(k->rack_groups[i].role, "storage") == 0)
            sto = i;
    }
    ck_assert_int_ge(net, 0);
    ck_assert_int_ge(sto, 0);
    ck_assert_int_eq(k->rack_groups[net].count, 1);
    ck_assert_double_eq_tol(k->rack_groups[net].kw, 1.5, 1e-9);
    ck_assert_int_eq(k->rack_groups[sto].count, 1);
    ck_assert_double_eq_tol(k->rack_groups[sto].kw, 8, 1e-9);
    free(r);
}
END_TEST

START_TEST(hot_racks_need_liquid_and_an_air_plan_is_told_so)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    p.site.rack_power_kw = 80;
    p.site.cooling = COOLING_LIQUID;
    PlanResult *r = new_result();
    add_training(&p, r, 64);
    layout_stage(&p, &hand, r);
    power_stage(&p, &hand, r);
    /* liquid: 80 kW racks of 8 nodes, above the 56 kW air ceiling */
    ck_assert_double_eq_tol(r->power.rack_kw, 80, 1e-9);
    ck_assert(r->power.cooling_ok);
    ck_assert_msg(strstr(r->power.verdict, "liquid, as planned"), "%s", r->power.verdict);
    /* the same racks under air: layout fills only to the air ceiling, 5
     * nodes (50 kW), so air still works */
    Plan q;
    hand_plan(&q);
    q.site.rack_power_kw = 80;
    q.site.cooling = COOLING_AIR;
    PlanResult *a = new_result();
    add_training(&q, a, 64);
    layout_stage(&q, &hand, a);
    power_stage(&q, &hand, a);
    ck_assert_int_eq(a->cluster.nodes_per_rack, 5);
    ck_assert(a->power.cooling_ok);
    free(r);
    free(a);
}
END_TEST

START_TEST(a_node_hotter_than_air_fails_air_cooling)
{
    hand_catalog();
    hand_acc.node_power_w = 60000; /* one node above the 56 kW air ceiling */
    Plan p;
    hand_plan(&p);
    p.site.rack_power_kw = 100;
    PlanResult *r = new_result();
    add_training(&p, r, 16);
    layout_stage(&p, &hand, r);
    power_stage(&p, &hand, r);
    ck_assert_int_eq(r->cluster.nodes_per_rack, 1);
    ck_assert(r->cluster.liquid_required);
    ck_assert(!r->power.cooling_ok);
    ck_assert_msg(strstr(r->power.verdict, "liquid required"), "%s", r->power.verdict);
    ck_assert_msg(strstr(r->power.verdict, "plan says air"), "%s", r->power.verdict);
    free(r);
}
END_TEST

START_TEST(gb200_under_air_is_not_ok)
{
    Catalog cat;
    char dir[1024];
    const char *dd = getenv("GPUPLAN_DATADIR");
    snprintf(dir, sizeof dir, "%s/catalog", dd ? dd : GPUPLAN_SRCDIR "/data");
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_msg(catalog_load(&cat, dir, NULL, &d) == 0, "%s", d.msg);
    Plan p;
    plan_init(&p);
    strcpy(p.accelerator, "GB200");
    p.site.headroom = 0;
    PlanResult *r = new_result();
    add_training(&p, r, 144);
    layout_stage(&p, &cat, r);
    power_stage(&p, &cat, r);
    ck_assert(!r->power.cooling_ok);
    ck_assert_msg(strstr(r->power.verdict, "liquid required: GB200 is liquid-cooled"), "%s",
                  r->power.verdict);
    ck_assert(has_warning(r, "power: liquid required"));
    /* one NVL72 rack: 18 trays at the catalog's tray power */
    const Accelerator *a = catalog_find_accelerator(&cat, "GB200");
    ck_assert_double_eq_tol(r->power.rack_kw, 18 * a->node_power_w / 1000.0, 1e-9);
    p.site.cooling = COOLING_LIQUID;
    power_stage(&p, &cat, r);
    ck_assert(r->power.cooling_ok);
    free(r);
    catalog_free(&cat);
}
END_TEST

START_TEST(pue_below_one_is_refused)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    p.site.pue = 0;
    PlanResult *r = new_result();
    add_training(&p, r, 64);
    layout_stage(&p, &hand, r);
    power_stage(&p, &hand, r);
    ck_assert(has_warning(r, "below 1"));
    ck_assert_double_eq_tol(r->power.facility_kw, r->power.it_kw, 1e-12);
    free(r);
}
END_TEST

START_TEST(rack_over_the_limit_is_reported)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    p.site.rack_power_kw = 8; /* a 10 kW node does not fit */
    PlanResult *r = new_result();
    add_training(&p, r, 16);
    layout_stage(&p, &hand, r);
    power_stage(&p, &hand, r);
    ck_assert(has_warning(r, "above the site's 8 kW rack limit"));
    ck_assert_msg(strstr(r->power.verdict, "exceeds the 8 kW limit"), "%s", r->power.verdict);
    free(r);
}
END_TEST

START_TEST(an_empty_cluster_draws_nothing)
{
    hand_catalog();
    Plan p;
    hand_plan(&p);
    PlanResult *r = new_result();
    layout_stage(&p, &hand, r);
    power_stage(&p, &hand, r);
    ck_assert(r->have_power);
    ck_assert_double_eq(r->power.it_kw, 0);
    ck_assert_double_eq(r->power.energy_usd_per_year, 0);
    ck_assert(r->power.cooling_ok);
    ck_assert_str_eq(r->power.verdict, "no compute racks");
    free(r);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("power");
    TCase *t = tcase_create("power");
    tcase_add_test(t, power_of_a_small_hand_computed_cluster);
    tcase_add_test(t, hot_racks_need_liquid_and_an_air_plan_is_told_so);
    tcase_add_test(t, a_node_hotter_than_air_fails_air_cooling);
    tcase_add_test(t, gb200_under_air_is_not_ok);
    tcase_add_test(t, pue_below_one_is_refused);
    tcase_add_test(t, rack_over_the_limit_is_reported);
    tcase_add_test(t, an_empty_cluster_draws_nothing);
    suite_add_tcase(s, t);
    return s;
}
