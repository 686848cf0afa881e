/*
 * hist.c -- the oracle's histories as Elle JSON lines: a small reader for
 * the shape isolde and Elle read (one op map per line with "process",
 * "type" and "value"; other fields are skipped), and the writer the
 * generator and the shrinker use. An invocation is paired with the next
 * completion of its process; a completion with no invocation is a
 * transaction of its own; an invocation never completed is :info. The
 * position of each line gives real-time order.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

struct jp {
    const char *s;
    const char *err;
};

static void ws(struct jp *p)
{
    while (isspace((unsigned char)*p->s)) p->s++;
}

static bool fail(struct jp *p, const char *msg)
{
    if (!p->err) p->err = msg;
    return false;
}

static bool expect(struct jp *p, char c)
{
    ws(p);
    if (*p->s != c) return fail(p, "unexpected character");
    p->s++;
    return true;
}

static bool peek(struct jp *p, char c)
{
    ws(p);
    return *p->s == c;
}

static bool literal(struct jp *p, const char *word)
{
    ws(p);
    size_t n = strlen(word);
    if (strncmp(p->s, word, n)) return false;
    p->s += n;
    return true;
}

/* A string without escapes other than \" and \\ (enough for keys). */
static bool string(struct jp *p, char *buf, size_t size)
{
    size_t n = 0;
    if (!expect(p, '"')) return false;
    for (; *p->s && *p->s != '"'; p->s++) {
        if (*p->s == '\\' && p->s[1]) p->s++;
        if (n + 1 < size) buf[n++] = *p->s;
    }
    if (size) buf[n] = 0;
    return expect(p, '"');
}

static bool integer(struct jp *p, int *v)
{
    ws(p);
    char *end;
    long x = strtol(p->s, &end, 10);
    if (end == p->s || x < -1000000000L || x > 1000000000L || *end == '.' || *end == 'e')
        return fail(p, "expected an integer");
    p->s = end;
    *v = (int)x;
    return true;
}

static bool skip_value(struct jp *p, int depth);

static bool skip_items(struct jp *p, char close, bool keys, int depth)
{
    char tmp[8];
    if (peek(p, close)) return p->s++, true;
    do {
        if (keys && !(string(p, tmp, sizeof tmp) && expect(p, ':'))) return false;
        if (!skip_value(p, depth + 1)) return false;
    } while (peek(p, ',') && p->s++);
    return expect(p, close);
}

static bool skip_value(struct jp *p, int depth)
{
    char tmp[8];
    if (depth > 32) return fail(p, "nested too deep");
    ws(p);
    if (*p->s == '"') return string(p, tmp, sizeof tmp);
    if (*p->s == '[') return p->s++, skip_items(p, ']', false, depth);
    if (*p->s == '{') return p->s++, skip_items(p, '}', true, depth);
    if (literal(p, "null") || literal(p, "true") || literal(p, "false")) return true;
    char *end;
    strtod(p->s, &end);
    if (end == p->s) return fail(p, "expected a value");
    p->s = end;
    return true;
}

/* ---- micro-ops ------------------------------------------------------------------ */

static int key_id(struct or_hist *h, const char *name, struct jp *p)
{
    for (int k = 0; k < h->nkeys; k++)
        if (!strcmp(h->key[k], name)) return k;
    if (h->nkeys == OR_MAXK) return fail(p, "too many keys for the oracle"), -1;
    snprintf(h->key[h->nkeys], sizeof h->key[0], "%s", name);
    return h->nkeys++;
}

static bool mop_key(struct jp *p, struct or_hist *h, int *key)
{
    char name[32];
    ws(p);
    if (*p->s == '"') {
        if (!string(p, name, sizeof name)) return false;
    } else {
        int v;
        if (!integer(p, &v)) return false;
        snprintf(name, sizeof name, "%d", v);
    }
    *key = key_id(h, name, p);
    return *key >= 0;
}

