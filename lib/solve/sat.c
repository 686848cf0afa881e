/*
 * solve/sat.c -- a group decided by CaDiCaL (Debian's libcadical-dev,
 * through ccadical.h) with acyclicity added lazily, and the unsat core of
 * an invalid group.
 *
 * Each model's graph is searched once and every cycle its search closes
 * is forbidden (many clauses a round, not one).
 *
 * Encoding: choice i has x_i (true: its preferred side, set_preferences)
 * and an activation a_i; side s of choice i is taken when a_i holds and
 * x_i says s. A cycle of the
 * chosen graph is forbidden by one clause: some choice on it is inactive
 * or on its other side. Deciding assumes every a_i (and the sides pruning
 * forced); a subset S of the choices is tested by assuming a_i for i in S
 * and not a_j for the others, so every clause learnt stays true for every
 * subset (adding edges only adds cycles) and one solver serves the whole
 * group. The core: the activations the last unsat answer failed on, then
 * shrunk by deletion (each choice left out in turn, kept when the rest
 * becomes satisfiable).
 *
 * Budget: conflicts (counted as CaDiCaL's learnt clauses, through its
 * learn callback, and capped per call with ccadical_limit) and
 * refinements, both over the whole group: never time. Invariant: the
 * solver is released on every path, an unwind too (the guard's slot is
 * held while it lives).
 */
#include <limits.h>
#include <string.h>

#include "core/phase.h"
#include "solve/solve_int.h"

#ifdef ISO_HAVE_CADICAL
#include <ccadical.h>

int solve_has_sat(void) { return 1; }

struct sat {
    CCaDiCaL *cd;
    const struct group *g;
    struct search *s;
    uint8_t *lit_on;
    uint8_t *prefer; /* per choice: the side x_i stands for */
    int *assume;
    uint32_t n_assume;
    uint64_t learned, max_learned, refinements, max_refinements, calls;
    double seconds;
    int known_cycle; /* the known edges alone closed a cycle */
    uint64_t found;  /* cycles forbidden after the last model */
};

enum { SAT_UNKNOWN = 0, SAT_YES = 10, SAT_NO = 20 };
/* The most cycles forbidden after one model: enough to settle a round's
 * worth, few enough that one bad model does not spend the budget. */
#define SAT_CYCLES_PER_MODEL 4096

static int var_a(const struct sat *t, uint32_t i) { return (int)(t->g->n_choices + i) + 1; }

/* The literal true when choice i takes side s: x_i for its preferred side
 * (CaDiCaL tries a variable true first), -x_i for the other. */
static int side_lit(const struct sat *t, uint32_t i, uint32_t s)
{
    return s == t->prefer[i] ? (int)i + 1 : -((int)i + 1);
}

/* Each choice prefers the side with more of its edges going forward in a
 * topological order of the known and forced edges: in an execution that
 * is valid, those usually agree with it, and the first model is close to
 * a witness (fewer cycles to forbid). For snapshot isolation only the
 * dependencies count: a state entered by an anti edge has only such edges
 * in, none of them known, and ranks among the first (parallel SI: layer
 * 1's); for prefix, the edges from the states no read entered (one copy of
 * each dependency, no anti edge). */
static void set_preferences(struct sat *t, const uint8_t *forced)
{
    const struct group *g = t->g;
    for (uint32_t i = 0; i < g->n_choices; i++) t->lit_on[2 * i] = t->lit_on[2 * i + 1] = 0;
    for (uint32_t i = 0; i < g->n_choices; i++)
        if (forced && forced[i] != SOLVE_SIDE_NONE) t->lit_on[2 * i + forced[i]] = 1;
    int ranked = search_rank(g, t->lit_on, t->s) == 0;
    for (uint32_t i = 0; i < g->n_choices; i++) {
        long forward = 0;
        for (uint32_t s = 0; ranked && s < 2; s++)
            for (uint32_t k = g->lit_off[2 * i + s]; k < g->lit_off[2 * i + s + 1]; k++) {
                uint32_t e = g->lit_edge[k];
                if (g->model == SOLVE_PC ? (g->state[g->from[e]] & 1) : g->shift && (g->state[g->to[e]] & 1))
                    continue;
                forward += (t->s->rank[g->from[e]] < t->s->rank[g->to[e]]) == (s == 0) ? 1 : -1;
            }
        t->prefer[i] = forward < 0;
    }
}

