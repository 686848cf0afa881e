/*
 * elle/rw_register/versions.c -- rw-register version graphs: the version-order evidence
 * Elle's rw-register accepts (initial state, writes-follow-reads,
 * sequential keys, linearizable keys, a transaction order), applied one
 * source at a time; a source that makes any key's graph cyclic is reported
 * as cyclic-versions and dropped, as Elle does. The accepted graph is then
 * transitively reduced, so that ww / rw edges name adjacent versions (Elle
 * links every edge; cycles exist in one graph exactly when in the other).
 *
 * Sequential and linearizable keys relate a transaction's final value of a
 * key to the first value of the next transactions touching that key, per
 * process or per key in real time. Both are linear passes: the real-time
 * one keeps, per key, the frontier of completed transactions (the reduction
 * Elle's realtime-graph uses), so no transaction walks forward. The
 * transaction order (Elle's :transaction-order) ranks completions; each
 * key's external writes follow in rank order (reads are not ordered by it).
 */
#include "elle/rw_register/rw_register_int.h"
#include "elle/rw_register/txn_order.h"
#include "graph/scc.h"

#include <stdlib.h>
#include <string.h>

static const char *const source_names[RW_SRC_COUNT] = {
    "initial-state", "wfr-keys", "sequential-keys", "linearizable-keys", "transaction-order"};

static const char *source_name(int s) { return source_names[s]; }

typedef struct vbuf {
    iso_edges e;       /* version edges, bits = 1 */
} vbuf;

static void push(vbuf *b, uint32_t a, uint32_t c)
{
    if (a != c && a != ISO_NONE && c != ISO_NONE) iso_edges_add(&b->e, a, c, 1);
}

static int is_nil(const rw_state *st, uint32_t v) { return iso_is_nil(st->ver[v].val); }

/* Elle's (or write read): the last value a transaction left for a key. */
static uint32_t final_of(const rw_state *st, const rw_ext *e)
{
    if (e->wr != ISO_NONE && !is_nil(st, e->wr)) return e->wr;
    return e->rd != ISO_NONE ? e->rd : st->nil_ver[e->key];
}

/* Elle's (or read write): the first value, for ok transactions; info
 * transactions only tell their writes. */
static uint32_t first_of(const rw_state *st, const rw_ext *e, int type)
{
    if (type != ISO_OP_OK) return e->wr;
    if (e->rd != ISO_NONE && !is_nil(st, e->rd)) return e->rd;
    return e->wr != ISO_NONE ? e->wr : st->nil_ver[e->key];
}

/* ---- sources ------------------------------------------------------------ */

/* nil precedes every value an ok transaction read or an ok/info one wrote. */
static void src_initial(const iso_proof_ctx *pc, const rw_state *st, vbuf *b)
{
    for (uint32_t v = 0; v < st->n_ver; v++) {
        const rw_ver *x = &st->ver[v];
        if (iso_is_nil(x->val)) continue;
        int written = x->wkind == RW_FINAL && pc->txns.t[x->writer].type != ISO_OP_FAIL;
        if (written || st->rd_off[v + 1] > st->rd_off[v]) push(b, st->nil_ver[x->key], v);
    }
}

/* A write follows the external read of the same key in one ok txn. */
static void src_wfr(const iso_proof_ctx *pc, const rw_state *st, vbuf *b)
{
    for (size_t t = 0; t < pc->txns.n; t++) {
        if (pc->txns.t[t].type != ISO_OP_OK) continue;
        for (uint32_t i = st->ext_off[t]; i < st->ext_off[t + 1]; i++)
            if (st->ext[i].rd != ISO_NONE && !is_nil(st, st->ext[i].rd))
                push(b, st->ext[i].rd, st->ext[i].wr);
    }
}

/* (process, key) -> last ext entry, open addressing on a packed u64. */
typedef struct pk_map {
    uint64_t *k;       /* key + 1, 0 = empty */
    uint32_t *v;
    size_t n_slots;
} pk_map;

