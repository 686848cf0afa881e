/*
 * facts.c -- what a history says before any model is assumed: who wrote
 * each value, what each known read observed (the writers whose effects it
 * shows, in order, or that nothing committed explains it), session and
 * real-time order, and what each transaction saw of each key in the sense
 * of Cerone et al.'s INT and EXT.
 *
 * A read's "external part" is what it saw of other transactions: for
 * list-append the list without the transaction's own earlier appends (which
 * must end it), for rw-register the value of a read with no earlier write
 * of the key in its transaction. A list's external part must be whole
 * blocks, each block all of one writer's appends to the key in its program
 * order; anything else (an element nobody appended, one appended by a
 * failed transaction or by the reader itself, a writer's appends cut short
 * or split) is RD_BAD: no execution of committed transactions shows it.
 */
#include <string.h>

#include "oracle.h"

int or_writer(const struct or_hist *h, int key, int val, int *mop)
{
    for (int i = 0; i < h->n; i++)
        for (int j = 0; j < h->t[i].nm; j++) {
            const struct or_mop *m = &h->t[i].m[j];
            if (m->f != OR_READ && m->key == key && m->val == val) return *mop = j, i;
        }
    return -1;
}

/* The values txn appended / wrote to key before micro-op `before`. */
static int own_writes(const struct or_txn *t, int key, int before, int *vals)
{
    int n = 0;
    for (int j = 0; j < before; j++)
        if (t->m[j].f != OR_READ && t->m[j].key == key) vals[n++] = t->m[j].val;
    return n;
}

/* How many values txn writes to key, and the rank of value v among them. */
static int rank_of(const struct or_txn *t, int key, int v, int *rank)
{
    int n = 0;
    for (int j = 0; j < t->nm; j++)
        if (t->m[j].f != OR_READ && t->m[j].key == key) {
            if (t->m[j].val == v) *rank = n;
            n++;
        }
    return n;
}

/* Is v, if another transaction wrote it, that writer's last write of key
 * (else the read is intermediate, G1b)? */
static bool final_write(const struct or_hist *h, const struct or_read *r, int key, int v)
{
    int mop, rank = -1, w = or_writer(h, key, v, &mop);
    return w < 0 || w == r->txn || rank_of(&h->t[w], key, v, &rank) == rank + 1;
}

/* An internal read that does not show its own writes still read a
 * version: that of the writer of v (the list's last element), when another
 * transaction: Adya's wr, kept in w[0]. */
static void version_read(const struct or_hist *h, int key, int v, struct or_read *r)
{
    int mop, w = or_writer(h, key, v, &mop);
    r->nw = 0;
    if (w >= 0 && w != r->txn) r->w[r->nw++] = w;
}

/* Is each element of list written by a transaction that may have
 * committed, and none twice? Marks their writers as needed. */
static bool values_ok(const struct or_hist *h, int key, const int *list, int n, struct or_read *r)
{
    for (int i = 0; i < n; i++) {
        int mop, w = or_writer(h, key, list[i], &mop);
        if (w < 0 || h->t[w].type == OR_FAIL) return false;
        for (int k = 0; k < i; k++)
            if (list[k] == list[i]) return false;
        if (w != r->txn) r->needs |= 1u << w;
    }
    return true;
}

/* Splits a list's external part into whole writer blocks (RD_OK), else
 * RD_BAD. */
static int blocks(const struct or_hist *h, int key, const int *list, int n, struct or_read *r)
{
    tset seen = 0;
    r->nw = 0;
    for (int i = 0; i < n;) {
        int mop, rank = 0, w = or_writer(h, key, list[i], &mop);
        if (w < 0 || w == r->txn || h->t[w].type == OR_FAIL || (seen >> w & 1)) return RD_BAD;
        int count = rank_of(&h->t[w], key, list[i], &rank);
        if (rank != 0 || i + count > n) return RD_BAD;
        for (int k = 1; k < count; k++) {
            int r2 = -1, w2 = or_writer(h, key, list[i + k], &mop);
            rank_of(&h->t[w], key, list[i + k], &r2);
            if (w2 != w || r2 != k) return RD_BAD;
        }
        seen |= 1u << w, r->needs |= 1u << w;
        r->w[r->nw++] = w;
        i += count;
    }
    return RD_OK;
}

static void read_la(const struct or_hist *h, const struct or_mop *m, struct or_read *r)
{
    int own[OR_MAXM], nown = own_writes(&h->t[r->txn], m->key, r->mop, own);
    r->internal = nown > 0;
    r->int_ok = m->n >= nown && !memcmp(m->rd + m->n - nown, own, (size_t)nown * sizeof *own);
    if (r->internal && !r->int_ok) { /* Elle's `internal`; G1a, G1b and garbage still apply */
        bool ok = values_ok(h, m->key, m->rd, m->n, r) && (!m->n || final_write(h, r, m->key, m->rd[m->n - 1]));
        r->status = ok ? RD_UNCLEAR : RD_BAD;
        if (ok && m->n) version_read(h, m->key, m->rd[m->n - 1], r);
        return;
    }
    r->status = blocks(h, m->key, m->rd, m->n - nown, r);
}

