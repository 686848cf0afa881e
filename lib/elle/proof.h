/*
 * elle/proof.h -- proofs a database engineer can check by hand: Elle's
 * "Let: ... Then: ..." for every cycle the search found, with the key and
 * value behind every edge and Elle's JSON (cycle, steps); the words for a
 * cycle-exists fallback and a search timeout; and the one explicit step
 * that renders a transactional result's pending findings as a writer
 * shows them, a few at a time.
 */
#ifndef ISO_ELLE_PROOF_H
#define ISO_ELLE_PROOF_H

#include "elle/result.h"

/* The proof of one cycle as text and JSON (both buffers are cleared
 * first); reads pc only, so several threads may prove cycles at once. */
void iso_explain_cycle(const iso_proof_ctx *pc, const iso_cycle *c, iso_buf *text, iso_buf *json);

/* Why a -bit-> b holds (bit: one edge bit), in the proof's words (ta, tb
 * the names of a and b) and as Elle's JSON step, appended to text and json. */
void iso_explain_edge(const iso_proof_ctx *pc, uint32_t a, uint32_t b, int bit, const char *ta,
                      const char *tb, iso_buf *text, iso_buf *json);

/* The transactions a proof names, T1 .. Tn in the order first named. */
typedef struct iso_names {
    uint32_t *t;
    size_t n, cap;
} iso_names;

/* t's number in nm (1 for T1), named next when new. */
size_t iso_name_of(iso_names *nm, uint32_t t);

/* Show findings first .. first + n of t in order, each rendered just
 * before it is shown and dropped after (the findings stay as they are):
 * pending ones are rendered in batches, on t->threads threads when a batch
 * is large. The first batch is one finding, and a batch holds fewer the
 * bigger the last one's were (and never more than 256), so that what is
 * rendered at once stays near a few megabytes however many findings
 * there are. With max_bytes (0: none), showing stops after the finding
 * whose text and JSON bring the total to max_bytes. Returns how many
 * were shown. */
size_t iso_elle_show(const iso_txn_result *t, size_t first, size_t n, size_t max_bytes, iso_show_fn show,
                     void *arg);

#endif
