/* plans/catalog_yaml.h — load the catalog from the YAML files in data/catalog plus an
 * optional user directory whose entries add to or override built-in ones
 * (matched by id).  Validated like plans: errors name file:line:col. */
#ifndef GPUPLAN_PLANS_CATALOG_YAML_H
#define GPUPLAN_PLANS_CATALOG_YAML_H

#include "catalog.h"
#include "diag.h"

/* Load every *.yaml in dir (sorted by name), then every *.yaml in user_dir
 * when not NULL.  Returns 0, or -1 with d set; on failure *c is left empty
 * (safe to catalog_free). */
int catalog_load(Catalog *c, const char *dir, const char *user_dir, Diag *d);
/* Load one YAML text into c (adding / overriding). */
int catalog_load_text(Catalog *c, const char *text, size_t len, const char *file, Diag *d);
void catalog_free(Catalog *c);

#endif
