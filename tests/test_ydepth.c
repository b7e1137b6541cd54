/* tests/test_ydepth.c — ydepth_load against libyaml's own loader: on every
 * shipped catalog, example plan and fuzz-corpus file, and on texts with
 * anchors, aliases, tags, directives, several documents and errors, it must
 * build the same documents (node for node: types, tags, values, styles,
 * marks, children) and fail with the same error; and it must stop at the
 * first collection deeper than the bound, quickly, however deep the text. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_main.h"
#include "ydepth.h"

static void same_mark(yaml_mark_t a, yaml_mark_t b, const char *what, const char *name)
{
    ck_assert_msg(a.index == b.index && a.line == b.line && a.column == b.column,
                  "%s: %s mark %zu:%zu vs %zu:%zu", name, what, a.line, a.column, b.line,
                  b.column);
}

static void same_str(const yaml_char_t *a, const yaml_char_t *b, const char *what,
                     const char *name)
{
    ck_assert_msg((!a && !b) || (a && b && strcmp((const char *)a, (const char *)b) == 0),
                  "%s: %s '%s' vs '%s'", name, what, a ? (const char *)a : "(null)",
                  b ? (const char *)b : "(null)");
}

static void same_document(yaml_document_t *a, yaml_document_t *b, const char *name)
{
    long na = a->nodes.top - a->nodes.start, nb = b->nodes.top - b->nodes.start;
    ck_assert_msg(na == nb, "%s: %ld vs %ld nodes", name, na, nb);
    same_mark(a->start_mark, b->start_mark, "document start", name);
    same_mark(a->end_mark, b->end_mark, "document end", name);
    ck_assert_int_eq(a->start_implicit, b->start_implicit);
    ck_assert_int_eq(a->end_implicit, b->end_implicit);
    ck_assert_int_eq(!a->version_directive, !b->version_directive);
    if (a->version_directive) {
        ck_assert_int_eq(a->version_directive->major, b->version_directive->major);
        ck_assert_int_eq(a->version_directive->minor, b->version_directive->minor);
    }
    long ta = a->tag_directives.end - a->tag_directives.start;
    ck_assert_int_eq(ta, b->tag_directives.end - b->tag_directives.start);
    for (long i = 0; i < ta; i++) {
        same_str(a->tag_directives.start[i].handle, b->tag_directives.start[i].handle, "handle",
                 name);
        same_str(a->tag_directives.start[i].prefix, b->tag_directives.start[i].prefix, "prefix",
                 name);
    }
    for (long i = 0; i < na; i++) {
        yaml_node_t *x = &a->nodes.start[i], *y = &b->nodes.start[i];
        ck_assert_msg(x->type == y->type, "%s: node %ld type", name, i + 1);
        same_str(x->tag, y->tag, "tag", name);
        same_mark(x->start_mark, y->start_mark, "node start", name);
        same_mark(x->end_mark, y->end_mark, "node end", name);
        switch (x->type) {
        case YAML_SCALAR_NODE:
            ck_assert_uint_eq(x->data.scalar.length, y->data.scalar.length);
            ck_assert(memcmp(x->data.scalar.value, y->data.scalar.value, x->data.scalar.length) ==
                      0);
            ck_assert_int_eq(x->data.scalar.style, y->data.scalar.style);
            break;
        case YAML_SEQUENCE_NODE: {
            long n = x->data.sequence.items.top - x->data.sequence.items.start;
            ck_assert_int_eq(n, y->data.sequence.items.top - y->data.sequence.items.start);
            for (long k = 0; k < n; k++)
                ck_assert_int_eq(x->data.sequence.items.start[k], y->data.sequence.items.start[k]);
            ck_assert_int_eq(x->data.sequence.style, y->data.sequence.style);
            break;
        }
        case YAML_MAPPING_NODE: {
            long n = x->data.mapping.pairs.top - x->data.mapping.pairs.start;
            ck_assert_int_eq(n, y->data.mapping.pairs.top - y->data.mapping.pairs.start);
            for (long k = 0; k < n; k++) {
                ck_assert_int_eq(x->data.mapping.pairs.start[k].key,
                                 y->data.mapping.pairs.start[k].key);
                ck_assert_int_eq(x->data.mapping.pairs.start[k].value,
                                 y->data.mapping.pairs.start[k].value);
            }
            ck_assert_int_eq(x->data.mapping.style, y->data.mapping.style);
            break;
        }
        default:
            ck_abort_msg("%s: node %ld has no type", name, i + 1);
        }
    }
}

/* Every document of text through both loaders; returns how many loaded. */
static int compare_stream(const char *text, size_t len, const char *name)
{
    yaml_parser_t pa, pb;
    ck_assert(yaml_parser_initialize(&pa) && yaml_parser_initialize(&pb));
    yaml_parser_set_input_string(&pa, (const unsigned char *)text, len);
    yaml_parser_set_input_string(&pb, (const unsigned char *)text, len);
    int docs = 0;
    for (;;) {
        yaml_document_t a, b;
        yaml_mark_t deep;
        int ra = yaml_parser_load(&pa, &a);
        int rb = ydepth_load(&pb, &b, 1000, &deep);
        ck_assert_msg(ra == rb, "%s: document %d: loader %d, ydepth_load %d", name, docs + 1, ra,
                      rb);
        if (!ra) {
            ck_assert_int_eq(pa.error, pb.error);
            same_str((const yaml_char_t *)pa.problem, (const yaml_char_t *)pb.problem, "problem",
                     name);
            same_str((const yaml_char_t *)pa.context, (const yaml_char_t *)pb.context, "context",
                     name);
            same_mark(pa.problem_mark, pb.problem_mark, "problem", name);
            if (pa.context)
                same_mark(pa.context_mark, pb.context_mark, "context", name);
            ck_assert_uint_eq(pa.problem_offset, pb.problem_offset);
            break;
        }
        same_document(&a, &b, name);
        int root = yaml_document_get_root_node(&a) != NULL;
        ck_assert_int_eq(root, yaml_document_get_root_node(&b) != NULL);
        yaml_document_delete(&a);
        yaml_document_delete(&b);
        if (!root)
            break;
        docs++;
    }
    yaml_parser_delete(&pa);
    yaml_parser_delete(&pb);
    return docs;
}

