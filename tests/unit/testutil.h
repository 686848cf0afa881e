/*
 * testutil.h -- helpers shared by the cmocka unit tests: reading a history
 * from a string, and finding ../shared (the corpora) beside the checkout.
 */
#ifndef ISO_TESTUTIL_H
#define ISO_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "isolde.h"

/* Read options for format f (valid until the next call on this thread). */
static inline const isolde_read_opts *tu_fmt(isolde_format f)
{
    static _Thread_local isolde_read_opts o;
    isolde_read_opts_init(&o);
    o.format = f;
    return &o;
}

/* Read a history from a C string; fails the test on error. */
static inline isolde_history *tu_read(const char *text, isolde_format f)
{
    isolde_history *h = NULL;
    isolde_error err = {0};
    if (isolde_history_read_mem("test", text, strlen(text), tu_fmt(f), &h, &err) != 0)
        fail_msg("read failed: %s:%ld:%ld: %s", err.file, err.line, err.col, err.msg);
    return h;
}

/* The shared/ folder beside the checkout ($ISOLDE_SHARED overrides), or
 * NULL when absent. Under CI=true a missing folder fails the test: a wrong
 * path must never pass quietly. */
static inline const char *tu_shared_dir(void)
{
    const char *env = getenv("ISOLDE_SHARED");
    static const char *cands[] = {"../shared", "../../shared"};
    if (env && access(env, R_OK) == 0) return env;
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++)
        if (access(cands[i], R_OK) == 0) return cands[i];
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0) fail_msg("CI=true but ../shared is missing");
    fprintf(stderr, "note: ../shared not found; skipping corpus tests\n");
    return NULL;
}

#endif
