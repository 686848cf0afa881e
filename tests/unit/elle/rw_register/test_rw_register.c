/*
 * test_rw_register.c -- the rw-register workload (lib/elle/rw_register):
 * the cases of tests/data/rw_register (Elle's own rw_register_test.clj
 * histories, version-order sources and their cyclic cases, the reduction
 * of the version graph, workload errors, the transaction order), each
 * through the library as its header says (tests/data/README; the CLI's
 * side is tests/cli/t3000-rw-register.sh) and, for its edge: lines,
 * through analyze() to the edges it draws; explanations of version-order
 * steps; the --transaction-order reader (txn_order.c); random histories.
 */
#include "cases.h"
#include "check/check.h"
#include "elle/elle.h"
#include "elle/proof.h"
#include "elle/rw_register/rw_register_int.h"
#include "elle/rw_register/txn_order.h"

#include <stdlib.h>

typedef struct fx {
    isolde_history *h;
    isolde_check_opts o;
    iso_checker_opts co; /* the workload's options, read from o */
    iso_ctx ctx;
    isolde_error err;
    int rc;
} fx;

/* Read an EDN history, pair it and run analyze() with o's options; render
 * the findings that wait for a report (cyclic-versions). */
/* The workload's own renderer, as a report calls it, so tests read a
 * pending finding's text (the search's findings are none of its own). */
static void render_here(const iso_proof_ctx *pc, iso_finding *f)
{
    if (!iso_finding_pending(f) || f->source != ISO_FS_RENDER) return;
    iso_fb b = {{0}, {0}};
    f->render(pc, f->arg, &b);
    f->json = iso_xstrndup(iso_buf_cstr(&b.json), b.json.n);
    f->text = iso_xstrndup(iso_buf_cstr(&b.text), b.text.n);
    iso_buf_free(&b.text);
    iso_buf_free(&b.json);
}

/* analyze() on h (taken) with o's options (NULL: the defaults). */
static fx *run_history(isolde_history *h, const isolde_check_opts *o)
{
    fx *f = calloc(1, sizeof *f);
    f->h = h;
    if (o) f->o = *o;
    else isolde_check_opts_init(&f->o);
    assert_int_equal(iso_checker_opts_of(&f->o, &f->co, &f->err), 0);
    f->ctx.pc.h = f->h;
    f->ctx.opts = &f->o;
    f->ctx.co = &f->co;
    f->ctx.pc.wl = &iso_rw_register_ops;
    /* strict pairing; lenient (completions alone) when it is ambiguous */
    if (iso_txns_pair(f->h, 1, &f->ctx.pc.txns, &f->err) != 0)
        assert_int_equal(iso_txns_pair(f->h, 0, &f->ctx.pc.txns, &f->err), 0);
    f->rc = iso_rw_register_ops.analyze(&f->ctx, &f->err);
    for (size_t i = 0; i < f->ctx.findings.n; i++) render_here(&f->ctx.pc, &f->ctx.findings.f[i]);
    return f;
}

static fx *run(const char *edn, const isolde_check_opts *o) { return run_history(tu_read(edn, ISOLDE_FORMAT_EDN), o); }

/* analyze() on a case file of tests/data/rw_register, with the options of
 * its header's run [b, e). */
static fx *run_case(const case_file *cf, size_t b)
{
    tc_opts o;
    char why[256];
    isolde_history *h = NULL;
    isolde_error err = {0};
    if (tc_parse(cf->lines[b].key == CK_CHECK ? cf->lines[b].value : NULL, &o, why, sizeof why))
        fail_msg("%s: %s", cf->from, why);
    if (isolde_history_read_file(cf->path, &o.read, &h, &err)) fail_msg("%s: %s", cf->path, err.msg);
    return run_history(h, &o.check);
}

static void done(fx *f)
{
    iso_proof_ctx_free(&f->ctx.pc);
    iso_findings_free(&f->ctx.findings);
    iso_edges_free(&f->ctx.edges);
    isolde_history_free(f->h);
    free(f);
}

/* The bits of a -> b, hubs standing for their pairs (ISOLDE_HUB_MIN=0
 * makes every group a hub). */
static uint8_t edge(fx *f, uint32_t a, uint32_t b)
{
    iso_graph g;
    iso_graph_build(&g, (uint32_t)f->ctx.pc.txns.n, &f->ctx.edges);
    uint8_t bits = iso_graph_edge(&g, a, b);
    iso_graph_free(&g);
    return bits;
}