static uint32_t *pk_slot(pk_map *m, uint64_t key)
{
    size_t mask = m->n_slots - 1, i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & mask;
    while (m->k[i] && m->k[i] != key + 1) i = (i + 1) & mask;
    if (!m->k[i]) {
        m->k[i] = key + 1;
        m->v[i] = ISO_NONE;
    }
    return &m->v[i];
}

/* Per process, consecutive ok transactions touching a key (Elle's process
 * graph, through transactions that do not touch it). */
static void src_sequential(const iso_proof_ctx *pc, const rw_state *st, vbuf *b)
{
    pk_map m = {0};
    m.n_slots = 64;
    while (m.n_slots < 2 * (size_t)st->n_ext + 2) m.n_slots *= 2;
    m.k = iso_xcalloc(m.n_slots, sizeof *m.k);
    m.v = iso_xmalloc(m.n_slots * sizeof *m.v);
    for (size_t t = 0; t < pc->txns.n; t++) {
        if (pc->txns.t[t].type != ISO_OP_OK) continue;
        uint64_t p = iso_txn_op(pc->h, &pc->txns.t[t])->process;
        for (uint32_t i = st->ext_off[t]; i < st->ext_off[t + 1]; i++) {
            uint32_t *last = pk_slot(&m, p << 32 | st->ext[i].key);
            if (*last != ISO_NONE)
                push(b, final_of(st, &st->ext[*last]), first_of(st, &st->ext[i], ISO_OP_OK));
            *last = i;
        }
    }
    iso_free(m.k);
    iso_free(m.v);
}

/* Per key, the frontier of ok transactions that completed and are not yet
 * followed in real time by another completed one touching the key: a
 * queue of nodes (linked through next) in completion order, each with the
 * version the transaction left. A member whose version a later member
 * also left adds no edge that one does not (it would leave the queue
 * first), so it goes at once: queues hold distinct versions. Retired nodes
 * are reused, so the pool stays about concurrency x keys. */
typedef struct fnode {
    uint32_t final;    /* the version the transaction left for the key */
    uint32_t cmp;      /* position of its completion */
    uint32_t next;
    uint32_t last;     /* the version its last edge went to: not again */
} fnode;

typedef struct frontiers {
    uint32_t *head, *tail; /* per key; ISO_NONE: empty */
    fnode *node;
    size_t n_node, cap_node;
    uint32_t free;         /* reusable nodes, linked through next */
} frontiers;

static void node_free(frontiers *f, uint32_t n)
{
    f->node[n].next = f->free;
    f->free = n;
}

static uint32_t node_new(frontiers *f, uint32_t final, uint32_t cmp)
{
    uint32_t n = f->free;
    if (n != ISO_NONE) {
        f->free = f->node[n].next;
    } else {
        ISO_GROW(f->node, f->cap_node, f->n_node + 1);
        n = (uint32_t)f->n_node++;
    }
    f->node[n] = (fnode){final, cmp, ISO_NONE, ISO_NONE};
    return n;
}

/* Txn t is invoked: every frontier member of each of its keys precedes it. */
static void rt_invoke(const rw_state *st, const frontiers *f, const iso_txn *t, uint32_t txn, vbuf *b)
{
    int ok = t->type == ISO_OP_OK;
    for (uint32_t i = st->ext_off[txn]; i < st->ext_off[txn + 1]; i++) {
        const rw_ext *e = &st->ext[i];
        if (!ok && e->wr == ISO_NONE) continue;
        uint32_t first = first_of(st, e, t->type);
        for (uint32_t n = f->head[e->key]; n != ISO_NONE; n = f->node[n].next) {
            if (f->node[n].last == first) continue; /* the same edge as the member's last */
            f->node[n].last = first;
            push(b, f->node[n].final, first);
        }
    }
}

/* Appends a node with version v to key k's queue, dropping one with v. */
static void rt_join(frontiers *f, uint32_t k, uint32_t v, uint32_t pos)
{
    uint32_t prev = ISO_NONE;
    for (uint32_t n = f->head[k]; n != ISO_NONE; prev = n, n = f->node[n].next) {
        if (f->node[n].final != v) continue;
        if (prev == ISO_NONE) f->head[k] = f->node[n].next;
        else f->node[prev].next = f->node[n].next;
        if (f->tail[k] == n) f->tail[k] = prev;
        node_free(f, n);
        break; /* versions in a queue are distinct */
    }
    uint32_t n = node_new(f, v, pos);
    if (f->head[k] == ISO_NONE) f->head[k] = n;
    else f->node[f->tail[k]].next = n;
    f->tail[k] = n;
}

