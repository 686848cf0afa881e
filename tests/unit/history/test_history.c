/*
 * test_history.c -- Elle's op-field rules as lib/history/history.c applies
 * them: Jepsen's :index rule (dense numbering, or given indices that
 * increase), in one read, across appends and across the two halves of a
 * split read; integers of any size in :time, :index and :process; the
 * warnings about input Elle reads without a word.
 */
#include "readtest.h"
#include "history/split.h"
#include "history/read_json.h"
#include "history/txn.h"

/* With no :index on the first op, ops are numbered by position; an op
 * that has one anyway must have its number (jepsen.history's
 * add-dense-indices), and a nil :index counts as none. */
static void test_dense_rule(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{:type :ok, :process 0}\n{:type :ok, :process 0, :index 1}\n"
                                "{:type :ok, :process 0, :index nil}\n",
                                ISOLDE_FORMAT_EDN);
    assert_int_equal(h->dense_index, 1);
    for (size_t i = 0; i < 3; i++) assert_int_equal(h->ops[i].index, (int64_t)i);
    isolde_history_free(h);
    /* the rule's errors (an :index out of place, or no integer): tests/data/read/malformed.tsv */
}

/* Given indices may have gaps, but each op's is greater than the last. */
static void test_given_rule(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{:index 3, :type :ok}\n{:index 7, :type :ok}\n{:index 8, :type :ok}",
                                ISOLDE_FORMAT_EDN);
    assert_int_equal(h->ops[1].index, 7);
    isolde_history_free(h);
    /* an :index twice or going back, on the fast path and the general parser's: malformed.tsv */
}

/* An append continues the history it grows: its first :index must follow
 * the last one, and a failed append leaves the history as it was. */
static void test_rule_across_appends(void **state)
{
    (void)state;
    isolde_history *h = NULL;
    isolde_error err = {0};
    assert_int_equal(isolde_history_new("a", tu_fmt(ISOLDE_FORMAT_JSONL), &h, &err), 0);
    const char *one = "{\"index\":0,\"type\":\"invoke\",\"process\":0}\n{\"index\":4,\"type\":\"ok\",\"process\":0}\n";
    const char *dup = "{\"index\":4,\"type\":\"invoke\",\"process\":1}\n";
    const char *next = "{\"index\":5,\"type\":\"invoke\",\"process\":1}\n";
    assert_int_equal(isolde_history_append_mem(h, one, strlen(one), &err), 0);
    assert_int_equal(isolde_history_append_mem(h, dup, strlen(dup), &err), ISOLDE_ERR_PARSE);
    assert_int_equal(err.line, 3);
    assert_non_null(strstr(err.msg, "duplicate \"index\": 4 (the op at line 2 has it too)"));
    assert_int_equal(isolde_history_op_count(h), 2);
    assert_int_equal(isolde_history_append_mem(h, next, strlen(next), &err), 0);
    assert_int_equal(isolde_history_op_count(h), 3);
    isolde_history_free(h);
    /* dense: an append's given :index is checked against its place overall */
    assert_int_equal(isolde_history_new("d", tu_fmt(ISOLDE_FORMAT_EDN), &h, &err), 0);
    const char *a = "{:type :ok}\n{:type :ok}\n", *b = "{:type :ok :index 2}\n", *c = "{:type :ok :index 1}\n";
    assert_int_equal(isolde_history_append_mem(h, a, strlen(a), &err), 0);
    assert_int_equal(isolde_history_append_mem(h, b, strlen(b), &err), 0);
    assert_int_equal(isolde_history_append_mem(h, c, strlen(c), &err), ISOLDE_ERR_PARSE);
    assert_non_null(strstr(err.msg, ":index 1 where op 3 belongs"));
    assert_int_equal(h->ops[2].index, 2);
    isolde_history_free(h);
}

/* n JSON lines with :index 2i, but line `at` has :index `bad`. */
static char *lines_with_index(size_t n, size_t at, long bad)
{
    iso_buf b = {0};
    for (size_t i = 0; i < n; i++)
        iso_buf_printf(&b, "{\"index\":%ld,\"type\":\"%s\",\"process\":%zu,\"value\":[[\"append\",%zu,%zu]]}\n",
                       i == at ? bad : (long)(2 * i), i % 2 ? "ok" : "invoke", i % 5, i % 7, i);
    return (char *)iso_buf_cstr(&b);
}

/* The two halves of a split read are checked where they meet: an :index
 * that goes back at the cut is the error a sequential read reports. */
