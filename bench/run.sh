#!/bin/sh
# bench/run.sh -- `make bench`: runs every bench/*.sh (except itself) with the
# build directory as $1, one header per script; exits 1 if any script failed.
build=${1:-build}
status=0
for s in bench/*.sh; do
    [ "$s" = bench/run.sh ] && continue
    echo "=== $s"
    sh "$s" "$build" || { echo "=== $s: FAILED"; status=1; }
done
exit "$status"
