/*
 * elle/exact.c -- the exact check's workload-free part (exact.h): which
 * problems a request needs, the polygraph's edges and choices, lib/solve's
 * answer as a finding proved by cases, an unknown, or a witness.
 * Invariant: every step a proof tells is an edge the polygraph holds
 * (known, or of the case's assumed order), so the proof is checkable by
 * hand; a valid answer is claimed only when every problem was decided.
 */
#include "elle/exact.h"
#include "elle/picture.h"
#include "elle/render.h"

#include <stdio.h>
#include <string.h>

/* The solver's budget per group, 5x lib/solve's defaults: enough for the
 * sim's 100k serializable and 10k SI rw-register histories (bench/exact.sh:
 * valid in ~10 s and ~4 s, where the defaults end unknown), while its 100k
 * SI one ends unknown at ~600 MB (1 GB at 10x). */
#define EX_CONFLICTS 1000000
#define EX_REFINEMENTS 1000000

const char *iso_exact_name(int model, int variant)
{
    static const char *const names[4][3] = {
        {"serializable", "strong-session-serializable", "strict-serializable"},
        {"snapshot-isolation", "strong-session-snapshot-isolation", "strong-snapshot-isolation"},
        {"parallel-snapshot-isolation", "parallel-snapshot-isolation", "parallel-snapshot-isolation"},
        {"prefix", "prefix", "prefix"}};
    return names[model < 0 || model > SOLVE_PC ? 0 : model][variant < 0 || variant > 2 ? 0 : variant];
}

/* ---- which problems ------------------------------------------------------ */

/* The strongest variant (ISO_CV_*) of cycle base b the request reports, or
 * -1. */
static int strongest(const iso_request *q, int base)
{
    for (int v = ISO_CV_REALTIME; v >= ISO_CV_PLAIN; v--)
        if (q->reportable[ISO_CYCLE(base, v)]) return v;
    return -1;
}

/* Whether a finding the request reports is already there. */
static int already_invalid(const iso_ctx *ctx)
{
    for (size_t i = 0; i < ctx->findings.n; i++)
        if (ctx->req->reportable[ctx->findings.f[i].type]) return 1;
    return 0;
}

/* Serializable with the strongest order asked, SI only where it asks for
 * an order serializable's problem does not have (a serializable witness
 * is one for SI too), and parallel SI and prefix (plain: Elle's have no
 * session order; neither implies the other) where neither SER nor SI is
 * asked. */
int iso_exact_problems(const iso_ctx *ctx, uint8_t extra, int m[4], int v[4])
{
    const iso_request *q = ctx->req;
    int ser = strongest(q, ISO_CB_G2), si = strongest(q, ISO_CB_G_NONADJACENT), n = 0;
    int psi = strongest(q, ISO_CB_G_SINGLE), weaker = ser < 0 && si < 0;
    if (ser >= 0) m[n] = SOLVE_SER, v[n++] = ser;
    if (si > ser) m[n] = SOLVE_SI, v[n++] = si;
    if (psi == ISO_CV_PLAIN && weaker) m[n] = SOLVE_PSI, v[n++] = psi;
    if (q->reportable[ISO_A_LONG_FORK] && weaker) m[n] = SOLVE_PC, v[n++] = ISO_CV_PLAIN;
    const char *when = ctx->co->exact ? ctx->co->exact : "auto";
    if (!strcmp(when, "never") || already_invalid(ctx)) return 0;
    for (int i = 0; i < n; i++) /* an order the graph does not have: not decided here */
        if ((v[i] == ISO_CV_PROCESS && !(extra & ISO_EDGE_PROCESS)) ||
            (v[i] == ISO_CV_REALTIME && !(extra & ISO_EDGE_REALTIME)))
            return 0;
    return n;
}

/* ---- the polygraph ------------------------------------------------------- */

long iso_exact_known(iso_exact *x, uint32_t a, uint32_t b, uint8_t bit)
{
    if (a == b || a == ISO_NONE || b == ISO_NONE) return -1;
    size_t cap = x->cap;
    ISO_GROW(x->e, x->cap, x->n + 1);
    if (x->cap != cap) x->bit = iso_xrealloc(x->bit, x->cap * sizeof *x->bit);
    uint32_t kind = bit == ISO_EDGE_RW ? SOLVE_ANTI : bit == ISO_EDGE_WR ? SOLVE_READ : SOLVE_DEP;
    x->e[x->n] = (struct solve_edge){a, b, kind};
    x->bit[x->n] = bit;
    return (long)x->n++;
}

