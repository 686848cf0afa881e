/*
 * elle/rw_register/weak_causal.c -- the forced pairs of the causal levels:
 * t3 reads x from t1 and t2, which writes x, is in t3's causal past (hb):
 * t2 <co t1. Both walk the committed transactions in a topological order
 * of hb (Kahn), keeping for each one only until its last successor has
 * been walked what its successors need of its past.
 *
 * causal (CC: hb = (wr u so)+, so in co) as AWDIT's algorithm (Møldrup
 * and Pavlogiannis, PLDI 2025, section 5): a vector clock per transaction
 * over k chains of hb (how far into each its past reaches) and, per key,
 * its writers by chain; of one chain's writers of x in the past only the
 * last matters, the others precede it in hb, hence in co. AWDIT's chains
 * are the sessions; but Jepsen gives a crashed process's successor a new
 * process, so sessions grow with the history. The chains here are built
 * as the walk goes: a transaction continues its session's chain when it
 * ends in its session predecessor, else any chain whose tail is in its
 * past (its clock says so), else opens one: about as many as transactions
 * run at once. O(n k log n) for k chains.
 *
 * causal-cerone (CCC: hb = wr+, so not in co): sessions are no chains of
 * hb, and hb's width is unbounded, so per transaction a frontier instead:
 * the pairs (writer, key) of its past that no transaction touching the key
 * has yet covered. A transaction that writes x covers every x-writer in
 * its past (they precede it in wr, hence co); one that reads x from t1
 * forces them before t1, which then covers them. A pair leaves a frontier
 * once no later transaction reads its key. The frontiers are sorted arrays
 * (key, writer) in one pool, compacted as they die; the work is the sum of
 * their sizes, O(n k) for k keys in the worst case, near linear when keys
 * are touched often.
 *
 * Either leaves unranked (f->unranked) whatever follows a cycle of hb:
 * that cycle is G1c (or G1c-process), found by the cycle search or by
 * weak.c.
 */
#include "elle/rw_register/weak.h"
#include "graph/runs.h"

#include <stdlib.h>
#include <string.h>

/* ---- hb and a topological order of it ------------------------------------------ */

typedef struct hb {
    uint32_t *poff, *p;   /* predecessors (CSR) */
    uint32_t *soff, *s;   /* successors (CSR) */
    uint32_t *order, n_order;
} hb;

static void hb_preds(const rw_wk *wk, int level, hb *g)
{
    uint32_t *stamp = iso_xcalloc((size_t)wk->n + 1, sizeof *stamp), *buf = NULL;
    size_t n = 0, cap = 0, big = 1;
    const rw_state *st = wk->st;
    for (uint32_t t = 0; t < wk->n; t++)
        if (st->mop_off[t + 1] - st->mop_off[t] + 1 > big) big = st->mop_off[t + 1] - st->mop_off[t] + 1;
    uint32_t *one = iso_xmalloc(big * sizeof *one);
    g->poff = iso_xmalloc(((size_t)wk->n + 1) * sizeof *g->poff);
    for (uint32_t t = 0; t < wk->n; t++) {
        g->poff[t] = (uint32_t)n;
        uint32_t k = rw_hb_preds(wk, level, t, one, stamp);
        ISO_GROW(buf, cap, n + k + 1);
        memcpy(buf + n, one, k * sizeof *one);
        n += k;
    }
    g->poff[wk->n] = (uint32_t)n;
    g->p = buf ? buf : iso_xmalloc(sizeof *g->p);
    iso_free(one);
    iso_free(stamp);
}

