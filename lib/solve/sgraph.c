/*
 * solve/sgraph.c -- searches over a group's state graph, looking only at
 * the enabled edges (known, or whose literal is on): a cycle reachable
 * from given states (iterative depth-first search: a group may hold 10^6
 * states), and topological ranks (Kahn). Invariant: the scratch (struct
 * search) is sized for the group once; a search allocates nothing.
 */
#include <string.h>

#include "solve/solve_int.h"

void group_release(struct group *g)
{
    iso_free(g->state);
    iso_free(g->off);
    iso_free(g->from);
    iso_free(g->to);
    iso_free(g->own);
    iso_free(g->src);
    iso_free(g->choice);
    iso_free(g->lit_off);
    iso_free(g->lit_edge);
    memset(g, 0, sizeof *g);
}

void search_init(struct search *s, uint32_t n_states)
{
    size_t n = (size_t)n_states + 1;
    memset(s, 0, sizeof *s);
    s->stop_at = UINT64_MAX;
    s->stamp = iso_xcalloc(n, sizeof *s->stamp);
    s->pos = iso_xcalloc(n, sizeof *s->pos);
    s->stack = iso_xmalloc(n * sizeof *s->stack);
    s->cursor = iso_xmalloc(n * sizeof *s->cursor);
    s->rank = iso_xmalloc(n * sizeof *s->rank);
    s->queue = iso_xmalloc(n * sizeof *s->queue);
    s->cycle = iso_xmalloc(n * sizeof *s->cycle);
}

void search_release(struct search *s)
{
    iso_free(s->stamp);
    iso_free(s->pos);
    iso_free(s->stack);
    iso_free(s->cursor);
    iso_free(s->rank);
    iso_free(s->queue);
    iso_free(s->cycle);
    memset(s, 0, sizeof *s);
}

static int enabled(const struct group *g, const uint8_t *lit_on, uint32_t e)
{
    return g->own[e] == ISO_NONE || lit_on[g->own[e]];
}

/* The stack's edges from position i up, then edge e: the cycle (or the
 * path). */
static void take_cycle(struct search *s, uint32_t i, uint32_t top, uint32_t e)
{
    uint32_t n = 0;
    for (; i < top; i++) s->cycle[n++] = s->cursor[i] - 1;
    s->cycle[n++] = e;
    s->n_cycle = n;
}

/* Unwind the stack (positions cleared) after a cycle was found. */
static void clear_stack(struct search *s, uint32_t top)
{
    for (uint32_t i = 0; i <= top; i++) s->pos[s->stack[i]] = 0;
}

/* A search's bounds: states of rank <= bound only (rank not NULL); the
 * state sought (ISO_NONE: a cycle); what each cycle is handed to. */
struct bounds {
    const uint32_t *rank;
    uint32_t bound, target;
    int (*each)(void *arg, const struct search *s);
    void *arg;
    uint64_t n_found; /* cycles handed to each */
};

/* Whether edge e's head w ends the search: the target reached (the path
 * in s->cycle), or a cycle closed that each does not let pass. */
static int closes(struct bounds *b, struct search *s, uint32_t top, uint32_t w, uint32_t e)
{
    if (b->target != ISO_NONE) {
        if (w != b->target) return 0;
        take_cycle(s, 0, top, e);
        return 1;
    }
    if (!s->pos[w]) return 0;
    take_cycle(s, s->pos[w] - 1, top, e);
    b->n_found++;
    return !(b->each && b->each(b->arg, s));
}

/* Depth-first from root; 1 when a cycle (or the target) was found (in
 * s->cycle). With b->each, every cycle closed by an edge back into the
 * stack is handed to it and the search goes on while it returns nonzero:
 * 1 when it returned 0. */
