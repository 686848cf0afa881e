/*
 * history/write.c -- a history written in a format: Elle's JSON lines,
 * elle-cli's JSON array and Jepsen's EDN (every op as read, one a line),
 * and the research checkers' Plume text and dbcop bincode (its client
 * transactions as sessions of register reads and writes). What a format
 * cannot hold is refused, naming the op and what it is, never dropped or
 * guessed at: an unknown outcome (info) or a micro-op other than a read or
 * write of an integer register (list-append's appends, reads of lists) in
 * Plume or dbcop, a value of 0 there (every key's initial value). Ops of
 * no client (a nemesis's) are left out of those two: no checker reads
 * them. Real time is not kept there (the formats have none;
 * docs/FORMATS.md). Invariant: nothing is written before all of the
 * history has been found expressible.
 */
#include "history/read.h"
#include "history/txn.h"
#include "core/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLUSH ((size_t)1 << 20)

/* ---- bytes out ---------------------------------------------------------- */

struct out {
    FILE *f;
    iso_buf b;
    const char *name; /* the history's, for messages */
    isolde_error *err;
};

static int flush(struct out *o, int force)
{
    if (o->b.n < FLUSH && !force) return 0;
    size_t n = o->b.n;
    o->b.n = 0;
    if (n && fwrite(o->b.p, 1, n, o->f) != n)
        return iso_fail(o->err, ISOLDE_ERR_IO, "", 0, 0, "cannot write the converted history of %s", o->name);
    return force && fflush(o->f) ? iso_fail(o->err, ISOLDE_ERR_IO, "", 0, 0, "cannot write the converted history of %s", o->name) : 0;
}

static void u64le(iso_buf *b, uint64_t v)
{
    char x[8];
    for (int i = 0; i < 8; i++) x[i] = (char)(v >> (8 * i));
    iso_buf_put(b, x, 8);
}

static void str_le(iso_buf *b, const char *s)
{
    u64le(b, strlen(s));
    iso_buf_puts(b, s);
}

/* ---- ops as they are ---------------------------------------------------- */

static int write_ops(const isolde_history *h, isolde_format f, struct out *o)
{
    int json = f != ISOLDE_FORMAT_EDN, array = f == ISOLDE_FORMAT_JSON;
    if (array) iso_buf_puts(&o->b, "[");
    for (size_t i = 0; i < h->n_ops; i++) {
        if (array && i) iso_buf_puts(&o->b, ",");
        (json ? iso_op_json : iso_op_edn)(h, &h->ops[i], &o->b);
        iso_buf_puts(&o->b, "\n");
        if (flush(o, 0)) return -1;
    }
    if (array) iso_buf_puts(&o->b, "]\n");
    return flush(o, 1);
}

/* ---- sessions of register transactions ---------------------------------- */

struct ev {
    uint64_t key, value; /* value 0: the initial state */
    uint8_t write;
};

struct tx {
    uint32_t session;
    size_t first, n;     /* its events: evs[first, first + n) */
    uint8_t ok;
};

struct regs {
    const isolde_history *h;
    const char *target;  /* the format's words, for messages */
    struct ev *evs;
    size_t n_evs, cap_evs;
    struct tx *txs;
    size_t n_txs, cap_txs;
    uint32_t *session;   /* a process id -> its session + 1 (0: none yet) */
    uint32_t n_sessions;
    isolde_error *err;
};

static int refuse(struct regs *r, const iso_op *op, const char *what)
{
    return iso_fail(r->err, ISOLDE_ERR_USAGE, r->h->name, op->line, op->col, "%s cannot hold this op: %s",
                    r->target, what);
}

/* A key or value of a micro-op as a number of the format: an integer of
 * at least 0 (a value, more than 0) that fits in 63 bits. */
static int number(struct regs *r, const iso_op *op, iso_val v, int value, uint64_t *out)
{
    int64_t x;
    if (!iso_is_integer(v) || !iso_val_int64(&r->h->store, v, &x) || x < 0)
        return refuse(r, op, value ? "a value that is no integer of 0 or more (its values are such integers)"
                                   : "a key that is no integer of 0 or more (its keys are such integers)");
    if (value && x == 0) return refuse(r, op, "a value of 0, which is every key's initial value there");
    *out = (uint64_t)x;
    return 0;
}

