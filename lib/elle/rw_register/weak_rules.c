/*
 * elle/rw_register/weak_rules.c -- what the weak models' checks share
 * (sessions of committed transactions, written keys, observations, hb
 * predecessors) and the forced pairs of read committed and read atomic,
 * after AWDIT (Møldrup and Pavlogiannis, PLDI 2025, section 4).
 *
 * Read committed (Biswas and Enea): t3 reads y from t2 and later reads x
 * from t1, t2 writes x, t2 != t1: t2 <co t1. Of a writer's reads in t3
 * only the first matters (later ones force less), and of the later reads
 * of x only the first whose writer is not t2: the reads of x that follow
 * it are ordered after it by the same axiom. Read atomic (Cerone et al.,
 * no session): t3 observes x from t1 and reads anything from t2, t2
 * writes x, t2 != t1: t2 <co t1. Both meet each pair (t3, t2) through
 * the smaller of t2's written keys and t3's read keys, so the work is
 * O(n^1.5 log n) for n micro-ops (AWDIT's bound, with a binary search).
 * Monotonic atomic view forces read committed's pairs (its order just
 * does not extend session order).
 */
#include "elle/rw_register/weak.h"
#include "core/sort.h"

#include <stdlib.h>
#include <string.h>

/* ---- what the levels share --------------------------------------------------- */

static uint32_t start_of(const iso_txn *x) { return x->inv != ISO_NONE ? x->inv : x->cmp; }

/* Committed txns by process (the session), each in the order it started. */
static void sessions(rw_wk *wk)
{
    const isolde_history *h = wk->pc->h;
    wk->n_sess = (uint32_t)h->procs.n;
    wk->soff = iso_xcalloc((size_t)wk->n_sess + 2, sizeof *wk->soff);
    wk->sess = iso_xmalloc(((size_t)wk->n + 1) * sizeof *wk->sess);
    wk->sidx = iso_xmalloc(((size_t)wk->n + 1) * sizeof *wk->sidx);
    for (uint32_t t = 0; t < wk->n; t++) {
        wk->sess[t] = wk->st->committed[t] ? iso_txn_op(h, &wk->pc->txns.t[t])->process : ISO_NONE;
        if (wk->sess[t] != ISO_NONE) wk->soff[wk->sess[t] + 2]++;
    }
    for (uint32_t s = 2; s < wk->n_sess + 2; s++) wk->soff[s] += wk->soff[s - 1];
    uint64_t *by = iso_xmalloc(((size_t)wk->soff[wk->n_sess + 1] + 1) * sizeof *by);
    for (uint32_t t = 0; t < wk->n; t++)
        if (wk->sess[t] != ISO_NONE) by[wk->soff[wk->sess[t] + 1]++] = (uint64_t)start_of(&wk->pc->txns.t[t]) << 32 | t;
    wk->stx = iso_xmalloc(((size_t)wk->soff[wk->n_sess] + 1) * sizeof *wk->stx);
    for (uint32_t s = 0; s < wk->n_sess; s++) {
        uint32_t lo = wk->soff[s], hi = wk->soff[s + 1];
        if (hi - lo > 1) qsort(by + lo, hi - lo, sizeof *by, iso_cmp_u64);
        for (uint32_t i = lo; i < hi; i++) {
            wk->stx[i] = (uint32_t)by[i];
            wk->sidx[wk->stx[i]] = i - lo;
        }
    }
    iso_free(by);
}

/* The keys each committed txn writes, sorted. */
static void written_keys(rw_wk *wk)
{
    const rw_state *st = wk->st;
    wk->wk_off = iso_xcalloc((size_t)wk->n + 1, sizeof *wk->wk_off);
    wk->wk = iso_xmalloc((st->n_ext + 1) * sizeof *wk->wk);
    uint32_t at = 0;
    for (uint32_t t = 0; t < wk->n; t++) {
        wk->wk_off[t] = at;
        for (uint32_t i = st->ext_off[t]; st->committed[t] && i < st->ext_off[t + 1]; i++)
            if (st->ext[i].wr != ISO_NONE) wk->wk[at++] = st->ext[i].key;
        if (at - wk->wk_off[t] > 1) qsort(wk->wk + wk->wk_off[t], at - wk->wk_off[t], sizeof *wk->wk, iso_cmp_u32);
    }
    wk->wk_off[wk->n] = at;
}

