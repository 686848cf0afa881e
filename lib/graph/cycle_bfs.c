/*
 * graph/cycle_bfs.c -- shortest closed walks of one cycle type inside one
 * component, by breadth-first search over (vertex, path state).
 *
 * Every walk of a type uses some edge of a seed label (the rarest label the
 * type requires, else ww), so rotating it to start there, the search runs
 * from the head v of each seed edge and stops on reaching the edge's tail u
 * in a state whose type is the one wanted: the walk u -x-> v ... -> u.
 * One search per head serves all its seed edges (their tails are marked).
 * A walk found caps later searches at its length minus one, so the minimum
 * over heads is the shortest walk of the type in the component (unless the
 * caller's work cap, counted in edges looked at, stops the heads first).
 * Shortening a walk first asks whether one of two edges exists: the first
 * head with one and what its search would find first are found directly
 * (shortest_two), which is what the searches of every head end with.
 *
 * Rows are those the pairs would make (cycle_local.c): expanding a vertex
 * merges its direct entries with its hubs' writers; the writers of a hub
 * not yet seen in a state are kept per hub and state, so that each is
 * looked at once per search, not once per reader of the hub.
 *
 * The search is confined to one strongly connected sub-component of the
 * type's allowed edges, and sub-components lacking a required label (or,
 * for G2-item, a pair of adjacent rw edges) are skipped: for G0, G1c and
 * G2-item that condition is also sufficient, so their first search
 * succeeds. Visited sets are one 64-bit word per vertex (a bit per
 * compact state), cleared through the queue after each search.
 */
#include "graph/cycle_int.h"

#include <stdlib.h>
#include <string.h>

#define W ISO_EDGE_WW
#define R ISO_EDGE_WR
#define A ISO_EDGE_RW
#define P ISO_EDGE_PROCESS
#define T ISO_EDGE_REALTIME

uint8_t cyc_step(uint8_t s, uint8_t label)
{
    if (label == A) {
        unsigned na = s & CYC_S_NA;
        if (s & CYC_S_LASTA) s |= CYC_S_ADJ;
        s = (uint8_t)((s & ~CYC_S_NA) | (na < 2 ? na + 1 : 2) | CYC_S_LASTA);
        return s;
    }
    s &= (uint8_t)~CYC_S_LASTA;
    if (label == R) s |= CYC_S_R;
    else if (label == P) s |= CYC_S_P;
    else if (label == T) s |= CYC_S_T;
    return s;
}

uint8_t cyc_first(uint8_t label)
{
    uint8_t s = cyc_step(0, label);
    return label == A ? (uint8_t)(s | CYC_S_FIRSTA) : s;
}

int cyc_state_type(uint8_t s)
{
    unsigned na = s & CYC_S_NA;
    int adj = (s & CYC_S_ADJ) || ((s & CYC_S_LASTA) && (s & CYC_S_FIRSTA));
    int base = na == 1 ? ISO_CB_G_SINGLE_ITEM
             : na >= 2 ? (adj ? ISO_CB_G2_ITEM : ISO_CB_G_NONADJACENT_ITEM)
             : (s & CYC_S_R) ? ISO_CB_G1C : ISO_CB_G0;
    int var = (s & CYC_S_T) ? ISO_CV_REALTIME : (s & CYC_S_P) ? ISO_CV_PROCESS : ISO_CV_PLAIN;
    return ISO_CYCLE(base, var);
}

int iso_cycle_classify(const uint8_t *e, uint32_t len)
{
    if (len == 0) return -1;
    uint32_t rw = 0;
    int adj = 0, wr = 0, rt = 0, proc = 0;
    for (uint32_t i = 0; i < len; i++) {
        if (e[i] == ISO_EDGE_RW) {
            rw++;
            if (e[(i + len - 1) % len] == ISO_EDGE_RW) adj = 1;
        }
        wr |= e[i] == R;
        rt |= e[i] == T;
        proc |= e[i] == P;
    }
    int base = rw == 1 ? ISO_CB_G_SINGLE_ITEM
             : rw > 1 ? (adj ? ISO_CB_G2_ITEM : ISO_CB_G_NONADJACENT_ITEM)
             : wr ? ISO_CB_G1C : ISO_CB_G0;
    return ISO_CYCLE(base, rt ? ISO_CV_REALTIME : proc ? ISO_CV_PROCESS : ISO_CV_PLAIN);
}

