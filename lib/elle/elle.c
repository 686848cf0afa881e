/*
 * elle/elle.c -- the transactional pipeline: pair transactions, let the
 * workload infer data edges and direct anomalies, add process or real-time
 * order when a requested model needs it, search the graph for cycles, and
 * hand every finding, with the proof context, to the result.
 */
#include "elle/elle.h"
#include "elle/result.h"
#include "elle/search.h"
#include "graph/order.h"

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

/* ---- the graph and its cycles ---------------------------------------------- */

/* Elle's additional-graphs: real-time order if any reportable anomaly is a
 * -realtime type, else process order if any is a -process type (or
 * causal's causality-violation-process or read-committed-be's
 * non-monotonic-read-process: session order is a dependency there, so a
 * graph of it alone is not empty). */
static uint8_t order_edges(const uint8_t reportable[ISO_A_COUNT])
{
    int rt = 0, proc = reportable[ISO_A_CAUSALITY_VIOLATION_PROCESS] || reportable[ISO_A_NON_MONOTONIC_READ_PROCESS];
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
    iso_search_request(req, extra, ctx->req->reportable);
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
    /* From SI up the search's G-single and G-nonadjacent cover every such cycle */
    if (ctx->req->reportable[ISO_A_LONG_FORK] && !ctx->req->reportable[ISO_A_G_NONADJACENT]) iso_long_forks(&g, &ctx->pc, out);
    iso_phase("long forks");
    add_search_findings(ctx, out);
    if (ctx->exact) ctx->exact(ctx, &g, extra);
    iso_graph_free(&g);
    iso_rt_free(rt);
}

static void ctx_free(iso_ctx *ctx)
{
    iso_proof_ctx_free(&ctx->pc);
    iso_findings_free(&ctx->findings);
    iso_edges_free(&ctx->edges);
}

/* An early check's transactions: those of invocations still open are not
 * (their outcome is to come: treated as :info, one could close a cycle
 * its failure later undoes). */
static void drop_open(iso_txns *t)
{
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->t[i].cmp != ISO_NONE || t->t[i].inv == ISO_NONE) t->t[k++] = t->t[i];
    t->n = k;
}

/* Pair, infer, and search: the check up to its findings. */
static int run(iso_ctx *ctx, uint8_t extra, isolde_error *err)
{
    const isolde_history *h = ctx->pc.h;
    iso_phase(NULL);
    int rc = iso_txns_pair(h, extra || ctx->co->linearizable_keys || ctx->co->sequential_keys, &ctx->pc.txns, err);
    if (!rc && ctx->co->shown_edges) drop_open(&ctx->pc.txns);
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

/* The request, with each model the workload's check does not cover
 * (iso_model_coverage) moved to the models not checked: never valid, and
 * what it alone forbids no longer looked for (a model not checked forbids
 * nothing, as iso_request_of has it); on list-append, nor what a model
 * forbids only through implying one not checked there (iso_request.la). */
static void cover(iso_request *q, const iso_workload_ops *wl)
{
    int rw = strcmp(wl->name, "list-append") != 0;
    size_t kept = 0;
    for (size_t i = 0; i < q->n_checked; i++) {
        if (iso_model_coverage(q->checked[i].model, rw) == ISO_COV_NA) q->unchecked[q->n_unchecked++] = q->checked[i];
        else q->checked[kept++] = q->checked[i];
    }
    if (kept == q->n_checked && rw) return;
    q->n_checked = kept;
    q->la = (uint8_t)!rw;
    iso_request_reportable(q);
}

int iso_elle_check(const isolde_history *h, const isolde_check_opts *o, const iso_checker_opts *co,
                   const iso_request *asked, const iso_workload_ops *wl, isolde_result **r, isolde_error *err)
{
    iso_request q = *asked, *req = &q;
    cover(req, wl);
    iso_ctx ctx = {.pc = {.h = h, .wl = wl}, .opts = o, .co = co, .req = req};
    if (run(&ctx, order_edges(req->reportable), err)) {
        ctx_free(&ctx);
        return -1;
    }
    iso_edges_free(&ctx.edges);
    *r = iso_result_txn(req, &ctx.findings, &ctx.pc, iso_thread_count(o->threads));
    return 0;
}
