/*
 * report.c -- print a result: a text report with proofs, Elle's JSON
 * (valid?, anomaly-types, anomalies, not, also-not), or one text file per
 * anomaly type in a directory, as Elle's :directory does.
 */
#include "report/proof.h"
#include "check/result.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void iso_report_opts_init(iso_report_opts *o) { o->max_examples = 3; }

static const char *validity_text(iso_validity v)
{
    return v == ISO_VALID ? "true" : v == ISO_INVALID ? "false" : "unknown";
}

static void names_line(FILE *out, const char *label, const char **names, size_t n)
{
    fprintf(out, "%s:", label);
    for (size_t i = 0; i < n; i++) fprintf(out, "%s %s", i ? "," : "", names[i]);
    fputc('\n', out);
}

int iso_result_write_text(const iso_result *r, FILE *out, const iso_report_opts *o)
{
    if (r->lin) return iso_lin_write_text(r->lin, out, o);
    int max = o && o->max_examples > 0 ? o->max_examples : 3;
    fprintf(out, "valid?: %s\n", validity_text(r->validity));
    if (r->n_types) names_line(out, "anomaly-types", (const char **)r->types, r->n_types);
    if (r->n_not) names_line(out, "not", r->not_, r->n_not);
    if (r->n_also_not) names_line(out, "also-not", r->also_not, r->n_also_not);
    size_t f = 0;
    iso_buf scratch = {0};
    for (size_t t = 0; t < r->n_types; t++) {
        fprintf(out, "\n== %s: %zu found", r->types[t], r->type_counts[t]);
        if (r->type_counts[t] > (size_t)max) fprintf(out, " (showing %d; all with --json or -d)", max);
        fputs(" ==\n", out);
        for (size_t i = 0; i < r->type_counts[t]; i++, f++) {
            if (i >= (size_t)max) continue;
            fprintf(out, "\n%s #%zu\n%s\n", r->types[t], i,
                    iso_finding_text(r->ctx, &r->findings[f], 0, &scratch));
        }
    }
    iso_buf_free(&scratch);
    return ferror(out) ? -1 : 0;
}

static void json_names(FILE *out, const char *key, const char **names, size_t n)
{
    fprintf(out, ",\n \"%s\": [", key);
    for (size_t i = 0; i < n; i++) fprintf(out, "%s\"%s\"", i ? ", " : "", names[i]);
    fputc(']', out);
}

int iso_result_write_json(const iso_result *r, FILE *out)
{
    if (r->lin) return iso_lin_write_json(r->lin, out);
    iso_prove_findings(r->ctx, r->findings, r->n_findings, r->threads);
    fprintf(out, "{\"valid?\": %s", r->validity == ISO_UNKNOWN ? "\"unknown\"" : validity_text(r->validity));
    if (r->n_types) {
        json_names(out, "anomaly-types", (const char **)r->types, r->n_types);
        fputs(",\n \"anomalies\": {", out);
        size_t f = 0;
        for (size_t t = 0; t < r->n_types; t++) {
            int single = strcmp(r->types[t], "empty-transaction-graph") == 0;
            fprintf(out, "%s\n  \"%s\": %s", t ? "," : "", r->types[t], single ? "" : "[");
            for (size_t i = 0; i < r->type_counts[t]; i++, f++)
                fprintf(out, "%s%s", i ? ",\n   " : "", r->findings[f].json);
            if (!single) fputc(']', out);
        }
        fputs("}", out);
        json_names(out, "not", r->not_, r->n_not);
        json_names(out, "also-not", r->also_not, r->n_also_not);
    }
    fputs("}\n", out);
    return ferror(out) ? -1 : 0;
}

static int make_dir(const char *dir, iso_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(path, 0777) && errno != EEXIST) return iso_fail(err, dir, 0, 0, "cannot create directory: %s", strerror(errno));
        *p = '/';
    }
    if (mkdir(path, 0777) && errno != EEXIST) return iso_fail(err, dir, 0, 0, "cannot create directory: %s", strerror(errno));
    return 0;
}

int iso_result_write_dir(const iso_result *r, const char *dir, iso_error *err)
{
    if (make_dir(dir, err)) return -1;
    iso_prove_findings(r->ctx, r->findings, r->n_findings, r->threads);
    size_t f = 0;
    for (size_t t = 0; t < r->n_types; t++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.txt", dir, r->types[t]);
        FILE *out = fopen(path, "w");
        if (!out) return iso_fail(err, path, 0, 0, "cannot write: %s", strerror(errno));
        for (size_t i = 0; i < r->type_counts[t]; i++, f++)
            fprintf(out, "%s%s #%zu\n%s\n", i ? "\n\n" : "", r->types[t], i, r->findings[f].text);
        if (fclose(out)) return iso_fail(err, path, 0, 0, "cannot write: %s", strerror(errno));
    }
    if (r->lin) {
        char path[4096];
        snprintf(path, sizeof path, "%s/linearizability.txt", dir);
        FILE *out = fopen(path, "w");
        if (!out) return iso_fail(err, path, 0, 0, "cannot write: %s", strerror(errno));
        iso_lin_write_text(r->lin, out, NULL);
        if (fclose(out)) return iso_fail(err, path, 0, 0, "cannot write: %s", strerror(errno));
    }
    return 0;
}
