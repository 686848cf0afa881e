/*
 * graph/graph.h -- the dependency graph: typed edges between transactions,
 * kept as triples while inference runs, then frozen into CSR adjacency
 * with parallel edges merged (their type bits OR-ed).
 *
 *   graph.c       edges and CSR
 *   order.c       process and real-time order (order.h)
 *   scc.c         strongly connected components (scc.h)
 *   cycle_search.c, cycle_bfs.c   the typed cycle search (cycle.h, cycle_int.h)
 *
 * Vertices are transaction ids (history/txn.h). Nothing here knows about
 * keys, values, anomalies or models: the check asks for cycle types and
 * subgraphs, and workloads explain an edge on demand.
 * Rule: graph/ includes history/ and core/ only.
 */
#ifndef ISO_GRAPH_H
#define ISO_GRAPH_H

#include <stdint.h>
#include <stddef.h>
#include "core/core.h"

enum iso_edge_bit {
    ISO_EDGE_WW = 1,       /* a wrote a version b overwrote */
    ISO_EDGE_WR = 2,       /* b read a version a wrote */
    ISO_EDGE_RW = 4,       /* a read a version b overwrote (anti-dependency) */
    ISO_EDGE_PROCESS = 8,  /* a and b are consecutive ok txns of one process */
    ISO_EDGE_REALTIME = 16 /* a completed before b was invoked (reduced) */
};
#define ISO_EDGE_DATA (ISO_EDGE_WW | ISO_EDGE_WR | ISO_EDGE_RW)

/* An edge as inference emits it: 8 bytes, the destination in the low 27
 * bits of dst_bits and the edge bits above (histories are limited to 2^27
 * transactions, ISO_MAX_TXNS). */
typedef struct iso_edge {
    uint32_t src;
    uint32_t dst_bits;
} iso_edge;
#define ISO_MAX_TXNS ((uint32_t)1 << 27)
static inline uint32_t iso_edge_dst(const iso_edge *e) { return e->dst_bits & (ISO_MAX_TXNS - 1); }
static inline uint8_t iso_edge_bits(const iso_edge *e) { return (uint8_t)(e->dst_bits >> 27); }

typedef struct iso_edges {
    iso_edge *e;
    size_t n, cap;
} iso_edges;

void iso_edges_add(iso_edges *es, uint32_t src, uint32_t dst, uint8_t bits);
void iso_edges_free(iso_edges *es);

/* Real-time order, kept implicit (order.c): the transactions that take part
 * (all but failed ones) ranked by where they start; in the reduction,
 * transaction a precedes exactly those ranked in [lo[a], hi[a]), a window
 * of invocations while a stood on the frontier. 12 bytes per transaction
 * instead of one edge per frontier member per invocation. */
typedef struct iso_rt {
    uint32_t n;          /* ranked transactions */
    uint32_t *order;     /* rank -> transaction */
    uint32_t *lo, *hi;   /* per transaction (lo == hi: no successor) */
    size_t n_edges;      /* sum of the windows */
} iso_rt;

typedef struct iso_graph {
    uint32_t n;     /* vertices */
    uint32_t *off;  /* n + 1 offsets into dst/bits */
    uint32_t *dst;
    uint8_t *bits;
    size_t n_edges; /* in the rows (rt's are on top) */
    const iso_rt *rt; /* borrowed; NULL: no real-time edges besides rows' */
} iso_graph;

/* v's out-edges are its row, then (with rt) its real-time window: how
 * many there are. */
static inline uint32_t iso_graph_degree(const iso_graph *g, uint32_t v)
{
    return g->off[v + 1] - g->off[v] + (g->rt ? g->rt->hi[v] - g->rt->lo[v] : 0);
}

/* Build CSR from triples: rows sorted by dst, parallel edges merged (bits
 * OR-ed), self-loops and out-of-range endpoints dropped. es is unchanged. */
void iso_graph_build(iso_graph *g, uint32_t n, iso_edges *es);
/* The same, freeing the triples while it builds (es is left empty): the
 * peak holds the triples or the rows, not both. */
void iso_graph_build_consume(iso_graph *g, uint32_t n, iso_edges *es);
void iso_graph_free(iso_graph *g);
/* Bits of the edge a -> b, 0 if none (binary search in a's row, then a's
 * real-time window). */
uint8_t iso_graph_edge(const iso_graph *g, uint32_t a, uint32_t b);

#endif
