/*
 * history/cursor.h -- what the readers share: a cursor over the input
 * bytes that knows its line and column, error reporting at the cursor, the
 * stacks that let the EDN and JSON value parsers run without recursion, and
 * number and string helpers that build values straight into a value store
 * -- a history's, or a bare one (a --transaction-order file, an exec
 * client's reply), read with the same parsers.
 *
 * Readers never copy the input: tokens are interned from the buffer, and
 * only strings with escapes pass through the scratch buffer. Items of the
 * composites still open live on one reused stack (items), their openers on
 * another (frames); a composite is copied into the store when it closes.
 */
#ifndef ISO_HISTORY_CURSOR_H
#define ISO_HISTORY_CURSOR_H

#include "history/history.h"

#include <string.h>

/* One open composite (or EDN #_ / #tag prefix) of a value being parsed. */
struct iso_rd_frame {
    size_t start;        /* offset of the opener in the input */
    size_t items;        /* n_items when it opened */
    uint32_t line, col;  /* where it opened */
    uint8_t kind;        /* reader-specific */
};

typedef struct iso_rd {
    const char *p;        /* input bytes [0, len) */
    size_t len, pos;
    size_t line;          /* 1-based line of pos */
    size_t line_start;    /* offset of the first byte of that line */
    iso_store *store;     /* where values go */
    const char *name;     /* the input's name, for messages */
    int drop_input;       /* the input is a private file mapping (iso_rd_consumed) */
    isolde_history *h;    /* the history ops go to; NULL for bare values */
    isolde_error *err;
    iso_val *items;
    size_t n_items, cap_items;
    struct iso_rd_frame *frames;
    size_t n_frames, cap_frames;
    iso_buf scratch;      /* unescaped string bytes */
    size_t form_line, form_col; /* where the last iso_edn_form began */
    size_t dropped;       /* input before this was given back (drop_input) */
    struct iso_rd_cons { uint32_t off1, hash; } *cons; /* recently stored composites */
    size_t cap_cons;
    struct iso_rd_short { uint64_t bytes; uint32_t tag_len; iso_val v; } cache[256];
    /* JSON: the key last seen at each place in an object ("index" first,
     * "type" second ...), quotes included; op after op they repeat. */
    struct iso_rd_key { char text[16]; uint32_t len; iso_val v; } keys[8];
    /* The last two micro-op names ("append", "r"), each with the byte
     * that ended it, as a little-endian word and the mask of its bytes. */
    struct iso_rd_name { uint64_t word, mask; uint32_t len; iso_val v; } names[2];
    unsigned name_next;
    struct iso_rd_list *lists; /* the last read list of each key (by hash) */
    /* The failure was the input ending inside a value (a line cut short:
     * more bytes could have made it whole), not a byte that is wrong. */
    int ran_out;
} iso_rd;

/* A cursor over buf[0, len) whose ops go to h (and values to h's store). */
void iso_rd_init(iso_rd *rd, isolde_history *h, const char *buf, size_t len,
                 isolde_error *err);
/* A cursor whose values go to store s (no history); name is for messages. */
void iso_rd_init_store(iso_rd *rd, iso_store *s, const char *name, const char *buf, size_t len,
                       isolde_error *err);
void iso_rd_release(iso_rd *rd);

static inline long iso_rd_col(const iso_rd *rd) { return (long)(rd->pos - rd->line_start) + 1; }
/* A line or column as an op keeps it: 32 bits, saturated (a column past
 * 4G in a one-line file reads as 4294967295, never wraps). */
static inline uint32_t iso_rd_u32(size_t x) { return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x; }
static inline int iso_rd_eof(const iso_rd *rd) { return rd->pos >= rd->len; }
/* Call with pos on a '\n' that is being consumed. */
static inline void iso_rd_newline(iso_rd *rd)
{
    rd->line++;
    rd->line_start = rd->pos + 1;
}

