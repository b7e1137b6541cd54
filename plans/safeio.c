/* plans/safeio.c — non-blocking regular-file reads; temp-file-and-rename
 * writes (safeio.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "safeio.h"

static void say(char *why, size_t len, const char *fmt, const char *arg)
{
    if (why && len)
        snprintf(why, len, fmt, arg);
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : "not a regular file";
}

int safeio_open_read(const char *path, char *why, size_t len)
{
    if (!path || !path[0]) {
        say(why, len, "%s", "no file name");
        errno = ENOENT;
        return -1;
    }
    /* O_NONBLOCK: opening a FIFO without a writer (or a tty, a device) must
     * not hang; the fstat below then refuses it. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        say(why, len, "%s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        say(why, len, "%s", strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        say(why, len, "%s", kind_of(st.st_mode));
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
        int e = errno;
        say(why, len, "%s", strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

FILE *safeio_fopen_read(const char *path, char *why, size_t len)
{
    int fd = safeio_open_read(path, why, len);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        say(why, len, "%s", strerror(e));
        close(fd);
        errno = e;
    }
    return f;
}

/* Write all of data to fd; false with errno set on failure. */
static bool write_all(int fd, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        off += (size_t)w;
    }
    return true;
}

/* The first bytes of an SQLite database file (sqlite.org/fileformat.html
 * §1.3) and of its write-ahead log (§4.1: 0x377f0682 or 0x377f0683). */
static bool looks_like_sqlite(const char *path)
{
    int fd = safeio_open_read(path, NULL, 0);
    if (fd < 0)
        return false;
    unsigned char h[16];
    ssize_t n = read(fd, h, sizeof h);
    close(fd);
    if (n == 16 && memcmp(h, "SQLite format 3", 16) == 0)
        return true;
    return n >= 4 && h[0] == 0x37 && h[1] == 0x7f && h[2] == 0x06 && (h[3] & 0xfe) == 0x82;
}

/* NAME-wal, NAME-shm or NAME-journal next to an SQLite database NAME. */
static bool is_store_companion(const char *path)
{
    static const char *const sfx[] = {"-wal", "-shm", "-journal"};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
        size_t k = strlen(sfx[i]);
        if (n > k && strcmp(path + n - k, sfx[i]) == 0) {
            char *base = strndup(path, n - k);
            bool yes = base && looks_like_sqlite(base);
            free(base);
            if (yes)
                return true;
        }
    }
    return false;
}

/* fs.protected_symlinks (Documentation/admin-guide/sysctl/fs.rst): in a
 * sticky world-writable directory a link is followed only when its owner is
 * the follower or the directory's owner. */
static bool link_is_planted(const char *path, const struct stat *lst)
{
    if (lst->st_uid == geteuid())
        return false;
    char *dir = strdup(path);
    if (!dir)
        return true;
    char *slash = strrchr(dir, '/');
    const char *d = ".";
    if (slash) {
        *slash = '\0';
        d = slash == dir ? "/" : dir;
    }
    struct stat ds;
    bool planted = stat(d, &ds) != 0 ||
                   ((ds.st_mode & S_ISVTX) && (ds.st_mode & S_IWOTH) && lst->st_uid != ds.st_uid);
    free(dir);
    return planted;
}

/* A character device or FIFO: written in place (renaming over it would
 * replace the node).  Non-blocking open: a FIFO without a reader fails
 * with ENXIO instead of hanging. */
static int write_in_place(const char *path, const char *data, size_t len, char *why,
                          size_t whylen)
{
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        say(why, whylen, "cannot open: %s",
            e == ENXIO ? "a named pipe with no reader" : strerror(e));
        errno = e;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    bool ok = fl >= 0 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == 0 && write_all(fd, data, len);
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        say(why, whylen, "cannot write: %s", strerror(e));
        errno = e;
        return -1;
    }
    return 0;
}

