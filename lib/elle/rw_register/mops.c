/*
 * elle/rw_register/mops.c -- rw-register micro-ops as a transaction's
 * value holds them: [:w k v] and [:r k v], the name matched by atom.
 */
#include "elle/rw_register/rw_register_int.h"

int rw_mop(const rw_state *st, iso_val mop, iso_val *k, iso_val *v)
{
    const iso_store *s = st->keys.store;
    if (!iso_is_seq(mop) || iso_seq_kind(s, mop) > ISO_SEQ_LIST) return -1;
    size_t n = iso_seq_len(s, mop);
    if (n < 2 || n > 3) return -1;
    iso_val buf[3];
    const iso_val *it = iso_seq_items(s, mop, buf);
    *k = it[1];
    *v = n == 3 ? it[2] : ISO_NIL;
    if (iso_name_atoms_has(&st->read_name, it[0])) return RW_READ;
    if (iso_name_atoms_has(&st->write_name, it[0])) return RW_WRITE;
    return -1;
}

/* An op's value is a stored composite, never a packed micro-op (mop.h). */
const iso_val *rw_op_mops(const iso_store *s, const iso_op *op, size_t *n)
{
    if (iso_tag(op->value) != ISO_TAG_SEQ || iso_seq_kind(s, op->value) > ISO_SEQ_LIST) {
        *n = 0;
        return NULL;
    }
    *n = iso_seq_len(s, op->value);
    return iso_seq_words(s, op->value);
}

const iso_val *rw_txn_mops(const iso_proof_ctx *pc, uint32_t txn, size_t *n)
{
    return rw_op_mops(&pc->h->store, iso_txn_op(pc->h, &pc->txns.t[txn]), n);
}
