/*
 * elle/list_append/rc_be.c -- what Biswas and Enea's read committed
 * (OOPSLA 2019; `read-committed-be`) forbids on list-append beyond
 * monotonic atomic view (fractured.c) and Adya's PL-2 (the search):
 *
 * - INT: a read of key x after the transaction's own appends to x ends
 *   with those appends, in order. A read that does not is
 *   not-my-last-write when it ends with one of them, else
 *   not-my-own-write (rw-register's names), the first of each per
 *   transaction.
 * - a cycle through session order of the commit order the axioms force:
 *   co extends session order and wr, and, lifted to lists (the oracle's
 *   tests/tools/oracle/co.c), a read of x whose external part (without
 *   the reader's own appends) shows the appends of w1..wk has exactly
 *   w1..wk before wk among x's appenders. So co orders the appenders of
 *   each key's longest external part as it shows them, and puts every
 *   other committed appender of the key after its last one. Positions
 *   known only from a transaction's read of its own appends force nothing
 *   (its appends may land later), nor do appends no external read shows
 *   among themselves: Elle's order, which puts them after the last version
 *   read, gives cycles read-committed-be allows. The axiom itself is then
 *   local (a later read of x misses a writer of x an earlier read of the
 *   same transaction observed: monotonic atomic view's non-monotonic-read),
 *   and a cycle without session order is a G0 or G1c the search finds, so
 *   what is left is a cycle that needs session order:
 *   non-monotonic-read-process, one per strongly connected component,
 *   through its first session edge, the shortest path back.
 *
 * Committed: the ok transactions and the :info ones an ok read shows.
 * Keys whose reads are not prefixes of one order (incompatible-order)
 * force nothing here; the history is invalid already.
 */
#include "elle/list_append/list_append_int.h"
#include "elle/picture.h"
#include "graph/scc.h"

#include <stdlib.h>
#include <string.h>

/* ww: shown in this order by a read; ww_after: the second not shown by
 * any read of another transaction, the first last in the longest one. */
enum { RB_SO = 1, RB_WR = 2, RB_WW = 3, RB_WW_AFTER = 4 };

/* An edge a -> b of the forced order and why: the key, the values
 * (wr: b's read shows va last; ww: b's vb follows a's va). */
typedef struct rb_edge {
    uint32_t a, b, kind;
    iso_val key, va, vb;
} rb_edge;

typedef struct rb {
    const la_state *st;
    const iso_proof_ctx *pc;
    uint32_t n;
    uint8_t *in;       /* committed */
    uint32_t *ext;     /* per key: the longest external part's length */
    rb_edge *e;
    size_t n_e, cap_e;
    long *lens;        /* scratch: a reader's state lengths */
    size_t cap_lens;
} rb;

static int ok_txn(const iso_txn *t) { return t->type == ISO_OP_OK && t->cmp != ISO_NONE; }

static void edge(rb *x, uint32_t a, uint32_t b, uint32_t kind, iso_val key, iso_val va, iso_val vb)
{
    if (a != b && x->in[a] && x->in[b]) ISO_PUSH(x->e, x->n_e, x->cap_e, ((rb_edge){a, b, kind, key, va, vb}));
}

/* The append at position pos of key, or NULL. */
static const la_append *at_pos(const la_state *st, uint32_t key, uint32_t pos)
{
    uint32_t i = st->at[st->k[key].slot0 + pos];
    return i == ISO_NONE ? NULL : &st->ap[i];
}

/* Reader t's reads: :info writers they show are committed; each read's
 * external part lengthens its key's and gives wr from its last writer.
 * A read is taken where it is a prefix of its key's order (a key of one
 * append has that as its order, whatever its reads show). */
static void reads_of(rb *x, la_scan *sc, uint32_t t)
{
    const iso_store *s = &x->pc->h->store;
    size_t n;
    const iso_val *m = la_txn_mops(x->pc, t, &n);
    ISO_GROW(x->lens, x->cap_lens, n + 1);
    long *lens = x->lens;
    la_scan_lens(x->st, s, sc, t, m, n, lens);
    for (size_t j = 0; j < n; j++) {
        uint32_t key = iso_keys_find(&x->st->keys, mop_key(s, m[j]));
        if (lens[j] <= 0 || !la_positional(&x->st->k[key]) || (uint32_t)lens[j] > x->st->k[key].len) continue;
        size_t len;
        const la_append *w = at_pos(x->st, key, (uint32_t)lens[j] - 1);
        if (!w || la_find(x->st, key, la_read_items(s, mop_val(s, m[j]), &len)[lens[j] - 1]) != w) continue;
        if ((uint32_t)lens[j] > x->ext[key]) x->ext[key] = (uint32_t)lens[j];
        x->in[w->txn] |= w->type != ISO_OP_FAIL;
        edge(x, w->txn, t, RB_WR, mop_key(s, m[j]), la_value(x->st, w), 0);
    }
}

