#!/bin/sh
# The whole suite: unit tests, CLI tests, the check that calls go one way
# between lib/'s folders, the conformance suite over ../shared, and the
# randomized cross-check. Prints one closing line.
build=${1:-build}
export ISOLDE="$build/isolde"
total_fail=0; total_pass=0
run() { # name command...
    name=$1; shift
    if "$@"; then total_pass=$((total_pass + 1)); echo "== $name: ok";
    else total_fail=$((total_fail + 1)); echo "== $name: FAILED"; fi
}
run unit sh tests/run-unit.sh "$build"
for t in tests/cli/*.sh; do
    [ -f "$t" ] && run "cli $(basename "$t" .sh)" sh "$t" "$build"
done
run "folders (no include or call cycle)" python3 tools/folder-cycles.py "$build"
[ -f tests/conformance.sh ] && run conformance sh tests/conformance.sh "$build"
[ -f tests/crosscheck.sh ] && run crosscheck sh tests/crosscheck.sh "$build"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