static void count_learned(void *state, int *clause)
{
    (void)clause;
    ((struct sat *)state)->learned++;
}

static void release_cd(void *cd) { ccadical_release(cd); }

/* The sides the model takes, as literals on. */
static void read_model(struct sat *t)
{
    for (uint32_t i = 0; i < t->g->n_choices; i++) {
        int on = ccadical_val(t->cd, var_a(t, i)) > 0, zero = ccadical_val(t->cd, side_lit(t, i, 0)) > 0;
        t->lit_on[2 * i] = (uint8_t)(on && zero);
        t->lit_on[2 * i + 1] = (uint8_t)(on && !zero);
    }
}

/* Forbid the cycle found (each of search_cycles); a cycle of known edges
 * alone (nothing to add, nothing can help) stops the search. */
static int forbid_cycle(void *arg, const struct search *s)
{
    struct sat *t = arg;
    int n = 0;
    for (uint32_t k = 0; k < s->n_cycle; k++) {
        uint32_t own = t->g->own[s->cycle[k]];
        if (own == ISO_NONE) continue;
        ccadical_add(t->cd, -var_a(t, own / 2));
        ccadical_add(t->cd, -side_lit(t, own / 2, own % 2));
        n++;
    }
    if (!n) {
        t->known_cycle = 1;
        return 0;
    }
    ccadical_add(t->cd, 0);
    t->refinements++;
    t->found++;
    return t->refinements < t->max_refinements && t->found < SAT_CYCLES_PER_MODEL;
}

/* Solve under t->assume, forbidding cycles as they come: SAT_YES (t->lit_on
 * is an acyclic choice), SAT_NO, or SAT_UNKNOWN (the budget ran out). */
static int lazy_solve(struct sat *t)
{
    for (;;) {
        if (t->learned >= t->max_learned || t->refinements >= t->max_refinements) return SAT_UNKNOWN;
        for (uint32_t k = 0; k < t->n_assume; k++) ccadical_assume(t->cd, t->assume[k]);
        uint64_t left = t->max_learned - t->learned;
        ccadical_limit(t->cd, "conflicts", left > INT_MAX ? INT_MAX : (int)left);
        double t0 = iso_now();
        int r = ccadical_solve(t->cd);
        t->seconds += iso_now() - t0;
        t->calls++;
        if (r != SAT_YES) return r == SAT_NO ? SAT_NO : SAT_UNKNOWN;
        read_model(t);
        t->found = 0;
        search_cycles(t->g, t->lit_on, t->s, forbid_cycle, t);
        if (t->known_cycle) return SAT_NO;
        if (!t->found) return SAT_YES;
    }
}

/* Assume choice i active when in[i] (and on its forced side, if given). */
static void set_assumptions(struct sat *t, const uint8_t *in, const uint8_t *forced)
{
    t->n_assume = 0;
    for (uint32_t i = 0; i < t->g->n_choices; i++) {
        t->assume[t->n_assume++] = in[i] ? var_a(t, i) : -var_a(t, i);
        if (forced && forced[i] != SOLVE_SIDE_NONE)
            t->assume[t->n_assume++] = side_lit(t, i, forced[i]);
    }
}

/* The choices of in[] whose activation the last unsat answer failed on
 * (none when known edges alone close a cycle): into in[] and core[]; how
 * many. */
static uint32_t take_failed(struct sat *t, uint8_t *in, uint32_t *core)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->g->n_choices; i++) {
        in[i] = in[i] && !t->known_cycle && ccadical_failed(t->cd, var_a(t, i));
        if (in[i]) core[n++] = i;
    }
    return n;
}

/* Deletion: each choice of the core left out in turn; kept when the rest
 * is satisfiable (or undecided within the budget). */
