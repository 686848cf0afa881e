/*
 * crosscheck_gen.h -- the random histories of the cross-check
 * (crosscheck.c): a simulated sloppy database (stale snapshots, mangled
 * reads, lost appends, dirty aborts, reordered commits) driven by fixed
 * seeds, and the JSON lines it records. Included by crosscheck.c only.
 */
#ifndef ISO_CROSSCHECK_GEN_H
#define ISO_CROSSCHECK_GEN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolde.h"

#define MAXT 8  /* transactions per history */
#define MAXM 3  /* micro-ops per transaction */
#define MAXK 3  /* keys */
#define MAXP 5  /* process slots */
#define MAXL 32 /* elements of one list read */
#define NIL (-1)
#define GARBAGE 100 /* values from here on were never written */

enum { WL_LA, WL_RW };
enum { F_APPEND, F_WRITE, F_READ };
enum { T_OK, T_FAIL, T_INFO };

typedef struct mop {
    int f, key, val; /* val: the appended / written value */
    int n;           /* read: element count (LA), 1 (RW); -1 unknown */
    int rd[MAXL];    /* read: the list (LA), or rd[0] = value / NIL (RW) */
} mop;

typedef struct txn {
    int type, proc, inv, cmp; /* inv/cmp: positions in the event list */
    int nm;
    mop m[MAXM];
} txn;

typedef struct hist {
    int wl, n, nkeys;
    bool str_keys;  /* keys written as "k0".. instead of 0.. */
    bool lost_info; /* :info completions left out (invocations never answered) */
    txn t[MAXT];
    int ev[2 * MAXT]; /* txn * 2 + (0 invoke | 1 completion), in time order */
} hist;

/* Per-key contents: a list (LA) or a register (RW: len 0 = nil, else 1). */
typedef struct kstate {
    int len[MAXK];
    int v[MAXK][MAXL];
} kstate;

/* ---- random numbers (splitmix64) ---------------------------------------- */

typedef struct rng { uint64_t s; } rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int rnd(rng *r, int n) { return (int)(rng_next(r) % (uint64_t)n); }
static bool chance(rng *r, double p) { return (double)(rng_next(r) >> 11) * 0x1p-53 < p; }
static double unit(rng *r) { return ((double)(rng_next(r) >> 11) + 0.5) * 0x1p-53; }

/* ---- the simulated database ---------------------------------------------- */

/* How sloppy the database is for one history. */
typedef struct faults {
    double fail, info; /* outcome rates */
    double stale;      /* a txn reads from an older snapshot */
    bool fcw;          /* ... but none older than a commit writing its keys */
    double corrupt;    /* a read is mangled (prefix, drop, dup, swap, garbage) */
    double reorder;    /* adjacent commits swapped (breaks real-time order) */
    double lost;       /* an append / write silently not applied */
    double dirty;      /* a failed txn's writes are applied anyway */
    bool info_reads;   /* :info and :fail completions report what they read */
} faults;

static void pick_faults(rng *r, faults *f)
{
    static const double out[3] = {0.0, 0.1, 0.25};
    memset(f, 0, sizeof *f);
    f->fail = out[rnd(r, 3)];
    f->info = out[rnd(r, 3)];
    f->info_reads = chance(r, 0.3);
    int level = rnd(r, 10);
    if (level >= 3) f->stale = level >= 6 ? 0.3 : 0.9;
    f->fcw = level >= 3 && level < 6; /* snapshot isolation done right */
    if (level >= 6) {
        f->corrupt = 0.06 * (level - 5);
        f->reorder = 0.3;
        f->lost = 0.05;
        f->dirty = 0.4;
    }
}

static void gen_txns(hist *h, rng *r, const faults *f)
{
    int next[MAXK] = {0};
    h->n = chance(r, 0.1) ? MAXT : 2 + rnd(r, MAXT - 2);
    h->nkeys = 1 + rnd(r, MAXK);
    for (int i = 0; i < h->n; i++) {
        txn *t = &h->t[i];
        memset(t, 0, sizeof *t);
        double u = unit(r);
        t->type = u < f->fail ? T_FAIL : u < f->fail + f->info ? T_INFO : T_OK;
        t->nm = 1 + rnd(r, MAXM);
        for (int j = 0; j < t->nm; j++) {
            mop *m = &t->m[j];
            m->key = rnd(r, h->nkeys);
            m->n = -1;
            if (chance(r, 0.5)) m->f = F_READ;
            else m->f = h->wl == WL_LA ? F_APPEND : F_WRITE, m->val = ++next[m->key];
        }
    }
}

/* Processes run their transactions one at a time; at each step a random
 * process invokes its next one or completes its current one. After an
 * :info completion the process continues under a fresh id, as in Jepsen. */