static int compare_dir(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".yaml") != 0)
            continue;
        char path[8192];
        int w = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ck_assert(w > 0 && (size_t)w < sizeof path);
        FILE *f = fopen(path, "rb");
        ck_assert_msg(f != NULL, "%s", path);
        char *buf = NULL;
        size_t len = 0, cap = 0;
        for (size_t got;;) {
            if (len + 4096 > cap) {
                cap = 2 * cap + 4096;
                buf = realloc(buf, cap);
                ck_assert(buf != NULL);
            }
            if ((got = fread(buf + len, 1, cap - len, f)) == 0)
                break;
            len += got;
        }
        fclose(f);
        compare_stream(buf, len, path);
        free(buf);
        files++;
    }
    closedir(d);
    return files;
}

START_TEST(builds_the_loaders_document_for_every_shipped_and_corpus_file)
{
    const char *sub[] = {"data/catalog", "data/examples", "fuzz/corpus/plan",
                         "fuzz/corpus/catalog"};
    int files = 0;
    for (size_t i = 0; i < sizeof sub / sizeof *sub; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", GPUPLAN_SRCDIR, sub[i]);
        DIR *probe = opendir(dir);
        if (!probe && i >= 2)
            continue; /* a corpus directory the tree may not have */
        if (probe)
            closedir(probe);
        files += compare_dir(dir);
    }
    ck_assert_int_ge(files, 20);
}
END_TEST