static void hb_succs(const rw_wk *wk, hb *g)
{
    g->soff = iso_xcalloc((size_t)wk->n + 2, sizeof *g->soff);
    for (uint32_t i = 0; i < g->poff[wk->n]; i++) g->soff[g->p[i] + 2]++;
    for (uint32_t t = 2; t < wk->n + 2; t++) g->soff[t] += g->soff[t - 1];
    g->s = iso_xmalloc(((size_t)g->poff[wk->n] + 1) * sizeof *g->s);
    for (uint32_t t = 0; t < wk->n; t++)
        for (uint32_t i = g->poff[t]; i < g->poff[t + 1]; i++) g->s[g->soff[g->p[i] + 1]++] = t;
}

/* Kahn's order of the committed transactions; pos[t] its rank, or
 * ISO_NONE (not committed, or after a cycle). */
static void hb_build(const rw_wk *wk, int level, hb *g, rw_forced *f)
{
    hb_preds(wk, level, g);
    hb_succs(wk, g);
    uint32_t *indeg = iso_xmalloc(((size_t)wk->n + 1) * sizeof *indeg), head = 0;
    g->order = iso_xmalloc(((size_t)wk->n + 1) * sizeof *g->order);
    f->pos = iso_xmalloc(((size_t)wk->n + 1) * sizeof *f->pos);
    g->n_order = 0;
    uint32_t n_committed = 0;
    for (uint32_t t = 0; t < wk->n; t++) {
        f->pos[t] = ISO_NONE;
        indeg[t] = g->poff[t + 1] - g->poff[t];
        n_committed += wk->st->committed[t];
        if (wk->st->committed[t] && !indeg[t]) g->order[g->n_order++] = t;
    }
    while (head < g->n_order) {
        uint32_t t = g->order[head];
        f->pos[t] = head++;
        for (uint32_t i = g->soff[t]; i < g->soff[t + 1]; i++)
            if (--indeg[g->s[i]] == 0) g->order[g->n_order++] = g->s[i];
    }
    f->unranked = g->n_order < n_committed;
    iso_free(indeg);
}

static void hb_free(hb *g)
{
    iso_free(g->poff);
    iso_free(g->p);
    iso_free(g->soff);
    iso_free(g->s);
    iso_free(g->order);
}

/* Per txn: successors not yet walked (its state is dropped at 0). */
static uint32_t *remaining(const rw_wk *wk, const hb *g)
{
    uint32_t *r = iso_xmalloc(((size_t)wk->n + 1) * sizeof *r);
    for (uint32_t t = 0; t < wk->n; t++) r[t] = g->soff[t + 1] - g->soff[t];
    return r;
}

static uint32_t max_keys(const rw_wk *wk)
{
    uint32_t big = 1;
    for (uint32_t t = 0; t < wk->n; t++)
        if (wk->st->ext_off[t + 1] - wk->st->ext_off[t] > big) big = wk->st->ext_off[t + 1] - wk->st->ext_off[t];
    return big;
}

/* ---- causal: vector clocks over chains ------------------------------------------ */

/* One chain's writers of a key: (place in the chain << 32 | txn), places
 * ascending (the walk appends them in hb order). */
typedef struct kw_run {
    uint64_t *w;
    size_t n, cap;
    uint32_t chain;
} kw_run;

typedef struct kw_key {
    kw_run *r;
    size_t n, cap;
} kw_key;

/* The walk's state: the clocks (stride entries per slot, one per chain,
 * slots reused), the chains (each txn's chain and place, each chain's
 * tail) and each key's writers by chain, all grown as the walk goes. */
typedef struct cc {
    int32_t *c;
    size_t stride, n_slots, cap;
    uint32_t *free_list;
    size_t n_free, cap_free;
    uint32_t *slot, *of, *idx;  /* per txn */
    uint32_t *tail;             /* per chain */
    size_t n_chains, cap_tail;
    kw_key *key;
} cc;

static uint32_t clock_new(cc *c)
{
    uint32_t s;
    if (c->n_free) s = c->free_list[--c->n_free];
    else {
        ISO_GROW(c->c, c->cap, (c->n_slots + 1) * c->stride);
        s = (uint32_t)c->n_slots++;
    }
    for (size_t i = 0; i < c->stride; i++) c->c[(size_t)s * c->stride + i] = -1;
    return s;
}