int cyc_spec_init(cyc_spec *sp, int type)
{
    int base = type / 3, var = type % 3;
    int rw = base == ISO_CB_G_SINGLE_ITEM || base == ISO_CB_G_NONADJACENT_ITEM ||
             base == ISO_CB_G2_ITEM;
    if (!iso_is_cycle_type(type) || (!rw && base != ISO_CB_G0 && base != ISO_CB_G1C))
        return 0;
    memset(sp, 0, sizeof *sp);
    sp->type = type;
    uint8_t varbit = var == ISO_CV_PROCESS ? CYC_S_P : var == ISO_CV_REALTIME ? CYC_S_T : 0;
    sp->allow = (uint8_t)(W | (base != ISO_CB_G0 ? R : 0) | (rw ? A : 0) |
                          (var != ISO_CV_PLAIN ? P : 0) | (var == ISO_CV_REALTIME ? T : 0));
    sp->req = (uint8_t)((base == ISO_CB_G1C ? R : 0) | (rw ? A : 0) |
                        (var == ISO_CV_PROCESS ? P : 0) | (var == ISO_CV_REALTIME ? T : 0));
    if (base == ISO_CB_G1C) sp->keep = CYC_S_R;
    else if (base == ISO_CB_G_SINGLE_ITEM) sp->keep = CYC_S_NA;
    else if (rw) sp->keep = CYC_S_NA | CYC_S_FIRSTA | CYC_S_LASTA | CYC_S_ADJ;
    sp->keep |= varbit;
    sp->dead = base == ISO_CB_G_NONADJACENT_ITEM ? CYC_S_ADJ : 0;
    sp->dead_na2 = base == ISO_CB_G_SINGLE_ITEM;
    for (unsigned s = 0; s < 256; s++) { /* compress the kept bits */
        unsigned idx = 0, out = 0;
        for (unsigned b = 0; b < 8; b++)
            if (sp->keep >> b & 1) idx |= (s >> b & 1u) << out++;
        sp->cidx[s] = (uint8_t)idx;
    }
    return 1;
}

void cyc_lead_table(const iso_search_req *req, uint8_t lead[32])
{
    static const uint8_t dflt[3] = {ISO_EDGE_WW, ISO_EDGE_WR, ISO_EDGE_RW};
    const uint8_t *order = req->data_order[0] ? req->data_order : dflt;
    for (unsigned b = 0; b < 32; b++) {
        uint8_t data = 0;
        for (int i = 2; i >= 0; i--)
            if (b & order[i]) data = order[i];
        lead[b] = (uint8_t)(data | (b & (ISO_EDGE_PROCESS | ISO_EDGE_REALTIME)));
    }
}

void cyc_search_init(cyc_search *S, const cyc_local *L, double deadline, const uint8_t *lead)
{
    memset(S, 0, sizeof *S);
    S->L = L;
    S->seen = iso_xcalloc(L->k ? L->k : 1, sizeof *S->seen);
    S->tgt = iso_xcalloc(L->k ? L->k : 1, sizeof *S->tgt);
    S->cand = iso_xmalloc(L->g.n ? L->g.n : 1);
    S->deadline = deadline;
    S->lead = lead;
}

void cyc_search_free(cyc_search *S)
{
    iso_free(S->seen);
    iso_free(S->tgt);
    for (unsigned i = 0; i < S->n_subs; i++) {
        iso_free(S->subs[i].sub);
        iso_free(S->subs[i].cnt);
        cyc_sel_free(&S->subs[i].sel);
    }
    iso_free(S->cand);
    iso_free(S->q);
    iso_free(S->slot_off);
    iso_free(S->slot_len);
    iso_free(S->pool);
    iso_free(S->touched);
    iso_free(S->src);
    cyc_map_free(&S->imemo);
    iso_free(S->ipool);
}

