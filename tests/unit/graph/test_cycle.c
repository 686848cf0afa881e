/*
 * test_cycle.c -- the typed cycle search: classification, each producible
 * cycle type on a minimal graph, every wanted type reported, the budget and its
 * cycle-exists fallback, the bound on shortening, the whole search's budget
 * shared between components, thread determinism, and a randomized
 * cross-check against a brute-force enumeration of closed walks on small
 * graphs.
 */
#include "testutil.h"
#include "elle/search.h"
#include "graph/same_search.h"

#define W ISO_EDGE_WW
#define R ISO_EDGE_WR
#define A ISO_EDGE_RW
#define P ISO_EDGE_PROCESS
#define T ISO_EDGE_REALTIME

static void build(iso_graph *g, uint32_t n, const uint32_t (*es)[3], size_t m)
{
    iso_edges e = {0};
    for (size_t i = 0; i < m; i++) iso_edges_add(&e, es[i][0], es[i][1], (uint8_t)es[i][2]);
    iso_graph_build(g, n, &e);
    iso_edges_free(&e);
}

/* The request a check makes (elle/search.c: Elle's order and cycle-exists
 * specs), narrowed to the types and specs in want. */
static void request(iso_search_req *q, const uint8_t want[ISO_A_COUNT])
{
    iso_search_req all;
    iso_search_request(&all, ISO_EDGE_PROCESS | ISO_EDGE_REALTIME, want);
    *q = all;
    q->n_exists = 0;
    int at[ISO_MAX_EXISTS];
    for (int i = 0; i < all.n_exists; i++) {
        at[i] = want[all.exists[i].id] ? q->n_exists : -1;
        if (at[i] < 0) continue;
        iso_exists_spec *x = &q->exists[q->n_exists++];
        *x = all.exists[i];
        x->redundant = 0;
        for (int j = 0; j < i; j++)
            if ((all.exists[i].redundant >> j & 1) && at[j] >= 0) x->redundant |= 1u << at[j];
    }
}

static void want_all(iso_search_req *q)
{
    uint8_t want[ISO_A_COUNT] = {0};
    for (int t = 0; t < ISO_N_CYCLE_TYPES; t++) want[t] = 1;
    request(q, want);
}

/* Whether q searches for type t. */
static int wanted(const iso_search_req *q, int t)
{
    for (int i = 0; i < q->n_order; i++)
        if (q->order[i] == t) return 1;
    return 0;
}

/* A reported cycle must be a genuine closed walk of its type. */
static void check_genuine(const iso_graph *g, const iso_cycle *c)
{
    assert_true(c->len >= 2);
    for (uint32_t i = 0; i < c->len; i++) {
        uint8_t b = c->e[i];
        assert_true(b && !(b & (b - 1)));
        assert_true(iso_graph_edge(g, c->v[i], c->v[(i + 1) % c->len]) & b);
    }
    assert_int_equal(iso_cycle_classify(c->e, c->len), c->type);
}

static void test_classify(void **st)
{
    (void)st;
    uint8_t g0[] = {W, W}, g1c[] = {W, R}, gs[] = {R, A, W}, gn[] = {A, W, A, R},
            g2[] = {A, A, W}, g2wrap[] = {A, W, A}, rt[] = {W, T, P}, pr[] = {W, P};
    assert_int_equal(iso_cycle_classify(g0, 2), ISO_A_G0);
    assert_int_equal(iso_cycle_classify(g1c, 2), ISO_A_G1C);
    assert_int_equal(iso_cycle_classify(gs, 3), ISO_A_G_SINGLE_ITEM);
    assert_int_equal(iso_cycle_classify(gn, 4), ISO_A_G_NONADJACENT_ITEM);
    assert_int_equal(iso_cycle_classify(g2, 3), ISO_A_G2_ITEM);
    assert_int_equal(iso_cycle_classify(g2wrap, 3), ISO_A_G2_ITEM);
    assert_int_equal(iso_cycle_classify(rt, 3), ISO_A_G0_REALTIME);
    assert_int_equal(iso_cycle_classify(pr, 2), ISO_A_G0_PROCESS);
    assert_int_equal(iso_cycle_classify(g0, 0), -1);
}

/* For each producible type: a minimal graph whose only cycle has that
 * type; the search must report exactly it, with that cycle. */
