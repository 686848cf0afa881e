/*
 * report/html.c -- the self-contained HTML report: one file, no network,
 * the viewer (web/viewer.js, embedded at build time) reading one JSON data
 * block; the page every kind writes (verdict, types, not / also-not, the
 * kind's text report) and a transactional result's data: what the verdict
 * covers (the models checked and not, json.c's fields), the first findings
 * of each type (report.h) with their proofs, JSON and pictures, how many
 * more each type has ("not-shown"), and the timeline (one lane per
 * process, one bar per transaction, nemesis ops, :error of failures).
 *
 * Invariant: the data block is JSON in which '<' never appears (it is
 * written as \u003c, which only strings can hold), so no key, value or
 * error text can close the script element or open markup; the viewer puts
 * text into the page as text only. The page is written in chunks of about
 * CHUNK bytes, so a large history's report needs no copy of itself.
 */
#include "report/html.h"
#include "elle/picture.h"
#include "report/report.h"
#include "elle/proof.h"
#include "elle/render.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_js.h" /* generated from web/viewer.js: iso_viewer_js */

enum { CHUNK = 1 << 20 };

void iso_html_flush(iso_html *h)
{
    const char *p = h->b.p, *end = p + h->b.n;
    if (h->text) { /* escaped as it was added */
        if (h->b.n) fwrite(p, 1, h->b.n, h->out);
        h->b.n = 0;
        return;
    }
    while (p < end) {
        const char *lt = memchr(p, '<', (size_t)(end - p));
        size_t n = (size_t)((lt ? lt : end) - p);
        fwrite(p, 1, n, h->out);
        if (lt) fputs("\\u003c", h->out);
        p += n + (lt != NULL);
    }
    h->b.n = 0;
}

void iso_html_more(iso_html *h)
{
    if (h->b.n >= CHUNK) iso_html_flush(h);
}

/* ,"key":[names] -- nothing when there are none (a result that rules out
 * no model says nothing of not / also-not). */
static void json_names(iso_buf *b, const char *key, const char *const *names, size_t n)
{
    if (!n) return;
    iso_buf_printf(b, ",\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        if (i) iso_buf_puts(b, ",");
        iso_json_string(b, names[i], strlen(names[i]));
    }
    iso_buf_puts(b, "]");
}

void iso_html_open(iso_html *h, FILE *out, isolde_result *r, const char *kind, const char *text)
{
    h->out = out;
    h->b = (iso_buf){0};
    h->text = 0;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
          "<title>isolde report</title></head>\n<body>\n"
          "<script type=\"application/json\" id=\"isolde-data\">", out);
    iso_buf_printf(&h->b, "{\"kind\":\"%s\",\"valid\":\"%s\",\"types\":[", kind, iso_report_validity(r->validity));
    for (size_t i = 0; i < r->n_types; i++) {
        iso_buf_printf(&h->b, "%s[", i ? "," : "");
        iso_json_string(&h->b, r->types[i], strlen(r->types[i]));
        iso_buf_printf(&h->b, ",%zu]", r->type_counts[i]);
    }
    iso_buf_puts(&h->b, "]");
    json_names(&h->b, "not", r->not_, r->n_not);
    json_names(&h->b, "also-not", r->also_not, r->n_also_not);
    if (text) iso_buf_puts(&h->b, ",\"text\":"), iso_json_string(&h->b, text, strlen(text));
}

void iso_html_text_block(iso_html *h, const char *id)
{
    if (!h->text) iso_buf_puts(&h->b, "}");
    iso_html_flush(h);
    h->text = 1;
    fprintf(h->out, "</script>\n<script type=\"text/plain\" id=\"%s\">", id);
}

void iso_html_text(iso_html *h, const char *s, size_t n)
{
    for (size_t i = 0, run = 0; i <= n; i++) {
        char c = i < n ? s[i] : 0;
        const char *esc = c == '\\' ? "\\\\" : c == '<' ? "\\l" : c == '\n' ? "\\n" : NULL;
        if (!esc && i < n) continue;
        iso_buf_put(&h->b, s + run, i - run);
        if (esc) iso_buf_puts(&h->b, esc);
        run = i + 1;
    }
}

