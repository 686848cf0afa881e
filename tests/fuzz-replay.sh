#!/bin/sh
# tests/fuzz-replay.sh BUILD -- the fuzz targets (fuzz/) without libFuzzer:
# every target that BUILD/fuzz/replay -list names, over its regression
# corpus tests/fuzz-regressions/TARGET/ (inputs that once broke it) and over
# the seed files (tests/data, examples). A crash, a
# sanitizer report (under make sanitize) or a broken promise fails the
# target, naming the input; so does a regression directory that names no
# target (it would otherwise never run). One line per target; the last
# says "N passed, M failed" (targets).
build=${1:-build}
replay=$build/fuzz/replay
[ -x "$replay" ] || { echo "fuzz-replay: $replay is not built (make tests)"; exit 1; }
targets=$("$replay" -list) || { echo "fuzz-replay: $replay -list failed"; exit 1; }
pass=0; fail=0
for d in tests/fuzz-regressions/*/; do
    [ -d "$d" ] || continue
    t=$(basename "$d")
    printf '%s\n' "$targets" | grep -qx -- "$t" && continue
    fail=$((fail + 1)); echo "FAILED tests/fuzz-regressions/$t: no target has that name ($replay -list)"
done
log=$build/fuzz/replay.log
for t in $targets; do
    set -- tests/data examples
    regress=0
    if [ -d "tests/fuzz-regressions/$t" ]; then
        set -- "$@" "tests/fuzz-regressions/$t"
        regress=$(find "tests/fuzz-regressions/$t" -type f | wc -l)
    fi
    if out=$("$replay" "$t" "$@" 2>"$log"); then
        pass=$((pass + 1)); echo "ok $t: ${out#*: } ($regress regressions)"
    else
        fail=$((fail + 1)); tail -n 30 "$log"
        echo "FAILED $t on $(grep '^replay: ' "$log" | tail -n 1 | cut -c9-)"
    fi
done
echo "fuzz-replay: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
