#!/bin/sh
# CLI tests of `isolde run`: the sim's verdicts at and above its level,
# byte-identical histories per seed, SQLite in every begin/journal mode,
# the exec protocol with examples/exec_sqlite.py and with clients that
# answer garbage, hang or die, SIGINT (stops, still checks) and SIGKILL
# (leaves a checkable history), and argument errors.
. tests/clilib.sh "$@"
export TMPDIR="$tmp" # histories kept as evidence, temporary databases


# The sim: clean at its level, the next level's anomaly with proof.
expect_status 0 "$isolde" run sim -i serializable -c serializable -n 2000 --seed 1
expect_status 1 "$isolde" run sim -i snapshot-isolation -c serializable -n 2000 -p 8 --seed 1
expect_out 'G2-item'
expect_out 'run: sim snapshot-isolation, list-append, 8 clients'
expect_status 1 "$isolde" run sim -i read-committed -c snapshot-isolation -m rw-register --wfr-keys -n 3000 --seed 3
expect_out 'G-single-item'
expect_status 1 "$isolde" run sim -i serializable -n 2000 --seed 2
expect_out 'realtime'
expect_status 0 "$isolde" run sim --abort-rate 0.1 --info-rate 0.1 --zipf 1.2 --keys 20 -n 3000
expect_status 1 "$isolde" run sim -i lost-update -c snapshot-isolation -n 1000

# Same seed, same bytes; another seed, other bytes.
"$isolde" run sim -i serializable -c serializable --seed 5 -o "$tmp/a.jsonl" >/dev/null
"$isolde" run sim -i serializable -c serializable --seed 5 -o "$tmp/b.jsonl" >/dev/null
"$isolde" run sim -i serializable -c serializable --seed 6 -o "$tmp/c.jsonl" >/dev/null
cmp -s "$tmp/a.jsonl" "$tmp/b.jsonl" && ok || bad "same seed gave different histories"
cmp -s "$tmp/a.jsonl" "$tmp/c.jsonl" && bad "different seeds gave the same history" || ok
# The history is Elle JSON lines that `check` reads as well.
expect_status 0 "$isolde" check -c serializable "$tmp/a.jsonl"
head -1 "$tmp/a.jsonl" | grep -q '^{"index":0,"type":"invoke","process":[0-9]*,"f":"txn","value":\[' \
    && ok || bad "history line shape"

have_sqlite() { ! "$isolde" run sqlite -n 1 2>&1 | grep -q "unknown backend"; }

# SQLite: strict-serializable in every mode, threads and processes.
if have_sqlite; then
    for b in deferred immediate exclusive; do
        for j in wal delete; do
            expect_status 0 "$isolde" run sqlite --url "$tmp/$b-$j.db" --begin $b --journal $j -n 300 -p 4
        done
    done
    expect_status 0 "$isolde" run sqlite -m rw-register --wfr-keys -n 1000
    expect_status 0 "$isolde" run sqlite --fork -n 1000
    expect_out '8 processes'
    expect_status 3 "$isolde" run sqlite --begin sometimes -n 10
else
    echo "note: built without SQLite; skipping sqlite runs"
fi

# exec: the example client, then clients that fail in every way.
if command -v python3 >/dev/null; then
    expect_status 0 "$isolde" run exec --url "python3 examples/exec_sqlite.py $tmp/exec.db" -n 300 -p 4
    expect_out 'txns (30[01] ok, 0 fail, 0 info)'
    expect_status 0 "$isolde" run exec --url "python3 examples/exec_sqlite.py $tmp/exec.db" \
        -m rw-register -n 200 -p 4 -c serializable
fi
expect_status 2 "$isolde" run exec --url "echo garbage" -n 10 -p 2
expect_out '11 txns (0 ok, 0 fail, 11 info)'
expect_status 2 "$isolde" run exec --url "sleep 5" --reply-timeout 100 -n 2 -p 2
expect_out '3 txns (0 ok, 0 fail, 3 info)'
expect_status 2 "$isolde" run exec --url "exit 1" -n 4 -p 2
expect_status 3 "$isolde" run exec -n 4

# SIGINT stops the clients; the history so far is still checked.
"$isolde" run sim -n 100000000 -o "$tmp/int.jsonl" >"$tmp/out" 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid; st=$?
[ "$st" = 0 ] && ok || bad "interrupted run exited $st"
expect_out '(interrupted)'
expect_out 'valid?: true'

# SIGKILL leaves a history that checks: lines in the file's mapping, then
# the newlines it was grown with (whole pages: a kill can land while a
# chunk is being written), with client threads and with client processes.
# A run that ends is cut to size.
if have_sqlite; then
    for mode in --clients=8 --fork; do
        "$isolde" run sqlite $mode --url "$tmp/kill.db" -n 100000000 -o "$tmp/kill.jsonl" >/dev/null 2>&1 &
        pid=$!
        sleep 1
        kill -KILL $pid
        wait $pid 2>/dev/null
        [ -s "$tmp/kill.jsonl" ] && ok || bad "no history after SIGKILL ($mode)"
        size=$(wc -c <"$tmp/kill.jsonl")
        [ $((size % 4096)) -eq 0 ] && [ "$(tail -c 1 "$tmp/kill.jsonl" | od -An -c | tr -d ' ')" = '\n' ] \
            && ok || bad "killed history ($mode) is not whole pages ending in a newline: $size bytes"
        expect_status 0 "$isolde" check "$tmp/kill.jsonl"
    done
    "$isolde" run sqlite --url "$tmp/end.db" -n 200 -o "$tmp/end.jsonl" >/dev/null
    [ "$(tail -c 2 "$tmp/end.jsonl" | od -An -c | tr -d ' ')" = '}\n' ] && ok || bad "finished history not cut to size"
fi

# Argument errors.
expect_status 3 "$isolde" run
expect_status 3 "$isolde" run nosuchdb
expect_status 3 "$isolde" run sim -i chaos
expect_status 3 "$isolde" run sim -n -5
expect_status 3 "$isolde" run sim --read-ratio 2
expect_status 3 "$isolde" run sim --bogus
expect_status 0 "$isolde" run --help
expect_out 'read-uncommitted'

finish "run"
