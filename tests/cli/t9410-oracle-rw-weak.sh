#!/bin/sh
# isolde against the brute-force oracle where it claims complete on
# rw-register without version-order evidence: read-committed-be,
# read-atomic, causal-cerone and causal, checked by saturating the commit
# order (lib/elle/rw_register/weak.h; docs/MODELS.md). Seeded random
# histories, each judged by the models' axioms (tests/tools/oracle) and by
# isolde: none missed, none convicted wrongly (tests/oracle.sh fails on
# either); and the run does fail when a complete claim misses.
. tests/clilib.sh "$@"

oracle_run() { # N SEED [MODELS]
    ISOLDE="$isolde" ISOLDE_ORACLE_OUT="$tmp/or" ISOLDE_ORACLE_WORKLOADS=rw-register \
        ISOLDE_ORACLE_MODELS="${3:-read-committed-be read-atomic causal-cerone causal}" \
        sh tests/oracle.sh "$build" "$1" "$2" >"$tmp/out" 2>"$tmp/err"
}

for seed in 1 2; do
    test_case "rw-register, 300 histories per model, seed $seed: 0 incompl, 0 UNSOUND" <<T
oracle_run 300 $seed
grep -q '^rw-register   causal ' "\$tmp/out"
test "\$(grep -c '^rw-register ' "\$tmp/out")" = 4
awk '\$1 == "rw-register" { if (\$9 + \$11 > 0) bad = 1 } END { exit bad }' "\$tmp/out"
T
done

test_case "a complete claim that misses fails the run (serializable claimed complete)" <<'T'
ISOLDE_ORACLE_COMPLETE=rw-register:serializable
export ISOLDE_ORACLE_COMPLETE
not oracle_run 300 1 serializable
expect_out 'isolde claims complete at serializable (rw-register) but missed'
T

finish
