/* plans/datadir.h — where gpuplan's data lives (PLAN-FORMAT.md):
 * $GPUPLAN_DATADIR when set, else next to the binary in a build tree (the
 * source tree's data/ for VPATH builds), else the installed $(pkgdatadir). */
#ifndef GPUPLAN_PLANS_DATADIR_H
#define GPUPLAN_PLANS_DATADIR_H

#include <stddef.h>

/* The data directory (contains catalog/, examples/); never NULL. */
const char *datadir_get(void);
/* The themes directory. */
const char *datadir_themes(void);
/* Default store path: $XDG_DATA_HOME/gpuplan/plans.db or
 * ~/.local/share/gpuplan/plans.db.  Creates the parent directory. */
int datadir_default_db(char *buf, size_t len);

#endif
