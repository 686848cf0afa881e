/*
 * tests/unit/graph/same_search.h -- asserts that two cycle searches
 * reported the same: every cycle (type, vertices, edges), every
 * cycle-exists subgraph and the number of timeouts. For the graph tests
 * that compare one search with another (hubs against pairs, budgets and
 * threads against a plain run).
 */
#ifndef TU_SAME_SEARCH_H
#define TU_SAME_SEARCH_H

#include "testutil.h"
#include "elle/search.h"

static void same_subgraph(const iso_subgraph *a, const iso_subgraph *b)
{
    assert_int_equal(a->n, b->n);
    assert_memory_equal(a->v, b->v, a->n * sizeof *a->v);
    assert_int_equal(!a->off, !b->off);
    if (!a->off) return;
    assert_memory_equal(a->off, b->off, (a->n + 1) * sizeof *a->off);
    assert_memory_equal(a->dst, b->dst, a->off[a->n] * sizeof *a->dst);
    assert_memory_equal(a->bits, b->bits, a->off[a->n]);
}

static void same_out(const iso_search_out *a, const iso_search_out *b)
{
    assert_int_equal(a->n_cycles, b->n_cycles);
    for (size_t i = 0; i < a->n_cycles; i++) {
        assert_int_equal(a->cycles[i].type, b->cycles[i].type);
        assert_int_equal(a->cycles[i].len, b->cycles[i].len);
        assert_memory_equal(a->cycles[i].v, b->cycles[i].v, a->cycles[i].len * sizeof(uint32_t));
        assert_memory_equal(a->cycles[i].e, b->cycles[i].e, a->cycles[i].len);
    }
    assert_int_equal(a->n_exists, b->n_exists);
    for (size_t i = 0; i < a->n_exists; i++) {
        assert_int_equal(a->exists[i].id, b->exists[i].id);
        same_subgraph(&a->exists[i].scc, &b->exists[i].scc);
    }
    assert_int_equal(a->n_timeouts, b->n_timeouts);
}

#endif
