/*
 * run/drivers/mysql.c -- MariaDB and MySQL through MariaDB Connector/C:
 * one connection per client, each at the run's level for its session.
 * Lists live in PREFIXla(k bigint, v text) as "1,2,3" and an append is
 * one upsert that concatenates onto the stored list (a locking write, so
 * two concurrent appends conflict on the row); registers are plain rows
 * of PREFIXrw(k bigint, v bigint). Statements carry integers only.
 *
 * URL: mysql://USER[:PASSWORD]@HOST[:PORT]/DB[?ssl=1&ssl-ca=FILE&
 * ssl-verify=1&ssl-cert=F&ssl-key=F&password-file=F]; without a password
 * in the URL, MYSQL_PWD or the password file's first line. A parameter it
 * does not take, one given twice, or a value it does not read is a usage
 * error (as libpq has it): a misspelt TLS option never means no TLS.
 *
 * Outcomes: a server error before COMMIT rolls back and is a fail, with
 * the server's code (1213 deadlock, 1205 lock-timeout, 1020
 * serialization-failure: MariaDB's snapshot-isolation conflict); a
 * connection lost before COMMIT is sent is a fail; a client error
 * (2000-2999: the connection went) during COMMIT is an info. No message
 * that leaves this file holds the password.
 */
#ifdef ISO_HAVE_MARIADB
#include <mysql.h>
#include <errmsg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/names.h"
#include "run/drivers/sql.h"
#include "run/drivers/url.h"

struct my_conn {
    MYSQL *my;
    int list_append;
    char table[64];
    char *password;      /* the one given (URL, MYSQL_PWD, file), or NULL */
    run_secrets secrets; /* every password known, scrubbed from messages */
    char sql[256];
};

static const char *class_of(unsigned code)
{
    switch (code) {
    case 1213: return "deadlock";
    case 1205: return "lock-timeout";
    case 1020: return "serialization-failure";
    case 1792: return "read-only";
    case 1047: return "unavailable"; /* Galera: the node is not ready */
    default: return code >= CR_MIN_ERROR && code <= CR_MAX_ERROR ? "connection" : "error";
    }
}

static void db_error(struct my_conn *c, txn *t, const char *what)
{
    unsigned code = mysql_errno(c->my);
    char num[16], shown[sizeof t->error];
    snprintf(num, sizeof num, "%u", code);
    sql_message(shown, sizeof shown, mysql_error(c->my), &c->secrets);
    txn_error(t, class_of(code), num, "%s: %s", what, shown);
}

/* Run sql; 0 or the server's (or client's) error code. */
static unsigned query(struct my_conn *c, const char *sql)
{
    return mysql_real_query(c->my, sql, strlen(sql)) ? (mysql_errno(c->my) ? mysql_errno(c->my) : 1) : 0;
}

/* Roll back; reconnect when the connection is gone. */
static void my_rollback(void *conn, txn *t)
{
    unsigned code = query(conn, "ROLLBACK");
    t->reconnect = code >= CR_MIN_ERROR && code <= CR_MAX_ERROR;
}

static int fail_txn(struct my_conn *c, txn *t, const char *what)
{
    unsigned code = mysql_errno(c->my);
    txn_clear_reads(t);
    db_error(c, t, what);
    my_rollback(c, t);
    t->reconnect |= code >= CR_MIN_ERROR && code <= CR_MAX_ERROR;
    return TXN_FAIL;
}

static int my_begin(void *conn, txn *t)
{
    struct my_conn *c = conn;
    return query(c, "START TRANSACTION") ? fail_txn(c, t, "begin") : TXN_OK;
}

/* The read's row: its one value, or no row. */
static int read_row(struct my_conn *c, txn *t, uint32_t i)
{
    MYSQL_RES *res = mysql_store_result(c->my);
    if (!res) return -1;
    MYSQL_ROW row = mysql_fetch_row(res);
    unsigned long *len = row ? mysql_fetch_lengths(res) : NULL;
    const char *v = row && row[0] ? row[0] : NULL;
    if (c->list_append) {
        txn_read_list(t, i, v, v ? (size_t)len[0] : 0);
    } else if (v) {
        t->mops[i].value = strtoll(v, NULL, 10);
        t->mops[i].nil = 0;
    }
    mysql_free_result(res);
    return 0;
}

