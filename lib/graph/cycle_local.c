/*
 * graph/cycle_local.c -- one strongly connected component as a graph of its
 * own, its hubs kept as vertices, and what the search asks of the pairs a
 * hub stands for without making them.
 *
 * Invariant: every answer here is the one the component's pairs would
 * give (r -> w for a reader r and a writer w of a hub, r != w, rw, OR-ed
 * into a direct entry r -> w when there is one), so that a search over
 * hubs finds what it finds over pairs; the work is linear in the edges
 * and the hubs' rows, never in their pairs. Where a count needs the
 * union of several hubs' writers, it is counted once per set of hubs.
 */
#include "graph/cycle_int.h"
#include "core/sort.h"

#include <stdlib.h>
#include <string.h>

/* Whether x is among a[0..n), ascending. */
static int has(const uint32_t *a, uint32_t n, uint32_t x)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && a[lo] == x;
}

/* ---- building ---------------------------------------------------------- */

typedef struct build {
    const iso_graph *g;
    const uint32_t *verts, *local_id, *comp;
    uint32_t c, k, nt;
    uint32_t *hubs, nh;  /* the component's hubs, global ids ascending */
    uint8_t mask;
    uint32_t *dst;
    uint8_t *bits;
    size_t n, cap;
    uint32_t *rt;        /* a real-time window in local ids, sorted */
    size_t n_rt, cap_rt;
} build;

static void put(build *b, uint32_t d, uint8_t bits)
{
    if (!(bits & b->mask)) return;
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->dst = iso_xrealloc(b->dst, b->cap * sizeof *b->dst);
        b->bits = iso_xrealloc(b->bits, b->cap);
    }
    b->dst[b->n] = d;
    b->bits[b->n++] = bits; /* unmasked: cyc_lead needs every relation */
}

/* The hubs of the component: those of its members' hubs inside it. */
static void comp_hubs(build *b)
{
    const iso_graph *g = b->g;
    size_t n = 0, cap = 0;
    for (uint32_t i = 0; i < b->k; i++)
        for (uint32_t e = g->off[b->verts[i] + 1]; e > g->off[b->verts[i]] && g->dst[e - 1] >= b->nt; e--)
            if (b->comp[g->dst[e - 1]] == b->c) ISO_PUSH(b->hubs, n, cap, g->dst[e - 1]);
    if (n) qsort(b->hubs, n, sizeof *b->hubs, iso_cmp_u32);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || b->hubs[m - 1] != b->hubs[i]) b->hubs[m++] = b->hubs[i];
    b->nh = (uint32_t)m;
}

/* v's real-time window inside the component, as local ids, sorted. */
static void rt_window(build *b, uint32_t v)
{
    const iso_graph *g = b->g;
    b->n_rt = 0;
    for (uint32_t r = g->rt ? g->rt->lo[v] : 0; g->rt && r < g->rt->hi[v]; r++)
        if (b->comp[g->rt->order[r]] == b->c) ISO_PUSH(b->rt, b->n_rt, b->cap_rt, b->local_id[g->rt->order[r]]);
    if (b->n_rt > 16) {
        qsort(b->rt, b->n_rt, sizeof *b->rt, iso_cmp_u32);
        return;
    }
    for (size_t i = 1; i < b->n_rt; i++) { /* windows are usually short */
        uint32_t y = b->rt[i];
        size_t j = i;
        for (; j > 0 && b->rt[j - 1] > y; j--) b->rt[j] = b->rt[j - 1];
        b->rt[j] = y;
    }
}

/* Transaction v's row: its direct edges and its real-time window inside
 * the component, merged, each with the bits of the pairs of v's hubs
 * (the entry stands for what the pair does); then its hubs there. */
static void txn_row(build *b, uint32_t v)
{
    const iso_graph *g = b->g;
    uint32_t e = g->off[v], end = g->off[v + 1], j = 0;
    while (end > e && g->dst[end - 1] >= b->nt) end--; /* [end, row end): v's hubs */
    int hubs = end < g->off[v + 1];
    rt_window(b, v);
    for (; e < end && b->comp[g->dst[e]] != b->c; e++) {}
    while (e < end || j < b->n_rt) {
        uint32_t d = e < end ? b->local_id[g->dst[e]] : UINT32_MAX;
        uint8_t bits = 0;
        if (j < b->n_rt && b->rt[j] <= d) {
            d = b->rt[j++];
            bits = ISO_EDGE_REALTIME;
        }
        if (e < end && b->local_id[g->dst[e]] == d) bits |= g->bits[e++];
        put(b, d, bits | (hubs ? iso_graph_hub_bits(g, v, b->verts[d]) : 0));
        for (; e < end && b->comp[g->dst[e]] != b->c; e++) {}
    }
    for (uint32_t at = 0; e < g->off[v + 1]; e++) { /* v's hubs, ascending */
        if (b->comp[g->dst[e]] != b->c) continue;
        while (b->hubs[at] < g->dst[e]) at++;
        put(b, b->k + at, g->bits[e]);
    }
}

