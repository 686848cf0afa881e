/*
 * check.c -- the transactional pipeline: pair transactions, let the
 * workload infer data edges and direct anomalies, add process or real-time
 * order when a requested model needs it, search the graph for cycles, and
 * hand every finding to result.c. Non-transactional workloads go to the
 * linearizability checker (linear/).
 */
#include "check/check.h"
#include "graph/cycle.h"
#include "graph/order.h"
#include "check/models.h"
#include "check/result.h"
#include "report/proof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void iso_check_opts_init(iso_check_opts *o)
{
    memset(o, 0, sizeof *o);
    o->cycle_search_timeout_ms = 1000;
}

void iso_ctx_add_finding(iso_ctx *ctx, int type, const char *text, const char *json)
{
    ISO_GROW(ctx->findings, ctx->cap_findings, ctx->n_findings + 1);
    ctx->findings[ctx->n_findings++] = (iso_finding){type, iso_xstrdup(text), iso_xstrdup(json), NULL, 0};
}

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
    j.side.findings = NULL;
    j.side.n_findings = j.side.cap_findings = 0;
    iso_both(main_run, side_run, &j, iso_thread_count(ctx->opts->threads));
    ISO_GROW(ctx->findings, ctx->cap_findings, ctx->n_findings + j.side.n_findings);
    for (size_t i = 0; i < j.side.n_findings; i++) ctx->findings[ctx->n_findings++] = j.side.findings[i];
    iso_free(j.side.findings);
}

void iso_ctx_add_pending(iso_ctx *ctx, int type, iso_render_fn render, size_t arg)
{
    ISO_GROW(ctx->findings, ctx->cap_findings, ctx->n_findings + 1);
    ctx->findings[ctx->n_findings++] = (iso_finding){type, NULL, NULL, render, arg};
}

void iso_ctx_val_text(const iso_ctx *ctx, iso_val v, iso_buf *out) { iso_val_edn(&ctx->h->store, v, out); }
void iso_ctx_val_json(const iso_ctx *ctx, iso_val v, iso_buf *out) { iso_val_json(&ctx->h->store, v, out); }

void iso_ctx_op_text(const iso_ctx *ctx, uint32_t txn, iso_buf *out)
{
    iso_op_edn(ctx->h, iso_txn_op(ctx->h, &ctx->txns.t[txn]), out);
}

