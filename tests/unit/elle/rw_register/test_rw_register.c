/*
 * test_rw_register.c -- the rw-register workload (lib/elle/rw_register) driven
 * directly through analyze(): edges and direct anomalies on Elle's own
 * rw_register_test.clj histories, version-order sources and their cyclic
 * cases, the reduction of the version graph, explanations, workload
 * errors, and the --transaction-order reader (txn_order.c).
 */
#include "testutil.h"
#include "elle/elle.h"
#include "elle/proof.h"
#include "elle/rw_register/rw_register_int.h"
#include "elle/rw_register/txn_order.h"

#include <stdlib.h>

typedef struct fx {
    isolde_history *h;
    isolde_check_opts o;
    iso_checker_opts co;
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

static fx *run(const char *edn, const iso_checker_opts *co)
{
    fx *f = calloc(1, sizeof *f);
    f->h = tu_read(edn, ISOLDE_FORMAT_EDN);
    isolde_check_opts_init(&f->o);
    if (co) f->co = *co;
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

static size_t count(const fx *f, int type)
{
    size_t n = 0;
    for (size_t i = 0; i < f->ctx.findings.n; i++) n += f->ctx.findings.f[i].type == type;
    return n;
}

/* The i-th finding of a type. */
static const iso_finding *nth(const fx *f, int type, size_t i)
{
    for (size_t j = 0; j < f->ctx.findings.n; j++)
        if (f->ctx.findings.f[j].type == type && i-- == 0) return &f->ctx.findings.f[j];
    fail_msg("too few findings of type %s", iso_anomaly_name(type));
    return NULL;
}

static const iso_finding *first(const fx *f, int type) { return nth(f, type, 0); }

static iso_checker_opts opts(int wfr, int seq, int lin, const char *order)
{
    iso_checker_opts o = {0};
    o.wfr_keys = wfr;
    o.sequential_keys = seq;
    o.linearizable_keys = lin;
    o.transaction_order = order;
    return o;
}

/* ---- wr and the initial state ---------------------------------------------- */

static void g1c_wr_edges(void **state)
{
    (void)state;
    fx *f = run("{:process 0 :type :ok :value [[:w :x 1] [:r :y 1]]}\n"
                "{:process 0 :type :ok :value [[:w :y 1] [:r :x 1]]}\n", NULL);
    assert_int_equal(f->rc, 0);
    assert_int_equal(edge(f, 0, 1), ISO_EDGE_WR);
    assert_int_equal(edge(f, 1, 0), ISO_EDGE_WR);
    assert_int_equal(f->ctx.findings.n, 0);
    done(f);
}

static void initial_state_g_single(void **state)
{
    (void)state;
    /* Elle's "initial state": nil precedes 2, so T0's read of nil is an
     * anti-dependency on T1's write; T1 -wr-> T0 on y closes the cycle. */
    fx *f = run("{:process 0 :type :invoke :value [[:r :x nil] [:r :y nil]]}\n"
                "{:process 1 :type :invoke :value [[:w :y 1] [:w :x 2]]}\n"
                "{:process 1 :type :ok :value [[:w :y 1] [:w :x 2]]}\n"
                "{:process 0 :type :ok :value [[:r :x nil] [:r :y 1]]}\n", NULL);
    assert_int_equal(f->rc, 0);
    assert_int_equal(edge(f, 0, 1), ISO_EDGE_RW);
    assert_int_equal(edge(f, 1, 0), ISO_EDGE_WR);
    done(f);
}

static void info_and_fail_writers(void **state)
{
    (void)state;
    /* wr edges come from ok writers only; info writes still order versions */
    fx *f = run("{:process 0 :type :invoke :value [[:w :x 1]]}\n"
                "{:process 0 :type :info :value [[:w :x 1]]}\n"
                "{:process 1 :type :ok :value [[:r :x 1]]}\n"
                "{:process 2 :type :ok :value [[:r :x nil]]}\n", NULL);
    assert_int_equal(f->rc, 0);
    assert_int_equal(f->ctx.edges.n, 0);
    assert_int_equal(f->ctx.findings.n, 0);
    done(f);
}

/* ---- direct anomalies ---------------------------------------------------- */

static void internal_cases(void **state)
{
    (void)state;
    fx *f = run("{:process 0 :type :ok :value [[:r :x 1] [:r :x 2]]}\n"
                "{:process 0 :type :ok :value [[:r :y nil] [:r :y 2]]}\n"
                "{:process 0 :type :ok :value [[:r :z 2] [:w :z 2] [:r :z 2] [:w :z 1] [:r :z 1]]}\n"
                "{:process 0 :type :ok :value [[:r :x 1] [:w :x 2] [:r :x 1]]}\n", NULL);
    assert_int_equal(count(f, ISO_A_INTERNAL), 3);
    const iso_finding *x = first(f, ISO_A_INTERNAL);
    assert_non_null(strstr(x->json, "\"mop\":[\"r\",\"x\",2],\"expected\":1"));
    assert_non_null(strstr(x->text, "T1 read key :x = 2, but earlier in T1 :x was 1"));
    assert_non_null(strstr(nth(f, ISO_A_INTERNAL, 1)->json, "\"expected\":null"));
    assert_non_null(strstr(nth(f, ISO_A_INTERNAL, 2)->json, "\"expected\":2"));
    done(f);
}

static void g1a_g1b(void **state)
{
    (void)state;
    fx *f = run("{:process 0 :type :ok :value [[:r :x 1]]}\n"
                "{:process 1 :type :fail :value [[:w :x 1]]}\n"
                "{:process 2 :type :ok :value [[:w :y 1] [:w :y 2] [:r :y 1]]}\n"
                "{:process 3 :type :ok :value [[:r :y 1]]}\n", NULL);
    assert_int_equal(f->rc, 0);
    assert_int_equal(count(f, ISO_A_G1A), 1);
    assert_int_equal(count(f, ISO_A_G1B), 1); /* not T2's read of its own write */
    const iso_finding *a = first(f, ISO_A_G1A);
    assert_non_null(strstr(a->json, "\"writer\":{\"index\":1"));
    assert_non_null(strstr(a->text, "T2 failed"));
    const iso_finding *b = first(f, ISO_A_G1B);
    assert_non_null(strstr(b->json, "{\"op\":{\"index\":3"));
    assert_non_null(strstr(b->text, "T2 then wrote key :y = 2"));
    assert_int_equal(count(f, ISO_A_INTERNAL), 1);
    done(f);
}

static void garbage_read(void **state)
{
    (void)state;
    /* Elle's "Read doesn't return what was just been written" (elle#8) */
    fx *f = run("{:process 0 :type :invoke :value [[:w :x 1]]}\n"
                "{:process 0 :type :ok :value [[:w :x 1]]}\n"
                "{:process 0 :type :invoke :value [[:r :x nil]]}\n"
                "{:process 0 :type :ok :value [[:r :x 2]]}\n", NULL);
    assert_int_equal(count(f, ISO_A_GARBAGE_READ), 1);
    const iso_finding *g = first(f, ISO_A_GARBAGE_READ);
    assert_non_null(strstr(g->text, "T1 read key :x = 2, but no transaction ever wrote 2 to key :x"));
    assert_non_null(strstr(g->json, "\"element\":2"));
    done(f);
}

static void lost_update(void **state)
{
    (void)state;
    fx *f = run("{:process 0 :type :ok :value [[:r :x 0] [:w :x 1]]}\n"
                "{:process 1 :type :ok :value [[:r :x 0] [:w :x 2]]}\n"
                "{:process 2 :type :ok :value [[:w :x 3] [:r :x 3] [:w :x 4]]}\n"
                "{:process 3 :type :ok :value [[:w :y 5] [:r :y 5] [:w :y 6]]}\n", NULL);
    assert_int_equal(count(f, ISO_A_LOST_UPDATE), 1);
    const iso_finding *l = first(f, ISO_A_LOST_UPDATE);
    assert_non_null(strstr(l->json, "{\"key\":\"x\",\"value\":0,\"txns\":[{\"index\":0"));
    assert_non_null(strstr(l->text, "T1 and T2 both read key :x = 0"));
    done(f);
}

/* ---- workload errors ------------------------------------------------------ */

static void duplicate_write(void **state)
{
    (void)state;
    fx *f = run("{:process 0 :type :ok :value [[:w :x 1]]}\n"
                "{:process 1 :type :ok :value [[:r :x 1]]}\n"
                "{:process 2 :type :fail :value [[:w :x 1]]}\n", NULL);
    assert_int_equal(f->rc, -1);
    assert_int_equal(f->err.line, 3);
    assert_non_null(strstr(f->err.msg, "Key :x had value 1 written by more than one op"));
    assert_non_null(strstr(f->err.msg, "op index 0 (line 1)"));
    done(f);
    /* rewriting one's own value within a transaction is fine */
    f = run("{:process 0 :type :ok :value [[:w :x 1] [:w :x 1]]}\n", NULL);
    assert_int_equal(f->rc, 0);
    done(f);
}

static void bad_workload(void **state)
{
    (void)state;
    fx *f = run("{:process 0 :type :ok :value [[:w :x 1]]}\n"
                "{:process 0 :type :ok :value [[:append :x 2]]}\n", NULL);
    assert_int_equal(f->rc, -1);
    assert_int_equal(f->err.line, 2);
    assert_non_null(strstr(f->err.msg, "micro-op [:append :x 2]"));
    done(f);
    f = run("{:process 0 :type :ok :value [[:w :x 1]]}\n"
            "{:process 0 :type :ok :value [[:w 1 2]]}\n", NULL);
    assert_int_equal(f->rc, -1);
    assert_non_null(strstr(f->err.msg, "keys of different types"));
    done(f);
    f = run("{:process 0 :type :ok :value 3}\n", NULL);
    assert_int_equal(f->rc, -1);
    done(f);
    /* [:r k] reads nil, as Elle's destructuring does */
    f = run("{:process 0 :type :invoke :value [[:r x]]}\n"
            "{:process 0 :type :ok :value [[:r x nil]]}\n", NULL);
    assert_int_equal(f->rc, 0);
    done(f);
}

/* ---- version-order sources -------------------------------------------------- */

static void wfr_keys(void **state)
{
    (void)state;
    const char *h = "{:process 0 :type :ok :value [[:r :y 1] [:w :x 1] [:w :y 2]]}\n"
                    "{:process 0 :type :ok :value [[:r :x 1] [:r :y 1]]}\n";
    fx *f = run(h, NULL);
    assert_int_equal(edge(f, 1, 0), 0);
    done(f);
    iso_checker_opts o = opts(1, 0, 0, NULL);
    f = run(h, &o);
    assert_int_equal(edge(f, 1, 0), ISO_EDGE_RW);
    assert_int_equal(edge(f, 0, 1), ISO_EDGE_WR);
    done(f);
}

static const char *g0_hist =
    "{:process 0 :type :invoke :value [[:w :x 1] [:w :y 2]]}\n"
    "{:process 0 :type :ok :value [[:w :x 1] [:w :y 2]]}\n"
    "{:process 1 :type :invoke :value [[:w :x 2] [:w :y 1]]}\n"
    "{:process 1 :type :ok :value [[:w :x 2] [:w :y 1]]}\n"
    "{:process 0 :type :invoke :value [[:r :x nil]]}\n"
    "{:process 0 :type :ok :value [[:r :x 2]]}\n"
    "{:process 1 :type :invoke :value [[:r :y nil]]}\n"
    "{:process 1 :type :ok :value [[:r :y 2]]}\n";

static void sequential_keys_g0(void **state)
{
    (void)state;
    iso_checker_opts o = opts(0, 1, 0, NULL);
    fx *f = run(g0_hist, &o);
    assert_int_equal(f->rc, 0);
    assert_int_equal(edge(f, 0, 1), ISO_EDGE_WW); /* x: 1 < 2 */
    assert_int_equal(edge(f, 1, 0), ISO_EDGE_WW); /* y: 1 < 2 */
    assert_int_equal(f->ctx.findings.n, 0);
    done(f);
    f = run(g0_hist, NULL);
    assert_int_equal(edge(f, 0, 1) | edge(f, 1, 0), 0);
    done(f);
}

static void sequential_cyclic(void **state)
{
    (void)state;
    iso_checker_opts o = opts(0, 1, 0, NULL);
    fx *f = run("{:process 0 :type :invoke :value [[:w :x 1]]}\n"
                "{:process 0 :type :ok :value [[:w :x 1]]}\n"
                "{:process 0 :type :invoke :value [[:w :x 2]]}\n"
                "{:process 0 :type :ok :value [[:w :x 2]]}\n"
                "{:process 0 :type :invoke :value [[:r :x nil]]}\n"
                "{:process 0 :type :ok :value [[:r :x 1]]}\n", &o);
    assert_int_equal(count(f, ISO_A_CYCLIC_VERSIONS), 1);
    const iso_finding *c = first(f, ISO_A_CYCLIC_VERSIONS);
    assert_string_equal(c->json, "{\"key\":\"x\",\"scc\":[1,2],\"sources\":[\"initial-state\",\"sequential-keys\"]}");
    assert_non_null(strstr(c->text, "1 < 2 < 1"));
    assert_int_equal(edge(f, 0, 1), 0); /* the sequential evidence was dropped */
    assert_int_equal(edge(f, 0, 2), ISO_EDGE_WR);
    done(f);
}

static void linearizable_scc_sort_bug(void **state)
{
    (void)state;
    /* Elle's scc-sort-bug-test: linearizable keys say 1 < nil and 3 < 4,
     * contradicting the initial state and wfr. */
    iso_checker_opts o = opts(1, 0, 1, NULL);
    fx *f = run("{:process 0 :type :invoke :value [[:r :x nil]]}\n"
                "{:process 0 :type :ok :value [[:r :x 1]]}\n"
                "{:process 0 :type :invoke :value [[:r :x nil]]}\n"
                "{:process 0 :type :ok :value [[:r :x nil]]}\n"
                "{:process 0 :type :invoke :value [[:r :x nil] [:w :x 3]]}\n"
                "{:process 0 :type :ok :value [[:r :x 4] [:w :x 3]]}\n"
                "{:process 0 :type :invoke :value [[:w :x 4]]}\n"
                "{:process 0 :type :ok :value [[:w :x 4]]}\n", &o);
    assert_int_equal(count(f, ISO_A_CYCLIC_VERSIONS), 2);
    assert_string_equal(nth(f, ISO_A_CYCLIC_VERSIONS, 0)->json,
                        "{\"key\":\"x\",\"scc\":[null,1],\"sources\":[\"initial-state\",\"wfr-keys\",\"linearizable-keys\"]}");
    assert_non_null(strstr(nth(f, ISO_A_CYCLIC_VERSIONS, 1)->json, "\"scc\":[3,4]"));
    assert_int_equal(edge(f, 3, 2), ISO_EDGE_WR | ISO_EDGE_WW); /* wfr: 4 < 3 */
    /* nil < 4 < 3: T1's nil read is an anti-dependency on 4's writer only */
    assert_int_equal(edge(f, 1, 3), ISO_EDGE_RW);
    assert_int_equal(edge(f, 1, 2), 0);
    assert_int_equal(count(f, ISO_A_GARBAGE_READ), 1);
    done(f);
}

static void linearizable_frontier(void **state)
{
    (void)state;
    /* T0 and T1 overlap; T2 starts after both completed; T3 after T2. */
    iso_checker_opts o = opts(0, 0, 1, NULL);
    fx *f = run("{:process 0 :type :invoke :value [[:w :x 1]]}\n"
                "{:process 1 :type :invoke :value [[:w :x 2]]}\n"
                "{:process 0 :type :ok :value [[:w :x 1]]}\n"
                "{:process 1 :type :ok :value [[:w :x 2]]}\n"
                "{:process 2 :type :invoke :value [[:w :x 3]]}\n"
                "{:process 2 :type :ok :value [[:w :x 3]]}\n"
                "{:process 3 :type :invoke :value [[:r :x nil]]}\n"
                "{:process 3 :type :ok :value [[:r :x 3]]}\n", &o);
    assert_int_equal(f->rc, 0);
    assert_int_equal(edge(f, 0, 1) | edge(f, 1, 0), 0);
    assert_int_equal(edge(f, 0, 2), ISO_EDGE_WW);
    assert_int_equal(edge(f, 1, 2), ISO_EDGE_WW);
    assert_int_equal(edge(f, 2, 3), ISO_EDGE_WR);
    assert_int_equal(f->ctx.findings.n, 0);
    done(f);
}

static void linearizable_cyclic_bug_is_valid(void **state)
{
    (void)state;
    /* Elle's cyclic-versions-bug-test: no cycle may be inferred here. */
    iso_checker_opts o = opts(0, 0, 1, NULL);
    fx *f = run("{:index 1 :process 0 :type :invoke :value []}\n"
                "{:index 2 :process 0 :type :ok :value []}\n"
                "{:index 3 :process 0 :type :invoke :value [[:r 1 nil]]}\n"
                "{:index 4 :process 1 :type :invoke :value [[:w 1 4]]}\n"
                "{:index 5 :process 2 :type :invoke :value []}\n"
                "{:index 320 :process 0 :type :ok :value [[:r 1 nil]]}\n"
                "{:index 322 :process 1 :type :ok :value [[:w 1 4]]}\n"
                "{:index 323 :process 2 :type :ok :value []}\n"
                "{:index 324 :process 0 :type :invoke :value []}\n"
                "{:index 325 :process 0 :type :ok :value []}\n"
                "{:index 326 :process 0 :type :invoke :value [[:r 1 nil]]}\n"
                "{:index 327 :process 0 :type :ok :value [[:r 1 4]]}\n", &o);
    assert_int_equal(f->rc, 0);
    assert_int_equal(f->ctx.findings.n, 0);
    done(f);
}

static void reduction(void **state)
{
    (void)state;
    /* nil < 1 < 2 on one process: T0's nil read is an anti-dependency on
     * the next version only. */
    iso_checker_opts o = opts(0, 1, 0, NULL);
    fx *f = run("{:process 0 :type :ok :value [[:r :x nil]]}\n"
                "{:process 0 :type :ok :value [[:w :x 1]]}\n"
                "{:process 0 :type :ok :value [[:w :x 2]]}\n", &o);
    assert_int_equal(edge(f, 0, 1), ISO_EDGE_RW);
    assert_int_equal(edge(f, 0, 2), 0);
    assert_int_equal(edge(f, 1, 2), ISO_EDGE_WW);
    done(f);
    f = run("{:process 0 :type :ok :value [[:r :x nil]]}\n"
            "{:process 1 :type :ok :value [[:w :x 1]]}\n"
            "{:process 2 :type :ok :value [[:w :x 2]]}\n", NULL);
    assert_int_equal(edge(f, 0, 1), ISO_EDGE_RW);
    assert_int_equal(edge(f, 0, 2), ISO_EDGE_RW);
    done(f);
}

/* ---- transaction order ------------------------------------------------------ */

static char *order_file(const char *json)
{
    char *path = strdup("/tmp/isolde-rw-order-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
    close(fd);
    return path;
}

static void transaction_order_g_single(void **state)
{
    (void)state;
    const char *h = "{:process 0 :type :ok :value [[:r :x nil] [:w :y 2]]}\n"
                    "{:process 0 :type :ok :value [[:w :x 3] [:w :y 4]]}\n";
    char *path = order_file("{\"0\": 2, \"1\": 1}");
    iso_checker_opts o = opts(0, 0, 0, path);
    fx *f = run(h, &o);
    assert_int_equal(f->rc, 0);
    assert_int_equal(edge(f, 0, 1), ISO_EDGE_RW);
    assert_int_equal(edge(f, 1, 0), ISO_EDGE_WW);
    assert_int_equal(f->ctx.findings.n, 0);
    iso_buf t = {0}, j = {0};
    iso_rw_register_ops.explain(&f->ctx.pc, 1, 0, ISO_EDGE_WW, "T2", "T1", &t, &j);
    assert_string_equal(iso_buf_cstr(&t), "T2 set key :y to 4, and T1 set it to 2, which came later in the version order");
    assert_string_equal(iso_buf_cstr(&j), "{\"type\":\"ww\",\"key\":\"y\",\"value\":4,\"value'\":2,\"a-mop-index\":1,\"b-mop-index\":1}");
    done(f);
    iso_buf_free(&t);
    iso_buf_free(&j);
    unlink(path);
    free(path);
}

static void transaction_order_g2(void **state)
{
    (void)state;
    char *path = order_file("{\"0\": 1, \"1\": 4, \"2\": 2, \"3\": 3.0}");
    iso_checker_opts o = opts(0, 0, 0, path);
    fx *f = run("{:process 0 :type :ok :value [[:w :x 1] [:w :y 2] [:w :z 3]]}\n"
                "{:process 0 :type :ok :value [[:r :x 1] [:w :y 5]]}\n"
                "{:process 0 :type :ok :value [[:r :z 3] [:w :x 4]]}\n"
                "{:process 0 :type :ok :value [[:w :z 7] [:w :y 8]]}\n", &o);
    assert_int_equal(f->rc, 0);
    assert_int_equal(edge(f, 1, 2), ISO_EDGE_RW);
    assert_int_equal(edge(f, 2, 3), ISO_EDGE_RW);
    assert_int_equal(edge(f, 3, 1), ISO_EDGE_WW);
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
    unlink(path);
    free(path);
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
    iso_checker_opts o = opts(0, 0, 0, "/nonexistent/order.json");
    fx *f = run("{:process 0 :type :ok :value [[:w :x 1]]}\n", &o);
    assert_int_equal(f->rc, -1);
    done(f);
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
 * version-order evidence: nothing isolde reports may contradict them. */
static void serial_histories_are_valid(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 150; seed++) {
        char *text = serial_history(seed * 0x9e3779b97f4a7c15ull, 3 + (int)(seed % 30), 1 + (int)(seed % 4));
        isolde_history *h = tu_read(text, ISOLDE_FORMAT_JSONL);
        static const char *const sources[] = {"wfr-keys", "sequential-keys", "linearizable-keys"};
        const char *given[3];
        isolde_check_opts o;
        isolde_check_opts_init(&o);
        o.checker_opts = given;
        for (int k = 0; k < 3; k++)
            if (seed >> k & 1) given[o.n_checker_opts++] = sources[k];
        o.workload = ISOLDE_WORKLOAD_RW_REGISTER;
        o.models = "strict-serializable";
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
        iso_checker_opts o = opts(1, 1, 1, NULL);
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
        cmocka_unit_test(g1c_wr_edges),
        cmocka_unit_test(initial_state_g_single),
        cmocka_unit_test(info_and_fail_writers),
        cmocka_unit_test(internal_cases),
        cmocka_unit_test(g1a_g1b),
        cmocka_unit_test(garbage_read),
        cmocka_unit_test(lost_update),
        cmocka_unit_test(duplicate_write),
        cmocka_unit_test(bad_workload),
        cmocka_unit_test(wfr_keys),
        cmocka_unit_test(sequential_keys_g0),
        cmocka_unit_test(sequential_cyclic),
        cmocka_unit_test(linearizable_scc_sort_bug),
        cmocka_unit_test(linearizable_frontier),
        cmocka_unit_test(linearizable_cyclic_bug_is_valid),
        cmocka_unit_test(reduction),
        cmocka_unit_test(transaction_order_g_single),
        cmocka_unit_test(transaction_order_g2),
        cmocka_unit_test(transaction_order_file_errors),
        cmocka_unit_test(serial_histories_are_valid),
        cmocka_unit_test(random_shapes_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
