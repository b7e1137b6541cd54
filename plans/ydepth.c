/* plans/ydepth.c — see ydepth.h. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ydepth.h"

/* One open collection: its node id and, for a mapping, the key whose value
 * is still being read (0 when the next child is a key). */
typedef struct {
    int node;
    int key;
} Open;

/* An anchor of this document, its node and where that node starts. */
typedef struct {
    char *name; /* our copy */
    int node;
    yaml_mark_t mark;
} Anchor;

typedef struct {
    Open *open;
    int n_open, cap_open;
    Anchor *anchors;
    int n_anchors, cap_anchors;
} Composer;

static int oom(yaml_parser_t *p)
{
    p->error = YAML_MEMORY_ERROR;
    return 0;
}

/* a with room for need elements of size bytes (cap updated), NULL when out
 * of memory (a is then unchanged). */
static void *grow(void *a, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return a;
    int n = *cap ? 2 * *cap : 16;
    void *b = realloc(a, (size_t)n * size);
    if (b)
        *cap = n;
    return b;
}

/* The loader's yaml_parser_register_anchor: a second anchor of the same
 * name in one document is an error there, so it is here. */
static int add_anchor(yaml_parser_t *p, Composer *c, const yaml_char_t *name, int node,
                      yaml_mark_t mark)
{
    if (!name)
        return 1;
    for (int i = 0; i < c->n_anchors; i++) {
        if (strcmp(c->anchors[i].name, (const char *)name) == 0) {
            p->error = YAML_COMPOSER_ERROR;
            p->context = "found duplicate anchor; first occurrence";
            p->context_mark = c->anchors[i].mark;
            p->problem = "second occurrence";
            p->problem_mark = mark;
            return 0;
        }
    }
    Anchor *a = grow(c->anchors, &c->cap_anchors, c->n_anchors + 1, sizeof *a);
    if (!a)
        return oom(p);
    c->anchors = a;
    char *copy = strdup((const char *)name);
    if (!copy)
        return oom(p);
    c->anchors[c->n_anchors++] = (Anchor){.name = copy, .node = node, .mark = mark};
    return 1;
}

/* The loader's yaml_parser_load_node_add: node joins the innermost open
 * collection (nothing to do for the root). */
static int attach(yaml_parser_t *p, Composer *c, yaml_document_t *doc, int node)
{
    if (c->n_open == 0)
        return 1;
    Open *o = &c->open[c->n_open - 1];
    yaml_node_t *parent = &doc->nodes.start[o->node - 1];
    if (parent->type == YAML_SEQUENCE_NODE)
        return yaml_document_append_sequence_item(doc, o->node, node) ? 1 : oom(p);
    if (!o->key) {
        o->key = node;
        return 1;
    }
    int key = o->key;
    o->key = 0;
    return yaml_document_append_mapping_pair(doc, o->node, key, node) ? 1 : oom(p);
}

/* Event tags that the loader replaces by the default tag. */
static bool default_tag(const yaml_char_t *tag)
{
    return !tag || strcmp((const char *)tag, "!") == 0;
}

/* Swap a and b: the document node takes the event's string and the event
 * takes the node's placeholder, which yaml_event_delete then frees; libyaml
 * allocated both. */
static void swap_str(yaml_char_t **a, yaml_char_t **b)
{
    yaml_char_t *t = *a;
    *a = *b;
    *b = t;
}

/* One event of a document's body. 1 to go on, 0 on an error (p->error set),
 * -1 when a collection opens deeper than max_depth. */
