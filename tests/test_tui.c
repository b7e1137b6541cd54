/* tests/test_tui.c — the dashboard's non-drawing parts: theme files and
 * style strings, the key table, the plan field table (parse / format /
 * cycle on a Plan), undo/redo and the line input.  The screens themselves
 * are tested by the screen tests in tests/tui/ in a real terminal. */
#include "config.h"

#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yaml.h>

#include "catalog_yaml.h"
#include "check_main.h"
#include "evaluate.h"
#include "fields.h"
#include "sensitivity.h"
#include "tui/headlines.h"
#include "tui/keys.h"
#include "tui/theme.h"
#include "tui/undo.h"
#include "tui/units.h"
#include "tui/widgets.h"
#include "yaml_plan.h"

static const char *themes_dir(void)
{
    const char *d = getenv("GPUPLAN_THEMES");
    return d && *d ? d : GPUPLAN_SRCDIR "/themes";
}

static const char *data_dir(void)
{
    const char *d = getenv("GPUPLAN_DATADIR");
    return d && *d ? d : GPUPLAN_SRCDIR "/data";
}

/* ---- themes */

START_TEST(style_strings_parse_like_tmux)
{
    Style st = {-1, -1, 0};
    char why[200];
    ck_assert_int_eq(theme_parse_style("fg=black,bg=colour234,bold,underline", &st, why, sizeof why), 0);
    ck_assert_int_eq(st.fg, 0);
    ck_assert_int_eq(st.bg, 234);
    ck_assert_uint_eq(st.attrs, THEME_ATTR_BOLD | THEME_ATTR_UNDERLINE);
    ck_assert_int_eq(theme_parse_style("nobold, fg=brightred ,bg=default", &st, why, sizeof why), 0);
    ck_assert_int_eq(st.fg, 9);
    ck_assert_int_eq(st.bg, -1);
    ck_assert_uint_eq(st.attrs, THEME_ATTR_UNDERLINE);
    /* #rrggbb maps onto the xterm 6x6x6 cube: #ff0000 = 16 + 36*5 */
    ck_assert_int_eq(theme_parse_style("fg=#ff0000", &st, why, sizeof why), 0);
    ck_assert_int_eq(st.fg, 196);
}
END_TEST

START_TEST(style_rejects_unknown_colour_and_attribute)
{
    Style st = {-1, -1, 0};
    char why[200] = "";
    ck_assert_int_eq(theme_parse_style("fg=mauve", &st, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "mauve"));
    ck_assert_int_eq(theme_parse_style("fg=colour256", &st, why, sizeof why), -1);
    ck_assert_int_eq(theme_parse_style("sparkly", &st, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "sparkly"));
}
END_TEST

START_TEST(every_shipped_theme_loads)
{
    static const char *const names[] = {"default", "dark", "light", "high-contrast", "mono"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        Theme t;
        char cause[600] = "";
        ck_assert_msg(theme_load(themes_dir(), names[i], &t, cause, sizeof cause) == 0, "%s: %s",
                      names[i], cause);
        ck_assert_str_eq(t.name, names[i]);
    }
    char list[16][64];
    int n = theme_list(themes_dir(), list, 16);
    ck_assert_int_ge(n, 5);
    for (int i = 1; i < n; i++)
        ck_assert_int_lt(strcmp(list[i - 1], list[i]), 0);
}
END_TEST

START_TEST(mono_theme_has_no_colours)
{
    Theme t;
    char cause[600];
    ck_assert_int_eq(theme_load(themes_dir(), "mono", &t, cause, sizeof cause), 0);
    for (int r = 0; r < ROLE_COUNT; r++) {
        ck_assert_int_eq(t.roles[r].fg, -1);
        ck_assert_int_eq(t.roles[r].bg, -1);
    }
    /* the selection stays visible without colour */
    ck_assert(t.roles[ROLE_SELECTION].attrs & THEME_ATTR_REVERSE);
}
END_TEST

START_TEST(bad_theme_file_names_file_line_column)
{
    char dir[] = "/tmp/gpuplan-theme-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/broken.yaml", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("name: broken\nroles:\n  header: \"bold\"\n  hedaer: \"bold\"\n", f);
    fclose(f);
    Theme t;
    char cause[600] = "";
    ck_assert_int_eq(theme_load(dir, "broken", &t, cause, sizeof cause), -1);
    ck_assert_msg(strstr(cause, "broken.yaml:4:3:") && strstr(cause, "hedaer"), "%s", cause);
    /* on failure the built-in default is in place */
    Theme def;
    theme_builtin(&def);
    ck_assert_int_eq(memcmp(t.roles, def.roles, sizeof def.roles), 0);
    ck_assert_int_eq(theme_load(dir, "../etc", &t, cause, sizeof cause), -1);
    /* nesting is bounded as in plans: a million levels stop at the 33rd */
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("name: broken\nroles: ", f);
    for (int i = 0; i < 1000000; i++)
        fputc('[', f);
    fclose(f);
    ck_assert_int_eq(theme_load(dir, "broken", &t, cause, sizeof cause), -1);
    ck_assert_msg(strstr(cause, "broken.yaml:2:39: nested more than 32 levels deep"), "%s", cause);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* ---- key table */

START_TEST(every_action_has_a_name_and_help)
{
    size_t n;
    const KeyBinding *t = keys_table(&n);
    ck_assert_uint_gt(n, 20);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_ne(keys_action_name(t[i].action), "?");
        if (!(t[i].flags & KEYF_HIDDEN))
            ck_assert_msg(t[i].help[0], "binding %s has no help", t[i].label);
        if (t[i].flags & KEYF_FOOTER)
            ck_assert_msg(t[i].short_help[0], "footer binding %s has no short help", t[i].label);
    }
}
END_TEST

