/* plans/export_csv.c — one tidy table (plan, section, subject, metric,
 * value, unit) of every headline number, for a spreadsheet to pivot; and the
 * same for a comparison with a `plan` column per side plus deltas. */
#include "config.h"

#include <stdlib.h>

#include "export_formats.h"
#include "headline.h"
#include "strbuf.h"

static void row(StrBuf *b, const char *plan, const Headline *h, double value)
{
    sb_csv(b, plan);
    sb_puts(b, ",");
    sb_csv(b, h->section);
    sb_puts(b, ",");
    sb_csv(b, h->subject);
    sb_puts(b, ",");
    sb_csv(b, h->metric);
    sb_printf(b, ",%.10g,", value);
    sb_csv(b, h->unit);
    sb_puts(b, "\r\n");
}

char *export_csv(const Plan *p, const PlanResult *r)
{
    Headline *h = calloc(HEADLINE_MAX, sizeof *h);
    if (!h)
        return NULL;
    int n = headline_collect(p, r, h, HEADLINE_MAX);
    StrBuf b;
    sb_init(&b);
    sb_puts(&b, "plan,section,subject,metric,value,unit\r\n");
    for (int i = 0; i < n; i++)
        row(&b, p->name, &h[i], h[i].value);
    free(h);
    return sb_finish(&b);
}

char *export_compare_csv(const Plan *a, const PlanResult *ra, const Plan *b, const PlanResult *rb)
{
    int n;
    HeadlineDelta *d = headline_compare_plans(a, ra, b, rb, &n);
    if (!d)
        return NULL;
    StrBuf s;
    sb_init(&s);
    sb_puts(&s, "section,subject,metric,unit,");
    sb_csv(&s, a->name);
    sb_puts(&s, ",");
    sb_csv(&s, b->name);
    sb_puts(&s, ",delta,percent,verdict\r\n");
    for (int i = 0; i < n; i++) {
        const HeadlineDelta *x = &d[i];
        sb_csv(&s, x->h.section);
        sb_puts(&s, ",");
        sb_csv(&s, x->h.subject);
        sb_puts(&s, ",");
        sb_csv(&s, x->h.metric);
        sb_puts(&s, ",");
        sb_csv(&s, x->h.unit);
        if (x->in_a)
            sb_printf(&s, ",%.10g", x->a);
        else
            sb_puts(&s, ",");
        if (x->in_b)
            sb_printf(&s, ",%.10g", x->b);
        else
            sb_puts(&s, ",");
        if (x->in_a && x->in_b)
            sb_printf(&s, ",%.10g,%.4g", x->delta, x->pct);
        else
            sb_puts(&s, ",,");
        sb_printf(&s, ",%s\r\n", x->verdict > 0 ? "better" : x->verdict < 0 ? "worse" : "same");
    }
    free(d);
    return sb_finish(&s);
}
