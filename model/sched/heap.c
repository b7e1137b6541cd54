/* model/sched/heap.c — the event queue: one 4-ary min-heap of finish
 * events ordered by (time, insertion sequence), so ties resolve in a fixed
 * order and runs are deterministic.  Four children per node halve the
 * depth of a binary heap; a pop touches fewer cache lines (LaMarca &
 * Ladner, "The influence of caches on the performance of heaps", 1996):
 * events are 16 bytes and the array is placed so that every node's four
 * children share one 64-byte line (their "aligned" layout).  Stale events
 * (a job resized, killed or preempted since) are skipped by the loop: a
 * job keeps its live event's sequence number. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sched_int.h"

#define ev_less sched_ev_less

/* a[1] on a 64-byte boundary: the allocation starts a line, a sits 3
 * events (48 bytes) into it, so a[4i+1 .. 4i+4] is one line for every i */
#define HEAP_LINE 64
#define HEAP_PAD (HEAP_LINE / sizeof(SchedEvent) - 1)
_Static_assert(sizeof(SchedEvent) == 16, "SchedEvent: 16 bytes");

int sched_heap_push(SchedHeap *h, double t, uint32_t job)
{
    if (job >= (1U << SCHED_EV_JOB_BITS) || h->seq >= SCHED_EV_SEQ_MAX)
        return -1;
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 1024;
        void *mem = NULL;
        if (posix_memalign(&mem, HEAP_LINE, (cap + HEAP_PAD) * sizeof(SchedEvent)) != 0)
            return -1;
        SchedEvent *a = (SchedEvent *)mem + HEAP_PAD;
        if (h->n)
            memcpy(a, h->a, h->n * sizeof *a);
        free(h->mem);
        h->mem = mem;
        h->a = a;
        h->cap = cap;
    }
    SchedEvent e = {.key = sched_time_key(t), .id = h->seq++ << SCHED_EV_JOB_BITS | job};
    size_t i = h->n++;
    while (i > 0) {
        size_t p = (i - 1) / SCHED_HEAP_D;
        if (!ev_less(&e, &h->a[p]))
            break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i] = e;
    return 0;
}

/* the pop's tournament below compares exactly four children */
_Static_assert(SCHED_HEAP_D == 4, "sched_heap_pop: a 4-ary heap");

/* Bottom-up pop (Wegener, "Bottom-up-heapsort", TCS 118, 1993; for d-ary
 * heaps see Edelkamp & Wegener, "On the performance of weak-heapsort",
 * STACS 2000): the hole left by the top walks down to a leaf along the
 * smallest children (D-1 comparisons a level, no comparison with the moved
 * element), then the last element, which came from the bottom level and
 * mostly belongs there, sifts up from the hole (usually zero or one
 * level).  The classic sift compares the last element with the smallest
 * child on every level too: one comparison in four saved.  The pop order is
 * the same: (time, insertion) is a strict total order, so every valid heap
 * pops the same sequence. */
SchedEvent sched_heap_pop(SchedHeap *h)
{
    SchedEvent *a = h->a;
    SchedEvent top = a[0];
    size_t n = --h->n;
    if (n == 0)
        return top;
    SchedEvent last = a[n];
    size_t i = 0;
    for (;;) {
        size_t l = SCHED_HEAP_D * i + 1, m;
        if (l + SCHED_HEAP_D <= n) {
            /* all four children: a tournament of pairs */
            size_t m0 = ev_less(&a[l + 1], &a[l]) ? l + 1 : l;
            size_t m1 = ev_less(&a[l + 3], &a[l + 2]) ? l + 3 : l + 2;
            m = ev_less(&a[m1], &a[m0]) ? m1 : m0;
        } else if (l < n) {
            m = l;
            for (size_t c = l + 1; c < n; c++)
                if (ev_less(&a[c], &a[m]))
                    m = c;
        } else {
            break;
        }
        a[i] = a[m];
        i = m;
    }
    while (i > 0) {
        size_t p = (i - 1) / SCHED_HEAP_D;
        if (!ev_less(&last, &a[p]))
            break;
        a[i] = a[p];
        i = p;
    }
    a[i] = last;
    return top;
}

void sched_heap_free(SchedHeap *h)
{
    free(h->mem);
    h->mem = NULL;
    h->a = NULL;
    h->n = h->cap = 0;
}
