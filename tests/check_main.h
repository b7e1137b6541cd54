/* tests/check_main.h — every suite file defines test_suite(); check_main.c
 * runs it with TAP output (CK_TAP_LOG_FILE_NAME=- under make check). */
#ifndef GPUPLAN_TESTS_CHECK_MAIN_H
#define GPUPLAN_TESTS_CHECK_MAIN_H
#include <check.h>
Suite *test_suite(void);
#endif