/* The check's options with rw-register's own given as flags and a file
 * (the strings live until the next call). */
static isolde_check_opts opts(int wfr, int seq, int lin, const char *order)
{
    static char order_opt[4096];
    static const char *list[4];
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    size_t n = 0;
    if (wfr) list[n++] = "wfr-keys";
    if (seq) list[n++] = "sequential-keys";
    if (lin) list[n++] = "linearizable-keys";
    if (order) snprintf(order_opt, sizeof order_opt, "transaction-order=%s", order), list[n++] = order_opt;
    o.checker_opts = list;
    o.n_checker_opts = n;
    return o;
}

/* ---- transaction order ------------------------------------------------------ */

/* ---- the cases of tests/data/rw_register ------------------------------ */

#define CASES "tests/data/rw_register"

/* The bits "wr", "ww+wr" or "none" name; -1 for none of those. */
static int edge_bits(const char *s)
{
    static const struct { const char *name; int bit; } kinds[] = {
        {"ww", ISO_EDGE_WW}, {"wr", ISO_EDGE_WR}, {"rw", ISO_EDGE_RW}};
    int bits = 0;
    if (strcmp(s, "none") == 0) return 0;
    for (const char *p = s; *p; p += *p == '+') {
        size_t k = 0;
        while (k < 3 && strncmp(p, kinds[k].name, 2) != 0) k++;
        if (k == 3) return -1;
        bits |= kinds[k].bit;
        p += 2;
    }
    return bits;
}

/* One edge: line of a run against the graph analyze() drew: "none" (no
 * edge at all) or "A B KINDS" (the bits from transaction A to B). */
static int check_edge(fx *f, const case_file *cf, const case_line *l)
{
    unsigned a, b;
    char kinds[32];
    if (strcmp(l->value, "none") == 0)
        return f->ctx.edges.n ? case_differs(stderr, cf, l, "got %zu edges", f->ctx.edges.n) : 0;
    int want = sscanf(l->value, "%u %u %31s", &a, &b, kinds) == 3 ? edge_bits(kinds) : -1;
    if (want < 0 || a >= f->ctx.pc.txns.n || b >= f->ctx.pc.txns.n)
        return case_differs(stderr, cf, l, "not \"A B KINDS\" of transactions 0 to %zu", f->ctx.pc.txns.n - 1);
    int got = edge(f, a, b) & ISO_EDGE_DATA;
    return got != want ? case_differs(stderr, cf, l, "got bits %d (ww 1, wr 2, rw 4)", got) : 0;
}

/* A run's edge: lines, through analyze(). */
static int check_edges(const case_file *cf, size_t b, size_t e)
{
    const case_line *first = case_find(cf, b, e, CK_EDGE);
    if (!first) return 0;
    fx *f = run_case(cf, b);
    int bad = f->rc ? case_differs(stderr, cf, first, "analyze() failed: %s", f->err.msg) : 0;
    for (size_t i = b; !f->rc && i < e; i++)
        if (cf->lines[i].key == CK_EDGE) bad += check_edge(f, cf, &cf->lines[i]);
    done(f);
    return bad;
}

static int each_case(const char *path, void *ctx)
{
    (void)ctx;
    case_file cf;
    size_t b, e;
    int bad = tc_file(path); /* a header refused says so there */
    if (case_read(&cf, path) == 0)
        for (size_t r = 0; case_run_bounds(&cf, r, &b, &e); r++) bad += check_edges(&cf, b, e);
    case_file_free(&cf);
    return bad > 0;
}

static void data_cases(void **state)
{
    (void)state;
    tc_edges_checked = 1;
    int bad = tc_each(CASES, each_case, NULL);
    if (bad) fail_msg("%d of the cases in %s disagree with their headers (named above)", bad, CASES);
}

/* analyze() on run r of a case file (its options). */
static fx *case_run(const char *name, size_t r)
{
    case_file cf;
    size_t b = 0, e;
    char path[256];
    snprintf(path, sizeof path, CASES "/%s", name);
    if (case_read(&cf, path) || !case_run_bounds(&cf, r, &b, &e)) fail_msg("%s: %s", path, cf.err);
    fx *f = run_case(&cf, b);
    case_file_free(&cf);
    return f;
}

/* ---- explanations and the transaction order ---------------------------- */

