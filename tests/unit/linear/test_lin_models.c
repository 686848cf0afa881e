/*
 * test_lin_models.c -- what issue 11 added to the linearizability checker,
 * through isolde_check as a library user calls it: initial values
 * (--initial-value) matched against the history's values in EDN and JSON,
 * per key; Knossos's multi-register and Porcupine's kv (with its :key
 * field); the model inferred from the ops; and the witness's naming, its
 * earlier ops and its words for a failed cas.
 */
#include "testutil.h"
#include "result/result.h"
#include "linear/lin.h"

struct run {
    isolde_history *h;
    isolde_result *r;
    isolde_error err;
    isolde_status rc;
};

/* Check text (format f) as workload w (AUTO: inferred), with initial. */
static void run(struct run *x, const char *text, isolde_format f, isolde_workload w,
                const char *initial)
{
    isolde_check_opts o;
    char kv[1024];
    const char *given[] = {kv};
    memset(x, 0, sizeof *x);
    x->h = tu_read(text, f);
    isolde_check_opts_init(&o);
    o.workload = w;
    snprintf(kv, sizeof kv, "initial-value=%s", initial ? initial : "");
    o.checker_opts = given;
    o.n_checker_opts = initial != NULL;
    x->rc = isolde_check(x->h, &o, &x->r, &x->err);
}

static void done(struct run *x)
{
    isolde_result_free(x->r);
    isolde_history_free(x->h);
}

static isolde_validity verdict(const char *text, isolde_format f, isolde_workload w,
                               const char *initial)
{
    struct run x;
    run(&x, text, f, w, initial);
    if (x.rc) fail_msg("check failed: %s:%ld:%ld: %s", x.err.file, x.err.line, x.err.col, x.err.msg);
    isolde_validity v = isolde_result_validity(x.r);
    done(&x);
    return v;
}

static const struct lin_report *lin(const struct run *x) { return x->r->payload; }

#define EDN ISOLDE_FORMAT_EDN
#define JSONL ISOLDE_FORMAT_JSONL

static const char *read0 =
    "{:type :invoke, :f :read, :process 0}\n{:type :ok, :f :read, :value 0, :process 0}\n"
    "{:type :invoke, :f :write, :value 1, :process 1}\n{:type :ok, :f :write, :value 1, :process 1}\n";

static void test_initial_register(void **state)
{
    (void)state;
    assert_int_equal(verdict(read0, EDN, ISOLDE_WORKLOAD_REGISTER, NULL), ISOLDE_INVALID);
    assert_int_equal(verdict(read0, EDN, ISOLDE_WORKLOAD_REGISTER, "0"), ISOLDE_VALID);
    assert_int_equal(verdict(read0, EDN, ISOLDE_WORKLOAD_CAS_REGISTER, " 0 "), ISOLDE_VALID);
    /* a value the history lacks gets its own id, and the witness shows it */
    struct run x;
    run(&x, read0, EDN, ISOLDE_WORKLOAD_REGISTER, "[:a \"b\"]");
    assert_int_equal(x.rc, 0);
    assert_int_equal(isolde_result_validity(x.r), ISOLDE_INVALID);
    assert_string_equal(lin(&x)->w[0].init_edn, "[:a \"b\"]");
    assert_string_equal(lin(&x)->w[0].init_json, "[\"a\",\"b\"]");
    done(&x);
    /* a composite the history has matches it */
    const char *pair = "{:type :invoke, :f :read, :process 0}\n"
                       "{:type :ok, :f :read, :value [1 2], :process 0}\n";
    assert_int_equal(verdict(pair, EDN, ISOLDE_WORKLOAD_REGISTER, "[1 2]"), ISOLDE_VALID);
}

