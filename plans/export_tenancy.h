/* plans/export_tenancy.h — what the Kueue, Volcano and Slurm exports share:
 * each team's name under each system's naming rules (collisions
 * disambiguated, with a note naming both teams), the tenancy pool's node
 * shape, and each team's quota split into whole GPUs, MIG slices and
 * time-shared (fractional) GPUs so no GPU is counted twice. */
#ifndef GPUPLAN_PLANS_EXPORT_TENANCY_H
#define GPUPLAN_PLANS_EXPORT_TENANCY_H

#include <stddef.h>

#include "catalog.h"
#include "plan.h"
#include "strbuf.h"

#define EXPORT_NAME_LEN 64 /* 63 bytes + NUL: an RFC 1123 label */
#define EXPORT_MAX_MIG 8
#define EXPORT_NOTES_LEN 4096

typedef enum {
    NAMES_K8S = 0, /* RFC 1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, ≤ 63 bytes */
    NAMES_SLURM    /* Slurm account/QOS/partition: [a-z0-9][a-z0-9_-]*, ≤ 42 bytes (slurmdbd
                    * keys names on their first 42), lower case (sacctmgr lower-cases
                    * account names) */
} NameRule;

/* The longest name rule allows (63 for Kubernetes, 42 for Slurm). */
size_t export_name_max(NameRule rule);

/* Map each team name to rule's form.  Teams whose forms collide (they differ
 * only in case, punctuation, or after 63 bytes — 42 for Slurm) keep distinct names: the
 * later team gets a suffix from a hash of its plan name; names the system
 * reserves get a "team-" / "team_" prefix (Kubernetes: kube-*, default;
 * Slurm: root, default (PartitionName=DEFAULT), and the QOS low, normal, high).  Each such change is described in notes (appended, "# " lines,
 * naming both teams).  out[i] is team i's name. */
void export_team_names(const Plan *p, NameRule rule, char out[][EXPORT_NAME_LEN], char *notes,
                       size_t notes_len);

/* Append plan text to b for use inside a '#' comment: control bytes (a
 * newline would end the comment) become \xNN. */
void export_comment_text(StrBuf *b, const char *s);

/* Map one name (plan, accelerator) to rule's form. */
void export_name(const char *in, NameRule rule, char out[EXPORT_NAME_LEN]);

typedef struct {
    const MigProfile *profile;
    double mean_slices;   /* concurrent slices asked, mean (Little's law) */
    int p95_slices;       /* the 95th percentile of concurrent slices */
    int gpus;             /* GPUs partitioned into this profile for the team */
    int slices;           /* gpus × profile->count: the flavour's quota */
} MigQuota;

typedef struct {
    int quota_gpus;       /* the plan's quota */
    int borrow_gpus;      /* -1 = unlimited */
    int whole_gpus;       /* quota left for whole-GPU jobs */
    MigQuota mig[EXPORT_MAX_MIG];
    int n_mig;
    int mig_gpus;         /* Σ mig[].gpus */
    double shared_fraction; /* smallest fractional request, 0 = no fractional jobs */
    int shared_replicas;  /* time-slicing replicas per shared GPU: floor(1 / fraction) */
    int shared_p95_jobs;  /* 95th percentile of concurrent fractional jobs */
    int shared_gpus;      /* GPUs time-shared for the team */
    int shared_slots;     /* shared_gpus × replicas */
} TeamQuota;

typedef struct {
    int pool_gpus;        /* the tenancy pool */
    int gpus_per_node;
    int nodes;            /* ceil(pool / gpus_per_node) */
    int node_cpus;        /* 0 = unknown */
    double node_memory_bytes; /* 0 = unknown */
    int nodes_per_rack;   /* from the layout; ≥ 1 */
    int nodes_per_leaf;   /* nodes under one leaf switch; ≥ 1 */
    int nodes_per_domain; /* nodes in one NVLink domain (≥ 1; > 1 for NVL72) */
    int leaves, spines;
    TeamQuota teams[PLAN_MAX_TEAMS];
    int n_teams;
    int mig_gpus, shared_gpus; /* totals over the teams */
} TenancyExport;

/* The shared numbers above.  Notes (assumptions, clamps) are appended to
 * notes as "# " lines. */
void export_tenancy(const Plan *p, const PlanResult *r, const Catalog *c, TenancyExport *t,
                    char *notes, size_t notes_len);

/* The configs' "# pool: N <acc> GPUs in n nodes of g" comment (no newline),
 * with what the scheduler's search made of the pool when it sized it. */
void export_pool_comment(StrBuf *b, const Plan *p, const PlanResult *r, const TenancyExport *t);

/* The smallest k with P(Poisson(mean) ≤ k) ≥ q. */
int export_poisson_quantile(double mean, double q);

#endif
