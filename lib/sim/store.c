/*
 * sim/store.c -- the simulated database's keys and their versions, shared
 * by the levels (sim.c) and serializable snapshot isolation (ssi.c): a
 * key's state, made on first use, and the version a snapshot sees.
 */
#include "sim/sim_int.h"

struct sim_key *sim_key_get(struct sim *s, int64_t key)
{
    size_t k = (size_t)key;
    if (k >= s->n_keys) {
        size_t n = s->n_keys ? s->n_keys : 64;
        while (n <= k) n *= 2;
        s->keys = iso_xrealloc(s->keys, n * sizeof *s->keys);
        for (size_t i = s->n_keys; i < n; i++)
            s->keys[i] = (struct sim_key){ISO_NONE, ISO_NONE, ISO_NONE, NULL, 0, 0};
        s->n_keys = n;
    }
    return &s->keys[k];
}

uint32_t sim_visible(const struct sim *s, const struct sim_key *k, int64_t snap)
{
    uint32_t v = k->head;
    while (v != ISO_NONE && s->vers[v].cts > snap) v = s->vers[v].prev;
    return v;
}
