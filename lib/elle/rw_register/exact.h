/*
 * elle/rw_register/exact.h -- serializability and snapshot isolation
 * decided exactly when the evidence leaves writer pairs of a key unordered
 * (issue 26 item 1): the polygraph of the check's known edges and one
 * choice per unordered pair of ok writers of a key, solved by lib/solve/.
 *
 *   exact.c        which problems a request needs (serializable or SI,
 *                  with process or real-time order), the polygraph, the
 *                  solver's verdict as a finding or a witness
 *   exact_proof.c  the words: the two-case proof of an invalid core, the
 *                  component left unknown, the witness of a valid one
 *
 * Known edges mirror the inference (rw_register.c): wr of every read, ww
 * and rw from each version to the first versions of ok writers the version
 * graph puts after it; a choice's side "u first" adds wof[u] -ww-> wof[v]
 * and readers(u) -rw-> wof[v] (wof: the writer, ok or an :info one some
 * ok read shows, st->committed). Every edge is an edge of the dependency
 * graph under any version order the side allows, so a cycle in every case
 * is a violation (sound); with every pair a choice, an acyclic choice is a
 * version order the model allows (complete, for the ok transactions).
 */
#ifndef ISO_RW_EXACT_H
#define ISO_RW_EXACT_H

#include "elle/rw_register/rw_register_int.h"
#include "solve/solve.h"

/* One edge as the proof tells it: its bit (ISO_EDGE_*) and, for data
 * edges, x and y: wr the version read and the micro-op index of the read;
 * ww, rw the version before and the version written after. */
typedef struct ex_why {
    uint8_t bit;
    uint32_t x, y;
} ex_why;

/* The polygraph as built, and what the proof needs to tell it. */
typedef struct ex_poly {
    uint32_t *wof;             /* per version: its committed writer's final write (ok, or :info and read), else ISO_NONE */
    struct solve_edge *e;      /* known edges */
    ex_why *why;               /* per known edge */
    size_t n, cap;
    size_t n_data;             /* the first n_data are data edges, the rest order edges */
    uint32_t *pair;            /* choice c: versions pair[2c] (side 0 first) and pair[2c+1] */
    uint32_t n_ch;
    size_t cap_ch;
    uint64_t n_ordered;        /* pairs of ok writes the inference ordered (for ISOLDE_TIMING) */
    size_t *start;             /* solve_input.side_start */
    size_t cap_start;
    struct solve_edge *se;     /* side edges: each side's ww first, then its rw */
    size_t n_se, cap_se;
} ex_poly;

/* exact.c: the hook iso_ctx.exact names (elle.c calls it after the search). */
void rw_exact(iso_ctx *ctx, const iso_graph *g, uint8_t extra);

/* exact_proof.c */
/* The finding of an invalid result r of model (variant: ISO_CV_*). */
void rw_exact_invalid(iso_ctx *ctx, const ex_poly *p, const struct solve_result *r, int model, int variant);
/* The finding of an unknown result. */
void rw_exact_unknown(iso_ctx *ctx, const struct solve_result *r, int model, int variant);
/* The witness of a valid result (JSON, into ctx->pc.witness): a version
 * order per key and a transaction order that gives it. */
void rw_exact_witness(iso_ctx *ctx, const ex_poly *p, const struct solve_input *in, const struct solve_result *r, const char *model);
/* "serializable", "strict-serializable", ... of a model and variant. */
const char *rw_exact_name(int model, int variant);

#endif
