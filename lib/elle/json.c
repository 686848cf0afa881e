/*
 * elle/json.c -- a transactional result as Elle's result map: valid?,
 * anomaly-types, anomalies (every finding's JSON), not, also-not; for
 * -d's results.json what -d shows of each type (report.h), with
 * "not-shown" counting the rest; then isolde's fields saying what the
 * verdict covers (models-checked, models-sound-only, anomalies-asked,
 * models-not-checked, unknown-reason), which Elle's readers ignore. A key of the map, and each
 * anomaly type, on a line of its own; the separators are compact
 * ("key":value, a,b), as in every JSON isolde writes.
 */
#include "elle/proof.h"

#include <stdint.h>
#include <string.h>

static void json_names(FILE *out, const char *key, const char **names, size_t n)
{
    fprintf(out, ",\n \"%s\":[", key);
    for (size_t i = 0; i < n; i++) fprintf(out, "%s\"%s\"", i ? "," : "", names[i]);
    fputc(']', out);
}

void iso_elle_not_checked(const struct iso_asked_model *m, iso_buf *out)
{
    const char *instead = iso_model_not_checked(m->model);
    if (!instead) { /* checked on another workload (iso_model_coverage) */
        iso_buf_puts(out, "isolde checks it on the other transactional workload only, so far (a verdict never says "
                          "valid of it here)");
        return;
    }
    iso_buf_printf(out, "isolde does not check it on transactional histories (a verdict never says valid of it); %s",
                   instead);
}

size_t iso_elle_sound_only(const iso_txn_result *t, const char **names)
{
    int rw = strcmp(t->pc.wl->name, "list-append") != 0;
    size_t n = 0;
    for (size_t i = 0; i < t->req.n_checked; i++) {
        int m = t->req.checked[i].model, c = iso_model_coverage(m, rw);
        if (c == ISO_COV_SOUND || (c == ISO_COV_COMPLETE && iso_model_exact(m, rw) && !t->pc.exact))
            names[n++] = t->req.checked[i].name;
    }
    return n;
}

static void json_list(iso_buf *b, const char *key, const char *const *names, size_t n)
{
    iso_buf_printf(b, ",\n \"%s\":[", key);
    for (size_t i = 0; i < n; i++) iso_buf_printf(b, "%s\"%s\"", i ? "," : "", names[i]);
    iso_buf_puts(b, "]");
}

void iso_elle_request_json(const isolde_result *r, iso_buf *b)
{
    const iso_request *q = &((const iso_txn_result *)r->payload)->req;
    const char *names[ISO_A_COUNT];
    size_t n = 0;
    for (size_t i = 0; i < q->n_checked; i++) names[n++] = q->checked[i].name;
    json_list(b, "models-checked", names, n);
    n = iso_elle_sound_only(r->payload, names);
    if (n) json_list(b, "models-sound-only", names, n);
    n = 0;
    for (int a = 0; a < ISO_A_COUNT; a++)
        if (q->asked[a]) names[n++] = iso_anomaly_name(a);
    if (n) json_list(b, "anomalies-asked", names, n);
    iso_buf why = {0};
    for (size_t i = 0; i < q->n_unchecked; i++) {
        why.n = 0;
        iso_elle_not_checked(&q->unchecked[i], &why);
        iso_buf_printf(b, "%s{\"model\":\"%s\",\"reason\":", i ? "," : ",\n \"models-not-checked\":[",
                       q->unchecked[i].name);
        iso_json_string(b, why.p, why.n);
        iso_buf_puts(b, i + 1 < q->n_unchecked ? "}" : "}]");
    }
    const char *witness = ((const iso_txn_result *)r->payload)->pc.witness;
    if (witness) iso_buf_printf(b, ",\n \"exact-witness\":%s", witness);
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

size_t iso_elle_shown_of(const isolde_result *r, size_t k)
{
    return r->type_counts[k] < ISO_REPORT_SHOWN ? r->type_counts[k] : ISO_REPORT_SHOWN;
}

void iso_elle_not_shown(const isolde_result *r, const size_t *shown, const char *sep, iso_buf *out)
{
    const char *next = "\"not-shown\":{";
    for (size_t k = 0; k < r->n_types; k++) {
        if (shown[k] >= r->type_counts[k]) continue;
        iso_buf_printf(out, "%s%s", *next == '"' ? sep : "", next);
        iso_json_string(out, r->types[k], strlen(r->types[k]));
        iso_buf_printf(out, ":%zu", r->type_counts[k] - shown[k]);
        next = ",";
    }
    if (*next != '"') iso_buf_puts(out, "}");
}

int iso_elle_json(const isolde_result *r, FILE *out, int shown_only)
{
    const iso_txn_result *t = r->payload;
    size_t *shown = iso_xcalloc(r->n_types ? r->n_types : 1, sizeof *shown);
    fprintf(out, "{\"valid?\":%s", r->validity == ISOLDE_UNKNOWN ? "\"unknown\"" : iso_report_validity(r->validity));
    if (r->n_types) {
        json_names(out, "anomaly-types", (const char **)r->types, r->n_types);
        fputs(",\n \"anomalies\":{", out);
        size_t f = 0;
        for (size_t k = 0; k < r->n_types; k++) {
            int single = strcmp(r->types[k], "empty-transaction-graph") == 0;
            fprintf(out, "%s\n  \"%s\":%s", k ? "," : "", r->types[k], single ? "" : "[");
            shown[k] = !shown_only ? iso_elle_show(t, f, r->type_counts[k], 0, show_json, out)
                                   : iso_elle_show(t, f, iso_elle_shown_of(r, k), ISO_REPORT_SHOWN_BYTES, show_json, out);
            f += r->type_counts[k];
            if (!single) fputc(']', out);
        }
        fputs("}", out);
        json_names(out, "not", r->not_, r->n_not);
        json_names(out, "also-not", r->also_not, r->n_also_not);
    }
    iso_buf b = {0};
    iso_elle_not_shown(r, shown, ",\n ", &b);
    iso_elle_request_json(r, &b);
    fputs(iso_buf_cstr(&b), out);
    iso_buf_free(&b);
    iso_free(shown);
    fputs("}\n", out);
    return ferror(out) ? -1 : 0;
}
