/*
 * elle/list_append/fractured.c -- fractured reads (read atomic's violation,
 * Cerone et al. CONCUR 2015; issue 25): an ok transaction T3 observed an
 * append of T1 (its element is in one of T3's external reads), yet an
 * external read of T3 of a key T1 appended to holds none of T1's appends
 * to that key. Under read atomic every transaction T3 observes is visible
 * to it as a whole, and a read of a key shows every visible append to it,
 * so no execution explains the two reads together.
 *
 * When the read that misses T1 comes after the one that observed it, the
 * fractured read is a non-monotonic read, monotonic atomic view's
 * violation (Bailis et al., VLDB 2014: once T3 observed T1, its later
 * reads show T1's writes or later ones; Biswas and Enea's read committed
 * axiom over a commit order without session order, lifted to lists: a
 * read of x shows exactly the appenders of x before its last one, so T1,
 * read before, must be among them). It is reported as that, and the
 * reader's fractured read in the other order only when it has no such.
 *
 * One finding per reader (the first T1 and key in micro-op order), so the
 * findings stay linear in the history. Where a key's reads are prefixes of
 * its version order, an element is in a read when its position is below
 * the read's length; elsewhere the read is searched for it. Each finding
 * keeps its picture (elle/picture.h): T2 -wr-> T1, the append observed,
 * and T1 -misses-> T2, the read without T2's append, in the proof's words.
 */
#include "elle/list_append/list_append_int.h"
#include "elle/picture.h"

#include <string.h>


/* The found violation: reader t, writer w, the read that observed w (mop
 * j_obs, element at), and the read of the missed key (mop j_miss) with w's
 * first append to it (ap index). */
typedef struct fr_case {
    uint32_t t, w;
    size_t j_obs, at, j_miss, ap;
} fr_case;

/* Per key, the read a check compares with: stamped ep, its micro-op and
 * the length of its state (before the reader's own appends). */
typedef struct fr_reads {
    uint32_t ep;
    const uint32_t *rd_ep, *rd_j, *rd_len;
} fr_reads;

/* Monotonic atomic view's scan of one reader: per writer its first
 * observation (micro-op, element); per key the shortest state read after
 * the point a backward walk has reached; per micro-op its read's state
 * length (-1: none). */
typedef struct mav_scan {
    uint32_t ep;
    uint32_t *obs_ep, *obs_j, *obs_at;
    uint32_t *later_ep, *later_j, *later_len;
    long *len;
    size_t cap;
} mav_scan;

/* The first append (index into st->ap) of transaction w, or n_ap. */
size_t la_first_append(const la_state *st, uint32_t w)
{
    size_t lo = 0, hi = st->n_ap;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->ap[mid].txn < w) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Whether st->ap[i] is its writer's first append to its key (the
 * writer's appends start at lo). */
int la_first_to_key(const la_state *st, size_t lo, size_t i)
{
    for (size_t p = lo; p < i; p++)
        if (st->ap[p].key == st->ap[i].key) return 0;
    return 1;
}

/* Whether T3's read (items[0..n)) of a's key holds a's element: by
 * position where the key's reads are prefixes of its order and the append
 * has one, else by looking (an append of a transaction that never
 * completed has no position, yet a read may show it). */
int la_read_holds(const la_state *st, const la_append *a, const iso_val *items, size_t n)
{
    if (la_positional(&st->k[a->key]) && a->pos != ISO_NONE) return a->pos < n;
    for (size_t i = 0; i < n; i++)
        if (la_find(st, a->key, items[i]) == a) return 1;
    return 0;
}

void la_scan_init(la_scan *sc, const la_state *st, size_t n_txns)
{
    size_t nk = st->keys.n + 1;
    *sc = (la_scan){0, iso_xcalloc(nk, sizeof(uint32_t)), iso_xcalloc(nk, sizeof(uint32_t)),
                    iso_xcalloc(nk, sizeof(uint32_t)), iso_xcalloc(nk, sizeof(uint32_t)),
                    iso_xcalloc(nk, sizeof(uint32_t)), iso_xcalloc(n_txns ? n_txns : 1, sizeof(uint32_t))};
}

void la_scan_free(la_scan *sc)
{
    iso_free(sc->read_ep);
    iso_free(sc->read_j);
    iso_free(sc->read_len);
    iso_free(sc->own_ep);
    iso_free(sc->own_n);
    iso_free(sc->seen_ep);
}

