/*
 * history/sessions.h -- what the readers of the research checkers' formats
 * share (Plume's text, dbcop's bincode, AWDIT's test format): a history
 * given as sessions of transactions of register reads and writes, made into
 * Elle's rw-register ops. A session is a process (numbered 0, 1, ... in the
 * order the sessions first appear); a transaction an invocation and its
 * completion (ok, or fail for an aborted one), both holding the micro-ops
 * [:r k v] / [:w k v]. These formats hold no time: the ops are laid out
 * round by round (every session's first transaction invoked, then all of
 * them completed, then every session's second ...), so that session order
 * is kept and transactions of one round are concurrent (docs/FORMATS.md);
 * a format with times (Chronos's) is laid out by them.
 */
#ifndef ISO_HISTORY_SESSIONS_H
#define ISO_HISTORY_SESSIONS_H

#include "history/cursor.h"

typedef struct iso_sess_txn {
    uint32_t session;   /* dense session id */
    uint32_t line, col; /* where it begins in the input (0: a binary input) */
    iso_val value;      /* the vector of its micro-ops */
    int64_t t0, t1;     /* its start and commit times (iso_sess_timed), else -1 */
    uint8_t type;       /* ISO_OP_OK or ISO_OP_FAIL */
} iso_sess_txn;

typedef struct iso_sess {
    isolde_history *h;
    iso_keys ids;       /* a session's id as read -> its dense id */
    iso_sess_txn *txns;
    size_t n_txns, cap_txns;
    iso_val *mops;      /* the micro-ops of the transaction being built */
    size_t n_mops, cap_mops;
    iso_val r, w, txn;  /* the keywords :r, :w and :txn */
    int64_t t0, t1;     /* the times of the transaction being built */
} iso_sess;

void iso_sess_init(iso_sess *s, isolde_history *h);
void iso_sess_free(iso_sess *s);
/* An unsigned or signed integer of the input as a value (an integer too
 * large to be held inline becomes a big one, as readers make them). */
iso_val iso_sess_uint(iso_sess *s, uint64_t x);
iso_val iso_sess_int(iso_sess *s, int64_t x);
/* The dense id of the session whose id is v (a new one the first time). */
uint32_t iso_sess_id(iso_sess *s, iso_val v);
/* Add [:w key value] or [:r key value] to the transaction being built:
 * 0, or -1 (err: LIMIT) past ISO_MAX_ITEMS micro-ops. */
int iso_sess_mop(iso_sess *s, int write, iso_val key, iso_val value, isolde_error *err);
/* End the transaction being built: of session (a dense id), type
 * ISO_OP_OK or ISO_OP_FAIL, found at line:col. 0, or -1 (err: LIMIT) when
 * the history would pass ISO_MAX_OPS ops. */
int iso_sess_end(iso_sess *s, uint32_t session, int type, uint32_t line, uint32_t col, isolde_error *err);
/* The transaction being built starts at t0 and commits at t1 (a format
 * with times: its ops are then laid out by time, iso_sess_emit). */
static inline void iso_sess_times(iso_sess *s, int64_t t0, int64_t t1)
{
    s->t0 = t0;
    s->t1 = t1;
}
/* Add the transactions to the history as ops: round by round, or when
 * they have times, in time order (invocations at their start, completions
 * at their commit, a completion before an invocation at the same time: a
 * transaction that starts at another's commit time follows it, as a
 * session's next one does), each op with its time. */
void iso_sess_emit(iso_sess *s);

/* What the text formats' readers share, on a cursor over one line (its
 * len the line's end): spaces and tabs skipped; the byte c (what: its
 * words, for the error); an unsigned decimal integer of at most max. Each
 * 0, or -1 with the error at the cursor (the line's end named as such). */
void iso_sess_blanks(iso_rd *rd);
/* fn(arg) on each line of buf[0, len) that is not blank, the cursor on its
 * first byte that is not a blank, its len the line's end: 0, or the first
 * failure's -1. */
int iso_sess_lines(iso_rd *rd, const char *buf, size_t len, int (*fn)(void *arg), void *arg);
int iso_sess_byte(iso_rd *rd, char c, const char *what);
int iso_sess_number(iso_rd *rd, uint64_t max, const char *what, uint64_t *out);

#endif
