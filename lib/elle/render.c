/* elle/render.c -- a finding's text proof and JSON object, built together. */
#include "elle/render.h"
#include "elle/picture.h"

void iso_pc_val_text(const iso_proof_ctx *pc, iso_val v, iso_buf *out) { iso_val_edn(&pc->h->store, v, out); }
void iso_pc_val_json(const iso_proof_ctx *pc, iso_val v, iso_buf *out) { iso_val_json(&pc->h->store, v, out); }

void iso_pc_op_text(const iso_proof_ctx *pc, uint32_t txn, iso_buf *out)
{
    iso_op_edn(pc->h, iso_txn_op(pc->h, &pc->txns.t[txn]), out);
}

void iso_pc_op_json(const iso_proof_ctx *pc, uint32_t txn, iso_buf *out)
{
    iso_op_json(pc->h, iso_txn_op(pc->h, &pc->txns.t[txn]), out);
}

void iso_fb_let(const iso_proof_ctx *pc, iso_fb *f, const uint32_t *txns, size_t n)
{
    iso_buf_puts(&f->text, "Let:\n");
    for (size_t i = 0; i < n; i++) {
        iso_buf_printf(&f->text, "  T%zu = ", i + 1);
        iso_pc_op_text(pc, txns[i], &f->text);
        iso_buf_puts(&f->text, "\n");
    }
    iso_buf_puts(&f->text, "\nThen:\n  - ");
}

void iso_fb_val(const iso_proof_ctx *pc, iso_fb *f, iso_val v) { iso_pc_val_text(pc, v, &f->text); }

void iso_fb_key(iso_fb *f, const char *name)
{
    iso_buf_printf(&f->json, "%s\"%s\":", f->json.n ? "," : "{", name);
}

void iso_fb_field(const iso_proof_ctx *pc, iso_fb *f, const char *name, iso_val v)
{
    iso_fb_key(f, name);
    iso_pc_val_json(pc, v, &f->json);
}

void iso_fb_field_op(const iso_proof_ctx *pc, iso_fb *f, const char *name, uint32_t txn)
{
    iso_fb_key(f, name);
    iso_pc_op_json(pc, txn, &f->json);
}

void iso_fb_field_ops(const iso_proof_ctx *pc, iso_fb *f, const char *name, const uint32_t *txns, size_t n)
{
    iso_fb_key(f, name);
    iso_buf_puts(&f->json, "[");
    for (size_t i = 0; i < n; i++) {
        if (i) iso_buf_puts(&f->json, ",");
        iso_pc_op_json(pc, txns[i], &f->json);
    }
    iso_buf_puts(&f->json, "]");
}

/* n as an ordinal: "first" .. "tenth", then "11th", "21st", ... */
static void put_ordinal(iso_buf *text, unsigned n)
{
    static const char *const words[] = {"first", "second", "third", "fourth", "fifth",
                                        "sixth", "seventh", "eighth", "ninth", "tenth"};
    if (n >= 1 && n <= 10) {
        iso_buf_puts(text, words[n - 1]);
        return;
    }
    unsigned last = n % 10, teen = n % 100 >= 11 && n % 100 <= 13;
    iso_buf_printf(text, "%u%s", n, teen ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th");
}

/* fmt's words, %N the ordinal nth. */
static void edge_text(const iso_proof_ctx *pc, iso_buf *text, const char *fmt, const char *ta, const char *tb,
                      iso_val key, iso_val a, iso_val b, unsigned nth)
{
    for (const char *p = fmt; *p; p++) {
        if (*p != '%' || !p[1]) {
            iso_buf_put(text, p, 1);
            continue;
        }
        switch (*++p) {
        case 'K': iso_pc_val_text(pc, key, text); break;
        case 'A': iso_pc_val_text(pc, a, text); break;
        case 'B': iso_pc_val_text(pc, b, text); break;
        case '1': iso_buf_puts(text, ta); break;
        case '2': iso_buf_puts(text, tb); break;
        case 'N': put_ordinal(text, nth); break;
        default: iso_buf_put(text, p, 1);
        }
    }
}

void iso_edge_text(const iso_proof_ctx *pc, iso_buf *text, const char *fmt, const char *ta,
                   const char *tb, iso_val key, iso_val a, iso_val b)
{
    edge_text(pc, text, fmt, ta, tb, key, a, b, 0);
}

void iso_edge_text_read(const iso_proof_ctx *pc, iso_buf *text, iso_read_rank rank, const char *once,
                        const char *twice, const char *ta, const char *tb, iso_val key, iso_val a, iso_val b)
{
    edge_text(pc, text, rank.n > 1 ? twice : once, ta, tb, key, a, b, rank.nth);
}

void iso_edge_json(const iso_proof_ctx *pc, iso_buf *json, const char *type, iso_val key,
                   const char *value_raw, iso_val value, const iso_val *value2, long am, long bm)
{
    iso_buf_printf(json, "{\"type\":\"%s\",\"key\":", type);
    iso_pc_val_json(pc, key, json);
    iso_buf_puts(json, ",\"value\":");
    if (value_raw) iso_buf_puts(json, value_raw);
    else iso_pc_val_json(pc, value, json);
    if (value2) {
        iso_buf_puts(json, ",\"value'\":");
        iso_pc_val_json(pc, *value2, json);
    }
    iso_buf_printf(json, ",\"a-mop-index\":%ld,\"b-mop-index\":%ld}", am, bm);
}

void iso_fb_close(iso_fb *f) { iso_buf_puts(&f->json, f->json.n ? "}" : "{}"); }

void iso_fb_emit(iso_findings *s, iso_fb *f, int type)
{
    iso_fb_close(f);
    iso_findings_add_text(s, type, iso_buf_cstr(&f->text), iso_buf_cstr(&f->json));
    iso_buf_free(&f->text);
    iso_buf_free(&f->json);
}

void iso_fb_emit_picture(iso_findings *s, iso_fb *f, int type, iso_picture *pic)
{
    iso_fb_emit(s, f, type);
    s->f[s->n - 1].pic = iso_picture_keep(pic);
}