static void test_each_type(void **st)
{
    (void)st;
    static const uint8_t lab[][4] = {
        {W, W}, {W, P}, {W, T}, {W, R}, {R, P}, {R, T},
        {A, W}, {A, P}, {A, T}, {A, W, A, W}, {A, P, A, W}, {A, T, A, W},
        {A, A, W}, {A, A, P}, {A, A, T},
    };
    static const int type[] = {
        ISO_A_G0, ISO_A_G0_PROCESS, ISO_A_G0_REALTIME, ISO_A_G1C, ISO_A_G1C_PROCESS,
        ISO_A_G1C_REALTIME, ISO_A_G_SINGLE_ITEM, ISO_A_G_SINGLE_ITEM_PROCESS,
        ISO_A_G_SINGLE_ITEM_REALTIME, ISO_A_G_NONADJACENT_ITEM,
        ISO_A_G_NONADJACENT_ITEM_PROCESS, ISO_A_G_NONADJACENT_ITEM_REALTIME,
        ISO_A_G2_ITEM, ISO_A_G2_ITEM_PROCESS, ISO_A_G2_ITEM_REALTIME,
    };
    for (size_t i = 0; i < sizeof type / sizeof type[0]; i++) {
        uint32_t es[4][3], len = lab[i][3] ? 4 : lab[i][2] ? 3 : 2;
        for (uint32_t j = 0; j < len; j++) {
            es[j][0] = j + 1;
            es[j][1] = (j + 1) % len + 1;
            es[j][2] = lab[i][j];
        }
        iso_graph g;
        build(&g, 6, (const uint32_t (*)[3])es, len);
        iso_search_req q;
        want_all(&q);
        iso_search_out out = {0};
        assert_int_equal(iso_search_cycles(&g, &q, &out), 0);
        assert_int_equal(out.n_cycles, 1);
        assert_int_equal(out.cycles[0].type, type[i]);
        assert_int_equal(out.cycles[0].len, len);
        check_genuine(&g, &out.cycles[0]);
        assert_int_equal(out.n_timeouts, 0);
        assert_int_equal(out.n_exists, 0);
        iso_search_out_free(&out);
        iso_graph_free(&g);
    }
}

/* Every wanted type found in a component is reported, whatever another
 * type found there implies (issue 25 item 5: Elle's search skips them):
 * G-single-item, G0 and G2-item in one component, in the order asked. With
 * G-single-item unwanted, the G2-item cycle alone. Predicate types are
 * never produced. */
static void test_every_type(void **st)
{
    (void)st;
    static const uint32_t es[][3] = {
        {0, 1, A}, {1, 0, W},            /* G-single-item */
        {0, 2, A}, {2, 3, A}, {3, 0, W}, /* G2-item */
        {0, 4, W}, {4, 0, W},            /* G0 */
    };
    iso_graph g;
    build(&g, 5, es, sizeof es / sizeof es[0]);
    iso_search_req q;
    want_all(&q);
    iso_search_out out = {0};
    iso_search_cycles(&g, &q, &out);
    assert_int_equal(out.n_cycles, 3);
    assert_int_equal(out.cycles[0].type, ISO_A_G_SINGLE_ITEM); /* severity order */
    assert_int_equal(out.cycles[1].type, ISO_A_G0);
    assert_int_equal(out.cycles[2].type, ISO_A_G2_ITEM);
    for (size_t i = 0; i < out.n_cycles; i++) check_genuine(&g, &out.cycles[i]);
    iso_search_out_free(&out);
    uint8_t want[ISO_A_COUNT] = {0};
    want[ISO_A_G2_ITEM] = want[ISO_A_G_SINGLE] = want[ISO_A_G2] = 1;
    request(&q, want);
    iso_search_cycles(&g, &q, &out);
    assert_int_equal(out.n_cycles, 1);
    assert_int_equal(out.cycles[0].type, ISO_A_G2_ITEM);
    assert_int_equal(out.cycles[0].len, 3);
    iso_search_out_free(&out);
    iso_graph_free(&g);
}