/* Fail at the cursor, or at a given position. Both return -1. */
int iso_rd_fail(iso_rd *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int iso_rd_fail_at(iso_rd *rd, size_t line, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "unexpected 'x'" / "unexpected end of input" at the cursor (bytes that
 * are not printable ASCII shown escaped). */
int iso_rd_unexpected(iso_rd *rd, const char *expected);
/* A limit of history.h passed at line:col: ISOLDE_ERR_LIMIT; returns -1. */
int iso_rd_limit(iso_rd *rd, size_t line, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* An atom of n bytes at the cursor: 0, or -1 past ISO_MAX_ATOM. */
static inline int iso_rd_atom_fits(iso_rd *rd, size_t n)
{
    if (n <= ISO_MAX_ATOM) return 0;
    return iso_rd_limit(rd, rd->line, (size_t)(rd->pos - rd->line_start) + 1,
                        "a token of %zu bytes: isolde reads at most %zu", n, ISO_MAX_ATOM);
}

/* Intern an atom; atoms of up to 8 bytes (keys, "ok", "append", small
 * keywords) hit a direct-mapped cache instead of hashing their text. */
/* The bytes p[0, n), n <= 8, as a word that no other n bytes make: two
 * overlapping fixed-size loads (no call to memcpy for a variable size). */
static inline uint64_t iso_rd_short_key(const char *p, size_t n)
{
    if (n >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + n - 4, 4);
        return lo | (uint64_t)hi << 32;
    }
    return n ? (uint8_t)p[0] | (uint64_t)(uint8_t)p[n / 2] << 8 | (uint64_t)(uint8_t)p[n - 1] << 16 : 0;
}

static inline iso_val iso_rd_atom(iso_rd *rd, unsigned tag, const char *p, size_t n)
{
    if (n > 8) return iso_atom(rd->store, tag, p, n);
    uint64_t bytes = iso_rd_short_key(p, n);
    uint32_t tag_len = (uint32_t)(tag << 8 | n);
    struct iso_rd_short *e = &rd->cache[((bytes + tag_len) * 0x9e3779b97f4a7c15ull) >> 56];
    if (e->bytes != bytes || e->tag_len != tag_len) {
        e->bytes = bytes;
        e->tag_len = tag_len;
        e->v = iso_atom(rd->store, tag, p, n);
    }
    return e->v;
}

/* p[0..len) == text[0..len), len <= 16, text zero-padded to 16 bytes;
 * with 16 bytes readable at p, by two word compares. */
static inline int iso_rd_key_eq(const char *p, size_t avail, const char *text, size_t len)
{
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    avail = 0; /* the masks below pick bytes in little-endian order */
#endif
    if (avail < 16) return memcmp(p, text, len) == 0;
    uint64_t a, b, x, y;
    memcpy(&a, p, 8);
    memcpy(&b, p + 8, 8);
    memcpy(&x, text, 8);
    memcpy(&y, text + 8, 8);
    uint64_t m0 = len >= 8 ? ~0ull : (1ull << (8 * len)) - 1;
    uint64_t m1 = len >= 16 ? ~0ull : len <= 8 ? 0 : (1ull << (8 * (len - 8))) - 1;
    return (((a ^ x) & m0) | ((b ^ y) & m1)) == 0;
}

/* The key at the cursor, the place-th of its object or map, when its text
 * (with len bytes of what follows it) is that of the key at this place in
 * the previous one: its length in *len and its atom in *v. */
static inline int iso_rd_place_hit(const iso_rd *rd, size_t place, size_t *len, iso_val *v)
{
    const struct iso_rd_key *kp = place < 8 ? &rd->keys[place] : NULL;
    size_t avail = rd->len - rd->pos;
    if (!kp || !kp->len || avail <= kp->len || !iso_rd_key_eq(rd->p + rd->pos, avail, kp->text, kp->len))
        return 0;
    *len = kp->len;
    *v = kp->v;
    return 1;
}
/* Remember p[0..n) as the text of the key v at this place. */
static inline void iso_rd_place_keep(iso_rd *rd, size_t place, const char *p, size_t n, iso_val v)
{
    struct iso_rd_key *kp = place < 8 ? &rd->keys[place] : NULL;
    if (!kp || n > sizeof kp->text) return;
    memset(kp->text, 0, sizeof kp->text);
    memcpy(kp->text, p, n);
    kp->len = (uint32_t)n;
    kp->v = v;
}

/* A micro-op name at p that one of the last two was, with the same byte
 * after it: its length and atom, without scanning or hashing. */
static inline int iso_rd_name_hit(const iso_rd *rd, const char *p, const char *end, size_t *len,
                                  iso_val *v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (end - p < 8) return 0;
    uint64_t w;
    memcpy(&w, p, 8);
    for (int i = 0; i < 2; i++) {
        const struct iso_rd_name *n = &rd->names[i];
        if (n->mask && ((w ^ n->word) & n->mask) == 0) {
            *len = n->len;
            *v = n->v;
            return 1;
        }
    }
#else
    (void)rd; (void)p; (void)end; (void)len; (void)v;
#endif
    return 0;
}
/* Remember the name p[0..len) (with the byte p[len] after it) as v. */
static inline void iso_rd_name_keep(iso_rd *rd, const char *p, size_t len, iso_val v)
{
    if (len + 1 > 8) return;
    struct iso_rd_name *n = &rd->names[rd->name_next ^= 1];
    n->word = 0;
    memcpy(&n->word, p, len + 1);
    n->mask = len + 1 == 8 ? ~0ull : (1ull << (8 * (len + 1))) - 1;
    n->len = (uint32_t)len;
    n->v = v;
}

/* The keys of an op map read field by field (no map built): a key seen
 * twice, or more than 8 keys that are no op field, send the map to the
 * general parser, which builds it and so judges repeated keys. The op
 * fields are told apart at the end, by counting (no test per key). */
typedef struct iso_rd_keys { iso_val other[8]; unsigned n_other; } iso_rd_keys;
/* Key k, no op field, is new in this map: 1; else 0. */
static inline int iso_rd_other_key_new(iso_rd_keys *ks, iso_val k)
{
    for (unsigned i = 0; i < ks->n_other; i++)
        if (ks->other[i] == k) return 0;
    if (ks->n_other == 8) return 0;
    ks->other[ks->n_other++] = k;
    return 1;
}
/* The n keys read were all different: as many as the fields set (have[],
 * 8 bytes of 0 or 1) and the other keys. */
static inline int iso_rd_keys_distinct(const uint8_t have[8], const iso_rd_keys *ks, size_t n)
{
    uint64_t w;
    memcpy(&w, have, 8);
    return (size_t)__builtin_popcountll(w) + ks->n_other == n;
}

/* The cursor and stacks as they were, to read a form again. */
typedef struct iso_rd_mark { size_t pos, line, line_start, n_items, n_frames; } iso_rd_mark;
static inline iso_rd_mark iso_rd_save(const iso_rd *rd)
{
    return (iso_rd_mark){rd->pos, rd->line, rd->line_start, rd->n_items, rd->n_frames};
}
/* Back to m; returns 0 (for "nothing read"). */
static inline int iso_rd_restore(iso_rd *rd, const iso_rd_mark *m)
{
    rd->pos = m->pos;
    rd->line = m->line;
    rd->line_start = m->line_start;
    rd->n_items = m->n_items;
    rd->n_frames = m->n_frames;
    return 0;
}

/* Open a frame (fails past ISO_MAX_DEPTH open frames above base). */
int iso_rd_open(iso_rd *rd, size_t base, uint8_t kind);
static inline void iso_rd_item(iso_rd *rd, iso_val v)
{
    if (rd->n_items == rd->cap_items) ISO_GROW(rd->items, rd->cap_items, rd->n_items + 1);
    rd->items[rd->n_items++] = v;
}
/* A read list's element in its usual form, one or two digits (the first
 * at least lo) and then sep, pushed as an item; 0 when it is not. */
static inline int iso_rd_small_item(iso_rd *rd, const char **q, const char *end, char lo, char sep)
{
    const char *p = *q;
    if (end - p <= 2 || (unsigned)(*p - lo) >= (unsigned)('9' - lo + 1)) return 0;
    if (p[1] == sep) {
        iso_rd_item(rd, iso_int(*p - '0'));
        *q = p + 2;
        return 1;
    }
    if ((unsigned)(p[1] - '0') < 10 && p[2] == sep) {
        iso_rd_item(rd, iso_int((*p - '0') * 10 + (p[1] - '0')));
        *q = p + 3;
        return 1;
    }
    return 0;
}

/* The last list a micro-op of a key held, as its text in the input: a
 * read of a list-append key repeats or extends the last one read, so the
 * part they share need not be parsed again. len: the text up to the end of
 * its last element; full: up to and with its closing bracket. */
struct iso_rd_list { iso_val key, v; const char *text; uint32_t len, full; };
enum { ISO_RD_LIST_NEW, ISO_RD_LIST_EXTENDS, ISO_RD_LIST_SAME };
/* At the '[' at *q of key's list: SAME when it is "[]" or the text of the
 * last list kept for key (*out its value, *q past the ']'); EXTENDS when
 * that one, not empty, ends where an element of this one ends (its items
 * pushed, *q at the byte after them, a separator); NEW otherwise (*q past
 * the '['). Bytes parse alike wherever they are, so either way the value
 * is the one parsing would give. */
int iso_rd_list_start(iso_rd *rd, iso_val key, const char **q, const char *end, iso_val *out);
/* The list of key read from open ('[') to close (']'), its items those
 * pushed since base: stored, popped, and kept for iso_rd_list_start. */
iso_val iso_rd_list_end(iso_rd *rd, iso_val key, size_t base, const char *open, const char *close);

/* Pop the top frame, copying its items into a composite of kind: 0, or
 * -1 when it holds more than ISO_MAX_ITEMS, or (maps and sets) a key
 * twice: in EDN, as Clojure's reader has it, and in JSON too (a history,
 * an exec client's reply, any bare value), where which value was meant
 * cannot be told (parsers differ: first, last, either). */
int iso_rd_close(iso_rd *rd, enum iso_seq_kind kind, int json, iso_val *out);
/* A composite of items (shared with a recent equal one when small). */
iso_val iso_rd_seq(iso_rd *rd, enum iso_seq_kind kind, const iso_val *items, size_t n);

/* A string at pos (on its opening quote), with EDN's escapes or JSON's
 * (json: raw control characters are errors). */
int iso_rd_string(iso_rd *rd, iso_val *out, int json);
/* An integer from optional sign and decimal digits (validated by the
 * caller): inline when it fits, else an exact BIG atom. */
iso_val iso_rd_int(iso_rd *rd, const char *p, size_t n);
/* Append the UTF-8 encoding of code point cp to the scratch buffer. */
void iso_rd_utf8(iso_rd *rd, uint32_t cp);
/* Four hex digits at p (bounds checked by the caller); -1 if not hex. */
long iso_rd_hex4(const char *p);

/* Forget composite v if it is the last one stored (its items live on as
 * separate values): for maps read only to pick fields from. */
void iso_rd_drop(iso_rd *rd, iso_val v);
/* With h->drop_input, give the pages of the input the cursor has passed
 * back to the kernel every ISO_DROP_CHUNK bytes (a file mapping's pages
 * would otherwise all stay resident until the end). */
#define ISO_DROP_CHUNK ((size_t)8 << 20)
void iso_rd_consumed(iso_rd *rd);
/* Hand a parsed op map to the history, then drop the map's own words (its
 * fields live on as separate values) and consumed input. */
int iso_rd_add_op(iso_rd *rd, iso_val map, uint32_t line, uint32_t col);

#endif
