/*
 * result.c -- from findings to a verdict as Elle's result-map makes it:
 * reportable anomalies, redundant cycle-exists fallbacks dropped, validity,
 * sorted types and the not / also-not boundary; and the accessors of the
 * public result.
 */
#include "check/result.h"
#include "graph/cycle.h"
#include "check/models.h"

#include <stdlib.h>
#include <string.h>

static int is_cycle_exists(int a)
{
    return a >= ISO_A_PL_1_CYCLE_EXISTS && a <= ISO_A_STRONG_SNAPSHOT_ISOLATION_CYCLE_EXISTS;
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

void iso_result_build(iso_result *r, const uint8_t reportable[ISO_A_COUNT], iso_finding *f, size_t n)
{
    uint8_t found[ISO_A_COUNT] = {0}, keep[ISO_A_COUNT] = {0};
    for (size_t i = 0; i < n; i++) found[f[i].type] = 1;
    int any = 0, bad = 0;
    for (int a = 0; a < ISO_A_COUNT; a++) {
        int unknown_kind = a == ISO_A_EMPTY_TRANSACTION_GRAPH || a == ISO_A_CYCLE_SEARCH_TIMEOUT;
        keep[a] = found[a] && (reportable[a] || unknown_kind);
    }
    drop_redundant_exists(keep);
    int order[ISO_A_COUNT], nt = 0;
    for (int a = 0; a < ISO_A_COUNT; a++) {
        if (!keep[a]) continue;
        any = 1;
        bad |= reportable[a] && a != ISO_A_EMPTY_TRANSACTION_GRAPH && a != ISO_A_CYCLE_SEARCH_TIMEOUT;
        order[nt++] = a;
    }
    qsort(order, (size_t)nt, sizeof *order, by_name);
    r->validity = !any ? ISO_VALID : bad ? ISO_INVALID : ISO_UNKNOWN;
    r->findings = iso_xmalloc((n ? n : 1) * sizeof *r->findings);
    r->types = iso_xmalloc((size_t)(nt ? nt : 1) * sizeof *r->types);
    r->type_counts = iso_xcalloc((size_t)(nt ? nt : 1), sizeof *r->type_counts);
    for (int t = 0; t < nt; t++) {
        r->types[t] = iso_xstrdup(iso_anomaly_name(order[t]));
        for (size_t i = 0; i < n; i++)
            if (f[i].type == order[t]) {
                r->findings[r->n_findings++] = f[i];
                r->type_counts[t]++;
            }
    }
    r->n_types = (size_t)nt;
    for (size_t i = 0; i < n; i++)
        if (!keep[f[i].type]) { iso_free(f[i].text); iso_free(f[i].json); }
    iso_free(f);
    if (any) iso_models_boundary(found, &r->not_, &r->n_not, &r->also_not, &r->n_also_not);
}

iso_validity iso_result_validity(const iso_result *r) { return r->validity; }
size_t iso_result_type_count(const iso_result *r) { return r->n_types; }
const char *iso_result_type(const iso_result *r, size_t i) { return i < r->n_types ? r->types[i] : NULL; }
size_t iso_result_not_count(const iso_result *r) { return r->n_not; }
const char *iso_result_not(const iso_result *r, size_t i) { return i < r->n_not ? r->not_[i] : NULL; }
size_t iso_result_also_not_count(const iso_result *r) { return r->n_also_not; }
const char *iso_result_also_not(const iso_result *r, size_t i)
{
    return i < r->n_also_not ? r->also_not[i] : NULL;
}

size_t iso_result_instance_count(const iso_result *r, const char *type)
{
    for (size_t i = 0; i < r->n_types; i++)
        if (strcmp(r->types[i], type) == 0) return r->type_counts[i];
    return 0;
}

void iso_result_free(iso_result *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n_types; i++) iso_free(r->types[i]);
    for (size_t i = 0; i < r->n_findings; i++) {
        iso_free(r->findings[i].text);
        iso_free(r->findings[i].json);
    }
    iso_free(r->types);
    iso_free(r->type_counts);
    iso_free(r->findings);
    iso_free(r->not_);
    iso_free(r->also_not);
    if (r->lin) iso_lin_report_free(r->lin);
    if (r->ctx) iso_ctx_free(r->ctx);
    iso_free(r->ctx);
    iso_free(r);
}
