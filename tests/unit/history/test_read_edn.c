/* test_read_edn.c -- the EDN reader: every EDN feature, Elle's op rules
 * (index, time, process, type), op printing, and malformed inputs. */
#include "readtest.h"

static void test_op_per_line(void **state)
{
    (void)state;
    isolde_history *h = tu_read(
        "{:type :invoke, :f :txn, :value [[:append 11 1] [:r 11 nil]], :process 10, :time 14532933, :index 0}\n"
        "  {:type :ok, :f :txn, :value [[:append 11 1] [:r 11 [1]]], :process 10, :time 31076248, :index 2}\n"
        "{:type :info, :f :start-partition, :process :nemesis, :value nil, :index 3}\n",
        ISOLDE_FORMAT_EDN);
    assert_int_equal(isolde_history_op_count(h), 3);
    assert_int_equal(isolde_history_format(h), ISOLDE_FORMAT_EDN);
    assert_int_equal(h->dense_index, 0);
    assert_int_equal(h->ops[1].index, 2);
    assert_int_equal(h->ops[1].time, 31076248);
    assert_int_equal(h->ops[1].type, ISO_OP_OK);
    assert_int_equal(h->ops[1].line, 2);
    assert_int_equal(h->ops[1].col, 3);
    assert_string_equal(rt_value(h, 1), "[[:append 11 1] [:r 11 [1]]]");
    assert_true(iso_op_is_client(&h->ops[0]));
    assert_false(iso_op_is_client(&h->ops[2]));
    assert_string_equal(rt_edn(h, iso_op_process(h, &h->ops[2])), ":nemesis");
    assert_string_equal(rt_edn(h, iso_op_f(h, &h->ops[2])), ":start-partition");
    assert_int_equal(h->cas_fail_false, 0);
    isolde_history_free(h);
}

static void test_dense_index_and_defaults(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{:process 0, :type :ok, :value [[:append :x 1] [:r :y [1]]]}\n"
                             "{:process 1, :type :ok, :index 1}\n"
                             "{:type :info, :f :crash}\n",
                             ISOLDE_FORMAT_EDN);
    assert_int_equal(h->n_ops, 3);
    assert_int_equal(h->dense_index, 1);
    for (size_t i = 0; i < 3; i++) assert_int_equal(h->ops[i].index, (int64_t)i);
    assert_int_equal(h->ops[0].time, -1);
    assert_true(iso_is_nil(h->ops[1].value));
    assert_true(iso_is_nil(iso_op_f(h, &h->ops[1])));
    assert_true(iso_is_nil(iso_op_process(h, &h->ops[2])) && !iso_op_is_client(&h->ops[2])); /* missing process: not a client */
    assert_false(iso_op_is_client(&h->ops[2]));
    isolde_history_free(h);
}

static void test_top_level_sequences(void **state)
{
    (void)state;
    isolde_history *h = tu_read("; a comment\n[{:process 4, :type :invoke, :f :write, :value 2}\n"
                             " {:process 4, :type :ok, :f :write, :value 2}, ; trailing\n"
                             "]\n({:process 1 :type :fail :f :cas :value [3 1]})\n",
                             ISOLDE_FORMAT_EDN);
    assert_int_equal(h->n_ops, 3);
    assert_int_equal(h->ops[1].line, 3);
    assert_int_equal(h->ops[1].col, 2);
    assert_int_equal(h->ops[2].type, ISO_OP_FAIL);
    assert_string_equal(rt_value(h, 2), "[3 1]");
    isolde_history_free(h);
}

static void test_scalars(void **state)
{
    (void)state;
    isolde_history *h = tu_read(
        "{:type :ok :value [sym ns/sym :kw :ns/kw \"s\\\"t\\n\\u0041\\\\\" -7 +8 0 nil true false]}\n"
        "{:type :ok :value [1.5 -2e10 3.25M 1/2 42N 007 ##Inf ##-Inf ##NaN]}\n"
        "{:type :ok :value [\\a \\newline \\space \\u0041 \\( \\o7]}\n",
        ISOLDE_FORMAT_EDN);
    assert_string_equal(rt_value(h, 0),
                        "[sym ns/sym :kw :ns/kw \"s\\\"t\\u000aA\\\\\" -7 8 0 nil true false]");
    const iso_val *it = iso_seq_words(&h->store, h->ops[0].value);
    assert_int_equal(iso_tag(it[0]), ISO_TAG_SYM);
    assert_int_equal(iso_tag(it[2]), ISO_TAG_KW);
    size_t n;
    assert_string_equal(iso_atom_text(&h->store, it[2], &n), "kw");
    assert_string_equal(iso_atom_text(&h->store, it[4], &n), "s\"t\nA\\");
    assert_int_equal(iso_as_int(it[5]), -7);
    assert_string_equal(rt_value(h, 1), "[1.5 -2e10 3.25M 1/2 42 7 ##Inf ##-Inf ##NaN]");
    it = iso_seq_words(&h->store, h->ops[1].value);
    assert_int_equal(iso_tag(it[0]), ISO_TAG_FLOAT);
    assert_int_equal(iso_tag(it[3]), ISO_TAG_FLOAT);
    assert_true(it[4] == iso_int(42));
    assert_string_equal(rt_value(h, 2), "[\\a \\newline \\space \\u0041 \\( \\o7]");
    assert_int_equal(iso_tag(iso_seq_words(&h->store, h->ops[2].value)[0]), ISO_TAG_CHAR);
    isolde_history_free(h);
}

