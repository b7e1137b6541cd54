/* fuzz/fuzz_quantity.c — fuzz target for quantity_parse / quantity_format
 * (plans/quantity.c).
 *
 * Built with -DGPUPLAN_LIBFUZZER and -fsanitize=fuzzer it is a libFuzzer
 * target; otherwise fuzz/replay_main.c replays the files named on the command line.
 * Input: the first byte picks the kind, the rest is the text.  Oracles: a
 * parsed value is finite and not negative; its canonical text parses back
 * to exactly it; formatting never overflows.  The same bytes read as a
 * double exercise the canonical formatter on arbitrary values: the round
 * trip holds for every double the parser accepts (0 and normal numbers);
 * a subnormal, which the parser refuses (no quantity is below DBL_MIN),
 * must be written as text the parser refuses too, never as another value
 * (issue 17 D12: the input 0+00000\006\000 read as a double is one). */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quantity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_canonical(double v, QuantityKind k)
{
    char buf[96], err[256];
    quantity_format(v, k, true, buf, sizeof buf);
    double back;
    if (v != 0 && v < DBL_MIN) {
        if (quantity_parse(buf, k, 1, &back, err, sizeof err) == 0) {
            fprintf(stderr, "subnormal %.17g (kind %d) written as '%s', which parses as %.17g\n",
                    v, (int)k, buf, back);
            abort();
        }
        return;
    }
    if (quantity_parse(buf, k, 1, &back, err, sizeof err) != 0 || back != v) {
        fprintf(stderr, "canonical '%s' of %.17g (kind %d) does not parse back: %s\n", buf, v,
                (int)k, err);
        abort();
    }
    quantity_format(v, k, false, buf, sizeof buf);
    char tiny[3];
    quantity_format(v, k, true, tiny, sizeof tiny);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    QuantityKind k = (QuantityKind)(data[0] % 7);
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    static const double bare[] = {1, 3600, 86400, 0.001, 0};
    for (size_t b = 0; b < sizeof bare / sizeof bare[0]; b++) {
        double v = -1;
        char err[256];
        memset(err, 0x5a, sizeof err);
        int rc = quantity_parse(text, k, bare[b], &v, err, sizeof err);
        if (rc == 0) {
            if (!isfinite(v) || v < 0 || signbit(v))
                abort();
            if (k == QTY_FRACTION && v > 1)
                abort();
            check_canonical(v, k);
        } else if (rc != -1 || !memchr(err, '\0', sizeof err) || !err[0]) {
            abort();
        }
    }
    if (size >= 1 + sizeof(double)) {
        double v;
        memcpy(&v, data + 1, sizeof v);
        if (isfinite(v) && v >= 0 && !signbit(v) && (k != QTY_FRACTION || v <= 1))
            check_canonical(v, k);
        else {
            char buf[96];
            quantity_format(v, k, true, buf, sizeof buf);
        }
    }
    free(text);
    return 0;
}
