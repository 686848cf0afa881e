/*
 * report/json.c -- a transactional result as Elle's result map: valid?,
 * anomaly-types, anomalies (every finding's JSON), not, also-not; then
 * isolde's fields saying what the verdict covers (models-checked,
 * anomalies-asked, models-not-checked, unknown-reason), which Elle's
 * readers ignore. A key of the map, and each anomaly type, on a line of its
 * own; the separators are compact ("key":value, a,b), as in every JSON
 * isolde writes.
 */
#include "report/report.h"
#include "report/proof.h"

#include <stdint.h>
#include <string.h>

static void json_names(FILE *out, const char *key, const char **names, size_t n)
{
    fprintf(out, ",\n \"%s\":[", key);
    for (size_t i = 0; i < n; i++) fprintf(out, "%s\"%s\"", i ? "," : "", names[i]);
    fputc(']', out);
}

void iso_report_not_checked(const struct iso_asked_model *m, iso_buf *out)
{
    iso_buf_printf(out, "it forbids no anomaly isolde looks for in transactional histories, so a check of it "
                        "could find nothing; %s", iso_model_not_checked(m->model));
}

static void json_list(iso_buf *b, const char *key, const char *const *names, size_t n)
{
    iso_buf_printf(b, ",\n \"%s\":[", key);
    for (size_t i = 0; i < n; i++) iso_buf_printf(b, "%s\"%s\"", i ? "," : "", names[i]);
    iso_buf_puts(b, "]");
}

void iso_report_request_json(const isolde_result *r, iso_buf *b)
{
    const iso_request *q = r->req;
    const char *names[ISO_A_COUNT];
    size_t n = 0;
    for (size_t i = 0; i < q->n_checked; i++) names[n++] = q->checked[i].name;
    json_list(b, "models-checked", names, n);
    n = 0;
    for (int a = 0; a < ISO_A_COUNT; a++)
        if (q->asked[a]) names[n++] = iso_anomaly_name(a);
    if (n) json_list(b, "anomalies-asked", names, n);
    iso_buf why = {0};
    for (size_t i = 0; i < q->n_unchecked; i++) {
        why.n = 0;
        iso_report_not_checked(&q->unchecked[i], &why);
        iso_buf_printf(b, "%s{\"model\":\"%s\",\"reason\":", i ? "," : ",\n \"models-not-checked\":[",
                       q->unchecked[i].name);
        iso_json_string(b, why.p, why.n);
        iso_buf_puts(b, i + 1 < q->n_unchecked ? "}" : "}]");
    }
    why.n = 0;
    if (r->validity == ISOLDE_UNKNOWN && iso_request_gap(q, &why)) {
        iso_buf_puts(b, ",\n \"unknown-reason\":");
        iso_json_string(b, why.p, why.n);
    }
    iso_buf_free(&why);
}

static void show_json(void *arg, size_t i, const char *text, const char *json)
{
    (void)text;
    fprintf(arg, "%s%s", i ? ",\n   " : "", json);
}

int iso_report_json(isolde_result *r, FILE *out)
{
    iso_txn_result *t = r->payload;
    fprintf(out, "{\"valid?\":%s", r->validity == ISOLDE_UNKNOWN ? "\"unknown\"" : iso_report_validity(r->validity));
    if (r->n_types) {
        json_names(out, "anomaly-types", (const char **)r->types, r->n_types);
        fputs(",\n \"anomalies\":{", out);
        size_t f = 0;
        for (size_t k = 0; k < r->n_types; k++) {
            int single = strcmp(r->types[k], "empty-transaction-graph") == 0;
            fprintf(out, "%s\n  \"%s\":%s", k ? "," : "", r->types[k], single ? "" : "[");
            iso_report_each(t, f, r->type_counts[k], show_json, out);
            f += r->type_counts[k];
            if (!single) fputc(']', out);
        }
        fputs("}", out);
        json_names(out, "not", r->not_, r->n_not);
        json_names(out, "also-not", r->also_not, r->n_also_not);
    }
    iso_buf b = {0};
    iso_report_request_json(r, &b);
    fputs(iso_buf_cstr(&b), out);
    iso_buf_free(&b);
    fputs("}\n", out);
    return ferror(out) ? -1 : 0;
}
