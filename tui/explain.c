/* tui/explain.c — "explain this number" (issue 15): for each headline
 * number of the screen, its formula, the inputs with their values, the
 * assumptions the model recorded for its scope and the catalog sources.
 * Everything is read from the PlanResult, the plan and the catalog: the
 * model computed the numbers, this only says how.  One table of
 * explainers; add a row to explain another number. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "explain.h"
#include "fmt.h"
#include "units.h"

/* The cost option the header shows: the plan's own site when priced, else
 * the cheapest (the same rule as layout.c's header). */
static const CostOption *header_cost(const PlanResult *r)
{
    if (!r->have_cost)
        return NULL;
    int k = r->cost.chosen >= 0 && r->cost.chosen < r->cost.n_options ? r->cost.chosen
            : r->cost.cheapest >= 0 && r->cost.cheapest < r->cost.n_options ? r->cost.cheapest
                                                                           : -1;
    return k >= 0 ? &r->cost.options[k] : NULL;
}

static void assumptions(StrBuf *b, const PlanResult *r, const char *scope)
{
    bool any = false;
    for (int i = 0; i < r->n_assumptions; i++)
        if (strcmp(r->assumptions[i].scope, scope) == 0) {
            if (!any)
                sb_puts(b, "\n# assumptions\n");
            any = true;
            sb_printf(b, "- %s\n", r->assumptions[i].text);
        }
}

static void accel_source(StrBuf *b, const App *app, const char *id)
{
    const Accelerator *a = catalog_find_accelerator(&app->cat, id);
    if (a)
        sb_printf(b, "- %s (%s): %s, as of %s\n", a->id, a->name, a->source, a->as_of);
}

/* ---- explainers: value (for the pick list) and text */

static bool tco_value(const App *app, const PlanResult *r, int wl, char *buf, size_t len)
{
    (void)wl;
    const CostOption *o = header_cost(r);
    if (!o)
        return false;
    char usd[32];
    snprintf(buf, len, "%s / %gy", fmt_usd(o->tco_usd, usd, sizeof usd), app->plan.horizon_years);
    return true;
}

static void tco_text(const App *app, const PlanResult *r, int wl, StrBuf *b)
{
    (void)wl;
    const CostOption *o = header_cost(r);
    if (!o)
        return;
    char v1[32], v2[32], v3[32], g[32];
    sb_printf(b, "# formula\nTCO = capex + opex per year × horizon  (%s)\n", o->name);
    sb_printf(b, "    = %s + %s × %g y = %s\n", fmt_usd(o->capex_usd, v1, sizeof v1),
              fmt_usd(o->opex_usd_per_year, v2, sizeof v2), app->plan.horizon_years,
              fmt_usd(o->tco_usd, v3, sizeof v3));
    sb_puts(b, "\n# inputs\n");
    sb_printf(b, "- option: %s%s\n", o->name,
              r->cost.chosen >= 0 && o == &r->cost.options[r->cost.chosen]
                  ? " (the plan's own site)" : " (cheapest: the plan's site is not priced)");
    sb_printf(b, "- GPUs: %s %s\n", fmt_int(o->gpus, g, sizeof g), o->accelerator);
    sb_printf(b, "- $/GPU-hour: %.2f at %.0f%% utilisation\n", o->usd_per_gpu_hour,
              100 * r->cost.utilization);
    if (r->have_power)
        sb_printf(b, "- energy: %.0f MWh a year, %s a year\n", r->power.energy_mwh_per_year,
                  fmt_usd(r->power.energy_usd_per_year, v1, sizeof v1));
    sb_printf(b, "- horizon: %g years\n", app->plan.horizon_years);
    if (o->usd_per_training_run > 0)
        sb_printf(b, "- per training run: %s\n", fmt_usd(o->usd_per_training_run, v1, sizeof v1));
    assumptions(b, r, "cost");
    sb_puts(b, "\n# sources\n");
    sb_printf(b, "- %s%s%s\n", o->source[0] ? o->source : "catalog prices",
              o->as_of[0] ? ", as of " : "", o->as_of);
    accel_source(b, app, o->accelerator);
}

