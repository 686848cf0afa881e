/*
 * run/promise.c -- what each backend's documentation promises of each of
 * its isolation levels, as data: one row per backend x level, the
 * strongest of Elle's consistency models the documentation claims there,
 * what it allows in its own words, and where it says so. `isolde
 * scenario` checks each level against its row (README.md has the same
 * table). A level the documentation promises nothing of has no row.
 */
#include <string.h>
#include "run/run.h"

static const isolde_promise promises[] = {
    {"sqlite", "serializable", "serializable",
     "nothing: transactions take the database lock, so they are serializable",
     "sqlite.org/isolation.html: \"isolation in SQLite is SERIALIZABLE\""},
    {"postgres", "read-uncommitted", "read-committed",
     "what READ COMMITTED allows: PostgreSQL runs READ UNCOMMITTED as READ COMMITTED",
     "PostgreSQL 15, 13.2 Transaction Isolation, Table 13.1"},
    {"postgres", "read-committed", "read-committed",
     "nonrepeatable reads (read skew), lost updates, write skew: each statement sees a snapshot of its own",
     "PostgreSQL 15, 13.2.1 Read Committed Isolation Level"},
    {"postgres", "repeatable-read", "snapshot-isolation",
     "serialization anomalies (write skew): one snapshot per transaction, a concurrent update is error 40001",
     "PostgreSQL 15, 13.2.2 Repeatable Read Isolation Level"},
    {"postgres", "serializable", "serializable", "nothing: committed transactions behave as if run one at a time",
     "PostgreSQL 15, 13.2.3 Serializable Isolation Level"},
    {"mysql", "read-uncommitted", "read-uncommitted",
     "dirty reads and everything above them; a written row stays locked until commit (no dirty write)",
     "MySQL 8.0, 15.7.2.1 Transaction Isolation Levels, of InnoDB, which MariaDB shares"},
    {"mysql", "read-committed", "read-committed",
     "nonrepeatable reads (read skew), lost updates, write skew: each consistent read takes a fresh snapshot",
     "MySQL 8.0, 15.7.2.1 Transaction Isolation Levels"},
    {"mysql", "repeatable-read", "read-committed",
     "lost updates and write skew: plain reads see the transaction's first snapshot, but writes and locking "
     "reads see the latest rows (not snapshot isolation)",
     "MySQL 8.0, 15.7.2.1 Transaction Isolation Levels; 15.7.2.3 Consistent Nonlocking Reads"},
    {"mysql", "serializable", "serializable", "nothing: plain reads lock what they read (as LOCK IN SHARE MODE)",
     "MySQL 8.0, 15.7.2.1 Transaction Isolation Levels"},
};
#define N_PROMISES (sizeof promises / sizeof promises[0])

const isolde_promise *isolde_promise_at(size_t i) { return i < N_PROMISES ? &promises[i] : NULL; }

const isolde_promise *isolde_promise_of(const char *backend, const char *level)
{
    for (size_t i = 0; backend && level && i < N_PROMISES; i++)
        if (!strcmp(promises[i].backend, backend) && !strcmp(promises[i].level, level)) return &promises[i];
    return NULL;
}
