#!/bin/sh
# Randomized soundness cross-check (tests/tools/crosscheck.c): thousands of
# small random histories, each checked by isolde and by exhaustive search
# over serial / snapshot orders. Then its regressions, the cases of
# tests/data/crosscheck (each history's header says what `isolde check`
# must answer: tests/data/README; tests/tools/case.c runs them).
# Histories per workload: $ISOLDE_CROSSCHECK_N, else 4000 (1000 under
# ISOLDE_SANITIZE=1).
build=${1:-build}
tool="$build/tests/tools/crosscheck"
isolde=${ISOLDE:-$build/isolde}
dir=tests/data/crosscheck
casetool=$build/tests/tools/case
n=${ISOLDE_CROSSCHECK_N:-4000}
[ -n "$ISOLDE_SANITIZE" ] && [ -z "$ISOLDE_CROSSCHECK_N" ] && n=1000
[ -x "$tool" ] || { echo "crosscheck: $tool not built"; exit 1; }
[ -x "$isolde" ] || { echo "crosscheck: $isolde not built"; exit 1; }
out=$("$tool" -n "$n" -s 1); rc=$?
printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -n 1)
case "$last" in
    "random: "*) pass=$(echo "$last" | awk '{print $2}'); fail=$(echo "$last" | awk '{print $4}') ;;
    *) pass=0; fail=1 ;;
esac
[ "$rc" -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
[ -x "$casetool" ] || { echo "crosscheck: $casetool not built"; exit 1; }
for f in $("$casetool" list "$dir"); do
    if "$casetool" check "$isolde" "$f"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "crosscheck: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
