/* tui/theme.c — themes/NAME.yaml → colour pairs (see theme.h). */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ncursesw/curses.h>
#include <yaml.h>

#include "safeio.h"
#include "theme.h"
#include "ydepth.h"

static const char *const role_names[ROLE_COUNT] = {
    "normal", "header", "header_accent", "footer", "footer_key", "status", "error",
    "border", "title", "tab", "tab_active", "selection", "selection_dim", "label",
    "value", "unit", "invalid", "edit", "muted", "good", "bad", "warning", "critical",
    "modified", "series1", "series2", "series3", "series4", "series5", "series6",
    "domain_a", "domain_b",
};

const char *theme_role_name(Role r)
{
    return (r >= 0 && r < ROLE_COUNT) ? role_names[r] : NULL;
}

static const char *const colour_names[16] = {
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
    "brightblack", "brightred", "brightgreen", "brightyellow", "brightblue",
    "brightmagenta", "brightcyan", "brightwhite",
};

/* xterm 256-colour cube levels (xterm's 256colres.pl). */
static const int cube_level[6] = {0, 95, 135, 175, 215, 255};

static int nearest_cube(int v)
{
    int best = 0;
    for (int i = 1; i < 6; i++)
        if (abs(cube_level[i] - v) < abs(cube_level[best] - v))
            best = i;
    return best;
}

static int parse_colour(const char *s, short *out)
{
    if (strcasecmp(s, "default") == 0 || strcasecmp(s, "terminal") == 0) {
        *out = -1;
        return 0;
    }
    for (int i = 0; i < 16; i++)
        if (strcasecmp(s, colour_names[i]) == 0) {
            *out = (short)i;
            return 0;
        }
    if (strncasecmp(s, "colour", 6) == 0 || strncasecmp(s, "color", 5) == 0) {
        const char *p = s + (tolower((unsigned char)s[4]) == 'u' ? 6 : 5);
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || *end || v < 0 || v > 255)
            return -1;
        *out = (short)v;
        return 0;
    }
    if (s[0] == '#' && strlen(s) == 7) {
        unsigned r, g, b;
        if (sscanf(s + 1, "%2x%2x%2x", &r, &g, &b) != 3)
            return -1;
        *out = (short)(16 + 36 * nearest_cube((int)r) + 6 * nearest_cube((int)g) +
                       nearest_cube((int)b));
        return 0;
    }
    return -1;
}

int theme_parse_style(const char *s, Style *st, char *cause, size_t causelen)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s ? s : "");
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*tok))
            tok++;
        char *e = tok + strlen(tok);
        while (e > tok && isspace((unsigned char)e[-1]))
            *--e = '\0';
        if (!*tok)
            continue;
        if (strncasecmp(tok, "fg=", 3) == 0 || strncasecmp(tok, "bg=", 3) == 0) {
            short c;
            if (parse_colour(tok + 3, &c) != 0) {
                if (cause)
                    snprintf(cause, causelen, "unknown colour '%s' (expected a name, colourN or #rrggbb)",
                             tok + 3);
                return -1;
            }
            if (tolower((unsigned char)tok[0]) == 'f')
                st->fg = c;
            else
                st->bg = c;
        } else if (strcasecmp(tok, "default") == 0 || strcasecmp(tok, "none") == 0) {
            st->attrs = 0;
        } else {
            static const struct { const char *n; unsigned a; } attrs[] = {
                {"bold", THEME_ATTR_BOLD},          {"bright", THEME_ATTR_BOLD},
                {"dim", THEME_ATTR_DIM},            {"underline", THEME_ATTR_UNDERLINE},
                {"underscore", THEME_ATTR_UNDERLINE}, {"reverse", THEME_ATTR_REVERSE},
                {"italics", THEME_ATTR_ITALICS},    {"blink", THEME_ATTR_BLINK},
            };
            bool neg = strncasecmp(tok, "no", 2) == 0 && tok[2];
            const char *name = neg ? tok + 2 : tok;
            size_t i;
            for (i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
                if (strcasecmp(name, attrs[i].n) == 0)
                    break;
            if (i == sizeof attrs / sizeof attrs[0]) {
                if (cause)
                    snprintf(cause, causelen, "unknown style '%s' (expected fg=, bg=, bold, dim, underline, reverse, italics)", tok);
                return -1;
            }
            if (neg)
                st->attrs &= ~attrs[i].a;
            else
                st->attrs |= attrs[i].a;
        }
    }
    return 0;
}

