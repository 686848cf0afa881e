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
 * process, so sessions grow with the history, and the chains here are a
 * cover of hb by paths of its edges, each continuing a session where it
 * can: about as many as transactions run at once. O(n k log n).
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

/* ---- causal: vector clocks ------------------------------------------------------- */

/* A cover of the ranked transactions by chains of hb: each continues the
 * chain of its first predecessor (its session predecessor first) that
 * ends in that predecessor, else opens one. */
typedef struct chains {
    uint32_t *of, *idx;      /* per txn: its chain (ISO_NONE: unranked), its place in it */
    uint32_t *off, *tx;      /* chain c: tx[off[c] .. off[c+1]), in hb order */
    uint32_t n;
} chains;

static uint32_t chain_to_continue(const hb *g, const chains *ch, const uint32_t *tail, uint32_t t)
{
    for (uint32_t i = g->poff[t]; i < g->poff[t + 1]; i++) {
        uint32_t p = g->p[i];
        if (ch->of[p] != ISO_NONE && tail[ch->of[p]] == p) return ch->of[p];
    }
    return ISO_NONE;
}

static void chains_build(const rw_wk *wk, const hb *g, chains *ch)
{
    uint32_t *tail = iso_xmalloc(((size_t)wk->n + 1) * sizeof *tail);
    ch->of = iso_xmalloc(((size_t)wk->n + 1) * sizeof *ch->of);
    ch->idx = iso_xmalloc(((size_t)wk->n + 1) * sizeof *ch->idx);
    memset(ch->of, 0xff, ((size_t)wk->n + 1) * sizeof *ch->of);
    ch->n = 0;
    for (uint32_t i = 0; i < g->n_order; i++) {
        uint32_t t = g->order[i], c = chain_to_continue(g, ch, tail, t);
        ch->idx[t] = c == ISO_NONE ? 0 : ch->idx[tail[c]] + 1;
        if (c == ISO_NONE) c = ch->n++;
        ch->of[t] = c;
        tail[c] = t;
    }
    ch->off = iso_xcalloc((size_t)ch->n + 2, sizeof *ch->off);
    for (uint32_t i = 0; i < g->n_order; i++) ch->off[ch->of[g->order[i]] + 2]++;
    for (uint32_t c = 2; c < ch->n + 2; c++) ch->off[c] += ch->off[c - 1];
    ch->tx = iso_xmalloc(((size_t)g->n_order + 1) * sizeof *ch->tx);
    for (uint32_t i = 0; i < g->n_order; i++) ch->tx[ch->off[ch->of[g->order[i]] + 1]++] = g->order[i];
    iso_free(tail);
}

static void chains_free(chains *ch)
{
    iso_free(ch->of);
    iso_free(ch->idx);
    iso_free(ch->off);
    iso_free(ch->tx);
}

/* Per key, its ranked writers by chain: runs (chain, first, end) into
 * at[], each run's places in its chain ascending. */
typedef struct key_writers {
    uint32_t *roff;          /* key k's runs: run[roff[k] .. roff[k+1]) */
    struct run { uint32_t sess, lo, hi; } *run;  /* sess: the chain */
    uint32_t *at;            /* places in the chain */
} key_writers;

