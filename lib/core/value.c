/* core/value.c -- interning of atoms, composite storage and printing of values. */
#include "core/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void iso_store_init(iso_store *s) { memset(s, 0, sizeof *s); }

void iso_store_free(iso_store *s)
{
    iso_free(s->atoms);
    iso_free(s->text);
    iso_free(s->slots);
    iso_free(s->words);
    memset(s, 0, sizeof *s);
}

static uint32_t hash_bytes(unsigned tag, const char *p, size_t n)
{
    uint32_t h = 2166136261u ^ tag;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)p[i]) * 16777619u;
    return h;
}

static int atom_eq(const iso_store *s, const struct iso_atom *a, unsigned tag,
                   const char *p, size_t n)
{
    return a->tag == tag && a->len == n && memcmp(s->text + a->off, p, n) == 0;
}

/* Every atom of s into the empty table slots[0, n). */
static void fill_slots(const iso_store *s, uint32_t *slots, size_t n)
{
    for (size_t id = 0; id < s->n_atoms; id++) {
        size_t i = s->atoms[id].hash & (n - 1);
        while (slots[i]) i = (i + 1) & (n - 1);
        slots[i] = (uint32_t)id + 1;
    }
}

/* The atom table at n slots (a power of two above twice the atoms). */
static void rehash_to(iso_store *s, size_t n)
{
    uint32_t *slots = iso_xcalloc(n, sizeof *slots);
    fill_slots(s, slots, n);
    iso_free(s->slots);
    s->slots = slots;
    s->n_slots = n;
}

void iso_store_truncate(iso_store *s, size_t atoms)
{
    s->n_words = 0;
    if (atoms >= s->n_atoms) return;
    s->n_text = s->atoms[atoms].off;
    s->n_atoms = atoms;
    memset(s->slots, 0, s->n_slots * sizeof *s->slots);
    fill_slots(s, s->slots, s->n_slots);
}

static void rehash(iso_store *s) { rehash_to(s, s->n_slots ? s->n_slots * 2 : 1024); }

void iso_store_reserve(iso_store *s, size_t atoms, size_t text, size_t words, const void *owner)
{
    iso_grow_for((void **)&s->atoms, &s->cap_atoms, s->n_atoms + atoms, sizeof *s->atoms, owner);
    iso_grow_for((void **)&s->text, &s->cap_text, s->n_text + text + 1, 1, owner);
    iso_grow_for((void **)&s->words, &s->cap_words, s->n_words + words + 1, sizeof *s->words, owner);
    size_t n = s->n_slots ? s->n_slots : 1024;
    while ((s->n_atoms + atoms + 1) * 2 >= n) n *= 2;
    if (n != s->n_slots) {
        rehash_to(s, n);
        iso_adopt(s->slots, owner);
    }
}

/* The slot holding atom (tag, text) of hash h, or the empty slot where it
 * would go. */
static size_t atom_slot(const iso_store *s, unsigned tag, const char *p, size_t n, uint32_t h)
{
    size_t i = h & (s->n_slots - 1);
    for (; s->slots[i]; i = (i + 1) & (s->n_slots - 1)) {
        uint32_t id = s->slots[i] - 1;
        if (s->atoms[id].hash == h && atom_eq(s, &s->atoms[id], tag, p, n)) break;
    }
    return i;
}

iso_val iso_atom(iso_store *s, unsigned tag, const char *p, size_t n)
{
    if (s->n_atoms * 2 >= s->n_slots) rehash(s);
    uint32_t h = hash_bytes(tag, p, n);
    size_t i = atom_slot(s, tag, p, n, h);
    if (s->slots[i]) return iso_mk(tag, s->slots[i] - 1);
    ISO_GROW(s->text, s->cap_text, s->n_text + n + 1);
    memcpy(s->text + s->n_text, p, n);
    s->text[s->n_text + n] = 0;
    ISO_GROW(s->atoms, s->cap_atoms, s->n_atoms + 1);
    s->atoms[s->n_atoms] = (struct iso_atom){s->n_text, (uint32_t)n, h, (uint8_t)tag};
    s->n_text += n + 1;
    s->slots[i] = (uint32_t)s->n_atoms + 1;
    return iso_mk(tag, s->n_atoms++);
}

