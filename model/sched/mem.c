/* model/sched/mem.c — zeroed allocations for the simulator's large arrays.
 *
 * A 1M-job run holds ~150 MB of per-job state that the event loop reads in
 * arrival and finish order, i.e. all over the array.  With 4 KB pages every
 * page costs a fault on first touch (~37,000 for the job array alone) and
 * the random reads miss the TLB on most jobs.  On Linux these arrays are
 * therefore anonymous mappings, 2 MB aligned and advised as transparent
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

#include "sched_int.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* AddressSanitizer cannot see overruns inside a private mapping: the
 * sanitizer builds keep calloc. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCHED_BIG_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SCHED_BIG_ASAN 1
#endif

#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS) && !defined(SCHED_BIG_ASAN)
#define SCHED_BIG_MAP 1
/* Below this, calloc: glibc's malloc serves smaller blocks from its heap
 * after the first free, so the repeated runs of a capacity search reuse warm
 * memory (mapping them afresh measured 61 -> 88 ms on bench_sched's 100k
 * jobs, best of 5); from 32 MB up (its largest dynamic mmap threshold,
 * mallopt(3)) it maps every block afresh anyway. */
#define BIG_MIN ((size_t)32 << 20)
#define HUGE_SZ ((size_t)2 << 20)
#define HDR 64                    /* the mapping's base and length, before the data */

typedef struct {
    void *base;
    size_t len;
} BigHdr;

/* Blocks of REUSE_MIN .. BIG_MIN bytes are kept for the next run instead of
 * freed (a few, REUSE_SLOTS): whether glibc's heap hands a freed block of
 * this size back warm depends on its dynamic mmap and trim thresholds
 * (mallopt(3)), which move with the sizes freed before — a 100,000-job
 * array of 9.6 MB was faulted in afresh on every run of bench_sched's 100k
 * case (97-137 ms, best of 5) where one of 12.8 MB was reused (52-70 ms).
 * A kept block is zeroed on reuse (warm memory: ~1 ms for 10 MB).  The
 * slots are claimed by atomic exchange, so concurrent runs are safe; at
 * most REUSE_SLOTS × BIG_MIN bytes stay parked. */
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
#endif

void *sched_big_calloc(size_t n, size_t size)
{
    if (n == 0 || size == 0)
        return calloc(1, 1);
    if (n > SIZE_MAX / size)
        return NULL;
#ifdef SCHED_BIG_MAP
    size_t bytes = n * size;
    if (reuse_range(bytes))
        return reuse_calloc(bytes);
    if (bytes >= BIG_MIN && bytes <= SIZE_MAX - HUGE_SZ - HDR) {
        size_t len = bytes + HUGE_SZ + HDR;
        void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return NULL;
        uintptr_t a = ((uintptr_t)m + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1);
        /* advice only: without THP the mapping still works with 4 KB pages */
        (void)madvise((void *)a, len - (a - (uintptr_t)m), MADV_HUGEPAGE);
        BigHdr *h = (BigHdr *)a;
        h->base = m;
        h->len = len;
        return (char *)a + HDR;
    }
#endif
    return calloc(n, size);
}

void sched_big_free(void *p, size_t n, size_t size)
{
    if (!p)
        return;
#ifdef SCHED_BIG_MAP
    if (n != 0 && size != 0 && n <= SIZE_MAX / size && reuse_range(n * size)) {
        reuse_free(p);
        return;
    }
    if (n != 0 && size != 0 && n <= SIZE_MAX / size && n * size >= BIG_MIN &&
        n * size <= SIZE_MAX - HUGE_SZ - HDR) {
        BigHdr *h = (BigHdr *)((char *)p - HDR);
        munmap(h->base, h->len);
        return;
    }
#endif
    (void)n;
    (void)size;
    free(p);
}

void sched_big_advise(void *p, size_t bytes)
{
#ifdef SCHED_BIG_MAP
    if (!p || bytes < BIG_MIN)
        return;
    uintptr_t a = ((uintptr_t)p + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1);
    uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE_SZ - 1);
    if (e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}
