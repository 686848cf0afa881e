/*
 * elle/rw_register/weak_proof.c -- the proofs of the weak models'
 * findings, in Elle's words: "Let: T1 = ... Then: - T1 < T2, because ...
 * - However, Tn < T1, because ...: a contradiction!", where < is the order
 * of commits every execution the level allows must have. A wr or so step
 * is the workload's (or the history's) explanation of that edge; a forced
 * step names the reader whose reads force it and why the level forces it
 * (MAV, RC, RA: the read of the earlier writer; causal: the path in the causal
 * past). A read of the initial state forced after a write ends on the
 * initial state, which precedes every write. JSON: {"type", "cycle" (ops,
 * the first again at the end), "steps"} with Elle's wr and process steps
 * and a forced one {"type":"co", "key", "value" (T2's write), "value'"
 * (what the reader read instead), "reader", "read-mop-index", "because"
 * (the steps of the premise)}; a read of the initial state has
 * "initial-state": true and no "cycle". The picture (elle/picture.h) draws
 * every step with its words, a forced one as "co" (to "the initial state"
 * when it ends there, and back: the initial state precedes every write)
 * and the steps of its premise each as its own edge.
 */
#include "elle/rw_register/weak.h"
#include "elle/picture.h"
#include "elle/proof.h"

#include <stdio.h>


typedef struct proof {
    const iso_proof_ctx *pc;
    const rw_state *st;
    const struct rw_weak *w;
    int level;
    iso_names nm;
    iso_buf why;       /* one step's words */
    iso_picture *pic;  /* the steps drawn, or NULL */
} proof;

/* Step a -> b of type drawn, in the words words. */
static void draw(proof *p, uint32_t a, uint32_t b, const char *type, const char *words)
{
    if (p->pic) iso_picture_edge(p->pic, a, b, type, words);
}

/* A version's key and value as text / JSON, by the micro-op (m, of txn t)
 * that wrote or read it. */
static const rw_ver *ver_at(const rw_state *st, uint32_t t, uint32_t m)
{
    return &st->ver[st->mop[st->mop_off[t] + m] & ~RW_MOP_W];
}

/* Txn t's last write of key (its version), or ISO_NONE. */
static uint32_t write_of(const rw_state *st, uint32_t t, uint32_t key)
{
    for (uint32_t i = st->ext_off[t]; i < st->ext_off[t + 1]; i++)
        if (st->ext[i].key == key) return st->ext[i].wr;
    return ISO_NONE;
}

/* Name every transaction a forced pair's proof mentions. */
static void name_pair(proof *p, const rw_co *c)
{
    iso_name_of(&p->nm, c->t2);
    if (c->t1 != ISO_NONE) iso_name_of(&p->nm, c->t1);
    iso_name_of(&p->nm, c->t3);
    if (p->level != RW_LV_CC && p->level != RW_LV_CCC) return;
    for (uint32_t i = 0; i < p->w->ids[c->b]; i++) iso_name_of(&p->nm, p->w->ids[c->b + 1 + i]);
}

static void step_edge(proof *p, uint32_t a, uint32_t b, uint32_t l, iso_buf *json)
{
    char ta[16], tb[16];
    snprintf(ta, sizeof ta, "T%zu", iso_name_of(&p->nm, a));
    snprintf(tb, sizeof tb, "T%zu", iso_name_of(&p->nm, b));
    size_t at = p->why.n;
    iso_explain_edge(p->pc, a, b, l == RW_L_SO ? ISO_EDGE_PROCESS : ISO_EDGE_WR, ta, tb, &p->why, json);
    draw(p, a, b, l == RW_L_SO ? "process" : "wr", iso_buf_cstr(&p->why) + at);
}

/* The premise of pair c in words (into p->why) and steps (json). */
static void premise(proof *p, const rw_co *c, iso_buf *json)
{
    const rw_state *st = p->st;
    if (p->level != RW_LV_CC && p->level != RW_LV_CCC) {
        char ta[16], tc[16];
        snprintf(ta, sizeof ta, "T%zu", iso_name_of(&p->nm, c->t2));
        snprintf(tc, sizeof tc, "T%zu", iso_name_of(&p->nm, c->t3));
        size_t at = p->why.n;
        rw_explain_wr(p->pc, (uint32_t)(ver_at(st, c->t3, c->b) - st->ver), c->t3, c->b, ta, tc, &p->why, json);
        draw(p, c->t2, c->t3, "wr", iso_buf_cstr(&p->why) + at);
        return;
    }
    const uint32_t *path = p->w->ids + c->b + 1;
    uint32_t n = p->w->ids[c->b];
    for (uint32_t i = 0; i + 1 < n; i++) {
        if (i) {
            iso_buf_puts(&p->why, "; ");
            iso_buf_puts(json, ",");
        }
        uint32_t a = path[i], b = path[i + 1];
        int so = p->level == RW_LV_CC && iso_txn_op(p->pc->h, &p->pc->txns.t[a])->process ==
                                            iso_txn_op(p->pc->h, &p->pc->txns.t[b])->process;
        step_edge(p, a, b, so ? RW_L_SO : RW_L_WR, json);
    }
}

