/*
 * history/sessions.c -- a history given as sessions of transactions of
 * register reads and writes (the research checkers' formats) made into
 * ops: each transaction an invocation and a completion on its session's
 * process, laid out round by round (sessions.h). Invariant: every
 * transaction kept is within ISO_MAX_OPS / 2, so emitting cannot fail.
 */
#include "history/sessions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void iso_sess_init(iso_sess *s, isolde_history *h)
{
    memset(s, 0, sizeof *s);
    s->h = h;
    iso_keys_init(&s->ids, &h->store);
    s->r = iso_atom(&h->store, ISO_TAG_KW, "r", 1);
    s->w = iso_atom(&h->store, ISO_TAG_KW, "w", 1);
    s->txn = iso_atom(&h->store, ISO_TAG_KW, "txn", 3);
    s->t0 = s->t1 = -1;
}

void iso_sess_free(iso_sess *s)
{
    iso_keys_free(&s->ids);
    iso_free(s->txns);
    iso_free(s->mops);
}

iso_val iso_sess_uint(iso_sess *s, uint64_t x)
{
    char text[24];
    if (x < (uint64_t)ISO_INT_MAX) return iso_int((int64_t)x);
    int n = snprintf(text, sizeof text, "%llu", (unsigned long long)x);
    return iso_int_text(&s->h->store, text, (size_t)n);
}

iso_val iso_sess_int(iso_sess *s, int64_t x)
{
    char text[24];
    if (iso_int_fits(x)) return iso_int(x);
    int n = snprintf(text, sizeof text, "%lld", (long long)x);
    return iso_int_text(&s->h->store, text, (size_t)n);
}

uint32_t iso_sess_id(iso_sess *s, iso_val v) { return iso_keys_intern(&s->ids, v); }

int iso_sess_mop(iso_sess *s, int write, iso_val key, iso_val value, isolde_error *err)
{
    if (s->n_mops + 1 > ISO_MAX_ITEMS)
        return iso_fail(err, ISOLDE_ERR_LIMIT, s->h->name, 0, 0,
                        "a transaction of more than %zu operations", ISO_MAX_ITEMS);
    iso_val mop[3] = {write ? s->w : s->r, key, value};
    ISO_PUSH(s->mops, s->n_mops, s->cap_mops, iso_seq(&s->h->store, ISO_SEQ_VEC, mop, 3));
    return 0;
}

int iso_sess_end(iso_sess *s, uint32_t session, int type, uint32_t line, uint32_t col, isolde_error *err)
{
    if (2 * (s->n_txns + 1) > ISO_MAX_OPS)
        return iso_fail(err, ISOLDE_ERR_LIMIT, s->h->name, line, col,
                        "more than %zu transactions (2 ops each: at most %zu ops)", ISO_MAX_OPS / 2, ISO_MAX_OPS);
    iso_sess_txn t = {session, line, col, iso_seq(&s->h->store, ISO_SEQ_VEC, s->mops, s->n_mops), s->t0, s->t1,
                      (uint8_t)type};
    ISO_PUSH(s->txns, s->n_txns, s->cap_txns, t);
    s->n_mops = 0;
    s->t0 = s->t1 = -1;
    return 0;
}

/* An op's place in the layout: its key (twice its time, plus one for an
 * invocation, so that a commit comes before a start at the same time; or
 * twice its round, plus one for a completion), then its session. */
struct slot {
    int64_t at;
    uint32_t completion, session, txn;
};

static int cmp_slot(const void *a, const void *b)
{
    const struct slot *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    if (x->completion != y->completion) return x->completion < y->completion ? -1 : 1;
    if (x->session != y->session) return x->session < y->session ? -1 : 1;
    return x->txn < y->txn ? -1 : x->txn > y->txn;
}

static void add(iso_sess *s, const struct slot *at)
{
    isolde_history *h = s->h;
    const iso_sess_txn *t = &s->txns[at->txn];
    iso_op op = {.index = (int64_t)h->n_ops, .time = at->completion ? t->t1 : t->t0, .value = t->value,
                 .line = t->line, .col = t->col, .type = at->completion ? t->type : ISO_OP_INVOKE};
    iso_history_add_op(h, &op, iso_int(t->session), s->txn, ISO_NIL, NULL); /* (iso_sess_end kept the count) */
}

void iso_sess_emit(iso_sess *s)
{
    uint32_t *rank = iso_xcalloc(s->ids.n + 1, sizeof *rank);
    struct slot *slots = iso_xmalloc((2 * s->n_txns + 1) * sizeof *slots);
    for (size_t i = 0; i < s->n_txns; i++) {
        const iso_sess_txn *t = &s->txns[i];
        int64_t round = rank[t->session]++, timed = t->t0 >= 0; /* times are below 2^62 */
        slots[2 * i] = (struct slot){timed ? 2 * t->t0 + 1 : 2 * round, 0, t->session, (uint32_t)i};
        slots[2 * i + 1] = (struct slot){timed ? 2 * t->t1 : 2 * round + 1, 1, t->session, (uint32_t)i};
    }
    qsort(slots, 2 * s->n_txns, sizeof *slots, cmp_slot);
    s->h->dense_index = 1;
    for (size_t i = 0; i < 2 * s->n_txns; i++) add(s, &slots[i]);
    iso_free(slots);
    iso_free(rank);
}

/* ---- the text formats' lines ------------------------------------------ */

void iso_sess_blanks(iso_rd *rd)
{
    while (!iso_rd_eof(rd) && (rd->p[rd->pos] == ' ' || rd->p[rd->pos] == '\t' || rd->p[rd->pos] == '\r'))
        rd->pos++;
}

int iso_sess_lines(iso_rd *rd, const char *buf, size_t len, int (*fn)(void *arg), void *arg)
{
    for (size_t start = 0, line = rd->h->line_base + 1; start < len; line++) {
        const char *nl = memchr(buf + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - buf) : len;
        rd->pos = rd->line_start = start;
        rd->line = line;
        rd->len = end;
        iso_sess_blanks(rd);
        if (!iso_rd_eof(rd) && fn(arg)) return -1;
        start = end + 1;
    }
    return 0;
}

static int line_ends(iso_rd *rd, const char *what)
{
    return iso_rd_fail(rd, "the line ends where %s was expected", what);
}

int iso_sess_byte(iso_rd *rd, char c, const char *what)
{
    if (iso_rd_eof(rd)) return line_ends(rd, what);
    if (rd->p[rd->pos] != c) return iso_rd_unexpected(rd, what);
    rd->pos++;
    return 0;
}

int iso_sess_number(iso_rd *rd, uint64_t max, const char *what, uint64_t *out)
{
    size_t col = (size_t)iso_rd_col(rd);
    if (iso_rd_eof(rd)) return line_ends(rd, what);
    if (rd->p[rd->pos] < '0' || rd->p[rd->pos] > '9') return iso_rd_unexpected(rd, what);
    uint64_t v = 0;
    for (; !iso_rd_eof(rd) && rd->p[rd->pos] >= '0' && rd->p[rd->pos] <= '9'; rd->pos++) {
        unsigned d = (unsigned)(rd->p[rd->pos] - '0');
        if (v > (max - d) / 10)
            return iso_rd_fail_at(rd, rd->line, col, "%s is more than %llu", what, (unsigned long long)max);
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}
