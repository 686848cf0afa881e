/* check/test_check.c -- lib/check/check.c, the public check: on any failure the
 * result out-pointer is NULL (never left dangling or as it was), the
 * reads' history out-pointers likewise, and err is filled; so a caller
 * that frees what it got after a failure frees nothing twice. A history
 * with nothing to check is unknown, whatever the model. The cases of
 * tests/data/wording (one of a thing, said in the singular; files that are
 * no history) as their headers say (tests/data/README; the CLI's side is
 * tests/cli/t0200). */
#include "cases.h"
#include "isolde.h"

static void *const stale = (void *)&stale; /* what a careless caller left there */

static void reads_leave_no_stale_history(void **state)
{
    (void)state;
    isolde_error err;
    isolde_history *h = stale;
    assert_int_equal(isolde_history_read_file("/nonexistent/h.edn", NULL, &h, &err), ISOLDE_ERR_IO);
    assert_null(h);
    h = stale;
    assert_int_equal(isolde_history_read_mem("bad", "{:type}", 7, NULL, &h, &err), ISOLDE_ERR_PARSE);
    assert_null(h);
    isolde_read_opts raw = {0}; /* never initialised */
    h = stale;
    assert_int_equal(isolde_history_read_mem("x", "", 0, &raw, &h, &err), ISOLDE_ERR_USAGE);
    assert_null(h);
    h = stale;
    isolde_read_opts o;
    isolde_read_opts_init(&o);
    o.format = ISOLDE_FORMAT_ONELITE; /* its header decides: cannot grow line by line */
    assert_int_not_equal(isolde_history_new("x", &o, &h, &err), ISOLDE_OK);
    assert_null(h);
}

/* No bytes may come as NULL: an empty history (never memchr(NULL));
 * NULL with a length is the caller's error. */
static void null_bytes_are_no_bytes(void **state)
{
    (void)state;
    isolde_error err = {0};
    isolde_history *h = stale;
    assert_int_equal(isolde_history_read_mem("n", NULL, 0, NULL, &h, &err), ISOLDE_OK);
    assert_int_equal(isolde_history_op_count(h), 0);
    assert_int_equal(isolde_history_append_mem(h, NULL, 0, &err), ISOLDE_OK);
    const char *op = "{:type :ok, :process 0}\n";
    assert_int_equal(isolde_history_append_mem(h, op, strlen(op), &err), ISOLDE_OK);
    assert_int_equal(isolde_history_append_mem(h, NULL, 0, &err), ISOLDE_OK);
    assert_int_equal(isolde_history_op_count(h), 1);
    assert_int_equal(isolde_history_append_mem(h, NULL, 5, &err), ISOLDE_ERR_USAGE);
    assert_int_equal(isolde_history_op_count(h), 1);
    isolde_history_free(h);
    h = stale;
    assert_int_equal(isolde_history_read_mem("n", NULL, 5, NULL, &h, &err), ISOLDE_ERR_USAGE);
    assert_null(h);
    assert_non_null(strstr(err.msg, "no data (NULL)"));
}

/* A writer whose stream does not take it all (a full disk) fails, saying
 * why, in every format and for every kind of result. */
static void writers_fail_on_a_full_stream(void **state)
{
    (void)state;
    static const char *const histories[] = {
        "{:type :ok, :process 0, :value [[:append :x 1]]}\n",                 /* transactional */
        "{:type :invoke, :process 0, :f :write, :value 1}\n{:type :ok, :process 0, :f :write, :value 1}\n",
    };
    for (size_t i = 0; i < sizeof histories / sizeof histories[0]; i++) {
        isolde_error err;
        isolde_history *h = NULL;
        isolde_result *r = NULL;
        assert_int_equal(isolde_history_read_mem("h", histories[i], strlen(histories[i]), NULL, &h, &err), ISOLDE_OK);
        assert_int_equal(isolde_check(h, NULL, &r, &err), ISOLDE_OK);
        for (int f = 0; f < 3; f++) {
            FILE *full = fopen("/dev/full", "w");
            assert_non_null(full);
            isolde_status s = f == 0 ? isolde_result_write_text(r, full, NULL, &err)
                            : f == 1 ? isolde_result_write_json(r, full, &err)
                                     : isolde_result_write_html(r, full, &err);
            fclose(full);
            assert_int_equal(s, ISOLDE_ERR_IO);
            assert_string_equal(err.msg, "cannot write the report: No space left on device");
        }
        isolde_result_free(r);
        isolde_history_free(h);
    }
}

static void a_failed_check_leaves_no_stale_result(void **state)
{
    (void)state;
    const char *ok = "{:type :ok, :process 0, :value [[:append :x 1]]}\n";
    isolde_error err;
    isolde_history *h = NULL;
    assert_int_equal(isolde_history_read_mem("h", ok, strlen(ok), NULL, &h, &err), ISOLDE_OK);
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.models = "no-such-model";
    isolde_result *r = stale;
    assert_int_equal(isolde_check(h, &o, &r, &err), ISOLDE_ERR_USAGE);
    assert_null(r);
    isolde_check_opts raw = {0};
    r = stale;
    assert_int_equal(isolde_check(h, &raw, &r, &err), ISOLDE_ERR_USAGE);
    assert_null(r);
    isolde_history_free(h);
}

/* No client op in the history: unknown for every model, never valid
 * (issue 11 item 1); the transactional shape is Elle's. */
static void nothing_to_check_is_unknown(void **state)
{
    (void)state;
    static const char *const inputs[] = {"", "  \n\n", "{:type :info, :process :nemesis}\n",
                                         "{\"type\":\"ok\",\"client\":0,\"value\":[[\"r\",1,null]]}\n"};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
        for (int w = ISOLDE_WORKLOAD_LIST_APPEND; w <= ISOLDE_WORKLOAD_LONG_FORK; w++) {
            isolde_error err;
            isolde_history *h = NULL;
            assert_int_equal(isolde_history_read_mem("h", inputs[i], strlen(inputs[i]), NULL, &h, &err), ISOLDE_OK);
            isolde_check_opts o;
            isolde_check_opts_init(&o);
            o.workload = (isolde_workload)w;
            isolde_result *r = NULL;
            assert_int_equal(isolde_check(h, &o, &r, &err), ISOLDE_OK);
            if (isolde_result_validity(r) != ISOLDE_UNKNOWN) fail_msg("input %zu, model %d: not unknown", i, w);
            int txn = w <= ISOLDE_WORKLOAD_RW_REGISTER;
            assert_int_equal(isolde_result_type_count(r), txn);
            if (txn) assert_string_equal(isolde_result_type(r, 0), "empty-transaction-graph");
            isolde_result_free(r);
            isolde_history_free(h);
        }
}

static void wording_cases(void **state)
{
    (void)state;
    tc_dir("tests/data/wording");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wording_cases),
        cmocka_unit_test(reads_leave_no_stale_history),
        cmocka_unit_test(null_bytes_are_no_bytes),
        cmocka_unit_test(writers_fail_on_a_full_stream),
        cmocka_unit_test(a_failed_check_leaves_no_stale_result),
        cmocka_unit_test(nothing_to_check_is_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
