/* model/sched/place.c — the cluster's free capacity and topology-aware
 * placement.
 *
 * Geometry: GPU g sits in node g / gpus_per_node (the last node may be
 * partial when a fixed pool is not a whole number of nodes); nodes are
 * grouped in order into NVLink domains of scaleup_domain GPUs (a node, or an
 * NVL72 rack of 18 four-GPU trays) and into leaf switches (see
 * sched_leaf_gpus() in search.c for the ports rule).
 *
 * Data structures, chosen for the bench targets (100k jobs on 4,096 GPUs in
 * < 100 ms): per node a free-GPU bitmask and count; nodes threaded on lists
 * bucketed by free count, so a best-fit single-node placement is a scan of
 * at most gpus_per_node + 1 bucket heads; free counts per domain and per
 * leaf for the multi-node cases.  Shared GPUs (MIG, time-sliced fractions)
 * sit on lists bucketed by free slices.  Everything is O(1) to update.
 *
 * Placement rules (SCHEDULER.md "Placement"):
 *  - g <= gpus_per_node: one node, best fit (the node with the fewest free
 *    GPUs that still holds the job: keeps large holes free).  A job this
 *    small is one pod / one Slurm node allocation, so it never spans nodes.
 *  - g <= GPUs of one NVLink domain (NVL72): one domain if any has room,
 *    best-fit domain.
 *  - otherwise: one leaf switch if any has room (best fit), else the fewest
 *    leaves (largest free first).  Inside a domain or leaf: whole free nodes
 *    first, then the best-fitting node for the remainder.
 * A multi-node gang therefore always starts when enough GPUs are free: the
 * topology shapes where it goes, not whether (Kueue TAS "preferred").
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched_int.h"

static inline void bk_unlink(SchedCluster *cl, int n)
{
    int p = cl->bk_prev[n], x = cl->bk_next[n];
    if (p >= 0) {
        cl->bk_next[p] = x;
    } else {
        int k = cl->node_free[n];
        cl->bk_head[k] = x;
        if (x < 0 && k > 0)
            cl->bk_mask &= ~(1ULL << (k - 1));
    }
    if (x >= 0)
        cl->bk_prev[x] = p;
}

static inline void bk_link(SchedCluster *cl, int n)
{
    int k = cl->node_free[n];
    cl->bk_prev[n] = -1;
    cl->bk_next[n] = cl->bk_head[k];
    if (cl->bk_head[k] >= 0)
        cl->bk_prev[cl->bk_head[k]] = n;
    cl->bk_head[k] = n;
    if (k > 0)
        cl->bk_mask |= 1ULL << (k - 1);
}

static int sh_bucket(const SchedCluster *cl, int gpu)
{
    if (cl->mode[gpu] == 1)
        return cl->mig_c - cl->sh_used[gpu];
    return (SCHED_MILLI - cl->sh_used[gpu]) / 100;
}

static void sh_unlink(SchedCluster *cl, int gpu)
{
    int p = cl->sh_prev[gpu], x = cl->sh_next[gpu];
    if (p >= 0)
        cl->sh_next[p] = x;
    else
        cl->sh_head[cl->mode[gpu] - 1][sh_bucket(cl, gpu)] = x;
    if (x >= 0)
        cl->sh_prev[x] = p;
}

static void sh_link(SchedCluster *cl, int gpu)
{
    int32_t *head = &cl->sh_head[cl->mode[gpu] - 1][sh_bucket(cl, gpu)];
    cl->sh_prev[gpu] = -1;
    cl->sh_next[gpu] = *head;
    if (*head >= 0)
        cl->sh_prev[*head] = gpu;
    *head = gpu;
}

/* MIG geometry: the GPU has C compute slices and M memory units, where C is
 * the largest compute_slices × count of any profile (7 on A100/H100) and
 * the memory unit is the smallest profile's memory (10 GB on an 80 GB part:
 * 8 units).  A profile then takes its slices and units; the per-profile
 * count cap covers the "+me" profiles (one per GPU).  This reproduces every
 * "max count per GPU" of CATALOG-FACTS 1.2 (e.g. 1g.10gb ×7 by compute,
 * 1g.20gb ×4 and 3g.40gb ×2 by memory) but not NVIDIA's slot-position
 * rules (mig-parted / MIG user guide), which forbid a few mixes. */
