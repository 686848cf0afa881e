/* test_result.c -- result/result.c: a result of any kind, its accessors,
 * and the findings walk through its kind: each finding of the asked run
 * once, in order, numbered within its type; none past a type's count; an
 * unknown type a usage error. Then the walk of real results of each
 * checker kind, through isolde_check. */
#include "testutil.h"
#include "result/result.h"

#include <stdlib.h>

/* A kind whose findings say what they are: "k:i". */
static size_t fake_each(const isolde_result *r, size_t k, size_t first, size_t n, iso_show_fn show, void *arg)
{
    (void)r;
    for (size_t i = 0; i < n; i++) {
        char text[32];
        snprintf(text, sizeof text, "%zu:%zu", k, first + i);
        show(arg, i, text, "{}");
    }
    return n;
}

static const iso_result_kind fake = {"fake", NULL, NULL, NULL, NULL, fake_each, NULL};

typedef struct seen {
    char got[512];
} seen;

static void note(void *arg, size_t i, const char *text, const char *json)
{
    seen *s = arg;
    size_t n = strlen(s->got);
    snprintf(s->got + n, sizeof s->got - n, "%s%zu=%s%s", n ? " " : "", i, text, json);
}

static void walks_the_asked_run_of_a_type(void **state)
{
    (void)state;
    isolde_result *r = iso_result_new(&fake, NULL, ISOLDE_INVALID, "G0", 5);
    seen s = {""};
    assert_int_equal(isolde_result_findings(r, "G0", 1, 3, note, &s, NULL), ISOLDE_OK);
    assert_string_equal(s.got, "1=0:1{} 2=0:2{} 3=0:3{}");
    s.got[0] = 0;
    assert_int_equal(isolde_result_findings(r, "G0", 3, 100, note, &s, NULL), ISOLDE_OK);
    assert_string_equal(s.got, "3=0:3{} 4=0:4{}");
    s.got[0] = 0;
    assert_int_equal(isolde_result_findings(r, "G0", 9, 1, note, &s, NULL), ISOLDE_OK);
    assert_string_equal(s.got, "");
    isolde_error err;
    assert_int_equal(isolde_result_findings(r, "G1c", 0, 1, note, &s, &err), ISOLDE_ERR_USAGE);
    assert_non_null(strstr(err.msg, "G1c"));
    assert_int_equal(isolde_result_findings(r, NULL, 0, 1, note, &s, NULL), ISOLDE_ERR_USAGE);
    assert_int_equal(isolde_result_instance_count(r, "G0"), 5);
    isolde_result_free(r);
}

/* Findings walked: how many, each numbered in turn, with words and JSON. */
static void counted(void *arg, size_t i, const char *text, const char *json)
{
    size_t *n = arg;
    assert_int_equal(i, *n);
    assert_true(text[0] && json[0]);
    ++*n;
}

/* Every finding of every type of h checked as w: as many as counted. */
static void walk_all(const char *history, isolde_workload w, size_t want_types)
{
    isolde_history *h;
    isolde_result *r;
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.workload = w;
    assert_int_equal(isolde_history_read_mem("h", history, strlen(history), NULL, &h, NULL), ISOLDE_OK);
    assert_int_equal(isolde_check(h, &o, &r, NULL), ISOLDE_OK);
    assert_int_equal(isolde_result_type_count(r), want_types);
    for (size_t k = 0; k < isolde_result_type_count(r); k++) {
        const char *type = isolde_result_type(r, k);
        size_t n = 0;
        assert_int_equal(isolde_result_findings(r, type, 0, SIZE_MAX, counted, &n, NULL), ISOLDE_OK);
        assert_int_equal(n, isolde_result_instance_count(r, type));
    }
    isolde_result_free(r);
    isolde_history_free(h);
}

static void walks_every_kind(void **state)
{
    (void)state;
    walk_all("{:type :ok, :process 0, :value [[:append :x 1] [:r :y [1]]]}\n"
             "{:type :ok, :process 1, :value [[:append :y 1] [:r :x [1]]]}\n", ISOLDE_WORKLOAD_LIST_APPEND, 1);
    walk_all("{:type :invoke, :process 0, :f :write, :value 1}\n{:type :ok, :process 0, :f :write, :value 1}\n"
             "{:type :invoke, :process 1, :f :read, :value nil}\n{:type :ok, :process 1, :f :read, :value 2}\n",
             ISOLDE_WORKLOAD_REGISTER, 1);
    walk_all("{:type :ok, :process 0, :f :read, :value {0 10, 1 10}}\n"
             "{:type :ok, :process 0, :f :read, :value {0 10, 1 11}}\n", ISOLDE_WORKLOAD_BANK, 1);
    walk_all("\n", ISOLDE_WORKLOAD_LIST_APPEND, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walks_the_asked_run_of_a_type),
        cmocka_unit_test(walks_every_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
