/* model/power.c — the power budget of the cluster that layout.c built.
 *
 * IT load = compute nodes x node power (catalog, per accelerator of each
 * compute rack group) + switches x switch power + storage units x unit power
 * (catalog CostAssumptions / StorageSystem).  Facility load = IT x PUE
 * (site.pue; Uptime Institute puts the industry average at 1.55–1.59 since
 * 2020, new facilities at ~1.3, CATALOG-FACTS §3.4).  Energy is counted at
 * that load all year: an upper bound, the budget a site must be able to
 * supply.
 *
 * Cooling verdict: liquid is required when an accelerator is liquid-cooled
 * in the catalog (GB200 NVL72, CATALOG-FACTS §3.2) or the hottest rack is
 * above the air-cooling ceiling (layout_air_max_kw(): the ~56 kW air-cooled
 * DGX B300 rack of NVIDIA's B300-XDR SuperPOD; NVIDIA publishes no explicit
 * air limit).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "power.h"

#define HOURS_PER_YEAR 8760.0

static double nonneg(double v)
{
    return isfinite(v) && v > 0 ? v : 0;
}

void power_stage(const Plan *p, const Catalog *c, PlanResult *r)
{
    PowerResult *w = &r->power;
    const ClusterResult *k = &r->cluster;
    memset(w, 0, sizeof *w);
    r->have_power = true;

    double hottest = 0, hottest_any = 0;
    for (int i = 0; i < k->n_rack_groups; i++) {
        const RackGroup *g = &k->rack_groups[i];
        if (g->kw > hottest_any)
            hottest_any = g->kw;
        if (strcmp(g->role, "compute") != 0)
            continue;
        const Accelerator *a = catalog_find_accelerator(c, g->accelerator);
        if (a)
            w->gpu_nodes_kw += (double)g->count * g->nodes * nonneg(a->node_power_w) / 1000.0;
        if (g->kw > hottest)
            hottest = g->kw;
    }
    double switches = (double)k->leaf_switches + k->spine_switches + k->core_switches;
    w->network_kw = switches * nonneg(c->costs.switch_power_w) / 1000.0;
    const StorageSystem *s = catalog_find_storage(c, layout_storage_id(p->storage.system));
    /* storage power: the plan's own W per PB (site.prices.storage_w_per_pb)
     * over the installed capacity, else the catalog's building blocks */
    const Quote *wq = &p->site.prices.storage_w_per_pb;
    if (wq->source[0])
        w->storage_kw = nonneg(k->storage_capacity_bytes) / 1e15 * nonneg(wq->value) / 1000.0;
    else
        w->storage_kw = s ? k->storage_units * nonneg(s->unit_power_w) / 1000.0 : 0;
    w->it_kw = w->gpu_nodes_kw + w->network_kw + w->storage_kw;

    double pue = isfinite(p->site.pue) ? p->site.pue : 0;
    if (pue < 1) {
        result_warn(r, "power: site.pue %.2f is below 1, which no facility reaches; 1.0 used", pue);
        pue = 1;
    }
    w->facility_kw = w->it_kw * pue;
    w->rack_kw = hottest;
    w->rack_limit_kw = nonneg(p->site.rack_power_kw);
    w->cooling = p->site.cooling;

    /* cooling verdict */
    const Accelerator *liquid_acc = NULL;
    for (int i = 0; i < k->n_rack_groups && !liquid_acc; i++) {
        const RackGroup *g = &k->rack_groups[i];
        const Accelerator *a = catalog_find_accelerator(c, g->accelerator);
        if (a && a->liquid_cooled && g->count > 0)
            liquid_acc = a;
    }
    double air_max = layout_air_max_kw();
    bool too_hot = hottest > air_max + 1e-9;
    bool liquid = liquid_acc || too_hot || k->liquid_required;
    bool planned_liquid = p->site.cooling == COOLING_LIQUID;
    w->cooling_ok = planned_liquid || !liquid;
    char why[160];
    if (liquid_acc)
        snprintf(why, sizeof why, "%s is liquid-cooled", liquid_acc->id);
    else
        snprintf(why, sizeof why, "hottest rack %.1f kW is above the %.0f kW air-cooled ceiling",
                 hottest, air_max);
    if (k->n_rack_groups == 0 || hottest <= 0)
        snprintf(w->verdict, sizeof w->verdict, "no compute racks");
    else if (p->site.kind == SITE_CLOUD)
        snprintf(w->verdict, sizeof w->verdict,
                 "cloud site: the provider cools the racks (an on-prem build would need %s)",
                 liquid ? "liquid" : "air");
    else if (liquid && !planned_liquid)
        snprintf(w->verdict, sizeof w->verdict, "liquid required: %s, but the plan says air", why);
    else if (liquid)
        snprintf(w->verdict, sizeof w->verdict, "liquid, as planned: %s", why);
    else if (planned_liquid)
        snprintf(w->verdict, sizeof w->verdict,
                 "air would do (hottest rack %.1f kW, ceiling %.0f kW); liquid as planned",
                 hottest, air_max);
    else
        snprintf(w->verdict, sizeof w->verdict,
                 "air is enough: hottest rack %.1f kW, air-cooled ceiling %.0f kW", hottest,
                 air_max);
    if (p->site.kind != SITE_CLOUD && hottest_any > w->rack_limit_kw + 1e-9) {
        size_t len = strlen(w->verdict);
        snprintf(w->verdict + len, sizeof w->verdict - len, "; a %.1f kW rack exceeds the %.0f kW limit",
                 hottest_any, w->rack_limit_kw);
        result_warn(r, "power: a rack draws %.1f kW, above the site's %.0f kW rack limit",
                    hottest_any, w->rack_limit_kw);
    }
    if (!w->cooling_ok && p->site.kind != SITE_CLOUD)
        result_warn(r, "power: %s", w->verdict);

    w->energy_mwh_per_year = w->facility_kw * HOURS_PER_YEAR / 1000.0;
    w->energy_usd_per_year = w->energy_mwh_per_year * 1000.0 * nonneg(p->site.power_price_kwh);
    if (hottest > 0)
        result_assume(r, "power",
                      "air-cooling ceiling %.0f kW per rack: the highest air-cooled rack NVIDIA "
                      "publishes (DGX SuperPOD B300-XDR, four DGX B300, ~56 kW); NVIDIA states no "
                      "air limit", air_max);
    if (w->it_kw > 0) {
        result_assume(r, "power",
                      "IT load at rated node power (catalog node_power_w), %.0f W per switch, "
                      "PUE %.2f (Uptime: industry average 1.58 in 2023, new sites ~1.3)",
                      nonneg(c->costs.switch_power_w), pue);
        result_assume(r, "power",
                      "energy at the full facility load all year (upper bound), $%.3f/kWh",
                      nonneg(p->site.power_price_kwh));
    }
}
