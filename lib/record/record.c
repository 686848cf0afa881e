/*
 * run/record.c -- the Elle-compatible JSON line each recorded op becomes
 * (the :f and value are the transaction's or single op's, txn/json.c):
 *   {"index":3,"type":"ok","process":1,"f":"txn",
 *    "value":[["append",2,5],["r",4,[1,2]]],"time":1200}
 * Written by hand (no printf) because the simulated database records a few
 * hundred thousand transactions per second.
 */
#include <string.h>
#include "history/history.h"
#include "record/record.h"

/* ,"type":"ok","process":  copied 32 bytes at a time */
static const struct { char s[32]; size_t n; } types[] = {
    {",\"type\":\"invoke\",\"process\":", 27}, {",\"type\":\"ok\",\"process\":", 23},
    {",\"type\":\"fail\",\"process\":", 25}, {",\"type\":\"info\",\"process\":", 25}};

size_t rec_head(char *out, int64_t index, int type, int64_t process, const char *f)
{
    char *p = ISO_PUT_LIT(out, "{\"index\":");
    p = iso_put_i64(p, index);
    memcpy(p, types[type & 3].s, sizeof types[type & 3].s);
    p = iso_put_i64(p + types[type & 3].n, process);
    p = ISO_PUT_LIT(p, ",\"f\":\"");
    size_t n = strlen(f);
    memcpy(p, f, n);
    return (size_t)(ISO_PUT_LIT(p + n, "\",\"value\":") - out);
}

char *rec_head_before(char *end, int64_t index, int type, int64_t process, const char *f)
{
    size_t n = 9 + iso_digits_u64((uint64_t)index) + types[type & 3].n +
               iso_digits_u64((uint64_t)process) + 16 + strlen(f);
    rec_head(end - n, index, type, process, f);
    return end - n;
}

size_t rec_time(char *out, int64_t time_ns)
{
    char *p = ISO_PUT_LIT(out, ",\"time\":");
    return (size_t)(iso_put_i64(p, time_ns) - out);
}

int rec_has_error(int type, const txn *t)
{
    return type != ISO_OP_INVOKE && type != ISO_OP_OK && (t->error[0] || t->err_class[0]);
}

/* ,"error":["class","code","message"], or ,"error":"message" when t
 * gives no class. */
static void put_error(iso_buf *b, const txn *t)
{
    iso_buf_puts(b, ",\"error\":");
    if (t->err_class[0]) {
        iso_buf_puts(b, "[");
        iso_json_string(b, t->err_class, strlen(t->err_class));
        iso_buf_puts(b, ",");
        iso_json_string(b, t->err_code, strlen(t->err_code));
        iso_buf_puts(b, ",");
    }
    iso_json_string(b, t->error, strlen(t->error));
    if (t->err_class[0]) iso_buf_puts(b, "]");
}

void rec_tail(iso_buf *b, int type, const txn *t)
{
    if (rec_has_error(type, t)) put_error(b, t);
    iso_buf_put(b, "}\n", 2);
}

/* The op as a workload of Jepsen's records it (its shape). */
static void shaped_line(iso_buf *b, int64_t index, int type, int64_t process, const txn *t,
                        txn_json_shape *shape, int64_t time_ns)
{
    iso_buf v = {0};
    rec_op op = {index, type, NULL, process, NULL, NULL, time_ns, t};
    op.f = shape(t, type == ISO_OP_OK, &v);
    op.value_json = iso_buf_cstr(&v);
    rec_op_line(b, &op);
    iso_buf_free(&v);
}

void rec_line(iso_buf *b, int64_t index, int type, int64_t process, const txn *t, txn_json_shape *shape,
              int64_t time_ns)
{
    if (shape) {
        shaped_line(b, index, type, process, t, shape, time_ns);
        return;
    }
    ISO_GROW(b->p, b->cap, b->n + REC_HEAD_MAX);
    b->n += rec_head(b->p + b->n, index, type, process, txn_json_f(t));
    txn_json(b, t, type == ISO_OP_OK);
    ISO_GROW(b->p, b->cap, b->n + REC_TIME_MAX);
    b->n += rec_time(b->p + b->n, time_ns);
    rec_tail(b, type, t);
}

void rec_op_line(iso_buf *b, const rec_op *op)
{
    iso_buf_puts(b, "{\"index\":");
    iso_buf_int(b, op->index);
    iso_buf_printf(b, ",\"type\":\"%s\",\"process\":", iso_op_type_name(op->type));
    if (op->process) iso_json_string(b, op->process, strlen(op->process));
    else iso_buf_int(b, op->process_id);
    iso_buf_puts(b, ",\"f\":");
    iso_json_string(b, op->f, strlen(op->f));
    iso_buf_puts(b, ",\"value\":");
    iso_buf_puts(b, op->value_json ? op->value_json : "null");
    iso_buf_puts(b, ",\"time\":");
    iso_buf_int(b, op->time_ns);
    if (op->error && rec_has_error(op->type, op->error)) put_error(b, op->error);
    iso_buf_put(b, "}\n", 2);
}

void rec_setup(iso_buf *b, int64_t index, const char *f, const char *value_json, int64_t time_ns)
{
    rec_op op = {index, ISO_OP_INVOKE, "setup", 0, f, value_json, time_ns, NULL};
    rec_op_line(b, &op);
    op.index++, op.type = ISO_OP_OK;
    rec_op_line(b, &op);
}
