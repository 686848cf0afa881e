/*
 * gen/ops.c -- single ops for the linearizability checker, as Jepsen's
 * etcd test makes them: a read (read_ratio of them), else a write of 0..4
 * or, for cas-register and kv, as often a cas [old new] of such values.
 * register's writes are unique instead (the op's number), so that a read
 * names the write it saw and how stale it is.
 * register and cas-register use one register (key 0); kv spreads the ops
 * uniformly over `keys` independent keys, each its own register. Every
 * op is one micro-op of a txn of shape REGISTER or KV; the final reads
 * read each key once.
 */
#include <string.h>
#include "gen/gen.h"

#define N_VALUES 5

static int shape_of(const gen *g)
{
    return g->p.workload == ISOLDE_WORKLOAD_KV ? TXN_SHAPE_KV : TXN_SHAPE_REGISTER;
}

void gen_ops_init(gen *g, const gen_params *p)
{
    gen_init(g, p);
    g->p.list_append = 0;
    g->next_key = shape_of(g) == TXN_SHAPE_KV ? g->p.keys : 1;
}

/* t as one op f on key, clear of any result. */
static txn_mop *op_begin(const gen *g, txn *t, int f, int64_t key)
{
    t->n = 1;
    t->list_append = 0;
    t->shape = shape_of(g);
    txn_clear_reads(t);
    txn_mop *m = &t->mops[0];
    memset(m, 0, sizeof *m);
    m->f = (uint8_t)f;
    m->key = key;
    m->nil = 1;
    return m;
}

int gen_ops_next(gen *g, txn *t)
{
    if (g->made >= g->p.txns) return 0;
    g->made++;
    uint64_t r = iso_rng_next(&g->rng);
    int64_t key = (int64_t)((r >> 32) * (uint64_t)g->next_key >> 32);
    int cas = g->p.workload != ISOLDE_WORKLOAD_REGISTER && (r & 1);
    int f = ((r >> 1) & GEN_READ_MASK) < g->read_below ? TXN_R : cas ? TXN_CAS : TXN_W;
    txn_mop *m = op_begin(g, t, f, key);
    if (f == TXN_R) return 1;
    m->value = g->p.workload == ISOLDE_WORKLOAD_REGISTER ? g->made : iso_rng_below(&g->rng, N_VALUES);
    if (f == TXN_CAS) m->old = iso_rng_below(&g->rng, N_VALUES);
    return 1;
}

int gen_ops_final(gen *g, txn *t)
{
    if (g->final_key >= g->next_key) return 0;
    op_begin(g, t, TXN_R, g->final_key++);
    return 1;
}
