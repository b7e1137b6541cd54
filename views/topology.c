/* views/topology.c — the Topology pane: the fabric's switch tiers with
 * their counts and oversubscription, then the racks as boxes side by side,
 * one row per node, each GPU a cell shaded by its NVLink domain.  Scrolls
 * both ways; racks that do not fit are summarised ("… N more racks"). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "tui/app.h"
#include "tui/units.h"
#include "yaml_plan.h"

typedef struct {
    int scroll;      /* rows */
    int first_rack;  /* horizontal: index of the first rack shown */
} TState;

static void *t_create(App *app)
{
    (void)app;
    return calloc(1, sizeof(TState));
}

static void t_destroy(View *v)
{
    free(v->state);
}

/* One tier of the switch tree: a gutter glyph joining the tiers (┬ ├ └),
 * the tier's name and count, then its fields, wrapped as whole phrases. */
static void tier(Canvas *c, const char *gutter, const char *name, const char *count, const char *unit,
                 const char *const *fields, int n)
{
    char head[96];
    snprintf(head, sizeof head, "%s %-6s%6s %s", gutter, name, count, unit);
    const char *items[8];
    int k = 0;
    items[k++] = head;
    for (int i = 0; i < n && k < 8; i++)
        items[k++] = fields[i];
    int y0 = c->line;
    canvas_fields_hang(c, 1, term_strwidth(gutter) + 1, ROLE_VALUE, items, k);
    /* the name in the label colour over the value-coloured row */
    int y = y0 >= c->scroll && y0 < c->scroll + c->r.h ? c->r.y + y0 - c->scroll : -1;
    if (y >= 0) {
        term_put(y, c->r.x + 1, 1, ROLE_BORDER, gutter);
        term_put(y, c->r.x + 1 + term_strwidth(gutter) + 1, 6, ROLE_LABEL, name);
    }
    /* continuation rows keep the tree's trunk unbroken */
    for (int l = y0 + 1; l < c->line && gutter != term_glyphs->bl; l++)
        if (l >= c->scroll && l < c->scroll + c->r.h)
            term_put(c->r.y + l - c->scroll, c->r.x + 1, 1, ROLE_BORDER, term_glyphs->v);
}

/* Expand rack groups to one entry per rack: kind index into groups. */
static int rack_total(const ClusterResult *cl)
{
    int n = 0;
    for (int g = 0; g < cl->n_rack_groups; g++)
        n += cl->rack_groups[g].count;
    return n;
}

static const RackGroup *rack_at(const ClusterResult *cl, int idx, int *first_node)
{
    int node = 0;
    for (int g = 0; g < cl->n_rack_groups; g++) {
        const RackGroup *rg = &cl->rack_groups[g];
        bool compute = strcmp(rg->role, "compute") == 0;
        if (idx < rg->count) {
            *first_node = compute ? node + idx * rg->nodes : -1;
            return rg;
        }
        idx -= rg->count;
        if (compute)
            node += rg->count * rg->nodes;
    }
    return NULL;
}