void iso_ctx_op_json(const iso_ctx *ctx, uint32_t txn, iso_buf *out)
{
    iso_op_json(ctx->h, iso_txn_op(ctx->h, &ctx->txns.t[txn]), out);
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

/* The names of -c or -a as they parse: model ids, or a set of anomalies;
 * the first unknown name. */
typedef struct names {
    int models[64];
    size_t n_models;
    uint8_t anomalies[ISO_A_COUNT];
    char bad[128];
} names;

static int add_model(const char *name, void *arg)
{
    names *ns = arg;
    int m = iso_model_parse(name);
    if (m < 0) {
        snprintf(ns->bad, sizeof ns->bad, "%s", name);
        return -1;
    }
    if (ns->n_models < sizeof ns->models / sizeof ns->models[0]) ns->models[ns->n_models++] = m;
    return 0;
}

static int add_anomaly(const char *name, void *arg)
{
    names *ns = arg;
    int a = iso_anomaly_parse(name);
    if (a < 0) {
        snprintf(ns->bad, sizeof ns->bad, "%s", name);
        return -1;
    }
    ns->anomalies[a] = 1;
    return 0;
}

/* Elle's prohibited-anomaly-types: what the models forbid plus every
 * anomaly implying one asked for. */
int iso_reportable(const iso_check_opts *o, uint8_t set[ISO_A_COUNT], iso_error *err)
{
    names ns = {0};
    if (for_each_name(o->models ? o->models : "strict-serializable", add_model, &ns))
        return iso_fail(err, NULL, 0, 0, "unknown consistency model: %s (see isolde check --help)", ns.bad);
    if (o->anomalies && for_each_name(o->anomalies, add_anomaly, &ns))
        return iso_fail(err, NULL, 0, 0, "unknown anomaly: %s", ns.bad);
    iso_models_prohibited(ns.models, ns.n_models, set);
    iso_anomalies_implying(ns.anomalies);
    for (int a = 0; a < ISO_A_COUNT; a++) set[a] |= ns.anomalies[a];
    return 0;
}

static iso_workload detect_workload(const iso_history *h)
{
    if (h->workload_hint != ISO_WORKLOAD_AUTO) return h->workload_hint;
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *op = &h->ops[i];
        if (!iso_op_is_client(op) || !iso_is_seq(op->value)) continue;
        size_t n = iso_seq_len(&h->store, op->value);
        const iso_val *m = iso_seq_items(&h->store, op->value);
        for (size_t j = 0; j < n; j++) {
            if (!iso_is_seq(m[j]) || !iso_seq_len(&h->store, m[j])) continue;
            iso_val f = iso_seq_items(&h->store, m[j])[0];
            if (iso_name_is(&h->store, f, "append")) return ISO_WORKLOAD_LIST_APPEND;
            if (iso_name_is(&h->store, f, "w")) return ISO_WORKLOAD_RW_REGISTER;
        }
    }
    return ISO_WORKLOAD_LIST_APPEND;
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

static void search_request(iso_search_req *req, const iso_ctx *ctx, uint8_t extra)
{
    memset(req, 0, sizeof *req);
    memcpy(req->data_order, ctx->wl->data_order, sizeof req->data_order);
    static const int bases[] = {ISO_CB_G0, ISO_CB_G1C, ISO_CB_G_SINGLE_ITEM,
                                ISO_CB_G_NONADJACENT_ITEM, ISO_CB_G2_ITEM};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        req->want[ISO_CYCLE(bases[i], ISO_CV_PLAIN)] = 1;
        req->want[ISO_CYCLE(bases[i], ISO_CV_PROCESS)] = !!(extra & ISO_EDGE_PROCESS);
        req->want[ISO_CYCLE(bases[i], ISO_CV_REALTIME)] = !!(extra & ISO_EDGE_REALTIME);
    }
    for (int a = ISO_A_PL_1_CYCLE_EXISTS; a <= ISO_A_STRONG_SNAPSHOT_ISOLATION_CYCLE_EXISTS; a++)
        req->want[a] = 1;
    req->timeout_ms = ctx->opts->cycle_search_timeout_ms;
    req->threads = iso_thread_count(ctx->opts->threads);
}

/* Findings for the cycles; their proofs wait until a report shows them. */
static void add_cycles(iso_ctx *ctx, const iso_search_out *out)
{
    for (size_t i = 0; i < out->n_cycles; i++) iso_ctx_add_pending(ctx, out->cycles[i].type, iso_prove_cycle, i);
}

/* The workload's inference, and the real-time order when wanted beside it
 * on a second thread: it needs only the transactions. */
typedef struct inference {
    iso_ctx *ctx;
    iso_rt *rt;      /* NULL: not wanted */
    iso_error *err;
    int rc;
} inference;

static void infer(void *arg)
{
    inference *x = arg;
    x->rc = x->ctx->wl->analyze(x->ctx, x->err);
}

static void real_time(void *arg)
{
    inference *x = arg;
    if (x->rt) iso_realtime_ranges(x->ctx->h, &x->ctx->txns, x->rt);
}

static int analyze(iso_ctx *ctx, uint8_t extra, iso_rt *rt, iso_error *err)
{
    inference x = {ctx, extra & ISO_EDGE_REALTIME ? rt : NULL, err, 0};
    int threads = iso_thread_count(ctx->opts->threads);
    iso_both(infer, real_time, &x, x.rt ? threads : 1);
    return x.rc;
}

