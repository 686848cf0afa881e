/*
 * elle/list_append/exact.c -- list-append's polygraph for elle/exact.h
 * (issues 25 and 26): the reads show each key's version order up to its
 * longest read, and the appends no read shows follow it in an order
 * nothing shows. The known edges are the search's (an unread append
 * follows the last append shown, and every read of that last version
 * misses it: ww and rw edges; a hub's group of rw edges is drawn as its
 * pairs); each pair of ok transactions with unread appends to one key is
 * a choice between the two orders, a ww edge either way (nothing read
 * them: no rw edge follows from the choice). An :info transaction whose
 * appends no read shows may not have committed: it takes no choice, and
 * nothing leaves it, so it closes no cycle.
 *
 * Only a pair inside one strongly connected component of the search's
 * graph is a choice: a pair across two can be ordered as a topological
 * order of the components runs, which closes no cycle, so the components
 * stay as they are and every forbidden cycle lies within one. The solver
 * is given those pairs and the known edges inside their components alone
 * (a history without such a pair was decided by the search already).
 *
 * Serializable, snapshot isolation and parallel SI (with their process
 * and real-time forms) are decided so. Prefix is not: it orders an unread
 * append after the last one shown only when another transaction's read
 * shows that one (elle/long_fork.c), so its check stays the search's.
 * Invariant: every edge is one of the dependency graph under any order of
 * the unread appends its side allows; past the bounds, unknown naming
 * the key.
 */
#include "elle/exact.h"
#include "elle/list_append/list_append_int.h"
#include "graph/scc.h"
#include "core/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LX_MAX_KNOWN ((size_t)1 << 25) /* known edges, hubs drawn as pairs */
#define LX_MAX_CHOICES ((uint32_t)1 << 20)

static const iso_exact_words la_exact_words;

/* The polygraph and the unread ok appends, grouped by key (un[off[k] ..
 * off[k + 1]), one per transaction: its last to the key); each vertex's
 * component in the search's graph, and which transactions lie in one
 * with a choice (x.in). */
typedef struct lx_poly {
    iso_exact x;
    uint32_t *un, *off;
    size_t n_un;
    uint32_t *comp;
    uint8_t *in;
} lx_poly;

static const lx_poly *poly(const iso_exact *x) { return (const lx_poly *)x; }

/* ---- the polygraph ------------------------------------------------------- */

/* The search's data edges out of transaction a inside a component with a
 * choice, a hub's as its pairs; -1 past the bound. */
static int row_edges(const iso_graph *g, lx_poly *p, uint32_t a)
{
    static const uint8_t data[] = {ISO_EDGE_WW, ISO_EDGE_WR, ISO_EDGE_RW};
    uint32_t ntx = iso_graph_txns(g), c = p->comp[a];
    for (uint32_t i = g->off[a]; i < g->off[a + 1]; i++) {
        uint32_t d = g->dst[i];
        if (p->comp[d] != c) continue;
        if (d >= ntx) {
            for (uint32_t j = g->off[d]; j < g->off[d + 1]; j++)
                if (p->comp[g->dst[j]] == c) iso_exact_known(&p->x, a, g->dst[j], ISO_EDGE_RW);
        } else {
            for (size_t b = 0; b < sizeof data; b++)
                if (g->bits[i] & data[b]) iso_exact_known(&p->x, a, d, data[b]);
        }
        if (p->x.n > LX_MAX_KNOWN) return -1;
    }
    return 0;
}

/* Each pair of one key's unread appends inside one component: a choice,
 * the lower transaction first as side 0, its transactions marked in; -1
 * past the bound. */
static int choices(const la_state *st, lx_poly *p, uint32_t key)
{
    for (uint32_t i = p->off[key]; i < p->off[key + 1]; i++)
        for (uint32_t j = i + 1; j < p->off[key + 1]; j++) {
            uint32_t a = p->un[i], b = p->un[j], ta = st->ap[a].txn, tb = st->ap[b].txn;
            if (p->comp[ta] != p->comp[tb]) {
                p->x.n_ordered++;
                continue;
            }
            if (p->x.n_ch >= LX_MAX_CHOICES) return -1;
            p->in[ta] = p->in[tb] = 1;
            iso_exact_choice(&p->x, a, b, ta, tb);
            iso_exact_side_edge(&p->x, ta, tb, SOLVE_DEP);
            iso_exact_side_end(&p->x);
            iso_exact_side_edge(&p->x, tb, ta, SOLVE_DEP);
            iso_exact_side_end(&p->x);
        }
    return 0;
}

