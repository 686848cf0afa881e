/*
 * test_weak.c -- the weak models' saturation (lib/elle/rw_register/weak*.c):
 * the pairs t2 <co t1 each level forces on small histories, exactly --
 * read order for read committed and monotonic atomic view (the same
 * pairs), observations for read atomic, the causal
 * past through wr alone (causal-cerone) and through session order too
 * (causal), AWDIT's reductions (only a chain's last writer in the past,
 * a writer covering the writers before it) -- and the transactions a cycle
 * of hb leaves unranked -- and which level's name a violation gets
 * (non-monotonic-read without session order, its -process form only when
 * the cycle needs it). The verdicts they lead to are the data cases'
 * (tests/data/rw_register) and the oracle's (tests/oracle.sh).
 */
#include "testutil.h"
#include "check/check.h"
#include "elle/elle.h"
#include "elle/rw_register/weak.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct fx {
    isolde_history *h;
    isolde_check_opts o;
    iso_checker_opts co;
    iso_ctx ctx;
    isolde_error err;
} fx;

/* An EDN history of :ok ops (transactions in file order) through analyze(). */
static fx *analyze(const char *edn)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->h = tu_read(edn, ISOLDE_FORMAT_EDN);
    isolde_check_opts_init(&f->o);
    assert_int_equal(iso_checker_opts_of(&f->o, &f->co, &f->err), 0);
    f->ctx.pc.h = f->h;
    f->ctx.opts = &f->o;
    f->ctx.co = &f->co;
    f->ctx.pc.wl = &iso_rw_register_ops;
    assert_int_equal(iso_txns_pair(f->h, 0, &f->ctx.pc.txns, &f->err), 0);
    assert_int_equal(iso_rw_register_ops.analyze(&f->ctx, &f->err), 0);
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

static int cmp_pair(const void *pa, const void *pb)
{
    const rw_co *a = pa, *b = pb;
    if (a->t2 != b->t2) return a->t2 < b->t2 ? -1 : 1;
    if (a->t1 != b->t1) return a->t1 < b->t1 ? -1 : 1;
    return (a->t3 > b->t3) - (a->t3 < b->t3);
}

/* The pairs level forces on f's history as "t2<t1@t3 ..." (t1 "init":
 * the initial state), sorted; returns whether hb left a txn unranked. */
static int pairs(fx *f, int level, char *out, size_t cap)
{
    rw_wk wk;
    rw_forced fo = {0};
    rw_wk_init(&wk, &f->ctx.pc, f->ctx.pc.wl_state);
    rw_forced_of(&wk, level, &fo);
    if (fo.n > 1) qsort(fo.co, fo.n, sizeof *fo.co, cmp_pair);
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < fo.n && at < cap; i++) {
        char t1[16];
        if (fo.co[i].t1 == ISO_NONE) snprintf(t1, sizeof t1, "init");
        else snprintf(t1, sizeof t1, "%u", fo.co[i].t1);
        at += (size_t)snprintf(out + at, cap - at, "%s%u<%s@%u", i ? " " : "", fo.co[i].t2, t1, fo.co[i].t3);
    }
    int unranked = fo.unranked;
    iso_free(fo.co);
    iso_free(fo.pos);
    rw_wk_free(&wk);
    return unranked;
}

static void expect_pairs(const char *edn, int level, const char *want)
{
    char got[512];
    fx *f = analyze(edn);
    assert_int_equal(pairs(f, level, got, sizeof got), 0);
    if (strcmp(got, want)) fail_msg("level %d: pairs '%s', want '%s'", level, got, want);
    done(f);
}

/* T2 read T1's y, then x from T0, which T1 overwrote: read committed
 * forces T1 before T0; read atomic too, in either read order. */
static void read_order(void **state)
{
    (void)state;
    static const char later[] = "{:process 0 :type :ok :value [[:w :x 0]]}\n"
                                "{:process 1 :type :ok :value [[:r :x 0] [:w :x 1] [:w :y 1]]}\n"
                                "{:process 2 :type :ok :value [[:r :y 1] [:r :x 0]]}\n";
    static const char earlier[] = "{:process 0 :type :ok :value [[:w :x 0]]}\n"
                                  "{:process 1 :type :ok :value [[:r :x 0] [:w :x 1] [:w :y 1]]}\n"
                                  "{:process 2 :type :ok :value [[:r :x 0] [:r :y 1]]}\n";
    expect_pairs(later, RW_LV_RC, "1<0@2");
    expect_pairs(earlier, RW_LV_RC, "");
    expect_pairs(later, RW_LV_MAV, "1<0@2");
    expect_pairs(earlier, RW_LV_MAV, "");
    expect_pairs(later, RW_LV_RA, "1<0@2");
    expect_pairs(earlier, RW_LV_RA, "1<0@2");
}

