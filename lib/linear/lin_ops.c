/*
 * linear/lin_ops.c -- turns a history into the search's operations.
 *
 * An invocation pairs with the next completion on the same (integer)
 * process. ok: the op took effect between the two. fail: it never happened
 * (dropped), except a failed CAS read as "returned false" (LIN_CAS_FALSE).
 * info, or no completion at all: it may take effect any time after the
 * invocation, or never (LIN_INDET); such reads constrain nothing and are
 * dropped. Reads, dequeues and set reads take their value from the
 * completion; other ops from the completion if it has one, else the
 * invocation. kv and porcupine-kv values are [key value] tuples (the
 * history folds Porcupine's :key field into one) and give one partition
 * per key. A multi-register transaction's micro-ops go to aux; an
 * indeterminate one's reads are unknown. Porcupine-kv strings get a text
 * record in aux, once per distinct value. Values are interned into dense
 * ids, nil first.
 */
#include <string.h>
#include "core/keys.h"
#include "linear/lin.h"

#define IDLE (ISO_NONE - 1)  /* a process with no open invocation */

struct build {
    struct lin_input *in;
    const isolde_history *h;
    isolde_error *err;
    iso_keys values, keys;     /* value -> dense id (nil first); kv key -> partition */
    uint32_t *open;            /* per process id (iso_op.process): its open op, or IDLE */
    uint32_t *part;            /* per op: partition, ISO_NONE = dropped */
    size_t cap_part;
    uint32_t *text;            /* porcupine-kv: value id -> text record, ISO_NONE */
    size_t cap_text;
    int cas_false;             /* a failed CAS ran and returned false */
};

static const struct { isolde_workload w; const char *f; uint8_t kind; } fnames[] = {
    {ISOLDE_WORKLOAD_REGISTER, "read", LIN_READ},
    {ISOLDE_WORKLOAD_REGISTER, "write", LIN_WRITE},
    {ISOLDE_WORKLOAD_CAS_REGISTER, "read", LIN_READ},
    {ISOLDE_WORKLOAD_CAS_REGISTER, "write", LIN_WRITE},
    {ISOLDE_WORKLOAD_CAS_REGISTER, "cas", LIN_CAS},
    {ISOLDE_WORKLOAD_KV, "read", LIN_READ},
    {ISOLDE_WORKLOAD_KV, "write", LIN_WRITE},
    {ISOLDE_WORKLOAD_KV, "cas", LIN_CAS},
    {ISOLDE_WORKLOAD_MUTEX, "acquire", LIN_ACQUIRE},
    {ISOLDE_WORKLOAD_MUTEX, "release", LIN_RELEASE},
    {ISOLDE_WORKLOAD_FIFO_QUEUE, "enqueue", LIN_ENQUEUE},
    {ISOLDE_WORKLOAD_FIFO_QUEUE, "dequeue", LIN_DEQUEUE},
    {ISOLDE_WORKLOAD_LIN_SET, "add", LIN_ADD},
    {ISOLDE_WORKLOAD_LIN_SET, "read", LIN_READ_SET},
    {ISOLDE_WORKLOAD_MULTI_REGISTER, "txn", LIN_TXN},
    {ISOLDE_WORKLOAD_PORCUPINE_KV, "get", LIN_READ},
    {ISOLDE_WORKLOAD_PORCUPINE_KV, "put", LIN_WRITE},
    {ISOLDE_WORKLOAD_PORCUPINE_KV, "append", LIN_APPEND},
};

static uint32_t intern(struct build *b, iso_val v) { return iso_keys_intern(&b->values, v); }

static int op_fail(struct build *b, uint32_t i, const char *what)
{
    const iso_op *op = &b->h->ops[i];
    iso_buf f = {0};
    iso_val_edn(&b->h->store, iso_op_f(b->h, op), &f);
    iso_fail(b->err, ISOLDE_ERR_PARSE, b->h->name, op->line, op->col, "%s (:f %s, model %s)",
             what, iso_buf_cstr(&f), b->in->model->name);
    iso_buf_free(&f);
    return -1;
}