void theme_builtin(Theme *t)
{
    static const char *const def[ROLE_COUNT] = {
        [ROLE_NORMAL] = "default",
        [ROLE_HEADER] = "fg=black,bg=cyan",
        [ROLE_HEADER_ACCENT] = "fg=black,bg=cyan,bold",
        [ROLE_FOOTER] = "fg=white,bg=blue",
        [ROLE_FOOTER_KEY] = "fg=yellow,bg=blue,bold",
        [ROLE_STATUS] = "default",
        [ROLE_ERROR] = "fg=red,bold",
        [ROLE_BORDER] = "fg=blue",
        [ROLE_TITLE] = "fg=cyan,bold",
        [ROLE_TAB] = "default",
        [ROLE_TAB_ACTIVE] = "fg=black,bg=cyan,bold",
        [ROLE_SELECTION] = "fg=black,bg=cyan",
        [ROLE_SELECTION_DIM] = "reverse",
        [ROLE_LABEL] = "default",
        [ROLE_VALUE] = "bold",
        [ROLE_UNIT] = "fg=cyan",
        [ROLE_INVALID] = "fg=white,bg=red,bold",
        [ROLE_EDIT] = "fg=black,bg=yellow",
        [ROLE_MUTED] = "fg=brightblack",
        [ROLE_GOOD] = "fg=green,bold",
        [ROLE_BAD] = "fg=red,bold",
        [ROLE_WARNING] = "fg=yellow,bold",
        [ROLE_CRITICAL] = "fg=red,bold",
        [ROLE_MODIFIED] = "fg=red,bg=cyan,bold",
        [ROLE_SERIES1] = "fg=blue",
        [ROLE_SERIES2] = "fg=magenta",
        [ROLE_SERIES3] = "fg=yellow",
        [ROLE_SERIES4] = "fg=green",
        [ROLE_SERIES5] = "fg=cyan",
        [ROLE_SERIES6] = "fg=red",
        [ROLE_DOMAIN_A] = "fg=green",
        [ROLE_DOMAIN_B] = "fg=cyan",
    };
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "default");
    for (int i = 0; i < ROLE_COUNT; i++) {
        t->roles[i].fg = -1;
        t->roles[i].bg = -1;
        t->roles[i].attrs = 0;
        theme_parse_style(def[i], &t->roles[i], NULL, 0);
    }
}

static int set_cause(char *cause, size_t len, const char *path, const yaml_mark_t *m,
                     const char *msg)
{
    if (cause)
        snprintf(cause, len, "%s:%zu:%zu: %s", path, m ? m->line + 1 : 0,
                 m ? m->column + 1 : 0, msg);
    return -1;
}

/* Expects: a mapping with "name", optional "description", and "roles" (a
 * mapping of role name → style string).  Unknown keys and roles are errors. */
