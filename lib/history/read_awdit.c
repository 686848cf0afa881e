/*
 * history/read_awdit.c -- AWDIT's test format (AWDIT, PLDI 2025: its
 * `test` format, for histories written by hand): one operation a line,
 *   r KEY VALUE     w KEY VALUE
 * (unsigned integers, separated by blanks), a line of '-' between two
 * transactions of a session and a line of '=' between two sessions; blank
 * lines are skipped, and so are empty transactions and sessions. Values
 * are taken as they are: the format has no initial value, its histories
 * write one in a transaction of their own (a read of a value no
 * transaction wrote is what Elle calls a garbage read). Every transaction
 * committed. Invariant: a transaction is ended once, at the separator or
 * the end of the input after its last operation.
 */
#include "history/read.h"
#include "history/sessions.h"


struct aw {
    iso_rd rd;
    iso_sess s;
    size_t session;       /* the session's index: sessions seen before it */
    size_t n_ops;         /* operations of the transaction being built */
    uint32_t line, col;   /* where it began */
    int session_used;     /* the session has a transaction */
};

/* End the transaction being built, if it has operations. */
static int end_txn(struct aw *a)
{
    if (!a->n_ops) return 0;
    a->n_ops = 0;
    a->session_used = 1;
    uint32_t id = iso_sess_id(&a->s, iso_sess_uint(&a->s, a->session));
    return iso_sess_end(&a->s, id, ISO_OP_OK, a->line, a->col, a->rd.err);
}

/* A line of c alone ('-' or '='), spaces around it: 1, else 0. */
static int separator(iso_rd *rd, char c)
{
    size_t i = rd->pos;
    while (i < rd->len && rd->p[i] == c) i++;
    if (i == rd->pos) return 0;
    size_t save = rd->pos;
    rd->pos = i;
    iso_sess_blanks(rd);
    int whole = iso_rd_eof(rd);
    if (!whole) rd->pos = save;
    return whole;
}

static int op_line(struct aw *a)
{
    iso_rd *rd = &a->rd;
    uint32_t line = iso_rd_u32(rd->line), col = iso_rd_u32((size_t)iso_rd_col(rd));
    char c = rd->p[rd->pos];
    if (c != 'r' && c != 'w')
        return iso_rd_unexpected(rd, "r or w (an operation 'r KEY VALUE'), or a line of '-' or '='");
    rd->pos++;
    uint64_t key, value;
    size_t at = rd->pos;
    iso_sess_blanks(rd);
    if (rd->pos == at && !iso_rd_eof(rd)) return iso_rd_unexpected(rd, "a blank after the operation's name");
    if (iso_sess_number(rd, UINT64_MAX, "the key", &key)) return -1;
    at = rd->pos;
    iso_sess_blanks(rd);
    if (rd->pos == at && !iso_rd_eof(rd)) return iso_rd_unexpected(rd, "a blank after the key");
    if (iso_sess_number(rd, UINT64_MAX, "the value", &value)) return -1;
    iso_sess_blanks(rd);
    if (!iso_rd_eof(rd)) return iso_rd_unexpected(rd, "the end of the line");
    if (!a->n_ops++) a->line = line, a->col = col;
    return iso_sess_mop(&a->s, c == 'w', iso_sess_uint(&a->s, key), iso_sess_uint(&a->s, value), rd->err);
}

/* The cursor's line, not blank. */
static int one_line(void *arg)
{
    struct aw *a = arg;
    if (separator(&a->rd, '-')) return end_txn(a);
    if (!separator(&a->rd, '=')) return op_line(a);
    if (end_txn(a)) return -1;
    a->session += a->session_used;
    a->session_used = 0;
    return 0;
}

int iso_read_awdit(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    struct aw a = {0};
    iso_rd_init(&a.rd, h, buf, len, err);
    iso_sess_init(&a.s, h);
    h->workload_hint = ISOLDE_WORKLOAD_RW_REGISTER;
    int rc = iso_sess_lines(&a.rd, buf, len, one_line, &a);
    if (!rc) rc = end_txn(&a);
    if (!rc) iso_sess_emit(&a.s);
    iso_sess_free(&a.s);
    iso_rd_release(&a.rd);
    return rc;
}
