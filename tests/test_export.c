/* tests/test_export.c — every export format on a fixed, hand-built plan and
 * result (so the expected text does not move when the model is recalibrated):
 * golden files per format, the HTML is well-formed XML with data in every
 * chart, the Kubernetes manifests are YAML with the right kinds, apiVersions
 * and quotas, and special characters in names are escaped in every format.
 *
 * Regenerate the golden files after an intended change with
 *   GPUPLAN_UPDATE_GOLDEN=1 tests/test_export   (from the build tree) */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "check_main.h"
#include "export.h"
#include "export_tenancy.h"
#include "strbuf.h"

static const char *srcdir(void)
{
    const char *s = getenv("GPUPLAN_SRCDIR");
    return s ? s : GPUPLAN_SRCDIR;
}

/* A small plan with awkward names, and a result as the model would fill it. */
static void fixture(Plan *p, PlanResult *r, Catalog *c, Accelerator *acc)
{
    plan_init(p);
    snprintf(p->name, sizeof p->name, "R&D plan <v2>");
    snprintf(p->description, sizeof p->description, "Pipes | stars * and \"quotes\" & <tags>");
    p->n_workloads = 2;
    workload_init(&p->workloads[0], WL_TRAINING);
    snprintf(p->workloads[0].name, sizeof p->workloads[0].name, "pre_train|70b");
    workload_init(&p->workloads[1], WL_INFERENCE);
    snprintf(p->workloads[1].name, sizeof p->workloads[1].name, "chat <svc>");
    p->tenancy.n_teams = 2;
    team_init(&p->tenancy.teams[0]);
    snprintf(p->tenancy.teams[0].name, sizeof p->tenancy.teams[0].name, "ML & \"Vision\"");
    p->tenancy.teams[0].weight = 2;
    p->tenancy.teams[0].quota_gpus = 64;
    p->tenancy.teams[0].borrow_gpus = 32;
    p->tenancy.teams[0].n_jobs = 1;
    jobclass_init(&p->tenancy.teams[0].jobs[0]);
    snprintf(p->tenancy.teams[0].jobs[0].name, 64, "notebooks");
    snprintf(p->tenancy.teams[0].jobs[0].mig, 24, "3g.40gb");
    p->tenancy.teams[0].jobs[0].per_day = 48;
    p->tenancy.teams[0].jobs[0].hours = 2;
    team_init(&p->tenancy.teams[1]);
    snprintf(p->tenancy.teams[1].name, sizeof p->tenancy.teams[1].name, "infra,ops");
    p->tenancy.teams[1].quota_gpus = 32;

    memset(acc, 0, sizeof *acc);
    snprintf(acc->id, sizeof acc->id, "H100-SXM");
    snprintf(acc->vendor, sizeof acc->vendor, "NVIDIA");
    acc->gpus_per_node = 8;
    acc->node_cpus = 112;
    acc->node_memory_bytes = 2048e9;
    snprintf(acc->nvml_name, sizeof acc->nvml_name, "NVIDIA H100 80GB HBM3");
    acc->mig[0] = (MigProfile){"3g.40gb", 2, 3, 40e9};
    acc->n_mig = 1;
    memset(c, 0, sizeof *c);
    c->accelerators = acc;
    c->n_accelerators = 1;

    memset(r, 0, sizeof *r);
    r->n_workloads = 2;
    WorkloadResult *t = &r->workloads[0];
    snprintf(t->name, sizeof t->name, "pre_train|70b");
    snprintf(t->accelerator, sizeof t->accelerator, "H100-SXM");
    t->ok = true;
    t->kind = WL_TRAINING;
    t->train = (TrainResult){.gpus = 1024, .params = 70.6e9, .active_params = 70.6e9,
                             .flops_per_step = 1.8e18, .flops_total = 6.1e23,
                             .mem = {10e9, 2.5e9, 7.5e9, 40e9, 5e9, 65e9}, .hbm_bytes = 80e9,
                             .fits = true, .meets_target = true, .step_s = 5.5,
                             .step = {4.4, 0.3, 0.5, 0.2, 0, 0, 0.1}, .mfu = 0.42,
                             .tokens_per_s = 3.05e6, .train_days = 56.9, .gpu_hours = 1.4e6,
                             .checkpoint_bytes = 9.9e11, .checkpoint_interval_s = 5400,
                             .job_mtbf_s = 175781, .goodput = 0.95};
    t->train.layout = (Layout){8, 4, 32, 1, 1, 1, 1, RECOMPUTE_SELECTIVE, true, 0};
    t->train.zero = 1; /* the workload's zero auto, megatron's distributed optimizer */
    WorkloadResult *i = &r->workloads[1];
    snprintf(i->name, sizeof i->name, "chat <svc>");
    snprintf(i->accelerator, sizeof i->accelerator, "H100-SXM");
    i->ok = true;
    i->kind = WL_INFERENCE;
    i->infer = (InferResult){.tp = 4, .replicas = 6, .gpus = 24, .batch_per_replica = 64,
                             .kv_bytes_per_token = 327680, .ttft_s = 0.42, .tpot_s = 0.031,
                             .output_tokens_per_s = 12400, .gpu_hours_per_mtok = 0.54,
                             .meets_slo = true};
    r->have_sizing = r->have_layout = r->have_power = r->have_cost = r->have_schedule = true;
    r->cluster = (ClusterResult){.gpus = 1256, .gpus_training = 1024, .gpus_inference = 24,
                                 .gpus_pool = 96, .gpus_headroom = 112, .gpus_per_node = 8,
                                 .nodes = 157, .gpus_per_domain = 8, .nvlink_domains = 157,
                                 .racks = 40, .nodes_per_rack = 4, .scalable_units = 5,
                                 .leaf_switches = 40, .spine_switches = 20, .links = 2512,
                                 .links_node_leaf = 1256, .links_leaf_spine = 1256,
                                 .storage_read_Bps = 1.26e12, .storage_write_Bps = 1.65e10,
                                 .storage_capacity_bytes = 7.1e15, .storage_units = 13};
    snprintf(r->cluster.accelerator, sizeof r->cluster.accelerator, "H100-SXM");
    r->cluster.n_rack_groups = 2;
    r->cluster.rack_groups[0] = (RackGroup){.count = 39, .nodes = 4, .kw = 40.8, .role = "compute"};
    r->cluster.rack_groups[1] = (RackGroup){.count = 1, .nodes = 1, .kw = 10.2, .role = "compute"};
    r->power = (PowerResult){.it_kw = 1712, .gpu_nodes_kw = 1601, .network_kw = 60,
                             .storage_kw = 51, .facility_kw = 2226, .rack_kw = 40.8,
                             .rack_limit_kw = 40, .cooling = COOLING_AIR, .cooling_ok = false,
                             .energy_mwh_per_year = 19500, .energy_usd_per_year = 1.56e6};
    snprintf(r->power.verdict, sizeof r->power.verdict, "over the rack limit by 0.8 kW");
    r->cost.n_options = 2;
    r->cost.cheapest = 0;
    r->cost.chosen = 0;
    r->cost.options[0] = (CostOption){.kind = COST_ONPREM, .gpus = 1256, .capex_usd = 5.4e7,
                                      .opex_usd_per_year = 4.1e6, .tco_usd = 6.63e7,
                                      .usd_per_gpu_hour = 2.01, .breakeven_utilization = 0};
    snprintf(r->cost.options[0].name, 96, "on-prem H100-SXM");
    snprintf(r->cost.options[0].source, PLAN_TEXT_LEN, "costs.yaml <assumptions> & estimates");
    r->cost.options[1] = (CostOption){.kind = COST_CLOUD, .gpus = 1256, .tco_usd = 1.8e8,
                                      .opex_usd_per_year = 6e7, .usd_per_gpu_hour = 6.88,
                                      .breakeven_utilization = 0.27,
                                      .pricing = PRICING_ON_DEMAND};
    snprintf(r->cost.options[1].name, 96, "p5.48xlarge on-demand");
    snprintf(r->cost.options[1].provider, 16, "aws");
    snprintf(r->cost.options[1].as_of, 16, "2026-11-09");
    snprintf(r->cost.options[1].instance, CAT_ID_LEN, "p5.48xlarge");
    r->cost.options[0].usd_per_gpu_hour_list = 1.80;
    r->cost.options[1].usd_per_gpu_hour_list = 6.88;
    r->cost.options[1].pay_as_you_go = true;
    /* the verdict fields, as cost_stage sets them */
    r->cost.verdict = COST_VERDICT_BUILD;
    r->cost.onprem = 0;
    r->cost.cloud = 1;
    r->cost.ondemand = 1;
    r->cost.alternative = -1;
    r->cost.margin_pct = (1.8e8 - 6.63e7) / 1.8e8 * 100;
    r->cost.crossover_month = 11;
    r->cost.utilization = 0.9;
    r->cost.cash[0] = (CashFlow){.option = 0, .years = 3, .capex = {5.4e7},
                                 .opex = {2.5e6, 2.5e6, 2.5e6},
                                 .energy = {1.6e6, 1.6e6, 1.6e6}};
    r->cost.cash[1] = (CashFlow){.option = 1, .years = 3, .rent = {6e7, 6e7, 6e7}};
    snprintf(r->cost.prices_oldest, 16, "2026-06-01");
    snprintf(r->cost.prices_newest, 16, "2026-11-09");
    r->cost.n_levers = 1;
    r->cost.levers[0] = (CostLever){.tco_delta_usd = 8.64e6};
    snprintf(r->cost.levers[0].name, 48, "node price");
    snprintf(r->cost.levers[0].value, 64, "$270000 per node");
    snprintf(r->cost.levers[0].change, 48, "+20 %%");
    snprintf(r->cost.levers[0].source, PLAN_TEXT_LEN, "Dell quote <Q-1> & co");
    snprintf(r->cost.levers[0].date, 16, "2026-06-01");
    snprintf(r->cost.levers[0].applies_to, 96, "on-prem H100-SXM");
    r->cost.n_showback = 1;
    r->cost.showback[0] = (Showback){.gpu_hours_per_month = 2920, .usd_per_month = 5869.2};
    snprintf(r->cost.showback[0].team, PLAN_NAME_LEN, "ML & \"Vision\"");
    r->cost.n_excluded = 1;
    snprintf(r->cost.excluded[0].accelerator, CAT_ID_LEN, "TPU-v5e");
    snprintf(r->cost.excluded[0].why, 96, "pretrain: does not fit");
    r->schedule = (ScheduleResult){.ran = true, .policy = POLICY_FAIR_SHARE, .gpus = 96,
                                   .utilization = 0.71, .jobs_submitted = 1500,
                                   .jobs_completed = 1490, .recommended_gpus = 96,
                                   .meets_target = true, .n_teams = 2};
    r->schedule.teams[0] = (TeamSchedResult){.jobs = 1440, .wait_hours_p50 = 0.1,
                                             .wait_hours_p95 = 1.5, .wait_hours_max = 6,
                                             .gpu_hours = 2880};
    snprintf(r->schedule.teams[0].name, PLAN_NAME_LEN, "ML & \"Vision\"");
    r->schedule.teams[1] = (TeamSchedResult){.jobs = 60, .wait_hours_p50 = 0.5,
                                             .wait_hours_p95 = 3.2, .wait_hours_max = 9,
                                             .gpu_hours = 9000, .preemptions = 3};
    snprintf(r->schedule.teams[1].name, PLAN_NAME_LEN, "infra,ops");
    result_warn(r, "power: a rack draws 40.8 kW > 40 kW <limit> & needs care");
    result_assume(r, "cost", "facility build $10,000 per kW (assumption)");
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

static char *render(ExportFormat f)
{
    Plan *p = calloc(1, sizeof *p);
    PlanResult *r = calloc(1, sizeof *r);
    Catalog c;
    Accelerator acc;
    fixture(p, r, &c, &acc);
    char *s = export_plan(f, p, r, &c, 7);
    free(p);
    free(r);
    return s;
}

static void golden(ExportFormat f)
{
    char *got = render(f);
    ck_assert_ptr_nonnull(got);
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/golden/fixture.%s", srcdir(), export_format_extension(f));
    if (getenv("GPUPLAN_UPDATE_GOLDEN")) {
        FILE *o = fopen(path, "wb");
        ck_assert_ptr_nonnull(o);
        fputs(got, o);
        fclose(o);
    }
    char *want = read_all(path);
    ck_assert_msg(want != NULL, "missing golden file %s", path);
    if (strcmp(got, want) != 0) {
        size_t i = 0;
        while (got[i] && got[i] == want[i])
            i++;
        ck_abort_msg("%s differs from the golden file at byte %zu: got \"%.60s\", want \"%.60s\"",
                     export_format_name(f), i, got + i, want + i);
    }
    free(got);
    free(want);
}

START_TEST(every_format_matches_its_golden_file)
{
    golden((ExportFormat)_i);
}
END_TEST

/* The JSON export is valid JSON with the keys of PLAN-FORMAT.md. */
START_TEST(json_export_has_the_contract_keys)
{
    char *s = render(EXPORT_JSON);
    json_error_t err;
    json_t *o = json_loads(s, 0, &err);
    ck_assert_msg(o != NULL, "invalid JSON: %s at line %d", err.text, err.line);
    static const char *const top[] = {"plan", "format", "workloads", "cluster", "power", "cost",
                                      "schedule", "warnings"};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
        ck_assert_msg(json_object_get(o, top[i]), "missing %s", top[i]);
    ck_assert_str_eq(json_string_value(json_object_get(o, "plan")), "R&D plan <v2>");
    json_t *t = json_array_get(json_object_get(o, "workloads"), 0);
    static const char *const tk[] = {"parallel", "micro_batch", "recompute", "params",
                                     "active_params", "flops_per_step", "flops_total",
                                     "memory_gib_per_gpu", "hbm_gib", "fits", "step_seconds",
                                     "step_breakdown_seconds", "mfu", "tokens_per_second",
                                     "train_days", "gpu_hours", "checkpoint_bytes",
                                     "checkpoint_interval_minutes", "goodput",
                                     "dataset_read_gbps", "checkpoint_write_gbps"};
    for (size_t i = 0; i < sizeof tk / sizeof tk[0]; i++)
        ck_assert_msg(json_object_get(t, tk[i]), "training misses %s", tk[i]);
    json_t *inf = json_array_get(json_object_get(o, "workloads"), 1);
    static const char *const ik[] = {"tp", "replicas", "batch_per_replica", "kv_bytes_per_token",
                                     "memory_gib_per_gpu", "ttft_ms", "tpot_ms",
                                     "output_tokens_per_second", "meets_slo"};
    for (size_t i = 0; i < sizeof ik / sizeof ik[0]; i++)
        ck_assert_msg(json_object_get(inf, ik[i]), "inference misses %s", ik[i]);
    ck_assert_double_eq_tol(json_number_value(json_object_get(inf, "ttft_ms")), 420, 1e-9);
    json_t *team = json_array_get(json_object_get(json_object_get(o, "schedule"), "teams"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(team, "name")), "ML & \"Vision\"");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(o, "cost"), "cheapest")),
                     "on-prem H100-SXM");
    json_decref(o);
    free(s);
}
END_TEST

