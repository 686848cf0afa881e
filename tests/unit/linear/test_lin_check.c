/*
 * test_lin_check.c -- the cases of tests/data/linear through the library,
 * as their headers say (tests/data/README; the CLI's side is
 * tests/cli/t5000-lin.sh); iso_lin_check on histories as read: pairing,
 * info and fail semantics, the CAS-false mode, kv partitions, errors with
 * positions, the witness in text and JSON, the time budget, and every
 * Knossos history of the corpus against elle-cli's verdict (EXPECTED.tsv).
 */
#include "cases.h"
#include "result/result.h"
#include "linear/lin.h"

struct run {
    isolde_result *r;
    struct lin_report *lin; /* r's payload */
    isolde_error err;
    int rc;
};

static void opts_for(isolde_check_opts *o, isolde_workload w)
{
    memset(o, 0, sizeof *o);
    o->workload = w;
}

/* The checker options of the run (none but in the test of --cas-fail). */
static iso_checker_opts checker;

static void run_check(struct run *run, const isolde_history *h, const isolde_check_opts *o)
{
    memset(run, 0, sizeof *run);
    run->rc = iso_lin_check(h, o, &checker, o->workload, &run->r, &run->err);
    run->lin = run->rc ? NULL : run->r->payload;
}

static void run_release(struct run *run)
{
    isolde_result_free(run->r);
}

static isolde_validity check_text(const char *text, isolde_format f, isolde_workload w)
{
    isolde_history *h = tu_read(text, f);
    isolde_check_opts o;
    struct run run;
    opts_for(&o, w);
    run_check(&run, h, &o);
    if (run.rc) fail_msg("check failed: %s:%ld:%ld: %s", run.err.file, run.err.line,
                         run.err.col, run.err.msg);
    isolde_validity v = run.r->validity;
    run_release(&run);
    isolde_history_free(h);
    return v;
}

/* Capture a writer's output in a malloc'ed string. */
static char *written(isolde_result *r, int json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(json ? lin_kind.json(r, f, 0) : lin_kind.text(r, f, NULL), 0);
    fclose(f);
    return buf;
}

static const char *bad_read =
    "{:type :invoke, :f :write, :value 0, :process 0}\n"
    "{:type :ok, :f :write, :value 0, :process 0}\n"
    "{:type :invoke, :f :read, :value nil, :process 1}\n"
    "{:type :invoke, :f :write, :value 4, :process 2}\n"
    "{:type :ok, :f :read, :value 3, :process 1}\n"
    "{:type :ok, :f :write, :value 4, :process 2}\n"
    "{:type :invoke, :f :read, :value nil, :process 3}\n"
    "{:type :ok, :f :read, :value 4, :process 3}\n";

static void test_register_verdicts(void **state)
{
    (void)state;
    assert_int_equal(check_text(bad_read, ISOLDE_FORMAT_EDN, ISOLDE_WORKLOAD_CAS_REGISTER), ISOLDE_INVALID);
    /* an info write may land late; a timed-out read constrains nothing */
    const char *info =
        "{:type :invoke, :f :write, :value 1, :process 0}\n"
        "{:type :info, :f :write, :value 1, :process 0}\n"
        "{:type :invoke, :f :write, :value 2, :process 1}\n"
        "{:type :ok, :f :write, :value 2, :process 1}\n"
        "{:type :invoke, :f :read, :value nil, :process 2}\n"
        "{:type :info, :f :read, :value :timed-out, :process 2}\n"
        "{:type :invoke, :f :read, :value nil, :process 3}\n"
        "{:type :ok, :f :read, :value 1, :process 3}\n";
    assert_int_equal(check_text(info, ISOLDE_FORMAT_EDN, ISOLDE_WORKLOAD_REGISTER), ISOLDE_VALID);
    /* a failed write never happened */
    const char *failed =
        "{:type :invoke, :f :write, :value 1, :process 0}\n"
        "{:type :fail, :f :write, :value 1, :process 0}\n"
        "{:type :invoke, :f :read, :value nil, :process 3}\n"
        "{:type :ok, :f :read, :value 1, :process 3}\n";
    assert_int_equal(check_text(failed, ISOLDE_FORMAT_EDN, ISOLDE_WORKLOAD_REGISTER), ISOLDE_INVALID);
    /* JSON strings work as keywords do */
    const char *json =
        "[{\"type\":\"invoke\",\"f\":\"write\",\"value\":1,\"process\":0},"
        "{\"type\":\"ok\",\"f\":\"write\",\"value\":1,\"process\":0},"
        "{\"type\":\"invoke\",\"f\":\"read\",\"value\":null,\"process\":1},"
        "{\"type\":\"ok\",\"f\":\"read\",\"value\":1,\"process\":1}]";
    assert_int_equal(check_text(json, ISOLDE_FORMAT_JSON, ISOLDE_WORKLOAD_REGISTER), ISOLDE_VALID);
}

