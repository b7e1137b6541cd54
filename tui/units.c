/* tui/units.c — display formats (see units.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "fmt.h"
#include "units.h"

const char *units_secs(double s, char *buf, size_t len)
{
    double a = fabs(s);
    if (!isfinite(s))
        snprintf(buf, len, "-");
    else if (a < 1e-3)
        snprintf(buf, len, "%.0f us", s * 1e6);
    else if (a < 1)
        snprintf(buf, len, "%.*f ms", a < 0.1 ? 1 : 0, s * 1e3);
    else if (a < 120)
        snprintf(buf, len, "%.2f s", s);
    else if (a < 7200)
        snprintf(buf, len, "%.1f min", s / 60);
    else if (a < 3 * 86400)
        snprintf(buf, len, "%.1f h", s / 3600);
    else
        snprintf(buf, len, "%.1f d", s / 86400);
    return buf;
}

const char *units_pct(double frac, char *buf, size_t len)
{
    if (!isfinite(frac))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f%%", frac * 100);
    return buf;
}

const char *units_count(double v, char *buf, size_t len)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return buf;
    }
    return fmt_int(llround(v), buf, len);
}

const char *units_n(long long n, const char *one, const char *many, char *buf, size_t len)
{
    char num[32];
    snprintf(buf, len, "%s %s", fmt_int(n, num, sizeof num), n == 1 ? one : many);
    return buf;
}

const char *units_gib(double bytes, char *buf, size_t len)
{
    if (!isfinite(bytes))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f GiB", bytes / 1073741824.0); /* 2^30: IEC gibibyte */
    return buf;
}

const char *units_days(double d, char *buf, size_t len)
{
    if (!isfinite(d)) {
        snprintf(buf, len, "-");
    } else if (fabs(d) >= 1000) {
        char n[32];
        snprintf(buf, len, "%s d", fmt_int(llround(d), n, sizeof n));
    } else {
        snprintf(buf, len, "%.1f d", d);
    }
    return buf;
}
