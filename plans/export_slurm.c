/* plans/export_slurm.c — the plan's tenancy pool as a Slurm configuration
 * bundle: slurm.conf (fragment: scheduling, nodes, partitions), gres.conf,
 * topology.conf (the designed leaf/spine fabric) and accounts.sh (sacctmgr:
 * accounts, QOS, limits, users).  `gpuplan export --format slurm -o DIR`
 * writes the four files; to a single stream they are concatenated with
 * "# ==> NAME <==" headers.
 *
 * Mapping: a team is an account, a QOS and a partition (AllowAccounts,
 * QOS=) of the same name.  The partition's QOS carries GrpTRES gres/gpu =
 * quota + borrow (the team's ceiling; unlimited borrowing → no limit), so a
 * job beyond it pends with reason QOSGrpGRES; the account association
 * carries the same ceiling, so the team stays capped if a site opens another
 * partition to it.  slurmctld refuses to start while a partition's QOS is
 * missing, and GRES limits can be set only once slurmctld has registered
 * those TRES: accounts.sh --before-slurmctld creates the QOS, accounts.sh
 * after slurmctld sets the limits, accounts and users.  A job's own QOS is
 * left for its priority.  MIG
 * slices and time-shared GPUs are carved out of the quota (export_tenancy.c)
 * and limited as typed GRES (gres/gpu:3g.40gb) and shards (gres/shard).
 * Fair share: account Fairshare = weight × 100.  Policy: fifo →
 * priority/basic; fair-share → priority/multifactor with the fair-share
 * factor dominant; priority → multifactor with the QOS factor dominant.
 * Preemption → preempt/qos with REQUEUE, job QOS high > normal > low.
 * Backfill → sched/backfill, else sched/builtin.  Placement → topology/tree
 * over the leaf switches; node Features name the rack and NVLink domain. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "export.h"
#include "export_formats.h"
#include "export_tenancy.h"
#include "strbuf.h"
#include "yaml_plan.h"

/* Slurm's GRES type for a whole GPU: the device name NVML reports, lower
 * case, spaces → '_' (what AutoDetect=nvml registers; gres.conf(5) "Type":
 * "should match or be a substring of the value that is detected, using an
 * underscore in lieu of any spaces").  Without an NVML name: the catalog id. */
static void gpu_type(const Accelerator *a, const char *acc_id, char *out, size_t len)
{
    const char *src = a && a->nvml_name[0] ? a->nvml_name : acc_id;
    size_t n = 0;
    for (; *src && n + 1 < len; src++) {
        unsigned char c = (unsigned char)*src;
        if (isalnum(c) || c == '-' || c == '.' || c == '_')
            out[n++] = (char)tolower(c);
        else if (c == ' ')
            out[n++] = '_';
    }
    out[n] = '\0';
}

/* A shell word in single quotes: nothing inside is expanded; a quote is
 * written '\''; control bytes (a newline would end the command) become '?'. */
static void sh_quote(StrBuf *b, const char *s)
{
    sb_puts(b, "'");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'')
            sb_puts(b, "'\\''");
        else if (c < 0x20 || c == 0x7f)
            sb_puts(b, "?");
        else
            sb_putn(b, s, 1);
    }
    sb_puts(b, "'");
}


/* Node kinds in pool order: whole GPUs, time-shared GPUs, then one block per
 * MIG profile (a node's GPUs are partitioned alike). */
typedef struct {
    int first, count;       /* node indexes [first, first + count) */
    const MigProfile *mig;  /* NULL: whole GPUs */
    int shards;             /* shard GRES per node (time-shared nodes) */
} NodeBlock;

#define MAX_BLOCKS (2 + EXPORT_MAX_MIG * PLAN_MAX_TEAMS)

