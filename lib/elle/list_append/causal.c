/*
 * elle/list_append/causal.c -- causal consistency on list-append (issue
 * 25): `causal-cerone` (Cerone et al., CONCUR 2015: CC without SESSION)
 * and `causal` (CC), complete where every read of a key is a prefix of
 * its version order (elsewhere the history is invalid already:
 * incompatible-order, duplicate-elements).
 *
 * CC asks for a visibility VIS, transitive, contained in a total order AR,
 * such that each read of x shows exactly the appends to x of the
 * transactions visible to it, in AR order (its own after). The least VIS
 * is the causal past hb: observation (the writer of any element a read
 * shows -> the reader) and, for causal, session order, transitively. So a
 * history is CC iff (1) hb and the version order of the appends reads show
 * (consecutive ones, ww) have no cycle together, and (2) no transaction
 * misses (an external read of x lacks) an append to x of one in its causal
 * past. An append no read shows sits after every one read (CV_UNREAD),
 * so any read misses it. Committed are the ok transactions and the :info
 * ones an ok read shows an append of; :fail ones never are.
 *
 * (2) by one walk in a topological order of hb and ww that follows the
 * history (Kahn's, the least transaction id first): each transaction's
 * frontier is, per key, the greatest position of an append to it in its
 * causal past or its own. A read of x of length len misses one iff that
 * position is at least len. Only the maximum per key matters (the version
 * order is known), and an entry (x, pos) is kept after transaction t only
 * while a read of x no longer than pos comes later in the walk (none of
 * t's successors can miss it otherwise): frontiers hold the keys being
 * read stale, a few, whatever the width of hb. A frontier is dropped after
 * its transaction's last successor. O((n + m) log n) and the frontiers'
 * sizes, for n transactions and m micro-ops.
 *
 * One finding per reader (the first read that misses), as causality-
 * violation, or causality-violation-process when the causal path needs
 * session order (causal_proof.c); readers with a fractured read are left
 * to that finding. A model forbidding G-single (or G-single-process) finds
 * these as cycles in the search: then this check does not run (or reports
 * only what needs session order).
 */
#include "elle/list_append/causal.h"
#include "graph/runs.h"
#include "core/sort.h"

#include <stdlib.h>
#include <string.h>

/* An external read of a positional key: its micro-op j shows the first
 * len appends of the key's order (before the reader's own). */
typedef struct cv_read {
    uint32_t key, len, j;
} cv_read;

typedef struct cv_edge {
    uint32_t a, b, kind;
} cv_edge;

/* A frontier entry: txn appended to key at pos, the greatest position of
 * an append to key in a causal past. */
typedef struct cv_ent {
    uint32_t key, pos, txn;
} cv_ent;

/* What the walk needs beside the graph: the reads, the successors, the
 * order, and per key its reads by length with the last rank of one as
 * short (stale: len << 32 | rank, ranks the running maximum). */
typedef struct cv_aux {
    cv_edge *e;
    size_t n_e, cap_e;
    cv_read *rd;
    size_t n_rd, cap_rd;
    uint32_t *roff, *stamp;
    uint32_t *soff, *s, *left; /* successors (all kinds); hb successors not yet walked */
    uint32_t *order, n_order, n_in;
    uint32_t *koff;
    uint64_t *stale;
} cv_aux;

/* ---- the graph --------------------------------------------------------------------- */

static void edge(cv_aux *x, uint32_t a, uint32_t b, uint32_t kind)
{
    ISO_PUSH(x->e, x->n_e, x->cap_e, ((cv_edge){a, b, kind}));
}

/* The writers of read value v of key that t observes, each once per t (an
 * :info one is committed then). */
static void observe(cv *c, cv_aux *x, uint32_t t, uint32_t key, iso_val v)
{
    size_t len;
    const iso_val *items = la_read_items(&c->pc->h->store, v, &len);
    for (size_t i = 0; i < len; i++) {
        const la_append *a = la_find(c->st, key, items[i]);
        if (!a || a->txn == t || a->type == ISO_OP_FAIL || x->stamp[a->txn] == t + 1) continue;
        x->stamp[a->txn] = t + 1;
        c->in[a->txn] = 1;
        edge(x, a->txn, t, CV_OBS);
    }
}

