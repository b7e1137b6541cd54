/* plans/fmt.h — numbers for people, shared by the CLI, the exports and the
 * dashboard: 17,408   2.31 MW   $1.02B. */
#ifndef GPUPLAN_PLANS_FMT_H
#define GPUPLAN_PLANS_FMT_H

#include <stddef.h>

/* Thousands separators: 17408 → "17,408". */
const char *fmt_int(long long v, char *buf, size_t len);
/* SI-scaled with 3 significant digits: (2.31e6, "W") → "2.31 MW", (294, "") →
 * "294", (4.8e3, "") → "4.80 k". */
const char *fmt_si(double v, const char *unit, char *buf, size_t len);
/* Money: 1.02e9 → "$1.02B", 2.1 → "$2.10". */
const char *fmt_usd(double v, char *buf, size_t len);
/* A value with its unit, scaled once: a unit that already has an SI prefix
 * is scaled from its base ("kW": 25,800 → "25.8 MW", never "25.8 kkW");
 * any other unit keeps its name after a scaled number from 10,000 up
 * (33.2e6 "GPU-h" → "33.2 M GPU-h"); below that "%.4g unit". */
const char *fmt_quantity(double v, const char *unit, char *buf, size_t len);

#endif
