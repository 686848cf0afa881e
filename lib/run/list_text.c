/*
 * run/list_text.c -- whether a list that a database returned as text,
 * "1,2,3", can go into the history as it is: "" or integers
 * -?(0|[1-9][0-9]{0,17}) joined by single commas, JSON numbers that fit in
 * 64 bits.
 *
 * Every list read of a SQLite run passes through here, so the common case
 * (digits and commas only) is checked eight bytes at a time with masks
 * instead of a branch per byte, whose mispredictions at every element end
 * cost more than the rest of the line's formatting. A list with any other
 * byte (a minus sign, garbage) takes the plain byte loop.
 */
#include <string.h>
#include "run/run.h"

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

/* What one word leaves for the next: the digits of the element still
 * open, and whether the word ended on a comma or on an element's leading
 * zero. */
struct scan {
    size_t run;
    uint64_t start; /* 0x80: the next word's first byte begins an element */
    uint64_t zero;  /* 0x80: the next word's first byte follows a leading 0 */
};

/* Check k (1..8) bytes loaded into w (zero above them). Returns 0 if they
 * break the rule, -1 if they hold a byte other than a digit or a comma. */
static int word_ok(struct scan *sc, uint64_t w, unsigned k)
{
    uint64_t live = k == 8 ? ~0ull : (1ull << (8 * k)) - 1;
    uint64_t digit = bytes_digit(w), comma = bytes_equal(w, ',');
    if ((digit | comma) != (live & HIGHS)) return -1;
    uint64_t start = comma << 8 | sc->start;           /* element starts */
    uint64_t lead0 = bytes_equal(w, '0') & start;
    if ((start & comma) || ((lead0 << 8 | sc->zero) & digit)) return 0;
    sc->start = comma >> 56;
    sc->zero = lead0 >> 56;
    if (!comma) {
        sc->run += k;
        return sc->run <= 18;
    }
    if (sc->run + (unsigned)__builtin_ctzll(comma) / 8 > 18) return 0;
    sc->run = k - 1 - (unsigned)(63 - __builtin_clzll(comma)) / 8;
    return 1;
}

/* 1 or 0 as list_text_ok_bytes says, or -1: not digits and commas only. */
static int list_text_ok_words(const char *s, size_t n)
{
    struct scan sc = {0, 0x80, 0};
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8); /* one load */
        int r = word_ok(&sc, w, 8);
        if (r <= 0) return r;
    }
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, s + i, n - i);
        int r = word_ok(&sc, w, (unsigned)(n - i));
        if (r <= 0) return r;
    }
    return n == 0 || s[n - 1] != ',';
}

int run_list_text_ok(const char *s, size_t n)
{
    int r = list_text_ok_words(s, n);
    return r >= 0 ? r : list_text_ok_bytes(s, n);
}

#else

int run_list_text_ok(const char *s, size_t n) { return list_text_ok_bytes(s, n); }

#endif
