/*
 * test_alloc.c -- running out of memory is an error, never a crash or a
 * leak: every allocation of a read, a check and a report is failed in
 * turn (core/alloc.h's test hook) and each public call must then return
 * ISOLDE_ERR_NOMEM (or succeed, when the failed allocation was never
 * reached) with everything it allocated freed (the sanitizer build's leak
 * check sees the rest), what is not memory undone (iso_guard_on_unwind);
 * the out-of-memory handler can ask for a retry.
 */
#include "testutil.h"
#include "core/alloc.h"

#include <dirent.h>
#include <unistd.h>

/* Remove dir and what is in it (files, and directories of files). */
static void rm_dir(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        char path[512];
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0) rm_dir(path);
    }
    closedir(d);
    assert_int_equal(rmdir(dir), 0);
}

static const char *history =
    "{:index 0 :type :invoke :process 0 :value [[:append 1 1] [:r 2 nil]]}\n"
    "{:index 1 :type :invoke :process 1 :value [[:append 2 1] [:r 1 nil]]}\n"
    "{:index 2 :type :ok :process 0 :value [[:append 1 1] [:r 2 []]]}\n"
    "{:index 3 :type :ok :process 1 :value [[:append 2 1] [:r 1 []]]}\n"
    "{:index 4 :type :invoke :process 0 :value [[:r 1 nil] [:r 2 nil]]}\n"
    "{:index 5 :type :ok :process 0 :value [[:r 1 [1]] [:r 2 [1]]]}\n"
    "{:index 6 :type :invoke :process 2 :value [[:r 3 nil]]}\n"
    "{:index 7 :type :ok :process 2 :value [[:r 3 [7 7]]]}\n";

/* Read, check (two threads) and write all four reports, failing
 * allocation n (0: none); the status of the first call that failed, or
 * ISOLDE_OK. The directory report's files are closed when memory runs
 * out while they are written (every_allocation_fails_in_turn counts the
 * open file descriptors). */
static isolde_status attempt(unsigned long n)
{
    isolde_history *h = NULL;
    isolde_result *r = NULL;
    isolde_error err;
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.threads = 2;
    o.models = "serializable";
    iso_alloc_fail_after(n);
    isolde_status s = isolde_history_read_mem("oom", history, strlen(history), NULL, &h, &err);
    if (!s) s = isolde_check(h, &o, &r, &err);
    FILE *null = fopen("/dev/null", "w");
    if (!s) s = isolde_result_write_json(r, null, &err);
    if (!s) s = isolde_result_write_text(r, null, NULL, &err);
    if (!s) s = isolde_result_write_html(r, null, &err);
    char dir[] = "/tmp/isolde-test-alloc-XXXXXX";
    assert_non_null(mkdtemp(dir));
    if (!s) s = isolde_result_write_dir(r, dir, &err);
    rm_dir(dir);
    fclose(null);
    iso_alloc_fail_after(0);
    if (s) {
        assert_int_equal(s, ISOLDE_ERR_NOMEM);
        assert_int_equal(err.code, ISOLDE_ERR_NOMEM);
        assert_non_null(strstr(err.msg, "out of memory"));
    }
    isolde_result_free(r);
    isolde_history_free(h);
    return s;
}

/* Open file descriptors of this process (a FILE left open keeps one). */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) return 0;
    int n = 0;
    while (readdir(d)) n++;
    closedir(d);
    return n;
}

static void every_allocation_fails_in_turn(void **state)
{
    (void)state;
    int fds = open_fds();
    assert_int_equal(attempt(0), ISOLDE_OK);
    unsigned long n = 1, failed = 0;
    for (; n < 5000 && attempt(n) != ISOLDE_OK; n++) failed++;
    assert_true(failed > 20);   /* the calls allocate: the hook reached them */
    assert_true(n < 5000);      /* and past the last allocation all succeed */
    assert_int_equal(open_fds(), fds);
    assert_int_equal(iso_alloc_unguarded_failures(), 0);
}

/* An append that runs out of memory leaves the history as it was: its op
 * count, and a later append that succeeds reads as if the failed one had
 * never been tried. */
