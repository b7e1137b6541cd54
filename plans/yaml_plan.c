/* plans/yaml_plan.c — the YAML plan file (PLAN-FORMAT.md) in and out.
 *
 * Reading: libyaml loads the text into a document (node tree with marks),
 * then static schema tables — one row per key: name, type, offset into the
 * struct, quantity kind or enum names, the bare unit, the writer's comment —
 * drive the walk, in the manner of libcyaml's load.c.  Every scalar that sets
 * a field records its file position under the field's address; the value
 * rules (shared with plan_validate, which has no positions) report through
 * that table, so a rule failure points at the offending line:column.
 *
 * Writing: the same tables, in the same order as PLAN-FORMAT.md, give the
 * canonical YAML.  Numbers are written in the shortest form that parses
 * back to exactly the stored double (checked by parsing it).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "presets.h"
#include "quantity.h"
#include "safeio.h"
#include "yaml_plan.h"
#include "ydepth.h"

/* Sane upper bounds: anything beyond these is a typo, not a plan. */
#define MAX_GPUS 1000000              /* a million accelerators */
#define MAX_TOKENS 1e16               /* 10 quadrillion training tokens */
#define MAX_SEQ_LEN 16777216          /* 16Mi tokens of context */
#define MAX_PLAN_BYTES (4u << 20)     /* a plan file is a few KB */

_Static_assert(sizeof(WorkloadKind) == sizeof(int) && sizeof(Recompute) == sizeof(int) &&
                   sizeof(Precision) == sizeof(int) && sizeof(JobPriority) == sizeof(int),
               "enum fields are stored through int pointers");

/* ================================================================ enums */

static const char *const kind_names[] = {"training", "inference"};
static const char *const recompute_names[] = {"auto", "none", "selective", "full"};
static const char *const site_kind_names[] = {"on-prem", "cloud"};
static const char *const pricing_names[] = {"on-demand", "reserved-1y", "reserved-3y", "spot"};
static const char *const cooling_names[] = {"air", "liquid"};
static const char *const fabric_names[] = {"infiniband", "roce"};
static const char *const topology_names[] = {"rail-optimized", "fat-tree"};
static const char *const storage_names[] = {"lustre", "gpfs", "weka", "vast", "nfs"};
static const char *const policy_names[] = {"fifo", "fair-share", "priority"};
static const char *const duration_names[] = {"lognormal", "exponential", "fixed"};
static const char *const priority_names[] = {"low", "normal", "high"};
static const char *const precision_names[] = {"fp32", "bf16", "fp16", "fp8", "fp4"};

#define NAMES(a) a, (int)(sizeof a / sizeof a[0])

static const char *enum_name(const char *const *names, int n, int base, int v)
{
    return (v - base >= 0 && v - base < n) ? names[v - base] : "?";
}

const char *plan_kind_name(WorkloadKind k) { return enum_name(NAMES(kind_names), 0, (int)k); }
const char *plan_recompute_name(Recompute r) { return enum_name(NAMES(recompute_names), -1, (int)r); }
const char *plan_site_kind_name(SiteKind k) { return enum_name(NAMES(site_kind_names), 0, (int)k); }
const char *plan_pricing_name(Pricing p) { return enum_name(NAMES(pricing_names), 0, (int)p); }
const char *plan_cooling_name(Cooling c) { return enum_name(NAMES(cooling_names), 0, (int)c); }
const char *plan_fabric_name(Fabric f) { return enum_name(NAMES(fabric_names), 0, (int)f); }
const char *plan_topology_name(Topology t) { return enum_name(NAMES(topology_names), 0, (int)t); }
const char *plan_storage_name(StorageKind s) { return enum_name(NAMES(storage_names), 0, (int)s); }
const char *plan_policy_name(SchedPolicy p) { return enum_name(NAMES(policy_names), 0, (int)p); }
const char *plan_duration_name(DurationDist d) { return enum_name(NAMES(duration_names), 0, (int)d); }
const char *plan_priority_name(JobPriority p) { return enum_name(NAMES(priority_names), 0, (int)p); }

/* ============================================================ positions */

/* Where in the file each field got its value: address of the field in the
 * Plan being filled → 1-based line and column. */
typedef struct {
    const void *addr;
    int line, col;
} Loc;

typedef struct {
    Loc *v;
    size_t n, cap;
} Locs;

static const Loc *locs_find(const Locs *l, const void *addr)
{
    if (!l)
        return NULL;
    for (size_t i = l->n; i-- > 0;)
        if (l->v[i].addr == addr)
            return &l->v[i];
    return NULL;
}

/* ================================================================ rules */

/* The value rules, shared by the parser (with positions) and plan_validate
 * (without).  A failure names the field's position when the parser set it,
 * else the position of `near` (the enclosing item), else none. */
typedef struct {
    Diag *d;
    const char *file;
    const Locs *locs;
    const void *root;   /* the plan: its mapping's position is the last resort */
} Rules;

__attribute__((format(printf, 4, 5)))
static int rule_fail(Rules *r, const void *at, const void *near, const char *fmt, ...)
{
    const Loc *l = locs_find(r->locs, at);
    if (!l && near)
        l = locs_find(r->locs, near);
    if (!l && r->root)
        l = locs_find(r->locs, r->root);
    char msg[sizeof r->d->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_set(r->d, r->file, l ? l->line : 0, l ? l->col : 0, "%s", msg);
    return -1;
}

/* Valid UTF-8 without control characters (tab allowed): what a YAML
 * scalar can carry and a terminal can show.  It must end within `cap`. */
static bool text_ok_ex(const char *s, size_t cap, bool lines);

static bool text_ok(const char *s, size_t cap)
{
    return text_ok_ex(s, cap, false);
}

/* As text_ok, and line breaks allowed (a description may span lines). */
static bool text_ok_ex(const char *s, size_t cap, bool lines)
{
    size_t n = strnlen(s, cap);
    if (n == cap)
        return false;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && !(lines && c == '\n')) || c == 0x7f)
                return false;
            i++;
            continue;
        }
        int extra;
        unsigned min;
        if ((c & 0xe0) == 0xc0) {
            extra = 1;
            min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            extra = 2;
            min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            extra = 3;
            min = 0x10000;
        } else {
            return false;
        }
        if (i + (size_t)extra >= n)
            return false;
        unsigned cp = c & (0x3fu >> extra);
        for (int k = 1; k <= extra; k++) {
            if ((p[i + (size_t)k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (p[i + (size_t)k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0)
            return false;
        i += (size_t)extra + 1;
    }
    return true;
}

/* PLAN-FORMAT.md: a plan's name matches [A-Za-z0-9._ -]{1,64}. */
static bool plan_name_ok(const char *s)
{
    size_t n = strnlen(s, PLAN_NAME_LEN);
    if (n == 0 || n > 64)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!isalnum(c) && c != '.' && c != '_' && c != ' ' && c != '-')
            return false;
    }
    return true;
}

/* Names of workloads, teams and jobs: 1–64 bytes of printable text. */
static bool item_name_ok(const char *s, size_t cap)
{
    return s[0] != '\0' && text_ok(s, cap) && strlen(s) <= 64;
}

/* recompute_modules' names, for the messages that list them */
#define RM_NAMES_OR \
    "core_attn, layernorm, moe_act, mlp, moe, shared_experts, mla_up_proj or every_other_mm"

#define CHECK(cond, at, near, ...)                          \
    do {                                                    \
        if (!(cond))                                        \
            return rule_fail(r, (at), (near), __VA_ARGS__); \
    } while (0)

static int check_accel_id(Rules *r, const char *id, const void *at, const void *near,
                          const Catalog *cat, const char *what)
{
    if (!cat || catalog_find_accelerator(cat, id))
        return 0;
    const char *ids[256] = {0};
    size_t n = 0;
    for (size_t i = 0; i < cat->n_accelerators && n < 256; i++)
        ids[n++] = cat->accelerators[i].id;
    /* "H100" starts several ids: name them all rather than guess. */
    char list[400] = "";
    size_t used = 0;
    int starts = 0;
    size_t idlen = strlen(id);
    for (size_t i = 0; idlen >= 2 && i < n; i++) {
        if (strncasecmp(ids[i], id, idlen) != 0)
            continue;
        int w = snprintf(list + used, sizeof list - used, "%s%s", starts ? ", " : "", ids[i]);
        if (w < 0 || (size_t)w >= sizeof list - used)
            break;
        used += (size_t)w;
        starts++;
    }
    if (starts > 1)
        return rule_fail(r, at, near, "%s: unknown accelerator '%s'; did you mean one of %s?", what,
                         id, list);
    const char *near_id = diag_nearest(id, ids, n);
    if (near_id)
        return rule_fail(r, at, near, "%s: unknown accelerator '%s'; did you mean '%s'?", what,
                         id, near_id);
    list[0] = '\0';
    used = 0;
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", ids[i]);
        if (w < 0 || (size_t)w >= sizeof list - used)
            break;
        used += (size_t)w;
    }
    return rule_fail(r, at, near, "%s: unknown accelerator '%s' (known: %s)", what, id, list);
}

static int check_shape(Rules *r, const Workload *w, const Catalog *cat)
{
    (void)cat;
    const ModelShape *m = &w->model;
    const char *wn = w->name;
    CHECK(text_ok(m->preset, sizeof m->preset), m->preset, w,
          "workload '%s': preset must be a preset name", wn);
    if (m->preset[0] && !preset_find(m->preset)) {
        size_t n;
        const ModelPreset *all = preset_all(&n);
        const char *names[64];
        for (size_t i = 0; i < n && i < 64; i++)
            names[i] = all[i].name;
        const char *s = diag_nearest(m->preset, names, n < 64 ? n : 64);
        if (s)
            return rule_fail(r, m->preset, w, "workload '%s': unknown preset '%s'; did you mean '%s'?",
                             wn, m->preset, s);
        return rule_fail(r, m->preset, w, "workload '%s': unknown preset '%s'", wn, m->preset);
    }
    if (m->layers == 0 && m->hidden == 0 && m->heads == 0)
        return rule_fail(r, &w->model, w,
                         "workload '%s' has no model: give `model: {preset: NAME}` or its shape "
                         "(layers, hidden, ffn_hidden, heads, vocab)", wn);
    CHECK(m->layers >= 1 && m->layers <= 1000, &m->layers, w,
          "workload '%s': layers must be between 1 and 1000, got %d", wn, m->layers);
    CHECK(m->hidden >= 1 && m->hidden <= 1000000, &m->hidden, w,
          "workload '%s': hidden must be between 1 and 1000000, got %d", wn, m->hidden);
    CHECK(m->ffn_hidden >= 1 && m->ffn_hidden <= 10000000, &m->ffn_hidden, w,
          "workload '%s': ffn_hidden must be between 1 and 10000000, got %d", wn, m->ffn_hidden);
    CHECK(m->heads >= 1 && m->heads <= m->hidden, &m->heads, w,
          "workload '%s': heads must be between 1 and hidden (%d), got %d", wn, m->hidden,
          m->heads);
    CHECK(m->head_dim >= 0 && m->head_dim <= 65536, &m->head_dim, w,
          "workload '%s': head_dim must be between 0 (hidden/heads) and 65536, got %d", wn,
          m->head_dim);
    CHECK(m->head_dim != 0 || m->hidden % m->heads == 0, &m->heads, w,
          "workload '%s': heads (%d) does not divide hidden (%d); give head_dim if the model "
          "really has that shape", wn, m->heads, m->hidden);
    CHECK(m->kv_heads >= 0 && m->kv_heads <= m->heads, &m->kv_heads, w,
          "workload '%s': kv_heads must be between 1 and heads (%d), got %d", wn, m->heads,
          m->kv_heads);
    CHECK(m->kv_heads == 0 || m->heads % m->kv_heads == 0, &m->kv_heads, w,
          "workload '%s': kv_heads (%d) does not divide heads (%d)", wn, m->kv_heads, m->heads);
    CHECK(m->vocab >= 1 && m->vocab <= 10000000, &m->vocab, w,
          "workload '%s': vocab must be between 1 and 10000000, got %d", wn, m->vocab);
    CHECK(m->experts >= 1 && m->experts <= 100000, &m->experts, w,
          "workload '%s': experts must be between 1 (dense) and 100000, got %d", wn, m->experts);
    CHECK(m->experts_per_token >= 1 && m->experts_per_token <= m->experts,
          &m->experts_per_token, w,
          "workload '%s': experts_per_token must be between 1 and experts (%d), got %d", wn,
          m->experts, m->experts_per_token);
    CHECK(m->shared_experts >= 0 && m->shared_experts <= 1000, &m->shared_experts, w,
          "workload '%s': shared_experts must be between 0 and 1000, got %d", wn,
          m->shared_experts);
    CHECK(m->expert_ffn_hidden >= 0 && m->expert_ffn_hidden <= 10000000, &m->expert_ffn_hidden, w,
          "workload '%s': expert_ffn_hidden must be between 0 (= ffn_hidden) and 10000000, got %d",
          wn, m->expert_ffn_hidden);
    CHECK(m->dense_layers >= 0 && m->dense_layers <= m->layers, &m->dense_layers, w,
          "workload '%s': dense_layers must be between 0 and layers (%d), got %d", wn, m->layers,
          m->dense_layers);
    CHECK(m->moe_latent >= 0 && m->moe_latent <= m->hidden, &m->moe_latent, w,
          "workload '%s': moe_latent must be between 0 (no latent projection) and hidden (%d), "
          "got %d", wn, m->hidden, m->moe_latent);
    CHECK(m->moe_latent == 0 || m->experts > 1, &m->moe_latent, w,
          "workload '%s': moe_latent needs routed experts (experts > 1)", wn);
    CHECK(text_ok(m->hybrid, sizeof m->hybrid), m->hybrid, w,
          "workload '%s': hybrid must be a pattern of M, *, - and E", wn);
    if (m->hybrid[0]) {
        LayerCounts lc;
        model_layer_counts(m, &lc);
        static const char *const what[] = {"G", "a gated DeltaNet layer", "D",
                                           "a DeepSeek sparse-attention layer", "+",
                                           "a latent-attention (MLA) layer", "|",
                                           "a pipeline-stage boundary", "/",
                                           "multi-token-prediction layers"};
        const char *name = NULL;
        for (size_t i = 0; lc.bad && i < sizeof what / sizeof what[0]; i += 2)
            if (what[i][0] == lc.bad)
                name = what[i + 1];
        if (name)
            return rule_fail(r, m->hybrid, w,
                             "workload '%s': hybrid symbol %d is '%c' (%s), which the model "
                             "does not price; expected M (Mamba-2), * (attention), - (MLP) or "
                             "E (MoE)", wn, lc.bad_at + 1, lc.bad, name);
        CHECK(!lc.bad, m->hybrid, w,
              "workload '%s': hybrid symbol %d is not M (Mamba-2), * (attention), - (MLP) or E "
              "(MoE)", wn, lc.bad_at + 1);
        CHECK(lc.layers == m->layers, &m->layers, w,
              "workload '%s': layers is %d but the hybrid pattern has %d layers", wn, m->layers,
              lc.layers);
        CHECK(lc.moe == 0 || m->experts > 1, m->hybrid, w,
              "workload '%s': the hybrid pattern has %d MoE layers (E) but experts is %d", wn,
              lc.moe, m->experts);
        CHECK(lc.moe > 0 || m->experts <= 1, m->hybrid, w,
              "workload '%s': experts is %d but the hybrid pattern has no MoE layer (E)", wn,
              m->experts);
        CHECK(m->dense_layers == 0, &m->dense_layers, w,
              "workload '%s': dense_layers does not apply to a hybrid pattern; its - layers "
              "are the dense ones", wn);
        CHECK(m->window_layers <= lc.attn, &m->window_layers, w,
              "workload '%s': window_layers %d is more than the pattern's %d attention layers",
              wn, m->window_layers, lc.attn);
    }
    const int *mam[] = {&m->mamba_heads, &m->mamba_head_dim, &m->mamba_state, &m->mamba_groups,
                        &m->mamba_conv, &m->mamba_chunk};
    static const char *const mam_keys[] = {"mamba_heads", "mamba_head_dim", "mamba_state",
                                           "mamba_groups", "mamba_conv", "mamba_chunk"};
    static const int mam_max[] = {65536, 65536, 65536, 65536, 64, 65536};
    bool has_mamba = strchr(m->hybrid, 'M') != NULL;
    for (int i = 0; i < 6; i++) {
        CHECK(*mam[i] >= 0 && *mam[i] <= mam_max[i], mam[i], w,
              "workload '%s': %s must be between 0 (Megatron-Core's default) and %d, got %d", wn,
              mam_keys[i], mam_max[i], *mam[i]);
        CHECK(*mam[i] == 0 || has_mamba, mam[i], w,
              "workload '%s': %s sizes Mamba-2 layers, but the model has none (hybrid pattern "
              "with M)", wn, mam_keys[i]);
    }
    if (has_mamba) {
        MambaDims md;
        model_mamba_dims(m, &md);
        CHECK(md.heads >= 1, &m->mamba_heads, w,
              "workload '%s': mamba_heads must be at least 1", wn);
        CHECK(md.heads % md.groups == 0, &m->mamba_groups, w,
              "workload '%s': mamba_groups (%d) does not divide mamba_heads (%d)", wn, md.groups,
              md.heads);
    }
    const int *mla[] = {&m->q_lora_rank, &m->kv_lora_rank, &m->qk_rope_head_dim,
                        &m->qk_nope_head_dim, &m->v_head_dim};
    static const char *const mla_keys[] = {"q_lora_rank", "kv_lora_rank", "qk_rope_head_dim",
                                           "qk_nope_head_dim", "v_head_dim"};
    for (int i = 0; i < 5; i++) {
        CHECK(*mla[i] >= 0 && *mla[i] <= 1000000, mla[i], w,
              "workload '%s': %s must be between 0 and 1000000, got %d", wn, mla_keys[i], *mla[i]);
        if (i != 0 && i != 1)
            CHECK(m->kv_lora_rank > 0 || *mla[i] == 0, mla[i], w,
                  "workload '%s': %s is a multi-head latent attention size and needs kv_lora_rank",
                  wn, mla_keys[i]);
        if (i >= 2)
            CHECK(m->kv_lora_rank == 0 || *mla[i] > 0, &m->kv_lora_rank, w,
                  "workload '%s': latent attention (kv_lora_rank %d) needs %s", wn,
                  m->kv_lora_rank, mla_keys[i]);
    }
    CHECK(m->q_lora_rank == 0 || m->kv_lora_rank > 0, &m->q_lora_rank, w,
          "workload '%s': q_lora_rank needs kv_lora_rank (multi-head latent attention)", wn);
    CHECK(m->params == 0 || (m->params >= 1e3 && m->params <= 1e15), &m->params, w,
          "workload '%s': params must be auto or between 1k and 1000T, got %g", wn, m->params);
    return 0;
}

