/*
 * linear/lin_report.c -- the witness of a non-linearizable partition.
 *
 * The witness is Knossos's "how far did we get": the last ops of the
 * earlier segments in an order that leads to the state the failing segment
 * began in (lin_split.c finds it), the longest linearizable prefix the
 * search found in the failing segment (with each op's interval and the
 * point it took effect), the state after it, the ops that could have gone
 * next and why none did, and the op that returned while still unplaced
 * with the state it met. The last LIN_SHOWN_OPS ops of the prefix (and the
 * earlier ops shown) carry the model's state before and after each, as the
 * model prints it, each cut at LIN_STATE_TEXT bytes: what a report holds
 * stays bounded however long the prefix. Everything is rendered to strings
 * when built, so the report outlives the history and the search.
 */
#include <string.h>
#include "linear/lin.h"

#define MAX_STUCK 64
#define MAX_SHOWN 16 /* earlier ops shown */

static char *take(iso_buf *b)
{
    char *s = iso_xstrdup(iso_buf_cstr(b));
    iso_buf_free(b);
    return s;
}

static char *render_val(const iso_store *s, iso_val v, int json)
{
    iso_buf b = {0};
    if (json) iso_val_json(s, v, &b);
    else iso_val_edn(s, v, &b);
    return take(&b);
}

static void put_value(const struct lin_input *in, const isolde_history *h, uint32_t id,
                      int json, iso_buf *out)
{
    if (id < in->n_values && in->values) {
        const iso_store *s = lin_value_store(in, h, id);
        if (json) iso_val_json(s, in->values[id], out);
        else iso_val_edn(s, in->values[id], out);
    } else {
        iso_buf_puts(out, json ? "null" : "?");
    }
}

/* The renderers of states that grow stop adding once out holds `stop`
 * bytes (SIZE_MAX: never), so that a state's text is cut cheaply. */

/* A multi-register state as a map {key value}. */
static void put_registers(const struct lin_input *in, const isolde_history *h, const uint32_t *st,
                          int json, size_t stop, iso_buf *out)
{
    iso_buf_puts(out, "{");
    for (uint32_t k = 0; k < in->n_keys && out->n < stop; k++) {
        if (k) iso_buf_puts(out, json ? "," : ", ");
        iso_val key = in->reg_key[k];
        if (!json) {
            iso_val_edn(&h->store, key, out);
        } else if (iso_tag(key) == ISO_TAG_STR) {
            iso_val_json(&h->store, key, out);
        } else { /* JSON object keys are strings */
            iso_buf t = {0};
            iso_val_json(&h->store, key, &t);
            iso_json_string(out, iso_buf_cstr(&t), t.n);
            iso_buf_free(&t);
        }
        iso_buf_puts(out, json ? ":" : " ");
        put_value(in, h, st[k], json, out);
    }
    iso_buf_puts(out, "}");
}

/* A porcupine-kv state: the string its pieces spell. */
static void put_text(const struct lin_input *in, const uint32_t *st, uint32_t n, size_t stop,
                     iso_buf *out)
{
    iso_buf t = {0};
    for (uint32_t i = 1; i < n && t.n < stop; i++) iso_buf_put(&t, (const char *)(in->aux + st[i] + 1), in->aux[st[i]]);
    iso_json_string(out, t.p ? t.p : "", t.n);
    iso_buf_free(&t);
}

/* Queued values or a set's members. */
static void put_collection(const struct lin_input *in, const isolde_history *h, const uint32_t *st,
                           uint32_t n, int json, size_t stop, iso_buf *out)
{
    int set = in->model->workload == ISOLDE_WORKLOAD_LIN_SET, first = 1;
    iso_buf_puts(out, json ? "[" : set ? "#{" : "[");
    for (uint32_t i = 0; i < (set ? n * 32 : n) && out->n < stop; i++) {
        if (set && !(st[i / 32] >> (i % 32) & 1)) continue;
        if (!first) iso_buf_puts(out, json ? "," : " ");
        put_value(in, h, set ? i : st[i], json, out);
        first = 0;
    }
    iso_buf_puts(out, json ? "]" : set ? "}" : "]");
}

static void render_upto(const struct lin_input *in, const isolde_history *h, const uint32_t *st,
                        uint32_t n, int json, size_t stop, iso_buf *out)
{
    switch (in->model->workload) {
    case ISOLDE_WORKLOAD_MUTEX:
        iso_buf_puts(out, json ? (st[0] ? "\"held\"" : "\"free\"") : (st[0] ? "held" : "free"));
        return;
    case ISOLDE_WORKLOAD_FIFO_QUEUE: case ISOLDE_WORKLOAD_LIN_SET:
        put_collection(in, h, st, n, json, stop, out);
        return;
    case ISOLDE_WORKLOAD_MULTI_REGISTER:
        put_registers(in, h, st, json, stop, out);
        return;
    case ISOLDE_WORKLOAD_PORCUPINE_KV:
        put_text(in, st, n, stop, out);
        return;
    default:
        put_value(in, h, st[0], json, out);
    }
}

