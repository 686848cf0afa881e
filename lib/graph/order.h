/*
 * graph/order.h -- the orders between transactions that come from the
 * history itself rather than from their data: process order (consecutive
 * ok transactions of one process) and real-time order (a completed before
 * b was invoked), the latter as a linear-size transitive reduction.
 */
#ifndef ISO_GRAPH_ORDER_H
#define ISO_GRAPH_ORDER_H

#include "graph/graph.h"
#include "history/txn.h"

/* Process order: consecutive ok transactions of one process, and an ok one
 * to an info one of its process begun after it (none out of an info one). */
void iso_process_edges(const isolde_history *h, const iso_txns *t, iso_edges *out);
/* Real-time order as a linear-size transitive reduction (Elle paper 5.1):
 * a (ok) completed before b (ok or info) was invoked. As windows (free
 * with iso_rt_free), or spelled out as edges. */
void iso_realtime_ranges(const isolde_history *h, const iso_txns *t, iso_rt *out);
void iso_rt_free(iso_rt *rt);
void iso_realtime_edges(const isolde_history *h, const iso_txns *t, iso_edges *out);

#endif
