/* plans/export.c — format names and the dispatch to each writer; atomic
 * writes of an export to a file. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "export_formats.h"
#include "yaml_plan.h"

static const struct {
    const char *name;
    const char *ext;
} formats[EXPORT_COUNT] = {
    [EXPORT_MD] = {"md", "md"},           [EXPORT_HTML] = {"html", "html"},
    [EXPORT_CSV] = {"csv", "csv"},        [EXPORT_JSON] = {"json", "json"},
    [EXPORT_YAML] = {"yaml", "yaml"},     [EXPORT_KUEUE] = {"kueue", "kueue.yaml"},
    [EXPORT_VOLCANO] = {"volcano", "volcano.yaml"}, [EXPORT_SLURM] = {"slurm", "slurm.conf"},
};

int export_format_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < EXPORT_COUNT; i++)
        if (strcasecmp(formats[i].name, name) == 0)
            return i;
    if (strcasecmp(name, "markdown") == 0)
        return EXPORT_MD;
    return -1;
}

const char *export_format_name(ExportFormat f)
{
    return (f >= 0 && f < EXPORT_COUNT) ? formats[f].name : "?";
}

const char *export_format_extension(ExportFormat f)
{
    return (f >= 0 && f < EXPORT_COUNT) ? formats[f].ext : "txt";
}

char *export_plan(ExportFormat f, const Plan *p, const PlanResult *r, const Catalog *c,
                  int version)
{
    switch (f) {
    case EXPORT_MD: return export_md(p, r, c, version);
    case EXPORT_HTML: return export_html(p, r, c, version);
    case EXPORT_CSV: return export_csv(p, r);
    case EXPORT_JSON: return export_json(p, r, 1);
    case EXPORT_YAML: return plan_to_yaml(p);
    case EXPORT_KUEUE: return export_kueue(p, r, c);
    case EXPORT_VOLCANO: return export_volcano(p, r, c);
    case EXPORT_SLURM: return export_slurm(p, r, c);
    default: return NULL;
    }
}

bool export_compare_supported(ExportFormat f)
{
    return f == EXPORT_MD || f == EXPORT_HTML || f == EXPORT_CSV || f == EXPORT_JSON;
}

char *export_compare(ExportFormat f, const Plan *a, const PlanResult *ra, const Plan *b,
                     const PlanResult *rb)
{
    switch (f) {
    case EXPORT_MD: return export_compare_md(a, ra, b, rb);
    case EXPORT_HTML: return export_compare_html(a, ra, b, rb);
    case EXPORT_CSV: return export_compare_csv(a, ra, b, rb);
    case EXPORT_JSON: return export_compare_json(a, ra, b, rb);
    default: return NULL;
    }
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

/* A device, FIFO or socket (`-o /dev/stdout`, a pipe): written in place,
 * since renaming a temp file over it would replace the node itself. */
static int write_special(const char *path, const char *data, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    bool ok = write_all(fd, data, strlen(data));
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(saved));
        return -1;
    }
    return 0;
}

int export_write_file(const char *path, const char *data, char *err, size_t errlen)
{
    struct stat st;
    mode_t mode = 0644; /* an export is an ordinary document */
    char *real = NULL;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(EISDIR));
            return -1;
        }
        if (!S_ISREG(st.st_mode))
            return write_special(path, data, err, errlen);
        mode = st.st_mode & 07777; /* replacing a file keeps its permissions */
        /* Through a symbolic link: replace the file it names, keep the link. */
        struct stat lst;
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && !(real = realpath(path, NULL))) {
            snprintf(err, errlen, "%s: cannot resolve: %s", path, strerror(errno));
            return -1;
        }
    }
    const char *target = real ? real : path;
    size_t plen = strlen(target);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(real);
        return -1;
    }
    snprintf(tmp, plen + 16, "%s.tmpXXXXXX", target);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        free(tmp);
        free(real);
        return -1;
    }
    bool ok = write_all(fd, data, strlen(data)) && fsync(fd) == 0;
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    /* mkstemp makes 0600 */
    if (ok && chmod(tmp, mode) != 0) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(tmp, target) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(saved));
        unlink(tmp);
    }
    free(tmp);
    free(real);
    return ok ? 0 : -1;
}
