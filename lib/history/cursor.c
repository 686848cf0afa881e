/* history/cursor.c -- the cursor, stacks, numbers and errors the readers share. */
#include "history/cursor.h"

#include <stdarg.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void iso_rd_init(iso_rd *rd, isolde_history *h, const char *buf, size_t len,
                 isolde_error *err)
{
    memset(rd, 0, sizeof *rd);
    rd->p = buf;
    rd->len = len;
    rd->line = h->line_base + 1;
    rd->store = &h->store;
    rd->name = h->name;
    rd->drop_input = h->drop_input;
    rd->h = h;
    rd->err = err;
}

void iso_rd_init_store(iso_rd *rd, iso_store *s, const char *name, const char *buf, size_t len,
                       isolde_error *err)
{
    memset(rd, 0, sizeof *rd);
    rd->p = buf;
    rd->len = len;
    rd->line = 1;
    rd->store = s;
    rd->name = name;
    rd->err = err;
}

void iso_rd_release(iso_rd *rd)
{
    iso_free(rd->items);
    iso_free(rd->frames);
    iso_free(rd->cons);
    iso_free(rd->lists);
    iso_buf_free(&rd->scratch);
}

static int vfail(iso_rd *rd, isolde_status code, size_t line, size_t col, const char *fmt, va_list ap)
{
    char msg[sizeof rd->err->msg];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return iso_fail(rd->err, code, rd->name, (long)line, (long)col, "%s", msg);
}

int iso_rd_fail(iso_rd *rd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(rd, ISOLDE_ERR_PARSE, rd->line, (size_t)iso_rd_col(rd), fmt, ap);
    va_end(ap);
    return -1;
}