/* Hub j's row: its writers inside the component. */
static void hub_row(build *b, uint32_t j)
{
    const iso_graph *g = b->g;
    uint32_t h = b->hubs[j];
    for (uint32_t e = g->off[h]; e < g->off[h + 1]; e++)
        if (b->comp[g->dst[e]] == b->c) put(b, b->local_id[g->dst[e]], g->bits[e]);
}

/* r = the transpose of f by counting (rows stay sorted: sources ascend);
 * rhub_at[y]: where the hubs start in y's row of r. */
static void transpose(cyc_local *L)
{
    iso_graph *f = &L->g, *r = &L->r;
    uint32_t n = f->n, k = L->k;
    size_t m = f->off[n];
    r->n = n;
    r->n_hubs = f->n_hubs;
    r->rt = NULL;
    r->n_edges = m;
    r->off = iso_xcalloc((size_t)n + 2, sizeof *r->off);
    r->dst = iso_xmalloc((m ? m : 1) * sizeof *r->dst);
    r->bits = iso_xmalloc(m ? m : 1);
    L->rhub_at = iso_xmalloc((k ? k : 1) * sizeof *L->rhub_at);
    for (size_t e = 0; e < m; e++) r->off[f->dst[e] + 2]++;
    for (uint32_t i = 0; i < n; i++) r->off[i + 2] += r->off[i + 1];
    for (uint32_t i = 0; i <= n; i++) { /* r->off[d + 1] is d's next free slot */
        if (i == k) memcpy(L->rhub_at, r->off + 1, (size_t)k * sizeof *L->rhub_at);
        for (uint32_t e = i < n ? f->off[i] : 0; i < n && e < f->off[i + 1]; e++) {
            uint32_t at = r->off[f->dst[e] + 1]++;
            r->dst[at] = i;
            r->bits[at] = f->bits[e];
        }
    }
}

void cyc_local_build(cyc_local *L, const iso_graph *g, const uint32_t *verts, uint32_t k,
                     const uint32_t *local_id, const uint32_t *comp, uint32_t c, uint8_t mask)
{
    build b = {.g = g, .verts = verts, .local_id = local_id, .comp = comp, .c = c, .k = k,
               .nt = iso_graph_txns(g), .mask = mask};
    comp_hubs(&b);
    memset(L, 0, sizeof *L);
    iso_graph *f = &L->g;
    L->k = k;
    L->glob = verts;
    f->n = k + b.nh;
    f->n_hubs = b.nh;
    f->off = iso_xmalloc(((size_t)f->n + 1) * sizeof *f->off);
    L->hub_at = iso_xmalloc((k ? k : 1) * sizeof *L->hub_at);
    for (uint32_t i = 0; i < f->n; i++) {
        f->off[i] = (uint32_t)b.n;
        if (i >= k) {
            hub_row(&b, i - k);
            continue;
        }
        txn_row(&b, verts[i]);
        for (L->hub_at[i] = (uint32_t)b.n; L->hub_at[i] > f->off[i] && b.dst[L->hub_at[i] - 1] >= k;) L->hub_at[i]--;
    }
    f->off[f->n] = (uint32_t)b.n;
    f->n_edges = b.n;
    f->dst = b.dst ? b.dst : iso_xmalloc(sizeof *f->dst);
    f->bits = b.bits ? b.bits : iso_xmalloc(1);
    iso_free(b.hubs);
    iso_free(b.rt);
    transpose(L);
    cyc_sel all;
    cyc_sel_init(&all, L, NULL);
    L->pdeg = iso_xmalloc((k ? k : 1) * sizeof *L->pdeg);
    for (uint32_t u = 0; u < k; u++) {
        L->pdeg[u] = L->hub_at[u] - f->off[u] + (uint32_t)cyc_hub_pairs(&all, u);
        L->pairs += L->pdeg[u];
    }
    cyc_sel_free(&all);
}

void cyc_local_free(cyc_local *L)
{
    iso_graph_free(&L->g);
    iso_graph_free(&L->r);
    iso_free(L->hub_at);
    iso_free(L->rhub_at);
    iso_free(L->pdeg);
    memset(L, 0, sizeof *L);
}

/* ---- a map ----------------------------------------------------------- */

static size_t home(const cyc_map *m, uint64_t key)
{
    return (size_t)((key ^ key >> 31) * 0x9e3779b97f4a7c15ull >> 7) & (m->cap - 1);
}