static void test_initial_names(void **state)
{
    (void)state;
    /* keywords and strings are different values, as the history has them */
    const char *kw = "{:type :invoke, :f :read, :process 0}\n{:type :ok, :f :read, :value :a, :process 0}\n";
    assert_int_equal(verdict(kw, EDN, ISOLDE_WORKLOAD_REGISTER, ":a"), ISOLDE_VALID);
    assert_int_equal(verdict(kw, EDN, ISOLDE_WORKLOAD_REGISTER, "\"a\""), ISOLDE_INVALID);
    /* JSON histories take a JSON value */
    const char *js = "{\"type\":\"invoke\",\"f\":\"read\",\"process\":0}\n"
                     "{\"type\":\"ok\",\"f\":\"read\",\"value\":\"a\",\"process\":0}\n";
    assert_int_equal(verdict(js, JSONL, ISOLDE_WORKLOAD_REGISTER, "\"a\""), ISOLDE_VALID);
    assert_int_equal(verdict(js, JSONL, ISOLDE_WORKLOAD_REGISTER, "\"b\""), ISOLDE_INVALID);
    /* big integers are kept exactly */
    const char *big = "{:type :invoke, :f :read, :process 0}\n"
                      "{:type :ok, :f :read, :value 123456789012345678901, :process 0}\n";
    assert_int_equal(verdict(big, EDN, ISOLDE_WORKLOAD_REGISTER, "123456789012345678901"), ISOLDE_VALID);
}

static const char *kv =
    "{:type :invoke, :f :read, :value [:x nil], :process 0}\n{:type :ok, :f :read, :value [:x 0], :process 0}\n"
    "{:type :invoke, :f :read, :value [:y nil], :process 0}\n{:type :ok, :f :read, :value [:y 5], :process 0}\n";

static void test_initial_per_key(void **state)
{
    (void)state;
    assert_int_equal(verdict(kv, EDN, ISOLDE_WORKLOAD_KV, "{:x 0, :y 5}"), ISOLDE_VALID);
    assert_int_equal(verdict(kv, EDN, ISOLDE_WORKLOAD_KV, "{:x 0, :y 5, :z 9}"), ISOLDE_VALID);
    struct run x;
    run(&x, kv, EDN, ISOLDE_WORKLOAD_KV, "{:y 5}"); /* x starts at nil */
    assert_int_equal(x.rc, 0);
    assert_int_equal(lin(&x)->n_invalid, 1);
    assert_string_equal(lin(&x)->w[0].key_edn, ":x");
    assert_string_equal(lin(&x)->w[0].init_edn, "nil");
    done(&x);
    run(&x, kv, EDN, ISOLDE_WORKLOAD_KV, "0"); /* every key */
    assert_int_equal(lin(&x)->n_invalid, 1);
    assert_string_equal(lin(&x)->w[0].key_edn, ":y");
    done(&x);
}

static void expect_option_error(const char *text, isolde_workload w, const char *initial,
                                isolde_status status, const char *msg)
{
    struct run x;
    run(&x, text, EDN, w, initial);
    assert_int_equal(x.rc, status);
    if (!strstr(x.err.msg, msg)) fail_msg("message '%s' lacks '%s'", x.err.msg, msg);
    done(&x);
}

static void test_initial_errors(void **state)
{
    (void)state;
    expect_option_error(read0, ISOLDE_WORKLOAD_REGISTER, "[1", ISOLDE_ERR_PARSE, "");
    expect_option_error(read0, ISOLDE_WORKLOAD_REGISTER, "1 2", ISOLDE_ERR_PARSE, "the end of the value");
    expect_option_error(read0, ISOLDE_WORKLOAD_REGISTER, "", ISOLDE_ERR_PARSE, "a value");
    const char *mutex = "{:type :invoke, :f :acquire, :process 0}\n{:type :ok, :f :acquire, :process 0}\n";
    expect_option_error(mutex, ISOLDE_WORKLOAD_MUTEX, "0", ISOLDE_ERR_USAGE, "register models");
    const char *get = "{:type :invoke, :f :get, :key \"k\", :process 0}\n"
                      "{:type :ok, :f :get, :key \"k\", :value \"\", :process 0}\n";
    expect_option_error(get, ISOLDE_WORKLOAD_PORCUPINE_KV, "0", ISOLDE_ERR_USAGE, "must be a string");
    struct run x;
    run(&x, read0, EDN, ISOLDE_WORKLOAD_REGISTER, "[1");
    assert_string_equal(x.err.file, "--initial-value");
    done(&x);
}

