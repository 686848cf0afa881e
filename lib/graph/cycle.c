/*
 * cycle.c -- the cycle search driver: components, severity order, the time
 * budget with Elle's cycle-exists fallback, threads, and classification.
 *
 * As in Elle (txn.clj cycle-cases-in-scc), each non-trivial component is
 * searched for every wanted cycle type in anomaly-depth order, skipping a
 * type implied by one already found there; one cycle per type and
 * component. isolde then spends what is left of the budget shortening what
 * it found (cycle_bfs.c), so reported cycles are shortest unless the budget
 * ran out first. A search that cannot finish in the budget ends the
 * component's search as Elle's does: a cycle-search-timeout, and the
 * *-cycle-exists proof of every wanted model whose subgraph the component
 * violates (Elle's cycle-exists-specs, with its redundancy rule).
 */
#include "graph/cycle_int.h"
#include "check/models.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define C(b, v) ISO_CYCLE(ISO_CB_##b, ISO_CV_##v)
/* Elle's anomaly-depth-compare order (depth in implied-anomalies merged with
 * anomaly-severity-graph, ties by name) of the types isolde can produce. */
static const int search_order[] = {
    C(G_SINGLE_ITEM, PLAIN), C(G0, PLAIN), C(G_NONADJACENT_ITEM, PLAIN),
    C(G_SINGLE_ITEM, PROCESS), C(G1C, PLAIN), C(G_NONADJACENT_ITEM, PROCESS),
    C(G_SINGLE_ITEM, REALTIME), C(G2_ITEM, PLAIN), C(G_NONADJACENT_ITEM, REALTIME),
    C(G0, PROCESS), C(G1C, PROCESS), C(G2_ITEM, PROCESS),
    C(G0, REALTIME), C(G1C, REALTIME), C(G2_ITEM, REALTIME),
};
#undef C
#define N_SEARCH (sizeof search_order / sizeof search_order[0])

/* Elle's cycle-exists-specs, in its order: the subgraph a model keeps
 * acyclic. ext: the data edges n extended by one rw hop (n ∪ n;rw). */
typedef struct ce_spec { int type; const char *model; uint8_t n; uint8_t rw; uint8_t ext; } ce_spec;
#define W ISO_EDGE_WW
#define R ISO_EDGE_WR
#define P ISO_EDGE_PROCESS
#define T ISO_EDGE_REALTIME
static const ce_spec ce_specs[] = {
    {ISO_A_PL_1_CYCLE_EXISTS, "PL-1", W, 0, 0},
    {ISO_A_PL_2_CYCLE_EXISTS, "PL-2", W | R, 0, 0},
    {ISO_A_PL_SI_CYCLE_EXISTS, "PL-SI", W | R, 0, 1},
    {ISO_A_PL_2_99_CYCLE_EXISTS, "PL-2.99", W | R, 1, 0},
    {ISO_A_PL_3_CYCLE_EXISTS, "PL-3", W | R, 1, 0},
    {ISO_A_STRONG_SESSION_PL_1_CYCLE_EXISTS, "strong-session-PL-1", W | P, 0, 0},
    {ISO_A_STRONG_SESSION_PL_2_CYCLE_EXISTS, "strong-session-PL-2", W | R | P, 0, 0},
    {ISO_A_STRONG_SESSION_SNAPSHOT_ISOLATION_CYCLE_EXISTS, "strong-session-snapshot-isolation",
     W | R | P, 0, 1},
    {ISO_A_STRONG_SESSION_SERIALIZABLE_CYCLE_EXISTS, "strong-session-serializable", W | R | P, 1, 0},
    {ISO_A_STRONG_PL_1_CYCLE_EXISTS, "strong-PL-1", W | T, 0, 0},
    {ISO_A_STRONG_PL_2_CYCLE_EXISTS, "strong-PL-2", W | R | T, 0, 0},
    {ISO_A_STRONG_SNAPSHOT_ISOLATION_CYCLE_EXISTS, "strong-snapshot-isolation", W | R | T, 0, 1},
    {ISO_A_PL_SS_CYCLE_EXISTS, "PL-SS", W | R | T, 1, 0},
};
#define N_CE (sizeof ce_specs / sizeof ce_specs[0])

