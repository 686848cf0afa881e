/*
 * finding.h -- building one finding: its proof for people (text, opening
 * with Elle's "Let: T1 = {op} ... Then:") and its JSON object with Elle's
 * keys, side by side. Workloads use it for every direct anomaly.
 */
#ifndef ISO_FINDING_H
#define ISO_FINDING_H

#include "check.h"

typedef struct iso_fb {
    iso_buf text, json;
} iso_fb;

/* "Let:\n  T1 = {...}\n ...\nThen:\n  - ", naming txns[i] T(i+1). */
void iso_fb_let(const iso_ctx *ctx, iso_fb *f, const uint32_t *txns, size_t n);
void iso_fb_text(iso_fb *f, const char *s);
/* A value in the text, as EDN. */
void iso_fb_val(const iso_ctx *ctx, iso_fb *f, iso_val v);
/* Start the JSON field "name": the caller writes its value to f->json. */
void iso_fb_key(iso_fb *f, const char *name);
/* JSON fields holding a value, or a transaction's op. */
void iso_fb_field(const iso_ctx *ctx, iso_fb *f, const char *name, iso_val v);
void iso_fb_field_op(const iso_ctx *ctx, iso_fb *f, const char *name, uint32_t txn);
/* Close the JSON object, add the finding to ctx, and free the buffers. */
void iso_fb_emit(iso_ctx *ctx, iso_fb *f, int type);

#endif
