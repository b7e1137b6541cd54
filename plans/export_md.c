/* plans/export_md.c — the leadership summary in Markdown: one page that
 * states the ask, the recommendation, the cost against the alternatives, the
 * power, and the risks and assumptions with their sources; then the detail
 * tables per workload, cluster, power, cost and schedule. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_formats.h"
#include "export_summary.h"
#include "fmt.h"
#include "headline.h"
#include "strbuf.h"
#include "yaml_plan.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static void cost_table(StrBuf *b, const CostResult *c, int max)
{
    const CostColumn *col = summary_cost_columns;
    sb_printf(b, "| Option | GPUs | Capex | Opex / year | %s | %s | %s | %s | %s | %s |\n"
                 "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
              col[COL_TCO].header, col[COL_LIST].header, col[COL_EFF].header,
              col[COL_RUN].header, col[COL_MTOK].header, col[COL_BE].header);
    for (int i = 0; i < c->n_options && i < max; i++) {
        const CostOption *o = &c->options[i];
        char x[32], y[32], z[32], be[32], run[32], tok[96];
        sb_puts(b, "| ");
        sb_md(b, o->name);
        if (i == c->cheapest)
            sb_puts(b, " **(cheapest)**");
        if (o->sized)
            sb_printf(b, " (sized: %.0f days)", o->days);
        sb_printf(b, " | %d | %s | %s | %s | %.2f | %.2f | %s | %s | %s |\n", o->gpus,
                  fmt_usd(o->capex_usd, x, sizeof x), fmt_usd(o->opex_usd_per_year, y, sizeof y),
                  fmt_usd(o->tco_usd, z, sizeof z), o->usd_per_gpu_hour_list, o->usd_per_gpu_hour,
                  o->usd_per_training_run > 0 ? fmt_usd(o->usd_per_training_run, run, sizeof run)
                                              : "—",
                  o->usd_per_million_tokens > 0 ? summary_usd_band(o, tok, sizeof tok) : "—",
                  summary_breakeven(o->breakeven_utilization, be, sizeof be));
    }
    if (c->n_options > max)
        sb_printf(b, "\n%d more options in the detail section.\n", c->n_options - max);
    sb_puts(b, "\n");
    for (int i = 0; i < COL_COUNT; i++)
        sb_printf(b, "%s*%s*: %s.", i ? " " : "", col[i].header, col[i].basis);
    sb_puts(b, "\n");
    for (int i = 0; i < c->n_excluded; i++) {
        bool first = true;
        for (int j = 0; j < i && first; j++)
            first = strcmp(c->excluded[j].why, c->excluded[i].why) != 0;
        if (!first)
            continue;
        sb_puts(b, i ? "; " : "\nNot compared: ");
        for (int j = i, n = 0; j < c->n_excluded; j++)
            if (!strcmp(c->excluded[j].why, c->excluded[i].why)) {
                sb_printf(b, "%s%s", n++ ? ", " : "", c->excluded[j].accelerator);
            }
        sb_puts(b, " (");
        sb_md(b, c->excluded[i].why);
        sb_puts(b, ")");
    }
    if (c->n_excluded)
        sb_puts(b, ".\n");
}

/* The one page finance reads first: what each assumption is, where it
 * came from, and what a stated change of it does to the TCO. */
static void levers_table(StrBuf *b, const CostResult *c)
{
    if (!c->n_levers)
        return;
    sb_puts(b, "| Assumption | Value | Source | If it moves | TCO moves | Of |\n"
               "|---|---|---|---|---:|---|\n");
    for (int i = 0; i < c->n_levers; i++) {
        const CostLever *l = &c->levers[i];
        char d[32];
        sb_puts(b, "| ");
        sb_md(b, l->name);
        sb_puts(b, " | ");
        sb_md(b, l->value);
        sb_puts(b, " | ");
        sb_md(b, l->source);
        if (l->date[0]) {
            sb_puts(b, ", ");
            sb_md(b, l->date);
        }
        sb_puts(b, " | ");
        sb_md(b, l->change);
        sb_printf(b, " | %s%s | ", l->tco_delta_usd >= 0 ? "+" : "-",
                  fmt_usd(fabs(l->tco_delta_usd), d, sizeof d));
        sb_md(b, l->applies_to);
        sb_puts(b, " |\n");
    }
    sb_puts(b, "\n");
}