/* xmllint ($XMLLINT, else xmllint) --noout parses doc as XML, silently;
 * the file is a private one under $TMPDIR. */
static void assert_xml_well_formed(const char *doc)
{
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/gpuplan-html-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, doc, strlen(doc)), (ssize_t)strlen(doc));
    close(fd);
    const char *xmllint = getenv("XMLLINT");
    char cmd[8400];
    snprintf(cmd, sizeof cmd, "%s --noout '%s' 2>&1", xmllint && *xmllint ? xmllint : "xmllint", path);
    FILE *pp = popen(cmd, "r");
    ck_assert_ptr_nonnull(pp);
    char out[2048] = "";
    size_t n = fread(out, 1, sizeof out - 1, pp);
    out[n] = '\0';
    int rc = pclose(pp);
    unlink(path);
    ck_assert_msg(rc == 0 && n == 0, "xmllint: %s", out);
}

/* xmllint --noout parses the page as XML; every chart has rows and rects. */
START_TEST(html_export_is_well_formed_and_every_chart_has_data)
{
    char *s = render(EXPORT_HTML);
    assert_xml_well_formed(s);
    static const char *const charts[] = {"chart-cost", "chart-memory", "chart-step",
                                         "chart-power", "chart-racks", "chart-wait"};
    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "id=\"%s\"", charts[i]);
        const char *at = strstr(s, key);
        ck_assert_msg(at != NULL, "no chart %s", charts[i]);
        const char *rows = strstr(at, "data-rows=\"");
        ck_assert(rows && atoi(rows + 11) > 0);
        const char *end = strstr(at, "</svg>");
        const char *rect = strstr(at, "<rect");
        ck_assert_msg(rect && rect < end, "chart %s draws nothing", charts[i]);
    }
    ck_assert_ptr_null(strstr(s, "<script"));
    ck_assert_ptr_null(strstr(s, "http://www.w3.org/2000/svg\" href"));
    ck_assert_ptr_nonnull(strstr(s, "ML &amp; &quot;Vision&quot;"));
    ck_assert_ptr_null(strstr(s, "<svc>"));
    ck_assert_ptr_nonnull(strstr(s, "@media print"));
    free(s);
}
END_TEST

