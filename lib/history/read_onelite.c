/*
 * history/read_onelite.c -- OneLite JSON lines: a {"history": "list-append" |
 * "register"} header, then one completed transaction per line:
 *   {"id":7,"p":2,"t0":100,"t1":250,"o":"ok","m":[["a",3,41],["r",3,[41]]]}
 *
 * Each line becomes an invocation (at t0) and a completion (at t1, type
 * from "o"), both carrying m with micro-op "a" renamed "append" (and, in
 * register histories, reads of 0 -- the initial value -- made nil). The
 * history order is the time order of all these events, invocations before
 * completions at equal times so that touching intervals stay concurrent.
 */
#include "history/read_json.h"
#include "history/read.h"

#include <stdlib.h>
#include <string.h>

struct ol_txn {
    int64_t t0, t1;
    iso_val p, m;
    uint32_t line, col;
    uint8_t type;
};

struct ol_event {
    int64_t time;
    uint32_t txn;
    uint8_t completion;
};

struct ol {
    iso_rd rd;
    struct ol_txn *txns;
    size_t n_txns, cap_txns;
    iso_val s_a, s_append, s_r; /* the strings "a", "append", "r" */
    int reg;                    /* register history: read 0 = nil */
};

static iso_val str(isolde_history *h, const char *s)
{
    return iso_atom(&h->store, ISO_TAG_STR, s, strlen(s));
}

static int header(struct ol *o, iso_val v, uint32_t line, uint32_t col)
{
    isolde_history *h = o->rd.h;
    int found;
    iso_val w = iso_map_get(&h->store, v, "history", &found);
    size_t n = 0;
    const char *name = found && iso_tag(w) == ISO_TAG_STR ? iso_atom_text(&h->store, w, &n) : "";
    if (strcmp(name, "list-append") == 0) h->workload_hint = ISOLDE_WORKLOAD_LIST_APPEND;
    else if (strcmp(name, "register") == 0 || strcmp(name, "rw-register") == 0)
        h->workload_hint = ISOLDE_WORKLOAD_RW_REGISTER;
    else
        return iso_rd_fail_at(&o->rd, line, col,
                              "expected a header {\"history\": \"list-append\" or \"register\"}");
    o->reg = h->workload_hint == ISOLDE_WORKLOAD_RW_REGISTER;
    iso_rd_drop(&o->rd, v);
    return 0;
}

/* An integer field of a transaction line (*x its value); with out, one
 * that fits in 64 bits, there. */
static int int_field(struct ol *o, iso_val v, const char *key, iso_val *x, int64_t *out, struct ol_txn *t)
{
    int found;
    *x = iso_map_get(o->rd.store, v, key, &found);
    if (!found || !iso_is_integer(*x))
        return iso_rd_fail_at(&o->rd, t->line, t->col, "\"%s\" must be an integer", key);
    if (out && !iso_val_int64(o->rd.store, *x, out))
        return iso_rd_fail_at(&o->rd, t->line, t->col, "\"%s\" does not fit in 64 bits (at most %lld)", key,
                              (long long)INT64_MAX);
    return 0;
}

/* Rename "a" to "append"; in register histories a read of 0 is nil. The
 * general parser reads OneLite's lines, and it packs no micro-op (mop.h):
 * each is a stored vector, changed in place. */
static int normalise(struct ol *o, struct ol_txn *t)
{
    iso_store *s = o->rd.store;
    if (!iso_is_seq(t->m) || iso_seq_kind(s, t->m) != ISO_SEQ_VEC) goto bad;
    size_t n = iso_seq_len(s, t->m);
    for (size_t i = 0; i < n; i++) {
        iso_val mop = iso_seq_item(s, t->m, i);
        if (iso_tag(mop) != ISO_TAG_SEQ || iso_seq_kind(s, mop) != ISO_SEQ_VEC || iso_seq_len(s, mop) != 3)
            goto bad;
        iso_val *w = s->words + iso_payload(mop) + 1;
        if (w[0] == o->s_a) w[0] = o->s_append;
        if (o->reg && w[0] == o->s_r && w[2] == iso_int(0)) w[2] = ISO_NIL;
    }
    return 0;
bad:
    return iso_rd_fail_at(&o->rd, t->line, t->col, "\"m\" must be an array of micro-ops [f, k, v]");
}