static void cash_table(StrBuf *b, const CostResult *c)
{
    for (int w = 0; w < 2; w++) {
        const CashFlow *f = &c->cash[w];
        if (f->option < 0)
            continue;
        sb_puts(b, "**");
        sb_md(b, c->options[f->option].name);
        sb_puts(b, "**\n\n| Year | Capex | Opex | Energy | Rent | Residual | Cumulative |\n"
                   "|---:|---:|---:|---:|---:|---:|---:|\n");
        double cum = 0;
        for (int y = 0; y < f->years; y++) {
            char v[6][32];
            cum += f->capex[y] + f->opex[y] + f->energy[y] + f->rent[y] + f->residual[y];
            sb_printf(b, "| %d | %s | %s | %s | %s | %s | %s |\n", y + 1,
                      fmt_usd(f->capex[y], v[0], 32), fmt_usd(f->opex[y], v[1], 32),
                      fmt_usd(f->energy[y], v[2], 32), fmt_usd(f->rent[y], v[3], 32),
                      fmt_usd(f->residual[y], v[4], 32), fmt_usd(cum, v[5], 32));
        }
        sb_puts(b, "\n");
    }
    if (c->crossover_month > 0)
        sb_printf(b, "On-prem's cumulative cost drops below the cloud's in month %d.\n\n",
                  c->crossover_month);
}

static void showback_table(StrBuf *b, const CostResult *c)
{
    if (!c->n_showback)
        return;
    sb_puts(b, "| Team | GPU-hours / month | of which borrowed | Cost / month |\n"
               "|---|---:|---:|---:|\n");
    for (int i = 0; i < c->n_showback; i++) {
        const Showback *x = &c->showback[i];
        char u[32];
        sb_puts(b, "| ");
        sb_md(b, x->team);
        sb_printf(b, " | %.0f | %.0f | %s |\n", x->gpu_hours_per_month,
                  x->borrowed_gpu_hours_per_month, fmt_usd(x->usd_per_month, u, sizeof u));
    }
    sb_puts(b, "\n");
}

/* "What moves the answer": the flip sentence, the Monte Carlo ranges
 * beside the point estimate, then one tornado row per assumption. */
static void ranges_md(StrBuf *b, const Plan *p, const SensResult *s, const McResult *m)
{
    char x[48];
    sb_puts(b, "## What moves the answer\n\n");
    if (s) {
        char cap[SENS_SENTENCE_LEN];
        snprintf(cap, sizeof cap, "%s", s->sentence);
        cap[0] = (char)toupper((unsigned char)cap[0]);
        sb_printf(b, "**Verdict: %s.** ", verdict_name(s->base.verdict));
        sb_md(b, cap);
        sb_puts(b, ".\n\n");
    }
    if (m && m->samples > 0) {
        char mcs[256];
        summary_mc_sentence(p, m, mcs, sizeof mcs);
        sb_printf(b, "%s\n\n", mcs);
        sb_puts(b, "| | P10 | P50 | P90 | Point estimate |\n|---|---:|---:|---:|---:|\n");
        SummaryMcRow rows[4];
        int n = summary_mc_rows(s, m, rows);
        for (int i = 0; i < n; i++)
            sb_printf(b, "| %s | %s | %s | %s | %s |\n", rows[i].label, rows[i].p10,
                      rows[i].p50, rows[i].p90, rows[i].point);
        sb_puts(b, "\n");
    }
    if (!s || s->n_bars == 0) {
        if (s)
            sb_puts(b, "No assumption with a range applies to this plan.\n\n");
        return;
    }
    sb_printf(b, "Tornado of the plan's TCO (%s at the plan's values), largest swing first: "
                 "each assumption at the ends of its range, the others at the plan's values.\n\n",
              fmt_usd(s->base.tco, x, sizeof x));
    sb_puts(b, "| Assumption | Range | Plan's value | Range from | TCO at low | TCO at high | "
               "Verdict at low / high | Flips at |\n|---|---|---|---|---:|---:|---|---|\n");
    for (int i = 0; i < s->n_bars; i++) {
        SummaryTornadoRow row;
        summary_tornado_row(s, i, &row);
        sb_puts(b, "| ");
        sb_md(b, row.label);
        sb_puts(b, " | ");
        sb_md(b, row.range);
        sb_puts(b, " | ");
        sb_md(b, row.nominal);
        sb_printf(b, " | %s | %s | %s | %s / %s | ", row.from, row.tco_low, row.tco_high,
                  row.verdict_low, row.verdict_high);
        sb_md(b, row.flip);
        sb_puts(b, " |\n");
    }
    sb_printf(b, "\nRanges from the plan's `ranges:`, else the catalog's stated uncertainty "
                 "(data/catalog/uncertainty.yaml, each with its source); %d full evaluations.\n\n",
              s->evaluations);
}