static const char *cas_log =
    "INFO  jepsen.util - 0\t:invoke\t:write\t1\n"
    "INFO  jepsen.util - 0\t:ok\t:write\t1\n"
    "INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2]\n"
    "INFO  jepsen.util - 1\t:fail\t:cas\t[1 2]\n";

static void test_cas_fail_modes(void **state)
{
    (void)state;
    /* jepsen.log: a failed cas returned false, impossible while it held 1 */
    assert_int_equal(check_text(cas_log, ISOLDE_FORMAT_JEPSEN_LOG, ISOLDE_WORKLOAD_CAS_REGISTER),
                     ISOLDE_INVALID);
    isolde_history *h = tu_read(cas_log, ISOLDE_FORMAT_JEPSEN_LOG);
    isolde_check_opts o;
    struct run run;
    opts_for(&o, ISOLDE_WORKLOAD_CAS_REGISTER);
    checker.cas_fail = "noop";
    run_check(&run, h, &o);
    checker.cas_fail = NULL;
    assert_int_equal(run.rc, 0);
    assert_int_equal(run.r->validity, ISOLDE_VALID);
    run_release(&run);
    isolde_history_free(h);
    const char *edn =
        "{:type :invoke, :f :write, :value 1, :process 0}\n"
        "{:type :ok, :f :write, :value 1, :process 0}\n"
        "{:type :invoke, :f :cas, :value [1 2], :process 1}\n"
        "{:type :fail, :f :cas, :value [1 2], :process 1}\n";
    assert_int_equal(check_text(edn, ISOLDE_FORMAT_EDN, ISOLDE_WORKLOAD_CAS_REGISTER), ISOLDE_VALID);
}

static void test_other_models(void **state)
{
    (void)state;
    const char *mutex =
        "{:type :invoke, :f :acquire, :process 0}\n{:type :ok, :f :acquire, :process 0}\n"
        "{:type :invoke, :f :acquire, :process 1}\n{:type :ok, :f :acquire, :process 1}\n";
    assert_int_equal(check_text(mutex, ISOLDE_FORMAT_EDN, ISOLDE_WORKLOAD_MUTEX), ISOLDE_INVALID);
    const char *queue =
        "{:type :invoke, :f :enqueue, :value 1, :process 0}\n{:type :ok, :f :enqueue, :value 1, :process 0}\n"
        "{:type :invoke, :f :enqueue, :value 2, :process 0}\n{:type :ok, :f :enqueue, :value 2, :process 0}\n"
        "{:type :invoke, :f :dequeue, :process 1}\n{:type :ok, :f :dequeue, :value 1, :process 1}\n";
    assert_int_equal(check_text(queue, ISOLDE_FORMAT_EDN, ISOLDE_WORKLOAD_FIFO_QUEUE), ISOLDE_VALID);
    const char *set =
        "{:type :invoke, :f :add, :value 1, :process 0}\n{:type :ok, :f :add, :value 1, :process 0}\n"
        "{:type :invoke, :f :add, :value 2, :process 0}\n{:type :info, :f :add, :value 2, :process 0}\n"
        "{:type :invoke, :f :read, :process 1}\n{:type :ok, :f :read, :value #{1 2}, :process 1}\n"
        "{:type :invoke, :f :read, :process 1}\n{:type :ok, :f :read, :value #{1}, :process 1}\n";
    assert_int_equal(check_text(set, ISOLDE_FORMAT_EDN, ISOLDE_WORKLOAD_LIN_SET), ISOLDE_INVALID);
}