/* Largest tp a pool of `gpus` allows (auto = any). */
static int ds_max(int gpus)
{
    return gpus > 0 ? gpus : MAX_GPUS;
}

static int check_workload(Rules *r, const Plan *p, const Workload *w, const Catalog *cat)
{
    const char *wn = w->name;
    CHECK(item_name_ok(w->name, sizeof w->name), w->name, w,
          "workload name must be 1-64 printable characters");
    CHECK(w->kind == WL_TRAINING || w->kind == WL_INFERENCE, &w->kind, w,
          "workload '%s': kind must be training or inference", wn);
    CHECK(text_ok(w->team, sizeof w->team), w->team, w,
          "workload '%s': team must be printable text", wn);
    if (w->team[0] && p->tenancy.n_teams > 0) {
        const char *names[PLAN_MAX_TEAMS];
        bool found = false;
        for (int i = 0; i < p->tenancy.n_teams; i++) {
            const char *tn = p->tenancy.teams[i].name;
            names[i] = text_ok(tn, sizeof p->tenancy.teams[i].name) ? tn : "";
            if (strcmp(names[i], w->team) == 0)
                found = true;
        }
        if (!found) {
            const char *s = diag_nearest(w->team, names, (size_t)p->tenancy.n_teams);
            return rule_fail(r, w->team, w, "workload '%s': team '%s' is not a tenancy team%s%s%s",
                             wn, w->team, s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
        }
    }
    CHECK(text_ok(w->accelerator, sizeof w->accelerator), w->accelerator, w,
          "workload '%s': accelerator must be printable text", wn);
    if (w->accelerator[0]) {
        char what[96];
        snprintf(what, sizeof what, "workload '%s'", wn);
        if (check_accel_id(r, w->accelerator, w->accelerator, w, cat, what))
            return -1;
    }
    if (check_shape(r, w, cat))
        return -1;
    const ModelShape *m = &w->model;
    CHECK(w->precision >= 0 && w->precision < PREC_COUNT, &w->precision, w,
          "workload '%s': unknown precision", wn);
    CHECK(w->kv_precision >= 0 && w->kv_precision < PREC_COUNT, &w->kv_precision, w,
          "workload '%s': unknown kv_precision", wn);

    if (w->kind == WL_TRAINING) {
        CHECK(w->seq_len >= 1 && w->seq_len <= MAX_SEQ_LEN, &w->seq_len, w,
              "workload '%s': seq_len must be between 1 and %d, got %d", wn, MAX_SEQ_LEN,
              w->seq_len);
        CHECK(w->tokens > 0 && w->tokens <= MAX_TOKENS, &w->tokens, w,
              "workload '%s': tokens must be more than 0 and at most 10000T (1e16), got %g", wn,
              w->tokens);
        CHECK(w->global_batch >= 1 && w->global_batch <= MAX_SEQ_LEN, &w->global_batch, w,
              "workload '%s': global_batch must be between 1 and %d sequences, got %d", wn,
              MAX_SEQ_LEN, w->global_batch);
        CHECK(w->micro_batch >= 0 && w->micro_batch <= w->global_batch, &w->micro_batch, w,
              "workload '%s': micro_batch must be auto or between 1 and global_batch (%d), got %d",
              wn, w->global_batch, w->micro_batch);
        CHECK(w->micro_batch == 0 || w->global_batch % w->micro_batch == 0, &w->micro_batch, w,
              "workload '%s': global_batch %d is not divisible by micro_batch %d", wn,
              w->global_batch, w->micro_batch);
        CHECK(w->optimizer_bytes_per_param > 0 && w->optimizer_bytes_per_param <= 64,
              &w->optimizer_bytes_per_param, w,
              "workload '%s': optimizer_bytes_per_param must be more than 0 and at most 64, got %g",
              wn, w->optimizer_bytes_per_param);
        CHECK(w->zero >= -1 && w->zero <= 3, &w->zero, w,
              "workload '%s': zero must be auto, 0, 1, 2 or 3, got %d", wn, w->zero);
        CHECK(w->offload_layers >= 0 && w->offload_layers <= (w->model.layers > 0 ? w->model.layers : 0),
              &w->offload_layers, w,
              "workload '%s': offload_layers must be between 0 and the model's %d layers, got %d",
              wn, w->model.layers, w->offload_layers);
        CHECK(w->recompute_layers >= 0 &&
                  w->recompute_layers <= (w->model.layers > 0 ? w->model.layers : 0),
              &w->recompute_layers, w,
              "workload '%s': recompute_layers must be between 0 and the model's %d layers, got %d",
              wn, w->model.layers, w->recompute_layers);
        {
            char bad[80] = "";
            CHECK(text_ok(w->recompute_modules, sizeof w->recompute_modules) &&
                      recompute_modules_mask(w->recompute_modules, NULL, bad, sizeof bad),
                  w->recompute_modules, w,
                  "workload '%s': recompute_modules: '%s' is not a module: expected "
                  RM_NAMES_OR, wn, bad);
        }
        {
            unsigned rm = 0;
            recompute_modules_mask(w->recompute_modules, &rm, NULL, 0);
            CHECK(!(rm & RM_EVERY_OTHER_MM) || rm == RM_EVERY_OTHER_MM, w->recompute_modules, w,
                  "workload '%s': recompute_modules: every_other_mm (torchtitan's per-op "
                  "selective checkpointing) is a policy for the whole layer; it does not "
                  "combine with Megatron-Core's modules", wn);
        }
        CHECK(!w->recompute_modules[0] || w->recompute == RECOMPUTE_SELECTIVE,
              w->recompute_modules, w,
              "workload '%s': recompute_modules needs recompute: selective (it says which "
              "modules the selective recompute re-runs)", wn);
        CHECK(w->recompute_layers == 0 || w->recompute == RECOMPUTE_FULL, &w->recompute_layers, w,
              "workload '%s': recompute_layers needs recompute: full (it says how many layers "
              "per stage recompute)", wn);
        const ParallelSpec *ps = &w->parallel;
        const int *dims[] = {&ps->tp, &ps->pp, &ps->vpp, &ps->cp, &ps->ep};
        static const char *const dim_keys[] = {"tp", "pp", "vpp", "cp", "ep"};
        for (int i = 0; i < 5; i++)
            CHECK(*dims[i] >= 0 && *dims[i] <= MAX_GPUS, dims[i], w,
                  "workload '%s': parallel %s must be auto or between 1 and %d, got %d", wn,
                  dim_keys[i], MAX_GPUS, *dims[i]);
        CHECK(ps->sp >= -1 && ps->sp <= 1, &ps->sp, w,
              "workload '%s': parallel sp must be true, false or auto", wn);
        CHECK(ps->tp <= m->heads, &ps->tp, w,
              "workload '%s': tp %d is more than the model's %d heads", wn, ps->tp, m->heads);
        if (ps->tp > 0 && strchr(m->hybrid, 'M')) {
            MambaDims md;
            model_mamba_dims(m, &md);
            CHECK(md.heads % ps->tp == 0 && md.groups % ps->tp == 0, &ps->tp, w,
                  "workload '%s': tp %d must divide the Mamba-2 heads (%d) and groups (%d)", wn,
                  ps->tp, md.heads, md.groups);
        }
        CHECK(ps->pp <= m->layers, &ps->pp, w,
              "workload '%s': pp %d is more than the model's %d layers", wn, ps->pp, m->layers);
        CHECK(ps->vpp <= 1 || ps->pp != 1, &ps->vpp, w,
              "workload '%s': vpp %d (interleaved stages) needs pp > 1", wn, ps->vpp);
        /* with the embedding and the loss in the split, L + 2 slots */
        int slots = workload_pipeline_slots(w, m->layers, ps->pp);
        /* the layout fits once the embedding and the loss take a stage slot
         * each (Megatron-Core account_for_embedding/loss_in_pipeline_split,
         * as Llama 3.1 405B's PP 16 x VP 8 recipes run): say which key */
        bool split_fits = !w->pipeline_split_embedding_loss && ps->pp > 1 &&
                          (long)ps->pp * ps->vpp <= (long)m->layers + 2;
        CHECK(ps->vpp == 0 || ps->pp == 0 || (long)ps->pp * ps->vpp <= slots, &ps->vpp, w,
              "workload '%s': pp %d x vpp %d is more stages than the model's %d layers%s", wn,
              ps->pp, ps->vpp, m->layers,
              w->pipeline_split_embedding_loss
                  ? " + embedding + loss"
                  : split_fits ? " (with the embedding and the loss as stages too, "
                                 "pipeline_split_embedding_loss: true, it fits)"
                               : "");
        CHECK(ps->cp <= w->seq_len, &ps->cp, w,
              "workload '%s': cp %d is more than seq_len %d", wn, ps->cp, w->seq_len);
        CHECK(ps->ep <= m->experts, &ps->ep, w,
              "workload '%s': ep %d is more than the model's %d experts", wn, ps->ep, m->experts);
        CHECK(w->recompute >= RECOMPUTE_AUTO && w->recompute <= RECOMPUTE_FULL, &w->recompute, w,
              "workload '%s': unknown recompute", wn);
        CHECK(w->gpus >= 0 && w->gpus <= MAX_GPUS, &w->gpus, w,
              "workload '%s': gpus must be auto or between 1 and %d, got %d", wn, MAX_GPUS, w->gpus);
        CHECK(w->target_days >= 0 && w->target_days <= 3650, &w->target_days, w,
              "workload '%s': target_days must be between 0 and 3650, got %g", wn, w->target_days);
        CHECK(w->gpus > 0 || w->target_days > 0, &w->gpus, w,
              "workload '%s': give gpus (a fixed size) or target_days (size it to finish in time)",
              wn);
        CHECK(w->gpus == 0 || w->target_days == 0, &w->target_days, w,
              "workload '%s': give gpus or target_days, not both (gpus fixes the size, "
              "target_days sizes it)", wn);
        long long prod = 1;
        for (int i = 0; i < 5; i++)
            if (i != 2 && *dims[i] > 0 && !(i == 4 && ps->etp > 0))
                prod *= *dims[i];
        CHECK(w->gpus == 0 || prod <= w->gpus, &w->gpus, w,
              "workload '%s': parallel tp x pp x cp x ep = %lld needs more than gpus %d", wn, prod,
              w->gpus);
        CHECK(w->mfu >= 0 && w->mfu <= 1, &w->mfu, w,
              "workload '%s': mfu must be auto or a fraction between 0 and 1, got %g", wn, w->mfu);
        CHECK(w->ep_overlap >= 0 && w->ep_overlap <= 1, &w->ep_overlap, w,
              "workload '%s': ep_overlap must be a fraction from 0 to 1", wn);
        CHECK(w->moe_capacity_factor >= 0 && w->moe_capacity_factor <= 64,
              &w->moe_capacity_factor, w,
              "workload '%s': moe_capacity_factor must be 0 (dropless) or up to 64, got %g", wn,
              w->moe_capacity_factor);
        CHECK(text_ok(w->framework, sizeof w->framework), w->framework, w,
              "workload '%s': framework must be printable text", wn);
        CHECK(!w->framework[0] || !cat || catalog_find_framework(cat, w->framework),
              w->framework, w,
              "workload '%s': unknown framework '%s' (expected megatron, nemo, deepspeed, fsdp "
              "or maxtext, or a frameworks: id of the catalog)", wn, w->framework);
        {
            const Framework *fw =
                cat && w->framework[0] ? catalog_find_framework(cat, w->framework) : NULL;
            CHECK(w->recompute != RECOMPUTE_SELECTIVE || !fw || !fw->full_recompute_only,
                  &w->recompute, w,
                  "workload '%s': framework '%s' has no selective recompute (its activation "
                  "checkpointing re-runs whole layers): expected recompute full, none or auto",
                  wn, w->framework);
        }
        CHECK(w->measured_step_s >= 0 && w->measured_step_s <= 86400, &w->measured_step_s, w,
              "workload '%s': measured_step must be more than 0 and at most a day", wn);
        CHECK(w->measured_tokens_per_gpu_s >= 0 && w->measured_tokens_per_gpu_s <= 1e9,
              &w->measured_tokens_per_gpu_s, w,
              "workload '%s': measured_tokens_per_gpu must be between 0 and 1e9", wn);
        CHECK(!(w->measured_step_s > 0 && w->measured_tokens_per_gpu_s > 0),
              &w->measured_tokens_per_gpu_s, w,
              "workload '%s': give measured_step or measured_tokens_per_gpu, not both", wn);
        CHECK(text_ok(w->measured_source, sizeof w->measured_source), w->measured_source, w,
              "workload '%s': measured_source must be printable text", wn);
        CHECK(w->measured_memory_bytes >= 0 && w->measured_memory_bytes <= 1e13,
              &w->measured_memory_bytes, w,
              "workload '%s': measured_memory must be a size between 0 and 10TB", wn);
        CHECK(ps->etp >= 0 && ps->etp <= MAX_GPUS, &ps->etp, w,
              "workload '%s': parallel etp must be auto or between 1 and %d, got %d", wn,
              MAX_GPUS, ps->etp);
        CHECK(ps->etp == 0 || m->experts > 1, &ps->etp, w,
              "workload '%s': parallel etp needs a MoE model (experts > 1)", wn);
        CHECK(m->window >= 0 && m->window <= MAX_SEQ_LEN, &m->window, w,
              "workload '%s': model window must be 0 (full attention) or 1 to %d tokens", wn,
              MAX_SEQ_LEN);
        CHECK(m->window_layers >= 0 && m->window_layers <= m->layers, &m->window_layers, w,
              "workload '%s': model window_layers must be between 0 and the %d layers", wn,
              m->layers);
        CHECK(m->mtp_layers >= 0 && m->mtp_layers <= 16, &m->mtp_layers, w,
              "workload '%s': model mtp_layers must be between 0 and 16, got %d", wn,
              m->mtp_layers);
        CHECK(m->glu_clamp >= 0 && m->glu_clamp <= 1e6, &m->glu_clamp, w,
              "workload '%s': model glu_clamp must be 0 (no clamp) or a positive limit", wn);
        CHECK(m->glu_clamp == 0 || m->glu, &m->glu_clamp, w,
              "workload '%s': model glu_clamp needs a GLU MLP (glu: true)", wn);
        CHECK(m->yarn_factor == 0 || (m->yarn_factor >= 1 && m->yarn_factor <= 1e4),
              &m->yarn_factor, w,
              "workload '%s': model yarn_factor must be 0 (plain RoPE) or between 1 and 1e4", wn);
        CHECK(w->checkpoint_interval_s >= 0 && w->checkpoint_interval_s <= 31536000,
              &w->checkpoint_interval_s, w,
              "workload '%s': checkpoint_interval must be auto or at most a year", wn);
    } else {
        CHECK(w->prompt_tokens >= 1 && w->prompt_tokens <= MAX_SEQ_LEN, &w->prompt_tokens, w,
              "workload '%s': prompt_tokens must be between 1 and %d, got %d", wn, MAX_SEQ_LEN,
              w->prompt_tokens);
        CHECK(w->output_tokens >= 1 && w->output_tokens <= MAX_SEQ_LEN, &w->output_tokens, w,
              "workload '%s': output_tokens must be between 1 and %d, got %d", wn, MAX_SEQ_LEN,
              w->output_tokens);
        CHECK(w->requests_per_s > 0 && w->requests_per_s <= 1e7, &w->requests_per_s, w,
              "workload '%s': requests_per_s must be more than 0 and at most 10M, got %g", wn,
              w->requests_per_s);
        CHECK(w->ttft_s > 0 && w->ttft_s <= 3600, &w->ttft_s, w,
              "workload '%s': ttft_ms must be more than 0 and at most an hour", wn);
        CHECK(w->tpot_s > 0 && w->tpot_s <= 60, &w->tpot_s, w,
              "workload '%s': tpot_ms must be more than 0 and at most 60000", wn);
        CHECK(w->tp >= 0 && w->tp <= m->heads, &w->tp, w,
              "workload '%s': tp must be auto or between 1 and the model's %d heads, got %d", wn,
              m->heads, w->tp);
        CHECK(w->replicas >= 0 && w->replicas <= MAX_GPUS, &w->replicas, w,
              "workload '%s': replicas must be auto or between 1 and %d, got %d", wn, MAX_GPUS,
              w->replicas);
        CHECK((long long)(w->tp ? w->tp : 1) * w->replicas <= MAX_GPUS, &w->replicas, w,
              "workload '%s': tp x replicas is more than %d GPUs", wn, MAX_GPUS);
        CHECK(w->ep_overlap >= 0 && w->ep_overlap <= 1, &w->ep_overlap, w,
              "workload '%s': ep_overlap must be a fraction from 0 to 1", wn);
        CHECK(text_ok(w->engine, sizeof w->engine), w->engine, w,
              "workload '%s': engine must be printable text", wn);
        if (w->engine[0] && cat && cat->n_engines > 0 && !catalog_find_engine(cat, w->engine)) {
            char list[200] = "";
            size_t used = 0;
            for (size_t i = 0; i < cat->n_engines; i++) {
                int k = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                 cat->engines[i].id);
                if (k < 0 || (size_t)k >= sizeof list - used)
                    break;
                used += (size_t)k;
            }
            return rule_fail(r, w->engine, w, "workload '%s': unknown engine '%s' (expected %s)",
                             wn, w->engine, list);
        }
        CHECK(w->max_batch >= 0 && w->max_batch <= 1000000, &w->max_batch, w,
              "workload '%s': max_batch must be auto or between 1 and 1000000, got %d", wn,
              w->max_batch);
        CHECK(w->chunk_tokens >= 0 && w->chunk_tokens <= 16777216, &w->chunk_tokens, w,
              "workload '%s': chunk_tokens must be auto or between 1 and 16M, got %d", wn,
              w->chunk_tokens);
        CHECK(w->prefix_cache_hit >= 0 && w->prefix_cache_hit < 1, &w->prefix_cache_hit, w,
              "workload '%s': prefix_cache_hit must be a fraction from 0 to below 1, got %g", wn,
              w->prefix_cache_hit);
        const SpeculativeSpec *sp = &w->speculative;
        CHECK(sp->draft >= 0 && sp->draft <= 64, &w->speculative.draft, w,
              "workload '%s': speculative draft must be 0 (off) to 64 tokens, got %d", wn,
              sp->draft);
        CHECK(sp->acceptance >= 0 && sp->acceptance <= 1, &w->speculative.acceptance, w,
              "workload '%s': speculative acceptance must be a fraction from 0 to 1", wn);
        CHECK(sp->draft == 0 || sp->acceptance > 0, &w->speculative.acceptance, w,
              "workload '%s': speculative decoding needs an acceptance rate above 0", wn);
        const DisaggSpec *ds = &w->disaggregated;
        CHECK(ds->prefill_gpus >= 0 && ds->prefill_gpus <= MAX_GPUS &&
                  ds->decode_gpus >= 0 && ds->decode_gpus <= MAX_GPUS,
              &w->disaggregated, w,
              "workload '%s': disaggregated prefill_gpus / decode_gpus must be auto or 1-%d", wn,
              MAX_GPUS);
        CHECK(ds->prefill_tp >= 0 && ds->prefill_tp <= ds_max(ds->prefill_gpus) &&
                  ds->decode_tp >= 0 && ds->decode_tp <= ds_max(ds->decode_gpus),
              &w->disaggregated, w,
              "workload '%s': disaggregated prefill_tp / decode_tp must be auto or at most the "
              "pool's GPUs", wn);
        CHECK(ds->mode != 0 || (ds->prefill_gpus == 0 && ds->decode_gpus == 0 &&
                                ds->prefill_tp == 0 && ds->decode_tp == 0),
              &w->disaggregated, w,
              "workload '%s': disaggregated: false takes no pool sizes", wn);
    }
    return 0;
}