static void gen_schedule(hist *h, rng *r)
{
    int nproc = 2 + rnd(r, MAXP - 1);
    int queue[MAXP][MAXT], qn[MAXP] = {0}, qh[MAXP] = {0}, run[MAXP], gen[MAXP] = {0};
    for (int p = 0; p < MAXP; p++) run[p] = -1;
    for (int i = 0; i < h->n; i++) {
        int p = rnd(r, nproc);
        queue[p][qn[p]++] = i;
    }
    for (int e = 0; e < 2 * h->n; e++) {
        int ready[MAXP], nr = 0, idle[MAXP], ni = 0;
        for (int p = 0; p < nproc; p++) {
            if (run[p] >= 0 || qh[p] < qn[p]) ready[nr++] = p;
            if (run[p] < 0 && qh[p] < qn[p]) idle[ni++] = p;
        }
        int p = ni && chance(r, 0.6) ? idle[rnd(r, ni)] : ready[rnd(r, nr)];
        if (run[p] >= 0) {
            txn *t = &h->t[run[p]];
            t->cmp = e, h->ev[e] = run[p] * 2 + 1, run[p] = -1;
            if (t->type == T_INFO) gen[p]++;
        } else {
            int i = queue[p][qh[p]++];
            h->t[i].inv = e, h->t[i].proc = p + nproc * gen[p];
            h->ev[e] = i * 2, run[p] = i;
        }
    }
}

/* The order the database applies transactions in: a commit point inside
 * each interval (any time after invocation for :info), some swapped. A
 * failed txn is applied only when the database is dirty. */
static int gen_commit_order(const hist *h, rng *r, const faults *f, int *order)
{
    double at[MAXT];
    int n = 0;
    for (int i = 0; i < h->n; i++) {
        const txn *t = &h->t[i];
        bool applied = t->type == T_OK || (t->type == T_INFO && chance(r, 0.5)) ||
                       (t->type == T_FAIL && chance(r, f->dirty));
        if (!applied) continue;
        double end = t->type == T_INFO ? 2 * h->n : t->cmp;
        at[i] = t->inv + unit(r) * (end - t->inv);
        int j = n++;
        for (; j > 0 && at[order[j - 1]] > at[i]; j--) order[j] = order[j - 1];
        order[j] = i;
    }
    for (int j = 0; j + 1 < n; j++)
        if (chance(r, f->reorder)) {
            int x = order[j];
            order[j] = order[j + 1], order[j + 1] = x;
        }
    return n;
}

static void kput(kstate *s, int wl, int key, int val)
{
    if (wl == WL_RW) s->len[key] = 1, s->v[key][0] = val;
    else if (s->len[key] < MAXL) s->v[key][s->len[key]++] = val;
}

/* One mangled read of key from view (final: the key's last state). */
static void corrupt_read(const hist *h, rng *r, const kstate *final, mop *m)
{
    const int *fv = final->v[m->key];
    int flen = final->len[m->key];
    if (h->wl == WL_RW) {
        int c = rnd(r, 3);
        m->rd[0] = c == 0 ? NIL : c == 1 ? GARBAGE + rnd(r, 5) : 1 + rnd(r, 2 * MAXT);
        return;
    }
    switch (rnd(r, 5)) {
    case 0: /* a prefix of the final list: stale, future or intermediate */
        m->n = rnd(r, flen + 1);
        memcpy(m->rd, fv, (size_t)m->n * sizeof *fv);
        break;
    case 1: /* drop one element */
        if (m->n > 0) {
            int x = rnd(r, m->n);
            memmove(m->rd + x, m->rd + x + 1, (size_t)(m->n - x - 1) * sizeof *fv);
            m->n--;
        }
        break;
    case 2: /* duplicate one element */
        if (m->n > 0 && m->n < MAXL) m->rd[m->n] = m->rd[rnd(r, m->n)], m->n++;
        break;
    case 3: /* swap two neighbours */
        if (m->n > 1) {
            int x = rnd(r, m->n - 1), y = m->rd[x];
            m->rd[x] = m->rd[x + 1], m->rd[x + 1] = y;
        }
        break;
    default: /* an element nobody appended */
        if (m->n < MAXL) m->rd[m->n++] = GARBAGE + rnd(r, 5);
    }
}

/* Run a txn whose reads see the state after `snap` commits plus its own
 * writes. :ok completions report their reads, :info ones only sometimes. */
static void gen_reads(hist *h, rng *r, const faults *f, const kstate *view0, int txn_id,
                      const kstate *final)
{
    txn *t = &h->t[txn_id];
    if (t->type != T_OK && (!f->info_reads || (t->type == T_INFO && h->lost_info))) return;
    kstate view = *view0;
    for (int j = 0; j < t->nm; j++) {
        mop *m = &t->m[j];
        if (m->f != F_READ) {
            kput(&view, h->wl, m->key, m->val);
            continue;
        }
        m->n = h->wl == WL_RW ? 1 : view.len[m->key];
        if (h->wl == WL_RW) m->rd[0] = view.len[m->key] ? view.v[m->key][0] : NIL;
        else memcpy(m->rd, view.v[m->key], (size_t)m->n * sizeof m->rd[0]);
        if (chance(r, f->corrupt)) corrupt_read(h, r, final, m);
    }
}

