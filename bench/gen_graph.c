/*
 * gen_graph.c -- benchmark of the dependency-graph core on a synthetic
 * history: real-time and process order for N transactions from P
 * concurrent processes, random data edges (ww, wr, rw) between nearby
 * transactions, CSR build, SCC, and the cycle search for every type.
 *
 * usage: gen_graph [N [P [DATA_EDGES_PER_TXN]]]; prints one line per phase.
 */
#include "elle/search.h"
#include "graph/order.h"
#include "graph/scc.h"
#include "history/history.h"
#include "history/txn.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* P processes each run transactions back to back; op order interleaves
 * them at random. Transaction ids follow invocation order. */
static isolde_history *make_history(uint32_t n, uint32_t p, iso_txns *t)
{
    isolde_history *h = iso_history_new("bench", ISOLDE_FORMAT_JSONL);
    uint32_t *open = malloc(p * sizeof *open);
    for (uint32_t i = 0; i < p; i++) open[i] = ISO_NONE;
    t->t = malloc((size_t)n * sizeof *t->t);
    t->n = 0;
    uint32_t done = 0;
    while (done < n) {
        uint32_t q = rnd(p);
        iso_op op = {.index = (int64_t)h->n_ops, .time = -1, .value = ISO_NIL};
        if (open[q] == ISO_NONE) {
            if (t->n == n) continue;
            op.type = ISO_OP_INVOKE;
            open[q] = (uint32_t)t->n;
            t->t[t->n++] = (iso_txn){(uint32_t)h->n_ops, ISO_NONE, ISO_OP_INFO};
        } else {
            op.type = rnd(50) ? ISO_OP_OK : ISO_OP_FAIL;
            t->t[open[q]].cmp = (uint32_t)h->n_ops;
            t->t[open[q]].type = op.type;
            open[q] = ISO_NONE;
            done++;
        }
        iso_history_add_op(h, &op, iso_int(q), ISO_NIL, ISO_NIL, NULL); /* (far below ISO_MAX_OPS) */
    }
    free(open);
    return h;
}

static double mark(const char *what, double t0, size_t count)
{
    double t1 = iso_now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-28s %8.3f s  %10zu  maxrss %ld MB\n", what, t1 - t0, count, ru.ru_maxrss / 1024);
    return t1;
}

int main(int argc, char **argv)
{
    uint32_t n = argc > 1 ? (uint32_t)atol(argv[1]) : 1000000;
    uint32_t p = argc > 2 ? (uint32_t)atol(argv[2]) : 16;
    uint32_t d = argc > 3 ? (uint32_t)atol(argv[3]) : 2;
    iso_txns t;
    isolde_history *h = make_history(n, p, &t);
    iso_edges es = {0};
    double t0 = iso_now();
    iso_realtime_edges(h, &t, &es);
    t0 = mark("realtime edges", t0, es.n);
    size_t before = es.n;
    iso_process_edges(h, &t, &es);
    t0 = mark("process edges", t0, es.n - before);
    static const uint8_t data[] = {ISO_EDGE_WW, ISO_EDGE_WR, ISO_EDGE_RW};
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < d; j++) {
            uint32_t k = rnd(3);
            uint32_t other = i + 1 + rnd(64) < n ? i + 1 + rnd(64) : rnd(n);
            if (k == 2 && rnd(8) == 0) iso_edges_add(&es, other, i, data[k]); /* anti-dependency back */
            else iso_edges_add(&es, i, other, data[k]);
        }
    t0 = mark("data edges", t0, es.n);
    iso_graph g;
    iso_graph_build(&g, n, &es);
    t0 = mark("csr build", t0, g.n_edges);
    uint32_t *comp = malloc((size_t)n * sizeof *comp);
    uint32_t nc = iso_scc(&g, 0xff, comp);
    t0 = mark("scc (all edges)", t0, nc);
    iso_search_req req;
    uint8_t want[ISO_A_COUNT] = {0};
    for (int ty = 0; ty < ISO_N_CYCLE_TYPES; ty++) want[ty] = 1;
    iso_search_request(&req, ISO_EDGE_PROCESS | ISO_EDGE_REALTIME, want);
    req.timeout_ms = 1000;
    req.threads = 2;
    iso_search_out out = {0};
    iso_search_cycles(&g, &req, &out);
    t0 = mark("cycle search", t0, out.n_cycles);
    size_t count[ISO_N_CYCLE_TYPES] = {0}, longest[ISO_N_CYCLE_TYPES] = {0};
    for (size_t i = 0; i < out.n_cycles; i++) {
        count[out.cycles[i].type]++;
        if (out.cycles[i].len > longest[out.cycles[i].type])
            longest[out.cycles[i].type] = out.cycles[i].len;
    }
    for (int a = 0; a < ISO_N_CYCLE_TYPES; a++)
        if (count[a])
            printf("  %-28s %6zu cycles, longest %zu\n", iso_anomaly_name(a), count[a], longest[a]);
    for (size_t i = 0; i < out.n_timeouts; i++)
        printf("  timeout in %s (component of %u)\n", iso_anomaly_name(out.timeouts[i].type),
               out.timeouts[i].comp.n);
    iso_search_out_free(&out);
    free(comp);
    iso_graph_free(&g);
    iso_edges_free(&es);
    free(t.t);
    isolde_history_free(h);
    return 0;
}
