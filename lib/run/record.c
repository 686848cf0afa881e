/*
 * run/record.c -- a transaction's read results, and the Elle-compatible
 * JSON line each recorded op becomes:
 *   {"index":3,"type":"ok","process":1,"f":"txn",
 *    "value":[["append",2,5],["r",4,[1,2]]],"time":1200}
 * Written by hand (no printf) because the simulated database records a few
 * hundred thousand transactions per second.
 */
#include <string.h>
#include "history.h"
#include "value.h"
#include "run/run.h"

void run_txn_release(run_txn *t)
{
    free(t->res);
    t->res = NULL;
    t->n_res = t->cap_res = 0;
}

void run_txn_clear_reads(run_txn *t)
{
    t->n_res = 0;
    t->error[0] = '\0';
    for (uint32_t i = 0; i < t->n; i++) {
        t->mops[i].nil = 1;
        t->mops[i].len = 0;
        if (t->mops[i].f == RUN_R) t->mops[i].value = 0;
    }
}

void run_txn_read_begin(run_txn *t, uint32_t i)
{
    t->mops[i].nil = 0;
    t->mops[i].off = (uint32_t)t->n_res;
    t->mops[i].len = 0;
}

void run_txn_read_elem(run_txn *t, uint32_t i, int64_t elem)
{
    ISO_PUSH(t->res, t->n_res, t->cap_res, elem);
    t->mops[i].len++;
}

static void put_i64(iso_buf *b, int64_t v)
{
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[sizeof tmp - 1 - n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) tmp[sizeof tmp - 1 - n++] = '-';
    iso_buf_put(b, tmp + sizeof tmp - n, (size_t)n);
}

#define PUT(b, lit) iso_buf_put((b), lit, sizeof lit - 1)

static void put_read(iso_buf *b, const run_txn *t, const run_mop *m)
{
    if (m->nil) {
        PUT(b, "null");
    } else if (!t->list_append) {
        put_i64(b, m->value);
    } else {
        PUT(b, "[");
        for (uint32_t j = 0; j < m->len; j++) {
            if (j) PUT(b, ",");
            put_i64(b, t->res[m->off + j]);
        }
        PUT(b, "]");
    }
}

static void put_mop(iso_buf *b, const run_txn *t, const run_mop *m, int with_reads)
{
    static const char *names[] = {"[\"r\",", "[\"append\",", "[\"w\","};
    iso_buf_puts(b, names[m->f]);
    put_i64(b, m->key);
    PUT(b, ",");
    if (m->f != RUN_R) put_i64(b, m->value);
    else if (with_reads) put_read(b, t, m);
    else PUT(b, "null");
    PUT(b, "]");
}

void rec_value(iso_buf *b, const run_txn *t, int with_reads)
{
    PUT(b, "[");
    for (uint32_t i = 0; i < t->n; i++) {
        if (i) PUT(b, ",");
        put_mop(b, t, &t->mops[i], with_reads);
    }
    PUT(b, "]");
}

void rec_line(iso_buf *b, int64_t index, int type, int64_t process,
              const run_txn *t, int64_t time_ns)
{
    PUT(b, "{\"index\":");
    put_i64(b, index);
    PUT(b, ",\"type\":\"");
    iso_buf_puts(b, iso_op_type_name(type));
    PUT(b, "\",\"process\":");
    put_i64(b, process);
    PUT(b, ",\"f\":\"txn\",\"value\":");
    rec_value(b, t, type == ISO_OP_OK);
    PUT(b, ",\"time\":");
    put_i64(b, time_ns);
    if (type != ISO_OP_INVOKE && type != ISO_OP_OK && t->error[0]) {
        PUT(b, ",\"error\":");
        iso_json_string(b, t->error, strlen(t->error));
    }
    PUT(b, "}\n");
}