void cyc_walk_free(cyc_walk *w)
{
    iso_free(w->v);
    iso_free(w->e);
    memset(w, 0, sizeof *w);
}

static void walk_reserve(cyc_walk *w, uint32_t len)
{
    if (len <= w->cap) return;
    w->v = iso_xrealloc(w->v, (size_t)len * sizeof *w->v);
    w->e = iso_xrealloc(w->e, len);
    w->cap = len;
}

/* ---- one breadth-first search from a seed head --------------------- */

/* Out of time (S->timed_out) or past the work cap: the search stops. */
static int over_budget(cyc_search *S)
{
    if (S->work_cap && S->work > S->work_cap) return 1;
    if ((++S->steps & 1023) || S->deadline <= 0) return 0;
    if (iso_now() >= S->deadline) S->timed_out = 1;
    return S->timed_out;
}

/* Whether y -> v is a pair of one of v's hubs in v's sub-component that no
 * direct entry of y stands for. */
static int hub_tail(const cyc_search *S, uint32_t v, uint32_t y)
{
    const cyc_local *L = S->L;
    if (y == v || iso_graph_row_bits(&L->g, y, v)) return 0;
    for (uint32_t e = L->rhub_at[v]; e < L->r.off[v + 1]; e++)
        if (S->sub[L->r.dst[e]] == S->sub[v] && iso_graph_row_bits(&L->g, y, L->r.dst[e])) return 1;
    return 0;
}

/* Mark the tails of v's in-edges labelled x inside v's sub-component: its
 * direct ones; when x is rw, the readers of its hubs are tails too
 * (is_tail asks hub_tail). Whether there is any. */
static int mark_tails(cyc_search *S, uint32_t v, uint8_t x)
{
    const cyc_local *L = S->L;
    const iso_graph *r = &L->r;
    if (++S->stamp == 0) {
        memset(S->tgt, 0, L->k * sizeof *S->tgt);
        S->stamp = 1;
    }
    int any = 0;
    for (uint32_t e = r->off[v]; e < L->rhub_at[v]; e++)
        if ((S->lead[r->bits[e] & 31] & x) && S->sub[r->dst[e]] == S->sub[v]) {
            S->tgt[r->dst[e]] = S->stamp;
            any = 1;
        }
    S->head = v;
    S->hub_tails = (S->lead[A] & x) && L->rhub_at[v] < r->off[v + 1];
    return any || (S->hub_tails && cyc_hub_in(S->sel, v));
}

static inline int is_tail(const cyc_search *S, uint32_t y)
{
    return S->tgt[y] == S->stamp || (S->hub_tails && hub_tail(S, S->head, y));
}

/* The walk ending at queue entry qi: tail, head, then the path. */
static void unwind(const cyc_search *S, size_t qi, cyc_walk *out)
{
    uint32_t m = S->q[qi].depth;
    walk_reserve(out, m + 1);
    out->len = m + 1;
    out->v[0] = S->q[qi].v;
    for (size_t i = qi;; i = S->q[i].parent) {
        uint32_t d = S->q[i].depth;
        out->e[d] = S->q[i].label;
        if (d == 0) break;
        out->v[d] = S->q[S->q[i].parent].v;
    }
}

static inline int dead(const cyc_spec *sp, uint8_t s)
{
    return (sp->dead && (s & sp->dead)) || (sp->dead_na2 && (s & CYC_S_NA) >= 2);
}

static int push(cyc_search *S, const cyc_spec *sp, uint32_t v, uint8_t s,
                uint32_t parent, uint32_t depth, uint8_t label)
{
    if (dead(sp, s)) return 0;
    uint64_t bit = (uint64_t)1 << sp->cidx[s];
    if (S->seen[v] & bit) return 0;
    S->seen[v] |= bit;
    ISO_PUSH(S->q, S->nq, S->capq, ((cyc_qent){v, parent, depth, s, label}));
    return 1;
}

