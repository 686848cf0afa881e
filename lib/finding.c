/* finding.c -- a finding's text proof and JSON object, built together. */
#include "finding.h"

void iso_fb_let(const iso_ctx *ctx, iso_fb *f, const uint32_t *txns, size_t n)
{
    iso_buf_puts(&f->text, "Let:\n");
    for (size_t i = 0; i < n; i++) {
        iso_buf_printf(&f->text, "  T%zu = ", i + 1);
        iso_ctx_op_text(ctx, txns[i], &f->text);
        iso_buf_puts(&f->text, "\n");
    }
    iso_buf_puts(&f->text, "\nThen:\n  - ");
}

void iso_fb_text(iso_fb *f, const char *s) { iso_buf_puts(&f->text, s); }

void iso_fb_val(const iso_ctx *ctx, iso_fb *f, iso_val v) { iso_ctx_val_text(ctx, v, &f->text); }

void iso_fb_key(iso_fb *f, const char *name)
{
    iso_buf_printf(&f->json, "%s\"%s\":", f->json.n ? "," : "{", name);
}

void iso_fb_field(const iso_ctx *ctx, iso_fb *f, const char *name, iso_val v)
{
    iso_fb_key(f, name);
    iso_ctx_val_json(ctx, v, &f->json);
}

void iso_fb_field_op(const iso_ctx *ctx, iso_fb *f, const char *name, uint32_t txn)
{
    iso_fb_key(f, name);
    iso_ctx_op_json(ctx, txn, &f->json);
}

void iso_fb_emit(iso_ctx *ctx, iso_fb *f, int type)
{
    iso_buf_puts(&f->json, f->json.n ? "}" : "{}");
    iso_ctx_add_finding(ctx, type, iso_buf_cstr(&f->text), iso_buf_cstr(&f->json));
    iso_buf_free(&f->text);
    iso_buf_free(&f->json);
}
