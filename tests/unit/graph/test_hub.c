/*
 * test_hub.c -- hubs: a group of reader -> writer edges kept as r -> hub
 * -> w means what its pairs (r != w) mean: the same edges to
 * iso_graph_edge, and the same cycles, cycle-exists classes and timeouts
 * from the search, on hand-made graphs and on random ones (with real-time
 * windows) compared with the same graph built from pairs; a component
 * keeps its hubs, and the fallback's classes and the pictures' edges are
 * still those of the pairs; many readers of a version and as many
 * writers after it make a hub the search crosses without its pairs.
 */
#include "testutil.h"
#include "elle/search.h"
#include "graph/cycle_int.h"
#include "graph/same_search.h"

#define W ISO_EDGE_WW
#define R ISO_EDGE_WR
#define A ISO_EDGE_RW
#define P ISO_EDGE_PROCESS
#define T ISO_EDGE_REALTIME

/* A hub over n transactions: rd -> hub -> wr. */
static void add_hub(iso_edges *es, uint32_t n, const uint32_t *rd, size_t nr, const uint32_t *wr,
                    size_t nw)
{
    uint32_t h = n + es->n_hubs++;
    for (size_t i = 0; i < nr; i++) iso_edges_add(es, rd[i], h, A);
    for (size_t j = 0; j < nw; j++) iso_edges_add(es, h, wr[j], A);
}

static void add_pairs(iso_edges *es, const uint32_t *rd, size_t nr, const uint32_t *wr, size_t nw)
{
    for (size_t i = 0; i < nr; i++)
        for (size_t j = 0; j < nw; j++)
            if (rd[i] != wr[j]) iso_edges_add(es, rd[i], wr[j], A);
}

static const uint8_t *every_type(void)
{
    static uint8_t all[ISO_A_COUNT];
    for (int t = 0; t < ISO_N_CYCLE_TYPES; t++) all[t] = 1;
    return all;
}

static void want_all(iso_search_req *q, uint8_t order_edges)
{
    iso_search_request(q, order_edges, every_type());
    q->threads = 1;
}

static void test_edges_through_hub(void **st)
{
    (void)st;
    iso_edges es = {0};
    uint32_t rd[] = {0, 1, 2}, wr[] = {2, 3, 3};
    add_hub(&es, 5, rd, 3, wr, 3);
    iso_edges_add(&es, 0, 3, W); /* a direct edge beside a pair */
    iso_graph g;
    iso_graph_build(&g, 5, &es);
    assert_int_equal(g.n, 6);
    assert_int_equal(iso_graph_txns(&g), 5);
    assert_int_equal(iso_graph_edge(&g, 0, 2), A);
    assert_int_equal(iso_graph_edge(&g, 0, 3), W | A);
    assert_int_equal(iso_graph_edge(&g, 1, 3), A);
    assert_int_equal(iso_graph_edge(&g, 2, 2), 0); /* a reader is no writer after itself */
    assert_int_equal(iso_graph_edge(&g, 2, 3), A);
    assert_int_equal(iso_graph_edge(&g, 3, 0), 0);
    assert_int_equal(iso_graph_edge(&g, 4, 3), 0);
    assert_int_equal(iso_graph_edge(&g, 0, 5), 0); /* the hub is no transaction */
    iso_graph_free(&g);
    iso_edges_free(&es);
}

/* iso_edges_add_group: pairs up to the threshold, a hub above it, nothing
 * for a group that is one transaction with itself. */
static void test_group_threshold(void **st)
{
    (void)st;
    size_t min = iso_hub_min();
    uint32_t rd[40], wr[40];
    for (uint32_t i = 0; i < 40; i++) rd[i] = i, wr[i] = 40 + i;
    size_t nr = min < 1600 ? min / 40 + 1 : 40, nw = 40;
    iso_edges es = {0};
    iso_edges_add_group(&es, 80, rd, nr, wr, nw, A);
    if (nr * nw > min) {
        assert_int_equal(es.n_hubs, 1);
        assert_int_equal(es.n, nr + nw);
    } else {
        assert_int_equal(es.n_hubs, 0);
        assert_int_equal(es.n, nr * nw);
    }
    iso_edges_free(&es);
    uint32_t same[] = {7, 7, 7};
    iso_edges_add_group(&es, 80, same, 3, same, 2, A);
    assert_int_equal(es.n, 0);
    assert_int_equal(es.n_hubs, 0);
    iso_edges_free(&es);
}