/* Create "<target>.tmpXXXXXX" exclusively; returns the fd, -1 with errno. */
static int create_temp(const char *target, char *tmp, size_t cap)
{
    static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char r[6];
        if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
            unsigned long long t = (unsigned long long)time(NULL) ^
                                   ((unsigned long long)getpid() << 16) ^
                                   (unsigned long long)attempt * 2654435761u;
            for (size_t i = 0; i < sizeof r; i++)
                r[i] = (unsigned char)(t >> (8 * i));
        }
        char sfx[7];
        for (size_t i = 0; i < 6; i++)
            sfx[i] = abc[r[i] % (sizeof abc - 1)];
        sfx[6] = '\0';
        if ((size_t)snprintf(tmp, cap, "%s.tmp%s", target, sfx) >= cap) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

/* Make a rename durable (best effort: some file systems cannot fsync a
 * directory). */
static void sync_dir_of(const char *path)
{
    char *dir = strdup(path);
    if (!dir)
        return;
    char *slash = strrchr(dir, '/');
    const char *d = ".";
    if (slash) {
        *slash = '\0';
        d = slash == dir ? "/" : dir;
    }
    int fd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

int safeio_write_file(const char *path, const void *data, size_t len, mode_t mode, char *why,
                      size_t whylen)
{
    if (!path || !path[0]) {
        say(why, whylen, "%s", "no file name");
        errno = ENOENT;
        return -1;
    }
    char *real = NULL;
    const char *target = path;
    struct stat lst, st;
    bool exists = false;
    if (lstat(path, &lst) == 0) {
        if (S_ISLNK(lst.st_mode)) {
            if (link_is_planted(path, &lst)) {
                say(why, whylen, "%s", "refusing to follow a symbolic link owned by another "
                                       "user in a shared directory");
                errno = ELOOP;
                return -1;
            }
            exists = stat(path, &st) == 0; /* dangling: the link itself is replaced */
        } else {
            st = lst;
            exists = true;
        }
    } else if (errno != ENOENT) {
        say(why, whylen, "cannot write: %s", strerror(errno));
        return -1;
    }
    if (exists) {
        if (S_ISDIR(st.st_mode)) {
            say(why, whylen, "cannot write: %s", strerror(EISDIR));
            errno = EISDIR;
            return -1;
        }
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
            return write_in_place(path, data, len, why, whylen);
        if (!S_ISREG(st.st_mode)) {
            say(why, whylen, "cannot write: %s", kind_of(st.st_mode));
            errno = EINVAL;
            return -1;
        }
        if (S_ISLNK(lst.st_mode)) {
            if (!(real = realpath(path, NULL))) {
                say(why, whylen, "cannot resolve the symbolic link: %s", strerror(errno));
                return -1;
            }
            target = real;
        }
        mode = st.st_mode & 07777; /* replacing a file keeps its permissions */
    }
    if ((exists && looks_like_sqlite(target)) || is_store_companion(target)) {
        say(why, whylen, "%s", "refusing to replace an SQLite database (a plan store?) or its "
                               "journal; choose another file name");
        free(real);
        errno = EEXIST;
        return -1;
    }
    size_t cap = strlen(target) + 16;
    char *tmp = malloc(cap);
    if (!tmp) {
        say(why, whylen, "%s", "out of memory");
        free(real);
        errno = ENOMEM;
        return -1;
    }
    int fd = create_temp(target, tmp, cap);
    if (fd < 0) {
        int e = errno;
        say(why, whylen, "cannot create a temporary file next to it: %s", strerror(e));
        free(tmp);
        free(real);
        errno = e;
        return -1;
    }
    bool ok = fchmod(fd, mode) == 0 && write_all(fd, data, len) && fsync(fd) == 0;
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (ok && rename(tmp, target) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        say(why, whylen, "cannot write: %s", strerror(e));
        unlink(tmp);
    } else {
        sync_dir_of(target);
    }
    free(tmp);
    free(real);
    errno = ok ? 0 : e;
    return ok ? 0 : -1;
}