static void key_writers_build(const rw_wk *wk, const chains *ch, key_writers *kw)
{
    size_t nk = wk->st->keys.n;
    uint32_t *off = iso_xcalloc(nk + 2, sizeof *off);
    for (uint32_t i = 0; i < ch->off[ch->n]; i++) /* the ranked writers alone */
        for (uint32_t j = wk->wk_off[ch->tx[i]]; j < wk->wk_off[ch->tx[i] + 1]; j++) off[wk->wk[j] + 2]++;
    for (size_t k = 2; k < nk + 2; k++) off[k] += off[k - 1];
    kw->at = iso_xmalloc(((size_t)wk->wk_off[wk->n] + 1) * sizeof *kw->at);
    uint32_t *sess_of = iso_xmalloc(((size_t)wk->wk_off[wk->n] + 1) * sizeof *sess_of);
    for (uint32_t s = 0; s < ch->n; s++)
        for (uint32_t i = ch->off[s]; i < ch->off[s + 1]; i++)
            for (uint32_t j = wk->wk_off[ch->tx[i]]; j < wk->wk_off[ch->tx[i] + 1]; j++) {
                sess_of[off[wk->wk[j] + 1]] = s;
                kw->at[off[wk->wk[j] + 1]++] = i - ch->off[s];
            }
    size_t n_runs = 0, cap = 0;
    kw->run = NULL;
    kw->roff = iso_xmalloc((nk + 1) * sizeof *kw->roff);
    for (size_t k = 0; k < nk; k++) {
        kw->roff[k] = (uint32_t)n_runs;
        for (uint32_t i = off[k]; i < off[k + 1]; i++) {
            if (n_runs > kw->roff[k] && kw->run[n_runs - 1].sess == sess_of[i]) { kw->run[n_runs - 1].hi = i + 1; continue; }
            ISO_PUSH(kw->run, n_runs, cap, ((struct run){sess_of[i], i, i + 1}));
        }
    }
    kw->roff[nk] = (uint32_t)n_runs;
    if (!kw->run) kw->run = iso_xmalloc(sizeof *kw->run);
    iso_free(sess_of);
    iso_free(off);
}

static void key_writers_free(key_writers *kw)
{
    iso_free(kw->roff);
    iso_free(kw->run);
    iso_free(kw->at);
}

/* The last of a run's places at most upto, or ISO_NONE. */
static uint32_t last_upto(const key_writers *kw, const struct run *r, int32_t upto)
{
    uint32_t lo = r->lo, hi = r->hi;
    if (upto < 0) return ISO_NONE;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (kw->at[mid] <= (uint32_t)upto) lo = mid + 1;
        else hi = mid;
    }
    return lo == r->lo ? ISO_NONE : kw->at[lo - 1];
}

/* The clocks: k entries per slot, slots reused. */
typedef struct clocks {
    int32_t *c;
    size_t k, n_slots, cap;
    uint32_t *free_list;
    size_t n_free, cap_free;
    uint32_t *slot;          /* per txn */
} clocks;

static uint32_t clock_new(clocks *c)
{
    uint32_t s;
    if (c->n_free) s = c->free_list[--c->n_free];
    else {
        ISO_GROW(c->c, c->cap, (c->n_slots + 1) * c->k);
        s = (uint32_t)c->n_slots++;
    }
    for (size_t i = 0; i < c->k; i++) c->c[(size_t)s * c->k + i] = -1;
    return s;
}

static void clock_drop(clocks *c, uint32_t s) { ISO_PUSH(c->free_list, c->n_free, c->cap_free, s); }

/* t's clock: the join of its predecessors' and the predecessors
 * themselves; each predecessor's clock dropped after its last successor. */
static int32_t *clock_of(const chains *ch, const hb *g, clocks *c, uint32_t *rem, uint32_t t)
{
    uint32_t s = clock_new(c);
    c->slot[t] = s;
    int32_t *me = c->c + (size_t)s * c->k;
    for (uint32_t i = g->poff[t]; i < g->poff[t + 1]; i++) {
        uint32_t p = g->p[i];
        const int32_t *pc = c->c + (size_t)c->slot[p] * c->k;
        for (size_t j = 0; j < c->k; j++)
            if (pc[j] > me[j]) me[j] = pc[j];
        if ((int32_t)ch->idx[p] > me[ch->of[p]]) me[ch->of[p]] = (int32_t)ch->idx[p];
        if (--rem[p] == 0) clock_drop(c, c->slot[p]);
    }
    return me;
}