static void shrink(struct sat *t, uint8_t *in, struct sat_out *out)
{
    out->core_minimal = 1;
    for (uint32_t k = 0; k < out->n_core; k++) {
        uint32_t i = out->core[k];
        in[i] = 0;
        set_assumptions(t, in, NULL);
        int r = lazy_solve(t);
        if (r != SAT_NO) {
            in[i] = 1;
            out->core_minimal &= r == SAT_YES;
            continue;
        }
        out->n_core = take_failed(t, in, out->core);
        for (k = 0; k < out->n_core && out->core[k] < i; k++) {}
        k--; /* the loop's k++ lands on the first choice after i */
    }
}

/* The core of a group known invalid, among suspects (NULL: all). */
static void find_core(struct sat *t, const uint8_t *suspects, struct sat_out *out)
{
    uint8_t *in = iso_xmalloc((size_t)t->g->n_choices + 1);
    if (suspects) memcpy(in, suspects, t->g->n_choices);
    else memset(in, 1, t->g->n_choices);
    set_assumptions(t, in, NULL);
    int r = lazy_solve(t);
    out->core = iso_xmalloc(((size_t)t->g->n_choices + 1) * sizeof *out->core);
    if (r == SAT_NO) {
        out->n_core = take_failed(t, in, out->core);
        shrink(t, in, out);
    } else { /* undecided within the budget: the suspects, unshrunk */
        out->n_core = 0;
        for (uint32_t i = 0; i < t->g->n_choices; i++)
            if (in[i]) out->core[out->n_core++] = i;
        out->core_minimal = 0;
    }
    iso_free(in);
}

static void decide(struct sat *t, const uint8_t *forced, struct sat_out *out)
{
    uint8_t *in = iso_xmalloc((size_t)t->g->n_choices + 1);
    memset(in, 1, t->g->n_choices);
    set_assumptions(t, in, forced);
    iso_free(in);
    int r = lazy_solve(t);
    if (r == SAT_UNKNOWN) {
        out->verdict = SOLVE_UNKNOWN, out->why = "budget";
    } else if (r == SAT_YES) {
        out->verdict = SOLVE_VALID;
        out->side = iso_xmalloc((size_t)t->g->n_choices + 1);
        for (uint32_t i = 0; i < t->g->n_choices; i++) out->side[i] = !t->lit_on[2 * i];
    } else {
        out->verdict = SOLVE_INVALID;
    }
}

void sat_solve(const struct group *g, const uint8_t *forced, const uint8_t *suspects, const struct solve_budget *b,
               struct search *s, struct sat_out *out)
{
    struct sat t = {.g = g, .s = s, .max_learned = b->conflicts, .max_refinements = b->refinements};
    t.lit_on = iso_xcalloc(2 * (size_t)g->n_choices + 1, 1);
    t.prefer = iso_xmalloc((size_t)g->n_choices + 1);
    t.assume = iso_xmalloc((2 * (size_t)g->n_choices + 1) * sizeof *t.assume);
    set_preferences(&t, suspects ? NULL : forced);
    t.cd = ccadical_init();
    iso_guard_on_unwind(release_cd, t.cd);
    ccadical_set_option(t.cd, "quiet", 1);
    ccadical_set_learn(t.cd, &t, INT_MAX, count_learned);
    out->verdict = SOLVE_INVALID;
    if (!suspects) decide(&t, forced, out);
    if (out->verdict == SOLVE_INVALID) find_core(&t, suspects, out);
    iso_guard_on_unwind(NULL, NULL);
    ccadical_release(t.cd);
    out->refinements = t.refinements, out->calls = t.calls, out->seconds = t.seconds;
    iso_free(t.lit_on);
    iso_free(t.prefer);
    iso_free(t.assume);
}

#else

int solve_has_sat(void) { return 0; }

void sat_solve(const struct group *g, const uint8_t *forced, const uint8_t *suspects, const struct solve_budget *b,
               struct search *s, struct sat_out *out)
{
    (void)g, (void)forced, (void)suspects, (void)b, (void)s;
    out->verdict = SOLVE_UNKNOWN;
    out->why = "built without CaDiCaL";
}

#endif