/* Walk a YAML stream; for each document record kind, apiVersion and the
 * GPU quota numbers seen, so the test can check them. */
typedef struct {
    char kinds[32][32];
    char apis[32][64];
    int ndocs;
    int nominal[16];
    int nnominal;
    int borrowing[16];
    int nborrow;
} K8s;

static void walk(yaml_document_t *d, yaml_node_t *n, const char *key, K8s *k)
{
    if (n->type == YAML_SCALAR_NODE) {
        const char *v = (const char *)n->data.scalar.value;
        if (!strcmp(key, "kind"))
            snprintf(k->kinds[k->ndocs], 32, "%s", v);
        else if (!strcmp(key, "apiVersion"))
            snprintf(k->apis[k->ndocs], 64, "%s", v);
        else if (!strcmp(key, "nominalQuota") && k->nnominal < 16)
            k->nominal[k->nnominal++] = atoi(v);
        else if (!strcmp(key, "borrowingLimit") && k->nborrow < 16)
            k->borrowing[k->nborrow++] = atoi(v);
    } else if (n->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            yaml_node_t *kn = yaml_document_get_node(d, p->key);
            yaml_node_t *vn = yaml_document_get_node(d, p->value);
            walk(d, vn, kn && kn->type == YAML_SCALAR_NODE ? (const char *)kn->data.scalar.value : "",
                 k);
        }
    } else if (n->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++)
            walk(d, yaml_document_get_node(d, *i), key, k);
    }
}

static void parse_k8s(const char *text, K8s *k)
{
    memset(k, 0, sizeof *k);
    yaml_parser_t parser;
    ck_assert(yaml_parser_initialize(&parser));
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    for (;;) {
        yaml_document_t doc;
        ck_assert_msg(yaml_parser_load(&parser, &doc), "YAML error: %s at line %zu", parser.problem,
                      parser.problem_mark.line + 1);
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (!root) {
            yaml_document_delete(&doc);
            break;
        }
        walk(&doc, root, "", k);
        k->ndocs++;
        yaml_document_delete(&doc);
        ck_assert_int_lt(k->ndocs, 32);
    }
    yaml_parser_delete(&parser);
}

static int count_kind(const K8s *k, const char *kind, const char *api)
{
    int n = 0;
    for (int i = 0; i < k->ndocs; i++)
        n += !strcmp(k->kinds[i], kind) && !strcmp(k->apis[i], api);
    return n;
}

