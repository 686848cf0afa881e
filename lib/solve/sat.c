/*
 * solve/sat.c -- a group decided by CaDiCaL (Debian's libcadical-dev,
 * through ccadical.h) with acyclicity added lazily, and the unsat core of
 * an invalid group.
 *
 * Encoding: choice i has x_i (true: side 0) and an activation a_i; side s
 * of choice i is taken when a_i holds and x_i says s. A cycle of the
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
    int *assume;
    uint32_t n_assume;
    uint64_t learned, max_learned, refinements, max_refinements, calls;
    double seconds;
    int known_cycle; /* the known edges alone closed a cycle */
};

enum { SAT_UNKNOWN = 0, SAT_YES = 10, SAT_NO = 20 };

static int var_x(const struct sat *t, uint32_t i) { (void)t; return (int)i + 1; }
static int var_a(const struct sat *t, uint32_t i) { return (int)(t->g->n_choices + i) + 1; }

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
        int on = ccadical_val(t->cd, var_a(t, i)) > 0, x = ccadical_val(t->cd, var_x(t, i)) > 0;
        t->lit_on[2 * i] = (uint8_t)(on && x);
        t->lit_on[2 * i + 1] = (uint8_t)(on && !x);
    }
}

/* Forbid the cycle found; 0 when it has no choice's edge (known edges alone
 * close it: nothing to add, nothing can help). */
static int forbid_cycle(struct sat *t)
{
    int n = 0;
    for (uint32_t k = 0; k < t->s->n_cycle; k++) {
        uint32_t own = t->g->own[t->s->cycle[k]];
        if (own == ISO_NONE) continue;
        ccadical_add(t->cd, -var_a(t, own / 2));
        ccadical_add(t->cd, own % 2 ? var_x(t, own / 2) : -var_x(t, own / 2));
        n++;
    }
    if (n) ccadical_add(t->cd, 0);
    return n;
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
        if (!search_cycle(t->g, t->lit_on, NULL, 0, NULL, 0, t->s)) return SAT_YES;
        if (!forbid_cycle(t)) {
            t->known_cycle = 1;
            return SAT_NO;
        }
        t->refinements++;
    }
}

/* Assume choice i active when in[i] (and on its forced side, if given). */
static void set_assumptions(struct sat *t, const uint8_t *in, const uint8_t *forced)
{
    t->n_assume = 0;
    for (uint32_t i = 0; i < t->g->n_choices; i++) {
        t->assume[t->n_assume++] = in[i] ? var_a(t, i) : -var_a(t, i);
        if (forced && forced[i] != SOLVE_SIDE_NONE)
            t->assume[t->n_assume++] = forced[i] ? -var_x(t, i) : var_x(t, i);
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

/* The core of a group known invalid. */
static void find_core(struct sat *t, struct sat_out *out)
{
    uint8_t *in = iso_xmalloc((size_t)t->g->n_choices + 1);
    memset(in, 1, t->g->n_choices);
    set_assumptions(t, in, NULL);
    int r = lazy_solve(t);
    out->core = iso_xmalloc(((size_t)t->g->n_choices + 1) * sizeof *out->core);
    if (r == SAT_NO) {
        out->n_core = take_failed(t, in, out->core);
        shrink(t, in, out);
    } else { /* undecided within the budget: every choice, unshrunk */
        for (uint32_t i = 0; i < t->g->n_choices; i++) out->core[i] = i;
        out->n_core = t->g->n_choices;
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

void sat_solve(const struct group *g, const uint8_t *forced, int known_invalid, const struct solve_budget *b,
               struct search *s, struct sat_out *out)
{
    struct sat t = {.g = g, .s = s, .max_learned = b->conflicts, .max_refinements = b->refinements};
    t.lit_on = iso_xcalloc(2 * (size_t)g->n_choices + 1, 1);
    t.assume = iso_xmalloc((2 * (size_t)g->n_choices + 1) * sizeof *t.assume);
    t.cd = ccadical_init();
    iso_guard_on_unwind(release_cd, t.cd);
    ccadical_set_option(t.cd, "quiet", 1);
    ccadical_set_learn(t.cd, &t, INT_MAX, count_learned);
    out->verdict = SOLVE_INVALID;
    if (!known_invalid) decide(&t, forced, out);
    if (out->verdict == SOLVE_INVALID) find_core(&t, out);
    iso_guard_on_unwind(NULL, NULL);
    ccadical_release(t.cd);
    out->refinements = t.refinements, out->calls = t.calls, out->seconds = t.seconds;
    iso_free(t.lit_on);
    iso_free(t.assume);
}

#else

int solve_has_sat(void) { return 0; }

void sat_solve(const struct group *g, const uint8_t *forced, int known_invalid, const struct solve_budget *b,
               struct search *s, struct sat_out *out)
{
    (void)g, (void)forced, (void)known_invalid, (void)b, (void)s;
    out->verdict = SOLVE_UNKNOWN;
    out->why = "built without CaDiCaL";
}

#endif