/* y reached from entry qi by label l, in state s: whether that closes a
 * walk of the type. */
static inline int reach(cyc_search *S, const cyc_spec *sp, size_t qi, uint32_t depth, uint32_t y, uint8_t s,
                 uint8_t l)
{
    return push(S, sp, y, s, (uint32_t)qi, depth, l) && cyc_state_type(s) == sp->type && is_tail(S, y);
}

/* The hubs entered from entry cur (rw from its state: *s), one source each
 * in its sub-component: the writers not yet seen in *s, or all of them the
 * first time (room reserved in the pool for those passed but not seen,
 * which can only be cur's transaction and its direct entries). */
static unsigned open_hubs(cyc_search *S, const cyc_spec *sp, const cyc_qent *cur, uint8_t *s)
{
    const cyc_local *L = S->L;
    const iso_graph *g = &L->g;
    uint32_t u = cur->v, lo = L->hub_at[u], hi = g->off[u + 1], room = lo - g->off[u] + 1;
    *s = cyc_step(cur->s, A) & sp->keep;
    if (lo == hi || !(S->lead[A] & sp->allow) || dead(sp, *s)) return 0;
    unsigned m = 0;
    size_t need = S->npool;
    for (uint32_t e = lo; e < hi; e++) {
        uint32_t j = g->dst[e] - L->k, slot = j * S->nstates + sp->cidx[*s];
        if (S->sub[g->dst[e]] != S->sub[u]) continue;
        ISO_GROW(S->src, S->cap_src, (size_t)m + 1);
        cyc_src *c = &S->src[m++];
        *c = (cyc_src){.slot = slot, .n = S->slot_len[slot]};
        if (c->n != UINT32_MAX) continue;
        c->y = S->sel->w + S->sel->off[j];
        c->n = S->sel->off[j + 1] - S->sel->off[j];
        S->slot_off[slot] = (uint32_t)need;
        need += c->n < room ? c->n : room;
        ISO_PUSH(S->touched, S->ntouched, S->cap_touched, slot);
    }
    ISO_GROW(S->pool, S->cap_pool, need + 1); /* a run of it is taken even when empty */
    S->npool = need;
    for (unsigned i = 0; i < m; i++) {
        cyc_src *c = &S->src[i];
        c->keep = S->pool + S->slot_off[c->slot];
        if (S->slot_len[c->slot] != UINT32_MAX) c->y = c->keep; /* kept in place */
    }
    return m;
}

/* y reached from entry cur (queue index qi) by a direct entry of these
 * bits: whether that closes a walk of the type. */
static inline int step_direct(cyc_search *S, const cyc_spec *sp, size_t qi, const cyc_qent *cur, uint32_t y,
                       uint8_t bits)
{
    for (uint8_t lb = S->lead[bits & 31] & sp->allow; lb; lb &= (uint8_t)(lb - 1)) {
        uint8_t l = lb & (uint8_t)-lb;
        if (reach(S, sp, qi, cur->depth + 1, y, cyc_step(cur->s, l) & sp->keep, l)) return 1;
    }
    return 0;
}

/* Expand queue entry qi: its row as the pairs would make it, direct entries
 * and its hubs' writers merged in order; returns the index of an
 * accepting entry or -1. A writer passed over (cur's transaction, or one a
 * direct entry stands for) and not yet seen stays in its hub's source. */