/* The shortest cycle is found even when a long one is met first. */
static void test_shortest(void **st)
{
    (void)st;
    iso_edges e = {0};
    for (uint32_t i = 0; i < 50; i++) iso_edges_add(&e, i, i + 1, W); /* long ring */
    iso_edges_add(&e, 50, 0, W);
    iso_edges_add(&e, 40, 37, W); /* a 4-cycle 37->38->39->40->37 */
    iso_graph g;
    iso_graph_build(&g, 51, &e);
    iso_edges_free(&e);
    iso_search_req q;
    uint8_t want[ISO_A_COUNT] = {0};
    want[ISO_A_G0] = 1;
    request(&q, want);
    iso_search_out out = {0};
    iso_search_cycles(&g, &q, &out);
    assert_int_equal(out.n_cycles, 1);
    assert_int_equal(out.cycles[0].len, 4);
    check_genuine(&g, &out.cycles[0]);
    iso_search_out_free(&out);
    iso_graph_free(&g);
}

/* Two ww chains joined by rw edges, with rw chords from one chain into the
 * other: no G-single-item exists, and proving that takes one search per
 * chord head. A 1 ms budget cannot finish it: a timeout, and the
 * cycle-exists proofs of the wanted models whose subgraph is cyclic, less
 * those of models stronger than one already shown violated (Elle's rule:
 * serializable implies snapshot isolation, so PL-3 is redundant). */
static void chains(iso_graph *g, uint32_t m)
{
    iso_edges e = {0};
    for (uint32_t i = 0; i + 1 < m; i++) {
        iso_edges_add(&e, i, i + 1, W);
        iso_edges_add(&e, m + i, m + i + 1, W);
        iso_edges_add(&e, i, m + i + 1, A);
    }
    iso_edges_add(&e, m - 1, m, A);
    iso_edges_add(&e, 2 * m - 1, 0, A);
    iso_graph_build(g, 2 * m, &e);
    iso_edges_free(&e);
}

static void test_timeout_fallback(void **st)
{
    (void)st;
    const uint32_t m = 20000;
    iso_graph g;
    chains(&g, m);
    iso_search_req q;
    uint8_t want[ISO_A_COUNT] = {0};
    want[ISO_A_G_SINGLE_ITEM] = want[ISO_A_PL_1_CYCLE_EXISTS] = 1;
    want[ISO_A_PL_2_CYCLE_EXISTS] = want[ISO_A_PL_SI_CYCLE_EXISTS] = 1;
    want[ISO_A_PL_2_99_CYCLE_EXISTS] = want[ISO_A_PL_3_CYCLE_EXISTS] = 1;
    request(&q, want);
    q.timeout_ms = 1;
    iso_search_out out = {0};
    iso_search_cycles(&g, &q, &out);
    assert_int_equal(out.n_cycles, 0);
    assert_int_equal(out.n_timeouts, 1);
    assert_int_equal(out.timeouts[0].type, ISO_A_G_SINGLE_ITEM);
    assert_int_equal(out.timeouts[0].whole, 0); /* its own budget */
    assert_int_equal(out.timeouts[0].comp.n, 2 * m);
    assert_non_null(out.timeouts[0].comp.off); /* kept for a picture */
    assert_int_equal(out.timeouts[0].comp.off[2 * m], 3 * (m - 1) + 2);
    assert_int_equal(out.n_exists, 2);
    assert_int_equal(out.exists[0].id, ISO_A_PL_SI_CYCLE_EXISTS);
    assert_int_equal(out.exists[1].id, ISO_A_PL_2_99_CYCLE_EXISTS); /* PL-3: redundant */
    for (size_t i = 0; i < out.n_exists; i++) {
        const iso_subgraph *c = &out.exists[i].scc;
        assert_true(c->n >= 2);
        for (uint32_t j = 1; j < c->n; j++) assert_true(c->v[j - 1] < c->v[j]);
    }
    iso_search_out_free(&out);
    iso_graph_free(&g);
    chains(&g, 300); /* unlimited: the search proves absence */
    q.timeout_ms = 0;
    iso_search_cycles(&g, &q, &out);
    assert_int_equal(out.n_cycles + out.n_timeouts + out.n_exists, 0);
    iso_search_out_free(&out);
    iso_graph_free(&g);
}

/* ---- the bound on shortening and the whole search's budget ---------- */


/* A ring of k vertices from `at` on, wr edges i-1 -> i and from 4
 * pseudo-random vertices up to 32 back: every cycle goes round, about k / 32 edges
 * long. The first search finds one; proving it shortest takes one search
 * per vertex, each over most of the ring. */
