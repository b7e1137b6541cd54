/* tests/test_quantity.c — quantities with units (PLAN-FORMAT.md). */
#include "config.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "check_main.h"
#include "quantity.h"

static double parse_ok(const char *text, QuantityKind k, double bare)
{
    double v = -1;
    char err[256];
    int rc = quantity_parse(text, k, bare, &v, err, sizeof err);
    ck_assert_msg(rc == 0, "'%s' should parse: %s", text, err);
    return v;
}

static const char *parse_err(const char *text, QuantityKind k)
{
    static char err[256];
    double v = 12345;
    int rc = quantity_parse(text, k, 1, &v, err, sizeof err);
    ck_assert_msg(rc == -1, "'%s' should be rejected (got %g)", text, v);
    ck_assert_double_eq(v, 12345); /* *out untouched on failure */
    return err;
}

START_TEST(count_suffixes)
{
    ck_assert_double_eq(parse_ok("405B", QTY_COUNT, 1), 405e9);
    ck_assert_double_eq(parse_ok("15.6T", QTY_COUNT, 1), 15.6e12);
    ck_assert_double_eq(parse_ok("16M", QTY_COUNT, 1), 16e6);
    ck_assert_double_eq(parse_ok("8k", QTY_COUNT, 1), 8000);
    ck_assert_double_eq(parse_ok("8K", QTY_COUNT, 1), 8000);
    ck_assert_double_eq(parse_ok("1e9", QTY_COUNT, 1), 1e9);
    ck_assert_double_eq(parse_ok("2G", QTY_COUNT, 1), 2e9);
    ck_assert_double_eq(parse_ok("16Mi", QTY_COUNT, 1), 16777216);
    ck_assert_double_eq(parse_ok("4 Ki", QTY_COUNT, 1), 4096);
    ck_assert_double_eq(parse_ok(" 405 b ", QTY_COUNT, 1), 405e9);
    ck_assert_double_eq(parse_ok("1_000_000", QTY_COUNT, 1), 1e6);
    ck_assert_double_eq(parse_ok(".5k", QTY_COUNT, 1), 500);
    ck_assert_double_eq(parse_ok("+7", QTY_COUNT, 1), 7);
    ck_assert_double_eq(parse_ok("0", QTY_COUNT, 1), 0);
}
END_TEST

START_TEST(byte_sizes_si_and_iec)
{
    ck_assert_double_eq(parse_ok("80GB", QTY_BYTES, 1), 80e9);
    ck_assert_double_eq(parse_ok("141 GB", QTY_BYTES, 1), 141e9);
    ck_assert_double_eq(parse_ok("2PB", QTY_BYTES, 1), 2e15);
    ck_assert_double_eq(parse_ok("64GiB", QTY_BYTES, 1), 64.0 * 1073741824.0);
    ck_assert_double_eq(parse_ok("64gib", QTY_BYTES, 1), 64.0 * 1073741824.0);
    ck_assert_double_eq(parse_ok("1.5TiB", QTY_BYTES, 1), 1.5 * 1099511627776.0);
    ck_assert_double_eq(parse_ok("3kB", QTY_BYTES, 1), 3000);
    ck_assert_double_eq(parse_ok("512MiB", QTY_BYTES, 1), 512.0 * 1048576.0);
    ck_assert_double_eq(parse_ok("4096", QTY_BYTES, 1), 4096);
    ck_assert_double_eq(parse_ok("7B", QTY_BYTES, 1), 7); /* bytes, not billions */
}
END_TEST

START_TEST(durations_and_bare_unit)
{
    ck_assert_double_eq(parse_ok("90s", QTY_DURATION, 1), 90);
    ck_assert_double_eq(parse_ok("45m", QTY_DURATION, 1), 2700);
    ck_assert_double_eq(parse_ok("45 min", QTY_DURATION, 1), 2700);
    ck_assert_double_eq(parse_ok("6h", QTY_DURATION, 1), 21600);
    ck_assert_double_eq(parse_ok("6 Hours", QTY_DURATION, 1), 21600);
    ck_assert_double_eq(parse_ok("30d", QTY_DURATION, 1), 30 * 86400.0);
    ck_assert_double_eq(parse_ok("2w", QTY_DURATION, 1), 14 * 86400.0);
    ck_assert_double_eq(parse_ok("1y", QTY_DURATION, 1), 8760 * 3600.0);
    ck_assert_double_eq(parse_ok("40ms", QTY_DURATION, 1), 0.04);
    /* a bare number is in the key's unit */
    ck_assert_double_eq(parse_ok("6", QTY_DURATION, 3600), 21600);
    ck_assert_double_eq(parse_ok("40", QTY_DURATION, 0.001), 0.04);
    ck_assert_double_eq(parse_ok("1000", QTY_DURATION, 0.001), 1.0);
    ck_assert_double_eq(parse_ok("90", QTY_DURATION, 1), 90);
}
END_TEST

