/*
 * test_record.c -- the runner's history lines and file (lib/record): op
 * lines (exact text, readable by the JSONL reader), heads written back to
 * front; a regular file written through its mapping, readable as it stands
 * when the runner dies without closing it (whole lines and no blank one: the
 * last line's newline waits past a filler of spaces), cut to size on close,
 * across chunk growth and at a line that ends exactly at a chunk's end; pipes and devices written with
 * write(2) at each completion; write errors kept; any op (rec_op_line: a
 * nemesis line among client lines).
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

/* ---- history lines ---- */

/* Keeps t's result arrays (so that tests can reuse t without leaks). */
static void sample(txn *t)
{
    int64_t *res = t->res;
    char *text = t->text;
    size_t cap = t->cap_res, cap_text = t->cap_text;
    memset(t, 0, sizeof *t);
    t->res = res;
    t->cap_res = cap;
    t->text = text;
    t->cap_text = cap_text;
    t->list_append = 1;
    t->n = 3;
    t->mops[0] = (txn_mop){.f = TXN_APPEND, .nil = 1, .key = 3, .value = 7};
    t->mops[1] = (txn_mop){.f = TXN_R, .nil = 1, .key = 4, .value = 0};
    t->mops[2] = (txn_mop){.f = TXN_R, .nil = 1, .key = 5, .value = 0};
}

static void test_lines(void **state)
{
    (void)state;
    txn t = {0};
    iso_buf b = {0};
    sample(&t);
    rec_line(&b, 0, 0, 2, &t, NULL, 100);
    txn_read_begin(&t, 1);
    txn_read_elem(&t, 1, 1);
    txn_read_elem(&t, 1, -7);
    rec_line(&b, 1, 1, 2, &t, NULL, 250);
    snprintf(t.error, sizeof t.error, "said \"no\"");
    rec_line(&b, 2, 2, 2, &t, NULL, 300);
    assert_string_equal(iso_buf_cstr(&b),
        "{\"index\":0,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":"
        "[[\"append\",3,7],[\"r\",4,null],[\"r\",5,null]],\"time\":100}\n"
        "{\"index\":1,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":"
        "[[\"append\",3,7],[\"r\",4,[1,-7]],[\"r\",5,null]],\"time\":250}\n"
        "{\"index\":2,\"type\":\"fail\",\"process\":2,\"f\":\"txn\",\"value\":"
        "[[\"append\",3,7],[\"r\",4,null],[\"r\",5,null]],\"time\":300,"
        "\"error\":\"said \\\"no\\\"\"}\n");
    isolde_history *h = tu_read(b.p, ISOLDE_FORMAT_JSONL);
    assert_int_equal(isolde_history_op_count(h), 3);
    isolde_history_free(h);
    iso_buf_free(&b);
    txn_release(&t);
}

static void test_register_lines(void **state)
{
    (void)state;
    txn t = {0};
    iso_buf b = {0};
    t.n = 2;
    t.mops[0] = (txn_mop){.f = TXN_W, .nil = 1, .key = 1, .value = 9};
    t.mops[1] = (txn_mop){.f = TXN_R, .nil = 0, .key = 2, .value = 4};
    rec_line(&b, 5, 1, 0, &t, NULL, 0);
    assert_string_equal(iso_buf_cstr(&b),
        "{\"index\":5,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":"
        "[[\"w\",1,9],[\"r\",2,4]],\"time\":0}\n");
    iso_buf_free(&b);
}

/* ---- the history file ---- */

/* A head written to end where the value starts is rec_head's, for every
 * :f a run records. */
static void test_head_before(void **state)
{
    (void)state;
    static const char *const fs[] = {"txn", "read", "write", "cas"};
    static const int64_t nums[] = {0, 9, 10, 99, 100, 12345, 999999999, 1000000000,
                                   INT64_MAX};
    char want[REC_HEAD_MAX], got[REC_HEAD_MAX + 8];
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
        for (size_t j = 0; j < sizeof nums / sizeof *nums; j++)
            for (int type = 0; type < 16; type++) {
                const char *f = fs[type / 4];
                size_t n = rec_head(want, nums[i], type % 4, nums[j], f);
                memset(got, 'x', sizeof got);
                char *end = got + REC_HEAD_MAX;
                char *start = rec_head_before(end, nums[i], type % 4, nums[j], f);
                assert_int_equal(end - start, n);
                assert_memory_equal(start, want, n);
                assert_memory_equal(end, "xxxxxxxx", 8);
            }
}