/* The atom (tag, text) if the store has it, else ISO_NO_VAL. */
static iso_val atom_find(const iso_store *s, unsigned tag, const char *p, size_t n)
{
    if (!s->n_slots) return ISO_NO_VAL;
    size_t i = atom_slot(s, tag, p, n, hash_bytes(tag, p, n));
    return s->slots[i] ? iso_mk(tag, s->slots[i] - 1) : ISO_NO_VAL;
}

void iso_name_atoms_find(const iso_store *s, const char *name, iso_name_atoms *out)
{
    static const unsigned tags[3] = {ISO_TAG_KW, ISO_TAG_STR, ISO_TAG_SYM};
    for (int i = 0; i < 3; i++) out->v[i] = atom_find(s, tags[i], name, strlen(name));
}

iso_val iso_int_text(iso_store *s, const char *p, size_t n)
{
    size_t i = (n && (p[0] == '-' || p[0] == '+')) ? 1 : 0;
    if (n - i <= 17) { /* < 10^17 < 2^59: cannot overflow */
        int64_t v = 0;
        for (size_t j = i; j < n; j++) v = v * 10 + (p[j] - '0');
        return iso_int(p[0] == '-' ? -v : v);
    }
    /* Keep larger integers exactly, normalised without a leading '+'. */
    if (p[0] == '+') { p++; n--; }
    return iso_atom(s, ISO_TAG_BIG, p, n);
}

int iso_big_int64(const iso_store *s, iso_val v, int64_t *out)
{
    if (iso_tag(v) != ISO_TAG_BIG) return 0;
    size_t n;
    const char *p = iso_atom_text(s, v, &n);
    int neg = n && p[0] == '-';
    uint64_t m = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (size_t i = (size_t)neg; i < n; i++) {
        unsigned d = (unsigned)(p[i] - '0');
        if (d > 9 || m > (lim - d) / 10) return 0;
        m = m * 10 + d;
    }
    *out = !neg ? (int64_t)m : m > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)m;
    return 1;
}

const char *iso_atom_text(const iso_store *s, iso_val v, size_t *len)
{
    const struct iso_atom *a = &s->atoms[iso_payload(v)];
    if (len) *len = a->len;
    return s->text + a->off;
}

const char *iso_name_text(const iso_store *s, iso_val v, size_t *len)
{
    unsigned t = iso_tag(v);
    return t == ISO_TAG_KW || t == ISO_TAG_STR || t == ISO_TAG_SYM ? iso_atom_text(s, v, len) : NULL;
}

int iso_name_is(const iso_store *s, iso_val v, const char *name)
{
    size_t n;
    const char *p = iso_name_text(s, v, &n);
    return p && n == strlen(name) && memcmp(p, name, n) == 0;
}

iso_val iso_seq(iso_store *s, enum iso_seq_kind kind, const iso_val *items, size_t n)
{
    ISO_GROW(s->words, s->cap_words, s->n_words + n + 1);
    size_t off = s->n_words;
    s->words[off] = ((uint64_t)kind << 32) | (uint64_t)n;
    if (n) memcpy(s->words + off + 1, items, n * sizeof *items);
    s->n_words += n + 1;
    return iso_mk(ISO_TAG_SEQ, off);
}

iso_val iso_map_get(const iso_store *s, iso_val map, const char *key, int *found)
{
    *found = 0;
    if (!iso_is_seq(map) || iso_seq_kind(s, map) != ISO_SEQ_MAP) return ISO_NIL;
    size_t n = iso_seq_len(s, map), klen = strlen(key);
    const iso_val *it = iso_seq_words(s, map); /* a map: stored */
    for (size_t i = 0; i + 1 < n; i += 2) {
        unsigned t = iso_tag(it[i]);
        if (t != ISO_TAG_KW && t != ISO_TAG_STR) continue;
        size_t len;
        const char *p = iso_atom_text(s, it[i], &len);
        if (len == klen && memcmp(p, key, klen) == 0) {
            *found = 1;
            return it[i + 1];
        }
    }
    return ISO_NIL;
}

