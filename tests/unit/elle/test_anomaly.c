/*
 * test_anomaly.c -- anomaly names and Elle's implied-anomalies relation
 * (lib/elle/anomaly.c): every name round-trips, cycle-type ids follow
 * ISO_CYCLE, implications hold directly and transitively, and the ones
 * Elle does not draw do not.
 */
#include "testutil.h"
#include "elle/anomaly.h"

static void names_round_trip(void **state)
{
    (void)state;
    for (int a = 0; a < ISO_A_COUNT; a++) {
        const char *name = iso_anomaly_name(a);
        assert_string_not_equal(name, "?");
        assert_int_equal(iso_anomaly_parse(name), a);
    }
    assert_string_equal(iso_anomaly_name(ISO_A_G_SINGLE_ITEM_PROCESS), "G-single-item-process");
    assert_string_equal(iso_anomaly_name(ISO_A_GARBAGE_READ), "garbage-read");
    assert_string_equal(iso_anomaly_name(-1), "?");
    assert_string_equal(iso_anomaly_name(ISO_A_COUNT), "?");
}

static void unknown_names(void **state)
{
    (void)state;
    assert_int_equal(iso_anomaly_parse(""), -1);
    assert_int_equal(iso_anomaly_parse("g0"), -1);      /* case matters */
    assert_int_equal(iso_anomaly_parse("G1 "), -1);
    assert_int_equal(iso_anomaly_parse("garbage-versions"), -1);
}

static void cycle_ids(void **state)
{
    (void)state;
    assert_int_equal(ISO_CYCLE(ISO_CB_G0, ISO_CV_PLAIN), ISO_A_G0);
    assert_int_equal(ISO_CYCLE(ISO_CB_G1C, ISO_CV_PROCESS), ISO_A_G1C_PROCESS);
    assert_int_equal(ISO_CYCLE(ISO_CB_G_SINGLE_ITEM, ISO_CV_REALTIME),
                     ISO_A_G_SINGLE_ITEM_REALTIME);
    assert_int_equal(ISO_CYCLE(ISO_CB_G_NONADJACENT, ISO_CV_PROCESS),
                     ISO_A_G_NONADJACENT_PROCESS);
    assert_int_equal(ISO_CYCLE(ISO_CB_G2, ISO_CV_REALTIME), ISO_N_CYCLE_TYPES - 1);
    assert_true(iso_is_cycle_type(ISO_A_G2_REALTIME));
    assert_false(iso_is_cycle_type(ISO_A_PL_1_CYCLE_EXISTS));
    assert_false(iso_is_cycle_type(-1));
}

static const struct { const char *a, *b; } implied[] = {
    /* direct (elle.md R4) */
    {"G0", "G1c"}, {"G1a", "G1"}, {"G-single", "GSIb"}, {"lost-update", "G2-item"},
    {"dirty-update", "G1a"}, {"incompatible-order", "G1a"}, {"future-read", "G1c"},
    /* transitive */
    {"G0", "G1-realtime"}, {"G0", "G0-realtime"}, {"lost-update", "G2"},
    {"lost-update", "G2-realtime"}, {"G-single-item", "G2-realtime"},
    {"G-single-item", "GSI"}, {"dirty-update", "G1-process"},
    {"future-read", "G1c-realtime"}, {"G-nonadjacent-item", "G-nonadjacent-realtime"},
    /* reflexive */
    {"G2", "G2"}, {"garbage-read", "garbage-read"},
};

static const struct { const char *a, *b; } not_implied[] = {
    {"G1c", "G0"}, {"G1", "G1a"}, {"G2", "G2-item"}, {"G-single", "G-single-item"},
    {"G2-realtime", "G2"}, {"G1-process", "G1"}, {"G0", "G2"}, {"G1c", "G-single"},
    {"write-skew", "lost-update"}, {"G-SI", "G2"}, {"internal", "G1a"},
    {"garbage-read", "G1a"}, {"G1a", "garbage-read"}, {"G2-item", "G-single-item"},
};

static void implications(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof implied / sizeof implied[0]; i++) {
        int a = iso_anomaly_parse(implied[i].a), b = iso_anomaly_parse(implied[i].b);
        assert_true(a >= 0 && b >= 0);
        if (!iso_anomaly_implies(a, b)) fail_msg("%s should imply %s", implied[i].a, implied[i].b);
    }
    for (size_t i = 0; i < sizeof not_implied / sizeof not_implied[0]; i++) {
        int a = iso_anomaly_parse(not_implied[i].a), b = iso_anomaly_parse(not_implied[i].b);
        assert_true(a >= 0 && b >= 0);
        if (iso_anomaly_implies(a, b))
            fail_msg("%s should not imply %s", not_implied[i].a, not_implied[i].b);
    }
}

static void relation_is_a_partial_order(void **state)
{
    (void)state;
    for (int a = 0; a < ISO_A_COUNT; a++) {
        assert_true(iso_anomaly_implies(a, a));
        for (int b = 0; b < ISO_A_COUNT; b++) {
            if (a != b && iso_anomaly_implies(a, b) && iso_anomaly_implies(b, a))
                fail_msg("%s and %s imply each other", iso_anomaly_name(a), iso_anomaly_name(b));
            for (int c = 0; c < ISO_A_COUNT; c++)
                if (iso_anomaly_implies(a, b) && iso_anomaly_implies(b, c))
                    assert_true(iso_anomaly_implies(a, c));
        }
    }
    assert_false(iso_anomaly_implies(-1, ISO_A_G0));
    assert_false(iso_anomaly_implies(ISO_A_G0, ISO_A_COUNT));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_round_trip),
        cmocka_unit_test(unknown_names),
        cmocka_unit_test(cycle_ids),
        cmocka_unit_test(implications),
        cmocka_unit_test(relation_is_a_partial_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