static void summary(StrBuf *b, const Plan *p, const PlanResult *r, int version,
                    const SensResult *sens, const McResult *mc)
{
    char line[1024], yb[32];
    sb_puts(b, "# ");
    sb_md(b, p->name);
    sb_puts(b, " — GPU cluster plan\n\n");
    if (p->description[0]) {
        sb_puts(b, "> ");
        sb_md(b, p->description);
        sb_puts(b, "\n\n");
    }
    if (version > 0)
        sb_printf(b, "Plan version %d · ", version);
    sb_printf(b, "generated by gpuplan %s · horizon %s", PACKAGE_VERSION,
              summary_years(p->horizon_years, yb, sizeof yb));
    char dates[48] = "";
    if (r->have_cost && summary_price_dates(&r->cost, dates, sizeof dates)[0])
        sb_printf(b, " · prices as of %s", dates);
    sb_puts(b, "\n\n");

    sb_puts(b, "## The ask\n\n");
    summary_ask(p, r, line, sizeof line);
    sb_md(b, line);
    sb_puts(b, "\n\n## Recommendation\n\n");
    summary_recommendation(p, r, line, sizeof line);
    sb_md(b, line);
    sb_puts(b, "\n\n");
    if (r->have_cost && r->cost.n_options) {
        sb_printf(b, "## Cost over %s against the alternatives\n\n",
                  summary_years(p->horizon_years, yb, sizeof yb));
        cost_table(b, &r->cost, 8);
        sb_puts(b, "\n## Assumptions that move the answer\n\n");
        levers_table(b, &r->cost);
    }
    if (sens || mc)
        ranges_md(b, p, sens, mc);
    if (r->have_power) {
        sb_puts(b, "## Power\n\n");
        summary_power(p, r, line, sizeof line);
        sb_md(b, line);
        sb_puts(b, "\n\n");
    }
    sb_puts(b, "## Risks and assumptions\n\n");
    if (r->n_warnings == 0)
        sb_puts(b, "- No warnings: every workload fits and meets its targets.\n");
    for (int i = 0; i < r->n_warnings; i++) {
        sb_puts(b, "- **Risk:** ");
        sb_md(b, r->warnings[i]);
        sb_puts(b, "\n");
    }
    if (r->n_assumptions)
        sb_printf(b, "- The numbers rest on %d stated assumptions, listed with their sources "
                     "under *Assumptions and sources* at the end.\n",
                  r->n_assumptions);
    sb_puts(b, "\n");
}

/* Every assumption, grouped by what it is about (workload, cluster, cost …),
 * in the order the model stated them. */
static void md_group(void *b, const char *scope)
{
    sb_puts(b, "**");
    sb_md(b, scope);
    sb_puts(b, "**\n\n");
}

static void md_item(void *b, const char *text)
{
    sb_puts(b, "- ");
    sb_md(b, text);
    sb_puts(b, "\n");
}

static void md_end(void *b)
{
    sb_puts(b, "\n");
}

static void assumptions(StrBuf *b, const PlanResult *r)
{
    sb_puts(b, "### Assumptions and sources\n\n");
    summary_assumption_groups(r, b, md_group, md_item, md_end);
}

/* A workload row's name and accelerator cells; a workload that could not be
 * sized gets its reason and empty cells instead, and false. */
static bool row_start(StrBuf *b, const WorkloadResult *w)
{
    sb_puts(b, "| ");
    sb_md(b, w->name);
    sb_puts(b, " | ");
    sb_md(b, w->accelerator);
    if (w->ok)
        return true;
    sb_puts(b, " | — | ");
    sb_md(b, w->error);
    sb_puts(b, " | | | | | | |\n");
    return false;
}

