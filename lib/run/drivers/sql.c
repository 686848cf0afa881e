/*
 * run/drivers/sql.c -- the pieces the SQL server drivers share (sql.h).
 * The invariant: a message that went through sql_scrub holds no copy of
 * the secret it was given.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "run/drivers/sql.h"

const char *const sql_levels[] = {"read-uncommitted", "read-committed", "repeatable-read", "serializable",
                                  NULL};

#define OPT(name, type, arg, dflt, help, field, lo, hi) \
    {{name, type, arg, dflt, help}, offsetof(struct sql_config, field), lo, hi, NULL}
const run_option sql_options[SQL_N_OPTIONS] = {
    OPT("table-prefix", ISOLDE_OPTION_STRING, "P", "isolde_", "the tables are Pla and Prw", table_prefix, 0, 0),
    OPT("fresh", ISOLDE_OPTION_FLAG, NULL, NULL, "drop the tables first (else they must be empty)", fresh, 0,
        1),
    OPT("connect-timeout", ISOLDE_OPTION_INT, "S", "5", "give up one connection attempt after S seconds",
        connect_timeout_s, 1, 3600),
    OPT("init-sql", ISOLDE_OPTION_STRING, "SQL", NULL,
        "a statement each new connection runs first (e.g. SET SESSION innodb_snapshot_isolation=ON)", init_sql,
        0, 0),
};

const char *sql_level_text(const char *level)
{
    static const char *const text[] = {"READ UNCOMMITTED", "READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE"};
    for (size_t i = 0; i < 4; i++)
        if (level && strcmp(level, sql_levels[i]) == 0) return text[i];
    return text[3];
}

int sql_table(const run_env *env, char *out, size_t n, isolde_error *err)
{
    const struct sql_config *cf = env->config;
    size_t len = strlen(cf->table_prefix);
    if (len == 0 || len > 40 || strspn(cf->table_prefix, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                         "0123456789_") != len)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0,
                        "--table-prefix takes 1 to 40 letters, digits or underscores");
    int la = gen_lists(env->o->workload);
    snprintf(out, n, "%s%s", cf->table_prefix, la ? "la" : "rw");
    return 0;
}

void sql_scrub(char *msg, const char *secret)
{
    size_t n = strlen(msg), k = secret ? strlen(secret) : 0;
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = '\0';
    size_t keep = k >= 3 ? 3 : k; /* "***" fits where the secret was */
    for (char *p = msg; k && (p = strstr(p, secret)); p += keep) {
        memset(p, '*', keep);
        memmove(p + keep, p + k, strlen(p + k) + 1);
    }
}
