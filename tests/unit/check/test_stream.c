/* check/test_stream.c -- lib/check/stream.c, checking a history as it
 * grows (docs/ONLINE.md): bytes in pieces of any size make the history the
 * batch reads; an invocation still open is no transaction of an early
 * check (its outcome may yet be a failure); a finding certain early is
 * handed over once; a bad line is an error at its line, the stream as it
 * was; running out of memory at any allocation is an error, never a leak;
 * a stream cancelled from another thread checks no more; a cycle planted
 * after many ops is found by a window check of the last ones alone. */
#include "testutil.h"

#include <pthread.h>

#include "core/alloc.h"

/* T1 appends x 1 and y 1; T2 reads x [1] and y nil; T3 reads y [1]. With
 * T1 ok, T1 -wr-> T2 -rw-> T1 is G-single; with T1 failed, T2's read is G1a
 * and there is no cycle. T1's completion comes last: while it is open, an
 * early check must not take T1 as a writer (an info one would close the
 * G-single). An early check takes no transaction of an invocation still
 * open (elle.c's drop_open, under iso_checker_opts.shown_edges), and the
 * pipeline too leaves an invocation without completion out of Elle's
 * history+ (docs/ONLINE.md): this case fails only if both took it in. */
static const char *const open_t1 =
    "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1],[\"append\",\"y\",1]]}\n"
    "{\"index\":1,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"r\",\"x\",null],[\"r\",\"y\",null]]}\n"
    "{\"index\":2,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"r\",\"x\",[1]],[\"r\",\"y\",null]]}\n"
    "{\"index\":3,\"type\":\"invoke\",\"process\":3,\"f\":\"txn\",\"value\":[[\"r\",\"y\",null]]}\n"
    "{\"index\":4,\"type\":\"ok\",\"process\":3,\"f\":\"txn\",\"value\":[[\"r\",\"y\",[1]]]}\n";
static const char *const t1_fails =
    "{\"index\":5,\"type\":\"fail\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1],[\"append\",\"y\",1]]}\n";

typedef struct seen {
    int n, g1a, g_single;
} seen;

static void count(void *arg, const char *type, const char *text, const char *json)
{
    seen *s = arg;
    (void)text;
    (void)json;
    s->n++;
    s->g1a += !strcmp(type, "G1a");
    s->g_single += !strncmp(type, "G-single", 8);
}

/* Poll until one more early check has run. */
static void early_check(isolde_stream *s, seen *sn)
{
    isolde_stream_stats st;
    isolde_stream_stats_get(s, &st);
    size_t before = st.early_checks;
    for (int i = 0; i < 1000 && st.early_checks == before; i++) {
        assert_int_equal(isolde_stream_poll(s, count, sn, NULL), ISOLDE_OK);
        isolde_stream_stats_get(s, &st);
        if (st.early_checks == before) usleep(1000);
    }
    assert_true(st.early_checks > before);
}

static void an_open_invocation_is_left_out(void **state)
{
    (void)state;
    isolde_stream *s = NULL;
    seen sn = {0};
    assert_int_equal(isolde_stream_open("h.jsonl", NULL, NULL, &s, NULL), ISOLDE_OK);
    assert_int_equal(isolde_stream_append(s, open_t1, strlen(open_t1), NULL), ISOLDE_OK);
    early_check(s, &sn);
    assert_int_equal(sn.n, 0); /* as info, T1 would close a G-single */
    assert_int_equal(isolde_stream_append(s, t1_fails, strlen(t1_fails), NULL), ISOLDE_OK);
    early_check(s, &sn);
    assert_int_equal(sn.g1a, 2); /* T2's read of x, T3's of y */
    assert_int_equal(sn.g_single, 0);
    const char *more = "{\"index\":6,\"type\":\"invoke\",\"process\":4,\"f\":\"txn\",\"value\":[[\"r\",\"z\",null]]}\n";
    assert_int_equal(isolde_stream_append(s, more, strlen(more), NULL), ISOLDE_OK);
    early_check(s, &sn);
    assert_int_equal(sn.g1a, 2); /* each handed over once */
    isolde_stream_stats st;
    isolde_stream_stats_get(s, &st);
    assert_int_equal(st.ops, 7);
    assert_int_equal(st.findings, 2);
    isolde_stream_free(s);
}

/* T2 appends x 2 and y 1; T3 reads x [1], appends x 3 and reads y [1].
 * Inferring that the unread appends 2 and 3 follow [1] gives T3 -rw-> T2
 * -wr-> T3, a G-single; but T4's read of x [1 3 2] shows T3 -ww-> T2, and the
 * only cycle is a G1c. An early check uses only the edges reads show: no
 * G-single is ever called certain. */