/* Ok txn t completes at pos: on each of its keys, members that completed
 * before t was invoked are implied through t and leave; t joins. */
static void rt_complete(const rw_state *st, frontiers *f, const iso_txn *t, uint32_t txn, uint32_t pos)
{
    for (uint32_t i = st->ext_off[txn]; i < st->ext_off[txn + 1]; i++) {
        uint32_t k = st->ext[i].key, n;
        while (t->inv != ISO_NONE && (n = f->head[k]) != ISO_NONE && f->node[n].cmp < t->inv) {
            f->head[k] = f->node[n].next;
            node_free(f, n);
        }
        rt_join(f, k, final_of(st, &st->ext[i]), pos);
    }
}

/* Per key, real-time order: every ok transaction completed before another
 * is invoked, through the frontier of completions not yet implied; one
 * pass over the history's events. */
static void src_linearizable(const iso_proof_ctx *pc, const rw_state *st, vbuf *b)
{
    const iso_txns *tx = &pc->txns;
    size_t nk = st->keys.n ? st->keys.n : 1;
    frontiers f = {iso_xmalloc(nk * sizeof *f.head), iso_xmalloc(nk * sizeof *f.tail), NULL, 0, 0, ISO_NONE};
    memset(f.head, 0xff, nk * sizeof *f.head);
    uint32_t *pos_txn = iso_xmalloc((pc->h->n_ops + 1) * sizeof *pos_txn);
    memset(pos_txn, 0xff, (pc->h->n_ops + 1) * sizeof *pos_txn);
    for (uint32_t t = 0; t < tx->n; t++) {
        int ok = tx->t[t].type == ISO_OP_OK;
        if (!ok && tx->t[t].type != ISO_OP_INFO) continue;
        if (tx->t[t].inv != ISO_NONE) pos_txn[tx->t[t].inv] = t;
        if (ok) pos_txn[tx->t[t].cmp] = t;
    }
    for (uint32_t pos = 0; pos < pc->h->n_ops; pos++) {
        uint32_t t = pos_txn[pos];
        if (t == ISO_NONE) continue;
        if (pos == tx->t[t].cmp) rt_complete(st, &f, &tx->t[t], t, pos);
        else rt_invoke(st, &f, &tx->t[t], t, b);
    }
    iso_free(pos_txn);
    iso_free(f.head);
    iso_free(f.tail);
    iso_free(f.node);
}

/* One external write of a ranked transaction. */
typedef struct ranked {
    double rank;
    uint32_t key, txn, ver;
} ranked;

static int cmp_ranked(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    return (a->txn > b->txn) - (a->txn < b->txn);
}

/* The database's own commit order: consecutive writes of each key. */
static int src_txn_order(const iso_ctx *ctx, const rw_state *st, vbuf *b, isolde_error *err)
{
    iso_txn_rank *r = NULL;
    size_t nr = 0, n = 0, cap = 0;
    if (iso_txn_order_read(ctx->co->transaction_order, &r, &nr, err)) return -1;
    ranked *w = NULL;
    for (uint32_t t = 0; t < ctx->pc.txns.n; t++) {
        const iso_txn *tx = &ctx->pc.txns.t[t];
        double rank;
        if (tx->cmp == ISO_NONE || tx->type == ISO_OP_FAIL ||
            !iso_txn_order_find(r, nr, ctx->pc.h->ops[tx->cmp].index, &rank)) continue;
        for (uint32_t i = st->ext_off[t]; i < st->ext_off[t + 1]; i++)
            if (st->ext[i].wr != ISO_NONE)
                ISO_PUSH(w, n, cap, ((ranked){rank, st->ext[i].key, t, st->ext[i].wr}));
    }
    if (n) qsort(w, n, sizeof *w, cmp_ranked);
    for (size_t i = 1; i < n; i++)
        if (w[i].key == w[i - 1].key) push(b, w[i - 1].ver, w[i].ver);
    iso_free(w);
    iso_free(r);
    return 0;
}

