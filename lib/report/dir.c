/*
 * report/dir.c -- a transactional result as one text file per anomaly
 * type, DIR/<type>.txt, as Elle's :directory does; and making the
 * directory and its files, for every kind's directory writer.
 */
#include "report/report.h"
#include "report/proof.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

int iso_report_mkdir(const char *dir, isolde_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(path, 0777) && errno != EEXIST) return iso_fail(err, ISOLDE_ERR_IO, dir, 0, 0, "cannot create directory: %s", strerror(errno));
        *p = '/';
    }
    if (mkdir(path, 0777) && errno != EEXIST) return iso_fail(err, ISOLDE_ERR_IO, dir, 0, 0, "cannot create directory: %s", strerror(errno));
    return 0;
}

FILE *iso_report_file(const char *dir, const char *name, char *path, size_t path_size, isolde_error *err)
{
    snprintf(path, path_size, "%s/%s", dir, name);
    FILE *out = fopen(path, "w");
    if (!out) iso_fail(err, ISOLDE_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
    return out;
}

typedef struct shown {
    FILE *out;
    const char *type;
} shown;

static void show_proof(void *arg, size_t i, const char *text, const char *json)
{
    const shown *s = arg;
    (void)json;
    fprintf(s->out, "%s%s #%zu\n%s\n", i ? "\n\n" : "", s->type, i, text);
}

int iso_report_dir(isolde_result *r, const char *dir, isolde_error *err)
{
    iso_txn_result *t = r->payload;
    if (iso_report_mkdir(dir, err)) return -1;
    size_t f = 0;
    for (size_t k = 0; k < r->n_types; k++) {
        char path[4096], name[256];
        snprintf(name, sizeof name, "%s.txt", r->types[k]);
        FILE *out = iso_report_file(dir, name, path, sizeof path, err);
        if (!out) return -1;
        shown s = {out, r->types[k]};
        iso_report_each(t, f, r->type_counts[k], show_proof, &s);
        f += r->type_counts[k];
        if (fclose(out)) return iso_fail(err, ISOLDE_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
    }
    return 0;
}