static int plan_blocks(const TenancyExport *t, NodeBlock *bl, StrBuf *notes)
{
    const MigProfile *profs[MAX_BLOCKS];
    int gpus[MAX_BLOCKS], np = 0, replicas = 0;
    for (int i = 0; i < t->n_teams; i++) {
        const TeamQuota *q = &t->teams[i];
        if (q->shared_replicas > replicas)
            replicas = q->shared_replicas;
        for (int k = 0; k < q->n_mig; k++) {
            int j = 0;
            while (j < np && profs[j] != q->mig[k].profile)
                j++;
            if (j == np) {
                profs[np] = q->mig[k].profile;
                gpus[np++] = 0;
            }
            gpus[j] += q->mig[k].gpus;
        }
    }
    int per = t->gpus_per_node, left = t->nodes, nb = 0;
    int shared_nodes = (t->shared_gpus + per - 1) / per;
    int mig_nodes[MAX_BLOCKS], mig_total = 0;
    for (int j = 0; j < np; j++) {
        mig_nodes[j] = (gpus[j] + per - 1) / per;
        mig_total += mig_nodes[j];
    }
    if (mig_total + shared_nodes > left) {
        sb_printf(notes, "# MIG and time-shared GPUs need %d nodes, the pool has %d: "
                         "the pool is too small for the quotas\n",
                  mig_total + shared_nodes, left);
    }
    int whole = left - mig_total - shared_nodes;
    if (whole < 0)
        whole = 0;
    int at = 0;
    if (whole > 0)
        bl[nb++] = (NodeBlock){at, whole, NULL, 0};
    at += whole;
    if (shared_nodes > 0 && at < left) {
        int n = shared_nodes <= left - at ? shared_nodes : left - at;
        bl[nb++] = (NodeBlock){at, n, NULL, per * replicas};
        at += n;
    }
    for (int j = 0; j < np && at < left; j++) {
        int n = mig_nodes[j] <= left - at ? mig_nodes[j] : left - at;
        if (n > 0)
            bl[nb++] = (NodeBlock){at, n, profs[j], 0};
        at += n;
    }
    return nb;
}

static void node_range(StrBuf *b, int first, int count, int width)
{
    if (count == 1)
        sb_printf(b, "gpu%0*d", width, first + 1);
    else
        sb_printf(b, "gpu[%0*d-%0*d]", width, first + 1, width, first + count);
}

/* The slurm.conf NodeName lines: one per run of nodes sharing a block, rack
 * and NVLink domain (their Features). */
static void node_lines(StrBuf *b, const TenancyExport *t, const NodeBlock *bl, int nb,
                       const char *gtype, int width, long mem_mb)
{
    for (int k = 0; k < nb; k++) {
        int i = bl[k].first, end = bl[k].first + bl[k].count;
        while (i < end) {
            int rack = i / t->nodes_per_rack, dom = i / t->nodes_per_domain;
            bool nvl = t->nodes_per_domain > 1;
            int j = i + 1;
            while (j < end && j / t->nodes_per_rack == rack &&
                   (!nvl || j / t->nodes_per_domain == dom))
                j++;
            sb_puts(b, "NodeName=");
            node_range(b, i, j - i, width);
            if (t->node_cpus > 0)
                sb_printf(b, " CPUs=%d", t->node_cpus);
            if (mem_mb > 0)
                sb_printf(b, " RealMemory=%ld", mem_mb);
            if (bl[k].mig)
                sb_printf(b, " Gres=gpu:%s:%d", bl[k].mig->name,
                          t->gpus_per_node * bl[k].mig->count);
            else
                sb_printf(b, " Gres=gpu:%s:%d", gtype, t->gpus_per_node);
            if (bl[k].shards > 0)
                sb_printf(b, ",shard:%d", bl[k].shards);
            sb_printf(b, " Features=rack%02d", rack + 1);
            if (t->nodes_per_domain > 1)
                sb_printf(b, ",nvl%02d", dom + 1);
            if (bl[k].mig)
                sb_printf(b, ",mig-%s", bl[k].mig->name);
            if (bl[k].shards > 0)
                sb_puts(b, ",shared");
            sb_puts(b, " State=UNKNOWN\n");
            i = j;
        }
    }
}

