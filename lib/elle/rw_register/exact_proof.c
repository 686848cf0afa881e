/*
 * elle/rw_register/exact_proof.c -- the words of the exact check
 * (exact.h): an invalid core as cases, "whichever order T1 and T2 wrote
 * key x in, a cycle follows: if T1's write came first, ... (G-single-item);
 * if T2's came first, ... (G0)", each case the cycle lib/solve/ closed,
 * told step by step as Elle tells a cycle; an unknown component; and the
 * witness of a valid verdict (a version order per key, and a transaction
 * order that gives it, which --transaction-order re-checks).
 * Invariant: every step told is an edge the polygraph holds (known, or of
 * the case's assumed order), so the proof is checkable by hand.
 */
#include "elle/rw_register/exact.h"
#include "elle/picture.h"
#include "elle/proof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rw_exact_name(int model, int variant)
{
    static const char *const names[4][3] = {
        {"serializable", "strong-session-serializable", "strict-serializable"},
        {"snapshot-isolation", "strong-session-snapshot-isolation", "strong-snapshot-isolation"},
        {"parallel-snapshot-isolation", "parallel-snapshot-isolation", "parallel-snapshot-isolation"},
        {"prefix", "prefix", "prefix"}};
    return names[model < 0 || model > SOLVE_PC ? 0 : model][variant < 0 || variant > 2 ? 0 : variant];
}


typedef struct proof {
    iso_ctx *ctx;
    const rw_state *st;
    const ex_poly *p;
    const struct solve_result *r;
    iso_names nm;
    iso_picture pic;      /* every case's cycle, its steps labelled by case */
} proof;

/* The edge bit a step stands for. */
static uint8_t step_bit(const proof *x, const struct solve_step *s)
{
    if (s->choice == UINT32_MAX) return x->p->why[s->edge].bit;
    return s->edge == x->p->start[2 * s->choice + s->side] ? ISO_EDGE_WW : ISO_EDGE_RW;
}

/* The micro-op index of txn t's first read of version v, or -1. */
static long read_mop(const rw_state *st, uint32_t t, uint32_t v)
{
    for (uint32_t m = st->mop_off[t]; m < st->mop_off[t + 1]; m++)
        if (!(st->mop[m] & RW_MOP_W) && (st->mop[m] & ~RW_MOP_W) == v) return (long)(m - st->mop_off[t]);
    return -1;
}

/* ww or rw from version a to version b (b's writer is s->to), as known
 * (assumed 0) or as the case assumes. */
static void data_step(proof *x, const struct solve_step *s, uint8_t bit, uint32_t a, uint32_t b, int assumed,
                      const char *ta, const char *tb, iso_buf *text, iso_buf *json)
{
    const iso_proof_ctx *pc = &x->ctx->pc;
    const rw_ver *va = &x->st->ver[a], *vb = &x->st->ver[b];
    iso_val key = x->st->keys.vals[va->key];
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
    iso_edge_json(pc, json, "rw", key, NULL, va->val, &vb->val, read_mop(x->st, s->from, a), vb->wmop);
}

static void step_words(proof *x, const struct solve_step *s, iso_buf *text, iso_buf *json)
{
    char ta[16], tb[16];
    snprintf(ta, sizeof ta, "T%zu", iso_name_of(&x->nm, s->from));
    snprintf(tb, sizeof tb, "T%zu", iso_name_of(&x->nm, s->to));
    uint8_t bit = step_bit(x, s);
    if (s->choice != UINT32_MAX) {
        const uint32_t *pair = x->p->pair + 2 * s->choice;
        data_step(x, s, bit, pair[s->side], pair[1 - s->side], 1, ta, tb, text, json);
        return;
    }
    const ex_why *w = &x->p->why[s->edge];
    if (bit == ISO_EDGE_WR) rw_explain_wr(&x->ctx->pc, w->x, s->to, w->y, ta, tb, text, json);
    else if (bit == ISO_EDGE_WW || bit == ISO_EDGE_RW) data_step(x, s, bit, w->x, w->y, 0, ta, tb, text, json);
    else iso_explain_edge(&x->ctx->pc, s->from, s->to, bit, ta, tb, text, json);
}

