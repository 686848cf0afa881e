/*
 * linear/lin_write.c -- what a linearizability result's kind supplies: the
 * report as text for people or as one JSON object (Knossos-like keys:
 * "valid?", "op", "previous-ok", plus the prefix with each op's interval,
 * linearization point and order, and the model's state around it, the
 * data an HTML timeline needs), its fields of the HTML page, its file of
 * a directory, and each witness (a finding) in words and as JSON. The
 * page holds at most the last LIN_SHOWN_OPS ops of a prefix (in its data
 * and its text) and the witnesses of LIN_PAGE_PARTS partitions, and says
 * how many it left out; text and JSON hold all of it.
 */
#include <string.h>
#include "linear/lin.h"
#include "report/report.h"

#define LIN_PAGE_PARTS 20 /* partitions a page draws */

static const char *verdict_text(isolde_validity v)
{
    return v == ISOLDE_VALID ? "linearizable" : v == ISOLDE_INVALID ? "NOT linearizable" : "unknown";
}

/* Where an op is, as the file names it: "line 3", "index 2", "line 1:40". */
static void text_pos(iso_buf *b, enum lin_naming how, const struct lin_pos *p)
{
    if (how == LIN_BY_INDEX) iso_buf_printf(b, "index %lld", (long long)p->index);
    else if (how == LIN_BY_LINE) iso_buf_printf(b, "line %u", p->line);
    else iso_buf_printf(b, "line %u:%u", p->line, p->col);
}

static const char *ret_word(int type)
{
    return type == ISO_OP_OK ? "ok" : type == ISO_OP_FAIL ? "failed" : "info";
}

static void text_op(iso_buf *b, const struct lin_wop *w, enum lin_naming how, int with_point)
{
    iso_buf_printf(b, "process %lld :%s", (long long)w->process, w->f);
    if (w->value_edn) iso_buf_printf(b, " %s", w->value_edn);
    iso_buf_puts(b, "  (invoked ");
    text_pos(b, how, &w->call);
    if (w->ret_type >= 0) {
        iso_buf_printf(b, ", %s ", ret_word(w->ret_type));
        text_pos(b, how, &w->ret);
    } else {
        iso_buf_puts(b, ", never returned");
    }
    iso_buf_puts(b, w->indet ? ", indeterminate)" : ")");
    if (with_point) {
        iso_buf_puts(b, ", took effect after the call at ");
        text_pos(b, how, &w->point);
    }
    if (with_point && w->note) iso_buf_printf(b, "\n       %s", w->note);
}

/* ops[from..n), numbered from 1 at ops[0]. */
static void text_ops(iso_buf *b, const struct lin_wop *ops, size_t from, size_t n,
                     enum lin_naming how)
{
    for (size_t i = from; i < n; i++) {
        iso_buf_printf(b, "    %zu. ", i + 1);
        text_op(b, &ops[i], how, 1);
        iso_buf_puts(b, "\n");
    }
}

/* The earlier segments: how many ops, and the last of them in an order
 * that leads to the state the failing segment began in. */
static void text_before(iso_buf *b, const struct lin_witness *w, enum lin_naming how)
{
    if (!w->n_before) return;
    int one = w->n_before == 1;
    const char *returned = one ? "it returned before any later op was called"
                               : "all returned before any later op was called";
    if (!w->n_shown)
        iso_buf_printf(b, "  the %u earlier op%s (%s) linearize%s\n", w->n_before, one ? "" : "s",
                       returned, one ? "s" : "");
    else if (w->n_shown < w->n_before)
        iso_buf_printf(b, "  of the %u earlier ops (%s), the last %zu linearize from state %s as:\n",
                       w->n_before, returned, w->n_shown, w->before_edn);
    else
        iso_buf_printf(b, "  the %u earlier op%s (%s) linearize%s from state %s as:\n", w->n_before,
                       one ? "" : "s", returned, one ? "s" : "", w->before_edn);
    text_ops(b, w->before, 0, w->n_shown, how);
}