/* The words of each level's rule: %1 the earlier writer (t2), %2 who
 * wrote what t3 read (", written by T1" or ", the initial state"), %3 the
 * reader, %K the key, %A the value read, %P the premise's steps. */
#define NON_MONOTONIC \
    "%3 read key %K = %A%2, after it had read a write of %1 (%P), though %1 wrote %K too: a later read may not " \
    "return a version older than one the transaction already saw, so %1's write of %K comes first"
static const char *const rule[RW_LV_N] = {
    NON_MONOTONIC, NON_MONOTONIC,
    "%3 read key %K = %A%2, though %1 wrote %K too and %3 observed %1 (%P): a transaction sees all of "
    "another's writes or none, so %1's write of %K comes first",
    "%3 read key %K = %A%2, though %1 wrote %K too and %1 is in %3's causal past (%P): every write in a "
    "transaction's causal past is visible to it, so %1's write of %K comes first",
    "%3 read key %K = %A%2, though %1 wrote %K too and %1 is in %3's causal past (%P): every write in a "
    "transaction's causal past, its process's earlier transactions included, is visible to it, so %1's write "
    "of %K comes first",
};
#undef NON_MONOTONIC

static void rule_text(proof *p, const rw_co *c, const iso_buf *pre, iso_buf *text)
{
    const rw_state *st = p->st;
    const rw_ver *rd = ver_at(st, c->t3, c->a);
    char n1[16], n2[40], n3[16];
    snprintf(n1, sizeof n1, "T%zu", iso_name_of(&p->nm, c->t2));
    if (c->t1 == ISO_NONE) snprintf(n2, sizeof n2, ", the initial state");
    else snprintf(n2, sizeof n2, ", written by T%zu", iso_name_of(&p->nm, c->t1));
    snprintf(n3, sizeof n3, "T%zu", iso_name_of(&p->nm, c->t3));
    for (const char *s = rule[p->level]; *s; s++) {
        if (*s != '%') { iso_buf_put(text, s, 1); continue; }
        switch (*++s) {
        case '1': iso_buf_puts(text, n1); break;
        case '2': iso_buf_puts(text, n2); break;
        case '3': iso_buf_puts(text, n3); break;
        case 'P': iso_buf_put(text, pre->p, pre->n); break;
        case 'K': iso_pc_val_text(p->pc, st->keys.vals[rd->key], text); break;
        default: iso_pc_val_text(p->pc, rd->val, text); break;
        }
    }
}

/* A forced step: its words into p->why, its JSON into json. */
static void step_forced(proof *p, const rw_co *c, iso_buf *json)
{
    const rw_state *st = p->st;
    const rw_ver *rd = ver_at(st, c->t3, c->a);
    uint32_t mine = write_of(st, c->t2, rd->key);
    iso_buf_puts(json, "{\"type\":\"co\",\"key\":");
    iso_pc_val_json(p->pc, st->keys.vals[rd->key], json);
    iso_buf_puts(json, ",\"value\":");
    iso_pc_val_json(p->pc, mine == ISO_NONE ? ISO_NIL : st->ver[mine].val, json);
    iso_buf_puts(json, ",\"value'\":");
    iso_pc_val_json(p->pc, rd->val, json);
    iso_buf_puts(json, ",\"reader\":");
    iso_pc_op_json(p->pc, c->t3, json);
    iso_buf_printf(json, ",\"read-mop-index\":%u,\"because\":[", c->a);
    iso_buf pre = p->why;
    p->why = (iso_buf){0};
    premise(p, c, json); /* its words into p->why */
    iso_buf_puts(json, "]}");
    iso_buf words = p->why;
    p->why = pre;
    rule_text(p, c, &words, &p->why);
    iso_buf_free(&words);
}

/* The Let: lines of every transaction named (the picture's too). */
static void let(proof *p, iso_fb *o)
{
    for (size_t i = 0; p->pic && i < p->nm.n; i++) iso_picture_txn(p->pic, p->nm.t[i]);
    iso_buf_puts(&o->text, "Let:\n");
    for (size_t i = 0; i < p->nm.n; i++) {
        iso_buf_printf(&o->text, "  T%zu = ", i + 1);
        iso_pc_op_text(p->pc, p->nm.t[i], &o->text);
        iso_buf_puts(&o->text, "\n");
    }
    iso_buf_puts(&o->text, "\nThen:\n");
}

