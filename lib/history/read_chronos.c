/*
 * history/read_chronos.c -- the JSON histories of Chronos and Aion (the
 * TimeKiller checker: timestamp-based checking of snapshot isolation and
 * serializability): one JSON array of committed
 * transactions,
 *   {"sid": S, "tid": T, "sts": {"p": P, "l": L}, "cts": {"p": P, "l": L},
 *    "ops": [{"t": "r" | "w" | "read" | "write", "k": KEY, "v": VALUE}, ...]}
 * sts and cts are hybrid logical clocks (P physical, a number or a string
 * of digits; L logical), the transaction's start and commit timestamps.
 * A session is a process; each op's time is P * 65536 + L, so that the
 * timestamps are kept in the history (the commit order they give is the
 * database's version order, evidence as --transaction-order is), and the
 * ops are laid out by them (sessions.c): real time is the timestamps'
 * order, a commit before a start at the same time. A session's
 * transactions must not overlap (TimeKiller's SESSION violation): one
 * process cannot run two at once, so that is an error. A read of null or of 0 reads the initial state (TimeKiller's
 * --initial_value; its examples use 0), so a write of 0 is an error.
 * Invariant: each transaction is checked whole, at its position, before
 * the next is read.
 */
#include "history/read.h"
#include "history/read_json.h"
#include "history/sessions.h"

#include <string.h>

#define L_BITS 16
#define P_MAX (((int64_t)1 << (62 - L_BITS)) - 1)

struct cr {
    iso_rd rd;
    iso_sess s;
    uint32_t line, col; /* the transaction being read */
    struct cr_last { int64_t t1; uint32_t line; } *last; /* a session's last commit and its line */
    size_t cap_last;
};

/* A session's transactions must not overlap: each starts at or after the
 * commit of the one before it (else it could not be one process's). */
static int in_order(struct cr *c, uint32_t session, int64_t t0, int64_t t1)
{
    size_t old = c->cap_last;
    ISO_GROW(c->last, c->cap_last, (size_t)session + 1);
    for (size_t i = old; i < c->cap_last; i++) c->last[i] = (struct cr_last){-1, 0};
    struct cr_last *l = &c->last[session];
    if (t0 < l->t1)
        return iso_rd_fail_at(&c->rd, c->line, c->col,
                              "it starts before its session's transaction at line %lu committed (Chronos calls that "
                              "a SESSION violation): a session's transactions cannot overlap",
                              (unsigned long)l->line);
    *l = (struct cr_last){t1, c->line};
    return 0;
}

static int bad(struct cr *c, const char *what)
{
    return iso_rd_fail_at(&c->rd, c->line, c->col, "%s", what);
}

/* A non-negative integer field (a number, or with digits_ok a string of
 * digits) of at most max. */
static int number(struct cr *c, iso_val map, const char *key, int digits_ok, int64_t max, int64_t *out)
{
    const iso_store *st = c->rd.store;
    int found;
    iso_val v = iso_map_get(st, map, key, &found);
    size_t n = 0;
    const char *text = digits_ok && iso_tag(v) == ISO_TAG_STR ? iso_atom_text(st, v, &n) : NULL;
    int64_t x = -1;
    if (text && n && n <= 18 && strspn(text, "0123456789") == n) {
        x = 0;
        for (size_t i = 0; i < n; i++) x = x * 10 + (text[i] - '0');
    } else if (!text && found && iso_is_integer(v) && !iso_val_int64(st, v, &x)) {
        x = -1;
    }
    if (x < 0 || x > max)
        return iso_rd_fail_at(&c->rd, c->line, c->col, "\"%s\" must be an integer from 0 to %lld", key, (long long)max);
    *out = x;
    return 0;
}

/* A timestamp {"p": P, "l": L} as P * 65536 + L. */
static int timestamp(struct cr *c, iso_val txn, const char *key, int64_t *out)
{
    int found;
    iso_val ts = iso_map_get(c->rd.store, txn, key, &found);
    int64_t p, l;
    if (!found || !iso_is_seq(ts) || iso_seq_kind(c->rd.store, ts) != ISO_SEQ_MAP)
        return iso_rd_fail_at(&c->rd, c->line, c->col, "\"%s\" must be a timestamp {\"p\": ..., \"l\": ...}", key);
    if (number(c, ts, "p", 1, P_MAX, &p) || number(c, ts, "l", 0, ((int64_t)1 << L_BITS) - 1, &l)) return -1;
    *out = p << L_BITS | l;
    return 0;
}

