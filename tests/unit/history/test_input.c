/*
 * test_input.c -- the bytes of a history file (lib/history/input.c): a
 * mapped file that another process truncates while it is read fails the
 * read with an error (the bus fault is caught, on either thread of a
 * split read), never kills the process; gzip data reads as what it
 * inflates to (and the cases of tests/data/gzip check as their headers
 * say: tests/data/README); what no history is (UTF-16, UTF-32, binary
 * data) is refused from its first bytes, from files, devices and memory
 * alike.
 */
#include "readtest.h"
#include "cases.h"
#include "core/alloc.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char path[64];

/* A temporary file holding text[0, n). */
static void write_file(const char *text, size_t n)
{
    snprintf(path, sizeof path, "/tmp/isolde-input-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
}

/* A directory of Cobra's logs read with every allocation failing after
 * the first n, for every n until it reads: ISOLDE_ERR_NOMEM each time,
 * nothing of it kept (scandir's list, which is not the guard's memory, is
 * freed by the guard: the sanitizer build's leak check sees it), and at
 * last the whole history. */
static void test_dir_out_of_memory(void **state)
{
    (void)state;
    for (unsigned long n = 1;; n++) {
        isolde_history *h = NULL;
        isolde_error err = {0};
        iso_alloc_fail_after(n);
        isolde_status s = isolde_history_read_file("tests/data/read/cobra-dir", NULL, &h, &err);
        iso_alloc_fail_after(0);
        if (s == ISOLDE_OK) {
            assert_int_equal(isolde_history_op_count(h), 6);
            isolde_history_free(h);
            return;
        }
        assert_int_equal(s, ISOLDE_ERR_NOMEM);
        assert_null(h);
    }
}

/* The OOM handler, used as the moment between mapping and reading: the
 * first allocation of the read fails on purpose, the file is cut to
 * nothing, and the allocation is tried again. */
static int truncate_then_retry(size_t bytes, void *arg)
{
    (void)bytes;
    iso_alloc_fail_after(0);
    assert_int_equal(truncate((const char *)arg, 0), 0);
    return 1;
}

static void read_truncated(size_t ops)
{
    iso_buf b = {0};
    for (size_t i = 0; i < ops; i++)
        iso_buf_printf(&b, "{\"index\":%zu,\"type\":\"%s\",\"process\":%zu,\"value\":[[\"append\",%zu,%zu]]}\n", i,
                       i % 2 ? "ok" : "invoke", i / 2 % 8, i % 13, i);
    write_file(b.p, b.n);
    isolde_set_oom_handler(truncate_then_retry, path);
    iso_alloc_fail_after(1);
    isolde_history *h = NULL;
    isolde_error err = {0};
    isolde_status s = isolde_history_read_file(path, NULL, &h, &err);
    iso_alloc_fail_after(0);
    isolde_set_oom_handler(NULL, NULL);
    assert_int_equal(s, ISOLDE_ERR_IO);
    assert_null(h);
    assert_string_equal(err.file, path);
    char want[128];
    snprintf(want, sizeof want, "the file shrank while it was read (%zu bytes when opened, 0 now)", b.n);
    if (!strstr(err.msg, want)) fail_msg("%s", err.msg);
    unlink(path);
    iso_buf_free(&b);
    /* the guard is gone: a later read is an ordinary one */
    write_file("{:type :ok}", 11);
    assert_int_equal(isolde_history_read_file(path, NULL, &h, &err), ISOLDE_OK);
    isolde_history_free(h);
    unlink(path);
}

/* One thread, and (past ISO_SPLIT_MIN) the two of a split read. (cmocka
 * has a SIGBUS handler of its own while a test runs, and isolde leaves a
 * program's handler alone -- it reads the file instead: so this test
 * takes it away first.) */
static void test_truncated_while_read(void **state)
{
    (void)state;
    signal(SIGBUS, SIG_DFL);
    read_truncated(100);
    read_truncated(40000);
    struct sigaction now;
    assert_int_equal(sigaction(SIGBUS, NULL, &now), 0);
    assert_true(now.sa_handler != SIG_DFL); /* isolde's, for the next mapped read */
}

/* A bus fault outside a read the library guards is not swallowed: the
 * process dies of it as it would have without isolde; and a program's
 * own handler is left alone (the file is read, not mapped). */
static void test_other_bus_faults_stay_fatal(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGBUS, SIG_DFL); /* cmocka's, away */
        isolde_history *h = NULL;
        write_file("{:type :ok}", 11);
        if (isolde_history_read_file(path, NULL, &h, NULL) != ISOLDE_OK) _exit(2);
        unlink(path);
        isolde_history_free(h);
        struct sigaction now;
        if (sigaction(SIGBUS, NULL, &now) != 0 || now.sa_handler == SIG_DFL) _exit(3); /* isolde's is there */
        raise(SIGBUS);
        _exit(0);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGBUS) fail_msg("child status %d", st);
    struct sigaction now;
    assert_int_equal(sigaction(SIGBUS, NULL, &now), 0);
    assert_true(now.sa_handler != SIG_DFL); /* cmocka's */
    write_file("{:type :ok}", 11);
    isolde_history *h = NULL;
    assert_int_equal(isolde_history_read_file(path, NULL, &h, NULL), ISOLDE_OK);
    isolde_history_free(h);
    unlink(path);
    struct sigaction after;
    assert_int_equal(sigaction(SIGBUS, NULL, &after), 0);
    assert_true(after.sa_handler == now.sa_handler);
}

