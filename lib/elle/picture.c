/*
 * elle/picture.c -- the picture of a finding (elle/picture.h): a cycle as
 * found, a component's (cycle-exists, timeout) shortest cycles found
 * within a work budget, united, each edge explained as the proof explains
 * it; or the steps a renderer added beside its proof; and its DOT and
 * JSON, every label in the proof's words and escaped for the format.
 *
 * Invariant: a component's picture holds at most ISO_PIC_MAX_CYCLES cycles
 * and ISO_PIC_MAX_V transactions, found in at most PIC_WORK edge visits;
 * an edge holds a step (type and words) at most once.
 */
#include "elle/picture.h"
#include "elle/proof.h"
#include "elle/render.h"

#include <inttypes.h>
#include <string.h>

enum { PIC_WORK = 1 << 22, LABEL_MAX = 480, WRAP = 64 };


/* A label's text ("" when empty). */
static const char *str(const iso_buf *b) { return b->p ? b->p : ""; }

/* Position of txn in p, or ISO_NONE. */
static uint32_t pic_find(const iso_picture *p, uint32_t txn)
{
    for (uint32_t i = 0; i < p->n; i++)
        if (p->v[i] == txn) return i;
    return ISO_NONE;
}

uint32_t iso_picture_txn(iso_picture *p, uint32_t txn)
{
    uint32_t i = pic_find(p, txn);
    if (i != ISO_NONE) return i;
    ISO_PUSH(p->v, p->n, p->cap_v, txn);
    return p->n - 1;
}

/* The edge x -> y (positions) of p, or p->n_e. */
static size_t edge_find(const iso_picture *p, uint32_t x, uint32_t y)
{
    size_t k = 0;
    while (k < p->n_e && (p->e[k].a != x || p->e[k].b != y)) k++;
    return k;
}

/* Whether edge e holds the step type / words: its types and its lines
 * pair up in order. */
static int has_step(const iso_pic_edge *e, const char *type, const char *words)
{
    const char *t = str(&e->types), *w = str(&e->words);
    size_t nt = strlen(type), nw = strlen(words);
    for (;;) {
        const char *te = strchr(t, ','), *we = strchr(w, '\n');
        size_t lt = te ? (size_t)(te - t) : strlen(t), lw = we ? (size_t)(we - w) : strlen(w);
        if (lt == nt && lw == nw && !memcmp(t, type, nt) && !memcmp(w, words, nw)) return 1;
        if (!te || !we) return 0;
        t = te + 1, w = we + 1;
    }
}

/* Step x -> y (positions) of type, in words. */
static void add_step(iso_picture *p, uint32_t x, uint32_t y, const char *type, const char *words)
{
    size_t k = edge_find(p, x, y);
    if (k == p->n_e) ISO_PUSH(p->e, p->n_e, p->cap_e, ((iso_pic_edge){x, y, {0}, {0}}));
    iso_pic_edge *e = &p->e[k];
    if (e->types.n && has_step(e, type, words)) return;
    if (e->types.n) iso_buf_puts(&e->types, ","), iso_buf_puts(&e->words, "\n");
    iso_buf_puts(&e->types, type);
    iso_buf_puts(&e->words, words);
}

void iso_picture_edge(iso_picture *p, uint32_t a, uint32_t b, const char *type, const char *words)
{
    uint32_t x = iso_picture_txn(p, a);
    add_step(p, x, iso_picture_txn(p, b), type, words);
}

/* Edge x -> y (positions) carrying bits, a step per bit explained as the
 * cycle's proof explains it. */
