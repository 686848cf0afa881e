/*
 * linear/lin_models.c -- the sequential models (Knossos semantics) as step
 * functions over a state of 32-bit words.
 *
 * register / cas-register / kv (per key): one word, the value id (nil at
 * first). mutex: one word, 1 while held. fifo-queue: the queued value ids,
 * oldest first. set: a bitset over value ids. A step that is illegal in the
 * current state returns 0 and may leave the state changed: the search
 * restores it.
 */
#include <string.h>
#include "linear/lin.h"

static int register_step(uint32_t *st, uint32_t *n, const struct lin_op *op,
                         const uint32_t *aux)
{
    switch (op->kind) {
    case LIN_READ:
        return op->a == LIN_ANY || op->a == st[0];
    case LIN_WRITE:
        st[0] = op->a;
        return 1;
    case LIN_CAS:
        if (op->flags & LIN_CAS_FALSE) return st[0] != op->a;
        if (st[0] != op->a) return 0;
        st[0] = op->b;
        return 1;
    default:
        return 0;
    }
}

static int mutex_step(uint32_t *st, uint32_t *n, const struct lin_op *op,
                      const uint32_t *aux)
{
    uint32_t want = op->kind == LIN_ACQUIRE ? 0 : 1;
    if (st[0] != want) return 0;
    st[0] = !want;
    return 1;
}

static int queue_step(uint32_t *st, uint32_t *n, const struct lin_op *op,
                      const uint32_t *aux)
{
    if (op->kind == LIN_ENQUEUE) {
        st[(*n)++] = op->a;
        return 1;
    }
    if (*n == 0 || (op->a != LIN_ANY && st[0] != op->a)) return 0;
    memmove(st, st + 1, (size_t)(*n - 1) * sizeof *st);
    (*n)--;
    return 1;
}

static int set_step(uint32_t *st, uint32_t *n, const struct lin_op *op,
                    const uint32_t *aux)
{
    if (op->kind == LIN_ADD) {
        st[op->a / 32] |= (uint32_t)1 << (op->a % 32);
        return 1;
    }
    return op->b == *n && memcmp(st, aux + op->a, (size_t)*n * sizeof *st) == 0;
}

static const struct lin_model models[] = {
    {"register", ISOLDE_WORKLOAD_REGISTER, register_step},
    {"cas-register", ISOLDE_WORKLOAD_CAS_REGISTER, register_step},
    {"kv", ISOLDE_WORKLOAD_KV, register_step},
    {"mutex", ISOLDE_WORKLOAD_MUTEX, mutex_step},
    {"fifo-queue", ISOLDE_WORKLOAD_FIFO_QUEUE, queue_step},
    {"lin-set", ISOLDE_WORKLOAD_LIN_SET, set_step},
};

const struct lin_model *lin_model_for(isolde_workload w)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (models[i].workload == w) return &models[i];
    return NULL;
}

static uint32_t set_words(uint32_t n_values)
{
    return n_values / 32 + 1;
}

uint32_t lin_state_cap(const struct lin_model *m, const struct lin_op *ops,
                       const uint32_t *ids, uint32_t n, uint32_t n_values)
{
    if (m->workload == ISOLDE_WORKLOAD_LIN_SET) return set_words(n_values);
    if (m->workload != ISOLDE_WORKLOAD_FIFO_QUEUE) return 1;
    uint32_t enq = 1;
    for (uint32_t i = 0; i < n; i++) enq += ops[ids[i]].kind == LIN_ENQUEUE;
    return enq;
}

uint32_t lin_state_init(const struct lin_model *m, uint32_t n_values, uint32_t *st)
{
    switch (m->workload) {
    case ISOLDE_WORKLOAD_FIFO_QUEUE:
        return 0;
    case ISOLDE_WORKLOAD_LIN_SET:
        memset(st, 0, set_words(n_values) * sizeof *st);
        return set_words(n_values);
    default:
        st[0] = m->workload == ISOLDE_WORKLOAD_MUTEX ? 0 : LIN_NIL;
        return 1;
    }
}

uint32_t lin_set_width(uint32_t n_values)
{
    return set_words(n_values);
}
