/* model/layout.c — the physical cluster: how many GPUs, in which nodes,
 * NVLink domains and racks, on what scale-out fabric, with what storage.
 *
 * GPU count.  Training workloads run side by side (each holds its GPUs),
 * inference services hold their replicas, the tenancy pool is the
 * scheduler's recommendation (else tenancy.gpus), and site.headroom is added
 * on top (PLAN-FORMAT.md "site", "tenancy").
 *
 * Other accelerators.  The cluster is built of the plan's accelerator; its
 * numbers fill ClusterResult.  A workload that names another accelerator
 * that can be bought (the catalog gives its node price and power) becomes a
 * separate island: its own nodes, racks (rack groups with that accelerator
 * id, so power and cost count them) and its own scale-out fabric (a job does
 * not span accelerator types, so the islands share no fabric); its switches,
 * links and storage needs join the site totals.  An accelerator without an
 * on-prem price or power (TPU, Trainium: cloud only) cannot be racked; the
 * workload is reported in warnings and left to the cloud options.
 *
 * Fabric rules (derived from NVIDIA's published DGX SuperPOD component
 * tables, CATALOG-FACTS.md §3.3; every row is a unit test):
 *  0. One switch: when every NIC of a plane fits on one switch (nodes x
 *     rails <= radix) that switch is the fabric; the SU rules below start
 *     when it does not (two DGX nodes do not get an SU's 8 leaves + 4 spines).
 *  1. Leaf split: a leaf of radix k gives half its ports to nodes and half to
 *     spines when non-blocking (NDR QM9700: 32 + 32 of 64; XDR Q3400: 72 + 72
 *     of 144); with oversubscription o, down = floor(k·o/(1+o)), up =
 *     ceil(down/o).  o is a ceiling, not a target: when an oversubscribed
 *     leaf with fewer node ports (down >= k/2) or more uplinks (up <= k -
 *     down) makes rules 2–4 need fewer switches, that split is built and
 *     its effective down/up is reported (so more oversubscription never
 *     costs switches; see layout_fabric()).
 *  2. Scalable unit: rail-optimized means one leaf per rail (per plane) per
 *     SU, each taking one port from every node of the SU, so an SU is `down`
 *     nodes: 32 DGX B200 (NDR), 72 DGX B300 (XDR), 64 DGX B300 (Spectrum-X
 *     twin-plane, 128 x 400G per plane).  The fabric is built for whole SUs:
 *     NVIDIA: "the fabric should be designed to support the full SU,
 *     including leaf switches and leaf-spine cables" (SP-B300 / SP-B200
 *     "Network Fabrics").
 *  3. Balanced spine layer: every leaf spreads its `up` ports evenly over
 *     every spine, so the spine count S must divide `up`, and the spines
 *     must have the ports: S·k >= leaves·up.  S is the smallest divisor of
 *     `up` that is at least ceil(leaves·up/k).  This is what makes the
 *     XDR table read 18 spines at 4 SU (16 would do by ports, but 72 uplinks
 *     do not split evenly over 16) and 36 at 8 SU, and the B200 3-SU row 16.
 *  4. Two tiers while one spine can reach every leaf of a plane (leaves <=
 *     k); beyond that a core tier appears: B200 NDR goes from 64 leaves
 *     (8 SU, 2 tiers) to 128 (16 SU, 3 tiers with 128 spines, 64 cores).  In
 *     three tiers spines give half their ports down, half up; each SU is a
 *     spine-leaf group ("pod", NVIDIA's SLG) whose spines follow rule 3 with
 *     k/2 down-ports; spine j of every pod goes to core group j, whose size
 *     follows rule 3 again (divisor of the spine's k/2 uplinks, enough core
 *     ports).  When there are more pods than a core has ports, pods double
 *     in size (still within k/2 leaves).
 *  5. Planes: a GPU link may be split over independent planes (Spectrum-X
 *     twin-plane: 2 x 400GbE per 800G GPU link, SP-B300 "Network Fabrics");
 *     each plane is its own fabric by rules 1–4, and one counted cable
 *     carries `ports_per_cable` switch ports (twin-port 800G).
 * The rules are the same for every generation; what differs is data
 * (FabricDesign): planes, port speed, radix, ports per cable.  That is why
 * the designs are a table and not branches.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"

/* Highest air-cooled rack NVIDIA publishes: DGX SuperPOD B300-XDR (PDU/AC,
 * air-cooled DGX B300), four systems per rack at "~56kW" (SP-B300x,
 * CATALOG-FACTS §3.2).  NVIDIA states no explicit air limit (NOT FOUND);
 * racks above this are treated as needing liquid cooling. */
#define LAYOUT_AIR_MAX_KW 56.0

/* Switches per network rack when power allows: an assumption (no source
 * gives a number; 1U QM9700 / 2U SN5600-class switches plus patch panels fit
 * 16 in a 42U rack). */
