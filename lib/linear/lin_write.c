/*
 * linear/lin_write.c -- writes a linearizability report as text for people
 * or as one JSON object (Knossos-like keys: "valid?", "op", "previous-ok",
 * plus the prefix with each op's interval and linearization point, the
 * data an HTML timeline needs).
 */
#include <errno.h>
#include <string.h>
#include "linear/lin.h"
#include "report/report.h"

static const char *verdict_text(isolde_validity v)
{
    return v == ISOLDE_VALID ? "linearizable" : v == ISOLDE_INVALID ? "NOT linearizable" : "unknown";
}

static void text_op(iso_buf *b, const struct lin_wop *w, int with_point)
{
    iso_buf_printf(b, "process %lld :%s %s  [invoked #%lld, ", (long long)w->process, w->f,
                   w->value_edn, (long long)w->call_index);
    if (w->ret_index >= 0) iso_buf_printf(b, "returned #%lld", (long long)w->ret_index);
    else iso_buf_puts(b, "never returned");
    iso_buf_puts(b, w->indet ? ", indeterminate]" : "]");
    if (with_point) iso_buf_printf(b, " took effect after #%lld", (long long)w->point);
}

static void text_witness(iso_buf *b, const struct lin_witness *w)
{
    iso_buf_puts(b, "\n");
    if (w->key_edn) iso_buf_printf(b, "key %s:\n", w->key_edn);
    if (w->n_before)
        iso_buf_printf(b, "  (%u earlier ops of this partition linearize up to a quiescent point)\n",
                       w->n_before);
    iso_buf_printf(b, "  from state %s, the longest linearizable prefix has %zu ops:\n",
                   w->init_edn, w->n_prefix);
    for (size_t i = 0; i < w->n_prefix; i++) {
        iso_buf_printf(b, "    %zu. ", i + 1);
        text_op(b, &w->prefix[i], 1);
        iso_buf_puts(b, "\n");
    }
    iso_buf_printf(b, "  then the state is %s and no op can go next:\n", w->state_edn);
    for (size_t i = 0; i < w->n_stuck; i++) {
        iso_buf_puts(b, "    ");
        text_op(b, &w->stuck[i], 0);
        iso_buf_printf(b, "\n      %s\n", w->stuck[i].why);
    }
    if (!w->blocking.f) return;
    iso_buf_puts(b, "  yet ");
    text_op(b, &w->blocking, 0);
    iso_buf_puts(b, "\n  had to take effect before it returned.\n");
}

int lin_write_text(isolde_result *r, FILE *out, const isolde_report_opts *o)
{
    const struct lin_report *l = r->payload;
    iso_buf b = {0};
    size_t max = o && o->max_examples > 0 ? (size_t)o->max_examples : 3;
    iso_buf_printf(&b, "%s: %s\n", l->model, verdict_text(l->validity));
    iso_buf_printf(&b, "%zu ops in %zu partition%s (%zu segments), checked in %.3f s\n",
                   l->n_ops, l->n_parts, l->n_parts == 1 ? "" : "s", l->n_segments, l->seconds);
    if (l->n_invalid)
        iso_buf_printf(&b, "%zu partition%s not linearizable\n", l->n_invalid,
                       l->n_invalid == 1 ? "" : "s");
    if (l->n_unknown)
        iso_buf_printf(&b, "%zu partition%s unknown: %s\n", l->n_unknown,
                       l->n_unknown == 1 ? "" : "s", l->reason ? l->reason : "");
    for (size_t i = 0; i < l->n_w && i < max; i++) text_witness(&b, &l->w[i]);
    if (l->n_w > max) iso_buf_printf(&b, "\n(%zu more not shown)\n", l->n_w - max);
    int rc = fwrite(b.p, 1, b.n, out) == b.n ? 0 : -1;
    iso_buf_free(&b);
    return rc;
}

static void json_int_or_null(iso_buf *b, const char *key, int64_t v)
{
    if (v >= 0) iso_buf_printf(b, ",\"%s\":%lld", key, (long long)v);
    else iso_buf_printf(b, ",\"%s\":null", key);
}

