/* plans/export_tenancy.c — names and quota splits shared by the Kueue,
 * Volcano and Slurm exports (see export_tenancy.h). */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "export_tenancy.h"
#include "hash.h"

static void note_add(char *notes, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void note_add(char *notes, size_t len, const char *fmt, ...)
{
    if (!notes || len == 0)
        return;
    size_t used = strlen(notes);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(notes + used, len - used, fmt, ap);
    va_end(ap);
}

/* A plan text quoted for a comment line: control bytes (a newline would end
 * the comment and start a directive) become \xNN; '"' and '\' escaped. */
static void quote_text(const char *s, char *out, size_t len)
{
    size_t n = 0;
    if (len < 4)
        return;
    out[n++] = '"';
    for (; *s && n + 6 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            n += (size_t)snprintf(out + n, len - n, "\\x%02x", c);
        else if (c == '"' || c == '\\') {
            out[n++] = '\\';
            out[n++] = (char)c;
        } else
            out[n++] = (char)c;
    }
    out[n++] = '"';
    out[n] = '\0';
}

void export_comment_text(StrBuf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            sb_printf(b, "\\x%02x", c);
        else
            sb_putn(b, s, 1);
    }
}

/* The longest name each system keeps apart.  Kubernetes: an RFC 1123 label,
 * 63 bytes.  Slurm: slurmdbd (22.05, accounting_storage/mysql) keys accounts,
 * QOS, users and associations on the first 42 bytes of the name
 * (acct_table PRIMARY KEY (name(42)), qos_table UNIQUE KEY (name(42)),
 * <cluster>_assoc_table UNIQUE KEY (user(42), acct(42), partition(42)) — read
 * back from a live slurmdbd with SHOW CREATE TABLE): two accounts equal in
 * their first 42 bytes are a duplicate key ("Problem adding accounts:
 * Unspecified error"), so a Slurm name is at most 42 bytes. */
size_t export_name_max(NameRule rule) { return rule == NAMES_K8S ? 63 : 42; }

void export_name(const char *in, NameRule rule, char out[EXPORT_NAME_LEN])
{
    size_t n = 0, max = export_name_max(rule);
    bool sep = false;
    const char fill = rule == NAMES_K8S ? '-' : '_';
    for (const unsigned char *s = (const unsigned char *)in; *s && n < max; s++) {
        unsigned char c = *s;
        bool keep = isalnum(c) && c < 0x80;
        if (rule == NAMES_SLURM && (c == '-' || c == '_'))
            keep = true;
        if (!keep) {
            sep = true;
            continue;
        }
        if (sep && n > 0 && n + 1 < max)
            out[n++] = fill;
        sep = false;
        if (n == 0 && (c == '-' || c == '_'))
            continue; /* a leading '-' would read as an option */
        out[n++] = (char)tolower(c);
    }
    while (n > 0 && (out[n - 1] == '-' || out[n - 1] == '_'))
        n--;
    out[n] = '\0';
    if (n == 0)
        snprintf(out, EXPORT_NAME_LEN, "team");
}

static bool name_taken(char out[][EXPORT_NAME_LEN], int n, const char *name)
{
    for (int j = 0; j < n; j++)
        if (!strcmp(out[j], name))
            return true;
    return false;
}

