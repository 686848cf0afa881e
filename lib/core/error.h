/*
 * core/error.h -- filling an iso_error: what failed, where (file, line,
 * column of the input, 1-based; 0 when not tied to a position) and which
 * kind of failure it is (iso_errcode), so that callers can tell a parse
 * error from an I/O error or a usage error without reading the message.
 */
#ifndef ISO_CORE_ERROR_H
#define ISO_CORE_ERROR_H

#include "isolde.h"

/* Fill err (which may be NULL) and return -1. */
int iso_fail(iso_error *err, const char *file, long line, long col,
             const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