static void workloads(StrBuf *b, const PlanResult *r)
{
    bool any_t = false, any_i = false;
    for (int i = 0; i < r->n_workloads; i++) {
        any_t |= r->workloads[i].kind == WL_TRAINING;
        any_i |= r->workloads[i].kind == WL_INFERENCE;
    }
    if (any_t) {
        sb_puts(b, "### Training\n\n| Workload | Accelerator | GPUs | Layout (tp·pp·dp·cp·ep, vpp, mb) | "
                   "Memory / GPU | Step | MFU | Days | GPU-hours | Goodput |\n"
                   "|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < r->n_workloads; i++) {
            const WorkloadResult *w = &r->workloads[i];
            if (w->kind != WL_TRAINING)
                continue;
            if (!row_start(b, w))
                continue;
            const TrainResult *t = &w->train;
            const Layout *l = &t->layout;
            char g[32], h[32], band[64] = "";
            if (t->train_days_high > t->train_days_low) /* model error band */
                snprintf(band, sizeof band, " (%.1f–%.1f)", t->train_days_low, t->train_days_high);
            sb_printf(b, " | %s | %d·%d·%d·%d·%d, v%d, mb%d, %s%s%s | %.1f / %.1f GiB%s | %.2f s | "
                         "%.1f %% | %.1f%s | %s | %.1f %% |\n",
                      fmt_int(t->gpus, g, sizeof g), l->tp, l->pp, l->dp, l->cp, l->ep, l->vpp,
                      l->micro_batch, plan_recompute_name(l->recompute),
                      t->framework[0] ? ", " : "", t->framework, t->mem.total / GIB,
                      t->hbm_bytes / GIB, t->fits ? "" : " (no fit)", t->step_s, t->mfu * 100,
                      t->train_days, band, fmt_si(t->gpu_hours, "", h, sizeof h),
                      t->goodput * 100);
        }
        sb_puts(b, "\n");
    }
    if (any_i) {
        sb_puts(b, "### Inference\n\n| Service | Accelerator | GPUs | TP × replicas | Batch | TTFT | TPOT | "
                   "Output tok/s | GPU-h / M tok | SLO |\n"
                   "|---|---|---:|---|---:|---:|---:|---:|---:|---|\n");
        for (int i = 0; i < r->n_workloads; i++) {
            const WorkloadResult *w = &r->workloads[i];
            if (w->kind != WL_INFERENCE)
                continue;
            if (!row_start(b, w))
                continue;
            const InferResult *x = &w->infer;
            char g[32], t[32];
            sb_printf(b, " | %s | %d × %d | %d | %.0f ms | %.1f ms | %s | %.2f | %s |\n",
                      fmt_int(x->gpus, g, sizeof g), x->tp, x->replicas, x->batch_per_replica,
                      x->ttft_s * 1e3, x->tpot_s * 1e3,
                      fmt_si(x->output_tokens_per_s, "", t, sizeof t), x->gpu_hours_per_mtok,
                      x->meets_slo ? "met" : "**missed**");
        }
        sb_puts(b, "\n");
    }
}

static void cluster(StrBuf *b, const Plan *p, const PlanResult *r)
{
    const ClusterResult *k = &r->cluster;
    char a[32], c[32], split[160];
    sb_puts(b, "### Cluster\n\n| | |\n|---|---|\n");
    sb_printf(b, "| GPUs | %s %s (%s) |\n", fmt_int(k->gpus, a, sizeof a), k->accelerator,
              summary_gpu_split(k, split, sizeof split));
    sb_printf(b, "| Nodes | %s of %d GPUs; %s NVLink domains of %d |\n",
              fmt_int(k->nodes, a, sizeof a), k->gpus_per_node,
              fmt_int(k->nvlink_domains, c, sizeof c), k->gpus_per_domain);
    char n1[32], n2[32], n3[32];
    sb_printf(b, "| Racks | %s compute racks of %d nodes |\n", fmt_int(k->racks, a, sizeof a),
              k->nodes_per_rack);
    sb_printf(b, "| Fabric | %s, %s, %.4g:1 at the leaf, %d-port switches; %d scalable units |\n",
              plan_fabric_name(p->network.fabric), plan_topology_name(p->network.topology),
              p->network.oversubscription, p->network.switch_ports, k->scalable_units);
    sb_printf(b, "| Switches | %s leaf, %s spine, %s core |\n",
              fmt_int(k->leaf_switches, n1, sizeof n1), fmt_int(k->spine_switches, n2, sizeof n2),
              fmt_int(k->core_switches, n3, sizeof n3));
    sb_printf(b, "| Links | %s (node–leaf %s, leaf–spine %s, spine–core %s) |\n",
              fmt_int(k->links, a, sizeof a), fmt_int(k->links_node_leaf, n1, sizeof n1),
              fmt_int(k->links_leaf_spine, n2, sizeof n2),
              fmt_int(k->links_spine_core, n3, sizeof n3));
    sb_printf(b, "| Storage | %s: read %s, write %s, %s in %s building blocks |\n\n",
              plan_storage_name(p->storage.system),
              fmt_si(k->storage_read_Bps, "B/s", n2, sizeof n2),
              fmt_si(k->storage_write_Bps, "B/s", n3, sizeof n3),
              fmt_si(k->storage_capacity_bytes, "B", c, sizeof c),
              fmt_int(k->storage_units, n1, sizeof n1));
}

