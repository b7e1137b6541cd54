/* cli/cmd_eval.c — `gpuplan eval` and `gpuplan simulate`. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sanitize.h"
#include "evaluate.h"
#include "export.h"
#include "export_summary.h"
#include "fmt.h"
#include "sched/sched.h"
#include "sensitivity.h"
#include "yaml_plan.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* "s" after a count other than one */
static const char *plural_s(long long n)
{
    return n == 1 ? "" : "s";
}

static void print_training(const WorkloadResult *w)
{
    const TrainResult *t = &w->train;
    const Layout *l = &t->layout;
    char a[32], b[32], c[32];
    printf("  %-18s training   %s x %s\n", w->name, w->accelerator, fmt_int(t->gpus, a, sizeof a));
    char off[64] = "";
    if (t->offload_layers > 0)
        snprintf(off, sizeof off, ", offload %d layers/stage%s", t->offload_layers,
                 t->offload_auto ? " (searched)" : "");
    printf("      layout   tp%d pp%d dp%d cp%d ep%d vpp%d, micro-batch %d, recompute %s%s, "
           "ZeRO-%d%s%s\n",
           l->tp, l->pp, l->dp, l->cp, l->ep, l->vpp, l->micro_batch,
           plan_recompute_name(l->recompute), l->sp ? ", sequence parallel" : "", t->zero,
           t->zero_fallback ? " (nothing fits with the framework's default)" : "", off);
    if (t->has_runner_up)
        printf("      runner-up tp%d pp%d dp%d cp%d ep%d vpp%d mb%d: %.2f s/step\n",
               t->runner_up.tp, t->runner_up.pp, t->runner_up.dp, t->runner_up.cp,
               t->runner_up.ep, t->runner_up.vpp, t->runner_up.micro_batch, t->runner_up_step_s);
    printf("      model    %s params (%s active), %s FLOPs/step\n", fmt_si(t->params, "", a, sizeof a),
           fmt_si(t->active_params, "", b, sizeof b), fmt_si(t->flops_per_step, "", c, sizeof c));
    printf("      memory   %.1f / %.1f GiB per GPU (weights %.1f, grads %.1f, optimizer %.1f, "
           "activations %.1f, other %.1f)%s\n",
           t->mem.total / GIB, t->hbm_bytes / GIB, t->mem.weights / GIB, t->mem.gradients / GIB,
           t->mem.optimizer / GIB, t->mem.activations / GIB, t->mem.other / GIB,
           t->fits ? "" : "  DOES NOT FIT");
    printf("      step     %.3f s (compute %.3f, TP %.3f, PP bubble %.3f, DP %.3f, CP %.3f, "
           "EP %.3f, other %.3f)\n",
           t->step_s, t->step.compute, t->step.tp_comm, t->step.pp_bubble, t->step.dp_comm,
           t->step.cp_comm, t->step.ep_comm, t->step.other);
    printf("      speed    MFU %.1f %%, %s tokens/s, %.1f days%s, %s GPU-hours\n", t->mfu * 100,
           fmt_si(t->tokens_per_s, "", a, sizeof a), t->train_days,
           t->meets_target ? "" : " (MISSES the target)", fmt_si(t->gpu_hours, "", b, sizeof b));
    if (t->step_s_high > t->step_s_low)
        printf("      band     model error %+.0f/%+.0f %% (%s, %d runs): step %.3f-%.3f s, "
               "%.1f-%.1f days, GPUs %d-%d\n",
               100 * (t->step_s_low / t->step_s - 1), 100 * (t->step_s_high / t->step_s - 1),
               t->band_class, t->band_runs, t->step_s_low, t->step_s_high, t->train_days_low,
               t->train_days_high, t->gpus_low, t->gpus_high);
    printf("      failures job MTBF %.1f h, checkpoint %s every %.0f min, goodput %.1f %%\n",
           t->job_mtbf_s / 3600, fmt_si(t->checkpoint_bytes, "B", a, sizeof a),
           t->checkpoint_interval_s / 60, t->goodput * 100);
}

