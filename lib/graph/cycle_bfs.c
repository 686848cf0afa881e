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

/* ---- the component as a graph of its own ---------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

typedef struct extras {
    uint64_t *w;   /* local id << 8 | bits, ascending, one per local id */
    size_t n, cap;
} extras;

static void extra_put(extras *x, uint32_t local, uint8_t bits)
{
    ISO_PUSH(x->w, x->n, x->cap, (uint64_t)local << 8 | bits);
}

/* Sort x by local id and merge its repeats (bits OR-ed). */
static void extras_sort(extras *x)
{
    uint64_t *w = x->w;
    if (x->n > 16) {
        qsort(w, x->n, sizeof *w, cmp_u64);
    } else {
        for (size_t i = 1; i < x->n; i++) { /* windows are usually short */
            uint64_t y = w[i];
            size_t j = i;
            for (; j > 0 && w[j - 1] > y; j--) w[j] = w[j - 1];
            w[j] = y;
        }
    }
    size_t m = 0;
    for (size_t i = 0; i < x->n; i++) {
        if (m && w[m - 1] >> 8 == w[i] >> 8) w[m - 1] |= w[i];
        else w[m++] = w[i];
    }
    x->n = m;
}

/* The successors of global v inside component c besides its direct row:
 * its real-time window, and the writers of its hubs whose edges meet mask
 * but v itself (such a hub outside c has no other writer in c). */
static void extras_in(const iso_graph *g, uint32_t v, uint32_t hub_e, uint8_t mask,
                      const uint32_t *local_id, const uint32_t *comp, uint32_t c, extras *x)
{
    x->n = 0;
    for (uint32_t r = g->rt ? g->rt->lo[v] : 0; g->rt && r < g->rt->hi[v]; r++)
        if (comp[g->rt->order[r]] == c) extra_put(x, local_id[g->rt->order[r]], ISO_EDGE_REALTIME);
    for (uint32_t e = hub_e; e < g->off[v + 1]; e++) {
        uint32_t h = g->dst[e];
        if (comp[h] != c || !(g->bits[e] & mask)) continue;
        for (uint32_t y = g->off[h]; y < g->off[h + 1]; y++)
            if (g->dst[y] != v && comp[g->dst[y]] == c) extra_put(x, local_id[g->dst[y]], g->bits[y]);
    }
    extras_sort(x);
}

typedef struct row_out {
    uint32_t *dst;
    uint8_t *bits;
    size_t n, cap;
} row_out;

static void row_put(row_out *o, uint32_t d, uint8_t bits, uint8_t mask)
{
    if (!(bits & mask)) return;
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 64;
        o->dst = iso_xrealloc(o->dst, o->cap * sizeof *o->dst);
        o->bits = iso_xrealloc(o->bits, o->cap);
    }
    o->dst[o->n] = d;
    o->bits[o->n++] = bits; /* unmasked: cyc_lead needs every relation */
}

/* Local ids keep the global order, so each local row is the global row
 * filtered, already sorted, merged with the vertex's real-time window and
 * its hubs' writers (a direct edge to one gets the pair's bits too: the
 * row is what the pairs would have made); the reverse graph is its
 * transpose by counting. */
