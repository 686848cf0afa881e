/*
 * run/proxy.c -- a run's fault proxy: a link per --url, from "clients" to
 * node nI (I the URL's place, from 1), listening on a free loopback port
 * and forwarding to the URL's host and port; the --peer links; the loop
 * on a thread of its own until the run ends. The clients get the URLs
 * with host:port rewritten to the proxy's, passwords and all, kept in
 * memory only: what the history and messages show is the original.
 */
#include <stdio.h>
#include <string.h>
#include "nemesis/nemesis.h"
#include "run/drivers/url.h"
#include "run/proxy.h"

/* The link for url number i; its proxied URL in rp->urls[i]. */
static int link_url(run_proxy *rp, const char *url, size_t i, isolde_error *err)
{
    run_url u;
    char why[128], target[128], to[16], via[64], redacted[512];
    run_url_redact(url, redacted, sizeof redacted);
    if (run_url_parse(url, &u, why, sizeof why) < 0 || !u.host || !run_url_port(&u))
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "--proxy needs a URL with a host and port, not %s", redacted);
    snprintf(target, sizeof target, "%s:%d", u.host, run_url_port(&u));
    snprintf(to, sizeof to, "n%zu", i + 1);
    int port;
    if (nem_proxy_link(rp->p, "clients", to, "127.0.0.1:0", target, &port, err) < 0) return -1;
    snprintf(via, sizeof via, "127.0.0.1:%d", port);
    size_t n = strlen(url) + sizeof via;
    rp->urls[i] = iso_xmalloc(n);
    if (run_url_rehost(url, via, rp->urls[i], n) < 0)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "cannot rewrite %s for the proxy", redacted);
    return 0;
}

int run_proxy_start(const isolde_run_opts *o, run_proxy *rp, isolde_error *err)
{
    memset(rp, 0, sizeof *rp);
    rp->urls = (char **)o->urls;
    rp->n_urls = o->n_urls;
    if (!o->faults.proxy && !nem_wants_proxy(o) && !o->faults.n_peers) return 0;
    if (!o->n_urls) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "--proxy needs --url");
    if (nem_proxy_new(&rp->p, err) < 0) return -1;
    rp->urls = iso_xcalloc(o->n_urls, sizeof *rp->urls);
    for (size_t i = 0; i < o->n_urls; i++)
        if (link_url(rp, o->urls[i], i, err) < 0) return run_proxy_stop(rp), -1;
    for (size_t i = 0; i < o->faults.n_peers; i++) {
        int port;
        if (nem_proxy_link_spec(rp->p, o->faults.peers[i], &port, err) < 0) return run_proxy_stop(rp), -1;
    }
    if (nem_proxy_start(rp->p, err) < 0) return run_proxy_stop(rp), -1;
    return 0;
}

void run_proxy_stop(run_proxy *rp)
{
    if (!rp->p) return;
    nem_proxy_free(rp->p);
    for (size_t i = 0; i < rp->n_urls; i++) iso_free(rp->urls[i]);
    iso_free(rp->urls);
    memset(rp, 0, sizeof *rp);
}
