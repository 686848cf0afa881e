#!/bin/sh
# `isolde run exec`: the line protocol with examples/exec_sqlite.py, and
# clients that answer garbage, hang or die (each costs an info and a
# restart, and the verdict is unknown); --url is required.
. tests/clilib.sh "$@"
export TMPDIR="$tmp" # histories kept as evidence

if command -v python3 >/dev/null; then
    test_case "the example client (examples/exec_sqlite.py) is strict-serializable, every txn ok" <<'T'
expect_status 0 "$isolde" run exec --url "python3 examples/exec_sqlite.py $tmp/exec.db" -n 300 -p 4
expect_out 'txns (30[01] ok, 0 fail, 0 info)'
T
    test_case "the example client is serializable on rw-register" <<'T'
expect_status 0 "$isolde" run exec --url "python3 examples/exec_sqlite.py $tmp/exec.db" -m rw-register -n 200 -p 4 -c serializable
T
else
    test_skip "the example client (examples/exec_sqlite.py)" "no python3"
fi

test_case "a client answering garbage: every txn info, unknown" <<'T'
expect_status 2 "$isolde" run exec --url "echo garbage" -n 10 -p 2
expect_out '11 txns (0 ok, 0 fail, 11 info)'
T

test_case "a client that hangs past --reply-timeout: every txn info, unknown" <<'T'
expect_status 2 "$isolde" run exec --url "sleep 5" --reply-timeout 100 -n 2 -p 2
expect_out '3 txns (0 ok, 0 fail, 3 info)'
T

test_case "a client that dies: unknown" <<'T'
expect_status 2 "$isolde" run exec --url "exit 1" -n 4 -p 2
T

test_case "exec without --url is a usage error" <<'T'
expect_status 3 "$isolde" run exec -n 4
T

finish
