/*
 * graph/cycle_int.h -- internals of the cycle search shared by cycle_search.c
 * (driver, budgets, threads), cycle_local.c (a component as a graph of its
 * own, hubs kept), cycle_bfs.c (the per-component breadth-first search
 * over (vertex, path state)) and cycle_exists.c (the cycle-exists
 * fallback and the subgraphs kept for pictures).
 *
 * A component is copied into a graph of its own (local ids 0..k-1 in
 * ascending global order, then its hubs) so that every buffer is sized by
 * the component. A hub stays one vertex: it stands for its pairs (reader
 * r -> writer w, r != w, rw), and the search sees exactly the graph the
 * pairs would have made without making them. A transaction's row is its
 * direct entries (their bits OR-ed with those of the pairs they share with
 * its hubs: the entry is what the pair stands for), then its hubs; a
 * pair r -> w counts only where r has no direct entry to w.
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

/* The relations an edge may stand for in a cycle: of its data relations,
 * the one Elle's explainer names it by (the workload's order: the first
 * that explains it), so that searching by it finds exactly the cycles
 * Elle's classifier accepts; and besides, process and real-time order when
 * the pair has them: a pair that is both rw and process order is in the
 * strong-session graph as process order whatever its data (the bug of
 * docs/MODELS.md's findings). lead[bits] is that set of labels for every
 * combination of the five edge bits; a walk takes one label per edge. */
void cyc_lead_table(const iso_search_req *req, uint8_t lead[32]);

/* Returns 0 if the type cannot be produced (predicate types). */
int cyc_spec_init(cyc_spec *sp, int type);
uint8_t cyc_step(uint8_t s, uint8_t label);
uint8_t cyc_first(uint8_t label);
int cyc_state_type(uint8_t s);  /* the type of a closed walk in state s */

/* ---- the component (cycle_local.c) ---------------------------------- */

typedef struct cyc_local {
    uint32_t k;             /* transactions; hubs are local vertices k .. g.n - 1 */
    const uint32_t *glob;   /* local -> global transaction (borrowed) */
    iso_graph g, r;         /* edges inside the component, and reversed (g.n_hubs hubs) */
    uint32_t *hub_at;       /* per transaction: where its hubs start in its row of g, */
    uint32_t *rhub_at;      /* and in its row of r (the hubs it writes after) */
    uint32_t *pdeg;         /* per transaction: its row's length as pairs */
    uint64_t pairs;         /* their sum: the component's edges as pairs */
} cyc_local;

/* verts: the component's transactions, ascending; local_id[v]: v's
 * position in its own component's list (one array serves every
 * component); mask: the edges any search may use. */
void cyc_local_build(cyc_local *L, const iso_graph *g, const uint32_t *verts, uint32_t k,
                     const uint32_t *local_id, const uint32_t *comp, uint32_t c, uint8_t mask);
void cyc_local_free(cyc_local *L);

/* A map from keys (never 0) to values, by open addressing: what the
 * search counts once per set or pair of hubs. */
typedef struct cyc_map {
    uint64_t *key, *val;
    size_t cap, n;
} cyc_map;
/* key's value, 0 and *fresh set when it was not there; valid until the
 * next call. */
uint64_t *cyc_map_at(cyc_map *m, uint64_t key, int *fresh);
void cyc_map_free(cyc_map *m);

/* The hubs' pairs inside a class of the component's vertices (lab[v]: v's
 * class; NULL: the whole component): per hub, its writers in its own
 * class (a pair inside a class runs through a hub of that class) and how
 * many of its readers are there. */
typedef struct cyc_sel {
    const cyc_local *L;
    const uint32_t *lab;
    uint32_t *off, *w;      /* hub j: w[off[j] .. off[j + 1]), ascending */
    uint32_t *nr;           /* hub j: its readers in its class */
    cyc_map memo;           /* union sizes of sets of hubs, by their hash */
    uint32_t *stamp, cur;   /* per transaction, for counting a union */
} cyc_sel;

void cyc_sel_init(cyc_sel *s, const cyc_local *L, const uint32_t *lab);
void cyc_sel_free(cyc_sel *s);
/* The pairs of u's hubs in u's class that its row does not hold already
 * (u itself and its direct entries left out): what they add to its row. */
uint64_t cyc_hub_pairs(cyc_sel *s, uint32_t u);
/* Whether some pair of a hub in v's class ends at v from a transaction of
 * that class with no direct entry to v. */
