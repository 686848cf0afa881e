#!/bin/sh
# `isolde run sim`: the simulated database's verdicts at and above its
# level, byte-identical histories per seed, the history's shape, and
# signals: SIGINT and SIGTERM stop the clients and still check; no signal,
# SIGKILL included, leaves a blank line in the history.
. tests/clilib.sh "$@"

test_case "sim serializable is clean under serializable" <<'T'
expect_status 0 "$isolde" run sim -i serializable -c serializable -n 2000 --seed 1 -o "$tmp/run1.jsonl"
T

test_case "sim snapshot-isolation shows G2-item under serializable, with its run line" <<'T'
expect_status 1 "$isolde" run sim -i snapshot-isolation -c serializable -n 2000 -p 8 --seed 1 -o "$tmp/run2.jsonl"
expect_out 'G2-item'
expect_out 'run: sim snapshot-isolation, list-append, 8 clients'
T

test_case "sim read-committed (rw-register, --wfr-keys) shows G-single-item under snapshot-isolation" <<'T'
expect_status 1 "$isolde" run sim -i read-committed -c snapshot-isolation -m rw-register --wfr-keys -n 3000 --seed 3 -o "$tmp/run3.jsonl"
expect_out 'G-single-item'
T

test_case "sim serializable is not strict-serializable: a realtime anomaly" <<'T'
expect_status 1 "$isolde" run sim -i serializable -c strict-serializable -n 2000 --seed 2 -o "$tmp/run4.jsonl"
expect_out 'realtime'
T

test_case "aborts, infos and a skewed key choice stay valid" <<'T'
expect_status 0 "$isolde" run sim --abort-rate 0.1 --info-rate 0.1 --zipf 1.2 --keys 20 -n 3000 -o "$tmp/run5.jsonl"
T

test_case "the broken lost-update mode is caught under snapshot-isolation" <<'T'
expect_status 1 "$isolde" run sim -i lost-update -c snapshot-isolation -n 1000 -o "$tmp/run6.jsonl"
T

# --time-limit is wall-clock seconds for the sim too (its history's clock
# is simulated): however large -n, the run stops starting transactions,
# reads every key and checks. The file-size limit (1 GiB) ends a run that
# ignores it long before the disk fills (issue 23: 347 s, 32 GB).
test_case "sim --time-limit stops a run of 10^9 transactions, says so, and the history checks" <<'T'
ulimit -f 1048576
expect_status 0 timeout 300 "$isolde" run sim -n 1000000000 --time-limit 0.3 -o "$tmp/limit.jsonl"
expect_out '^run: sim strict-serializable, list-append, 8 clients: [0-9]* txns (--time-limit 0.3 s stopped the clients) + [0-9]* final-read txns\? ('
expect_out 'valid?: true'
T

test_case "a sim run that ends before --time-limit does not say it stopped" <<'T'
expect_status 0 "$isolde" run sim -n 100 --time-limit 1000 -o "$tmp/nolimit.jsonl"
expect_out '^run: sim strict-serializable, list-append, 8 clients: 100 txns + [0-9]* final-read txns\? ('
T

test_case "a workload of single ops (etcd's registers, a counter's adds) counts ops, not txns" <<'T'
expect_status 0 "$isolde" run sim -w counter -n 50 -o "$tmp/ops.jsonl"
expect_out '^run: sim strict-serializable, counter, 8 clients: 50 ops + 1 final-read op ([0-9]* ok, [0-9]* fail, 0 info) in [0-9.]* s, [0-9]* op/s,'
T

test_case "same seed, same bytes; another seed, other bytes" <<'T'
expect_status 0 "$isolde" run sim -i serializable -c serializable --seed 5 -o "$tmp/a.jsonl"
expect_status 0 "$isolde" run sim -i serializable -c serializable --seed 5 -o "$tmp/b.jsonl"
expect_status 0 "$isolde" run sim -i serializable -c serializable --seed 6 -o "$tmp/c.jsonl"
cmp "$tmp/a.jsonl" "$tmp/b.jsonl"
not cmp -s "$tmp/a.jsonl" "$tmp/c.jsonl"
T

test_case "the history is Elle JSON lines that check reads as valid" <<'T'
expect_status 0 "$isolde" check -c serializable "$tmp/a.jsonl"
head -1 "$tmp/a.jsonl" | grep -q '^{"index":0,"type":"invoke","process":[0-9]*,"f":"txn","value":\['
T

for sig in INT TERM; do
    test_case "SIG$sig stops the clients and still checks the history so far" <<'T'
"$isolde" run sim -n 100000000 -o "$tmp/$sig.jsonl" >"$tmp/out" 2>&1 &
pid=$!
sleep 1
kill -$sig $pid
st=0
wait $pid || st=$?
test "$st" = 0 || { echo "interrupted run exited $st"; false; }
expect_out '(interrupted)'
expect_out 'valid?: true'
test "$(tail -c 2 "$tmp/$sig.jsonl" | od -An -c | tr -d ' ')" = '}\n' || { echo "not cut to its last op"; false; }
not grep -q '^ *$' "$tmp/$sig.jsonl"
T
done

