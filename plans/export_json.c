/* plans/export_json.c — the `eval --json` object of PLAN-FORMAT.md, built
 * with jansson (no hand-written escaping).  Every number is finite: a
 * non-finite value (which the model must never produce) is written as 0 and
 * named in warnings[] so it cannot pass unnoticed. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "export_summary.h"
#include "headline.h"
#include "yaml_plan.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

typedef struct {
    json_t *nonfinite; /* array of key names that were not finite */
    const Plan *plan;
    const PlanResult *result;
} Ctx;

static json_t *num(Ctx *c, const char *key, double v)
{
    if (!isfinite(v)) {
        json_array_append_new(c->nonfinite, json_string(key));
        v = 0;
    }
    return json_real(v);
}

static void setn(Ctx *c, json_t *o, const char *key, double v)
{
    json_object_set_new(o, key, num(c, key, v));
}

static void seti(json_t *o, const char *key, long long v)
{
    json_object_set_new(o, key, json_integer(v));
}

static void sets(json_t *o, const char *key, const char *v)
{
    json_object_set_new(o, key, json_string(v ? v : ""));
}

static void setb(json_t *o, const char *key, bool v)
{
    json_object_set_new(o, key, json_boolean(v));
}

static json_t *layout_json(const Layout *l)
{
    json_t *o = json_object();
    seti(o, "tp", l->tp);
    seti(o, "pp", l->pp);
    seti(o, "dp", l->dp);
    seti(o, "cp", l->cp);
    seti(o, "ep", l->ep);
    seti(o, "etp", l->etp);
    seti(o, "vpp", l->vpp);
    return o;
}

static void training_json(Ctx *c, json_t *o, const TrainResult *t)
{
    json_object_set_new(o, "parallel", layout_json(&t->layout));
    seti(o, "micro_batch", t->layout.micro_batch);
    sets(o, "recompute", plan_recompute_name(t->layout.recompute));
    setb(o, "sequence_parallel", t->layout.sp);
    seti(o, "zero", t->zero);
    seti(o, "offload_layers", t->offload_layers);
    setn(c, o, "params", t->params);
    setn(c, o, "active_params", t->active_params);
    setn(c, o, "flops_per_step", t->flops_per_step);
    setn(c, o, "flops_total", t->flops_total);
    json_t *m = json_object();
    setn(c, m, "weights", t->mem.weights / GIB);
    setn(c, m, "gradients", t->mem.gradients / GIB);
    setn(c, m, "optimizer", t->mem.optimizer / GIB);
    setn(c, m, "activations", t->mem.activations / GIB);
    setn(c, m, "other", t->mem.other / GIB);
    setn(c, m, "total", t->mem.total / GIB);
    json_object_set_new(o, "memory_gib_per_gpu", m);
    setn(c, o, "hbm_gib", t->hbm_bytes / GIB);
    setb(o, "fits", t->fits);
    setn(c, o, "step_seconds", t->step_s);
    json_t *s = json_object();
    setn(c, s, "compute", t->step.compute);
    setn(c, s, "tp_comm", t->step.tp_comm);
    setn(c, s, "pp_bubble", t->step.pp_bubble);
    setn(c, s, "dp_comm", t->step.dp_comm);
    setn(c, s, "cp_comm", t->step.cp_comm);
    setn(c, s, "ep_comm", t->step.ep_comm);
    setn(c, s, "other", t->step.other);
    json_object_set_new(o, "step_breakdown_seconds", s);
    setn(c, o, "mfu", t->mfu);
    setn(c, o, "tokens_per_second", t->tokens_per_s);
    setn(c, o, "train_days", t->train_days);
    setb(o, "meets_target", t->meets_target);
    /* what limits the run and the edit that lifts it (the dashboard shows
     * both next to the result) */
    sets(o, "binding", t->binding);
    sets(o, "fix", t->fix);
    json_t *cv = json_array();
    for (int i = 0; i < t->n_curve; i++) {
        json_t *pt = json_object();
        seti(pt, "gpus", t->curve_gpus[i]);
        setn(c, pt, "train_days", t->curve_days[i]);
        json_array_append_new(cv, pt);
    }
    json_object_set_new(o, "gpus_days_curve", cv);
    setn(c, o, "gpu_hours", t->gpu_hours);
    setn(c, o, "step_seconds_low", t->step_s_low);
    setn(c, o, "step_seconds_high", t->step_s_high);
    setn(c, o, "train_days_low", t->train_days_low);
    setn(c, o, "train_days_high", t->train_days_high);
    setn(c, o, "gpu_hours_low", t->gpu_hours_low);
    setn(c, o, "gpu_hours_high", t->gpu_hours_high);
    seti(o, "gpus_low", t->gpus_low);
    seti(o, "gpus_high", t->gpus_high);
    sets(o, "band_class", t->band_class);
    seti(o, "band_runs", t->band_runs);
    sets(o, "framework", t->framework);
    setn(c, o, "checkpoint_bytes", t->checkpoint_bytes);
    setn(c, o, "checkpoint_interval_minutes", t->checkpoint_interval_s / 60.0);
    setn(c, o, "job_mtbf_hours", t->job_mtbf_s / 3600.0);
    setn(c, o, "goodput", t->goodput);
    setn(c, o, "dataset_read_gbps", t->dataset_read_Bps / 1e9);
    setn(c, o, "checkpoint_write_gbps", t->checkpoint_write_Bps / 1e9);
    if (t->has_runner_up) {
        json_t *r = layout_json(&t->runner_up);
        seti(r, "micro_batch", t->runner_up.micro_batch);
        sets(r, "recompute", plan_recompute_name(t->runner_up.recompute));
        setn(c, r, "step_seconds", t->runner_up_step_s);
        json_object_set_new(o, "runner_up", r);
    }
    json_t *srch = json_object();
    seti(srch, "layouts_tried", t->layouts_tried);
    seti(srch, "rejected_no_fit", t->rejected_no_fit);
    seti(srch, "rejected_indivisible", t->rejected_indivisible);
    seti(srch, "rejected_microbatches", t->rejected_microbatches);
    json_object_set_new(o, "layout_search", srch);
}

