/* plans/ydepth.h — checks shared by the YAML readers (plans, catalogs): a
 * bound on how deeply a text nests, checked before it is loaded, and the
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

/* 0 when no collection in text nests deeper than max_depth levels, or the
 * text is not valid YAML (the loader reports that error itself); -1 with
 * *at set to the first collection that is too deep. */
int ydepth_check(const char *text, size_t len, int max_depth, yaml_mark_t *at);

/* 1-based line and byte column of byte `offset` of text: libyaml's reader
 * errors (invalid UTF-8, control characters) give only an offset. */
void ydepth_locate(const char *text, size_t len, size_t offset, int *line, int *col);

#endif
