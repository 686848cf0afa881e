/*
 * elle/list_append/list_append.c -- the list-append workload: index every append, infer each
 * key's version order from its reads, and derive ww / wr / rw edges as
 * Elle's list-append does; explain any such edge on demand.
 */
#include "elle/list_append/list_append_int.h"
#include "core/sort.h"

#include <stdlib.h>
#include <string.h>

/* A completed ok/info transaction: Elle's history+. */
static int in_plus(const iso_txn *t)
{
    return t->cmp != ISO_NONE && (t->type == ISO_OP_OK || t->type == ISO_OP_INFO);
}

/* Reject a transaction that is not list-append, naming the op's position. */
static int bad_txn(const iso_proof_ctx *pc, uint32_t txn, const char *what, iso_val v,
                   isolde_error *err)
{
    const iso_op *op = iso_txn_op(pc->h, &pc->txns.t[txn]);
    iso_buf b = {0};
    iso_val_edn(&pc->h->store, v, &b);
    iso_fail(err, ISOLDE_ERR_PARSE, pc->h->name, op->line, op->col, "%s: %s (op index %lld)", what,
             iso_buf_cstr(&b), (long long)op->index);
    iso_buf_free(&b);
    return -1;
}

/* The workload violation: append `later` repeats an earlier (key, value). */
static int dup_append(const iso_proof_ctx *pc, const la_state *st, size_t later, isolde_error *err)
{
    const la_append *b = &st->ap[later], *a = la_find(st, b->key, la_value(st, b));
    const iso_op *first = iso_txn_op(pc->h, &pc->txns.t[a->txn]);
    const iso_op *op = iso_txn_op(pc->h, &pc->txns.t[b->txn]);
    iso_buf m = {0};
    iso_buf_puts(&m, "appending ");
    iso_val_edn(&pc->h->store, la_value(st, b), &m);
    iso_buf_puts(&m, " to key ");
    iso_val_edn(&pc->h->store, st->keys.vals[b->key], &m);
    iso_fail(err, ISOLDE_ERR_PARSE, pc->h->name, op->line, op->col,
             "%s repeats a value already appended to that key by the op at line %u "
             "(index %lld); list-append needs every appended value unique per key",
             iso_buf_cstr(&m), first->line, (long long)first->index);
    iso_buf_free(&m);
    return -1;
}

/* Mark appends of transaction t, st->ap[first..n_ap), that it overwrote
 * itself (G1b writers): walking back from its last append, a key already
 * stamped t + 1 is appended again later. */
static void mark_intermediate(la_state *st, size_t first, uint32_t t)
{
    if (st->n_ap - first < 2) return;
    if (st->n_mark < st->n_k) {
        size_t old = st->n_mark;
        ISO_GROW(st->mark, st->n_mark, st->n_k);
        memset(st->mark + old, 0, (st->n_mark - old) * sizeof *st->mark);
    }
    for (size_t i = st->n_ap; i-- > first;) {
        la_append *a = &st->ap[i];
        a->intermediate = st->mark[a->key] == t + 1;
        st->mark[a->key] = t + 1;
    }
}

/* The longest read of each key, over ok/info txns (the version order) and
 * over every completion (dirty-update's order); flag keys whose reads
 * disagree. */
static int track_read(iso_ctx *ctx, la_state *st, uint32_t t, iso_val mop, uint32_t key, isolde_error *err)
{
    const iso_store *s = &ctx->pc.h->store;
    iso_val v = mop_val(s, mop);
    if (iso_is_nil(v)) return 0;
    if (iso_tag(v) != ISO_TAG_SEQ || iso_seq_kind(s, v) > ISO_SEQ_LIST) /* (never packed: mop.h) */
        return bad_txn(&ctx->pc, t, "a list-append read must return a list", mop, err);
    size_t len;
    const iso_val *items = la_read_items(s, v, &len);
    if (!len) return 0;
    la_key *k = &st->k[key];
    if (len > k->full_len) { k->full_v = v; k->full_len = (uint32_t)len; }
    if (!in_plus(&ctx->pc.txns.t[t])) return 0;
    if (!k->incompatible && !iso_vals_eq(s, items, la_order(st, k), len < k->len ? len : k->len))
        k->incompatible = 1;
    if (len > k->len) { k->order_v = v; k->len = (uint32_t)len; }
    return 0;
}

