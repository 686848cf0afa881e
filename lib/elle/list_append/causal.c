/*
 * elle/list_append/causal.c -- causality violations under `causal`
 * (Cerone et al.'s CC with SESSION; issue 25): an ok transaction T3 whose
 * causal past -- session order and observation (its reads' elements'
 * writers), transitively -- holds a transaction T1 that appended to a key
 * T3 then read externally without T1's append. Reported as
 * causality-violation-process: the past used holds session order, so
 * causal forbids what is found here and causal-cerone (without SESSION)
 * need not (the same name rw-register's saturation gives such a case).
 *
 * With session order in the causal past, a transaction's past within one
 * process is a prefix of that process's ok transactions, so the past is a
 * vector: per process, how many of its transactions it holds. Vectors are
 * computed in a topological order of observation and session order (a
 * cycle there is G0/G1c-process, which the cycle search reports: then
 * nothing is decided here). A read of key x misses a process's prefix when
 * the greatest version position of those transactions' first appends to x
 * (unread: past every read) is not below the read's length. Only keys whose
 * reads are prefixes of one order are judged, and only ok transactions'
 * past is followed (an :info writer seen only through another is missed):
 * what is reported is a violation. Vectors take processes x transactions
 * words; beyond CA_MAX_WORDS nothing is decided (docs/MODELS.md). A check
 * whose models forbid G-single-process (strict-serializable, the strong
 * session models) finds these as cycles, and does not run this one.
 */
#include "elle/list_append/list_append_int.h"

#include <stdlib.h>
#include <string.h>

#define CA_MAX_WORDS ((size_t)1 << 24)

/* One process's first appends to one key, in process order, with the
 * greatest position so far and whose it is. */
typedef struct ca_ent {
    uint32_t key, proc, idx, pos, max_pos, max_txn;
} ca_ent;

typedef struct ca {
    const la_state *st;
    const iso_proof_ctx *pc;
    size_t n, k;            /* transactions, processes */
    uint32_t *proc, *idx;   /* per ok txn: process, index in its order; else ISO_NONE */
    uint32_t *prev;         /* per ok txn: its session predecessor or ISO_NONE */
    uint32_t *rank;         /* per ok txn: its row of vec */
    uint32_t *seen, ep;     /* per txn: the pass that met it */
    uint32_t *vec;          /* per ok txn (by rank) k counts: its causal past */
    ca_ent *ent;
    size_t n_ent;
} ca;

static int ok_txn(const iso_txn *t) { return t->type == ISO_OP_OK && t->cmp != ISO_NONE; }

typedef struct ca_pair { uint32_t a, b; } ca_pair;
/* Writer w observed by t: t's micro-op j, item i. */
typedef struct ca_obs { uint32_t w, t, j, i; } ca_obs;