static int check_team(Rules *r, const Plan *p, const Team *t, const Catalog *cat)
{
    const char *tn = t->name;
    CHECK(item_name_ok(t->name, sizeof t->name), t->name, t,
          "team name must be 1-64 printable characters");
    CHECK(t->weight > 0 && t->weight <= 1e6, &t->weight, t,
          "team '%s': weight must be more than 0 and at most 1000000, got %g", tn, t->weight);
    CHECK(t->quota_gpus >= 0 && t->quota_gpus <= MAX_GPUS, &t->quota_gpus, t,
          "team '%s': quota_gpus must be between 0 and %d, got %d", tn, MAX_GPUS, t->quota_gpus);
    CHECK(t->borrow_gpus >= -1 && t->borrow_gpus <= MAX_GPUS, &t->borrow_gpus, t,
          "team '%s': borrow_gpus must be unlimited or between 0 and %d, got %d", tn, MAX_GPUS,
          t->borrow_gpus);
    CHECK(t->n_jobs >= 0 && t->n_jobs <= PLAN_MAX_JOBS, &t->n_jobs, t,
          "team '%s': at most %d job classes", tn, PLAN_MAX_JOBS);
    const Accelerator *acc = cat ? catalog_find_accelerator(cat, p->accelerator) : NULL;
    for (int i = 0; i < t->n_jobs; i++) {
        const JobClass *j = &t->jobs[i];
        const char *jn = j->name;
        CHECK(item_name_ok(j->name, sizeof j->name), j->name, j,
              "team '%s': job name must be 1-64 printable characters", tn);
        for (int k = 0; k < i; k++)
            CHECK(strcmp(t->jobs[k].name, j->name) != 0, j->name, j,
                  "team '%s': duplicate job name '%s'", tn, jn);
        CHECK(j->per_day >= 0 && j->per_day <= 1e6, &j->per_day, j,
              "job '%s/%s': per_day must be between 0 and 1000000, got %g", tn, jn, j->per_day);
        CHECK(j->gpus > 0 && j->gpus <= MAX_GPUS, &j->gpus, j,
              "job '%s/%s': gpus must be more than 0 and at most %d, got %g", tn, jn, MAX_GPUS,
              j->gpus);
        CHECK(j->gpus < 1 || j->gpus == floor(j->gpus), &j->gpus, j,
              "job '%s/%s': gpus %g: ask for whole GPUs, or a fraction below 1 of one GPU", tn,
              jn, j->gpus);
        CHECK(j->hours > 0 && j->hours <= 8760, &j->hours, j,
              "job '%s/%s': hours must be more than 0 and at most a year (8760), got %g", tn, jn,
              j->hours);
        CHECK(j->duration >= DUR_LOGNORMAL && j->duration <= DUR_FIXED, &j->duration, j,
              "job '%s/%s': unknown duration distribution", tn, jn);
        CHECK(j->cv >= 0 && j->cv <= 10, &j->cv, j,
              "job '%s/%s': cv must be between 0 and 10, got %g", tn, jn, j->cv);
        CHECK(j->priority >= PRIO_LOW && j->priority <= PRIO_HIGH, &j->priority, j,
              "job '%s/%s': unknown priority", tn, jn);
        CHECK(j->min_gpus >= 0 && j->max_gpus >= 0 && j->max_gpus <= MAX_GPUS, &j->max_gpus, j,
              "job '%s/%s': max_gpus must be between 1 and %d, got %d", tn, jn, MAX_GPUS,
              j->max_gpus);
        CHECK(j->min_gpus == 0 || j->max_gpus > 0, &j->min_gpus, j,
              "job '%s/%s': min_gpus needs max_gpus (an elastic job runs between the two)", tn, jn);
        if (j->max_gpus > 0) {
            CHECK(j->min_gpus >= 1 && j->min_gpus <= j->max_gpus, &j->min_gpus, j,
                  "job '%s/%s': an elastic job needs 1 <= min_gpus <= max_gpus (%d), got %d", tn,
                  jn, j->max_gpus, j->min_gpus);
            CHECK(j->gpus == 1, &j->gpus, j,
                  "job '%s/%s': give gpus or min_gpus/max_gpus, not both", tn, jn);
        }
        CHECK(text_ok(j->mig, sizeof j->mig), j->mig, j,
              "job '%s/%s': mig must be printable text", tn, jn);
        if (j->mig[0]) {
            CHECK(j->gpus == 1 && j->max_gpus == 0, &j->gpus, j,
                  "job '%s/%s': a MIG job asks for one slice; drop gpus/min_gpus/max_gpus", tn, jn);
            if (acc && !accelerator_find_mig(acc, j->mig)) {
                char list[300] = "";
                size_t used = 0;
                for (int k = 0; k < acc->n_mig; k++) {
                    int wr = snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "",
                                      acc->mig[k].name);
                    if (wr < 0 || (size_t)wr >= sizeof list - used)
                        break;
                    used += (size_t)wr;
                }
                if (acc->n_mig == 0)
                    return rule_fail(r, j->mig, j, "job '%s/%s': %s has no MIG profiles", tn, jn,
                                     acc->id);
                return rule_fail(r, j->mig, j,
                                 "job '%s/%s': %s has no MIG profile '%s' (valid: %s)", tn, jn,
                                 acc->id, j->mig, list);
            }
        }
    }
    return 0;
}

static int check_writable(const Plan *p, Rules *r);

/* ranges: low <= high, each within what its assumption can be. */
static int check_ranges(Rules *r, const RangesSpec *g)
{
    /* lowest and highest value a range may reach, per knob */
    static const double lo[RANGE_COUNT] = {
        [RANGE_RESERVED_DISCOUNT] = 0, [RANGE_NODE_PRICE] = 0.01, [RANGE_POWER_PRICE] = 0,
        [RANGE_PUE] = 1, [RANGE_HORIZON] = 0.1, [RANGE_MTBF] = 100, [RANGE_TOKENS] = 0.01,
        [RANGE_ARRIVALS] = 0.01, [RANGE_UTILIZATION] = 0.01, [RANGE_RESALE] = 0,
        [RANGE_MODEL_BAND] = -3};
    static const double hi[RANGE_COUNT] = {
        [RANGE_RESERVED_DISCOUNT] = 0.95, [RANGE_NODE_PRICE] = 100, [RANGE_POWER_PRICE] = 10,
        [RANGE_PUE] = 5, [RANGE_HORIZON] = 30, [RANGE_MTBF] = 1e8, [RANGE_TOKENS] = 100,
        [RANGE_ARRIVALS] = 100, [RANGE_UTILIZATION] = 10, [RANGE_RESALE] = 1,
        [RANGE_MODEL_BAND] = 3};
    CHECK(g->samples >= 1 && g->samples <= 100000, &g->samples, NULL,
          "ranges samples must be between 1 and 100000, got %d", g->samples);
    for (int k = 0; k < RANGE_COUNT; k++) {
        const RangeSpec *s = &g->knobs[k];
        if (s->low == 0 && s->high == 0)
            continue;
        CHECK(s->low >= lo[k] && s->low <= hi[k], &s->low, s,
              "ranges %s low must be between %g and %g, got %g", range_knob_name(k), lo[k], hi[k],
              s->low);
        CHECK(s->high >= lo[k] && s->high <= hi[k], &s->high, s,
              "ranges %s high must be between %g and %g, got %g", range_knob_name(k), lo[k],
              hi[k], s->high);
        CHECK(s->low <= s->high, &s->low, s, "ranges %s: low %g is above high %g",
              range_knob_name(k), s->low, s->high);
    }
    return 0;
}

/* Every value rule of PLAN-FORMAT.md.  `locs` is NULL for in-memory plans. */
/* YYYY-MM-DD, or empty. */
static bool date_ok(const char *d)
{
    if (!d[0])
        return true;
    for (int i = 0; i < 10; i++)
        if (i == 4 || i == 7 ? d[i] != '-' : !isdigit((unsigned char)d[i]))
            return false;
    return d[10] == '\0';
}

static int check_quote(Rules *r, const Quote *q, const char *key, double max)
{
    bool given = q->source[0] || q->value != 0 || q->date[0];
    if (!given)
        return 0;
    CHECK(q->source[0] && text_ok(q->source, sizeof q->source), q->source, q,
          "site.prices.%s: a price needs a source (your quote, a web page)", key);
    CHECK(text_ok(q->date, sizeof q->date) && date_ok(q->date), q->date, q,
          "site.prices.%s: date must be YYYY-MM-DD", key);
    CHECK(isfinite(q->value) && q->value >= 0 && q->value <= max, &q->value, q,
          "site.prices.%s: value must be between 0 and %g, got %g", key, max, q->value);
    return 0;
}

static int check_prices(Rules *r, const PriceSpec *ps, const Catalog *cat)
{
    for (int i = 0; i < ps->n_nodes; i++) {
        const NodeQuote *q = &ps->nodes[i];
        CHECK(q->accelerator[0] && text_ok(q->accelerator, sizeof q->accelerator), q->accelerator,
              q, "site.prices.nodes: each node price names its accelerator");
        if (check_accel_id(r, q->accelerator, q->accelerator, q, cat, "site.prices.nodes"))
            return -1;
        CHECK(q->source[0] && text_ok(q->source, sizeof q->source), q->source, q,
              "site.prices.nodes: the %s price needs a source (your quote, a web page)",
              q->accelerator);
        CHECK(text_ok(q->date, sizeof q->date) && date_ok(q->date), q->date, q,
              "site.prices.nodes: date must be YYYY-MM-DD");
        CHECK(isfinite(q->usd) && q->usd > 0 && q->usd <= 1e9, &q->usd, q,
              "site.prices.nodes: usd must be more than $0 and at most $1e9 per node, got %g",
              q->usd);
        for (int k = 0; k < i; k++)
            CHECK(strcasecmp(ps->nodes[k].accelerator, q->accelerator) != 0, q->accelerator, q,
                  "site.prices.nodes: %s is priced twice", q->accelerator);
    }
    for (int i = 0; i < ps->n_discounts; i++) {
        const DiscountQuote *q = &ps->discounts[i];
        CHECK(!strcasecmp(q->provider, "aws") || !strcasecmp(q->provider, "gcp") ||
                  !strcasecmp(q->provider, "azure"),
              q->provider, q, "site.prices.discounts: provider must be aws, gcp or azure, got '%.20s'",
              text_ok(q->provider, sizeof q->provider) ? q->provider : "?");
        CHECK(q->term >= PRICING_ON_DEMAND && q->term <= PRICING_SPOT, &q->term, q,
              "site.prices.discounts: unknown term");
        CHECK(q->source[0] && text_ok(q->source, sizeof q->source), q->source, q,
              "site.prices.discounts: the %s %s discount needs a source", q->provider,
              pricing_names[q->term]);
        CHECK(text_ok(q->date, sizeof q->date) && date_ok(q->date), q->date, q,
              "site.prices.discounts: date must be YYYY-MM-DD");
        CHECK(isfinite(q->discount) && q->discount >= 0 && q->discount < 1, &q->discount, q,
              "site.prices.discounts: discount must be at least 0 and below 100 %%, got %g",
              q->discount);
        for (int k = 0; k < i; k++)
            CHECK(strcasecmp(ps->discounts[k].provider, q->provider) != 0 ||
                      ps->discounts[k].term != q->term,
                  q->provider, q, "site.prices.discounts: %s %s is given twice", q->provider,
                  pricing_names[q->term]);
    }
    if (check_quote(r, &ps->storage_usd_per_pb, "storage_usd_per_pb", 1e9) ||
        check_quote(r, &ps->storage_w_per_pb, "storage_w_per_pb", 1e7) ||
        check_quote(r, &ps->facility_usd_per_kw, "facility_usd_per_kw", 1e6) ||
        check_quote(r, &ps->staff_usd_per_mw_year, "staff_usd_per_mw_year", 1e9) ||
        check_quote(r, &ps->depreciation_years, "depreciation_years", 50) ||
        check_quote(r, &ps->resale, "resale", 1) || check_quote(r, &ps->lease_rate, "lease_rate", 1))
        return -1;
    CHECK(!ps->depreciation_years.source[0] || ps->depreciation_years.value > 0,
          &ps->depreciation_years.value, &ps->depreciation_years,
          "site.prices.depreciation_years: value must be more than 0 years");
    return 0;
}