/* Append record of (key, v) by txn t of the given type; -1 past the values
 * it can hold. */
static int add_append(la_state *st, uint32_t key, uint32_t t, unsigned type, iso_val v)
{
    int small = iso_is_int(v) && iso_as_int(v) >= 0 && iso_as_int(v) < LA_SMALL;
    if (!small && st->n_vals >= (size_t)LA_SMALL) return -1;
    if (!small) ISO_PUSH(st->vals, st->n_vals, st->cap_vals, v);
    uint32_t value = small ? (uint32_t)iso_as_int(v) : (uint32_t)st->n_vals - 1;
    ISO_PUSH(st->ap, st->n_ap, st->cap_ap, ((la_append){key, t, ISO_NONE, type, 0, !small, value}));
    return 0;
}

/* Pass 1: validate every transaction, intern keys, index every append,
 * and track each key's longest read. */
static int index_appends(iso_ctx *ctx, la_state *st, isolde_error *err)
{
    const iso_store *s = &ctx->pc.h->store;
    for (uint32_t t = 0; t < ctx->pc.txns.n; t++) {
        const iso_txn *tx = &ctx->pc.txns.t[t];
        iso_val value = iso_txn_op(ctx->pc.h, tx)->value;
        if (!iso_is_nil(value) && (iso_tag(value) != ISO_TAG_SEQ || iso_seq_kind(s, value) > ISO_SEQ_LIST))
            return bad_txn(&ctx->pc, t, "a transaction must be a vector of micro-ops", value, err);
        size_t n, first = st->n_ap;
        const iso_val *m = la_txn_mops(&ctx->pc, t, &n);
        for (size_t j = 0; j < n; j++) {
            int kind = la_mop_kind(st, m[j]);
            if (!kind)
                return bad_txn(&ctx->pc, t, "list-append micro-ops are [:append k v] or [:r k v]", m[j], err);
            uint32_t key = iso_keys_intern(&st->keys, mop_key(s, m[j]));
            if (key >= st->n_k) { /* as many as there are keys, not a power of two */
                ISO_GROW(st->k, st->cap_k, key + 1);
                memset(st->k + st->n_k, 0, (key + 1 - st->n_k) * sizeof *st->k);
                st->n_k = key + 1;
            }
            if (kind == LA_READ) {
                if (tx->cmp != ISO_NONE && track_read(ctx, st, t, m[j], key, err)) return -1;
                continue;
            }
            if (add_append(st, key, t, tx->cmp == ISO_NONE ? ISO_OP_INVOKE : tx->type, mop_val(s, m[j])))
                return iso_fail(err, ISOLDE_ERR_LIMIT, ctx->pc.h->name, iso_txn_op(ctx->pc.h, tx)->line,
                                iso_txn_op(ctx->pc.h, tx)->col,
                                "list-append: more than %lld appended values other than integers 0 .. %lld",
                                (long long)LA_SMALL, (long long)LA_SMALL - 1);
        }
        mark_intermediate(st, first, t);
    }
    iso_free(st->mark);
    st->mark = NULL;
    st->n_mark = 0;
    long dup = la_index_appends(st);
    if (dup >= 0) return dup_append(&ctx->pc, st, (size_t)dup, err);
    for (size_t i = 0; i < st->n_ap; i++) {
        const la_append *a = &st->ap[i];
        const iso_txn *tx = &ctx->pc.txns.t[a->txn];
        st->k[a->key].appends_ops += (tx->inv != ISO_NONE) + (tx->cmp != ISO_NONE);
        st->k[a->key].last_ap = (uint32_t)i;
        if (a->type == ISO_OP_FAIL) st->k[a->key].has_fail = 1;
        if (a->type == ISO_OP_OK || a->type == ISO_OP_INFO) {
            st->k[a->key].appends_plus++;
            st->k[a->key].single = la_value(st, a);
        }
    }
    return 0;
}

/* Key k's version order without repeats into tmp, with the position of
 * each append and the append at each position; its length. An element
 * repeats when its append has a position, or, never appended, when an
 * equal one came first (first[], computed at the first such element). */
