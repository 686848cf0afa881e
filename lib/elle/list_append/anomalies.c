/*
 * elle/list_append/anomalies.c -- list-append anomalies found without cycles: G1a
 * (aborted read), G1b (intermediate read), garbage-read, internal,
 * future-read, duplicate-elements, incompatible-order (between two reads,
 * or between a read and the order its writer appended in), dirty-update
 * and lost-update, each rendered for people and as Elle's JSON. Those that may
 * come many to an op (all but internal, future-read: one per transaction,
 * and incompatible-order: one per key) are kept as small records in
 * la_state and rendered only when a report shows them, so that memory
 * stays linear in the history however many there are.
 */
#include "elle/list_append/list_append_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- reads of other transactions' writes --------------------------------- */

/* Read finding i's words up to its element, "T1 read key k = v<mid>element";
 * returns the read's items. */
static const iso_val *read_head(const iso_proof_ctx *pc, size_t i, iso_fb *f, const char *mid)
{
    const la_state *st = pc->wl_state;
    const la_rdf *g = &st->rdf[i];
    const iso_store *s = &pc->h->store;
    size_t n;
    const iso_val *items = la_read_items(s, mop_val(s, g->mop), &n);
    uint32_t tx[2] = {g->reader, g->writer};
    iso_fb_let(pc, f, tx, g->writer == ISO_NONE ? 1 : 2);
    iso_buf_puts(&f->text, "T1 read key ");
    iso_fb_val(pc, f, mop_key(s, g->mop));
    iso_buf_puts(&f->text, " = ");
    iso_fb_val(pc, f, mop_val(s, g->mop));
    iso_buf_puts(&f->text, mid);
    iso_fb_val(pc, f, items[g->at]);
    return items;
}

/* Read finding i's JSON fields; closes f. */
static void read_fields(const iso_proof_ctx *pc, size_t i, iso_fb *f, const iso_val *items)
{
    const la_rdf *g = &((const la_state *)pc->wl_state)->rdf[i];
    iso_fb_field_op(pc, f, "op", g->reader);
    iso_fb_field(pc, f, "mop", g->mop);
    if (g->writer != ISO_NONE) iso_fb_field_op(pc, f, "writer", g->writer);
    iso_fb_field(pc, f, "element", items[g->at]);
    iso_fb_close(f);
}

/* Render read finding i: "T1 read key k = v<mid>element<tail>". */
static void render_read(const iso_proof_ctx *pc, size_t i, iso_fb *f, const char *mid, const char *tail)
{
    const iso_val *items = read_head(pc, i, f, mid);
    iso_buf_puts(&f->text, tail);
    read_fields(pc, i, f, items);
}

/* iso_render_fn of each kind of read finding. */
static void render_g1a(const iso_proof_ctx *pc, size_t i, iso_fb *f)
{
    render_read(pc, i, f, ", which includes ", "; T2 appended it but failed: T1 read aborted state.");
}

static void render_garbage(const iso_proof_ctx *pc, size_t i, iso_fb *f)
{
    render_read(pc, i, f, ", which includes ", "; no transaction ever appended that element to that key.");
}

static void render_g1b(const iso_proof_ctx *pc, size_t i, iso_fb *f)
{
    render_read(pc, i, f, ", ending in ",
                ", but T2 appended to that key again after it: T1 read an intermediate state.");
}

/* incompatible-order within one read: the element at follows its writer's
 * element before it in the read, yet is not that writer's next append. */
static void render_runs(const iso_proof_ctx *pc, size_t i, iso_fb *f)
{
    const la_rdf *g = &((const la_state *)pc->wl_state)->rdf[i];
    const iso_val *items = read_head(pc, i, f, ", in which T2's append of ");
    iso_buf_puts(&f->text, " directly follows its append of ");
    iso_fb_val(pc, f, items[g->at - 1]);
    iso_buf_puts(&f->text, ", though T2 did not append it next: no version of the key has that value (a version "
                           "lists each writer's appends in the order it made them).");
    iso_fb_field(pc, f, "previous", items[g->at - 1]);
    read_fields(pc, i, f, items);
}