START_TEST(rates_bits_and_bytes)
{
    ck_assert_double_eq(parse_ok("400Gb/s", QTY_RATE, 1), 400e9);
    ck_assert_double_eq(parse_ok("400 Gbps", QTY_RATE, 1), 400e9);
    ck_assert_double_eq(parse_ok("400gb/s", QTY_RATE, 1), 400e9);
    ck_assert_double_eq(parse_ok("3.35TB/s", QTY_RATE, 1), 3.35e12 * 8);
    ck_assert_double_eq(parse_ok("25GBps", QTY_RATE, 1), 200e9);
    ck_assert_double_eq(parse_ok("100 Gbit/s", QTY_RATE, 1), 100e9);
    ck_assert_double_eq(parse_ok("1 GiB/s", QTY_RATE, 1), 8.0 * 1073741824.0);
    ck_assert_double_eq(parse_ok("2 bytes/s", QTY_RATE, 1), 16);
    ck_assert_double_eq(parse_ok("1e9", QTY_RATE, 1), 1e9);
    /* a bare rate is in the key's unit: a link in Gb/s */
    ck_assert_double_eq(parse_ok("400", QTY_RATE, 1e9), 400e9);
    ck_assert_double_eq(parse_ok("800Gb/s", QTY_RATE, 1e9), 800e9);
}
END_TEST

START_TEST(money_fraction_number)
{
    ck_assert_double_eq(parse_ok("$2.10", QTY_MONEY, 1), 2.10);
    ck_assert_double_eq(parse_ok("2.10", QTY_MONEY, 1), 2.10);
    ck_assert_double_eq(parse_ok("$ 1.2M", QTY_MONEY, 1), 1.2e6);
    ck_assert_double_eq(parse_ok("0.4", QTY_FRACTION, 1), 0.4);
    ck_assert_double_eq(parse_ok("40%", QTY_FRACTION, 1), 0.4);
    ck_assert_double_eq(parse_ok("40 %", QTY_FRACTION, 1), 0.4);
    ck_assert_double_eq(parse_ok("100%", QTY_FRACTION, 1), 1.0);
    ck_assert_double_eq(parse_ok("1.3", QTY_NUMBER, 1), 1.3);
    ck_assert_double_eq(parse_ok("2e3", QTY_NUMBER, 1), 2000);
}
END_TEST