static long expand(cyc_search *S, const cyc_spec *sp, size_t qi)
{
    const cyc_local *L = S->L;
    const iso_graph *g = &L->g;
    cyc_qent cur = S->q[qi];
    uint32_t c = S->sub[cur.v], e = g->off[cur.v], end = L->hub_at[cur.v], d;
    uint8_t hs;
    S->work += L->pdeg[cur.v] + 1;
    unsigned m = open_hubs(S, sp, &cur, &hs);
    for (; !m && e < end; e++) /* no hub to enter: the row alone */
        if (S->sub[g->dst[e]] == c && step_direct(S, sp, qi, &cur, g->dst[e], g->bits[e])) return (long)S->nq - 1;
    uint64_t bit = (uint64_t)1 << sp->cidx[hs];
    for (uint32_t y; m && (y = cyc_merge_next(g, &e, end, S->src, m, &d)) != UINT32_MAX;) {
        if (d != ISO_NONE && S->sub[y] == c && step_direct(S, sp, qi, &cur, y, g->bits[d])) return (long)S->nq - 1;
        int via = 0;
        for (unsigned i = 0; i < m; i++) {
            cyc_src *s = &S->src[i];
            if (!s->hit) continue;
            if (d == ISO_NONE && y != cur.v) via = 1;
            else if (!(S->seen[y] & bit)) s->keep[s->nkeep++] = y;
        }
        if (via && reach(S, sp, qi, cur.depth + 1, y, hs, A)) return (long)S->nq - 1;
    }
    for (unsigned i = 0; i < m; i++) S->slot_len[S->src[i].slot] = S->src[i].nkeep;
    return -1;
}

static int bfs(cyc_search *S, const cyc_spec *sp, uint32_t v, uint8_t x,
               uint32_t maxd, cyc_walk *out)
{
    if (maxd < 1 || !mark_tails(S, v, x)) return CYC_ABSENT;
    int res = CYC_ABSENT;
    push(S, sp, v, cyc_first(x) & sp->keep, ISO_NONE, 0, x);
    for (size_t qi = 0; qi < S->nq; qi++) {
        if (over_budget(S)) {
            res = CYC_TIMEOUT;
            break;
        }
        if (S->q[qi].depth >= maxd) continue;
        long hit = expand(S, sp, qi);
        if (hit >= 0) {
            unwind(S, (size_t)hit, out);
            res = CYC_FOUND;
            break;
        }
    }
    for (size_t i = 0; i < S->nq; i++) S->seen[S->q[i].v] = 0;
    for (size_t i = 0; i < S->ntouched; i++) S->slot_len[S->touched[i]] = UINT32_MAX;
    S->nq = S->ntouched = S->npool = 0;
    return res;
}

/* The hubs' sources for sp's states: every hub unentered. */
static void slots_for(cyc_search *S, const cyc_spec *sp)
{
    S->nstates = 1u << __builtin_popcount(sp->keep);
    size_t n = (size_t)S->L->g.n_hubs * S->nstates;
    if (n > S->n_slots) {
        S->slot_off = iso_xrealloc(S->slot_off, n * sizeof *S->slot_off);
        S->slot_len = iso_xrealloc(S->slot_len, n * sizeof *S->slot_len);
        S->n_slots = n;
    }
    if (n) memset(S->slot_len, 0xff, n * sizeof *S->slot_len);
}

/* ---- walks of two edges --------------------------------------------- */

/* The label an edge of these bits stands for when, after a seed edge
 * labelled x, it closes a walk of sp's type; 0 when it does not. */
static uint8_t closes(const cyc_search *S, const cyc_spec *sp, uint8_t x, uint8_t bits)
{
    uint8_t s0 = cyc_first(x) & sp->keep;
    if (dead(sp, s0)) return 0;
    for (uint8_t lb = S->lead[bits & 31] & sp->allow; lb; lb &= (uint8_t)(lb - 1)) {
        uint8_t l = lb & (uint8_t)-lb, s = cyc_step(s0, l) & sp->keep;
        if (!dead(sp, s) && cyc_state_type(s) == sp->type) return l;
    }
    return 0;
}

/* Transactions that write after hub h and read hub h2, ascending
 * (computed once per pair of hubs and search). */
