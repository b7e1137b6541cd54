/* plans/fmt.c — see fmt.h. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"

const char *fmt_int(long long v, char *buf, size_t len)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%lld", v < 0 ? -v : v);
    size_t n = strlen(digits), o = 0;
    char tmp[48];
    if (v < 0)
        tmp[o++] = '-';
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            tmp[o++] = ',';
        tmp[o++] = digits[i];
    }
    tmp[o] = '\0';
    snprintf(buf, len, "%s", tmp);
    return buf;
}

const char *fmt_si(double v, const char *unit, char *buf, size_t len)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E"};
    if (!isfinite(v)) {
        snprintf(buf, len, "n/a");
        return buf;
    }
    double a = fabs(v);
    int k = 0;
    while (a >= 1000 && k < 6) {
        a /= 1000;
        v /= 1000;
        k++;
    }
    int prec = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    /* no prefix and no unit: the bare number, so "%s GPU-hours" reads
     * "294 GPU-hours", not "294  GPU-hours" */
    if (k == 0 && !*unit)
        snprintf(buf, len, "%.*f", prec, v);
    else
        snprintf(buf, len, "%.*f %s%s", prec, v, pre[k], unit);
    return buf;
}

const char *fmt_quantity(double v, const char *unit, char *buf, size_t len)
{
    static const struct { char p; double mult; } prefixes[] = {
        {'k', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}, {'P', 1e15}};
    if (!unit)
        unit = "";
    /* "kW", "MWh", "GB": a prefix letter before an upper-case SI symbol */
    if (unit[0] && isupper((unsigned char)unit[1]))
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
            if (unit[0] == prefixes[i].p)
                return fmt_si(v * prefixes[i].mult, unit + 1, buf, len);
    if (!isfinite(v) || fabs(v) < 1e4) {
        snprintf(buf, len, "%.4g%s%s", v, unit[0] ? " " : "", unit);
        return buf;
    }
    char n[32];
    fmt_si(v, "", n, sizeof n);
    snprintf(buf, len, "%s%s%s", n, unit[0] ? " " : "", unit);
    return buf;
}

const char *fmt_usd(double v, char *buf, size_t len)
{
    static const char *const suf[] = {"", "k", "M", "B", "T"};
    if (!isfinite(v)) {
        snprintf(buf, len, "n/a");
        return buf;
    }
    double a = fabs(v);
    int k = 0;
    while (a >= 1000 && k < 4) {
        a /= 1000;
        k++;
    }
    double s = v / pow(1000, k);
    int prec = k == 0 ? 2 : a >= 100 ? 0 : a >= 10 ? 1 : 2;
    snprintf(buf, len, "%s$%.*f%s", s < 0 ? "-" : "", prec, fabs(s), suf[k]);
    return buf;
}