/* Per key, its shown appenders (committed, :info ones too) in order, then
 * the last one before every other committed appender. */
static void versions(rb *x)
{
    const la_state *st = x->st;
    for (uint32_t key = 0; key < st->keys.n; key++)
        for (uint32_t i = 0; i < x->ext[key]; i++) {
            const la_append *a = at_pos(st, key, i);
            if (a) x->in[a->txn] |= a->type != ISO_OP_FAIL;
        }
    for (uint32_t key = 0; key < st->keys.n; key++)
        for (uint32_t i = 1; i < x->ext[key]; i++) {
            const la_append *a = at_pos(st, key, i - 1), *b = at_pos(st, key, i);
            if (a && b) edge(x, a->txn, b->txn, RB_WW, st->keys.vals[key], la_value(st, a), la_value(st, b));
        }
    for (size_t i = 0; i < st->n_ap; i++) {
        const la_append *b = &st->ap[i];
        uint32_t key = b->key, len = x->ext[key];
        if (!len || (b->pos != ISO_NONE && b->pos < len)) continue;
        const la_append *a = at_pos(st, key, len - 1);
        if (a) edge(x, a->txn, b->txn, RB_WW_AFTER, st->keys.vals[key], la_value(st, a), la_value(st, b));
    }
}

static void sessions(rb *x)
{
    size_t np = x->pc->h->procs.n + 1;
    uint32_t *last = iso_xmalloc(np * sizeof *last);
    memset(last, 0xff, np * sizeof *last);
    for (uint32_t t = 0; t < x->n; t++) {
        if (!x->in[t]) continue;
        uint32_t p = iso_txn_op(x->pc->h, &x->pc->txns.t[t])->process;
        if (last[p] != ISO_NONE) edge(x, last[p], t, RB_SO, 0, 0, 0);
        last[p] = t;
    }
    iso_free(last);
}

static int cmp_edge(const void *pa, const void *pb)
{
    const rb_edge *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    return (a->kind > b->kind) - (a->kind < b->kind);
}

/* The first edge a -> b (edges sorted). */
static const rb_edge *find_edge(const rb *x, uint32_t a, uint32_t b)
{
    size_t lo = 0, hi = x->n_e;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->e[mid].a < a || (x->e[mid].a == a && x->e[mid].b < b)) lo = mid + 1;
        else hi = mid;
    }
    return &x->e[lo];
}

/* ---- the proof -------------------------------------------------------------------- */

static void step_words(const rb *x, const rb_edge *e, size_t from, size_t to, iso_fb *f)
{
    const iso_proof_ctx *pc = x->pc;
    if (e->kind == RB_SO) {
        iso_buf_printf(&f->text, "T%zu < T%zu, because process ", from, to);
        iso_fb_val(pc, f, iso_op_process(pc->h, iso_txn_op(pc->h, &pc->txns.t[e->a])));
        iso_buf_printf(&f->text, " executed T%zu before T%zu", from, to);
        return;
    }
    if (e->kind == RB_WR) {
        iso_buf_printf(&f->text, "T%zu < T%zu, because T%zu observed T%zu's append of ", from, to, to, from);
        iso_fb_val(pc, f, e->va);
        iso_buf_puts(&f->text, " to key ");
        iso_fb_val(pc, f, e->key);
        return;
    }
    iso_buf_printf(&f->text, "T%zu < T%zu, because T%zu appended ", from, to, to);
    iso_fb_val(pc, f, e->vb);
    iso_buf_puts(&f->text, " to key ");
    iso_fb_val(pc, f, e->key);
    iso_buf_printf(&f->text, e->kind == RB_WW ? " after T%zu appended " : ", which no read of another transaction "
                                                                         "shows, while one shows T%zu's append of ",
                   from);
    iso_fb_val(pc, f, e->va);
    if (e->kind == RB_WW_AFTER) iso_buf_puts(&f->text, " last");
}

static const char *const kind_name[] = {"", "process", "wr", "ww", "ww"};

