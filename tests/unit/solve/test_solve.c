/*
 * test_solve.c -- solve/: the textbook anomalies as data
 * (tests/data/solve/NAME.poly: write skew, lost update, long fork, elle-cli
 * issue 47 with and without real time, a known cycle, free choices), the
 * brute-force oracle over thousands of seeded random polygraphs under both
 * models (valid and invalid both seen, each answer's witness or proof
 * checked), groups apart, the same answer twice, a budget that runs out,
 * and input refused.
 */
#include <dirent.h>

#include "poly.h"

static uint32_t kind_of(const char *w)
{
    if (!strcmp(w, "rw")) return SOLVE_ANTI;
    if (!strcmp(w, "wr")) return SOLVE_READ;
    if (!strcmp(w, "ww") || !strcmp(w, "so") || !strcmp(w, "rt")) return SOLVE_DEP;
    fail_msg("unknown edge kind %s", w);
    return 0;
}

/* "choice ww 0 2 rw 1 2 | ww 2 0": each side's edges, | between them. */
static void read_choice(struct poly *p, char *rest)
{
    int side = 0;
    poly_side(p, 0);
    for (char *w = strtok(rest, " \t\n"); w; w = strtok(NULL, " \t\n")) {
        if (!strcmp(w, "|")) {
            poly_side(p, side = 1);
            continue;
        }
        uint32_t k = kind_of(w), a = (uint32_t)strtoul(strtok(NULL, " "), NULL, 10);
        uint32_t b = (uint32_t)strtoul(strtok(NULL, " \t\n"), NULL, 10);
        poly_side_edge(p, a, b, k);
    }
    assert_int_equal(side, 1);
    poly_end_choice(p);
}

struct expect {
    const char *model[2];
    char verdict[2][16];
    int n;
};

static void read_case(const char *path, struct poly *p, struct expect *x)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512], kind[16], a[16], b[16];
    memset(p, 0, sizeof *p);
    memset(x, 0, sizeof *x);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "txns %u", &p->n) == 1) continue;
        if (sscanf(line, "edge %15s %15s %15s", kind, a, b) == 3) {
            poly_edge(p, (uint32_t)atoi(a), (uint32_t)atoi(b), kind_of(kind));
        } else if (!strncmp(line, "choice ", 7)) {
            read_choice(p, line + 7);
        } else if (sscanf(line, "expect %15s %15s", a, b) == 2) {
            x->model[x->n] = !strcmp(a, "si") ? "si" : "ser";
            strcpy(x->verdict[x->n++], b);
        } else {
            fail_msg("%s: cannot read %s", path, line);
        }
    }
    fclose(f);
}

static void textbook_cases(void **st)
{
    (void)st;
    DIR *d = opendir("tests/data/solve");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strstr(e->d_name, ".poly")) continue;
        char path[512];
        struct poly p;
        struct expect x;
        snprintf(path, sizeof path, "tests/data/solve/%s", e->d_name);
        read_case(path, &p, &x);
        assert_int_equal(x.n, 2);
        for (int k = 0; k < x.n; k++) {
            enum solve_model m = !strcmp(x.model[k], "si") ? SOLVE_SI : SOLVE_SER;
            enum solve_verdict v = check_answer(&p, m);
            const char *want = x.verdict[k], *got = v == SOLVE_VALID ? "valid" : v == SOLVE_INVALID ? "invalid" : "unknown";
            if (strcmp(want, got) && v != SOLVE_UNKNOWN) fail_msg("%s %s: %s, not %s", path, x.model[k], got, want);
        }
        n++;
    }
    closedir(d);
    assert_true(n >= 7);
}

/* elle-cli issue 47 with real time: the proof is the two cases of the one
 * choice, each the shortest cycle (two edges) its order closes. */
