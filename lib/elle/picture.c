/*
 * elle/picture.c -- the picture of a finding: a cycle as found, or for a
 * component (cycle-exists, timeout) its shortest cycles found within a
 * work budget, united (elle/picture.h); and its DOT and JSON, every
 * label in the proof's words and escaped for the format.
 *
 * Invariant: a component's picture holds at most ISO_PIC_MAX_CYCLES cycles
 * and ISO_PIC_MAX_V transactions, found in at most PIC_WORK edge visits.
 */
#include "elle/picture.h"
#include "elle/proof.h"
#include "elle/render.h"

#include <inttypes.h>
#include <string.h>

enum { PIC_WORK = 1 << 22, LABEL_MAX = 240, WRAP = 64 };

static const struct { int bit; const char *name; } edge_names[] = {
    {ISO_EDGE_WW, "ww"}, {ISO_EDGE_WR, "wr"}, {ISO_EDGE_RW, "rw"},
    {ISO_EDGE_PROCESS, "process"}, {ISO_EDGE_REALTIME, "realtime"},
};
#define N_EDGE_NAMES (sizeof edge_names / sizeof edge_names[0])

static void pic_alloc(iso_picture *p, uint32_t n, uint32_t n_e)
{
    p->v = iso_xmalloc((n ? n : 1) * sizeof *p->v);
    p->a = iso_xmalloc((n_e ? n_e : 1) * sizeof *p->a);
    p->b = iso_xmalloc((n_e ? n_e : 1) * sizeof *p->b);
    p->bits = iso_xmalloc(n_e ? n_e : 1);
}

