/*
 * elle/long_fork.c -- prefix consistency's violation, found on the graph
 * the cycle search used (issue 25): a cycle of WW ∪ WR ∪ (WR ; RW), data
 * edges in which every rw edge directly follows a wr edge (Cerone et al.'s
 * PC without SESSION, as Cerone & Gotsman state it on dependency graphs).
 * A long fork is such a cycle; parallel SI allows it, prefix and SI do not.
 *
 * Found in a state graph: a transaction entered by a wr edge (state 1) may
 * leave by rw, one entered otherwise (state 0) may not (a ww edge whose
 * writer's own read shows the write before it is a wr edge here: the
 * write is visible to it); a hub (a group of
 * rw pairs, graph.h) is entered from state 1 only and leads to state 0.
 * A cycle there is a cycle of the relation, and back: each component of
 * the state graph with a cycle gives one finding, the shortest cycle
 * through its first vertex, each step an edge of the data graph (hubs
 * left out: reader -rw-> writer), unless it has no rw edge (a G0 or G1c,
 * which the search reports). Only edges the history proves are used, so
 * what is reported is a violation on either workload: list-append's ww
 * edge into an append no read shows (Adya's inference: it follows every
 * version read) is not one, as prefix lets a transaction be ordered
 * before another it is not visible to (ops' ww_shown); the rw edges into
 * such an append from every read of its key are (ops' unread_groups, one
 * hub a key: the graph draws them from the last version's readers only,
 * the rest through that ww edge). With one rw edge
 * it is a G-single whose rw follows a wr (T3 saw T2, which T1's write
 * precedes, yet not T1's write), with two or more the long fork proper.
 */
#include "elle/elle.h"
#include "graph/scc.h"

#include <string.h>

typedef struct lf {
    const iso_graph *g;
    const iso_proof_ctx *pc;
    uint32_t ntx;  /* transactions: state vertices 2t, 2t + 1; hubs after */
    iso_graph sg;  /* the state graph */
    uint32_t *comp, *prev, *queue, *path;
    size_t seen;   /* the vertices the last search reached: queue[0 .. seen) */
} lf;

static uint32_t hub_vertex(const lf *x, uint32_t h) { return 2 * x->ntx + (h - x->ntx); }

/* Whether v -> u is a ww edge some read shows: 0, 1, or 2 when u's own
 * read shows v's write (ops' ww_shown: v is visible to u). */
static int ww(const lf *x, uint32_t v, uint32_t u, uint8_t bits)
{
    if (!(bits & ISO_EDGE_WW)) return 0;
    return x->pc->wl->ww_shown ? x->pc->wl->ww_shown(x->pc, v, u) : 1;
}

/* The state graph's edges out of transaction v's row. */
static void txn_edges(const lf *x, uint32_t v, iso_edges *es)
{
    for (uint32_t i = x->g->off[v]; i < x->g->off[v + 1]; i++) {
        uint32_t u = x->g->dst[i];
        uint8_t b = x->g->bits[i];
        if (u >= x->ntx) {
            iso_edges_add(es, 2 * v + 1, hub_vertex(x, u), ISO_EDGE_RW);
            continue;
        }
        int shown = ww(x, v, u, b);
        for (uint32_t s = 0; s < 2; s++) {
            if (shown) iso_edges_add(es, 2 * v + s, 2 * u + (shown == 2), ISO_EDGE_WW);
            if (b & ISO_EDGE_WR) iso_edges_add(es, 2 * v + s, 2 * u + 1, ISO_EDGE_WR);
        }
        if (b & ISO_EDGE_RW) iso_edges_add(es, 2 * v + 1, 2 * u, ISO_EDGE_RW);
    }
}

/* One group of the workload's unread_groups: a hub of its own, entered
 * from a reader's state 1, leading to each writer's state 0. */
struct groups {
    lf *x;
    iso_edges *es;
    uint32_t n; /* hubs so far */
};

static void group(void *arg, const uint32_t *rd, size_t nr, const uint32_t *wr, size_t nw)
{
    struct groups *gs = arg;
    uint32_t h = 2 * gs->x->ntx + gs->x->g->n_hubs + gs->n++;
    for (size_t i = 0; i < nr; i++) iso_edges_add(gs->es, 2 * rd[i] + 1, h, ISO_EDGE_RW);
    for (size_t i = 0; i < nw; i++) iso_edges_add(gs->es, h, 2 * wr[i], ISO_EDGE_RW);
}

static void build(lf *x)
{
    iso_edges es = {0};
    for (uint32_t v = 0; v < x->ntx; v++) txn_edges(x, v, &es);
    for (uint32_t h = x->ntx; h < x->g->n; h++)
        for (uint32_t i = x->g->off[h]; i < x->g->off[h + 1]; i++)
            if (x->g->dst[i] < x->ntx) iso_edges_add(&es, hub_vertex(x, h), 2 * x->g->dst[i], ISO_EDGE_RW);
    struct groups gs = {x, &es, 0};
    if (x->pc->wl->unread_groups) x->pc->wl->unread_groups(x->pc, group, &gs);
    iso_graph_build_consume(&x->sg, 2 * x->ntx + x->g->n_hubs + gs.n, &es);
}

