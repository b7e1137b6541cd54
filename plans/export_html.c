/* plans/export_html.c — the leadership summary as one self-contained HTML
 * file: no scripts, no network, inline SVG charts (cost options, memory and
 * step-time breakdowns, per-rack power against the limit, a rack diagram,
 * queue-wait bars), a print style for clean PDFs.  The page is XHTML-clean
 * (parses as XML) so it can be checked with xmllint. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_formats.h"
#include "export_summary.h"
#include "fmt.h"
#include "headline.h"
#include "strbuf.h"
#include "yaml_plan.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MAX_SEG 8

/* Okabe–Ito palette: distinguishable with colour-blindness and in greyscale print. */
static const char *const palette[MAX_SEG] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                             "#56B4E9", "#D55E00", "#F0E442", "#999999"};

typedef struct {
    char label[96];
    double seg[MAX_SEG];
    char note[64]; /* printed after the bar */
} BarRow;

typedef struct {
    const char *title;
    const char *unit;          /* axis unit */
    const char *const *segs;   /* segment names (legend) */
    int nseg;
    double ref;                /* reference line value, 0 = none */
    const char *ref_label;
    const char *id;            /* element id, for tests */
} BarChart;

static const char CSS[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;max-width:"
    "1100px;margin:2em auto;padding:0 1em;color:#1a1a1a;line-height:1.45}"
    "h1{font-size:1.8em;margin-bottom:.2em}h2{border-bottom:2px solid #0072B2;padding-bottom:"
    ".2em;margin-top:1.6em}h3{margin-top:1.4em}"
    ".meta{color:#555}.ask{font-size:1.15em}.rec{background:#eef6fb;border-left:4px solid "
    "#0072B2;padding:.6em 1em}"
    "table{border-collapse:collapse;margin:.6em 0;font-size:.92em}th,td{border:1px solid #ccc;"
    "padding:.25em .6em;text-align:left}td.n,th.n{text-align:right;font-variant-numeric:"
    "tabular-nums}th{background:#f2f2f2}"
    ".sources{font-size:.8em;color:#444}.risk{color:#b00020}.better{color:#006b3c}.worse{color:#b00020;font-weight:bold}"
    "svg{display:block;margin:.6em 0;max-width:100%;height:auto}svg text{font-size:12px;"
    "fill:#1a1a1a}.chart{page-break-inside:avoid;break-inside:avoid}"
    "@media print{body{max-width:none;margin:0;font-size:10.5pt}h2{page-break-after:avoid}"
    "table,.chart{page-break-inside:avoid}.rec{background:none}a{color:inherit}}";

static void head(StrBuf *b, const char *title)
{
    sb_puts(b, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
               "<head>\n<meta charset=\"utf-8\"/>\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>");
    sb_html(b, title);
    sb_puts(b, "</title>\n<style>");
    sb_puts(b, CSS);
    sb_puts(b, "</style>\n</head>\n<body>\n");
}

static double row_total(const BarRow *r, int nseg)
{
    double t = 0;
    for (int i = 0; i < nseg; i++)
        t += r->seg[i] > 0 ? r->seg[i] : 0;
    return t;
}

/* A bar label that fits the label column (about 32 characters at 12 px):
 * longer ones are cut on a character boundary with an ellipsis, and the
 * whole text is kept as the tooltip. */
static void label(StrBuf *b, const char *text)
{
    size_t n = strlen(text), chars = 0, cut = n;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80 && ++chars > 30) {
            cut = i;
            break;
        }
    if (cut == n) {
        sb_html(b, text);
        return;
    }
    char head[256];
    snprintf(head, sizeof head, "%.*s", (int)(cut < sizeof head - 1 ? cut : sizeof head - 1), text);
    sb_puts(b, "<title>");
    sb_html(b, text);
    sb_puts(b, "</title>");
    sb_html(b, head);
    sb_puts(b, "…");
}

/* A horizontal (stacked) bar chart with an optional reference line. */
static void bar_chart(StrBuf *b, const BarChart *c, const BarRow *rows, int n,
                      const char *(*fmt)(double, char *, size_t))
{
    const int label_w = 230, bar_w = 530, row_h = 22, top = 34;
    int legend_h = c->nseg > 1 ? 22 : 0;
    int h = top + n * row_h + 26 + legend_h;
    double max = c->ref;
    for (int i = 0; i < n; i++)
        max = fmax(max, row_total(&rows[i], c->nseg));
    if (max <= 0)
        max = 1;
    max *= 1.05;
    sb_printf(b, "<div class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" "
                 "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" data-rows=\"%d\">"
                 "<title>",
              c->id, label_w + bar_w + 150, h, label_w + bar_w + 150, h, n);
    sb_html(b, c->title);
    sb_puts(b, "</title><text x=\"0\" y=\"16\" font-weight=\"bold\">");
    sb_html(b, c->title);
    sb_puts(b, "</text>");
    for (int i = 0; i < n; i++) {
        int y = top + i * row_h;
        sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", label_w - 8, y + 15);
        label(b, rows[i].label);
        sb_puts(b, "</text>");
        double x = label_w;
        for (int s = 0; s < c->nseg; s++) {
            double v = rows[i].seg[s];
            if (!(v > 0))
                continue;
            double w = v / max * bar_w;
            sb_printf(b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
                         "<title>",
                      x, y + 3, w, row_h - 6, palette[s % MAX_SEG]);
            char vb[48];
            sb_html(b, c->segs ? c->segs[s] : "");
            sb_puts(b, ": ");
            sb_html(b, fmt(v, vb, sizeof vb));
            sb_puts(b, "</title></rect>");
            x += w;
        }
        char tb[48];
        sb_printf(b, "<text x=\"%.1f\" y=\"%d\">", x + 6, y + 15);
        sb_html(b, fmt(row_total(&rows[i], c->nseg), tb, sizeof tb));
        if (rows[i].note[0]) {
            sb_puts(b, " ");
            sb_html(b, rows[i].note);
        }
        sb_puts(b, "</text>");
    }
    int axis_y = top + n * row_h + 4;
    sb_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>", label_w, axis_y,
              label_w + bar_w, axis_y);
    char mb[48];
    sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">", label_w + bar_w,
              axis_y + 16);
    sb_html(b, fmt(max, mb, sizeof mb));
    sb_puts(b, "</text>");
    if (c->ref > 0) {
        double rx = label_w + c->ref / max * bar_w;
        sb_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#b00020\" "
                     "stroke-width=\"2\" stroke-dasharray=\"5,3\"/>",
                  rx, top - 4, rx, axis_y);
        sb_printf(b, "<text x=\"%.1f\" y=\"%d\" fill=\"#b00020\">", rx + 4, top - 6);
        sb_html(b, c->ref_label ? c->ref_label : "");
        sb_puts(b, "</text>");
    }
    if (c->nseg > 1) {
        int x = label_w, ly = axis_y + 22 + 14;
        for (int s = 0; s < c->nseg; s++) {
            sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", x,
                      ly - 10, palette[s % MAX_SEG]);
            sb_printf(b, "<text x=\"%d\" y=\"%d\">", x + 14, ly);
            sb_html(b, c->segs[s]);
            sb_puts(b, "</text>");
            x += 14 + 8 * (int)strlen(c->segs[s]) + 16;
        }
    }
    sb_puts(b, "</svg></div>\n");
}