static void expect_refused(const char *text, size_t n, const char *msg)
{
    isolde_history *h = NULL;
    isolde_error err = {0};
    assert_int_equal(isolde_history_read_mem("m", text, n, NULL, &h, &err), ISOLDE_ERR_PARSE);
    if (!strstr(err.msg, msg)) fail_msg("%s", err.msg);
    write_file(text, n);
    assert_int_equal(isolde_history_read_file(path, NULL, &h, &err), ISOLDE_ERR_PARSE);
    if (!strstr(err.msg, msg)) fail_msg("%s", err.msg);
    unlink(path);
}

#define REFUSED(lit, msg) expect_refused(lit, sizeof lit - 1, msg) /* the literal's bytes, NULs too */

static void test_not_text(void **state)
{
    (void)state;
    REFUSED("\xff\xfe{\0\"\0t\0\"\0:\0", "UTF-16 is not supported: convert the file to UTF-8");
    REFUSED("\xfe\xff\0{\0\"", "UTF-16 is not supported");
    REFUSED("{\0\"\0t\0y\0p\0e\0\"\0:\0\"\0o\0k\0\"\0}\0", "UTF-16 is not supported");
    REFUSED("\xff\xfe\0\0{\0\0\0", "UTF-32 is not supported");
    REFUSED("{:type :ok}\n\0\0\0\0", "binary data (a NUL byte at offset 12), not a history");
    isolde_history *h = NULL;
    isolde_error err = {0};
    assert_int_equal(isolde_history_read_file("/dev/zero", NULL, &h, &err), ISOLDE_ERR_PARSE);
    assert_non_null(strstr(err.msg, "binary data (a NUL byte at offset 0)"));
    assert_int_equal(isolde_history_read_file("/dev/null", NULL, &h, &err), ISOLDE_OK);
    assert_int_equal(isolde_history_op_count(h), 0);
    isolde_history_free(h);
}

#ifdef ISO_HAVE_ZLIB
#include <zlib.h>

/* text gzip-compressed (n members, of len / n bytes each) into out. */
static size_t gzip_text(const char *text, size_t len, int members, unsigned char *out, size_t cap)
{
    size_t at = 0, part = len / (size_t)members;
    for (int m = 0; m < members; m++) {
        z_stream z;
        memset(&z, 0, sizeof z);
        assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
        size_t from = part * (size_t)m, n = m + 1 == members ? len - from : part;
        z.next_in = (Bytef *)text + from;
        z.avail_in = (uInt)n;
        z.next_out = out + at;
        z.avail_out = (uInt)(cap - at);
        assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
        at = cap - z.avail_out;
        deflateEnd(&z);
    }
    return at;
}