static int check_plan(const Plan *p, const Catalog *cat, Rules *r)
{
    CHECK(p->format == PLAN_FORMAT_VERSION, &p->format, NULL,
          "unsupported format %d: this gpuplan reads format %d", p->format, PLAN_FORMAT_VERSION);
    CHECK(p->name[0] != '\0', p->name, NULL, "the plan needs a name (name: …)");
    CHECK(plan_name_ok(p->name), p->name, NULL,
          "invalid plan name '%.64s': use 1-64 letters, digits, '.', '_', '-' or spaces",
          text_ok(p->name, sizeof p->name) ? p->name : "?");
    CHECK(text_ok_ex(p->description, sizeof p->description, true), p->description, NULL,
          "description must be printable text (no control characters)");
    CHECK(p->accelerator[0] && text_ok(p->accelerator, sizeof p->accelerator), p->accelerator,
          NULL, "accelerator must be a catalog id such as H100-SXM");
    if (check_accel_id(r, p->accelerator, p->accelerator, NULL, cat, "accelerator"))
        return -1;
    CHECK(p->horizon_years > 0 && p->horizon_years <= 30, &p->horizon_years, NULL,
          "horizon_years must be more than 0 and at most 30, got %g", p->horizon_years);
    CHECK(p->n_workloads >= 0 && p->n_workloads <= PLAN_MAX_WORKLOADS, &p->n_workloads, NULL,
          "at most %d workloads", PLAN_MAX_WORKLOADS);
    const TenancySpec *t = &p->tenancy;
    CHECK(t->n_teams >= 0 && t->n_teams <= PLAN_MAX_TEAMS, &t->n_teams, NULL,
          "at most %d teams", PLAN_MAX_TEAMS);
    CHECK(p->n_workloads > 0 || t->n_teams > 0 || t->trace[0], p, NULL,
          "a plan needs at least one workload or one team");

    for (int i = 0; i < p->n_workloads; i++) {
        const Workload *w = &p->workloads[i];
        if (check_workload(r, p, w, cat))
            return -1;
        for (int k = 0; k < i; k++)
            CHECK(strcmp(p->workloads[k].name, w->name) != 0, w->name, w,
                  "duplicate workload name '%s'", w->name);
    }

    const SiteSpec *s = &p->site;
    CHECK(s->kind == SITE_ONPREM || s->kind == SITE_CLOUD, &s->kind, NULL, "unknown site kind");
    CHECK(text_ok(s->instance, sizeof s->instance), s->instance, NULL,
          "site instance must be printable text");
    if (s->kind == SITE_CLOUD) {
        CHECK(s->instance[0], s->instance, NULL, "a cloud site needs an instance (e.g. p5.48xlarge)");
        if (cat && !catalog_find_instance(cat, s->instance)) {
            const char *ids[512];
            size_t n = 0;
            for (size_t i = 0; i < cat->n_instances && n < 512; i++)
                ids[n++] = cat->instances[i].id;
            const char *near_id = diag_nearest(s->instance, ids, n);
            return rule_fail(r, s->instance, NULL, "site: unknown instance '%s'%s%s%s", s->instance,
                             near_id ? "; did you mean '" : "", near_id ? near_id : "",
                             near_id ? "'?" : "");
        }
    }
    CHECK(s->pricing >= PRICING_ON_DEMAND && s->pricing <= PRICING_SPOT, &s->pricing, NULL,
          "unknown pricing");
    CHECK(s->rack_power_kw > 0 && s->rack_power_kw <= 1000, &s->rack_power_kw, NULL,
          "site rack_power_kw must be more than 0 and at most 1000, got %g", s->rack_power_kw);
    CHECK(s->cooling == COOLING_AIR || s->cooling == COOLING_LIQUID, &s->cooling, NULL,
          "unknown cooling");
    CHECK(s->pue >= 1 && s->pue <= 3, &s->pue, NULL,
          "site pue must be between 1 and 3, got %g", s->pue);
    CHECK(s->power_price_kwh >= 0 && s->power_price_kwh <= 10, &s->power_price_kwh, NULL,
          "site power_price_kwh must be between $0 and $10, got %g", s->power_price_kwh);
    CHECK(s->headroom >= 0 && s->headroom <= 1, &s->headroom, NULL,
          "site headroom must be a fraction between 0 and 1, got %g", s->headroom);

    if (check_prices(r, &s->prices, cat))
        return -1;

    const NetworkSpec *n = &p->network;
    CHECK(n->fabric == FABRIC_INFINIBAND || n->fabric == FABRIC_ROCE, &n->fabric, NULL,
          "unknown fabric");
    CHECK(n->link_bps > 0 && n->link_bps <= 1e14, &n->link_bps, NULL,
          "network link must be more than 0 and at most 100Tb/s");
    CHECK(n->topology == TOPO_RAIL_OPTIMIZED || n->topology == TOPO_FAT_TREE, &n->topology, NULL,
          "unknown topology");
    CHECK(n->oversubscription >= 1 && n->oversubscription <= 64, &n->oversubscription, NULL,
          "network oversubscription must be between 1 (non-blocking) and 64, got %g",
          n->oversubscription);
    CHECK(n->switch_ports >= 4 && n->switch_ports <= 4096 && n->switch_ports % 2 == 0,
          &n->switch_ports, NULL, "network switch_ports must be an even number from 4 to 4096, got %d",
          n->switch_ports);

    const StorageSpec *st = &p->storage;
    CHECK(st->system >= STORAGE_LUSTRE && st->system <= STORAGE_NFS, &st->system, NULL,
          "unknown storage system");
    CHECK(st->dataset_bytes >= 0 && st->dataset_bytes <= 1e21, &st->dataset_bytes, NULL,
          "storage dataset must be at most 1000EB");
    CHECK(st->checkpoints_kept >= 1 && st->checkpoints_kept <= 1000, &st->checkpoints_kept, NULL,
          "storage checkpoints_kept must be between 1 and 1000, got %d", st->checkpoints_kept);
    CHECK(st->checkpoint_stall_s > 0 && st->checkpoint_stall_s <= 86400, &st->checkpoint_stall_s,
          NULL, "storage checkpoint_stall must be more than 0 and at most a day");

    CHECK(t->gpus >= 0 && t->gpus <= MAX_GPUS, &t->gpus, NULL,
          "tenancy gpus must be auto or between 1 and %d, got %d", MAX_GPUS, t->gpus);
    CHECK(t->policy >= POLICY_FIFO && t->policy <= POLICY_PRIORITY, &t->policy, NULL,
          "unknown policy");
    CHECK(t->restore_s >= 0 && t->restore_s <= 30 * 86400.0, &t->restore_s, NULL,
          "tenancy restore must be at most 30d");
    CHECK(t->horizon_s >= 3600 && t->horizon_s <= 366 * 86400.0, &t->horizon_s, NULL,
          "tenancy horizon must be between 1h and 366d");
    CHECK(t->wait_p95_s > 0 && t->wait_p95_s <= t->horizon_s, &t->wait_p95_s, NULL,
          "tenancy wait_p95 must be more than 0 and at most the horizon");
    /* At least 100 h: 500x worse than measured fleets (Llama 3, Dubey et al.
     * 2024 §3.3.4: 419 interruptions in 54 days on 16,384 GPUs, ~50,000 h per
     * GPU); below that the replay is failures only, and its event count
     * (GPUs x horizon / MTBF) grows without bound (1e-320h hung eval). */
    CHECK(t->mtbf_gpu_h >= 100 && t->mtbf_gpu_h <= 1e8, &t->mtbf_gpu_h, NULL,
          "tenancy mtbf_gpu must be between 100h and 100000000h, got %gh", t->mtbf_gpu_h);
    CHECK(text_ok(t->trace, sizeof t->trace), t->trace, NULL, "tenancy trace must be a path");
    long long quota = 0;
    for (int i = 0; i < t->n_teams; i++) {
        const Team *tm = &t->teams[i];
        if (check_team(r, p, tm, cat))
            return -1;
        for (int k = 0; k < i; k++)
            CHECK(strcmp(t->teams[k].name, tm->name) != 0, tm->name, tm,
                  "duplicate team name '%s'", tm->name);
        quota += tm->quota_gpus;
    }
    CHECK(t->gpus == 0 || quota <= t->gpus, &t->gpus, NULL,
          "team quotas add up to %lld GPUs, more than the tenancy pool's %d", quota, t->gpus);
    if (check_ranges(r, &p->ranges))
        return -1;
    /* Last, what the rules above leave unchecked (keys of the other
     * workload kind): every value must survive the trip through a file. */
    return check_writable(p, r);
}

int plan_validate(const Plan *p, const Catalog *cat, Diag *d)
{
    Rules r = {d, "", NULL, NULL};
    if (!p) {
        diag_set(d, "", 0, 0, "no plan");
        return -1;
    }
    return check_plan(p, cat, &r);
}

/* ================================================================ schema */

typedef enum {
    T_INT,    /* int, a count (8k ok) that must be whole */
    T_DOUBLE, /* double, a quantity of `qty` */
    T_BOOL,
    T_TRI,    /* int -1 auto / 0 false / 1 true */
    T_ENUM,   /* int-sized enum, names[v - base] */
    T_STR,    /* char[size] */
    T_U64,
    T_MAP,    /* embedded struct described by `sub` */
    T_SEQ,    /* array of sub->elem_size, count at `count_off` */
    T_CUSTOM, /* `parse` handles it; `write` writes it */
} FieldType;

/* Field flags. */
enum {
    F_FIRST = 1 << 0,  /* parsed before the other keys of its mapping */
    F_TRAIN = 1 << 1,  /* a training key: written for inference only when set */
    F_INFER = 1 << 2,  /* an inference key: written for training only when set */
    F_OPT = 1 << 3,    /* written only when it differs from the default */
    F_FLOW = 1 << 4,   /* written as a one-line flow mapping (T_MAP / T_SEQ items) */
    F_NOWRITE = 1 << 5,/* input-only alias (global_batch_tokens) */
    F_LINES = 1 << 6,  /* text that may span lines (description) */
    F_SIGNED = 1 << 7, /* a number that may be negative (ranges model_band) */
};

typedef struct Ctx Ctx;
typedef struct Field Field;
typedef struct Schema Schema;
typedef struct Out Out;

struct Field {
    const char *key;
    FieldType type;
    size_t off;
    size_t size;                /* T_STR: buffer size; T_SEQ: capacity */
    QuantityKind qty;
    double key_unit;            /* durations, rates: a bare number's unit (s, bits/s) */
    double store_unit;          /* durations, rates: the stored field's unit */
    const char *const *names;   /* T_ENUM */
    int n_names;
    int base;                   /* T_ENUM value of names[0] */
    const char *keyword;        /* "auto" / "unlimited" */
    double keyword_value;
    const Schema *sub;          /* T_MAP, T_SEQ */
    size_t count_off;           /* T_SEQ: int count in the parent */
    int (*parse)(Ctx *, const Field *, yaml_node_t *, void *obj);
    unsigned flags;
    const char *comment;
};

struct Schema {
    const char *name;           /* "workload": used in messages */
    const Field *fields;
    size_t n_fields;
    size_t elem_size;           /* T_SEQ elements */
    /* Defaults of a new element; `like` (when writing) is the element whose
     * defaults are wanted (a workload's depend on its kind). */
    void (*init)(void *elem, const void *like);
    int (*finish)(Ctx *, yaml_node_t *map, void *elem);
    /* Writer: leave out a field that this element's other keys make
     * redundant (a MIG or elastic job's gpus). */
    bool (*skip)(const Field *f, const void *obj);
};

#define FLD(type, member) offsetof(type, member)
#define COUNT_OF(a) (sizeof a / sizeof a[0])

/* -------------------------------------------------------- parse context */

struct Ctx {
    yaml_document_t *doc;
    const char *file;
    Diag *d;
    Locs locs;
    bool oom;
    /* global_batch_tokens of the workload being read */
    bool have_gbt;
    double gbt;
    yaml_mark_t gbt_mark;
};

__attribute__((format(printf, 3, 4)))
static int node_err(Ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    char msg[sizeof c->d->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_set(c->d, c->file, n ? (int)n->start_mark.line + 1 : 0,
             n ? (int)n->start_mark.column + 1 : 0, "%s", msg);
    return -1;
}

static int mark_loc(Ctx *c, const void *addr, const yaml_node_t *n)
{
    if (c->locs.n == c->locs.cap) {
        size_t cap = c->locs.cap ? c->locs.cap * 2 : 256;
        Loc *v = realloc(c->locs.v, cap * sizeof *v);
        if (!v) {
            c->oom = true;
            diag_set(c->d, c->file, 0, 0, "out of memory");
            return -1;
        }
        c->locs.v = v;
        c->locs.cap = cap;
    }
    c->locs.v[c->locs.n++] = (Loc){addr, (int)n->start_mark.line + 1,
                                   (int)n->start_mark.column + 1};
    return 0;
}

static const char *node_kind_text(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_MAPPING_NODE: return "a mapping";
    case YAML_SEQUENCE_NODE: return "a list";
    default: return "a value";
    }
}

/* The scalar text of n, or NULL (with an error) when n is not a scalar or
 * carries a NUL byte (possible through a "\0" escape). */
static const char *scalar_text(Ctx *c, const Field *f, yaml_node_t *n, const char *expected)
{
    if (n->type != YAML_SCALAR_NODE) {
        node_err(c, n, "%s: expected %s, got %s", f->key, expected, node_kind_text(n));
        return NULL;
    }
    const char *s = (const char *)n->data.scalar.value;
    if (strlen(s) != n->data.scalar.length) {
        node_err(c, n, "%s: a NUL character is not allowed here", f->key);
        return NULL;
    }
    return s;
}

static bool is_plain_null(const yaml_node_t *n)
{
    if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *s = (const char *)n->data.scalar.value;
    return s[0] == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
           strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

static const char *expected_text(const Field *f)
{
    switch (f->type) {
    case T_INT: return "a whole number";
    case T_BOOL: return "true or false";
    case T_TRI: return "true, false or auto";
    case T_ENUM: return "a name";
    case T_STR: return "text";
    case T_U64: return "a whole number";
    case T_MAP: return "a mapping";
    case T_SEQ: return "a list";
    case T_DOUBLE:
    case T_CUSTOM: break;
    }
    return "a number";
}

/* --------------------------------------------------------- scalar values */

/* Parse `text` for a numeric field into *out, in the field's stored unit.
 * Used by the reader and, to prove exactness, by the writer.  Returns 0, or
 * -1 with a message (without the key) in err. */
static int parse_number(const Field *f, const char *text, double *out, char *err, size_t errlen)
{
    if (f->flags & F_SIGNED) {
        const char *t = text;
        while (isspace((unsigned char)*t))
            t++;
        if (*t == '-' && t[1] != '-' && t[1] != '+') {
            Field pos = *f;
            pos.flags &= ~(unsigned)F_SIGNED;
            if (parse_number(&pos, t + 1, out, err, errlen))
                return -1;
            *out = -*out;
            return 0;
        }
    }
    if (f->keyword && strcasecmp(text, f->keyword) == 0) {
        *out = f->keyword_value;
        return 0;
    }
    QuantityKind q = f->type == T_INT ? QTY_COUNT : f->qty;
    double v;
    if (q == QTY_DURATION || q == QTY_RATE) {
        /* A bare number is in the key's unit; keep it exact when the key's
         * unit is the stored unit (hours: 6 → 6, not 6*3600/3600). */
        char *end;
        const char *t = text;
        while (isspace((unsigned char)*t))
            t++;
        double x = strtod(t, &end);
        while (isspace((unsigned char)*end))
            end++;
        bool bare = end != t && *end == '\0' && *t != '-' && *t != '+' &&
                    (isdigit((unsigned char)*t) || *t == '.') && !strpbrk(t, "xXpPnNiI");
        if (bare && isfinite(x) && f->key_unit == f->store_unit) {
            *out = x;
            return 0;
        }
        if (quantity_parse(text, q, f->key_unit, &v, err, errlen))
            return -1;
        v = f->store_unit == 1 ? v : v / f->store_unit;
    } else if (quantity_parse(text, q, 1, &v, err, errlen)) {
        return -1;
    }
    if (f->type == T_INT) {
        if (v != floor(v)) {
            snprintf(err, errlen, "expected a whole number, got '%.40s'", text);
            return -1;
        }
        if (v > INT_MAX) {
            snprintf(err, errlen, "'%.40s' is too large (at most %d)", text, INT_MAX);
            return -1;
        }
    }
    *out = v;
    return 0;
}

static int parse_bool_text(const char *s, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on"};
    static const char *const no[] = {"false", "no", "off"};
    for (int i = 0; i < 3; i++) {
        if (strcasecmp(s, yes[i]) == 0) {
            *out = true;
            return 0;
        }
        if (strcasecmp(s, no[i]) == 0) {
            *out = false;
            return 0;
        }
    }
    return -1;
}

static void copy_text(char *dst, size_t cap, const char *src)
{
    memset(dst, 0, cap);
    memcpy(dst, src, strlen(src));
}

static int parse_map(Ctx *c, const Schema *s, yaml_node_t *map, void *obj);
static int parse_field(Ctx *c, const Field *f, yaml_node_t *n, void *obj);

static int parse_enum_value(Ctx *c, const Field *f, yaml_node_t *n, int *out)
{
    const char *s = scalar_text(c, f, n, "a name");
    if (!s)
        return -1;
    for (int i = 0; i < f->n_names; i++) {
        if (strcasecmp(s, f->names[i]) == 0) {
            *out = f->base + i;
            return 0;
        }
    }
    char list[200] = "";
    size_t used = 0;
    for (int i = 0; i < f->n_names; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", f->names[i]);
        if (w < 0 || (size_t)w >= sizeof list - used)
            break;
        used += (size_t)w;
    }
    const char *near = diag_nearest(s, f->names, (size_t)f->n_names);
    return node_err(c, n, "%s: unknown value '%.40s'%s%s%s; expected one of %s", f->key, s,
                    near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "", list);
}

static int parse_field(Ctx *c, const Field *f, yaml_node_t *n, void *obj)
{
    char *base = obj;
    void *at = base + f->off;
    char err[300];
    switch (f->type) {
    case T_INT:
    case T_DOUBLE: {
        const char *s = scalar_text(c, f, n, expected_text(f));
        if (!s)
            return -1;
        double v;
        if (is_plain_null(n))
            return node_err(c, n, "%s: expected %s, got an empty value", f->key,
                            f->type == T_INT ? "a whole number" : "a number");
        if (parse_number(f, s, &v, err, sizeof err))
            return node_err(c, n, "%s: %s", f->key, err);
        if (f->type == T_INT)
            *(int *)at = (int)v;
        else
            *(double *)at = v;
        return mark_loc(c, at, n);
    }
    case T_U64: {
        const char *s = scalar_text(c, f, n, "a whole number");
        if (!s)
            return -1;
        char *end;
        errno = 0;
        while (isspace((unsigned char)*s))
            s++;
        unsigned long long v = strtoull(s, &end, 10);
        while (isspace((unsigned char)*end))
            end++;
        if (!isdigit((unsigned char)*s) || *end || errno)
            return node_err(c, n, "%s: expected a whole number from 0 to 18446744073709551615, got '%.40s'",
                            f->key, s);
        *(uint64_t *)at = (uint64_t)v;
        return mark_loc(c, at, n);
    }
    case T_BOOL: {
        const char *s = scalar_text(c, f, n, "true or false");
        if (!s)
            return -1;
        bool b;
        if (parse_bool_text(s, &b))
            return node_err(c, n, "%s: expected true or false, got '%.40s'", f->key, s);
        *(bool *)at = b;
        return mark_loc(c, at, n);
    }
    case T_TRI: {
        const char *s = scalar_text(c, f, n, "true, false or auto");
        if (!s)
            return -1;
        bool b;
        if (strcasecmp(s, "auto") == 0)
            *(int *)at = -1;
        else if (parse_bool_text(s, &b) == 0)
            *(int *)at = b ? 1 : 0;
        else
            return node_err(c, n, "%s: expected true, false or auto, got '%.40s'", f->key, s);
        return mark_loc(c, at, n);
    }
    case T_ENUM: {
        int v;
        if (parse_enum_value(c, f, n, &v))
            return -1;
        *(int *)at = v;
        return mark_loc(c, at, n);
    }
    case T_STR: {
        const char *s = scalar_text(c, f, n, "text");
        if (!s)
            return -1;
        if (is_plain_null(n))
            s = "";
        if (strlen(s) >= f->size)
            return node_err(c, n, "%s: too long (at most %zu bytes), got '%.40s…'", f->key,
                            f->size - 1, s);
        copy_text(at, f->size, s);
        return mark_loc(c, at, n);
    }
    case T_MAP:
        if (is_plain_null(n))
            return 0; /* `site:` with nothing under it: the defaults */
        if (n->type != YAML_MAPPING_NODE)
            return node_err(c, n, "%s: expected a mapping, got %s", f->key, node_kind_text(n));
        if (mark_loc(c, at, n))
            return -1;
        return parse_map(c, f->sub, n, at);
    case T_SEQ: {
        int *count = (int *)(base + f->count_off);
        *count = 0;
        if (is_plain_null(n))
            return 0;
        if (n->type != YAML_SEQUENCE_NODE)
            return node_err(c, n, "%s: expected a list (- …), got %s", f->key, node_kind_text(n));
        for (yaml_node_item_t *it = n->data.sequence.items.start;
             it < n->data.sequence.items.top; it++) {
            yaml_node_t *item = yaml_document_get_node(c->doc, *it);
            if (!item)
                return node_err(c, n, "%s: broken list", f->key);
            if ((size_t)*count >= f->size)
                return node_err(c, item, "%s: too many entries (at most %zu)", f->key, f->size);
            if (item->type != YAML_MAPPING_NODE)
                return node_err(c, item, "%s: each entry must be a mapping (name: …), got %s",
                                f->key, node_kind_text(item));
            void *elem = (char *)at + (size_t)*count * f->sub->elem_size;
            f->sub->init(elem, NULL);
            c->have_gbt = false;
            (*count)++;
            if (mark_loc(c, elem, item) || parse_map(c, f->sub, item, elem))
                return -1;
            if (f->sub->finish && f->sub->finish(c, item, elem))
                return -1;
        }
        return 0;
    }
    case T_CUSTOM:
        return f->parse(c, f, n, obj);
    }
    return -1;
}

#define MAX_FIELDS 64

static int unknown_key(Ctx *c, const Schema *s, yaml_node_t *k, const char *key)
{
    /* Keys people expect that are derived, not given. */
    if (strcmp(s->name, "parallel") == 0 && strcasecmp(key, "dp") == 0)
        return node_err(c, k, "unknown key 'dp' in parallel: data parallelism is derived, "
                              "gpus / (tp x pp x cp x ep)");
    const char *names[MAX_FIELDS];
    for (size_t j = 0; j < s->n_fields; j++)
        names[j] = s->fields[j].key;
    const char *near = diag_nearest(key, names, s->n_fields);
    if (near)
        return node_err(c, k, "unknown key '%.60s' in %s; did you mean '%s'?", key, s->name, near);
    /* A key of a nested mapping given one level too high
     * (`layers:` directly in a workload): say where it belongs. */
    for (size_t j = 0; j < s->n_fields; j++) {
        const Schema *sub = s->fields[j].sub;
        if (!sub || s->fields[j].type == T_SEQ)
            continue;
        const char *subnames[MAX_FIELDS];
        for (size_t m = 0; m < sub->n_fields; m++)
            subnames[m] = sub->fields[m].key;
        const char *in_sub = diag_nearest(key, subnames, sub->n_fields);
        if (in_sub && strcmp(in_sub, key) == 0)
            return node_err(c, k, "unknown key '%.60s' in %s; it belongs under %s:", key, s->name,
                            s->fields[j].key);
        if (in_sub)
            return node_err(c, k, "unknown key '%.60s' in %s; did you mean '%s' (under %s:)?", key,
                            s->name, in_sub, s->fields[j].key);
    }
    return node_err(c, k, "unknown key '%.60s' in %s", key, s->name);
}

/* Collect the keys of `map` into keys[]/vals[] (indexed like s->fields).
 * Explicit keys must be unique; YAML merge keys (`<<: *defaults`, a mapping
 * or a list of them) fill only the keys not given explicitly, the earlier
 * merged mapping winning (YAML 1.1 merge type).  `depth` bounds merges of
 * merges. */
static int collect_keys(Ctx *c, const Schema *s, yaml_node_t *map, yaml_node_t **keys,
                        yaml_node_t **vals, bool merged, int depth)
{
    yaml_node_t *merges[16];
    int n_merges = 0;
    for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
         pr++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, pr->key);
        yaml_node_t *v = yaml_document_get_node(c->doc, pr->value);
        if (!k || !v)
            return node_err(c, map, "broken mapping in %s", s->name);
        if (k->type != YAML_SCALAR_NODE)
            return node_err(c, k, "keys in %s must be plain names, got %s", s->name,
                            node_kind_text(k));
        const char *key = (const char *)k->data.scalar.value;
        if (strcmp(key, "<<") == 0 && k->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
            if (depth >= 4)
                return node_err(c, k, "merge keys (<<) nested too deeply in %s", s->name);
            if (v->type == YAML_MAPPING_NODE) {
                if (n_merges < 16)
                    merges[n_merges++] = v;
                continue;
            }
            if (v->type == YAML_SEQUENCE_NODE) {
                for (yaml_node_item_t *it = v->data.sequence.items.start;
                     it < v->data.sequence.items.top; it++) {
                    yaml_node_t *m = yaml_document_get_node(c->doc, *it);
                    if (!m || m->type != YAML_MAPPING_NODE)
                        return node_err(c, m ? m : v, "<<: merges mappings, got %s",
                                        m ? node_kind_text(m) : "nothing");
                    if (n_merges < 16)
                        merges[n_merges++] = m;
                }
                continue;
            }
            return node_err(c, v, "<<: merges a mapping (such as *defaults), got %s",
                            node_kind_text(v));
        }
        size_t i;
        for (i = 0; i < s->n_fields; i++)
            if (strcmp(s->fields[i].key, key) == 0)
                break;
        if (i == s->n_fields)
            return unknown_key(c, s, k, key);
        if (merged) {
            if (!keys[i]) {
                keys[i] = k;
                vals[i] = v;
            }
            continue;
        }
        if (keys[i])
            return node_err(c, k, "duplicate key '%s' in %s (first at line %d)", key, s->name,
                            (int)keys[i]->start_mark.line + 1);
        keys[i] = k;
        vals[i] = v;
    }
    for (int m = 0; m < n_merges; m++)
        if (collect_keys(c, s, merges[m], keys, vals, true, depth + 1))
            return -1;
    return 0;
}

