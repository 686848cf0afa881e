/*
 * elle/list_append/causal_proof.c -- causal.c's findings in Elle's words:
 * a causality violation names the causal path from the writer to the
 * reader (each step an observation, "T2 observed T1's append of 1 to key
 * x", or session order, "T3 follows T2 in its process") and the read that
 * misses the writer's append; a cycle names each step, version order
 * ("T2 appended 2 after T1 appended 1 to key x") among them. The path is a
 * shortest one (breadth-first, backwards from the reader, through
 * transactions ranked at or after the writer), of observation alone when
 * there is one: then the violation is causal-cerone's (causality-
 * violation), else causal's (causality-violation-process).
 */
#include "elle/list_append/causal.h"
#include "elle/picture.h"

#include <string.h>

/* path[0 .. n): the writer first; kind[i]: how path[i] precedes path[i + 1]. */
typedef struct cv_path {
    uint32_t *txn;
    uint8_t *kind;
    size_t n, cap, cap_kind;
} cv_path;

static void scratch(cv *c)
{
    if (c->parent) return;
    c->parent = iso_xmalloc(((size_t)c->n + 1) * sizeof *c->parent);
    c->queue = iso_xmalloc(((size_t)c->n + 1) * sizeof *c->queue);
    c->how = iso_xmalloc((size_t)c->n + 1);
    memset(c->parent, 0xff, ((size_t)c->n + 1) * sizeof *c->parent);
}

void cv_proof_free(cv *c)
{
    iso_free(c->parent);
    iso_free(c->queue);
    iso_free(c->how);
}

/* A shortest path w -> ... -> t of the kinds in mask, into path; 0 when
 * there is none. c's scratch is left as it was found. */
static int shortest(cv *c, uint32_t t, uint32_t w, uint8_t mask, cv_path *path)
{
    size_t head = 0, tail = 0;
    c->queue[tail++] = t;
    c->parent[t] = t;
    while (head < tail && c->parent[w] == ISO_NONE) {
        uint32_t v = c->queue[head++];
        for (uint32_t i = c->poff[v]; i < c->poff[v + 1]; i++) {
            uint32_t p = c->p[i];
            if (!(c->pk[i] & mask) || c->parent[p] != ISO_NONE || c->rank[p] == ISO_NONE || c->rank[p] < c->rank[w])
                continue;
            c->parent[p] = v, c->how[p] = c->pk[i];
            c->queue[tail++] = p;
        }
    }
    int found = c->parent[w] != ISO_NONE;
    path->n = 0;
    for (uint32_t v = w; found; v = c->parent[v]) {
        size_t nk = path->n;
        ISO_PUSH(path->txn, path->n, path->cap, v);
        if (v == t) break;
        ISO_PUSH(path->kind, nk, path->cap_kind, c->how[v]);
    }
    for (size_t i = 0; i < tail; i++) c->parent[c->queue[i]] = ISO_NONE;
    return found;
}

/* Where transaction r's reads show an append of w: its micro-op *j and
 * the element's index *at in it. */
static void shown(const cv *c, uint32_t w, uint32_t r, size_t *j, size_t *at)
{
    const iso_store *s = &c->pc->h->store;
    size_t n;
    const iso_val *m = la_txn_mops(c->pc, r, &n);
    for (*j = 0; *j < n; ++*j) {
        if (la_mop_kind(c->st, m[*j]) != LA_READ) continue;
        uint32_t key = iso_keys_find(&c->st->keys, mop_key(s, m[*j]));
        size_t len;
        const iso_val *items = la_read_items(s, mop_val(s, m[*j]), &len);
        for (*at = 0; key != ISO_NONE && *at < len; ++*at) {
            const la_append *a = la_find(c->st, key, items[*at]);
            if (a && a->txn == w) return;
        }
    }
}

/* b's append that follows one of a's in a key's version order: 1, with
 * the key and both values, or 0. */
static int follows(const cv *c, uint32_t a, uint32_t b, iso_val *key, iso_val *va, iso_val *vb)
{
    const la_state *st = c->st;
    for (size_t i = la_first_append(st, b); i < st->n_ap && st->ap[i].txn == b; i++) {
        const la_append *x = &st->ap[i];
        if (!la_positional(&st->k[x->key]) || x->pos == ISO_NONE || !x->pos) continue;
        uint32_t prev = st->at[st->k[x->key].slot0 + x->pos - 1];
        if (prev == ISO_NONE || st->ap[prev].txn != a) continue;
        *key = st->keys.vals[x->key], *va = la_value(st, &st->ap[prev]), *vb = la_value(st, x);
        return 1;
    }
    return 0;
}

/* Step i of the path in words; the transactions are named T1 .. Tnames,
 * round. */