/* The first ops of w's prefix a page leaves out (0 for text and JSON). */
static size_t prefix_omitted(const struct lin_witness *w, int page)
{
    return page && w->n_prefix > LIN_SHOWN_OPS ? w->n_prefix - LIN_SHOWN_OPS : 0;
}

static void text_witness(iso_buf *b, const struct lin_witness *w, enum lin_naming how, int page)
{
    size_t omit = prefix_omitted(w, page);
    const char *then = w->n_before ? "then, " : "";
    iso_buf_puts(b, "\n");
    if (w->key_edn) iso_buf_printf(b, "key %s:\n", w->key_edn);
    text_before(b, w, how);
    if (w->n_prefix) {
        iso_buf_printf(b, "  %sfrom state %s, the longest linearizable prefix has %zu op%s:\n", then,
                       w->init_edn, w->n_prefix, w->n_prefix == 1 ? "" : "s");
        if (omit) iso_buf_printf(b, "    (the first %zu not shown: this page holds the last %d)\n", omit,
                                 LIN_SHOWN_OPS);
        text_ops(b, w->prefix, omit, w->n_prefix, how);
        iso_buf_printf(b, "  then the state is %s and no op can go next:\n", w->state_edn);
    } else {
        iso_buf_printf(b, "  %sfrom state %s, no op can go first:\n", then, w->init_edn);
    }
    for (size_t i = 0; i < w->n_stuck; i++) {
        iso_buf_puts(b, "    ");
        text_op(b, &w->stuck[i], how, 0);
        iso_buf_printf(b, "\n      %s\n", w->stuck[i].why);
    }
    if (!w->blocking.f) return;
    iso_buf_puts(b, "  yet ");
    text_op(b, &w->blocking, how, 0);
    iso_buf_puts(b, "\n  had to take effect before it returned.\n");
}

/* Why a check ended in unknown, in words. */
static void text_unknown(iso_buf *b, const struct lin_report *l)
{
    iso_buf_printf(b, "%zu partition%s unknown: ", l->n_unknown, l->n_unknown == 1 ? "" : "s");
    if (l->reason && strcmp(l->reason, "timeout") == 0)
        iso_buf_printf(b, "the time budget of %ld ms ran out (--timeout MS sets it; 0 for none)\n",
                       l->timeout_ms);
    else
        iso_buf_printf(b, "%s\n", l->reason ? l->reason : "");
}

/* The text report into b (page: as the HTML page holds it). */
static void text_report(const isolde_result *r, const isolde_report_opts *o, int page, iso_buf *b)
{
    const struct lin_report *l = r->payload;
    size_t max = o && o->max_examples > 0 ? (size_t)o->max_examples : 3;
    iso_buf_printf(b, "%s: %s\n", l->model, verdict_text(l->validity));
    iso_buf_printf(b, "%zu op%s in %zu partition%s (%zu segment%s), checked in %.3f s\n", l->n_ops,
                   l->n_ops == 1 ? "" : "s", l->n_parts, l->n_parts == 1 ? "" : "s", l->n_segments,
                   l->n_segments == 1 ? "" : "s", l->seconds);
    if (l->n_invalid)
        iso_buf_printf(b, "%zu partition%s not linearizable\n", l->n_invalid,
                       l->n_invalid == 1 ? "" : "s");
    if (l->n_unknown) text_unknown(b, l);
    for (size_t i = 0; i < l->n_w && i < max; i++) text_witness(b, &l->w[i], l->naming, page);
    if (l->n_w > max) iso_buf_printf(b, "\n(%zu more not shown)\n", l->n_w - max);
}

static int lin_write_text(const isolde_result *r, FILE *out, const isolde_report_opts *o)
{
    iso_buf b = {0};
    text_report(r, o, 0, &b);
    int rc = fwrite(b.p, 1, b.n, out) == b.n ? 0 : -1;
    iso_buf_free(&b);
    return rc;
}

static void json_int_or_null(iso_buf *b, const char *key, int64_t v)
{
    if (v >= 0) iso_buf_printf(b, ",\"%s\":%lld", key, (long long)v);
    else iso_buf_printf(b, ",\"%s\":null", key);
}

