/* plans/datadir.c — find gpuplan's data, themes and default store
 * (PLAN-FORMAT.md "The program finds its data ...").
 *
 * Data dir, first match wins:
 *   1. $GPUPLAN_DATADIR when set and not empty (taken as given, unchecked:
 *      an explicit setting that is wrong should fail loudly later, not be
 *      silently replaced);
 *   2. next to the binary in a build tree: <exe dir>/data, or
 *      <exe dir>/../data for programs built in tests/, bench/ or fuzz/,
 *      when it holds a catalog/ directory;
 *   3. GPUPLAN_SRCDIR "/data" (compile-time: the source tree, so VPATH
 *      builds whose build tree has no data/ still run uninstalled), when it
 *      holds catalog/;
 *   4. GPUPLAN_PKGDATADIR (compile-time: the installed $(pkgdatadir)).
 * Themes dir: $GPUPLAN_THEMES; <exe dir>/themes or <exe dir>/../themes;
 * GPUPLAN_SRCDIR "/themes"; GPUPLAN_PKGDATADIR "/themes" (the existing
 * directory wins at each build-tree step).
 *
 * The returned strings live in thread-local buffers: valid until the next
 * call of the same function on the same thread.  The lookup is redone on
 * every call, so a changed environment is honoured. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#ifndef GPUPLAN_PKGDATADIR
#define GPUPLAN_PKGDATADIR "/usr/local/share/gpuplan"
#endif

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* out = dir + "/" + leaf; false when it does not fit. */
static bool join(char *out, size_t len, const char *dir, const char *leaf)
{
    int n = snprintf(out, len, "%s/%s", dir, leaf);
    return n > 0 && (size_t)n < len;
}

/* The directory holding the running executable, or false. */
static bool exe_dir(char *out, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", out, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return false;
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (!slash)
        return false;
    if (slash == out)
        slash[1] = '\0'; /* the binary is in "/" */
    else
        *slash = '\0';
    return true;
}

/* Does `dir` qualify: a directory that has `must_have` inside (or is a
 * directory at all when must_have is NULL)? */
static bool qualifies(const char *dir, const char *must_have)
{
    if (!must_have)
        return is_dir(dir);
    char p[PATH_MAX];
    return join(p, sizeof p, dir, must_have) && is_dir(p);
}

/* Look for <exe dir>/<leaf> then <exe dir>/../<leaf>; copy the first that
 * qualifies into out. */
static bool beside_exe(char *out, size_t len, const char *leaf, const char *must_have)
{
    char dir[PATH_MAX];
    if (!exe_dir(dir, sizeof dir))
        return false;
    char cand[PATH_MAX];
    if (join(cand, sizeof cand, dir, leaf) && qualifies(cand, must_have)) {
        snprintf(out, len, "%s", cand);
        return strlen(cand) < len;
    }
    char up[PATH_MAX];
    if (join(up, sizeof up, dir, "..") && join(cand, sizeof cand, up, leaf) &&
        qualifies(cand, must_have)) {
        snprintf(out, len, "%s", cand);
        return strlen(cand) < len;
    }
    return false;
}

static const char *lookup(char *buf, size_t len, const char *env, const char *leaf,
                          const char *must_have, const char *installed)
{
    const char *e = getenv(env);
    if (e && *e) {
        snprintf(buf, len, "%s", e);
        return buf;
    }
    if (beside_exe(buf, len, leaf, must_have))
        return buf;
#ifdef GPUPLAN_SRCDIR
    {
        char cand[PATH_MAX];
        if (join(cand, sizeof cand, GPUPLAN_SRCDIR, leaf) && qualifies(cand, must_have)) {
            snprintf(buf, len, "%s", cand);
            return buf;
        }
    }
#endif
    snprintf(buf, len, "%s", installed);
    return buf;
}

const char *datadir_get(void)
{
    static _Thread_local char buf[PATH_MAX];
    return lookup(buf, sizeof buf, "GPUPLAN_DATADIR", "data", "catalog", GPUPLAN_PKGDATADIR);
}

const char *datadir_themes(void)
{
    static _Thread_local char buf[PATH_MAX];
    return lookup(buf, sizeof buf, "GPUPLAN_THEMES", "themes", NULL, GPUPLAN_PKGDATADIR "/themes");
}

/* mkdir -p for every component of path (0700: XDG base directory spec asks
 * for user-only data directories it creates).  0 or -1 with errno. */
static int mkdirs(const char *path)
{
    char tmp[PATH_MAX];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(tmp, path, n + 1);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
        return -1;
    return is_dir(tmp) ? 0 : (errno = ENOTDIR, -1);
}

int datadir_default_db(char *buf, size_t len)
{
    if (!buf || len == 0)
        return -1;
    char dir[PATH_MAX];
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    int n;
    /* XDG: a relative XDG_DATA_HOME is invalid and must be ignored. */
    if (xdg && xdg[0] == '/')
        n = snprintf(dir, sizeof dir, "%s/gpuplan", xdg);
    else if (home && *home)
        n = snprintf(dir, sizeof dir, "%s/.local/share/gpuplan", home);
    else
        return -1;
    if (n <= 0 || (size_t)n >= sizeof dir)
        return -1;
    if (mkdirs(dir) != 0)
        return -1;
    n = snprintf(buf, len, "%s/plans.db", dir);
    if (n <= 0 || (size_t)n >= len) {
        buf[0] = '\0';
        return -1;
    }
    return 0;
}