static void step_text(const cv *c, const cv_path *path, size_t i, size_t names, iso_fb *f)
{
    const iso_store *s = &c->pc->h->store;
    size_t from = i + 1, to = (i + 1) % names + 1;
    uint32_t a = path->txn[i], b = path->txn[i + 1];
    iso_val key, va, vb;
    size_t j = 0, at = 0, n, len;
    const iso_val *m = la_txn_mops(c->pc, b, &n);
    if (path->kind[i] & CV_OBS) shown(c, a, b, &j, &at);
    if ((path->kind[i] & CV_OBS) && j < n) {
        iso_buf_printf(&f->text, "T%zu observed T%zu's append of ", to, from);
        iso_fb_val(c->pc, f, la_read_items(s, mop_val(s, m[j]), &len)[at]);
        iso_buf_puts(&f->text, " to key ");
        iso_fb_val(c->pc, f, mop_key(s, m[j]));
    } else if (path->kind[i] & CV_SO) {
        iso_buf_printf(&f->text, "T%zu follows T%zu in its process", to, from);
    } else if (follows(c, a, b, &key, &va, &vb)) {
        iso_buf_printf(&f->text, "T%zu appended ", to);
        iso_fb_val(c->pc, f, vb);
        iso_buf_printf(&f->text, " after T%zu appended ", from);
        iso_fb_val(c->pc, f, va);
        iso_buf_puts(&f->text, " to key ");
        iso_fb_val(c->pc, f, key);
    }
}

/* The steps of path (its transactions in pic first, as the proof's Let:
 * names them), step i's words text's bytes [at[2i], at[2i + 1]). */
static void draw_path(const cv_path *path, size_t steps, const iso_buf *text, const size_t *at, iso_picture *pic)
{
    for (size_t i = 0; i < steps; i++) iso_picture_txn(pic, path->txn[i]);
    iso_buf w = {0};
    for (size_t i = 0; i < steps; i++) {
        const char *type = path->kind[i] & CV_OBS ? "wr" : path->kind[i] & CV_SO ? "process" : "ww";
        w.n = 0;
        iso_buf_put(&w, text->p + at[2 * i], at[2 * i + 1] - at[2 * i]);
        iso_picture_edge(pic, path->txn[i], path->txn[i + 1], type, iso_buf_cstr(&w));
    }
    iso_buf_free(&w);
}

/* The path's steps in words, separated by ", ", where each starts and ends
 * in at (2 steps entries). */
static void path_text(const cv *c, const cv_path *path, size_t steps, size_t names, iso_fb *f, size_t *at)
{
    for (size_t i = 0; i < steps; i++) {
        if (i) iso_buf_puts(&f->text, ", ");
        at[2 * i] = f->text.n;
        step_text(c, path, i, names, f);
        at[2 * i + 1] = f->text.n;
    }
}

static int uses_so(const cv_path *path)
{
    for (size_t i = 0; i + 1 < path->n; i++)
        if (!(path->kind[i] & CV_OBS) && (path->kind[i] & CV_SO)) return 1;
    return 0;
}

/* w's last append to key in the version order (unread ones last). */
static const la_append *last_to(const la_state *st, uint32_t w, uint32_t key)
{
    const la_append *best = NULL;
    for (size_t i = la_first_append(st, w); i < st->n_ap && st->ap[i].txn == w; i++)
        if (st->ap[i].key == key && (!best || best->pos != ISO_NONE)) best = &st->ap[i];
    return best;
}

static void render_missed(iso_ctx *ctx, const cv *c, const cv_path *path, iso_val read, uint32_t key, int type)
{
    const iso_store *s = &c->pc->h->store;
    iso_val missed = la_value(c->st, last_to(c->st, path->txn[0], key));
    iso_fb f = {{0}, {0}};
    iso_fb_let(c->pc, &f, path->txn, path->n);
    iso_buf_printf(&f.text, "T1 is in T%zu's causal past: ", path->n);
    size_t *at = iso_xmalloc(2 * path->n * sizeof *at);
    path_text(c, path, path->n - 1, path->n, &f, at);
    iso_picture pic = {0};
    draw_path(path, path->n - 1, &f.text, at, &pic);
    iso_free(at);
    size_t yet = f.text.n + strlen("; yet ");
    iso_buf_printf(&f.text, "; yet T%zu read key ", path->n);
    iso_fb_val(c->pc, &f, mop_key(s, read));
    iso_buf_puts(&f.text, " as ");
    iso_fb_val(c->pc, &f, mop_val(s, read));
    iso_buf_puts(&f.text, ", which does not contain T1's append of ");
    iso_fb_val(c->pc, &f, missed);
    iso_picture_edge(&pic, path->txn[path->n - 1], path->txn[0], "misses", f.text.p + yet);
    iso_buf_puts(&f.text, ": a causality violation (causal consistency makes every write in a "
                          "transaction's causal past visible to it).");
    iso_fb_field_op(c->pc, &f, "op", path->txn[path->n - 1]);
    iso_fb_field_op(c->pc, &f, "writer", path->txn[0]);
    iso_fb_field_ops(c->pc, &f, "path", path->txn, path->n);
    iso_fb_field(c->pc, &f, "mop", read);
    iso_fb_field(c->pc, &f, "element", missed);
    iso_fb_emit_picture(&ctx->findings, &f, type, &pic);
}

