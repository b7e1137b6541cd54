/* model/layout.h — from GPUs to nodes, NVLink domains, racks, the scale-out
 * fabric and storage (fills PlanResult.cluster). */
#ifndef GPUPLAN_MODEL_LAYOUT_H
#define GPUPLAN_MODEL_LAYOUT_H

#include "catalog.h"
#include "plan.h"

/* Reads the sized workloads and schedule.recommended_gpus / tenancy.gpus;
 * writes r->cluster and sets r->have_layout. */
void layout_stage(const Plan *p, const Catalog *c, PlanResult *r);

/* ------------------------------------------------------- scale-out fabric
 *
 * One balanced-Clos rule set builds every fabric (see layout.c for the
 * derivation from NVIDIA's DGX SuperPOD tables).  What differs between
 * switch generations is data, held in a FabricDesign: how many independent
 * planes a GPU's link is split over, the port speed and radix of a switch in
 * one plane, and how many switch ports one cable carries.
 */
typedef struct {
    const char *name;        /* "InfiniBand NDR, Quantum-2 QM9700 (64 x 400G)" */
    Fabric fabric;
    double link_gbps;        /* per-GPU link (plan network.link), Gb/s */
    int switch_ports;        /* ports per switch at link speed (plan network.switch_ports) */
    int planes;              /* independent planes one GPU link is split over */
    double port_gbps;        /* switch port speed inside a plane */
    int radix;               /* ports per switch at port_gbps */
    int ports_per_cable;     /* switch ports one counted cable carries */
    bool published;          /* a row of NVIDIA's reference designs, not derived */
    const char *source;
} FabricDesign;

typedef struct {
    int tiers;               /* 0 = no scale-out fabric (one node), 1 = one leaf, 2, 3 */
    int su_nodes;            /* nodes per scalable unit (one leaf port each, per rail) */
    int scalable_units;
    int leaf_down, leaf_up;  /* ports per leaf towards nodes / spines */
    int leaves, spines, cores;                 /* every plane */
    int links_node_leaf, links_leaf_spine, links_spine_core; /* cables */
    double uplink_ratio;     /* leaf up/down capacity, <= 1; 1 = non-blocking */
    bool too_large;          /* beyond a balanced 3-tier fabric of this radix */
} FabricLayout;

/* The design for a plan's fabric, link speed and switch radix: the matching
 * published row, else a generic single-plane design with the plan's radix at
 * the link speed (published = false).  Never fails. */
FabricDesign layout_fabric_design(Fabric fabric, double link_bps, int switch_ports);

/* Build the fabric for `nodes` nodes of `rails` NICs each (one NIC per rail).
 * oversubscription >= 1 is the most the leaves may have (values below 1
 * count as 1): the leaf split with the fewest switches, then cables, among
 * those no more oversubscribed is built (leaf_down/leaf_up, uplink_ratio say
 * which), so switches never rise with oversubscription (unless a higher o
 * makes a fabric that was too_large balanced).  Cables are the tie-break,
 * not guaranteed, but fell or held in every case tested.
 * Rail-optimized: one leaf per rail per plane per scalable unit, built for
 * whole scalable units; fat-tree: leaves packed with NIC ports.  Returns 0, or
 * -1 (out zeroed) when the design or counts are unusable (radix < 2, …). */
int layout_fabric(const FabricDesign *d, int nodes, int rails, Topology topo,
                  double oversubscription, FabricLayout *out);

/* ------------------------------------------------------- constants shared
 * with power.c (documented where defined in layout.c). */

/* Highest rack power NVIDIA publishes for an air-cooled design, kW. */
double layout_air_max_kw(void);
/* The id of a storage kind in the catalog: "lustre", "gpfs", … */
const char *layout_storage_id(StorageKind k);

#endif
