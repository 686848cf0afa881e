/* test_read_json.c -- the JSON reader: arrays of ops (elle-cli), JSON lines,
 * IsoCheck comment lines, every JSON value form, and malformed inputs. */
#include "readtest.h"
#include "history/cursor.h"
#include "history/read_edn.h"
#include "history/read_json.h"
#include "history/split.h"

static void test_array(void **state)
{
    (void)state;
    isolde_history *h = tu_read(
        "[{\"type\":\"invoke\",\"f\":\"txn\",\"value\":[[\"w\",\"x\",2]],\"process\":0,\"index\":1},\n"
        " {\"type\":\"ok\",\"f\":\"txn\",\"value\":[[\"w\",\"x\",2]],\"process\":0,\"index\":2}]\n",
        ISOLDE_FORMAT_AUTO);
    assert_int_equal(isolde_history_format(h), ISOLDE_FORMAT_JSON);
    assert_int_equal(h->n_ops, 2);
    assert_int_equal(h->ops[1].index, 2);
    assert_int_equal(h->ops[1].line, 2);
    assert_int_equal(h->ops[1].col, 2);
    assert_string_equal(rt_value(h, 1), "[[\"w\" \"x\" 2]]");
    assert_string_equal(rt_edn(h, iso_op_f(h, &h->ops[1])), "\"txn\"");
    assert_int_equal(iso_tag(iso_op_f(h, &h->ops[1])), ISO_TAG_STR);
    assert_int_equal(h->ops[0].type, ISO_OP_INVOKE);
    assert_int_equal(h->ops[1].type, ISO_OP_OK);
    isolde_history_free(h);
}

static void test_lines_and_comments(void **state)
{
    (void)state;
    isolde_history *h = tu_read("# IsoCheck: a comment\n"
                             "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\",1,1]],\"time\":0}\n"
                             "# another\n\n"
                             "{\"index\":1,\"type\":\"ok\",\"process\":0,\"value\":[[\"append\",1,1],[\"r\",2,[3,7]]],\"time\":1500}\r\n",
                             ISOLDE_FORMAT_AUTO);
    assert_int_equal(isolde_history_format(h), ISOLDE_FORMAT_ISOCHECK);
    assert_int_equal(h->n_ops, 2);
    assert_int_equal(h->ops[1].line, 5);
    assert_int_equal(h->ops[1].time, 1500);
    assert_string_equal(rt_value(h, 1), "[[\"append\" 1 1] [\"r\" 2 [3 7]]]");
    isolde_history_free(h);
    h = tu_read("{\"type\":\"ok\",\"process\":\"nemesis\"}\n{\"type\":\"info\"}", ISOLDE_FORMAT_AUTO);
    assert_int_equal(isolde_history_format(h), ISOLDE_FORMAT_JSONL);
    assert_int_equal(h->dense_index, 1);
    assert_int_equal(h->ops[1].index, 1);
    assert_false(iso_op_is_client(&h->ops[0]));
    isolde_history_free(h);
}

static void test_values(void **state)
{
    (void)state;
    isolde_history *h = tu_read(
        "[{\"type\":\"ok\",\"value\":[true,false,null,-0,12,-3.5e2,1E+3,0.25,\"\\\"\\\\\\/\\b\\f\\n\\r\\t\",\n"
        "  \"\\u00e9\\ud83d\\ude00\", {\"0\":100,\"7\":-1}, [], {}, \"\"]}]",
        ISOLDE_FORMAT_JSON);
    const iso_val *it = iso_seq_words(&h->store, h->ops[0].value);
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
    assert_int_equal(iso_tag(iso_seq_item(&h->store, it[10], 0)), ISO_TAG_STR);
    assert_string_equal(rt_edn(h, it[11]), "[]");
    assert_string_equal(rt_edn(h, it[12]), "{}");
    assert_string_equal(rt_edn(h, it[13]), "\"\"");
    isolde_history_free(h);
}

/* Integer runs in arrays take a fast path: every way they can end. */
static void test_integer_runs(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{\"type\":\"ok\",\"value\":[[1,2,3],[4, 5 ,6 ],[7,\"x\",8.5,-9,0,10],[0],[],"
                             "[11,[12]],[1000000000000000000,13]]}",
                             ISOLDE_FORMAT_JSONL);
    assert_string_equal(rt_value(h, 0),
                        "[[1 2 3] [4 5 6] [7 \"x\" 8.5 -9 0 10] [0] [] [11 [12]] [1000000000000000000 13]]");
    isolde_history_free(h);
}

