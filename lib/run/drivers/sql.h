/*
 * run/drivers/sql.h -- what the SQL server drivers (postgres.c, mysql.c)
 * share: their options (one config struct, one table), the isolation
 * levels by their SQL names, the table names under the user's prefix,
 * and the server's messages made fit to show: every secret taken out
 * before they go anywhere, on one line.
 */
#ifndef ISO_RUN_SQL_H
#define ISO_RUN_SQL_H

#include "run/drivers/driver.h"
#include "run/drivers/url.h"

struct sql_config {
    const char *table_prefix; /* [A-Za-z0-9_]{1,40}: tables PREFIXla, PREFIXrw */
    int fresh;                /* drop the tables first */
    long connect_timeout_s;
    const char *init_sql;     /* run on each new connection, or NULL */
};

#define SQL_N_OPTIONS 4
extern const run_option sql_options[SQL_N_OPTIONS];
/* read-uncommitted, read-committed, repeatable-read, serializable. */
extern const char *const sql_levels[];

/* "READ COMMITTED" for "read-committed". */
const char *sql_level_text(const char *level);
/* The table of the run's workload: PREFIXla or PREFIXrw, into out; -1
 * with err when the prefix is not [A-Za-z0-9_]{1,40}. */
int sql_table(const run_env *env, char *out, size_t n, isolde_error *err);
/* msg as it may be shown, into out (cut to n only once it is clean):
 * every one of the secrets replaced by "***", its lines joined with "; "
 * (each trimmed; empty ones and repeats of an earlier one dropped: libpq
 * says the same for each attempt), tabs as spaces. */
void sql_message(char *out, size_t n, const char *msg, const run_secrets *secrets);

#endif
