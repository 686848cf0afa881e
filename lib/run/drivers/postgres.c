/*
 * run/drivers/postgres.c -- PostgreSQL through libpq: one connection per
 * client. Lists live in PREFIXla(k bigint, v text) as "1,2,3" and an
 * append is one upsert that concatenates onto the stored list (so two
 * concurrent appends conflict on the row); registers are plain rows of
 * PREFIXrw(k bigint, v bigint). The URL is libpq's own (postgresql://...
 * or key=value, with sslmode, sslrootcert, ...); PGPASSWORD and the
 * password file work as libpq has them.
 *
 * Outcomes: an error before COMMIT rolls back and is a fail, with the
 * SQLSTATE as its code (40001 serialization-failure, 40P01 deadlock, ...);
 * a connection lost before COMMIT is sent is a fail; lost during COMMIT,
 * or a server going down under it, is an info. No message that leaves
 * this file holds the password.
 */
#ifdef ISO_HAVE_LIBPQ
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/drivers/sql.h"
#include "run/drivers/url.h"

struct pg_conn {
    PGconn *pg;               /* NULL once given up (a statement timed out) */
    long timeout_ms;          /* --txn-timeout: per statement; 0: none */
    int timed_out;            /* the last statement did not answer in time */
    int list_append;
    char begin[64];           /* BEGIN ISOLATION LEVEL ... */
    run_secrets secrets;      /* the URL's passwords and PGPASSWORD, scrubbed
                                 from every message */
};

/* Wait for the connection's socket, at most the statement's time left. */
static int readable(struct pg_conn *c, double deadline)
{
    struct pollfd p = {PQsocket(c->pg), POLLIN, 0};
    int ms = -1;
    if (c->timeout_ms > 0) {
        double left = deadline - iso_now();
        if (left <= 0) return 0;
        ms = (int)(left * 1000) + 1;
    }
    int rc;
    while ((rc = poll(&p, 1, ms)) < 0) {}
    return rc;
}

/* The last result of the statement just sent (sent: whether it went),
 * waiting at most the statement timeout; NULL when the connection failed
 * or the time ran out (c->timed_out: then the connection is given up, its
 * state unknown). */
static PGresult *pg_do(struct pg_conn *c, int sent)
{
    c->timed_out = 0;
    if (!sent) return NULL;
    double deadline = iso_now() + (double)c->timeout_ms / 1000.0;
    PGresult *last = NULL;
    for (PGresult *r;;) {
        while (PQisBusy(c->pg)) {
            int rc = readable(c, deadline);
            if (rc == 0) c->timed_out = 1;
            if (rc <= 0 || !PQconsumeInput(c->pg)) {
                PQclear(last);
                PQfinish(c->pg);
                c->pg = NULL;
                return NULL;
            }
        }
        if (!(r = PQgetResult(c->pg))) return last;
        PQclear(last);
        last = r;
    }
}

static PGresult *pg_exec(struct pg_conn *c, const char *sql) { return pg_do(c, c->pg && PQsendQuery(c->pg, sql)); }

/* The SQLSTATEs with a class of their own; the rest by their first two
 * characters (08 connection, 57 operator intervention), or "error". */
static const char *class_of(const char *state)
{
    static const struct { const char *state, *name; } states[] = {
        {"40001", "serialization-failure"}, {"40P01", "deadlock"}, {"55P03", "lock-timeout"},
        {"57014", "timeout"}, {"25006", "read-only"}, {"23505", "unique-violation"},
    };
    for (size_t i = 0; state && i < sizeof states / sizeof states[0]; i++)
        if (strcmp(state, states[i].state) == 0) return states[i].name;
    if (state && (strncmp(state, "08", 2) == 0 || strncmp(state, "57", 2) == 0)) return "connection";
    return state ? "error" : "connection";
}

/* Whether the server is gone or going: the outcome of a COMMIT in flight
 * is then unknown. */
static int conn_lost(PGconn *pg, const char *state)
{
    return PQstatus(pg) == CONNECTION_BAD || !state || strncmp(state, "08", 2) == 0 ||
           strncmp(state, "57P", 3) == 0;
}