static void test_kv_partitions(void **state)
{
    (void)state;
    const char *kv =
        "{:type :invoke, :f :write, :value [:x 1], :process 0}\n"
        "{:type :ok, :f :write, :value [:x 1], :process 0}\n"
        "{:type :invoke, :f :write, :value [:y 2], :process 1}\n"
        "{:type :ok, :f :write, :value [:y 2], :process 1}\n"
        "{:type :invoke, :f :read, :value [:x nil], :process 0}\n"
        "{:type :ok, :f :read, :value [:x 1], :process 0}\n"
        "{:type :invoke, :f :cas, :value [:y [2 3]], :process 1}\n"
        "{:type :ok, :f :cas, :value [:y [2 3]], :process 1}\n"
        "{:type :invoke, :f :read, :value [:y nil], :process 1}\n"
        "{:type :ok, :f :read, :value [:y 2], :process 1}\n";
    isolde_history *h = tu_read(kv, ISOLDE_FORMAT_EDN);
    isolde_check_opts o;
    struct run run;
    opts_for(&o, ISOLDE_WORKLOAD_KV);
    run_check(&run, h, &o);
    assert_int_equal(run.rc, 0);
    assert_int_equal(run.r->validity, ISOLDE_INVALID);
    assert_int_equal(run.lin->n_parts, 2);
    assert_int_equal(run.lin->n_invalid, 1);
    assert_int_equal(run.r->type_counts[0], 1);
    assert_string_equal(run.r->types[0], "nonlinearizable");
    assert_string_equal(run.lin->w[0].key_edn, ":y");
    run_release(&run);
    isolde_history_free(h);
}

static void expect_error(const char *text, isolde_workload w, long line, long col, const char *msg)
{
    isolde_history *h = tu_read(text, ISOLDE_FORMAT_EDN);
    isolde_check_opts o;
    struct run run;
    opts_for(&o, w);
    run_check(&run, h, &o);
    assert_int_equal(run.rc, -1);
    assert_int_equal(run.err.line, line);
    assert_int_equal(run.err.col, col);
    if (!strstr(run.err.msg, msg)) fail_msg("message '%s' lacks '%s'", run.err.msg, msg);
    isolde_history_free(h);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("{:type :invoke, :f :write, :value 1, :process 0}\n"
                 "  {:type :invoke, :f :frob, :value 1, :process 1}\n",
                 ISOLDE_WORKLOAD_REGISTER, 2, 3, "unknown to the model");
    expect_error("{:type :invoke, :f :cas, :value [1 2], :process 0}\n",
                 ISOLDE_WORKLOAD_REGISTER, 1, 1, "unknown to the model");
    expect_error("{:type :ok, :f :read, :value 1, :process 0}\n",
                 ISOLDE_WORKLOAD_REGISTER, 1, 1, "without an invocation");
    expect_error("{:type :invoke, :f :cas, :value 5, :process 0}\n"
                 "{:type :ok, :f :cas, :value 5, :process 0}\n",
                 ISOLDE_WORKLOAD_CAS_REGISTER, 2, 1, "[old new]");
    expect_error("{:type :invoke, :f :write, :value 5, :process 0}\n"
                 "{:type :ok, :f :write, :value 5, :process 0}\n",
                 ISOLDE_WORKLOAD_KV, 2, 1, "[key value]");
}

static void test_witness(void **state)
{
    (void)state;
    isolde_history *h = tu_read(bad_read, ISOLDE_FORMAT_EDN);
    isolde_check_opts o;
    struct run run;
    opts_for(&o, ISOLDE_WORKLOAD_CAS_REGISTER);
    run_check(&run, h, &o);
    const struct lin_witness *w = &run.lin->w[0];
    assert_int_equal(run.lin->n_w, 1);
    assert_int_equal(w->n_before, 1);          /* write 0, before a quiescent point */
    assert_string_equal(w->init_edn, "0");
    assert_string_equal(w->blocking.f, "read");
    assert_string_equal(w->blocking.value_edn, "3");
    assert_int_equal(w->blocking.ret.index, 4);
    int saw_read = 0;
    for (size_t i = 0; i < w->n_stuck; i++)
        if (strcmp(w->stuck[i].value_edn, "3") == 0) {
            saw_read = 1;
            assert_non_null(strstr(w->stuck[i].why, "cannot read 3 when the state is"));
        }
    assert_true(saw_read);
    char *text = written(run.r, 0), *json = written(run.r, 1);
    assert_non_null(strstr(text, "NOT linearizable"));
    assert_non_null(strstr(text, "cannot read 3 when the state is"));
    assert_non_null(strstr(json, "\"valid?\":false"));
    assert_non_null(strstr(json, "\"linearizable-prefix\":["));
    assert_non_null(strstr(json, "\"op\":{\"process\":1,\"f\":\"read\",\"value\":3"));
    free(text);
    free(json);
    run_release(&run);
    isolde_history_free(h);
}

