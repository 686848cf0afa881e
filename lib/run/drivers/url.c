/*
 * run/drivers/url.c -- database URLs taken apart, shown without their
 * secrets, and the secrets a run knows scrubbed from what it shows. The
 * invariant: run_url_redact's output never contains the password of its
 * input, whatever the input looks like, nor does a message scrubbed of a
 * URL's secrets: a password is found by every reading a client library
 * may give the URL (user:password@ wherever the user part is taken to
 * end, every *password= parameter, libpq's key=value strings), and kept
 * as written and as the library decodes it, whatever its length.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "core/alloc.h"
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

/* ---- where a URL or a key=value string holds a password -------------- */

typedef void (*span_fn)(void *arg, const char *at, size_t n, int conninfo);

/* The last '@' in a[0..n), or SIZE_MAX. */
static size_t last_at(const char *a, size_t n)
{
    size_t at = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (a[i] == '@') at = i;
    return at;
}

/* Where the user part of scheme://user:password@host... (from a, after
 * "://") ends, by each reading (its writer may not have percent-encoded a
 * '/', '?' or '@' in it): the last '@' before the first '/', '?' or '#'
 * (RFC 3986), the first '@' before any '/' (libpq), the last '@' before
 * the first '?' or '#'; SIZE_MAX where a reading finds none. */
static void user_ends(const char *a, size_t ends[3])
{
    size_t first = strcspn(a, "@/");
    ends[0] = last_at(a, strcspn(a, "/?#"));
    ends[1] = a[first] == '@' ? first : SIZE_MAX;
    ends[2] = last_at(a, strcspn(a, "?#"));
}

/* The password by each reading: after the first ':' of the user part. */
static void userinfo_spans(const char *a, span_fn fn, void *arg)
{
    size_t ends[3], colon = strcspn(a, ":");
    user_ends(a, ends);
    for (int i = 0; i < 3; i++)
        if (ends[i] != SIZE_MAX && colon < ends[i]) fn(arg, a + colon + 1, ends[i] - colon - 1, 0);
}

int run_url_ambiguous(const char *url)
{
    const char *sep = strstr(url, "://");
    size_t ends[3];
    if (!sep) return 0;
    user_ends(sep + 3, ends);
    return ends[0] != ends[1] || ends[1] != ends[2];
}

/* Whether key[0..n) names a password (password, sslpassword). */
static int password_key(const char *key, size_t n)
{
    return n >= 8 && strncmp(key + n - 8, "password", 8) == 0;
}

/* Every KEY=VALUE after a '?' or '&' whose key names a password. */
static void query_spans(const char *s, span_fn fn, void *arg)
{
    for (const char *p = s; (p = strpbrk(p, "?&")); p++) {
        size_t nk = strcspn(p + 1, "=&#");
        if (p[1 + nk] == '=' && password_key(p + 1, nk)) fn(arg, p + 2 + nk, strcspn(p + 2 + nk, "&#"), 0);
    }
}

static int space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* A key=value string's value at s (quoted or not, '\\' escaping); its
 * length in *n, the text after it returned. */
static const char *conninfo_value(const char *s, const char **v, size_t *n)
{
    int quoted = *s == '\'';
    *v = s += quoted;
    while (*s && (quoted ? *s != '\'' : !space(*s))) s += s[0] == '\\' && s[1] ? 2 : 1;
    *n = (size_t)(s - *v);
    return s + (quoted && *s);
}

/* Every password = VALUE of libpq's key=value string s. */
static void conninfo_spans(const char *s, span_fn fn, void *arg)
{
    while (*s) {
        while (space(*s)) s++;
        const char *key = s;
        s += strcspn(s, "= \t\n\v\f\r");
        size_t nk = (size_t)(s - key);
        while (space(*s)) s++;
        if (*s != '=') continue; /* a key without a value: the next word */
        for (s++; space(*s);) s++;
        const char *v;
        size_t n;
        s = conninfo_value(s, &v, &n);
        if (password_key(key, nk)) fn(arg, v, n, 1);
    }
}