/* One micro-op [f k v] of op's value. */
static int micro_op(struct regs *r, const iso_op *op, iso_val m)
{
    const iso_store *s = &r->h->store;
    iso_val buf[3];
    if (!iso_is_seq(m) || iso_seq_len(s, m) != 3) return refuse(r, op, "a micro-op that is not [f key value]");
    const iso_val *x = iso_seq_items(s, m, buf);
    struct ev e = {0, 0, 0};
    e.write = iso_name_is(s, x[0], "w") != 0;
    if (!e.write && !iso_name_is(s, x[0], "r"))
        return refuse(r, op, "a micro-op other than r or w (it holds reads and writes of registers)");
    if (number(r, op, x[1], 0, &e.key)) return -1;
    if ((e.write || !iso_is_nil(x[2])) && number(r, op, x[2], 1, &e.value)) return -1;
    ISO_PUSH(r->evs, r->n_evs, r->cap_evs, e);
    return 0;
}

static uint32_t session_of(struct regs *r, const iso_op *op)
{
    if (!r->session[op->process]) r->session[op->process] = ++r->n_sessions;
    return r->session[op->process] - 1;
}

/* A transaction of the history: its value's micro-ops as events. */
static int transaction(struct regs *r, const iso_txn *t)
{
    const isolde_history *h = r->h;
    const iso_op *op = iso_txn_op(h, t);
    iso_val v = op->value;
    if (t->type == ISO_OP_INFO)
        return refuse(r, op, "a transaction whose outcome is unknown (info): it holds committed and aborted ones");
    if (iso_is_nil(v) && t->inv != ISO_NONE) v = h->ops[t->inv].value; /* a fail that says no value */
    if (!iso_is_seq(v) || iso_seq_kind(&h->store, v) > ISO_SEQ_LIST)
        return refuse(r, op, "a value that is no transaction (a vector of micro-ops)");
    struct tx x = {session_of(r, op), r->n_evs, 0, t->type == ISO_OP_OK};
    size_t n = iso_seq_len(&h->store, v);
    iso_val buf[3];
    const iso_val *m = iso_seq_items(&h->store, v, buf);
    for (size_t i = 0; i < n; i++)
        if (micro_op(r, op, m[i])) return -1;
    x.n = r->n_evs - x.first;
    ISO_PUSH(r->txs, r->n_txs, r->cap_txs, x);
    return 0;
}

/* Every client transaction, or -1 at the first a format cannot hold. */
static int collect(struct regs *r)
{
    iso_txns t = {0};
    if (iso_txns_pair(r->h, 1, &t, r->err)) return -1;
    r->session = iso_xcalloc(r->h->procs.n + 1, sizeof *r->session);
    int rc = 0;
    for (size_t i = 0; i < t.n && !rc; i++) rc = transaction(r, &t.t[i]);
    iso_txns_free(&t);
    return rc;
}

/* The transactions in session order: of session 0, then 1, ... each in
 * history order (a counting sort); *at[s] where session s's begin. */
static uint32_t *by_session(const struct regs *r, size_t **at)
{
    *at = iso_xcalloc(r->n_sessions + 2, sizeof **at);
    uint32_t *order = iso_xmalloc((r->n_txs + 1) * sizeof *order);
    size_t *next = *at;
    for (size_t i = 0; i < r->n_txs; i++) next[r->txs[i].session + 2]++;
    for (size_t s = 0; s <= r->n_sessions; s++) next[s + 1] += next[s];
    for (size_t i = 0; i < r->n_txs; i++) order[next[r->txs[i].session + 1]++] = (uint32_t)i;
    return order; /* next[s + 1] moved to where session s ends: (*at)[s] is where it begins */
}

static int write_plume(struct regs *r, struct out *o)
{
    size_t *at;
    uint32_t *order = by_session(r, &at);
    uint64_t id = 0;
    int rc = 0;
    for (uint32_t s = 0; s < r->n_sessions && !rc; s++)
        for (size_t i = at[s]; i < at[s + 1] && !rc; i++) {
            const struct tx *x = &r->txs[order[i]];
            for (size_t j = 0; j < x->n; j++) {
                const struct ev *e = &r->evs[x->first + j];
                if (!x->ok && !e->write) continue; /* an aborted transaction's reads: nothing read them */
                iso_buf_printf(&o->b, "%c(%llu,%llu,%u,", e->write ? 'w' : 'r', (unsigned long long)e->key,
                               (unsigned long long)e->value, s);
                iso_buf_printf(&o->b, x->ok ? "%llu)\n" : "-1)\n", (unsigned long long)id);
            }
            id += x->ok;
            rc = flush(o, 0);
        }
    iso_free(order);
    iso_free(at);
    return rc ? rc : flush(o, 1);
}