START_TEST(rejects_with_quoted_text)
{
    ck_assert_str_eq(parse_err("abc", QTY_COUNT),
                     "expected a number such as 405B, 15.6T, 16M, 8k or 1e9, got 'abc'");
    ck_assert_str_eq(parse_err("", QTY_BYTES),
                     "expected a size such as 80GB, 141 GB, 2PB or 64GiB, got an empty value");
    ck_assert_str_eq(parse_err("   ", QTY_COUNT),
                     "expected a number such as 405B, 15.6T, 16M, 8k or 1e9, got an empty value");
    ck_assert_str_eq(parse_err("-5", QTY_COUNT),
                     "'-5' is negative: expected a number such as 405B, 15.6T, 16M, 8k or 1e9");
    ck_assert_str_eq(parse_err("-2h", QTY_DURATION),
                     "'-2h' is negative: expected a duration such as 90s, 45m, 6h, 30d or 2w");
    ck_assert_str_eq(parse_err("80GX", QTY_BYTES),
                     "unknown unit 'GX' in '80GX': expected a size such as 80GB, 141 GB, 2PB or 64GiB");
    ck_assert_str_eq(parse_err("1e400", QTY_COUNT),
                     "'1e400' is out of range: expected a number such as 405B, 15.6T, 16M, 8k or 1e9");
    ck_assert_str_eq(parse_err("150%", QTY_FRACTION),
                     "'150%' is more than 100%: expected a fraction between 0 and 1");
    ck_assert_str_eq(parse_err("$5", QTY_COUNT),
                     "expected a number such as 405B, 15.6T, 16M, 8k or 1e9, got '$5' ($ is only for money)");
    ck_assert_str_eq(parse_err("400G/s", QTY_RATE),
                     "unknown unit 'G/s' in '400G/s': expected a rate such as 400Gb/s or 3.35TB/s");
    ck_assert_str_eq(parse_err("1k", QTY_NUMBER), "expected a number, got '1k'");
    /* subnormal values: a 1e-320 ms latency target crashed the model */
    ck_assert_str_eq(parse_err("1e-320", QTY_NUMBER),
                     "'1e-320' is too small (below 2.2e-308 in SI units): expected a number");
    ck_assert_str_eq(parse_err("1e-310s", QTY_DURATION),
                     "'1e-310s' is too small (below 2.2e-308 in SI units): expected a duration "
                     "such as 90s, 45m, 6h, 30d or 2w");
    parse_err("-.inf", QTY_NUMBER);
    parse_err(".nan", QTY_NUMBER);
    parse_err("nan", QTY_NUMBER);
    parse_err("inf", QTY_COUNT);
    parse_err("NaN", QTY_FRACTION);
    parse_err("Infinity", QTY_BYTES);
    parse_err("0x10", QTY_COUNT);
    parse_err("1..2", QTY_COUNT);
    parse_err("1_", QTY_COUNT);
    parse_err("5 5", QTY_COUNT);
    parse_err("1.5x", QTY_FRACTION);
    parse_err("12h", QTY_BYTES);
    parse_err("8GB", QTY_RATE);
}
END_TEST

START_TEST(rejects_bare_duration_without_key_unit)
{
    char err[256];
    double v;
    ck_assert_int_eq(quantity_parse("6", QTY_DURATION, 0, &v, err, sizeof err), -1);
    ck_assert_str_eq(err, "expected a duration such as 90s, 45m, 6h, 30d or 2w, got '6' (give a unit)");
}
END_TEST

START_TEST(long_text_is_quoted_shortened)
{
    char text[300];
    memset(text, '7', sizeof text - 2);
    text[sizeof text - 2] = 'x';
    text[sizeof text - 1] = '\0';
    const char *e = parse_err(text, QTY_COUNT);
    ck_assert_ptr_nonnull(strstr(e, "(too long)"));
    ck_assert_uint_lt(strlen(e), 200);
}
END_TEST

static void check_canonical(double v, QuantityKind k, const char *want)
{
    char buf[80];
    quantity_format(v, k, true, buf, sizeof buf);
    if (want)
        ck_assert_str_eq(buf, want);
    double back = -1;
    char err[256];
    ck_assert_msg(quantity_parse(buf, k, 1, &back, err, sizeof err) == 0, "%s: %s", buf, err);
    ck_assert_msg(back == v, "'%s' parses to %.17g, not %.17g", buf, back, v);
}

START_TEST(canonical_format_is_short_and_exact)
{
    check_canonical(405e9, QTY_COUNT, "405B");
    check_canonical(15.6e12, QTY_COUNT, "15.6T");
    check_canonical(2048, QTY_COUNT, "2048");
    check_canonical(8000, QTY_COUNT, "8k");
    check_canonical(0, QTY_COUNT, "0");
    check_canonical(80e9, QTY_BYTES, "80GB");
    check_canonical(64.0 * 1073741824.0, QTY_BYTES, "64GiB");
    check_canonical(2e15, QTY_BYTES, "2PB");
    check_canonical(90, QTY_DURATION, "90s");
    check_canonical(600, QTY_DURATION, "10m");
    check_canonical(21600, QTY_DURATION, "6h");
    check_canonical(30 * 86400.0, QTY_DURATION, "30d");
    check_canonical(14 * 86400.0, QTY_DURATION, "2w");
    check_canonical(0.04, QTY_DURATION, "40ms");
    check_canonical(400e9, QTY_RATE, "400Gb/s");
    check_canonical(3.35e12 * 8, QTY_RATE, "26.8Tb/s");
    check_canonical(2.10, QTY_MONEY, "$2.10");
    check_canonical(0.08, QTY_MONEY, "$0.08");
    check_canonical(1.2e6, QTY_MONEY, "$1.2M");
    check_canonical(0.4, QTY_FRACTION, "40%");
    check_canonical(0.1, QTY_FRACTION, "10%");
    check_canonical(1.3, QTY_NUMBER, "1.3");
    /* values with no short form still round-trip exactly */
    check_canonical(0.1 + 0.2, QTY_NUMBER, NULL);
    check_canonical(0.1 + 0.2, QTY_FRACTION, NULL);
    check_canonical(1.0 / 3.0, QTY_DURATION, NULL);
    check_canonical(1e9 / 7.0, QTY_BYTES, NULL);
    check_canonical(123456789.123, QTY_RATE, NULL);
    check_canonical(1.0 / 7.0, QTY_MONEY, NULL);
    check_canonical(9.87654321e15, QTY_COUNT, NULL);
    check_canonical(DBL_MIN, QTY_COUNT, NULL); /* the smallest accepted; subnormals are refused */
    check_canonical(DBL_MAX, QTY_COUNT, NULL);
}
END_TEST

