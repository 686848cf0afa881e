/*
 * graph/cycle.h -- search for typed cycles in the dependency graph.
 *
 * A cycle's type is what its edge labels make it: the base (G0: ww only;
 * G1c: ww and wr; G-single-item: one rw; G-nonadjacent-item: two or more rw
 * never adjacent; G2-item: rw edges some of them adjacent) and the variant
 * (plain; -process or -realtime when such an edge is used). The 24 ids
 * ISO_CYCLE(base, variant) are also the anomaly ids of those names
 * (elle/anomaly.h keeps them aligned), but nothing here knows anomalies or
 * models: the caller says which types to look for, most severe first, and
 * which subgraphs must be acyclic.
 *
 * Within every strongly connected component, a breadth-first search over
 * (vertex, path state) finds a cycle of each requested type, then the
 * shortest one within a bound on the work (a count, not a time, so what is
 * shown depends on the graph alone). Two time budgets end a component's
 * search: its own (timeout_ms) and its fair share of the whole search's
 * (total_ms); the timeout is reported, with every requested subgraph the
 * component makes cyclic (the fallback of Elle's *-cycle-exists proofs).
 */
#ifndef ISO_GRAPH_CYCLE_H
#define ISO_GRAPH_CYCLE_H

#include "graph/graph.h"

/* Cycle types: base kinds and variants. */
enum iso_cycle_base { ISO_CB_G0, ISO_CB_G1C, ISO_CB_G_SINGLE_ITEM, ISO_CB_G_SINGLE,
                      ISO_CB_G_NONADJACENT_ITEM, ISO_CB_G_NONADJACENT, ISO_CB_G2_ITEM,
                      ISO_CB_G2, ISO_CB_COUNT };
enum iso_cycle_variant { ISO_CV_PLAIN, ISO_CV_PROCESS, ISO_CV_REALTIME };
#define ISO_CYCLE(base, variant) ((int)(base) * 3 + (int)(variant))
#define ISO_N_CYCLE_TYPES 24
static inline int iso_is_cycle_type(int a) { return a >= 0 && a < ISO_N_CYCLE_TYPES; }

/* Classify a closed walk by its edge labels (e[i]: one bit each). */
int iso_cycle_classify(const uint8_t *e, uint32_t len);

typedef struct iso_cycle {
    int type;       /* a cycle type */
    uint32_t len;   /* edges = vertices */
    uint32_t *v;    /* v[0..len-1]; edge i runs v[i] -> v[(i+1) % len] */
    uint8_t *e;     /* e[i]: the one edge bit that edge i stands for */
} iso_cycle;

/* A strongly connected piece of the graph, kept for pictures: its
 * vertices (ascending) and, when it has at most ISO_KEEP_EDGES edges, the
 * edges among them as CSR over positions in v (else off is NULL). */
#define ISO_KEEP_EDGES 65536u
typedef struct iso_subgraph {
    uint32_t n;     /* vertices */
    uint32_t *v;
    uint32_t *off;  /* n + 1 offsets into dst / bits, or NULL */
    uint32_t *dst;  /* positions in v */
    uint8_t *bits;
} iso_subgraph;

/* A subgraph that must stay acyclic: the edges whose bits meet n (and rw
 * edges too when rw), or with ext the relation n extended by one rw hop
 * (n ∪ n;rw). */
typedef struct iso_exists_spec {
    int id;             /* the caller's name for it */
    uint8_t n, rw, ext;
    uint32_t redundant; /* bit j: not looked for in a component where
                           spec j (an earlier one) was found cyclic */
} iso_exists_spec;

typedef struct iso_cycle_exists {
    int id;             /* of the spec */
    iso_subgraph scc;   /* its smallest cyclic class in the component */
} iso_cycle_exists;

typedef struct iso_cycle_timeout {
    int type;           /* the cycle type whose search ran out of budget */
    int whole;          /* 1: its share of total_ms ran out, not timeout_ms */
    iso_subgraph comp;  /* the component */
} iso_cycle_timeout;

#define ISO_MAX_EXISTS 16
typedef struct iso_search_req {
    /* Cycle types to search, in this order: each in every component
     * (one cycle of each type found there). */
    int order[ISO_N_CYCLE_TYPES];
    int n_order;
    /* On a timeout, the subgraphs to test, in this order. */
    iso_exists_spec exists[ISO_MAX_EXISTS];
    int n_exists;
    long timeout_ms;           /* per component; <= 0: no limit */
    long total_ms;             /* the whole search, shared; <= 0: no limit */
    /* The data relations in the order the workload's explainer names an
     * edge (Elle's analyzer order): an edge stands for the first of these it
     * carries, else process, else real-time order. {0} = ww, wr, rw. */
    uint8_t data_order[3];
    int threads;               /* components searched in parallel */
} iso_search_req;

typedef struct iso_search_out {
    iso_cycle *cycles;          /* ordered by component, then request order */
    size_t n_cycles, cap_cycles;
    iso_cycle_exists *exists;
    size_t n_exists, cap_exists;
    iso_cycle_timeout *timeouts;
    size_t n_timeouts, cap_timeouts;
} iso_search_out;

int iso_search_cycles(const iso_graph *g, const iso_search_req *req,
                      iso_search_out *out);
void iso_search_out_free(iso_search_out *out);

#endif