/* A transaction that reads the version and writes after it, alone with
 * the hub: strongly connected with it, but no cycle and no component. */
static void test_self_pair_is_no_cycle(void **st)
{
    (void)st;
    iso_edges es = {0};
    uint32_t rd[] = {0, 1}, wr[] = {0, 2};
    add_hub(&es, 3, rd, 2, wr, 2);
    iso_graph g;
    iso_graph_build(&g, 3, &es);
    iso_search_req q;
    want_all(&q, P | ISO_EDGE_REALTIME);
    iso_search_out out = {0};
    iso_search_cycles(&g, &q, &out);
    assert_int_equal(out.n_cycles, 0);
    assert_int_equal(out.n_exists, 0);
    assert_int_equal(out.n_timeouts, 0);
    iso_search_out_free(&out);
    iso_graph_free(&g);
    iso_edges_free(&es);
}

/* A G-single through the hub: 1 -rw-> 2 (hub), 2 -wr-> 1, one rw edge
 * of length one. */
static void test_cycle_through_hub(void **st)
{
    (void)st;
    iso_edges es = {0};
    uint32_t rd[] = {0, 1, 3}, wr[] = {2, 4};
    add_hub(&es, 5, rd, 3, wr, 2);
    iso_edges_add(&es, 2, 1, R);
    iso_graph g;
    iso_graph_build(&g, 5, &es);
    iso_search_req q;
    want_all(&q, 0);
    iso_search_out out = {0};
    iso_search_cycles(&g, &q, &out);
    assert_int_equal(out.n_cycles, 1);
    assert_int_equal(out.cycles[0].type, ISO_A_G_SINGLE_ITEM);
    assert_int_equal(out.cycles[0].len, 2);
    assert_int_equal(out.cycles[0].v[0], 1);
    assert_int_equal(out.cycles[0].v[1], 2);
    assert_int_equal(out.cycles[0].e[0], A);
    assert_int_equal(out.cycles[0].e[1], R);
    iso_search_out_free(&out);
    iso_graph_free(&g);
    iso_edges_free(&es);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

/* A random graph over n transactions: direct edges of any bits, groups
 * (readers x writers, repeats and overlaps allowed), into es as hubs or
 * as pairs, and real-time windows (ranked as numbered: a transaction
 * precedes some of those after it). */
typedef struct rgraph {
    uint32_t n, m, groups;
    uint32_t e[48][3];
    uint32_t rd[4][8], wr[4][8], nr[4], nw[4];
    uint32_t order[16], lo[16], hi[16];
    iso_rt rt;
} rgraph;

static void rgraph_make(rgraph *r)
{
    static const uint8_t kinds[] = {W, R, A, P, W | A, R | A, P | A, W | R};
    r->n = 2 + rnd(9);
    r->m = rnd(3 * r->n);
    for (uint32_t i = 0; i < r->m; i++)
        r->e[i][0] = rnd(r->n), r->e[i][1] = rnd(r->n), r->e[i][2] = kinds[rnd(8)];
    r->groups = 1 + rnd(4);
    for (uint32_t k = 0; k < r->groups; k++) {
        r->nr[k] = 1 + rnd(8);
        r->nw[k] = 1 + rnd(8);
        for (uint32_t i = 0; i < r->nr[k]; i++) r->rd[k][i] = rnd(r->n);
        for (uint32_t i = 0; i < r->nw[k]; i++) r->wr[k][i] = rnd(r->n);
    }
    r->rt = (iso_rt){r->n, r->order, r->lo, r->hi, 0};
    for (uint32_t a = 0; a < r->n; a++) {
        r->order[a] = a;
        r->lo[a] = a + 1;
        r->hi[a] = rnd(3) ? r->lo[a] : a + 1 + rnd(r->n - a);
        r->rt.n_edges += r->hi[a] - r->lo[a];
    }
}

static void rgraph_build(const rgraph *r, int hubs, iso_graph *g)
{
    iso_edges es = {0};
    for (uint32_t i = 0; i < r->m; i++) iso_edges_add(&es, r->e[i][0], r->e[i][1], (uint8_t)r->e[i][2]);
    for (uint32_t k = 0; k < r->groups; k++) {
        if (hubs) add_hub(&es, r->n, r->rd[k], r->nr[k], r->wr[k], r->nw[k]);
        else add_pairs(&es, r->rd[k], r->nr[k], r->wr[k], r->nw[k]);
    }
    iso_graph_build(g, r->n, &es);
    g->rt = &r->rt;
    iso_edges_free(&es);
}

/* Random graphs: the pairs' graph and the hubs' graph agree on every
 * edge between transactions and on everything the search reports, for
 * the full request, one without rw edges (hubs masked out: their pairs
 * still add rw to a direct edge or a real-time one, which changes what it
 * stands for), and the -process types alone. */
static void test_random_hubs_equal_pairs(void **st)
{
    (void)st;
    for (int iter = 0; iter < 3000; iter++) {
        rgraph r;
        rgraph_make(&r);
        iso_graph gp, gh;
        rgraph_build(&r, 0, &gp);
        rgraph_build(&r, 1, &gh);
        for (uint32_t a = 0; a < r.n; a++)
            for (uint32_t b = 0; b < r.n; b++) assert_int_equal(iso_graph_edge(&gp, a, b), iso_graph_edge(&gh, a, b));
        for (int variant = 0; variant < 3; variant++) {
            iso_search_req q;
            want_all(&q, P | T);
            if (variant == 1) { /* G0 and G1c alone: no rw edge in the mask */
                int keep = 0;
                for (int t = 0; t < q.n_order; t++)
                    if (q.order[t] / 3 == ISO_CB_G0 || q.order[t] / 3 == ISO_CB_G1C) q.order[keep++] = q.order[t];
                q.n_order = keep;
                q.n_exists = 0;
            }
            if (variant == 2) { /* the -process types alone */
                int keep = 0;
                for (int t = 0; t < q.n_order; t++)
                    if (q.order[t] % 3 == ISO_CV_PROCESS) q.order[keep++] = q.order[t];
                q.n_order = keep;
            }
            iso_search_out op = {0}, oh = {0};
            iso_search_cycles(&gp, &q, &op);
            iso_search_cycles(&gh, &q, &oh);
            same_out(&op, &oh);
            iso_search_out_free(&op);
            iso_search_out_free(&oh);
        }
        iso_graph_free(&gp);
        iso_graph_free(&gh);
    }
}

/* The component of g (under every edge) with the most transactions, ties
 * to the one with the lowest, copied as the search copies it: its
 * transactions in *verts. 0 when every one is alone. */
static uint32_t local_of(const iso_graph *g, cyc_local *L, uint32_t **verts, uint32_t **lid, uint32_t **comp)
{
    uint32_t nt = iso_graph_txns(g), best = ISO_NONE, k = 0;
    *comp = test_malloc(g->n * sizeof **comp);
    uint32_t nc = iso_scc(g, 0xff, *comp), *size = test_calloc(nc, sizeof *size);
    for (uint32_t v = 0; v < nt; v++) size[(*comp)[v]]++;
    for (uint32_t v = 0; v < nt; v++)
        if (best == ISO_NONE || size[(*comp)[v]] > size[best]) best = (*comp)[v];
    *verts = test_malloc(nt * sizeof **verts);
    *lid = test_malloc(nt * sizeof **lid);
    for (uint32_t v = 0; v < nt; v++)
        if ((*comp)[v] == best) (*lid)[v] = k, (*verts)[k++] = v;
    test_free(size);
    if (k < 2) return 0;
    cyc_local_build(L, g, *verts, k, *lid, *comp, best, 0xff);
    return k;
}

/* What the fallback and the pictures say of the component: every
 * cycle-exists class of the full request, and the whole component with
 * its edges. */
typedef struct told {
    iso_cycle_exists *x;
    size_t n, cap;
    iso_subgraph all;
} told;

static void tell(const iso_graph *g, told *t)
{
    cyc_local L;
    uint32_t *verts, *lid, *comp, k = local_of(g, &L, &verts, &lid, &comp);
    memset(t, 0, sizeof *t);
    if (k) {
        cyc_search S;
        uint8_t lead[32];
        iso_search_req q;
        want_all(&q, P | T);
        cyc_lead_table(&q, lead);
        cyc_search_init(&S, &L, 0, lead);
        cyc_exists_all(&S, &q, &t->x, &t->n, &t->cap);
        uint32_t *all = iso_xmalloc(k * sizeof *all);
        for (uint32_t i = 0; i < k; i++) all[i] = i;
        cyc_keep_subgraph(&L, all, k, &t->all);
        cyc_search_free(&S);
        cyc_local_free(&L);
    }
    test_free(verts);
    test_free(lid);
    test_free(comp);
}

static void told_free(told *t)
{
    for (size_t i = 0; i < t->n; i++) cyc_subgraph_free(&t->x[i].scc);
    iso_free(t->x);
    if (t->all.v) cyc_subgraph_free(&t->all);
}

/* Random graphs: through the hubs a component's cycle-exists classes
 * (the extended relation's too, where a transaction's pair with itself
 * must not count) and its edges for a picture are the pairs'. */
static void test_random_fallback_hubs_equal_pairs(void **st)
{
    (void)st;
    size_t classes = 0;
    for (int iter = 0; iter < 3000; iter++) {
        rgraph r;
        rgraph_make(&r);
        iso_graph gp, gh;
        rgraph_build(&r, 0, &gp);
        rgraph_build(&r, 1, &gh);
        told tp, th;
        tell(&gp, &tp);
        tell(&gh, &th);
        assert_int_equal(tp.n, th.n);
        for (size_t i = 0; i < tp.n; i++) {
            assert_int_equal(tp.x[i].id, th.x[i].id);
            same_subgraph(&tp.x[i].scc, &th.x[i].scc);
        }
        assert_int_equal(!tp.all.v, !th.all.v);
        if (tp.all.v) same_subgraph(&tp.all, &th.all);
        classes += tp.n;
        told_free(&tp);
        told_free(&th);
        iso_graph_free(&gp);
        iso_graph_free(&gh);
    }
    assert_true(classes > 1000);
}

/* n transactions append to key 1 one after another, nobody reading them,
 * then n others read its initial state: every reader -rw-> every writer,
 * one hub. The reader first in real time and the writer last close a
 * G-single-item-realtime of two edges, found as the pairs would find it
 * (n = 300: the pairs' graph too) and where the pairs would be 400M
 * (n = 20000; t2500 bounds the memory such a check takes). */
static void test_hub_realtime_two_edges(void **st)
{
    (void)st;
    for (uint32_t n = 300; n <= 20000; n = n == 300 ? 20000 : n + 1) {
        iso_edges es = {0};
        uint32_t *rd = test_malloc(n * sizeof *rd), *wr = test_malloc(n * sizeof *wr);
        for (uint32_t i = 0; i < n; i++) wr[i] = i, rd[i] = n + i;
        add_hub(&es, 2 * n, rd, n, wr, n);
        iso_rt rt = {2 * n, test_malloc(2 * n * sizeof(uint32_t)), test_malloc(2 * n * sizeof(uint32_t)),
                     test_malloc(2 * n * sizeof(uint32_t)), 2 * n - 1};
        for (uint32_t a = 0; a < 2 * n; a++) rt.order[a] = a, rt.lo[a] = a + 1, rt.hi[a] = a + 1 < 2 * n ? a + 2 : a + 1;
        iso_graph g;
        iso_graph_build(&g, 2 * n, &es);
        g.rt = &rt;
        iso_search_req q;
        want_all(&q, P | T);
        q.timeout_ms = q.total_ms = 0;
        iso_search_out out = {0};
        iso_search_cycles(&g, &q, &out);
        assert_int_equal(out.n_timeouts, 0);
        assert_int_equal(out.n_cycles, 1);
        assert_int_equal(out.cycles[0].type, ISO_A_G_SINGLE_ITEM_REALTIME);
        assert_int_equal(out.cycles[0].len, 2);
        assert_int_equal(out.cycles[0].v[0], n - 1); /* the last writer, */
        assert_int_equal(out.cycles[0].v[1], n);     /* the first reader */
        assert_int_equal(out.cycles[0].e[0], T);
        assert_int_equal(out.cycles[0].e[1], A);
        if (n == 300) {
            iso_edges ep = {0};
            add_pairs(&ep, rd, n, wr, n);
            iso_graph gp;
            iso_graph_build(&gp, 2 * n, &ep);
            gp.rt = &rt;
            iso_search_out op = {0};
            iso_search_cycles(&gp, &q, &op);
            same_out(&op, &out);
            iso_search_out_free(&op);
            iso_graph_free(&gp);
            iso_edges_free(&ep);
        }
        iso_search_out_free(&out);
        iso_graph_free(&g);
        iso_edges_free(&es);
        test_free(rt.order);
        test_free(rt.lo);
        test_free(rt.hi);
        test_free(rd);
        test_free(wr);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges_through_hub),
        cmocka_unit_test(test_group_threshold),
        cmocka_unit_test(test_self_pair_is_no_cycle),
        cmocka_unit_test(test_cycle_through_hub),
        cmocka_unit_test(test_random_hubs_equal_pairs),
        cmocka_unit_test(test_random_fallback_hubs_equal_pairs),
        cmocka_unit_test(test_hub_realtime_two_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