static char *slurm_conf(const Plan *p, const PlanResult *r, const TenancyExport *t,
                        const NodeBlock *bl, int nb, const char *gtype, int width,
                        char names[][EXPORT_NAME_LEN], const char *notes)
{
    StrBuf b;
    sb_init(&b);
    sb_puts(&b, "# slurm.conf fragment for plan ");
    export_comment_text(&b, p->name);
    sb_puts(&b, " (generated by gpuplan " PACKAGE_VERSION ")\n");
    export_pool_comment(&b, p, r, t);
    sb_puts(&b, "\n# Add the site's own lines (ClusterName, SlurmctldHost, paths, auth) and\n"
                "# include this file; gres.conf and topology.conf sit next to slurm.conf.\n"
                "# Order: start slurmdbd; sh accounts.sh --before-slurmctld (the partitions'\n"
                "# QOS must exist before slurmctld starts); start slurmctld (it registers the\n"
                "# GRES TRES the limits name); sh accounts.sh USERS_FILE (limits, accounts, users).\n");
    sb_puts(&b, notes);
    bool shards = t->shared_gpus > 0;
    sb_printf(&b, "GresTypes=gpu%s\n", shards ? ",shard" : "");
    sb_puts(&b, "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core_Memory\n");
    /* limits on GRES need the accounting database (slurm.conf(5)
     * AccountingStorageTRES; "slurmdbd is required to run with TRES gres/gpu") */
    sb_puts(&b, "AccountingStorageType=accounting_storage/slurmdbd\n");
    sb_printf(&b, "AccountingStorageTRES=gres/gpu,gres/gpu:%s", gtype);
    for (int k = 0; k < nb; k++)
        if (bl[k].mig)
            sb_printf(&b, ",gres/gpu:%s", bl[k].mig->name);
    sb_printf(&b, "%s\n", shards ? ",gres/shard" : "");
    sb_puts(&b, "AccountingStorageEnforce=associations,limits,qos\n");
    /* a job its partition refuses (AllowAccounts) is rejected at submission
     * instead of pending forever */
    sb_puts(&b, "EnforcePartLimits=ALL\n");
    sb_printf(&b, "SchedulerType=%s\n", p->tenancy.backfill ? "sched/backfill" : "sched/builtin");
    sb_puts(&b, "TopologyPlugin=topology/tree\n");
    switch (p->tenancy.policy) {
    case POLICY_FIFO:
        sb_puts(&b, "PriorityType=priority/basic\n");
        break;
    case POLICY_FAIR_SHARE:
        sb_puts(&b, "PriorityType=priority/multifactor\nPriorityDecayHalfLife=7-0\n"
                    "PriorityWeightFairshare=100000\nPriorityWeightAge=1000\n"
                    "PriorityWeightQOS=10000\nPriorityWeightJobSize=0\n");
        break;
    case POLICY_PRIORITY:
        sb_puts(&b, "PriorityType=priority/multifactor\nPriorityWeightQOS=1000000\n"
                    "PriorityWeightAge=1000\nPriorityWeightFairshare=0\n");
        break;
    }
    if (p->tenancy.preemption)
        sb_puts(&b, "PreemptType=preempt/qos\nPreemptMode=REQUEUE\n");
    else
        sb_puts(&b, "PreemptType=preempt/none\nPreemptMode=OFF\n");

    /* Host memory: 5% is held back from what is installed — the kernel and
     * firmware keep some, and slurmd drains a node whose RealMemory exceeds
     * what it finds (slurm.conf(5) RealMemory).  Per GPU: the node's share. */
    long mem_mb = t->node_memory_bytes > 0
                      ? (long)floor(t->node_memory_bytes * 0.95 / (1024.0 * 1024.0))
                      : 0;
    if (mem_mb > 0)
        sb_printf(&b, "DefMemPerGPU=%ld\n", mem_mb / t->gpus_per_node);
    if (t->node_cpus > 0)
        sb_printf(&b, "DefCpuPerGPU=%d\n", t->node_cpus / t->gpus_per_node > 0
                                               ? t->node_cpus / t->gpus_per_node
                                               : 1);
    else
        sb_puts(&b, "# CPUs/RealMemory unknown for this accelerator: fill in from `slurmd -C`\n");
    sb_puts(&b, "# nodes: Features rackNN (and nvlNN, the NVLink domain, where it spans nodes);\n"
                "# jobs can keep to one with --constraint=nvl01 or --switches=1\n");
    node_lines(&b, t, bl, nb, gtype, width, mem_mb);
    sb_puts(&b, "# one partition, QOS and account per team; the team's GPU ceiling is its\n"
                "# partition QOS's GrpTRES (and its account's)\n");
    for (int i = 0; i < p->tenancy.n_teams; i++) {
        sb_printf(&b, "PartitionName=%s Nodes=ALL AllowAccounts=%s QOS=%s MaxTime=INFINITE "
                      "State=UP%s%s\n",
                  names[i], names[i], names[i], i == 0 ? " Default=YES" : "",
                  p->tenancy.preemption ? " PreemptMode=REQUEUE" : "");
    }
    if (p->tenancy.n_teams == 0)
        sb_puts(&b, "PartitionName=gpu Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n");
    return sb_finish(&b);
}

