/* plans/quantity.c — numbers with units (PLAN-FORMAT.md "Quantities").
 *
 * One PCRE2 pattern splits the text into sign, `$`, number and unit; a
 * per-kind table of units (case-insensitive, except that a rate's `b` means
 * bits and `B` bytes) gives the multiplier.  The pattern is compiled once
 * (pthread_once) and only read afterwards; each call has its own match data,
 * so quantity_parse is reentrant and thread-safe. */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "quantity.h"

#define QTY_MAX_TEXT 128

/* sign, dollar, number (digits may be grouped with `_`), exponent, unit. */
static const char qty_pattern[] =
    "^\\s*([-+])?\\s*(\\$)?\\s*"
    "((?:[0-9](?:_?[0-9])*(?:\\.(?:[0-9](?:_?[0-9])*)?)?|\\.[0-9](?:_?[0-9])*)"
    "(?:[eE][-+]?[0-9]+)?)"
    "\\s*([A-Za-z%]+(?:/[A-Za-z]+)?)?\\s*$";

static pcre2_code *qty_re;
static pthread_once_t qty_once = PTHREAD_ONCE_INIT;

static void qty_compile(void)
{
    int errcode;
    PCRE2_SIZE erroff;
    qty_re = pcre2_compile((PCRE2_SPTR)qty_pattern, PCRE2_ZERO_TERMINATED, 0, &errcode,
                           &erroff, NULL);
}

typedef struct {
    const char *suffix; /* matched case-insensitively */
    double mult;        /* value = number * mult ... */
    double div;         /* ... / div (exact for decimal sub-units: ms, %) */
} Unit;

static const Unit count_units[] = {
    {"", 1, 1},          {"k", 1e3, 1},          {"m", 1e6, 1},
    {"b", 1e9, 1},       {"g", 1e9, 1},          {"t", 1e12, 1},
    {"p", 1e15, 1},      {"ki", 1024.0, 1},      {"mi", 1048576.0, 1},
    {"gi", 1073741824.0, 1}, {"ti", 1099511627776.0, 1},
    {NULL, 0, 0},
};

/* SI (GB = 1e9) and IEC (GiB = 2^30) sizes. */
static const Unit byte_units[] = {
    {"", 1, 1},        {"b", 1, 1},
    {"k", 1e3, 1},     {"kb", 1e3, 1},    {"m", 1e6, 1},    {"mb", 1e6, 1},
    {"g", 1e9, 1},     {"gb", 1e9, 1},    {"t", 1e12, 1},   {"tb", 1e12, 1},
    {"p", 1e15, 1},    {"pb", 1e15, 1},   {"e", 1e18, 1},   {"eb", 1e18, 1},
    {"ki", 1024.0, 1}, {"kib", 1024.0, 1},
    {"mi", 1048576.0, 1}, {"mib", 1048576.0, 1},
    {"gi", 1073741824.0, 1}, {"gib", 1073741824.0, 1},
    {"ti", 1099511627776.0, 1}, {"tib", 1099511627776.0, 1},
    {"pi", 1125899906842624.0, 1}, {"pib", 1125899906842624.0, 1},
    {"ei", 1152921504606846976.0, 1}, {"eib", 1152921504606846976.0, 1},
    {NULL, 0, 0},
};

/* A year is 365 days (8760 h), the convention of MTBF figures. */
static const Unit duration_units[] = {
    {"ms", 1, 1000},
    {"s", 1, 1},  {"sec", 1, 1},  {"secs", 1, 1},  {"second", 1, 1},  {"seconds", 1, 1},
    {"m", 60, 1}, {"min", 60, 1}, {"mins", 60, 1}, {"minute", 60, 1}, {"minutes", 60, 1},
    {"h", 3600, 1}, {"hr", 3600, 1}, {"hrs", 3600, 1}, {"hour", 3600, 1}, {"hours", 3600, 1},
    {"d", 86400, 1}, {"day", 86400, 1}, {"days", 86400, 1},
    {"w", 604800, 1}, {"wk", 604800, 1}, {"wks", 604800, 1}, {"week", 604800, 1},
    {"weeks", 604800, 1},
    {"y", 31536000, 1}, {"yr", 31536000, 1}, {"yrs", 31536000, 1}, {"year", 31536000, 1},
    {"years", 31536000, 1},
    {NULL, 0, 0},
};

