/*
 * elle/models.c -- Elle's consistency models (elle.md section 1): the 55
 * accepted names, the models DAG, what each model directly proscribes, and
 * the two queries built on them: which anomalies a set of models prohibits,
 * and which models a set of found anomalies rules out (not / also-not);
 * what a request of models and anomalies leaves open (iso_request_gap);
 * and how completely each model is checked per workload.
 *
 * The data are static tables over dense model ids; every closure is
 * computed once (pthread_once) into small static matrices, so the queries
 * never allocate except for the boundary's two output arrays.
 */
#include "elle/models.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "solve/solve.h"

/* The 37 canonical models: id, canonical name, friendly name (what Elle
 * prints in :not / :also-not: the inverse of canonical-model-names, with
 * PL-3 -> serializable and PL-SS -> strong-serializable). */
#define MODELS(X) \
    X(ONE_SR, "1SR", "1SR") \
    X(PL_1, "PL-1", "read-uncommitted") \
    X(PL_2, "PL-2", "read-committed") \
    X(PL_2PLUS, "PL-2+", "consistent-view") \
    X(PL_2_99, "PL-2.99", "repeatable-read") \
    X(PL_2L, "PL-2L", "monotonic-view") \
    X(PL_3, "PL-3", "serializable") \
    X(PL_3U, "PL-3U", "update-serializable") \
    X(PL_CS, "PL-CS", "cursor-stability") \
    X(PL_FCV, "PL-FCV", "forward-consistent-view") \
    X(PL_MSR, "PL-MSR", "monotonic-snapshot-read") \
    X(PL_SI, "PL-SI", "snapshot-isolation") \
    X(PL_SS, "PL-SS", "strong-serializable") \
    X(PRAM, "PRAM", "PRAM") \
    X(CAUSAL, "causal", "causal") \
    X(CAUSAL_CERONE, "causal-cerone", "causal-cerone") \
    X(LINEARIZABLE, "linearizable", "linearizable") \
    X(MAV, "monotonic-atomic-view", "monotonic-atomic-view") \
    X(MONOTONIC_READS, "monotonic-reads", "monotonic-reads") \
    X(MONOTONIC_WRITES, "monotonic-writes", "monotonic-writes") \
    X(PSI, "parallel-snapshot-isolation", "parallel-snapshot-isolation") \
    X(PREFIX, "prefix", "prefix") \
    X(READ_ATOMIC, "read-atomic", "read-atomic") \
    X(RC_BE, "read-committed-be", "read-committed-be") \
    X(RYW, "read-your-writes", "read-your-writes") \
    X(SEQUENTIAL, "sequential", "sequential") \
    X(SESSION_SER, "session-serializable", "session-serializable") \
    X(STRONG_PL_1, "strong-PL-1", "strong-read-uncommitted") \
    X(STRONG_PL_2, "strong-PL-2", "strong-read-committed") \
    X(SS_PL_1, "strong-session-PL-1", "strong-session-read-uncommitted") \
    X(SS_PL_2, "strong-session-PL-2", "strong-session-read-committed") \
    X(SS_SER, "strong-session-serializable", "strong-session-serializable") \
    X(SS_SI, "strong-session-snapshot-isolation", "strong-session-snapshot-isolation") \
    X(STRONG_SI, "strong-snapshot-isolation", "strong-snapshot-isolation") \
    X(UPDATE_ATOMIC, "update-atomic", "update-atomic") \
    X(VIEW_SER, "view-serializable", "view-serializable") \
    X(WFR, "writes-follow-reads", "writes-follow-reads")

enum model {
#define X(id, canon, friendly) M_##id,
    MODELS(X)
#undef X
    M_COUNT
};

static const char *const canonical_names[M_COUNT] = {
#define X(id, canon, friendly) canon,
    MODELS(X)
#undef X
};

static const char *const friendly_names[M_COUNT] = {
#define X(id, canon, friendly) friendly,
    MODELS(X)
#undef X
};

_Static_assert(M_COUNT == ISO_MODEL_COUNT, "models.h counts the canonical models");

#define M(x) M_##x
#define A(x) ISO_A_##x

