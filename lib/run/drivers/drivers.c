/*
 * run/drivers/drivers.c -- the table of database backends `isolde run`
 * knows, and what every driver and the runner share: a transaction run
 * statement by statement, a child process that dies with the run. A new
 * database is a <name>.c in this folder and a row here; the runner itself
 * does not change.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include "run/drivers/driver.h"

static const run_driver *const drivers[] = {
    &run_driver_sim,
#ifdef ISO_HAVE_SQLITE
    &run_driver_sqlite,
#endif
#ifdef ISO_HAVE_LIBPQ
    &run_driver_postgres,
#endif
#ifdef ISO_HAVE_MARIADB
    &run_driver_mysql,
#endif
#ifdef ISO_HAVE_CURL
    &run_driver_etcd,
#endif
    &run_driver_exec,
};
#define N_DRIVERS (sizeof drivers / sizeof drivers[0])

/* Micro-op i, an add: the register read, then the sum written. */
static int add_step(const run_driver *d, void *conn, txn *t, uint32_t i)
{
    txn_mop *m = &t->mops[i], add = *m;
    m->f = TXN_R;
    m->nil = 1;
    int rc = d->step(conn, t, i);
    int64_t sum, old = m->nil ? 0 : m->value;
    int over = __builtin_add_overflow(old, add.value, &sum);
    *m = add;
    if (rc != TXN_OK) return rc;
    if (over || sum < 0) {
        txn_clear_reads(t);
        d->rollback(conn, t);
        txn_error(t, over ? "overflow" : "insufficient-balance", NULL,
                      "add %lld to key %lld, which holds %lld: the sum would %s", (long long)add.value,
                      (long long)add.key, (long long)old, over ? "overflow" : "go below 0");
        return TXN_FAIL;
    }
    m->f = TXN_W;
    m->value = m->after = sum;
    rc = d->step(conn, t, i);
    m->f = TXN_ADD;
    m->value = add.value;
    return rc;
}

int run_driver_steps(const run_driver *d, void *conn, txn *t)
{
    int rc = d->begin(conn, t);
    for (uint32_t i = 0; rc == TXN_OK && i < t->n; i++)
        rc = t->mops[i].f == TXN_ADD ? add_step(d, conn, t, i) : d->step(conn, t, i);
    return rc == TXN_OK ? d->commit(conn, t) : rc;
}

const run_driver *run_driver_at(size_t i) { return i < N_DRIVERS ? drivers[i] : NULL; }

const run_driver *run_driver_find(const char *name)
{
    for (size_t i = 0; name && i < N_DRIVERS; i++)
        if (strcmp(drivers[i]->pub.name, name) == 0) return drivers[i];
    return NULL;
}

const isolde_backend *isolde_backend_at(size_t i) { return i < N_DRIVERS ? &drivers[i]->pub : NULL; }

const isolde_option *isolde_backend_option(const char *backend, size_t i)
{
    const run_driver *d = run_driver_find(backend);
    return d && i < d->n_options ? &d->options[i].pub : NULL;
}

void run_child_of(pid_t parent)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent) _exit(1); /* the run died before the signal was set */
}
