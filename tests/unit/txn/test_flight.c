/*
 * test_flight.c -- counting contended transactions (lib/txn/flight.c:
 * txn_flight): two in flight conflict when they share a key one of them
 * writes; reads alone, other keys, keys equal modulo 64, and transactions
 * that ended do not.
 */
#include "testutil.h"
#include "txn/flight.h"

static txn txn2(int f1, int64_t k1, int f2, int64_t k2)
{
    txn t = {0};
    t.mops[0] = (txn_mop){.f = (uint8_t)f1, .key = k1};
    t.mops[1] = (txn_mop){.f = (uint8_t)f2, .key = k2};
    t.n = 2;
    return t;
}

/* a starts in slot 0, then b in slot 1: whether both are contended. */
static int conflict(const txn *a, const txn *b)
{
    static txn_flight slots[3];
    memset(slots, 0, sizeof slots);
    txn_flight_start(slots, 3, 0, a);
    txn_flight_start(slots, 3, 1, b);
    assert_int_equal(slots[0].contended, slots[1].contended);
    assert_int_equal(txn_flight_end(slots, 2), 0); /* never started */
    return txn_flight_end(slots, 0) + txn_flight_end(slots, 1) == 2;
}

static void test_conflicts(void **state)
{
    (void)state;
    txn rw = txn2(TXN_R, 1, TXN_APPEND, 2), r12 = txn2(TXN_R, 1, TXN_R, 2);
    txn w2 = txn2(TXN_W, 2, TXN_R, 3), r3 = txn2(TXN_R, 3, TXN_R, 4);
    txn w65 = txn2(TXN_APPEND, 65, TXN_APPEND, 66), w1 = txn2(TXN_R, 9, TXN_APPEND, 1);
    assert_true(conflict(&rw, &r12));   /* b reads what a writes */
    assert_true(conflict(&r12, &w2));   /* b writes what a reads */
    assert_true(conflict(&rw, &w2));    /* both write 2 */
    assert_false(conflict(&r12, &r12)); /* reads alone */
    assert_false(conflict(&rw, &r3));   /* other keys */
    assert_false(conflict(&r12, &w65)); /* 65 = 1 mod 64: the masks meet, the keys do not */
    assert_true(conflict(&r12, &w1));
}

static void test_ended_ones_do_not_count(void **state)
{
    (void)state;
    static txn_flight slots[2];
    txn a = txn2(TXN_APPEND, 1, TXN_R, 2), b = txn2(TXN_APPEND, 1, TXN_R, 3);
    txn_flight_start(slots, 2, 0, &a);
    assert_int_equal(txn_flight_end(slots, 0), 0);
    txn_flight_start(slots, 2, 1, &b);
    assert_int_equal(txn_flight_end(slots, 1), 0);
    txn_flight_start(slots, 2, 0, &a); /* again, beside b's next one */
    txn_flight_start(slots, 2, 1, &b);
    assert_int_equal(txn_flight_end(slots, 0), 1);
    assert_int_equal(txn_flight_end(slots, 1), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conflicts),
        cmocka_unit_test(test_ended_ones_do_not_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
