/* core/error.c -- filling an iso_error. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

int iso_fail(iso_error *err, const char *file, long line, long col,
             const char *fmt, ...)
{
    if (!err) return -1;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}