START_TEST(kueue_manifests_are_yaml_with_the_plan_quotas)
{
    char *s = render(EXPORT_KUEUE);
    K8s k;
    parse_k8s(s, &k);
    const char *api = "kueue.x-k8s.io/v1beta2";
    ck_assert_int_eq(count_kind(&k, "ResourceFlavor", api), 2); /* whole GPUs + MIG 3g.40gb */
    ck_assert_int_eq(count_kind(&k, "Cohort", api), 1);
    ck_assert_int_eq(count_kind(&k, "Topology", api), 1);
    ck_assert_int_eq(count_kind(&k, "ClusterQueue", api), 2);
    ck_assert_int_eq(count_kind(&k, "LocalQueue", api), 2);
    ck_assert_int_eq(count_kind(&k, "WorkloadPriorityClass", api), 3);
    ck_assert_int_eq(count_kind(&k, "Namespace", "v1"), 2);
    /* team 0: MIG demand 48/day × 2 h / 24 h = 4 concurrent on average; the
     * p95 of Poisson(4) is 8 slices = 4 GPUs of 2 slices, taken out of its 64:
     * flavours whole {cpu, memory, gpu 60, mig 0} and MIG {cpu, memory, gpu 0,
     * mig 8}; team 1: 32 GPUs, MIG 0 */
    ck_assert_int_eq(k.nnominal, 16);
    ck_assert_int_eq(k.nominal[0], 60 * 14); /* cpu: 112 cores / 8 GPUs */
    ck_assert_int_eq(k.nominal[2], 60);
    ck_assert_int_eq(k.nominal[3], 0);
    ck_assert_int_eq(k.nominal[4], 4 * 14);
    ck_assert_int_eq(k.nominal[6], 0);
    ck_assert_int_eq(k.nominal[7], 8);
    ck_assert_int_eq(k.nominal[10], 32);
    ck_assert_int_eq(k.borrowing[2], 32); /* team 0 borrows up to 32 whole GPUs */
    ck_assert_ptr_nonnull(strstr(s, "cohortName: r-d-plan-v2\n"));
    ck_assert_ptr_nonnull(strstr(s, "kubernetes.io/metadata.name: ml-vision\n"));
    ck_assert_ptr_nonnull(strstr(s, "nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3\n"));
    ck_assert_ptr_nonnull(strstr(s, "nvidia.com/mig.config: all-3g.40gb\n"));
    ck_assert_ptr_nonnull(strstr(s, "gpuplan.io/team: \"ML & \\\"Vision\\\"\""));
    ck_assert_ptr_nonnull(strstr(s, "weight: \"2\""));
    ck_assert_ptr_nonnull(strstr(s, "      preemptionStrategies: [LessThanOrEqualToFinalShare"));
    free(s);
    /* the older API: v1beta1 kinds, `cohort`, fairSharing.enable */
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    Catalog c;
    Accelerator acc;
    fixture(p, r, &c, &acc);
    s = export_kueue_api(p, r, &c, "v1beta1");
    parse_k8s(s, &k);
    ck_assert_int_eq(count_kind(&k, "ClusterQueue", "kueue.x-k8s.io/v1beta1"), 2);
    ck_assert_ptr_nonnull(strstr(s, "  cohort: r-d-plan-v2\n"));
    ck_assert_ptr_nonnull(strstr(s, "      enable: true\n"));
    free(s);
    ck_assert_ptr_null(export_kueue_api(p, r, &c, "v1alpha1"));
    free(p);
    free(r);
}
END_TEST

/* A part whose platform labels its nodes itself (catalog node_label: GKE's
 * TPU node pools) is selected by that label, not one the operator applies;
 * without it, as before: GPU Feature Discovery's, else gpuplan.io's. */
START_TEST(kueue_flavour_selects_the_platforms_own_node_label)
{
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    Catalog c;
    Accelerator acc;
    fixture(p, r, &c, &acc);
    snprintf(acc.id, sizeof acc.id, "TPU7x");
    snprintf(acc.vendor, sizeof acc.vendor, "Google");
    acc.nvml_name[0] = '\0';
    acc.n_mig = 0;
    snprintf(acc.node_label, sizeof acc.node_label, "cloud.google.com/gke-tpu-accelerator=tpu7x");
    snprintf(p->accelerator, sizeof p->accelerator, "TPU7x");
    for (int i = 0; i < p->tenancy.n_teams; i++)
        for (int j = 0; j < p->tenancy.teams[i].n_jobs; j++)
            p->tenancy.teams[i].jobs[j].mig[0] = '\0';
    char *s = export_kueue_api(p, r, &c, "v1beta2");
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(strstr(s, "  nodeLabels:\n    # the platform's own node label for TPU7x\n"
                                    "    cloud.google.com/gke-tpu-accelerator: tpu7x\n"));
    ck_assert_ptr_null(strstr(s, "gpuplan.io/accelerator"));
    ck_assert_ptr_nonnull(strstr(s, "google.com/tpu"));
    free(s);
    acc.node_label[0] = '\0'; /* none known: the operator's label */
    s = export_kueue_api(p, r, &c, "v1beta2");
    ck_assert_ptr_nonnull(strstr(s, "    gpuplan.io/accelerator: tpu7x\n"));
    free(s);
    free(p);
    free(r);
}
END_TEST

START_TEST(volcano_queues_are_yaml_with_weight_capability_and_guarantee)
{
    char *s = render(EXPORT_VOLCANO);
    K8s k;
    parse_k8s(s, &k);
    ck_assert_int_eq(count_kind(&k, "Queue", "scheduling.volcano.sh/v1beta1"), 2);
    ck_assert_int_eq(count_kind(&k, "ConfigMap", "v1"), 1);
    ck_assert_int_eq(count_kind(&k, "PriorityClass", "scheduling.k8s.io/v1"), 3);
    ck_assert_int_eq(count_kind(&k, "HyperNode", "topology.volcano.sh/v1alpha1"), 4); /* 3 leaves + spine */
    ck_assert_ptr_nonnull(strstr(s, "      - name: capacity\n"));
    ck_assert_ptr_null(strstr(s, "proportion"));
    ck_assert_ptr_nonnull(strstr(s, "  weight: 2\n"));
    /* ceiling 60 + 32 whole GPUs; MIG slices apart */
    ck_assert_ptr_nonnull(strstr(s, "    nvidia.com/gpu: \"92\"\n    nvidia.com/mig-3g.40gb: \"8\"\n"));
    ck_assert_ptr_nonnull(strstr(s, "  guarantee:\n    resource:\n      cpu: \"896\"\n"));
    ck_assert_ptr_nonnull(strstr(s, "name: infra-ops\n"));
    free(s);
}
END_TEST

