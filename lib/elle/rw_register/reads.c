/*
 * elle/rw_register/reads.c -- what each read of an ok transaction shows,
 * decided once for the edges, the direct anomalies and the weak models'
 * checks alike (st->rclass, one byte per micro-op), and which transactions
 * committed (st->committed: the ok ones, and the :info ones some ok read
 * shows).
 *
 * A read of key k returns a version (k, v). Before the reader wrote k
 * itself, it read v from v's writer (wr), or from the initial state when v
 * is nil -- unless the writer failed, the write was not its last of k, or
 * nobody wrote v (G1a, G1b, garbage-read), or the reader writes v itself
 * only later (future-read). After the reader's own write of k it must
 * return that write (Cerone et al.'s INT); another transaction's version
 * or nil there is not-my-own-write, an earlier own write not-my-last-write
 * (Plume's names), and either is Elle's internal. Values are unique per
 * key (rw_register.c refuses a value written twice), so a version names
 * its writer -- except nil, which a transaction may write: a read of nil
 * on such a key is ambiguous and shows nothing (RW_R_UNKNOWN).
 */
#include "elle/rw_register/rw_register_int.h"

/* Whether a read may show version v: some transaction that did not fail
 * wrote it as its last write of the key. */
static int readable(const iso_proof_ctx *pc, const rw_ver *x)
{
    return x->writer != ISO_NONE && x->wkind == RW_FINAL && pc->txns.t[x->writer].type != ISO_OP_FAIL;
}

/* The class of a read of version v by txn t before t wrote the key. */
static uint8_t before_own(const iso_proof_ctx *pc, const rw_ver *x, uint32_t t)
{
    if (iso_is_nil(x->val)) return x->writer == ISO_NONE ? RW_R_EXT : RW_R_UNKNOWN;
    if (x->writer == t) return RW_R_FUTURE;
    return readable(pc, x) ? RW_R_EXT : RW_R_BAD;
}

/* The class of a read of version v by txn t after t wrote the key, last
 * with version own. */
static uint8_t after_own(const rw_state *st, uint32_t v, uint32_t own, uint32_t t)
{
    if (v == own) return RW_R_OWN;
    return st->ver[v].writer == t ? RW_R_NOT_LAST : RW_R_NOT_OWN;
}

/* Classify ok txn t's reads; stamp[k] == t + 1 when t wrote k, last with
 * version own[k]. */
static void classify_txn(const iso_proof_ctx *pc, rw_state *st, uint32_t t, uint32_t *stamp, uint32_t *own)
{
    for (uint32_t m = st->mop_off[t]; m < st->mop_off[t + 1]; m++) {
        uint32_t v = st->mop[m] & ~RW_MOP_W, k = st->ver[v].key;
        if (st->mop[m] & RW_MOP_W) {
            stamp[k] = t + 1;
            own[k] = v;
        } else {
            st->rclass[m] = stamp[k] == t + 1 ? after_own(st, v, own[k], t) : before_own(pc, &st->ver[v], t);
        }
    }
}

/* The :info writer of a version an ok read shows committed. */
static void commit_writer(const iso_proof_ctx *pc, rw_state *st, uint32_t m)
{
    const rw_ver *x = &st->ver[st->mop[m] & ~RW_MOP_W];
    uint8_t c = st->rclass[m];
    if ((c == RW_R_EXT || c == RW_R_NOT_OWN) && !iso_is_nil(x->val) && readable(pc, x)) st->committed[x->writer] = 1;
}

void rw_classify_reads(const iso_proof_ctx *pc, rw_state *st)
{
    size_t n_mops = st->mop_off[pc->txns.n];
    uint32_t *stamp = iso_xcalloc(st->keys.n + 1, sizeof *stamp), *own = iso_xmalloc((st->keys.n + 1) * sizeof *own);
    st->rclass = iso_xcalloc(n_mops + 1, 1);
    st->committed = iso_xcalloc(pc->txns.n + 1, 1);
    for (uint32_t t = 0; t < pc->txns.n; t++) {
        if (pc->txns.t[t].type != ISO_OP_OK) continue;
        st->committed[t] = 1;
        classify_txn(pc, st, t, stamp, own);
    }
    for (uint32_t t = 0; t < pc->txns.n; t++)
        for (uint32_t m = st->mop_off[t]; pc->txns.t[t].type == ISO_OP_OK && m < st->mop_off[t + 1]; m++)
            commit_writer(pc, st, m);
    iso_free(stamp);
    iso_free(own);
}

uint32_t rw_read_writer(const iso_proof_ctx *pc, const rw_state *st, uint32_t m)
{
    uint8_t c = st->rclass[m];
    if (c != RW_R_EXT && c != RW_R_NOT_OWN) return ISO_NONE;
    const rw_ver *x = &st->ver[st->mop[m] & ~RW_MOP_W];
    return iso_is_nil(x->val) || !readable(pc, x) ? ISO_NONE : x->writer;
}
