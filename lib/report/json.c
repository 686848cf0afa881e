/*
 * report/json.c -- a transactional result as Elle's result map: valid?,
 * anomaly-types, anomalies (every finding's JSON), not, also-not. A key of
 * the map, and each anomaly type, on a line of its own; the separators
 * are compact ("key":value, a,b), as in every JSON isolde writes.
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
    fputs("}\n", out);
    return ferror(out) ? -1 : 0;
}