/* Breadth first from s within its component (of two vertices or more)
 * back to s: the vertex before each reached one in prev (s's set last). */
static void shortest_back(lf *x, uint32_t s)
{
    size_t head = 0, tail = 0;
    x->queue[tail++] = s;
    while (head < tail) {
        uint32_t v = x->queue[head++];
        for (uint32_t i = x->sg.off[v]; i < x->sg.off[v + 1]; i++) {
            uint32_t u = x->sg.dst[i];
            if (x->comp[u] != x->comp[s] || x->prev[u] != ISO_NONE) continue;
            x->prev[u] = v;
            if (u == s) break;
            x->queue[tail++] = u;
        }
    }
    x->seen = tail;
}

/* The bit edge a -> b of the cycle stands for: a and b state vertices of
 * transactions, hub whether a hub came between them. */
static uint8_t step_bit(const lf *x, uint32_t a, uint32_t b, int hub)
{
    if (hub) return ISO_EDGE_RW;
    if (b & 1) return iso_graph_row_bits(x->g, a / 2, b / 2) & ISO_EDGE_WR ? ISO_EDGE_WR : ISO_EDGE_WW;
    if (!(a & 1) || ww(x, a / 2, b / 2, iso_graph_row_bits(x->g, a / 2, b / 2))) return ISO_EDGE_WW;
    return ISO_EDGE_RW;
}

/* The cycle through s as transactions and edge bits (hubs folded into the
 * rw edge they stand for), appended to the search's output. */
static void add_cycle(lf *x, uint32_t s, iso_search_out *out)
{
    size_t m = 0;
    uint32_t v = s;
    do { x->path[m++] = v; v = x->prev[v]; } while (v != s); /* backwards from s */
    uint32_t *st = iso_xmalloc(m * sizeof *st), n = 0;
    for (size_t k = 0; k < m; k++) st[k] = x->path[(m - k) % m]; /* forwards: s first */
    for (size_t k = 0; k < m; k++) n += st[k] < 2 * x->ntx;
    iso_cycle c = {ISO_A_LONG_FORK, n, iso_xmalloc(n * sizeof *c.v), iso_xmalloc(n)};
    uint32_t j = 0;
    for (size_t k = 0; k < m; k++) {
        if (st[k] >= 2 * x->ntx) continue;
        size_t nx = (k + 1) % m;
        int hub = st[nx] >= 2 * x->ntx;
        if (hub) nx = (nx + 1) % m;
        c.v[j] = st[k] / 2;
        c.e[j++] = step_bit(x, st[k], st[nx], hub);
    }
    iso_free(st);
    uint32_t rw = 0;
    for (uint32_t i = 0; i < n; i++) rw += c.e[i] == ISO_EDGE_RW;
    if (!rw) { /* a G0 or G1c, which the search reports */
        iso_free(c.v);
        iso_free(c.e);
        return;
    }
    ISO_PUSH(out->cycles, out->n_cycles, out->cap_cycles, c);
}

void iso_long_forks(const iso_graph *g, const iso_proof_ctx *pc, iso_search_out *out)
{
    lf x = {.g = g, .pc = pc, .ntx = iso_graph_txns(g)};
    build(&x);
    uint32_t n = x.sg.n;
    x.comp = iso_xmalloc(((size_t)n + 1) * sizeof *x.comp);
    x.prev = iso_xmalloc(((size_t)n + 1) * sizeof *x.prev);
    x.queue = iso_xmalloc(((size_t)n + 1) * sizeof *x.queue);
    x.path = iso_xmalloc(((size_t)n + 1) * sizeof *x.path);
    uint32_t nc = iso_scc(&x.sg, 0xff, x.comp);
    uint32_t *size = iso_xcalloc((size_t)nc + 1, sizeof *size);
    for (uint32_t v = 0; v < n; v++) size[x.comp[v]]++;
    memset(x.prev, 0xff, (size_t)n * sizeof *x.prev);
    for (uint32_t s = 0; s < n; s++) {
        if (size[x.comp[s]] < 2) continue; /* no loops: the data graph has none */
        size[x.comp[s]] = 0;                /* one finding a component */
        shortest_back(&x, s);
        add_cycle(&x, s, out);
        for (size_t k = 0; k < x.seen; k++) x.prev[x.queue[k]] = ISO_NONE;
    }
    iso_free(size);
    iso_free(x.comp);
    iso_free(x.prev);
    iso_free(x.queue);
    iso_free(x.path);
    iso_graph_free(&x.sg);
}
