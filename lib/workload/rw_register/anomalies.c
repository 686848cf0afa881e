/*
 * rw_anomalies.c -- rw-register anomalies found without cycles, as Elle's
 * rw-register finds them: internal, G1a, G1b, lost-update (ok transactions
 * only), cyclic-versions (from rw_versions.c); plus isolde's garbage-read,
 * an ok read of a value no transaction wrote to that key.
 */
#include "report/finding.h"
#include "workload/rw_register/rw_register.h"

#include <stdlib.h>
#include <string.h>

/* "T1 read :x = 1" */
static void read_text(const iso_ctx *ctx, iso_fb *o, iso_val k, iso_val v)
{
    iso_buf_puts(&o->text, "T1 read ");
    iso_fb_val(ctx, o, k);
    iso_buf_puts(&o->text, " = ");
    iso_fb_val(ctx, o, v);
}

/* ---- per-read anomalies: G1a, G1b, garbage-read --------------------------- */

/* One read mop [r k v] of T1 = txn, written by writer (ISO_NONE: nobody). */
static void read_case(iso_ctx *ctx, const rw_state *st, uint32_t txn, iso_val mop, uint32_t key,
                      iso_val v, uint32_t writer, int type)
{
    iso_fb o = {{0}, {0}};
    uint32_t tx[2] = {txn, writer};
    iso_val k = st->keys.vals[key];
    iso_fb_let(ctx, &o, tx, writer == ISO_NONE ? 1 : 2);
    read_text(ctx, &o, k, v);
    if (type == ISO_A_G1A) {
        iso_buf_puts(&o.text, ", which T2 wrote, but T2 failed: T1 read aborted state.");
    } else if (type == ISO_A_G1B) {
        iso_buf_puts(&o.text, ", which T2 wrote, but T2 then wrote ");
        iso_fb_val(ctx, &o, k);
        for (uint32_t i = st->ext_off[writer]; i < st->ext_off[writer + 1]; i++)
            if (st->ext[i].key == key && st->ext[i].wr != ISO_NONE) {
                iso_buf_puts(&o.text, " = ");
                iso_fb_val(ctx, &o, st->ver[st->ext[i].wr].val);
            }
        iso_buf_puts(&o.text, ": T1 read an intermediate state.");
    } else {
        iso_buf_puts(&o.text, ", but no transaction ever wrote ");
        iso_fb_val(ctx, &o, v);
        iso_buf_puts(&o.text, " to ");
        iso_fb_val(ctx, &o, k);
        iso_buf_puts(&o.text, ".");
    }
    iso_fb_field_op(ctx, &o, "op", txn);
    iso_fb_field(ctx, &o, "mop", mop);
    if (writer != ISO_NONE) iso_fb_field_op(ctx, &o, "writer", writer);
    iso_fb_field(ctx, &o, "element", v);
    iso_fb_emit(ctx, &o, type);
}

/* Per version, whether a read of it is an anomaly: a byte each, so the
 * scan over every read stays in cache. */
enum { RD_GARBAGE = 1, RD_ABORTED = 2, RD_INTERMEDIATE = 4 };

static uint8_t *read_flags(const iso_ctx *ctx, const rw_state *st)
{
    uint8_t *f = iso_xcalloc(st->n_ver + 1, 1);
    for (size_t v = 0; v < st->n_ver; v++) {
        const rw_ver *x = &st->ver[v];
        if (x->writer == ISO_NONE) f[v] = iso_is_nil(x->val) ? 0 : RD_GARBAGE;
        else f[v] = (uint8_t)((ctx->txns.t[x->writer].type == ISO_OP_FAIL ? RD_ABORTED : 0) |
                              (x->wkind == RW_INTERMEDIATE ? RD_INTERMEDIATE : 0));
    }
    return f;
}