/* t's error from res (or from the connection, res NULL). */
static void db_error(struct pg_conn *c, txn *t, PGresult *res, const char *what)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    char shown[sizeof t->error];
    sql_message(shown, sizeof shown, msg ? msg : c->pg ? PQerrorMessage(c->pg) : "connection lost", &c->secrets);
    if (c->timed_out)
        txn_error(t, "timeout", NULL, "%s: no answer in %ld ms", what, c->timeout_ms);
    else
        txn_error(t, class_of(state), state, "%s: %s", what, shown);
}

static int ok_status(PGresult *res)
{
    ExecStatusType s = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
}

/* After an error before COMMIT: roll back (if the connection lives) and
 * fail, with no reads. */
/* Roll back (if the connection lives); reconnect when it does not. */
static void pg_rollback(void *conn, txn *t)
{
    struct pg_conn *c = conn;
    if (c->pg && PQstatus(c->pg) == CONNECTION_OK) PQclear(pg_exec(c, "ROLLBACK"));
    t->reconnect = !c->pg || PQstatus(c->pg) != CONNECTION_OK;
}

static int fail_txn(struct pg_conn *c, txn *t, PGresult *res, const char *what)
{
    txn_clear_reads(t);
    db_error(c, t, res, what);
    PQclear(res);
    pg_rollback(c, t);
    return TXN_FAIL;
}

static int pg_begin(void *conn, txn *t)
{
    struct pg_conn *c = conn;
    PGresult *res = pg_exec(c, c->begin);
    if (!ok_status(res)) return fail_txn(c, t, res, "begin");
    PQclear(res);
    return TXN_OK;
}

static void read_result(struct pg_conn *c, PGresult *res, txn *t, uint32_t i)
{
    int row = PQntuples(res) > 0 && !PQgetisnull(res, 0, 0);
    const char *v = row ? PQgetvalue(res, 0, 0) : NULL;
    if (c->list_append) {
        txn_read_list(t, i, v, row ? (size_t)PQgetlength(res, 0, 0) : 0);
    } else if (row) {
        t->mops[i].value = strtoll(v, NULL, 10);
        t->mops[i].nil = 0;
    }
}

static int pg_step(void *conn, txn *t, uint32_t i)
{
    struct pg_conn *c = conn;
    txn_mop *m = &t->mops[i];
    char key[24], value[24];
    snprintf(key, sizeof key, "%lld", (long long)m->key);
    snprintf(value, sizeof value, "%lld", (long long)m->value);
    const char *params[2] = {key, value};
    int read = m->f == TXN_R;
    PGresult *res = pg_do(c, c->pg && PQsendQueryPrepared(c->pg, read ? "r" : "w", read ? 1 : 2, params, NULL,
                                                          NULL, 0));
    if (!ok_status(res)) return fail_txn(c, t, res, read ? "read" : "write");
    if (read) read_result(c, res, t, i);
    PQclear(res);
    return TXN_OK;
}

static int pg_commit(void *conn, txn *t)
{
    struct pg_conn *c = conn;
    PGresult *res = pg_exec(c, "COMMIT");
    if (ok_status(res) && strcmp(PQcmdStatus(res), "COMMIT") == 0) {
        PQclear(res);
        return TXN_OK;
    }
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    if (ok_status(res)) { /* "ROLLBACK": the server had aborted it */
        PQclear(res);
        txn_clear_reads(t);
        txn_error(t, "error", NULL, "commit: the transaction was rolled back");
        return TXN_FAIL;
    }
    if (!conn_lost(c->pg, state)) return fail_txn(c, t, res, "commit");
    db_error(c, t, res, "commit");
    PQclear(res);
    return TXN_INFO;
}

static int pg_txn(void *conn, txn *t) { return run_driver_steps(&run_driver_postgres, conn, t); }

static void pg_close(void *conn)
{
    struct pg_conn *c = conn;
    PQfinish(c->pg);
    run_secrets_release(&c->secrets);
    iso_free(c);
}

/* The server's notices and warnings (a ROLLBACK after a failed COMMIT
 * finds no transaction) are not the run's output. */
static void ignore_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* Connect as PQconnectdbParams does, giving up after timeout_s, but with
 * the SQLSTATE in the server's messages (libpq tells a failed connection's
 * no other way). 0, or -1 (c->pg holds the failure, or is NULL). */
