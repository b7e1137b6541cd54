/* tui/w_spark.c — sparklines. */
#include "config.h"

#include <math.h>

#include "widgets.h"

void widget_sparkline(int y, int x, int w, const double *v, int n, double max, Role role)
{
    if (w <= 0 || n <= 0)
        return;
    if (!(max > 0)) {
        max = 0;
        for (int i = 0; i < n; i++)
            if (isfinite(v[i]) && v[i] > max)
                max = v[i];
    }
    int cells = w < n ? w : n;
    for (int c = 0; c < cells; c++) {
        /* each cell shows the mean of the samples that fall in it */
        int a = c * n / cells, b = (c + 1) * n / cells;
        if (b <= a)
            b = a + 1;
        double sum = 0;
        for (int i = a; i < b; i++)
            sum += isfinite(v[i]) ? v[i] : 0;
        double m = sum / (b - a);
        int level = max > 0 ? (int)lround(m / max * 7) : 0;
        if (level < 0)
            level = 0;
        if (level > 7)
            level = 7;
        term_put(y, x + c, 1, role, term_glyphs->spark[level]);
    }
}
