/*
 * linear/lin_models.c -- the sequential models (Knossos semantics) as step
 * functions over a state of 32-bit words.
 *
 * register / cas-register / kv (per key): one word, the value id (nil at
 * first). mutex: one word, 1 while held. fifo-queue: the queued value ids,
 * oldest first. set: a bitset over value ids. multi-register: a value id
 * per key. porcupine-kv (per key): the string as its length in bytes and
 * its pieces -- the put's text and each append's since, as offsets of
 * their text records in aux; empty pieces are left out, so the empty
 * string is always the one word [0]. A step that is illegal in the current
 * state returns 0 and may leave the state changed: the search restores it.
 * Initial states other than these defaults come from lin_init.c.
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

/* Knossos's multi-register: the micro-ops in order, a read seeing the
 * transaction's own writes before it. */
static int multi_step(uint32_t *st, uint32_t *n, const struct lin_op *op,
                      const uint32_t *aux)
{
    if (!op->b) return 1; /* no micro-op (and maybe no aux at all) */
    const uint32_t *m = aux + op->a;
    for (uint32_t i = 0; i < op->b; i++, m += 2) {
        uint32_t k = m[0] >> 1;
        if (m[0] & LIN_MOP_WRITE) st[k] = m[1];
        else if (m[1] != LIN_ANY && st[k] != m[1]) return 0;
    }
    return 1;
}

int lin_text_prefix(const uint32_t *st, uint32_t n, const uint32_t *want, const uint32_t *aux)
{
    if (st[0] > want[0]) return 0;
    const char *w = (const char *)(want + 1);
    for (uint32_t i = 1; i < n; i++) {
        const uint32_t *piece = aux + st[i];
        if (memcmp(w, piece + 1, piece[0]) != 0) return 0;
        w += piece[0];
    }
    return 1;
}

/* The string st[0..n) spells text record want, exactly. */
static int spells(const uint32_t *st, uint32_t n, const uint32_t *want, const uint32_t *aux)
{
    return st[0] == want[0] && lin_text_prefix(st, n, want, aux);
}

/* Porcupine's kv model for one key: get returns the string, put replaces
 * it, append extends it. */
static int append_step(uint32_t *st, uint32_t *n, const struct lin_op *op,
                       const uint32_t *aux)
{
    if (op->kind == LIN_READ) return op->a == LIN_ANY || spells(st, *n, aux + op->b, aux);
    if (op->kind == LIN_WRITE) {
        st[0] = 0;
        *n = 1;
    }
    uint32_t len = aux[op->b];
    if (len) {
        st[0] += len;
        st[(*n)++] = op->b;
    }
    return 1;
}

static const struct lin_model models[] = {
    {"register", ISOLDE_WORKLOAD_REGISTER, register_step, 1},
    {"cas-register", ISOLDE_WORKLOAD_CAS_REGISTER, register_step, 1},
    {"kv", ISOLDE_WORKLOAD_KV, register_step, 1},
    {"mutex", ISOLDE_WORKLOAD_MUTEX, mutex_step, 0},
    {"fifo-queue", ISOLDE_WORKLOAD_FIFO_QUEUE, queue_step, 0},
    {"lin-set", ISOLDE_WORKLOAD_LIN_SET, set_step, 0},
    {"multi-register", ISOLDE_WORKLOAD_MULTI_REGISTER, multi_step, 0},
    {"porcupine-kv", ISOLDE_WORKLOAD_PORCUPINE_KV, append_step, 0},
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

static uint32_t count_kind(const struct lin_input *in, const uint32_t *ids, uint32_t n, int kind)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < n; i++) c += in->ops[ids[i]].kind == kind;
    return c;
}

uint32_t lin_state_cap(const struct lin_input *in, const uint32_t *ids, uint32_t n)
{
    switch (in->model->workload) {
    case ISOLDE_WORKLOAD_LIN_SET: return set_words(in->n_values);
    case ISOLDE_WORKLOAD_FIFO_QUEUE: return 1 + count_kind(in, ids, n, LIN_ENQUEUE);
    case ISOLDE_WORKLOAD_MULTI_REGISTER: return in->n_keys + 1;
    case ISOLDE_WORKLOAD_PORCUPINE_KV: return 2 + count_kind(in, ids, n, LIN_APPEND);
    default: return 1;
    }
}

uint32_t lin_init_cap(const struct lin_input *in)
{
    uint32_t cap = set_words(in->n_values) + in->n_keys + 2;
    for (uint32_t p = 0; in->init_off && p < in->n_parts; p++)
        if (in->init_off[p + 1] - in->init_off[p] > cap) cap = in->init_off[p + 1] - in->init_off[p];
    return cap;
}

uint32_t lin_state_init(const struct lin_input *in, uint32_t part, uint32_t *st)
{
    if (in->init_off) {
        uint32_t n = in->init_off[part + 1] - in->init_off[part];
        memcpy(st, in->init + in->init_off[part], (size_t)n * sizeof *st);
        return n;
    }
    switch (in->model->workload) {
    case ISOLDE_WORKLOAD_FIFO_QUEUE:
        return 0;
    case ISOLDE_WORKLOAD_LIN_SET:
        memset(st, 0, set_words(in->n_values) * sizeof *st);
        return set_words(in->n_values);
    case ISOLDE_WORKLOAD_MULTI_REGISTER:
        for (uint32_t k = 0; k < in->n_keys; k++) st[k] = LIN_NIL;
        return in->n_keys;
    case ISOLDE_WORKLOAD_PORCUPINE_KV:
        st[0] = 0; /* the empty string */
        return 1;
    default:
        st[0] = in->model->workload == ISOLDE_WORKLOAD_MUTEX ? 0 : LIN_NIL;
        return 1;
    }
}

uint32_t lin_set_width(uint32_t n_values)
{
    return set_words(n_values);
}
