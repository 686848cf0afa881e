/*
 * elle/elle.c -- the transactional pipeline: pair transactions, let the
 * workload infer data edges and direct anomalies, add process or real-time
 * order when a requested model needs it, search the graph for cycles, and
 * hand every finding, with the proof context, to the result.
 */
#include "elle/elle.h"
#include "elle/models.h"
#include "result/result.h"
#include "elle/search.h"
#include "graph/order.h"
#include "core/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ctx_jobs {
    iso_ctx *ctx, side;
    iso_ctx_job main_job, side_job;
    void *arg;
} ctx_jobs;

static void main_run(void *p)
{
    ctx_jobs *j = p;
    j->main_job(j->ctx, j->arg);
}

static void side_run(void *p)
{
    ctx_jobs *j = p;
    j->side_job(&j->side, j->arg);
}

void iso_ctx_both(iso_ctx *ctx, iso_ctx_job main_job, iso_ctx_job side_job, void *arg)
{
    ctx_jobs j = {ctx, *ctx, main_job, side_job, arg};
    j.side.findings = (iso_findings){0};
    iso_both(main_run, side_run, &j, iso_thread_count(ctx->opts->threads));
    iso_findings_join(&ctx->findings, &j.side.findings);
}

/* ---- options ------------------------------------------------------------- */

/* Calls each(name, len, arg) for every comma-separated, trimmed name. */
static int for_each_name(const char *list, int (*each)(const char *, void *), void *arg)
{
    char name[128];
    for (const char *p = list; *p;) {
        while (*p == ' ' || *p == ',') p++;
        size_t n = 0;
        while (p[n] && p[n] != ',') n++;
        size_t m = n;
        while (m && p[m - 1] == ' ') m--;
        if (m) {
            if (m >= sizeof name) m = sizeof name - 1;
            memcpy(name, p, m);
            name[m] = 0;
            if (each(name, arg)) return -1;
        }
        p += n;
    }
    return 0;
}

/* The names of -c or -a as they parse into a request; the first unknown name. */
typedef struct names {
    iso_request *req;
    char bad[128];
} names;

static int unknown(names *ns, const char *name)
{
    snprintf(ns->bad, sizeof ns->bad, "%s", name);
    return -1;
}

static int asked_before(const iso_request *req, int m)
{
    for (size_t i = 0; i < req->n_checked; i++)
        if (req->checked[i].model == m) return 1;
    for (size_t i = 0; i < req->n_unchecked; i++)
        if (req->unchecked[i].model == m) return 1;
    return 0;
}

/* A model, once, under the accepted name (a static string) it was given as. */
static int add_model(const char *name, void *arg)
{
    names *ns = arg;
    iso_request *req = ns->req;
    int m = iso_model_parse(name);
    if (m < 0) return unknown(ns, name);
    if (asked_before(req, m)) return 0;
    const char *as = NULL;
    for (size_t i = 0; !as && iso_model_name_at(i, NULL); i++)
        if (!strcmp(iso_model_name_at(i, NULL), name)) as = iso_model_name_at(i, NULL);
    if (iso_model_not_checked(m)) req->unchecked[req->n_unchecked++] = (struct iso_asked_model){m, as};
    else req->checked[req->n_checked++] = (struct iso_asked_model){m, as};
    return 0;
}

static int add_anomaly(const char *name, void *arg)
{
    names *ns = arg;
    int a = iso_anomaly_parse(name);
    if (a < 0) return unknown(ns, name);
    ns->req->n_asked += !ns->req->asked[a];
    ns->req->asked[a] = 1;
    return 0;
}

/* USAGE: an unknown name of a kind, with the closest known one. */
static int unknown_name(isolde_error *err, const char *kind, const char *bad, iso_name_at known)
{
    const char *close = iso_closest_name(bad, known, NULL);
    if (close) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown %s '%s' (did you mean %s?)", kind, bad, close);
    return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown %s '%s'", kind, bad);
}

/* The names, then Elle's prohibited-anomaly-types: what the models forbid
 * (the models not checked forbid nothing) plus every anomaly implying one
 * asked for. */
