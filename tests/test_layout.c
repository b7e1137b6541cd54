/* tests/test_layout.c — cluster layout: the DGX SuperPOD fabric tables,
 * nodes, NVLink domains, racks, islands and storage. */
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

/* ------------------------------------------------------------- helpers */

static Catalog cat;

static void load_catalog(void)
{
    char dir[1024];
    const char *dd = getenv("GPUPLAN_DATADIR");
    snprintf(dir, sizeof dir, "%s/catalog", dd ? dd : GPUPLAN_SRCDIR "/data");
    Diag d;
    memset(&d, 0, sizeof d);
    memset(&cat, 0, sizeof cat);
    int rc = catalog_load(&cat, dir, NULL, &d);
    ck_assert_msg(rc == 0, "catalog: %s: %s", dir, d.msg);
}

static void free_catalog(void)
{
    catalog_free(&cat);
}

static PlanResult *new_result(void)
{
    PlanResult *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    r->cost.cheapest = -1;
    return r;
}

/* A training workload of g GPUs, sized by hand (isolates the layout from
 * the training model). */
static void add_training(Plan *p, PlanResult *r, const char *name, const char *acc, int g)
{
    int i = p->n_workloads++;
    workload_init(&p->workloads[i], WL_TRAINING);
    snprintf(p->workloads[i].name, sizeof p->workloads[i].name, "%s", name);
    snprintf(p->workloads[i].accelerator, sizeof p->workloads[i].accelerator, "%s", acc);
    r->n_workloads = p->n_workloads;
    WorkloadResult *wr = &r->workloads[i];
    snprintf(wr->name, sizeof wr->name, "%s", name);
    snprintf(wr->accelerator, sizeof wr->accelerator, "%s", acc[0] ? acc : p->accelerator);
    wr->kind = WL_TRAINING;
    wr->ok = true;
    wr->train.gpus = g;
}

static void add_inference(Plan *p, PlanResult *r, const char *name, int g)
{
    int i = p->n_workloads++;
    workload_init(&p->workloads[i], WL_INFERENCE);
    snprintf(p->workloads[i].name, sizeof p->workloads[i].name, "%s", name);
    r->n_workloads = p->n_workloads;
    WorkloadResult *wr = &r->workloads[i];
    snprintf(wr->name, sizeof wr->name, "%s", name);
    snprintf(wr->accelerator, sizeof wr->accelerator, "%s", p->accelerator);
    wr->kind = WL_INFERENCE;
    wr->ok = true;
    wr->infer.gpus = g;
}

/* One row of a published component table. */
typedef struct {
    int su, nodes, leaf, spine, core, node_leaf, leaf_spine, spine_core;
} Row;