/* The length of the state read j shows before t's own appends to key
 * (own of them so far), or -1 when it does not end in them. */
static long state_len(const la_state *st, const iso_store *s, uint32_t t, iso_val mop, uint32_t key, size_t own)
{
    size_t len;
    const iso_val *items = la_read_items(s, mop_val(s, mop), &len);
    if (own > len) return -1;
    for (size_t i = len - own; i < len; i++) {
        const la_append *a = la_find(st, key, items[i]);
        if (!a || a->txn != t) return -1;
    }
    return (long)(len - own);
}

void la_scan_lens(const la_state *st, const iso_store *s, la_scan *sc, uint32_t t, const iso_val *m, size_t n,
                     long *lens)
{
    sc->ep++;
    for (size_t j = 0; j < n; j++) {
        uint32_t key = iso_keys_find(&st->keys, mop_key(s, m[j]));
        if (lens) lens[j] = -1;
        if (key == ISO_NONE) continue;
        if (sc->own_ep[key] != sc->ep) sc->own_ep[key] = sc->ep, sc->own_n[key] = 0;
        if (la_mop_kind(st, m[j]) == LA_APPEND) {
            sc->own_n[key]++;
            continue;
        }
        long len = state_len(st, s, t, m[j], key, sc->own_n[key]);
        if (lens) lens[j] = len;
        if (len < 0 || (sc->read_ep[key] == sc->ep && (uint32_t)len >= sc->read_len[key])) continue;
        sc->read_ep[key] = sc->ep, sc->read_j[key] = (uint32_t)j, sc->read_len[key] = (uint32_t)len;
    }
}

void la_scan_txn(const la_state *st, const iso_store *s, la_scan *sc, uint32_t t, const iso_val *m, size_t n)
{
    la_scan_lens(st, s, sc, t, m, n, NULL);
}

/* Whether writer w, observed by c->t, appended to a key whose read r holds
 * none of w's appends to it (c filled). */
static int misses(const la_state *st, const iso_store *s, const fr_reads *r, const iso_val *m, fr_case *c)
{
    size_t lo = la_first_append(st, c->w);
    for (size_t i = lo; i < st->n_ap && st->ap[i].txn == c->w; i++) {
        const la_append *a = &st->ap[i];
        if (r->rd_ep[a->key] != r->ep || !la_first_to_key(st, lo, i)) continue;
        size_t len;
        const iso_val *items = la_read_items(s, mop_val(s, m[r->rd_j[a->key]]), &len);
        if (!la_read_holds(st, a, items, r->rd_len[a->key])) {
            c->j_miss = r->rd_j[a->key];
            c->ap = i;
            return 1;
        }
    }
    return 0;
}

/* The writer of read j's element i that t observed through it, or NULL. */
static const la_append *observed(const la_state *st, uint32_t t, uint32_t key, const iso_val *items, size_t i)
{
    const la_append *a = la_find(st, key, items[i]);
    return a && a->txn != t && a->type != ISO_OP_FAIL ? a : NULL;
}

/* The first fractured read of transaction c->t, if any (c filled). */
static int find_case(const la_state *st, const iso_proof_ctx *pc, la_scan *sc, const iso_val *m, size_t n,
                     fr_case *c)
{
    const iso_store *s = &pc->h->store;
    for (size_t j = 0; j < n; j++) {
        uint32_t key = iso_keys_find(&st->keys, mop_key(s, m[j]));
        if (key == ISO_NONE || la_mop_kind(st, m[j]) != LA_READ) continue; /* internal ones observe too */
        size_t len;
        const iso_val *items = la_read_items(s, mop_val(s, m[j]), &len);
        fr_reads r = {sc->ep, sc->read_ep, sc->read_j, sc->read_len};
        for (size_t i = 0; i < len; i++) {
            const la_append *a = observed(st, c->t, key, items, i);
            if (!a || sc->seen_ep[a->txn] == sc->ep) continue;
            sc->seen_ep[a->txn] = sc->ep;
            c->w = a->txn, c->j_obs = j, c->at = i;
            if (misses(st, s, &r, m, c)) return 1;
        }
    }
    return 0;
}

/* Case c's picture into pic: its words are text's bytes [obs, yet) (T1
 * observed ...) and [miss, end) (read key ...). */
