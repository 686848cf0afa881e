/* core/error.c -- filling an isolde_error, and running a public call. */
#include "core/error.h"
#include "core/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int iso_fail(isolde_error *err, isolde_status code, const char *file, long line, long col,
             const char *fmt, ...)
{
    if (!err) return -1;
    err->code = code;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

struct call {
    int (*fn)(void *, isolde_error *);
    void *arg;
    isolde_error *err;
};

static int run_call(void *p)
{
    struct call *c = p;
    return c->fn(c->arg, c->err);
}

isolde_status iso_call(int (*fn)(void *arg, isolde_error *err), void *arg, isolde_error *err)
{
    isolde_error local;
    memset(&local, 0, sizeof local);
    struct call c = {fn, arg, &local};
    if (iso_guarded(run_call, &c, &local) == 0) return ISOLDE_OK;
    if (local.code == ISOLDE_OK) local.code = ISOLDE_ERR_INTERNAL;
    if (err) *err = local;
    return local.code;
}

const char *isolde_status_name(isolde_status s)
{
    static const char *const names[] = {"ok", "parse error", "i/o error", "usage error",
                                        "limit exceeded", "out of memory", "internal error"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown status";
}

size_t isolde_error_text(const isolde_error *e, char *buf, size_t size)
{
    char pos[64] = "";
    if (e->line > 0 && e->col > 0) snprintf(pos, sizeof pos, ":%ld:%ld", e->line, e->col);
    else if (e->line > 0) snprintf(pos, sizeof pos, ":%ld", e->line);
    int n = snprintf(buf, size, "%s%s%s%s", e->file, pos, e->file[0] || pos[0] ? ": " : "", e->msg);
    return n < 0 ? 0 : (size_t)n;
}