static void clock_drop(cc *c, uint32_t s) { ISO_PUSH(c->free_list, c->n_free, c->cap_free, s); }

/* Room for one more chain in every clock: the stride doubles. */
static void widen(cc *c)
{
    size_t wide = c->stride * 2;
    int32_t *x = iso_xmalloc((c->n_slots + 1) * wide * sizeof *x);
    for (size_t s = 0; s < c->n_slots; s++) {
        memcpy(x + s * wide, c->c + s * c->stride, c->stride * sizeof *x);
        for (size_t i = c->stride; i < wide; i++) x[s * wide + i] = -1;
    }
    iso_free(c->c);
    c->c = x;
    c->cap = (c->n_slots + 1) * wide;
    c->stride = wide;
}

/* t's clock: the join of its predecessors' and the predecessors
 * themselves; each predecessor's clock dropped after its last successor. */
static void clock_of(const hb *g, cc *c, uint32_t *rem, uint32_t t)
{
    uint32_t s = clock_new(c);
    int32_t *me = c->c + (size_t)s * c->stride;
    c->slot[t] = s;
    for (uint32_t i = g->poff[t]; i < g->poff[t + 1]; i++) {
        uint32_t p = g->p[i];
        const int32_t *pc = c->c + (size_t)c->slot[p] * c->stride;
        for (size_t j = 0; j < c->n_chains; j++)
            if (pc[j] > me[j]) me[j] = pc[j];
        if ((int32_t)c->idx[p] > me[c->of[p]]) me[c->of[p]] = (int32_t)c->idx[p];
        if (--rem[p] == 0) clock_drop(c, c->slot[p]);
    }
}

/* The chain t continues: a predecessor's (its session's first) that ends
 * in it, else any whose tail is in t's past (me), else a new one. */
static void join_chain(const hb *g, cc *c, uint32_t t)
{
    const int32_t *me = c->c + (size_t)c->slot[t] * c->stride;
    size_t ch = c->n_chains;
    for (uint32_t i = g->poff[t]; i < g->poff[t + 1] && ch == c->n_chains; i++)
        if (c->tail[c->of[g->p[i]]] == g->p[i]) ch = c->of[g->p[i]];
    for (size_t j = 0; j < c->n_chains && ch == c->n_chains; j++)
        if (me[j] >= 0 && (uint32_t)me[j] == c->idx[c->tail[j]]) ch = j;
    if (ch == c->n_chains) {
        if (c->n_chains == c->stride) widen(c);
        ISO_GROW(c->tail, c->cap_tail, c->n_chains + 1);
        c->n_chains++;
        c->idx[t] = 0;
    } else {
        c->idx[t] = c->idx[c->tail[ch]] + 1;
    }
    c->of[t] = (uint32_t)ch;
    c->tail[ch] = t;
}

/* The last writer of run r at a place at most upto, or ISO_NONE. */
static uint32_t last_upto(const kw_run *r, int32_t upto)
{
    size_t lo = 0, hi = r->n;
    if (upto < 0) return ISO_NONE;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->w[mid] >> 32 <= (uint32_t)upto) lo = mid + 1;
        else hi = mid;
    }
    return lo ? (uint32_t)r->w[lo - 1] : ISO_NONE;
}

/* t observes key from w: each chain's last writer of key in t's past,
 * other than w, goes before w. */
static void cc_observe(const cc *c, rw_forced *f, uint32_t t, const rw_obs *o)
{
    const int32_t *me = c->c + (size_t)c->slot[t] * c->stride;
    const kw_key *k = &c->key[o->key];
    for (size_t i = 0; i < k->n; i++) {
        uint32_t t2 = last_upto(&k->r[i], me[k->r[i].chain]);
        if (t2 != ISO_NONE && t2 != o->w) rw_forced_add(f, t2, o->w, t, o->mop, ISO_NONE);
    }
}