void iso_exact_choice(iso_exact *x, uint32_t wa, uint32_t wb, uint32_t ta, uint32_t tb)
{
    if (!x->start) {
        x->start = iso_xmalloc((x->cap_start = 16) * sizeof *x->start);
        x->start[0] = 0;
        x->n_start = 1;
    }
    size_t cap = x->cap_ch;
    ISO_GROW(x->pair, x->cap_ch, (size_t)2 * x->n_ch + 2);
    if (x->cap_ch != cap) x->writer = iso_xrealloc(x->writer, x->cap_ch * sizeof *x->writer);
    x->pair[2 * x->n_ch] = wa, x->pair[2 * x->n_ch + 1] = wb;
    x->writer[2 * x->n_ch] = ta, x->writer[2 * x->n_ch + 1] = tb;
    ISO_GROW(x->start, x->cap_start, (size_t)2 * x->n_ch + 3);
    x->n_ch++;
}

void iso_exact_side_edge(iso_exact *x, uint32_t from, uint32_t to, uint32_t kind)
{
    if (from == to) return;
    ISO_PUSH(x->se, x->n_se, x->cap_se, ((struct solve_edge){from, to, kind}));
}

void iso_exact_side_end(iso_exact *x) { x->start[x->n_start++] = x->n_se; }

void iso_exact_free(iso_exact *x)
{
    iso_free(x->e);
    iso_free(x->bit);
    iso_free(x->pair);
    iso_free(x->writer);
    iso_free(x->start);
    iso_free(x->se);
}

/* The order edges of variant v after the data edges: process order from
 * g's rows, or real-time order from its windows (between transactions
 * x->in keeps). */
static void variant_edges(const iso_graph *g, int v, iso_exact *x)
{
    x->n = x->n_data;
    uint32_t n = iso_graph_txns(g);
    for (uint32_t a = 0; v == ISO_CV_PROCESS && a < n; a++)
        for (uint32_t i = g->off[a]; i < g->off[a + 1] && (!x->in || x->in[a]); i++)
            if (g->dst[i] < n && (g->bits[i] & ISO_EDGE_PROCESS) && (!x->in || x->in[g->dst[i]]))
                iso_exact_known(x, a, g->dst[i], ISO_EDGE_PROCESS);
    for (uint32_t a = 0; v == ISO_CV_REALTIME && g->rt && a < n; a++)
        for (uint32_t r = g->rt->lo[a]; r < g->rt->hi[a] && (!x->in || x->in[a]); r++)
            if (!x->in || x->in[g->rt->order[r]]) iso_exact_known(x, a, g->rt->order[r], ISO_EDGE_REALTIME);
}

/* ---- the proof of an invalid answer -------------------------------------- */

typedef struct proof {
    iso_ctx *ctx;
    const iso_exact *x;
    const iso_exact_words *w;
    const struct solve_result *r;
    iso_names nm;
    iso_picture pic; /* every case's cycle, its steps labelled by case */
} proof;

/* The edge bit a step stands for: a side's edges are ww, then rw. */
static uint8_t step_bit(const proof *p, const struct solve_step *s)
{
    if (s->choice == UINT32_MAX) return p->x->bit[s->edge];
    return p->x->se[s->edge].kind == SOLVE_ANTI ? ISO_EDGE_RW : ISO_EDGE_WW;
}

static void step_words(proof *p, const struct solve_step *s, iso_buf *text, iso_buf *json)
{
    char ta[24], tb[24];
    snprintf(ta, sizeof ta, "T%zu", iso_name_of(&p->nm, s->from));
    snprintf(tb, sizeof tb, "T%zu", iso_name_of(&p->nm, s->to));
    uint8_t bit = step_bit(p, s);
    if (s->choice != UINT32_MAX) {
        const uint32_t *pair = p->x->pair + 2 * s->choice;
        p->w->assumed(p->ctx, p->x, s, bit, pair[s->side], pair[1 - s->side], ta, tb, text, json);
    } else if (bit & (ISO_EDGE_WW | ISO_EDGE_WR | ISO_EDGE_RW)) {
        p->w->known(p->ctx, p->x, s->edge, s->from, s->to, ta, tb, text, json);
    } else {
        iso_explain_edge(&p->ctx->pc, s->from, s->to, bit, ta, tb, text, json);
    }
}

