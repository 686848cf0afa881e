/*
 * history/read_plume.c -- Plume's text format (Plume, OOPSLA 2024; PolySI
 * and AWDIT read it too): one operation a line,
 *   r(KEY,VALUE,SESSION,TXN)   w(KEY,VALUE,SESSION,TXN)
 * each a non-negative integer but TXN, which is -1 for a write of an
 * aborted transaction. A transaction is every line with its TXN, in file
 * order, and belongs to one session; a session's transactions come in
 * the order they first appear. Every key starts at 0 (the checkers add a
 * transaction that writes 0 to every key): a read of 0 is a read of the
 * initial state (nil), and a write of 0 cannot be told from it, so it is
 * an error. A line of TXN -1 is a failed transaction of its own. Blank
 * lines are skipped. Invariant: every line either adds one event or fails
 * at its line:col.
 */
#include "history/read.h"
#include "history/sessions.h"


#define ABORTED UINT32_MAX /* the txn of a TXN -1 line: a failed one of its own */

struct pl_ev {
    uint32_t txn;  /* index into txns */
    uint8_t write;
    iso_val key, value;
};

struct pl_txn {
    uint32_t session; /* dense */
    uint32_t line, col;
    uint8_t type;
};

struct pl {
    iso_rd rd;
    iso_sess s;
    iso_keys ids;      /* TXN -> a dense id */
    uint32_t *idx;     /* a TXN's dense id -> its index into txns */
    size_t n_idx, cap_idx;
    struct pl_ev *ev;
    size_t n_ev, cap_ev;
    struct pl_txn *txns;
    size_t n_txns, cap_txns;
};

/* The transaction TXN (txn_minus: it was -1) of session, first seen at
 * line:col: its index, or -1 when it was seen in another session. */
static long txn_of(struct pl *p, uint64_t txn, int minus, uint32_t session, uint32_t line, uint32_t col)
{
    struct pl_txn t = {session, line, col, minus ? ISO_OP_FAIL : ISO_OP_OK};
    uint32_t k = minus ? ABORTED : iso_keys_intern(&p->ids, iso_sess_uint(&p->s, txn));
    if (k == ABORTED || k == p->n_idx) {
        if (k != ABORTED) ISO_PUSH(p->idx, p->n_idx, p->cap_idx, (uint32_t)p->n_txns);
        ISO_PUSH(p->txns, p->n_txns, p->cap_txns, t);
        return (long)p->n_txns - 1;
    }
    uint32_t i = p->idx[k];
    if (p->txns[i].session == session) return i;
    return iso_rd_fail_at(&p->rd, line, col, "transaction %llu is in another session than on line %lu",
                          (unsigned long long)txn, (unsigned long)p->txns[i].line);
}

/* TXN: -1, or a number. */
static int txn_field(iso_rd *rd, uint64_t *txn, int *minus)
{
    *minus = !iso_rd_eof(rd) && rd->p[rd->pos] == '-';
    size_t col = (size_t)iso_rd_col(rd);
    if (*minus) rd->pos++;
    if (iso_sess_number(rd, INT64_MAX, "the transaction (-1 or a number)", txn)) return -1;
    if (*minus && *txn != 1)
        return iso_rd_fail_at(rd, rd->line, col, "a transaction is a number, or -1 for an aborted write");
    return 0;
}

/* The operation on the cursor's line (not blank). */
static int op_line(void *arg)
{
    struct pl *p = arg;
    iso_rd *rd = &p->rd;
    uint32_t line = iso_rd_u32(rd->line), col = iso_rd_u32((size_t)iso_rd_col(rd));
    char c = rd->p[rd->pos];
    if (c != 'r' && c != 'w') return iso_rd_unexpected(rd, "r( or w( (an operation r(KEY,VALUE,SESSION,TXN))");
    rd->pos++;
    uint64_t f[3], txn;
    static const char *const what[] = {"the key", "the value", "the session"};
    size_t value_col = 0;
    int minus;
    if (iso_sess_byte(rd, '(', "'('")) return -1;
    for (int i = 0; i < 3; i++) {
        if (i == 1) value_col = (size_t)iso_rd_col(rd);
        if (iso_sess_number(rd, INT64_MAX, what[i], &f[i]) || iso_sess_byte(rd, ',', "','")) return -1;
    }
    if (txn_field(rd, &txn, &minus) || iso_sess_byte(rd, ')', "')'")) return -1;
    iso_sess_blanks(rd);
    if (!iso_rd_eof(rd)) return iso_rd_unexpected(rd, "the end of the line");
    if (c == 'w' && f[1] == 0)
        return iso_rd_fail_at(rd, line, value_col, "a write of 0, which is every key's initial value in Plume's format");
    long t = txn_of(p, txn, minus, iso_sess_id(&p->s, iso_sess_uint(&p->s, f[2])), line, col);
    if (t < 0) return -1;
    struct pl_ev e = {(uint32_t)t, c == 'w', iso_sess_uint(&p->s, f[0]), f[1] ? iso_sess_uint(&p->s, f[1]) : ISO_NIL};
    ISO_PUSH(p->ev, p->n_ev, p->cap_ev, e);
    return 0;
}

/* The events, transaction by transaction (a counting sort keeps each
 * one's file order), into the sessions. */
static int group(struct pl *p)
{
    size_t *at = iso_xcalloc(p->n_txns + 1, sizeof *at);
    uint32_t *order = iso_xmalloc((p->n_ev + 1) * sizeof *order);
    for (size_t i = 0; i < p->n_ev; i++) at[p->ev[i].txn + 1]++;
    for (size_t t = 0; t < p->n_txns; t++) at[t + 1] += at[t];
    for (size_t i = 0; i < p->n_ev; i++) order[at[p->ev[i].txn]++] = (uint32_t)i;
    int rc = 0;
    for (size_t t = 0, i = 0; t < p->n_txns && !rc; t++) {
        for (; !rc && i < at[t]; i++) {
            const struct pl_ev *e = &p->ev[order[i]];
            rc = iso_sess_mop(&p->s, e->write, e->key, e->value, p->rd.err);
        }
        const struct pl_txn *x = &p->txns[t];
        if (!rc) rc = iso_sess_end(&p->s, x->session, x->type, x->line, x->col, p->rd.err);
    }
    iso_free(order);
    iso_free(at);
    return rc;
}

int iso_read_plume(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    struct pl p = {0};
    iso_rd_init(&p.rd, h, buf, len, err);
    iso_sess_init(&p.s, h);
    iso_keys_init(&p.ids, &h->store);
    h->workload_hint = ISOLDE_WORKLOAD_RW_REGISTER;
    int rc = iso_sess_lines(&p.rd, buf, len, op_line, &p);
    if (!rc) rc = group(&p);
    if (!rc) iso_sess_emit(&p.s);
    iso_keys_free(&p.ids);
    iso_free(p.idx);
    iso_free(p.ev);
    iso_free(p.txns);
    iso_sess_free(&p.s);
    iso_rd_release(&p.rd);
    return rc;
}
