/* plans/quantity.h — numbers with units (PLAN-FORMAT.md "Quantities"),
 * parsed with PCRE2.  Shared by the plan reader and the TUI's form fields.
 * Results are in SI base units: counts, bytes, seconds, bits/s (rates given
 * in bytes/s are converted), US dollars, fractions 0..1. */
#ifndef GPUPLAN_PLANS_QUANTITY_H
#define GPUPLAN_PLANS_QUANTITY_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    QTY_COUNT = 0,   /* 405B 15.6T 16M 8k 1e9 */
    QTY_BYTES,       /* 80GB 141 GB 2PB 64GiB */
    QTY_DURATION,    /* 90s 45m 6h 30d 2w; a bare number is in `bare_unit_s` seconds */
    QTY_RATE,        /* 400Gb/s 3.35TB/s → bits per second */
    QTY_MONEY,       /* $2.10 2.10 */
    QTY_FRACTION,    /* 0.4 40% */
    QTY_NUMBER       /* a plain real number, no suffix */
} QuantityKind;

/* Parse `text` as kind.  For durations and rates, a bare number is
 * multiplied by bare_unit_s (e.g. 3600 for a key in hours, 1e9 for a link in
 * Gb/s).  Returns 0 and sets *out, or -1
 * and writes a message quoting the text and what was expected into err.
 * Negative, NaN and infinite values are rejected. */
int quantity_parse(const char *text, QuantityKind kind, double bare_unit_s, double *out,
                   char *err, size_t errlen);

/* Format v of kind compactly for display and canonical YAML ("405B",
 * "2PB", "6h", "400Gb/s", "$2.10", "40%"); the text parses back to v
 * (to 4 significant digits for display, exactly for canonical = true). */
const char *quantity_format(double v, QuantityKind kind, bool canonical, char *buf, size_t len);

#endif