/* "T1's write of key :x (100)" for version v. */
static void write_words(proof *x, uint32_t v, iso_buf *out)
{
    const rw_ver *w = &x->st->ver[v];
    iso_buf_printf(out, "T%zu's write of key ", iso_name_of(&x->nm, x->p->wof[v]));
    iso_pc_val_text(&x->ctx->pc, x->st->keys.vals[w->key], out);
    iso_buf_puts(out, " (");
    iso_pc_val_text(&x->ctx->pc, w->val, out);
    iso_buf_puts(out, ")");
}

/* The cycle type case c's steps make. */
static int case_type(const proof *x, const struct solve_case *c)
{
    uint8_t *bits = iso_xmalloc((size_t)c->n_steps + 1);
    for (uint32_t i = 0; i < c->n_steps; i++) bits[i] = step_bit(x, &x->r->step[c->first_step + i]);
    int type = iso_cycle_classify(bits, c->n_steps);
    iso_free(bits);
    return type;
}

/* Step s of case number c in the picture: its edge type; a step the case
 * assumes "if" before its type and "case N:" before its words (a known
 * step is drawn once, whichever cases take it). */
static void draw_step(proof *x, ptrdiff_t c, const struct solve_step *s, const char *why)
{
    char type[32];
    iso_buf words = {0};
    snprintf(type, sizeof type, "%s%s", s->choice != UINT32_MAX ? "if " : "", iso_edge_name(step_bit(x, s)));
    if (s->choice != UINT32_MAX) iso_buf_printf(&words, "case %td: ", c + 1);
    iso_buf_puts(&words, why);
    iso_picture_edge(&x->pic, s->from, s->to, type, iso_buf_cstr(&words));
    iso_buf_free(&words);
}

/* One case: its assumptions, then its cycle step by step. */
static void one_case(proof *x, const struct solve_case *c, iso_buf *text, iso_buf *json)
{
    iso_buf_puts(text, c->n_assign ? "  - if " : "  - the known edges alone");
    iso_buf_puts(json, "{\"assume\":[");
    for (uint32_t i = 0; i < c->n_assign; i++) {
        const struct solve_assign *a = &x->r->assign[c->first_assign + i];
        uint32_t first = x->p->pair[2 * a->choice + a->side], then = x->p->pair[2 * a->choice + 1 - a->side];
        iso_buf_puts(text, i ? ", and " : "");
        write_words(x, first, text);
        iso_buf_printf(text, " came before T%zu's", iso_name_of(&x->nm, x->p->wof[then]));
        iso_buf_printf(json, "%s{\"key\":", i ? "," : "");
        iso_pc_val_json(&x->ctx->pc, x->st->keys.vals[x->st->ver[first].key], json);
        iso_buf_puts(json, ",\"first\":");
        iso_pc_val_json(&x->ctx->pc, x->st->ver[first].val, json);
        iso_buf_puts(json, ",\"then\":");
        iso_pc_val_json(&x->ctx->pc, x->st->ver[then].val, json);
        iso_buf_puts(json, "}");
    }
    int type = case_type(x, c);
    iso_buf_printf(text, " (%s):\n", iso_anomaly_name(type));
    iso_buf_printf(json, "],\"cycle-type\":\"%s\",\"cycle\":[", iso_anomaly_name(type));
    for (uint32_t i = 0; i <= c->n_steps; i++) {
        iso_buf_puts(json, i ? "," : "");
        iso_pc_op_json(&x->ctx->pc, x->r->step[c->first_step + i % c->n_steps].from, json);
    }
    iso_buf_puts(json, "],\"steps\":[");
    iso_buf why = {0};
    for (uint32_t i = 0; i < c->n_steps; i++) {
        const struct solve_step *s = &x->r->step[c->first_step + i];
        why.n = 0;
        iso_buf_puts(json, i ? "," : "");
        step_words(x, s, &why, json);
        int last = i + 1 == c->n_steps;
        iso_buf_printf(text, "      %sT%zu < T%zu, because %s%s\n", last ? "however, " : "", iso_name_of(&x->nm, s->from),
                       iso_name_of(&x->nm, s->to), iso_buf_cstr(&why), last ? ": a contradiction!" : ";");
        draw_step(x, c - x->r->cases, s, iso_buf_cstr(&why));
    }
    iso_buf_free(&why);
    iso_buf_puts(json, "]}");
}

