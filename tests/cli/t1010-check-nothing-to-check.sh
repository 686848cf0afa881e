#!/bin/sh
# A history with no client op is never valid: whatever the model, `isolde
# check` says unknown (exit 2), why (how many lines were read, and why none
# was a client op), and that 0 ops were checked (tests/fixtures/read/noops,
# and history.txt read as jepsen.log). A history with ops says how many.
. tests/clilib.sh "$@"
n=tests/fixtures/read/noops
models="list-append rw-register register cas-register kv mutex fifo-queue lin-set"

test_case "an etcd history.txt read with -f jepsen-log: unknown, none is a jepsen.log line, try jepsen-txt" <<'T'
expect_status 2 "$isolde" check -f jepsen-log -m cas-register tests/fixtures/read/register-history.txt
expect_out '^cas-register: unknown'
expect_out '^0 ops checked'
expect_out "nothing to check: .*register-history.txt: 11 lines read as jepsen-log, and none is an op"
expect_out "it looks like jepsen-txt (leave -f out, or give -f jepsen-txt)"
T

test_case "JSON ops that say client instead of process: unknown, the first has no \"process\"" <<'T'
expect_status 2 "$isolde" check "$n/client-key.json"
expect_out '^valid?: unknown'
expect_out '^checked: 0 ops'
expect_out 'client-key.json: 4 ops in 4 lines, and none is a client op (one whose "process" is an integer): the first, at 1:2, has no "process"'
T

test_case "nemesis ops only: unknown, the first has :process :nemesis" <<'T'
expect_status 2 "$isolde" check "$n/nemesis-only.edn"
expect_out 'the first, at 1:1, has :process :nemesis'
T

test_case "an empty JSON array: unknown, saying it holds no op" <<'T'
expect_status 2 "$isolde" check "$n/empty-array.json"
expect_out 'empty-array.json: 1 line read as json, and none is an op: it holds an empty array'
T

for m in $models; do
    test_case "-m $m: an empty file and a blank one are unknown, exit 2" <<'T'
expect_status 2 "$isolde" check -m "$m" "$n/empty.edn"
expect_out 'nothing to check: .*empty.edn: the input is empty'
expect_status 2 "$isolde" check -m "$m" "$n/blank.edn"
expect_out 'blank.edn: 3 lines read as edn, and none is an op: every line is blank or a comment'
expect_status 2 "$isolde" check --json -m "$m" "$n/blank.edn"
expect_out '"valid?": *"unknown"'
expect_out '"unknown-reason": *".*blank.edn: 3 lines read as edn'
T
done

test_case "-d with nothing to check writes why into the directory" <<'T'
expect_status 2 "$isolde" check -d "$tmp/d" "$n/blank.edn"
grep -q 'nothing to check' "$tmp/d/empty-transaction-graph.txt"
expect_status 2 "$isolde" check -m mutex -d "$tmp/l" "$n/blank.edn"
grep -q 'nothing to check' "$tmp/l/linearizability.txt"
T

test_case "a history with ops says how many were checked" <<'T'
expect_status 1 "$isolde" check examples/g1c.json
expect_out '^checked: 4 client ops, in 2 transactions$'
expect_status 1 "$isolde" check tests/fixtures/read/history.txt
expect_out '^checked: 6 client ops, in 3 transactions (2 other ops left out)$'
T

finish
