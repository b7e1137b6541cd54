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

void model_layer_counts(const ModelShape *m, LayerCounts *lc)
{
    memset(lc, 0, sizeof *lc);
    if (!m->hybrid[0]) {
        int L = m->layers > 0 ? m->layers : 0;
        int d = m->experts > 1 ? (m->dense_layers < L ? m->dense_layers : L) : L;
        if (d < 0)
            d = 0;
        lc->layers = lc->attn = L;
        lc->mlp = d;
        lc->moe = L - d;
        return;
    }
    for (int i = 0; i < PLAN_HYBRID_LEN && m->hybrid[i]; i++) {
        switch (m->hybrid[i]) {
        case 'M': lc->mamba++; break;
        case '*': lc->attn++; break;
        case '-': lc->mlp++; break;
        case 'E': lc->moe++; break;
        default:
            if (!lc->bad) {
                lc->bad = (unsigned char)m->hybrid[i];
                lc->bad_at = i;
            }
            continue;
        }
        lc->layers++;
    }
}

const char *model_arch_class(const ModelShape *m)
{
    return m->hybrid[0] ? "hybrid" : m->experts > 1 ? "moe" : "dense";
}

/* Megatron-Core's module names, then torchtitan's per-op policy */
static const struct {
    const char *name;
    unsigned bit;
} recompute_module_names[] = {
    {"core_attn", RM_CORE_ATTN}, {"layernorm", RM_LAYERNORM}, {"moe_act", RM_MOE_ACT},
    {"mlp", RM_MLP}, {"moe", RM_MOE}, {"shared_experts", RM_SHARED_EXPERTS},
    {"mla_up_proj", RM_MLA_UP_PROJ}, {"every_other_mm", RM_EVERY_OTHER_MM},
};

bool recompute_modules_next(const char **pp, const char **name, size_t *len)
{
    const char *p = *pp;
    if (!p)
        return false;
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    while (n > 0 && *p == ' ')
        p++, n--;
    while (n > 0 && p[n - 1] == ' ')
        n--;
    *name = p;
    *len = n;
    *pp = end ? end + 1 : NULL;
    return true;
}

bool recompute_modules_mask(const char *text, unsigned *mask, char *bad, size_t bad_len)
{
    unsigned m = 0;
    const char *p = text && text[0] ? text : NULL, *name;
    size_t n;
    while (recompute_modules_next(&p, &name, &n)) {
        unsigned hit = 0;
        size_t names = sizeof recompute_module_names / sizeof *recompute_module_names;
        for (size_t i = 0; i < names && n > 0; i++)
            if (strlen(recompute_module_names[i].name) == n &&
                strncmp(recompute_module_names[i].name, name, n) == 0)
                hit = recompute_module_names[i].bit;
        if (!hit) {
            if (bad && bad_len > 0)
                snprintf(bad, bad_len, "%.*s", (int)(n < 64 ? n : 64), name);
            return false;
        }
        m |= hit;
    }
    if (mask)
        *mask = m;
    return true;
}

void model_expert_dims(const ModelShape *m, double *ffn, double *in)
{
    if (ffn)
        *ffn = m->expert_ffn_hidden > 0 ? m->expert_ffn_hidden : m->ffn_hidden;
    if (in)
        *in = m->moe_latent > 0 ? m->moe_latent : m->hidden;
}

double model_window_layers(const ModelShape *m, double attn_layers)
{
    if (!(m->window > 0))
        return 0.0;
    return m->window_layers > 0 && m->window_layers < attn_layers ? m->window_layers
                                                                   : attn_layers;
}

