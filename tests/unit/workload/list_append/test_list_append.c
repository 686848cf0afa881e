/* test_list_append.c -- list-append inference and direct anomalies, end to
 * end through iso_check: verdict, anomaly types and the not boundary. */
#include "testutil.h"

typedef struct la_case {
    const char *name, *history, *models, *anomalies;
    isolde_validity valid;
    const char *types; /* comma-separated, sorted */
    const char *not_;  /* comma-separated, sorted */
} la_case;

#define OK(p, v) "{:type :ok, :process " #p ", :value " v "}\n"
#define FAIL(p, v) "{:type :fail, :process " #p ", :value " v "}\n"
#define INFO(p, v) "{:type :info, :process " #p ", :value " v "}\n"

static const la_case cases[] = {
    {"G0", OK(0, "[[:append :x 1] [:append :y 1]]") OK(1, "[[:append :x 2] [:append :y 2]]")
               OK(2, "[[:r :x [1 2]] [:r :y [2 1]]]"),
     "", "G0", ISOLDE_INVALID, "G0", "read-uncommitted"},
    {"G1a", FAIL(0, "[[:append :x 1]]") OK(1, "[[:r :x [1]]]"), "read-committed", NULL, ISOLDE_INVALID,
     "G1a,empty-transaction-graph", "read-committed"},
    {"G1b", OK(0, "[[:append :x 1] [:append :x 2]]") OK(1, "[[:r :x [1]]]"), "", "G1", ISOLDE_INVALID, "G1b",
     "read-committed"},
    {"G1c", OK(0, "[[:append :x 1] [:r :y [1]]]") OK(1, "[[:append :y 1] [:r :x [1]]]"), "read-committed",
     NULL, ISOLDE_INVALID, "G1c", "read-committed"},
    {"G-single-item", OK(0, "[[:append :x 1] [:append :y 1]]") OK(1, "[[:r :x []] [:r :y [1]]]"),
     "serializable", NULL, ISOLDE_INVALID, "G-single-item", "consistent-view,repeatable-read"},
    {"G2-item", OK(0, "[[:r :x []] [:append :y 1]]") OK(1, "[[:r :y []] [:append :x 1]]"), "serializable",
     NULL, ISOLDE_INVALID, "G2-item", "repeatable-read"},
    {"G2-item allowed by SI", OK(0, "[[:r :x []] [:append :y 1]]") OK(1, "[[:r :y []] [:append :x 1]]"),
     "snapshot-isolation", NULL, ISOLDE_VALID, NULL, NULL},
    {"internal", OK(0, "[[:append :x 1] [:r :x [2]]]") OK(1, "[[:append :x 2]]"), "", "internal", ISOLDE_INVALID,
     "internal", "read-atomic"},
    /* a transaction's own reads and appends of a key: what the next read must be */
    {"internal: read, append, read", OK(0, "[[:append :x 1]]") OK(1, "[[:r :x [1]] [:append :x 2] [:r :x [1 2]]]"),
     "serializable", NULL, ISOLDE_VALID, NULL, NULL},
    {"internal: second read misses the append", OK(0, "[[:append :x 1]]")
                                                   OK(1, "[[:r :x [1]] [:append :x 2] [:r :x [1]]]"),
     "serializable", NULL, ISOLDE_INVALID, "internal", "read-atomic"},
    {"internal: appends, then a read ending in them", OK(0, "[[:append :x 1]]")
                                                         OK(1, "[[:append :x 2] [:r :x [1 2]]]"),
     "serializable", NULL, ISOLDE_VALID, NULL, NULL},
    {"internal: the same read twice", OK(0, "[[:append :x 1]]") OK(1, "[[:r :x [1]] [:r :x [1]]]"),
     "serializable", NULL, ISOLDE_VALID, NULL, NULL},
    {"internal: a longer second read", OK(0, "[[:append :x 1]]") OK(1, "[[:r :x [1]] [:r :x [1 2]]]")
                                           OK(2, "[[:append :x 2]]"),
     "serializable", NULL, ISOLDE_INVALID, "G-single-item,internal", "consistent-view,read-atomic,repeatable-read"},
    {"future-read", OK(0, "[[:r :x [1]] [:append :x 1]]"), "read-committed", NULL, ISOLDE_INVALID,
     "empty-transaction-graph,future-read", "read-committed"},
    {"duplicate-elements", OK(0, "[[:append :x 1]]") OK(1, "[[:append :x 2]]") OK(2, "[[:r :x [1 2 1]]]"),
     "read-uncommitted", NULL, ISOLDE_INVALID, "duplicate-elements", "read-uncommitted"},
    {"incompatible-order", OK(0, "[[:append :x 1]]") OK(1, "[[:append :x 2]]") OK(2, "[[:r :x [1 2]]]")
                               OK(3, "[[:r :x [2 1]]]"),
     "read-committed", NULL, ISOLDE_INVALID, "incompatible-order", "read-committed"},
    {"lost-update", OK(0, "[[:append :x 0]]") OK(1, "[[:r :x [0]] [:append :x 1]]")
                        OK(2, "[[:r :x [0]] [:append :x 2]]") OK(3, "[[:r :x [0 1 2]]]"),
     "serializable", NULL, ISOLDE_INVALID, "G-single-item,lost-update", "cursor-stability,update-atomic"},
    {"dirty-update", FAIL(0, "[[:append :x 1]]") OK(1, "[[:append :x 2]]") OK(2, "[[:r :x [1 2]]]"), "",
     "dirty-update", ISOLDE_INVALID, "dirty-update", "read-committed"},
    {"garbage-read", OK(0, "[[:append :x 1]]") OK(1, "[[:r :x [1 9]]]"), "read-uncommitted", NULL,
     ISOLDE_INVALID, "empty-transaction-graph,garbage-read", "read-uncommitted"},
    {"info append observed", INFO(0, "[[:append :x 1]]") OK(1, "[[:r :x [1]]]"), "strict-serializable", NULL,
     ISOLDE_VALID, NULL, NULL},
    {"unobserved append follows the last read", OK(0, "[[:append :x 1]]") OK(1, "[[:r :x [1]] [:r :y [1]]]")
                                                     OK(2, "[[:append :x 2] [:append :y 1]]"),
     "serializable", NULL, ISOLDE_INVALID, "G-single-item", "consistent-view,repeatable-read"},
    /* values the append index hashes instead of indexing densely */
    {"sparse and string values", OK(0, "[[:append :x 5] [:append :y \"a\"]]") OK(2, "[[:append :x 1000000]]")
                                     OK(1, "[[:r :x [5]] [:r :y []]]") OK(3, "[[:r :x [5 1000000]]]"),
     "serializable", NULL, ISOLDE_INVALID, "G-single-item", "consistent-view,repeatable-read"},
    {"serial history", OK(0, "[[:append :x 1]]") OK(0, "[[:r :x [1]] [:append :x 2]]") OK(1, "[[:r :x [1 2]]]"),
     "strict-serializable", NULL, ISOLDE_VALID, NULL, NULL},
};