static const char *f_usd(double v, char *buf, size_t len)
{
    return fmt_usd(v, buf, len);
}
static const char *f_gib(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.1f GiB", v);
    return buf;
}
static const char *f_sec(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.3g s", v);
    return buf;
}
static const char *f_kw(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.1f kW", v);
    return buf;
}
static const char *f_hours(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.2f h", v);
    return buf;
}

static void para(StrBuf *b, const char *cls, const char *text)
{
    sb_printf(b, "<p class=\"%s\">", cls);
    sb_html(b, text);
    sb_puts(b, "</p>\n");
}

static void td(StrBuf *b, const char *text, bool num)
{
    sb_puts(b, num ? "<td class=\"n\">" : "<td>");
    sb_html(b, text);
    sb_puts(b, "</td>");
}

static void tdf(StrBuf *b, bool num, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void tdf(StrBuf *b, bool num, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    td(b, buf, num);
}

/* id: the chart's element id (unique in the page: the summary's top ten and
 * the detail's full list are two charts) */
static void cost_section(StrBuf *b, const Plan *p, const PlanResult *r, int max_rows,
                         const char *id)
{
    const CostResult *c = &r->cost;
    int n = c->n_options < max_rows ? c->n_options : max_rows;
    BarRow *rows = calloc((size_t)(n ? n : 1), sizeof *rows);
    if (!rows)
        return;
    for (int i = 0; i < n; i++) {
        snprintf(rows[i].label, sizeof rows[i].label, "%s", c->options[i].name);
        rows[i].seg[0] = c->options[i].kind == COST_ONPREM
                             ? c->options[i].capex_usd - c->options[i].residual_usd
                             : 0;
        rows[i].seg[1] = c->options[i].kind == COST_ONPREM
                             ? c->options[i].opex_usd_per_year * p->horizon_years
                             : 0;
        rows[i].seg[2] = c->options[i].kind == COST_CLOUD ? c->options[i].tco_usd : 0;
    }
    static const char *const segs[] = {"on-prem capex less residual value", "on-prem opex",
                                       "cloud spend"};
    char title[128], yb[32];
    snprintf(title, sizeof title, "Total cost over %s",
             summary_years(p->horizon_years, yb, sizeof yb));
    BarChart ch = {.title = title, .segs = segs, .nseg = 3, .id = id};
    bar_chart(b, &ch, rows, n, f_usd);
    free(rows);
    const CostColumn *col = summary_cost_columns;
    sb_puts(b, "<table><tr><th>Option</th><th class=\"n\">GPUs</th><th class=\"n\">Capex</th>"
               "<th class=\"n\">Opex / year</th>");
    static const CostColumnId order[] = {COL_TCO, COL_LIST, COL_EFF, COL_RUN, COL_MTOK, COL_BE};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        sb_puts(b, "<th class=\"n\" title=\"");
        sb_html(b, col[order[k]].basis);
        sb_puts(b, "\">");
        sb_html(b, col[order[k]].header);
        sb_puts(b, "</th>");
    }
    sb_puts(b, "<th class=\"n\">Source</th></tr>\n");
    /* Sources are long: number them once, cite the number in the row. */
    int src_of[PLAN_MAX_COST_OPTIONS], nsrc = 0, first[PLAN_MAX_COST_OPTIONS];
    for (int i = 0; i < c->n_options && i < max_rows; i++) {
        src_of[i] = -1;
        for (int j = 0; j < nsrc && src_of[i] < 0; j++)
            if (!strcmp(c->options[first[j]].source, c->options[i].source))
                src_of[i] = j;
        if (src_of[i] < 0 && c->options[i].source[0]) {
            first[nsrc] = i;
            src_of[i] = nsrc++;
        }
    }
    for (int i = 0; i < c->n_options && i < max_rows; i++) {
        const CostOption *o = &c->options[i];
        char x[32];
        sb_puts(b, "<tr>");
        if (o->sized)
            tdf(b, false, "%s (sized: %.0f days)", o->name, o->days);
        else
            tdf(b, false, "%s%s", o->name, i == c->cheapest ? " (cheapest)" : "");
        tdf(b, true, "%d", o->gpus);
        td(b, fmt_usd(o->capex_usd, x, sizeof x), true);
        td(b, fmt_usd(o->opex_usd_per_year, x, sizeof x), true);
        td(b, fmt_usd(o->tco_usd, x, sizeof x), true);
        tdf(b, true, "%.2f", o->usd_per_gpu_hour_list);
        tdf(b, true, "%.2f", o->usd_per_gpu_hour);
        td(b, o->usd_per_training_run > 0 ? fmt_usd(o->usd_per_training_run, x, sizeof x) : "—", true);
        char band[96];
        td(b, o->usd_per_million_tokens > 0 ? summary_usd_band(o, band, sizeof band) : "—", true);
        td(b, summary_breakeven(o->breakeven_utilization, x, sizeof x), true);
        if (src_of[i] >= 0)
            tdf(b, true, "[%d]", src_of[i] + 1);
        else
            td(b, "—", true);
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n<p class=\"meta\">");
    for (int k = 0; k < COL_COUNT; k++) {
        sb_puts(b, k ? " <em>" : "<em>");
        sb_html(b, col[k].header);
        sb_puts(b, "</em>: ");
        sb_html(b, col[k].basis);
        sb_puts(b, ".");
    }
    sb_puts(b, "</p>\n");
    for (int i = 0; i < c->n_excluded; i++) {
        bool first_why = true;
        for (int j = 0; j < i && first_why; j++)
            first_why = strcmp(c->excluded[j].why, c->excluded[i].why) != 0;
        if (!first_why)
            continue;
        sb_puts(b, i ? "; " : "<p class=\"meta\">Not compared: ");
        for (int j = i, k = 0; j < c->n_excluded; j++)
            if (!strcmp(c->excluded[j].why, c->excluded[i].why)) {
                sb_puts(b, k++ ? ", " : "");
                sb_html(b, c->excluded[j].accelerator);
            }
        sb_puts(b, " (");
        sb_html(b, c->excluded[i].why);
        sb_puts(b, ")");
    }
    if (c->n_excluded)
        sb_puts(b, ".</p>\n");
    sb_puts(b, "<ol class=\"sources\">\n");
    for (int j = 0; j < nsrc; j++) {
        const CostOption *o = &c->options[first[j]];
        sb_puts(b, "<li>");
        sb_html(b, o->source);
        if (o->as_of[0]) {
            sb_puts(b, " (as of ");
            sb_html(b, o->as_of);
            sb_puts(b, ")");
        }
        sb_puts(b, "</li>\n");
    }
    sb_puts(b, "</ol>\n");
}

