/*
 * elle/page.c -- a transactional result's fields of the HTML page
 * (report/page.c writes the page around them): how many ops were checked,
 * what the verdict covers (json.c's fields), the first findings of each
 * type (report/report.h) with their proofs, JSON and pictures, how many
 * more each type has ("not-shown"), the timeline (one lane per process,
 * one bar per transaction, nemesis ops, :error of failures), and each
 * transaction's op in a text block.
 */
#include "elle/picture.h"
#include "elle/proof.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
        iso_picture_json(&p, b);
        iso_picture_free(&p);
    }
    iso_buf_puts(b, "}");
    iso_html_more(s->h);
}

/* What the page shows of each type (report.h: the first findings), and
 * how many more each had. */
static void findings_field(iso_html *h, const isolde_result *r)
{
    const iso_txn_result *t = r->payload;
    shown s = {h, t, NULL, 0, 0};
    size_t *n = iso_xcalloc(r->n_types ? r->n_types : 1, sizeof *n);
    iso_buf_puts(&h->b, ",\"findings\":[");
    for (size_t k = 0; k < r->n_types; s.first += r->type_counts[k++]) {
        s.type = r->types[k];
        n[k] = iso_elle_show(t, s.first, iso_elle_shown_of(r, k), ISO_REPORT_SHOWN_BYTES, show_finding, &s);
    }
    iso_buf_puts(&h->b, "]");
    iso_elle_not_shown(r, n, ",", &h->b);
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

void iso_elle_page(const isolde_result *r, iso_html *h)
{
    const iso_txn_result *t = r->payload;
    iso_buf summary = {0};
    iso_elle_summary(t, &summary);
    iso_html_string(h, "text", iso_buf_cstr(&summary));
    iso_buf_free(&summary);
    iso_elle_request_json(r, &h->b);
    findings_field(h, r);
    timeline_field(h, &t->pc);
    ops_block(h, &t->pc);
}
