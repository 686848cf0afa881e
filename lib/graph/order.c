/*
 * graph/order.c -- the order edges that come from the history rather than from
 * data: process order and real-time order.
 *
 * Both walk the history's events (op positions) once, through a map from
 * op position to transaction. Process order links consecutive ok
 * transactions of one process, and an ok transaction to an info one its
 * process began after it: that one, if it committed, did so after it; an
 * info transaction precedes nothing, since it may take effect at any time
 * after it began (Jepsen gives its process a new id). Real-time order is Elle's linear-size
 * transitive reduction (paper section 5.1): a frontier of completed ok
 * transactions not yet followed by another completed one; every invocation
 * gets an edge from each frontier member, and a completion of B retires the
 * members that completed before B was invoked. Completions arrive in
 * position order, so the frontier is a queue and retiring pops its head.
 * Failed transactions take no part; info ones never complete. A member's
 * edges go to the invocations made while it stood on the frontier: with
 * transactions ranked by their start, one window of ranks (iso_rt).
 */
#include "graph/order.h"

#include <stdlib.h>
#include <string.h>

/* ev[p] = the transaction whose invocation or completion is op p. */
static uint32_t *event_map(const isolde_history *h, const iso_txns *t)
{
    uint32_t *ev = iso_xmalloc((h->n_ops ? h->n_ops : 1) * sizeof *ev);
    memset(ev, 0xff, h->n_ops * sizeof *ev);
    for (size_t i = 0; i < t->n; i++) {
        if (t->t[i].inv < h->n_ops) ev[t->t[i].inv] = (uint32_t)i;
        if (t->t[i].cmp < h->n_ops) ev[t->t[i].cmp] = (uint32_t)i;
    }
    return ev;
}

/* Where a transaction starts: its invocation, or its completion when it
 * has none (a completion standing alone is taken as instantaneous). */
static uint32_t start_of(const iso_txn *x) { return x->inv != ISO_NONE ? x->inv : x->cmp; }

void iso_process_edges(const isolde_history *h, const iso_txns *t, iso_edges *out)
{
    uint32_t *last = iso_history_per_process(h); /* its last ok txn */
    uint32_t *ev = event_map(h, t);
    for (size_t p = 0; p < h->n_ops; p++) {
        uint32_t b = ev[p];
        if (b == ISO_NONE) continue;
        const iso_txn *x = &t->t[b];
        int ok = x->cmp == p && x->type == ISO_OP_OK, info = x->type == ISO_OP_INFO && start_of(x) == p;
        if (!ok && !info) continue;
        uint32_t *at = &last[iso_txn_op(h, x)->process];
        if (*at != ISO_NONE) iso_edges_add(out, *at, b, ISO_EDGE_PROCESS);
        if (ok) *at = b;
    }
    iso_free(ev);
    iso_free(last);
}

/* The frontier: ok transactions in completion order; [head, n) is live. */
typedef struct frontier {
    uint32_t *txn;
    size_t head, n, cap;
} frontier;

/* b completes: it joins the frontier, whose members that completed before
 * b was invoked leave it; each member's window closes as it leaves. */
static void on_complete(frontier *f, const iso_txns *t, uint32_t b, iso_rt *rt)
{
    uint32_t invoked = start_of(&t->t[b]);
    for (; f->head < f->n && t->t[f->txn[f->head]].cmp < invoked; f->head++)
        rt->hi[f->txn[f->head]] = rt->n;
    if (f->head > 64 && 2 * f->head > f->n) { /* keep memory ~ concurrency */
        memmove(f->txn, f->txn + f->head, (f->n - f->head) * sizeof *f->txn);
        f->n -= f->head;
        f->head = 0;
    }
    ISO_PUSH(f->txn, f->n, f->cap, b);
    rt->lo[b] = rt->n;
}

void iso_realtime_ranges(const isolde_history *h, const iso_txns *t, iso_rt *rt)
{
    frontier f = {0};
    size_t n = t->n ? t->n : 1;
    rt->n = 0;
    rt->order = iso_xmalloc(n * sizeof *rt->order);
    rt->lo = iso_xcalloc(n, sizeof *rt->lo);
    rt->hi = iso_xcalloc(n, sizeof *rt->hi);
    uint32_t *ev = event_map(h, t);
    for (size_t p = 0; p < h->n_ops; p++) {
        uint32_t b = ev[p];
        if (b == ISO_NONE || t->t[b].type == ISO_OP_FAIL) continue;
        const iso_txn *x = &t->t[b];
        if (start_of(x) == p) rt->order[rt->n++] = b; /* every member gains b */
        if (x->cmp == p && x->type == ISO_OP_OK) on_complete(&f, t, b, rt);
    }
    for (size_t i = f.head; i < f.n; i++) rt->hi[f.txn[i]] = rt->n;
    rt->n_edges = 0;
    for (size_t i = 0; i < t->n; i++) rt->n_edges += rt->hi[i] - rt->lo[i];
    iso_free(ev);
    iso_free(f.txn);
}

void iso_rt_free(iso_rt *rt)
{
    iso_free(rt->order);
    iso_free(rt->lo);
    iso_free(rt->hi);
    memset(rt, 0, sizeof *rt);
}

void iso_realtime_edges(const isolde_history *h, const iso_txns *t, iso_edges *out)
{
    iso_rt rt;
    iso_realtime_ranges(h, t, &rt);
    for (uint32_t a = 0; a < t->n; a++)
        for (uint32_t r = rt.lo[a]; r < rt.hi[a]; r++) iso_edges_add(out, a, rt.order[r], ISO_EDGE_REALTIME);
    iso_rt_free(&rt);
}