static void test_rule_across_halves(void **state)
{
    (void)state;
    static const size_t at[] = {1000, 1001, 1002, 999, 1998};
    for (size_t c = 0; c < sizeof at / sizeof at[0]; c++) {
        char *text = lines_with_index(2000, at[c], 2 * (long)at[c] - 2);
        size_t len = strlen(text), lines;
        isolde_error e1 = {0}, e2 = {0};
        isolde_history *seq = iso_history_new("s", ISOLDE_FORMAT_JSONL), *par = iso_history_new("s", ISOLDE_FORMAT_JSONL);
        assert_int_equal(iso_json_lines(seq, text, len, &lines, &e1), -1);
        assert_int_equal(iso_read_split(par, text, len, 0, iso_json_lines, &e2), -1);
        assert_int_equal(e1.line, (long)at[c] + 1);
        assert_int_equal(e2.line, e1.line);
        assert_string_equal(e2.msg, e1.msg);
        assert_non_null(strstr(e2.msg, "duplicate \"index\""));
        isolde_history_free(seq);
        isolde_history_free(par);
        iso_free(text);
    }
}

/* :time and :index keep every 64-bit integer exactly (Unix-epoch
 * nanoseconds are past 2^59); a larger one is refused with the limit. */
static void test_64_bit_numbers(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{:index 576460752303423488, :type :ok, :time 1700000000123456789}\n"
                                "{:index 9223372036854775807, :type :ok, :time -9223372036854775808}\n",
                                ISOLDE_FORMAT_EDN);
    assert_true(h->ops[0].index == 576460752303423488LL && h->ops[0].time == 1700000000123456789LL);
    assert_true(h->ops[1].index == INT64_MAX && h->ops[1].time == INT64_MIN);
    assert_string_equal(rt_op(h, 0, 0), "{:index 576460752303423488, :time 1700000000123456789, :type :ok, "
                                        ":process nil, :value nil}");
    isolde_history_free(h);
    h = tu_read("{\"index\":0,\"type\":\"ok\",\"time\":9223372036854775807}", ISOLDE_FORMAT_JSONL);
    assert_true(h->ops[0].time == INT64_MAX);
    isolde_history_free(h);
    /* one past the limit, and no integer: tests/data/read/malformed.tsv */
}

/* Elle's client-op? is integer? :process: any size, pairing by value. */
static void test_big_processes_are_clients(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{:type :invoke, :process 576460752303423488}\n"
                                "{:type :invoke, :process 99999999999999999999}\n"
                                "{:type :ok, :process 576460752303423488}\n"
                                "{:type :ok, :process 99999999999999999999}\n"
                                "{:type :info, :process :nemesis}\n",
                                ISOLDE_FORMAT_EDN);
    for (size_t i = 0; i < 4; i++) assert_true(iso_op_is_client(&h->ops[i]));
    assert_false(iso_op_is_client(&h->ops[4]));
    iso_txns t;
    isolde_error err = {0};
    assert_int_equal(iso_txns_pair(h, 1, &t, &err), 0);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.t[0].cmp, 2);
    assert_int_equal(t.t[1].cmp, 3);
    iso_txns_free(&t);
    isolde_history_free(h);
}

/* Every reader keeps integers at and past the 64-bit ends exactly, as
 * keys and as elements (tests/data/read/ints/extremes.*). */
static void test_integer_ends_every_reader(void **state)
{
    (void)state;
    static const char *const files[] = {"extremes.edn", "extremes.json", "extremes.jsonl", "extremes.txt",
                                        "extremes.log", "extremes-onelite.jsonl"};
    const char *want = "[[:r -9223372036854775808 [9223372036854775807]] [:r -9223372036854775809 "
                       "[9223372036854775808]] [:r 99999999999999999999 [-9223372036854775809]] "
                       "[:r 9999999999999999999 []]]";
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "tests/data/read/ints/%s", files[i]);
        isolde_history *h = NULL;
        isolde_error err = {0};
        if (isolde_history_read_file(path, NULL, &h, &err)) fail_msg("%s: %s", path, err.msg);
        const iso_op *last = &h->ops[h->n_ops - 1];
        iso_buf b = {0};
        iso_op_edn(h, last, &b);
        if (!strstr(iso_buf_cstr(&b), want)) fail_msg("%s: %s", files[i], iso_buf_cstr(&b));
        iso_buf_free(&b);
        isolde_history_free(h);
    }
}

static size_t warnings(const isolde_history *h, isolde_error *w, size_t max)
{
    size_t n = 0;
    isolde_error err = {0};
    assert_int_equal(isolde_history_warnings(h, w, max, &n, &err), 0);
    return n;
}

/* A completion no invocation opened, read (as Elle reads it) with a
 * warning at the first, counting them all. (A key twice is an error:
 * test_read_json.) */