static int kind_of(const struct build *b, iso_val f)
{
    size_t len;
    const char *text = iso_name_text(&b->h->store, f, &len);
    if (!text) return -1;
    for (size_t i = 0; i < sizeof fnames / sizeof fnames[0]; i++)
        if (fnames[i].w == b->in->model->workload && strlen(fnames[i].f) == len &&
            memcmp(fnames[i].f, text, len) == 0)
            return fnames[i].kind;
    return -1;
}

/* The two items of a [x y] tuple, or 0. */
static int pair(const iso_store *s, iso_val v, iso_val *x, iso_val *y)
{
    if (!iso_is_seq(v) || iso_seq_len(s, v) != 2) return 0;
    iso_val buf[3];
    const iso_val *it = iso_seq_items(s, v, buf);
    *x = it[0];
    *y = it[1];
    return 1;
}

static uint32_t key_part(struct build *b, iso_val key) { return iso_keys_intern(&b->keys, key); }

static int set_read_args(struct build *b, struct lin_op *op, iso_val v, uint32_t at)
{
    const iso_store *s = &b->h->store;
    struct lin_input *in = b->in;
    if (!iso_is_nil(v) && (!iso_is_seq(v) || iso_seq_kind(s, v) == ISO_SEQ_MAP))
        return op_fail(b, at, "a set read must be a collection");
    size_t n = iso_is_nil(v) ? 0 : iso_seq_len(s, v);
    op->a = (uint32_t)in->n_aux;
    op->b = (uint32_t)n;
    ISO_GROW(in->aux, in->cap_aux, in->n_aux + n);
    for (size_t i = 0; i < n; i++) {
        uint32_t id = intern(b, iso_seq_item(s, v, i));
        in->aux[in->n_aux++] = id;
    }
    return 0;
}

/* A micro-op's name: 1 write, 0 read, -1 neither (Knossos spells them
 * read and write; r and w as Elle does are taken too). */
static int mop_write(const iso_store *s, iso_val f)
{
    if (iso_name_is(s, f, "read") || iso_name_is(s, f, "r")) return 0;
    if (iso_name_is(s, f, "write") || iso_name_is(s, f, "w")) return 1;
    return -1;
}

/* A multi-register transaction: [f k v] micro-ops into aux. */
static int txn_args(struct build *b, struct lin_op *op, iso_val v, uint32_t at)
{
    const iso_store *s = &b->h->store;
    struct lin_input *in = b->in;
    if (!iso_is_seq(v) || iso_seq_kind(s, v) > ISO_SEQ_LIST)
        return op_fail(b, at, "a transaction must be a vector of [:read k v] / [:write k v]");
    size_t n = iso_seq_len(s, v);
    iso_val buf[3], xb[3];
    const iso_val *m = iso_seq_items(s, v, buf);
    int pure = 1;
    op->a = (uint32_t)in->n_aux;
    op->b = (uint32_t)n;
    ISO_GROW(in->aux, in->cap_aux, in->n_aux + 2 * n);
    for (size_t i = 0; i < n; i++) {
        size_t len = iso_is_seq(m[i]) ? iso_seq_len(s, m[i]) : 0;
        const iso_val *x = len ? iso_seq_items(s, m[i], xb) : NULL;
        int w = len == 2 || len == 3 ? mop_write(s, x[0]) : -1;
        if (w < 0 || (w && len != 3))
            return op_fail(b, at, "a micro-op must be [:read k v] or [:write k v]");
        uint32_t key = iso_keys_intern(&b->keys, x[1]);
        in->aux[in->n_aux++] = key << 1 | (uint32_t)w;
        in->aux[in->n_aux++] = !w && (op->flags & LIN_INDET) ? LIN_ANY : intern(b, len == 3 ? x[2] : ISO_NIL);
        pure &= !w;
    }
    op->flags |= pure ? LIN_PURE : 0;
    return 0;
}

uint32_t lin_text_record(struct lin_input *in, const char *p, size_t len)
{
    size_t words = (len + 3) / 4, off = in->n_aux;
    ISO_GROW(in->aux, in->cap_aux, off + 1 + words);
    in->aux[off] = (uint32_t)len;
    in->aux[off + words] = 0; /* the padding of the last word */
    memcpy(in->aux + off + 1, p, len);
    in->n_aux = off + 1 + words;
    return (uint32_t)off;
}

