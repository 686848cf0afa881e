/*
 * elle/proof.c -- proofs of what the cycle search found: every edge of a
 * cycle justified in words and JSON, by the workload's explainer for data
 * edges and by the history for process and real-time order; the words for
 * cycle-exists fallbacks and timeouts; and rendering pending findings,
 * each by its source, on several threads.
 */
#include "elle/proof.h"
#include "elle/search.h"
#include "elle/render.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Why a came before b in process or real-time order. */
static void explain_order(const iso_proof_ctx *pc, uint32_t a, uint32_t b, int bit, const char *ta,
                          const char *tb, iso_buf *text, iso_buf *json)
{
    const isolde_history *h = pc->h;
    const iso_txn *x = &pc->txns.t[a], *y = &pc->txns.t[b];
    const iso_op *ca = iso_txn_op(h, x);
    if (bit == ISO_EDGE_PROCESS) {
        iso_buf_puts(text, "process ");
        iso_val_edn(&h->store, iso_op_process(h, ca), text);
        iso_buf_printf(text, " executed %s before %s", ta, tb);
        iso_buf_puts(json, "{\"type\":\"process\",\"process\":");
        iso_val_json(&h->store, iso_op_process(h, ca), json);
        iso_buf_puts(json, "}");
        return;
    }
    const iso_op *ib = &h->ops[y->inv != ISO_NONE ? y->inv : y->cmp];
    iso_buf_printf(text, "%s completed at index %" PRId64, ta, ca->index);
    if (ca->time >= 0 && ib->time >= 0) {
        iso_buf_puts(text, ", ");
        iso_buf_duration(text, ib->time - ca->time);
    }
    iso_buf_printf(text, "%sbefore the invocation of %s, at index %" PRId64,
                   ca->time >= 0 && ib->time >= 0 ? " " : ", ", tb, ib->index);
    iso_buf_puts(json, "{\"type\":\"realtime\",\"a'\":");
    iso_op_json(h, ca, json);
    iso_buf_puts(json, ",\"b\":");
    iso_op_json(h, ib, json);
    iso_buf_puts(json, "}");
}

void iso_explain_edge(const iso_proof_ctx *pc, uint32_t a, uint32_t b, int bit, const char *ta,
                      const char *tb, iso_buf *text, iso_buf *json)
{
    if (bit & ISO_EDGE_DATA) pc->wl->explain(pc, a, b, bit, ta, tb, text, json);
    else explain_order(pc, a, b, bit, ta, tb, text, json);
}

void iso_explain_cycle(const iso_proof_ctx *pc, const iso_cycle *c, iso_buf *text, iso_buf *json)
{
    iso_buf why = {0};
    text->n = json->n = 0;
    iso_buf_puts(text, "Let:\n");
    for (uint32_t i = 0; i < c->len; i++) {
        iso_buf_printf(text, "  T%u = ", i + 1);
        iso_pc_op_text(pc, c->v[i], text);
        iso_buf_puts(text, "\n");
    }
    iso_buf_puts(text, "\nThen:\n");
    iso_buf_printf(json, "{\"type\":\"%s\",\"cycle\":[", iso_anomaly_name(c->type));
    for (uint32_t i = 0; i <= c->len; i++) {
        if (i) iso_buf_puts(json, ",");
        iso_pc_op_json(pc, c->v[i % c->len], json);
    }
    iso_buf_puts(json, "],\"steps\":[");
    for (uint32_t i = 0; i < c->len; i++) {
        uint32_t a = c->v[i], b = c->v[(i + 1) % c->len];
        char ta[16], tb[16];
        snprintf(ta, sizeof ta, "T%u", i + 1);
        snprintf(tb, sizeof tb, "T%u", (i + 1) % c->len + 1);
        if (i) iso_buf_puts(json, ",");
        why.n = 0;
        iso_explain_edge(pc, a, b, c->e[i], ta, tb, &why, json);
        int last = i + 1 == c->len;
        iso_buf_printf(text, "  - %s%s < %s, because %s%s\n", last ? "However, " : "", ta, tb,
                       iso_buf_cstr(&why), last ? ": a contradiction!" : ".");
    }
    iso_buf_puts(json, "]}");
    if (text->n && text->p[text->n - 1] == '\n') text->p[--text->n] = 0;
    iso_buf_free(&why);
}

/* The words of cycle-exists finding i. */
static void prove_exists(const iso_proof_ctx *pc, size_t i, iso_buf *text, iso_buf *json)
{
    const iso_cycle_exists *e = &pc->search->exists[i];
    iso_buf sub = {0};
    const char *model = iso_cycle_exists_model(e->id);
    iso_cycle_exists_subgraph(e->id, &sub);
    iso_buf_printf(text, "The search for a specific cycle ran out of time, but these %u transactions "
                          "form a strongly connected component of the %s graph, so a cycle that %s "
                          "forbids exists among them. Op indices:",
                   e->scc.n, iso_buf_cstr(&sub), model);
    iso_buf_printf(json, "{\"type\":\"%s\",\"not\":\"%s\",\"subgraph\":\"%s\",\"scc-size\":%u,\"scc\":[",
                   iso_anomaly_name(e->id), model, iso_buf_cstr(&sub), e->scc.n);
    for (uint32_t k = 0; k < e->scc.n; k++) {
        int64_t idx = iso_txn_op(pc->h, &pc->txns.t[e->scc.v[k]])->index;
        if (k < 64) iso_buf_printf(text, " %" PRId64, idx);
        else if (k == 64) iso_buf_printf(text, " ... (%u more)", e->scc.n - 64);
        iso_buf_printf(json, "%s%" PRId64, k ? "," : "", idx);
    }
    iso_buf_puts(json, "]}");
    iso_buf_free(&sub);
}