static uint32_t inter(cyc_search *S, uint32_t h, uint32_t h2, const uint32_t **out)
{
    const cyc_local *L = S->L;
    int fresh;
    uint64_t *at = cyc_map_at(&S->imemo, (uint64_t)h << 32 | h2, &fresh);
    if (fresh) {
        size_t start = S->n_ipool;
        ISO_GROW(S->ipool, S->cap_ipool, start + 1); /* a run of it is taken even when empty */
        uint32_t a = L->g.off[h], b = L->r.off[h2];
        while (a < L->g.off[h + 1] && b < L->r.off[h2 + 1]) {
            uint32_t x = L->g.dst[a], y = L->r.dst[b];
            if (x == y) ISO_PUSH(S->ipool, S->n_ipool, S->cap_ipool, x);
            a += x <= y;
            b += y <= x;
        }
        *at = (uint64_t)start << 32 | (S->n_ipool - start);
    }
    *out = S->ipool + (*at >> 32);
    return (uint32_t)*at;
}

/* The least y below bound reached from v by a pair of one of its hubs and
 * back by a pair of another (or the same), both in v's sub-component and
 * with no direct entry between v and y either way; bound if none. */
static uint32_t common(cyc_search *S, uint32_t v, uint32_t bound)
{
    const cyc_local *L = S->L;
    const iso_graph *g = &L->g, *r = &L->r;
    for (uint32_t e = L->hub_at[v]; e < g->off[v + 1]; e++) {
        if (S->sub[g->dst[e]] != S->sub[v]) continue;
        for (uint32_t f = L->rhub_at[v]; f < r->off[v + 1]; f++) {
            const uint32_t *y;
            uint32_t n = S->sub[r->dst[f]] == S->sub[v] ? inter(S, g->dst[e], r->dst[f], &y) : 0;
            for (uint32_t i = 0; i < n && y[i] < bound; i++)
                if (y[i] != v && !iso_graph_row_bits(g, v, y[i]) && !iso_graph_row_bits(g, y[i], v)) bound = y[i];
        }
    }
    return bound;
}

/* What a search from head v finds at depth one, for seed label x: the
 * least y (its row's order) such that y -x-> v is a seed edge and v -> y
 * closes a walk of the type; *l its label. UINT32_MAX: none. */
static uint32_t two_walk(cyc_search *S, const cyc_spec *sp, uint32_t v, uint8_t x, uint8_t *l)
{
    const cyc_local *L = S->L;
    const iso_graph *g = &L->g, *r = &L->r;
    uint32_t c = S->sub[v], best = UINT32_MAX;
    uint8_t b;
    for (uint32_t e = r->off[v]; e < L->rhub_at[v]; e++) { /* direct tails */
        uint32_t u = r->dst[e];
        if (u < best && S->sub[u] == c && (S->lead[r->bits[e] & 31] & x) && (b = closes(S, sp, x, iso_graph_edge(g, v, u))))
            best = u, *l = b;
    }
    if (!(S->lead[A] & x) || L->rhub_at[v] == r->off[v + 1]) return best;
    for (uint32_t e = g->off[v]; e < L->hub_at[v] && g->dst[e] < best; e++) /* tails through hubs */
        if (S->sub[g->dst[e]] == c && hub_tail(S, v, g->dst[e]) && (b = closes(S, sp, x, g->bits[e]))) {
            best = g->dst[e], *l = b;
            break;
        }
    uint32_t y = (b = closes(S, sp, x, A)) ? common(S, v, best) : best;
    if (y < best) best = y, *l = b;
    return best;
}

/* When the type has a walk of two edges: from the first head that has one,
 * what its search finds first -- the walk every head's search would end
 * with, found without them. 1 when there is one (into best). */