static const char *multi =
    "{:type :invoke, :f :txn, :value [[:write :x 1] [:write :y 1]], :process 0}\n"
    "{:type :invoke, :f :txn, :value [[:read :x nil] [:read :y nil]], :process 1}\n"
    "{:type :ok, :f :txn, :value [[:read :x 0] [:read :y 0]], :process 1}\n"
    "{:type :ok, :f :txn, :value [[:write :x 1] [:write :y 1]], :process 0}\n"
    "{:type :invoke, :f :txn, :value [[:write :x 2] [:read :x nil]], :process 1}\n"
    "{:type :ok, :f :txn, :value [[:write :x 2] [:read :x 2]], :process 1}\n"
    "{:type :invoke, :f :txn, :value [[:read :y nil]], :process 2}\n"
    "{:type :info, :f :txn, :value [[:read :y nil]], :process 2}\n"
    "{:type :invoke, :f :txn, :value [[:write :y 7]], :process 2}\n"
    "{:type :fail, :f :txn, :value [[:write :y 7]], :process 2}\n";

static void test_multi_register(void **state)
{
    (void)state;
    assert_int_equal(verdict(multi, EDN, ISOLDE_WORKLOAD_MULTI_REGISTER, NULL), ISOLDE_INVALID);
    assert_int_equal(verdict(multi, EDN, ISOLDE_WORKLOAD_MULTI_REGISTER, "{:x 0 :y 0}"), ISOLDE_VALID);
    assert_int_equal(verdict(multi, EDN, ISOLDE_WORKLOAD_MULTI_REGISTER, "0"), ISOLDE_VALID);
    assert_int_equal(verdict(multi, EDN, ISOLDE_WORKLOAD_AUTO, "0"), ISOLDE_VALID);
    /* a transaction's read sees its own write: reading 1 after writing 2 is not */
    char *bad = strdup(multi);
    memcpy(strstr(bad, "[:read :x 2]") + 10, "1", 1);
    assert_int_equal(verdict(bad, EDN, ISOLDE_WORKLOAD_MULTI_REGISTER, "0"), ISOLDE_INVALID);
    free(bad);
    /* r and w (Elle's spelling) are taken; other micro-ops are errors */
    const char *rw = "{:type :invoke, :f :txn, :value [[:w :x 1]], :process 0}\n"
                     "{:type :ok, :f :txn, :value [[:w :x 1]], :process 0}\n"
                     "{:type :invoke, :f :txn, :value [[:r :x nil]], :process 0}\n"
                     "{:type :ok, :f :txn, :value [[:r :x 1]], :process 0}\n";
    assert_int_equal(verdict(rw, EDN, ISOLDE_WORKLOAD_MULTI_REGISTER, NULL), ISOLDE_VALID);
    expect_option_error("{:type :invoke, :f :txn, :value [[:append :x 1]], :process 0}\n",
                        ISOLDE_WORKLOAD_MULTI_REGISTER, NULL, ISOLDE_ERR_PARSE, "[:read k v] or [:write k v]");
}

