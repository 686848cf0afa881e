/*
 * cycle.h -- search for the cycles each anomaly type names.
 *
 * Within every strongly connected component, a breadth-first search over
 * (vertex, path state) finds a shortest cycle of each requested type
 * (anomaly.h: the 24 cycle types), most severe first, skipping types
 * implied by one already found in that component. A per-component time
 * budget ends in Elle's fallback: the *-cycle-exists proof of every model
 * whose subgraph the component violates, and a cycle-search-timeout note.
 */
#ifndef ISO_CYCLE_H
#define ISO_CYCLE_H

#include "graph/graph.h"
#include "check/anomaly.h"

typedef struct iso_cycle {
    int type;       /* anomaly id: a cycle type */
    uint32_t len;   /* edges = vertices */
    uint32_t *v;    /* v[0..len-1]; edge i runs v[i] -> v[(i+1) % len] */
    uint8_t *e;     /* e[i]: the one edge bit that edge i stands for */
} iso_cycle;

typedef struct iso_cycle_exists {
    int type;       /* a *-cycle-exists anomaly id */
    uint32_t size;  /* vertices in the component */
    uint32_t *scc;  /* its vertices, ascending */
} iso_cycle_exists;

typedef struct iso_cycle_timeout {
    int type;       /* the cycle type whose search ran out of budget */
    uint32_t size;  /* vertices in the component */
} iso_cycle_timeout;

typedef struct iso_search_req {
    uint8_t want[ISO_A_COUNT]; /* nonzero: search this cycle type / report
                                  this *-cycle-exists type */
    long timeout_ms;           /* per component; <= 0: no limit */
    /* The data relations in the order the workload's explainer names an
     * edge (Elle's analyzer order): an edge stands for the first of these it
     * carries, else process, else real-time order. {0} = ww, wr, rw. */
    uint8_t data_order[3];
    int threads;               /* components searched in parallel */
} iso_search_req;

typedef struct iso_search_out {
    iso_cycle *cycles;          /* ordered by component, then severity */
    size_t n_cycles, cap_cycles;
    iso_cycle_exists *exists;
    size_t n_exists, cap_exists;
    iso_cycle_timeout *timeouts;
    size_t n_timeouts, cap_timeouts;
} iso_search_out;

int iso_search_cycles(const iso_graph *g, const iso_search_req *req,
                      iso_search_out *out);
void iso_search_out_free(iso_search_out *out);

/* For a *-cycle-exists anomaly: the friendly name of the model it rules
 * out, and the subgraph whose strongly connected component proves it (e.g.
 * "ww wr realtime, extended by rw"). */
const char *iso_cycle_exists_model(int type);
void iso_cycle_exists_subgraph(int type, iso_buf *out);

/* Classify a cycle by its edge bits, as Elle's cycle-explainer does. */
int iso_cycle_classify(const uint8_t *e, uint32_t len);

#endif