/* Elle's canonical-model-names (R1): the 18 other accepted names. */
static const struct { const char *name; uint8_t model; } aliases[] = {
    {"consistent-view", M(PL_2PLUS)}, {"conflict-serializable", M(PL_3)},
    {"cursor-stability", M(PL_CS)}, {"forward-consistent-view", M(PL_FCV)},
    {"monotonic-snapshot-read", M(PL_MSR)}, {"monotonic-view", M(PL_2L)},
    {"read-committed", M(PL_2)}, {"read-uncommitted", M(PL_1)},
    {"repeatable-read", M(PL_2_99)}, {"serializable", M(PL_3)},
    {"snapshot-isolation", M(PL_SI)}, {"strict-serializable", M(PL_SS)},
    {"strong-serializable", M(PL_SS)}, {"update-serializable", M(PL_3U)},
    {"strong-session-read-uncommitted", M(SS_PL_1)},
    {"strong-session-read-committed", M(SS_PL_2)},
    {"strong-read-uncommitted", M(STRONG_PL_1)},
    {"strong-read-committed", M(STRONG_PL_2)},
};

/* Elle's models DAG (R2), canonicalized: a history satisfying the first
 * model also satisfies the second. */
static const uint8_t model_edges[][2] = {
    {M(CAUSAL_CERONE), M(READ_ATOMIC)},
    {M(PL_2PLUS), M(PL_CS)}, {M(PL_2PLUS), M(PL_2L)},
    {M(PL_3), M(VIEW_SER)}, {M(PL_3), M(PL_2_99)}, {M(PL_3), M(PL_3U)},
    {M(PL_3), M(PL_SI)},
    {M(PL_CS), M(PL_2)}, {M(PL_FCV), M(PL_2PLUS)}, {M(PL_2), M(PL_1)},
    {M(PL_3U), M(PL_FCV)}, {M(MAV), M(PL_2)}, {M(PL_2L), M(PL_2)},
    {M(PL_MSR), M(PL_2)},
    {M(PSI), M(CAUSAL_CERONE)}, {M(PSI), M(UPDATE_ATOMIC)},
    {M(PREFIX), M(CAUSAL_CERONE)}, {M(READ_ATOMIC), M(MAV)},
    {M(PL_2_99), M(PL_CS)}, {M(PL_2_99), M(MAV)},
    {M(UPDATE_ATOMIC), M(READ_ATOMIC)}, {M(SESSION_SER), M(ONE_SR)},
    {M(PL_SI), M(PL_FCV)}, {M(PL_SI), M(MAV)}, {M(PL_SI), M(PL_MSR)},
    {M(PL_SI), M(PSI)}, {M(PL_SI), M(PREFIX)},
    {M(PL_SS), M(PL_3)}, {M(PL_SS), M(LINEARIZABLE)}, {M(PL_SS), M(PL_SI)},
    {M(PL_SS), M(STRONG_SI)}, {M(PL_SS), M(SS_SER)}, {M(PL_SS), M(SESSION_SER)},
    {M(SS_PL_1), M(PL_1)}, {M(SS_PL_2), M(PL_2)}, {M(SS_PL_2), M(SS_PL_1)},
    {M(STRONG_PL_1), M(SS_PL_1)},
    {M(STRONG_PL_2), M(SS_PL_2)}, {M(STRONG_PL_2), M(STRONG_PL_1)},
    {M(SS_SER), M(PL_3)}, {M(SS_SER), M(SS_SI)},
    {M(SS_SI), M(PL_SI)}, {M(SS_SI), M(SS_PL_2)},
    {M(STRONG_SI), M(SS_SI)}, {M(STRONG_SI), M(STRONG_PL_2)},
    {M(LINEARIZABLE), M(SEQUENTIAL)}, {M(SEQUENTIAL), M(CAUSAL)},
    {M(CAUSAL), M(WFR)}, {M(CAUSAL), M(PRAM)},
    {M(PRAM), M(MONOTONIC_READS)}, {M(PRAM), M(MONOTONIC_WRITES)},
    {M(PRAM), M(RYW)},
    /* issue 25: causal (Cerone et al.'s CC, with session order) implies CC
     * without it and Biswas and Enea's read committed (whose commit order
     * extends session order, so it forbids G1c-process), which implies
     * monotonic atomic view (the same axiom over an order without session
     * order); session SI implies causal */
    {M(CAUSAL), M(CAUSAL_CERONE)}, {M(CAUSAL), M(RC_BE)}, {M(RC_BE), M(SS_PL_2)}, {M(RC_BE), M(MAV)},
    {M(SS_SI), M(CAUSAL)},
};