int iso_html_close(iso_html *h)
{
    if (!h->text) iso_buf_puts(&h->b, "}");
    iso_html_flush(h);
    iso_buf_free(&h->b);
    fputs("</script>\n<script>\n", h->out);
    fputs(iso_viewer_js, h->out);
    fputs("\n</script>\n</body></html>\n", h->out);
    return ferror(h->out) ? -1 : 0;
}

int iso_report_html_plain(isolde_result *r, FILE *out, const char *kind, const char *text)
{
    iso_html h;
    iso_html_open(&h, out, r, kind, text);
    return iso_html_close(&h);
}

/* ---- a transactional result --------------------------------------- */

typedef struct shown {
    iso_html *h;
    const iso_txn_result *t;
    const char *type;
    size_t first;
    int any;
} shown;

static void show_finding(void *arg, size_t i, const char *text, const char *json)
{
    shown *s = arg;
    iso_buf *b = &s->h->b;
    iso_buf_printf(b, "%s{\"type\":", s->any++ ? "," : "");
    iso_json_string(b, s->type, strlen(s->type));
    iso_buf_printf(b, ",\"n\":%zu,\"text\":", i);
    iso_json_string(b, text, strlen(text));
    iso_buf_printf(b, ",\"json\":%s", json);
    iso_picture p;
    if (iso_picture_of(&s->t->pc, &s->t->findings.f[s->first + i], &p)) {
        iso_buf_puts(b, ",\"pic\":");
        iso_picture_json(&s->t->pc, &p, b);
        iso_picture_free(&p);
    }
    iso_buf_puts(b, "}");
    iso_html_more(s->h);
}

/* What the page shows of each type (report.h: the first findings), and
 * how many more each had. */
static void findings_field(iso_html *h, isolde_result *r)
{
    const iso_txn_result *t = r->payload;
    shown s = {h, t, NULL, 0, 0};
    size_t *n = iso_xcalloc(r->n_types ? r->n_types : 1, sizeof *n);
    iso_buf_puts(&h->b, ",\"findings\":[");
    for (size_t k = 0; k < r->n_types; s.first += r->type_counts[k++]) {
        s.type = r->types[k];
        n[k] = iso_report_each(t, s.first, iso_report_shown_of(r, k), ISO_REPORT_SHOWN_BYTES, show_finding, &s);
    }
    iso_buf_puts(&h->b, "]");
    iso_report_not_shown(r, n, ",", &h->b);
    iso_free(n);
}

static int cmp_val(const void *x, const void *y)
{
    iso_val a = *(const iso_val *)x, b = *(const iso_val *)y;
    if (iso_is_int(a) && iso_is_int(b)) return iso_as_int(a) < iso_as_int(b) ? -1 : iso_as_int(a) > iso_as_int(b);
    return iso_is_int(a) != iso_is_int(b) ? (iso_is_int(a) ? -1 : 1) : a < b ? -1 : a > b;
}

/* The distinct processes of the transactions, sorted: *n of them. */
static iso_val *lanes(const iso_proof_ctx *pc, size_t *n)
{
    iso_val *p = iso_xmalloc((pc->txns.n ? pc->txns.n : 1) * sizeof *p);
    for (size_t i = 0; i < pc->txns.n; i++) p[i] = iso_op_process(pc->h, iso_txn_op(pc->h, &pc->txns.t[i]));
    qsort(p, pc->txns.n, sizeof *p, cmp_val);
    size_t k = 0;
    for (size_t i = 0; i < pc->txns.n; i++)
        if (!k || p[k - 1] != p[i]) p[k++] = p[i];
    *n = k;
    return p;
}

/* Whether every op has a :time (else the timeline runs on op indices). */
static int timed(const isolde_history *h)
{
    for (size_t i = 0; i < h->n_ops; i++)
        if (h->ops[i].time < 0) return 0;
    return h->n_ops > 0;
}

static int64_t at(const iso_op *op, int by_time) { return by_time ? op->time : op->index; }

typedef struct tl { int by_time; int64_t t0; const iso_val *lanes; size_t n_lanes; } tl;