/* t's writes join its chain's runs of their keys. */
static void cc_write(const rw_wk *wk, cc *c, uint32_t t)
{
    for (uint32_t j = wk->wk_off[t]; j < wk->wk_off[t + 1]; j++) {
        kw_key *k = &c->key[wk->wk[j]];
        size_t i = 0;
        while (i < k->n && k->r[i].chain != c->of[t]) i++;
        if (i == k->n) ISO_PUSH(k->r, k->n, k->cap, ((kw_run){NULL, 0, 0, c->of[t]}));
        ISO_PUSH(k->r[i].w, k->r[i].n, k->r[i].cap, (uint64_t)c->idx[t] << 32 | t);
    }
}

static void cc_free(cc *c, size_t n_keys)
{
    for (size_t k = 0; k < n_keys; k++) {
        for (size_t i = 0; i < c->key[k].n; i++) iso_free(c->key[k].r[i].w);
        iso_free(c->key[k].r);
    }
    iso_free(c->key);
    iso_free(c->c);
    iso_free(c->free_list);
    iso_free(c->slot);
    iso_free(c->of);
    iso_free(c->idx);
    iso_free(c->tail);
}

void rw_forced_cc(const rw_wk *wk, rw_forced *f)
{
    hb g;
    hb_build(wk, RW_LV_CC, &g, f);
    size_t n1 = (size_t)wk->n + 1;
    cc c = {.stride = 8, .slot = iso_xmalloc(n1 * sizeof(uint32_t)), .of = iso_xmalloc(n1 * sizeof(uint32_t)),
            .idx = iso_xmalloc(n1 * sizeof(uint32_t)), .key = iso_xcalloc(wk->st->keys.n + 1, sizeof(kw_key))};
    uint32_t *rem = remaining(wk, &g);
    rw_obs *o = iso_xmalloc(max_keys(wk) * sizeof *o);
    for (uint32_t i = 0; i < g.n_order; i++) {
        uint32_t t = g.order[i], no = rw_observations(wk, t, o);
        clock_of(&g, &c, rem, t);
        join_chain(&g, &c, t);
        for (uint32_t j = 0; j < no; j++) cc_observe(&c, f, t, &o[j]);
        cc_write(wk, &c, t);
        if (!rem[t]) clock_drop(&c, c.slot[t]);
    }
    iso_free(o);
    iso_free(rem);
    cc_free(&c, wk->st->keys.n + 1);
    hb_free(&g);
}

/* ---- causal-cerone: frontiers ----------------------------------------------------- */

/* Frontier entries: key << 32 | writer, sorted; a txn's frontier is its
 * run in an iso_runs (graph/runs.h). */

/* Growable scratch arrays of entries. */
typedef struct ents {
    uint64_t *a;
    size_t n, cap;
} ents;

/* out = a merged with b (both sorted), repeats once. */
static void merge(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, ents *out)
{
    size_t i = 0, j = 0;
    ISO_GROW(out->a, out->cap, na + nb + 1);
    out->n = 0;
    while (i < na || j < nb) {
        uint64_t x = j == nb || (i < na && a[i] <= b[j]) ? a[i++] : b[j++];
        if (!out->n || out->a[out->n - 1] != x) out->a[out->n++] = x;
    }
}

typedef struct front {
    iso_runs p;
    ents s, tmp, out, touch;   /* t's past, scratch, its own frontier, what it touches */
    uint32_t *last_read;       /* per key: the last rank of a transaction observing it */
    rw_obs *o;
} front;

/* The union of t's predecessors' frontiers into fr->s; each dropped after
 * its last successor. */