static int dfs_from(const struct group *g, const uint8_t *lit_on, uint32_t root, struct bounds *b,
                    struct search *s)
{
    uint32_t top = 0;
    s->stack[0] = root;
    s->cursor[0] = g->off[root];
    s->pos[root] = 1;
    s->stamp[root] = s->epoch;
    for (;;) {
        uint32_t v = s->stack[top];
        if (s->cursor[top] == g->off[v + 1]) {
            s->pos[v] = 0;
            if (top == 0) return 0;
            top--;
            continue;
        }
        uint32_t e = s->cursor[top]++;
        if (++s->work > s->stop_at) { /* gave up: as if none */
            clear_stack(s, top);
            return 0;
        }
        if (!enabled(g, lit_on, e)) continue;
        uint32_t w = g->to[e];
        if (closes(b, s, top, w, e)) {
            clear_stack(s, top);
            return 1;
        }
        if (s->stamp[w] == s->epoch || (b->rank && b->rank[w] > b->bound)) continue;
        s->stamp[w] = s->epoch;
        s->pos[w] = ++top + 1;
        s->stack[top] = w;
        s->cursor[top] = g->off[w];
    }
}

static void next_epoch(const struct group *g, struct search *s)
{
    if (++s->epoch == 0) { /* wrapped: forget every old stamp */
        memset(s->stamp, 0, ((size_t)g->n_states + 1) * sizeof *s->stamp);
        s->epoch = 1;
    }
}

int search_cycle(const struct group *g, const uint8_t *lit_on, const uint32_t *starts, uint32_t n_starts,
                 const uint32_t *rank, uint32_t bound, struct search *s)
{
    struct bounds b = {rank, bound, ISO_NONE, NULL, NULL, 0};
    next_epoch(g, s);
    uint32_t n = starts ? n_starts : g->n_states;
    for (uint32_t i = 0; i < n && s->work <= s->stop_at; i++) {
        uint32_t v = starts ? starts[i] : i;
        if (s->stamp[v] == s->epoch || (rank && rank[v] > bound)) continue;
        if (dfs_from(g, lit_on, v, &b, s)) return 1;
    }
    s->n_cycle = 0;
    return 0;
}

/* ---- parallel SI's paths 2u ~> 2u + 1 ------------------------------------
 *
 * Parallel SI forbids the cycles with fewer than two anti edges, which no
 * state graph's cycles are (a loop of "anti, dep" would repeat), so its
 * state graph is two layers: a dependency in each, an anti edge from
 * layer 0 to layer 1, no edge back. Its cycles are the dependency cycles;
 * a path from 2u to 2u + 1 takes exactly one anti edge and projects on a
 * cycle of u with one anti edge. Both are sought: the cycles first, then,
 * the graph being acyclic, a search per anti edge over the states ranked
 * up to its target's (a path only climbs). */

/* Local state v's layer-1 twin (state[v] | 1), or ISO_NONE. */
static uint32_t twin(const struct group *g, uint32_t v)
{
    uint32_t x = g->state[v];
    if (x & 1) return ISO_NONE;
    return v + 1 < g->n_states && g->state[v + 1] == (x | 1) ? v + 1 : ISO_NONE;
}

/* Edge e's path to its tail's twin t (as search_psi_through); with
 * again, the states stamped since the last new epoch are known not to
 * reach t (a search for t that found nothing, the same edges enabled). */
static int psi_search(const struct group *g, const uint8_t *lit_on, uint32_t e, uint32_t t, const uint32_t *rank,
                      uint32_t bound, int again, struct search *s)
{
    struct bounds b = {rank, rank[t] > bound ? rank[t] : bound, t, NULL, NULL, 0};
    if (!again) next_epoch(g, s);
    uint32_t h = g->to[e];
    if (rank[h] > b.bound || s->stamp[h] == s->epoch || !dfs_from(g, lit_on, h, &b, s)) return 0;
    memmove(s->cycle + 1, s->cycle, (size_t)s->n_cycle * sizeof *s->cycle);
    s->cycle[0] = e;
    s->n_cycle++;
    return 1;
}

int search_psi_through(const struct group *g, const uint8_t *lit_on, uint32_t e, const uint32_t *rank,
                       uint32_t bound, struct search *s)
{
    uint32_t t = g->model == SOLVE_PSI ? twin(g, g->from[e]) : ISO_NONE;
    return t != ISO_NONE && psi_search(g, lit_on, e, t, rank, bound, 0, s);
}

/* Every enabled anti edge's path to its tail's twin handed to each (NULL:
 * the first found ends it, 1). Ranks the graph (acyclic: the caller
 * found no cycle). A state's anti edges share a target, so one epoch
 * serves them until a path is found. */
