/* model/sched/mem.c — zeroed allocations for the simulator's large arrays.
 *
 * A 1M-job run holds ~150 MB of per-job state that the event loop reads in
 * arrival and finish order, i.e. all over the array.  With 4 KB pages every
 * page costs a fault on first touch (~37,000 for the job array alone) and
 * the random reads miss the TLB on most jobs.  These arrays are therefore
 * anonymous mappings (model/bigmem.c big_map), 2 MB aligned and advised as transparent
 * huge pages (madvise(MADV_HUGEPAGE); the kernel's default THP mode on
 * Debian/Ubuntu is "madvise", which backs only advised ranges with 2 MB
 * pages: https://www.kernel.org/doc/html/latest/admin-guide/mm/transhuge.html).
 * Anonymous mappings are zero-filled, like calloc.  Small arrays, and
 * systems without MADV_HUGEPAGE, use calloc.  Measured on bench_sched's 1M
 * jobs at 100 % load (with the generated job array advised likewise,
 * sched_big_advise): 51,700 -> 7,500 page faults. */
#include "config.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "bigmem.h"
#include "sched_int.h"

/* From here up, a mapping (model/bigmem.c; where the build maps at all):
 * below it, glibc's malloc serves blocks from its heap after the first
 * free, so the repeated runs of a capacity search reuse warm memory
 * (mapping them afresh measured 61 -> 88 ms on bench_sched's 100k jobs,
 * best of 5); from 32 MB up (its largest dynamic mmap threshold,
 * mallopt(3)) it maps every block afresh anyway. */
#define BIG_MIN ((size_t)32 << 20)
#define HDR 64                    /* a kept block's header, before the data */

/* Blocks of REUSE_MIN .. BIG_MIN bytes are kept for the next run instead of
 * freed (a few, REUSE_SLOTS): whether glibc's heap hands a freed block of
 * this size back warm depends on its dynamic mmap and trim thresholds
 * (mallopt(3)), which move with the sizes freed before — a 100,000-job
 * array of 9.6 MB was faulted in afresh on every run of bench_sched's 100k
 * case (97-137 ms, best of 5) where one of 12.8 MB was reused (52-70 ms).
 * A kept block is zeroed on reuse (warm memory: ~1 ms for 10 MB).  The
 * slots are claimed by atomic exchange, so concurrent runs are safe; at
 * most REUSE_SLOTS × BIG_MIN bytes stay parked.  Like the mappings, only
 * where the build maps (an AddressSanitizer build sees every block). */
#define REUSE_MIN ((size_t)1 << 20)
#define REUSE_SLOTS 4
typedef struct {
    size_t cap;                   /* usable bytes after the header */
} ReuseHdr;
static _Atomic(ReuseHdr *) reuse_slot[REUSE_SLOTS];

static bool reuse_range(size_t bytes)
{
    return bytes >= REUSE_MIN && bytes < BIG_MIN;
}

static void *reuse_calloc(size_t bytes)
{
    for (int i = 0; i < REUSE_SLOTS; i++) {
        ReuseHdr *h = atomic_exchange(&reuse_slot[i], NULL);
        if (!h)
            continue;
        /* a block up to twice the size serves; a larger one would hold
         * memory the run does not use */
        if (h->cap >= bytes && h->cap / 2 <= bytes) {
            memset((char *)h + HDR, 0, bytes);
            return (char *)h + HDR;
        }
        ReuseHdr *none = NULL;
        if (!atomic_compare_exchange_strong(&reuse_slot[i], &none, h))
            free(h);
    }
    ReuseHdr *h = calloc(1, bytes + HDR);
    if (!h)
        return NULL;
    h->cap = bytes;
    return (char *)h + HDR;
}

static void reuse_free(void *p)
{
    ReuseHdr *h = (ReuseHdr *)((char *)p - HDR);
    for (int i = 0; i < REUSE_SLOTS; i++) {
        ReuseHdr *none = NULL;
        if (atomic_compare_exchange_strong(&reuse_slot[i], &none, h))
            return;
    }
    free(h);
}

void *sched_big_calloc(size_t n, size_t size)
{
    if (n == 0 || size == 0)
        return calloc(1, 1);
    if (n > SIZE_MAX / size)
        return NULL;
    size_t bytes = n * size;
    if (big_map_supported()) {
        if (reuse_range(bytes))
            return reuse_calloc(bytes);
        if (bytes >= BIG_MIN)
            return big_map(bytes);
    }
    return calloc(n, size);
}

void sched_big_free(void *p, size_t n, size_t size)
{
    if (!p)
        return;
    if (big_map_supported() && n != 0 && size != 0 && n <= SIZE_MAX / size) {
        size_t bytes = n * size;
        if (reuse_range(bytes)) {
            reuse_free(p);
            return;
        }
        if (bytes >= BIG_MIN) {
            big_unmap(p, bytes);
            return;
        }
    }
    free(p);
}

void sched_big_advise(void *p, size_t bytes)
{
    if (bytes >= BIG_MIN)
        big_advise(p, bytes);
}