START_TEST(volcano_weights_are_scaled_into_the_crd_range)
{
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    Catalog c;
    Accelerator acc;
    fixture(p, r, &c, &acc);
    p->tenancy.teams[0].weight = 1e6; /* the plan allows it; Volcano's Queue CRD stops at 65535 */
    p->tenancy.teams[1].weight = 0.5;
    char *s = export_plan(EXPORT_VOLCANO, p, r, &c, 0);
    ck_assert_ptr_nonnull(strstr(s, "  weight: 65535\n"));
    ck_assert_ptr_nonnull(strstr(s, "  weight: 1\n")); /* 0.5 × 0.065535 rounds to 0: floor 1 */
    free(s);
    p->tenancy.teams[0].weight = 3;
    s = export_plan(EXPORT_VOLCANO, p, r, &c, 0);
    ck_assert_ptr_nonnull(strstr(s, "  weight: 65535\n"));
    ck_assert_ptr_nonnull(strstr(s, "  weight: 10923\n")); /* 0.5 / 3 × 65535, ratio kept */
    free(s);
    free(p);
    free(r);
}
END_TEST

START_TEST(slurm_bundle_has_nodes_partitions_limits_and_accounts)
{
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    Catalog c;
    Accelerator acc;
    fixture(p, r, &c, &acc);
    ExportFile f[4];
    ck_assert_int_eq(export_slurm_files(p, r, &c, f), 4);
    ck_assert_str_eq(f[0].name, "slurm.conf");
    const char *conf = f[0].text, *gres = f[1].text, *topo = f[2].text, *acct = f[3].text;
    /* 112 cores, 2 TB less 5% in MiB; 11 whole-GPU nodes and 1 MIG node */
    ck_assert_ptr_nonnull(strstr(conf, "NodeName=gpu[0001-0004] CPUs=112 RealMemory=1855468 "
                                       "Gres=gpu:nvidia_h100_80gb_hbm3:8 Features=rack01 "));
    ck_assert_ptr_nonnull(strstr(conf, "NodeName=gpu0012 CPUs=112 RealMemory=1855468 "
                                       "Gres=gpu:3g.40gb:16 Features=rack03,mig-3g.40gb "));
    ck_assert_ptr_nonnull(strstr(conf, "AccountingStorageType=accounting_storage/slurmdbd\n"));
    ck_assert_ptr_nonnull(strstr(conf, "DefMemPerGPU=231933\n"));
    ck_assert_ptr_nonnull(strstr(conf, "PartitionName=ml_vision Nodes=ALL AllowAccounts=ml_vision "
                                       "QOS=ml_vision MaxTime=INFINITE State=UP Default=YES"));
    ck_assert_ptr_nonnull(strstr(conf, "EnforcePartLimits=ALL\n"));
    ck_assert_ptr_nonnull(strstr(conf, "TopologyPlugin=topology/tree\n"));
    ck_assert_ptr_null(strstr(conf, "sacctmgr"));
    ck_assert_ptr_nonnull(strstr(gres, "NodeName=gpu[0001-0011] Name=gpu "
                                       "Type=nvidia_h100_80gb_hbm3 File=/dev/nvidia[0-7]\n"));
    ck_assert_ptr_nonnull(strstr(topo, "SwitchName=spine Switches=leaf[01-03]\n"));
    /* the team's ceiling on its partition QOS and on its account; the QOS is
     * created before slurmctld, the limits after (they name GRES TRES) */
    const char *qos = strstr(acct, "run add qos 'ml_vision' Description='ML & \"Vision\"'\n");
    const char *before = strstr(acct, "if [ $before -eq 1 ]; then\n");
    const char *lim = strstr(acct, "run modify qos where name='ml_vision' set "
                                   "GrpTRES=gres/gpu:nvidia_h100_80gb_hbm3=92,"
                                   "gres/gpu:3g.40gb=8,gres/gpu=100\n");
    ck_assert_ptr_nonnull(qos);
    ck_assert_ptr_nonnull(before);
    ck_assert_ptr_nonnull(lim);
    ck_assert(qos < before && before < lim);
    ck_assert_ptr_nonnull(strstr(acct, "for t in gres/gpu gres/gpu:nvidia_h100_80gb_hbm3 "
                                       "gres/gpu:3g.40gb ; do\n"));
    ck_assert_ptr_nonnull(strstr(acct, "run add account 'ml_vision' Description='ML & \"Vision\"'\n"
                                       "run modify account where name='ml_vision' set Fairshare=200 "
                                       "GrpTRES=gres/gpu:nvidia_h100_80gb_hbm3=92,"
                                       "gres/gpu:3g.40gb=8,gres/gpu=100\n"));
    ck_assert_ptr_nonnull(strstr(acct, "run modify qos where name='normal' set Priority=100\n"));
    ck_assert_int_eq(f[3].mode, 0755);
    export_files_free(f, 4);
    /* no team with a ceiling: no limits and no TRES check (an empty list) */
    for (int i = 0; i < p->tenancy.n_teams; i++)
        p->tenancy.teams[i].borrow_gpus = -1;
    ck_assert_int_eq(export_slurm_files(p, r, &c, f), 4);
    ck_assert_ptr_null(strstr(f[3].text, " GrpTRES="));
    ck_assert_ptr_null(strstr(f[3].text, "for t in"));
    ck_assert_ptr_nonnull(strstr(f[3].text, "run add qos 'ml_vision' Description="));
    export_files_free(f, 4);
    free(p);
    free(r);
}
END_TEST

START_TEST(team_names_that_collide_are_disambiguated_with_a_note)
{
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    Catalog c;
    Accelerator acc;
    fixture(p, r, &c, &acc);
    snprintf(p->tenancy.teams[0].name, sizeof p->tenancy.teams[0].name, "ML");
    snprintf(p->tenancy.teams[1].name, sizeof p->tenancy.teams[1].name, "ml");
    char names[PLAN_MAX_TEAMS][EXPORT_NAME_LEN], notes[EXPORT_NOTES_LEN] = "";
    export_team_names(p, NAMES_K8S, names, notes, sizeof notes);
    ck_assert_str_eq(names[0], "ml");
    ck_assert_str_ne(names[1], "ml");
    ck_assert_int_eq(strncmp(names[1], "ml-", 3), 0);
    ck_assert_ptr_nonnull(strstr(notes, "teams \"ML\" and \"ml\" both map to the Kubernetes name "
                                        "\"ml\""));
    /* equal in their first 63 bytes; a leading '-' and a system namespace */
    memset(p->tenancy.teams[0].name, 'a', 64);
    p->tenancy.teams[0].name[64] = '\0';
    memcpy(p->tenancy.teams[1].name, p->tenancy.teams[0].name, 65);
    p->tenancy.teams[1].name[63] = 'b';
    notes[0] = '\0';
    export_team_names(p, NAMES_SLURM, names, notes, sizeof notes);
    ck_assert_int_le((int)strlen(names[1]), 63);
    ck_assert_str_ne(names[0], names[1]);
    ck_assert_ptr_nonnull(strstr(notes, "Slurm name"));
    /* slurmdbd keys accounts and QOS on their first 42 bytes: names that
     * differ only after byte 42 collide there, so Slurm names stop at 42 */
    p->tenancy.teams[0].name[63] = 'a';
    p->tenancy.teams[1].name[50] = 'b';
    notes[0] = '\0';
    export_team_names(p, NAMES_SLURM, names, notes, sizeof notes);
    ck_assert_int_eq((int)strlen(names[0]), 42);
    ck_assert_int_eq((int)strlen(names[1]), 42);
    ck_assert_int_ne(strncmp(names[0], names[1], 42), 0);
    ck_assert_ptr_nonnull(strstr(notes, "both map to the Slurm name"));
    export_team_names(p, NAMES_K8S, names, notes, sizeof notes);
    ck_assert_int_eq((int)strlen(names[1]), 63); /* Kubernetes keeps 63: no collision */
    char one[EXPORT_NAME_LEN];
    export_name("--drop table", NAMES_SLURM, one);
    ck_assert_str_eq(one, "drop_table");
    snprintf(p->tenancy.teams[0].name, sizeof p->tenancy.teams[0].name, "kube-system");
    notes[0] = '\0';
    export_team_names(p, NAMES_K8S, names, notes, sizeof notes);
    ck_assert_str_eq(names[0], "team-kube-system");
    free(p);
    free(r);
}
END_TEST

