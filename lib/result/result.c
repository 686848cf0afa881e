/*
 * result/result.c -- results: a transactional verdict as Elle's result-map
 * makes it (reportable anomalies, redundant cycle-exists fallbacks
 * dropped, validity, sorted types, the not / also-not boundary); the
 * accessors every kind shares; and the writers, through the kind's table.
 */
#include "result/result.h"
#include "elle/models.h"
#include "elle/search.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int is_cycle_exists(int a)
{
    return a >= ISO_A_PL_1_CYCLE_EXISTS && a <= ISO_A_STRONG_SNAPSHOT_ISOLATION_CYCLE_EXISTS;
}

static int is_unknown_kind(int a)
{
    return a == ISO_A_EMPTY_TRANSACTION_GRAPH || a == ISO_A_CYCLE_SEARCH_TIMEOUT;
}

/* Elle's remove-redundant-cycle-exists: drop a fallback whose model the
 * other reportable anomalies already rule out. */
static void drop_redundant_exists(uint8_t keep[ISO_A_COUNT])
{
    uint8_t other[ISO_A_COUNT] = {0};
    for (int a = 0; a < ISO_A_COUNT; a++) other[a] = keep[a] && !is_cycle_exists(a);
    const char **no, **also;
    size_t nn, na;
    iso_models_boundary(other, &no, &nn, &also, &na);
    for (int a = ISO_A_PL_1_CYCLE_EXISTS; a <= ISO_A_STRONG_SNAPSHOT_ISOLATION_CYCLE_EXISTS; a++) {
        const char *m = iso_cycle_exists_model(a);
        for (size_t i = 0; keep[a] && i < nn + na; i++)
            if (strcmp(i < nn ? no[i] : also[i - nn], m) == 0) keep[a] = 0;
    }
    iso_free(no);
    iso_free(also);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(iso_anomaly_name(*(const int *)a), iso_anomaly_name(*(const int *)b));
}

isolde_result *iso_result_new(const iso_result_kind *kind, void *payload, isolde_validity v,
                           const char *type, size_t count)
{
    isolde_result *r = iso_xcalloc(1, sizeof *r);
    r->kind = kind;
    r->payload = payload;
    r->validity = v;
    if (type) {
        r->types = iso_xmalloc(sizeof *r->types);
        r->type_counts = iso_xmalloc(sizeof *r->type_counts);
        r->types[0] = iso_xstrdup(type);
        r->type_counts[0] = count;
        r->n_types = 1;
    }
    return r;
}

/* The kept findings of f, grouped by type in the order of types[0..nt)
 * (a counting sort: one pass to count, one to place); the others freed. */
static void group(iso_txn_result *t, iso_findings *f, const int *order, int nt, const uint8_t *keep,
                  size_t *counts)
{
    size_t start[ISO_A_COUNT] = {0}, per_type[ISO_A_COUNT] = {0}, at = 0;
    for (size_t j = 0; j < f->n; j++) per_type[f->f[j].type]++;
    for (int i = 0; i < nt; i++) {
        counts[i] = per_type[order[i]];
        start[order[i]] = at;
        at += counts[i];
    }
    t->findings.f = iso_xmalloc((at ? at : 1) * sizeof *t->findings.f);
    t->findings.n = t->findings.cap = at;
    for (size_t j = 0; j < f->n; j++) {
        iso_finding *x = &f->f[j];
        if (keep[x->type]) t->findings.f[start[x->type]++] = *x;
        else { iso_free(x->text); iso_free(x->json); }
    }
    iso_free(f->f);
    *f = (iso_findings){0};
}

/* Elle's verdict, and never valid when the request has a gap: a model
 * not checked, or nothing asked for at all. */
static isolde_validity verdict(const iso_request *req, int n_types, int bad)
{
    if (bad) return ISOLDE_INVALID;
    return n_types || iso_request_gap(req, NULL) ? ISOLDE_UNKNOWN : ISOLDE_VALID;
}

isolde_result *iso_result_txn(const iso_result_kind *kind, const iso_request *req, iso_findings *f,
                              iso_proof_ctx *pc, int threads)
{
    const uint8_t *reportable = req->reportable;
    uint8_t found[ISO_A_COUNT] = {0}, keep[ISO_A_COUNT] = {0};
    for (size_t i = 0; i < f->n; i++) found[f->f[i].type] = 1;
    for (int a = 0; a < ISO_A_COUNT; a++) keep[a] = found[a] && (reportable[a] || is_unknown_kind(a));
    drop_redundant_exists(keep);
    int order[ISO_A_COUNT], nt = 0, bad = 0;
    for (int a = 0; a < ISO_A_COUNT; a++) {
        if (!keep[a]) continue;
        bad |= reportable[a] && !is_unknown_kind(a);
        order[nt++] = a;
    }
    qsort(order, (size_t)nt, sizeof *order, by_name);
    iso_txn_result *t = iso_xcalloc(1, sizeof *t);
    isolde_result *r = iso_result_new(kind, t, verdict(req, nt, bad), NULL, 0);
    r->req = iso_xmalloc(sizeof *r->req);
    *r->req = *req;
    r->types = iso_xmalloc((size_t)(nt ? nt : 1) * sizeof *r->types);
    r->type_counts = iso_xcalloc((size_t)(nt ? nt : 1), sizeof *r->type_counts);
    for (int i = 0; i < nt; i++) r->types[i] = iso_xstrdup(iso_anomaly_name(order[i]));
    r->n_types = (size_t)nt;
    group(t, f, order, nt, keep, r->type_counts);
    t->pc = *pc;
    *pc = (iso_proof_ctx){0};
    t->threads = threads;
    if (nt) iso_models_boundary(keep, &r->not_, &r->n_not, &r->also_not, &r->n_also_not);
    return r;
}