/* "T1's write of key :x (100)" of write w by transaction t. */
static void write_words(proof *p, uint32_t w, uint32_t t, iso_buf *out)
{
    char tw[24];
    iso_val key, val;
    p->w->kv(p->ctx, p->x, w, &key, &val);
    snprintf(tw, sizeof tw, "T%zu", iso_name_of(&p->nm, t));
    iso_edge_text(&p->ctx->pc, out, p->w->write_fmt, tw, "", key, val, val);
}

/* The cycle type case c's steps make. */
static int case_type(const proof *p, const struct solve_case *c)
{
    uint8_t *bits = iso_xmalloc((size_t)c->n_steps + 1);
    for (uint32_t i = 0; i < c->n_steps; i++) bits[i] = step_bit(p, &p->r->step[c->first_step + i]);
    int type = iso_cycle_classify(bits, c->n_steps);
    iso_free(bits);
    return type;
}

/* Step s of case number c in the picture: its edge type; a step the case
 * assumes "if" before its type and "case N:" before its words (a known
 * step is drawn once, whichever cases take it). */
static void draw_step(proof *p, ptrdiff_t c, const struct solve_step *s, const char *why)
{
    char type[32];
    iso_buf words = {0};
    snprintf(type, sizeof type, "%s%s", s->choice != UINT32_MAX ? "if " : "", iso_edge_name(step_bit(p, s)));
    if (s->choice != UINT32_MAX) iso_buf_printf(&words, "case %td: ", c + 1);
    iso_buf_puts(&words, why);
    iso_picture_edge(&p->pic, s->from, s->to, type, iso_buf_cstr(&words));
    iso_buf_free(&words);
}

/* One assumption of a case: "T1's write of key x (1) came before T2's",
 * and its JSON {"key","first","then"}. */
static void assumption(proof *p, const struct solve_assign *a, int i, iso_buf *text, iso_buf *json)
{
    uint32_t c = a->choice, s = a->side, first = p->x->pair[2 * c + s], then = p->x->pair[2 * c + 1 - s];
    iso_val key, v1, v2;
    p->w->kv(p->ctx, p->x, first, &key, &v1);
    p->w->kv(p->ctx, p->x, then, &key, &v2);
    iso_buf_puts(text, i ? ", and " : "");
    write_words(p, first, p->x->writer[2 * c + s], text);
    iso_buf_printf(text, " came before T%zu's", iso_name_of(&p->nm, p->x->writer[2 * c + 1 - s]));
    iso_buf_printf(json, "%s{\"key\":", i ? "," : "");
    iso_pc_val_json(&p->ctx->pc, key, json);
    iso_buf_puts(json, ",\"first\":");
    iso_pc_val_json(&p->ctx->pc, v1, json);
    iso_buf_puts(json, ",\"then\":");
    iso_pc_val_json(&p->ctx->pc, v2, json);
    iso_buf_puts(json, "}");
}

/* One case: its assumptions, then its cycle step by step. */
static void one_case(proof *p, const struct solve_case *c, iso_buf *text, iso_buf *json)
{
    iso_buf_puts(text, c->n_assign ? "  - if " : "  - the known edges alone");
    iso_buf_puts(json, "{\"assume\":[");
    for (uint32_t i = 0; i < c->n_assign; i++) assumption(p, &p->r->assign[c->first_assign + i], (int)i, text, json);
    int type = case_type(p, c);
    iso_buf_printf(text, " (%s):\n", iso_anomaly_name(type));
    iso_buf_printf(json, "],\"cycle-type\":\"%s\",\"cycle\":[", iso_anomaly_name(type));
    for (uint32_t i = 0; i <= c->n_steps; i++) {
        iso_buf_puts(json, i ? "," : "");
        iso_pc_op_json(&p->ctx->pc, p->r->step[c->first_step + i % c->n_steps].from, json);
    }
    iso_buf_puts(json, "],\"steps\":[");
    iso_buf why = {0};
    for (uint32_t i = 0; i < c->n_steps; i++) {
        const struct solve_step *s = &p->r->step[c->first_step + i];
        why.n = 0;
        iso_buf_puts(json, i ? "," : "");
        step_words(p, s, &why, json);
        int last = i + 1 == c->n_steps;
        iso_buf_printf(text, "      %sT%zu < T%zu, because %s%s\n", last ? "however, " : "", iso_name_of(&p->nm, s->from),
                       iso_name_of(&p->nm, s->to), iso_buf_cstr(&why), last ? ": a contradiction!" : ";");
        draw_step(p, c - p->r->cases, s, iso_buf_cstr(&why));
    }
    iso_buf_free(&why);
    iso_buf_puts(json, "]}");
}

