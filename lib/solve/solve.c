/*
 * solve/solve.c -- solve_run: the input checked, split into groups, each
 * group pruned then (what pruning leaves) solved, the first invalid one
 * proved; the result. Groups go in order of their smallest transaction
 * and solving stops at the first invalid one (the verdict is then known).
 * Invariant: a valid verdict's sides are checked acyclic group by group
 * (by the solver's last search, or here when pruning forced every side).
 */
#include <string.h>

#include "core/error.h"
#include "core/phase.h"
#include "solve/solve_int.h"

struct run {
    const struct solve_input *in;
    struct solve_result *r;
    struct solve_budget b;
    struct split sp;
};

static int bad_edge(const struct solve_edge *e, uint32_t n)
{
    return e->from >= n || e->to >= n || e->from == e->to || e->kind > SOLVE_READ;
}

static int check_input(const struct solve_input *in, isolde_error *err)
{
    if (in->n_txns > (UINT32_MAX >> 2) || in->n_edges > (UINT32_MAX >> 2) || in->n_side_edges > (UINT32_MAX >> 2) ||
        in->n_choices > (UINT32_MAX >> 3) || in->n_edges + in->n_side_edges > (UINT32_MAX >> 2))
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "solve: too many transactions, edges or choices");
    if ((unsigned)in->model > SOLVE_PC)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "solve: no model %u", (unsigned)in->model);
    for (size_t i = 0; i < in->n_edges; i++)
        if (bad_edge(&in->edges[i], in->n_txns))
            return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "solve: known edge %zu is not between two of the "
                            "%u transactions", i, in->n_txns);
    if (in->n_choices && !in->side_start)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "solve: choices without their sides");
    for (uint32_t l = 0; in->n_choices && l < 2 * in->n_choices; l++)
        if (in->side_start[l] > in->side_start[l + 1] || in->side_start[l + 1] > in->n_side_edges)
            return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "solve: choice %u's side offsets do not fit", l / 2);
    for (size_t j = 0; j < in->n_side_edges; j++)
        if (bad_edge(&in->side_edges[j], in->n_txns))
            return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "solve: side edge %zu is not between two of the "
                            "%u transactions", j, in->n_txns);
    return 0;
}

/* The group's transactions, ascending, into the result. */
static void name_group(struct run *u, const struct group *g)
{
    struct solve_result *r = u->r;
    iso_free(r->group_txns);
    r->group_txns = iso_xmalloc(((size_t)g->n_states + 1) * sizeof *r->group_txns);
    r->n_group_txns = 0;
    for (uint32_t v = 0; v < g->n_states; v++) {
        uint32_t t = g->state[v] >> u->sp.shift;
        if (r->n_group_txns == 0 || r->group_txns[r->n_group_txns - 1] != t) r->group_txns[r->n_group_txns++] = t;
    }
}

/* 1 when the forced sides (all of them) close a cycle. */
static int forced_cycle(const struct group *g, const uint8_t *forced, struct search *s)
{
    uint8_t *lit_on = iso_xcalloc(2 * (size_t)g->n_choices + 1, 1);
    for (uint32_t i = 0; i < g->n_choices; i++) lit_on[2 * i + forced[i]] = 1;
    int found = search_forbidden(g, lit_on, s);
    iso_free(lit_on);
    return found;
}

/* Pruning, then the solver on what it leaves: into out. */
static void decide_group(struct run *u, const struct group *g, uint8_t *forced, struct search *s,
                         struct sat_out *out)
{
    memset(forced, SOLVE_SIDE_NONE, g->n_choices);
    uint8_t *suspects = iso_xmalloc((size_t)g->n_choices + 1);
    int bad = prune(g, NULL, forced, s, u->b.prune_work, suspects);
    uint32_t n_forced = 0;
    for (uint32_t i = 0; i < g->n_choices; i++) n_forced += forced[i] != SOLVE_SIDE_NONE;
    u->r->stats.n_pruned += n_forced;
    if (!bad && n_forced == g->n_choices && forced_cycle(g, forced, s)) { /* the work limit left it unchecked */
        bad = 1;
        memset(suspects, 1, g->n_choices);
    }
    if (!bad && n_forced == g->n_choices) {
        out->verdict = SOLVE_VALID;
    } else if (!bad || solve_has_sat()) {
        sat_solve(g, forced, bad ? suspects : NULL, &u->b, s, out);
        if (!bad && out->verdict != SOLVE_UNKNOWN) u->r->stats.n_solved += g->n_choices - n_forced;
    } else {
        out->verdict = SOLVE_INVALID;
        out->core = iso_xmalloc(((size_t)g->n_choices + 1) * sizeof *out->core);
        out->n_core = proof_prune_core(g, suspects, s, s->work + u->b.prune_work, out->core);
    }
    iso_free(suspects);
}