void export_team_names(const Plan *p, NameRule rule, char out[][EXPORT_NAME_LEN], char *notes,
                       size_t notes_len)
{
    const char *sys = rule == NAMES_K8S ? "Kubernetes" : "Slurm";
    const char fill = rule == NAMES_K8S ? '-' : '_';
    const size_t max = export_name_max(rule);
    for (int i = 0; i < p->tenancy.n_teams; i++) {
        const char *team = p->tenancy.teams[i].name;
        char q[160];
        quote_text(team, q, sizeof q);
        export_name(team, rule, out[i]);
        /* names the system owns: Kubernetes' own namespaces; Slurm's root
         * account and the job-priority QOS the export creates */
        bool reserved = rule == NAMES_K8S
                            ? !strcmp(out[i], "default") || !strcmp(out[i], "kube") ||
                                  !strncmp(out[i], "kube-", 5)
                            : !strcmp(out[i], "root") || !strcmp(out[i], "normal") ||
                                  !strcmp(out[i], "low") || !strcmp(out[i], "high") ||
                                  !strcmp(out[i], "default"); /* PartitionName=DEFAULT */
        if (reserved) {
            char tmp[EXPORT_NAME_LEN];
            snprintf(tmp, sizeof tmp, "team%c%.*s", fill, (int)max - 5, out[i]);
            size_t l = strlen(tmp);
            while (l > 0 && (tmp[l - 1] == '-' || tmp[l - 1] == '_'))
                tmp[--l] = '\0';
            note_add(notes, notes_len, "# team %s: \"%s\" is a name %s reserves, exported as \"%s\"\n",
                     q, out[i], sys, tmp);
            memcpy(out[i], tmp, sizeof tmp);
        }
        int other = -1;
        for (int j = 0; j < i && other < 0; j++)
            if (!strcmp(out[j], out[i]))
                other = j;
        if (other < 0)
            continue;
        char base[EXPORT_NAME_LEN], cand[EXPORT_NAME_LEN];
        memcpy(base, out[i], sizeof base);
        uint32_t h = hash_fnv1a32(team);
        for (int k = 0;; k++) {
            /* keep the suffix inside the system's length: cut the base first */
            snprintf(cand, sizeof cand, "%.*s%c%06x", (int)max - 7, base, fill,
                     (unsigned)((h + (uint32_t)k) & 0xffffff));
            if (!name_taken(out, i, cand))
                break;
        }
        char q2[160];
        quote_text(p->tenancy.teams[other].name, q2, sizeof q2);
        note_add(notes, notes_len,
                 "# teams %s and %s both map to the %s name \"%s\": team %s is exported as "
                 "\"%s\"\n",
                 q2, q, sys, base, q, cand);
        memcpy(out[i], cand, sizeof cand);
    }
}

int export_poisson_quantile(double mean, double q)
{
    if (!(mean > 0))
        return 0;
    /* pmf in log space: exp(-m) underflows for m > ~700 */
    double cdf = 0, lm = log(mean);
    int limit = (int)(mean + 12 * sqrt(mean) + 20);
    for (int k = 0; k <= limit; k++) {
        cdf += exp(-mean + k * lm - lgamma(k + 1.0));
        if (cdf >= q)
            return k;
    }
    return limit;
}

static int pool_of(const Plan *p, const PlanResult *r)
{
    if (r && r->have_schedule && r->schedule.ran && r->schedule.gpus > 0)
        return r->schedule.gpus;
    if (p->tenancy.gpus > 0)
        return p->tenancy.gpus;
    int q = 0;
    for (int i = 0; i < p->tenancy.n_teams; i++)
        q += p->tenancy.teams[i].quota_gpus;
    return q;
}

static int ceil_div(int a, int b) { return b > 0 ? (a + b - 1) / b : a; }

/* One team's split.  Concurrent requests of a job class are those of an
 * M/G/∞ queue — the demand before any quota — whose occupancy is Poisson
 * with mean λ·E[S] for any duration distribution (the M/G/∞ result; Takács,
 * Introduction to the Theory of Queues, 1962; the mean is Little's law).  A quota
 * at the mean would make the class wait about half the time; the export
 * sizes each carve-out at the 95th percentile of that distribution, then
 * rounds up to whole GPUs (a GPU is partitioned or time-shared as a whole). */
