#!/bin/sh
# bench/oracle.sh BUILD -- the larger sweep of isolde against the brute-force
# oracle (issue 25: make check's t9410 runs 300 histories per model and
# workload, seeds 1 and 2; this runs ISOLDE_BENCH_ORACLE_N, default 2000, for
# seeds 11, 12 and 13): tests/oracle.sh's table per seed (agree, unknown,
# incomplete, unsound counts per model and workload). Fails where
# tests/oracle.sh does: a history isolde calls invalid that the oracle
# finds valid, or one it calls valid where `isolde models` claims complete
# and the oracle finds invalid. The disagreeing histories are kept in
# BUILD/bench-oracle/SEED/disagree.
build=${1:-build}
n=${ISOLDE_BENCH_ORACLE_N:-2000}
status=0
for seed in 11 12 13; do
    echo "--- seed $seed, $n histories per model and workload"
    ISOLDE_ORACLE_OUT="$build/bench-oracle/$seed" sh tests/oracle.sh "$build" "$n" "$seed" || status=1
done
exit "$status"
