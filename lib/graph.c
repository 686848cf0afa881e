/*
 * graph.c -- edge triples and their frozen CSR form.
 *
 * iso_graph_build counts out-degrees, scatters each edge into its row as a
 * packed (dst << 8 | bits) word, sorts every row, then merges parallel
 * edges (OR-ing their bits) and drops self-loops while compacting the rows
 * in place. No per-edge allocation; one temporary word per edge.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

void iso_edges_add(iso_edges *es, uint32_t src, uint32_t dst, uint8_t bits)
{
    ISO_PUSH(es->e, es->n, es->cap, ((iso_edge){src, dst, bits}));
}

void iso_edges_free(iso_edges *es)
{
    free(es->e);
    es->e = NULL;
    es->n = es->cap = 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Rows are usually short: insertion sort them, qsort the long ones. */
static void sort_row(uint64_t *w, size_t n)
{
    if (n > 32) {
        qsort(w, n, sizeof *w, cmp_u64);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        uint64_t x = w[i];
        size_t j = i;
        for (; j > 0 && w[j - 1] > x; j--) w[j] = w[j - 1];
        w[j] = x;
    }
}

/* Scatter the triples into rows of packed words; off gets row starts. */
static uint64_t *scatter(uint32_t n, const iso_edges *es, uint32_t *off)
{
    memset(off, 0, ((size_t)n + 1) * sizeof *off);
    for (size_t i = 0; i < es->n; i++)
        if (es->e[i].src < n && es->e[i].dst < n) off[es->e[i].src + 1]++;
    for (uint32_t v = 0; v < n; v++) off[v + 1] += off[v];
    uint64_t *w = iso_xmalloc((size_t)off[n] * sizeof *w);
    uint32_t *fill = iso_xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, off, ((size_t)n + 1) * sizeof *fill);
    for (size_t i = 0; i < es->n; i++) {
        const iso_edge *e = &es->e[i];
        if (e->src < n && e->dst < n)
            w[fill[e->src]++] = (uint64_t)e->dst << 8 | e->bits;
    }
    free(fill);
    return w;
}

void iso_graph_build(iso_graph *g, uint32_t n, iso_edges *es)
{
    /* Edge counts above 2^32 would need 48 GB of triples: not supported. */
    memset(g, 0, sizeof *g);
    g->n = n;
    g->off = iso_xmalloc(((size_t)n + 1) * sizeof *g->off);
    uint64_t *w = scatter(n, es, g->off);
    size_t out = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t lo = g->off[v], hi = g->off[v + 1];
        sort_row(w + lo, hi - lo);
        g->off[v] = (uint32_t)out;
        for (uint32_t i = lo; i < hi; i++) {
            uint32_t d = (uint32_t)(w[i] >> 8);
            uint8_t b = (uint8_t)w[i];
            if (d == v || b == 0) continue;
            if (out > g->off[v] && (uint32_t)(w[out - 1] >> 8) == d)
                w[out - 1] |= b;
            else
                w[out++] = w[i];
        }
    }
    g->off[n] = (uint32_t)out;
    g->n_edges = out;
    g->dst = iso_xmalloc(out * sizeof *g->dst);
    g->bits = iso_xmalloc(out * sizeof *g->bits);
    for (size_t i = 0; i < out; i++) {
        g->dst[i] = (uint32_t)(w[i] >> 8);
        g->bits[i] = (uint8_t)w[i];
    }
    free(w);
}

void iso_graph_free(iso_graph *g)
{
    free(g->off);
    free(g->dst);
    free(g->bits);
    memset(g, 0, sizeof *g);
}

uint8_t iso_graph_edge(const iso_graph *g, uint32_t a, uint32_t b)
{
    if (a >= g->n) return 0;
    uint32_t lo = g->off[a], hi = g->off[a + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->dst[mid] < b) lo = mid + 1;
        else hi = mid;
    }
    return lo < g->off[a + 1] && g->dst[lo] == b ? g->bits[lo] : 0;
}
