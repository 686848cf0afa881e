/*
 * run/config.c -- a backend's config from its option table: defaults
 * first, then the run's "name=value" strings, each value checked against
 * its option's type, bounds and choices (core/options.c). String values
 * are borrowed from the run's options (they live as long as the run).
 */
#include "run/run.h"

#include <string.h>

void *run_config(const run_driver *d, const isolde_run_opts *o, isolde_error *err)
{
    void *config = iso_xcalloc(1, d->config_size ? d->config_size : 1);
    if (iso_option_defaults(d->pub.name, d->options, d->n_options, config, err)) goto fail;
    for (size_t i = 0; i < o->n_backend_opts; i++) {
        const char *kv = o->backend_opts[i];
        const run_option *op = iso_option_of(d->options, d->n_options, kv);
        if (!op) {
            int n = (int)strcspn(kv, "=");
            iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s has no option --%.*s (isolde run %s --help)",
                     d->pub.name, n, kv, d->pub.name);
            goto fail;
        }
        if (iso_option_set(d->pub.name, op, kv, config, err)) goto fail;
    }
    return config;
fail:
    iso_free(config);
    return NULL;
}
