/* model/sched/heap.c — the event queue: one 4-ary min-heap of finish
 * events ordered by (time, insertion sequence), so ties resolve in a fixed
 * order and runs are deterministic.  Four children per node halve the
 * depth of a binary heap; a pop touches fewer cache lines (LaMarca &
 * Ladner, "The influence of caches on the performance of heaps", 1996).  Stale events (a job resized, killed or
 * preempted since) are skipped by the loop through the job's version. */
#include "config.h"

#include <stdlib.h>

#include "sched_int.h"

static inline bool ev_less(const SchedEvent *a, const SchedEvent *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

int sched_heap_push(SchedHeap *h, double t, uint32_t job, uint32_t ver)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 1024;
        SchedEvent *a = realloc(h->a, cap * sizeof *a);
        if (!a)
            return -1;
        h->a = a;
        h->cap = cap;
    }
    SchedEvent e = {.t = t, .seq = h->seq++, .job = job, .ver = ver};
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

SchedEvent sched_heap_pop(SchedHeap *h)
{
    SchedEvent top = h->a[0];
    SchedEvent last = h->a[--h->n];
    size_t i = 0, n = h->n;
    for (;;) {
        size_t l = SCHED_HEAP_D * i + 1;
        if (l >= n)
            break;
        size_t m = l, end = l + SCHED_HEAP_D < n ? l + SCHED_HEAP_D : n;
        for (size_t c = l + 1; c < end; c++)
            if (ev_less(&h->a[c], &h->a[m]))
                m = c;
        if (!ev_less(&h->a[m], &last))
            break;
        h->a[i] = h->a[m];
        i = m;
    }
    if (n > 0)
        h->a[i] = last;
    return top;
}

void sched_heap_free(SchedHeap *h)
{
    free(h->a);
    h->a = NULL;
    h->n = h->cap = 0;
}