/* The assumptions that move the answer: value, source and date, and what a
 * stated change does to the TCO (CostResult.levers). */
static void levers_section(StrBuf *b, const CostResult *c)
{
    sb_puts(b, "<table id=\"levers\"><tr><th>Assumption</th><th>Value</th><th>Source</th>"
               "<th>If it moves</th><th class=\"n\">TCO moves</th><th>Of</th></tr>\n");
    for (int i = 0; i < c->n_levers; i++) {
        const CostLever *l = &c->levers[i];
        char d[32], src[PLAN_TEXT_LEN + 32];
        sb_puts(b, "<tr>");
        td(b, l->name, false);
        td(b, l->value, false);
        snprintf(src, sizeof src, "%s%s%s", l->source, l->date[0] ? ", " : "", l->date);
        td(b, src, false);
        td(b, l->change, false);
        tdf(b, true, "%s%s", l->tco_delta_usd >= 0 ? "+" : "-",
            fmt_usd(fabs(l->tco_delta_usd), d, sizeof d));
        td(b, l->applies_to, false);
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n");
}

/* Cumulative cash of the verdict's two options month by month: capex up
 * front, running costs spread, the residual credited at the horizon; the
 * crossover month marked. */
static void cumulative_chart(StrBuf *b, const Plan *p, const CostResult *c)
{
    const int w = 820, h = 260, left = 70, right = 230, top = 30, bottom = 36;
    int months = (int)ceil(p->horizon_years * 12 - 1e-9);
    if (months < 1 || c->onprem < 0 || c->cloud < 0)
        return;
    const CostOption *opt[2] = {&c->options[c->onprem], &c->options[c->cloud]};
    double max = 0;
    for (int k = 0; k < 2; k++)
        max = fmax(max, fmax(opt[k]->capex_usd + opt[k]->opex_usd_per_year * p->horizon_years,
                             opt[k]->tco_usd));
    if (!(max > 0))
        return;
    max *= 1.05;
    double pw = w - left - right, ph = h - top - bottom;
    sb_printf(b, "<div class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" "
                 "id=\"chart-cumulative\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                 "role=\"img\" data-crossover-month=\"%d\"><title>Cumulative cost by month"
                 "</title><text x=\"0\" y=\"16\" font-weight=\"bold\">Cumulative cost by month"
                 "</text>",
              w, h, w, h, c->crossover_month);
    /* axes and ticks: four money ticks, a tick per year */
    sb_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>", left,
              top + (int)ph, left + (int)pw, top + (int)ph);
    for (int t = 0; t <= 4; t++) {
        char u[32];
        double y = top + ph - ph * t / 4.0;
        sb_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                     "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
                  left, y, left + (int)pw, y, left - 6, y + 4);
        sb_html(b, fmt_usd(max * t / 4.0, u, sizeof u));
        sb_puts(b, "</text>");
    }
    for (int m = 0; m <= months; m += 12) {
        double x = left + pw * m / months;
        sb_printf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s%d</text>", x,
                  h - 14, m ? "month " : "", m);
    }
    static const char *const colour[2] = {"#0072B2", "#E69F00"};
    for (int k = 0; k < 2; k++) {
        const CostOption *o = opt[k];
        sb_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" points=\"",
                  colour[k]);
        for (int m = 0; m <= months; m++) {
            double t = m / 12.0 > p->horizon_years ? p->horizon_years : m / 12.0;
            double v = o->capex_usd + o->opex_usd_per_year * t -
                       (m == months ? o->residual_usd : 0);
            sb_printf(b, "%.1f,%.1f ", left + pw * m / months, top + ph - ph * (v > 0 ? v : 0) / max);
        }
        sb_printf(b, "\"/><rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                     "<text x=\"%d\" y=\"%d\">",
                  left + (int)pw + 12, top + 10 + 22 * k, colour[k], left + (int)pw + 30,
                  top + 21 + 22 * k);
        label(b, o->name);
        sb_puts(b, "</text>");
    }
    if (c->crossover_month > 0) {
        double x = left + pw * c->crossover_month / months;
        sb_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#b00020\" "
                     "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\" "
                     "fill=\"#b00020\">crossover: month %d</text>",
                  x, top, x, top + (int)ph, x + (x > left + pw / 2 ? -4 : 4), top + 12,
                  x > left + pw / 2 ? "end" : "start", c->crossover_month);
    }
    sb_puts(b, "</svg></div>\n");
}