static int parse_map(Ctx *c, const Schema *s, yaml_node_t *map, void *obj)
{
    yaml_node_t *vals[MAX_FIELDS] = {0};
    yaml_node_t *keys[MAX_FIELDS] = {0};
    if (collect_keys(c, s, map, keys, vals, false, 0))
        return -1;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < s->n_fields; i++) {
            const Field *f = &s->fields[i];
            if (!vals[i] || ((f->flags & F_FIRST) != 0) != (pass == 0))
                continue;
            if (parse_field(c, f, vals[i], obj))
                return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------- custom keys */

/* `kind` comes first and resets the workload to that kind's defaults. */
static int parse_kind(Ctx *c, const Field *f, yaml_node_t *n, void *obj)
{
    int k;
    if (parse_enum_value(c, f, n, &k))
        return -1;
    Workload *w = obj;
    workload_init(w, (WorkloadKind)k);
    return mark_loc(c, &w->kind, n);
}

/* `preset` comes first in a model: the named shape, then the overrides. */
static int parse_preset(Ctx *c, const Field *f, yaml_node_t *n, void *obj)
{
    const char *s = scalar_text(c, f, n, "a preset name");
    if (!s)
        return -1;
    ModelShape *m = obj;
    const ModelPreset *p = preset_find(s);
    if (!p) {
        size_t np;
        const ModelPreset *all = preset_all(&np);
        const char *names[64];
        size_t k = 0;
        char list[400] = "";
        size_t used = 0;
        for (size_t i = 0; i < np && k < 64; i++) {
            names[k++] = all[i].name;
            int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", all[i].name);
            if (w > 0 && (size_t)w < sizeof list - used)
                used += (size_t)w;
        }
        const char *near = diag_nearest(s, names, k);
        if (near)
            return node_err(c, n, "unknown preset '%.60s'; did you mean '%s'?", s, near);
        return node_err(c, n, "unknown preset '%.60s' (known: %s)", s, list);
    }
    *m = p->shape;
    copy_text(m->preset, sizeof m->preset, p->name);
    return mark_loc(c, m->preset, n);
}

static int parse_gbt(Ctx *c, const Field *f, yaml_node_t *n, void *obj)
{
    (void)obj;
    const char *s = scalar_text(c, f, n, "a number of tokens");
    if (!s)
        return -1;
    char err[300];
    double v;
    if (quantity_parse(s, QTY_COUNT, 1, &v, err, sizeof err))
        return node_err(c, n, "%s: %s", f->key, err);
    c->have_gbt = true;
    c->gbt = v;
    c->gbt_mark = n->start_mark;
    return 0;
}

static int finish_workload(Ctx *c, yaml_node_t *map, void *elem)
{
    Workload *w = elem;
    if (!c->have_gbt)
        return 0;
    yaml_node_t at = {.start_mark = c->gbt_mark};
    if (locs_find(&c->locs, &w->global_batch))
        return node_err(c, &at, "give global_batch (sequences) or global_batch_tokens, not both");
    if (w->seq_len < 1)
        return node_err(c, &at, "global_batch_tokens needs seq_len of at least 1");
    double seqs = c->gbt / w->seq_len;
    if (seqs != floor(seqs) || seqs < 1) {
        double lo = floor(seqs), hi = lo + 1;
        char alt[160] = "";
        if (lo >= 1)
            snprintf(alt, sizeof alt, "use %.0f or %.0f tokens", lo * w->seq_len, hi * w->seq_len);
        else
            snprintf(alt, sizeof alt, "use %.0f tokens", hi * w->seq_len);
        /* "16M tokens" usually means 2^24: offer the power of two nearby. */
        int e = c->gbt >= 1 && c->gbt < 1e18 ? (int)lround(log2(c->gbt)) : 0;
        double p2 = ldexp(1.0, e);
        if (e >= 10 && e <= 60 && fabs(p2 - c->gbt) <= 0.1 * c->gbt && fmod(p2, w->seq_len) == 0) {
            static const char *const iec[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
            size_t n = strlen(alt);
            snprintf(alt + n, sizeof alt - n, ", or %d%s (2^%d = %.0f sequences)",
                     1 << (e % 10), iec[e / 10 - 1], e, p2 / w->seq_len);
        }
        return node_err(c, &at,
                        "global_batch_tokens %.17g is not a multiple of seq_len %d "
                        "(%.17g / %d = %.3f sequences); %s",
                        c->gbt, w->seq_len, c->gbt, w->seq_len, seqs, alt);
    }
    if (seqs > INT_MAX)
        return node_err(c, &at, "global_batch_tokens %.17g is too large", c->gbt);
    w->global_batch = (int)seqs;
    (void)map;
    return mark_loc(c, &w->global_batch, &at);
}

/* A job must not give both gpus and an elastic range or a MIG slice. */
static int finish_job(Ctx *c, yaml_node_t *map, void *elem)
{
    JobClass *j = elem;
    (void)map;
    const Loc *g = locs_find(&c->locs, &j->gpus);
    if (!g)
        return 0;
    const Loc *other = locs_find(&c->locs, &j->max_gpus);
    if (!other)
        other = locs_find(&c->locs, &j->min_gpus);
    const char *what = "min_gpus/max_gpus";
    if (!other && j->mig[0]) {
        other = locs_find(&c->locs, j->mig);
        what = "mig";
    }
    if (!other)
        return 0;
    diag_set(c->d, c->file, g->line, g->col, "job '%s': give gpus or %s, not both", j->name, what);
    return -1;
}

/* ------------------------------------------------------------- tables */

static void init_none(void *elem, const void *like)
{
    (void)elem;
    (void)like;
}

static void init_workload(void *elem, const void *like)
{
    workload_init(elem, like ? ((const Workload *)like)->kind : WL_TRAINING);
}

static void init_team(void *elem, const void *like)
{
    (void)like;
    team_init(elem);
}

static void init_job(void *elem, const void *like)
{
    (void)like;
    jobclass_init(elem);
}

#define F_I(T, m, key, fl, cmt) {key, T_INT, FLD(T, m), 0, QTY_COUNT, 0, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL, fl, cmt}
#define F_IA(T, m, key, kw, kv, fl, cmt) {key, T_INT, FLD(T, m), 0, QTY_COUNT, 0, 0, NULL, 0, 0, kw, kv, NULL, 0, NULL, fl, cmt}
#define F_D(T, m, key, q, fl, cmt) {key, T_DOUBLE, FLD(T, m), 0, q, 1, 1, NULL, 0, 0, NULL, 0, NULL, 0, NULL, fl, cmt}
#define F_DA(T, m, key, q, kw, fl, cmt) {key, T_DOUBLE, FLD(T, m), 0, q, 1, 1, NULL, 0, 0, kw, 0, NULL, 0, NULL, fl, cmt}
#define F_DUR(T, m, key, ku, su, kw, fl, cmt) {key, T_DOUBLE, FLD(T, m), 0, QTY_DURATION, ku, su, NULL, 0, 0, kw, 0, NULL, 0, NULL, fl, cmt}
#define F_B(T, m, key, fl, cmt) {key, T_BOOL, FLD(T, m), 0, 0, 0, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL, fl, cmt}
#define F_T(T, m, key, fl, cmt) {key, T_TRI, FLD(T, m), 0, 0, 0, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL, fl, cmt}
#define F_E(T, m, key, names, base, fl, cmt) {key, T_ENUM, FLD(T, m), 0, 0, 0, 0, NAMES(names), base, NULL, 0, NULL, 0, NULL, fl, cmt}
#define F_S(T, m, key, fl, cmt) {key, T_STR, FLD(T, m), sizeof(((T *)0)->m), 0, 0, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL, fl, cmt}
#define F_M(T, m, key, sub, fl, cmt) {key, T_MAP, FLD(T, m), 0, 0, 0, 0, NULL, 0, 0, NULL, 0, &sub, 0, NULL, fl, cmt}
#define F_Q(T, m, cnt, key, sub, fl, cmt) {key, T_SEQ, FLD(T, m), COUNT_OF(((T *)0)->m), 0, 0, 0, NULL, 0, 0, NULL, 0, &sub, FLD(T, cnt), NULL, fl, cmt}
/* a mapping written only when it differs from the default (F_OPT) */
#define F_MO(T, m, key, sub, fl, cmt) {key, T_MAP, FLD(T, m), sizeof(((T *)0)->m), 0, 0, 0, NULL, 0, 0, NULL, 0, &sub, 0, NULL, fl, cmt}
#define F_C(T, m, key, fn, fl, cmt) {key, T_CUSTOM, FLD(T, m), 0, 0, 0, 0, NULL, 0, 0, NULL, 0, NULL, 0, fn, fl, cmt}

#define HOUR 3600.0
#define DAY 86400.0

static int parse_model(Ctx *c, const Field *f, yaml_node_t *n, void *obj);

static const Field model_fields[] = {
    F_C(ModelShape, preset, "preset", parse_preset, F_FIRST | F_OPT, NULL),
    F_I(ModelShape, layers, "layers", 0, NULL),
    F_I(ModelShape, hidden, "hidden", 0, NULL),
    F_I(ModelShape, ffn_hidden, "ffn_hidden", 0, NULL),
    F_I(ModelShape, heads, "heads", 0, NULL),
    F_I(ModelShape, kv_heads, "kv_heads", F_OPT, "default = heads (no GQA)"),
    F_I(ModelShape, head_dim, "head_dim", F_OPT, "default = hidden / heads"),
    F_I(ModelShape, vocab, "vocab", 0, NULL),
    F_B(ModelShape, glu, "glu", 0, "3-matrix (SwiGLU) MLP"),
    F_B(ModelShape, tied_embeddings, "tied_embeddings", 0, "output head shares the embedding"),
    F_I(ModelShape, experts, "experts", 0, "MoE routed experts; 1 = dense"),
    F_I(ModelShape, experts_per_token, "experts_per_token", 0, NULL),
    F_I(ModelShape, shared_experts, "shared_experts", 0, NULL),
    F_I(ModelShape, expert_ffn_hidden, "expert_ffn_hidden", 0, "0 = ffn_hidden"),
    F_I(ModelShape, dense_layers, "dense_layers", F_OPT, "leading dense layers"),
    F_I(ModelShape, moe_latent, "moe_latent", F_OPT, "LatentMoE width; 0 = none"),
    F_I(ModelShape, q_lora_rank, "q_lora_rank", F_OPT, "latent attention (MLA)"),
    F_I(ModelShape, kv_lora_rank, "kv_lora_rank", F_OPT, NULL),
    F_I(ModelShape, qk_rope_head_dim, "qk_rope_head_dim", F_OPT, NULL),
    F_I(ModelShape, qk_nope_head_dim, "qk_nope_head_dim", F_OPT, NULL),
    F_I(ModelShape, v_head_dim, "v_head_dim", F_OPT, NULL),
    F_I(ModelShape, window, "window", F_OPT, "sliding-window attention span, tokens; 0 = full"),
    F_I(ModelShape, window_layers, "window_layers", F_OPT, "layers with the window; 0 = all"),
    F_I(ModelShape, mtp_layers, "mtp_layers", F_OPT, "multi-token prediction modules (training)"),
    F_D(ModelShape, glu_clamp, "glu_clamp", QTY_NUMBER, F_OPT, "GLU inputs clamped to ±this; 0 = none"),
    F_B(ModelShape, linear_bias, "linear_bias", F_OPT, "attention and expert linears carry biases"),
    F_D(ModelShape, yarn_factor, "yarn_factor", QTY_NUMBER, F_OPT, "YaRN RoPE scaling factor; 0 = plain RoPE"),
    F_S(ModelShape, hybrid, "hybrid", F_OPT, "one symbol a layer: M Mamba-2, * attention, - MLP, E MoE"),
    F_I(ModelShape, mamba_heads, "mamba_heads", F_OPT, "0 = 2 x hidden / mamba_head_dim"),
    F_I(ModelShape, mamba_head_dim, "mamba_head_dim", F_OPT, "0 = 64"),
    F_I(ModelShape, mamba_state, "mamba_state", F_OPT, "SSM state size; 0 = 128"),
    F_I(ModelShape, mamba_groups, "mamba_groups", F_OPT, "B/C groups; 0 = 8"),
    F_I(ModelShape, mamba_conv, "mamba_conv", F_OPT, "conv1d width; 0 = 4"),
    F_I(ModelShape, mamba_chunk, "mamba_chunk", F_OPT, "SSD chunk length; 0 = 128"),
    F_DA(ModelShape, params, "params", QTY_COUNT, "auto", 0, "auto = derived from the shape"),
};
static const Schema model_schema = {"model", model_fields, COUNT_OF(model_fields), 0, init_none, NULL, NULL};

static const Field parallel_fields[] = {
    F_IA(ParallelSpec, tp, "tp", "auto", 0, 0, NULL),
    F_IA(ParallelSpec, pp, "pp", "auto", 0, 0, NULL),
    F_IA(ParallelSpec, vpp, "vpp", "auto", 0, 0, NULL),
    F_IA(ParallelSpec, cp, "cp", "auto", 0, 0, NULL),
    F_IA(ParallelSpec, ep, "ep", "auto", 0, 0, NULL),
    F_T(ParallelSpec, sp, "sp", 0, NULL),
    F_IA(ParallelSpec, etp, "etp", "auto", 0, F_OPT, "expert TP; set = ep drawn from tp x cp x dp"),
};
static const Schema parallel_schema = {"parallel", parallel_fields, COUNT_OF(parallel_fields), 0,
                                       init_none, NULL, NULL};

static const Field spec_fields[] = {
    F_I(SpeculativeSpec, draft, "draft", 0, NULL),
    F_D(SpeculativeSpec, acceptance, "acceptance", QTY_FRACTION, 0, NULL),
};
static const Schema spec_schema = {"speculative", spec_fields, COUNT_OF(spec_fields),
                                   sizeof(SpeculativeSpec), init_none, NULL, NULL};

static const Field disagg_fields[] = {
    F_IA(DisaggSpec, prefill_gpus, "prefill_gpus", "auto", 0, 0, NULL),
    F_IA(DisaggSpec, decode_gpus, "decode_gpus", "auto", 0, 0, NULL),
    F_IA(DisaggSpec, prefill_tp, "prefill_tp", "auto", 0, 0, NULL),
    F_IA(DisaggSpec, decode_tp, "decode_tp", "auto", 0, 0, NULL),
};
static const Schema disagg_schema = {"disaggregated", disagg_fields, COUNT_OF(disagg_fields),
                                     sizeof(DisaggSpec), init_none, NULL, NULL};

/* `disaggregated:` true | false | auto | {prefill_gpus: …, decode_gpus: …,
 * prefill_tp: …, decode_tp: …} (a mapping turns it on). */
static int parse_disagg(Ctx *c, const Field *f, yaml_node_t *n, void *obj)
{
    DisaggSpec *d = &((Workload *)obj)->disaggregated;
    if (is_plain_null(n))
        return 0;
    if (n->type == YAML_MAPPING_NODE) {
        d->mode = 1;
        if (mark_loc(c, d, n))
            return -1;
        return parse_map(c, &disagg_schema, n, d);
    }
    const char *v = scalar_text(c, f, n, "true, false, auto or a mapping {prefill_gpus: …}");
    if (!v)
        return -1;
    if (strcmp(v, "true") == 0)
        d->mode = 1;
    else if (strcmp(v, "false") == 0)
        d->mode = 0;
    else if (strcmp(v, "auto") == 0)
        d->mode = -1;
    else
        return node_err(c, n, "%s: expected true, false, auto or a mapping {prefill_gpus: …, "
                              "decode_gpus: …, prefill_tp: …, decode_tp: …}, got '%s'",
                        f->key, v);
    return mark_loc(c, d, n);
}

/* recompute_modules: a list of Megatron-Core module names ([core_attn,
 * moe_act]) or the same comma-separated in one value, kept as that text;
 * null (~) for none given. */
static int parse_recompute_modules(Ctx *c, const Field *f, yaml_node_t *n, void *obj)
{
    Workload *w = obj;
    char text[PLAN_RM_LEN] = "";
    size_t used = 0;
    if (is_plain_null(n)) { /* ~: not given (a merged row's list taken back) */
        w->recompute_modules[0] = '\0';
        return mark_loc(c, w->recompute_modules, n);
    }
    yaml_node_t *one = n;
    yaml_node_item_t *it = NULL, *top = NULL;
    if (n->type == YAML_SEQUENCE_NODE) {
        it = n->data.sequence.items.start;
        top = n->data.sequence.items.top;
        if (it == top)
            return node_err(c, n, "%s: list at least one of " RM_NAMES_OR
                                  " (or say recompute: none)", f->key);
    }
    for (;;) {
        if (it) {
            if (it >= top)
                break;
            one = yaml_document_get_node(c->doc, *it++);
            if (!one)
                return node_err(c, n, "%s: broken list", f->key);
        }
        const char *v = scalar_text(c, f, one, "module names");
        if (!v)
            return -1;
        char bad[80];
        if (!v[0] || !recompute_modules_mask(v, NULL, bad, sizeof bad))
            return node_err(c, one, "%s: '%s' is not a module: expected " RM_NAMES_OR, f->key,
                            v[0] ? bad : v);
        /* each comma-separated name, trimmed */
        const char *q = v, *name;
        size_t len;
        while (recompute_modules_next(&q, &name, &len)) {
            int k = snprintf(text + used, sizeof text - used, "%s%.*s", used ? "," : "",
                             (int)len, name);
            if (k < 0 || (size_t)k >= sizeof text - used)
                return node_err(c, one, "%s: the list is longer than %d characters", f->key,
                                PLAN_RM_LEN - 1);
            used += (size_t)k;
        }
        if (!it)
            break;
    }
    memcpy(w->recompute_modules, text, sizeof text);
    return mark_loc(c, w->recompute_modules, n);
}

static const Field workload_fields[] = {
    F_S(Workload, name, "name", 0, NULL),
    {"kind", T_CUSTOM, FLD(Workload, kind), 0, 0, 0, 0, NAMES(kind_names), 0, NULL, 0, NULL, 0,
     parse_kind, F_FIRST, "training | inference"},
    F_S(Workload, team, "team", F_OPT, "owner (a tenancy team)"),
    F_S(Workload, accelerator, "accelerator", F_OPT, "overrides the plan's"),
    {"model", T_CUSTOM, FLD(Workload, model), 0, 0, 0, 0, NULL, 0, 0, NULL, 0, &model_schema, 0,
     parse_model, 0, NULL},
    F_I(Workload, seq_len, "seq_len", F_TRAIN, "tokens per sequence"),
    F_D(Workload, tokens, "tokens", QTY_COUNT, F_TRAIN, "total training tokens"),
    F_I(Workload, global_batch, "global_batch", F_TRAIN, "sequences per step"),
    F_C(Workload, global_batch, "global_batch_tokens", parse_gbt, F_NOWRITE, NULL),
    F_IA(Workload, micro_batch, "micro_batch", "auto", 0, F_TRAIN, "auto = searched"),
    F_E(Workload, precision, "precision", precision_names, 0, 0, "fp32 | bf16 | fp16 | fp8 | fp4"),
    F_E(Workload, kv_precision, "kv_precision", precision_names, 0, F_INFER, "KV-cache precision"),
    F_D(Workload, optimizer_bytes_per_param, "optimizer_bytes_per_param", QTY_NUMBER, F_TRAIN,
        "weights+grads+optimizer bytes per param"),
    F_IA(Workload, zero, "zero", "auto", -1, F_TRAIN,
         "auto | 0 | 1 | 2 | 3 sharding over data parallel; auto = the framework's"),
    F_M(Workload, parallel, "parallel", parallel_schema, F_TRAIN | F_FLOW, "auto = searched"),
    F_E(Workload, recompute, "recompute", recompute_names, -1, F_TRAIN,
        "auto | none | selective | full"),
    F_C(Workload, recompute_modules, "recompute_modules", parse_recompute_modules, F_TRAIN | F_OPT,
        "with recompute selective: Megatron-Core modules recomputed"),
    F_I(Workload, recompute_layers, "recompute_layers", F_TRAIN | F_OPT,
        "with recompute full: layers per stage that recompute (0 = all)"),
    F_I(Workload, offload_layers, "offload_layers", F_TRAIN | F_OPT,
        "layers per stage whose activations are offloaded to host memory"),
    F_B(Workload, flash_attention, "flash_attention", F_TRAIN, NULL),
    F_B(Workload, dp_sync_after_backward, "dp_sync_after_backward", F_TRAIN | F_OPT,
        "DP gradient all-reduce after the backward pass (not overlapped)"),
    F_B(Workload, pipeline_split_embedding_loss, "pipeline_split_embedding_loss",
        F_TRAIN | F_OPT,
        "embedding and loss take one layer slot each in the pipeline split (Megatron-Core)"),
    F_B(Workload, no_dropout, "no_dropout", F_TRAIN | F_OPT,
        "dropout probability 0: no dropout masks kept for the backward"),
    F_B(Workload, flash_attention_v1, "flash_attention_v1", F_TRAIN | F_OPT,
        "the attention core runs FlashAttention 1 (flash-attn 1.x): half FlashAttention-2's speed"),
    F_B(Workload, eager_loss, "eager_loss", F_TRAIN | F_OPT,
        "the cross-entropy runs as eager PyTorch ops on fp32-cast logits (uncompiled torchtitan)"),
    F_B(Workload, eager_norm, "eager_norm", F_TRAIN | F_OPT,
        "the norms run as eager fp32 PyTorch ops, not a fused kernel (torchtitan rmsnorm)"),
    F_B(Workload, flash_attention_2, "flash_attention_2", F_TRAIN | F_OPT,
        "the attention core runs FlashAttention-2, not the profile's cuDNN kernel (TE < 1.2)"),
    F_B(Workload, fsdp_backward_post, "fsdp_backward_post", F_TRAIN | F_OPT,
        "FSDP1 BACKWARD_POST prefetch (Composer default): backward all-gathers not under compute"),
    F_B(Workload, grad_reduce_fp32, "grad_reduce_fp32", F_TRAIN | F_OPT,
        "DP gradient reduction in fp32 (FSDP reduce_dtype float32)"),
    F_B(Workload, tp_comm_exposed, "tp_comm_exposed", F_TRAIN | F_OPT,
        "TP collectives not overlapped with the GEMMs (recipe turns tp_comm_overlap off)"),
    F_B(Workload, cp_comm_exposed, "cp_comm_exposed", F_TRAIN | F_OPT,
        "CP K/V gathered before the attention, not overlapped (Llama 3's all-gather CP)"),
    F_D(Workload, ep_overlap, "ep_overlap", QTY_FRACTION, F_TRAIN | F_OPT,
        "share of MoE all-to-all hidden under compute (DualPipe: 1)"),
    F_B(Workload, delay_wgrad_compute, "delay_wgrad_compute", F_TRAIN | F_OPT,
        "with EP overlap the experts' weight-gradient GEMMs are deferred (Megatron)"),
    F_B(Workload, cuda_graph_attn, "cuda_graph_attn", F_TRAIN | F_OPT,
        "the recipe runs each layer's attention as a CUDA graph (Megatron scope attn)"),
    F_B(Workload, cuda_graph_full, "cuda_graph_full", F_TRAIN | F_OPT,
        "the recipe replays the whole forward-backward as CUDA graphs (full_iteration)"),
    F_T(Workload, moe_fused_dispatch, "moe_fused_dispatch", F_TRAIN | F_OPT,
        "MoE dispatch/combine permute while they communicate (DeepEP, HybridEP); auto = the framework's"),
    F_B(Workload, moe_round_robin, "moe_round_robin", F_TRAIN | F_OPT,
        "benchmark MoE routing: token t's j-th expert is (t*k + j) mod E (balanced, contiguous)"),
    F_D(Workload, moe_capacity_factor, "moe_capacity_factor", QTY_NUMBER, F_TRAIN | F_OPT,
        "token-dropping MoE: experts padded to this x their even share; 0 = dropless"),
    F_S(Workload, framework, "framework", F_TRAIN | F_OPT,
        "megatron | nemo | deepspeed | fsdp | maxtext (catalog frameworks)"),
    F_IA(Workload, gpus, "gpus", "auto", 0, F_TRAIN, "fixed size; auto = sized for target_days"),
    F_DUR(Workload, target_days, "target_days", DAY, DAY, NULL, F_TRAIN | F_OPT,
          "days; smallest GPU count that finishes in time"),
    F_DA(Workload, mfu, "mfu", QTY_FRACTION, "auto", F_TRAIN, "auto (modelled) or a fixed 0-1"),
    F_DUR(Workload, checkpoint_interval_s, "checkpoint_interval", 1, 1, "auto", F_TRAIN,
          "auto = Young/Daly optimum"),
    F_DUR(Workload, measured_step_s, "measured_step", 1, 1, NULL, F_TRAIN | F_OPT,
          "observed seconds per step (calibration input)"),
    F_D(Workload, measured_tokens_per_gpu_s, "measured_tokens_per_gpu", QTY_NUMBER,
        F_TRAIN | F_OPT, "observed tokens/s per GPU (calibration input)"),
    F_S(Workload, measured_source, "measured_source", F_TRAIN | F_OPT,
        "where the measurement comes from"),
    F_D(Workload, measured_memory_bytes, "measured_memory", QTY_BYTES, F_TRAIN | F_OPT,
        "observed peak memory per GPU (validation)"),
    F_I(Workload, prompt_tokens, "prompt_tokens", F_INFER, "mean prompt length"),
    F_I(Workload, output_tokens, "output_tokens", F_INFER, "mean generated length"),
    F_D(Workload, requests_per_s, "requests_per_s", QTY_COUNT, F_INFER, "sustained peak arrivals"),
    F_DUR(Workload, ttft_s, "ttft_ms", 0.001, 1, NULL, F_INFER, "time-to-first-token target, ms"),
    F_DUR(Workload, tpot_s, "tpot_ms", 0.001, 1, NULL, F_INFER, "time-per-output-token target, ms"),
    F_IA(Workload, tp, "tp", "auto", 0, F_INFER, "GPUs per replica; auto = searched"),
    F_IA(Workload, replicas, "replicas", "auto", 0, F_INFER, "auto = enough for the rate"),
    F_S(Workload, engine, "engine", F_INFER | F_OPT, "vllm | sglang | trtllm | tgi"),
    F_IA(Workload, max_batch, "max_batch", "auto", 0, F_INFER | F_OPT,
         "sequences in flight per replica; auto = the engine's"),
    F_IA(Workload, chunk_tokens, "chunk_tokens", "auto", 0, F_INFER | F_OPT,
         "tokens per engine iteration; auto = the engine's"),
    F_D(Workload, prefix_cache_hit, "prefix_cache_hit", QTY_FRACTION, F_INFER | F_OPT,
        "share of prompt tokens served from a prefix cache"),
    F_B(Workload, fp8_block_scales, "fp8_block_scales", F_INFER | F_OPT,
        "FP8 checkpoint with 128x128 block scales (DeepSeek-V3 recipe): MoE gathers move BF16"),
    F_M(Workload, speculative, "speculative", spec_schema, F_INFER | F_OPT | F_FLOW,
        "draft tokens per step, acceptance rate"),
    {"disaggregated", T_CUSTOM, FLD(Workload, disaggregated), 0, 0, 0, 0, NULL, 0, 0, NULL, 0,
     &disagg_schema, 0, parse_disagg, F_INFER | F_OPT, "separate prefill and decode pools"},
};
static int finish_workload(Ctx *c, yaml_node_t *map, void *elem);
static const Schema workload_schema = {"workload", workload_fields, COUNT_OF(workload_fields),
                                       sizeof(Workload), init_workload, finish_workload, NULL};

/* site.prices: the plan's own quotes, each with its source and date. */
static const Field quote_money_fields[] = {
    F_D(Quote, value, "value", QTY_MONEY, 0, NULL),
    F_S(Quote, source, "source", 0, NULL),
    F_S(Quote, date, "date", 0, "YYYY-MM-DD"),
};
static const Field quote_fraction_fields[] = {
    F_D(Quote, value, "value", QTY_FRACTION, 0, NULL),
    F_S(Quote, source, "source", 0, NULL),
    F_S(Quote, date, "date", 0, "YYYY-MM-DD"),
};
static const Field quote_number_fields[] = {
    F_D(Quote, value, "value", QTY_NUMBER, 0, NULL),
    F_S(Quote, source, "source", 0, NULL),
    F_S(Quote, date, "date", 0, "YYYY-MM-DD"),
};
static const Schema quote_money_schema = {"price", quote_money_fields,
                                          COUNT_OF(quote_money_fields), 0, init_none, NULL, NULL};
static const Schema quote_fraction_schema = {"price", quote_fraction_fields,
                                             COUNT_OF(quote_fraction_fields), 0, init_none, NULL,
                                             NULL};
static const Schema quote_number_schema = {"price", quote_number_fields,
                                           COUNT_OF(quote_number_fields), 0, init_none, NULL, NULL};
static const Field node_quote_fields[] = {
    F_S(NodeQuote, accelerator, "accelerator", 0, NULL),
    F_D(NodeQuote, usd, "usd", QTY_MONEY, 0, "one node"),
    F_S(NodeQuote, source, "source", 0, NULL),
    F_S(NodeQuote, date, "date", 0, NULL),
};
static const Schema node_quote_schema = {"node price", node_quote_fields,
                                         COUNT_OF(node_quote_fields), sizeof(NodeQuote), init_none,
                                         NULL, NULL};
static const Field discount_quote_fields[] = {
    F_S(DiscountQuote, provider, "provider", 0, NULL),
    F_E(DiscountQuote, term, "term", pricing_names, 0, 0, NULL),
    F_D(DiscountQuote, discount, "discount", QTY_FRACTION, 0, "off on-demand"),
    F_S(DiscountQuote, source, "source", 0, NULL),
    F_S(DiscountQuote, date, "date", 0, NULL),
};
static const Schema discount_quote_schema = {"discount", discount_quote_fields,
                                             COUNT_OF(discount_quote_fields),
                                             sizeof(DiscountQuote), init_none, NULL, NULL};
#define F_QT(m, key, sub, cmt)                                                                \
    {key, T_MAP, FLD(PriceSpec, m), sizeof(Quote), 0, 0, 0, NULL, 0, 0, NULL, 0, &sub, 0, NULL, \
     F_OPT | F_FLOW, cmt}
static const Field prices_fields[] = {
    F_Q(PriceSpec, nodes, n_nodes, "nodes", node_quote_schema, F_FLOW | F_OPT,
        "node price per accelerator"),
    F_Q(PriceSpec, discounts, n_discounts, "discounts", discount_quote_schema, F_FLOW | F_OPT,
        "per provider and term"),
    F_QT(storage_usd_per_pb, "storage_usd_per_pb", quote_money_schema, NULL),
    F_QT(storage_w_per_pb, "storage_w_per_pb", quote_number_schema, NULL),
    F_QT(facility_usd_per_kw, "facility_usd_per_kw", quote_money_schema, NULL),
    F_QT(staff_usd_per_mw_year, "staff_usd_per_mw_year", quote_money_schema, NULL),
    F_QT(depreciation_years, "depreciation_years", quote_number_schema, NULL),
    F_QT(resale, "resale", quote_fraction_schema, "of the hardware, at the horizon"),
    F_QT(lease_rate, "lease_rate", quote_fraction_schema, "of the hardware, per year"),
};
static const Schema prices_schema = {"prices", prices_fields, COUNT_OF(prices_fields), 0,
                                     init_none, NULL, NULL};

static const Field site_fields[] = {
    F_E(SiteSpec, kind, "kind", site_kind_names, 0, 0, "on-prem | cloud"),
    F_S(SiteSpec, instance, "instance", 0, "catalog id, used when kind: cloud"),
    F_E(SiteSpec, pricing, "pricing", pricing_names, 0, 0,
        "on-demand | reserved-1y | reserved-3y | spot"),
    F_D(SiteSpec, rack_power_kw, "rack_power_kw", QTY_NUMBER, 0, "kW per rack"),
    F_E(SiteSpec, cooling, "cooling", cooling_names, 0, 0, "air | liquid"),
    F_D(SiteSpec, pue, "pue", QTY_NUMBER, 0, NULL),
    F_D(SiteSpec, power_price_kwh, "power_price_kwh", QTY_MONEY, 0, "USD per kWh"),
    F_D(SiteSpec, headroom, "headroom", QTY_FRACTION, 0, "spare capacity on top of the need"),
    {"prices", T_MAP, FLD(SiteSpec, prices), sizeof(PriceSpec), 0, 0, 0, NULL, 0, 0, NULL, 0,
     &prices_schema, 0, NULL, F_OPT, "your quotes, each with source and date"},
};
static const Schema site_schema = {"site", site_fields, COUNT_OF(site_fields), 0, init_none, NULL, NULL};

static const Field network_fields[] = {
    F_E(NetworkSpec, fabric, "fabric", fabric_names, 0, 0, "infiniband | roce"),
    /* a bare number is Gb/s: `link: 400` is a 400G NIC, not 400 bits/s */
    {"link", T_DOUBLE, FLD(NetworkSpec, link_bps), 0, QTY_RATE, 1e9, 1, NULL, 0, 0, NULL, 0, NULL,
     0, NULL, 0, "per GPU (one NIC per GPU); a bare number is Gb/s"},
    F_E(NetworkSpec, topology, "topology", topology_names, 0, 0, "rail-optimized | fat-tree"),
    F_D(NetworkSpec, oversubscription, "oversubscription", QTY_NUMBER, 0,
        "1 = non-blocking; 2 = 2:1 at the leaf"),
    F_I(NetworkSpec, switch_ports, "switch_ports", 0, NULL),
};
static const Schema network_schema = {"network", network_fields, COUNT_OF(network_fields), 0,
                                      init_none, NULL, NULL};

static const Field storage_fields[] = {
    F_E(StorageSpec, system, "system", storage_names, 0, 0, "lustre | gpfs | weka | vast | nfs"),
    F_D(StorageSpec, dataset_bytes, "dataset", QTY_BYTES, 0, NULL),
    F_I(StorageSpec, checkpoints_kept, "checkpoints_kept", 0, NULL),
    F_DUR(StorageSpec, checkpoint_stall_s, "checkpoint_stall", 1, 1, NULL, 0,
          "longest acceptable blocking write"),
};
static const Schema storage_schema = {"storage", storage_fields, COUNT_OF(storage_fields), 0,
                                      init_none, NULL, NULL};

static const Field job_fields[] = {
    F_S(JobClass, name, "name", 0, NULL),
    F_D(JobClass, per_day, "per_day", QTY_NUMBER, 0, NULL),
    F_D(JobClass, gpus, "gpus", QTY_NUMBER, 0, NULL),
    F_I(JobClass, min_gpus, "min_gpus", F_OPT, NULL),
    F_I(JobClass, max_gpus, "max_gpus", F_OPT, NULL),
    F_S(JobClass, mig, "mig", F_OPT, NULL),
    F_DUR(JobClass, hours, "hours", HOUR, HOUR, NULL, 0, NULL),
    F_E(JobClass, duration, "duration", duration_names, 0, 0, NULL),
    F_D(JobClass, cv, "cv", QTY_NUMBER, 0, NULL),
    F_E(JobClass, priority, "priority", priority_names, 0, 0, NULL),
};
static bool job_skip(const Field *f, const void *obj)
{
    const JobClass *j = obj;
    return f->off == offsetof(JobClass, gpus) && (j->mig[0] || j->max_gpus > 0) && j->gpus == 1;
}

static const Schema job_schema = {"job", job_fields, COUNT_OF(job_fields), sizeof(JobClass),
                                  init_job, finish_job, job_skip};

static const Field team_fields[] = {
    F_S(Team, name, "name", 0, NULL),
    F_D(Team, weight, "weight", QTY_NUMBER, 0, "fair-share weight"),
    F_I(Team, quota_gpus, "quota_gpus", 0, "guaranteed share"),
    F_IA(Team, borrow_gpus, "borrow_gpus", "unlimited", -1, 0,
         "may use beyond quota when others idle"),
    F_Q(Team, jobs, n_jobs, "jobs", job_schema, F_FLOW, NULL),
};
static const Schema team_schema = {"team", team_fields, COUNT_OF(team_fields), sizeof(Team),
                                   init_team, NULL, NULL};

static const Field tenancy_fields[] = {
    F_IA(TenancySpec, gpus, "gpus", "auto", 0, 0, "pool size; auto = smallest meeting wait_p95"),
    F_E(TenancySpec, policy, "policy", policy_names, 0, 0, "fifo | fair-share | priority"),
    F_B(TenancySpec, preemption, "preemption", 0, NULL),
    F_B(TenancySpec, backfill, "backfill", 0, NULL),
    F_DUR(TenancySpec, restore_s, "restore", 1, 1, NULL, 0, "lost work + restart per preemption"),
    F_DUR(TenancySpec, horizon_s, "horizon", 1, 1, NULL, 0, "simulated time"),
    F_DUR(TenancySpec, wait_p95_s, "wait_p95", 1, 1, NULL, 0, "queueing target that sizes the pool"),
    F_DUR(TenancySpec, mtbf_gpu_h, "mtbf_gpu", HOUR, HOUR, NULL, 0,
          "hours between failures of one GPU"),
    {"seed", T_U64, FLD(TenancySpec, seed), 0, 0, 0, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL, 0, NULL},
    F_Q(TenancySpec, teams, n_teams, "teams", team_schema, 0, NULL),
    F_S(TenancySpec, trace, "trace", F_OPT, "replay a job trace instead"),
};
static const Schema tenancy_schema = {"tenancy", tenancy_fields, COUNT_OF(tenancy_fields), 0,
                                      init_none, NULL, NULL};

/* ranges: one {low, high} per assumption, in its unit (model/catalog.h
 * RangeKnob): fractions, money, hours or plain numbers. */
static const Field range_num_fields[] = {
    F_D(RangeSpec, low, "low", QTY_NUMBER, 0, NULL),
    F_D(RangeSpec, high, "high", QTY_NUMBER, 0, NULL),
};
static const Schema range_num_schema = {"range", range_num_fields, COUNT_OF(range_num_fields), 0,
                                        init_none, NULL, NULL};
static const Field range_signed_fields[] = {
    F_D(RangeSpec, low, "low", QTY_NUMBER, F_SIGNED, NULL),
    F_D(RangeSpec, high, "high", QTY_NUMBER, F_SIGNED, NULL),
};
static const Schema range_signed_schema = {"range", range_signed_fields,
                                           COUNT_OF(range_signed_fields), 0, init_none, NULL, NULL};
static const Field range_frac_fields[] = {
    F_D(RangeSpec, low, "low", QTY_FRACTION, 0, NULL),
    F_D(RangeSpec, high, "high", QTY_FRACTION, 0, NULL),
};
static const Schema range_frac_schema = {"range", range_frac_fields, COUNT_OF(range_frac_fields),
                                         0, init_none, NULL, NULL};
static const Field range_money_fields[] = {
    F_D(RangeSpec, low, "low", QTY_MONEY, 0, NULL),
    F_D(RangeSpec, high, "high", QTY_MONEY, 0, NULL),
};
static const Schema range_money_schema = {"range", range_money_fields,
                                          COUNT_OF(range_money_fields), 0, init_none, NULL, NULL};
static const Field range_hours_fields[] = {
    F_DUR(RangeSpec, low, "low", HOUR, HOUR, NULL, 0, NULL),
    F_DUR(RangeSpec, high, "high", HOUR, HOUR, NULL, 0, NULL),
};
static const Schema range_hours_schema = {"range", range_hours_fields,
                                          COUNT_OF(range_hours_fields), 0, init_none, NULL, NULL};

static const Field ranges_fields[] = {
    F_I(RangesSpec, samples, "samples", F_OPT, "Monte Carlo samples"),
    {"seed", T_U64, FLD(RangesSpec, seed), 0, 0, 0, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL, F_OPT,
     "Monte Carlo seed"},
    F_MO(RangesSpec, knobs[RANGE_RESERVED_DISCOUNT], "reserved_discount", range_frac_schema,
         F_OPT | F_FLOW, "the cloud rival's 3-year discount"),
    F_MO(RangesSpec, knobs[RANGE_NODE_PRICE], "node_price", range_num_schema, F_OPT | F_FLOW,
         "x the catalog's node prices"),
    F_MO(RangesSpec, knobs[RANGE_POWER_PRICE], "power_price", range_money_schema,
         F_OPT | F_FLOW, "USD per kWh"),
    F_MO(RangesSpec, knobs[RANGE_PUE], "pue", range_num_schema, F_OPT | F_FLOW, NULL),
    F_MO(RangesSpec, knobs[RANGE_HORIZON], "horizon", range_num_schema, F_OPT | F_FLOW, "years"),
    F_MO(RangesSpec, knobs[RANGE_MTBF], "mtbf_gpu", range_hours_schema, F_OPT | F_FLOW,
         "hours per GPU"),
    F_MO(RangesSpec, knobs[RANGE_TOKENS], "tokens", range_num_schema, F_OPT | F_FLOW,
         "x every training workload's tokens"),
    F_MO(RangesSpec, knobs[RANGE_ARRIVALS], "arrivals", range_num_schema, F_OPT | F_FLOW,
         "x every job class's per_day"),
    F_MO(RangesSpec, knobs[RANGE_UTILIZATION], "utilization", range_num_schema, F_OPT | F_FLOW,
         "x the modelled share of GPU-hours used"),
    F_MO(RangesSpec, knobs[RANGE_RESALE], "resale", range_frac_schema, F_OPT | F_FLOW,
         "hardware value recovered at the horizon"),
    F_MO(RangesSpec, knobs[RANGE_MODEL_BAND], "model_band", range_signed_schema, F_OPT | F_FLOW,
         "position in the model's error band, -1 .. +1"),
};
static const Schema ranges_schema = {"ranges", ranges_fields, COUNT_OF(ranges_fields), 0,
                                     init_none, NULL, NULL};

static const Field plan_fields[] = {
    F_I(Plan, format, "format", 0, NULL),
    F_S(Plan, name, "name", 0, "unique in the store"),
    F_S(Plan, description, "description", F_LINES, NULL),
    F_S(Plan, accelerator, "accelerator", 0, "catalog id; default for every workload"),
    F_D(Plan, horizon_years, "horizon_years", QTY_NUMBER, 0, "TCO horizon, years"),
    F_Q(Plan, workloads, n_workloads, "workloads", workload_schema, 0, NULL),
    F_M(Plan, site, "site", site_schema, 0, NULL),
    F_M(Plan, network, "network", network_schema, 0, NULL),
    F_M(Plan, storage, "storage", storage_schema, 0, NULL),
    F_M(Plan, tenancy, "tenancy", tenancy_schema, 0, NULL),
    F_MO(Plan, ranges, "ranges", ranges_schema, F_OPT,
         "sensitivity and Monte Carlo; default: the catalog's uncertainty"),
};
static const Schema plan_schema = {"plan", plan_fields, COUNT_OF(plan_fields), 0, init_none, NULL, NULL};

/* Can every field of obj (described by s) be written and read back?  Only
 * ranges that the text form cannot carry: negative, NaN or infinite
 * numbers, fractions above 1, enum values without a name, unprintable
 * text.  `what` names the item for the message ("workload 'chat'"). */
static int check_writable_map(const Schema *s, const void *obj, const char *what, Rules *r)
{
    for (size_t i = 0; i < s->n_fields; i++) {
        const Field *f = &s->fields[i];
        const char *at = (const char *)obj + f->off;
        if (f->flags & F_NOWRITE)
            continue;
        switch (f->type) {
        case T_INT: {
            int v = *(const int *)at;
            if (v < 0 && !(f->keyword && v == f->keyword_value))
                return rule_fail(r, at, obj, "%s: %s must not be negative, got %d", what, f->key, v);
            break;
        }
        case T_DOUBLE: {
            double v = *(const double *)at;
            if (f->keyword && v == f->keyword_value)
                break;
            if (!isfinite(v) || (v < 0 && !(f->flags & F_SIGNED)) ||
                (f->qty == QTY_FRACTION && v > 1))
                return rule_fail(r, at, obj, "%s: %s must be %s, got %g", what, f->key,
                                 f->qty == QTY_FRACTION ? "a fraction between 0 and 1"
                                                        : "a finite number, not negative", v);
            if (v != 0 && fabs(v) < DBL_MIN) /* quantity_parse refuses subnormals */
                return rule_fail(r, at, obj, "%s: %s must be 0 or at least 2.2e-308, got %g",
                                 what, f->key, v);
            break;
        }
        case T_TRI: {
            int v = *(const int *)at;
            if (v < -1 || v > 1)
                return rule_fail(r, at, obj, "%s: %s must be true, false or auto", what, f->key);
            break;
        }
        case T_ENUM: {
            int v = *(const int *)at;
            if (v < f->base || v >= f->base + f->n_names)
                return rule_fail(r, at, obj, "%s: %s has no valid value (%d)", what, f->key, v);
            break;
        }
        case T_STR:
            if (!text_ok_ex(at, f->size, (f->flags & F_LINES) != 0))
                return rule_fail(r, at, obj, "%s: %s must be printable text", what, f->key);
            break;
        case T_MAP:
            if (check_writable_map(f->sub, at, what, r))
                return -1;
            break;
        case T_CUSTOM:
            if (f->sub && check_writable_map(f->sub, at, what, r))
                return -1;
            break;
        case T_SEQ: {
            int n = *(const int *)((const char *)obj + f->count_off);
            for (int k = 0; k < n && k < (int)f->size; k++) {
                const char *elem = at + (size_t)k * f->sub->elem_size;
                char item[160];
                /* every listed item's first field is its name */
                snprintf(item, sizeof item, "%s '%.64s'", f->sub->name, elem);
                if (check_writable_map(f->sub, elem, item, r))
                    return -1;
            }
            break;
        }
        case T_BOOL:
        case T_U64:
            break;
        }
    }
    return 0;
}

static int check_writable(const Plan *p, Rules *r)
{
    return check_writable_map(&plan_schema, p, "plan", r);
}

/* `model:` is a mapping parsed with model_schema (the custom hook only
 * records where the model was given). */
static int parse_model(Ctx *c, const Field *f, yaml_node_t *n, void *obj)
{
    Workload *w = obj;
    if (is_plain_null(n))
        return 0; /* reported as "has no model" by the rules */
    if (n->type != YAML_MAPPING_NODE)
        return node_err(c, n, "%s: expected a mapping (layers: …, or preset: NAME), got %s", f->key,
                        node_kind_text(n));
    if (mark_loc(c, &w->model, n))
        return -1;
    return parse_map(c, &model_schema, n, &w->model);
}

/* ================================================================= parse */

static void locate_yaml_error(const yaml_parser_t *y, const char *text, size_t len,
                              const char *file, Diag *d)
{
    const yaml_mark_t *m = &y->problem_mark;
    const char *what = y->error == YAML_MEMORY_ERROR ? "out of memory"
                     : y->error == YAML_READER_ERROR ? "invalid text"
                     : "YAML syntax error";
    int line = (int)m->line + 1, col = (int)m->column + 1;
    if (y->error == YAML_MEMORY_ERROR) { /* no position or problem to show */
        diag_set(d, file, 0, 0, "out of memory reading the plan");
        return;
    }
    if (y->error == YAML_READER_ERROR) {
        ydepth_locate(text, len, y->problem_offset, &line, &col);
    }
    if (y->context)
        diag_set(d, file, line, col, "%s: %s (%s at line %d, column %d)", what,
                 y->problem ? y->problem : "?", y->context, (int)y->context_mark.line + 1,
                 (int)y->context_mark.column + 1);
    else if (y->error == YAML_READER_ERROR)
        diag_set(d, file, line, col, "%s: %s at byte %zu", what, y->problem ? y->problem : "?",
                 y->problem_offset);
    else
        diag_set(d, file, line, col, "%s: %s", what, y->problem ? y->problem : "?");
}

/* A collection that opens deeper than YDEPTH_MAX (ydepth_load stopped there). */
static void deep_error(const yaml_mark_t *at, const char *file, Diag *d)
{
    diag_set(d, file, (int)at->line + 1, (int)at->column + 1, "nested more than %d levels deep",
             YDEPTH_MAX);
}

/* After a successful parse: catalog ids in the catalog's own spelling. */
static void canonical_ids(Plan *p, const Catalog *cat)
{
    if (!cat)
        return;
    const Accelerator *a = catalog_find_accelerator(cat, p->accelerator);
    if (a)
        copy_text(p->accelerator, sizeof p->accelerator, a->id);
    for (int i = 0; i < p->n_workloads; i++) {
        Workload *w = &p->workloads[i];
        if (w->accelerator[0] && (a = catalog_find_accelerator(cat, w->accelerator)))
            copy_text(w->accelerator, sizeof w->accelerator, a->id);
    }
    const Instance *in = catalog_find_instance(cat, p->site.instance);
    if (in)
        copy_text(p->site.instance, sizeof p->site.instance, in->id);
}

int plan_parse(const char *text, size_t len, const char *file, const Catalog *cat, Plan *out,
               Diag *d)
{
    Diag scratch;
    if (!d)
        d = &scratch;
    if (!file)
        file = "";
    if (!out) {
        diag_set(d, file, 0, 0, "no plan to fill");
        return -1;
    }
    plan_init(out);
    if (!text) {
        diag_set(d, file, 0, 0, "no text");
        return -1;
    }
    if (len > MAX_PLAN_BYTES) {
        diag_set(d, file, 0, 0, "plan file too large (%zu bytes; at most %u)", len, MAX_PLAN_BYTES);
        return -1;
    }
    yaml_mark_t deep;
    yaml_parser_t y;
    if (!yaml_parser_initialize(&y)) {
        diag_set(d, file, 0, 0, "out of memory");
        return -1;
    }
    yaml_parser_set_input_string(&y, (const unsigned char *)text, len);
    yaml_document_t doc;
    int lr = ydepth_load(&y, &doc, YDEPTH_MAX, &deep);
    if (lr <= 0) {
        if (lr < 0)
            deep_error(&deep, file, d);
        else
            locate_yaml_error(&y, text, len, file, d);
        yaml_parser_delete(&y);
        return -1;
    }
    int rc = -1;
    Ctx c = {.doc = &doc, .file = file, .d = d};
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        diag_set(d, file, 1, 1, "empty plan: expected a mapping with a name and workloads or teams");
        goto done;
    }
    /* One document only: a second one is almost always a stray `---`. */
    yaml_document_t extra;
    lr = ydepth_load(&y, &extra, YDEPTH_MAX, &deep);
    if (lr <= 0) {
        if (lr < 0)
            deep_error(&deep, file, d);
        else
            locate_yaml_error(&y, text, len, file, d);
        goto done;
    }
    yaml_node_t *extra_root = yaml_document_get_root_node(&extra);
    if (extra_root) {
        node_err(&c, extra_root, "a plan file holds one YAML document; found a second one here");
        yaml_document_delete(&extra);
        goto done;
    }
    yaml_document_delete(&extra);
    if (root->type != YAML_MAPPING_NODE) {
        node_err(&c, root, "a plan is a mapping (name: …, workloads: …), got %s",
                 node_kind_text(root));
        goto done;
    }
    if (mark_loc(&c, out, root) || parse_map(&c, &plan_schema, root, out))
        goto done;
    Rules r = {d, file, &c.locs, out};
    if (check_plan(out, cat, &r))
        goto done;
    canonical_ids(out, cat);
    rc = 0;
done:
    free(c.locs.v);
    yaml_document_delete(&doc);
    yaml_parser_delete(&y);
    return rc;
}

int plan_load_file(const char *path, const Catalog *cat, Plan *out, Diag *d)
{
    if (!path) {
        diag_set(d, "", 0, 0, "no file name");
        return -1;
    }
    /* A FIFO, device or directory is refused without blocking (safeio.h). */
    char why[128];
    int fd = safeio_open_read(path, why, sizeof why);
    if (fd < 0) {
        diag_set(d, path, 0, 0, "%s: %s", errno == EISDIR || errno == EINVAL ? "cannot read"
                                                                              : "cannot open", why);
        return -2;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        diag_set(d, path, 0, 0, "cannot open: %s", strerror(errno));
        close(fd);
        return -2;
    }
    size_t cap = 8192, n = 0;
    char *buf = malloc(cap);
    int rc = -1;
    if (!buf) {
        diag_set(d, path, 0, 0, "out of memory");
        goto out;
    }
    for (;;) {
        if (n == cap) {
            if (cap > MAX_PLAN_BYTES) {
                diag_set(d, path, 0, 0, "plan file too large (more than %u bytes)", MAX_PLAN_BYTES);
                goto out;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                diag_set(d, path, 0, 0, "out of memory");
                goto out;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                diag_set(d, path, 0, 0, "read error: %s", strerror(errno));
                rc = -2;
                goto out;
            }
            break;
        }
    }
    rc = plan_parse(buf, n, path, cat, out, d);
out:
    free(buf);
    fclose(f);
    return rc;
}

/* ================================================================= write */

struct Out {
    char *buf;
    size_t n, cap;
    bool oom;
};

static void out_raw(Out *o, const char *s, size_t len)
{
    if (o->oom)
        return;
    if (o->n + len + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (o->n + len + 1 > cap)
            cap *= 2;
        char *nb = realloc(o->buf, cap);
        if (!nb) {
            o->oom = true;
            return;
        }
        o->buf = nb;
        o->cap = cap;
    }
    memcpy(o->buf + o->n, s, len);
    o->n += len;
    o->buf[o->n] = '\0';
}

__attribute__((format(printf, 2, 3)))
static void out_printf(Out *o, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (w < 0)
        return;
    out_raw(o, tmp, (size_t)w < sizeof tmp ? (size_t)w : sizeof tmp - 1);
}

static bool is_reserved_word(const char *s)
{
    static const char *const words[] = {"true", "false", "yes", "no", "on", "off", "null",
                                        "y", "n", "auto", "unlimited", "~"};
    for (size_t i = 0; i < COUNT_OF(words); i++)
        if (strcasecmp(s, words[i]) == 0)
            return true;
    return false;
}

/* Plain (unquoted) only when no YAML reader, in block or flow context,
 * could take it for anything but this string. */
static bool plain_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || s[0] == ' ' || s[n - 1] == ' ' || is_reserved_word(s))
        return false;
    unsigned char c0 = (unsigned char)s[0];
    if (!isalpha(c0) && c0 != '_' && c0 != '/') {
        if (!isdigit(c0))
            return false;
        /* 3g.40gb is text, 1e9 / 0x1f / 1_000 / 12:30 are numbers to YAML 1.1. */
        bool other_letter = false;
        for (size_t i = 0; i < n; i++)
            if (isalpha((unsigned char)s[i]) && !strchr("eExXoObBaAcCdDfF", s[i]))
                other_letter = true;
        if (!other_letter)
            return false;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch >= 0x80)
            return false;
        if (!isalnum(ch) && !strchr(" ._/()+-=", ch))
            return false;
    }
    return true;
}

