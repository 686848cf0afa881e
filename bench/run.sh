#!/bin/sh
# bench/run.sh -- `make bench`: runs every bench/*.sh (except itself and
# baseline.sh) with the build directory as $1, one header per script; exits
# 1 if any script failed (a wrong verdict or a missed target). SCALE=22M
# (make bench SCALE=22M) adds bench/scale.sh's large rows (22M transactions,
# ~6.4 GB a history, deleted after; minutes of CPU). With
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
    case $s in bench/run.sh|bench/baseline.sh|bench/common.sh) continue ;; esac
    echo "=== $s"
    sh "$s" "$build" || { echo "=== $s: FAILED"; status=1; }
done
exit "$status"
