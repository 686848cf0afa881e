/*
 * record/record.h -- the history a run writes, every line of it: the
 * Elle-compatible JSON line each recorded op becomes (written by hand, no
 * printf: the simulated database records a few hundred thousand
 * transactions per second), for client transactions and for any other op
 * (a nemesis's, a workload's setup).
 *
 *   record.c   an op's line, whole or in pieces
 *   lines.c    a client's two lines per transaction, in one copy (lines.h)
 *   hist.c     the history file (hist.h)
 *
 * Rule: record/ includes txn/, history/ and core/.
 */
#ifndef ISO_RECORD_H
#define ISO_RECORD_H

#include <string.h>

#include "txn/json.h"

/* Append one Elle JSON line: type is ISO_OP_* (history.h numbering:
 * 0 invoke, 1 ok, 2 fail, 3 info). Reads are null unless type is ok. With
 * shape (a workload of Jepsen's), the op's :f and value are as shape
 * gives them (rec_op_line); NULL: t's own (txn/json.h). */
void rec_line(iso_buf *b, int64_t index, int type, int64_t process, const txn *t, txn_json_shape *shape,
              int64_t time_ns);
/* The same line in four pieces, for writers that take index and time
 * under a lock and format the rest outside it:
 *   rec_head   {"index":I,"type":"ok","process":P,"f":"txn","value":
 *              (f as txn_json_f gives it: at most 8 bytes)
 *   txn_json  [["append",3,7],["r",4,[1,7]]]
 *   rec_time   ,"time":NS
 *   rec_tail   ,"error":"..."}\n  or  }\n
 * rec_head and rec_time write at most REC_HEAD_MAX / REC_TIME_MAX bytes
 * to out and return how many. */
#define REC_HEAD_MAX 128
#define REC_TIME_MAX 32
size_t rec_head(char *out, int64_t index, int type, int64_t process, const char *f);
size_t rec_time(char *out, int64_t time_ns);
/* rec_head written so that it ends at end (index, process >= 0); returns
 * where it starts, at most REC_HEAD_MAX bytes before end. */
char *rec_head_before(char *end, int64_t index, int type, int64_t process, const char *f);
void rec_tail(iso_buf *b, int type, const txn *t);
/* Whether rec_tail writes an error for this op (else the tail is "}\n"). */
int rec_has_error(int type, const txn *t);

/* Any op, not only a client's transaction: a process that is a name (a
 * JSON string, as Jepsen's nemesis is "nemesis") or an integer, an :f of
 * its own (e.g. "start-partition"), a value given as JSON text (NULL:
 * null), and the transaction whose error it records, as rec_tail does
 * (NULL: none):
 *   {"index":9,"type":"info","process":"nemesis","f":"kill","value":["n1"],"time":T}
 * The checker ignores ops of processes that are not integers; reports
 * show them. */
typedef struct rec_op {
    int64_t index;
    int type;                /* ISO_OP_* */
    const char *process;     /* a name; NULL: process_id */
    int64_t process_id;
    const char *f;
    const char *value_json;
    int64_t time_ns;
    const txn *error;
} rec_op;
void rec_op_line(iso_buf *b, const rec_op *op);

/* A workload's setup transaction (a bank's opening balances), run before
 * the clients, as two ops of process "setup", its invocation and its ok
 * completion, at index and index + 1, with the :f and value (JSON text)
 * its generator's shape gives it:
 *   {"index":0,"type":"invoke","process":"setup","f":"setup","value":{"0":10,"1":10},"time":T}
 * The checkers leave out ops of a process that is no integer; Jepsen's
 * bank checker reads this one. Writes at most REC_SETUP_MAX(f, value)
 * bytes (no allocation when b has that room). */
#define REC_SETUP_MAX(f, value) (2 * (strlen(f) + strlen(value) + 128))
void rec_setup(iso_buf *b, int64_t index, const char *f, const char *value_json, int64_t time_ns);

#endif