static int my_step(void *conn, txn *t, uint32_t i)
{
    struct my_conn *c = conn;
    const txn_mop *m = &t->mops[i];
    long long k = (long long)m->key, v = (long long)m->value;
    if (m->f == TXN_R)
        snprintf(c->sql, sizeof c->sql, "SELECT v FROM %s WHERE k = %lld", c->table, k);
    else if (c->list_append)
        snprintf(c->sql, sizeof c->sql,
                 "INSERT INTO %s (k, v) VALUES (%lld, '%lld') ON DUPLICATE KEY UPDATE v = CONCAT(v, ',', VALUES(v))",
                 c->table, k, v);
    else
        snprintf(c->sql, sizeof c->sql, "INSERT INTO %s (k, v) VALUES (%lld, %lld) ON DUPLICATE KEY UPDATE v = VALUES(v)",
                 c->table, k, v);
    if (query(c, c->sql)) return fail_txn(c, t, m->f == TXN_R ? "read" : "write");
    if (m->f == TXN_R && read_row(c, t, i) < 0) return fail_txn(c, t, "read");
    return TXN_OK;
}

static int my_commit(void *conn, txn *t)
{
    struct my_conn *c = conn;
    unsigned code = query(c, "COMMIT");
    if (!code) return TXN_OK;
    if (code < CR_MIN_ERROR || code > CR_MAX_ERROR) return fail_txn(c, t, "commit");
    db_error(c, t, "commit");
    return TXN_INFO;
}

static int my_txn(void *conn, txn *t) { return run_driver_steps(&run_driver_mysql, conn, t); }

static void my_close(void *conn)
{
    struct my_conn *c = conn;
    if (c->my) mysql_close(c->my);
    run_secrets_release(&c->secrets);
    iso_free(c->password);
    iso_free(c);
}

/* The URL's parameters this driver takes: a flag or a file. */
static const struct { const char *name; int flag; } params[] = {
    {"ssl", 1}, {"ssl-verify", 1}, {"ssl-ca", 0}, {"ssl-cert", 0}, {"ssl-key", 0}, {"password-file", 0},
};
#define N_PARAMS (sizeof params / sizeof params[0])

static const char *param_at(size_t i, void *arg)
{
    (void)arg;
    return i < N_PARAMS ? params[i].name : NULL;
}

/* A flag's value: 1 (1, true, on), 0 (0, false, off) or -1. */
static int flag(const char *v)
{
    if (!v) return 0;
    if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "on")) return 1;
    return !strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "off") ? 0 : -1;
}

static int unknown_param(const char *key, isolde_error *err)
{
    const char *close = iso_closest_name(key, param_at, NULL);
    if (close)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "mysql: unknown URL parameter '%.40s' (did you mean %s?)",
                        key, close);
    return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "mysql: unknown URL parameter '%.40s' (the URL takes ssl, "
                    "ssl-verify, ssl-ca, ssl-cert, ssl-key, password-file)", key);
}

/* 0 when every parameter of u is one of params, given once, with a value
 * it reads; else -1 with a usage error. */
static int check_params(const run_url *u, isolde_error *err)
{
    for (size_t i = 0; i < u->n_params; i++) {
        const char *k = u->keys[i], *v = u->values[i];
        size_t p = 0;
        while (p < N_PARAMS && strcmp(params[p].name, k) != 0) p++;
        if (p == N_PARAMS) return unknown_param(k, err);
        if (run_url_param(u, k) != v)
            return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "mysql: URL parameter %s given twice", k);
        if (params[p].flag && flag(v) < 0)
            return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "mysql: URL parameter %s takes 1, true or on, or 0, "
                            "false or off, not '%.20s'", k, v);
        if (!params[p].flag && !*v)
            return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "mysql: URL parameter %s names no file", k);
    }
    return 0;
}

