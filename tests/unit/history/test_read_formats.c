/* test_read_formats.c -- OneLite and jepsen.log readers, format detection,
 * format and workload names, reading files: the cases of tests/data/read
 * (good and bad files, integers at the 64-bit ends, histories with nothing
 * to check), each as its header says (tests/data/README; the CLI's side is
 * tests/cli/t1000, t1010, t1030), the table of malformed inputs of every
 * reader (tests/data/read/malformed.tsv), and every history in
 * ../shared/corpus. */
#include "readtest.h"
#include "cases.h"
#include "history/cursor.h"
#include "history/read_edn.h"
#include "history/read_json.h"
#include "history/split.h"
#include "history/read.h"

#include <dirent.h>
#include <sys/stat.h>

#define FIXTURES "tests/data/read/"

static isolde_history *read_path(const char *path)
{
    isolde_history *h = NULL;
    isolde_error err = {0};
    if (isolde_history_read_file(path, tu_fmt(ISOLDE_FORMAT_AUTO), &h, &err) != 0)
        fail_msg("%s:%ld:%ld: %s", err.file, err.line, err.col, err.msg);
    return h;
}

static void test_onelite_order(void **state)
{
    (void)state;
    isolde_history *h = read_path(FIXTURES "onelite-list-append.jsonl");
    assert_int_equal(isolde_history_format(h), ISOLDE_FORMAT_ONELITE);
    assert_int_equal(h->workload_hint, ISOLDE_WORKLOAD_LIST_APPEND);
    assert_int_equal(h->n_ops, 8);
    assert_int_equal(h->dense_index, 1);
    /* events by time; at 250 the invocation of line 3 precedes the
     * completion of line 2, so the two stay concurrent */
    static const int64_t times[] = {50, 100, 120, 250, 250, 260, 300, 900};
    static const uint8_t types[] = {ISO_OP_INVOKE, ISO_OP_INVOKE, ISO_OP_FAIL, ISO_OP_INVOKE,
                                    ISO_OP_OK, ISO_OP_INVOKE, ISO_OP_OK, ISO_OP_INFO};
    static const int64_t procs[] = {2, 0, 2, 1, 0, 3, 1, 3};
    for (size_t i = 0; i < 8; i++) {
        assert_int_equal(h->ops[i].index, (int64_t)i);
        assert_int_equal(h->ops[i].time, times[i]);
        assert_int_equal(h->ops[i].type, types[i]);
        assert_true(iso_op_process(h, &h->ops[i]) == iso_int(procs[i]));
    }
    assert_int_equal(h->ops[1].line, 2);
    assert_string_equal(rt_value(h, 1), "[[\"append\" 3 41] [\"r\" 3 [41]]]");
    assert_string_equal(rt_value(h, 4), rt_value(h, 1));
    isolde_history_free(h);
}

static void test_onelite_register(void **state)
{
    (void)state;
    isolde_history *h = tu_read("{\"history\": \"register\"}\n"
                             "{\"id\":1,\"p\":0,\"t0\":10,\"t1\":20,\"o\":\"ok\",\"m\":[[\"r\",1,0],[\"w\",1,0]]}\n",
                             ISOLDE_FORMAT_AUTO);
    assert_int_equal(isolde_history_format(h), ISOLDE_FORMAT_ONELITE);
    assert_int_equal(h->workload_hint, ISOLDE_WORKLOAD_RW_REGISTER);
    assert_string_equal(rt_value(h, 1), "[[\"r\" 1 nil] [\"w\" 1 0]]");
    isolde_history_free(h);
}

/* Every reader refuses what tests/data/read/malformed.tsv says, where and
 * why it says (tests/cli/t1000-check-readers.sh runs the same rows
 * through isolde check). */
static void test_malformed_table(void **state)
{
    (void)state;
    rt_expect_rows("tests/data/read/malformed.tsv");
}

static void test_jepsen_log(void **state)
{
    (void)state;
    isolde_history *h = read_path(FIXTURES "jepsen.log");
    assert_int_equal(isolde_history_format(h), ISOLDE_FORMAT_JEPSEN_LOG);
    assert_int_equal(h->cas_fail_false, 1);
    assert_int_equal(h->n_ops, 8);
    assert_string_equal(rt_op(h, 0, 0), "{:index 0, :type :invoke, :process 2, :f :write, :value 4}");
    assert_int_equal(h->ops[0].line, 3);
    assert_string_equal(rt_value(h, 2), "[3 1]");
    assert_int_equal(h->ops[4].type, ISO_OP_FAIL);
    assert_int_equal(h->ops[5].type, ISO_OP_INFO);
    assert_true(iso_is_nil(h->ops[5].value)); /* :timed-out */
    assert_false(iso_op_is_client(&h->ops[6]));
    assert_true(iso_is_nil(h->ops[7].value)); /* no value */
    isolde_history_free(h);
}