uint64_t *cyc_map_at(cyc_map *m, uint64_t key, int *fresh)
{
    if (2 * (m->n + 1) > m->cap) {
        cyc_map old = *m;
        m->cap = old.cap ? 2 * old.cap : 64;
        m->key = iso_xcalloc(m->cap, sizeof *m->key);
        m->val = iso_xmalloc(m->cap * sizeof *m->val);
        for (size_t i = 0; i < old.cap; i++) {
            if (!old.key[i]) continue;
            size_t at = home(m, old.key[i]);
            for (; m->key[at]; at = (at + 1) & (m->cap - 1)) {}
            m->key[at] = old.key[i];
            m->val[at] = old.val[i];
        }
        iso_free(old.key);
        iso_free(old.val);
    }
    size_t at = home(m, key);
    for (; m->key[at] && m->key[at] != key; at = (at + 1) & (m->cap - 1)) {}
    *fresh = !m->key[at];
    if (*fresh) {
        m->key[at] = key;
        m->val[at] = 0;
        m->n++;
    }
    return &m->val[at];
}

void cyc_map_free(cyc_map *m)
{
    iso_free(m->key);
    iso_free(m->val);
    memset(m, 0, sizeof *m);
}

/* ---- the hubs' pairs inside a class ----------------------------------- */

static int same(const cyc_sel *s, uint32_t a, uint32_t b) { return !s->lab || s->lab[a] == s->lab[b]; }

void cyc_sel_init(cyc_sel *s, const cyc_local *L, const uint32_t *lab)
{
    memset(s, 0, sizeof *s);
    s->L = L;
    s->lab = lab;
    const iso_graph *g = &L->g, *r = &L->r;
    uint32_t nh = g->n_hubs, k = L->k;
    size_t m = 0, cap = 0;
    s->off = iso_xmalloc(((size_t)nh + 1) * sizeof *s->off);
    s->nr = iso_xcalloc(nh ? nh : 1, sizeof *s->nr);
    for (uint32_t j = 0; j < nh; j++) {
        s->off[j] = (uint32_t)m;
        for (uint32_t e = g->off[k + j]; e < g->off[k + j + 1]; e++)
            if (same(s, k + j, g->dst[e])) ISO_PUSH(s->w, m, cap, g->dst[e]);
        for (uint32_t e = r->off[k + j]; e < r->off[k + j + 1]; e++) s->nr[j] += (uint32_t)same(s, k + j, r->dst[e]);
    }
    s->off[nh] = (uint32_t)m;
    if (!s->w) s->w = iso_xmalloc(sizeof *s->w); /* runs of it are taken even when empty */
}

void cyc_sel_free(cyc_sel *s)
{
    iso_free(s->off);
    iso_free(s->w);
    iso_free(s->nr);
    cyc_map_free(&s->memo);
    iso_free(s->stamp);
    memset(s, 0, sizeof *s);
}

/* Whether y writes after one of u's hubs in u's class. */
static int in_union(const cyc_sel *s, uint32_t u, uint32_t y)
{
    const cyc_local *L = s->L;
    for (uint32_t e = L->hub_at[u]; e < L->g.off[u + 1]; e++) {
        uint32_t j = L->g.dst[e] - L->k;
        if (same(s, L->g.dst[e], u) && has(s->w + s->off[j], s->off[j + 1] - s->off[j], y)) return 1;
    }
    return 0;
}

/* u's hubs in its class, hashed (FNV-1a; never 0). */
static uint64_t hubs_hash(const cyc_sel *s, uint32_t u)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t e = s->L->hub_at[u]; e < s->L->g.off[u + 1]; e++)
        if (same(s, s->L->g.dst[e], u)) h = (h ^ s->L->g.dst[e]) * 0x100000001b3ull;
    return h | 1;
}

static int same_hubs(const cyc_sel *s, uint32_t a, uint32_t b)
{
    const iso_graph *g = &s->L->g;
    uint32_t x = s->L->hub_at[a], y = s->L->hub_at[b];
    for (;;) {
        for (; x < g->off[a + 1] && !same(s, g->dst[x], a); x++) {}
        for (; y < g->off[b + 1] && !same(s, g->dst[y], b); y++) {}
        if (x == g->off[a + 1] || y == g->off[b + 1]) return x == g->off[a + 1] && y == g->off[b + 1];
        if (g->dst[x++] != g->dst[y++]) return 0;
    }
}

/* How many transactions write after one of u's hubs in its class. */
static uint64_t count_union(cyc_sel *s, uint32_t u)
{
    const cyc_local *L = s->L;
    if (!s->stamp) s->stamp = iso_xcalloc(L->k ? L->k : 1, sizeof *s->stamp);
    if (++s->cur == 0) {
        memset(s->stamp, 0, (size_t)L->k * sizeof *s->stamp);
        s->cur = 1;
    }
    uint64_t n = 0;
    for (uint32_t e = L->hub_at[u]; e < L->g.off[u + 1]; e++) {
        uint32_t j = L->g.dst[e] - L->k;
        for (uint32_t i = s->off[j]; same(s, L->g.dst[e], u) && i < s->off[j + 1]; i++)
            if (s->stamp[s->w[i]] != s->cur) s->stamp[s->w[i]] = s->cur, n++;
    }
    return n;
}

