/* test_txn.c -- pairing invocations with completions. */
#include "testutil.h"
#include "history/txn.h"

static iso_txns pair(const char *text, int strict, int *rc)
{
    isolde_history *h = tu_read(text, ISOLDE_FORMAT_EDN);
    iso_txns t = {0};
    isolde_error err = {0};
    *rc = iso_txns_pair(h, strict, &t, &err);
    isolde_history_free(h);
    return t;
}

static void pairs_per_process(void **state)
{
    (void)state;
    int rc;
    iso_txns t = pair("{:type :invoke :process 0 :value []}\n"
                      "{:type :invoke :process 1 :value []}\n"
                      "{:type :ok :process 1 :value []}\n"
                      "{:type :info :process :nemesis :f :kill}\n"
                      "{:type :fail :process 0 :value []}\n"
                      "{:type :invoke :process 2 :value []}\n",
                      1, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(t.n, 3);
    assert_int_equal(t.t[0].inv, 0);
    assert_int_equal(t.t[0].cmp, 4);
    assert_int_equal(t.t[0].type, ISO_OP_FAIL);
    assert_int_equal(t.t[1].inv, 1);
    assert_int_equal(t.t[1].cmp, 2);
    assert_int_equal(t.t[1].type, ISO_OP_OK);
    assert_int_equal(t.t[2].cmp, ISO_NONE); /* never completed: info */
    assert_int_equal(t.t[2].type, ISO_OP_INFO);
    iso_txns_free(&t);
}

static void completion_without_invocation(void **state)
{
    (void)state;
    int rc;
    iso_txns t = pair("{:type :ok :process 0 :value []}\n{:type :ok :process 0 :value []}\n", 1, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.t[1].inv, ISO_NONE);
    assert_int_equal(t.t[1].cmp, 1);
    iso_txns_free(&t);
}

static void double_invoke(void **state)
{
    (void)state;
    const char *h = "{:type :invoke :process 0 :value []}\n{:type :invoke :process 0 :value []}\n"
                    "{:type :ok :process 0 :value []}\n{:type :ok :process 0 :value []}\n";
    int rc;
    iso_txns t = pair(h, 1, &rc);
    assert_int_equal(rc, -1);
    t = pair(h, 0, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(t.n, 2); /* completions alone */
    assert_int_equal(t.t[0].cmp, 2);
    assert_int_equal(t.t[0].inv, ISO_NONE);
    iso_txns_free(&t);
}

static void many_processes(void **state)
{
    (void)state;
    /* enough processes to grow past the initial table, completing out of order */
    char *buf = malloc(200 * 64);
    size_t n = 0;
    for (int p = 0; p < 100; p++) n += (size_t)sprintf(buf + n, "{:type :invoke :process %d}\n", p);
    for (int p = 99; p >= 0; p--) n += (size_t)sprintf(buf + n, "{:type :ok :process %d}\n", p);
    int rc;
    iso_txns t = pair(buf, 1, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(t.n, 100);
    for (uint32_t i = 0; i < 100; i++) assert_int_equal(t.t[i].cmp, 199 - i);
    iso_txns_free(&t);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pairs_per_process),
        cmocka_unit_test(completion_without_invocation),
        cmocka_unit_test(double_invoke),
        cmocka_unit_test(many_processes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
