/*
 * gen/gen.c -- the workload generator: transactions of 1..N micro-ops over
 * a small pool of hot keys. Values are unique per key (a counter per key);
 * a key retires after max_writes_per_key writes and a fresh key takes its
 * slot, so lists stay short and contention stays high. Slots may be picked
 * with zipf skew. The run ends with a read of every key ever used.
 */
#include <math.h>
#include <string.h>
#include "gen/gen.h"

#define READ_BITS GEN_READ_BITS
#define READ_MASK GEN_READ_MASK

static void zipf_cdf(gen *g)
{
    double sum = 0;
    for (int i = 0; i < g->p.keys; i++) {
        sum += g->p.zipf > 0 ? 1.0 / pow(i + 1, g->p.zipf) : 1.0;
        g->cdf[i] = sum;
    }
    for (int i = 0; i < g->p.keys; i++) g->cdf[i] /= sum;
    g->cdf[g->p.keys - 1] = 1.0;
}

void gen_init(gen *g, const gen_params *p)
{
    memset(g, 0, sizeof *g);
    g->p = *p;
    if (g->p.keys < 1) g->p.keys = 1;
    if (g->p.keys > GEN_MAX_KEYS) g->p.keys = GEN_MAX_KEYS;
    if (g->p.max_txn_length < 1) g->p.max_txn_length = 1;
    if (g->p.max_txn_length > TXN_MAX_MOPS) g->p.max_txn_length = TXN_MAX_MOPS;
    if (g->p.max_writes_per_key < 1) g->p.max_writes_per_key = 1;
    g->rng = p->seed ^ 0x1501deull;
    for (int i = 0; i < g->p.keys; i++) g->pool_key[i] = i;
    g->next_key = g->p.keys;
    double below = ceil(g->p.read_ratio * (double)(1u << READ_BITS));
    g->read_below = !(below > 0) ? 0 : below >= READ_MASK + 1.0 ? READ_MASK + 1 : (uint32_t)below;
    zipf_cdf(g);
}

static uint32_t pick_zipf(gen *g)
{
    double u = iso_rng_unit(&g->rng);
    uint32_t lo = 0, hi = (uint32_t)g->p.keys - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (g->cdf[mid] > u) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* One draw r decides a micro-op: bit 0 whether to try reusing an earlier
 * micro-op's slot, bits 1-23 whether it reads, bits 24-31 which earlier
 * micro-op, bits 32-63 the slot (uniform; zipf draws again). Half the
 * time the slot of an earlier micro-op still holding the same key is
 * reused: reads after writes exercise internal consistency, writes after
 * reads make read-modify-write (lost-update) patterns. */
static uint32_t choose_slot(gen *g, const txn *t, const uint32_t *slots, uint64_t r)
{
    if (t->n > 0 && !(r & 1)) {
        uint32_t j = (uint32_t)(((r >> 24) & 0xff) * t->n >> 8);
        if (g->pool_key[slots[j]] == t->mops[j].key) return slots[j];
    }
    if (g->p.zipf > 0) return pick_zipf(g);
    return (uint32_t)((r >> 32) * (uint64_t)g->p.keys >> 32);
}

static void write_mop(gen *g, txn_mop *m, uint32_t slot)
{
    m->f = g->p.list_append ? TXN_APPEND : TXN_W;
    m->value = ++g->pool_writes[slot];
    if (g->pool_writes[slot] >= (uint32_t)g->p.max_writes_per_key) {
        g->pool_key[slot] = g->next_key++;
        g->pool_writes[slot] = 0;
    }
}

int gen_next(gen *g, txn *t)
{
    if (g->made >= g->p.txns) return 0;
    g->made++;
    uint32_t slots[TXN_MAX_MOPS];
    uint32_t n = 1 + iso_rng_below(&g->rng, (uint32_t)g->p.max_txn_length);
    t->n = 0;
    t->list_append = g->p.list_append;
    txn_clear_reads(t);
    while (t->n < n) {
        uint64_t r = iso_rng_next(&g->rng);
        uint32_t slot = choose_slot(g, t, slots, r);
        txn_mop *m = &t->mops[t->n];
        memset(m, 0, sizeof *m);
        m->key = g->pool_key[slot];
        m->nil = 1;
        if (((r >> 1) & READ_MASK) < g->read_below) m->f = TXN_R;
        else write_mop(g, m, slot);
        slots[t->n++] = slot;
    }
    return 1;
}

int gen_final(gen *g, txn *t)
{
    if (g->final_key >= g->next_key) return 0;
    t->n = 0;
    t->list_append = g->p.list_append;
    txn_clear_reads(t);
    while (t->n < TXN_MAX_MOPS && g->final_key < g->next_key) {
        txn_mop *m = &t->mops[t->n++];
        memset(m, 0, sizeof *m);
        m->f = TXN_R;
        m->nil = 1;
        m->key = g->final_key++;
    }
    return 1;
}

static const gen_ops list_append = {ISOLDE_WORKLOAD_LIST_APPEND, "list-append", gen_init, gen_next, gen_final,
                                     NULL, NULL, 0, 1};
static const gen_ops rw_register = {ISOLDE_WORKLOAD_RW_REGISTER, "rw-register", gen_init, gen_next, gen_final,
                                     NULL, NULL, 0, 0};
static const gen_ops reg = {ISOLDE_WORKLOAD_REGISTER, "register", gen_ops_init, gen_ops_next, gen_ops_final,
                            NULL, NULL, 1, 0};
static const gen_ops cas_register = {ISOLDE_WORKLOAD_CAS_REGISTER, "cas-register", gen_ops_init, gen_ops_next,
                                     gen_ops_final, NULL, NULL, 1, 0};
static const gen_ops kv = {ISOLDE_WORKLOAD_KV, "kv", gen_ops_init, gen_ops_next, gen_ops_final, NULL, NULL, 1, 0};
static const gen_ops *const generators[] = {&list_append, &rw_register, &gen_bank, &gen_set, &gen_set_full,
                                            &gen_counter, &gen_long_fork, &reg, &cas_register, &kv};

const gen_ops *gen_ops_for(isolde_workload w)
{
    for (size_t i = 0; i < sizeof generators / sizeof generators[0]; i++)
        if (generators[i]->workload == w) return generators[i];
    return NULL;
}

int gen_lists(isolde_workload w)
{
    const gen_ops *g = gen_ops_for(w);
    return g && g->lists;
}

void gen_params_of(const isolde_run_opts *o, gen_params *p)
{
    *p = (gen_params){o->workload == ISOLDE_WORKLOAD_LIST_APPEND, o->txns, o->keys,
                      o->max_writes_per_key, o->max_txn_length, o->read_ratio, o->zipf, o->seed,
                      o->workload};
}
