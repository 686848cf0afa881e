/*
 * test_write.c -- the research checkers' formats and isolde_history_write
 * (lib/history/read_plume.c ... read_chronos.c, sessions.c, write.c): each
 * format's case of tests/data/read read with every allocation failing
 * after the first n, for every n (ISOLDE_ERR_NOMEM, nothing kept: the
 * sanitizer build's leak check), then whole; the round-by-round layout of
 * a history without time; written as Plume and dbcop with allocations
 * failing the same way, and what is written reads back to the same ops.
 */
#include "readtest.h"
#include "core/alloc.h"

#include <stdlib.h>

#define FIXTURES "tests/data/read/"

static const char *const research[] = {
    FIXTURES "plume-write-skew.txt", FIXTURES "dbcop-lost-update.bincode", FIXTURES "awdit-g1c.txt",
    FIXTURES "cobra-one.log",        FIXTURES "cobra-dir",                  FIXTURES "chronos-write-skew.json",
};

static isolde_history *read_path(const char *path)
{
    isolde_history *h = NULL;
    isolde_error err = {0};
    if (isolde_history_read_file(path, NULL, &h, &err) != ISOLDE_OK)
        fail_msg("%s:%ld:%ld: %s", err.file, err.line, err.col, err.msg);
    return h;
}

/* Every research format's case, read with every allocation failing after
 * the first n: out of memory each time until it reads, with its ops. */
static void test_read_out_of_memory(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof research / sizeof research[0]; i++) {
        isolde_history *whole = read_path(research[i]);
        for (unsigned long n = 1;; n++) {
            isolde_history *h = NULL;
            isolde_error err = {0};
            iso_alloc_fail_after(n);
            isolde_status s = isolde_history_read_file(research[i], NULL, &h, &err);
            iso_alloc_fail_after(0);
            if (s == ISOLDE_OK) {
                assert_int_equal(isolde_history_op_count(h), isolde_history_op_count(whole));
                isolde_history_free(h);
                break;
            }
            if (s != ISOLDE_ERR_NOMEM) fail_msg("%s with %lu allocations: %s", research[i], n, err.msg);
            assert_null(h);
        }
        isolde_history_free(whole);
    }
}

/* A history without time is laid out round by round: every session's
 * first transaction invoked, then completed, then the second ... */
static void test_rounds(void **state)
{
    (void)state;
    isolde_history *h = tu_read("r(1,0,0,0)\nw(1,2,0,1)\nw(1,1,1,2)\n", ISOLDE_FORMAT_PLUME);
    static const int types[] = {ISO_OP_INVOKE, ISO_OP_INVOKE, ISO_OP_OK, ISO_OP_OK, ISO_OP_INVOKE, ISO_OP_OK};
    static const int64_t procs[] = {0, 1, 0, 1, 0, 0};
    assert_int_equal(h->n_ops, 6);
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(h->ops[i].type, types[i]);
        assert_true(iso_op_process(h, &h->ops[i]) == iso_int(procs[i]));
        assert_int_equal(h->ops[i].time, -1);
    }
    assert_string_equal(rt_value(h, 0), "[[:r 1 nil]]");
    assert_string_equal(rt_value(h, 1), "[[:w 1 1]]");
    assert_string_equal(rt_value(h, 5), "[[:w 1 2]]");
    isolde_history_free(h);
}

/* A history read from p[0, n) as f; fails the test on error. */
static isolde_history *read_n(const char *p, size_t n, isolde_format f)
{
    isolde_history *h = NULL;
    isolde_error err = {0};
    if (isolde_history_read_mem("written", p, n, tu_fmt(f), &h, &err) != ISOLDE_OK)
        fail_msg("%s does not read back: %ld:%ld: %s", isolde_format_name(f), err.line, err.col, err.msg);
    return h;
}

/* A format with times is laid out by them, a commit before a start at
 * the same time: a session's next transaction may start at the commit
 * time of the one before it, while another session's starts before it. */
static void test_times(void **state)
{
    (void)state;
    isolde_history *h = tu_read("[{\"sid\":1,\"sts\":{\"p\":1,\"l\":0},\"cts\":{\"p\":2,\"l\":0},\"ops\":[]},\n"
                                " {\"sid\":1,\"sts\":{\"p\":2,\"l\":0},\"cts\":{\"p\":3,\"l\":0},\"ops\":[]},\n"
                                " {\"sid\":2,\"sts\":{\"p\":1,\"l\":5},\"cts\":{\"p\":2,\"l\":0},\"ops\":[]}]",
                                ISOLDE_FORMAT_CHRONOS);
    static const int types[] = {ISO_OP_INVOKE, ISO_OP_INVOKE, ISO_OP_OK, ISO_OP_OK, ISO_OP_INVOKE, ISO_OP_OK};
    static const int64_t procs[] = {0, 1, 0, 1, 0, 0};
    static const int64_t times[] = {65536, 65541, 131072, 131072, 131072, 196608};
    assert_int_equal(h->n_ops, 6);
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(h->ops[i].type, types[i]);
        assert_true(iso_op_process(h, &h->ops[i]) == iso_int(procs[i]));
        assert_int_equal(h->ops[i].time, times[i]);
    }
    isolde_history_free(h);
}

/* h written in f into a new block of *n bytes (free it). */
static char *written(const isolde_history *h, isolde_format f, size_t *n, isolde_status *s)
{
    char *p = NULL;
    FILE *m = open_memstream(&p, n);
    assert_non_null(m);
    isolde_error err = {0};
    *s = isolde_history_write(h, f, m, &err);
    fclose(m);
    return p;
}

/* Each case written as Plume and dbcop, allocations failing as above
 * (nothing written then), reads back to ops of the same values. */
static void test_write(void **state)
{
    (void)state;
    static const isolde_format targets[] = {ISOLDE_FORMAT_PLUME, ISOLDE_FORMAT_DBCOP, ISOLDE_FORMAT_JSONL};
    for (size_t i = 0; i < sizeof research / sizeof research[0]; i++)
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
            isolde_history *h = read_path(research[i]);
            isolde_status s;
            size_t n;
            for (unsigned long k = 1;; k++) {
                iso_alloc_fail_after(k);
                char *p = written(h, targets[t], &n, &s);
                iso_alloc_fail_after(0);
                if (s == ISOLDE_OK) {
                    isolde_history *back = read_n(p, n, targets[t]);
                    assert_int_equal(isolde_history_op_count(back), isolde_history_op_count(h));
                    isolde_history_free(back);
                    free(p);
                    break;
                }
                if (s != ISOLDE_ERR_NOMEM || n != 0) fail_msg("%s as %s: status %d, %zu bytes", research[i],
                                                           isolde_format_name(targets[t]), (int)s, n);
                free(p);
            }
            isolde_history_free(h);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_out_of_memory),
        cmocka_unit_test(test_rounds),
        cmocka_unit_test(test_times),
        cmocka_unit_test(test_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