static void test_warnings(void **state)
{
    (void)state;
    isolde_error w[4];
    isolde_history *h = tu_read("{:type :invoke :process 0}\n{:type :ok :process 0}\n"
                                "{:type :info :process :nemesis}\n{:type :info :process :nemesis}\n",
                                ISOLDE_FORMAT_EDN);
    assert_int_equal(warnings(h, w, 4), 0);
    isolde_history_free(h);
    h = tu_read("{:type :invoke :process 0}\n{:type :ok :process 0}\n  {:type :ok :process 7}\n"
                "{:type :fail :process 0}\n", ISOLDE_FORMAT_EDN);
    assert_int_equal(warnings(h, w, 4), 1);
    assert_string_equal(w[0].file, "test");
    assert_int_equal(w[0].line, 3);
    assert_int_equal(w[0].col, 3);
    assert_string_equal(w[0].msg, "process 7 completes an op it did not invoke: it is checked as a "
                                  "transaction of its own (2 in all)");
    isolde_history_free(h);
    h = tu_read("{:type :invoke :process -1}\n{:type :ok :process -1}\n"
                "{:type :invoke :process 99999999999999999999}\n{:type :info :process 99999999999999999999}\n"
                "{:type :fail :process 99999999999999999999}\n", ISOLDE_FORMAT_EDN);
    assert_int_equal(warnings(h, w, 4), 1);
    assert_int_equal(w[0].line, 5);
    assert_non_null(strstr(w[0].msg, "process 99999999999999999999 completes an op it did not invoke"));
    isolde_history_free(h);
}

/* text + last read as format f: n ops, and the warning of a last line cut
 * short at line `cut` that says why (0: no warning). */
static void expect_cut(const char *text, const char *last, isolde_format f, size_t n, long cut, const char *why)
{
    iso_buf b = {0};
    iso_buf_puts(&b, text);
    iso_buf_puts(&b, last);
    isolde_history *h = tu_read(iso_buf_cstr(&b), f);
    isolde_error w[4];
    size_t k = warnings(h, w, 4); /* the cut line's first, when there is one */
    int said = k && strstr(w[0].msg, "cut short") != NULL;
    if (isolde_history_op_count(h) != n || said != (cut > 0) || (cut && (w[0].line != cut || !strstr(w[0].msg, why))))
        fail_msg("...%s: %zu ops, %zu warnings: %s", last, isolde_history_op_count(h), k, k ? w[0].msg : "");
    isolde_history_free(h);
    iso_buf_free(&b);
}

/* What a writer killed in the middle of a line leaves: a history of one
 * op per line whose last line, without a newline, ends inside a value.
 * It reads without that line, with a warning that names it; a last line
 * that is whole (or has a wrong byte before its end) reads as ever. */
static void test_cut_last_line(void **state)
{
    (void)state;
    const char *jl = "{\"type\":\"invoke\",\"process\":0,\"value\":[[\"append\",1,1]]}\n"
                     "{\"type\":\"ok\",\"process\":0,\"value\":[[\"append\",1,1]]}\n";
    expect_cut(jl, "{\"type\":\"invoke\",\"process\":1,\"value\":[[\"r\",1,n", ISOLDE_FORMAT_AUTO, 2, 3,
               "unexpected 'n', expected a JSON value");
    expect_cut(jl, "{\"type\":\"invoke\",\"pro", ISOLDE_FORMAT_JSONL, 2, 3, "unterminated string");
    expect_cut(jl, "{\"type\":\"invoke\",\"process\":1,\"value\":null}", ISOLDE_FORMAT_AUTO, 3, 0, NULL);
    expect_cut(jl, "# a comment without its newline", ISOLDE_FORMAT_ISOCHECK, 2, 0, NULL);
    expect_cut(jl, "  ", ISOLDE_FORMAT_JSONL, 2, 0, NULL);
    const char *edn = "{:type :invoke, :process 0, :value [[:append 1 1]]}\n"
                      "{:type :ok, :process 0, :value [[:append 1 1]]}\n";
    expect_cut(edn, "{:type :invoke, :process 1, :value [[:r 1 ni", ISOLDE_FORMAT_AUTO, 2, 3, "unterminated vector");
    expect_cut(edn, "{:type :invoke, :process 1, :value nil}", ISOLDE_FORMAT_EDN, 3, 0, NULL);
    /* a last line whole or wrong before its end, one value (an array, a vector) cut short, the
     * only line (a paste in the playground), or one after a line that does not read either:
     * errors, never a line cut short (tests/data/read/malformed.tsv) */
    /* large enough for two threads, and from a file as from memory */
    char *text = lines_with_index(30000, 30000, 0);
    expect_cut(text, "{\"index\":60000,\"type\":\"ok\",\"proc", ISOLDE_FORMAT_AUTO, 30000, 30001, "unterminated");
    iso_buf b = {0};
    iso_buf_printf(&b, "%s{\"index\":60000,\"type\"", text);
    char path[] = "/tmp/isolde-cut-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, b.p, b.n), (ssize_t)b.n);
    close(fd);
    isolde_history *h = NULL;
    isolde_error err = {0}, w[2];
    assert_int_equal(isolde_history_read_file(path, NULL, &h, &err), ISOLDE_OK);
    assert_int_equal(isolde_history_op_count(h), 30000);
    assert_true(warnings(h, w, 2) >= 1);
    assert_int_equal(w[0].line, 30001);
    assert_non_null(strstr(w[0].msg, "line 30001, the last, is cut short"));
    assert_string_equal(w[0].file, path);
    isolde_history_free(h);
    unlink(path);
    /* an append holds complete lines: no cut there */
    assert_int_equal(isolde_history_new("a", NULL, &h, &err), ISOLDE_OK);
    assert_int_equal(isolde_history_append_mem(h, b.p, b.n, &err), ISOLDE_ERR_PARSE);
    assert_int_equal(err.line, 30001);
    isolde_history_free(h);
    iso_buf_free(&b);
    iso_free(text);
}