static bool read_value(struct jp *p, struct or_hist *h, struct or_mop *m)
{
    m->n = -1;
    if (literal(p, "null")) {
        if (h->wl == OR_RW) m->n = 1, m->rd[0] = OR_NIL;
        else m->n = 0;
        return true;
    }
    if (h->wl == OR_RW) return m->n = 1, integer(p, &m->rd[0]);
    if (!expect(p, '[')) return false;
    m->n = 0;
    if (peek(p, ']')) return p->s++, true;
    do {
        if (m->n == OR_MAXL) return fail(p, "list read too long for the oracle");
        if (!integer(p, &m->rd[m->n++])) return false;
    } while (peek(p, ',') && p->s++);
    return expect(p, ']');
}

static bool mop(struct jp *p, struct or_hist *h, struct or_mop *m)
{
    char f[16];
    memset(m, 0, sizeof *m);
    if (!expect(p, '[') || !string(p, f, sizeof f) || !expect(p, ',') || !mop_key(p, h, &m->key) ||
        !expect(p, ','))
        return false;
    if (!strcmp(f, "r")) m->f = OR_READ;
    else if (!strcmp(f, "append") && h->wl == OR_LA) m->f = OR_APPEND;
    else if (!strcmp(f, "w") && h->wl == OR_RW) m->f = OR_WRITE;
    else return fail(p, "unexpected micro-op for the workload");
    bool ok = m->f == OR_READ ? read_value(p, h, m) : integer(p, &m->val);
    return ok && expect(p, ']');
}

static bool mops(struct jp *p, struct or_hist *h, struct or_txn *t)
{
    t->nm = 0;
    if (!expect(p, '[')) return false;
    if (peek(p, ']')) return p->s++, true;
    do {
        if (t->nm == OR_MAXM) return fail(p, "transaction too long for the oracle");
        if (!mop(p, h, &t->m[t->nm++])) return false;
    } while (peek(p, ',') && p->s++);
    return expect(p, ']');
}

/* ---- one line ------------------------------------------------------------------ */

struct line {
    char type[16];
    bool has_proc, has_value;
    int proc;
    struct or_txn t; /* its micro-ops */
};

static bool field(struct jp *p, struct or_hist *h, struct line *l)
{
    char name[32];
    if (!string(p, name, sizeof name) || !expect(p, ':')) return false;
    if (!strcmp(name, "type")) return string(p, l->type, sizeof l->type);
    if (!strcmp(name, "value")) return l->has_value = true, mops(p, h, &l->t);
    if (!strcmp(name, "process")) {
        ws(p);
        if (*p->s == '"') return skip_value(p, 0); /* "nemesis": not a client */
        return l->has_proc = true, integer(p, &l->proc);
    }
    return skip_value(p, 0);
}

static bool parse_line(struct jp *p, struct or_hist *h, struct line *l)
{
    memset(l, 0, sizeof *l);
    if (!expect(p, '{')) return false;
    if (!peek(p, '}'))
        do {
            if (!field(p, h, l)) return false;
        } while (peek(p, ',') && p->s++);
    if (!expect(p, '}')) return false;
    ws(p);
    return *p->s ? fail(p, "text after the op map") : true;
}

/* ---- pairing ------------------------------------------------------------------ */

struct pairing {
    int open[64]; /* per process slot: the transaction in flight, or -1 */
    int procs[64], nprocs;
};

static int proc_slot(struct pairing *pr, int proc)
{
    for (int i = 0; i < pr->nprocs; i++)
        if (pr->procs[i] == proc) return i;
    if (pr->nprocs == 64) return -1;
    pr->procs[pr->nprocs] = proc, pr->open[pr->nprocs] = -1;
    return pr->nprocs++;
}

static int type_of(const char *s)
{
    return !strcmp(s, "ok") ? OR_OK : !strcmp(s, "fail") ? OR_FAIL : !strcmp(s, "info") ? OR_INFO : -1;
}

/* The completion's reads go into the invocation's micro-ops; only an ok
 * completion's reads are known. */
