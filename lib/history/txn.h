/*
 * history/txn.h -- transactions: client invocations paired with their completions.
 *
 * Transaction i is vertex i of the dependency graph. Only client ops (an
 * integer :process) take part. An invocation pairs with the next completion
 * on its process; a completion with no invocation stands alone (Elle's
 * README histories have none); an invocation never completed is kept as
 * ISO_OP_INFO with cmp = ISO_NONE.
 */
#ifndef ISO_TXN_H
#define ISO_TXN_H

#include "history/history.h"

typedef struct iso_txn {
    uint32_t inv;  /* op position (index into h->ops) of the invocation, or ISO_NONE */
    uint32_t cmp;  /* op position of the completion, or ISO_NONE */
    uint8_t type;  /* ISO_OP_OK, ISO_OP_FAIL or ISO_OP_INFO */
} iso_txn;

typedef struct iso_txns {
    iso_txn *t;
    size_t n;
} iso_txns;

/* Pair the client ops of h. An invocation while the same process still has
 * one outstanding makes pairing ambiguous: with strict set that is an error
 * (with the op's position); otherwise, as Elle does when it needs no
 * real-time or process order, every completion stands alone. */
int iso_txns_pair(const isolde_history *h, int strict, iso_txns *out, isolde_error *err);
void iso_txns_free(iso_txns *t);

/* The op whose value describes the transaction: the completion if any,
 * else the invocation. */
static inline const iso_op *iso_txn_op(const isolde_history *h, const iso_txn *t)
{
    return &h->ops[t->cmp != ISO_NONE ? t->cmp : t->inv];
}

#endif
