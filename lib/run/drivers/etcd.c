/*
 * run/drivers/etcd.c -- etcd v3 through its JSON gateway (/v3/kv/range,
 * put, txn, deleterange) over libcurl: one keep-alive connection per
 * client, single ops for the linearizability checker. A register is the
 * key PREFIX<k> (register and cas-register use k = 0, kv many keys);
 * values are decimal text. The gateway wants keys and values base64, sends
 * int64 as strings and omits default-valued fields: a missing key's range
 * has no "kvs", a txn whose compare failed has no "succeeded".
 *
 * Reads are etcd's linearizable reads, or with --read-consistency
 * serializable its "serializable": true ones (served by the member alone,
 * and so possibly stale). A cas is a txn: compare the value with the
 * expected one, put the new one on success.
 *
 * A request gives up after --txn-timeout (none by default: a paused
 * member is waited for). Outcomes: a cas whose compare failed is a fail
 * (cas-mismatch), and so is an error etcd gives before proposing the
 * request (no leader, too many requests); any other error, a timeout, a
 * connection lost or refused (libcurl may have sent the request on a
 * connection that died first: a member killed after applying it) is an
 * info for a write or cas, after which the runner reopens, waiting for
 * the member, and a fail for a read (a read changes nothing). The invariant: an ok op's result is
 * what the server answered, and nothing that may have been applied is
 * ever recorded as a fail.
 */
#ifdef ISO_HAVE_CURL
#include <curl/curl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/drivers/driver.h"

struct etcd_config {
    const char *read_consistency;
    const char *prefix;
};

/* Opening a connection (the probe) gives up after this long when the run
 * sets no --txn-timeout. */
#define OPEN_TIMEOUT_MS 5000

#define RESP_MAX 16384 /* a range of one key is far smaller */

struct etcd_conn {
    CURL *h;
    const struct etcd_config *cf;
    int serializable;
    long timeout_ms;         /* a request's (--txn-timeout); 0: none */
    char base[512];          /* the endpoint, without a trailing / */
    char body[1024];         /* the request */
    char resp[RESP_MAX + 1]; /* the answer, NUL-terminated */
    size_t n_resp;
    int too_long;            /* the answer did not fit */
    long http;               /* its HTTP status */
};

static const char *const consistencies[] = {"linearizable", "serializable", NULL};

#define OPT(name, type, arg, dflt, help, field, lo, hi, choices) \
    {{name, type, arg, dflt, help}, offsetof(struct etcd_config, field), lo, hi, choices}
static const run_option options[] = {
    OPT("read-consistency", ISOLDE_OPTION_STRING, "C", "linearizable",
        "linearizable, or serializable (etcd's \"serializable\": true reads, served by one member, may be stale)",
        read_consistency, 0, 0, consistencies),
    OPT("prefix", ISOLDE_OPTION_STRING, "P", "isolde/", "the registers are the keys P0, P1, ... (deleted first)",
        prefix, 0, 0, NULL),
};

/* ---- base64 and the gateway's JSON ---- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* s[0..n) as base64 at out (room for 4 * (n + 2) / 3 + 1 bytes). */
static char *put_b64(char *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)(unsigned char)s[i] << 16;
        if (i + 1 < n) v |= (uint32_t)(unsigned char)s[i + 1] << 8;
        if (i + 2 < n) v |= (unsigned char)s[i + 2];
        *out++ = b64[v >> 18];
        *out++ = b64[(v >> 12) & 63];
        *out++ = i + 1 < n ? b64[(v >> 6) & 63] : '=';
        *out++ = i + 2 < n ? b64[v & 63] : '=';
    }
    *out = '\0';
    return out;
}

/* The base64 text at s (up to its closing quote) decoded into out (n
 * bytes); its length, or -1 when it is not base64 or does not fit. */
