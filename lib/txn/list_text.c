/*
 * txn/list_text.c -- a list read that a database returned as text, "1,2,3":
 * kept as that text when it can go into the history as it is, else parsed
 * as far as it goes. It can when it is "" or integers -?(0|[1-9][0-9]{0,17})
 * joined by single commas: JSON numbers that fit in 64 bits.
 *
 * Every list read of a SQLite run passes through here, so the common case
 * (digits and commas only) is checked eight bytes at a time with masks
 * instead of a branch per byte, whose mispredictions at every element end
 * cost more than the rest of the line's formatting. A list with any other
 * byte (a minus sign, garbage) takes the plain byte loop.
 */
#include <string.h>
#include "txn/txn.h"

/* The plain byte loop: the definition. */
static int list_text_ok_bytes(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        const unsigned char *d = p + (*p == '-'), *q = d;
        while (q < end && (unsigned)(*q - '0') < 10) q++;
        size_t digits = (size_t)(q - d);
        if (digits == 0 || digits > 18 || (*d == '0' && digits > 1)) return 0;
        if (q == end) return 1;
        if (*q != ',' || q + 1 == end) return 0;
        p = q + 1;
    }
    return 1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__

/* Masks over the bytes of a word: 0x80 in each byte where the test
 * holds, 0 elsewhere (exact: no carry crosses a byte). */
#define LOWS 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static uint64_t bytes_equal(uint64_t w, unsigned char c)
{
    uint64_t x = w ^ (LOWS * c);
    return ~(((x & ~HIGHS) + ~HIGHS) | x) & HIGHS;
}

static uint64_t bytes_digit(uint64_t w)
{
    uint64_t low7 = w & ~HIGHS;
    uint64_t ge0 = low7 + LOWS * (0x80 - '0');       /* high bit: >= '0' */
    uint64_t gt9 = low7 + LOWS * (0x80 - '9' - 1);   /* high bit: > '9' */
    return ge0 & ~gt9 & ~w & HIGHS;
}

/* Bytes s[0..n) for n in 1..8 as one word, zero above them: loads that
 * overlap instead of a memcpy of variable length. */
static uint64_t load_tail(const char *s, size_t n)
{
    if (n == 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        return w;
    }
    if (n >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, s, 4);
        memcpy(&hi, s + n - 4, 4);
        return lo | (uint64_t)hi << (8 * (n - 4));
    }
    const unsigned char *u = (const unsigned char *)s;
    return u[0] | (uint64_t)u[n / 2] << (8 * (n / 2)) | (uint64_t)u[n - 1] << (8 * (n - 1));
}

/* What the words checked so far leave for the next one. */
struct scan {
    uint64_t start; /* 0x80: the next word's first byte begins an element */
    uint64_t zero;  /* 0x80: the next word's first byte follows a leading 0 */
    uint64_t bad;   /* nonzero: the rule is broken */
    uint64_t other; /* nonzero: a byte other than a digit or a comma */
};

/* Check the bytes of w where live has 0x80. An element's digits can only
 * run long when a whole word holds no comma: the caller sends such lists
 * to the byte loop, so every element seen here has at most 7 + 7. */
static inline __attribute__((always_inline)) void word_check(struct scan *sc, uint64_t w,
                                                              uint64_t live)
{
    uint64_t digit = bytes_digit(w), comma = bytes_equal(w, ',');
    uint64_t start = comma << 8 | sc->start;           /* element starts */
    uint64_t lead0 = bytes_equal(w, '0') & start;
    sc->other |= (digit | comma) ^ live;
    sc->bad |= (start & comma) | ((lead0 << 8 | sc->zero) & digit);
    sc->start = comma >> 56;
    sc->zero = lead0 >> 56;
}

/* 1 or 0 as list_text_ok_bytes says, or -1: not digits and commas only,
 * or a number that may have more than 14 digits. */
static int list_text_ok_words(const char *s, size_t n)
{
    struct scan sc = {0x80, 0, 0, 0};
    uint64_t long_run = 0;
    size_t i = 0;
    for (; i + 8 < n; i += 8) { /* every word but the last */
        uint64_t w;
        memcpy(&w, s + i, 8); /* one load */
        word_check(&sc, w, HIGHS);
        long_run |= !bytes_equal(w, ',');
    }
    if (n == 0) return 1;
    uint64_t live = n - i == 8 ? HIGHS : HIGHS & ((1ull << (8 * (n - i))) - 1);
    word_check(&sc, load_tail(s + i, n - i), live);
    if (sc.other || long_run) return -1;
    return !sc.bad && s[n - 1] != ',';
}

int txn_list_text_ok(const char *s, size_t n)
{
    int r = list_text_ok_words(s, n);
    return r >= 0 ? r : list_text_ok_bytes(s, n);
}

#else

int txn_list_text_ok(const char *s, size_t n) { return list_text_ok_bytes(s, n); }

#endif

int txn_read_text(txn *t, uint32_t i, const char *s, size_t n)
{
    if (n > UINT32_MAX || !txn_list_text_ok(s, n)) return -1;
    if (t->n_text + n + 1 > t->cap_text) ISO_GROW(t->text, t->cap_text, t->n_text + n + 1);
    memcpy(t->text + t->n_text, s, n);
    txn_mop *m = &t->mops[i];
    m->nil = 0;
    m->text = 1;
    m->off = (uint32_t)t->n_text;
    m->len = (uint32_t)n;
    t->n_text += n;
    return 0;
}

/* A stored list that is not plain "1,2,3", read as far as it goes. */
static void parse_list(txn *t, uint32_t i, const char *s, const char *end)
{
    txn_read_begin(t, i);
    while (s < end) {
        int neg = *s == '-';
        const char *d = s + neg;
        uint64_t u = 0;
        for (s = d; s < end && *s >= '0' && *s <= '9'; s++) u = u * 10 + (uint64_t)(*s - '0');
        if (s == d) break;
        txn_read_elem(t, i, neg ? (int64_t)(0 - u) : (int64_t)u);
        if (s == end || *s++ != ',') break;
    }
}

void txn_read_list(txn *t, uint32_t i, const char *s, size_t n)
{
    if (!s) { /* no row: the empty list */
        txn_read_begin(t, i);
        return;
    }
    if (txn_read_text(t, i, s, n) < 0) parse_list(t, i, s, s + n);
}