/* Whether some key has unread appends of two transactions. */
static int any_pair(const la_state *st, const lx_poly *p)
{
    for (uint32_t key = 0; key < st->keys.n; key++)
        if (p->off[key + 1] - p->off[key] > 1) return 1;
    return 0;
}

/* Mark in every transaction of a component that holds a choice's. */
static void components_in(const iso_graph *g, lx_poly *p)
{
    uint32_t ntx = iso_graph_txns(g);
    uint8_t *live = iso_xcalloc((size_t)g->n + 1, 1);
    for (uint32_t t = 0; t < ntx; t++) live[p->comp[t]] |= p->in[t];
    for (uint32_t t = 0; t < ntx; t++) p->in[t] = live[p->comp[t]];
    iso_free(live);
}

/* The polygraph; -1 past the bounds (*bad: the key, or ISO_NONE for the
 * known edges). */
static int build(const iso_graph *g, const la_state *st, lx_poly *p, uint32_t *bad)
{
    *bad = ISO_NONE;
    p->comp = iso_xmalloc(((size_t)g->n + 1) * sizeof *p->comp);
    iso_scc(g, 0xff, p->comp);
    p->in = iso_xcalloc((size_t)g->n + 1, 1);
    for (uint32_t key = 0; key < st->keys.n; key++)
        if (choices(st, p, key)) {
            *bad = key;
            return -1;
        }
    components_in(g, p);
    for (uint32_t a = 0; p->x.n_ch && a < iso_graph_txns(g); a++)
        if (p->in[a] && row_edges(g, p, a)) return -1;
    p->x.n_data = p->x.n;
    p->x.in = p->in;
    return 0;
}

/* Past the bounds: unknown, naming the key if one. */
static void too_big(iso_ctx *ctx, const la_state *st, uint32_t key, int model, int variant)
{
    iso_buf t = {0}, j = {0};
    iso_buf_printf(&t, "The exact check of %s left this history undecided: ", iso_exact_name(model, variant));
    iso_buf_puts(&j, "{\"type\":\"cycle-search-timeout\",\"exact\":\"too-large\"");
    if (key == ISO_NONE) {
        iso_buf_printf(&t, "its graph has more than %zu edges", LX_MAX_KNOWN);
    } else {
        iso_buf_printf(&t, "its pairs of appends no read shows pass the %u the solver is given, counted key by key "
                       "up to key ", LX_MAX_CHOICES);
        iso_pc_val_text(&ctx->pc, st->keys.vals[key], &t);
        iso_buf_puts(&j, ",\"key\":");
        iso_pc_val_json(&ctx->pc, st->keys.vals[key], &j);
    }
    iso_buf_puts(&t, "; reading each key back after its last append orders them.");
    iso_buf_puts(&j, "}");
    iso_findings_add_text(&ctx->findings, ISO_A_CYCLE_SEARCH_TIMEOUT, iso_buf_cstr(&t), iso_buf_cstr(&j));
    iso_buf_free(&t);
    iso_buf_free(&j);
}

/* The problems list-append decides exactly: prefix left out (above). */
static int problems(const iso_ctx *ctx, uint8_t extra, int m[4], int v[4])
{
    int n = iso_exact_problems(ctx, extra, m, v), k = 0;
    for (int i = 0; i < n; i++)
        if (m[i] != SOLVE_PC) m[k] = m[i], v[k++] = v[i];
    return k;
}

static void poly_free(lx_poly *p)
{
    iso_exact_free(&p->x);
    iso_free(p->un);
    iso_free(p->off);
    iso_free(p->comp);
    iso_free(p->in);
}

void la_exact(iso_ctx *ctx, const iso_graph *g, uint8_t extra)
{
    int model[4], variant[4], n = problems(ctx, extra, model, variant);
    if (n == 0) return;
    const la_state *st = ctx->pc.wl_state;
    lx_poly p = {0};
    uint32_t bad;
    p.un = la_unread_by_key(st, 0, &p.off);
    p.n_un = p.off[st->keys.n];
    int big = any_pair(st, &p) ? build(g, st, &p, &bad) : 0;
    iso_phase("la: exact polygraph");
    if (big) too_big(ctx, st, bad, model[0], variant[0]);
    else iso_exact_run(ctx, g, &p.x, &la_exact_words, model, variant, n, 1);
    poly_free(&p);
    iso_phase("la: exact");
}

/* ---- the words ----------------------------------------------------------- */