static const char *complete(struct or_txn *t, const struct line *l, int type, int pos)
{
    if (l->t.nm != t->nm) return "completion's micro-ops differ from the invocation's";
    for (int j = 0; j < t->nm; j++) {
        const struct or_mop *c = &l->t.m[j];
        if (c->f != t->m[j].f || c->key != t->m[j].key) return "completion's micro-ops differ";
        if (c->f == OR_READ) t->m[j] = *c;
        if (c->f == OR_READ && type != OR_OK) t->m[j].n = -1;
    }
    t->type = type, t->cmp = pos;
    return NULL;
}

static const char *add_line(struct or_hist *h, struct pairing *pr, const struct line *l, int pos)
{
    if (!l->has_proc) return NULL; /* not a client op */
    if (!l->has_value) return "op without a value";
    int slot = proc_slot(pr, l->proc), type = type_of(l->type);
    if (slot < 0) return "too many processes for the oracle";
    if (!strcmp(l->type, "invoke")) {
        if (pr->open[slot] >= 0) return "a second invocation with one in flight";
        if (h->n == OR_MAXT) return "too many transactions for the oracle";
        struct or_txn *t = &h->t[h->n];
        *t = l->t;
        t->type = OR_INFO, t->proc = l->proc, t->inv = pos, t->cmp = -1;
        for (int j = 0; j < t->nm; j++) t->m[j].n = -1;
        pr->open[slot] = h->n++;
        return NULL;
    }
    if (type < 0) return "unknown op type";
    if (pr->open[slot] < 0) { /* a completion alone */
        if (h->n == OR_MAXT) return "too many transactions for the oracle";
        struct or_txn *t = &h->t[h->n++];
        *t = l->t;
        t->proc = l->proc, t->inv = pos;
        return complete(t, l, type, pos);
    }
    struct or_txn *t = &h->t[pr->open[slot]];
    pr->open[slot] = -1;
    return complete(t, l, type, pos);
}

static bool check_limits(const struct or_hist *h, const char **msg)
{
    int cand = 0;
    for (int i = 0; i < h->n; i++) cand += h->t[i].type != OR_FAIL;
    if (cand > OR_MAXC) return *msg = "too many ok and info transactions for the oracle", false;
    for (int k = 0; k < h->nkeys; k++)
        for (int i = 0; i < h->n; i++)
            for (int j = 0; j < h->t[i].nm; j++) {
                const struct or_mop *m = &h->t[i].m[j];
                int w, mm;
                if (m->f == OR_READ || m->key != k) continue;
                if ((w = or_writer(h, k, m->val, &mm)) != i)
                    return *msg = "a value written twice to one key", false;
                for (int j2 = 0; j2 < j; j2++)
                    if (h->t[i].m[j2].f != OR_READ && h->t[i].m[j2].key == k && h->t[i].m[j2].val == m->val)
                        return *msg = "a value written twice to one key", false;
            }
    return true;
}

/* Parses JSON lines held in memory (name for messages). */
static bool parse_jsonl(const char *name, const char *text, int wl, struct or_hist *h)
{
    struct pairing pr = {.nprocs = 0};
    memset(h, 0, sizeof *h);
    h->wl = wl;
    int lineno = 0, pos = 0;
    const char *msg = NULL;
    for (const char *s = text; *s && !msg; lineno++) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char *buf = malloc(len + 1);
        memcpy(buf, s, len), buf[len] = 0;
        s += len + (nl != NULL);
        struct jp p = {buf, NULL};
        ws(&p);
        if (*p.s) {
            static struct line l;
            msg = parse_line(&p, h, &l) ? add_line(h, &pr, &l, pos++) : p.err;
        }
        free(buf);
    }
    if (!msg && !check_limits(h, &msg)) lineno = 0;
    if (msg) fprintf(stderr, "%s:%d: %s\n", name, lineno, msg);
    else or_compact_positions(h);
    return msg == NULL;
}

