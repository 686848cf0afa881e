/* keys.c -- dense ids for values, by structural equality. */
#include "keys.h"

#include <stdlib.h>
#include <string.h>

void iso_keys_init(iso_keys *k, const iso_store *store)
{
    memset(k, 0, sizeof *k);
    k->store = store;
}

void iso_keys_free(iso_keys *k)
{
    free(k->vals);
    free(k->slots);
    memset(k, 0, sizeof *k);
}

static void rehash(iso_keys *k)
{
    size_t n = k->n_slots ? k->n_slots * 2 : 256;
    uint32_t *slots = iso_xcalloc(n, sizeof *slots);
    for (size_t id = 0; id < k->n; id++) {
        size_t i = iso_val_hash(k->store, k->vals[id]) & (n - 1);
        while (slots[i]) i = (i + 1) & (n - 1);
        slots[i] = (uint32_t)id + 1;
    }
    free(k->slots);
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

uint32_t iso_keys_find(const iso_keys *k, iso_val v)
{
    if (!k->n_slots) return ISO_NONE;
    size_t i = probe(k, v);
    return k->slots[i] ? k->slots[i] - 1 : ISO_NONE;
}

uint32_t iso_keys_intern(iso_keys *k, iso_val v)
{
    if (2 * (k->n + 1) > k->n_slots) rehash(k);
    size_t i = probe(k, v);
    if (k->slots[i]) return k->slots[i] - 1;
    ISO_PUSH(k->vals, k->n, k->cap, v);
    k->slots[i] = (uint32_t)k->n;
    return (uint32_t)k->n - 1;
}