/* T1 read T0's x and overwrote it; T2 read T1's x, T3 read T2's y and
 * T0's x: T1 is in T3's causal past, not among what it observed. */
static void causal_past_through_wr(void **state)
{
    (void)state;
    static const char h[] = "{:process 0 :type :ok :value [[:w :x 0]]}\n"
                            "{:process 1 :type :ok :value [[:r :x 0] [:w :x 1]]}\n"
                            "{:process 2 :type :ok :value [[:r :x 1] [:w :y 1]]}\n"
                            "{:process 3 :type :ok :value [[:r :y 1] [:r :x 0]]}\n";
    expect_pairs(h, RW_LV_RA, "");
    /* T1 covers T0 (it wrote x after reading it), so T2's read of T1's x
     * forces nothing in causal-cerone's frontiers */
    expect_pairs(h, RW_LV_CCC, "1<0@3");
    /* causal's clocks keep each chain's last writer: T1 continues T0's
     * chain, so T2's read of T1's x forces nothing either */
    expect_pairs(h, RW_LV_CC, "1<0@3");
}

/* Process 0 wrote x, then y; T2 read y but x's initial state: only
 * causal, whose past holds session order, forces T0 before it. */
static void causal_past_through_sessions(void **state)
{
    (void)state;
    static const char h[] = "{:process 0 :type :ok :value [[:w :x 1]]}\n"
                            "{:process 0 :type :ok :value [[:w :y 1]]}\n"
                            "{:process 1 :type :ok :value [[:r :y 1] [:r :x nil]]}\n";
    expect_pairs(h, RW_LV_CCC, "");
    expect_pairs(h, RW_LV_CC, "0<init@2");
}

/* Three writers of x in one session's past: only its last is forced, the
 * others precede it in session order (one chain of hb). */
static void last_writer_of_a_session(void **state)
{
    (void)state;
    static const char h[] = "{:process 0 :type :ok :value [[:w :x 1]]}\n"
                            "{:process 0 :type :ok :value [[:w :x 2]]}\n"
                            "{:process 0 :type :ok :value [[:w :x 3]]}\n"
                            "{:process 0 :type :ok :value [[:w :y 1]]}\n"
                            "{:process 1 :type :ok :value [[:r :y 1] [:r :x 1]]}\n";
    expect_pairs(h, RW_LV_CC, "2<0@4");
    expect_pairs(h, RW_LV_CCC, "");
}

/* T0 and T1 each read the other's write: hb has a cycle, and neither
 * causal pass ranks them (the cycle is G1c, the search's); T2 and T3,
 * ranked, read and write x, which the unranked T0 wrote too: only ranked
 * writers count (a chain holds no unranked one; they once took slots
 * never filled, read as chains, a crash of the oracle's batch). */
static void cycle_of_hb_unranked(void **state)
{
    (void)state;
    static const char h[] = "{:process 0 :type :ok :value [[:r :y 1] [:w :x 1]]}\n"
                            "{:process 1 :type :ok :value [[:r :x 1] [:w :y 1]]}\n"
                            "{:process 2 :type :ok :value [[:w :x 2]]}\n"
                            "{:process 3 :type :ok :value [[:r :x 2] [:w :x 3]]}\n"
                            "{:process 4 :type :ok :value [[:r :x 3]]}\n";
    char got[64];
    fx *f = analyze(h);
    assert_int_equal(pairs(f, RW_LV_CC, got, sizeof got), 1);
    assert_string_equal(got, "");
    assert_int_equal(pairs(f, RW_LV_CCC, got, sizeof got), 1);
    assert_string_equal(got, "");
    assert_int_equal(pairs(f, RW_LV_RA, got, sizeof got), 0);
    done(f);
}

/* The anomaly types isolde_check reports for edn under models, as
 * "a b ..." (valid: ""). */
static void types_of(const char *edn, const char *models, char *out, size_t cap)
{
    isolde_history *h = tu_read(edn, ISOLDE_FORMAT_EDN);
    isolde_check_opts o;
    isolde_result *r = NULL;
    isolde_error err = {0};
    isolde_check_opts_init(&o);
    o.workload = ISOLDE_WORKLOAD_RW_REGISTER;
    o.models = models;
    assert_int_equal(isolde_check(h, &o, &r, &err), 0);
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < isolde_result_type_count(r) && at < cap; i++)
        at += (size_t)snprintf(out + at, cap - at, "%s%s", i ? " " : "", isolde_result_type(r, i));
    isolde_result_free(r);
    isolde_history_free(h);
}

