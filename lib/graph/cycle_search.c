/*
 * graph/cycle_search.c -- the cycle search driver: components, the requested
 * order of types, the time budgets with their fallback, threads.
 *
 * Each non-trivial component is searched for every wanted cycle type in
 * the order asked, one cycle per type and component, but for the process
 * and real-time variants of a type found there (a plain cycle is one of
 * each). Elle's cycle-cases-in-scc skips every type one it found implies;
 * isolde reports every other forbidden type it finds a cycle of (issue 25
 * item 5, docs/DEVIATIONS.md). isolde then shortens what it found (cycle_bfs.c), up to a
 * work cap, so reported cycles are shortest unless the cap or a budget
 * ended that first. A search that cannot finish in its budget ends the
 * component's search as Elle's does: a timeout, and every requested
 * subgraph the component makes cyclic (Elle's cycle-exists-specs). The
 * budget of the whole search is shared out as components start (see
 * worker), so the search ends by it. What a component shows depends on
 * timing only when a budget cut its search short.
 */
#include "graph/cycle_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-component results ------------------------------------------ */

typedef struct comp_out {
    iso_cycle *cycles;
    size_t n_cycles, cap_cycles;
    iso_cycle_exists *exists;
    size_t n_exists, cap_exists;
    iso_cycle_timeout timeout;   /* type -1: none */
    int timed_out;               /* the deadline cut the search short */
    int retry;                   /* search again in the second round */
} comp_out;

static void add_cycle(comp_out *o, const cyc_local *L, int type, const cyc_walk *w)
{
    iso_cycle c = {type, w->len, iso_xmalloc(w->len * sizeof(uint32_t)), iso_xmalloc(w->len)};
    for (uint32_t i = 0; i < w->len; i++) c.v[i] = L->glob[w->v[i]];
    memcpy(c.e, w->e, w->len);
    ISO_PUSH(o->cycles, o->n_cycles, o->cap_cycles, c);
}