/* ---- cycles ------------------------------------------------------------- */

/* Stable bottom-up merge sort of ids under a comparator with context. */
typedef int (*id_cmp)(const void *cx, uint32_t a, uint32_t b);

static void msort(uint32_t *a, size_t n, id_cmp cmp, const void *cx)
{
    uint32_t *tmp = iso_xmalloc((n + 1) * sizeof *tmp), *src = a, *dst = tmp;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = cmp(cx, src[j], src[i]) < 0 ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        uint32_t *x = src; src = dst; dst = x;
    }
    if (src != a) memcpy(a, src, n * sizeof *a);
    iso_free(tmp);
}

typedef struct vcx {
    const rw_state *st;
    const iso_store *s;
} vcx;

static int cmp_ver(const void *p, uint32_t a, uint32_t b)
{
    const vcx *c = p;
    const rw_ver *x = &c->st->ver[a], *y = &c->st->ver[b];
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (iso_is_nil(x->val) || iso_is_nil(y->val)) /* the initial state first */
        return iso_is_nil(y->val) - iso_is_nil(x->val);
    return iso_val_cmp(c->s, x->val, y->val);
}

/* A shortest cycle through scc[0] inside its component (BFS); returns its
 * length, vertices in path[] (scc[0] first). */
static size_t find_cycle(const iso_graph *g, const uint32_t *comp, uint32_t s, uint32_t *parent,
                         uint32_t *queue, uint32_t *path)
{
    size_t head = 0, tail = 0;
    uint32_t last = ISO_NONE;
    queue[tail++] = s;
    parent[s] = s;
    while (head < tail && last == ISO_NONE) {
        uint32_t v = queue[head++];
        for (uint32_t i = g->off[v]; i < g->off[v + 1] && last == ISO_NONE; i++) {
            uint32_t d = g->dst[i];
            if (d == s) last = v;
            else if (comp[d] == comp[s] && parent[d] == ISO_NONE) {
                parent[d] = v;
                queue[tail++] = d;
            }
        }
    }
    size_t n = 0;
    for (uint32_t v = last; v != s; v = parent[v]) path[n++] = v;
    path[n++] = s;
    for (size_t i = 0; i < n / 2; i++) {
        uint32_t x = path[i]; path[i] = path[n - 1 - i]; path[n - 1 - i] = x;
    }
    for (size_t i = 0; i < tail; i++) parent[queue[i]] = ISO_NONE;
    return n;
}

/* ---- cyclic versions ---------------------------------------------------- */

static size_t keep_ids(rw_state *st, const uint32_t *ids, size_t n)
{
    size_t at = st->n_cyc_ids;
    ISO_GROW(st->cyc_ids, st->cap_cyc_ids, at + n);
    memcpy(st->cyc_ids + at, ids, n * sizeof *ids);
    st->n_cyc_ids += n;
    return at;
}

/* iso_render_fn of cyclic-versions finding i. */
static void render_cyclic(const iso_proof_ctx *pc, size_t i, iso_fb *f)
{
    const rw_state *st = pc->wl_state;
    const rw_cyclic *c = &st->cyc[i];
    const uint32_t *vers = st->cyc_ids + c->vers, *cycle = st->cyc_ids + c->cycle;
    iso_val k = st->keys.vals[st->ver[vers[0]].key];
    iso_buf_puts(&f->text, "The inferred version order of key ");
    iso_pc_val_text(pc, k, &f->text);
    iso_buf_puts(&f->text, " is cyclic: ");
    for (size_t j = 0; j <= c->n_cycle; j++) {
        if (j) iso_buf_puts(&f->text, " < ");
        iso_pc_val_text(pc, st->ver[cycle[j % c->n_cycle]].val, &f->text);
    }
    iso_buf_puts(&f->text, "\n  inferred from: ");
    iso_fb_field(pc, f, "key", k);
    iso_fb_key(f, "scc");
    iso_buf_puts(&f->json, "[");
    for (size_t j = 0; j < c->n_vers; j++) {
        if (j) iso_buf_puts(&f->json, ",");
        iso_pc_val_json(pc, st->ver[vers[j]].val, &f->json);
    }
    iso_buf_puts(&f->json, "]");
    iso_fb_key(f, "sources");
    iso_buf_puts(&f->json, "[");
    for (size_t j = 0; j < c->n_sources; j++) {
        iso_buf_printf(&f->text, "%s%s", j ? ", " : "", source_name(c->sources[j]));
        iso_buf_printf(&f->json, "%s\"%s\"", j ? "," : "", source_name(c->sources[j]));
    }
    iso_buf_printf(&f->text, "\n  the %s evidence was set aside", source_name(c->sources[c->n_sources - 1]));
    iso_buf_puts(&f->json, "]");
    iso_fb_close(f);
}