static const char *porcupine =
    "{:process 0, :type :invoke, :f :put, :key \"a\", :value \"x\"}\n"
    "{:process 1, :type :invoke, :f :append, :key \"a\", :value \"y\"}\n"
    "{:process 0, :type :ok, :f :put, :key \"a\", :value \"x\"}\n"
    "{:process 1, :type :ok, :f :append, :key \"a\", :value \"y\"}\n"
    "{:process 2, :type :invoke, :f :get, :key \"a\", :value nil}\n"
    "{:process 2, :type :ok, :f :get, :key \"a\", :value \"xy\"}\n"
    "{:process 2, :type :invoke, :f :get, :key \"b\", :value nil}\n"
    "{:process 2, :type :ok, :f :get, :key \"b\", :value \"\"}\n";

static void test_porcupine_kv(void **state)
{
    (void)state;
    assert_int_equal(verdict(porcupine, EDN, ISOLDE_WORKLOAD_PORCUPINE_KV, NULL), ISOLDE_VALID);
    assert_int_equal(verdict(porcupine, EDN, ISOLDE_WORKLOAD_AUTO, NULL), ISOLDE_VALID);
    /* the append before the put: the put leaves "x" */
    char *text = strdup(porcupine);
    memcpy(strstr(text, "\"xy\"}"), "\"x\" }", 5);
    assert_int_equal(verdict(text, EDN, ISOLDE_WORKLOAD_PORCUPINE_KV, NULL), ISOLDE_VALID);
    memcpy(strstr(text, "\"x\" }"), "\"yx\"}", 5);
    assert_int_equal(verdict(text, EDN, ISOLDE_WORKLOAD_PORCUPINE_KV, NULL), ISOLDE_INVALID);
    free(text);
    /* key b starts at "" unless the option says otherwise */
    struct run x;
    run(&x, porcupine, EDN, ISOLDE_WORKLOAD_PORCUPINE_KV, "{\"b\" \"q\"}");
    assert_int_equal(lin(&x)->n_invalid, 1);
    assert_string_equal(lin(&x)->w[0].key_edn, "\"b\"");
    assert_string_equal(lin(&x)->w[0].init_edn, "\"q\"");
    done(&x);
    /* the history folds :key into the value, for get / put / append only */
    isolde_history *h = tu_read("{:process 0, :type :invoke, :f :get, :key \"k\", :value nil}\n"
                                "{:process 0, :type :invoke, :f :txn, :key \"k\", :value 1}\n", EDN);
    iso_buf b = {0};
    iso_val_edn(&h->store, h->ops[0].value, &b);
    assert_string_equal(iso_buf_cstr(&b), "[\"k\" nil]");
    assert_true(iso_is_int(h->ops[1].value));
    iso_buf_free(&b);
    isolde_history_free(h);
}

static void expect_inferred(const char *text, isolde_format f, const char *model)
{
    struct run x;
    run(&x, text, f, ISOLDE_WORKLOAD_AUTO, NULL);
    if (x.rc) fail_msg("%s: %s", model, x.err.msg);
    assert_string_equal(lin(&x)->model, model);
    done(&x);
}

static void test_inference(void **state)
{
    (void)state;
    expect_inferred(read0, EDN, "register");
    expect_inferred("{:type :invoke, :f :cas, :value [1 2], :process 0}\n"
                    "{:type :ok, :f :cas, :value [1 2], :process 0}\n", EDN, "cas-register");
    expect_inferred("{:type :invoke, :f :write, :value [:x 1], :process 0}\n"
                    "{:type :invoke, :f :read, :value [:x nil], :process 1}\n", EDN, "kv");
    expect_inferred("{:type :invoke, :f :cas, :value [:k [1 2]], :process 0}\n"
                    "{:type :fail, :f :cas, :value [:k [1 2]], :process 0}\n", EDN, "kv");
    expect_inferred("{:type :invoke, :f :acquire, :process 0}\n", EDN, "mutex");
    expect_inferred("{:type :invoke, :f :enqueue, :value 1, :process 0}\n", EDN, "fifo-queue");
    expect_inferred(multi, EDN, "multi-register");
    expect_inferred(porcupine, EDN, "porcupine-kv");
    expect_inferred("INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2]\n", ISOLDE_FORMAT_JEPSEN_LOG,
                    "cas-register");
    /* no guess: an error naming the -m to try */
    expect_option_error("{:type :invoke, :f :add, :value 1, :process 0}\n"
                        "{:type :invoke, :f :read, :process 1}\n",
                        ISOLDE_WORKLOAD_AUTO, NULL, ISOLDE_ERR_USAGE,
                        "e.g. register, cas-register, kv, set, set-full, counter, lin-set, bank");
    expect_option_error("{:type :invoke, :f :frob, :value 1, :process 0}\n",
                        ISOLDE_WORKLOAD_AUTO, NULL, ISOLDE_ERR_USAGE, "(:frob): no model isolde checks has :frob");
    expect_option_error("{:type :invoke, :f :read, :process 0}\n{:type :ok, :f :read, :value 1, :process 0}\n",
                        ISOLDE_WORKLOAD_AUTO, NULL, ISOLDE_ERR_USAGE, "(:read): give -m");
}