static int psi_paths(const struct group *g, const uint8_t *lit_on, struct search *s,
                     int (*each)(void *arg, const struct search *s), void *arg)
{
    if (search_rank(g, lit_on, s) < 0) return 0;
    uint32_t last = ISO_NONE;
    for (uint32_t e = 0; e < g->n_edges && s->work <= s->stop_at; e++) {
        if (!enabled(g, lit_on, e) || (g->state[g->to[e]] & 1) == (g->state[g->from[e]] & 1)) continue;
        uint32_t t = twin(g, g->from[e]);
        if (t == ISO_NONE) continue;
        int found = psi_search(g, lit_on, e, t, s->rank, 0, t == last, s);
        last = found ? ISO_NONE : t;
        if (found && !(each && each(arg, s))) return 1;
    }
    return 0;
}

int search_forbidden(const struct group *g, const uint8_t *lit_on, struct search *s)
{
    if (search_cycle(g, lit_on, NULL, 0, NULL, 0, s)) return 1;
    return g->model == SOLVE_PSI && psi_paths(g, lit_on, s, NULL, NULL);
}

int search_cycles(const struct group *g, const uint8_t *lit_on, struct search *s,
                  int (*each)(void *arg, const struct search *s), void *arg)
{
    struct bounds b = {NULL, 0, ISO_NONE, each, arg, 0};
    next_epoch(g, s);
    for (uint32_t v = 0; v < g->n_states; v++)
        if (s->stamp[v] != s->epoch && dfs_from(g, lit_on, v, &b, s)) return 1;
    return !b.n_found && g->model == SOLVE_PSI && psi_paths(g, lit_on, s, each, arg);
}

int search_rank(const struct group *g, const uint8_t *lit_on, struct search *s)
{
    uint32_t *indeg = s->pos; /* borrowed: zero outside searches, zero again after */
    for (uint32_t e = 0; e < g->n_edges; e++)
        if (enabled(g, lit_on, e)) indeg[g->to[e]]++;
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < g->n_states; v++)
        if (indeg[v] == 0) s->queue[tail++] = v;
    while (head < tail) {
        uint32_t v = s->queue[head];
        s->rank[v] = head++;
        for (uint32_t e = g->off[v]; e < g->off[v + 1]; e++)
            if (enabled(g, lit_on, e) && --indeg[g->to[e]] == 0) s->queue[tail++] = g->to[e];
    }
    s->work += g->n_edges;
    if (tail == g->n_states) return 0;
    memset(indeg, 0, (size_t)g->n_states * sizeof *indeg);
    return -1;
}

/* The path found back from end to e's head, by parent edges, reversed
 * into s->cycle after e. */
static void take_path(const struct group *g, struct search *s, uint32_t e, uint32_t end)
{
    uint32_t n = 1;
    for (uint32_t v = end; v != g->to[e]; v = g->from[s->cursor[v]]) s->cycle[n++] = s->cursor[v];
    s->cycle[0] = e;
    for (uint32_t i = 1, j = n - 1; i < j; i++, j--) {
        uint32_t x = s->cycle[i];
        s->cycle[i] = s->cycle[j], s->cycle[j] = x;
    }
    s->n_cycle = n;
}

int search_short_cycle(const struct group *g, const uint8_t *lit_on, uint32_t e, struct search *s)
{
    next_epoch(g, s);
    uint32_t head = 0, tail = 0, goal = g->from[e], twin_goal = g->model == SOLVE_PSI ? twin(g, goal) : ISO_NONE;
    s->queue[tail++] = g->to[e];
    s->stamp[g->to[e]] = s->epoch;
    while (head < tail) {
        uint32_t v = s->queue[head++];
        if (v == goal || v == twin_goal) {
            take_path(g, s, e, v);
            return 1;
        }
        for (uint32_t f = g->off[v]; f < g->off[v + 1]; f++) {
            uint32_t w = g->to[f];
            s->work++;
            if (!enabled(g, lit_on, f) || s->stamp[w] == s->epoch) continue;
            s->stamp[w] = s->epoch;
            s->cursor[w] = f; /* the edge that reached w */
            s->queue[tail++] = w;
        }
    }
    return 0;
}
