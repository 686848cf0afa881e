/*
 * poly.h -- polygraphs for solve/'s tests: built by hand, read from
 * tests/data/solve/NAME.poly, or drawn at random; and the brute-force oracle,
 * which knows nothing of the solver's state graph: it enumerates every
 * assignment of the choices and checks the model's definition on
 * adjacency bitmasks (serializable: the union of every edge acyclic;
 * snapshot isolation: dep U dep;anti acyclic, by Warshall's closure;
 * parallel SI: dep+ acyclic and no anti edge back along it; prefix: dep U
 * read;anti acyclic).
 * Also the checks of an answer: a witness is acyclic, a core cannot be
 * made acyclic (and, when minimal, no smaller part of it), and a proof's
 * cases are real cycles that cover every assignment of the core.
 */
#ifndef SOLVE_TEST_POLY_H
#define SOLVE_TEST_POLY_H

#include "testutil.h"
#include "solve/solve.h"

#define POLY_MAX_TXNS 64
#define POLY_MAX_CHOICES 64

struct poly {
    uint32_t n;
    struct solve_edge edges[256];
    size_t n_edges;
    uint32_t n_choices;
    size_t side_start[2 * POLY_MAX_CHOICES + 1];
    struct solve_edge side_edges[1024];
    size_t n_side_edges;
};

static inline void poly_edge(struct poly *p, uint32_t from, uint32_t to, uint32_t kind)
{
    p->edges[p->n_edges++] = (struct solve_edge){from, to, kind};
}

/* Side edges are added to the last side opened with poly_side. */
static inline void poly_side(struct poly *p, int side)
{
    if (side == 0) p->side_start[2 * p->n_choices] = p->n_side_edges;
    else p->side_start[2 * p->n_choices + 1] = p->n_side_edges;
}
static inline void poly_side_edge(struct poly *p, uint32_t from, uint32_t to, uint32_t kind)
{
    p->side_edges[p->n_side_edges++] = (struct solve_edge){from, to, kind};
}
static inline void poly_end_choice(struct poly *p)
{
    p->n_choices++;
    p->side_start[2 * p->n_choices] = p->n_side_edges;
}

static inline struct solve_input poly_input(const struct poly *p, enum solve_model m)
{
    struct solve_input in = {m, p->n, p->edges, p->n_edges, p->n_choices, p->side_start, p->side_edges,
                             p->n_side_edges, {0, 0, 0}};
    return in;
}

/* ---- the oracle -------------------------------------------------------- */

typedef uint64_t poly_rows[POLY_MAX_TXNS];

static inline void rows_add(uint64_t *dep, uint64_t *anti, uint64_t *read, const struct solve_edge *e)
{
    if (e->kind == SOLVE_ANTI) anti[e->from] |= 1ull << e->to;
    else dep[e->from] |= 1ull << e->to;
    if (e->kind == SOLVE_READ) read[e->from] |= 1ull << e->to;
}

/* Whether the relation's transitive closure has a cycle (Warshall). */
static inline int rows_cyclic(uint64_t *r, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < n; i++)
            if (r[i] >> k & 1) r[i] |= r[k];
    for (uint32_t i = 0; i < n; i++)
        if (r[i] >> i & 1) return 1;
    return 0;
}

/* The model's cycle on the known edges and the sides chosen: side[c] 0/1
 * takes that side, anything else leaves the choice out. */
static inline int oracle_cyclic(const struct poly *p, enum solve_model m, const uint8_t *side)
{
    poly_rows dep = {0}, anti = {0}, read = {0}, r = {0};
    for (size_t i = 0; i < p->n_edges; i++) rows_add(dep, anti, read, &p->edges[i]);
    for (uint32_t c = 0; c < p->n_choices; c++) {
        if (side[c] > 1) continue;
        for (size_t j = p->side_start[2 * c + side[c]]; j < p->side_start[2 * c + side[c] + 1]; j++)
            rows_add(dep, anti, read, &p->side_edges[j]);
    }
    if (m == SOLVE_PSI) { /* dep+ ; anti? irreflexive */
        if (rows_cyclic(dep, p->n)) return 1;
        for (uint32_t i = 0; i < p->n; i++)
            for (uint32_t k = 0; k < p->n; k++)
                if ((dep[i] >> k & 1) && (anti[k] >> i & 1)) return 1;
        return 0;
    }
    for (uint32_t i = 0; i < p->n; i++) {
        r[i] = dep[i];
        if (m == SOLVE_SER) {
            r[i] |= anti[i];
            continue;
        }
        const uint64_t *before = m == SOLVE_PC ? read : dep; /* PC: WW U WR U (WR ; RW) */
        for (uint32_t k = 0; k < p->n; k++)
            if (before[i] >> k & 1) r[i] |= anti[k];
    }
    return rows_cyclic(r, p->n);
}

/* Whether some assignment of the choices in mask[] (the others left out)
 * is acyclic. At most 20 choices in the mask. */
static inline int oracle_sat(const struct poly *p, enum solve_model m, const uint8_t *mask)
{
    uint32_t ids[POLY_MAX_CHOICES], k = 0;
    uint8_t side[POLY_MAX_CHOICES];
    for (uint32_t c = 0; c < p->n_choices; c++) {
        side[c] = SOLVE_SIDE_NONE;
        if (mask[c]) ids[k++] = c;
    }
    assert_true(k <= 20);
    for (uint32_t a = 0; a < (1u << k); a++) {
        for (uint32_t j = 0; j < k; j++) side[ids[j]] = (uint8_t)(a >> j & 1);
        if (!oracle_cyclic(p, m, side)) return 1;
    }
    return 0;
}