int iso_rd_fail_at(iso_rd *rd, size_t line, size_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(rd, ISOLDE_ERR_PARSE, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

int iso_rd_limit(iso_rd *rd, size_t line, size_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(rd, ISOLDE_ERR_LIMIT, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

int iso_rd_unexpected(iso_rd *rd, const char *expected)
{
    if (iso_rd_eof(rd)) {
        rd->ran_out = 1;
        return iso_rd_fail(rd, "unexpected end of input, expected %s", expected);
    }
    unsigned char c = (unsigned char)rd->p[rd->pos];
    if (rd->len - rd->pos >= 3 && memcmp(rd->p + rd->pos, "\xef\xbb\xbf", 3) == 0)
        return iso_rd_fail(rd, "a byte order mark (0xef 0xbb 0xbf) inside the input, expected %s "
                               "(were files joined together?)", expected);
    if (c > 32 && c < 127)
        return iso_rd_fail(rd, "unexpected '%c', expected %s", c, expected);
    return iso_rd_fail(rd, "unexpected byte 0x%02x, expected %s", c, expected);
}

int iso_rd_open(iso_rd *rd, size_t base, uint8_t kind)
{
    if (rd->n_frames - base >= ISO_MAX_DEPTH)
        return iso_rd_limit(rd, rd->line, (size_t)iso_rd_col(rd), "nesting deeper than %d", ISO_MAX_DEPTH);
    ISO_GROW(rd->frames, rd->cap_frames, rd->n_frames + 1);
    rd->frames[rd->n_frames++] = (struct iso_rd_frame){
        rd->pos, rd->n_items, iso_rd_u32(rd->line), iso_rd_u32((size_t)iso_rd_col(rd)), kind};
    return 0;
}

/* Composites up to 64 items that repeat nearby share one place in the
 * store: micro-ops such as [:append 3 41], which an invocation and its
 * completion both carry, and the read lists concurrent transactions
 * observe alike. A 1M-transaction list-append history reads in 100 MB
 * less, and faster: fresh memory costs more than the hashing. Items compare
 * as words, so a composite holding an unshared one is merely not found
 * again. Maps are not shared (op maps are dropped after use). */
static int consable(enum iso_seq_kind kind, size_t n)
{
    return kind != ISO_SEQ_MAP && n <= 64;
}

static uint32_t cons_hash(enum iso_seq_kind kind, const iso_val *items, size_t n)
{
    uint64_t h = (uint64_t)kind << 8 | n;
    for (size_t i = 0; i < n; i++) h = (h ^ items[i]) * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32);
}

/* The cache of stored composites: direct-mapped and small enough to stay in
 * cache. It finds what repeats nearby -- an invocation's micro-ops again in
 * its completion, a version many concurrent transactions read -- at a
 * fraction of the cost of remembering every composite. 4096 slots (32 KB)
 * stay in the core's cache while the input streams past; 65536 missed it
 * on most lookups: 5-8% more CPU on 100k-transaction histories, for 2.5%
 * less memory at 1M (a repeat of a key's last read list is found by
 * iso_rd_list_start anyway). */
#define CONS_SLOTS ((size_t)1 << 12)

static iso_val cons(iso_rd *rd, enum iso_seq_kind kind, const iso_val *items, size_t n)
{
    iso_store *s = rd->store;
    uint32_t hash = cons_hash(kind, items, n);
    if (!rd->cons) {
        rd->cons = iso_xcalloc(CONS_SLOTS, sizeof *rd->cons);
        rd->cap_cons = CONS_SLOTS;
    }
    struct iso_rd_cons *c = &rd->cons[hash & (CONS_SLOTS - 1)];
    if (c->off1 && c->hash == hash) {
        const iso_val *w = s->words + c->off1 - 1;
        size_t i = 0;
        if (w[0] == ((uint64_t)kind << 32 | n))
            while (i < n && w[1 + i] == items[i]) i++; /* short: no memcmp call */
        if (w[0] == ((uint64_t)kind << 32 | n) && i == n) return iso_mk(ISO_TAG_SEQ, c->off1 - 1);
    }
    iso_val v = iso_seq(s, kind, items, n);
    if (iso_payload(v) < UINT32_MAX) *c = (struct iso_rd_cons){(uint32_t)iso_payload(v) + 1, hash};
    return v;
}

iso_val iso_rd_seq(iso_rd *rd, enum iso_seq_kind kind, const iso_val *items, size_t n)
{
    return consable(kind, n) ? cons(rd, kind, items, n) : iso_seq(rd->store, kind, items, n);
}

#define LIST_SLOTS ((size_t)1 << 12)

static struct iso_rd_list *list_slot(iso_rd *rd, iso_val key)
{
    if (!rd->lists) rd->lists = iso_xcalloc(LIST_SLOTS, sizeof *rd->lists);
    return &rd->lists[(key * 0x9e3779b97f4a7c15ull) >> 52];
}

int iso_rd_list_start(iso_rd *rd, iso_val key, const char **q, const char *end, iso_val *out)
{
    const char *p = *q;
    size_t avail = (size_t)(end - p);
    if (avail > 1 && p[1] == ']') {
        iso_val none = ISO_NIL;
        *out = iso_rd_seq(rd, ISO_SEQ_VEC, &none, 0);
        *q = p + 2;
        return ISO_RD_LIST_SAME;
    }
    const struct iso_rd_list *l = list_slot(rd, key);
    *q = p + 1;
    if (!l->text || l->key != key || avail <= l->len || memcmp(p, l->text, l->len) != 0)
        return ISO_RD_LIST_NEW;
    if (avail >= l->full && memcmp(p + l->len, l->text + l->len, l->full - l->len) == 0) {
        *out = l->v;
        *q = p + l->full;
        return ISO_RD_LIST_SAME;
    }
    size_t n = iso_seq_len(rd->store, l->v);
    if (n == 0 || (p[l->len] != ',' && p[l->len] != ' ')) return ISO_RD_LIST_NEW;
    if (rd->n_items + n > rd->cap_items) ISO_GROW(rd->items, rd->cap_items, rd->n_items + n);
    iso_val buf[3];
    memcpy(rd->items + rd->n_items, iso_seq_items(rd->store, l->v, buf), n * sizeof *rd->items);
    rd->n_items += n;
    *q = p + l->len;
    return ISO_RD_LIST_EXTENDS;
}

/* The items of the stack from base on (never NULL + 0: the stack is
 * unallocated until the first item). */
static const iso_val *items_from(const iso_rd *rd, size_t base)
{
    static const iso_val none[1];
    return rd->items ? rd->items + base : none;
}

iso_val iso_rd_list_end(iso_rd *rd, iso_val key, size_t base, const char *open, const char *close)
{
    iso_val v = iso_rd_seq(rd, ISO_SEQ_VEC, items_from(rd, base), rd->n_items - base);
    rd->n_items = base;
    const char *last = close;
    while (last > open + 1 && (last[-1] == ' ' || last[-1] == ',')) last--;
    if ((uint64_t)(close - open) < UINT32_MAX)
        *list_slot(rd, key) = (struct iso_rd_list){key, v, open, (uint32_t)(last - open),
                                                   (uint32_t)(close - open + 1)};
    return v;
}

/* Keys of a map (stride 2) or the items of a set (stride 1) in it[0, n):
 * 1 with *key the first that a later one repeats, or 0. Small ones are
 * compared pairwise, larger ones through a table of positions by hash. */
static int repeated_keys(const iso_store *s, const iso_val *it, size_t n, size_t stride, iso_val *key)
{
    size_t keys = n / stride, first = SIZE_MAX, slots = 16;
    if (keys < 2) return 0;
    while (slots < 2 * keys) slots *= 2;
    uint32_t *table = keys > 16 ? iso_xcalloc(slots, sizeof *table) : NULL; /* position + 1 */
    for (size_t i = keys; i-- > 0;) { /* from the last: the first repeated is the last found */
        iso_val k = it[i * stride];
        int seen = 0;
        if (!table) {
            for (size_t j = i + 1; j < keys && !seen; j++) seen = iso_val_eq(s, k, it[j * stride]);
        } else {
            size_t at = iso_val_hash(s, k) & (slots - 1);
            for (; table[at] && !seen; at = (at + 1) & (slots - 1)) seen = iso_val_eq(s, k, it[(table[at] - 1) * stride]);
            if (!seen) table[at] = (uint32_t)i + 1;
        }
        if (seen) first = i;
    }
    if (first != SIZE_MAX) *key = it[first * stride];
    iso_free(table);
    return first != SIZE_MAX;
}

int iso_rd_close(iso_rd *rd, enum iso_seq_kind kind, int json, iso_val *out)
{
    struct iso_rd_frame *f = &rd->frames[rd->n_frames - 1];
    size_t n = rd->n_items - f->items;
    iso_val none[1];
    iso_val *it = rd->items ? rd->items + f->items : none; /* never NULL + 0, nor NULL to memcpy */
    if (n > ISO_MAX_ITEMS)
        return iso_rd_limit(rd, f->line, f->col, "a collection of more than %zu items", ISO_MAX_ITEMS);
    iso_val key;
    if ((kind == ISO_SEQ_MAP || kind == ISO_SEQ_SET) &&
        repeated_keys(rd->store, it, n, kind == ISO_SEQ_MAP ? 2 : 1, &key)) {
        char d[80];
        iso_val_words(rd->store, key, json, d, sizeof d);
        return iso_rd_fail_at(rd, f->line, f->col, "%s %s twice in this %s (%s)", kind == ISO_SEQ_MAP ? "key" : "item",
                              d, json ? "object" : kind == ISO_SEQ_MAP ? "map" : "set",
                              json ? "which value was meant cannot be told" : "EDN allows each once");
    }
    rd->n_frames--;
    *out = iso_rd_seq(rd, kind, it, n);
    rd->n_items = f->items;
    return 0;
}

iso_val iso_rd_int(iso_rd *rd, const char *p, size_t n)
{
    if (n <= 17 && p[0] != '-' && p[0] != '+') { /* the common case: < 10^17 */
        int64_t v = 0;
        for (size_t i = 0; i < n; i++) v = v * 10 + (p[i] - '0');
        return iso_int(v);
    }
    int neg = n && p[0] == '-';
    if (n && (p[0] == '-' || p[0] == '+')) { p++; n--; }
    while (n > 1 && p[0] == '0') { p++; n--; }
    if (n <= 18) { /* < 10^18 < 2^63: no overflow */
        int64_t v = 0;
        for (size_t i = 0; i < n; i++) v = v * 10 + (p[i] - '0');
        if (neg) v = -v;
        if (iso_int_fits(v)) return iso_int(v);
    }
    /* Exact decimal text, normalised: '-' only when negative, no zeros. */
    rd->scratch.n = 0;
    if (neg) iso_buf_put(&rd->scratch, "-", 1);
    iso_buf_put(&rd->scratch, p, n);
    return iso_int_text(rd->store, rd->scratch.p, rd->scratch.n);
}

void iso_rd_utf8(iso_rd *rd, uint32_t cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (char)cp; n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xc0 | cp >> 6); b[1] = (char)(0x80 | (cp & 63)); n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xe0 | cp >> 12); b[1] = (char)(0x80 | ((cp >> 6) & 63));
        b[2] = (char)(0x80 | (cp & 63)); n = 3;
    } else {
        b[0] = (char)(0xf0 | cp >> 18); b[1] = (char)(0x80 | ((cp >> 12) & 63));
        b[2] = (char)(0x80 | ((cp >> 6) & 63)); b[3] = (char)(0x80 | (cp & 63)); n = 4;
    }
    iso_buf_put(&rd->scratch, b, n);
}

