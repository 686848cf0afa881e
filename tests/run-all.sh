#!/bin/sh
# The whole suite: unit tests, the CLI tests (tests/cli/tNNNN-*.sh), the
# fuzz targets over their regression corpus and the seed files
# (tests/fuzz-replay.sh), the check that calls go one way between lib/'s
# folders, the conformance suite over $ISOLDE_SHARED (../shared), and the
# randomized cross-check; first it starts the database servers the driver
# tests use, unless the environment names them (tests/servers/).
#
# Two lanes run at once, one per core: the suites that talk to the servers
# (a CLI script naming need_server or tests/servers/), one after another in
# order, since they share the servers and some kill or pause them; and
# every other suite, in order. One line per suite as it ends: "== NAME: ok
# (its closing count; seconds)", "skipped" (exit 77: nothing could run
# here) or "FAILED" after the suite's output (each failure named); every
# suite's output is kept in BUILD/test-logs/. Ends with the slowest suites
# and the plain line "N passed, M failed" (suites). ISOLDE_LANES=1 runs
# every suite in one lane.
build=${1:-build}
export ISOLDE="$build/isolde"
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ left in examples/ or tests/
logs=$build/test-logs
rm -rf "$logs"; mkdir -p "$logs"
: >"$logs/.results"

now() { date +%s; }

run() { # name command...: runs one suite, appends "STATUS SECONDS NAME" to .results
    name=$1; shift
    log=$logs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9.-' '_').log
    t0=$(now)
    "$@" >"$log" 2>&1; rc=$?
    secs=$(( $(now) - t0 ))
    summary=$(tail -n 1 "$log" | sed 's/^[^:]*: //')
    case $rc in
        0) st=ok; line="== $name: ok ($summary; ${secs} s)" ;;
        77) st=skipped; line="$(grep '^skip ' "$log")
== $name: skipped ($summary)" ;;
        *) st=FAILED; line="$(cat "$log")
== $name: FAILED (exit $rc; ${secs} s; log: $log)" ;;
    esac
    printf '%s\n' "$line"
    printf '%s %s %s\n' "$st" "$secs" "$name" >>"$logs/.results"
}

# A CLI script that uses the servers runs in the servers lane.
uses_servers() { grep -q -e 'need_server' -e 'tests/servers/' "$1"; }

cli_suites() { # servers|local: runs the CLI scripts of that lane in order
    for t in tests/cli/*.sh; do
        [ -f "$t" ] || continue
        if uses_servers "$t"; then l=servers; else l=local; fi
        [ "$l" = "$1" ] || continue
        case "$(basename "$t")" in
            t[0-9][0-9][0-9][0-9]-*.sh) run "cli $(basename "$t" .sh)" sh "$t" "$build" ;;
            *) echo "== cli $t: FAILED (not named tNNNN-<cmd>-<what>.sh, so not run)"
               echo "FAILED 0 $t" >>"$logs/.results" ;;
        esac
    done
}

local_lane() {
    run unit sh tests/run-unit.sh "$build"
    cli_suites local
    run "fuzz regressions" sh tests/fuzz-replay.sh "$build"
    run "folders (no include or call cycle)" python3 tools/folder-cycles.py "$build"
    [ -f tests/conformance.sh ] && run conformance sh tests/conformance.sh "$build"
    [ -f tests/crosscheck.sh ] && run crosscheck sh tests/crosscheck.sh "$build"
}

# Under the sanitizers, LeakSanitizer leaves alone what Graphviz's libgvc
# leaks inside itself (tests/lsan-suppressions.txt says which); a leak of
# isolde's own still fails.
[ -n "${ISOLDE_SANITIZE:-}" ] && export LSAN_OPTIONS="suppressions=$PWD/tests/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# The database servers the driver tests use (tests/servers/up.sh).
. tests/servers/up.sh
trap servers_down EXIT
trap 'exit 130' INT TERM # the EXIT trap stops the servers
t_start=$(now)
if [ "${ISOLDE_LANES:-2}" = 1 ]; then
    cli_suites servers
    local_lane
else
    cli_suites servers &
    servers_lane=$!
    local_lane
    wait "$servers_lane"
fi

pass=$(grep -c '^ok ' "$logs/.results")
failed=$(grep -c '^FAILED ' "$logs/.results")
skipped=$(sed -n 's/^skipped [0-9]* //p' "$logs/.results" | paste -sd, - | sed 's/,/, /g')
echo "slowest suites: $(sort -k2,2nr "$logs/.results" | head -n 6 | awk '{s=$2; $1=""; $2=""; sub(/^  /, ""); printf "%s%s %d s", sep, $0, s; sep=", "}')"
echo "the suite took $(( $(now) - t_start )) s"
[ -n "$skipped" ] && echo "skipped: $skipped"
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
