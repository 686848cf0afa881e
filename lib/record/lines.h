/*
 * record/lines.h -- a client's lines: each transaction's invocation and
 * completion, built whole in two buffers by turns so that the history
 * file gets one copy of them. The completion of the transaction whose
 * invocation is in buf[cur] goes into the other buffer, after room for
 * its head, and the next invocation follows it there; the runner hands
 * the bytes from the completion's head to the invocation's end to the
 * file in one append.
 *
 * The work is split around the runner's lock: what may allocate (the
 * completion's value, room for what follows) is done before it is taken;
 * under it only the index, the time and the head are written, into room
 * already there.
 *
 *   {"index":I,"type":"ok","process":P,"f":"txn","value":V,"time":NS  (rec_head, txn/json.h, rec_time)
 *   ,"node":"host:port","isolation":"L"                                 (the endpoint's fields)
 *   ,"error":[...]}\n  or  }\n                                          (rec_tail)
 */
#ifndef ISO_RECORD_LINES_H
#define ISO_RECORD_LINES_H

#include "record/record.h"

typedef struct rec_lines {
    txn_json_shape *shape; /* how Jepsen's workloads record an op (gen_ops.shape),
                              or NULL: the transaction's own value */
    size_t fields_max;     /* the longest fields a line of this client carries */
    iso_buf buf[2];
    int cur;               /* the buffer holding the last invocation */
    size_t inv_off, n_inv; /* its value there */
    uint32_t null_at[TXN_MAX_MOPS]; /* where each read's null is in it */
    const char *f;         /* its :f */
    iso_buf shaped;        /* a Jepsen op's invocation value, made in room
                              sized before the lock */
    iso_buf err_tail;      /* the completion's ,"error":...}\n; empty if none */
} rec_lines;

/* The fields an endpoint adds to each of its lines, appended to b:
 * ,"node":"NODE" when node is not empty, ,"isolation":"L" when isolation
 * is given (NULL: none). */
void rec_fields(iso_buf *b, const char *node, const char *isolation);

/* Room for an invocation line at the start of the buffer that does not
 * hold the last one (before the lock); returns where it goes. */
char *rec_invoke_room(rec_lines *l);
/* t's invocation line at p, where rec_invoke_room or rec_complete said
 * (lock held: nothing is allocated), with its index, process, time and
 * fields. Returns the line's end. */
char *rec_invoke(rec_lines *l, char *p, int64_t index, int64_t process, const txn *t, int64_t time_ns,
                 const iso_buf *fields);
/* The completion (type ISO_OP_OK, _FAIL or _INFO) of the transaction last
 * invoked, t as it ran (before the lock): its value (an ok's reads put
 * into the invocation's value, any other's that value as it was), its
 * error, and room for its head and for an invocation after it. */
void rec_complete_value(rec_lines *l, int type, const txn *t);
/* Its line finished (lock held): the head before the value, the time, the
 * fields and the tail after it. Returns where the line starts; *end is
 * its end, where rec_invoke may write the next invocation. */
char *rec_complete(rec_lines *l, int64_t index, int type, int64_t process, int64_t time_ns,
                   const iso_buf *fields, char **end);
void rec_lines_free(rec_lines *l);

#endif