#define LAYOUT_SWITCHES_PER_RACK 16
/* Storage building blocks per storage rack when power allows: an assumption
 * (2U-4U appliances such as the DDN AI400X2, CATALOG-FACTS §4.2). */
#define LAYOUT_STORAGE_UNITS_PER_RACK 8
/* Upper bound on GPUs in one plan, keeping every count inside int. */
#define LAYOUT_MAX_GPUS 10000000.0

static const FabricDesign fabric_designs[] = {
    /* B200 SuperPOD, IB NDR: 32 DGX B200 per SU, 8 leaves per SU, 2 tiers up to
     * 8 SU, a core tier from 16 SU (all six table rows are tests). */
    {"InfiniBand NDR, Quantum-2 QM9700 (64 x 400G)", FABRIC_INFINIBAND, 400, 64, 1, 400, 64, 1,
     true,
     "NVIDIA DGX SuperPOD B200 RA, 'Larger DGX SuperPOD component counts' (CATALOG-FACTS 3.3)"},
    /* B300 SuperPOD XDR: 72 DGX B300 per SU, 8 leaves, spines by rule 3. */
    {"InfiniBand XDR, Quantum-X800 Q3400 (144 x 800G)", FABRIC_INFINIBAND, 800, 144, 1, 800, 144,
     1, true, "NVIDIA DGX SuperPOD B300-XDR RA, Table 3 (CATALOG-FACTS 3.3)"},
    /* B300 SuperPOD busbar, Spectrum-X: "Each GPU has 2x 400GbE connectivity
     * through two different planes"; SN5600 = 64 x 800G = 128 x 400G; one
     * 800G twin-port cable carries two 400G ports.  64 DGX B300 per SU, 16
     * leaves (8 rails x 2 planes), 2 tiers to 16 SU. */
    {"Spectrum-X twin-plane, SN5600 (64 x 800G = 2 planes of 128 x 400G)", FABRIC_ROCE, 800, 64, 2,
     400, 128, 2, true,
     "NVIDIA DGX SuperPOD B300 (Spectrum-4, DC busbar) RA, Table 3 and 'Network Fabrics'"},
};

double layout_air_max_kw(void)
{
    return LAYOUT_AIR_MAX_KW;
}

const char *layout_storage_id(StorageKind k)
{
    switch (k) {
    case STORAGE_LUSTRE: return "lustre";
    case STORAGE_GPFS: return "gpfs";
    case STORAGE_WEKA: return "weka";
    case STORAGE_VAST: return "vast";
    case STORAGE_NFS: return "nfs";
    default: return "lustre";
    }
}

FabricDesign layout_fabric_design(Fabric fabric, double link_bps, int switch_ports)
{
    double gbps = isfinite(link_bps) && link_bps > 0 ? link_bps / 1e9 : 400;
    for (size_t i = 0; i < sizeof fabric_designs / sizeof fabric_designs[0]; i++) {
        const FabricDesign *d = &fabric_designs[i];
        if (d->fabric == fabric && fabs(d->link_gbps - gbps) < 0.5 && d->switch_ports == switch_ports)
            return *d;
    }
    FabricDesign g = {
        .name = "generic balanced Clos (the plan's radix at the link speed, one plane)",
        .fabric = fabric,
        .link_gbps = gbps,
        .switch_ports = switch_ports,
        .planes = 1,
        .port_gbps = gbps,
        .radix = switch_ports,
        .ports_per_cable = 1,
        .published = false,
        .source = "rules derived from NVIDIA DGX SuperPOD tables (model/layout.c)",
    };
    return g;
}

static long ceil_div(long a, long b)
{
    return b > 0 ? (a + b - 1) / b : 0;
}

/* Smallest divisor of n that is >= lo (rule 3).  When none exists (lo > n)
 * returns lo and sets *unbalanced: the layer cannot be balanced. */
static long divisor_at_least(long n, long lo, bool *unbalanced)
{
    if (lo < 1)
        lo = 1;
    for (long d = lo; d <= n; d++)
        if (n % d == 0)
            return d;
    if (unbalanced)
        *unbalanced = true;
    return lo;
}

/* Cores of one core group fed by `pods` spines of spine_up uplinks each. */
static long core_group(long pods, long spine_up, long radix, bool *unbalanced)
{
    if (pods <= 0)
        return 0;
    return divisor_at_least(spine_up, ceil_div(pods * spine_up, radix), unbalanced);
}

static int clamp_int(long v)
{
    return v > 2000000000L ? 2000000000 : (int)v;
}

/* The fabric of rules 0 and 2–5 for one leaf split (down, up): everything
 * but leaf_down, leaf_up, uplink_ratio, su_nodes (set by the caller). */
