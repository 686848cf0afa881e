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

/* Read a history from a C string; fails the test on error. */
static inline iso_history *tu_read(const char *text, iso_format f)
{
    iso_history *h = NULL;
    iso_error err = {0};
    if (iso_history_read_mem("test", text, strlen(text), f, &h, &err) != 0)
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
