/* txn/flight.c -- contended transactions: a slot per client, each
 * transaction that starts compared with those in flight (flight.h). */
#include "txn/flight.h"

/* Whether a and b share a key, one of them writing it. */
static int conflict(const txn_flight *a, const txn_flight *b)
{
    if (!((a->wmask & (b->rmask | b->wmask)) | (b->wmask & a->rmask))) return 0;
    for (uint32_t i = 0; i < a->n; i++)
        for (uint32_t j = 0; j < b->n; j++)
            if (a->key[i] == b->key[j] && (a->w[i] | b->w[j])) return 1;
    return 0;
}

void txn_flight_start(txn_flight *slots, int n, int i, const txn *t)
{
    txn_flight *me = &slots[i];
    me->busy = 1;
    me->contended = 0;
    me->n = t->n;
    me->rmask = me->wmask = 0;
    for (uint32_t m = 0; m < t->n; m++) {
        me->key[m] = t->mops[m].key;
        me->w[m] = t->mops[m].f != TXN_R;
        *(me->w[m] ? &me->wmask : &me->rmask) |= 1ull << ((uint64_t)t->mops[m].key & 63);
    }
    for (int j = 0; j < n; j++)
        if (j != i && slots[j].busy && conflict(me, &slots[j])) me->contended = slots[j].contended = 1;
}

int txn_flight_end(txn_flight *slots, int i)
{
    slots[i].busy = 0;
    return slots[i].contended;
}