/* Ok transaction t's observations and its external reads of positional keys. */
static void txn_reads(cv *c, cv_aux *x, la_scan *sc, uint32_t t)
{
    const iso_store *s = &c->pc->h->store;
    size_t n;
    const iso_val *m = la_txn_mops(c->pc, t, &n);
    la_scan_txn(c->st, s, sc, t, m, n);
    for (size_t j = 0; j < n; j++) {
        uint32_t key = la_mop_kind(c->st, m[j]) == LA_READ ? iso_keys_find(&c->st->keys, mop_key(s, m[j])) : ISO_NONE;
        if (key == ISO_NONE) continue;
        if (sc->read_ep[key] == sc->ep && sc->read_j[key] == j && la_positional(&c->st->k[key]))
            ISO_PUSH(x->rd, x->n_rd, x->cap_rd, ((cv_read){key, sc->read_len[key], (uint32_t)j}));
        observe(c, x, t, key, mop_val(s, m[j]));
    }
}

static int ok_txn(const iso_txn *t) { return t->type == ISO_OP_OK && t->cmp != ISO_NONE; }

static void reads(cv *c, cv_aux *x)
{
    la_scan sc;
    la_scan_init(&sc, c->st, c->n);
    for (uint32_t t = 0; t < c->n; t++) c->in[t] = ok_txn(&c->pc->txns.t[t]);
    for (uint32_t t = 0; t < c->n; t++) {
        x->roff[t] = (uint32_t)x->n_rd;
        if (ok_txn(&c->pc->txns.t[t])) txn_reads(c, x, &sc, t);
    }
    x->roff[c->n] = (uint32_t)x->n_rd;
    la_scan_free(&sc);
}

/* Session order: each process's committed transactions, in order. */
static void sessions(cv *c, cv_aux *x)
{
    size_t np = c->pc->h->procs.n + 1;
    uint32_t *last = iso_xmalloc(np * sizeof *last);
    memset(last, 0xff, np * sizeof *last);
    for (uint32_t t = 0; t < c->n; t++) {
        if (!c->in[t]) continue;
        uint32_t p = iso_txn_op(c->pc->h, &c->pc->txns.t[t])->process;
        if (last[p] != ISO_NONE) edge(x, last[p], t, CV_SO);
        last[p] = t;
    }
    iso_free(last);
}

/* ww: consecutive appends of positional keys' orders, of two committed
 * transactions. */
static void versions(cv *c, cv_aux *x)
{
    const la_state *st = c->st;
    for (uint32_t key = 0; key < st->keys.n; key++) {
        const la_key *k = &st->k[key];
        for (uint32_t i = 1; la_positional(k) && i < k->len; i++) {
            uint32_t a = st->at[k->slot0 + i - 1], b = st->at[k->slot0 + i];
            if (a == ISO_NONE || b == ISO_NONE) continue;
            uint32_t ta = st->ap[a].txn, tb = st->ap[b].txn;
            if (ta != tb && c->in[ta] && c->in[tb]) edge(x, ta, tb, CV_WW);
        }
    }
}

/* The edges as predecessors (c->p, with kinds) and successors (x->s). */
static void csr(cv *c, cv_aux *x)
{
    size_t n1 = (size_t)c->n + 2;
    c->poff = iso_xcalloc(n1, sizeof *c->poff);
    x->soff = iso_xcalloc(n1, sizeof *x->soff);
    x->left = iso_xcalloc(n1, sizeof *x->left);
    for (size_t i = 0; i < x->n_e; i++) {
        c->poff[x->e[i].b + 2]++, x->soff[x->e[i].a + 2]++;
        x->left[x->e[i].a] += x->e[i].kind != CV_WW;
    }
    for (size_t t = 2; t < n1; t++) c->poff[t] += c->poff[t - 1], x->soff[t] += x->soff[t - 1];
    c->p = iso_xmalloc((x->n_e + 1) * sizeof *c->p);
    c->pk = iso_xmalloc(x->n_e + 1);
    x->s = iso_xmalloc((x->n_e + 1) * sizeof *x->s);
    for (size_t i = 0; i < x->n_e; i++) {
        uint32_t at = c->poff[x->e[i].b + 1]++;
        c->p[at] = x->e[i].a, c->pk[at] = (uint8_t)x->e[i].kind;
        x->s[x->soff[x->e[i].a + 1]++] = x->e[i].b;
    }
    iso_free(x->e);
    x->e = NULL;
}

/* ---- the order: Kahn's, the least ready transaction first ------------------------ */

static void heap_push(uint32_t *h, uint32_t *n, uint32_t v)
{
    uint32_t i = (*n)++;
    for (; i && h[(i - 1) / 2] > v; i = (i - 1) / 2) h[i] = h[(i - 1) / 2];
    h[i] = v;
}

