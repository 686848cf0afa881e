/*
 * elle/exact.h -- a workload's version orders decided exactly (issues 25
 * and 26): the polygraph the workload builds -- its known edges, and one
 * choice per pair of writes no evidence orders, each side the edges that
 * order implies -- solved by lib/solve/ for the models the request needs,
 * and the answer turned into a finding proved by cases ("whichever order
 * T1 and T2 wrote key x in, a cycle follows"), an unknown naming the
 * component, or a witness (an order per key, and a transaction order that
 * gives it).
 *
 *   exact.c   which problems a request needs, the solving, the proof's
 *             frame, the witness's frame (this header)
 *   rw_register/exact*.c, list_append/exact.c   each workload's polygraph
 *             and the words of its writes and of the orders it assumes
 *
 * Invariant: nothing is claimed that the solver did not decide: a valid
 * answer marks the check exact (ctx->pc.exact), an invalid one adds a
 * finding whose every step is an edge of the polygraph (known, or of the
 * case's assumed order), an unknown one a cycle-search-timeout; a build
 * without CaDiCaL that pruning does not settle changes nothing (sound
 * only, as before).
 */
#ifndef ISO_ELLE_EXACT_H
#define ISO_ELLE_EXACT_H

#include "elle/elle.h"
#include "elle/proof.h"
#include "solve/solve.h"

/* The polygraph. A write is the workload's own id (a version, an append);
 * each choice pairs two writes, side 0 "pair[2c] first". */
typedef struct iso_exact {
    struct solve_edge *e; /* known edges */
    uint8_t *bit;         /* per known edge: the ISO_EDGE_* bit it stands for */
    size_t n, cap;
    size_t n_data;        /* the first n_data are data edges, the rest order edges */
    uint32_t *pair;       /* choice c: writes pair[2c], pair[2c + 1] */
    uint32_t *writer;     /* choice c: their transactions, the same way */
    uint32_t n_ch;
    size_t cap_ch;
    size_t *start;        /* solve_input.side_start: n_start filled */
    size_t n_start, cap_start;
    struct solve_edge *se; /* side edges: each side's ww first, then its rw */
    size_t n_se, cap_se;
    uint64_t n_ordered;   /* pairs the inference ordered (for ISOLDE_TIMING) */
    const uint8_t *in;    /* per transaction: whether the solver needs its order edges (NULL: all) */
} iso_exact;

/* How a workload tells its writes and the steps of its polygraph. */
typedef struct iso_exact_words {
    const char *tag;        /* the phase labels' prefix: "rw", "la" */
    const char *write_fmt;  /* a write in iso_edge_text's words: %1 its transaction, %K key, %A value */
    /* write w's key and value */
    void (*kv)(const iso_ctx *ctx, const iso_exact *x, uint32_t w, iso_val *key, iso_val *val);
    /* known edge i, ta -> tb, as a proof's step (text and Elle's JSON) */
    void (*known)(const iso_ctx *ctx, const iso_exact *x, size_t i, uint32_t from, uint32_t to, const char *ta,
                  const char *tb, iso_buf *text, iso_buf *json);
    /* side edge s (bit ISO_EDGE_WW or _RW) of the order "write a before write b" a case assumes */
    void (*assumed)(const iso_ctx *ctx, const iso_exact *x, const struct solve_step *s, uint8_t bit, uint32_t a,
                    uint32_t b, const char *ta, const char *tb, iso_buf *text, iso_buf *json);
    /* the witness's ",\"version-order\":[...]": each key's writes by their transactions' rank */
    void (*version_order)(const iso_ctx *ctx, const iso_exact *x, const uint32_t *rank, iso_buf *j);
    /* whether the ranks order every transaction (the polygraph holds every
     * known edge): the witness then gives its "transaction-order" too */
    int txn_order;
} iso_exact_words;

/* The problems (SOLVE_SER / _SI / _PSI / _PC, with the order variant
 * ISO_CV_*) a check must solve into m[], v[]: how many; 0 when none, when
 * --exact=never, when a finding the request reports is already there, or
 * when a variant needs an order the graph lacks (extra: the order bits
 * it holds). */
int iso_exact_problems(const iso_ctx *ctx, uint8_t extra, int m[4], int v[4]);

/* Known edge a -bit-> b (ignored when a == b or either is ISO_NONE); its
 * index, or -1 when ignored. */
long iso_exact_known(iso_exact *x, uint32_t a, uint32_t b, uint8_t bit);
/* A new choice between writes wa, wb of transactions ta, tb: then side
 * 0's edges (iso_exact_side_edge), iso_exact_side_end, side 1's, and
 * iso_exact_side_end again. */
void iso_exact_choice(iso_exact *x, uint32_t wa, uint32_t wb, uint32_t ta, uint32_t tb);
void iso_exact_side_edge(iso_exact *x, uint32_t from, uint32_t to, uint32_t kind);
void iso_exact_side_end(iso_exact *x);
void iso_exact_free(iso_exact *x);

/* Solve the problems on x, whose data edges the workload built (n_data
 * set): a finding, an unknown or a witness; pc.exact set when every
 * problem was decided. Without choices and with trivial set (nothing the
 * search's graph lacks), the search was exact already. */
void iso_exact_run(iso_ctx *ctx, const iso_graph *g, iso_exact *x, const iso_exact_words *w, const int *m,
                   const int *v, int n, int trivial);

/* "serializable", "strict-serializable", ... of a problem. */
const char *iso_exact_name(int model, int variant);

#endif
