/*
 * sim/ssi.c -- serializable snapshot isolation (Cahill, Röhm, Fekete
 * 2008; the algorithm PostgreSQL uses): every non-serializable execution
 * under SI has a pivot, a transaction with an rw anti-dependency in from
 * one concurrent transaction and out to another. Each transaction carries
 * two flags (in, out); a transaction that would get both aborts, and a
 * committed one never becomes a pivot: the active partner aborts instead.
 * Concurrency is judged by snapshots, so stale snapshots stay sound.
 */
#include "sim/sim_int.h"

enum { CONFLICT_OK = 0, ABORT_READER, ABORT_WRITER };

/* reader -rw-> writer: reader read a version older than writer's. */
static int conflict(struct sim *s, uint32_t reader, uint32_t writer)
{
    struct sim_txn *r = &s->txns[reader], *w = &s->txns[writer];
    if (w->state == SIM_COMMITTED && w->out) return ABORT_READER;
    if (r->state == SIM_COMMITTED && r->in) return ABORT_WRITER;
    r->out = 1;
    w->in = 1;
    return CONFLICT_OK;
}

int ssi_read(struct sim *s, uint32_t id, struct sim_key *k)
{
    struct sim_txn *t = &s->txns[id];
    for (uint32_t v = k->head; v != ISO_NONE && s->vers[v].cts > t->snap;
         v = s->vers[v].prev)
        if (s->vers[v].writer != id && conflict(s, id, s->vers[v].writer) != CONFLICT_OK)
            return -1;
    if (k->n_readers == 0 || k->readers[k->n_readers - 1] != id)
        ISO_PUSH(k->readers, k->n_readers, k->cap_readers, id);
    return 0;
}

/* No transaction, active or future, has a snapshot older than this. */
static int64_t horizon(const struct sim *s)
{
    int64_t h = s->ts - s->p.stale;
    for (size_t i = 0; i < s->n_active; i++)
        if (s->txns[s->active[i]].snap < h) h = s->txns[s->active[i]].snap;
    return h;
}

/* A reader that can no longer be concurrent with anyone is dropped. */
static int reader_done(const struct sim *s, uint32_t reader, int64_t h)
{
    const struct sim_txn *r = &s->txns[reader];
    return r->state == SIM_ABORTED || (r->state == SIM_COMMITTED && r->cts <= h);
}

static int scan_readers(struct sim *s, uint32_t id, struct sim_key *k, int64_t h)
{
    const struct sim_txn *w = &s->txns[id];
    size_t kept = 0;
    int rc = 0;
    for (size_t i = 0; i < k->n_readers; i++) {
        uint32_t r = k->readers[i];
        if (reader_done(s, r, h)) continue;
        k->readers[kept++] = r;
        if (rc || r == id) continue;
        const struct sim_txn *rt = &s->txns[r];
        if ((rt->state == SIM_ACTIVE || rt->cts > w->snap) &&
            conflict(s, r, id) != CONFLICT_OK)
            rc = -1;
    }
    k->n_readers = kept;
    return rc;
}

int ssi_commit(struct sim *s, uint32_t id)
{
    const txn *t = s->txns[id].t;
    int64_t h = horizon(s);
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->mops[i].f == TXN_R) continue;
        if (scan_readers(s, id, sim_key_get(s, t->mops[i].key), h) < 0) return -1;
    }
    return s->txns[id].in && s->txns[id].out ? -1 : 0;
}