static int load_doc(yaml_document_t *doc, const char *path, Theme *t, char *cause,
                    size_t causelen)
{
    yaml_node_t *root = yaml_document_get_root_node(doc);
    if (!root || root->type != YAML_MAPPING_NODE)
        return set_cause(cause, causelen, path, root ? &root->start_mark : NULL,
                         "a theme is a mapping with 'name' and 'roles'");
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        if (!k || k->type != YAML_SCALAR_NODE || !v)
            return set_cause(cause, causelen, path, k ? &k->start_mark : NULL, "bad key");
        const char *key = (const char *)k->data.scalar.value;
        if (strcmp(key, "name") == 0 && v->type == YAML_SCALAR_NODE) {
            snprintf(t->name, sizeof t->name, "%s", (const char *)v->data.scalar.value);
        } else if (strcmp(key, "description") == 0) {
            continue;
        } else if (strcmp(key, "roles") == 0 && v->type == YAML_MAPPING_NODE) {
            for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
                yaml_node_t *rk = yaml_document_get_node(doc, q->key);
                yaml_node_t *rv = yaml_document_get_node(doc, q->value);
                if (!rk || rk->type != YAML_SCALAR_NODE || !rv || rv->type != YAML_SCALAR_NODE)
                    return set_cause(cause, causelen, path, rk ? &rk->start_mark : NULL,
                                     "each role maps to a style string");
                const char *rn = (const char *)rk->data.scalar.value;
                int r;
                for (r = 0; r < ROLE_COUNT; r++)
                    if (strcmp(rn, role_names[r]) == 0)
                        break;
                if (r == ROLE_COUNT) {
                    char msg[160];
                    snprintf(msg, sizeof msg, "unknown role '%s'", rn);
                    return set_cause(cause, causelen, path, &rk->start_mark, msg);
                }
                /* a role's style is absolute: start from plain */
                Style st = {-1, -1, 0};
                char why[200];
                if (theme_parse_style((const char *)rv->data.scalar.value, &st, why, sizeof why) != 0)
                    return set_cause(cause, causelen, path, &rv->start_mark, why);
                t->roles[r] = st;
            }
        } else {
            char msg[160];
            snprintf(msg, sizeof msg, "unknown key '%s' (expected name, description, roles)", key);
            return set_cause(cause, causelen, path, &k->start_mark, msg);
        }
    }
    return 0;
}

static bool valid_theme_name(const char *name)
{
    if (!name || !*name || strlen(name) > 48)
        return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
            return false;
    return true;
}