static uint32_t dedup_order(la_state *st, const iso_store *s, uint32_t key, iso_val *tmp)
{
    la_key *k = &st->k[key];
    const iso_val *order = la_order(st, k);
    uint32_t out = 0, *first = NULL;
    for (uint32_t i = 0; i < k->len; i++) {
        la_append *a = (la_append *)la_find(st, key, order[i]);
        if (!a && !first) {
            first = iso_xmalloc(k->len * sizeof *first);
            iso_vals_first(s, order, k->len, first);
        }
        if (a ? a->pos != ISO_NONE : first[i] != i) continue;
        if (a) a->pos = out;
        st->at[k->slot0 + out] = a ? (uint32_t)(a - st->ap) : ISO_NONE;
        tmp[out++] = order[i];
    }
    iso_free(first);
    return out;
}

/* Pass 2: each key's version order (distinct elements), positions, and
 * which append stands at each position. */
static void build_orders(la_state *st, const iso_store *s)
{
    iso_val *tmp = NULL;
    size_t cap = 0, slots = 0;
    for (uint32_t key = 0; key < st->keys.n; key++) {
        la_key *k = &st->k[key];
        if (k->appends_plus == 1) k->len = 1;
        k->slot0 = (uint32_t)slots;
        slots += k->len + 1; /* an upper bound before deduplication */
    }
    st->n_slots = slots;
    st->at = iso_xmalloc((slots ? slots : 1) * sizeof *st->at);
    for (uint32_t key = 0; key < st->keys.n; key++) {
        la_key *k = &st->k[key];
        if (k->appends_plus == 1) { /* Elle: a single append needs no read */
            k->len = 1;
            k->incompatible = 0;
            k->single_only = 1;
        }
        ISO_GROW(tmp, cap, (size_t)k->len + 1);
        uint32_t out = dedup_order(st, s, key, tmp);
        for (k->clean = 0; k->clean < out; k->clean++) {
            uint32_t at = st->at[k->slot0 + k->clean];
            if (at == ISO_NONE || (st->ap[at].type != ISO_OP_OK && st->ap[at].type != ISO_OP_INFO)) break;
        }
        if (out != k->len) { /* duplicates: keep a deduplicated copy */
            k->copy = iso_xmalloc(out * sizeof *k->copy);
            memcpy(k->copy, tmp, out * sizeof *k->copy);
            k->len = out;
        }
    }
    iso_free(tmp);
}

/* A writer in Elle's write-index: an ok or info completion. */
static int is_writer(const la_append *a)
{
    return a && (a->type == ISO_OP_OK || a->type == ISO_OP_INFO);
}

/* The append a non-empty read ends with, if any: found by position when
 * every read of the key is a prefix of its order, else by value. */
static const la_append *read_last(const la_state *st, uint32_t key, const iso_val *items, size_t n)
{
    const la_key *k = &st->k[key];
    if (la_trusted(k)) {
        uint32_t at = st->at[k->slot0 + n - 1];
        return at == ISO_NONE ? NULL : &st->ap[at];
    }
    return la_find(st, key, items[n - 1]);
}

typedef struct la_read { uint32_t slot, txn; } la_read;
typedef struct la_readers {
    la_read *rs;
    size_t n, cap;
    uint32_t *latest; /* per key: 1 + index in rs of its latest reader */
} la_readers;

/* Txn t reads version slot of key: one reader, unless t's latest read of
 * the key already named that version (a txn that reads one version again
 * adds no edge, and no work per append that follows it). */
static void add_reader(la_readers *r, uint32_t key, uint32_t slot, uint32_t t)
{
    uint32_t p = r->latest[key];
    if (p && r->rs[p - 1].txn == t && r->rs[p - 1].slot == slot) return;
    ISO_PUSH(r->rs, r->n, r->cap, ((la_read){slot, t}));
    r->latest[key] = (uint32_t)r->n;
}

/* Pass 3: every read of an ok/info txn: a wr edge from the writer of its
 * last element; the reader of its version, gathered into CSR (slot 0 is
 * the initial state, i + 1 the state after element i; an info read of nil
 * is no read at all, as in Elle's read-index); and its anomalies. */