static char *gres_conf(const Plan *p, const Accelerator *a, const TenancyExport *t,
                       const NodeBlock *bl, int nb, const char *gtype, int width)
{
    StrBuf b;
    sb_init(&b);
    sb_puts(&b, "# gres.conf for plan ");
    export_comment_text(&b, p->name);
    sb_puts(&b, " (generated by gpuplan " PACKAGE_VERSION ")\n");
    /* Device files differ by vendor: NVIDIA /dev/nvidiaN; AMD's render
     * nodes /dev/dri/renderD128…; others are left to a count. */
    const char *vendor = a ? a->vendor : "NVIDIA";
    bool nvidia = !strcasecmp(vendor, "NVIDIA"), amd = !strcasecmp(vendor, "AMD");
    if (nvidia)
        sb_puts(&b, "AutoDetect=nvml\n");
    else if (amd)
        sb_puts(&b, "AutoDetect=rsmi\n");
    for (int k = 0; k < nb; k++) {
        sb_puts(&b, "NodeName=");
        node_range(&b, bl[k].first, bl[k].count, width);
        if (bl[k].mig) {
            /* MIG instances are found by NVML (AutoDetect=nvml); their type
             * contains the profile name */
            sb_printf(&b, " Name=gpu Type=%s Count=%d\n", bl[k].mig->name,
                      t->gpus_per_node * bl[k].mig->count);
            continue;
        }
        if (nvidia)
            sb_printf(&b, " Name=gpu Type=%s File=/dev/nvidia[0-%d]\n", gtype,
                      t->gpus_per_node - 1);
        else if (amd)
            sb_printf(&b, " Name=gpu Type=%s File=/dev/dri/renderD[128-%d]\n", gtype,
                      128 + t->gpus_per_node - 1);
        else
            sb_printf(&b, " Name=gpu Type=%s Count=%d\n", gtype, t->gpus_per_node);
        if (bl[k].shards > 0) {
            sb_puts(&b, "NodeName=");
            node_range(&b, bl[k].first, bl[k].count, width);
            sb_printf(&b, " Name=shard Count=%d\n", bl[k].shards);
        }
    }
    return sb_finish(&b);
}

