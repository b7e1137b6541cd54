/* plans/sanitize.h — text from input or the store made safe for a terminal
 * or a file (issue 17 D2, D3, D14).
 *
 * Any text that came from outside the program (a plan file, a trace, a
 * catalog, argv, a store row written by another program) may carry terminal
 * control sequences: ESC [ 2 J clears the screen, OSC 52 writes the
 * clipboard.  Before such text reaches a terminal (CLI messages, list/show,
 * the dashboard) it goes through sanitize_text(), which rewrites every byte
 * or character that is not printable as a visible escape:
 *
 *   C0 controls and DEL      \x1b  \x07  \x7f     (\n and \t kept on request)
 *   C1 controls U+0080–009F  \u0085
 *   bidi overrides/isolates  \u202e  \u2066 …      (Trojan Source, CVE-2021-42574)
 *   line/para separators     \u2028  \u2029
 *   bytes that are not UTF-8 \xff
 *
 * Everything else (printable ASCII and valid UTF-8) passes unchanged, so
 * clean text costs one scan.  A backslash is not escaped: the escapes are
 * for people to see, not to be parsed back. */
#ifndef GPUPLAN_PLANS_SANITIZE_H
#define GPUPLAN_PLANS_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

enum {
    SANITIZE_LINE = 0,          /* one line: \n and \t are escaped too */
    SANITIZE_KEEP_NEWLINES = 1, /* multi-line text (show's YAML): \n and \t pass */
};

/* True when sanitize_text(s, flags) would return s unchanged. */
bool sanitize_is_clean(const char *s, int flags);

/* Write the sanitised form of s into out (len bytes, always NUL-terminated
 * when len > 0; truncated at a character or escape boundary).  Returns out.
 * s and out must not overlap.  s == NULL gives "". */
const char *sanitize_text(const char *s, int flags, char *out, size_t len);

/* The sanitised form of s, malloc'd (caller frees); NULL only on ENOMEM. */
char *sanitize_dup(const char *s, int flags);

/* A store note (`save --note`, the dashboard's save prompt) is validated like
 * a name: at most max_bytes bytes of printable UTF-8 on one line (no control
 * characters, no bidi overrides).  Returns true when valid; otherwise false
 * with the first offence described in why (e.g. "control character \x1b at
 * byte 3"). */
bool sanitize_note_valid(const char *note, size_t max_bytes, char *why, size_t len);

#endif
