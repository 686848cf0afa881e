/*
 * graph/runs.c -- runs of entries per vertex in one pool (runs.h): put,
 * get, drop, and the compaction that keeps the pool within about twice the
 * live entries.
 */
#include "graph/runs.h"

#include <string.h>

void iso_runs_init(iso_runs *r, uint32_t n_vertices, size_t size)
{
    *r = (iso_runs){.size = size, .n_v = n_vertices};
    r->off = iso_xmalloc(((size_t)n_vertices + 1) * sizeof *r->off);
    r->len = iso_xmalloc(((size_t)n_vertices + 1) * sizeof *r->len);
    memset(r->off, 0xff, ((size_t)n_vertices + 1) * sizeof *r->off);
}

void iso_runs_free(iso_runs *r)
{
    iso_free(r->a);
    iso_free(r->off);
    iso_free(r->len);
}

/* Move the live runs to the front, once the dead take more room. */
static void compact(iso_runs *r)
{
    if (r->n < 2 * r->live + ((size_t)1 << 20)) return;
    size_t at = 0;
    for (uint32_t v = 0; v < r->n_v; v++) {
        if (r->off[v] == ISO_NONE) continue;
        memmove(r->a + at * r->size, r->a + (size_t)r->off[v] * r->size, (size_t)r->len[v] * r->size);
        r->off[v] = (uint32_t)at;
        at += r->len[v];
    }
    r->n = at;
}

void iso_runs_put(iso_runs *r, uint32_t v, const void *entries, size_t n)
{
    compact(r);
    if (r->n + n > r->cap) iso_grow((void **)&r->a, &r->cap, r->n + n, r->size);
    memcpy(r->a + r->n * r->size, entries, n * r->size);
    r->off[v] = (uint32_t)r->n;
    r->len[v] = (uint32_t)n;
    r->n += n;
    r->live += n;
}

const void *iso_runs_get(const iso_runs *r, uint32_t v, size_t *n)
{
    *n = r->off[v] == ISO_NONE ? 0 : r->len[v];
    return r->off[v] == ISO_NONE ? NULL : r->a + (size_t)r->off[v] * r->size;
}

void iso_runs_drop(iso_runs *r, uint32_t v)
{
    if (r->off[v] == ISO_NONE) return;
    r->live -= r->len[v];
    r->off[v] = ISO_NONE;
}