static long get_b64(const char *s, char *out, size_t n)
{
    size_t len = 0;
    uint32_t v = 0;
    int bits = 0;
    for (; *s && *s != '"' && *s != '='; s++) {
        const char *c = strchr(b64, *s);
        if (!c) return -1;
        v = v << 6 | (uint32_t)(c - b64);
        bits += 6;
        if (bits < 8) continue;
        bits -= 8;
        if (len == n) return -1;
        out[len++] = (char)(v >> bits & 0xff);
    }
    return len;
}

/* Key k and value v as the gateway's base64 strings. */
static void key_b64(const struct etcd_conn *c, int64_t k, char *out)
{
    char text[160];
    int n = snprintf(text, sizeof text, "%s%lld", c->cf->prefix, (long long)k);
    put_b64(out, text, (size_t)n);
}

static void value_b64(int64_t v, char *out)
{
    char text[32];
    int n = snprintf(text, sizeof text, "%lld", (long long)v);
    put_b64(out, text, (size_t)n);
}

/* The string value of field name ("name":"...") in the answer, from
 * after at; NULL when absent. */
static const char *field_string(const char *at, const char *name)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", name);
    const char *p = strstr(at, pat);
    return p ? p + strlen(pat) : NULL;
}

/* ---- requests ---- */

static size_t on_data(char *data, size_t size, size_t n, void *arg)
{
    struct etcd_conn *c = arg;
    size_t len = size * n, room = RESP_MAX - c->n_resp;
    if (len > room) c->too_long = 1;
    memcpy(c->resp + c->n_resp, data, len < room ? len : room);
    c->n_resp += len < room ? len : room;
    c->resp[c->n_resp] = '\0';
    return len;
}

/* POST c->body to path, giving up after timeout_ms (0: never). TXN_OK
 * with the answer in c->resp (any HTTP status), else TXN_INFO (t's error
 * says why): even a refused connection may follow a request the member
 * applied, since libcurl sends a request again on a fresh connection when
 * the kept-alive one dies under it. */
static int post_within(struct etcd_conn *c, const char *path, long timeout_ms, txn *t)
{
    char url[600];
    snprintf(url, sizeof url, "%s%s", c->base, path);
    c->n_resp = 0;
    c->too_long = 0;
    c->resp[0] = '\0';
    curl_easy_setopt(c->h, CURLOPT_URL, url);
    curl_easy_setopt(c->h, CURLOPT_POSTFIELDS, c->body);
    curl_easy_setopt(c->h, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(c->h, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms ? timeout_ms : OPEN_TIMEOUT_MS);
    CURLcode rc = curl_easy_perform(c->h);
    c->http = 0;
    curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &c->http);
    if (rc == CURLE_OK && !c->too_long) return TXN_OK;
    if (rc == CURLE_OK)
        txn_error(t, "bad-answer", NULL, "etcd: an answer of over %d bytes", RESP_MAX);
    else
        txn_error(t, rc == CURLE_OPERATION_TIMEDOUT ? "timeout" : "connection", NULL, "etcd: %s",
                      curl_easy_strerror(rc));
    return TXN_INFO;
}

static int post(struct etcd_conn *c, const char *path, txn *t)
{
    return post_within(c, path, c->timeout_ms, t);
}

/* etcd errors given before a request is proposed: it was not applied. */
static int definite(const char *msg)
{
    static const char *const before[] = {"etcdserver: no leader", "etcdserver: too many requests",
                                         "etcdserver: request is too large", "etcdserver: not capable"};
    for (size_t i = 0; i < sizeof before / sizeof before[0]; i++)
        if (strncmp(msg, before[i], strlen(before[i])) == 0) return 1;
    return 0;
}

/* After an answer: TXN_OK when etcd did what was asked, else the error
 * etcd gave as t's (a fail when definite, or when only reading). */