static void print_inference(const WorkloadResult *w)
{
    const InferResult *i = &w->infer;
    char a[32], b[32], st[64] = "";
    if (i->state_bytes_per_sequence > 0)
        snprintf(st, sizeof st, " + %s state/sequence",
                 fmt_si(i->state_bytes_per_sequence, "B", b, sizeof b));
    printf("  %-18s inference  %s x %s\n", w->name, w->accelerator, fmt_int(i->gpus, a, sizeof a));
    if (i->ep > 0)
        printf("      layout   attention data-parallel, experts over %d GPUs x %d replicas, "
               "batch %d per replica, KV %s/token%s\n",
               i->ep, i->replicas, i->batch_per_replica,
               fmt_si(i->kv_bytes_per_token, "B", a, sizeof a), st);
    else
        printf("      layout   tp%d x %d replicas, batch %d per replica, KV %s/token%s\n", i->tp,
               i->replicas, i->batch_per_replica, fmt_si(i->kv_bytes_per_token, "B", a, sizeof a),
               st);
    printf("      memory   %.1f GiB per GPU (weights %.1f, KV cache %.1f, other %.1f)\n",
           i->mem.total / GIB, i->mem.weights / GIB, i->mem.kv_cache / GIB, i->mem.other / GIB);
    char best[48] = "";
    if (!i->meets_slo && i->best_tpot_s > 0)
        snprintf(best, sizeof best, " (best achievable TPOT %.1f ms)", i->best_tpot_s * 1e3);
    printf("      latency  TTFT %.0f ms (prefill %.0f, queue %.0f), TPOT %.1f ms — %s%s\n",
           i->ttft_s * 1e3, i->prefill_s * 1e3, i->queue_s * 1e3, i->tpot_s * 1e3,
           i->meets_slo ? "meets SLO" : "MISSES SLO", best);
    printf("      speed    %s output tokens/s (%s per GPU), %.2f GPU-hours per M tokens\n",
           fmt_si(i->output_tokens_per_s, "", a, sizeof a),
           fmt_si(i->output_tokens_per_s_per_gpu, "", b, sizeof b), i->gpu_hours_per_mtok);
    if (i->disaggregated)
        printf("      pools    prefill %s%d x %d = %d GPUs, decode %s%d x %d = %d GPUs, KV transfer "
               "%.1f ms\n",
               i->prefill_ep ? "DEP" : "tp", i->prefill_tp, i->prefill_replicas, i->prefill_gpus,
               i->decode_ep ? "DEP" : "tp", i->decode_tp, i->decode_replicas, i->decode_gpus,
               i->kv_transfer_s * 1e3);
    if (i->aggregated_gpus > 0 || i->disaggregated_gpus > 0)
        printf("      choice   aggregated %d GPUs vs disaggregated %d GPUs (0 = not evaluated or "
               "out of reach): %s\n",
               i->aggregated_gpus, i->disaggregated_gpus,
               i->disaggregated ? "disaggregated" : "aggregated");
    if (i->engine[0])
        printf("      band     engine %s; model error band TTFT %.0f-%.0f ms, TPOT %.1f-%.1f ms, "
               "GPUs %d-%d%s\n",
               i->engine, i->ttft_s_low * 1e3, i->ttft_s_high * 1e3, i->tpot_s_low * 1e3,
               i->tpot_s_high * 1e3, i->gpus_low, i->gpus_high,
               i->gpus_high ? "" : " (0: out of reach at the slow end)");
}

static void print_schedule(const ScheduleResult *s, double target_h)
{
    char a[32];
    if (!s->ran) {
        printf("SCHEDULE  no tenancy (no teams, no trace)\n");
        return;
    }
    const char *basis = summary_pool_basis(s);
    printf("SCHEDULE  %s on %s GPUs%s%s%s: utilisation %.1f %%, %d/%d jobs done, %d preemptions, "
           "%d failures, goodput %.1f %%\n",
           plan_policy_name(s->policy), fmt_int(s->gpus, a, sizeof a), basis ? " (" : "",
           basis ? basis : "", basis ? ")" : "",
           s->utilization * 100, s->jobs_completed, s->jobs_submitted, s->preemptions,
           s->failures, s->goodput * 100);
    if (s->n_teams > 0)
        printf("          p95 wait target %.1f h %s: %s\n", target_h,
               s->recommended_gpus ? "on the pool searched" : "on the plan's pool",
               s->meets_target ? "met" : s->recommended_gpus ? "MISSED by every pool searched"
                                                             : "MISSED");
    printf("          %-16s %7s %9s %9s %9s %9s %7s\n", "team", "jobs", "wait p50", "wait p95",
           "wait max", "GPU-h", "preempt");
    for (int i = 0; i < s->n_teams; i++) {
        const TeamSchedResult *t = &s->teams[i];
        printf("          %-16s %7d %8.2fh %8.2fh %8.2fh %9.0f %7d\n", t->name, t->jobs,
               t->wait_hours_p50, t->wait_hours_p95, t->wait_hours_max, t->gpu_hours,
               t->preemptions);
    }
}

