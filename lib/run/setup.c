/*
 * run/setup.c -- what comes before the clients: a backend's setup (its
 * tables), the workload's setup transaction (a bank's opening balances)
 * and a client's connection, each tried again with a growing pause until
 * the run's reconnect deadline, so that a database still starting, or
 * restarting, does not end the run; the setup's waiting is said once
 * (isolde_run_opts.waiting). The invariant: a usage error is never tried
 * again, and the error returned is the last attempt's.
 */
#include <stdio.h>
#include <string.h>
#include "run/drivers/url.h"
#include "run/run.h"

static double deadline(const isolde_run_opts *o)
{
    return iso_now() + (double)(o->reconnect_ms > 0 ? o->reconnect_ms : 0) / 1000.0;
}

/* Say, once, that the run waits for the database at url. */
static void say_waiting(const isolde_run_opts *o, const char *url)
{
    char node[128], what[256];
    run_url_node(url ? url : "", node, sizeof node);
    snprintf(what, sizeof what, "connecting to %s (retrying until --reconnect: %g s)",
             node[0] ? node : "the database", (double)o->reconnect_ms / 1000.0);
    o->waiting(o->progress_arg, what);
}

/* fn(arg, err) until it returns 0, fails with a usage error, the run's
 * reconnect deadline has passed, the run is stopped (o->stop: SIGINT), or
 * stop(stop_arg) says to stop (stop may be NULL). The wait is said (once)
 * when url is given. */
static int retry(const run_env *env, int (*fn)(void *arg, isolde_error *err), void *arg, int (*stop)(void *),
                 void *stop_arg, const char *url, isolde_error *err)
{
    const isolde_run_opts *o = env->o;
    double give_up = deadline(o);
    for (long pause = 10;; pause = pause < 500 ? pause * 2 : 1000) {
        memset(err, 0, sizeof *err);
        if (fn(arg, err) == 0) return 0;
        if (err->code == ISOLDE_ERR_USAGE || iso_now() >= give_up || (o->stop && *o->stop) ||
            (stop && stop(stop_arg)))
            return -1;
        if (pause == 10 && url && o->waiting) say_waiting(o, url);
        iso_sleep_ms(pause);
    }
}

/* The endpoint the setup connects to, or NULL. */
static const char *first_url(const isolde_run_opts *o) { return o->n_urls ? o->urls[0] : NULL; }

struct open_call {
    const run_driver *d;
    const run_env *env;
    int client;
    const char *url;
    void **conn;
};

static int open_once(void *arg, isolde_error *err)
{
    struct open_call *c = arg;
    *c->conn = NULL;
    if (c->d->open(c->env, c->client, c->url, c->conn, err) == 0) return 0;
    *c->conn = NULL;
    return -1;
}

int run_open(const run_driver *d, const run_env *env, int client, const char *url, int (*stop)(void *),
             void *arg, void **conn, isolde_error *err)
{
    struct open_call c = {d, env, client, url, conn};
    return retry(env, open_once, &c, stop, arg, NULL, err);
}

struct setup_call {
    const run_driver *d;
    const run_env *env;
    txn *t;       /* the workload's setup transaction, or NULL */
};

static int driver_setup(void *arg, isolde_error *err)
{
    struct setup_call *s = arg;
    return s->d->setup ? s->d->setup(s->env, err) : 0;
}

int run_setup(const run_driver *d, const run_env *env, isolde_error *err)
{
    struct setup_call s = {d, env, NULL};
    return retry(env, driver_setup, &s, NULL, NULL, first_url(env->o), err);
}

/* The setup transaction once, on a connection of its own to the first
 * endpoint. */
static int setup_txn(void *arg, isolde_error *err)
{
    struct setup_call *s = arg;
    const isolde_run_opts *o = s->env->o;
    void *conn = NULL;
    if (s->d->open(s->env, 0, first_url(o), &conn, err) < 0) return -1;
    txn_clear_reads(s->t);
    int outcome = s->d->txn(conn, s->t);
    s->d->close(conn);
    if (outcome == TXN_OK) return 0;
    return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "the %s workload's setup did not commit: %s",
                    isolde_workload_name(o->workload), s->t->error[0] ? s->t->error : "no reason given");
}

int run_workload_setup(const run_driver *d, const run_env *env, txn *t, isolde_error *err)
{
    struct setup_call s = {d, env, t};
    return retry(env, setup_txn, &s, NULL, NULL, first_url(env->o), err);
}
