/* tui/palette.c — completion for the `:` command line: command names, field
 * keys after `set`, a choice field's values, export formats, themes and
 * stored plan names. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app.h"
#include "export.h"

static const char *const commands[] = {
    "set", "export", "theme", "open", "compare", "fork", "scenario", "explain", "present",
    "warnings", "w", "wq", "q", "q!", "undo", "redo", "help",
};

#define MAX_CANDS 512

/* Complete the last word of in (starting at byte `start`) among cands. */
static int complete_word(App *app, LineInput *in, int start, const char *const *cands, int n)
{
    const char *word = in->buf + start;
    size_t wl = strlen(word);
    const char *match[MAX_CANDS];
    int m = 0;
    for (int i = 0; i < n && m < MAX_CANDS; i++)
        if (strncasecmp(cands[i], word, wl) == 0)
            match[m++] = cands[i];
    if (m == 0) {
        snprintf(app->completions, sizeof app->completions, "no completion for '%s'", word);
        return 0;
    }
    /* longest common prefix */
    size_t common = strlen(match[0]);
    for (int i = 1; i < m; i++) {
        size_t k = 0;
        while (k < common && match[i][k] && strncasecmp(match[i] + k, match[0] + k, 1) == 0)
            k++;
        common = k;
    }
    char out[256];
    snprintf(out, sizeof out, "%.*s%.*s%s", start, in->buf, (int)common, match[0],
             m == 1 ? " " : "");
    input_set(in, out);
    app->completions[0] = '\0';
    if (m > 1) {
        /* shown above the command line (the status row holds the prompt) */
        size_t used = 0;
        for (int i = 0; i < m && used + 2 < sizeof app->completions; i++) {
            int w = snprintf(app->completions + used, sizeof app->completions - used, "%s%s",
                             i ? "  " : "", match[i]);
            if (w < 0 || (size_t)w >= sizeof app->completions - used)
                break;
            used += (size_t)w;
        }
    }
    return 1;
}

int palette_complete(App *app, LineInput *in)
{
    /* split into words */
    char copy[256];
    snprintf(copy, sizeof copy, "%s", in->buf);
    int nwords = 0, starts[8] = {0};
    bool inword = false;
    for (int i = 0; copy[i]; i++) {
        if (copy[i] != ' ' && !inword) {
            if (nwords < 8)
                starts[nwords] = i;
            nwords++;
            inword = true;
        } else if (copy[i] == ' ') {
            inword = false;
        }
    }
    bool trailing_space = in->len > 0 && in->buf[in->len - 1] == ' ';
    int cur = trailing_space || nwords == 0 ? nwords : nwords - 1; /* index of the word being typed */
    int start = trailing_space || nwords == 0 ? in->len : starts[cur < 8 ? cur : 7];
    if (cur == 0)
        return complete_word(app, in, start, commands, (int)(sizeof commands / sizeof commands[0]));
    char cmd[32];
    snprintf(cmd, sizeof cmd, "%.*s", (int)strcspn(copy + starts[0], " "), copy + starts[0]);
    const char *cands[MAX_CANDS];
    int n = 0;
    char themes[32][64];
    StorePlanInfo *list = NULL;
    if (strcmp(cmd, "set") == 0 && cur == 1) {
        n = fields_keys(&app->plan, app->sel, cands, MAX_CANDS);
    } else if (strcmp(cmd, "set") == 0 && cur == 2) {
        char key[96];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(copy + starts[1], " "), copy + starts[1]);
        FieldTarget t;
        const FieldDef *f = fields_find(&app->plan, app->sel, key, &t);
        if (!f || !field_is_choice(f)) {
            app_status(app, false, "%s", f ? f->help : "unknown field");
            return 0;
        }
        n = field_choices(f, &app->plan, &app->cat, cands, MAX_CANDS);
    } else if (strcmp(cmd, "export") == 0 && cur == 1) {
        for (int f = 0; f < EXPORT_COUNT; f++)
            cands[n++] = export_format_name((ExportFormat)f);
    } else if (strcmp(cmd, "theme") == 0 && cur == 1) {
        int k = theme_list(app->themes_dir, themes, 32);
        for (int i = 0; i < k; i++)
            cands[n++] = themes[i];
    } else if ((strcmp(cmd, "open") == 0 || strcmp(cmd, "compare") == 0) && app->store) {
        int k = 0;
        if (store_list(app->store, NULL, false, &list, &k, NULL) == 0)
            for (int i = 0; i < k && n < MAX_CANDS; i++)
                cands[n++] = list[i].name;
    } else {
        return 0;
    }
    int r = complete_word(app, in, start, cands, n);
    free(list);
    return r;
}
