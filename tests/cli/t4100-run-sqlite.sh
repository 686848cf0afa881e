#!/bin/sh
# `isolde run sqlite`: strict-serializable in every begin and journal mode,
# with threads and with processes; SIGKILL leaves a checkable history (whole
# pages, ending in a newline); a run that ends is cut to size. Skipped when
# isolde is built without SQLite.
. tests/clilib.sh "$@"
export TMPDIR="$tmp" # histories kept as evidence, temporary databases

if "$isolde" run sqlite -n 1 2>&1 | grep -q "unknown backend"; then
    test_skip "SQLite runs" "built without SQLite"
    finish
fi

for b in deferred immediate exclusive; do
    for j in wal delete; do
        test_case "sqlite --begin $b --journal $j is strict-serializable" <<'T'
expect_status 0 "$isolde" run sqlite --url "$tmp/$b-$j.db" --begin $b --journal $j -n 300 -p 4
T
    done
done

test_case "sqlite rw-register with --wfr-keys is strict-serializable" <<'T'
expect_status 0 "$isolde" run sqlite -m rw-register --wfr-keys -n 1000
T

test_case "sqlite --fork runs 8 client processes, strict-serializable" <<'T'
expect_status 0 "$isolde" run sqlite --fork -n 1000
expect_out '8 processes'
T

test_case "an unknown --begin mode is a usage error" <<'T'
expect_status 3 "$isolde" run sqlite --begin sometimes -n 10
T

# SIGKILL leaves a history that checks: lines in the file's mapping, then
# the newlines it was grown with (whole pages: a kill can land while a
# chunk is being written), with client threads and with client processes.
for mode in --clients=8 --fork; do
    test_case "after SIGKILL ($mode) the history is whole pages ending in a newline, and checks valid" <<'T'
"$isolde" run sqlite $mode --url "$tmp/kill.db" -n 100000000 -o "$tmp/kill.jsonl" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null || true
test -s "$tmp/kill.jsonl" || { echo "no history after SIGKILL"; false; }
size=$(wc -c <"$tmp/kill.jsonl")
test $((size % 4096)) -eq 0 || { echo "$size bytes: not whole pages"; false; }
test "$(tail -c 1 "$tmp/kill.jsonl" | od -An -c | tr -d ' ')" = '\n' || { echo "does not end in a newline"; false; }
expect_status 0 "$isolde" check "$tmp/kill.jsonl"
T
done

test_case "a run that ends cuts its history to size" <<'T'
expect_status 0 "$isolde" run sqlite --url "$tmp/end.db" -n 200 -o "$tmp/end.jsonl"
test "$(tail -c 2 "$tmp/end.jsonl" | od -An -c | tr -d ' ')" = '}\n'
T

finish
