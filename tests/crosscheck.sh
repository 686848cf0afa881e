#!/bin/sh
# Randomized soundness cross-check (tests/tools/crosscheck.c): thousands of
# small random histories, each checked by isolde and by exhaustive search
# over serial / snapshot orders. Then the regression fixtures in
# tests/fixtures/crosscheck (EXPECTED.tsv, tab-separated: file, workload,
# models, extra options or -, expected exit status of `isolde check`, note).
# Histories per workload: $ISOLDE_CROSSCHECK_N, else 4000 (1000 under
# ISOLDE_SANITIZE=1).
build=${1:-build}
tool="$build/tests/tools/crosscheck"
isolde=${ISOLDE:-$build/isolde}
dir=tests/fixtures/crosscheck
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
if [ -f "$dir/EXPECTED.tsv" ]; then
    tab=$(printf '\t')
    while IFS="$tab" read -r file wl models opts want _note; do
        case "$file" in ''|'#'*) continue ;; esac
        [ "$opts" = "-" ] && opts=""
        # shellcheck disable=SC2086  # opts is a word list on purpose
        "$isolde" check -m "$wl" -c "$models" $opts --json "$dir/$file" >/dev/null 2>&1
        got=$?
        if [ "$got" = "$want" ]; then pass=$((pass + 1)); else
            fail=$((fail + 1))
            echo "crosscheck: $file ($wl, $models $opts): exit $got, expected $want"
        fi
    done < "$dir/EXPECTED.tsv"
fi
echo "crosscheck: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
