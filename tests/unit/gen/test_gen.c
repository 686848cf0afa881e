/*
 * test_gen.c -- the runner's generators (lib/gen/gen.c, ops.c): unique
 * values per key, key retirement, lengths, skew, final reads, determinism;
 * single ops for the linearizability checker.
 */
#include "testutil.h"
#include "gen/gen.h"

static gen_params params(int la)
{
    return (gen_params){la, 5000, 8, 5, 6, 0.5, 0, 42,
                        la ? ISOLDE_WORKLOAD_LIST_APPEND : ISOLDE_WORKLOAD_RW_REGISTER};
}

static void test_unique_values_and_retirement(void **state)
{
    (void)state;
    static gen g;
    static uint32_t writes[100000];
    static uint8_t seen[100000][8];
    gen_params p = params(1);
    txn t = {0};
    long n = 0, reads = 0, mops = 0;
    memset(writes, 0, sizeof writes);
    memset(seen, 0, sizeof seen);
    gen_init(&g, &p);
    while (gen_next(&g, &t)) {
        n++;
        assert_true(t.n >= 1 && t.n <= 6);
        for (uint32_t i = 0; i < t.n; i++) {
            const txn_mop *m = &t.mops[i];
            assert_true(m->key >= 0 && m->key < g.next_key);
            mops++;
            if (m->f == TXN_R) { reads++; continue; }
            assert_int_equal(m->f, TXN_APPEND);
            assert_true(m->value >= 1 && m->value <= 5);
            assert_false(seen[m->key][m->value]); /* unique per key */
            seen[m->key][m->value] = 1;
            writes[m->key]++;
        }
    }
    assert_int_equal(n, 5000);
    for (int64_t k = 0; k < g.next_key; k++) assert_true(writes[k] <= 5);
    assert_true(g.next_key > 8); /* keys retired and were replaced */
    assert_true(reads > mops / 3 && reads < 2 * mops / 3);
    txn_release(&t);
}

static void test_final_reads_cover_every_key(void **state)
{
    (void)state;
    static gen g;
    gen_params p = params(0);
    txn t = {0};
    gen_init(&g, &p);
    while (gen_next(&g, &t)) assert_true(t.mops[0].f == TXN_R || t.mops[0].f == TXN_W);
    int64_t next = 0;
    while (gen_final(&g, &t)) {
        assert_true(t.n >= 1 && t.n <= TXN_MAX_MOPS);
        for (uint32_t i = 0; i < t.n; i++) {
            assert_int_equal(t.mops[i].f, TXN_R);
            assert_int_equal(t.mops[i].key, next++);
        }
    }
    assert_int_equal(next, g.next_key);
    assert_int_equal(gen_next(&g, &t), 0);
    txn_release(&t);
}

static void test_zipf_skews_and_seed_repeats(void **state)
{
    (void)state;
    static gen a, b;
    gen_params p = params(1);
    p.zipf = 1.5;
    p.max_writes_per_key = 1 << 20; /* keys never retire: slots = keys */
    txn ta = {0}, tb = {0};
    long hits[8] = {0};
    gen_init(&a, &p);
    gen_init(&b, &p);
    while (gen_next(&a, &ta)) {
        assert_int_equal(gen_next(&b, &tb), 1);
        assert_int_equal(ta.n, tb.n);
        for (uint32_t i = 0; i < ta.n; i++) {
            assert_int_equal(ta.mops[i].key, tb.mops[i].key);
            hits[ta.mops[i].key]++;
        }
    }
    assert_true(hits[0] > 4 * hits[7]);
    txn_release(&ta);
    txn_release(&tb);
}

/* Single ops (gen/ops.c): one micro-op of the workload's shape; reads at
 * the read ratio; cas only where the model has it, of values 0..4;
 * register's writes unique; kv over every key; one final read per key. */
static void single_ops_case(isolde_workload w, int keys)
{
    static gen g;
    gen_params p = {0, 4000, keys, 5, 6, 0.3, 0, 7, w};
    const gen_ops *ops = gen_ops_for(w);
    txn t = {0};
    long reads = 0, cas = 0, seen_key[8] = {0};
    int64_t last = -1;
    assert_non_null(ops);
    assert_true(ops->single);
    ops->init(&g, &p);
    while (ops->next(&g, &t)) {
        const txn_mop *m = &t.mops[0];
        assert_int_equal(t.n, 1);
        assert_int_equal(t.shape, w == ISOLDE_WORKLOAD_KV ? TXN_SHAPE_KV : TXN_SHAPE_REGISTER);
        assert_true(m->key >= 0 && m->key < (w == ISOLDE_WORKLOAD_KV ? keys : 1));
        seen_key[m->key]++;
        if (m->f == TXN_R) { reads++; continue; }
        if (m->f == TXN_CAS) {
            cas++;
            assert_true(m->old >= 0 && m->old < 5);
        }
        if (w == ISOLDE_WORKLOAD_REGISTER) {
            assert_int_equal(m->f, TXN_W);
            assert_true(m->value > last); /* unique */
            last = m->value;
        } else {
            assert_true(m->value >= 0 && m->value < 5);
        }
    }
    assert_true(reads > 1000 && reads < 1400);
    assert_true(w == ISOLDE_WORKLOAD_REGISTER ? cas == 0 : cas > 1000);
    for (int k = 0; k < (w == ISOLDE_WORKLOAD_KV ? keys : 1); k++) assert_true(seen_key[k] > 0);
    int finals = 0;
    while (ops->final(&g, &t)) {
        assert_int_equal(t.mops[0].f, TXN_R);
        assert_int_equal(t.mops[0].key, finals++);
    }
    assert_int_equal(finals, w == ISOLDE_WORKLOAD_KV ? keys : 1);
    txn_release(&t);
}

static void test_single_ops(void **state)
{
    (void)state;
    single_ops_case(ISOLDE_WORKLOAD_REGISTER, 8);
    single_ops_case(ISOLDE_WORKLOAD_CAS_REGISTER, 8);
    single_ops_case(ISOLDE_WORKLOAD_KV, 8);
    assert_false(gen_ops_for(ISOLDE_WORKLOAD_LIST_APPEND)->single);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unique_values_and_retirement),
        cmocka_unit_test(test_final_reads_cover_every_key),
        cmocka_unit_test(test_zipf_skews_and_seed_repeats),
        cmocka_unit_test(test_single_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
