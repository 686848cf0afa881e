/* test_value.c -- tagged values: interning, integers, composites, printing,
 * equality and hashing; dense key ids; first occurrences. */
#include "testutil.h"
#include "core/keys.h"
#include "core/value.h"

static void atoms_intern(void **state)
{
    (void)state;
    iso_store s;
    iso_store_init(&s);
    iso_val a = iso_atom(&s, ISO_TAG_KW, "x", 1), b = iso_atom(&s, ISO_TAG_KW, "x", 1);
    iso_val c = iso_atom(&s, ISO_TAG_STR, "x", 1);
    assert_true(a == b);
    assert_true(a != c); /* :x and "x" differ */
    for (int i = 0; i < 5000; i++) { /* force rehashing */
        char buf[16];
        int n = snprintf(buf, sizeof buf, "k%d", i);
        iso_atom(&s, ISO_TAG_SYM, buf, (size_t)n);
    }
    assert_true(iso_atom(&s, ISO_TAG_KW, "x", 1) == a);
    size_t len;
    assert_string_equal(iso_atom_text(&s, c, &len), "x");
    iso_store_free(&s);
}

static void integers(void **state)
{
    (void)state;
    iso_store s;
    iso_store_init(&s);
    assert_int_equal(iso_as_int(iso_int(-42)), -42);
    assert_int_equal(iso_as_int(iso_int_text(&s, "123456789012345", 15)), 123456789012345LL);
    iso_val big = iso_int_text(&s, "123456789012345678901", 21); /* kept exactly */
    assert_int_equal(iso_tag(big), ISO_TAG_BIG);
    iso_buf b = {0};
    iso_val_edn(&s, big, &b);
    assert_string_equal(iso_buf_cstr(&b), "123456789012345678901");
    iso_buf_free(&b);
    iso_store_free(&s);
}

static void composites_print_and_compare(void **state)
{
    (void)state;
    iso_store s;
    iso_store_init(&s);
    iso_val kw = iso_atom(&s, ISO_TAG_KW, "append", 6), str = iso_atom(&s, ISO_TAG_STR, "a\"b", 3);
    iso_val m1[] = {kw, str, iso_int(1)}, m2[] = {kw, str, iso_int(1)};
    iso_val x = iso_seq(&s, ISO_SEQ_VEC, m1, 3), y = iso_seq(&s, ISO_SEQ_VEC, m2, 3);
    assert_true(x != y);
    assert_true(iso_val_eq(&s, x, y));
    assert_true(iso_val_hash(&s, x) == iso_val_hash(&s, y));
    iso_val z = iso_seq(&s, ISO_SEQ_LIST, m1, 3);
    assert_false(iso_val_eq(&s, x, z)); /* vector vs list */
    iso_buf e = {0}, j = {0};
    iso_val_edn(&s, x, &e);
    iso_val_json(&s, x, &j);
    assert_string_equal(iso_buf_cstr(&e), "[:append \"a\\\"b\" 1]");
    assert_string_equal(iso_buf_cstr(&j), "[\"append\",\"a\\\"b\",1]");
    iso_val kv[] = {iso_atom(&s, ISO_TAG_KW, "k", 1), ISO_NIL};
    iso_val map = iso_seq(&s, ISO_SEQ_MAP, kv, 2);
    int found;
    iso_map_get(&s, map, "k", &found);
    assert_true(found);
    iso_map_get(&s, map, "q", &found);
    assert_false(found);
    iso_buf_free(&e);
    iso_buf_free(&j);
    iso_store_free(&s);
}

/* v printed as EDN and as JSON, "edn | json". */
static const char *both(const iso_store *s, iso_val v, char *out, size_t size)
{
    iso_buf e = {0}, j = {0};
    iso_val_edn(s, v, &e);
    iso_val_json(s, v, &j);
    snprintf(out, size, "%s | %s", iso_buf_cstr(&e), iso_buf_cstr(&j));
    iso_buf_free(&e);
    iso_buf_free(&j);
    return out;
}

/* A packed micro-op is the vector of its three items in every way a
 * value is seen: items, printing, equality and hash; what does not fit
 * (the name past the store's packable atoms, a negative or wide key, a
 * value other than nil, a small integer or a stored composite below the
 * store's limit) is refused. */
