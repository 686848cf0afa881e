/*
 * graph/cycle_exists.c -- what a component whose search ran out of budget
 * still proves: Elle's cycle-exists-specs (does it make a model's subgraph
 * cyclic, and its smallest cyclic class), and the subgraphs kept for
 * pictures, whose edges are those the pairs would make.
 *
 * Hubs stay vertices: a class of transactions is what it is with the
 * pairs (a hub only joins classes its pairs join; a transaction's pair
 * with itself, r -> hub -> r, is undone where it could count), and a
 * subgraph's edges are made only when there are at most ISO_KEEP_EDGES.
 */
#include "graph/cycle_int.h"

#include <stdlib.h>
#include <string.h>

/* The graph whose cycles are those of n ∪ n;rw: copy 0 of a transaction
 * (2a) is entered by an n edge, copy 1 (2a + 1) by an rw edge, which copy
 * 1 cannot take; hub j is vertex 2k + j, from copy 0 of its readers to
 * copy 1 of its writers. */
static void ext_graph(const cyc_local *L, uint8_t n, iso_graph *h)
{
    const iso_graph *g = &L->g;
    uint32_t k = L->k;
    iso_edges es = {0};
    for (uint32_t a = 0; a < g->n; a++)
        for (uint32_t e = g->off[a]; e < g->off[a + 1]; e++) {
            uint32_t b = g->dst[e];
            if (a >= k || b >= k) { /* a hub's edge: 2k + j is k + its local id */
                iso_edges_add(&es, a >= k ? k + a : 2 * a, a >= k ? 2 * b + 1 : k + b, 1);
                continue;
            }
            if (g->bits[e] & n) {
                iso_edges_add(&es, 2 * a, 2 * b, 1);
                iso_edges_add(&es, 2 * a + 1, 2 * b, 1);
            }
            if (g->bits[e] & ISO_EDGE_RW) iso_edges_add(&es, 2 * a, 2 * b + 1, 1);
        }
    iso_graph_build(h, 2 * k + g->n_hubs, &es);
    iso_edges_free(&es);
}

/* In comp (the classes of ext_graph, nc of them), copy 1 of w belongs to
 * its class only through an rw pair into w from a transaction (not w)
 * whose copy 0 is there: else only w's pair with itself put it there, and
 * it gets a class of its own. Returns the classes' count. */
static uint32_t drop_self_pairs(const cyc_local *L, uint32_t *comp, uint32_t nc)
{
    const iso_graph *r = &L->r;
    uint32_t k = L->k, nh = L->g.n_hubs;
    uint32_t *cnt = iso_xcalloc(nh ? nh : 1, sizeof *cnt), *one = iso_xmalloc((nh ? nh : 1) * sizeof *one);
    for (uint32_t j = 0; j < nh; j++) /* readers in the hub's class: how many, and one */
        for (uint32_t e = r->off[k + j]; e < r->off[k + j + 1]; e++)
            if (comp[2 * r->dst[e]] == comp[2 * k + j]) cnt[j]++, one[j] = r->dst[e];
    for (uint32_t w = 0; w < k; w++) {
        uint32_t c = comp[2 * w + 1], e = r->off[w];
        int real = 0;
        for (; !real && e < L->rhub_at[w]; e++) real = (r->bits[e] & ISO_EDGE_RW) && comp[2 * r->dst[e]] == c;
        for (; !real && e < r->off[w + 1]; e++) {
            uint32_t j = r->dst[e] - k;
            real = comp[2 * k + j] == c && (cnt[j] > 1 || (cnt[j] == 1 && one[j] != w));
        }
        if (!real) comp[2 * w + 1] = nc++;
    }
    iso_free(cnt);
    iso_free(one);
    return nc;
}

/* The smallest non-trivial class of comp[0..n) (ties: the one holding the
 * lowest vertex); its vertices, divided by stride, go to *out (ascending,
 * unique). Returns their count, 0 if every class is a single vertex. */