static void add_read_finding(iso_ctx *ctx, la_state *st, la_rdf g, int type)
{
    ISO_PUSH(st->rdf, st->n_rdf, st->cap_rdf, g);
    iso_render_fn fn = type == ISO_A_G1A               ? render_g1a
                       : type == ISO_A_G1B             ? render_g1b
                       : type == ISO_A_GARBAGE_READ    ? render_garbage
                                                       : render_runs;
    iso_findings_add_pending(&ctx->findings, type, fn, st->n_rdf - 1);
}

/* Whether a is its writer's next append to its key after prev, of the
 * same writer (a writer's appends sit in st->ap in program order). */
static int next_append(const la_append *prev, const la_append *a)
{
    if (a <= prev) return 0;
    for (const la_append *x = prev + 1; x < a; x++)
        if (x->key == a->key) return 0;
    return 1;
}

/* incompatible-order within one ok read of key: in a run of one other
 * writer's elements each must be its next append to the key, as in every
 * version. Where the key's reads are all prefixes of its order, the
 * longest stands for them all, once. */
static void run_cases(iso_ctx *ctx, la_state *st, uint32_t t, iso_val mop, uint32_t key, const iso_val *items,
                      size_t n)
{
    la_key *k = &st->k[key];
    if (la_trusted(k) && (k->runs_checked || n < k->len)) return;
    k->runs_checked = la_trusted(k);
    const la_append *prev = NULL;
    for (size_t i = 0; i < n; i++) {
        const la_append *a = la_find(st, key, items[i]);
        if (a && prev && a->txn == prev->txn && a->txn != t && !next_append(prev, a)) {
            add_read_finding(ctx, st, (la_rdf){t, a->txn, i, mop}, ISO_A_INCOMPATIBLE_ORDER);
            return;
        }
        prev = a;
    }
}

/* G1a, G1b, garbage-read for one ok read of key with elements items[0..n). */
static void read_cases(iso_ctx *ctx, la_state *st, uint32_t t, iso_val mop,
                       uint32_t key, const iso_val *items, size_t n, const la_append *last)
{
    const la_key *k = &st->k[key];
    for (size_t i = la_trusted(k) ? (n < k->clean ? n : k->clean) : 0; i < n; i++) {
        const la_append *a = la_find(st, key, items[i]);
        if (a && a->type != ISO_OP_FAIL) continue;
        add_read_finding(ctx, st, (la_rdf){t, a ? a->txn : ISO_NONE, i, mop},
                         a ? ISO_A_G1A : ISO_A_GARBAGE_READ);
    }
    if (last && last->intermediate && last->txn != t)
        add_read_finding(ctx, st, (la_rdf){t, last->txn, n - 1, mop}, ISO_A_G1B);
}

/* iso_render_fn of duplicate-elements finding i. */
static void render_dups(const iso_proof_ctx *pc, size_t i, iso_fb *f)
{
    const la_state *st = pc->wl_state;
    const la_dups *d = &st->dupr[i];
    const iso_store *s = &pc->h->store;
    iso_fb_let(pc, f, &d->reader, 1);
    iso_buf_puts(&f->text, "T1 read ");
    iso_fb_val(pc, f, mop_val(s, d->mop));
    iso_buf_puts(&f->text, ", which lists the same appended element more than once.");
    iso_fb_field_op(pc, f, "op", d->reader);
    iso_fb_field(pc, f, "mop", d->mop);
    iso_fb_key(f, "duplicates");
    iso_buf_puts(&f->json, "{");
    iso_buf tmp = {0};
    for (size_t j = 0; j < d->n; j++) {
        const la_dup *x = &st->dups[d->at + j];
        tmp.n = 0;
        iso_val_json(s, x->v, &tmp);
        if (j) iso_buf_puts(&f->json, ",");
        iso_json_string(&f->json, iso_buf_cstr(&tmp), tmp.n);
        iso_buf_printf(&f->json, ":%zu", x->count);
    }
    iso_buf_free(&tmp);
    iso_buf_puts(&f->json, "}");
    iso_fb_close(f);
}

/* duplicate-elements: a read that lists one element more than once; the
 * repeated elements in order of first appearance, each with its count.
 * Whether there were any. */
