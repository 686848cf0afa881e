/*
 * elle/rw_register/exact.c -- rw-register's polygraph (exact.h): the
 * known edges the inference draws and the unordered pairs of ok writers,
 * solved by elle/exact.c.
 *
 * Invariant: every edge is an edge of the dependency graph under any
 * version order its side allows; a polygraph past the bounds below is
 * unknown, naming the key, never solved in part.
 */
#include "elle/rw_register/exact.h"

#include <stdio.h>
#include <string.h>

/* Bounds on what the solver is given (CaDiCaL's memory is C++'s: running
 * out of it ends the process, so the input stays well below it). */
#define EX_MAX_REACH_BITS ((size_t)1 << 28)  /* per key: versions x ok writes */
#define EX_MAX_CHOICES ((uint32_t)1 << 20)
#define EX_MAX_SIDE_EDGES ((size_t)1 << 23)
/* ---- the polygraph ------------------------------------------------------- */

static void known(ex_poly *p, uint32_t a, uint32_t b, uint8_t bit, uint32_t x, uint32_t y)
{
    long i = iso_exact_known(&p->x, a, b, bit);
    if (i < 0) return;
    ISO_GROW(p->why, p->cap_why, (size_t)i + 1);
    p->why[i] = (ex_why){x, y};
}

/* wr: every read of an ok transaction that shows an ok writer's final
 * write (as rw_register.c's add_edges). */
static void wr_edges(const iso_ctx *ctx, const rw_state *st, ex_poly *p)
{
    for (uint32_t t = 0; t < ctx->pc.txns.n; t++) {
        if (ctx->pc.txns.t[t].type != ISO_OP_OK) continue;
        for (uint32_t m = st->mop_off[t]; m < st->mop_off[t + 1]; m++) {
            if (rw_read_writer(&ctx->pc, st, m) == ISO_NONE) continue;
            uint32_t v = st->mop[m] & ~RW_MOP_W;
            known(p, p->wof[v], t, ISO_EDGE_WR, v, m - st->mop_off[t]);
        }
    }
}

/* One key's versions lo .. hi: its ok writes' index (widx, ISO_NONE for
 * the others), and the work arrays of a key. */
typedef struct key_ctx {
    const rw_state *st;
    const uint32_t *roff;   /* version v's reduced successors: red[roff[v] .. roff[v+1]) */
    uint32_t lo, m;         /* versions lo .. lo + m */
    uint32_t *widx, *wver, w; /* ok-written versions: index of each, and the versions */
    uint32_t *stamp, *queue, *topo;
    uint64_t *reach;        /* per version, over ok writes: which follow it */
    size_t words;
} key_ctx;

/* ww and rw from version a to the first ok writes the version graph puts
 * after it (a search stopping at them; later ones follow through ww). */
static void order_edges(key_ctx *k, ex_poly *p, uint32_t a)
{
    const rw_state *st = k->st;
    uint32_t head = 0, tail = 0, mark = a + 1;
    k->queue[tail++] = a;
    while (head < tail) {
        uint32_t u = k->queue[head++];
        for (uint32_t i = k->roff[u]; i < k->roff[u + 1]; i++) {
            uint32_t b = st->red[i].b;
            if (k->stamp[b - k->lo] == mark) continue;
            k->stamp[b - k->lo] = mark;
            if (k->widx[b - k->lo] == ISO_NONE) { k->queue[tail++] = b; continue; }
            known(p, p->wof[a], p->wof[b], ISO_EDGE_WW, a, b);
            for (uint32_t r = st->rd_off[a]; r < st->rd_off[a + 1]; r++)
                known(p, st->rd[r], p->wof[b], ISO_EDGE_RW, a, b);
        }
    }
}

/* The key's versions in an order where every version comes before its
 * successors (Kahn); 0, or -1 if the version graph has a cycle. */
static int topo(key_ctx *k)
{
    const rw_state *st = k->st;
    memset(k->stamp, 0, k->m * sizeof *k->stamp);
    for (uint32_t u = 0; u < k->m; u++)
        for (uint32_t i = k->roff[k->lo + u]; i < k->roff[k->lo + u + 1]; i++) k->stamp[st->red[i].b - k->lo]++;
    uint32_t n = 0;
    for (uint32_t u = 0; u < k->m; u++)
        if (!k->stamp[u]) k->topo[n++] = u;
    for (uint32_t h = 0; h < n; h++)
        for (uint32_t i = k->roff[k->lo + k->topo[h]]; i < k->roff[k->lo + k->topo[h] + 1]; i++)
            if (--k->stamp[st->red[i].b - k->lo] == 0) k->topo[n++] = st->red[i].b - k->lo;
    return n == k->m ? 0 : -1;
}