/* The result's warnings, control characters escaped (sanitize.h). */
static void print_warnings(const PlanResult *r)
{
    if (!r->n_warnings)
        return;
    printf("WARNINGS\n");
    for (int i = 0; i < r->n_warnings; i++) {
        char w[4 * sizeof r->warnings[i]];
        printf("  - %s\n", sanitize_text(r->warnings[i], SANITIZE_LINE, w, sizeof w));
    }
}

static void print_report(const LoadedPlan *lp, const PlanResult *r)
{
    const Plan *p = &lp->plan;
    char a[32], b[32], c[32];
    printf("%s%s%s\n", p->name, p->description[0] ? " — " : "", p->description);
    printf("source %s, accelerator %s, horizon %s\n\n", lp->source, p->accelerator,
           summary_years(p->horizon_years, a, sizeof a));
    if (r->n_workloads)
        printf("WORKLOADS\n");
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *w = &r->workloads[i];
        if (!w->ok) {
            printf("  %-18s %-10s %s: %s\n", w->name, plan_kind_name(w->kind), w->accelerator,
                   w->error);
            continue;
        }
        if (w->kind == WL_TRAINING)
            print_training(w);
        else
            print_inference(w);
    }
    if (r->have_schedule)
        print_schedule(&r->schedule, p->tenancy.wait_p95_s / 3600);
    bool service = r->have_cost && r->cost.cloud_only;
    if (r->have_layout && service) {
        const ClusterResult *k = &r->cluster;
        printf("CLUSTER   %s %s chips (training %d, inference %d, pool %d, headroom %d) rented "
               "as %s%s: the provider's interconnect, racks and power\n",
               k->accelerator, fmt_int(k->gpus, a, sizeof a), k->gpus_training,
               k->gpus_inference, k->gpus_pool, k->gpus_headroom,
               r->cost.service[0] ? r->cost.service : "a cloud service",
               r->cost.service[0] ? ", a cloud service" : " the catalog prices no offer of");
    } else if (r->have_layout) {
        const ClusterResult *k = &r->cluster;
        printf("CLUSTER   %s %s GPUs (training %d, inference %d, pool %d, headroom %d) in %s "
               "node%s, %d NVLink domain%s of %d, %d rack%s of %d nodes\n",
               k->accelerator, fmt_int(k->gpus, a, sizeof a), k->gpus_training,
               k->gpus_inference, k->gpus_pool, k->gpus_headroom, fmt_int(k->nodes, b, sizeof b),
               plural_s(k->nodes), k->nvlink_domains, plural_s(k->nvlink_domains),
               k->gpus_per_domain, k->racks, plural_s(k->racks), k->nodes_per_rack);
        printf("FABRIC    %s %s, %d scalable unit%s: %d leaf, %d spine, %d core switches, %s "
               "links; %.1f GB/s per GPU above the leaf\n",
               plan_fabric_name(p->network.fabric), plan_topology_name(p->network.topology),
               k->scalable_units, plural_s(k->scalable_units), k->leaf_switches,
               k->spine_switches, k->core_switches,
               fmt_int(k->links, c, sizeof c), k->scaleout_bw_per_gpu / 1e9);
        printf("STORAGE   %s: read %.1f GB/s, write %.1f GB/s, %s, %d building block%s\n",
               plan_storage_name(p->storage.system), k->storage_read_Bps / 1e9,
               k->storage_write_Bps / 1e9, fmt_si(k->storage_capacity_bytes, "B", a, sizeof a),
               k->storage_units, plural_s(k->storage_units));
    }
    if (r->have_power && !service) {
        const PowerResult *w = &r->power;
        char d[32];
        printf("POWER     IT %s, facility %s (PUE %.2f), hottest rack %.1f / %.1f kW, %s; "
               "%s a year costing %s\n",
               fmt_si(w->it_kw * 1e3, "W", a, sizeof a), fmt_si(w->facility_kw * 1e3, "W", b, sizeof b),
               p->site.pue, w->rack_kw, w->rack_limit_kw, w->verdict,
               fmt_si(w->energy_mwh_per_year * 1e6, "Wh", c, sizeof c),
               fmt_usd(w->energy_usd_per_year, d, sizeof d));
    }
    if (r->have_cost && r->cost.n_options > 0) {
        const CostResult *cr = &r->cost;
        const CostColumn *col = summary_cost_columns;
        char v[1024];
        summary_verdict(p, r, v, sizeof v);
        printf("VERDICT   %s\n", v);
        char dates[48];
        summary_price_dates(cr, dates, sizeof dates);
        char yb[32];
        printf("COST      over %s at %.1f %% utilisation; %s%s (the plan's accelerator "
               "first, cheapest first)\n",
               summary_years(p->horizon_years, yb, sizeof yb), cr->utilization * 100,
               dates[0] ? "prices as of " : "no price is dated", dates);
        /* the option column as wide as its longest name (one of Azure's is 37) */
        int nw = 36;
        for (int i = 0; i < cr->n_options; i++) {
            int n = (int)strlen(cr->options[i].name);
            nw = n > nw ? (n < 48 ? n : 48) : nw;
        }
        printf("          %-*s %10s %10s %10s %9s %9s %9s\n", nw, "option", "capex", "opex/yr",
               col[COL_TCO].header, "list/GPU-h", "eff/GPU-h", "break-even");
        int shown = 0;
        for (int i = 0; i < cr->n_options; i++) {
            if (shown >= 12 && i != cr->chosen)
                continue;
            shown++;
            const CostOption *o = &cr->options[i];
            char be[32];
            printf("          %-*.*s %10s %10s %10s %9.2f %9.2f %9s%s\n", nw, nw, o->name,
                   fmt_usd(o->capex_usd, a, sizeof a), fmt_usd(o->opex_usd_per_year, b, sizeof b),
                   fmt_usd(o->tco_usd, c, sizeof c), o->usd_per_gpu_hour_list,
                   o->usd_per_gpu_hour, summary_breakeven(o->breakeven_utilization, be, sizeof be),
                   i == cr->chosen ? "  <- the plan's site" : "");
        }
        if (cr->n_options > shown)
            printf("          … %d more options (eval --json lists all)\n", cr->n_options - shown);
        for (int i = 0; i < COL_COUNT; i++)
            printf("          %s: %s\n", col[i].header, col[i].basis);
        /* accelerators left out, one line per reason */
        for (int i = 0; i < cr->n_excluded; i++) {
            bool first = true;
            for (int j = 0; j < i && first; j++)
                first = strcmp(cr->excluded[j].why, cr->excluded[i].why) != 0;
            if (!first)
                continue;
            printf("          not compared (%s):", cr->excluded[i].why);
            for (int j = i; j < cr->n_excluded; j++)
                if (!strcmp(cr->excluded[j].why, cr->excluded[i].why))
                    printf(" %s", cr->excluded[j].accelerator);
            printf("\n");
        }
    }
    print_warnings(r);
}