static bool gpus_value(const App *app, const PlanResult *r, int wl, char *buf, size_t len)
{
    (void)app;
    (void)wl;
    if (!r->have_layout)
        return false;
    char g[32];
    snprintf(buf, len, "%s %s", fmt_int(r->cluster.gpus, g, sizeof g), r->cluster.accelerator);
    return true;
}

static void gpus_text(const App *app, const PlanResult *r, int wl, StrBuf *b)
{
    (void)wl;
    const ClusterResult *c = &r->cluster;
    char a[32], t[32], i[32], p[32], h[32];
    sb_printf(b, "# formula\nGPUs = training + inference + shared pool + headroom\n"
                 "     = %s + %s + %s + %s = %s\n",
              fmt_int(c->gpus_training, t, sizeof t), fmt_int(c->gpus_inference, i, sizeof i),
              fmt_int(c->gpus_pool, p, sizeof p), fmt_int(c->gpus_headroom, h, sizeof h),
              fmt_int(c->gpus, a, sizeof a));
    sb_puts(b, "\n# inputs\n");
    for (int k = 0; k < r->n_workloads; k++) {
        const WorkloadResult *w = &r->workloads[k];
        sb_printf(b, "- %s: %s GPUs (%s)\n", w->name,
                  fmt_int(w->kind == WL_TRAINING ? w->train.gpus : w->infer.gpus, a, sizeof a),
                  w->kind == WL_TRAINING ? "training" : "inference");
    }
    if (r->schedule.ran)
        sb_printf(b, "- shared pool: %s GPUs (%s)\n", fmt_int(r->schedule.gpus, a, sizeof a),
                  app->plan.tenancy.gpus > 0 ? "the plan's" : "smallest meeting the wait target");
    sb_printf(b, "- headroom: %.0f%% of the sized need (site.headroom)\n",
              100 * app->plan.site.headroom);
    sb_printf(b, "- %d GPUs per node → %s nodes, %d racks\n", c->gpus_per_node,
              fmt_int(c->nodes, a, sizeof a), c->racks);
    assumptions(b, r, "cluster");
    sb_puts(b, "\n# sources\n");
    accel_source(b, app, c->accelerator);
}

static bool power_value(const App *app, const PlanResult *r, int wl, char *buf, size_t len)
{
    (void)app;
    (void)wl;
    if (!r->have_power)
        return false;
    fmt_si(r->power.facility_kw * 1e3, "W", buf, len);
    return true;
}

static void power_text(const App *app, const PlanResult *r, int wl, StrBuf *b)
{
    (void)wl;
    const PowerResult *p = &r->power;
    char f[32], it[32], g[32], n[32], s[32];
    sb_printf(b, "# formula\nfacility = IT load × PUE = %s × %.2f = %s\n"
                 "IT load = GPU nodes + network + storage = %s + %s + %s\n",
              fmt_si(p->it_kw * 1e3, "W", it, sizeof it), app->plan.site.pue,
              fmt_si(p->facility_kw * 1e3, "W", f, sizeof f),
              fmt_si(p->gpu_nodes_kw * 1e3, "W", g, sizeof g),
              fmt_si(p->network_kw * 1e3, "W", n, sizeof n),
              fmt_si(p->storage_kw * 1e3, "W", s, sizeof s));
    sb_puts(b, "\n# inputs\n");
    sb_printf(b, "- %d nodes of %s\n", r->cluster.nodes, r->cluster.accelerator);
    sb_printf(b, "- PUE %.2f (site.pue), rack limit %.0f kW, hottest rack %.1f kW\n",
              app->plan.site.pue, p->rack_limit_kw, p->rack_kw);
    sb_printf(b, "- energy %.0f MWh a year at $%.3f/kWh\n", p->energy_mwh_per_year,
              app->plan.site.power_price_kwh);
    sb_printf(b, "- cooling: %s\n", p->verdict);
    assumptions(b, r, "power");
    sb_puts(b, "\n# sources\n");
    accel_source(b, app, r->cluster.accelerator);
}

static bool days_value(const App *app, const PlanResult *r, int wl, char *buf, size_t len)
{
    (void)app;
    const WorkloadResult *w = &r->workloads[wl];
    if (w->kind != WL_TRAINING || !w->ok)
        return false;
    units_days(w->train.train_days, buf, len);
    return true;
}

