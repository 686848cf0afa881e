/*
 * graph/scc.h -- strongly connected components of a graph (iterative
 * Tarjan over rows and real-time windows: histories reach millions of
 * transactions, so no recursion).
 */
#ifndef ISO_GRAPH_SCC_H
#define ISO_GRAPH_SCC_H

#include "graph/graph.h"

/* Strongly connected components over the edges whose bits intersect mask.
 * comp[v] = component id; returns the number of components. Components of
 * one vertex without a self-loop are trivial. Iterative. */
uint32_t iso_scc(const iso_graph *g, uint8_t mask, uint32_t *comp);

#endif
