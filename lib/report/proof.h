/*
 * explain.h -- turn what the cycle search found into findings a database
 * engineer can check by hand: Elle's "Let: ... Then: ..." proofs, with the
 * key and value behind every edge, and Elle's JSON (cycle, steps).
 */
#ifndef ISO_EXPLAIN_H
#define ISO_EXPLAIN_H

#include "check/check.h"
#include "graph/cycle.h"

/* The proof of one cycle as text and JSON (both buffers are cleared
 * first); reads ctx only, so several threads may prove cycles at once. */
void iso_explain_cycle(const iso_ctx *ctx, const iso_cycle *c, iso_buf *text, iso_buf *json);
/* The same for cycle i of ctx->search: a pending finding's renderer. */
void iso_prove_cycle(const iso_ctx *ctx, size_t i, iso_fb *f);
/* Every pending finding of f[0..n) gets its text and JSON, rendered on
 * `threads` threads (renderers only read ctx). */
void iso_prove_findings(const iso_ctx *ctx, iso_finding *f, size_t n, int threads);
/* A finding's text (json: its JSON): as stored, or its pending proof
 * rendered into scratch. */
const char *iso_finding_text(const iso_ctx *ctx, const iso_finding *f, int json, iso_buf *scratch);
void iso_explain_cycle_exists(iso_ctx *ctx, const iso_cycle_exists *e);
void iso_explain_timeout(iso_ctx *ctx, const iso_cycle_timeout *t);

#endif
