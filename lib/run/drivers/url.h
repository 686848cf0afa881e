/*
 * run/drivers/url.h -- database URLs, scheme://user:password@host:port/db?k=v&k2=v2,
 * taken apart for drivers that do not parse them themselves, and shown
 * without their secrets: every URL that reaches an output, a log, a
 * history or an error message goes through run_url_redact first.
 */
#ifndef ISO_RUN_URL_H
#define ISO_RUN_URL_H

#include <stddef.h>

#define RUN_URL_MAX_PARAMS 16

/* A URL's parts, percent-decoded, in one buffer the struct owns. Absent
 * parts are NULL; port is 0 when none is given. */
typedef struct run_url {
    char *scheme, *user, *password, *host, *db;
    int port;
    size_t n_params;
    char *keys[RUN_URL_MAX_PARAMS], *values[RUN_URL_MAX_PARAMS];
    char buf[1024];
} run_url;

/* Take url apart; -1 with a reason in why (never quoting a password)
 * when it is not a URL of this shape. */
int run_url_parse(const char *url, run_url *u, char *why, size_t n_why);
/* The value of parameter key, or NULL. */
const char *run_url_param(const run_url *u, const char *key);
/* url with its password (in the user part, by every reading of where it
 * ends, or a *password= parameter, in a URL or a key=value string)
 * replaced by "***", into out (always terminated, cut to n). */
void run_url_redact(const char *url, char *out, size_t n);
/* Whether the readings of where url's user part ends disagree (a '/', '?'
 * or '@' in it not percent-encoded): a client library may then take part
 * of the password for a host, a port or a database, and show it. */
int run_url_ambiguous(const char *url);
#define RUN_URL_AMBIGUOUS \
    "where its user part ends is ambiguous: percent-encode a '/', '?' or '@' in the password (%2F, %3F, %40)"
/* Which node url names, for the history: "host:port" for a
 * scheme://host URL, or "" when it names none (a file, a command) or is
 * ambiguous. */
void run_url_node(const char *url, char *out, size_t n);

/* url with its host[:port] replaced by hostport (everything else, the
 * password too, as it was), into out; -1 when url is not scheme://... or
 * out is too small. */
int run_url_rehost(const char *url, const char *hostport, char *out, size_t n);
/* The port url names, or its scheme's (mysql, mariadb: 3306; postgres,
 * postgresql: 5432); 0 when neither says. */
int run_url_port(const run_url *u);

/* Secrets that must not be shown: new strings, longest first, freed by
 * run_secrets_release. A zeroed struct is empty. */
typedef struct run_secrets {
    char **s;
    size_t n, cap;
} run_secrets;
/* Add text[0..n) (nothing when it is empty, NULL or known). */
void run_secrets_add(run_secrets *s, const char *text, size_t n);
/* Add every password url holds, by every reading of it (as run_url_redact
 * finds them), as written and as decoded (percent-encoding, or a key=value
 * string's quotes and escapes); url may be NULL. */
void run_secrets_of_url(run_secrets *s, const char *url);
/* Replace every occurrence of every secret in msg by "***" (as many '*' as
 * a shorter secret has), in place; msg does not grow. */
void run_secrets_scrub(const run_secrets *s, char *msg);
void run_secrets_release(run_secrets *s);

#endif