/* The most specific cycle type every case's type implies: what the core
 * shows whichever case holds. */
static int common_type(const proof *p)
{
    int best = -1;
    for (int t = 0; t < ISO_N_CYCLE_TYPES; t++) {
        int all = 1;
        for (uint32_t c = 0; c < p->r->n_cases && all; c++) all = iso_anomaly_implies(case_type(p, &p->r->cases[c]), t);
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

static void let(proof *p, iso_buf *text)
{
    iso_buf_puts(text, "Let:\n");
    for (size_t i = 0; i < p->nm.n; i++) {
        iso_buf_printf(text, "  T%zu = ", i + 1);
        iso_pc_op_text(&p->ctx->pc, p->nm.t[i], text);
        iso_buf_puts(text, "\n");
    }
}

/* "T1 and T2 wrote key x" of choice c, into text. */
static void pair_words(proof *p, uint32_t c, iso_buf *text, const char *verb)
{
    iso_val key, val;
    p->w->kv(p->ctx, p->x, p->x->pair[2 * c], &key, &val);
    iso_buf_printf(text, "T%zu and T%zu%s", iso_name_of(&p->nm, p->x->writer[2 * c]),
                   iso_name_of(&p->nm, p->x->writer[2 * c + 1]), verb);
    iso_pc_val_text(&p->ctx->pc, key, text);
}

/* The opening: which pairs the core leaves to choose. */
static void whichever(proof *p, iso_buf *text)
{
    const struct solve_result *r = p->r;
    if (r->n_core == 0) {
        iso_buf_puts(text, "\nThen, with the committed :info transactions' writes, a cycle follows:\n");
        return;
    }
    if (r->n_core == 1) {
        iso_buf_puts(text, "\nThen, whichever order ");
        pair_words(p, r->core[0], text, " wrote key ");
        iso_buf_puts(text, " in, a cycle follows:\n");
        return;
    }
    iso_buf_printf(text, "\nThen, whichever orders the writers of these %u pairs took (", r->n_core);
    for (uint32_t i = 0; i < r->n_core; i++) {
        iso_buf_puts(text, i ? "; " : "");
        pair_words(p, r->core[i], text, " of ");
    }
    iso_buf_puts(text, "), a cycle follows in every case:\n");
}

static void invalid(iso_ctx *ctx, const iso_exact *x, const iso_exact_words *w, const struct solve_result *r,
                    int model, int variant)
{
    proof p = {ctx, x, w, r, {0}, {0}};
    iso_buf body = {0}, cases = {0}, text = {0}, json = {0};
    for (uint32_t i = 0; i < r->n_core; i++) /* the pairs first, then the cycles' others */
        iso_name_of(&p.nm, x->writer[2 * r->core[i]]), iso_name_of(&p.nm, x->writer[2 * r->core[i] + 1]);
    for (uint32_t i = 0; i < r->n_step; i++) iso_name_of(&p.nm, r->step[i].from);
    for (size_t i = 0; i < p.nm.n; i++) iso_picture_txn(&p.pic, p.nm.t[i]);
    whichever(&p, &body);
    for (uint32_t c = 0; c < r->n_cases; c++) {
        iso_buf_puts(&cases, c ? "," : "");
        one_case(&p, &r->cases[c], &body, &cases);
    }
    if (r->proof_truncated)
        iso_buf_printf(&body, "  (more cases than are shown: the %u choices of the core cannot be made acyclic)\n",
                       r->n_core);
    int type = common_type(&p);
    if (type < 0 || !ctx->req->reportable[type]) type = exists_type(model, variant);
    let(&p, &text);
    iso_buf_put(&text, body.p, body.n);
    if (text.n && text.p[text.n - 1] == '\n') text.p[--text.n] = 0;
    iso_buf_printf(&json, "{\"type\":\"%s\",\"exact\":\"%s\",\"core-minimal\":%s,\"cases\":[%s]}", iso_anomaly_name(type),
                   iso_exact_name(model, variant), r->core_minimal ? "true" : "false", iso_buf_cstr(&cases));
    iso_findings_add_text(&ctx->findings, type, iso_buf_cstr(&text), iso_buf_cstr(&json));
    ctx->findings.f[ctx->findings.n - 1].pic = iso_picture_keep(&p.pic);
    iso_free(p.nm.t);
    iso_buf_free(&body);
    iso_buf_free(&cases);
    iso_buf_free(&text);
    iso_buf_free(&json);
}

static void unknown(iso_ctx *ctx, const struct solve_result *r, int model, int variant)
{
    iso_buf t = {0}, j = {0};
    iso_buf_printf(&t, "The exact check of %s ran out of its budget (%s) on a component of %u transactions, "
                   "which it leaves undecided; the first of them:", iso_exact_name(model, variant), r->why,
                   r->n_group_txns);
    iso_buf_printf(&j, "{\"type\":\"cycle-search-timeout\",\"exact\":\"%s\",\"why\":\"%s\",\"component\":[",
                   iso_exact_name(model, variant), r->why);
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

/* ---- the witness of a valid answer --------------------------------------- */

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

/* The witness (JSON, into ctx->pc.witness): the workload's version order
 * per key and, where the ranks cover every edge, a transaction order that
 * gives it. */
static void witness(iso_ctx *ctx, const iso_exact *x, const iso_exact_words *w, const struct solve_input *in,
                    const struct solve_result *r, const char *model)
{
    uint32_t *rank = ranks(in, r);
    iso_buf j = {0};
    iso_buf_printf(&j, "{\"model\":\"%s\"", model);
    w->version_order(ctx, x, rank, &j);
    if (w->txn_order) iso_buf_puts(&j, ",\"transaction-order\":{");
    for (uint32_t t = 0, first = 1; w->txn_order && t < in->n_txns; t++) {
        if (ctx->pc.txns.t[t].type != ISO_OP_OK || rank[t] == UINT32_MAX) continue;
        iso_buf_printf(&j, "%s\"%lld\":%u", first ? "" : ",", (long long)iso_txn_op(ctx->pc.h, &ctx->pc.txns.t[t])->index,
                       rank[t] + 1);
        first = 0;
    }
    iso_buf_puts(&j, w->txn_order ? "}}" : "}");
    iso_free(ctx->pc.witness);
    ctx->pc.witness = iso_xstrdup(iso_buf_cstr(&j));
    iso_buf_free(&j);
    iso_free(rank);
}

/* ---- the check ---------------------------------------------------------- */

/* Solve problem (model, variant); 1 when it was decided (valid or
 * invalid), 0 when not. */
static int solve_one(iso_ctx *ctx, const iso_graph *g, iso_exact *x, const iso_exact_words *w, int model, int variant)
{
    variant_edges(g, variant, x);
    struct solve_input in = {(enum solve_model)model, (uint32_t)ctx->pc.txns.n, x->e, x->n, x->n_ch,
                             x->n_ch ? x->start : NULL, x->se, x->n_se, {EX_CONFLICTS, EX_REFINEMENTS, 0}};
    struct solve_result r;
    isolde_error err;
    if (solve_run(&in, &r, &err)) return 0; /* only out of memory: the guard's */
    char label[220]; /* with ISOLDE_TIMING: what settled the pairs (the bench prints it) */
    snprintf(label, sizeof label, "%s: exact %s: %llu pairs ordered by inference, %u not: %u free, %u pruned, %u solved "
             "(%u groups, %u unknown); solver %.3f s", w->tag, iso_exact_name(model, variant),
             (unsigned long long)x->n_ordered, r.stats.n_choices, r.stats.n_free, r.stats.n_pruned,
             r.stats.n_solved, r.stats.n_groups, r.stats.n_unknown_groups, r.stats.solver_seconds);
    iso_phase(label);
    int decided = r.verdict != SOLVE_UNKNOWN;
    if (r.verdict == SOLVE_INVALID) invalid(ctx, x, w, &r, model, variant);
    else if (r.verdict == SOLVE_VALID) witness(ctx, x, w, &in, &r, iso_exact_name(model, variant));
    else if (solve_has_sat()) unknown(ctx, &r, model, variant);
    solve_result_release(&r);
    return decided;
}

void iso_exact_run(iso_ctx *ctx, const iso_graph *g, iso_exact *x, const iso_exact_words *w, const int *m,
                   const int *v, int n, int trivial)
{
    const char *when = ctx->co->exact ? ctx->co->exact : "auto";
    if (!x->n_ch && trivial && strcmp(when, "always") != 0) {
        ctx->pc.exact = 1; /* the search was exact */
        return;
    }
    int decided = 1;
    for (int i = 0; i < n && decided && !already_invalid(ctx); i++) decided = solve_one(ctx, g, x, w, m[i], v[i]);
    ctx->pc.exact = (uint8_t)decided;
}
