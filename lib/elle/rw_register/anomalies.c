/*
 * elle/rw_register/anomalies.c -- rw-register anomalies found without
 * cycles, as Elle's rw-register finds them: internal, G1a, G1b, lost-update
 * (ok transactions only; cyclic-versions are versions.c's); plus isolde's
 * garbage-read, an ok read of a value no transaction wrote to that key,
 * and the reads reads.c classes as future-read, not-my-own-write and
 * not-my-last-write (Elle's rw-register has no future-read, and calls the
 * other two internal, which it finds too), the first of each type in a
 * transaction; these two are drawn (elle/picture.h): the read that misses
 * the transaction's own write as an edge to itself, and the write it read
 * instead, when another's, as a wr edge.
 * All but internal (one per transaction) are kept as small records in
 * rw_state and rendered only when a report shows them: a transaction of n
 * such reads is n findings, each showing the whole transaction.
 */
#include "elle/rw_register/rw_register_int.h"
#include "elle/picture.h"

#include <stdlib.h>
#include <string.h>

/* "T1 read key :x = 1" */
static void read_text(const iso_proof_ctx *pc, iso_fb *o, iso_val k, iso_val v)
{
    iso_buf_puts(&o->text, "T1 read key ");
    iso_fb_val(pc, o, k);
    iso_buf_puts(&o->text, " = ");
    iso_fb_val(pc, o, v);
}

/* ---- per-read anomalies: G1a, G1b, garbage-read --------------------------- */

/* The version txn last wrote to key before its micro-op j (one exists). */
static uint32_t own_before(const rw_state *st, uint32_t txn, uint32_t key, uint32_t j)
{
    uint32_t own = ISO_NONE;
    for (uint32_t m = st->mop_off[txn]; m < st->mop_off[txn] + j; m++)
        if ((st->mop[m] & RW_MOP_W) && st->ver[st->mop[m] & ~RW_MOP_W].key == key) own = st->mop[m] & ~RW_MOP_W;
    return own;
}

/* The words of a read after the reader's own write of the key (own) that
 * shows something else, and the JSON's "expected". */
static void after_own_text(const iso_proof_ctx *pc, iso_fb *o, int type, iso_val k, iso_val own)
{
    iso_buf_puts(&o->text, type == ISO_A_NOT_MY_LAST_WRITE ? ", an earlier write of its own, though T1 had since "
                                                              "written key " : ", though T1 had written key ");
    iso_fb_val(pc, o, k);
    iso_buf_puts(&o->text, " = ");
    iso_fb_val(pc, o, own);
    iso_buf_puts(&o->text, type == ISO_A_NOT_MY_LAST_WRITE ? " last: a read after a transaction's writes returns "
                                                              "the last of them."
                                                            : " itself: a read after a transaction's own write "
                                                              "returns that write.");
}

/* The writer a read finding names as T2: G1a's and G1b's, and
 * not-my-own-write's when another transaction wrote the value. */
static uint32_t named_writer(const rw_ver *x, int type, uint32_t reader)
{
    if (type == ISO_A_GARBAGE_READ || type == ISO_A_FUTURE_READ || type == ISO_A_NOT_MY_LAST_WRITE) return ISO_NONE;
    return x->writer == reader ? ISO_NONE : x->writer;
}

/* What a read finding's proof names: the read (its transaction, micro-op
 * mop, key k, version x) and the writer it names (ISO_NONE: none). */
typedef struct read_finding {
    const rw_rdf *r;
    const rw_ver *x;
    iso_val mop, k;
    uint32_t writer;
} read_finding;

/* Read finding i of type into f, its Let: and "T1 read key k = v" into
 * o; returns where those words start in o's text. */
