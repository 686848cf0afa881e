/*
 * solve/split.c -- the whole input's state graph (known edges and both
 * sides of every choice, in CSR), its strongly connected components
 * (iterative Tarjan), and the groups solved apart: the components joined
 * by any choice with edges inside several. An edge between components is
 * on no cycle whatever is chosen, so a group keeps only the edges inside
 * its components, and a choice with no edge inside any is free.
 * Invariant: groups are numbered by their smallest state, their states and
 * choices listed ascending, so the same input always splits the same way.
 */
#include <string.h>

#include "solve/solve_int.h"

/* The state edges of an input edge (u -> v): for serializability the edge
 * itself; for snapshot isolation (state 2t + 1: entered by an anti edge)
 * a dependency from either state of u to v's first state, an anti edge
 * only from u's first state; for parallel SI (state 2t + 1: t after the
 * one anti edge, solve.h) a dependency in each layer, an anti edge from
 * layer 0 to layer 1; for prefix (state 2t + 1: entered by a read) a
 * dependency from either state of u to v's first state, a read to its
 * second, an anti edge only from u's second. Returns how many (into a[],
 * b[]). */
static int expand(enum solve_model m, const struct solve_edge *e, uint32_t a[2], uint32_t b[2])
{
    if (m == SOLVE_SER) {
        a[0] = e->from, b[0] = e->to;
        return 1;
    }
    if (m == SOLVE_PC && e->kind == SOLVE_ANTI) {
        a[0] = 2 * e->from + 1, b[0] = 2 * e->to;
        return 1;
    }
    if (m == SOLVE_PC) {
        uint32_t read = e->kind == SOLVE_READ;
        a[0] = 2 * e->from, a[1] = 2 * e->from + 1, b[0] = b[1] = 2 * e->to + read;
        return 2;
    }
    if (e->kind == SOLVE_ANTI) {
        a[0] = 2 * e->from, b[0] = 2 * e->to + 1;
        return 1;
    }
    if (m == SOLVE_PSI) {
        a[0] = 2 * e->from, a[1] = 2 * e->from + 1, b[0] = 2 * e->to, b[1] = 2 * e->to + 1;
        return 2;
    }
    a[0] = 2 * e->from, a[1] = 2 * e->from + 1, b[0] = b[1] = 2 * e->to;
    return 2;
}

/* Every input edge with its owner (ISO_NONE, or choice c's side s as the
 * literal 2c + s) and input id, handed to fn. */
static void each_edge(const struct solve_input *in, void (*fn)(void *arg, const struct solve_edge *e, uint32_t own,
                                                              uint32_t id), void *arg)
{
    for (size_t i = 0; i < in->n_edges; i++) fn(arg, &in->edges[i], ISO_NONE, (uint32_t)i);
    for (uint32_t l = 0; l < 2 * in->n_choices; l++)
        for (size_t j = in->side_start[l]; j < in->side_start[l + 1]; j++)
            fn(arg, &in->side_edges[j], l, (uint32_t)(in->n_edges + j));
}

struct fill {
    struct split *sp;
    enum solve_model model;
    uint32_t *at; /* NULL: count out-degrees into off[] */
};

static void fill_edge(void *arg, const struct solve_edge *e, uint32_t own, uint32_t id)
{
    struct fill *f = arg;
    uint32_t a[2], b[2];
    int n = expand(f->model, e, a, b);
    for (int k = 0; k < n; k++) {
        if (!f->at) {
            f->sp->off[a[k] + 1]++;
            continue;
        }
        uint32_t x = f->at[a[k]]++;
        f->sp->to[x] = b[k], f->sp->own[x] = own, f->sp->src[x] = id;
    }
}

/* Parallel SI's links 2t + 1 -> 2t (SPLIT_LINK: in the components, never
 * in a group): a forbidden path 2t ~> 2t + 1 and its link make a cycle,
 * so every edge of one lies inside a component. */
static void link_edges(const struct solve_input *in, struct fill *f)
{
    for (uint32_t t = 0; in->model == SOLVE_PSI && t < in->n_txns; t++) {
        if (!f->at) {
            f->sp->off[2 * t + 2]++;
            continue;
        }
        uint32_t x = f->at[2 * t + 1]++;
        f->sp->to[x] = 2 * t, f->sp->own[x] = SPLIT_LINK, f->sp->src[x] = ISO_NONE;
    }
}

static void build_csr(const struct solve_input *in, struct split *sp)
{
    struct fill f = {sp, in->model, NULL};
    sp->off = iso_xcalloc((size_t)sp->n_states + 1, sizeof *sp->off);
    each_edge(in, fill_edge, &f);
    link_edges(in, &f);
    for (uint32_t v = 0; v < sp->n_states; v++) sp->off[v + 1] += sp->off[v];
    size_t m = sp->off[sp->n_states];
    sp->to = iso_xmalloc((m + 1) * sizeof *sp->to);
    sp->own = iso_xmalloc((m + 1) * sizeof *sp->own);
    sp->src = iso_xmalloc((m + 1) * sizeof *sp->src);
    f.at = iso_xmalloc(((size_t)sp->n_states + 1) * sizeof *f.at);
    memcpy(f.at, sp->off, (size_t)sp->n_states * sizeof *f.at);
    each_edge(in, fill_edge, &f);
    link_edges(in, &f);
    iso_free(f.at);
}