static void read_anomalies(iso_ctx *ctx, const rw_state *st, const uint8_t *flags, uint32_t txn)
{
    const uint32_t *mv = st->mop + st->mop_off[txn];
    uint32_t n = st->mop_off[txn + 1] - st->mop_off[txn];
    for (uint32_t j = 0; j < n; j++) {
        if ((mv[j] & RW_MOP_W) || !flags[mv[j]]) continue;
        const rw_ver *x = &st->ver[mv[j]];
        size_t nm;
        iso_val mop = rw_txn_mops(ctx, txn, &nm)[j];
        if (flags[mv[j]] & RD_GARBAGE)
            read_case(ctx, st, txn, mop, x->key, x->val, ISO_NONE, ISO_A_GARBAGE_READ);
        if (flags[mv[j]] & RD_ABORTED)
            read_case(ctx, st, txn, mop, x->key, x->val, x->writer, ISO_A_G1A);
        if ((flags[mv[j]] & RD_INTERMEDIATE) && x->writer != txn)
            read_case(ctx, st, txn, mop, x->key, x->val, x->writer, ISO_A_G1B);
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
    const iso_val *m = rw_txn_mops(ctx, txn, &n);
    const uint32_t *mv = st->mop + st->mop_off[txn];
    for (size_t j = 0; j < n; j++) {
        uint32_t ver = mv[j] & ~RW_MOP_W, key = st->ver[ver].key;
        if (!(mv[j] & RW_MOP_W) && sc->stamp[key] == txn + 1 && sc->ver[key] != ver) {
            iso_fb o = {{0}, {0}};
            iso_val k = st->keys.vals[key], was = st->ver[sc->ver[key]].val;
            iso_fb_let(ctx, &o, &txn, 1);
            read_text(ctx, &o, k, st->ver[ver].val);
            iso_buf_puts(&o.text, ", but earlier in T1 ");
            iso_fb_val(ctx, &o, k);
            iso_buf_puts(&o.text, " was ");
            iso_fb_val(ctx, &o, was);
            iso_buf_puts(&o.text, ": T1 is internally inconsistent.");
            iso_fb_field_op(ctx, &o, "op", txn);
            iso_fb_field(ctx, &o, "mop", m[j]);
            iso_fb_field(ctx, &o, "expected", was);
            iso_fb_emit(ctx, &o, ISO_A_INTERNAL);
            return;
        }
        sc->stamp[key] = txn + 1;
        sc->ver[key] = ver;
    }
}

/* ---- lost update: two ok txns read one version of k, then both wrote k ---- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

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

static void lost_updates(iso_ctx *ctx, const rw_state *st, scratch *sc)
{
    uint64_t *p = NULL;
    size_t n = 0, cap = 0;
    for (uint32_t t = 0; t < ctx->txns.n; t++)
        if (ctx->txns.t[t].type == ISO_OP_OK && repeats_a_key(st, t)) lu_collect(st, sc, t, &p, &n, &cap);
    if (n) qsort(p, n, sizeof *p, cmp_u64);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && p[j] >> 32 == p[i] >> 32; j++) {}
        if (j - i < 2) continue;
        const rw_ver *x = &st->ver[p[i] >> 32];
        iso_val k = st->keys.vals[x->key];
        uint32_t *tx = iso_xmalloc((j - i) * sizeof *tx);
        for (size_t q = i; q < j; q++) tx[q - i] = (uint32_t)p[q];
        iso_fb o = {{0}, {0}};
        iso_fb_let(ctx, &o, tx, j - i);
        if (j - i == 2) iso_buf_puts(&o.text, "T1 and T2 both read ");
        else iso_buf_printf(&o.text, "T1 ... T%zu all read ", j - i);
        iso_fb_val(ctx, &o, k);
        iso_buf_puts(&o.text, " = ");
        iso_fb_val(ctx, &o, x->val);
        iso_buf_puts(&o.text, ", then each wrote ");
        iso_fb_val(ctx, &o, k);
        iso_buf_puts(&o.text, ": all but one of these updates were lost.");
        iso_fb_field(ctx, &o, "key", k);
        iso_fb_field(ctx, &o, "value", x->val);
        iso_fb_field_ops(ctx, &o, "txns", tx, j - i);
        iso_fb_emit(ctx, &o, ISO_A_LOST_UPDATE);
        iso_free(tx);
    }
    iso_free(p);
}

void rw_find_anomalies(iso_ctx *ctx, const rw_state *st)
{
    scratch sc = {iso_xcalloc(st->keys.n + 1, sizeof(uint32_t)),
                  iso_xcalloc(st->keys.n + 1, sizeof(uint32_t)),
                  iso_xmalloc((st->keys.n + 1) * sizeof(uint32_t))};
    uint8_t *flags = read_flags(ctx, st);
    for (uint32_t t = 0; t < ctx->txns.n; t++) {
        if (ctx->txns.t[t].type != ISO_OP_OK) continue;
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
static void render_cyclic(const iso_ctx *ctx, size_t i, iso_fb *f)
{
    const rw_state *st = ctx->wl_state;
    const rw_cyclic *c = &st->cyc[i];
    const uint32_t *vers = st->cyc_ids + c->vers, *cycle = st->cyc_ids + c->cycle;
    iso_val k = st->keys.vals[st->ver[vers[0]].key];
    iso_buf_puts(&f->text, "The inferred version order of key ");
    iso_ctx_val_text(ctx, k, &f->text);
    iso_buf_puts(&f->text, " is cyclic: ");
    for (size_t j = 0; j <= c->n_cycle; j++) {
        if (j) iso_buf_puts(&f->text, " < ");
        iso_ctx_val_text(ctx, st->ver[cycle[j % c->n_cycle]].val, &f->text);
    }
    iso_buf_puts(&f->text, "\n  inferred from: ");
    iso_fb_field(ctx, f, "key", k);
    iso_fb_key(f, "scc");
    iso_buf_puts(&f->json, "[");
    for (size_t j = 0; j < c->n_vers; j++) {
        if (j) iso_buf_puts(&f->json, ",");
        iso_ctx_val_json(ctx, st->ver[vers[j]].val, &f->json);
    }
    iso_buf_puts(&f->json, "]");
    iso_fb_key(f, "sources");
    iso_buf_puts(&f->json, "[");
    for (size_t j = 0; j < c->n_sources; j++) {
        iso_buf_printf(&f->text, "%s%s", j ? ", " : "", rw_source_name(c->sources[j]));
        iso_buf_printf(&f->json, "%s\"%s\"", j ? "," : "", rw_source_name(c->sources[j]));
    }
    iso_buf_printf(&f->text, "\n  the %s evidence was set aside", rw_source_name(c->sources[c->n_sources - 1]));
    iso_buf_puts(&f->json, "]");
    iso_fb_close(f);
}

void rw_report_cyclic(iso_ctx *ctx, rw_state *st, const uint32_t *vers, size_t n,
                      const uint32_t *cycle, size_t n_cycle, const int *sources,
                      size_t n_sources)
{
    rw_cyclic c = {(uint32_t)keep_ids(st, vers, n), (uint32_t)n, 0, (uint32_t)n_cycle, {0},
                   (uint8_t)n_sources};
    c.cycle = (uint32_t)keep_ids(st, cycle, n_cycle);
    for (size_t j = 0; j < n_sources; j++) c.sources[j] = (uint8_t)sources[j];
    ISO_PUSH(st->cyc, st->n_cyc, st->cap_cyc, c);
    iso_ctx_add_pending(ctx, ISO_A_CYCLIC_VERSIONS, render_cyclic, st->n_cyc - 1);
}
