/* model/net.c — see net.h for the sources of the constants. */
#include "config.h"

#include "net.h"

double net_scaleout_bw(const Plan *p, const Accelerator *a, bool crosses_leaf)
{
    double link_bps = p->network.link_bps;
    if (link_bps <= 0 && a && a->nics_per_node > 0 && a->gpus_per_node > 0)
        link_bps = a->nic_gbps * 1e9 * a->nics_per_node / a->gpus_per_node;
    double bw = link_bps / 8.0 * NET_SCALEOUT_EFF;
    if (crosses_leaf && p->network.oversubscription > 1.0)
        bw /= p->network.oversubscription;
    return bw;
}

double net_scaleup_bw(const Accelerator *a)
{
    return a->scaleup_bw * (a->scaleup_eff > 0 ? a->scaleup_eff : 0.8);
}

double net_allreduce_s(double bytes, int n, double bw, double lat)
{
    if (n <= 1 || bytes <= 0 || bw <= 0)
        return 0.0;
    return 2.0 * (n - 1) / n * bytes / bw + 2.0 * (n - 1) * lat;
}

double net_allreduce_oneshot_s(double bytes, int n, double bw, double lat)
{
    if (n <= 1 || bytes <= 0 || bw <= 0)
        return 0.0;
    return (n - 1) * bytes / bw + 2.0 * lat;
}

double net_allgather_s(double bytes, int n, double bw, double lat)
{
    if (n <= 1 || bytes <= 0 || bw <= 0)
        return 0.0;
    return (double)(n - 1) / n * bytes / bw + (n - 1) * lat;
}

double net_alltoall_s(double bytes, int n, double bw, double lat)
{
    if (n <= 1 || bytes <= 0 || bw <= 0)
        return 0.0;
    return (double)(n - 1) / n * bytes / bw + lat * (n > 1 ? 1 : 0) * 2;
}

double net_p2p_s(double bytes, double bw, double lat)
{
    if (bytes <= 0 || bw <= 0)
        return 0.0;
    return bytes / bw + lat;
}
