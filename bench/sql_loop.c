/*
 * bench/sql_loop.c -- the baseline for the SQL runners' speed: a bare
 * client loop that sends the same statements isolde run sends (the same
 * generator, seed and transactions; BEGIN, one statement per micro-op,
 * COMMIT, ROLLBACK after an error) from the same number of connections,
 * then the same final reads on one more, and records nothing. Prints transactions per second.
 * Usage: sql_loop postgres|mysql URL CLIENTS TXNS LEVEL KEYS
 * (the tables isolde_la must exist: run isolde once first).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen/gen.h"
#include "run/drivers/url.h"
#ifdef ISO_HAVE_LIBPQ
#include <libpq-fe.h>
#endif
#ifdef ISO_HAVE_MARIADB
#include <mysql.h>
#endif

static gen g;
static const char *kind, *url, *level;
static long done;

static int final_phase; /* the clients are done: the final reads */

#if defined(ISO_HAVE_LIBPQ) || defined(ISO_HAVE_MARIADB) /* the clients below */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int next(txn *t)
{
    pthread_mutex_lock(&lock);
    int go = final_phase ? gen_final(&g, t) : gen_next(&g, t);
    done += go;
    pthread_mutex_unlock(&lock);
    return go;
}
#endif

#ifdef ISO_HAVE_LIBPQ
static int pg_ok(PGresult *r)
{
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    PQclear(r);
    return ok;
}

static void *pg_client(void *arg)
{
    (void)arg;
    PGconn *c = PQconnectdb(url);
    char begin[64];
    snprintf(begin, sizeof begin, "BEGIN ISOLATION LEVEL %s", level);
    PQprepare(c, "r", "SELECT v FROM isolde_la WHERE k = $1", 1, NULL);
    PQprepare(c, "w", "INSERT INTO isolde_la AS t (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET "
                      "v = t.v || ',' || excluded.v", 2, NULL);
    txn t = {0};
    while (next(&t)) {
        int ok = pg_ok(PQexec(c, begin));
        for (uint32_t i = 0; ok && i < t.n; i++) {
            char k[24], v[24];
            snprintf(k, sizeof k, "%lld", (long long)t.mops[i].key);
            snprintf(v, sizeof v, "%lld", (long long)t.mops[i].value);
            const char *p[2] = {k, v};
            int r = t.mops[i].f == TXN_R;
            ok = pg_ok(PQexecPrepared(c, r ? "r" : "w", r ? 1 : 2, p, NULL, NULL, 0));
        }
        pg_ok(PQexec(c, ok ? "COMMIT" : "ROLLBACK"));
    }
    txn_release(&t);
    PQfinish(c);
    return NULL;
}
#endif

#ifdef ISO_HAVE_MARIADB
static void *my_client(void *arg)
{
    (void)arg;
    run_url u;
    char why[64], sql[256];
    run_url_parse(url, &u, why, sizeof why);
    MYSQL *m = mysql_init(NULL);
    mysql_real_connect(m, u.host, u.user, u.password, u.db, (unsigned)u.port, NULL, 0);
    snprintf(sql, sizeof sql, "SET SESSION TRANSACTION ISOLATION LEVEL %s", level);
    mysql_query(m, sql);
    txn t = {0};
    while (next(&t)) {
        int ok = mysql_query(m, "START TRANSACTION") == 0;
        for (uint32_t i = 0; ok && i < t.n; i++) {
            long long k = (long long)t.mops[i].key, v = (long long)t.mops[i].value;
            if (t.mops[i].f == TXN_R) snprintf(sql, sizeof sql, "SELECT v FROM isolde_la WHERE k = %lld", k);
            else
                snprintf(sql, sizeof sql, "INSERT INTO isolde_la (k, v) VALUES (%lld, '%lld') ON DUPLICATE KEY "
                                          "UPDATE v = CONCAT(v, ',', VALUES(v))", k, v);
            ok = mysql_real_query(m, sql, strlen(sql)) == 0;
            MYSQL_RES *res = ok && t.mops[i].f == TXN_R ? mysql_store_result(m) : NULL;
            if (res) mysql_free_result(res);
        }
        mysql_query(m, ok ? "COMMIT" : "ROLLBACK");
    }
    txn_release(&t);
    mysql_close(m);
    return NULL;
}
#endif

int main(int argc, char **argv)
{
    if (argc != 7) return fprintf(stderr, "usage: sql_loop postgres|mysql URL CLIENTS TXNS LEVEL KEYS\n"), 2;
    kind = argv[1], url = argv[2], level = argv[5];
    int clients = atoi(argv[3]);
    isolde_run_opts o;
    isolde_run_opts_init(&o);
    o.txns = atol(argv[4]);
    o.keys = atoi(argv[6]);
    gen_params p;
    gen_params_of(&o, &p);
    gen_init(&g, &p);
    void *(*client)(void *) = NULL;
#ifdef ISO_HAVE_LIBPQ
    if (!strcmp(kind, "postgres")) client = pg_client;
#endif
#ifdef ISO_HAVE_MARIADB
    if (!strcmp(kind, "mysql")) client = mysql_library_init(0, NULL, NULL) ? NULL : my_client;
#endif
    if (!client) return fprintf(stderr, "sql_loop: %s is not built in\n", kind), 2;
    pthread_t tids[256];
    double t0 = iso_now();
    for (int i = 0; i < clients && i < 256; i++) pthread_create(&tids[i], NULL, client, NULL);
    for (int i = 0; i < clients && i < 256; i++) pthread_join(tids[i], NULL);
    final_phase = 1; /* then the final reads on a connection of their own, as isolde run does */
    pthread_create(&tids[0], NULL, client, NULL);
    pthread_join(tids[0], NULL);
    double s = iso_now() - t0;
    printf("%ld txns in %.2f s, %.0f txns/s\n", done, s, done / s);
    return 0;
}
