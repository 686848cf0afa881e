/*
 * linear/lin_split.c -- one partition at a time: cut at quiescent points
 * and carry the model's possible states across each cut.
 *
 * Ops are in call order, so a quiescent point is a place where every op
 * called so far has returned before the next call. No linearization can
 * move an op across it, so each segment is searched on its own, from every
 * state the previous segments can end in (all of them are collected, a
 * set deduplicated by lin_set); the last segment only needs one success.
 * The memo never spans a cut, which bounds its size by the longest busy
 * stretch instead of the whole history. A segment of one op (the common
 * case for a key of a kv history) is just a step from each state.
 */
#include <string.h>
#include "lin.h"

/* One past the last op of the segment starting at a. */
static uint32_t segment_end(const struct lin_op *ops, const uint32_t *ids,
                            uint32_t a, uint32_t n)
{
    uint64_t last_ret = ops[ids[a]].ret;
    uint32_t b = a + 1;
    for (; b < n && ops[ids[b]].call < last_ret; b++)
        if (ops[ids[b]].ret > last_ret) last_ret = ops[ids[b]].ret;
    return b;
}

static void initial_states(const struct lin_input *in, struct lin_set *from)
{
    uint32_t *st = iso_xcalloc((size_t)lin_set_width(in->n_values) + 1, sizeof *st);
    uint32_t n = lin_state_init(in->model, in->n_values, st);
    lin_set_add(from, st, n);
    free(st);
}

/* A lone op: step it from every state; LIN_FAIL when no step is legal
 * (the caller then searches, to get the witness). */
static enum lin_outcome single_op(const struct lin_input *in, const struct lin_op *op,
                                  const struct lin_set *from, struct lin_set *to,
                                  struct lin_set *buf)
{
    if (op->flags & LIN_INDET) return LIN_OK;  /* last segment: it may never happen */
    for (size_t off = from->n ? 0 : SIZE_MAX; off != SIZE_MAX; off = lin_set_next(from, off)) {
        uint32_t n = from->words[off];
        ISO_GROW(buf->words, buf->cap_words, (size_t)n + 2);
        memcpy(buf->words, from->words + off + 1, n * sizeof *buf->words);
        if (in->model->step(buf->words, &n, op, in->aux)) lin_set_add(to, buf->words, n);
    }
    return to->n ? LIN_OK : LIN_FAIL;
}

enum lin_outcome lin_check_partition(struct lin_search *s, const iso_history *h,
                                     uint32_t part, struct lin_witness *w,
                                     uint32_t *n_segments)
{
    const struct lin_input *in = s->in;
    const uint32_t *ids = in->part_ops + in->part_off[part];
    uint32_t n = in->part_off[part + 1] - in->part_off[part];
    struct lin_set from = {0}, to = {0}, buf = {0}, tmp;
    enum lin_outcome res = LIN_OK;
    initial_states(in, &from);
    *n_segments = 0;
    for (uint32_t a = 0, b; a < n && res == LIN_OK; a = b) {
        b = segment_end(in->ops, ids, a, n);
        lin_set_clear(&to);
        res = b == a + 1 ? single_op(in, &in->ops[ids[a]], &from, &to, &buf) : LIN_FAIL;
        if (res != LIN_OK)
            res = lin_search_run(s, ids + a, b - a, &from, b == n ? LIN_FIRST : LIN_ALL, &to);
        (*n_segments)++;
        if (res == LIN_FAIL && w && h)
            lin_witness_build(w, s, h, ids + a, b - a, &from, a, part);
        tmp = from;
        from = to;
        to = tmp;
    }
    lin_set_release(&from);
    lin_set_release(&to);
    lin_set_release(&buf);
    return res;
}
