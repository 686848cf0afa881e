/*
 * run/config.c -- a backend's config from its option table: defaults
 * first, then the run's "name=value" strings, each value checked against
 * its option's type, bounds and choices. String values are borrowed from
 * the run's options (they live as long as the run).
 */
#include "run/run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const run_option *option_named(const run_driver *d, const char *name, size_t n)
{
    for (size_t i = 0; i < d->n_options; i++)
        if (strlen(d->options[i].pub.name) == n && memcmp(d->options[i].pub.name, name, n) == 0)
            return &d->options[i];
    return NULL;
}

static int bad_value(const run_driver *d, const run_option *op, const char *v, isolde_error *err)
{
    if (op->pub.type == ISOLDE_OPTION_STRING && op->choices) {
        char list[256] = "";
        for (const char *const *c = op->choices; *c; c++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", c == op->choices ? "" : ", ", *c);
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s: --%s takes one of %s, not '%s'",
                        d->pub.name, op->pub.name, list, v);
    }
    return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s: --%s takes a number in [%g, %g], not '%s'",
                    d->pub.name, op->pub.name, op->lo, op->hi, v);
}

/* Store v as op's value in config. */
static int set_value(const run_driver *d, const run_option *op, const char *v, void *config,
                     isolde_error *err)
{
    char *at = (char *)config + op->offset, *end;
    errno = 0;
    switch (op->pub.type) {
    case ISOLDE_OPTION_FLAG:
        *(int *)at = !(strcmp(v, "0") == 0 || strcmp(v, "false") == 0);
        return 0;
    case ISOLDE_OPTION_INT: {
        long x = strtol(v, &end, 10);
        if (errno || end == v || *end || x < op->lo || x > op->hi) return bad_value(d, op, v, err);
        *(long *)at = x;
        return 0;
    }
    case ISOLDE_OPTION_DOUBLE: {
        double x = strtod(v, &end);
        if (end == v || *end || !(x >= op->lo && x <= op->hi)) return bad_value(d, op, v, err);
        *(double *)at = x;
        return 0;
    }
    default:
        for (const char *const *c = op->choices; c && *c; c++)
            if (strcmp(*c, v) == 0) { *(const char **)at = v; return 0; }
        if (op->choices) return bad_value(d, op, v, err);
        *(const char **)at = v;
        return 0;
    }
}

void *run_config(const run_driver *d, const isolde_run_opts *o, isolde_error *err)
{
    void *config = iso_xcalloc(1, d->config_size ? d->config_size : 1);
    for (size_t i = 0; i < d->n_options; i++)
        if (d->options[i].pub.dflt && set_value(d, &d->options[i], d->options[i].pub.dflt, config, err))
            goto fail;
    for (size_t i = 0; i < o->n_backend_opts; i++) {
        const char *kv = o->backend_opts[i], *eq = strchr(kv, '=');
        size_t n = eq ? (size_t)(eq - kv) : strlen(kv);
        const run_option *op = option_named(d, kv, n);
        if (!op) {
            iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s has no option --%.*s (isolde run %s --help)",
                     d->pub.name, (int)n, kv, d->pub.name);
            goto fail;
        }
        if (set_value(d, op, eq ? eq + 1 : "1", config, err)) goto fail;
    }
    return config;
fail:
    iso_free(config);
    return NULL;
}
