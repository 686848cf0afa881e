/*
 * sim/sim.c -- the simulated database's store and its isolation levels.
 *
 * What a read sees, by level: RU the newest committed version plus the
 * appends of the write-lock holder (dirty); RC the newest committed
 * version; the snapshot levels the newest version at their snapshot
 * (dirty-read adds the latest active writer's appends). Every level sees
 * its own earlier writes. At commit: RU/RC hold write locks (no-wait: a
 * conflicting writer aborts), SI and above apply first-committer-wins,
 * serializable adds SSI (ssi.c), strict-serializable validates its
 * reads (nothing it read has changed: serial order = commit order).
 * The replicated levels (replica.c) read what the transaction's site had
 * applied when it began, and validate as their level says.
 * An add (TXN_ADD) reads the key as a register read would, then writes
 * the sum; a sum below 0 aborts (a bank's transfer that would overdraw).
 */
#include <string.h>
#include "sim/sim_int.h"

const char *const sim_level_names[SIM_N_LEVELS + 1] = {
    "read-uncommitted", "read-committed", "snapshot-isolation", "serializable",
    "strict-serializable", "lost-update", "no-validate", "dirty-read", "double-add", "long-fork",
    "read-atomic", "causal", "prefix", "parallel-snapshot-isolation", "fractured-read", "causality-violation",
    "partition-merge", NULL};

int sim_level_parse(const char *name)
{
    for (int i = 0; i < SIM_N_LEVELS; i++)
        if (strcmp(name, sim_level_names[i]) == 0) return i;
    return -1;
}

struct sim *sim_new(const sim_params *p)
{
    struct sim *s = iso_xcalloc(1, sizeof *s);
    s->p = *p;
    if (s->p.level != SIM_SER) s->p.stale = 0;
    s->rng = p->seed ^ 0x5133ull;
    s->rep = rep_new(p->level);
    return s;
}

void sim_free(struct sim *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->n_keys; i++) iso_free(s->keys[i].readers);
    iso_free(s->keys);
    iso_free(s->txns);
    iso_free(s->vers);
    iso_free(s->elems);
    iso_free(s->active);
    iso_free(s->chain);
    rep_free(s->rep);
    iso_free(s);
}

static uint32_t begin(struct sim *s, txn *t, int64_t snap, int replica, int client);

uint32_t sim_begin(struct sim *s, txn *t, int client)
{
    int64_t snap = s->ts;
    if (client != SIM_FRESH && s->p.stale > 0) snap -= iso_rng_below(&s->rng, (uint32_t)s->p.stale + 1);
    return begin(s, t, snap, 0, client);
}

int64_t sim_last_commit(const struct sim *s) { return s->ts; }

uint32_t sim_begin_replica(struct sim *s, txn *t, int64_t snap) { return begin(s, t, snap, 1, 0); }

static uint32_t begin(struct sim *s, txn *t, int64_t snap, int replica, int client)
{
    uint32_t id = (uint32_t)s->n_txns;
    ISO_GROW(s->txns, s->cap_txns, s->n_txns + 1);
    s->n_txns++;
    s->txns[id] = (struct sim_txn){snap < s->floor ? s->floor : snap, 0, t, 0, SIM_ACTIVE, 0, 0, (uint8_t)replica};
    ISO_PUSH(s->active, s->n_active, s->cap_active, id);
    txn_clear_reads(t);
    if (s->rep) rep_begin(s, id, client);
    return id;
}

/* ---- reads ---- */

/* The active txn whose uncommitted writes to k a read by id sees. */
static uint32_t dirty_writer(const struct sim *s, uint32_t id, const struct sim_key *k)
{
    uint32_t d = s->p.level == SIM_RU ? k->lock
               : s->p.level == SIM_DIRTY_READ ? k->dirty : ISO_NONE;
    if (d == ISO_NONE || d == id || s->txns[d].state != SIM_ACTIVE) return ISO_NONE;
    return d;
}

/* Writes to key among the first n micro-ops of t, into the read of mop i
 * (lists) or as the register value (*val, *found). */
static void pending(txn *out, uint32_t i, const txn *t, uint32_t n,
                    int64_t key, int64_t *val, int *found)
{
    for (uint32_t j = 0; j < n; j++) {
        const txn_mop *m = &t->mops[j];
        if (m->f == TXN_R || m->key != key) continue;
        if (out) txn_read_elem(out, i, m->value);
        *val = m->f == TXN_ADD ? m->after : m->value;
        *found = 1;
    }
}

static void emit_list(struct sim *s, txn *t, uint32_t i, uint32_t v)
{
    size_t n = 0;
    for (; v != ISO_NONE; v = s->vers[v].parent) ISO_PUSH(s->chain, n, s->cap_chain, v);
    while (n--) {
        const struct sim_ver *ver = &s->vers[s->chain[n]];
        for (uint32_t e = 0; e < ver->elem_n; e++)
            txn_read_elem(t, i, s->elems[ver->elem_off + e]);
    }
}