START_TEST(no_key_is_bound_twice_in_one_context)
{
    size_t n;
    const KeyBinding *t = keys_table(&n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (t[i].key != t[j].key || t[i].action == t[j].action)
                continue;
            bool gi = t[i].ctx == CTX_ALL, gj = t[j].ctx == CTX_ALL;
            /* a specific binding may shadow a global one; two specific
             * bindings of one key must not share a context */
            if (!gi && !gj)
                ck_assert_msg((t[i].ctx & t[j].ctx) == 0, "key %s bound to %s and %s in one context",
                              t[i].label, keys_action_name(t[i].action), keys_action_name(t[j].action));
        }
}
END_TEST

START_TEST(context_bindings_win_over_global_ones)
{
    ck_assert_int_eq(keys_lookup('q', CTX_LIST), ACT_QUIT);
    ck_assert_int_eq(keys_lookup('q', CTX_PLANS), ACT_CLOSE);
    ck_assert_int_eq(keys_lookup('n', CTX_PLANS), ACT_NEW);
    ck_assert_int_eq(keys_lookup('n', CTX_PANE), ACT_FIND_NEXT);
    ck_assert_int_eq(keys_lookup('\r', CTX_PLANS), ACT_ENTER);
    ck_assert_int_eq(keys_lookup('p', CTX_PANE | CTX_SCHEDULE), ACT_POLICY);
    ck_assert_int_eq(keys_lookup('p', CTX_FORM), ACT_PICK);
    ck_assert_int_eq(keys_lookup('p', CTX_PANE), ACT_NONE);
    ck_assert_int_eq(keys_lookup('j', CTX_COMPARE), ACT_DOWN);
    ck_assert_int_eq(keys_lookup('Z', CTX_LIST), ACT_NONE);
}
END_TEST

START_TEST(footer_lists_the_pane_keys_first)
{
    const KeyBinding *b[40];
    int n = keys_footer(CTX_LIST, b, 40);
    ck_assert_int_ge(n, 6);
    ck_assert_int_eq(b[0]->action, ACT_ADD);
    ck_assert_int_eq(b[1]->action, ACT_DELETE);
    ck_assert_int_eq(b[2]->action, ACT_CLONE);
    bool help = false;
    for (int i = 0; i < n; i++) {
        ck_assert(b[i]->ctx & CTX_LIST);
        help |= b[i]->action == ACT_HELP;
    }
    ck_assert(help);
}
END_TEST

/* ---- field table */

static Catalog cat;
static bool cat_ok;

static void load_catalog(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/catalog", data_dir());
    Diag d;
    cat_ok = catalog_load(&cat, dir, NULL, &d) == 0;
}

static void unload_catalog(void)
{
    catalog_free(&cat);
}

static Plan *demo_plan(void)
{
    Plan *p = malloc(sizeof *p);
    ck_assert_ptr_nonnull(p);
    plan_init(p);
    snprintf(p->name, sizeof p->name, "t");
    workload_init(&p->workloads[0], WL_TRAINING);
    snprintf(p->workloads[0].name, sizeof p->workloads[0].name, "train");
    workload_init(&p->workloads[1], WL_INFERENCE);
    snprintf(p->workloads[1].name, sizeof p->workloads[1].name, "serve");
    snprintf(p->workloads[1].team, sizeof p->workloads[1].team, "research");
    p->n_workloads = 2;
    team_init(&p->tenancy.teams[0]);
    snprintf(p->tenancy.teams[0].name, sizeof p->tenancy.teams[0].name, "research");
    jobclass_init(&p->tenancy.teams[0].jobs[0]);
    p->tenancy.teams[0].n_jobs = 1;
    p->tenancy.n_teams = 1;
    return p;
}

static const FieldTarget T_TRAIN = {FS_WORKLOAD, 0, 0, 0};
static const FieldTarget T_SERVE = {FS_WORKLOAD, 1, 0, 0};
static const FieldTarget T_TEAM = {FS_TEAM, 0, 0, 0};
static const FieldTarget T_JOB = {FS_JOB, 0, 0, 0};

static void set_ok(Plan *p, FieldTarget sel, const char *key, const char *text)
{
    FieldTarget t;
    const FieldDef *f = fields_find(p, sel, key, &t);
    ck_assert_msg(f != NULL, "no field %s", key);
    char err[300] = "";
    ck_assert_msg(field_set(f, p, t, text, cat_ok ? &cat : NULL, err, sizeof err) == 0, "%s = %s: %s",
                  key, text, err);
}

static const char *shown(const Plan *p, FieldTarget sel, const char *key)
{
    static char buf[PLAN_TEXT_LEN];
    FieldTarget t;
    const FieldDef *f = fields_find(p, sel, key, &t);
    ck_assert_ptr_nonnull(f);
    return field_format(f, p, t, buf, sizeof buf);
}

START_TEST(quantity_syntax_lands_in_si_fields)
{
    Plan *p = demo_plan();
    set_ok(p, T_TRAIN, "tokens", "15.6T");
    ck_assert_double_eq(p->workloads[0].tokens, 15.6e12);
    set_ok(p, T_TRAIN, "target_days", "2w");
    ck_assert_double_eq_tol(p->workloads[0].target_days, 14, 1e-12);
    set_ok(p, T_TRAIN, "target_days", "45");          /* bare number: the key's unit */
    ck_assert_double_eq_tol(p->workloads[0].target_days, 45, 1e-12);
    set_ok(p, T_SERVE, "ttft_ms", "250");             /* bare ms */
    ck_assert_double_eq_tol(p->workloads[1].ttft_s, 0.25, 1e-12);
    set_ok(p, T_SERVE, "ttft_ms", "2s");
    ck_assert_double_eq_tol(p->workloads[1].ttft_s, 2, 1e-12);
    set_ok(p, T_TRAIN, "storage.dataset", "2PB");
    ck_assert_double_eq(p->storage.dataset_bytes, 2e15);
    set_ok(p, T_TRAIN, "link", "400Gb/s");
    ck_assert_double_eq(p->network.link_bps, 400e9);
    set_ok(p, T_TRAIN, "headroom", "15%");
    ck_assert_double_eq_tol(p->site.headroom, 0.15, 1e-12);
    set_ok(p, T_TRAIN, "tenancy.mtbf_gpu", "50000");  /* stored in hours */
    ck_assert_double_eq_tol(p->tenancy.mtbf_gpu_h, 50000, 1e-9);
    set_ok(p, T_JOB, "hours", "90m");
    ck_assert_double_eq_tol(p->tenancy.teams[0].jobs[0].hours, 1.5, 1e-12);
    set_ok(p, T_TRAIN, "tenancy.wait_p95", "1d");
    ck_assert_double_eq_tol(p->tenancy.wait_p95_s, 86400, 1e-9);
    ck_assert_str_eq(shown(p, T_TRAIN, "tenancy.wait_p95"), "24");
    set_ok(p, T_TRAIN, "seq_len", "8k");
    ck_assert_int_eq(p->workloads[0].seq_len, 8000);
    free(p);
}
END_TEST

