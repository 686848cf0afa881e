/* explain.c -- proofs of cycles: every edge justified in words and JSON. */
#include "report/proof.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Why a came before b in process or real-time order. */
static void explain_order(const iso_ctx *ctx, uint32_t a, uint32_t b, int bit, const char *ta,
                          const char *tb, iso_buf *text, iso_buf *json)
{
    const iso_history *h = ctx->h;
    const iso_txn *x = &ctx->txns.t[a], *y = &ctx->txns.t[b];
    const iso_op *ca = iso_txn_op(h, x);
    if (bit == ISO_EDGE_PROCESS) {
        iso_buf_printf(text, "process %" PRId64 " executed %s before %s", iso_as_int(ca->process), ta, tb);
        iso_buf_printf(json, "{\"type\":\"process\",\"process\":%" PRId64 "}", iso_as_int(ca->process));
        return;
    }
    const iso_op *ib = &h->ops[y->inv != ISO_NONE ? y->inv : y->cmp];
    iso_buf_printf(text, "%s completed at index %" PRId64, ta, ca->index);
    if (ca->time >= 0 && ib->time >= 0)
        iso_buf_printf(text, ", %.3f seconds before the invocation of %s, at index %" PRId64,
                       (double)(ib->time - ca->time) / 1e9, tb, ib->index);
    else
        iso_buf_printf(text, ", before the invocation of %s, at index %" PRId64, tb, ib->index);
    iso_buf_puts(json, "{\"type\":\"realtime\",\"a'\":");
    iso_op_json(h, ca, json);
    iso_buf_puts(json, ",\"b\":");
    iso_op_json(h, ib, json);
    iso_buf_puts(json, "}");
}

void iso_explain_cycle(const iso_ctx *ctx, const iso_cycle *c, iso_buf *text, iso_buf *json)
{
    iso_buf why = {0};
    text->n = json->n = 0;
    iso_buf_puts(text, "Let:\n");
    for (uint32_t i = 0; i < c->len; i++) {
        iso_buf_printf(text, "  T%u = ", i + 1);
        iso_ctx_op_text(ctx, c->v[i], text);
        iso_buf_puts(text, "\n");
    }
    iso_buf_puts(text, "\nThen:\n");
    iso_buf_printf(json, "{\"type\":\"%s\",\"cycle\":[", iso_anomaly_name(c->type));
    for (uint32_t i = 0; i <= c->len; i++) {
        if (i) iso_buf_puts(json, ",");
        iso_ctx_op_json(ctx, c->v[i % c->len], json);
    }
    iso_buf_puts(json, "],\"steps\":[");
    for (uint32_t i = 0; i < c->len; i++) {
        uint32_t a = c->v[i], b = c->v[(i + 1) % c->len];
        char ta[16], tb[16];
        snprintf(ta, sizeof ta, "T%u", i + 1);
        snprintf(tb, sizeof tb, "T%u", (i + 1) % c->len + 1);
        if (i) iso_buf_puts(json, ",");
        why.n = 0;
        if (c->e[i] & ISO_EDGE_DATA) ctx->wl->explain(ctx, a, b, c->e[i], ta, tb, &why, json);
        else explain_order(ctx, a, b, c->e[i], ta, tb, &why, json);
        int last = i + 1 == c->len;
        iso_buf_printf(text, "  - %s%s < %s, because %s%s\n", last ? "However, " : "", ta, tb,
                       iso_buf_cstr(&why), last ? ": a contradiction!" : ".");
    }
    iso_buf_puts(json, "]}");
    if (text->n && text->p[text->n - 1] == '\n') text->n--;
    iso_buf_free(&why);
}

void iso_prove_cycle(const iso_ctx *ctx, size_t i, iso_fb *f)
{
    iso_explain_cycle(ctx, &ctx->search->cycles[i], &f->text, &f->json);
}

typedef struct proofs {
    const iso_ctx *ctx;
    iso_finding *f;
    size_t n, next;
} proofs;

static void prove(void *arg)
{
    proofs *p = arg;
    iso_fb b = {{0}, {0}};
    for (size_t i; (i = iso_next_item(&p->next)) < p->n;) {
        iso_finding *f = &p->f[i];
        if (f->text || !f->render) continue;
        b.text.n = b.json.n = 0;
        f->render(p->ctx, f->arg, &b);
        f->text = iso_xstrndup(b.text.p, b.text.n);
        f->json = iso_xstrndup(b.json.p, b.json.n);
    }
    iso_buf_free(&b.text);
    iso_buf_free(&b.json);
}

void iso_prove_findings(const iso_ctx *ctx, iso_finding *f, size_t n, int threads)
{
    proofs p = {ctx, f, n, 0};
    iso_parallel(n < 64 ? 1 : threads, prove, &p);
}

const char *iso_finding_text(const iso_ctx *ctx, const iso_finding *f, int json, iso_buf *scratch)
{
    if (f->text || !f->render) return json ? f->json : f->text;
    iso_fb b = {{0}, {0}};
    f->render(ctx, f->arg, &b);
    iso_buf *keep = json ? &b.json : &b.text;
    scratch->n = 0;
    iso_buf_put(scratch, keep->p, keep->n);
    iso_buf_free(&b.text);
    iso_buf_free(&b.json);
    return iso_buf_cstr(scratch);
}

void iso_explain_cycle_exists(iso_ctx *ctx, const iso_cycle_exists *e)
{
    iso_buf text = {0}, json = {0}, sub = {0};
    const char *model = iso_cycle_exists_model(e->type);
    iso_cycle_exists_subgraph(e->type, &sub);
    iso_buf_printf(&text, "The search for a specific cycle ran out of time, but these %u transactions "
                          "form a strongly connected component of the %s graph, so a cycle that %s "
                          "forbids exists among them. Op indices:",
                   e->size, iso_buf_cstr(&sub), model);
    iso_buf_printf(&json, "{\"type\":\"%s\",\"not\":\"%s\",\"subgraph\":\"%s\",\"scc-size\":%u,\"scc\":[",
                   iso_anomaly_name(e->type), model, iso_buf_cstr(&sub), e->size);
    for (uint32_t i = 0; i < e->size; i++) {
        int64_t idx = iso_txn_op(ctx->h, &ctx->txns.t[e->scc[i]])->index;
        if (i < 64) iso_buf_printf(&text, " %" PRId64, idx);
        else if (i == 64) iso_buf_printf(&text, " ... (%u more)", e->size - 64);
        iso_buf_printf(&json, "%s%" PRId64, i ? "," : "", idx);
    }
    iso_buf_puts(&json, "]}");
    iso_ctx_add_finding(ctx, e->type, iso_buf_cstr(&text), iso_buf_cstr(&json));
    iso_buf_free(&text);
    iso_buf_free(&json);
    iso_buf_free(&sub);
}

void iso_explain_timeout(iso_ctx *ctx, const iso_cycle_timeout *t)
{
    iso_buf text = {0}, json = {0};
    iso_buf_printf(&text, "The search for %s in a strongly connected component of %u transactions "
                          "ran out of its budget (raise it with -s/--cycle-search-timeout).",
                   iso_anomaly_name(t->type), t->size);
    iso_buf_printf(&json, "{\"anomaly-spec-type\":\"%s\",\"scc-size\":%u}", iso_anomaly_name(t->type), t->size);
    iso_ctx_add_finding(ctx, ISO_A_CYCLE_SEARCH_TIMEOUT, iso_buf_cstr(&text), iso_buf_cstr(&json));
    iso_buf_free(&text);
    iso_buf_free(&json);
}