static uint32_t heap_pop(uint32_t *h, uint32_t *n)
{
    uint32_t top = h[0], v = h[--*n], i = 0;
    for (;;) {
        uint32_t k = 2 * i + 1;
        if (k >= *n) break;
        if (k + 1 < *n && h[k + 1] < h[k]) k++;
        if (h[k] >= v) break;
        h[i] = h[k], i = k;
    }
    h[i] = v;
    return top;
}

static void order(cv *c, cv_aux *x)
{
    uint32_t *indeg = iso_xmalloc(((size_t)c->n + 1) * sizeof *indeg), *heap = iso_xmalloc(((size_t)c->n + 1) * sizeof *heap);
    uint32_t nh = 0;
    x->order = iso_xmalloc(((size_t)c->n + 1) * sizeof *x->order);
    c->rank = iso_xmalloc(((size_t)c->n + 1) * sizeof *c->rank);
    memset(c->rank, 0xff, ((size_t)c->n + 1) * sizeof *c->rank);
    x->n_order = x->n_in = 0;
    for (uint32_t t = 0; t < c->n; t++) {
        indeg[t] = c->poff[t + 1] - c->poff[t];
        x->n_in += c->in[t];
        if (c->in[t] && !indeg[t]) heap_push(heap, &nh, t);
    }
    while (nh) {
        uint32_t t = heap_pop(heap, &nh);
        c->rank[t] = x->n_order, x->order[x->n_order++] = t;
        for (uint32_t i = x->soff[t]; i < x->soff[t + 1]; i++)
            if (--indeg[x->s[i]] == 0) heap_push(heap, &nh, x->s[i]);
    }
    iso_free(indeg);
    iso_free(heap);
}

/* ---- stale reads to come ------------------------------------------------------------ */

/* Per key its reads (len << 32 | rank) by length, ranks made the running
 * maximum: the last rank of a read of the key no longer than len. */
static void stale_reads(const cv *c, cv_aux *x)
{
    size_t nk = c->st->keys.n;
    x->koff = iso_xcalloc(nk + 2, sizeof *x->koff);
    x->stale = iso_xmalloc((x->n_rd + 1) * sizeof *x->stale);
    for (size_t i = 0; i < x->n_rd; i++) x->koff[x->rd[i].key + 2]++;
    for (size_t k = 2; k < nk + 2; k++) x->koff[k] += x->koff[k - 1];
    for (uint32_t t = 0; t < c->n; t++)
        for (uint32_t i = x->roff[t]; i < x->roff[t + 1]; i++)
            x->stale[x->koff[x->rd[i].key + 1]++] = (uint64_t)x->rd[i].len << 32 | c->rank[t];
    for (size_t k = 0; k < nk; k++) {
        uint64_t *a = x->stale + x->koff[k];
        size_t n = x->koff[k + 1] - x->koff[k];
        if (n > 1) qsort(a, n, sizeof *a, iso_cmp_u64);
        for (size_t i = 1; i < n; i++)
            if ((uint32_t)a[i] < (uint32_t)a[i - 1]) a[i] = (a[i] >> 32) << 32 | (uint32_t)a[i - 1];
    }
}

/* Whether a read of key no longer than pos comes after rank r. */
static int read_later(const cv_aux *x, uint32_t key, uint32_t pos, uint32_t r)
{
    size_t lo = x->koff[key], hi = x->koff[key + 1];
    while (lo < hi) { /* the first read longer than pos */
        size_t mid = lo + (hi - lo) / 2;
        if (x->stale[mid] >> 32 <= pos) lo = mid + 1;
        else hi = mid;
    }
    return lo > x->koff[key] && (uint32_t)x->stale[lo - 1] > r;
}

/* ---- the walk ----------------------------------------------------------------------- */

typedef struct ents {
    cv_ent *a;
    size_t n, cap;
} ents;

/* The frontiers of the transactions not yet past their last successor. */
typedef struct walk {
    iso_runs runs;
    ents cur, tmp, own;
} walk;

/* out = a and b merged by key, the greater position of each key kept. */
static void merge(const cv_ent *a, size_t na, const cv_ent *b, size_t nb, ents *out)
{
    size_t i = 0, j = 0;
    ISO_GROW(out->a, out->cap, na + nb + 1);
    out->n = 0;
    while (i < na || j < nb) {
        cv_ent e = j == nb || (i < na && a[i].key <= b[j].key) ? a[i++] : b[j++];
        cv_ent *last = out->n ? &out->a[out->n - 1] : NULL;
        if (last && last->key == e.key) {
            if (e.pos > last->pos) *last = e;
        } else {
            out->a[out->n++] = e;
        }
    }
}