static void packed_micro_ops(void **state)
{
    (void)state;
    iso_store s;
    iso_store_init(&s);
    iso_val append = iso_atom(&s, ISO_TAG_KW, "append", 6), r = iso_atom(&s, ISO_TAG_STR, "r", 1);
    iso_val late = iso_atom(&s, ISO_TAG_KW, "late", 4), m = ISO_NIL;
    s.mop_names = 2;
    s.mop_words = 100;
    iso_val list = iso_seq(&s, ISO_SEQ_VEC, (iso_val[]){iso_int(1), iso_int(2)}, 2);
    const iso_val fits[][3] = {{append, iso_int(3), iso_int(41)},
                               {r, iso_int(0), ISO_NIL},
                               {r, iso_int(((int64_t)1 << ISO_MOP_KEY_BITS) - 1), list},
                               {append, iso_int(7), iso_int((int64_t)ISO_MOP_VAL_MAX - 2)},
                               {append, iso_int(7), iso_int(0)}};
    char a[128], b[128];
    for (size_t i = 0; i < sizeof fits / sizeof fits[0]; i++) {
        assert_true(iso_mop_pack(&s, fits[i], &m));
        iso_val stored = iso_seq(&s, ISO_SEQ_VEC, fits[i], 3), buf[3];
        assert_int_equal(iso_tag(m), ISO_TAG_MOP);
        assert_true(iso_is_seq(m));
        assert_int_equal(iso_seq_len(&s, m), 3);
        assert_int_equal(iso_seq_kind(&s, m), ISO_SEQ_VEC);
        assert_memory_equal(iso_seq_items(&s, m, buf), fits[i], sizeof fits[i]);
        assert_true(iso_val_eq(&s, m, stored) && iso_val_eq(&s, stored, m));
        assert_true(iso_val_hash(&s, m) == iso_val_hash(&s, stored));
        assert_string_equal(both(&s, m, a, sizeof a), both(&s, stored, b, sizeof b));
    }
    assert_string_equal(both(&s, (iso_mop_pack(&s, fits[2], &m), m), a, sizeof a),
                        "[\"r\" 4194303 [1 2]] | [\"r\",4194303,[1,2]]");
    const iso_val refused[][3] = {{late, iso_int(1), iso_int(1)},
                                  {append, iso_int(-1), iso_int(1)},
                                  {append, iso_int((int64_t)1 << ISO_MOP_KEY_BITS), iso_int(1)},
                                  {append, iso_int(1), iso_int(-1)},
                                  {append, iso_int(1), iso_int((int64_t)ISO_MOP_VAL_MAX - 1)},
                                  {append, iso_int(1), late},
                                  {append, late, iso_int(1)},
                                  {r, iso_int(1), iso_mk(ISO_TAG_SEQ, 100)}};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) assert_false(iso_mop_pack(&s, refused[i], &m));
    iso_store_free(&s);
}

/* A number EDN writes but JSON has not (10., 1.5M, 3/4, +1, ##Inf) is a
 * string in JSON, as written: the JSON stays JSON (found by fuzzing
 * check-cas-register: a read of {1 10.} made --json output unparsable). */
static void numbers_in_json(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"10.", "\"10.\""}, {"1.5M", "\"1.5M\""}, {"3/4", "\"3/4\""}, {"+1.5", "\"+1.5\""},
        {"##Inf", "\"##Inf\""}, {"1.e5", "\"1.e5\""}, {"01.5", "\"01.5\""}, {"-", "\"-\""},
        {"1.5", "1.5"}, {"-0.25e-3", "-0.25e-3"}, {"2E+10", "2E+10"}, {"0", "0"},
        {"-123456789012345678901", "-123456789012345678901"},
    };
    iso_store s;
    iso_store_init(&s);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iso_buf j = {0}, e = {0};
        iso_val v = iso_atom(&s, i == 12 ? ISO_TAG_BIG : ISO_TAG_FLOAT, cases[i][0], strlen(cases[i][0]));
        iso_val_json(&s, v, &j);
        iso_val_edn(&s, v, &e);
        assert_string_equal(iso_buf_cstr(&j), cases[i][1]);
        assert_string_equal(iso_buf_cstr(&e), cases[i][0]); /* EDN: as written */
        iso_buf_free(&j);
        iso_buf_free(&e);
    }
    iso_store_free(&s);
}

