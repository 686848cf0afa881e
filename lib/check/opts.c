/*
 * check/opts.c -- the check's options: their defaults, a caller's struct
 * as this library knows it (older, smaller structs get defaults for what
 * they lack), -c and -a read into what the check is asked for (a
 * request, in Elle's names), validation before anything is read, and the
 * names the options take, for a program to list or test (`isolde
 * models`). Static strings; nothing here allocates.
 */
#include "check/check.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/names.h"
#include "elle/models.h"

void isolde_check_opts_init(isolde_check_opts *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->cycle_search_timeout_ms = 1000;
    o->timeout_ms = 60000; /* the whole search: linearizability (docs/LINEARIZABILITY.md), cycles */
}

static int at_least_0(long v, const char *name, const char *zero, isolde_error *err)
{
    return v < 0 ? iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s must be 0 (%s) or more, got %ld", name, zero, v) : 0;
}

/* The numbers o holds, each within what it means: 0, or -1 with err. */
static int ranges(const isolde_check_opts *o, isolde_error *err)
{
    return at_least_0(o->threads, "threads", "one per core", err) ||
           at_least_0(o->cycle_search_timeout_ms, "cycle_search_timeout_ms", "no limit", err) ||
           at_least_0(o->timeout_ms, "timeout_ms", "no limit", err) ? -1 : 0;
}

int iso_check_opts_copy(const isolde_check_opts *user, isolde_check_opts *o, isolde_error *err)
{
    isolde_check_opts_init(o);
    if (!user) return 0;
    if (user->size < offsetof(isolde_check_opts, workload) + sizeof user->workload)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0,
                        "check options not initialised (isolde_check_opts_init)");
    memcpy(o, user, user->size < sizeof *o ? user->size : sizeof *o);
    o->size = sizeof *o;
    return ranges(o, err);
}

/* ---- -c and -a: the request ---------------------------------------- */

/* Calls each(name, len, arg) for every comma-separated, trimmed name. */
static int for_each_name(const char *list, int (*each)(const char *, void *), void *arg)
{
    char name[128];
    for (const char *p = list; *p;) {
        while (*p == ' ' || *p == ',') p++;
        size_t n = 0;
        while (p[n] && p[n] != ',') n++;
        size_t m = n;
        while (m && p[m - 1] == ' ') m--;
        if (m) {
            if (m >= sizeof name) m = sizeof name - 1;
            memcpy(name, p, m);
            name[m] = 0;
            if (each(name, arg)) return -1;
        }
        p += n;
    }
    return 0;
}

/* The names of -c or -a as they parse into a request; the first unknown name. */
typedef struct names {
    iso_request *req;
    char bad[128];
} names;

static int unknown(names *ns, const char *name)
{
    snprintf(ns->bad, sizeof ns->bad, "%s", name);
    return -1;
}

static int asked_before(const iso_request *req, int m)
{
    for (size_t i = 0; i < req->n_checked; i++)
        if (req->checked[i].model == m) return 1;
    for (size_t i = 0; i < req->n_unchecked; i++)
        if (req->unchecked[i].model == m) return 1;
    return 0;
}

/* A model, once, under the accepted name (a static string) it was given as. */
static int add_model(const char *name, void *arg)
{
    names *ns = arg;
    iso_request *req = ns->req;
    int m = iso_model_parse(name);
    if (m < 0) return unknown(ns, name);
    if (asked_before(req, m)) return 0;
    const char *as = NULL;
    for (size_t i = 0; !as && iso_model_name_at(i, NULL); i++)
        if (!strcmp(iso_model_name_at(i, NULL), name)) as = iso_model_name_at(i, NULL);
    if (iso_model_not_checked(m)) req->unchecked[req->n_unchecked++] = (struct iso_asked_model){m, as};
    else req->checked[req->n_checked++] = (struct iso_asked_model){m, as};
    return 0;
}

static int add_anomaly(const char *name, void *arg)
{
    names *ns = arg;
    int a = iso_anomaly_parse(name);
    if (a < 0) return unknown(ns, name);
    ns->req->n_asked += !ns->req->asked[a];
    ns->req->asked[a] = 1;
    return 0;
}

