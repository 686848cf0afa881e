#!/bin/sh
# The words of a proof: an op shows only the fields the input had, keys
# are called keys (so `key 1 = 4` is not read as `1 = 4`), a transaction
# that read a key more than once is named by the read a step rests on (so
# two steps never read as a contradiction of each other), real-time gaps
# are in the unit that suits them, and long model lists wrap.
. tests/clilib.sh "$@"

d=tests/data/proof

test_case "an op without :time or :f in the input is shown without them" <<'T'
expect_status 1 "$isolde" check examples/g1c.json
expect_out '^  T1 = {:index 3, :type :ok, :process 1, :value \[\[:append "y" 1\] \[:r "x" \[1\]\]\]}$'
not grep -q ':time -1' "$tmp/out"
not grep -q ':f nil' "$tmp/out"
T

test_case "an op with :time and :f in the input is shown with them" <<'T'
expect_status 1 "$isolde" check $d/realtime-gap.edn
expect_out '^  T2 = {:index 1, :time 1000000, :type :ok, :process 0, :f :txn, :value \[\[:append :x 1\]\]}$'
T

test_case "--json ops carry only the fields the input had" <<'T'
expect_status 1 "$isolde" check --json examples/g1c.json
not grep -q '"time":-1' "$tmp/out"
not grep -q '"f":null' "$tmp/out"
T

test_case "a real-time gap is in the unit that suits it" <<'T'
expect_status 1 "$isolde" check $d/realtime-gap.edn
expect_out "T2 completed at index 1, 1.5 ms before the invocation of T1, at index 2: a contradiction!"
T

test_case "rw-register steps name integer keys as keys" <<'T'
expect_status 1 "$isolde" check $d/integer-keys.jsonl
expect_out "because T1 wrote key 2 = 7, which was read by T2\.$"
expect_out "because T2 wrote key 1 = 4, which was read by T1: a contradiction!$"
T

test_case "list-append steps name keys as keys" <<'T'
expect_status 1 "$isolde" check $d/realtime-gap.edn
expect_out "T1 observed the initial (nil) state of key :x, which T2 created by appending 1\."
T

# read-twice-*: T1 reads a key twice, and sees T2's append only the second
# time (list-append), or reads keys 3 and 4 twice each (rw-register).
test_case "list-append: a step on one of two reads of a key says which read" <<'T'
expect_status 1 "$isolde" check -c serializable $d/read-twice-list-append.jsonl
expect_out "^  - T1 < T2, because T1's first read of key 3 did not observe T2's append of 2\.$"
expect_out "^  - However, T2 < T1, because T1's second read of key 3 observed T2's append of 2: a contradiction!$"
T

test_case "rw-register: a step on one of two reads of a key says which read" <<'T'
expect_status 1 "$isolde" check -m rw-register --wfr-keys -c serializable $d/read-twice-rw-register.jsonl
expect_out "because T1's first read of key 3 returned 1, and T2 set it to 2, which came later in the version order\.$"
expect_out "because T2 wrote key 4 = 1, which T1's first read of it returned: a contradiction!$"
T

test_case "list-append: a first read that saw the initial state says which read" <<'T'
expect_status 1 "$isolde" check -c serializable $d/read-twice-init.jsonl
expect_out "^  - T1 < T2, because T1's first read of key 5 observed its initial (nil) state, which T2 created by appending 2\.$"
T

test_case "a key read once keeps Elle's words" <<'T'
expect_status 1 "$isolde" check examples/g1c.json
expect_out "^  - T1 < T2, because T2 observed T1's append of 1 to key \"y\"\.$"
T

test_case "also-not wraps before 79 columns, continuation under the first name" <<'T'
expect_status 1 "$isolde" check examples/g1c.json
test "$(awk 'length > 78' "$tmp/out" | grep -c '^also-not\|^          ')" = 0
expect_out '^also-not: causal-cerone, consistent-view,'
expect_out '^          forward-consistent-view,'
test "$(sed -n '/^also-not:/,/^$/p' "$tmp/out" | tr -s ' ,\n' '\n\n\n' | grep -c .)" = 22
T

finish
