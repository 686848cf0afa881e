/*
 * test_gen.c -- the runner's generator (unique values per key, key
 * retirement, lengths, skew, final reads, determinism), its history lines
 * (exact text, readable by the JSONL reader) and the exec backend's reply
 * parser (well-formed replies, mismatches and garbage).
 */
#include "testutil.h"
#include "gen/gen.h"
#include "record/record.h"
#include "run/drivers/exec.h"

static gen_params params(int la)
{
    return (gen_params){la, 5000, 8, 5, 6, 0.5, 0, 42};
}

static void test_unique_values_and_retirement(void **state)
{
    (void)state;
    static gen g;
    static uint32_t writes[100000];
    static uint8_t seen[100000][8];
    gen_params p = params(1);
    run_txn t = {0};
    long n = 0, reads = 0, mops = 0;
    memset(writes, 0, sizeof writes);
    memset(seen, 0, sizeof seen);
    gen_init(&g, &p);
    while (gen_next(&g, &t)) {
        n++;
        assert_true(t.n >= 1 && t.n <= 6);
        for (uint32_t i = 0; i < t.n; i++) {
            const run_mop *m = &t.mops[i];
            assert_true(m->key >= 0 && m->key < g.next_key);
            mops++;
            if (m->f == RUN_R) { reads++; continue; }
            assert_int_equal(m->f, RUN_APPEND);
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
    run_txn_release(&t);
}

static void test_final_reads_cover_every_key(void **state)
{
    (void)state;
    static gen g;
    gen_params p = params(0);
    run_txn t = {0};
    gen_init(&g, &p);
    while (gen_next(&g, &t)) assert_true(t.mops[0].f == RUN_R || t.mops[0].f == RUN_W);
    int64_t next = 0;
    while (gen_final(&g, &t)) {
        assert_true(t.n >= 1 && t.n <= RUN_MAX_MOPS);
        for (uint32_t i = 0; i < t.n; i++) {
            assert_int_equal(t.mops[i].f, RUN_R);
            assert_int_equal(t.mops[i].key, next++);
        }
    }
    assert_int_equal(next, g.next_key);
    assert_int_equal(gen_next(&g, &t), 0);
    run_txn_release(&t);
}

static void test_zipf_skews_and_seed_repeats(void **state)
{
    (void)state;
    static gen a, b;
    gen_params p = params(1);
    p.zipf = 1.5;
    p.max_writes_per_key = 1 << 20; /* keys never retire: slots = keys */
    run_txn ta = {0}, tb = {0};
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
    run_txn_release(&ta);
    run_txn_release(&tb);
}

/* ---- history lines ---- */

/* Keeps t's result arrays (so that tests can reuse t without leaks). */
static void sample(run_txn *t)
{
    int64_t *res = t->res;
    char *text = t->text;
    size_t cap = t->cap_res, cap_text = t->cap_text;
    memset(t, 0, sizeof *t);
    t->res = res;
    t->cap_res = cap;
    t->text = text;
    t->cap_text = cap_text;
    t->list_append = 1;
    t->n = 3;
    t->mops[0] = (run_mop){RUN_APPEND, 1, 3, 7, 0, 0, 0};
    t->mops[1] = (run_mop){RUN_R, 1, 4, 0, 0, 0, 0};
    t->mops[2] = (run_mop){RUN_R, 1, 5, 0, 0, 0, 0};
}

static void test_lines(void **state)
{
    (void)state;
    run_txn t = {0};
    iso_buf b = {0};
    sample(&t);
    rec_line(&b, 0, 0, 2, &t, 100);
    run_txn_read_begin(&t, 1);
    run_txn_read_elem(&t, 1, 1);
    run_txn_read_elem(&t, 1, -7);
    rec_line(&b, 1, 1, 2, &t, 250);
    snprintf(t.error, sizeof t.error, "said \"no\"");
    rec_line(&b, 2, 2, 2, &t, 300);
    assert_string_equal(iso_buf_cstr(&b),
        "{\"index\":0,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":"
        "[[\"append\",3,7],[\"r\",4,null],[\"r\",5,null]],\"time\":100}\n"
        "{\"index\":1,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":"
        "[[\"append\",3,7],[\"r\",4,[1,-7]],[\"r\",5,null]],\"time\":250}\n"
        "{\"index\":2,\"type\":\"fail\",\"process\":2,\"f\":\"txn\",\"value\":"
        "[[\"append\",3,7],[\"r\",4,null],[\"r\",5,null]],\"time\":300,"
        "\"error\":\"said \\\"no\\\"\"}\n");
    isolde_history *h = tu_read(b.p, ISOLDE_FORMAT_JSONL);
    assert_int_equal(isolde_history_op_count(h), 3);
    isolde_history_free(h);
    iso_buf_free(&b);
    run_txn_release(&t);
}

static void test_register_lines(void **state)
{
    (void)state;
    run_txn t = {0};
    iso_buf b = {0};
    t.n = 2;
    t.mops[0] = (run_mop){RUN_W, 1, 1, 9, 0, 0, 0};
    t.mops[1] = (run_mop){RUN_R, 0, 2, 4, 0, 0, 0};
    rec_line(&b, 5, 1, 0, &t, 0);
    assert_string_equal(iso_buf_cstr(&b),
        "{\"index\":5,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":"
        "[[\"w\",1,9],[\"r\",2,4]],\"time\":0}\n");
    iso_buf_free(&b);
}

/* ---- exec replies ---- */

static int reply(run_txn *t, const char *line)
{
    sample(t);
    t->n_res = 0;
    return exec_parse_reply(line, strlen(line), t);
}

static void test_exec_replies(void **state)
{
    (void)state;
    run_txn t = {0};
    assert_int_equal(reply(&t, " {\"type\":\"ok\", \"value\":[[\"append\",3,7],"
                               "[\"r\",4,[1, 2]],[\"r\",5,null]], \"extra\":{\"a\":[1,{}]}} "), RUN_OK);
    assert_int_equal(t.mops[1].nil, 0);
    assert_int_equal(t.mops[1].len, 2);
    assert_int_equal(t.res[t.mops[1].off + 1], 2);
    assert_int_equal(t.mops[2].nil, 1);
    assert_int_equal(reply(&t, "{\"type\":\"fail\",\"error\":\"serialization failure\"}"), RUN_FAIL);
    assert_string_equal(t.error, "serialization failure");
    assert_int_equal(reply(&t, "{\"error\":null,\"type\":\"info\"}"), RUN_INFO);
    assert_int_equal(reply(&t, "{\"value\":[[\"append\",3,7],[\"r\",4,[]],[\"r\",5,[9]]],\"type\":\"ok\"}"),
                     RUN_OK);
    run_txn_release(&t);
}

static void test_exec_garbage(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "garbage", "{}", "{\"type\":\"ok\"}", "{\"type\":\"maybe\"}",
        "{\"type\":\"ok\",\"value\":[[\"append\",3,8],[\"r\",4,null],[\"r\",5,null]]}",
        "{\"type\":\"ok\",\"value\":[[\"append\",3,7],[\"r\",4,null]]}",
        "{\"type\":\"ok\",\"value\":[[\"append\",3,7],[\"r\",9,null],[\"r\",5,null]]}",
        "{\"type\":\"ok\",\"value\":[[\"w\",3,7],[\"r\",4,null],[\"r\",5,null]]}",
        "{\"type\":\"ok\",\"value\":[[\"append\",3,7],[\"r\",4,[1,]],[\"r\",5,null]]}",
        "{\"type\":\"ok\",\"value\":[[\"append\",3,7],[\"r\",4,\"x\"],[\"r\",5,null]]}",
        "{\"type\":\"fail\"} trailing", "{\"type\":\"fail\"", "{\"type\":\"fail\",}",
        ("{\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
         "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],\"type\":\"fail\"}"),
        "{\"type\":\"ok\",\"value\":[[\"append\",3,99999999999999999999999],[\"r\",4,null],[\"r\",5,null]]}",
    };
    run_txn t = {0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (reply(&t, bad[i]) != -1) fail_msg("accepted garbage #%zu: %s", i, bad[i]);
    run_txn_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unique_values_and_retirement),
        cmocka_unit_test(test_final_reads_cover_every_key),
        cmocka_unit_test(test_zipf_skews_and_seed_repeats),
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_register_lines),
        cmocka_unit_test(test_exec_replies),
        cmocka_unit_test(test_exec_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