static int answer(struct etcd_conn *c, txn *t, int reading)
{
    const char *msg = field_string(c->resp, "error");
    if (c->http == 200 && !msg && strstr(c->resp, "\"header\"")) return TXN_OK;
    char text[100] = "";
    if (msg) snprintf(text, sizeof text, "%.*s", (int)strcspn(msg, "\""), msg);
    char code[16];
    snprintf(code, sizeof code, "%ld", c->http);
    txn_error(t, "etcd", code, "etcd: %s", text[0] ? text : "an answer without a header");
    return reading || definite(text) ? TXN_FAIL : TXN_INFO;
}

/* The register read from the range answer: nil without kvs, else its
 * value. -1 (t's error) when the answer is not such. */
static int read_value(struct etcd_conn *c, txn_mop *m, txn *t)
{
    const char *kvs = strstr(c->resp, "\"kvs\"");
    if (!kvs) return m->nil = 1, 0;
    const char *v = field_string(kvs, "value");
    char text[32];
    long n = v ? get_b64(v, text, sizeof text - 1) : -1;
    char *end = NULL;
    if (n > 0) text[n] = '\0', m->value = strtoll(text, &end, 10);
    if (n <= 0 || *end) {
        txn_error(t, "bad-answer", NULL, "etcd: a value that is no integer this run wrote");
        return -1;
    }
    m->nil = 0;
    return 0;
}

static int etcd_read(struct etcd_conn *c, txn *t)
{
    txn_mop *m = &t->mops[0];
    char k[256];
    key_b64(c, m->key, k);
    snprintf(c->body, sizeof c->body, "{\"key\":\"%s\"%s}", k, c->serializable ? ",\"serializable\":true" : "");
    int rc = post(c, "/v3/kv/range", t);
    if (rc == TXN_OK) rc = answer(c, t, 1);
    if (rc == TXN_OK && read_value(c, m, t) < 0) rc = TXN_FAIL;
    return rc == TXN_OK ? TXN_OK : TXN_FAIL;
}

static int etcd_write(struct etcd_conn *c, txn *t)
{
    char k[256], v[64];
    key_b64(c, t->mops[0].key, k);
    value_b64(t->mops[0].value, v);
    snprintf(c->body, sizeof c->body, "{\"key\":\"%s\",\"value\":\"%s\"}", k, v);
    int rc = post(c, "/v3/kv/put", t);
    return rc == TXN_OK ? answer(c, t, 0) : rc;
}

static int etcd_cas(struct etcd_conn *c, txn *t)
{
    const txn_mop *m = &t->mops[0];
    char k[256], old[64], v[64];
    key_b64(c, m->key, k);
    value_b64(m->old, old);
    value_b64(m->value, v);
    snprintf(c->body, sizeof c->body,
             "{\"compare\":[{\"key\":\"%s\",\"target\":\"VALUE\",\"result\":\"EQUAL\",\"value\":\"%s\"}],"
             "\"success\":[{\"requestPut\":{\"key\":\"%s\",\"value\":\"%s\"}}]}",
             k, old, k, v);
    int rc = post(c, "/v3/kv/txn", t);
    if (rc == TXN_OK) rc = answer(c, t, 0);
    if (rc != TXN_OK || strstr(c->resp, "\"succeeded\":true")) return rc;
    txn_error(t, "cas-mismatch", NULL, "the value was not %lld", (long long)m->old);
    return TXN_FAIL;
}

static int etcd_txn(void *conn, txn *t)
{
    struct etcd_conn *c = conn;
    txn_clear_reads(t);
    t->mops[0].nil = 1;
    switch (t->mops[0].f) {
    case TXN_R: return etcd_read(c, t);
    case TXN_CAS: return etcd_cas(c, t);
    default: return etcd_write(c, t);
    }
}

/* ---- connections ---- */

static void etcd_close(void *conn)
{
    struct etcd_conn *c = conn;
    if (!c) return;
    if (c->h) curl_easy_cleanup(c->h);
    iso_free(c);
}