/* A string field as YAML: plain when safe, else double-quoted with
 * escapes.  Reads at most cap - 1 bytes, so an unterminated buffer of an
 * invalid plan is never overrun. */
static void out_string(Out *o, const char *field, size_t cap)
{
    char s[PLAN_TEXT_LEN + 1];
    size_t n = strnlen(field, cap ? cap - 1 : 0);
    if (n > PLAN_TEXT_LEN)
        n = PLAN_TEXT_LEN;
    memcpy(s, field, n);
    s[n] = '\0';
    if (plain_ok(s)) {
        out_raw(o, s, strlen(s));
        return;
    }
    out_raw(o, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': out_raw(o, "\\\"", 2); break;
        case '\\': out_raw(o, "\\\\", 2); break;
        case '\n': out_raw(o, "\\n", 2); break;
        case '\t': out_raw(o, "\\t", 2); break;
        case '\r': out_raw(o, "\\r", 2); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                out_printf(o, "\\x%02x", *p);
            else
                out_raw(o, (const char *)p, 1);
        }
    }
    out_raw(o, "\"", 1);
}

/* The text of a numeric field that parses back to exactly the stored
 * value; `buf` must hold 80 bytes. */
static const char *number_text(const Field *f, double v, char *buf, size_t len)
{
    if (f->keyword && v == f->keyword_value) {
        snprintf(buf, len, "%s", f->keyword);
        return buf;
    }
    if (f->type == T_INT) {
        snprintf(buf, len, "%d", (int)v);
        return buf;
    }
    char err[200], cand[80];
    double back;
    if (f->qty == QTY_DURATION && f->key_unit != 1) {
        /* Keys with their own unit (hours, days, ms) read best as bare
         * numbers in that unit. */
        double x = v * f->store_unit / f->key_unit;
        if (f->key_unit == f->store_unit)
            x = v;
        for (int digits = 1; digits <= 17; digits++) {
            snprintf(cand, sizeof cand, "%.*g", digits, x);
            if (strchr(cand, 'e'))
                continue;
            if (parse_number(f, cand, &back, err, sizeof err) == 0 && back == v) {
                snprintf(buf, len, "%s", cand);
                return buf;
            }
        }
        quantity_format(v * f->store_unit, QTY_DURATION, true, cand, sizeof cand);
        if (parse_number(f, cand, &back, err, sizeof err) == 0 && back == v) {
            snprintf(buf, len, "%s", cand);
            return buf;
        }
        snprintf(buf, len, "%.17g", x);
        return buf;
    }
    quantity_format(v, f->qty, true, buf, len);
    return buf;
}

