/*
 * txn/flight.h -- contention: a transaction is contended when, while it
 * ran, another one in flight touched a key it touched, one of the two
 * writing it. A slot holds one in-flight transaction's keys; fixed size,
 * so that slots can live in memory shared by forked clients.
 */
#ifndef ISO_TXN_FLIGHT_H
#define ISO_TXN_FLIGHT_H

#include "txn/txn.h"

typedef struct txn_flight {
    int busy, contended;
    uint32_t n;
    uint64_t rmask, wmask;  /* bit key % 64 of the keys read, written */
    int64_t key[TXN_MAX_MOPS];
    uint8_t w[TXN_MAX_MOPS];
} txn_flight;

/* t starts in slot i of slots[0, n): compared with every busy one, both
 * marked when they conflict. */
void txn_flight_start(txn_flight *slots, int n, int i, const txn *t);
/* Slot i's transaction ended: 1 if it was contended. */
int txn_flight_end(txn_flight *slots, int i);

#endif
