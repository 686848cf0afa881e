/*
 * graph/runs.h -- a run of fixed-size entries per vertex, kept in one
 * growable pool while it lives: what a walk in topological order keeps of
 * each vertex until its last successor has read it (the causal checks'
 * frontiers, elle/list_append/causal.c and elle/rw_register/weak_causal.c).
 * A run is put once, read any number of times, dropped once; the live runs
 * move to the front of the pool once the dead take more room than they do
 * (and a floor), so the pool stays within about twice the live entries.
 */
#ifndef ISO_GRAPH_RUNS_H
#define ISO_GRAPH_RUNS_H

#include <stddef.h>
#include <stdint.h>
#include "core/core.h"

typedef struct iso_runs {
    unsigned char *a;        /* the pool */
    size_t size;             /* bytes per entry */
    size_t n, cap, live;     /* entries used, room, entries of live runs */
    uint32_t *off, *len;     /* per vertex: its run, off ISO_NONE when none */
    uint32_t n_v;
} iso_runs;

/* Room for n_vertices vertices, none with a run; entries of size bytes. */
void iso_runs_init(iso_runs *r, uint32_t n_vertices, size_t size);
void iso_runs_free(iso_runs *r);
/* v's run: a copy of entries[0 .. n) (v had none). */
void iso_runs_put(iso_runs *r, uint32_t v, const void *entries, size_t n);
/* v's run and its length in *n, or NULL (*n 0) when v has none; valid
 * until the next put. */
const void *iso_runs_get(const iso_runs *r, uint32_t v, size_t *n);
/* v's run is dead (no-op when it has none). */
void iso_runs_drop(iso_runs *r, uint32_t v);

#endif
