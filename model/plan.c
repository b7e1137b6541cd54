/* model/plan.c — defaults of the plan format (PLAN-FORMAT.md) and the
 * small result helpers every stage uses. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "plan.h"

void plan_init(Plan *p)
{
    memset(p, 0, sizeof *p);
    p->format = PLAN_FORMAT_VERSION;
    strcpy(p->accelerator, "H100-SXM");
    p->horizon_years = 3;

    p->site.kind = SITE_ONPREM;
    strcpy(p->site.instance, "p5.48xlarge");
    p->site.pricing = PRICING_ON_DEMAND;
    p->site.rack_power_kw = 40;
    p->site.cooling = COOLING_AIR;
    p->site.pue = 1.3;
    p->site.power_price_kwh = 0.08;
    p->site.headroom = 0.10;

    p->network.fabric = FABRIC_INFINIBAND;
    p->network.link_bps = 400e9;
    p->network.topology = TOPO_RAIL_OPTIMIZED;
    p->network.oversubscription = 1;
    p->network.switch_ports = 64;

    p->storage.system = STORAGE_LUSTRE;
    p->storage.dataset_bytes = 0;
    p->storage.checkpoints_kept = 5;
    p->storage.checkpoint_stall_s = 60;

    p->tenancy.gpus = 0;
    p->tenancy.policy = POLICY_FAIR_SHARE;
    p->tenancy.preemption = true;
    p->tenancy.backfill = true;
    p->tenancy.restore_s = 600;
    p->tenancy.horizon_s = 30 * 86400.0;
    p->tenancy.wait_p95_s = 4 * 3600.0;
    p->tenancy.mtbf_gpu_h = 50000;
    p->tenancy.seed = 1;
    p->ranges.samples = 1000;
    p->ranges.seed = 1;
}

int workload_pipeline_slots(const Workload *w, int layers, int pp)
{
    return layers + (w->pipeline_split_embedding_loss && pp > 1 ? 2 : 0);
}

void workload_init(Workload *w, WorkloadKind kind)
{
    memset(w, 0, sizeof *w);
    w->kind = kind;
    w->model.glu = true;
    w->model.experts = 1;
    w->model.experts_per_token = 1;
    w->precision = PREC_BF16;
    w->kv_precision = PREC_BF16;
    /* training */
    w->seq_len = 4096;
    w->global_batch = 1024;
    w->micro_batch = 0;
    w->optimizer_bytes_per_param = 16;
    w->zero = 1;
    w->parallel.sp = -1;
    w->recompute = RECOMPUTE_AUTO;
    w->flash_attention = true;
    /* inference */
    w->prompt_tokens = 2048;
    w->output_tokens = 256;
    w->requests_per_s = 1;
    w->ttft_s = 1.0;
    w->tpot_s = 0.040;
}

void team_init(Team *t)
{
    memset(t, 0, sizeof *t);
    t->weight = 1;
    t->borrow_gpus = -1;
}

void jobclass_init(JobClass *j)
{
    memset(j, 0, sizeof *j);
    j->per_day = 1;
    j->gpus = 1;
    j->hours = 1;
    j->duration = DUR_LOGNORMAL;
    j->cv = 1.0;
    j->priority = PRIO_NORMAL;
}

const char *workload_accelerator(const Plan *p, const Workload *w)
{
    return w->accelerator[0] ? w->accelerator : p->accelerator;
}

/* Memory of a profile named "<c>g.<m>gb" when the part it came from is not
 * known (NVIDIA MIG user guide naming). */
static double mig_name_mem(const char *name)
{
    const char *dot = strchr(name, '.');
    return dot ? atof(dot + 1) * 1e9 : 0;
}

int plan_remap_mig(Plan *p, const Accelerator *from, const Accelerator *to, char *note, size_t len)
{
    if (note && len)
        note[0] = '\0';
    if (!p || !to)
        return 0;
    int changed = 0;
    size_t used = 0;
    for (int t = 0; t < p->tenancy.n_teams; t++)
        for (int k = 0; k < p->tenancy.teams[t].n_jobs; k++) {
            JobClass *j = &p->tenancy.teams[t].jobs[k];
            if (!j->mig[0] || accelerator_find_mig(to, j->mig))
                continue;
            MigProfile old;
            const MigProfile *known = from ? accelerator_find_mig(from, j->mig) : NULL;
            if (known) {
                old = *known;
            } else {
                memset(&old, 0, sizeof old);
                snprintf(old.name, sizeof old.name, "%s", j->mig);
                old.compute_slices = atoi(j->mig) > 0 ? atoi(j->mig) : 1;
                old.mem_bytes = mig_name_mem(j->mig);
            }
            const MigProfile *near = accelerator_nearest_mig(to, &old);
            char what[160];
            if (near) {
                snprintf(what, sizeof what, "%s/%s %s → %s", p->tenancy.teams[t].name, j->name,
                         old.name, near->name);
                snprintf(j->mig, sizeof j->mig, "%s", near->name);
            } else {
                /* A MIG slice is c of the 7 compute slices of a GPU (NVIDIA
                 * MIG user guide, "GPU instance profiles"); time-shared on a
                 * part without MIG it needs that share of compute and its
                 * memory in HBM. */
                double frac = old.compute_slices / 7.0;
                if (to->hbm_bytes > 0 && old.mem_bytes / to->hbm_bytes > frac)
                    frac = old.mem_bytes / to->hbm_bytes;
                frac = ceil(frac * 1000) / 1000;
                j->mig[0] = '\0';
                j->gpus = frac >= 1 ? 1 : frac;
                j->min_gpus = j->max_gpus = 0;
                snprintf(what, sizeof what, "%s/%s %s → %.3g GPU (time-shared: %s has no MIG)",
                         p->tenancy.teams[t].name, j->name, old.name, j->gpus, to->id);
            }
            changed++;
            if (note && used < len) {
                int w = snprintf(note + used, len - used, "%s%s", used ? ", " : "", what);
                if (w > 0)
                    used += (size_t)w < len - used ? (size_t)w : len - used - 1;
            }
        }
    return changed;
}

void result_warn(PlanResult *r, const char *fmt, ...)
{
    if (!r || r->n_warnings >= PLAN_MAX_WARNINGS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->warnings[r->n_warnings++], PLAN_TEXT_LEN, fmt, ap);
    va_end(ap);
}

void result_assume(PlanResult *r, const char *scope, const char *fmt, ...)
{
    if (!r || r->n_assumptions >= PLAN_MAX_ASSUMPTIONS)
        return;
    Assumption *a = &r->assumptions[r->n_assumptions++];
    snprintf(a->scope, sizeof a->scope, "%s", scope ? scope : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->text, sizeof a->text, fmt, ap);
    va_end(ap);
}