static void test_integers_exact(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{:type :ok :value [576460752303423487 -576460752303423488 "
                             "576460752303423488 99999999999999999999999N -000000000000000000000012 "
                             "-99999999999999999999 123456789012345678]}",
                             ISOLDE_FORMAT_EDN);
    const iso_val *it = iso_seq_words(&h->store, h->ops[0].value);
    assert_true(iso_is_int(it[0]) && iso_as_int(it[0]) == 576460752303423487LL);
    assert_true(iso_is_int(it[1]) && iso_as_int(it[1]) == -576460752303423488LL);
    assert_int_equal(iso_tag(it[2]), ISO_TAG_BIG);
    assert_int_equal(iso_tag(it[3]), ISO_TAG_BIG);
    assert_true(iso_is_int(it[4]) && iso_as_int(it[4]) == -12);
    assert_int_equal(iso_tag(it[5]), ISO_TAG_BIG);
    assert_true(iso_is_int(it[6]) && iso_as_int(it[6]) == 123456789012345678LL);
    assert_string_equal(rt_value(h, 0),
                        "[576460752303423487 -576460752303423488 576460752303423488 "
                        "99999999999999999999999 -12 -99999999999999999999 123456789012345678]");
    isolde_history_free(h);
}

static void test_collections(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{:type :ok :value {0 10, 1 [], :k #{1 2}, \"s\" (a (b))}}\n"
                             "{:type :ok :value [[] () {} #{}]}",
                             ISOLDE_FORMAT_EDN);
    iso_val v = h->ops[0].value;
    assert_int_equal(iso_seq_kind(&h->store, v), ISO_SEQ_MAP);
    assert_int_equal(iso_seq_len(&h->store, v), 8);
    assert_string_equal(rt_value(h, 0), "{0 10, 1 [], :k #{1 2}, \"s\" (a (b))}");
    int found;
    assert_true(iso_map_get(&h->store, v, "k", &found) != ISO_NIL && found);
    assert_string_equal(rt_value(h, 1), "[[] () {} #{}]");
    isolde_history_free(h);
}

static void test_discard_and_tags(void **state)
{
    (void)state;
    isolde_history *h = tu_read(
        "#_ {:type :bogus}\n"
        "#jepsen.history.Op{:index 5, :time 7, :type :ok, :process 0, :f :txn, :value [#_ 1 2]}\n"
        "{:type :ok :index 6 #_#_ :value 3 :value [#inst \"2020-01-01T00:00:00Z\" #uuid \"abc\" #_ x]}\n"
        "{:type :ok :index 7 :value #foo [1 #_ (2 3)]}\n",
        ISOLDE_FORMAT_EDN);
    assert_int_equal(h->n_ops, 3);
    assert_int_equal(h->ops[0].index, 5);
    assert_int_equal(h->ops[0].line, 2);
    assert_string_equal(rt_value(h, 0), "[2]");
    assert_string_equal(rt_value(h, 1), "[#inst \"2020-01-01T00:00:00Z\" #uuid \"abc\"]");
    assert_int_equal(iso_tag(iso_seq_words(&h->store, h->ops[1].value)[0]), ISO_TAG_FORM);
    assert_string_equal(rt_value(h, 2), "[1]");
    isolde_history_free(h);
}

static void test_string_keys_and_types(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{\"type\" \"invoke\", \"process\" 3, \"value\" 1}\n"
                             "{:type \"ok\" :process 3 :error [:no-client \"refused\"]}",
                             ISOLDE_FORMAT_EDN);
    assert_int_equal(h->ops[0].type, ISO_OP_INVOKE);
    assert_int_equal(h->ops[1].type, ISO_OP_OK);
    assert_int_equal(iso_as_int(iso_op_process(h, &h->ops[0])), 3);
    assert_string_equal(rt_edn(h, iso_op_error(h, &h->ops[1])), "[:no-client \"refused\"]");
    isolde_history_free(h);
}

static void test_print_ops(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{:process 0, :type :ok, :value [[:w :x 1] [:r :y 1]]}\n"
                             "{:process :nemesis, :type :fail, :f :kill, :time 5, :error :down}",
                             ISOLDE_FORMAT_EDN);
    assert_string_equal(rt_op(h, 0, 0),
                        "{:index 0, :type :ok, :process 0, :value [[:w :x 1] [:r :y 1]]}");
    assert_string_equal(rt_op(h, 0, 1),
                        "{\"index\":0,\"type\":\"ok\",\"process\":0,"
                        "\"value\":[[\"w\",\"x\",1],[\"r\",\"y\",1]]}");
    assert_string_equal(rt_op(h, 1, 0),
                        "{:index 1, :time 5, :type :fail, :process :nemesis, :f :kill, :value nil, "
                        ":error :down}");
    assert_string_equal(rt_op(h, 1, 1),
                        "{\"index\":1,\"time\":5,\"type\":\"fail\",\"process\":\"nemesis\",\"f\":\"kill\","
                        "\"value\":null,\"error\":\"down\"}");
    assert_string_equal(iso_op_type_name(ISO_OP_INFO), "info");
    assert_string_equal(iso_op_type_name(9), "?");
    isolde_history_free(h);
}

static void test_empty_inputs(void **state)
{
    (void)state;
    const char *inputs[] = {"", "\n\n", "; only a comment\n", "[]", "()", "#_ {:type :ok}"};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        isolde_history *h = tu_read(inputs[i], ISOLDE_FORMAT_EDN);
        assert_int_equal(isolde_history_op_count(h), 0);
        isolde_history_free(h);
    }
}