static void cash_section(StrBuf *b, const Plan *p, const CostResult *c)
{
    for (int k = 0; k < 2; k++) {
        const CashFlow *f = &c->cash[k];
        if (f->option < 0)
            continue;
        sb_puts(b, "<table class=\"cash\"><tr><th>");
        sb_html(b, c->options[f->option].name);
        sb_puts(b, "</th><th class=\"n\">Capex</th><th class=\"n\">Opex</th><th class=\"n\">"
                   "Energy</th><th class=\"n\">Rent</th><th class=\"n\">Residual</th>"
                   "<th class=\"n\">Cumulative</th></tr>\n");
        double cum = 0;
        for (int y = 0; y < f->years; y++) {
            char v[32];
            cum += f->capex[y] + f->opex[y] + f->energy[y] + f->rent[y] + f->residual[y];
            sb_printf(b, "<tr><td>year %d</td>", y + 1);
            td(b, fmt_usd(f->capex[y], v, sizeof v), true);
            td(b, fmt_usd(f->opex[y], v, sizeof v), true);
            td(b, fmt_usd(f->energy[y], v, sizeof v), true);
            td(b, fmt_usd(f->rent[y], v, sizeof v), true);
            td(b, fmt_usd(f->residual[y], v, sizeof v), true);
            td(b, fmt_usd(cum, v, sizeof v), true);
            sb_puts(b, "</tr>\n");
        }
        sb_puts(b, "</table>\n");
    }
    cumulative_chart(b, p, c);
}

static void showback_section(StrBuf *b, const CostResult *c)
{
    sb_puts(b, "<table id=\"showback\"><tr><th>Team</th><th class=\"n\">GPU-hours / month</th>"
               "<th class=\"n\">of which borrowed</th><th class=\"n\">Cost / month</th></tr>\n");
    for (int i = 0; i < c->n_showback; i++) {
        const Showback *x = &c->showback[i];
        char u[32];
        sb_puts(b, "<tr>");
        td(b, x->team, false);
        tdf(b, true, "%.0f", x->gpu_hours_per_month);
        tdf(b, true, "%.0f", x->borrowed_gpu_hours_per_month);
        td(b, fmt_usd(x->usd_per_month, u, sizeof u), true);
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n");
}

static void training_section(StrBuf *b, const PlanResult *r)
{
    int n = 0;
    for (int i = 0; i < r->n_workloads; i++)
        n += r->workloads[i].kind == WL_TRAINING && r->workloads[i].ok;
    if (!n)
        return;
    BarRow *mem = calloc((size_t)n, sizeof *mem), *step = calloc((size_t)n, sizeof *step);
    if (!mem || !step) {
        free(mem);
        free(step);
        return;
    }
    double hbm = 0;
    int k = 0;
    sb_puts(b, "<h3>Training</h3>\n<table><tr><th>Workload</th><th>Accelerator</th><th class=\"n\">"
               "GPUs</th><th>Layout</th><th>Runner-up</th><th class=\"n\">Step</th><th class=\"n\">"
               "MFU</th><th class=\"n\">Days</th><th class=\"n\">GPU-hours</th><th class=\"n\">"
               "Goodput</th></tr>\n");
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *w = &r->workloads[i];
        if (w->kind != WL_TRAINING || !w->ok)
            continue;
        const TrainResult *t = &w->train;
        const Layout *l = &t->layout;
        char g[32];
        sb_puts(b, "<tr>");
        td(b, w->name, false);
        td(b, w->accelerator, false);
        td(b, fmt_int(t->gpus, g, sizeof g), true);
        tdf(b, false, "tp%d pp%d dp%d cp%d ep%d vpp%d mb%d %s%s%s", l->tp, l->pp, l->dp, l->cp,
            l->ep, l->vpp, l->micro_batch, plan_recompute_name(l->recompute),
            t->framework[0] ? ", " : "", t->framework);
        if (t->has_runner_up)
            tdf(b, false, "tp%d pp%d dp%d mb%d: %.3g s", t->runner_up.tp, t->runner_up.pp,
                t->runner_up.dp, t->runner_up.micro_batch, t->runner_up_step_s);
        else
            td(b, "—", false);
        tdf(b, true, "%.3g s", t->step_s);
        tdf(b, true, "%.1f %%", t->mfu * 100);
        if (t->train_days_high > t->train_days_low) /* model error band */
            tdf(b, true, "%.1f (%.1f–%.1f)", t->train_days, t->train_days_low, t->train_days_high);
        else
            tdf(b, true, "%.1f", t->train_days);
        td(b, fmt_si(t->gpu_hours, "", g, sizeof g), true);
        tdf(b, true, "%.1f %%", t->goodput * 100);
        sb_puts(b, "</tr>\n");
        snprintf(mem[k].label, sizeof mem[k].label, "%.40s", w->name);
        mem[k].seg[0] = t->mem.weights / GIB;
        mem[k].seg[1] = t->mem.gradients / GIB;
        mem[k].seg[2] = t->mem.optimizer / GIB;
        mem[k].seg[3] = t->mem.activations / GIB;
        mem[k].seg[4] = t->mem.other / GIB;
        snprintf(mem[k].note, sizeof mem[k].note, "of %.0f GiB%s", t->hbm_bytes / GIB,
                 t->fits ? "" : " — does not fit");
        hbm = fmax(hbm, t->hbm_bytes / GIB);
        snprintf(step[k].label, sizeof step[k].label, "%.40s", w->name);
        step[k].seg[0] = t->step.compute;
        step[k].seg[1] = t->step.tp_comm;
        step[k].seg[2] = t->step.pp_bubble;
        step[k].seg[3] = t->step.dp_comm;
        step[k].seg[4] = t->step.cp_comm;
        step[k].seg[5] = t->step.ep_comm;
        step[k].seg[6] = t->step.other;
        k++;
    }
    sb_puts(b, "</table>\n");
    static const char *const mseg[] = {"weights", "gradients", "optimizer", "activations", "other"};
    static const char *const sseg[] = {"compute", "TP", "PP bubble", "DP", "CP", "EP", "other"};
    BarChart mc = {.title = "Memory per GPU", .segs = mseg, .nseg = 5, .ref = hbm,
                   .ref_label = "HBM", .id = "chart-memory"};
    bar_chart(b, &mc, mem, k, f_gib);
    BarChart sc = {.title = "Step time breakdown", .segs = sseg, .nseg = 7, .id = "chart-step"};
    bar_chart(b, &sc, step, k, f_sec);
    free(mem);
    free(step);
}

