/*
 * co.c -- consistency models as commit orders: R. Biswas, C. Enea, "On the
 * Complexity of Checking Transactional Consistency", OOPSLA 2019 (PACMPL
 * 3, article 165), §2.2-§2.3, Figure 2; and Adya's PL-2 in the same frame.
 *
 * A history h = <T, so, wr> (so: session order; wr: which transaction each
 * read reads from, an initial t0 writing every key first) satisfies a
 * level iff some commit order co, a strict total order of T with
 * so ∪ wr ⊆ co, satisfies the level's axioms, all of the shape
 *
 *   ∀x. ∀t1,t2,α. t1 ≠ t2 ∧ <t1,α> ∈ wr_x ∧ writes(t2,x) ∧ φ(t2,α) ⟹ <t2,t1> ∈ co
 *
 * for α a read of transaction t3, with (ASCII for the paper's notation)
 *   Read Committed    φ = ∃β. <t2,β> ∈ wr ∧ <β,α> ∈ po
 *   Read Atomic       φ = <t2,t3> ∈ wr ∪ so
 *   Causal            φ = <t2,t3> ∈ (wr ∪ so)+
 *   Prefix            φ = <t2,t3> ∈ co* ; (wr ∪ so)
 *   Conflict          φ = ∃t4,y. <t2,t4> ∈ co* ∧ <t4,t3> ∈ co ∧ writes(t4,y) ∧ writes(t3,y)
 *   Serializability   φ = <t2,t3> ∈ co
 * and Snapshot Isolation = Prefix ∧ Conflict. Biswas and Enea's Read
 * Committed is stronger than Adya's PL-2: it forbids a transaction to read
 * x from t1 after it read anything from a t2 that writes x and follows t1.
 *
 * Reads after the transaction's own write of the key are not in wr; with
 * CO_INT they must show that write (list-append: end with the
 * transaction's appends so far), or the history is rejected.
 *
 * list-append, lifted from registers: a read of x whose external part is
 * the appends of writers w1..wk (in list order) reads x from every wi, and
 * co's order of the writers of x must have exactly w1..wk, in that order,
 * before wk: the list is the value of x after wk (an empty list reads from
 * t0). t1 in the axiom is then wk.
 *
 * Adya's PL-2 (Adya 1999, §4.1-4.2: no G0, G1a, G1b, G1c) is the same
 * frame with no axiom and CO_EXTERNAL: a version order per key with no
 * cycle of ww ∪ wr exists iff a total order co ⊇ wr of the committed
 * transactions exists whose projections serve as version orders; aborted
 * (G1a) and intermediate (G1b) reads, values nobody wrote and a read of
 * the reader's own later write are RD_BAD (facts.c); and with list-append
 * the value of a version is the list of the key's appends up to it in the
 * version order, so each read must be a prefix of that order: an external
 * one exactly the writers of x before wk, one after the reader's own
 * appends (its own version, or Elle's `internal` anomaly, which Elle's
 * read-committed does not forbid) just a prefix, checked once the order is
 * complete. A read after the reader's own write that shows another
 * transaction's version reads from it (wr), as any read does.
 * CO_SO / CO_RT make co extend session / real-time order: Elle's
 * strong-session-PL-2 (no G1c-process) and strong-PL-2 (no G1c-realtime).
 */
#include <string.h>

#include "oracle.h"

struct co_ctx {
    const struct or_facts *f;
    int axiom;
    unsigned flags;
    tset c;
    bool use[OR_MAXR];   /* the reads in wr */
    tset src[OR_MAXT];   /* wr⁻¹: the writers the transaction read from */
    tset hb[OR_MAXT];    /* (wr ∪ so)+ ⁻¹ */
};

static tset writers_of(const struct or_read *r)
{
    tset s = 0;
    for (int i = 0; i < r->nw; i++) s |= 1u << r->w[i];
    return s;
}

/* The placed transactions at or before some member of s. */
static tset down(const struct or_order *o, tset s)
{
    tset d = s;
    for (int t = 0; t < OR_MAXT; t++)
        if (s >> t & 1) d |= o->before[t];
    return d;
}

/* The t2 of the axiom's premise φ(t2, α) for read r of t. */
static tset premise(const struct or_order *o, const struct co_ctx *x, int t, int r)
{
    const struct or_facts *f = x->f;
    tset wrso = x->src[t] | (f->so[t] & x->c), p = 0;
    switch (x->axiom) {
    case CO_RC:
        for (int b = 0; b < r; b++)
            if (x->use[b] && f->rd[b].txn == t) p |= writers_of(&f->rd[b]);
        return p;
    case CO_RA: return wrso;
    case CO_CC: return x->hb[t];
    case CO_PC: return down(o, wrso);
    case CO_SI: return down(o, wrso) | down(o, f->conflict[t] & o->placed);
    case CO_SER: return o->placed;
    default: return 0;
    }
}

/* Read r of t, whose writers are all placed: the version it shows and the
 * axiom. */