# The sim writes 64 KiB at a time: a kill can land inside a write and cut its
# last line short, which isolde repair drops (docs/FORMATS.md).
test_case "SIGKILL leaves no blank line; after isolde repair the history checks" <<'T'
"$isolde" run sim -n 100000000 -o "$tmp/kill.jsonl" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null || true
test -s "$tmp/kill.jsonl"
not grep -q '^ *$' "$tmp/kill.jsonl"
expect_status 0 "$isolde" repair "$tmp/kill.jsonl"
test "$(tail -c 2 "$tmp/kill.jsonl" | od -An -c | tr -d ' ')" = '}\n'
expect_status 0 "$isolde" check -c serializable "$tmp/kill.jsonl"
T

test_case "a history that cannot be written says why (/dev/full: No space left on device)" <<'T'
expect_status 3 "$isolde" run sim -n 20 -o /dev/full
expect_err '^/dev/full: cannot write the history: No space left on device$'
T

test_case "run --json: stdout is the check's JSON alone, the summary on stderr" <<'T'
expect_status 0 "$isolde" run sim -n 200 --json -o "$tmp/json.jsonl"
expect_err '^run: sim strict-serializable'
expect_err "^history: $tmp/json.jsonl"
not grep -q '^run:' "$tmp/out"
head -c 1 "$tmp/out" | grep -q '{'
if command -v python3 >/dev/null; then python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["valid?"] is True' "$tmp/out"; fi
T

test_case "run --processes N is the client count (adya's spelling of -p)" <<'T'
expect_status 0 "$isolde" run sim --processes 3 -n 100 -o "$tmp/procs.jsonl"
expect_out '3 clients: '
T

test_case "-i without -c checks the level asked for: sim -i serializable is valid, and the summary says so" <<'T'
expect_status 0 "$isolde" run sim -i serializable -n 2000 --seed 2 -o "$tmp/level.jsonl"
expect_out 'valid?: true'
expect_out '^check: serializable (the level -i asked for; -c names others)$'
expect_out '^models checked: serializable$'
expect_status 1 "$isolde" check "$tmp/level.jsonl"
expect_out '^models checked: strict-serializable$'
T

test_case "-i that is no model name (a broken mode) keeps -c's default, and the summary says so" <<'T'
expect_status 1 "$isolde" run sim -i lost-update -n 1000 -o "$tmp/broken.jsonl"
expect_out '^check: strict-serializable (the default; -c names others)$'
T

test_case "the summary names the models -c and -a ask for, or the workload's checker" <<'T'
expect_status 0 "$isolde" run sim -i serializable -c snapshot-isolation -a G1 -n 100 -o "$tmp/c.jsonl"
expect_out '^check: snapshot-isolation (-c), and the anomalies G1 (-a)$'
expect_status 2 "$isolde" run sim -c '' -n 100 -o "$tmp/c2.jsonl" --json
expect_err '^check: no model (-c)$'
expect_out '"unknown-reason": *"nothing was checked'
expect_status 0 "$isolde" run sim -w counter -n 100 -o "$tmp/c3.jsonl"
expect_out "^check: counter's checker$"
T

isolde_abs=$(cd "$(dirname "$isolde")" && pwd)/$(basename "$isolde")
test_case "without -o the history is a new file in the current directory, named by the run, kept and named" <<'T'
mkdir "$tmp/here" "$tmp/tmpdir"
cd "$tmp/here"
export TMPDIR="$tmp/tmpdir"
expect_status 0 "$isolde_abs" run sim -n 100
f=$(ls isolde-sim-*.jsonl)
test -s "$f"
expect_out "^history: $f\$"
test -z "$(ls "$tmp/tmpdir")"
expect_status 0 "$isolde_abs" run sim -n 100
test "$(ls isolde-sim-*.jsonl | wc -l)" -eq 2
T

test_case "a run that fails at once leaves no empty history behind" <<'T'
mkdir "$tmp/fails"
cd "$tmp/fails"
expect_status 3 "$isolde_abs" run sim -i chaos
test -z "$(ls)"
T

test_case "failures are named by one vocabulary: summary, history and report say serialization-failure, ..." <<'T'
expect_status 0 "$isolde" run sim -i serializable -n 2000 -p 8 -o "$tmp/v.jsonl" --html "$tmp/v.html"
expect_out '^not ok: serialization-failure [0-9]* fail$'
grep -q '"error":\["serialization-failure","",' "$tmp/v.jsonl"
not grep -q '"error":"' "$tmp/v.jsonl"
grep -q '\[[0-9]*,"serialization-failure","' "$tmp/v.html"
expect_status 1 "$isolde" run sim -i read-committed -w bank --abort-rate 0.1 --info-rate 0.05 -n 2000 -o "$tmp/b.jsonl"
expect_out '^not ok: .*aborted [0-9]* fail'
expect_out 'lock-timeout [0-9]* fail'
expect_out 'indeterminate [0-9]* info'
expect_out 'insufficient-balance [0-9]* fail'
not grep -q '"error":"' "$tmp/b.jsonl"
T

finish
