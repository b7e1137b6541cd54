/* plans/strbuf.h — a growable string for the exporters, with the escaping
 * each output format needs.  On ENOMEM the buffer is marked failed, later
 * appends do nothing, and strbuf_finish returns NULL. */
#ifndef GPUPLAN_PLANS_STRBUF_H
#define GPUPLAN_PLANS_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *s;
    size_t len, cap;
    bool failed;
} StrBuf;

void sb_init(StrBuf *b);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Escaped appends. */
void sb_html(StrBuf *b, const char *s);   /* & < > " ' */
void sb_md(StrBuf *b, const char *s);     /* Markdown inline text incl. table cells */
void sb_csv(StrBuf *b, const char *s);    /* RFC 4180 field, quoted when needed */
void sb_yaml(StrBuf *b, const char *s);   /* a double-quoted YAML scalar */
/* Kubernetes object name (RFC 1123 label: [a-z0-9-], ≤ 63, alnum at both ends)
 * derived from s; never empty ("x" when nothing usable remains). */
void sb_k8s_name(StrBuf *b, const char *s);
/* Return the string (caller frees) or NULL after a failure; resets b. */
char *sb_finish(StrBuf *b);
void sb_free(StrBuf *b);

#endif