static void inference_section(StrBuf *b, const PlanResult *r)
{
    bool any = false;
    for (int i = 0; i < r->n_workloads; i++)
        any |= r->workloads[i].kind == WL_INFERENCE;
    if (!any)
        return;
    sb_puts(b, "<h3>Inference</h3>\n<table><tr><th>Service</th><th>Accelerator</th><th class=\"n\">"
               "GPUs</th><th>TP × replicas</th><th class=\"n\">Batch</th><th class=\"n\">TTFT</th>"
               "<th class=\"n\">TPOT</th><th class=\"n\">Output tok/s</th><th class=\"n\">"
               "GPU-h / M tok</th><th>SLO</th></tr>\n");
    for (int i = 0; i < r->n_workloads; i++) {
        const WorkloadResult *w = &r->workloads[i];
        if (w->kind != WL_INFERENCE)
            continue;
        const InferResult *x = &w->infer;
        char g[32];
        sb_puts(b, "<tr>");
        td(b, w->name, false);
        td(b, w->accelerator, false);
        if (!w->ok) {
            sb_puts(b, "<td colspan=\"8\" class=\"risk\">");
            sb_html(b, w->error);
            sb_puts(b, "</td></tr>\n");
            continue;
        }
        td(b, fmt_int(x->gpus, g, sizeof g), true);
        tdf(b, false, "%d × %d", x->tp, x->replicas);
        tdf(b, true, "%d", x->batch_per_replica);
        tdf(b, true, "%.0f ms", x->ttft_s * 1e3);
        tdf(b, true, "%.1f ms", x->tpot_s * 1e3);
        td(b, fmt_si(x->output_tokens_per_s, "", g, sizeof g), true);
        tdf(b, true, "%.2f", x->gpu_hours_per_mtok);
        sb_printf(b, "<td class=\"%s\">%s</td></tr>\n", x->meets_slo ? "better" : "worse",
                  x->meets_slo ? "met" : "missed");
    }
    sb_puts(b, "</table>\n");
}

/* Racks side by side, nodes as rows, NVLink domains shaded alternately. */
static void rack_diagram(StrBuf *b, const Plan *p, const PlanResult *r)
{
    const ClusterResult *k = &r->cluster;
    if (k->racks <= 0 || k->nodes_per_rack <= 0)
        return;
    const int max_racks = 16, rack_w = 52, node_h = 9, gap = 10, top = 64;
    int shown = k->racks < max_racks ? k->racks : max_racks;
    int npr = k->nodes_per_rack > 24 ? 24 : k->nodes_per_rack;
    int w = shown * (rack_w + gap) + 140, h = top + npr * (node_h + 2) + 40;
    int nodes_per_domain = k->gpus_per_node > 0 && k->gpus_per_domain > k->gpus_per_node
                               ? k->gpus_per_domain / k->gpus_per_node
                               : 1;
    sb_printf(b, "<div class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" id=\"chart-racks\" "
                 "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" data-rows=\"%d\">"
                 "<title>Racks and fabric</title>",
              w, h, w, h, shown);
    sb_printf(b, "<text x=\"0\" y=\"16\" font-weight=\"bold\">Racks and fabric</text>"
                 "<text x=\"0\" y=\"34\">%d leaf · %d spine · %d core switches, %s %s, %.4g:1 at "
                 "the leaf</text>",
              k->leaf_switches, k->spine_switches, k->core_switches,
              plan_fabric_name(p->network.fabric), plan_topology_name(p->network.topology),
              p->network.oversubscription);
    int node_index = 0;
    for (int i = 0; i < shown; i++) {
        int x = i * (rack_w + gap);
        int rack_nodes = k->nodes - i * k->nodes_per_rack;
        if (rack_nodes > k->nodes_per_rack)
            rack_nodes = k->nodes_per_rack;
        sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                     "stroke=\"#333\"/>",
                  x, top - 4, rack_w, npr * (node_h + 2) + 6);
        for (int n = 0; n < rack_nodes && n < npr; n++, node_index++) {
            int dom = (i * k->nodes_per_rack + n) / nodes_per_domain;
            sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", x + 3,
                      top + n * (node_h + 2), rack_w - 6, node_h,
                      dom % 2 ? "#56B4E9" : "#0072B2");
        }
        sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">R%d</text>", x + rack_w / 2,
                  top + npr * (node_h + 2) + 20, i + 1);
    }
    if (k->racks > shown)
        sb_printf(b, "<text x=\"%d\" y=\"%d\">… %d more racks</text>", shown * (rack_w + gap),
                  top + 20, k->racks - shown);
    sb_puts(b, "</svg></div>\n");
}

static void cluster_section(StrBuf *b, const Plan *p, const PlanResult *r)
{
    const ClusterResult *k = &r->cluster;
    char a[32], c[32], split[160];
    sb_puts(b, "<h3>Cluster</h3>\n<table>");
    sb_puts(b, "<tr><th>GPUs</th>");
    tdf(b, false, "%s %s (%s)", fmt_int(k->gpus, a, sizeof a), k->accelerator,
        summary_gpu_split(k, split, sizeof split));
    sb_puts(b, "</tr><tr><th>Nodes</th>");
    tdf(b, false, "%s of %d GPUs; %s NVLink domains of %d GPUs", fmt_int(k->nodes, a, sizeof a),
        k->gpus_per_node, fmt_int(k->nvlink_domains, c, sizeof c), k->gpus_per_domain);
    sb_puts(b, "</tr><tr><th>Racks</th>");
    tdf(b, false, "%s compute racks of %d nodes", fmt_int(k->racks, c, sizeof c),
        k->nodes_per_rack);
    char n1[32], n2[32], n3[32], n4[32], n5[32], n6[32];
    sb_puts(b, "</tr><tr><th>Fabric</th>");
    tdf(b, false, "%s leaf, %s spine, %s core switches; %s links (node–leaf %s, leaf–spine %s, "
                  "spine–core %s); %d scalable units",
        fmt_int(k->leaf_switches, n1, sizeof n1), fmt_int(k->spine_switches, n2, sizeof n2),
        fmt_int(k->core_switches, n3, sizeof n3), fmt_int(k->links, a, sizeof a),
        fmt_int(k->links_node_leaf, n4, sizeof n4), fmt_int(k->links_leaf_spine, n5, sizeof n5),
        fmt_int(k->links_spine_core, n6, sizeof n6), k->scalable_units);
    sb_puts(b, "</tr><tr><th>Storage</th>");
    tdf(b, false, "%s: read %s, write %s, %s in %s building blocks",
        plan_storage_name(p->storage.system), fmt_si(k->storage_read_Bps, "B/s", n2, sizeof n2),
        fmt_si(k->storage_write_Bps, "B/s", n3, sizeof n3),
        fmt_si(k->storage_capacity_bytes, "B", c, sizeof c),
        fmt_int(k->storage_units, n1, sizeof n1));
    sb_puts(b, "</tr></table>\n");
    rack_diagram(b, p, r);
}