static int shortest_two(cyc_search *S, const cyc_spec *sp, cyc_walk *best)
{
    for (uint32_t v = 0; v < S->L->k; v++) {
        uint8_t x = S->cand[S->sub[v]], l = 0;
        if (!(v & 1023) && S->deadline > 0 && iso_now() >= S->deadline) S->timed_out = 1;
        if (S->timed_out) return 0;
        uint32_t y = x ? two_walk(S, sp, v, x, &l) : UINT32_MAX;
        if (y == UINT32_MAX) continue;
        walk_reserve(best, 2);
        best->len = 2;
        best->v[0] = y;
        best->v[1] = v;
        best->e[0] = x;
        best->e[1] = l;
        return 1;
    }
    return 0;
}

/* ---- which sub-components may hold a walk of the type -------------- */

/* Per sub-component under mask, how many of its edges (as pairs) can stand
 * for each label (W R A P T), and how many rw edges follow an rw edge
 * (AA): what choose_seeds weighs, the same for every type with these
 * allowed edges. A transaction alone in its sub-component has no edge
 * inside it: its edges are not looked at. */
static uint64_t *count_labels(cyc_search *S, uint8_t mask, uint32_t n_sub)
{
    const cyc_local *L = S->L;
    const iso_graph *g = &L->g;
    uint32_t k = L->k;
    uint64_t *cnt = iso_xcalloc((size_t)n_sub * 6, sizeof *cnt); /* W R A P T, AA */
    uint8_t *in = iso_xmalloc(k ? k : 1); /* 1: not alone; 3: and has an rw in-edge */
    for (uint32_t v = 0; v < k; v++) cnt[(size_t)S->sub[v] * 6 + 5]++; /* sizes, for now */
    for (uint32_t v = 0; v < k; v++) in[v] = cnt[(size_t)S->sub[v] * 6 + 5] > 1;
    for (uint32_t c = 0; c < n_sub; c++) cnt[(size_t)c * 6 + 5] = 0;
    for (uint32_t v = 0; (mask & A) && v < k; v++) {
        for (uint32_t e = g->off[v]; in[v] && e < L->hub_at[v]; e++)
            if ((S->lead[g->bits[e] & 31] & A) && S->sub[g->dst[e]] == S->sub[v]) in[g->dst[e]] = 3;
        if (in[v] == 1 && cyc_hub_in(S->sel, v)) in[v] = 3;
    }
    for (uint32_t v = 0; v < k; v++) {
        uint32_t c = S->sub[v];
        uint64_t *n = cnt + (size_t)c * 6, hp = in[v] && (mask & A) ? cyc_hub_pairs(S->sel, v) : 0;
        for (uint32_t e = g->off[v]; in[v] && e < L->hub_at[v]; e++) {
            unsigned b = S->lead[g->bits[e] & 31] & mask;
            if (!b || S->sub[g->dst[e]] != c) continue;
            if ((b & A) && in[v] == 3) n[5]++;
            for (; b; b &= b - 1) n[__builtin_ctz(b)]++;
        }
        n[2] += hp;
        if (in[v] == 3) n[5] += hp;
    }
    iso_free(in);
    return cnt;
}

/* Seed label of each sub-component: the rarest required label inside it,
 * ww when none is required (G0) and it has ww edges, 0 when a required
 * label (or, for G2-item, an rw edge followed by an rw edge) is missing. */
static void choose_seeds(cyc_search *S, const cyc_spec *sp, uint32_t n_sub)
{
    const uint64_t *cnt = S->cnt;
    int g2 = sp->type / 3 == ISO_CB_G2_ITEM;
    if (!cnt) { /* every transaction alone: no walk */
        memset(S->cand, 0, n_sub);
        return;
    }
    for (uint32_t c = 0; c < n_sub; c++) {
        uint8_t seed = sp->req || !cnt[c * 6] ? 0 : W; /* G0: ww edges inside, or none */
        uint64_t best = UINT64_MAX;
        for (unsigned i = 0; i < 5; i++) {
            if (!(sp->req >> i & 1)) continue;
            if (cnt[c * 6 + i] == 0) { seed = 0; break; }
            if (cnt[c * 6 + i] < best) { best = cnt[c * 6 + i]; seed = (uint8_t)(1u << i); }
        }
        S->cand[c] = (g2 && cnt[c * 6 + 5] == 0) ? 0 : seed;
    }
}

