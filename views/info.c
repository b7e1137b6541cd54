/* views/info.c — a text page over the whole body: the plan's warnings
 * (w), the explanation of a number (e / ?), anything the shell hands it
 * with app_info_show().  Lines starting with "# " are headings; the rest
 * wraps at spaces.  y copies the whole text (OSC 52) for the meeting notes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

typedef struct {
    int scroll;
} IState;

static void *i_create(App *app)
{
    (void)app;
    return calloc(1, sizeof(IState));
}

static void i_destroy(View *v)
{
    free(v->state);
}

static void i_show(View *v, App *app)
{
    IState *s = v->state;
    (void)app;
    s->scroll = 0;
}

static void i_draw(View *v, App *app, Rect r)
{
    IState *s = v->state;
    term_clear_rect(r, ROLE_NORMAL);
    Canvas c;
    canvas_begin(&c, r, &s->scroll);
    int y = canvas_next(&c);
    if (y >= 0)
        term_put_ellipsis(y, r.x + 1, r.w - 2, ROLE_TITLE, app->info_title);
    canvas_next(&c);
    const char *t = app->info_text ? app->info_text : "";
    while (*t) {
        const char *nl = strchr(t, '\n');
        size_t n = nl ? (size_t)(nl - t) : strlen(t);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), t);
        if (strncmp(line, "# ", 2) == 0) {
            y = canvas_next(&c);
            if (y >= 0)
                term_put_ellipsis(y, r.x + 1, r.w - 2, ROLE_TITLE, line + 2);
        } else if (!line[0]) {
            canvas_next(&c);
        } else {
            canvas_wrap(&c, 2, ROLE_NORMAL, line);
        }
        t += n + (nl ? 1 : 0);
    }
    canvas_end(&c, &s->scroll);
}

static int i_key(View *v, App *app, Action a, int ch)
{
    IState *s = v->state;
    (void)ch;
    if (a == ACT_COPY) {
        app_copy(app, app->info_text ? app->info_text : "", app->info_title);
        return HR_HANDLED | HR_REDRAW;
    }
    return app_scroll(&s->scroll, a, app->geo.body.h - 1);
}

const ViewOps view_info_ops = {
    .name = "Info", .abbrev = "Info", .ctx = CTX_INFO,
    .create = i_create, .draw = i_draw, .key = i_key, .destroy = i_destroy, .show = i_show,
};
