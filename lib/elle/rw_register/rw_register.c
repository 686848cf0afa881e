/*
 * elle/rw_register/rw_register.c -- the rw-register workload: index every transaction's
 * external reads and writes as versions (key, value), derive ww / wr / rw
 * edges from the reduced version graph as Elle's rw-register does, and
 * explain any such edge on demand.
 */
#include "elle/rw_register/rw_register_int.h"
#include "elle/rw_register/exact.h"
#include "elle/rw_register/weak.h"

#include <stdlib.h>
#include <string.h>

/* ---- indexing: validate, intern, external reads and writes ---------------- */

/* Elle asserts that all keys share one type: integers, strings, keywords... */
static int key_class(const iso_store *s, iso_val k)
{
    unsigned t = iso_tag(k);
    if (t == ISO_TAG_BIG) return ISO_TAG_INT;
    if (iso_is_seq(k)) return 100 + (int)iso_seq_kind(s, k);
    return (int)t;
}

static const char *class_name(int c)
{
    static const char *const names[] = {"an integer", "nil", "a boolean", "a string", "a keyword",
                                        "a symbol", "an integer", "a float", "a character",
                                        "a tagged literal"};
    if (c >= 100) return c == 100 ? "a vector" : c == 101 ? "a list" : c == 102 ? "a set" : "a map";
    return (size_t)c < sizeof names / sizeof names[0] ? names[c] : "a value";
}

typedef struct ix {
    uint32_t *stamp;   /* per key: txn + 1 that last touched it */
    uint32_t *ent;     /* per key: that txn's ext entry */
    int cls;           /* key class of the first key, -1 before it */
    const iso_op *cls_op;
    iso_val cls_key;
} ix;

static int fail_at(const iso_proof_ctx *pc, const iso_op *op, isolde_error *err, const char *what,
                   iso_val v, const char *tail)
{
    iso_buf b = {0};
    iso_val_edn(&pc->h->store, v, &b);
    iso_fail(err, ISOLDE_ERR_PARSE, pc->h->name, op->line, op->col, "%s %s (op index %lld)%s", what,
             iso_buf_cstr(&b), (long long)op->index, tail);
    iso_buf_free(&b);
    return -1;
}

static int check_key(const iso_proof_ctx *pc, ix *x, const iso_op *op, iso_val k, isolde_error *err)
{
    int c = key_class(&pc->h->store, k);
    if (x->cls < 0) {
        x->cls = c;
        x->cls_op = op;
        x->cls_key = k;
        return 0;
    }
    if (c == x->cls) return 0;
    iso_buf a = {0}, b = {0};
    iso_val_edn(&pc->h->store, x->cls_key, &a);
    iso_val_edn(&pc->h->store, k, &b);
    iso_fail(err, ISOLDE_ERR_PARSE, pc->h->name, op->line, op->col,
             "keys of different types: %s is %s, but key %s (op index %lld, line %u) is %s; "
             "rw-register needs every key of one type", iso_buf_cstr(&b), class_name(c),
             iso_buf_cstr(&a), (long long)x->cls_op->index, x->cls_op->line, class_name(x->cls));
    iso_buf_free(&a);
    iso_buf_free(&b);
    return -1;
}

/* Each micro-op's version-to-be: key id and kind (st->mop), value. */
typedef struct mop_rec {
    iso_val *vals;
    size_t n, cap, cap_mop;
} mop_rec;

/* Every micro-op of op must be [r k v] or [w k v] over keys of one type;
 * with rec (the transaction's own op), each is also recorded. */
static int check_op(const iso_proof_ctx *pc, rw_state *st, ix *x, const iso_op *op, mop_rec *rec,
                    isolde_error *err)
{
    const iso_store *s = &pc->h->store;
    if (!iso_is_nil(op->value) && (iso_tag(op->value) != ISO_TAG_SEQ || iso_seq_kind(s, op->value) > ISO_SEQ_LIST))
        return fail_at(pc, op, err, "a transaction must be a vector of micro-ops, not", op->value, "");
    size_t n;
    const iso_val *m = rw_op_mops(s, op, &n);
    for (size_t j = 0; j < n; j++) {
        iso_val k, v;
        int kind = rw_mop(st, m[j], &k, &v);
        if (kind < 0)
            return fail_at(pc, op, err, "micro-op", m[j],
                           ": rw-register micro-ops are [\"r\", key, value] or [\"w\", key, value]");
        if (check_key(pc, x, op, k, err)) return -1;
        if (!rec) continue;
        ISO_PUSH(rec->vals, rec->n, rec->cap, v);
        ISO_GROW(st->mop, rec->cap_mop, rec->n);
        st->mop[rec->n - 1] = iso_keys_intern(&st->keys, k) | (kind == RW_WRITE ? RW_MOP_W : 0);
    }
    return 0;
}