/* The whole component, for the timeout's picture. */
static void keep_component(const cyc_local *L, iso_subgraph *sub)
{
    uint32_t *all = iso_xmalloc(((size_t)L->k ? L->k : 1) * sizeof *all);
    for (uint32_t i = 0; i < L->k; i++) all[i] = i;
    cyc_keep_subgraph(L, all, L->k, sub);
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
    double end;              /* the whole search's deadline, 0 = none */
    size_t *todo, n_todo;    /* the round's jobs, ascending */
    int round, threads;
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

/* Whether a cycle found of the same base and a variant no stronger (plain
 * before -process before -realtime) shows type's already: a G1c cycle is
 * one of G1c-realtime's. */
static int variant_found(const iso_search_req *req, const int *found, int type)
{
    for (int t = 0; t < req->n_order; t++)
        if (found[t] && req->order[t] / 3 == type / 3 && req->order[t] % 3 <= type % 3) return 1;
    return 0;
}

/* Pass 1: in the order asked, a first walk of each type.
 * Returns 0 when the budget ran out (o->timeout says during which type). */
static int find_types(cyc_search *S, const iso_search_req *req, cyc_walk *walks,
                      int *found, comp_out *o)
{
    for (int t = 0; t < req->n_order; t++) {
        int type = req->order[t];
        const cyc_spec *sp = spec_of(type);
        if (!sp || variant_found(req, found, type)) continue;
        if (S->deadline > 0 && iso_now() >= S->deadline) S->timed_out = 1;
        int r = S->timed_out ? CYC_TIMEOUT : cyc_search_type(S, sp, &walks[t]);
        if (r == CYC_FOUND) found[t] = 1;
        if (r == CYC_TIMEOUT) {
            o->timeout.type = type;
            keep_component(S->L, &o->timeout.comp);
            return 0;
        }
    }
    return 1;
}

/* Pass 2: shorten each walk found, until it is shortest or the type's work
 * cap is spent (SHORTEN_PER_EDGE edge visits per vertex and edge of the
 * component, at least SHORTEN_MIN): a count, not a time, so the walk
 * shown is a function of the input unless a budget runs out first. */
#define SHORTEN_PER_EDGE 16u
#define SHORTEN_MIN (1u << 22)
static void shorten(cyc_search *S, const iso_search_req *req, cyc_walk *walks, const int *found)
{
    uint64_t size = (uint64_t)S->L->k + S->L->pairs;
    for (int t = 0; t < req->n_order && !S->timed_out; t++) {
        const cyc_spec *sp = spec_of(req->order[t]);
        if (!found[t] || !sp) continue;
        S->work = 0;
        S->work_cap = size * SHORTEN_PER_EDGE > SHORTEN_MIN ? size * SHORTEN_PER_EDGE : SHORTEN_MIN;
        cyc_search_type(S, sp, &walks[t]);
    }
}

/* Whether w, reduced, visits no transaction twice (a hub is no
 * transaction): a cycle. A walk that is none is two or more cycles of
 * other types sharing a transaction (a G-single-item cycle twice makes a
 * "G-nonadjacent-item" walk), which are reported as themselves; Elle's
 * search, too, finds only cycles. seen: k zeroed slots, left zeroed. */
static int simple_cycle(cyc_walk *w, int type, uint8_t *seen)
{
    cyc_walk_reduce(w, type);
    uint32_t i = 0;
    for (; i < w->len && !seen[w->v[i]]; i++) seen[w->v[i]] = 1;
    for (uint32_t j = 0; j < w->len; j++) seen[w->v[j]] = 0;
    return i == w->len;
}

/* Each type's walk as a cycle: the shortened one, or else the first one
 * found when only that one is a cycle. */
static void add_cycles(comp_out *o, const cyc_local *L, const iso_search_req *req, cyc_walk *walks,
                       cyc_walk *firsts, const int *found)
{
    uint8_t *seen = iso_xcalloc(L->k ? L->k : 1, 1);
    for (int t = 0; t < req->n_order; t++) {
        int type = req->order[t];
        if (found[t] && simple_cycle(&walks[t], type, seen)) add_cycle(o, L, type, &walks[t]);
        else if (found[t] && simple_cycle(&firsts[t], type, seen)) add_cycle(o, L, type, &firsts[t]);
        cyc_walk_free(&walks[t]);
        cyc_walk_free(&firsts[t]);
    }
    iso_free(seen);
}

static void walk_copy(cyc_walk *to, const cyc_walk *from)
{
    to->len = to->cap = from->len;
    to->v = iso_xmalloc((from->len ? from->len : 1) * sizeof *to->v);
    to->e = iso_xmalloc(from->len ? from->len : 1);
    memcpy(to->v, from->v, from->len * sizeof *to->v);
    memcpy(to->e, from->e, from->len);
}

static void search_component(const jobs *J, size_t i, double deadline, comp_out *o)
{
    cyc_local L;
    const iso_search_req *req = J->req;
    uint32_t k = J->start[i + 1] - J->start[i];
    cyc_local_build(&L, J->g, J->verts + J->start[i], k, J->local_id, J->comp, J->cid[i],
                    J->mask);
    cyc_search S;
    cyc_search_init(&S, &L, deadline, J->lead);
    cyc_walk walks[ISO_N_CYCLE_TYPES], firsts[ISO_N_CYCLE_TYPES];
    int found[ISO_N_CYCLE_TYPES] = {0};
    memset(walks, 0, sizeof walks);
    memset(firsts, 0, sizeof firsts);
    o->timeout.type = -1;
    if (!find_types(&S, req, walks, found, o)) cyc_exists_all(&S, req, &o->exists, &o->n_exists, &o->cap_exists);
    for (int t = 0; t < req->n_order; t++)
        if (found[t]) walk_copy(&firsts[t], &walks[t]);
    shorten(&S, req, walks, found);
    o->timed_out = S.timed_out;
    add_cycles(o, &L, req, walks, firsts, found);
    cyc_search_free(&S);
    cyc_local_free(&L);
}

/* ---- the budgets ---------------------------------------------------- */

/* A component's deadline when it starts as item `at` of the round: its
 * own budget, or less, its fair share of what is left of the whole
 * search's: an equal part for each component this thread may still have
 * to search in the round. *whole: the share is what limits it. */
static double deadline_of(const jobs *J, size_t at, int *whole)
{
    const iso_search_req *req = J->req;
    double now = iso_now(), own = req->timeout_ms > 0 ? (double)req->timeout_ms / 1e3 : -1;
    *whole = 0;
    if (J->end <= 0) return own < 0 ? 0 : now + own;
    size_t left = J->n_todo - at, rounds = (left + (size_t)J->threads - 1) / (size_t)J->threads;
    double share = (J->end - now) / (double)rounds;
    if (own >= 0 && own <= share) return now + own;
    *whole = 1;
    return now + (share > 0 ? share : 0); /* now: out of time at once */
}

static void cycles_free(iso_cycle *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        iso_free(c[i].v);
        iso_free(c[i].e);
    }
    iso_free(c);
}

