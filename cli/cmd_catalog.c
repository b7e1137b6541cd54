/* cli/cmd_catalog.c — `gpuplan catalog [REGEX] [--json]`. */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <jansson.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct {
    pcre2_code *re;
    pcre2_match_data *md;
} Filter;

/* Whether the pattern matches the len characters at s (PCRE2_ZERO_TERMINATED:
 * the whole string). */
static bool match_n(const Filter *f, const char *s, size_t len)
{
    if (!f->re)
        return true;
    return pcre2_match(f->re, (PCRE2_SPTR)s, len, 0, 0, f->md, NULL) >= 0;
}

static bool match(const Filter *f, const char *s)
{
    return match_n(f, s, PCRE2_ZERO_TERMINATED);
}

/* An accelerator is listed when the pattern matches its id, its name or
 * one of its aliases, each on its own ("^TPU-v7$" finds TPU7x). */
static bool acc_match(const Filter *f, const Accelerator *a)
{
    if (match(f, a->id) || match(f, a->name))
        return true;
    size_t len;
    for (const char *p = a->aliases; (p = catalog_list_next(p, &len)) != NULL; p += len)
        if (match_n(f, p, len))
            return true;
    return false;
}

static json_t *acc_json(const Accelerator *a)
{
    static const char *const prec[PREC_COUNT] = {"fp32", "bf16", "fp16", "fp8", "fp4"};
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(a->id));
    json_object_set_new(o, "name", json_string(a->name));
    json_t *al = json_array();
    size_t len;
    for (const char *p = a->aliases; (p = catalog_list_next(p, &len)) != NULL; p += len)
        json_array_append_new(al, json_stringn(p, len));
    json_object_set_new(o, "aliases", al);
    json_object_set_new(o, "vendor", json_string(a->vendor));
    json_object_set_new(o, "hbm_gb", json_real(a->hbm_bytes / 1e9));
    json_object_set_new(o, "hbm_tb_per_s", json_real(a->hbm_bw / 1e12));
    json_t *t = json_object();
    for (int i = 0; i < PREC_COUNT; i++)
        json_object_set_new(t, prec[i], json_real(a->peak_flops[i] / 1e12));
    json_object_set_new(o, "dense_tflops", t);
    json_object_set_new(o, "scaleup_gb_per_s", json_real(a->scaleup_bw / 1e9));
    json_object_set_new(o, "gpus_per_node", json_integer(a->gpus_per_node));
    json_object_set_new(o, "scaleup_domain", json_integer(a->scaleup_domain));
    json_object_set_new(o, "tdp_w", json_real(a->tdp_w));
    json_object_set_new(o, "node_power_w", json_real(a->node_power_w));
    json_object_set_new(o, "node_price_usd", json_real(a->node_price_usd));
    json_object_set_new(o, "node_rack_units", json_integer(a->node_rack_units));
    json_object_set_new(o, "liquid_cooled", json_boolean(a->liquid_cooled));
    json_object_set_new(o, "unlisted", json_boolean(a->unlisted));
    json_t *mig = json_array();
    for (int i = 0; i < a->n_mig; i++) {
        json_t *m = json_object();
        json_object_set_new(m, "profile", json_string(a->mig[i].name));
        json_object_set_new(m, "count", json_integer(a->mig[i].count));
        json_array_append_new(mig, m);
    }
    json_object_set_new(o, "mig", mig);
    json_object_set_new(o, "source", json_string(a->source));
    json_object_set_new(o, "as_of", json_string(a->as_of));
    json_object_set_new(o, "notes", json_string(a->notes));
    return o;
}

static json_t *inst_json(const Instance *x)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(x->id));
    json_object_set_new(o, "provider", json_string(provider_name(x->provider)));
    json_object_set_new(o, "family", json_string(x->family));
    json_object_set_new(o, "accelerator", json_string(x->accelerator));
    json_object_set_new(o, "count", json_integer(x->accel_count));
    json_object_set_new(o, "network_gbps", json_real(x->network_gbps));
    json_object_set_new(o, "region", json_string(x->region));
    json_object_set_new(o, "on_demand_usd_per_hour", json_real(x->on_demand_usd_h));
    json_object_set_new(o, "spot_usd_per_hour", json_real(x->spot_usd_h));
    json_object_set_new(o, "reserved_1y_discount", json_real(x->reserved_1y_discount));
    json_object_set_new(o, "reserved_3y_discount", json_real(x->reserved_3y_discount));
    json_object_set_new(o, "source", json_string(x->source));
    json_object_set_new(o, "as_of", json_string(x->as_of));
    json_object_set_new(o, "price_notes", json_string(x->price_notes));
    return o;
}