/* The union's size for u's set of hubs, counted once per set: the memo
 * holds it above a transaction with the same set. */
static uint64_t union_size(cyc_sel *s, uint32_t u)
{
    int fresh;
    uint64_t *at = cyc_map_at(&s->memo, hubs_hash(s, u), &fresh);
    if (!fresh && same_hubs(s, (uint32_t)*at, u)) return *at >> 32;
    uint64_t n = count_union(s, u);
    if (fresh) *at = n << 32 | u; /* else another set with this hash: not kept */
    return n;
}

uint64_t cyc_hub_pairs(cyc_sel *s, uint32_t u)
{
    const cyc_local *L = s->L;
    uint32_t m = 0, only = 0;
    for (uint32_t e = L->hub_at[u]; e < L->g.off[u + 1]; e++)
        if (same(s, L->g.dst[e], u)) m++, only = L->g.dst[e] - L->k;
    if (!m) return 0;
    uint64_t n = m == 1 ? s->off[only + 1] - s->off[only] : union_size(s, u);
    n -= (uint64_t)in_union(s, u, u);
    for (uint32_t e = L->g.off[u]; e < L->hub_at[u]; e++) n -= (uint64_t)in_union(s, u, L->g.dst[e]);
    return n;
}

int cyc_hub_in(const cyc_sel *s, uint32_t v)
{
    const cyc_local *L = s->L;
    const iso_graph *r = &L->r;
    for (uint32_t e = L->rhub_at[v]; e < r->off[v + 1]; e++) {
        uint32_t h = r->dst[e];
        if (!same(s, h, v)) continue;
        uint64_t n = s->nr[h - L->k] - (iso_graph_row_bits(&L->g, v, h) != 0);
        for (uint32_t d = r->off[v]; n && d < L->rhub_at[v]; d++)
            n -= same(s, r->dst[d], v) && iso_graph_row_bits(&L->g, r->dst[d], h);
        if (n) return 1;
    }
    return 0;
}

/* ---- rows as pairs ---------------------------------------------------- */

uint32_t cyc_merge_next(const iso_graph *g, uint32_t *e, uint32_t end, cyc_src *src, unsigned m,
                        uint32_t *direct)
{
    uint32_t y = *e < end ? g->dst[*e] : UINT32_MAX;
    for (unsigned i = 0; i < m; i++)
        if (src[i].i < src[i].n && src[i].y[src[i].i] < y) y = src[i].y[src[i].i];
    *direct = ISO_NONE;
    if (y == UINT32_MAX) return y;
    if (*e < end && g->dst[*e] == y) *direct = (*e)++;
    for (unsigned i = 0; i < m; i++) {
        src[i].hit = src[i].i < src[i].n && src[i].y[src[i].i] == y;
        src[i].i += (uint32_t)src[i].hit;
    }
    return y;
}

void cyc_pair_row(const cyc_sel *s, uint32_t u, const uint32_t *pos, cyc_row *out)
{
    const cyc_local *L = s->L;
    const iso_graph *g = &L->g;
    unsigned m = 0;
    for (uint32_t e = L->hub_at[u]; e < g->off[u + 1]; e++) {
        uint32_t j = g->dst[e] - L->k;
        if (!same(s, g->dst[e], u)) continue;
        ISO_GROW(out->src, out->cap_src, (size_t)m + 1);
        out->src[m++] = (cyc_src){.y = s->w + s->off[j], .n = s->off[j + 1] - s->off[j]};
    }
    uint32_t e = g->off[u], d;
    for (uint32_t y; (y = cyc_merge_next(g, &e, L->hub_at[u], out->src, m, &d)) != UINT32_MAX;) {
        if (pos[y] == ISO_NONE || (d == ISO_NONE && y == u)) continue;
        if (out->n == out->cap) {
            out->cap = out->cap ? 2 * out->cap : 64;
            out->dst = iso_xrealloc(out->dst, out->cap * sizeof *out->dst);
            out->bits = iso_xrealloc(out->bits, out->cap);
        }
        out->dst[out->n] = pos[y];
        out->bits[out->n++] = d != ISO_NONE ? g->bits[d] : ISO_EDGE_RW;
    }
}

void cyc_row_free(cyc_row *r)
{
    iso_free(r->dst);
    iso_free(r->bits);
    iso_free(r->src);
    memset(r, 0, sizeof *r);
}
