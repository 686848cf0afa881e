/*
 * elle/search.h -- the cycle search as a check asks for it: Elle's order
 * of cycle types, their implications and the cycle-exists specs, put into
 * a request for graph/cycle.h; and how proofs name a cycle-exists spec.
 */
#ifndef ISO_ELLE_SEARCH_H
#define ISO_ELLE_SEARCH_H

#include "elle/anomaly.h"
#include "graph/cycle.h"

/* The request for every cycle type of want whose variant the order edges
 * allow (ISO_EDGE_PROCESS, ISO_EDGE_REALTIME), in Elle's order, and every
 * cycle-exists spec; timeout, data order and threads are the caller's to
 * fill. */
void iso_search_request(iso_search_req *req, uint8_t order_edges, const uint8_t want[ISO_A_COUNT]);

/* For a *-cycle-exists anomaly: the friendly name of the model it rules
 * out, and the subgraph whose strongly connected component proves it (e.g.
 * "ww wr realtime, extended by rw"). */
const char *iso_cycle_exists_model(int type);
void iso_cycle_exists_subgraph(int type, iso_buf *out);

#endif