void cyc_local_build(cyc_local *L, const iso_graph *g, const uint32_t *verts, uint32_t k,
                     const uint32_t *local_id, const uint32_t *comp, uint32_t c, uint8_t mask)
{
    iso_graph *f = &L->g, *r = &L->r;
    L->k = f->n = r->n = k;
    f->n_hubs = r->n_hubs = 0;
    f->rt = r->rt = NULL; /* real-time edges are in the local rows */
    L->glob = verts;
    f->off = iso_xmalloc(((size_t)k + 1) * sizeof *f->off);
    r->off = iso_xcalloc((size_t)k + 2, sizeof *r->off);
    row_out o = {0};
    extras x = {0};
    uint32_t nt = iso_graph_txns(g);
    for (uint32_t i = 0; i < k; i++) {
        uint32_t v = verts[i], e = g->off[v], end = g->off[v + 1], j = 0;
        while (end > e && g->dst[end - 1] >= nt) end--; /* [end, row end): v's hubs */
        int hubs = end < g->off[v + 1];
        extras_in(g, v, end, mask, local_id, comp, c, &x);
        f->off[i] = (uint32_t)o.n;
        for (; e < end && comp[g->dst[e]] != c; e++) {}
        while (e < end || j < x.n) {
            uint32_t d = e < end ? local_id[g->dst[e]] : UINT32_MAX;
            uint8_t bits = 0;
            if (j < x.n && (uint32_t)(x.w[j] >> 8) <= d) {
                d = (uint32_t)(x.w[j] >> 8);
                bits = (uint8_t)x.w[j++];
            }
            if (e < end && local_id[g->dst[e]] == d) {
                bits |= g->bits[e] | (hubs ? iso_graph_hub_bits(g, v, g->dst[e]) : 0);
                e++;
            }
            row_put(&o, d, bits, mask);
            for (; e < end && comp[g->dst[e]] != c; e++) {}
        }
    }
    iso_free(x.w);
    size_t m = o.n;
    f->off[k] = (uint32_t)m;
    f->n_edges = r->n_edges = m;
    f->dst = o.dst ? o.dst : iso_xmalloc(sizeof *f->dst);
    f->bits = o.bits ? o.bits : iso_xmalloc(1);
    r->dst = iso_xmalloc((m ? m : 1) * sizeof *r->dst);
    r->bits = iso_xmalloc(m ? m : 1);
    for (size_t e = 0; e < m; e++) r->off[f->dst[e] + 2]++;
    for (uint32_t i = 0; i < k; i++) r->off[i + 2] += r->off[i + 1];
    for (uint32_t i = 0; i < k; i++) /* r->off[d + 1] is d's next free slot */
        for (uint32_t e = f->off[i]; e < f->off[i + 1]; e++) {
            uint32_t at = r->off[f->dst[e] + 1]++;
            r->dst[at] = i;
            r->bits[at] = f->bits[e];
        }
}

void cyc_local_free(cyc_local *L)
{
    iso_graph_free(&L->g);
    iso_graph_free(&L->r);
}

void cyc_lead_table(const iso_search_req *req, uint8_t lead[32])
{
    static const uint8_t dflt[3] = {ISO_EDGE_WW, ISO_EDGE_WR, ISO_EDGE_RW};
    const uint8_t *order = req->data_order[0] ? req->data_order : dflt;
    for (unsigned b = 0; b < 32; b++) {
        lead[b] = b & ISO_EDGE_PROCESS ? ISO_EDGE_PROCESS : b & ISO_EDGE_REALTIME;
        for (int i = 2; i >= 0; i--)
            if (b & order[i]) lead[b] = order[i];
    }
}

void cyc_search_init(cyc_search *S, const cyc_local *L, double deadline, const uint8_t *lead)
{
    memset(S, 0, sizeof *S);
    S->L = L;
    S->seen = iso_xcalloc(L->k, sizeof *S->seen);
    S->tgt = iso_xcalloc(L->k, sizeof *S->tgt);
    S->cand = iso_xmalloc(L->k ? L->k : 1);
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
    }
    iso_free(S->cand);
    iso_free(S->q);
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