static const Unit money_units[] = {
    {"", 1, 1}, {"k", 1e3, 1}, {"m", 1e6, 1}, {"b", 1e9, 1}, {"usd", 1, 1}, {NULL, 0, 0},
};

static const Unit fraction_units[] = {
    {"", 1, 1}, {"%", 1, 100}, {NULL, 0, 0},
};

static const Unit number_units[] = {
    {"", 1, 1}, {NULL, 0, 0},
};

static const Unit *units_of(QuantityKind kind)
{
    switch (kind) {
    case QTY_COUNT: return count_units;
    case QTY_BYTES: return byte_units;
    case QTY_DURATION: return duration_units;
    case QTY_MONEY: return money_units;
    case QTY_FRACTION: return fraction_units;
    case QTY_NUMBER: return number_units;
    case QTY_RATE: return NULL; /* parsed by rate_unit() */
    }
    return NULL;
}

static const char *expected_of(QuantityKind kind)
{
    switch (kind) {
    case QTY_COUNT: return "a number such as 405B, 15.6T, 16M, 8k or 1e9";
    case QTY_BYTES: return "a size such as 80GB, 141 GB, 2PB or 64GiB";
    case QTY_DURATION: return "a duration such as 90s, 45m, 6h, 30d or 2w";
    case QTY_RATE: return "a rate such as 400Gb/s or 3.35TB/s";
    case QTY_MONEY: return "an amount in US dollars such as $2.10";
    case QTY_FRACTION: return "a fraction such as 0.4 or 40%";
    case QTY_NUMBER: return "a number";
    }
    return "a number";
}

/* Rate units: [k|M|G|T|P][i] then b/bit/bits (bits) or B/byte/bytes
 * (bytes), then /s or ps.  Only the single letter b/B is case-sensitive.
 * Returns the multiplier to bits/s, or 0 when the unit is not a rate. */
static double rate_unit(const char *u)
{
    size_t n = strlen(u);
    if (n == 0)
        return 1; /* a bare number is bits per second */
    if (n >= 2 && strcasecmp(u + n - 2, "/s") == 0)
        n -= 2;
    else if (n >= 2 && strcasecmp(u + n - 2, "ps") == 0)
        n -= 2;
    else
        return 0;
    if (n == 0)
        return 0;
    size_t i = 0;
    double mult = 1;
    static const char prefixes[] = "kmgtp";
    const char *p = n > 1 ? strchr(prefixes, tolower((unsigned char)u[0])) : NULL;
    if (p && u[0]) {
        int e = (int)(p - prefixes) + 1;
        i = 1;
        if (i < n && (u[i] == 'i' || u[i] == 'I') && n - i > 1) {
            mult = ldexp(1.0, 10 * e);
            i++;
        } else {
            mult = pow(10.0, 3 * e);
        }
    }
    size_t rest = n - i;
    const char *r = u + i;
    if (rest == 1 && r[0] == 'b')
        return mult;
    if (rest == 1 && r[0] == 'B')
        return mult * 8;
    if ((rest == 3 && strncasecmp(r, "bit", 3) == 0) || (rest == 4 && strncasecmp(r, "bits", 4) == 0))
        return mult;
    if ((rest == 4 && strncasecmp(r, "byte", 4) == 0) ||
        (rest == 5 && strncasecmp(r, "bytes", 5) == 0))
        return mult * 8;
    return 0;
}

static void set_err(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a, b);
}