static void dense_keys(void **state)
{
    (void)state;
    iso_store s;
    iso_store_init(&s);
    iso_keys k;
    iso_keys_init(&k, &s);
    iso_val items[] = {iso_int(1), iso_int(2)};
    iso_val v1 = iso_seq(&s, ISO_SEQ_VEC, items, 2), v2 = iso_seq(&s, ISO_SEQ_VEC, items, 2);
    for (int i = 0; i < 1000; i++) assert_int_equal(iso_keys_intern(&k, iso_int(i)), (uint32_t)i);
    uint32_t id = iso_keys_intern(&k, v1);
    assert_int_equal(iso_keys_intern(&k, v2), id); /* structurally equal keys */
    assert_int_equal(iso_keys_find(&k, iso_int(7)), 7);
    assert_int_equal(iso_keys_find(&k, iso_int(5000)), ISO_NONE);
    iso_keys_free(&k);
    iso_store_free(&s);
}

/* Keys of every kind in a random order (small, sparse and negative
 * integers, strings, a key hashed before the direct table reached it):
 * ids are dense, in order of first sight, and found again. */
static void keys_against_a_list(void **state)
{
    (void)state;
    iso_store s;
    iso_store_init(&s);
    enum { N = 16000 };
    iso_val seen[N];
    size_t n_seen = 0;
    iso_keys k;
    iso_keys_init(&k, &s);
    uint64_t r = 1;
    for (int step = 0; step < 40000; step++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        unsigned kind = (unsigned)(r >> 61), x = (unsigned)(r >> 33) % 3000;
        iso_val v = kind == 0 ? iso_int(-(int64_t)x) : kind == 1 ? iso_int((int64_t)x * 1000003)
                  : kind == 2 ? iso_atom(&s, ISO_TAG_STR, (const char *)&x, sizeof x)
                  : kind == 3 ? iso_int(20000 + x) /* hashed at first, later in range */
                  : iso_int(x);
        size_t want = 0;
        while (want < n_seen && seen[want] != v) want++;
        if (want == n_seen) {
            assert_int_equal(iso_keys_find(&k, v), ISO_NONE);
            seen[n_seen++] = v;
        }
        assert_int_equal(iso_keys_intern(&k, v), (uint32_t)want);
    }
    for (size_t i = 0; i < n_seen; i++) assert_int_equal(iso_keys_find(&k, seen[i]), (uint32_t)i);
    assert_int_equal(k.n, n_seen);
    assert_true(k.n_direct > 20000 && k.n_hashed > 0); /* both tables were used */
    iso_keys_free(&k);
    iso_store_free(&s);
}

/* iso_vals_first against the quadratic definition, over ints, strings and
 * vectors equal by structure (so that the hash, not the word, decides). */
static void first_occurrences(void **state)
{
    (void)state;
    iso_store s;
    iso_store_init(&s);
    enum { N = 3000 };
    static iso_val v[N];
    static uint32_t first[N];
    uint64_t r = 7;
    for (size_t i = 0; i < N; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        unsigned kind = (unsigned)(r >> 62), x = (unsigned)(r >> 33) % 400;
        iso_val pair[2] = {iso_int(x), iso_int(1)};
        v[i] = kind == 0 ? iso_int(x) : kind == 1 ? iso_atom(&s, ISO_TAG_STR, (const char *)&x, sizeof x)
             : iso_seq(&s, ISO_SEQ_VEC, pair, 2);
    }
    iso_vals_first(&s, v, N, first);
    for (size_t i = 0; i < N; i++) {
        size_t want = 0;
        while (!iso_val_eq(&s, v[want], v[i])) want++;
        assert_int_equal(first[i], (uint32_t)want);
    }
    iso_vals_first(&s, v, 0, first); /* nothing to do */
    iso_store_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(atoms_intern),
        cmocka_unit_test(integers),
        cmocka_unit_test(composites_print_and_compare),
        cmocka_unit_test(packed_micro_ops),
        cmocka_unit_test(numbers_in_json),
        cmocka_unit_test(dense_keys),
        cmocka_unit_test(keys_against_a_list),
        cmocka_unit_test(first_occurrences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