static void transaction_order_g_single(void **state)
{
    (void)state;
    fx *f = case_run("commit-order.edn", 1); /* with order/commit-order.json */
    assert_int_equal(f->rc, 0);
    iso_buf t = {0}, j = {0};
    iso_rw_register_ops.explain(&f->ctx.pc, 1, 0, ISO_EDGE_WW, "T2", "T1", &t, &j);
    assert_string_equal(iso_buf_cstr(&t), "T2 set key :y to 4, and T1 set it to 2, which came later in the version order");
    assert_string_equal(iso_buf_cstr(&j), "{\"type\":\"ww\",\"key\":\"y\",\"value\":4,\"value'\":2,\"a-mop-index\":1,\"b-mop-index\":1}");
    done(f);
    iso_buf_free(&t);
    iso_buf_free(&j);
}

static void transaction_order_g2(void **state)
{
    (void)state;
    fx *f = case_run("transaction-order-g2.edn", 0); /* with order/g2.json */
    assert_int_equal(f->rc, 0);
    iso_buf t = {0}, j = {0};
    iso_rw_register_ops.explain(&f->ctx.pc, 1, 2, ISO_EDGE_RW, "T1", "T2", &t, &j);
    assert_string_equal(iso_buf_cstr(&t), "T1 read key :x = 1, and T2 set it to 4, which came later in the version order");
    assert_string_equal(iso_buf_cstr(&j), "{\"type\":\"rw\",\"key\":\"x\",\"value\":1,\"value'\":4,\"a-mop-index\":0,\"b-mop-index\":1}");
    iso_buf_free(&t);
    iso_buf_free(&j);
    iso_rw_register_ops.explain(&f->ctx.pc, 0, 1, ISO_EDGE_WR, "T1", "T2", &t, &j);
    assert_string_equal(iso_buf_cstr(&t), "T1 wrote key :x = 1, which was read by T2");
    assert_string_equal(iso_buf_cstr(&j), "{\"type\":\"wr\",\"key\":\"x\",\"value\":1,\"a-mop-index\":0,\"b-mop-index\":0}");
    iso_buf_free(&t);
    iso_buf_free(&j);
    done(f);
}

static void transaction_order_file_errors(void **state)
{
    (void)state;
    iso_txn_rank *r;
    size_t n;
    isolde_error err = {0};
    static const char *const bad[] = {"[1, 2]", "{\"x\": 1}", "{\"1\": \"a\"}", "{\"1\": 1, \"1\": 2}",
                                      "{\"1\": 1", "{\"1\": 1} x", "", "{\" 1\": 1}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(iso_txn_order_parse("order.json", bad[i], strlen(bad[i]), &r, &n, &err), -1);
        assert_string_equal(err.file, "order.json");
    }
    assert_int_equal(iso_txn_order_parse("o", "{}", 2, &r, &n, &err), 0);
    assert_int_equal(n, 0);
    iso_free(r);
    const char *ok = " {\"5\": 2, \"-1\": 7.5}\n";
    assert_int_equal(iso_txn_order_parse("o", ok, strlen(ok), &r, &n, &err), 0);
    double rank;
    assert_int_equal(n, 2);
    assert_int_equal(iso_txn_order_find(r, n, -1, &rank), 1);
    assert_true(rank == 7.5);
    assert_int_equal(iso_txn_order_find(r, n, 5, &rank), 1);
    assert_true(rank == 2.0);
    assert_int_equal(iso_txn_order_find(r, n, 4, &rank), 0);
    iso_free(r);
    assert_int_equal(iso_txn_order_read("/nonexistent/order.json", &r, &n, &err), -1);
}

/* ---- random histories ------------------------------------------------------ */

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A serial execution: each transaction runs alone, in real time, on a
 * register store; reads see the latest write. Some transactions fail
 * (their writes never happen) or crash after taking effect. */
