#!/bin/sh
# `isolde run exec`: the line protocol with examples/exec_sqlite.py; clients
# that answer garbage, hang, die or cannot start (each reply costs an info
# and a restart; a run where no transaction succeeded is an error, exit 3,
# saying the first client error); lines a client writes for no request
# (never taken as the next reply); --url is required.
. tests/clilib.sh "$@"

if command -v python3 >/dev/null; then
    test_case "the example client (examples/exec_sqlite.py) is strict-serializable, every txn ok" <<'T'
expect_status 0 "$isolde" run exec --url "python3 examples/exec_sqlite.py $tmp/exec.db" -n 300 -p 4 -o "$tmp/run1.jsonl"
expect_out 'txns\( + 1 final-read txn\)\? (30[01] ok, 0 fail, 0 info)'
T
    test_case "the example client is serializable on rw-register" <<'T'
expect_status 0 "$isolde" run exec --url "python3 examples/exec_sqlite.py $tmp/exec.db" -m rw-register -n 200 -p 4 -c serializable -o "$tmp/run2.jsonl"
T
    test_case "a URL's password is overwritten in argv (/proc/PID/cmdline), and scrubbed from the nemesis commands recorded" <<'T'
client="python3 examples/exec_sqlite.py $tmp/pw.db # postgresql://u:SECRETPW@h/db"
expect_status 0 "$isolde" run exec --url "tr '\0' ' ' </proc/\$PPID/cmdline >$tmp/cmdline; exec $client" --nemesis command --fault "true SECRETPW" --heal "true postgresql://u:SECRETPW@h" --fault-every 0.000001 --fault-for 0.05 -n 300 -p 2 --html "$tmp/pw.html" -o "$tmp/pw.jsonl"
grep -q 'u:\*\*\*\*\*\*\*\*@h' "$tmp/cmdline"
grep -q '"f":"start-fault","value":{"command":"true \*\*\*","exit":0}' "$tmp/pw.jsonl"
grep -q '"command":"true postgresql://u:\*\*\*@h"' "$tmp/pw.jsonl"
not grep -q 'SECRETPW@h/db' "$tmp/cmdline"
not grep -q SECRETPW "$tmp/pw.jsonl" "$tmp/pw.html" "$tmp/out" "$tmp/err"
T
else
    test_skip "the example client (examples/exec_sqlite.py)" "no python3"
fi

test_case "exec clients die with a SIGKILLed run, as threads or --fork clients" <<'T'
for fork in "" --fork; do
    : >"$tmp/pids"
    "$isolde" run exec $fork --url "echo \$\$ >>$tmp/pids; exec sleep 1000" -n 10 -p 2 -o "$tmp/k.jsonl" >/dev/null 2>&1 &
    run=$!
    for i in $(seq 300); do
        if [ "$(wc -l <"$tmp/pids")" -ge 2 ]; then break; fi
        sleep 0.1
    done
    test "$(wc -l <"$tmp/pids")" -ge 2
    kill -9 "$run"
    wait "$run" || true
    for i in $(seq 100); do # a process is gone once it is no more, or a zombie
        alive=$(for p in $(cat "$tmp/pids"); do sed -n 's/^[^)]*) \([^Z]\).*/\1/p' "/proc/$p/stat" 2>/dev/null; done)
        if [ -z "$alive" ]; then break; fi
        sleep 0.1
    done
    for p in $(cat "$tmp/pids"); do kill "$p" 2>/dev/null || true; done
    test -z "$alive"
done
T

test_case "a client answering garbage: no transaction succeeded, exit 3 saying what it answered" <<'T'
expect_status 3 "$isolde" run exec --url "while read l; do echo garbage; done" -n 10 -p 2 -o "$tmp/g.jsonl"
expect_err 'no transaction succeeded.*first error was: not a reply to the request: garbage'
T

test_case "a reply that names a key twice is a protocol error (info), never read one way or the other" <<'T'
expect_status 3 "$isolde" run exec --url "while read l; do echo '{\"type\":\"fail\",\"type\":\"ok\"}'; done" -n 10 -p 2 -o "$tmp/twice.jsonl"
expect_err 'first error was: not a reply to the request: {"type":"fail","type":"ok"}'
T

test_case "a client that hangs past --reply-timeout: exit 3, timed out" <<'T'
expect_status 3 "$isolde" run exec --url "sleep 5" --reply-timeout 100 -n 2 -p 2 -o "$tmp/h.jsonl"
expect_err 'first error was: client timed out (100 ms)'
T

test_case "a client that dies: exit 3 with its exit status" <<'T'
expect_status 3 "$isolde" run exec --url "exit 1" -n 4 -p 2 -o "$tmp/d.jsonl"
expect_err 'first error was: client exited with status 1'
T

test_case "a client that cannot start: exit 3 with the shell's status" <<'T'
expect_status 3 "$isolde" run exec --url "$tmp/no-such-client" -n 4 -p 2 -o "$tmp/n.jsonl"
expect_err 'first error was: client exited with status 127'
T

if command -v python3 >/dev/null; then
    for mode in echo one-write; do
        test_case "a line the client writes after its ok reply ($mode) answers no transaction: serializable, not G1a" <<'T'
expect_status 0 "$isolde" run exec --url "python3 tests/data/exec/stray-after-ok.py $tmp/stray-$mode.db $mode" -n 60 -p 2 -c serializable -o "$tmp/stray-$mode.jsonl"
grep -q '"type":"info".*"error":"protocol error' "$tmp/stray-$mode.jsonl"
not grep -q '"type":"fail"[^}]*"time":[0-9]*}' "$tmp/stray-$mode.jsonl"
T
    done
else
    test_skip "a line the client writes after its ok reply" "no python3"
fi

test_case "exec without --url is a usage error" <<'T'
expect_status 3 "$isolde" run exec -n 4
T

finish
