/* test_picture.c -- the picture of a finding (elle/picture.c): a cycle as
 * found; a component as at most ISO_PIC_MAX_CYCLES of its shortest cycles,
 * every edge one of the component's, none drawn when even the shortest is
 * too long; DOT labels escaped; a proof's steps, several on one edge
 * united and each kept once, the initial state a vertex; the findings that
 * are no cycle drawn as their proofs read, whether rendered when found or
 * when shown; the histories of tests/data/html (the pages' tests/cli/t6000,
 * t6100) check as their headers say (tests/data/README). (The page's
 * escaping: report/test_page.c; -d's and --html's pictures of proofs:
 * tests/cli/t6010.) */
#include "cases.h"
#include "elle/picture.h"
#include "elle/result.h"

enum { N = 1200 };

/* The explainer's words hold what DOT must escape. */
static void explain(const iso_proof_ctx *pc, uint32_t a, uint32_t b, int bit, const char *ta, const char *tb,
                    iso_buf *text, iso_buf *json)
{
    (void)pc, (void)a, (void)b, (void)bit;
    iso_buf_printf(text, "%s wrote \"q\" \\ <b> before %s", ta, tb);
    iso_buf_puts(json, "{}");
}
static const iso_workload_ops fake_wl = {"fake", {0}, NULL, explain, NULL, NULL, NULL, NULL};

typedef struct fixture {
    isolde_history *h;
    iso_search_out out;
    iso_proof_ctx pc;
} fixture;

/* N one-op transactions, and a proof context over them. */
static void fixture_init(fixture *x)
{
    iso_buf text = {0};
    for (int i = 0; i < N; i++)
        iso_buf_printf(&text, "{\"type\":\"invoke\",\"process\":%d,\"value\":[[\"append\",\"x\",%d]]}\n"
                              "{\"type\":\"ok\",\"process\":%d,\"value\":[[\"append\",\"x\",%d]]}\n", i, i, i, i);
    x->h = tu_read(iso_buf_cstr(&text), ISOLDE_FORMAT_JSONL);
    iso_buf_free(&text);
    memset(&x->out, 0, sizeof x->out);
    x->pc = (iso_proof_ctx){x->h, {0}, &fake_wl, NULL, &x->out, 0, NULL};
    isolde_error err;
    assert_int_equal(iso_txns_pair(x->h, 0, &x->pc.txns, &err), 0);
    assert_int_equal(x->pc.txns.n, N);
}

static void fixture_free(fixture *x)
{
    iso_txns_free(&x->pc.txns);
    isolde_history_free(x->h);
}

/* A ring of n transactions (i -> i+1) with chords i -> i+chord (0: none). */
static iso_subgraph ring(uint32_t n, uint32_t chord)
{
    iso_subgraph s = {n, malloc(n * sizeof(uint32_t)), malloc((n + 1) * sizeof(uint32_t)),
                      malloc(2 * n * sizeof(uint32_t)), malloc(2 * n)};
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        s.v[i] = i, s.off[i] = k;
        s.dst[k] = (i + 1) % n, s.bits[k++] = ISO_EDGE_WR;
        if (chord) s.dst[k] = (i + chord) % n, s.bits[k++] = ISO_EDGE_WW | ISO_EDGE_RW;
    }
    s.off[n] = k;
    return s;
}

static void ring_free(iso_subgraph *s) { free(s->v), free(s->off), free(s->dst), free(s->bits); }

/* Whether s has edge a -> b labelled types. */
static int has_edge(const iso_subgraph *s, uint32_t a, uint32_t b, const char *types)
{
    for (uint32_t k = s->off[a]; k < s->off[a + 1]; k++)
        if (s->dst[k] == b) return strcmp(types, s->bits[k] == ISO_EDGE_WR ? "wr" : "ww,rw") == 0;
    return 0;
}

static void component_is_its_shortest_cycles(void **state)
{
    (void)state;
    fixture x;
    fixture_init(&x);
    iso_cycle_exists e = {ISO_A_G1C, ring(N, 7)};
    x.out.exists = &e, x.out.n_exists = 1;
    iso_finding f = {ISO_A_G1C, ISO_FS_EXISTS, NULL, NULL, NULL, 0, NULL};
    iso_picture p;
    assert_int_equal(iso_picture_of(&x.pc, &f, &p), 1);
    assert_int_equal(p.comp_n, N);
    assert_int_equal(p.comp_e, 2 * N);
    assert_true(p.cycles >= 1 && p.cycles <= ISO_PIC_MAX_CYCLES);
    assert_true(p.n <= ISO_PIC_MAX_V && p.n < N / 2);
    uint32_t in[ISO_PIC_MAX_V] = {0}, outd[ISO_PIC_MAX_V] = {0};
    for (size_t i = 0; i < p.n_e; i++) {
        assert_true(has_edge(&e.scc, p.v[p.e[i].a], p.v[p.e[i].b], iso_buf_cstr(&p.e[i].types)));
        in[p.e[i].b]++, outd[p.e[i].a]++;
    }
    for (uint32_t i = 0; i < p.n; i++) assert_true(in[i] >= 1 && outd[i] >= 1); /* only cycles */
    iso_buf note = {0};
    iso_picture_note(&p, &note);
    assert_non_null(strstr(iso_buf_cstr(&note), "A strongly connected component of 1200 transactions and 2400 edges;"));
    iso_buf_free(&note);
    iso_picture_free(&p);
    ring_free(&e.scc);
    fixture_free(&x);
}