static const ce_spec *ce_spec_of(int type)
{
    for (size_t i = 0; i < N_CE; i++)
        if (ce_specs[i].type == type) return &ce_specs[i];
    return NULL;
}

const char *iso_cycle_exists_model(int type)
{
    const ce_spec *c = ce_spec_of(type);
    return c ? iso_model_friendly(iso_model_parse(c->model)) : "?";
}

void iso_cycle_exists_subgraph(int type, iso_buf *out)
{
    const ce_spec *c = ce_spec_of(type);
    if (!c) return;
    uint8_t rels = (uint8_t)(c->n | (c->rw ? ISO_EDGE_RW : 0));
    static const struct { uint8_t bit; const char *name; } names[] = {
        {W, "ww"}, {R, "wr"}, {ISO_EDGE_RW, "rw"}, {P, "process"}, {T, "realtime"}};
    const char *sep = "";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (rels & names[i].bit) {
            iso_buf_printf(out, "%s%s", sep, names[i].name);
            sep = " ";
        }
    if (c->ext) iso_buf_puts(out, ", extended by rw");
}

int iso_cycle_classify(const uint8_t *e, uint32_t len)
{
    if (len == 0) return -1;
    uint32_t rw = 0;
    int adj = 0, wr = 0, rt = 0, proc = 0;
    for (uint32_t i = 0; i < len; i++) {
        if (e[i] == ISO_EDGE_RW) {
            rw++;
            if (e[(i + len - 1) % len] == ISO_EDGE_RW) adj = 1;
        }
        wr |= e[i] == R;
        rt |= e[i] == T;
        proc |= e[i] == P;
    }
    int base = rw == 1 ? ISO_CB_G_SINGLE_ITEM
             : rw > 1 ? (adj ? ISO_CB_G2_ITEM : ISO_CB_G_NONADJACENT_ITEM)
             : wr ? ISO_CB_G1C : ISO_CB_G0;
    return ISO_CYCLE(base, rt ? ISO_CV_REALTIME : proc ? ISO_CV_PROCESS : ISO_CV_PLAIN);
}

/* ---- per-component results ------------------------------------------ */

typedef struct comp_out {
    iso_cycle *cycles;
    size_t n_cycles, cap_cycles;
    iso_cycle_exists *exists;
    size_t n_exists, cap_exists;
    iso_cycle_timeout timeout;   /* type -1: none */
} comp_out;

static void add_cycle(comp_out *o, const cyc_local *L, int type, const cyc_walk *w)
{
    iso_cycle c = {type, w->len, iso_xmalloc(w->len * sizeof(uint32_t)), iso_xmalloc(w->len)};
    for (uint32_t i = 0; i < w->len; i++) c.v[i] = L->glob[w->v[i]];
    memcpy(c.e, w->e, w->len);
    ISO_PUSH(o->cycles, o->n_cycles, o->cap_cycles, c);
}

/* ---- the cycle-exists fallback ---------------------------------------- */

/* The graph whose cycles are those of n ∪ n;rw: copy 0 of a vertex is
 * entered by an n edge, copy 1 by an rw edge, which copy 1 cannot take. */
static void ext_graph(const cyc_local *L, uint8_t n, iso_graph *h)
{
    iso_edges es = {0};
    for (uint32_t a = 0; a < L->k; a++)
        for (uint32_t e = L->g.off[a]; e < L->g.off[a + 1]; e++) {
            uint32_t b = L->g.dst[e];
            if (L->g.bits[e] & n) {
                iso_edges_add(&es, 2 * a, 2 * b, 1);
                iso_edges_add(&es, 2 * a + 1, 2 * b, 1);
            }
            if (L->g.bits[e] & ISO_EDGE_RW) iso_edges_add(&es, 2 * a, 2 * b + 1, 1);
        }
    iso_graph_build(h, 2 * L->k, &es);
    iso_edges_free(&es);
}

