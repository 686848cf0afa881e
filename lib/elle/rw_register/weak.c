/*
 * elle/rw_register/weak.c -- the weak models' checks (weak.h): which
 * levels a request needs, and for each level run, the graph of wr (and so)
 * with the pairs it forces, its strongly connected components, and one
 * cycle through a forced pair in each component that has one; and every
 * read of the initial state a pair puts after a write.
 *
 * The levels run for the models asked that imply them below snapshot
 * isolation (and for -a of their violations). A level that holds implies
 * the weaker ones (causal implies
 * causal-cerone, read committed in Biswas and Enea's sense and read
 * atomic; causal-cerone implies read atomic; read committed and read atomic
 * imply monotonic atomic view), so the strongest level asked runs first
 * and, when it finds nothing, is the only one; when it finds a violation
 * the weaker ones run too, and a level's findings are kept only when no
 * weaker level found one (as Elle keeps an anomaly only when none it
 * implies was found): a fractured read is reported as that, not also as
 * the causality violation it is too. Monotonic atomic view runs wherever
 * read committed does, so that what read committed reports
 * (non-monotonic-read-process) is what needs session order.
 */
#include "elle/rw_register/weak.h"
#include "graph/scc.h"

#include <stdlib.h>
#include <string.h>

static const int level_type[RW_LV_N] = {ISO_A_NON_MONOTONIC_READ, ISO_A_NON_MONOTONIC_READ_PROCESS,
                                        ISO_A_FRACTURED_READ, ISO_A_CAUSALITY_VIOLATION,
                                        ISO_A_CAUSALITY_VIOLATION_PROCESS};

int rw_level_sessions(int level) { return level == RW_LV_RC || level == RW_LV_CC; }

int rw_level_type(int level) { return level_type[level]; }

void rw_forced_of(const rw_wk *wk, int level, rw_forced *f)
{
    static void (*const rules[RW_LV_N])(const rw_wk *, rw_forced *) = {rw_forced_rc, rw_forced_rc, rw_forced_ra,
                                                                        rw_forced_ccc, rw_forced_cc};
    rules[level](wk, f);
}

uint32_t rw_weak_keep(struct rw_weak *w, const uint32_t *ids, const uint32_t *lbl, size_t n)
{
    size_t at = w->n_ids;
    ISO_GROW(w->ids, w->cap_ids, at + n);
    ISO_GROW(w->lbl, w->cap_lbl, at + n);
    memcpy(w->ids + at, ids, n * sizeof *ids);
    if (lbl) memcpy(w->lbl + at, lbl, n * sizeof *lbl);
    w->n_ids += n;
    return (uint32_t)at;
}

void rw_weak_free(struct rw_weak *w)
{
    if (!w) return;
    for (int l = 0; l < RW_LV_N; l++) iso_free(w->co[l]);
    iso_free(w->ids);
    iso_free(w->lbl);
    iso_free(w->f);
    iso_free(w);
}

/* ---- one level's graph ----------------------------------------------------------- */

static int cmp_co(const void *pa, const void *pb)
{
    const rw_co *a = pa, *b = pb;
    if (a->t2 != b->t2) return a->t2 < b->t2 ? -1 : 1;
    if (a->t1 != b->t1) return a->t1 < b->t1 ? -1 : 1;
    if (a->t3 != b->t3) return a->t3 < b->t3 ? -1 : 1;
    return (a->a > b->a) - (a->a < b->a);
}

/* The first forced pair t2 -> t1 (the pairs sorted), or ISO_NONE. */
static uint32_t co_find(const rw_forced *f, uint32_t t2, uint32_t t1)
{
    size_t lo = 0, hi = f->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->co[mid].t2 < t2 || (f->co[mid].t2 == t2 && f->co[mid].t1 < t1)) lo = mid + 1;
        else hi = mid;
    }
    return lo < f->n && f->co[lo].t2 == t2 && f->co[lo].t1 == t1 ? (uint32_t)lo : ISO_NONE;
}

/* wr (and so) and the forced pairs, as a graph: wr as ISO_EDGE_WR, so as
 * ISO_EDGE_PROCESS, a forced pair as ISO_EDGE_WW. */