/* What the group's answer adds to the result. */
static void record_group(struct run *u, const struct group *g, const uint8_t *forced, struct sat_out *out,
                         struct search *s)
{
    struct solve_result *r = u->r;
    for (uint32_t i = 0; i < g->n_choices; i++)
        r->side[g->choice[i]] = out->side ? out->side[i] : forced[i];
    r->stats.refinements += out->refinements, r->stats.solver_calls += out->calls;
    r->stats.solver_seconds += out->seconds;
    if (out->verdict == SOLVE_UNKNOWN) {
        r->stats.n_unknown_groups++;
        if (r->verdict == SOLVE_VALID) r->verdict = SOLVE_UNKNOWN, r->why = out->why, name_group(u, g);
    } else if (out->verdict == SOLVE_INVALID) {
        r->verdict = SOLVE_INVALID, r->why = NULL;
        name_group(u, g);
        r->core = iso_xmalloc(((size_t)out->n_core + 1) * sizeof *r->core);
        for (uint32_t k = 0; k < out->n_core; k++) r->core[k] = g->choice[out->core[k]];
        r->n_core = out->n_core, r->core_minimal = out->core_minimal;
        if (out->core_minimal || out->n_core <= SOLVE_MAX_CASES) proof_build(g, u->in, out->core, out->n_core, s, r);
        else r->proof_truncated = 1; /* a large core not shrunk: its cases would tell nothing */
    }
}

static void solve_group(struct run *u, uint32_t gi)
{
    struct group g;
    struct search s;
    struct sat_out out = {0};
    split_group(&u->sp, gi, &g);
    search_init(&s, g.n_states);
    uint8_t *forced = iso_xmalloc((size_t)g.n_choices + 1);
    decide_group(u, &g, forced, &s, &out);
    record_group(u, &g, forced, &out, &s);
    iso_free(out.side);
    iso_free(out.core);
    iso_free(forced);
    search_release(&s);
    group_release(&g);
}

static int run(void *arg, isolde_error *err)
{
    struct run *u = arg;
    const struct solve_input *in = u->in;
    struct solve_result *r = u->r;
    double t0 = iso_now();
    if (check_input(in, err) < 0) return -1;
    split_build(in, &u->sp);
    r->side = iso_xmalloc((size_t)in->n_choices + 1);
    for (uint32_t c = 0; c < in->n_choices; c++) {
        int free_choice = u->sp.choice_grp[c] == ISO_NONE;
        r->side[c] = free_choice ? 0 : SOLVE_SIDE_NONE;
        r->stats.n_free += (uint32_t)free_choice;
    }
    r->stats.n_choices = in->n_choices;
    r->stats.n_groups = u->sp.n_groups;
    for (uint32_t gi = 0; gi < u->sp.n_groups && r->verdict != SOLVE_INVALID; gi++) solve_group(u, gi);
    split_release(&u->sp);
    r->stats.seconds = iso_now() - t0;
    return 0;
}

int solve_run(const struct solve_input *in, struct solve_result *out, isolde_error *err)
{
    struct run u = {in, out, in->budget, {0}};
    memset(out, 0, sizeof *out);
    if (!u.b.conflicts) u.b.conflicts = SOLVE_DEFAULT_CONFLICTS;
    if (!u.b.refinements) u.b.refinements = SOLVE_DEFAULT_REFINEMENTS;
    if (!u.b.prune_work) u.b.prune_work = SOLVE_DEFAULT_PRUNE_WORK;
    if (iso_call(run, &u, err) == ISOLDE_OK) return 0;
    memset(out, 0, sizeof *out); /* what run allocated went with its guard */
    return -1;
}

void solve_result_release(struct solve_result *r)
{
    iso_free(r->side);
    iso_free(r->group_txns);
    iso_free(r->core);
    iso_free(r->cases);
    iso_free(r->assign);
    iso_free(r->step);
    memset(r, 0, sizeof *r);
}
