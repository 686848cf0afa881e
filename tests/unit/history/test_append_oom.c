/* history/test_append_oom.c -- isolde_history_append_mem with every
 * allocation failing after the first n, for every n until it succeeds:
 * NOMEM, and the history as it was -- usable (the same lines appended
 * again read), never pointing at memory the failed call gave back (the
 * table of processes grew under the failed call's guard: freeing the
 * history crashed). */
#include "testutil.h"

#include "core/alloc.h"

static const char *const lines =
    "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1]]}\n"
    "{\"index\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1]]}\n";
static const char *const more =
    "{\"index\":2,\"type\":\"invoke\",\"process\":\"p2\",\"f\":\"txn\",\"value\":[[\"r\",\"x\",null]]}\n"
    "{\"index\":3,\"type\":\"ok\",\"process\":\"p2\",\"f\":\"txn\",\"value\":[[\"r\",\"x\",[1]]]}\n";

/* Append `next` to a history of `first` (NULL: none), failing after n
 * allocations for every n until it succeeds. */
static void fail_every_allocation(const char *first, const char *next, size_t ops_before)
{
    for (unsigned long n = 1;; n++) {
        isolde_history *h = NULL;
        assert_int_equal(isolde_history_new("h", NULL, &h, NULL), ISOLDE_OK);
        if (first) assert_int_equal(isolde_history_append_mem(h, first, strlen(first), NULL), ISOLDE_OK);
        iso_alloc_fail_after(n);
        isolde_status s = isolde_history_append_mem(h, next, strlen(next), NULL);
        iso_alloc_fail_after(0);
        if (s == ISOLDE_OK) {
            assert_int_equal(isolde_history_op_count(h), ops_before + 2);
            isolde_history_free(h);
            return;
        }
        assert_int_equal(s, ISOLDE_ERR_NOMEM);
        assert_int_equal(isolde_history_op_count(h), ops_before);
        assert_int_equal(isolde_history_append_mem(h, next, strlen(next), NULL), ISOLDE_OK);
        assert_int_equal(isolde_history_op_count(h), ops_before + 2);
        isolde_history_free(h);
    }
}

static void the_first_append(void **state)
{
    (void)state;
    fail_every_allocation(NULL, lines, 0);
}

static void an_append_with_a_new_process(void **state)
{
    (void)state;
    fail_every_allocation(lines, more, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_first_append),
        cmocka_unit_test(an_append_with_a_new_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
