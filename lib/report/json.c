/*
 * report/json.c -- a transactional result as Elle's result map: valid?,
 * anomaly-types, anomalies (every finding's JSON), not, also-not.
 */
#include "report/report.h"
#include "report/proof.h"

#include <stdint.h>
#include <string.h>

static void json_names(FILE *out, const char *key, const char **names, size_t n)
{
    fprintf(out, ",\n \"%s\": [", key);
    for (size_t i = 0; i < n; i++) fprintf(out, "%s\"%s\"", i ? ", " : "", names[i]);
    fputc(']', out);
}

int iso_report_json(isolde_result *r, FILE *out)
{
    iso_txn_result *t = r->payload;
    iso_report_prove(t, r->type_counts, r->n_types, SIZE_MAX);
    fprintf(out, "{\"valid?\": %s", r->validity == ISOLDE_UNKNOWN ? "\"unknown\"" : iso_report_validity(r->validity));
    if (r->n_types) {
        json_names(out, "anomaly-types", (const char **)r->types, r->n_types);
        fputs(",\n \"anomalies\": {", out);
        size_t f = 0;
        for (size_t k = 0; k < r->n_types; k++) {
            int single = strcmp(r->types[k], "empty-transaction-graph") == 0;
            fprintf(out, "%s\n  \"%s\": %s", k ? "," : "", r->types[k], single ? "" : "[");
            for (size_t i = 0; i < r->type_counts[k]; i++, f++)
                fprintf(out, "%s%s", i ? ",\n   " : "", t->findings.f[f].json);
            if (!single) fputc(']', out);
        }
        fputs("}", out);
        json_names(out, "not", r->not_, r->n_not);
        json_names(out, "also-not", r->also_not, r->n_also_not);
    }
    fputs("}\n", out);
    return ferror(out) ? -1 : 0;
}