static void kv(const iso_ctx *ctx, const iso_exact *x, uint32_t w, iso_val *key, iso_val *val)
{
    const la_state *st = ctx->pc.wl_state;
    (void)x;
    *key = st->keys.vals[st->ap[w].key];
    *val = la_value(st, &st->ap[w]);
}

static void known(const iso_ctx *ctx, const iso_exact *x, size_t i, uint32_t from, uint32_t to, const char *ta,
                  const char *tb, iso_buf *text, iso_buf *json)
{
    iso_explain_edge(&ctx->pc, from, to, x->bit[i], ta, tb, text, json);
}

/* The micro-op index of append w in its transaction, or -1. */
static long append_mop(const iso_ctx *ctx, uint32_t w)
{
    const la_state *st = ctx->pc.wl_state;
    return la_mop_index(&ctx->pc, st->ap[w].txn, LA_APPEND, st->ap[w].key, la_value(st, &st->ap[w]), 0);
}

static void assumed(const iso_ctx *ctx, const iso_exact *x, const struct solve_step *s, uint8_t bit, uint32_t a,
                    uint32_t b, const char *ta, const char *tb, iso_buf *text, iso_buf *json)
{
    iso_val key, va, vb;
    (void)s, (void)bit;
    kv(ctx, x, a, &key, &va);
    kv(ctx, x, b, &key, &vb);
    iso_edge_text(&ctx->pc, text, "%1 appended %A to key %K, and %2 appended %B to it, which this case puts after "
                  "it (no read shows either append)", ta, tb, key, va, vb);
    iso_edge_json(&ctx->pc, json, "ww", key, NULL, va, &vb, append_mop(ctx, a), append_mop(ctx, b));
}

/* Where transaction t goes in the witness: its component's place in a
 * topological order (Tarjan numbers a component after those it reaches),
 * then its rank. */
static uint64_t place(const lx_poly *p, const uint32_t *rank, uint32_t t)
{
    return (uint64_t)(UINT32_MAX - (p->comp ? p->comp[t] : 0)) << 32 | rank[t];
}

/* Appends w[0 .. n) by their transactions' places (insertion: a key's
 * unread appends are few). */
static void sort_unread(const la_state *st, const lx_poly *p, const uint32_t *rank, uint32_t *w, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t a = w[i], j = i;
        uint64_t k = place(p, rank, st->ap[a].txn);
        for (; j > 0 && place(p, rank, st->ap[w[j - 1]].txn) > k; j--) w[j] = w[j - 1];
        w[j] = a;
    }
}

/* One key's witness: the order its reads show, then its unread appends
 * by their transactions' places (w: room for them). */
static void key_order(const iso_ctx *ctx, const lx_poly *p, uint32_t key, const uint32_t *rank, uint32_t *w,
                      iso_buf *j)
{
    const la_state *st = ctx->pc.wl_state;
    const la_key *k = &st->k[key];
    const iso_val *order = la_order(st, k);
    uint32_t n = 0;
    for (uint32_t i = p->off[key]; i < p->off[key + 1]; i++) w[n++] = p->un[i];
    sort_unread(st, p, rank, w, n);
    iso_buf_puts(j, "{\"key\":");
    iso_pc_val_json(&ctx->pc, st->keys.vals[key], j);
    iso_buf_puts(j, ",\"values\":[");
    for (uint32_t i = 0; i < k->len; i++) {
        iso_buf_puts(j, i ? "," : "");
        iso_pc_val_json(&ctx->pc, order[i], j);
    }
    for (uint32_t i = 0; i < n; i++) {
        iso_buf_puts(j, k->len || i ? "," : "");
        iso_pc_val_json(&ctx->pc, la_value(st, &st->ap[w[i]]), j);
    }
    iso_buf_puts(j, "]}");
}

static void version_order(const iso_ctx *ctx, const iso_exact *x, const uint32_t *rank, iso_buf *j)
{
    const la_state *st = ctx->pc.wl_state;
    const lx_poly *p = poly(x);
    uint32_t *w = iso_xmalloc((p->n_un + 1) * sizeof *w);
    iso_buf_puts(j, ",\"version-order\":[");
    for (uint32_t key = 0, first = 1; key < st->keys.n; key++) {
        if (!st->k[key].len && p->off[key] == p->off[key + 1]) continue;
        iso_buf_puts(j, first ? "" : ",");
        first = 0;
        key_order(ctx, p, key, rank, w, j);
    }
    iso_buf_puts(j, "]");
    iso_free(w);
}

static const iso_exact_words la_exact_words = {"la", "%1's append of %A to key %K", kv, known, assumed, version_order, 0};
