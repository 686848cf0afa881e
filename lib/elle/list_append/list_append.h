/*
 * elle/list_append/list_append.h -- Elle's list-append workload:
 * transactions of [:append k v] and [:r k [v ...]] micro-ops, where each
 * key's version order is its longest read.
 *
 *   list_append.c   indexes, version orders, ww / wr / rw edges, and the
 *                   explanation of any such edge in Elle's words
 *   appends.c       the index of every append by (key, value)
 *   anomalies.c     G1a, G1b, garbage-read, internal, future-read,
 *                   duplicate-elements, incompatible-order, dirty-update,
 *                   lost-update
 *   fractured.c     fractured-read (read atomic's violation)
 *   causal.c        causal-cerone's and causal's checks: causality-violation(-process)
 *   causal_proof.c  their findings in words (causal.h what the two share)
 *   mops.c          micro-op access
 *
 * list_append_int.h is the state the files share (it stays in the folder).
 * Rule: includes check/, report/, graph/, history/ and core/.
 */
#ifndef ISO_LIST_APPEND_H
#define ISO_LIST_APPEND_H

#include "elle/elle.h"

/* The workload, as the checker table (check/check.h) names it. */
extern const iso_workload_ops iso_list_append_ops;

#endif