static void test_integers_exact(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{\"type\":\"ok\",\"time\":99286665244,\"value\":[576460752303423488,"
                             "-123456789012345678901234567890,1000000000000000000]}",
                             ISOLDE_FORMAT_JSONL);
    assert_int_equal(h->ops[0].time, 99286665244LL);
    const iso_val *it = iso_seq_words(&h->store, h->ops[0].value);
    assert_int_equal(iso_tag(it[0]), ISO_TAG_BIG);
    assert_int_equal(iso_tag(it[1]), ISO_TAG_BIG);
    assert_int_equal(iso_tag(it[2]), ISO_TAG_BIG);
    assert_string_equal(rt_value(h, 0),
                        "[576460752303423488 -123456789012345678901234567890 1000000000000000000]");
    isolde_history_free(h);
}

/* "type" and :type, "ok" and :ok mean the same; keys stay strings. */
static void test_same_ops_as_edn(void **state)
{
    (void)state;
    isolde_history *j = tu_read("[{\"index\":0,\"type\":\"ok\",\"process\":1,\"value\":[[\"r\",\"x\",[1]]]}]",
                             ISOLDE_FORMAT_AUTO);
    isolde_history *e = tu_read("[{:index 0, :type :ok, :process 1, :value [[:r :x [1]]]}]", ISOLDE_FORMAT_AUTO);
    assert_int_equal(isolde_history_format(e), ISOLDE_FORMAT_EDN);
    assert_int_equal(j->ops[0].type, e->ops[0].type);
    assert_true(iso_op_process(j, &j->ops[0]) == iso_op_process(e, &e->ops[0]));
    assert_string_equal(rt_op(j, 0, 1), rt_op(e, 0, 1));
    isolde_history_free(j);
    isolde_history_free(e);
}

static void test_empty(void **state)
{
    (void)state;
    const char *inputs[] = {"[]", " [ ]\n", "", "# just a comment\n"};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        isolde_history *h = tu_read(inputs[i], ISOLDE_FORMAT_JSON);
        assert_int_equal(h->n_ops, 0);
        isolde_history_free(h);
    }
}

static void test_deep_nesting(void **state)
{
    (void)state;
    char text[700];
    int n = snprintf(text, sizeof text, "{\"type\":\"ok\",\"value\":");
    for (int i = 0; i < 300; i++) text[n++] = '[';
    text[n] = 0;
    struct rt_bad c = {text, ISOLDE_FORMAT_JSONL, 1, 22 + 255, "nesting deeper than 256", NULL};
    rt_expect_status(&c, ISOLDE_ERR_LIMIT);
    n = snprintf(text, sizeof text, "{\"type\":\"ok\",\"value\":");
    for (int i = 0; i < 255; i++) text[n++] = '[';
    for (int i = 0; i < 255; i++) text[n++] = ']';
    text[n++] = '}';
    text[n] = 0;
    isolde_history_free(tu_read(text, ISOLDE_FORMAT_JSONL));
}

/* A JSON-lines text of n ops with varied values (comments every 97 lines;
 * op `drop_index` without :index when >= 0; op i has :index 2i, or i when
 * op 0 has none, as Jepsen's dense rule asks). */
static char *make_lines(size_t n, long drop_index, const char *bad_line, size_t bad_at)
{
    iso_buf b = {0};
    for (size_t i = 0; i < n; i++) {
        if (i % 97 == 5) iso_buf_puts(&b, "# a comment ending in }\n");
        if (bad_line && i == bad_at) { iso_buf_puts(&b, bad_line); continue; }
        if ((long)i == drop_index) iso_buf_printf(&b, "{\"type\":\"ok\",\"process\":%zu}\n", i % 7);
        else
            iso_buf_printf(&b, "{\"index\":%zu,\"type\":\"%s\",\"process\":%zu,\"time\":%zu,"
                               "\"value\":[[\"append\",\"k%zu\",%zu],[\"r\",%zu,[1,2,%zu]],"
                               "{\"s\":\"e\\u00e9\\n%zu\",\"f\":%zu.5,\"big\":1%zu00000000000000000000}]}\n",
                           drop_index == 0 ? i : i * 2, i % 2 ? "ok" : "invoke", i % 7, i * 10, i % 13, i,
                           i % 5, i, i, i, i);
    }
    return (char *)iso_buf_cstr(&b);
}

static void expect_same(const isolde_history *a, const isolde_history *b)
{
    assert_int_equal(a->n_ops, b->n_ops);
    assert_int_equal(a->dense_index, b->dense_index);
    for (size_t i = 0; i < a->n_ops; i++) {
        char x[4096];
        snprintf(x, sizeof x, "%s", rt_op(a, i, 0));
        assert_string_equal(x, rt_op(b, i, 0));
        assert_int_equal(a->ops[i].line, b->ops[i].line);
        assert_int_equal(a->ops[i].col, b->ops[i].col);
    }
}

