/*
 * test_exec_reply.c -- the exec backend's reply parser
 * (lib/run/drivers/exec_reply.c): well-formed replies, mismatches with the
 * transaction asked, and garbage.
 */
#include "testutil.h"
#include "gen/gen.h"
#include "run/drivers/exec.h"

/* Keeps t's result arrays (so that tests can reuse t without leaks). */
static void sample(txn *t)
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
    t->mops[0] = (txn_mop){.f = TXN_APPEND, .nil = 1, .key = 3, .value = 7};
    t->mops[1] = (txn_mop){.f = TXN_R, .nil = 1, .key = 4, .value = 0};
    t->mops[2] = (txn_mop){.f = TXN_R, .nil = 1, .key = 5, .value = 0};
}

static int reply(txn *t, const char *line)
{
    sample(t);
    t->n_res = 0;
    return exec_parse_reply(line, strlen(line), t, NULL);
}

static void test_exec_replies(void **state)
{
    (void)state;
    txn t = {0};
    assert_int_equal(reply(&t, " {\"type\":\"ok\", \"value\":[[\"append\",3,7],"
                               "[\"r\",4,[1, 2]],[\"r\",5,null]], \"extra\":{\"a\":[1,{}]}} "), TXN_OK);
    assert_int_equal(t.mops[1].nil, 0);
    assert_int_equal(t.mops[1].len, 2);
    assert_int_equal(t.res[t.mops[1].off + 1], 2);
    assert_int_equal(t.mops[2].nil, 1);
    assert_int_equal(reply(&t, "{\"type\":\"fail\",\"error\":\"serialization failure\"}"), TXN_FAIL);
    assert_string_equal(t.error, "serialization failure");
    assert_int_equal(reply(&t, "{\"error\":null,\"type\":\"info\"}"), TXN_INFO);
    assert_int_equal(reply(&t, "{\"value\":[[\"append\",3,7],[\"r\",4,[]],[\"r\",5,[9]]],\"type\":\"ok\"}"),
                     TXN_OK);
    txn_release(&t);
}

/* The request's id, echoed: read back; one that is not a non-negative
 * integer makes the reply garbage. */
static void test_exec_reply_id(void **state)
{
    (void)state;
    txn t = {0};
    int64_t id = 5;
    sample(&t);
    assert_int_equal(exec_parse_reply("{\"type\":\"fail\"}", 15, &t, &id), TXN_FAIL);
    assert_int_equal(id, -1);
    const char *with = "{\"id\":12345678901,\"type\":\"info\"}";
    assert_int_equal(exec_parse_reply(with, strlen(with), &t, &id), TXN_INFO);
    assert_int_equal(id, 12345678901);
    static const char *const bad[] = {"{\"id\":\"7\",\"type\":\"fail\"}", "{\"id\":-1,\"type\":\"fail\"}",
                                      "{\"id\":1.5,\"type\":\"fail\"}", "{\"id\":null,\"type\":\"fail\"}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sample(&t);
        if (exec_parse_reply(bad[i], strlen(bad[i]), &t, &id) != -1) fail_msg("taken: %s", bad[i]);
    }
    txn_release(&t);
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
    txn t = {0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (reply(&t, bad[i]) != -1) fail_msg("accepted garbage #%zu: %s", i, bad[i]);
    txn_release(&t);
}

/* A key twice is no reply: which value was meant cannot be told (the
 * runner took the first, the history readers the last). */
static void test_exec_key_twice(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "{\"type\":\"fail\",\"type\":\"ok\"}",
        "{\"type\":\"fail\",\"error\":\"a\",\"error\":\"b\"}",
        "{\"id\":0,\"id\":1,\"type\":\"fail\"}",
        "{\"type\":\"info\",\"extra\":{\"a\":1,\"a\":1}}",
    };
    txn t = {0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (reply(&t, bad[i]) != -1) fail_msg("accepted #%zu: %s", i, bad[i]);
    txn_release(&t);
}

/* Integers at the 64-bit ends are kept exactly; one past either end, and
 * 19- or 20-digit numbers that do not fit, are no reply (never wrapped,
 * never negated): item 10 of issue 11. */
static void test_exec_integer_ends(void **state)
{
    (void)state;
    static const struct { const char *n; int ok; int64_t v; } cases[] = {
        {"9223372036854775807", 1, INT64_MAX}, {"-9223372036854775808", 1, INT64_MIN},
        {"-9223372036854775807", 1, INT64_MIN + 1}, {"1000000000000000000", 1, 1000000000000000000LL},
        {"9223372036854775808", 0, 0}, {"-9223372036854775809", 0, 0},
        {"9999999999999999999", 0, 0}, {"-9999999999999999999", 0, 0}, {"99999999999999999999", 0, 0},
        {"18446744073709551616", 0, 0}, {"1e3", 0, 0}, {"7.0", 0, 0},
    };
    txn t = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char line[256];
        snprintf(line, sizeof line, "{\"type\":\"ok\",\"value\":[[\"append\",3,7],[\"r\",4,[%s]],[\"r\",5,null]]}",
                 cases[i].n);
        int r = reply(&t, line);
        if (!cases[i].ok) {
            if (r != -1) fail_msg("accepted %s", cases[i].n);
            continue;
        }
        if (r != TXN_OK) fail_msg("refused %s", cases[i].n);
        assert_int_equal(t.mops[1].len, 1);
        assert_true(t.res[t.mops[1].off] == cases[i].v);
    }
    txn_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exec_replies),
        cmocka_unit_test(test_exec_reply_id),
        cmocka_unit_test(test_exec_garbage),
        cmocka_unit_test(test_exec_key_twice),
        cmocka_unit_test(test_exec_integer_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