/* Render the cycle c[0..len) (c[0] -so-> c[1] -> ... -> c[0]). */
static void render_cycle(iso_ctx *ctx, const rb *x, const uint32_t *c, size_t len)
{
    iso_fb f = {{0}, {0}};
    iso_picture pic = {0};
    iso_fb_let(x->pc, &f, c, len);
    for (size_t i = 0; i < len; i++) {
        const rb_edge *e = find_edge(x, c[i], c[(i + 1) % len]);
        iso_buf_puts(&f.text, i == 0 ? "" : i + 1 < len ? "  - " : "  - However, ");
        size_t from = f.text.n;
        step_words(x, e, i + 1, (i + 1) % len + 1, &f);
        iso_buf w = {0};
        iso_buf_put(&w, f.text.p + from, f.text.n - from);
        iso_picture_edge(&pic, c[i], c[(i + 1) % len], kind_name[e->kind], iso_buf_cstr(&w));
        iso_buf_free(&w);
        iso_buf_puts(&f.text, i + 1 < len ? ".\n" : ": a contradiction!\n");
    }
    iso_buf_puts(&f.text, "Biswas and Enea's read committed orders transactions by a commit order that extends "
                          "each process's order and every read, and puts each key's appends no read of another "
                          "transaction shows after the last one shown: a non-monotonic read through process "
                          "order.");
    iso_fb_field_ops(x->pc, &f, "cycle", c, len);
    iso_fb_emit_picture(&ctx->findings, &f, ISO_A_NON_MONOTONIC_READ_PROCESS, &pic);
}

/* The shortest path from v back to u within u's component (BFS over g),
 * after u: c[0] = u, c[1] = v, ...; its length. */
static size_t cycle_through(const iso_graph *g, const uint32_t *comp, uint32_t u, uint32_t v, uint32_t *prev,
                            uint32_t *queue, uint32_t *c)
{
    size_t head = 0, tail = 0;
    queue[tail++] = v, prev[v] = v;
    while (head < tail && prev[u] == ISO_NONE) {
        uint32_t a = queue[head++];
        for (uint32_t i = g->off[a]; i < g->off[a + 1]; i++) {
            uint32_t b = g->dst[i];
            if (comp[b] != comp[u] || prev[b] != ISO_NONE) continue;
            prev[b] = a, queue[tail++] = b;
        }
    }
    size_t len = 0;
    for (uint32_t w = u; w != v; w = prev[w]) c[len++] = w;
    c[len++] = v;
    for (size_t i = 0; i < tail; i++) prev[queue[i]] = ISO_NONE;
    prev[u] = ISO_NONE;
    for (size_t i = 1; i < len - i; i++) { /* c[1..len) reversed: v first */
        uint32_t t = c[i];
        c[i] = c[len - i], c[len - i] = t;
    }
    return len;
}

/* One cycle per component through its first session edge. */
static void cycles(iso_ctx *ctx, rb *x)
{
    iso_edges es = {0};
    for (size_t i = 0; i < x->n_e; i++) iso_edges_add(&es, x->e[i].a, x->e[i].b, ISO_EDGE_WW);
    iso_graph g = {0};
    iso_graph_build_consume(&g, x->n, &es);
    uint32_t *comp = iso_xmalloc((x->n + 1) * sizeof *comp), *prev = iso_xmalloc((x->n + 1) * sizeof *prev);
    uint32_t *queue = iso_xmalloc((x->n + 1) * sizeof *queue), *c = iso_xmalloc((x->n + 1) * sizeof *c);
    uint8_t *done = iso_xcalloc(x->n + 1, 1);
    iso_scc(&g, ISO_EDGE_WW, comp);
    memset(prev, 0xff, (x->n + 1) * sizeof *prev);
    for (size_t i = 0; i < x->n_e; i++) {
        const rb_edge *e = &x->e[i];
        if (e->kind != RB_SO || comp[e->a] != comp[e->b] || done[comp[e->a]]) continue;
        done[comp[e->a]] = 1;
        render_cycle(ctx, x, c, cycle_through(&g, comp, e->a, e->b, prev, queue, c));
    }
    iso_free(done), iso_free(c), iso_free(queue), iso_free(prev), iso_free(comp);
    iso_graph_free(&g);
}

static void session_cycles(iso_ctx *ctx, const la_state *st)
{
    rb x = {st, &ctx->pc, (uint32_t)ctx->pc.txns.n, NULL, NULL, NULL, 0, 0, NULL, 0};
    x.in = iso_xcalloc(x.n + 1, 1);
    x.ext = iso_xcalloc(st->keys.n + 1, sizeof *x.ext);
    for (uint32_t t = 0; t < x.n; t++) x.in[t] = (uint8_t)ok_txn(&x.pc->txns.t[t]);
    la_scan sc;
    la_scan_init(&sc, st, x.n);
    for (uint32_t t = 0; t < x.n; t++)
        if (ok_txn(&x.pc->txns.t[t])) reads_of(&x, &sc, t);
    la_scan_free(&sc);
    versions(&x);
    sessions(&x);
    if (x.n_e) qsort(x.e, x.n_e, sizeof *x.e, cmp_edge);
    if (x.n_e) cycles(ctx, &x);
    iso_free(x.lens), iso_free(x.e), iso_free(x.ext), iso_free(x.in);
}

/* ---- INT ---------------------------------------------------------------------------- */

/* A transaction's appends so far, per key (stamped ep): the count and the
 * last one's micro-op; per micro-op the key's append before it. */