void cv_report_missed(iso_ctx *ctx, cv *c, uint32_t t, uint32_t j, uint32_t w, uint32_t key)
{
    cv_path path = {0};
    scratch(c);
    int found = shortest(c, t, w, CV_OBS, &path) || shortest(c, t, w, CV_OBS | CV_SO, &path);
    int so = found && uses_so(&path);
    /* without session order the search finds it as a G-single when that is asked */
    if (found && (so || !ctx->req->reportable[ISO_A_G_SINGLE])) {
        size_t n;
        const iso_val *m = la_txn_mops(c->pc, t, &n);
        render_missed(ctx, c, &path, m[j], key, so ? ISO_A_CAUSALITY_VIOLATION_PROCESS : ISO_A_CAUSALITY_VIOLATION);
    }
    iso_free(path.txn);
    iso_free(path.kind);
}

/* Walked back from an unranked transaction through unranked predecessors
 * until one repeats: the cycle, first transaction again last. */
static void find_cycle(const cv *c, cv_path *path)
{
    uint32_t *seen = iso_xcalloc((size_t)c->n + 1, sizeof *seen), t = 0, *back = NULL;
    uint8_t *kind = NULL;
    size_t n = 0, cap = 0, nk = 0, cap_k = 0;
    while (!c->in[t] || c->rank[t] != ISO_NONE) t++;
    while (!seen[t]) {
        seen[t] = (uint32_t)n + 1;
        ISO_PUSH(back, n, cap, t);
        uint32_t i = c->poff[t];
        while (c->rank[c->p[i]] != ISO_NONE) i++;
        ISO_PUSH(kind, nk, cap_k, c->pk[i]);
        t = c->p[i];
    }
    size_t from = seen[t] - 1, nf = 0; /* back[from] <- back[n - 1] <- ... <- back[from] */
    path->n = 0;
    ISO_PUSH(path->txn, path->n, path->cap, back[from]);
    for (size_t i = n; i-- > from;) {
        ISO_PUSH(path->kind, nf, path->cap_kind, kind[i]);
        ISO_PUSH(path->txn, path->n, path->cap, i > from ? back[i] : back[from]);
    }
    iso_free(seen);
    iso_free(back);
    iso_free(kind);
}

void cv_report_cycle(iso_ctx *ctx, const cv *c)
{
    cv_path path = {0};
    find_cycle(c, &path);
    size_t names = path.n - 1;
    if (uses_so(&path)) {
        iso_fb f = {{0}, {0}};
        iso_fb_let(c->pc, &f, path.txn, names);
        iso_buf_puts(&f.text, "A cycle of observation, session order and the version order reads show: ");
        size_t *at = iso_xmalloc(2 * (names + 1) * sizeof *at);
        path_text(c, &path, names, names, &f, at);
        iso_picture pic = {0};
        draw_path(&path, names, &f.text, at, &pic);
        iso_free(at);
        iso_buf_puts(&f.text, ": a causality violation (causal consistency's visibility is a partial order "
                              "containing the first two, within a total order of the transactions that "
                              "every read's list follows).");
        iso_fb_field_ops(c->pc, &f, "cycle", path.txn, path.n);
        iso_fb_emit_picture(&ctx->findings, &f, ISO_A_CAUSALITY_VIOLATION_PROCESS, &pic);
    }
    iso_free(path.txn);
    iso_free(path.kind);
}

void cv_report_scattered(iso_ctx *ctx, const cv *c, size_t a, size_t b, uint32_t r, uint32_t j)
{
    const iso_store *s = &c->pc->h->store;
    const la_append *x = &c->st->ap[a], *y = &c->st->ap[b];
    uint32_t txns[2] = {y->txn, r};
    size_t n;
    const iso_val *m = la_txn_mops(c->pc, r, &n);
    iso_fb f = {{0}, {0}};
    iso_fb_let(c->pc, &f, txns, 2);
    size_t from = f.text.n;
    iso_buf_puts(&f.text, "T1 appended ");
    iso_fb_val(c->pc, &f, la_value(c->st, x));
    iso_buf_puts(&f.text, " and then ");
    iso_fb_val(c->pc, &f, la_value(c->st, y));
    iso_buf_puts(&f.text, " to key ");
    iso_fb_val(c->pc, &f, mop_key(s, m[j]));
    iso_buf_puts(&f.text, ", yet T2 read it as ");
    iso_fb_val(c->pc, &f, mop_val(s, m[j]));
    iso_buf_puts(&f.text, x->pos == ISO_NONE ? ", which shows the second without the first"
                          : ", which does not show the second just after the first");
    iso_picture pic = {0};
    iso_picture_txn(&pic, y->txn);
    iso_picture_edge(&pic, y->txn, r, "wr", f.text.p + from);
    iso_buf_puts(&f.text, ": a causality violation (causal consistency shows a visible transaction's appends "
                          "to a key together, in its order).");
    iso_fb_field_op(c->pc, &f, "op", r);
    iso_fb_field_op(c->pc, &f, "writer", y->txn);
    iso_fb_field(c->pc, &f, "mop", m[j]);
    iso_fb_field(c->pc, &f, "element", la_value(c->st, y));
    iso_fb_emit_picture(&ctx->findings, &f, ISO_A_CAUSALITY_VIOLATION, &pic);
}
