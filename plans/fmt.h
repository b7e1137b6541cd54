/* plans/fmt.h — numbers for people, shared by the CLI, the exports and the
 * dashboard: 17,408   2.31 MW   $1.02B. */
#ifndef GPUPLAN_PLANS_FMT_H
#define GPUPLAN_PLANS_FMT_H

#include <stddef.h>

/* Thousands separators: 17408 → "17,408". */
const char *fmt_int(long long v, char *buf, size_t len);
/* SI-scaled with 3 significant digits: (2.31e6, "W") → "2.31 MW". */
const char *fmt_si(double v, const char *unit, char *buf, size_t len);
/* Money: 1.02e9 → "$1.02B", 2.1 → "$2.10". */
const char *fmt_usd(double v, char *buf, size_t len);

#endif
