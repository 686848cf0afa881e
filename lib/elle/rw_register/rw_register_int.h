/*
 * elle/rw_register/rw_register_int.h -- the state the rw-register
 * workload's files share (rw_register.h lists them); it stays in the folder.
 *
 * Elle's rw-register (elle.md 2-3; Elle's rw_register.clj): a transaction's
 * external read of key k is its first micro-op on k when that is a read; its
 * external write is its last write of k. A version is one (key, value) pair,
 * value nil being the initial state. Version graphs come from the sources
 * the options ask for; a source that makes them cyclic is reported and
 * dropped. ww / rw edges come from the reduced version graph, wr edges from
 * external reads of ok writers' external writes; only ok transactions take
 * part in edges.
 */
#ifndef ISO_RW_REGISTER_INT_H
#define ISO_RW_REGISTER_INT_H

#include "elle/rw_register/rw_register.h"
#include "elle/elle.h"
#include "core/keys.h"
#include "elle/render.h"
#include "core/sort.h"

/* Micro-op kinds. */
enum rw_mop { RW_READ = 1, RW_WRITE = 2 };

/* In rw_state.mop: the micro-op is a write. */
#define RW_MOP_W 0x80000000u

/* How a version's writer wrote it. */
enum rw_wkind { RW_UNWRITTEN = 0, RW_FINAL, RW_INTERMEDIATE };

/* One (key, value): who wrote it. Values are unique per key, so at most one
 * transaction writes each version. */
typedef struct rw_ver {
    iso_val val;
    uint32_t key;
    uint32_t writer;  /* transaction, ISO_NONE if none */
    uint32_t wmop;    /* index of its last write in the writer's value */
    uint8_t wkind;    /* enum rw_wkind */
} rw_ver;

/* One key a transaction touched: its external read and write. */
typedef struct rw_ext {
    uint32_t key;
    uint32_t rd, wr;        /* versions, ISO_NONE when absent */
    uint32_t rd_mop, wr_mop;
} rw_ext;

/* A version order edge: version a precedes version b (same key). */
typedef struct rw_vedge {
    uint32_t a, b;
} rw_vedge;

/* Sources of version-order evidence, in the order Elle applies them. */
enum rw_source { RW_SRC_INITIAL, RW_SRC_WFR, RW_SRC_SEQUENTIAL, RW_SRC_LINEARIZABLE,
                 RW_SRC_TXN_ORDER, RW_SRC_COUNT };

/* A cyclic component of one key's version graph, kept for its finding:
 * its versions (sorted) and a cycle through the first, in st->cyc_ids. */
typedef struct rw_cyclic {
    uint32_t vers, n_vers, cycle, n_cycle;
    uint8_t sources[RW_SRC_COUNT], n_sources; /* that together made it */
} rw_cyclic;

/* A read finding (G1a, G1b, garbage-read) kept for rendering when a
 * report shows it: the reader and the index of the read in its micro-ops
 * (the version read tells the rest). */
typedef struct rw_rdf {
    uint32_t txn, mop;
} rw_rdf;

/* A lost-update group kept for rendering: the version its transactions
 * read, and where they are in rw_state.lu_txns. */
typedef struct rw_lost {
    uint32_t ver, txns, n;
} rw_lost;

/* What a read of an ok transaction shows (reads.c), per micro-op. */
enum rw_rclass {
    RW_R_NONE = 0,  /* a write, or a micro-op of a transaction not ok */
    RW_R_EXT,       /* before the reader wrote the key: another's final write, or the initial state */
    RW_R_OWN,       /* after its own write of the key: that write */
    RW_R_NOT_OWN,   /* after its own write: another's version or nil (not-my-own-write) */
    RW_R_NOT_LAST,  /* after its own writes: an earlier one of them (not-my-last-write) */
    RW_R_FUTURE,    /* before writing the key: its own write of it (future-read) */
    RW_R_BAD,       /* garbage, aborted or intermediate (garbage-read, G1a, G1b) */
    RW_R_UNKNOWN    /* nil on a key some transaction wrote nil to: ambiguous */
};

