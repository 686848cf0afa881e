/*
 * run/run.h -- the runner behind isolde_run: concurrent clients drive a
 * database backend (drivers/) with transactions from a generator (gen/),
 * and every op they see is recorded as an Elle JSON line (record/) in the
 * history file, each completion on disk before its client goes on.
 *
 *   runner.c     isolde_run: clients as threads or forked processes, the
 *                monitor beside them, the final reads (run_int.h)
 *   client.c     a client: its endpoints and connections, its loop
 *   shared.c     what the clients share under one lock (run_int.h)
 *   opts.c       the run's options: defaults, validation (run_prepare)
 *   nemesis.c    the nemesis thread: faults on a seeded schedule, recorded
 *   proxy.c      the run's fault proxy: a link per endpoint, URLs through it
 *   setup.c      tables, the workload's setup, connections: retried
 *   config.c     a backend's config from its option table
 *   promise.c    what each backend's documentation promises of each level
 *   scenario.c   the directed scenarios: scripted interleavings, one
 *                client thread per transaction, a coordinator
 *   drivers/     one file per database backend, and their table
 *
 * Rule: run/ may include drivers/, nemesis/, record/, sim/, gen/, txn/,
 * history/ and core/; nothing below it includes run/.
 */
#ifndef ISO_RUN_RUN_H
#define ISO_RUN_RUN_H

#include "run/drivers/driver.h"

/* A new config for driver d: its options' defaults, then o's name=value
 * strings; NULL with err on an unknown option or a bad value. */
void *run_config(const run_driver *d, const isolde_run_opts *o, isolde_error *err);

/* The caller's options checked and completed into o (the workload, the
 * backend's default level), the backend d, and env for it: o, the level,
 * a new config (the caller frees env->config with iso_free). 0, or -1
 * with err: USAGE for an unknown backend, level or option, a missing
 * --url or history path. */
int run_prepare(const isolde_run_opts *user, isolde_run_opts *o, const run_driver **d, run_env *env,
                isolde_error *err);
/* What o asks of the clients (--read-url, the faults) can be done with
 * backend d: 0, or -1 with a USAGE err. */
int run_check_clients(const run_driver *d, const isolde_run_opts *o, isolde_error *err);

/* setup.c: run d's setup (tables), trying again after a failure other than a
 * usage error until the run's reconnect deadline (a database that is
 * still starting); -1 with the last error. */
int run_setup(const run_driver *d, const run_env *env, isolde_error *err);
/* Open client's connection to url (or NULL) through d, trying again
 * (not after a usage error) with a growing pause until env->o->reconnect_ms have
 * passed or stop(arg) says to stop (stop may be NULL): 0, or -1 with err
 * the driver's last error. */
int run_open(const run_driver *d, const run_env *env, int client, const char *url, int (*stop)(void *),
             void *arg, void **conn, isolde_error *err);
/* A workload's setup transaction t (a bank's opening balances): run alone
 * on a connection of its own to the first endpoint before the clients
 * start, tried again until the reconnect deadline (it writes fixed
 * values, so running it twice is running it once); the caller records it.
 * 0, or -1 with err. */
int run_workload_setup(const run_driver *d, const run_env *env, txn *t, isolde_error *err);

#endif