/* reach[u]: the ok writes after version lo + u, in reverse topological order. */
static void closure(key_ctx *k)
{
    for (uint32_t h = k->m; h-- > 0;) {
        uint32_t u = k->topo[h];
        uint64_t *ru = k->reach + (size_t)u * k->words;
        for (uint32_t i = k->roff[k->lo + u]; i < k->roff[k->lo + u + 1]; i++) {
            uint32_t b = k->st->red[i].b - k->lo;
            const uint64_t *rb = k->reach + (size_t)b * k->words;
            for (size_t x = 0; x < k->words; x++) ru[x] |= rb[x];
            if (k->widx[b] != ISO_NONE) ru[k->widx[b] / 64] |= (uint64_t)1 << (k->widx[b] % 64);
        }
    }
}

static int follows(const key_ctx *k, uint32_t i, uint32_t j) /* ok write j after ok write i */
{
    const uint64_t *r = k->reach + (size_t)(k->wver[i] - k->lo) * k->words;
    return (int)(r[j / 64] >> (j % 64) & 1);
}

/* One side of the choice "version a before version b". */
static void side(ex_poly *p, const rw_state *st, uint32_t a, uint32_t b)
{
    iso_exact_side_edge(&p->x, p->wof[a], p->wof[b], SOLVE_DEP);
    for (uint32_t r = st->rd_off[a]; r < st->rd_off[a + 1]; r++) iso_exact_side_edge(&p->x, st->rd[r], p->wof[b], SOLVE_ANTI);
    iso_exact_side_end(&p->x);
}

/* A choice for every pair of ok writes of the key no evidence ordered,
 * the earlier writer's first as side 0; -1 past the bounds. */
static int choices(key_ctx *k, ex_poly *p)
{
    const rw_state *st = k->st;
    for (uint32_t i = 0; i < k->w; i++)
        for (uint32_t j = i + 1; j < k->w; j++) {
            if (follows(k, i, j) || follows(k, j, i)) {
                p->x.n_ordered++;
                continue;
            }
            if (p->x.n_ch >= EX_MAX_CHOICES || p->x.n_se >= EX_MAX_SIDE_EDGES) return -1;
            uint32_t a = k->wver[i], b = k->wver[j];
            if (p->wof[b] < p->wof[a]) a = k->wver[j], b = k->wver[i];
            iso_exact_choice(&p->x, a, b, p->wof[a], p->wof[b]);
            side(p, st, a, b);
            side(p, st, b, a);
        }
    return 0;
}

static void key_free(key_ctx *k)
{
    iso_free(k->widx);
    iso_free(k->wver);
    iso_free(k->stamp);
    iso_free(k->queue);
    iso_free(k->topo);
    iso_free(k->reach);
}

/* Key key's known ww / rw edges and its choices; -1 past the bounds or
 * on a cyclic version graph (never kept: versions.c drops such sources). */
static int one_key(const rw_state *st, const uint32_t *roff, uint32_t key, ex_poly *p)
{
    key_ctx k = {st, roff, st->nil_ver[key], 0, NULL, NULL, 0, NULL, NULL, NULL, NULL, 0};
    k.m = (key + 1 < st->keys.n ? st->nil_ver[key + 1] : (uint32_t)st->n_ver) - k.lo;
    k.widx = iso_xmalloc((size_t)k.m * sizeof *k.widx);
    k.wver = iso_xmalloc((size_t)k.m * sizeof *k.wver);
    for (uint32_t u = 0; u < k.m; u++) {
        k.widx[u] = p->wof[k.lo + u] == ISO_NONE ? ISO_NONE : k.w;
        if (k.widx[u] != ISO_NONE) k.wver[k.w++] = k.lo + u;
    }
    k.stamp = iso_xcalloc(k.m, sizeof *k.stamp);
    k.queue = iso_xmalloc((size_t)k.m * sizeof *k.queue);
    k.topo = iso_xmalloc((size_t)k.m * sizeof *k.topo);
    k.words = (k.w + 63) / 64;
    int rc = (size_t)k.m * k.words * 64 > EX_MAX_REACH_BITS || topo(&k) ? -1 : 0;
    if (!rc) {
        k.reach = iso_xcalloc((size_t)k.m * k.words + 1, sizeof *k.reach);
        closure(&k);
        memset(k.stamp, 0, k.m * sizeof *k.stamp);
        for (uint32_t u = 0; u < k.m; u++)
            if (k.widx[u] != ISO_NONE || st->rd_off[k.lo + u + 1] > st->rd_off[k.lo + u]) order_edges(&k, p, k.lo + u);
        rc = choices(&k, p);
    }
    key_free(&k);
    return rc;
}

