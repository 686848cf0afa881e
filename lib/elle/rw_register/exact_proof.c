/*
 * elle/rw_register/exact_proof.c -- how rw-register's exact check tells
 * its polygraph (exact.h, for elle/exact.c's proofs and witness): a write
 * is a version ("T1's write of key :x (100)"), a known ww / rw step the
 * two versions the inference ordered, a wr step the read, an assumed step
 * the order its case puts the versions in; the witness's version order is
 * each key's ok writes by their writers' ranks (--transaction-order
 * re-checks it).
 * Invariant: every step told is an edge the polygraph holds.
 */
#include "elle/rw_register/exact.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ex_poly *poly(const iso_exact *x) { return (const ex_poly *)x; }

static void kv(const iso_ctx *ctx, const iso_exact *x, uint32_t v, iso_val *key, iso_val *val)
{
    const rw_state *st = ctx->pc.wl_state;
    (void)x;
    *key = st->keys.vals[st->ver[v].key];
    *val = st->ver[v].val;
}

/* The micro-op index of txn t's first read of version v, or -1. */
static long read_mop(const rw_state *st, uint32_t t, uint32_t v)
{
    for (uint32_t m = st->mop_off[t]; m < st->mop_off[t + 1]; m++)
        if (!(st->mop[m] & RW_MOP_W) && (st->mop[m] & ~RW_MOP_W) == v) return (long)(m - st->mop_off[t]);
    return -1;
}

/* ww or rw from version a to version b (b's writer is to), as known
 * (assumed 0) or as the case assumes. */
static void data_step(const iso_ctx *ctx, uint32_t from, uint8_t bit, uint32_t a, uint32_t b, int assumed,
                      const char *ta, const char *tb, iso_buf *text, iso_buf *json)
{
    const iso_proof_ctx *pc = &ctx->pc;
    const rw_state *st = pc->wl_state;
    const rw_ver *va = &st->ver[a], *vb = &st->ver[b];
    iso_val key = st->keys.vals[va->key];
    const char *later = assumed ? "which this case puts after it" : "which came later in the version order";
    char fmt[160];
    if (bit == ISO_EDGE_WW) {
        snprintf(fmt, sizeof fmt, "%%1 set key %%K to %%A, and %%2 set it to %%B, %s", later);
        iso_edge_text(pc, text, fmt, ta, tb, key, va->val, vb->val);
        iso_edge_json(pc, json, "ww", key, NULL, va->val, &vb->val, va->wmop, vb->wmop);
        return;
    }
    snprintf(fmt, sizeof fmt, "%%1 read key %%K = %%A, and %%2 set it to %%B, %s", later);
    iso_edge_text(pc, text, fmt, ta, tb, key, va->val, vb->val);
    iso_edge_json(pc, json, "rw", key, NULL, va->val, &vb->val, read_mop(st, from, a), vb->wmop);
}

static void known(const iso_ctx *ctx, const iso_exact *x, size_t i, uint32_t from, uint32_t to, const char *ta,
                  const char *tb, iso_buf *text, iso_buf *json)
{
    const ex_why *w = &poly(x)->why[i];
    if (x->bit[i] == ISO_EDGE_WR) rw_explain_wr(&ctx->pc, w->x, to, w->y, ta, tb, text, json);
    else data_step(ctx, from, x->bit[i], w->x, w->y, 0, ta, tb, text, json);
}

static void assumed(const iso_ctx *ctx, const iso_exact *x, const struct solve_step *s, uint8_t bit, uint32_t a,
                    uint32_t b, const char *ta, const char *tb, iso_buf *text, iso_buf *json)
{
    (void)x;
    data_step(ctx, s->from, bit, a, b, 1, ta, tb, text, json);
}

/* "version-order": each key's ok writes in the order of their writers' ranks. */
static void version_order(const iso_ctx *ctx, const iso_exact *x, const uint32_t *rank, iso_buf *j)
{
    const rw_state *st = ctx->pc.wl_state;
    const uint32_t *wof = poly(x)->wof;
    uint64_t *w = iso_xmalloc((st->n_ver + 1) * sizeof *w);
    iso_buf_puts(j, ",\"version-order\":[");
    for (uint32_t key = 0, first = 1; key < st->keys.n; key++) {
        uint32_t lo = st->nil_ver[key], hi = key + 1 < st->keys.n ? st->nil_ver[key + 1] : (uint32_t)st->n_ver, n = 0;
        for (uint32_t v = lo; v < hi; v++)
            if (wof[v] != ISO_NONE) w[n++] = (uint64_t)rank[wof[v]] << 32 | v;
        if (!n) continue;
        qsort(w, n, sizeof *w, iso_cmp_u64);
        iso_buf_puts(j, first ? "{\"key\":" : ",{\"key\":");
        first = 0;
        iso_pc_val_json(&ctx->pc, st->keys.vals[key], j);
        iso_buf_puts(j, ",\"values\":[");
        for (uint32_t i = 0; i < n; i++) {
            iso_buf_puts(j, i ? "," : "");
            iso_pc_val_json(&ctx->pc, st->ver[(uint32_t)w[i]].val, j);
        }
        iso_buf_puts(j, "]}");
    }
    iso_buf_puts(j, "]");
    iso_free(w);
}

const iso_exact_words rw_exact_words = {"rw", "%1's write of key %K (%A)", kv, known, assumed, version_order, 1};