static void mig_geometry(SchedCluster *cl, const Accelerator *a)
{
    cl->mig_c = 0;
    cl->mig_m = 0;
    cl->n_prof = 0;
    if (!a || a->n_mig <= 0)
        return;
    double unit = 0;
    for (int i = 0; i < a->n_mig; i++)
        if (a->mig[i].mem_bytes > 0 && (unit == 0 || a->mig[i].mem_bytes < unit))
            unit = a->mig[i].mem_bytes;
    cl->n_prof = a->n_mig < CAT_MAX_MIG ? a->n_mig : CAT_MAX_MIG;
    for (int i = 0; i < cl->n_prof; i++) {
        const MigProfile *m = &a->mig[i];
        int c = m->compute_slices;
        if (c <= 0)
            c = atoi(m->name); /* "3g.40gb" → 3 */
        if (c <= 0)
            c = 1;
        int cnt = m->count > 0 ? m->count : 1;
        int mu = unit > 0 ? (int)lround(m->mem_bytes / unit) : 0;
        cl->prof_c[i] = c;
        cl->prof_m[i] = mu;
        cl->prof_max[i] = cnt;
        if (c * cnt > cl->mig_c)
            cl->mig_c = c * cnt;
        if (mu * cnt > cl->mig_m)
            cl->mig_m = mu * cnt;
    }
    if (cl->mig_c > SCHED_SH_NB - 1)
        cl->mig_c = SCHED_SH_NB - 1;
}

int sched_cluster_init(SchedCluster *cl, int gpus, int gpn, int gpd, int gpl, const Accelerator *a)
{
    memset(cl, 0, sizeof *cl);
    if (gpn < 1)
        gpn = 1;
    if (gpn > 64)
        gpn = 64; /* one bitmask word per node */
    cl->G = gpus;
    cl->gpn = gpn;
    cl->n_nodes = (gpus + gpn - 1) / gpn;
    cl->nodes_per_dom = gpd > gpn ? gpd / gpn : 1;
    cl->gpd = cl->nodes_per_dom * gpn;
    cl->n_dom = (cl->n_nodes + cl->nodes_per_dom - 1) / cl->nodes_per_dom;
    cl->nodes_per_leaf = gpl > gpn ? gpl / gpn : 1;
    cl->gpl = cl->nodes_per_leaf * gpn;
    cl->n_leaf = (cl->n_nodes + cl->nodes_per_leaf - 1) / cl->nodes_per_leaf;
    size_t N = (size_t)cl->n_nodes, G = (size_t)gpus;
    cl->node_cap = calloc(N, sizeof *cl->node_cap);
    cl->node_free = calloc(N, sizeof *cl->node_free);
    cl->node_mask = calloc(N, sizeof *cl->node_mask);
    cl->bk_head = malloc(((size_t)gpn + 1) * sizeof *cl->bk_head);
    cl->bk_next = calloc(N, sizeof *cl->bk_next);
    cl->bk_prev = calloc(N, sizeof *cl->bk_prev);
    cl->dom_free = calloc((size_t)cl->n_dom, sizeof *cl->dom_free);
    cl->leaf_free = calloc((size_t)cl->n_leaf, sizeof *cl->leaf_free);
    cl->dom_full = calloc((size_t)cl->n_dom, sizeof *cl->dom_full);
    cl->leaf_full = calloc((size_t)cl->n_leaf, sizeof *cl->leaf_full);
    cl->leaf_tsz = 1;
    while (cl->leaf_tsz < cl->n_leaf)
        cl->leaf_tsz *= 2;
    cl->leaf_tree = malloc(2 * (size_t)cl->leaf_tsz * sizeof *cl->leaf_tree);
    cl->scratch = malloc(N * sizeof *cl->scratch);
    cl->node_any = calloc((N + 63) / 64, sizeof *cl->node_any);
    cl->mode = calloc(G, 1);
    cl->sh_used = calloc(G, sizeof *cl->sh_used);
    cl->sh_mem = calloc(G, sizeof *cl->sh_mem);
    cl->sh_n = calloc(G, sizeof *cl->sh_n);
    cl->sh_cnt = calloc(G * CAT_MAX_MIG, 1);
    cl->sh_next = calloc(G, sizeof *cl->sh_next);
    cl->sh_prev = calloc(G, sizeof *cl->sh_prev);
    if (!cl->node_cap || !cl->node_free || !cl->node_mask || !cl->bk_head || !cl->bk_next ||
        !cl->bk_prev || !cl->dom_free || !cl->leaf_free || !cl->dom_full || !cl->leaf_full ||
        !cl->leaf_tree || !cl->scratch || !cl->node_any || !cl->mode || !cl->sh_used ||
        !cl->sh_mem || !cl->sh_n || !cl->sh_cnt || !cl->sh_next || !cl->sh_prev) {
        sched_cluster_free(cl);
        return -1;
    }
    for (int k = 0; k <= gpn; k++)
        cl->bk_head[k] = -1;
    for (int b = 0; b < SCHED_SH_NB; b++)
        cl->sh_head[0][b] = cl->sh_head[1][b] = -1;
    for (int n = 0; n < cl->n_nodes; n++) {
        int cap = gpus - n * gpn < gpn ? gpus - n * gpn : gpn;
        cl->node_cap[n] = cap;
        cl->node_free[n] = cap;
        cl->node_mask[n] = cap == 64 ? ~0ULL : ((1ULL << cap) - 1);
        if (cap > 0)
            cl->node_any[n / 64] |= 1ULL << (n % 64);
        cl->dom_free[n / cl->nodes_per_dom] += cap;
        cl->leaf_free[n / cl->nodes_per_leaf] += cap;
        cl->dom_full[n / cl->nodes_per_dom]++;
        cl->leaf_full[n / cl->nodes_per_leaf]++;
        bk_link(cl, n);
    }
    for (size_t k = 0; k < (size_t)cl->leaf_tsz; k++)
        cl->leaf_tree[cl->leaf_tsz + k] = (int)k < cl->n_leaf ? cl->leaf_free[k] : -1;
    for (size_t k = (size_t)cl->leaf_tsz - 1; k >= 1; k--)
        cl->leaf_tree[k] = cl->leaf_tree[2 * k] > cl->leaf_tree[2 * k + 1] ? cl->leaf_tree[2 * k]
                                                                          : cl->leaf_tree[2 * k + 1];
    cl->total_free = gpus;
    mig_geometry(cl, a);
    return 0;
}