static void level_graph(const rw_wk *wk, int level, const rw_forced *f, iso_graph *g)
{
    iso_edges e = {0};
    uint32_t *p = iso_xmalloc(((size_t)wk->n + 1) * sizeof *p), *stamp = iso_xcalloc((size_t)wk->n + 1, sizeof *stamp);
    for (uint32_t t = 0; t < wk->n; t++) {
        uint32_t np = rw_hb_preds(wk, level, t, p, stamp);
        int so = wk->st->committed[t] && rw_level_sessions(level) && wk->sidx[t] > 0;
        for (uint32_t i = 0; i < np; i++) iso_edges_add(&e, p[i], t, i == 0 && so ? ISO_EDGE_PROCESS : ISO_EDGE_WR);
    }
    for (size_t i = 0; i < f->n; i++)
        if (f->co[i].t1 != ISO_NONE) iso_edges_add(&e, f->co[i].t2, f->co[i].t1, ISO_EDGE_WW);
    iso_graph_build_consume(g, wk->n, &e);
    iso_free(p);
    iso_free(stamp);
}

/* Breadth-first search state, reset after each search. */
typedef struct bfs {
    uint32_t *parent, *queue, *path, *lbl;
} bfs;

/* The label of edge a -> b of g: wr or so when it is one, else a forced
 * pair's index. */
static uint32_t label(const iso_graph *g, const rw_forced *f, uint32_t a, uint32_t b)
{
    uint8_t bits = iso_graph_row_bits(g, a, b);
    if (bits & ISO_EDGE_WR) return RW_L_WR;
    if (bits & ISO_EDGE_PROCESS) return RW_L_SO;
    return co_find(f, a, b);
}

/* A shortest path from s to d inside component c, into b->path (s first,
 * d last) with its edges' labels; returns its length in vertices. */
static uint32_t path_in(const iso_graph *g, const rw_forced *f, const uint32_t *comp, bfs *b, uint32_t s, uint32_t d)
{
    size_t head = 0, tail = 0;
    b->queue[tail++] = s;
    b->parent[s] = s;
    while (head < tail && b->parent[d] == ISO_NONE) {
        uint32_t v = b->queue[head++];
        for (uint32_t i = g->off[v]; i < g->off[v + 1]; i++) {
            uint32_t x = g->dst[i];
            if (comp[x] != comp[s] || b->parent[x] != ISO_NONE) continue;
            b->parent[x] = v;
            b->queue[tail++] = x;
        }
    }
    uint32_t n = 0;
    for (uint32_t v = d; v != s; v = b->parent[v]) b->path[n++] = v;
    b->path[n++] = s;
    for (uint32_t i = 0; i < n / 2; i++) {
        uint32_t x = b->path[i]; b->path[i] = b->path[n - 1 - i]; b->path[n - 1 - i] = x;
    }
    for (uint32_t i = 0; i + 1 < n; i++) b->lbl[i] = label(g, f, b->path[i], b->path[i + 1]);
    for (size_t i = 0; i < tail; i++) b->parent[b->queue[i]] = ISO_NONE;
    return n;
}

/* A pass: one level's forced pairs and what they show. */
typedef struct pass {
    int ran, level;
    rw_forced f;
    size_t first, n_found;   /* its findings: w->f[first .. first + n_found) */
    size_t n_base;           /* of which cycles of wr and so alone */
} pass;

static void found(struct rw_weak *w, pass *p, int base, uint32_t at, uint32_t n)
{
    ISO_PUSH(w->f, w->n_f, w->cap_f, ((rw_wfind){(uint8_t)p->level, (uint8_t)base, at, n}));
    p->n_found++;
    p->n_base += (size_t)base;
}

/* The cycle t2 -> t1 (forced pair i) -> ... -> t2. */
static void forced_cycle(const iso_graph *g, const uint32_t *comp, bfs *b, pass *p, struct rw_weak *w, size_t i)
{
    const rw_co *c = &p->f.co[i];
    uint32_t n = path_in(g, &p->f, comp, b, c->t1, c->t2);
    memmove(b->path + 1, b->path, n * sizeof *b->path);
    memmove(b->lbl + 1, b->lbl, n * sizeof *b->lbl);
    b->path[0] = c->t2;
    b->lbl[0] = (uint32_t)i;
    found(w, p, 0, rw_weak_keep(w, b->path, b->lbl, n), n);
}

/* The cycle v -so-> d -> ... -> v, of wr and so alone: G1c-process. */
static void base_cycle(const iso_graph *g, const uint32_t *comp, bfs *b, pass *p, struct rw_weak *w, uint32_t v,
                       uint32_t d)
{
    uint32_t n = path_in(g, &p->f, comp, b, d, v);
    memmove(b->path + 1, b->path, n * sizeof *b->path);
    memmove(b->lbl + 1, b->lbl, n * sizeof *b->lbl);
    b->path[0] = v;
    b->lbl[0] = RW_L_SO;
    found(w, p, 1, rw_weak_keep(w, b->path, b->lbl, n), n);
}