static int dup_write(const iso_proof_ctx *pc, uint32_t first, uint32_t txn, iso_val k, iso_val v,
                     isolde_error *err)
{
    const iso_op *a = iso_txn_op(pc->h, &pc->txns.t[first]);
    const iso_op *b = iso_txn_op(pc->h, &pc->txns.t[txn]);
    iso_buf kb = {0}, vb = {0};
    iso_val_edn(&pc->h->store, k, &kb);
    iso_val_edn(&pc->h->store, v, &vb);
    iso_fail(err, ISOLDE_ERR_PARSE, pc->h->name, b->line, b->col,
             "Key %s had value %s written by more than one op: op index %lld (line %u) and "
             "op index %lld (line %u); rw-register needs written values unique per key",
             iso_buf_cstr(&kb), iso_buf_cstr(&vb), (long long)a->index, a->line,
             (long long)b->index, b->line);
    iso_buf_free(&kb);
    iso_buf_free(&vb);
    return -1;
}

/* The ext entry of key in txn, created on the transaction's first touch. */
static rw_ext *touch(rw_state *st, ix *x, uint32_t txn, uint32_t key)
{
    if (x->stamp[key] == txn + 1) return &st->ext[x->ent[key]];
    x->stamp[key] = txn + 1;
    x->ent[key] = (uint32_t)st->n_ext;
    st->ext[st->n_ext] = (rw_ext){key, ISO_NONE, ISO_NONE, 0, 0};
    return &st->ext[st->n_ext++];
}

/* External reads and writes of txn t, and the writer of each version. */
static int index_txn(iso_ctx *ctx, rw_state *st, ix *x, const uint32_t *keys, uint32_t t,
                     isolde_error *err)
{
    const uint32_t *mv = st->mop + st->mop_off[t], *mk = keys + st->mop_off[t];
    uint32_t n = st->mop_off[t + 1] - st->mop_off[t];
    for (uint32_t j = 0; j < n; j++) {
        uint32_t ver = mv[j] & ~RW_MOP_W;
        size_t before = st->n_ext;
        rw_ext *e = touch(st, x, t, mk[j]);
        if (!(mv[j] & RW_MOP_W)) {
            if (st->n_ext > before) { e->rd = ver; e->rd_mop = j; }
            continue;
        }
        rw_ver *w = &st->ver[ver];
        e->wr = ver;
        e->wr_mop = j;
        if (w->writer != ISO_NONE && w->writer != t)
            return dup_write(&ctx->pc, w->writer, t, st->keys.vals[w->key], w->val, err);
        w->writer = t;
        w->wmop = j;
        w->wkind = RW_INTERMEDIATE;
    }
    for (uint32_t i = st->ext_off[t]; i < st->n_ext; i++)
        if (st->ext[i].wr != ISO_NONE) st->ver[st->ext[i].wr].wkind = RW_FINAL;
    return 0;
}

/* Dense version ids, key by key, so that one key's versions sit together
 * and each key's value table stays small: nil first, then values in the
 * order the history first mentions them. st->mop gets each version. */