static void inference_json(Ctx *c, json_t *o, const InferResult *i)
{
    seti(o, "tp", i->tp);
    seti(o, "ep", i->ep);
    seti(o, "replicas", i->replicas);
    seti(o, "batch_per_replica", i->batch_per_replica);
    setn(c, o, "kv_bytes_per_token", i->kv_bytes_per_token);
    setn(c, o, "state_bytes_per_sequence", i->state_bytes_per_sequence);
    json_t *m = json_object();
    setn(c, m, "weights", i->mem.weights / GIB);
    setn(c, m, "kv_cache", i->mem.kv_cache / GIB);
    setn(c, m, "other", i->mem.other / GIB);
    setn(c, m, "total", i->mem.total / GIB);
    json_object_set_new(o, "memory_gib_per_gpu", m);
    setn(c, o, "prefill_ms", i->prefill_s * 1e3);
    setn(c, o, "queue_ms", i->queue_s * 1e3);
    setn(c, o, "ttft_ms", i->ttft_s * 1e3);
    setn(c, o, "tpot_ms", i->tpot_s * 1e3);
    setn(c, o, "best_tpot_ms", i->best_tpot_s * 1e3);
    setn(c, o, "output_tokens_per_second", i->output_tokens_per_s);
    setn(c, o, "output_tokens_per_second_per_gpu", i->output_tokens_per_s_per_gpu);
    setn(c, o, "output_tokens_per_second_per_replica", i->output_tokens_per_s_per_replica);
    setn(c, o, "gpu_hours_per_million_tokens", i->gpu_hours_per_mtok);
    setb(o, "meets_slo", i->meets_slo);
    sets(o, "binding", i->binding);
    sets(o, "fix", i->fix);
    json_t *cv = json_array();
    for (int k = 0; k < i->n_curve; k++) {
        json_t *pt = json_object();
        seti(pt, "replicas", i->curve_replicas[k]);
        setn(c, pt, "tpot_ms", i->curve_tpot_s[k] * 1e3);
        setn(c, pt, "ttft_ms", i->curve_ttft_s[k] * 1e3);
        json_array_append_new(cv, pt);
    }
    json_object_set_new(o, "replicas_tpot_curve", cv);
    sets(o, "engine", i->engine);
    seti(o, "max_batch", i->max_batch);
    seti(o, "redundant_experts", i->redundant_experts);
    /* error bands (model residuals on the fit half of tests/data/serve_runs.yaml) */
    setn(c, o, "ttft_ms_low", i->ttft_s_low * 1e3);
    setn(c, o, "ttft_ms_high", i->ttft_s_high * 1e3);
    setn(c, o, "tpot_ms_low", i->tpot_s_low * 1e3);
    setn(c, o, "tpot_ms_high", i->tpot_s_high * 1e3);
    seti(o, "gpus_low", i->gpus_low);
    seti(o, "gpus_high", i->gpus_high);
    setb(o, "disaggregated", i->disaggregated);
    seti(o, "aggregated_gpus", i->aggregated_gpus);
    seti(o, "disaggregated_gpus", i->disaggregated_gpus);
    if (i->disaggregated) {
        json_t *pp = json_object();
        seti(pp, "tp", i->prefill_tp);
        seti(pp, "ep", i->prefill_ep);
        seti(pp, "replicas", i->prefill_replicas);
        seti(pp, "gpus", i->prefill_gpus);
        json_object_set_new(o, "prefill_pool", pp);
        json_t *dp = json_object();
        seti(dp, "tp", i->decode_tp);
        seti(dp, "ep", i->decode_ep);
        seti(dp, "replicas", i->decode_replicas);
        seti(dp, "gpus", i->decode_gpus);
        json_object_set_new(o, "decode_pool", dp);
        setn(c, o, "kv_transfer_ms", i->kv_transfer_s * 1e3);
        json_t *dc = json_array();
        for (int k = 0; k < i->n_decode_curve; k++) {
            json_t *pt = json_object();
            seti(pt, "replicas", i->decode_curve_replicas[k]);
            seti(pt, "gpus", i->decode_curve_gpus[k]);
            setn(c, pt, "tpot_ms", i->decode_curve_tpot_s[k] * 1e3);
            json_array_append_new(dc, pt);
        }
        json_object_set_new(o, "decode_gpus_tpot_curve", dc);
        json_t *pc = json_array();
        for (int k = 0; k < i->n_prefill_curve; k++) {
            json_t *pt = json_object();
            seti(pt, "replicas", i->prefill_curve_replicas[k]);
            seti(pt, "gpus", i->prefill_curve_gpus[k]);
            setn(c, pt, "ttft_ms", i->prefill_curve_ttft_s[k] * 1e3);
            json_array_append_new(pc, pt);
        }
        json_object_set_new(o, "prefill_gpus_ttft_curve", pc);
    }
}

