/*
 * elle/list_append/appends.c -- list-append's append index: (key, value) -> the append
 * record. Most histories append small distinct integers per key, so a key
 * whose values span at most twice their count gets a dense table indexed
 * by value (lookups walk memory in order, as version orders do); any other
 * key's appends go into one open-addressing table. Built once, after every
 * append is known; a second append of one value to one key is the
 * workload violation la_index_appends reports.
 */
#include "elle/list_append/list_append_int.h"

#include <stdlib.h>

static uint64_t ap_hash(const iso_store *s, uint32_t key, iso_val v)
{
    return iso_val_hash(s, v) ^ ((uint64_t)key * 0x9e3779b97f4a7c15ull);
}

static size_t ap_probe(const la_state *st, uint32_t key, iso_val v)
{
    const iso_store *s = st->keys.store;
    size_t mask = st->n_ap_slots - 1, i = ap_hash(s, key, v) & mask;
    for (; st->ap_slots[i]; i = (i + 1) & mask) {
        const la_append *a = &st->ap[st->ap_slots[i] - 1];
        if (a->key == key && iso_val_eq(s, la_value(st, a), v)) break;
    }
    return i;
}

/* Where (key, v) lives: a dense entry, a hash slot, or NULL (a value a
 * dense key cannot hold). */
static uint32_t *ap_cell(const la_state *st, uint32_t key, iso_val v)
{
    const la_key *k = &st->k[key];
    if (k->dense_len) {
        if (!iso_is_int(v)) return NULL;
        uint64_t i = (uint64_t)(iso_as_int(v) - k->dense_min);
        return i < k->dense_len ? &st->dense[k->dense_off + i] : NULL;
    }
    return st->n_ap_slots ? &st->ap_slots[ap_probe(st, key, v)] : NULL;
}

const la_append *la_find(const la_state *st, uint32_t key, iso_val v)
{
    const uint32_t *c = ap_cell(st, key, v);
    return c && *c ? &st->ap[*c - 1] : NULL;
}

/* Per key: the range of its integer values, or no dense table. */
static size_t plan_dense(la_state *st)
{
    uint32_t *count = iso_xcalloc(st->n_k ? st->n_k : 1, sizeof *count);
    int64_t *max = iso_xmalloc((st->n_k ? st->n_k : 1) * sizeof *max);
    uint8_t *ints = iso_xmalloc(st->n_k ? st->n_k : 1);
    for (size_t i = 0; i < st->n_ap; i++) {
        const la_append *a = &st->ap[i];
        la_key *k = &st->k[a->key];
        int64_t v = a->in_vals ? 0 : a->value;
        if (!count[a->key]++) { k->dense_min = max[a->key] = v; ints[a->key] = 1; }
        ints[a->key] &= (uint8_t)!a->in_vals;
        if (v < k->dense_min) k->dense_min = v;
        if (v > max[a->key]) max[a->key] = v;
    }
    size_t hashed = 0, off = 0;
    for (size_t key = 0; key < st->n_k; key++) {
        la_key *k = &st->k[key];
        uint64_t range = count[key] ? (uint64_t)(max[key] - k->dense_min) + 1 : 0;
        if (count[key] && ints[key] && range <= 2 * (uint64_t)count[key]) {
            k->dense_off = (uint32_t)off;
            k->dense_len = (uint32_t)range;
            off += range;
        } else {
            hashed += count[key];
        }
    }
    iso_free(count);
    iso_free(max);
    iso_free(ints);
    st->dense = iso_xcalloc(off ? off : 1, sizeof *st->dense);
    return hashed;
}

long la_index_appends(la_state *st)
{
    size_t hashed = plan_dense(st);
    if (hashed) {
        size_t n = 1024;
        while (3 * n < 4 * hashed + 4) n *= 2; /* load at most 3/4 */
        st->ap_slots = iso_xcalloc(n, sizeof *st->ap_slots);
        st->n_ap_slots = n;
    }
    for (size_t i = 0; i < st->n_ap; i++) {
        uint32_t *c = ap_cell(st, st->ap[i].key, la_value(st, &st->ap[i]));
        if (*c) return (long)i;
        *c = (uint32_t)i + 1;
    }
    return -1;
}