static void fabric_build(const FabricDesign *d, long nodes, long rails, Topology topo, long down,
                         long up, FabricLayout *o)
{
    long k = d->radix;
    long su = ceil_div(nodes, down);
    o->scalable_units = clamp_int(su);
    o->tiers = 0;
    o->leaves = o->spines = o->cores = 0;
    o->links_node_leaf = o->links_leaf_spine = o->links_spine_core = 0;
    o->too_large = false;
    if (nodes <= 1)
        return; /* one node: NVLink only, no scale-out fabric */

    long planes = d->planes, ppc = d->ports_per_cable;
    long nics = nodes * rails;
    o->links_node_leaf = clamp_int(ceil_div(nics * planes, ppc));

    /* Rule 0: when every NIC of a plane fits on one switch, that switch is
     * the fabric (one hop between any two NICs, so it is rail-optimized and
     * non-blocking by construction).  Building a whole SU's rail leaves and
     * spines instead would put 12 switches and ~270 cables ($2.5M at the
     * catalog's prices) behind two 8-GPU nodes. */
    if (nics <= k) {
        o->leaves = clamp_int(planes);
        o->tiers = 1;
        return;
    }

    /* rule 2: leaves of one plane */
    long lp = topo == TOPO_FAT_TREE ? ceil_div(nics, down) : su * rails;
    o->leaves = clamp_int(lp * planes);
    if (lp == 1) {
        o->tiers = 1;
        return;
    }
    bool unbalanced = false;
    if (lp <= k) {
        /* rules 3–4: two tiers */
        long s = divisor_at_least(up, ceil_div(lp * up, k), &unbalanced);
        o->tiers = 2;
        o->spines = clamp_int(s * planes);
        o->links_leaf_spine = clamp_int(ceil_div(lp * up * planes, ppc));
        o->too_large = unbalanced;
        return;
    }

    /* rule 4: three tiers of pods (spine-leaf groups) */
    long spine_down = k / 2, spine_up = k - k / 2;
    long pod = rails < spine_down ? rails : spine_down;
    if (topo == TOPO_FAT_TREE && pod < 1)
        pod = 1;
    long pods = ceil_div(lp, pod);
    while (pods > k && pod * 2 <= spine_down) {
        pod *= 2;
        pods = ceil_div(lp, pod);
    }
    if (pods > k)
        unbalanced = true;
    long s_pod = divisor_at_least(up, ceil_div(pod * up, spine_down), &unbalanced);
    long last = lp - (pods - 1) * pod;
    long s_last = divisor_at_least(up, ceil_div(last * up, spine_down), &unbalanced);
    long spines = (pods - 1) * s_pod + s_last;
    /* core group j collects spine j of every pod: the first s_last groups
     * have `pods` members, the rest one fewer */
    long cores = s_last * core_group(pods, spine_up, k, &unbalanced) +
                 (s_pod - s_last) * core_group(pods - 1, spine_up, k, &unbalanced);
    o->tiers = 3;
    o->spines = clamp_int(spines * planes);
    o->cores = clamp_int(cores * planes);
    o->links_leaf_spine = clamp_int(ceil_div(lp * up * planes, ppc));
    o->links_spine_core = clamp_int(ceil_div(spines * spine_up * planes, ppc));
    o->too_large = unbalanced;
}

static long fabric_switches(const FabricLayout *o)
{
    return (long)o->leaves + o->spines + o->cores;
}

static long fabric_links(const FabricLayout *o)
{
    return (long)o->links_node_leaf + o->links_leaf_spine + o->links_spine_core;
}

/* Is layout a better than b: fewer switches, then fewer cables; a fabric
 * that cannot be balanced only beats another that cannot either. */
static bool fabric_better(const FabricLayout *a, const FabricLayout *b)
{
    if (a->too_large != b->too_large)
        return !a->too_large;
    if (fabric_switches(a) != fabric_switches(b))
        return fabric_switches(a) < fabric_switches(b);
    return fabric_links(a) < fabric_links(b);
}