static json_t *workload_json(Ctx *c, const WorkloadResult *w)
{
    json_t *o = json_object();
    sets(o, "name", w->name);
    sets(o, "kind", plan_kind_name(w->kind));
    sets(o, "accelerator", w->accelerator);
    seti(o, "gpus", w->kind == WL_TRAINING ? w->train.gpus : w->infer.gpus);
    setb(o, "ok", w->ok);
    if (!w->ok)
        sets(o, "error", w->error);
    if (w->kind == WL_TRAINING)
        training_json(c, o, &w->train);
    else
        inference_json(c, o, &w->infer);
    json_t *alts = json_array();
    for (int i = 0; i < w->n_alts; i++) {
        const AccelOption *a = &w->alts[i];
        json_t *x = json_object();
        sets(x, "accelerator", a->accelerator);
        setb(x, "ok", a->ok);
        seti(x, "gpus", a->gpus);
        if (w->kind == WL_TRAINING)
            setn(c, x, "train_days", a->days);
        else
            setn(c, x, "tpot_ms", a->tpot_s * 1e3);
        setn(c, x, w->kind == WL_TRAINING ? "usd_per_run" : "usd_per_year", a->usd);
        if (a->price_basis[0])
            sets(x, "price_basis", a->price_basis);
        if (!a->ok)
            sets(x, "why", a->why);
        json_array_append_new(alts, x);
    }
    json_object_set_new(o, "alternatives", alts);
    return o;
}

