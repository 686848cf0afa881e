/* test_read_json.c -- the JSON reader: arrays of ops (elle-cli), JSON lines,
 * IsoCheck comment lines, every JSON value form, and malformed inputs. */
#include "readtest.h"

static void test_array(void **state)
{
    (void)state;
    iso_history *h = tu_read(
        "[{\"type\":\"invoke\",\"f\":\"txn\",\"value\":[[\"w\",\"x\",2]],\"process\":0,\"index\":1},\n"
        " {\"type\":\"ok\",\"f\":\"txn\",\"value\":[[\"w\",\"x\",2]],\"process\":0,\"index\":2}]\n",
        ISO_FORMAT_AUTO);
    assert_int_equal(iso_history_format(h), ISO_FORMAT_JSON);
    assert_int_equal(h->n_ops, 2);
    assert_int_equal(h->ops[1].index, 2);
    assert_int_equal(h->ops[1].line, 2);
    assert_int_equal(h->ops[1].col, 2);
    assert_string_equal(rt_value(h, 1), "[[\"w\" \"x\" 2]]");
    assert_string_equal(rt_edn(h, h->ops[1].f), "\"txn\"");
    assert_int_equal(iso_tag(h->ops[1].f), ISO_TAG_STR);
    assert_int_equal(h->ops[0].type, ISO_OP_INVOKE);
    assert_int_equal(h->ops[1].type, ISO_OP_OK);
    iso_history_free(h);
}

static void test_lines_and_comments(void **state)
{
    (void)state;
    iso_history *h = tu_read("# IsoCheck: a comment\n"
                             "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\",1,1]],\"time\":0}\n"
                             "# another\n\n"
                             "{\"index\":1,\"type\":\"ok\",\"process\":0,\"value\":[[\"append\",1,1],[\"r\",2,[3,7]]],\"time\":1500}\r\n",
                             ISO_FORMAT_AUTO);
    assert_int_equal(iso_history_format(h), ISO_FORMAT_ISOCHECK);
    assert_int_equal(h->n_ops, 2);
    assert_int_equal(h->ops[1].line, 5);
    assert_int_equal(h->ops[1].time, 1500);
    assert_string_equal(rt_value(h, 1), "[[\"append\" 1 1] [\"r\" 2 [3 7]]]");
    iso_history_free(h);
    h = tu_read("{\"type\":\"ok\",\"process\":\"nemesis\"}\n{\"type\":\"info\"}", ISO_FORMAT_AUTO);
    assert_int_equal(iso_history_format(h), ISO_FORMAT_JSONL);
    assert_int_equal(h->dense_index, 1);
    assert_int_equal(h->ops[1].index, 1);
    assert_false(iso_op_is_client(&h->ops[0]));
    iso_history_free(h);
}

static void test_values(void **state)
{
    (void)state;
    iso_history *h = tu_read(
        "[{\"type\":\"ok\",\"value\":[true,false,null,-0,12,-3.5e2,1E+3,0.25,\"\\\"\\\\\\/\\b\\f\\n\\r\\t\",\n"
        "  \"\\u00e9\\ud83d\\ude00\", {\"0\":100,\"7\":-1}, [], {}, \"\"]}]",
        ISO_FORMAT_JSON);
    const iso_val *it = iso_seq_items(&h->store, h->ops[0].value);
    assert_true(it[0] == ISO_TRUE && it[1] == ISO_FALSE && it[2] == ISO_NIL);
    assert_true(it[3] == iso_int(0) && it[4] == iso_int(12));
    assert_int_equal(iso_tag(it[5]), ISO_TAG_FLOAT);
    size_t n;
    assert_string_equal(iso_atom_text(&h->store, it[5], &n), "-3.5e2");
    assert_string_equal(iso_atom_text(&h->store, it[8], &n), "\"\\/\b\f\n\r\t");
    assert_string_equal(iso_atom_text(&h->store, it[9], &n), "\xc3\xa9\xf0\x9f\x98\x80");
    assert_int_equal(iso_seq_kind(&h->store, it[10]), ISO_SEQ_MAP);
    int found;
    assert_true(iso_map_get(&h->store, it[10], "7", &found) == iso_int(-1) && found);
    assert_int_equal(iso_tag(iso_seq_items(&h->store, it[10])[0]), ISO_TAG_STR);
    assert_string_equal(rt_edn(h, it[11]), "[]");
    assert_string_equal(rt_edn(h, it[12]), "{}");
    assert_string_equal(rt_edn(h, it[13]), "\"\"");
    iso_history_free(h);
}