static void add_bits(const iso_proof_ctx *pc, iso_picture *p, uint32_t x, uint32_t y, uint8_t bits)
{
    char ta[16], tb[16];
    snprintf(ta, sizeof ta, "T%" PRIu32, x + 1);
    snprintf(tb, sizeof tb, "T%" PRIu32, y + 1);
    iso_buf words = {0}, json = {0};
    for (int k = 0; k < ISO_EDGE_N; k++) {
        if (!(bits & 1 << k)) continue;
        words.n = json.n = 0;
        iso_explain_edge(pc, p->v[x], p->v[y], 1 << k, ta, tb, &words, &json);
        add_step(p, x, y, iso_edge_name(1 << k), iso_buf_cstr(&words));
    }
    iso_buf_free(&words);
    iso_buf_free(&json);
}

static void pic_cycle(const iso_proof_ctx *pc, const iso_cycle *c, iso_picture *p)
{
    for (uint32_t i = 0; i < c->len; i++) iso_picture_txn(p, c->v[i]);
    for (uint32_t i = 0; i < c->len; i++) add_bits(pc, p, i, (i + 1) % c->len, c->e[i]);
}

/* The BFS state for shortest cycles in a subgraph (positions in s->v). */
typedef struct bfs {
    const iso_subgraph *s;
    uint32_t *parent, *stamp, *queue, round;
    uint64_t work;
} bfs;

/* The shortest cycle through start into out (its positions, start first):
 * its length, or 0 when none was found within the work left. */
static uint32_t shortest_through(bfs *b, uint32_t start, uint32_t *out)
{
    const iso_subgraph *s = b->s;
    uint32_t head = 0, tail = 0;
    b->round++;
    b->stamp[start] = b->round;
    b->queue[tail++] = start;
    while (head < tail && b->work < PIC_WORK) {
        uint32_t u = b->queue[head++];
        for (uint32_t k = s->off[u]; k < s->off[u + 1]; k++, b->work++) {
            uint32_t w = s->dst[k];
            if (w == start) {
                uint32_t len = 0;
                for (uint32_t x = u; x != start; x = b->parent[x]) out[len++] = x;
                out[len++] = start;
                for (uint32_t i = 0; i < len / 2; i++) {
                    uint32_t t = out[i]; out[i] = out[len - 1 - i]; out[len - 1 - i] = t;
                }
                return len;
            }
            if (b->stamp[w] == b->round) continue;
            b->stamp[w] = b->round, b->parent[w] = u, b->queue[tail++] = w;
        }
    }
    return 0;
}

/* The bits of edge x -> y of s (positions). */
static uint8_t sub_bits(const iso_subgraph *s, uint32_t x, uint32_t y)
{
    for (uint32_t k = s->off[x]; k < s->off[x + 1]; k++)
        if (s->dst[k] == y) return s->bits[k];
    return 0;
}

/* Add cycle c (len positions of s) to p, unless it would not fit or p
 * has it already (a rotation found from another start). */
static void pic_add_cycle(const iso_proof_ctx *pc, iso_picture *p, const iso_subgraph *s, const uint32_t *c,
                          uint32_t len)
{
    uint32_t fresh_v = 0, fresh = 0;
    for (uint32_t i = 0; i < len; i++) fresh_v += pic_find(p, s->v[c[i]]) == ISO_NONE;
    if (p->n + fresh_v > ISO_PIC_MAX_V) return;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t x = iso_picture_txn(p, s->v[c[i]]), y = iso_picture_txn(p, s->v[c[(i + 1) % len]]);
        if (edge_find(p, x, y) < p->n_e) continue;
        add_bits(pc, p, x, y, sub_bits(s, c[i], c[(i + 1) % len]));
        fresh = 1;
    }
    p->cycles += fresh;
}

static void pic_component(const iso_proof_ctx *pc, const iso_subgraph *s, iso_picture *p)
{
    p->comp_n = s->n;
    if (!s->off) return;
    p->comp_e = s->off[s->n];
    bfs b = {s, iso_xmalloc(s->n * sizeof *b.parent), iso_xcalloc(s->n, sizeof *b.stamp),
             iso_xmalloc(s->n * sizeof *b.queue), 0, 0};
    uint32_t *c = iso_xmalloc(s->n * sizeof *c);
    for (uint32_t x = 0; x < s->n && p->cycles < ISO_PIC_MAX_CYCLES && b.work < PIC_WORK; x++) {
        uint32_t len = shortest_through(&b, x, c);
        if (len && len <= ISO_PIC_MAX_V) pic_add_cycle(pc, p, s, c, len);
    }
    iso_free(c);
    iso_free(b.parent);
    iso_free(b.stamp);
    iso_free(b.queue);
}