static void ring(iso_edges *e, uint32_t at, uint32_t k)
{
    for (uint32_t i = 0; i < k; i++) {
        iso_edges_add(e, at + (i + k - 1) % k, at + i, R);
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t h = (i * 4 + c + 1) * 2654435761u;
            iso_edges_add(e, at + (i + k - 2 - (h >> 16) % 31) % k, at + i, R);
        }
    }
}

static void want_g1c(iso_search_req *q)
{
    uint8_t want[ISO_A_COUNT] = {0};
    want[ISO_A_G1C] = want[ISO_A_PL_2_CYCLE_EXISTS] = 1;
    request(q, want);
}

/* With no time limit at all, shortening a ring of 40000 (minutes to
 * prove shortest) stops at the work cap; what it shows does not depend
 * on the budget when the budget is not what stopped it, nor on threads. */
static void test_shorten_cap(void **st)
{
    (void)st;
    iso_edges e = {0};
    ring(&e, 0, 40000);
    iso_graph g;
    iso_graph_build(&g, 40000, &e);
    iso_edges_free(&e);
    iso_search_req q;
    want_g1c(&q);
    q.timeout_ms = q.total_ms = 0;
    iso_search_out out = {0}, timed = {0};
    iso_search_cycles(&g, &q, &out);
    assert_int_equal(out.n_cycles, 1);
    assert_int_equal(out.n_timeouts, 0);
    check_genuine(&g, &out.cycles[0]);
    q.timeout_ms = 60000;
    q.total_ms = 600000;
    q.threads = 2;
    iso_search_cycles(&g, &q, &timed);
    same_out(&out, &timed);
    iso_search_out_free(&out);
    iso_search_out_free(&timed);
    iso_graph_free(&g);
}

/* A component whose search does not end in time (chains of 60000: those
 * of 20000 take some 2.5 s alone), first in line, then 64 rings of 50:
 * with no budget of their own and a whole budget of 2 s, the hard one ends
 * in a timeout that says the whole budget ran out, and every ring still
 * gets its cycle. (Each component's fair share is some 30 ms, which a ring
 * needs a tiny part of even on a loaded machine under ASan: with 300 ms, a
 * share of 4.6 ms, a ring descheduled that long timed out.) */
static void test_whole_budget_fair(void **st)
{
    (void)st;
    const uint32_t m = 60000, rings = 64, k = 50;
    iso_graph hard;
    chains(&hard, m);
    iso_edges e = {0};
    for (uint32_t a = 0; a < hard.n; a++)
        for (uint32_t x = hard.off[a]; x < hard.off[a + 1]; x++) iso_edges_add(&e, a, hard.dst[x], hard.bits[x]);
    for (uint32_t r = 0; r < rings; r++) ring(&e, 2 * m + r * k, k);
    iso_graph g;
    iso_graph_build(&g, 2 * m + rings * k, &e);
    iso_edges_free(&e);
    iso_search_req q;
    uint8_t want[ISO_A_COUNT] = {0};
    want[ISO_A_G_SINGLE_ITEM] = want[ISO_A_G1C] = want[ISO_A_PL_2_99_CYCLE_EXISTS] = 1;
    request(&q, want);
    q.timeout_ms = 0;
    q.total_ms = 2000;
    for (q.threads = 1; q.threads <= 2; q.threads++) {
        iso_search_out out = {0};
        iso_search_cycles(&g, &q, &out);
        assert_int_equal(out.n_timeouts, 1);
        assert_int_equal(out.timeouts[0].type, ISO_A_G_SINGLE_ITEM);
        assert_int_equal(out.timeouts[0].whole, 1);
        assert_int_equal(out.timeouts[0].comp.n, 2 * m);
        assert_int_equal(out.n_cycles, rings);
        for (size_t i = 0; i < out.n_cycles; i++) {
            assert_int_equal(out.cycles[i].type, ISO_A_G1C);
            check_genuine(&g, &out.cycles[i]);
        }
        iso_search_out_free(&out);
    }
    iso_graph_free(&g);
    iso_graph_free(&hard);
}

/* ---- randomized cross-check against brute force --------------------- */

#define MAXN 7
#define MAXL 8