static void json_pos(iso_buf *b, const char *index, const char *line, const char *col,
                     const struct lin_pos *p)
{
    json_int_or_null(b, index, p->index);
    json_int_or_null(b, line, p->line ? (int64_t)p->line : -1);
    json_int_or_null(b, col, p->line ? (int64_t)p->col : -1);
}

static void json_text(iso_buf *b, const char *key, const char *s)
{
    iso_buf_printf(b, ",\"%s\":", key);
    iso_json_string(b, s, strlen(s));
}

/* An op; order: its place in the linearization (0: none); met: the state
 * it met (NULL: none). */
static void json_op(iso_buf *b, const struct lin_wop *w, int with_point, size_t order,
                    const char *met)
{
    iso_buf_printf(b, "{\"process\":%lld,\"f\":", (long long)w->process);
    iso_json_string(b, w->f, strlen(w->f));
    iso_buf_printf(b, ",\"value\":%s", w->value_json ? w->value_json : "null");
    json_pos(b, "index", "line", "col", &w->call);
    json_pos(b, "complete-index", "complete-line", "complete-col", &w->ret);
    json_int_or_null(b, "time", w->call_time);
    json_int_or_null(b, "complete-time", w->ret_time);
    if (w->ret_type >= 0) iso_buf_printf(b, ",\"complete-type\":\"%s\"", iso_op_type_name(w->ret_type));
    else iso_buf_puts(b, ",\"complete-type\":null");
    iso_buf_printf(b, ",\"indeterminate\":%s", w->indet ? "true" : "false");
    if (with_point) {
        json_int_or_null(b, "linearized-after", w->point.index);
        json_int_or_null(b, "linearized-after-line", w->point.line ? (int64_t)w->point.line : -1);
    }
    if (order) iso_buf_printf(b, ",\"order\":%zu", order);
    if (w->state_before) json_text(b, "state-before", w->state_before);
    if (w->state_after) json_text(b, "state-after", w->state_after);
    if (met) json_text(b, "state-met", met);
    if (w->note) json_text(b, "note", w->note);
    if (w->why) json_text(b, "why", w->why);
    iso_buf_puts(b, "}");
}

/* ops[from..n); ordered: each with its order (from 1 at ops[0]). */
static void json_ops(iso_buf *b, const char *key, const struct lin_wop *ops, size_t from, size_t n,
                     int point, int ordered)
{
    iso_buf_printf(b, ",\"%s\":[", key);
    for (size_t i = from; i < n; i++) {
        if (i > from) iso_buf_puts(b, ",");
        json_op(b, &ops[i], point, ordered ? i + 1 : 0, NULL);
    }
    iso_buf_puts(b, "]");
}

static void json_witness(iso_buf *b, const struct lin_witness *w, int page)
{
    size_t omit = prefix_omitted(w, page);
    iso_buf_printf(b, "{\"key\":%s", w->key_json ? w->key_json : "null");
    iso_buf_printf(b, ",\"ops-before\":%u", w->n_before);
    iso_buf_printf(b, ",\"earlier-state\":%s", w->before_json ? w->before_json : "null");
    json_ops(b, "earlier-ops", w->before, 0, w->n_shown, 1, 0);
    iso_buf_printf(b, ",\"initial-state\":%s", w->init_json);
    json_ops(b, "linearizable-prefix", w->prefix, omit, w->n_prefix, 1, 1);
    iso_buf_printf(b, ",\"prefix-length\":%zu,\"prefix-omitted\":%zu,\"states-from\":%zu",
                   w->n_prefix, omit, w->states_from);
    iso_buf_printf(b, ",\"state\":%s", w->state_json);
    json_ops(b, "could-not-go-next", w->stuck, 0, w->n_stuck, 0, 0);
    iso_buf_puts(b, ",\"op\":");
    if (w->blocking.f) json_op(b, &w->blocking, 0, 0, w->state_met);
    else iso_buf_puts(b, "null");
    iso_buf_puts(b, ",\"previous-ok\":");
    if (w->n_prefix) json_op(b, &w->prefix[w->n_prefix - 1], 1, w->n_prefix, NULL);
    else iso_buf_puts(b, "null");
    iso_buf_puts(b, "}");
}

