#!/bin/sh
# The words of a proof: an op shows only the fields the input had, keys
# are called keys (so `key 1 = 4` is not read as `1 = 4`), a transaction
# that read a key more than once is named by the read a step rests on (so
# two steps never read as a contradiction of each other), real-time gaps
# are in the unit that suits them, and long model lists wrap: the cases of
# tests/data/proof, each header saying the words its proof must hold
# (tests/data/README; tests/unit/report/test_proof.c checks the same
# headers through the library), then examples/g1c.json's.
. tests/clilib.sh "$@"

test_cases tests/data/proof

test_case "an op without :time or :f in the input is shown without them" <<'T'
expect_status 1 "$isolde" check examples/g1c.json
expect_out '^  T1 = {:index 3, :type :ok, :process 1, :value \[\[:append "y" 1\] \[:r "x" \[1\]\]\]}$'
not grep -q ':time -1' "$tmp/out"
not grep -q ':f nil' "$tmp/out"
T

test_case "--json ops carry only the fields the input had" <<'T'
expect_status 1 "$isolde" check --json examples/g1c.json
not grep -q '"time":-1' "$tmp/out"
not grep -q '"f":null' "$tmp/out"
T

test_case "a key read once keeps Elle's words" <<'T'
expect_status 1 "$isolde" check examples/g1c.json
expect_out "^  - T1 < T2, because T2 observed T1's append of 1 to key \"y\"\.$"
T

test_case "also-not wraps before 79 columns, continuation under the first name" <<'T'
expect_status 1 "$isolde" check examples/g1c.json
test "$(awk 'length > 78' "$tmp/out" | grep -c '^also-not\|^          ')" = 0
expect_out '^also-not: causal, causal-cerone, consistent-view, cursor-stability,'
expect_out '^          forward-consistent-view,'
test "$(sed -n '/^also-not:/,/^$/p' "$tmp/out" | tr -s ' ,\n' '\n\n\n' | grep -c .)" = 26
T

finish