/* Elle's direct-proscribed-anomalies (R3), canonicalized: what each model
 * adds over the weaker models it implies. */
static const uint8_t proscribed[][2] = {
    {M(CAUSAL_CERONE), A(INTERNAL)}, {M(CAUSAL_CERONE), A(G1A)},
    {M(PL_CS), A(G1)}, {M(PL_CS), A(G_CURSOR)}, {M(PL_CS), A(LOST_UPDATE)},
    {M(PL_2L), A(G1)}, {M(PL_2L), A(G_MONOTONIC)},
    {M(PL_MSR), A(G1)}, {M(PL_MSR), A(G_MSR)},
    {M(PL_2PLUS), A(G1)}, {M(PL_2PLUS), A(G_SINGLE)},
    {M(PL_FCV), A(G1)}, {M(PL_FCV), A(G_SIB)},
    {M(PSI), A(INTERNAL)}, {M(PSI), A(G1A)},
    /* issue 25: parallel SI forbids every cycle with fewer than two rw
     * edges (Cerone & Gotsman): G-single as well as G0 and G1c. */
    {M(PSI), A(G_SINGLE)},
    {M(PL_3), A(G1)}, {M(PL_3), A(G2)}, {M(PL_3), A(PREDICATE_READ_MISS)},
    {M(PL_3), A(PL_3_CYCLE_EXISTS)}, {M(PL_3), A(INTERNAL)},
    {M(PL_2), A(G1)}, {M(PL_2), A(PL_2_CYCLE_EXISTS)},
    {M(PL_1), A(G0)}, {M(PL_1), A(DUPLICATE_ELEMENTS)},
    {M(PL_1), A(CYCLIC_VERSIONS)}, {M(PL_1), A(PL_1_CYCLE_EXISTS)},
    /* isolde's one addition to Elle's tables: a read of a value no one
     * wrote is ruled out by every model from read-uncommitted up. Elle has
     * no such detector (elle.md 2.2, "garbage reads": not implemented). */
    {M(PL_1), A(GARBAGE_READ)},
    {M(PREFIX), A(INTERNAL)}, {M(PREFIX), A(G1A)},
    {M(PL_SI), A(INTERNAL)}, {M(PL_SI), A(G1)}, {M(PL_SI), A(G_SI)},
    {M(PL_SI), A(G_NONADJACENT)}, {M(PL_SI), A(PL_SI_CYCLE_EXISTS)},
    {M(READ_ATOMIC), A(INTERNAL)}, {M(READ_ATOMIC), A(G1A)},
    {M(READ_ATOMIC), A(FUTURE_READ)},
    /* issue 25: read atomic forbids fractured reads (Cerone et al.);
     * causal-cerone (CC without SESSION) causality violations; causal (CC
     * with SESSION) those whose causal past needs session order too (and,
     * through the DAG, all of causal-cerone's); monotonic atomic view
     * (Bailis et al.) reads that go back in the version order after the
     * transaction observed a newer version's writer, Biswas and Enea's read
     * committed those whose order needs session order too. */
    {M(READ_ATOMIC), A(FRACTURED_READ)}, {M(CAUSAL_CERONE), A(CAUSALITY_VIOLATION)},
    {M(PREFIX), A(LONG_FORK)},
    {M(CAUSAL), A(CAUSALITY_VIOLATION_PROCESS)},
    {M(MAV), A(NON_MONOTONIC_READ)},
    {M(RC_BE), A(NON_MONOTONIC_READ_PROCESS)}, {M(RC_BE), A(NOT_MY_OWN_WRITE)}, {M(RC_BE), A(NOT_MY_LAST_WRITE)},
    {M(PL_2_99), A(G1)}, {M(PL_2_99), A(G2_ITEM)},
    {M(PL_2_99), A(PL_2_99_CYCLE_EXISTS)}, {M(PL_2_99), A(LOST_UPDATE)},
    {M(UPDATE_ATOMIC), A(LOST_UPDATE)},
    {M(PL_SS), A(G1)}, {M(PL_SS), A(G1C_REALTIME)}, {M(PL_SS), A(G2_REALTIME)},
    {M(PL_SS), A(PL_SS_CYCLE_EXISTS)},
    {M(SS_PL_1), A(STRONG_SESSION_PL_1_CYCLE_EXISTS)}, {M(SS_PL_1), A(G0_PROCESS)},
    {M(SS_PL_2), A(STRONG_SESSION_PL_2_CYCLE_EXISTS)}, {M(SS_PL_2), A(G1C_PROCESS)},
    {M(STRONG_PL_1), A(STRONG_PL_1_CYCLE_EXISTS)}, {M(STRONG_PL_1), A(G0_REALTIME)},
    {M(STRONG_PL_2), A(STRONG_PL_2_CYCLE_EXISTS)}, {M(STRONG_PL_2), A(G1C_REALTIME)},
    {M(SS_SI), A(INTERNAL)}, {M(SS_SI), A(G1_PROCESS)},
    {M(SS_SI), A(G_NONADJACENT_PROCESS)},
    {M(SS_SI), A(STRONG_SESSION_SNAPSHOT_ISOLATION_CYCLE_EXISTS)},
    {M(STRONG_SI), A(INTERNAL)}, {M(STRONG_SI), A(G1_REALTIME)},
    {M(STRONG_SI), A(G_NONADJACENT_REALTIME)},
    {M(STRONG_SI), A(STRONG_SNAPSHOT_ISOLATION_CYCLE_EXISTS)},
    {M(SS_SER), A(G1_PROCESS)}, {M(SS_SER), A(G2_PROCESS)},
    {M(SS_SER), A(STRONG_SESSION_SERIALIZABLE_CYCLE_EXISTS)},
    {M(PL_3U), A(G1)}, {M(PL_3U), A(G_UPDATE)},
};