static void t_draw(View *v, App *app, Rect r)
{
    TState *s = v->state;
    term_clear_rect(r, ROLE_NORMAL);
    const PlanResult *res = app_result(app);
    if (!res || !res->have_layout) {
        term_put(r.y + 1, r.x + 2, r.w - 2, ROLE_MUTED,
                 res ? "topology: not computed" : "computing the first result...");
        return;
    }
    const ClusterResult *cl = &res->cluster;
    const NetworkSpec *net = &app->plan.network;
    Canvas c;
    canvas_begin(&c, r, &s->scroll);
    char line[400], a[32], b[32], d[32], e[32];
    int y;
    {
        char f0[96], f1[96], f2[96], f3[64];
        snprintf(f0, sizeof f0, "%s %s GPUs", cl->accelerator, fmt_int(cl->gpus, a, sizeof a));
        snprintf(f1, sizeof f1, "%s nodes %s %d", fmt_int(cl->nodes, b, sizeof b), term_glyphs->times,
                 cl->gpus_per_node);
        snprintf(f2, sizeof f2, "NVLink domains %s %s %d GPUs", fmt_int(cl->nvlink_domains, d, sizeof d),
                 term_glyphs->times, cl->gpus_per_domain);
        units_n(cl->racks, "compute rack", "compute racks", f3, sizeof f3);
        const char *items[] = {f0, f1, f2, f3};
        canvas_fields(&c, 1, ROLE_VALUE, items, 4);
    }
    {
        char rate[32], f0[96], f2[64], f3[64];
        quantity_format(net->link_bps, QTY_RATE, false, rate, sizeof rate);
        snprintf(f0, sizeof f0, "%s %s per GPU, %s", plan_fabric_name(net->fabric), rate,
                 plan_topology_name(net->topology));
        snprintf(f2, sizeof f2, "%s links", fmt_int(cl->links, a, sizeof a));
        snprintf(f3, sizeof f3, "scale-out %s/GPU", fmt_si(cl->scaleout_bw_per_gpu, "B/s", b, sizeof b));
        const char *items[] = {f0, f2, f3};
        canvas_fields(&c, 1, ROLE_NORMAL, items, 3);
    }
    /* the switch tiers as a compact tree, top tier first, nodes at the root */
    {
        char cnt[32], f0[64], f1[64], f2[64];
        const char *g_top = term_glyphs->tt, *g_mid = term_glyphs->lt;
        if (cl->core_switches > 0)
            tier(&c, g_top, "core", fmt_int(cl->core_switches, cnt, sizeof cnt), "switches", NULL, 0);
        snprintf(f1, sizeof f1, "%s leaf-spine links", fmt_int(cl->links_leaf_spine, a, sizeof a));
        const char *fs_spine[] = {f1};
        tier(&c, cl->core_switches > 0 ? g_mid : g_top, "spine", fmt_int(cl->spine_switches, cnt, sizeof cnt),
             "switches", fs_spine, 1);
        snprintf(f1, sizeof f1, "%s node-leaf links", fmt_int(cl->links_node_leaf, a, sizeof a));
        snprintf(f2, sizeof f2, "oversubscription %g:1", net->oversubscription);
        const char *fs_leaf[] = {f1, f2};
        tier(&c, g_mid, "leaf", fmt_int(cl->leaf_switches, cnt, sizeof cnt), "switches", fs_leaf, 2);
        snprintf(f0, sizeof f0, "%s %d GPUs", term_glyphs->times, cl->gpus_per_node);
        tier(&c, term_glyphs->bl, "nodes", fmt_int(cl->nodes, cnt, sizeof cnt), f0, NULL, 0);
    }
    {
        char f0[64], f1[64], f2[64], f3[64];
        snprintf(f0, sizeof f0, "storage %s units", fmt_int(cl->storage_units, a, sizeof a));
        snprintf(f1, sizeof f1, "read %s", fmt_si(cl->storage_read_Bps, "B/s", b, sizeof b));
        snprintf(f2, sizeof f2, "write %s", fmt_si(cl->storage_write_Bps, "B/s", d, sizeof d));
        snprintf(f3, sizeof f3, "%s", fmt_si(cl->storage_capacity_bytes, "B", e, sizeof e));
        const char *items[] = {f0, f1, f2, f3};
        canvas_fields(&c, 1, ROLE_MUTED, items, 4);
    }

    /* racks */
    int total = rack_total(cl);
    if (total == 0 || cl->gpus_per_node <= 0) {
        y = canvas_next(&c);
        if (y >= 0)
            term_put(y, r.x + 1, r.w - 1, ROLE_MUTED, "racks: none");
        canvas_end(&c, &s->scroll);
        return;
    }
    int inner = cl->gpus_per_node > 6 ? cl->gpus_per_node : 6;
    int box_w = inner + 2, gap = 1;
    int per_row = (r.w - 2) / (box_w + gap);
    if (per_row < 1)
        per_row = 1;
    if (s->first_rack > total - 1)
        s->first_rack = total - 1;
    if (s->first_rack < 0)
        s->first_rack = 0;
    int shown = total - s->first_rack < per_row ? total - s->first_rack : per_row;
    int max_nodes = 0;
    for (int g = 0; g < cl->n_rack_groups; g++)
        if (cl->rack_groups[g].nodes > max_nodes)
            max_nodes = cl->rack_groups[g].nodes;
    y = canvas_next(&c);
    if (y >= 0) {
        snprintf(line, sizeof line, "racks %d-%d of %d", s->first_rack + 1, s->first_rack + shown, total);
        int used = term_put(y, r.x + 1, r.w - 1, ROLE_TITLE, line);
        int more = total - s->first_rack - shown;
        if (more > 0) {
            /* the scroll hint only when it fits beside the title */
            snprintf(line, sizeof line, "%s %d more rack%s (<-/->)", term_glyphs->more, more, more == 1 ? "" : "s");
            if (used + 3 + term_strwidth(line) > r.w - 1)
                snprintf(line, sizeof line, "%s %d more", term_glyphs->more, more);
            if (used + 3 + term_strwidth(line) <= r.w - 1)
                term_put_right(y, r.x, r.w - 1, ROLE_MUTED, line);
        }
    }
    int rows = max_nodes + 2;
    for (int row = 0; row < rows; row++) {
        y = canvas_next(&c);
        if (y < 0)
            continue;
        for (int k = 0; k < shown; k++) {
            int first_node;
            const RackGroup *rg = rack_at(cl, s->first_rack + k, &first_node);
            if (!rg)
                continue;
            int x = r.x + 1 + k * (box_w + gap);
            bool compute = first_node >= 0;
            if (row == 0 || row == rg->nodes + 1) {
                if (row > rg->nodes + 1)
                    continue;
                term_put(y, x, 1, ROLE_BORDER, row == 0 ? term_glyphs->tl : term_glyphs->bl);
                widget_hline(y, x + 1, inner, ROLE_BORDER);
                term_put(y, x + box_w - 1, 1, ROLE_BORDER, row == 0 ? term_glyphs->tr : term_glyphs->br);
                if (row == 0) {
                    char lab[16];
                    snprintf(lab, sizeof lab, "%d", s->first_rack + k + 1);
                    term_put(y, x + 1, inner, ROLE_MUTED, compute ? lab : rg->role);
                }
                continue;
            }
            if (row > rg->nodes)
                continue;
            term_put(y, x, 1, ROLE_BORDER, term_glyphs->v);
            term_put(y, x + box_w - 1, 1, ROLE_BORDER, term_glyphs->v);
            if (!compute) {
                term_fill(y, x + 1, inner, ROLE_MUTED, term_glyphs->shade_light);
                continue;
            }
            int node = first_node + row - 1;
            if (node >= cl->nodes) {
                term_fill(y, x + 1, inner, ROLE_MUTED, " ");
                continue;
            }
            for (int gpu = 0; gpu < cl->gpus_per_node; gpu++) {
                long idx = (long)node * cl->gpus_per_node + gpu;
                long dom = cl->gpus_per_domain > 0 ? idx / cl->gpus_per_domain : 0;
                term_put(y, x + 1 + gpu, 1, dom % 2 ? ROLE_DOMAIN_B : ROLE_DOMAIN_A,
                         dom % 2 ? term_glyphs->shade_mid : term_glyphs->shade_full);
            }
        }
    }
    snprintf(line, sizeof line, "each cell a GPU, each row a node; shading alternates per NVLink domain of %d GPUs",
             cl->gpus_per_domain);
    canvas_wrap(&c, 1, ROLE_MUTED, line);
    canvas_end(&c, &s->scroll);
}