long iso_rd_hex4(const char *p)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

void iso_rd_drop(iso_rd *rd, iso_val v)
{
    iso_store *s = rd->store;
    size_t off = (size_t)iso_payload(v);
    if (iso_tag(v) == ISO_TAG_SEQ && off + 1 + iso_seq_len(s, v) == s->n_words) s->n_words = off;
}

/* One escape after the backslash at pos, appended to scratch: the
 * single-character ones in from (meaning to), or \uXXXX (with JSON's
 * surrogate pairs). */
static int escape(iso_rd *rd, const char *from, const char *to)
{
    char c = rd->pos + 1 < rd->len ? rd->p[rd->pos + 1] : 0;
    const char *e = c ? strchr(from, c) : NULL;
    if (e) {
        iso_buf_put(&rd->scratch, &to[e - from], 1);
        rd->pos += 2;
        return 0;
    }
    long cp = c == 'u' && rd->pos + 6 <= rd->len ? iso_rd_hex4(rd->p + rd->pos + 2) : -1;
    if (cp < 0) /* ran out: a backslash or "\\u12" last */
        return rd->ran_out = !c || (c == 'u' && rd->pos + 6 > rd->len), iso_rd_fail(rd, "invalid escape in string");
    rd->pos += 6;
    if (cp >= 0xd800 && cp < 0xdc00 && rd->pos + 6 <= rd->len &&
        rd->p[rd->pos] == '\\' && rd->p[rd->pos + 1] == 'u') {
        long lo = iso_rd_hex4(rd->p + rd->pos + 2);
        if (lo >= 0xdc00 && lo < 0xe000) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            rd->pos += 6;
        }
    }
    iso_rd_utf8(rd, (uint32_t)cp);
    return 0;
}

