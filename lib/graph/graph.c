/*
 * graph/graph.c -- edge triples and their frozen CSR form.
 *
 * iso_graph_build counts out-degrees, scatters each edge into its row of
 * the final dst / bits arrays, sorts every row, then merges parallel edges
 * (OR-ing their bits) and drops self-loops while compacting the rows in
 * place. No per-edge allocation and no temporary copy of the edges: on
 * this machine kind fresh pages cost more than the sorting. Real-time
 * order may ride along as windows (iso_rt) instead of rows' edges, and a
 * large group of reader -> writer edges as a hub (r -> h -> w).
 */
#include "graph/graph.h"
#include "core/sort.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void iso_edges_add(iso_edges *es, uint32_t src, uint32_t dst, uint8_t bits)
{
    ISO_PUSH(es->e, es->n, es->cap, ((iso_edge){src, dst | (uint32_t)bits << 27}));
}

void iso_edges_free(iso_edges *es)
{
    iso_free(es->e);
    memset(es, 0, sizeof *es);
}

static size_t hub_min = 1024;
#ifdef ISO_TESTING /* a test hook: nothing shipped reads the environment */
static pthread_once_t hub_once = PTHREAD_ONCE_INIT;

static void read_hub_min(void)
{
    const char *s = getenv("ISOLDE_HUB_MIN");
    char *end;
    unsigned long long v = s && *s ? strtoull(s, &end, 10) : 0;
    if (s && *s && !*end) hub_min = (size_t)v;
}
#endif

size_t iso_hub_min(void)
{
#ifdef ISO_TESTING
    pthread_once(&hub_once, read_hub_min);
#endif
    return hub_min;
}

/* Whether some rd[i] != wr[j]: if every reader is wr[0] and every writer
 * rd[0], all are one transaction. */
static int has_pair(const uint32_t *rd, size_t nr, const uint32_t *wr, size_t nw)
{
    if (!nr || !nw) return 0;
    for (size_t i = 0; i < nr; i++)
        if (rd[i] != wr[0]) return 1;
    for (size_t j = 0; j < nw; j++)
        if (wr[j] != rd[0]) return 1;
    return 0;
}

uint32_t iso_edges_hub(iso_edges *es, uint32_t n_txn, size_t nr, size_t nw)
{
    if ((uint64_t)nr * nw <= iso_hub_min() || n_txn + es->n_hubs + 1 >= ISO_MAX_TXNS) return ISO_NONE;
    return n_txn + es->n_hubs++;
}

void iso_edges_add_group(iso_edges *es, uint32_t n_txn, const uint32_t *rd, size_t nr,
                         const uint32_t *wr, size_t nw, uint8_t bits)
{
    if (!has_pair(rd, nr, wr, nw)) return; /* a hub must stand for some edge */
    uint32_t h = bits == ISO_EDGE_RW ? iso_edges_hub(es, n_txn, nr, nw) : ISO_NONE;
    if (h == ISO_NONE) {
        for (size_t j = 0; j < nw; j++)
            for (size_t i = 0; i < nr; i++)
                if (rd[i] != wr[j]) iso_edges_add(es, rd[i], wr[j], bits);
        return;
    }
    for (size_t i = 0; i < nr; i++) iso_edges_add(es, rd[i], h, bits);
    for (size_t j = 0; j < nw; j++) iso_edges_add(es, h, wr[j], bits);
}

/* Sort a row of (dst, bits) pairs by dst. Rows are usually short: insertion
 * sort them; long ones go through tmp as packed words and qsort. */
static void sort_row(uint32_t *d, uint8_t *b, size_t n, uint64_t **tmp, size_t *cap)
{
    if (n > 32) {
        ISO_GROW(*tmp, *cap, n);
        for (size_t i = 0; i < n; i++) (*tmp)[i] = (uint64_t)d[i] << 8 | b[i];
        qsort(*tmp, n, sizeof **tmp, iso_cmp_u64);
        for (size_t i = 0; i < n; i++) {
            d[i] = (uint32_t)((*tmp)[i] >> 8);
            b[i] = (uint8_t)(*tmp)[i];
        }
        return;
    }
    for (size_t i = 1; i < n; i++) {
        uint32_t x = d[i];
        uint8_t y = b[i];
        size_t j = i;
        for (; j > 0 && d[j - 1] > x; j--) {
            d[j] = d[j - 1];
            b[j] = b[j - 1];
        }
        d[j] = x;
        b[j] = y;
    }
}

/* Scatter the triples into rows; off gets row starts. With consume, the
 * triples are placed from the end and their array shrinks as it goes, so
 * that the rows and the triples are never both whole in memory. */
