/*
 * linear/linear.h -- the linearizability checker (Knossos / Porcupine
 * class) for single-object workloads: register, cas-register, kv (a
 * register per key), mutex, fifo-queue, lin-set and multi-register with
 * Knossos's semantics, porcupine-kv (a string per key) with Porcupine's.
 * lin.h is the folder's internal interface and says how the files share
 * the work.
 *
 * Rule: linear/ includes result/ (the result), report/ (the page and
 * directory its kind adds to), history/ and core/: never graph/ or the
 * transactional checker (elle/).
 */
#ifndef ISO_LINEAR_H
#define ISO_LINEAR_H

#include "result/result.h"

/* Check h as linearizability workload w; on success *r is a new result
 * whose writers are this folder's. */
int iso_lin_check(const isolde_history *h, const isolde_check_opts *o, const iso_checker_opts *co,
                  isolde_workload w, isolde_result **r, isolde_error *err);

#endif
