/*
 * linear/lin_memo.c -- a set of short word tuples: the search memo of
 * (linearized set, model state) and the sets of model states carried
 * across quiescent points.
 *
 * Tuples live back to back in one word array as [len, words...]; the table
 * holds 64-bit slots of (24 hash bits, 40-bit offset + 1), so an entry
 * costs its words plus about 16 bytes of table, and nothing is allocated
 * per entry.
 */
#include <string.h>
#include "linear/lin.h"

#define OFF_BITS 40
#define OFF_MASK (((uint64_t)1 << OFF_BITS) - 1)

static uint64_t hash_words(const uint32_t *w, uint32_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (uint32_t i = 0; i < n; i++) {
        h ^= w[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 32);
}

static int same(const struct lin_set *s, uint64_t off, const uint32_t *w, uint32_t n)
{
    const uint32_t *e = s->words + off;
    return e[0] == n && memcmp(e + 1, w, (size_t)n * sizeof *w) == 0;
}

static void place(uint64_t *slots, size_t n_slots, uint64_t slot)
{
    size_t mask = n_slots - 1;
    size_t i = (size_t)(slot >> OFF_BITS) & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = slot;
}

/* Double the table; the 24 stored hash bits pick the new home, so the
 * tuples need not be rehashed. */
static void grow(struct lin_set *s)
{
    size_t n = s->n_slots ? s->n_slots * 2 : 1024;
    uint64_t *slots = iso_xcalloc(n, sizeof *slots);
    for (size_t i = 0; i < s->n_slots; i++)
        if (s->slots[i]) place(slots, n, s->slots[i]);
    iso_free(s->slots);
    s->slots = slots;
    s->n_slots = n;
}

static uint64_t slot_of(uint64_t h, uint64_t off)
{
    /* Home index from the low hash bits (kept in the top 24 bits of the
     * slot, as stored), so growing re-places entries without rehashing. */
    return ((h & 0xffffffu) << OFF_BITS) | (off + 1);
}

int lin_set_add(struct lin_set *s, const uint32_t *w, uint32_t n)
{
    if (2 * (s->n + 1) > s->n_slots) grow(s);
    uint64_t h = hash_words(w, n);
    size_t mask = s->n_slots - 1, i = (size_t)(h & 0xffffffu) & mask;
    for (; s->slots[i]; i = (i + 1) & mask) {
        uint64_t sl = s->slots[i];
        if ((sl >> OFF_BITS) == (h & 0xffffffu) && same(s, (sl & OFF_MASK) - 1, w, n))
            return 0;
    }
    ISO_GROW(s->words, s->cap_words, s->n_words + n + 1);
    uint64_t off = s->n_words;
    s->words[off] = n;
    memcpy(s->words + off + 1, w, (size_t)n * sizeof *w);
    s->n_words += n + 1;
    s->slots[i] = slot_of(h, off);
    s->n++;
    return 1;
}

size_t lin_set_next(const struct lin_set *s, size_t off)
{
    if (off >= s->n_words) return SIZE_MAX;
    size_t next = off + 1 + s->words[off];
    return next < s->n_words ? next : SIZE_MAX;
}

/* The bytes the entries use (a table at most half full): what a budget
 * bounds. Capacity kept from a larger earlier use is not counted, so one
 * big search does not leave every later one over budget. */
size_t lin_set_bytes(const struct lin_set *s)
{
    return 2 * s->n * sizeof *s->slots + s->n_words * sizeof *s->words;
}

void lin_set_clear(struct lin_set *s)
{
    if (s->n_slots > 65536 && 16 * s->n < s->n_slots) {
        /* mostly empty: cheaper to start small than to wipe it */
        iso_free(s->slots);
        s->slots = NULL;
        s->n_slots = 0;
    } else if (s->n) {
        memset(s->slots, 0, s->n_slots * sizeof *s->slots);
    }
    s->n = 0;
    s->n_words = 0;
}

void lin_set_release(struct lin_set *s)
{
    iso_free(s->slots);
    iso_free(s->words);
    memset(s, 0, sizeof *s);
}