int layout_fabric(const FabricDesign *d, int nodes, int rails, Topology topo,
                  double oversubscription, FabricLayout *o)
{
    if (!o)
        return -1;
    memset(o, 0, sizeof *o);
    if (!d || d->radix < 2 || d->planes < 1 || d->ports_per_cable < 1 || nodes < 0 || rails < 1)
        return -1;
    double os = isfinite(oversubscription) && oversubscription > 1 ? oversubscription : 1;
    long k = d->radix;

    /* Rule 1, the requested split: down = floor(k·o/(1+o)), the most node
     * ports a leaf can have with up >= down/o.  The scheduler's leaf group
     * (sched_leaf_gpus()) assumes this down; the split built below may have
     * fewer, which the stage reports. */
    long dmax = (long)floor((double)k * os / (1.0 + os) + 1e-9);
    if (dmax > k - 1)
        dmax = k - 1;
    long dmin = k / 2;
    if (dmax < dmin)
        dmax = dmin;
    long nics = (long)nodes * rails;
    if (nodes <= 1 || nics <= k) {
        /* no fabric or one switch (rule 0): the split is not built */
        long up = (long)ceil((double)dmax / os - 1e-9);
        up = up < 1 ? 1 : up > k - dmax ? k - dmax : up;
        o->leaf_down = (int)dmax;
        o->leaf_up = (int)up;
        o->uplink_ratio = up >= dmax ? 1.0 : (double)up / (double)dmax;
        o->su_nodes = (int)dmax;
        if (nodes > 0)
            fabric_build(d, nodes, rails, topo, dmax, up, o);
        return 0;
    }

    /* Rule 1, the split actually built.  Oversubscription is a ceiling a
     * planner accepts to save switches, so it must never cost switches: a
     * leaf may give fewer ports to nodes (down from k/2, the non-blocking
     * split, to dmax) and any up in [ceil(down/o), k - down] — more uplinks
     * only lower the effective oversubscription down/up.  Rule 3's even
     * split makes the switch count jump with the divisors of `up` (at 4:1 on
     * 64 ports, up = 13 is prime and every SU pod needs 13 spines), so the
     * builder takes the split with the fewest switches, then the fewest
     * cables, then the most down-ports and fewest up-ports (the requested
     * split when it is as good).  The candidates at a higher o include every
     * candidate at a lower o, so switches never rise with oversubscription
     * (a balanced fabric beats a too_large one, so a higher o that makes
     * the fabric balanced may cost switches; cables, the tie-break, are not
     * guaranteed to fall but did in every size tested);
     * non-blocking (o = 1, even k) has one candidate, k/2 + k/2, so the
     * published SuperPOD rows are untouched.
     * Pruning: spines >= leaves·up/k in both 2 and 3 tiers (a spine has k
     * ports, a 3-tier spine k/2 down), and cables >= node cables + leaves·up
     * (per plane, ports_per_cable each), so a split whose bound is already
     * worse than the best is skipped; leaves only grow as down falls. */
    FabricLayout best, cand;
    memset(&best, 0, sizeof best);
    long best_d = 0, best_u = 0;
    long planes = d->planes, ppc = d->ports_per_cable;
    for (long dn = dmax; dn >= dmin; dn--) {
        long umin = (long)ceil((double)dn / os - 1e-9);
        if (umin < 1)
            umin = 1;
        if (umin > k - dn)
            continue;
        long lp = topo == TOPO_FAT_TREE ? ceil_div(nics, dn) : ceil_div(nodes, dn) * rails;
        if (best_d && !best.too_large && lp * planes > fabric_switches(&best))
            break; /* more leaves alone than the best fabric's switches */
        for (long u = umin; u <= k - dn; u++) {
            if (best_d && !best.too_large && lp > 1) {
                long sw_lb = lp * planes + ceil_div(lp * u, k) * planes;
                long ln_lb = ceil_div(nics * planes, ppc) + ceil_div(lp * u * planes, ppc);
                if (sw_lb > fabric_switches(&best) ||
                    (sw_lb == fabric_switches(&best) && ln_lb >= fabric_links(&best)))
                    break; /* both bounds grow with u */
            }
            fabric_build(d, nodes, rails, topo, dn, u, &cand);
            if (!best_d || fabric_better(&cand, &best)) {
                best = cand;
                best_d = dn;
                best_u = u;
            }
        }
    }
    *o = best;
    o->leaf_down = (int)best_d;
    o->leaf_up = (int)best_u;
    o->uplink_ratio = best_u >= best_d ? 1.0 : (double)best_u / (double)best_d;
    o->su_nodes = (int)best_d;
    return 0;
}

/* ------------------------------------------------------------ the stage */

typedef struct {
    const Accelerator *a;
    int need;            /* GPUs the workloads (and pool) need */
    int headroom;
    int gpus;            /* installed */
    int gpn, domain, nodes, domains;
    int nodes_per_rack, racks;
    double node_kw, rack_kw;
    FabricLayout fab;
} Island;

#define LAYOUT_MAX_ISLANDS (PLAN_MAX_WORKLOADS + 1)

static double finite_or(double v, double dflt)
{
    return isfinite(v) ? v : dflt;
}

/* Nodes, domains, racks and fabric of one island.  limit_kw is the usable
 * rack power (already capped for air cooling); rack_units the rack space
 * (0 = not limited). */