/* The models isolde does not check on transactional histories (Elle gives
 * them no anomaly, or they are models of single-object ops), and what
 * checks them or implies them instead. */
#define SESSION "a session guarantee: causal implies it, and strong-session-snapshot-isolation and " \
                "strong-session-serializable check each process's order along with the data dependencies"
static const struct { uint8_t model; const char *instead; } instead[] = {
    {M(LINEARIZABLE), "a model of single-object ops: -m register, cas-register or kv check linearizability; "
                      "for transactions, strict-serializable implies it (and causal is part of it)"},
    {M(SEQUENTIAL), "a model of single-object ops, implied by linearizability (-m register, cas-register or "
                    "kv); for transactions, strict-serializable implies it (and causal is part of it)"},
    {M(PRAM), SESSION}, {M(MONOTONIC_READS), SESSION}, {M(MONOTONIC_WRITES), SESSION},
    {M(RYW), SESSION}, {M(WFR), SESSION},
    {M(ONE_SR), "serializable checks serializability (1SR is that of a replicated database)"},
    {M(SESSION_SER), "strong-session-serializable checks serializability with each process's order"},
    {M(VIEW_SER), "serializable (conflict serializability) implies it, so a check of serializable that passes "
                  "passes it too"},
};
#undef SESSION

/* Where isolde's check of a model is complete: every history the oracle
 * (tests/tools/oracle) finds violating it, given what the history reveals,
 * is reported (docs/MODELS.md names the causes left: appends no read
 * shows). On list-append the cycles of a known version order; on
 * rw-register the weak models, by saturating the commit order their axioms
 * force (rw_register/weak*.c). Every other model checked is sound only. */
