/*
 * run/drivers/driver.h -- what a database backend provides to the runner.
 * A new database (PostgreSQL, MariaDB, ...) is one drivers/<name>.c that
 * fills a run_driver, plus a row in drivers.c; the runner, the generators
 * and the recorder stay as they are.
 *
 * A driver declares its own options in a table (name, type, help, default,
 * where the value goes in its config struct); the runner fills the config
 * from the run's "name=value" strings, and `isolde run BACKEND --help`
 * prints the table. The common options (clients, endpoints, isolation
 * level, workload) are isolde_run_opts'.
 *
 * Threading: setup runs once in the runner before any client starts; each
 * client then opens its own connection (in its own thread, or in its own
 * forked process) to its endpoint and uses it alone. After an
 * indeterminate outcome, or when opening fails, the runner closes the
 * connection and opens a fresh one, retrying until the run's reconnect
 * deadline: a database that restarts does not end the run.
 *
 * Errors a driver reports never name the endpoint in isolde_error.file: a
 * URL can hold a password.
 */
#ifndef ISO_RUN_DRIVER_H
#define ISO_RUN_DRIVER_H

#include <sys/types.h>
#include "core/options.h"
#include "gen/gen.h"

/* One option a driver declares, and where its value goes in its config
 * (core/options.h). */
typedef iso_option run_option;

/* What a driver sees of the run. */
typedef struct run_env {
    const isolde_run_opts *o;   /* the common options */
    const void *config;         /* the driver's config, filled from its options */
    const char *isolation;      /* the level asked for (o's, or the driver's default);
                                   for read_only connections, read_level's */
    int read_only;              /* --read-url's connections: read-only
                                   transactions, perhaps on a replica */
} run_env;

typedef struct run_driver {
    isolde_backend pub;         /* name, help, --url, default and possible levels */
    size_t config_size;
    const run_option *options;
    size_t n_options;
    /* Once, before any client: create or reset the schema. May be NULL. */
    int (*setup)(const run_env *env, isolde_error *err);
    /* Open client's connection to url (urls[client % n_urls], or NULL). */
    int (*open)(const run_env *env, int client, const char *url, void **conn, isolde_error *err);
    /* Run t as one transaction. On TXN_OK every read of t is filled in
     * (txn_read_begin / _elem, or mop value and nil); on TXN_FAIL the
     * transaction certainly did not commit; TXN_INFO: unknown. Either may
     * leave a reason in t->error. */
    int (*txn)(void *conn, txn *t);
    void (*close)(void *conn);
    /* A backend that runs its clients itself instead of open / txn / close:
     * the simulated database, whose clients interleave on one seeded
     * schedule (the one exception; it shares the generators and the
     * recorder). Writes the history to fd. */
    int (*run)(const run_env *env, int fd, isolde_run_stats *st, isolde_error *err);
    /* Statement by statement, for directed scenarios (NULL when the backend
     * cannot): begin t, run its micro-op i, commit it. Each returns an enum
     * txn_outcome as txn does; after TXN_FAIL or TXN_INFO the transaction is
     * over (rolled back, or its outcome unknown) and the rest is not called.
     * A driver that has them takes run_driver_steps as its txn, and needs
     * no code of its own for an add (TXN_ADD): run_driver_steps reads the
     * register, writes the sum, or rolls back when it is below 0. */
    int (*begin)(void *conn, txn *t);
    int (*step)(void *conn, txn *t, uint32_t i);
    int (*commit)(void *conn, txn *t);
    /* The level read-only connections run at when level is asked (a hot
     * standby refuses SERIALIZABLE); NULL: the same. */
    const char *(*read_level)(const char *level);
    int single;                 /* runs single ops (register, cas-register, kv:
                                   gen_ops.single), not transactions */
    /* Roll back the transaction begun (with begin, step and commit);
     * sets t->reconnect when the connection is gone. */
    void (*rollback)(void *conn, txn *t);
} run_driver;

extern const run_driver run_driver_sim;
extern const run_driver run_driver_sqlite;
extern const run_driver run_driver_exec;
extern const run_driver run_driver_postgres;
extern const run_driver run_driver_mysql;
extern const run_driver run_driver_etcd;

/* t run through d's begin, step and commit (drivers.c); an add is a read
 * and a write of the register through step, as Jepsen's bank client
 * reads a balance and writes the new one: at a level that allows lost
 * updates, two transfers from one account can both take the same
 * balance. A sum below 0 (an overdraft) rolls back and fails. */
int run_driver_steps(const run_driver *d, void *conn, txn *t);

/* First thing in a process forked by the run (a --fork client, an exec
 * client before it runs its command): it is to die with the run, even a
 * SIGKILLed one (Linux: PR_SET_PDEATHSIG, SIGKILL when the thread that
 * forked it ends), and if the run died before that was set (the parent
 * is no longer parent, the pid read before fork), it ends at once. */
void run_child_of(pid_t parent);

/* The backend called name, or NULL; the backends by index (drivers.c). */
const run_driver *run_driver_find(const char *name);
const run_driver *run_driver_at(size_t i);

#endif