void model_mamba_dims(const ModelShape *m, MambaDims *d)
{
    d->head_dim = m->mamba_head_dim > 0 ? m->mamba_head_dim : 64;
    d->heads = m->mamba_heads > 0 ? m->mamba_heads
                                  : (m->hidden > 0 ? 2 * m->hidden / d->head_dim : 0);
    d->state = m->mamba_state > 0 ? m->mamba_state : 128;
    d->groups = m->mamba_groups > 0 ? m->mamba_groups : 8;
    d->conv = m->mamba_conv > 0 ? m->mamba_conv : 4;
    d->chunk = m->mamba_chunk > 0 ? m->mamba_chunk : 128;
    d->d_inner = (double)d->heads * d->head_dim;
    d->conv_dim = d->d_inner + 2.0 * d->groups * d->state;
    d->in_proj = d->d_inner + d->conv_dim + d->heads;
    /* Forward FLOPs per token of the SSD (the chunked "state space dual"
     * algorithm as the kernels run it: Dao & Gu 2024, arXiv:2405.21060, §6
     * and Listing 1; mamba_ssm ops/triton/ssd_combined.py
     * mamba_chunk_scan_combined), per chunk of Q tokens, 2 FLOPs per
     * multiply-add:
     *   C·Bᵀ per group          Q × Q × state, causal half   (bmm_chunk)
     *   (L ∘ CBᵀ)·X per head    Q × Q × head_dim, causal half (chunk_scan)
     *   Bᵀ·X per head           state × head_dim × Q          (chunk_state)
     *   C·h per head            Q × state × head_dim          (chunk_scan)
     * — the convention of TileLang's Mamba-2 chunk_scan benchmark
     * (tile-ai/tilelang benchmark/mamba2, 2·L·Q·H·P·0.5 + 2·L·H·P·N), whose
     * measured rate is the catalog's ssd_eff.  Passing the states between
     * chunks is element-wise.  Megatron-LM's num_floating_point_operations
     * counts the scan as 7·d_in·state with d_in = 2·hidden ("should be
     * updated based on new SSD kernels, but small percent of overall layer
     * flops"). */
    double Q = d->chunk, N = d->state, P = d->head_dim, H = d->heads, G = d->groups;
    d->ssd_flops = G * Q * N + H * Q * P + 4.0 * H * N * P;
    /* Forward bytes per token of those kernels (_mamba_chunk_scan_combined_fwd):
     *   chunk_cumsum  reads dt (16-bit), writes dt and the decay's cumulative
     *                 sum dA_cumsum (fp32): 2 + 8 per head;
     *   chunk_state   reads x, B, dt, dA_cumsum; writes each chunk's state
     *                 (fp32, heads × head_dim × state per chunk of Q tokens);
     *   state_passing reads those states and writes the passed ones;
     *   bmm_chunk     reads C and B, writes C·Bᵀ per group (fp32, Q a token);
     *   chunk_scan    reads C·Bᵀ, x, C, dt, dA_cumsum and the passed states,
     *                 writes y.
     * x and y are d_inner wide, B and C groups × state, 16-bit. */
    double states = 4.0 * H * P * N / Q;
    d->ssd_bytes = 2.0 * (2.0 * d->d_inner) + 2.0 * (4.0 * G * N) + 2.0 * d->d_inner + /* x B C y */
                   (2.0 + 8.0 + 16.0) * H +                                           /* dt, dA */
                   2.0 * 4.0 * G * Q +                                                /* C·Bᵀ */
                   4.0 * states; /* written, read and written by state_passing, read */
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
    w->zero = -1; /* auto: the framework's (framework_zero) */
    w->parallel.sp = -1;
    w->moe_fused_dispatch = -1;
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

void text_vfit(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (size == 0)
        return;
    int n = vsnprintf(buf, size, fmt, ap);
    if (n < 0) {
        buf[0] = '\0';
        return;
    }
    if ((size_t)n < size || size < 8)
        return;
    /* cut back to the last space within a word's length and mark the cut
     * there, else (one long word) at the start of a character */
    size_t end = size - 5, floor = size > 64 ? size - 64 : 0;
    while (end > floor && buf[end] != ' ')
        end--;
    if (end > floor) {
        memcpy(buf + end, " \xE2\x80\xA6", 5);
        return;
    }
    end = size - 4;
    while (end > 0 && ((unsigned char)buf[end] & 0xC0) == 0x80)
        end--;
    memcpy(buf + end, "\xE2\x80\xA6", 4);
}

void text_fit(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_vfit(buf, size, fmt, ap);
    va_end(ap);
}

int schedule_worst_team(const ScheduleResult *r)
{
    int who = 0;
    for (int t = 0; t < r->n_teams; t++)
        if (r->teams[t].jobs > 0 && r->teams[t].wait_hours_p95 > r->teams[who].wait_hours_p95)
            who = t;
    return who;
}

double schedule_wait_score(const ScheduleResult *r, int *team, int *cls)
{
    int who = schedule_worst_team(r), starved = -1;
    double w = r->n_teams > 0 && r->teams[who].jobs > 0 ? r->teams[who].wait_hours_p95 : 0;
    for (int c = 0; c < r->n_classes; c++) {
        const ClassSchedResult *k = &r->classes[c];
        if (k->jobs <= 0 || k->gpu_hours > 0 || !(k->wait_hours_max > w))
            continue;
        for (int t = 0; t < r->n_teams; t++)
            if (strcmp(r->teams[t].name, k->team) == 0) {
                w = k->wait_hours_max;
                who = t;
                starved = c;
            }
    }
    if (team)
        *team = who;
    if (cls)
        *cls = starved;
    return w;
}

void result_warn(PlanResult *r, const char *fmt, ...)
{
    if (!r)
        return;
    if (r->n_warnings >= PLAN_MAX_WARNINGS) {
        r->warnings_dropped++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    text_vfit(r->warnings[r->n_warnings++], PLAN_TEXT_LEN, fmt, ap);
    va_end(ap);
}

void result_assume(PlanResult *r, const char *scope, const char *fmt, ...)
{
    if (!r)
        return;
    if (r->n_assumptions >= PLAN_MAX_ASSUMPTIONS) {
        r->assumptions_dropped++;
        return;
    }
    Assumption *a = &r->assumptions[r->n_assumptions++];
    snprintf(a->scope, sizeof a->scope, "%s", scope ? scope : "");
    va_list ap;
    va_start(ap, fmt);
    text_vfit(a->text, sizeof a->text, fmt, ap);
    va_end(ap);
}

void result_note_dropped(PlanResult *r)
{
    if (r->warnings_dropped > 0 && r->n_warnings == PLAN_MAX_WARNINGS) {
        r->warnings_dropped++; /* the one this line replaces */
        snprintf(r->warnings[PLAN_MAX_WARNINGS - 1], PLAN_TEXT_LEN,
                 "%d further warnings were not kept (a result holds at most %d)",
                 r->warnings_dropped, PLAN_MAX_WARNINGS - 1);
    }
    if (r->assumptions_dropped > 0 && r->n_assumptions == PLAN_MAX_ASSUMPTIONS) {
        r->assumptions_dropped++;
        Assumption *a = &r->assumptions[PLAN_MAX_ASSUMPTIONS - 1];
        snprintf(a->scope, sizeof a->scope, "plan");
        snprintf(a->text, sizeof a->text,
                 "%d further assumptions were not kept (a result holds at most %d)",
                 r->assumptions_dropped, PLAN_MAX_ASSUMPTIONS - 1);
    }
}
