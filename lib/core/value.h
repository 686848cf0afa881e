/*
 * core/value.h -- the values of a history: tagged 64-bit words.
 *
 * Every EDN/JSON datum a reader produces is one iso_val. Small integers
 * live in the word itself; strings, keywords, symbols, big integers,
 * floats and characters are interned into dense ids (so equal atoms are
 * equal words); vectors, lists, sets and maps live in the store's word
 * array as a header word followed by their items -- except the commonest
 * of all, a micro-op [name key value] of a small name, key and value, which
 * a reader packs into one word (ISO_TAG_MOP) instead of four. Both are
 * composites (iso_is_seq): their kind, length and items are read through
 * iso_seq_kind, iso_seq_len and iso_seq_items, which decodes a packed one.
 * Equality of atoms and integers is word equality; composites compare
 * structurally (iso_val_eq), packed or not.
 */
#ifndef ISO_VALUE_H
#define ISO_VALUE_H

#include <stdint.h>
#include <stddef.h>
#include "core/core.h"

typedef uint64_t iso_val;

enum iso_tag {
    ISO_TAG_INT = 0,  /* signed integer in [-2^59, 2^59) */
    ISO_TAG_NIL,      /* nil / null (one value) */
    ISO_TAG_BOOL,     /* true / false */
    ISO_TAG_STR,      /* "string" (interned) */
    ISO_TAG_KW,       /* :keyword (interned, text without the colon) */
    ISO_TAG_SYM,      /* symbol (interned) */
    ISO_TAG_BIG,      /* integer outside the inline range (decimal text) */
    ISO_TAG_FLOAT,    /* float or ratio (text as written) */
    ISO_TAG_CHAR,     /* EDN character \a (text after the backslash) */
    ISO_TAG_FORM,     /* other literal text kept as written (e.g. #inst) */
    ISO_TAG_SEQ,      /* vector / list / set / map in the word array */
    ISO_TAG_MOP       /* the vector [name key value], packed (iso_mop_pack) */
};
#define ISO_TAG_BITS 4
#define ISO_TAG_MASK ((iso_val)15)
#define ISO_INT_MAX ((int64_t)1 << 59) /* exclusive */

enum iso_seq_kind { ISO_SEQ_VEC = 0, ISO_SEQ_LIST, ISO_SEQ_SET, ISO_SEQ_MAP };

#define ISO_NIL ((iso_val)ISO_TAG_NIL)
#define ISO_TRUE (((iso_val)1 << ISO_TAG_BITS) | ISO_TAG_BOOL)
#define ISO_FALSE ((iso_val)ISO_TAG_BOOL)

static inline unsigned iso_tag(iso_val v) { return (unsigned)(v & ISO_TAG_MASK); }
static inline int iso_is_int(iso_val v) { return iso_tag(v) == ISO_TAG_INT; }
static inline int iso_is_nil(iso_val v) { return v == ISO_NIL; }
/* v is a composite: stored (ISO_TAG_SEQ) or a packed micro-op. */
static inline int iso_is_seq(iso_val v) { return iso_tag(v) == ISO_TAG_SEQ || iso_tag(v) == ISO_TAG_MOP; }
static inline int iso_int_fits(int64_t i) { return i >= -ISO_INT_MAX && i < ISO_INT_MAX; }
static inline iso_val iso_int(int64_t i) { return (iso_val)((uint64_t)i << ISO_TAG_BITS); }
static inline int64_t iso_as_int(iso_val v) { return (int64_t)(v & ~ISO_TAG_MASK) / 16; }
static inline uint64_t iso_payload(iso_val v) { return v >> ISO_TAG_BITS; }
static inline iso_val iso_mk(unsigned tag, uint64_t payload)
{
    return (payload << ISO_TAG_BITS) | tag;
}

/* Interned atoms and composite words of one history. */
typedef struct iso_store {
    /* atoms: id -> (tag, text) */
    struct iso_atom { uint64_t off; uint32_t len, hash; uint8_t tag; } *atoms;
    size_t n_atoms, cap_atoms;
    char *text;             /* atom bytes, NUL-separated */
    size_t n_text, cap_text;
    uint32_t *slots;        /* open-addressing table of atom id + 1 */
    size_t n_slots;
    iso_val *words;         /* composites: header (kind<<32 | len) + items */
    size_t n_words, cap_words;
    /* Packed micro-ops may name atoms 0 .. mop_names-1 (0: none are packed;
     * a history's first atoms are the same in every history, so merging
     * two keeps them) and hold offsets of read lists below mop_words
     * (at most ISO_MOP_VAL_MAX). */
    uint32_t mop_names;
    uint64_t mop_words;
} iso_store;

