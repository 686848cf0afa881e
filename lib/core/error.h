/*
 * core/error.h -- filling an isolde_error: what kind of failure it is
 * (isolde_status), where (file, line, column of the input, 1-based; 0 when
 * not tied to a position) and why; and the one way public entry points run
 * their work: under an allocation guard, with the error copied out only
 * when the call fails (so a caller's error is untouched on success).
 */
#ifndef ISO_CORE_ERROR_H
#define ISO_CORE_ERROR_H

#include "isolde.h"

/* Fill err (which may be NULL) and return -1. */
int iso_fail(isolde_error *err, isolde_status code, const char *file, long line, long col,
             const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Run fn(arg) under an allocation guard with an error of its own, which
 * fn fills through iso_fail; returns ISOLDE_OK, or the failure's status
 * with *err (when err is not NULL) the failure. A failure fn reports
 * without a status is ISOLDE_ERR_INTERNAL. */
isolde_status iso_call(int (*fn)(void *arg, isolde_error *err), void *arg, isolde_error *err);

#endif