static void component_too_long_to_draw_is_counted(void **state)
{
    (void)state;
    fixture x;
    fixture_init(&x);
    iso_cycle_timeout t = {ISO_A_G1C, 0, ring(N, 0)};
    x.out.timeouts = &t, x.out.n_timeouts = 1;
    iso_finding f = {ISO_A_CYCLE_SEARCH_TIMEOUT, ISO_FS_TIMEOUT, NULL, NULL, NULL, 0, NULL};
    iso_picture p;
    assert_int_equal(iso_picture_of(&x.pc, &f, &p), 1);
    assert_int_equal(p.n, 0);
    assert_int_equal(p.cycles, 0);
    iso_buf note = {0};
    iso_picture_note(&p, &note);
    assert_non_null(strstr(iso_buf_cstr(&note), "too large to draw"));
    iso_buf_free(&note);
    iso_picture_free(&p);
    ring_free(&t.comp);
    fixture_free(&x);
}

static void cycle_and_dot_escaping(void **state)
{
    (void)state;
    fixture x;
    fixture_init(&x);
    uint32_t v[2] = {3, 5};
    uint8_t e[2] = {ISO_EDGE_WW, ISO_EDGE_RW};
    iso_cycle c = {ISO_A_G0, 2, v, e};
    x.out.cycles = &c, x.out.n_cycles = 1;
    iso_finding f = {ISO_A_G0, ISO_FS_CYCLE, NULL, NULL, NULL, 0, NULL};
    iso_picture p;
    assert_int_equal(iso_picture_of(&x.pc, &f, &p), 1);
    assert_int_equal(p.n, 2);
    assert_int_equal(p.comp_n, 0);
    iso_buf dot = {0};
    iso_picture_dot(&x.pc, &p, "G0 \"#0\"", &dot);
    const char *d = iso_buf_cstr(&dot);
    assert_non_null(strstr(d, "label=\"G0 \\\"#0\\\"\""));
    assert_non_null(strstr(d, "T1 -> T2 [label=\"ww\\nT1 wrote \\\"q\\\" \\\\ <b> before T2\"];"));
    assert_non_null(strstr(d, "T2 -> T1 [label=\"rw\\n"));
    assert_non_null(strstr(d, "T1 [label=\"T1 = {:index 7, :type :ok, :process 3"));
    iso_buf json = {0};
    iso_picture_json(&p, &json);
    assert_string_equal(iso_buf_cstr(&json), "{\"v\":[3,5],\"e\":[[0,1,\"ww\",\"T1 wrote \\\"q\\\" \\\\ <b> before T2\"],"
                                             "[1,0,\"rw\",\"T2 wrote \\\"q\\\" \\\\ <b> before T1\"]],\"note\":\"\"}");
    iso_buf_free(&json);
    iso_buf_free(&dot);
    iso_picture_free(&p);
    fixture_free(&x);
}

static void a_direct_anomaly_has_no_picture(void **state)
{
    (void)state;
    iso_finding f = {ISO_A_G1A, ISO_FS_TEXT, "t", "{}", NULL, 0, NULL};
    iso_proof_ctx pc = {0};
    iso_picture p;
    assert_int_equal(iso_picture_of(&pc, &f, &p), 0);
}

