/*
 * run/drivers/driver.h -- what a database backend provides to the runner. A new
 * database (PostgreSQL, MariaDB, ...) is one drivers/<name>.c filling this
 * table plus a line in drivers.c; the runner, generator and recorder stay
 * as they are.
 *
 * Threading: setup runs once in the runner before any client starts; each
 * client then opens its own connection (in its own thread, or in its own
 * forked process) and uses it alone. After an indeterminate outcome the
 * runner closes the connection and opens a fresh one.
 */
#ifndef ISO_RUN_DRIVER_H
#define ISO_RUN_DRIVER_H

#include "gen/txn.h"

typedef struct run_driver {
    const char *name;
    /* Create or reset the schema; may be NULL. */
    int (*setup)(const iso_run_opts *o, iso_error *err);
    /* Open one client's connection into *conn. */
    int (*open)(const iso_run_opts *o, void **conn, iso_error *err);
    /* Run t as one transaction. On RUN_OK every read of t is filled in
     * (run_txn_read_begin / _elem, or mop value and nil); on RUN_FAIL the
     * transaction certainly did not commit; RUN_INFO: unknown. Either may
     * leave a reason in t->error. */
    int (*txn)(void *conn, run_txn *t);
    void (*close)(void *conn);
} run_driver;

extern const run_driver run_driver_sqlite;
extern const run_driver run_driver_exec;

/* The backend called name, or NULL (drivers.c). */
const run_driver *run_driver_find(const char *name);

#endif