static json_t *cluster_json(Ctx *c, const ClusterResult *k)
{
    json_t *o = json_object();
    sets(o, "accelerator", k->accelerator);
    seti(o, "gpus", k->gpus);
    seti(o, "gpus_training", k->gpus_training);
    seti(o, "gpus_inference", k->gpus_inference);
    seti(o, "gpus_pool", k->gpus_pool);
    seti(o, "gpus_headroom", k->gpus_headroom);
    seti(o, "gpus_per_node", k->gpus_per_node);
    seti(o, "nodes", k->nodes);
    seti(o, "gpus_per_nvlink_domain", k->gpus_per_domain);
    seti(o, "nvlink_domains", k->nvlink_domains);
    seti(o, "racks", k->racks);
    seti(o, "nodes_per_rack", k->nodes_per_rack);
    seti(o, "scalable_units", k->scalable_units);
    seti(o, "leaf_switches", k->leaf_switches);
    seti(o, "spine_switches", k->spine_switches);
    seti(o, "core_switches", k->core_switches);
    seti(o, "links", k->links);
    seti(o, "links_node_leaf", k->links_node_leaf);
    seti(o, "links_leaf_spine", k->links_leaf_spine);
    seti(o, "links_spine_core", k->links_spine_core);
    setn(c, o, "scaleout_gbps_per_gpu", k->scaleout_bw_per_gpu / 1e9);
    setn(c, o, "storage_read_gbps", k->storage_read_Bps / 1e9);
    setn(c, o, "storage_write_gbps", k->storage_write_Bps / 1e9);
    setn(c, o, "storage_capacity_tb", k->storage_capacity_bytes / 1e12);
    seti(o, "storage_units", k->storage_units);
    setb(o, "liquid_required", k->liquid_required);
    json_t *g = json_array();
    for (int i = 0; i < k->n_rack_groups; i++) {
        const RackGroup *rg = &k->rack_groups[i];
        json_t *x = json_object();
        sets(x, "role", rg->role);
        seti(x, "count", rg->count);
        seti(x, "nodes", rg->nodes);
        setn(c, x, "kw", rg->kw);
        json_array_append_new(g, x);
    }
    json_object_set_new(o, "rack_groups", g);
    return o;
}

static json_t *power_json(Ctx *c, const PowerResult *w)
{
    json_t *o = json_object();
    setn(c, o, "it_kw", w->it_kw);
    setn(c, o, "gpu_nodes_kw", w->gpu_nodes_kw);
    setn(c, o, "network_kw", w->network_kw);
    setn(c, o, "storage_kw", w->storage_kw);
    setn(c, o, "facility_kw", w->facility_kw);
    setn(c, o, "rack_kw", w->rack_kw);
    setn(c, o, "rack_limit_kw", w->rack_limit_kw);
    sets(o, "cooling", plan_cooling_name(w->cooling));
    setb(o, "cooling_ok", w->cooling_ok);
    sets(o, "verdict", w->verdict);
    setn(c, o, "energy_mwh_per_year", w->energy_mwh_per_year);
    setn(c, o, "energy_usd_per_year", w->energy_usd_per_year);
    return o;
}

/* key: the option's name, or null */
static void optname(json_t *o, const char *key, const CostResult *k, int i)
{
    if (i >= 0 && i < k->n_options)
        sets(o, key, k->options[i].name);
    else
        json_object_set_new(o, key, json_null());
}

