/*
 * elle/files.c -- a transactional result's own files of a directory
 * (report/dir.c makes it and adds results.json and index.html): one text
 * file per anomaly type, DIR/<type>.txt, as Elle's :directory does, and
 * one picture per cycle or component found, DIR/<type>/<n>.dot (and .svg
 * with libgvc): the first findings of a type (report/report.h), the file
 * saying how many more there were (--json has them all).
 */
#include "elle/picture.h"
#include "elle/proof.h"

#include <stdint.h>
#include <string.h>

/* One type's findings, written to its file. */
typedef struct shown {
    FILE *out;
    const char *type;
    const iso_txn_result *t;
    size_t first, n;    /* findings first .. first + n */
    size_t max;         /* at most this many shown */
    size_t done;        /* how many the file showed */
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
    s->done = iso_elle_show(s->t, s->first, s->max, ISO_REPORT_SHOWN_BYTES, show_proof, s);
    if (s->done < s->n) fprintf(out, "\n\n%zu more of this type not shown (every one with --json).\n", s->n - s->done);
    return ferror(out) ? -1 : 0;
}

static int write_buf(FILE *out, void *arg)
{
    const iso_buf *b = arg;
    return fwrite(b->p, 1, b->n, out) == b->n ? 0 : -1;
}

/* Finding i of type k's picture as DIR/<type>/<i>.dot and .svg (a layout
 * costs up to seconds: only of the findings shown, and small enough). */
enum { SVG_MAX_V = ISO_PIC_MAX_V };
static int write_picture(const shown *s, size_t i, const char *tdir, iso_buf *dot, iso_buf *svg,
                         isolde_error *err)
{
    iso_picture p;
    if (!iso_picture_of(&s->t->pc, &s->t->findings.f[s->first + i], &p)) return 0;
    char title[300], name[64];
    snprintf(title, sizeof title, "%s #%zu", s->type, i);
    dot->n = svg->n = 0;
    iso_picture_dot(&s->t->pc, &p, title, dot);
    int draw = p.n <= SVG_MAX_V;
    iso_picture_free(&p);
    snprintf(name, sizeof name, "%zu.dot", i);
    if (iso_report_mkdir(tdir, err) || iso_report_write_file(tdir, name, write_buf, dot, err)) return -1;
    if (!draw || iso_dot_svg(iso_buf_cstr(dot), svg)) return 0;
    snprintf(name, sizeof name, "%zu.svg", i);
    return iso_report_write_file(tdir, name, write_buf, svg, err);
}

static int write_pictures(const shown *s, const char *dir, isolde_error *err)
{
    char tdir[4096];
    snprintf(tdir, sizeof tdir, "%s/%s", dir, s->type);
    iso_buf dot = {0}, svg = {0};
    int rc = 0;
    for (size_t i = 0; i < s->done && !rc; i++) rc = write_picture(s, i, tdir, &dot, &svg, err);
    iso_buf_free(&dot);
    iso_buf_free(&svg);
    return rc;
}

/* The exact check's witness of a valid verdict: DIR/witness.json, and its
 * transaction order alone as DIR/transaction-order.json, which
 * --transaction-order reads back. */
static int write_witness(const char *w, const char *dir, isolde_error *err)
{
    iso_buf b = {0};
    iso_buf_printf(&b, "%s\n", w);
    int rc = iso_report_write_file(dir, "witness.json", write_buf, &b, err);
    const char *order = strstr(w, "\"transaction-order\":");
    b.n = 0;
    if (order) iso_buf_printf(&b, "%.*s\n", (int)(strlen(order) - strlen("\"transaction-order\":") - 1),
                              order + strlen("\"transaction-order\":"));
    if (!rc && order) rc = iso_report_write_file(dir, "transaction-order.json", write_buf, &b, err);
    iso_buf_free(&b);
    return rc;
}

int iso_elle_files(const isolde_result *r, const char *dir, isolde_error *err)
{
    const iso_txn_result *t = r->payload;
    if (t->pc.witness && write_witness(t->pc.witness, dir, err)) return -1;
    for (size_t k = 0, f = 0; k < r->n_types; f += r->type_counts[k++]) {
        char name[256];
        snprintf(name, sizeof name, "%s.txt", r->types[k]);
        shown s = {NULL, r->types[k], t, f, r->type_counts[k], iso_elle_shown_of(r, k), 0};
        if (iso_report_write_file(dir, name, write_type, &s, err) || write_pictures(&s, dir, err)) return -1;
    }
    return 0;
}