void sched_cluster_free(SchedCluster *cl)
{
    free(cl->node_cap);
    free(cl->node_free);
    free(cl->node_mask);
    free(cl->bk_head);
    free(cl->bk_next);
    free(cl->bk_prev);
    free(cl->dom_free);
    free(cl->leaf_free);
    free(cl->dom_full);
    free(cl->leaf_full);
    free(cl->leaf_tree);
    free(cl->scratch);
    free(cl->node_any);
    free(cl->mode);
    free(cl->sh_used);
    free(cl->sh_mem);
    free(cl->sh_n);
    free(cl->sh_cnt);
    free(cl->sh_next);
    free(cl->sh_prev);
    memset(cl, 0, sizeof *cl);
}

/* Set leaf l's value in the max tree; parents are recomputed up to the
 * first that does not change.  A larger value only raises the parents
 * below it (no sibling to read); a smaller one recomputes each from both
 * children. */
static inline void lt_set(SchedCluster *cl, int l, int32_t v)
{
    int32_t *t = cl->leaf_tree;
    size_t k = (size_t)cl->leaf_tsz + (size_t)l;
    int32_t old = t[k];
    t[k] = v;
    if (v > old) {
        for (k >>= 1; k >= 1 && t[k] < v; k >>= 1)
            t[k] = v;
        return;
    }
    for (k >>= 1; k >= 1; k >>= 1) {
        int32_t m = t[2 * k] > t[2 * k + 1] ? t[2 * k] : t[2 * k + 1];
        if (t[k] == m)
            break;
        t[k] = m;
    }
}