static const uint8_t complete_la[] = {M(MAV), M(RC_BE), M(READ_ATOMIC), M(CAUSAL_CERONE), M(CAUSAL), M(PREFIX)};
/* Not claimed on list-append: the read-committed family (Elle's, after
 * Adya's PL-2, forbids no internal inconsistency, which the axioms' INT
 * does); parallel SI, SI and serializable only through the exact check
 * (below: the appends no read shows, about one history in 1500 missed
 * without it, docs/MODELS.md). */
static const uint8_t complete_rw[] = {M(MAV), M(RC_BE), M(READ_ATOMIC), M(CAUSAL_CERONE), M(CAUSAL)};
/* Complete on rw-register when the exact check decides them (issue 26:
 * rw_register/exact.c, a SAT solver over the writer pairs no evidence
 * orders): only in a build with CaDiCaL (solve_has_sat), and in a check
 * that ran it (iso_proof_ctx.exact; --no-exact, a budget run out: sound
 * only, or unknown). */
static const uint8_t exact_rw[] = {M(PL_3), M(PL_SI), M(PL_SS), M(SS_SER), M(SS_SI), M(STRONG_SI), M(PSI),
                                   M(PREFIX)};
/* And on list-append (list_append/exact.c: the orders of appends no read
 * shows), but for prefix, whose check stays the search's. */
static const uint8_t exact_la[] = {M(PL_3), M(PL_SI), M(PL_SS), M(SS_SER), M(SS_SI), M(STRONG_SI), M(PSI)};
/* Implications that do not hold on list-append, where Biswas and Enea's
 * read committed is lifted to lists (docs/MODELS.md): its commit order
 * puts an append no read of another transaction shows after the last one
 * shown, which causal (Cerone et al.'s CC) does not (an unread append may
 * precede it, invisible), so a cycle through session order and that
 * order is a violation causal allows; and it forces no order after an
 * append only its own transaction's read shows, which Elle's order, and so
 * strong-session-read-committed's G0-process, uses (oracle findings). */
static const uint8_t la_not_implied[][2] = {{M(CAUSAL), M(RC_BE)}, {M(RC_BE), M(SS_PL_2)}};


#undef M
#undef A

#define N_OF(arr) (sizeof(arr) / sizeof((arr)[0]))

/* Computed once by build_tables(), each twice: [0] as the tables say, [1]
 * on list-append, without la_not_implied's edges; there
 * non-monotonic-read-process (a cycle through session order, rc_be.c)
 * implies no causality violation. */
static uint8_t implies_on[2][M_COUNT][M_COUNT];      /* reflexive, transitive */
static uint8_t prohibits_on[2][M_COUNT][ISO_A_COUNT]; /* anomalies-prohibited-by [m] */
static uint8_t rules_out_on[2][ISO_A_COUNT][M_COUNT]; /* anomalies->impossible-models [a] */
static uint8_t by_friendly[M_COUNT];            /* model ids sorted by friendly name */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static int la_edge_holds(int a, int b)
{
    for (size_t i = 0; i < N_OF(la_not_implied); i++)
        if (la_not_implied[i][0] == a && la_not_implied[i][1] == b) return 0;
    return 1;
}

/* Whether observing anomaly a implies b, on list-append when la. */
static int anomaly_implies_on(int la, int a, int b)
{
    if (la && a == ISO_A_NON_MONOTONIC_READ_PROCESS) return b == a;
    return iso_anomaly_implies(a, b);
}

static void close_models(int la)
{
    uint8_t (*im)[M_COUNT] = implies_on[la];
    for (int m = 0; m < M_COUNT; m++) im[m][m] = 1;
    for (size_t i = 0; i < N_OF(model_edges); i++)
        if (!la || la_edge_holds(model_edges[i][0], model_edges[i][1])) im[model_edges[i][0]][model_edges[i][1]] = 1;
    for (int k = 0; k < M_COUNT; k++)
        for (int i = 0; i < M_COUNT; i++)
            if (im[i][k])
                for (int j = 0; j < M_COUNT; j++) im[i][j] |= im[k][j];
}

/* Every model implied by m contributes its direct proscriptions; then every
 * anomaly implying one of those is prohibited too. */