START_TEST(invalid_text_leaves_the_plan_unchanged)
{
    Plan *p = demo_plan();
    Plan *before = malloc(sizeof *before);
    *before = *p;
    FieldTarget t;
    char err[300];
    const FieldDef *f = fields_find(p, T_TRAIN, "tokens", &t);
    ck_assert_int_eq(field_set(f, p, t, "lots", NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "lots"));
    f = fields_find(p, T_TRAIN, "seq_len", &t);
    ck_assert_int_eq(field_set(f, p, t, "1.5", NULL, err, sizeof err), -1);
    f = fields_find(p, T_TRAIN, "policy", &t);
    ck_assert_int_eq(field_set(f, p, t, "lottery", NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "fair-share"));
    f = fields_find(p, T_TRAIN, "name", &t);
    ck_assert_int_eq(field_set(f, p, t, "  ", NULL, err, sizeof err), -1);
    ck_assert_int_eq(memcmp(p, before, sizeof *p), 0);
    free(before);
    free(p);
}
END_TEST

START_TEST(auto_and_unlimited_are_sentinels)
{
    Plan *p = demo_plan();
    set_ok(p, T_TRAIN, "gpus", "4096");
    ck_assert_int_eq(p->workloads[0].gpus, 4096);
    ck_assert_str_eq(shown(p, T_TRAIN, "gpus"), "4096");
    set_ok(p, T_TRAIN, "target_days", "30");
    ck_assert_int_eq(p->workloads[0].gpus, 0);
    ck_assert_str_eq(shown(p, T_TRAIN, "gpus"), "auto");
    set_ok(p, T_TRAIN, "recompute", "auto");
    ck_assert_int_eq(p->workloads[0].recompute, RECOMPUTE_AUTO);
    set_ok(p, T_TEAM, "borrow_gpus", "unlimited");
    ck_assert_int_eq(p->tenancy.teams[0].borrow_gpus, -1);
    /* zero: 0 is a stage (DDP), so auto is -1 (the framework's) */
    set_ok(p, T_TRAIN, "zero", "0");
    ck_assert_int_eq(p->workloads[0].zero, 0);
    ck_assert_str_eq(shown(p, T_TRAIN, "zero"), "0");
    set_ok(p, T_TRAIN, "zero", "auto");
    ck_assert_int_eq(p->workloads[0].zero, -1);
    ck_assert_str_eq(shown(p, T_TRAIN, "zero"), "auto");
    set_ok(p, T_TRAIN, "parallel.sp", "off");
    ck_assert_int_eq(p->workloads[0].parallel.sp, 0);
    ck_assert_str_eq(shown(p, T_TRAIN, "parallel.sp"), "off");
    free(p);
}
END_TEST

START_TEST(setting_gpus_clears_target_days_and_the_reverse)
{
    Plan *p = demo_plan();
    FieldTarget t;
    const FieldDef *g = fields_find(p, T_TRAIN, "gpus", &t);
    const FieldDef *d = fields_find(p, T_TRAIN, "target_days", &t);
    p->workloads[0].gpus = 0;
    p->workloads[0].target_days = 90;
    char note[300], err[300];
    ck_assert_int_eq(field_edit(g, p, T_TRAIN, "8192", NULL, note, sizeof note, err, sizeof err), 0);
    ck_assert_int_eq(p->workloads[0].gpus, 8192);
    ck_assert_double_eq(p->workloads[0].target_days, 0);
    ck_assert_msg(strstr(note, "target_days cleared"), "%s", note);
    ck_assert_int_eq(field_edit(d, p, T_TRAIN, "1", NULL, note, sizeof note, err, sizeof err), 0);
    ck_assert_int_eq(p->workloads[0].gpus, 0);
    ck_assert_double_eq(p->workloads[0].target_days, 1);
    ck_assert_msg(strstr(note, "gpus now auto"), "%s", note);
    /* neither left: refused with the way out, the plan unchanged */
    ck_assert_int_eq(field_edit(g, p, T_TRAIN, "auto", NULL, note, sizeof note, err, sizeof err), 0);
    ck_assert_int_eq(field_edit(d, p, T_TRAIN, "0", NULL, note, sizeof note, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "set gpus instead"), "%s", err);
    ck_assert_double_eq(p->workloads[0].target_days, 1);
    /* an edit that implies nothing says nothing */
    ck_assert_int_eq(field_edit(d, p, T_TRAIN, "2", NULL, note, sizeof note, err, sizeof err), 0);
    ck_assert_str_eq(note, "");
    free(p);
}
END_TEST

