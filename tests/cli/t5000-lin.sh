#!/bin/sh
# `isolde check` of the linearizability models on the cases of
# tests/data/linear, each history's header saying what the check must
# answer (tests/data/README): exit statuses for linearizable (0), not (1),
# out of budget (2) and bad input (3); the JSON witness; jepsen.log CAS
# semantics and --cas-fail; kv partitions; mutexes; stale nil reads;
# --initial-value, multi-register and porcupine-kv; the model inferred from
# the :f names; the time budget. Then the Knossos corpus histories when
# $ISOLDE_SHARED (../shared) has them. The unit test
# tests/unit/linear/test_lin_check.c checks the same headers through the
# library.
. tests/clilib.sh "$@"

test_cases tests/data/linear

# The Knossos corpus, with elle-cli's verdicts.
shared=${ISOLDE_SHARED:-../shared}
k=$shared/corpus/elle/ligurio-elle-cli/histories/knossos
if [ -d "$k" ]; then
    for f in "$k"/cas-register/bad/*; do
        test_case "Knossos cas-register/bad/$(basename "$f") is not linearizable" 'expect_status 1 "$isolde" check -m cas-register "$f"'
    done
    for f in "$k"/cas-register/good/*; do
        test_case "Knossos cas-register/good/$(basename "$f") is linearizable" 'expect_status 0 "$isolde" check -m cas-register "$f"'
    done
    for f in "$k"/mutex/bad/*; do
        test_case "Knossos mutex/bad/$(basename "$f") is not linearizable" 'expect_status 1 "$isolde" check -m mutex "$f"'
    done
elif [ "${CI:-}" = true ]; then
    test_case "CI=true has the Knossos corpus" 'echo "missing: $k"; false'
else
    test_skip "the Knossos corpus histories" "$k not found"
fi

finish
