/*
 * elle/rw_register/exact.h -- serializability and snapshot isolation
 * decided exactly when the evidence leaves writer pairs of a key unordered
 * (issue 26 item 1): rw-register's polygraph for elle/exact.h, one choice
 * per unordered pair of ok writers of a key.
 *
 *   exact.c        the polygraph
 *   exact_proof.c  the words of its writes and steps, the witness's
 *                  version order (elle/exact.c frames proofs and witness)
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

#include "elle/exact.h"
#include "elle/rw_register/rw_register_int.h"

/* What a known data edge rests on: wr the version read and the micro-op
 * index of the read; ww, rw the version before and the version written
 * after. */
typedef struct ex_why {
    uint32_t x, y;
} ex_why;

/* The polygraph (a write is a version) and what the words need. */
typedef struct ex_poly {
    iso_exact x;
    uint32_t *wof; /* per version: its committed writer's final write (ok, or :info and read), else ISO_NONE */
    ex_why *why;   /* per known data edge */
    size_t cap_why;
} ex_poly;

/* exact.c: the hook iso_ctx.exact names (elle.c calls it after the search). */
void rw_exact(iso_ctx *ctx, const iso_graph *g, uint8_t extra);

/* exact_proof.c: how rw-register's writes and steps are told. */
extern const iso_exact_words rw_exact_words;

#endif