START_TEST(display_format_is_four_digits)
{
    char buf[64];
    ck_assert_str_eq(quantity_format(15.6e12, QTY_COUNT, false, buf, sizeof buf), "15.6T");
    ck_assert_str_eq(quantity_format(1234567, QTY_COUNT, false, buf, sizeof buf), "1.235M");
    ck_assert_str_eq(quantity_format(2048, QTY_COUNT, false, buf, sizeof buf), "2048");
    ck_assert_str_eq(quantity_format(64.0 * 1073741824.0, QTY_BYTES, false, buf, sizeof buf), "68.72GB");
    ck_assert_str_eq(quantity_format(90, QTY_DURATION, false, buf, sizeof buf), "1.5m");
    ck_assert_str_eq(quantity_format(0, QTY_DURATION, false, buf, sizeof buf), "0s");
    ck_assert_str_eq(quantity_format(2.1, QTY_MONEY, false, buf, sizeof buf), "$2.10");
    ck_assert_str_eq(quantity_format(0.4, QTY_FRACTION, false, buf, sizeof buf), "40%");
    ck_assert_str_eq(quantity_format(400e9, QTY_RATE, false, buf, sizeof buf), "400Gb/s");
}
END_TEST

START_TEST(format_truncates_safely)
{
    char buf[4];
    quantity_format(405e9, QTY_COUNT, true, buf, sizeof buf);
    ck_assert_str_eq(buf, "405");
    ck_assert_ptr_null(quantity_format(1, QTY_COUNT, true, NULL, 0));
}
END_TEST

/* The pattern is compiled once on first use; callers on several threads
 * (TUI form, recompute worker) must all see it and get the same answers. */
static void *parse_many(void *arg)
{
    (void)arg;
    static const char *const texts[] = {"405B", "64GiB", "6h", "400Gb/s", "$2.10", "40%"};
    static const double want[] = {405e9, 68719476736.0, 21600, 400e9, 2.10, 0.4};
    for (int i = 0; i < 3000; i++) {
        int k = i % 6;
        double v;
        if (quantity_parse(texts[k], (QuantityKind)k, 1, &v, NULL, 0) != 0 || v != want[k])
            return (void *)1;
    }
    return NULL;
}

START_TEST(parses_concurrently_from_threads)
{
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, parse_many, NULL), 0);
    for (int i = 0; i < 4; i++) {
        void *rc;
        ck_assert_int_eq(pthread_join(th[i], &rc), 0);
        ck_assert_ptr_null(rc);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("quantity");
    TCase *tc = tcase_create("quantity");
    tcase_add_test(tc, count_suffixes);
    tcase_add_test(tc, byte_sizes_si_and_iec);
    tcase_add_test(tc, durations_and_bare_unit);
    tcase_add_test(tc, rates_bits_and_bytes);
    tcase_add_test(tc, money_fraction_number);
    tcase_add_test(tc, rejects_with_quoted_text);
    tcase_add_test(tc, rejects_bare_duration_without_key_unit);
    tcase_add_test(tc, long_text_is_quoted_shortened);
    tcase_add_test(tc, canonical_format_is_short_and_exact);
    tcase_add_test(tc, display_format_is_four_digits);
    tcase_add_test(tc, format_truncates_safely);
    tcase_add_test(tc, parses_concurrently_from_threads);
    suite_add_tcase(s, tc);
    return s;
}