START_TEST(poisson_quantiles_are_exact)
{
    ck_assert_int_eq(export_poisson_quantile(4, 0.95), 8);   /* P(X<=7)=0.949, P(X<=8)=0.979 */
    ck_assert_int_eq(export_poisson_quantile(1, 0.95), 3);   /* 0.920, 0.981 */
    ck_assert_int_eq(export_poisson_quantile(0, 0.95), 0);
    ck_assert_int_eq(export_poisson_quantile(1000, 0.95), 1052); /* log-space: no underflow */
}
END_TEST

START_TEST(markdown_and_csv_escape_special_characters)
{
    char *md = render(EXPORT_MD);
    ck_assert_ptr_nonnull(strstr(md, "# R&D plan \\<v2\\> — GPU cluster plan"));
    ck_assert_ptr_nonnull(strstr(md, "Pipes \\| stars \\* and"));
    ck_assert_ptr_nonnull(strstr(md, "| pre\\_train\\|70b |"));
    ck_assert_ptr_nonnull(strstr(md, "## The ask"));
    ck_assert_ptr_nonnull(strstr(md, "## Recommendation"));
    ck_assert_ptr_nonnull(strstr(md, "## Risks and assumptions"));
    free(md);
    char *csv = render(EXPORT_CSV);
    ck_assert(strncmp(csv, "plan,section,subject,metric,value,unit\r\n", 40) == 0);
    ck_assert_ptr_nonnull(strstr(csv, "R&D plan <v2>,schedule,\"infra,ops\",wait_hours_p95,3.2,h\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\"ML & \"\"Vision\"\"\""));
    /* a dimensionless metric has an empty unit cell, not a guard quote */
    ck_assert_ptr_nonnull(strstr(csv, ",mfu,0.42,\r\n"));
    free(csv);
}
END_TEST

START_TEST(html_element_ids_are_unique_with_more_than_ten_cost_options)
{
    Plan *p = malloc(sizeof *p);
    PlanResult *r = malloc(sizeof *r);
    Catalog c;
    Accelerator acc;
    fixture(p, r, &c, &acc);
    for (int i = 2; i < 12; i++)
        r->cost.options[i] = r->cost.options[i % 2];
    r->cost.n_options = 12; /* the summary charts ten, the detail all twelve */
    char *h = export_plan(EXPORT_HTML, p, r, &c, 0);
    ck_assert_ptr_nonnull(h);
    char ids[64][64];
    int n = 0;
    for (const char *q = strstr(h, " id=\""); q; q = strstr(q + 1, " id=\"")) {
        const char *e = strchr(q + 5, '"');
        ck_assert_ptr_nonnull(e);
        ck_assert_int_lt(n, 64);
        snprintf(ids[n], sizeof ids[n], "%.*s", (int)(e - q - 5), q + 5);
        for (int j = 0; j < n; j++)
            ck_assert_msg(strcmp(ids[j], ids[n]) != 0, "duplicate id \"%s\"", ids[n]);
        n++;
    }
    ck_assert_ptr_nonnull(strstr(h, "id=\"chart-cost-all\""));
    free(h);
    free(p);
    free(r);
}
END_TEST

/* A tornado and Monte Carlo as sens_run / mc_run would fill them, by hand,
 * so the section's text is fixed: utilisation flips the verdict below the
 * plan's value, resale moves the on-prem TCO both ways. */
static void ranges_fixture(SensResult *s, McResult *m)
{
    memset(s, 0, sizeof *s);
    memset(m, 0, sizeof *m);
    s->base = (SensOutcome){.gpus = 1024, .days = 30, .mw = 1.5, .tco = 1e9, .utilization = 0.8,
                            .verdict = VERDICT_ONPREM, .onprem_tco = 1e9, .cloud_tco = 1.2e9};
    SensBar *u = &s->bars[1];
    u->knob = RANGE_UTILIZATION;
    u->nominal = 1;
    u->low = 0.6;
    u->high = 1.1;
    u->from_plan = true;
    u->at_low = s->base;
    u->at_low.verdict = VERDICT_CLOUD;
    u->at_low.cloud_tco = 0.8e9;
    u->at_high = s->base;
    u->flips = true;
    u->flip_value = 0.7;
    u->flip_side = -1;
    SensBar *r = &s->bars[0];
    r->knob = RANGE_RESALE;
    r->nominal = 0.4;
    r->low = 0;
    r->high = 0.5;
    r->at_low = s->base;
    r->at_low.tco = r->at_low.onprem_tco = 1.25e9;
    r->at_high = s->base;
    r->at_high.tco = r->at_high.onprem_tco = 0.95e9;
    r->swing_tco = 0.3e9;
    s->n_bars = 2;
    s->deciders[0] = 1;
    s->n_deciders = 1;
    char cond[96];
    sens_format_flip(s, u, cond, sizeof cond);
    snprintf(s->sentence, sizeof s->sentence, "cloud wins if %s", cond);
    s->evaluations = 21;
    m->samples = 100;
    m->seed = 5;
    m->n_knobs = 2;
    m->gpus = (Percentiles){1024, 1024, 1032};
    m->days = (Percentiles){28.5, 30.2, 33.9};
    m->mw = (Percentiles){1.4, 1.5, 1.7};
    m->tco = (Percentiles){0.97e9, 1.08e9, 1.21e9};
    m->share_other_verdict = 0.12;
}

static char *render_ranges(ExportFormat f, const SensResult *sens, const McResult *mc)
{
    Plan *p = calloc(1, sizeof *p);
    PlanResult *r = calloc(1, sizeof *r);
    Catalog c;
    Accelerator acc;
    fixture(p, r, &c, &acc);
    char *s = export_plan_ranges(f, p, r, &c, 7, sens, mc);
    free(p);
    free(r);
    return s;
}

