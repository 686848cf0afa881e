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

/* Formatting writes straight into reserved space: a line's length is
 * bounded up front (line_bound), so no per-piece capacity checks. */
#define I64_MAX_CHARS 20

static char *put_i64(char *p, int64_t v)
{
    char tmp[I64_MAX_CHARS];
    int n = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) *p++ = '-';
    while (n) *p++ = tmp[--n];
    return p;
}

static char *put_lit(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

static size_t value_bound(const run_txn *t, int with_reads)
{
    size_t n = 2 + (size_t)t->n * (16 + 2 * (I64_MAX_CHARS + 1));
    for (uint32_t i = 0; with_reads && i < t->n; i++)
        n += (size_t)t->mops[i].len * (I64_MAX_CHARS + 1);
    return n;
}

static char *put_read(char *p, const run_txn *t, const run_mop *m)
{
    if (m->nil) return put_lit(p, "null");
    if (!t->list_append) return put_i64(p, m->value);
    *p++ = '[';
    for (uint32_t j = 0; j < m->len; j++) {
        if (j) *p++ = ',';
        p = put_i64(p, t->res[m->off + j]);
    }
    *p++ = ']';
    return p;
}

static char *put_value(char *p, const run_txn *t, int with_reads)
{
    static const char *const names[] = {"[\"r\",", "[\"append\",", "[\"w\","};
    *p++ = '[';
    for (uint32_t i = 0; i < t->n; i++) {
        const run_mop *m = &t->mops[i];
        if (i) *p++ = ',';
        p = put_lit(p, names[m->f]);
        p = put_i64(p, m->key);
        *p++ = ',';
        if (m->f != RUN_R) p = put_i64(p, m->value);
        else if (with_reads) p = put_read(p, t, m);
        else p = put_lit(p, "null");
        *p++ = ']';
    }
    *p++ = ']';
    return p;
}

void rec_value(iso_buf *b, const run_txn *t, int with_reads)
{
    ISO_GROW(b->p, b->cap, b->n + value_bound(t, with_reads));
    b->n = (size_t)(put_value(b->p + b->n, t, with_reads) - b->p);
}

void rec_line(iso_buf *b, int64_t index, int type, int64_t process,
              const run_txn *t, int64_t time_ns)
{
    int with_reads = type == ISO_OP_OK;
    ISO_GROW(b->p, b->cap, b->n + 128 + 3 * I64_MAX_CHARS + value_bound(t, with_reads));
    char *p = b->p + b->n;
    p = put_lit(p, "{\"index\":");
    p = put_i64(p, index);
    p = put_lit(p, ",\"type\":\"");
    p = put_lit(p, iso_op_type_name(type));
    p = put_lit(p, "\",\"process\":");
    p = put_i64(p, process);
    p = put_lit(p, ",\"f\":\"txn\",\"value\":");
    p = put_value(p, t, with_reads);
    p = put_lit(p, ",\"time\":");
    p = put_i64(p, time_ns);
    b->n = (size_t)(p - b->p);
    if (type != ISO_OP_INVOKE && type != ISO_OP_OK && t->error[0]) {
        iso_buf_puts(b, ",\"error\":");
        iso_json_string(b, t->error, strlen(t->error));
    }
    iso_buf_put(b, "}\n", 2);
}