static void power_section(StrBuf *b, const Plan *p, const PlanResult *r)
{
    char line[512];
    summary_power(p, r, line, sizeof line);
    para(b, "", line);
    int n = r->have_layout ? r->cluster.n_rack_groups : 0;
    BarRow rows[PLAN_MAX_RACK_GROUPS + 1];
    memset(rows, 0, sizeof rows);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const RackGroup *g = &r->cluster.rack_groups[i];
        snprintf(rows[k].label, sizeof rows[k].label, "%.24s × %d (%d nodes)", g->role, g->count,
                 g->nodes);
        rows[k].seg[0] = g->kw;
        if (g->kw > r->power.rack_limit_kw)
            snprintf(rows[k].note, sizeof rows[k].note, "over the limit");
        k++;
    }
    if (k == 0) {
        snprintf(rows[0].label, sizeof rows[0].label, "hottest rack");
        rows[0].seg[0] = r->power.rack_kw;
        k = 1;
    }
    static const char *const segs[] = {"kW per rack"};
    BarChart ch = {.title = "Power per rack against the limit", .segs = segs, .nseg = 1,
                   .ref = r->power.rack_limit_kw, .ref_label = "rack limit", .id = "chart-power"};
    bar_chart(b, &ch, rows, k, f_kw);
}

static void schedule_section(StrBuf *b, const Plan *p, const PlanResult *r)
{
    const ScheduleResult *s = &r->schedule;
    if (!s->ran) {
        para(b, "", "The plan has no shared tenancy (no teams, no trace).");
        return;
    }
    char line[512];
    const char *basis = summary_pool_basis(s);
    snprintf(line, sizeof line,
             "%s on %d GPUs%s%s%s: utilisation %.1f %%, %d of %d jobs completed, %d "
             "preemptions, %d failures, goodput %.1f %%. Target: p95 wait ≤ %.1f h — %s.",
             plan_policy_name(s->policy), s->gpus, basis ? " (" : "", basis ? basis : "",
             basis ? ")" : "",
             s->utilization * 100, s->jobs_completed, s->jobs_submitted, s->preemptions,
             s->failures, s->goodput * 100, p->tenancy.wait_p95_s / 3600,
             s->meets_target ? "met" : "not met");
    para(b, "", line);
    BarRow *rows = calloc((size_t)(s->n_teams ? s->n_teams : 1), sizeof *rows);
    if (!rows)
        return;
    for (int i = 0; i < s->n_teams; i++) {
        snprintf(rows[i].label, sizeof rows[i].label, "%.40s", s->teams[i].name);
        rows[i].seg[0] = s->teams[i].wait_hours_p50;
        rows[i].seg[1] = fmax(0, s->teams[i].wait_hours_p95 - s->teams[i].wait_hours_p50);
    }
    static const char *const segs[] = {"wait p50", "p50 → p95"};
    BarChart ch = {.title = "Queue wait per team (p50 and p95)", .segs = segs, .nseg = 2,
                   .ref = p->tenancy.wait_p95_s / 3600, .ref_label = "p95 target",
                   .id = "chart-wait"};
    bar_chart(b, &ch, rows, s->n_teams, f_hours);
    free(rows);
    sb_puts(b, "<table><tr><th>Team</th><th class=\"n\">Jobs</th><th class=\"n\">Wait p50</th>"
               "<th class=\"n\">Wait p95</th><th class=\"n\">Wait max</th><th class=\"n\">GPU-hours"
               "</th><th class=\"n\">Borrowed GPU-h</th><th class=\"n\">Preemptions</th>"
               "<th class=\"n\">Lost GPU-h</th></tr>\n");
    for (int i = 0; i < s->n_teams; i++) {
        const TeamSchedResult *t = &s->teams[i];
        sb_puts(b, "<tr>");
        td(b, t->name, false);
        tdf(b, true, "%d", t->jobs);
        tdf(b, true, "%.2f h", t->wait_hours_p50);
        tdf(b, true, "%.2f h", t->wait_hours_p95);
        tdf(b, true, "%.2f h", t->wait_hours_max);
        tdf(b, true, "%.0f", t->gpu_hours);
        tdf(b, true, "%.0f", t->borrowed_gpu_hours);
        tdf(b, true, "%d", t->preemptions);
        tdf(b, true, "%.0f", t->lost_gpu_hours);
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n");
}

/* Every assumption, grouped by what it is about, in the model's order. */
static void html_group(void *b, const char *scope)
{
    sb_puts(b, "<h4>");
    sb_html(b, scope);
    sb_puts(b, "</h4>\n<ul class=\"sources\">\n");
}

static void html_item(void *b, const char *text)
{
    sb_puts(b, "<li>");
    sb_html(b, text);
    sb_puts(b, "</li>\n");
}

static void html_end(void *b)
{
    sb_puts(b, "</ul>\n");
}

static void assumptions_section(StrBuf *b, const PlanResult *r)
{
    sb_puts(b, "<h3 id=\"assumptions\">Assumptions and sources</h3>\n");
    summary_assumption_groups(r, b, html_group, html_item, html_end);
}

/* The tornado as SVG: per assumption (largest swing first) a bar from the
 * plan's TCO to the TCO at the low end (blue) and to the TCO at the high end
 * (orange), on one money axis; a bar whose end flips the verdict says where. */
static void tornado_chart(StrBuf *b, const SensResult *s)
{
    const int left = 150, right = 270, top = 46, row = 24, bottom = 34, w = 880;
    int h = top + row * s->n_bars + bottom;
    double lo = s->base.tco, hi = s->base.tco;
    for (int i = 0; i < s->n_bars; i++) {
        lo = fmin(lo, fmin(s->bars[i].at_low.tco, s->bars[i].at_high.tco));
        hi = fmax(hi, fmax(s->bars[i].at_low.tco, s->bars[i].at_high.tco));
    }
    double span = hi - lo;
    if (!(span > 0))
        span = fabs(s->base.tco) > 0 ? fabs(s->base.tco) * 0.1 : 1;
    lo -= span * 0.04;
    hi = lo + span * 1.08;
    double pw = w - left - right;
#define TX(v) (left + pw * ((v) - lo) / (hi - lo))
    char u[32];
    sb_printf(b, "<div class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" "
                 "id=\"chart-tornado\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                 "role=\"img\" data-bars=\"%d\"><title>TCO over each assumption's range"
                 "</title><text x=\"0\" y=\"16\" font-weight=\"bold\">TCO over each "
                 "assumption's range</text>",
              w, h, w, h, s->n_bars);
    static const char *const colour[2] = {"#0072B2", "#E69F00"};
    static const char *const end_name[2] = {"low end", "high end"};
    for (int k = 0; k < 2; k++)
        sb_printf(b, "<rect x=\"%d\" y=\"24\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                     "<text x=\"%d\" y=\"34\">at the range's %s</text>",
                  left + 190 * k, colour[k], left + 190 * k + 18, end_name[k]);
    /* money ticks */
    for (int t = 0; t <= 4; t++) {
        double v = lo + (hi - lo) * t / 4.0;
        double x = TX(v);
        sb_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                     "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
                  x, top - 4, x, h - bottom, x, h - bottom + 16);
        sb_html(b, fmt_usd(v, u, sizeof u));
        sb_puts(b, "</text>");
    }
    for (int i = 0; i < s->n_bars; i++) {
        const SensBar *bar = &s->bars[i];
        int y = top + row * i;
        sb_printf(b, "<g class=\"bar\" data-assumption=\"%s\" data-tco-low=\"%.0f\" "
                     "data-tco-high=\"%.0f\" data-flips=\"%s\">",
                  range_knob_name(bar->knob), bar->at_low.tco, bar->at_high.tco,
                  bar->flips ? "true" : "false");
        sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 8, y + 16);
        sb_html(b, sens_knob_label(bar->knob));
        sb_puts(b, "</text>");
        const double ends[2] = {bar->at_low.tco, bar->at_high.tco};
        for (int k = 0; k < 2; k++) {
            double a = TX(fmin(ends[k], s->base.tco)), z = TX(fmax(ends[k], s->base.tco));
            sb_printf(b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                         "fill=\"%s\"><title>",
                      a, y + 4 + 8 * k, fmax(z - a, 0.5), 8, colour[k]);
            char v[48];
            sens_format_value(bar->knob, k ? bar->high : bar->low, v, sizeof v);
            sb_html(b, sens_knob_label(bar->knob));
            sb_puts(b, " at ");
            sb_html(b, v);
            sb_puts(b, ": TCO ");
            sb_html(b, fmt_usd(ends[k], u, sizeof u));
            sb_puts(b, "</title></rect>");
        }
        if (bar->flips) {
            char flip[96];
            sens_format_flip(s, bar, flip, sizeof flip);
            sb_printf(b, "<text x=\"%d\" y=\"%d\" fill=\"#b00020\">flips: ",
                      left + (int)pw + 8, y + 16);
            sb_html(b, flip);
            sb_puts(b, "</text>");
        }
        sb_puts(b, "</g>");
    }
    double bx = TX(s->base.tco);
    sb_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1a1a1a\" "
                 "stroke-width=\"1.5\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
                 "plan: ",
              bx, top - 2, bx, h - bottom, bx, h - 4);
    sb_html(b, fmt_usd(s->base.tco, u, sizeof u));
    sb_puts(b, "</text></svg></div>\n");