struct tarjan {
    uint32_t *idx, *low, *st, *cs, *cur;
    uint32_t counter, sp, csp, n_comp;
};

static void tj_push(struct tarjan *t, const struct split *s, uint32_t w)
{
    t->idx[w] = t->low[w] = t->counter++;
    t->st[t->sp++] = w;
    t->cs[t->csp] = w;
    t->cur[t->csp++] = s->off[w];
}

/* v's exploration is over: close its component if it is the root. */
static void tj_finish(struct tarjan *t, struct split *s, uint32_t v)
{
    if (t->low[v] == t->idx[v]) {
        uint32_t w;
        do {
            w = t->st[--t->sp];
            s->comp[w] = t->n_comp;
        } while (w != v);
        t->n_comp++;
    }
    if (--t->csp) {
        uint32_t u = t->cs[t->csp - 1];
        if (t->low[v] < t->low[u]) t->low[u] = t->low[v];
    }
}

static void tarjan(struct split *s)
{
    size_t n = (size_t)s->n_states + 1;
    struct tarjan t = {iso_xmalloc(n * 4), iso_xmalloc(n * 4), iso_xmalloc(n * 4), iso_xmalloc(n * 4),
                       iso_xmalloc(n * 4), 0, 0, 0, 0};
    memset(t.idx, 0xff, n * 4);
    memset(s->comp, 0xff, n * 4);
    for (uint32_t r = 0; r < s->n_states; r++) {
        if (t.idx[r] != ISO_NONE) continue;
        tj_push(&t, s, r);
        while (t.csp) {
            uint32_t v = t.cs[t.csp - 1];
            if (t.cur[t.csp - 1] == s->off[v + 1]) {
                tj_finish(&t, s, v);
                continue;
            }
            uint32_t w = s->to[t.cur[t.csp - 1]++];
            if (t.idx[w] == ISO_NONE) tj_push(&t, s, w);
            else if (s->comp[w] == ISO_NONE && t.idx[w] < t.low[v]) t.low[v] = t.idx[w];
        }
    }
    s->n_comp = t.n_comp;
    iso_free(t.idx), iso_free(t.low), iso_free(t.st), iso_free(t.cs), iso_free(t.cur);
}

static uint32_t find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

/* Join the components in which choice c has edges; its first such
 * component, or ISO_NONE (the choice is free). */
static uint32_t join_choice(const struct solve_input *in, struct split *s, uint32_t *parent, uint32_t c)
{
    uint32_t first = ISO_NONE, a[2], b[2];
    for (size_t j = in->side_start[2 * c]; j < in->side_start[2 * c + 2]; j++) {
        int n = expand(in->model, &in->side_edges[j], a, b);
        for (int k = 0; k < n; k++) {
            if (s->comp[a[k]] != s->comp[b[k]]) continue;
            if (first == ISO_NONE) first = s->comp[a[k]];
            else parent[find(parent, s->comp[a[k]])] = find(parent, first);
        }
    }
    return first;
}

/* Counting sort of ids 0..n-1 by key (ISO_NONE left out), stable. */
static void bucket(const uint32_t *key, uint32_t n, uint32_t n_keys, uint32_t **off, uint32_t **ids)
{
    *off = iso_xcalloc((size_t)n_keys + 2, sizeof **off);
    for (uint32_t i = 0; i < n; i++)
        if (key[i] != ISO_NONE) (*off)[key[i] + 1]++;
    for (uint32_t k = 0; k < n_keys; k++) (*off)[k + 1] += (*off)[k];
    *ids = iso_xmalloc(((size_t)(*off)[n_keys] + 1) * sizeof **ids);
    uint32_t *at = iso_xmalloc(((size_t)n_keys + 1) * sizeof *at);
    memcpy(at, *off, (size_t)n_keys * sizeof *at);
    for (uint32_t i = 0; i < n; i++)
        if (key[i] != ISO_NONE) (*ids)[at[key[i]]++] = i;
    iso_free(at);
}