/* One line of the proof: "  - Ta < Tb, because <why>." */
static void line(proof *p, iso_fb *o, const char *a, const char *b, int last)
{
    iso_buf_printf(&o->text, "  - %s%s < %s, because %s%s\n", last ? "However, " : "", a, b, iso_buf_cstr(&p->why),
                   last ? ": a contradiction!" : ".");
}

static void render_cycle(proof *p, const rw_wfind *x, iso_fb *o)
{
    const uint32_t *v = p->w->ids + x->at, *l = p->w->lbl + x->at;
    iso_buf steps = {0};
    for (uint32_t i = 0; i < x->n; i++) iso_name_of(&p->nm, v[i]);
    for (uint32_t i = 0; i < x->n; i++)
        if (l[i] != RW_L_WR && l[i] != RW_L_SO) name_pair(p, &p->w->co[p->level][l[i]]);
    let(p, o);
    iso_fb_key(o, "cycle");
    iso_buf_puts(&o->json, "[");
    for (uint32_t i = 0; i <= x->n; i++) {
        if (i) iso_buf_puts(&o->json, ",");
        iso_pc_op_json(p->pc, v[i % x->n], &o->json);
    }
    iso_buf_puts(&o->json, "]");
    for (uint32_t i = 0; i < x->n; i++) {
        uint32_t a = v[i], b = v[(i + 1) % x->n];
        char ta[16], tb[16];
        snprintf(ta, sizeof ta, "T%zu", iso_name_of(&p->nm, a));
        snprintf(tb, sizeof tb, "T%zu", iso_name_of(&p->nm, b));
        p->why.n = 0;
        if (i) iso_buf_puts(&steps, ",");
        if (l[i] == RW_L_WR || l[i] == RW_L_SO) step_edge(p, a, b, l[i], &steps);
        else {
            step_forced(p, &p->w->co[p->level][l[i]], &steps);
            draw(p, a, b, "co", iso_buf_cstr(&p->why));
        }
        line(p, o, ta, tb, i + 1 == x->n);
    }
    iso_fb_key(o, "steps");
    iso_buf_printf(&o->json, "[%s]", iso_buf_cstr(&steps));
    iso_buf_free(&steps);
}

/* A read of the initial state forced after T1's write. */
static void render_initial(proof *p, const rw_wfind *x, iso_fb *o)
{
    const rw_co *c = &p->w->co[p->level][x->at];
    iso_buf steps = {0};
    name_pair(p, c);
    let(p, o);
    iso_fb_key(o, "initial-state");
    iso_buf_puts(&o->json, "true");
    p->why.n = 0;
    step_forced(p, c, &steps);
    draw(p, c->t2, ISO_NONE, "co", iso_buf_cstr(&p->why));
    draw(p, ISO_NONE, c->t2, "co", "the initial state precedes every write");
    line(p, o, "T1", "the initial state", 0);
    iso_buf_puts(&o->text, "  - However, the initial state precedes every write: a contradiction!\n");
    iso_fb_key(o, "steps");
    iso_buf_printf(&o->json, "[%s]", iso_buf_cstr(&steps));
    iso_buf_free(&steps);
}

/* Finding i's proof into o, its steps drawn into pic (NULL: none). */
static void prove(const iso_proof_ctx *pc, size_t i, iso_fb *o, iso_picture *pic)
{
    const rw_state *st = pc->wl_state;
    const rw_wfind *x = &st->weak->f[i];
    proof p = {pc, st, st->weak, x->level, {0}, {0}, pic};
    int type = x->base ? ISO_A_G1C_PROCESS : rw_level_type(x->level);
    iso_buf_printf(&o->json, "{\"type\":\"%s\"", iso_anomaly_name(type));
    if (x->n) render_cycle(&p, x, o);
    else render_initial(&p, x, o);
    if (o->text.n && o->text.p[o->text.n - 1] == '\n') o->text.p[--o->text.n] = 0;
    iso_fb_close(o);
    iso_free(p.nm.t);
    iso_buf_free(&p.why);
}

void rw_weak_render(const iso_proof_ctx *pc, size_t i, iso_fb *o) { prove(pc, i, o, NULL); }

void rw_weak_picture(const iso_proof_ctx *pc, size_t i, iso_picture *pic)
{
    iso_fb o = {{0}, {0}};
    prove(pc, i, &o, pic);
    iso_buf_free(&o.text);
    iso_buf_free(&o.json);
}