#undef TX
}

static void ranges_section(StrBuf *b, const Plan *p, const SensResult *s, const McResult *m)
{
    char line[SENS_SENTENCE_LEN + 64];
    sb_puts(b, "<h2 id=\"what-moves\">What moves the answer</h2>\n");
    if (s) {
        snprintf(line, sizeof line, "Verdict: %s. %c%s.", verdict_name(s->base.verdict),
                 toupper((unsigned char)s->sentence[0]), s->sentence[0] ? s->sentence + 1 : "");
        para(b, "rec", line);
    }
    if (m && m->samples > 0) {
        summary_mc_sentence(p, m, line, sizeof line);
        para(b, "note", line);
        sb_puts(b, "<table id=\"monte-carlo\"><tr><th></th><th class=\"n\">P10</th>"
                   "<th class=\"n\">P50</th><th class=\"n\">P90</th>"
                   "<th class=\"n\">Point estimate</th></tr>\n");
        SummaryMcRow rows[4];
        int n = summary_mc_rows(s, m, rows);
        for (int i = 0; i < n; i++) {
            sb_puts(b, "<tr>");
            td(b, rows[i].label, false);
            td(b, rows[i].p10, true);
            td(b, rows[i].p50, true);
            td(b, rows[i].p90, true);
            td(b, rows[i].point, true);
            sb_puts(b, "</tr>\n");
        }
        sb_puts(b, "</table>\n");
    }
    if (!s || s->n_bars == 0) {
        if (s)
            para(b, "note", "No assumption with a range applies to this plan.");
        return;
    }
    tornado_chart(b, s);
    sb_puts(b, "<table id=\"tornado\"><tr><th>Assumption</th><th>Range</th>"
               "<th>Plan's value</th><th>Range from</th><th class=\"n\">TCO at low</th>"
               "<th class=\"n\">TCO at high</th><th>Verdict at low / high</th>"
               "<th>Flips at</th></tr>\n");
    for (int i = 0; i < s->n_bars; i++) {
        SummaryTornadoRow row;
        summary_tornado_row(s, i, &row);
        sb_puts(b, "<tr>");
        td(b, row.label, false);
        td(b, row.range, false);
        td(b, row.nominal, false);
        td(b, row.from, false);
        td(b, row.tco_low, true);
        td(b, row.tco_high, true);
        tdf(b, false, "%s / %s", row.verdict_low, row.verdict_high);
        td(b, row.flip, false);
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n");
    snprintf(line, sizeof line,
             "Ranges from the plan's ranges:, else the catalog's stated uncertainty "
             "(data/catalog/uncertainty.yaml, each with its source); %d full evaluations.",
             s->evaluations);
    para(b, "sources", line);
}

char *export_html(const Plan *p, const PlanResult *r, const Catalog *c, int version,
                  const SensResult *sens, const McResult *mc)
{
    (void)c;
    StrBuf b;
    sb_init(&b);
    char title[160], line[1024], yb[32];
    snprintf(title, sizeof title, "%s — GPU cluster plan", p->name);
    head(&b, title);
    sb_puts(&b, "<h1>");
    sb_html(&b, title);
    sb_puts(&b, "</h1>\n");
    if (p->description[0])
        para(&b, "meta", p->description);
    char v[32] = "";
    if (version > 0)
        snprintf(v, sizeof v, "plan version %d · ", version);
    char asof[96] = "", dates[48] = "";
    if (r->have_cost && summary_price_dates(&r->cost, dates, sizeof dates)[0])
        snprintf(asof, sizeof asof, " · prices as of %s", dates);
    snprintf(line, sizeof line, "%sgenerated by gpuplan %s · horizon %s%s", v,
             PACKAGE_VERSION, summary_years(p->horizon_years, yb, sizeof yb), asof);
    para(&b, "meta", line);
    sb_puts(&b, "<h2>The ask</h2>\n");
    summary_ask(p, r, line, sizeof line);
    para(&b, "ask", line);
    sb_puts(&b, "<h2>Recommendation</h2>\n");
    summary_recommendation(p, r, line, sizeof line);
    para(&b, "rec", line);
    if (r->have_cost && r->cost.n_options) {
        snprintf(line, sizeof line, "Cost over %s against the alternatives",
                 summary_years(p->horizon_years, yb, sizeof yb));
        sb_puts(&b, "<h2>");
        sb_html(&b, line);
        sb_puts(&b, "</h2>\n");
        cost_section(&b, p, r, 10, "chart-cost");
        if (r->cost.n_levers) {
            sb_puts(&b, "<h2>Assumptions that move the answer</h2>\n");
            levers_section(&b, &r->cost);
        }
        if (r->cost.cash[0].option >= 0 || r->cost.cash[1].option >= 0) {
            sb_puts(&b, "<h3>Cash flow by year</h3>\n");
            cash_section(&b, p, &r->cost);
        }
    }
    if (sens || mc)
        ranges_section(&b, p, sens, mc);
    if (r->have_power) {
        sb_puts(&b, "<h2>Power</h2>\n");
        power_section(&b, p, r);
    }
    sb_puts(&b, "<h2>Risks and assumptions</h2>\n<ul>\n");
    if (r->n_warnings == 0)
        sb_puts(&b, "<li>No warnings: every workload fits and meets its targets.</li>\n");
    for (int i = 0; i < r->n_warnings; i++) {
        sb_puts(&b, "<li class=\"risk\"><strong>Risk:</strong> ");
        sb_html(&b, r->warnings[i]);
        sb_puts(&b, "</li>\n");
    }
    if (r->n_assumptions)
        sb_printf(&b, "<li>The numbers rest on %d stated assumptions, listed with their sources "
                      "under <a href=\"#assumptions\">Assumptions and sources</a>.</li>\n",
                  r->n_assumptions);
    sb_puts(&b, "</ul>\n<h2>Detail</h2>\n");
    training_section(&b, r);
    inference_section(&b, r);
    if (r->have_layout)
        cluster_section(&b, p, r);
    if (r->have_schedule) {
        sb_puts(&b, "<h3>Schedule</h3>\n");
        schedule_section(&b, p, r);
    }
    if (r->have_cost && r->cost.n_showback) {
        sb_puts(&b, "<h3>Showback: cost per team per month</h3>\n");
        showback_section(&b, &r->cost);
    }
    if (r->have_cost && r->cost.n_options > 10) {
        sb_puts(&b, "<h3>All cost options</h3>\n");
        cost_section(&b, p, r, PLAN_MAX_COST_OPTIONS, "chart-cost-all");
    }
    if (r->n_assumptions)
        assumptions_section(&b, r);
    sb_puts(&b, "</body>\n</html>\n");
    return sb_finish(&b);
}

char *export_compare_html(const Plan *a, const PlanResult *ra, const Plan *b,
                          const PlanResult *rb)
{
    int n;
    HeadlineDelta *d = headline_compare_plans(a, ra, b, rb, &n);
    if (!d)
        return NULL;
    StrBuf s;
    sb_init(&s);
    char title[200];
    snprintf(title, sizeof title, "%s vs %s", a->name, b->name);
    head(&s, title);
    sb_puts(&s, "<h1>");
    sb_html(&s, title);
    sb_puts(&s, "</h1>\n<table><tr><th>Section</th><th>Subject</th><th>Metric</th><th class=\"n\">");
    sb_html(&s, a->name);
    sb_puts(&s, "</th><th class=\"n\">");
    sb_html(&s, b->name);
    sb_puts(&s, "</th><th class=\"n\">Delta</th></tr>\n");
    for (int i = 0; i < n; i++) {
        const HeadlineDelta *x = &d[i];
        char va[40], vb[40];
        sb_puts(&s, "<tr>");
        td(&s, x->h.section, false);
        td(&s, x->h.subject, false);
        td(&s, x->h.label, false);
        td(&s, x->in_a ? summary_value(&x->h, x->a, va, sizeof va) : "—", true);
        td(&s, x->in_b ? summary_value(&x->h, x->b, vb, sizeof vb) : "—", true);
        if (x->in_a && x->in_b)
            sb_printf(&s, "<td class=\"n %s\">%+.1f %%</td>",
                      x->verdict > 0 ? "better" : x->verdict < 0 ? "worse" : "", x->pct);
        else
            sb_puts(&s, "<td></td>");
        sb_puts(&s, "</tr>\n");
    }
    sb_puts(&s, "</table>\n</body>\n</html>\n");
    free(d);
    return sb_finish(&s);
}