int iso_request_of(const isolde_check_opts *o, iso_request *req, isolde_error *err)
{
    names ns = {req, {0}};
    memset(req, 0, sizeof *req);
    if (for_each_name(o->models ? o->models : "strict-serializable", add_model, &ns))
        return unknown_name(err, "consistency model", ns.bad, iso_model_name_at);
    if (o->anomalies && for_each_name(o->anomalies, add_anomaly, &ns))
        return unknown_name(err, "anomaly", ns.bad, iso_anomaly_name_at);
    int models[ISO_MODEL_COUNT];
    for (size_t i = 0; i < req->n_checked; i++) models[i] = req->checked[i].model;
    iso_models_prohibited(models, req->n_checked, req->reportable);
    uint8_t implying[ISO_A_COUNT];
    memcpy(implying, req->asked, sizeof implying);
    iso_anomalies_implying(implying);
    for (int a = 0; a < ISO_A_COUNT; a++) req->reportable[a] |= implying[a];
    return 0;
}

int iso_request_gap(const iso_request *req, iso_buf *why)
{
    if (!req->n_unchecked && (req->n_checked || req->n_asked)) return 0;
    if (!why) return 1;
    if (!req->n_unchecked) iso_buf_puts(why, "nothing was checked: -c named no model and -a no anomaly");
    else iso_buf_puts(why, "nothing forbidden was found, but ");
    for (size_t i = 0; i < req->n_unchecked; i++)
        iso_buf_printf(why, "%s%s", i ? ", " : "", req->unchecked[i].name);
    if (req->n_unchecked) iso_buf_puts(why, req->n_unchecked > 1 ? " were not checked" : " was not checked");
    return 1;
}

/* ---- the graph and its cycles ---------------------------------------------- */

/* Elle's additional-graphs: real-time order if any reportable anomaly is a
 * -realtime type, else process order if any is a -process type. */
static uint8_t order_edges(const uint8_t reportable[ISO_A_COUNT])
{
    int rt = 0, proc = 0;
    for (int b = 0; b < ISO_CB_COUNT; b++) {
        rt |= reportable[ISO_CYCLE(b, ISO_CV_REALTIME)];
        proc |= reportable[ISO_CYCLE(b, ISO_CV_PROCESS)];
    }
    return rt ? ISO_EDGE_REALTIME : proc ? ISO_EDGE_PROCESS : 0;
}

/* The workload's inference, and the real-time order when wanted beside it
 * on a second thread: it needs only the transactions. */
typedef struct inference {
    iso_ctx *ctx;
    iso_rt *rt;      /* NULL: not wanted */
    isolde_error *err;
    int rc;
} inference;

static void infer(void *arg)
{
    inference *x = arg;
    x->rc = x->ctx->pc.wl->analyze(x->ctx, x->err);
}

static void real_time(void *arg)
{
    inference *x = arg;
    if (x->rt) iso_realtime_ranges(x->ctx->pc.h, &x->ctx->pc.txns, x->rt);
}

static int analyze(iso_ctx *ctx, uint8_t extra, iso_rt *rt, isolde_error *err)
{
    inference x = {ctx, extra & ISO_EDGE_REALTIME ? rt : NULL, err, 0};
    int threads = iso_thread_count(ctx->opts->threads);
    iso_both(infer, real_time, &x, x.rt ? threads : 1);
    return x.rc;
}

/* Findings for what the search found; their proofs wait until a report
 * shows them. */
static void add_search_findings(iso_ctx *ctx, const iso_search_out *out)
{
    for (size_t i = 0; i < out->n_cycles; i++)
        iso_findings_add_search(&ctx->findings, out->cycles[i].type, ISO_FS_CYCLE, i);
    for (size_t i = 0; i < out->n_exists; i++)
        iso_findings_add_search(&ctx->findings, out->exists[i].id, ISO_FS_EXISTS, i);
    for (size_t i = 0; i < out->n_timeouts; i++)
        iso_findings_add_search(&ctx->findings, ISO_A_CYCLE_SEARCH_TIMEOUT, ISO_FS_TIMEOUT, i);
}

static void search_request(iso_search_req *req, const iso_ctx *ctx, uint8_t extra)
{
    iso_search_request(req, extra);
    memcpy(req->data_order, ctx->pc.wl->data_order, sizeof req->data_order);
    req->timeout_ms = ctx->opts->cycle_search_timeout_ms;
    req->total_ms = ctx->opts->timeout_ms;
    req->threads = iso_thread_count(ctx->opts->threads);
}