/* --strict: a plan that cannot be met is an error. */
static bool plan_unmet(const PlanResult *r)
{
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *w = &r->workloads[i];
        if (!w->ok)
            return true;
        if (w->kind == WL_TRAINING && (!w->train.fits || !w->train.meets_target))
            return true;
        if (w->kind == WL_INFERENCE && !w->infer.meets_slo)
            return true;
    }
    if (r->have_schedule && r->schedule.ran && r->schedule.n_teams > 0 &&
        !r->schedule.meets_target)
        return true;
    return r->have_power && !r->power.cooling_ok;
}

/* --ranges: the tornado, the verdict's flip values and the Monte Carlo
 * percentiles beside the point estimate. */
static void print_ranges(const Plan *p, const SensResult *s, const McResult *m)
{
    char a[48], b[48];
    printf("RANGES    Monte Carlo, %d samples over %d assumptions (seed %llu): P10 / P50 / P90\n",
           m->samples, m->n_knobs, (unsigned long long)m->seed);
    printf("          GPUs %.0f / %.0f / %.0f (point %.0f)\n", m->gpus.p10, m->gpus.p50,
           m->gpus.p90, s->base.gpus);
    if (s->base.days > 0)
        printf("          days %.1f / %.1f / %.1f (point %.1f)\n", m->days.p10, m->days.p50,
               m->days.p90, s->base.days);
    printf("          MW   %.1f / %.1f / %.1f (point %.1f)\n", m->mw.p10, m->mw.p50, m->mw.p90,
           s->base.mw);
    char t10[24], t50[24], t90[24], tpt[24];
    char yb[32];
    printf("          TCO  %s / %s / %s (point %s) over the plan's %s; %.0f%% of samples give "
           "another verdict\n",
           fmt_usd(m->tco.p10, t10, sizeof t10), fmt_usd(m->tco.p50, t50, sizeof t50),
           fmt_usd(m->tco.p90, t90, sizeof t90), fmt_usd(s->base.tco, tpt, sizeof tpt),
           summary_years(p->horizon_years, yb, sizeof yb), m->share_other_verdict * 100);
    printf("SENSITIVITY verdict %s: %s\n", verdict_name(s->base.verdict), s->sentence);
    printf("          %-16s %-22s %-22s %12s %s\n", "assumption", "low", "high", "TCO swing",
           "verdict low/high");
    for (int i = 0; i < s->n_bars; i++) {
        const SensBar *bar = &s->bars[i];
        sens_format_value(bar->knob, bar->low, a, sizeof a);
        sens_format_value(bar->knob, bar->high, b, sizeof b);
        printf("          %-16s %-22s %-22s %11.3gM %s/%s%s\n", sens_knob_label(bar->knob), a, b,
               bar->swing_tco / 1e6, verdict_name(bar->at_low.verdict),
               verdict_name(bar->at_high.verdict), bar->from_plan ? " (plan's range)" : "");
    }
}

