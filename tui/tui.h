/* tui/tui.h — entry point of the interactive dashboard (see design/TUI.md).
 * Called by cli/main.c. */
#ifndef GPUPLAN_TUI_H
#define GPUPLAN_TUI_H

/* Runs the full-screen dashboard on the terminal.
 * db_path: plan store (NULL = datadir_default_db()).
 * catalog_dir_override: catalog directory (NULL = datadir default).
 * theme: theme name (NULL = saved preference, else "default").
 * plan_name_or_file: plan name in the store or a path to a plan YAML file
 *   (NULL = most recently updated plan in the store).
 * Returns a process exit status (0 ok, nonzero on error); the terminal is
 * restored on every exit path. */
int tui_run(const char *db_path, const char *catalog_dir_override, const char *theme, const char *plan_name_or_file);

#endif