void lin_state_render(const struct lin_input *in, const isolde_history *h,
                      const uint32_t *st, uint32_t n, int json, iso_buf *out)
{
    render_upto(in, h, st, n, json, SIZE_MAX, out);
}

static char *render_state(const struct lin_input *in, const isolde_history *h,
                          const uint32_t *st, uint32_t n, int json)
{
    iso_buf b = {0};
    lin_state_render(in, h, st, n, json, &b);
    return take(&b);
}

char *lin_state_text(const struct lin_input *in, const isolde_history *h,
                     const uint32_t *st, uint32_t n)
{
    iso_buf b = {0};
    render_upto(in, h, st, n, 0, LIN_STATE_TEXT + 1, &b);
    if (b.n > LIN_STATE_TEXT) {
        size_t cut = LIN_STATE_TEXT;
        while (cut && ((unsigned char)b.p[cut] & 0xC0) == 0x80) cut--; /* a UTF-8 character's start */
        b.n = cut;
        iso_buf_printf(&b, " ... (cut at %d bytes)", LIN_STATE_TEXT);
    }
    return take(&b);
}

static struct lin_pos pos_of(const iso_op *op)
{
    return (struct lin_pos){op->index, op->line, op->col};
}

/* What a failed cas means when read as one that returned false. */
static char *cas_false_note(const struct lin_input *in, const isolde_history *h, const struct lin_op *op)
{
    iso_buf b = {0};
    iso_buf_puts(&b, "a failed cas, read as one that returned false: the register did not hold ");
    put_value(in, h, op->a, 0, &b);
    return take(&b);
}

static void fill_wop(struct lin_wop *w, const struct lin_input *in, const isolde_history *h,
                     const struct lin_op *op)
{
    const iso_op *inv = &h->ops[op->inv];
    const iso_op *cmp = op->cmp == ISO_NONE ? NULL : &h->ops[op->cmp];
    iso_val v = cmp && cmp->type == ISO_OP_OK && !iso_is_nil(cmp->value) ? cmp->value : inv->value;
    size_t len = 0;
    const char *f = iso_name_text(&h->store, iso_op_f(h, inv), &len); /* known names only */
    memset(w, 0, sizeof *w);
    if (!iso_val_int64(&h->store, iso_op_process(h, inv), &w->process)) w->process = -1; /* past 64 bits */
    w->call = pos_of(inv);
    w->call_time = inv->time;
    w->ret = cmp ? pos_of(cmp) : (struct lin_pos){-1, 0, 0};
    w->ret_time = cmp ? cmp->time : -1;
    w->ret_type = cmp ? cmp->type : -1;
    w->point = (struct lin_pos){-1, 0, 0};
    w->f = iso_xstrndup(f ? f : "", f ? len : 0);
    if (op->kind != LIN_ACQUIRE && op->kind != LIN_RELEASE) {
        w->value_edn = render_val(&h->store, v, 0);
        w->value_json = render_val(&h->store, v, 1);
    }
    if (op->flags & LIN_CAS_FALSE) w->note = cas_false_note(in, h, op);
    w->indet = (op->flags & LIN_INDET) != 0;
}

static void wop_release(struct lin_wop *w)
{
    iso_free(w->f);
    iso_free(w->value_edn);
    iso_free(w->value_json);
    iso_free(w->note);
    iso_free(w->why);
    iso_free(w->state_before);
    iso_free(w->state_after);
}

struct replay {
    uint32_t *st, n;
    uint8_t *placed;
};

/* ops[0..n) (op ids) as witness ops in the order they linearize, stepped
 * from rp's state; each took effect after the latest call so far. Those
 * from `from` on get the states before and after them. */
static void add_wops(struct lin_wop *out, size_t *n_out, const struct lin_input *in,
                     const isolde_history *h, const uint32_t *ops, uint32_t n, uint32_t from,
                     struct replay *rp)
{
    struct lin_pos point = {-1, 0, 0};
    uint64_t latest = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct lin_op *op = &in->ops[ops[i]];
        struct lin_wop *wo = &out[(*n_out)++];
        fill_wop(wo, in, h, op);
        if (i >= from)
            wo->state_before = i > from ? iso_xstrdup(wo[-1].state_after)
                                        : lin_state_text(in, h, rp->st, rp->n);
        in->model->step(rp->st, &rp->n, op, in->aux);
        if (i >= from) wo->state_after = lin_state_text(in, h, rp->st, rp->n);
        if (i == 0 || op->call > latest) {
            latest = op->call;
            point = wo->call;
        }
        wo->point = point;
    }
}

