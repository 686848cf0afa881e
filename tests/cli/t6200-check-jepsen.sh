#!/bin/sh
# Jepsen's checkers (issue 15): the cases of tests/data/jepsen, each
# opening with comment lines that say what it proves and what `isolde
# check` must answer (format: tests/data/README), run as text and as JSON
# (the unit test tests/unit/jepsen/test_jepsen.c checks the same headers
# through the library); then the reader formats, the proofs' words and the
# options' errors.
. tests/clilib.sh "$@"
test_cases tests/data/jepsen

test_case "JSON lines, JSON and EDN read alike (counter)" <<'T'
grep -v '^#' tests/data/jepsen/counter-json.jsonl >"$tmp/c.jsonl"
expect_status 1 "$isolde" check -m counter --json "$tmp/c.jsonl"
expect_out '"errors":\[\[2,3,2\]\]'
python3 - "$tmp/c.json" <<'PY'
import json, sys
ops = [json.loads(l) for l in open("tests/data/jepsen/counter-json.jsonl") if not l.startswith("#")]
json.dump(ops, open(sys.argv[1], "w"))
PY
expect_status 1 "$isolde" check -m counter --json "$tmp/c.json"
expect_out '"errors":\[\[2,3,2\]\]'
T

test_case "a bank proof names the read, its sum and the total" <<'T'
expect_status 1 "$isolde" check -m bank tests/data/jepsen/bank-wrong-total.edn
expect_out 'sums to 25, but the total is 30 (the first read.s sum): -5'
expect_out '(line 9)'
T

test_case "a set-full proof names the element, when it was known, the read that missed it" <<'T'
expect_status 1 "$isolde" check -m set-full tests/data/jepsen/set-full-lost.edn
expect_out 'element 0, added by the add invoked at line 6, was known from'
expect_out 'the read invoked at line 10 began after that and did not see it'
T

test_case "-d writes the whole text report" <<'T'
expect_status 1 "$isolde" check -m bank --total 31 --max-examples 1 -d "$tmp/d" tests/data/jepsen/bank-total-option.edn
grep -c '^wrong-total #' "$tmp/d/bank.txt" | grep -qx 2
T

test_case "-d holds results.json and index.html, as every kind's directory does" <<'T'
expect_status 1 "$isolde" check -m bank --total 31 -d "$tmp/d2" tests/data/jepsen/bank-total-option.edn
"$isolde" check -m bank --total 31 --json tests/data/jepsen/bank-total-option.edn >"$tmp/bank.json" || true
cmp "$tmp/bank.json" "$tmp/d2/results.json"
grep -q '"kind":"jepsen"' "$tmp/d2/index.html"
T

test_case "a read that is not a map of balances is an error at its line" <<'T'
printf '{:type :ok, :f :read, :process 0, :value [1 2]}\n' >"$tmp/bad.edn"
expect_status 3 "$isolde" check -m bank "$tmp/bad.edn"
expect_err 'bad.edn:1:1: bank: a read.s value is not a map'
T

test_case "set is Jepsen's set; lin-set is the linearizability model" <<'T'
expect_status 0 "$isolde" check -m set tests/data/jepsen/set-valid.edn
expect_out '^model: set$'
expect_status 0 "$isolde" check -m lin-set --json tests/data/jepsen/set-valid.edn
not grep -q '"model":"set"' "$tmp/out"
T

test_case "--total takes an integer" <<'T'
expect_status 3 "$isolde" check -m bank --total x tests/data/jepsen/bank-valid.edn
T

finish
