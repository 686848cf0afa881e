/* test_list_append.c -- list-append inference and direct anomalies, end to
 * end through isolde_check: every case of tests/data/list_append, its
 * header (tests/data/README) saying the options, the verdict, the anomaly
 * types and the not boundary (tests/cli/t2100-list-append-cases.sh checks
 * the same headers through the CLI) and of tests/data/crosscheck (the
 * regressions of tests/crosscheck.sh) and tests/data/galera (runs of
 * Galera, t4800); duplicate appends as errors; the
 * proof's wording. */
#include "cases.h"

#define OK(p, v) "{:type :ok, :process " #p ", :value " v "}\n"

static void data_cases(void **state)
{
    (void)state;
    tc_dir("tests/data/list_append");
    tc_dir("tests/data/crosscheck"); /* the randomized cross-check's regressions */
    tc_dir("tests/data/galera");     /* what Galera did (tests/cli/t4800) */
}

static void duplicate_append_is_an_error(void **state)
{
    (void)state;
    static const char *const histories[] = {
        /* dense per-key values, strings, sparse integers */
        OK(0, "[[:append :x 1]]") OK(1, "[[:append :x 1]]"),
        OK(0, "[[:append :x \"a\"]]") OK(1, "[[:append :x \"a\"] [:append :x \"b\"]]"),
        OK(0, "[[:append :x 1] [:append :x 1000000]]") OK(1, "[[:append :x 1000000]]"),
    };
    for (size_t i = 0; i < sizeof histories / sizeof histories[0]; i++) {
        isolde_history *h = tu_read(histories[i], ISOLDE_FORMAT_EDN);
        isolde_check_opts o;
        isolde_check_opts_init(&o);
        o.workload = ISOLDE_WORKLOAD_LIST_APPEND;
        isolde_result *r = NULL;
        isolde_error err = {0};
        assert_int_equal(isolde_check(h, &o, &r, &err), ISOLDE_ERR_PARSE);
        assert_null(r);
        assert_int_equal(err.line, 2);
        assert_non_null(strstr(err.msg, "already appended"));
        assert_non_null(strstr(err.msg, "line 1"));
        isolde_history_free(h);
    }
}

static void proof_names_keys_and_values(void **state)
{
    (void)state;
    isolde_history *h = tu_read(OK(0, "[[:append :x 1] [:r :y [1]]]") OK(1, "[[:append :y 1] [:r :x [1]]]"),
                             ISOLDE_FORMAT_EDN);
    isolde_result *r = NULL;
    assert_int_equal(isolde_check(h, NULL, &r, NULL), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    isolde_result_write_text(r, f, NULL, NULL);
    fclose(f);
    assert_non_null(strstr(text, "T2 observed T1's append of 1 to key :"));
    assert_non_null(strstr(text, "However, T2 < T1, because"));
    free(text);
    isolde_result_free(r);
    isolde_history_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(data_cases),
        cmocka_unit_test(duplicate_append_is_an_error),
        cmocka_unit_test(proof_names_keys_and_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