static int duplicate_cases(iso_ctx *ctx, la_state *st, uint32_t t, iso_val mop, const iso_val *items, size_t n)
{
    la_dups d = {t, st->n_dups, 0, mop};
    uint32_t *first = iso_xmalloc((n ? n : 1) * sizeof *first);
    uint32_t *count = iso_xcalloc(n ? n : 1, sizeof *count);
    iso_vals_first(&ctx->pc.h->store, items, n, first);
    for (size_t i = 0; i < n; i++) count[first[i]]++;
    for (size_t i = 0; i < n; i++)
        if (first[i] == i && count[i] > 1) ISO_PUSH(st->dups, st->n_dups, st->cap_dups, ((la_dup){items[i], count[i]}));
    iso_free(first);
    iso_free(count);
    d.n = st->n_dups - d.at;
    if (!d.n) return 0;
    ISO_PUSH(st->dupr, st->n_dupr, st->cap_dupr, d);
    iso_findings_add_pending(&ctx->findings, ISO_A_DUPLICATE_ELEMENTS, render_dups, st->n_dupr - 1);
    return 1;
}

void la_read_anomalies(iso_ctx *ctx, la_state *st, uint32_t t, iso_val mop, uint32_t key,
                       const iso_val *items, size_t n, const la_append *last, int ok)
{
    if (ok) read_cases(ctx, st, t, mop, key, items, n, last);
    int dups = !la_trusted(&st->k[key]) && duplicate_cases(ctx, st, t, mop, items, n);
    if (ok && !dups) run_cases(ctx, st, t, mop, key, items, n); /* a repeated element is that alone */
}

/* ---- within one transaction ----------------------------------------------- */

/* A fresh stamp for one pass over a transaction's micro-ops. */
static uint32_t next_epoch(la_state *st)
{
    la_scratch *sc = &st->sc;
    if (++sc->epoch == 0) {
        memset(sc->stamp, 0, (st->keys.n + 1) * sizeof *sc->stamp);
        sc->epoch = 1;
    }
    return sc->epoch;
}

/* What a transaction's own earlier micro-ops on a key say its next read
 * must return: nothing (NONE), or exactly (KNOWN: after a read) or ending
 * in (SUFFIX: appends only) the last read's items, then the values
 * appended since. The read's items stay where the store has them. */
enum { ST_NONE, ST_NIL, ST_KNOWN, ST_SUFFIX };
typedef struct la_kstate {
    int kind;
    const iso_val *base; /* the last read's items (NIL or KNOWN) */
    size_t n_base;
    iso_val *list;       /* values appended since; kept across transactions, reused */
    size_t n, cap;
} kstate;

/* The state of key id `key` in this pass (stamp ep), made on first use. */
static kstate *state_of(la_state *st, size_t *nk, uint32_t key, uint32_t ep)
{
    la_scratch *sc = &st->sc;
    if (sc->stamp[key] == ep) return &st->ks[sc->slot[key]];
    if (*nk == st->ks_cap) {
        size_t old = st->ks_cap;
        ISO_GROW(st->ks, st->ks_cap, *nk + 1);
        memset(st->ks + old, 0, (st->ks_cap - old) * sizeof *st->ks);
    }
    sc->stamp[key] = ep;
    sc->slot[key] = (uint32_t)*nk;
    kstate *k = &st->ks[(*nk)++];
    k->kind = ST_NONE;
    k->n_base = k->n = 0;
    return k;
}

static int read_matches(const iso_store *s, const kstate *k, const iso_val *items, size_t n)
{
    size_t want = k->n_base + k->n;
    if (k->kind == ST_KNOWN ? n != want : n < want) return 0;
    items += n - want;
    return iso_vals_eq(s, items, k->base, k->n_base) && iso_vals_eq(s, items + k->n_base, k->list, k->n);
}

