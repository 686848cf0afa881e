/*
 * result/result.c -- a result of any kind: making one, the accessors every
 * kind shares, walking its findings through its kind, and freeing it.
 */
#include "result/result.h"

#include <string.h>

isolde_result *iso_result_new(const iso_result_kind *kind, void *payload, isolde_validity v,
                              const char *type, size_t count)
{
    isolde_result *r = iso_xcalloc(1, sizeof *r);
    r->kind = kind;
    r->payload = payload;
    r->validity = v;
    if (type) {
        iso_result_types(r, 1);
        r->types[0] = iso_xstrdup(type);
        r->type_counts[0] = count;
        r->n_types = 1;
    }
    return r;
}

void iso_result_types(isolde_result *r, size_t n)
{
    r->types = iso_xcalloc(n ? n : 1, sizeof *r->types);
    r->type_counts = iso_xcalloc(n ? n : 1, sizeof *r->type_counts);
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

/* The place of type among r's types, or n_types. */
static size_t type_index(const isolde_result *r, const char *type)
{
    size_t k = 0;
    while (k < r->n_types && strcmp(r->types[k], type) != 0) k++;
    return k;
}

size_t isolde_result_instance_count(const isolde_result *r, const char *type)
{
    size_t k = type_index(r, type);
    return k < r->n_types ? r->type_counts[k] : 0;
}

struct walk {
    const isolde_result *r;
    const char *type;
    size_t first, n;
    isolde_finding_fn fn;
    void *arg;
};

static void show(void *arg, size_t i, const char *text, const char *json)
{
    const struct walk *w = arg;
    w->fn(w->arg, w->first + i, text, json);
}

static int walk(void *arg, isolde_error *err)
{
    struct walk *w = arg;
    size_t k = w->type ? type_index(w->r, w->type) : w->r->n_types;
    if (k == w->r->n_types)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "no anomaly type '%s' in this result",
                        w->type ? w->type : "(null)");
    size_t count = w->r->type_counts[k];
    if (w->first >= count) return 0;
    w->r->kind->each(w->r, k, w->first, w->n < count - w->first ? w->n : count - w->first, show, w);
    return 0;
}

isolde_status isolde_result_findings(const isolde_result *r, const char *type, size_t first, size_t n,
                                     isolde_finding_fn fn, void *arg, isolde_error *err)
{
    struct walk w = {r, type, first, n, fn, arg};
    return iso_call(walk, &w, err);
}

void isolde_result_free(isolde_result *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n_types; i++) iso_free(r->types[i]);
    iso_free(r->types);
    iso_free(r->type_counts);
    iso_free(r->not_);
    iso_free(r->also_not);
    if (r->kind && r->kind->free) r->kind->free(r->payload);
    iso_free(r);
}
