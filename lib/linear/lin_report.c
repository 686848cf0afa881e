/*
 * linear/lin_report.c -- the witness of a non-linearizable partition and
 * the text / JSON reports.
 *
 * The witness is Knossos's "how far did we get": the longest linearizable
 * prefix the search found in the failing segment (with each op's interval
 * and the point it took effect), the state after it, the ops that could
 * have gone next and why none did, and the op that returned while still
 * unplaced. Everything is rendered to strings when built, so the report
 * outlives the history and the search.
 */
#include <string.h>
#include "linear/lin.h"

#define MAX_STUCK 64

static char *take(iso_buf *b)
{
    char *s = iso_xstrdup(iso_buf_cstr(b));
    iso_buf_free(b);
    return s;
}

static char *render_val(const isolde_history *h, iso_val v, int json)
{
    iso_buf b = {0};
    if (json) iso_val_json(&h->store, v, &b);
    else iso_val_edn(&h->store, v, &b);
    return take(&b);
}

static void put_value(const struct lin_input *in, const isolde_history *h, uint32_t id,
                      int json, iso_buf *out)
{
    if (id < in->n_values && in->values) {
        if (json) iso_val_json(&h->store, in->values[id], out);
        else iso_val_edn(&h->store, in->values[id], out);
    } else {
        iso_buf_puts(out, json ? "null" : "?");
    }
}

void lin_state_render(const struct lin_input *in, const isolde_history *h,
                      const uint32_t *st, uint32_t n, int json, iso_buf *out)
{
    isolde_workload w = in->model->workload;
    if (w == ISOLDE_WORKLOAD_MUTEX) {
        iso_buf_puts(out, json ? (st[0] ? "\"held\"" : "\"free\"") : (st[0] ? "held" : "free"));
        return;
    }
    if (w != ISOLDE_WORKLOAD_FIFO_QUEUE && w != ISOLDE_WORKLOAD_LIN_SET) {
        put_value(in, h, st[0], json, out);
        return;
    }
    iso_buf_puts(out, json ? "[" : w == ISOLDE_WORKLOAD_LIN_SET ? "#{" : "[");
    int first = 1;
    for (uint32_t i = 0; i < (w == ISOLDE_WORKLOAD_LIN_SET ? n * 32 : n); i++) {
        if (w == ISOLDE_WORKLOAD_LIN_SET && !(st[i / 32] >> (i % 32) & 1)) continue;
        if (!first) iso_buf_puts(out, json ? "," : " ");
        put_value(in, h, w == ISOLDE_WORKLOAD_LIN_SET ? i : st[i], json, out);
        first = 0;
    }
    iso_buf_puts(out, json ? "]" : w == ISOLDE_WORKLOAD_LIN_SET ? "}" : "]");
}

static char *render_state(const struct lin_input *in, const isolde_history *h,
                          const uint32_t *st, uint32_t n, int json)
{
    iso_buf b = {0};
    lin_state_render(in, h, st, n, json, &b);
    return take(&b);
}

static void fill_wop(struct lin_wop *w, const isolde_history *h, const struct lin_op *op)
{
    const iso_op *inv = &h->ops[op->inv];
    const iso_op *cmp = op->cmp == ISO_NONE ? NULL : &h->ops[op->cmp];
    iso_val v = cmp && cmp->type == ISO_OP_OK && !iso_is_nil(cmp->value) ? cmp->value : inv->value;
    size_t len = 0;
    const char *f = iso_name_text(&h->store, iso_op_f(h, inv), &len); /* known names only */
    memset(w, 0, sizeof *w);
    w->process = iso_as_int(inv->process);
    w->call_index = inv->index;
    w->call_time = inv->time;
    w->ret_index = cmp ? cmp->index : -1;
    w->ret_time = cmp ? cmp->time : -1;
    w->point = -1;
    w->f = iso_xstrndup(f ? f : "", f ? len : 0);
    w->value_edn = render_val(h, v, 0);
    w->value_json = render_val(h, v, 1);
    w->indet = (op->flags & LIN_INDET) != 0;
}

static void wop_release(struct lin_wop *w)
{
    iso_free(w->f);
    iso_free(w->value_edn);
    iso_free(w->value_json);
    iso_free(w->why);
}

struct replay {
    uint32_t *st, n;
    uint8_t *placed;
};