static const char *const unread_appends =
    "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1]]}\n"
    "{\"index\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1]]}\n"
    "{\"index\":2,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",\"x\",null]]}\n"
    "{\"index\":3,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",\"x\",[1]]]}\n"
    "{\"index\":4,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"append\",\"x\",2],[\"append\",\"y\",1]]}\n"
    "{\"index\":5,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"append\",\"x\",2],[\"append\",\"y\",1]]}\n"
    "{\"index\":6,\"type\":\"invoke\",\"process\":3,\"f\":\"txn\",\"value\":[[\"r\",\"x\",null],[\"append\",\"x\",3],[\"r\",\"y\",null]]}\n"
    "{\"index\":7,\"type\":\"ok\",\"process\":3,\"f\":\"txn\",\"value\":[[\"r\",\"x\",[1]],[\"append\",\"x\",3],[\"r\",\"y\",[1]]]}\n";
static const char *const shows_3_then_2 =
    "{\"index\":8,\"type\":\"invoke\",\"process\":4,\"f\":\"txn\",\"value\":[[\"r\",\"x\",null]]}\n"
    "{\"index\":9,\"type\":\"ok\",\"process\":4,\"f\":\"txn\",\"value\":[[\"r\",\"x\",[1,3,2]]]}\n";

static void an_edge_into_an_unread_append_is_not_certain(void **state)
{
    (void)state;
    isolde_stream *s = NULL;
    seen sn = {0};
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.models = "serializable";
    assert_int_equal(isolde_stream_open("h.jsonl", NULL, &o, &s, NULL), ISOLDE_OK);
    assert_int_equal(isolde_stream_append(s, unread_appends, strlen(unread_appends), NULL), ISOLDE_OK);
    early_check(s, &sn);
    assert_int_equal(isolde_stream_append(s, shows_3_then_2, strlen(shows_3_then_2), NULL), ISOLDE_OK);
    early_check(s, &sn);
    assert_int_equal(sn.g_single, 0);
    assert_true(sn.n >= 1); /* the G1c, once T4's read shows it */
    isolde_history *h = NULL;
    isolde_result *r = NULL;
    assert_int_equal(isolde_stream_finish(s, &h, NULL), ISOLDE_OK);
    isolde_stream_free(s);
    assert_int_equal(isolde_check(h, &o, &r, NULL), ISOLDE_OK);
    assert_int_equal(isolde_result_instance_count(r, "G-single"), 0);
    assert_true(isolde_result_instance_count(r, "G1c") >= 1);
    isolde_result_free(r);
    isolde_history_free(h);
}

/* The whole text, a piece of `step` bytes at a time, polling between:
 * finish gives the history read_mem gives, with its warnings. */
static void pieces_make_the_batch_history(void **state)
{
    (void)state;
    char text[2048];
    snprintf(text, sizeof text, "%s%s{\"index\":6,\"type\":\"invoke\"", open_t1, t1_fails); /* cut short */
    for (size_t step = 1; step < 40; step += 3) {
        isolde_stream *s = NULL;
        assert_int_equal(isolde_stream_open("h.jsonl", NULL, NULL, &s, NULL), ISOLDE_OK);
        for (size_t at = 0; at < strlen(text); at += step) {
            size_t n = strlen(text) - at < step ? strlen(text) - at : step;
            assert_int_equal(isolde_stream_append(s, text + at, n, NULL), ISOLDE_OK);
            assert_int_equal(isolde_stream_poll(s, NULL, NULL, NULL), ISOLDE_OK);
        }
        isolde_history *h = NULL, *batch = NULL;
        assert_int_equal(isolde_stream_finish(s, &h, NULL), ISOLDE_OK);
        isolde_stream_free(s);
        assert_int_equal(isolde_history_read_mem("h.jsonl", text, strlen(text), NULL, &batch, NULL), ISOLDE_OK);
        assert_int_equal(isolde_history_op_count(h), 6);
        assert_int_equal(isolde_history_op_count(h), isolde_history_op_count(batch));
        size_t w1 = 0, w2 = 0;
        isolde_error w[2];
        assert_int_equal(isolde_history_warnings(h, w, 2, &w1, NULL), ISOLDE_OK);
        assert_int_equal(isolde_history_warnings(batch, w, 2, &w2, NULL), ISOLDE_OK);
        assert_int_equal(w1, 1); /* the last line cut short */
        assert_int_equal(w1, w2);
        isolde_history_free(h);
        isolde_history_free(batch);
    }
}

