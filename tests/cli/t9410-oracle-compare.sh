#!/bin/sh
# isolde against the brute-force oracle (tests/oracle.sh, seeded; the
# oracle judges each history by the models' axiomatic definitions): no
# unsound verdict at any model of either workload, and none missed where
# `isolde models NAME` says the check is complete (list-append's cycles,
# rw-register's saturation of the weak levels; issue 25, docs/MODELS.md).
# And the comparison does fail when a claim of completeness misses.
. tests/clilib.sh "$@"

oracle_run() { # N SEED [MODELS]
    [ -n "${3:-}" ] && ISOLDE_ORACLE_MODELS=$3 && export ISOLDE_ORACLE_MODELS
    ISOLDE="$isolde" ISOLDE_ORACLE_OUT="$tmp/or" sh tests/oracle.sh "$build" "$1" "$2" >"$tmp/out" 2>"$tmp/err"
}

for seed in 1 2; do
    test_case "oracle, 300 histories per model and workload, seed $seed: none unsound, none missed where complete" <<T
oracle_run 300 $seed || { cat "\$tmp/out"; false; }
test "\$(grep -c '^list-append ' "\$tmp/out")" -ge 15
test "\$(grep -c '^rw-register ' "\$tmp/out")" -ge 15
grep -q '^rw-register   causal ' "\$tmp/out"
T
done

test_case "the claims come from isolde models: read-atomic is complete on both workloads" <<'T'
"$isolde" models read-atomic | grep -q 'list-append: complete; rw-register: complete'
T

test_case "monotonic-atomic-view is in the comparison, claimed complete on both workloads" <<'T'
"$isolde" models monotonic-atomic-view | grep -q 'list-append: complete; rw-register: complete'
oracle_run 300 1 monotonic-atomic-view || { cat "$tmp/out"; false; }
grep -q '^list-append   monotonic-atomic-view ' "$tmp/out"
grep -q '^rw-register   monotonic-atomic-view ' "$tmp/out"
T

# (Elle's method, --no-exact, is sound only for parallel-snapshot-isolation on
# rw-register: 3 missed at seed 1; every check isolde claims complete misses
# none here, so the failing claim is made through a wrapper that turns the
# exact check off)
test_case "a complete claim that misses fails the run (parallel-snapshot-isolation --no-exact claimed complete on rw-register)" <<'T'
case $isolde in /*) real=$isolde ;; *) real=$PWD/$isolde ;; esac
printf '#!/bin/sh\nif [ "$1" = check ]; then shift; exec "%s" check --no-exact "$@"; fi\nexec "%s" "$@"\n' \
    "$real" "$real" >"$tmp/no-exact"
chmod +x "$tmp/no-exact"
isolde=$tmp/no-exact
ISOLDE_ORACLE_COMPLETE=rw-register:parallel-snapshot-isolation
export ISOLDE_ORACLE_COMPLETE
not oracle_run 300 1 parallel-snapshot-isolation
expect_out 'isolde claims complete at parallel-snapshot-isolation (rw-register) but missed'
T

needs_feature cadical
test_case "parallel-snapshot-isolation and prefix are claimed complete on rw-register (the exact check) and miss none" <<'T'
"$isolde" models parallel-snapshot-isolation | grep -q 'rw-register: complete'
"$isolde" models prefix | grep -q 'rw-register: complete'
ISOLDE_ORACLE_WORKLOADS=rw-register
export ISOLDE_ORACLE_WORKLOADS
oracle_run 1000 11 "parallel-snapshot-isolation prefix" || { cat "$tmp/out"; false; }
grep -q '^rw-register   parallel-snapshot-isolation ' "$tmp/out"
grep -q '^rw-register   prefix ' "$tmp/out"
T
needs_feature

finish
