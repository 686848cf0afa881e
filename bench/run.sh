#!/bin/sh
# bench/run.sh -- `make bench`: runs every bench/*.sh (except itself and
# baseline.sh) with the build directory as $1, one header per script; exits
# 1 if any script failed (a wrong verdict or a missed target). With
# BASELINE=REV (make bench BASELINE=HEAD^), the check benchmark also times
# an isolde built at REV side by side, run for run, and prints the ratios.
build=${1:-build}
status=0
if [ -n "${BASELINE:-}" ]; then
    ISOLDE_BENCH_BASELINE=$(sh bench/baseline.sh "$BASELINE") || exit 1
    export ISOLDE_BENCH_BASELINE
    echo "baseline: $BASELINE ($ISOLDE_BENCH_BASELINE)"
fi
for s in bench/*.sh; do
    [ "$s" = bench/run.sh ] || [ "$s" = bench/baseline.sh ] && continue
    echo "=== $s"
    sh "$s" "$build" || { echo "=== $s: FAILED"; status=1; }
done
exit "$status"
