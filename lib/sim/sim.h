/*
 * sim/sim.h -- the simulated database: a multi-version store whose
 * isolation level is known, so that the checker can be convicted both
 * ways (clean at the level, the next level's anomaly at some seed).
 *
 * Single-threaded and seeded: its backend (run/drivers/sim.c) interleaves
 * logical clients micro-op by micro-op with its own random schedule, so
 * one seed gives one history. store.c holds the keys and versions, sim.c
 * the transactions and the levels, ssi.c serializable snapshot isolation,
 * replica.c the replicated levels (read-atomic ... parallel snapshot
 * isolation and their broken modes: sites that apply each other's commits
 * late, each client sticky to one site).
 * Rule: sim/ includes txn/ and core/.
 * Versions of a key form a chain (prev: the older version); a list-append
 * version holds its own appended elements and names the version it extends
 * (parent), so a list is read by walking parents. Commit timestamps are a
 * counter; a snapshot is a timestamp.
 */
#ifndef ISO_SIM_H
#define ISO_SIM_H

#include "txn/txn.h"

enum sim_level {
    SIM_RU,          /* read-uncommitted: write locks, reads see them */
    SIM_RC,          /* read-committed: write locks, latest committed reads */
    SIM_SI,          /* snapshot isolation, first committer wins */
    SIM_SER,         /* SI + Cahill's SSI, stale snapshots */
    SIM_SSER,        /* SI + read validation at commit (OCC) */
    SIM_LOST_UPDATE, /* broken: commits write back their stale snapshot */
    SIM_NO_VALIDATE, /* broken: SI without first-committer-wins */
    SIM_DIRTY_READ,  /* broken: SI whose reads see uncommitted appends */
    SIM_DOUBLE_ADD,  /* broken: SI that applies one add in eight twice (a retry) */
    SIM_LONG_FORK,   /* broken: SI whose reads come from one of two replicas,
                        each a few commits behind on the other's writes */
    /* The replicated levels (replica.c): three sites, a client sticky to
     * one; a site applies its own commits at once, the others' up to
     * --lag commits late. */
    SIM_RA,          /* read atomic: a commit is applied whole, after the
                        commits it overwrites, in no causal order */
    SIM_CAUSAL,      /* causal: commits applied in causal order */
    SIM_PREFIX,      /* prefix: every site applies one commit order, late */
    SIM_PSI,         /* parallel SI: causal, and a write commits only when
                        its site has the key's last write (Walter) */
    SIM_FRACTURED,   /* broken: PSI whose sites apply a commit one key at a
                        time, visible half done (fractured reads) */
    SIM_CAUSALITY,   /* broken: PSI whose sites apply commits per key, in
                        no causal order, one link stalled (causality
                        violations) */
    SIM_SPLIT,       /* broken: SI that splits into two halves, each
                        committing what the other does not see, then
                        merges (long forks: PSI, not SI) */
    SIM_N_LEVELS
};

int sim_level_parse(const char *name); /* -1 if unknown */
/* The levels' names, by level, then NULL. */
extern const char *const sim_level_names[SIM_N_LEVELS + 1];

typedef struct sim_params {
    int level;
    int list_append;
    uint64_t seed;
    long stale;         /* SIM_SER: max snapshot age in commits */
    double abort_rate, info_rate;
    long lag;           /* replicated levels: how late (in commits) a site
                           applies another's commits, at most */
} sim_params;

struct sim;
struct sim *sim_new(const sim_params *p);
void sim_free(struct sim *s);
/* Start a transaction over t's micro-ops (t stays owned by the caller and
 * must live until the transaction ends) for client number client (0..),
 * whose site serves it in the replicated levels; SIM_FRESH: take the
 * latest snapshot of everything (every site caught up first). Returns the
 * transaction's id. */
#define SIM_FRESH (-1)
uint32_t sim_begin(struct sim *s, txn *t, int client);
/* Start read-only t on a cut-off node, which serves the snapshot snap it
 * had when it was cut off and validates nothing at commit (it cannot see
 * what the others committed since). */
uint32_t sim_begin_replica(struct sim *s, txn *t, int64_t snap);
/* The timestamp of the last commit: a snapshot of everything committed. */
int64_t sim_last_commit(const struct sim *s);
/* A crash: every active transaction aborts ("the database crashed"), and
 * every commit after timestamp durable is lost (durable = the last
 * commit: none; the broken mode of a database that acknowledged commits
 * it had not made durable). Returns how many acknowledged commits were
 * lost. */
size_t sim_crash(struct sim *s, int64_t durable);
/* Run micro-op i (in order from 0); 0 on success, -1 if the transaction
 * was aborted (it is over; t->error says why). */
int sim_exec(struct sim *s, uint32_t id, uint32_t i);
/* End the transaction: TXN_OK, TXN_FAIL or TXN_INFO (abort/indeterminate
 * knobs apply only when knobs is set). */
int sim_commit(struct sim *s, uint32_t id, int knobs);
/* From now on no snapshot is older than now (after a workload's setup:
 * even a stale snapshot sees a bank's opening balances; every site has
 * applied every commit). */
void sim_settle(struct sim *s);

#endif