static void power(StrBuf *b, const Plan *p, const PlanResult *r)
{
    const PowerResult *w = &r->power;
    char e[32];
    sb_puts(b, "### Power\n\n| | |\n|---|---|\n");
    sb_printf(b, "| IT load | %.0f kW (GPU nodes %.0f, network %.0f, storage %.0f) |\n", w->it_kw,
              w->gpu_nodes_kw, w->network_kw, w->storage_kw);
    sb_printf(b, "| Facility | %.0f kW at PUE %.2f |\n", w->facility_kw, p->site.pue);
    sb_printf(b, "| Hottest rack | %.1f kW of a %.1f kW limit (%s cooling) |\n", w->rack_kw,
              w->rack_limit_kw, plan_cooling_name(w->cooling));
    sb_puts(b, "| Verdict | ");
    sb_md(b, w->verdict);
    sb_printf(b, " |\n| Energy | %.0f MWh per year, %s per year |\n\n", w->energy_mwh_per_year,
              fmt_usd(w->energy_usd_per_year, e, sizeof e));
    if (r->have_layout && r->cluster.n_rack_groups) {
        sb_puts(b, "| Rack group | Racks | Nodes each | kW each |\n|---|---:|---:|---:|\n");
        for (int i = 0; i < r->cluster.n_rack_groups; i++) {
            const RackGroup *g = &r->cluster.rack_groups[i];
            sb_puts(b, "| ");
            sb_md(b, g->role);
            sb_printf(b, " | %d | %d | %.1f |\n", g->count, g->nodes, g->kw);
        }
        sb_puts(b, "\n");
    }
}

static void schedule(StrBuf *b, const Plan *p, const PlanResult *r)
{
    const ScheduleResult *s = &r->schedule;
    sb_puts(b, "### Schedule\n\n");
    if (!s->ran) {
        sb_puts(b, "The plan has no shared tenancy (no teams, no trace).\n\n");
        return;
    }
    const char *basis = summary_pool_basis(s);
    sb_printf(b, "%s on %d GPUs%s%s%s: utilisation %.1f %%, %d of %d jobs completed, %d "
                 "preemptions, %d failures, fragmentation %.1f %%, goodput %.1f %%. Target: p95 "
                 "wait ≤ %.1f h%s.\n\n",
              plan_policy_name(s->policy), s->gpus, basis ? " (" : "", basis ? basis : "",
              basis ? ")" : "",
              s->utilization * 100, s->jobs_completed, s->jobs_submitted, s->preemptions,
              s->failures, s->fragmentation * 100, s->goodput * 100, p->tenancy.wait_p95_s / 3600,
              s->meets_target ? " — met" : " — **not met**");
    sb_puts(b, "| Team | Jobs | Wait p50 | Wait p95 | Wait max | GPU-hours | Borrowed GPU-h | "
               "Preemptions | Lost GPU-h |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < s->n_teams; i++) {
        const TeamSchedResult *t = &s->teams[i];
        sb_puts(b, "| ");
        sb_md(b, t->name);
        sb_printf(b, " | %d | %.2f h | %.2f h | %.2f h | %.0f | %.0f | %d | %.0f |\n", t->jobs,
                  t->wait_hours_p50, t->wait_hours_p95, t->wait_hours_max, t->gpu_hours,
                  t->borrowed_gpu_hours, t->preemptions, t->lost_gpu_hours);
    }
    if (s->n_classes) {
        sb_puts(b, "\n| Team | Job class | Jobs | GPUs | Wait p95 | Mean slowdown |\n"
                   "|---|---|---:|---:|---:|---:|\n");
        for (int i = 0; i < s->n_classes; i++) {
            const ClassSchedResult *k = &s->classes[i];
            sb_puts(b, "| ");
            sb_md(b, k->team);
            sb_puts(b, " | ");
            sb_md(b, k->name);
            sb_printf(b, " | %d | %.4g | %.2f h | %.2f |\n", k->jobs, k->gpus, k->wait_hours_p95,
                      k->slowdown_mean);
        }
    }
    sb_puts(b, "\n");
}

