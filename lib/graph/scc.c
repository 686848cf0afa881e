/*
 * graph/scc.c -- strongly connected components of a CSR graph, restricted to the
 * edges whose bits intersect a mask.
 *
 * Tarjan's algorithm with an explicit call stack (vertex, next edge) in
 * place of recursion, since histories reach millions of transactions;
 * a vertex's edges are its row, then its real-time window. Components
 * are numbered as Tarjan closes them (sinks of the condensation first).
 */
#include "graph/scc.h"

#include <stdlib.h>
#include <string.h>

typedef struct tarjan {
    const iso_graph *g;
    uint8_t mask;
    uint32_t *comp;          /* ISO_NONE until the vertex's component closes */
    uint32_t *idx, *low;     /* discovery order, lowest reachable on stack */
    uint32_t *stk;           /* Tarjan's stack of open vertices */
    uint32_t *cv, *ce;       /* call stack: vertex and its next edge */
    uint32_t n_idx, sp, cp, n_comp;
} tarjan;

static void visit(tarjan *t, uint32_t v)
{
    t->idx[v] = t->low[v] = t->n_idx++;
    t->stk[t->sp++] = v;
    t->cv[t->cp] = v;
    t->ce[t->cp++] = 0; /* edge index into v's out-edges */
}

/* v's edges are done: close its component if it is a root, and pass its
 * low link to its caller. */
static void finish(tarjan *t, uint32_t v)
{
    t->cp--;
    if (t->low[v] == t->idx[v]) {
        uint32_t w;
        do {
            w = t->stk[--t->sp];
            t->comp[w] = t->n_comp;
        } while (w != v);
        t->n_comp++;
    }
    if (t->cp > 0) {
        uint32_t u = t->cv[t->cp - 1];
        if (t->low[v] < t->low[u]) t->low[u] = t->low[v];
    }
}

/* The first edge of v from its e-th on that leads to an unvisited vertex
 * (returned in *w), lowering v's link through visited ones on the way;
 * ISO_NONE when there is none. */
static uint32_t next_edge(tarjan *t, uint32_t v, uint32_t e, uint32_t *w)
{
    const iso_graph *g = t->g;
    uint32_t row = g->off[v + 1] - g->off[v], deg = iso_graph_degree(g, v);
    for (; e < deg; e++) {
        uint32_t d;
        if (e < row) {
            if (!(g->bits[g->off[v] + e] & t->mask)) continue;
            d = g->dst[g->off[v] + e];
        } else {
            if (!(t->mask & ISO_EDGE_REALTIME)) return ISO_NONE;
            d = g->rt->order[g->rt->lo[v] + e - row];
        }
        if (t->idx[d] == ISO_NONE) {
            *w = d;
            return e;
        }
        if (t->comp[d] == ISO_NONE && t->idx[d] < t->low[v]) t->low[v] = t->idx[d];
    }
    return ISO_NONE;
}

static void run_from(tarjan *t, uint32_t root)
{
    visit(t, root);
    while (t->cp > 0) {
        uint32_t v = t->cv[t->cp - 1], w = 0;
        uint32_t e = next_edge(t, v, t->ce[t->cp - 1], &w);
        if (e == ISO_NONE) {
            finish(t, v);
            continue;
        }
        t->ce[t->cp - 1] = e + 1;
        visit(t, w);
    }
}

uint32_t iso_scc(const iso_graph *g, uint8_t mask, uint32_t *comp)
{
    size_t n = g->n ? g->n : 1;
    tarjan t = {.g = g, .mask = mask, .comp = comp};
    uint32_t *work = iso_xmalloc(5 * n * sizeof *work); /* one block: often called on small graphs */
    t.idx = work;
    t.low = work + n;
    t.stk = work + 2 * n;
    t.cv = work + 3 * n;
    t.ce = work + 4 * n;
    memset(t.idx, 0xff, n * sizeof *t.idx);
    memset(comp, 0xff, (size_t)g->n * sizeof *comp);
    for (uint32_t v = 0; v < g->n; v++)
        if (t.idx[v] == ISO_NONE) run_from(&t, v);
    iso_free(work);
    return t.n_comp;
}