int quantity_parse(const char *text, QuantityKind kind, double bare_unit_s, double *out,
                   char *err, size_t errlen)
{
    const char *expected = expected_of(kind);
    if (err && errlen)
        err[0] = '\0';
    if (!text || !out) {
        set_err(err, errlen, "expected %s%s", expected, ", got nothing");
        return -1;
    }
    size_t len = strlen(text);
    const char *t = text;
    while (*t && isspace((unsigned char)*t))
        t++;
    if (*t == '\0') {
        set_err(err, errlen, "expected %s, got an empty value%s", expected, "");
        return -1;
    }
    /* Quote at most 40 bytes of the offending text. */
    char quoted[48];
    snprintf(quoted, sizeof quoted, "%.40s%s", text, len > 40 ? "…" : "");
    if (len > QTY_MAX_TEXT) {
        set_err(err, errlen, "expected %s, got '%s' (too long)", expected, quoted);
        return -1;
    }
    pthread_once(&qty_once, qty_compile);
    if (!qty_re) {
        set_err(err, errlen, "cannot parse '%s': the quantity pattern failed to compile%s",
                quoted, "");
        return -1;
    }
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(qty_re, NULL);
    if (!md) {
        set_err(err, errlen, "cannot parse '%s': out of memory%s", quoted, "");
        return -1;
    }
    int rc = pcre2_match(qty_re, (PCRE2_SPTR)text, len, 0, 0, md, NULL);
    if (rc < 0) {
        pcre2_match_data_free(md);
        set_err(err, errlen, "expected %s, got '%s'", expected, quoted);
        return -1;
    }
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    char sign = 0, num[QTY_MAX_TEXT + 1], unit[QTY_MAX_TEXT + 1];
    bool dollar = false;
    num[0] = unit[0] = '\0';
    if (rc > 1 && ov[2] != PCRE2_UNSET)
        sign = text[ov[2]];
    if (rc > 2 && ov[4] != PCRE2_UNSET)
        dollar = true;
    if (rc > 3 && ov[6] != PCRE2_UNSET) {
        size_t k = 0;
        for (size_t i = ov[6]; i < ov[7]; i++)
            if (text[i] != '_')
                num[k++] = text[i];
        num[k] = '\0';
    }
    if (rc > 4 && ov[8] != PCRE2_UNSET) {
        memcpy(unit, text + ov[8], ov[9] - ov[8]);
        unit[ov[9] - ov[8]] = '\0';
    }
    pcre2_match_data_free(md);

    if (dollar && kind != QTY_MONEY) {
        set_err(err, errlen, "expected %s, got '%s' ($ is only for money)", expected, quoted);
        return -1;
    }
    double mult = 1, div = 1;
    if (kind == QTY_RATE) {
        /* a bare rate is in the key's unit (link: 400 means 400 Gb/s) */
        mult = unit[0] ? rate_unit(unit)
                       : (bare_unit_s > 0 && isfinite(bare_unit_s) ? bare_unit_s : 1);
        if (mult == 0) {
            if (err && errlen)
                snprintf(err, errlen, "unknown unit '%s' in '%s': expected %s", unit, quoted,
                         expected);
            return -1;
        }
    } else {
        const Unit *u = units_of(kind);
        bool found = kind == QTY_DURATION && unit[0] == '\0'; /* bare: see below */
        for (; !found && u && u->suffix; u++) {
            if (strcasecmp(u->suffix, unit) == 0) {
                mult = u->mult;
                div = u->div;
                found = true;
                break;
            }
        }
        if (!found) {
            if (err && errlen) {
                if (kind == QTY_NUMBER || (kind == QTY_FRACTION && unit[0]))
                    snprintf(err, errlen, "expected %s, got '%s'", expected, quoted);
                else
                    snprintf(err, errlen, "unknown unit '%s' in '%s': expected %s", unit,
                             quoted, expected);
            }
            return -1;
        }
        if (kind == QTY_DURATION && unit[0] == '\0') {
            if (!(bare_unit_s > 0) || !isfinite(bare_unit_s)) {
                set_err(err, errlen, "expected %s, got '%s' (give a unit)", expected, quoted);
                return -1;
            }
            /* Sub-second key units (ttft_ms) divide, so 40 ms is exactly
             * the double nearest 0.04 s. */
            double inv = 1.0 / bare_unit_s;
            if (bare_unit_s < 1 && inv == floor(inv)) {
                mult = 1;
                div = inv;
            } else {
                mult = bare_unit_s;
                div = 1;
            }
        }
    }
    double x = strtod(num, NULL);
    double v = div != 1 ? x * mult / div : x * mult;
    if (!isfinite(x) || !isfinite(v)) {
        set_err(err, errlen, "'%s' is out of range: expected %s", quoted, expected);
        return -1;
    }
    if (sign == '-' && v != 0) {
        set_err(err, errlen, "'%s' is negative: expected %s", quoted, expected);
        return -1;
    }
    /* Subnormal (below DBL_MIN, ~2.2e-308): no real quantity is that small,
     * and the model's arithmetic on them loses all precision (a 1e-320 ms
     * latency target reached an out-of-bounds index in the inference sizing). */
    if (v != 0 && fabs(v) < DBL_MIN) {
        set_err(err, errlen, "'%s' is too small (below 2.2e-308 in SI units): expected %s",
                quoted, expected);
        return -1;
    }
    if (kind == QTY_FRACTION && v > 1) {
        set_err(err, errlen, "'%s' is more than 100%%: expected %s between 0 and 1", quoted,
                "a fraction");
        return -1;
    }
    *out = v + 0.0; /* never -0 */
    if (*out == 0)
        *out = 0;
    return 0;
}