char *export_md(const Plan *p, const PlanResult *r, const Catalog *c, int version,
                const SensResult *sens, const McResult *mc)
{
    (void)c;
    StrBuf b;
    sb_init(&b);
    summary(&b, p, r, version, sens, mc);
    sb_puts(&b, "---\n\n## Detail\n\n");
    if (r->n_workloads)
        workloads(&b, r);
    if (r->have_layout)
        cluster(&b, p, r);
    if (r->have_power)
        power(&b, p, r);
    if (r->have_cost && r->cost.n_options) {
        sb_puts(&b, "### Cost options\n\n");
        cost_table(&b, &r->cost, PLAN_MAX_COST_OPTIONS);
        if (r->cost.cash[0].option >= 0 || r->cost.cash[1].option >= 0) {
            sb_puts(&b, "\n### Cash flow by year\n\n");
            cash_table(&b, &r->cost);
        }
        if (r->cost.n_showback) {
            sb_puts(&b, "### Showback: cost per team per month\n\n");
            showback_table(&b, &r->cost);
        }
        sb_puts(&b, "\nSources of prices:\n\n");
        for (int i = 0; i < r->cost.n_options; i++) {
            const CostOption *o = &r->cost.options[i];
            if (!o->source[0])
                continue;
            bool dup = false;
            for (int j = 0; j < i && !dup; j++)
                dup = !strcmp(r->cost.options[j].source, o->source);
            if (dup)
                continue;
            sb_puts(&b, "- ");
            sb_md(&b, o->source);
            if (o->as_of[0]) {
                sb_puts(&b, " (as of ");
                sb_md(&b, o->as_of);
                sb_puts(&b, ")");
            }
            sb_puts(&b, "\n");
        }
        sb_puts(&b, "\n");
    }
    if (r->have_schedule)
        schedule(&b, p, r);
    if (r->n_assumptions)
        assumptions(&b, r);
    return sb_finish(&b);
}

char *export_compare_md(const Plan *a, const PlanResult *ra, const Plan *b, const PlanResult *rb)
{
    int n;
    HeadlineDelta *d = headline_compare_plans(a, ra, b, rb, &n);
    if (!d)
        return NULL;
    StrBuf s;
    sb_init(&s);
    sb_puts(&s, "# ");
    sb_md(&s, a->name);
    sb_puts(&s, " vs ");
    sb_md(&s, b->name);
    sb_puts(&s, "\n\n| Section | Subject | Metric | ");
    sb_md(&s, a->name);
    sb_puts(&s, " | ");
    sb_md(&s, b->name);
    sb_puts(&s, " | Delta | |\n|---|---|---|---:|---:|---:|---|\n");
    for (int i = 0; i < n; i++) {
        const HeadlineDelta *x = &d[i];
        char va[40] = "—", vb[40] = "—";
        summary_value(&x->h, x->a, va, sizeof va);
        summary_value(&x->h, x->b, vb, sizeof vb);
        sb_puts(&s, "| ");
        sb_md(&s, x->h.section);
        sb_puts(&s, " | ");
        sb_md(&s, x->h.subject);
        sb_puts(&s, " | ");
        sb_md(&s, x->h.label);
        sb_printf(&s, " | %s | %s | ", x->in_a ? va : "—", x->in_b ? vb : "—");
        if (x->in_a && x->in_b)
            sb_printf(&s, "%+.1f %%", x->pct);
        sb_printf(&s, " | %s |\n", x->verdict > 0 ? "better" : x->verdict < 0 ? "**worse**" : "");
    }
    free(d);
    return sb_finish(&s);
}