static void expect_types(const char *edn, const char *models, const char *want)
{
    char got[256];
    types_of(edn, models, got, sizeof got);
    if (strcmp(got, want)) fail_msg("-c %s: types '%s', want '%s'", models, got, want);
}

/* A non-monotonic read whose cycle needs session order (T0 before T1 in
 * process 0) is read-committed-be's -process form, which monotonic atomic
 * view allows; one whose cycle needs none (T1 read T0's x) is
 * non-monotonic-read under both, the weaker level's finding kept alone. */
static void session_order_names_the_process_form(void **state)
{
    (void)state;
    static const char so[] = "{:process 0 :type :invoke :value [[:w :x 1]]}\n"
                             "{:process 0 :type :ok :value [[:w :x 1]]}\n"
                             "{:process 0 :type :invoke :value [[:w :x 2] [:w :y 2]]}\n"
                             "{:process 0 :type :ok :value [[:w :x 2] [:w :y 2]]}\n"
                             "{:process 1 :type :invoke :value [[:r :y nil] [:r :x nil]]}\n"
                             "{:process 1 :type :ok :value [[:r :y 2] [:r :x 1]]}\n";
    static const char wr[] = "{:process 0 :type :ok :value [[:w :x 0]]}\n"
                             "{:process 1 :type :ok :value [[:r :x 0] [:w :x 1] [:w :y 1]]}\n"
                             "{:process 2 :type :ok :value [[:r :y 1] [:r :x 0]]}\n";
    expect_types(so, "read-committed-be", "non-monotonic-read-process");
    expect_types(so, "monotonic-atomic-view", "");
    expect_types(so, "read-atomic", "");
    expect_types(wr, "read-committed-be", "non-monotonic-read");
    expect_types(wr, "monotonic-atomic-view", "non-monotonic-read");
    expect_types(wr, "read-atomic", "non-monotonic-read");
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Arbitrary shapes (outcomes, repeated keys and values, reads of values
 * nobody wrote, reads after own writes) through isolde_check at the five
 * weak models, every finding written as JSON and text: a verdict, never a
 * crash (the sanitizer build runs this too). */
static void random_shapes_at_weak_models(void **state)
{
    (void)state;
    static const char *const types[] = {":ok", ":ok", ":ok", ":info", ":fail"};
    for (uint64_t seed = 1; seed <= 400; seed++) {
        uint64_t s = seed * 0x9e3779b97f4a7c15ull;
        iso_buf b = {0};
        for (int t = 0, n = 1 + (int)(rng(&s) % 14); t < n; t++) {
            iso_buf_printf(&b, "{:process %d :type %s :value [", (int)(rng(&s) % 4), types[rng(&s) % 5]);
            for (int j = 0, m = 1 + (int)(rng(&s) % 4); j < m; j++) {
                int w = (int)(rng(&s) % 2), key = (int)(rng(&s) % 3), v = (int)(rng(&s) % 40);
                if (w) iso_buf_printf(&b, "[:w %d %d] ", key, t * 10 + j);
                else if (v % 6 == 0) iso_buf_printf(&b, "[:r %d nil] ", key);
                else iso_buf_printf(&b, "[:r %d %d] ", key, v);
            }
            iso_buf_puts(&b, "]}\n");
        }
        isolde_history *h = NULL;
        isolde_error err = {0};
        isolde_result *r = NULL;
        isolde_check_opts o;
        isolde_check_opts_init(&o);
        o.workload = ISOLDE_WORKLOAD_RW_REGISTER;
        o.models = "causal,read-committed-be,read-atomic,causal-cerone,monotonic-atomic-view";
        h = tu_read(iso_buf_cstr(&b), ISOLDE_FORMAT_EDN);
        if (h && isolde_check(h, &o, &r, &err) == 0) {
            FILE *null = fopen("/dev/null", "w");
            assert_non_null(null);
            assert_int_equal(isolde_result_write_json(r, null, &err), 0);
            assert_int_equal(isolde_result_write_text(r, null, 0, &err), 0);
            fclose(null);
            isolde_result_free(r);
        }
        isolde_history_free(h);
        iso_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_order),
        cmocka_unit_test(causal_past_through_wr),
        cmocka_unit_test(causal_past_through_sessions),
        cmocka_unit_test(last_writer_of_a_session),
        cmocka_unit_test(cycle_of_hb_unranked),
        cmocka_unit_test(session_order_names_the_process_form),
        cmocka_unit_test(random_shapes_at_weak_models),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