uint32_t cyc_sub_components(cyc_search *S, uint8_t mask)
{
    const cyc_local *L = S->L;
    for (unsigned i = 0; i < S->n_subs; i++)
        if (S->subs[i].mask == mask) {
            S->sub = S->subs[i].sub;
            S->cnt = S->subs[i].cnt;
            S->sel = &S->subs[i].sel;
            return S->subs[i].n;
        }
    cyc_subs *c = &S->subs[S->n_subs++];
    c->mask = mask;
    c->sub = iso_xmalloc((L->g.n ? L->g.n : 1) * sizeof *c->sub);
    c->n = iso_scc(&L->g, mask, c->sub);
    cyc_sel_init(&c->sel, L, c->sub);
    S->sub = c->sub;
    S->sel = &c->sel;
    S->cnt = c->cnt = c->n < L->g.n ? count_labels(S, mask, c->n) : NULL;
    return c->n;
}

/* No closed walk of the type is shorter: two edges, four for
 * G-nonadjacent-item (rw, another, rw, another). */
static uint32_t min_len(int type)
{
    return type / 3 == ISO_CB_G_NONADJACENT_ITEM ? 4 : 2;
}

int cyc_search_type(cyc_search *S, const cyc_spec *sp, cyc_walk *best)
{
    const cyc_local *L = S->L;
    int first = best->len == 0, found = 0;
    if (best->len && best->len <= min_len(sp->type)) return CYC_FOUND; /* nothing is shorter */
    choose_seeds(S, sp, cyc_sub_components(S, sp->allow));
    slots_for(S, sp);
    if (!first && min_len(sp->type) == 2 && shortest_two(S, sp, best)) return CYC_FOUND;
    cyc_walk w = {0};
    for (uint32_t v = 0; v < L->k; v++) {
        uint8_t x = S->cand[S->sub[v]];
        if (!x) continue;
        uint32_t maxd = best->len ? best->len - 2 : UINT32_MAX;
        if (maxd == 0) break;
        int r = bfs(S, sp, v, x, maxd, &w);
        if (r == CYC_TIMEOUT) break;
        if (r != CYC_FOUND) continue;
        found = 1;
        walk_reserve(best, w.len);
        memcpy(best->v, w.v, w.len * sizeof *w.v);
        memcpy(best->e, w.e, w.len);
        best->len = w.len;
        if (first) break;
    }
    cyc_walk_free(&w);
    if (found) return CYC_FOUND;
    return S->timed_out ? CYC_TIMEOUT : CYC_ABSENT;
}

/* ---- shortening walks that revisit a vertex ------------------------- */

/* The part of w from position i up to (not including) j, cyclically. */
static void walk_part(const cyc_walk *w, uint32_t i, uint32_t j, cyc_walk *out)
{
    uint32_t len = (j + w->len - i) % w->len;
    walk_reserve(out, len);
    out->len = len;
    for (uint32_t t = 0; t < len; t++) {
        out->v[t] = w->v[(i + t) % w->len];
        out->e[t] = w->e[(i + t) % w->len];
    }
}

static int reduce_once(cyc_walk *w, int type, cyc_walk *tmp)
{
    for (uint32_t i = 0; i < w->len; i++)
        for (uint32_t j = i + 1; j < w->len; j++) {
            if (w->v[i] != w->v[j]) continue;
            for (int side = 0; side < 2; side++) {
                walk_part(w, side ? j : i, side ? i : j, tmp);
                if (iso_cycle_classify(tmp->e, tmp->len) != type) continue;
                cyc_walk t = *w;
                *w = *tmp;
                *tmp = t;
                return 1;
            }
        }
    return 0;
}

void cyc_walk_reduce(cyc_walk *w, int type)
{
    cyc_walk tmp = {0};
    while (w->len > 2 && w->len <= 4096 && reduce_once(w, type, &tmp)) {}
    cyc_walk_free(&tmp);
}