/* Mark the tails of v's in-edges labelled x inside v's sub-component. */
static int mark_tails(cyc_search *S, uint32_t v, uint8_t x)
{
    const iso_graph *r = &S->L->r;
    if (++S->stamp == 0) {
        memset(S->tgt, 0, S->L->k * sizeof *S->tgt);
        S->stamp = 1;
    }
    int any = 0;
    for (uint32_t e = r->off[v]; e < r->off[v + 1]; e++)
        if ((S->lead[r->bits[e] & 31] & x) && S->sub[r->dst[e]] == S->sub[v]) {
            S->tgt[r->dst[e]] = S->stamp;
            any = 1;
        }
    return any;
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

static int push(cyc_search *S, const cyc_spec *sp, uint32_t v, uint8_t s,
                uint32_t parent, uint32_t depth, uint8_t label)
{
    if ((sp->dead && (s & sp->dead)) || (sp->dead_na2 && (s & CYC_S_NA) >= 2)) return 0;
    uint64_t bit = (uint64_t)1 << sp->cidx[s];
    if (S->seen[v] & bit) return 0;
    S->seen[v] |= bit;
    ISO_PUSH(S->q, S->nq, S->capq, ((cyc_qent){v, parent, depth, s, label}));
    return 1;
}

/* Expand queue entry qi; returns the index of an accepting entry or -1. */
static long expand(cyc_search *S, const cyc_spec *sp, size_t qi)
{
    const iso_graph *g = &S->L->g;
    cyc_qent cur = S->q[qi];
    uint32_t c = S->sub[cur.v];
    S->work += g->off[cur.v + 1] - g->off[cur.v] + 1;
    for (uint32_t e = g->off[cur.v]; e < g->off[cur.v + 1]; e++) {
        uint32_t y = g->dst[e];
        if (S->sub[y] != c) continue;
        for (uint8_t lb = S->lead[g->bits[e] & 31] & sp->allow; lb; lb &= (uint8_t)(lb - 1)) {
            uint8_t l = lb & (uint8_t)-lb;
            uint8_t s = cyc_step(cur.s, l) & sp->keep;
            if (!push(S, sp, y, s, (uint32_t)qi, cur.depth + 1, l)) continue;
            if (S->tgt[y] == S->stamp && cyc_state_type(s) == sp->type)
                return (long)S->nq - 1;
        }
    }
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
    S->nq = 0;
    return res;
}

/* ---- which sub-components may hold a walk of the type -------------- */

/* Per sub-component under mask, how many of its edges can stand for each
 * label (W R A P T), and how many rw edges follow an rw edge (AA): what
 * choose_seeds weighs, the same for every type with these allowed edges.
 * A vertex alone in its sub-component has no edge inside it: its edges
 * are not looked at. */
static uint32_t *count_labels(const cyc_search *S, uint8_t mask, uint32_t n_sub)
{
    const iso_graph *g = &S->L->g;
    uint32_t k = S->L->k;
    uint32_t *cnt = iso_xcalloc((size_t)n_sub * 6, sizeof *cnt); /* W R A P T, AA */
    uint8_t *in = iso_xmalloc(k ? k : 1); /* 1: not alone; 2: and has an rw in-edge */
    for (uint32_t v = 0; v < k; v++) cnt[(size_t)S->sub[v] * 6 + 5]++; /* sizes, for now */
    for (uint32_t v = 0; v < k; v++) in[v] = cnt[(size_t)S->sub[v] * 6 + 5] > 1;
    for (uint32_t c = 0; c < n_sub; c++) cnt[(size_t)c * 6 + 5] = 0;
    for (uint32_t v = 0; (mask & A) && v < k; v++)
        for (uint32_t e = g->off[v]; in[v] && e < g->off[v + 1]; e++)
            if ((S->lead[g->bits[e] & 31] & A) && S->sub[g->dst[e]] == S->sub[v]) in[g->dst[e]] = 3;
    for (uint32_t v = 0; v < k; v++) {
        uint32_t c = S->sub[v], *n = cnt + (size_t)c * 6;
        for (uint32_t e = g->off[v]; in[v] && e < g->off[v + 1]; e++) {
            unsigned b = S->lead[g->bits[e] & 31] & mask;
            if (!b || S->sub[g->dst[e]] != c) continue;
            if ((b & A) && in[v] == 3) n[5]++;
            for (; b; b &= b - 1) n[__builtin_ctz(b)]++;
        }
    }
    iso_free(in);
    return cnt;
}

/* Seed label of each sub-component: the rarest required label inside it,
 * ww when none is required (G0) and it has ww edges, 0 when a required
 * label (or, for G2-item, an rw edge followed by an rw edge) is missing. */
static void choose_seeds(cyc_search *S, const cyc_spec *sp, uint32_t n_sub)
{
    const uint32_t *cnt = S->cnt;
    int g2 = sp->type / 3 == ISO_CB_G2_ITEM;
    if (!cnt) { /* every vertex alone: no walk */
        memset(S->cand, 0, n_sub);
        return;
    }
    for (uint32_t c = 0; c < n_sub; c++) {
        uint8_t seed = sp->req || !cnt[c * 6] ? 0 : W; /* G0: ww edges inside, or none */
        uint32_t best = UINT32_MAX;
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
    for (unsigned i = 0; i < S->n_subs; i++)
        if (S->subs[i].mask == mask) {
            S->sub = S->subs[i].sub;
            S->cnt = S->subs[i].cnt;
            return S->subs[i].n;
        }
    struct cyc_subs *c = &S->subs[S->n_subs++];
    c->mask = mask;
    c->sub = iso_xmalloc((S->L->k ? S->L->k : 1) * sizeof *c->sub);
    c->n = iso_scc(&S->L->g, mask, c->sub);
    S->sub = c->sub;
    S->cnt = c->cnt = c->n < S->L->k ? count_labels(S, mask, c->n) : NULL;
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