int cli_ranges(Cli *cli, const Plan *p, SensResult **sens, McResult **mc)
{
    *sens = malloc(sizeof **sens);
    *mc = malloc(sizeof **mc);
    EvalOptions o = eval_options_default();
    o.cache = eval_cache_new();
    int rc = 0;
    if (!*sens || !*mc || !o.cache || sens_run(p, &cli->catalog, &o, *sens) != 0 ||
        mc_run(p, &cli->catalog, &o, 0, *mc) != 0) {
        cli_error("out of memory");
        free(*sens);
        free(*mc);
        *sens = NULL;
        *mc = NULL;
        rc = -1;
    }
    eval_cache_free(o.cache);
    return rc;
}

int cmd_eval(Cli *cli, int argc, char **argv)
{
    const char *ref = NULL;
    bool json = false, strict = false, ranges = false;
    for (int i = 0; i < argc; i++) {
        if (cli_is(argv[i], "--json"))
            json = true;
        else if (cli_is(argv[i], "--strict"))
            strict = true;
        else if (cli_is(argv[i], "--ranges"))
            ranges = true;
        else if (argv[i][0] == '-' || ref) {
            cli_error("eval: unexpected argument '%s' (usage: gpuplan eval FILE|NAME [--json] "
                      "[--strict] [--ranges])", argv[i]);
            return EXIT_USAGE;
        } else
            ref = argv[i];
    }
    if (!ref) {
        cli_error("eval: which plan? (usage: gpuplan eval FILE|NAME [--json] [--strict] "
                  "[--ranges])");
        return EXIT_USAGE;
    }
    LoadedPlan *lp = calloc(1, sizeof *lp);
    if (!lp)
        return EXIT_IO;
    int rc = cli_load_plan(cli, ref, lp);
    if (rc) {
        cli_free_plan(lp);
        free(lp);
        return rc;
    }
    PlanResult *r = cli_evaluate(cli, &lp->plan);
    if (!r) {
        cli_free_plan(lp);
        free(lp);
        return EXIT_IO;
    }
    SensResult *sens = NULL;
    McResult *mc = NULL;
    if (ranges && cli_ranges(cli, &lp->plan, &sens, &mc) != 0) {
        free(r);
        cli_free_plan(lp);
        free(lp);
        return EXIT_IO;
    }
    if (json) {
        char *s = ranges ? export_json_ranges(&lp->plan, r, sens, mc, 1)
                         : export_json(&lp->plan, r, 1);
        if (s)
            fputs(s, stdout);
        free(s);
    } else {
        print_report(lp, r);
        if (ranges)
            print_ranges(&lp->plan, sens, mc);
    }
    free(sens);
    free(mc);
    rc = strict && plan_unmet(r) ? EXIT_INVALID : EXIT_OK;
    if (rc)
        cli_error("%s: the plan cannot be met (--strict)", ref);
    free(r);
    cli_free_plan(lp);
    free(lp);
    return rc;
}