static void past(const hb *g, front *fr, uint32_t *rem, uint32_t t)
{
    fr->s.n = 0;
    for (uint32_t i = g->poff[t]; i < g->poff[t + 1]; i++) {
        uint32_t p = g->p[i];
        size_t n;
        const uint64_t *run = iso_runs_get(&fr->p, p, &n);
        if (run) {
            merge(fr->s.a, fr->s.n, run, n, &fr->tmp);
            ents x = fr->s; fr->s = fr->tmp; fr->tmp = x;
        }
        if (--rem[p] == 0) iso_runs_drop(&fr->p, p);
    }
}

/* The first entry of key in s, by binary search. */
static size_t key_start(const ents *s, uint32_t key)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->a[mid] >> 32 < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* t observes x from t1: every other writer of x in its frontier goes
 * before t1. */
static void observe(const front *fr, rw_forced *f, uint32_t t, const rw_obs *o)
{
    for (size_t i = key_start(&fr->s, o->key); i < fr->s.n && fr->s.a[i] >> 32 == o->key; i++)
        if ((uint32_t)fr->s.a[i] != o->w) rw_forced_add(f, (uint32_t)fr->s.a[i], o->w, t, o->mop, ISO_NONE);
}

/* What t touches, sorted: (key, the writer that covers it after t, or
 * ISO_NONE when none does: t read the initial state). */
static void touches(const rw_wk *wk, front *fr, uint32_t t, uint32_t no)
{
    fr->touch.n = 0;
    ISO_GROW(fr->touch.a, fr->touch.cap, (size_t)no + wk->wk_off[t + 1] - wk->wk_off[t] + 1);
    for (uint32_t i = wk->wk_off[t]; i < wk->wk_off[t + 1]; i++) fr->touch.a[fr->touch.n++] = (uint64_t)wk->wk[i] << 32 | t;
    for (uint32_t i = 0; i < no; i++)
        if (!rw_writes(wk, t, fr->o[i].key)) fr->touch.a[fr->touch.n++] = (uint64_t)fr->o[i].key << 32 | fr->o[i].w;
    if (fr->touch.n > 1) qsort(fr->touch.a, fr->touch.n, sizeof *fr->touch.a, iso_cmp_u64);
}

/* t's own frontier: its past without the keys it touches, with who covers
 * them, less the keys nobody observes after rank r. */
static void own_frontier(front *fr, uint32_t r)
{
    size_t i = 0, j = 0;
    ents *s = &fr->s, *u = &fr->touch, *out = &fr->out;
    ISO_GROW(out->a, out->cap, s->n + u->n + 1);
    out->n = 0;
    while (i < s->n || j < u->n) {
        int from_u = i == s->n || (j < u->n && u->a[j] >> 32 <= s->a[i] >> 32);
        uint64_t x = from_u ? u->a[j] : s->a[i];
        uint32_t key = (uint32_t)(x >> 32);
        if (from_u) {
            while (i < s->n && s->a[i] >> 32 == key) i++;
            j++;
            if ((uint32_t)x == ISO_NONE) continue;
        } else {
            i++;
        }
        if (fr->last_read[key] != ISO_NONE && fr->last_read[key] > r) out->a[out->n++] = x;
    }
}

/* Per key, the last rank of a transaction observing it. */
static uint32_t *last_reads(const rw_wk *wk, const hb *g, const rw_forced *f, rw_obs *o)
{
    uint32_t *last = iso_xmalloc((wk->st->keys.n + 1) * sizeof *last);
    memset(last, 0xff, (wk->st->keys.n + 1) * sizeof *last);
    for (uint32_t i = 0; i < g->n_order; i++) {
        uint32_t t = g->order[i], no = rw_observations(wk, t, o);
        for (uint32_t j = 0; j < no; j++) last[o[j].key] = f->pos[t];
    }
    return last;
}

