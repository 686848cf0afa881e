/*
 * elle/rw_register/rw_register.h -- Elle's rw-register workload:
 * transactions of [:w k v] and [:r k v] over registers, each (key, value)
 * a version, version orders from the evidence the options allow.
 *
 *   rw_register.c   indexing, wr / ww / rw edges, explanations
 *   versions.c      version graphs from each source of evidence (initial
 *                   state, wfr, sequential, linearizable, transaction
 *                   order), cyclic-versions, the transitive reduction
 *   anomalies.c     internal, G1a, G1b, lost-update, garbage-read
 *   mops.c          micro-op access
 *   txn_order.c     the --transaction-order file
 *   exact.c, exact_proof.c   serializable and SI decided exactly by lib/solve/
 *                   when writer pairs stay unordered (exact.h)
 *
 * rw_register_int.h is the state the files share (it stays in the folder).
 * Rule: includes check/, report/, graph/, history/, solve/ and core/.
 */
#ifndef ISO_RW_REGISTER_H
#define ISO_RW_REGISTER_H

#include "elle/elle.h"

/* The workload, as the checker table (check/check.h) names it. */
extern const iso_workload_ops iso_rw_register_ops;

#endif