/* Integer runs in arrays take a fast path: every way they can end. */
static void test_integer_runs(void **state)
{
    (void)state;
    iso_history *h = tu_read("{\"type\":\"ok\",\"value\":[[1,2,3],[4, 5 ,6 ],[7,\"x\",8.5,-9,0,10],[0],[],"
                             "[11,[12]],[1000000000000000000,13]]}",
                             ISO_FORMAT_JSONL);
    assert_string_equal(rt_value(h, 0),
                        "[[1 2 3] [4 5 6] [7 \"x\" 8.5 -9 0 10] [0] [] [11 [12]] [1000000000000000000 13]]");
    iso_history_free(h);
    static const struct rt_bad cases[] = {
        {"{\"type\":\"ok\",\"value\":[1,2", ISO_FORMAT_JSONL, 1, 26, "expected ',' or ']' in array"},
        {"{\"type\":\"ok\",\"value\":[1,", ISO_FORMAT_JSONL, 1, 25, "expected a JSON value"},
        {"{\"type\":\"ok\",\"value\":[1,02]}", ISO_FORMAT_JSONL, 1, 25, "invalid number"},
        {"{\"type\":\"ok\",\"value\":[1,2x]}", ISO_FORMAT_JSONL, 1, 25, "invalid number"},
    };
    rt_expect_fails(cases, sizeof cases / sizeof cases[0]);
}

static void test_integers_exact(void **state)
{
    (void)state;
    iso_history *h = tu_read("{\"type\":\"ok\",\"time\":99286665244,\"value\":[576460752303423488,"
                             "-123456789012345678901234567890,1000000000000000000]}",
                             ISO_FORMAT_JSONL);
    assert_int_equal(h->ops[0].time, 99286665244LL);
    const iso_val *it = iso_seq_items(&h->store, h->ops[0].value);
    assert_int_equal(iso_tag(it[0]), ISO_TAG_BIG);
    assert_int_equal(iso_tag(it[1]), ISO_TAG_BIG);
    assert_int_equal(iso_tag(it[2]), ISO_TAG_BIG);
    assert_string_equal(rt_value(h, 0),
                        "[576460752303423488 -123456789012345678901234567890 1000000000000000000]");
    iso_history_free(h);
}

/* "type" and :type, "ok" and :ok mean the same; keys stay strings. */
static void test_same_ops_as_edn(void **state)
{
    (void)state;
    iso_history *j = tu_read("[{\"index\":0,\"type\":\"ok\",\"process\":1,\"value\":[[\"r\",\"x\",[1]]]}]",
                             ISO_FORMAT_AUTO);
    iso_history *e = tu_read("[{:index 0, :type :ok, :process 1, :value [[:r :x [1]]]}]", ISO_FORMAT_AUTO);
    assert_int_equal(iso_history_format(e), ISO_FORMAT_EDN);
    assert_int_equal(j->ops[0].type, e->ops[0].type);
    assert_true(j->ops[0].process == e->ops[0].process);
    assert_string_equal(rt_op(j, 0, 1), rt_op(e, 0, 1));
    iso_history_free(j);
    iso_history_free(e);
}

static void test_empty(void **state)
{
    (void)state;
    const char *inputs[] = {"[]", " [ ]\n", "", "# just a comment\n"};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        iso_history *h = tu_read(inputs[i], ISO_FORMAT_JSON);
        assert_int_equal(h->n_ops, 0);
        iso_history_free(h);
    }
}

static void test_deep_nesting(void **state)
{
    (void)state;
    char text[700];
    int n = snprintf(text, sizeof text, "{\"type\":\"ok\",\"value\":");
    for (int i = 0; i < 300; i++) text[n++] = '[';
    text[n] = 0;
    struct rt_bad c = {text, ISO_FORMAT_JSONL, 1, 22 + 255, "nesting deeper than 256"};
    rt_expect_fail(&c);
    n = snprintf(text, sizeof text, "{\"type\":\"ok\",\"value\":");
    for (int i = 0; i < 255; i++) text[n++] = '[';
    for (int i = 0; i < 255; i++) text[n++] = ']';
    text[n++] = '}';
    text[n] = 0;
    iso_history_free(tu_read(text, ISO_FORMAT_JSONL));
}

