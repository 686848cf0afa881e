/* test_names.c -- "did you mean ...?": the closest name by edit distance,
 * case ignored, only when close enough to be a typo. */
#include "testutil.h"
#include "core/names.h"

static const char *const names[] = {"serializable", "snapshot-isolation", "read-committed", "G1a",
                                    "G1c", "x", NULL};

static const char *names_at(size_t i, void *arg)
{
    (void)arg;
    return i < sizeof names / sizeof names[0] ? names[i] : NULL;
}

static const char *closest(const char *w) { return iso_closest_name(w, names_at, NULL); }

static void a_swap_is_one_edit(void **state)
{
    (void)state;
    assert_string_equal(closest("serializabel"), "serializable");
    assert_string_equal(closest("raed-committed"), "read-committed");
}

static void case_is_ignored(void **state)
{
    (void)state;
    assert_string_equal(closest("Serializable"), "serializable");
    assert_string_equal(closest("g1A"), "G1a");
}

static void insertions_deletions_substitutions(void **state)
{
    (void)state;
    assert_string_equal(closest("serialisable"), "serializable");
    assert_string_equal(closest("snapshot-isolaton"), "snapshot-isolation");
    assert_string_equal(closest("read-commited"), "read-committed");
}

static void first_name_wins_a_tie(void **state)
{
    (void)state;
    assert_string_equal(closest("G1x"), "G1a"); /* G1a and G1c are both one edit away */
}

static void far_names_are_not_suggested(void **state)
{
    (void)state;
    assert_null(closest("snapshot"));   /* ten letters short */
    assert_null(closest("linearizable"));
    assert_string_equal(closest("y"), "x"); /* one letter: one edit allowed */
    assert_null(closest("zz"));
}

static void long_words_are_not_compared(void **state)
{
    (void)state;
    char w[300];
    memset(w, 'a', sizeof w - 1);
    w[sizeof w - 1] = 0;
    assert_null(closest(w));
    assert_null(closest(""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_swap_is_one_edit),
        cmocka_unit_test(case_is_ignored),
        cmocka_unit_test(insertions_deletions_substitutions),
        cmocka_unit_test(first_name_wins_a_tie),
        cmocka_unit_test(far_names_are_not_suggested),
        cmocka_unit_test(long_words_are_not_compared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
