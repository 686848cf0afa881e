/*
 * linear/lin_writes.c -- a segment of writes alone, on a model whose write
 * is blind (register, cas-register, kv: a write sets the state to its
 * value whatever it was), needs no search. Any order of the writes that
 * keeps real time is a linearization, and it ends in the value of the
 * write that goes last; a write can go last unless a write that certainly
 * happened was called after it returned. An indeterminate write may also
 * never happen, so when every write is one, the starting states are end
 * states too.
 *
 * This is what turns many mutually concurrent writes before a read from
 * 2^n linearized sets in the memo into n steps. The invariant: the end
 * states given are exactly those the search would collect.
 */
#include <string.h>
#include "linear/lin.h"

/* The latest calls of writes that certainly happened: the latest (at
 * local id first) and the one before it. */
struct latest {
    uint64_t call[2];
    uint32_t first;
};

static struct latest latest_calls(const struct lin_op *ops, const uint32_t *ids, uint32_t n)
{
    struct latest l = {{0, 0}, UINT32_MAX};
    for (uint32_t i = 0; i < n; i++) {
        const struct lin_op *o = &ops[ids[i]];
        if (o->flags & LIN_INDET) continue;
        if (l.first == UINT32_MAX || o->call > l.call[0]) {
            l.call[1] = l.call[0];
            l.call[0] = o->call;
            l.first = i;
        } else if (o->call > l.call[1]) {
            l.call[1] = o->call;
        }
    }
    return l;
}

/* Whether write ids[i] can go last: no other write that certainly
 * happened was called after it returned. */
static int can_be_last(const struct lin_op *ops, const uint32_t *ids, const struct latest *l, uint32_t i)
{
    const struct lin_op *w = &ops[ids[i]];
    if (w->flags & LIN_INDET) return 1;
    uint64_t other = i == l->first ? l->call[1] : l->call[0];
    return other < w->ret;
}

static int writes_only(const struct lin_input *in, const uint32_t *ids, uint32_t n, int *all_indet)
{
    *all_indet = 1;
    for (uint32_t i = 0; i < n; i++) {
        const struct lin_op *o = &in->ops[ids[i]];
        if (o->kind != LIN_WRITE) return 0;
        if (!(o->flags & LIN_INDET)) *all_indet = 0;
    }
    return 1;
}

/* s->stack: every write that certainly happened, in call order, and write
 * `last` after them. */
static void stack_with_last(struct lin_search *s, uint32_t n, uint32_t last)
{
    const struct lin_op *ops = s->in->ops;
    s->n_stack = 0;
    for (uint32_t i = 0; i < n; i++)
        if (i != last && !(ops[s->ids[i]].flags & LIN_INDET)) s->stack[s->n_stack++] = i;
    s->stack[s->n_stack++] = last;
}

/* LIN_TARGET: a linearization ending in the target's one state. */
static enum lin_outcome to_target(struct lin_search *s, uint32_t n, const struct lin_set *from,
                                  int all_indet, const struct lin_set *target)
{
    const uint32_t *want = target->words; /* [len, words...] */
    struct latest l = latest_calls(s->in->ops, s->ids, n);
    for (uint32_t i = 0; want[0] == 1 && i < n; i++)
        if (s->in->ops[s->ids[i]].a == want[1] && can_be_last(s->in->ops, s->ids, &l, i)) {
            stack_with_last(s, n, i);
            s->found_from = 0;
            return LIN_OK;
        }
    for (size_t off = all_indet && from->n ? 0 : SIZE_MAX; off != SIZE_MAX; off = lin_set_next(from, off))
        if (from->words[off] == want[0] && memcmp(from->words + off + 1, want + 1, want[0] * sizeof *want) == 0) {
            s->n_stack = 0;
            s->found_from = off;
            return LIN_OK;
        }
    return LIN_FAIL;
}

int lin_writes_run(struct lin_search *s, const uint32_t *ids, uint32_t n, const struct lin_set *from,
                   enum lin_mode mode, struct lin_set *to, enum lin_outcome *res)
{
    const struct lin_input *in = s->in;
    int all_indet;
    if (!in->model->blind_write || !from->n || !n || !writes_only(in, ids, n, &all_indet)) return 0;
    if (mode == LIN_TARGET) {
        *res = to_target(s, n, from, all_indet, to);
        return 1;
    }
    struct latest l = latest_calls(in->ops, ids, n);
    for (uint32_t i = 0; i < n; i++)
        if (can_be_last(in->ops, ids, &l, i)) lin_set_add(to, &in->ops[ids[i]].a, 1);
    for (size_t off = all_indet ? 0 : SIZE_MAX; off != SIZE_MAX; off = lin_set_next(from, off))
        lin_set_add(to, from->words + off + 1, from->words[off]);
    *res = LIN_OK;
    return 1;
}