static int pg_connect(struct pg_conn *c, const char *url, long timeout_s)
{
    const char *keys[] = {"application_name", "dbname", NULL}, *values[] = {"isolde", url, NULL};
    if (!(c->pg = PQconnectStartParams(keys, values, 1))) return -1;
    PQsetErrorVerbosity(c->pg, PQERRORS_VERBOSE);
    double deadline = iso_now() + (double)timeout_s;
    for (PostgresPollingStatusType st = PGRES_POLLING_WRITING; st != PGRES_POLLING_OK;) {
        if (st == PGRES_POLLING_FAILED || PQstatus(c->pg) == CONNECTION_BAD) return -1;
        struct pollfd p = {PQsocket(c->pg), st == PGRES_POLLING_READING ? POLLIN : POLLOUT, 0};
        int ms = (int)((deadline - iso_now()) * 1000.0), rc = ms > 0 ? poll(&p, 1, ms) : 0;
        if (rc == 0) return -1;
        if (rc > 0) st = PQconnectPoll(c->pg);
    }
    PQsetErrorVerbosity(c->pg, PQERRORS_DEFAULT);
    return 0;
}

/* The SQLSTATE a verbose message names ("FATAL:  28P01: ..."), into state
 * (or ""), every such code and LOCATION line taken out of msg in place. */
static void take_sqlstate(char *msg, char state[6])
{
    state[0] = '\0';
    for (char *p = msg; (p = strstr(p, ":  ")); p += 3) {
        if (strspn(p + 3, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != 5 || strncmp(p + 8, ": ", 2) != 0) continue;
        if (!state[0]) snprintf(state, 6, "%.5s", p + 3);
        memmove(p + 3, p + 10, strlen(p + 10) + 1);
    }
    for (char *p; (p = strstr(msg, "LOCATION:  "));) {
        size_t cut = strcspn(p, "\n");
        cut += p[cut] == '\n';
        memmove(p, p + cut, strlen(p + cut) + 1);
    }
}

/* A connection to url, or -1 with err (every secret scrubbed). A rejected
 * URL and a failed authentication (SQLSTATE class 28) are usage errors,
 * never tried again. */
static int connect_to(const run_env *env, const char *url, struct pg_conn *c, isolde_error *err)
{
    const struct sql_config *cf = env->config;
    char *why = NULL, shown[256], msg[512], state[6] = "";
    run_secrets_of_url(&c->secrets, url);
    const char *env_pw = getenv("PGPASSWORD");
    run_secrets_add(&c->secrets, env_pw, env_pw ? strlen(env_pw) : 0);
    run_url_redact(url, shown, sizeof shown);
    if (run_url_ambiguous(url))
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "postgres: %s: %s", shown, RUN_URL_AMBIGUOUS);
    PQconninfoOption *parsed = PQconninfoParse(url, &why);
    PQconninfoFree(parsed);
    if (!parsed) {
        sql_message(msg, sizeof msg, why ? why : "out of memory", &c->secrets);
        PQfreemem(why);
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "postgres: not a connection URL: %s: %s", shown, msg);
    }
    if (pg_connect(c, url, cf->connect_timeout_s) == 0) {
        PQsetNoticeProcessor(c->pg, ignore_notice, NULL);
        return 0;
    }
    char *text = iso_xstrdup(!c->pg ? "out of memory" : PQstatus(c->pg) == CONNECTION_BAD ? PQerrorMessage(c->pg)
                                                                                          : "timeout expired");
    take_sqlstate(text, state);
    sql_message(msg, sizeof msg, text, &c->secrets);
    iso_free(text);
    PQfinish(c->pg);
    c->pg = NULL;
    if (strncmp(state, "28", 2) == 0)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "postgres: cannot connect to %s: %s (SQLSTATE %s: not "
                        "tried again)", shown, msg, state);
    return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "postgres: cannot connect to %s: %s", shown, msg);
}

/* Whether res worked; else -1 with err (what failed, the server's words). */
static int res_ok(struct pg_conn *c, PGresult *res, const char *what, isolde_error *err)
{
    int ok = ok_status(res);
    char msg[512];
    if (!ok) sql_message(msg, sizeof msg, res ? PQresultErrorMessage(res) : PQerrorMessage(c->pg), &c->secrets);
    PQclear(res);
    if (ok) return 0;
    return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "postgres: %s: %s", what, msg);
}

