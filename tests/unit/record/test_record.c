/*
 * test_record.c -- the runner's history file (run/hist.c): a regular file
 * written through its mapping, readable as it stands when the runner dies
 * without closing it (lines, then newline filler), cut to size on close,
 * across chunk growth; pipes and devices written with write(2) at each
 * completion; write errors kept. Also list reads kept as the database's
 * text (run_txn_read_text) and how they are printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "testutil.h"
#include "history/history.h"
#include "gen/gen.h"
#include "record/hist.h"
#include "record/record.h"

#define CHUNK ((off_t)4 << 20) /* hist.c's growth step */

static void read_text_case(const char *s, int ok)
{
    run_txn t = {0};
    t.list_append = 1;
    t.n = 1;
    t.mops[0] = (run_mop){RUN_R, 1, 4, 0, 0, 0, 0};
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

/* A random transaction with its reads filled in every way a driver may. */
static void random_txn(run_txn *t, uint64_t *rng)
{
    t->list_append = (int)rng_below(rng, 2);
    t->n = 1 + rng_below(rng, 6);
    run_txn_clear_reads(t);
    for (uint32_t i = 0; i < t->n; i++) {
        int64_t v = (int64_t)rng_next(rng) >> rng_below(rng, 64);
        t->mops[i] = (run_mop){rng_below(rng, 2) ? RUN_R : t->list_append ? RUN_APPEND : RUN_W,
                               1, (int64_t)rng_below(rng, 1000) - 5, v, 0, 0, 0};
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

/* A head written to end where the value starts is rec_head's. */
static void test_head_before(void **state)
{
    (void)state;
    static const int64_t nums[] = {0, 9, 10, 99, 100, 12345, 999999999, 1000000000,
                                   INT64_MAX};
    char want[REC_HEAD_MAX], got[REC_HEAD_MAX + 8];
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
        for (size_t j = 0; j < sizeof nums / sizeof *nums; j++)
            for (int type = 0; type < 4; type++) {
                size_t n = rec_head(want, nums[i], type, nums[j]);
                memset(got, 'x', sizeof got);
                char *end = got + REC_HEAD_MAX;
                char *start = rec_head_before(end, nums[i], type, nums[j]);
                assert_int_equal(end - start, n);
                assert_memory_equal(start, want, n);
                assert_memory_equal(end, "xxxxxxxx", 8);
            }
}

/* One op line as the runner writes it (index i, an invocation when even). */
static void line(iso_buf *b, int64_t i)
{
    run_txn t = {0};
    t.list_append = 1;
    t.n = 2;
    t.mops[0] = (run_mop){RUN_APPEND, 1, i / 2, 1, 0, 0, 0};
    t.mops[1] = (run_mop){RUN_R, 1, i / 2, 0, 0, 0, 0};
    if (i % 2) assert_int_equal(run_txn_read_text(&t, 1, "1", 1), 0);
    b->n = 0;
    rec_line(b, i, i % 2 ? ISO_OP_OK : ISO_OP_INVOKE, 0, &t, i * 10);
    run_txn_release(&t);
}

static void append_lines(hist *h, int64_t from, int64_t to)
{
    iso_buf b = {0};
    for (int64_t i = from; i < to; i++) {
        line(&b, i);
        struct iovec v = {b.p, b.n};
        assert_int_equal(hist_append(h, &v, 1, (int)(i % 2)), 0);
    }
    iso_buf_free(&b);
}

static size_t ops_in(const char *path)
{
    isolde_history *h = NULL;
    isolde_error err = {0};
    if (isolde_history_read_file(path, tu_fmt(ISOLDE_FORMAT_AUTO), &h, &err) != 0)
        fail_msg("%s:%ld:%ld: %s", err.file, err.line, err.col, err.msg);
    size_t n = isolde_history_op_count(h);
    isolde_history_free(h);
    return n;
}

static off_t size_of(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_size;
}

/* The file as a SIGKILL leaves it: hist_close never runs. */
static void test_mapped_file(void **state)
{
    (void)state;
    char path[] = "/tmp/isolde-test-record-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static hist h;
    hist_open(&h, fd, path);
    assert_non_null(h.map);
    append_lines(&h, 0, 1000);
    assert_int_equal(ops_in(path), 1000);
    assert_int_equal(size_of(path), CHUNK);
    append_lines(&h, 1000, 120000); /* past two more chunks */
    assert_int_equal(size_of(path) % CHUNK, 0);
    assert_true(size_of(path) > 2 * CHUNK);
    assert_int_equal(ops_in(path), 120000);
    char last;
    assert_int_equal(pread(fd, &last, 1, size_of(path) - 1), 1);
    assert_int_equal(last, '\n');
    size_t len = h.len;
    assert_int_equal(hist_close(&h), 0);
    assert_int_equal(size_of(path), (off_t)len);
    assert_int_equal(ops_in(path), 120000);
    close(fd);
    unlink(path);
}

/* A pipe gets write(2): an invocation waits, a completion sends both. */
static void test_pipe(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    static hist h;
    hist_open(&h, p[1], NULL);
    assert_null(h.map);
    char buf[4096];
    append_lines(&h, 0, 1);
    assert_int_equal(read(p[0], buf, sizeof buf), -1);
    assert_int_equal(errno, EAGAIN);
    append_lines(&h, 1, 2);
    ssize_t n = read(p[0], buf, sizeof buf);
    assert_true(n > 0);
    isolde_history *hi = NULL;
    isolde_error err = {0};
    assert_int_equal(isolde_history_read_mem("pipe", buf, (size_t)n, tu_fmt(ISOLDE_FORMAT_JSONL), &hi, &err), 0);
    assert_int_equal(isolde_history_op_count(hi), 2);
    isolde_history_free(hi);
    assert_int_equal(hist_close(&h), 0);
    close(p[0]);
    close(p[1]);
}

/* A write error is kept, and nothing more is recorded after it. */
static void test_write_error(void **state)
{
    (void)state;
    int fd = open("/dev/full", O_WRONLY);
    if (fd < 0) skip();
    static hist h;
    hist_open(&h, fd, "/dev/full");
    assert_null(h.map);
    iso_buf b = {0};
    line(&b, 1);
    struct iovec v = {b.p, b.n};
    assert_int_equal(hist_append(&h, &v, 1, 1), -1);
    assert_int_equal(h.err, ENOSPC);
    assert_int_equal(hist_append(&h, &v, 1, 1), -1);
    assert_int_equal(hist_close(&h), -1);
    iso_buf_free(&b);
    close(fd);
}

/* Any op: a nemesis line among client lines reads back as an op of a
 * process that is no client, which the checker leaves out. */
static void test_any_op(void **state)
{
    (void)state;
    iso_buf b = {0};
    run_txn t = {0};
    t.list_append = 1;
    t.n = 1;
    t.mops[0] = (run_mop){.f = RUN_APPEND, .key = 1, .value = 5};
    rec_line(&b, 0, ISO_OP_INVOKE, 0, &t, 10);
    rec_op nemesis = {1, 3, "nemesis", 0, "start-partition", "[\"n1\",\"n2\"]", 15, NULL};
    rec_op_line(&b, &nemesis);
    rec_line(&b, 2, 1, 0, &t, 20);
    rec_op numbered = {3, 3, NULL, 7, "kill", NULL, 25, "timed out"};
    rec_op_line(&b, &numbered);
    assert_non_null(strstr(b.p, "{\"index\":1,\"type\":\"info\",\"process\":\"nemesis\","
                               "\"f\":\"start-partition\",\"value\":[\"n1\",\"n2\"],\"time\":15}\n"));
    assert_non_null(strstr(b.p, "{\"index\":3,\"type\":\"info\",\"process\":7,\"f\":\"kill\","
                               "\"value\":null,\"time\":25,\"error\":\"timed out\"}\n"));
    isolde_history *h = tu_read(b.p, ISOLDE_FORMAT_JSONL);
    assert_int_equal(isolde_history_op_count(h), 4);
    assert_false(iso_op_is_client(&h->ops[1]));
    assert_true(iso_op_is_client(&h->ops[3]));
    isolde_history_free(h);
    iso_buf_free(&b);
    run_txn_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_text),
        cmocka_unit_test(test_read_text_random),
        cmocka_unit_test(test_ok_value),
        cmocka_unit_test(test_head_before),
        cmocka_unit_test(test_mapped_file),
        cmocka_unit_test(test_pipe),
        cmocka_unit_test(test_write_error),
        cmocka_unit_test(test_any_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