static json_t *cost_json(Ctx *c, const CostResult *k)
{
    json_t *o = json_object();
    json_t *opts = json_array();
    for (int i = 0; i < k->n_options; i++) {
        const CostOption *x = &k->options[i];
        json_t *j = json_object();
        sets(j, "name", x->name);
        sets(j, "kind", x->kind == COST_ONPREM ? "on-prem" : "cloud");
        if (x->kind == COST_CLOUD) {
            sets(j, "provider", x->provider);
            sets(j, "instance", x->instance);
            sets(j, "pricing", plan_pricing_name(x->pricing));
        }
        sets(j, "accelerator", x->accelerator);
        seti(j, "gpus", x->gpus);
        setn(c, j, "capex_usd", x->capex_usd);
        setn(c, j, "opex_usd_per_year", x->opex_usd_per_year);
        setn(c, j, "tco_usd", x->tco_usd);
        setn(c, j, "residual_usd", x->residual_usd);
        setn(c, j, "usd_per_gpu_hour", x->usd_per_gpu_hour);
        setn(c, j, "usd_per_gpu_hour_list", x->usd_per_gpu_hour_list);
        setn(c, j, "gpu_hours_used", x->gpu_hours_used);
        setn(c, j, "gpu_hours_billed", x->gpu_hours_billed);
        setb(j, "pay_as_you_go", x->pay_as_you_go);
        setb(j, "sized_alternative", x->sized);
        setn(c, j, "days", x->days);
        setn(c, j, "run_gpu_hours", x->run_gpu_hours);
        setn(c, j, "gpu_hours_per_million_tokens", x->mtok_gpu_hours);
        setn(c, j, "usd_per_training_run", x->usd_per_training_run);
        setn(c, j, "usd_per_million_tokens", x->usd_per_million_tokens);
        setn(c, j, "usd_per_million_tokens_low", x->usd_per_million_tokens_low);
        setn(c, j, "usd_per_million_tokens_high", x->usd_per_million_tokens_high);
        setn(c, j, "breakeven_utilization", x->breakeven_utilization);
        sets(j, "source", x->source);
        sets(j, "as_of", x->as_of);
        json_array_append_new(opts, j);
    }
    json_object_set_new(o, "options", opts);
    json_t *bases = json_object();
    static const char *const base_keys[COL_COUNT] = {
        [COL_TCO] = "tco_usd", [COL_LIST] = "usd_per_gpu_hour_list",
        [COL_EFF] = "usd_per_gpu_hour", [COL_RUN] = "usd_per_training_run",
        [COL_MTOK] = "usd_per_million_tokens", [COL_BE] = "breakeven_utilization"};
    for (int i = 0; i < COL_COUNT; i++) {
        json_t *b = json_object();
        sets(b, "header", summary_cost_columns[i].header);
        sets(b, "basis", summary_cost_columns[i].basis);
        json_object_set_new(bases, base_keys[i], b);
    }
    json_object_set_new(o, "bases", bases);
    {
        static const char *const kinds[] = {"none", "build", "buy", "unpriced", "cloud-only"};
        json_t *v = json_object();
        char text[1024];
        summary_verdict(c->plan, c->result, text, sizeof text);
        sets(v, "text", text);
        sets(v, "kind", kinds[k->verdict]);
        optname(v, "onprem", k, k->onprem);
        optname(v, "cloud", k, k->cloud);
        optname(v, "on_demand", k, k->ondemand);
        optname(v, "alternative", k, k->alternative);
        setn(c, v, "margin_pct", k->margin_pct);
        seti(v, "crossover_month", k->crossover_month);
        setn(c, v, "utilization", k->utilization);
        json_object_set_new(o, "verdict", v);
    }
    setb(o, "spot_allowed", k->spot_allowed);
    sets(o, "spot_why", k->spot_why);
    setb(o, "storage_priced", k->storage_priced);
    setb(o, "onprem_unpriced", k->onprem_unpriced);
    sets(o, "prices_oldest", k->prices_oldest);
    sets(o, "prices_newest", k->prices_newest);
    json_t *ex = json_array();
    for (int i = 0; i < k->n_excluded; i++) {
        json_t *e = json_object();
        sets(e, "accelerator", k->excluded[i].accelerator);
        sets(e, "why", k->excluded[i].why);
        json_array_append_new(ex, e);
    }
    json_object_set_new(o, "excluded", ex);
    json_t *cf = json_array();
    for (int w = 0; w < 2; w++) {
        const CashFlow *f = &k->cash[w];
        if (f->option < 0 || f->option >= k->n_options)
            continue;
        json_t *e = json_object();
        sets(e, "option", k->options[f->option].name);
        json_t *yrs = json_array();
        for (int y = 0; y < f->years; y++) {
            json_t *row = json_object();
            seti(row, "year", y + 1);
            setn(c, row, "capex_usd", f->capex[y]);
            setn(c, row, "opex_usd", f->opex[y]);
            setn(c, row, "energy_usd", f->energy[y]);
            setn(c, row, "rent_usd", f->rent[y]);
            setn(c, row, "residual_usd", f->residual[y]);
            json_array_append_new(yrs, row);
        }
        json_object_set_new(e, "years", yrs);
        json_array_append_new(cf, e);
    }
    json_object_set_new(o, "cash_flow", cf);
    json_t *lv = json_array();
    for (int i = 0; i < k->n_levers; i++) {
        const CostLever *l = &k->levers[i];
        json_t *e = json_object();
        sets(e, "name", l->name);
        sets(e, "value", l->value);
        sets(e, "change", l->change);
        sets(e, "source", l->source);
        sets(e, "date", l->date);
        setn(c, e, "tco_delta_usd", l->tco_delta_usd);
        sets(e, "applies_to", l->applies_to);
        json_array_append_new(lv, e);
    }
    json_object_set_new(o, "levers", lv);
    json_t *sb = json_array();
    for (int i = 0; i < k->n_showback; i++) {
        const Showback *x = &k->showback[i];
        json_t *e = json_object();
        sets(e, "team", x->team);
        setn(c, e, "gpu_hours_per_month", x->gpu_hours_per_month);
        setn(c, e, "borrowed_gpu_hours_per_month", x->borrowed_gpu_hours_per_month);
        setn(c, e, "usd_per_month", x->usd_per_month);
        json_array_append_new(sb, e);
    }
    json_object_set_new(o, "showback", sb);
    if (k->cheapest >= 0 && k->cheapest < k->n_options)
        sets(o, "cheapest", k->options[k->cheapest].name);
    else
        json_object_set_new(o, "cheapest", json_null());
    if (k->chosen >= 0 && k->chosen < k->n_options)
        sets(o, "chosen", k->options[k->chosen].name);
    else
        json_object_set_new(o, "chosen", json_null());
    setn(c, o, "utilization", k->utilization);
    return o;
}