static char *topology_conf(const Plan *p, const TenancyExport *t, int width)
{
    StrBuf b;
    sb_init(&b);
    sb_puts(&b, "# topology.conf (topology/tree) for plan ");
    export_comment_text(&b, p->name);
    sb_printf(&b, ": %d leaf switch(es) of up to %d nodes under one spine\n", t->leaves,
              t->nodes_per_leaf);
    int lw = t->leaves >= 100 ? 3 : 2;
    for (int l = 0; l < t->leaves; l++) {
        int first = l * t->nodes_per_leaf;
        int count = first + t->nodes_per_leaf <= t->nodes ? t->nodes_per_leaf : t->nodes - first;
        sb_printf(&b, "SwitchName=leaf%0*d Nodes=", lw, l + 1);
        node_range(&b, first, count, width);
        sb_puts(&b, "\n");
    }
    if (t->leaves > 1)
        sb_printf(&b, "SwitchName=spine Switches=leaf[%0*d-%0*d]\n", lw, 1, lw, t->leaves);
    return sb_finish(&b);
}

static void grp_tres(StrBuf *b, const TeamQuota *q, const char *gtype)
{
    if (q->borrow_gpus < 0) /* unlimited borrowing: no ceiling */
        return;
    int whole = q->whole_gpus + q->borrow_gpus, slices = 0;
    sb_printf(b, " GrpTRES=gres/gpu:%s=%d", gtype, whole);
    for (int k = 0; k < q->n_mig; k++) {
        sb_printf(b, ",gres/gpu:%s=%d", q->mig[k].profile->name, q->mig[k].slices);
        slices += q->mig[k].slices;
    }
    if (q->shared_slots > 0)
        sb_printf(b, ",gres/shard=%d", q->shared_slots);
    /* untyped requests count only here: whole GPUs, borrowed ones and MIG
     * instances (each a gres/gpu), time-shared GPUs */
    sb_printf(b, ",gres/gpu=%d", whole + slices + q->shared_gpus);
}

/* Append TRES name t to the space-separated list in l unless it is there. */
static void tres_add(StrBuf *l, const char *t)
{
    char key[96];
    snprintf(key, sizeof key, " %s ", t);
    if (l->s && strstr(l->s, key))
        return;
    sb_puts(l, l->len ? "" : " ");
    sb_printf(l, "%s ", t);
}

