#!/bin/sh
# isolde against the brute-force oracle (tests/oracle.sh, seeded): no
# unsound verdict at any model of either workload, and none missed on
# list-append where `isolde models NAME` says the check is complete
# (issue 25; docs/MODELS.md). 400 histories per model and workload.
. tests/clilib.sh "$@"

test_case "oracle, 400 histories per model, seed 1: no unsound verdict, none missed where complete" <<'T'
ISOLDE_ORACLE_OUT="$tmp/oracle" sh tests/oracle.sh "$build" 400 1 >"$tmp/rows"
rows=$(grep -c '^list-append ' "$tmp/rows")
test "$rows" -ge 14
grep '^list-append ' "$tmp/rows" | while read -r _wl model _n _ov _oi _agree _uov _uoi incompl _urc _uns; do
    if "$isolde" models "$model" | grep -q 'list-append: complete;'; then
        test "$incompl" -eq 0 || { echo "$model: $incompl missed where complete"; exit 1; }
    fi
done
T

finish