static void intern_versions(iso_ctx *ctx, rw_state *st, const iso_val *vals, uint32_t *keys,
                            size_t total)
{
    const iso_store *s = &ctx->pc.h->store;
    size_t nk = st->keys.n, big = 0;
    uint32_t *koff = iso_xcalloc(nk + 2, sizeof *koff), *order = iso_xmalloc((total + 1) * sizeof *order);
    for (size_t i = 0; i < total; i++) {
        keys[i] = st->mop[i] & ~RW_MOP_W;
        koff[keys[i] + 2]++;
    }
    for (size_t k = 2; k < nk + 2; k++) koff[k] += koff[k - 1];
    for (size_t i = 0; i < total; i++) order[koff[keys[i] + 1]++] = (uint32_t)i;
    for (size_t k = 0; k < nk; k++)
        if (koff[k + 1] - koff[k] > big) big = koff[k + 1] - koff[k];
    size_t cap = 16;
    while (cap < 2 * big + 2) cap *= 2;
    uint32_t *slot = iso_xcalloc(cap, sizeof *slot); /* version + 1 */
    st->ver = iso_xmalloc((total + nk + 1) * sizeof *st->ver);
    st->nil_ver = iso_xmalloc((nk + 1) * sizeof *st->nil_ver);
    for (uint32_t k = 0; k < nk; k++) {
        size_t cnt = koff[k + 1] - koff[k], mask = 16;
        while (mask < 2 * cnt + 2) mask *= 2;
        mask--;
        uint32_t base = (uint32_t)st->n_ver;
        st->nil_ver[k] = base;
        st->ver[st->n_ver++] = (rw_ver){ISO_NIL, k, ISO_NONE, 0, RW_UNWRITTEN};
        for (uint32_t o = koff[k]; o < koff[k + 1]; o++) {
            iso_val v = vals[order[o]];
            uint32_t id = base;
            if (!iso_is_nil(v)) {
                size_t h = (size_t)(iso_val_hash(s, v) >> 7) & mask;
                while (slot[h] && !iso_val_eq(s, st->ver[slot[h] - 1].val, v)) h = (h + 1) & mask;
                if (!slot[h]) {
                    st->ver[st->n_ver] = (rw_ver){v, k, ISO_NONE, 0, RW_UNWRITTEN};
                    slot[h] = (uint32_t)++st->n_ver;
                }
                id = slot[h] - 1;
            }
            st->mop[order[o]] = id | (st->mop[order[o]] & RW_MOP_W);
        }
        memset(slot, 0, (mask + 1) * sizeof *slot);
    }
    iso_free(slot);
    iso_free(order);
    iso_free(koff);
}

/* Validate every op, record the micro-ops of each transaction's own op
 * (mop_off), and return their values in *vals; -1 on a malformed one. */
static long check_and_record(iso_ctx *ctx, rw_state *st, ix *x, iso_val **vals, isolde_error *err)
{
    const isolde_history *h = ctx->pc.h;
    mop_rec rec = {0};
    st->mop_off = iso_xmalloc((ctx->pc.txns.n + 1) * sizeof *st->mop_off);
    for (size_t t = 0; t < ctx->pc.txns.n; t++) {
        const iso_txn *tx = &ctx->pc.txns.t[t];
        st->mop_off[t] = (uint32_t)rec.n;
        if ((tx->cmp != ISO_NONE && tx->inv != ISO_NONE && check_op(&ctx->pc, st, x, &h->ops[tx->inv], NULL, err)) ||
            check_op(&ctx->pc, st, x, iso_txn_op(h, tx), &rec, err)) {
            iso_free(rec.vals);
            return -1;
        }
    }
    st->mop_off[ctx->pc.txns.n] = (uint32_t)rec.n;
    if (!st->mop) st->mop = iso_xmalloc(sizeof *st->mop); /* no micro-op: never NULL + 0 below */
    *vals = rec.vals;
    return (long)rec.n;
}

static int index_txns(iso_ctx *ctx, rw_state *st, isolde_error *err)
{
    ix x = {NULL, NULL, -1, NULL, 0};
    int rc = 0;
    iso_val *vals = NULL;
    st->ext_off = iso_xmalloc((ctx->pc.txns.n + 1) * sizeof *st->ext_off);
    st->ext_off[0] = 0;
    long n = check_and_record(ctx, st, &x, &vals, err);
    if (n < 0) return -1;
    size_t total = (size_t)n;
    uint32_t *keys = iso_xmalloc((total + 1) * sizeof *keys); /* each micro-op's key */
    intern_versions(ctx, st, vals, keys, total);
    iso_free(vals);
    st->ext = iso_xmalloc((total + 1) * sizeof *st->ext);
    x.stamp = iso_xcalloc(st->keys.n + 1, sizeof *x.stamp);
    x.ent = iso_xmalloc((st->keys.n + 1) * sizeof *x.ent);
    for (size_t t = 0; t < ctx->pc.txns.n && !rc; t++) {
        st->ext_off[t] = (uint32_t)st->n_ext;
        rc = index_txn(ctx, st, &x, keys, (uint32_t)t, err);
        st->ext_off[t + 1] = (uint32_t)st->n_ext;
    }
    iso_free(keys);
    iso_free(x.stamp);
    iso_free(x.ent);
    return rc ? -1 : 0;
}