typedef struct rb_own {
    uint32_t ep, *key_ep, *cnt, *last;
    uint32_t *prev;
    size_t cap;
} rb_own;

/* Whether read items[0..len) of key ends with t's appends to it so far,
 * in order; else its type. 0: it does (or t has none). */
static int own_case(const la_state *st, const iso_store *s, const rb_own *o, uint32_t t, const iso_val *m,
                    uint32_t key, const iso_val *items, size_t len)
{
    if (o->key_ep[key] != o->ep || !o->cnt[key]) return 0;
    int ends = o->cnt[key] <= len;
    size_t at = len;
    for (uint32_t j = o->last[key]; ends && j != ISO_NONE; j = o->prev[j])
        ends = iso_val_eq(s, items[--at], mop_val(s, m[j]));
    if (ends) return 0;
    const la_append *last = len ? la_find(st, key, items[len - 1]) : NULL;
    return last && last->txn == t ? ISO_A_NOT_MY_LAST_WRITE : ISO_A_NOT_MY_OWN_WRITE;
}

static void render_own(iso_ctx *ctx, uint32_t t, iso_val mop, int type)
{
    const iso_proof_ctx *pc = &ctx->pc;
    const iso_store *s = &pc->h->store;
    iso_fb f = {{0}, {0}};
    iso_picture pic = {0};
    iso_fb_let(pc, &f, &t, 1);
    size_t from = f.text.n;
    iso_buf_puts(&f.text, "T1 read key ");
    iso_fb_val(pc, &f, mop_key(s, mop));
    iso_buf_puts(&f.text, " as ");
    iso_fb_val(pc, &f, mop_val(s, mop));
    iso_buf_puts(&f.text, type == ISO_A_NOT_MY_LAST_WRITE ? ", which ends with an append of T1's own but not with "
                                                            "all of T1's appends to it so far, in order"
                                                          : ", which does not end with T1's own appends to it");
    iso_picture_edge(&pic, t, t, "misses", f.text.p + from);
    iso_buf_puts(&f.text, ": a read after a transaction's own appends to a key ends with them, in order (Biswas "
                          "and Enea's INT).");
    iso_fb_field_op(pc, &f, "op", t);
    iso_fb_field(pc, &f, "mop", mop);
    iso_fb_emit_picture(&ctx->findings, &f, type, &pic);
}

static void own_reads(iso_ctx *ctx, const la_state *st, rb_own *o, uint32_t t)
{
    const iso_store *s = &ctx->pc.h->store;
    const uint8_t *rep = ctx->req->reportable;
    size_t n;
    const iso_val *m = la_txn_mops(&ctx->pc, t, &n);
    ISO_GROW(o->prev, o->cap, n + 1);
    o->ep++;
    uint8_t seen = 0;
    for (size_t j = 0; j < n && seen != 3; j++) {
        uint32_t key = iso_keys_find(&st->keys, mop_key(s, m[j]));
        if (key == ISO_NONE) continue;
        if (o->key_ep[key] != o->ep) o->key_ep[key] = o->ep, o->cnt[key] = 0, o->last[key] = ISO_NONE;
        if (la_mop_kind(st, m[j]) == LA_APPEND) {
            o->prev[j] = o->last[key], o->last[key] = (uint32_t)j, o->cnt[key]++;
            continue;
        }
        size_t len;
        const iso_val *items = la_read_items(s, mop_val(s, m[j]), &len);
        int type = own_case(st, s, o, t, m, key, items, len);
        uint8_t bit = type == ISO_A_NOT_MY_LAST_WRITE ? 2 : 1;
        if (!type || !rep[type] || (seen & bit)) continue;
        seen |= bit;
        render_own(ctx, t, m[j], type);
    }
}

static void own_writes(iso_ctx *ctx, const la_state *st)
{
    size_t nk = st->keys.n + 1;
    rb_own o = {0, iso_xcalloc(nk, sizeof(uint32_t)), iso_xcalloc(nk, sizeof(uint32_t)),
                iso_xcalloc(nk, sizeof(uint32_t)), NULL, 0};
    for (uint32_t t = 0; t < ctx->pc.txns.n; t++)
        if (ok_txn(&ctx->pc.txns.t[t])) own_reads(ctx, st, &o, t);
    iso_free(o.key_ep), iso_free(o.cnt), iso_free(o.last), iso_free(o.prev);
}

void la_rc_be(iso_ctx *ctx, const la_state *st)
{
    const uint8_t *rep = ctx->req->reportable;
    if (rep[ISO_A_NOT_MY_OWN_WRITE] || rep[ISO_A_NOT_MY_LAST_WRITE]) own_writes(ctx, st);
    if (rep[ISO_A_NON_MONOTONIC_READ_PROCESS]) session_cycles(ctx, st);
}