/* Porcupine-kv: a string, its value id and its text record. */
static int text_args(struct build *b, struct lin_op *op, iso_val v, uint32_t at)
{
    size_t len = 0;
    const char *p = iso_tag(v) == ISO_TAG_STR ? iso_atom_text(&b->h->store, v, &len) : NULL;
    if (!p) return op_fail(b, at, "a porcupine-kv value must be a string");
    op->a = intern(b, v);
    if (op->kind != LIN_READ) b->in->text_bytes += len; /* bounds what a state spells */
    if (op->a >= b->cap_text) {
        size_t old = b->cap_text;
        ISO_GROW(b->text, b->cap_text, (size_t)op->a + 1);
        for (size_t i = old; i < b->cap_text; i++) b->text[i] = ISO_NONE;
    }
    if (b->text[op->a] == ISO_NONE) b->text[op->a] = lin_text_record(b->in, p, len);
    op->b = b->text[op->a];
    return 0;
}

/* Fill op's arguments from value v (the model's part of the op's value). */
static int set_args(struct build *b, struct lin_op *op, iso_val v, uint32_t at)
{
    iso_val x, y;
    if (b->in->model->workload == ISOLDE_WORKLOAD_PORCUPINE_KV) return text_args(b, op, v, at);
    switch (op->kind) {
    case LIN_CAS:
        if (!pair(&b->h->store, v, &x, &y)) return op_fail(b, at, "a cas value must be [old new]");
        op->a = intern(b, x);
        op->b = intern(b, y);
        return 0;
    case LIN_READ_SET:
        return set_read_args(b, op, v, at);
    case LIN_TXN:
        return txn_args(b, op, v, at);
    case LIN_ACQUIRE: case LIN_RELEASE:
        return 0;
    case LIN_DEQUEUE:
        op->a = (op->flags & LIN_INDET) ? LIN_ANY : intern(b, v);
        return 0;
    default:
        op->a = intern(b, v);
        return 0;
    }
}

/* Which value carries the op's arguments: reads report what they saw. */
static iso_val op_value(const struct build *b, const struct lin_op *op, uint32_t cmp)
{
    const iso_op *c = cmp == ISO_NONE ? NULL : &b->h->ops[cmp];
    const iso_op *inv = &b->h->ops[op->inv];
    if (!c || c->type != ISO_OP_OK) return inv->value;
    int reads = op->kind == LIN_READ || op->kind == LIN_READ_SET || op->kind == LIN_DEQUEUE;
    return reads || !iso_is_nil(c->value) ? c->value : inv->value;
}

static int keyed(const struct lin_model *m)
{
    return m->workload == ISOLDE_WORKLOAD_KV || m->workload == ISOLDE_WORKLOAD_PORCUPINE_KV;
}

/* kv: split [key value]; the key comes from the invocation. */
static int kv_split(struct build *b, uint32_t k, iso_val *v, uint32_t at)
{
    iso_val key, rest, key2;
    const iso_op *inv = &b->h->ops[b->in->ops[k].inv];
    if (!pair(&b->h->store, inv->value, &key, &rest) || !pair(&b->h->store, *v, &key2, &rest))
        return op_fail(b, at, b->in->model->workload == ISOLDE_WORKLOAD_KV
                                  ? "a kv value must be [key value]"
                                  : "a porcupine-kv op needs a :key (or a [key value] value)");
    b->part[k] = key_part(b, key);
    *v = rest;
    return 0;
}

