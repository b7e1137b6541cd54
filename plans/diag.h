/* plans/diag.h — one diagnostic: where (file:line:column) and what.
 * Every parser in plans/ reports through this so the CLI and TUI print
 * `gpuplan: FILE:LINE:COL: message` the same way. */
#ifndef GPUPLAN_PLANS_DIAG_H
#define GPUPLAN_PLANS_DIAG_H

#include <stddef.h>

typedef struct {
    char file[256];      /* "" when not from a file */
    int line;            /* 1-based; 0 = unknown */
    int col;             /* 1-based; 0 = unknown */
    char msg[512];
} Diag;

/* Set d (if not NULL) to file:line:col + printf-style message. */
void diag_set(Diag *d, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* "FILE:LINE:COL: msg" (omitting the parts that are unknown) into buf, with
 * control characters shown as visible escapes (sanitize.h). */
const char *diag_format(const Diag *d, char *buf, size_t len);

/* Levenshtein-nearest of `word` among `cands` (n of them), or NULL when
 * nothing is within a useful distance.  Used for "did you mean …". */
const char *diag_nearest(const char *word, const char *const *cands, size_t n);

#endif
