/*
 * fuzz/fuzz_check.c -- check-<workload>: the input read (format detected),
 * checked as that workload, and the result walked and written in every
 * report format, through the public calls.
 *
 * The check's options come from the input's length (so that a mutation of
 * bytes keeps them): one of four sets of models, anomalies and
 * version-order evidence, and the linearizability reading of a failed CAS.
 * Each input is checked on one thread and on two. Budgets are short
 * (BUDGET_MS), so that an input is slow only where the library has no
 * budget: a timeout of the fuzzer, which is a finding.
 *
 * Promises checked: a check returns a result or a clean error that is no
 * usage error (the options here are all valid); one thread and two give
 * the same error or the same JSON result (unless a check took as long as
 * a budget, which may then have run out); the result's accessors answer
 * within range; the text, JSON, HTML and directory writers succeed; the JSON is
 * one well-formed document.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "fuzz.h"
#include "check/check.h"
#include "history/history.h"
#include "history/read_json.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The cycle search's budget per component and linearizability's in all:
 * a check that took less cannot have run out of either. */
#define BUDGET_MS 200

static isolde_workload workload;
static FILE *devnull;
static char dir[256]; /* the directory writer's, removed at exit */

static const char *arg_at(size_t i)
{
    const char *name = isolde_workload_name((isolde_workload)(i + 1));
    return strcmp(name, "?") == 0 ? NULL : name;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

static void remove_dir(void)
{
    nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static int select_workload(const char *arg)
{
    if (isolde_workload_parse(arg, &workload) != ISOLDE_OK) return -1;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/isolde-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    devnull = fopen("/dev/null", "w");
    if (!devnull || !mkdtemp(dir)) fuzz_fail("cannot make a scratch directory %s", dir);
    atexit(remove_dir);
    return 0;
}

/* The options for an input of len bytes. */
static void options(size_t len, isolde_check_opts *o)
{
    static const struct { const char *models, *anomalies; } sets[] = {
        {NULL, NULL},
        {"serializable,snapshot-isolation", "G1,lost-update"},
        {"", "G0,G-single-item-realtime,internal,garbage-read"},
        {"read-committed,strong-session-snapshot-isolation", "G2"},
    };
    unsigned v = (unsigned)(len % 4);
    isolde_check_opts_init(o);
    o->workload = workload;
    o->models = sets[v].models;
    o->anomalies = sets[v].anomalies;
    o->cycle_search_timeout_ms = BUDGET_MS;
    o->timeout_ms = BUDGET_MS;
    static const char *given[4]; /* the checker options, as long as the check runs */
    static const char *const cas[] = {NULL, "cas-fail=noop", "cas-fail=false"};
    size_t n = 0;
    if (v == 2) given[n++] = "wfr-keys";
    if (v >= 2) given[n++] = "sequential-keys";
    if (v == 3) given[n++] = "linearizable-keys";
    if (cas[(len / 4) % 3]) given[n++] = cas[(len / 4) % 3];
    o->checker_opts = given;
    o->n_checker_opts = n;
}

static void walk(const isolde_result *r)
{
    isolde_validity v = isolde_result_validity(r);
    if (v != ISOLDE_VALID && v != ISOLDE_INVALID && v != ISOLDE_UNKNOWN) fuzz_fail("validity %d", (int)v);
    for (size_t i = 0; i < isolde_result_type_count(r); i++) {
        const char *t = isolde_result_type(r, i);
        if (!t || !*t) fuzz_fail("anomaly type %zu has no name", i);
        isolde_result_instance_count(r, t);
    }
    for (size_t i = 0; i < isolde_result_not_count(r); i++)
        if (!isolde_result_not(r, i)) fuzz_fail("not %zu is NULL", i);
    for (size_t i = 0; i < isolde_result_also_not_count(r); i++)
        if (!isolde_result_also_not(r, i)) fuzz_fail("also-not %zu is NULL", i);
}

/* A history without one client op was not really read: it is never
 * valid (issue 11 item 1). Jepsen's checkers count ops whatever their
 * process (docs/CHECKERS.md), so for them the rule is: no op at all. */
static void no_verdict_without_ops(const isolde_history *h, const isolde_result *r)
{
    iso_buf why = {0};
    int none = iso_checker_of(workload)->kind == ISO_CHECKER_JEPSEN ? h->n_ops == 0
                                                                    : iso_history_no_client_op(h, &why);
    iso_buf_free(&why);
    if (none && isolde_result_validity(r) != ISOLDE_UNKNOWN)
        fuzz_fail("a history with no client op has validity %d, not unknown", (int)isolde_result_validity(r));
}

struct parse_call {
    const char *text;
    size_t len;
    isolde_error err;
};

static int parse_json(void *arg)
{
    struct parse_call *c = arg;
    iso_store s;
    iso_store_init(&s);
    iso_val v;
    int rc = iso_json_document(&s, "result", c->text, c->len, &v, &c->err);
    iso_store_free(&s);
    return rc;
}

/* r as JSON, which must be one well-formed document: a string to free. */
static char *json_of(isolde_result *r)
{
    isolde_error err = {0};
    char *json = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&json, &n);
    if (!f) fuzz_fail("open_memstream");
    isolde_status s = isolde_result_write_json(r, f, &err);
    fclose(f);
    if (s) fuzz_fail("write_json: %s", err.msg);
    struct parse_call c = {json, n, {0}};
    if (iso_guarded(parse_json, &c, &c.err) != 0)
        fuzz_fail("JSON result does not parse: %s\n%s", c.err.msg, json);
    return json;
}

static void write_text_dir_html(isolde_result *r)
{
    isolde_error err = {0};
    isolde_status s = isolde_result_write_text(r, devnull, NULL, &err);
    if (s) fuzz_fail("write_text: %s", err.msg);
    s = isolde_result_write_dir(r, dir, &err);
    if (s) fuzz_fail("write_dir: %s", err.msg);
    s = isolde_result_write_html(r, devnull, &err);
    if (s) fuzz_fail("write_html: %s", err.msg);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Check h with o on threads threads: *r the result, or NULL and err;
 * *late set when it took long enough for a budget to run out. */
static isolde_status check(const isolde_history *h, isolde_check_opts *o, int threads, isolde_result **r,
                           isolde_error *err, int *late)
{
    o->threads = threads;
    *r = (isolde_result *)o; /* must be set either way */
    double t0 = now();
    isolde_status s = isolde_check(h, o, r, err);
    *late |= now() - t0 >= BUDGET_MS / 1e3;
    if (s != ISOLDE_OK) fuzz_check_error("isolde_check", s, err, *r);
    if (s == ISOLDE_ERR_USAGE) fuzz_fail("isolde_check: usage error: %s", err->msg);
    return s;
}

/* The results of one thread and of two agree, unless a budget may have
 * run out (then cycles may be found or shortened in one and not the other). */
static void same_results(isolde_result *r1, isolde_result *r2, int late)
{
    char *j1 = json_of(r1), *j2 = json_of(r2);
    if (!late && strcmp(j1, j2) != 0) fuzz_fail("on one thread:\n%s\non two:\n%s", j1, j2);
    free(j1);
    free(j2);
}

static void test(const uint8_t *data, size_t len)
{
    isolde_history *h = NULL;
    isolde_error err = {0}, e1 = {0}, e2 = {0};
    isolde_status s = isolde_history_read_mem("fuzz", (const char *)data, len, NULL, &h, &err);
    if (s != ISOLDE_OK) {
        fuzz_check_error("isolde_history_read_mem", s, &err, h);
        return;
    }
    isolde_check_opts o;
    options(len, &o);
    isolde_result *r1, *r2;
    int late = 0;
    isolde_status s1 = check(h, &o, 1, &r1, &e1, &late), s2 = check(h, &o, 2, &r2, &e2, &late);
    if (s1 != s2 || (s1 && strcmp(e1.msg, e2.msg) != 0))
        fuzz_fail("on one thread: %d %s; on two: %d %s", (int)s1, e1.msg, (int)s2, e2.msg);
    if (s1 == ISOLDE_OK) {
        walk(r1);
        no_verdict_without_ops(h, r1);
        same_results(r1, r2, late);
        write_text_dir_html(r1);
    }
    isolde_result_free(r1);
    isolde_result_free(r2);
    isolde_history_free(h);
}

const struct fuzz_kind fuzz_check_kind = {"check", arg_at, select_workload, test};