static int t_key(View *v, App *app, Action a, int ch)
{
    TState *s = v->state;
    (void)ch;
    if (a == ACT_LEFT || a == ACT_RIGHT) {
        const PlanResult *res = app_result(app);
        int step = 1;
        if (res && res->have_layout && res->cluster.gpus_per_node > 0) {
            int inner = res->cluster.gpus_per_node > 6 ? res->cluster.gpus_per_node : 6;
            step = (app->geo.pane.w - 2) / (inner + 3);
            if (step < 1)
                step = 1;
        }
        s->first_rack += a == ACT_LEFT ? -step : step;
        if (s->first_rack < 0)
            s->first_rack = 0;
        return HR_HANDLED | HR_REDRAW;
    }
    return app_scroll(&s->scroll, a, app->geo.pane.h - 1);
}

/* A tab shown again, or another plan: from the top, not where an earlier
 * content left the offsets (stale scroll; issue 15). */
static void t_show(View *v, App *app)
{
    (void)app;
    if (v->state)
        memset(v->state, 0, sizeof(TState));
}

const ViewOps view_topology_ops = {
    .name = "Topology", .abbrev = "Topo", .ctx = CTX_PANE,
    .create = t_create, .draw = t_draw, .key = t_key, .destroy = t_destroy,
    .show = t_show,
};
