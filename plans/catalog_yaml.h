/* plans/catalog_yaml.h — load the catalog from the YAML files in data/catalog plus an
 * optional user directory whose entries add to or override built-in ones
 * (matched by id).  Validated like plans: errors name file:line:col. */
#ifndef GPUPLAN_PLANS_CATALOG_YAML_H
#define GPUPLAN_PLANS_CATALOG_YAML_H

#include <stdint.h>

#include "catalog.h"
#include "diag.h"

/* Load every *.yaml in dir (sorted by name), then every *.yaml in user_dir
 * when not NULL.  Returns 0, or -1 with d set; on failure *c is left empty
 * (safe to catalog_free). */
int catalog_load(Catalog *c, const char *dir, const char *user_dir, Diag *d);
/* Load one YAML text into c (adding / overriding). */
int catalog_load_text(Catalog *c, const char *text, size_t len, const char *file, Diag *d);
void catalog_free(Catalog *c);
/* A digest of what catalog_load(c, dir, user_dir) reads: the name, bytes
 * and length of every file it would load, in its order, and whether a
 * user_dir is given (the directories' paths are not in it: the same files
 * elsewhere load the same catalog).  Reading and hashing is far cheaper
 * than the parse: `gpuplan sweep --stages` keys the parsed catalog the
 * stage file carries on it.  0, or -1 when a directory or file cannot be
 * read or a directory holds no *.yaml (catalog_load then says why). */
int catalog_source_digest(const char *dir, const char *user_dir, uint64_t *out);

#endif
