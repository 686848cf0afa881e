/*
 * history/mop.h -- the micro-op fast path of the EDN and JSON readers,
 * written once: a micro-op of the common shape -- a short name, a plain
 * integer key, and a value that is nil / null, a plain integer or a list
 * of them -- is read in one go, and so is a transaction's value made only
 * of such micro-ops (the bulk of every transactional history):
 *
 *   EDN   [:append 3 41]   [:r 4 [1 2 41]]   [[:r 1 nil] [:append 1 7]]
 *   JSON  ["append",3,41]  ["r",4,[1,2,41]]  [["r",1,null],["append",1,7]]
 *
 * Anything else -- other shapes, and every malformed input -- makes these
 * return 0 having consumed nothing, and the reader's general parser reads
 * it (and reports any error exactly). The micro-ops of a transaction's value
 * read here are packed into one word each where they fit (core/value.h),
 * so a packed micro-op is only ever an item of the vector an op field
 * holds: never a value of its own, nor a read's list, nor an item of one.
 * Every function takes the syntax as a
 * constant (json: 1 for JSON, 0 for EDN); each reader instantiates them
 * with its own, so both run code specialised for their grammar.
 */
#ifndef ISO_HISTORY_MOP_H
#define ISO_HISTORY_MOP_H

#include "history/cursor.h"

#define ISO_MOP_INLINE static inline __attribute__((always_inline))

/* Bytes that end an EDN token: whitespace and control bytes, and , ( ) [ ]
 * { } " ; \ ^ @ ` ~ DEL (read_edn.c). */
extern const uint8_t iso_edn_delim[256];

/* A plain non-negative integer of up to 17 digits at *q, ended by ',', ']'
 * or ' ' (JSON: without a leading zero); 0, nothing consumed, otherwise. */