static void build_prohibits(int la, int m)
{
    uint8_t direct[ISO_A_COUNT] = {0};
    for (size_t i = 0; i < N_OF(proscribed); i++)
        if (implies_on[la][m][proscribed[i][0]]) direct[proscribed[i][1]] = 1;
    for (int b = 0; b < ISO_A_COUNT; b++)
        for (int a = 0; direct[b] && a < ISO_A_COUNT; a++)
            if (anomaly_implies_on(la, a, b)) prohibits_on[la][m][a] = 1;
}

/* Observing a implies every b it implies; each model proscribing such a b
 * is impossible, and so is every model stronger than that one. */
static void build_rules_out(int la, int a)
{
    for (size_t i = 0; i < N_OF(proscribed); i++) {
        if (!anomaly_implies_on(la, a, proscribed[i][1])) continue;
        for (int s = 0; s < M_COUNT; s++)
            if (implies_on[la][s][proscribed[i][0]]) rules_out_on[la][a][s] = 1;
    }
}

static int cmp_friendly(const void *x, const void *y)
{
    return strcmp(friendly_names[*(const uint8_t *)x], friendly_names[*(const uint8_t *)y]);
}

static void build_tables(void)
{
    for (int la = 0; la < 2; la++) {
        close_models(la);
        for (int m = 0; m < M_COUNT; m++) build_prohibits(la, m);
        for (int a = 0; a < ISO_A_COUNT; a++) build_rules_out(la, a);
    }
    for (int m = 0; m < M_COUNT; m++) by_friendly[m] = (uint8_t)m;
    qsort(by_friendly, M_COUNT, sizeof by_friendly[0], cmp_friendly);
}

static void ensure_tables(void)
{
    pthread_once(&tables_once, build_tables);
}

int iso_model_parse(const char *name)
{
    if (!name) return -1;
    for (int m = 0; m < M_COUNT; m++)
        if (strcmp(canonical_names[m], name) == 0) return m;
    for (size_t i = 0; i < N_OF(aliases); i++)
        if (strcmp(aliases[i].name, name) == 0) return aliases[i].model;
    return -1;
}

int iso_model_count(void) { return M_COUNT; }

const char *iso_model_name_at(size_t i, void *arg)
{
    (void)arg;
    if (i < M_COUNT) return canonical_names[i];
    return i - M_COUNT < N_OF(aliases) ? aliases[i - M_COUNT].name : NULL;
}

static int valid_model(int m) { return m >= 0 && m < M_COUNT; }

const char *iso_model_friendly(int m)
{
    return valid_model(m) ? friendly_names[m] : "?";
}

const char *iso_model_canonical(int m)
{
    return valid_model(m) ? canonical_names[m] : "?";
}

int iso_model_implies(int a, int b)
{
    if (!valid_model(a) || !valid_model(b)) return 0;
    ensure_tables();
    return implies_on[0][a][b];
}

static void prohibited_on(int la, const int *models, size_t n, uint8_t set[ISO_A_COUNT])
{
    ensure_tables();
    memset(set, 0, ISO_A_COUNT);
    for (size_t i = 0; i < n; i++) {
        if (!valid_model(models[i])) continue;
        for (int a = 0; a < ISO_A_COUNT; a++) set[a] |= prohibits_on[la][models[i]][a];
    }
}

void iso_models_prohibited(const int *models, size_t n, uint8_t set[ISO_A_COUNT])
{
    prohibited_on(0, models, n, set);
}

const char *iso_model_not_checked(int m)
{
    if (!valid_model(m)) return NULL;
    ensure_tables();
    for (size_t i = 0; i < N_OF(instead); i++) /* not checked, whatever it implies */
        if (instead[i].model == m) return instead[i].instead;
    for (int a = 0; a < ISO_A_COUNT; a++)
        if (prohibits_on[0][m][a]) return NULL;
    return "no other model stands for it"; /* every model Elle gives no anomaly has a row above */
}