/* The smallest non-trivial class of comp[0..n) (ties: the one holding the
 * lowest vertex); its vertices, divided by stride, go to *out (ascending,
 * unique). Returns their count, 0 if every class is a single vertex. */
static uint32_t smallest_class(const uint32_t *comp, uint32_t n, uint32_t nc, uint32_t stride,
                               uint32_t **out)
{
    uint32_t *size = iso_xcalloc(nc ? nc : 1, sizeof *size);
    for (uint32_t v = 0; v < n; v++) size[comp[v]]++;
    uint32_t best = ISO_NONE, m = 0;
    for (uint32_t v = 0; v < n; v++)
        if (size[comp[v]] > 1 && (best == ISO_NONE || size[comp[v]] < size[best])) best = comp[v];
    if (best != ISO_NONE) {
        *out = iso_xmalloc(size[best] * sizeof **out);
        for (uint32_t v = 0; v < n; v++)
            if (comp[v] == best && (m == 0 || (*out)[m - 1] != v / stride)) (*out)[m++] = v / stride;
    }
    iso_free(size);
    return m;
}

/* Does the component violate spec's model? Fills x with the proof. */
static int ce_violated(cyc_search *S, const ce_spec *sp, iso_cycle_exists *x)
{
    const cyc_local *L = S->L;
    uint32_t *locals = NULL, n;
    if (sp->ext) {
        iso_graph h;
        ext_graph(L, sp->n, &h);
        uint32_t *comp = iso_xmalloc((h.n ? h.n : 1) * sizeof *comp);
        n = smallest_class(comp, h.n, iso_scc(&h, 0xff, comp), 2, &locals);
        iso_free(comp);
        iso_graph_free(&h);
    } else {
        uint32_t nc = cyc_sub_components(S, (uint8_t)(sp->n | (sp->rw ? ISO_EDGE_RW : 0)));
        n = smallest_class(S->sub, L->k, nc, 1, &locals);
    }
    if (!n) return 0;
    for (uint32_t i = 0; i < n; i++) locals[i] = L->glob[locals[i]];
    *x = (iso_cycle_exists){sp->type, n, locals};
    return 1;
}

/* Elle's cycle-exists-cases: a model already shown violated makes every
 * stronger model's case redundant. */
static void cycle_exists(cyc_search *S, const iso_search_req *req, comp_out *o)
{
    int found[N_CE] = {0};
    for (size_t i = 0; i < N_CE; i++) {
        if (!req->want[ce_specs[i].type]) continue;
        int m = iso_model_parse(ce_specs[i].model), redundant = 0;
        uint8_t prohibited[ISO_A_COUNT];
        iso_models_prohibited(&m, m >= 0, prohibited);
        for (size_t j = 0; j < i; j++)
            redundant |= found[j] && m >= 0 && prohibited[ce_specs[j].type];
        iso_cycle_exists x;
        if (redundant || !ce_violated(S, &ce_specs[i], &x)) continue;
        found[i] = 1;
        ISO_PUSH(o->exists, o->n_exists, o->cap_exists, x);
    }
}

/* ---- one component ------------------------------------------------------ */

typedef struct jobs {
    const iso_graph *g;
    const iso_search_req *req;
    const uint32_t *comp;    /* component of each vertex */
    uint32_t *verts;         /* vertices of the jobs' components, grouped */
    uint32_t *start;         /* job i owns verts[start[i] .. start[i + 1]) */
    uint32_t *cid;           /* job i's component id */
    uint32_t *local_id;      /* each vertex's position in its job's verts */
    uint8_t mask;            /* edges any wanted search may use */
    uint8_t lead[32];        /* cyc_lead_table */
    size_t n, next;
    comp_out *outs;
} jobs;