/* Jepsen's history.txt: every line an op line, the error kept as text. */
static void test_jepsen_txt(void **state)
{
    (void)state;
    isolde_history *h = read_path(FIXTURES "history.txt");
    assert_int_equal(isolde_history_format(h), ISOLDE_FORMAT_JEPSEN_TXT);
    assert_int_equal(h->cas_fail_false, 0);
    assert_int_equal(h->n_ops, 8);
    assert_string_equal(rt_op(h, 0, 0), "{:index 0, :type :invoke, :process 0, :f :txn, "
                                        ":value [[:append :x 1] [:r :y nil]]}");
    assert_string_equal(rt_op(h, 6, 0), "{:index 6, :type :fail, :process 2, :f :txn, :value "
                                        "[[:r :x nil] [:append :z \"a b\"]], :error \"[:aborted txn conflict]\"}");
    assert_false(iso_op_is_client(&h->ops[3]));
    assert_int_equal(h->ops[7].line, 8);
    isolde_history_free(h);
    h = tu_read("\n0\t:invoke\t:read\tnil\r\n\n:nemesis\t:info\t:kill\t{:n [1 2]}\t\n", ISOLDE_FORMAT_JEPSEN_TXT);
    assert_int_equal(h->n_ops, 2);
    assert_int_equal(h->ops[1].line, 4);
    assert_string_equal(rt_value(h, 1), "{:n [1 2]}");
    assert_true(iso_is_nil(iso_op_error(h, &h->ops[1])));
    isolde_history_free(h);
}

