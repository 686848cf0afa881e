/*
 * txn/json.c -- a transaction as Elle's JSON value, [["append",2,5],
 * ["r",4,[1,2]]], or a single op's as Knossos's (3, [1 2], [k 3]) (json.h).
 * Formatting writes straight into reserved space (numbers by
 * iso_put_i64): a value's length is bounded up front (value_bound), so
 * there is no capacity check per piece.
 */
#include <string.h>
#include "txn/json.h"

static size_t value_bound(const txn *t, int with_reads)
{
    size_t n = 2 + (size_t)t->n * (16 + 2 * (ISO_INT_MAX_CHARS + 1));
    for (uint32_t i = 0; with_reads && i < t->n; i++)
        n += (size_t)t->mops[i].len * (t->mops[i].text ? 1 : ISO_INT_MAX_CHARS + 1);
    return n;
}

static char *put_read(char *p, const txn *t, const txn_mop *m)
{
    if (m->nil) return ISO_PUT_LIT(p, "null");
    if (!t->list_append) return iso_put_i64(p, m->value);
    *p++ = '[';
    if (m->text) {
        memcpy(p, t->text + m->off, m->len);
        p += m->len;
        *p++ = ']';
        return p;
    }
    for (uint32_t j = 0; j < m->len; j++) {
        if (j) *p++ = ',';
        p = iso_put_i64(p, t->res[m->off + j]);
    }
    *p++ = ']';
    return p;
}

const char *txn_json_f(const txn *t)
{
    if (t->shape == TXN_SHAPE_TXN) return "txn";
    return t->mops[0].f == TXN_CAS ? "cas" : t->mops[0].f == TXN_R ? "read" : "write";
}

/* A single op's value: V, [old new], null for a read; in [k ...] for kv. */
static char *put_op(char *p, const txn *t, int with_reads, uint32_t *null_at)
{
    const txn_mop *m = &t->mops[0];
    char *start = p;
    if (t->shape == TXN_SHAPE_KV) {
        *p++ = '[';
        p = iso_put_i64(p, m->key);
        *p++ = ',';
    }
    if (m->f == TXN_CAS) {
        *p++ = '[';
        p = iso_put_i64(p, m->old);
        *p++ = ',';
        p = iso_put_i64(p, m->value);
        *p++ = ']';
    } else if (m->f != TXN_R || with_reads) {
        p = m->f == TXN_R ? put_read(p, t, m) : iso_put_i64(p, m->value);
    } else {
        if (null_at) null_at[0] = (uint32_t)(p - start);
        p = ISO_PUT_LIT(p, "null");
    }
    if (t->shape == TXN_SHAPE_KV) *p++ = ']';
    return p;
}

/* The value; with null_at, where each read's null went (reads are null
 * unless with_reads). */
static char *put_value(char *p, const txn *t, int with_reads, uint32_t *null_at)
{
    if (t->shape != TXN_SHAPE_TXN) return put_op(p, t, with_reads, null_at);
    /* Copied 16 bytes at a time (one move): value_bound leaves room. */
    static const struct { char s[16]; size_t n; } names[] = {
        {"[\"r\",", 5}, {"[\"append\",", 10}, {"[\"w\",", 5}, {"[\"add\",", 7}};
    char *start = p;
    *p++ = '[';
    for (uint32_t i = 0; i < t->n; i++) {
        const txn_mop *m = &t->mops[i];
        if (i) *p++ = ',';
        memcpy(p, names[m->f].s, sizeof names[m->f].s);
        p += names[m->f].n;
        p = iso_put_i64(p, m->key);
        *p++ = ',';
        if (m->f != TXN_R) {
            p = iso_put_i64(p, m->value);
        } else if (with_reads) {
            p = put_read(p, t, m);
        } else {
            if (null_at) null_at[i] = (uint32_t)(p - start);
            p = ISO_PUT_LIT(p, "null");
        }
        *p++ = ']';
    }
    *p++ = ']';
    return p;
}

static void put_value_buf(iso_buf *b, const txn *t, int with_reads, uint32_t *null_at)
{
    size_t need = b->n + value_bound(t, with_reads) + 1;
    if (need > b->cap) ISO_GROW(b->p, b->cap, need);
    b->n = (size_t)(put_value(b->p + b->n, t, with_reads, null_at) - b->p);
    b->p[b->n] = '\0'; /* as iso_buf_put leaves it */
}

void txn_json_read(iso_buf *b, const txn *t, uint32_t i)
{
    size_t need = b->n + value_bound(t, 1) + 1;
    if (need > b->cap) ISO_GROW(b->p, b->cap, need);
    b->n = (size_t)(put_read(b->p + b->n, t, &t->mops[i]) - b->p);
    b->p[b->n] = '\0';
}

void txn_json(iso_buf *b, const txn *t, int with_reads)
{
    put_value_buf(b, t, with_reads, NULL);
}

char *txn_json_invoke(char *p, const txn *t, uint32_t *null_at)
{
    return put_value(p, t, 0, null_at);
}

/* Each read's null in inv replaced by its result; the rest copied. */
void txn_json_ok(iso_buf *b, const char *inv, size_t n_inv, const uint32_t *null_at,
                  const txn *t)
{
    /* Each read's null becomes at most 21 digits, or its text or
     * elements in brackets. */
    size_t need = b->n + n_inv + t->n_text + (ISO_INT_MAX_CHARS + 1) * t->n_res +
                  (ISO_INT_MAX_CHARS + 3) * (size_t)t->n + 1;
    if (need > b->cap) ISO_GROW(b->p, b->cap, need);
    char *p = b->p + b->n;
    size_t from = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->mops[i].f != TXN_R) continue;
        memcpy(p, inv + from, null_at[i] - from);
        p = put_read(p + (null_at[i] - from), t, &t->mops[i]);
        from = null_at[i] + 4;
    }
    memcpy(p, inv + from, n_inv - from);
    b->n = (size_t)(p + (n_inv - from) - b->p);
    b->p[b->n] = '\0';
}
