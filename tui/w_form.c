/* tui/w_form.c — the label / value / unit form of the left pane. */
#include "config.h"

#include <string.h>

#include "widgets.h"

void widget_form(Rect r, const FormRow *rows, int n, int sel, int *top, bool focused,
                 const LineInput *edit, bool edit_invalid)
{
    if (r.h <= 0 || r.w <= 4)
        return;
    int label_w = 0;
    for (int i = 0; i < n; i++) {
        int lw = term_strwidth(rows[i].label);
        if (!rows[i].heading && lw > label_w)
            label_w = lw;
    }
    if (label_w > r.w / 2)
        label_w = r.w / 2;
    widget_scroll(top, sel, r.h, n);
    for (int i = 0; i < r.h; i++) {
        int k = *top + i, y = r.y + i;
        term_fill(y, r.x, r.w, ROLE_NORMAL, " ");
        if (k >= n)
            continue;
        const FormRow *row = &rows[k];
        bool is_sel = k == sel;
        if (row->heading) {
            term_put(y, r.x, r.w, ROLE_TITLE, row->label);
            continue;
        }
        Role lr = is_sel ? (focused ? ROLE_SELECTION : ROLE_SELECTION_DIM) : ROLE_LABEL;
        term_fill(y, r.x, label_w + 1, lr, " ");
        term_put(y, r.x, label_w, lr, row->label);
        int vx = r.x + label_w + 1;
        int vw = r.w - label_w - 1;
        if (is_sel && edit) {
            input_draw(edit, y, vx, vw, edit_invalid ? ROLE_INVALID : ROLE_EDIT, true);
        } else {
            /* value, then its unit right after it */
            char val[300];
            if (row->choice && is_sel && focused)
                snprintf(val, sizeof val, "%s %s", row->value ? row->value : "",
                         term_glyphs->arrow_r);
            else
                snprintf(val, sizeof val, "%s", row->value ? row->value : "");
            int used = term_put_ellipsis(y, vx, vw, row->value_role, val);
            if (row->unit && row->unit[0] && used + 2 < vw)
                term_put(y, vx + used + 1, vw - used - 1, ROLE_UNIT, row->unit);
        }
    }
}