/* Data need not be NUL-terminated: reading must stop at len. */
static void test_not_terminated(void **state)
{
    (void)state;
    const char text[] = "{:type :ok :value 12}{:type :ok :value 345";
    isolde_history *h = NULL;
    isolde_error err = {0};
    assert_int_equal(isolde_history_read_mem("t", text, 21, tu_fmt(ISOLDE_FORMAT_EDN), &h, &err), 0);
    assert_int_equal(h->n_ops, 1);
    isolde_history_free(h);
    char *p = malloc(20); /* "{:type :ok :value 12" without the brace: ASan sees overreads */
    memcpy(p, text, 20);
    /* the only line: its error (never a line cut short: nothing else to check) */
    assert_int_equal(isolde_history_read_mem("t", p, 20, tu_fmt(ISOLDE_FORMAT_EDN), &h, &err), ISOLDE_ERR_PARSE);
    free(p);
    static const char two[] = "{:type :ok}\n{:type :ok :value 12";
    p = malloc(sizeof two - 1); /* the same after a whole line, without its NUL */
    memcpy(p, two, sizeof two - 1);
    assert_int_equal(isolde_history_read_mem("t", p, sizeof two - 1, tu_fmt(ISOLDE_FORMAT_EDN), &h, &err), ISOLDE_OK);
    assert_int_equal(h->n_ops, 1); /* a line cut short, left out */
    assert_int_equal(h->warn[ISO_WARN_CUT_LINE].count, 1);
    assert_string_equal(h->warn[ISO_WARN_CUT_LINE].what, "unterminated map (no closing '}')");
    isolde_history_free(h);
    free(p);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    char text[600];
    int n = snprintf(text, sizeof text, "{:type :ok :value ");
    for (int i = 0; i < 300; i++) text[n++] = '[';
    text[n] = 0;
    struct rt_bad c = {text, ISOLDE_FORMAT_EDN, 1, 19 + 255, "nesting deeper than 256", NULL};
    rt_expect_status(&c, ISOLDE_ERR_LIMIT);
    n = snprintf(text, sizeof text, "{:type :ok :value ");
    for (int i = 0; i < 255; i++) text[n++] = '[';
    for (int i = 0; i < 255; i++) text[n++] = ']';
    text[n++] = '}';
    text[n] = 0;
    isolde_history *h = tu_read(text, ISOLDE_FORMAT_EDN);
    isolde_history_free(h);
}

/* Micro-ops the reader takes in one go must read exactly as the general
 * parser reads them (a newline after '[' sends them through it); those it
 * declines must too, and malformed ones must fail as before. */