START_TEST(a_new_accelerator_moves_mig_jobs_to_its_nearest_profile)
{
    ck_assert_msg(cat_ok, "catalog did not load from %s/catalog", data_dir());
    Plan *p = demo_plan();
    JobClass *j = &p->tenancy.teams[0].jobs[0];
    snprintf(j->name, sizeof j->name, "notebooks");
    snprintf(j->mig, sizeof j->mig, "3g.40gb");
    FieldTarget t;
    const FieldDef *f = fields_find(p, T_TRAIN, "accelerator", &t);
    char note[400], err[300];
    ck_assert_int_eq(field_edit(f, p, t, "H200", &cat, note, sizeof note, err, sizeof err), 0);
    ck_assert_str_eq(j->mig, "3g.71gb");
    ck_assert_msg(strstr(note, "research/notebooks 3g.40gb → 3g.71gb"), "%s", note);
    ck_assert_int_eq(field_edit(f, p, t, "B200", &cat, note, sizeof note, err, sizeof err), 0);
    ck_assert_str_eq(j->mig, "3g.90gb");
    /* no MIG on the part: the same share of one GPU, the larger of 3 of 7
     * compute slices and 90 GB of MI300X's 192 GB, rounded up */
    ck_assert_int_eq(field_edit(f, p, t, "MI300X", &cat, note, sizeof note, err, sizeof err), 0);
    ck_assert_str_eq(j->mig, "");
    ck_assert_double_eq_tol(j->gpus, 0.469, 1e-9);
    ck_assert_msg(strstr(note, "MI300X has no MIG"), "%s", note);
    free(p);
}
END_TEST

START_TEST(nearest_mig_profile_has_at_least_the_slices_and_memory)
{
    ck_assert_msg(cat_ok, "catalog did not load from %s/catalog", data_dir());
    const Accelerator *a100 = catalog_find_accelerator(&cat, "A100-40GB");
    const Accelerator *h100 = catalog_find_accelerator(&cat, "H100-SXM");
    ck_assert_ptr_nonnull(a100);
    ck_assert_ptr_nonnull(h100);
    /* 1g.10gb of an H100 needs 10 GB: on an A100-40GB that is 1g.10gb too */
    const MigProfile *m = accelerator_nearest_mig(a100, accelerator_find_mig(h100, "1g.10gb"));
    ck_assert_str_eq(m->name, "1g.10gb");
    /* 3g.40gb needs 40 GB: the A100-40GB's only one is 7g.40gb */
    m = accelerator_nearest_mig(a100, accelerator_find_mig(h100, "3g.40gb"));
    ck_assert_str_eq(m->name, "7g.40gb");
    /* a +me profile maps to a +me profile */
    m = accelerator_nearest_mig(a100, accelerator_find_mig(h100, "1g.10gb+me"));
    ck_assert_str_eq(m->name, "1g.5gb+me");
}
END_TEST

START_TEST(set_names_a_workload_or_team_before_the_key)
{
    Plan *p = demo_plan();
    FieldTarget t;
    /* the selection is the training run; the key names the service */
    const FieldDef *f = fields_find(p, T_TRAIN, "serve.requests_per_s", &t);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(t.scope, FS_WORKLOAD);
    ck_assert_int_eq(t.wl, 1);
    f = fields_find(p, T_TRAIN, "research.quota_gpus", &t);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(t.scope, FS_TEAM);
    ck_assert_ptr_null(fields_find(p, T_TRAIN, "nobody.requests_per_s", &t));
    /* a training key on the service is not there */
    ck_assert_ptr_null(fields_find(p, T_TRAIN, "serve.tokens", &t));
    free(p);
}
END_TEST

START_TEST(choices_cycle_and_wrap)
{
    Plan *p = demo_plan();
    FieldTarget t;
    const FieldDef *f = fields_find(p, T_TRAIN, "tenancy.policy", &t);
    ck_assert(field_is_choice(f));
    p->tenancy.policy = POLICY_FIFO;
    ck_assert_int_eq(field_cycle(f, p, t, 1, NULL), 0);
    ck_assert_int_eq(p->tenancy.policy, POLICY_FAIR_SHARE);
    ck_assert_int_eq(field_cycle(f, p, t, 1, NULL), 0);
    ck_assert_int_eq(field_cycle(f, p, t, 1, NULL), 0);
    ck_assert_int_eq(p->tenancy.policy, POLICY_FIFO);
    ck_assert_int_eq(field_cycle(f, p, t, -1, NULL), 0);
    ck_assert_int_eq(p->tenancy.policy, POLICY_PRIORITY);
    f = fields_find(p, T_TRAIN, "backfill", &t);
    bool was = p->tenancy.backfill;
    ck_assert_int_eq(field_cycle(f, p, t, 1, NULL), 0);
    ck_assert(p->tenancy.backfill != was);
    f = fields_find(p, T_TRAIN, "tokens", &t);
    ck_assert(!field_is_choice(f));
    ck_assert_int_eq(field_cycle(f, p, t, 1, NULL), -1);
    free(p);
}
END_TEST

START_TEST(fields_follow_the_workload_kind)
{
    Plan *p = demo_plan();
    const FieldDef *defs[128];
    int n = fields_for(p, T_TRAIN, defs, 128);
    bool has_tokens = false, has_ttft = false;
    for (int i = 0; i < n; i++) {
        has_tokens |= strcmp(defs[i]->key, "tokens") == 0;
        has_ttft |= strcmp(defs[i]->key, "ttft_ms") == 0;
    }
    ck_assert(has_tokens && !has_ttft);
    n = fields_for(p, T_SERVE, defs, 128);
    has_tokens = has_ttft = false;
    for (int i = 0; i < n; i++) {
        has_tokens |= strcmp(defs[i]->key, "tokens") == 0;
        has_ttft |= strcmp(defs[i]->key, "ttft_ms") == 0;
    }
    ck_assert(!has_tokens && has_ttft);
    /* plan-level keys win for unqualified names; sections are qualified */
    FieldTarget t;
    const FieldDef *f = fields_find(p, T_TRAIN, "accelerator", &t);
    ck_assert_int_eq(f->scope, FS_PLAN);
    f = fields_find(p, T_TRAIN, "tenancy.gpus", &t);
    ck_assert_int_eq(t.scope, FS_TENANCY);
    f = fields_find(p, T_TRAIN, "gpus", &t);
    ck_assert_int_eq(t.scope, FS_WORKLOAD);
    ck_assert_ptr_null(fields_find(p, T_TRAIN, "no_such_field", &t));
    const char *keys[256];
    ck_assert_int_gt(fields_keys(p, T_TRAIN, keys, 256), 40);
    free(p);
}
END_TEST