/* USAGE: an unknown name of a kind, with the closest known one. */
static int unknown_name(isolde_error *err, const char *kind, const char *bad, iso_name_at known)
{
    const char *close = iso_closest_name(bad, known, NULL);
    if (close) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown %s '%s' (did you mean %s?)", kind, bad, close);
    return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown %s '%s'", kind, bad);
}

/* The names, then Elle's prohibited-anomaly-types: what the models forbid
 * (the models not checked forbid nothing) plus every anomaly implying one
 * asked for. */
int iso_request_of(const isolde_check_opts *o, iso_request *req, isolde_error *err)
{
    names ns = {req, {0}};
    memset(req, 0, sizeof *req);
    if (for_each_name(o->models ? o->models : "strict-serializable", add_model, &ns))
        return unknown_name(err, "consistency model", ns.bad, iso_model_name_at);
    if (o->anomalies && for_each_name(o->anomalies, add_anomaly, &ns))
        return unknown_name(err, "anomaly", ns.bad, iso_anomaly_name_at);
    iso_request_reportable(req);
    return 0;
}

/* ---- validation and names --------------------------------------------- */

/* What o asks for; -1 with err for options that are not initialised or
 * name something unknown. */
static int request(const isolde_check_opts *user, iso_request *req, isolde_error *err)
{
    isolde_check_opts o;
    return iso_check_opts_copy(user, &o, err) ? -1 : iso_request_of(&o, req, err);
}

isolde_status isolde_check_opts_validate(const isolde_check_opts *o, isolde_error *err)
{
    iso_request req;
    iso_checker_opts co;
    isolde_error e;
    if (!request(o, &req, &e) && (!o || !iso_checker_opts_of(o, &co, &e))) return ISOLDE_OK;
    if (err) *err = e;
    return e.code;
}

int isolde_check_opts_forbid(const isolde_check_opts *o, const char *anomaly)
{
    iso_request req;
    isolde_error err;
    int a = anomaly ? iso_anomaly_parse(anomaly) : -1;
    return a < 0 || request(o, &req, &err) ? -1 : req.reportable[a];
}

const char *isolde_model_not_checked(const char *name)
{
    return iso_model_not_checked(name ? iso_model_parse(name) : -1);
}

const char *isolde_model_coverage(const char *name, const char *workload)
{
    int m = name ? iso_model_parse(name) : -1;
    int rw = !workload ? -1 : !strcmp(workload, "list-append") ? 0 : !strcmp(workload, "rw-register") ? 1 : -1;
    return m < 0 || rw < 0 ? NULL : iso_coverage_name(iso_model_coverage(m, rw));
}

#define EXACT_COMPLETE(wl, what)                                                                               \
    wl " is complete through the exact check (a SAT solver, CaDiCaL, over " what ", within a deterministic "       \
       "budget): a component the budget leaves undecided makes the verdict unknown, never valid; --no-exact makes " \
       "it sound only"
#define EXACT_SOUND(wl, what)                                                                                  \
    wl " is sound only in this build: complete needs the cadical feature (libcadical-dev), with which the exact " \
       "check decides " what

const char *isolde_model_coverage_note(const char *name, const char *workload)
{
    static const char *const notes[2][2] = {
        {EXACT_SOUND("list-append", "the orders of appends no read shows"),
         EXACT_COMPLETE("list-append", "the orders of appends no read shows")},
        {EXACT_SOUND("rw-register", "the writer pairs no evidence orders"),
         EXACT_COMPLETE("rw-register", "the writer pairs no evidence orders")}};
    int m = name ? iso_model_parse(name) : -1;
    int rw = !workload ? -1 : !strcmp(workload, "list-append") ? 0 : !strcmp(workload, "rw-register") ? 1 : -1;
    if (m < 0 || rw < 0 || !iso_model_exact(m, rw)) return NULL;
    return notes[rw][iso_model_coverage(m, rw) == ISO_COV_COMPLETE];
}

const char *isolde_model_name(size_t i) { return iso_model_name_at(i, NULL); }

const char *isolde_model_canonical(const char *name)
{
    int m = name ? iso_model_parse(name) : -1;
    return m < 0 ? NULL : iso_model_canonical(m);
}

const char *isolde_anomaly_name(size_t i) { return iso_anomaly_name_at(i, NULL); }