static void index_reads(iso_ctx *ctx, la_state *st)
{
    const iso_store *s = &ctx->pc.h->store;
    la_readers r = {NULL, 0, 0, iso_xcalloc(st->keys.n + 1, sizeof(uint32_t))};
    for (uint32_t t = 0; t < ctx->pc.txns.n; t++) {
        const iso_txn *tx = &ctx->pc.txns.t[t];
        if (!in_plus(tx)) continue;
        size_t n;
        const iso_val *m = la_txn_mops(&ctx->pc, t, &n);
        for (size_t j = 0; j < n; j++) {
            if (la_mop_kind(st, m[j]) != LA_READ) continue;
            iso_val v = mop_val(s, m[j]);
            if (iso_is_nil(v) && tx->type == ISO_OP_INFO) continue;
            uint32_t key = iso_keys_find(&st->keys, mop_key(s, m[j]));
            size_t len;
            const iso_val *items = la_read_items(s, v, &len);
            const la_append *last = len ? read_last(st, key, items, len) : NULL;
            uint32_t slot = !len ? 0 : last && last->pos != ISO_NONE ? last->pos + 1 : ISO_NONE;
            if (is_writer(last) && last->txn != t) iso_edges_add(&ctx->edges, last->txn, t, ISO_EDGE_WR);
            if (slot != ISO_NONE) add_reader(&r, key, st->k[key].slot0 + slot, t);
            la_read_anomalies(ctx, st, t, m[j], key, items, len, last, tx->type == ISO_OP_OK);
        }
    }
    iso_free(r.latest);
    st->rd_off = iso_xcalloc(st->n_slots + 2, sizeof *st->rd_off);
    for (size_t i = 0; i < r.n; i++) st->rd_off[r.rs[i].slot + 2]++;
    for (size_t i = 2; i < st->n_slots + 2; i++) st->rd_off[i] += st->rd_off[i - 1];
    st->rd = iso_xmalloc((r.n ? r.n : 1) * sizeof *st->rd);
    for (size_t i = 0; i < r.n; i++) st->rd[st->rd_off[r.rs[i].slot + 1]++] = r.rs[i].txn;
    iso_free(r.rs);
}

int la_prev_element(const la_state *st, uint32_t key, iso_val v, iso_val *prev)
{
    const la_key *k = &st->k[key];
    const la_append *a = la_find(st, key, v);
    uint32_t p = a && a->pos != ISO_NONE ? a->pos : k->len;
    if (!p) return 0;
    *prev = la_order(st, k)[p - 1];
    return 1;
}

/* The writer of (key, v) among ok/info completions (Elle's write-index). */
static const la_append *writer_of(const la_state *st, uint32_t key, iso_val v)
{
    const la_append *a = la_find(st, key, v);
    return is_writer(a) ? a : NULL;
}

/* The position an append follows: its own, or after the last observed
 * element when it was never read. */
static uint32_t follows(const la_state *st, const la_append *a)
{
    return a->pos != ISO_NONE ? a->pos : st->k[a->key].len;
}

static uint32_t prev_slot(const la_state *st, uint32_t key, iso_val v)
{
    return st->k[key].slot0 + follows(st, la_find(st, key, v));
}

/* The writers of a key's unobserved appends: the one transaction, or
 * LA_MANY when there are several. */
#define LA_MANY (ISO_NONE - 1)

/* Whether some reader of the key's last version is not the lone writer:
 * then the group has an edge between two transactions. */
static int group_has_pair(const la_state *st, uint32_t slot, uint32_t lone)
{
    for (uint32_t r = st->rd_off[slot]; lone != LA_MANY && r < st->rd_off[slot + 1]; r++)
        if (st->rd[r] != lone) return 1;
    return lone == LA_MANY && st->rd_off[slot] < st->rd_off[slot + 1];
}

/* Per key, the hub the rw edges into its unobserved appends (which all
 * follow its last version) go through, its readers -> hub edges added; or
 * ISO_NONE, where they stay pairs. */