static void internal_case(iso_ctx *ctx, uint32_t t, iso_val mop, const kstate *k)
{
    iso_fb f = {{0}, {0}};
    iso_fb_let(&ctx->pc, &f, &t, 1);
    iso_buf exp = {0}, expj = {0};
    iso_buf_puts(&exp, "[");
    iso_buf_puts(&expj, "[");
    if (k->kind == ST_SUFFIX) { iso_buf_puts(&exp, "..."); iso_buf_puts(&expj, "\"...\""); }
    for (size_t i = 0; i < k->n_base + k->n; i++) {
        iso_val v = i < k->n_base ? k->base[i] : k->list[i - k->n_base];
        if (i || k->kind == ST_SUFFIX) { iso_buf_puts(&exp, " "); iso_buf_puts(&expj, ","); }
        iso_pc_val_text(&ctx->pc, v, &exp);
        iso_pc_val_json(&ctx->pc, v, &expj);
    }
    iso_buf_puts(&exp, "]");
    iso_buf_puts(&expj, "]");
    iso_buf_puts(&f.text, "T1 read ");
    iso_fb_val(&ctx->pc, &f, mop_val(&ctx->pc.h->store, mop));
    iso_buf_puts(&f.text, " from key ");
    iso_fb_val(&ctx->pc, &f, mop_key(&ctx->pc.h->store, mop));
    iso_buf_printf(&f.text, ", but its own earlier reads and appends imply %s.", iso_buf_cstr(&exp));
    iso_fb_field_op(&ctx->pc, &f, "op", t);
    iso_fb_field(&ctx->pc, &f, "mop", mop);
    iso_fb_key(&f, "expected");
    iso_buf_puts(&f.json, iso_buf_cstr(&expj));
    iso_buf_free(&exp);
    iso_buf_free(&expj);
    iso_fb_emit(&ctx->findings, &f, ISO_A_INTERNAL);
}

/* Elle's op-int-case: the first read that disagrees with the transaction's
 * own earlier reads and appends of that key. */
static void internal_txn(iso_ctx *ctx, la_state *st, uint32_t t, const iso_val *m, size_t n)
{
    const iso_store *s = &ctx->pc.h->store;
    const uint32_t *mk = st->sc.mop;
    uint32_t ep = next_epoch(st);
    size_t nk = 0;
    for (size_t j = 0; j < n; j++) {
        kstate *k = state_of(st, &nk, mk[j] >> 1, ep);
        iso_val v = mop_val(s, m[j]);
        if (mk[j] & 1) {
            if (k->kind == ST_NONE) k->kind = ST_SUFFIX;
            if (k->kind == ST_NIL) k->kind = ST_KNOWN;
            ISO_PUSH(k->list, k->n, k->cap, v);
            continue;
        }
        size_t len;
        const iso_val *items = la_read_items(s, v, &len);
        if ((k->kind == ST_KNOWN || k->kind == ST_SUFFIX) && !read_matches(s, k, items, len)) {
            internal_case(ctx, t, m[j], k);
            break;
        }
        k->kind = iso_is_nil(v) ? ST_NIL : ST_KNOWN;
        k->base = items;
        k->n_base = len;
        k->n = 0;
    }
}

static void future_read_case(iso_ctx *ctx, uint32_t t, iso_val read, iso_val append)
{
    const iso_store *s = &ctx->pc.h->store;
    iso_val v = mop_val(s, append);
    iso_fb f = {{0}, {0}};
    iso_fb_let(&ctx->pc, &f, &t, 1);
    iso_buf_puts(&f.text, "T1 read ");
    iso_fb_val(&ctx->pc, &f, mop_val(s, read));
    iso_buf_puts(&f.text, " from key ");
    iso_fb_val(&ctx->pc, &f, mop_key(s, append));
    iso_buf_puts(&f.text, ", which includes ");
    iso_fb_val(&ctx->pc, &f, v);
    iso_buf_puts(&f.text, ", an element T1 itself appends only later.");
    iso_fb_field_op(&ctx->pc, &f, "op", t);
    iso_fb_field(&ctx->pc, &f, "mop", read);
    iso_fb_field(&ctx->pc, &f, "element", v);
    iso_fb_emit(&ctx->findings, &f, ISO_A_FUTURE_READ);
}

/* Elle's op-future-read-case: the txn's first append of an element that an
 * earlier read of that key returned, shown with the first such read. Its
 * appends are st->ap[end - c_total .. end) in the order of its micro-ops
 * (end found once, from its last append); walking back from the end, c
 * appends follow micro-op j, and a key stamped ep is appended after j. An
 * element of a read at j that this txn appends at st->ap[end - c] or later
 * is a future read; the least such append wins, and of its reads the
 * earliest. */
