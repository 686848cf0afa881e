/*
 * core/options.c -- "name=value" strings read against an option table
 * (core/options.h): each value checked against its option's type, bounds
 * and choices before it is stored.
 */
#include "core/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

const iso_option *iso_option_of(const iso_option *t, size_t n, const char *kv)
{
    const char *eq = strchr(kv, '=');
    size_t len = eq ? (size_t)(eq - kv) : strlen(kv);
    for (size_t i = 0; i < n; i++)
        if (strlen(t[i].pub.name) == len && memcmp(t[i].pub.name, kv, len) == 0) return &t[i];
    return NULL;
}

static int bad_value(const char *owner, const iso_option *op, const char *v, isolde_error *err)
{
    if (op->pub.type == ISOLDE_OPTION_STRING && op->choices) {
        char list[256] = "";
        for (const char *const *c = op->choices; *c; c++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", c == op->choices ? "" : ", ", *c);
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s: --%s takes one of %s, not '%s'", owner,
                        op->pub.name, list, v);
    }
    return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s: --%s takes a number in [%g, %g], not '%s'", owner,
                    op->pub.name, op->lo, op->hi, v);
}

/* Store v as op's value in config. */
static int set_value(const char *owner, const iso_option *op, const char *v, void *config, isolde_error *err)
{
    char *at = (char *)config + op->offset, *end;
    errno = 0;
    switch (op->pub.type) {
    case ISOLDE_OPTION_FLAG:
        *(int *)at = !(strcmp(v, "0") == 0 || strcmp(v, "false") == 0);
        return 0;
    case ISOLDE_OPTION_INT: {
        long x = strtol(v, &end, 10);
        if (errno || end == v || *end || x < op->lo || x > op->hi) return bad_value(owner, op, v, err);
        *(long *)at = x;
        return 0;
    }
    case ISOLDE_OPTION_DOUBLE: {
        double x = strtod(v, &end);
        if (end == v || *end || !(x >= op->lo && x <= op->hi)) return bad_value(owner, op, v, err);
        *(double *)at = x;
        return 0;
    }
    default:
        for (const char *const *c = op->choices; c && *c; c++)
            if (strcmp(*c, v) == 0) { *(const char **)at = v; return 0; }
        if (op->choices) return bad_value(owner, op, v, err);
        *(const char **)at = v;
        return 0;
    }
}

int iso_option_set(const char *owner, const iso_option *op, const char *kv, void *config, isolde_error *err)
{
    const char *eq = strchr(kv, '=');
    return set_value(owner, op, eq ? eq + 1 : "1", config, err);
}

int iso_option_defaults(const char *owner, const iso_option *t, size_t n, void *config, isolde_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].pub.dflt && set_value(owner, &t[i], t[i].pub.dflt, config, err)) return -1;
    return 0;
}
