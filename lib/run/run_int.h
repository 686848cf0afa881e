/*
 * run/run_int.h -- what the runner (runner.c) and its clients (client.c)
 * share, inside run/ only: the state every client reaches under one lock
 * (shared.c), and the run's context each client starts from.
 *
 * The generator, the counters and the history file live in one shared
 * mapping under one mutex (process-shared when clients are forked), so
 * that threads and processes run the same client loop. Under the lock an
 * op gets its index and time and its lines go into the file, so the
 * file's order is the index order; nothing is allocated while it is held.
 */
#ifndef ISO_RUN_INT_H
#define ISO_RUN_INT_H

#include <pthread.h>
#include "gen/gen.h"
#include "record/hist.h"
#include "run/run.h"
#include "txn/flight.h"

struct run_shared {
    pthread_mutex_t lock;
    const gen_ops *gen;   /* how the transactions are made */
    gen g;
    int64_t next_index, next_process;
    isolde_run_stats st;  /* outcomes and reasons; seconds set at the end */
    int clients_done;
    int stop;             /* clients stop at their next transaction */
    int failed;           /* a client hit an error: errmsg says which */
    int nomem;            /* a client ran out of memory */
    char errmsg[600];
    char first_info[sizeof ((txn *)0)->error]; /* the first info's error */
    double t0;
    int64_t t0_ns;        /* t0 on CLOCK_MONOTONIC, in nanoseconds */
    txn_flight *flight;   /* one slot per client (its own mapping), for
                             counting contended transactions */
    int n_flight;
    hist hist;            /* the history file */
};

struct run_ctx {
    const isolde_run_opts *o;
    const run_driver *drv;
    const run_env *env;
    const run_env *read_env; /* --read-url's connections, or NULL */
    struct run_shared *sh;
    struct iso_guard *guard; /* the run's: every client loop runs under it */
    int client;
    char *const *urls;       /* what clients connect to: o's, or through the proxy */
    struct nem_proxy *proxy; /* the run's fault proxy, or NULL */
};

/* shared.c: the shared state for the run o asks for, recording into fd
 * (NULL when it cannot be mapped: errno says why), and its end. */
struct run_shared *run_shared_new(const isolde_run_opts *o, int fd);
void run_shared_free(struct run_shared *sh);
/* Take the shared lock (a client process that died holding it fails the
 * run); fail the run, saying why, and stop the clients (lock held);
 * nanoseconds since the run began (lock held, so that times never go
 * backwards in the file); append [from, to) to the history (lock held;
 * flush: in the file before the client goes on). */
void run_lock(struct run_shared *sh);
void run_fail_locked(struct run_shared *sh, const char *fmt, const char *arg);
int64_t run_now_locked(const struct run_shared *sh);
void run_emit(struct run_shared *sh, const char *from, const char *to, int flush);
/* Whether the caller asked the run to stop (o->stop: SIGINT). */
int run_stop_asked(const isolde_run_opts *o);

/* client.c: one client's transactions until there are no more (final:
 * the final reads, as process `process`), each on its endpoint's
 * connection; an error fails the run through run_fail_locked. */
void run_client(struct run_ctx *x, int64_t process, int final);

#endif