static int txn_line(struct ol *o, iso_val v, uint32_t line, uint32_t col)
{
    iso_store *s = o->rd.store;
    struct ol_txn t = {.line = line, .col = col};
    int found, found_m;
    if (!iso_is_seq(v) || iso_seq_kind(s, v) != ISO_SEQ_MAP)
        return iso_rd_fail_at(&o->rd, line, col, "expected a transaction object");
    iso_val x;
    if (int_field(o, v, "p", &t.p, NULL, &t) || int_field(o, v, "t0", &x, &t.t0, &t) ||
        int_field(o, v, "t1", &x, &t.t1, &t))
        return -1;
    if (t.t1 < t.t0) return iso_rd_fail_at(&o->rd, line, col, "\"t1\" is before \"t0\"");
    iso_val out = iso_map_get(s, v, "o", &found);
    t.m = iso_map_get(s, v, "m", &found_m);
    size_t n = 0;
    const char *os = found && iso_tag(out) == ISO_TAG_STR ? iso_atom_text(s, out, &n) : "";
    t.type = strcmp(os, "ok") == 0 ? ISO_OP_OK : strcmp(os, "fail") == 0 ? ISO_OP_FAIL
           : strcmp(os, "info") == 0 ? ISO_OP_INFO : ISO_OP_INVOKE;
    if (t.type == ISO_OP_INVOKE)
        return iso_rd_fail_at(&o->rd, line, col, "\"o\" must be one of ok, fail, info");
    if (!found_m || normalise(o, &t) != 0)
        return found_m ? -1 : iso_rd_fail_at(&o->rd, line, col, "\"m\" missing");
    iso_rd_drop(&o->rd, v);
    iso_rd_consumed(&o->rd);
    if (2 * (o->n_txns + 1) > ISO_MAX_OPS)
        return iso_rd_limit(&o->rd, line, col, "more than %zu transactions (2 ops each: at most %zu ops)",
                            ISO_MAX_OPS / 2, ISO_MAX_OPS);
    ISO_PUSH(o->txns, o->n_txns, o->cap_txns, t);
    return 0;
}

static int cmp_event(const void *a, const void *b)
{
    const struct ol_event *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    if (x->completion != y->completion) return x->completion < y->completion ? -1 : 1;
    return x->txn < y->txn ? -1 : x->txn > y->txn;
}

/* Sort the 2n events by time and add them as ops with dense indices. */
static void emit(struct ol *o)
{
    isolde_history *h = o->rd.h;
    struct ol_event *ev = iso_xmalloc((2 * o->n_txns + 1) * sizeof *ev);
    for (size_t i = 0; i < o->n_txns; i++) {
        ev[2 * i] = (struct ol_event){o->txns[i].t0, (uint32_t)i, 0};
        ev[2 * i + 1] = (struct ol_event){o->txns[i].t1, (uint32_t)i, 1};
    }
    qsort(ev, 2 * o->n_txns, sizeof *ev, cmp_event);
    h->dense_index = 1;
    for (size_t i = 0; i < 2 * o->n_txns; i++) {
        const struct ol_txn *t = &o->txns[ev[i].txn];
        iso_op op = {.index = (int64_t)h->n_ops, .time = ev[i].time, .value = t->m, .line = t->line,
                     .col = t->col, .type = ev[i].completion ? t->type : ISO_OP_INVOKE};
        iso_history_add_op(h, &op, t->p, ISO_NIL, ISO_NIL, NULL); /* (txn_line kept it within ISO_MAX_OPS) */
    }
    iso_free(ev);
}

static int read_lines(struct ol *o)
{
    iso_rd *rd = &o->rd;
    for (int first = 1;; first = 0) {
        iso_json_skip(rd, 0);
        if (iso_rd_eof(rd))
            return first ? iso_rd_fail(rd, "empty OneLite history (no header)") : 0;
        uint32_t line = iso_rd_u32(rd->line), col = iso_rd_u32((size_t)iso_rd_col(rd));
        iso_val v;
        if (iso_json_value(rd, &v) != 0) return -1;
        if ((first ? header(o, v, line, col) : txn_line(o, v, line, col)) != 0) return -1;
    }
}

int iso_read_onelite(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    struct ol o = {0};
    iso_rd_init(&o.rd, h, buf, len, err);
    o.s_a = str(h, "a");
    o.s_append = str(h, "append");
    o.s_r = str(h, "r");
    int r = read_lines(&o);
    if (r == 0) emit(&o);
    iso_free(o.txns);
    iso_rd_release(&o.rd);
    return r;
}