/* A copy of picture from (a finding's, kept with it) into p. */
static void pic_copy(const iso_picture *from, iso_picture *p)
{
    for (uint32_t i = 0; i < from->n; i++) iso_picture_txn(p, from->v[i]);
    for (size_t k = 0; k < from->n_e; k++) {
        const iso_pic_edge *e = &from->e[k];
        ISO_PUSH(p->e, p->n_e, p->cap_e, ((iso_pic_edge){e->a, e->b, {0}, {0}}));
        iso_buf_put(&p->e[k].types, e->types.p, e->types.n);
        iso_buf_put(&p->e[k].words, e->words.p, e->words.n);
    }
}

int iso_picture_of(const iso_proof_ctx *pc, const iso_finding *f, iso_picture *p)
{
    memset(p, 0, sizeof *p);
    const iso_search_out *s = pc->search;
    if (f->source == ISO_FS_CYCLE) pic_cycle(pc, &s->cycles[f->arg], p);
    else if (f->source == ISO_FS_EXISTS) pic_component(pc, &s->exists[f->arg].scc, p);
    else if (f->source == ISO_FS_TIMEOUT) pic_component(pc, &s->timeouts[f->arg].comp, p);
    else if (f->source == ISO_FS_TEXT && f->pic) pic_copy(f->pic, p);
    else if (f->source == ISO_FS_RENDER && pc->wl && pc->wl->picture) return pc->wl->picture(pc, f, p);
    else return 0;
    return 1;
}

void iso_picture_free(iso_picture *p)
{
    for (size_t k = 0; k < p->n_e; k++) {
        iso_buf_free(&p->e[k].types);
        iso_buf_free(&p->e[k].words);
    }
    iso_free(p->v);
    iso_free(p->e);
    memset(p, 0, sizeof *p);
}

/* b's memory cut to what it holds. */
static void buf_fit(iso_buf *b)
{
    if (b->p) b->p = iso_xrealloc(b->p, b->cap = b->n + 1);
}

iso_picture *iso_picture_keep(iso_picture *p)
{
    iso_picture *k = iso_xmalloc(sizeof *k);
    *k = *p;
    memset(p, 0, sizeof *p);
    k->v = iso_xrealloc(k->v, (k->cap_v = k->n ? k->n : 1) * sizeof *k->v);
    k->e = iso_xrealloc(k->e, (k->cap_e = k->n_e ? k->n_e : 1) * sizeof *k->e);
    for (size_t i = 0; i < k->n_e; i++) buf_fit(&k->e[i].types), buf_fit(&k->e[i].words);
    return k;
}

void iso_picture_note(const iso_picture *p, iso_buf *out)
{
    if (!p->comp_n) return;
    iso_buf_printf(out, "A strongly connected component of %" PRIu32 " transactions", p->comp_n);
    if (p->comp_e) iso_buf_printf(out, " and %" PRIu64 " edges", p->comp_e);
    if (!p->cycles) iso_buf_puts(out, ": too large to draw; no short cycle was found within the drawing budget");
    else iso_buf_printf(out, "; drawn: the %" PRIu32 " shortest cycle%s found (%" PRIu32 " transactions)",
                        p->cycles, p->cycles == 1 ? "" : "s", p->n);
}

/* s as the inside of a DOT quoted string: quotes and backslashes escaped,
 * control characters as spaces, cut after LABEL_MAX bytes (at a UTF-8
 * boundary), lines broken near WRAP columns and ended by \l. */