static size_t open_read(const iso_proof_ctx *pc, size_t i, iso_fb *o, int type, read_finding *f)
{
    const rw_state *st = pc->wl_state;
    size_t nm;
    f->r = &st->rdf[i];
    f->x = &st->ver[st->mop[st->mop_off[f->r->txn] + f->r->mop]];
    f->mop = rw_txn_mops(pc, f->r->txn, &nm)[f->r->mop];
    f->k = st->keys.vals[f->x->key];
    f->writer = named_writer(f->x, type, f->r->txn);
    uint32_t tx[2] = {f->r->txn, f->writer};
    iso_fb_let(pc, o, tx, f->writer == ISO_NONE ? 1 : 2);
    size_t at = o->text.n;
    read_text(pc, o, f->k, f->x->val);
    return at;
}

/* Render not-my-own-write or not-my-last-write finding i (type), its
 * steps drawn into pic (NULL: none): T1's read [r k v] after its own write
 * of k, of T2's write (not-my-own-write) or of an earlier one of T1's own
 * (not-my-last-write). */
static void render_own(const iso_proof_ctx *pc, size_t i, iso_fb *o, int type, iso_picture *pic)
{
    const rw_state *st = pc->wl_state;
    read_finding f;
    size_t at = open_read(pc, i, o, type, &f);
    const rw_rdf *r = f.r;
    const rw_ver *x = f.x;
    iso_val mop = f.mop, k = f.k;
    uint32_t writer = f.writer;
    iso_val own = st->ver[own_before(st, r->txn, x->key, r->mop)].val;
    if (writer != ISO_NONE) iso_buf_puts(&o->text, ", which T2 wrote");
    iso_buf wr = {0};
    iso_buf_put(&wr, o->text.p + at, o->text.n - at);
    after_own_text(pc, o, type, k, own);
    if (pic) {
        iso_picture_txn(pic, r->txn);
        if (writer != ISO_NONE) iso_picture_edge(pic, writer, r->txn, "wr", iso_buf_cstr(&wr));
        iso_picture_edge(pic, r->txn, r->txn, "misses", o->text.p + at);
    }
    iso_buf_free(&wr);
    iso_fb_field_op(pc, o, "op", r->txn);
    iso_fb_field(pc, o, "mop", mop);
    iso_fb_field(pc, o, "expected", own);
    if (writer != ISO_NONE) iso_fb_field_op(pc, o, "writer", writer);
    iso_fb_close(o);
}

/* Render read finding i of the given type: T1's read [r k v], written by
 * T2 (G1a, G1b) or by nobody (garbage-read, future-read). */
static void render_read(const iso_proof_ctx *pc, size_t i, iso_fb *o, int type)
{
    const rw_state *st = pc->wl_state;
    read_finding f;
    open_read(pc, i, o, type, &f);
    const rw_rdf *r = f.r;
    const rw_ver *x = f.x;
    iso_val mop = f.mop, k = f.k;
    uint32_t writer = f.writer;
    if (type == ISO_A_FUTURE_READ) {
        iso_buf_puts(&o->text, ", a value T1 itself writes to ");
        iso_fb_val(pc, o, k);
        iso_buf_puts(&o->text, " only later: a read of the future.");
    } else if (type == ISO_A_G1A) {
        iso_buf_puts(&o->text, ", which T2 wrote, but T2 failed: T1 read aborted state.");
    } else if (type == ISO_A_G1B) {
        iso_buf_puts(&o->text, ", which T2 wrote, but T2 then wrote key ");
        iso_fb_val(pc, o, k);
        for (uint32_t e = st->ext_off[writer]; e < st->ext_off[writer + 1]; e++)
            if (st->ext[e].key == x->key && st->ext[e].wr != ISO_NONE) {
                iso_buf_puts(&o->text, " = ");
                iso_fb_val(pc, o, st->ver[st->ext[e].wr].val);
            }
        iso_buf_puts(&o->text, ": T1 read an intermediate state.");
    } else {
        iso_buf_puts(&o->text, ", but no transaction ever wrote ");
        iso_fb_val(pc, o, x->val);
        iso_buf_puts(&o->text, " to key ");
        iso_fb_val(pc, o, k);
        iso_buf_puts(&o->text, ".");
    }
    iso_fb_field_op(pc, o, "op", r->txn);
    iso_fb_field(pc, o, "mop", mop);
    if (writer != ISO_NONE) iso_fb_field_op(pc, o, "writer", writer);
    iso_fb_field(pc, o, "element", x->val);
    iso_fb_close(o);
}