static void check_rows(Fabric f, double link_bps, int ports, const Row *rows, size_t n)
{
    FabricDesign d = layout_fabric_design(f, link_bps, ports);
    ck_assert(d.published);
    for (size_t i = 0; i < n; i++) {
        FabricLayout o;
        ck_assert_int_eq(layout_fabric(&d, rows[i].nodes, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
        ck_assert_msg(o.scalable_units == rows[i].su && o.leaves == rows[i].leaf &&
                          o.spines == rows[i].spine && o.cores == rows[i].core &&
                          o.links_node_leaf == rows[i].node_leaf &&
                          o.links_leaf_spine == rows[i].leaf_spine &&
                          o.links_spine_core == rows[i].spine_core,
                      "%s, %d nodes: got SU %d leaf %d spine %d core %d cables %d/%d/%d", d.name,
                      rows[i].nodes, o.scalable_units, o.leaves, o.spines, o.cores,
                      o.links_node_leaf, o.links_leaf_spine, o.links_spine_core);
    }
}

/* ------------------------------------------------- published SuperPODs */

START_TEST(reproduces_b200_ndr_superpod_component_table)
{
    /* NVIDIA DGX SuperPOD B200 RA, "Larger DGX SuperPOD component counts"
     * (CATALOG-FACTS §3.3): 32 DGX B200 per SU, InfiniBand NDR. */
    static const Row rows[] = {
        {2, 64, 16, 8, 0, 512, 512, 0},
        {4, 128, 32, 16, 0, 1024, 1024, 0},
        {8, 256, 64, 32, 0, 2048, 2048, 0},
        {16, 512, 128, 128, 64, 4096, 4096, 4096},
        {32, 1024, 256, 256, 128, 8192, 8192, 8192},
        {64, 2048, 512, 512, 256, 16384, 16384, 16384},
    };
    check_rows(FABRIC_INFINIBAND, 400e9, 64, rows, sizeof rows / sizeof rows[0]);
}
END_TEST

START_TEST(builds_whole_scalable_units_like_the_b200_fabric_table)
{
    /* B200 RA "Network Fabrics" Table 4: 31/63/95/127 nodes (one DGX per SU
     * gives its ports to UFM) still get the full SU's leaves, spines and
     * leaf-spine cables: 8/4/256, 16/8/512, 24/16/768, 32/16/1024.  NVIDIA's
     * node-leaf column adds 4 UFM ports (252 = 248 + 4); we count GPU ports. */
    static const Row rows[] = {
        {1, 31, 8, 4, 0, 248, 256, 0},
        {2, 63, 16, 8, 0, 504, 512, 0},
        {3, 95, 24, 16, 0, 760, 768, 0},
        {4, 127, 32, 16, 0, 1016, 1024, 0},
    };
    check_rows(FABRIC_INFINIBAND, 400e9, 64, rows, sizeof rows / sizeof rows[0]);
}
END_TEST

START_TEST(reproduces_b300_busbar_spectrum_x_table)
{
    /* DGX SuperPOD B300 (Spectrum-4, DC busbar) RA, Table 3: 64 DGX B300 per
     * SU, twin-plane 2 x 400GbE per GPU; rows 1, 2, 4, 8, 16 SU (CATALOG-FACTS
     * §3.3 quotes 1/4/16; the page also lists 2 and 8). */
    static const Row rows[] = {
        {1, 64, 16, 8, 0, 512, 512, 0},
        {2, 128, 32, 16, 0, 1024, 1024, 0},
        {4, 256, 64, 32, 0, 2048, 2048, 0},
        {8, 512, 128, 64, 0, 4096, 4096, 0},
        {16, 1024, 256, 128, 0, 8192, 8192, 0},
    };
    check_rows(FABRIC_ROCE, 800e9, 64, rows, sizeof rows / sizeof rows[0]);
}
END_TEST

START_TEST(reproduces_b300_xdr_table)
{
    /* DGX SuperPOD B300-XDR RA, Table 3: 72 DGX B300 per SU.  18 spines at
     * 4 SU and 36 at 8 SU: 72 leaf uplinks must split evenly over the spines.
     * The table's GPU column says 9,216 at 18 SU; 1,296 nodes x 8 = 10,368,
     * which matches its cable counts (the GPU figure is a typo). */
    static const Row rows[] = {
        {1, 72, 8, 4, 0, 576, 576, 0},
        {2, 144, 16, 8, 0, 1152, 1152, 0},
        {4, 288, 32, 18, 0, 2304, 2304, 0},
        {8, 576, 64, 36, 0, 4608, 4608, 0},
        {18, 1296, 144, 72, 0, 10368, 10368, 0},
    };
    check_rows(FABRIC_INFINIBAND, 800e9, 144, rows, sizeof rows / sizeof rows[0]);
}
END_TEST

START_TEST(falls_back_to_a_generic_design)
{
    FabricDesign d = layout_fabric_design(FABRIC_ROCE, 400e9, 64);
    ck_assert(!d.published);
    ck_assert_int_eq(d.planes, 1);
    ck_assert_int_eq(d.radix, 64);
    ck_assert_int_eq(d.ports_per_cable, 1);
    ck_assert_double_eq(d.port_gbps, 400);
    /* the same rules as NDR: 2 SU of 32 nodes -> 16 leaves, 8 spines */
    FabricLayout o;
    ck_assert_int_eq(layout_fabric(&d, 64, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert_int_eq(o.leaves, 16);
    ck_assert_int_eq(o.spines, 8);
}
END_TEST

START_TEST(adds_a_core_tier_when_leaves_outgrow_the_radix)
{
    FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 800e9, 144);
    FabricLayout o;
    /* 18 SU = 144 leaves = radix: still two tiers */
    ck_assert_int_eq(layout_fabric(&d, 18 * 72, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert_int_eq(o.tiers, 2);
    /* 19 SU = 152 leaves: three tiers; 8 spines per SU pod (divisor of 72
     * >= 8*72/72), core group of 19 pods: smallest divisor of 72 >= 19*72/144
     * = 9.5 -> 12, times 8 groups = 96 */
    ck_assert_int_eq(layout_fabric(&d, 19 * 72, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert_int_eq(o.tiers, 3);
    ck_assert_int_eq(o.leaves, 152);
    ck_assert_int_eq(o.spines, 152);
    ck_assert_int_eq(o.cores, 96);
    ck_assert_int_eq(o.links_spine_core, 152 * 72);
    ck_assert(!o.too_large);
}
END_TEST

START_TEST(flags_a_fabric_beyond_three_tiers)
{
    /* radix 64: at most 64 pods (a core's ports) of 32 leaves (a spine's
     * down-ports) = 2,048 leaves = 256 SU of 8 rails = 8,192 nodes, i.e.
     * 65,536 GPU ports, the k^3/4 of a 3-tier fat tree */
    FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, 64);
    FabricLayout o;
    ck_assert_int_eq(layout_fabric(&d, 8192, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert(!o.too_large);
    ck_assert_int_eq(layout_fabric(&d, 8193, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert(o.too_large);
}
END_TEST

START_TEST(oversubscription_splits_leaf_ports)
{
    FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, 64);
    FabricLayout o;
    /* 2:1: down = floor(64*2/3) = 42, up = ceil(42/2) = 21; SU = 42 nodes */
    ck_assert_int_eq(layout_fabric(&d, 84, 8, TOPO_RAIL_OPTIMIZED, 2, &o), 0);
    ck_assert_int_eq(o.leaf_down, 42);
    ck_assert_int_eq(o.leaf_up, 21);
    ck_assert_double_eq_tol(o.uplink_ratio, 0.5, 1e-12);
    ck_assert_int_eq(o.su_nodes, 42);
    ck_assert_int_eq(o.scalable_units, 2);
    ck_assert_int_eq(o.leaves, 16);
    /* 16 leaves x 21 uplinks = 336 ports -> >= 6 spines; 7 divides 21 */
    ck_assert_int_eq(o.spines, 7);
    ck_assert_int_eq(o.links_leaf_spine, 336);
    /* below 1 (or NaN) counts as non-blocking */
    ck_assert_int_eq(layout_fabric(&d, 64, 8, TOPO_RAIL_OPTIMIZED, NAN, &o), 0);
    ck_assert_int_eq(o.leaf_down, 32);
    ck_assert_double_eq(o.uplink_ratio, 1);
}
END_TEST

START_TEST(fat_tree_packs_a_small_cluster_on_one_leaf)
{
    FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, 64);
    FabricLayout o;
    ck_assert_int_eq(layout_fabric(&d, 4, 8, TOPO_FAT_TREE, 1, &o), 0);
    ck_assert_int_eq(o.tiers, 1);
    ck_assert_int_eq(o.leaves, 1);
    ck_assert_int_eq(o.spines, 0);
    ck_assert_int_eq(o.links_node_leaf, 32);
    /* so does rail-optimized: 32 NICs fit one 64-port switch, which is
     * one hop between any two rails (see one_switch_serves_...) */
    ck_assert_int_eq(layout_fabric(&d, 4, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert_int_eq(o.leaves, 1);
    ck_assert_int_eq(o.spines, 0);
    /* full SUs: the same switch counts either way */
    FabricLayout f;
    ck_assert_int_eq(layout_fabric(&d, 256, 8, TOPO_FAT_TREE, 1, &f), 0);
    ck_assert_int_eq(layout_fabric(&d, 256, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert_int_eq(f.leaves, o.leaves);
    ck_assert_int_eq(f.spines, o.spines);
}
END_TEST

/* Two to eight DGX-class nodes (16-64 NICs) fit on one 64-port switch:
 * that switch is the whole fabric.  Building the SU's 8 rail leaves and 4
 * spines for them (as before) priced two nodes' network at 12 x $150k + 272
 * cables, 4.6x the nodes themselves.  From 9 nodes (72 NICs) the SU rules
 * apply, so the count still never falls as nodes grow. */
START_TEST(one_switch_serves_a_cluster_whose_nics_fit_on_it)
{
    FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, 64);
    FabricLayout o;
    ck_assert_int_eq(layout_fabric(&d, 2, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert_int_eq(o.tiers, 1);
    ck_assert_int_eq(o.leaves + o.spines + o.cores, 1);
    ck_assert_int_eq(o.links_node_leaf, 16);
    ck_assert_int_eq(o.links_leaf_spine, 0);
    ck_assert_int_eq(layout_fabric(&d, 8, 8, TOPO_RAIL_OPTIMIZED, 2, &o), 0);
    ck_assert_int_eq(o.leaves + o.spines + o.cores, 1);
    ck_assert_int_eq(o.links_node_leaf, 64);
    ck_assert_int_eq(layout_fabric(&d, 9, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert_int_eq(o.leaves, 8);
    ck_assert_int_eq(o.spines, 4);
}
END_TEST

START_TEST(one_node_needs_no_fabric)
{
    FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, 64);
    FabricLayout o;
    ck_assert_int_eq(layout_fabric(&d, 1, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert_int_eq(o.tiers, 0);
    ck_assert_int_eq(o.leaves + o.spines + o.cores, 0);
    ck_assert_int_eq(layout_fabric(&d, 0, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
    ck_assert_int_eq(o.scalable_units, 0);
}
END_TEST

START_TEST(rejects_unusable_fabric_inputs)
{
    FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, 1);
    FabricLayout o;
    ck_assert_int_eq(layout_fabric(&d, 16, 8, TOPO_RAIL_OPTIMIZED, 1, &o), -1);
    ck_assert_int_eq(o.leaves, 0);
    d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, 64);
    ck_assert_int_eq(layout_fabric(&d, -1, 8, TOPO_RAIL_OPTIMIZED, 1, &o), -1);
    ck_assert_int_eq(layout_fabric(&d, 16, 0, TOPO_RAIL_OPTIMIZED, 1, &o), -1);
    ck_assert_int_eq(layout_fabric(NULL, 16, 8, TOPO_RAIL_OPTIMIZED, 1, &o), -1);
}
END_TEST

START_TEST(spine_count_never_falls_as_nodes_grow)
{
    FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, 64);
    int last_sw = 0, last_links = 0;
    for (int n = 1; n <= 4200; n += 7) {
        FabricLayout o;
        ck_assert_int_eq(layout_fabric(&d, n, 8, TOPO_RAIL_OPTIMIZED, 1, &o), 0);
        int sw = o.leaves + o.spines + o.cores;
        int links = o.links_node_leaf + o.links_leaf_spine + o.links_spine_core;
        ck_assert_msg(sw >= last_sw && links >= last_links, "%d nodes: %d switches < %d", n, sw,
                      last_sw);
        last_sw = sw;
        last_links = links;
    }
    /* oversubscribed: the leaf split may change with the node count, which
     * can trade cables for switches, so only switches are monotone (up to
     * 4,200 nodes; the 3-tier pod doubling beyond 64 pods is not) */
    const double os[] = {1.5, 2, 3, 4};
    for (size_t j = 0; j < sizeof os / sizeof os[0]; j++) {
        last_sw = 0;
        for (int n = 1; n <= 4200; n += 7) {
            FabricLayout o;
            ck_assert_int_eq(layout_fabric(&d, n, 8, TOPO_RAIL_OPTIMIZED, os[j], &o), 0);
            int sw = o.leaves + o.spines + o.cores;
            ck_assert_msg(sw >= last_sw, "%g:1, %d nodes: %d switches < %d", os[j], n, sw,
                          last_sw);
            last_sw = sw;
        }
    }
}
END_TEST

static const double os_steps[] = {1, 1.5, 2, 3, 4};

START_TEST(more_oversubscription_never_needs_more_switches_or_cables)
{
    /* H100 SuperPOD-style: 8 rails, 64-port NDR switches */
    FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, 64);
    const int nodes[] = {8, 64, 512, 2048, 16384};
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
        long last_sw = -1, last_links = -1;
        for (size_t j = 0; j < sizeof os_steps / sizeof os_steps[0]; j++) {
            FabricLayout o;
            ck_assert_int_eq(
                layout_fabric(&d, nodes[i], 8, TOPO_RAIL_OPTIMIZED, os_steps[j], &o), 0);
            long sw = (long)o.leaves + o.spines + o.cores;
            long links = (long)o.links_node_leaf + o.links_leaf_spine + o.links_spine_core;
            ck_assert_msg(last_sw < 0 || (sw <= last_sw && links <= last_links),
                          "%d nodes at %g:1: %ld switches, %ld cables after %ld, %ld", nodes[i],
                          os_steps[j], sw, links, last_sw, last_links);
            last_sw = sw;
            last_links = links;
        }
    }
}
END_TEST

START_TEST(four_to_one_needs_fewer_switches_than_two_to_one_at_4096_gpus)
{
    /* 4,096 H100 = 512 nodes x 8 rails.  The requested 4:1 split, 51 down /
     * 13 up, has a prime uplink count: every 8-leaf SU pod would need 13
     * spines (11 pods: 88 leaves + 143 spines + 104 cores = 335 switches,
     * more than 2:1's 209).  48 down / 12 up (still 4:1) gives the same 11
     * SU of 8 leaves; a pod needs the smallest divisor of 12 >= 8*12/32 = 3
     * spines, 33 in all; core group of 11 pods: smallest divisor of 32 >=
     * 11*32/64 = 5.5 -> 8, times 3 groups = 24: 145 switches. */
    FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, 64);
    FabricLayout two, four;
    ck_assert_int_eq(layout_fabric(&d, 512, 8, TOPO_RAIL_OPTIMIZED, 2, &two), 0);
    ck_assert_int_eq(layout_fabric(&d, 512, 8, TOPO_RAIL_OPTIMIZED, 4, &four), 0);
    long sw2 = (long)two.leaves + two.spines + two.cores;
    long sw4 = (long)four.leaves + four.spines + four.cores;
    ck_assert_msg(sw4 < sw2, "4:1 %ld switches, 2:1 %ld", sw4, sw2);
    ck_assert_int_eq(four.leaves, 88); /* 11 SU of 48 nodes x 8 rails */
    ck_assert_int_eq(four.leaf_down, 48);
    ck_assert_int_eq(four.leaf_up, 12);
    ck_assert_int_eq(four.spines, 33);
    ck_assert_int_eq(four.cores, 24);
}
END_TEST

START_TEST(effective_oversubscription_never_exceeds_the_request)
{
    const int radices[] = {64, 144, 128, 48};
    const int nodes[] = {2, 9, 40, 300, 1000, 5000};
    for (size_t r = 0; r < sizeof radices / sizeof radices[0]; r++) {
        FabricDesign d = layout_fabric_design(FABRIC_INFINIBAND, 400e9, radices[r]);
        for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++)
            for (size_t j = 0; j < sizeof os_steps / sizeof os_steps[0]; j++)
                for (int t = 0; t < 2; t++) {
                    FabricLayout o;
                    Topology topo = t ? TOPO_FAT_TREE : TOPO_RAIL_OPTIMIZED;
                    ck_assert_int_eq(layout_fabric(&d, nodes[i], 8, topo, os_steps[j], &o), 0);
                    ck_assert_int_le(o.leaf_down + o.leaf_up, radices[r]);
                    ck_assert(o.uplink_ratio > 0 && o.uplink_ratio <= 1);
                    double eff = 1.0 / o.uplink_ratio;
                    ck_assert_msg(eff <= os_steps[j] + 1e-9,
                                  "radix %d, %d nodes, %g:1 asked: %d/%d is %g:1",
                                  radices[r], nodes[i], os_steps[j], o.leaf_down, o.leaf_up,
                                  eff);
                }
    }
}
END_TEST

/* ---------------------------------------------------------- the stage */

START_TEST(sums_training_inference_pool_and_headroom)
{
    Plan p;
    plan_init(&p);
    PlanResult *r = new_result();
    add_training(&p, r, "pretrain", "", 1024);
    add_inference(&p, r, "chat", 16);
    p.tenancy.n_teams = 1;
    team_init(&p.tenancy.teams[0]);
    r->schedule.ran = true;
    r->schedule.recommended_gpus = 100;
    layout_stage(&p, &cat, r);
    const ClusterResult *k = &r->cluster;
    ck_assert(r->have_layout);
    ck_assert_str_eq(k->accelerator, "H100-SXM");
    ck_assert_int_eq(k->gpus_training, 1024);
    ck_assert_int_eq(k->gpus_inference, 16);
    ck_assert_int_eq(k->gpus_pool, 100);
    /* 1140 x 10% = 114 headroom; 1254 GPUs -> 157 nodes of 8 = 1256 */
    ck_assert_int_eq(k->gpus_headroom, 114);
    ck_assert_int_eq(k->gpus_per_node, 8);
    ck_assert_int_eq(k->nodes, 157);
    ck_assert_int_eq(k->gpus, 1256);
    ck_assert_int_eq(k->gpus_per_domain, 8);
    ck_assert_int_eq(k->nvlink_domains, 157);
    ck_assert(has_assumption(r, "rounded up"));
    /* 157 nodes / 32 per SU = 5 SU -> 40 leaves; 40*32/64 = 20 spines,
     * smallest divisor of 32 >= 20 is 32 */
    ck_assert_int_eq(k->scalable_units, 5);
    ck_assert_int_eq(k->leaf_switches, 40);
    ck_assert_int_eq(k->spine_switches, 32);
    ck_assert_int_eq(k->core_switches, 0);
    ck_assert_int_eq(k->links_node_leaf, 157 * 8);
    ck_assert_int_eq(k->links_leaf_spine, 40 * 32);
    ck_assert_int_eq(k->links, 157 * 8 + 40 * 32);
    ck_assert_double_eq(k->scaleout_bw_per_gpu, 400e9 / 8);
    /* the shipped H100 node: racks hold floor(40 kW / node kW) nodes */
    const Accelerator *a = catalog_find_accelerator(&cat, "H100-SXM");
    int per = (int)floor(40.0 / (a->node_power_w / 1000.0));
    ck_assert_int_eq(k->nodes_per_rack, per);
    ck_assert_int_eq(k->racks, (157 + per - 1) / per);
    free(r);
}
END_TEST

START_TEST(stage_reports_a_less_oversubscribed_split_as_an_assumption)
{
    /* 4,096 H100 GPUs + 10% headroom = 564 nodes, asked at 1:1, 2:1, 4:1 */
    const double os[] = {1, 2, 4};
    int sw[3];
    for (int j = 0; j < 3; j++) {
        Plan p;
        plan_init(&p);
        PlanResult *r = new_result();
        add_training(&p, r, "pretrain", "", 4096);
        p.network.oversubscription = os[j];
        layout_stage(&p, &cat, r);
        const ClusterResult *k = &r->cluster;
        ck_assert_int_eq(k->nodes, 564);
        sw[j] = k->leaf_switches + k->spine_switches + k->core_switches;
        /* the built split, from the per-GPU bandwidth above the leaf */
        double eff = 400e9 / 8 / k->scaleout_bw_per_gpu;
        ck_assert(eff <= os[j] + 1e-9);
        bool said = has_assumption(r, "effective oversubscription");
        ck_assert_msg(said == (fabs(eff - os[j]) > 1e-9), "%g:1 asked, %g:1 built, said %d",
                      os[j], eff, said);
        ck_assert(!has_warning(r, "effective oversubscription"));
        free(r);
    }
    ck_assert_msg(sw[1] <= sw[0] && sw[2] < sw[1], "switches %d, %d, %d", sw[0], sw[1], sw[2]);

    /* 100 nodes at 4:1: 51/13 needs 2 SU (16 leaves) and 13 spines; 50/14
     * (3.57:1) also 2 SU, 16*14/64 = 3.5 -> 7 spines (divides 14): 23 vs 29 */
    Plan p;
    plan_init(&p);
    PlanResult *r = new_result();
    add_training(&p, r, "pretrain", "", 800);
    p.site.headroom = 0;
    p.network.oversubscription = 4;
    layout_stage(&p, &cat, r);
    ck_assert_int_eq(r->cluster.nodes, 100);
    ck_assert_int_eq(r->cluster.leaf_switches, 16);
    ck_assert_int_eq(r->cluster.spine_switches, 7);
    ck_assert_double_eq_tol(r->cluster.scaleout_bw_per_gpu, 400e9 / 8 * 14 / 50, 1e-3);
    ck_assert(has_assumption(r, "leaves split 50 ports to nodes and 14 to spines"));
    ck_assert(has_assumption(r, "3.57:1 effective oversubscription (4:1 allowed)"));
    free(r);
}
END_TEST

START_TEST(no_pool_without_teams)
{
    Plan p;
    plan_init(&p);
    p.tenancy.gpus = 512; /* a size but no teams: nothing runs there */
    PlanResult *r = new_result();
    add_training(&p, r, "t", "", 64);
    p.site.headroom = 0;
    layout_stage(&p, &cat, r);
    ck_assert_int_eq(r->cluster.gpus_pool, 0);
    ck_assert_int_eq(r->cluster.gpus, 64);
    ck_assert_int_eq(r->cluster.gpus_headroom, 0);
    free(r);
}
END_TEST

START_TEST(gpus_that_do_not_fill_a_node_round_up_and_say_so)
{
    Plan p;
    plan_init(&p);
    p.site.headroom = 0;
    PlanResult *r = new_result();
    add_training(&p, r, "small", "", 12);
    layout_stage(&p, &cat, r);
    ck_assert_int_eq(r->cluster.nodes, 2);
    ck_assert_int_eq(r->cluster.gpus, 16);
    ck_assert(has_assumption(r, "rounded up to whole 8-GPU nodes"));
    ck_assert(has_assumption(r, "4 spare"));
    ck_assert_int_eq(r->n_warnings, 0);
    free(r);
}
END_TEST

START_TEST(gb200_rounds_to_whole_nvl72_racks_and_needs_liquid)
{
    Plan p;
    plan_init(&p);
    strcpy(p.accelerator, "GB200");
    p.site.headroom = 0;
    PlanResult *r = new_result();
    add_training(&p, r, "t", "", 100);
    layout_stage(&p, &cat, r);
    const ClusterResult *k = &r->cluster;
    /* 100 GPUs -> 2 NVLink domains of 72 = 144 GPUs in 36 trays of 4 */
    ck_assert_int_eq(k->gpus_per_domain, 72);
    ck_assert_int_eq(k->nvlink_domains, 2);
    ck_assert_int_eq(k->gpus, 144);
    ck_assert_int_eq(k->nodes, 36);
    ck_assert_int_eq(k->nodes_per_rack, 18);
    ck_assert_int_eq(k->racks, 2);
    ck_assert(k->liquid_required);
    ck_assert(has_assumption(r, "NVLink domains"));
    ck_assert(has_warning(r, "above the 40 kW rack limit"));
    free(r);
}
END_TEST

/* A liquid-cooled 130 kW rack would take 8 DGX B200 by power (14.6 kW
 * each) but a 42U rack holds only 4 of the 10U chassis (CATALOG-FACTS §3.1
 * [B2]); NVIDIA's B200 SuperPOD racks 4 per rack too. */
START_TEST(rack_space_caps_nodes_per_rack_before_power)
{
    Plan p;
    plan_init(&p);
    strcpy(p.accelerator, "B200");
    p.site.headroom = 0;
    p.site.cooling = COOLING_LIQUID;
    p.site.rack_power_kw = 130;
    PlanResult *r = new_result();
    add_training(&p, r, "t", "", 64);
    layout_stage(&p, &cat, r);
    ck_assert_int_eq(r->cluster.nodes, 8);
    ck_assert_int_eq(r->cluster.nodes_per_rack, 4);
    ck_assert_int_eq(r->cluster.racks, 2);
    ck_assert(has_assumption(r, "42U of rack space / 10U per node"));
    free(r);
    /* at 40 kW power is the tighter limit again: 2 nodes of 14.6 kW */
    p.site.cooling = COOLING_AIR;
    p.site.rack_power_kw = 40;
    r = new_result();
    add_training(&p, r, "t", "", 64);
    layout_stage(&p, &cat, r);
    ck_assert_int_eq(r->cluster.nodes_per_rack, 2);
    ck_assert(!has_assumption(r, "of rack space"));
    free(r);
}
END_TEST

/* NVIDIA's DGX SuperPOD B300-XDR (PDU/AC) racks four air-cooled DGX B300 at
 * "~56kW" (CATALOG-FACTS 3.2 [SP-B300x]): an air-cooled 56 kW rack of the
 * catalog's B300 holds 4 nodes, no liquid needed (by the 8 x TDP x 1.82
 * rule, 16 kW a node, it would hold 3). */
START_TEST(dgx_b300_racks_four_per_56_kw_air_rack)
{
    Plan p;
    plan_init(&p);
    strcpy(p.accelerator, "B300");
    p.site.headroom = 0;
    p.site.cooling = COOLING_AIR;
    p.site.rack_power_kw = 56;
    PlanResult *r = new_result();
    add_training(&p, r, "t", "", 256);
    layout_stage(&p, &cat, r);
    ck_assert_int_eq(r->cluster.nodes, 32);
    ck_assert_int_eq(r->cluster.nodes_per_rack, 4);
    ck_assert_int_eq(r->cluster.racks, 8);
    free(r);
}
END_TEST

START_TEST(zero_rack_power_places_one_node_per_rack_and_warns)
{
    Plan p;
    plan_init(&p);
    p.site.rack_power_kw = 0;
    p.site.headroom = 0;
    PlanResult *r = new_result();
    add_training(&p, r, "t", "", 32);
    layout_stage(&p, &cat, r);
    ck_assert_int_eq(r->cluster.nodes, 4);
    ck_assert_int_eq(r->cluster.nodes_per_rack, 1);
    ck_assert_int_eq(r->cluster.racks, 4);
    ck_assert(has_warning(r, "rack_power_kw is 0"));
    ck_assert(has_warning(r, "above the 0 kW rack limit"));
    free(r);
}
END_TEST

static int nodes_per_rack_with(Cooling cooling, double limit_kw)
{
    Plan p;
    plan_init(&p);
    p.site.rack_power_kw = limit_kw;
    p.site.cooling = cooling;
    p.site.headroom = 0;
    PlanResult *r = new_result();
    add_training(&p, r, "t", "", 256);
    layout_stage(&p, &cat, r);
    int n = r->cluster.nodes_per_rack;
    free(r);
    return n;
}

START_TEST(air_cooling_caps_racks_at_the_air_ceiling)
{
    const Accelerator *a = catalog_find_accelerator(&cat, "H100-SXM");
    double node_kw = a->node_power_w / 1000.0;
    ck_assert_int_eq(nodes_per_rack_with(COOLING_AIR, 200),
                     (int)floor(layout_air_max_kw() / node_kw));
    /* liquid lifts the power cap: 45 kW takes 4 DGX H100 (10.2 kW each) ... */
    ck_assert_int_eq(nodes_per_rack_with(COOLING_LIQUID, 45), (int)floor(45 / node_kw));
    /* ... until rack space caps it: 42U / 8U = 5 however much power there is */
    ck_assert_int_eq(nodes_per_rack_with(COOLING_LIQUID, 200), 42 / a->node_rack_units);
    ck_assert_int_eq(nodes_per_rack_with(COOLING_AIR, 40), (int)floor(40 / node_kw));
}
END_TEST

START_TEST(unknown_plan_accelerator_builds_nothing)
{
    Plan p;
    plan_init(&p);
    strcpy(p.accelerator, "Z9000");
    PlanResult *r = new_result();
    add_training(&p, r, "t", "", 64);
    layout_stage(&p, &cat, r);
    ck_assert_int_eq(r->cluster.gpus, 0);
    ck_assert_int_eq(r->cluster.nodes, 0);
    ck_assert_int_eq(r->cluster.n_rack_groups, 0);
    ck_assert(has_warning(r, "not in the catalog"));
    free(r);
}
END_TEST

START_TEST(other_accelerators_form_islands_or_stay_in_the_cloud)
{
    Plan p;
    plan_init(&p);
    p.site.headroom = 0;
    PlanResult *r = new_result();
    add_training(&p, r, "main", "", 64);
    add_training(&p, r, "blackwell", "B200", 16);
    add_training(&p, r, "tpu", "TPU-v5p", 64);
    layout_stage(&p, &cat, r);
    const ClusterResult *k = &r->cluster;
    ck_assert_int_eq(k->gpus, 64);
    ck_assert_int_eq(k->gpus_training, 64);
    int b200_nodes = 0, h100_nodes = 0;
    for (int i = 0; i < k->n_rack_groups; i++) {
        const RackGroup *g = &k->rack_groups[i];
        if (strcmp(g->role, "compute") != 0)
            continue;
        if (strcmp(g->accelerator, "B200") == 0)
            b200_nodes += g->count * g->nodes;
        else if (strcmp(g->accelerator, "H100-SXM") == 0)
            h100_nodes += g->count * g->nodes;
        else
            ck_abort_msg("unexpected compute racks of %s", g->accelerator);
    }
    ck_assert_int_eq(h100_nodes, 8);
    ck_assert_int_eq(b200_nodes, 2);
    ck_assert(has_warning(r, "separate island"));
    ck_assert(has_warning(r, "cloud only"));
    /* both islands have a fabric: 8 H100 nodes and 2 B200 nodes each fit
     * one 64-port switch */
    ck_assert_int_eq(k->leaf_switches, 2);
    free(r);
}
END_TEST

START_TEST(a_cloud_only_plan_accelerator_has_nodes_but_no_racks)
{
    Plan p;
    plan_init(&p);
    strcpy(p.accelerator, "TPU-v5p");
    p.site.headroom = 0;
    PlanResult *r = new_result();
    add_training(&p, r, "t", "", 64);
    layout_stage(&p, &cat, r);
    const Accelerator *a = catalog_find_accelerator(&cat, "TPU-v5p");
    ck_assert_int_eq(r->cluster.nodes, 64 / a->gpus_per_node);
    ck_assert_int_eq(r->cluster.gpus, 64);
    ck_assert_int_eq(r->cluster.racks, 0);
    ck_assert_int_eq(r->cluster.leaf_switches, 0);
    ck_assert_int_eq(r->cluster.links, 0);
    ck_assert(has_warning(r, "cloud only"));
    free(r);
}
END_TEST

START_TEST(rack_groups_account_for_every_node)
{
    Plan p;
    plan_init(&p);
    p.site.headroom = 0;
    PlanResult *r = new_result();
    add_training(&p, r, "t", "", 8 * 37);
    layout_stage(&p, &cat, r);
    int nodes = 0, racks = 0;
    for (int i = 0; i < r->cluster.n_rack_groups; i++) {
        const RackGroup *g = &r->cluster.rack_groups[i];
        if (strcmp(g->role, "compute") == 0) {
            nodes += g->count * g->nodes;
            racks += g->count;
        }
    }
    ck_assert_int_eq(nodes, 37);
    ck_assert_int_eq(racks, r->cluster.racks);
    free(r);
}
END_TEST

/* storage with a hand-written system: 10 GB/s read, 5 GB/s write, 500 TB
 * per unit, 1 GB/s per GPU GPUDirect rule */
START_TEST(storage_units_are_the_largest_of_read_write_and_capacity)
{
    StorageSystem s;
    memset(&s, 0, sizeof s);
    strcpy(s.id, "lustre");
    strcpy(s.unit_name, "test block");
    s.unit_read_bw = 10e9;
    s.unit_write_bw = 5e9;
    s.unit_capacity_bytes = 500e12;
    s.unit_power_w = 3000;
    Catalog c = cat;
    c.storage = &s;
    c.n_storage = 1;
    c.costs.gpudirect_read_bw_per_gpu = 1e9;

    Plan p;
    plan_init(&p);
    p.site.headroom = 0;
    p.storage.dataset_bytes = 2e15;
    p.storage.checkpoints_kept = 5;
    PlanResult *r = new_result();
    add_training(&p, r, "a", "", 64);
    add_training(&p, r, "b", "", 16);
    r->workloads[0].train.dataset_read_Bps = 30e9;
    r->workloads[0].train.checkpoint_write_Bps = 40e9;
    r->workloads[0].train.checkpoint_bytes = 100e12;
    r->workloads[1].train.dataset_read_Bps = 20e9;
    r->workloads[1].train.checkpoint_write_Bps = 10e9;
    r->workloads[1].train.checkpoint_bytes = 10e12;
    layout_stage(&p, &c, r);
    const ClusterResult *k = &r->cluster;
    /* read = max(30+20 GB/s streaming, 80 GPUs x 1 GB/s) = 80 GB/s -> 8 units
     * write = max(40, 10) = 40 GB/s -> 8 units
     * capacity = 2 PB + 5 x 100 TB + 5 x 10 TB = 2.55 PB -> 6 units */
    ck_assert_double_eq_tol(k->storage_read_Bps, 80e9, 1);
    ck_assert_double_eq_tol(k->storage_write_Bps, 40e9, 1);
    ck_assert_double_eq_tol(k->storage_capacity_bytes, 2.55e15, 1);
    ck_assert_int_eq(k->storage_units, 8);
    /* a bigger dataset makes capacity the binding need: 5.55 PB -> 12 */
    p.storage.dataset_bytes = 5e15;
    layout_stage(&p, &c, r);
    ck_assert_int_eq(r->cluster.storage_units, 12);
    /* a storage system the catalog lacks: warned, not sized */
    c.n_storage = 0;
    r->n_warnings = 0;
    layout_stage(&p, &c, r);
    ck_assert_int_eq(r->cluster.storage_units, 0);
    ck_assert(has_warning(r, "storage system 'lustre' is not in the catalog"));
    free(r);
}
END_TEST

START_TEST(an_empty_plan_is_an_empty_cluster)
{
    Plan p;
    plan_init(&p);
    PlanResult *r = new_result();
    layout_stage(&p, &cat, r);
    ck_assert(r->have_layout);
    ck_assert_int_eq(r->cluster.gpus, 0);
    ck_assert_int_eq(r->cluster.nodes, 0);
    ck_assert_int_eq(r->cluster.racks, 0);
    ck_assert_int_eq(r->cluster.links, 0);
    ck_assert_int_eq(r->cluster.n_rack_groups, 0);
    ck_assert(isfinite(r->cluster.scaleout_bw_per_gpu));
    free(r);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *f = tcase_create("fabric");
    tcase_add_test(f, reproduces_b200_ndr_superpod_component_table);
    tcase_add_test(f, builds_whole_scalable_units_like_the_b200_fabric_table);
    tcase_add_test(f, reproduces_b300_busbar_spectrum_x_table);
    tcase_add_test(f, reproduces_b300_xdr_table);
    tcase_add_test(f, falls_back_to_a_generic_design);
    tcase_add_test(f, adds_a_core_tier_when_leaves_outgrow_the_radix);
    tcase_add_test(f, flags_a_fabric_beyond_three_tiers);
    tcase_add_test(f, oversubscription_splits_leaf_ports);
    tcase_add_test(f, fat_tree_packs_a_small_cluster_on_one_leaf);
    tcase_add_test(f, one_node_needs_no_fabric);
    tcase_add_test(f, one_switch_serves_a_cluster_whose_nics_fit_on_it);
    tcase_add_test(f, rejects_unusable_fabric_inputs);
    tcase_add_test(f, spine_count_never_falls_as_nodes_grow);
    tcase_add_test(f, more_oversubscription_never_needs_more_switches_or_cables);
    tcase_add_test(f, four_to_one_needs_fewer_switches_than_two_to_one_at_4096_gpus);
    tcase_add_test(f, effective_oversubscription_never_exceeds_the_request);
    suite_add_tcase(s, f);

    TCase *t = tcase_create("stage");
    tcase_add_unchecked_fixture(t, load_catalog, free_catalog);
    tcase_add_test(t, sums_training_inference_pool_and_headroom);
    tcase_add_test(t, no_pool_without_teams);
    tcase_add_test(t, stage_reports_a_less_oversubscribed_split_as_an_assumption);
    tcase_add_test(t, gpus_that_do_not_fill_a_node_round_up_and_say_so);
    tcase_add_test(t, gb200_rounds_to_whole_nvl72_racks_and_needs_liquid);
    tcase_add_test(t, rack_space_caps_nodes_per_rack_before_power);
    tcase_add_test(t, dgx_b300_racks_four_per_56_kw_air_rack);
    tcase_add_test(t, zero_rack_power_places_one_node_per_rack_and_warns);
    tcase_add_test(t, air_cooling_caps_racks_at_the_air_ceiling);
    tcase_add_test(t, unknown_plan_accelerator_builds_nothing);
    tcase_add_test(t, other_accelerators_form_islands_or_stay_in_the_cloud);
    tcase_add_test(t, a_cloud_only_plan_accelerator_has_nodes_but_no_racks);
    tcase_add_test(t, rack_groups_account_for_every_node);
    tcase_add_test(t, storage_units_are_the_largest_of_read_write_and_capacity);
    tcase_add_test(t, an_empty_plan_is_an_empty_cluster);
    suite_add_tcase(s, t);
    return s;
}