static void future_read_txn(iso_ctx *ctx, la_state *st, uint32_t t, const iso_val *m, size_t n)
{
    const iso_store *s = &ctx->pc.h->store;
    const la_scratch *sc = &st->sc;
    uint32_t ep = next_epoch(st);
    size_t end = 0, c = 0, best = SIZE_MAX, read = 0;
    for (size_t j = n; j-- > 0;) {
        uint32_t key = sc->mop[j] >> 1;
        if (sc->mop[j] & 1) {
            if (!c++) end = (size_t)(la_find(st, key, mop_val(s, m[j])) - st->ap) + 1;
            sc->stamp[key] = ep;
            continue;
        }
        if (sc->stamp[key] != ep) continue;
        size_t len;
        const iso_val *items = la_read_items(s, mop_val(s, m[j]), &len);
        for (size_t i = 0; i < len; i++) {
            const la_append *a = la_find(st, key, items[i]);
            size_t at = a ? (size_t)(a - st->ap) : 0;
            if (a && a->txn == t && at >= end - c && at <= best) { best = at; read = j; }
        }
    }
    for (size_t j = 0, at = end - c; best != SIZE_MAX && j < n; j++) /* the micro-op of append `best` */
        if ((sc->mop[j] & 1) && at++ == best) future_read_case(ctx, t, m[read], m[j]);
}

/* Key ids of t's micro-ops into st->sc.mop; whether one repeats. */
static int repeats_key(la_state *st, const iso_val *m, size_t n)
{
    const iso_store *s = st->keys.store;
    la_scratch *sc = &st->sc;
    if (!sc->stamp) {
        sc->stamp = iso_xcalloc(st->keys.n + 1, sizeof *sc->stamp);
        sc->slot = iso_xmalloc((st->keys.n + 1) * sizeof *sc->slot);
    }
    ISO_GROW(sc->mop, sc->cap_mop, n);
    uint32_t ep = next_epoch(st);
    int rep = 0;
    for (size_t j = 0; j < n; j++) {
        uint32_t key = iso_keys_find(&st->keys, mop_key(s, m[j]));
        sc->mop[j] = key << 1 | (la_mop_kind(st, m[j]) == LA_APPEND);
        rep |= sc->stamp[key] == ep;
        sc->stamp[key] = ep;
    }
    return rep;
}

/* Elle's lost-update-cases: per ok txn, the first (external) read of each
 * key, grouped with the txn's first write of that key after it (slot: the
 * read's micro-op, ISO_NONE once written). */
static void collect_lost_updates(la_state *st, uint32_t t, const iso_val *m, size_t n)
{
    const iso_store *s = st->keys.store;
    la_scratch *sc = &st->sc;
    uint32_t ep = next_epoch(st);
    for (size_t j = 0; j < n; j++) {
        uint32_t key = sc->mop[j] >> 1;
        if (!(sc->mop[j] & 1)) {
            if (sc->stamp[key] != ep) { sc->stamp[key] = ep; sc->slot[key] = (uint32_t)j; }
            continue;
        }
        if (sc->stamp[key] != ep || sc->slot[key] == ISO_NONE) continue;
        iso_val v = mop_val(s, m[sc->slot[key]]);
        ISO_PUSH(st->lu, st->n_lu, st->cap_lu, ((la_lu){key, t, v, iso_val_hash(s, v)}));
        sc->slot[key] = ISO_NONE; /* Elle marks k written: later writes do not count */
    }
}

void la_txn_anomalies(iso_ctx *ctx, la_state *st, uint32_t t, const iso_val *m, size_t n)
{
    if (n < 2 || !repeats_key(st, m, n)) return;
    internal_txn(ctx, st, t, m, n);
    future_read_txn(ctx, st, t, m, n);
    collect_lost_updates(st, t, m, n);
}

void la_anomalies_free(la_state *st)
{
    for (size_t i = 0; i < st->ks_cap; i++) iso_free(st->ks[i].list);
    iso_free(st->ks);
    iso_free(st->sc.mop);
    iso_free(st->sc.stamp);
    iso_free(st->sc.slot);
    iso_free(st->lu);
    iso_free(st->rdf);
    iso_free(st->lost);
    iso_free(st->pend_txns);
    iso_free(st->dupr);
    iso_free(st->dups);
    iso_free(st->dirty);
    iso_free(st->du_vals);
}