isolde_validity isolde_result_validity(const isolde_result *r) { return r->validity; }
isolde_workload isolde_result_workload(const isolde_result *r) { return r->workload; }
size_t isolde_result_type_count(const isolde_result *r) { return r->n_types; }
const char *isolde_result_type(const isolde_result *r, size_t i) { return i < r->n_types ? r->types[i] : NULL; }
size_t isolde_result_not_count(const isolde_result *r) { return r->n_not; }
const char *isolde_result_not(const isolde_result *r, size_t i) { return i < r->n_not ? r->not_[i] : NULL; }
size_t isolde_result_also_not_count(const isolde_result *r) { return r->n_also_not; }
const char *isolde_result_also_not(const isolde_result *r, size_t i)
{
    return i < r->n_also_not ? r->also_not[i] : NULL;
}

size_t isolde_result_instance_count(const isolde_result *r, const char *type)
{
    for (size_t i = 0; i < r->n_types; i++)
        if (strcmp(r->types[i], type) == 0) return r->type_counts[i];
    return 0;
}

void isolde_report_opts_init(isolde_report_opts *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->max_examples = 3;
}

enum { WRITE_TEXT, WRITE_JSON, WRITE_HTML, WRITE_DIR };

struct write_call {
    isolde_result *r;
    int what;
    FILE *out;
    const char *dir;
    const isolde_report_opts *user;
};

/* The caller's report options as this library knows them. */
static int report_opts(const isolde_report_opts *user, isolde_report_opts *o, isolde_error *err)
{
    isolde_report_opts_init(o);
    if (!user) return 0;
    if (user->size < offsetof(isolde_report_opts, max_examples) + sizeof user->max_examples)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0,
                        "report options not initialised (isolde_report_opts_init)");
    memcpy(o, user, user->size < sizeof *o ? user->size : sizeof *o);
    o->size = sizeof *o;
    return 0;
}

static int write_report(void *arg, isolde_error *err)
{
    struct write_call *c = arg;
    isolde_report_opts o;
    if (report_opts(c->user, &o, err)) return -1;
    if (c->what == WRITE_DIR) return c->r->kind->dir(c->r, c->dir, err);
    int rc = c->what == WRITE_TEXT ? c->r->kind->text(c->r, c->out, &o)
           : c->what == WRITE_JSON ? c->r->kind->json(c->r, c->out)
           : c->r->kind->html(c->r, c->out);
    errno = 0; /* a stream keeps what it could not write: flushing says why (a full disk) */
    if (fflush(c->out) == 0 && !rc && !ferror(c->out)) return 0;
    return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "cannot write the report%s%s", errno ? ": " : "",
                    errno ? strerror(errno) : "");
}

isolde_status isolde_result_write_text(isolde_result *r, FILE *out, const isolde_report_opts *o,
                                       isolde_error *err)
{
    struct write_call c = {r, WRITE_TEXT, out, NULL, o};
    return iso_call(write_report, &c, err);
}

isolde_status isolde_result_write_json(isolde_result *r, FILE *out, isolde_error *err)
{
    struct write_call c = {r, WRITE_JSON, out, NULL, NULL};
    return iso_call(write_report, &c, err);
}

isolde_status isolde_result_write_html(isolde_result *r, FILE *out, isolde_error *err)
{
    struct write_call c = {r, WRITE_HTML, out, NULL, NULL};
    return iso_call(write_report, &c, err);
}

isolde_status isolde_result_write_dir(isolde_result *r, const char *dir, isolde_error *err)
{
    struct write_call c = {r, WRITE_DIR, NULL, dir, NULL};
    return iso_call(write_report, &c, err);
}

void isolde_result_free(isolde_result *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n_types; i++) iso_free(r->types[i]);
    iso_free(r->types);
    iso_free(r->type_counts);
    iso_free(r->not_);
    iso_free(r->also_not);
    iso_free(r->req);
    if (r->kind && r->kind->free) r->kind->free(r->payload);
    iso_free(r);
}