static void merge_into(walk *w, ents *into, const cv_ent *b, size_t nb)
{
    merge(into->a, into->n, b, nb, &w->tmp);
    ents t = *into;
    *into = w->tmp, w->tmp = t;
}

/* t's causal past's frontier into w->cur, each predecessor's frontier
 * dropped after its last successor. */
static void past(const cv *c, const cv_aux *x, walk *w, uint32_t t)
{
    w->cur.n = 0;
    for (uint32_t i = c->poff[t]; i < c->poff[t + 1]; i++) {
        uint32_t p = c->p[i];
        size_t n;
        if (c->pk[i] == CV_WW) continue;
        const cv_ent *run = iso_runs_get(&w->runs, p, &n);
        if (run) merge_into(w, &w->cur, run, n);
        if (--x->left[p] == 0) iso_runs_drop(&w->runs, p);
    }
}

static const cv_ent *find(const ents *e, uint32_t key)
{
    size_t lo = 0, hi = e->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->a[mid].key < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < e->n && e->a[lo].key == key ? &e->a[lo] : NULL;
}

/* t's own appends to positional keys, a frontier (by key, greatest position). */
static void own(const cv *c, walk *w, uint32_t t)
{
    const la_state *st = c->st;
    w->own.n = 0;
    for (size_t i = la_first_append(st, t); i < st->n_ap && st->ap[i].txn == t; i++) {
        const la_append *a = &st->ap[i];
        /* a writer that never completed has no place in the order even where a read shows it */
        if (!la_positional(&st->k[a->key]) || (a->pos == ISO_NONE && c->pc->txns.t[t].cmp == ISO_NONE)) continue;
        cv_ent e = {a->key, a->pos == ISO_NONE ? CV_UNREAD : a->pos, t};
        size_t at = w->own.n;
        ISO_GROW(w->own.a, w->own.cap, at + 1);
        while (at && w->own.a[at - 1].key > e.key) w->own.a[at] = w->own.a[at - 1], at--;
        if (at && w->own.a[at - 1].key == e.key) {
            memmove(w->own.a + at, w->own.a + at + 1, (w->own.n - at) * sizeof *w->own.a);
            if (e.pos > w->own.a[at - 1].pos) w->own.a[at - 1] = e;
            continue;
        }
        w->own.a[at] = e;
        w->own.n++;
    }
}

/* t's frontier: its past's and its own appends, less what no later read
 * can miss. */
static void keep(const cv *c, const cv_aux *x, walk *w, uint32_t t)
{
    own(c, w, t);
    merge_into(w, &w->cur, w->own.a, w->own.n);
    size_t n = 0;
    for (size_t i = 0; i < w->cur.n; i++)
        if (read_later(x, w->cur.a[i].key, w->cur.a[i].pos, c->rank[t])) w->cur.a[n++] = w->cur.a[i];
    if (n) iso_runs_put(&w->runs, t, w->cur.a, n);
}

/* Whether a read of key of length len ends in an intermediate append of
 * w's: Elle's G1b, reported as that. */
static int intermediate_of(const cv *c, uint32_t key, uint32_t len, uint32_t w)
{
    const la_key *k = &c->st->k[key];
    uint32_t at = len && len <= k->len ? c->st->at[k->slot0 + len - 1] : ISO_NONE;
    return at != ISO_NONE && c->st->ap[at].txn == w && c->st->ap[at].intermediate;
}

/* The first read of t that misses an append of its causal past, reported. */
static void check_reads(iso_ctx *ctx, cv *c, const cv_aux *x, const walk *w, uint32_t t)
{
    for (uint32_t i = x->roff[t]; i < x->roff[t + 1]; i++) {
        const cv_ent *e = find(&w->cur, x->rd[i].key);
        if (e && e->pos >= x->rd[i].len && !intermediate_of(c, e->key, x->rd[i].len, e->txn)) {
            cv_report_missed(ctx, c, t, x->rd[i].j, e->txn, e->key);
            return;
        }
    }
}

static void walk_all(iso_ctx *ctx, cv *c, cv_aux *x, const uint8_t *fractured)
{
    walk w = {0};
    iso_runs_init(&w.runs, c->n, sizeof(cv_ent));
    for (uint32_t i = 0; i < x->n_order; i++) {
        uint32_t t = x->order[i];
        past(c, x, &w, t);
        if (!fractured[t]) check_reads(ctx, c, x, &w, t);
        if (x->left[t]) keep(c, x, &w, t);
    }
    iso_runs_free(&w.runs);
    iso_free(w.cur.a);
    iso_free(w.tmp.a);
    iso_free(w.own.a);
}

