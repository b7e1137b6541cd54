/* plans/safeio.h — the one way gpuplan opens a file to read and the one way
 * it writes a file (issue 17 D4, D7, D15).
 *
 * Reading: safeio_open_read() never blocks and only ever reads a regular
 * file, so a FIFO, a device or a directory named as a plan, trace, catalog
 * or theme is refused at once instead of hanging the program.
 *
 * Writing: safeio_write_file() writes a temporary file created next to the
 * target with O_CREAT|O_EXCL|O_NOFOLLOW (a planted symlink or file of that
 * name is never followed or reused), fsyncs it, renames it over the target
 * and fsyncs the directory.  A reader sees the old file or the new one, never
 * half of one; on any failure the old file is intact and no temporary is
 * left behind. */
#ifndef GPUPLAN_PLANS_SAFEIO_H
#define GPUPLAN_PLANS_SAFEIO_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Open path read-only: O_RDONLY|O_NONBLOCK|O_NOCTTY|O_CLOEXEC, then fstat;
 * anything but a regular file is closed again and refused; O_NONBLOCK is
 * cleared before the descriptor is returned.  Returns the fd, or -1 with
 * errno set and a short reason in why (no path; e.g. "No such file or
 * directory", "a directory", "not a regular file (a FIFO)"). */
int safeio_open_read(const char *path, char *why, size_t len);
/* The same as a stdio stream ("rb"; caller fcloses); NULL with why set. */
FILE *safeio_fopen_read(const char *path, char *why, size_t len);

/* Write len bytes of data to path through a temporary file in the same
 * directory (see above).  mode: permissions of a new file (e.g. 0644); a
 * replaced file keeps its own.
 *
 * Refused, with nothing written:
 *   - a directory, socket or block device;
 *   - an SQLite database (the plan store: "SQLite format 3" header) or its
 *     -wal/-shm/-journal file — `export -o` onto the store must not replace it;
 *   - a symbolic link owned by another user (protected_symlinks' rule: a
 *     link someone planted in a shared directory is not followed).
 * A symbolic link of one's own is followed: the file it names is replaced
 * and the link kept.  A character device or FIFO (`-o /dev/stdout`, a pipe)
 * is written in place, opened non-blocking so a FIFO without a reader fails
 * at once instead of hanging.
 *
 * Returns 0, or -1 with errno set and the reason in why (no path; e.g.
 * "cannot write: No space left on device"). */
int safeio_write_file(const char *path, const void *data, size_t len, mode_t mode, char *why,
                      size_t whylen);

#endif