static void test_detect(void **state)
{
    (void)state;
    static const struct { const char *text; isolde_format f; } cases[] = {
        {"", ISOLDE_FORMAT_EDN},
        {"{:type :ok}", ISOLDE_FORMAT_EDN},
        {"\n [{:type :ok}]", ISOLDE_FORMAT_EDN},
        {"({:type :ok})", ISOLDE_FORMAT_EDN},
        {";; comment\n{:type :ok}", ISOLDE_FORMAT_EDN},
        {"#jepsen.history.Op{:type :ok}", ISOLDE_FORMAT_EDN},
        {"#_ x {:type :ok}", ISOLDE_FORMAT_EDN},
        {"[{\"type\":\"ok\"}]", ISOLDE_FORMAT_JSON},
        {"[\n  {\n    \"type\": \"ok\"}\n]", ISOLDE_FORMAT_JSON},
        {"[]", ISOLDE_FORMAT_JSON},
        {"{\"type\":\"ok\"}\n{\"type\":\"ok\"}", ISOLDE_FORMAT_JSONL},
        {"{ \"history\" : \"list-append\" }\n", ISOLDE_FORMAT_ONELITE},
        {"{\"history\": [{\"type\":\"ok\"}]}", ISOLDE_FORMAT_JSONL},
        {"# comment\n{\"type\":\"ok\"}", ISOLDE_FORMAT_ISOCHECK},
        {"#G0 comment", ISOLDE_FORMAT_ISOCHECK},
        {"INFO  jepsen.util - 2\t:invoke\t:write\t4\n", ISOLDE_FORMAT_JEPSEN_LOG},
        {"2017-01-01 INFO jepsen.core - start\nINFO  jepsen.util - 2\t:ok\t:read\t4\n", ISOLDE_FORMAT_JEPSEN_LOG},
        {"hello", ISOLDE_FORMAT_EDN},
        {"3\t:invoke\t:read\tnil\n", ISOLDE_FORMAT_JEPSEN_TXT},
        {"\n\n:nemesis\t:info\t:start\tnil\n", ISOLDE_FORMAT_JEPSEN_TXT},
        {"3\t:started\t:read\tnil\n", ISOLDE_FORMAT_EDN},
        {"3 :invoke :read nil\n", ISOLDE_FORMAT_EDN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        isolde_format f = iso_detect_format(cases[i].text, strlen(cases[i].text), NULL);
        if (f != cases[i].f)
            fail_msg("detect(%s) = %s, expected %s", cases[i].text, isolde_format_name(f),
                     isolde_format_name(cases[i].f));
    }
}

static void test_fixtures_detected(void **state)
{
    (void)state;
    static const struct { const char *file; isolde_format f; size_t n; } cases[] = {
        {"isocheck.jsonl", ISOLDE_FORMAT_ISOCHECK, 2},
        {"records.edn", ISOLDE_FORMAT_EDN, 2},
        {"array-lines.json", ISOLDE_FORMAT_JSON, 2},
        {"onelite-register.jsonl", ISOLDE_FORMAT_ONELITE, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, FIXTURES "%s", cases[i].file);
        isolde_history *h = read_path(path);
        assert_int_equal(isolde_history_format(h), cases[i].f);
        assert_int_equal(h->n_ops, cases[i].n);
        assert_string_equal(h->name, path);
        isolde_history_free(h);
    }
}

static void test_names(void **state)
{
    (void)state;
    static const char *const formats[] = {"auto", "edn", "json", "jsonl", "onelite", "isocheck",
                                          "jepsen-log", "jepsen-txt"};
    for (int i = 0; i < 8; i++) {
        isolde_format f;
        assert_int_equal(isolde_format_parse(formats[i], &f), 0);
        assert_int_equal(f, i);
        assert_string_equal(isolde_format_name(f), formats[i]);
    }
    static const char *const workloads[] = {"auto", "list-append", "rw-register", "register",
                                            "cas-register", "kv", "mutex", "fifo-queue", "lin-set"};
    for (int i = 0; i < 9; i++) {
        isolde_workload w;
        assert_int_equal(isolde_workload_parse(workloads[i], &w), 0);
        assert_int_equal(w, i);
        assert_string_equal(isolde_workload_name(w), workloads[i]);
    }
    isolde_workload jepsen;
    assert_int_equal(isolde_workload_parse("set", &jepsen), 0); /* Jepsen's set, no longer lin-set */
    assert_int_equal(jepsen, ISOLDE_WORKLOAD_SET);
    isolde_format f = ISOLDE_FORMAT_EDN;
    isolde_workload w = ISOLDE_WORKLOAD_KV;
    assert_int_equal(isolde_format_parse("yaml", &f), ISOLDE_ERR_USAGE);
    assert_int_equal(isolde_format_parse(NULL, &f), ISOLDE_ERR_USAGE);
    assert_int_equal(isolde_workload_parse("no-such-checker", &w), ISOLDE_ERR_USAGE);
    assert_int_equal(f, ISOLDE_FORMAT_EDN);
    assert_int_equal(w, ISOLDE_WORKLOAD_KV);
    assert_string_equal(isolde_format_name((isolde_format)42), "?");
    assert_string_equal(isolde_workload_name((isolde_workload)-1), "?");
}

static void test_file_errors(void **state)
{
    (void)state;
    isolde_history *h = (isolde_history *)1;
    isolde_error err = {0};
    assert_int_equal(isolde_history_read_file(FIXTURES "no-such-file.edn", tu_fmt(ISOLDE_FORMAT_AUTO), &h, &err), ISOLDE_ERR_IO);
    assert_null(h);
    assert_string_equal(err.file, FIXTURES "no-such-file.edn");
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.msg, "cannot open"));
    assert_int_equal(isolde_history_read_file(FIXTURES "noops", tu_fmt(ISOLDE_FORMAT_AUTO), &h, &err), ISOLDE_ERR_IO);
    assert_non_null(strstr(err.msg, "is a directory, with no .log file"));
    /* a directory of logs is Cobra's history, a session a log */
    assert_int_equal(isolde_history_read_file(FIXTURES "cobra-dir", tu_fmt(ISOLDE_FORMAT_AUTO), &h, &err), ISOLDE_OK);
    assert_int_equal(isolde_history_format(h), ISOLDE_FORMAT_COBRA);
    assert_int_equal(isolde_history_op_count(h), 6);
    isolde_history_free(h);
    assert_int_equal(isolde_history_read_mem("m", "{}", 2, tu_fmt((isolde_format)99), &h, &err), ISOLDE_ERR_USAGE);
    assert_non_null(strstr(err.msg, "unknown history format"));
}

/* A file larger than ISO_DROP_CHUNK, read from its mapping (its pages
 * given back while reading, on two threads) and from memory, alike. */
