/*
 * gen/jepsen.c -- the generators of Jepsen's workloads, as transactions of
 * the runner's micro-ops (txn.h), and the ops they are recorded as:
 *   bank       accounts 0..n-1 (--keys, 2..64) of 10 each (set up once,
 *              recorded as :setup {account balance}, which the bank
 *              checker takes the accounts and the total from); a
 *              transfer [add from -a][add to a] is
 *              :transfer {from, to, amount}; a read of every account is
 *              :read {account balance}
 *   counter    [add 0 1] is :add 1; [r 0] is :read N (absent: 0)
 *   set        [append k e] is :add e (e unique, k = e mod --keys), one
 *              final read of every list is :read [elements]
 *   set-full   the same, with reads (--read-ratio) between the adds
 *   long-fork  [w k 1] of a fresh key is :write [[:w k 1]]; a read of a
 *              recent key's group of three, in random order, :read
 * Each op is one transaction, so the database's isolation decides what
 * reads see. --read-ratio is the share of reads; -n the ops.
 *
 * Invariant: a generator's state is the fixed-size gen (no pointers).
 */
#include <string.h>
#include "gen/gen.h"

#define GROUP 3            /* long-fork's keys per read */
#define BALANCE 10         /* bank: each account's opening balance */
#define MAX_TRANSFER 5

static void jp_init(gen *g, const gen_params *p)
{
    gen_init(g, p);
    g->p.keys = p->keys < 2 ? 2 : p->keys > TXN_MAX_MOPS ? TXN_MAX_MOPS : p->keys;
}

static txn_mop *mop(txn *t, int f, int64_t key, int64_t value)
{
    txn_mop *m = &t->mops[t->n++];
    memset(m, 0, sizeof *m);
    m->f = (uint8_t)f;
    m->key = key;
    m->value = value;
    m->nil = 1;
    return m;
}

static void start(txn *t, int list_append)
{
    t->n = 0;
    t->list_append = list_append;
    txn_clear_reads(t);
}

static int reads_now(gen *g) { return iso_rng_unit(&g->rng) < g->p.read_ratio; }

/* ---- bank ---- */

static void read_accounts(gen *g, txn *t)
{
    start(t, 0);
    for (int k = 0; k < g->p.keys; k++) mop(t, TXN_R, k, 0);
}

static int bank_setup(gen *g, txn *t)
{
    start(t, 0);
    for (int k = 0; k < g->p.keys; k++) mop(t, TXN_W, k, BALANCE);
    return 1;
}

static int bank_next(gen *g, txn *t)
{
    if (g->made >= g->p.txns) return 0;
    g->made++;
    if (reads_now(g)) {
        read_accounts(g, t);
        return 1;
    }
    uint32_t n = (uint32_t)g->p.keys, from = iso_rng_below(&g->rng, n);
    uint32_t to = (from + 1 + iso_rng_below(&g->rng, n - 1)) % n;
    int64_t amount = 1 + iso_rng_below(&g->rng, MAX_TRANSFER);
    start(t, 0);
    mop(t, TXN_ADD, from, -amount);
    mop(t, TXN_ADD, to, amount);
    return 1;
}

/* One final read (final_key 0 -> 1). */
static int one_final(gen *g, txn *t, void (*read)(gen *g, txn *t))
{
    if (g->final_key) return 0;
    g->final_key = 1;
    read(g, t);
    return 1;
}

static int bank_final(gen *g, txn *t) { return one_final(g, t, read_accounts); }

static const char *bank_shape(const txn *t, int with_reads, iso_buf *v)
{
    if (t->mops[0].f == TXN_ADD) {
        iso_buf_printf(v, "{\"from\":%lld,\"to\":%lld,\"amount\":%lld}", (long long)t->mops[0].key,
                       (long long)t->mops[1].key, (long long)t->mops[1].value);
        return "transfer";
    }
    int setup = t->mops[0].f == TXN_W; /* the opening balances, written */
    if (!with_reads && !setup) return iso_buf_puts(v, "null"), "read";
    iso_buf_puts(v, "{");
    for (uint32_t i = 0; i < t->n; i++) {
        iso_buf_printf(v, "%s\"%lld\":", i ? "," : "", (long long)t->mops[i].key);
        if (setup) iso_buf_int(v, t->mops[i].value);
        else txn_json_read(v, t, i);
    }
    iso_buf_puts(v, "}");
    return setup ? "setup" : "read";
}

/* ---- counter ---- */

static void read_counter(gen *g, txn *t)
{
    (void)g;
    start(t, 0);
    mop(t, TXN_R, 0, 0);
}

static int counter_next(gen *g, txn *t)
{
    if (g->made >= g->p.txns) return 0;
    g->made++;
    if (reads_now(g)) read_counter(g, t);
    else {
        start(t, 0);
        mop(t, TXN_ADD, 0, 1);
    }
    return 1;
}