static void a_bad_line_is_an_error_at_its_line(void **state)
{
    (void)state;
    isolde_stream *s = NULL;
    isolde_error err = {0};
    assert_int_equal(isolde_stream_open("h.jsonl", NULL, NULL, &s, NULL), ISOLDE_OK);
    assert_int_equal(isolde_stream_append(s, open_t1, strlen(open_t1), NULL), ISOLDE_OK);
    assert_int_equal(isolde_stream_append(s, "{\"index\":5,", 11, NULL), ISOLDE_OK); /* waits for its end */
    assert_int_equal(isolde_stream_append(s, "\"type\":nul}\n", 12, &err), ISOLDE_ERR_PARSE);
    assert_string_equal(err.file, "h.jsonl");
    assert_int_equal(err.line, 6);
    assert_true(err.col > 1);
    assert_int_equal(isolde_stream_append(s, NULL, 3, NULL), ISOLDE_ERR_USAGE);
    const char *rest = "\"type\":\"fail\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1],[\"append\",\"y\",1]]}\n";
    assert_int_equal(isolde_stream_append(s, rest, strlen(rest), NULL), ISOLDE_OK); /* as before the bad call */
    isolde_stream_stats st;
    isolde_stream_stats_get(s, &st);
    assert_int_equal(st.ops, 6);
    isolde_stream_free(s);
}

/* Every call of a stream's life with every allocation failing after the
 * first n, for every n until all of it succeeds: NOMEM, never a crash or
 * a leak (the sanitizer build's leak check). */
static int stream_life(void)
{
    isolde_stream *s = NULL;
    isolde_history *h = NULL;
    seen sn = {0};
    int rc = isolde_stream_open("h.jsonl", NULL, NULL, &s, NULL) ||
             isolde_stream_append(s, open_t1, strlen(open_t1), NULL) || isolde_stream_poll(s, count, &sn, NULL) ||
             isolde_stream_append(s, t1_fails, strlen(t1_fails), NULL) ||
             isolde_stream_poll(s, count, &sn, NULL) || isolde_stream_finish(s, &h, NULL);
    isolde_history_free(h);
    isolde_stream_free(s);
    return rc;
}

static void *cancel_soon(void *arg)
{
    usleep(2000);
    isolde_stream_cancel(arg);
    return NULL;
}

/* isolde_stream_cancel from another thread while a poll may be in its
 * early check (20000 transactions: a check of some milliseconds): the
 * poll returns OK, all it allocated freed (the sanitizers' run says so),
 * no early check runs after it, and finish still reads every line. */
static void a_cancelled_stream_checks_no_more(void **state)
{
    (void)state;
    isolde_stream *s = NULL;
    char line[256];
    assert_int_equal(isolde_stream_open("h.jsonl", NULL, NULL, &s, NULL), ISOLDE_OK);
    for (int i = 0; i < 20000; i++) {
        int n = snprintf(line, sizeof line,
                         "{\"index\":%d,\"type\":\"invoke\",\"process\":%d,\"f\":\"txn\",\"value\":[[\"append\",%d,%d]]}\n"
                         "{\"index\":%d,\"type\":\"ok\",\"process\":%d,\"f\":\"txn\",\"value\":[[\"append\",%d,%d]]}\n",
                         2 * i, i % 5, i % 100, i, 2 * i + 1, i % 5, i % 100, i);
        assert_int_equal(isolde_stream_append(s, line, (size_t)n, NULL), ISOLDE_OK);
    }
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, cancel_soon, s), 0);
    assert_int_equal(isolde_stream_poll(s, NULL, NULL, NULL), ISOLDE_OK);
    pthread_join(t, NULL);
    isolde_stream_stats st, after;
    isolde_stream_stats_get(s, &st);
    const char *more = "{\"index\":40000,\"type\":\"invoke\",\"process\":9,\"f\":\"txn\",\"value\":[[\"r\",1,null]]}\n";
    assert_int_equal(isolde_stream_append(s, more, strlen(more), NULL), ISOLDE_OK);
    usleep(2000);
    assert_int_equal(isolde_stream_poll(s, NULL, NULL, NULL), ISOLDE_OK);
    isolde_stream_stats_get(s, &after);
    assert_int_equal(after.early_checks, st.early_checks);
    isolde_history *h = NULL;
    assert_int_equal(isolde_stream_finish(s, &h, NULL), ISOLDE_OK);
    assert_int_equal(isolde_history_op_count(h), 40001);
    isolde_history_free(h);
    isolde_stream_free(s);
}

/* n valid transactions (each appends to a key of its own), with :index
 * fields or without. */
static void valid_txns(isolde_stream *s, int n, int with_index)
{
    char line[256], idx[32] = "";
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
            if (with_index) snprintf(idx, sizeof idx, ",\"index\":%d", 2 * i + k);
            int len = snprintf(line, sizeof line, "{\"type\":\"%s\",\"process\":%d,\"f\":\"txn\",\"value\":"
                               "[[\"append\",%d,1]]%s}\n", k ? "ok" : "invoke", i % 7, i, idx);
            assert_int_equal(isolde_stream_append(s, line, (size_t)len, NULL), ISOLDE_OK);
        }
    }
}