/* Keys a txn writes, as a bit set. */
static unsigned txn_writes(const txn *t)
{
    unsigned keys = 0;
    for (int j = 0; j < t->nm; j++)
        if (t->m[j].f != F_READ) keys |= 1u << t->m[j].key;
    return keys;
}

/* The snapshot of the txn at position p: the latest state, or an older
 * one; with first-committer-wins, never older than a conflicting commit. */
static int pick_snapshot(const hist *h, rng *r, const faults *f, const int *order, int p)
{
    if (!chance(r, f->stale)) return p;
    int lo = f->fcw ? p : 0;
    unsigned w = txn_writes(&h->t[order[p]]);
    while (lo > 0 && f->fcw && !(txn_writes(&h->t[order[lo - 1]]) & w)) lo--;
    return chance(r, 0.5) ? lo : lo + rnd(r, p - lo + 1);
}

static void gen_history(hist *h, int wl, uint64_t seed)
{
    rng r = {seed};
    faults f;
    int order[MAXT];
    bool applied[MAXT] = {false};
    static kstate states[MAXT + 1];
    memset(h, 0, sizeof *h);
    h->wl = wl;
    pick_faults(&r, &f);
    h->str_keys = chance(&r, 0.3), h->lost_info = chance(&r, 0.3);
    gen_txns(h, &r, &f);
    gen_schedule(h, &r);
    int nord = gen_commit_order(h, &r, &f, order);
    memset(&states[0], 0, sizeof states[0]);
    for (int p = 0; p < nord; p++) {
        const txn *t = &h->t[order[p]];
        states[p + 1] = states[p];
        applied[order[p]] = true;
        for (int j = 0; j < t->nm; j++)
            if (t->m[j].f != F_READ && !chance(&r, f.lost))
                kput(&states[p + 1], wl, t->m[j].key, t->m[j].val);
    }
    for (int p = 0; p < nord; p++)
        gen_reads(h, &r, &f, &states[pick_snapshot(h, &r, &f, order, p)], order[p],
                  &states[nord]);
    for (int i = 0; i < h->n; i++) /* txns that ran but never committed */
        if (!applied[i]) gen_reads(h, &r, &f, &states[rnd(&r, nord + 1)], i, &states[nord]);
}

/* ---- JSON lines ------------------------------------------------------------ */

typedef struct buf {
    char s[65536];
    size_t n;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof b->s - b->n) {
        fprintf(stderr, "crosscheck: history too long\n");
        exit(2);
    }
    b->n += (size_t)k;
}

static void put_key(buf *b, const hist *h, int key)
{
    if (h->str_keys) put(b, "\"k%d\",", key);
    else put(b, "%d,", key);
}

static void put_mop(buf *b, const hist *h, const mop *m, bool with_reads)
{
    put(b, "[\"%s\",", m->f == F_APPEND ? "append" : m->f == F_WRITE ? "w" : "r");
    put_key(b, h, m->key);
    if (m->f != F_READ) put(b, "%d]", m->val);
    else if (!with_reads || m->n < 0 || (h->wl == WL_RW && m->rd[0] == NIL)) put(b, "null]");
    else if (h->wl == WL_RW) put(b, "%d]", m->rd[0]);
    else {
        put(b, "[");
        for (int i = 0; i < m->n; i++) put(b, "%s%d", i ? "," : "", m->rd[i]);
        put(b, "]]");
    }
}

static bool skipped(const hist *h, int e)
{
    return (h->ev[e] & 1) && h->t[h->ev[e] / 2].type == T_INFO && h->lost_info;
}

/* The "index" of event e in the JSON lines. */
static int line_index(const hist *h, int e)
{
    int index = 0;
    for (int i = 0; i < e; i++) index += !skipped(h, i);
    return index;
}

/* One op per line; indices are dense over the lines written. */
static void write_jsonl(const hist *h, buf *b, bool hide_fail_reads)
{
    static const char *types[] = {"ok", "fail", "info"};
    b->n = 0;
    for (int e = 0, index = 0; e < 2 * h->n; e++) {
        const txn *t = &h->t[h->ev[e] / 2];
        bool done = h->ev[e] & 1;
        if (skipped(h, e)) continue;
        put(b, "{\"index\":%d,\"type\":\"%s\",\"process\":%d,\"f\":\"txn\",\"value\":[",
            index++, done ? types[t->type] : "invoke", t->proc);
        for (int j = 0; j < t->nm; j++) {
            if (j) put(b, ",");
            put_mop(b, h, &t->m[j], done && !(hide_fail_reads && t->type == T_FAIL));
        }
        put(b, "],\"time\":%d}\n", e * 1000);
    }
}
#endif