static uint32_t *unobserved_hubs(iso_ctx *ctx, const la_state *st)
{
    uint32_t nk = (uint32_t)st->keys.n;
    uint32_t *nw = iso_xcalloc(nk ? nk : 1, sizeof *nw), *hub = iso_xmalloc((nk ? nk : 1) * sizeof *hub);
    memset(hub, 0xff, (size_t)nk * sizeof *hub); /* for now: the lone writer */
    for (size_t i = 0; i < st->n_ap; i++) {
        const la_append *a = &st->ap[i];
        if (!is_writer(a) || a->pos != ISO_NONE || ctx->co->shown_edges) continue;
        nw[a->key]++;
        hub[a->key] = hub[a->key] == ISO_NONE || hub[a->key] == a->txn ? a->txn : LA_MANY;
    }
    for (uint32_t key = 0; key < nk; key++) {
        uint32_t slot = st->k[key].slot0 + st->k[key].len, nr = st->rd_off[slot + 1] - st->rd_off[slot];
        uint32_t h = nw[key] && group_has_pair(st, slot, hub[key])
                   ? iso_edges_hub(&ctx->edges, (uint32_t)ctx->pc.txns.n, nr, nw[key]) : ISO_NONE;
        for (uint32_t r = st->rd_off[slot]; h != ISO_NONE && r < st->rd_off[slot + 1]; r++)
            iso_edges_add(&ctx->edges, st->rd[r], h, ISO_EDGE_RW);
        hub[key] = h;
    }
    iso_free(nw);
    return hub;
}

/* Pass 4: ww and rw edges into every append of an ok/info txn; an
 * unobserved append's rw edges through its key's hub if it has one. */
static void add_append_edges(iso_ctx *ctx, la_state *st)
{
    uint32_t *hub = unobserved_hubs(ctx, st);
    for (size_t i = 0; i < st->n_ap; i++) {
        const la_append *a = &st->ap[i];
        if (!is_writer(a) || (a->pos == ISO_NONE && ctx->co->shown_edges)) continue;
        uint32_t p = follows(st, a), slot = st->k[a->key].slot0 + p;
        uint32_t w = p ? st->at[slot - 1] : ISO_NONE;
        if (w != ISO_NONE && is_writer(&st->ap[w]) && st->ap[w].txn != a->txn)
            iso_edges_add(&ctx->edges, st->ap[w].txn, a->txn, ISO_EDGE_WW);
        if (a->pos == ISO_NONE && hub[a->key] != ISO_NONE) {
            iso_edges_add(&ctx->edges, hub[a->key], a->txn, ISO_EDGE_RW);
            continue;
        }
        for (uint32_t r = st->rd_off[slot]; r < st->rd_off[slot + 1]; r++)
            if (st->rd[r] != a->txn) iso_edges_add(&ctx->edges, st->rd[r], a->txn, ISO_EDGE_RW);
    }
    iso_free(hub);
}

/* Whether one of txn t's reads of key shows its first n elements. */
static int reads_past(const iso_proof_ctx *pc, uint32_t t, uint32_t key, uint32_t n)
{
    const la_state *st = pc->wl_state;
    const iso_store *s = &pc->h->store;
    size_t nm, len;
    const iso_val *m = la_txn_mops(pc, t, &nm);
    for (size_t j = 0; j < nm; j++)
        if (la_mop_kind(st, m[j]) == LA_READ && iso_keys_find(&st->keys, mop_key(s, m[j])) == key &&
            (la_read_items(s, mop_val(s, m[j]), &len), len >= n))
            return 1;
    return 0;
}

/* Whether some read shows b's append to a key right after a's (the ops'
 * ww_shown): 2 when b's own read shows a's append (a is visible to b). */
static int ww_shown(const iso_proof_ctx *pc, uint32_t a, uint32_t b)
{
    const la_state *st = pc->wl_state;
    int shown = 0;
    for (size_t i = la_first_append(st, b); i < st->n_ap && st->ap[i].txn == b && shown < 2; i++) {
        const la_append *ap = &st->ap[i];
        if (!is_writer(ap) || ap->pos == ISO_NONE || ap->pos == 0) continue;
        uint32_t w = st->at[st->k[ap->key].slot0 + ap->pos - 1];
        if (w != ISO_NONE && st->ap[w].txn == a) shown = 1 + reads_past(pc, b, ap->key, ap->pos);
    }
    return shown;
}

/* Reader t, one of the key's writers kw[0 .. nw): to each of the others. */
static void pairs_from(uint32_t t, const uint32_t *kw, uint32_t nw, iso_group_fn emit, void *arg)
{
    for (uint32_t j = 0; j < nw; j++)
        if (kw[j] != t) emit(arg, &t, 1, &kw[j], 1);
}