/* The password file's first line, a new string; NULL if it cannot be read. */
static char *first_line(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f) return NULL;
    iso_buf line = {0};
    for (int ch; (ch = getc(f)) != EOF && ch != '\n';) {
        char b = (char)ch;
        iso_buf_put(&line, &b, 1);
    }
    fclose(f);
    size_t n = line.n;
    while (n && line.p[n - 1] == '\r') n--;
    char *out = iso_xstrndup(n ? line.p : "", n);
    iso_buf_free(&line);
    return out;
}

/* The password into c: the URL's, MYSQL_PWD, or password-file's first
 * line (NULL: none); every one known, and the URL's, kept as secrets. */
static int password_of(struct my_conn *c, const run_url *u, const char *url)
{
    const char *file = run_url_param(u, "password-file"), *env = getenv("MYSQL_PWD");
    run_secrets_of_url(&c->secrets, url);
    run_secrets_add(&c->secrets, env, env ? strlen(env) : 0);
    const char *given = u->password ? u->password : env;
    if (u->password || !file) c->password = given && *given ? iso_xstrdup(given) : NULL;
    else if (!(c->password = first_line(file))) return -1;
    if (c->password) run_secrets_add(&c->secrets, c->password, strlen(c->password));
    return 0;
}

/* TLS as the URL asks: ssl=1, or a CA, a certificate, a key. */
static void tls_options(MYSQL *my, const run_url *u)
{
    const char *ca = run_url_param(u, "ssl-ca"), *cert = run_url_param(u, "ssl-cert");
    const char *key = run_url_param(u, "ssl-key");
    if (flag(run_url_param(u, "ssl")) != 1 && !ca && !cert) return;
    my_bool on = 1, verify = flag(run_url_param(u, "ssl-verify")) == 1 || ca;
    mysql_ssl_set(my, key, cert, ca, NULL, NULL);
    mysql_optionsv(my, MYSQL_OPT_SSL_ENFORCE, &on);
    mysql_optionsv(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &verify);
}

/* Access denied: the credentials, which no retry changes. */
static int auth_error(unsigned code) { return code == 1045 || code == 1698; }

static int connect_fail(struct my_conn *c, const char *url, const char *why, isolde_status status,
                        isolde_error *err)
{
    char shown[256], msg[512];
    run_url_redact(url, shown, sizeof shown);
    sql_message(msg, sizeof msg, why, &c->secrets);
    return iso_fail(err, status, NULL, 0, 0, "mysql: cannot connect to %s: %s%s", shown, msg,
                    status == ISOLDE_ERR_USAGE && c->my ? " (not tried again)" : "");
}

static void set_timeouts(MYSQL *my, const run_env *env)
{
    const struct sql_config *cf = env->config;
    unsigned timeout = (unsigned)cf->connect_timeout_s;
    mysql_optionsv(my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    if (env->o->txn_timeout_ms > 0) { /* whole seconds: what the library takes */
        unsigned s = (unsigned)((env->o->txn_timeout_ms + 999) / 1000);
        mysql_optionsv(my, MYSQL_OPT_READ_TIMEOUT, &s);
        mysql_optionsv(my, MYSQL_OPT_WRITE_TIMEOUT, &s);
    }
}

/* A connection to url, or -1 with err (every secret scrubbed). A URL it
 * does not take and denied access are usage errors, never tried again. */
static int connect_to(const run_env *env, const char *url, struct my_conn *c, isolde_error *err)
{
    run_url u;
    char why[160];
    if (run_url_ambiguous(url)) snprintf(why, sizeof why, "%s", RUN_URL_AMBIGUOUS);
    if (run_url_ambiguous(url) || run_url_parse(url, &u, why, sizeof why) < 0) {
        run_secrets_of_url(&c->secrets, url);
        return connect_fail(c, url, why, ISOLDE_ERR_USAGE, err);
    }
    if (check_params(&u, err) < 0) return -1;
    if (password_of(c, &u, url) < 0)
        return connect_fail(c, url, "cannot read the password file", ISOLDE_ERR_USAGE, err);
    if (!(c->my = mysql_init(NULL))) return connect_fail(c, url, "out of memory", ISOLDE_ERR_NOMEM, err);
    set_timeouts(c->my, env);
    tls_options(c->my, &u);
    if (!mysql_real_connect(c->my, u.host, u.user, c->password, u.db, (unsigned)(u.port ? u.port : 3306), NULL,
                            0)) {
        int rc = connect_fail(c, url, mysql_error(c->my),
                              auth_error(mysql_errno(c->my)) ? ISOLDE_ERR_USAGE : ISOLDE_ERR_IO, err);
        mysql_close(c->my);
        c->my = NULL;
        return rc;
    }
    return 0;
}

/* Run sql; -1 with err (what failed, the server's words) unless it worked. */
static int run_sql(struct my_conn *c, const char *sql, const char *what, isolde_error *err)
{
    if (!query(c, sql)) return 0;
    char msg[512];
    sql_message(msg, sizeof msg, mysql_error(c->my), &c->secrets);
    return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "mysql: %s: %s", what, msg);
}