static void issue47_proof(void **st)
{
    (void)st;
    struct poly p;
    struct expect x;
    read_case("tests/data/solve/elle-cli-47-strict.poly", &p, &x);
    struct solve_input in = poly_input(&p, SOLVE_SER);
    struct solve_result r;
    assert_int_equal(solve_run(&in, &r, NULL), 0);
    if (!solve_has_sat() && r.verdict == SOLVE_UNKNOWN) skip();
    assert_int_equal(r.verdict, SOLVE_INVALID);
    assert_int_equal(r.n_core, 1);
    assert_int_equal(r.n_cases, 2);
    for (uint32_t k = 0; k < 2; k++) {
        assert_int_equal(r.cases[k].n_assign, 1);
        assert_int_equal(r.assign[r.cases[k].first_assign].side, k);
        assert_int_equal(r.cases[k].n_steps, 2);
    }
    const struct solve_step *a = &r.step[r.cases[0].first_step], *b = &r.step[r.cases[1].first_step];
    /* T0 first: T2 -rw-> T1 (the side's), T1 -rt-> T2 (known) */
    assert_int_equal(a[0].from, 2), assert_int_equal(a[0].to, 1), assert_int_equal(a[0].kind, SOLVE_ANTI);
    assert_int_equal(a[1].choice, UINT32_MAX), assert_int_equal(a[1].edge, 1);
    /* T1 first: T1 -ww-> T0 (the side's), T0 -rt-> T1 (known) */
    assert_int_equal(b[0].from, 1), assert_int_equal(b[0].to, 0), assert_int_equal(b[0].choice, 0);
    assert_int_equal(b[1].choice, UINT32_MAX), assert_int_equal(b[1].edge, 0);
    solve_result_release(&r);
}

/* ---- random polygraphs ------------------------------------------------- */

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)(next_rand(s) % n); }

/* A side: a -> b (dep) and up to two anti edges r -> b. */
static void random_side(struct poly *p, uint64_t *s, uint32_t a, uint32_t b, uint32_t base, uint32_t n)
{
    poly_side_edge(p, base + a, base + b, SOLVE_DEP);
    for (uint32_t k = below(s, 3); k > 0; k--) {
        uint32_t r = below(s, n);
        if (r != b) poly_side_edge(p, base + r, base + b, SOLVE_ANTI);
    }
}

/* n transactions from base, mostly forward known edges, k choices. */
static void random_part(struct poly *p, uint64_t *s, uint32_t base, uint32_t n, uint32_t k)
{
    for (uint32_t e = below(s, n + 2); e > 0; e--) {
        uint32_t a = below(s, n), b = below(s, n);
        if (a == b) continue;
        if (a > b && below(s, 4)) a ^= b, b ^= a, a ^= b; /* mostly forward */
        uint32_t kind = below(s, 4);
        poly_edge(p, base + a, base + b, kind == 0 ? SOLVE_ANTI : kind == 1 ? SOLVE_DEP : SOLVE_READ);
    }
    for (uint32_t c = 0; c < k; c++) {
        uint32_t a = below(s, n), b = below(s, n - 1);
        b += b >= a;
        poly_side(p, 0);
        random_side(p, s, a, b, base, n);
        poly_side(p, 1);
        random_side(p, s, b, a, base, n);
        poly_end_choice(p);
    }
}

static void oracle_random(void **st)
{
    (void)st;
    int seen[4][3] = {{0}};
    for (uint64_t seed = 1; seed <= 3000; seed++) {
        uint64_t s = seed;
        struct poly p;
        memset(&p, 0, sizeof p);
        p.n = 2 + below(&s, 7);
        random_part(&p, &s, 0, p.n, below(&s, 11));
        for (int m = 0; m < 4; m++) seen[m][check_answer(&p, (enum solve_model)m)]++;
    }
    for (int m = 0; m < 4; m++) {
        assert_true(seen[m][SOLVE_INVALID] > (m == SOLVE_PC ? 150 : 300)); /* prefix forbids the fewest */
        if (solve_has_sat()) assert_true(seen[m][SOLVE_VALID] > 300);
    }
}

/* Several parts on disjoint transactions: the whole is valid exactly when
 * each part is (the oracle asks part by part). */
static void groups_apart(void **st)
{
    (void)st;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        uint64_t s = seed * 7919;
        struct poly p, part[4];
        memset(&p, 0, sizeof p);
        int all_sat = 1;
        for (int k = 0; k < 4; k++) {
            memset(&part[k], 0, sizeof part[k]);
            uint64_t s2 = s + (uint64_t)k;
            part[k].n = 6;
            random_part(&part[k], &s2, 0, 6, 5);
            s2 = s + (uint64_t)k;
            random_part(&p, &s2, p.n, 6, 5);
            p.n += 6;
            uint8_t all[POLY_MAX_CHOICES];
            memset(all, 1, sizeof all);
            all_sat &= oracle_sat(&part[k], SOLVE_SER, all);
        }
        struct solve_input in = poly_input(&p, SOLVE_SER);
        struct solve_result r;
        assert_int_equal(solve_run(&in, &r, NULL), 0);
        if (r.verdict != SOLVE_UNKNOWN) assert_int_equal(r.verdict == SOLVE_VALID, all_sat);
        if (r.verdict == SOLVE_VALID) assert_false(oracle_cyclic(&p, SOLVE_SER, r.side));
        if (r.verdict == SOLVE_INVALID) check_invalid(&p, SOLVE_SER, &r);
        solve_result_release(&r);
    }
}

