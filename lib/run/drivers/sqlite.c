/*
 * run/drivers/sqlite.c -- SQLite through libsqlite3: one connection per
 * client on one database file. Lists live in isolde_la(k, v) as text
 * "1,2,3", and an append is one upsert that concatenates onto the stored
 * list; registers are plain rows of isolde_rw(k, v).
 *
 * Outcomes: an error before COMMIT rolls back and is a fail; a busy COMMIT
 * (SQLite keeps the transaction open) is rolled back and is a fail; any
 * other COMMIT error leaves the outcome unknown, an info.
 *
 * Connections run with synchronous=OFF: what is tested is isolation, which
 * fsync does not change, and a commit without it costs microseconds
 * instead of milliseconds in rollback-journal mode.
 */
#ifdef ISO_HAVE_SQLITE
#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "run/drivers/driver.h"

enum { ST_BEGIN, ST_COMMIT, ST_ROLLBACK, ST_READ, ST_WRITE, ST_N };

struct sq_config {
    const char *begin, *journal;
    long busy_timeout_ms;
};

struct sq_conn {
    sqlite3 *db;
    sqlite3_stmt *st[ST_N];
    int list_append;
};

static const char *const la_sql[] = {
    NULL, "COMMIT", "ROLLBACK", "SELECT v FROM isolde_la WHERE k = ?1",
    "INSERT INTO isolde_la(k, v) VALUES (?1, ?2) "
    "ON CONFLICT(k) DO UPDATE SET v = v || ',' || excluded.v"};
static const char *const rw_sql[] = {
    NULL, "COMMIT", "ROLLBACK", "SELECT v FROM isolde_rw WHERE k = ?1",
    "INSERT INTO isolde_rw(k, v) VALUES (?1, ?2) "
    "ON CONFLICT(k) DO UPDATE SET v = excluded.v"};

static const char *begin_sql(const struct sq_config *cf)
{
    if (strcmp(cf->begin, "deferred") == 0) return "BEGIN DEFERRED";
    if (strcmp(cf->begin, "exclusive") == 0) return "BEGIN EXCLUSIVE";
    return "BEGIN IMMEDIATE";
}

static int sq_error(sqlite3 *db, isolde_error *err)
{
    iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "sqlite: %s", db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return -1;
}

/* Fresh tables in the database at url. */
static int setup_one(const struct sq_config *cf, const char *url, isolde_error *err)
{
    sqlite3 *db = NULL;
    if (sqlite3_open(url, &db) != SQLITE_OK) return sq_error(db, err);
    char sql[512];
    snprintf(sql, sizeof sql,
             "PRAGMA journal_mode=%s;"
             "DROP TABLE IF EXISTS isolde_la; DROP TABLE IF EXISTS isolde_rw;"
             "CREATE TABLE isolde_la (k INTEGER PRIMARY KEY, v TEXT NOT NULL);"
             "CREATE TABLE isolde_rw (k INTEGER PRIMARY KEY, v INTEGER NOT NULL);",
             cf->journal);
    sqlite3_busy_timeout(db, (int)cf->busy_timeout_ms);
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) return sq_error(db, err);
    sqlite3_close(db);
    return 0;
}

static int sq_setup(const run_env *env, isolde_error *err)
{
    for (size_t i = 0; i < env->o->n_urls; i++)
        if (setup_one(env->config, env->o->urls[i], err)) return -1;
    return 0;
}

static void sq_close(void *conn)
{
    struct sq_conn *c = conn;
    for (int i = 0; i < ST_N; i++) sqlite3_finalize(c->st[i]);
    sqlite3_close(c->db);
    iso_free(c);
}

static int sq_open(const run_env *env, int client, const char *url, void **out, isolde_error *err)
{
    const struct sq_config *cf = env->config;
    struct sq_conn *c = iso_xcalloc(1, sizeof *c);
    c->list_append = gen_lists(env->o->workload);
    const char *const *sql = c->list_append ? la_sql : rw_sql;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    (void)client;
    if (sqlite3_open_v2(url, &c->db, flags, NULL) != SQLITE_OK) goto fail;
    sqlite3_extended_result_codes(c->db, 1); /* SQLITE_BUSY_SNAPSHOT told apart */
    sqlite3_busy_timeout(c->db, (int)cf->busy_timeout_ms);
    sqlite3_exec(c->db, "PRAGMA synchronous=OFF", NULL, NULL, NULL);
    for (int i = 0; i < ST_N; i++) {
        const char *q = i == ST_BEGIN ? begin_sql(cf) : sql[i];
        if (sqlite3_prepare_v2(c->db, q, -1, &c->st[i], NULL) != SQLITE_OK) goto fail;
    }
    *out = c;
    return 0;
fail:
    iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "sqlite: %s", sqlite3_errmsg(c->db));
    sq_close(c);
    return -1;
}