/* dbcop's header: the parameters (the variables counted), info, times
 * (fixed: the same history converts to the same bytes). */
static void dbcop_header(const struct regs *r, iso_buf *b)
{
    uint64_t *keys = iso_xmalloc((r->n_evs + 1) * sizeof *keys), vars = 0;
    for (size_t i = 0; i < r->n_evs; i++) keys[i] = r->evs[i].key;
    qsort(keys, r->n_evs, sizeof *keys, iso_cmp_u64);
    for (size_t i = 0; i < r->n_evs; i++) vars += !i || keys[i] != keys[i - 1];
    iso_free(keys);
    const uint64_t params[5] = {0, r->n_sessions, vars, r->n_txs, r->n_evs};
    for (int i = 0; i < 5; i++) u64le(b, params[i]);
    str_le(b, "converted by isolde");
    str_le(b, "1970-01-01T00:00:00+00:00");
    str_le(b, "1970-01-01T00:00:00+00:00");
}

static int write_dbcop(struct regs *r, struct out *o)
{
    size_t *at;
    uint32_t *order = by_session(r, &at);
    int rc = 0;
    dbcop_header(r, &o->b);
    u64le(&o->b, r->n_sessions);
    for (uint32_t s = 0; s < r->n_sessions && !rc; s++) {
        u64le(&o->b, at[s + 1] - at[s]);
        for (size_t i = at[s]; i < at[s + 1] && !rc; i++) {
            const struct tx *x = &r->txs[order[i]];
            u64le(&o->b, x->n);
            for (size_t j = 0; j < x->n; j++) {
                const struct ev *e = &r->evs[x->first + j];
                iso_buf_put(&o->b, e->write ? "\1" : "\0", 1);
                u64le(&o->b, e->key);
                u64le(&o->b, e->value);
                iso_buf_put(&o->b, "\1", 1);
            }
            iso_buf_put(&o->b, x->ok ? "\1" : "\0", 1);
            rc = flush(o, 0);
        }
    }
    iso_free(order);
    iso_free(at);
    return rc ? rc : flush(o, 1);
}

static int write_regs(const isolde_history *h, isolde_format f, struct out *o)
{
    struct regs r = {h, f == ISOLDE_FORMAT_PLUME ? "Plume's text" : "dbcop's bincode", NULL, 0, 0, NULL, 0, 0,
                     NULL, 0, o->err};
    int rc = collect(&r);
    if (!rc) rc = f == ISOLDE_FORMAT_PLUME ? write_plume(&r, o) : write_dbcop(&r, o);
    iso_free(r.evs);
    iso_free(r.txs);
    iso_free(r.session);
    return rc;
}

/* ---- the public call --------------------------------------------------------- */

struct write_call {
    const isolde_history *h;
    isolde_format f;
    FILE *out;
};

static int write_history(void *arg, isolde_error *err)
{
    struct write_call *c = arg;
    struct out o = {c->out, {0}, c->h->name, err};
    int rc;
    switch (c->f) {
    case ISOLDE_FORMAT_EDN:
    case ISOLDE_FORMAT_JSON:
    case ISOLDE_FORMAT_JSONL: rc = write_ops(c->h, c->f, &o); break;
    case ISOLDE_FORMAT_PLUME:
    case ISOLDE_FORMAT_DBCOP: rc = write_regs(c->h, c->f, &o); break;
    default:
        rc = iso_fail(err, ISOLDE_ERR_USAGE, "", 0, 0,
                      "isolde writes edn, json, jsonl, plume and dbcop, not %s", isolde_format_name(c->f));
    }
    iso_buf_free(&o.b);
    return rc;
}

isolde_status isolde_history_write(const isolde_history *h, isolde_format f, FILE *out, isolde_error *err)
{
    struct write_call c = {h, f, out};
    return iso_call(write_history, &c, err);
}