/* The graph, with rt (given back) as its real-time order, searched. */
static void search_graph(iso_ctx *ctx, uint8_t extra, iso_rt *rt)
{
    if (extra & ISO_EDGE_PROCESS) iso_process_edges(ctx->pc.h, &ctx->pc.txns, &ctx->edges);
    iso_phase("process order");
    iso_graph g;
    iso_graph_build_consume(&g, (uint32_t)ctx->pc.txns.n, &ctx->edges);
    if (extra & ISO_EDGE_REALTIME) g.rt = rt;
    iso_phase("graph (CSR)");
    if (g.n_edges + rt->n_edges == 0)
        iso_findings_add_text(&ctx->findings, ISO_A_EMPTY_TRANSACTION_GRAPH,
                              "No dependency between any two transactions could be "
                              "inferred, so nothing can be said about isolation.",
                              "true");
    iso_search_req req;
    iso_search_out *out = ctx->pc.search = iso_xcalloc(1, sizeof *out);
    search_request(&req, ctx, extra);
    iso_search_cycles(&g, &req, out);
    iso_phase("cycle search");
    add_search_findings(ctx, out);
    iso_graph_free(&g);
    iso_rt_free(rt);
}

void iso_proof_ctx_free(iso_proof_ctx *pc)
{
    if (pc->wl && pc->wl->free) pc->wl->free(pc->wl_state);
    iso_txns_free(&pc->txns);
    if (pc->search) iso_search_out_free(pc->search);
    iso_free(pc->search);
    *pc = (iso_proof_ctx){0};
}

static void ctx_free(iso_ctx *ctx)
{
    iso_proof_ctx_free(&ctx->pc);
    iso_findings_free(&ctx->findings);
    iso_edges_free(&ctx->edges);
}

/* Pair, infer, and search: the check up to its findings. */
static int run(iso_ctx *ctx, uint8_t extra, isolde_error *err)
{
    const isolde_check_opts *o = ctx->opts;
    const isolde_history *h = ctx->pc.h;
    iso_phase(NULL);
    int rc = iso_txns_pair(h, extra || o->linearizable_keys || o->sequential_keys, &ctx->pc.txns, err);
    if (!rc && ctx->pc.txns.n >= ISO_MAX_TXNS)
        rc = iso_fail(err, ISOLDE_ERR_LIMIT, h->name, 0, 0, "%zu transactions: isolde checks at most %u", ctx->pc.txns.n,
                      ISO_MAX_TXNS - 1);
    iso_phase("pairing");
    iso_rt rt = {0};
    if (!rc) rc = analyze(ctx, extra, &rt, err);
    if (!rc && ctx->edges.n >= UINT32_MAX - ctx->pc.txns.n) /* the CSR's offsets are 32-bit (process order adds up to n) */
        rc = iso_fail(err, ISOLDE_ERR_LIMIT, h->name, 0, 0, "%zu dependency edges: isolde's graph holds at most %u",
                      ctx->edges.n, UINT32_MAX - 1 - (unsigned)ctx->pc.txns.n);
    iso_phase(ctx->pc.wl->name);
    if (rc) {
        iso_rt_free(&rt);
        return rc;
    }
    search_graph(ctx, extra, &rt);
    return 0;
}

int iso_check_txns(const isolde_history *h, const isolde_check_opts *o, const iso_workload_ops *wl,
                   const iso_result_kind *kind, isolde_result **r, isolde_error *err)
{
    iso_ctx ctx = {.pc = {.h = h, .wl = wl}, .opts = o};
    int rc = iso_request_of(o, &ctx.req, err);
    if (!rc) rc = run(&ctx, order_edges(ctx.req.reportable), err);
    if (rc) {
        if (!err->file[0]) snprintf(err->file, sizeof err->file, "%s", h->name ? h->name : "");
        ctx_free(&ctx);
        return rc;
    }
    iso_edges_free(&ctx.edges);
    *r = iso_result_txn(kind, &ctx.req, &ctx.findings, &ctx.pc, iso_thread_count(o->threads));
    return 0;
}
