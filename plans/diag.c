/* plans/diag.c — diagnostics with file:line:column, and "did you mean". */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diag.h"
#include "sanitize.h"

void diag_set(Diag *d, const char *file, int line, int col, const char *fmt, ...)
{
    if (!d)
        return;
    snprintf(d->file, sizeof d->file, "%s", file ? file : "");
    d->line = line > 0 ? line : 0;
    d->col = col > 0 ? col : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
}

/* The raw "FILE:LINE:COL: msg" (it may quote input verbatim). */
static const char *diag_format_raw(const Diag *d, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!d)
        return buf;
    size_t n = 0;
    int w;
#define DIAG_APPEND(...)                                            \
    do {                                                            \
        w = snprintf(buf + n, len - n, __VA_ARGS__);                \
        if (w < 0)                                                  \
            return buf;                                             \
        n = (size_t)w >= len - n ? len - 1 : n + (size_t)w;         \
    } while (0)
    if (d->file[0]) {
        DIAG_APPEND("%s:", d->file);
        if (d->line > 0) {
            DIAG_APPEND("%d:", d->line);
            if (d->col > 0)
                DIAG_APPEND("%d:", d->col);
        }
        DIAG_APPEND(" ");
    } else if (d->line > 0) {
        DIAG_APPEND("line %d", d->line);
        if (d->col > 0)
            DIAG_APPEND(", column %d", d->col);
        DIAG_APPEND(": ");
    }
    DIAG_APPEND("%s", d->msg);
#undef DIAG_APPEND
    return buf;
}

const char *diag_format(const Diag *d, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    /* A message quotes what it refuses (an unknown key, a trace cell): its
     * control characters are shown as escapes, never sent (issue 17 D3). */
    char raw[sizeof d->file + sizeof d->msg + 64];
    return sanitize_text(diag_format_raw(d, raw, sizeof raw), SANITIZE_LINE, buf, len);
}

/* Case-insensitive Levenshtein distance (Wagner–Fischer, two rows).
 * Words longer than 64 bytes are never "near" anything, which bounds the
 * work on hostile input. */
#define NEAR_MAX_WORD 64

static int edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    int prev[NEAR_MAX_WORD + 1], cur[NEAR_MAX_WORD + 1];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        int ca = tolower((unsigned char)a[i - 1]);
        for (size_t j = 1; j <= lb; j++) {
            int cost = ca == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            int best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (prev[j - 1] + cost < best)
                best = prev[j - 1] + cost;
            cur[j] = best;
        }
        memcpy(prev, cur, (lb + 1) * sizeof prev[0]);
    }
    return prev[lb];
}

const char *diag_nearest(const char *word, const char *const *cands, size_t n)
{
    if (!word || !cands)
        return NULL;
    size_t lw = strlen(word);
    if (lw == 0 || lw > NEAR_MAX_WORD)
        return NULL;
    /* A suggestion is useful when at most about a third of the word is
     * wrong: one edit for short words, up to 4 for long ids. */
    int limit = (int)(lw / 3);
    if (limit < 1)
        limit = 1;
    if (limit > 4)
        limit = 4;
    /* A word that starts exactly one candidate ("deepseek" → "deepseek-v3")
     * means that candidate, however many letters are missing. */
    const char *prefix_of = NULL;
    int prefixes = 0;
    for (size_t i = 0; lw >= 3 && i < n; i++) {
        if (cands[i] && strncasecmp(cands[i], word, lw) == 0 && strlen(cands[i]) > lw) {
            prefix_of = cands[i];
            prefixes++;
        }
    }
    if (prefixes == 1)
        return prefix_of;
    const char *best = NULL;
    int best_d = limit + 1;
    for (size_t i = 0; i < n; i++) {
        if (!cands[i])
            continue;
        size_t lc = strlen(cands[i]);
        if (lc == 0 || lc > NEAR_MAX_WORD)
            continue;
        int d = edit_distance(word, lw, cands[i], lc);
        if (d < best_d) {
            best_d = d;
            best = cands[i];
        }
    }
    return best;
}
