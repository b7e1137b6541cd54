/* plans/strbuf.c — see strbuf.h. */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

void sb_init(StrBuf *b)
{
    memset(b, 0, sizeof *b);
}

static bool grow(StrBuf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->failed = true;
        return false;
    }
    b->s = s;
    b->cap = cap;
    return true;
}

void sb_putn(StrBuf *b, const char *s, size_t n)
{
    if (!grow(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_puts(StrBuf *b, const char *s)
{
    sb_putn(b, s, strlen(s));
}

void sb_printf(StrBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !grow(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void sb_html(StrBuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': sb_puts(b, "&amp;"); break;
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        case '\'': sb_puts(b, "&#39;"); break;
        default: sb_putn(b, s, 1);
        }
    }
}

void sb_md(StrBuf *b, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\`*_[]<>#|~", *s))
            sb_putn(b, "\\", 1);
        if (*s == '\n' || *s == '\r')
            sb_putn(b, " ", 1);
        else
            sb_putn(b, s, 1);
    }
}

/* A plain decimal number ("-2", "+1.5e3") is data, not a formula. */
static bool csv_number(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    bool digits = false;
    while (isdigit((unsigned char)*s)) {
        s++;
        digits = true;
    }
    if (*s == '.')
        for (s++; isdigit((unsigned char)*s); s++)
            digits = true;
    if (digits && (*s == 'e' || *s == 'E')) {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!isdigit((unsigned char)*s))
            return false;
        while (isdigit((unsigned char)*s))
            s++;
    }
    return digits && *s == '\0';
}

void sb_csv(StrBuf *b, const char *s)
{
    /* A cell a spreadsheet would run as a formula starts with = + - @ or a
     * TAB / CR (OWASP "CSV Injection"); it gets a leading ' — also inside a
     * quoted cell, and for "-2+3" (only a whole number passes). */
    bool guard = s[0] && strchr("=+-@\t\r", s[0]) && !csv_number(s);
    if (!strpbrk(s, ",\"\r\n") && !(s[0] == ' ' || (s[0] && s[strlen(s) - 1] == ' '))) {
        if (guard)
            sb_puts(b, "'");
        sb_puts(b, s);
        return;
    }
    sb_putn(b, "\"", 1);
    if (guard)
        sb_puts(b, "'");
    for (; *s; s++) {
        if (*s == '"')
            sb_putn(b, "\"", 1);
        sb_putn(b, s, 1);
    }
    sb_putn(b, "\"", 1);
}

void sb_yaml(StrBuf *b, const char *s)
{
    sb_putn(b, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sb_printf(b, "\\%c", c);
        else if (c == '\n')
            sb_puts(b, "\\n");
        else if (c == '\t')
            sb_puts(b, "\\t");
        else if (c < 0x20 || c == 0x7f)
            sb_printf(b, "\\x%02x", c);
        else
            sb_putn(b, s, 1);
    }
    sb_putn(b, "\"", 1);
}

void sb_k8s_name(StrBuf *b, const char *s)
{
    char out[64];
    size_t n = 0;
    bool dash = false;
    for (; *s && n < 63; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c)) {
            if (dash && n > 0)
                out[n++] = '-';
            dash = false;
            if (n < 63)
                out[n++] = (char)tolower(c);
        } else {
            dash = true;
        }
    }
    while (n > 0 && out[n - 1] == '-')
        n--;
    if (n == 0)
        out[n++] = 'x';
    sb_putn(b, out, n);
}

char *sb_finish(StrBuf *b)
{
    if (b->failed) {
        sb_free(b);
        return NULL;
    }
    if (!b->s) {
        if (!grow(b, 0))
            return NULL;
        b->s[0] = '\0'; /* nothing was written: "", not uninitialised bytes */
    }
    char *s = b->s;
    sb_init(b);
    return s;
}

void sb_free(StrBuf *b)
{
    free(b->s);
    sb_init(b);
}