static void report_cyclic(iso_ctx *ctx, rw_state *st, const uint32_t *vers, size_t n,
                      const uint32_t *cycle, size_t n_cycle, const int *sources,
                      size_t n_sources)
{
    rw_cyclic c = {(uint32_t)keep_ids(st, vers, n), (uint32_t)n, 0, (uint32_t)n_cycle, {0},
                   (uint8_t)n_sources};
    c.cycle = (uint32_t)keep_ids(st, cycle, n_cycle);
    for (size_t j = 0; j < n_sources; j++) c.sources[j] = (uint8_t)sources[j];
    ISO_PUSH(st->cyc, st->n_cyc, st->cap_cyc, c);
    iso_findings_add_pending(&ctx->findings, ISO_A_CYCLIC_VERSIONS, render_cyclic, st->n_cyc - 1);
}

/* Report every component of two or more versions, by key then least
 * version. Returns the number reported. */
static size_t report_sccs(iso_ctx *ctx, rw_state *st, const iso_graph *g, const int *used,
                          size_t n_used)
{
    uint32_t n = g->n, *comp = iso_xmalloc((n + 1) * sizeof *comp);
    uint32_t nc = iso_scc(g, 1, comp);
    uint32_t *off = iso_xcalloc((size_t)nc + 2, sizeof *off), *byc = iso_xmalloc((n + 1) * sizeof *byc);
    for (uint32_t v = 0; v < n; v++) off[comp[v] + 2]++;
    for (size_t c = 2; c < (size_t)nc + 2; c++) off[c] += off[c - 1];
    for (uint32_t v = 0; v < n; v++) byc[off[comp[v] + 1]++] = v;
    vcx cx = {st, &ctx->pc.h->store};
    uint32_t *reps = NULL;
    size_t n_reps = 0, cap = 0;
    for (uint32_t c = 0; c < nc; c++) {
        if (off[c + 1] - off[c] < 2) continue;
        msort(byc + off[c], off[c + 1] - off[c], cmp_ver, &cx);
        ISO_PUSH(reps, n_reps, cap, byc[off[c]]);
    }
    if (n_reps) {
        msort(reps, n_reps, cmp_ver, &cx);
        uint32_t *parent = iso_xmalloc((n + 1) * sizeof *parent), *queue = iso_xmalloc((n + 1) * sizeof *queue);
        uint32_t *path = iso_xmalloc((n + 1) * sizeof *path);
        memset(parent, 0xff, (n + 1) * sizeof *parent);
        for (size_t i = 0; i < n_reps; i++) {
            uint32_t c = comp[reps[i]];
            size_t len = find_cycle(g, comp, reps[i], parent, queue, path);
            report_cyclic(ctx, st, byc + off[c], off[c + 1] - off[c], path, len, used, n_used);
        }
        iso_free(parent);
        iso_free(queue);
        iso_free(path);
    }
    iso_free(reps);
    iso_free(off);
    iso_free(byc);
    iso_free(comp);
    return n_reps;
}

/* ---- transitive reduction ------------------------------------------------- */

/* Topological ranks (Kahn) of the versions in [lo, hi), a part of the
 * graph that no edge leaves; indeg is zeroed scratch. Returns how many
 * were ranked: all of them exactly when the part is acyclic. */