static void scatter(iso_graph *g, iso_edges *es, int consume)
{
    uint32_t n = g->n, *off = g->off;
    memset(off, 0, ((size_t)n + 1) * sizeof *off);
    for (size_t i = 0; i < es->n; i++)
        if (es->e[i].src < n && iso_edge_dst(&es->e[i]) < n) off[es->e[i].src + 1]++;
    for (uint32_t v = 0; v < n; v++) off[v + 1] += off[v];
    g->dst = iso_xmalloc(((size_t)off[n] + 1) * sizeof *g->dst);
    g->bits = iso_xmalloc((size_t)off[n] + 1);
    uint32_t *fill = iso_xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, off + 1, (size_t)n * sizeof *fill); /* row ends, filled downwards */
    enum { CHUNK = 1 << 20 };
    for (size_t i = es->n; i-- > 0;) {
        const iso_edge *e = &es->e[i];
        if (e->src < n && iso_edge_dst(e) < n) {
            g->dst[--fill[e->src]] = iso_edge_dst(e);
            g->bits[fill[e->src]] = iso_edge_bits(e);
        }
        if (consume && i % CHUNK == 0 && i) { /* give placed triples back */
            es->e = iso_xrealloc(es->e, i * sizeof *es->e);
            es->n = es->cap = i;
        }
    }
    iso_free(fill);
    if (consume) iso_edges_free(es);
}

static void build(iso_graph *g, uint32_t n, iso_edges *es, int consume)
{
    /* Edge counts above 2^32 would need 48 GB of triples: not supported. */
    uint32_t hubs = es->n_hubs;
    memset(g, 0, sizeof *g);
    g->n = n + hubs;
    g->n_hubs = hubs;
    n = g->n;
    g->off = iso_xmalloc(((size_t)n + 1) * sizeof *g->off);
    scatter(g, es, consume);
    uint64_t *tmp = NULL;
    size_t cap = 0, out = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t lo = g->off[v], hi = g->off[v + 1];
        sort_row(g->dst + lo, g->bits + lo, hi - lo, &tmp, &cap);
        g->off[v] = (uint32_t)out;
        for (uint32_t i = lo; i < hi; i++) {
            uint32_t d = g->dst[i];
            if (d == v || g->bits[i] == 0) continue;
            if (out > g->off[v] && g->dst[out - 1] == d) {
                g->bits[out - 1] |= g->bits[i];
            } else {
                g->dst[out] = d;
                g->bits[out++] = g->bits[i];
            }
        }
    }
    g->off[n] = (uint32_t)out;
    g->n_edges = out;
    iso_free(tmp);
}

void iso_graph_build(iso_graph *g, uint32_t n, iso_edges *es) { build(g, n, es, 0); }
void iso_graph_build_consume(iso_graph *g, uint32_t n, iso_edges *es) { build(g, n, es, 1); }

void iso_graph_free(iso_graph *g)
{
    iso_free(g->off);
    iso_free(g->dst);
    iso_free(g->bits);
    memset(g, 0, sizeof *g);
}

const char *iso_edge_name(int bit)
{
    static const char *const names[ISO_EDGE_N] = {"ww", "wr", "rw", "process", "realtime"};
    for (int i = 0; i < ISO_EDGE_N; i++)
        if (bit == 1 << i) return names[i];
    return "?";
}

uint8_t iso_graph_row_bits(const iso_graph *g, uint32_t a, uint32_t b)
{
    uint32_t lo = g->off[a], hi = g->off[a + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->dst[mid] < b) lo = mid + 1;
        else hi = mid;
    }
    return lo < g->off[a + 1] && g->dst[lo] == b ? g->bits[lo] : 0;
}

uint8_t iso_graph_hub_bits(const iso_graph *g, uint32_t a, uint32_t b)
{
    uint32_t nt = iso_graph_txns(g);
    uint8_t bits = 0;
    for (uint32_t e = g->off[a + 1]; a != b && e > g->off[a] && g->dst[e - 1] >= nt; e--)
        bits |= iso_graph_row_bits(g, g->dst[e - 1], b); /* a's hubs end its row */
    return bits;
}

uint8_t iso_graph_edge(const iso_graph *g, uint32_t a, uint32_t b)
{
    if (a >= iso_graph_txns(g) || b >= iso_graph_txns(g)) return 0;
    uint8_t bits = iso_graph_row_bits(g, a, b) | iso_graph_hub_bits(g, a, b);
    for (uint32_t r = g->rt ? g->rt->lo[a] : 0; g->rt && r < g->rt->hi[a]; r++)
        if (g->rt->order[r] == b) bits |= ISO_EDGE_REALTIME;
    return bits;
}
