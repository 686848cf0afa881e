/* core/error.c -- filling an isolde_error (its message never holds raw
 * bytes: see escape_bytes), and running a public call. */
#include "core/error.h"
#include "core/alloc.h"
#include "core/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* msg with control bytes and bytes that are not UTF-8 shown as \xNN, so
 * that a message never echoes raw input to a terminal or a JSON report. */
static void escape_bytes(char *msg, size_t cap)
{
    char out[sizeof ((isolde_error *)0)->msg];
    const unsigned char *p = (const unsigned char *)msg;
    size_t n = strlen(msg), o = 0;
    for (size_t i = 0; i < n && o + 5 < sizeof out;) {
        size_t k = p[i] >= 0x80 ? iso_utf8_len(p + i, n - i) : p[i] >= 0x20 && p[i] != 0x7f;
        if (k) {
            if (o + k >= sizeof out) break;
            memcpy(out + o, p + i, k);
            o += k;
            i += k;
        } else {
            o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", p[i++]);
        }
    }
    out[o] = 0;
    snprintf(msg, cap, "%s", out);
}

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
    escape_bytes(err->msg, sizeof err->msg);
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
                                        "limit exceeded", "out of memory", "internal error", "cancelled"};
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