/* Composites: same kind, same items. */
int iso_vals_eq(const iso_store *s, const iso_val *a, const iso_val *b, size_t n)
{
    if (a == b || !n || memcmp(a, b, n * sizeof *a) == 0) return 1;
    for (size_t i = 0; i < n; i++)
        if (!iso_val_eq(s, a[i], b[i])) return 0;
    return 1;
}

int iso_val_eq_seq(const iso_store *s, iso_val a, iso_val b)
{
    size_t n = iso_seq_len(s, a);
    if (iso_seq_kind(s, a) != iso_seq_kind(s, b) || n != iso_seq_len(s, b)) return 0;
    iso_val ba[3], bb[3];
    return iso_vals_eq(s, iso_seq_items(s, a, ba), iso_seq_items(s, b, bb), n);
}

uint64_t iso_val_hash_seq(const iso_store *s, iso_val v)
{
    size_t n = iso_seq_len(s, v);
    iso_val buf[3];
    const iso_val *it = iso_seq_items(s, v, buf);
    uint64_t h = 0x9e3779b97f4a7c15ull ^ iso_seq_kind(s, v);
    for (size_t i = 0; i < n; i++) h = (h ^ iso_val_hash(s, it[i])) * 0x100000001b3ull;
    return iso_mix64(h);
}

void iso_vals_first(const iso_store *s, const iso_val *v, size_t n, uint32_t *first)
{
    size_t mask = 15;
    while (mask < 2 * n) mask = 2 * mask + 1;
    uint32_t *slot = iso_xcalloc(mask + 1, sizeof *slot); /* first occurrence + 1 */
    for (size_t i = 0; i < n; i++) {
        size_t h = (size_t)iso_val_hash(s, v[i]) & mask;
        while (slot[h] && !iso_val_eq(s, v[slot[h] - 1], v[i])) h = (h + 1) & mask;
        if (!slot[h]) slot[h] = (uint32_t)i + 1;
        first[i] = slot[h] - 1;
    }
    iso_free(slot);
}

static void print_seq(const iso_store *s, iso_val v, iso_buf *out, int json)
{
    static const char *open_edn[] = {"[", "(", "#{", "{"}, *close_edn[] = {"]", ")", "}", "}"};
    enum iso_seq_kind k = iso_seq_kind(s, v);
    size_t n = iso_seq_len(s, v);
    iso_val buf[3];
    const iso_val *it = iso_seq_items(s, v, buf);
    int map = k == ISO_SEQ_MAP;
    iso_buf_puts(out, json ? (map ? "{" : "[") : open_edn[k]);
    for (size_t i = 0; i < n; i++) {
        if (i) iso_buf_puts(out, json ? (map && (i & 1) ? ":" : ",")
                                      : (map && (i & 1) ? " " : (map ? ", " : " ")));
        if (json && map && !(i & 1) && iso_tag(it[i]) != ISO_TAG_STR && iso_tag(it[i]) != ISO_TAG_KW) {
            iso_buf tmp = {0}; /* JSON object keys must be strings */
            iso_val_json(s, it[i], &tmp);
            iso_json_string(out, iso_buf_cstr(&tmp), tmp.n);
            iso_buf_free(&tmp);
        } else if (json) {
            iso_val_json(s, it[i], out);
        } else {
            iso_val_edn(s, it[i], out);
        }
    }
    iso_buf_puts(out, json ? (map ? "}" : "]") : close_edn[k]);
}

void iso_json_string(iso_buf *out, const char *p, size_t n)
{
    iso_buf_put(out, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        size_t k = c >= 0x80 ? iso_utf8_len((const unsigned char *)p + i, n - i) : 1;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            iso_buf_put(out, e, 2);
        } else if (c < 0x20) {
            iso_buf_printf(out, "\\u%04x", c);
        } else if (!k) { /* not UTF-8: U+FFFD, as a JVM reader of the bytes makes it */
            iso_buf_puts(out, "\\ufffd");
        } else {
            iso_buf_put(out, p + i, k);
            i += k - 1;
        }
    }
    iso_buf_put(out, "\"", 1);
}

static size_t digits(const char *p, size_t i, size_t n)
{
    while (i < n && p[i] >= '0' && p[i] <= '9') i++;
    return i;
}