static int compose_event(yaml_parser_t *p, Composer *c, yaml_document_t *doc, yaml_event_t *ev,
                         int max_depth, yaml_mark_t *deep)
{
    static const yaml_char_t empty[] = "";
    int id;
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        for (int i = 0; i < c->n_anchors; i++)
            if (strcmp(c->anchors[i].name, (const char *)ev->data.alias.anchor) == 0)
                return attach(p, c, doc, c->anchors[i].node);
        p->error = YAML_COMPOSER_ERROR;
        p->problem = "found undefined alias";
        p->problem_mark = ev->start_mark;
        return 0;
    case YAML_SCALAR_EVENT: {
        id = yaml_document_add_scalar(doc, NULL, empty, 0, ev->data.scalar.style);
        if (!id)
            return oom(p);
        yaml_node_t *n = &doc->nodes.start[id - 1];
        swap_str(&n->data.scalar.value, &ev->data.scalar.value);
        n->data.scalar.length = ev->data.scalar.length;
        if (!default_tag(ev->data.scalar.tag))
            swap_str(&n->tag, &ev->data.scalar.tag);
        n->start_mark = ev->start_mark;
        n->end_mark = ev->end_mark;
        if (!add_anchor(p, c, ev->data.scalar.anchor, id, ev->start_mark))
            return 0;
        return attach(p, c, doc, id);
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        if (c->n_open >= max_depth) {
            *deep = ev->start_mark;
            return -1;
        }
        bool seq = ev->type == YAML_SEQUENCE_START_EVENT;
        yaml_char_t **tag = seq ? &ev->data.sequence_start.tag : &ev->data.mapping_start.tag;
        const yaml_char_t *anchor =
            seq ? ev->data.sequence_start.anchor : ev->data.mapping_start.anchor;
        id = seq ? yaml_document_add_sequence(doc, NULL, ev->data.sequence_start.style)
                 : yaml_document_add_mapping(doc, NULL, ev->data.mapping_start.style);
        if (!id)
            return oom(p);
        yaml_node_t *n = &doc->nodes.start[id - 1];
        if (!default_tag(*tag))
            swap_str(&n->tag, tag);
        n->start_mark = ev->start_mark;
        n->end_mark = ev->end_mark;
        if (!add_anchor(p, c, anchor, id, ev->start_mark) || !attach(p, c, doc, id))
            return 0;
        Open *o = grow(c->open, &c->cap_open, c->n_open + 1, sizeof *o);
        if (!o)
            return oom(p);
        c->open = o;
        c->open[c->n_open++] = (Open){.node = id, .key = 0};
        return 1;
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        /* The parser balances starts and ends: an end closes an open one. */
        doc->nodes.start[c->open[--c->n_open].node - 1].end_mark = ev->end_mark;
        return 1;
    default: /* only node events come between DOCUMENT-START and -END */
        return 1;
    }
}

int ydepth_load(yaml_parser_t *p, yaml_document_t *doc, int max_depth, yaml_mark_t *deep)
{
    yaml_event_t ev;
    memset(doc, 0, sizeof *doc);
    if (!p->stream_start_produced) {
        if (!yaml_parser_parse(p, &ev))
            return 0;
        yaml_event_delete(&ev); /* STREAM-START */
    }
    if (p->stream_end_produced)
        return yaml_document_initialize(doc, NULL, NULL, NULL, 0, 0) ? 1 : oom(p);
    if (!yaml_parser_parse(p, &ev))
        return 0;
    if (ev.type == YAML_STREAM_END_EVENT) {
        yaml_event_delete(&ev);
        return yaml_document_initialize(doc, NULL, NULL, NULL, 0, 0) ? 1 : oom(p);
    }
    /* DOCUMENT-START: the document copies its directives. */
    int ok = yaml_document_initialize(doc, ev.data.document_start.version_directive,
                                      ev.data.document_start.tag_directives.start,
                                      ev.data.document_start.tag_directives.end,
                                      ev.data.document_start.implicit, 0);
    doc->start_mark = ev.start_mark;
    yaml_event_delete(&ev);
    if (!ok) {
        memset(doc, 0, sizeof *doc);
        return oom(p);
    }
    Composer c = {0};
    int rc = 1;
    while (rc == 1) {
        if (!yaml_parser_parse(p, &ev)) {
            rc = 0;
            break;
        }
        if (ev.type == YAML_DOCUMENT_END_EVENT) {
            doc->end_implicit = ev.data.document_end.implicit;
            doc->end_mark = ev.end_mark;
            yaml_event_delete(&ev);
            break;
        }
        rc = compose_event(p, &c, doc, &ev, max_depth, deep);
        yaml_event_delete(&ev);
    }
    for (int i = 0; i < c.n_anchors; i++)
        free(c.anchors[i].name);
    free(c.anchors);
    free(c.open);
    if (rc != 1)
        yaml_document_delete(doc);
    return rc;
}

void ydepth_locate(const char *text, size_t len, size_t offset, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; text && i < offset && i < len; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}