/* ------------------------------------------------------------------ format */

typedef struct {
    const char *prefix; /* "$" for money */
    const char *suffix;
    double mult, div;
} Form;

static const Form count_forms[] = {
    {"", "T", 1e12, 1}, {"", "B", 1e9, 1}, {"", "M", 1e6, 1}, {"", "k", 1e3, 1}, {"", "", 1, 1},
    {NULL, NULL, 0, 0},
};
static const Form byte_forms[] = {
    {"", "EB", 1e18, 1}, {"", "PB", 1e15, 1}, {"", "TB", 1e12, 1}, {"", "GB", 1e9, 1},
    {"", "MB", 1e6, 1},  {"", "kB", 1e3, 1},
    {"", "PiB", 1125899906842624.0, 1}, {"", "TiB", 1099511627776.0, 1},
    {"", "GiB", 1073741824.0, 1}, {"", "MiB", 1048576.0, 1}, {"", "KiB", 1024.0, 1},
    {"", "B", 1, 1},
    {NULL, NULL, 0, 0},
};
static const Form byte_display_forms[] = {
    {"", "PB", 1e15, 1}, {"", "TB", 1e12, 1}, {"", "GB", 1e9, 1},
    {"", "MB", 1e6, 1},  {"", "kB", 1e3, 1},  {"", "B", 1, 1},
    {NULL, NULL, 0, 0},
};
static const Form duration_forms[] = {
    {"", "w", 604800, 1}, {"", "d", 86400, 1}, {"", "h", 3600, 1}, {"", "m", 60, 1},
    {"", "s", 1, 1},      {"", "ms", 1, 1000},
    {NULL, NULL, 0, 0},
};
static const Form duration_display_forms[] = {
    {"", "d", 86400, 1}, {"", "h", 3600, 1}, {"", "m", 60, 1}, {"", "s", 1, 1},
    {"", "ms", 1, 1000},
    {NULL, NULL, 0, 0},
};
static const Form rate_forms[] = {
    {"", "Tb/s", 1e12, 1}, {"", "Gb/s", 1e9, 1}, {"", "Mb/s", 1e6, 1}, {"", "kb/s", 1e3, 1},
    {"", "b/s", 1, 1},
    {NULL, NULL, 0, 0},
};
static const Form money_forms[] = {
    {"$", "B", 1e9, 1}, {"$", "M", 1e6, 1}, {"$", "k", 1e3, 1}, {"$", "", 1, 1},
    {NULL, NULL, 0, 0},
};
static const Form fraction_forms[] = {
    {"", "%", 1, 100}, {"", "", 1, 1}, {NULL, NULL, 0, 0},
};
static const Form number_forms[] = {
    {"", "", 1, 1}, {NULL, NULL, 0, 0},
};

static const Form *forms_of(QuantityKind kind, bool canonical)
{
    switch (kind) {
    case QTY_COUNT: return count_forms;
    case QTY_BYTES: return canonical ? byte_forms : byte_display_forms;
    case QTY_DURATION: return canonical ? duration_forms : duration_display_forms;
    case QTY_RATE: return rate_forms;
    case QTY_MONEY: return money_forms;
    case QTY_FRACTION: return fraction_forms;
    case QTY_NUMBER: return number_forms;
    }
    return number_forms;
}

/* Print x with `digits` significant digits in plain decimal notation
 * (no exponent for ordinary magnitudes), without trailing zeros. */
