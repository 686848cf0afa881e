/*
 * elle/render.h -- building one finding: its proof for people (text,
 * opening with Elle's "Let: T1 = {op} ... Then:") and its JSON object with
 * Elle's keys, side by side; and the pieces of a workload's explanation of
 * one edge. Everything reads only the proof context (check/check.h), so
 * workloads use these both while they check and when a pending finding is
 * rendered later, on any thread.
 */
#ifndef ISO_ELLE_RENDER_H
#define ISO_ELLE_RENDER_H

#include "elle/elle.h"

/* A value (EDN for text, JSON for json) or a transaction's op. */
void iso_pc_val_text(const iso_proof_ctx *pc, iso_val v, iso_buf *out);
void iso_pc_val_json(const iso_proof_ctx *pc, iso_val v, iso_buf *out);
void iso_pc_op_text(const iso_proof_ctx *pc, uint32_t txn, iso_buf *out);
void iso_pc_op_json(const iso_proof_ctx *pc, uint32_t txn, iso_buf *out);

/* "Let:\n  T1 = {...}\n ...\nThen:\n  - ", naming txns[i] T(i+1). */
void iso_fb_let(const iso_proof_ctx *pc, iso_fb *f, const uint32_t *txns, size_t n);
/* A value in the text, as EDN. */
void iso_fb_val(const iso_proof_ctx *pc, iso_fb *f, iso_val v);
/* Start the JSON field "name": the caller writes its value to f->json. */
void iso_fb_key(iso_fb *f, const char *name);
/* JSON fields holding a value, or a transaction's op. */
void iso_fb_field(const iso_proof_ctx *pc, iso_fb *f, const char *name, iso_val v);
void iso_fb_field_op(const iso_proof_ctx *pc, iso_fb *f, const char *name, uint32_t txn);
/* A JSON field holding an array of transactions' ops. */
void iso_fb_field_ops(const iso_proof_ctx *pc, iso_fb *f, const char *name, const uint32_t *txns,
                      size_t n);
/* Close the JSON object, add the finding to s, and free the buffers. */
void iso_fb_emit(iso_findings *s, iso_fb *f, int type);
/* iso_fb_emit, the finding keeping picture pic (elle/picture.h: built
 * beside its proof), which is moved into it (*pic is left zeroed). */
void iso_fb_emit_picture(iso_findings *s, iso_fb *f, int type, struct iso_picture *pic);
/* Close the JSON object (a renderer's last step, iso_render_fn). */
void iso_fb_close(iso_fb *f);

/* Pieces of a workload's explanation of one edge (iso_workload_ops.explain).
 * The words: fmt with %1 and %2 the two transactions' names, %K the key, %A
 * and %B two values, as EDN. */
void iso_edge_text(const iso_proof_ctx *pc, iso_buf *text, const char *fmt, const char *ta,
                   const char *tb, iso_val key, iso_val a, iso_val b);
/* Which of a transaction's reads of one key a step rests on: the nth
 * (from 1) of n. */
typedef struct iso_read_rank {
    unsigned nth, n;
} iso_read_rank;
/* iso_edge_text of the words once when the reader read the key once, else
 * of twice, whose %N is which of its reads ("first", "second", ...), so
 * that two steps about one transaction's reads of a key never read as a
 * contradiction ("T1 did not observe ..." and "T1 observed ..."). */
void iso_edge_text_read(const iso_proof_ctx *pc, iso_buf *text, iso_read_rank rank, const char *once,
                        const char *twice, const char *ta, const char *tb, iso_val key, iso_val a, iso_val b);
/* Elle's JSON step {"type","key","value","value'","a-mop-index","b-mop-index"};
 * value_raw, when given, is written in place of value (Elle's
 * "elle.list-append/init"); value2 may be NULL. */
void iso_edge_json(const iso_proof_ctx *pc, iso_buf *json, const char *type, iso_val key,
                   const char *value_raw, iso_val value, const iso_val *value2, long am, long bm);

#endif