/* The words of timeout finding i. */
static void prove_timeout(const iso_proof_ctx *pc, size_t i, iso_buf *text, iso_buf *json)
{
    const iso_cycle_timeout *t = &pc->search->timeouts[i];
    iso_buf_printf(text, "The search for %s in a strongly connected component of %u transactions "
                          "ran out of %s.",
                   iso_anomaly_name(t->type), t->comp.n,
                   t->whole ? "its share of the whole search's budget (raise it with --timeout)"
                            : "its budget (raise it with -s/--cycle-search-timeout)");
    iso_buf_printf(json, "{\"anomaly-spec-type\":\"%s\",\"scc-size\":%u}", iso_anomaly_name(t->type), t->comp.n);
}

/* A pending finding's text and JSON, by its source, into b. */
static void render(const iso_proof_ctx *pc, const iso_finding *f, iso_fb *b)
{
    b->text.n = b->json.n = 0;
    switch (f->source) {
    case ISO_FS_RENDER: f->render(pc, f->arg, b); break;
    case ISO_FS_CYCLE: iso_explain_cycle(pc, &pc->search->cycles[f->arg], &b->text, &b->json); break;
    case ISO_FS_EXISTS: prove_exists(pc, f->arg, &b->text, &b->json); break;
    default: prove_timeout(pc, f->arg, &b->text, &b->json); break;
    }
}

/* Findings rendered together, each into its own slot, on one or more
 * threads; the slots' buffers are reused from batch to batch. */
enum { BATCH_MAX = 256, BATCH_THREADED = 64, BATCH_BYTES = 8 << 20, SLOT_KEEP = 1 << 20 };
typedef struct batch {
    const iso_txn_result *t;
    size_t first, n, next; /* findings first .. first + n */
    iso_fb *fb;            /* BATCH_MAX slots */
    size_t max_bytes;      /* the caller's budget (0: none), */
    size_t bytes;          /* and what the findings shown took of it */
} batch;

static void render_batch(void *arg)
{
    batch *b = arg;
    for (size_t i; (i = iso_next_item(&b->next)) < b->n;) {
        const iso_finding *f = &b->t->findings.f[b->first + i];
        if (iso_finding_pending(f)) render(&b->t->pc, f, &b->fb[i]);
    }
}

/* Render and show batch b, all of it or up to the finding that spends the
 * budget (b->n is then how many were shown); returns how many findings the
 * next batch may hold: as many as would take BATCH_BYTES at this batch's
 * mean size, but at most twice this batch's count (sizes are not known
 * before). */
static size_t show_batch(batch *b, size_t shown, iso_show_fn show, void *arg)
{
    b->next = 0;
    iso_parallel(b->n < BATCH_THREADED ? 1 : b->t->threads, render_batch, b);
    size_t bytes = 0;
    for (size_t i = 0; i < b->n; i++) {
        const iso_finding *f = &b->t->findings.f[b->first + i];
        iso_fb *s = &b->fb[i];
        int pending = iso_finding_pending(f);
        const char *text = pending ? iso_buf_cstr(&s->text) : f->text, *json = pending ? iso_buf_cstr(&s->json) : f->json;
        show(arg, shown + i, text, json);
        b->bytes += pending ? s->text.n + s->json.n : strlen(text) + strlen(json);
        if (b->max_bytes && b->bytes >= b->max_bytes) b->n = i + 1;
        if (!pending) continue;
        bytes += s->text.n + s->json.n;
        if (s->text.cap + s->json.cap > SLOT_KEEP) { iso_buf_free(&s->text); iso_buf_free(&s->json); }
    }
    size_t fit = bytes ? BATCH_BYTES / (bytes / b->n + 1) : BATCH_MAX;
    if (fit > 2 * b->n) fit = 2 * b->n;
    return fit < 1 ? 1 : fit > BATCH_MAX ? BATCH_MAX : fit;
}

size_t iso_elle_show(const iso_txn_result *t, size_t first, size_t n, size_t max_bytes, iso_show_fn show,
                     void *arg)
{
    batch b = {t, first, 0, 0, iso_xcalloc(BATCH_MAX, sizeof *b.fb), max_bytes, 0};
    size_t done = 0;
    for (size_t want = 1; done < n && !(max_bytes && b.bytes >= max_bytes); done += b.n, b.first += b.n) {
        b.n = n - done < want ? n - done : want;
        want = show_batch(&b, done, show, arg);
    }
    for (size_t i = 0; i < BATCH_MAX; i++) { iso_buf_free(&b.fb[i].text); iso_buf_free(&b.fb[i].json); }
    iso_free(b.fb);
    return done;
}

size_t iso_name_of(iso_names *nm, uint32_t t)
{
    for (size_t i = 0; i < nm->n; i++)
        if (nm->t[i] == t) return i + 1;
    ISO_PUSH(nm->t, nm->n, nm->cap, t);
    return nm->n;
}