/* A G1c of two transactions on keys of their own, after n of valid_txns. */
static void planted_g1c(isolde_stream *s, int n, int with_index)
{
    const char *tx[4] = {"\"invoke\",\"process\":100,\"f\":\"txn\",\"value\":[[\"append\",\"px\",1],[\"r\",\"py\",null]]",
                         "\"invoke\",\"process\":101,\"f\":\"txn\",\"value\":[[\"append\",\"py\",1],[\"r\",\"px\",null]]",
                         "\"ok\",\"process\":100,\"f\":\"txn\",\"value\":[[\"append\",\"px\",1],[\"r\",\"py\",[1]]]",
                         "\"ok\",\"process\":101,\"f\":\"txn\",\"value\":[[\"append\",\"py\",1],[\"r\",\"px\",[1]]]"};
    char line[256], idx[32] = "";
    for (int i = 0; i < 4; i++) {
        if (with_index) snprintf(idx, sizeof idx, ",\"index\":%d", 2 * n + i);
        int len = snprintf(line, sizeof line, "{\"type\":%s%s}\n", tx[i], idx);
        assert_int_equal(isolde_stream_append(s, line, (size_t)len, NULL), ISOLDE_OK);
    }
}

/* After an early check of 150000 valid ops, a G1c planted after them:
 * the next poll checks the last ops alone (a window: the whole history is
 * not due again yet) and finds it. Without :index fields (a window read
 * alone would number its ops anew) no window check runs. */
static void a_window_check_finds_what_came_last(void **state)
{
    (void)state;
    for (int with_index = 1; with_index >= 0; with_index--) {
        isolde_stream *s = NULL;
        seen sn = {0};
        assert_int_equal(isolde_stream_open("h.jsonl", NULL, NULL, &s, NULL), ISOLDE_OK);
        valid_txns(s, 75000, with_index);
        early_check(s, &sn);
        planted_g1c(s, 75000, with_index);
        assert_int_equal(isolde_stream_poll(s, count, &sn, NULL), ISOLDE_OK);
        isolde_stream_stats st;
        isolde_stream_stats_get(s, &st);
        assert_int_equal(st.early_checks, 1);
        assert_int_equal(st.window_checks, (size_t)with_index);
        assert_int_equal(sn.n, with_index);
        isolde_stream_free(s);
    }
}

/* Of the text only what a window check may read again is kept: after an
 * early check of 300000 ops with :index, the lines before the next
 * window's first op (100000 before the last) go, and the window check
 * still finds what came last; without :index (no window checks) no line
 * is kept. The history handed over at the end has every op. */
static void only_the_last_window_s_text_is_kept(void **state)
{
    (void)state;
    for (int with_index = 1; with_index >= 0; with_index--) {
        isolde_stream *s = NULL;
        seen sn = {0};
        isolde_stream_stats st;
        assert_int_equal(isolde_stream_open("h.jsonl", NULL, NULL, &s, NULL), ISOLDE_OK);
        valid_txns(s, 150000, with_index);
        early_check(s, &sn);
        planted_g1c(s, 150000, with_index);
        isolde_stream_stats_get(s, &st);
        assert_true(st.text_kept < st.bytes / 2);
        if (!with_index) assert_int_equal(st.text_kept, 0);
        assert_int_equal(isolde_stream_poll(s, count, &sn, NULL), ISOLDE_OK);
        assert_int_equal(sn.n, with_index); /* the window check's G1c */
        isolde_history *h = NULL, *again = NULL;
        assert_int_equal(isolde_stream_finish(s, &h, NULL), ISOLDE_OK);
        assert_int_equal(isolde_history_op_count(h), 300004);
        assert_int_equal(isolde_stream_finish(s, &again, NULL), ISOLDE_ERR_USAGE); /* handed over once */
        assert_null(again);
        isolde_history_free(h);
        isolde_stream_free(s);
    }
}

static void out_of_memory_anywhere(void **state)
{
    (void)state;
    for (unsigned long n = 1;; n++) {
        iso_alloc_fail_after(n);
        int rc = stream_life();
        iso_alloc_fail_after(0);
        if (!rc) return;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_open_invocation_is_left_out),
        cmocka_unit_test(an_edge_into_an_unread_append_is_not_certain),
        cmocka_unit_test(pieces_make_the_batch_history),
        cmocka_unit_test(a_bad_line_is_an_error_at_its_line),
        cmocka_unit_test(a_cancelled_stream_checks_no_more),
        cmocka_unit_test(a_window_check_finds_what_came_last),
        cmocka_unit_test(only_the_last_window_s_text_is_kept),
        cmocka_unit_test(out_of_memory_anywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
