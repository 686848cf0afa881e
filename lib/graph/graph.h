/*
 * graph/graph.h -- the dependency graph: typed edges between transactions,
 * kept as triples while inference runs, then frozen into CSR adjacency
 * with parallel edges merged (their type bits OR-ed).
 *
 *   graph.c       edges and CSR
 *   order.c       process and real-time order (order.h)
 *   scc.c         strongly connected components (scc.h)
 *   cycle_search.c   the typed cycle search (cycle.h): components, budgets
 *   cycle_local.c    a component as a graph of its own, hubs kept (cycle_int.h)
 *   cycle_bfs.c      the breadth-first search in one component
 *   cycle_exists.c   the cycle-exists fallback, subgraphs kept for pictures
 *   runs.c        a run of entries per vertex in one pool (runs.h): the
 *                 causal checks' frontiers while they walk
 *
 * Vertices are transaction ids (history/txn.h), then hubs: a hub h stands
 * for a group of edges "every reader -> every writer" (r -> h -> w, the
 * pair r == w excepted) that would be R x A edges pairwise, as R + A. The
 * graph means the same as with the pairs themselves (a pair's bits OR-ed
 * into a direct edge r -> w); SCCs may put a hub with its transactions,
 * and the cycle search keeps a component's hubs, answering as the pairs
 * would without making them (cycle_local.c).
 * Nothing here knows about keys, values, anomalies or models: the check
 * asks for cycle types and subgraphs, and workloads explain an edge on
 * demand.
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
#define ISO_EDGE_N 5 /* bits: 1 << 0 .. 1 << (ISO_EDGE_N - 1) */

/* Edge bit bit's name as Elle writes it ("ww", "wr", "rw", "process",
 * "realtime"), or "?". */
const char *iso_edge_name(int bit);

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
    uint32_t n_hubs;  /* hub vertices made so far (iso_edges_add_group) */
} iso_edges;

void iso_edges_add(iso_edges *es, uint32_t src, uint32_t dst, uint8_t bits);
/* Edges rd[i] -> wr[j] (bits), for every i, j with rd[i] != wr[j]:
 * pairwise when there are few (nr * nw at most the hub threshold) or bits
 * is not ISO_EDGE_RW, else through a new hub (iso_edges_hub). n_txn must
 * be the vertex count later given to iso_graph_build. Repeats in rd or wr
 * are allowed. */
void iso_edges_add_group(iso_edges *es, uint32_t n_txn, const uint32_t *rd, size_t nr,
                         const uint32_t *wr, size_t nw, uint8_t bits);
/* For a group of nr readers x nw writers that has a pair of two
 * transactions: a new hub, vertex n_txn + es->n_hubs, when nr * nw is
 * above the hub threshold (and vertex ids are left); else ISO_NONE: the
 * group goes in as pairs. The caller adds r -> hub and hub -> w, all
 * ISO_EDGE_RW: a hub's pairs are rw edges (the cycle search counts on it). */
uint32_t iso_edges_hub(iso_edges *es, uint32_t n_txn, size_t nr, size_t nw);
/* The hub threshold, 1024; in a testing build (-DISO_TESTING), for tests
 * that compare hubs with pairs, ISOLDE_HUB_MIN from the environment when
 * set (0 makes every group a hub). */
size_t iso_hub_min(void);
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
    uint32_t n;     /* vertices: transactions, then n_hubs hubs */
    uint32_t n_hubs;
    uint32_t *off;  /* n + 1 offsets into dst/bits */
    uint32_t *dst;
    uint8_t *bits;
    size_t n_edges; /* in the rows (rt's are on top) */
    const iso_rt *rt; /* borrowed; NULL: no real-time edges besides rows' */
} iso_graph;

/* The transactions: vertices below this are transactions, hubs above. */
static inline uint32_t iso_graph_txns(const iso_graph *g) { return g->n - g->n_hubs; }

/* v's out-edges are its row, then (with rt) its real-time window: how
 * many there are. A transaction's hubs end its row (their ids are the
 * largest); a hub's row is its writers. */
static inline uint32_t iso_graph_degree(const iso_graph *g, uint32_t v)
{
    uint32_t rt = g->rt && v < iso_graph_txns(g) ? g->rt->hi[v] - g->rt->lo[v] : 0;
    return g->off[v + 1] - g->off[v] + rt;
}

/* Build CSR from triples over n transactions and es's hubs: rows sorted
 * by dst, parallel edges merged (bits OR-ed), self-loops and out-of-range
 * endpoints dropped. es is unchanged. */
void iso_graph_build(iso_graph *g, uint32_t n, iso_edges *es);
/* The same, freeing the triples while it builds (es is left empty): the
 * peak holds the triples or the rows, not both. */
void iso_graph_build_consume(iso_graph *g, uint32_t n, iso_edges *es);
void iso_graph_free(iso_graph *g);
/* Bits of the entry b in a's row alone (a hub in a transaction's row, a
 * writer in a hub's), 0 if none: a binary search. */
uint8_t iso_graph_row_bits(const iso_graph *g, uint32_t a, uint32_t b);
/* Bits of the edge a -> b between transactions, 0 if none, as if hubs
 * were their pairs (binary search in a's row and in its hubs' rows, then
 * a's real-time window). */
uint8_t iso_graph_edge(const iso_graph *g, uint32_t a, uint32_t b);
/* The bits of the pairs a -> b that a's hubs stand for (a != b). */
uint8_t iso_graph_hub_bits(const iso_graph *g, uint32_t a, uint32_t b);

#endif
