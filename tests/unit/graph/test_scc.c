/*
 * test_scc.c -- strongly connected components: known small graphs, the edge
 * mask, and million-vertex chains and cycles (the iterative algorithm must
 * not overflow the stack).
 */
#include "testutil.h"
#include "graph/scc.h"

static void build(iso_graph *g, uint32_t n, const uint32_t (*es)[3], size_t m)
{
    iso_edges e = {0};
    for (size_t i = 0; i < m; i++) iso_edges_add(&e, es[i][0], es[i][1], (uint8_t)es[i][2]);
    iso_graph_build(g, n, &e);
    iso_edges_free(&e);
}

/* 0<->1 (ww), 1->2 (wr), 2->3->4->2 (ww, ww, rw), 5 alone. */
static void test_known(void **st)
{
    (void)st;
    static const uint32_t es[][3] = {
        {0, 1, ISO_EDGE_WW}, {1, 0, ISO_EDGE_WW}, {1, 2, ISO_EDGE_WR},
        {2, 3, ISO_EDGE_WW}, {3, 4, ISO_EDGE_WW}, {4, 2, ISO_EDGE_RW},
    };
    iso_graph g;
    build(&g, 6, es, 6);
    uint32_t comp[6];
    assert_int_equal(iso_scc(&g, 0xff, comp), 3);
    assert_int_equal(comp[0], comp[1]);
    assert_int_equal(comp[2], comp[3]);
    assert_int_equal(comp[3], comp[4]);
    assert_int_not_equal(comp[0], comp[2]);
    assert_int_not_equal(comp[5], comp[0]);
    assert_int_not_equal(comp[5], comp[2]);
    /* Tarjan closes sinks first: {2,3,4} before {0,1} */
    assert_true(comp[2] < comp[0]);
    /* Without rw edges the 2-3-4 cycle is broken. */
    assert_int_equal(iso_scc(&g, ISO_EDGE_WW | ISO_EDGE_WR, comp), 5);
    assert_int_equal(comp[0], comp[1]);
    assert_int_not_equal(comp[2], comp[3]);
    assert_int_not_equal(comp[3], comp[4]);
    iso_graph_free(&g);
}

static void test_million(void **st)
{
    (void)st;
    const uint32_t n = 1000000;
    iso_edges e = {0};
    for (uint32_t i = 0; i + 1 < n; i++) iso_edges_add(&e, i, i + 1, ISO_EDGE_WW);
    iso_graph g;
    iso_graph_build(&g, n, &e);
    uint32_t *comp = malloc(n * sizeof *comp);
    assert_int_equal(iso_scc(&g, 0xff, comp), n); /* a chain: all trivial */
    iso_graph_free(&g);
    iso_edges_add(&e, n - 1, 0, ISO_EDGE_RW); /* close it: one cycle */
    iso_graph_build(&g, n, &e);
    assert_int_equal(iso_scc(&g, 0xff, comp), 1);
    for (uint32_t i = 0; i < n; i++) assert_int_equal(comp[i], 0);
    assert_int_equal(iso_scc(&g, ISO_EDGE_WW, comp), n); /* masked out again */
    free(comp);
    iso_graph_free(&g);
    iso_edges_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_million),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