static void json_op(iso_buf *b, const struct lin_wop *w, int with_point)
{
    iso_buf_printf(b, "{\"process\":%lld,\"f\":", (long long)w->process);
    iso_json_string(b, w->f, strlen(w->f));
    iso_buf_printf(b, ",\"value\":%s", w->value_json);
    json_int_or_null(b, "index", w->call_index);
    json_int_or_null(b, "complete-index", w->ret_index);
    json_int_or_null(b, "time", w->call_time);
    json_int_or_null(b, "complete-time", w->ret_time);
    iso_buf_printf(b, ",\"indeterminate\":%s", w->indet ? "true" : "false");
    if (with_point) json_int_or_null(b, "linearized-after", w->point);
    if (w->why) {
        iso_buf_puts(b, ",\"why\":");
        iso_json_string(b, w->why, strlen(w->why));
    }
    iso_buf_puts(b, "}");
}

static void json_ops(iso_buf *b, const char *key, const struct lin_wop *ops, size_t n, int point)
{
    iso_buf_printf(b, ",\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        if (i) iso_buf_puts(b, ",");
        json_op(b, &ops[i], point);
    }
    iso_buf_puts(b, "]");
}

static void json_witness(iso_buf *b, const struct lin_witness *w)
{
    iso_buf_printf(b, "{\"key\":%s", w->key_json ? w->key_json : "null");
    iso_buf_printf(b, ",\"ops-before\":%u,\"initial-state\":%s", w->n_before, w->init_json);
    json_ops(b, "linearizable-prefix", w->prefix, w->n_prefix, 1);
    iso_buf_printf(b, ",\"state\":%s", w->state_json);
    json_ops(b, "could-not-go-next", w->stuck, w->n_stuck, 0);
    iso_buf_puts(b, ",\"op\":");
    if (w->blocking.f) json_op(b, &w->blocking, 0);
    else iso_buf_puts(b, "null");
    iso_buf_puts(b, ",\"previous-ok\":");
    if (w->n_prefix) json_op(b, &w->prefix[w->n_prefix - 1], 1);
    else iso_buf_puts(b, "null");
    iso_buf_puts(b, "}");
}

int lin_write_json(isolde_result *r, FILE *out)
{
    const struct lin_report *l = r->payload;
    iso_buf b = {0};
    const char *valid = l->validity == ISOLDE_VALID ? "true"
                      : l->validity == ISOLDE_INVALID ? "false" : "\"unknown\"";
    iso_buf_printf(&b, "{\"valid?\":%s,\"model\":\"%s\"", valid, l->model);
    iso_buf_puts(&b, l->n_invalid ? ",\"anomaly-types\":[\"nonlinearizable\"]"
                                  : ",\"anomaly-types\":[]");
    iso_buf_printf(&b, ",\"op-count\":%zu,\"partitions\":%zu,\"segments\":%zu", l->n_ops,
                   l->n_parts, l->n_segments);
    iso_buf_printf(&b, ",\"nonlinearizable-partitions\":%zu,\"unknown-partitions\":%zu",
                   l->n_invalid, l->n_unknown);
    if (l->reason) iso_buf_printf(&b, ",\"unknown-reason\":\"%s\"", l->reason);
    iso_buf_puts(&b, ",\"nonlinearizable\":[");
    for (size_t i = 0; i < l->n_w; i++) {
        if (i) iso_buf_puts(&b, ",");
        json_witness(&b, &l->w[i]);
    }
    iso_buf_puts(&b, "]}\n");
    int rc = fwrite(b.p, 1, b.n, out) == b.n ? 0 : -1;
    iso_buf_free(&b);
    return rc;
}

/* The text report as DIR/linearizability.txt. */
int lin_write_dir(isolde_result *r, const char *dir, isolde_error *err)
{
    char path[4096];
    if (iso_report_mkdir(dir, err)) return -1;
    FILE *out = iso_report_file(dir, "linearizability.txt", path, sizeof path, err);
    if (!out) return -1;
    int rc = lin_write_text(r, out, NULL);
    if (fclose(out) || rc) return iso_fail(err, ISOLDE_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
    return 0;
}