typedef struct oracle {
    uint32_t n;
    uint8_t adj[MAXN][MAXN];
    uint32_t comp[MAXN];                  /* mutual reachability class */
    uint32_t min[MAXN][ISO_N_CYCLE_TYPES]; /* by class: shortest cycle, 0 = none */
    uint32_t walk[MAXN][ISO_N_CYCLE_TYPES]; /* by class: shortest closed walk */
} oracle;

static uint64_t rng_state = 0x243f6a8885a308d3ull;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

/* Enumerate every closed walk from s up to MAXL edges; each edge stands for
 * its leading data relation, as Elle's explainer names it, or for process
 * or real-time order when it has them (cyc_lead_table). */
static void walks(oracle *o, uint32_t s, uint32_t v, uint8_t *lab, uint32_t len, unsigned on)
{
    if (len && v == s) {
        int t = iso_cycle_classify(lab, len);
        uint32_t *w = &o->walk[o->comp[s]][t], *m = &o->min[o->comp[s]][t];
        if (*w == 0 || len < *w) *w = len;
        if (!(on >> 31)) /* no vertex twice: a cycle */
            if (*m == 0 || len < *m) *m = len;
        on |= 1u << 31; /* going on through s: s twice */
    }
    if (len == MAXL) return;
    for (uint32_t y = 0; y < o->n; y++)
        if (o->adj[v][y]) {
            uint8_t data = o->adj[v][y] & (W | R | A);
            for (uint8_t ls = (uint8_t)((data & -data) | (o->adj[v][y] & (P | T))); ls; ls &= (uint8_t)(ls - 1)) {
                lab[len] = ls & (uint8_t)-ls;
                walks(o, s, y, lab, len + 1, on | ((on >> y & 1) && y != s ? 1u << 31 : 1u << y));
            }
        }
}

/* Edge labels a walk of the type may use; 0 for predicate types. */
static uint8_t type_labels(int t)
{
    static const uint8_t base[] = {W, W | R, W | R | A, 0, W | R | A, 0, W | R | A, 0};
    static const uint8_t var[] = {0, P, P | T};
    return base[t / 3] ? (uint8_t)(base[t / 3] | var[t % 3]) : 0;
}

/* Classes: mutual reachability over the labels any wanted type may use. */
static void oracle_run(oracle *o, const iso_search_req *q)
{
    uint8_t reach[MAXN][MAXN] = {{0}}, use = 0;
    for (int i = 0; i < q->n_order; i++) use |= type_labels(q->order[i]);
    for (uint32_t a = 0; a < o->n; a++)
        for (uint32_t b = 0; b < o->n; b++) reach[a][b] = a == b || (o->adj[a][b] & use);
    for (uint32_t k = 0; k < o->n; k++)
        for (uint32_t a = 0; a < o->n; a++)
            for (uint32_t b = 0; b < o->n; b++) reach[a][b] |= reach[a][k] && reach[k][b];
    for (uint32_t a = 0; a < o->n; a++) {
        o->comp[a] = a;
        for (uint32_t b = 0; b < a; b++)
            if (reach[a][b] && reach[b][a]) { o->comp[a] = o->comp[b]; break; }
    }
    memset(o->min, 0, sizeof o->min);
    memset(o->walk, 0, sizeof o->walk);
    uint8_t lab[MAXL];
    for (uint32_t s = 0; s < o->n; s++) walks(o, s, s, lab, 0, 1u << s);
}

static void random_want(iso_search_req *q)
{
    uint8_t want[ISO_A_COUNT] = {0};
    uint32_t mode = rnd(3);
    for (int t = 0; t < ISO_N_CYCLE_TYPES; t++) want[t] = mode == 0 || rnd(3) == 0;
    for (int t = 0; t < ISO_N_CYCLE_TYPES; t++) /* close upward, as a check's request is */
        for (int u = 0; u < ISO_N_CYCLE_TYPES; u++)
            if (want[t] && iso_anomaly_implies(u, t)) want[u] = 1;
    request(q, want);
}

static size_t seen_type[ISO_N_CYCLE_TYPES]; /* reported over the run */
static size_t composite, composite_missed;    /* shortest walk of a type no cycle, and then missed */
static size_t longer;                         /* a cycle reported longer than the shortest */