START_TEST(renaming_a_team_keeps_its_workloads)
{
    Plan *p = demo_plan();
    /* the form edits the team's own field (":set name" is the plan's) */
    const FieldDef *defs[32];
    int n = fields_for(p, T_TEAM, defs, 32);
    ck_assert_int_gt(n, 0);
    ck_assert_str_eq(defs[0]->key, "name");
    char err[300];
    ck_assert_int_eq(field_set(defs[0], p, T_TEAM, "science", NULL, err, sizeof err), 0);
    ck_assert_str_eq(p->tenancy.teams[0].name, "science");
    ck_assert_str_eq(p->workloads[1].team, "science");
    free(p);
}
END_TEST

START_TEST(a_preset_fills_the_shape_and_an_edit_drops_it)
{
    Plan *p = demo_plan();
    set_ok(p, T_TRAIN, "model.preset", "llama-3-70b");
    ck_assert_str_eq(p->workloads[0].model.preset, "llama-3-70b");
    ck_assert_int_eq(p->workloads[0].model.layers, 80);
    ck_assert_int_eq(p->workloads[0].model.hidden, 8192);
    set_ok(p, T_TRAIN, "model.layers", "96");
    ck_assert_int_eq(p->workloads[0].model.layers, 96);
    ck_assert_str_eq(p->workloads[0].model.preset, "");
    FieldTarget t;
    char err[300];
    const FieldDef *f = fields_find(p, T_TRAIN, "model.preset", &t);
    ck_assert_int_eq(field_set(f, p, t, "llama-3-70", NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "did you mean"), "%s", err);
    free(p);
}
END_TEST

/* Editing a hybrid pattern in the dashboard sets layers to its length, so
 * the plan stays valid; a symbol the model does not price is refused by
 * the live validation with the parser's message. */
START_TEST(a_hybrid_pattern_edit_sets_the_layers)
{
    Plan *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    plan_init(p);
    snprintf(p->name, sizeof p->name, "hybrid");
    p->n_workloads = 1;
    workload_init(&p->workloads[0], WL_TRAINING);
    snprintf(p->workloads[0].name, sizeof p->workloads[0].name, "train");
    p->workloads[0].tokens = 1e12;
    p->workloads[0].target_days = 30;
    set_ok(p, T_TRAIN, "model.preset", "nemotron-3-nano");
    ck_assert_int_eq(p->workloads[0].model.layers, 52);
    set_ok(p, T_TRAIN, "model.hybrid", "MEM*EMEM*E");
    ck_assert_int_eq(p->workloads[0].model.layers, 10);
    ck_assert_str_eq(p->workloads[0].model.preset, "");
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_msg(plan_validate(p, cat_ok ? &cat : NULL, &d) == 0, "%s", d.msg);
    set_ok(p, T_TRAIN, "model.hybrid", "MGM*E");
    ck_assert_int_eq(plan_validate(p, cat_ok ? &cat : NULL, &d), -1);
    ck_assert_msg(strstr(d.msg, "gated DeltaNet"), "%s", d.msg);
    free(p);
}
END_TEST

START_TEST(accelerators_come_from_the_catalog)
{
    ck_assert_msg(cat_ok, "catalog did not load from %s/catalog", data_dir());
    Plan *p = demo_plan();
    set_ok(p, T_TRAIN, "accelerator", "h200");
    ck_assert_str_eq(p->accelerator, "H200");
    FieldTarget t;
    char err[300];
    const FieldDef *f = fields_find(p, T_TRAIN, "accelerator", &t);
    ck_assert_int_eq(field_set(f, p, t, "H201", &cat, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "H201") && strstr(err, "did you mean"), "%s", err);
    /* a workload's own accelerator may be reset to the plan's */
    f = fields_find(p, T_SERVE, "accelerator", &t);
    ck_assert_int_eq(t.scope, FS_PLAN); /* plan-level key wins … */
    const FieldDef *defs[128];
    int n = fields_for(p, T_SERVE, defs, 128);
    const FieldDef *own = NULL;
    for (int i = 0; i < n; i++)
        if (strcmp(defs[i]->key, "accelerator") == 0)
            own = defs[i];
    ck_assert_ptr_nonnull(own); /* … but the form has the workload's own */
    ck_assert_int_eq(field_set(own, p, T_SERVE, "B200", &cat, err, sizeof err), 0);
    ck_assert_str_eq(p->workloads[1].accelerator, "B200");
    ck_assert_int_eq(field_set(own, p, T_SERVE, "(plan)", &cat, err, sizeof err), 0);
    ck_assert_str_eq(p->workloads[1].accelerator, "");
    const char *ch[128];
    int k = field_choices(own, p, &cat, ch, 128);
    ck_assert_int_eq(k, (int)cat.n_accelerators + 1);
    ck_assert_str_eq(ch[0], "(plan)");
    free(p);
}
END_TEST

/* Training frameworks and serving engines are catalog choices too: the
 * pick list is the catalog's profiles (not its per-accelerator
 * calibrations), unset shows the default, cycling starts from it, and a
 * typo names the nearest profile. */
