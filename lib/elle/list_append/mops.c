/*
 * elle/list_append/mops.c -- list-append micro-ops as a transaction's
 * value holds them: [:append k v] and [:r k v], the name matched by atom.
 */
#include "elle/list_append/list_append_int.h"

int la_mop_kind(const la_state *st, iso_val mop)
{
    const iso_store *s = st->keys.store;
    if (!iso_is_seq(mop) || iso_seq_kind(s, mop) > ISO_SEQ_LIST) return 0;
    size_t n = iso_seq_len(s, mop);
    if (n < 2 || n > 3) return 0;
    iso_val f = iso_seq_item(s, mop, 0);
    if (n == 3 && iso_name_atoms_has(&st->append_name, f)) return LA_APPEND;
    if (iso_name_atoms_has(&st->read_name, f)) return LA_READ;
    return 0;
}

const iso_val *la_read_items(const iso_store *s, iso_val v, size_t *n)
{
    if (iso_tag(v) != ISO_TAG_SEQ) { *n = 0; return NULL; }
    *n = iso_seq_len(s, v);
    return iso_seq_words(s, v);
}

const iso_val *la_txn_mops(const iso_proof_ctx *pc, uint32_t txn, size_t *n)
{
    return la_read_items(&pc->h->store, iso_txn_op(pc->h, &pc->txns.t[txn])->value, n);
}