/* The graph, with rt (given back) as its real-time order, searched. */
static void search_graph(iso_ctx *ctx, uint8_t extra, iso_rt *rt)
{
    if (extra & ISO_EDGE_PROCESS) iso_process_edges(ctx->h, &ctx->txns, &ctx->edges);
    iso_phase("process order");
    iso_graph g;
    iso_graph_build_consume(&g, (uint32_t)ctx->txns.n, &ctx->edges);
    if (extra & ISO_EDGE_REALTIME) g.rt = rt;
    iso_phase("graph (CSR)");
    if (g.n_edges + rt->n_edges == 0) iso_ctx_add_finding(ctx, ISO_A_EMPTY_TRANSACTION_GRAPH,
                                            "No dependency between any two transactions could be "
                                            "inferred, so nothing can be said about isolation.",
                                            "true");
    iso_search_req req;
    iso_search_out *out = ctx->search = iso_xcalloc(1, sizeof *out);
    search_request(&req, ctx, extra);
    iso_search_cycles(&g, &req, out);
    iso_phase("cycle search");
    add_cycles(ctx, out);
    for (size_t i = 0; i < out->n_exists; i++) iso_explain_cycle_exists(ctx, &out->exists[i]);
    for (size_t i = 0; i < out->n_timeouts; i++) iso_explain_timeout(ctx, &out->timeouts[i]);
    iso_graph_free(&g);
    iso_rt_free(rt);
}

void iso_ctx_free(iso_ctx *ctx)
{
    if (ctx->wl && ctx->wl->free) ctx->wl->free(ctx->wl_state);
    for (size_t i = 0; i < ctx->n_findings; i++) {
        iso_free(ctx->findings[i].text);
        iso_free(ctx->findings[i].json);
    }
    iso_free(ctx->findings);
    iso_edges_free(&ctx->edges);
    iso_txns_free(&ctx->txns);
    if (ctx->search) iso_search_out_free(ctx->search);
    iso_free(ctx->search);
}

static int check_txns(const iso_history *h, const iso_check_opts *o, iso_workload wl,
                      iso_result *r, iso_error *err)
{
    iso_ctx ctx = {0};
    ctx.h = h;
    ctx.opts = o;
    ctx.wl = wl == ISO_WORKLOAD_RW_REGISTER ? &iso_rw_register_ops : &iso_list_append_ops;
    int rc = iso_reportable(o, ctx.reportable, err);
    uint8_t extra = order_edges(ctx.reportable);
    iso_phase(NULL);
    if (!rc) rc = iso_txns_pair(h, extra || o->linearizable_keys || o->sequential_keys, &ctx.txns, err);
    if (!rc && ctx.txns.n >= ISO_MAX_TXNS)
        rc = iso_fail(err, h->name, 0, 0, "%zu transactions: isolde checks at most %u", ctx.txns.n,
                      ISO_MAX_TXNS - 1);
    iso_phase("pairing");
    iso_rt rt = {0};
    if (!rc) rc = analyze(&ctx, extra, &rt, err);
    iso_phase(ctx.wl->name);
    if (!rc) {
        search_graph(&ctx, extra, &rt);
        iso_result_build(r, ctx.reportable, ctx.findings, ctx.n_findings);
        ctx.findings = NULL; /* now owned by the result */
        ctx.n_findings = 0;
        ctx.opts = NULL;     /* the caller's; proofs do not need it */
        iso_edges_free(&ctx.edges);
        r->ctx = iso_xmalloc(sizeof *r->ctx); /* for the proofs still to render */
        *r->ctx = ctx;
        r->threads = iso_thread_count(o->threads);
        return 0;
    }
    if (!err->file[0]) snprintf(err->file, sizeof err->file, "%s", h->name ? h->name : "");
    iso_rt_free(&rt);
    iso_ctx_free(&ctx);
    return rc;
}

static int is_linear(iso_workload w)
{
    return w != ISO_WORKLOAD_AUTO && w != ISO_WORKLOAD_LIST_APPEND && w != ISO_WORKLOAD_RW_REGISTER;
}

int iso_check(const iso_history *h, const iso_check_opts *o, iso_result **out, iso_error *err)
{
    iso_check_opts defaults;
    if (!o) { iso_check_opts_init(&defaults); o = &defaults; }
    iso_error scratch;
    if (!err) err = &scratch;
    memset(err, 0, sizeof *err);
    iso_workload wl = o->workload != ISO_WORKLOAD_AUTO ? o->workload : detect_workload(h);
    iso_result *r = iso_xcalloc(1, sizeof *r);
    int rc = is_linear(wl) ? iso_lin_check(h, o, r, err) : check_txns(h, o, wl, r, err);
    if (rc) {
        iso_result_free(r);
        *out = NULL;
        return -1;
    }
    *out = r;
    return 0;
}
