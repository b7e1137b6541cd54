/* tests/faults/failmalloc.c — an LD_PRELOAD shim that fails one chosen
 * allocation, the way SQLite's test harness does (sqlite.org/testing.html
 * §3.1 "Out-Of-Memory Testing"): with GPUPLAN_FAILMALLOC=N the Nth call to
 * malloc/calloc/realloc/aligned allocation of the process returns NULL
 * (errno ENOMEM), every other call succeeds.  With GPUPLAN_FAILMALLOC_COUNT
 * naming a file, the number of allocation calls made is written there at
 * exit, so a driver can loop N over 1..count.
 *
 * It wraps the C library's allocator (dlsym(RTLD_NEXT)); glibc routes its
 * own internal allocations (stdio, strdup, locale) through the interposed
 * malloc, so those fail too.  Not for ASan builds: the sanitizer owns
 * malloc there (check-faults skips them). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void (*real_free)(void *);

static long fail_at = -1;
static long calls;
static int initialised, initialising;

/* dlsym may allocate before the real allocator is known: serve that from
 * a small static arena (never freed). */
static char arena[16384];
static size_t arena_used;

static void *arena_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (arena_used + n > sizeof arena)
        return NULL;
    void *p = arena + arena_used;
    arena_used += n;
    return p;
}

static int in_arena(const void *p)
{
    return (const char *)p >= arena && (const char *)p < arena + sizeof arena;
}

static void init(void)
{
    if (initialised || initialising)
        return;
    initialising = 1;
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
    real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    const char *e = getenv("GPUPLAN_FAILMALLOC");
    fail_at = e && *e ? atol(e) : -1;
    initialising = 0;
    initialised = 1;
}

/* True when this call is the one to fail. */
static int fail_now(void)
{
    return ++calls == fail_at;
}

void *malloc(size_t n)
{
    if (!initialised) {
        init();
        if (!real_malloc)
            return arena_alloc(n);
    }
    if (fail_now()) {
        errno = ENOMEM;
        return NULL;
    }
    return real_malloc(n);
}

void *calloc(size_t n, size_t m)
{
    if (!initialised) {
        init();
        if (!real_calloc)
            return arena_alloc(n * m); /* the arena is zeroed */
    }
    if (fail_now()) {
        errno = ENOMEM;
        return NULL;
    }
    return real_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
    if (!initialised)
        init();
    if (in_arena(p)) { /* grow an arena block into a real one */
        void *q = malloc(n);
        if (q)
            memcpy(q, p, n < 64 ? n : 64);
        return q;
    }
    if (fail_now()) {
        errno = ENOMEM;
        return NULL;
    }
    return real_realloc(p, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (!initialised)
        init();
    if (fail_now())
        return ENOMEM;
    return real_posix_memalign(out, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
    if (!initialised)
        init();
    if (fail_now()) {
        errno = ENOMEM;
        return NULL;
    }
    return real_aligned_alloc(align, n);
}

void free(void *p)
{
    if (!p || in_arena(p))
        return;
    if (!initialised)
        init();
    real_free(p);
}

__attribute__((destructor)) static void report(void)
{
    const char *f = getenv("GPUPLAN_FAILMALLOC_COUNT");
    if (!f || !*f)
        return;
    int fd = open(f, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%ld\n", calls);
    if (n > 0 && write(fd, buf, (size_t)n) < 0)
        n = 0;
    close(fd);
}