static int counter_final(gen *g, txn *t) { return one_final(g, t, read_counter); }

static const char *counter_shape(const txn *t, int with_reads, iso_buf *v)
{
    const txn_mop *m = &t->mops[0];
    if (m->f == TXN_ADD) return iso_buf_int(v, m->value), "add";
    if (!with_reads) iso_buf_puts(v, "null");
    else iso_buf_int(v, m->nil ? 0 : m->value);
    return "read";
}

/* ---- set, set-full ---- */

/* The set is spread over lists 0..keys-1 (element e in list e mod keys),
 * so that adds seldom conflict; a read reads them all. */
static void read_set(gen *g, txn *t)
{
    start(t, 1);
    for (int k = 0; k < g->p.keys; k++) mop(t, TXN_R, k, 0);
}

static int add_elem(gen *g, txn *t, int with_reads)
{
    if (g->made >= g->p.txns) return 0;
    g->made++;
    if (with_reads && reads_now(g)) read_set(g, t);
    else {
        start(t, 1);
        mop(t, TXN_APPEND, g->next_key % g->p.keys, g->next_key);
        g->next_key++;
    }
    return 1;
}

static int set_next(gen *g, txn *t) { return add_elem(g, t, 0); }
static int set_full_next(gen *g, txn *t) { return add_elem(g, t, 1); }
static int set_final(gen *g, txn *t) { return one_final(g, t, read_set); }

static void set_init(gen *g, const gen_params *p)
{
    jp_init(g, p);
    g->next_key = 0; /* the next element */
}

/* A read: the union of its lists' elements (a list read as nil, or
 * empty, adds none). */
static const char *set_shape(const txn *t, int with_reads, iso_buf *v)
{
    if (t->mops[0].f == TXN_APPEND) return iso_buf_int(v, t->mops[0].value), "add";
    if (!with_reads) return iso_buf_puts(v, "null"), "read";
    iso_buf list = {0};
    iso_buf_puts(v, "[");
    for (uint32_t i = 0, any = 0; i < t->n; i++) {
        if (t->mops[i].nil) continue; /* a list nobody added to yet */
        list.n = 0;
        txn_json_read(&list, t, i);
        if (list.n <= 2) continue; /* [] or null */
        if (any++) iso_buf_puts(v, ",");
        iso_buf_put(v, list.p + 1, list.n - 2);
    }
    iso_buf_puts(v, "]");
    iso_buf_free(&list);
    return "read";
}

/* ---- long-fork ---- */

static void lf_init(gen *g, const gen_params *p)
{
    gen_init(g, p);
    g->next_key = 0;
}

static int lf_next(gen *g, txn *t)
{
    if (g->made >= g->p.txns) return 0;
    g->made++;
    start(t, 0);
    if (!g->next_key || !reads_now(g)) {
        mop(t, TXN_W, g->next_key++, 1);
        return 1;
    }
    uint32_t recent = g->next_key < 2 * GROUP ? (uint32_t)g->next_key : 2 * GROUP;
    int64_t k = g->next_key - 1 - iso_rng_below(&g->rng, recent), base = k - k % GROUP;
    int64_t order[GROUP];
    for (int i = 0; i < GROUP; i++) order[i] = base + i;
    for (int i = GROUP - 1; i > 0; i--) { /* shuffled, as Jepsen's reads are */
        uint32_t j = iso_rng_below(&g->rng, (uint32_t)i + 1);
        int64_t x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    for (int i = 0; i < GROUP; i++) mop(t, TXN_R, order[i], 0);
    return 1;
}

static int no_final(gen *g, txn *t)
{
    (void)g;
    (void)t;
    return 0;
}

static const char *lf_shape(const txn *t, int with_reads, iso_buf *v)
{
    txn_json(v, t, with_reads);
    return t->mops[0].f == TXN_W ? "write" : "read";
}

const gen_ops gen_bank = {ISOLDE_WORKLOAD_BANK, "bank", jp_init, bank_next, bank_final, bank_setup, bank_shape, 0, 0};
const gen_ops gen_counter = {ISOLDE_WORKLOAD_COUNTER, "counter", gen_init, counter_next, counter_final, NULL,
                             counter_shape, 0, 0};
const gen_ops gen_set = {ISOLDE_WORKLOAD_SET, "set", set_init, set_next, set_final, NULL, set_shape, 0, 1};
const gen_ops gen_set_full = {ISOLDE_WORKLOAD_SET_FULL, "set-full", set_init, set_full_next, set_final, NULL,
                              set_shape, 0, 1};
const gen_ops gen_long_fork = {ISOLDE_WORKLOAD_LONG_FORK, "long-fork", lf_init, lf_next, no_final, NULL,
                               lf_shape, 0, 0};