START_TEST(frameworks_and_engines_come_from_the_catalog)
{
    ck_assert_msg(cat_ok, "catalog did not load from %s/catalog", data_dir());
    Plan *p = demo_plan();
    FieldTarget t;
    char err[300], buf[PLAN_TEXT_LEN];
    const FieldDef *f = fields_find(p, T_TRAIN, "framework", &t);
    ck_assert_ptr_nonnull(f);
    ck_assert(field_is_choice(f));
    const char *ch[128];
    int k = field_choices(f, p, &cat, ch, 128);
    int profiles = 0;
    for (size_t i = 0; i < cat.n_frameworks; i++)
        profiles += strchr(cat.frameworks[i].id, '@') == NULL;
    ck_assert_int_eq(k, profiles);
    for (int i = 0; i < k; i++)
        ck_assert_ptr_null(strchr(ch[i], '@'));
    ck_assert_str_eq(p->workloads[0].framework, "");
    ck_assert_str_eq(field_format(f, p, t, buf, sizeof buf), CATALOG_DEFAULT_FRAMEWORK " (default)");
    ck_assert(field_is_inherited(f, p, t));
    int at = field_choice_index(f, p, t, ch, k);
    ck_assert_int_ge(at, 0);
    ck_assert_str_eq(ch[at], CATALOG_DEFAULT_FRAMEWORK);
    ck_assert_int_eq(field_cycle(f, p, t, 1, &cat), 0);
    ck_assert_str_eq(p->workloads[0].framework, ch[(at + 1) % k]);
    ck_assert(!field_is_inherited(f, p, t));
    ck_assert_int_eq(field_set(f, p, t, "FSDP", &cat, err, sizeof err), 0);
    ck_assert_str_eq(p->workloads[0].framework, "fsdp");
    ck_assert_int_eq(field_set(f, p, t, "deepsped", &cat, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "training framework") && strstr(err, "did you mean deepspeed"), "%s", err);
    ck_assert_str_eq(p->workloads[0].framework, "fsdp");
    ck_assert_int_eq(field_set(f, p, t, "", &cat, err, sizeof err), 0);
    ck_assert_str_eq(p->workloads[0].framework, "");

    f = fields_find(p, T_SERVE, "engine", &t);
    ck_assert_ptr_nonnull(f);
    k = field_choices(f, p, &cat, ch, 128);
    ck_assert_int_eq(k, (int)cat.n_engines);
    ck_assert_str_eq(field_format(f, p, t, buf, sizeof buf), CATALOG_DEFAULT_ENGINE " (default)");
    ck_assert_int_eq(field_set(f, p, t, "vllm", &cat, err, sizeof err), 0);
    ck_assert_str_eq(field_format(f, p, t, buf, sizeof buf), "vllm");
    ck_assert_int_eq(field_set(f, p, t, "tensorrt", &cat, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "serving engine"), "%s", err);
    free(p);
}
END_TEST

/* Every key the canonical YAML writer emits must be editable in the form:
 * walk plan_to_yaml() of a plan with both workload kinds, a team and a job
 * class, and look each key up in the field table for its object. */
static const char *scalar(yaml_document_t *doc, int id)
{
    yaml_node_t *n = yaml_document_get_node(doc, id);
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : "";
}

static void check_keys(yaml_document_t *doc, yaml_node_t *map, const Plan *p, FieldTarget t,
                       const char *prefix, int *checked)
{
    static const char *const containers[] = {"format", "workloads", "site", "network", "storage",
                                             "tenancy", "teams", "jobs", "global_batch_tokens"};
    for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top; pr++) {
        const char *k = scalar(doc, pr->key);
        yaml_node_t *v = yaml_document_get_node(doc, pr->value);
        char key[128];
        snprintf(key, sizeof key, "%s%s", prefix, k);
        if (v->type == YAML_MAPPING_NODE && (!strcmp(k, "model") || !strcmp(k, "parallel"))) {
            char sub[64];
            snprintf(sub, sizeof sub, "%s.", k);
            check_keys(doc, v, p, t, sub, checked);
            continue;
        }
        bool container = false;
        for (size_t i = 0; i < sizeof containers / sizeof containers[0]; i++)
            container |= strcmp(k, containers[i]) == 0;
        if (container)
            continue;
        /* look the key up among the target's own fields */
        const FieldDef *defs[128];
        int n = fields_for(p, t, defs, 128);
        bool found = false;
        for (int i = 0; i < n && !found; i++)
            found = strcmp(defs[i]->key, key) == 0;
        ck_assert_msg(found, "plan key '%s' (scope %d) has no editable field", key, t.scope);
        (*checked)++;
    }
}

START_TEST(every_key_of_the_plan_file_is_editable)
{
    Plan *p = demo_plan();
    char *yaml = plan_to_yaml(p);
    ck_assert_ptr_nonnull(yaml);
    yaml_parser_t parser;
    yaml_document_t doc;
    ck_assert(yaml_parser_initialize(&parser));
    yaml_parser_set_input_string(&parser, (const unsigned char *)yaml, strlen(yaml));
    ck_assert(yaml_parser_load(&parser, &doc));
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    ck_assert_int_eq(root->type, YAML_MAPPING_NODE);
    int checked = 0;
    FieldTarget plan_t = {FS_PLAN, 0, 0, 0};
    check_keys(&doc, root, p, plan_t, "", &checked);
    for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
        const char *k = scalar(&doc, pr->key);
        yaml_node_t *v = yaml_document_get_node(&doc, pr->value);
        static const struct { const char *name; FieldScope s; } sections[] = {
            {"site", FS_SITE}, {"network", FS_NETWORK}, {"storage", FS_STORAGE}, {"tenancy", FS_TENANCY},
        };
        for (size_t i = 0; i < 4; i++)
            if (!strcmp(k, sections[i].name) && v->type == YAML_MAPPING_NODE) {
                FieldTarget t = {sections[i].s, 0, 0, 0};
                check_keys(&doc, v, p, t, "", &checked);
                if (sections[i].s != FS_TENANCY)
                    continue;
                for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
                    yaml_node_t *teams = yaml_document_get_node(&doc, q->value);
                    if (strcmp(scalar(&doc, q->key), "teams") || teams->type != YAML_SEQUENCE_NODE)
                        continue;
                    yaml_node_t *team = yaml_document_get_node(&doc, *teams->data.sequence.items.start);
                    check_keys(&doc, team, p, T_TEAM, "", &checked);
                    for (yaml_node_pair_t *j = team->data.mapping.pairs.start; j < team->data.mapping.pairs.top; j++) {
                        yaml_node_t *jobs = yaml_document_get_node(&doc, j->value);
                        if (strcmp(scalar(&doc, j->key), "jobs") || jobs->type != YAML_SEQUENCE_NODE)
                            continue;
                        check_keys(&doc, yaml_document_get_node(&doc, *jobs->data.sequence.items.start), p,
                                   T_JOB, "", &checked);
                    }
                }
            }
        if (!strcmp(k, "workloads") && v->type == YAML_SEQUENCE_NODE) {
            int i = 0;
            for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++, i++) {
                FieldTarget t = {FS_WORKLOAD, i, 0, 0};
                check_keys(&doc, yaml_document_get_node(&doc, *it), p, t, "", &checked);
            }
        }
    }
    ck_assert_int_gt(checked, 60);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    free(yaml);
    free(p);
}
END_TEST