/* The general case of iso_rd_string: escapes, raw control bytes, errors. */
__attribute__((noinline)) static int string_slow(iso_rd *rd, iso_val *out, int json)
{
    static const char *const from[] = {"\"\\'bfnrt", "\"\\/bfnrt"};
    static const char *const to[] = {"\"\\'\b\f\n\r\t", "\"\\/\b\f\n\r\t"};
    size_t line = rd->line, col = (size_t)iso_rd_col(rd), start = ++rd->pos;
    int escaped = 0;
    rd->scratch.n = 0;
    while (rd->pos < rd->len) {
        char c = rd->p[rd->pos];
        if (c == '"') {
            const char *p = escaped ? rd->scratch.p : rd->p + start;
            size_t n = escaped ? rd->scratch.n : rd->pos - start;
            if (n > ISO_MAX_ATOM)
                return iso_rd_limit(rd, line, col, "a string of %zu bytes: isolde reads at most %zu", n,
                                    ISO_MAX_ATOM);
            *out = iso_rd_atom(rd, ISO_TAG_STR, p, n);
            rd->pos++;
            return 0;
        }
        if (c == '\\') {
            if (!escaped) iso_buf_put(&rd->scratch, rd->p + start, rd->pos - start);
            escaped = 1;
            if (escape(rd, from[json], to[json]) != 0) return -1;
            continue;
        }
        if (json && (unsigned char)c < 0x20) {
            if (c == '\n') break;
            return iso_rd_fail(rd, "control character 0x%02x in string", (unsigned char)c);
        }
        if (c == '\n') iso_rd_newline(rd);
        if (escaped) iso_buf_put(&rd->scratch, &c, 1);
        rd->pos++;
    }
    rd->ran_out = rd->pos >= rd->len;
    return iso_rd_fail_at(rd, line, col, "unterminated string");
}

int iso_rd_string(iso_rd *rd, iso_val *out, int json)
{
    const char *p = rd->p;
    size_t start = rd->pos + 1, i = start;
    while (i < rd->len && p[i] != '"' && p[i] != '\\' && (unsigned char)p[i] >= 0x20) i++;
    if (i == rd->len || p[i] != '"') return string_slow(rd, out, json);
    if (__builtin_expect(i - start > ISO_MAX_ATOM, 0)) return string_slow(rd, out, json); /* its error */
    *out = iso_rd_atom(rd, ISO_TAG_STR, p + start, i - start);
    rd->pos = i + 1;
    return 0;
}

void iso_rd_consumed(iso_rd *rd)
{
    if (!rd->drop_input || rd->pos - rd->dropped < ISO_DROP_CHUNK) return;
    iso_drop_pages((void *)(uintptr_t)(rd->p + rd->dropped), rd->pos - rd->dropped);
    rd->dropped = rd->pos;
}

int iso_rd_add_op(iso_rd *rd, iso_val map, uint32_t line, uint32_t col)
{
    if (iso_history_add_op_map(rd->h, map, line, col, rd->err) != 0) return -1;
    iso_rd_drop(rd, map);
    iso_rd_consumed(rd);
    return 0;
}