static bool read_ok(const struct or_order *o, const struct co_ctx *x, int t, int r)
{
    const struct or_facts *f = x->f;
    const struct or_read *rd = &f->rd[r];
    tset wk = f->writes[rd->key] & x->c;
    int t1 = rd->nw ? rd->w[rd->nw - 1] : -1;
    tset before_t1 = t1 < 0 ? 0 : o->before[t1];
    if (f->h->wl == OR_LA && t1 >= 0 && (before_t1 & wk) != (writers_of(rd) & ~(1u << t1)))
        return false;
    tset t2 = premise(o, x, t, r) & wk & ~(1u << t);
    if (t1 >= 0) t2 &= ~(1u << t1);
    return (t2 & ~before_t1) == 0;
}

/* list-append under CO_EXTERNAL: every read after the reader's own append
 * is a prefix of its key's version order, the order's projection. */
static bool versions_ok(const struct or_order *o, void *ctx)
{
    const struct co_ctx *x = ctx;
    const struct or_hist *h = x->f->h;
    for (int r = 0; r < x->f->nreads; r++) {
        const struct or_read *rd = &x->f->rd[r];
        const struct or_mop *m = &h->t[rd->txn].m[rd->mop];
        if (!rd->internal) continue;
        int at = 0;
        for (int i = 0; i < o->depth && at < m->n; i++) {
            const struct or_txn *w = &h->t[o->order[i]];
            for (int j = 0; j < w->nm && at < m->n; j++)
                if (w->m[j].f == OR_APPEND && w->m[j].key == rd->key && w->m[j].val != m->rd[at++]) return false;
        }
        if (at < m->n) return false;
    }
    return true;
}

static bool place(struct or_order *o, int t, void *ctx)
{
    const struct co_ctx *x = ctx;
    for (int r = 0; r < x->f->nreads; r++)
        if (x->use[r] && x->f->rd[r].txn == t && !read_ok(o, x, t, r)) return false;
    return true;
}

/* Which reads are in wr; false when one rules the history out. */
static bool select_reads(struct co_ctx *x)
{
    const struct or_facts *f = x->f;
    for (int r = 0; r < f->nreads; r++) {
        const struct or_read *rd = &f->rd[r];
        if (rd->status == RD_BAD) return false;
        if (rd->needs & ~x->c) return false; /* shows a write that never committed */
        if (rd->internal && !rd->int_ok && (x->flags & CO_INT)) return false;
        bool ext = rd->status == RD_OK && !rd->internal;
        bool lifted = rd->status == RD_OK && f->h->wl == OR_LA && rd->int_ok && !(x->flags & CO_EXTERNAL);
        x->use[r] = ext || lifted;
        bool version = rd->status == RD_UNCLEAR && (x->flags & CO_EXTERNAL); /* Adya's wr */
        if (x->use[r] || version) x->src[rd->txn] |= writers_of(rd);
    }
    return true;
}

static void happens_before(struct co_ctx *x)
{
    const struct or_facts *f = x->f;
    for (int t = 0; t < OR_MAXT; t++) x->hb[t] = (x->src[t] | f->so[t]) & x->c;
    for (bool more = true; more;) {
        more = false;
        for (int t = 0; t < OR_MAXT; t++)
            for (int s = 0; s < OR_MAXT; s++)
                if ((x->hb[t] >> s & 1) && (x->hb[s] & ~x->hb[t])) x->hb[t] |= x->hb[s], more = true;
    }
}

static void required(struct or_order *o, const struct co_ctx *x)
{
    const struct or_facts *f = x->f;
    for (int r = 0; r < f->nreads; r++) {
        const struct or_read *rd = &f->rd[r];
        for (int i = 1; x->use[r] && i < rd->nw; i++) o->pred[rd->w[i]] |= 1u << rd->w[i - 1];
    }
    for (int t = 0; t < OR_MAXT; t++) {
        o->pred[t] |= x->src[t];
        if (x->flags & CO_SO) o->pred[t] |= f->so[t];
        if (x->flags & CO_RT) o->pred[t] |= f->rt[t];
    }
}

struct co_try {
    const struct or_facts *f;
    int axiom;
    unsigned flags;
    struct or_witness *w;
};

static bool try_set(tset c, void *arg)
{
    const struct co_try *a = arg;
    static struct co_ctx x;
    static struct or_order o;
    memset(&x, 0, sizeof x);
    x.f = a->f, x.axiom = a->axiom, x.flags = a->flags, x.c = c;
    if (!select_reads(&x)) return false;
    happens_before(&x);
    or_order_init(&o, c, place, &x);
    if ((a->flags & CO_EXTERNAL) && a->f->h->wl == OR_LA) o.done = versions_ok;
    required(&o, &x);
    if (!or_order_run(&o)) return false;
    if (a->w) {
        a->w->found = true, a->w->c = c, a->w->n = o.depth;
        memcpy(a->w->order, o.order, sizeof o.order);
    }
    return true;
}

bool or_co_decide(const struct or_facts *f, int axiom, unsigned flags, struct or_witness *w)
{
    struct co_try a = {f, axiom, flags, w};
    if (w) memset(w, 0, sizeof *w);
    return or_each_commit_set(f, try_set, &a);
}