static uint32_t smallest_class(const uint32_t *comp, uint32_t n, uint32_t nc, uint32_t stride,
                               uint32_t **out)
{
    uint32_t *size = iso_xcalloc(nc ? nc : 1, sizeof *size);
    for (uint32_t v = 0; v < n; v++) size[comp[v]]++;
    uint32_t best = ISO_NONE, m = 0;
    for (uint32_t v = 0; v < n; v++)
        if (size[comp[v]] > 1 && (best == ISO_NONE || size[comp[v]] < size[best])) best = comp[v];
    if (best != ISO_NONE) {
        *out = iso_xmalloc(size[best] * sizeof **out);
        for (uint32_t v = 0; v < n; v++)
            if (comp[v] == best && (m == 0 || (*out)[m - 1] != v / stride)) (*out)[m++] = v / stride;
    }
    iso_free(size);
    return m;
}

void cyc_keep_subgraph(const cyc_local *L, uint32_t *locals, uint32_t n, iso_subgraph *sub)
{
    *sub = (iso_subgraph){n, locals, NULL, NULL, NULL};
    uint32_t k = L->k, gn = L->g.n;
    uint32_t *pos = iso_xmalloc((size_t)k * sizeof *pos), *lab = iso_xmalloc((size_t)gn * sizeof *lab);
    memset(pos, 0xff, (size_t)k * sizeof *pos);
    for (uint32_t y = 0; y < gn; y++) lab[y] = y < k; /* kept: class 0, with every hub */
    for (uint32_t i = 0; i < n; i++) pos[locals[i]] = i, lab[locals[i]] = 0;
    cyc_sel sel;
    cyc_sel_init(&sel, L, lab);
    uint64_t m = 0;
    for (uint32_t i = 0; i < n && m <= ISO_KEEP_EDGES; i++) {
        for (uint32_t e = L->g.off[locals[i]]; e < L->hub_at[locals[i]]; e++) m += pos[L->g.dst[e]] != ISO_NONE;
        m += cyc_hub_pairs(&sel, locals[i]);
    }
    if (m <= ISO_KEEP_EDGES) {
        cyc_row row = {0};
        sub->off = iso_xmalloc(((size_t)n + 1) * sizeof *sub->off);
        for (uint32_t i = 0; i < n; i++) {
            sub->off[i] = (uint32_t)row.n;
            cyc_pair_row(&sel, locals[i], pos, &row);
        }
        sub->off[n] = (uint32_t)row.n;
        sub->dst = row.dst ? row.dst : iso_xmalloc(sizeof *sub->dst);
        sub->bits = row.bits ? row.bits : iso_xmalloc(1);
        iso_free(row.src);
    }
    cyc_sel_free(&sel);
    iso_free(pos);
    iso_free(lab);
    for (uint32_t i = 0; i < n; i++) locals[i] = L->glob[locals[i]];
}

void cyc_subgraph_free(iso_subgraph *sub)
{
    iso_free(sub->v);
    iso_free(sub->off);
    iso_free(sub->dst);
    iso_free(sub->bits);
}

/* Does the component make spec's subgraph cyclic? Fills x with the proof. */
static int exists_in(cyc_search *S, const iso_exists_spec *sp, iso_cycle_exists *x)
{
    const cyc_local *L = S->L;
    uint32_t *locals = NULL, n;
    if (sp->ext) {
        iso_graph h;
        ext_graph(L, sp->n, &h);
        uint32_t *comp = iso_xmalloc((h.n ? h.n : 1) * sizeof *comp);
        uint32_t nc = drop_self_pairs(L, comp, iso_scc(&h, 0xff, comp));
        n = smallest_class(comp, 2 * L->k, nc, 2, &locals);
        iso_free(comp);
        iso_graph_free(&h);
    } else {
        uint32_t nc = cyc_sub_components(S, (uint8_t)(sp->n | (sp->rw ? ISO_EDGE_RW : 0)));
        n = smallest_class(S->sub, L->k, nc, 1, &locals);
    }
    if (!n) return 0;
    x->id = sp->id;
    cyc_keep_subgraph(L, locals, n, &x->scc);
    return 1;
}

void cyc_exists_all(cyc_search *S, const iso_search_req *req, iso_cycle_exists **out, size_t *n,
                    size_t *cap)
{
    uint32_t found = 0;
    for (int i = 0; i < req->n_exists; i++) {
        iso_cycle_exists x;
        if ((req->exists[i].redundant & found) || !exists_in(S, &req->exists[i], &x)) continue;
        found |= 1u << i;
        ISO_PUSH(*out, *n, *cap, x);
    }
}
