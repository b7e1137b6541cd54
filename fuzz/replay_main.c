/* fuzz/replay_main.c — the main() every fuzz target gets when it is not
 * built for libFuzzer (no -DGPUPLAN_LIBFUZZER): it replays the files named
 * on the command line through LLVMFuzzerTestOneInput, so a corpus or a crash
 * reproducer runs under gcc, ASan and gdb too. */
#include "config.h"

#ifndef GPUPLAN_LIBFUZZER
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read a whole file into a malloc'd buffer; NULL on error (errno set). */
static uint8_t *read_file(FILE *f, size_t *len)
{
    size_t cap = 1 << 16;
    uint8_t *buf = malloc(cap);
    *len = 0;
    size_t got;
    while (buf && (got = fread(buf + *len, 1, cap - *len, f)) > 0) {
        *len += got;
        if (*len == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
    }
    return buf;
}

int main(int argc, char **argv)
{
    int status = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            status = 1;
            continue;
        }
        size_t len;
        uint8_t *buf = read_file(f, &len);
        fclose(f);
        if (!buf) {
            fprintf(stderr, "%s: out of memory\n", argv[i]);
            status = 1;
            continue;
        }
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        printf("%s: ok (%zu bytes)\n", argv[i], len);
    }
    return status;
}
#endif
