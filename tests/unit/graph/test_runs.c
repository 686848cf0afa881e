/*
 * test_runs.c -- runs of entries per vertex in one pool (graph/runs.c):
 * put, get, drop, and runs that survive the compaction the dead ones
 * trigger, unchanged.
 */
#include "testutil.h"
#include "graph/runs.h"

static void test_put_get_drop(void **st)
{
    (void)st;
    iso_runs r;
    iso_runs_init(&r, 4, sizeof(uint64_t));
    const uint64_t a[] = {1, 2, 3}, b[] = {7};
    size_t n = 9;
    assert_null(iso_runs_get(&r, 0, &n));
    assert_int_equal(n, 0);
    iso_runs_put(&r, 0, a, 3);
    iso_runs_put(&r, 3, b, 1);
    const uint64_t *x = iso_runs_get(&r, 0, &n);
    assert_int_equal(n, 3);
    assert_memory_equal(x, a, sizeof a);
    x = iso_runs_get(&r, 3, &n);
    assert_int_equal(n, 1);
    assert_int_equal(x[0], 7);
    iso_runs_drop(&r, 0);
    iso_runs_drop(&r, 0); /* a no-op */
    assert_null(iso_runs_get(&r, 0, &n));
    assert_int_equal(r.live, 1);
    iso_runs_free(&r);
}

/* Many vertices, each put then dropped but every 1000th: the pool is
 * compacted (it stays within twice the live entries and the floor) and
 * the live runs keep their entries. */
static void test_compaction(void **st)
{
    (void)st;
    enum { N = 40000, LEN = 64 };
    iso_runs r;
    iso_runs_init(&r, N, sizeof(uint32_t));
    uint32_t e[LEN];
    for (uint32_t v = 0; v < N; v++) {
        for (uint32_t i = 0; i < LEN; i++) e[i] = v * LEN + i;
        iso_runs_put(&r, v, e, LEN);
        if (v % 1000) iso_runs_drop(&r, v);
    }
    assert_true(r.n < 2 * r.live + ((size_t)1 << 20) + LEN);
    assert_true(r.n < (size_t)N * LEN);
    for (uint32_t v = 0; v < N; v += 1000) {
        size_t n;
        const uint32_t *x = iso_runs_get(&r, v, &n);
        assert_int_equal(n, LEN);
        for (uint32_t i = 0; i < LEN; i++) assert_int_equal(x[i], v * LEN + i);
    }
    iso_runs_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_get_drop),
        cmocka_unit_test(test_compaction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
