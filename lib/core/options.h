/*
 * core/options.h -- options given as "name=value" strings (a flag as
 * "name", or "name=0" to unset it), read against a table that says of
 * each its name, type, value word, default and help (isolde_option, what
 * the public header lists of it), its bounds or choices, and where its
 * value goes in a config struct: a backend's (run/config.c) and the
 * checkers' (check/opts.c). String values are borrowed from the strings.
 */
#ifndef ISO_CORE_OPTIONS_H
#define ISO_CORE_OPTIONS_H

#include <stddef.h>

#include "isolde.h"

/* One option of a table, and where its value goes. */
typedef struct iso_option {
    isolde_option pub;          /* name, type, value word, default, help */
    size_t offset;              /* in the config: a long (INT), a double
                                   (DOUBLE), an int (FLAG) or a const char *
                                   (STRING) */
    double lo, hi;              /* INT, DOUBLE: the value lies in [lo, hi] */
    const char *const *choices; /* STRING: one of these (NULL-ended), or NULL */
} iso_option;

/* The option of t[0, n) that "name=value" (or "name") kv names, or NULL. */
const iso_option *iso_option_of(const iso_option *t, size_t n, const char *kv);
/* Store kv's value (none: a flag's 1) as op's in config: 0, or -1 with
 * err saying why the value does not do (owner: whose option it is, for
 * the message). */
int iso_option_set(const char *owner, const iso_option *op, const char *kv, void *config, isolde_error *err);
/* Every default of t[0, n) into config: 0, or -1 with err (a bad table). */
int iso_option_defaults(const char *owner, const iso_option *t, size_t n, void *config, isolde_error *err);

#endif