/* CSR of the ok transactions externally reading each version. */
static void index_readers(iso_ctx *ctx, rw_state *st)
{
    st->rd_off = iso_xcalloc(st->n_ver + 2, sizeof *st->rd_off);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t t = 0; t < ctx->pc.txns.n; t++) {
            if (ctx->pc.txns.t[t].type != ISO_OP_OK) continue;
            for (uint32_t i = st->ext_off[t]; i < st->ext_off[t + 1]; i++) {
                uint32_t r = st->ext[i].rd;
                if (r == ISO_NONE) continue;
                if (pass == 0) st->rd_off[r + 2]++;
                else st->rd[st->rd_off[r + 1]++] = (uint32_t)t;
            }
        }
        if (pass == 0) {
            for (size_t v = 2; v < st->n_ver + 2; v++) st->rd_off[v] += st->rd_off[v - 1];
            st->rd = iso_xmalloc((st->rd_off[st->n_ver + 1] + 1) * sizeof *st->rd);
        }
    }
}

/* ---- edges --------------------------------------------------------------- */

/* Per version, the ok transaction whose external write it is (Elle's
 * ext-index of ok ops), or ISO_NONE. */
static void index_ok_writers(iso_ctx *ctx, rw_state *st)
{
    st->okw = iso_xmalloc((st->n_ver + 1) * sizeof *st->okw);
    for (size_t v = 0; v < st->n_ver; v++) {
        const rw_ver *w = &st->ver[v];
        int ok = w->wkind == RW_FINAL && ctx->pc.txns.t[w->writer].type == ISO_OP_OK;
        st->okw[v] = ok ? w->writer : ISO_NONE;
    }
}

/* wr edges: every read of an ok transaction that shows an ok
 * transaction's final write -- its external read as Elle's, and also a
 * second read of the key and a read after its own write that shows
 * another's (Adya's wr: each read reads some version; reads.c); ww and rw
 * edges of the reduced version graph: a version's readers get rw edges to
 * the writers of all its successors, in one group (a hub when large: a
 * version with many successors known only to follow it). */
static void add_edges(iso_ctx *ctx, const rw_state *st)
{
    for (uint32_t t = 0; t < ctx->pc.txns.n; t++) {
        if (ctx->pc.txns.t[t].type != ISO_OP_OK) continue;
        for (uint32_t m = st->mop_off[t]; m < st->mop_off[t + 1]; m++) {
            uint32_t w = rw_read_writer(&ctx->pc, st, m);
            w = w == ISO_NONE ? ISO_NONE : st->okw[st->mop[m] & ~RW_MOP_W];
            if (w != ISO_NONE && w != t) iso_edges_add(&ctx->edges, w, t, ISO_EDGE_WR);
        }
    }
    uint32_t *wr = NULL;
    size_t cap = 0;
    for (size_t i = 0, j; i < st->n_red; i = j) {
        uint32_t a = st->red[i].a, nw = 0;
        for (j = i; j < st->n_red && st->red[j].a == a; j++) {
            uint32_t w2 = st->okw[st->red[j].b], w1 = st->okw[a];
            if (w2 == ISO_NONE) continue;
            if (w1 != ISO_NONE && w1 != w2) iso_edges_add(&ctx->edges, w1, w2, ISO_EDGE_WW);
            ISO_GROW(wr, cap, (size_t)nw + 1);
            wr[nw++] = w2;
        }
        iso_edges_add_group(&ctx->edges, (uint32_t)ctx->pc.txns.n, st->rd + st->rd_off[a],
                            st->rd_off[a + 1] - st->rd_off[a], wr, nw, ISO_EDGE_RW);
    }
    iso_free(wr);
}

/* Version orders and edges on one thread, the anomalies found without
 * cycles on another (they need neither), through iso_ctx_both. */
typedef struct rw_orders {
    rw_state *st;
    isolde_error *err;
    int rc;
} rw_orders;