static int my_open(const run_env *env, int client, const char *url, void **out, isolde_error *err)
{
    (void)client;
    struct my_conn *c = iso_xcalloc(1, sizeof *c);
    c->list_append = gen_lists(env->o->workload);
    if (sql_table(env, c->table, sizeof c->table, err) < 0 || connect_to(env, url, c, err) < 0) {
        my_close(c);
        return -1;
    }
    const char *init = ((const struct sql_config *)env->config)->init_sql;
    snprintf(c->sql, sizeof c->sql, "SET SESSION TRANSACTION ISOLATION LEVEL %s", sql_level_text(env->isolation));
    if (run_sql(c, c->sql, "set isolation", err) < 0 || (init && run_sql(c, init, "--init-sql", err) < 0)) {
        my_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

/* The table, created if missing (dropped first with --fresh), and empty:
 * rows of an earlier run would read as values nobody wrote. */
static int make_table(struct my_conn *c, const run_env *env, isolde_error *err)
{
    const struct sql_config *cf = env->config;
    snprintf(c->sql, sizeof c->sql, "DROP TABLE IF EXISTS %s", c->table);
    if (cf->fresh && run_sql(c, c->sql, "drop table", err) < 0) return -1;
    snprintf(c->sql, sizeof c->sql, "CREATE TABLE IF NOT EXISTS %s (k BIGINT PRIMARY KEY, v %s NOT NULL) ENGINE=InnoDB",
             c->table, c->list_append ? "TEXT" : "BIGINT");
    if (run_sql(c, c->sql, "create table", err) < 0) return -1;
    snprintf(c->sql, sizeof c->sql, "SELECT 1 FROM %s LIMIT 1", c->table);
    if (run_sql(c, c->sql, "read table", err) < 0) return -1;
    MYSQL_RES *res = mysql_store_result(c->my);
    int rows = res && mysql_num_rows(res) > 0;
    if (res) mysql_free_result(res);
    if (rows)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0,
                        "mysql: table %s holds rows of an earlier run (--fresh drops it; "
                        "--table-prefix picks other tables)", c->table);
    return 0;
}

/* Once, before any client starts (the library's own set-up is not
 * thread-safe): on the first endpoint; the runner tries again until its
 * reconnect deadline. */
static int my_setup(const run_env *env, isolde_error *err)
{
    if (mysql_library_init(0, NULL, NULL)) return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "mysql: cannot start the library");
    struct my_conn c = {0};
    c.list_append = gen_lists(env->o->workload);
    int rc = sql_table(env, c.table, sizeof c.table, err) < 0 || connect_to(env, env->o->urls[0], &c, err) < 0
                 ? -1 : make_table(&c, env, err);
    if (c.my) mysql_close(c.my);
    run_secrets_release(&c.secrets);
    iso_free(c.password);
    return rc;
}

const run_driver run_driver_mysql = {
    {"mysql", "MariaDB or MySQL through MariaDB Connector/C, one connection per client",
     "mysql://USER[:PASSWORD]@HOST[:PORT]/DB, and after a ? any of ssl=1 ssl-ca=CA ssl-verify=1 "
     "password-file=F joined by &",
     "serializable", sql_levels},
    sizeof(struct sql_config), sql_options, SQL_N_OPTIONS,
    my_setup, my_open, my_txn, my_close, NULL, my_begin, my_step, my_commit, NULL, 0, my_rollback};
#endif
