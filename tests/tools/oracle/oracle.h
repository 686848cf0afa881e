/*
 * oracle.h -- the brute-force oracle of isolde's consistency checks: small
 * list-append and rw-register histories, each model decided by its
 * axiomatic definition rather than by a dependency-graph characterization.
 *
 *   hist.c    the history (transactions, micro-ops, real-time positions),
 *             Elle JSON lines in and out
 *   facts.c   what a history says independently of any model: who wrote
 *             what, what each read observed, session and real-time order
 *   search.c  the depth-first search over total orders of the committed
 *             transactions that every decision runs
 *   vis.c     Cerone, Bernardi and Gotsman's abstract executions
 *             (H, VIS, AR): read atomic, causal, parallel SI, prefix, SI,
 *             serializability, and their session / real-time variants
 *   co.c      Biswas and Enea's commit-order axioms (read committed ...
 *             serializability) and Adya's PL-2 by its direct definition
 *   models.c  the table of model names and how each is decided
 *   gen.c     the random generator: simulated executions at each model,
 *             and broken ones
 *   spec.c    the hand-written textbook cases (tests/data/oracle/)
 *   selfcheck.c  what must hold between the models' verdicts
 *   shrink.c  the smallest history on which isolde and the oracle disagree
 *   main.c    the command line
 *
 * Invariants: a history holds at most OR_MAXT transactions, at most OR_MAXC
 * of them ok or info (the candidates for commitment, whose orders are
 * enumerated); a value is written at most once per key; transactions are
 * bit sets of 32-bit words.
 */
#ifndef ORACLE_H
#define ORACLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define OR_MAXT 12  /* transactions, any outcome */
#define OR_MAXC 9   /* ok + info transactions */
#define OR_MAXM 6   /* micro-ops per transaction */
#define OR_MAXK 4   /* keys */
#define OR_MAXL 64  /* elements of one list read */
#define OR_NIL (-1) /* rw-register: the read saw no write */
#define OR_MAXR (OR_MAXT * OR_MAXM)

enum or_wl { OR_LA, OR_RW };
enum or_f { OR_APPEND, OR_WRITE, OR_READ };
enum or_type { OR_OK, OR_FAIL, OR_INFO };

typedef unsigned tset; /* a set of transactions, bit i = transaction i */

struct or_mop {
    int f, key, val; /* val: the value appended or written */
    int n;           /* read: elements (list-append), 1 (rw-register); -1 unknown */
    int rd[OR_MAXL]; /* read: the list, or rd[0] = the value or OR_NIL */
};

struct or_txn {
    int type, proc;
    int inv, cmp; /* positions of the invocation and completion in the history */
    int nm;
    struct or_mop m[OR_MAXM];
};

struct or_hist {
    int wl, n, nkeys;
    char key[OR_MAXK][32]; /* the keys' names (cut at 31 bytes) */
    struct or_txn t[OR_MAXT];
};

/* ---- hist.c ---------------------------------------------------------------- */

/* Reads Elle JSON lines (one op map per line; process, type, value; the
 * rest is ignored). On failure prints "path:line: message" and returns
 * false. */
bool or_read_jsonl(const char *path, int wl, struct or_hist *h);
/* Writes h as JSON lines, one op per event in position order. */
void or_write_jsonl(const struct or_hist *h, FILE *out);
/* Same into a growing heap string (NUL-terminated, *len set); free() it. */
char *or_jsonl_string(const struct or_hist *h, size_t *len);
/* Micro-ops in the history: its size, to sort histories by. */
int or_size(const struct or_hist *h);
/* Renumbers the event positions 0.. keeping their order. */
void or_compact_positions(struct or_hist *h);

/* ---- facts.c --------------------------------------------------------------- */

enum or_read_status {
    RD_OK,      /* the external part is the state after writers w[0..nw-1] */
    RD_BAD,     /* no execution of committed transactions explains it */
    RD_UNCLEAR  /* an internal read that does not show its own writes: only
                   its values are checked (garbage, aborted) */
};

/* One read micro-op of an ok transaction whose value is known. */
struct or_read {
    int txn, mop, key;
    bool internal; /* the transaction wrote the key before it */
    bool int_ok;   /* internal: shows the transaction's own writes on top */
    int status;
    int nw, w[OR_MAXT]; /* list-append: the writers of the list before the
                           transaction's own appends, in list order;
                           rw-register: 0 (nil) or 1 writer; RD_UNCLEAR:
                           the other transaction whose version it shows */
    tset needs;         /* transactions whose writes it shows: they committed */
};

/* What one transaction saw of one key, by Cerone et al.'s INT and EXT. */
enum { OBS_NONE, OBS_OK }; /* no known read of the key; the state below */
struct or_obs {
    int state;
    int nw, w[OR_MAXT]; /* the visible writers (list order; rw: 0 or 1) */
};

struct or_facts {
    const struct or_hist *h;
    tset ok, info;              /* ok and info transactions */
    tset writes[OR_MAXK];       /* transactions writing each key (any outcome) */
    tset conflict[OR_MAXT];     /* others writing a key it writes */
    tset so[OR_MAXT];           /* session predecessors: ok transactions of its process before it */
    tset rt[OR_MAXT];           /* real-time predecessors: completed ok before it began */
    int nreads;
    struct or_read rd[OR_MAXR]; /* in transaction, then micro-op order */
    bool int_bad[OR_MAXT];      /* INT fails (Cerone: reads repeat and show own writes) */
    struct or_obs obs[OR_MAXT][OR_MAXK];
    tset obs_needs[OR_MAXT];    /* writers its observations need */
};