/* The lowest-numbered leaf holding the most free GPUs (the tree's max). */
static int lt_first_max(const SchedCluster *cl)
{
    const int32_t *t = cl->leaf_tree;
    size_t k = 1, n = (size_t)cl->leaf_tsz;
    while (k < n)
        k = t[2 * k] == t[k] ? 2 * k : 2 * k + 1;
    return (int)(k - n);
}

__attribute__((always_inline)) static inline void node_adjust(SchedCluster *cl, int n, int delta)
{
    bk_unlink(cl, n);
    int old = cl->node_free[n], now = old + delta, cap = cl->node_cap[n];
    cl->node_free[n] = now;
    /* delta != 0: the node was empty or becomes empty, was whole or
     * becomes whole, mostly neither (tested with branches: fewer
     * instructions than the branch-free forms on a 97 %-busy pool) */
    if (old == 0 || now == 0)
        cl->node_any[(unsigned)n >> 6] ^= 1ULL << (n & 63);
    int full = 0;
    if (old == cap || now == cap)
        full = now == cap ? 1 : -1;
    bk_link(cl, n);
    if (cl->nodes_per_dom > 1) { /* a one-node domain is its node: no counts */
        cl->dom_free[n / cl->nodes_per_dom] += delta;
        cl->dom_full[n / cl->nodes_per_dom] += full;
    }
    int l = n / cl->nodes_per_leaf;
    cl->leaf_full[l] += full;
    cl->leaf_free[l] += delta;
    lt_set(cl, l, cl->leaf_free[l]);
    cl->total_free += delta;
}

void sched_take_gpu(SchedCluster *cl, int gpu)
{
    int n = gpu / cl->gpn;
    uint64_t bit = 1ULL << (gpu - n * cl->gpn);
    if (!(cl->node_mask[n] & bit)) {
        cl->double_booked++; /* invariant: a GPU is never given twice */
        return;
    }
    cl->node_mask[n] &= ~bit;
    node_adjust(cl, n, -1);
}

void sched_release_gpu(SchedCluster *cl, int gpu)
{
    int n = gpu / cl->gpn;
    uint64_t bit = 1ULL << (gpu - n * cl->gpn);
    if (cl->node_mask[n] & bit) {
        cl->double_booked++; /* released a GPU nobody held */
        return;
    }
    cl->node_mask[n] |= bit;
    node_adjust(cl, n, +1);
}

/* Take n GPUs at once, as n sched_take_gpu calls would and to the same
 * state: a run of one node's GPUs is one bucket move instead of one per GPU
 * (the node ends at the head of its final bucket either way; the counts,
 * the max tree and the bitmap are functions of the free counts), and a GPU
 * already taken, or named twice, counts as double_booked as there.
 * owner (may be NULL): every listed GPU's entry set to job j. */
void sched_take_gpus(SchedCluster *cl, const int32_t *gpus, int n, int32_t *owner, int32_t j)
{
    int i = 0;
    while (i < n) {
        int node = gpus[i] / cl->gpn, k = 0;
        uint64_t bits = 0;
        for (; i < n && gpus[i] / cl->gpn == node; i++) {
            if (owner)
                owner[gpus[i]] = j;
            uint64_t bit = 1ULL << (gpus[i] - node * cl->gpn);
            if (!((cl->node_mask[node] & ~bits) & bit)) {
                cl->double_booked++; /* invariant: a GPU is never given twice */
                continue;
            }
            bits |= bit;
            k++;
        }
        cl->node_mask[node] &= ~bits;
        if (k)
            node_adjust(cl, node, -k);
    }
}

/* Are all n GPUs taken (whole)? */
bool sched_gpus_taken(const SchedCluster *cl, const int32_t *gpus, int n)
{
    for (int i = 0; i < n; i++) {
        int node = gpus[i] / cl->gpn;
        if ((cl->node_mask[node] >> (gpus[i] - node * cl->gpn)) & 1)
            return false;
    }
    return true;
}

/* What sched_release_gpus then sched_take_gpus of the same taken GPUs
 * leave: the free counts as they were, each node run's node moved to the
 * head of its bucket, in list order. */