static void comp_out_free(comp_out *o)
{
    cycles_free(o->cycles, o->n_cycles);
    for (size_t x = 0; x < o->n_exists; x++) cyc_subgraph_free(&o->exists[x].scc);
    if (o->timeout.type >= 0) cyc_subgraph_free(&o->timeout.comp);
    iso_free(o->exists);
    memset(o, 0, sizeof *o);
}

/* In the first round a component that its share of the whole budget cut
 * short is searched again in the second, with a share of what the others
 * left: a hard component costs the others no more than its share, and
 * gets what they do not need. */
static void worker(void *arg)
{
    jobs *J = arg;
    for (size_t at; (at = iso_next_item(&J->next)) < J->n_todo;) {
        size_t i = J->todo[at];
        int whole;
        double deadline = deadline_of(J, at, &whole);
        comp_out *o = &J->outs[i];
        search_component(J, i, deadline, o);
        if (whole && o->timed_out && J->round == 0) {
            comp_out_free(o);
            o->retry = 1;
        } else if (o->timeout.type >= 0) {
            o->timeout.whole = whole;
        }
    }
}

/* Both rounds: every component, then those the first cut short. */
static void search_all(jobs *J)
{
    int threads = J->req->threads > 1 ? J->req->threads : 1;
    J->todo = iso_xmalloc((J->n ? J->n : 1) * sizeof *J->todo);
    for (size_t i = 0; i < J->n; i++) J->todo[i] = i;
    J->n_todo = J->n;
    for (J->round = 0; J->round < 2 && J->n_todo; J->round++) {
        J->threads = (size_t)threads > J->n_todo ? (int)J->n_todo : threads;
        J->next = 0;
        iso_parallel(J->threads, worker, J);
        size_t m = 0;
        for (size_t at = 0; at < J->n_todo; at++)
            if (J->outs[J->todo[at]].retry) J->todo[m++] = J->todo[at];
        J->n_todo = m;
    }
    iso_free(J->todo);
}

/* ---- components and results ------------------------------------------- */

static uint8_t union_mask(const iso_search_req *req)
{
    uint8_t m = 0;
    for (int t = 0; t < req->n_order; t++)
        if (spec_of(req->order[t])) m |= spec_of(req->order[t])->allow;
    for (int i = 0; i < req->n_exists; i++)
        m |= req->exists[i].n | (req->exists[i].rw || req->exists[i].ext ? ISO_EDGE_RW : 0);
    return m;
}

/* Jobs: the non-trivial components, ordered by their lowest vertex; n
 * transactions (a hub is no vertex of a job: a component of one
 * transaction and hubs has no cycle, its pairs exclude the transaction
 * with itself). */
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
    J.end = req->total_ms > 0 ? iso_now() + (double)req->total_ms / 1e3 : 0;
    cyc_lead_table(req, J.lead);
    uint32_t *comp = iso_xmalloc((size_t)g->n * sizeof *comp);
    J.comp = comp;
    make_jobs(&J, iso_graph_txns(g), iso_scc(g, J.mask, comp));
    J.outs = iso_xcalloc(J.n ? J.n : 1, sizeof *J.outs);
    search_all(&J);
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
    cycles_free(out->cycles, out->n_cycles);
    for (size_t i = 0; i < out->n_exists; i++) cyc_subgraph_free(&out->exists[i].scc);
    for (size_t i = 0; i < out->n_timeouts; i++) cyc_subgraph_free(&out->timeouts[i].comp);
    iso_free(out->exists);
    iso_free(out->timeouts);
    memset(out, 0, sizeof *out);
}
