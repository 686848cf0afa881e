/*
 * test_order.c -- process and real-time order edges on hand-built
 * histories (ops via iso_history_add_op, transactions built by hand), and
 * a randomized check that the real-time reduction has exactly the
 * transitive closure of "a (ok) completed before b (ok or info) was
 * invoked"; and that a graph carrying real-time order as windows (iso_rt)
 * answers edges, components and cycles exactly as one with the edges
 * spelled out.
 */
#include "testutil.h"
#include "elle/search.h"
#include "graph/order.h"
#include "graph/scc.h"

typedef struct hist {
    isolde_history *h;
    iso_txn t[64];
    size_t n;
} hist;

static void op(hist *x, int process, int type)
{
    iso_op o = {.index = (int64_t)x->h->n_ops, .time = -1, .value = ISO_NIL, .type = (unsigned)type};
    assert_int_equal(iso_history_add_op(x->h, &o, iso_int(process), ISO_NIL, ISO_NIL, NULL), 0);
}

/* Invoke a new transaction on process p; returns its id. */
static uint32_t inv(hist *x, int p)
{
    x->t[x->n] = (iso_txn){(uint32_t)x->h->n_ops, ISO_NONE, ISO_OP_INFO};
    op(x, p, ISO_OP_INVOKE);
    return (uint32_t)x->n++;
}

static void done(hist *x, uint32_t id, int p, int type)
{
    x->t[id].cmp = (uint32_t)x->h->n_ops;
    x->t[id].type = (uint8_t)type;
    op(x, p, type);
}

/* Edges of es as a set of "a>b" pairs, for comparison. */
static int has(const iso_edges *es, uint32_t a, uint32_t b, uint8_t bit)
{
    for (size_t i = 0; i < es->n; i++)
        if (es->e[i].src == a && iso_edge_dst(&es->e[i]) == b && iso_edge_bits(&es->e[i]) == bit) return 1;
    return 0;
}

static void test_process(void **st)
{
    (void)st;
    hist x = {.h = iso_history_new("t", ISOLDE_FORMAT_EDN)};
    uint32_t a = inv(&x, 0); done(&x, a, 0, ISO_OP_OK);
    done(&x, inv(&x, 0), 0, ISO_OP_FAIL); /* fail: no part */
    done(&x, inv(&x, 1), 1, ISO_OP_OK);   /* another process */
    uint32_t d = inv(&x, 0); done(&x, d, 0, ISO_OP_OK);
    uint32_t e = inv(&x, 0); done(&x, e, 0, ISO_OP_INFO); /* info: after d, before nothing */
    uint32_t f = inv(&x, 0); done(&x, f, 0, ISO_OP_OK);
    uint32_t g = inv(&x, 2); done(&x, g, 2, ISO_OP_INFO); /* first of its process: no edge */
    iso_txns t = {x.t, x.n};
    iso_edges es = {0};
    iso_process_edges(x.h, &t, &es);
    assert_int_equal(es.n, 3);
    assert_true(has(&es, a, d, ISO_EDGE_PROCESS));
    assert_true(has(&es, d, e, ISO_EDGE_PROCESS));
    assert_true(has(&es, d, f, ISO_EDGE_PROCESS));
    iso_edges_free(&es);
    isolde_history_free(x.h);
}

static void test_realtime(void **st)
{
    (void)st;
    hist x = {.h = iso_history_new("t", ISOLDE_FORMAT_EDN)};
    uint32_t a = inv(&x, 0), b = inv(&x, 1);
    done(&x, a, 0, ISO_OP_OK);
    uint32_t c = inv(&x, 2);
    done(&x, b, 1, ISO_OP_OK);
    done(&x, c, 2, ISO_OP_OK);
    uint32_t d = inv(&x, 0), e = inv(&x, 1);
    done(&x, e, 1, ISO_OP_FAIL);
    uint32_t f = inv(&x, 2); /* never completes: info */
    done(&x, d, 0, ISO_OP_OK);
    uint32_t g = inv(&x, 1);
    done(&x, g, 1, ISO_OP_OK);
    iso_txns t = {x.t, x.n};
    iso_edges es = {0};
    iso_realtime_edges(x.h, &t, &es);
    static const uint32_t want[][2] = {{0, 2}, {1, 3}, {2, 3}, {1, 5}, {2, 5}, {3, 6}};
    assert_int_equal(es.n, 6);
    for (size_t i = 0; i < 6; i++) assert_true(has(&es, want[i][0], want[i][1], ISO_EDGE_REALTIME));
    assert_int_equal(a, 0); assert_int_equal(b, 1); assert_int_equal(c, 2);
    assert_int_equal(d, 3); assert_int_equal(e, 4); assert_int_equal(f, 5); assert_int_equal(g, 6);
    iso_edges_free(&es);
    isolde_history_free(x.h);
}

/* Completions without invocations (Elle's README histories): each is an
 * instant, so they chain in real time. */
static void test_standalone(void **st)
{
    (void)st;
    hist x = {.h = iso_history_new("t", ISOLDE_FORMAT_EDN)};
    for (int i = 0; i < 3; i++) {
        x.t[x.n++] = (iso_txn){ISO_NONE, (uint32_t)x.h->n_ops, ISO_OP_OK};
        op(&x, i % 2, ISO_OP_OK);
    }
    iso_txns t = {x.t, x.n};
    iso_edges es = {0};
    iso_realtime_edges(x.h, &t, &es);
    assert_int_equal(es.n, 2);
    assert_true(has(&es, 0, 1, ISO_EDGE_REALTIME));
    assert_true(has(&es, 1, 2, ISO_EDGE_REALTIME));
    iso_edges_free(&es);
    iso_process_edges(x.h, &t, &es);
    assert_int_equal(es.n, 1);
    assert_true(has(&es, 0, 2, ISO_EDGE_PROCESS));
    iso_edges_free(&es);
    isolde_history_free(x.h);
}

