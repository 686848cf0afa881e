/*
 * test_hub.c -- hubs: a group of reader -> writer edges kept as r -> hub
 * -> w means what its pairs (r != w) mean: the same edges to
 * iso_graph_edge, and the same cycles, cycle-exists classes and timeouts
 * from the search, on hand-made graphs and on random ones compared with
 * the same graph built from pairs.
 */
#include "testutil.h"
#include "check/search.h"
#include "graph/same_search.h"

#define W ISO_EDGE_WW
#define R ISO_EDGE_WR
#define A ISO_EDGE_RW
#define P ISO_EDGE_PROCESS

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

static void want_all(iso_search_req *q, uint8_t order_edges)
{
    iso_search_request(q, order_edges);
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

/* A random graph over n transactions: direct edges of any bits, and
 * groups (readers x writers, repeats and overlaps allowed), into es as
 * hubs or as pairs. */
typedef struct rgraph {
    uint32_t n, m, groups;
    uint32_t e[48][3];
    uint32_t rd[4][8], wr[4][8], nr[4], nw[4];
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
    iso_edges_free(&es);
}

/* Random graphs: the pairs' graph and the hubs' graph agree on every
 * edge between transactions and on everything the search reports, for
 * the full request, one without rw edges (hubs masked out: their pairs
 * still add rw to a direct edge, which changes what it stands for), and
 * the -process types alone. */
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
            want_all(&q, P);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges_through_hub),
        cmocka_unit_test(test_group_threshold),
        cmocka_unit_test(test_self_pair_is_no_cycle),
        cmocka_unit_test(test_cycle_through_hub),
        cmocka_unit_test(test_random_hubs_equal_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
