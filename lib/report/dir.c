/*
 * report/dir.c -- a result as a directory (-d): made with its parents,
 * the kind's own files (a transactional result's one text file per
 * anomaly type and its pictures, a linearizability result's
 * linearizability.txt, ...), then what every kind's directory holds:
 * results.json (the JSON as a directory shows it) and index.html (the
 * page). A file is closed whatever happens, running out of memory
 * included.
 */
#include "report/report.h"

#include <errno.h>
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

static int write_json(FILE *out, void *r) { return ((const isolde_result *)r)->kind->json(r, out, 1); }
static int write_page(FILE *out, void *r) { return iso_report_page(r, out); }

int iso_report_dir(const isolde_result *r, const char *dir, isolde_error *err)
{
    void *arg = (void *)r; /* the writers read it only */
    if (iso_report_mkdir(dir, err) || r->kind->files(r, dir, err)) return -1;
    if (iso_report_write_file(dir, "results.json", write_json, arg, err)) return -1;
    return iso_report_write_file(dir, "index.html", write_page, arg, err);
}
