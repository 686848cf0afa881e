/*
 * check/empty.c -- the result of a check that had nothing to check: a
 * history with no client op (an empty file, one of blank lines, a format
 * forced wrong, ops whose process is no integer). Whatever the model, the
 * verdict is unknown, and every report says why and that 0 ops were
 * checked. Transactional models keep Elle's shape for it (the
 * empty-transaction-graph anomaly), linearizability models their own.
 */
#include "check/check.h"
#include "report/report.h"

#include <string.h>

struct empty {
    char *model; /* for linearizability models; NULL for transactional ones */
    char *why;
};

static int empty_text(const isolde_result *r, FILE *out, const isolde_report_opts *o)
{
    const struct empty *e = r->payload;
    (void)o;
    if (e->model) fprintf(out, "%s: unknown\n0 ops checked\n", e->model);
    else fprintf(out, "valid?: unknown\nchecked: 0 ops\nanomaly-types: empty-transaction-graph\n");
    fprintf(out, "nothing to check: %s\n", e->why);
    return ferror(out) ? -1 : 0;
}

static int empty_json(const isolde_result *r, FILE *out, int shown)
{
    const struct empty *e = r->payload;
    (void)shown;
    iso_buf why = {0};
    iso_json_string(&why, e->why, strlen(e->why));
    if (e->model)
        fprintf(out, "{\"valid?\":\"unknown\",\"model\":\"%s\",\"anomaly-types\":[],\"op-count\":0,"
                     "\"unknown-reason\":%s}\n", e->model, iso_buf_cstr(&why));
    else
        fprintf(out, "{\"valid?\":\"unknown\",\n \"anomaly-types\":[\"empty-transaction-graph\"],\n"
                     " \"anomalies\":{\n  \"empty-transaction-graph\":true},\n \"not\":[],\n"
                     " \"also-not\":[],\n \"unknown-reason\":%s}\n", iso_buf_cstr(&why));
    iso_buf_free(&why);
    return ferror(out) ? -1 : 0;
}

/* The text report as DIR/empty-transaction-graph.txt (as Elle names the
 * type's file) or DIR/linearizability.txt. */
static int write_empty(FILE *out, void *r) { return empty_text(r, out, NULL); }

static int empty_files(const isolde_result *r, const char *dir, isolde_error *err)
{
    const struct empty *e = r->payload;
    return iso_report_write_file(dir, e->model ? "linearizability.txt" : "empty-transaction-graph.txt", write_empty,
                                 (void *)r, err);
}

static void empty_free(void *payload)
{
    struct empty *e = payload;
    if (!e) return;
    iso_free(e->model);
    iso_free(e->why);
    iso_free(e);
}

static void empty_page(const isolde_result *r, iso_html *h)
{
    const struct empty *e = r->payload;
    iso_html_string(h, "text", e->why);
}

/* The one finding of a transactional model's empty result: why, and Elle's
 * JSON for the type, true. */
static size_t empty_each(const isolde_result *r, size_t k, size_t first, size_t n, iso_show_fn show, void *arg)
{
    const struct empty *e = r->payload;
    (void)k, (void)first;
    if (n) show(arg, 0, e->why, "true");
    return n;
}

static const iso_result_kind empty_kind = {"empty", empty_text, empty_json, empty_page, empty_files, empty_each,
                                           empty_free};

isolde_result *iso_check_empty(const char *lin_model, const char *why)
{
    struct empty *e = iso_xcalloc(1, sizeof *e);
    e->model = lin_model ? iso_xstrdup(lin_model) : NULL;
    e->why = iso_xstrdup(why);
    return iso_result_new(&empty_kind, e, ISOLDE_UNKNOWN, lin_model ? NULL : "empty-transaction-graph", 1);
}