static json_t *series_json(Ctx *c, const double *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, num(c, "series", v[i]));
    return a;
}

static json_t *schedule_json(Ctx *c, const ScheduleResult *s)
{
    json_t *o = json_object();
    setb(o, "ran", s->ran);
    sets(o, "policy", plan_policy_name(s->policy));
    seti(o, "gpus", s->gpus);
    setn(c, o, "utilization", s->utilization);
    seti(o, "jobs_submitted", s->jobs_submitted);
    seti(o, "jobs_completed", s->jobs_completed);
    setn(c, o, "fragmentation", s->fragmentation);
    setn(c, o, "goodput", s->goodput);
    seti(o, "failures", s->failures);
    seti(o, "preemptions", s->preemptions);
    seti(o, "events", (long long)s->events);
    json_t *teams = json_array();
    for (int i = 0; i < s->n_teams; i++) {
        const TeamSchedResult *t = &s->teams[i];
        json_t *j = json_object();
        sets(j, "name", t->name);
        seti(j, "jobs", t->jobs);
        setn(c, j, "wait_hours_mean", t->wait_hours_mean);
        setn(c, j, "wait_hours_p50", t->wait_hours_p50);
        setn(c, j, "wait_hours_p95", t->wait_hours_p95);
        setn(c, j, "wait_hours_max", t->wait_hours_max);
        setn(c, j, "jct_hours_mean", t->jct_hours_mean);
        setn(c, j, "slowdown_mean", t->slowdown_mean);
        setn(c, j, "gpu_hours", t->gpu_hours);
        setn(c, j, "borrowed_gpu_hours", t->borrowed_gpu_hours);
        seti(j, "preemptions", t->preemptions);
        setn(c, j, "lost_gpu_hours", t->lost_gpu_hours);
        json_array_append_new(teams, j);
    }
    json_object_set_new(o, "teams", teams);
    json_t *classes = json_array();
    for (int i = 0; i < s->n_classes; i++) {
        const ClassSchedResult *k = &s->classes[i];
        json_t *j = json_object();
        sets(j, "team", k->team);
        sets(j, "name", k->name);
        seti(j, "jobs", k->jobs);
        setn(c, j, "gpus", k->gpus);
        setn(c, j, "wait_hours_mean", k->wait_hours_mean);
        setn(c, j, "wait_hours_p50", k->wait_hours_p50);
        setn(c, j, "wait_hours_p95", k->wait_hours_p95);
        setn(c, j, "wait_hours_max", k->wait_hours_max);
        setn(c, j, "jct_hours_mean", k->jct_hours_mean);
        setn(c, j, "slowdown_mean", k->slowdown_mean);
        setn(c, j, "gpu_hours", k->gpu_hours);
        seti(j, "preemptions", k->preemptions);
        setn(c, j, "lost_gpu_hours", k->lost_gpu_hours);
        json_array_append_new(classes, j);
    }
    json_object_set_new(o, "classes", classes);
    json_object_set_new(o, "utilization_series", series_json(c, s->util_series, PLAN_SERIES_LEN));
    json_object_set_new(o, "queue_series", series_json(c, s->queue_series, PLAN_SERIES_LEN));
    seti(o, "recommended_gpus", s->recommended_gpus);
    setb(o, "pool_from_quotas", s->pool_from_quotas);
    setb(o, "meets_target", s->meets_target);
    return o;
}

