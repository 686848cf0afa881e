/*
 * elle/text.c -- the text report of a transactional result: the verdict,
 * how many ops were checked, what the verdict covers (the models checked,
 * those of them checked soundly only, when it is valid, the anomalies asked for, the models not checked and why, why it is
 * unknown if that is why), the anomaly types, the weakest models ruled out
 * (not) and the stronger ones (also-not), then up to max_examples proofs
 * per type.
 */
#include "elle/proof.h"

#include <string.h>

enum { WIDTH = 78 };

/* "label: text", wrapped at its spaces before WIDTH columns; continuation
 * lines are indented by indent. */
static void wrapped(FILE *out, const char *label, const char *text, int indent)
{
    int col = fprintf(out, "%s:", label), first = 1;
    for (const char *p = text; *p; first = 0) {
        int w = (int)strcspn(p, " ");
        if (!first && col + 1 + w > WIDTH) col = fprintf(out, "\n%*s", indent - 1, "") - 1;
        col += fprintf(out, " %.*s", w, p);
        for (p += w; *p == ' '; p++) {}
    }
    fputc('\n', out);
}

/* "label: a, b, c" (none: "none"), continuation lines under the first name. */
static void names_line(FILE *out, const char *label, const char *const *names, size_t n)
{
    iso_buf b = {0};
    for (size_t i = 0; i < n; i++) iso_buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
    wrapped(out, label, n ? iso_buf_cstr(&b) : "none", (int)strlen(label) + 2);
    iso_buf_free(&b);
}

/* What the verdict covers: the models checked, the anomalies -a asked
 * for, each model not checked with why, and why the verdict is unknown
 * when that is why. */
static void coverage_lines(FILE *out, const isolde_result *r)
{
    const iso_request *q = &((const iso_txn_result *)r->payload)->req;
    const char *names[ISO_A_COUNT];
    size_t n = 0;
    for (size_t i = 0; i < q->n_checked; i++) names[n++] = q->checked[i].name;
    names_line(out, "models checked", names, n);
    n = iso_elle_sound_only(r->payload, names);
    if (n && r->validity == ISOLDE_VALID) {
        iso_buf s = {0};
        for (size_t i = 0; i < n; i++) iso_buf_printf(&s, "%s%s", i ? ", " : "", names[i]);
        iso_buf_puts(&s, ": valid means no violation isolde's method can see (docs/MODELS.md)");
        wrapped(out, "sound only", iso_buf_cstr(&s), 4);
        iso_buf_free(&s);
    }
    const char *witness = ((const iso_txn_result *)r->payload)->pc.witness;
    if (witness && r->validity == ISOLDE_VALID)
        wrapped(out, "witness", strstr(witness, "\"transaction-order\"")
                ? "the exact check found a version order per key that allows it (--json's exact-witness; -d "
                  "DIR/witness.json, and DIR/transaction-order.json for --transaction-order)"
                : "the exact check found a version order per key that allows it (--json's exact-witness; -d "
                  "DIR/witness.json)", 4);
    n = 0;
    for (int a = 0; a < ISO_A_COUNT; a++)
        if (q->asked[a]) names[n++] = iso_anomaly_name(a);
    if (n) names_line(out, "anomalies asked for", names, n);
    iso_buf b = {0};
    for (size_t i = 0; i < q->n_unchecked; i++) {
        b.n = 0;
        iso_buf_printf(&b, "%s: ", q->unchecked[i].name);
        iso_elle_not_checked(&q->unchecked[i], &b);
        wrapped(out, "not checked", iso_buf_cstr(&b), 4);
    }
    b.n = 0;
    if (r->validity == ISOLDE_UNKNOWN && iso_request_gap(q, &b)) wrapped(out, "unknown", iso_buf_cstr(&b), 4);
    iso_buf_free(&b);
}

void iso_elle_summary(const iso_txn_result *t, iso_buf *out)
{
    const isolde_history *h = t->pc.h;
    size_t client = 0;
    for (size_t i = 0; i < h->n_ops; i++) client += iso_op_is_client(&h->ops[i]);
    iso_buf_printf(out, "checked: %zu client op%s, in %zu transaction%s", client, client == 1 ? "" : "s",
                   t->pc.txns.n, t->pc.txns.n == 1 ? "" : "s");
    if (client < h->n_ops)
        iso_buf_printf(out, " (%zu other op%s left out)", h->n_ops - client, h->n_ops - client == 1 ? "" : "s");
}

static void summary_line(FILE *out, const iso_txn_result *t)
{
    iso_buf b = {0};
    iso_elle_summary(t, &b);
    fprintf(out, "%s\n", iso_buf_cstr(&b));
    iso_buf_free(&b);
}

typedef struct shown {
    FILE *out;
    const char *type;
} shown;

static void show_proof(void *arg, size_t i, const char *text, const char *json)
{
    const shown *s = arg;
    (void)json;
    fprintf(s->out, "\n%s #%zu\n%s\n", s->type, i, text);
}

int iso_elle_text(const isolde_result *r, FILE *out, const isolde_report_opts *o)
{
    const iso_txn_result *t = r->payload;
    int max = o && o->max_examples > 0 ? o->max_examples : 3;
    fprintf(out, "valid?: %s\n", iso_report_validity(r->validity));
    summary_line(out, t);
    coverage_lines(out, r);
    if (r->n_types) names_line(out, "anomaly-types", (const char **)r->types, r->n_types);
    if (r->n_not) names_line(out, "not", r->not_, r->n_not);
    if (r->n_also_not) names_line(out, "also-not", r->also_not, r->n_also_not);
    size_t f = 0;
    for (size_t k = 0; k < r->n_types; k++) {
        fprintf(out, "\n== %s: %zu found", r->types[k], r->type_counts[k]);
        if (r->type_counts[k] > (size_t)max) fprintf(out, " (showing %d; all with --json)", max);
        fputs(" ==\n", out);
        shown s = {out, r->types[k]};
        iso_elle_show(t, f, r->type_counts[k] < (size_t)max ? r->type_counts[k] : (size_t)max, 0, show_proof, &s);
        f += r->type_counts[k];
    }
    return ferror(out) ? -1 : 0;
}
