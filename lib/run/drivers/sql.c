/*
 * run/drivers/sql.c -- the pieces the SQL server drivers share (sql.h).
 * The invariant: a message that went through sql_message holds no copy of
 * a secret it was given, not even a part of one that cutting it short
 * would leave (it is scrubbed whole, then cut).
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

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The line at *p, trimmed (its length in *n); *p moves past it. */
static const char *next_line(const char **p, size_t *n)
{
    const char *line = *p, *end = line + strcspn(line, "\n");
    *p = *end ? end + 1 : end;
    while (line < end && blank(*line)) line++;
    while (end > line && blank(end[-1])) end--;
    *n = (size_t)(end - line);
    return line;
}

/* Whether a line of msg before line says the same. */
static int repeated(const char *msg, const char *line, size_t n)
{
    for (const char *p = msg; p < line;) {
        size_t k;
        const char *earlier = next_line(&p, &k);
        if (earlier != line && k == n && memcmp(earlier, line, n) == 0) return 1;
    }
    return 0;
}

/* msg's lines joined into out (room for 2 * strlen(msg) + 1). */
static void join_lines(char *out, const char *msg)
{
    size_t k = 0, n;
    for (const char *p = msg; *p;) {
        const char *line = next_line(&p, &n);
        if (!n || repeated(msg, line, n)) continue;
        if (k) memcpy(out + k, "; ", 2), k += 2;
        for (size_t i = 0; i < n; i++) out[k++] = line[i] == '\t' ? ' ' : line[i];
    }
    out[k] = '\0';
}

void sql_message(char *out, size_t n, const char *msg, const run_secrets *secrets)
{
    size_t len = strlen(msg);
    char *clean = iso_xstrndup(msg, len), *joined = iso_xmalloc(2 * len + 1);
    if (secrets) run_secrets_scrub(secrets, clean);
    join_lines(joined, clean);
    snprintf(out, n, "%s", joined);
    iso_free(clean);
    iso_free(joined);
}
