/*
 * graph/cycle_int.h -- internals of the cycle search shared by cycle_search.c (driver,
 * classification, fallback, threads) and cycle_bfs.c (the per-component
 * breadth-first search over (vertex, path state)).
 *
 * A component is copied into a graph of its own (local ids 0..k-1 in
 * ascending global order) so that every buffer is sized by the component;
 * hubs become the pairs they stand for among its members, so the search
 * sees the graph the pairs would have made.
 */
#ifndef ISO_CYCLE_INT_H
#define ISO_CYCLE_INT_H

#include "graph/cycle.h"
#include "graph/scc.h"

/* Path state bits: rw count (0, 1, 2 = two or more), whether the first and
 * the last edge were rw, whether two rw edges were adjacent, and whether a
 * wr / process / realtime edge was used. */
enum {
    CYC_S_NA = 3, CYC_S_FIRSTA = 4, CYC_S_LASTA = 8, CYC_S_ADJ = 16,
    CYC_S_R = 32, CYC_S_P = 64, CYC_S_T = 128
};

/* What one cycle type needs of a closed walk. */
typedef struct cyc_spec {
    int type;         /* anomaly id */
    uint8_t allow;    /* edge bits the walk may use */
    uint8_t req;      /* edge bits it must use at least once */
    uint8_t keep;     /* state bits that matter for this type */
    uint8_t dead;     /* state bits that make a path hopeless */
    uint8_t dead_na2; /* 1: two rw edges make a path hopeless */
    uint8_t cidx[256];/* state (masked by keep) -> compact index < 64 */
} cyc_spec;

/* The relation an edge stands for in a cycle: Elle's explainer tries the
 * workload's data relations in its order, then process and real-time
 * order, and names a pair by the first that explains it. Searching by it
 * finds exactly the cycles Elle's classifier accepts. lead[bits] is that
 * relation for every combination of the five edge bits. */
void cyc_lead_table(const iso_search_req *req, uint8_t lead[32]);

/* Returns 0 if the type cannot be produced (predicate types). */
int cyc_spec_init(cyc_spec *sp, int type);
uint8_t cyc_step(uint8_t s, uint8_t label);
uint8_t cyc_first(uint8_t label);
int cyc_state_type(uint8_t s);  /* the type of a closed walk in state s */

typedef struct cyc_local {
    uint32_t k;
    const uint32_t *glob;   /* local -> global vertex (borrowed) */
    iso_graph g, r;         /* edges inside the component, and reversed */
} cyc_local;

/* verts: the component's vertices, ascending; local_id[v]: v's position
 * in its own component's list (one array serves every component). */
void cyc_local_build(cyc_local *L, const iso_graph *g, const uint32_t *verts, uint32_t k,
                     const uint32_t *local_id, const uint32_t *comp, uint32_t c, uint8_t mask);
void cyc_local_free(cyc_local *L);

/* A closed walk in local ids: v[i] -e[i]-> v[i+1 mod len]. */
typedef struct cyc_walk {
    uint32_t *v;
    uint8_t *e;
    uint32_t len, cap;
} cyc_walk;

typedef struct cyc_qent { uint32_t v, parent, depth; uint8_t s, label; } cyc_qent;

/* Search buffers for one component, reused across types. */
typedef struct cyc_search {
    const cyc_local *L;
    uint64_t *seen;      /* per vertex: bit per compact state */
    uint32_t *tgt;       /* == stamp: a tail of the current seed edges */
    uint32_t *sub;       /* sub-component under the type's allowed edges */
    const uint32_t *cnt; /* per sub-component: edges per label (count_labels); NULL: all alone */
    struct cyc_subs { uint8_t mask; uint32_t n; uint32_t *sub, *cnt; } subs[16];
    unsigned n_subs;     /* sub-components computed so far, by mask */
    uint8_t *cand;       /* per sub-component: seed label, 0 = none */
    uint32_t stamp;
    cyc_qent *q;
    size_t nq, capq;
    double deadline;     /* iso_now() limit, 0 = none */
    const uint8_t *lead; /* cyc_lead_table */
    unsigned long steps;
    uint64_t work;       /* edges looked at, and since when */
    uint64_t work_cap;   /* searches stop when work exceeds it; 0 = none */
    int timed_out;
} cyc_search;

enum cyc_result { CYC_ABSENT = 0, CYC_FOUND = 1, CYC_TIMEOUT = -1 };

void cyc_search_init(cyc_search *S, const cyc_local *L, double deadline, const uint8_t *lead);
/* Point S->sub at the strongly connected sub-components under mask
 * (computed once per mask: the 15 types use 9). Returns their count. */
uint32_t cyc_sub_components(cyc_search *S, uint8_t mask);
void cyc_search_free(cyc_search *S);
/* Find a closed walk of sp's type: the first one (best->len == 0 on entry)
 * or, when best holds one, a strictly shorter one, until none is left or
 * S->work passes S->work_cap (best keeps the shortest found). */
int cyc_search_type(cyc_search *S, const cyc_spec *sp, cyc_walk *best);
/* Replace a walk that revisits a vertex by a shorter part of it of the
 * same type, while there is one. */
void cyc_walk_reduce(cyc_walk *w, int type);
void cyc_walk_free(cyc_walk *w);

#endif