static void team_split(const Team *t, const Accelerator *a, TeamQuota *tq, char *notes,
                       size_t notes_len)
{
    memset(tq, 0, sizeof *tq);
    tq->quota_gpus = t->quota_gpus;
    tq->borrow_gpus = t->borrow_gpus;
    double shared_mean = 0;
    for (int j = 0; j < t->n_jobs; j++) {
        const JobClass *jc = &t->jobs[j];
        double mean = jc->per_day / 24.0 * jc->hours;
        if (jc->mig[0]) {
            const MigProfile *m = a ? accelerator_find_mig(a, jc->mig) : NULL;
            if (!m)
                continue; /* the plan check already warns; the simulation used whole GPUs */
            int k = 0;
            while (k < tq->n_mig && tq->mig[k].profile != m)
                k++;
            if (k == tq->n_mig) {
                if (tq->n_mig == EXPORT_MAX_MIG)
                    continue;
                tq->mig[tq->n_mig++].profile = m;
            }
            tq->mig[k].mean_slices += mean;
        } else if (jc->gpus > 0 && jc->gpus < 1 && jc->max_gpus <= 0) {
            shared_mean += mean;
            if (tq->shared_fraction == 0 || jc->gpus < tq->shared_fraction)
                tq->shared_fraction = jc->gpus;
        }
    }
    int avail = t->quota_gpus;
    char q[160];
    quote_text(t->name, q, sizeof q);
    for (int k = 0; k < tq->n_mig; k++) {
        MigQuota *m = &tq->mig[k];
        m->p95_slices = export_poisson_quantile(m->mean_slices, 0.95);
        m->gpus = ceil_div(m->p95_slices, m->profile->count);
        if (m->gpus > avail) {
            note_add(notes, notes_len,
                     "# team %s: %d GPUs of MIG %s cover its p95 demand, but only %d of its "
                     "quota are left: the MIG quota is cut to %d GPUs\n",
                     q, m->gpus, m->profile->name, avail, avail);
            m->gpus = avail;
        }
        avail -= m->gpus;
        m->slices = m->gpus * m->profile->count;
        tq->mig_gpus += m->gpus;
    }
    if (tq->shared_fraction > 0) {
        tq->shared_replicas = (int)floor(1.0 / tq->shared_fraction + 1e-9);
        if (tq->shared_replicas < 1)
            tq->shared_replicas = 1;
        tq->shared_p95_jobs = export_poisson_quantile(shared_mean, 0.95);
        tq->shared_gpus = ceil_div(tq->shared_p95_jobs, tq->shared_replicas);
        if (tq->shared_gpus > avail) {
            note_add(notes, notes_len,
                     "# team %s: %d time-shared GPUs cover its p95 fractional demand, but only "
                     "%d of its quota are left: cut to %d\n",
                     q, tq->shared_gpus, avail, avail);
            tq->shared_gpus = avail;
        }
        avail -= tq->shared_gpus;
        tq->shared_slots = tq->shared_gpus * tq->shared_replicas;
    }
    tq->whole_gpus = avail;
}

void export_tenancy(const Plan *p, const PlanResult *r, const Catalog *c, TenancyExport *t,
                    char *notes, size_t notes_len)
{
    memset(t, 0, sizeof *t);
    const Accelerator *a = catalog_find_accelerator(c, p->accelerator);
    t->pool_gpus = pool_of(p, r);
    t->gpus_per_node = a && a->gpus_per_node > 0 ? a->gpus_per_node : 8;
    t->nodes = ceil_div(t->pool_gpus, t->gpus_per_node);
    if (t->nodes < 1)
        t->nodes = 1;
    t->node_cpus = a ? a->node_cpus : 0;
    t->node_memory_bytes = a ? a->node_memory_bytes : 0;
    const ClusterResult *cl = r ? &r->cluster : NULL;
    t->nodes_per_rack = cl && cl->nodes_per_rack > 0 ? cl->nodes_per_rack : t->nodes;
    t->nodes_per_leaf = cl && cl->leaf_switches > 0 && cl->nodes > 0
                            ? ceil_div(cl->nodes, cl->leaf_switches)
                            : t->nodes;
    if (t->nodes_per_leaf < 1)
        t->nodes_per_leaf = 1;
    t->nodes_per_domain = a && a->scaleup_domain > t->gpus_per_node
                              ? a->scaleup_domain / t->gpus_per_node
                              : 1;
    t->leaves = ceil_div(t->nodes, t->nodes_per_leaf);
    t->spines = t->leaves > 1 ? 1 : 0;
    t->n_teams = p->tenancy.n_teams;
    for (int i = 0; i < p->tenancy.n_teams; i++) {
        team_split(&p->tenancy.teams[i], a, &t->teams[i], notes, notes_len);
        t->mig_gpus += t->teams[i].mig_gpus;
        t->shared_gpus += t->teams[i].shared_gpus;
    }
    if (!t->node_cpus || !(t->node_memory_bytes > 0))
        note_add(notes, notes_len,
                 "# the catalog has no host CPUs/memory for %s nodes (node_cpus, node_memory_gb): "
                 "cpu and memory are left out\n",
                 p->accelerator);
}

void export_pool_comment(StrBuf *b, const Plan *p, const PlanResult *r, const TenancyExport *t)
{
    sb_printf(b, "# pool: %d %s GPUs in %d nodes of %d", t->pool_gpus, p->accelerator, t->nodes,
              t->gpus_per_node);
    if (r && r->have_schedule && r->schedule.recommended_gpus)
        sb_printf(b, " (%s p95 wait <= %.1f h)",
                  r->schedule.pool_from_quotas ? "the pool the teams' quotas need; it meets"
                  : r->schedule.meets_target   ? "smallest pool meeting"
                                               : "where more GPUs stop helping; no pool meets",
                  p->tenancy.wait_p95_s / 3600);
}