static void make_groups(const struct solve_input *in, struct split *s)
{
    uint32_t *parent = iso_xmalloc(((size_t)s->n_comp + 1) * sizeof *parent);
    uint32_t *size = iso_xcalloc((size_t)s->n_comp + 1, sizeof *size);
    uint32_t *gid = iso_xmalloc(((size_t)s->n_comp + 1) * sizeof *gid);
    for (uint32_t k = 0; k < s->n_comp; k++) parent[k] = k, gid[k] = ISO_NONE;
    for (uint32_t v = 0; v < s->n_states; v++) size[s->comp[v]]++;
    uint32_t *first = iso_xmalloc(((size_t)in->n_choices + 1) * sizeof *first);
    for (uint32_t c = 0; c < in->n_choices; c++) first[c] = join_choice(in, s, parent, c);
    s->grp = iso_xmalloc(((size_t)s->n_states + 1) * sizeof *s->grp);
    for (uint32_t v = 0; v < s->n_states; v++) {
        uint32_t root = find(parent, s->comp[v]);
        if (size[s->comp[v]] < 2) {
            s->grp[v] = ISO_NONE;
            continue;
        }
        if (gid[root] == ISO_NONE) gid[root] = s->n_groups++;
        s->grp[v] = gid[root];
    }
    s->choice_grp = first;
    for (uint32_t c = 0; c < in->n_choices; c++)
        if (first[c] != ISO_NONE) first[c] = gid[find(parent, first[c])];
    bucket(s->grp, s->n_states, s->n_groups, &s->grp_state_off, &s->grp_states);
    bucket(s->choice_grp, in->n_choices, s->n_groups, &s->grp_choice_off, &s->grp_choices);
    iso_free(parent), iso_free(size), iso_free(gid);
}

void split_build(const struct solve_input *in, struct split *s)
{
    memset(s, 0, sizeof *s);
    s->model = in->model;
    s->shift = in->model != SOLVE_SER;
    s->n_states = in->n_txns << s->shift;
    build_csr(in, s);
    s->comp = iso_xmalloc(((size_t)s->n_states + 1) * sizeof *s->comp);
    tarjan(s);
    make_groups(in, s);
    s->loc = iso_xmalloc(((size_t)s->n_states + 1) * sizeof *s->loc);
    s->choice_loc = iso_xmalloc(((size_t)in->n_choices + 1) * sizeof *s->choice_loc);
}

void split_release(struct split *s)
{
    iso_free(s->off), iso_free(s->to), iso_free(s->own), iso_free(s->src);
    iso_free(s->comp), iso_free(s->grp), iso_free(s->choice_grp);
    iso_free(s->grp_state_off), iso_free(s->grp_states), iso_free(s->grp_choice_off), iso_free(s->grp_choices);
    iso_free(s->loc), iso_free(s->choice_loc);
    memset(s, 0, sizeof *s);
}

/* The group's edges inside components, local ids, by source: counted,
 * or (fill) written into g. */
static uint32_t local_edges(const struct split *s, struct group *g, int fill)
{
    uint32_t m = 0;
    for (uint32_t v = 0; v < g->n_states; v++) {
        uint32_t sv = g->state[v];
        if (fill) g->off[v] = m;
        for (uint32_t e = s->off[sv]; e < s->off[sv + 1]; e++) {
            uint32_t w = s->to[e];
            uint32_t own = s->own[e];
            if (s->comp[w] != s->comp[sv] || own == SPLIT_LINK) continue;
            if (fill) {
                g->from[m] = v, g->to[m] = s->loc[w], g->src[m] = s->src[e];
                g->own[m] = own == ISO_NONE ? ISO_NONE : 2 * s->choice_loc[own / 2] + own % 2;
            }
            m++;
        }
    }
    if (fill) g->off[g->n_states] = m;
    return m;
}

void split_group(struct split *s, uint32_t gi, struct group *g)
{
    memset(g, 0, sizeof *g);
    g->shift = s->shift;
    g->model = s->model;
    uint32_t lo = s->grp_state_off[gi], hi = s->grp_state_off[gi + 1];
    g->n_states = hi - lo;
    g->state = iso_xmalloc(((size_t)g->n_states + 1) * sizeof *g->state);
    memcpy(g->state, s->grp_states + lo, (size_t)g->n_states * sizeof *g->state);
    for (uint32_t v = 0; v < g->n_states; v++) s->loc[g->state[v]] = v;
    lo = s->grp_choice_off[gi], hi = s->grp_choice_off[gi + 1];
    g->n_choices = hi - lo;
    g->choice = iso_xmalloc(((size_t)g->n_choices + 1) * sizeof *g->choice);
    memcpy(g->choice, s->grp_choices + lo, (size_t)g->n_choices * sizeof *g->choice);
    for (uint32_t i = 0; i < g->n_choices; i++) s->choice_loc[g->choice[i]] = i;
    g->n_edges = local_edges(s, g, 0);
    size_t m = (size_t)g->n_edges + 1;
    g->off = iso_xmalloc(((size_t)g->n_states + 1) * sizeof *g->off);
    g->from = iso_xmalloc(m * 4), g->to = iso_xmalloc(m * 4), g->own = iso_xmalloc(m * 4), g->src = iso_xmalloc(m * 4);
    local_edges(s, g, 1);
    bucket(g->own, g->n_edges, 2 * g->n_choices, &g->lit_off, &g->lit_edge);
}