int cmd_catalog(Cli *cli, int argc, char **argv)
{
    const char *regex = NULL;
    bool json = false;
    for (int i = 0; i < argc; i++) {
        if (cli_is(argv[i], "--json"))
            json = true;
        else if (regex || argv[i][0] == '-') {
            cli_error("catalog: unexpected argument '%s' (usage: gpuplan catalog [REGEX] "
                      "[--json])", argv[i]);
            return EXIT_USAGE;
        } else
            regex = argv[i];
    }
    Filter f = {0};
    if (regex && *regex) {
        int err;
        PCRE2_SIZE off;
        f.re = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED, PCRE2_CASELESS, &err,
                             &off, NULL);
        if (!f.re) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            cli_error("catalog: invalid regular expression '%s' at offset %zu: %s", regex,
                      (size_t)off, (char *)msg);
            return EXIT_USAGE;
        }
        f.md = pcre2_match_data_create_from_pattern(f.re, NULL);
    }
    int rc = cli_catalog(cli);
    if (rc == EXIT_OK) {
        const Catalog *c = &cli->catalog;
        if (json) {
            json_t *o = json_object(), *acc = json_array(), *ins = json_array();
            for (size_t i = 0; i < c->n_accelerators; i++)
                if (acc_match(&f, &c->accelerators[i]))
                    json_array_append_new(acc, acc_json(&c->accelerators[i]));
            for (size_t i = 0; i < c->n_instances; i++)
                if (match(&f, c->instances[i].id) || match(&f, c->instances[i].accelerator))
                    json_array_append_new(ins, inst_json(&c->instances[i]));
            json_object_set_new(o, "accelerators", acc);
            json_object_set_new(o, "instances", ins);
            char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
            if (s)
                puts(s);
            free(s);
            json_decref(o);
        } else {
            printf("%-12s %-8s %7s %8s %9s %9s %9s %6s %5s %6s\n", "ACCELERATOR", "VENDOR",
                   "HBM GB", "HBM TB/s", "BF16 TF", "FP8 TF", "FP4 TF", "TDP W", "/node",
                   "domain");
            for (size_t i = 0; i < c->n_accelerators; i++) {
                const Accelerator *a = &c->accelerators[i];
                if (!acc_match(&f, a))
                    continue;
                printf("%-12s %-8s %7.0f %8.2f %9.1f %9.1f %9.1f %6.0f %5d %6d\n", a->id,
                       a->vendor, a->hbm_bytes / 1e9, a->hbm_bw / 1e12,
                       a->peak_flops[PREC_BF16] / 1e12, a->peak_flops[PREC_FP8] / 1e12,
                       a->peak_flops[PREC_FP4] / 1e12, a->tdp_w, a->gpus_per_node,
                       a->scaleup_domain);
            }
            printf("\n%-28s %-6s %-11s %5s %10s %10s %9s  %s\n", "INSTANCE", "CLOUD",
                   "ACCELERATOR", "COUNT", "$/h", "spot $/h", "Gb/s", "AS OF");
            for (size_t i = 0; i < c->n_instances; i++) {
                const Instance *x = &c->instances[i];
                if (!match(&f, x->id) && !match(&f, x->accelerator))
                    continue;
                printf("%-28s %-6s %-11s %5d %10.2f %10.2f %9.0f  %s\n", x->id,
                       provider_name(x->provider), x->accelerator, x->accel_count,
                       x->on_demand_usd_h, x->spot_usd_h, x->network_gbps, x->as_of);
            }
        }
    }
    pcre2_match_data_free(f.md);
    pcre2_code_free(f.re);
    return rc;
}