/* Settle lin op k with its completion cmp (ISO_NONE: never completed). */
static int finish(struct build *b, uint32_t k, uint32_t cmp)
{
    struct lin_op *op = &b->in->ops[k];
    int type = cmp == ISO_NONE ? ISO_OP_INFO : b->h->ops[cmp].type;
    uint32_t at = cmp == ISO_NONE ? op->inv : cmp;
    int is_read = op->kind == LIN_READ || op->kind == LIN_READ_SET;
    b->part[k] = 0;
    if (type == ISO_OP_FAIL && !(op->kind == LIN_CAS && b->cas_false)) {
        b->part[k] = ISO_NONE;
        return 0;
    }
    op->flags |= type == ISO_OP_FAIL ? LIN_CAS_FALSE : 0;
    op->cmp = cmp;
    if (type == ISO_OP_INFO) {
        op->flags |= LIN_INDET;
        op->ret = LIN_NEVER;
    } else {
        op->ret = cmp;
    }
    iso_val v = op_value(b, op, cmp);
    if (keyed(b->in->model) && kv_split(b, k, &v, at) < 0) return -1;
    if (type == ISO_OP_INFO && is_read) {
        b->part[k] = ISO_NONE;
        return 0;
    }
    if (set_args(b, op, v, at) < 0) return -1;
    /* an indeterminate transaction that only reads constrains nothing */
    if ((op->flags & LIN_PURE) && (op->flags & LIN_INDET)) b->part[k] = ISO_NONE;
    return 0;
}

/* The open op of a process (IDLE when none). */
static uint32_t *open_of(struct build *b, uint32_t process) { return &b->open[process]; }

static int on_invoke(struct build *b, uint32_t i)
{
    const iso_op *op = &b->h->ops[i];
    int kind = kind_of(b, iso_op_f(b->h, op));
    if (kind < 0) return op_fail(b, i, "operation unknown to the model");
    uint32_t *pend = open_of(b, op->process), prev = *pend;
    struct lin_input *in = b->in;
    uint32_t k = (uint32_t)in->n_ops;
    ISO_GROW(in->ops, in->cap_ops, in->n_ops + 1);
    ISO_GROW(b->part, b->cap_part, in->n_ops + 1);
    in->ops[in->n_ops++] = (struct lin_op){
        .call = i, .ret = LIN_NEVER, .inv = i, .cmp = ISO_NONE, .kind = (uint8_t)kind};
    *pend = k;
    /* an invocation while another is open: that one never completed */
    return prev == IDLE ? 0 : finish(b, prev, ISO_NONE);
}

static int on_complete(struct build *b, uint32_t i)
{
    uint32_t *pend = open_of(b, b->h->ops[i].process);
    if (*pend == IDLE) {
        *pend = IDLE;
        return op_fail(b, i, "completion without an invocation");
    }
    uint32_t k = *pend;
    *pend = IDLE;
    return finish(b, k, i);
}

static int finish_open(struct build *b)
{
    for (size_t i = 0; i < b->h->procs.n; i++)
        if (b->open[i] < IDLE && finish(b, b->open[i], ISO_NONE) < 0) return -1;
    return 0;
}

/* Replace each set read's element list by a bitset over value ids. */
static void set_bitsets(struct lin_input *in)
{
    uint32_t w = lin_set_width(in->n_values);
    size_t n_reads = 0, at = 0;
    for (size_t i = 0; i < in->n_ops; i++) n_reads += in->ops[i].kind == LIN_READ_SET;
    uint32_t *bits = iso_xcalloc(n_reads * w + 1, sizeof *bits);
    for (size_t i = 0; i < in->n_ops; i++) {
        struct lin_op *op = &in->ops[i];
        if (op->kind != LIN_READ_SET || (op->flags & LIN_INDET)) continue;
        for (uint32_t j = 0; j < op->b; j++) {
            uint32_t id = in->aux[op->a + j];
            bits[at + id / 32] |= (uint32_t)1 << (id % 32);
        }
        op->a = (uint32_t)at;
        op->b = w;
        at += w;
    }
    iso_free(in->aux);
    in->aux = bits;
    in->n_aux = in->cap_aux = n_reads * w + 1;
}

static int build_ops(struct build *b)
{
    const isolde_history *h = b->h;
    for (size_t i = 0; i < h->n_ops; i++) {
        if (!iso_op_is_client(&h->ops[i])) continue;
        int rc = h->ops[i].type == ISO_OP_INVOKE ? on_invoke(b, (uint32_t)i)
                                                 : on_complete(b, (uint32_t)i);
        if (rc < 0) return -1;
    }
    return finish_open(b);
}