/* Step a statement that returns no rows. */
static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int do_read(struct sq_conn *c, txn *t, uint32_t i)
{
    sqlite3_stmt *st = c->st[ST_READ];
    txn_mop *m = &t->mops[i];
    sqlite3_bind_int64(st, 1, m->key);
    int rc = sqlite3_step(st);
    if (c->list_append) {
        const char *v = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
        txn_read_list(t, i, v, v ? (size_t)sqlite3_column_bytes(st, 0) : 0);
    } else if (rc == SQLITE_ROW) {
        m->value = sqlite3_column_int64(st, 0);
        m->nil = 0;
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The value is bound as an integer either way: in isolde_la, column
 * affinity and || make it text. */
static int do_write(struct sq_conn *c, const txn_mop *m)
{
    sqlite3_stmt *st = c->st[ST_WRITE];
    sqlite3_bind_int64(st, 1, m->key);
    sqlite3_bind_int64(st, 2, m->value);
    return step_done(st);
}

static void sq_rollback(void *conn, txn *t)
{
    struct sq_conn *c = conn;
    (void)t;
    if (!sqlite3_get_autocommit(c->db)) step_done(c->st[ST_ROLLBACK]);
}

static int rollback(struct sq_conn *c, txn *t, int rc)
{
    sq_rollback(c, t);
    txn_clear_reads(t);
    /* the runner's vocabulary (docs/FORMATS.md): a WAL snapshot too old to
     * write from is a serialization failure, a lock not had in time a
     * lock timeout */
    const char *cls = rc == SQLITE_BUSY_SNAPSHOT ? "serialization-failure"
                    : (rc & 0xff) == SQLITE_BUSY ? "lock-timeout" : "error";
    txn_error(t, cls, NULL, "%s", sqlite3_errstr(rc));
    return TXN_FAIL;
}

static int sq_begin(void *conn, txn *t)
{
    struct sq_conn *c = conn;
    int rc = step_done(c->st[ST_BEGIN]);
    return rc == SQLITE_OK ? TXN_OK : rollback(c, t, rc);
}

static int sq_step(void *conn, txn *t, uint32_t i)
{
    struct sq_conn *c = conn;
    int rc = t->mops[i].f == TXN_R ? do_read(c, t, i) : do_write(c, &t->mops[i]);
    return rc == SQLITE_OK ? TXN_OK : rollback(c, t, rc);
}

static int sq_commit(void *conn, txn *t)
{
    struct sq_conn *c = conn;
    int rc = step_done(c->st[ST_COMMIT]);
    if (rc == SQLITE_OK) return TXN_OK;
    if ((rc & 0xff) == SQLITE_BUSY && !sqlite3_get_autocommit(c->db)) return rollback(c, t, rc);
    txn_error(t, "indeterminate", NULL, "commit: %s", sqlite3_errstr(rc));
    return TXN_INFO;
}

static int sq_txn(void *conn, txn *t) { return run_driver_steps(&run_driver_sqlite, conn, t); }

static const char *const begins[] = {"deferred", "immediate", "exclusive", NULL};
static const char *const journals[] = {"wal", "delete", NULL};
static const char *const levels[] = {"serializable", NULL};

#define OPT(name, type, arg, dflt, help, field, lo, hi, choices) \
    {{name, type, arg, dflt, help}, offsetof(struct sq_config, field), lo, hi, choices}
static const run_option options[] = {
    OPT("begin", ISOLDE_OPTION_STRING, "MODE", "immediate", "deferred, immediate or exclusive", begin,
        0, 0, begins),
    OPT("journal", ISOLDE_OPTION_STRING, "J", "wal", "wal or delete", journal, 0, 0, journals),
    OPT("busy-timeout", ISOLDE_OPTION_INT, "MS", "5000", "how long a client waits for a lock",
        busy_timeout_ms, 0, 2147483647.0, NULL),
};

const run_driver run_driver_sqlite = {
    {"sqlite", "SQLite through libsqlite3, one connection per client", "a database file",
     "serializable", levels},
    sizeof(struct sq_config), options, sizeof options / sizeof options[0],
    sq_setup, sq_open, sq_txn, sq_close, NULL, sq_begin, sq_step, sq_commit, NULL, 0, sq_rollback};
#endif