/* ---- per key ---------------------------------------------------------------- */

/* iso_render_fn of dirty-update finding i. */
static void render_dirty(const iso_proof_ctx *pc, size_t i, iso_fb *f)
{
    const la_state *st = pc->wl_state;
    const la_dirty *d = &st->dirty[i];
    const iso_val *vs = st->du_vals + d->at;
    uint32_t tx[2] = {d->t1, d->t2};
    iso_fb_let(pc, f, tx, 2);
    iso_buf_puts(&f->text, "T1 failed, yet its append to key ");
    iso_fb_val(pc, f, st->keys.vals[d->key]);
    iso_buf_puts(&f->text, " stands in the version order before T2's committed append: versions ");
    iso_fb_field(pc, f, "key", st->keys.vals[d->key]);
    iso_fb_key(f, "values");
    iso_buf_puts(&f->json, "[");
    iso_buf_puts(&f->text, "[");
    for (size_t j = 0; j < d->n; j++) {
        if (j) { iso_buf_puts(&f->json, ","); iso_buf_puts(&f->text, " "); }
        iso_pc_val_json(pc, vs[j], &f->json);
        iso_fb_val(pc, f, vs[j]);
    }
    iso_buf_puts(&f->text, "] promote aborted state to committed state.");
    iso_buf_puts(&f->json, "]");
    iso_fb_key(f, "txns");
    iso_buf_puts(&f->json, "[");
    iso_pc_op_json(pc, d->t1, &f->json);
    iso_buf_puts(&f->json, ",\"...\",");
    iso_pc_op_json(pc, d->t2, &f->json);
    iso_buf_puts(&f->json, "]");
    iso_fb_close(f);
}

static void dirty_update_case(iso_ctx *ctx, la_state *st, uint32_t key, const iso_val *vs,
                              size_t n, uint32_t t1, uint32_t t2)
{
    la_dirty d = {key, t1, t2, st->n_du_vals, n};
    ISO_GROW(st->du_vals, st->cap_du_vals, st->n_du_vals + n);
    memcpy(st->du_vals + st->n_du_vals, vs, n * sizeof *vs);
    st->n_du_vals += n;
    ISO_PUSH(st->dirty, st->n_dirty, st->cap_dirty, d);
    iso_findings_add_pending(&ctx->findings, ISO_A_DIRTY_UPDATE, render_dirty, st->n_dirty - 1);
}

/* Elle's dirty-update-cases: walk the key's version order as Elle infers
 * it over every client op, failed ones too (so a lone append counts only
 * when no invocation repeats it); a failed writer followed (through info
 * writers) by an ok one promotes aborted state. */
static void dirty_updates(iso_ctx *ctx, la_state *st)
{
    const iso_store *s = &ctx->pc.h->store;
    for (uint32_t key = 0; key < st->keys.n; key++) {
        const la_key *k = &st->k[key];
        if (!k->has_fail) continue;
        /* a lone append, wherever it was, needs no read */
        iso_val lone = k->appends_ops == 1 ? la_value(st, &st->ap[k->last_ap]) : ISO_NIL;
        const iso_val *order = k->appends_ops == 1 ? &lone
                             : k->full_len ? iso_seq_words(s, k->full_v) : NULL;
        size_t len = k->appends_ops == 1 ? 1 : k->full_len;
        int t1type = ISO_OP_OK;
        uint32_t t1 = ISO_NONE;
        size_t from = 0;
        iso_val *vs = iso_xmalloc((len ? len : 1) * sizeof *vs);
        uint32_t *first = iso_xmalloc((len ? len : 1) * sizeof *first);
        size_t nv = 0;
        iso_vals_first(s, order, len, first);
        for (size_t i = 0; i < len; i++) {
            if (first[i] != i) continue;
            vs[nv++] = order[i];
            const la_append *a = la_find(st, key, order[i]);
            int t2type = a && a->type != ISO_OP_INVOKE ? a->type : ISO_OP_INFO;
            if (t2type == ISO_OP_INFO) continue; /* we can't say; keep the range */
            if (t2type == ISO_OP_OK && t1type == ISO_OP_FAIL)
                dirty_update_case(ctx, st, key, vs + from, nv - from, t1, a->txn);
            if (t2type == ISO_OP_FAIL && t1type == ISO_OP_FAIL) continue; /* cover the range */
            t1 = a->txn;
            t1type = t2type;
            from = nv - 1;
        }
        iso_free(vs);
        iso_free(first);
    }
}