static void days_text(const App *app, const PlanResult *r, int wl, StrBuf *b)
{
    const WorkloadResult *w = &r->workloads[wl];
    const TrainResult *t = &w->train;
    const Workload *pw = NULL;
    for (int i = 0; i < app->plan.n_workloads; i++)
        if (strcmp(app->plan.workloads[i].name, w->name) == 0)
            pw = &app->plan.workloads[i];
    char tok[32], tps[32], g[32], d[32];
    double tokens = pw ? pw->tokens : 0;
    sb_printf(b, "# formula\ndays = tokens / (tokens per second × goodput) / 86,400\n"
                 "     = %s / (%s × %.3f) / 86,400 = %s\n",
              fmt_si(tokens, "", tok, sizeof tok), fmt_si(t->tokens_per_s, "", tps, sizeof tps),
              t->goodput, units_days(t->train_days, d, sizeof d));
    sb_printf(b, "tokens per second = global batch × seq_len / step time = %d × %d / %.3f s\n",
              pw ? pw->global_batch : 0, pw ? pw->seq_len : 0, t->step_s);
    sb_puts(b, "\n# inputs\n");
    sb_printf(b, "- %s GPUs of %s, layout tp%d pp%d dp%d cp%d ep%d, micro-batch %d\n",
              fmt_int(t->gpus, g, sizeof g), w->accelerator, t->layout.tp, t->layout.pp,
              t->layout.dp, t->layout.cp, t->layout.ep, t->layout.micro_batch);
    sb_printf(b, "- step %.3f s: compute %.3f, TP %.3f, PP bubble %.3f, DP %.3f, CP+EP %.3f\n",
              t->step_s, t->step.compute, t->step.tp_comm, t->step.pp_bubble, t->step.dp_comm,
              t->step.cp_comm + t->step.ep_comm);
    sb_printf(b, "- MFU %.1f%%, goodput %.1f%% (job MTBF %.1f h, checkpoint every %.0f min)\n",
              100 * t->mfu, 100 * t->goodput, t->job_mtbf_s / 3600,
              t->checkpoint_interval_s / 60);
    if (pw && pw->gpus > 0)
        sb_printf(b, "- size: gpus fixed at %d by the plan\n", pw->gpus);
    else if (pw)
        sb_printf(b, "- size: smallest count finishing in %g days (target_days)\n", pw->target_days);
    if (t->binding[0])
        sb_printf(b, "- binding: %s\n", t->binding);
    if (t->fix[0])
        sb_printf(b, "- fix: %s\n", t->fix);
    assumptions(b, r, w->name);
    sb_puts(b, "\n# sources\n");
    accel_source(b, app, w->accelerator);
}

static bool wgpus_value(const App *app, const PlanResult *r, int wl, char *buf, size_t len)
{
    (void)app;
    const WorkloadResult *w = &r->workloads[wl];
    if (!w->ok)
        return false;
    fmt_int(w->kind == WL_TRAINING ? w->train.gpus : w->infer.gpus, buf, len);
    return true;
}

static void wgpus_text(const App *app, const PlanResult *r, int wl, StrBuf *b)
{
    const WorkloadResult *w = &r->workloads[wl];
    if (w->kind == WL_TRAINING) {
        days_text(app, r, wl, b);
        return;
    }
    const InferResult *in = &w->infer;
    char g[32], tps[32];
    if (in->disaggregated) {
        /* two pools, each its GPUs per replica × replicas (model/plan.h
         * InferResult: gpus = prefill_gpus + decode_gpus) */
        sb_printf(b, "# formula\nGPUs = prefill pool + decode pool = %d × %d + %d × %d = %s\n",
                  in->prefill_tp, in->prefill_replicas, in->decode_tp, in->decode_replicas,
                  fmt_int(in->gpus, g, sizeof g));
        sb_puts(b, "prefill replicas: enough for the prompt rate within the TTFT target; decode "
                   "replicas: enough for the request rate at a batch that keeps TPOT within "
                   "target\n");
    } else {
        sb_printf(b, "# formula\nGPUs = tp × replicas = %d × %d = %s\n", in->tp, in->replicas,
                  fmt_int(in->gpus, g, sizeof g));
        sb_puts(b, "replicas: enough for the request rate at a batch that keeps TPOT within "
                   "target\n");
    }
    sb_puts(b, "\n# inputs\n");
    sb_printf(b, "- batch %d per replica, TTFT %.0f ms (prefill %.0f, queue %.0f), TPOT %.1f ms\n",
              in->batch_per_replica, 1e3 * in->ttft_s, 1e3 * in->prefill_s, 1e3 * in->queue_s,
              1e3 * in->tpot_s);
    sb_printf(b, "- %s output tokens/s in all, KV cache %.0f kB per token\n",
              fmt_si(in->output_tokens_per_s, "", tps, sizeof tps), in->kv_bytes_per_token / 1e3);
    sb_printf(b, "- %s the SLO\n", in->meets_slo ? "meets" : "misses");
    assumptions(b, r, w->name);
    sb_puts(b, "\n# sources\n");
    accel_source(b, app, w->accelerator);
}

