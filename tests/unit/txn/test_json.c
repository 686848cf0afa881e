/*
 * test_txn_json.c -- a transaction's reads and its JSON (lib/gen/txn.c,
 * list_text.c, txn_json.c): list reads kept as the database's text
 * (run_txn_read_text) and how they are printed, the list-text rule against
 * a reference on random strings, and the completion's value made from the
 * invocation's text.
 */
#include "testutil.h"
#include "gen/gen.h"

static void read_text_case(const char *s, int ok)
{
    run_txn t = {0};
    t.list_append = 1;
    t.n = 1;
    t.mops[0] = (run_mop){.f = RUN_R, .nil = 1, .key = 4, .value = 0};
    if ((run_txn_read_text(&t, 0, s, strlen(s)) == 0) != ok)
        fail_msg("run_txn_read_text(\"%s\") should %s", s, ok ? "accept" : "refuse");
    if (ok) {
        iso_buf b = {0}, want = {0};
        txn_json(&b, &t, 1);
        iso_buf_printf(&want, "[[\"r\",4,[%s]]]", s);
        assert_string_equal(iso_buf_cstr(&b), iso_buf_cstr(&want));
        iso_buf_free(&b);
        iso_buf_free(&want);
    }
    run_txn_release(&t);
}

static void test_read_text(void **state)
{
    (void)state;
    static const char *const good[] = {"", "0", "7", "1,2,30", "-5,0,12", "999999999999999999"};
    static const char *const bad[] = {"01", "1,,2", ",1", "1,", "1 ,2", "x", "-", "1,-",
                                      "1,02", "1234567890123456789", "1.5", "1,2\"]"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) read_text_case(good[i], 1);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) read_text_case(bad[i], 0);
    /* Across the 8-byte words list_text.c checks at a time. */
    static const char *const good8[] = {
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", "1234567,0", "12345678,0,1",
        "1,123456789012345678", "123456789012345678,1", "1234567,123456789012345678,-3"};
    static const char *const bad8[] = {
        "1234567,,1", "1,2,3,4,", "1234567,01", "1,2,3,4,5,6,7,8,9,10,11,12,0013",
        "1,1234567890123456789", "1234567890123456789,1", "12345678901234567890123",
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"};
    for (size_t i = 0; i < sizeof good8 / sizeof *good8; i++) read_text_case(good8[i], 1);
    for (size_t i = 0; i < sizeof bad8 / sizeof *bad8; i++) read_text_case(bad8[i], 0);
}

/* The rule spelled out once more, element by element, for the random test. */
static int list_ok_ref(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != ',') j++;
        size_t d = i + (s[i] == '-'), digits = j - d;
        if (digits == 0 || digits > 18 || (s[d] == '0' && digits > 1)) return 0;
        for (size_t k = d; k < j; k++)
            if (s[k] < '0' || s[k] > '9') return 0;
        if (j == n) return 1;
        if (j + 1 == n) return 0;
        i = j + 1;
    }
    return 1;
}

/* Random strings, mostly of digits and commas, against the reference. */
static void test_read_text_random(void **state)
{
    (void)state;
    static const char other[] = "0000,-x";
    uint64_t rng = 42;
    char s[64];
    int accepted = 0;
    for (int round = 0; round < 200000; round++) {
        size_t n = rng_below(&rng, sizeof s);
        uint32_t comma = 5 + rng_below(&rng, 40), odd = 1 + rng_below(&rng, 6); /* percent */
        for (size_t i = 0; i < n; i++) {
            uint32_t r = rng_below(&rng, 100);
            s[i] = r < comma ? ',' : r < comma + odd ? other[rng_below(&rng, sizeof other - 1)]
                                                     : "123456789"[r % 9];
        }
        int want = list_ok_ref(s, n);
        accepted += want;
        if (run_list_text_ok(s, n) != want)
            fail_msg("run_list_text_ok(\"%.*s\") != %d", (int)n, s, want);
    }
    assert_true(accepted > 10000); /* both answers well exercised */
}

/* A random transaction, or single op (a third of them), with its reads
 * filled in every way a driver may. */