static void pic_cycle(const iso_cycle *c, iso_picture *p)
{
    pic_alloc(p, c->len, c->len);
    p->n = p->n_e = c->len;
    for (uint32_t i = 0; i < c->len; i++) {
        p->v[i] = c->v[i];
        p->a[i] = i, p->b[i] = (i + 1) % c->len, p->bits[i] = c->e[i];
    }
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

/* Position of subgraph vertex x in p, added when missing (-1: p is full). */
static int64_t pic_vertex(iso_picture *p, const iso_subgraph *s, uint32_t x)
{
    for (uint32_t i = 0; i < p->n; i++)
        if (p->v[i] == s->v[x]) return i;
    if (p->n == ISO_PIC_MAX_V) return -1;
    p->v[p->n] = s->v[x];
    return p->n++;
}

/* Add cycle c (len positions of s) to p, unless it would not fit or p
 * has it already (a rotation found from another start). */
static void pic_add_cycle(iso_picture *p, const iso_subgraph *s, const uint32_t *c, uint32_t len)
{
    uint32_t n0 = p->n, e0 = p->n_e, fresh = 0;
    for (uint32_t i = 0; i < len; i++) {
        int64_t x = pic_vertex(p, s, c[i]), y = pic_vertex(p, s, c[(i + 1) % len]);
        if (x < 0 || y < 0) { p->n = n0, p->n_e = e0; return; }
        uint32_t k = 0;
        while (k < p->n_e && (p->a[k] != x || p->b[k] != y)) k++;
        if (k < p->n_e) continue;
        p->a[p->n_e] = (uint32_t)x, p->b[p->n_e] = (uint32_t)y;
        p->bits[p->n_e++] = sub_bits(s, c[i], c[(i + 1) % len]);
        fresh = 1;
    }
    p->cycles += fresh;
}

static void pic_component(const iso_subgraph *s, iso_picture *p)
{
    pic_alloc(p, ISO_PIC_MAX_V, ISO_PIC_MAX_V * ISO_PIC_MAX_CYCLES);
    p->comp_n = s->n;
    if (!s->off) return;
    p->comp_e = s->off[s->n];
    bfs b = {s, iso_xmalloc(s->n * sizeof *b.parent), iso_xcalloc(s->n, sizeof *b.stamp),
             iso_xmalloc(s->n * sizeof *b.queue), 0, 0};
    uint32_t *c = iso_xmalloc(s->n * sizeof *c);
    for (uint32_t x = 0; x < s->n && p->cycles < ISO_PIC_MAX_CYCLES && b.work < PIC_WORK; x++) {
        uint32_t len = shortest_through(&b, x, c);
        if (len && len <= ISO_PIC_MAX_V) pic_add_cycle(p, s, c, len);
    }
    iso_free(c);
    iso_free(b.parent);
    iso_free(b.stamp);
    iso_free(b.queue);
}

int iso_picture_of(const iso_proof_ctx *pc, const iso_finding *f, iso_picture *p)
{
    memset(p, 0, sizeof *p);
    const iso_search_out *s = pc->search;
    if (f->source == ISO_FS_CYCLE) pic_cycle(&s->cycles[f->arg], p);
    else if (f->source == ISO_FS_EXISTS) pic_component(&s->exists[f->arg].scc, p);
    else if (f->source == ISO_FS_TIMEOUT) pic_component(&s->timeouts[f->arg].comp, p);
    else return 0;
    return 1;
}

void iso_picture_free(iso_picture *p)
{
    iso_free(p->v);
    iso_free(p->a);
    iso_free(p->b);
    iso_free(p->bits);
    memset(p, 0, sizeof *p);
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

/* Edge i's types ("ww,rw") into types and its words, one line per type,
 * into words. */
static void edge_words(const iso_proof_ctx *pc, const iso_picture *p, uint32_t i, iso_buf *types,
                       iso_buf *words)
{
    char ta[16], tb[16];
    snprintf(ta, sizeof ta, "T%" PRIu32, p->a[i] + 1);
    snprintf(tb, sizeof tb, "T%" PRIu32, p->b[i] + 1);
    iso_buf json = {0};
    types->n = words->n = 0;
    for (size_t k = 0; k < N_EDGE_NAMES; k++) {
        if (!(p->bits[i] & edge_names[k].bit)) continue;
        iso_buf_printf(types, "%s%s", types->n ? "," : "", edge_names[k].name);
        if (words->n) iso_buf_puts(words, "\n");
        json.n = 0;
        iso_explain_edge(pc, p->v[p->a[i]], p->v[p->b[i]], edge_names[k].bit, ta, tb, words, &json);
    }
    iso_buf_free(&json);
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

void iso_picture_dot(const iso_proof_ctx *pc, const iso_picture *p, const char *title, iso_buf *out)
{
    iso_buf t = {0}, w = {0};
    iso_buf_puts(out, "digraph isolde {\n  label=\"");
    dot_text(out, title, 0);
    iso_picture_note(p, &t);
    if (t.n) iso_buf_puts(out, "\\n"), dot_text(out, iso_buf_cstr(&t), 0);
    iso_buf_puts(out, "\";\n  labelloc=t;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
                      "  edge [fontname=\"sans-serif\", fontsize=10];\n");
    for (uint32_t i = 0; i < p->n; i++) {
        t.n = 0;
        iso_buf_printf(&t, "T%" PRIu32 " = ", i + 1);
        iso_pc_op_text(pc, p->v[i], &t);
        iso_buf_printf(out, "  T%" PRIu32 " [label=\"", i + 1);
        dot_text(out, iso_buf_cstr(&t), 1);
        iso_buf_puts(out, "\"];\n");
    }
    for (uint32_t i = 0; i < p->n_e; i++) {
        edge_words(pc, p, i, &t, &w);
        iso_buf_printf(out, "  T%" PRIu32 " -> T%" PRIu32 " [label=\"", p->a[i] + 1, p->b[i] + 1);
        dot_text(out, iso_buf_cstr(&t), 0);
        iso_buf_puts(out, "\\n");
        dot_text(out, iso_buf_cstr(&w), 0);
        iso_buf_puts(out, "\"];\n");
    }
    iso_buf_puts(out, "}\n");
    iso_buf_free(&t);
    iso_buf_free(&w);
}

void iso_picture_json(const iso_proof_ctx *pc, const iso_picture *p, iso_buf *out)
{
    iso_buf t = {0}, w = {0};
    iso_buf_puts(out, "{\"v\":[");
    for (uint32_t i = 0; i < p->n; i++) iso_buf_printf(out, "%s%" PRIu32, i ? "," : "", p->v[i]);
    iso_buf_puts(out, "],\"e\":[");
    for (uint32_t i = 0; i < p->n_e; i++) {
        edge_words(pc, p, i, &t, &w);
        iso_buf_printf(out, "%s[%" PRIu32 ",%" PRIu32 ",", i ? "," : "", p->a[i], p->b[i]);
        iso_json_string(out, t.p ? t.p : "", t.n);
        iso_buf_puts(out, ",");
        iso_json_string(out, w.p ? w.p : "", w.n);
        iso_buf_puts(out, "]");
    }
    t.n = 0;
    iso_picture_note(p, &t);
    iso_buf_puts(out, "],\"note\":");
    iso_json_string(out, t.p ? t.p : "", t.n);
    iso_buf_puts(out, "}");
    iso_buf_free(&t);
    iso_buf_free(&w);
}