START_TEST(ranges_section_in_markdown)
{
    SensResult *s = malloc(sizeof *s);
    McResult m;
    ranges_fixture(s, &m);
    ck_assert_str_eq(s->sentence, "cloud wins if utilisation < 56 %");
    char *md = render_ranges(EXPORT_MD, s, &m);
    ck_assert_ptr_nonnull(md);
    const char *sec = strstr(md, "## What moves the answer\n");
    ck_assert_ptr_nonnull(sec);
    /* in the summary, before the detail */
    ck_assert(sec < strstr(md, "## Detail"));
    static const char *const want[] = {
        "**Verdict: on-prem.** Cloud wins if utilisation \\< 56 %.",
        "100 samples, 2 assumptions varied (the horizon held at the plan's 3 years), seed 5; "
        "12 % of the samples give another verdict",
        "| GPUs | 1024 | 1024 | 1032 | 1024 |",
        "| Days to train | 28.5 | 30.2 | 33.9 | 30.0 |",
        "| TCO | $970M | $1.08B | $1.21B | $1.00B |",
        "| resale value | 0 % of the hardware – 50 % of the hardware | 40 % of the hardware | "
        "catalog | $1.25B | $950M | on-prem / on-prem | — |",
        "| utilisation | 0.60x the modelled – 1.10x the modelled | 1.00x the modelled | plan | "
        "$1.00B | $1.00B | cloud / on-prem | utilisation \\< 56 % |",
        "21 full evaluations",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(sec, want[i]) != NULL, "missing: %s\nin:\n%.3000s", want[i], sec);
    /* resale (largest swing) first, as sens_run sorts */
    ck_assert(strstr(sec, "| resale value |") < strstr(sec, "| utilisation |"));
    free(md);
    /* without ranges: no section, and the plain export is unchanged */
    md = render_ranges(EXPORT_MD, NULL, NULL);
    char *plain = render(EXPORT_MD);
    ck_assert_ptr_null(strstr(md, "What moves the answer"));
    ck_assert_str_eq(md, plain);
    free(md);
    free(plain);
    free(s);
}
END_TEST

START_TEST(ranges_section_in_html_draws_the_tornado)
{
    SensResult *s = malloc(sizeof *s);
    McResult m;
    ranges_fixture(s, &m);
    char *h = render_ranges(EXPORT_HTML, s, &m);
    ck_assert_ptr_nonnull(h);
    assert_xml_well_formed(h);
    const char *sec = strstr(h, "<h2 id=\"what-moves\">What moves the answer</h2>");
    ck_assert_ptr_nonnull(sec);
    ck_assert_ptr_nonnull(strstr(sec, "Verdict: on-prem. Cloud wins if utilisation &lt; 56 %."));
    const char *svg = strstr(sec, "id=\"chart-tornado\"");
    ck_assert_ptr_nonnull(svg);
    ck_assert_ptr_nonnull(strstr(svg, "data-bars=\"2\""));
    const char *end = strstr(svg, "</svg>");
    ck_assert_ptr_nonnull(end);
    /* one group per bar with its two ends' TCO, in the tornado's order,
     * each with two rects (low end, high end) */
    const char *g1 = strstr(svg, "data-assumption=\"resale\" data-tco-low=\"1250000000\" "
                                 "data-tco-high=\"950000000\" data-flips=\"false\"");
    const char *g2 = strstr(svg, "data-assumption=\"utilization\" data-tco-low=\"1000000000\" "
                                 "data-tco-high=\"1000000000\" data-flips=\"true\"");
    ck_assert(g1 && g2 && g1 < g2 && g2 < end);
    int rects = 0;
    for (const char *q = strstr(g1, "<rect"); q && q < end; q = strstr(q + 1, "<rect"))
        rects++;
    ck_assert_int_eq(rects, 4);
    ck_assert_ptr_nonnull(strstr(g2, "flips: utilisation &lt; 56 %"));
    /* the tables */
    const char *mc = strstr(sec, "<table id=\"monte-carlo\">");
    ck_assert_ptr_nonnull(mc);
    ck_assert_ptr_nonnull(strstr(mc, "<td class=\"n\">$1.08B</td>"));
    const char *tt = strstr(sec, "<table id=\"tornado\">");
    ck_assert_ptr_nonnull(tt);
    int rows = 0;
    for (const char *q = strstr(tt, "<tr>"); q && q < strstr(tt, "</table>");
         q = strstr(q + 1, "<tr>"))
        rows++;
    ck_assert_int_eq(rows, 3); /* header + two assumptions */
    free(h);
    h = render_ranges(EXPORT_HTML, NULL, NULL);
    ck_assert_ptr_null(strstr(h, "chart-tornado"));
    free(h);
    free(s);
}
END_TEST

START_TEST(ranges_in_json_are_the_eval_keys)
{
    SensResult *s = malloc(sizeof *s);
    McResult m;
    ranges_fixture(s, &m);
    char *t = render_ranges(EXPORT_JSON, s, &m);
    json_error_t err;
    json_t *o = json_loads(t, 0, &err);
    ck_assert_msg(o != NULL, "%s", err.text);
    json_t *sens = json_object_get(o, "sensitivity");
    ck_assert_ptr_nonnull(sens);
    json_t *bars = json_object_get(sens, "tornado");
    ck_assert_int_eq((int)json_array_size(bars), 2);
    json_t *u = json_array_get(bars, 1);
    ck_assert_str_eq(json_string_value(json_object_get(u, "assumption")), "utilization");
    ck_assert_double_eq(json_number_value(json_object_get(u, "flip_value")), 0.7);
    ck_assert_str_eq(json_string_value(json_object_get(sens, "sentence")),
                     "cloud wins if utilisation < 56 %");
    json_t *mc = json_object_get(o, "monte_carlo");
    ck_assert_int_eq((int)json_integer_value(json_object_get(mc, "samples")), 100);
    ck_assert_double_eq(json_number_value(json_object_get(json_object_get(mc, "tco_usd"), "p50")),
                        1.08e9);
    json_decref(o);
    free(t);
    /* the other formats ignore them */
    ck_assert(!export_ranges_supported(EXPORT_CSV) && !export_ranges_supported(EXPORT_KUEUE));
    t = render_ranges(EXPORT_CSV, s, &m);
    char *plain = render(EXPORT_CSV);
    ck_assert_str_eq(t, plain);
    free(t);
    free(plain);
    free(s);
}
END_TEST