/* The prefix, replayed from the state it started at. */
static void build_prefix(struct lin_witness *w, const struct lin_search *s,
                         const isolde_history *h, const uint32_t *ids, struct replay *rp)
{
    uint32_t *ops = iso_xmalloc(((size_t)s->n_best + 1) * sizeof *ops);
    for (uint32_t i = 0; i < s->n_best; i++) {
        ops[i] = ids[s->best[i]];
        rp->placed[s->best[i]] = 1;
    }
    w->prefix = iso_xcalloc((size_t)s->n_best + 1, sizeof *w->prefix);
    w->states_from = s->n_best > LIN_SHOWN_OPS ? s->n_best - LIN_SHOWN_OPS : 0;
    add_wops(w->prefix, &w->n_prefix, s->in, h, ops, s->n_best, (uint32_t)w->states_from, rp);
    iso_free(ops);
}

void lin_witness_before(struct lin_witness *w, const struct lin_input *in, const isolde_history *h,
                        const uint32_t *ops, uint32_t n, const uint32_t *st, uint32_t n_st)
{
    uint32_t skip = n > MAX_SHOWN ? n - MAX_SHOWN : 0;
    struct replay rp = {iso_xmalloc(((size_t)n_st + n + in->n_keys + 2) * sizeof *rp.st), n_st, NULL};
    memcpy(rp.st, st, (size_t)n_st * sizeof *st);
    for (uint32_t i = 0; i < skip; i++) in->model->step(rp.st, &rp.n, &in->ops[ops[i]], in->aux);
    w->before_edn = render_state(in, h, rp.st, rp.n, 0);
    w->before_json = render_state(in, h, rp.st, rp.n, 1);
    w->before = iso_xcalloc((size_t)(n - skip) + 1, sizeof *w->before);
    add_wops(w->before, &w->n_shown, in, h, ops + skip, n - skip, 0, &rp);
    iso_free(rp.st);
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
    uint32_t *st = iso_xmalloc(((size_t)rp->n + in->n_keys + 2) * sizeof *st);
    uint32_t n = rp->n;
    memcpy(st, rp->st, (size_t)n * sizeof *st);
    int legal = in->model->step(st, &n, op, in->aux);
    iso_free(st);
    iso_buf b = {0};
    if (legal) {
        iso_buf_puts(&b, "legal next, but no order of the remaining ops works after it");
        return take(&b);
    }
    if (op->flags & LIN_CAS_FALSE) {
        iso_buf_puts(&b, "it failed, so it ran while the register did not hold ");
        put_value(in, h, op->a, 0, &b);
        iso_buf_puts(&b, "; but the state is ");
    } else if (op->kind == LIN_TXN) {
        iso_buf_puts(&b, "cannot run when the state is ");
    } else if (wo->value_edn) {
        iso_buf_printf(&b, "cannot %s %s when the state is ", wo->f, wo->value_edn);
    } else {
        iso_buf_printf(&b, "cannot %s when the state is ", wo->f);
    }
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
        fill_wop(wo, in, h, op);
        wo->why = why_stuck(in, h, rp, op, wo);
    }
    fill_wop(&w->blocking, in, h, &in->ops[ids[blk]]);
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
        w->key_edn = render_val(&h->store, in->part_key[part], 0);
        w->key_json = render_val(&h->store, in->part_key[part], 1);
    }
    w->init_edn = render_state(in, h, rp.st, rp.n, 0);
    w->init_json = render_state(in, h, rp.st, rp.n, 1);
    w->n_before = n_before;
    build_prefix(w, s, h, ids, &rp);
    w->state_edn = render_state(in, h, rp.st, rp.n, 0);
    w->state_json = render_state(in, h, rp.st, rp.n, 1);
    w->state_met = lin_state_text(in, h, rp.st, rp.n);
    uint32_t blk = blocking_op(in, ids, n, rp.placed);
    if (blk != ISO_NONE) build_stuck(w, in, h, ids, n, &rp, blk);
    iso_free(rp.st);
    iso_free(rp.placed);
}

static void wops_release(struct lin_wop *w, size_t n)
{
    for (size_t i = 0; i < n; i++) wop_release(&w[i]);
    iso_free(w);
}

void lin_witness_release(struct lin_witness *w)
{
    wops_release(w->before, w->n_shown);
    wops_release(w->prefix, w->n_prefix);
    wops_release(w->stuck, w->n_stuck);
    wop_release(&w->blocking);
    iso_free(w->key_edn); iso_free(w->key_json);
    iso_free(w->init_edn); iso_free(w->init_json);
    iso_free(w->state_edn); iso_free(w->state_json);
    iso_free(w->before_edn); iso_free(w->before_json);
    iso_free(w->state_met);
    memset(w, 0, sizeof *w);
}
