#!/bin/sh
# bench/graph.sh BUILD -- the dependency-graph core on synthetic histories:
# order edges, CSR build, SCC and cycle search at 100k and 1M transactions.
# Target (issue 2): 1M transactions with ~4-6M edges build + SCC well
# under a second. Prints timings; fails only if the program fails.
build=${1:-build}
bin="$build/bench/gen_graph"
[ -x "$bin" ] || { echo "graph: $bin missing (make tests)"; exit 1; }
for n in 100000 1000000; do
    echo "== gen_graph $n transactions, 16 processes, 1 data edge each =="
    "$bin" "$n" 16 1 || exit 1
done