static uint32_t topo_rank(const iso_graph *g, uint32_t lo, uint32_t hi, uint32_t *indeg, uint32_t *rank)
{
    uint32_t head = 0, tail = 0, *queue = iso_xmalloc(((size_t)(hi - lo) + 1) * sizeof *queue);
    for (uint32_t i = g->off[lo]; i < g->off[hi]; i++) indeg[g->dst[i]]++;
    for (uint32_t v = lo; v < hi; v++)
        if (!indeg[v]) queue[tail++] = v;
    while (head < tail) {
        uint32_t v = queue[head];
        rank[v] = head++;
        for (uint32_t i = g->off[v]; i < g->off[v + 1]; i++)
            if (--indeg[g->dst[i]] == 0) queue[tail++] = g->dst[i];
    }
    iso_free(queue);
    return head;
}

/* The first version of the first key whose versions start in the second
 * half: no edge crosses it (edges stay inside a key). */
static uint32_t key_split(const rw_state *st, uint32_t n)
{
    for (size_t k = 0; k < st->keys.n; k++)
        if (st->nil_ver[k] >= n / 2) return st->nil_ver[k];
    return n;
}

/* Ranks of the whole graph, each half (split between keys) on a thread. */
typedef struct topo_half {
    const iso_graph *g;
    uint32_t *indeg, *rank;
    uint32_t lo, hi, ranked;
} topo_half;

static void topo_half_run(topo_half *t) { t->ranked = topo_rank(t->g, t->lo, t->hi, t->indeg, t->rank); }
static void topo_first(void *h) { topo_half_run(&((topo_half *)h)[0]); }
static void topo_second(void *h) { topo_half_run(&((topo_half *)h)[1]); }

/* Topological ranks of g's versions (per half), or NULL when some
 * version has none: g is cyclic. */
static uint32_t *topo_order(const rw_state *st, const iso_graph *g, int threads)
{
    uint32_t n = g->n, split = key_split(st, n), *indeg = iso_xcalloc((size_t)n + 1, sizeof *indeg);
    uint32_t *rank = iso_xmalloc(((size_t)n + 1) * sizeof *rank);
    topo_half h[2] = {{g, indeg, rank, 0, split, 0}, {g, indeg, rank, split, n, 0}};
    iso_both(topo_first, topo_second, h, threads);
    iso_free(indeg);
    if (h[0].ranked + h[1].ranked == n) return rank;
    iso_free(rank);
    return NULL;
}

typedef struct tr {
    const iso_graph *g;
    const uint32_t *rank;
    uint32_t *mark, *stack;
    size_t budget;
} tr;

/* Mark (with u + 1) everything reachable in one or more steps from u's
 * successors, up to the rank of the last of them. Returns work done. */
static size_t mark_beyond(tr *r, uint32_t u)
{
    const iso_graph *g = r->g;
    uint32_t maxr = 0, sp = 0;
    size_t work = 0;
    for (uint32_t i = g->off[u]; i < g->off[u + 1]; i++)
        if (r->rank[g->dst[i]] > maxr) maxr = r->rank[g->dst[i]];
    for (uint32_t i = g->off[u]; i < g->off[u + 1]; i++) r->stack[sp++] = g->dst[i];
    while (sp) {
        uint32_t v = r->stack[--sp];
        for (uint32_t i = g->off[v]; i < g->off[v + 1]; i++, work++) {
            uint32_t d = g->dst[i];
            if (r->rank[d] > maxr || r->mark[d] == u + 1) continue;
            r->mark[d] = u + 1;
            r->stack[sp++] = d;
        }
    }
    return work;
}

/* One of two halves of the versions, split between keys (no edge leaves
 * a key, so the halves share no work and may run at once): its reduced
 * edges, in order. */
typedef struct red_half {
    const rw_state *st;
    uint8_t *inner;       /* has a non-nil predecessor */
    tr r;
    uint32_t lo, hi;
    rw_vedge *out;
    size_t n_out;
} red_half;

