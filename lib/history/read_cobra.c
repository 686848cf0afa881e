/*
 * history/read_cobra.c -- Cobra's logs (Cobra, OSDI 2020; PolySI and AWDIT
 * read them): a directory of ".log" files, one a session (input_dir.c
 * frames them), or one such file alone. A log is binary records, each a
 * byte and big-endian 8-byte integers:
 *   'S' TXN                       a transaction starts
 *   'W' WRITE_ID KEY VALUE        a write (WRITE_ID unique: the value isolde keeps)
 *   'R' WRITE_TXN WRITE_ID KEY VALUE   a read of the write WRITE_ID
 *   'C' TXN                       it commits
 * A read whose WRITE_TXN is Cobra's initial (0xbebeebee) or null
 * (0xdeadbeef) transaction reads the initial state (nil) when WRITE_ID is
 * the initial or null write; Cobra's garbage-collection reads (WRITE_ID
 * 0x23332333 or 0x66666666 of the initial transaction) read no data and
 * are left out. Every transaction must commit ('A', an abort, is refused,
 * as Cobra's loaders do), and a log that ends inside one is an error.
 * Errors name the log and the byte offset in it. Invariant: the cursor
 * never passes the end of the log it is in.
 */
#include "history/input.h"
#include "history/read.h"
#include "history/sessions.h"

#include <stdio.h>
#include <string.h>

#define INIT_TXN 0xbebeebeeu
#define NULL_TXN 0xdeadbeefu
#define GC_TRUE 0x23332333u
#define GC_FALSE 0x66666666u

struct cb {
    const unsigned char *p;
    size_t pos, end;     /* the log being read: [start, end) */
    size_t start;
    char file[512];      /* its name, for messages */
    iso_sess s;
    uint32_t session;
    isolde_error *err;
};

static int fail(struct cb *c, size_t at, const char *what)
{
    return iso_fail(c->err, ISOLDE_ERR_PARSE, c->file, 0, 0, "at byte %zu: %s", at - c->start, what);
}

static int64_t be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return (int64_t)v;
}

/* n 8-byte integers after the record's byte, into x. */
static int fields(struct cb *c, int64_t *x, int n, const char *what)
{
    if (c->end - c->pos < (size_t)n * 8) {
        char m[160];
        snprintf(m, sizeof m, "the log ends inside %s (%d 8-byte numbers after its byte)", what, n);
        return fail(c, c->pos - 1, m);
    }
    for (int i = 0; i < n; i++, c->pos += 8) x[i] = be64(c->p + c->pos);
    return 0;
}

/* A read's value: its write id, nil for the initial state; 1 when it is a
 * garbage-collection read (left out). */
static int read_value(struct cb *c, const int64_t *x, size_t at, iso_val *v)
{
    uint64_t txn = (uint64_t)x[0], wid = (uint64_t)x[1];
    *v = iso_sess_int(&c->s, x[1]);
    if (txn != INIT_TXN && txn != NULL_TXN) return 0;
    if (wid == INIT_TXN || wid == NULL_TXN) return *v = ISO_NIL, 0;
    if (txn == INIT_TXN && (wid == GC_TRUE || wid == GC_FALSE)) return 1;
    return fail(c, at, "a read of Cobra's initial or null transaction, of a write that is neither theirs nor a "
                       "garbage collection's");
}

/* One record at the cursor; *open: a transaction is open (its id in *txn). */
static int record(struct cb *c, int *open, int64_t *txn)
{
    size_t at = c->pos;
    unsigned char op = c->p[c->pos++];
    int64_t x[4];
    iso_val v;
    switch (op) {
    case 'S':
        if (*open) return fail(c, at, "a transaction starts inside another ('S' before the last one's 'C')");
        *open = 1;
        return fields(c, txn, 1, "a start");
    case 'C':
        if (fields(c, x, 1, "a commit")) return -1;
        if (!*open || x[0] != *txn) return fail(c, at, "a commit ('C') of no transaction open, or of another one");
        *open = 0;
        return iso_sess_end(&c->s, c->session, ISO_OP_OK, 0, 0, c->err);
    case 'W':
    case 'R':
        if (!*open) return fail(c, at, "an operation outside a transaction (before its 'S')");
        if (fields(c, x, op == 'W' ? 3 : 4, op == 'W' ? "a write" : "a read")) return -1;
        if (op == 'W') return iso_sess_mop(&c->s, 1, iso_sess_int(&c->s, x[1]), iso_sess_int(&c->s, x[0]), c->err);
        int r = read_value(c, x, at, &v);
        return r ? (r > 0 ? 0 : -1) : iso_sess_mop(&c->s, 0, iso_sess_int(&c->s, x[2]), v, c->err);
    case 'A': return fail(c, at, "an aborted transaction ('A'): Cobra's logs hold committed ones");
    default: {
        char m[96];
        snprintf(m, sizeof m, "unexpected byte 0x%02x, expected a record: S, W, R or C", op);
        return fail(c, at, m);
    }
    }
}

/* The log [c->start, c->end), a session of its own. */
static int one_log(struct cb *c)
{
    int open = 0;
    int64_t txn = 0;
    c->session = iso_sess_id(&c->s, iso_sess_uint(&c->s, c->s.ids.n));
    for (c->pos = c->start; c->pos < c->end;)
        if (record(c, &open, &txn)) return -1;
    return open ? fail(c, c->end, "the log ends inside a transaction (no 'C')") : 0;
}

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* input_dir.c's frames, each a log. */
static int frames(struct cb *c, const char *dir, size_t len)
{
    for (size_t at = 0; at < len;) {
        if (len - at < 14 || memcmp(c->p + at, ISO_DIR_MARK, 2) != 0 || le(c->p + at + 2, 4) > len - at - 14)
            return iso_fail(c->err, ISOLDE_ERR_PARSE, dir, 0, 0, "not a directory's logs (at byte %zu)", at);
        size_t n = (size_t)le(c->p + at + 2, 4);
        snprintf(c->file, sizeof c->file, "%s/%.*s", dir, (int)(n < 400 ? n : 400), (const char *)c->p + at + 6);
        uint64_t size = le(c->p + at + 6 + n, 8);
        c->start = at + 6 + n + 8;
        if (size > len - c->start) return iso_fail(c->err, ISOLDE_ERR_PARSE, dir, 0, 0, "a log's frame is cut short");
        c->end = c->start + (size_t)size;
        if (one_log(c)) return -1;
        at = c->end;
    }
    return 0;
}

int iso_read_cobra(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    struct cb c = {(const unsigned char *)buf, 0, len, 0, "", {0}, 0, err};
    snprintf(c.file, sizeof c.file, "%s", h->name);
    iso_sess_init(&c.s, h);
    h->workload_hint = ISOLDE_WORKLOAD_RW_REGISTER;
    int rc = len >= 2 && memcmp(buf, ISO_DIR_MARK, 2) == 0 ? frames(&c, h->name, len) : one_log(&c);
    if (!rc) iso_sess_emit(&c.s);
    iso_sess_free(&c.s);
    return rc;
}

/* Whether buf begins as a Cobra log (a start record, then another record)
 * or a directory of them. */
int iso_cobra_looks(const char *buf, size_t len)
{
    const unsigned char *p = (const unsigned char *)buf;
    if (len >= 14 && memcmp(p, ISO_DIR_MARK, 2) == 0) return 1;
    return len >= 10 && p[0] == 'S' && memchr(p + 1, 0, 8) && (p[9] == 'W' || p[9] == 'R' || p[9] == 'C');
}