void rw_wk_init(rw_wk *wk, const iso_proof_ctx *pc, const rw_state *st)
{
    *wk = (rw_wk){.pc = pc, .st = st, .n = (uint32_t)pc->txns.n};
    sessions(wk);
    written_keys(wk);
}

void rw_wk_free(rw_wk *wk)
{
    iso_free(wk->sess);
    iso_free(wk->sidx);
    iso_free(wk->soff);
    iso_free(wk->stx);
    iso_free(wk->wk_off);
    iso_free(wk->wk);
}

uint32_t rw_observations(const rw_wk *wk, uint32_t t, rw_obs *o)
{
    const rw_state *st = wk->st;
    uint32_t n = 0;
    if (wk->pc->txns.t[t].type != ISO_OP_OK) return 0;
    for (uint32_t i = st->ext_off[t]; i < st->ext_off[t + 1]; i++) {
        const rw_ext *e = &st->ext[i];
        uint32_t m = st->mop_off[t] + e->rd_mop;
        if (e->rd != ISO_NONE && st->rclass[m] == RW_R_EXT)
            o[n++] = (rw_obs){e->key, rw_read_writer(wk->pc, st, m), e->rd_mop};
    }
    return n;
}

int rw_writes(const rw_wk *wk, uint32_t t, uint32_t key)
{
    uint32_t lo = wk->wk_off[t], hi = wk->wk_off[t + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (wk->wk[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < wk->wk_off[t + 1] && wk->wk[lo] == key;
}

/* w, once, into p. */
static uint32_t add_pred(uint32_t *p, uint32_t n, uint32_t *stamp, uint32_t t, uint32_t w)
{
    if (w == ISO_NONE || w == t || stamp[w] == t + 1) return n;
    stamp[w] = t + 1;
    p[n] = w;
    return n + 1;
}

uint32_t rw_hb_preds(const rw_wk *wk, int level, uint32_t t, uint32_t *p, uint32_t *stamp)
{
    const rw_state *st = wk->st;
    uint32_t n = 0;
    if (!st->committed[t]) return 0;
    if (rw_level_sessions(level) && wk->sidx[t] > 0) /* unstamped: it may be a writer too */
        p[n++] = wk->stx[wk->soff[wk->sess[t]] + wk->sidx[t] - 1];
    if (wk->pc->txns.t[t].type != ISO_OP_OK) return n;
    if (level == RW_LV_RC || level == RW_LV_MAV) { /* every read in wr */
        for (uint32_t m = st->mop_off[t]; m < st->mop_off[t + 1]; m++)
            if (st->rclass[m] == RW_R_EXT) n = add_pred(p, n, stamp, t, rw_read_writer(wk->pc, st, m));
        return n;
    }
    for (uint32_t i = st->ext_off[t]; i < st->ext_off[t + 1]; i++) { /* the observations */
        uint32_t m = st->mop_off[t] + st->ext[i].rd_mop;
        if (st->ext[i].rd != ISO_NONE && st->rclass[m] == RW_R_EXT) n = add_pred(p, n, stamp, t, rw_read_writer(wk->pc, st, m));
    }
    return n;
}

void rw_forced_add(rw_forced *f, uint32_t t2, uint32_t t1, uint32_t t3, uint32_t a, uint32_t b)
{
    ISO_PUSH(f->co, f->n, f->cap, ((rw_co){t2, t1, t3, a, b}));
}

/* ---- read committed ------------------------------------------------------------ */

/* Per key, the first and the first other-writer read of it after the
 * point a backward walk over one transaction's reads has reached. */
typedef struct rc_scan {
    uint32_t *stamp, *w1, *j1, *w2, *j2; /* per key; j2 ISO_NONE: none */
    uint32_t *later, n_later;            /* the keys read after the point */
    uint32_t *wstamp, *wfirst;           /* per writer: its first read in t3 */
} rc_scan;

/* One read of t3: micro-op index j, key, writer (ISO_NONE: the initial
 * state). */
typedef struct rc_read {
    uint32_t j, key, w;
} rc_read;

/* t3's reads in wr, in program order, into r. */
static uint32_t rc_reads(const rw_wk *wk, uint32_t t3, rc_read *r)
{
    const rw_state *st = wk->st;
    uint32_t n = 0;
    for (uint32_t m = st->mop_off[t3]; m < st->mop_off[t3 + 1]; m++)
        if (st->rclass[m] == RW_R_EXT)
            r[n++] = (rc_read){m - st->mop_off[t3], st->ver[st->mop[m] & ~RW_MOP_W].key, rw_read_writer(wk->pc, st, m)};
    return n;
}

/* The first read of x after the point not from w, as a pair w <co it. */
static void rc_pair(rc_scan *s, rw_forced *f, uint32_t t3, const rc_read *r, uint32_t x)
{
    if (s->w1[x] != r->w) rw_forced_add(f, r->w, s->w1[x], t3, s->j1[x], r->j);
    else if (s->j2[x] != ISO_NONE) rw_forced_add(f, r->w, s->w2[x], t3, s->j2[x], r->j);
}

/* r, t3's first read from its writer: pairs for the keys that writer
 * writes and t3 reads later, through the smaller of the two sets. */
static void rc_first(const rw_wk *wk, rc_scan *s, rw_forced *f, uint32_t t3, const rc_read *r)
{
    uint32_t lo = wk->wk_off[r->w], hi = wk->wk_off[r->w + 1];
    if (hi - lo <= s->n_later) {
        for (uint32_t i = lo; i < hi; i++)
            if (s->stamp[wk->wk[i]] == t3 + 1) rc_pair(s, f, t3, r, wk->wk[i]);
        return;
    }
    for (uint32_t i = 0; i < s->n_later; i++)
        if (rw_writes(wk, r->w, s->later[i])) rc_pair(s, f, t3, r, s->later[i]);
}

/* r becomes the first read of its key after the point. */
static void rc_step(rc_scan *s, uint32_t t3, const rc_read *r)
{
    uint32_t x = r->key;
    if (s->stamp[x] != t3 + 1) {
        s->stamp[x] = t3 + 1;
        s->later[s->n_later++] = x;
        s->j2[x] = ISO_NONE;
    } else if (s->w1[x] != r->w) {
        s->w2[x] = s->w1[x];
        s->j2[x] = s->j1[x];
    }
    s->w1[x] = r->w;
    s->j1[x] = r->j;
}

static void rc_txn(const rw_wk *wk, rc_scan *s, rw_forced *f, uint32_t t3, rc_read *r)
{
    uint32_t n = rc_reads(wk, t3, r);
    for (uint32_t i = 0; i < n; i++)
        if (r[i].w != ISO_NONE && s->wstamp[r[i].w] != t3 + 1) {
            s->wstamp[r[i].w] = t3 + 1;
            s->wfirst[r[i].w] = r[i].j;
        }
    s->n_later = 0;
    for (uint32_t i = n; i-- > 0;) {
        if (r[i].w != ISO_NONE && s->wfirst[r[i].w] == r[i].j) rc_first(wk, s, f, t3, &r[i]);
        rc_step(s, t3, &r[i]);
    }
}

void rw_forced_rc(const rw_wk *wk, rw_forced *f)
{
    const rw_state *st = wk->st;
    size_t nk = st->keys.n + 1, big = 1;
    rc_scan s = {iso_xcalloc(nk, sizeof(uint32_t)), iso_xmalloc(nk * sizeof(uint32_t)),
                 iso_xmalloc(nk * sizeof(uint32_t)), iso_xmalloc(nk * sizeof(uint32_t)),
                 iso_xmalloc(nk * sizeof(uint32_t)), iso_xmalloc(nk * sizeof(uint32_t)), 0,
                 iso_xcalloc((size_t)wk->n + 1, sizeof(uint32_t)), iso_xmalloc(((size_t)wk->n + 1) * sizeof(uint32_t))};
    for (uint32_t t = 0; t < wk->n; t++)
        if (st->mop_off[t + 1] - st->mop_off[t] > big) big = st->mop_off[t + 1] - st->mop_off[t];
    rc_read *r = iso_xmalloc(big * sizeof *r);
    for (uint32_t t = 0; t < wk->n; t++)
        if (st->committed[t] && wk->pc->txns.t[t].type == ISO_OP_OK) rc_txn(wk, &s, f, t, r);
    iso_free(r);
    iso_free(s.stamp);
    iso_free(s.w1);
    iso_free(s.j1);
    iso_free(s.w2);
    iso_free(s.j2);
    iso_free(s.later);
    iso_free(s.wstamp);
    iso_free(s.wfirst);
}

/* ---- read atomic --------------------------------------------------------------- */

typedef struct ra_scan {
    uint32_t *kstamp, *kobs;  /* per key: t3 + 1 when t3 observes it, which observation */
    uint32_t *wstamp;         /* per writer: t3 + 1 once met */
    rw_obs *o;
} ra_scan;

/* Pairs of writer w, whose write t3 observed at micro-op b. */
static void ra_writer(const rw_wk *wk, ra_scan *s, rw_forced *f, uint32_t t3, uint32_t no, uint32_t w, uint32_t b)
{
    uint32_t lo = wk->wk_off[w], hi = wk->wk_off[w + 1];
    if (hi - lo <= no) {
        for (uint32_t i = lo; i < hi; i++) {
            if (s->kstamp[wk->wk[i]] != t3 + 1) continue;
            const rw_obs *x = &s->o[s->kobs[wk->wk[i]]];
            if (x->w != w) rw_forced_add(f, w, x->w, t3, x->mop, b);
        }
        return;
    }
    for (uint32_t i = 0; i < no; i++)
        if (s->o[i].w != w && rw_writes(wk, w, s->o[i].key)) rw_forced_add(f, w, s->o[i].w, t3, s->o[i].mop, b);
}

static void ra_txn(const rw_wk *wk, ra_scan *s, rw_forced *f, uint32_t t3)
{
    uint32_t no = rw_observations(wk, t3, s->o);
    for (uint32_t i = 0; i < no; i++) {
        s->kstamp[s->o[i].key] = t3 + 1;
        s->kobs[s->o[i].key] = i;
    }
    for (uint32_t i = 0; i < no; i++) {
        uint32_t w = s->o[i].w;
        if (w == ISO_NONE || s->wstamp[w] == t3 + 1) continue;
        s->wstamp[w] = t3 + 1;
        ra_writer(wk, s, f, t3, no, w, s->o[i].mop);
    }
}

void rw_forced_ra(const rw_wk *wk, rw_forced *f)
{
    const rw_state *st = wk->st;
    size_t nk = st->keys.n + 1, big = 1;
    for (uint32_t t = 0; t < wk->n; t++)
        if (st->ext_off[t + 1] - st->ext_off[t] > big) big = st->ext_off[t + 1] - st->ext_off[t];
    ra_scan s = {iso_xcalloc(nk, sizeof(uint32_t)), iso_xmalloc(nk * sizeof(uint32_t)),
                 iso_xcalloc((size_t)wk->n + 1, sizeof(uint32_t)), iso_xmalloc(big * sizeof(rw_obs))};
    for (uint32_t t = 0; t < wk->n; t++)
        if (st->committed[t]) ra_txn(wk, &s, f, t);
    iso_free(s.kstamp);
    iso_free(s.kobs);
    iso_free(s.wstamp);
    iso_free(s.o);
}