/* iso_render_fn of each kind of read finding. */
static void render_g1a(const iso_proof_ctx *pc, size_t i, iso_fb *o) { render_read(pc, i, o, ISO_A_G1A); }
static void render_g1b(const iso_proof_ctx *pc, size_t i, iso_fb *o) { render_read(pc, i, o, ISO_A_G1B); }
static void render_garbage(const iso_proof_ctx *pc, size_t i, iso_fb *o)
{
    render_read(pc, i, o, ISO_A_GARBAGE_READ);
}
static void render_future(const iso_proof_ctx *pc, size_t i, iso_fb *o) { render_read(pc, i, o, ISO_A_FUTURE_READ); }
static void render_not_own(const iso_proof_ctx *pc, size_t i, iso_fb *o)
{
    render_own(pc, i, o, ISO_A_NOT_MY_OWN_WRITE, NULL);
}
static void render_not_last(const iso_proof_ctx *pc, size_t i, iso_fb *o)
{
    render_own(pc, i, o, ISO_A_NOT_MY_LAST_WRITE, NULL);
}

int rw_read_picture(const iso_proof_ctx *pc, const iso_finding *f, iso_picture *p)
{
    int type = f->render == render_not_own ? ISO_A_NOT_MY_OWN_WRITE
             : f->render == render_not_last ? ISO_A_NOT_MY_LAST_WRITE : -1;
    if (type < 0) return 0;
    iso_fb o = {{0}, {0}};
    render_own(pc, f->arg, &o, type, p);
    iso_buf_free(&o.text);
    iso_buf_free(&o.json);
    return 1;
}

/* Micro-op j of txn, a read, is a finding of type. */
static void read_case(iso_ctx *ctx, rw_state *st, uint32_t txn, uint32_t j, int type)
{
    static const struct { int type; iso_render_fn fn; } fns[] = {
        {ISO_A_G1A, render_g1a}, {ISO_A_G1B, render_g1b}, {ISO_A_GARBAGE_READ, render_garbage},
        {ISO_A_FUTURE_READ, render_future}, {ISO_A_NOT_MY_OWN_WRITE, render_not_own},
        {ISO_A_NOT_MY_LAST_WRITE, render_not_last}};
    size_t i = 0;
    while (fns[i].type != type) i++;
    ISO_PUSH(st->rdf, st->n_rdf, st->cap_rdf, ((rw_rdf){txn, j}));
    iso_findings_add_pending(&ctx->findings, type, fns[i].fn, st->n_rdf - 1);
}

/* The finding a read's class makes, or -1. */
static int class_anomaly(uint8_t c)
{
    return c == RW_R_FUTURE ? ISO_A_FUTURE_READ : c == RW_R_NOT_OWN ? ISO_A_NOT_MY_OWN_WRITE
         : c == RW_R_NOT_LAST ? ISO_A_NOT_MY_LAST_WRITE : -1;
}

/* Per version, whether a read of it is an anomaly: a byte each, so the
 * scan over every read stays in cache. */
enum { RD_GARBAGE = 1, RD_ABORTED = 2, RD_INTERMEDIATE = 4 };

static uint8_t *read_flags(const iso_proof_ctx *pc, const rw_state *st)
{
    uint8_t *f = iso_xcalloc(st->n_ver + 1, 1);
    for (size_t v = 0; v < st->n_ver; v++) {
        const rw_ver *x = &st->ver[v];
        if (x->writer == ISO_NONE) f[v] = iso_is_nil(x->val) ? 0 : RD_GARBAGE;
        else f[v] = (uint8_t)((pc->txns.t[x->writer].type == ISO_OP_FAIL ? RD_ABORTED : 0) |
                              (x->wkind == RW_INTERMEDIATE ? RD_INTERMEDIATE : 0));
    }
    return f;
}

/* A read's class makes a finding once per transaction and type (its first
 * such read), as internal is: each finding shows the whole transaction. */