static void read_rw(const struct or_hist *h, const struct or_mop *m, struct or_read *r)
{
    int own[OR_MAXM], nown = own_writes(&h->t[r->txn], m->key, r->mop, own);
    int v = m->rd[0], mop, w = v == OR_NIL ? -1 : or_writer(h, m->key, v, &mop);
    r->internal = nown > 0;
    r->int_ok = nown > 0 && own[nown - 1] == v;
    r->nw = 0;
    if (r->internal) { /* Elle's `internal` if not its own write; G1a, G1b, garbage still apply */
        bool bad = v != OR_NIL && (w < 0 || h->t[w].type == OR_FAIL || !final_write(h, r, m->key, v));
        r->status = r->int_ok ? RD_OK : bad ? RD_BAD : RD_UNCLEAR;
        if (!r->int_ok && w >= 0 && w != r->txn && !bad) r->needs |= 1u << w;
        if (r->status == RD_UNCLEAR && v != OR_NIL) version_read(h, m->key, v, r);
        return;
    }
    r->status = RD_OK;
    if (v == OR_NIL) return;
    int rank = -1;
    if (w < 0 || w == r->txn || h->t[w].type == OR_FAIL ||
        rank_of(&h->t[w], m->key, v, &rank) != rank + 1) {
        r->status = RD_BAD; /* garbage, future, aborted or intermediate */
        return;
    }
    r->w[r->nw++] = w, r->needs |= 1u << w;
}

static void collect_reads(struct or_facts *f)
{
    const struct or_hist *h = f->h;
    for (int i = 0; i < h->n; i++)
        for (int j = 0; j < h->t[i].nm; j++) {
            const struct or_mop *m = &h->t[i].m[j];
            if (h->t[i].type != OR_OK || m->f != OR_READ || m->n < 0) continue;
            struct or_read *r = &f->rd[f->nreads++];
            memset(r, 0, sizeof *r);
            r->txn = i, r->mop = j, r->key = m->key;
            if (h->wl == OR_LA) read_la(h, m, r);
            else read_rw(h, m, r);
        }
}

static bool same_writers(const struct or_obs *o, const struct or_read *r)
{
    return o->nw == r->nw && !memcmp(o->w, r->w, (size_t)r->nw * sizeof r->w[0]);
}

/* Cerone et al.: one visible state per key and transaction. list-append:
 * every read is that state followed by the transaction's own appends so
 * far; rw-register: INT (a read after an access of the key returns the
 * last value accessed) and EXT's observation from a first access that is
 * a read. */
static void observe(struct or_facts *f, const struct or_read *r, int *last, bool *seen)
{
    struct or_obs *o = &f->obs[r->txn][r->key];
    const struct or_mop *m = &f->h->t[r->txn].m[r->mop];
    if (r->status != RD_OK || (r->internal && !r->int_ok)) {
        f->int_bad[r->txn] = true;
        return;
    }
    f->obs_needs[r->txn] |= r->needs;
    if (f->h->wl == OR_RW && seen[r->key]) {
        if (m->rd[0] != last[r->key]) f->int_bad[r->txn] = true;
        return;
    }
    if (o->state == OBS_OK && !same_writers(o, r)) f->int_bad[r->txn] = true;
    o->state = OBS_OK, o->nw = r->nw;
    memcpy(o->w, r->w, sizeof o->w);
    seen[r->key] = true, last[r->key] = m->rd[0];
}

static void observations(struct or_facts *f)
{
    const struct or_hist *h = f->h;
    int r = 0;
    for (int i = 0; i < h->n; i++) {
        int last[OR_MAXK];
        bool seen[OR_MAXK] = {false};
        for (int j = 0; j < h->t[i].nm; j++) {
            const struct or_mop *m = &h->t[i].m[j];
            if (m->f != OR_READ) seen[m->key] = true, last[m->key] = m->val;
            else if (r < f->nreads && f->rd[r].txn == i && f->rd[r].mop == j) observe(f, &f->rd[r++], last, seen);
        }
    }
}

static void orders(struct or_facts *f)
{
    const struct or_hist *h = f->h;
    for (int i = 0; i < h->n; i++) {
        const struct or_txn *t = &h->t[i];
        if (t->type == OR_OK) f->ok |= 1u << i;
        if (t->type == OR_INFO) f->info |= 1u << i;
        for (int j = 0; j < t->nm; j++)
            if (t->m[j].f != OR_READ) f->writes[t->m[j].key] |= 1u << i;
        for (int s = 0; s < h->n; s++) {
            const struct or_txn *u = &h->t[s];
            /* session order: from an ok transaction to a later one of its process; none out of an
             * info one, which may take effect at any time after it began (docs/MODELS.md) */
            if (s != i && u->proc == t->proc && u->inv < t->inv && u->type == OR_OK) f->so[i] |= 1u << s;
            if (u->type == OR_OK && u->cmp < t->inv) f->rt[i] |= 1u << s;
        }
    }
    for (int i = 0; i < h->n; i++)
        for (int k = 0; k < h->nkeys; k++)
            if (f->writes[k] >> i & 1) f->conflict[i] |= f->writes[k] & ~(1u << i);
}

void or_facts_init(struct or_facts *f, const struct or_hist *h)
{
    memset(f, 0, sizeof *f);
    f->h = h;
    orders(f);
    collect_reads(f);
    observations(f);
}