void rw_forced_cc(const rw_wk *wk, rw_forced *f)
{
    hb g;
    key_writers kw;
    chains ch;
    hb_build(wk, RW_LV_CC, &g, f);
    chains_build(wk, &g, &ch);
    key_writers_build(wk, &ch, &kw);
    clocks c = {NULL, ch.n ? ch.n : 1, 0, 0, NULL, 0, 0, iso_xmalloc(((size_t)wk->n + 1) * sizeof(uint32_t))};
    uint32_t *rem = remaining(wk, &g);
    rw_obs *o = iso_xmalloc(max_keys(wk) * sizeof *o);
    for (uint32_t i = 0; i < g.n_order; i++) {
        uint32_t t = g.order[i], no = rw_observations(wk, t, o);
        int32_t *me = clock_of(&ch, &g, &c, rem, t);
        for (uint32_t j = 0; j < no; j++)
            for (uint32_t r = kw.roff[o[j].key]; r < kw.roff[o[j].key + 1]; r++) {
                uint32_t s = kw.run[r].sess, at = last_upto(&kw, &kw.run[r], me[s]);
                uint32_t t2 = at == ISO_NONE ? ISO_NONE : ch.tx[ch.off[s] + at];
                if (t2 != ISO_NONE && t2 != o[j].w) rw_forced_add(f, t2, o[j].w, t, o[j].mop, ISO_NONE);
            }
        if (!rem[t]) clock_drop(&c, c.slot[t]);
    }
    iso_free(o);
    iso_free(rem);
    iso_free(c.c);
    iso_free(c.free_list);
    iso_free(c.slot);
    key_writers_free(&kw);
    chains_free(&ch);
    hb_free(&g);
}

/* ---- causal-cerone: frontiers ----------------------------------------------------- */

/* Frontier entries: key << 32 | writer, sorted. */
typedef struct pool {
    uint64_t *a;
    size_t n, cap, live;
    uint32_t *off, *len;     /* per txn: its frontier, off ISO_NONE when none */
    uint32_t n_txn;
} pool;

/* Move the live frontiers to the front, once the dead take more room. */
static void pool_compact(pool *p)
{
    if (p->n < 2 * p->live + (1u << 20)) return;
    size_t at = 0;
    for (uint32_t t = 0; t < p->n_txn; t++) {
        if (p->off[t] == ISO_NONE) continue;
        memmove(p->a + at, p->a + p->off[t], p->len[t] * sizeof *p->a);
        p->off[t] = (uint32_t)at;
        at += p->len[t];
    }
    p->n = at;
}

static void pool_put(pool *p, uint32_t t, const uint64_t *a, size_t n)
{
    pool_compact(p);
    ISO_GROW(p->a, p->cap, p->n + n);
    memcpy(p->a + p->n, a, n * sizeof *a);
    p->off[t] = (uint32_t)p->n;
    p->len[t] = (uint32_t)n;
    p->n += n;
    p->live += n;
}

static void pool_drop(pool *p, uint32_t t)
{
    if (p->off[t] == ISO_NONE) return;
    p->live -= p->len[t];
    p->off[t] = ISO_NONE;
}

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
    pool p;
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
        if (fr->p.off[p] != ISO_NONE) {
            merge(fr->s.a, fr->s.n, fr->p.a + fr->p.off[p], fr->p.len[p], &fr->tmp);
            ents x = fr->s; fr->s = fr->tmp; fr->tmp = x;
        }
        if (--rem[p] == 0) pool_drop(&fr->p, p);
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
    if (fr->touch.n > 1) qsort(fr->touch.a, fr->touch.n, sizeof *fr->touch.a, rw_cmp_u64);
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
    fr.p.n_txn = wk->n;
    fr.p.off = iso_xmalloc(((size_t)wk->n + 1) * sizeof *fr.p.off);
    fr.p.len = iso_xmalloc(((size_t)wk->n + 1) * sizeof *fr.p.len);
    memset(fr.p.off, 0xff, ((size_t)wk->n + 1) * sizeof *fr.p.off);
    fr.last_read = last_reads(wk, &g, f, fr.o);
    uint32_t *rem = remaining(wk, &g);
    for (uint32_t i = 0; i < g.n_order; i++) {
        uint32_t t = g.order[i], no = rw_observations(wk, t, fr.o);
        past(&g, &fr, rem, t);
        for (uint32_t j = 0; j < no; j++) observe(&fr, f, t, &fr.o[j]);
        if (!rem[t]) continue;
        touches(wk, &fr, t, no);
        own_frontier(&fr, i);
        if (fr.out.n) pool_put(&fr.p, t, fr.out.a, fr.out.n);
    }
    iso_free(rem);
    iso_free(fr.last_read);
    iso_free(fr.o);
    iso_free(fr.p.a);
    iso_free(fr.p.off);
    iso_free(fr.p.len);
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