enum lin_naming lin_naming_of(const isolde_history *h)
{
    if (!h->dense_index) return LIN_BY_INDEX;
    for (size_t i = 1; i < h->n_ops; i++)
        if (h->ops[i].line <= h->ops[i - 1].line) return LIN_BY_LINE_COL;
    return LIN_BY_LINE;
}

/* The interned values and keys become the input's tables; with the
 * initial states (which may add values the history lacks). */
static int adopt_tables(struct build *b, const char *initial)
{
    struct lin_input *in = b->in;
    int multi = in->model->workload == ISOLDE_WORKLOAD_MULTI_REGISTER;
    int rc = lin_init_build(in, b->h, initial, &b->values, &b->keys, b->err);
    if (multi) {
        in->reg_key = b->keys.vals;
        in->n_keys = (uint32_t)b->keys.n;
    } else {
        in->part_key = keyed(in->model) ? b->keys.vals : NULL;
        if (!keyed(in->model)) iso_free(b->keys.vals);
    }
    b->keys.vals = NULL;
    return rc;
}

int lin_input_build(struct lin_input *in, const isolde_history *h, const iso_checker_opts *co,
                    isolde_workload w, isolde_error *err)
{
    memset(in, 0, sizeof *in);
    in->model = lin_model_for(w);
    if (!in->model) return iso_fail(err, ISOLDE_ERR_USAGE, h->name, 0, 0, "not a linearizability workload");
    iso_store_init(&in->own);
    struct build b = {.in = in, .h = h, .err = err};
    b.cas_false = co->cas_fail ? strcmp(co->cas_fail, "false") == 0 : h->cas_fail_false;
    iso_keys_init(&b.values, &h->store);
    iso_keys_init(&b.keys, &h->store);
    b.open = iso_xmalloc((h->procs.n + 1) * sizeof *b.open);
    for (size_t i = 0; i <= h->procs.n; i++) b.open[i] = IDLE;
    intern(&b, ISO_NIL);
    int rc = build_ops(&b);
    in->n_parts = keyed(in->model) ? (uint32_t)b.keys.n : 1;
    if (rc == 0) rc = adopt_tables(&b, co->initial_value);
    if (rc == 0 && in->model->workload == ISOLDE_WORKLOAD_LIN_SET) set_bitsets(in);
    if (rc == 0) lin_input_partition(in, b.part, in->n_parts);
    iso_keys_free(&b.values);
    iso_keys_free(&b.keys);
    iso_free(b.open);
    iso_free(b.part);
    iso_free(b.text);
    if (rc < 0) lin_input_release(in);
    return rc;
}

void lin_input_partition(struct lin_input *in, const uint32_t *part, uint32_t n_parts)
{
    in->n_parts = n_parts;
    in->part_off = iso_xcalloc((size_t)n_parts + 1, sizeof *in->part_off);
    in->part_ops = iso_xmalloc((in->n_ops + 1) * sizeof *in->part_ops);
    for (size_t i = 0; i < in->n_ops; i++)
        if (part[i] != ISO_NONE) in->part_off[part[i] + 1]++;
    for (uint32_t p = 0; p < n_parts; p++) in->part_off[p + 1] += in->part_off[p];
    uint32_t *fill = iso_xmalloc(((size_t)n_parts + 1) * sizeof *fill);
    memcpy(fill, in->part_off, (size_t)n_parts * sizeof *fill);
    for (size_t i = 0; i < in->n_ops; i++)
        if (part[i] != ISO_NONE) in->part_ops[fill[part[i]]++] = (uint32_t)i;
    iso_free(fill);
}

void lin_input_release(struct lin_input *in)
{
    iso_free(in->ops);
    iso_free(in->aux);
    iso_free(in->values);
    iso_free(in->part_off);
    iso_free(in->part_ops);
    iso_free(in->part_key);
    iso_free(in->reg_key);
    iso_free(in->init);
    iso_free(in->init_off);
    iso_store_free(&in->own);
    memset(in, 0, sizeof *in);
}