int cmd_simulate(Cli *cli, int argc, char **argv)
{
    const char *ref = NULL;
    bool json = false;
    long gpus = -1;
    for (int i = 0; i < argc; i++) {
        if (cli_is(argv[i], "--json")) {
            json = true;
        } else if (cli_is(argv[i], "--gpus") && i + 1 < argc) {
            char *end;
            gpus = strtol(argv[++i], &end, 10);
            if (*end || gpus <= 0 || gpus > 10000000) {
                cli_error("simulate: --gpus takes a whole number of GPUs, got '%s'", argv[i]);
                return EXIT_USAGE;
            }
        } else if (argv[i][0] == '-' || ref) {
            cli_error("simulate: unexpected argument '%s' (usage: gpuplan simulate FILE|NAME "
                      "[--json] [--gpus N])", argv[i]);
            return EXIT_USAGE;
        } else {
            ref = argv[i];
        }
    }
    if (!ref) {
        cli_error("simulate: which plan? (usage: gpuplan simulate FILE|NAME [--json])");
        return EXIT_USAGE;
    }
    LoadedPlan *lp = calloc(1, sizeof *lp);
    PlanResult *r = calloc(1, sizeof *r);
    if (!lp || !r) {
        free(lp);
        free(r);
        return EXIT_IO;
    }
    int rc = cli_load_plan(cli, ref, lp);
    if (rc == EXIT_OK && gpus > 0) {
        /* the pool the plan would hold: the plan file's rules (1 … 10^6
         * GPUs, at least the teams' quotas) */
        lp->plan.tenancy.gpus = (int)gpus;
        Diag d = {0};
        if (plan_validate(&lp->plan, &cli->catalog, &d) != 0) {
            cli_error("simulate: --gpus %ld: %s", gpus, d.msg);
            rc = EXIT_USAGE;
        }
    }
    if (rc == EXIT_OK) {
        EvalOptions opt = eval_options_default();
        sched_stage(&lp->plan, &cli->catalog, &opt, r);
        if (json) {
            char *s = export_json(&lp->plan, r, 1);
            if (s)
                fputs(s, stdout);
            free(s);
        } else {
            printf("%s — scheduling simulation over %.1f days\n", lp->plan.name,
                   lp->plan.tenancy.horizon_s / 86400);
            print_schedule(&r->schedule, lp->plan.tenancy.wait_p95_s / 3600);
            for (int i = 0; i < r->schedule.n_classes; i++) {
                const ClassSchedResult *k = &r->schedule.classes[i];
                if (i == 0)
                    printf("          %-16s %-16s %7s %7s %9s %9s\n", "team", "class", "jobs",
                           "GPUs", "wait p95", "slowdown");
                printf("          %-16s %-16s %7d %7.2f %8.2fh %9.2f\n", k->team, k->name,
                       k->jobs, k->gpus, k->wait_hours_p95, k->slowdown_mean);
            }
            printf("          %llu events\n", (unsigned long long)r->schedule.events);
            print_warnings(r); /* e.g. the job mix was sampled to fit the budget */
        }
    }
    free(r);
    cli_free_plan(lp);
    free(lp);
    return rc;
}