static void class_case(iso_ctx *ctx, rw_state *st, uint32_t txn, uint32_t j, uint8_t *seen)
{
    int type = class_anomaly(st->rclass[st->mop_off[txn] + j]);
    uint8_t bit = type == ISO_A_FUTURE_READ ? 1 : type == ISO_A_NOT_MY_OWN_WRITE ? 2 : 4;
    if (type < 0 || (*seen & bit)) return;
    *seen |= bit;
    read_case(ctx, st, txn, j, type);
}

static void read_anomalies(iso_ctx *ctx, rw_state *st, const uint8_t *flags, uint32_t txn)
{
    const uint32_t *mv = st->mop + st->mop_off[txn];
    uint32_t n = st->mop_off[txn + 1] - st->mop_off[txn];
    uint8_t seen = 0;
    for (uint32_t j = 0; j < n; j++) {
        class_case(ctx, st, txn, j, &seen);
        if ((mv[j] & RW_MOP_W) || !flags[mv[j]]) continue;
        if (flags[mv[j]] & RD_GARBAGE) read_case(ctx, st, txn, j, ISO_A_GARBAGE_READ);
        if (flags[mv[j]] & RD_ABORTED) read_case(ctx, st, txn, j, ISO_A_G1A);
        if ((flags[mv[j]] & RD_INTERMEDIATE) && st->ver[mv[j]].writer != txn)
            read_case(ctx, st, txn, j, ISO_A_G1B);
    }
}

/* Internal reads and lost updates need a key touched twice in one txn. */
static int repeats_a_key(const rw_state *st, uint32_t t)
{
    return st->ext_off[t + 1] - st->ext_off[t] < st->mop_off[t + 1] - st->mop_off[t];
}

/* ---- internal: a read that disagrees with the txn's own earlier access ---- */

typedef struct scratch {
    uint32_t *stamp;  /* per key: txn + 1 of the last touch (lost update: read) */
    uint32_t *wrote;  /* per key: txn + 1 that wrote it after reading it */
    uint32_t *ver;    /* per key: internal state (lost update: first read) */
} scratch;

static void internal_one(iso_ctx *ctx, const rw_state *st, scratch *sc, uint32_t txn)
{
    size_t n;
    const iso_val *m = rw_txn_mops(&ctx->pc, txn, &n);
    const uint32_t *mv = st->mop + st->mop_off[txn];
    for (size_t j = 0; j < n; j++) {
        uint32_t ver = mv[j] & ~RW_MOP_W, key = st->ver[ver].key;
        if (!(mv[j] & RW_MOP_W) && sc->stamp[key] == txn + 1 && sc->ver[key] != ver) {
            iso_fb o = {{0}, {0}};
            iso_val k = st->keys.vals[key], was = st->ver[sc->ver[key]].val;
            iso_fb_let(&ctx->pc, &o, &txn, 1);
            read_text(&ctx->pc, &o, k, st->ver[ver].val);
            iso_buf_puts(&o.text, ", but earlier in T1 ");
            iso_fb_val(&ctx->pc, &o, k);
            iso_buf_puts(&o.text, " was ");
            iso_fb_val(&ctx->pc, &o, was);
            iso_buf_puts(&o.text, ": T1 is internally inconsistent.");
            iso_fb_field_op(&ctx->pc, &o, "op", txn);
            iso_fb_field(&ctx->pc, &o, "mop", m[j]);
            iso_fb_field(&ctx->pc, &o, "expected", was);
            iso_fb_emit(&ctx->findings, &o, ISO_A_INTERNAL);
            return;
        }
        sc->stamp[key] = txn + 1;
        sc->ver[key] = ver;
    }
}

/* ---- lost update: two ok txns read one version of k, then both wrote k ---- */

/* (version read << 32 | txn) for every ok txn that read k and then wrote
 * it, as Elle's lost-update-cases scans: writes before any read of k do
 * not count, and only the first write after the first read does. */