void sched_relink_gpus(SchedCluster *cl, const int32_t *gpus, int n)
{
    int i = 0;
    while (i < n) {
        int node = gpus[i] / cl->gpn;
        while (i < n && gpus[i] / cl->gpn == node)
            i++;
        bk_unlink(cl, node);
        bk_link(cl, node);
    }
}

void sched_release_gpus(SchedCluster *cl, const int32_t *gpus, int n, int32_t *owner)
{
    int i = 0;
    while (i < n) {
        int node = gpus[i] / cl->gpn, k = 0, g0 = node * cl->gpn;
        uint64_t bits = 0;
        /* the run of GPUs on this node: one division a node, not two a GPU */
        for (unsigned off; i < n && (off = (unsigned)(gpus[i] - g0)) < (unsigned)cl->gpn; i++) {
            if (owner)
                owner[gpus[i]] = -1;
            uint64_t bit = 1ULL << off;
            if ((cl->node_mask[node] | bits) & bit) {
                cl->double_booked++; /* released a GPU nobody held */
                continue;
            }
            bits |= bit;
            k++;
        }
        cl->node_mask[node] |= bits;
        if (k)
            node_adjust(cl, node, k);
    }
}

/* Take k free GPUs of node n (k <= its free count), lowest first. */
static inline int take_from_node(SchedCluster *cl, int n, int k, int32_t *out)
{
    uint64_t m = cl->node_mask[n];
    int got = 0;
    while (got < k && m) {
        int b = __builtin_ctzll(m);
        m &= m - 1;
        out[got++] = n * cl->gpn + b;
    }
    cl->node_mask[n] = m;
    node_adjust(cl, n, -got);
    return got;
}

/* k GPUs from nodes [n0,n1) (the range holds enough; nfull of its nodes
 * have every GPU free): whole free nodes first, then the best-fitting node
 * for each remainder.  The first scan stops after the last whole free node.
 * The remainder's rounds choose among the range's nodes with free GPUs
 * (not `exclude`): the lowest-numbered of the fewest free GPUs that still
 * hold the remainder, else the lowest-numbered of the most free, taken
 * whole.  Those nodes are listed once in node order (cl->scratch) and each
 * round scans the list, not the range: a round empties its node or ends. */
static int take_range(SchedCluster *cl, int n0, int n1, int nfull, int k, int exclude, int32_t *out)
{
    int got = 0, seen = 0;
    for (int n = n0; n < n1 && got < k && seen < nfull; n++)
        if (cl->node_free[n] == cl->node_cap[n]) {
            seen++;
            if (n != exclude && cl->node_cap[n] <= k - got)
                got += take_from_node(cl, n, cl->node_cap[n], out + got);
        }
    if (got >= k)
        return got;
    int32_t *nd = cl->scratch;
    int m = 0;
    /* the range's nodes with free GPUs, from the bitmap, in node order */
    for (int wd = n0 / 64; wd <= (n1 - 1) / 64; wd++) {
        uint64_t b = cl->node_any[wd];
        if (wd == n0 / 64)
            b &= ~0ULL << (n0 % 64);
        if (wd == (n1 - 1) / 64 && n1 % 64)
            b &= ~0ULL >> (64 - n1 % 64);
        for (; b; b &= b - 1) {
            int n = wd * 64 + __builtin_ctzll(b);
            if (n != exclude)
                nd[m++] = n;
        }
    }
    while (got < k && m > 0) {
        int r = k - got, best = -1, largest = 0;
        for (int i = 0; i < m; i++) {
            int f = cl->node_free[nd[i]];
            if (f >= r && (best < 0 || f < cl->node_free[nd[best]]))
                best = i;
            if (f > cl->node_free[nd[largest]])
                largest = i;
        }
        int i = best >= 0 ? best : largest, n = nd[i];
        got += take_from_node(cl, n, r < cl->node_free[n] ? r : cl->node_free[n], out + got);
        for (m--; i < m; i++) /* emptied (or the last round): off the list, in order */
            nd[i] = nd[i + 1];
    }
    return got;
}

static int excl_free_in(const SchedCluster *cl, int exclude, int per, int group)
{
    return (exclude >= 0 && exclude / per == group) ? cl->node_free[exclude] : 0;
}