/* The most specific cycle type every case's type implies: what the core
 * shows whichever case holds. */
static int common_type(const proof *x)
{
    int best = -1;
    for (int t = 0; t < ISO_N_CYCLE_TYPES; t++) {
        int all = 1;
        for (uint32_t c = 0; c < x->r->n_cases && all; c++) all = iso_anomaly_implies(case_type(x, &x->r->cases[c]), t);
        if (all && (best < 0 || iso_anomaly_implies(t, best))) best = t;
    }
    return best;
}

/* The model's cycle-exists type: what the core shows when no case type
 * the request reports is common to every case. */
static int exists_type(int model, int variant)
{
    static const int t[4][3] = {
        {ISO_A_PL_3_CYCLE_EXISTS, ISO_A_STRONG_SESSION_SERIALIZABLE_CYCLE_EXISTS, ISO_A_PL_SS_CYCLE_EXISTS},
        {ISO_A_PL_SI_CYCLE_EXISTS, ISO_A_STRONG_SESSION_SNAPSHOT_ISOLATION_CYCLE_EXISTS,
         ISO_A_STRONG_SNAPSHOT_ISOLATION_CYCLE_EXISTS},
        {ISO_A_G_SINGLE, ISO_A_G_SINGLE_PROCESS, ISO_A_G_SINGLE_REALTIME},
        {ISO_A_LONG_FORK, ISO_A_LONG_FORK, ISO_A_LONG_FORK}};
    return t[model][variant];
}

static void let(proof *x, iso_buf *text)
{
    iso_buf_puts(text, "Let:\n");
    for (size_t i = 0; i < x->nm.n; i++) {
        iso_buf_printf(text, "  T%zu = ", i + 1);
        iso_pc_op_text(&x->ctx->pc, x->nm.t[i], text);
        iso_buf_puts(text, "\n");
    }
}

/* The opening: which pairs the core leaves to choose. */
static void whichever(proof *x, iso_buf *text)
{
    const struct solve_result *r = x->r;
    if (r->n_core == 0) {
        iso_buf_puts(text, "\nThen, with the committed :info transactions' writes, a cycle follows:\n");
        return;
    }
    if (r->n_core == 1) {
        uint32_t a = x->p->pair[2 * r->core[0]], b = x->p->pair[2 * r->core[0] + 1];
        iso_buf_printf(text, "\nThen, whichever order T%zu and T%zu wrote key ", iso_name_of(&x->nm, x->p->wof[a]),
                       iso_name_of(&x->nm, x->p->wof[b]));
        iso_pc_val_text(&x->ctx->pc, x->st->keys.vals[x->st->ver[a].key], text);
        iso_buf_puts(text, " in, a cycle follows:\n");
        return;
    }
    iso_buf_printf(text, "\nThen, whichever orders the writers of these %u pairs took (", r->n_core);
    for (uint32_t i = 0; i < r->n_core; i++) {
        uint32_t a = x->p->pair[2 * r->core[i]], b = x->p->pair[2 * r->core[i] + 1];
        iso_buf_printf(text, "%sT%zu and T%zu of ", i ? "; " : "", iso_name_of(&x->nm, x->p->wof[a]),
                       iso_name_of(&x->nm, x->p->wof[b]));
        iso_pc_val_text(&x->ctx->pc, x->st->keys.vals[x->st->ver[a].key], text);
    }
    iso_buf_puts(text, "), a cycle follows in every case:\n");
}

