/*
 * sim/sim_int.h -- the simulated database's state, shared by store.c (keys
 * and versions), sim.c (transactions and the levels), ssi.c
 * (serializable snapshot isolation) and replica.c (the replicated levels).
 */
#ifndef ISO_RUN_SIM_INT_H
#define ISO_RUN_SIM_INT_H

#include "core/rng.h"
#include "sim/sim.h"

enum sim_state { SIM_ACTIVE = 0, SIM_COMMITTED, SIM_ABORTED };

struct sim_txn {
    int64_t snap;     /* sees commits with cts <= snap */
    int64_t cts;      /* commit timestamp once committed */
    txn *t;       /* its micro-ops, while active */
    uint32_t pos;     /* micro-ops run so far */
    uint8_t state;    /* enum sim_state */
    uint8_t in, out;  /* SSI: has an rw anti-dependency in / out */
    uint8_t replica;  /* read-only on a cut-off node: its snapshot is all
                         it can see, so nothing is validated at commit */
};

struct sim_ver {
    int64_t cts;
    uint32_t prev;     /* older version of the key, or ISO_NONE */
    uint32_t parent;   /* version whose list this one extends, or ISO_NONE */
    uint32_t writer;   /* txn id */
    uint32_t elem_off, elem_n; /* own elements (a register: one value) */
};

struct sim_key {
    uint32_t head;     /* newest committed version, or ISO_NONE */
    uint32_t lock;     /* RU/RC: txn holding the write lock, or ISO_NONE */
    uint32_t dirty;    /* dirty-read: latest active writer, or ISO_NONE */
    uint32_t *readers; /* SSI: txns that read the key (SIREAD locks) */
    size_t n_readers, cap_readers;
};

struct sim {
    sim_params p;
    uint64_t rng;
    int64_t ts;                  /* last commit timestamp */
    int64_t floor;               /* the oldest snapshot served (sim_settle) */
    struct sim_txn *txns;        /* by id */
    size_t n_txns, cap_txns;
    struct sim_ver *vers;
    size_t n_vers, cap_vers;
    int64_t *elems;
    size_t n_elems, cap_elems;
    struct sim_key *keys;        /* by key (dense, from 0) */
    size_t n_keys;
    uint32_t *active;            /* ids of active txns */
    size_t n_active, cap_active;
    uint32_t *chain;             /* scratch: a list's version chain */
    size_t cap_chain;
    struct rep *rep;             /* the replicated levels' sites, or NULL */
};

/* store.c: key's state (made on first use). */
struct sim_key *sim_key_get(struct sim *s, int64_t key);
/* The newest version of k visible at snapshot snap, or ISO_NONE. */
uint32_t sim_visible(const struct sim *s, const struct sim_key *k, int64_t snap);

/* SSI (ssi.c). Reader id has read key k: note the SIREAD lock and the
 * rw conflicts with newer committed versions; -1 if id must abort. */
int ssi_read(struct sim *s, uint32_t id, struct sim_key *k);
/* Before id commits: rw conflicts with the readers of the keys it wrote,
 * then the pivot test; -1 if id must abort. */
int ssi_commit(struct sim *s, uint32_t id);

/* The replicated levels (replica.c). rep_new: the sites of level, or NULL
 * for a level that has none. */
struct rep *rep_new(int level);
void rep_free(struct rep *r);
/* Transaction id begins for client (SIM_FRESH: everything, every site
 * caught up first): it sees what its site has applied. */
void rep_begin(struct sim *s, uint32_t id, int client);
/* The newest version of k that id sees, or ISO_NONE. */
uint32_t rep_visible(const struct sim *s, uint32_t id, const struct sim_key *k);
/* Before id commits its writes: -1 if it must abort (a key's last write
 * not seen, where the level forbids that), else 0, its site having
 * applied every earlier write of the keys it writes. */
int rep_validate(struct sim *s, uint32_t id);
/* After id committed, its versions installed from index v0 on: its site
 * applies it, the others will; then the sites apply what is due. */
void rep_committed(struct sim *s, uint32_t id, uint32_t v0);
/* Every site applies every commit. */
void rep_settle(struct sim *s);

#endif