static void random_txn(run_txn *t, uint64_t *rng)
{
    t->shape = (int)rng_below(rng, 6) % 3; /* TXN a third of the time, each single shape as often */
    t->list_append = t->shape == RUN_SHAPE_TXN && rng_below(rng, 2);
    t->n = t->shape == RUN_SHAPE_TXN ? 1 + rng_below(rng, 6) : 1;
    run_txn_clear_reads(t);
    for (uint32_t i = 0; i < t->n; i++) {
        int64_t v = (int64_t)rng_next(rng) >> rng_below(rng, 64);
        int w = t->shape != RUN_SHAPE_TXN && rng_below(rng, 2) ? RUN_CAS : t->list_append ? RUN_APPEND : RUN_W;
        t->mops[i] = (run_mop){rng_below(rng, 2) ? RUN_R : (uint8_t)w,
                               1, (int64_t)rng_below(rng, 1000) - 5, v, 0, 0, 0, 0, -v};
    }
    run_txn_clear_reads(t);
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->mops[i].f != RUN_R || rng_below(rng, 4) == 0) continue; /* nil */
        if (!t->list_append) {
            t->mops[i].nil = 0;
            t->mops[i].value = (int64_t)rng_next(rng);
        } else if (rng_below(rng, 2)) {
            assert_int_equal(run_txn_read_text(t, i, "3,1,22", rng_below(rng, 2) ? 6 : 0), 0);
        } else {
            run_txn_read_begin(t, i);
            for (uint32_t j = rng_below(rng, 5); j > 0; j--)
                run_txn_read_elem(t, i, (int64_t)rng_next(rng));
        }
    }
}

/* The completion's value made from the invocation's is txn_json's. */
static void test_ok_value(void **state)
{
    (void)state;
    uint64_t rng = 7;
    run_txn t = {0};
    iso_buf inv = {0}, ok = {0}, want = {0}, want_inv = {0};
    uint32_t null_at[RUN_MAX_MOPS];
    for (int round = 0; round < 20000; round++) {
        random_txn(&t, &rng);
        ISO_GROW(inv.p, inv.cap, TXN_JSON_MAX + 1);
        inv.n = (size_t)(txn_json_invoke(inv.p, &t, null_at) - inv.p);
        inv.p[inv.n] = '\0';
        want_inv.n = want.n = 0;
        txn_json(&want_inv, &t, 0);
        assert_string_equal(iso_buf_cstr(&inv), iso_buf_cstr(&want_inv));
        for (uint32_t i = 0; i < t.n; i++)
            if (t.mops[i].f == RUN_R) assert_memory_equal(inv.p + null_at[i], "null", 4);
        ok.n = 0;
        txn_json_ok(&ok, inv.p, inv.n, null_at, &t);
        txn_json(&want, &t, 1);
        assert_string_equal(iso_buf_cstr(&ok), iso_buf_cstr(&want));
    }
    run_txn_release(&t);
    iso_buf_free(&inv);
    iso_buf_free(&ok);
    iso_buf_free(&want);
    iso_buf_free(&want_inv);
}

/* A single op's :f and value, as the linearizability checker reads them. */
static void test_single_ops(void **state)
{
    (void)state;
    static const struct {
        int shape, f, nil;
        int64_t key, value, old;
        const char *f_name, *invoke, *ok;
    } cases[] = {
        {RUN_SHAPE_REGISTER, RUN_R, 0, 0, 3, 0, "read", "null", "3"},
        {RUN_SHAPE_REGISTER, RUN_R, 1, 0, 0, 0, "read", "null", "null"},
        {RUN_SHAPE_REGISTER, RUN_W, 1, 0, 4, 0, "write", "4", "4"},
        {RUN_SHAPE_REGISTER, RUN_CAS, 1, 0, 2, 1, "cas", "[1,2]", "[1,2]"},
        {RUN_SHAPE_KV, RUN_R, 0, 7, 3, 0, "read", "[7,null]", "[7,3]"},
        {RUN_SHAPE_KV, RUN_R, 1, 7, 0, 0, "read", "[7,null]", "[7,null]"},
        {RUN_SHAPE_KV, RUN_W, 1, 7, -1, 0, "write", "[7,-1]", "[7,-1]"},
        {RUN_SHAPE_KV, RUN_CAS, 1, 12, 0, 4, "cas", "[12,[4,0]]", "[12,[4,0]]"},
        {RUN_SHAPE_TXN, RUN_W, 1, 1, 2, 0, "txn", "[[\"w\",1,2]]", "[[\"w\",1,2]]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run_txn t = {.n = 1, .shape = cases[i].shape};
        t.mops[0] = (run_mop){.f = (uint8_t)cases[i].f, .nil = (uint8_t)cases[i].nil, .key = cases[i].key,
                              .value = cases[i].value, .old = cases[i].old};
        iso_buf inv = {0}, ok = {0};
        txn_json(&inv, &t, 0);
        txn_json(&ok, &t, 1);
        assert_string_equal(txn_f(&t), cases[i].f_name);
        assert_string_equal(iso_buf_cstr(&inv), cases[i].invoke);
        assert_string_equal(iso_buf_cstr(&ok), cases[i].ok);
        iso_buf_free(&inv);
        iso_buf_free(&ok);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_text),
        cmocka_unit_test(test_read_text_random),
        cmocka_unit_test(test_ok_value),
        cmocka_unit_test(test_single_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