static char *accounts_sh(const Plan *p, const TenancyExport *t, char names[][EXPORT_NAME_LEN],
                         const char *gtype)
{
    StrBuf b;
    sb_init(&b);
    sb_puts(&b, "#!/bin/sh\n# accounts.sh for plan ");
    export_comment_text(&b, p->name);
    sb_puts(&b, " (generated by gpuplan " PACKAGE_VERSION ")\n"
                "# Creates in slurmdbd each team's QOS (its partition's QOS: GrpTRES is the\n"
                "# team's GPU ceiling), its account (the same ceiling, its fair share) and,\n"
                "# with USERS_FILE (lines \"ACCOUNT USER\"), the users.  Run on the controller\n"
                "# as the Slurm admin; safe to run again.  On a new cluster, in this order:\n"
                "#   start slurmdbd;  sh accounts.sh --before-slurmctld   (the QOS slurm.conf's\n"
                "#                    partitions name: slurmctld will not start without them)\n"
                "#   start slurmctld; sh accounts.sh [USERS_FILE]         (slurmctld has then\n"
                "#                    registered the GRES TRES the limits name)\n"
                "set -eu\n"
                "SACCTMGR=${SACCTMGR:-sacctmgr}\n"
                "# sacctmgr exits 1 when there is nothing new to add: only that is tolerated\n"
                "run() {\n"
                "    out=$(\"$SACCTMGR\" -i \"$@\" 2>&1) && { printf '%s\\n' \"$out\"; return 0; }\n"
                "    case $out in *'Nothing new added'*|*'already exists'*|*'Nothing modified'*) "
                "return 0 ;; esac\n"
                "    printf '%s\\n' \"$out\" >&2\n"
                "    return 1\n"
                "}\n"
                "before=0\n"
                "if [ \"${1:-}\" = --before-slurmctld ]; then before=1; shift; fi\n");
    bool prio = p->tenancy.preemption || p->tenancy.policy == POLICY_PRIORITY;
    if (prio) {
        /* "normal" exists in a fresh slurmdbd: modified, not added */
        sb_puts(&b, "# job priorities: QOS low < normal < high\n"
                    "run add qos 'low'\nrun add qos 'high'\n"
                    "run modify qos where name='low' set Priority=0\n"
                    "run modify qos where name='normal' set Priority=100\n"
                    "run modify qos where name='high' set Priority=1000\n");
        if (p->tenancy.preemption)
            sb_puts(&b, "run modify qos where name='normal' set Preempt='low'\n"
                        "run modify qos where name='high' set Preempt='low,normal'\n");
    }
    sb_puts(&b, "# one QOS per team: its partition's QOS\n");
    StrBuf need;
    sb_init(&need);
    for (int i = 0; i < p->tenancy.n_teams; i++) {
        const TeamQuota *q = &t->teams[i];
        sb_puts(&b, "run add qos ");
        sh_quote(&b, names[i]);
        sb_puts(&b, " Description=");
        sh_quote(&b, p->tenancy.teams[i].name);
        sb_puts(&b, "\n");
        if (q->borrow_gpus < 0)
            continue;
        char tn[96];
        tres_add(&need, "gres/gpu");
        snprintf(tn, sizeof tn, "gres/gpu:%s", gtype);
        tres_add(&need, tn);
        for (int k = 0; k < q->n_mig; k++) {
            snprintf(tn, sizeof tn, "gres/gpu:%s", q->mig[k].profile->name);
            tres_add(&need, tn);
        }
        if (q->shared_slots > 0)
            tres_add(&need, "gres/shard");
    }
    sb_puts(&b, "if [ $before -eq 1 ]; then\n"
                "    echo 'accounts.sh: QOS created; start slurmctld, then run accounts.sh again'\n"
                "    exit 0\n"
                "fi\n");
    char *needs = sb_finish(&need);
    if (needs && needs[0]) {
        sb_puts(&b, "# the GRES TRES the limits name (slurmctld registers AccountingStorageTRES)\n"
                    "tres=$(\"$SACCTMGR\" -n -P show tres format=Type,Name | tr '|' '/')\n"
                    "for t in");
        sb_puts(&b, needs);
        sb_puts(&b, "; do\n"
                    "    printf '%s\\n' \"$tres\" | grep -qxF \"$t\" || {\n"
                    "        echo \"accounts.sh: slurmdbd has no TRES $t yet: start slurmctld with "
                    "this bundle's slurm.conf (AccountingStorageTRES registers it), then run "
                    "accounts.sh again\" >&2\n"
                    "        exit 3\n"
                    "    }\n"
                    "done\n");
    }
    free(needs);
    for (int i = 0; i < p->tenancy.n_teams; i++) {
        const Team *tm = &p->tenancy.teams[i];
        const TeamQuota *q = &t->teams[i];
        long share = lround(tm->weight * 100);
        sb_puts(&b, "# team ");
        export_comment_text(&b, tm->name);
        sb_printf(&b, ": guaranteed %d GPUs (%d whole", q->quota_gpus, q->whole_gpus);
        for (int k = 0; k < q->n_mig; k++)
            sb_printf(&b, ", %d as %d MIG %s (p95 of %.1f concurrent)", q->mig[k].gpus,
                      q->mig[k].slices, q->mig[k].profile->name, q->mig[k].mean_slices);
        if (q->shared_gpus)
            sb_printf(&b, ", %d time-shared as %d shards", q->shared_gpus, q->shared_slots);
        sb_puts(&b, ")");
        if (q->borrow_gpus >= 0)
            sb_printf(&b, ", may borrow %d\n", q->borrow_gpus);
        else
            sb_puts(&b, ", may borrow any idle GPUs\n");
        StrBuf g;
        sb_init(&g);
        sb_puts(&g, "");
        grp_tres(&g, q, gtype);
        char *gs = sb_finish(&g);
        bool lim = gs && gs[0];
        if (lim) {
            sb_puts(&b, "run modify qos where name=");
            sh_quote(&b, names[i]);
            sb_printf(&b, " set%s\n", gs);
        }
        sb_puts(&b, "run add account ");
        sh_quote(&b, names[i]);
        sb_puts(&b, " Description=");
        sh_quote(&b, tm->name);
        sb_puts(&b, "\n");
        /* set (not only added): a second run after the plan changed updates them */
        sb_puts(&b, "run modify account where name=");
        sh_quote(&b, names[i]);
        sb_printf(&b, " set Fairshare=%ld%s\n", share < 1 ? 1 : share, lim ? gs : "");
        free(gs);
    }
    sb_puts(&b, "if [ $# -ge 1 ]; then\n"
                "    while read -r acct user rest; do\n"
                "        case $acct in ''|'#'*) continue ;; esac\n"
                "        case $acct$user in *[!a-z0-9_.-]*) echo \"accounts.sh: bad line: $acct "
                "$user\" >&2; exit 2 ;; esac\n"
                "        case $acct$user in -*) echo \"accounts.sh: bad line: $acct $user\" >&2; "
                "exit 2 ;; esac\n");
    sb_printf(&b, "        run add user \"$user\" Account=\"$acct\"%s\n",
              prio ? " QOS=low,normal,high DefaultQOS=normal" : "");
    sb_puts(&b, "    done <\"$1\"\nfi\n");
    return sb_finish(&b);
}