static int by_a(const void *x, const void *y)
{
    const ca_pair *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

/* Process, index and session predecessor of each ok transaction, and its
 * rank (completion order); the number of ok ones. */
static uint32_t sessions(ca *c)
{
    const iso_txns *t = &c->pc->txns;
    ca_pair *order = iso_xmalloc((c->n ? c->n : 1) * sizeof *order);
    uint32_t n_ok = 0;
    for (uint32_t i = 0; i < c->n; i++)
        if (ok_txn(&t->t[i])) order[n_ok++] = (ca_pair){t->t[i].cmp, i};
    qsort(order, n_ok, sizeof *order, by_a);
    uint32_t *count = iso_xcalloc(c->k ? c->k : 1, sizeof *count);
    uint32_t *last = iso_xmalloc((c->k ? c->k : 1) * sizeof *last);
    memset(last, 0xff, c->k * sizeof *last);
    for (uint32_t r = 0; r < n_ok; r++) {
        uint32_t x = order[r].b, p = iso_txn_op(c->pc->h, &t->t[x])->process;
        c->proc[x] = p, c->idx[x] = count[p]++, c->prev[x] = last[p], last[p] = x, c->rank[x] = r;
    }
    iso_free(order);
    iso_free(count);
    iso_free(last);
    return n_ok;
}

/* The ok writers t observed (elements of its reads), each once, into *out
 * (n_out, cap kept), with where. */
static void observed(ca *c, uint32_t t, ca_obs **out, size_t *n_out, size_t *cap)
{
    const iso_store *s = &c->pc->h->store;
    size_t n;
    const iso_val *m = la_txn_mops(c->pc, t, &n);
    *n_out = 0;
    c->ep++;
    for (size_t j = 0; j < n; j++) {
        if (la_mop_kind(c->st, m[j]) != LA_READ) continue;
        uint32_t key = iso_keys_find(&c->st->keys, mop_key(s, m[j]));
        size_t len;
        const iso_val *items = la_read_items(s, mop_val(s, m[j]), &len);
        for (size_t i = 0; key != ISO_NONE && i < len; i++) {
            const la_append *a = la_find(c->st, key, items[i]);
            if (!a || a->txn == t || !ok_txn(&c->pc->txns.t[a->txn]) || c->seen[a->txn] == c->ep) continue;
            c->seen[a->txn] = c->ep;
            ISO_PUSH(*out, *n_out, *cap, ((ca_obs){a->txn, t, (uint32_t)j, (uint32_t)i}));
        }
    }
}

/* Every edge of the causal order's generators (writer -> observer,
 * session predecessor -> successor), sorted by source. */
static ca_pair *edges(ca *c, size_t *n_edges)
{
    ca_pair *e = NULL;
    ca_obs *mine = NULL;
    size_t n = 0, cap = 0, n_mine = 0, cap_mine = 0;
    for (uint32_t t = 0; t < c->n; t++) {
        if (c->proc[t] == ISO_NONE) continue;
        if (c->prev[t] != ISO_NONE) ISO_PUSH(e, n, cap, ((ca_pair){c->prev[t], t}));
        observed(c, t, &mine, &n_mine, &cap_mine);
        for (size_t i = 0; i < n_mine; i++) ISO_PUSH(e, n, cap, ((ca_pair){mine[i].w, t}));
    }
    iso_free(mine);
    if (n) qsort(e, n, sizeof *e, by_a);
    *n_edges = n;
    return e;
}

/* Row t of the vectors joined with w's past and w itself. */
static void join(ca *c, uint32_t t, uint32_t w)
{
    uint32_t *to = c->vec + (size_t)c->rank[t] * c->k, *from = c->vec + (size_t)c->rank[w] * c->k;
    for (size_t p = 0; p < c->k; p++)
        if (from[p] > to[p]) to[p] = from[p];
    if (c->idx[w] + 1 > to[c->proc[w]]) to[c->proc[w]] = c->idx[w] + 1;
}

/* The vectors, in a topological order (Kahn's); 0 when the order has a
 * cycle, then *left holds the in-degrees left (the caller frees it). */
static int pasts(ca *c, uint32_t n_ok, uint32_t **left)
{
    size_t n_e, *first = iso_xcalloc(c->n + 1, sizeof *first);
    ca_pair *e = edges(c, &n_e);
    uint32_t *indeg = iso_xcalloc(c->n + 1, sizeof *indeg);
    uint32_t *queue = iso_xmalloc((c->n + 1) * sizeof *queue);
    for (size_t i = 0; i < n_e; i++) first[e[i].a + 1]++, indeg[e[i].b]++;
    for (size_t t = 0; t < c->n; t++) first[t + 1] += first[t];
    size_t head = 0, tail = 0;
    for (uint32_t t = 0; t < c->n; t++)
        if (c->proc[t] != ISO_NONE && !indeg[t]) queue[tail++] = t;
    while (head < tail) {
        uint32_t w = queue[head++];
        for (size_t i = first[w]; i < first[w + 1]; i++) {
            join(c, e[i].b, w);
            if (!--indeg[e[i].b]) queue[tail++] = e[i].b;
        }
    }
    iso_free(first);
    iso_free(e);
    iso_free(queue);
    *left = indeg;
    return tail == n_ok;
}

static int by_ent(const void *x, const void *y)
{
    const ca_ent *p = x, *q = y;
    if (p->key != q->key) return p->key < q->key ? -1 : 1;
    if (p->proc != q->proc) return p->proc < q->proc ? -1 : 1;
    return (p->idx > q->idx) - (p->idx < q->idx);
}

/* Each ok transaction's first append to each key whose reads are prefixes
 * of its order, by key, process and index, with running maxima. */
static void entries(ca *c)
{
    size_t cap = 0;
    for (size_t i = 0, lo = 0; i < c->st->n_ap; i++) {
        const la_append *a = &c->st->ap[i];
        if (i == 0 || c->st->ap[i - 1].txn != a->txn) lo = i;
        if (c->proc[a->txn] == ISO_NONE || !la_positional(&c->st->k[a->key]) || !la_first_to_key(c->st, lo, i))
            continue;
        ISO_PUSH(c->ent, c->n_ent, cap, ((ca_ent){a->key, c->proc[a->txn], c->idx[a->txn], a->pos, 0, a->txn}));
    }
    if (c->n_ent) qsort(c->ent, c->n_ent, sizeof *c->ent, by_ent);
    for (size_t i = 0; i < c->n_ent; i++) {
        ca_ent *x = &c->ent[i], *before = i ? &c->ent[i - 1] : NULL;
        x->max_pos = x->pos;
        if (before && before->key == x->key && before->proc == x->proc && before->max_pos >= x->pos)
            x->max_pos = before->max_pos, x->max_txn = before->max_txn;
    }
}

/* The last entry of (key, proc) with idx < count, or NULL. */
static const ca_ent *last_below(const ca *c, uint32_t key, uint32_t proc, uint32_t count)
{
    size_t lo = 0, hi = c->n_ent;
    ca_ent probe = {key, proc, count, 0, 0, 0};
    while (lo < hi) { /* first entry not below probe */
        size_t mid = lo + (hi - lo) / 2;
        if (by_ent(&c->ent[mid], &probe) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return NULL;
    const ca_ent *x = &c->ent[lo - 1];
    return x->key == key && x->proc == proc ? x : NULL;
}

/* A transaction in t's causal past whose first append to key lies at or
 * past position len (a read of that length misses it), or ISO_NONE. */
static uint32_t missed(const ca *c, uint32_t t, uint32_t key, size_t len)
{
    const uint32_t *v = c->vec + (size_t)c->rank[t] * c->k;
    for (uint32_t p = 0; p < c->k; p++) {
        const ca_ent *x = v[p] ? last_below(c, key, p, v[p]) : NULL;
        if (x && x->max_pos >= len) return x->max_txn;
    }
    return ISO_NONE;
}

/* The path w -> ... -> t through the causal order, reversed into
 * path[0..n) (w first); at[i]: how path[i] reached path[i + 1]: the
 * micro-op and item of path[i + 1]'s read, or {ISO_NONE, 0} for session
 * order. */
typedef struct ca_path {
    uint32_t *txn;
    ca_pair *at;
    size_t n, cap, cap_at;
} ca_path;

static int covers(const ca *c, uint32_t p, uint32_t w)
{
    return p == w || c->vec[(size_t)c->rank[p] * c->k + c->proc[w]] > c->idx[w];
}

/* One step back from t towards w: a predecessor that holds w in its past
 * (or is w), and how (buf: scratch). */
static uint32_t step_back(ca *c, uint32_t t, uint32_t w, ca_pair *how, ca_obs **buf, size_t *cap)
{
    size_t n_obs;
    observed(c, t, buf, &n_obs, cap);
    for (size_t i = 0; i < n_obs; i++)
        if (covers(c, (*buf)[i].w, w)) {
            *how = (ca_pair){(*buf)[i].j, (*buf)[i].i};
            return (*buf)[i].w;
        }
    *how = (ca_pair){ISO_NONE, 0};
    return c->prev[t]; /* the session predecessor holds it */
}

static void find_path(ca *c, uint32_t t, uint32_t w, ca_path *path)
{
    ca_obs *buf = NULL;
    ca_pair how;
    size_t cap = 0;
    path->n = 0;
    ISO_PUSH(path->txn, path->n, path->cap, t);
    while (t != w) {
        uint32_t p = step_back(c, t, w, &how, &buf, &cap);
        size_t n_at = path->n - 1;
        ISO_PUSH(path->at, n_at, path->cap_at, how);
        ISO_PUSH(path->txn, path->n, path->cap, p);
        t = p;
    }
    iso_free(buf);
    for (size_t i = 0, j = path->n - 1; i < j; i++, j--) { /* w first */
        uint32_t x = path->txn[i];
        path->txn[i] = path->txn[j], path->txn[j] = x;
    }
    for (size_t i = 0, j = path->n - 2; path->n > 1 && i < j; i++, j--) {
        ca_pair x = path->at[i];
        path->at[i] = path->at[j], path->at[j] = x;
    }
}

/* Step i of the path in words: how path[i + 1] follows path[i]; the
 * transactions are named T1 .. Tnames, round. */
static void step_text(const ca *c, const ca_path *path, size_t i, size_t names, iso_fb *f)
{
    const iso_store *s = &c->pc->h->store;
    size_t to = (i + 1) % names + 1;
    if (path->at[i].a == ISO_NONE) {
        iso_buf_printf(&f->text, "T%zu follows T%zu in its process", to, i + 1);
        return;
    }
    size_t n, len;
    const iso_val *m = la_txn_mops(c->pc, path->txn[i + 1], &n);
    const iso_val *items = la_read_items(s, mop_val(s, m[path->at[i].a]), &len);
    iso_buf_printf(&f->text, "T%zu observed T%zu's append of ", to, i + 1);
    iso_fb_val(c->pc, f, items[path->at[i].b]);
    iso_buf_puts(&f->text, " to key ");
    iso_fb_val(c->pc, f, mop_key(s, m[path->at[i].a]));
}

/* W's first append to key (index into st->ap). */
static size_t first_to(const la_state *st, uint32_t w, uint32_t key)
{
    size_t i = la_first_append(st, w);
    while (st->ap[i].key != key) i++;
    return i;
}

static void render(iso_ctx *ctx, const ca *c, const ca_path *path, iso_val read, uint32_t key)
{
    const iso_store *s = &c->pc->h->store;
    iso_val missed_v = la_value(c->st, &c->st->ap[first_to(c->st, path->txn[0], key)]);
    iso_fb f = {{0}, {0}};
    iso_fb_let(c->pc, &f, path->txn, path->n);
    iso_buf_printf(&f.text, "T1 is in T%zu's causal past: ", path->n);
    for (size_t i = 0; i + 1 < path->n; i++) {
        if (i) iso_buf_puts(&f.text, ", ");
        step_text(c, path, i, path->n, &f);
    }
    iso_buf_printf(&f.text, "; yet T%zu read key ", path->n);
    iso_fb_val(c->pc, &f, mop_key(s, read));
    iso_buf_puts(&f.text, " as ");
    iso_fb_val(c->pc, &f, mop_val(s, read));
    iso_buf_puts(&f.text, ", which does not contain T1's append of ");
    iso_fb_val(c->pc, &f, missed_v);
    iso_buf_puts(&f.text, ": a causality violation (causal consistency makes every write in a "
                          "transaction's causal past visible to it).");
    iso_fb_field_op(c->pc, &f, "op", path->txn[path->n - 1]);
    iso_fb_field_op(c->pc, &f, "writer", path->txn[0]);
    iso_fb_field_ops(c->pc, &f, "path", path->txn, path->n);
    iso_fb_field(c->pc, &f, "mop", read);
    iso_fb_field(c->pc, &f, "element", missed_v);
    iso_fb_emit(&ctx->findings, &f, ISO_A_CAUSALITY_VIOLATION_PROCESS);
}

/* A cycle of observation and session order among the transactions Kahn's
 * order left (indeg > 0: each has such a predecessor), walked back from
 * one of them until a transaction repeats, then turned into a path that
 * ends where it starts. */
static void find_cycle(ca *c, const uint32_t *indeg, ca_path *back, ca_path *path)
{
    ca_obs *buf = NULL;
    size_t cap = 0, n_obs, n_at = 0;
    uint8_t *on = iso_xcalloc(c->n + 1, 1);
    uint32_t t = 0;
    while (c->proc[t] == ISO_NONE || !indeg[t]) t++;
    for (back->n = 0; !on[t];) {
        on[t] = 1;
        ISO_PUSH(back->txn, back->n, back->cap, t);
        observed(c, t, &buf, &n_obs, &cap);
        ca_pair how = {ISO_NONE, 0};
        uint32_t p = c->prev[t];
        for (size_t i = 0; i < n_obs && (p == ISO_NONE || !indeg[p]); i++)
            if (indeg[buf[i].w]) p = buf[i].w, how = (ca_pair){buf[i].j, buf[i].i};
        ISO_PUSH(back->at, n_at, back->cap_at, how);
        t = p;
    }
    iso_free(buf);
    iso_free(on);
    size_t from = 0, last = back->n - 1, n_fwd = 0;
    while (back->txn[from] != t) from++;
    path->n = 0;
    ISO_PUSH(path->txn, path->n, path->cap, t);
    for (size_t j = 0; j <= last - from; j++) {
        ISO_PUSH(path->at, n_fwd, path->cap_at, back->at[last - j]);
        ISO_PUSH(path->txn, path->n, path->cap, j < last - from ? back->txn[last - j] : t);
    }
}

static void render_cycle(iso_ctx *ctx, const ca *c, const ca_path *path)
{
    size_t names = path->n - 1;
    iso_fb f = {{0}, {0}};
    iso_fb_let(c->pc, &f, path->txn, names);
    iso_buf_puts(&f.text, "A cycle of observation and session order: ");
    for (size_t i = 0; i < names; i++) {
        if (i) iso_buf_puts(&f.text, ", ");
        step_text(c, path, i, names, &f);
    }
    iso_buf_puts(&f.text, ": a causality violation (causal consistency's visibility is a partial order "
                          "containing both).");
    iso_fb_field_ops(c->pc, &f, "cycle", path->txn, path->n);
    iso_fb_emit(&ctx->findings, &f, ISO_A_CAUSALITY_VIOLATION_PROCESS);
}

/* The first causality violation of ok transaction t, reported. */
static void check_txn(iso_ctx *ctx, ca *c, la_scan *sc, uint32_t t, ca_path *path)
{
    const iso_store *s = &ctx->pc.h->store;
    size_t n;
    const iso_val *m = la_txn_mops(&ctx->pc, t, &n);
    la_scan_txn(c->st, s, sc, t, m, n);
    for (size_t j = 0; j < n; j++) {
        uint32_t key = iso_keys_find(&c->st->keys, mop_key(s, m[j]));
        if (key == ISO_NONE || la_mop_kind(c->st, m[j]) != LA_READ || sc->read_ep[key] != sc->ep ||
            sc->read_j[key] != j || !la_positional(&c->st->k[key]))
            continue;
        uint32_t w = missed(c, t, key, sc->read_len[key]);
        if (w == ISO_NONE) continue;
        find_path(c, t, w, path);
        render(ctx, c, path, m[j], key);
        return;
    }
}

static void path_free(ca_path *p)
{
    iso_free(p->txn);
    iso_free(p->at);
}

static void check_all(iso_ctx *ctx, ca *c, const uint8_t *fractured)
{
    entries(c);
    la_scan sc;
    ca_path path = {0};
    la_scan_init(&sc, c->st, c->n);
    for (uint32_t t = 0; t < c->n; t++)
        if (c->proc[t] != ISO_NONE && !fractured[t]) check_txn(ctx, c, &sc, t, &path);
    la_scan_free(&sc);
    path_free(&path);
}

static void report_cycle(iso_ctx *ctx, ca *c, const uint32_t *left)
{
    ca_path back = {0}, path = {0};
    find_cycle(c, left, &back, &path);
    render_cycle(ctx, c, &path);
    path_free(&back);
    path_free(&path);
}

static void ca_free(ca *c)
{
    iso_free(c->proc);
    iso_free(c->idx);
    iso_free(c->prev);
    iso_free(c->rank);
    iso_free(c->seen);
    iso_free(c->vec);
    iso_free(c->ent);
}

void la_causality(iso_ctx *ctx, const la_state *st, const uint8_t *fractured)
{
    /* A model forbidding G-single-process sees these as cycles (G1c-,
     * G-single-process): the cycle search shows them. */
    if (!ctx->req->reportable[ISO_A_CAUSALITY_VIOLATION_PROCESS] || ctx->req->reportable[ISO_A_G_SINGLE_PROCESS]) return;
    size_t n = ctx->pc.txns.n, words = (n + 1) * sizeof(uint32_t);
    ca c = {st, &ctx->pc, n, ctx->pc.h->procs.n, iso_xmalloc(words), iso_xmalloc(words), iso_xmalloc(words),
            iso_xmalloc(words), iso_xcalloc(n + 1, sizeof(uint32_t)), 0, NULL, NULL, 0};
    memset(c.proc, 0xff, words);
    memset(c.prev, 0xff, words);
    uint32_t n_ok = sessions(&c);
    if ((size_t)n_ok * c.k <= CA_MAX_WORDS) {
        c.vec = iso_xcalloc((size_t)n_ok * c.k + 1, sizeof *c.vec);
        uint32_t *left = NULL;
        if (pasts(&c, n_ok, &left)) check_all(ctx, &c, fractured);
        else report_cycle(ctx, &c, left);
        iso_free(left);
    }
    ca_free(&c);
}
