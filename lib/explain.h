/*
 * explain.h -- turn what the cycle search found into findings a database
 * engineer can check by hand: Elle's "Let: ... Then: ..." proofs, with the
 * key and value behind every edge, and Elle's JSON (cycle, steps).
 */
#ifndef ISO_EXPLAIN_H
#define ISO_EXPLAIN_H

#include "check.h"
#include "cycle.h"

/* The proof of one cycle into *out (its strings owned by out); reads ctx
 * only, so several threads may prove cycles at once. */
void iso_explain_cycle(const iso_ctx *ctx, const iso_cycle *c, iso_finding *out);
void iso_explain_cycle_exists(iso_ctx *ctx, const iso_cycle_exists *e);
void iso_explain_timeout(iso_ctx *ctx, const iso_cycle_timeout *t);

#endif
