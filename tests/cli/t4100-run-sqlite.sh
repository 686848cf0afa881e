#!/bin/sh
# `isolde run sqlite`: strict-serializable in every begin and journal mode,
# with threads and with processes; SIGKILL leaves a checkable history (whole
# pages, ending in a newline, no blank line); SIGTERM and SIGINT stop the
# clients, and the history is cut to size and checked; a run that ends is
# cut to size. Skipped when isolde is built without SQLite.
. tests/clilib.sh "$@"
export TMPDIR="$tmp" # temporary databases

if "$isolde" run sqlite -n 1 -o "$tmp/probe.jsonl" 2>&1 | grep -q "unknown backend"; then
    test_skip "SQLite runs" "built without SQLite"
    finish
fi

for b in deferred immediate exclusive; do
    for j in wal delete; do
        test_case "sqlite --begin $b --journal $j is strict-serializable" <<'T'
expect_status 0 "$isolde" run sqlite --url "$tmp/$b-$j.db" --begin $b --journal $j -n 300 -p 4 -o "$tmp/run1.jsonl"
T
    done
done

test_case "sqlite rw-register with --wfr-keys is strict-serializable" <<'T'
expect_status 0 "$isolde" run sqlite -m rw-register --wfr-keys -n 1000 -o "$tmp/run2.jsonl"
T

test_case "sqlite --fork runs 8 client processes, strict-serializable" <<'T'
expect_status 0 "$isolde" run sqlite --fork -n 1000 -o "$tmp/run3.jsonl"
expect_out '8 processes'
T

test_case "an unknown --begin mode is a usage error" <<'T'
expect_status 3 "$isolde" run sqlite --begin sometimes -n 10
T

# SIGKILL leaves lines in the file's mapping, the last one followed by the
# spaces it was grown with and its newline (whole pages: a kill can land
# while a chunk is being written), no blank line, with client threads and
# with client processes; a kill that lands inside the copy of a line cuts
# that line short, which isolde repair drops (docs/FORMATS.md).
for mode in --clients=8 --fork; do
    test_case "after SIGKILL ($mode) the history is whole pages ending in a newline, no blank line; repaired, it checks valid" <<'T'
"$isolde" run sqlite $mode --url "$tmp/kill.db" -n 100000000 -o "$tmp/kill.jsonl" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null || true
test -s "$tmp/kill.jsonl" || { echo "no history after SIGKILL"; false; }
size=$(wc -c <"$tmp/kill.jsonl")
test $((size % 4096)) -eq 0 || { echo "$size bytes: not whole pages"; false; }
test "$(tail -c 1 "$tmp/kill.jsonl" | od -An -c | tr -d ' ')" = '\n' || { echo "does not end in a newline"; false; }
not grep -q '^ *$' "$tmp/kill.jsonl"
expect_status 0 "$isolde" repair "$tmp/kill.jsonl"
test "$(tail -c 2 "$tmp/kill.jsonl" | od -An -c | tr -d ' ')" = '}\n'
expect_status 0 "$isolde" check "$tmp/kill.jsonl"
T
done

# SIGTERM (timeout, docker, systemd) and SIGINT: the clients stop, the
# history is closed (cut to its last op, no filler) and checked.
for sig in TERM INT; do
    for mode in --clients=8 --fork; do
        test_case "SIG$sig ($mode) stops the clients, cuts the history to size and checks it" <<'T'
"$isolde" run sqlite $mode --url "$tmp/$sig.db" -n 100000000 -o "$tmp/$sig.jsonl" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1
kill -$sig $pid
st=0
wait $pid || st=$?
test "$st" = 0 || { echo "exit $st after SIG$sig"; false; }
expect_out '(interrupted)'
expect_out 'valid?: true'
test "$(tail -c 2 "$tmp/$sig.jsonl" | od -An -c | tr -d ' ')" = '}\n' || { echo "not cut to its last op"; false; }
not grep -q '^ *$' "$tmp/$sig.jsonl"
T
    done
done

test_case "a run that ends cuts its history to size" <<'T'
expect_status 0 "$isolde" run sqlite --url "$tmp/end.db" -n 200 -o "$tmp/end.jsonl"
test "$(tail -c 2 "$tmp/end.jsonl" | od -An -c | tr -d ' ')" = '}\n'
T

finish
