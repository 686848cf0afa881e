#!/bin/sh
# The whole suite: unit tests, the CLI tests (tests/cli/tNNNN-*.sh, in
# order), the fuzz targets over their regression corpus and the seed files
# (tests/fuzz-replay.sh), the check that calls go one way between lib/'s
# folders, the conformance suite over $ISOLDE_SHARED (../shared), and the
# randomized cross-check; first it starts the database servers the driver
# tests use, unless the environment names them (tests/servers/). One line per suite: "== NAME: ok (its closing count)",
# "skipped" (exit 77: nothing could run here) or "FAILED" after the suite's
# output (each failure named); every suite's output is kept in
# BUILD/test-logs/. Ends with the plain line "N passed, M failed" (suites).
build=${1:-build}
export ISOLDE="$build/isolde"
logs=$build/test-logs
rm -rf "$logs"; mkdir -p "$logs"
total_fail=0; total_pass=0; skipped=""
run() { # name command...
    name=$1; shift
    log=$logs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9.-' '_').log
    "$@" >"$log" 2>&1; rc=$?
    summary=$(tail -n 1 "$log" | sed 's/^[^:]*: //')
    case $rc in
        0) total_pass=$((total_pass + 1)); echo "== $name: ok ($summary)" ;;
        77) skipped="$skipped, $name"; grep '^skip ' "$log"; echo "== $name: skipped ($summary)" ;;
        *) total_fail=$((total_fail + 1)); cat "$log"; echo "== $name: FAILED (exit $rc; log: $log)" ;;
    esac
}
# Under the sanitizers, LeakSanitizer leaves alone what Graphviz's libgvc
# leaks inside itself (tests/lsan-suppressions.txt says which); a leak of
# isolde's own still fails.
[ -n "${ISOLDE_SANITIZE:-}" ] && export LSAN_OPTIONS="suppressions=$PWD/tests/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# The database servers the driver tests use (tests/servers/up.sh).
. tests/servers/up.sh
trap servers_down EXIT
trap 'exit 130' INT TERM # the EXIT trap stops the servers
run unit sh tests/run-unit.sh "$build"
for t in tests/cli/*.sh; do
    [ -f "$t" ] || continue
    case "$(basename "$t")" in
        t[0-9][0-9][0-9][0-9]-*.sh) run "cli $(basename "$t" .sh)" sh "$t" "$build" ;;
        *) total_fail=$((total_fail + 1)); echo "== cli $t: FAILED (not named tNNNN-<cmd>-<what>.sh, so not run)" ;;
    esac
done
run "fuzz regressions" sh tests/fuzz-replay.sh "$build"
run "folders (no include or call cycle)" python3 tools/folder-cycles.py "$build"
[ -f tests/conformance.sh ] && run conformance sh tests/conformance.sh "$build"
[ -f tests/crosscheck.sh ] && run crosscheck sh tests/crosscheck.sh "$build"
[ -n "$skipped" ] && echo "skipped: ${skipped#, }"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