static json_t *result_json(const Plan *p, const PlanResult *r)
{
    Ctx c = {.nonfinite = json_array(), .plan = p, .result = r};
    json_t *o = json_object();
    sets(o, "plan", p->name);
    seti(o, "format", p->format);
    sets(o, "accelerator", p->accelerator);
    setn(&c, o, "horizon_years", p->horizon_years);
    json_t *ws = json_array();
    for (int i = 0; i < r->n_workloads; i++)
        json_array_append_new(ws, workload_json(&c, &r->workloads[i]));
    json_object_set_new(o, "workloads", ws);
    if (r->have_layout)
        json_object_set_new(o, "cluster", cluster_json(&c, &r->cluster));
    if (r->have_power)
        json_object_set_new(o, "power", power_json(&c, &r->power));
    if (r->have_cost)
        json_object_set_new(o, "cost", cost_json(&c, &r->cost));
    if (r->have_schedule)
        json_object_set_new(o, "schedule", schedule_json(&c, &r->schedule));
    json_t *warn = json_array();
    for (int i = 0; i < r->n_warnings; i++)
        json_array_append_new(warn, json_string(r->warnings[i]));
    size_t k;
    json_t *v;
    json_array_foreach(c.nonfinite, k, v)
    {
        char buf[128];
        snprintf(buf, sizeof buf, "internal: non-finite value for '%s' written as 0",
                 json_string_value(v));
        json_array_append_new(warn, json_string(buf));
    }
    json_object_set_new(o, "warnings", warn);
    json_t *as = json_array();
    for (int i = 0; i < r->n_assumptions; i++) {
        json_t *j = json_object();
        sets(j, "scope", r->assumptions[i].scope);
        sets(j, "text", r->assumptions[i].text);
        json_array_append_new(as, j);
    }
    json_object_set_new(o, "assumptions", as);
    json_decref(c.nonfinite);
    return o;
}

static json_t *outcome_json(Ctx *c, const SensOutcome *o)
{
    json_t *j = json_object();
    setn(c, j, "gpus", o->gpus);
    setn(c, j, "train_days", o->days);
    setn(c, j, "facility_mw", o->mw);
    setn(c, j, "tco_usd", o->tco);
    setn(c, j, "wait_p95_hours", o->wait_p95_h);
    sets(j, "verdict", verdict_name(o->verdict));
    setn(c, j, "onprem_tco_usd", o->onprem_tco);
    setn(c, j, "cloud_tco_usd", o->cloud_tco);
    sets(j, "cloud_option", o->cloud);
    return j;
}

static json_t *sensitivity_json(Ctx *c, const SensResult *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "point", outcome_json(c, &s->base));
    sets(o, "sentence", s->sentence);
    seti(o, "evaluations", s->evaluations);
    json_t *bars = json_array();
    for (int i = 0; i < s->n_bars; i++) {
        const SensBar *b = &s->bars[i];
        json_t *j = json_object();
        sets(j, "assumption", range_knob_name(b->knob));
        sets(j, "label", sens_knob_label(b->knob));
        sets(j, "range_from", b->from_plan ? "plan" : "catalog");
        setn(c, j, "nominal", b->nominal);
        setn(c, j, "low", b->low);
        setn(c, j, "high", b->high);
        json_object_set_new(j, "at_low", outcome_json(c, &b->at_low));
        json_object_set_new(j, "at_high", outcome_json(c, &b->at_high));
        setn(c, j, "tco_swing_usd", b->swing_tco);
        setb(j, "flips_verdict", b->flips);
        if (b->flips)
            setn(c, j, "flip_value", b->flip_value);
        json_array_append_new(bars, j);
    }
    json_object_set_new(o, "tornado", bars);
    json_t *dec = json_array();
    for (int i = 0; i < s->n_deciders; i++)
        json_array_append_new(dec, json_string(range_knob_name(s->bars[s->deciders[i]].knob)));
    json_object_set_new(o, "deciders", dec);
    return o;
}

