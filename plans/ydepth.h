/* plans/ydepth.h — checks shared by the YAML readers (plans, catalogs): a
 * bound on how deeply a text nests, checked while it is loaded, and the
 * line and column of a reader error.  libyaml 0.2.5 scans nested flow collections in time
 * quadratic in the depth (every token re-checks each level's simple key):
 * 100,000 nested `{a: ` took minutes; a plan or catalog nests about 6 deep. */
#ifndef GPUPLAN_PLANS_YDEPTH_H
#define GPUPLAN_PLANS_YDEPTH_H

#include <stddef.h>
#include <yaml.h>

/* Deeper than any plan or catalog file needs (a job in a team's jobs list in
 * tenancy is 5 levels down), shallow enough to stop the scan early. */
#define YDEPTH_MAX 32

/* yaml_parser_load with a bound on nesting, in the same single pass over the
 * events: the next document of p's stream into *doc, built as libyaml
 * 0.2.5's loader builds it (node ids, marks, default tags, anchors and
 * aliases, its composer errors).  1 when loaded (no root node at the end of
 * the stream), 0 on an error with p->error set as yaml_parser_load sets it,
 * -1 with *at set to the start of the first collection that opens deeper
 * than max_depth levels.  The parse stops there, so a deep text costs no
 * more than its first max_depth levels (the old check parsed every file a
 * second time before loading it).  On 0 and -1, *doc holds nothing to free.
 * Nothing here recurses: open collections are an explicit stack.  (The
 * 0.2.5 loader does not recurse either — loader.c keeps a loader_ctx stack —
 * but it reads the whole document, so bounding depth after
 * yaml_parser_load would keep the quadratic scan.) */
int ydepth_load(yaml_parser_t *p, yaml_document_t *doc, int max_depth, yaml_mark_t *at);

/* 1-based line and byte column of byte `offset` of text: libyaml's reader
 * errors (invalid UTF-8, control characters) give only an offset. */
void ydepth_locate(const char *text, size_t len, size_t offset, int *line, int *col);

#endif