/* One op line as the runner writes it (index i, an invocation when even). */
static void line(iso_buf *b, int64_t i)
{
    txn t = {0};
    t.list_append = 1;
    t.n = 2;
    t.mops[0] = (txn_mop){.f = TXN_APPEND, .nil = 1, .key = i / 2, .value = 1};
    t.mops[1] = (txn_mop){.f = TXN_R, .nil = 1, .key = i / 2, .value = 0};
    if (i % 2) assert_int_equal(txn_read_text(&t, 1, "1", 1), 0);
    b->n = 0;
    rec_line(b, i, i % 2 ? ISO_OP_OK : ISO_OP_INVOKE, 0, &t, NULL, i * 10);
    txn_release(&t);
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

/* What a line-by-line JSON tool sees in the file as it stands: n lines,
 * none blank; every line but the last ends in '}', the last in '}' and
 * then nothing but spaces. */
static void assert_no_blank_line(int fd, size_t n_lines)
{
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    char *p = iso_xmalloc((size_t)st.st_size + 1);
    assert_int_equal(pread(fd, p, (size_t)st.st_size, 0), st.st_size);
    p[st.st_size] = 0;
    assert_int_equal(p[st.st_size - 1], '\n');
    size_t lines = 0;
    for (char *l = p, *nl; (nl = strchr(l, '\n')); l = nl + 1, lines++) {
        char *end = nl;
        while (end > l && end[-1] == ' ') end--;
        assert_true(end > l);
        assert_int_equal(end[-1], '}');
        if (end != nl) assert_ptr_equal(nl + 1, p + st.st_size); /* spaces: the last line only */
    }
    assert_int_equal(lines, n_lines);
    iso_free(p);
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
    assert_no_blank_line(fd, 1000);
    append_lines(&h, 1000, 120000); /* past two more chunks */
    assert_int_equal(size_of(path) % CHUNK, 0);
    assert_true(size_of(path) > 2 * CHUNK);
    assert_int_equal(ops_in(path), 120000);
    assert_no_blank_line(fd, 120000);
    size_t len = h.len;
    assert_int_equal(hist_close(&h), 0);
    assert_int_equal(size_of(path), (off_t)len);
    assert_int_equal(ops_in(path), 120000);
    assert_no_blank_line(fd, 120000);
    close(fd);
    unlink(path);
}

/* A line that ends exactly where the file does keeps its newline there;
 * the next chunk's growth moves it to the new end. */
static void test_line_at_chunk_end(void **state)
{
    (void)state;
    char path[] = "/tmp/isolde-test-record-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static hist h;
    static char big[(size_t)CHUNK];
    hist_open(&h, fd, path);
    assert_non_null(h.map);
    memset(big, ' ', sizeof big);
    const char *head = "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"value\":[]";
    memcpy(big, head, strlen(head));
    big[sizeof big - 2] = '}'; /* one JSON object, white space inside, filling the chunk */
    big[sizeof big - 1] = '\n';
    struct iovec v = {big, sizeof big};
    assert_int_equal(hist_append(&h, &v, 1, 1), 0);
    assert_int_equal(size_of(path), CHUNK);
    assert_no_blank_line(fd, 1);
    append_lines(&h, 1, 2);
    assert_int_equal(size_of(path), 2 * CHUNK);
    assert_no_blank_line(fd, 2);
    assert_int_equal(hist_close(&h), 0);
    assert_int_equal(size_of(path), (off_t)h.len);
    assert_no_blank_line(fd, 2);
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
    txn t = {0};
    t.list_append = 1;
    t.n = 1;
    t.mops[0] = (txn_mop){.f = TXN_APPEND, .key = 1, .value = 5};
    rec_line(&b, 0, ISO_OP_INVOKE, 0, &t, NULL, 10);
    rec_op nemesis = {1, 3, "nemesis", 0, "start-partition", "[\"n1\",\"n2\"]", 15, NULL};
    rec_op_line(&b, &nemesis);
    rec_line(&b, 2, 1, 0, &t, NULL, 20);
    txn why = {0};
    txn_error(&why, "timeout", NULL, "timed out");
    rec_op numbered = {3, 3, NULL, 7, "kill", NULL, 25, &why};
    rec_op_line(&b, &numbered);
    assert_non_null(strstr(b.p, "{\"index\":1,\"type\":\"info\",\"process\":\"nemesis\","
                               "\"f\":\"start-partition\",\"value\":[\"n1\",\"n2\"],\"time\":15}\n"));
    assert_non_null(strstr(b.p, "{\"index\":3,\"type\":\"info\",\"process\":7,\"f\":\"kill\","
                               "\"value\":null,\"time\":25,\"error\":[\"timeout\",\"\",\"timed out\"]}\n"));
    isolde_history *h = tu_read(b.p, ISOLDE_FORMAT_JSONL);
    assert_int_equal(isolde_history_op_count(h), 4);
    assert_false(iso_op_is_client(&h->ops[1]));
    assert_true(iso_op_is_client(&h->ops[3]));
    isolde_history_free(h);
    iso_buf_free(&b);
    txn_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_register_lines),
        cmocka_unit_test(test_head_before),
        cmocka_unit_test(test_mapped_file),
        cmocka_unit_test(test_line_at_chunk_end),
        cmocka_unit_test(test_pipe),
        cmocka_unit_test(test_write_error),
        cmocka_unit_test(test_any_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