static json_t *pct_json(Ctx *c, const Percentiles *p)
{
    json_t *j = json_object();
    setn(c, j, "p10", p->p10);
    setn(c, j, "p50", p->p50);
    setn(c, j, "p90", p->p90);
    return j;
}

static json_t *monte_carlo_json(Ctx *c, const McResult *m)
{
    json_t *o = json_object();
    seti(o, "samples", m->samples);
    json_object_set_new(o, "seed", json_integer((json_int_t)m->seed));
    seti(o, "assumptions_varied", m->n_knobs);
    json_object_set_new(o, "train_days", pct_json(c, &m->days));
    json_object_set_new(o, "gpus", pct_json(c, &m->gpus));
    json_object_set_new(o, "facility_mw", pct_json(c, &m->mw));
    json_object_set_new(o, "tco_usd", pct_json(c, &m->tco));
    setn(c, o, "share_other_verdict", m->share_other_verdict);
    return o;
}

static char *dump(json_t *o, int pretty)
{
    char *s = json_dumps(o, (pretty ? JSON_INDENT(2) : JSON_COMPACT) | JSON_PRESERVE_ORDER |
                                JSON_REAL_PRECISION(10));
    json_decref(o);
    if (!s)
        return NULL;
    /* json_dumps memory comes from jansson's allocator (malloc by default);
     * copy so callers can always free() it. */
    size_t n = strlen(s);
    char *out = malloc(n + 2);
    if (out) {
        memcpy(out, s, n);
        out[n] = '\n';
        out[n + 1] = '\0';
    }
    free(s);
    return out;
}

char *export_json(const Plan *p, const PlanResult *r, int pretty)
{
    return dump(result_json(p, r), pretty);
}

char *export_json_ranges(const Plan *p, const PlanResult *r, const SensResult *s,
                         const McResult *m, int pretty)
{
    json_t *o = result_json(p, r);
    Ctx c = {.nonfinite = json_array()};
    if (s)
        json_object_set_new(o, "sensitivity", sensitivity_json(&c, s));
    if (m)
        json_object_set_new(o, "monte_carlo", monte_carlo_json(&c, m));
    json_t *warn = json_object_get(o, "warnings");
    size_t k;
    json_t *v;
    json_array_foreach(c.nonfinite, k, v)
    {
        char buf[128];
        snprintf(buf, sizeof buf, "internal: non-finite value for '%s' written as 0",
                 json_string_value(v));
        json_array_append_new(warn, json_string(buf));
    }
    json_decref(c.nonfinite);
    return dump(o, pretty);
}

char *export_compare_json(const Plan *a, const PlanResult *ra, const Plan *b,
                          const PlanResult *rb)
{
    json_t *o = json_object();
    json_object_set_new(o, "a", result_json(a, ra));
    json_object_set_new(o, "b", result_json(b, rb));
    int nd;
    HeadlineDelta *d = headline_compare_plans(a, ra, b, rb, &nd);
    if (!d) {
        json_decref(o);
        return NULL;
    }
    Ctx c = {.nonfinite = json_array(), .plan = NULL, .result = NULL};
    json_t *rows = json_array();
    for (int i = 0; i < nd; i++) {
        json_t *j = json_object();
        sets(j, "section", d[i].h.section);
        sets(j, "subject", d[i].h.subject);
        sets(j, "metric", d[i].h.metric);
        sets(j, "unit", d[i].h.unit);
        json_object_set_new(j, "a", d[i].in_a ? num(&c, "a", d[i].a) : json_null());
        json_object_set_new(j, "b", d[i].in_b ? num(&c, "b", d[i].b) : json_null());
        if (d[i].in_a && d[i].in_b) {
            setn(&c, j, "delta", d[i].delta);
            setn(&c, j, "percent", d[i].pct);
        }
        sets(j, "verdict", d[i].verdict > 0 ? "better" : d[i].verdict < 0 ? "worse" : "same");
        json_array_append_new(rows, j);
    }
    json_object_set_new(o, "deltas", rows);
    json_decref(c.nonfinite);
    free(d);
    return dump(o, 1);
}