static void reduce_half(red_half *h)
{
    const iso_graph *g = h->r.g;
    size_t cap = 0;
    for (uint32_t u = h->lo; u < h->hi; u++)
        for (uint32_t i = g->off[u]; i < g->off[u + 1] && !is_nil(h->st, u); i++) h->inner[g->dst[i]] = 1;
    for (uint32_t u = h->lo; u < h->hi; u++) {
        uint32_t lo = g->off[u], hi = g->off[u + 1];
        int nil = is_nil(h->st, u), deep = !nil && hi - lo >= 2 && h->r.budget > 0;
        if (deep) {
            size_t w = mark_beyond(&h->r, u);
            h->r.budget = w < h->r.budget ? h->r.budget - w : 0;
        }
        for (uint32_t i = lo; i < hi; i++) {
            uint32_t v = g->dst[i];
            if ((nil && h->inner[v]) || (deep && h->r.mark[v] == u + 1)) continue;
            ISO_PUSH(h->out, h->n_out, cap, ((rw_vedge){u, v}));
        }
    }
    iso_free(h->r.stack);
}

static void reduce_first(void *halves) { reduce_half(&((red_half *)halves)[0]); }
static void reduce_second(void *halves) { reduce_half(&((red_half *)halves)[1]); }

/* Keep u -> v unless another path leads from u to v. nil reaches every
 * other version of its key, so nil -> v is redundant exactly when v has a
 * non-nil predecessor. Past a work budget (half of it for each half of the
 * versions), edges are kept (they are implied anyway, only less precise).
 * rank: g's topological ranks (topo_order). */
static void reduce(const rw_state *st, const iso_graph *g, const uint32_t *rank, int threads,
                   rw_vedge **out, size_t *n_out)
{
    uint32_t n = g->n, *mark = iso_xcalloc((size_t)n + 1, sizeof *mark);
    uint8_t *inner = iso_xcalloc((size_t)n + 1, 1);
    uint32_t split = key_split(st, n);
    size_t budget = 8 * ((size_t)n + g->n_edges) + (1u << 19);
    red_half h[2];
    for (int i = 0; i < 2; i++) {
        uint32_t lo = i ? split : 0, hi = i ? n : split;
        size_t depth = (size_t)(hi - lo) + (g->off[hi] - g->off[lo]) + 1; /* its versions, its edges */
        h[i] = (red_half){st, inner, {g, rank, mark, iso_xmalloc(depth * sizeof(uint32_t)), budget},
                          lo, hi, NULL, 0};
    }
    iso_both(reduce_first, reduce_second, h, threads);
    *n_out = h[0].n_out + h[1].n_out;
    *out = iso_xmalloc((*n_out ? *n_out : 1) * sizeof **out);
    if (h[0].n_out) memcpy(*out, h[0].out, h[0].n_out * sizeof **out);
    if (h[1].n_out) memcpy(*out + h[0].n_out, h[1].out, h[1].n_out * sizeof **out);
    iso_free(h[0].out);
    iso_free(h[1].out);
    iso_free(inner);
    iso_free(mark);
}

/* ---- the reduced edge set --------------------------------------------------- */