bool sched_place_whole(SchedCluster *cl, int g, int exclude, int32_t *out)
{
    int avail = cl->total_free - (exclude >= 0 ? cl->node_free[exclude] : 0);
    if (g <= 0 || avail < g)
        return false;
    if (g <= cl->gpn && !(cl->bk_mask >> (g - 1)))
        return false; /* no node has g free GPUs (a blocked head, mostly) */
    if (g <= cl->gpn) {
        /* the non-empty buckets of g or more free GPUs, fewest first */
        for (uint64_t m = cl->bk_mask >> (g - 1) << (g - 1); m; m &= m - 1)
            for (int n = cl->bk_head[__builtin_ctzll(m) + 1]; n >= 0; n = cl->bk_next[n])
                if (n != exclude) {
                    take_from_node(cl, n, g, out);
                    return true;
                }
        return false;
    }
    if (cl->nodes_per_dom > 1 && g <= cl->gpd) {
        int best = -1, bf = 0;
        for (int d = 0; d < cl->n_dom; d++) {
            int f = cl->dom_free[d] - excl_free_in(cl, exclude, cl->nodes_per_dom, d);
            if (f >= g && (best < 0 || f < bf)) {
                best = d;
                bf = f;
            }
        }
        if (best >= 0) {
            int n0 = best * cl->nodes_per_dom, n1 = n0 + cl->nodes_per_dom;
            take_range(cl, n0, n1 < cl->n_nodes ? n1 : cl->n_nodes, cl->dom_full[best], g, exclude,
                       out);
            return true;
        }
    }
    /* the excluded node's free GPUs do not count for its leaf: its tree
     * value is lowered for the queries below and put back before any take */
    int le = exclude >= 0 ? exclude / cl->nodes_per_leaf : -1;
    if (le >= 0)
        lt_set(cl, le, cl->leaf_free[le] - cl->node_free[exclude]);
    bool one_leaf = cl->leaf_tree[1] >= g; /* some leaf holds the whole gang */
    if (le >= 0)
        lt_set(cl, le, cl->leaf_free[le]);
    int best = -1, bf = 0;
    for (int l = 0; one_leaf && l < cl->n_leaf; l++) {
        int f = cl->leaf_free[l] - excl_free_in(cl, exclude, cl->nodes_per_leaf, l);
        if (f >= g && (best < 0 || f < bf)) {
            best = l;
            bf = f;
        }
    }
    if (best >= 0) {
        int n0 = best * cl->nodes_per_leaf, n1 = n0 + cl->nodes_per_leaf;
        take_range(cl, n0, n1 < cl->n_nodes ? n1 : cl->n_nodes, cl->leaf_full[best], g, exclude,
                   out);
        return true;
    }
    /* fewest leaves: repeatedly the leaf with the most free GPUs (the
     * lowest-numbered among equals) */
    int got = 0;
    while (got < g) {
        if (le >= 0)
            lt_set(cl, le, cl->leaf_free[le] - cl->node_free[exclude]);
        int lf = cl->leaf_tree[1];
        int lb = lf > 0 ? lt_first_max(cl) : -1;
        if (le >= 0)
            lt_set(cl, le, cl->leaf_free[le]);
        if (lb < 0)
            break;
        int want = g - got < lf ? g - got : lf;
        int n0 = lb * cl->nodes_per_leaf, n1 = n0 + cl->nodes_per_leaf;
        got += take_range(cl, n0, n1 < cl->n_nodes ? n1 : cl->n_nodes, cl->leaf_full[lb], want,
                          exclude, out + got);
    }
    return true;
}


int sched_grow_whole(SchedCluster *cl, int k, int near, int32_t *out)
{
    int got = 0;
    if (near >= 0 && near < cl->n_nodes && cl->node_free[near] > 0)
        got += take_from_node(cl, near, k < cl->node_free[near] ? k : cl->node_free[near], out);
    for (int f = cl->gpn; f >= 1 && got < k; f--)
        while (got < k && cl->bk_head[f] >= 0) {
            int n = cl->bk_head[f];
            got += take_from_node(cl, n, k - got < f ? k - got : f, out + got);
        }
    return got;
}

