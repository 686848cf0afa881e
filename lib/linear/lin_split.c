/*
 * linear/lin_split.c -- one partition at a time: cut at quiescent points
 * and carry the model's possible states across each cut.
 *
 * Ops are in call order, so a quiescent point is a place where every op
 * called so far has returned before the next call. No linearization can
 * move an op across it, so each segment is searched on its own, from every
 * state the previous segments can end in (all of them are collected, a
 * set deduplicated by lin_set); the last segment only needs one success.
 *
 * Collecting every end state is the expensive part, so segments start
 * greedy: one way through, one end state carried on. A greedy success
 * proves nothing false; when a later segment fails, the nearest greedy
 * segment before it is redone exactly and the walk resumes there; a
 * second failure redoes every segment exactly. Only a failure after exact
 * segments is final, and gets the witness. A segment of one op (the
 * common case for a key of a kv history) is always exact: a step from
 * each state.
 *
 * The memo never spans a cut, which bounds its size by the longest busy
 * stretch instead of the whole history.
 */
#include <string.h>
#include "linear/lin.h"

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

static void initial_states(const struct lin_input *in, uint32_t part, struct lin_set *from)
{
    uint32_t *st = iso_xcalloc((size_t)lin_init_cap(in) + 1, sizeof *st);
    uint32_t n = lin_state_init(in, part, st);
    lin_set_add(from, st, n);
    iso_free(st);
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

/* The segments of a partition and the states each starts from, kept in
 * one arena as [len, words...] tuples so a failure can resume earlier. */
struct walk {
    struct lin_search *s;
    const uint32_t *ids;
    uint32_t n_segs;
    uint32_t *start;          /* n_segs + 1 segment bounds */
    uint8_t *exact;
    size_t *from_off;         /* where segment i's states begin in states */
    size_t *from_words;       /* how many words they take */
    uint32_t *from_n;         /* and how many states */
    struct lin_set states;    /* words only: the arena */
    struct lin_set to, buf;
};

static void cut(struct walk *wk, const struct lin_input *in, uint32_t n)
{
    size_t cap = 0;
    wk->n_segs = 0;
    for (uint32_t a = 0; a < n; a = segment_end(in->ops, wk->ids, a, n))
        ISO_PUSH(wk->start, wk->n_segs, cap, a);
    ISO_GROW(wk->start, cap, (size_t)wk->n_segs + 1);
    wk->start[wk->n_segs] = n;
    wk->exact = iso_xcalloc((size_t)wk->n_segs + 1, 1);
    wk->from_off = iso_xcalloc((size_t)wk->n_segs + 1, sizeof *wk->from_off);
    wk->from_words = iso_xcalloc((size_t)wk->n_segs + 1, sizeof *wk->from_words);
    wk->from_n = iso_xcalloc((size_t)wk->n_segs + 1, sizeof *wk->from_n);
}

/* A read-only view of segment i's starting states. */
static struct lin_set from_view(const struct walk *wk, uint32_t i)
{
    return (struct lin_set){.words = wk->states.words + wk->from_off[i],
                            .n_words = wk->from_words[i], .n = wk->from_n[i]};
}

/* Store wk->to as the starting states of segment k, at arena offset off
 * (dropping whatever came after). */
static void keep_states(struct walk *wk, uint32_t k, size_t off)
{
    struct lin_set *st = &wk->states;
    ISO_GROW(st->words, st->cap_words, off + wk->to.n_words + 1);
    memcpy(st->words + off, wk->to.words, wk->to.n_words * sizeof *st->words);
    st->n_words = off + wk->to.n_words;
    wk->from_off[k] = off;
    wk->from_words[k] = wk->to.n_words;
    wk->from_n[k] = (uint32_t)wk->to.n;
}

static enum lin_outcome run_segment(struct walk *wk, uint32_t i)
{
    const struct lin_input *in = wk->s->in;
    uint32_t a = wk->start[i], b = wk->start[i + 1];
    struct lin_set from = from_view(wk, i);
    lin_set_clear(&wk->to);
    if (b == a + 1) {
        wk->exact[i] = 1;
        if (single_op(in, &in->ops[wk->ids[a]], &from, &wk->to, &wk->buf) == LIN_OK)
            return LIN_OK;
    }
    enum lin_mode mode = wk->exact[i] && i + 1 < wk->n_segs ? LIN_ALL : LIN_FIRST;
    return lin_search_run(wk->s, wk->ids + a, b - a, &from, mode, &wk->to);
}

/* After segment i failed: the segment to resume at, or UINT32_MAX when
 * every segment before i is exact (the failure is final). The first retry
 * at a failure point redoes the nearest greedy segment exactly; the next
 * makes every segment from the earliest greedy one exact. */
static uint32_t resume_at(struct walk *wk, uint32_t i, uint32_t *fail_at, int *retries)
{
    uint32_t j = i, k = 0;
    while (j > 0 && wk->exact[j - 1]) j--;
    if (j == 0) return UINT32_MAX;
    if (i != *fail_at) *retries = 0;
    *fail_at = i;
    if ((*retries)++ == 0) {
        wk->exact[j - 1] = 1;
        return j - 1;
    }
    while (wk->exact[k]) k++;
    memset(wk->exact + k, 1, i - k);
    return k;
}

#define MAX_BEFORE 16 /* earlier ops a witness reconstructs, at least */

/* Prepend the ops of segment j's linearization on the stack to chain. */
static void prepend(struct walk *wk, uint32_t j, uint32_t **chain, size_t *n, size_t *cap)
{
    const struct lin_search *s = wk->s;
    size_t k = s->n_stack;
    ISO_GROW(*chain, *cap, *n + k);
    memmove(*chain + k, *chain, *n * sizeof **chain);
    for (size_t i = 0; i < k; i++) (*chain)[i] = wk->ids[wk->start[j] + s->stack[i]];
    *n += k;
}

/* The witness's earlier ops: going back from segment i, search each
 * segment for a linearization from one of its starting states to the
 * state the next one began at (every segment before a final failure is
 * exact, so there is one), until MAX_BEFORE ops or the first segment. The
 * search budget bounds it; what it found by then is shown. */
static void explain_start(struct walk *wk, uint32_t i, struct lin_witness *w,
                          const isolde_history *h)
{
    struct lin_search *s = wk->s;
    struct lin_set target = {0}, cur = from_view(wk, i); /* the states `at` is in */
    uint32_t *chain = NULL;
    size_t n = 0, cap = 0, at = s->best_from;
    for (uint32_t j = i; j > 0 && n < MAX_BEFORE; j--) {
        struct lin_set from = from_view(wk, j - 1);
        uint32_t a = wk->start[j - 1], len = wk->start[j] - a;
        lin_set_clear(&target);
        lin_set_add(&target, cur.words + at + 1, cur.words[at]);
        if (lin_search_run(s, wk->ids + a, len, &from, LIN_TARGET, &target) != LIN_OK) break;
        prepend(wk, j - 1, &chain, &n, &cap);
        cur = from;
        at = s->found_from;
    }
    if (n) lin_witness_before(w, s->in, h, chain, (uint32_t)n, cur.words + at + 1, cur.words[at]);
    iso_free(chain);
    lin_set_release(&target);
}

static enum lin_outcome walk_segments(struct walk *wk, const isolde_history *h, uint32_t part,
                                      struct lin_witness *w, uint32_t *n_searched)
{
    int retries = 0;
    uint32_t fail_at = UINT32_MAX;
    for (uint32_t i = 0; i < wk->n_segs;) {
        enum lin_outcome res = run_segment(wk, i);
        (*n_searched)++;
        if (res == LIN_OK) {
            keep_states(wk, i + 1, wk->from_off[i] + wk->from_words[i]);
            i++;
            continue;
        }
        if (res != LIN_FAIL) return res;
        uint32_t j = resume_at(wk, i, &fail_at, &retries);
        if (j == UINT32_MAX) {
            struct lin_set from = from_view(wk, i);
            if (w && h) {
                lin_witness_build(w, wk->s, h, wk->ids + wk->start[i],
                                  wk->start[i + 1] - wk->start[i], &from, wk->start[i], part);
                explain_start(wk, i, w, h);
            }
            return LIN_FAIL;
        }
        i = j;
    }
    return LIN_OK;
}

enum lin_outcome lin_check_partition(struct lin_search *s, const isolde_history *h,
                                     uint32_t part, struct lin_witness *w,
                                     uint32_t *n_segments)
{
    const struct lin_input *in = s->in;
    uint32_t n = in->part_off[part + 1] - in->part_off[part];
    struct walk wk = {.s = s, .ids = in->part_ops + in->part_off[part]};
    cut(&wk, in, n);
    initial_states(in, part, &wk.to);
    keep_states(&wk, 0, 0);
    *n_segments = 0;
    enum lin_outcome res = walk_segments(&wk, h, part, w, n_segments);
    iso_free(wk.start);
    iso_free(wk.exact);
    iso_free(wk.from_off);
    iso_free(wk.from_words);
    iso_free(wk.from_n);
    lin_set_release(&wk.states);
    lin_set_release(&wk.to);
    lin_set_release(&wk.buf);
    return res;
}