void rw_forced_ccc(const rw_wk *wk, rw_forced *f)
{
    hb g;
    hb_build(wk, RW_LV_CCC, &g, f);
    front fr = {{0}, {0}, {0}, {0}, {0}, NULL, iso_xmalloc(max_keys(wk) * sizeof(rw_obs))};
    iso_runs_init(&fr.p, wk->n, sizeof(uint64_t));
    fr.last_read = last_reads(wk, &g, f, fr.o);
    uint32_t *rem = remaining(wk, &g);
    for (uint32_t i = 0; i < g.n_order; i++) {
        uint32_t t = g.order[i], no = rw_observations(wk, t, fr.o);
        past(&g, &fr, rem, t);
        for (uint32_t j = 0; j < no; j++) observe(&fr, f, t, &fr.o[j]);
        if (!rem[t]) continue;
        touches(wk, &fr, t, no);
        own_frontier(&fr, i);
        if (fr.out.n) iso_runs_put(&fr.p, t, fr.out.a, fr.out.n);
    }
    iso_free(rem);
    iso_free(fr.last_read);
    iso_free(fr.o);
    iso_runs_free(&fr.p);
    iso_free(fr.s.a);
    iso_free(fr.tmp.a);
    iso_free(fr.out.a);
    iso_free(fr.touch.a);
    hb_free(&g);
}

/* ---- causal paths, for the proofs -------------------------------------------------- */

void rw_paths_init(rw_paths *ps, uint32_t n)
{
    ps->parent = iso_xmalloc(((size_t)n + 1) * sizeof *ps->parent);
    ps->queue = iso_xmalloc(((size_t)n + 2) * sizeof *ps->queue);
    ps->stamp = iso_xcalloc((size_t)n + 1, sizeof *ps->stamp);
    ps->p = iso_xmalloc(((size_t)n + 1) * sizeof *ps->p);
    memset(ps->parent, 0xff, ((size_t)n + 1) * sizeof *ps->parent);
}

void rw_paths_free(rw_paths *ps)
{
    iso_free(ps->parent);
    iso_free(ps->queue);
    iso_free(ps->stamp);
    iso_free(ps->p);
}

/* v's hb predecessors into ps->p, the stamps they leave undone. */
static uint32_t preds_once(const rw_wk *wk, int level, rw_paths *ps, uint32_t v)
{
    uint32_t np = rw_hb_preds(wk, level, v, ps->p, ps->stamp);
    for (uint32_t i = 0; i < np; i++) ps->stamp[ps->p[i]] = 0;
    return np;
}

/* A shortest path t2 -> ... -> t3 in hb (breadth-first, backwards from t3,
 * through transactions ranked at or after t2), into w; c->b its offset.
 * ps's arrays are left as they were found. */
void rw_causal_path(const rw_wk *wk, int level, const rw_forced *f, rw_paths *ps, rw_co *c, struct rw_weak *w)
{
    size_t head = 0, tail = 0;
    uint32_t lo = f->pos[c->t2];
    ps->queue[tail++] = c->t3;
    ps->parent[c->t3] = c->t3;
    while (head < tail && ps->parent[c->t2] == ISO_NONE) {
        uint32_t v = ps->queue[head++], np = preds_once(wk, level, ps, v);
        for (uint32_t i = 0; i < np; i++)
            if (ps->parent[ps->p[i]] == ISO_NONE && f->pos[ps->p[i]] != ISO_NONE && f->pos[ps->p[i]] >= lo) {
                ps->parent[ps->p[i]] = v;
                ps->queue[tail++] = ps->p[i];
            }
    }
    uint32_t *path = ps->p, n = 1; /* the path: its length, then t2 .. t3 */
    for (uint32_t v = c->t2; v != c->t3 && ps->parent[v] != ISO_NONE; v = ps->parent[v]) path[n++] = v;
    path[n++] = c->t3;
    path[0] = n - 1;
    for (size_t i = 0; i < tail; i++) ps->parent[ps->queue[i]] = ISO_NONE;
    c->b = rw_weak_keep(w, path, NULL, n);
}
