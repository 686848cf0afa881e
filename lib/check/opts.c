/*
 * check/opts.c -- the check's options: their defaults, a caller's struct
 * as this library knows it (older, smaller structs get defaults for what
 * they lack), validation before anything is read, and the names the
 * options take, for a program to list or test (`isolde models`). Static
 * strings; nothing here allocates.
 */
#include "isolde.h"

#include <stddef.h>
#include <string.h>

#include "elle/elle.h"
#include "elle/models.h"
#include "core/core.h"

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
    if (at_least_0(o->threads, "threads", "one per core", err) ||
        at_least_0(o->cycle_search_timeout_ms, "cycle_search_timeout_ms", "no limit", err) ||
        at_least_0(o->timeout_ms, "timeout_ms", "no limit", err) ||
        at_least_0(o->group_size, "group_size", "any", err))
        return -1;
    if (o->cas_fail != ISOLDE_CAS_FAIL_DEFAULT && o->cas_fail != ISOLDE_CAS_FAIL_NOOP &&
        o->cas_fail != ISOLDE_CAS_FAIL_FALSE)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "cas_fail must be DEFAULT, NOOP or FALSE, got %d",
                        (int)o->cas_fail);
    return 0;
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
    isolde_error e;
    if (!request(o, &req, &e)) return ISOLDE_OK;
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

const char *isolde_model_name(size_t i) { return iso_model_name_at(i, NULL); }

const char *isolde_model_canonical(const char *name)
{
    int m = name ? iso_model_parse(name) : -1;
    return m < 0 ? NULL : iso_model_canonical(m);
}

const char *isolde_anomaly_name(size_t i) { return iso_anomaly_name_at(i, NULL); }
