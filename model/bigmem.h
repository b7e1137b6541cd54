/* model/bigmem.h — large zeroed blocks that cost few page faults.
 *
 * A fresh process touching a few MB of new memory (a stage cache, the
 * working copies of a plan and its result) pays one page fault per 4 KiB
 * page; on a virtual machine a fault costs ~15 µs (measured here: 1,000
 * first touches, 14-15 ms), so a 5 MB stage cache costs milliseconds before
 * it holds anything.  Blocks from big_zalloc are 2 MiB-aligned anonymous
 * mappings advised MADV_HUGEPAGE, so where transparent huge pages are
 * enabled ("madvise" or "always") the first touch of each 2 MiB maps one
 * huge page (Linux, Documentation/admin-guide/mm/transhuge.rst).  Elsewhere
 * they are ordinary zeroed memory. */
#ifndef GPUPLAN_MODEL_BIGMEM_H
#define GPUPLAN_MODEL_BIGMEM_H

#include <stdbool.h>
#include <stddef.h>

/* n zeroed bytes, NULL on ENOMEM; free with big_free(p, n) (the same n).
 * Blocks under 256 KiB come from calloc, and so does everything in an
 * AddressSanitizer build (it cannot see an overrun inside a mapping). */
void *big_zalloc(size_t n);
void big_free(void *p, size_t n);

/* The mapping underneath, for allocators with their own size policy (the
 * scheduler's, model/sched/mem.c): big_map_supported() says whether this
 * build maps at all (false without MADV_HUGEPAGE or under
 * AddressSanitizer); big_map(n) is then a 2 MiB-aligned zeroed mapping of
 * at least n bytes advised MADV_HUGEPAGE (NULL on ENOMEM), released by
 * big_unmap(p, n) with the same n; big_advise(p, n) advises the whole
 * huge pages inside [p, p + n) of memory from elsewhere. */
bool big_map_supported(void);
void *big_map(size_t n);
void big_unmap(void *p, size_t n);
void big_advise(void *p, size_t n);

/* For a process that evaluates many plans in a row (a sweep): memory
 * freed by one evaluation stays in the process for the next instead of
 * going back to the kernel and being faulted in again (glibc: mallopt
 * M_MMAP_THRESHOLD / M_TRIM_THRESHOLD; elsewhere nothing).  Call before
 * the first evaluation. */
void big_keep_freed_memory(void);

/* For a short process whose heap is known to grow to about `bytes` (a
 * sweep array task: catalog, plan, scheduler runs): make the next `bytes`
 * of the heap resident in one call (madvise MADV_POPULATE_WRITE, Linux
 * 5.14) instead of one page fault per 4 KiB page on first touch.  A page
 * populated that way cost ~0.9 µs here, a first-touch fault ~11 µs
 * (1,000 pages each way, least of 5).  Call after big_keep_freed_memory
 * (the block must come from the heap and stay there when freed).  True
 * when the pages were populated; false where this cannot be done (no
 * glibc heap, no MADV_POPULATE_WRITE, a sanitizer build, or the kernel
 * refused), which changes nothing but speed. */
bool big_prefault_heap(size_t bytes);

#endif