static void orders_job(iso_ctx *ctx, void *arg)
{
    rw_orders *o = arg;
    if ((o->rc = rw_version_graph(ctx, o->st, o->err))) return;
    iso_phase("rw: orders");
    add_edges(ctx, o->st);
}

static void anomalies_job(iso_ctx *side, void *arg)
{
    rw_find_anomalies(side, ((rw_orders *)arg)->st);
    rw_weak_check(side, ((rw_orders *)arg)->st);
}

static int orders_and_anomalies(iso_ctx *ctx, rw_state *st, isolde_error *err)
{
    rw_orders o = {st, err, 0};
    iso_ctx_both(ctx, orders_job, anomalies_job, &o);
    return o.rc;
}

static int analyze(iso_ctx *ctx, isolde_error *err)
{
    rw_state *st = iso_xcalloc(1, sizeof *st);
    ctx->pc.wl_state = st;
    ctx->exact = rw_exact;
    iso_keys_init(&st->keys, &ctx->pc.h->store);
    iso_name_atoms_find(&ctx->pc.h->store, "r", &st->read_name);
    iso_name_atoms_find(&ctx->pc.h->store, "w", &st->write_name);
    if (index_txns(ctx, st, err)) return -1;
    iso_phase("rw: versions");
    index_readers(ctx, st);
    index_ok_writers(ctx, st);
    rw_classify_reads(&ctx->pc, st);
    iso_phase("rw: readers");
    return orders_and_anomalies(ctx, st, err);
}

/* ---- explanations ------------------------------------------------------- */

/* Txn b's entries as key << 32 | index into st->ext, sorted by key (keys
 * are distinct within a txn), so that ext_of takes log time. */
static uint64_t *entries_by_key(const rw_state *st, uint32_t b, size_t *n)
{
    *n = st->ext_off[b + 1] - st->ext_off[b];
    uint64_t *e = iso_xmalloc((*n ? *n : 1) * sizeof *e);
    for (size_t i = 0; i < *n; i++) e[i] = (uint64_t)st->ext[st->ext_off[b] + i].key << 32 | (st->ext_off[b] + i);
    if (*n > 1) qsort(e, *n, sizeof *e, iso_cmp_u64);
    return e;
}

/* The entry for key among e[0..n) (entries_by_key), or NULL. */
static const rw_ext *ext_of(const rw_state *st, const uint64_t *e, size_t n, uint32_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e[mid] >> 32 < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && e[lo] >> 32 == key ? &st->ext[(uint32_t)e[lo]] : NULL;
}

/* Which of txn's reads of key its micro-op j is. */
static iso_read_rank read_rank(const iso_proof_ctx *pc, uint32_t txn, uint32_t key, uint32_t j)
{
    const rw_state *st = pc->wl_state;
    size_t n;
    const iso_val *m = rw_txn_mops(pc, txn, &n);
    iso_read_rank r = {0, 0};
    for (size_t i = 0; i < n; i++) {
        iso_val k, v;
        if (rw_mop(st, m[i], &k, &v) != RW_READ || iso_keys_find(&st->keys, k) != key) continue;
        r.n++;
        r.nth += i <= j;
    }
    return r;
}

/* One step to explain: T a (ta) before T b (tb) by an edge of kind bit. */
struct step {
    const iso_proof_ctx *pc;
    uint32_t a, b;
    int bit;
    const char *ta, *tb;
    iso_buf *text, *json;
};

/* The first read of b (as a micro-op index in b) that shows version v
 * (reads.c), or ISO_NONE. */
static uint32_t read_of(const iso_proof_ctx *pc, const rw_state *st, uint32_t b, uint32_t v)
{
    for (uint32_t m = st->mop_off[b]; m < st->mop_off[b + 1]; m++)
        if (!(st->mop[m] & RW_MOP_W) && (st->mop[m] & ~RW_MOP_W) == v && rw_read_writer(pc, st, m) != ISO_NONE)
            return m - st->mop_off[b];
    return ISO_NONE;
}

void rw_explain_wr(const iso_proof_ctx *pc, uint32_t v, uint32_t b, uint32_t bm, const char *ta, const char *tb,
                   iso_buf *text, iso_buf *json)
{
    const rw_state *st = pc->wl_state;
    const rw_ver *x = &st->ver[v];
    iso_val key = st->keys.vals[x->key];
    iso_edge_text_read(pc, text, read_rank(pc, b, x->key, bm), "%1 wrote key %K = %A, which was read by %2",
                       "%1 wrote key %K = %A, which %2's %N read of it returned", ta, tb, key, x->val, x->val);
    iso_edge_json(pc, json, "wr", key, NULL, x->val, NULL, x->wmop, bm);
}

