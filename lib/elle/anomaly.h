/*
 * elle/anomaly.h -- every anomaly name isolde knows (Elle's vocabulary plus
 * garbage-read), as dense ids, and the implication relation between them
 * (Elle's implied-anomalies, closed transitively).
 *
 * The 24 searchable cycle types come first, in the order base x variant,
 * so that graph/cycle.h's ISO_CYCLE(base, variant) is their id.
 */
#ifndef ISO_ELLE_ANOMALY_H
#define ISO_ELLE_ANOMALY_H

#include <stddef.h>
#include <stdint.h>

#include "graph/cycle.h"

#define ISO_ANOMALIES(X) \
    /* cycle types: base x {plain, -process, -realtime} */ \
    X(G0, "G0") X(G0_PROCESS, "G0-process") X(G0_REALTIME, "G0-realtime") \
    X(G1C, "G1c") X(G1C_PROCESS, "G1c-process") X(G1C_REALTIME, "G1c-realtime") \
    X(G_SINGLE_ITEM, "G-single-item") X(G_SINGLE_ITEM_PROCESS, "G-single-item-process") \
    X(G_SINGLE_ITEM_REALTIME, "G-single-item-realtime") \
    X(G_SINGLE, "G-single") X(G_SINGLE_PROCESS, "G-single-process") \
    X(G_SINGLE_REALTIME, "G-single-realtime") \
    X(G_NONADJACENT_ITEM, "G-nonadjacent-item") \
    X(G_NONADJACENT_ITEM_PROCESS, "G-nonadjacent-item-process") \
    X(G_NONADJACENT_ITEM_REALTIME, "G-nonadjacent-item-realtime") \
    X(G_NONADJACENT, "G-nonadjacent") X(G_NONADJACENT_PROCESS, "G-nonadjacent-process") \
    X(G_NONADJACENT_REALTIME, "G-nonadjacent-realtime") \
    X(G2_ITEM, "G2-item") X(G2_ITEM_PROCESS, "G2-item-process") \
    X(G2_ITEM_REALTIME, "G2-item-realtime") \
    X(G2, "G2") X(G2_PROCESS, "G2-process") X(G2_REALTIME, "G2-realtime") \
    /* cycle-existence fallbacks */ \
    X(PL_1_CYCLE_EXISTS, "PL-1-cycle-exists") X(PL_2_CYCLE_EXISTS, "PL-2-cycle-exists") \
    X(PL_2_99_CYCLE_EXISTS, "PL-2.99-cycle-exists") X(PL_3_CYCLE_EXISTS, "PL-3-cycle-exists") \
    X(PL_SI_CYCLE_EXISTS, "PL-SI-cycle-exists") X(PL_SS_CYCLE_EXISTS, "PL-SS-cycle-exists") \
    X(STRONG_PL_1_CYCLE_EXISTS, "strong-PL-1-cycle-exists") \
    X(STRONG_PL_2_CYCLE_EXISTS, "strong-PL-2-cycle-exists") \
    X(STRONG_SESSION_PL_1_CYCLE_EXISTS, "strong-session-PL-1-cycle-exists") \
    X(STRONG_SESSION_PL_2_CYCLE_EXISTS, "strong-session-PL-2-cycle-exists") \
    X(STRONG_SESSION_SERIALIZABLE_CYCLE_EXISTS, "strong-session-serializable-cycle-exists") \
    X(STRONG_SESSION_SNAPSHOT_ISOLATION_CYCLE_EXISTS, "strong-session-snapshot-isolation-cycle-exists") \
    X(STRONG_SNAPSHOT_ISOLATION_CYCLE_EXISTS, "strong-snapshot-isolation-cycle-exists") \
    /* direct anomalies found without cycles */ \
    X(G1A, "G1a") X(G1B, "G1b") X(DIRTY_UPDATE, "dirty-update") \
    X(INCOMPATIBLE_ORDER, "incompatible-order") X(DUPLICATE_ELEMENTS, "duplicate-elements") \
    X(INTERNAL, "internal") X(FUTURE_READ, "future-read") X(LOST_UPDATE, "lost-update") \
    X(CYCLIC_VERSIONS, "cyclic-versions") X(GARBAGE_READ, "garbage-read") \
    X(PREDICATE_READ_MISS, "predicate-read-miss") \
    /* issue 25: the weak models' violations, found by saturating the commit order */ \
    X(FRACTURED_READ, "fractured-read") X(CAUSALITY_VIOLATION, "causality-violation") \
    X(CAUSALITY_VIOLATION_PROCESS, "causality-violation-process") \
    X(NON_MONOTONIC_READ, "non-monotonic-read") X(NON_MONOTONIC_READ_PROCESS, "non-monotonic-read-process") \
    X(NOT_MY_OWN_WRITE, "not-my-own-write") X(NOT_MY_LAST_WRITE, "not-my-last-write") \
    X(LONG_FORK, "long-fork") \
    /* bookkeeping results */ \
    X(EMPTY_TRANSACTION_GRAPH, "empty-transaction-graph") \
    X(CYCLE_SEARCH_TIMEOUT, "cycle-search-timeout") \
    /* model vocabulary: implied or proscribed, never emitted by a detector */ \
    X(G1, "G1") X(G1_PROCESS, "G1-process") X(G1_REALTIME, "G1-realtime") \
    X(G_CURSOR, "G-cursor") X(G_MONOTONIC, "G-monotonic") X(G_MSR, "G-MSR") \
    X(G_SI, "G-SI") X(G_SIB, "G-SIb") X(G_UPDATE, "G-update") \
    X(GSI, "GSI") X(GSIA, "GSIa") X(GSIB, "GSIb") X(WRITE_SKEW, "write-skew")

enum iso_anomaly {
#define ISO_X(id, name) ISO_A_##id,
    ISO_ANOMALIES(ISO_X)
#undef ISO_X
    ISO_A_COUNT
};

/* The cycle types are graph/cycle.h's, by the same ids. */
_Static_assert(ISO_A_G0 == ISO_CYCLE(ISO_CB_G0, ISO_CV_PLAIN), "cycle ids align");
_Static_assert(ISO_A_G1C_REALTIME == ISO_CYCLE(ISO_CB_G1C, ISO_CV_REALTIME), "cycle ids align");
_Static_assert(ISO_A_G_SINGLE_ITEM_PROCESS == ISO_CYCLE(ISO_CB_G_SINGLE_ITEM, ISO_CV_PROCESS), "cycle ids align");
_Static_assert(ISO_A_G_NONADJACENT_ITEM == ISO_CYCLE(ISO_CB_G_NONADJACENT_ITEM, ISO_CV_PLAIN), "cycle ids align");
_Static_assert(ISO_A_G2_REALTIME == ISO_CYCLE(ISO_CB_G2, ISO_CV_REALTIME), "cycle ids align");
_Static_assert(ISO_A_PL_1_CYCLE_EXISTS == ISO_N_CYCLE_TYPES, "cycle types come first");

const char *iso_anomaly_name(int a);
/* The i-th name, NULL past the last; arg unused (an iso_name_at). */
const char *iso_anomaly_name_at(size_t i, void *arg);
/* -1 if unknown. */
int iso_anomaly_parse(const char *name);
/* 1 if observing a implies that b is present (reflexive, transitive). */
int iso_anomaly_implies(int a, int b);

#endif