static void a_failed_append_changes_nothing(void **state)
{
    (void)state;
    const char *first = "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"value\":[[\"append\",\"k\",1]]}\n";
    const char *more = "{\"index\":1,\"type\":\"ok\",\"process\":0,\"value\":[[\"append\",\"k\",1]]}\n"
                       "{\"index\":2,\"type\":\"invoke\",\"process\":1,\"value\":[[\"r\",\"new-key\",null]]}\n";
    isolde_read_opts ro;
    isolde_read_opts_init(&ro);
    ro.format = ISOLDE_FORMAT_JSONL;
    unsigned long failed = 0;
    for (unsigned long n = 1; n < 2000; n++) {
        isolde_history *h = NULL;
        isolde_error err;
        assert_int_equal(isolde_history_new("grow", &ro, &h, &err), ISOLDE_OK);
        assert_int_equal(isolde_history_append_mem(h, first, strlen(first), &err), ISOLDE_OK);
        iso_alloc_fail_after(n);
        isolde_status s = isolde_history_append_mem(h, more, strlen(more), &err);
        iso_alloc_fail_after(0);
        if (s == ISOLDE_OK) {
            assert_int_equal(isolde_history_op_count(h), 3);
            isolde_history_free(h);
            assert_true(failed > 3);
            return;
        }
        failed++;
        assert_int_equal(s, ISOLDE_ERR_NOMEM);
        assert_int_equal(isolde_history_op_count(h), 1);
        assert_int_equal(isolde_history_append_mem(h, more, strlen(more), &err), ISOLDE_OK);
        assert_int_equal(isolde_history_op_count(h), 3);
        isolde_history_free(h);
    }
    fail_msg("the append never succeeded");
}

/* A guard's undo runs when it unwinds, and not when it ends well. */
static int undone;
static void undo(void *arg) { undone += *(int *)arg; }
static int hold_then_allocate(void *arg)
{
    iso_guard_on_unwind(undo, arg);
    iso_free(iso_xmalloc(64));
    iso_guard_on_unwind(NULL, NULL);
    return 0;
}

static void an_unwinding_guard_undoes(void **state)
{
    (void)state;
    int one = 1;
    isolde_error err;
    undone = 0;
    assert_int_equal(iso_guarded(hold_then_allocate, &one, &err), 0);
    assert_int_equal(undone, 0);
    iso_alloc_fail_after(1);
    assert_int_equal(iso_guarded(hold_then_allocate, &one, &err), -1);
    iso_alloc_fail_after(0);
    assert_int_equal(err.code, ISOLDE_ERR_NOMEM);
    assert_int_equal(undone, 1);
    iso_guard_on_unwind(undo, &one); /* outside any guard: nothing */
    assert_int_equal(iso_guarded(hold_then_allocate, &one, &err), 0);
    assert_int_equal(undone, 1);
}

static int retries;
static int retry_once(size_t bytes, void *arg)
{
    (void)bytes;
    (void)arg;
    iso_alloc_fail_after(0);   /* "memory was freed": the retry succeeds */
    return ++retries == 1;
}

static void the_handler_can_retry(void **state)
{
    (void)state;
    isolde_set_oom_handler(retry_once, NULL);
    assert_int_equal(attempt(3), ISOLDE_OK);
    assert_int_equal(retries, 1);
    isolde_set_oom_handler(NULL, NULL);
}

static void an_error_leaves_err_untouched_on_success(void **state)
{
    (void)state;
    isolde_error err;
    memset(&err, 0x5a, sizeof err);
    isolde_history *h = NULL;
    assert_int_equal(isolde_history_read_mem("ok", history, strlen(history), NULL, &h, &err), ISOLDE_OK);
    assert_int_equal((unsigned char)err.msg[0], 0x5a);
    isolde_history_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_allocation_fails_in_turn),
        cmocka_unit_test(a_failed_append_changes_nothing),
        cmocka_unit_test(the_handler_can_retry),
        cmocka_unit_test(an_unwinding_guard_undoes),
        cmocka_unit_test(an_error_leaves_err_untouched_on_success),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