int cyc_hub_in(const cyc_sel *s, uint32_t v);

/* A sorted list merged with a transaction's direct entries: its items,
 * and where the merge stands. keep, nkeep and slot are the caller's. */
typedef struct cyc_src {
    const uint32_t *y;
    uint32_t n, i;
    int hit;                /* it held the transaction last returned */
    uint32_t *keep, nkeep, slot;
} cyc_src;

/* The smallest transaction not yet passed among direct entries [*e, end)
 * of g and the sources (each then passed, hit set where a source held
 * it); *direct: its entry's index, or ISO_NONE. UINT32_MAX: all done. */
uint32_t cyc_merge_next(const iso_graph *g, uint32_t *e, uint32_t end, cyc_src *src, unsigned m,
                        uint32_t *direct);
/* u's row as the pairs would make it, inside s's class of u, appended to
 * out (destinations through pos; transactions with pos ISO_NONE left out). */
typedef struct cyc_row {
    uint32_t *dst;
    uint8_t *bits;
    size_t n, cap;
    cyc_src *src;
    size_t cap_src;
} cyc_row;
void cyc_pair_row(const cyc_sel *s, uint32_t u, const uint32_t *pos, cyc_row *out);
void cyc_row_free(cyc_row *r);

/* ---- the search (cycle_bfs.c) ---------------------------------------- */

/* A closed walk in local ids: v[i] -e[i]-> v[i+1 mod len]. */
typedef struct cyc_walk {
    uint32_t *v;
    uint8_t *e;
    uint32_t len, cap;
} cyc_walk;

typedef struct cyc_qent { uint32_t v, parent, depth; uint8_t s, label; } cyc_qent;

/* Sub-components under one mask, with what seeds and hubs need of them. */
typedef struct cyc_subs {
    uint8_t mask;
    uint32_t n;
    uint32_t *sub;
    uint64_t *cnt;          /* per sub-component: edges per label (count_labels); NULL: no edge */
    cyc_sel sel;            /* the hubs inside sub-components */
} cyc_subs;

/* Search buffers for one component, reused across types. */
typedef struct cyc_search {
    const cyc_local *L;
    uint64_t *seen;      /* per transaction: bit per compact state */
    uint32_t *tgt;       /* == stamp: a tail of the current seed edges */
    uint32_t head;       /* of the current search */
    int hub_tails;       /* the readers of its hubs may be tails */
    uint32_t *sub;       /* sub-component under the type's allowed edges */
    const uint64_t *cnt; /* per sub-component: edges per label; NULL: no edge */
    cyc_sel *sel;        /* the hubs inside them */
    cyc_subs subs[16];
    unsigned n_subs;     /* sub-components computed so far, by mask */
    uint8_t *cand;       /* per sub-component: seed label, 0 = none */
    uint32_t stamp;
    cyc_qent *q;
    size_t nq, capq;
    /* Writers of a hub not yet seen in a state: per hub and compact state
     * (slot), a run of the pool (len UINT32_MAX: the hub not yet entered
     * in that state in this search), and the slots entered. */
    uint32_t *slot_off, *slot_len, *pool, *touched;
    size_t n_slots, npool, cap_pool, ntouched, cap_touched;
    unsigned nstates;    /* compact states of the current type */
    cyc_src *src;
    size_t cap_src;
    cyc_map imemo;       /* writers of one hub that read another: runs of ipool */
    uint32_t *ipool;
    size_t n_ipool, cap_ipool;
    double deadline;     /* iso_now() limit, 0 = none */
    const uint8_t *lead; /* cyc_lead_table */
    unsigned long steps;
    uint64_t work;       /* edges looked at (a hub's as pairs), and since when */
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

/* ---- the fallback and pictures (cycle_exists.c) ---------------------- */

/* Elle's cycle-exists-cases in req's order (a spec that an earlier one
 * found makes redundant is not tested): each spec whose subgraph the
 * component makes cyclic, with its smallest cyclic class, into *out. */
void cyc_exists_all(cyc_search *S, const iso_search_req *req, iso_cycle_exists **out, size_t *n,
                    size_t *cap);
/* sub: the transactions locals[0..n) (ascending local ids; taken) as
 * global ids, and the edges among them, as pairs, when they are at most
 * ISO_KEEP_EDGES. */
void cyc_keep_subgraph(const cyc_local *L, uint32_t *locals, uint32_t n, iso_subgraph *sub);
void cyc_subgraph_free(iso_subgraph *sub);

#endif
