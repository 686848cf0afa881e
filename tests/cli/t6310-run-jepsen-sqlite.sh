#!/bin/sh
# Jepsen's workloads through the client loop (issue 15) on SQLite and on
# the exec protocol (examples/exec_sqlite.py): each workload passes at
# SQLite's one level, serializable (SQLite's rows of tests/data/sql/jepsen.tsv,
# run by t6320 with the servers'; and through exec, here); a bank's opening balances are set up
# once and not recorded; an add reads the integer and writes the sum, and
# one that would overdraw an account fails with its class; a set whose
# lists were never added to reads as the empty set.
. tests/clilib.sh "$@"
if ! "$isolde" run --help | grep -q '^sqlite:'; then
    [ "${CI:-}" = true ] && test_case "built with libsqlite3" "false"
    test_skip "SQLite runs" "built without libsqlite3"
    finish
fi

test_case "the bank's setup opens the history (process setup), checked against; transfers and reads are Jepsen's ops" <<'T'
expect_status 0 "$isolde" run sqlite --url "$tmp/b.db" -w bank --keys 4 -n 300 -p 6 -o "$tmp/b.jsonl"
not grep -q '"f":"txn"' "$tmp/b.jsonl"
head -1 "$tmp/b.jsonl" | grep -q '"index":0,"type":"invoke","process":"setup","f":"setup","value":{"0":10,"1":10,"2":10,"3":10},"time":'
sed -n 2p "$tmp/b.jsonl" | grep -q '"index":1,"type":"ok","process":"setup","f":"setup","value":{"0":10,"1":10,"2":10,"3":10},"time":'
sed -n 3p "$tmp/b.jsonl" | grep -q '"index":2,"type":"invoke","process":[0-5],"f":"\(transfer\|read\)"'
grep -q '"type":"ok","process":[0-9]*,"f":"transfer","value":{"from":[0-3],"to":[0-3],"amount":[1-5]}' "$tmp/b.jsonl"
tail -1 "$tmp/b.jsonl" | grep -q '"type":"ok","process":[0-9]*,"f":"read","value":{"0":[0-9]*,"1":[0-9]*,"2":[0-9]*,"3":[0-9]*}'
expect_out 'total 40 (the opening balances, line 2)'
T

test_case "an overdraft fails with class insufficient-balance and changes nothing" <<'T'
expect_status 0 "$isolde" run sqlite --url "$tmp/o.db" -w bank --keys 2 --read-ratio 0.1 -n 400 -p 4 -o "$tmp/o.jsonl"
expect_out 'insufficient-balance [0-9]* fail'
grep -q '"type":"fail",.*"f":"transfer".*"error":\["insufficient-balance","","add -[1-5] to key [01], which holds [0-4]: the sum would go below 0"\]' "$tmp/o.jsonl"
T

need_python() { command -v python3 >/dev/null; }
if ! need_python; then
    test_skip "exec runs of Jepsen's workloads" "no python3"
    finish
fi
client="python3 $PWD/examples/exec_sqlite.py"

for w in bank counter set set-full long-fork; do
    test_case "exec (examples/exec_sqlite.py) $w passes" <<T
expect_status 0 "\$isolde" run exec --url "$client \$tmp/e-$w.db" -w $w -n 300 -p 4 -o "\$tmp/e-$w.jsonl"
expect_out '^valid?: true$'
T
done

test_case "exec set-full: lists never added to are no elements (not nil)" <<'T'
expect_status 0 "$isolde" run exec --url "$client $tmp/n.db" -w set-full --keys 8 -n 40 -p 1 -o "$tmp/n.jsonl"
not grep -q '"f":"read","value":\[[^]]*ul' "$tmp/n.jsonl"
grep -q '"type":"ok","process":0,"f":"read","value":\[\]' "$tmp/n.jsonl" || grep -q '"type":"ok","process":0,"f":"read","value":\[[0-9]' "$tmp/n.jsonl"
T
finish
