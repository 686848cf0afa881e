/*
 * test_lines.c -- a client's lines (lib/record/lines.c), built in pieces
 * around the runner's lock, are byte for byte the lines rec_line writes
 * whole for the same op: an invocation alone, then ok / fail / info
 * completions each followed by the next invocation in the same buffer;
 * Jepsen's ops as their generator shapes them; an endpoint's fields
 * (,"node",...,"isolation") before the tail, after the time.
 */
#include "testutil.h"
#include "gen/gen.h"
#include "history/history.h"
#include "record/lines.h"

/* t: append 7 to key 3, read keys 4 and 5 (reads clear). */
static void sample(txn *t)
{
    txn_release(t);
    memset(t, 0, sizeof *t);
    t->list_append = 1;
    t->n = 3;
    t->mops[0] = (txn_mop){.f = TXN_APPEND, .nil = 1, .key = 3, .value = 7};
    t->mops[1] = (txn_mop){.f = TXN_R, .nil = 1, .key = 4};
    t->mops[2] = (txn_mop){.f = TXN_R, .nil = 1, .key = 5};
}

/* rec_line's line for the op, fields put in before its tail. */
static void expected(iso_buf *b, int64_t index, int type, const txn *t, txn_json_shape *shape, int64_t ns,
                     const char *fields)
{
    iso_buf whole = {0};
    rec_line(&whole, index, type, 9, t, shape, ns);
    char time[REC_TIME_MAX + 1];
    time[rec_time(time, ns)] = '\0';
    const char *at = strstr(whole.p, time) + strlen(time);
    b->n = 0;
    iso_buf_put(b, whole.p, (size_t)(at - whole.p));
    iso_buf_puts(b, fields);
    iso_buf_puts(b, at);
    iso_buf_free(&whole);
}

static void assert_span(const char *from, const char *to, const iso_buf *want)
{
    assert_int_equal((size_t)(to - from), want->n);
    assert_memory_equal(from, want->p, want->n);
}

/* One transaction invoked alone, then completed as type, with the next
 * invocation after its completion; each line checked against rec_line. */
static void round_trip(txn_json_shape *shape, int type, const char *fields_text)
{
    rec_lines l = {.shape = shape};
    iso_buf fields = {0}, want = {0};
    iso_buf_puts(&fields, fields_text);
    l.fields_max = fields.n;
    txn t = {0};
    sample(&t);
    char *p = rec_invoke_room(&l);
    char *end = rec_invoke(&l, p, 1, 9, &t, 100, &fields);
    expected(&want, 1, ISO_OP_INVOKE, &t, shape, 100, fields_text);
    assert_span(p, end, &want);

    if (type == ISO_OP_OK) {
        txn_read_begin(&t, 1);
        txn_read_elem(&t, 1, 7);
        txn_read_elem(&t, 1, -2);
    } else {
        txn_error(&t, type == ISO_OP_FAIL ? "serialization-failure" : "", "40001", "said \"no\"");
    }
    rec_complete_value(&l, type, &t);
    char *start = rec_complete(&l, 2, type, 9, 250, &fields, &end);
    expected(&want, 2, type, &t, shape, 250, fields_text);
    assert_span(start, end, &want);

    txn done = t; /* the next transaction, invoked right after */
    memset(&t, 0, sizeof t);
    sample(&t);
    t.mops[0].value = 8;
    char *next = rec_invoke(&l, end, 3, 9, &t, 250, &fields);
    expected(&want, 3, ISO_OP_INVOKE, &t, shape, 250, fields_text);
    assert_span(end, next, &want);
    txn_release(&done);
    txn_release(&t);
    rec_lines_free(&l);
    iso_buf_free(&fields);
    iso_buf_free(&want);
}

static void test_elle_lines(void **state)
{
    (void)state;
    for (int type = ISO_OP_OK; type <= ISO_OP_INFO; type++) round_trip(NULL, type, "");
}

static void test_fields(void **state)
{
    (void)state;
    iso_buf fields = {0};
    rec_fields(&fields, "db1:5432", "serializable");
    assert_string_equal(iso_buf_cstr(&fields), ",\"node\":\"db1:5432\",\"isolation\":\"serializable\"");
    for (int type = ISO_OP_OK; type <= ISO_OP_INFO; type++) round_trip(NULL, type, iso_buf_cstr(&fields));
    fields.n = 0;
    rec_fields(&fields, "", NULL); /* an endpoint that names no node */
    assert_int_equal(fields.n, 0);
    iso_buf_free(&fields);
}

/* set's shape records an append as :add and a read as the union. */
static void test_jepsen_lines(void **state)
{
    (void)state;
    const gen_ops *set = gen_ops_for(ISOLDE_WORKLOAD_SET);
    assert_non_null(set);
    assert_non_null(set->shape);
    for (int type = ISO_OP_OK; type <= ISO_OP_INFO; type++) round_trip(set->shape, type, ",\"node\":\"n1\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elle_lines),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_jepsen_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
