/*
 * run/opts.c -- a run's options: their defaults (isolde_run_opts_init),
 * and their validation before anything touches a database: the caller's
 * struct as this library knows it, the backend, its generator, its level
 * and its own options (config.c), then what the clients are asked (a
 * --read-url, the faults). The invariant: every error here is a usage
 * error, found before the history file is created.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "core/names.h"
#include "gen/gen.h"
#include "nemesis/nemesis.h"
#include "run/run.h"

void isolde_run_opts_init(isolde_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->backend = "sim";
    o->workload = ISOLDE_WORKLOAD_LIST_APPEND;
    o->txns = 2000;
    o->clients = 8;
    o->keys = 8;
    o->max_writes_per_key = 32;
    o->max_txn_length = 4;
    o->read_ratio = 0.5;
    o->seed = 1;
    o->reconnect_ms = 30000;
    o->faults.every = 5;
    o->faults.duration = 2;
}

/* The caller's run options as this library knows them: fields its struct
 * is too old to have keep their defaults. */
static int copy_opts(const isolde_run_opts *user, isolde_run_opts *o, isolde_error *err)
{
    isolde_run_opts_init(o);
    if (!user || user->size < offsetof(isolde_run_opts, backend) + sizeof user->backend)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "run options not initialised (isolde_run_opts_init)");
    memcpy(o, user, user->size < sizeof *o ? user->size : sizeof *o);
    o->size = sizeof *o;
    if (o->workload == ISOLDE_WORKLOAD_AUTO) o->workload = ISOLDE_WORKLOAD_LIST_APPEND;
    if (!o->backend) o->backend = "sim";
    if (o->clients < 1 || o->clients > 4096)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "clients must be between 1 and 4096");
    if (!o->history_path) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "no history path");
    return 0;
}

static const char *backend_name(size_t i, void *arg)
{
    (void)arg;
    return isolde_backend_at(i) ? isolde_backend_at(i)->name : NULL;
}

/* The backend o names, or NULL with err naming the closest one. */
static const run_driver *driver_of(const isolde_run_opts *o, isolde_error *err)
{
    const run_driver *d = run_driver_find(o->backend);
    if (d) return d;
    const char *close = iso_closest_name(o->backend, backend_name, NULL);
    iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown backend '%s'%s%s%s", o->backend,
             close ? " (did you mean " : "", close ? close : "", close ? "?)" : "");
    return NULL;
}

/* Whether d runs the workload o asks for (a generator makes it, of the
 * kind d runs: transactions or single ops) where o says (--url). */
static int runs_workload(const run_driver *d, const isolde_run_opts *o, isolde_error *err)
{
    const gen_ops *g = gen_ops_for(o->workload);
    if (!g)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "no generator makes %s histories",
                        isolde_workload_name(o->workload));
    if (g->single != d->single)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s runs %s, not %s", d->pub.name,
                        d->single ? "single ops (register, cas-register, kv)" : "transactions",
                        isolde_workload_name(o->workload));
    if (d->pub.url_help && !o->n_urls)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s needs --url (%s)", d->pub.name, d->pub.url_help);
    return 0;
}

/* The level asked for, or the driver's; one of the levels it knows. */
static int isolation_of(const run_driver *d, const isolde_run_opts *o, const char **out,
                        isolde_error *err)
{
    const char *want = o->isolation ? o->isolation : d->pub.isolation;
    *out = want;
    if (!want || !d->pub.levels) return 0;
    for (const char *const *l = d->pub.levels; *l; l++)
        if (strcmp(*l, want) == 0) return 0;
    char list[512] = "";
    for (const char *const *l = d->pub.levels; *l; l++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", l == d->pub.levels ? "" : ", ", *l);
    return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s runs at %s, not '%s'", d->pub.name, list, want);
}

int run_prepare(const isolde_run_opts *user, isolde_run_opts *o, const run_driver **drv, run_env *env,
                isolde_error *err)
{
    if (copy_opts(user, o, err)) return -1;
    const run_driver *d = *drv = driver_of(o, err);
    if (!d || runs_workload(d, o, err)) return -1;
    *env = (run_env){o, NULL, NULL, 0};
    if (isolation_of(d, o, &env->isolation, err)) return -1;
    env->config = run_config(d, o, err);
    return env->config ? 0 : -1;
}

int run_check_clients(const run_driver *d, const isolde_run_opts *o, isolde_error *err)
{
    const nem_kind *kinds[8];
    if (d->run) /* a backend that runs its own clients has its own faults */
        return o->n_read_urls ? iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s runs its own clients: no --read-url",
                                         d->pub.name) : 0;
    if (!o->faults.nemesis || !*o->faults.nemesis) return 0;
    return nem_parse(o, kinds, 8, err) < 0 ? -1 : 0;
}
