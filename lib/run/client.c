/*
 * run/client.c -- one client of a run: its endpoints (its --url, and its
 * --read-url for read-only transactions), their connections, and its
 * loop: take a transaction from the generator under the run's lock, run
 * it through the driver, record its completion and take the next one in
 * the same critical section (both lines in one copy: record/lines.h). A
 * completion is in the file before its client goes on. After an info the
 * client reconnects under a new process id (after a fail whose
 * connection is gone, under the same one); a connection that cannot be
 * opened is tried again until the run's reconnect deadline (run_open), so
 * a database that restarts does not end the run.
 */
#include <string.h>
#include "history/history.h"
#include "record/lines.h"
#include "run/drivers/url.h"
#include "run/run_int.h"

struct client {
    struct run_ctx *x;
    int64_t process;
    int final;        /* the final reads, not the workload */
    txn t;
    rec_lines lines;  /* t's lines */
    struct endpoint {
        const run_env *env;
        const char *url;
        const char *via;  /* what it connects to: url, or url through the proxy */
        void *conn;       /* NULL until opened */
        iso_buf fields;   /* ,"node":"host:port" on every line of its
                             transactions (and ,"isolation":L with
                             --read-url); empty if the endpoint names no node */
    } ep[2];          /* 0: every transaction; 1: --read-url's, read-only ones */
    int n_ep, at;     /* at: the endpoint of the transaction in t */
};

/* Take the next transaction and write its invocation line at p (lock
 * held; rec_lines made room there). Returns the line's end, or NULL when
 * there is no transaction. */
static char *invoke_locked(struct client *c, char *p, int64_t now)
{
    struct run_shared *sh = c->x->sh;
    const isolde_run_opts *o = c->x->o;
    int late = !c->final && o->time_limit > 0 && iso_now() - sh->t0 >= o->time_limit;
    if (late && sh->g.made < sh->g.p.txns) sh->st.time_limited = 1;
    int go = !sh->stop && !run_stop_asked(o) && !late &&
             (c->final ? sh->gen->final(&sh->g, &c->t) : sh->gen->next(&sh->g, &c->t));
    if (!go) return NULL;
    c->at = c->n_ep > 1 && !txn_writes(&c->t);
    if (!c->final) txn_flight_start(sh->flight, sh->n_flight, c->x->client, &c->t);
    return rec_invoke(&c->lines, p, sh->next_index++, c->process, &c->t, now, &c->ep[c->at].fields);
}

/* Take and record the next transaction alone (a client's first, or its
 * first after reconnecting); 0 when there is none. */
static int next_txn(struct client *c)
{
    struct run_shared *sh = c->x->sh;
    char *p = rec_invoke_room(&c->lines);
    run_lock(sh);
    char *end = invoke_locked(c, p, run_now_locked(sh));
    if (end) run_emit(sh, p, end, 0);
    pthread_mutex_unlock(&sh->lock);
    return end != NULL;
}

/* The counters of the run, t's outcome in them (lock held). */
static void count_locked(struct client *c, int outcome)
{
    struct run_shared *sh = c->x->sh;
    txn_count(&sh->st, outcome, &c->t);
    if (!c->final && txn_flight_end(sh->flight, c->x->client)) sh->st.contended++;
    if (outcome == TXN_INFO && !sh->first_info[0])
        snprintf(sh->first_info, sizeof sh->first_info, "%s", c->t.error[0] ? c->t.error : "no reason given");
}

/* Record the completion; unless it is an info (after which the client
 * reconnects first), take the next transaction in the same critical
 * section and record its invocation right after, both lines in one copy.
 * The index and time are given here, under the lock, so the file's order
 * is the order in which the ops happened: a completion is written after
 * its transaction ended, an invocation before its transaction starts.
 * Returns whether the client has a transaction to run. */
