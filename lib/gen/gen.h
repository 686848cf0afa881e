/*
 * gen/gen.h -- the workload generators: how a run makes its transactions,
 * one row per workload (gen_ops): transactions of 1..N micro-ops over a
 * small pool of hot keys (list-append or rw-register), or single
 * read / write / cas ops for the linearizability checker (register,
 * cas-register, kv); then a final read of every key.
 *
 *   gen.c         the hot-key generator and the table of generators
 *   jepsen.c      Jepsen's bank, set, set-full, counter and long-fork
 *   ops.c         single ops on one register or on independent keys
 *
 * What they make is the runner's transaction (txn/); a generator's state
 * is the fixed-size gen (no pointers), shared by forked clients.
 * Rule: gen/ includes txn/ and core/.
 */
#ifndef ISO_GEN_GEN_H
#define ISO_GEN_GEN_H

#include "core/rng.h"
#include "txn/json.h"

#define GEN_MAX_KEYS 1024 /* largest hot-key pool */

typedef struct gen_params {
    int list_append;
    long txns;              /* transactions before the final reads */
    int keys;               /* hot-key pool size, 1..GEN_MAX_KEYS */
    int max_writes_per_key; /* a key retires after this many writes */
    int max_txn_length;     /* 1..TXN_MAX_MOPS */
    double read_ratio;      /* share of reads, 0..1 */
    double zipf;            /* skew exponent over the pool; 0 = uniform */
    uint64_t seed;
    isolde_workload workload;
} gen_params;

/* An op reads when GEN_READ_BITS random bits are below gen.read_below. */
#define GEN_READ_BITS 23
#define GEN_READ_MASK ((1u << GEN_READ_BITS) - 1)

/* Fixed-size (no pointers), so that forked clients can share it. */
typedef struct gen {
    gen_params p;
    uint32_t read_below;           /* a micro-op reads when 23 random bits are below */
    uint64_t rng;
    long made;                     /* transactions handed out */
    int64_t next_key;              /* keys 0 .. next_key-1 exist */
    int64_t final_key;             /* next key the final reads visit */
    int64_t pool_key[GEN_MAX_KEYS];
    uint32_t pool_writes[GEN_MAX_KEYS];
    double cdf[GEN_MAX_KEYS];      /* zipf: cumulative weights, last = 1 */
} gen;

void gen_init(gen *g, const gen_params *p);
/* Fill t with the next transaction; returns 0 when all have been made. */
int gen_next(gen *g, txn *t);
/* Fill t with the next chunk of the final read of every key; returns 0
 * when every key has been read. */
int gen_final(gen *g, txn *t);

/* A workload's generator: how a run makes its transactions. One row per
 * workload in gen.c's table (Jepsen's workloads are rows too). */
typedef struct gen_ops {
    isolde_workload workload;
    const char *name;
    void (*init)(gen *g, const gen_params *p);
    int (*next)(gen *g, txn *t);  /* 0 when all have been made */
    int (*final)(gen *g, txn *t); /* the final reads; 0 when done */
    /* Jepsen's workloads (NULL for Elle's): the transaction run once before
     * the clients (1; 0: none), recorded as an op of process "setup" (its
     * :f and value as shape gives them: a bank's opening balances), and an
     * op's :f and value as Jepsen records them (txn/json.h). */
    int (*setup)(gen *g, txn *t);
    txn_json_shape *shape;
    int single;                       /* single ops (enum txn_shape), not transactions */
    int lists;                        /* values are lists: a database keeps them in its
                                         list table (else integer registers) */
} gen_ops;

/* jepsen.c: the generators of Jepsen's workloads, by row of gen.c's table. */
extern const gen_ops gen_bank, gen_set, gen_set_full, gen_counter, gen_long_fork;

/* ops.c: single ops (the generator's rows for register, cas-register and
 * kv): reads (read_ratio), then writes and, for cas-register and kv, as
 * many cas of small values (five, as Jepsen's etcd test draws them;
 * register's writes are unique); kv spreads them over `keys` keys. Their
 * final reads read each key once. */
void gen_ops_init(gen *g, const gen_params *p);
int gen_ops_next(gen *g, txn *t);
int gen_ops_final(gen *g, txn *t);

/* The generator of workload w, or NULL when no generator makes it. */
const gen_ops *gen_ops_for(isolde_workload w);
/* Whether workload w's values are lists (its generator row's `lists`:
 * list-append, set, set-full), not integer registers; 0 when no generator
 * makes w. */
int gen_lists(isolde_workload w);
/* A generator's parameters from a run's options. */
void gen_params_of(const isolde_run_opts *o, gen_params *p);

#endif