static void dot_text(iso_buf *out, const char *s, int left)
{
    size_t n = strlen(s), col = 0;
    if (n > LABEL_MAX) {
        n = LABEL_MAX;
        while (n && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    }
    for (size_t i = 0; i < n; i++, col++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n' || (c == ' ' && col >= WRAP)) { iso_buf_puts(out, left ? "\\l" : "\\n"); col = 0; continue; }
        if (c == '"' || c == '\\') iso_buf_put(out, "\\", 1);
        iso_buf_put(out, c < 0x20 || c == 0x7f ? " " : (const char *)&s[i], 1);
    }
    if (n < strlen(s)) iso_buf_puts(out, " ...");
    if (left) iso_buf_puts(out, "\\l");
}

/* Vertex i's name in the proof ("T3"), or "the initial state". */
static void vertex_label(const iso_proof_ctx *pc, const iso_picture *p, uint32_t i, iso_buf *out)
{
    if (p->v[i] == ISO_NONE) {
        iso_buf_puts(out, "the initial state");
        return;
    }
    iso_buf_printf(out, "T%" PRIu32 " = ", i + 1);
    iso_pc_op_text(pc, p->v[i], out);
}

void iso_picture_dot(const iso_proof_ctx *pc, const iso_picture *p, const char *title, iso_buf *out)
{
    iso_buf t = {0};
    iso_buf_puts(out, "digraph isolde {\n  label=\"");
    dot_text(out, title, 0);
    iso_picture_note(p, &t);
    if (t.n) iso_buf_puts(out, "\\n"), dot_text(out, iso_buf_cstr(&t), 0);
    iso_buf_puts(out, "\";\n  labelloc=t;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
                      "  edge [fontname=\"sans-serif\", fontsize=10];\n");
    for (uint32_t i = 0; i < p->n; i++) {
        t.n = 0;
        vertex_label(pc, p, i, &t);
        iso_buf_printf(out, "  T%" PRIu32 " [label=\"", i + 1);
        dot_text(out, iso_buf_cstr(&t), 1);
        iso_buf_puts(out, p->v[i] == ISO_NONE ? "\", shape=ellipse];\n" : "\"];\n");
    }
    for (size_t k = 0; k < p->n_e; k++) {
        const iso_pic_edge *e = &p->e[k];
        iso_buf_printf(out, "  T%" PRIu32 " -> T%" PRIu32 " [label=\"", e->a + 1, e->b + 1);
        dot_text(out, str(&e->types), 0);
        iso_buf_puts(out, "\\n");
        dot_text(out, str(&e->words), 0);
        iso_buf_puts(out, "\"];\n");
    }
    iso_buf_puts(out, "}\n");
    iso_buf_free(&t);
}

void iso_picture_json(const iso_picture *p, iso_buf *out)
{
    iso_buf_puts(out, "{\"v\":[");
    for (uint32_t i = 0; i < p->n; i++) {
        if (i) iso_buf_puts(out, ",");
        if (p->v[i] == ISO_NONE) iso_buf_puts(out, "null");
        else iso_buf_printf(out, "%" PRIu32, p->v[i]);
    }
    iso_buf_puts(out, "],\"e\":[");
    for (size_t k = 0; k < p->n_e; k++) {
        const iso_pic_edge *e = &p->e[k];
        iso_buf_printf(out, "%s[%" PRIu32 ",%" PRIu32 ",", k ? "," : "", e->a, e->b);
        iso_json_string(out, str(&e->types), e->types.n);
        iso_buf_puts(out, ",");
        iso_json_string(out, str(&e->words), e->words.n);
        iso_buf_puts(out, "]");
    }
    iso_buf t = {0};
    iso_picture_note(p, &t);
    iso_buf_puts(out, "],\"note\":");
    iso_json_string(out, iso_buf_cstr(&t), t.n);
    iso_buf_puts(out, "}");
    iso_buf_free(&t);
}