/* Where transaction x starts, and ends (-1: never completed, or :info). */
static int64_t t_start(const isolde_history *h, const iso_txn *x, const tl *t)
{
    return at(&h->ops[x->inv != ISO_NONE ? x->inv : x->cmp], t->by_time) - t->t0;
}
static int64_t t_end(const isolde_history *h, const iso_txn *x, const tl *t)
{
    if (x->cmp == ISO_NONE || x->type == ISO_OP_INFO) return -1;
    return at(&h->ops[x->cmp], t->by_time) - t->t0;
}
/* Its first op's index, and its kind: type | 4 (has an invocation) | 8 (a completion). */
static int64_t t_base(const isolde_history *h, const iso_txn *x)
{
    return h->ops[x->inv != ISO_NONE ? x->inv : x->cmp].index;
}
static int64_t t_kind(const iso_txn *x)
{
    return x->type | (x->inv != ISO_NONE) << 2 | (x->cmp != ISO_NONE) << 3;
}

enum { F_LANE, F_START, F_DUR, F_KIND, F_BASE, F_CMP, N_FIELDS };
static const char *const field_names[N_FIELDS] = {"lane", "start", "dur", "kind", "base", "cmp"};

/* Field f of transaction i: start and base as the difference from
 * transaction i - 1's (*prev), dur as end - start (-1: open), cmp as the
 * completion's index - base (0 without one). Numbers stay short. */
static int64_t field(const iso_proof_ctx *pc, const tl *t, int f, size_t i, int64_t *prev)
{
    const iso_txn *x = &pc->txns.t[i];
    const isolde_history *h = pc->h;
    int64_t v, end;
    switch (f) {
    case F_LANE: {
        iso_val p = iso_op_process(h, iso_txn_op(h, x));
        return (const iso_val *)bsearch(&p, t->lanes, t->n_lanes, sizeof p, cmp_val) - t->lanes;
    }
    case F_START: v = t_start(h, x, t) - *prev, *prev = t_start(h, x, t); return v;
    case F_DUR: end = t_end(h, x, t); return end < 0 ? -1 : end - t_start(h, x, t);
    case F_KIND: return t_kind(x);
    case F_BASE: v = t_base(h, x) - *prev, *prev = t_base(h, x); return v;
    default: return x->cmp == ISO_NONE ? 0 : h->ops[x->cmp].index - t_base(h, x);
    }
}

static void int_field(iso_html *h, const iso_proof_ctx *pc, const tl *t, int f)
{
    int64_t prev = 0;
    iso_buf_printf(&h->b, ",\"%s\":[", field_names[f]);
    for (size_t i = 0; i < pc->txns.n; i++) {
        if (i) iso_buf_puts(&h->b, ",");
        iso_buf_int(&h->b, field(pc, t, f, i, &prev));
        iso_html_more(h);
    }
    iso_buf_puts(&h->b, "]");
}

/* Each transaction's op value, one line each, in the text block "isolde-ops". */
static void ops_block(iso_html *h, const iso_proof_ctx *pc)
{
    iso_buf edn = {0};
    iso_html_text_block(h, "isolde-ops");
    for (size_t i = 0; i < pc->txns.n; i++) {
        edn.n = 0;
        iso_val_edn(&pc->h->store, iso_txn_op(pc->h, &pc->txns.t[i])->value, &edn);
        iso_html_text(h, edn.p ? edn.p : "", edn.n);
        iso_buf_puts(&h->b, "\n");
        iso_html_more(h);
    }
    iso_buf_free(&edn);
}

/* The ops outside transactions (nemesis): [time, type, f, value]. */
static void nemesis_field(iso_html *h, const isolde_history *h0, const tl *t)
{
    iso_buf edn = {0};
    int any = 0;
    iso_buf_puts(&h->b, ",\"nemesis\":[");
    for (size_t i = 0; i < h0->n_ops; i++) {
        const iso_op *op = &h0->ops[i];
        if (iso_op_is_client(op)) continue;
        iso_buf_printf(&h->b, "%s[%" PRId64 ",\"%s\",", any++ ? "," : "", at(op, t->by_time) - t->t0,
                       iso_op_type_name(op->type));
        edn.n = 0;
        iso_val_edn(&h0->store, iso_op_f(h0, op), &edn);
        iso_json_string(&h->b, edn.p ? edn.p : "", edn.n);
        iso_buf_puts(&h->b, ",");
        edn.n = 0;
        iso_val_edn(&h0->store, op->value, &edn);
        iso_json_string(&h->b, edn.p ? edn.p : "", edn.n);
        iso_buf_puts(&h->b, "]");
        iso_html_more(h);
    }
    iso_buf_puts(&h->b, "]");
    iso_buf_free(&edn);
}

