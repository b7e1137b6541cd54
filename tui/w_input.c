/* tui/w_input.c — a one-line text input (prompts, form fields, find, the
 * command line). */
#include "config.h"

#include <string.h>

#include "widgets.h"

#define CTRL(c) ((c) & 0x1f)

void input_set(LineInput *in, const char *s)
{
    snprintf(in->buf, sizeof in->buf, "%s", s ? s : "");
    in->len = (int)strlen(in->buf);
    in->cur = in->len;
}

static bool is_cont(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

int input_key(LineInput *in, int ch)
{
    switch (ch) {
    case KEY_LEFT:
        while (in->cur > 0 && is_cont(in->buf[--in->cur]))
            ;
        return 0;
    case KEY_RIGHT:
        if (in->cur < in->len)
            for (in->cur++; in->cur < in->len && is_cont(in->buf[in->cur]); in->cur++)
                ;
        return 0;
    case KEY_HOME: case CTRL('a'):
        in->cur = 0;
        return 0;
    case KEY_END: case CTRL('e'):
        in->cur = in->len;
        return 0;
    case KEY_BACKSPACE: case 127: case CTRL('h'): {
        if (in->cur == 0)
            return 0;
        int start = in->cur;
        while (start > 0 && is_cont(in->buf[--start]))
            ;
        memmove(in->buf + start, in->buf + in->cur, (size_t)(in->len - in->cur + 1));
        in->len -= in->cur - start;
        in->cur = start;
        return 1;
    }
    case KEY_DC: case CTRL('d'): {
        if (in->cur >= in->len)
            return 0;
        int end = in->cur + 1;
        while (end < in->len && is_cont(in->buf[end]))
            end++;
        memmove(in->buf + in->cur, in->buf + end, (size_t)(in->len - end + 1));
        in->len -= end - in->cur;
        return 1;
    }
    case CTRL('u'):
        memmove(in->buf, in->buf + in->cur, (size_t)(in->len - in->cur + 1));
        in->len -= in->cur;
        in->cur = 0;
        return 1;
    case CTRL('k'):
        in->buf[in->cur] = '\0';
        in->len = in->cur;
        return 1;
    case CTRL('w'): {
        int start = in->cur;
        while (start > 0 && in->buf[start - 1] == ' ')
            start--;
        while (start > 0 && in->buf[start - 1] != ' ')
            start--;
        memmove(in->buf + start, in->buf + in->cur, (size_t)(in->len - in->cur + 1));
        in->len -= in->cur - start;
        in->cur = start;
        return 1;
    }
    default:
        break;
    }
    if (ch >= 32 && ch < 256 && ch != 127) {
        if (in->len + 1 >= (int)sizeof in->buf)
            return 0;
        memmove(in->buf + in->cur + 1, in->buf + in->cur, (size_t)(in->len - in->cur + 1));
        in->buf[in->cur++] = (char)ch;
        in->len++;
        return 1;
    }
    return -1;
}

void input_draw(const LineInput *in, int y, int x, int w, Role role, bool show_cursor)
{
    if (w <= 0)
        return;
    term_fill(y, x, w, role, " ");
    /* scroll so that the cursor stays inside the field */
    int start = 0;
    char head[256];
    for (;;) {
        int n = in->cur - start;
        memcpy(head, in->buf + start, (size_t)n);
        head[n] = '\0';
        if (term_strwidth(head) < w || start >= in->cur)
            break;
        for (start++; start < in->cur && is_cont(in->buf[start]); start++)
            ;
    }
    int used = term_put(y, x, w, role, head);
    if (show_cursor && used < w) {
        char cell[8] = " ";
        if (in->cur < in->len) {
            int end = in->cur + 1;
            while (end < in->len && is_cont(in->buf[end]))
                end++;
            memcpy(cell, in->buf + in->cur, (size_t)(end - in->cur));
            cell[end - in->cur] = '\0';
        }
        attr_t a = (attr_t)theme_attr(role) ^ A_REVERSE;
        attrset(a);
        mvaddstr(y, x + used, cell);
        attrset(A_NORMAL);
        used += term_strwidth(cell);
        if (in->cur < in->len)
            term_put(y, x + used, w - used, role, in->buf + in->cur + strlen(cell));
    } else if (used < w && in->cur < in->len) {
        term_put(y, x + used, w - used, role, in->buf + in->cur);
    }
}