static void test_witness_words(void **state)
{
    (void)state;
    /* a mutex's second acquire: the first is among the earlier ops */
    struct run x;
    run(&x, "{:type :invoke, :f :acquire, :process 0}\n{:type :ok, :f :acquire, :process 0}\n"
            "{:type :invoke, :f :acquire, :process 1}\n{:type :ok, :f :acquire, :process 1}\n",
        EDN, ISOLDE_WORKLOAD_MUTEX, NULL);
    const struct lin_witness *w = &lin(&x)->w[0];
    assert_int_equal(lin(&x)->naming, LIN_BY_LINE);
    assert_int_equal(w->n_before, 1);
    assert_int_equal(w->n_shown, 1);
    assert_string_equal(w->before_edn, "free");
    assert_int_equal(w->before[0].process, 0);
    assert_int_equal(w->before[0].call.line, 1);
    assert_int_equal(w->before[0].ret.line, 2);
    assert_null(w->before[0].value_edn); /* an acquire has no value to show */
    assert_string_equal(w->init_edn, "held");
    done(&x);
    /* a failed cas read as returning false says so */
    run(&x, "INFO  jepsen.util - 0\t:invoke\t:write\t1\nINFO  jepsen.util - 0\t:ok\t:write\t1\n"
            "INFO  jepsen.util - 1\t:invoke\t:cas\t[2 3]\nINFO  jepsen.util - 1\t:fail\t:cas\t[2 3]\n"
            "INFO  jepsen.util - 2\t:invoke\t:read\tnil\nINFO  jepsen.util - 2\t:ok\t:read\t2\n",
        ISOLDE_FORMAT_JEPSEN_LOG, ISOLDE_WORKLOAD_CAS_REGISTER, NULL);
    w = &lin(&x)->w[0];
    assert_int_equal(w->n_shown, 2);
    assert_int_equal(w->before[1].ret_type, ISO_OP_FAIL);
    assert_non_null(strstr(w->before[1].note, "returned false: the register did not hold 2"));
    assert_null(w->before[0].note);
    done(&x);
    /* :index in the file names ops */
    run(&x, "{:type :invoke, :f :read, :process 0, :index 7}\n{:type :ok, :f :read, :value 1, :process 0, :index 9}\n",
        EDN, ISOLDE_WORKLOAD_REGISTER, NULL);
    assert_int_equal(lin(&x)->naming, LIN_BY_INDEX);
    assert_int_equal(lin(&x)->w[0].blocking.ret.index, 9);
    done(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initial_register),
        cmocka_unit_test(test_initial_names),
        cmocka_unit_test(test_initial_per_key),
        cmocka_unit_test(test_initial_errors),
        cmocka_unit_test(test_multi_register),
        cmocka_unit_test(test_porcupine_kv),
        cmocka_unit_test(test_inference),
        cmocka_unit_test(test_witness_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