static void steps_united_on_an_edge_each_once(void **state)
{
    (void)state;
    iso_picture p = {0};
    assert_int_equal(iso_picture_txn(&p, 7), 0);
    assert_int_equal(iso_picture_txn(&p, 3), 1);
    assert_int_equal(iso_picture_txn(&p, 7), 0);
    iso_picture_edge(&p, 7, 3, "wr", "T1 wrote");
    iso_picture_edge(&p, 7, 3, "wr", "T1 wrote");
    iso_picture_edge(&p, 7, 3, "co", "T1 wrote");
    iso_picture_edge(&p, 7, 3, "wr", "T1 wrote again");
    iso_picture_edge(&p, 3, ISO_NONE, "co", "\"first\"");
    assert_int_equal(p.n, 3);
    assert_int_equal(p.n_e, 2);
    iso_buf json = {0}, dot = {0};
    iso_picture_json(&p, &json);
    assert_string_equal(iso_buf_cstr(&json), "{\"v\":[7,3,null],\"e\":[[0,1,\"wr,co,wr\",\"T1 wrote\\u000aT1 wrote\\u000aT1 "
                                             "wrote again\"],[1,2,\"co\",\"\\\"first\\\"\"]],\"note\":\"\"}");
    fixture x;
    fixture_init(&x);
    iso_picture_dot(&x.pc, &p, "t", &dot);
    assert_non_null(strstr(iso_buf_cstr(&dot), "  T3 [label=\"the initial state\\l\", shape=ellipse];\n"));
    assert_non_null(strstr(iso_buf_cstr(&dot), "  T2 -> T3 [label=\"co\\n\\\"first\\\"\"];\n"));
    iso_buf_free(&json);
    iso_buf_free(&dot);
    iso_picture_free(&p);
    fixture_free(&x);
}

/* The first finding of file's check (workload, model) is a type whose
 * picture holds n transactions and edge: a -> b (positions) of types
 * whose words open with words. */
static void drawn(const char *file, isolde_workload wl, const char *model, const char *type, uint32_t n,
                  uint32_t a, uint32_t b, const char *types, const char *words)
{
    isolde_history *h = NULL;
    isolde_result *r = NULL;
    isolde_error err = {0};
    assert_int_equal(isolde_history_read_file(file, NULL, &h, &err), 0);
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.workload = wl, o.models = model;
    assert_int_equal(isolde_check(h, &o, &r, &err), 0);
    assert_string_equal(isolde_result_type(r, 0), type);
    const iso_txn_result *t = r->payload;
    iso_picture p;
    assert_int_equal(iso_picture_of(&t->pc, &t->findings.f[0], &p), 1);
    assert_int_equal(p.n, n);
    size_t k = 0;
    while (k < p.n_e && (p.e[k].a != a || p.e[k].b != b)) k++;
    assert_true(k < p.n_e);
    assert_string_equal(iso_buf_cstr(&p.e[k].types), types);
    assert_memory_equal(iso_buf_cstr(&p.e[k].words), words, strlen(words));
    iso_picture_free(&p);
    isolde_result_free(r);
    isolde_history_free(h);
}

/* Rendered when found (list-append's fractured-read keeps its picture) or
 * when shown (rw-register's, from the workload), as the proof reads. */
static void proofs_that_are_no_cycle_are_drawn(void **state)
{
    (void)state;
    const isolde_workload la = ISOLDE_WORKLOAD_LIST_APPEND, rw = ISOLDE_WORKLOAD_RW_REGISTER;
    drawn("tests/data/list_append/fractured-read.jsonl", la, "read-atomic", "fractured-read", 2, 1, 0, "wr",
          "T1 observed T2's append of 4 to key \"x\"");
    drawn("tests/data/list_append/fractured-read.jsonl", la, "read-atomic", "fractured-read", 2, 0, 1, "misses",
          "T1 read key \"y\" as [1 2], which does not contain T2's append of 7");
    drawn("tests/data/rw_register/fractured-read.edn", rw, "read-atomic", "fractured-read", 3, 0, 2, "co",
          "T2 read key :x = nil, the initial state, though T1 wrote :x too");
    drawn("tests/data/rw_register/causality-violation.edn", rw, "causal-cerone", "causality-violation", 4, 3, 2,
          "wr", "T4 wrote key :y = 1, which was read by T3");
    drawn("tests/data/rw_register/causality-violation-process.edn", rw, "causal", "causality-violation-process", 4,
          0, 2, "process", "process 0 executed T1 before T3");
    drawn("tests/data/rw_register/non-monotonic-read.edn", rw, "read-committed-be", "non-monotonic-read", 3, 0, 1,
          "co", "T3 read key :x = 0, written by T2, after it had read a write of T1");
    drawn("tests/data/rw_register/not-my-own-write.edn", rw, "read-committed-be", "not-my-own-write", 2, 0, 0,
          "misses", "T1 read key :x = 2, which T2 wrote, though T1 had written key :x = 1 itself");
}

static void html_cases(void **state)
{
    (void)state;
    tc_dir("tests/data/html");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(html_cases),
        cmocka_unit_test(component_is_its_shortest_cycles),
        cmocka_unit_test(component_too_long_to_draw_is_counted),
        cmocka_unit_test(cycle_and_dot_escaping),
        cmocka_unit_test(a_direct_anomaly_has_no_picture),
        cmocka_unit_test(steps_united_on_an_edge_each_once),
        cmocka_unit_test(proofs_that_are_no_cycle_are_drawn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