/* ---- lost update ---------------------------------------------------------- */

typedef la_lu lu_entry;

static int lu_cmp(const void *a, const void *b)
{
    const lu_entry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return x->txn < y->txn ? -1 : x->txn > y->txn;
}

/* Sort the candidates by (key, hash, txn): a counting sort by key, then
 * each key's few candidates by qsort. */
static void sort_candidates(la_state *st)
{
    size_t nk = st->keys.n;
    uint32_t *off = iso_xcalloc(nk + 2, sizeof *off);
    lu_entry *e = iso_xmalloc((st->n_lu + 1) * sizeof *e);
    for (size_t i = 0; i < st->n_lu; i++) off[st->lu[i].key + 2]++;
    for (size_t k = 2; k < nk + 2; k++) off[k] += off[k - 1];
    for (size_t i = 0; i < st->n_lu; i++) e[off[st->lu[i].key + 1]++] = st->lu[i];
    for (size_t k = 0; k < nk; k++)
        if (off[k + 1] - off[k] > 1) qsort(e + off[k], off[k + 1] - off[k], sizeof *e, lu_cmp);
    iso_free(off);
    iso_free(st->lu);
    st->lu = e;
}

/* iso_render_fn of lost-update finding i. */
static void render_lost(const iso_proof_ctx *pc, size_t i, iso_fb *f)
{
    const la_state *st = pc->wl_state;
    const la_lost *l = &st->lost[i];
    const uint32_t *tx = st->pend_txns + l->txns;
    iso_fb_let(pc, f, tx, l->n);
    iso_buf_printf(&f->text, "T1..T%u all read key ", l->n);
    iso_fb_val(pc, f, st->keys.vals[l->key]);
    iso_buf_puts(&f->text, " = ");
    iso_fb_val(pc, f, l->value);
    iso_buf_puts(&f->text, " and then appended to it, and all committed: all but one update was lost.");
    iso_fb_field(pc, f, "key", st->keys.vals[l->key]);
    iso_fb_field(pc, f, "value", l->value);
    iso_fb_field_ops(pc, f, "txns", tx, l->n);
    iso_fb_close(f);
}

static void lost_update_case(iso_ctx *ctx, la_state *st, const lu_entry *e, size_t n)
{
    la_lost l = {e->key, (uint32_t)st->n_pend_txns, (uint32_t)n, e->value};
    ISO_GROW(st->pend_txns, st->cap_pend_txns, st->n_pend_txns + n);
    for (size_t i = 0; i < n; i++) st->pend_txns[st->n_pend_txns++] = e[i].txn;
    ISO_PUSH(st->lost, st->n_lost, st->cap_lost, l);
    iso_findings_add_pending(&ctx->findings, ISO_A_LOST_UPDATE, render_lost, st->n_lost - 1);
}

static void lost_updates(iso_ctx *ctx, la_state *st)
{
    const iso_store *s = &ctx->pc.h->store;
    sort_candidates(st);
    lu_entry *e = st->lu;
    size_t n = st->n_lu;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && e[j].key == e[i].key && e[j].hash == e[i].hash) j++;
        /* within one hash run, group by equal values */
        for (size_t a = i; a < j; a++) {
            if (e[a].txn == ISO_NONE) continue;
            lu_entry *grp = iso_xmalloc((j - a) * sizeof *grp);
            size_t g = 0;
            for (size_t b = a; b < j; b++)
                if (e[b].txn != ISO_NONE && iso_val_eq(s, e[a].value, e[b].value)) {
                    grp[g++] = e[b];
                    if (b != a) e[b].txn = ISO_NONE;
                }
            if (g >= 2) lost_update_case(ctx, st, grp, g);
            iso_free(grp);
        }
        i = j;
    }
}

