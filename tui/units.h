/* tui/units.h — the few display formats the views need beyond plans/fmt.h
 * (which does thousands separators, SI scaling and money). */
#ifndef GPUPLAN_TUI_UNITS_H
#define GPUPLAN_TUI_UNITS_H

#include <stddef.h>

/* "45 ms", "1.23 s", "6.0 h", "3.2 d" from seconds ("-" when not finite). */
const char *units_secs(double s, char *buf, size_t len);
/* "42.1%" from a fraction. */
const char *units_pct(double frac, char *buf, size_t len);
/* "17,408" from a double count (rounded), "-" when not finite. */
const char *units_count(double v, char *buf, size_t len);

/* Days: "84.1 d", and from 1,000 on whole days with separators
 * ("15,774 d"); "-" when not finite. */
const char *units_days(double d, char *buf, size_t len);
/* A count and its noun, singular for one: "1 GPU", "1,024 GPUs",
 * "1 rack" (the plural given, e.g. "GPUs", "racks"). */
const char *units_n(long long n, const char *one, const char *many, char *buf, size_t len);

/* GPU memory in binary units like the CLI and the exports: "74.8 GiB"
 * ("-" when not finite). */
const char *units_gib(double bytes, char *buf, size_t len);

#endif