static int prepare(struct pg_conn *c, const char *table, isolde_error *err)
{
    char r[256], w[320];
    snprintf(r, sizeof r, "SELECT v FROM %s WHERE k = $1", table);
    snprintf(w, sizeof w, "INSERT INTO %s AS t (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET %s",
             table, c->list_append ? "v = t.v || ',' || excluded.v" : "v = excluded.v");
    if (res_ok(c, PQprepare(c->pg, "r", r, 1, NULL), "prepare", err) < 0) return -1;
    return res_ok(c, PQprepare(c->pg, "w", w, 2, NULL), "prepare", err);
}

static int pg_open(const run_env *env, int client, const char *url, void **out, isolde_error *err)
{
    (void)client;
    char table[64];
    if (sql_table(env, table, sizeof table, err)) return -1;
    struct pg_conn *c = iso_xcalloc(1, sizeof *c);
    c->list_append = gen_lists(env->o->workload);
    snprintf(c->begin, sizeof c->begin, "BEGIN ISOLATION LEVEL %s%s", sql_level_text(env->isolation),
             env->read_only ? " READ ONLY" : "");
    c->timeout_ms = env->o->txn_timeout_ms;
    const char *init = ((const struct sql_config *)env->config)->init_sql;
    if (connect_to(env, url, c, err) < 0 || prepare(c, table, err) < 0 ||
        (init && res_ok(c, PQexec(c->pg, init), "--init-sql", err) < 0)) {
        pg_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

/* The table, created if missing (dropped first with --fresh), and empty:
 * rows of an earlier run would read as values nobody wrote. */
static int make_table(struct pg_conn *c, const run_env *env, isolde_error *err)
{
    const struct sql_config *cf = env->config;
    char table[64], sql[256];
    if (sql_table(env, table, sizeof table, err)) return -1;
    snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS %s", table);
    if (cf->fresh && res_ok(c, PQexec(c->pg, sql), "drop table", err) < 0) return -1;
    snprintf(sql, sizeof sql, "CREATE TABLE IF NOT EXISTS %s (k bigint PRIMARY KEY, v %s NOT NULL)", table,
             c->list_append ? "text" : "bigint");
    if (res_ok(c, PQexec(c->pg, "SET client_min_messages = warning"), "set", err) < 0 ||
        res_ok(c, PQexec(c->pg, sql), "create table", err) < 0)
        return -1;
    snprintf(sql, sizeof sql, "SELECT 1 FROM %s LIMIT 1", table);
    PGresult *res = PQexec(c->pg, sql);
    int rows = ok_status(res) ? PQntuples(res) : 0;
    if (res_ok(c, res, "read table", err) < 0) return -1;
    if (rows)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0,
                        "postgres: table %s holds rows of an earlier run (--fresh drops it; "
                        "--table-prefix picks other tables)", table);
    return 0;
}

/* Once, on the first endpoint (the others are nodes of the same
 * database); the runner tries again until its reconnect deadline. */
static int pg_setup(const run_env *env, isolde_error *err)
{
    struct pg_conn c = {0};
    c.list_append = gen_lists(env->o->workload);
    int rc = connect_to(env, env->o->urls[0], &c, err) < 0 ? -1 : make_table(&c, env, err);
    PQfinish(c.pg);
    run_secrets_release(&c.secrets);
    return rc;
}

/* A hot standby runs no SERIALIZABLE transaction; REPEATABLE READ is the
 * strongest it has. */
static const char *pg_read_level(const char *level)
{
    return level && strcmp(level, "serializable") == 0 ? "repeatable-read" : level;
}

const run_driver run_driver_postgres = {
    {"postgres", "PostgreSQL through libpq, one connection per client",
     "a libpq URL or conninfo: postgresql://USER[:PASSWORD]@HOST[:PORT]/DB, and after a ? libpq's "
     "parameters joined by & (sslmode=verify-full&sslrootcert=CA)",
     "serializable", sql_levels},
    sizeof(struct sql_config), sql_options, SQL_N_OPTIONS,
    pg_setup, pg_open, pg_txn, pg_close, NULL, pg_begin, pg_step, pg_commit, pg_read_level, 0, pg_rollback};
#endif