#define COMMENT_COL 36

static void out_comment(Out *o, size_t line_start, const char *comment)
{
    if (!comment)
        return;
    size_t width = o->n - line_start;
    size_t pad = width < COMMENT_COL ? COMMENT_COL - width : 1;
    out_printf(o, "%*s# %s", (int)pad, "", comment);
}

static bool field_differs(const Field *f, const void *obj, const void *def)
{
    const char *a = (const char *)obj + f->off, *b = (const char *)def + f->off;
    switch (f->type) {
    case T_INT:
    case T_TRI:
    case T_ENUM: return *(const int *)a != *(const int *)b;
    case T_DOUBLE: return *(const double *)a != *(const double *)b;
    case T_BOOL: return *(const bool *)a != *(const bool *)b;
    case T_STR: return strncmp(a, b, f->size) != 0;
    case T_U64: return *(const uint64_t *)a != *(const uint64_t *)b;
    default: return true;
    }
}

/* The value of a scalar field as YAML text (into out). */
static void out_scalar(Out *o, const Field *f, const void *obj)
{
    const char *at = (const char *)obj + f->off;
    char buf[96];
    switch (f->type) {
    case T_INT:
        number_text(f, *(const int *)at, buf, sizeof buf);
        out_raw(o, buf, strlen(buf));
        break;
    case T_DOUBLE:
        number_text(f, *(const double *)at, buf, sizeof buf);
        out_raw(o, buf, strlen(buf));
        break;
    case T_BOOL:
        out_printf(o, "%s", *(const bool *)at ? "true" : "false");
        break;
    case T_TRI: {
        int v = *(const int *)at;
        out_printf(o, "%s", v < 0 ? "auto" : v ? "true" : "false");
        break;
    }
    case T_ENUM:
    case T_CUSTOM:
        if (f->names)
            out_printf(o, "%s", enum_name(f->names, f->n_names, f->base, *(const int *)at));
        else
            out_string(o, at, f->size);
        break;
    case T_STR:
        out_string(o, at, f->size);
        break;
    case T_U64:
        out_printf(o, "%llu", (unsigned long long)*(const uint64_t *)at);
        break;
    default:
        break;
    }
}