/* Random history: up to 14 transactions on 3 processes, some failed or
 * info; r is the generator state. */
static void random_history(hist *x, uint64_t *r)
{
    uint32_t open[4] = {ISO_NONE, ISO_NONE, ISO_NONE, ISO_NONE};
    while (x->n < 14 || open[0] != ISO_NONE || open[1] != ISO_NONE || open[2] != ISO_NONE) {
        *r = *r * 6364136223846793005ull + 1442695040888963407ull;
        int p = (int)((*r >> 33) % 3), k = (int)((*r >> 40) % 10);
        if (open[p] == ISO_NONE) {
            if (x->n < 14) open[p] = inv(x, p);
        } else {
            done(x, open[p], p, k < 7 ? ISO_OP_OK : k < 9 ? ISO_OP_FAIL : ISO_OP_INFO);
            open[p] = ISO_NONE;
        }
    }
}

static void test_random_closure(void **st)
{
    (void)st;
    uint64_t r = 99;
    for (int round = 0; round < 500; round++) {
        hist x = {.h = iso_history_new("t", ISOLDE_FORMAT_EDN)};
        random_history(&x, &r);
        iso_txns t = {x.t, x.n};
        iso_edges es = {0};
        iso_realtime_edges(x.h, &t, &es);
        uint8_t reach[14][14] = {{0}};
        for (size_t i = 0; i < es.n; i++) reach[es.e[i].src][iso_edge_dst(&es.e[i])] = 1;
        for (size_t k = 0; k < x.n; k++)
            for (size_t i = 0; i < x.n; i++)
                for (size_t j = 0; j < x.n; j++) reach[i][j] |= reach[i][k] && reach[k][j];
        for (size_t i = 0; i < x.n; i++)
            for (size_t j = 0; j < x.n; j++) {
                int want = x.t[i].type == ISO_OP_OK && x.t[j].type != ISO_OP_FAIL &&
                           x.t[i].cmp < x.t[j].inv;
                assert_int_equal(reach[i][j], want);
            }
        assert_true(es.n <= x.n * 3);
        iso_edges_free(&es);
        isolde_history_free(x.h);
    }
}

/* Same partition into components? */
static void same_partition(const uint32_t *a, const uint32_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) assert_int_equal(a[i] == a[j], b[i] == b[j]);
}

static void test_windows_match_edges(void **st)
{
    (void)st;
    uint64_t r = 7;
    for (int round = 0; round < 300; round++) {
        hist x = {.h = iso_history_new("t", ISOLDE_FORMAT_EDN)};
        random_history(&x, &r);
        iso_txns t = {x.t, x.n};
        iso_edges data = {0}, all = {0};
        for (int i = 0; i < 12; i++) { /* random data edges */
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t a = (uint32_t)(r >> 33) % (uint32_t)x.n, b = (uint32_t)(r >> 45) % (uint32_t)x.n;
            uint8_t bit = (uint8_t)(1u << ((r >> 60) % 3));
            iso_edges_add(&data, a, b, bit);
            iso_edges_add(&all, a, b, bit);
        }
        iso_realtime_edges(x.h, &t, &all);
        iso_rt rt;
        iso_realtime_ranges(x.h, &t, &rt);
        iso_graph ge, gw;
        iso_graph_build(&ge, (uint32_t)x.n, &all);
        iso_graph_build(&gw, (uint32_t)x.n, &data);
        gw.rt = &rt;
        for (uint32_t a = 0; a < x.n; a++)
            for (uint32_t b = 0; b < x.n; b++)
                assert_int_equal(iso_graph_edge(&ge, a, b), iso_graph_edge(&gw, a, b));
        uint32_t ce[14], cw[14];
        static const uint8_t masks[] = {0xff, ISO_EDGE_DATA, ISO_EDGE_WW | ISO_EDGE_REALTIME};
        for (size_t m = 0; m < sizeof masks; m++) {
            iso_scc(&ge, masks[m], ce);
            iso_scc(&gw, masks[m], cw);
            same_partition(ce, cw, x.n);
        }
        iso_search_req q;
        uint8_t want[ISO_A_COUNT] = {0};
        for (int ty = 0; ty < ISO_N_CYCLE_TYPES; ty++) want[ty] = 1;
        iso_search_request(&q, ISO_EDGE_PROCESS | ISO_EDGE_REALTIME, want);
        iso_search_out oe = {0}, ow = {0};
        iso_search_cycles(&ge, &q, &oe);
        iso_search_cycles(&gw, &q, &ow);
        assert_int_equal(oe.n_cycles, ow.n_cycles);
        for (size_t i = 0; i < oe.n_cycles; i++) {
            assert_int_equal(oe.cycles[i].type, ow.cycles[i].type);
            assert_int_equal(oe.cycles[i].len, ow.cycles[i].len);
            assert_memory_equal(oe.cycles[i].v, ow.cycles[i].v, oe.cycles[i].len * sizeof *oe.cycles[i].v);
            assert_memory_equal(oe.cycles[i].e, ow.cycles[i].e, oe.cycles[i].len);
        }
        iso_search_out_free(&oe);
        iso_search_out_free(&ow);
        iso_graph_free(&ge);
        iso_graph_free(&gw);
        iso_rt_free(&rt);
        iso_edges_free(&data);
        iso_edges_free(&all);
        isolde_history_free(x.h);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_process),
        cmocka_unit_test(test_realtime),
        cmocka_unit_test(test_standalone),
        cmocka_unit_test(test_random_closure),
        cmocka_unit_test(test_windows_match_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