/* long-fork: the replica of id sees the other's writes LAG commits late. */
#define LAG 6
static uint32_t replica_visible(const struct sim *s, const struct sim_key *k, int64_t snap, uint32_t id)
{
    uint32_t v = k->head;
    while (v != ISO_NONE && (s->vers[v].cts > snap ||
                             ((uint64_t)s->vers[v].cts % 2 != id % 2 && s->vers[v].cts > snap - LAG)))
        v = s->vers[v].prev;
    return v;
}

/* The committed version of k a read by id sees, by level. */
static uint32_t visible(const struct sim *s, uint32_t id, const struct sim_key *k)
{
    const struct sim_txn *tx = &s->txns[id];
    if (s->p.level == SIM_RU || s->p.level == SIM_RC) return k->head;
    if (s->p.level == SIM_LONG_FORK) return replica_visible(s, k, tx->snap, id);
    if (s->rep && !tx->replica) return rep_visible(s, id, k);
    return sim_visible(s, k, tx->snap);
}

static void do_read(struct sim *s, uint32_t id, uint32_t i, struct sim_key *k)
{
    txn *t = s->txns[id].t;
    int64_t key = t->mops[i].key;
    uint32_t v = visible(s, id, k);
    uint32_t d = dirty_writer(s, id, k);
    int64_t val = 0;
    int found = v != ISO_NONE;
    if (t->list_append) {
        txn_read_begin(t, i);
        emit_list(s, t, i, v);
        if (d != ISO_NONE) pending(t, i, s->txns[d].t, s->txns[d].pos, key, &val, &found);
        pending(t, i, t, i, key, &val, &found);
        return;
    }
    if (found) val = s->elems[s->vers[v].elem_off];
    if (d != ISO_NONE) pending(NULL, 0, s->txns[d].t, s->txns[d].pos, key, &val, &found);
    pending(NULL, 0, t, i, key, &val, &found);
    t->mops[i].nil = (uint8_t)!found;
    t->mops[i].value = val;
}

/* ---- ends ---- */

static void release(struct sim *s, uint32_t id)
{
    const txn *t = s->txns[id].t;
    for (uint32_t i = 0; i < s->txns[id].pos; i++) {
        if (t->mops[i].f == TXN_R) continue;
        struct sim_key *k = sim_key_get(s, t->mops[i].key);
        if (k->lock == id) k->lock = ISO_NONE;
        if (k->dirty == id) k->dirty = ISO_NONE;
    }
    for (size_t i = 0; i < s->n_active; i++)
        if (s->active[i] == id) {
            s->active[i] = s->active[--s->n_active];
            break;
        }
    s->txns[id].t = NULL;
}

/* Abort id, its error a class of the runner's vocabulary (docs/FORMATS.md:
 * the names the real databases' failures get) and why. */
static int abort_txn(struct sim *s, uint32_t id, const char *err_class, const char *why)
{
    txn *t = s->txns[id].t;
    txn_error(t, err_class, NULL, "%s", why);
    release(s, id);
    s->txns[id].state = SIM_ABORTED;
    return -1;
}

/* The sum an add writes: what a read of the key sees, plus its value
 * (double-add: twice, one time in eight). */
static int do_add(struct sim *s, uint32_t id, uint32_t i, struct sim_key *k)
{
    txn *t = s->txns[id].t;
    txn_mop *m = &t->mops[i], saved = *m;
    int list = t->list_append;
    t->list_append = 0;
    do_read(s, id, i, k);
    t->list_append = list;
    int64_t old = m->nil ? 0 : m->value, add = saved.value;
    if (s->p.level == SIM_DOUBLE_ADD && iso_rng_below(&s->rng, 8) == 0) add *= 2;
    *m = saved;
    m->after = old + add;
    return m->after < 0 ? abort_txn(s, id, "insufficient-balance", "insufficient balance") : 0;
}

int sim_exec(struct sim *s, uint32_t id, uint32_t i)
{
    struct sim_txn *tx = &s->txns[id];
    const txn_mop *m = &tx->t->mops[i];
    struct sim_key *k = sim_key_get(s, m->key);
    tx->pos = i + 1;
    if (m->f == TXN_R) {
        do_read(s, id, i, k);
        if (s->p.level == SIM_SER && ssi_read(s, id, k) < 0)
            return abort_txn(s, id, "serialization-failure", "SSI: a pivot between two read-write conflicts");
        return 0;
    }
    if (s->p.level == SIM_RU || s->p.level == SIM_RC) {
        if (k->lock != ISO_NONE && k->lock != id) return abort_txn(s, id, "lock-timeout", "write lock held");
        k->lock = id;
    }
    k->dirty = id;
    return m->f == TXN_ADD ? do_add(s, id, i, k) : 0;
}