bool or_read_jsonl(const char *path, int wl, struct or_hist *h)
{
    FILE *f = fopen(path, "r");
    if (!f) return fprintf(stderr, "%s: cannot open\n", path), false;
    size_t cap = 4096, n = 0;
    char *text = malloc(cap);
    for (size_t k; (k = fread(text + n, 1, cap - n - 1, f)) > 0;) {
        n += k;
        if (n + 1 == cap) text = realloc(text, cap *= 2);
    }
    fclose(f);
    text[n] = 0;
    bool ok = parse_jsonl(path, text, wl, h);
    free(text);
    return ok;
}

/* ---- writing ------------------------------------------------------------------ */

static void put_key(const struct or_hist *h, int k, FILE *out)
{
    static const char *const names[OR_MAXK] = {"x", "y", "z", "w"};
    fprintf(out, "\"%s\"", h->key[k][0] ? h->key[k] : names[k]);
}

static void put_mop(const struct or_hist *h, const struct or_mop *m, bool reads, FILE *out)
{
    fprintf(out, "[\"%s\",", m->f == OR_APPEND ? "append" : m->f == OR_WRITE ? "w" : "r");
    put_key(h, m->key, out);
    if (m->f != OR_READ) fprintf(out, ",%d]", m->val);
    else if (!reads || m->n < 0 || (h->wl == OR_RW && m->rd[0] == OR_NIL)) fprintf(out, ",null]");
    else if (h->wl == OR_RW) fprintf(out, ",%d]", m->rd[0]);
    else {
        fprintf(out, ",[");
        for (int i = 0; i < m->n; i++) fprintf(out, "%s%d", i ? "," : "", m->rd[i]);
        fprintf(out, "]]");
    }
}

static void put_op(const struct or_hist *h, int txn, bool done, int index, FILE *out)
{
    static const char *const types[] = {"ok", "fail", "info"};
    const struct or_txn *t = &h->t[txn];
    fprintf(out, "{\"index\":%d,\"type\":\"%s\",\"process\":%d,\"f\":\"txn\",\"value\":[", index,
            done ? types[t->type] : "invoke", t->proc);
    for (int j = 0; j < t->nm; j++) {
        if (j) fputc(',', out);
        put_mop(h, &t->m[j], done && t->type == OR_OK, out);
    }
    fprintf(out, "],\"time\":%d}\n", index * 1000000);
}

/* The events (invocations and completions) in position order: txn * 2 +
 * (0 invocation | 1 completion). Returns their count. */
static int events(const struct or_hist *h, int *ev)
{
    int n = 0;
    for (int i = 0; i < h->n; i++) {
        ev[n++] = i * 2;
        if (h->t[i].cmp >= 0) ev[n++] = i * 2 + 1;
    }
    for (int a = 1; a < n; a++) /* insertion sort: at most 2 * OR_MAXT */
        for (int b = a; b > 0; b--) {
            const struct or_txn *x = &h->t[ev[b - 1] / 2], *y = &h->t[ev[b] / 2];
            int px = ev[b - 1] & 1 ? x->cmp : x->inv, py = ev[b] & 1 ? y->cmp : y->inv;
            if (px <= py) break;
            int tmp = ev[b];
            ev[b] = ev[b - 1], ev[b - 1] = tmp;
        }
    return n;
}

void or_write_jsonl(const struct or_hist *h, FILE *out)
{
    int ev[2 * OR_MAXT], n = events(h, ev);
    for (int e = 0; e < n; e++) put_op(h, ev[e] / 2, ev[e] & 1, e, out);
}

char *or_jsonl_string(const struct or_hist *h, size_t *len)
{
    char *s = NULL;
    FILE *f = open_memstream(&s, len);
    or_write_jsonl(h, f);
    fclose(f);
    return s;
}

int or_size(const struct or_hist *h)
{
    int n = 0;
    for (int i = 0; i < h->n; i++) n += h->t[i].nm;
    return n;
}

/* Positions 0.. in the same order (2 per completed transaction). */
void or_compact_positions(struct or_hist *h)
{
    int ev[2 * OR_MAXT], n = events(h, ev);
    for (int e = 0; e < n; e++) {
        struct or_txn *t = &h->t[ev[e] / 2];
        if (ev[e] & 1) t->cmp = e;
        else t->inv = e;
    }
}