/* Whether a is an append no read shows of a writer la_unread_by_key takes. */
static int unread_writer(const la_append *a, int with_info)
{
    return a->pos == ISO_NONE && (a->type == ISO_OP_OK || (with_info && a->type == ISO_OP_INFO));
}

uint32_t *la_unread_by_key(const la_state *st, int with_info, uint32_t **off_out)
{
    uint32_t nk = (uint32_t)st->keys.n, *off = iso_xcalloc((size_t)nk + 1, sizeof *off);
    uint32_t *end = iso_xcalloc((size_t)nk + 1, sizeof *end);
    for (size_t i = 0; i < st->n_ap; i++)
        if (unread_writer(&st->ap[i], with_info)) off[st->ap[i].key + 1]++;
    for (uint32_t k = 0; k < nk; k++) off[k + 1] += off[k], end[k] = off[k];
    uint32_t *un = iso_xmalloc(((size_t)off[nk] + 1) * sizeof *un);
    for (size_t i = 0; i < st->n_ap; i++) { /* appends are in transaction order: each key's ascend */
        const la_append *a = &st->ap[i];
        if (!unread_writer(a, with_info)) continue;
        if (end[a->key] > off[a->key] && st->ap[un[end[a->key] - 1]].txn == a->txn) un[end[a->key] - 1] = (uint32_t)i;
        else un[end[a->key]++] = (uint32_t)i; /* a transaction's last append to the key stands for it */
    }
    for (uint32_t k = 0, at = 0; k < nk; k++) { /* close the gaps its other appends left */
        uint32_t from = off[k], n = end[k] - from;
        memmove(un + at, un + from, (size_t)n * sizeof *un);
        off[k] = at;
        at += n;
        if (k + 1 == nk) off[nk] = at;
    }
    iso_free(end);
    *off_out = off;
    return un;
}

/* The ops' unread_groups: per key, every reader of any version of it ->
 * the transactions of its appends no read shows (ok or info, as the
 * graph's); a reader that is one of them reaches the others pair by pair. */
static void unread_groups(const iso_proof_ctx *pc, iso_group_fn emit, void *arg)
{
    const la_state *st = pc->wl_state;
    uint32_t *off, *un = la_unread_by_key(st, 1, &off);
    uint32_t *rd = iso_xmalloc(((size_t)st->rd_off[st->n_slots + 1] + 1) * sizeof *rd);
    for (uint32_t k = 0; k < st->keys.n; k++) {
        uint32_t *kw = un + off[k], nw = off[k + 1] - off[k];
        size_t nr = 0;
        for (uint32_t i = 0; i < nw; i++) kw[i] = st->ap[kw[i]].txn; /* ascending, as the appends */
        for (uint32_t r = st->rd_off[st->k[k].slot0]; nw && r < st->rd_off[st->k[k].slot0 + st->k[k].len + 1]; r++) {
            uint32_t t = st->rd[r];
            if (bsearch(&t, kw, nw, sizeof *kw, iso_cmp_u32)) pairs_from(t, kw, nw, emit, arg);
            else rd[nr++] = t;
        }
        if (nr) emit(arg, rd, nr, kw, nw);
    }
    iso_free(off);
    iso_free(un);
    iso_free(rd);
}

/* Once the version orders are known, the reads' edges and anomalies on one
 * side, and each ok transaction on its own and then each key on the other,
 * need nothing of each other: the latter run on a second thread with a side
 * context (iso_ctx_both; types differ, so each type's order is that of one
 * thread). */
static void reads_job(iso_ctx *ctx, void *st)
{
    index_reads(ctx, st);
    iso_phase("la: reads");
    add_append_edges(ctx, st);
}

static void keys_job(iso_ctx *side, void *arg)
{
    la_state *st = arg;
    for (uint32_t t = 0; t < side->pc.txns.n; t++) {
        const iso_txn *tx = &side->pc.txns.t[t];
        if (tx->type != ISO_OP_OK || tx->cmp == ISO_NONE) continue;
        size_t n;
        const iso_val *m = la_txn_mops(&side->pc, t, &n);
        la_txn_anomalies(side, st, t, m, n);
    }
    la_key_anomalies(side, st);
    uint8_t *fractured = iso_xcalloc(side->pc.txns.n + 1, 1);
    la_fractured_reads(side, st, fractured);
    la_causality(side, st, fractured);
    la_rc_be(side, st);
    iso_free(fractured);
}

