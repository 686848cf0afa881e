#!/bin/sh
# `isolde run sqlite`: strict-serializable in every begin and journal mode,
# with threads and with processes; SIGKILL leaves a checkable history (what
# docs/FORMATS.md promises: whole pages, no blank line); SIGTERM and SIGINT stop the
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

test_case "a run that ends before its nemesis's first fault is due says so, and what to change" <<'T'
expect_status 0 "$isolde" run sqlite --url "$tmp/idle.db" -n 100000000 --time-limit 0.3 --nemesis command --fault true --heal true --fault-every 600 -o "$tmp/idle.jsonl"
expect_err '^isolde run: warning: --nemesis command never fired: the run ended after [0-9.]* s, before its first fault was due at ~[0-9.]* s (raise --time-limit or lower --fault-every)$'
T

test_case "an unknown --begin mode is a usage error" <<'T'
expect_status 3 "$isolde" run sqlite --begin sometimes -n 10
T

# What docs/FORMATS.md promises of a history a SIGKILL cut (sqlite, exec):
# whole pages, no blank line, every line a whole op but the last, which may
# be cut short (a kill inside the copy of a line), followed by spaces and
# then its newline -- or, when the kill landed while the file grew by its
# next 4 MiB, by spaces alone (the newline moves to the new end only once
# all of them are written). isolde repair makes it whole.
killed_as_promised() { # FILE
    test -s "$1" || { echo "no history after SIGKILL"; return 1; }
    size=$(wc -c <"$1")
    test $((size % 4096)) -eq 0 || { echo "$size bytes: not whole pages"; return 1; }
    last=$(tail -c 1 "$1" | od -An -tx1 | tr -d ' ')
    test "$last" = 0a || test "$last" = 20 || { echo "ends in byte 0x$last, not a newline or a space"; return 1; }
    not grep -q '^ *$' "$1"
}

first_bytes() { # FILE: wait until it has some (a minute at most)
    for _ in $(seq 600); do test -s "$1" && return 0; sleep 0.1; done
    echo "$1: still empty after a minute"; return 1
}

test_case "a history whose growth a kill cut (spaces, no newline) is what the promise allows; repair makes it whole" <<'T'
expect_status 0 "$isolde" run sqlite --url "$tmp/grow.db" -n 50 -o "$tmp/grow.jsonl"
size=$(wc -c <"$tmp/grow.jsonl")
head -c $((size - 1)) "$tmp/grow.jsonl" >"$tmp/cut.jsonl"
head -c $((4096 - (size - 1) % 4096)) /dev/zero | tr '\0' ' ' >>"$tmp/cut.jsonl"
killed_as_promised "$tmp/cut.jsonl"
expect_status 0 "$isolde" repair "$tmp/cut.jsonl"
cmp "$tmp/cut.jsonl" "$tmp/grow.jsonl"
T

# SIGKILL with client threads and with client processes, a second after
# the history's first bytes: what is left is what the promise says, and
# repaired, it checks valid.
for mode in --clients=8 --fork; do
    test_case "after SIGKILL ($mode) the history is as docs/FORMATS.md promises; repaired, it checks valid" <<'T'
"$isolde" run sqlite $mode --url "$tmp/kill.db" -n 100000000 -o "$tmp/kill.jsonl" >/dev/null 2>&1 &
pid=$!
first_bytes "$tmp/kill.jsonl"
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null || true
killed_as_promised "$tmp/kill.jsonl"
expect_status 0 "$isolde" repair "$tmp/kill.jsonl"
test "$(tail -c 2 "$tmp/kill.jsonl" | od -An -c | tr -d ' ')" = '}\n'
expect_status 0 "$isolde" check "$tmp/kill.jsonl"
rm -f "$tmp/kill.db" "$tmp/kill.db-wal" "$tmp/kill.db-shm" "$tmp/kill.jsonl"
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