static void test_malformed(void **state)
{
    (void)state;
    static const struct rt_bad cases[] = {
        {"[{\"type\":\"ok\"} {\"type\":\"ok\"}]", ISO_FORMAT_JSON, 1, 16, "expected ',' or ']' in array"},
        {"{\"type\":\"ok\",\"value\":\"abc", ISO_FORMAT_JSONL, 1, 22, "unterminated string"},
        {"{\"type\":\"ok\",\"value\":\"ab\nc\"}", ISO_FORMAT_JSONL, 1, 22, "unterminated string"},
        {"{\"type\":\"bogus\"}", ISO_FORMAT_JSONL, 1, 1,
         ":type must be one of invoke, ok, fail, info, got \"bogus\""},
        {"{\"type\":\"ok\" \"value\":1}", ISO_FORMAT_JSONL, 1, 14, "expected ',' or '}' in object"},
        {"{\"type\" \"ok\"}", ISO_FORMAT_JSONL, 1, 9, "expected ':' after object key"},
        {"{type:\"ok\"}", ISO_FORMAT_JSONL, 1, 2, "expected a string key in object"},
        {"{\"type\":\"ok\",}", ISO_FORMAT_JSONL, 1, 14, "expected a string key in object"},
        {"{\"type\":\"ok\",\"value\":01}", ISO_FORMAT_JSONL, 1, 22, "invalid number"},
        {"{\"type\":\"ok\",\"value\":-}", ISO_FORMAT_JSONL, 1, 22, "invalid number"},
        {"{\"type\":\"ok\",\"value\":1.}", ISO_FORMAT_JSONL, 1, 22, "invalid number"},
        {"{\"type\":\"ok\",\"value\":1e}", ISO_FORMAT_JSONL, 1, 22, "invalid number"},
        {"{\"type\":\"ok\",\"value\":12x}", ISO_FORMAT_JSONL, 1, 22, "invalid number"},
        {"{\"type\":\"ok\",\"value\":tru}", ISO_FORMAT_JSONL, 1, 22, "unexpected 't', expected a JSON value"},
        {"{\"type\":\"ok\",\"value\":\"a\\x\"}", ISO_FORMAT_JSONL, 1, 24, "invalid escape in string"},
        {"{\"type\":\"ok\",\"value\":\"a\\u00g0\"}", ISO_FORMAT_JSONL, 1, 24, "invalid escape in string"},
        {"{\"type\":\"ok\",\"value\":\"a\tb\"}", ISO_FORMAT_JSONL, 1, 24, "control character 0x09 in string"},
        {"[{\"type\":\"ok\"},]", ISO_FORMAT_JSON, 1, 16, "unexpected ']', expected a JSON value"},
        {"[{\"type\":\"ok\"}] x", ISO_FORMAT_JSON, 1, 17, "expected end of input after the array"},
        {"[{\"type\":\"ok\"}", ISO_FORMAT_JSON, 1, 15, "unexpected end of input, expected ',' or ']' in array"},
        {"[", ISO_FORMAT_JSON, 1, 2, "unexpected end of input, expected an op object"},
        {"{\"type\":\"ok\",\"value\":[1,2}", ISO_FORMAT_JSONL, 1, 26, "expected ',' or ']' in array"},
        {"{\"type\":\"ok\"", ISO_FORMAT_JSONL, 1, 13, "unexpected end of input, expected ',' or '}' in object"},
        {"{\"index\":0,\"type\":\"ok\"}\n{\"type\":\"ok\"}", ISO_FORMAT_JSONL, 2, 1,
         "integer :index required (the first op had one)"},
        {"{\"type\":\"ok\",\"time\":\"x\"}", ISO_FORMAT_JSONL, 1, 1, ":time must be an integer, got \"x\""},
        {"[1]", ISO_FORMAT_JSON, 1, 2, "op must be a map, got 1"},
        {"{\"type\":\"ok\"}\n  [2]", ISO_FORMAT_JSONL, 2, 3, "op must be a map, got [2]"},
        {"{\"type\":\"ok\",\"value\":\"\xff\x01\"}", ISO_FORMAT_JSONL, 1, 24, "control character 0x01"},
        {"# c\n{\"type\":\"ok\"} ]", ISO_FORMAT_ISOCHECK, 2, 15, "unexpected ']', expected a JSON value"},
    };
    rt_expect_fails(cases, sizeof cases / sizeof cases[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_array),
        cmocka_unit_test(test_lines_and_comments),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_integer_runs),
        cmocka_unit_test(test_integers_exact),
        cmocka_unit_test(test_same_ops_as_edn),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