/* The micro-ops of a transaction's value read by the fast path are packed
 * (one word, not four); merging keeps them packed, and stores one whose
 * read list moved past what the store lets a packed micro-op hold. */
static void test_packed_micro_ops_merge(void **state)
{
    (void)state;
    static const char one[] = "{\"type\":\"ok\",\"process\":0,\"value\":[[\"append\",3,41],[\"r\",3,[41]]]}\n";
    static const char two[] = "{\"type\":\"ok\",\"process\":1,\"value\":[[\"append\",3,42],[\"r\",3,[41,42]]]}\n";
    isolde_history *h = tu_read(one, ISOLDE_FORMAT_JSONL);
    isolde_error err = {0};
    const iso_store *s = &h->store;
    iso_val buf[3];
    const iso_val *m = iso_seq_words(s, h->ops[0].value);
    assert_int_equal(iso_tag(m[0]), ISO_TAG_MOP);
    assert_int_equal(iso_tag(m[1]), ISO_TAG_MOP);
    assert_true(iso_name_is(s, iso_seq_items(s, m[0], buf)[0], "append"));
    h->store.mop_words = h->store.n_words; /* lists merged in land past it */
    assert_int_equal(isolde_history_append_mem(h, two, strlen(two), &err), 0);
    m = iso_seq_words(s, h->ops[1].value);
    assert_int_equal(iso_tag(m[0]), ISO_TAG_MOP); /* an integer value moves as it is */
    assert_int_equal(iso_tag(m[1]), ISO_TAG_SEQ); /* its list now past the limit */
    iso_buf b = {0};
    iso_val_json(s, h->ops[1].value, &b);
    assert_string_equal(iso_buf_cstr(&b), "[[\"append\",3,42],[\"r\",3,[41,42]]]");
    iso_buf_free(&b);
    isolde_history_free(h);
}

/* Issue 16: inputs of 4 GiB and more. Sizes and offsets that grow with the
 * input are 64-bit (a 50M-transaction history is ~15 GB of JSON lines,
 * ~2G words of values); ids that index transactions, keys and ops stay
 * 32-bit, and what is kept per op in 32 bits saturates instead of
 * wrapping. (bench/check.sh SCALE=22M reads a real 6.4 GB history.) */
static void test_offsets_past_4_gib(void **state)
{
    (void)state;
    if (sizeof(size_t) < 8) skip(); /* a 32-bit build maps no such input */
    const uint64_t far = (uint64_t)5 << 30;
    assert_int_equal(sizeof(((iso_rd *)0)->pos), 8);
    assert_int_equal(sizeof(((iso_store *)0)->n_words), 8);
    assert_int_equal(sizeof(((struct iso_atom *)0)->off), 8);
    assert_int_equal(sizeof(((isolde_history *)0)->n_ops), 8);
    assert_true(iso_payload(iso_mk(ISO_TAG_SEQ, far)) == far); /* a composite 5G words in */
    assert_true(iso_payload(iso_mk(ISO_TAG_SEQ, far * 1000)) == far * 1000);
    assert_int_equal(iso_rd_u32((size_t)far), UINT32_MAX); /* a column past 4G */
    assert_int_equal(iso_line_after(UINT32_MAX - 5, 10), UINT32_MAX);
    assert_int_equal(iso_line_after(7, (size_t)far), UINT32_MAX);
    assert_int_equal(iso_line_after(7, 10), 17);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense_rule),
        cmocka_unit_test(test_given_rule),
        cmocka_unit_test(test_rule_across_appends),
        cmocka_unit_test(test_packed_micro_ops_merge),
        cmocka_unit_test(test_rule_across_halves),
        cmocka_unit_test(test_64_bit_numbers),
        cmocka_unit_test(test_big_processes_are_clients),
        cmocka_unit_test(test_warnings),
        cmocka_unit_test(test_cut_last_line),
        cmocka_unit_test(test_offsets_past_4_gib),
        cmocka_unit_test(test_integer_ends_every_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