/* Reading on two threads gives exactly the sequential result. */
static void test_split_same_as_sequential(void **state)
{
    (void)state;
    static const struct { size_t n; long drop; } cases[] = {{3000, -1}, {3000, 0}, {2, -1}, {1, -1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *text = make_lines(cases[c].n, cases[c].drop, NULL, 0);
        size_t len = strlen(text), lines;
        isolde_error err = {0};
        isolde_history *seq = iso_history_new("s", ISOLDE_FORMAT_JSONL), *par = iso_history_new("s", ISOLDE_FORMAT_JSONL);
        if (iso_json_lines(seq, text, len, &lines, &err)) fail_msg("%ld:%ld: %s", err.line, err.col, err.msg);
        assert_int_equal(iso_read_split(par, text, len, 0, iso_json_lines, &err), 0);
        expect_same(seq, par);
        /* the halves ran (not when op 0 has no :index: the second half
         * cannot check the others' against their places, so one thread
         * reads it all) */
        if (cases[c].n > 100 && cases[c].drop < 0) assert_int_equal(par->read_threads, 2);
        if (cases[c].drop == 0) assert_int_equal(par->ops[2999].index, 2999);
        isolde_history_free(seq);
        isolde_history_free(par);
        iso_free(text);
    }
}

/* Issue 16: the two-thread read reserved a word (8 bytes) for every input
 * byte, so a 2.2 GB history asked for 17 GB at once; where the system
 * refused, it read on one thread, and before that it failed. Now the
 * halves run under a cap of twice the input's size on any one allocation
 * (as a limit on the address space would refuse the old reservation);
 * these lines are dense: their values take as many bytes as their text. */
static void test_split_no_reservation_from_size(void **state)
{
    (void)state;
    char *text = make_lines(20000, -1, NULL, 0);
    size_t len = strlen(text);
    assert_true(len > ISO_SPLIT_MIN);
    iso_alloc_fail_above(2 * len);
    isolde_history *h = NULL;
    isolde_error err = {0};
    isolde_status r = isolde_history_read_mem("big", text, len, tu_fmt(ISOLDE_FORMAT_JSONL), &h, &err);
    iso_alloc_fail_above(0);
    if (r) fail_msg("%s", err.msg);
    assert_int_equal(h->n_ops, 20000);
    assert_int_equal(h->read_threads, 2);
    assert_int_equal(h->ops[19999].index, 39998);
    isolde_history_free(h);
    iso_free(text);
}

/* Errors anywhere are those of a sequential read. */
static void test_split_errors(void **state)
{
    (void)state;
    static const struct { long drop; const char *bad; size_t at; } cases[] = {
        {2500, NULL, 0},                       /* a later op without :index */
        {-1, "{\"type\":\"ok\",\"value\":[1,]}\n", 2900}, /* syntax, second half */
        {-1, "{\"type\":\"ok\",\"value\":[1,]}\n", 10},   /* syntax, first half */
        {-1, "{\"type\":\"ok\",\"value\":[1,\n", 1499}, /* unclosed across the middle */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *text = make_lines(3000, cases[c].drop, cases[c].bad, cases[c].at);
        size_t len = strlen(text), lines;
        isolde_error e1 = {0}, e2 = {0};
        isolde_history *seq = iso_history_new("s", ISOLDE_FORMAT_JSONL), *par = iso_history_new("s", ISOLDE_FORMAT_JSONL);
        assert_int_equal(iso_json_lines(seq, text, len, &lines, &e1), -1);
        assert_int_equal(iso_read_split(par, text, len, 0, iso_json_lines, &e2), -1);
        assert_int_equal(e1.line, e2.line);
        assert_int_equal(e1.col, e2.col);
        assert_string_equal(e1.msg, e2.msg);
        isolde_history_free(seq);
        isolde_history_free(par);
        iso_free(text);
    }
}

/* Micro-ops the reader takes in one go must read exactly as the general
 * parser reads them (a newline after '[' sends them through it); those it
 * declines must too, and malformed ones must fail as before. */
static void test_micro_op_fast_path(void **state)
{
    (void)state;
    static const char *const mops[] = {
        "[\"append\",4,1]", "[\"r\",0,null]", "[\"r\",0,[1,2,3]]", "[\"r\",0,[10,2,13,0,99,100,5]]", "[\"r\",0,[]]",
        "[\"append\", 4, 1]", "[\"r\", 12, [1, 2]]", "[\"r\",0,[7]]", "[\"w\",0,0]",
        "[\"append\",-4,1]", "[\"r\",0,[-1]]", "[\"longername\",1,2]", "[\"r\",\"k\",[1]]",
        "[\"r\",0,1.5]", "[\"r\",0,[1,[2]]]", "[\"r\",0,12345678901234567890]",
        "[\"r\",0,[1,2] ]", "[\"r\" ,0,1]", "[\"a\\\"b\",0,1]", "[\"r\",0]", "[\"r\",0,1,2]",
    };
    for (size_t i = 0; i < sizeof mops / sizeof mops[0]; i++) {
        char fast[256], slow[256];
        snprintf(fast, sizeof fast, "{\"type\":\"ok\",\"process\":0,\"value\":[%s,%s]}", mops[i], mops[i]);
        snprintf(slow, sizeof slow, "{\"type\":\"ok\",\"process\":0,\"value\":[[\n%s,%s]}", mops[i] + 1, mops[i]);
        rt_expect_same_values(fast, slow, ISOLDE_FORMAT_JSONL);
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
        "[1,2,3]", "[1,2,3]", "[1,2,3,4]", "[1,2,34]", "[1,2,3, 4]", "[1,2,3 ,4]", "[1,2,3 ]",
        "[1,2,3]", "[1,2,3,4,5]", "[1,2]", "[]", "[1]", "[1,2,3,4,5,6]", "[1,2,3,4,5,6,7.5]",
        "[1,2,3,4,5,6, 7]", "[1,2,3,4,5,6]",
    };
    iso_buf fast = {0}, slow = {0};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        iso_buf_printf(&fast, "{\"type\":\"ok\",\"process\":0,\"value\":[%s[\"r\",5,%s],[\"r\",6,%s]]}\n", "", lists[i], lists[i]);
        iso_buf_printf(&slow, "{\"type\":\"ok\",\"process\":0,\"value\":[%s[\"r\",5,%s],[\"r\",6,%s]]}\n", "\n", lists[i], lists[i]);
    }
    rt_expect_same_values(iso_buf_cstr(&fast), iso_buf_cstr(&slow), ISOLDE_FORMAT_JSONL);
    iso_buf_free(&fast);
    iso_buf_free(&slow);
}