START_TEST(strbuf_escapes_and_names)
{
    StrBuf b;
    sb_init(&b);
    sb_k8s_name(&b, "--Ünïcode Team__42--");
    sb_puts(&b, "|");
    sb_k8s_name(&b, "***");
    sb_puts(&b, "|");
    sb_csv(&b, "=SUM(A1)");
    sb_puts(&b, "|");
    sb_yaml(&b, "a\"b\\c\nd");
    char *s = sb_finish(&b);
    ck_assert_str_eq(s, "n-code-team-42|x|'=SUM(A1)|\"a\\\"b\\\\c\\nd\"");
    free(s);
    sb_init(&b); /* nothing written: the empty string */
    s = sb_finish(&b);
    ck_assert_str_eq(s, "");
    free(s);
    /* the formula guard: quoted cells, "-2+3", TAB and CR too; numbers pass */
    const char *in[] = {"=1+2,\"x\"", "-2+3", "-2", "+1.5e3", "\tcmd", "@SUM(A1)", "\r=1", "-"};
    const char *want[] = {"\"'=1+2,\"\"x\"\"\"", "'-2+3", "-2", "+1.5e3", "'\tcmd", "'@SUM(A1)",
                          "\"'\r=1\"", "'-"};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        sb_init(&b);
        sb_csv(&b, in[i]);
        s = sb_finish(&b);
        ck_assert_str_eq(s, want[i]);
        free(s);
    }
}
END_TEST

START_TEST(format_names_round_trip)
{
    for (int f = 0; f < EXPORT_COUNT; f++)
        ck_assert_int_eq(export_format_from_name(export_format_name((ExportFormat)f)), f);
    ck_assert_int_eq(export_format_from_name("MARKDOWN"), EXPORT_MD);
    ck_assert_int_eq(export_format_from_name("pdf"), -1);
}
END_TEST

/* ------------------------------------------------------------ writing files */

static char *scratch_dir(void)
{
    char tmpl[] = "/tmp/gpuplan-export-XXXXXX";
    char *d = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(d);
    return strdup(d);
}

/* Number of entries in dir other than . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

START_TEST(writing_over_a_file_replaces_it_and_keeps_its_mode)
{
    char *dir = scratch_dir(), path[512], buf[64], err[256];
    snprintf(path, sizeof path, "%s/out.md", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("old", f);
    fclose(f);
    ck_assert_int_eq(chmod(path, 0600), 0);
    ck_assert_int_eq(export_write_file(path, "new", err, sizeof err), 0);
    slurp(path, buf, sizeof buf);
    ck_assert_str_eq(buf, "new");
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(entries(dir), 1); /* no temp file left */
    unlink(path);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(writing_into_a_missing_directory_fails_and_leaves_nothing)
{
    char *dir = scratch_dir(), path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/missing/out.md", dir);
    ck_assert_int_eq(export_write_file(path, "x", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, path));
    ck_assert_int_eq(entries(dir), 0);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(writing_onto_a_directory_fails_and_leaves_no_temp_file)
{
    char *dir = scratch_dir(), path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/sub", dir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    ck_assert_int_eq(export_write_file(path, "x", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "directory"));
    ck_assert_int_eq(entries(dir), 1);
    rmdir(path);
    rmdir(dir);
    free(dir);
}
END_TEST

/* `-o /dev/stdout` or a named pipe: the data goes into the node; renaming a
 * temp file over it would have replaced the pipe (or, as root, a device). */
START_TEST(writing_to_a_pipe_writes_into_it_instead_of_replacing_it)
{
    char *dir = scratch_dir(), path[512], err[256] = "", buf[64] = "";
    snprintf(path, sizeof path, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    int rd = open(path, O_RDONLY | O_NONBLOCK); /* a reader, so the writer's open does not block */
    ck_assert_int_ge(rd, 0);
    ck_assert_int_eq(export_write_file(path, "through the pipe", err, sizeof err), 0);
    ssize_t n = read(rd, buf, sizeof buf - 1);
    ck_assert_int_eq(n, 16);
    ck_assert_str_eq(buf, "through the pipe");
    close(rd);
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    ck_assert_int_eq(entries(dir), 1);
    unlink(path);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(writing_through_a_symlink_replaces_the_target_and_keeps_the_link)
{
    char *dir = scratch_dir(), target[512], link[512], err[256] = "", buf[64];
    snprintf(target, sizeof target, "%s/real.md", dir);
    snprintf(link, sizeof link, "%s/link.md", dir);
    FILE *f = fopen(target, "w");
    ck_assert_ptr_nonnull(f);
    fputs("old", f);
    fclose(f);
    ck_assert_int_eq(symlink("real.md", link), 0);
    ck_assert_int_eq(export_write_file(link, "new", err, sizeof err), 0);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    slurp(target, buf, sizeof buf);
    ck_assert_str_eq(buf, "new");
    ck_assert_int_eq(entries(dir), 2);
    unlink(link);
    unlink(target);
    rmdir(dir);
    free(dir);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("export");
    TCase *t = tcase_create("export");
    tcase_add_loop_test(t, every_format_matches_its_golden_file, 0, EXPORT_COUNT);
    tcase_add_test(t, json_export_has_the_contract_keys);
    tcase_add_test(t, html_export_is_well_formed_and_every_chart_has_data);
    tcase_add_test(t, kueue_manifests_are_yaml_with_the_plan_quotas);
    tcase_add_test(t, kueue_flavour_selects_the_platforms_own_node_label);
    tcase_add_test(t, volcano_queues_are_yaml_with_weight_capability_and_guarantee);
    tcase_add_test(t, volcano_weights_are_scaled_into_the_crd_range);
    tcase_add_test(t, slurm_bundle_has_nodes_partitions_limits_and_accounts);
    tcase_add_test(t, team_names_that_collide_are_disambiguated_with_a_note);
    tcase_add_test(t, poisson_quantiles_are_exact);
    tcase_add_test(t, html_element_ids_are_unique_with_more_than_ten_cost_options);
    tcase_add_test(t, markdown_and_csv_escape_special_characters);
    tcase_add_test(t, strbuf_escapes_and_names);
    tcase_add_test(t, ranges_section_in_markdown);
    tcase_add_test(t, ranges_section_in_html_draws_the_tornado);
    tcase_add_test(t, ranges_in_json_are_the_eval_keys);
    tcase_add_test(t, format_names_round_trip);
    suite_add_tcase(s, t);
    TCase *w = tcase_create("writing files");
    tcase_add_test(w, writing_over_a_file_replaces_it_and_keeps_its_mode);
    tcase_add_test(w, writing_into_a_missing_directory_fails_and_leaves_nothing);
    tcase_add_test(w, writing_onto_a_directory_fails_and_leaves_no_temp_file);
    tcase_add_test(w, writing_to_a_pipe_writes_into_it_instead_of_replacing_it);
    tcase_add_test(w, writing_through_a_symlink_replaces_the_target_and_keeps_the_link);
    suite_add_tcase(s, w);
    return s;
}