/* ---- undo */

START_TEST(undo_and_redo_walk_the_history)
{
    Undo u;
    ck_assert_int_eq(undo_init(&u), 0);
    Plan *p = demo_plan();
    ck_assert(!undo_undo(&u, p));
    for (int i = 1; i <= 3; i++) {
        undo_push(&u, p);
        p->horizon_years = i;
    }
    ck_assert(undo_undo(&u, p));
    ck_assert_double_eq(p->horizon_years, 2);
    ck_assert(undo_undo(&u, p));
    ck_assert_double_eq(p->horizon_years, 1);
    ck_assert(undo_redo(&u, p));
    ck_assert_double_eq(p->horizon_years, 2);
    /* a new edit forgets the redo branch */
    undo_push(&u, p);
    p->horizon_years = 9;
    ck_assert(!undo_redo(&u, p));
    ck_assert(undo_undo(&u, p));
    ck_assert_double_eq(p->horizon_years, 2);
    undo_free(&u);
    free(p);
}
END_TEST

START_TEST(undo_and_redo_name_the_step_they_revert)
{
    Undo u;
    ck_assert_int_eq(undo_init(&u), 0);
    Plan *p = demo_plan();
    ck_assert_str_eq(undo_next_undo_what(&u), "");
    undo_push(&u, p);
    undo_set_what(&u, "site.pue = 1.4");
    undo_push(&u, p);
    undo_set_what(&u, "deleted workload chat");
    ck_assert_str_eq(undo_next_undo_what(&u), "deleted workload chat");
    ck_assert(undo_undo(&u, p));
    ck_assert_str_eq(undo_next_undo_what(&u), "site.pue = 1.4");
    ck_assert_str_eq(undo_next_redo_what(&u), "deleted workload chat");
    ck_assert(undo_redo(&u, p));
    ck_assert_str_eq(undo_next_undo_what(&u), "deleted workload chat");
    ck_assert_str_eq(undo_next_redo_what(&u), "");
    /* names stay with their steps when the oldest are dropped */
    for (int i = 0; i < UNDO_DEPTH; i++) {
        char w[32];
        snprintf(w, sizeof w, "edit %d", i);
        undo_push(&u, p);
        undo_set_what(&u, w);
    }
    char last[32];
    snprintf(last, sizeof last, "edit %d", UNDO_DEPTH - 1);
    ck_assert_str_eq(undo_next_undo_what(&u), last);
    for (int i = 0; i < UNDO_DEPTH - 1; i++)
        ck_assert(undo_undo(&u, p));
    ck_assert_str_eq(undo_next_undo_what(&u), "edit 0");
    undo_free(&u);
    free(p);
}
END_TEST

START_TEST(undo_depth_is_bounded)
{
    Undo u;
    ck_assert_int_eq(undo_init(&u), 0);
    Plan *p = demo_plan();
    for (int i = 0; i < UNDO_DEPTH + 25; i++) {
        p->horizon_years = i;
        undo_push(&u, p);
    }
    ck_assert_int_eq(u.n_undo, UNDO_DEPTH);
    int steps = 0;
    while (undo_undo(&u, p))
        steps++;
    ck_assert_int_eq(steps, UNDO_DEPTH);
    ck_assert_double_eq(p->horizon_years, 25); /* the oldest 25 were dropped */
    undo_free(&u);
    free(p);
}
END_TEST

/* ---- units */

START_TEST(days_and_gpu_memory_read_like_the_cli)
{
    char b[32];
    ck_assert_str_eq(units_days(84.08, b, sizeof b), "84.1 d");
    ck_assert_str_eq(units_days(15774.4, b, sizeof b), "15,774 d");
    ck_assert_str_eq(units_days(NAN, b, sizeof b), "-");
    /* GiB = 2^30 bytes, as cmd_eval and the exports print it */
    ck_assert_str_eq(units_gib(80e9, b, sizeof b), "74.5 GiB");
    ck_assert_str_eq(units_gib(1073741824.0, b, sizeof b), "1.0 GiB");
}
END_TEST

/* ---- line input */

START_TEST(line_input_edits_by_character)
{
    LineInput in;
    input_set(&in, "40");
    ck_assert_int_eq(in.cur, 2);
    ck_assert_int_eq(input_key(&in, '0'), 1);
    ck_assert_str_eq(in.buf, "400");
    ck_assert_int_eq(input_key(&in, KEY_HOME), 0);
    ck_assert_int_eq(input_key(&in, KEY_DC), 1);
    ck_assert_str_eq(in.buf, "00");
    input_set(&in, "a\xc3\xa9");      /* "aé": two bytes for é */
    ck_assert_int_eq(input_key(&in, KEY_BACKSPACE), 1);
    ck_assert_str_eq(in.buf, "a");
    input_set(&in, "set pue 1.2");
    ck_assert_int_eq(input_key(&in, 0x17), 1);   /* ^W */
    ck_assert_str_eq(in.buf, "set pue ");
    ck_assert_int_eq(input_key(&in, 0x15), 1);   /* ^U */
    ck_assert_str_eq(in.buf, "");
    ck_assert_int_eq(input_key(&in, KEY_F(2)), -1);
}
END_TEST

/* ---- plan browser headlines (tui/headlines.c) */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char *buf = malloc(1 << 20);
    ck_assert_ptr_nonnull(buf);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Wait (bounded by the wake pipe, 120 s) until the entry leaves PENDING. */