void or_facts_init(struct or_facts *f, const struct or_hist *h);
/* Transaction writing value v of key k (last micro-op index in *mop), or -1. */
int or_writer(const struct or_hist *h, int key, int val, int *mop);

/* ---- search.c --------------------------------------------------------------- */

/* A depth-first search over the total orders of the transactions of c that
 * place each transaction after its required predecessors; place() says
 * whether t can go next (it may record per-transaction state in ctx), and
 * done(), when set, whether a complete order will do. */
struct or_order {
    tset c;
    tset pred[OR_MAXT];
    int order[OR_MAXT], pos[OR_MAXT], depth;
    tset placed;
    tset before[OR_MAXT]; /* placed before each placed transaction */
    bool (*place)(struct or_order *o, int t, void *ctx);
    bool (*done)(const struct or_order *o, void *ctx);
    void *ctx;
    long nodes;
};

void or_order_init(struct or_order *o, tset c, bool (*place)(struct or_order *, int, void *),
                   void *ctx);
bool or_order_run(struct or_order *o);

/* Calls try(c) for each set c = ok plus a subset of info (the :info
 * transactions that committed), until one returns true. */
bool or_each_commit_set(const struct or_facts *f, bool (*try)(tset c, void *arg), void *arg);

/* ---- vis.c: abstract executions --------------------------------------------- */

enum {
    AX_SESSION = 1 << 0,    /* SO ⊆ VIS */
    AX_REALTIME = 1 << 1,   /* RT ⊆ VIS (strict / strong variants) */
    AX_TRANSVIS = 1 << 2,   /* VIS ; VIS ⊆ VIS */
    AX_PREFIX = 1 << 3,     /* AR ; VIS ⊆ VIS */
    AX_NOCONFLICT = 1 << 4, /* writers of one key are ordered by VIS */
    AX_TOTALVIS = 1 << 5    /* VIS = AR */
};

struct or_witness {
    bool found;
    tset c;
    int order[OR_MAXT], n;
    tset vis[OR_MAXT];
};

bool or_vis_decide(const struct or_facts *f, unsigned axioms, struct or_witness *w);

/* ---- co.c: commit orders ---------------------------------------------------- */

enum { CO_NONE, CO_RC, CO_RA, CO_CC, CO_PC, CO_SI, CO_SER };
enum {
    CO_SO = 1 << 0,        /* co includes session order */
    CO_RT = 1 << 1,        /* co includes real-time order */
    CO_INT = 1 << 2,       /* reads after own writes show them (else invalid) */
    CO_EXTERNAL = 1 << 3   /* only external reads order (Adya: internal reads
                              are checked for their values alone) */
};

bool or_co_decide(const struct or_facts *f, int axiom, unsigned flags, struct or_witness *w);

/* ---- models.c ----------------------------------------------------------------- */

struct or_model {
    const char *name;
    int engine; /* MODEL_VIS, MODEL_CO */
    unsigned bits; /* axioms (vis) or flags (co) */
    int axiom;     /* co: the commit-order axiom */
    const char *what;
};
enum { MODEL_VIS, MODEL_CO };

const struct or_model *or_model_find(const char *name);
const struct or_model *or_model_at(int i);
/* Decides h at m; w (may be NULL) receives the witness order. */
bool or_decide(const struct or_hist *h, const struct or_model *m, struct or_witness *w);
void or_print_witness(const struct or_hist *h, const struct or_witness *w, FILE *out);

/* ---- gen.c ------------------------------------------------------------------- */

struct or_rng { uint64_t s; }; /* splitmix64 */
int or_rnd(struct or_rng *r, int n); /* 0 .. n-1 */

/* A random history for the harness's model `target` (how it was made in
 * *kind, e.g. "at:snapshot-isolation" or "fracture"); *valid_by_construction
 * says it was simulated from an execution the model allows. */
void or_gen(struct or_hist *h, int wl, const char *target, struct or_rng *r, char *kind,
            size_t kind_size, bool *valid_by_construction);

/* ---- selfcheck.c, shrink.c ---------------------------------------------------- */

/* n random histories per workload: every relation that must hold between
 * the models' verdicts (selfcheck.c). Returns the exit status. */
int or_selfcheck(int n, uint64_t seed, bool verbose);
/* Prints the smallest history found on which the oracle and isolde (linked,
 * -c model) disagree as they do on path. Returns the exit status. */
int or_shrink(const char *path, int wl, const char *model, FILE *out);

/* ---- spec.c ------------------------------------------------------------------ */

/* Runs the textbook cases of path: all, or the one named only; with list,
 * prints their names. Returns the number of failures (or -1 when the file
 * cannot be read). */
int or_cases(const char *path, const char *only, bool list, bool verbose);
/* The history of case `name` in path, as JSON lines on out. */
bool or_case_jsonl(const char *path, const char *name, FILE *out);

#endif
