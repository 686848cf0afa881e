/*
 * elle/search.c -- what a check asks of the cycle search (graph/cycle.h),
 * in Elle's vocabulary: the forbidden cycle types in Elle's anomaly-depth
 * order, and
 * Elle's cycle-exists specs (the subgraph each model keeps acyclic) with
 * their redundancy rule; and the names proofs give those specs.
 */
#include "elle/search.h"
#include "elle/models.h"

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
_Static_assert(N_CE <= ISO_MAX_EXISTS, "the search takes the specs");

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
    const char *sep = "";
    for (int k = 0; k < ISO_EDGE_N; k++)
        if (rels & 1 << k) {
            iso_buf_printf(out, "%s%s", sep, iso_edge_name(1 << k));
            sep = " ";
        }
    if (c->ext) iso_buf_puts(out, ", extended by rw");
}

/* Spec i is redundant once spec j < i was found when i's model already
 * prohibits j's anomaly (Elle's cycle-exists-cases). */
static uint32_t redundant_after(size_t i)
{
    int m = iso_model_parse(ce_specs[i].model);
    if (m < 0) return 0;
    uint8_t prohibited[ISO_A_COUNT];
    iso_models_prohibited(&m, 1, prohibited);
    uint32_t bits = 0;
    for (size_t j = 0; j < i; j++)
        if (prohibited[ce_specs[j].type]) bits |= 1u << j;
    return bits;
}

void iso_search_request(iso_search_req *req, uint8_t order_edges, const uint8_t want[ISO_A_COUNT])
{
    memset(req, 0, sizeof *req);
    for (size_t t = 0; t < N_SEARCH; t++) {
        int type = search_order[t], var = type % 3;
        if (!want[type] || (var == ISO_CV_PROCESS && !(order_edges & ISO_EDGE_PROCESS)) ||
            (var == ISO_CV_REALTIME && !(order_edges & ISO_EDGE_REALTIME)))
            continue;
        req->order[req->n_order++] = type;
    }
    for (size_t i = 0; i < N_CE; i++)
        req->exists[req->n_exists++] = (iso_exists_spec){ce_specs[i].type, ce_specs[i].n, ce_specs[i].rw,
                                                         ce_specs[i].ext, redundant_after(i)};
}
