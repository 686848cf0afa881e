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
    free(t->text);
    t->res = NULL;
    t->text = NULL;
    t->n_res = t->cap_res = t->n_text = t->cap_text = 0;
}

void run_txn_clear_reads(run_txn *t)
{
    t->n_res = t->n_text = 0;
    t->error[0] = '\0';
    for (uint32_t i = 0; i < t->n; i++) {
        t->mops[i].nil = 1;
        t->mops[i].text = 0;
        t->mops[i].len = 0;
        if (t->mops[i].f == RUN_R) t->mops[i].value = 0;
    }
}

void run_txn_read_begin(run_txn *t, uint32_t i)
{
    t->mops[i].nil = 0;
    t->mops[i].text = 0;
    t->mops[i].off = (uint32_t)t->n_res;
    t->mops[i].len = 0;
}

int run_txn_read_text(run_txn *t, uint32_t i, const char *s, size_t n)
{
    if (n > UINT32_MAX || !run_list_text_ok(s, n)) return -1;
    if (t->n_text + n + 1 > t->cap_text) ISO_GROW(t->text, t->cap_text, t->n_text + n + 1);
    memcpy(t->text + t->n_text, s, n);
    run_mop *m = &t->mops[i];
    m->nil = 0;
    m->text = 1;
    m->off = (uint32_t)t->n_text;
    m->len = (uint32_t)n;
    t->n_text += n;
    return 0;
}

/* Formatting writes straight into reserved space (numbers by iso_put_i64):
 * a line's length is bounded up front (value_bound, REC_HEAD_MAX,
 * REC_TIME_MAX), so no per-piece capacity checks. */

/* s is a literal: its length is known at compile time. */
#define PUT_LIT(p, s) (memcpy((p), (s), sizeof(s) - 1), (p) + sizeof(s) - 1)

static size_t value_bound(const run_txn *t, int with_reads)
{
    size_t n = 2 + (size_t)t->n * (16 + 2 * (ISO_INT_MAX_CHARS + 1));
    for (uint32_t i = 0; with_reads && i < t->n; i++)
        n += (size_t)t->mops[i].len * (t->mops[i].text ? 1 : ISO_INT_MAX_CHARS + 1);
    return n;
}

static char *put_read(char *p, const run_txn *t, const run_mop *m)
{
    if (m->nil) return PUT_LIT(p, "null");
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

/* The value; with null_at, where each read's null went (reads are null
 * unless with_reads). */
static char *put_value(char *p, const run_txn *t, int with_reads, uint32_t *null_at)
{
    /* Copied 16 bytes at a time (one move): value_bound leaves room. */
    static const struct { char s[16]; size_t n; } names[] = {
        {"[\"r\",", 5}, {"[\"append\",", 10}, {"[\"w\",", 5}};
    char *start = p;
    *p++ = '[';
    for (uint32_t i = 0; i < t->n; i++) {
        const run_mop *m = &t->mops[i];
        if (i) *p++ = ',';
        memcpy(p, names[m->f].s, sizeof names[m->f].s);
        p += names[m->f].n;
        p = iso_put_i64(p, m->key);
        *p++ = ',';
        if (m->f != RUN_R) {
            p = iso_put_i64(p, m->value);
        } else if (with_reads) {
            p = put_read(p, t, m);
        } else {
            if (null_at) null_at[i] = (uint32_t)(p - start);
            p = PUT_LIT(p, "null");
        }
        *p++ = ']';
    }
    *p++ = ']';
    return p;
}

static void put_value_buf(iso_buf *b, const run_txn *t, int with_reads, uint32_t *null_at)
{
    size_t need = b->n + value_bound(t, with_reads) + 1;
    if (need > b->cap) ISO_GROW(b->p, b->cap, need);
    b->n = (size_t)(put_value(b->p + b->n, t, with_reads, null_at) - b->p);
    b->p[b->n] = '\0'; /* as iso_buf_put leaves it */
}

void rec_value(iso_buf *b, const run_txn *t, int with_reads)
{
    put_value_buf(b, t, with_reads, NULL);
}

char *rec_put_invoke_value(char *p, const run_txn *t, uint32_t *null_at)
{
    return put_value(p, t, 0, null_at);
}

/* Each read's null in inv replaced by its result; the rest copied. */
void rec_ok_value(iso_buf *b, const char *inv, size_t n_inv, const uint32_t *null_at,
                  const run_txn *t)
{
    /* Each read's null becomes at most 21 digits, or its text or
     * elements in brackets. */
    size_t need = b->n + n_inv + t->n_text + (ISO_INT_MAX_CHARS + 1) * t->n_res +
                  (ISO_INT_MAX_CHARS + 3) * (size_t)t->n + 1;
    if (need > b->cap) ISO_GROW(b->p, b->cap, need);
    char *p = b->p + b->n;
    size_t from = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->mops[i].f != RUN_R) continue;
        memcpy(p, inv + from, null_at[i] - from);
        p = put_read(p + (null_at[i] - from), t, &t->mops[i]);
        from = null_at[i] + 4;
    }
    memcpy(p, inv + from, n_inv - from);
    b->n = (size_t)(p + (n_inv - from) - b->p);
    b->p[b->n] = '\0';
}

/* ,"type":"ok","process":  copied 32 bytes at a time */
static const struct { char s[32]; size_t n; } types[] = {
    {",\"type\":\"invoke\",\"process\":", 27}, {",\"type\":\"ok\",\"process\":", 23},
    {",\"type\":\"fail\",\"process\":", 25}, {",\"type\":\"info\",\"process\":", 25}};

size_t rec_head(char *out, int64_t index, int type, int64_t process)
{
    char *p = PUT_LIT(out, "{\"index\":");
    p = iso_put_i64(p, index);
    memcpy(p, types[type & 3].s, sizeof types[type & 3].s);
    p = iso_put_i64(p + types[type & 3].n, process);
    return (size_t)(PUT_LIT(p, ",\"f\":\"txn\",\"value\":") - out);
}

char *rec_head_before(char *end, int64_t index, int type, int64_t process)
{
    size_t n = 9 + iso_digits_u64((uint64_t)index) + types[type & 3].n +
               iso_digits_u64((uint64_t)process) + 19;
    rec_head(end - n, index, type, process);
    return end - n;
}

size_t rec_time(char *out, int64_t time_ns)
{
    char *p = PUT_LIT(out, ",\"time\":");
    return (size_t)(iso_put_i64(p, time_ns) - out);
}

int rec_has_error(int type, const run_txn *t)
{
    return type != ISO_OP_INVOKE && type != ISO_OP_OK && t->error[0];
}

void rec_tail(iso_buf *b, int type, const run_txn *t)
{
    if (rec_has_error(type, t)) {
        iso_buf_puts(b, ",\"error\":");
        iso_json_string(b, t->error, strlen(t->error));
    }
    iso_buf_put(b, "}\n", 2);
}

void rec_line(iso_buf *b, int64_t index, int type, int64_t process,
              const run_txn *t, int64_t time_ns)
{
    ISO_GROW(b->p, b->cap, b->n + REC_HEAD_MAX);
    b->n += rec_head(b->p + b->n, index, type, process);
    rec_value(b, t, type == ISO_OP_OK);
    ISO_GROW(b->p, b->cap, b->n + REC_TIME_MAX);
    b->n += rec_time(b->p + b->n, time_ns);
    rec_tail(b, type, t);
}