static int same_result(const struct solve_result *a, const struct solve_result *b, uint32_t n_choices)
{
    return a->verdict == b->verdict && a->n_core == b->n_core && a->n_cases == b->n_cases &&
           a->n_step == b->n_step && !memcmp(a->side, b->side, n_choices) &&
           (!a->n_core || !memcmp(a->core, b->core, a->n_core * sizeof *a->core)) &&
           (!a->n_step || !memcmp(a->step, b->step, a->n_step * sizeof *a->step));
}

static void same_answer_twice(void **st)
{
    (void)st;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        uint64_t s = seed;
        struct poly p;
        memset(&p, 0, sizeof p);
        p.n = 12;
        random_part(&p, &s, 0, 12, 12);
        struct solve_input in = poly_input(&p, (enum solve_model)(seed % 4));
        struct solve_result a, b;
        assert_int_equal(solve_run(&in, &a, NULL), 0);
        assert_int_equal(solve_run(&in, &b, NULL), 0);
        assert_true(same_result(&a, &b, p.n_choices));
        solve_result_release(&a);
        solve_result_release(&b);
    }
}

/* Two choices every assignment of which closes a cycle, though no side
 * does alone (pruning cannot tell): with one cycle forbidden allowed the
 * answer is unknown ("budget") and names the group; with the default
 * budget, invalid with both choices as the core. */
static void budget_runs_out(void **st)
{
    (void)st;
    static const uint32_t sides[4][2][2] = {{{0, 1}, {2, 3}}, {{1, 0}, {3, 2}}, {{1, 0}, {2, 3}}, {{0, 1}, {3, 2}}};
    struct poly p;
    memset(&p, 0, sizeof p);
    p.n = 4;
    for (int c = 0; c < 2; c++) {
        for (int side = 0; side < 2; side++) {
            poly_side(&p, side);
            for (int k = 0; k < 2; k++) poly_side_edge(&p, sides[2 * c + side][k][0], sides[2 * c + side][k][1], 0);
        }
        poly_end_choice(&p);
    }
    struct solve_input in = poly_input(&p, SOLVE_SER);
    in.budget.refinements = 1;
    struct solve_result r;
    assert_int_equal(solve_run(&in, &r, NULL), 0);
    assert_int_equal(r.verdict, SOLVE_UNKNOWN);
    assert_string_equal(r.why, solve_has_sat() ? "budget" : "built without CaDiCaL");
    assert_int_equal(r.n_group_txns, 4);
    assert_int_equal(r.stats.n_pruned, 0);
    solve_result_release(&r);
    in.budget.refinements = 0;
    assert_int_equal(solve_run(&in, &r, NULL), 0);
    assert_int_equal(r.verdict, solve_has_sat() ? SOLVE_INVALID : SOLVE_UNKNOWN);
    if (solve_has_sat()) {
        assert_int_equal(r.n_core, 2);
        assert_true(r.core_minimal);
        check_invalid(&p, SOLVE_SER, &r);
    }
    solve_result_release(&r);
}

static void refused(void **st)
{
    (void)st;
    struct poly p;
    memset(&p, 0, sizeof p);
    p.n = 2;
    poly_edge(&p, 0, 2, SOLVE_DEP);
    struct solve_input in = poly_input(&p, SOLVE_SER);
    struct solve_result r;
    isolde_error err = {0};
    assert_int_equal(solve_run(&in, &r, &err), -1);
    assert_int_equal(err.code, ISOLDE_ERR_USAGE);
    assert_non_null(strstr(err.msg, "known edge 0"));
    assert_null(r.side);
    p.edges[0].to = 0;
    assert_int_equal(solve_run(&in, &r, &err), -1);
    p.edges[0].to = 1;
    poly_side(&p, 0);
    poly_side_edge(&p, 1, 1, SOLVE_DEP);
    poly_side(&p, 1);
    poly_end_choice(&p);
    in = poly_input(&p, SOLVE_SI);
    assert_int_equal(solve_run(&in, &r, &err), -1);
    assert_non_null(strstr(err.msg, "side edge 0"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(textbook_cases), cmocka_unit_test(issue47_proof), cmocka_unit_test(oracle_random), cmocka_unit_test(groups_apart),
        cmocka_unit_test(same_answer_twice), cmocka_unit_test(budget_runs_out), cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
