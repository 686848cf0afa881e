/* check/test_shrink.c -- lib/check/shrink.c, isolde_shrink: a G1c between
 * two transactions among others keeps those two alone, their lines as
 * they were but for the micro-ops no anomaly needs (a read of z, and with
 * it z's writer, which alone would leave a garbage read); a valid history
 * has nothing to shrink; running out of memory at any allocation is an
 * error, never a leak. */
#include "testutil.h"

#include "core/alloc.h"

/* T1 and T2: a G1c (each reads the other's append); T3 writes z, read by
 * T1; T4 and T5: unrelated. */
static const char *const g1c =
    "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1],[\"r\",\"y\",null],[\"r\",\"z\",null]]}\n"
    "{\"index\":1,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"append\",\"y\",1],[\"r\",\"x\",null],[\"append\",\"w\",1]]}\n"
    "{\"index\":2,\"type\":\"invoke\",\"process\":3,\"f\":\"txn\",\"value\":[[\"append\",\"z\",1]]}\n"
    "{\"index\":3,\"type\":\"ok\",\"process\":3,\"f\":\"txn\",\"value\":[[\"append\",\"z\",1]]}\n"
    "{\"index\":4,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1],[\"r\",\"y\",[1]],[\"r\",\"z\",[1]]]}\n"
    "{\"index\":5,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"append\",\"y\",1],[\"r\",\"x\",[1]],[\"append\",\"w\",1]]}\n"
    "{\"index\":6,\"type\":\"invoke\",\"process\":4,\"f\":\"txn\",\"value\":[[\"append\",\"v\",1]]}\n"
    "{\"index\":7,\"type\":\"ok\",\"process\":4,\"f\":\"txn\",\"value\":[[\"append\",\"v\",1]]}\n"
    "{\"index\":8,\"type\":\"invoke\",\"process\":5,\"f\":\"txn\",\"value\":[[\"r\",\"v\",null]]}\n"
    "{\"index\":9,\"type\":\"ok\",\"process\":5,\"f\":\"txn\",\"value\":[[\"r\",\"v\",[1]]]}\n";

static int shrink_text(const char *text, char **out, isolde_shrink_stats *st, isolde_error *err)
{
    size_t len = 0;
    FILE *m = open_memstream(out, &len);
    isolde_check_opts co;
    isolde_check_opts_init(&co);
    co.models = "serializable";
    isolde_status rc = isolde_shrink("h.jsonl", text, strlen(text), NULL, &co, NULL, m, st, err);
    fclose(m);
    return rc;
}

static void a_g1c_keeps_its_two_transactions(void **state)
{
    (void)state;
    char *out = NULL;
    isolde_shrink_stats st;
    assert_int_equal(shrink_text(g1c, &out, &st, NULL), ISOLDE_OK);
    assert_true(st.found && st.minimal);
    assert_string_equal(st.anomaly, "G1c");
    assert_int_equal(st.units_before, 5);
    assert_int_equal(st.units_after, 2); /* T1 and T2: T1's read of z can go, and with it T3 */
    assert_int_equal(st.ops_after, 4);
    assert_int_equal(st.mops_dropped, 2); /* that read, and T2's append to w */
    assert_null(strstr(out, "\"index\":3,"));
    assert_null(strstr(out, "\"index\":6,"));
    assert_null(strstr(out, "[\"append\",\"w\",1]"));
    assert_non_null(strstr(out, "{\"index\":4,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1],[\"r\",\"y\",[1]]]}\n"));
    free(out);
}

static void a_valid_history_has_nothing_to_shrink(void **state)
{
    (void)state;
    char *out = NULL;
    isolde_shrink_stats st;
    const char *valid = "{\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1]]}\n"
                        "{\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1]]}\n";
    assert_int_equal(shrink_text(valid, &out, &st, NULL), ISOLDE_OK);
    assert_false(st.found);
    assert_string_equal(out, "");
    free(out);
}

static void out_of_memory_anywhere(void **state)
{
    (void)state;
    for (unsigned long n = 1;; n++) {
        char *out = NULL;
        isolde_shrink_stats st;
        isolde_error err;
        iso_alloc_fail_after(n);
        int rc = shrink_text(g1c, &out, &st, &err);
        iso_alloc_fail_after(0);
        free(out);
        if (rc != ISOLDE_OK) assert_int_equal(rc, ISOLDE_ERR_NOMEM);
        if (rc == ISOLDE_OK) return;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_g1c_keeps_its_two_transactions),
        cmocka_unit_test(a_valid_history_has_nothing_to_shrink),
        cmocka_unit_test(out_of_memory_anywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