static void draw_case(const fr_case *c, const iso_buf *text, size_t obs, size_t yet, size_t miss, size_t end,
                      iso_picture *pic)
{
    iso_buf w = {0};
    iso_picture_txn(pic, c->t);
    iso_buf_put(&w, text->p + obs, yet - obs);
    iso_picture_edge(pic, c->w, c->t, "wr", iso_buf_cstr(&w));
    w.n = 0;
    iso_buf_puts(&w, "T1 ");
    iso_buf_put(&w, text->p + miss, end - miss);
    iso_picture_edge(pic, c->t, c->w, "misses", iso_buf_cstr(&w));
    iso_buf_free(&w);
}


/* ---- monotonic atomic view ------------------------------------------------------ */

static void mav_init(mav_scan *v, const la_state *st, size_t n_txns)
{
    size_t nk = st->keys.n + 1, nt = n_txns ? n_txns : 1;
    *v = (mav_scan){0, iso_xcalloc(nt, sizeof(uint32_t)), iso_xcalloc(nt, sizeof(uint32_t)),
                    iso_xcalloc(nt, sizeof(uint32_t)), iso_xcalloc(nk, sizeof(uint32_t)),
                    iso_xcalloc(nk, sizeof(uint32_t)), iso_xcalloc(nk, sizeof(uint32_t)), NULL, 0};
}

static void mav_free(mav_scan *v)
{
    iso_free(v->obs_ep);
    iso_free(v->obs_j);
    iso_free(v->obs_at);
    iso_free(v->later_ep);
    iso_free(v->later_j);
    iso_free(v->later_len);
    iso_free(v->len);
}

/* The key and items of micro-op j when it is a read, else ISO_NONE. */
static uint32_t read_of(const la_state *st, const iso_store *s, iso_val mop, const iso_val **items, size_t *n)
{
    uint32_t key = iso_keys_find(&st->keys, mop_key(s, mop));
    if (key == ISO_NONE || la_mop_kind(st, mop) != LA_READ) return ISO_NONE;
    *items = la_read_items(s, mop_val(s, mop), n);
    return key;
}

/* Each writer's first observation by c->t. */
static void first_observations(const la_state *st, const iso_store *s, mav_scan *v, const iso_val *m, size_t n,
                               uint32_t t)
{
    for (size_t j = 0; j < n; j++) {
        const iso_val *items;
        size_t len;
        uint32_t key = read_of(st, s, m[j], &items, &len);
        for (size_t i = 0; key != ISO_NONE && i < len; i++) {
            const la_append *a = observed(st, t, key, items, i);
            if (!a || v->obs_ep[a->txn] == v->ep) continue;
            v->obs_ep[a->txn] = v->ep, v->obs_j[a->txn] = (uint32_t)j, v->obs_at[a->txn] = (uint32_t)i;
        }
    }
}

/* Whether read j observes a writer first that it or a later read misses
 * (c filled). */
static int misses_later(const la_state *st, const iso_store *s, const mav_scan *v, const iso_val *m, size_t j,
                        fr_case *c)
{
    const iso_val *items;
    size_t len;
    uint32_t key = read_of(st, s, m[j], &items, &len);
    fr_reads r = {v->ep, v->later_ep, v->later_j, v->later_len};
    for (size_t i = 0; key != ISO_NONE && i < len; i++) {
        const la_append *a = observed(st, c->t, key, items, i);
        if (!a || v->obs_j[a->txn] != j || v->obs_at[a->txn] != i) continue;
        c->w = a->txn, c->j_obs = j, c->at = i;
        if (misses(st, s, &r, m, c)) return 1;
    }
    return 0;
}

/* The first non-monotonic read of transaction c->t (by its observing
 * read), if any (c filled): backwards over its micro-ops, each writer's
 * first observation against the shortest state of each key read after
 * it, or by it (a read showing a writer's append but not its first one to
 * the key: no execution shows that list). */
static int find_mav(const la_state *st, const iso_proof_ctx *pc, la_scan *sc, mav_scan *v, const iso_val *m,
                    size_t n, fr_case *c)
{
    const iso_store *s = &pc->h->store;
    ISO_GROW(v->len, v->cap, n + 1);
    la_scan_lens(st, s, sc, c->t, m, n, v->len);
    v->ep++;
    first_observations(st, s, v, m, n, c->t);
    int found = 0;
    for (size_t j = n; j-- > 0;) {
        uint32_t key = iso_keys_find(&st->keys, mop_key(s, m[j]));
        if (v->len[j] >= 0 && (v->later_ep[key] != v->ep || (uint32_t)v->len[j] < v->later_len[key]))
            v->later_ep[key] = v->ep, v->later_j[key] = (uint32_t)j, v->later_len[key] = (uint32_t)v->len[j];
        fr_case x = {.t = c->t};
        if (misses_later(st, s, v, m, j, &x)) *c = x, found = 1;
    }
    return found;
}