/* First committer wins (writes) and, for strict-serializable, reads. */
static int validate(struct sim *s, uint32_t id)
{
    const struct sim_txn *tx = &s->txns[id];
    int lvl = s->p.level;
    if (tx->replica) return 0;
    if (s->rep) return rep_validate(s, id);
    if (lvl == SIM_RU || lvl == SIM_RC || lvl == SIM_LOST_UPDATE || lvl == SIM_NO_VALIDATE)
        return 0;
    for (uint32_t i = 0; i < tx->t->n; i++) {
        const txn_mop *m = &tx->t->mops[i];
        if (m->f == TXN_R && lvl != SIM_SSER) continue;
        uint32_t head = sim_key_get(s, m->key)->head;
        if (head != ISO_NONE && s->vers[head].cts > tx->snap) return -1;
    }
    return lvl == SIM_SER ? ssi_commit(s, id) : 0;
}

static int first_write_of(const txn *t, uint32_t i)
{
    if (t->mops[i].f == TXN_R) return 0;
    for (uint32_t j = 0; j < i; j++)
        if (t->mops[j].f != TXN_R && t->mops[j].key == t->mops[i].key) return 0;
    return 1;
}

static void install(struct sim *s, uint32_t id, int64_t key)
{
    const struct sim_txn *tx = &s->txns[id];
    struct sim_key *k = sim_key_get(s, key);
    struct sim_ver v = {s->ts, k->head, k->head, id, (uint32_t)s->n_elems, 0};
    if (s->p.level == SIM_LOST_UPDATE) v.parent = sim_visible(s, k, tx->snap);
    int64_t last = 0;
    for (uint32_t j = 0; j < tx->t->n; j++) {
        const txn_mop *m = &tx->t->mops[j];
        if (m->f == TXN_R || m->key != key) continue;
        if (tx->t->list_append) {
            ISO_PUSH(s->elems, s->n_elems, s->cap_elems, m->value);
            v.elem_n++;
        }
        last = m->f == TXN_ADD ? m->after : m->value;
    }
    if (!tx->t->list_append) {
        ISO_PUSH(s->elems, s->n_elems, s->cap_elems, last);
        v.elem_n = 1;
    }
    k->head = (uint32_t)s->n_vers;
    ISO_PUSH(s->vers, s->n_vers, s->cap_vers, v);
}

static int commit(struct sim *s, uint32_t id)
{
    if (validate(s, id) < 0)
        return abort_txn(s, id, "serialization-failure",
                         s->rep ? "first committer wins: a key's last write is not among what it saw"
                                : "first committer wins: a key changed after its snapshot");
    const txn *t = s->txns[id].t;
    s->ts++;
    s->txns[id].cts = s->ts;
    s->txns[id].state = SIM_COMMITTED;
    uint32_t v0 = (uint32_t)s->n_vers;
    for (uint32_t i = 0; i < t->n; i++)
        if (first_write_of(t, i)) install(s, id, t->mops[i].key);
    if (s->rep) rep_committed(s, id, v0);
    release(s, id);
    return 0;
}

void sim_settle(struct sim *s)
{
    s->floor = s->ts;
    if (s->rep) rep_settle(s);
}

int sim_commit(struct sim *s, uint32_t id, int knobs)
{
    txn *t = s->txns[id].t;
    if (knobs && iso_rng_unit(&s->rng) < s->p.abort_rate) {
        abort_txn(s, id, "aborted", "aborted by the simulator (--abort-rate)");
        return TXN_FAIL;
    }
    if (knobs && iso_rng_unit(&s->rng) < s->p.info_rate) {
        if (iso_rng_below(&s->rng, 2)) abort_txn(s, id, "indeterminate", "");
        else commit(s, id);
        txn_error(t, "indeterminate", NULL, "the simulator's --info-rate");
        return TXN_INFO;
    }
    return commit(s, id) < 0 ? TXN_FAIL : TXN_OK;
}

/* ---- faults ---- */

size_t sim_crash(struct sim *s, int64_t durable)
{
    while (s->n_active) abort_txn(s, s->active[s->n_active - 1], "connection", "the database crashed");
    size_t lost = 0;
    for (size_t k = 0; k < s->n_keys; k++) {
        struct sim_key *key = &s->keys[k];
        while (key->head != ISO_NONE && s->vers[key->head].cts > durable) key->head = s->vers[key->head].prev;
    }
    for (size_t i = 0; i < s->n_txns; i++) /* as if they had never been */
        if (s->txns[i].state == SIM_COMMITTED && s->txns[i].cts > durable) {
            s->txns[i].state = SIM_ABORTED;
            lost++;
        }
    return lost;
}