void rw_exact_invalid(iso_ctx *ctx, const ex_poly *p, const struct solve_result *r, int model, int variant)
{
    proof x = {ctx, ctx->pc.wl_state, p, r, {0}, {0}};
    iso_buf body = {0}, cases = {0}, text = {0}, json = {0};
    for (uint32_t i = 0; i < r->n_core; i++) /* the pairs first, then the cycles' others */
        iso_name_of(&x.nm, p->wof[p->pair[2 * r->core[i]]]), iso_name_of(&x.nm, p->wof[p->pair[2 * r->core[i] + 1]]);
    for (uint32_t i = 0; i < r->n_step; i++) iso_name_of(&x.nm, r->step[i].from);
    for (size_t i = 0; i < x.nm.n; i++) iso_picture_txn(&x.pic, x.nm.t[i]);
    whichever(&x, &body);
    for (uint32_t c = 0; c < r->n_cases; c++) {
        iso_buf_puts(&cases, c ? "," : "");
        one_case(&x, &r->cases[c], &body, &cases);
    }
    if (r->proof_truncated)
        iso_buf_printf(&body, "  (more cases than are shown: the %u choices of the core cannot be made acyclic)\n",
                       r->n_core);
    int type = common_type(&x);
    if (type < 0 || !ctx->req->reportable[type]) type = exists_type(model, variant);
    let(&x, &text);
    iso_buf_put(&text, body.p, body.n);
    if (text.n && text.p[text.n - 1] == '\n') text.p[--text.n] = 0;
    iso_buf_printf(&json, "{\"type\":\"%s\",\"exact\":\"%s\",\"core-minimal\":%s,\"cases\":[%s]}", iso_anomaly_name(type),
                   rw_exact_name(model, variant), r->core_minimal ? "true" : "false", iso_buf_cstr(&cases));
    iso_findings_add_text(&ctx->findings, type, iso_buf_cstr(&text), iso_buf_cstr(&json));
    ctx->findings.f[ctx->findings.n - 1].pic = iso_picture_keep(&x.pic);
    iso_free(x.nm.t);
    iso_buf_free(&body);
    iso_buf_free(&cases);
    iso_buf_free(&text);
    iso_buf_free(&json);
}

void rw_exact_unknown(iso_ctx *ctx, const struct solve_result *r, int model, int variant)
{
    iso_buf t = {0}, j = {0};
    iso_buf_printf(&t, "The exact check of %s ran out of its budget (%s) on a component of %u transactions, "
                   "which it leaves undecided; the first of them:", rw_exact_name(model, variant), r->why,
                   r->n_group_txns);
    iso_buf_printf(&j, "{\"type\":\"cycle-search-timeout\",\"exact\":\"%s\",\"why\":\"%s\",\"component\":[",
                   rw_exact_name(model, variant), r->why);
    for (uint32_t i = 0; i < r->n_group_txns; i++) {
        uint32_t txn = r->group_txns[i];
        if (i < 10) {
            iso_buf_puts(&t, "\n  ");
            iso_pc_op_text(&ctx->pc, txn, &t);
        }
        iso_buf_printf(&j, "%s%lld", i ? "," : "", (long long)iso_txn_op(ctx->pc.h, &ctx->pc.txns.t[txn])->index);
    }
    iso_buf_puts(&j, "]}");
    iso_findings_add_text(&ctx->findings, ISO_A_CYCLE_SEARCH_TIMEOUT, iso_buf_cstr(&t), iso_buf_cstr(&j));
    iso_buf_free(&t);
    iso_buf_free(&j);
}

/* ---- the witness of a valid verdict -------------------------------------- */

/* Whether edge e counts for the model's order ((parallel) SI, prefix:
 * dependencies only). */
static int counts(const struct solve_input *in, const struct solve_edge *e)
{
    return in->model == SOLVE_SER || e->kind != SOLVE_ANTI;
}

static void add_out(const struct solve_input *in, const struct solve_edge *e, uint32_t *deg, uint32_t *off,
                    uint32_t *dst)
{
    if (!counts(in, e)) return;
    if (dst) dst[off[e->from]++] = e->to;
    else deg[e->from + 1]++;
}

/* Every known edge and every chosen side's, in one pass (dst NULL:
 * counting them per source). */
