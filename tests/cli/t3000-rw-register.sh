#!/bin/sh
# `isolde check -m rw-register` on tests/fixtures/rw: verdicts, each
# version-order option, garbage reads, cyclic versions, the
# transaction-order file, JSON shape and workload errors.
. tests/clilib.sh "$@"
fx=tests/fixtures/rw
printf '{"0": "first"}' >"$tmp/bad-order.json"
printf '{"index":0,"type":"ok","process":0,"value":[["append","x",1]]}\n' >"$tmp/append.jsonl"

test_case "a serial history is valid" <<'T'
expect_status 0 "$isolde" check -m rw-register $fx/serial.edn
T

test_case "a serial history is valid with --wfr-keys --sequential-keys --linearizable-keys" <<'T'
expect_status 0 "$isolde" check -m rw-register --wfr-keys --sequential-keys --linearizable-keys $fx/serial.edn
T

test_case "a serial history is valid with --realtime-versions" <<'T'
expect_status 0 "$isolde" check -m rw-register --realtime-versions $fx/serial.edn
T

# elle-cli's rw-register history: valid for Elle, a garbage read for isolde.
test_case "elle-cli's rw-register history is a garbage read, ruling out read-uncommitted (JSON)" <<'T'
expect_status 1 "$isolde" check -m rw-register --json $fx/garbage.json
expect_out '"anomaly-types": *\["garbage-read"\]'
expect_out '"not": *\["read-uncommitted"\]'
T

test_case "the garbage read's text names the value nobody wrote" <<'T'
expect_status 1 "$isolde" check -m rw-register $fx/garbage.json
expect_out 'no transaction ever wrote 3 to key "x"'
T

# A stale read: invisible without evidence, cyclic versions under
# linearizable keys.
test_case "a stale read is valid under serializable without version evidence" <<'T'
expect_status 0 "$isolde" check -m rw-register -c serializable $fx/stale-read.edn
T

test_case "a stale read under --linearizable-keys is cyclic-versions, with its sources (JSON)" <<'T'
expect_status 1 "$isolde" check -m rw-register --linearizable-keys --json $fx/stale-read.edn
expect_out '"cyclic-versions"'
expect_out '"sources": *\["initial-state", *"linearizable-keys"\]'
T

test_case "the cyclic versions' text shows the cycle 1 < 2 < 1" <<'T'
expect_status 1 "$isolde" check -m rw-register --linearizable-keys $fx/stale-read.edn
expect_out '1 < 2 < 1'
T

# The database's commit order turns a valid history into G-single-item.
test_case "the commit-order history is valid without --transaction-order" <<'T'
expect_status 0 "$isolde" check -m rw-register -c serializable $fx/commit-order.edn
T

test_case "--transaction-order makes the commit-order history G-single-item with an rw step" <<'T'
expect_status 1 "$isolde" check -m rw-register -c serializable --transaction-order $fx/commit-order.json --json $fx/commit-order.edn
expect_out '"G-single-item"'
expect_out '"type": *"rw"'
T

test_case "a missing --transaction-order file is an error" <<'T'
expect_status 3 "$isolde" check -m rw-register --transaction-order "$tmp/missing.json" $fx/commit-order.edn
T

test_case "a malformed --transaction-order file is an error naming the file" <<'T'
expect_status 3 "$isolde" check -m rw-register --transaction-order "$tmp/bad-order.json" $fx/commit-order.edn
expect_err 'bad-order.json'
T

# Workload errors: file:line:col and a clear reason, exit 3.
test_case "a value written twice is an error at file:line naming the value" <<'T'
expect_status 3 "$isolde" check -m rw-register $fx/duplicate-write.jsonl
expect_err 'duplicate-write.jsonl:3:'
expect_err 'had value 1 written by more than one op'
T

test_case "an append in an rw-register history is an error at file:line:col" <<'T'
expect_status 3 "$isolde" check -m rw-register "$tmp/append.jsonl"
expect_err 'append.jsonl:1:1'
T

finish