static bool sh_fits(const SchedCluster *cl, int gpu, int kind, int amount)
{
    if (kind == 1)
        return cl->sh_used[gpu] + cl->prof_c[amount] <= cl->mig_c &&
               cl->sh_mem[gpu] + cl->prof_m[amount] <= cl->mig_m &&
               cl->sh_cnt[(size_t)gpu * CAT_MAX_MIG + amount] < cl->prof_max[amount];
    return cl->sh_used[gpu] + amount <= SCHED_MILLI;
}

void sched_shared_add(SchedCluster *cl, int gpu, int kind, int amount)
{
    if (cl->mode[gpu] == 0) {
        sched_take_gpu(cl, gpu);
        cl->mode[gpu] = (uint8_t)kind;
        cl->sh_used[gpu] = cl->sh_mem[gpu] = cl->sh_n[gpu] = 0;
        memset(&cl->sh_cnt[(size_t)gpu * CAT_MAX_MIG], 0, CAT_MAX_MIG);
        cl->n_shared++;
    } else {
        if (cl->mode[gpu] != kind || !sh_fits(cl, gpu, kind, amount))
            cl->double_booked++; /* over-committed shared GPU */
        sh_unlink(cl, gpu);
    }
    if (kind == 1) {
        cl->sh_used[gpu] = (int16_t)(cl->sh_used[gpu] + cl->prof_c[amount]);
        cl->sh_mem[gpu] = (int16_t)(cl->sh_mem[gpu] + cl->prof_m[amount]);
        cl->sh_cnt[(size_t)gpu * CAT_MAX_MIG + amount]++;
    } else {
        cl->sh_used[gpu] = (int16_t)(cl->sh_used[gpu] + amount);
    }
    cl->sh_n[gpu]++;
    cl->shared_use += sched_shared_equiv(cl, kind, amount);
    sh_link(cl, gpu);
}

void sched_shared_release(SchedCluster *cl, int gpu, int kind, int amount)
{
    if (cl->mode[gpu] != kind || cl->sh_n[gpu] <= 0) {
        cl->double_booked++;
        return;
    }
    sh_unlink(cl, gpu);
    if (kind == 1) {
        cl->sh_used[gpu] = (int16_t)(cl->sh_used[gpu] - cl->prof_c[amount]);
        cl->sh_mem[gpu] = (int16_t)(cl->sh_mem[gpu] - cl->prof_m[amount]);
        cl->sh_cnt[(size_t)gpu * CAT_MAX_MIG + amount]--;
    } else {
        cl->sh_used[gpu] = (int16_t)(cl->sh_used[gpu] - amount);
    }
    cl->sh_n[gpu]--;
    cl->shared_use -= sched_shared_equiv(cl, kind, amount);
    if (cl->sh_n[gpu] == 0) {
        cl->mode[gpu] = 0;
        cl->n_shared--;
        sched_release_gpu(cl, gpu);
    } else {
        sh_link(cl, gpu);
    }
}

/* Best fit among shared GPUs of this kind: the fullest bucket that can still
 * hold the request, at most SH_SCAN GPUs looked at per bucket (a GPU in a
 * bucket may still miss on memory or the profile cap); else a fresh whole
 * GPU by the single-node best-fit rule. */
#define SH_SCAN 32
int sched_place_shared(SchedCluster *cl, int kind, int amount, int exclude)
{
    int b0 = kind == 1 ? cl->prof_c[amount] : amount / 100;
    for (int b = b0; b < SCHED_SH_NB; b++) {
        int seen = 0;
        for (int u = cl->sh_head[kind - 1][b]; u >= 0 && seen < SH_SCAN; u = cl->sh_next[u], seen++)
            if (sh_fits(cl, u, kind, amount) && (exclude < 0 || u / cl->gpn != exclude)) {
                sched_shared_add(cl, u, kind, amount);
                return u;
            }
    }
    if (kind == 1 && (cl->mig_c <= 0 || cl->prof_c[amount] > cl->mig_c))
        return -1;
    int32_t g;
    if (!sched_place_whole(cl, 1, exclude, &g))
        return -1;
    sched_release_gpu(cl, g); /* shared_add takes it back in shared mode */
    sched_shared_add(cl, g, kind, amount);
    return g;
}