/* reduce() emits edges by source, each row by destination: binary search. */
int rw_reduced_has(const rw_state *st, uint32_t a, uint32_t b)
{
    size_t lo = 0, hi = st->n_red;
    uint64_t key = (uint64_t)a << 32 | b;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t m = (uint64_t)st->red[mid].a << 32 | st->red[mid].b;
        if (m < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < st->n_red && st->red[lo].a == a && st->red[lo].b == b;
}

/* ---- sources in order ------------------------------------------------------- */

static int wanted(const iso_checker_opts *o, int s)
{
    switch (s) {
    case RW_SRC_WFR: return o->wfr_keys;
    case RW_SRC_SEQUENTIAL: return o->sequential_keys;
    case RW_SRC_LINEARIZABLE: return o->linearizable_keys;
    case RW_SRC_TXN_ORDER: return o->transaction_order != NULL;
    default: return 1;
    }
}

static int run_source(iso_ctx *ctx, const rw_state *st, int s, vbuf *b, isolde_error *err)
{
    switch (s) {
    case RW_SRC_INITIAL: src_initial(&ctx->pc, st, b); return 0;
    case RW_SRC_WFR: src_wfr(&ctx->pc, st, b); return 0;
    case RW_SRC_SEQUENTIAL: src_sequential(&ctx->pc, st, b); return 0;
    case RW_SRC_LINEARIZABLE: src_linearizable(&ctx->pc, st, b); return 0;
    default: return src_txn_order(ctx, st, b, err);
    }
}

/* With the initial state the only evidence, its edges (nil -> each
 * version, in version order) are already the reduced graph: st->red
 * without building one. 0 if they are not sorted as red must be. */
static int initial_is_reduced(rw_state *st, const vbuf *acc)
{
    for (size_t i = 1; i < acc->e.n; i++) {
        const iso_edge *a = &acc->e.e[i - 1], *b = &acc->e.e[i];
        if (a->src > b->src || (a->src == b->src && iso_edge_dst(a) >= iso_edge_dst(b))) return 0;
    }
    st->red = iso_xmalloc((acc->e.n ? acc->e.n : 1) * sizeof *st->red);
    for (size_t i = 0; i < acc->e.n; i++) st->red[i] = (rw_vedge){acc->e.e[i].src, iso_edge_dst(&acc->e.e[i])};
    st->n_red = acc->e.n;
    return 1;
}

/* The edges of sources used[0..n) again, into an empty acc (sources are
 * deterministic): after a graph built from them gave them back. */
static int rerun(iso_ctx *ctx, const rw_state *st, const int *used, size_t n, vbuf *acc,
                 isolde_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (run_source(ctx, st, used[i], acc, err)) return -1;
    return 0;
}

static int last_wanted(const iso_checker_opts *o)
{
    int last = RW_SRC_INITIAL;
    for (int s = 0; s < RW_SRC_COUNT; s++)
        if (wanted(o, s)) last = s;
    return last;
}

/* Each source's edges are appended to the accepted ones and the graph is
 * built over both: acyclic (every version gets a topological rank), it is
 * the accepted graph so far; cyclic, the source is reported and its edges
 * cut off again. The last source's graph is built giving the edges back as
 * it goes (they would otherwise be whole beside it at the peak); should
 * that source be cyclic, the accepted edges are made again. */
int rw_version_graph(iso_ctx *ctx, rw_state *st, isolde_error *err)
{
    vbuf acc = {{0}};
    iso_graph g = {0};
    int used[RW_SRC_COUNT], built = 0, rc = 0, last = last_wanted(ctx->co);
    int threads = iso_thread_count(ctx->opts->threads);
    uint32_t *rank = NULL; /* g's ranks, while g is acyclic */
    size_t n_used = 0;
    for (int s = 0; s < RW_SRC_COUNT && !rc; s++) {
        if (!wanted(ctx->co, s)) continue;
        size_t before = acc.e.n;
        if ((rc = run_source(ctx, st, s, &acc, err))) break;
        used[n_used++] = s;
        if (s == RW_SRC_INITIAL) continue; /* acyclic by construction */
        iso_graph_free(&g);
        iso_free(rank);
        (s == last ? iso_graph_build_consume : iso_graph_build)(&g, (uint32_t)st->n_ver, &acc.e);
        built = 1;
        if ((rank = topo_order(st, &g, threads)) || report_sccs(ctx, st, &g, used, n_used) == 0)
            continue;
        n_used--;
        built = 0;
        if (s == last) rc = rerun(ctx, st, used, n_used, &acc, err);
        else acc.e.n = before;
    }
    if (!built) iso_graph_free(&g); /* a rejected source's graph */
    if (!rc && n_used == 1 && initial_is_reduced(st, &acc)) {
        iso_edges_free(&acc.e);
        return 0;
    }
    if (!rc && !built) {
        iso_graph_free(&g);
        iso_graph_build_consume(&g, (uint32_t)st->n_ver, &acc.e);
    }
    iso_edges_free(&acc.e);
    if (!rc && !rank) rank = topo_order(st, &g, threads); /* accepted, so acyclic */
    if (!rc && rank) reduce(st, &g, rank, threads, &st->red, &st->n_red);
    iso_free(rank);
    iso_graph_free(&g);
    return rc;
}
