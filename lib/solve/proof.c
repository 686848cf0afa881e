/*
 * solve/proof.c -- the proof that a group cannot be made acyclic: a set of
 * its choices (the core) and a tree of cases over them. Each case fixes
 * the sides of some of the core's choices, in the core's order, and shows
 * the cycle the known edges and those sides close; together the cases
 * cover every assignment of the core. A case ends as soon as its sides
 * close a cycle, so the tree is often far smaller than 2^n. Also the core
 * found with pruning alone (no solver): each choice left out in turn,
 * kept out when pruning still proves the rest invalid.
 * Invariant: every cycle listed was found in the graph of its case's
 * sides, so a reader can check each on its own; it is the shortest
 * through its first edge of a choice (breadth-first), as Elle shows the
 * shortest cycles it can.
 */
#include <string.h>

#include "solve/solve_int.h"

uint32_t proof_prune_core(const struct group *g, const uint8_t *suspects, struct search *s, uint64_t work_limit,
                          uint32_t *core)
{
    uint32_t m = g->n_choices, n = 0;
    uint8_t *in = iso_xmalloc((size_t)m + 1), *forced = iso_xmalloc((size_t)m + 1);
    memcpy(in, suspects, m);
    for (uint32_t i = 0; i < m; i++) {
        if (!in[i]) continue;
        in[i] = 0;
        memset(forced, SOLVE_SIDE_NONE, m);
        if (!prune(g, in, forced, s, work_limit, NULL)) in[i] = 1;
    }
    for (uint32_t i = 0; i < m; i++)
        if (in[i]) core[n++] = i;
    iso_free(in);
    iso_free(forced);
    return n;
}

struct builder {
    const struct group *g;
    const struct solve_input *in;
    struct solve_result *r;
    size_t cap_case, cap_assign, cap_step;
};

/* The input edge behind the group's edge e, as a step of a cycle. */
static struct solve_step step_of(const struct builder *b, uint32_t e)
{
    const struct group *g = b->g;
    uint32_t shift = b->in->model != SOLVE_SER, src = g->src[e], own = g->own[e];
    struct solve_step st = {g->state[g->from[e]] >> shift, g->state[g->to[e]] >> shift, 0, ISO_NONE, 0, src};
    if (own == ISO_NONE) {
        st.kind = b->in->edges[src].kind;
        return st;
    }
    st.edge = (uint32_t)(src - b->in->n_edges);
    st.kind = b->in->side_edges[st.edge].kind;
    st.choice = g->choice[own / 2], st.side = own % 2;
    return st;
}

static void add_case(struct builder *b, const uint32_t *core, const uint8_t *side, uint32_t depth,
                     const struct search *s)
{
    struct solve_result *r = b->r;
    struct solve_case c = {r->n_assign, depth, r->n_step, s->n_cycle};
    ISO_PUSH(r->cases, r->n_cases, b->cap_case, c);
    for (uint32_t d = 0; d < depth; d++) {
        struct solve_assign a = {b->g->choice[core[d]], side[d]};
        ISO_PUSH(r->assign, r->n_assign, b->cap_assign, a);
    }
    for (uint32_t k = 0; k < s->n_cycle; k++) ISO_PUSH(r->step, r->n_step, b->cap_step, step_of(b, s->cycle[k]));
}

/* The next case after a leaf at *depth: the deepest choice on side 0 moves
 * to side 1 (those below it undone). 0 when none is left. */
static int next_case(const uint32_t *core, uint8_t *side, uint8_t *lit_on, uint32_t *depth)
{
    while (*depth > 0) {
        uint32_t d = *depth - 1, c = core[d];
        lit_on[2 * c + side[d]] = 0;
        if (side[d] == 0) {
            side[d] = 1;
            lit_on[2 * c + 1] = 1;
            return 1;
        }
        (*depth)--;
    }
    return 0;
}

/* The cycle found made as short as it can be through its first edge of a
 * choice (of a known edge when it has none): a proof a person reads. */
static void shorten(const struct group *g, const uint8_t *lit_on, struct search *s)
{
    uint32_t e = s->cycle[0];
    for (uint32_t k = 0; k < s->n_cycle; k++)
        if (g->own[s->cycle[k]] != ISO_NONE) {
            e = s->cycle[k];
            break;
        }
    search_short_cycle(g, lit_on, e, s);
}

void proof_build(const struct group *g, const struct solve_input *in, const uint32_t *core, uint32_t n_core,
                 struct search *s, struct solve_result *r)
{
    struct builder b = {g, in, r, 0, 0, 0};
    uint8_t *lit_on = iso_xcalloc(2 * (size_t)g->n_choices + 1, 1), *side = iso_xmalloc((size_t)n_core + 1);
    uint32_t depth = 0;
    for (;;) {
        if (search_forbidden(g, lit_on, s)) {
            shorten(g, lit_on, s);
            add_case(&b, core, side, depth, s);
            int more = next_case(core, side, lit_on, &depth);
            if (more && r->n_cases == SOLVE_MAX_CASES) r->proof_truncated = 1;
            if (!more || r->proof_truncated) break;
        } else if (depth < n_core) {
            side[depth] = 0;
            lit_on[2 * core[depth++]] = 1;
        } else { /* the core's sides close no cycle: not a core (a bug) */
            r->proof_truncated = 1;
            break;
        }
    }
    iso_free(lit_on);
    iso_free(side);
}