/* Op objects are read field by field, with no map built: every shape must
 * come out as the same op read from the EDN map (the map path). */
static void test_op_objects_as_edn_maps(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"{\"type\":\"ok\",\"process\":3,\"value\":[[\"append\",1,2],[\"r\",1,[2]]],\"index\":0}",
         "{:type :ok, :process 3, :value [[\"append\" 1 2] [\"r\" 1 [2]]], :index 0}"},
        {"{ \"type\" : \"info\" ,\n \"extra\": {\"a\": [1, {\"b\": null}]}, \"process\": \"nemesis\", \"index\": 0 }",
         "{:type :info, :extra {\"a\" [1 {\"b\" nil}]}, :process \"nemesis\", :index 0}"},
        {"{\"type\":\"fail\",\"f\":\"txn\",\"error\":[\"conflict\",7],\"value\":[],\"time\":12,\"process\":0,\"index\":0}",
         "{:type :fail, :f \"txn\", :error [\"conflict\" 7], :value [], :time 12, :process 0, :index 0}"},
        {"{\"type\":\"ok\",\"value\":[[\"r\",\"k\",[1]],[\"w\",1,-2]],\"process\":0,\"index\":0}",
         "{:type :ok, :value [[\"r\" \"k\" [1]] [\"w\" 1 -2]], :process 0, :index 0}"},
        {"{\"type\":\"ok\",\"value\":null,\"process\":12345678901234567890,\"index\":0}",
         "{:type :ok, :value nil, :process 12345678901234567890, :index 0}"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        isolde_history *j = tu_read(pairs[i][0], ISOLDE_FORMAT_JSONL), *e = tu_read(pairs[i][1], ISOLDE_FORMAT_EDN);
        char want[4096];
        snprintf(want, sizeof want, "%s", rt_op(e, 0, 1));
        if (strcmp(rt_op(j, 0, 1), want) != 0) fail_msg("%s:\n %s\n %s", pairs[i][0], rt_op(j, 0, 1), want);
        isolde_history_free(j);
        isolde_history_free(e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_array),
        cmocka_unit_test(test_lines_and_comments),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_integer_runs),
        cmocka_unit_test(test_micro_op_fast_path),
        cmocka_unit_test(test_read_list_continues_last),
        cmocka_unit_test(test_integers_exact),
        cmocka_unit_test(test_same_ops_as_edn),
        cmocka_unit_test(test_op_objects_as_edn_maps),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_split_same_as_sequential),
        cmocka_unit_test(test_split_errors),
        cmocka_unit_test(test_split_no_reservation_from_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