int iso_model_coverage(int m, int rw)
{
    if (!valid_model(m) || iso_model_not_checked(m)) return ISO_COV_NA;
    const uint8_t *complete = rw ? complete_rw : complete_la;
    size_t n = rw ? N_OF(complete_rw) : N_OF(complete_la);
    for (size_t i = 0; i < n; i++)
        if (complete[i] == m) return ISO_COV_COMPLETE;
    return solve_has_sat() && iso_model_exact(m, rw) ? ISO_COV_COMPLETE : ISO_COV_SOUND;
}

int iso_model_exact(int m, int rw)
{
    const uint8_t *exact = rw ? exact_rw : exact_la;
    size_t n = rw ? N_OF(exact_rw) : N_OF(exact_la);
    for (size_t i = 0; i < n; i++)
        if (exact[i] == m) return 1;
    return 0;
}

void iso_request_reportable(iso_request *req)
{
    int models[ISO_MODEL_COUNT];
    for (size_t i = 0; i < req->n_checked; i++) models[i] = req->checked[i].model;
    prohibited_on(req->la, models, req->n_checked, req->reportable);
    uint8_t implying[ISO_A_COUNT];
    memcpy(implying, req->asked, sizeof implying);
    iso_anomalies_implying(implying);
    for (int a = 0; a < ISO_A_COUNT; a++) req->reportable[a] |= implying[a];
}

const char *iso_coverage_name(int c)
{
    return c == ISO_COV_COMPLETE ? "complete" : c == ISO_COV_SOUND ? "sound only" : "not applicable";
}

void iso_anomalies_implying(uint8_t set[ISO_A_COUNT])
{
    uint8_t seed[ISO_A_COUNT];
    memcpy(seed, set, sizeof seed);
    for (int b = 0; b < ISO_A_COUNT; b++) {
        if (!seed[b]) continue;
        for (int a = 0; a < ISO_A_COUNT; a++)
            if (iso_anomaly_implies(a, b)) set[a] = 1;
    }
}

/* A model of the set is among the weakest when it implies no other member
 * (Elle's weakest-models; the minimal elements of the set). */
static int is_weakest(int la, const uint8_t in[M_COUNT], int m)
{
    for (int w = 0; w < M_COUNT; w++)
        if (w != m && in[w] && implies_on[la][m][w]) return 0;
    return 1;
}

void iso_models_boundary(const uint8_t found[ISO_A_COUNT],
                         const char ***not_, size_t *n_not,
                         const char ***also_not, size_t *n_also_not)
{
    iso_models_boundary_on(0, found, not_, n_not, also_not, n_also_not);
}

void iso_models_boundary_on(int la, const uint8_t found[ISO_A_COUNT], const char ***not_, size_t *n_not,
                            const char ***also_not, size_t *n_also_not)
{
    ensure_tables();
    uint8_t impossible[M_COUNT] = {0};
    for (int a = 0; a < ISO_A_COUNT; a++)
        if (found[a])
            for (int m = 0; m < M_COUNT; m++) impossible[m] |= rules_out_on[la][a][m];
    *not_ = iso_xmalloc(M_COUNT * sizeof **not_);
    *also_not = iso_xmalloc(M_COUNT * sizeof **also_not);
    *n_not = *n_also_not = 0;
    for (int i = 0; i < M_COUNT; i++) {
        int m = by_friendly[i];
        if (!impossible[m]) continue;
        if (is_weakest(la, impossible, m)) (*not_)[(*n_not)++] = friendly_names[m];
        else (*also_not)[(*n_also_not)++] = friendly_names[m];
    }
}

int iso_request_gap(const iso_request *req, iso_buf *why)
{
    if (!req->n_unchecked && (req->n_checked || req->n_asked)) return 0;
    if (!why) return 1;
    if (!req->n_unchecked) iso_buf_puts(why, "nothing was checked: -c named no model and -a no anomaly");
    else iso_buf_puts(why, "nothing forbidden was found, but ");
    for (size_t i = 0; i < req->n_unchecked; i++)
        iso_buf_printf(why, "%s%s", i ? ", " : "", req->unchecked[i].name);
    if (req->n_unchecked) iso_buf_puts(why, req->n_unchecked > 1 ? " were not checked" : " was not checked");
    return 1;
}