/* Whether p[0, n) is a number in JSON's grammar (EDN's 10., 1.5M, 3/4,
 * +1, ##Inf are not). */
static int json_number(const char *p, size_t n)
{
    size_t i = n && p[0] == '-', j = digits(p, i, n);
    if (j == i || (p[i] == '0' && j > i + 1)) return 0;
    if (j < n && p[j] == '.') {
        size_t k = digits(p, j + 1, n);
        if (k == j + 1) return 0;
        j = k;
    }
    if (j < n && (p[j] == 'e' || p[j] == 'E')) {
        size_t e = j + 1 + (j + 1 < n && (p[j + 1] == '+' || p[j + 1] == '-')), k = digits(p, e, n);
        if (k == e) return 0;
        j = k;
    }
    return j == n;
}

static void print_atom(const iso_store *s, iso_val v, iso_buf *out, int json)
{
    size_t n;
    const char *p = iso_atom_text(s, v, &n);
    switch (iso_tag(v)) {
    case ISO_TAG_STR: iso_json_string(out, p, n); return;
    case ISO_TAG_KW:
        if (json) iso_json_string(out, p, n);
        else { iso_buf_put(out, ":", 1); iso_buf_put(out, p, n); }
        return;
    case ISO_TAG_CHAR:
        if (json) iso_json_string(out, p, n);
        else { iso_buf_put(out, "\\", 1); iso_buf_put(out, p, n); }
        return;
    case ISO_TAG_SYM: case ISO_TAG_FORM:
        if (json) iso_json_string(out, p, n);
        else iso_buf_put(out, p, n);
        return;
    default: /* BIG, FLOAT: numbers as written; in JSON a string when not JSON's */
        if (json && !json_number(p, n)) iso_json_string(out, p, n);
        else iso_buf_put(out, p, n);
    }
}

static void print_val(const iso_store *s, iso_val v, iso_buf *out, int json)
{
    switch (iso_tag(v)) {
    case ISO_TAG_INT: iso_buf_int(out, iso_as_int(v)); return;
    case ISO_TAG_NIL: iso_buf_puts(out, json ? "null" : "nil"); return;
    case ISO_TAG_BOOL: iso_buf_puts(out, v == ISO_TRUE ? "true" : "false"); return;
    case ISO_TAG_SEQ: case ISO_TAG_MOP: print_seq(s, v, out, json); return;
    default: print_atom(s, v, out, json);
    }
}

void iso_val_edn(const iso_store *s, iso_val v, iso_buf *out) { print_val(s, v, out, 0); }
void iso_val_json(const iso_store *s, iso_val v, iso_buf *out) { print_val(s, v, out, 1); }

const char *iso_val_words(const iso_store *s, iso_val v, int json, char *buf, size_t size)
{
    iso_buf b = {0};
    print_val(s, v, &b, json);
    snprintf(buf, size, "%s", iso_buf_cstr(&b));
    if (b.n >= size && size > 4) memcpy(buf + size - 4, "...", 4);
    iso_buf_free(&b);
    return buf;
}

int iso_val_cmp(const iso_store *s, iso_val a, iso_val b)
{
    if (a == b) return 0;
    unsigned ta = iso_tag(a), tb = iso_tag(b);
    if (ta == ISO_TAG_INT && tb == ISO_TAG_INT) {
        int64_t x = iso_as_int(a), y = iso_as_int(b);
        return x < y ? -1 : x > y;
    }
    if (ta != tb) return ta < tb ? -1 : 1;
    if (ta == ISO_TAG_SEQ || ta == ISO_TAG_MOP || ta == ISO_TAG_NIL || ta == ISO_TAG_BOOL)
        return a < b ? -1 : 1;
    size_t na, nb;
    const char *pa = iso_atom_text(s, a, &na), *pb = iso_atom_text(s, b, &nb);
    if (ta == ISO_TAG_BIG && na != nb) { /* same sign assumed rare; by length */
        int neg = pa[0] == '-';
        return (na < nb) ^ neg ? -1 : 1;
    }
    int c = memcmp(pa, pb, na < nb ? na : nb);
    return c ? c : (na < nb ? -1 : na > nb);
}