static void lu_collect(const rw_state *st, scratch *sc, uint32_t txn, uint64_t **pairs,
                       size_t *n, size_t *cap)
{
    for (uint32_t j = st->mop_off[txn]; j < st->mop_off[txn + 1]; j++) {
        uint32_t ver = st->mop[j] & ~RW_MOP_W, key = st->ver[ver].key;
        int read = sc->stamp[key] == txn + 1;
        if ((st->mop[j] & RW_MOP_W) && read && sc->wrote[key] != txn + 1) {
            ISO_PUSH(*pairs, *n, *cap, (uint64_t)sc->ver[key] << 32 | txn);
            sc->wrote[key] = txn + 1;
        } else if (!(st->mop[j] & RW_MOP_W) && !read) {
            sc->stamp[key] = txn + 1;
            sc->ver[key] = ver;
        }
    }
}

/* iso_render_fn of lost-update finding i. */
static void render_lost(const iso_proof_ctx *pc, size_t i, iso_fb *o)
{
    const rw_state *st = pc->wl_state;
    const rw_lost *l = &st->lost[i];
    const rw_ver *x = &st->ver[l->ver];
    const uint32_t *tx = st->lu_txns + l->txns;
    iso_val k = st->keys.vals[x->key];
    iso_fb_let(pc, o, tx, l->n);
    if (l->n == 2) iso_buf_puts(&o->text, "T1 and T2 both read key ");
    else iso_buf_printf(&o->text, "T1 ... T%u all read key ", l->n);
    iso_fb_val(pc, o, k);
    iso_buf_puts(&o->text, " = ");
    iso_fb_val(pc, o, x->val);
    iso_buf_puts(&o->text, ", then each wrote key ");
    iso_fb_val(pc, o, k);
    iso_buf_puts(&o->text, ": all but one of these updates were lost.");
    iso_fb_field(pc, o, "key", k);
    iso_fb_field(pc, o, "value", x->val);
    iso_fb_field_ops(pc, o, "txns", tx, l->n);
    iso_fb_close(o);
}

static void lost_updates(iso_ctx *ctx, rw_state *st, scratch *sc)
{
    uint64_t *p = NULL;
    size_t n = 0, cap = 0;
    for (uint32_t t = 0; t < ctx->pc.txns.n; t++)
        if (ctx->pc.txns.t[t].type == ISO_OP_OK && repeats_a_key(st, t)) lu_collect(st, sc, t, &p, &n, &cap);
    if (n) qsort(p, n, sizeof *p, iso_cmp_u64);
    st->lu_txns = iso_xmalloc((n ? n : 1) * sizeof *st->lu_txns);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && p[j] >> 32 == p[i] >> 32; j++) {}
        if (j - i < 2) continue;
        rw_lost l = {(uint32_t)(p[i] >> 32), (uint32_t)st->n_lu_txns, (uint32_t)(j - i)};
        for (size_t q = i; q < j; q++) st->lu_txns[st->n_lu_txns++] = (uint32_t)p[q];
        ISO_PUSH(st->lost, st->n_lost, st->cap_lost, l);
        iso_findings_add_pending(&ctx->findings, ISO_A_LOST_UPDATE, render_lost, st->n_lost - 1);
    }
    iso_free(p);
}

void rw_find_anomalies(iso_ctx *ctx, rw_state *st)
{
    scratch sc = {iso_xcalloc(st->keys.n + 1, sizeof(uint32_t)),
                  iso_xcalloc(st->keys.n + 1, sizeof(uint32_t)),
                  iso_xmalloc((st->keys.n + 1) * sizeof(uint32_t))};
    uint8_t *flags = read_flags(&ctx->pc, st);
    for (uint32_t t = 0; t < ctx->pc.txns.n; t++) {
        if (ctx->pc.txns.t[t].type != ISO_OP_OK) continue;
        read_anomalies(ctx, st, flags, t);
        if (repeats_a_key(st, t)) internal_one(ctx, st, &sc, t);
    }
    memset(sc.stamp, 0, (st->keys.n + 1) * sizeof *sc.stamp);
    lost_updates(ctx, st, &sc);
    iso_free(flags);
    iso_free(sc.stamp);
    iso_free(sc.wrote);
    iso_free(sc.ver);
}