START_TEST(builds_the_loaders_document_for_anchors_tags_directives_and_errors)
{
    static const char *texts[] = {
        "a: &x {b: [1, 2, &y three]}\nc: *x\nd: *y\n*y : key alias\n",
        "%YAML 1.1\n%TAG !e! tag:example.com,2000:\n--- !e!map\n"
        "k: !!str 1\nl: ! plain\nm: !local [a, !e!s b]\n",
        "- one\n- 'two'\n- \"three\"\n- |\n  four\n- >\n  five\n- ? complex\n  : key\n",
        "--- a\n...\n--- [b]\n---\n{c: d}\n",
        "",
        "# only a comment\n",
        "---\n",
        "a: &x 1\nb: &x 2\n",           /* duplicate anchor */
        "a: [&x 1, &x [2]]\n",          /* duplicate anchor on a collection */
        "a: *nowhere\n",                /* undefined alias */
        "a: [1, 2\nb: 3\n",             /* syntax error */
        "a: 1\n--- [1\n",               /* error in the second document */
        "name: t\n\xff\xfe\n",          /* reader error */
        "{a: 1, b: [x, {c: *d}]}\n",
        "? [a, b]\n: {c: &q d}\ne: *q\n",
        "a:\n  - b:\n      - c: {d: [e, [f, [g]]]}\n",
    };
    int docs = 0;
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        docs += compare_stream(texts[i], strlen(texts[i]), texts[i]);
    ck_assert_int_ge(docs, 10);
}
END_TEST

/* depth ASCII brackets of one kind, then the closers. */
static char *nest(const char *open, const char *close, long depth, size_t *len)
{
    size_t lo = strlen(open), lc = strlen(close);
    char *t = malloc((lo + lc) * (size_t)depth + 4);
    ck_assert(t != NULL);
    char *p = t;
    for (long i = 0; i < depth; i++, p += lo)
        memcpy(p, open, lo);
    *p++ = '1';
    for (long i = 0; i < depth; i++, p += lc)
        memcpy(p, close, lc);
    *p++ = '\n';
    *len = (size_t)(p - t);
    return t;
}

static int load_depth(const char *text, size_t len, int max, yaml_mark_t *deep)
{
    yaml_parser_t p;
    yaml_document_t doc;
    ck_assert(yaml_parser_initialize(&p));
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    int rc = ydepth_load(&p, &doc, max, deep);
    if (rc == 1)
        yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    return rc;
}

START_TEST(stops_at_the_first_collection_deeper_than_the_bound)
{
    size_t len;
    yaml_mark_t deep = {0, 0, 0};
    char *t = nest("[", "]", 32, &len);
    ck_assert_int_eq(load_depth(t, len, 32, &deep), 1);
    free(t);
    t = nest("[", "]", 33, &len);
    ck_assert_int_eq(load_depth(t, len, 32, &deep), -1);
    ck_assert_uint_eq(deep.line, 0);
    ck_assert_uint_eq(deep.column, 32);
    free(t);
    /* block nesting counts too: the 3rd mapping at 2 levels */
    const char *block = "a:\n  b:\n    c: 1\n";
    ck_assert_int_eq(load_depth(block, strlen(block), 3, &deep), 1);
    ck_assert_int_eq(load_depth(block, strlen(block), 2, &deep), -1);
    ck_assert_uint_eq(deep.line, 2);
    ck_assert_uint_eq(deep.column, 4);
    /* a million levels: refused at the 33rd, in far less than the quadratic
     * scan's minutes (and with no recursion to overflow the stack) */
    const char *kinds[][2] = {{"[", "]"}, {"{a: ", "}"}};
    for (int k = 0; k < 2; k++) {
        t = nest(kinds[k][0], kinds[k][1], 1000000, &len);
        clock_t c0 = clock();
        ck_assert_int_eq(load_depth(t, len, YDEPTH_MAX, &deep), -1);
        double s = (double)(clock() - c0) / CLOCKS_PER_SEC;
        ck_assert_uint_eq(deep.column, (size_t)YDEPTH_MAX * strlen(kinds[k][0]));
        ck_assert_msg(s < 5.0, "%.2f s to refuse a million levels", s);
        free(t);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("ydepth");
    TCase *tc = tcase_create("load");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, builds_the_loaders_document_for_every_shipped_and_corpus_file);
    tcase_add_test(tc, builds_the_loaders_document_for_anchors_tags_directives_and_errors);
    tcase_add_test(tc, stops_at_the_first_collection_deeper_than_the_bound);
    suite_add_tcase(s, tc);
    return s;
}