static char *serial_history(uint64_t seed, int n_txn, int keys)
{
    iso_buf b = {0};
    int64_t state[8] = {0}, next = 1;
    for (int t = 0; t < n_txn; t++) {
        int p = (int)(rng(&seed) % 3), n = 1 + (int)(rng(&seed) % 4), fail = rng(&seed) % 10 == 0;
        int info = !fail && rng(&seed) % 10 == 0;
        int64_t local[8];
        memcpy(local, state, sizeof local);
        iso_buf inv = {0}, cmp = {0};
        for (int j = 0; j < n; j++) {
            int k = (int)(rng(&seed) % (uint64_t)keys), w = (int)(rng(&seed) % 2);
            const char *sep = j ? "," : "";
            if (w) {
                local[k] = next++;
                iso_buf_printf(&inv, "%s[\"w\",%d,%lld]", sep, k, (long long)local[k]);
                iso_buf_printf(&cmp, "%s[\"w\",%d,%lld]", sep, k, (long long)local[k]);
            } else {
                iso_buf_printf(&inv, "%s[\"r\",%d,null]", sep, k);
                if (local[k]) iso_buf_printf(&cmp, "%s[\"r\",%d,%lld]", sep, k, (long long)local[k]);
                else iso_buf_printf(&cmp, "%s[\"r\",%d,null]", sep, k);
            }
        }
        if (!fail) memcpy(state, local, sizeof state);
        iso_buf_printf(&b, "{\"type\":\"invoke\",\"process\":%d,\"value\":[%s]}\n", p, iso_buf_cstr(&inv));
        iso_buf_printf(&b, "{\"type\":\"%s\",\"process\":%d,\"value\":[%s]}\n",
                       fail ? "fail" : info ? "info" : "ok", p, iso_buf_cstr(fail || info ? &inv : &cmp));
        iso_buf_free(&inv);
        iso_buf_free(&cmp);
    }
    return b.p;
}

/* Serial executions are valid under every model and every source of
 * version-order evidence: nothing isolde reports may contradict them (the
 * weak models' saturation included, which strict-serializable alone does
 * not run). */
static void serial_histories_are_valid(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 150; seed++) {
        char *text = serial_history(seed * 0x9e3779b97f4a7c15ull, 3 + (int)(seed % 30), 1 + (int)(seed % 4));
        isolde_history *h = tu_read(text, ISOLDE_FORMAT_JSONL);
        isolde_check_opts o = opts((int)(seed & 1), (int)(seed >> 1 & 1), (int)(seed >> 2 & 1), NULL);
        o.workload = ISOLDE_WORKLOAD_RW_REGISTER;
        o.models = "strict-serializable,causal,read-committed-be";
        isolde_result *r = NULL;
        isolde_error err = {0};
        assert_int_equal(isolde_check(h, &o, &r, &err), 0);
        isolde_validity v = isolde_result_validity(r);
        if (v == ISOLDE_INVALID) fail_msg("seed %llu: %s\n%s", (unsigned long long)seed, isolde_result_type(r, 0), text);
        isolde_result_free(r);
        isolde_history_free(h);
        iso_free(text);
    }
}

/* Arbitrary values, keys and shapes: analyze() either rejects the history
 * or produces edges between real transactions. */
static void random_shapes_never_crash(void **state)
{
    (void)state;
    static const char *const keys[] = {"1", "2", "\"a\"", ":k", "[1 2]", "nil", "99999999999999999999"};
    static const char *const vals[] = {"nil", "1", "2", "3", "\"s\"", "1.5", "[1]", "#{1}", "{:a 1}", "99999999999999999999"};
    for (uint64_t seed = 1; seed <= 300; seed++) {
        uint64_t s = seed * 0x2545f4914f6cdd1dull;
        iso_buf b = {0};
        int n = 1 + (int)(rng(&s) % 12);
        for (int t = 0; t < n; t++) {
            static const char *const types[] = {":ok", ":fail", ":info", ":invoke"};
            iso_buf_printf(&b, "{:process %d :type %s :value [", (int)(rng(&s) % 3), types[rng(&s) % 4]);
            for (int j = 0, m = (int)(rng(&s) % 5); j < m; j++)
                iso_buf_printf(&b, "[%s %s %s] ", rng(&s) % 2 ? ":r" : "\"w\"",
                               keys[rng(&s) % (seed % 7 == 0 ? 7 : 2)], vals[rng(&s) % 10]);
            iso_buf_puts(&b, "]}\n");
        }
        isolde_check_opts o = opts(1, 1, 1, NULL);
        fx *f = run(iso_buf_cstr(&b), &o);
        size_t nv = f->ctx.pc.txns.n + f->ctx.edges.n_hubs;
        for (size_t i = 0; f->rc == 0 && i < f->ctx.edges.n; i++) {
            assert_true(f->ctx.edges.e[i].src < nv);
            assert_true(iso_edge_dst(&f->ctx.edges.e[i]) < nv);
        }
        if (f->rc) assert_true(f->err.line >= 1);
        done(f);
        iso_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(data_cases),
        cmocka_unit_test(transaction_order_g_single),
        cmocka_unit_test(transaction_order_g2),
        cmocka_unit_test(transaction_order_file_errors),
        cmocka_unit_test(serial_histories_are_valid),
        cmocka_unit_test(random_shapes_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