ISO_MOP_INLINE int iso_mop_int(const char **q, const char *end, iso_val *out, const int json)
{
    const char *p = *q, *lim = end - p > 17 ? p + 17 : end;
    int64_t v = 0;
    while (p < lim && *p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
    if (p == *q || p == end || (json && **q == '0' && p > *q + 1)) return 0;
    if (*p != ',' && *p != ']' && *p != ' ') return 0;
    *out = iso_int(v);
    *q = p;
    return 1;
}

/* A separator between items: JSON's ',' with at most one space either
 * side (json.dumps writes ", "); EDN's ' ', ',' or ", ". NULL if absent. */
ISO_MOP_INLINE const char *iso_mop_sep(const char *p, const char *end, const int json)
{
    if (json) {
        if (p < end && *p == ' ') p++;
        if (p >= end || *p != ',') return NULL;
        p++;
        return p < end && *p == ' ' ? p + 1 : p;
    }
    if (p >= end || (*p != ' ' && *p != ',')) return NULL;
    p++;
    return p < end && *p == ' ' && p[-1] == ',' ? p + 1 : p;
}

/* A list of plain integers at *q (on its '['), key's value as a read
 * returns it: the part it shares with key's last list is not parsed. */
ISO_MOP_INLINE int iso_mop_list(iso_rd *rd, iso_val key, const char **q, const char *end, iso_val *out,
                                const int json)
{
    const char *p = *q;
    size_t base = rd->n_items;
    iso_val v;
    int start = iso_rd_list_start(rd, key, &p, end, out);
    if (start == ISO_RD_LIST_SAME) {
        *q = p;
        return 1;
    }
    for (int after_item = start == ISO_RD_LIST_EXTENDS;; after_item = 0) {
        if (!after_item) { /* the usual: 1 or 2 digits, then the separator */
            if (iso_rd_small_item(rd, &p, end, json ? '1' : '0', json ? ',' : ' ')) continue;
            if (!iso_mop_int(&p, end, &v, json)) break;
            iso_rd_item(rd, v);
        }
        if (json && p < end && *p == ' ') p++;
        if (p < end && *p == ']' && rd->n_items - base <= ISO_MAX_ITEMS) { /* else the parser's error */
            *out = iso_rd_list_end(rd, key, base, *q, p);
            *q = p + 1;
            return 1;
        }
        if (!(p = iso_mop_sep(p, end, json))) break;
    }
    rd->n_items = base;
    return 0;
}

/* The micro-op's name at p (after '[', on '"' or ':'): its atom in *v and
 * the byte after it returned; NULL when it is not a short plain name. One
 * of the last two names read is recognised without scanning or hashing. */
ISO_MOP_INLINE const char *iso_mop_name(iso_rd *rd, const char *p, const char *end, iso_val *v,
                                        const int json)
{
    if (p >= end || *p != (json ? '"' : ':')) return NULL;
    const char *name = p + 1;
    size_t n;
    if (iso_rd_name_hit(rd, name, end, &n, v)) return name + n + json;
    if (json)
        for (p = name; p < end && p - name <= 8 && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20;) p++;
    else
        for (p = name; p < end && p - name <= 8 && !iso_edn_delim[(unsigned char)*p];) p++;
    n = (size_t)(p - name);
    if (p >= end || n > 8 || (json ? *p != '"' : !n)) return NULL;
    *v = iso_rd_atom(rd, json ? ISO_TAG_STR : ISO_TAG_KW, name, n);
    iso_rd_name_keep(rd, name, n, *v);
    return p + json;
}

/* At '[': a micro-op of the common shape, read in one go, packed when pack
 * is set and it fits. Returns 1 with *out set, or 0 having consumed nothing. */
ISO_MOP_INLINE int iso_mop_read(iso_rd *rd, iso_val *out, const int json, const int pack)
{
    const char *end = rd->p + rd->len, *p;
    iso_val it[3];
    if (!(p = iso_mop_name(rd, rd->p + rd->pos + 1, end, &it[0], json))) return 0;
    if (!(p = iso_mop_sep(p, end, json)) || !iso_mop_int(&p, end, &it[1], json) ||
        !(p = iso_mop_sep(p, end, json)))
        return 0;
    size_t nil = json ? 4 : 3;
    if (end - p >= 4 && memcmp(p, json ? "null" : "nil", nil) == 0 &&
        (json || p[3] == ']' || p[3] == ' ' || p[3] == ',')) {
        it[2] = ISO_NIL;
        p += nil;
    } else if (!(p < end && *p == '[' ? iso_mop_list(rd, it[1], &p, end, &it[2], json)
                                      : iso_mop_int(&p, end, &it[2], json))) {
        return 0;
    }
    if (json && p < end && *p == ' ') p++;
    if (p >= end || *p != ']') return 0;
    if (!pack || !iso_mop_pack(rd->store, it, out)) *out = iso_rd_seq(rd, ISO_SEQ_VEC, it, 3);
    rd->pos = (size_t)(p + 1 - rd->p);
    return 1;
}

/* At '[': a transaction's value whose every item iso_mop_read reads, read
 * in one go. Returns 1 with *out set, or 0 having consumed nothing. */
ISO_MOP_INLINE int iso_mop_value(iso_rd *rd, iso_val *out, const int json)
{
    size_t start = rd->pos, base = rd->n_items;
    const char *p = rd->p;
    rd->pos++;
    for (;;) {
        iso_val m;
        if (rd->pos >= rd->len || p[rd->pos] != '[' || !iso_mop_read(rd, &m, json, 1)) break;
        iso_rd_item(rd, m);
        if (rd->pos < rd->len && p[rd->pos] == ']' && rd->n_items - base <= ISO_MAX_ITEMS) {
            rd->pos++;
            *out = iso_rd_seq(rd, ISO_SEQ_VEC, rd->items + base, rd->n_items - base);
            rd->n_items = base;
            return 1;
        }
        const char *q = iso_mop_sep(p + rd->pos, p + rd->len, json);
        if (!q) break;
        rd->pos = (size_t)(q - p);
    }
    rd->pos = start;
    rd->n_items = base;
    return 0;
}

#endif
