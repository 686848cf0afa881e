/* test_opts.c -- check/opts.c: the options' defaults, validation before a
 * history is read (with the closest name), and the names they take. */
#include "testutil.h"
#include "isolde.h"

static void every_name_is_listed_once(void **state)
{
    (void)state;
    size_t n = 0, canonical = 0;
    for (const char *m; (m = isolde_model_name(n)); n++) {
        for (size_t j = 0; j < n; j++) assert_string_not_equal(isolde_model_name(j), m);
        canonical += strcmp(isolde_model_canonical(m), m) == 0;
    }
    assert_int_equal(n, 55); /* Elle's all-models and read-committed-be (issue 25) */
    assert_int_equal(canonical, 37);
    assert_string_equal(isolde_model_canonical("serializable"), "PL-3");
    assert_string_equal(isolde_model_canonical("strict-serializable"), "PL-SS");
    assert_null(isolde_model_canonical("serializabel"));
    assert_null(isolde_model_canonical(NULL));
    size_t a = 0;
    while (isolde_anomaly_name(a)) a++;
    assert_true(a > 60);
    assert_string_equal(isolde_anomaly_name(0), "G0");
}

static void validation_names_the_closest(void **state)
{
    (void)state;
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    isolde_error err = {.code = ISOLDE_ERR_INTERNAL};
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_OK);
    assert_int_equal(err.code, ISOLDE_ERR_INTERNAL); /* untouched on success */
    o.models = "read-committed,snapshot-isolaton";
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_ERR_USAGE);
    assert_string_equal(err.msg, "unknown consistency model 'snapshot-isolaton' "
                                 "(did you mean snapshot-isolation?)");
    o.models = "", o.anomalies = "G1,lost-updates";
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_ERR_USAGE);
    assert_string_equal(err.msg, "unknown anomaly 'lost-updates' (did you mean lost-update?)");
    assert_int_equal(isolde_check_opts_validate(&o, NULL), ISOLDE_ERR_USAGE);
    isolde_check_opts raw = {0}; /* never initialised */
    assert_int_equal(isolde_check_opts_validate(&raw, &err), ISOLDE_ERR_USAGE);
    assert_int_equal(isolde_check_opts_validate(NULL, &err), ISOLDE_OK); /* defaults */
}

/* Numbers out of their range are refused before anything is read, and
 * by the check itself. */
static void validation_of_numbers(void **state)
{
    (void)state;
    isolde_check_opts o;
    isolde_error err = {0};
    isolde_check_opts_init(&o), o.threads = -1;
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_ERR_USAGE);
    assert_string_equal(err.msg, "threads must be 0 (one per core) or more, got -1");
    isolde_check_opts_init(&o), o.timeout_ms = -5;
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_ERR_USAGE);
    assert_string_equal(err.msg, "timeout_ms must be 0 (no limit) or more, got -5");
    isolde_check_opts_init(&o), o.cycle_search_timeout_ms = -1;
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_ERR_USAGE);
    assert_non_null(strstr(err.msg, "cycle_search_timeout_ms must be 0"));
    const char *bad[] = {"group-size=-1"};
    isolde_check_opts_init(&o), o.checker_opts = bad, o.n_checker_opts = 1;
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_ERR_USAGE);
    assert_string_equal(err.msg, "check: --group-size takes a number in [0, 1e+09], not '-1'");
    bad[0] = "cas-fail=maybe";
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_ERR_USAGE);
    assert_string_equal(err.msg, "check: --cas-fail takes one of noop, false, not 'maybe'");
    isolde_history *h = NULL; /* the check refuses them too */
    const char *op = "{:type :ok, :process 0, :value [[:append :x 1]]}\n";
    assert_int_equal(isolde_history_read_mem("h", op, strlen(op), NULL, &h, &err), ISOLDE_OK);
    isolde_result *r = NULL;
    assert_int_equal(isolde_check(h, &o, &r, &err), ISOLDE_ERR_USAGE);
    assert_null(r);
    const char *good[] = {"group-size=3", "cas-fail=false", "wfr-keys"};
    isolde_check_opts_init(&o), o.threads = 2, o.timeout_ms = 0, o.checker_opts = good, o.n_checker_opts = 3;
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_OK);
    assert_int_equal(isolde_check(h, &o, &r, &err), ISOLDE_OK);
    isolde_result_free(r);
    isolde_history_free(h);
}

/* The checker options: each workload's, self-described; an unknown name
 * is refused with the closest known one, before anything is read. */
static void checker_options_as_backends_are(void **state)
{
    (void)state;
    const char *names[8] = {0};
    for (size_t i = 0; i < 8 && isolde_checker_option(ISOLDE_WORKLOAD_RW_REGISTER, i); i++)
        names[i] = isolde_checker_option(ISOLDE_WORKLOAD_RW_REGISTER, i)->name;
    assert_string_equal(names[0], "wfr-keys");
    assert_string_equal(names[3], "transaction-order");
    assert_string_equal(names[4], "exact");
    assert_null(names[5]);
    assert_string_equal(isolde_checker_option(ISOLDE_WORKLOAD_BANK, 0)->name, "total");
    assert_int_equal(isolde_checker_option(ISOLDE_WORKLOAD_BANK, 0)->type, ISOLDE_OPTION_INT);
    assert_string_equal(isolde_checker_option(ISOLDE_WORKLOAD_KV, 0)->name, "cas-fail");
    assert_string_equal(isolde_checker_option(ISOLDE_WORKLOAD_LIST_APPEND, 0)->name, "exact");
    assert_null(isolde_checker_option(ISOLDE_WORKLOAD_LIST_APPEND, 1));
    assert_null(isolde_checker_option(ISOLDE_WORKLOAD_AUTO, 0));
    assert_null(isolde_checker_option((isolde_workload)99, 0));
    isolde_check_opts o;
    isolde_error err;
    const char *typo[] = {"totl=3"};
    isolde_check_opts_init(&o), o.checker_opts = typo, o.n_checker_opts = 1;
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_ERR_USAGE);
    assert_string_equal(err.msg, "unknown checker option 'totl' (did you mean total?)");
    const char *other[] = {"total=3"}; /* bank's: a list-append check leaves it */
    o.checker_opts = other;
    assert_int_equal(isolde_check_opts_validate(&o, &err), ISOLDE_OK);
}

static void forbid_is_elles_prohibited_set(void **state)
{
    (void)state;
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.models = "read-committed";
    assert_int_equal(isolde_check_opts_forbid(&o, "G1c"), 1);
    assert_int_equal(isolde_check_opts_forbid(&o, "G0"), 1);
    assert_int_equal(isolde_check_opts_forbid(&o, "G2-item"), 0);
    assert_int_equal(isolde_check_opts_forbid(&o, "no-such"), -1);
    o.models = "", o.anomalies = "G1";
    assert_int_equal(isolde_check_opts_forbid(&o, "G1a"), 1); /* implies G1 */
    assert_int_equal(isolde_check_opts_forbid(&o, "G2"), 0);
    o.anomalies = "G1,bogus";
    assert_int_equal(isolde_check_opts_forbid(&o, "G1a"), -1);
    assert_int_equal(isolde_check_opts_forbid(NULL, "G1c-realtime"), 1); /* strict-serializable */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_name_is_listed_once),
        cmocka_unit_test(validation_names_the_closest),
        cmocka_unit_test(validation_of_numbers),
        cmocka_unit_test(checker_options_as_backends_are),
        cmocka_unit_test(forbid_is_elles_prohibited_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
