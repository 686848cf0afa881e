/*
 * record/lines.c -- a client's lines, each transaction's two built in room
 * sized before the runner's lock (lines.h). The invariant: after
 * rec_complete_value, the buffer the completion is in has room for its
 * head, its tail and a whole invocation line after it, so that nothing
 * under the lock allocates.
 */
#include <string.h>
#include "history/history.h"
#include "record/lines.h"

/* Room a buffer keeps after its completion value: the time, and a whole
 * invocation line. */
#define LINE_ROOM (REC_TIME_MAX + REC_HEAD_MAX + TXN_JSON_MAX + REC_TIME_MAX + 2)

void rec_fields(iso_buf *b, const char *node, const char *isolation)
{
    if (node[0]) {
        iso_buf_puts(b, ",\"node\":");
        iso_json_string(b, node, strlen(node));
    }
    if (isolation) {
        iso_buf_puts(b, ",\"isolation\":");
        iso_json_string(b, isolation, strlen(isolation));
    }
}

/* The time, the fields, then the tail: err_tail if it holds one, else }\n.
 * The time is written whole into a copy (REC_TIME_MAX bytes, one move:
 * there is room) and cut to its length. */
static char *close_line(char *p, int64_t time_ns, const iso_buf *fields, const iso_buf *err_tail)
{
    char tm[REC_TIME_MAX];
    size_t n = rec_time(tm, time_ns);
    memcpy(p, tm, REC_TIME_MAX);
    p += n;
    if (fields->n) memcpy(p, fields->p, fields->n); /* fields->p is NULL while empty */
    p += fields->n;
    if (err_tail && err_tail->n) {
        memcpy(p, err_tail->p, err_tail->n);
        return p + err_tail->n;
    }
    p[0] = '}';
    p[1] = '\n';
    return p + 2;
}

char *rec_invoke_room(rec_lines *l)
{
    iso_buf *b = &l->buf[l->cur ^ 1];
    ISO_GROW(b->p, b->cap, LINE_ROOM + l->fields_max);
    ISO_GROW(l->shaped.p, l->shaped.cap, TXN_JSON_MAX);
    return b->p;
}

char *rec_invoke(rec_lines *l, char *p, int64_t index, int64_t process, const txn *t, int64_t time_ns,
                 const iso_buf *fields)
{
    char *end;
    if (l->shape) { /* Jepsen's op: :transfer, :add, :read, ... */
        l->shaped.n = 0;
        l->f = l->shape(t, 0, &l->shaped);
        p += rec_head(p, index, ISO_OP_INVOKE, process, l->f);
        end = (char *)memcpy(p, l->shaped.p, l->shaped.n) + l->shaped.n;
    } else {
        l->f = txn_json_f(t);
        p += rec_head(p, index, ISO_OP_INVOKE, process, l->f);
        end = txn_json_invoke(p, t, l->null_at);
    }
    l->cur ^= 1;
    l->inv_off = (size_t)(p - l->buf[l->cur].p);
    l->n_inv = (size_t)(end - p);
    return close_line(end, time_ns, fields, NULL);
}

void rec_complete_value(rec_lines *l, int type, const txn *t)
{
    const char *inv = l->buf[l->cur].p + l->inv_off;
    iso_buf *b = &l->buf[l->cur ^ 1];
    b->n = REC_HEAD_MAX;
    if (l->shape) {
        l->shape(t, type == ISO_OP_OK, b);
    } else if (type == ISO_OP_OK && txn_reads(t)) {
        txn_json_ok(b, inv, l->n_inv, l->null_at, t);
    } else {
        ISO_GROW(b->p, b->cap, b->n + l->n_inv);
        memcpy(b->p + b->n, inv, l->n_inv);
        b->n += l->n_inv;
    }
    l->err_tail.n = 0;
    if (rec_has_error(type, t)) rec_tail(&l->err_tail, type, t);
    ISO_GROW(b->p, b->cap, b->n + l->err_tail.n + LINE_ROOM + 2 * l->fields_max);
}

char *rec_complete(rec_lines *l, int64_t index, int type, int64_t process, int64_t time_ns,
                   const iso_buf *fields, char **end)
{
    iso_buf *b = &l->buf[l->cur ^ 1];
    *end = close_line(b->p + b->n, time_ns, fields, &l->err_tail);
    return rec_head_before(b->p + REC_HEAD_MAX, index, type, process, l->f);
}

void rec_lines_free(rec_lines *l)
{
    iso_buf_free(&l->buf[0]);
    iso_buf_free(&l->buf[1]);
    iso_buf_free(&l->shaped);
    iso_buf_free(&l->err_tail);
}
