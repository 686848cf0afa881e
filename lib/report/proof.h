/*
 * report/proof.h -- proofs a database engineer can check by hand: Elle's
 * "Let: ... Then: ..." for every cycle the search found, with the key and
 * value behind every edge and Elle's JSON (cycle, steps); the words for a
 * cycle-exists fallback and a search timeout; and the one explicit step
 * that renders a transactional result's pending findings before a writer
 * shows them.
 */
#ifndef ISO_REPORT_PROOF_H
#define ISO_REPORT_PROOF_H

#include "check/result.h"

/* The proof of one cycle as text and JSON (both buffers are cleared
 * first); reads pc only, so several threads may prove cycles at once. */
void iso_explain_cycle(const iso_proof_ctx *pc, const iso_cycle *c, iso_buf *text, iso_buf *json);

/* Render pending finding f in place (its text and JSON), with scratch as
 * working space (two buffers the caller frees); the strings are kept with
 * owner's memory (a result made by an earlier call: see iso_adopt), or
 * with the running call's when owner is NULL. */
void iso_report_render(const iso_proof_ctx *pc, iso_finding *f, iso_fb *scratch, const void *owner);

/* Render every pending finding among the first per_type of each type of t
 * (SIZE_MAX: all of them), on t->threads threads when there are many.
 * Rendered findings keep their text; calling it again renders only what is
 * still pending. */
void iso_report_prove(iso_txn_result *t, const size_t *type_counts, size_t n_types, size_t per_type);

#endif