static void test_large_file(void **state)
{
    (void)state;
    static const char *const kinds[] = {"jsonl", "edn"};
    for (int k = 0; k < 2; k++) {
        char path[] = "/tmp/isolde-read-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        FILE *f = fdopen(fd, "w");
        size_t n = 0;
        for (long i = 0; n < ISO_DROP_CHUNK * 5 / 2; i++)
            n += (size_t)fprintf(f, k == 0 ? "{\"type\":\"ok\",\"process\":%ld,\"value\":[[\"r\",%ld,[%ld,%ld]]]}\n"
                                           : "{:type :ok, :process %ld, :value [[:r %ld [%ld %ld]]]}\n",
                                 i % 5, i % 1000, i, i + 1);
        fclose(f);
        isolde_history *a = read_path(path), *b = NULL;
        isolde_error err = {0};
        char *text = malloc(n);
        f = fopen(path, "rb");
        assert_int_equal(fread(text, 1, n, f), n);
        fclose(f);
        unlink(path);
        assert_int_equal(isolde_history_read_mem(kinds[k], text, n, tu_fmt(ISOLDE_FORMAT_AUTO), &b, &err), 0);
        assert_int_equal(a->n_ops, b->n_ops);
        for (size_t i = 0; i < a->n_ops; i += a->n_ops / 97) {
            char x[4096];
            snprintf(x, sizeof x, "%s", rt_op(a, i, 0));
            assert_string_equal(x, rt_op(b, i, 0));
            assert_int_equal(a->ops[i].line, b->ops[i].line);
        }
        assert_string_equal(rt_value(a, a->n_ops - 1), rt_value(b, b->n_ops - 1));
        isolde_history_free(a);
        isolde_history_free(b);
        free(text);
    }
}

/* The cases of tests/data/read and its folders, through the library. */
static void test_data_cases(void **state)
{
    (void)state;
    static const char *const dirs[] = {"tests/data/read", "tests/data/read/bad", "tests/data/read/ints",
                                       "tests/data/read/noops", "tests/data/read/awdit"};
    int bad = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) bad += tc_each(dirs[i], tc_file_each, NULL);
    if (bad) fail_msg("%d of the cases of tests/data/read disagree with their headers (named above)", bad);
}

/* ---- the shared corpus ------------------------------------------------ */

static int is_history(const char *name)
{
    size_t n = strlen(name);
    if (strcmp(name, "elle-unit-cases.jsonl") == 0 || strcmp(name, "EXPECTED.json") == 0) return 0;
    return (n > 4 && strcmp(name + n - 4, ".edn") == 0) || (n > 5 && strcmp(name + n - 5, ".json") == 0) ||
           (n > 6 && strcmp(name + n - 6, ".jsonl") == 0);
}

/* A corpus file isolde refuses on purpose (docs/DEVIATIONS.md): its
 * invocations and completions share an :index. Fails the test when such a
 * file reads, or fails for another reason. */
static int rejected(const char *path)
{
    static const char *const dup_index[] = {"pr49-unmerged/histories/elle/rwregister-fail.edn",
                                            "pr49-unmerged/histories/elle/rwregister-ok.edn",
                                            "pr49-unmerged/histories/elle/list-fail.edn",
                                            "pr49-unmerged/histories/elle/list-ok.edn"};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof dup_index / sizeof dup_index[0]; i++) {
        size_t m = strlen(dup_index[i]);
        if (n < m || strcmp(path + n - m, dup_index[i]) != 0) continue;
        isolde_history *h = NULL;
        isolde_error err = {0};
        assert_int_equal(isolde_history_read_file(path, NULL, &h, &err), ISOLDE_ERR_PARSE);
        if (!strstr(err.msg, ":index")) fail_msg("%s: %s", path, err.msg);
        return 1;
    }
    return 0;
}

/* Read every history under dir (an explicit stack of folders). */
static size_t read_tree(const char *root, size_t *ops_huge)
{
    char **stack = malloc(64 * sizeof *stack);
    size_t depth = 0, files = 0;
    stack[depth++] = strdup(root);
    while (depth) { /* failures longjmp out: leaks then are the test's */
        char *dir = stack[--depth];
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            struct stat st;
            if (stat(path, &st) != 0) continue;
            if (S_ISDIR(st.st_mode) && depth < 64) {
                stack[depth++] = strdup(path);
            } else if (S_ISREG(st.st_mode) && is_history(e->d_name) && rejected(path)) {
                files++;
            } else if (S_ISREG(st.st_mode) && is_history(e->d_name)) {
                isolde_history *h = read_path(path);
                assert_true(h->n_ops > 0);
                if (strcmp(e->d_name, "huge-scc.edn") == 0) *ops_huge = h->n_ops;
                isolde_history_free(h);
                files++;
            }
        }
        if (d) closedir(d);
        free(dir);
    }
    free(stack);
    return files;
}

static void test_corpus(void **state)
{
    (void)state;
    const char *shared = tu_shared_dir();
    if (!shared) skip();
    char root[512];
    snprintf(root, sizeof root, "%s/corpus", shared);
    size_t huge = 0, files = read_tree(root, &huge);
    assert_true(files >= 90);
    assert_int_equal(huge, 20602);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_onelite_order),
        cmocka_unit_test(test_onelite_register),
        cmocka_unit_test(test_malformed_table),
        cmocka_unit_test(test_jepsen_log),
        cmocka_unit_test(test_jepsen_txt),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_fixtures_detected),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_large_file),
        cmocka_unit_test(test_data_cases),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