/* The class an :error names, into out: the first item of a vector
 * (isolde run's [class, code, message], Jepsen's [:unique-violation ...])
 * or the error itself, as text when it is a string or keyword, else EDN. */
static void error_class(const iso_store *s, iso_val e, iso_buf *out)
{
    iso_val buf[3];
    if (iso_is_seq(e) && iso_seq_kind(s, e) == ISO_SEQ_VEC && iso_seq_len(s, e)) e = iso_seq_items(s, e, buf)[0];
    size_t n = 0;
    const char *text = iso_tag(e) == ISO_TAG_STR || iso_tag(e) == ISO_TAG_KW ? iso_atom_text(s, e, &n) : NULL;
    if (text) iso_buf_put(out, text, n);
    else iso_val_edn(s, e, out);
}

/* The transactions whose completion has an :error: [transaction, class,
 * error] (the class: error_class; the error as EDN). */
static void errors_field(iso_html *h, const iso_proof_ctx *pc)
{
    iso_buf edn = {0};
    int any = 0;
    iso_buf_puts(&h->b, ",\"errors\":[");
    for (size_t i = 0; i < pc->txns.n; i++) {
        const iso_txn *x = &pc->txns.t[i];
        iso_val e = x->cmp == ISO_NONE ? ISO_NIL : pc->h->extras[pc->h->ops[x->cmp].extra].error;
        if (iso_is_nil(e)) continue;
        edn.n = 0;
        error_class(&pc->h->store, e, &edn);
        iso_buf_printf(&h->b, "%s[%zu,", any++ ? "," : "", i);
        iso_json_string(&h->b, edn.p ? edn.p : "", edn.n);
        iso_buf_puts(&h->b, ",");
        edn.n = 0;
        iso_val_edn(&pc->h->store, e, &edn);
        iso_json_string(&h->b, edn.p ? edn.p : "", edn.n);
        iso_buf_puts(&h->b, "]");
        iso_html_more(h);
    }
    iso_buf_puts(&h->b, "]");
    iso_buf_free(&edn);
}

static void timeline_field(iso_html *h, const iso_proof_ctx *pc)
{
    const isolde_history *hist = pc->h;
    tl t = {timed(hist), 0, NULL, 0};
    if (hist->n_ops) t.t0 = at(&hist->ops[0], t.by_time);
    for (size_t i = 0; i < hist->n_ops; i++)
        if (at(&hist->ops[i], t.by_time) < t.t0) t.t0 = at(&hist->ops[i], t.by_time);
    t.lanes = lanes(pc, &t.n_lanes);
    iso_buf_printf(&h->b, ",\"timeline\":{\"unit\":\"%s\",\"n\":%zu,\"lanes\":[", t.by_time ? "ns" : "index",
                   pc->txns.n);
    iso_buf edn = {0};
    for (size_t i = 0; i < t.n_lanes; i++) {
        edn.n = 0;
        iso_val_edn(&hist->store, t.lanes[i], &edn);
        iso_buf_puts(&h->b, i ? "," : "");
        iso_json_string(&h->b, edn.p ? edn.p : "", edn.n);
    }
    iso_buf_free(&edn);
    iso_buf_puts(&h->b, "]");
    for (int f = 0; f < N_FIELDS; f++) int_field(h, pc, &t, f);
    iso_free((void *)t.lanes);
    nemesis_field(h, hist, &t);
    errors_field(h, pc);
    iso_buf_puts(&h->b, "}");
}

int iso_report_html(isolde_result *r, FILE *out)
{
    iso_txn_result *t = r->payload;
    iso_html h;
    iso_buf summary = {0};
    iso_report_summary(t, &summary);
    iso_html_open(&h, out, r, "transactional", iso_buf_cstr(&summary));
    iso_buf_free(&summary);
    iso_report_request_json(r, &h.b);
    findings_field(&h, r);
    timeline_field(&h, &t->pc);
    ops_block(&h, &t->pc);
    return iso_html_close(&h);
}
