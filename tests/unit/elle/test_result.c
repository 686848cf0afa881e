/* test_result.c -- Elle's result-map: which findings are reported, valid?,
 * redundant cycle-exists fallbacks, sorted types and the not boundary. */
#include "testutil.h"
#include "check/check.h"
#include "elle/result.h"
#include "elle/search.h"

static isolde_result *build_asking(const char *models, const char *anomalies, const int *types, size_t n)
{
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.models = models;
    o.anomalies = anomalies;
    iso_request req;
    isolde_error err;
    assert_int_equal(iso_request_of(&o, &req, &err), 0);
    iso_findings f = {0};
    for (size_t i = 0; i < n; i++) iso_findings_add_text(&f, types[i], "text", "{}");
    iso_proof_ctx pc = {0};
    return iso_result_txn(&req, &f, &pc, 1);
}

static isolde_result *build(const char *models, const int *types, size_t n)
{
    return build_asking(models, NULL, types, n);
}

static void nothing_reportable_is_valid(void **state)
{
    (void)state;
    int t[] = {ISO_A_G2_ITEM};
    isolde_result *r = build("read-committed", t, 1);
    assert_int_equal(isolde_result_validity(r), ISOLDE_VALID);
    assert_int_equal(isolde_result_type_count(r), 0);
    assert_int_equal(isolde_result_not_count(r), 0); /* Elle: just {:valid? true} */
    isolde_result_free(r);
}

static void unknown_only_when_nothing_prohibited(void **state)
{
    (void)state;
    int t[] = {ISO_A_EMPTY_TRANSACTION_GRAPH, ISO_A_G1A};
    isolde_result *r = build("read-uncommitted", t, 2); /* G1a is allowed there */
    assert_int_equal(isolde_result_validity(r), ISOLDE_UNKNOWN);
    assert_int_equal(isolde_result_type_count(r), 1);
    assert_string_equal(isolde_result_type(r, 0), "empty-transaction-graph");
    /* not comes from the reported types alone (docs/DEVIATIONS.md): the
     * unreported G1a rules nothing out, nor does empty-transaction-graph */
    assert_int_equal(isolde_result_not_count(r), 0);
    assert_int_equal(isolde_result_also_not_count(r), 0);
    isolde_result_free(r);
    r = build("read-committed", t, 2);
    assert_int_equal(isolde_result_validity(r), ISOLDE_INVALID);
    assert_string_equal(isolde_result_type(r, 0), "G1a"); /* sorted by name */
    assert_string_equal(isolde_result_type(r, 1), "empty-transaction-graph");
    assert_int_equal(isolde_result_not_count(r), 1);
    assert_string_equal(isolde_result_not(r, 0), "read-committed"); /* G1a's, reported now */
    isolde_result_free(r);
}

/* Issue 23: a verdict never says valid of a model it did not check. */
static void valid_only_of_models_checked(void **state)
{
    (void)state;
    int g1c[] = {ISO_A_G1C};
    const struct { const char *models, *anomalies; const int *types; size_t n; isolde_validity want; } cases[] = {
        {"linearizable", NULL, g1c, 1, ISOLDE_UNKNOWN},          /* nothing reportable: G1c left out */
        {"linearizable", NULL, NULL, 0, ISOLDE_UNKNOWN},
        {"serializable,PRAM", NULL, NULL, 0, ISOLDE_UNKNOWN},  /* PRAM not checked */
        {"serializable,PRAM", NULL, g1c, 1, ISOLDE_INVALID},   /* an anomaly stands */
        {"", NULL, NULL, 0, ISOLDE_UNKNOWN},                   /* nothing asked for */
        {" , ", NULL, NULL, 0, ISOLDE_UNKNOWN},
        {"", "G1", NULL, 0, ISOLDE_VALID},                      /* -a alone is something */
        {"serializable,serializable,PL-3", NULL, NULL, 0, ISOLDE_VALID},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        isolde_result *r = build_asking(cases[i].models, cases[i].anomalies, cases[i].types, cases[i].n);
        if (isolde_result_validity(r) != cases[i].want) fail_msg("-c '%s': validity %d", cases[i].models, isolde_result_validity(r));
        isolde_result_free(r);
    }
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.models = "serializable,PL-3,linearizable,serializable";
    iso_request req;
    isolde_error err;
    assert_int_equal(iso_request_of(&o, &req, &err), 0);
    assert_int_equal(req.n_checked, 1); /* each model once, as first named */
    assert_string_equal(req.checked[0].name, "serializable");
    assert_int_equal(req.n_unchecked, 1);
    assert_string_equal(req.unchecked[0].name, "linearizable");
    iso_buf why = {0};
    assert_int_equal(iso_request_gap(&req, &why), 1);
    assert_string_equal(iso_buf_cstr(&why), "nothing forbidden was found, but linearizable was not checked");
    iso_buf_free(&why);
}