void iso_store_init(iso_store *s);
/* Room for atoms more atoms of text bytes and words more words, kept with
 * owner's memory (iso_adopt): interning and appending that much then
 * allocates nothing. */
void iso_store_reserve(iso_store *s, size_t atoms, size_t text, size_t words, const void *owner);
void iso_store_free(iso_store *s);
/* s emptied for reuse, its memory kept: no composites, and only its
 * first `atoms` atoms. */
void iso_store_truncate(iso_store *s, size_t atoms);

/* Intern an atom of the given tag (STR, KW, SYM, BIG, FLOAT, CHAR, FORM). */
iso_val iso_atom(iso_store *s, unsigned tag, const char *text, size_t len);
/* An integer from decimal text: inline if it fits, else a BIG atom. */
iso_val iso_int_text(iso_store *s, const char *text, size_t len);
/* v is an integer of any size (inline or BIG): Elle's integer?. */
static inline int iso_is_integer(iso_val v)
{
    return iso_tag(v) == ISO_TAG_INT || iso_tag(v) == ISO_TAG_BIG;
}
/* v as a 64-bit integer, exactly: 1 when v is an integer that fits in
 * [INT64_MIN, INT64_MAX], else 0 (*out untouched). iso_big_int64 is its
 * case of a BIG atom. */
int iso_big_int64(const iso_store *s, iso_val v, int64_t *out);
static inline int iso_val_int64(const iso_store *s, iso_val v, int64_t *out)
{
    if (!iso_is_int(v)) return iso_big_int64(s, v, out);
    *out = iso_as_int(v);
    return 1;
}
const char *iso_atom_text(const iso_store *s, iso_val v, size_t *len);
/* The text of a name however a format spells it -- keyword, string or
 * symbol (:append, "append", append) -- or NULL for any other value. */
const char *iso_name_text(const iso_store *s, iso_val v, size_t *len);
/* v is a name (as above) spelled name. */
int iso_name_is(const iso_store *s, iso_val v, const char *name);
/* The atoms that spell one name as a keyword, a string and a symbol in a
 * store (ISO_NO_VAL where it has none), so that hot loops compare words
 * instead of text: iso_name_atoms_has(n, v) == iso_name_is(s, v, name). */
#define ISO_NO_VAL (~(iso_val)0) /* tag 15: no value has it */
typedef struct iso_name_atoms { iso_val v[3]; } iso_name_atoms;
void iso_name_atoms_find(const iso_store *s, const char *name, iso_name_atoms *out);
static inline int iso_name_atoms_has(const iso_name_atoms *n, iso_val v)
{
    return v == n->v[0] || v == n->v[1] || v == n->v[2];
}

/* Append a composite of n items (for maps, n = 2 * pairs, keys and values
 * alternating) and return its value. */
iso_val iso_seq(iso_store *s, enum iso_seq_kind kind, const iso_val *items, size_t n);
static inline enum iso_seq_kind iso_seq_kind(const iso_store *s, iso_val v)
{
    return iso_tag(v) == ISO_TAG_MOP ? ISO_SEQ_VEC : (enum iso_seq_kind)(s->words[iso_payload(v)] >> 32);
}
/* Items (maps: 2 * pairs). */
static inline size_t iso_seq_len(const iso_store *s, iso_val v)
{
    return iso_tag(v) == ISO_TAG_MOP ? 3 : (size_t)(s->words[iso_payload(v)] & 0xffffffffu);
}

/* A packed micro-op's payload, low bits first: the name's atom id (5
 * bits), the key (a non-negative integer, 22 bits), then 33 bits of value:
 * a stored composite's offset << 1 | 1, or, with the low bit clear, 0 for
 * nil and i + 1 << 1 for the integer i. */
#define ISO_MOP_NAME_BITS 5
#define ISO_MOP_KEY_BITS 22
#define ISO_MOP_VAL_SHIFT (ISO_MOP_NAME_BITS + ISO_MOP_KEY_BITS)
#define ISO_MOP_VAL_MAX ((uint64_t)1 << 32) /* exclusive: integers and offsets */
/* [name key value] packed into *out when s lets it and the three fit: 1,
 * else 0 (it is then stored as a vector of three). */