static void each_edge(const struct solve_input *in, const struct solve_result *r, uint32_t *deg, uint32_t *off,
                      uint32_t *dst)
{
    for (size_t i = 0; i < in->n_edges; i++) add_out(in, &in->edges[i], deg, off, dst);
    for (uint32_t c = 0; c < in->n_choices; c++) {
        uint32_t s = r->side[c] == SOLVE_SIDE_NONE ? 0 : r->side[c];
        for (size_t i = in->side_start[2 * c + s]; i < in->side_start[2 * c + s + 1]; i++)
            add_out(in, &in->side_edges[i], deg, off, dst);
    }
}

/* Each transaction's place in a topological order of the witness's graph
 * (Kahn; acyclic, as the solver checked it). */
static uint32_t *ranks(const struct solve_input *in, const struct solve_result *r)
{
    uint32_t n = in->n_txns, *off = iso_xcalloc((size_t)n + 2, sizeof *off), *indeg = iso_xcalloc(n + 1, sizeof *indeg);
    each_edge(in, r, off, NULL, NULL);
    for (uint32_t v = 0; v < n; v++) off[v + 1] += off[v];
    uint32_t *dst = iso_xmalloc(((size_t)off[n] + 1) * sizeof *dst), *at = iso_xmalloc(((size_t)n + 1) * sizeof *at);
    memcpy(at, off, (size_t)n * sizeof *at);
    each_edge(in, r, NULL, at, dst);
    for (uint32_t i = 0; i < off[n]; i++) indeg[dst[i]]++;
    uint32_t *rank = iso_xmalloc(((size_t)n + 1) * sizeof *rank), k = 0;
    for (uint32_t v = 0; v < n; v++)
        if (!indeg[v]) at[k++] = v;
    for (uint32_t h = 0; h < k; h++)
        for (uint32_t i = off[at[h]]; i < off[at[h] + 1]; i++)
            if (--indeg[dst[i]] == 0) at[k++] = dst[i];
    for (uint32_t v = 0; v < n; v++) rank[v] = UINT32_MAX; /* unranked (never, for a valid result) */
    for (uint32_t h = 0; h < k; h++) rank[at[h]] = h;
    iso_free(off);
    iso_free(indeg);
    iso_free(dst);
    iso_free(at);
    return rank;
}

/* "version-order": each key's ok writes in the order of their writers' ranks. */
static void version_order(const iso_ctx *ctx, const uint32_t *wof, const uint32_t *rank, iso_buf *j)
{
    const rw_state *st = ctx->pc.wl_state;
    uint64_t *w = iso_xmalloc((st->n_ver + 1) * sizeof *w);
    iso_buf_puts(j, ",\"version-order\":[");
    for (uint32_t key = 0, first = 1; key < st->keys.n; key++) {
        uint32_t lo = st->nil_ver[key], hi = key + 1 < st->keys.n ? st->nil_ver[key + 1] : (uint32_t)st->n_ver, n = 0;
        for (uint32_t v = lo; v < hi; v++)
            if (wof[v] != ISO_NONE) w[n++] = (uint64_t)rank[wof[v]] << 32 | v;
        if (!n) continue;
        qsort(w, n, sizeof *w, rw_cmp_u64);
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

void rw_exact_witness(iso_ctx *ctx, const ex_poly *p, const struct solve_input *in, const struct solve_result *r, const char *model)
{
    uint32_t *rank = ranks(in, r);
    iso_buf j = {0};
    iso_buf_printf(&j, "{\"model\":\"%s\"", model);
    version_order(ctx, p->wof, rank, &j);
    iso_buf_puts(&j, ",\"transaction-order\":{");
    for (uint32_t t = 0, first = 1; t < in->n_txns; t++) {
        if (ctx->pc.txns.t[t].type != ISO_OP_OK || rank[t] == UINT32_MAX) continue;
        iso_buf_printf(&j, "%s\"%lld\":%u", first ? "" : ",", (long long)iso_txn_op(ctx->pc.h, &ctx->pc.txns.t[t])->index,
                       rank[t] + 1);
        first = 0;
    }
    iso_buf_puts(&j, "}}");
    iso_free(ctx->pc.witness);
    ctx->pc.witness = iso_xstrdup(iso_buf_cstr(&j));
    iso_buf_free(&j);
    iso_free(rank);
}
