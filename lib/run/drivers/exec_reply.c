/*
 * run/drivers/exec_reply.c -- reading one reply line of the exec protocol
 * (docs/FORMATS.md section 7):
 *   {"type":"ok","value":[["append",3,7],["r",4,[1,7]]]}
 *   {"type":"fail","error":"serialization failure"}
 * An ok reply must repeat the request's micro-ops (same function, key and
 * written value) and fills in the reads. Anything else is garbage, which
 * the driver records as info. The input is untrusted: bounded nesting, no
 * recursion, every read checked against the end of the line.
 */
#include <string.h>
#include "run/drivers/exec.h"

struct cur { const char *p, *end; };

static void ws(struct cur *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || *c->p == '\n'))
        c->p++;
}

static int eat(struct cur *c, char ch)
{
    ws(c);
    if (c->p >= c->end || *c->p != ch) return 0;
    c->p++;
    return 1;
}

/* A string without escapes beyond \" and \\ kept (others copied raw). */
static int str(struct cur *c, char *out, size_t cap)
{
    if (!eat(c, '"')) return 0;
    size_t n = 0;
    while (c->p < c->end && *c->p != '"') {
        if (*c->p == '\\' && c->p + 1 < c->end) c->p++;
        if (out && n + 1 < cap) out[n++] = *c->p;
        c->p++;
    }
    if (out && cap) out[n] = '\0';
    return eat(c, '"');
}

static int num(struct cur *c, int64_t *v)
{
    ws(c);
    const char *s = c->p;
    int neg = s < c->end && *s == '-';
    if (neg) s++;
    uint64_t u = 0;
    const char *d = s;
    for (; s < c->end && *s >= '0' && *s <= '9'; s++) {
        if (u > (UINT64_MAX - 9) / 10 || s - d > 18) return 0;
        u = u * 10 + (uint64_t)(*s - '0');
    }
    if (s == d) return 0;
    c->p = s;
    *v = neg ? -(int64_t)u : (int64_t)u;
    return 1;
}

static int lit(struct cur *c, const char *word)
{
    ws(c);
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0) return 0;
    c->p += n;
    return 1;
}

/* Skip any JSON value (iteratively; nesting bounded). */
static int skip(struct cur *c)
{
    int depth = 0;
    do {
        ws(c);
        if (c->p >= c->end) return 0;
        char ch = *c->p;
        if (ch == '"') { if (!str(c, NULL, 0)) return 0; }
        else if (ch == '[' || ch == '{') { if (++depth > 64) return 0; c->p++; continue; }
        else if (ch == ']' || ch == '}') { depth--; c->p++; }
        else if (ch == ',' || ch == ':') { c->p++; continue; }
        else if (ch == '-' || (ch >= '0' && ch <= '9')) { int64_t v; if (!num(c, &v)) return 0; }
        else if (!lit(c, "null") && !lit(c, "true") && !lit(c, "false")) return 0;
    } while (depth > 0);
    return 1;
}

static int read_result(struct cur *c, run_txn *t, uint32_t i)
{
    run_mop *m = &t->mops[i];
    if (lit(c, "null")) return 1;
    if (!t->list_append) {
        if (!num(c, &m->value)) return 0;
        m->nil = 0;
        return 1;
    }
    if (!eat(c, '[')) return 0;
    run_txn_read_begin(t, i);
    if (eat(c, ']')) return 1;
    do {
        int64_t e;
        if (!num(c, &e)) return 0;
        run_txn_read_elem(t, i, e);
    } while (eat(c, ','));
    return eat(c, ']');
}

static int mop(struct cur *c, run_txn *t, uint32_t i)
{
    static const char *const names[] = {"r", "append", "w"};
    run_mop *m = &t->mops[i];
    char f[16];
    int64_t key, val;
    if (!eat(c, '[') || !str(c, f, sizeof f) || strcmp(f, names[m->f]) != 0) return 0;
    if (!eat(c, ',') || !num(c, &key) || key != m->key || !eat(c, ',')) return 0;
    if (m->f == RUN_R) {
        if (!read_result(c, t, i)) return 0;
    } else if (!num(c, &val) || val != m->value) {
        return 0;
    }
    return eat(c, ']');
}

static int value(struct cur *c, run_txn *t)
{
    run_txn_clear_reads(t);
    if (!eat(c, '[')) return 0;
    for (uint32_t i = 0; i < t->n; i++)
        if ((i && !eat(c, ',')) || !mop(c, t, i)) return 0;
    return eat(c, ']');
}

static int outcome_of(const char *type)
{
    if (strcmp(type, "ok") == 0) return RUN_OK;
    if (strcmp(type, "fail") == 0) return RUN_FAIL;
    if (strcmp(type, "info") == 0) return RUN_INFO;
    return -1;
}

int exec_parse_reply(const char *line, size_t len, run_txn *t)
{
    struct cur c = {line, line + len}, val = {NULL, NULL};
    char type[16] = "", key[32], err[sizeof t->error] = "";
    if (!eat(&c, '{')) return -1;
    if (!eat(&c, '}')) do {
        if (!str(&c, key, sizeof key) || !eat(&c, ':')) return -1;
        if (strcmp(key, "type") == 0) { if (!str(&c, type, sizeof type)) return -1; continue; }
        if (strcmp(key, "error") == 0 && lit(&c, "null")) continue;
        if (strcmp(key, "error") == 0) { if (!str(&c, err, sizeof err)) return -1; continue; }
        if (strcmp(key, "value") == 0) val = c;
        if (!skip(&c)) return -1;
    } while (eat(&c, ','));
    if (!eat(&c, '}')) return -1;
    ws(&c);
    int outcome = outcome_of(type);
    if (c.p != c.end || outcome < 0) return -1;
    if (outcome == RUN_OK && (!val.p || !value(&val, t))) return -1;
    snprintf(t->error, sizeof t->error, "%s", err);
    return outcome;
}
