/*
 * test_graph.c -- edge triples and the CSR build: rows sorted, parallel
 * edges merged by OR-ing bits, self-loops and out-of-range endpoints
 * dropped, lookup by binary search, empty graphs.
 */
#include "testutil.h"
#include "graph/graph.h"

static void test_build_merge_lookup(void **st)
{
    (void)st;
    iso_edges es = {0};
    iso_edges_add(&es, 2, 0, ISO_EDGE_WW);
    iso_edges_add(&es, 0, 3, ISO_EDGE_WR);
    iso_edges_add(&es, 0, 1, ISO_EDGE_RW);
    iso_edges_add(&es, 0, 3, ISO_EDGE_REALTIME); /* parallel: merged */
    iso_edges_add(&es, 1, 1, ISO_EDGE_WW);       /* self-loop: dropped */
    iso_edges_add(&es, 0, 9, ISO_EDGE_WW);       /* out of range: dropped */
    iso_edges_add(&es, 2, 0, ISO_EDGE_WW);       /* duplicate */
    iso_graph g;
    iso_graph_build(&g, 4, &es);
    assert_int_equal(es.n, 7); /* triples untouched */
    assert_int_equal(g.n, 4);
    assert_int_equal(g.n_edges, 3);
    assert_int_equal(g.off[0], 0);
    assert_int_equal(g.off[1], 2);
    assert_int_equal(g.dst[0], 1);
    assert_int_equal(g.dst[1], 3);
    assert_int_equal(iso_graph_edge(&g, 0, 3), ISO_EDGE_WR | ISO_EDGE_REALTIME);
    assert_int_equal(iso_graph_edge(&g, 0, 1), ISO_EDGE_RW);
    assert_int_equal(iso_graph_edge(&g, 2, 0), ISO_EDGE_WW);
    assert_int_equal(iso_graph_edge(&g, 1, 1), 0);
    assert_int_equal(iso_graph_edge(&g, 3, 0), 0);
    assert_int_equal(iso_graph_edge(&g, 0, 2), 0);
    assert_int_equal(iso_graph_edge(&g, 7, 0), 0);
    iso_graph_free(&g);
    iso_edges_free(&es);
    assert_null(es.e);
}

/* A long row (qsort path) and many random edges against a dense matrix. */
static void test_random_against_matrix(void **st)
{
    (void)st;
    enum { N = 60 };
    static uint8_t m[N][N];
    memset(m, 0, sizeof m);
    iso_edges es = {0};
    uint64_t x = 12345;
    for (int i = 0; i < 5000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t a = (uint32_t)(x >> 33) % N, b = (uint32_t)(x >> 17) % N;
        if (i < 200) a = 7; /* one long row */
        uint8_t bits = (uint8_t)(1u << ((x >> 50) % 5));
        iso_edges_add(&es, a, b, bits);
        if (a != b) m[a][b] |= bits;
    }
    iso_graph g;
    iso_graph_build(&g, N, &es);
    size_t count = 0;
    for (uint32_t a = 0; a < N; a++) {
        for (uint32_t e = g.off[a]; e + 1 < g.off[a + 1]; e++) assert_true(g.dst[e] < g.dst[e + 1]);
        for (uint32_t b = 0; b < N; b++) {
            assert_int_equal(iso_graph_edge(&g, a, b), m[a][b]);
            count += m[a][b] != 0;
        }
    }
    assert_int_equal(g.n_edges, count);
    iso_graph c; /* consuming the triples builds the same graph */
    iso_graph_build_consume(&c, N, &es);
    assert_int_equal(es.n, 0);
    assert_null(es.e);
    assert_int_equal(c.n_edges, g.n_edges);
    assert_memory_equal(c.off, g.off, (N + 1) * sizeof *c.off);
    assert_memory_equal(c.dst, g.dst, g.n_edges * sizeof *c.dst);
    assert_memory_equal(c.bits, g.bits, g.n_edges);
    iso_graph_free(&c);
    iso_graph_free(&g);
}

static void test_empty(void **st)
{
    (void)st;
    iso_edges es = {0};
    iso_graph g;
    iso_graph_build(&g, 0, &es);
    assert_int_equal(g.n_edges, 0);
    assert_int_equal(iso_graph_edge(&g, 0, 0), 0);
    iso_graph_free(&g);
    iso_graph_build(&g, 3, &es);
    assert_int_equal(g.off[3], 0);
    iso_graph_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_merge_lookup),
        cmocka_unit_test(test_random_against_matrix),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