static void island_build(const Plan *p, Island *is, double limit_kw, int rack_units,
                         const FabricDesign *fd, PlanResult *r)
{
    const Accelerator *a = is->a;
    is->gpn = a->gpus_per_node > 0 ? a->gpus_per_node : 1;
    if (a->gpus_per_node <= 0)
        result_warn(r, "cluster: %s has no gpus_per_node in the catalog; 1 GPU per node assumed",
                    a->id);
    is->domain = a->scaleup_domain > 0 ? a->scaleup_domain : is->gpn;
    long total = (long)is->need + is->headroom;
    /* A scale-up domain larger than a node (GB200 NVL72: 18 trays of 4) is
     * bought and racked whole, so round up to whole domains. */
    is->node_kw = finite_or(a->node_power_w, 0) / 1000.0;
    bool rackable = is->node_kw > 0;
    bool rack_domain = rackable && is->domain > is->gpn && is->domain % is->gpn == 0;
    long unit = rack_domain ? is->domain : is->gpn;
    long nodes = ceil_div(total, unit) * (unit / is->gpn);
    is->nodes = (int)nodes;
    is->gpus = (int)(nodes * is->gpn);
    /* Rounding up is how clusters are bought, not a risk: say it beside the
     * numbers, not among the warnings. */
    if (is->gpus > total && total > 0)
        result_assume(r, "cluster",
                      "%ld %s GPUs rounded up to whole %ld-GPU %s: %d installed, %ld spare",
                      total, a->id, unit, rack_domain ? "NVLink domains" : "nodes", is->gpus,
                      is->gpus - total);
    is->domains = (int)ceil_div(is->gpus, is->domain);
    if (!rackable) {
        /* a cloud-only accelerator (TPU, Trainium): nodes, no racks */
        if (nodes > 0)
            result_warn(r, "cluster: %s has no node power in the catalog (cloud only); nodes "
                        "counted, no racks", a->id);
        is->nodes_per_rack = 0;
        is->racks = 0;
    } else {
        is->nodes_per_rack = rack_domain ? is->domain / is->gpn
                                         : (int)floor(limit_kw / is->node_kw + 1e-9);
        /* A rack also has only so many units: with a liquid budget of
         * 100+ kW it is space, not power, that caps air-cooled chassis. */
        int space = rack_units > 0 && a->node_rack_units > 0 ? rack_units / a->node_rack_units
                                                             : 0;
        if (!rack_domain && space > 0 && space < is->nodes_per_rack) {
            result_assume(r, "cluster",
                          "%s racks hold %d nodes: %dU of rack space / %dU per node, before "
                          "the %.0f kW power limit (%d)",
                          a->id, space, rack_units, a->node_rack_units, limit_kw,
                          is->nodes_per_rack);
            is->nodes_per_rack = space;
        }
        if (is->nodes_per_rack < 1)
            is->nodes_per_rack = 1;
    }
    is->rack_kw = is->node_kw * is->nodes_per_rack;
    if (nodes > 0 && is->rack_kw > limit_kw + 1e-9) {
        if (rack_domain)
            result_warn(r, "cluster: one %s rack (%d-GPU NVLink domain) draws %.0f kW, above the "
                        "%.0f kW rack limit", a->id, is->domain, is->rack_kw, limit_kw);
        else
            result_warn(r, "cluster: one %s node draws %.1f kW, above the %.0f kW rack limit",
                        a->id, is->node_kw, limit_kw);
    }
    is->racks = (int)ceil_div(nodes, is->nodes_per_rack);

    if (!rackable)
        return; /* the provider's scale-out network, not ours to build */
    int rails = a->nics_per_node > 0 ? a->nics_per_node : is->gpn;
    if (layout_fabric(fd, is->nodes, rails, p->network.topology, p->network.oversubscription,
                      &is->fab) != 0)
        result_warn(r, "cluster: switch_ports %d cannot build a fabric", p->network.switch_ports);
    /* The builder may pick a less oversubscribed leaf split than asked when
     * that needs fewer switches (rule 1): a design choice, not a risk. */
    double asked = isfinite(p->network.oversubscription) && p->network.oversubscription > 1
                       ? p->network.oversubscription
                       : 1;
    double eff_os = is->fab.uplink_ratio > 0 ? 1.0 / is->fab.uplink_ratio : 1;
    if (is->fab.tiers >= 2 && fabs(eff_os - asked) > 1e-9)
        result_assume(r, "cluster",
                      "%s fabric: leaves split %d ports to nodes and %d to spines "
                      "(scalable units of %d nodes), %.3g:1 effective oversubscription "
                      "(%.3g:1 allowed), because that needs the fewest switches",
                      a->id, is->fab.leaf_down, is->fab.leaf_up, is->fab.su_nodes, eff_os,
                      asked);
    if (is->fab.too_large)
        result_warn(r, "cluster: %d %s nodes exceed a balanced 3-tier fabric of %d-port switches",
                    is->nodes, a->id, fd->radix);
}

static void add_group(PlanResult *r, int count, int nodes, double kw, const char *role,
                      const char *acc)
{
    ClusterResult *k = &r->cluster;
    if (count <= 0)
        return;
    if (k->n_rack_groups >= PLAN_MAX_RACK_GROUPS) {
        result_warn(r, "cluster: more rack kinds than the %d listed; %s racks not listed",
                    PLAN_MAX_RACK_GROUPS, role);
        return;
    }
    RackGroup *g = &k->rack_groups[k->n_rack_groups++];
    memset(g, 0, sizeof *g);
    g->count = count;
    g->nodes = nodes;
    g->kw = kw;
    snprintf(g->role, sizeof g->role, "%s", role);
    snprintf(g->accelerator, sizeof g->accelerator, "%s", acc ? acc : "");
}

/* Full racks and the one partly filled rack of an island, so that
 * sum(count * nodes) is exactly the island's nodes (power and cost rely on
 * it). */