static int analyze(iso_ctx *ctx, isolde_error *err)
{
    la_state *st = iso_xcalloc(1, sizeof *st);
    ctx->pc.wl_state = st;
    if (!ctx->co->shown_edges) ctx->exact = la_exact; /* --follow's early checks: the edges reads show */
    iso_keys_init(&st->keys, &ctx->pc.h->store);
    iso_name_atoms_find(&ctx->pc.h->store, "append", &st->append_name);
    iso_name_atoms_find(&ctx->pc.h->store, "r", &st->read_name);
    if (index_appends(ctx, st, err)) return -1;
    iso_phase("la: appends");
    build_orders(st, &ctx->pc.h->store);
    iso_phase("la: orders");
    iso_ctx_both(ctx, reads_job, keys_job, st);
    iso_phase("la: ww/rw");
    return 0;
}

/* ---- explanations ------------------------------------------------------- */

long la_mop_index(const iso_proof_ctx *pc, uint32_t txn, int kind, uint32_t key, iso_val v, int match_last)
{
    const la_state *st = pc->wl_state;
    const iso_store *s = &pc->h->store;
    size_t n;
    const iso_val *m = la_txn_mops(pc, txn, &n);
    for (size_t j = 0; j < n; j++) {
        if (la_mop_kind(st, m[j]) != kind || iso_keys_find(&st->keys, mop_key(s, m[j])) != key) continue;
        iso_val x = mop_val(s, m[j]);
        if (match_last) {
            size_t len;
            const iso_val *items = la_read_items(s, x, &len);
            if (match_last == 2 ? len == 0 : (len && iso_val_eq(s, items[len - 1], v))) return (long)j;
        } else if (iso_val_eq(s, x, v)) {
            return (long)j;
        }
    }
    return -1;
}

/* Which of txn's reads of key its micro-op j is. */
static iso_read_rank read_rank(const iso_proof_ctx *pc, uint32_t txn, uint32_t key, long j)
{
    const la_state *st = pc->wl_state;
    size_t n;
    const iso_val *m = la_txn_mops(pc, txn, &n);
    iso_read_rank r = {0, 0};
    for (size_t i = 0; i < n; i++) {
        if (la_mop_kind(st, m[i]) != LA_READ || iso_keys_find(&st->keys, mop_key(&pc->h->store, m[i])) != key)
            continue;
        r.n++;
        r.nth += (long)i <= j;
    }
    return r;
}

/* When v's append to key (an element) is one no read shows: a's first read
 * of the key, which misses it whatever version it read (the rw edges of
 * ops' unread_groups), and in *last that read's last element (nil when
 * empty); -1 when a read none or the append was read. */
static long unread_miss(const iso_proof_ctx *pc, uint32_t a, uint32_t key, iso_val v, iso_val *last)
{
    const la_state *st = pc->wl_state;
    const iso_store *s = &pc->h->store;
    const la_append *w = la_find(st, key, v);
    if (!w || w->pos != ISO_NONE) return -1;
    size_t n;
    const iso_val *m = la_txn_mops(pc, a, &n);
    for (size_t j = 0; j < n; j++) {
        if (la_mop_kind(st, m[j]) != LA_READ || iso_keys_find(&st->keys, mop_key(s, m[j])) != key) continue;
        size_t len;
        const iso_val *items = la_read_items(s, mop_val(s, m[j]), &len);
        *last = len ? items[len - 1] : ISO_NIL;
        return (long)j;
    }
    return -1;
}

