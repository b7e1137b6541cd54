/* plans/sanitize.c — visible escapes for control characters (sanitize.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"

/* Decode one UTF-8 character at s (RFC 3629: shortest form, no surrogates,
 * at most U+10FFFF).  Returns its length and sets *cp, or returns 1 with
 * *cp = -1 for a byte that does not start a valid character. */
static size_t utf8_next(const unsigned char *s, long *cp)
{
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = (long)c;
        return 1;
    }
    int extra;
    unsigned long min, v;
    if ((c & 0xe0) == 0xc0) {
        extra = 1;
        min = 0x80;
        v = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        extra = 2;
        min = 0x800;
        v = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        extra = 3;
        min = 0x10000;
        v = c & 0x07;
    } else {
        *cp = -1;
        return 1;
    }
    for (int k = 1; k <= extra; k++) {
        if ((s[k] & 0xc0) != 0x80) { /* also stops at the NUL */
            *cp = -1;
            return 1;
        }
        v = v << 6 | (s[k] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
        *cp = -1;
        return 1;
    }
    *cp = (long)v;
    return (size_t)extra + 1;
}

/* Does code point cp (-1: a stray byte) need an escape? */
static bool needs_escape(long cp, int flags)
{
    if (cp < 0)
        return true;
    if (cp < 0x20)
        return !((flags & SANITIZE_KEEP_NEWLINES) && (cp == '\n' || cp == '\t'));
    if (cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
        return true;
    /* Unicode bidi embeddings/overrides and isolates reorder what follows
     * (Boucher & Anderson, "Trojan Source", CVE-2021-42574); the line and
     * paragraph separators break a line where the reader does not see one. */
    return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 ||
           cp == 0x2029;
}

/* The escape for a character (cp <= 0x10ffff) or stray byte (cp < 0, byte
 * b) into e[12]. */
static size_t escape_of(long cp, unsigned char b, char e[12])
{
    int n = cp < 0x80 ? snprintf(e, 12, "\\x%02x", cp < 0 ? (unsigned)b : (unsigned)cp)
                      : snprintf(e, 12, "\\u%04x", (unsigned)(cp & 0x1fffff));
    return n > 0 ? (size_t)n : 0;
}

bool sanitize_is_clean(const char *s, int flags)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        long cp;
        size_t n = utf8_next(p, &cp);
        if (needs_escape(cp, flags))
            return false;
        p += n;
    }
    return true;
}

/* Sanitise s into out when out != NULL (len bytes, NUL-terminated); returns
 * the length the whole result needs (without the NUL). */
static size_t sanitize_into(const char *s, int flags, char *out, size_t len)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t need = 0, used = 0;
    bool full = false;
    while (*p) {
        long cp;
        size_t n = utf8_next(p, &cp);
        char e[12];
        const char *piece = (const char *)p;
        size_t plen = n;
        if (needs_escape(cp, flags)) {
            plen = escape_of(cp, *p, e);
            piece = e;
        }
        need += plen;
        if (out && !full) {
            if (used + plen < len) {
                memcpy(out + used, piece, plen);
                used += plen;
            } else {
                full = true; /* never cut a character or an escape in half */
            }
        }
        p += n;
    }
    if (out && len > 0)
        out[used] = '\0';
    return need;
}

const char *sanitize_text(const char *s, int flags, char *out, size_t len)
{
    if (!out)
        return "";
    sanitize_into(s, flags, out, len);
    return out;
}

char *sanitize_dup(const char *s, int flags)
{
    size_t need = sanitize_into(s, flags, NULL, 0) + 1;
    char *out = malloc(need);
    if (out)
        sanitize_into(s, flags, out, need);
    return out;
}

bool sanitize_note_valid(const char *note, size_t max_bytes, char *why, size_t len)
{
    const unsigned char *p = (const unsigned char *)(note ? note : "");
    size_t at = 0;
    while (p[at]) {
        long cp;
        size_t n = utf8_next(p + at, &cp);
        if (needs_escape(cp, SANITIZE_LINE)) {
            char e[12];
            escape_of(cp, p[at], e);
            if (why && len)
                snprintf(why, len, "%s %s at byte %zu",
                         cp < 0 ? "a byte that is not UTF-8," : cp < 0xa0 ? "control character"
                                                                          : "bidi or line control",
                         e, at + 1);
            return false;
        }
        at += n;
    }
    if (at > max_bytes) {
        if (why && len)
            snprintf(why, len, "%zu bytes, at most %zu allowed", at, max_bytes);
        return false;
    }
    return true;
}