int export_slurm_files(const Plan *p, const PlanResult *r, const Catalog *c, ExportFile *files)
{
    const Accelerator *a = catalog_find_accelerator(c, p->accelerator);
    TenancyExport *t = calloc(1, sizeof *t);
    char(*names)[EXPORT_NAME_LEN] = calloc(PLAN_MAX_TEAMS, EXPORT_NAME_LEN);
    char *notes = calloc(1, EXPORT_NOTES_LEN);
    NodeBlock *bl = calloc(MAX_BLOCKS, sizeof *bl);
    int rc = -1;
    if (!t || !names || !notes || !bl)
        goto out;
    export_team_names(p, NAMES_SLURM, names, notes, EXPORT_NOTES_LEN);
    export_tenancy(p, r, c, t, notes, EXPORT_NOTES_LEN);
    StrBuf nb_notes;
    sb_init(&nb_notes);
    sb_puts(&nb_notes, notes);
    int nb = plan_blocks(t, bl, &nb_notes);
    char *all_notes = sb_finish(&nb_notes);
    if (!all_notes)
        goto out;
    char gtype[CAT_ID_LEN + 8];
    gpu_type(a, p->accelerator, gtype, sizeof gtype);
    int width = t->nodes >= 10000 ? 5 : 4;
    memset(files, 0, 4 * sizeof *files);
    files[0] = (ExportFile){"slurm.conf",
                            slurm_conf(p, r, t, bl, nb, gtype, width, names, all_notes), 0644};
    files[1] = (ExportFile){"gres.conf", gres_conf(p, a, t, bl, nb, gtype, width), 0644};
    files[2] = (ExportFile){"topology.conf", topology_conf(p, t, width), 0644};
    files[3] = (ExportFile){"accounts.sh", accounts_sh(p, t, names, gtype), 0755};
    free(all_notes);
    rc = 4;
    for (int i = 0; i < 4; i++)
        if (!files[i].text)
            rc = -1;
    if (rc < 0)
        export_files_free(files, 4);
out:
    free(t);
    free(names);
    free(notes);
    free(bl);
    return rc;
}

char *export_slurm(const Plan *p, const PlanResult *r, const Catalog *c)
{
    ExportFile f[4];
    if (export_slurm_files(p, r, c, f) < 0)
        return NULL;
    char *s = export_files_join(f, 4);
    export_files_free(f, 4);
    return s;
}