static void write_block(Out *o, const Schema *s, const void *obj, const void *def, int indent,
                        const char *first_prefix, bool only_diff);

/* One-line flow mapping: {a: 1, b: x}. */
static void write_flow(Out *o, const Schema *s, const void *obj, const void *def, bool only_diff,
                       const char *lead)
{
    out_raw(o, "{", 1);
    bool first = true;
    if (lead) {
        out_raw(o, lead, strlen(lead));
        first = false;
    }
    for (size_t i = 0; i < s->n_fields; i++) {
        const Field *f = &s->fields[i];
        if (f->flags & F_NOWRITE || f->type == T_CUSTOM || (s->skip && s->skip(f, obj)))
            continue;
        if ((only_diff || (f->flags & F_OPT)) && !field_differs(f, obj, def))
            continue;
        if (!first)
            out_raw(o, ", ", 2);
        first = false;
        out_printf(o, "%s: ", f->key);
        out_scalar(o, f, obj);
    }
    out_raw(o, "}", 1);
}

/* Is field f of obj written? */
static bool field_written(const Field *f, const void *obj, const void *def, const Workload *w,
                          bool only_diff)
{
    if (f->flags & F_NOWRITE)
        return false;
    bool differs = field_differs(f, obj, def);
    if (f->type == T_MAP || f->type == T_SEQ || f->type == T_CUSTOM)
        differs = true;
    if ((f->type == T_MAP) && (f->flags & F_OPT) && f->size)
        differs = memcmp((const char *)obj + f->off, (const char *)def + f->off, f->size) != 0;
    if (f->type == T_SEQ && (f->flags & F_OPT))
        differs = *(const int *)((const char *)obj + f->count_off) > 0;
    if (f->type == T_MAP && (f->flags & (F_TRAIN | F_INFER)))
        differs = memcmp((const char *)obj + f->off, (const char *)def + f->off,
                         f->sub->elem_size ? f->sub->elem_size : sizeof(ParallelSpec)) != 0;
    if (f->type == T_CUSTOM && f->sub == &disagg_schema)
        differs = ((const DisaggSpec *)((const char *)obj + f->off))->mode != 0;
    if (f->type == T_CUSTOM && f->parse == parse_recompute_modules)
        differs = ((const char *)obj + f->off)[0] != '\0';
    if (f->type == T_MAP && (f->flags & F_OPT) && f->size)
        differs = memcmp((const char *)obj + f->off, (const char *)def + f->off, f->size) != 0;
    if (only_diff || (f->flags & F_OPT))
        return differs;
    if (w && (f->flags & F_TRAIN) && w->kind != WL_TRAINING)
        return differs;
    if (w && (f->flags & F_INFER) && w->kind != WL_INFERENCE)
        return differs;
    return true;
}

static void write_model(Out *o, const Workload *w, const Workload *defw, int indent)
{
    const ModelShape *m = &w->model;
    const ModelPreset *p = m->preset[0] && memchr(m->preset, '\0', sizeof m->preset)
                               ? preset_find(m->preset) : NULL;
    out_printf(o, "%*smodel:", indent, "");
    if (p) {
        out_raw(o, " ", 1);
        ModelShape ps = p->shape;
        copy_text(ps.preset, sizeof ps.preset, p->name);
        char lead[64];
        snprintf(lead, sizeof lead, "preset: %s", p->name);
        write_flow(o, &model_schema, m, &ps, true, lead);
        out_raw(o, "\n", 1);
        return;
    }
    out_raw(o, "\n", 1);
    if (m->preset[0]) {
        /* An unknown preset (an invalid plan): keep it so the reader says so. */
        out_printf(o, "%*spreset: ", indent + 2, "");
        out_string(o, m->preset, sizeof m->preset);
        out_raw(o, "\n", 1);
    }
    write_block(o, &model_schema, m, &defw->model, indent + 2, NULL, false);
}

static void write_seq(Out *o, const Field *f, const void *obj, int indent)
{
    const char *at = (const char *)obj + f->off;
    int count = *(const int *)((const char *)obj + f->count_off);
    if (count <= 0) {
        out_printf(o, "%*s%s: []\n", indent, "", f->key);
        return;
    }
    out_printf(o, "%*s%s:\n", indent, "", f->key);
    void *def = malloc(f->sub->elem_size);
    if (!def) {
        o->oom = true;
        return;
    }
    for (int i = 0; i < count && i < (int)f->size; i++) {
        const void *elem = at + (size_t)i * f->sub->elem_size;
        f->sub->init(def, elem);
        if (f->flags & F_FLOW) {
            out_printf(o, "%*s- ", indent + 2, "");
            write_flow(o, f->sub, elem, def, false, NULL);
            out_raw(o, "\n", 1);
        } else {
            write_block(o, f->sub, elem, def, indent + 4, "- ", false);
        }
    }
    free(def);
}

/* Block mapping at `indent`; the first line is preceded by first_prefix
 * ("- ") two columns to the left, for sequence items. */
static void write_block(Out *o, const Schema *s, const void *obj, const void *def, int indent,
                        const char *first_prefix, bool only_diff)
{
    const Workload *w = s == &workload_schema ? obj : NULL;
    bool first = true;
    for (size_t i = 0; i < s->n_fields; i++) {
        const Field *f = &s->fields[i];
        if (!field_written(f, obj, def, w, only_diff) || (s->skip && s->skip(f, obj)))
            continue;
        if (f->type == T_SEQ) {
            write_seq(o, f, obj, indent);
            continue;
        }
        if (f->type == T_CUSTOM && f->sub == &model_schema) {
            write_model(o, obj, def, indent);
            first = false;
            continue;
        }
        if (f->type == T_CUSTOM && f->sub == &disagg_schema) {
            const DisaggSpec *d = (const DisaggSpec *)((const char *)obj + f->off);
            size_t line_start = o->n;
            out_printf(o, "%*s%s: ", indent, "", f->key);
            first = false;
            if (d->mode < 0) {
                out_printf(o, "auto");
            } else {
                DisaggSpec none = {0};
                write_flow(o, &disagg_schema, d, &none, false, NULL);
            }
            out_comment(o, line_start, f->comment);
            out_raw(o, "\n", 1);
            continue;
        }
        if (f->type == T_CUSTOM && f->parse == parse_recompute_modules) {
            /* a flow list: [core_attn, moe_act] */
            const char *v = (const char *)obj + f->off;
            size_t line_start = o->n;
            out_printf(o, "%*s%s: [", indent, "", f->key);
            for (const char *q = v; *q; q++) {
                if (*q == ',')
                    out_raw(o, ", ", 2);
                else if (*q != ' ')
                    out_raw(o, q, 1);
            }
            out_raw(o, "]", 1);
            out_comment(o, line_start, f->comment);
            out_raw(o, "\n", 1);
            first = false;
            continue;
        }
        if (f->type == T_CUSTOM && !f->names)
            continue; /* preset: written by write_model */
        size_t line_start = o->n;
        if (first && first_prefix)
            out_printf(o, "%*s%s", indent - 2, "", first_prefix);
        else
            out_printf(o, "%*s", indent, "");
        first = false;
        out_printf(o, "%s:", f->key);
        if (f->type == T_MAP) {
            const void *sub = (const char *)obj + f->off;
            const void *subdef = (const char *)def + f->off;
            if (f->flags & F_FLOW) {
                out_raw(o, " ", 1);
                write_flow(o, f->sub, sub, subdef, false, NULL);
                out_comment(o, line_start, f->comment);
                out_raw(o, "\n", 1);
            } else {
                out_comment(o, line_start, f->comment);
                out_raw(o, "\n", 1);
                write_block(o, f->sub, sub, subdef, indent + 2, NULL, false);
            }
            continue;
        }
        out_raw(o, " ", 1);
        out_scalar(o, f, obj);
        out_comment(o, line_start, f->comment);
        out_raw(o, "\n", 1);
    }
}

char *plan_to_yaml(const Plan *p)
{
    if (!p)
        return NULL;
    Plan *def = malloc(sizeof *def);
    if (!def)
        return NULL;
    plan_init(def);
    Out o = {0};
    out_printf(&o, "# gpuplan plan (PLAN-FORMAT.md); units: SI unless a key or comment says\n");
    /* Top level with blank lines between the sections, as in PLAN-FORMAT.md. */
    for (size_t i = 0; i < plan_schema.n_fields; i++) {
        const Field *f = &plan_schema.fields[i];
        if (!field_written(f, p, def, NULL, false))
            continue;
        if (f->type == T_SEQ || f->type == T_MAP)
            out_raw(&o, "\n", 1);
        Schema one = plan_schema;
        one.fields = f;
        one.n_fields = 1;
        write_block(&o, &one, p, def, 0, NULL, false);
    }
    free(def);
    if (o.oom) {
        free(o.buf);
        return NULL;
    }
    return o.buf;
}

int plan_save_file(const Plan *p, const char *path, Diag *d)
{
    if (!p || !path) {
        diag_set(d, path ? path : "", 0, 0, "nothing to save");
        return -1;
    }
    char *text = plan_to_yaml(p);
    if (!text) {
        diag_set(d, path, 0, 0, "out of memory");
        return -1;
    }
    char why[256];
    int rc = safeio_write_file(path, text, strlen(text), 0644, why, sizeof why);
    if (rc != 0)
        diag_set(d, path, 0, 0, "%s", why);
    free(text);
    return rc;
}