/* ---- a transaction's appends apart or out of its order ---------------------------- */

/* Of t's appends to a positional key, the first b a read shows whose
 * previous one a is not just before it in the order (unread, or another
 * append between, or after it): 1, else 0. */
static int scattered(const cv *c, uint32_t t, size_t *a, size_t *b)
{
    const la_state *st = c->st;
    size_t lo = la_first_append(st, t);
    for (size_t i = lo; i < st->n_ap && st->ap[i].txn == t; i++) {
        const la_append *y = &st->ap[i];
        if (!la_positional(&st->k[y->key]) || y->pos == ISO_NONE) continue;
        size_t p = i;
        while (p-- > lo && st->ap[p].key != y->key) continue;
        if (p < i && p >= lo && (st->ap[p].pos == ISO_NONE || st->ap[p].pos + 1 != y->pos)) {
            *a = p, *b = i;
            return 1;
        }
    }
    return 0;
}

/* Each committed transaction whose appends to a key the version order
 * shows apart or out of its order, reported with the longest read of the
 * key (which shows it). CC's reads show each visible transaction's
 * appends together, in its order. */
static void check_writers(iso_ctx *ctx, const cv *c, const cv_aux *x)
{
    size_t nk = c->st->keys.n + 1;
    uint32_t *by = iso_xmalloc(nk * sizeof *by), *len = iso_xcalloc(nk, sizeof *len), *j = iso_xmalloc(nk * sizeof *j);
    memset(by, 0xff, nk * sizeof *by);
    for (uint32_t t = 0; t < c->n; t++)
        for (uint32_t i = x->roff[t]; i < x->roff[t + 1]; i++)
            if (by[x->rd[i].key] == ISO_NONE || x->rd[i].len > len[x->rd[i].key])
                by[x->rd[i].key] = t, len[x->rd[i].key] = x->rd[i].len, j[x->rd[i].key] = x->rd[i].j;
    for (uint32_t t = 0; t < c->n; t++) {
        size_t a, b;
        if (!c->in[t] || !scattered(c, t, &a, &b)) continue;
        uint32_t key = c->st->ap[b].key;
        if (by[key] != ISO_NONE && len[key] > c->st->ap[b].pos) cv_report_scattered(ctx, c, a, b, by[key], j[key]);
    }
    iso_free(by);
    iso_free(len);
    iso_free(j);
}

static void aux_free(cv_aux *x)
{
    iso_free(x->e);
    iso_free(x->rd);
    iso_free(x->roff);
    iso_free(x->stamp);
    iso_free(x->soff);
    iso_free(x->s);
    iso_free(x->left);
    iso_free(x->order);
    iso_free(x->koff);
    iso_free(x->stale);
}

/* Which level runs: causal's (with session order) when it is asked and the
 * search does not already find every violation as G-single-process;
 * causal-cerone's when it is asked and G-single is not searched. -1: none. */
static int level(const iso_request *req)
{
    if (req->reportable[ISO_A_G_SINGLE_PROCESS]) return -1;
    if (req->reportable[ISO_A_CAUSALITY_VIOLATION_PROCESS]) return 1;
    return req->reportable[ISO_A_CAUSALITY_VIOLATION] && !req->reportable[ISO_A_G_SINGLE] ? 0 : -1;
}

void la_causality(iso_ctx *ctx, const la_state *st, const uint8_t *fractured)
{
    int so = level(ctx->req);
    if (so < 0) return;
    size_t n1 = ctx->pc.txns.n + 1;
    cv c = {st, &ctx->pc, (uint32_t)ctx->pc.txns.n, so, iso_xcalloc(n1, 1), NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    cv_aux x = {0};
    x.roff = iso_xmalloc((n1 + 1) * sizeof *x.roff);
    x.stamp = iso_xcalloc(n1, sizeof *x.stamp);
    reads(&c, &x);
    if (so) sessions(&c, &x);
    versions(&c, &x);
    csr(&c, &x);
    order(&c, &x);
    if (x.n_order < x.n_in) {
        cv_report_cycle(ctx, &c);
    } else {
        check_writers(ctx, &c, &x);
        stale_reads(&c, &x);
        walk_all(ctx, &c, &x, fractured);
    }
    aux_free(&x);
    cv_proof_free(&c);
    iso_free(c.in);
    iso_free(c.poff);
    iso_free(c.p);
    iso_free(c.pk);
    iso_free(c.rank);
}