/* 18 overlapping writes of distinct values, then (after a quiescent point)
 * reads of two of them: every end state of the writes must be collected,
 * which takes 2^18 configurations, so a 30 ms budget ends in unknown. */
static void test_timeout(void **state)
{
    (void)state;
    iso_buf b = {0};
    for (int p = 0; p < 18; p++)
        iso_buf_printf(&b, "{:type :invoke, :f :write, :value %d, :process %d}\n", p, p);
    iso_buf_puts(&b, "{:type :invoke, :f :read, :value nil, :process 98}\n");
    for (int p = 0; p < 18; p++)
        iso_buf_printf(&b, "{:type :ok, :f :write, :value %d, :process %d}\n", p, p);
    iso_buf_puts(&b, "{:type :ok, :f :read, :value 7, :process 98}\n");
    iso_buf_puts(&b, "{:type :invoke, :f :read, :value nil, :process 99}\n"
                     "{:type :ok, :f :read, :value 5, :process 99}\n"
                     "{:type :invoke, :f :read, :value nil, :process 99}\n"
                     "{:type :ok, :f :read, :value 3, :process 99}\n");
    isolde_history *h = tu_read(iso_buf_cstr(&b), ISOLDE_FORMAT_EDN);
    isolde_check_opts o;
    struct run run;
    opts_for(&o, ISOLDE_WORKLOAD_REGISTER);
    o.timeout_ms = 30;
    run_check(&run, h, &o);
    assert_int_equal(run.r->validity, ISOLDE_UNKNOWN);
    assert_string_equal(run.lin->reason, "timeout");
    char *json = written(run.r, 1);
    assert_non_null(strstr(json, "\"valid?\":\"unknown\""));
    free(json);
    run_release(&run);
    isolde_history_free(h);
    iso_buf_free(&b);
}

/* ---- the corpus ------------------------------------------------------ */

static int corpus_row(char *line, char **path, isolde_workload *w, int *valid)
{
    char *f[5] = {0};
    int n = 0;
    for (char *p = line; n < 5 && p; n++) {
        f[n] = p;
        p = strchr(p, '\t');
        if (p) *p++ = 0;
    }
    if (n < 4 || (!strstr(f[0], "knossos/") && !strstr(f[0], "/cas-"))) return 0;
    if (strcmp(f[1], "cas-register") == 0) *w = ISOLDE_WORKLOAD_CAS_REGISTER;
    else if (strcmp(f[1], "mutex") == 0) *w = ISOLDE_WORKLOAD_MUTEX;
    else return 0;
    *path = f[0];
    *valid = strncmp(f[3], "true", 4) == 0;
    return 1;
}

static void test_corpus(void **state)
{
    (void)state;
    const char *shared = tu_shared_dir();
    if (!shared) skip();
    char tsv[512], line[4096];
    snprintf(tsv, sizeof tsv, "%s/corpus/elle/EXPECTED.tsv", shared);
    FILE *f = fopen(tsv, "r");
    assert_non_null(f);
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        char *rel, path[1024];
        isolde_workload w;
        int valid;
        line[strcspn(line, "\n")] = 0;
        if (strncmp(line, "(missing)", 9) == 0 || !corpus_row(line, &rel, &w, &valid)) continue;
        snprintf(path, sizeof path, "%s/corpus/elle/%s", shared, rel);
        isolde_history *h = NULL;
        isolde_error err = {0};
        if (isolde_history_read_file(path, tu_fmt(ISOLDE_FORMAT_AUTO), &h, &err))
            fail_msg("%s:%ld:%ld: %s", err.file, err.line, err.col, err.msg);
        isolde_check_opts o;
        struct run run;
        opts_for(&o, w);
        run_check(&run, h, &o);
        assert_int_equal(run.rc, 0);
        if (run.r->validity != (valid ? ISOLDE_VALID : ISOLDE_INVALID))
            fail_msg("%s: expected %s, got %d", rel, valid ? "valid" : "invalid", run.r->validity);
        run_release(&run);
        isolde_history_free(h);
        checked++;
    }
    fclose(f);
    assert_int_equal(checked, 12);
}

static void test_data_cases(void **state)
{
    (void)state;
    tc_dir("tests/data/linear");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_cases),
        cmocka_unit_test(test_register_verdicts),
        cmocka_unit_test(test_cas_fail_modes),
        cmocka_unit_test(test_other_models),
        cmocka_unit_test(test_kv_partitions),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_witness),
        cmocka_unit_test(test_timeout),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