int theme_load(const char *dir, const char *name, Theme *t, char *cause, size_t causelen)
{
    theme_builtin(t);
    if (!valid_theme_name(name)) {
        if (cause)
            snprintf(cause, causelen, "bad theme name '%s'", name ? name : "");
        return -1;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.yaml", dir ? dir : ".", name);
    char why[128];
    FILE *f = safeio_fopen_read(path, why, sizeof why);
    if (!f) {
        if (cause)
            snprintf(cause, causelen, "%s: %s", path, why);
        return -1;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) {
        fclose(f);
        return set_cause(cause, causelen, path, NULL, "out of memory");
    }
    yaml_parser_set_input_file(&parser, f);
    /* bounded like plans and catalogs: the scan is quadratic in flow depth */
    yaml_mark_t deep;
    int rc = ydepth_load(&parser, &doc, YDEPTH_MAX, &deep);
    if (rc < 0) {
        char msg[64];
        snprintf(msg, sizeof msg, "nested more than %d levels deep", YDEPTH_MAX);
        rc = set_cause(cause, causelen, path, &deep, msg);
    } else if (!rc) {
        rc = set_cause(cause, causelen, path, &parser.problem_mark,
                       parser.problem ? parser.problem : "YAML syntax error");
    } else {
        Theme tmp;
        theme_builtin(&tmp);
        snprintf(tmp.name, sizeof tmp.name, "%s", name);
        rc = load_doc(&doc, path, &tmp, cause, causelen);
        if (rc == 0)
            *t = tmp;
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    fclose(f);
    return rc;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

int theme_list(const char *dir, char names[][64], int max)
{
    DIR *d = opendir(dir ? dir : ".");
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len > 5 && len < 60 && strcmp(e->d_name + len - 5, ".yaml") == 0) {
            memcpy(names[n], e->d_name, len - 5);
            names[n][len - 5] = '\0';
            if (valid_theme_name(names[n]))
                n++;
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_name);
    return n;
}

/* ---- applying ---------------------------------------------------------- */

static unsigned long role_attr[ROLE_COUNT];
static bool use_color;

/* RGB of an xterm-256 colour, for reducing it to 8 or 16 colours. */
static void rgb_of(int c, int *r, int *g, int *b)
{
    static const int base[16][3] = {
        {0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205},
        {0, 205, 205}, {229, 229, 229}, {127, 127, 127}, {255, 0, 0}, {0, 255, 0},
        {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
    };
    if (c < 16) {
        *r = base[c][0]; *g = base[c][1]; *b = base[c][2];
    } else if (c < 232) {
        c -= 16;
        *r = cube_level[c / 36]; *g = cube_level[(c / 6) % 6]; *b = cube_level[c % 6];
    } else {
        *r = *g = *b = 8 + 10 * (c - 232);
    }
}

/* The colour to use on a terminal with `colors` colours. */
static short reduce(short c, int colors)
{
    if (c < 0 || c < colors)
        return c;
    if (c < 16)
        return (short)(c - 8); /* bright → normal on 8-colour terminals */
    int r, g, b;
    rgb_of(c, &r, &g, &b);
    int limit = colors >= 16 ? 16 : 8, best = 0;
    long bestd = -1;
    for (int i = 0; i < limit; i++) {
        int rr, gg, bb;
        rgb_of(i, &rr, &gg, &bb);
        long d = (long)(rr - r) * (rr - r) + (long)(gg - g) * (gg - g) + (long)(bb - b) * (bb - b);
        if (bestd < 0 || d < bestd) {
            bestd = d;
            best = i;
        }
    }
    return (short)best;
}

static unsigned long curses_attrs(unsigned a)
{
    unsigned long r = 0;
    if (a & THEME_ATTR_BOLD) r |= A_BOLD;
    if (a & THEME_ATTR_DIM) r |= A_DIM;
    if (a & THEME_ATTR_UNDERLINE) r |= A_UNDERLINE;
    if (a & THEME_ATTR_REVERSE) r |= A_REVERSE;
#ifdef A_ITALIC
    if (a & THEME_ATTR_ITALICS) r |= A_ITALIC;
#endif
    if (a & THEME_ATTR_BLINK) r |= A_BLINK;
    return r;
}

/* Attributes that keep roles distinct without colour (NO_COLOR, mono). */
static unsigned long mono_attr(Role r, unsigned theme_attrs)
{
    switch (r) {
    case ROLE_HEADER: case ROLE_FOOTER: case ROLE_TAB_ACTIVE: case ROLE_SELECTION:
    case ROLE_EDIT: case ROLE_SELECTION_DIM:
        return A_REVERSE | (theme_attrs & THEME_ATTR_BOLD ? A_BOLD : 0);
    case ROLE_HEADER_ACCENT: case ROLE_FOOTER_KEY: case ROLE_MODIFIED:
        return A_REVERSE | A_BOLD;
    case ROLE_INVALID:
        return A_REVERSE | A_BOLD | A_UNDERLINE;
    case ROLE_ERROR: case ROLE_CRITICAL: case ROLE_BAD:
        return A_BOLD | A_UNDERLINE;
    case ROLE_WARNING: case ROLE_TITLE: case ROLE_VALUE: case ROLE_GOOD:
        return A_BOLD;
    case ROLE_MUTED: case ROLE_BORDER:
        return A_DIM;
    default:
        return curses_attrs(theme_attrs);
    }
}

static bool series_color;

void theme_apply(const Theme *t)
{
    const char *nc = getenv("NO_COLOR");
    use_color = has_colors() && !(nc && *nc);
    int colors = use_color ? COLORS : 0;
    for (int i = 0; i < ROLE_COUNT; i++) {
        const Style *s = &t->roles[i];
        if (!use_color || (s->fg < 0 && s->bg < 0 && strcmp(t->name, "mono") == 0)) {
            role_attr[i] = use_color ? curses_attrs(s->attrs) : mono_attr((Role)i, s->attrs);
            continue;
        }
        short fg = reduce(s->fg, colors), bg = reduce(s->bg, colors);
        if (i + 1 < COLOR_PAIRS)
            init_pair((short)(i + 1), fg, bg);
        role_attr[i] = COLOR_PAIR(i + 1) | curses_attrs(s->attrs);
        /* bright colours on an 8-colour terminal: approximate with bold */
        if (colors < 16 && s->fg >= 8 && s->fg < 16)
            role_attr[i] |= A_BOLD;
    }
    /* chart series told apart by colour only when two of them differ in
     * the colour actually shown */
    series_color = false;
    if (use_color)
        for (int i = ROLE_SERIES1 + 1; i <= ROLE_SERIES6; i++)
            if (role_attr[i] & A_COLOR && t->roles[i].fg != t->roles[ROLE_SERIES1].fg)
                series_color = true;
}

unsigned long theme_attr(Role r)
{
    return (r >= 0 && r < ROLE_COUNT) ? role_attr[r] : 0;
}

bool theme_has_color(void)
{
    return use_color;
}

bool theme_series_color(void)
{
    return series_color;
}
