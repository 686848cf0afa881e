#!/bin/sh
# CLI tests of `isolde check -m rw-register` on tests/fixtures/rw: verdicts,
# each version-order option, garbage reads, cyclic versions, the
# transaction-order file, JSON shape and workload errors.
. tests/clilib.sh "$@"
fx=tests/fixtures/rw

expect_err() { grep -q -- "$1" "$tmp/err" && ok || bad "stderr lacks '$1'"; }

# A serial history is valid, with and without every version-order option.
expect_status 0 "$isolde" check -m rw-register $fx/serial.edn
expect_status 0 "$isolde" check -m rw-register --wfr-keys --sequential-keys --linearizable-keys $fx/serial.edn
expect_status 0 "$isolde" check -m rw-register --realtime-versions $fx/serial.edn

# elle-cli's rw-register history: valid for Elle, a garbage read for isolde.
expect_status 1 "$isolde" check -m rw-register --json $fx/garbage.json
expect_out '"anomaly-types": *\["garbage-read"\]'
expect_out '"not": *\["read-uncommitted"\]'
expect_status 1 "$isolde" check -m rw-register $fx/garbage.json
expect_out 'no transaction ever wrote 3 to "x"'

# A stale read: invisible without evidence, cyclic versions under
# linearizable keys, G-single-item-realtime... only when the versions hold.
expect_status 0 "$isolde" check -m rw-register -c serializable $fx/stale-read.edn
expect_status 1 "$isolde" check -m rw-register --linearizable-keys --json $fx/stale-read.edn
expect_out '"cyclic-versions"'
expect_out '"sources": *\["initial-state", *"linearizable-keys"\]'
expect_status 1 "$isolde" check -m rw-register --linearizable-keys $fx/stale-read.edn
expect_out '1 < 2 < 1'

# The database's commit order turns a valid history into G-single-item.
expect_status 0 "$isolde" check -m rw-register -c serializable $fx/commit-order.edn
expect_status 1 "$isolde" check -m rw-register -c serializable --transaction-order $fx/commit-order.json --json $fx/commit-order.edn
expect_out '"G-single-item"'
expect_out '"type": *"rw"'
expect_status 3 "$isolde" check -m rw-register --transaction-order "$tmp/missing.json" $fx/commit-order.edn
printf '{"0": "first"}' >"$tmp/bad-order.json"
expect_status 3 "$isolde" check -m rw-register --transaction-order "$tmp/bad-order.json" $fx/commit-order.edn
expect_err 'bad-order.json'

# Workload errors: file:line:col and a clear reason, exit 3.
expect_status 3 "$isolde" check -m rw-register $fx/duplicate-write.jsonl
expect_err 'duplicate-write.jsonl:3:'
expect_err 'had value 1 written by more than one op'
printf '{"index":0,"type":"ok","process":0,"value":[["append","x",1]]}\n' >"$tmp/append.jsonl"
expect_status 3 "$isolde" check -m rw-register "$tmp/append.jsonl"
expect_err 'append.jsonl:1:1'

finish "rw_register.sh"