static void island_groups(PlanResult *r, const Island *is)
{
    if (is->nodes <= 0 || is->nodes_per_rack <= 0)
        return;
    int full = is->nodes / is->nodes_per_rack, rest = is->nodes % is->nodes_per_rack;
    add_group(r, full, is->nodes_per_rack, is->rack_kw, "compute", is->a->id);
    add_group(r, rest > 0 ? 1 : 0, rest, rest * is->node_kw, "compute", is->a->id);
}

/* Racks for `items` boxes of `each_w` watts, at most `cap` per rack and as
 * many as the rack power allows. */
static void box_groups(PlanResult *r, int items, double each_w, int cap, double limit_kw,
                       const char *role)
{
    if (items <= 0)
        return;
    int per = cap;
    if (each_w > 0) {
        int by_power = (int)floor(limit_kw * 1000.0 / each_w + 1e-9);
        if (by_power < per)
            per = by_power;
    }
    if (per < 1)
        per = 1;
    int racks = (items + per - 1) / per;
    int in_hottest = items < per ? items : per;
    add_group(r, racks, in_hottest, in_hottest * each_w / 1000.0, role, "");
}

static int to_gpus(double g)
{
    if (!isfinite(g) || g <= 0)
        return 0;
    return g > LAYOUT_MAX_GPUS ? (int)LAYOUT_MAX_GPUS : (int)ceil(g - 1e-9);
}

/* a + b for GPU counts, saturating at LAYOUT_MAX_GPUS (never overflows). */
static int sat_add(int a, int b)
{
    double v = (double)a + b;
    return v >= LAYOUT_MAX_GPUS ? (int)LAYOUT_MAX_GPUS : v <= 0 ? 0 : (int)v;
}

static Island *island_for(Island *isl, int *n, const Catalog *c, const char *id)
{
    const Accelerator *a = catalog_find_accelerator(c, id);
    if (!a)
        return NULL;
    for (int i = 0; i < *n; i++)
        if (isl[i].a == a)
            return &isl[i];
    if (*n >= LAYOUT_MAX_ISLANDS)
        return NULL;
    Island *is = &isl[(*n)++];
    memset(is, 0, sizeof *is);
    is->a = a;
    return is;
}

/* An accelerator that can be bought and racked: the catalog knows what one
 * node costs and draws. */
static bool can_rack(const Accelerator *a)
{
    return a->node_power_w > 0 && a->node_price_usd > 0;
}

/* Storage bandwidth, capacity and building blocks (SIZING-MODEL.md §5,
 * CATALOG-FACTS.md §4). */
static void storage_size(const Plan *p, const Catalog *c, PlanResult *r, const bool *counted,
                         int total_gpus)
{
    ClusterResult *k = &r->cluster;
    double read_need = 0, write = 0, ckpts = 0;
    int kept = p->storage.checkpoints_kept > 0 ? p->storage.checkpoints_kept : 0;
    for (int i = 0; i < r->n_workloads && i < p->n_workloads; i++) {
        const TrainResult *t = &r->workloads[i].train;
        if (!counted[i] || p->workloads[i].kind != WL_TRAINING)
            continue;
        read_need += finite_or(t->dataset_read_Bps, 0) > 0 ? t->dataset_read_Bps : 0;
        double wb = finite_or(t->checkpoint_write_Bps, 0);
        if (wb > write)
            write = wb;
        /* every training workload keeps its own `checkpoints_kept` */
        ckpts += kept * (finite_or(t->checkpoint_bytes, 0) > 0 ? t->checkpoint_bytes : 0);
    }
    /* GPUDirect rule of thumb per GPU (DDN's "usual minimum requirement of
     * 1 GB/s/GPU", CATALOG-FACTS §4.1; the figure is the catalog's). */
    double per_gpu = finite_or(c->costs.gpudirect_read_bw_per_gpu, 0);
    double rule = per_gpu > 0 ? per_gpu * total_gpus : 0;
    k->storage_read_Bps = read_need > rule ? read_need : rule;
    k->storage_write_Bps = write;
    double dataset = finite_or(p->storage.dataset_bytes, 0) > 0 ? p->storage.dataset_bytes : 0;
    k->storage_capacity_bytes = dataset + ckpts;
    if (rule > 0 && rule >= read_need)
        result_assume(r, "cluster",
                      "storage read %.0f GB/s from the GPUDirect rule of thumb %.2f GB/s per GPU "
                      "(%s), above the datasets' streaming need %.1f GB/s",
                      rule / 1e9, per_gpu / 1e9, c->costs.source, read_need / 1e9);

    double need_any = k->storage_read_Bps + k->storage_write_Bps + k->storage_capacity_bytes;
    if (need_any <= 0)
        return;
    const char *id = layout_storage_id(p->storage.system);
    const StorageSystem *s = catalog_find_storage(c, id);
    if (!s) {
        result_warn(r, "cluster: storage system '%s' is not in the catalog; storage not sized", id);
        return;
    }
    double by[3] = {0, 0, 0};
    const double need[3] = {k->storage_read_Bps, k->storage_write_Bps, k->storage_capacity_bytes};
    const double unit[3] = {s->unit_read_bw, s->unit_write_bw, s->unit_capacity_bytes};
    const char *what[3] = {"read bandwidth", "write bandwidth", "capacity"};
    double units = 0;
    for (int i = 0; i < 3; i++) {
        if (need[i] <= 0)
            continue;
        if (!(finite_or(unit[i], 0) > 0)) {
            result_assume(r, "cluster", "the catalog gives no %s per %s unit: not sized by it",
                          what[i], id);
            continue;
        }
        by[i] = ceil(need[i] / unit[i] - 1e-9);
        if (by[i] > units)
            units = by[i];
    }
    k->storage_units = units > LAYOUT_MAX_GPUS ? (int)LAYOUT_MAX_GPUS : (int)units;
    if (k->storage_units > 0 && !(finite_or(s->unit_power_w, 0) > 0 && finite_or(s->unit_price_usd, 0) > 0))
        result_assume(r, "cluster", "%s: the catalog gives no unit %s; counted as 0", id,
                      finite_or(s->unit_power_w, 0) > 0 ? "price" : "power or price");
    result_assume(r, "cluster",
                  "storage: %d x %s (%.0f GB/s read, %.0f GB/s write, %.0f TB each; %s, %s); "
                  "units by read %.0f, write %.0f, capacity %.0f",
                  k->storage_units, s->unit_name, s->unit_read_bw / 1e9, s->unit_write_bw / 1e9,
                  s->unit_capacity_bytes / 1e12, s->source, s->as_of, by[0], by[1], by[2]);
}

