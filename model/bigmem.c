/* model/bigmem.c — large zeroed blocks that cost few page faults (see bigmem.h). */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "bigmem.h"

#define HUGE_PAGE ((size_t)2 << 20)

/* AddressSanitizer cannot see an overrun inside a private mapping: the
 * sanitizer builds keep calloc. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIGMEM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define BIGMEM_ASAN 1
#endif
#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE) && !defined(BIGMEM_ASAN)
#define BIGMEM_MAP 1
#endif

#ifdef BIGMEM_MAP
/* Below this a big_zalloc block is ordinary heap memory. */
#define BIG_MIN (HUGE_PAGE / 8)

static size_t mapped_size(size_t n)
{
    return (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
}
#endif

bool big_map_supported(void)
{
#ifdef BIGMEM_MAP
    return true;
#else
    return false;
#endif
}

void *big_map(size_t n)
{
#ifdef BIGMEM_MAP
    if (n == 0 || n > SIZE_MAX - 2 * HUGE_PAGE)
        return NULL;
    size_t m = mapped_size(n);
    /* map one huge page more and cut the unaligned ends off */
    char *raw = mmap(NULL, m + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uintptr_t a = ((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    char *p = (char *)a;
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    size_t tail = (size_t)(raw + m + HUGE_PAGE - (p + m));
    if (tail)
        munmap(p + m, tail);
    (void)madvise(p, m, MADV_HUGEPAGE); /* advice: ignored where THP is off */
    return p;
#else
    (void)n;
    return NULL;
#endif
}

void big_unmap(void *p, size_t n)
{
#ifdef BIGMEM_MAP
    if (p)
        munmap(p, mapped_size(n));
#else
    (void)p;
    (void)n;
#endif
}

void big_advise(void *p, size_t n)
{
#ifdef BIGMEM_MAP
    if (!p)
        return;
    uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

void *big_zalloc(size_t n)
{
#ifdef BIGMEM_MAP
    if (n >= BIG_MIN)
        return big_map(n);
#endif
    return calloc(1, n ? n : 1);
}

void big_free(void *p, size_t n)
{
    (void)n; /* the mapping's size; calloc's blocks do not need it */
    if (!p)
        return;
#ifdef BIGMEM_MAP
    if (n >= BIG_MIN) {
        big_unmap(p, n);
        return;
    }
#endif
    free(p);
}

void big_keep_freed_memory(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    /* blocks up to 64 MB from the heap, and the heap kept up to 256 MB of
     * free memory at its top: the scheduler's per-run buffers (a few MB)
     * are then reused from one run to the next */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

bool big_prefault_heap(size_t bytes)
{
#if defined(BIGMEM_MAP) && defined(__GLIBC__) && defined(MADV_POPULATE_WRITE)
    /* With big_keep_freed_memory's thresholds the block comes from the
     * heap (brk) and, freed, joins the top of the heap, which is kept:
     * the allocations after this one are carved from these pages. */
    if (bytes < 4096 || bytes > ((size_t)64 << 20))
        return false;
    char *p = malloc(bytes);
    if (!p)
        return false;
    uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
    uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;
    bool ok = e > a && madvise((void *)a, e - a, MADV_POPULATE_WRITE) == 0;
    free(p);
    return ok;
#else
    (void)bytes;
    return false;
#endif
}