/* One op {"t": ..., "k": ..., "v": ...} of the transaction. */
static int op(struct cr *c, iso_val o)
{
    const iso_store *st = c->rd.store;
    int ft, fk, fv;
    if (!iso_is_seq(o) || iso_seq_kind(st, o) != ISO_SEQ_MAP) return bad(c, "an op must be an object {\"t\", \"k\", \"v\"}");
    iso_val t = iso_map_get(st, o, "t", &ft), k = iso_map_get(st, o, "k", &fk), v = iso_map_get(st, o, "v", &fv);
    size_t n = 0;
    const char *name = ft && iso_tag(t) == ISO_TAG_STR ? iso_atom_text(st, t, &n) : "";
    int write = strcmp(name, "w") == 0 || strcmp(name, "write") == 0;
    if (!write && strcmp(name, "r") != 0 && strcmp(name, "read") != 0)
        return bad(c, "an op's \"t\" must be \"r\", \"w\", \"read\" or \"write\"");
    if (!fk || !iso_is_integer(k)) return bad(c, "an op's \"k\" must be an integer");
    if (!fv || (!iso_is_integer(v) && !(iso_is_nil(v) && !write))) return bad(c, "an op's \"v\" must be an integer");
    if (v == iso_int(0) && write) return bad(c, "a write of 0, which isolde reads as every key's initial value here");
    return iso_sess_mop(&c->s, write, k, v == iso_int(0) ? ISO_NIL : v, c->rd.err);
}

static int transaction(struct cr *c, iso_val txn)
{
    const iso_store *st = c->rd.store;
    int fs, fo;
    int64_t t0, t1;
    if (!iso_is_seq(txn) || iso_seq_kind(st, txn) != ISO_SEQ_MAP) return bad(c, "a transaction must be an object");
    iso_val sid = iso_map_get(st, txn, "sid", &fs), ops = iso_map_get(st, txn, "ops", &fo);
    if (!fs || iso_is_seq(sid) || iso_is_nil(sid)) return bad(c, "\"sid\" (the session) must be a number or a string");
    if (timestamp(c, txn, "sts", &t0) || timestamp(c, txn, "cts", &t1)) return -1;
    if (t1 < t0) return bad(c, "its commit timestamp \"cts\" is before its start \"sts\"");
    if (!fo || !iso_is_seq(ops) || iso_seq_kind(st, ops) != ISO_SEQ_VEC) return bad(c, "\"ops\" must be an array");
    size_t n = iso_seq_len(st, ops);
    for (size_t i = 0; i < n; i++)
        if (op(c, iso_seq_item(st, ops, i))) return -1;
    uint32_t session = iso_sess_id(&c->s, sid);
    if (in_order(c, session, t0, t1)) return -1;
    iso_sess_times(&c->s, t0, t1);
    return iso_sess_end(&c->s, session, ISO_OP_OK, c->line, c->col, c->rd.err);
}

static int expect(iso_rd *rd, char ch, const char *what)
{
    iso_json_skip(rd, 0);
    if (iso_rd_eof(rd) || rd->p[rd->pos] != ch) return iso_rd_unexpected(rd, what);
    rd->pos++;
    return 0;
}

/* The array, a transaction at a time (each dropped once read). */
static int read_array(struct cr *c)
{
    iso_rd *rd = &c->rd;
    if (expect(rd, '[', "'[' (Chronos's history is an array of transactions)")) return -1;
    iso_json_skip(rd, 0);
    int more = !(!iso_rd_eof(rd) && rd->p[rd->pos] == ']');
    if (!more) rd->pos++;
    while (more) {
        iso_json_skip(rd, 0);
        c->line = iso_rd_u32(rd->line), c->col = iso_rd_u32((size_t)iso_rd_col(rd));
        iso_val txn;
        if (iso_json_value(rd, &txn) || transaction(c, txn)) return -1;
        iso_rd_consumed(rd);
        iso_json_skip(rd, 0);
        if (!iso_rd_eof(rd) && rd->p[rd->pos] == ',') rd->pos++;
        else if (expect(rd, ']', "',' or ']'")) return -1;
        else more = 0;
    }
    iso_json_skip(rd, 0);
    return iso_rd_eof(rd) ? 0 : iso_rd_unexpected(rd, "the end of the input after the array");
}

int iso_read_chronos(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    struct cr c = {0};
    iso_rd_init(&c.rd, h, buf, len, err);
    iso_sess_init(&c.s, h);
    h->workload_hint = ISOLDE_WORKLOAD_RW_REGISTER;
    int rc = read_array(&c);
    if (!rc) iso_sess_emit(&c.s);
    iso_free(c.last);
    iso_sess_free(&c.s);
    iso_rd_release(&c.rd);
    return rc;
}