struct rw_weak; /* the weak models' checks (weak.h) */

typedef struct rw_state {
    iso_keys keys;          /* key value -> dense id */
    iso_name_atoms read_name, write_name; /* "r" and "w" */
    rw_ver *ver;            /* versions, key by key, nil first */
    size_t n_ver;
    uint32_t *nil_ver;      /* per key: the version (key, nil) */
    uint32_t *mop_off;      /* txn t's micro-ops: mop[mop_off[t] .. mop_off[t+1]) */
    uint32_t *mop;          /* each micro-op's version, | RW_MOP_W for writes */
    uint32_t *ext_off;      /* txn t's keys: ext[ext_off[t] .. ext_off[t+1]) */
    rw_ext *ext;
    size_t n_ext;
    uint32_t *rd_off, *rd;  /* CSR: ok external readers of each version */
    uint32_t *okw;          /* per version: the ok txn whose external write it is */
    rw_vedge *red;          /* reduced version graph, sorted by (a, b) */
    size_t n_red;
    rw_cyclic *cyc;         /* cyclic-versions findings, rendered on demand */
    size_t n_cyc, cap_cyc;
    uint32_t *cyc_ids;
    size_t n_cyc_ids, cap_cyc_ids;
    rw_rdf *rdf;            /* read findings, rendered on demand */
    size_t n_rdf, cap_rdf;
    rw_lost *lost;          /* lost-update findings, rendered on demand */
    size_t n_lost, cap_lost;
    uint32_t *lu_txns;
    size_t n_lu_txns;
    uint8_t *rclass;        /* per micro-op: enum rw_rclass */
    uint8_t *committed;     /* per txn: ok, or :info and shown by an ok read */
    struct rw_weak *weak;   /* the weak models' findings, rendered on demand */
} rw_state;

/* mops.c: micro-op i of a value: kind, key and value; -1 if malformed. */
int rw_mop(const rw_state *st, iso_val mop, iso_val *k, iso_val *v);
/* An op's value as micro-ops (n = 0 for nil or anything else), and the
 * transaction's. */
const iso_val *rw_op_mops(const iso_store *s, const iso_op *op, size_t *n);
const iso_val *rw_txn_mops(const iso_proof_ctx *pc, uint32_t txn, size_t *n);

/* versions.c: version graphs from the requested sources; cyclic ones
 * become cyclic-versions findings. Fills st->red with the reduced graph. */
int rw_version_graph(iso_ctx *ctx, rw_state *st, isolde_error *err);
/* Whether a -> b is in the reduced version graph. */
int rw_reduced_has(const rw_state *st, uint32_t a, uint32_t b);

/* reads.c: st->rclass and st->committed, after the versions' writers are
 * known. */
void rw_classify_reads(const iso_proof_ctx *pc, rw_state *st);
/* The writer a read (micro-op m, RW_R_EXT or RW_R_NOT_OWN) shows: a
 * transaction that did not fail, or ISO_NONE for the initial state or an
 * unreadable version. */
uint32_t rw_read_writer(const iso_proof_ctx *pc, const rw_state *st, uint32_t m);

/* rw_register.c: the wr step "Ta wrote key k = v, which was read by Tb"
 * of version v and b's read of it, micro-op index bm (text and Elle's
 * JSON step). */
void rw_explain_wr(const iso_proof_ctx *pc, uint32_t v, uint32_t b, uint32_t bm, const char *ta, const char *tb,
                   iso_buf *text, iso_buf *json);

/* anomalies.c */
void rw_find_anomalies(iso_ctx *ctx, rw_state *st);
/* The picture of pending finding f when it is a not-my-own-write or a
 * not-my-last-write (iso_workload_ops.picture), else 0. */
int rw_read_picture(const iso_proof_ctx *pc, const iso_finding *f, struct iso_picture *p);

#endif