static HeadNumbers wait_numbers(Headlines *h, int wake, const char *plan, int v, int64_t t)
{
    HeadNumbers n = headlines_get(h, plan, v, t);
    for (int i = 0; i < 1200 && n.state == HEAD_PENDING; i++) {
        struct pollfd fd = {wake, POLLIN, 0};
        if (poll(&fd, 1, 100) > 0) {
            char b[16];
            ssize_t r = read(wake, b, sizeof b);
            (void)r;
        }
        n = headlines_get(h, plan, v, t);
    }
    return n;
}

START_TEST(browser_headlines_are_the_evaluation_of_the_stored_text)
{
    ck_assert(cat_ok);
    int pfd[2];
    ck_assert_int_eq(pipe(pfd), 0);
    Headlines *h = headlines_start(&cat, pfd[1]);
    ck_assert_ptr_nonnull(h);
    char path[1200];
    snprintf(path, sizeof path, "%s/examples/research-a100.yaml", data_dir());
    char *yaml = read_text(path);
    ck_assert_int_eq(headlines_get(h, "research-a100", 1, 100).state, HEAD_UNKNOWN);
    ck_assert_int_eq(headlines_request(h, "research-a100", 1, 100, yaml), 0);
    ck_assert_int_eq(headlines_request(h, "bad", 1, 100, "format: 1\nname: [\n"), 0);
    HeadNumbers n = wait_numbers(h, pfd[0], "research-a100", 1, 100);
    ck_assert_int_eq(n.state, HEAD_DONE);
    /* the same numbers as evaluating it here (alternatives feed none) */
    Plan *p = malloc(sizeof *p);
    PlanResult *r = calloc(1, sizeof *r);
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(plan_parse(yaml, strlen(yaml), "x", &cat, p, &d), 0);
    EvalOptions opt = eval_options_default();
    opt.alternatives = false;
    ck_assert_int_eq(plan_evaluate_ex(p, &cat, &opt, r), 0);
    SensOutcome o;
    sens_outcome(r, &cat, &o);
    ck_assert_double_eq(n.gpus, o.gpus);
    ck_assert_double_eq(n.mw, o.mw);
    ck_assert_double_eq(n.tco, o.tco);
    ck_assert_double_eq(n.days, o.days);
    ck_assert_str_eq(n.accelerator, p->accelerator);
    /* another save time is another version: not known */
    ck_assert_int_eq(headlines_get(h, "research-a100", 1, 101).state, HEAD_UNKNOWN);
    /* text that no longer parses is named, not fatal */
    HeadNumbers bad = wait_numbers(h, pfd[0], "bad", 1, 100);
    ck_assert_int_eq(bad.state, HEAD_FAILED);
    ck_assert(strstr(bad.error, "store:bad") != NULL);
    /* a result recorded by the dashboard is taken as it is */
    headlines_put(h, "mine", 3, 7, r, &cat, "H100-SXM");
    HeadNumbers m = headlines_get(h, "mine", 3, 7);
    ck_assert_int_eq(m.state, HEAD_DONE);
    ck_assert_double_eq(m.tco, o.tco);
    headlines_stop(h);
    close(pfd[0]);
    close(pfd[1]);
    free(yaml);
    free(p);
    free(r);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("tui");
    TCase *tc = tcase_create("themes");
    tcase_add_test(tc, style_strings_parse_like_tmux);
    tcase_add_test(tc, style_rejects_unknown_colour_and_attribute);
    tcase_add_test(tc, every_shipped_theme_loads);
    tcase_add_test(tc, mono_theme_has_no_colours);
    tcase_add_test(tc, bad_theme_file_names_file_line_column);
    suite_add_tcase(s, tc);
    tc = tcase_create("keys");
    tcase_add_test(tc, every_action_has_a_name_and_help);
    tcase_add_test(tc, no_key_is_bound_twice_in_one_context);
    tcase_add_test(tc, context_bindings_win_over_global_ones);
    tcase_add_test(tc, footer_lists_the_pane_keys_first);
    suite_add_tcase(s, tc);
    tc = tcase_create("fields");
    tcase_add_unchecked_fixture(tc, load_catalog, unload_catalog);
    tcase_add_test(tc, quantity_syntax_lands_in_si_fields);
    tcase_add_test(tc, invalid_text_leaves_the_plan_unchanged);
    tcase_add_test(tc, auto_and_unlimited_are_sentinels);
    tcase_add_test(tc, choices_cycle_and_wrap);
    tcase_add_test(tc, setting_gpus_clears_target_days_and_the_reverse);
    tcase_add_test(tc, a_new_accelerator_moves_mig_jobs_to_its_nearest_profile);
    tcase_add_test(tc, nearest_mig_profile_has_at_least_the_slices_and_memory);
    tcase_add_test(tc, set_names_a_workload_or_team_before_the_key);
    tcase_add_test(tc, fields_follow_the_workload_kind);
    tcase_add_test(tc, renaming_a_team_keeps_its_workloads);
    tcase_add_test(tc, a_preset_fills_the_shape_and_an_edit_drops_it);
    tcase_add_test(tc, a_hybrid_pattern_edit_sets_the_layers);
    tcase_add_test(tc, accelerators_come_from_the_catalog);
    tcase_add_test(tc, frameworks_and_engines_come_from_the_catalog);
    tcase_add_test(tc, every_key_of_the_plan_file_is_editable);
    tcase_add_test(tc, browser_headlines_are_the_evaluation_of_the_stored_text);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    tc = tcase_create("undo and input");
    tcase_add_test(tc, undo_and_redo_walk_the_history);
    tcase_add_test(tc, undo_depth_is_bounded);
    tcase_add_test(tc, undo_and_redo_name_the_step_they_revert);
    tcase_add_test(tc, days_and_gpu_memory_read_like_the_cli);
    tcase_add_test(tc, line_input_edits_by_character);
    suite_add_tcase(s, tc);
    return s;
}
