/* fuzz/fuzz_trace.c — fuzz target for the trace importer (plans/trace.c).
 *
 * Built with -DGPUPLAN_LIBFUZZER and -fsanitize=fuzzer it is a libFuzzer
 * target; otherwise fuzz/replay_main.c replays the files named on the command line (a
 * corpus, or crash reproducers), so the target also builds and runs under
 * plain `make` with the sanitizers.  Each input is parsed in every format and
 * both strictness modes; the checks below are the importer's contract. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const TraceFormat fmts[] = {TRACE_AUTO, TRACE_OPENB, TRACE_TIRESIAS, TRACE_SACCT};
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
        for (int strict = 0; strict < 2; strict++) {
            Trace t;
            Diag d = {0};
            int rc = trace_parse((const char *)data, size, "fuzz", fmts[f], strict, &t, &d);
            if (rc == 0) {
                /* a success has jobs, sorted and rebased, with sane fields */
                if (t.n == 0 || t.jobs[0].submit_s != 0)
                    abort();
                for (size_t i = 0; i < t.n; i++) {
                    const TraceJob *j = &t.jobs[i];
                    if (!(j->gpus > 0) || !(j->duration_s >= 0) || !(j->submit_s >= 0) ||
                        (i > 0 && j->submit_s < t.jobs[i - 1].submit_s) ||
                        j->team < -1 || (j->team >= 0 && (size_t)j->team >= t.n_teams))
                        abort();
                }
            } else if (rc != -1 || d.msg[0] == '\0' || t.jobs || t.teams || t.n) {
                abort();
            }
            trace_free(&t);
        }
    return 0;
}