/* ---- incompatible orders ---------------------------------------------------- */

static int is_prefix(const iso_store *s, iso_val a, iso_val b)
{
    size_t na, nb;
    const iso_val *x = la_read_items(s, a, &na), *y = la_read_items(s, b, &nb);
    if (na > nb) return 0;
    for (size_t i = 0; i < na; i++)
        if (!iso_val_eq(s, x[i], y[i])) return 0;
    return 1;
}

typedef struct keyed_read {
    uint32_t key;
    size_t len, seen; /* length, and order of appearance */
    iso_val v;
} keyed_read;

static int by_key_len(const void *a, const void *b)
{
    const keyed_read *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->seen < y->seen ? -1 : x->seen > y->seen;
}

static void incompatible_case(iso_ctx *ctx, const la_state *st, uint32_t key, iso_val a, iso_val b)
{
    iso_fb f = {{0}, {0}};
    iso_buf_puts(&f.text, "Reads of key ");
    iso_fb_val(&ctx->pc, &f, st->keys.vals[key]);
    iso_buf_puts(&f.text, " disagree on the order of appends: ");
    iso_fb_val(&ctx->pc, &f, a);
    iso_buf_puts(&f.text, " is not a prefix of ");
    iso_fb_val(&ctx->pc, &f, b);
    iso_buf_puts(&f.text, ", so no single version order explains both.");
    iso_fb_field(&ctx->pc, &f, "key", st->keys.vals[key]);
    iso_fb_key(&f, "values");
    iso_buf_puts(&f.json, "[");
    iso_pc_val_json(&ctx->pc, a, &f.json);
    iso_buf_puts(&f.json, ",");
    iso_pc_val_json(&ctx->pc, b, &f.json);
    iso_buf_puts(&f.json, "]");
    iso_fb_emit(&ctx->findings, &f, ISO_A_INCOMPATIBLE_ORDER);
}

/* Elle's incompatible-orders, for every key whose reads disagree, in one
 * pass over the transactions: per key, the distinct non-empty reads sorted
 * by length; the first adjacent pair where the shorter is not a prefix of
 * the longer. */
static void incompatible_orders(iso_ctx *ctx, const la_state *st)
{
    const iso_store *s = &ctx->pc.h->store;
    keyed_read *r = NULL;
    size_t n = 0, cap = 0, any = 0;
    for (uint32_t key = 0; key < st->keys.n && !any; key++) any = st->k[key].incompatible;
    for (uint32_t t = 0; any && t < ctx->pc.txns.n; t++) {
        const iso_txn *tx = &ctx->pc.txns.t[t];
        if (tx->cmp == ISO_NONE || (tx->type != ISO_OP_OK && tx->type != ISO_OP_INFO)) continue;
        size_t nm;
        const iso_val *m = la_txn_mops(&ctx->pc, t, &nm);
        for (size_t j = 0; j < nm; j++) {
            if (la_mop_kind(st, m[j]) != LA_READ) continue;
            uint32_t key = iso_keys_find(&st->keys, mop_key(s, m[j]));
            iso_val v = mop_val(s, m[j]);
            if (!st->k[key].incompatible || !iso_is_seq(v) || !iso_seq_len(s, v)) continue;
            size_t at = n;
            ISO_PUSH(r, n, cap, ((keyed_read){key, iso_seq_len(s, v), at, v}));
        }
    }
    if (n) qsort(r, n, sizeof *r, by_key_len);
    for (size_t i = 0; i < n;) {
        size_t end = i, prev = i;
        while (end < n && r[end].key == r[i].key) end++;
        for (size_t j = i + 1; j < end; j++) {
            if (iso_val_eq(s, r[j].v, r[prev].v)) continue; /* the same read again */
            if (!is_prefix(s, r[prev].v, r[j].v)) {
                incompatible_case(ctx, st, r[i].key, r[prev].v, r[j].v);
                break;
            }
            prev = j;
        }
        i = end;
    }
    iso_free(r);
}

void la_key_anomalies(iso_ctx *ctx, la_state *st)
{
    incompatible_orders(ctx, st);
    dirty_updates(ctx, st);
    lost_updates(ctx, st);
}