static int explain_key(const struct step *s, const rw_ext *ea, const rw_ext *eb)
{
    const iso_proof_ctx *pc = s->pc;
    const rw_state *st = pc->wl_state;
    iso_val key = st->keys.vals[ea->key];
    if (s->bit == ISO_EDGE_WR) {
        uint32_t bm = ea->wr == ISO_NONE ? ISO_NONE : read_of(pc, st, s->b, ea->wr);
        if (bm == ISO_NONE) return 0;
        rw_explain_wr(pc, ea->wr, s->b, bm, s->ta, s->tb, s->text, s->json);
        return 1;
    }
    uint32_t va = s->bit == ISO_EDGE_WW ? ea->wr : ea->rd;
    if (va == ISO_NONE || eb->wr == ISO_NONE || !rw_reduced_has(st, va, eb->wr)) return 0;
    iso_val a = st->ver[va].val, b = st->ver[eb->wr].val;
    if (s->bit == ISO_EDGE_WW) {
        iso_edge_text(pc, s->text, "%1 set key %K to %A, and %2 set it to %B, which came later in the "
                      "version order", s->ta, s->tb, key, a, b);
        iso_edge_json(pc, s->json, "ww", key, NULL, a, &b, ea->wr_mop, eb->wr_mop);
    } else {
        iso_edge_text_read(pc, s->text, read_rank(pc, s->a, ea->key, ea->rd_mop),
                           "%1 read key %K = %A, and %2 set it to %B, which came later in the version order",
                           "%1's %N read of key %K returned %A, and %2 set it to %B, which came later in the "
                           "version order", s->ta, s->tb, key, a, b);
        iso_edge_json(pc, s->json, "rw", key, NULL, a, &b, ea->rd_mop, eb->wr_mop);
    }
    return 1;
}

static void explain(const iso_proof_ctx *pc, uint32_t a, uint32_t b, int bit, const char *ta,
                    const char *tb, iso_buf *text, iso_buf *json)
{
    const rw_state *st = pc->wl_state;
    const struct step s = {pc, a, b, bit, ta, tb, text, json};
    size_t n;
    uint64_t *e = entries_by_key(st, b, &n);
    for (uint32_t i = st->ext_off[a]; i < st->ext_off[a + 1]; i++) {
        const rw_ext *eb = ext_of(st, e, n, st->ext[i].key);
        if (eb && explain_key(&s, &st->ext[i], eb)) {
            iso_free(e);
            return;
        }
    }
    iso_free(e);
    iso_buf_printf(text, "%s precedes %s (no witness found)", ta, tb);
    iso_buf_puts(json, "{\"type\":\"unknown\"}");
}

static void state_free(void *p)
{
    rw_state *st = p;
    if (!st) return;
    iso_keys_free(&st->keys);
    iso_free(st->ver);
    iso_free(st->nil_ver);
    iso_free(st->ext_off);
    iso_free(st->ext);
    iso_free(st->mop_off);
    iso_free(st->mop);
    iso_free(st->rd_off);
    iso_free(st->rd);
    iso_free(st->red);
    iso_free(st->okw);
    iso_free(st->cyc);
    iso_free(st->cyc_ids);
    iso_free(st->rdf);
    iso_free(st->lost);
    iso_free(st->lu_txns);
    iso_free(st->rclass);
    iso_free(st->committed);
    rw_weak_free(st->weak);
    iso_free(st);
}

/* The picture of a pending finding: a weak model's, or a read's that
 * misses its own write. */
static int picture(const iso_proof_ctx *pc, const iso_finding *f, struct iso_picture *p)
{
    if (f->render != rw_weak_render) return rw_read_picture(pc, f, p);
    rw_weak_picture(pc, f->arg, p);
    return 1;
}

/* Elle's rw-register explainer tries wr, then ww, then rw. */
const iso_workload_ops iso_rw_register_ops = {
    "rw-register", {ISO_EDGE_WR, ISO_EDGE_WW, ISO_EDGE_RW}, analyze, explain, state_free, picture, NULL, NULL};
