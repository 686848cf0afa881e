/*
 * test_json.c -- a transaction's reads and its JSON (lib/txn/txn.c,
 * list_text.c, json.c): list reads kept as the database's text
 * (txn_read_text) and how they are printed, the list-text rule against
 * a reference on random strings, and the completion's value made from the
 * invocation's text.
 */
#include "testutil.h"
#include "core/rng.h"
#include "txn/json.h"

static void read_text_case(const char *s, int ok)
{
    txn t = {0};
    t.list_append = 1;
    t.n = 1;
    t.mops[0] = (txn_mop){.f = TXN_R, .nil = 1, .key = 4, .value = 0};
    if ((txn_read_text(&t, 0, s, strlen(s)) == 0) != ok)
        fail_msg("txn_read_text(\"%s\") should %s", s, ok ? "accept" : "refuse");
    if (ok) {
        iso_buf b = {0}, want = {0};
        txn_json(&b, &t, 1);
        iso_buf_printf(&want, "[[\"r\",4,[%s]]]", s);
        assert_string_equal(iso_buf_cstr(&b), iso_buf_cstr(&want));
        iso_buf_free(&b);
        iso_buf_free(&want);
    }
    txn_release(&t);
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
        size_t n = iso_rng_below(&rng, sizeof s);
        uint32_t comma = 5 + iso_rng_below(&rng, 40), odd = 1 + iso_rng_below(&rng, 6); /* percent */
        for (size_t i = 0; i < n; i++) {
            uint32_t r = iso_rng_below(&rng, 100);
            s[i] = r < comma ? ',' : r < comma + odd ? other[iso_rng_below(&rng, sizeof other - 1)]
                                                     : "123456789"[r % 9];
        }
        int want = list_ok_ref(s, n);
        accepted += want;
        if (txn_list_text_ok(s, n) != want)
            fail_msg("txn_list_text_ok(\"%.*s\") != %d", (int)n, s, want);
    }
    assert_true(accepted > 10000); /* both answers well exercised */
}

/* A random transaction, or single op (a third of them), with its reads
 * filled in every way a driver may. */
static void random_txn(txn *t, uint64_t *rng)
{
    t->shape = (int)iso_rng_below(rng, 6) % 3; /* TXN a third of the time, each single shape as often */
    t->list_append = t->shape == TXN_SHAPE_TXN && iso_rng_below(rng, 2);
    t->n = t->shape == TXN_SHAPE_TXN ? 1 + iso_rng_below(rng, 6) : 1;
    txn_clear_reads(t);
    for (uint32_t i = 0; i < t->n; i++) {
        int64_t v = (int64_t)iso_rng_next(rng) >> iso_rng_below(rng, 64);
        int w = t->shape != TXN_SHAPE_TXN && iso_rng_below(rng, 2) ? TXN_CAS : t->list_append ? TXN_APPEND : TXN_W;
        t->mops[i] = (txn_mop){iso_rng_below(rng, 2) ? TXN_R : (uint8_t)w,
                               1, (int64_t)iso_rng_below(rng, 1000) - 5, v, 0, 0, 0, 0, -v};
    }
    txn_clear_reads(t);
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->mops[i].f != TXN_R || iso_rng_below(rng, 4) == 0) continue; /* nil */
        if (!t->list_append) {
            t->mops[i].nil = 0;
            t->mops[i].value = (int64_t)iso_rng_next(rng);
        } else if (iso_rng_below(rng, 2)) {
            assert_int_equal(txn_read_text(t, i, "3,1,22", iso_rng_below(rng, 2) ? 6 : 0), 0);
        } else {
            txn_read_begin(t, i);
            for (uint32_t j = iso_rng_below(rng, 5); j > 0; j--)
                txn_read_elem(t, i, (int64_t)iso_rng_next(rng));
        }
    }
}

/* The completion's value made from the invocation's is txn_json's. */
static void test_ok_value(void **state)
{
    (void)state;
    uint64_t rng = 7;
    txn t = {0};
    iso_buf inv = {0}, ok = {0}, want = {0}, want_inv = {0};
    uint32_t null_at[TXN_MAX_MOPS];
    for (int round = 0; round < 20000; round++) {
        random_txn(&t, &rng);
        ISO_GROW(inv.p, inv.cap, TXN_JSON_MAX + 1);
        inv.n = (size_t)(txn_json_invoke(inv.p, &t, null_at) - inv.p);
        inv.p[inv.n] = '\0';
        want_inv.n = want.n = 0;
        txn_json(&want_inv, &t, 0);
        assert_string_equal(iso_buf_cstr(&inv), iso_buf_cstr(&want_inv));
        for (uint32_t i = 0; i < t.n; i++)
            if (t.mops[i].f == TXN_R) assert_memory_equal(inv.p + null_at[i], "null", 4);
        ok.n = 0;
        txn_json_ok(&ok, inv.p, inv.n, null_at, &t);
        txn_json(&want, &t, 1);
        assert_string_equal(iso_buf_cstr(&ok), iso_buf_cstr(&want));
    }
    txn_release(&t);
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
        {TXN_SHAPE_REGISTER, TXN_R, 0, 0, 3, 0, "read", "null", "3"},
        {TXN_SHAPE_REGISTER, TXN_R, 1, 0, 0, 0, "read", "null", "null"},
        {TXN_SHAPE_REGISTER, TXN_W, 1, 0, 4, 0, "write", "4", "4"},
        {TXN_SHAPE_REGISTER, TXN_CAS, 1, 0, 2, 1, "cas", "[1,2]", "[1,2]"},
        {TXN_SHAPE_KV, TXN_R, 0, 7, 3, 0, "read", "[7,null]", "[7,3]"},
        {TXN_SHAPE_KV, TXN_R, 1, 7, 0, 0, "read", "[7,null]", "[7,null]"},
        {TXN_SHAPE_KV, TXN_W, 1, 7, -1, 0, "write", "[7,-1]", "[7,-1]"},
        {TXN_SHAPE_KV, TXN_CAS, 1, 12, 0, 4, "cas", "[12,[4,0]]", "[12,[4,0]]"},
        {TXN_SHAPE_TXN, TXN_W, 1, 1, 2, 0, "txn", "[[\"w\",1,2]]", "[[\"w\",1,2]]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        txn t = {.n = 1, .shape = cases[i].shape};
        t.mops[0] = (txn_mop){.f = (uint8_t)cases[i].f, .nil = (uint8_t)cases[i].nil, .key = cases[i].key,
                              .value = cases[i].value, .old = cases[i].old};
        iso_buf inv = {0}, ok = {0};
        txn_json(&inv, &t, 0);
        txn_json(&ok, &t, 1);
        assert_string_equal(txn_json_f(&t), cases[i].f_name);
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