static void cross_check_one(const oracle *o, const iso_graph *g, const iso_search_req *q,
                            const iso_search_out *out)
{
    int got[MAXN][ISO_N_CYCLE_TYPES] = {{0}}; /* reported length by class */
    for (size_t i = 0; i < out->n_cycles; i++) {
        const iso_cycle *c = &out->cycles[i];
        check_genuine(g, c);
        assert_true(wanted(q, c->type));
        uint32_t k = o->comp[c->v[0]];
        for (uint32_t j = 0; j < c->len; j++) assert_int_equal(o->comp[c->v[j]], k);
        assert_int_equal(got[k][c->type], 0);
        got[k][c->type] = (int)c->len;
        seen_type[c->type]++;
    }
    for (uint32_t k = 0; k < o->n; k++)
        for (int t = 0; t < ISO_N_CYCLE_TYPES; t++) {
            int simple_shortest = o->walk[k][t] == o->min[k][t];
            composite += wanted(q, t) && o->min[k][t] && !simple_shortest;
            if (got[k][t]) { /* a cycle; the shortest unless the shortest walk found was none */
                assert_true(o->min[k][t] || (uint32_t)got[k][t] > MAXL);
                if (o->min[k][t]) assert_true((uint32_t)got[k][t] >= o->min[k][t]);
                longer += o->min[k][t] && (uint32_t)got[k][t] > o->min[k][t];
            } else if (wanted(q, t) && o->min[k][t]) { /* present: reported, or the walk found was */
                int covered = 0;                             /* cycles of types reported that imply it */
                for (int u = 0; u < ISO_N_CYCLE_TYPES; u++) covered |= u != t && got[k][u] && iso_anomaly_implies(u, t);
                if (!covered) {
                    for (uint32_t a = 0; a < o->n; a++)
                        for (uint32_t b = 0; b < o->n; b++)
                            if (o->adj[a][b]) print_message("  %u -> %u bits %u\n", a, b, o->adj[a][b]);
                    for (int u = 0; u < ISO_N_CYCLE_TYPES; u++)
                        if (got[k][u]) print_message("  reported %s len %d\n", iso_anomaly_name(u), got[k][u]);
                    fail_msg("type %s (len %u) missed in class %u", iso_anomaly_name(t), o->min[k][t], k);
                }
                composite_missed++;
            }
        }
}


static void test_random_cross_check(void **st)
{
    (void)st;
    static const uint8_t labels[] = {W, R, A, P, T};
    for (int round = 0; round < 8000; round++) {
        oracle o;
        memset(&o, 0, sizeof o);
        o.n = 2 + rnd(MAXN - 1);
        uint32_t dens = 2 + rnd(4);
        iso_edges e = {0};
        for (uint32_t a = 0; a < o.n; a++)
            for (uint32_t b = 0; b < o.n; b++) {
                if (a == b || rnd(10) >= dens) continue;
                uint8_t bits = labels[rnd(5)];
                if (rnd(4) == 0) bits |= labels[rnd(5)];
                o.adj[a][b] = bits;
                iso_edges_add(&e, a, b, bits);
            }
        iso_graph g;
        iso_graph_build(&g, o.n, &e);
        iso_edges_free(&e);
        iso_search_req q;
        random_want(&q);
        oracle_run(&o, &q);
        iso_search_out out = {0}, out3 = {0};
        iso_search_cycles(&g, &q, &out);
        cross_check_one(&o, &g, &q, &out);
        q.threads = 3;
        iso_search_cycles(&g, &q, &out3);
        same_out(&out, &out3);
        iso_search_out_free(&out);
        iso_search_out_free(&out3);
        iso_graph_free(&g);
    }
    for (int t = 0; t < ISO_N_CYCLE_TYPES; t++) /* the run covered every type */
        if (type_labels(t) && seen_type[t] < 5) fail_msg("%s: %zu", iso_anomaly_name(t), seen_type[t]);
    print_message("types whose shortest walk is no cycle: %zu; missed (a type implying it reported): %zu; "
                  "reported longer than the shortest cycle: %zu\n", composite, composite_missed, longer);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_each_type),
        cmocka_unit_test(test_every_type),
        cmocka_unit_test(test_shortest),
        cmocka_unit_test(test_timeout_fallback),
        cmocka_unit_test(test_shorten_cap),
        cmocka_unit_test(test_whole_budget_fair),
        cmocka_unit_test(test_random_cross_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