/* fn for every place url holds a password, by every reading of it. */
static void password_spans(const char *url, span_fn fn, void *arg)
{
    const char *sep = strstr(url, "://");
    if (!sep) {
        conninfo_spans(url, fn, arg);
        return;
    }
    userinfo_spans(sep + 3, fn, arg);
    query_spans(sep + 3, fn, arg);
}

struct marking {
    const char *from; /* the text the spans are found in */
    char *to;         /* where they are marked (the same text, or a copy) */
    char mark;
};

static void mark_span(void *arg, const char *at, size_t n, int conninfo)
{
    struct marking *m = arg;
    (void)conninfo;
    memset(m->to + (at - m->from), m->mark, n);
}

void isolde_url_hide_password(char *url)
{
    struct marking m = {url, url, '*'};
    if (url) password_spans(url, mark_span, &m);
}

/* Append s[0..n) to out at *k (cut to cap). */
static void put(char *out, size_t cap, size_t *k, const char *s, size_t n)
{
    for (size_t i = 0; i < n && *k + 1 < cap; i++) out[(*k)++] = s[i];
    out[*k] = '\0';
}

void run_url_redact(const char *url, char *out, size_t cap)
{
    size_t k = 0, n = strlen(url);
    char *marked = iso_xstrndup(url, n);
    struct marking m = {url, marked, '\001'};
    password_spans(url, mark_span, &m);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (marked[i] != '\001') put(out, cap, &k, marked + i, 1);
        else if (i == 0 || marked[i - 1] != '\001') put(out, cap, &k, "***", 3);
    }
    iso_free(marked);
}

/* ---- the secrets a run knows, and messages without them --------------- */

/* s[0..n) as its reader takes it: percent-decoded (a URL's), or with
 * '\\' escapes undone (a key=value string's); a new string. */
static char *unescaped(const char *s, size_t n, int conninfo)
{
    char *out = iso_xmalloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int hi = !conninfo && s[i] == '%' && i + 2 < n ? hex(s[i + 1]) : -1;
        int lo = hi >= 0 ? hex(s[i + 2]) : -1;
        if (lo >= 0) {
            out[k++] = (char)(hi * 16 + lo);
            i += 2;
        } else {
            i += conninfo && s[i] == '\\' && i + 1 < n;
            out[k++] = s[i];
        }
    }
    out[k] = '\0';
    return out;
}

static int known(const run_secrets *s, const char *text, size_t n)
{
    for (size_t i = 0; i < s->n; i++)
        if (strlen(s->s[i]) == n && memcmp(s->s[i], text, n) == 0) return 1;
    return 0;
}

void run_secrets_add(run_secrets *s, const char *text, size_t n)
{
    if (!text || !n || known(s, text, n)) return;
    ISO_GROW(s->s, s->cap, s->n + 1);
    size_t at = s->n++;
    for (; at > 0 && strlen(s->s[at - 1]) < n; at--) s->s[at] = s->s[at - 1]; /* longest first */
    s->s[at] = iso_xstrndup(text, n);
}

static void add_span(void *arg, const char *at, size_t n, int conninfo)
{
    run_secrets *s = arg;
    char *plain = unescaped(at, n, conninfo);
    run_secrets_add(s, at, n);
    run_secrets_add(s, plain, strlen(plain));
    iso_free(plain);
}

void run_secrets_of_url(run_secrets *s, const char *url)
{
    if (url) password_spans(url, add_span, s);
}

void run_secrets_scrub(const run_secrets *s, char *msg)
{
    for (size_t i = 0; i < s->n; i++) {
        size_t k = strlen(s->s[i]), keep = k >= 3 ? 3 : k; /* "***" fits where the secret was */
        for (char *p = msg; (p = strstr(p, s->s[i])); p += keep) {
            memset(p, '*', keep);
            memmove(p + keep, p + k, strlen(p + k) + 1);
        }
    }
}

void run_secrets_release(run_secrets *s)
{
    for (size_t i = 0; i < s->n; i++) iso_free(s->s[i]);
    iso_free(s->s);
    *s = (run_secrets){0};
}

void run_url_node(const char *url, char *out, size_t n)
{
    run_url u;
    char why[64];
    out[0] = '\0'; /* an ambiguous URL's host may be part of its password */
    if (run_url_ambiguous(url) || run_url_parse(url, &u, why, sizeof why) < 0 || !u.host) return;
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