/* ---- checking an answer ------------------------------------------------ */

static inline const struct solve_edge *step_edge(const struct poly *p, const struct solve_step *s)
{
    return s->choice == UINT32_MAX ? &p->edges[s->edge] : &p->side_edges[s->edge];
}

/* A case: its steps are input edges of its sides, a closed walk, and (SI)
 * no two anti edges in a row, (parallel SI) at most one anti edge,
 * (prefix) a read before every anti edge. */
static inline void check_case(const struct poly *p, enum solve_model m, const struct solve_result *r, uint32_t k)
{
    const struct solve_case *c = &r->cases[k];
    assert_true(c->n_steps >= 2);
    uint32_t n_anti = 0;
    for (uint32_t j = 0; j < c->n_steps; j++) {
        const struct solve_step *s = &r->step[c->first_step + j], *t = &r->step[c->first_step + (j + 1) % c->n_steps];
        const struct solve_edge *e = step_edge(p, s);
        assert_int_equal(e->from, s->from);
        assert_int_equal(e->to, s->to);
        assert_int_equal(e->kind, s->kind);
        assert_int_equal(s->to, t->from);
        if (m == SOLVE_SI) assert_false(s->kind == SOLVE_ANTI && t->kind == SOLVE_ANTI);
        n_anti += s->kind == SOLVE_ANTI;
        if (m == SOLVE_PSI) assert_true(n_anti <= 1);
        if (m == SOLVE_PC) assert_false(t->kind == SOLVE_ANTI && s->kind != SOLVE_READ);
        if (s->choice == UINT32_MAX) continue;
        assert_true(s->edge >= p->side_start[2 * s->choice + s->side] &&
                    s->edge < p->side_start[2 * s->choice + s->side + 1]);
        int assigned = 0;
        for (uint32_t a = 0; a < c->n_assign; a++) {
            const struct solve_assign *as = &r->assign[c->first_assign + a];
            if (as->choice == s->choice) assigned = 1, assert_int_equal(as->side, s->side);
        }
        assert_true(assigned);
    }
}

/* Every assignment of the core extends some case. */
static inline void check_cover(const struct solve_result *r)
{
    assert_true(r->n_core <= 16);
    for (uint32_t a = 0; a < (1u << r->n_core); a++) {
        int covered = 0;
        for (uint32_t k = 0; k < r->n_cases && !covered; k++) {
            const struct solve_case *c = &r->cases[k];
            covered = 1;
            for (uint32_t j = 0; j < c->n_assign; j++) {
                const struct solve_assign *as = &r->assign[c->first_assign + j];
                uint32_t at = 0;
                while (r->core[at] != as->choice) at++;
                if ((a >> at & 1) != as->side) covered = 0;
            }
        }
        assert_true(covered);
    }
}

/* p with only the known edges inside the result's group (a core is a core
 * of its group: another group may hold a cycle of its own). */
static inline void restrict_to_group(struct poly *p, const struct solve_result *r)
{
    size_t n = 0;
    uint64_t in = 0;
    for (uint32_t k = 0; k < r->n_group_txns; k++) in |= 1ull << r->group_txns[k];
    for (size_t i = 0; i < p->n_edges; i++)
        if ((in >> p->edges[i].from & 1) && (in >> p->edges[i].to & 1)) p->edges[n++] = p->edges[i];
    p->n_edges = n;
}

static inline void check_invalid(const struct poly *whole, enum solve_model m, const struct solve_result *r)
{
    struct poly *p = malloc(sizeof *p);
    *p = *whole;
    restrict_to_group(p, r);
    uint8_t mask[POLY_MAX_CHOICES] = {0};
    for (uint32_t k = 0; k < r->n_core; k++) mask[r->core[k]] = 1;
    assert_false(oracle_sat(p, m, mask));
    if (r->core_minimal)
        for (uint32_t k = 0; k < r->n_core; k++) {
            mask[r->core[k]] = 0;
            assert_true(oracle_sat(p, m, mask));
            mask[r->core[k]] = 1;
        }
    assert_true(r->n_cases > 0);
    for (uint32_t k = 0; k < r->n_cases; k++) check_case(whole, m, r, k);
    if (!r->proof_truncated) check_cover(r);
    assert_true(r->n_group_txns > 0);
    free(p);
}

/* The answer agrees with the oracle (unknown only without the solver) and
 * carries what it promises. Returns the verdict. */
static inline enum solve_verdict check_answer(const struct poly *p, enum solve_model m)
{
    struct solve_input in = poly_input(p, m);
    struct solve_result r;
    isolde_error err = {0};
    assert_int_equal(solve_run(&in, &r, &err), 0);
    uint8_t all[POLY_MAX_CHOICES];
    memset(all, 1, sizeof all);
    int sat = oracle_sat(p, m, all);
    if (r.verdict == SOLVE_UNKNOWN) {
        assert_false(solve_has_sat());
        assert_string_equal(r.why, "built without CaDiCaL");
    } else {
        assert_int_equal(r.verdict == SOLVE_VALID, sat);
    }
    if (r.verdict == SOLVE_VALID) {
        for (uint32_t c = 0; c < p->n_choices; c++) assert_true(r.side[c] <= 1);
        assert_false(oracle_cyclic(p, m, r.side));
    }
    if (r.verdict == SOLVE_INVALID) check_invalid(p, m, &r);
    enum solve_verdict v = r.verdict;
    solve_result_release(&r);
    return v;
}

#endif