static void test_gzip(void **state)
{
    (void)state;
    const char *text = "{:type :ok, :process 0, :value [[:append :x 1]]}\n{:type :ok, :process 1, :value [[:r :x [1]]]}\n";
    static unsigned char gz[4096];
    for (int members = 1; members <= 2; members++) {
        size_t n = gzip_text(text, strlen(text), members, gz, sizeof gz);
        isolde_history *h = NULL;
        isolde_error err = {0};
        write_file((const char *)gz, n);
        assert_int_equal(isolde_history_read_file(path, NULL, &h, &err), ISOLDE_OK);
        assert_int_equal(isolde_history_op_count(h), 2);
        assert_string_equal(rt_value(h, 1), "[[:r :x [1]]]");
        assert_int_equal(h->ops[1].line, 2);
        isolde_history_free(h);
        unlink(path);
        write_file((const char *)gz, n - 9); /* cut short */
        assert_int_equal(isolde_history_read_file(path, NULL, &h, &err), ISOLDE_ERR_PARSE);
        assert_non_null(strstr(err.msg, "cannot inflate the gzip data: it ends early"));
        unlink(path);
        memcpy(gz + n, "garbage!", 8); /* what follows the members: at its own offset */
        write_file((const char *)gz, n + 8);
        assert_int_equal(isolde_history_read_file(path, NULL, &h, &err), ISOLDE_ERR_PARSE);
        char want[160];
        snprintf(want, sizeof want, "what follows the end of the gzip data is not another gzip member "
                                    "(at compressed byte %zu)", n);
        if (!strstr(err.msg, want)) fail_msg("%s", err.msg);
        unlink(path);
    }
    /* a bomb of zeros is refused from its first inflated block */
    char *zeros = calloc(1, 4 << 20);
    static unsigned char bomb[65536];
    size_t n = gzip_text(zeros, 4 << 20, 1, bomb, sizeof bomb);
    free(zeros);
    write_file((const char *)bomb, n);
    isolde_history *h = NULL;
    isolde_error err = {0};
    assert_int_equal(isolde_history_read_file(path, NULL, &h, &err), ISOLDE_ERR_PARSE);
    assert_non_null(strstr(err.msg, "binary data"));
    unlink(path);
    /* a bomb of text (80 MiB of spaces from ~80 KiB) is refused past 64 MiB, saying why */
    size_t big = (size_t)80 << 20;
    char *spaces = malloc(big);
    memset(spaces, ' ', big);
    static unsigned char sbomb[1 << 20];
    n = gzip_text(spaces, big, 1, sbomb, sizeof sbomb);
    free(spaces);
    write_file((const char *)sbomb, n);
    assert_int_equal(isolde_history_read_file(path, NULL, &h, &err), ISOLDE_ERR_LIMIT);
    assert_null(h);
    if (!strstr(err.msg, "refused as a compression bomb") || !strstr(err.msg, "more than 1000:1"))
        fail_msg("%s", err.msg);
    unlink(path);
    tc_dir("tests/data/gzip");
}
#else
static void test_gzip(void **state)
{
    (void)state;
    static const unsigned char gz[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    write_file((const char *)gz, sizeof gz);
    isolde_history *h = NULL;
    isolde_error err = {0};
    assert_int_equal(isolde_history_read_file(path, NULL, &h, &err), ISOLDE_ERR_USAGE);
    assert_non_null(strstr(err.msg, "built without zlib"));
    unlink(path);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dir_out_of_memory),
        cmocka_unit_test(test_truncated_while_read),
        cmocka_unit_test(test_other_bus_faults_stay_fatal),
        cmocka_unit_test(test_not_text),
        cmocka_unit_test(test_gzip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