/* The prefix, replayed from the state it started at. */
static void build_prefix(struct lin_witness *w, const struct lin_search *s,
                         const isolde_history *h, const uint32_t *ids, struct replay *rp)
{
    const struct lin_input *in = s->in;
    int64_t point = -1;
    w->prefix = iso_xcalloc((size_t)s->n_best + 1, sizeof *w->prefix);
    for (uint32_t i = 0; i < s->n_best; i++) {
        const struct lin_op *op = &in->ops[ids[s->best[i]]];
        in->model->step(rp->st, &rp->n, op, in->aux);
        rp->placed[s->best[i]] = 1;
        struct lin_wop *wo = &w->prefix[w->n_prefix++];
        fill_wop(wo, h, op);
        if (wo->call_index > point) point = wo->call_index;
        wo->point = point;
    }
}

static uint32_t blocking_op(const struct lin_input *in, const uint32_t *ids, uint32_t n,
                            const uint8_t *placed)
{
    uint32_t best = ISO_NONE;
    for (uint32_t i = 0; i < n; i++) {
        const struct lin_op *op = &in->ops[ids[i]];
        if (placed[i] || (op->flags & LIN_INDET)) continue;
        if (best == ISO_NONE || op->ret < in->ops[ids[best]].ret) best = i;
    }
    return best;
}

static char *why_stuck(const struct lin_input *in, const isolde_history *h,
                       const struct replay *rp, const struct lin_op *op, const struct lin_wop *wo)
{
    uint32_t *st = iso_xmalloc(((size_t)rp->n + 2) * sizeof *st);
    uint32_t n = rp->n;
    memcpy(st, rp->st, (size_t)n * sizeof *st);
    int legal = in->model->step(st, &n, op, in->aux);
    iso_free(st);
    iso_buf b = {0};
    if (legal) {
        iso_buf_puts(&b, "legal next, but no order of the remaining ops works after it");
        return take(&b);
    }
    iso_buf_printf(&b, "cannot %s %s when the state is ", wo->f, wo->value_edn);
    lin_state_render(in, h, rp->st, rp->n, 0, &b);
    return take(&b);
}

/* Ops that were free to go next: called before the blocking op returned. */
static void build_stuck(struct lin_witness *w, const struct lin_input *in, const isolde_history *h,
                        const uint32_t *ids, uint32_t n, const struct replay *rp, uint32_t blk)
{
    uint64_t limit = in->ops[ids[blk]].ret;
    w->stuck = iso_xcalloc(MAX_STUCK, sizeof *w->stuck);
    for (uint32_t i = 0; i < n && w->n_stuck < MAX_STUCK; i++) {
        const struct lin_op *op = &in->ops[ids[i]];
        if (rp->placed[i] || op->call >= limit) continue;
        struct lin_wop *wo = &w->stuck[w->n_stuck++];
        fill_wop(wo, h, op);
        wo->why = why_stuck(in, h, rp, op, wo);
    }
    fill_wop(&w->blocking, h, &in->ops[ids[blk]]);
}

void lin_witness_build(struct lin_witness *w, const struct lin_search *s,
                       const isolde_history *h, const uint32_t *ids, uint32_t n,
                       const struct lin_set *from, uint32_t n_before, uint32_t part)
{
    const struct lin_input *in = s->in;
    const uint32_t *init = from->words + s->best_from;
    struct replay rp = {iso_xmalloc(((size_t)s->st_cap + 1) * sizeof *rp.st), init[0],
                        iso_xcalloc((size_t)n + 1, 1)};
    memset(w, 0, sizeof *w);
    memcpy(rp.st, init + 1, (size_t)init[0] * sizeof *rp.st);
    if (in->part_key) {
        w->key_edn = render_val(h, in->part_key[part], 0);
        w->key_json = render_val(h, in->part_key[part], 1);
    }
    w->init_edn = render_state(in, h, rp.st, rp.n, 0);
    w->init_json = render_state(in, h, rp.st, rp.n, 1);
    w->n_before = n_before;
    build_prefix(w, s, h, ids, &rp);
    w->state_edn = render_state(in, h, rp.st, rp.n, 0);
    w->state_json = render_state(in, h, rp.st, rp.n, 1);
    uint32_t blk = blocking_op(in, ids, n, rp.placed);
    if (blk != ISO_NONE) build_stuck(w, in, h, ids, n, &rp, blk);
    iso_free(rp.st);
    iso_free(rp.placed);
}

void lin_witness_release(struct lin_witness *w)
{
    for (size_t i = 0; i < w->n_prefix; i++) wop_release(&w->prefix[i]);
    for (size_t i = 0; i < w->n_stuck; i++) wop_release(&w->stuck[i]);
    wop_release(&w->blocking);
    iso_free(w->prefix);
    iso_free(w->stuck);
    iso_free(w->key_edn); iso_free(w->key_json);
    iso_free(w->init_edn); iso_free(w->init_json);
    iso_free(w->state_edn); iso_free(w->state_json);
    memset(w, 0, sizeof *w);
}
