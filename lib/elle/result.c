/*
 * elle/result.c -- the transactional result: Elle's verdict as its
 * result-map makes it (reportable anomalies, redundant cycle-exists
 * fallbacks dropped, validity, sorted types, the not / also-not
 * boundary), the findings grouped by type with the proof context they
 * are proved from (which the result owns, and frees), and the kind that
 * writes it and walks its findings.
 */
#include "elle/result.h"
#include "elle/proof.h"
#include "elle/search.h"

#include <stdlib.h>
#include <string.h>

void iso_proof_ctx_free(iso_proof_ctx *pc)
{
    if (pc->wl && pc->wl->free) pc->wl->free(pc->wl_state);
    iso_txns_free(&pc->txns);
    if (pc->search) iso_search_out_free(pc->search);
    iso_free(pc->search);
    iso_free(pc->witness);
    *pc = (iso_proof_ctx){0};
}

static void txn_free(void *payload)
{
    iso_txn_result *t = payload;
    if (!t) return;
    iso_findings_free(&t->findings);
    iso_proof_ctx_free(&t->pc);
    iso_free(t);
}

size_t iso_elle_type_start(const isolde_result *r, size_t k)
{
    size_t f = 0;
    for (size_t i = 0; i < k; i++) f += r->type_counts[i];
    return f;
}

static size_t txn_each(const isolde_result *r, size_t k, size_t first, size_t n, iso_show_fn show, void *arg)
{
    return iso_elle_show(r->payload, iso_elle_type_start(r, k) + first, n, 0, show, arg);
}

static const iso_result_kind elle_kind = {"transactional", iso_elle_text, iso_elle_json, iso_elle_page,
                                          iso_elle_files, txn_each, txn_free};

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
static void drop_redundant_exists(int la, uint8_t keep[ISO_A_COUNT])
{
    uint8_t other[ISO_A_COUNT] = {0};
    for (int a = 0; a < ISO_A_COUNT; a++) other[a] = keep[a] && !is_cycle_exists(a);
    const char **no, **also;
    size_t nn, na;
    iso_models_boundary_on(la, other, &no, &nn, &also, &na);
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
        else iso_finding_free(x);
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

isolde_result *iso_result_txn(const iso_request *req, iso_findings *f, iso_proof_ctx *pc, int threads)
{
    const uint8_t *reportable = req->reportable;
    uint8_t found[ISO_A_COUNT] = {0}, keep[ISO_A_COUNT] = {0};
    for (size_t i = 0; i < f->n; i++) found[f->f[i].type] = 1;
    for (int a = 0; a < ISO_A_COUNT; a++) keep[a] = found[a] && (reportable[a] || is_unknown_kind(a));
    drop_redundant_exists(req->la, keep);
    int order[ISO_A_COUNT], nt = 0, bad = 0;
    for (int a = 0; a < ISO_A_COUNT; a++) {
        if (!keep[a]) continue;
        bad |= reportable[a] && !is_unknown_kind(a);
        order[nt++] = a;
    }
    qsort(order, (size_t)nt, sizeof *order, by_name);
    iso_txn_result *t = iso_xcalloc(1, sizeof *t);
    isolde_result *r = iso_result_new(&elle_kind, t, verdict(req, nt, bad), NULL, 0);
    t->req = *req;
    iso_result_types(r, (size_t)nt);
    for (int i = 0; i < nt; i++) r->types[i] = iso_xstrdup(iso_anomaly_name(order[i]));
    r->n_types = (size_t)nt;
    group(t, f, order, nt, keep, r->type_counts);
    t->pc = *pc;
    *pc = (iso_proof_ctx){0};
    t->threads = threads;
    if (nt) iso_models_boundary_on(req->la, keep, &r->not_, &r->n_not, &r->also_not, &r->n_also_not);
    return r;
}

