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
#include "safeio.h"
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
    return export_plan_ranges(f, p, r, c, version, NULL, NULL);
}

bool export_ranges_supported(ExportFormat f)
{
    return f == EXPORT_MD || f == EXPORT_HTML || f == EXPORT_JSON;
}

char *export_plan_ranges(ExportFormat f, const Plan *p, const PlanResult *r, const Catalog *c,
                         int version, const SensResult *sens, const McResult *mc)
{
    switch (f) {
    case EXPORT_MD: return export_md(p, r, c, version, sens, mc);
    case EXPORT_HTML: return export_html(p, r, c, version, sens, mc);
    case EXPORT_CSV: return export_csv(p, r);
    case EXPORT_JSON:
        return sens || mc ? export_json_ranges(p, r, sens, mc, 1) : export_json(p, r, 1);
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

int export_write_file(const char *path, const char *data, char *err, size_t errlen)
{
    char why[256];
    if (safeio_write_file(path, data, strlen(data), 0644 /* an ordinary document */, why,
                          sizeof why) == 0)
        return 0;
    snprintf(err, errlen, "%s: %s", path, why);
    return -1;
}

char *export_files_join(const ExportFile *files, int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(files[i].name) + strlen(files[i].text) + 16;
    char *s = malloc(len), *w = s;
    if (!s)
        return NULL;
    for (int i = 0; i < n; i++)
        w += sprintf(w, "%s# ==> %s <==\n%s", i ? "\n" : "", files[i].name, files[i].text);
    *w = '\0';
    return s;
}

void export_files_free(ExportFile *files, int n)
{
    for (int i = 0; i < n; i++) {
        free(files[i].text);
        files[i].text = NULL;
    }
}

int export_write_dir(const char *dir, const ExportFile *files, int n, char *err, size_t errlen)
{
    struct stat st;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create the directory: %s", dir, strerror(errno));
        return -1;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory (a bundle export writes %d files into one)",
                 dir, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX], why[256];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, files[i].name) >= sizeof path) {
            snprintf(err, errlen, "%s: path too long", dir);
            return -1;
        }
        if (safeio_write_file(path, files[i].text, strlen(files[i].text), (mode_t)files[i].mode,
                              why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: %s", path, why);
            return -1;
        }
    }
    return 0;
}