static void run_case(const la_case *c)
{
    isolde_history *h = tu_read(c->history, ISOLDE_FORMAT_EDN);
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.workload = ISOLDE_WORKLOAD_LIST_APPEND;
    o.models = c->models;
    o.anomalies = c->anomalies;
    isolde_result *r = NULL;
    isolde_error err = {0};
    if (isolde_check(h, &o, &r, &err)) fail_msg("%s: check failed: %s", c->name, err.msg);
    char types[512] = "", nots[512] = "";
    for (size_t i = 0; i < isolde_result_type_count(r); i++)
        snprintf(types + strlen(types), sizeof types - strlen(types), "%s%s", i ? "," : "", isolde_result_type(r, i));
    for (size_t i = 0; i < isolde_result_not_count(r); i++)
        snprintf(nots + strlen(nots), sizeof nots - strlen(nots), "%s%s", i ? "," : "", isolde_result_not(r, i));
    if (isolde_result_validity(r) != c->valid || strcmp(types, c->types ? c->types : "") ||
        strcmp(nots, c->not_ ? c->not_ : ""))
        fail_msg("%s: got valid=%d types=[%s] not=[%s]", c->name, isolde_result_validity(r), types, nots);
    isolde_result_free(r);
    isolde_history_free(h);
}

static void all_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
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
        cmocka_unit_test(all_cases),
        cmocka_unit_test(duplicate_append_is_an_error),
        cmocka_unit_test(proof_names_keys_and_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