/* The JSON report into b (no newline after it; page: as the page holds it). */
static void json_report(const isolde_result *r, int page, iso_buf *b)
{
    const struct lin_report *l = r->payload;
    const char *valid = l->validity == ISOLDE_VALID ? "true"
                      : l->validity == ISOLDE_INVALID ? "false" : "\"unknown\"";
    iso_buf_printf(b, "{\"valid?\":%s,\"model\":\"%s\"", valid, l->model);
    iso_buf_puts(b, l->n_invalid ? ",\"anomaly-types\":[\"nonlinearizable\"]"
                                  : ",\"anomaly-types\":[]");
    if (r->n_not) iso_buf_printf(b, ",\"not\":[\"%s\"]", r->not_[0]);
    iso_buf_printf(b, ",\"op-count\":%zu,\"partitions\":%zu,\"segments\":%zu", l->n_ops,
                   l->n_parts, l->n_segments);
    iso_buf_printf(b, ",\"nonlinearizable-partitions\":%zu,\"unknown-partitions\":%zu",
                   l->n_invalid, l->n_unknown);
    json_int_or_null(b, "timeout-ms", l->timeout_ms ? l->timeout_ms : -1);
    if (l->reason) iso_buf_printf(b, ",\"unknown-reason\":\"%s\"", l->reason);
    size_t n = page && l->n_w > LIN_PAGE_PARTS ? LIN_PAGE_PARTS : l->n_w;
    iso_buf_puts(b, ",\"nonlinearizable\":[");
    for (size_t i = 0; i < n; i++) {
        if (i) iso_buf_puts(b, ",");
        json_witness(b, &l->w[i], page);
    }
    iso_buf_printf(b, "],\"nonlinearizable-omitted\":%zu}", l->n_w - n);
}

static int lin_write_json(const isolde_result *r, FILE *out, int shown)
{
    (void)shown;
    iso_buf b = {0};
    json_report(r, 0, &b);
    iso_buf_puts(&b, "\n");
    int rc = fwrite(b.p, 1, b.n, out) == b.n ? 0 : -1;
    iso_buf_free(&b);
    return rc;
}

static int write_lin(FILE *out, void *r) { return lin_write_text(r, out, NULL); }

/* The text report as DIR/linearizability.txt. */
static int lin_write_files(const isolde_result *r, const char *dir, isolde_error *err)
{
    return iso_report_write_file(dir, "linearizability.txt", write_lin, (void *)r, err);
}

/* The page's fields: the text report, and the JSON report as "lin", which
 * the viewer draws per partition. */
static void lin_write_page(const isolde_result *r, iso_html *h)
{
    iso_buf text = {0};
    text_report(r, NULL, 1, &text);
    iso_html_string(h, "text", iso_buf_cstr(&text));
    iso_buf_free(&text);
    iso_buf_puts(&h->b, ",\"lin\":");
    json_report(r, 1, &h->b);
}

/* Witnesses first .. first + n, each as the text report and the JSON
 * report show it. */
static size_t lin_each(const isolde_result *r, size_t k, size_t first, size_t n, iso_show_fn show, void *arg)
{
    const struct lin_report *l = r->payload;
    iso_buf text = {0}, json = {0};
    size_t i = 0;
    (void)k;
    for (; i < n && first + i < l->n_w; i++) {
        text.n = json.n = 0;
        text_witness(&text, &l->w[first + i], l->naming, 0);
        json_witness(&json, &l->w[first + i], 0);
        show(arg, i, iso_buf_cstr(&text) + 1, iso_buf_cstr(&json)); /* past text_witness's opening blank line */
    }
    iso_buf_free(&text);
    iso_buf_free(&json);
    return i;
}

const iso_result_kind lin_kind = {"linearizability", lin_write_text, lin_write_json, lin_write_page,
                                  lin_write_files, lin_each, lin_report_free};
