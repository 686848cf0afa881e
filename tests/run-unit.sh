#!/bin/sh
# Runs every unit-test binary in BUILD/tests; prints a closing count.
build=${1:-build}
pass=0; fail=0
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    if "$t" >"$t.log" 2>&1; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAILED: $t"; tail -30 "$t.log"; fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