static int new_conn(const run_env *env, const char *url, struct etcd_conn **out, isolde_error *err)
{
    const struct etcd_config *cf = env->config;
    size_t n = url ? strlen(url) : 0;
    while (n && url[n - 1] == '/') n--;
    size_t np = strlen(cf->prefix);
    if (n == 0 || n >= sizeof ((struct etcd_conn *)0)->base || np == 0 || np > 100 ||
        (unsigned char)cf->prefix[np - 1] == 0xff ||
        (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0))
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0,
                        "etcd: --url takes a client URL, http://HOST:PORT (and --prefix 1 to 100 bytes)");
    struct etcd_conn *c = iso_xcalloc(1, sizeof *c);
    c->cf = cf;
    c->serializable = strcmp(cf->read_consistency, "serializable") == 0;
    memcpy(c->base, url, n);
    c->h = curl_easy_init();
    if (!c->h) return etcd_close(c), iso_fail(err, ISOLDE_ERR_NOMEM, NULL, 0, 0, "etcd: cannot start libcurl");
    c->timeout_ms = env->o->txn_timeout_ms > 0 ? env->o->txn_timeout_ms : 0;
    curl_easy_setopt(c->h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c->h, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c->h, CURLOPT_WRITEDATA, c);
    *out = c;
    return 0;
}

/* A request every member answers alone, leader or not: whether the
 * member is up. */
static int probe(struct etcd_conn *c, isolde_error *err)
{
    txn t = {0};
    snprintf(c->body, sizeof c->body, "{}");
    long within = c->timeout_ms ? c->timeout_ms : OPEN_TIMEOUT_MS;
    if (post_within(c, "/v3/maintenance/status", within, &t) == TXN_OK && c->http == 200) return 0;
    return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "%s", t.error[0] ? t.error : "etcd: the member is not up");
}

static int etcd_open(const run_env *env, int client, const char *url, void **out, isolde_error *err)
{
    (void)client;
    struct etcd_conn *c;
    if (new_conn(env, url, &c, err) < 0) return -1;
    if (probe(c, err) < 0) return etcd_close(c), -1;
    *out = c;
    return 0;
}

/* Once, on the first endpoint: delete the registers of an earlier run
 * (every key under the prefix), trying until the reconnect deadline. */
static int etcd_setup(const run_env *env, isolde_error *err)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    struct etcd_conn *c;
    if (new_conn(env, env->o->urls[0], &c, err) < 0) return -1;
    char k[256], end[256], last[160];
    size_t n = strlen(c->cf->prefix);
    memcpy(last, c->cf->prefix, n);
    last[n - 1]++; /* the first key past every key that starts with the prefix */
    put_b64(k, c->cf->prefix, n);
    put_b64(end, last, n);
    snprintf(c->body, sizeof c->body, "{\"key\":\"%s\",\"range_end\":\"%s\"}", k, end);
    double give_up = iso_now() + (double)env->o->reconnect_ms / 1000.0;
    txn t = {0};
    int rc;
    while ((rc = post_within(c, "/v3/kv/deleterange", OPEN_TIMEOUT_MS, &t)) != TXN_OK ||
           (rc = answer(c, &t, 0)) != TXN_OK) {
        if (iso_now() >= give_up) break;
        iso_sleep_ms(100);
    }
    etcd_close(c);
    return rc == TXN_OK ? 0 : iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "etcd: cannot clear the keys: %s", t.error);
}

const run_driver run_driver_etcd = {
    {"etcd", "etcd v3 through its JSON gateway (libcurl), one connection per client; single ops: -m register, "
             "cas-register or kv",
     "a member's client URL, http://HOST:PORT", NULL, NULL},
    sizeof(struct etcd_config), options, sizeof options / sizeof options[0],
    etcd_setup, etcd_open, etcd_txn, etcd_close, NULL, NULL, NULL, NULL, NULL, 1, NULL};
#endif