static void test_micro_op_fast_path(void **state)
{
    (void)state;
    static const char *const mops[] = {
        "[:append 4 1]", "[:r 0 nil]", "[:r 0 [1 2 3]]", "[:r 0 [07 10 5 99 100 0]]", "[:r 0 [12 3,4, 5]]", "[:r 0 []]", "[:append, 4, 1]",
        "[:r,12,[1,2]]", "[:r 0 007]", "[:w 0 0]", "[:append -4 1]", "[:r 0 [-1]]",
        "[:longername 1 2]", "[:r :k [1]]", "[:r 0 1.5]", "[:r 0 [1 [2]]]", "[:r 0 nilly]",
        "[:r 0 12345678901234567890]", "[:r 0 [1 2] ]", "[:r  0 1]", "[\"r\" 0 1]", "[:r 0]",
        "[:r 0 1 2]", "[:r 0 (1 2)]", "[:r 0 nil ]", "[:r 0 1N]", "[r 0 1]",
    };
    for (size_t i = 0; i < sizeof mops / sizeof mops[0]; i++) {
        char fast[256], slow[256];
        snprintf(fast, sizeof fast, "{:type :ok, :process 0, :value [%s %s]}", mops[i], mops[i]);
        snprintf(slow, sizeof slow, "{:type :ok, :process 0, :value [[\n%s %s]}", mops[i] + 1, mops[i]);
        rt_expect_same_values(fast, slow, ISOLDE_FORMAT_EDN);
    }
}

/* A read list that repeats or extends the key's last one takes the shared
 * part from it: every list must still read as the general parser reads it
 * (a newline after the value's '[' sends a line through it), and a
 * malformed one must fail where it did. */
static void test_read_list_continues_last(void **state)
{
    (void)state;
    static const char *const lists[] = {
        "[1 2 3]", "[1 2 3]", "[1 2 3 4]", "[1 2 34]", "[1 2 3, 4]", "[1 2 3,4]", "[1 2 3 ]",
        "[1 2 3]", "[1 2 3 4 5]", "[1 2]", "[]", "[1]", "[1 2 3 4 5 6]", "[1 2 3 4 5 6 7.5]",
        "[1 2 3 4 5 6  7]", "[1 2 3 4 5 6 (7)]", "[1 2 3 4 5 6]",
    };
    iso_buf fast = {0}, slow = {0};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        iso_buf_printf(&fast, "{:type :ok, :process 0, :value [%s[:r 5 %s] [:r 6 %s]]}\n", "", lists[i], lists[i]);
        iso_buf_printf(&slow, "{:type :ok, :process 0, :value [%s[:r 5 %s] [:r 6 %s]]}\n", "\n", lists[i], lists[i]);
    }
    rt_expect_same_values(iso_buf_cstr(&fast), iso_buf_cstr(&slow), ISOLDE_FORMAT_EDN);
    iso_buf_free(&fast);
    iso_buf_free(&slow);
}

/* Op maps are read field by field, with no map built; a tagged record
 * (#jepsen.history.Op{...}) goes through the general parser: both must give
 * the same op for every shape, and malformed maps must fail as before. */
static void test_op_maps_fast_and_general(void **state)
{
    (void)state;
    static const char *const maps[] = {
        "{:type :ok, :process 3, :value [[:append 1 2] [:r 1 [2]]], :index 0}",
        "{:type :info ; a comment\n :extra {:a [1 {:b nil}]}, :process :nemesis, :index 0}",
        "{:type :fail, :f :txn, :error [:conflict 7], :value [], :time 12, :process 0, :index 0}",
        "{:type :ok, :value [[:r :k [1]] [:w 1 -2]], :process 0, :index 0 #_ :ignored}",
        "{:type :ok, :value nil, :process 12345678901234567890, :index 0, \"s\" 1}",
        "{:type :ok :value [[:append 1 2], [:r 1 [2]]] :process 0 :index 0 :when #inst \"2020\"}",
    };
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        char tagged[512], want[4096];
        snprintf(tagged, sizeof tagged, "#jepsen.history.Op%s", maps[i]);
        isolde_history *f = tu_read(maps[i], ISOLDE_FORMAT_EDN), *g = tu_read(tagged, ISOLDE_FORMAT_EDN);
        snprintf(want, sizeof want, "%s", rt_op(g, 0, 1));
        if (strcmp(rt_op(f, 0, 1), want) != 0) fail_msg("%s:\n %s\n %s", maps[i], rt_op(f, 0, 1), want);
        assert_int_equal(f->ops[0].col, 1);
        isolde_history_free(f);
        isolde_history_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_op_per_line),
        cmocka_unit_test(test_micro_op_fast_path),
        cmocka_unit_test(test_read_list_continues_last),
        cmocka_unit_test(test_op_maps_fast_and_general),
        cmocka_unit_test(test_dense_index_and_defaults),
        cmocka_unit_test(test_top_level_sequences),
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_integers_exact),
        cmocka_unit_test(test_collections),
        cmocka_unit_test(test_discard_and_tags),
        cmocka_unit_test(test_string_keys_and_types),
        cmocka_unit_test(test_print_ops),
        cmocka_unit_test(test_empty_inputs),
        cmocka_unit_test(test_not_terminated),
        cmocka_unit_test(test_deep_nesting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
