/*
 * core/buf.h -- a growable byte string, and decimal integers written
 * straight into memory (faster than printf in report and record loops).
 *
 * The bytes of an iso_buf are NUL-terminated whenever n > 0 or after
 * iso_buf_cstr; an empty iso_buf ({0}) owns nothing.
 */
#ifndef ISO_CORE_BUF_H
#define ISO_CORE_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct iso_buf {
    char *p;
    size_t n, cap;
} iso_buf;

void iso_buf_put(iso_buf *b, const char *s, size_t n);
void iso_buf_puts(iso_buf *b, const char *s);
/* Decimal text of an integer. */
void iso_buf_int(iso_buf *b, int64_t v);
void iso_buf_printf(iso_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A span of ns nanoseconds in the unit that suits it, three significant
 * digits: "850 ns", "12.5 µs", "3.07 ms", "1.5 s", "4217 s". */
void iso_buf_duration(iso_buf *b, int64_t ns);
/* The length of the valid UTF-8 sequence of 2 to 4 bytes at p[0, n) (not
 * overlong, no surrogate, at most U+10FFFF), or 0. */
size_t iso_utf8_len(const unsigned char *p, size_t n);
/* Returns the NUL-terminated contents (owned by b). */
const char *iso_buf_cstr(iso_buf *b);
void iso_buf_free(iso_buf *b);
/* The literal s copied to p (its length known at compile time); returns
 * the copy's end. */
#define ISO_PUT_LIT(p, s) (memcpy((p), (s), sizeof(s) - 1), (p) + sizeof(s) - 1)

/* Decimal text of integers written straight into room the caller has:
 * at most ISO_INT_MAX_CHARS bytes, no NUL; each returns the text's end.
 * Digits go two at a time (a division per pair, not per digit), from the
 * right, with no scratch copy. */
#define ISO_INT_MAX_CHARS 20
extern const char iso_digit_pairs[201];
extern const uint64_t iso_pow10[ISO_INT_MAX_CHARS];
/* How many digits u has: from its bit length, the count or one less,
 * settled by one comparison. */
static inline unsigned iso_digits_u64(uint64_t u)
{
    if (u < 10) return 1;
    unsigned n = (64 - (unsigned)__builtin_clzll(u)) * 1233 >> 12; /* 1233 / 4096 ~ log10(2) */
    return n + (u >= iso_pow10[n]);
}
static inline char *iso_put_u64(char *p, uint64_t u)
{
    unsigned n = iso_digits_u64(u);
    char *q = p + n;
    for (; u >= 100; u /= 100) {
        const char *d = iso_digit_pairs + 2 * (u % 100);
        *--q = d[1];
        *--q = d[0];
    }
    if (u >= 10) {
        *--q = iso_digit_pairs[2 * u + 1];
        *--q = iso_digit_pairs[2 * u];
    } else {
        *--q = (char)('0' + u);
    }
    return p + n;
}
static inline char *iso_put_i64(char *p, int64_t v)
{
    if (v >= 0) return iso_put_u64(p, (uint64_t)v);
    *p++ = '-';
    return iso_put_u64(p, 0 - (uint64_t)v);
}

#endif
