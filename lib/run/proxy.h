/*
 * run/proxy.h -- a run's fault proxy (proxy.c): started when the run asks
 * for it (--proxy) or for a kind that needs it, one link per endpoint
 * (node "n" and the URL's place) and the --peer links, the clients' URLs
 * rewritten to go through it.
 */
#ifndef ISO_RUN_PROXY_H
#define ISO_RUN_PROXY_H

#include "core/core.h"
#include "nemesis/proxy.h"

typedef struct run_proxy {
    nem_proxy *p;             /* NULL: the run has no proxy */
    char **urls;              /* the URLs the clients connect to */
    size_t n_urls;
} run_proxy;

/* Start o's proxy, if it wants one (else rp->p stays NULL and rp->urls
 * are o's); -1 with err (which never quotes a URL's password). */
int run_proxy_start(const isolde_run_opts *o, run_proxy *rp, isolde_error *err);
/* Stop the proxy and free what start made. */
void run_proxy_stop(run_proxy *rp);

#endif
