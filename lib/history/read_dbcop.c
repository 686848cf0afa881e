/*
 * history/read_dbcop.c -- dbcop's history file (history.bincode; dbcop,
 * OOPSLA 2019, and PolySI, which reads and writes it): Rust's bincode 1
 * (little-endian, fixed-width integers, a u64 length before every vector
 * and string, a byte 0 or 1 for a bool) of
 *   History { params: 5 x u64 (id, nodes, variables, transactions, events),
 *             info, start, end: strings, data: Vec<Session> }
 *   Session = Vec<Transaction { events: Vec<Event>, success: bool }>
 *   Event { write: bool, variable: u64, value: u64, success: bool }
 * Sessions become processes, a transaction that did not succeed a failed
 * one, an event that did not succeed is left out. Value 0 is every
 * variable's initial value: a read of 0 is a read of the initial state
 * (nil), a write of 0 an error. Binary: errors name the byte offset. Every
 * length is checked against the bytes left before anything is allocated
 * for it, so no input costs more than linear memory.
 */
#include "history/read.h"
#include "history/sessions.h"

#include <stdio.h>
#include <string.h>

#define HEADER 40          /* the five u64 params */
#define EVENT 18           /* bool, u64, u64, bool */
#define DATE_MAX 4096      /* a start or end time's bytes, for detection */

struct dc {
    const unsigned char *p;
    size_t len, pos;
    iso_sess s;
    isolde_error *err;
};

static int fail(struct dc *d, size_t at, const char *what)
{
    return iso_fail(d->err, ISOLDE_ERR_PARSE, d->s.h->name, 0, 0, "at byte %zu: %s", at, what);
}

static uint64_t u64_at(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static int u64(struct dc *d, uint64_t *out, const char *what)
{
    if (d->len - d->pos < 8) {
        char m[128];
        snprintf(m, sizeof m, "the input ends inside %s (8 bytes)", what);
        return fail(d, d->pos, m);
    }
    *out = u64_at(d->p + d->pos);
    d->pos += 8;
    return 0;
}

static int boolean(struct dc *d, int *out, const char *what)
{
    char m[128];
    snprintf(m, sizeof m, "the input ends before %s (a byte 0 or 1)", what);
    if (d->pos == d->len) return fail(d, d->pos, m);
    if (d->p[d->pos] > 1) {
        snprintf(m, sizeof m, "%s is a byte 0 or 1, got %u", what, d->p[d->pos]);
        return fail(d, d->pos, m);
    }
    *out = d->p[d->pos++];
    return 0;
}

/* A vector's length, of items of at least `each` bytes that must fit in
 * what is left. */
static int length(struct dc *d, size_t each, const char *what, uint64_t *n)
{
    size_t at = d->pos;
    if (u64(d, n, what)) return -1;
    if (*n > (d->len - d->pos) / each) {
        char m[192];
        snprintf(m, sizeof m, "%s of %llu items of %zu bytes or more, but %zu bytes are left", what,
                 (unsigned long long)*n, each, d->len - d->pos);
        return fail(d, at, m);
    }
    return 0;
}

static int string(struct dc *d, const char *what)
{
    uint64_t n;
    if (length(d, 1, what, &n)) return -1;
    d->pos += n;
    return 0;
}

static int event(struct dc *d)
{
    size_t at = d->pos;
    int write, ok;
    uint64_t var, value;
    if (boolean(d, &write, "an event's write") || u64(d, &var, "an event's variable") ||
        u64(d, &value, "an event's value") || boolean(d, &ok, "an event's success"))
        return -1;
    if (!ok) return 0;
    if (write && value == 0) return fail(d, at + 9, "a write of 0, which is every variable's initial value in dbcop");
    return iso_sess_mop(&d->s, write, iso_sess_uint(&d->s, var), value ? iso_sess_uint(&d->s, value) : ISO_NIL,
                        d->err);
}

static int transaction(struct dc *d, uint32_t session)
{
    uint64_t n;
    int ok;
    if (length(d, EVENT, "a transaction's events", &n)) return -1;
    for (uint64_t i = 0; i < n; i++)
        if (event(d)) return -1;
    if (boolean(d, &ok, "a transaction's success")) return -1;
    return iso_sess_end(&d->s, session, ok ? ISO_OP_OK : ISO_OP_FAIL, 0, 0, d->err);
}

static int history(struct dc *d)
{
    uint64_t n, m;
    if (d->len < HEADER) return fail(d, d->len, "the input ends inside the header (five 8-byte numbers)");
    d->pos = HEADER;
    if (string(d, "the info string") || string(d, "the start time") || string(d, "the end time") ||
        length(d, 8, "the sessions", &n))
        return -1;
    for (uint64_t s = 0; s < n; s++) {
        if (length(d, 9, "a session's transactions", &m)) return -1;
        uint32_t id = iso_sess_id(&d->s, iso_sess_uint(&d->s, s));
        for (uint64_t t = 0; t < m; t++)
            if (transaction(d, id)) return -1;
    }
    if (d->pos < d->len) return fail(d, d->pos, "bytes after the history's last session");
    return 0;
}

int iso_read_dbcop(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    struct dc d = {(const unsigned char *)buf, len, 0, {0}, err};
    iso_sess_init(&d.s, h);
    h->workload_hint = ISOLDE_WORKLOAD_RW_REGISTER;
    int rc = history(&d);
    if (!rc) iso_sess_emit(&d.s);
    iso_sess_free(&d.s);
    return rc;
}

/* A string of at most max bytes at *at, whose first byte (if any) is a
 * digit when digit is set: 1, *at past it; else 0. */
static int probe_string(const unsigned char *p, size_t len, size_t *at, size_t max, int digit)
{
    if (len - *at < 8) return 0;
    uint64_t n = u64_at(p + *at);
    if (n > max || n > len - *at - 8) return 0;
    *at += 8;
    if (digit && (n == 0 || p[*at] < '0' || p[*at] > '9')) return 0;
    *at += n;
    return 1;
}

isolde_format iso_detect_binary(const char *buf, size_t len)
{
    const unsigned char *p = (const unsigned char *)buf;
    size_t at = HEADER;
    if (iso_cobra_looks(buf, len)) return ISOLDE_FORMAT_COBRA;
    if (len < HEADER + 32 || !memchr(p, 0, HEADER)) return ISOLDE_FORMAT_AUTO;
    if (probe_string(p, len, &at, len, 0) && probe_string(p, len, &at, DATE_MAX, 1) &&
        probe_string(p, len, &at, DATE_MAX, 1) && len - at >= 8)
        return ISOLDE_FORMAT_DBCOP;
    return ISOLDE_FORMAT_AUTO;
}