static inline int iso_mop_pack(const iso_store *s, const iso_val it[3], iso_val *out)
{
    uint64_t name = iso_payload(it[0]), key = iso_payload(it[1]), off = iso_payload(it[2]), v;
    unsigned t = iso_tag(it[0]);
    if (t < ISO_TAG_STR || t > ISO_TAG_FORM || name >= s->mop_names) return 0;
    if (!iso_is_int(it[1]) || key >= (uint64_t)1 << ISO_MOP_KEY_BITS) return 0; /* (a negative one is huge) */
    if (iso_is_nil(it[2]))
        v = 0;
    else if (iso_is_int(it[2]) && off < ISO_MOP_VAL_MAX - 1)
        v = (off + 1) << 1;
    else if (iso_tag(it[2]) == ISO_TAG_SEQ && off < s->mop_words)
        v = off << 1 | 1;
    else
        return 0;
    *out = iso_mk(ISO_TAG_MOP, name | key << ISO_MOP_NAME_BITS | v << ISO_MOP_VAL_SHIFT);
    return 1;
}
/* Packed micro-op m's value is a stored list. */
static inline int iso_mop_has_list(iso_val m)
{
    return (int)(iso_payload(m) >> ISO_MOP_VAL_SHIFT & 1);
}
/* Item i (0 name, 1 key, 2 value) of packed micro-op m. */
static inline iso_val iso_mop_item(const iso_store *s, iso_val m, size_t i)
{
    uint64_t p = iso_payload(m), name = p & (((uint64_t)1 << ISO_MOP_NAME_BITS) - 1);
    uint64_t v = p >> ISO_MOP_VAL_SHIFT, x = v >> 1;
    if (i == 0) return iso_mk(s->atoms[name].tag, name);
    if (i == 1) return iso_int((int64_t)((p >> ISO_MOP_NAME_BITS) & (((uint64_t)1 << ISO_MOP_KEY_BITS) - 1)));
    return v & 1 ? iso_mk(ISO_TAG_SEQ, x) : x ? iso_int((int64_t)x - 1) : ISO_NIL;
}
/* A packed micro-op's three items. */
static inline void iso_mop_unpack(const iso_store *s, iso_val m, iso_val it[3])
{
    for (size_t i = 0; i < 3; i++) it[i] = iso_mop_item(s, m, i);
}
/* The items of a stored composite (tag ISO_TAG_SEQ), where they stay. */
static inline const iso_val *iso_seq_words(const iso_store *s, iso_val v)
{
    return s->words + iso_payload(v) + 1;
}
/* The items of composite v: the store's words, or those of a packed
 * micro-op decoded into buf (so valid while buf is). */
static inline const iso_val *iso_seq_items(const iso_store *s, iso_val v, iso_val buf[3])
{
    if (iso_tag(v) != ISO_TAG_MOP) return iso_seq_words(s, v);
    iso_mop_unpack(s, v, buf);
    return buf;
}
/* Item i < iso_seq_len of composite v (of a packed one, that item alone decoded). */
static inline iso_val iso_seq_item(const iso_store *s, iso_val v, size_t i)
{
    return iso_tag(v) == ISO_TAG_MOP ? iso_mop_item(s, v, i) : iso_seq_words(s, v)[i];
}
/* Look up a keyword/string key in a map value; ISO_NONE-like: returns 0 and
 * sets *found = 0 when absent. */
iso_val iso_map_get(const iso_store *s, iso_val map, const char *key, int *found);

/* Structural equality and hash (word equality unless composites). */
int iso_val_eq_seq(const iso_store *s, iso_val a, iso_val b);
/* a[0..n) and b[0..n) are equal item by item (a word compare first). */
int iso_vals_eq(const iso_store *s, const iso_val *a, const iso_val *b, size_t n);
uint64_t iso_val_hash_seq(const iso_store *s, iso_val v);
/* first[i] = the least j with v[j] equal to v[i] (first[i] == i at an
 * item's first occurrence): expected linear time, one table of 2n slots. */
void iso_vals_first(const iso_store *s, const iso_val *v, size_t n, uint32_t *first);
static inline uint64_t iso_mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}
static inline int iso_val_eq(const iso_store *s, iso_val a, iso_val b)
{
    return a == b || (iso_is_seq(a) && iso_is_seq(b) && iso_val_eq_seq(s, a, b));
}
static inline uint64_t iso_val_hash(const iso_store *s, iso_val v)
{
    return iso_is_seq(v) ? iso_val_hash_seq(s, v) : iso_mix64(v);
}

/* Printing. EDN prints keywords as :k; JSON prints them as "k". */
void iso_val_edn(const iso_store *s, iso_val v, iso_buf *out);
void iso_val_json(const iso_store *s, iso_val v, iso_buf *out);
/* v printed (EDN, or JSON) into buf for a message, cut short with "..."
 * to fit size; returns buf. */
const char *iso_val_words(const iso_store *s, iso_val v, int json, char *buf, size_t size);
/* JSON string literal with escapes; bytes that are not UTF-8 become
 * U+FFFD (\ufffd), so that the output is always valid JSON. */
void iso_json_string(iso_buf *out, const char *p, size_t n);

/* Total order for sorting values in reports (ints by value, then atoms by
 * tag and text). */
int iso_val_cmp(const iso_store *s, iso_val a, iso_val b);

#endif