static int complete(struct client *c, int outcome)
{
    static const int types[] = {ISO_OP_OK, ISO_OP_FAIL, ISO_OP_INFO};
    struct run_shared *sh = c->x->sh;
    rec_complete_value(&c->lines, types[outcome], &c->t);
    char *end;
    run_lock(sh);
    int64_t now = run_now_locked(sh); /* one clock read for both ops */
    char *start = rec_complete(&c->lines, sh->next_index++, types[outcome], c->process, now,
                               &c->ep[c->at].fields, &end);
    count_locked(c, outcome);
    char *next = NULL;
    if (outcome == TXN_INFO) c->process = sh->next_process++;
    else next = invoke_locked(c, end, now);
    run_emit(sh, start, next ? next : end, 1);
    int go = next && !sh->hist.err;
    pthread_mutex_unlock(&sh->lock);
    return go;
}

static int stopping(void *arg)
{
    struct run_ctx *x = arg;
    run_lock(x->sh);
    int stop = x->sh->stop || run_stop_asked(x->o);
    pthread_mutex_unlock(&x->sh->lock);
    return stop;
}

/* Open the endpoint's connection (run_open); when that fails, the run
 * fails with the driver's last error. */
static int open_conn(struct run_ctx *x, struct endpoint *e)
{
    isolde_error err;
    if (run_open(x->drv, e->env, x->client, e->via, stopping, x, &e->conn, &err) == 0) return 0;
    run_lock(x->sh);
    run_fail_locked(x->sh, "%s", err.msg);
    pthread_mutex_unlock(&x->sh->lock);
    return -1;
}

/* The client's endpoints: its --url, and its --read-url if any (not for
 * the final reads: they must see every acknowledged write). Each line
 * names the endpoint's node, and with --read-url the level it runs at. */
static void endpoints(struct client *c)
{
    struct run_ctx *x = c->x;
    const isolde_run_opts *o = x->o;
    size_t k = (size_t)x->client;
    c->ep[0] = (struct endpoint){x->env, o->n_urls ? o->urls[k % o->n_urls] : NULL,
                                 o->n_urls ? x->urls[k % o->n_urls] : NULL, NULL, {0}};
    c->n_ep = 1;
    if (x->read_env && !c->final) /* the final reads see the primary */
        c->ep[c->n_ep++] = (struct endpoint){x->read_env, o->read_urls[k % o->n_read_urls],
                                             o->read_urls[k % o->n_read_urls], NULL, {0}};
    for (int i = 0; i < c->n_ep; i++) {
        char node[128];
        run_url_node(c->ep[i].url ? c->ep[i].url : "", node, sizeof node);
        rec_fields(&c->ep[i].fields, node, x->read_env ? c->ep[i].env->isolation : NULL);
        if (c->ep[i].fields.n > c->lines.fields_max) c->lines.fields_max = c->ep[i].fields.n;
    }
}

static void close_endpoints(struct client *c)
{
    for (int i = 0; i < c->n_ep; i++) {
        if (c->ep[i].conn) c->x->drv->close(c->ep[i].conn);
        iso_buf_free(&c->ep[i].fields);
    }
}

/* Transactions until there are no more: each on its endpoint's
 * connection, opened when first needed and again after an info, or after
 * a fail that lost it. The first connection is opened before the first
 * transaction is taken: a client that cannot connect invokes none. */
void run_client(struct run_ctx *x, int64_t process, int final)
{
    if (final) x->client = (int)process;
    struct client c = {.x = x, .process = process, .final = final, .lines = {.shape = x->sh->gen->shape}};
    endpoints(&c);
    int go = open_conn(x, &c.ep[0]) == 0 && next_txn(&c);
    while (go) { /* gen_next and gen_final leave t's reads clear */
        struct endpoint *e = &c.ep[c.at];
        if (!e->conn && open_conn(x, e) < 0) break;
        int outcome = x->drv->txn(e->conn, &c.t), lost = c.t.reconnect;
        go = complete(&c, outcome); /* after a fail, t is the next one */
        if (outcome != TXN_INFO && !lost) continue;
        x->drv->close(e->conn);
        e->conn = NULL;
        if (outcome == TXN_INFO) go = next_txn(&c);
    }
    close_endpoints(&c);
    txn_release(&c.t);
    rec_lines_free(&c.lines);
}