/* Each type's spec, computed once (cyc_spec_init walks 256 states). */
static cyc_spec specs[ISO_N_CYCLE_TYPES];
static uint8_t spec_ok[ISO_N_CYCLE_TYPES];
static pthread_once_t specs_once = PTHREAD_ONCE_INIT;

static void init_specs(void)
{
    for (int t = 0; t < ISO_N_CYCLE_TYPES; t++) spec_ok[t] = (uint8_t)cyc_spec_init(&specs[t], t);
}

static const cyc_spec *spec_of(int type)
{
    pthread_once(&specs_once, init_specs);
    return iso_is_cycle_type(type) && spec_ok[type] ? &specs[type] : NULL;
}

static int implied(const int *found, int type)
{
    for (size_t t = 0; t < N_SEARCH; t++)
        if (found[t] && iso_anomaly_implies(search_order[t], type)) return 1;
    return 0;
}

/* Pass 1: in severity order, a first walk of each type not yet implied.
 * Returns 0 when the budget ran out (o->timeout says during which type). */
static int find_types(cyc_search *S, const iso_search_req *req, cyc_walk *walks,
                      int *found, comp_out *o)
{
    for (size_t t = 0; t < N_SEARCH; t++) {
        int type = search_order[t];
        const cyc_spec *sp = spec_of(type);
        if (!req->want[type] || implied(found, type) || !sp) continue;
        if (S->deadline > 0 && iso_now() > S->deadline) S->timed_out = 1;
        int r = S->timed_out ? CYC_TIMEOUT : cyc_search_type(S, sp, &walks[t]);
        if (r == CYC_FOUND) found[t] = 1;
        if (r == CYC_TIMEOUT) {
            o->timeout = (iso_cycle_timeout){type, S->L->k};
            return 0;
        }
    }
    return 1;
}

static void search_component(const jobs *J, size_t i, comp_out *o)
{
    cyc_local L;
    uint32_t k = J->start[i + 1] - J->start[i];
    cyc_local_build(&L, J->g, J->verts + J->start[i], k, J->local_id, J->comp, J->cid[i],
                    J->mask);
    double deadline = J->req->timeout_ms > 0 ? iso_now() + (double)J->req->timeout_ms / 1e3 : 0;
    cyc_search S;
    cyc_search_init(&S, &L, deadline, J->lead);
    cyc_walk walks[N_SEARCH];
    int found[N_SEARCH] = {0};
    memset(walks, 0, sizeof walks);
    o->timeout.type = -1;
    if (!find_types(&S, J->req, walks, found, o)) cycle_exists(&S, J->req, o);
    for (size_t t = 0; t < N_SEARCH && !S.timed_out; t++) { /* pass 2: shorten */
        const cyc_spec *sp = spec_of(search_order[t]);
        if (found[t] && sp) cyc_search_type(&S, sp, &walks[t]);
    }
    for (size_t t = 0; t < N_SEARCH; t++) {
        if (found[t]) {
            cyc_walk_reduce(&walks[t], search_order[t]);
            add_cycle(o, &L, search_order[t], &walks[t]);
        }
        cyc_walk_free(&walks[t]);
    }
    cyc_search_free(&S);
    cyc_local_free(&L);
}

static void worker(void *arg)
{
    jobs *J = arg;
    for (size_t i; (i = iso_next_item(&J->next)) < J->n;) search_component(J, i, &J->outs[i]);
}

/* ---- components and results ------------------------------------------- */

static uint8_t union_mask(const iso_search_req *req)
{
    uint8_t m = 0;
    for (int t = 0; t < ISO_N_CYCLE_TYPES; t++)
        if (req->want[t] && spec_of(t)) m |= spec_of(t)->allow;
    for (size_t i = 0; i < N_CE; i++)
        if (req->want[ce_specs[i].type])
            m |= ce_specs[i].n | (ce_specs[i].rw || ce_specs[i].ext ? ISO_EDGE_RW : 0);
    return m;
}

