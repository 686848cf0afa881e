/*
 * solve/prune.c -- sides forced before any solving. A side whose edges
 * close a cycle with the known edges and the sides forced so far cannot be
 * taken, so the other side is forced; rounds repeat until none forces
 * anything (a fixpoint), the work limit is reached, or a choice has no
 * side left (the group is invalid).
 *
 * Each round ranks the enabled edges topologically (they must be acyclic,
 * and for parallel SI hold no path 2u ~> 2u + 1, else the group is
 * invalid); a side can close a cycle (or such a path) only through one of
 * its own edges, and a path of enabled edges only climbs in rank, so the
 * search from the side's heads never enters a state ranked above its
 * highest tail. Invariant: a side is forced only when the other closes a
 * cycle found, never by the work limit (what pruning says is exact). Asked
 * for, the reasons are kept (the forced sides on each such cycle), so that
 * a contradiction names the few choices it rests on: where the search for
 * a core starts.
 */
#include <string.h>

#include "solve/solve_int.h"

/* Why each side was forced: the choices of the forced sides on the cycle
 * that ruled the other side out (buf[start[i] .. start[i] + len[i])); and
 * those of the contradiction. */
struct reasons {
    uint32_t *start, *len, *buf;
    size_t n, cap;
    uint32_t conflict_start, conflict_len, conflict_choice;
};

/* The most edges one side's test looks at: a side whose cycle is further
 * away is left to the solver (whose first model takes the sides that
 * agree with the ranks), so pruning costs at most this per choice and
 * round, and settles the choices between writers close together. */
#define PRUNE_TEST_WORK 65536

struct round {
    const struct group *g;
    const uint8_t *active;
    uint8_t *forced;
    uint8_t *lit_on;
    uint32_t *starts;
    struct search *s;
    struct reasons *why; /* NULL: not asked for */
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
    r->s->stop_at = r->s->work + PRUNE_TEST_WORK;
    int found = search_cycle(g, r->lit_on, r->starts, n, r->s->rank, bound, r->s);
    for (uint32_t k = g->lit_off[l]; !found && k < g->lit_off[l + 1]; k++) /* parallel SI's paths */
        found = search_psi_through(g, r->lit_on, g->lit_edge[k], r->s->rank, bound, r->s);
    r->s->stop_at = UINT64_MAX;
    r->lit_on[l] = 0;
    return found;
}

/* The choices (but i) of the cycle just found, onto the reasons. */
static void note_cycle(struct round *r, uint32_t i)
{
    if (!r->why) return;
    for (uint32_t k = 0; k < r->s->n_cycle; k++) {
        uint32_t own = r->g->own[r->s->cycle[k]];
        if (own != ISO_NONE && own / 2 != i) ISO_PUSH(r->why->buf, r->why->n, r->why->cap, own / 2);
    }
}

/* The contradiction: choice i (ISO_NONE: none) and the reasons noted
 * since mark. */
static int conflict(struct round *r, uint32_t i, size_t mark)
{
    if (r->why)
        r->why->conflict_choice = i, r->why->conflict_start = (uint32_t)mark,
        r->why->conflict_len = (uint32_t)(r->why->n - mark);
    return 1;
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
    size_t mark = r->why ? r->why->n : 0;
    int cyclic = search_rank(g, r->lit_on, r->s) < 0;
    if ((cyclic || g->model == SOLVE_PSI) && search_forbidden(g, r->lit_on, r->s)) { /* PSI: ranks kept if not */
        note_cycle(r, ISO_NONE);
        return conflict(r, ISO_NONE, mark);
    }
    int rc = 0;
    memset(next, SOLVE_SIDE_NONE, g->n_choices);
    for (uint32_t i = 0; i < g->n_choices && r->s->work <= work_limit; i++) {
        if (!is_active(r, i) || r->forced[i] != SOLVE_SIDE_NONE) continue;
        mark = r->why ? r->why->n : 0;
        int c0 = closes_cycle(r, 2 * i);
        if (c0) note_cycle(r, i);
        int c1 = closes_cycle(r, 2 * i + 1);
        if (c1) note_cycle(r, i);
        if (c0 && c1) return conflict(r, i, mark);
        if (!c0 && !c1) continue;
        if (r->why) r->why->start[i] = (uint32_t)mark, r->why->len[i] = (uint32_t)(r->why->n - mark);
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

/* The contradiction's choices and, through the reasons, every choice
 * whose forcing it rests on, marked in culprits. */
static void mark_culprits(const struct group *g, const struct reasons *why, uint8_t *culprits)
{
    uint32_t *queue = iso_xmalloc(((size_t)g->n_choices + 1) * sizeof *queue), head = 0, tail = 0;
    memset(culprits, 0, g->n_choices);
    if (why->conflict_choice != ISO_NONE) culprits[why->conflict_choice] = 1, queue[tail++] = why->conflict_choice;
    for (uint32_t k = 0; k < why->conflict_len; k++) {
        uint32_t c = why->buf[why->conflict_start + k];
        if (!culprits[c]) culprits[c] = 1, queue[tail++] = c;
    }
    while (head < tail) {
        uint32_t c = queue[head++];
        for (uint32_t k = 0; k < why->len[c]; k++) {
            uint32_t d = why->buf[why->start[c] + k];
            if (!culprits[d]) culprits[d] = 1, queue[tail++] = d;
        }
    }
    iso_free(queue);
}

int prune(const struct group *g, const uint8_t *active, uint8_t *forced, struct search *s, uint64_t work_limit,
          uint8_t *culprits)
{
    uint32_t most = 1;
    for (uint32_t l = 0; l < 2 * g->n_choices; l++)
        if (g->lit_off[l + 1] - g->lit_off[l] > most) most = g->lit_off[l + 1] - g->lit_off[l];
    struct reasons why = {0};
    struct round r = {g, active, forced, iso_xcalloc(2 * (size_t)g->n_choices + 1, 1),
                      iso_xmalloc((size_t)most * sizeof(uint32_t)), s, culprits ? &why : NULL};
    if (culprits) {
        why.start = iso_xcalloc((size_t)g->n_choices + 1, sizeof *why.start);
        why.len = iso_xcalloc((size_t)g->n_choices + 1, sizeof *why.len);
    }
    uint8_t *next = iso_xmalloc((size_t)g->n_choices + 1);
    int rc;
    while ((rc = one_round(&r, next, work_limit)) == 2) {}
    if (rc == 1 && culprits) mark_culprits(g, &why, culprits);
    iso_free(why.start), iso_free(why.len), iso_free(why.buf);
    iso_free(next);
    iso_free(r.starts);
    iso_free(r.lit_on);
    return rc;
}