void layout_stage(const Plan *p, const Catalog *c, PlanResult *r)
{
    ClusterResult *k = &r->cluster;
    memset(k, 0, sizeof *k);
    snprintf(k->accelerator, sizeof k->accelerator, "%s", p->accelerator);
    r->have_layout = true;

    Island isl[LAYOUT_MAX_ISLANDS];
    int n = 0;
    Island *mi = island_for(isl, &n, c, p->accelerator);
    if (!mi)
        result_warn(r, "cluster: the plan's accelerator '%s' is not in the catalog; no cluster "
                    "built", p->accelerator);
    bool counted[PLAN_MAX_WORKLOADS] = {false};

    /* GPUs each workload holds (dedicated capacity, side by side) */
    for (int i = 0; i < r->n_workloads && i < p->n_workloads; i++) {
        const Workload *w = &p->workloads[i];
        const WorkloadResult *wr = &r->workloads[i];
        int g = w->kind == WL_TRAINING ? wr->train.gpus : wr->infer.gpus;
        if (g <= 0 && w->kind == WL_TRAINING)
            g = w->gpus;
        if (g <= 0) {
            result_warn(r, "cluster: %s was sized to no GPUs and is not in the cluster", w->name);
            continue;
        }
        const char *id = wr->accelerator[0] ? wr->accelerator : workload_accelerator(p, w);
        Island *is = island_for(isl, &n, c, id);
        if (!is)
            continue; /* unknown accelerator: sizing already reported it */
        if (is != mi && !can_rack(is->a)) {
            result_warn(r, "cluster: %s runs on %s, which has no on-prem node price and power "
                        "(cloud only); its %d GPUs are left to the cloud options", w->name, id, g);
            continue;
        }
        counted[i] = true;
        is->need = sat_add(is->need, g);
        if (is == mi) {
            if (w->kind == WL_TRAINING)
                k->gpus_training = sat_add(k->gpus_training, g);
            else
                k->gpus_inference = sat_add(k->gpus_inference, g);
        }
    }

    /* the tenancy pool, on the plan's accelerator */
    if (mi && (p->tenancy.n_teams > 0 || p->tenancy.n_trace_jobs > 0)) {
        int pool = r->schedule.recommended_gpus > 0 ? r->schedule.recommended_gpus
                   : p->tenancy.gpus > 0            ? p->tenancy.gpus
                                                    : r->schedule.gpus;
        k->gpus_pool = pool > 0 ? pool : 0;
        mi->need = sat_add(mi->need, k->gpus_pool);
    }

    double headroom = finite_or(p->site.headroom, 0);
    if (headroom < 0)
        headroom = 0;

    /* usable rack power */
    double limit = finite_or(p->site.rack_power_kw, 0);
    if (limit <= 0) {
        limit = 0;
        result_warn(r, "cluster: site.rack_power_kw is 0: no rack can take a node; one node per "
                    "rack assumed");
    }
    double eff = limit;
    if (p->site.cooling == COOLING_AIR && limit > LAYOUT_AIR_MAX_KW) {
        eff = LAYOUT_AIR_MAX_KW;
        result_assume(r, "cluster",
                      "air-cooled racks filled to %.0f kW, the highest air-cooled rack NVIDIA "
                      "publishes (DGX SuperPOD B300-XDR, ~56 kW), not the %.0f kW limit",
                      LAYOUT_AIR_MAX_KW, limit);
    }

    FabricDesign fd = layout_fabric_design(p->network.fabric, p->network.link_bps,
                                           p->network.switch_ports);
    result_assume(r, "cluster", "fabric: %s%s; %s", fd.name,
                  fd.published ? "" : " (no published design matches)", fd.source);

    int total_gpus = 0;
    long leaves = 0, spines = 0, cores = 0, l1 = 0, l2 = 0, l3 = 0;
    for (int i = 0; i < n; i++) {
        Island *is = &isl[i];
        is->headroom = to_gpus(is->need * headroom);
        if ((double)is->need + is->headroom >= LAYOUT_MAX_GPUS) {
            result_warn(r, "cluster: %.0f or more %s GPUs is beyond what gpuplan models; capped",
                        LAYOUT_MAX_GPUS, is->a->id);
            is->need = (int)LAYOUT_MAX_GPUS;
            is->headroom = 0;
        }
        if (is->need + is->headroom <= 0 && is != mi)
            continue;
        island_build(p, is, eff, c->costs.rack_units, &fd, r);
        total_gpus += is->gpus;
        if (is->gpus > 0 && k->n_islands < PLAN_MAX_RACK_GROUPS) {
            /* the plan's own part first, as the header reads them */
            int at = is == mi ? 0 : k->n_islands;
            if (at == 0 && k->n_islands > 0)
                memmove(&k->islands[1], &k->islands[0], (size_t)k->n_islands * sizeof k->islands[0]);
            snprintf(k->islands[at].accelerator, sizeof k->islands[at].accelerator, "%s",
                     is->a->id);
            k->islands[at].gpus = is->gpus;
            k->n_islands++;
        }
        leaves += is->fab.leaves;
        spines += is->fab.spines;
        cores += is->fab.cores;
        l1 += is->fab.links_node_leaf;
        l2 += is->fab.links_leaf_spine;
        l3 += is->fab.links_spine_core;
        if (is != mi && is->nodes > 0)
            result_warn(r, "cluster: %d %s GPUs (%d nodes, %d racks) form a separate island with "
                        "its own fabric", is->gpus, is->a->id, is->nodes, is->racks);
        if (is->a->liquid_cooled || is->rack_kw > LAYOUT_AIR_MAX_KW)
            k->liquid_required = k->liquid_required || is->nodes > 0;
    }

    if (mi) {
        k->gpus = mi->gpus;
        k->gpus_headroom = mi->headroom;
        k->gpus_per_node = mi->gpn;
        k->nodes = mi->nodes;
        k->gpus_per_domain = mi->domain;
        k->nvlink_domains = mi->domains;
        k->racks = mi->racks;
        k->nodes_per_rack = mi->nodes > 0 ? mi->nodes_per_rack : 0;
        k->scalable_units = mi->fab.scalable_units;
        double link = finite_or(p->network.link_bps, 0) > 0 ? p->network.link_bps : 0;
        k->scaleout_bw_per_gpu = mi->nodes > 0 ? link / 8.0 * mi->fab.uplink_ratio : 0;
    }
    k->leaf_switches = clamp_int(leaves);
    k->spine_switches = clamp_int(spines);
    k->core_switches = clamp_int(cores);
    k->links_node_leaf = clamp_int(l1);
    k->links_leaf_spine = clamp_int(l2);
    k->links_spine_core = clamp_int(l3);
    k->links = clamp_int(l1 + l2 + l3);

    storage_size(p, c, r, counted, total_gpus);

    /* rack groups: the plan's accelerator, network, storage, other islands */
    if (mi)
        island_groups(r, mi);
    box_groups(r, k->leaf_switches + k->spine_switches + k->core_switches,
               finite_or(c->costs.switch_power_w, 0), LAYOUT_SWITCHES_PER_RACK, eff, "network");
    const StorageSystem *ss = catalog_find_storage(c, layout_storage_id(p->storage.system));
    box_groups(r, k->storage_units, ss ? finite_or(ss->unit_power_w, 0) : 0,
               LAYOUT_STORAGE_UNITS_PER_RACK, eff, "storage");
    for (int i = 0; i < n; i++)
        if (&isl[i] != mi)
            island_groups(r, &isl[i]);
    if (k->nodes > 0)
        result_assume(r, "cluster",
                      "%d nodes of %.1f kW per %.0f kW rack (power%s); %d switches and %d "
                      "storage units per rack at most",
                      k->nodes_per_rack, mi ? mi->node_kw : 0, eff,
                      c->costs.rack_units > 0 && mi && mi->a->node_rack_units > 0
                          ? " and rack space"
                          : " only: the catalog gives no node height",
                      LAYOUT_SWITCHES_PER_RACK, LAYOUT_STORAGE_UNITS_PER_RACK);
}