static void print_number(char *buf, size_t len, double x, int digits)
{
    if (x != 0 && (x >= 1e16 || x < 1e-6)) {
        snprintf(buf, len, "%.*g", digits, x);
        return;
    }
    int mag = x == 0 ? 0 : (int)floor(log10(x));
    int decimals = digits - 1 - mag;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 24)
        decimals = 24;
    snprintf(buf, len, "%.*f", decimals, x);
    if (!strchr(buf, '.'))
        return;
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
}

const char *quantity_format(double v, QuantityKind kind, bool canonical, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    if (!isfinite(v) || v < 0) {
        snprintf(buf, len, "%g", v);
        return buf;
    }
    const Form *forms = forms_of(kind, canonical);
    char best[80] = "", cand[80], num[64];
    if (v == 0) {
        static const char *const zero[] = {
            [QTY_COUNT] = "0", [QTY_BYTES] = "0B", [QTY_DURATION] = "0s", [QTY_RATE] = "0b/s",
            [QTY_MONEY] = "$0.00", [QTY_FRACTION] = "0", [QTY_NUMBER] = "0",
        };
        snprintf(buf, len, "%s", (unsigned)kind <= QTY_NUMBER ? zero[kind] : "0");
        return buf;
    }
    if (canonical) {
        /* The shortest text, over every form, that parses back to exactly v;
         * ties go to the earlier (larger-unit) form. */
        for (const Form *f = forms; f->prefix; f++) {
            double x = f->div != 1 ? v * f->div / f->mult : v / f->mult;
            if (v != 0 && x < 1 && f->mult > 1)
                continue; /* "0.5k": never the clearest form */
            if (kind == QTY_MONEY && f->mult == 1 && v < 1e6) {
                /* Dollars and cents when that is exact: "$2.10". */
                snprintf(cand, sizeof cand, "$%.2f", v);
                double back;
                if (quantity_parse(cand, kind, 1, &back, NULL, 0) == 0 && back == v) {
                    if (!best[0] || strlen(cand) <= strlen(best))
                        snprintf(best, sizeof best, "%s", cand);
                    continue;
                }
            }
            /* A percentage only while it reads as one (at most 6 digits). */
            int max_digits = f->div == 100 ? 6 : 17;
            for (int digits = 1; digits <= max_digits; digits++) {
                print_number(num, sizeof num, x, digits);
                snprintf(cand, sizeof cand, "%s%s%s", f->prefix, num, f->suffix);
                double back;
                if (quantity_parse(cand, kind, 1, &back, NULL, 0) == 0 && back == v) {
                    if (!best[0] || strlen(cand) < strlen(best))
                        snprintf(best, sizeof best, "%s", cand);
                    break;
                }
            }
        }
        if (!best[0]) {
            /* Exact fallbacks in the base unit. */
            const char *pre = kind == QTY_MONEY ? "$" : "";
            const char *suf = kind == QTY_DURATION ? "s" : kind == QTY_RATE ? "b/s" : "";
            snprintf(best, sizeof best, "%s%.17g%s", pre, v, suf);
        }
        snprintf(buf, len, "%s", best);
        return buf;
    }
    /* Display: the largest unit the value reaches, 4 significant digits. */
    const Form *pick = NULL;
    for (const Form *f = forms; f->prefix; f++) {
        pick = f;
        double x = f->div != 1 ? v * f->div / f->mult : v / f->mult;
        if (x >= 1 || v == 0)
            break;
    }
    if (kind == QTY_COUNT && v < 1e4)
        pick = &count_forms[4]; /* 2048, not 2.048k */
    if (kind == QTY_FRACTION)
        pick = &fraction_forms[0]; /* always a percentage */
    double x = pick->div != 1 ? v * pick->div / pick->mult : v / pick->mult;
    if (kind == QTY_MONEY && pick->mult == 1)
        snprintf(num, sizeof num, "%.2f", x);
    else if (kind == QTY_COUNT && v < 1e4)
        print_number(num, sizeof num, x, 6);
    else
        print_number(num, sizeof num, x, 4);
    snprintf(buf, len, "%s%s%s", pick->prefix, num, pick->suffix);
    return buf;
}
