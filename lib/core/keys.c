/*
 * core/keys.c -- dense ids for values, by structural equality.
 *
 * Small non-negative integers, the keys most histories use, are looked up
 * in a direct table indexed by the integer: keys a history uses together
 * are usually numbered together, so their entries share cache lines. The
 * table covers at most four times as many integers as there are keys (it
 * grows with them), so sparse keys cost no memory; those and every other
 * value go through one open-addressing table. A key stays where it was
 * first put, so a lookup tries the direct table, then the hash table.
 */
#include "core/keys.h"

#include <stdlib.h>
#include <string.h>

void iso_keys_init(iso_keys *k, const iso_store *store)
{
    memset(k, 0, sizeof *k);
    k->store = store;
}

void iso_keys_free(iso_keys *k)
{
    iso_free(k->vals);
    iso_free(k->slots);
    iso_free(k->direct);
    memset(k, 0, sizeof *k);
}

static void *dup_block(const void *p, size_t n)
{
    if (!p) return NULL;
    void *q = iso_xmalloc(n ? n : 1);
    memcpy(q, p, n);
    return q;
}

void iso_keys_copy(const iso_keys *k, iso_keys *out)
{
    *out = *k;
    out->vals = dup_block(k->vals, k->cap * sizeof *k->vals);
    out->slots = dup_block(k->slots, k->n_slots * sizeof *k->slots);
    out->direct = dup_block(k->direct, k->n_direct * sizeof *k->direct);
}

void iso_keys_adopt(iso_keys *k, const void *owner)
{
    iso_adopt(k->vals, owner);
    iso_adopt(k->slots, owner);
    iso_adopt(k->direct, owner);
}

static void rehash(iso_keys *k)
{
    size_t n = k->n_slots ? k->n_slots * 2 : 256;
    uint32_t *slots = iso_xcalloc(n, sizeof *slots);
    for (size_t s = 0; s < k->n_slots; s++) {
        if (!k->slots[s]) continue;
        size_t i = iso_val_hash(k->store, k->vals[k->slots[s] - 1]) & (n - 1);
        while (slots[i]) i = (i + 1) & (n - 1);
        slots[i] = k->slots[s];
    }
    iso_free(k->slots);
    k->slots = slots;
    k->n_slots = n;
}

static size_t probe(const iso_keys *k, iso_val v)
{
    size_t i = iso_val_hash(k->store, v) & (k->n_slots - 1);
    while (k->slots[i] && !iso_val_eq(k->store, k->vals[k->slots[i] - 1], v))
        i = (i + 1) & (k->n_slots - 1);
    return i;
}

/* v's place in the direct table, or NULL when outside it. */
static uint32_t *direct_cell(const iso_keys *k, iso_val v)
{
    if (!iso_is_int(v)) return NULL;
    uint64_t i = (uint64_t)iso_as_int(v);
    return i < k->n_direct ? &k->direct[i] : NULL;
}

uint32_t iso_keys_find(const iso_keys *k, iso_val v)
{
    const uint32_t *d = direct_cell(k, v);
    if (d && *d) return *d - 1;
    if (!k->n_slots) return ISO_NONE;
    size_t i = probe(k, v);
    return k->slots[i] ? k->slots[i] - 1 : ISO_NONE;
}

/* Widen the direct table to cover integer v if that keeps it within four
 * entries per key. */
static void direct_cover(iso_keys *k, iso_val v)
{
    if (!iso_is_int(v) || iso_as_int(v) < 0) return;
    uint64_t need = (uint64_t)iso_as_int(v) + 1, limit = 4 * ((uint64_t)k->n + 1024);
    if (need <= k->n_direct || need > limit) return;
    size_t n = k->n_direct ? k->n_direct : 1024;
    while (n < need) n *= 2;
    if (n > limit) n = (size_t)limit;
    k->direct = iso_xrealloc(k->direct, n * sizeof *k->direct);
    memset(k->direct + k->n_direct, 0, (n - k->n_direct) * sizeof *k->direct);
    k->n_direct = n;
}

uint32_t iso_keys_intern(iso_keys *k, iso_val v)
{
    uint32_t id = iso_keys_find(k, v);
    if (id != ISO_NONE) return id;
    ISO_PUSH(k->vals, k->n, k->cap, v);
    id = (uint32_t)k->n - 1;
    direct_cover(k, v);
    uint32_t *d = direct_cell(k, v);
    if (d) {
        *d = id + 1;
        return id;
    }
    if (2 * (k->n_hashed + 1) > k->n_slots) rehash(k);
    k->slots[probe(k, v)] = id + 1;
    k->n_hashed++;
    return id;
}