/* The polygraph of every key; -1 (with the key in *bad) past the bounds. */
static int build(const iso_ctx *ctx, const rw_state *st, ex_poly *p, uint32_t *bad)
{
    uint32_t *roff = iso_xcalloc(st->n_ver + 2, sizeof *roff);
    for (size_t i = 0; i < st->n_red; i++) roff[st->red[i].a + 1]++;
    for (size_t v = 0; v < st->n_ver; v++) roff[v + 1] += roff[v];
    p->wof = iso_xmalloc((st->n_ver + 1) * sizeof *p->wof);
    for (size_t v = 0; v < st->n_ver; v++) {
        const rw_ver *x = &st->ver[v];
        p->wof[v] = x->writer != ISO_NONE && x->wkind == RW_FINAL && st->committed[x->writer] ? x->writer : ISO_NONE;
    }
    wr_edges(ctx, st, p);
    int rc = 0;
    for (uint32_t key = 0; key < st->keys.n && !rc; key++)
        if ((rc = one_key(st, roff, key, p))) *bad = key;
    iso_free(roff);
    p->x.n_data = p->x.n;
    return rc;
}

static void poly_free(ex_poly *p)
{
    iso_free(p->wof);
    iso_free(p->why);
    iso_exact_free(&p->x);
}

/* ---- the check ---------------------------------------------------------- */

/* Whether the polygraph has edges the search's graph lacks besides its
 * choices: an :info writer some ok read shows (the search, as Elle's,
 * takes ok writers only). */
static int info_writers(const rw_state *st, const ex_poly *p)
{
    for (size_t v = 0; v < st->n_ver; v++)
        if (p->wof[v] != st->okw[v]) return 1;
    return 0;
}

/* A polygraph past the bounds: unknown, naming the key. */
static void too_big(iso_ctx *ctx, const rw_state *st, uint32_t key, int model, int variant)
{
    iso_buf t = {0}, j = {0};
    iso_buf_printf(&t, "The exact check of %s left this history undecided: its pairs of writes no evidence orders "
                   "pass the %u the solver is given, counted key by key up to key ", iso_exact_name(model, variant),
                   EX_MAX_CHOICES);
    iso_pc_val_text(&ctx->pc, st->keys.vals[key], &t);
    iso_buf_puts(&t, " (or that key has more versions than the check handles); evidence options (--wfr-keys, "
                 "--sequential-keys, --linearizable-keys, --transaction-order) order more of them.");
    iso_buf_puts(&j, "{\"type\":\"cycle-search-timeout\",\"exact\":\"too-large\",\"key\":");
    iso_pc_val_json(&ctx->pc, st->keys.vals[key], &j);
    iso_buf_puts(&j, "}");
    iso_findings_add_text(&ctx->findings, ISO_A_CYCLE_SEARCH_TIMEOUT, iso_buf_cstr(&t), iso_buf_cstr(&j));
    iso_buf_free(&t);
    iso_buf_free(&j);
}

void rw_exact(iso_ctx *ctx, const iso_graph *g, uint8_t extra)
{
    int model[4], variant[4], n = iso_exact_problems(ctx, extra, model, variant);
    if (n == 0) return;
    const rw_state *st = ctx->pc.wl_state;
    ex_poly p = {0};
    uint32_t bad = 0;
    int big = build(ctx, st, &p, &bad);
    iso_phase("rw: exact polygraph");
    if (big) too_big(ctx, st, bad, model[0], variant[0]);
    else iso_exact_run(ctx, g, &p.x, &rw_exact_words, model, variant, n, !info_writers(st, &p));
    poly_free(&p);
    iso_phase("rw: exact");
}
