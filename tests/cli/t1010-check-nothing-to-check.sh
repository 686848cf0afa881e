#!/bin/sh
# A history with no client op is never valid: whatever the model, `isolde
# check` says unknown (exit 2), why (how many lines were read, and why none
# was a client op), and that 0 ops were checked: the cases of
# tests/data/read/noops, each header saying so under every model it names
# (tests/data/README; an etcd history.txt read as jepsen.log is
# tests/data/read/register-history.txt, run by t1000). -d writes why; a
# history with ops says how many.
. tests/clilib.sh "$@"
n=tests/data/read/noops

test_cases tests/data/read/noops

test_case "-d with nothing to check writes why into the directory" <<'T'
expect_status 2 "$isolde" check -d "$tmp/d" "$n/blank.edn"
grep -q 'nothing to check' "$tmp/d/empty-transaction-graph.txt"
expect_status 2 "$isolde" check -m mutex -d "$tmp/l" "$n/blank.edn"
grep -q 'nothing to check' "$tmp/l/linearizability.txt"
T

test_case "a history with ops says how many were checked" <<'T'
expect_status 1 "$isolde" check examples/g1c.json
expect_out '^checked: 4 client ops, in 2 transactions$'
expect_status 1 "$isolde" check tests/data/read/history.txt
expect_out '^checked: 6 client ops, in 3 transactions (2 other ops left out)$'
T

finish