/* Jobs: the non-trivial components, ordered by their lowest vertex. */
static void make_jobs(jobs *J, uint32_t n, uint32_t nc)
{
    uint32_t *size = iso_xcalloc(nc ? nc : 1, sizeof *size);
    uint32_t *job_of = iso_xmalloc((nc ? nc : 1) * sizeof *job_of);
    memset(job_of, 0xff, (size_t)nc * sizeof *job_of);
    for (uint32_t v = 0; v < n; v++) size[J->comp[v]]++;
    size_t cap = 0, total = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t c = J->comp[v];
        if (size[c] < 2 || job_of[c] != ISO_NONE) continue;
        job_of[c] = (uint32_t)J->n;
        ISO_PUSH(J->cid, J->n, cap, c);
        total += size[c];
    }
    J->start = iso_xmalloc((J->n + 1) * sizeof *J->start);
    J->verts = iso_xmalloc((total ? total : 1) * sizeof *J->verts);
    J->start[0] = 0;
    for (size_t i = 0; i < J->n; i++) J->start[i + 1] = J->start[i] + size[J->cid[i]];
    uint32_t *fill = size; /* reuse: next free slot per job */
    for (size_t i = 0; i < J->n; i++) fill[i] = J->start[i];
    J->local_id = iso_xmalloc((n ? n : 1) * sizeof *J->local_id);
    for (uint32_t v = 0; v < n; v++) {
        uint32_t j = job_of[J->comp[v]];
        if (j == ISO_NONE) continue;
        J->local_id[v] = fill[j] - J->start[j];
        J->verts[fill[j]++] = v;
    }
    iso_free(size);
    iso_free(job_of);
}

static void merge(iso_search_out *out, comp_out *o)
{
    for (size_t i = 0; i < o->n_cycles; i++)
        ISO_PUSH(out->cycles, out->n_cycles, out->cap_cycles, o->cycles[i]);
    for (size_t i = 0; i < o->n_exists; i++)
        ISO_PUSH(out->exists, out->n_exists, out->cap_exists, o->exists[i]);
    if (o->timeout.type >= 0)
        ISO_PUSH(out->timeouts, out->n_timeouts, out->cap_timeouts, o->timeout);
    iso_free(o->cycles);
    iso_free(o->exists);
}

int iso_search_cycles(const iso_graph *g, const iso_search_req *req, iso_search_out *out)
{
    jobs J = {.g = g, .req = req, .mask = union_mask(req)};
    if (!J.mask || g->n == 0) return 0;
    cyc_lead_table(req, J.lead);
    uint32_t *comp = iso_xmalloc((size_t)g->n * sizeof *comp);
    J.comp = comp;
    make_jobs(&J, g->n, iso_scc(g, J.mask, comp));
    J.outs = iso_xcalloc(J.n ? J.n : 1, sizeof *J.outs);
    int threads = req->threads > 1 ? req->threads : 1;
    iso_parallel((size_t)threads > J.n ? (int)J.n : threads, worker, &J);
    for (size_t i = 0; i < J.n; i++) merge(out, &J.outs[i]);
    iso_free(J.outs);
    iso_free(J.verts);
    iso_free(J.start);
    iso_free(J.cid);
    iso_free(J.local_id);
    iso_free(comp);
    return 0;
}

void iso_search_out_free(iso_search_out *out)
{
    for (size_t i = 0; i < out->n_cycles; i++) {
        iso_free(out->cycles[i].v);
        iso_free(out->cycles[i].e);
    }
    for (size_t i = 0; i < out->n_exists; i++) iso_free(out->exists[i].scc);
    iso_free(out->cycles);
    iso_free(out->exists);
    iso_free(out->timeouts);
    memset(out, 0, sizeof *out);
}
