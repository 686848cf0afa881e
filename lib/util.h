/*
 * util.h -- small shared helpers: checked allocation, growable arrays,
 * error reporting into iso_error, a monotonic clock, and running work on
 * several threads.
 *
 * Allocation failure is not recoverable in a checker that must either
 * finish or say why: iso_xmalloc and friends print a message and abort,
 * as git's xmalloc does. Readers bound what untrusted input may allocate
 * before it gets that far (see ISO_MAX_* in history.h).
 */
#ifndef ISO_UTIL_H
#define ISO_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include "isolde.h"

#define ISO_INTERNAL __attribute__((visibility("hidden")))
#define ISO_NONE UINT32_MAX

void *iso_xmalloc(size_t n);
void *iso_xcalloc(size_t n, size_t size);
void *iso_xrealloc(void *p, size_t n);
char *iso_xstrdup(const char *s);
char *iso_xstrndup(const char *s, size_t n);

/* Grow *arr (element size sz) so that index need-1 fits; doubles capacity.
 * ISO_GROW calls it only when the array is full. */
void iso_grow(void **arr, size_t *cap, size_t need, size_t sz);
#define ISO_GROW(arr, cap, need) \
    do { if ((need) > (cap)) iso_grow((void **)&(arr), &(cap), (need), sizeof *(arr)); } while (0)
/* Append one element to a (ptr, n, cap) triple. */
#define ISO_PUSH(arr, n, cap, x) \
    do { ISO_GROW(arr, cap, (n) + 1); (arr)[(n)++] = (x); } while (0)

/* Fill err (which may be NULL) and return -1. */
int iso_fail(iso_error *err, const char *file, long line, long col,
             const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* With ISOLDE_TIMING set in the environment, print the wall time since the
 * previous call, the resident memory and the peak so far, labelled name,
 * to stderr; NULL only starts the clock. */
void iso_phase(const char *name);

/* Seconds on a monotonic clock. */
double iso_now(void);

/* Run work(arg) on `threads` threads at once, the caller's among them (on
 * fewer if threads cannot start), and return when all have returned. The
 * work functions share the items among themselves, e.g. through
 * iso_next_item. */
void iso_parallel(int threads, void (*work)(void *arg), void *arg);
/* The next item of a shared counter (atomic fetch-and-add). */
size_t iso_next_item(size_t *counter);
/* The worker threads a check runs with: asked when it is positive, else
 * one per online core (iso_check_opts.threads: 0 = one per core). */
int iso_thread_count(int asked);
/* a(arg) and b(arg), on two threads when threads > 1, else a then b. */
void iso_both(void (*a)(void *), void (*b)(void *), void *arg, int threads);

/* A growable byte string. */
typedef struct iso_buf {
    char *p;
    size_t n, cap;
} iso_buf;
void iso_buf_put(iso_buf *b, const char *s, size_t n);
void iso_buf_puts(iso_buf *b, const char *s);
/* Decimal text of an integer (faster than printf in report loops). */
void iso_buf_int(iso_buf *b, int64_t v);

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
void iso_buf_printf(iso_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Returns the NUL-terminated contents (owned by b). */
const char *iso_buf_cstr(iso_buf *b);
void iso_buf_free(iso_buf *b);

#endif
