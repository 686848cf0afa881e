/* core/buf.c -- growable byte strings and decimal integer text. */
#include "core/buf.h"
#include "core/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void iso_buf_put(iso_buf *b, const char *s, size_t n)
{
    ISO_GROW(b->p, b->cap, b->n + n + 1);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void iso_buf_puts(iso_buf *b, const char *s) { iso_buf_put(b, s, strlen(s)); }

const char iso_digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

const uint64_t iso_pow10[ISO_INT_MAX_CHARS] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
    10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull};

void iso_buf_int(iso_buf *b, int64_t v)
{
    ISO_GROW(b->p, b->cap, b->n + ISO_INT_MAX_CHARS + 1);
    b->n = (size_t)(iso_put_i64(b->p + b->n, v) - b->p);
    b->p[b->n] = 0;
}

void iso_buf_printf(iso_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    ISO_GROW(b->p, b->cap, b->n + (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
}

void iso_buf_duration(iso_buf *b, int64_t ns)
{
    static const struct { double scale; const char *unit; } units[] = {
        {1e9, "s"}, {1e6, "ms"}, {1e3, "\xc2\xb5s"}, {1, "ns"}};
    double mag = ns < 0 ? -(double)ns : (double)ns;
    size_t u = 0;
    /* the largest unit of which there is one after rounding to 3 digits */
    while (u + 1 < sizeof units / sizeof units[0] && mag < units[u].scale * 0.9995) u++;
    double x = (double)ns / units[u].scale;
    iso_buf_printf(b, mag >= 999.5e9 ? "%.0f %s" : "%.3g %s", x, units[u].unit);
}

const char *iso_buf_cstr(iso_buf *b)
{
    if (!b->p) iso_buf_put(b, "", 0);
    return b->p;
}

void iso_buf_free(iso_buf *b)
{
    iso_free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

/* The length of the valid UTF-8 sequence at p[0, n) (not overlong, no
 * surrogate, at most U+10FFFF), or 0. */
size_t iso_utf8_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t k = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!k || n < k) return 0;
    for (size_t i = 1; i < k; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) || (c == 0xf0 && p[1] < 0x90) ||
        (c == 0xf4 && p[1] >= 0x90))
        return 0;
    return k;
}