static void redundant_cycle_exists_dropped(void **state)
{
    (void)state;
    int t[] = {ISO_A_PL_2_CYCLE_EXISTS, ISO_A_G1C, ISO_A_PL_SI_CYCLE_EXISTS, ISO_A_CYCLE_SEARCH_TIMEOUT};
    isolde_result *r = build("serializable", t, 4);
    /* G1c rules out read-committed and so snapshot isolation: both fallbacks go */
    assert_int_equal(isolde_result_validity(r), ISOLDE_INVALID);
    assert_int_equal(isolde_result_type_count(r), 2);
    assert_string_equal(isolde_result_type(r, 0), "G1c");
    assert_string_equal(isolde_result_type(r, 1), "cycle-search-timeout");
    isolde_result_free(r);
    int u[] = {ISO_A_PL_SI_CYCLE_EXISTS, ISO_A_CYCLE_SEARCH_TIMEOUT};
    r = build("serializable", u, 2); /* nothing else rules SI out: the proof stays */
    assert_int_equal(isolde_result_validity(r), ISOLDE_INVALID);
    assert_int_equal(isolde_result_instance_count(r, "PL-SI-cycle-exists"), 1);
    assert_string_equal(isolde_result_not(r, 0), "snapshot-isolation");
    isolde_result_free(r);
}

static void counts_and_unknown_names(void **state)
{
    (void)state;
    int t[] = {ISO_A_G0, ISO_A_G0, ISO_A_G0};
    isolde_result *r = build(NULL, t, 3);
    assert_int_equal(isolde_result_instance_count(r, "G0"), 3);
    assert_int_equal(isolde_result_instance_count(r, "G1c"), 0);
    isolde_result_free(r);
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.models = "serializable, strong-snapshot-isolation";
    o.anomalies = "G1,bogus";
    iso_request req;
    isolde_error err = {0};
    assert_int_equal(iso_request_of(&o, &req, &err), -1);
    assert_non_null(strstr(err.msg, "unknown anomaly 'bogus'"));
    o.anomalies = "G1";
    assert_int_equal(iso_request_of(&o, &req, &err), 0);
    assert_true(req.reportable[ISO_A_G_SINGLE_ITEM_REALTIME]); /* strong SI */
    assert_false(req.reportable[ISO_A_G2_ITEM_REALTIME]);
    o.models = "serializable,no-such";
    assert_int_equal(iso_request_of(&o, &req, &err), -1);
    assert_non_null(strstr(err.msg, "no-such"));
}

static void cycle_exists_names(void **state)
{
    (void)state;
    static const struct { int type; const char *model, *subgraph; } cases[] = {
        {ISO_A_PL_1_CYCLE_EXISTS, "read-uncommitted", "ww"},
        {ISO_A_PL_SI_CYCLE_EXISTS, "snapshot-isolation", "ww wr, extended by rw"},
        {ISO_A_PL_3_CYCLE_EXISTS, "serializable", "ww wr rw"},
        {ISO_A_STRONG_SESSION_PL_2_CYCLE_EXISTS, "strong-session-read-committed", "ww wr process"},
        {ISO_A_PL_SS_CYCLE_EXISTS, "strong-serializable", "ww wr rw realtime"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iso_buf b = {0};
        iso_cycle_exists_subgraph(cases[i].type, &b);
        assert_string_equal(iso_buf_cstr(&b), cases[i].subgraph);
        assert_string_equal(iso_cycle_exists_model(cases[i].type), cases[i].model);
        iso_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nothing_reportable_is_valid),
        cmocka_unit_test(unknown_only_when_nothing_prohibited),
        cmocka_unit_test(valid_only_of_models_checked),
        cmocka_unit_test(redundant_cycle_exists_dropped),
        cmocka_unit_test(counts_and_unknown_names),
        cmocka_unit_test(cycle_exists_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
