/* test_proof.c -- iso_elle_show: every finding of a run shown once, in
 * order, rendered ones as they are and pending ones rendered just before
 * they are shown, and never all at once: big findings are rendered a few
 * at a time; with a budget of bytes, up to the finding that spends it.
 * The proofs' words: the cases of tests/data/proof as their headers say
 * (tests/data/README; the CLI's side is tests/cli/t2200). */
#include "cases.h"
#include "elle/proof.h"

enum { N = 300, BIG = 1 << 20 };

/* Findings rendered but not yet shown, and the most there ever were. */
static size_t outstanding, most;

/* iso_render_fn: "proof i" and {"i":i}, the text padded to BIG bytes for
 * even i. */
static void render_padded(const iso_proof_ctx *pc, size_t i, iso_fb *f)
{
    (void)pc;
    iso_buf_printf(&f->text, "proof %zu", i);
    for (size_t k = 0; i % 2 == 0 && k < BIG / 64; k++)
        iso_buf_puts(&f->text, "................................................................");
    iso_buf_printf(&f->json, "{\"i\":%zu}", i);
    size_t now = __atomic_add_fetch(&outstanding, 1, __ATOMIC_RELAXED);
    for (size_t m = __atomic_load_n(&most, __ATOMIC_RELAXED); now > m;)
        if (__atomic_compare_exchange_n(&most, &m, now, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
}

typedef struct seen {
    size_t n;
    const iso_txn_result *t;
    size_t first;
} seen;

static void show(void *arg, size_t i, const char *text, const char *json)
{
    seen *s = arg;
    size_t f = s->first + i;
    char want[64];
    assert_int_equal(i, s->n++);
    if (f % 10 == 0) { /* rendered when found */
        assert_string_equal(text, "found");
        return;
    }
    __atomic_sub_fetch(&outstanding, 1, __ATOMIC_RELAXED);
    snprintf(want, sizeof want, "proof %zu", f);
    assert_memory_equal(text, want, strlen(want));
    assert_int_equal(strlen(text), strlen(want) + (f % 2 == 0 ? BIG : 0));
    snprintf(want, sizeof want, "{\"i\":%zu}", f);
    assert_string_equal(json, want);
}

/* N findings of G1a: every tenth rendered when found, the rest pending
 * (render_padded: the even ones 1 MB). */
static void add_findings(iso_txn_result *t)
{
    for (size_t i = 0; i < N; i++) {
        if (i % 10 == 0) iso_findings_add_text(&t->findings, ISO_A_G1A, "found", "{}");
        else iso_findings_add_pending(&t->findings, ISO_A_G1A, render_padded, i);
    }
}

static void shows_all_in_order_a_few_at_a_time(void **state)
{
    (void)state;
    iso_txn_result t = {.threads = 2};
    add_findings(&t);
    seen s = {0, &t, 5};
    assert_int_equal(iso_elle_show(&t, 5, N - 5, 0, show, &s), N - 5);
    assert_int_equal(s.n, N - 5);
    assert_int_equal(outstanding, 0);
    assert_true(most >= 1);
    assert_true(most <= 32); /* half of them are 1 MB: never 150 MB at once */
    for (size_t i = 0; i < N; i++) assert_int_equal(iso_finding_pending(&t.findings.f[i]), i % 10 != 0);
    iso_findings_free(&t.findings);
}

/* 3 MB of proofs from finding 5 on: 6, 8 and 12 are 1 MB each (10 was
 * rendered when found), so 5 .. 12 are shown, 12 the one that spends it. */
static void stops_after_the_budget(void **state)
{
    (void)state;
    iso_txn_result t = {.threads = 2};
    add_findings(&t);
    seen s = {0, &t, 5};
    assert_int_equal(iso_elle_show(&t, 5, N - 5, 3 * BIG, show, &s), 8);
    assert_int_equal(s.n, 8);
    outstanding = 0; /* rendered in the last batch, not shown */
    iso_findings_free(&t.findings);
}

static void proof_words(void **state)
{
    (void)state;
    tc_dir("tests/data/proof");
    tc_dir("tests/data/literature"); /* the literature's histories (tests/cli/t2700) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(proof_words),
        cmocka_unit_test(shows_all_in_order_a_few_at_a_time),
        cmocka_unit_test(stops_after_the_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
