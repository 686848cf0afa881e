/*
 * report/dir.c -- a transactional result as one text file per anomaly
 * type, DIR/<type>.txt, as Elle's :directory does; and making the
 * directory and writing its files, for every kind's directory writer: a
 * file is closed whatever happens, running out of memory included.
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

static void close_file(void *out) { fclose(out); }

int iso_report_write_file(const char *dir, const char *name, int (*write)(FILE *out, void *arg), void *arg,
                          isolde_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *out = fopen(path, "w");
    if (!out) return iso_fail(err, ISOLDE_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
    iso_guard_on_unwind(close_file, out);
    int rc = write(out, arg);
    iso_guard_on_unwind(NULL, NULL);
    if (fclose(out) || rc) return iso_fail(err, ISOLDE_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
    return 0;
}

/* One type's findings, written to its file. */
typedef struct shown {
    FILE *out;
    const char *type;
    const iso_txn_result *t;
    size_t first, n;
} shown;

static void show_proof(void *arg, size_t i, const char *text, const char *json)
{
    const shown *s = arg;
    (void)json;
    fprintf(s->out, "%s%s #%zu\n%s\n", i ? "\n\n" : "", s->type, i, text);
}

static int write_type(FILE *out, void *arg)
{
    shown *s = arg;
    s->out = out;
    iso_report_each(s->t, s->first, s->n, show_proof, s);
    return ferror(out) ? -1 : 0;
}

int iso_report_dir(isolde_result *r, const char *dir, isolde_error *err)
{
    const iso_txn_result *t = r->payload;
    if (iso_report_mkdir(dir, err)) return -1;
    for (size_t k = 0, f = 0; k < r->n_types; f += r->type_counts[k++]) {
        char name[256];
        snprintf(name, sizeof name, "%s.txt", r->types[k]);
        shown s = {NULL, r->types[k], t, f, r->type_counts[k]};
        if (iso_report_write_file(dir, name, write_type, &s, err)) return -1;
    }
    return 0;
}