static int explain_append(const iso_proof_ctx *pc, uint32_t a, int bit, size_t j,
                          iso_val kv, iso_val v, const char *ta, const char *tb,
                          iso_buf *text, iso_buf *json)
{
    const la_state *st = pc->wl_state;
    uint32_t key = iso_keys_find(&st->keys, kv);
    iso_val prev;
    int has_prev = la_prev_element(st, key, v, &prev);
    if (bit == ISO_EDGE_WW) {
        const la_append *w = has_prev ? writer_of(st, key, prev) : NULL;
        if (!w || w->txn != a) return 0;
        iso_edge_text(pc, text, "%2 appended %B after %1 appended %A to key %K", ta, tb, kv, prev, v);
        iso_edge_json(pc, json, "ww", kv, NULL, prev, &v, la_mop_index(pc, a, LA_APPEND, key, prev, 0),
                      (long)j);
        return 1;
    }
    uint32_t slot = prev_slot(st, key, v);
    int found = 0;
    for (uint32_t r = st->rd_off[slot]; r < st->rd_off[slot + 1] && !found; r++) found = st->rd[r] == a;
    long am = found ? la_mop_index(pc, a, LA_READ, key, prev, has_prev ? 1 : 2) : unread_miss(pc, a, key, v, &prev);
    if (am < 0) return 0;
    has_prev = found ? has_prev : !iso_val_eq(&pc->h->store, prev, ISO_NIL);
    iso_read_rank rank = read_rank(pc, a, key, am);
    if (has_prev)
        iso_edge_text_read(pc, text, rank, "%1 did not observe %2's append of %B to key %K",
                           "%1's %N read of key %K did not observe %2's append of %B", ta, tb, kv, prev, v);
    else
        iso_edge_text_read(pc, text, rank, "%1 observed the initial (nil) state of key %K, which %2 created by "
                           "appending %B", "%1's %N read of key %K observed its initial (nil) state, which %2 "
                           "created by appending %B", ta, tb, kv, v, v);
    iso_edge_json(pc, json, "rw", kv, has_prev ? NULL : "\"elle.list-append/init\"", prev, &v, am, (long)j);
    return 1;
}

static void explain(const iso_proof_ctx *pc, uint32_t a, uint32_t b, int bit, const char *ta,
                    const char *tb, iso_buf *text, iso_buf *json)
{
    const la_state *st = pc->wl_state;
    const iso_store *s = &pc->h->store;
    size_t n;
    const iso_val *m = la_txn_mops(pc, b, &n);
    for (size_t j = 0; j < n; j++) {
        int kind = la_mop_kind(st, m[j]);
        iso_val kv = mop_key(s, m[j]), v = mop_val(s, m[j]);
        if (kind == LA_APPEND && bit != ISO_EDGE_WR) {
            if (explain_append(pc, a, bit, j, kv, v, ta, tb, text, json)) return;
        } else if (kind == LA_READ && bit == ISO_EDGE_WR) {
            uint32_t key = iso_keys_find(&st->keys, kv);
            size_t len;
            const iso_val *items = la_read_items(s, v, &len);
            const la_append *w = len ? writer_of(st, key, items[len - 1]) : NULL;
            if (!w || w->txn != a) continue;
            iso_edge_text_read(pc, text, read_rank(pc, b, key, (long)j), "%2 observed %1's append of %A to key %K",
                               "%2's %N read of key %K observed %1's append of %A", ta, tb, kv, items[len - 1],
                               items[len - 1]);
            iso_edge_json(pc, json, "wr", kv, NULL, items[len - 1], NULL,
                          la_mop_index(pc, a, LA_APPEND, key, items[len - 1], 0), (long)j);
            return;
        }
    }
    iso_buf_printf(text, "%s precedes %s (no witness found)", ta, tb);
    iso_buf_puts(json, "{\"type\":\"unknown\"}");
}

static void state_free(void *p)
{
    la_state *st = p;
    if (!st) return;
    for (size_t k = 0; st->k && k < st->keys.n; k++)
        iso_free(st->k[k].copy);
    iso_free(st->k);
    iso_free(st->ap);
    iso_free(st->vals);
    iso_free(st->ap_slots);
    iso_free(st->dense);
    iso_free(st->rd_off);
    iso_free(st->rd);
    iso_free(st->at);
    iso_free(st->mark);
    la_anomalies_free(st);
    iso_keys_free(&st->keys);
    iso_free(st);
}

/* Elle's list-append explainer tries ww, then wr, then rw. */
const iso_workload_ops iso_list_append_ops = {
    "list-append", {ISO_EDGE_WW, ISO_EDGE_WR, ISO_EDGE_RW}, analyze, explain, state_free, NULL, ww_shown,
    unread_groups};
