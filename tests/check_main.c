/* tests/check_main.c — the one runner every Check suite links. */
#include "config.h"

#include <stdlib.h>

#include "check_main.h"

int main(void)
{
    SRunner *sr = srunner_create(test_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