typedef struct {
    const char *key;       /* `:explain KEY` */
    const char *label;
    bool per_workload;
    bool (*value)(const App *app, const PlanResult *r, int wl, char *buf, size_t len);
    void (*text)(const App *app, const PlanResult *r, int wl, StrBuf *b);
} Explainer;

static const Explainer explainers[] = {
    {"tco", "TCO", false, tco_value, tco_text},
    {"gpus", "GPUs", false, gpus_value, gpus_text},
    {"power", "facility power", false, power_value, power_text},
    {"days", "days", true, days_value, days_text},
    {"gpus", "GPUs", true, wgpus_value, wgpus_text},
};
#define N_EXPLAINERS (sizeof explainers / sizeof explainers[0])

int explain_list(const App *app, ExplainItem *out, int max)
{
    const PlanResult *r = app_result(app);
    if (!r)
        return 0;
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < N_EXPLAINERS; i++) {
            const Explainer *e = &explainers[i];
            if (e->per_workload != (pass == 1))
                continue;
            int nw = e->per_workload ? r->n_workloads : 1;
            for (int wl = 0; wl < nw && n < max; wl++) {
                char v[64];
                if (!e->value(app, r, wl, v, sizeof v))
                    continue;
                ExplainItem *it = &out[n++];
                it->explainer = (int)i;
                it->wl = e->per_workload ? wl : -1;
                if (e->per_workload)
                    snprintf(it->label, sizeof it->label, "%s %s: %s", r->workloads[wl].name,
                             e->label, v);
                else
                    snprintf(it->label, sizeof it->label, "%s: %s", e->label, v);
            }
        }
    return n;
}

int explain_find(const App *app, const char *what, ExplainItem *out)
{
    const PlanResult *r = app_result(app);
    if (!r || !what)
        return -1;
    /* "tco", "gpus", "power", or "WORKLOAD.days" / "WORKLOAD.gpus" */
    const char *dot = strrchr(what, '.');
    for (size_t i = 0; i < N_EXPLAINERS; i++) {
        const Explainer *e = &explainers[i];
        if (!e->per_workload && !dot && strcmp(what, e->key) == 0) {
            char v[64];
            if (!e->value(app, r, 0, v, sizeof v))
                return -1;
            out->explainer = (int)i;
            out->wl = -1;
            snprintf(out->label, sizeof out->label, "%s: %s", e->label, v);
            return 0;
        }
        if (e->per_workload && dot && strcmp(dot + 1, e->key) == 0)
            for (int wl = 0; wl < r->n_workloads; wl++) {
                size_t nl = strlen(r->workloads[wl].name);
                char v[64];
                if (nl == (size_t)(dot - what) && strncmp(what, r->workloads[wl].name, nl) == 0 &&
                    e->value(app, r, wl, v, sizeof v)) {
                    out->explainer = (int)i;
                    out->wl = wl;
                    snprintf(out->label, sizeof out->label, "%s %s: %s", r->workloads[wl].name,
                             e->label, v);
                    return 0;
                }
            }
    }
    return -1;
}

char *explain_text(const App *app, const ExplainItem *it)
{
    const PlanResult *r = app_result(app);
    if (!r || it->explainer < 0 || (size_t)it->explainer >= N_EXPLAINERS)
        return NULL;
    if (it->wl >= r->n_workloads)
        return NULL;
    StrBuf b;
    sb_init(&b);
    explainers[it->explainer].text(app, r, it->wl < 0 ? 0 : it->wl, &b);
    return sb_finish(&b);
}
