/*
 * run/drivers/url.c -- database URLs taken apart, and shown without their
 * secrets. The invariant: run_url_redact's output never contains the
 * password of its input, whatever the input looks like (a URL that does
 * not parse keeps only its scheme).
 */
#include <stdio.h>
#include <string.h>
#include "run/drivers/url.h"

static int hex(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* s[0..n) percent-decoded into u->buf at *at; the copy, or NULL when the
 * buffer is full. */
static char *take(run_url *u, size_t *at, const char *s, size_t n)
{
    char *out = u->buf + *at;
    size_t k = *at;
    for (size_t i = 0; i < n; i++) {
        if (k + 1 >= sizeof u->buf) return NULL;
        int hi = s[i] == '%' && i + 2 < n ? hex(s[i + 1]) : -1;
        int lo = hi >= 0 ? hex(s[i + 2]) : -1;
        if (lo >= 0) {
            u->buf[k++] = (char)(hi * 16 + lo);
            i += 2;
        } else {
            u->buf[k++] = s[i];
        }
    }
    u->buf[k++] = '\0';
    *at = k;
    return out;
}

static int why_not(char *why, size_t n, const char *what)
{
    snprintf(why, n, "%s", what);
    return -1;
}

/* host[:port] or [v6][:port] in s[0..n). */
static int host_port(run_url *u, size_t *at, const char *s, size_t n, char *why, size_t n_why)
{
    const char *end = s + n, *colon = NULL;
    if (n && s[0] == '[') {
        const char *close = memchr(s, ']', n);
        if (!close) return why_not(why, n_why, "an IPv6 host without its ']'");
        u->host = take(u, at, s + 1, (size_t)(close - s - 1));
        colon = close + 1 < end && close[1] == ':' ? close + 1 : NULL;
    } else {
        colon = memchr(s, ':', n);
        u->host = take(u, at, s, (size_t)((colon ? colon : end) - s));
    }
    if (!u->host) return why_not(why, n_why, "too long");
    if (!colon) return 0;
    long port = 0;
    for (const char *p = colon + 1; p < end; p++) {
        if (*p < '0' || *p > '9' || (port = port * 10 + (*p - '0')) > 65535)
            return why_not(why, n_why, "the port is not a number from 1 to 65535");
    }
    if (colon + 1 == end || port == 0) return why_not(why, n_why, "the port is not a number from 1 to 65535");
    u->port = (int)port;
    return 0;
}

/* user[:password] in s[0..n). */
static int user_info(run_url *u, size_t *at, const char *s, size_t n)
{
    const char *colon = memchr(s, ':', n);
    size_t nu = colon ? (size_t)(colon - s) : n;
    u->user = take(u, at, s, nu);
    if (colon) u->password = take(u, at, colon + 1, n - nu - 1);
    return u->user && (!colon || u->password) ? 0 : -1;
}

/* k=v&k2=v2 in s. */
static int params(run_url *u, size_t *at, const char *s, char *why, size_t n_why)
{
    while (*s) {
        size_t n = strcspn(s, "&");
        const char *eq = memchr(s, '=', n);
        if (u->n_params == RUN_URL_MAX_PARAMS) return why_not(why, n_why, "too many parameters");
        size_t nk = eq ? (size_t)(eq - s) : n;
        char *k = take(u, at, s, nk), *v = take(u, at, eq ? eq + 1 : s + n, eq ? n - nk - 1 : 0);
        if (!k || !v) return why_not(why, n_why, "too long");
        u->keys[u->n_params] = k;
        u->values[u->n_params++] = v;
        s += n + (s[n] == '&');
    }
    return 0;
}

int run_url_parse(const char *url, run_url *u, char *why, size_t n_why)
{
    memset(u, 0, sizeof *u);
    const char *sep = strstr(url, "://");
    if (!sep || sep == url) return why_not(why, n_why, "not a URL (scheme://host...)");
    size_t at = 0;
    u->scheme = take(u, &at, url, (size_t)(sep - url));
    const char *a = sep + 3, *a_end = a + strcspn(a, "/?");
    const char *atsign = NULL;
    for (const char *p = a; p < a_end; p++)
        if (*p == '@') atsign = p;
    if (atsign && user_info(u, &at, a, (size_t)(atsign - a)) < 0) return why_not(why, n_why, "too long");
    const char *h = atsign ? atsign + 1 : a;
    if (host_port(u, &at, h, (size_t)(a_end - h), why, n_why) < 0) return -1;
    const char *q = strchr(a_end, '?');
    if (*a_end == '/') {
        size_t n = q ? (size_t)(q - a_end - 1) : strlen(a_end + 1);
        if (n && !(u->db = take(u, &at, a_end + 1, n))) return why_not(why, n_why, "too long");
    }
    return q ? params(u, &at, q + 1, why, n_why) : 0;
}

const char *run_url_param(const run_url *u, const char *key)
{
    for (size_t i = 0; i < u->n_params; i++)
        if (strcmp(u->keys[i], key) == 0) return u->values[i];
    return NULL;
}

/* Append s[0..n) to out at *k (cut to cap). */
static void put(char *out, size_t cap, size_t *k, const char *s, size_t n)
{
    for (size_t i = 0; i < n && *k + 1 < cap; i++) out[(*k)++] = s[i];
    out[*k] = '\0';
}

/* Whether the parameter q[0..n) is key=value with a key ending in
 * "password" (password, sslpassword). */
static size_t secret_key(const char *q, size_t n)
{
    const char *eq = memchr(q, '=', n);
    size_t nk = eq ? (size_t)(eq - q) : 0;
    return nk >= 8 && strncmp(eq - 8, "password", 8) == 0 ? nk + 1 : 0;
}

/* The query part with every password value replaced. */
static void redact_query(const char *q, char *out, size_t cap, size_t *k)
{
    while (*q) {
        size_t n = strcspn(q, "&"), keep = secret_key(q, n);
        put(out, cap, k, q, keep ? keep : n);
        if (keep) put(out, cap, k, "***", 3);
        q += n;
        if (*q == '&') put(out, cap, k, q++, 1);
    }
}

void run_url_redact(const char *url, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    const char *sep = strstr(url, "://");
    if (!sep) { /* no URL: only a key=value connection string can hold a secret */
        const char *pw = strstr(url, "password=");
        put(out, cap, &k, url, pw ? (size_t)(pw - url) + 9 : strlen(url));
        if (pw) put(out, cap, &k, "*** ...", 7);
        return;
    }
    const char *a = sep + 3, *a_end = a + strcspn(a, "/?"), *atsign = NULL;
    for (const char *p = a; p < a_end; p++)
        if (*p == '@') atsign = p;
    const char *colon = atsign ? memchr(a, ':', (size_t)(atsign - a)) : NULL;
    put(out, cap, &k, url, (size_t)((colon ? colon : a_end) - url));
    if (colon) {
        put(out, cap, &k, ":***", 4);
        put(out, cap, &k, atsign, (size_t)(a_end - atsign));
    }
    const char *q = strchr(a_end, '?');
    put(out, cap, &k, a_end, q ? (size_t)(q - a_end) : strlen(a_end));
    if (q) {
        put(out, cap, &k, "?", 1);
        redact_query(q + 1, out, cap, &k);
    }
}

void run_url_node(const char *url, char *out, size_t n)
{
    run_url u;
    char why[64];
    out[0] = '\0';
    if (run_url_parse(url, &u, why, sizeof why) < 0 || !u.host) return;
    if (u.port) snprintf(out, n, "%s:%d", u.host, u.port);
    else snprintf(out, n, "%s", u.host);
}

int run_url_rehost(const char *url, const char *hostport, char *out, size_t n)
{
    const char *sep = strstr(url, "://");
    if (!sep) return -1;
    const char *a = sep + 3, *a_end = a + strcspn(a, "/?"), *h = a;
    for (const char *p = a; p < a_end; p++)
        if (*p == '@') h = p + 1;
    int k = snprintf(out, n, "%.*s%s%s", (int)(h - url), url, hostport, a_end);
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

int run_url_port(const run_url *u)
{
    if (u->port) return u->port;
    if (!u->scheme) return 0;
    if (!strcmp(u->scheme, "mysql") || !strcmp(u->scheme, "mariadb")) return 3306;
    if (!strcmp(u->scheme, "postgres") || !strcmp(u->scheme, "postgresql")) return 5432;
    return 0;
}