static void render_case(iso_ctx *ctx, const la_state *st, const iso_val *m, const fr_case *c, int type)
{
    const iso_proof_ctx *pc = &ctx->pc;
    const iso_store *s = &pc->h->store;
    size_t n;
    const iso_val *items = la_read_items(s, mop_val(s, m[c->j_obs]), &n);
    iso_val missed = la_value(st, &st->ap[c->ap]);
    uint32_t tx[2] = {c->t, c->w};
    iso_fb f = {{0}, {0}};
    iso_fb_let(pc, &f, tx, 2);
    size_t obs = f.text.n;
    iso_buf_puts(&f.text, "T1 observed T2's append of ");
    iso_fb_val(pc, &f, items[c->at]);
    iso_buf_puts(&f.text, " to key ");
    iso_fb_val(pc, &f, mop_key(s, m[c->j_obs]));
    size_t yet = f.text.n;
    iso_buf_puts(&f.text, c->j_miss > c->j_obs ? ", yet later read key " : ", yet read key ");
    size_t miss = yet + strlen(", yet ");
    iso_fb_val(pc, &f, mop_key(s, m[c->j_miss]));
    iso_buf_puts(&f.text, " as ");
    iso_fb_val(pc, &f, mop_val(s, m[c->j_miss]));
    iso_buf_puts(&f.text, ", which does not contain T2's append of ");
    iso_fb_val(pc, &f, missed);
    iso_picture pic = {0};
    draw_case(c, &f.text, obs, yet, miss, f.text.n, &pic);
    iso_buf_puts(&f.text, type == ISO_A_NON_MONOTONIC_READ
                              ? ": a non-monotonic read (once T1 observed T2, monotonic atomic view makes all of "
                                "T2's appends visible to T1's later reads)."
                              : ": a fractured read (read atomic makes all of T2's appends visible to T1, or none).");
    iso_fb_field_op(pc, &f, "op", c->t);
    iso_fb_field_op(pc, &f, "writer", c->w);
    iso_fb_field(pc, &f, "observed-mop", m[c->j_obs]);
    iso_fb_field(pc, &f, "mop", m[c->j_miss]);
    iso_fb_field(pc, &f, "element", missed);
    iso_fb_emit_picture(&ctx->findings, &f, type, &pic);
}

/* Reader t's non-monotonic read, else its fractured read, as the
 * request reports them; whether one was found. */
static int check_reader(iso_ctx *ctx, const la_state *st, la_scan *sc, mav_scan *v, uint32_t t)
{
    const uint8_t *rep = ctx->req->reportable;
    size_t n;
    const iso_val *m = la_txn_mops(&ctx->pc, t, &n);
    fr_case c = {.t = t};
    if (rep[ISO_A_NON_MONOTONIC_READ] && find_mav(st, &ctx->pc, sc, v, m, n, &c)) {
        render_case(ctx, st, m, &c, ISO_A_NON_MONOTONIC_READ);
        return 1;
    }
    if (!rep[ISO_A_FRACTURED_READ]) return 0;
    if (!rep[ISO_A_NON_MONOTONIC_READ]) la_scan_txn(st, &ctx->pc.h->store, sc, t, m, n);
    if (!find_case(st, &ctx->pc, sc, m, n, &c)) return 0;
    render_case(ctx, st, m, &c, ISO_A_FRACTURED_READ);
    return 1;
}

void la_fractured_reads(iso_ctx *ctx, const la_state *st, uint8_t *fractured)
{
    if (!ctx->req->reportable[ISO_A_FRACTURED_READ] && !ctx->req->reportable[ISO_A_NON_MONOTONIC_READ]) return;
    la_scan sc;
    mav_scan v;
    la_scan_init(&sc, st, ctx->pc.txns.n);
    mav_init(&v, st, ctx->pc.txns.n);
    for (uint32_t t = 0; t < ctx->pc.txns.n; t++) {
        const iso_txn *tx = &ctx->pc.txns.t[t];
        if (tx->type != ISO_OP_OK || tx->cmp == ISO_NONE) continue;
        if (check_reader(ctx, st, &sc, &v, t) && fractured) fractured[t] = 1;
    }
    mav_free(&v);
    la_scan_free(&sc);
}
