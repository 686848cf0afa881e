/*
 * core/keys.h -- interning of values (keys of a workload) into dense ids
 * 0..n-1, by structural equality: a direct table for small integers, one
 * open-addressing table for the rest, no per-key allocation.
 */
#ifndef ISO_KEYS_H
#define ISO_KEYS_H

#include "core/value.h"

typedef struct iso_keys {
    const iso_store *store;
    iso_val *vals;        /* id -> value */
    size_t n, cap;
    uint32_t *slots;      /* id + 1, 0 = empty */
    size_t n_slots, n_hashed;
    uint32_t *direct;     /* integer i -> id + 1, 0 = not here */
    size_t n_direct;
} iso_keys;

void iso_keys_init(iso_keys *k, const iso_store *store);
void iso_keys_free(iso_keys *k);
uint32_t iso_keys_intern(iso_keys *k, iso_val v);
/* ISO_NONE if absent. */
uint32_t iso_keys_find(const iso_keys *k, iso_val v);
/* out: a copy of k in new blocks (to grow while k stays as it is, then
 * take its place); iso_keys_adopt moves k's blocks into owner's pool
 * (core/alloc.h's iso_adopt). */
void iso_keys_copy(const iso_keys *k, iso_keys *out);
void iso_keys_adopt(iso_keys *k, const void *owner);

#endif