/* A component without forced pairs of a level with sessions: a cycle
 * through its first so edge that is not wr too (through one that is, the
 * cycle search finds it as G1c when the rest is wr), if it has one. Elle's
 * cycle search finds these as G1c-process when its graph has them, but it
 * has no edges of :info transactions, and it takes an edge that is process
 * order and rw at once for rw alone (docs/MODELS.md, Findings): once it no
 * longer does, only the cycles through :info transactions need be found
 * here. */
static void so_cycles(const rw_wk *wk, const iso_graph *g, const uint32_t *comp, uint8_t *done, bfs *b, pass *p,
                      struct rw_weak *w)
{
    for (uint32_t t = 0; t < wk->n; t++)
        for (uint32_t i = g->off[t]; i < g->off[t + 1] && !done[comp[t]]; i++)
            if ((g->bits[i] & (ISO_EDGE_PROCESS | ISO_EDGE_WR)) == ISO_EDGE_PROCESS && comp[g->dst[i]] == comp[t]) {
                done[comp[t]] = 1;
                base_cycle(g, comp, b, p, w, t, g->dst[i]);
            }
}

/* Per component, a cycle through its first forced pair; without one, a
 * cycle through an so edge (levels with sessions). */
static void cycles(const rw_wk *wk, const iso_graph *g, pass *p, struct rw_weak *w)
{
    uint32_t *comp = iso_xmalloc(((size_t)wk->n + 1) * sizeof *comp);
    uint32_t nc = iso_scc(g, 0xff, comp);
    uint8_t *done = iso_xcalloc((size_t)nc + 1, 1);
    bfs b = {iso_xmalloc(((size_t)wk->n + 1) * sizeof(uint32_t)), iso_xmalloc(((size_t)wk->n + 1) * sizeof(uint32_t)),
             iso_xmalloc(((size_t)wk->n + 2) * sizeof(uint32_t)), iso_xmalloc(((size_t)wk->n + 2) * sizeof(uint32_t))};
    memset(b.parent, 0xff, ((size_t)wk->n + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < p->f.n; i++) {
        const rw_co *c = &p->f.co[i];
        if (c->t1 == ISO_NONE) found(w, p, 0, (uint32_t)i, 0);
        else if (comp[c->t2] == comp[c->t1] && !done[comp[c->t2]]) {
            done[comp[c->t2]] = 1;
            forced_cycle(g, comp, &b, p, w, i);
        }
    }
    if (rw_level_sessions(p->level)) so_cycles(wk, g, comp, done, &b, p, w);
    iso_free(b.parent);
    iso_free(b.queue);
    iso_free(b.path);
    iso_free(b.lbl);
    iso_free(done);
    iso_free(comp);
}

/* The causal paths the findings of a causal pass show. */
static void paths(const rw_wk *wk, pass *p, struct rw_weak *w)
{
    rw_paths ps;
    rw_paths_init(&ps, wk->n);
    for (size_t i = p->first; i < p->first + p->n_found; i++) {
        rw_wfind *x = &w->f[i];
        if (!x->n) rw_causal_path(wk, p->level, &p->f, &ps, &p->f.co[x->at], w);
        for (uint32_t j = 0; j < x->n; j++) {
            uint32_t l = w->lbl[x->at + j];
            if (l != RW_L_WR && l != RW_L_SO && p->f.co[l].b == ISO_NONE)
                rw_causal_path(wk, p->level, &p->f, &ps, &p->f.co[l], w);
        }
    }
    rw_paths_free(&ps);
}

static void run(const rw_wk *wk, pass *p, int level, struct rw_weak *w)
{
    *p = (pass){1, level, {0}, w->n_f, 0, 0};
    rw_forced_of(wk, level, &p->f);
    if (p->f.n > 1) qsort(p->f.co, p->f.n, sizeof *p->f.co, cmp_co);
    iso_graph g;
    level_graph(wk, level, &p->f, &g);
    cycles(wk, &g, p, w);
    iso_graph_free(&g);
    if (level == RW_LV_CC || level == RW_LV_CCC) paths(wk, p, w);
}

/* ---- which levels, and what is reported ------------------------------------------- */

/* Whether pass p leaves nothing to find below it: it ran and found no
 * violation, and ranked every transaction (a cycle of hb hides what
 * follows it). */
static int clean(const pass *p) { return p->ran && !p->n_found && !p->f.unranked; }

/* The findings of the passes that a weaker pass's findings do not imply:
 * MAV's; RA's and RC's when MAV found none; CCC's when neither MAV nor RA
 * did; CC's when none of the others did. Cycles of wr and so alone once,
 * from the first pass with them. */
static void emit(iso_ctx *ctx, struct rw_weak *w, pass *p)
{
    int mav = p[RW_LV_MAV].n_found > 0, base_done = 0;
    int any_weak = mav || p[RW_LV_RC].n_found + p[RW_LV_RA].n_found + p[RW_LV_CCC].n_found > 0;
    int keep[RW_LV_N] = {1, !mav, !mav, !mav && !p[RW_LV_RA].n_found, !any_weak};
    for (int l = 0; l < RW_LV_N; l++) {
        if (!p[l].ran) continue;
        for (size_t i = p[l].first; i < p[l].first + p[l].n_found; i++) {
            const rw_wfind *x = &w->f[i];
            if (x->base ? base_done : !keep[l]) continue;
            iso_findings_add_pending(&ctx->findings, x->base ? ISO_A_G1C_PROCESS : level_type[l], rw_weak_render, i);
        }
        base_done |= p[l].n_base > 0;
        w->co[l] = p[l].f.co;
        w->n_co[l] = p[l].f.n;
        iso_free(p[l].f.pos);
    }
}

/* The levels in the order they run: the strongest asked first. MAV's
 * graph is RC's without session order, its forced pairs the same: when RC
 * ran and found nothing, MAV has nothing to find. */
static void plan(const rw_wk *wk, const int *want, pass *p, struct rw_weak *w)
{
    if (want[RW_LV_CC]) {
        run(wk, &p[RW_LV_CC], RW_LV_CC, w);
        if (clean(&p[RW_LV_CC])) return;
    }
    if (want[RW_LV_CCC]) run(wk, &p[RW_LV_CCC], RW_LV_CCC, w);
    if (want[RW_LV_RA] && !clean(&p[RW_LV_CCC])) run(wk, &p[RW_LV_RA], RW_LV_RA, w);
    if (want[RW_LV_RC]) run(wk, &p[RW_LV_RC], RW_LV_RC, w);
    if (want[RW_LV_MAV] && !clean(&p[RW_LV_RC])) run(wk, &p[RW_LV_MAV], RW_LV_MAV, w);
}

/* Whether the request runs level l: -a names its violation, or a model
 * checked implies the level's model (for causal, with session order: one
 * that does not imply snapshot-isolation too). From SI up the rw-register
 * check is sound only (NP-complete: docs/MODELS.md); read-committed-be,
 * read-atomic and causal-cerone run under it as well (a fractured read is
 * no serializable history), causal's saturation, which would cost several
 * times the check, only when asked below SI or by -c causal. */
static int wanted(const iso_request *req, int l)
{
    static const char *const level_model[RW_LV_N] = {"monotonic-atomic-view", "read-committed-be", "read-atomic",
                                                     "causal-cerone", "causal"};
    int lm = iso_model_parse(level_model[l]), si = iso_model_parse("snapshot-isolation");
    if (!req->reportable[level_type[l]]) return 0;
    if (req->asked[level_type[l]]) return 1;
    for (size_t i = 0; i < req->n_checked; i++)
        if (iso_model_implies(req->checked[i].model, lm) &&
            (l != RW_LV_CC || !iso_model_implies(req->checked[i].model, si) || req->checked[i].model == lm))
            return 1;
    return 0;
}

void rw_weak_check(iso_ctx *ctx, rw_state *st)
{
    if (!ctx->req) return;
    int want[RW_LV_N], any = 0;
    for (int l = 0; l < RW_LV_N; l++) any |= want[l] = wanted(ctx->req, l);
    if (!any) return;
    want[RW_LV_MAV] |= want[RW_LV_RC]; /* what RC reports needs session order */
    rw_wk wk;
    pass p[RW_LV_N] = {{0}};
    rw_wk_init(&wk, &ctx->pc, st);
    st->weak = iso_xcalloc(1, sizeof *st->weak);
    plan(&wk, want, p, st->weak);
    emit(ctx, st->weak, p);
    rw_wk_free(&wk);
    iso_phase("rw: weak models");
}
