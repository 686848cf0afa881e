#!/bin/sh
# Linearizability models and options of issue 11 beyond the cases of
# tests/data/linear (t5000 runs those: --initial-value (item 11), Knossos's
# multi-register and Porcupine's kv (item 12), the model inferred from the
# :f names (item 14), the default time budget (item 10)): an unknown :f's
# error is no micro-op's; Porcupine's own 6.824 files when $ISOLDE_SHARED
# has them.
. tests/clilib.sh "$@"
test_case "unknown :f names: the error is about the model, not about micro-ops" <<'T'
expect_status 3 "$isolde" check tests/data/linear/unknown-f.edn
not grep -q 'vector of micro-ops' "$tmp/err"
T

shared=${ISOLDE_SHARED:-../shared}
pk=$shared/corpus/porcupine/kv
if [ -d "$pk" ]; then
    for f in "$pk"/*-ok.txt; do
        test_case "Porcupine $(basename "$f") is linearizable" 'expect_status 0 "$isolde" check -m porcupine-kv "$f"'
    done
    for f in "$pk"/c01-bad.txt "$pk"/c10-bad.txt; do
        test_case "Porcupine $(basename "$f") is not linearizable" 'expect_status 1 "$isolde" check -m porcupine-kv "$f"'
    done
else
    test_skip "Porcupine's 6.824 kv histories" "$pk not found"
fi

finish
