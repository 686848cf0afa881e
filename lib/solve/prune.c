/*
 * solve/prune.c -- sides forced before any solving. A side whose edges
 * close a cycle with the known edges and the sides forced so far cannot be
 * taken, so the other side is forced; rounds repeat until none forces
 * anything (a fixpoint), the work limit is reached, or a choice has no
 * side left (the group is invalid).
 *
 * Each round ranks the enabled edges topologically (they must be acyclic,
 * else the group is invalid); a side can close a cycle only through one of
 * its own edges, and a path of enabled edges only climbs in rank, so the
 * search from the side's heads never enters a state ranked above its
 * highest tail. Invariant: a side is forced only when the other closes a
 * cycle found, never by the work limit (what pruning says is exact).
 */
#include <string.h>

#include "solve/solve_int.h"

struct round {
    const struct group *g;
    const uint8_t *active;
    uint8_t *forced;
    uint8_t *lit_on;
    uint32_t *starts;
    struct search *s;
};

static int is_active(const struct round *r, uint32_t i)
{
    return !r->active || r->active[i];
}

/* Whether literal l's edges close a cycle with those enabled now. */
static int closes_cycle(struct round *r, uint32_t l)
{
    const struct group *g = r->g;
    uint32_t bound = 0, n = 0;
    for (uint32_t k = g->lit_off[l]; k < g->lit_off[l + 1]; k++) {
        uint32_t e = g->lit_edge[k];
        if (r->s->rank[g->from[e]] > bound) bound = r->s->rank[g->from[e]];
        r->starts[n++] = g->to[e];
    }
    r->lit_on[l] = 1;
    int found = search_cycle(g, r->lit_on, r->starts, n, r->s->rank, bound, r->s);
    r->lit_on[l] = 0;
    return found;
}

static void enable_forced(struct round *r)
{
    memset(r->lit_on, 0, 2 * (size_t)r->g->n_choices);
    for (uint32_t i = 0; i < r->g->n_choices; i++)
        if (is_active(r, i) && r->forced[i] != SOLVE_SIDE_NONE) r->lit_on[2 * i + r->forced[i]] = 1;
}

/* Whether every edge of literal l climbs in rank (taking it keeps the
 * ranks a topological order). */
static int climbs(const struct round *r, uint32_t l)
{
    const struct group *g = r->g;
    for (uint32_t k = g->lit_off[l]; k < g->lit_off[l + 1]; k++)
        if (r->s->rank[g->from[g->lit_edge[k]]] >= r->s->rank[g->to[g->lit_edge[k]]]) return 0;
    return 1;
}

/* One round: 1 invalid, 0 nothing forced, 2 something forced. A side
 * forced whose edges climb in rank is taken at once (the ranks still
 * hold); the others at the round's end. */
static int one_round(struct round *r, uint8_t *next, uint64_t work_limit)
{
    const struct group *g = r->g;
    enable_forced(r);
    if (search_rank(g, r->lit_on, r->s) < 0) return 1;
    int rc = 0;
    memset(next, SOLVE_SIDE_NONE, g->n_choices);
    for (uint32_t i = 0; i < g->n_choices && r->s->work <= work_limit; i++) {
        if (!is_active(r, i) || r->forced[i] != SOLVE_SIDE_NONE) continue;
        int c0 = closes_cycle(r, 2 * i), c1 = closes_cycle(r, 2 * i + 1);
        if (c0 && c1) return 1;
        if (!c0 && !c1) continue;
        uint8_t side = c0 ? 1 : 0;
        if (!climbs(r, 2 * i + side)) {
            next[i] = side;
            continue;
        }
        r->forced[i] = side;
        r->lit_on[2 * i + side] = 1;
        rc = 2;
    }
    for (uint32_t i = 0; i < g->n_choices; i++)
        if (next[i] != SOLVE_SIDE_NONE) {
            r->forced[i] = next[i];
            rc = 2;
        }
    return r->s->work > work_limit ? 0 : rc;
}

int prune(const struct group *g, const uint8_t *active, uint8_t *forced, struct search *s, uint64_t work_limit)
{
    uint32_t most = 1;
    for (uint32_t l = 0; l < 2 * g->n_choices; l++)
        if (g->lit_off[l + 1] - g->lit_off[l] > most) most = g->lit_off[l + 1] - g->lit_off[l];
    struct round r = {g, active, forced, iso_xcalloc(2 * (size_t)g->n_choices + 1, 1),
                      iso_xmalloc((size_t)most * sizeof(uint32_t)), s};
    uint8_t *next = iso_xmalloc((size_t)g->n_choices + 1);
    int rc;
    while ((rc = one_round(&r, next, work_limit)) == 2) {}
    iso_free(next);
    iso_free(r.starts);
    iso_free(r.lit_on);
    return rc;
}
